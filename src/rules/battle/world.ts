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
import { isVisible } from '../../geometry/visibility.ts';
import { len } from '../../geometry/vec.ts';

interface Shape {
  bases: Base[];
  /**
   * bases of the models whose unit composition entry gives a base of its own (the Kroot Farstalkers'
   * Kill-broker on 32 mm, the profile it shares on 28.5 mm), by the model's name (`ModelState.name`)
   */
  named: Map<string, Base>;
  /** per profile, the hull of a model on a flying base (its sight footprint: Body.sight); undefined for the others */
  sights: (Base | undefined)[];
  height: number;
  /** AIRCRAFT and TOWERING models see (and are seen) past ruins as others do not: see Body */
  aircraft: boolean;
  towering: boolean;
}

const shapeCache = new WeakMap<Datasheet, Shape>();

/**
 * Bases of a datasheet's model profiles, and the models' height. The height serves vertical
 * distances only: every model stands on the table (z = 0) in this engine; upper ruin floors are not
 * modelled.
 */
function shapeOf(ds: Datasheet): Shape {
  let sh = shapeCache.get(ds);
  if (!sh) {
    const kw = ds.keywords;
    const height = kw.includes('TITANIC') ? 8 : kw.includes('VEHICLE') || kw.includes('MONSTER') ? 3 : 1.5;
    const sights = ds.models.map((p) => (p.hull && p.base.shape !== 'hull' ? baseFromSize({ shape: 'hull', ...p.hull }) : undefined));
    const named = new Map<string, Base>();
    for (const c of ds.composition ?? []) if (c.base) named.set(c.profile, baseFromSize(c.base));
    sh = { bases: ds.models.map((p) => baseFromSize(p.base)), named, sights, height, aircraft: kw.includes('AIRCRAFT'), towering: kw.includes('TOWERING') };
    shapeCache.set(ds, sh);
  }
  return sh;
}

function baseOf(sh: Shape, m: ModelState): Base {
  return (sh.named.size && sh.named.get(m.name)) || sh.bases[m.profile];
}

/**
 * The body of a model of this datasheet at `pos`. AIRCRAFT and TOWERING models have their exceptions to the
 * ruins' visibility (10th edition core rules, Ruins; RULES.md names only that ruins block visibility): the
 * flags are set only on theirs, so other bodies keep one shape.
 */
function bodyOf(ds: Datasheet, m: ModelState, pos: Body['pos']): Body {
  const sh = shapeOf(ds);
  const body = withRuinExceptions({ pos, base: baseOf(sh, m), height: sh.height }, sh);
  const sight = sh.sights[m.profile];
  if (sight) body.sight = sight;
  return body;
}

function withRuinExceptions(body: Body, sh: Shape): Body {
  if (sh.aircraft) body.aircraft = true;
  if (sh.towering) body.towering = true;
  return body;
}

export function modelBase(state: GameState, m: ModelState): Base {
  return baseOf(shapeOf(state.datasheets[m.datasheet]), m);
}

/** Bodies are cached per model while it stays where it is (positions are replaced, never mutated). */
const bodyCache = new WeakMap<ModelState, Body>();

export function modelBody(state: GameState, m: ModelState): Body {
  const pos = m.pos;
  if (!pos) throw new Error(`model ${m.id} is not on the battlefield`);
  const hit = bodyCache.get(m);
  if (hit !== undefined && hit.pos === pos) return hit;
  const body = bodyOf(state.datasheets[m.datasheet], m, pos);
  bodyCache.set(m, body);
  return body;
}

/** Body of a model at another position (planning). */
export function bodyAt(state: GameState, m: ModelState, pos: { x: number; y: number; z: number }): Body {
  return bodyOf(state.datasheets[m.datasheet], m, pos);
}

/**
 * A unit seen as one disc of radius `r` standing at a point, with its models' height: where a unit
 * would stand once moved, for planning (sight lines from it are those of the models at its edges).
 */
export function unitDisc(state: GameState, u: UnitState, at: { x: number; y: number }, r: number): Body {
  const sh = shapeOf(state.datasheets[u.models[0].datasheet]);
  return withRuinExceptions({ pos: { x: at.x, y: at.y, z: 0 }, base: { kind: 'circle', r }, height: sh.height }, sh);
}

const boardCache = new WeakMap<object, Board>();
/** Boards with hatchways: one geometry Board per set of open hatchways (the array is replaced when one changes). */
const hatchedCache = new WeakMap<object, WeakMap<readonly string[], Board>>();

/**
 * The geometry's Board: the terrain, plus every closed hatchway as a wall (open ones are gaps).
 * Cached per board and, on boards with hatchways, per `openHatchways` array.
 */
export function boardOf(state: GameState): Board {
  const sb = state.board;
  if (sb.hatchways === undefined || sb.hatchways.length === 0) {
    let b = boardCache.get(sb);
    if (!b) {
      b = { width: sb.width, height: sb.height, terrain: sb.terrain.map((t) => ({ ...t })) };
      boardCache.set(sb, b);
    }
    return b;
  }
  let byOpen = hatchedCache.get(sb);
  if (!byOpen) hatchedCache.set(sb, (byOpen = new WeakMap()));
  const open = state.openHatchways;
  let b = byOpen.get(open);
  if (!b) {
    const terrain: Board['terrain'] = sb.terrain.map((t) => ({ ...t }));
    for (const h of sb.hatchways) if (!open.includes(h.id)) terrain.push({ id: h.id, kind: 'wall', polygon: h.polygon, height: 10 });
    b = { width: sb.width, height: sb.height, terrain };
    byOpen.set(open, b);
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

/**
 * Which units are within Engagement Range of which, for the state as it is now. Computed once per
 * geometry version (models only move, appear or vanish through the events that bump it) with a
 * bounding-circle test before the model-by-model one.
 */
interface EngagementCache {
  state: GameState;
  version: number;
  engaged: Map<string, string[]>;
}

let engagementCache: EngagementCache | null = null;

type Circle = { readonly x: number; readonly y: number; readonly r: number };

/** Bounding circles of one state's units while its geometry (positions, models alive) stays the same. */
const circleCache = new WeakMap<GameState, { version: number; circles: Map<string, Circle | null> }>();

/** A circle round the unit's centre holding every model's base, for quick "too far anyway" tests (null: no model on the battlefield). */
export function boundingCircle(state: GameState, u: UnitState): Circle | null {
  let cache = circleCache.get(state);
  if (!cache || cache.version !== state.geometryVersion) circleCache.set(state, (cache = { version: state.geometryVersion, circles: new Map() }));
  let c = cache.circles.get(u.id);
  if (c === undefined) cache.circles.set(u.id, (c = computeBoundingCircle(state, u)));
  return c;
}

function computeBoundingCircle(state: GameState, u: UnitState): Circle | null {
  const c = unitCentre(u);
  let r = -1;
  for (const m of u.models) {
    if (!m.alive || !m.pos) continue;
    const br = baseRadius(state, m);
    const d = len(m.pos.x - c.x, m.pos.y - c.y) + br;
    if (d > r) r = d;
  }
  return r < 0 ? null : { x: c.x, y: c.y, r };
}

function baseRadius(state: GameState, m: ModelState): number {
  const b = modelBase(state, m);
  return b.kind === 'circle' ? b.r : b.kind === 'oval' ? Math.max(b.rx, b.ry) : len(b.l, b.w) / 2;
}

function engagementMap(state: GameState): Map<string, string[]> {
  if (engagementCache && engagementCache.state === state && engagementCache.version === state.geometryVersion) return engagementCache.engaged;
  const units: UnitState[] = [];
  const circles: { x: number; y: number; r: number }[] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield') continue;
    const c = boundingCircle(state, u);
    if (!c) continue;
    units.push(u);
    circles.push(c);
  }
  const engaged = new Map<string, string[]>();
  for (const u of units) engaged.set(u.id, []);
  for (let i = 0; i < units.length; i++) {
    for (let j = i + 1; j < units.length; j++) {
      if (units[i].player === units[j].player) continue;
      const a = circles[i], b = circles[j];
      if (len(a.x - b.x, a.y - b.y) - a.r - b.r > 1.001) continue;
      if (unitsInEngagement(state, units[i], units[j])) {
        engaged.get(units[i].id)!.push(units[j].id);
        engaged.get(units[j].id)!.push(units[i].id);
      }
    }
  }
  engagementCache = { state, version: state.geometryVersion, engaged };
  return engaged;
}

/** Enemy units on the battlefield within Engagement Range of this unit, in creation order. */
export function engagedEnemies(state: GameState, u: UnitState): UnitState[] {
  const ids = engagementMap(state).get(u.id);
  return ids ? ids.map((id) => state.units[id]) : [];
}

export function isEngaged(state: GameState, u: UnitState): boolean {
  const ids = engagementMap(state).get(u.id);
  return ids !== undefined && ids.length > 0;
}

/** Centroid of the unit's alive models on the battlefield. */
export function unitCentre(u: UnitState): { x: number; y: number } {
  let x = 0, y = 0, n = 0;
  for (const m of u.models) if (m.alive && m.pos) { x += m.pos.x; y += m.pos.y; n++; }
  return n ? { x: x / n, y: y / n } : { x: 0, y: 0 };
}

/**
 * Line of sight between two models, cached per pair of bodies: terrain never moves, and a model's
 * body object is replaced when it moves (see modelBody), so a sight line computed once holds until
 * one of the two moves. Weak maps let the entries of bodies no longer used go.
 */
const losCache = new WeakMap<Board, WeakMap<Body, WeakMap<Body, boolean>>>();

export function modelsSee(state: GameState, a: Body, _aId: string, b: Body, _bId: string): boolean {
  // keyed by the board too: a board whose terrain changes (a hatchway opening) is a new board object
  const board = boardOf(state);
  let byA = losCache.get(board);
  if (!byA) losCache.set(board, (byA = new WeakMap()));
  let row = byA.get(a);
  if (!row) byA.set(a, (row = new WeakMap()));
  let v = row.get(b);
  if (v === undefined) {
    v = isVisible(a, b, board);
    row.set(b, v);
  }
  return v;
}

/** A unit is visible to another when any model of the first sees any model of the second. */
export function unitSees(state: GameState, observer: UnitState, target: UnitState): boolean {
  for (const o of observer.models) {
    if (!o.alive || !o.pos) continue;
    const ob = modelBody(state, o);
    for (const t of target.models) {
      if (t.alive && t.pos && modelsSee(state, ob, o.id, modelBody(state, t), t.id)) return true;
    }
  }
  return false;
}

/** A lower bound of the distance between two units' models (0 when their bounding circles meet). */
export function unitGapLowerBound(state: GameState, a: UnitState, b: UnitState): number {
  const ca = boundingCircle(state, a);
  const cb = boundingCircle(state, b);
  if (!ca || !cb) return Infinity;
  return Math.max(0, len(ca.x - cb.x, ca.y - cb.y) - ca.r - cb.r);
}
