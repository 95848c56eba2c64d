/**
 * The bridge between the game state and the pure geometry: model bodies (position, base, height),
 * the board with its terrain, and distance questions between units.
 */
import type { Datasheet } from '../../data/datasheet.ts';
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import type { Base, Board, Body } from '../../geometry/types.ts';
import { baseFromSize } from '../../geometry/bases.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { inEngagementRange } from '../../geometry/ranges.ts';

const baseCache = new WeakMap<Datasheet, Base[]>();

function basesOf(ds: Datasheet): Base[] {
  let b = baseCache.get(ds);
  if (!b) {
    b = ds.models.map((p) => baseFromSize(p.base));
    baseCache.set(ds, b);
  }
  return b;
}

/**
 * Model height, for vertical distances only (every model stands on the table, z = 0, in this engine:
 * upper ruin floors are not modelled).
 */
function heightOf(ds: Datasheet): number {
  if (ds.keywords.includes('TITANIC')) return 8;
  if (ds.keywords.includes('VEHICLE') || ds.keywords.includes('MONSTER')) return 3;
  return 1.5;
}

export function modelBase(state: GameState, m: ModelState): Base {
  return basesOf(state.datasheets[m.datasheet])[m.profile];
}

export function modelBody(state: GameState, m: ModelState): Body {
  if (!m.pos) throw new Error(`model ${m.id} is not on the battlefield`);
  const ds = state.datasheets[m.datasheet];
  return { pos: m.pos, base: basesOf(ds)[m.profile], height: heightOf(ds) };
}

/** Body of a model at another position (planning). */
export function bodyAt(state: GameState, m: ModelState, pos: { x: number; y: number; z: number }): Body {
  const ds = state.datasheets[m.datasheet];
  return { pos, base: basesOf(ds)[m.profile], height: heightOf(ds) };
}

export function unitBodies(state: GameState, u: UnitState): Body[] {
  const out: Body[] = [];
  for (const m of u.models) if (m.alive && m.pos) out.push(modelBody(state, m));
  return out;
}

const boardCache = new WeakMap<object, Board>();

export function boardOf(state: GameState): Board {
  let b = boardCache.get(state.board);
  if (!b) {
    b = { width: state.board.width, height: state.board.height, terrain: state.board.terrain.map((t) => ({ ...t })) };
    boardCache.set(state.board, b);
  }
  return b;
}

/** Closest horizontal edge-to-edge distance between the alive models of two units. */
export function unitDistance(state: GameState, a: UnitState, b: UnitState): number {
  let best = Infinity;
  for (const ma of a.models) {
    if (!ma.alive || !ma.pos) continue;
    const ba = modelBody(state, ma);
    for (const mb of b.models) {
      if (!mb.alive || !mb.pos) continue;
      const d = horizontalDistance(ba, modelBody(state, mb));
      if (d < best) best = d;
    }
  }
  return best;
}

export function unitsInEngagement(state: GameState, a: UnitState, b: UnitState): boolean {
  for (const ma of a.models) {
    if (!ma.alive || !ma.pos) continue;
    const ba = modelBody(state, ma);
    for (const mb of b.models) {
      if (mb.alive && mb.pos && inEngagementRange(ba, modelBody(state, mb))) return true;
    }
  }
  return false;
}

/** Enemy units on the battlefield within Engagement Range of this unit. */
export function engagedEnemies(state: GameState, u: UnitState): UnitState[] {
  const out: UnitState[] = [];
  for (const id of state.unitOrder) {
    const e = state.units[id];
    if (e.player === u.player || e.location !== 'battlefield') continue;
    if (unitsInEngagement(state, u, e)) out.push(e);
  }
  return out;
}

export function isEngaged(state: GameState, u: UnitState): boolean {
  for (const id of state.unitOrder) {
    const e = state.units[id];
    if (e.player !== u.player && e.location === 'battlefield' && unitsInEngagement(state, u, e)) return true;
  }
  return false;
}

/** Centroid of the unit's alive models on the battlefield. */
export function unitCentre(u: UnitState): { x: number; y: number } {
  let x = 0, y = 0, n = 0;
  for (const m of u.models) if (m.alive && m.pos) { x += m.pos.x; y += m.pos.y; n++; }
  return n ? { x: x / n, y: y / n } : { x: 0, y: 0 };
}
