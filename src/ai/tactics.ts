/**
 * Positional questions agents ask, computed from the state and cached per state version: where each
 * unit stands (centre and radius), how much Objective Control each side has on each marker and how
 * much more the enemy can bring there next turn, which scoring the next moves count for, and how much
 * damage the enemy can be expected to deal to a unit standing at a point next turn.
 */
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../core/state.ts';
import { inObjectiveRange } from '../geometry/ranges.ts';
import { characteristic, isMonsterOrVehicle, onBattlefield, rollModifier, unitMove } from '../rules/battle/units.ts';
import { isEngaged, modelBody, unitCentre, unitDisc } from '../rules/battle/world.ts';
import type { Body } from '../geometry/types.ts';
import { maxRange, p2d6AtLeast, reachesAt, unitValue, weaponPotentials, type WeaponPotential } from './evaluate.ts';
import { perVersion } from './memo.ts';
import { forEachActiveRule } from '../core/rules-registry.ts';
import { keptControl } from '../rules/battle/objectives.ts';
import { len } from '../geometry/vec.ts';

export interface Point { x: number; y: number }

export interface UnitGeo { x: number; y: number; r: number }

/** Centre of the unit's alive models and the radius of the circle around them (bases included). */
export function unitGeo(state: GameState, u: UnitState): UnitGeo {
  const c = unitCentre(u);
  let r = 0.5;
  for (const m of u.models) {
    if (!m.alive || !m.pos) continue;
    const d = len(m.pos.x - c.x, m.pos.y - c.y) + 0.6;
    if (d > r) r = d;
  }
  return { x: c.x, y: c.y, r };
}

/** A typical radius for a unit once it has moved (its models gather around its centre). */
export function unitSpread(state: GameState, u: UnitState): number {
  const n = aliveModels(u);
  return n <= 1 ? 1 : Math.min(unitGeo(state, u).r, spreadOf(n));
}

/** The radius a unit of n models spreads over in coherency (unitSpread before it is set up). */
export function spreadOf(n: number): number {
  return n <= 1 ? 1 : 0.8 + 0.75 * Math.sqrt(n);
}

function aliveModels(u: UnitState): number {
  let n = 0;
  for (const m of u.models) if (m.alive) n++;
  return n;
}

export function dist(a: Point, b: Point): number {
  return len(a.x - b.x, a.y - b.y);
}

/** Total Objective Control of the unit's alive models (Battle-shocked: 0 before modifiers, see characteristic). */
export function unitOC(state: GameState, u: UnitState): number {
  let oc = 0;
  for (const m of u.models) if (m.alive) oc += Math.max(0, characteristic(state, u, m, 'OC'));
  return oc;
}

// --- objectives -------------------------------------------------------------------------------

export interface ObjectiveSnapshot {
  /** OC each unit on the battlefield has in range of each marker (markers in the state's order) */
  contrib: Map<string, number[]>;
  /** Level of Control of each side (index: player) on each marker */
  level: [number[], number[]];
  /** OC of each side's units that are not on a marker but could get there in their next move */
  reach: [number[], number[]];
}

export function objectiveSnapshot(state: GameState): ObjectiveSnapshot {
  return perVersion(state, 'objective-snapshot', () => computeObjectiveSnapshot(state));
}

function computeObjectiveSnapshot(state: GameState): ObjectiveSnapshot {
  const n = state.objectives.length;
  const contrib = new Map<string, number[]>();
  const level: [number[], number[]] = [new Array(n).fill(0), new Array(n).fill(0)];
  const reach: [number[], number[]] = [new Array(n).fill(0), new Array(n).fill(0)];
  const markers = state.objectives.map((o) => ({ id: o.id, pos: o.pos }));
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (!onBattlefield(u)) continue;
    const row = new Array(n).fill(0);
    const c = unitCentre(u);
    let total = 0;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      const oc = Math.max(0, characteristic(state, u, m, 'OC'));
      total += oc;
      if (oc === 0) continue;
      for (let i = 0; i < n; i++) {
        if (Math.abs(m.pos.x - markers[i].pos.x) > 6 || Math.abs(m.pos.y - markers[i].pos.y) > 6) continue;
        if (inObjectiveRange(modelBody(state, m), markers[i])) row[i] += oc;
      }
    }
    contrib.set(u.id, row);
    const mv = unitMove(state, u) + 4;
    // engaged or not is the unit's, not the marker's: asked once, and only for a unit off some marker
    let free: boolean | null = null;
    for (let i = 0; i < n; i++) {
      level[u.player][i] += row[i];
      if (row[i] !== 0 || dist(c, markers[i].pos) > mv + 3) continue;
      free ??= !isEngaged(state, u);
      if (free) reach[u.player][i] += total;
    }
  }
  // a marker a rule keeps under a player's control (Fieldcraft) is that player's on a tie: half a point of
  // Level of Control says so (Levels are whole numbers), also to the estimates that move units on and off; an
  // opponent with the greater Level is seen to hold it (Fieldcraft's hold ends at the end of the turn then)
  if (state.effects.length) {
    const byLevel = level[0].map((l, i): PlayerIndex | null => (l > level[1][i] ? 0 : level[1][i] > l ? 1 : null));
    keptControl(state, byLevel).forEach((kept, i) => { if (kept !== null && byLevel[i] === null) level[kept][i] += 0.5; });
  }
  return { contrib, level, reach };
}

/** How many markers a player controls, by the levels given. */
export function heldCount(level: [number[], number[]], p: PlayerIndex): number {
  const o = opponent(p);
  let n = 0;
  for (let i = 0; i < level[p].length; i++) if (level[p][i] > level[o][i]) n++;
  return n;
}

export interface ScoringOutlook {
  /** how much where my units stand at the end of this turn counts for my next scoring (0..1.3) */
  mine: number;
  /** how much it counts against the opponent's next scoring (0..1) */
  deny: number;
}

/**
 * Take and Hold scores at the end of each player's Command phase from the mission's first scoring
 * round (the second player scores at the end of their turn in the last round instead), capped per
 * turn and in total.
 */
export function scoringOutlook(state: GameState, me: PlayerIndex): ScoringOutlook {
  const rounds = state.mission.rounds;
  const params = state.mission.params as { fromRound?: number; maxTotal?: number };
  const from = params.fromRound ?? 2;
  const cap = params.maxTotal ?? 50;
  const r = state.round;
  const first = state.firstPlayer;
  const opp = opponent(me);
  let mine: number;
  let deny: number;
  if (state.turn === me) {
    if (me !== first && r >= rounds) mine = 1.3;
    else if (r + 1 > rounds) mine = 0;
    else if (r + 1 === rounds && me !== first) mine = 0.5;
    else mine = r + 1 >= from ? 1 : 0.3;
    if (me === first) deny = r >= from ? (r >= rounds ? 0.7 : 1) : 0.3;
    else deny = r + 1 <= rounds && r + 1 >= from ? 1 : 0;
  } else {
    // the opponent's turn: what stands at its end is what I score next (and they may score at its end)
    mine = me === first ? (r + 1 <= rounds && r + 1 >= from ? 1 : 0) : r >= from ? 1 : 0.3;
    deny = opp !== first && r >= rounds ? 1 : 0.3;
  }
  if (state.players[me].vp >= cap) mine = 0;
  if (state.players[opp].vp >= cap) deny = 0;
  return { mine, deny };
}

// --- threat -----------------------------------------------------------------------------------

interface Threat {
  unit: UnitState;
  x: number;
  y: number;
  r: number;
  /** how far it gets before it shoots, and before it charges */
  move: number;
  meleeMove: number;
  range: number;
  /** how many units of the other side it can reach with its guns / a charge (it splits its attacks) */
  rangedTargets: number;
  meleeTargets: number;
  engaged: boolean;
}

/**
 * Every unit on the battlefield as a threat to the other side (index: the threatening player), and
 * every unit embarked within a transport there: it gets out within 3" of the transport, then moves
 * (and may charge), or gets out after the transport's Normal move (and may shoot, not charge).
 */
function threatList(state: GameState): [Threat[], Threat[]] {
  return perVersion(state, 'threat-list', () => computeThreatList(state));
}

/** How far a disembarking unit may set up from its transport. */
const DISEMBARK = 3;

function computeThreatList(state: GameState): [Threat[], Threat[]] {
  const out: [Threat[], Threat[]] = [[], []];
  const geos: { u: UnitState; g: UnitGeo }[] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (onBattlefield(u)) geos.push({ u, g: unitGeo(state, u) });
  }
  const threats: Threat[] = [];
  const onTable = new Map<string, Threat>();
  for (const { u, g } of geos) {
    const move = unitMove(state, u);
    const t: Threat = { unit: u, x: g.x, y: g.y, r: g.r, move, meleeMove: move, range: maxRange(state, u), rangedTargets: 0, meleeTargets: 0, engaged: isEngaged(state, u) };
    threats.push(t);
    onTable.set(u.id, t);
  }
  for (const id of state.unitOrder) {
    const u = state.units[id];
    const t = u.location === 'embarked' && u.embarkedIn ? onTable.get(u.embarkedIn) : undefined;
    if (!t || !u.models.some((m) => m.alive)) continue;
    const own = unitMove(state, u);
    threats.push({
      unit: u, x: t.x, y: t.y, r: t.r, move: DISEMBARK + Math.max(own, t.move), meleeMove: DISEMBARK + own,
      range: maxRange(state, u), rangedTargets: 0, meleeTargets: 0, engaged: false,
    });
  }
  for (const t of threats) {
    for (const o of geos) {
      if (o.u.player === t.unit.player) continue;
      const gap = len(o.g.x - t.x, o.g.y - t.y) - o.g.r - t.r;
      if (gap <= t.move + t.range) t.rangedTargets++;
      if (gap <= t.meleeMove + 9) t.meleeTargets++;
    }
    out[t.unit.player].push(t);
  }
  return out;
}

/** What the enemy units can do to one unit, prepared once so that many points can be priced fast. */
export interface DangerSource {
  unit: UnitState;
  /** the unit as one disc where it stands (sight lines) */
  body: Body;
  x: number;
  y: number;
  r: number;
  move: number;
  meleeMove: number;
  /** ranged weapons: where they reach (WeaponPotential) and their value against the unit, already shared out among its possible targets */
  ranged: Pick<WeaponPotential, 'range' | 'beyond' | 'value'>[];
  maxRange: number;
  /** melee value against the unit, shared out */
  melee: number;
}

export function dangerSources(state: GameState, u: UnitState): DangerSource[] {
  const out: DangerSource[] = [];
  for (const e of threatList(state)[opponent(u.player)]) {
    const shootFactor = e.engaged ? (isMonsterOrVehicle(e.unit) ? 0.6 : 0.1) : 1;
    const ranged: DangerSource['ranged'] = [];
    let maxR = 0;
    for (const p of weaponPotentials(state, e.unit, u, false)) {
      if (p.value <= 0) continue;
      ranged.push({ range: p.range, beyond: p.beyond, value: (p.value * shootFactor) / Math.max(1, e.rangedTargets) });
      if (p.range > maxR) maxR = p.range;
    }
    let m = 0;
    for (const p of weaponPotentials(state, e.unit, u, true)) m += p.value;
    out.push({ unit: e.unit, body: unitDisc(state, e.unit, e, e.r), x: e.x, y: e.y, r: e.r, move: e.move, meleeMove: e.meleeMove, ranged, maxRange: maxR, melee: m / Math.max(1, e.meleeTargets) });
  }
  return out;
}

/**
 * Expected damage from the prepared sources to a unit standing at `at` with radius `r` (uncapped). A unit
 * that can be shot only from within `shotWithin` (a Lone Operative: 12") counts an enemy's guns only when
 * the enemy can come that close.
 */
export function dangerFrom(sources: DangerSource[], at: Point, r: number, rangedShare?: (e: DangerSource) => number, shotWithin = Infinity): number {
  let total = 0;
  for (const e of sources) {
    const gap = len(e.x - at.x, e.y - at.y) - e.r - r;
    const reach = gap - e.move;
    if (reach <= e.maxRange && reach <= shotWithin) {
      let v = 0;
      for (const w of e.ranged) if (reachesAt(w, reach)) v += w.value;
      total += v > 0 && rangedShare ? v * rangedShare(e) : v;
    }
    if (e.melee > 0) total += e.melee * chargeOdds(e, at, r);
  }
  return total;
}

/** The highest Advance roll worth re-rolling: a re-roll averages 3.5, more than a 3. */
export const ADVANCE_REROLL_AT_MOST = 3;

/**
 * Expected Advance distance of the unit: a fixed one when a rule sets it (Aggressive Mobility), else a
 * D6, re-rolled on 1-3 when a rule allows a re-roll (Skilled Crews, an Autarch leading the unit), with the
 * roll's modifiers (The Bloody-Handed's +1, Shaken's -2) and never below 0, as the engine plays it.
 */
export function expectedAdvance(state: GameState, u: UnitState): number {
  let fixed: number | null = null;
  let reroll = false;
  forEachActiveRule(state, u, 'self', (r, src) => {
    const f = r.fixedAdvance?.({ state, unit: u }, src);
    if (f !== undefined && f !== null) fixed = Math.max(fixed ?? 0, f);
    if (r.rerollAdvance?.({ state, unit: u }, src)) reroll = true;
  });
  if (fixed !== null) return fixed;
  const mod = rollModifier(state, u, 'advance');
  let total = 0;
  for (let face = 1; face <= 6; face++) {
    // a face kept at once, or reached by the re-roll of a 1-3 (half the time, then a fresh D6)
    const p = !reroll ? 1 / 6 : face > ADVANCE_REROLL_AT_MOST ? 1 / 6 + ADVANCE_REROLL_AT_MOST / 36 : ADVANCE_REROLL_AT_MOST / 36;
    total += p * Math.max(0, face + mod);
  }
  return total;
}

/** Odds that the source, after its move, makes a charge against a unit at `at` with radius `r` (2D6 against the gap less 1" of Engagement Range). */
export function chargeOdds(e: DangerSource, at: Point, r: number): number {
  const charge = len(e.x - at.x, e.y - at.y) - e.r - r - e.meleeMove;
  return charge > 13 ? 0 : p2d6AtLeast(Math.ceil(Math.max(0, charge - 1)));
}

/**
 * Expected damage (in points) the enemy can deal next turn to the unit if it stands at `at` with
 * radius `r`: each enemy unit that can reach it with its guns (after a move) or a charge, its expected
 * attack value against the unit shared out among the targets it could pick, capped at what the unit
 * is worth.
 */
export function dangerAt(state: GameState, u: UnitState, at: Point, r: number): number {
  const cap = 1.25 * unitValue(state, u);
  const d = dangerFrom(dangerSources(state, u), at, r);
  return d > cap ? cap : d;
}
