/**
 * Hatchways of a Boarding Actions board: doors in the walls of the ship's interior, opened and closed
 * during the battle.
 *
 * The seed pages do not give these rules; the engine plays the following (after the 10th-edition
 * Boarding Actions rules, simplified where noted):
 * - a hatchway fills a gap in a wall; the scenario gives its footprint (`hatchways` in the scenario
 *   file or its terrain layout). Hatchways start the battle closed, unless the scenario says
 *   `"open": true` for one;
 * - a closed hatchway is a wall: it blocks movement (no model crosses it, is set up or ends a move on
 *   it) and visibility; an open hatchway is a gap in the wall that models move, see and shoot through
 *   and may stand in;
 * - in your Movement phase, when a unit of yours on the battlefield has been selected to move (before
 *   it moves), and again just after it ends a Normal, Advance or Fall Back move, if one or more of its
 *   models are within 1" of a hatchway, you may open that hatchway (if it is closed) or close it (if it
 *   is open). It is your decision, one hatchway at a time; each hatchway can be opened or closed once
 *   in each of those two steps. Doing so costs the unit nothing (it still moves, shoots and charges);
 * - a hatchway cannot be closed while any model (of either army) stands on its footprint;
 * - every opening and closing is a 'hatchway' event; the geometry sees the hatchways closed at the
 *   time (src/rules/battle/world.ts `boardOf`).
 * Not played: destroying hatchways with attacks, and the Boarding Actions rules that lock hatchways.
 */
import type { Game } from '../../core/game.ts';
import type { GameState, HatchwayState, ModelState, UnitState } from '../../core/state.ts';
import { abilityRulesWith, registerRule } from '../../core/rules-registry.ts';
import { bodyShape, isWithinOfPolygon } from '../../geometry/distance.ts';
import { shapeOverlapsPolygon } from '../../geometry/polygon.ts';
import { OVERLAP_TOLERANCE, type Base, type Board } from '../../geometry/types.ts';
import { boardOf, modelBody } from './world.ts';
import { isVisible, pointBody } from '../../geometry/visibility.ts';
import { openWindow } from '../windows.ts';

/** How close a model must be to a hatchway to open or close it. */
export const HATCHWAY_REACH = 1;

export type HatchwayChoice = { hatchway: string; open: boolean } | { keep: true };

export function hatchways(state: GameState): HatchwayState[] {
  return state.board.hatchways ?? [];
}

/** The hatchway with this id on the board, if any. */
export function hatchwayById(state: GameState, id: unknown): HatchwayState | undefined {
  return hatchways(state).find((h) => h.id === id);
}

export function isHatchwayOpen(state: GameState, id: string): boolean {
  return state.openHatchways.includes(id);
}

/** Is a model of the unit within 1" of the hatchway? */
export function unitNearHatchway(state: GameState, u: UnitState, h: HatchwayState): boolean {
  for (const m of u.models) {
    if (m.alive && m.pos && isWithinOfPolygon(modelBody(state, m), h.polygon, HATCHWAY_REACH)) return true;
  }
  return false;
}

/** Does any model on the battlefield stand on the hatchway's footprint (so it cannot be closed)? */
export function hatchwayBlocked(state: GameState, h: HatchwayState): boolean {
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield') continue;
    for (const m of u.models) {
      if (m.alive && m.pos && shapeOverlapsPolygon(bodyShape(modelBody(state, m)), h.polygon, OVERLAP_TOLERANCE)) return true;
    }
  }
  return false;
}

/**
 * What the unit may do with the hatchways now: open a closed one, close an open one that no model
 * stands on, among those within 1" of its models and not already changed in this step (`done`).
 */
export function hatchwayOptions(state: GameState, u: UnitState, done: readonly string[] = []): { hatchway: string; open: boolean }[] {
  const out: { hatchway: string; open: boolean }[] = [];
  if (u.location !== 'battlefield') return out;
  for (const h of hatchways(state)) {
    if (done.includes(h.id) || !unitNearHatchway(state, u, h)) continue;
    const open = isHatchwayOpen(state, h.id);
    if (open && !mayCloseHatchway(state, h)) continue;
    out.push({ hatchway: h.id, open: !open });
  }
  return out;
}

/**
 * Effect kind: a hatchway that cannot be closed again this battle (params.hatchway; D-STRIKE). The effect's
 * entry is registered by the rule that adds it; hatchwayOptions offers no closing of it.
 */
export const HATCHWAY_HELD_OPEN = 'Hatchway held open';

function heldOpen(state: GameState, id: string): boolean {
  for (const e of state.effects) if (e.kind === HATCHWAY_HELD_OPEN && e.params.hatchway === id) return true;
  return false;
}

/** Is the hatchway open, and may it be closed now (no model stands on it, no rule holds it open)? */
export function mayCloseHatchway(state: GameState, h: HatchwayState): boolean {
  return isHatchwayOpen(state, h.id) && !hatchwayBlocked(state, h) && !heldOpen(state, h.id);
}

/** Open or close a hatchway (an event). */
export function setHatchway(g: Game, id: string, open: boolean, unit: string | null): void {
  if (!hatchways(g.state).some((h) => h.id === id)) throw new Error(`no hatchway ${id} on this board`);
  if (isHatchwayOpen(g.state, id) === open) return;
  g.emit({ type: 'hatchway', hatchway: id, open, unit });
}

/**
 * Effect kind: the unit operates no hatchway again this turn (it opened one in the middle of its move:
 * Unerring Strike). Its hatchway steps offer nothing.
 */
export const OPERATES_NO_HATCHWAY = 'Operates no hatchway this turn';
registerRule({ name: OPERATES_NO_HATCHWAY, kind: 'effect' });

/** May the unit still operate hatchways this turn? */
export function mayOperateHatchways(state: GameState, u: UnitState): boolean {
  for (const e of state.effects) if (e.kind === OPERATES_NO_HATCHWAY && e.unit === u.id) return false;
  return true;
}

/**
 * The unit opens a hatchway (an event), and what answers an opening follows: its own abilities
 * (Rule.hatchwayOpened) and, in the Movement phase, the window for the opponent's reactions.
 */
export function openHatchwayBy(g: Game, unit: UnitState, id: string): void {
  setHatchway(g, id, true, unit.id);
  for (const r of abilityRulesWith(unit, 'hatchwayOpened')) r.hatchwayOpened!(g, g.state.units[unit.id], id);
  if (g.state.phase === 'movement') openWindow(g, { name: 'movement/hatchway-opened', unit: unit.id, targets: [], data: { hatchway: id } });
}

/**
 * The hatchway step of a unit (selected to move, or just after its move): the player may open or
 * close the hatchways within 1" of it, one at a time, until they keep the rest as they are. The
 * options list the openings first, then keeping, then the closings.
 */
export function hatchwayStep(g: Game, u: UnitState): void {
  if (hatchways(g.state).length === 0 || !mayOperateHatchways(g.state, u)) return;
  const done: string[] = [];
  for (;;) {
    const unit = g.state.units[u.id];
    const possible = hatchwayOptions(g.state, unit, done);
    if (possible.length === 0) return;
    const options: HatchwayChoice[] = [...possible.filter((o) => o.open), { keep: true }, ...possible.filter((o) => !o.open)];
    const { option } = g.decide({
      kind: 'hatchway', player: unit.player, prompt: `${unit.name}: open or close a hatchway within 1"?`, options, context: { unit: unit.id },
    });
    if ('keep' in option) return;
    if (option.open) openHatchwayBy(g, unit, option.hatchway);
    else setHatchway(g, option.hatchway, false, unit.id);
    done.push(option.hatchway);
  }
}

/**
 * Which side of a hatchway a point is on: the hatchway fills a gap in a wall and the wall runs along its
 * longer side, so the sides are the half-planes either side of the line through its centre that way
 * (+1, -1; 0 on the line).
 */
export function hatchwaySide(polygon: readonly { x: number; y: number }[], p: { x: number; y: number }): number {
  const { x: cx, y: cy } = centreOf(polygon);
  const { dx, dy } = wallDirection(polygon);
  const cross = dx * (p.y - cy) - dy * (p.x - cx);
  return Math.abs(cross) < 1e-9 ? 0 : Math.sign(cross);
}

/**
 * A point facing the hatchway from `from`'s side: 1.5" from its centre across its wall, where a unit heading
 * there comes within 1" of it (a closed hatchway is a wall: a unit sent to its centre stops at its face).
 */
export function hatchwayApproach(h: HatchwayState, from: { x: number; y: number }): { x: number; y: number } {
  const c = centreOf(h.polygon);
  const side = hatchwaySide(h.polygon, from) || 1;
  const { dx, dy } = wallDirection(h.polygon);
  const l = Math.hypot(dx, dy) || 1;
  // hatchwaySide's sign is that of the cross product (dx, dy) x (p - c): the normal (-dy, dx) points to side +1
  return { x: c.x - (dy / l) * 1.5 * side, y: c.y + (dx / l) * 1.5 * side };
}

/** The wall's direction through a hatchway: its footprint's longest edge. */
function wallDirection(polygon: readonly { x: number; y: number }[]): { dx: number; dy: number } {
  let dx = 0, dy = 0, best = -1;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i], b = polygon[(i + 1) % polygon.length];
    const l = Math.hypot(b.x - a.x, b.y - a.y);
    if (l > best + 1e-9) { best = l; dx = b.x - a.x; dy = b.y - a.y; }
  }
  return { dx, dy };
}

/** The centre of a hatchway's footprint. */
export function hatchwayCentre(h: HatchwayState): { x: number; y: number } {
  return centreOf(h.polygon);
}

function centreOf(polygon: readonly { x: number; y: number }[]): { x: number; y: number } {
  let x = 0, y = 0;
  for (const q of polygon) { x += q.x; y += q.y; }
  return { x: x / polygon.length, y: y / polygon.length };
}

/**
 * Does the model see the (closed) hatchway, and is it within `range` of the model's base (measured to its closest
 * point, as to any terrain feature)? Seen: a sight line reaches the hatchway's centre past every wall and closed
 * hatchway but this one (D-STRIKE).
 */
export function modelSeesHatchway(state: GameState, m: ModelState, h: HatchwayState, range: number): boolean {
  if (!m.alive || !m.pos) return false;
  const body = modelBody(state, m);
  if (!isWithinOfPolygon(body, h.polygon, range)) return false;
  return isVisible(body, pointBody(hatchwayCentre(h), 1), boardWithout(boardOf(state), h.id));
}

/** A board without one of its terrain pieces (a closed hatchway's wall), remembered per board. */
const withoutCache = new WeakMap<Board, Map<string, Board>>();
function boardWithout(board: Board, id: string): Board {
  let byId = withoutCache.get(board);
  if (!byId) withoutCache.set(board, (byId = new Map()));
  let b = byId.get(id);
  if (!b) byId.set(id, (b = { ...board, terrain: board.terrain.filter((t) => t.id !== id) }));
  return b;
}

/**
 * The enemy units of `unit` within `range` of the hatchway and wholly on the other side of it from `unit`
 * (every model of each: D-STRIKE's stunned units).
 */
export function enemiesBeyondHatchway(state: GameState, unit: UnitState, h: HatchwayState, range: number): UnitState[] {
  const out: UnitState[] = [];
  for (const id of state.unitOrder) {
    const e = state.units[id];
    if (e.player === unit.player || e.location !== 'battlefield') continue;
    const alive = e.models.filter((m) => m.alive && m.pos);
    if (alive.length === 0 || !alive.some((m) => isWithinOfPolygon(modelBody(state, m), h.polygon, range))) continue;
    if (modelsAcrossHatchway(state, h.polygon, unit.models, alive)) out.push(e);
  }
  return out;
}

/** Are all the points `to` on the other side of the hatchway from all the points `from` (none on its line)? The agents' estimate for points; models use modelsAcrossHatchway. */
export function acrossHatchway(polygon: readonly { x: number; y: number }[], from: readonly { x: number; y: number }[], to: readonly { x: number; y: number }[]): boolean {
  if (from.length === 0 || to.length === 0) return false;
  return sidesAcross(from.map((p) => hatchwaySide(polygon, p)), to.map((p) => hatchwaySide(polygon, p)));
}

/** Every side in `from` one side (not 0), every side in `to` the other. */
function sidesAcross(from: readonly number[], to: readonly number[]): boolean {
  const side = from[0];
  if (side === 0) return false;
  for (const x of from) if (x !== side) return false;
  for (const x of to) if (x !== -side) return false;
  return true;
}

/**
 * The side of a hatchway a model is wholly on: its whole base beyond the line through the hatchway's centre
 * (+1, -1, as hatchwaySide), or 0 when its base crosses that line (a model standing in the doorway).
 */
export function modelHatchwaySide(state: GameState, polygon: readonly { x: number; y: number }[], m: ModelState): number {
  if (!m.pos) return 0;
  const { x: cx, y: cy } = centreOf(polygon);
  const { dx, dy } = wallDirection(polygon);
  const l = Math.hypot(dx, dy) || 1;
  // signed distance from the line, positive on side +1 (whose normal is (-dy, dx))
  const d = (dx * (m.pos.y - cy) - dy * (m.pos.x - cx)) / l;
  const reach = baseReach(modelBody(state, m).base, -dy / l, dx / l);
  if (d >= reach - 1e-9) return 1;
  if (d <= -reach + 1e-9) return -1;
  return 0;
}

/** How far a base reaches from its centre along the unit vector (nx, ny). */
function baseReach(base: Base, nx: number, ny: number): number {
  if (base.kind === 'circle') return base.r;
  const c = Math.cos(base.angle), sn = Math.sin(base.angle);
  const u = nx * c + ny * sn, v = -nx * sn + ny * c;
  if (base.kind === 'oval') return Math.hypot(base.rx * u, base.ry * v);
  return (base.l / 2) * Math.abs(u) + (base.w / 2) * Math.abs(v);
}

/**
 * Is every living model of `from` wholly on one side of the hatchway and every living model of `to` wholly on
 * the other (RAPID AMBUSH, D-STRIKE)? "Wholly": the whole base, so a model in the doorway is on neither side.
 */
export function modelsAcrossHatchway(state: GameState, polygon: readonly { x: number; y: number }[], from: readonly ModelState[], to: readonly ModelState[]): boolean {
  const a = placed(from), b = placed(to);
  if (a.length === 0 || b.length === 0) return false;
  return sidesAcross(a.map((m) => modelHatchwaySide(state, polygon, m)), b.map((m) => modelHatchwaySide(state, polygon, m)));
}

function placed(models: readonly ModelState[]): ModelState[] {
  return models.filter((m) => m.alive && m.pos);
}

/**
 * Is every attacking model wholly on the other side of the hatchway from every model of the target unit
 * (GUARDIAN CONSTRUCTS, Responsive Volley)? Attackers without a position (a destroyed model fighting) are
 * on no side.
 */
export function attackAcrossHatchway(state: GameState, h: HatchwayState, attackers: readonly ModelState[], target: UnitState): boolean {
  return attackers.every((m) => m.alive && m.pos) && modelsAcrossHatchway(state, h.polygon, attackers, target.models);
}
