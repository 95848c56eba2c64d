/**
 * A unit's view of the battlefield (UnitCtx: its enemies, their danger, the markers) and the score of a
 * position: shooting and charges it opens, danger it runs, markers it holds, sight and cover.
 */
import './registries.ts';
import type { GameState, UnitState } from '../../src/core/state.ts';
import { allows, escortUnits, forbids } from '../../src/core/rules-registry.ts';
import { enemyUnits, maxRange, p2d6AtLeast, unitAttackPotential, unitValue, reachesAt, weaponPotentials, type WeaponPotential } from '../../src/ai/evaluate.ts';
import { dangerFrom, dangerSources, dist, expectedAdvance, objectiveSnapshot, unitGeo, unitOC, unitSpread, type DangerSource, type Point, type UnitGeo } from '../../src/ai/tactics.ts';
import { hasKeyword, isMonsterOrVehicle, unitMove } from '../../src/rules/battle/units.ts';
import { isEngaged, unitDisc } from '../../src/rules/battle/world.ts';
import { isVisible } from '../../src/geometry/visibility.ts';
import type { Body, Board } from '../../src/geometry/types.ts';
import { pointInPolygon } from '../../src/geometry/polygon.ts';
import { perVersion } from '../../src/ai/memo.ts';
import { len } from '../../src/geometry/vec.ts';
import type { Ctx, SightMemory } from './context.ts';
import { type ObjectiveView, objectiveGain } from './objectives.ts';
import { passengersOf } from './moves.ts';

export interface EnemyView {
  u: UnitState;
  x: number;
  y: number;
  r: number;
  ranged: WeaponPotential[];
  maxRange: number;
  melee: number;
  /** engaged with one of my units: my guns cannot pick it (unless it is this unit's own fight) */
  engaged: boolean;
  /** the unit as one disc where it stands (sight lines) */
  body: Body;
  /** the value of all my unit's guns against it, in range or not */
  rangedTotal: number;
}

export interface UnitCtx {
  u: UnitState;
  from: Point;
  /** a Lone Operative wherever it stands; or, for one only within 3" of some friendly units, those units (else null) */
  lone: boolean;
  loneNear: UnitGeo[] | null;
  /** radius of the unit once moved */
  r: number;
  move: number;
  value: number;
  oc: number;
  contrib: number[];
  enemies: EnemyView[];
  /** the same, the most valuable targets for its guns first */
  byFire: EnemyView[];
  danger: DangerSource[];
  dangerCap: number;
  maxMelee: number;
  maxRanged: number;
  meleeOriented: boolean;
  shootAfterFallBack: boolean;
  chargeAfterAdvance: boolean;
  chargeAfterFallBack: boolean;
  mayCharge: boolean;
  /** expected Advance distance (expectedAdvance) */
  advance: number;
  /** reach of its longest gun, whether it is a VEHICLE and carries passengers (the gun-platform doctrine) */
  longestRange: number;
  vehicle: boolean;
  carrying: boolean;
}

export function unitCtx(c: Ctx, u: UnitState, at?: Point): UnitCtx {
  if (at) return buildUnitCtx(c, u, at);
  return perVersion(c.state, `uc|${c.me}|${u.id}`, () => buildUnitCtx(c, u));
}

function buildUnitCtx(c: Ctx, u: UnitState, at?: Point): UnitCtx {
  const s = c.state;
  const g = unitGeo(s, u);
  const enemies: EnemyView[] = [];
  let maxMelee = 0, maxRanged = 0;
  for (const e of enemyUnits(s, c.me)) {
    const eg = unitGeo(s, e);
    const ranged = weaponPotentials(s, u, e, false);
    let mr = 0, tot = 0;
    for (const p of ranged) { if (p.value > 0 && p.range > mr) mr = p.range; tot += p.value; }
    const melee = unitAttackPotential(s, u, e, true);
    if (melee > maxMelee) maxMelee = melee;
    if (tot > maxRanged) maxRanged = tot;
    enemies.push({ u: e, x: eg.x, y: eg.y, r: eg.r, ranged, maxRange: mr, melee, engaged: isEngaged(s, e), body: unitDisc(s, e, eg, eg.r), rangedTotal: tot });
  }
  const value = unitValue(s, u);
  return {
    u, from: at ?? { x: g.x, y: g.y }, lone: u.abilities.includes('Lone Operative'), loneNear: loneOperativeEscorts(s, u),
    r: unitSpread(s, u), move: unitMove(s, u), value,
    oc: unitOC(s, u), contrib: objectiveSnapshot(s).contrib.get(u.id) ?? new Array(s.objectives.length).fill(0),
    enemies, byFire: [...enemies].sort((a, b) => b.rangedTotal - a.rangedTotal), danger: dangerSources(s, u), dangerCap: 1.25 * value, maxMelee, maxRanged,
    meleeOriented: maxMelee > 0.8 * maxRanged && maxMelee > 5,
    shootAfterFallBack: allows(s, u, 'shoot-after-fall-back'),
    chargeAfterAdvance: allows(s, u, 'charge-after-advance'),
    chargeAfterFallBack: allows(s, u, 'charge-after-fall-back'),
    mayCharge: !forbids(s, u, 'charge') && !hasKeyword(u, 'AIRCRAFT'),
    advance: expectedAdvance(s, u),
    longestRange: maxRange(s, u),
    vehicle: hasKeyword(u, 'VEHICLE'),
    carrying: passengersOf(s, u).length > 0,
  };
}

export interface MoveFlags {
  advanced: boolean;
  fellBack: boolean;
  noCharge?: boolean;
  /**
   * An upper bound of the score instead of the score, without sight lines: every target counts as seen
   * (fireAt) and every enemy as not seeing the position (danger at WEIGHTS.hiddenDanger). A search for the
   * best score skips the options whose bound cannot beat the best found (bestMoveScore).
   */
  bound?: boolean;
}

/**
 * Best value of the unit's guns from a point this turn (one target: the best one in reach). A target
 * that terrain hides from there (no sight line between the unit and it, both seen as discs) counts
 * for WEIGHTS.blockedFire of its value.
 */
function fireAt(c: Ctx, uc: UnitCtx, end: Point, f: MoveFlags): number {
  if (f.fellBack && !uc.shootAfterFallBack) return 0;
  let best = 0;
  let from: Body | null = null;
  for (const e of uc.byFire) {
    // sorted by the most their guns could be worth: the rest cannot beat the best found
    if (e.rangedTotal <= best) break;
    // engaged with units of this army: out of bounds unless MONSTER or VEHICLE (Big Guns Never Tire; its
    // -1 to hit is not priced here, where the values are position-free potentials)
    if (e.engaged && !isMonsterOrVehicle(e.u)) continue;
    const gap = len(e.x - end.x, e.y - end.y) - e.r - uc.r;
    if (gap > e.maxRange) continue;
    let v = 0;
    for (const p of e.ranged) if (reachesAt(p, gap) && (!f.advanced || p.assault)) v += p.value;
    if (v <= best) continue;
    if (c.w.blockedFire < 1 && !f.bound) {
      from ??= unitDisc(c.state, uc.u, end, uc.r);
      if (!sees(c, from, e.body)) v *= c.w.blockedFire;
    }
    if (v > best) best = v;
  }
  return best;
}

/** Best expected value of a charge from a point this turn (odds times the melee value). */
export function chargeAt(uc: UnitCtx, end: Point, f: MoveFlags): number {
  if (!uc.mayCharge || f.noCharge || uc.maxMelee <= 0) return 0;
  if (f.advanced && !uc.chargeAfterAdvance) return 0;
  if (f.fellBack && !uc.chargeAfterFallBack) return 0;
  let best = 0;
  for (const e of uc.enemies) {
    if (e.melee <= 0) continue;
    const gap = len(e.x - end.x, e.y - end.y) - e.r - uc.r;
    if (gap > 12.5) continue;
    const v = e.melee * p2d6AtLeast(Math.ceil(Math.max(0, gap - 1)));
    if (v > best) best = v;
  }
  return best;
}

function inTerrain(c: Ctx, p: Point): boolean {
  for (const t of c.state.board.terrain) if ((t.kind === 'ruin' || t.kind === 'area') && pointInPolygon(p, t.polygon)) return true;
  return false;
}

/** A Lone Operative can be shot only from this close. */
const LONE_OPERATIVE_RANGE = 12;

/** The friendly units near which the unit would be a Lone Operative (Rule.escortedBy); null: none. */
function loneOperativeEscorts(s: GameState, u: UnitState): UnitGeo[] | null {
  const escorts = escortUnits(s, u);
  return escorts.length === 0 ? null : escorts.map((f) => unitGeo(s, f));
}

/** Would the unit be a Lone Operative ending at `end`? */
function loneOperativeAt(uc: UnitCtx, end: Point): boolean {
  if (uc.lone) return true;
  if (uc.loneNear === null) return false;
  for (const f of uc.loneNear) if (len(f.x - end.x, f.y - end.y) - f.r - uc.r <= 3) return true;
  return false;
}

/** How good it is for the unit to end its move at `end` (this turn's shooting/charge, markers, danger, cover). */
export function positionScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, end: Point, f: MoveFlags, alsoMine?: number[]): number {
  let v = objectiveGain(c, ov, uc, end, alsoMine);
  v += c.w.fire * fireAt(c, uc, end, f);
  if (uc.meleeOriented) v += c.w.charge * chargeAt(uc, end, f);
  const share = c.w.hiddenDanger >= 1 ? undefined : f.bound ? allHidden(c) : hiddenShare(c, uc, end);
  const d = dangerFrom(uc.danger, end, uc.r, share, c.w.loneOperative > 0 && loneOperativeAt(uc, end) ? LONE_OPERATIVE_RANGE : Infinity);
  v -= c.w.danger * (d > uc.dangerCap ? uc.dangerCap : d);
  if (c.w.cover > 0 && inTerrain(c, end)) v += c.w.cover * uc.value;
  return v;
}

/** WEIGHTS.hiddenDanger for an enemy unit that cannot see the unit at `end` from where it stands now, else 1. */
function hiddenShare(c: Ctx, uc: UnitCtx, end: Point): (e: DangerSource) => number {
  const at = unitDisc(c.state, uc.u, end, uc.r);
  return (e) => (sees(c, e.body, at) ? 1 : c.w.hiddenDanger);
}

/** WEIGHTS.hiddenDanger for every enemy unit (the least danger sight could leave: a bound). */
function allHidden(c: Ctx): () => number {
  const share = c.w.hiddenDanger;
  return () => share;
}

/** isVisible on the Ctx's board, through the phase's memory (Memory.sight). */
export function sees(c: Ctx, from: Body, to: Body): boolean {
  const k = SIGHT_KEY;
  k[0] = from.pos.x; k[1] = from.pos.y; k[2] = from.pos.z; k[3] = discRadius(from); k[4] = from.height;
  k[5] = to.pos.x; k[6] = to.pos.y; k[7] = to.pos.z; k[8] = discRadius(to); k[9] = to.height;
  // a hash of the ten numbers' bits picks the chain; the numbers themselves are compared (exact)
  let h = 0;
  for (let i = 0; i < SIGHT_KEY_BITS.length; i++) h = Math.imul(h ^ SIGHT_KEY_BITS[i], 0x9e3779b1);
  const m = c.mem.sight;
  const head = m.seen.get(h);
  for (let e = head ?? -1; e >= 0; e = m.next[e]) {
    const at = e * 10;
    let same = true;
    for (let i = 0; i < 10 && same; i++) same = m.keys[at + i] === k[i];
    if (same) return m.visible[e] === 1;
  }
  const visible = isVisible(from, to, c.board);
  // entries in flat arrays chained by `next` (no object per entry: hundreds of thousands a game)
  const e = m.visible.length;
  for (let i = 0; i < 10; i++) m.keys.push(k[i]);
  m.visible.push(visible ? 1 : 0);
  m.next.push(head ?? -1);
  m.seen.set(h, e);
  return visible;
}

const SIGHT_KEY = new Float64Array(10);

const SIGHT_KEY_BITS = new Int32Array(SIGHT_KEY.buffer);

/** An empty sight memory for a phase on a board. */
export function sightMemory(key: string, board: Board | null): SightMemory {
  return { key, board, seen: new Map(), keys: [], visible: [], next: [] };
}

function discRadius(b: Body): number {
  if (b.base.kind !== 'circle') throw new Error(`the heuristic's sight memory keys discs only, not a ${b.base.kind} base`);
  return b.base.r;
}

/** The point a move toward `to` with `reach` inches ends at (straight line), short of `stopShort`. */
export function endPoint(from: Point, to: Point, reach: number, stopShort = 0): Point {
  const d = dist(from, to);
  const r = Math.max(0, Math.min(reach, d - stopShort));
  if (d <= 1e-9) return { x: from.x, y: from.y };
  return { x: from.x + ((to.x - from.x) * r) / d, y: from.y + ((to.y - from.y) * r) / d };
}
