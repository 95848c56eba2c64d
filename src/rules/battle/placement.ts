/**
 * Moving and setting up units through the geometry planner: the engine states an intent (mode,
 * distance, destination or targets), the planner finds legal positions for every model, and the
 * engine records them as events.
 */
import type { Game } from '../../core/game.ts';
import { abilityRulesWith, effectsWith, forEachActiveRule, getRule } from '../../core/rules-registry.ts';
import type { GameState, PlayerIndex, Position, UnitState } from '../../core/state.ts';
import { planMove, type MoveMode, type MoveRequest, type PlanModel, type PlannedMove, type PlanResult, type WalksOver, type World } from '../../geometry/planner.ts';
import { modelsOverlap } from '../../geometry/distance.ts';
import { pointInPolygon, polygonAabb } from '../../geometry/polygon.ts';
import { baseBoundingRadius } from '../../geometry/shape.ts';
import type { Base, Body } from '../../geometry/types.ts';
import { allModelsHave, hasKeyword, isMonsterOrVehicle, unitsToSetUp } from './units.ts';
import { boardOf, modelBase, modelBody } from './world.ts';

/** Everything on the table, for the planner; `exclude` leaves out the unit being moved. */
export function worldOf(state: GameState, exclude: string | null = null): World {
  const models: World['models'] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield' || u.id === exclude) continue;
    const titanic = hasKeyword(u, 'TITANIC');
    const monsterOrVehicle = isMonsterOrVehicle(u);
    for (const m of u.models) if (m.alive && m.pos) models.push({ id: m.id, unitId: u.id, player: String(u.player), body: modelBody(state, m), ...(titanic ? { titanic } : {}), ...(monsterOrVehicle ? { monsterOrVehicle } : {}) });
  }
  return { board: boardOf(state), models, objectives: state.objectives.map((o) => ({ id: o.id, pos: o.pos })) };
}

export function planModels(state: GameState, u: UnitState): PlanModel[] {
  const fly = allModelsHave(state, u, 'FLY');
  const heavy = isMonsterOrVehicle(u);
  return u.models.filter((m) => m.alive).map((m) => {
    const base = modelBase(state, m);
    const ds = state.datasheets[m.datasheet];
    const height = ds.keywords.includes('VEHICLE') || ds.keywords.includes('MONSTER') ? 3 : 1.5;
    // only INFANTRY and BEASTS models move through a ruin's walls and floors (core rules, Ruins); FLY models go over
    // them; any other (MOUNTED without FLY: Krootox Riders) is kept out of it as a VEHICLE or MONSTER is
    const throughRuins = ds.keywords.includes('INFANTRY') || ds.keywords.includes('BEASTS') || fly;
    return { id: m.id, body: m.pos ? modelBody(state, m) : null, base, height, canFly: fly, isVehicleOrMonster: heavy || !throughRuins, ...(heavy ? { monsterOrVehicle: true } : {}) };
  });
}

export type PlanOptions = Omit<MoveRequest, 'mode' | 'player' | 'unitId' | 'models'>;

/** `standIns`: models not in the state that stand on the table for this plan (a transport that fights on death first). */
export function planUnit(state: GameState, u: UnitState, mode: MoveMode, opts: PlanOptions, standIns: World['models'] = []): PlanResult {
  const models = planModels(state, u);
  // a walker's rule or an effect may let the unit's moves pass over models and terrain (Heavy Walker, ACROBATIC LEAPS)
  if (mode === 'normal' || mode === 'advance' || mode === 'fallBack') {
    const over = movesOverOf(state, u);
    if (over) for (const m of models) m.walksOver = over;
  }
  // a rule may let its Charge moves pass through enemy models (Acrobatic Onslaught), as a FLY unit's Normal move
  if (mode === 'charge' && chargesThroughModels(state, u)) for (const m of models) { m.canFly = true; m.overModels = true; }
  const world = worldOf(state, u.id);
  if (standIns.length) world.models.push(...standIns);
  return planMove({ mode, player: String(u.player), unitId: u.id, models, ...opts }, world);
}

/**
 * What the unit's Normal, Advance and Fall Back moves pass over (Rule.movesOver of its abilities and the
 * effects on it), null for nothing; with several rules, the widest of each.
 */
export function movesOverOf(state: GameState, u: UnitState): WalksOver | null {
  // asked for every Normal, Advance and Fall Back move planned: nothing is made for the usual unit with none
  const rules = abilityRulesWith(u, 'movesOver');
  const effects = effectsWith(state, u.id, 'movesOver');
  if (rules.length === 0 && effects.length === 0) return null;
  const all = [...rules, ...effects.map((e) => getRule(e.kind)!)].map((r) => r.movesOver!);
  return { titanicModels: all.some((o) => o.titanicModels), terrainHeight: Math.max(...all.map((o) => o.terrainHeight)) };
}

function chargesThroughModels(state: GameState, u: UnitState): boolean {
  let yes = false;
  forEachActiveRule(state, u, 'self', (r, src) => { if (!yes && r.chargeThroughModels?.({ state, unit: u }, src)) yes = true; });
  return yes;
}

/** Record a planned placement as an event. */
export function applyPlan(g: Game, u: UnitState, plan: PlanResult, mode: string): boolean {
  if (!plan.ok) return false;
  const alive = u.models.filter((m) => m.alive);
  const positions: { model: string; pos: Position }[] = alive.map((m, i) => ({ model: m.id, pos: { x: plan.positions[i].x, y: plan.positions[i].y, z: plan.positions[i].z } }));
  g.emit({ type: 'models-placed', unit: u.id, mode, positions });
  return true;
}

/** Candidate points of a deployment zone an agent can choose from: a grid of points inside it (`shift`: the grid moved by that much in x and y). */
export function deploymentAnchors(state: GameState, zone: number, shift = 0): { x: number; y: number }[] {
  const poly = state.board.deploymentZones[zone]?.polygon;
  if (!poly) throw new Error(`no deployment zone #${zone}`);
  const box = polygonAabb(poly);
  const out: { x: number; y: number }[] = [];
  const step = 6;
  for (let x = box.minX + 3 + shift; x <= box.maxX - 2; x += step) {
    for (let y = box.minY + 3 + shift; y <= box.maxY - 2; y += step) {
      if (pointInPolygon({ x, y }, poly)) out.push({ x: round(x), y: round(y) });
    }
  }
  return out;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

/** A unit that finds no room in its deployment zone, with the scenario's parts that may be at fault (for the error's field names). */
export class DeploymentRoomError extends Error {
  constructor(readonly atFault: readonly ('army' | 'deployment' | 'terrain')[], message: string) {
    super(message);
  }
}

/**
 * Set up a unit wholly within its deployment zone near a point. If the planner finds no room there,
 * the other anchors are tried nearest first, then the same grid moved half an inch: the planner searches
 * a 1" grid aligned on its anchor, and a pocket the earlier units left between those points (a cramped
 * Boarding Actions zone) is found only off it. A place is taken only if the army's units still to be set up
 * fit beside it (`leavesRoomForTheRest`): the nearest such place to the point, else (no arrangement found)
 * the nearest place, as before. Scattered set-up points could otherwise fill a cramped zone before its
 * last unit (random agents in Boarding Actions). A unit that fits nowhere is an error (the scenario's army
 * cannot be deployed), which says whether the unit would fit in the zone alone.
 */
export function placeForDeployment(g: Game, u: UnitState, point: { x: number; y: number }, zone: number): void {
  const s = g.state;
  const poly = s.board.deploymentZones[zone].polygon;
  const nearest = (shift: number) => deploymentAnchors(s, zone, shift).sort((a, b) => dist2(a, point) - dist2(b, point));
  const anchors = [point, ...nearest(0), ...nearest(0.5)];
  const rest = unitsToSetUp(s, u.player).filter((o) => o.id !== u.id);
  const room = roomOf(g);
  const check = rest.length > 0 && !room.gaveUp.has(u.player);
  let chosen: PlannedMove | null = null;
  let leavesRoom = false;
  // several anchors lead to the same place: each place is checked once, and a few at most
  const checked = new Set<string>();
  for (const a of anchors) {
    const plan = planUnit(s, u, 'setUp', { destination: a, zone: poly });
    if (!plan.ok) continue;
    chosen ??= plan;
    if (!check) break;
    const place = plan.positions.map((p) => `${p.x},${p.y}`).join(' ');
    if (checked.has(place)) continue;
    checked.add(place);
    if (leavesRoomForTheRest(g, u, plan, rest, zone)) {
      chosen = plan;
      leavesRoom = true;
      break;
    }
    if (checked.size >= MAX_ROOM_CHECKS) break;
  }
  // no arrangement found: the army's later units are set up as they come, unchecked (a zone too small for the
  // army would otherwise repeat the whole search for each of them)
  if (check && chosen && !leavesRoom) room.gaveUp.add(u.player);
  if (chosen) {
    g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
    applyPlan(g, u, chosen, 'deploy');
    return;
  }
  // the other units took the room, or the unit fits nowhere in the zone even alone: the fixes differ
  const models = planModels(s, u);
  const empty: World = { board: boardOf(s), models: [], objectives: [] };
  const fitsAlone = anchors.some((a) => planMove({ mode: 'setUp', player: String(u.player), unitId: u.id, models, destination: a, zone: poly }, empty).ok);
  // it fits there alone: the units set up before it took the room (a zone too small for the army, or set-up
  // points that scattered them: the random agent's, in a cramped Boarding Actions zone)
  const before = s.unitOrder.filter((id) => s.units[id].player === u.player && s.units[id].location === 'battlefield').length;
  if (fitsAlone) throw new DeploymentRoomError(['army', 'deployment', 'terrain'], `cannot deploy ${u.name} (${u.id}): no room left in its deployment zone (zones[${zone}]) after ${before} units of its army were set up; it would fit alone (expected a zone, less its terrain, with room for the whole army, and set-up points that leave room for the rest)`);
  // the unit alone does not fit: the zone, its terrain or the unit itself is at fault
  throw new DeploymentRoomError(
    ['deployment', 'terrain', 'army'],
    `cannot deploy ${u.name} (${u.id}): its ${models.length} models cannot be set up wholly within its deployment zone (zones[${zone}]) in Unit Coherency even with no other model on the table (expected a zone, less its terrain, with room for each unit)`,
  );
}

/**
 * Where each unit still to be set up would fit, found by the last room check of its game: a witness that
 * there is room, kept while no model set up since stands on it, so that each check plans only the units
 * the new unit took the place of (a full check at every set-up cost a tenth of a random game's time).
 * One game's at a time (a game deploys in one go): a WeakMap keyed by the game raised a long batch's RSS by
 * ~40 MB (peaks of 464-485 MB against 406-445 over 100,000 small games on 2 workers).
 */
interface RoomLayout { game: Game; spots: Map<string, World['models']>; gaveUp: Set<PlayerIndex> }
let roomLayout: RoomLayout | null = null;

/** How many places of a unit are checked for room for the rest before the nearest is taken anyway. */
const MAX_ROOM_CHECKS = 12;

function roomOf(g: Game): RoomLayout {
  if (roomLayout?.game !== g) roomLayout = { game: g, spots: new Map(), gaveUp: new Set() };
  return roomLayout;
}

/**
 * Whether, with the unit set up as planned, the rest of its army's units still fit in the zone. Units whose
 * place in the last check's layout is still free keep it; the others (largest first) take the first point
 * of the zone's grid (then the grid moved half an inch) where the planner finds room beside all of these;
 * if one finds none, all of them are placed that way afresh. A greedy packing: it may miss an arrangement
 * that fits (then the caller keeps its nearest place).
 */
function leavesRoomForTheRest(g: Game, u: UnitState, plan: PlannedMove, rest: UnitState[], zone: number): boolean {
  if (rest.length === 0) return true;
  const s = g.state;
  const placed = standIns(s, u, plan);
  const onTable = [...worldOf(s).models, ...placed];
  const last = roomOf(g).spots;
  const kept = new Map<string, World['models']>();
  for (const o of rest) {
    const spot = last.get(o.id);
    if (spot && !spot.some((m) => onTable.some((t) => mayTouch(m.body, t.body) && modelsOverlap(m.body, t.body)))) kept.set(o.id, spot);
  }
  const layout = packUnits(s, rest, zone, [...placed, ...[...kept.values()].flat()], kept) ?? packUnits(s, rest, zone, placed, new Map());
  if (!layout) return false;
  // one map for both armies (unit ids are unique): the other player's layout stays for its next check
  for (const [id, spot] of layout) last.set(id, spot);
  return true;
}

/** Set up, in the planner only, the units `rest` not already in `layout`, largest first, beside `taken`; null if one finds no room. */
function packUnits(s: GameState, rest: UnitState[], zone: number, taken: World['models'], layout: Map<string, World['models']>): Map<string, World['models']> | null {
  const poly = s.board.deploymentZones[zone].polygon;
  const area = (o: UnitState) => o.models.reduce((t, m) => t + (m.alive ? baseArea(modelBase(s, m)) : 0), 0);
  const todo = rest.filter((o) => !layout.has(o.id)).sort((a, b) => area(b) - area(a));
  if (todo.length === 0) return layout;
  const grid = [...deploymentAnchors(s, zone, 0), ...deploymentAnchors(s, zone, 0.5)];
  const out = new Map(layout);
  const around = [...taken];
  for (const o of todo) {
    let found: PlannedMove | null = null;
    for (const a of grid) {
      const r = planUnit(s, o, 'setUp', { destination: a, zone: poly }, around);
      if (r.ok) {
        found = r;
        break;
      }
    }
    if (!found) return null;
    const models = standIns(s, o, found);
    out.set(o.id, models);
    around.push(...models);
  }
  return out;
}

/** The unit's living models where a plan puts them, as the planner's models of the table. */
function standIns(s: GameState, o: UnitState, p: PlannedMove): World['models'] {
  return o.models.filter((m) => m.alive).map((m, i) => ({
    id: m.id, unitId: o.id, player: String(o.player),
    body: modelBody(s, { ...m, pos: { x: p.positions[i].x, y: p.positions[i].y, z: p.positions[i].z } }),
  }));
}

/** Whether two models' bounding circles meet (most pairs are far apart: a cheap test first). */
function mayTouch(a: Body, b: Body): boolean {
  const r = baseBoundingRadius(a.base) + baseBoundingRadius(b.base);
  return (a.pos.x - b.pos.x) ** 2 + (a.pos.y - b.pos.y) ** 2 < r * r;
}

function baseArea(b: Base): number {
  if (b.kind === 'circle') return Math.PI * b.r * b.r;
  if (b.kind === 'oval') return Math.PI * b.rx * b.ry;
  return b.w * b.l;
}

function dist2(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return (a.x - b.x) ** 2 + (a.y - b.y) ** 2;
}
