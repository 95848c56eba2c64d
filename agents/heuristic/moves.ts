/**
 * Moves: the score of each move option (remembered within a state version), the planned check of the best
 * few, room to disembark, transports and their passengers.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { GameState, UnitState } from '../../src/core/state.ts';
import { allows } from '../../src/core/rules-registry.ts';
import { chargeOdds, dist, unitGeo, type Point } from '../../src/ai/tactics.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';
import { centroidOf } from '../../src/geometry/planner.ts';
import { moveOptions, planMove } from '../../src/rules/battle/movement.ts';
import { roomToDisembarkAfterMove, type TransportMove } from '../../src/rules/battle/transports.ts';
import { len } from '../../src/geometry/vec.ts';
import { type Ctx, type Weights, argmax, argmaxBounded, inBoundOrder, lastScores, setLastScores } from './context.ts';
import { ON_MARKER, type ObjectiveView, markerGain, objectiveView, onMarker } from './objectives.ts';
import { type EnemyView, type MoveFlags, type UnitCtx, endPoint, positionScore, unitCtx } from './unit-context.ts';
import { unerringStrikeEnd } from './unerring-strike.ts';

export type MoveOption = { mode: string; to?: Point; toward?: string };

/**
 * Scores of move options already computed for a unit context (one state version and player): selecting the
 * unit to move scores its options, and the move decision that follows in the same version asks again. The
 * score also reads the weights and the markers other units head for, so a change of either starts afresh.
 */
const moveScores = new WeakMap<UnitCtx, { w: Weights; heading: number; scores: Map<string, number> }>();

/** Score of one move option for the unit. */
export function moveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, o: MoveOption, advanceOverride?: number): number {
  if (c.w.prune <= 0) return computeMoveScore(c, ov, uc, o, advanceOverride);
  let memo = moveScores.get(uc);
  if (!memo || memo.w !== c.w || memo.heading !== c.mem.headingGen) moveScores.set(uc, (memo = { w: c.w, heading: c.mem.headingGen, scores: new Map() }));
  const key = `${o.mode}|${o.toward}|${o.to?.x}|${o.to?.y}|${advanceOverride}`;
  let v = memo.scores.get(key);
  if (v === undefined) memo.scores.set(key, (v = computeMoveScore(c, ov, uc, o, advanceOverride)));
  return v;
}

/**
 * The best score of the options, or `floor` when none beats it (for a unit, its gain from moving): the options in the order of an upper
 * bound of their score (no sight lines), each scored in full until no bound left can beat the best.
 * The same maximum as scoring every option, with far fewer sight lines.
 */
export function bestMoveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, options: readonly MoveOption[], floor = -Infinity, advanceOverride?: number): number {
  let best = floor;
  for (const { t: o, b } of inBoundOrder(options, (x) => computeMoveScore(c, ov, uc, x, advanceOverride, true))) {
    // a margin for rounding: the bound adds the same terms in the same order, less the sight checks
    if (c.w.prune > 0 && b < best - 1e-6) break;
    const v = moveScore(c, ov, uc, o, advanceOverride);
    if (v > best) best = v;
  }
  return best;
}

/** `at`: where the move ends, when known better than the straight line (plannedChoice: the planner's end). */
function computeMoveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, o: MoveOption, advanceOverride?: number, bound = false, at?: Point): number {
  if (o.mode === 'stationary') return positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, bound });
  if (!o.to) return -1e6;
  const enemy = towardEnemy(uc, o);
  const end = at ?? moveEnd(uc, o, o.to, advanceOverride ?? uc.advance, enemy);
  const flags: MoveFlags = { advanced: o.mode === 'advance', fellBack: o.mode === 'fall-back', bound };
  let v = positionScore(c, ov, uc, end, flags);
  // heading for a marker it does not reach this turn: part of what holding it would be worth
  if (o.toward?.startsWith('objective ')) {
    const i = c.state.objectives.findIndex((x) => `objective ${x.id}` === o.toward);
    if (i >= 0 && uc.oc > 0) {
      const left = dist(end, c.state.objectives[i].pos);
      if (left > ON_MARKER) {
        const gain = Math.max(0, markerGain(c, ov, uc, i, uc.oc));
        const soon = left <= uc.move + ON_MARKER + 3.5 ? 1 : 0.5;
        const already = c.mem.heading.get(i) ?? 0;
        const crowd = already > 0 ? 0.4 : 1;
        v += c.w.progress * gain * soon * crowd;
      }
    }
  }
  // a melee unit heading for an enemy it cannot charge this turn: next turn's charge
  if (enemy && uc.meleeOriented) {
    const gap = len(enemy.x - end.x, enemy.y - end.y) - enemy.r - uc.r;
    if (gap > 12 && gap <= uc.move + 12) v += c.w.progress * 0.5 * enemy.melee;
  }
  if (o.mode === 'advance') v -= advanceCost(c, uc, end);
  return v;
}

/**
 * What an Advance to `end` costs in the move's score: 1 (a Normal move is preferred when they score the
 * same), and for a gun platform carrying no passengers the gun-platform doctrine: a veto (WEIGHTS.gunlineRange,
 * gunlineVehicles) where any enemy unit could charge it, or with WEIGHTS.chargeCost a price for the odds.
 */
function advanceCost(c: Ctx, uc: UnitCtx, end: Point): number {
  const platform = uc.longestRange >= c.w.gunlineRange || (c.w.gunlineVehicles > 0 && uc.vehicle);
  if (!platform || uc.carrying) return 1;
  let odds = 0;
  for (const e of uc.danger) if (e.melee > 0) odds = Math.max(odds, chargeOdds(e, end, uc.r));
  if (c.w.chargeCost > 0) return c.w.chargeCost * odds * uc.value + 1;
  return odds > 0 ? 1e4 : 1;
}

export function decideMove(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as MoveOption[];
  if (u.location === 'embarked') return decideEmbarkedMove(c, u, options);
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const pass = passengerBonus(c, ov, u);
  // passengers may get out after a Normal move; after an Advance only when a rule allows it (SWIFT DEPLOYMENT)
  const outAfterAdvance = pass !== null && allows(s, u, 'disembark-after-advance');
  let i: number;
  let end: Point | null;
  if (pass) {
    const base = options.map((o) => moveScore(c, ov, uc, o));
    const out = options.map((o) => (o.mode !== 'fall-back' && (o.mode !== 'advance' || outAfterAdvance) ? pass(endOf(uc, o)) : 0));
    bestWithRoom(c, u, uc, options, base, out, new Map());
    i = argmax(options, (_, k) => base[k] + out[k]);
    ({ i, end } = plannedChoice(c, ov, uc, options, i, out));
  } else {
    i = c.w.prune <= 0
      ? argmax(options, (o) => moveScore(c, ov, uc, o))
      : argmaxBounded(options, (o) => moveScore(c, ov, uc, o), (o) => computeMoveScore(c, ov, uc, o, undefined, true), c.w.prune);
    ({ i, end } = plannedChoice(c, ov, uc, options, i));
  }
  noteHeading(c, uc, options[i], end);
  return i;
}

/** How many move options decideMove plans at most (a planner call each). */
const PLAN_CHECKS = 4;

/** How far (inches) the planner's end may lie from the straight-line end the option was scored at. */
const PLAN_GAP = 1;

/**
 * The scores place a move at a straight-line end, but the engine moves the unit where the planner takes it:
 * around terrain it may not cross (a vehicle or monster does not go through ruins), stopping where it can
 * (measured over the Normal moves toward markers of 6 heuristic games of the default scenario: vehicles
 * and monsters ended a median 1.25" from the straight-line end, nearly a quarter of them over 4"; other
 * units a median 0", one in ten over 1"). A Fall Back must also
 * end more than 1" from every enemy model: with no legal path the engine has the unit Remain Stationary
 * (executeMove). So the chosen option is planned as the engine will plan it (an Advance at the expected
 * roll): a Fall Back the unit cannot make is dropped (-Infinity), a move that ends more than PLAN_GAP from
 * where it was scored is scored again where it ends (a move with no legal path where it stands), and the
 * best is taken again, until it is an option already planned or one with nothing to plan; after PLAN_CHECKS
 * plans, the best of those. `extra`: a part of each option's score that stays (a transport's passengers).
 * The checked scores replace the others in lastScores (which explain the decision and give a search agent
 * its candidates; options never scored stay -Infinity there). Returns the option and where it ends, if planned.
 */
function plannedChoice(c: Ctx, ov: ObjectiveView, uc: UnitCtx, options: readonly MoveOption[], chosen: number, extra?: readonly number[]): { i: number; end: Point | null } {
  const first = plannedScore(c, ov, uc, options[chosen]);
  if (first === null || first.score === null) return { i: chosen, end: first?.end ?? null };
  const plus = (k: number) => extra?.[k] ?? 0;
  const scores = lastScores.length === options.length ? lastScores.slice() : new Array<number>(options.length).fill(-Infinity);
  // the options a pruned search left unscored stand at their upper bound (no sight lines) until one is the
  // best, then are scored in full: the same choice as scoring them all, for far fewer sight lines
  const scored = scores.map((v) => Number.isFinite(v));
  const value = scores.map((v, k) => (scored[k] ? v : computeMoveScore(c, ov, uc, options[k], undefined, true) + plus(k)));
  const planned = new Map<number, Point>([[chosen, first.end]]);
  value[chosen] = scores[chosen] = first.score + plus(chosen);
  const best = (ok: (k: number) => boolean) => {
    let i = -1;
    for (let k = 0; k < options.length; k++) if (ok(k) && (i < 0 || value[k] > value[i] + 1e-9)) i = k;
    return i;
  };
  let result: { i: number; end: Point | null };
  // after PLAN_CHECKS plans, only the options planned or with nothing to plan are taken
  let n = 1;
  for (;;) {
    const i = best((k) => n < PLAN_CHECKS || planned.has(k) || !toPlan(options[k]));
    if (!scored[i]) {
      value[i] = scores[i] = moveScore(c, ov, uc, options[i]) + plus(i);
      scored[i] = true;
      continue;
    }
    if (planned.has(i) || !toPlan(options[i])) { result = { i, end: planned.get(i) ?? null }; break; }
    const p = plannedScore(c, ov, uc, options[i]);
    n++;
    if (p === null || p.score === null) { result = { i, end: p?.end ?? null }; break; }
    value[i] = scores[i] = p.score + plus(i);
    planned.set(i, p.end);
  }
  // the explanation (the best WEIGHTS.prune scores) as with every option scored: an option left unscored
  // whose bound could be among them is scored
  for (;;) {
    const kth = scores.filter((v) => Number.isFinite(v)).sort((a, b) => b - a)[c.w.prune - 1] ?? -Infinity;
    const k = best((x) => !scored[x]);
    if (k < 0 || value[k] < kth - 1e-6) break;
    scores[k] = moveScore(c, ov, uc, options[k]) + plus(k);
    scored[k] = true;
  }
  setLastScores(scores);
  return result;
}

/** A move with a place to go (Remain Stationary has nothing to plan). */
function toPlan(o: MoveOption): o is MoveOption & { mode: 'normal' | 'advance' | 'fall-back'; to: Point } {
  return !!o.to && (o.mode === 'normal' || o.mode === 'advance' || o.mode === 'fall-back');
}

/**
 * The option planned as executeMove plans it: where the unit ends (its models' centre), and its score
 * there, or null where that is within PLAN_GAP of where it was scored; -Infinity for a Fall Back the
 * unit cannot make. Null for an option with nothing to plan. A Normal move that will open a closed hatchway on
 * its way (Unerring Strike) ends where the rest of its move takes it beyond the hatchway.
 */
function plannedScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, o: MoveOption): { end: Point; score: number | null } | null {
  if (!toPlan(o)) return null;
  const reach = moveReach(uc, o, uc.advance);
  const plan = planMove(c.state, uc.u, o.mode, o.to, reach);
  const shut = plan.ok ? centroidOf(plan.positions) : null;
  const end = (o.mode === 'normal' ? unerringStrikeEnd(c, uc.u, o.to, reach, shut ?? uc.from) : null) ?? shut;
  if (!end) {
    if (o.mode === 'fall-back') return { end: uc.from, score: -Infinity };
    return { end: uc.from, score: computeMoveScore(c, ov, uc, o, undefined, false, uc.from) };
  }
  if (dist(end, endOf(uc, o)) <= PLAN_GAP) return { end, score: null };
  return { end, score: computeMoveScore(c, ov, uc, o, undefined, false, end) };
}

/** How many of a loaded transport's best options bestWithRoom checks for room at most (a planner call each). */
const ROOM_CHECKS = 4;

/**
 * The best option of a loaded transport by `base` plus its passengers' part `out`, where the passengers'
 * part counts only if they would have room to get out where the transport ends (wholly within 3" of it and
 * out of Engagement Range: a transport driven up to an enemy unit can leave none). Room costs a planner
 * call, so it is checked for the best options only, best first, until the best has room or its passengers
 * add nothing; an option found without room is scored without them (`out` is changed). Room is judged where
 * the planner would take the transport (transportMove), not at the straight-line end the scores use. `room`
 * remembers the checks by move (SWIFT DEPLOYMENT prices two sets of the same options).
 */
function bestWithRoom(c: Ctx, t: UnitState, uc: UnitCtx, options: readonly MoveOption[], base: readonly number[], out: number[], room: Map<string, boolean>): number {
  const total = (k: number) => base[k] + out[k];
  // (not argmax: the SWIFT DEPLOYMENT pricing calls this inside the stratagem decision's own scoring)
  const bestIndex = () => {
    let best = 0;
    for (let k = 1; k < options.length; k++) if (total(k) > total(best) + 1e-9) best = k;
    return best;
  };
  for (let n = 0; n < ROOM_CHECKS; n++) {
    const best = bestIndex();
    if (out[best] <= 0) break;
    const move = transportMove(uc, options[best]);
    const key = move ? `${move.mode}|${move.destination.x}|${move.destination.y}|${move.maxDistance}` : 'stays';
    let ok = room.get(key);
    if (ok === undefined) {
      ok = passengersOf(c.state, t).some((p) => roomToDisembarkAfterMove(c.state, p, move));
      room.set(key, ok);
    }
    if (ok) break;
    out[best] = 0;
  }
  return bestIndex();
}

/**
 * The move option as the engine will plan it, for the room check (null: the unit stays): the planner finds
 * the path around terrain and where it stops, which a straight line toward the destination does not. An
 * Advance is planned at the expected roll: another roll can still end where there is no room.
 */
function transportMove(uc: UnitCtx, o: MoveOption): TransportMove | null {
  if (!o.to || (o.mode !== 'normal' && o.mode !== 'advance')) return null;
  return { mode: o.mode, destination: o.to, maxDistance: moveReach(uc, o, uc.advance) };
}

/** Where the unit ends the move option (straight line), as the move's score places it. */
function endOf(uc: UnitCtx, o: MoveOption): Point {
  if (!o.to || o.mode === 'stationary') return uc.from;
  return moveEnd(uc, o, o.to, uc.advance, towardEnemy(uc, o));
}

/** The enemy unit a move option heads for, if any. */
export function towardEnemy(uc: UnitCtx, o: MoveOption): EnemyView | undefined {
  if (!o.toward?.startsWith('enemy ')) return undefined;
  const id = o.toward.slice(6);
  return uc.enemies.find((e) => e.u.id === id);
}

/**
 * The end of a move toward `to` (straight line, the move's length, an Advance adding `advance`): a move
 * toward an enemy unit stops just outside Engagement Range of it, as the planner stops it.
 */
export function moveEnd(uc: UnitCtx, o: MoveOption, to: Point, advance: number, enemy: EnemyView | undefined): Point {
  const stop = o.toward?.startsWith('enemy ') ? (enemy ? enemy.r + uc.r + 1.2 : 2) : 0;
  return endPoint(uc.from, to, moveReach(uc, o, advance), stop);
}

/** How far the move option takes the unit: its Move, and `advance` more for an Advance. */
function moveReach(uc: UnitCtx, o: MoveOption, advance: number): number {
  return o.mode === 'advance' ? uc.move + advance : uc.move;
}

/** Remember the OC heading to a marker it will not reach this turn (others then pick other markers). */
function noteHeading(c: Ctx, uc: UnitCtx, o: MoveOption, at: Point | null = null): void {
  if (!o?.toward?.startsWith('objective ') || !o.to || uc.oc <= 0) return;
  const i = c.state.objectives.findIndex((x) => `objective ${x.id}` === o.toward);
  if (i < 0) return;
  const end = at ?? endOf(uc, o);
  if (dist(end, c.state.objectives[i].pos) > ON_MARKER) { c.mem.heading.set(i, (c.mem.heading.get(i) ?? 0) + uc.oc); c.mem.headingGen++; }
}

/** Units embarked within a transport (which could get out after it moves). */
export function passengersOf(s: GameState, t: UnitState): UnitState[] {
  const out: UnitState[] = [];
  for (const id of s.unitOrder) {
    const x = s.units[id];
    if (x.location === 'embarked' && x.embarkedIn === t.id && x.models.some((m) => m.alive) && x.flags.moved === null) out.push(x);
  }
  return out;
}

/**
 * For a transport: what its passengers would gain by getting out where it ends. The transport's own OC
 * moves there too: a marker it takes is not theirs to take again.
 */
function passengerBonus(c: Ctx, ov: ObjectiveView, t: UnitState): ((end: Point) => number) | null {
  const ps = passengersOf(c.state, t);
  if (ps.length === 0) return null;
  const ctxs = ps.map((p) => unitCtx(c, p, unitGeo(c.state, t)));
  const tc = unitCtx(c, t);
  const objs = c.state.objectives;
  return (end: Point) => {
    const transportOc = objs.map((o, i) => onMarker(dist(end, o.pos), tc.r) * tc.oc - tc.contrib[i]);
    let v = 0;
    for (const pc of ctxs) v += Math.max(0, positionScore(c, ov, pc, end, { advanced: false, fellBack: false, noCharge: true }, transportOc));
    return 0.8 * v;
  };
}

/**
 * SWIFT DEPLOYMENT: the transport may Advance and still let its passengers out (as after a Normal move).
 * Worth what its best move scores with that over without it, scored as decideMove scores the moves the
 * engine will offer it (moveOptions), so that the stratagem is bought only when the move it pays for is
 * the one the heuristic will then make.
 */
export function swiftDeploymentGain(c: Ctx, t: UnitState): number {
  const s = c.state;
  if (t.location !== 'battlefield' || isEngaged(s, t)) return 0;
  const ov = objectiveView(c);
  const pass = passengerBonus(c, ov, t);
  if (!pass) return 0;
  const uc = unitCtx(c, t);
  const options = moveOptions(s, t) as MoveOption[];
  const base = options.map((o) => moveScore(c, ov, uc, o));
  const out = options.map((o) => pass(endOf(uc, o)));
  const outWithout = options.map((o, k) => (o.mode === 'advance' ? 0 : out[k]));
  const room = new Map<string, boolean>();
  const without = bestWithRoom(c, t, uc, options, base, outWithout, room);
  const withIt = bestWithRoom(c, t, uc, options, base, out, room);
  return base[withIt] + out[withIt] - (base[without] + outWithout[without]);
}

/** An embarked unit: get out (now, or after its transport moved) or stay in. */
function decideEmbarkedMove(c: Ctx, u: UnitState, options: MoveOption[]): number {
  const s = c.state;
  const t = u.embarkedIn ? s.units[u.embarkedIn] : null;
  const di = options.findIndex((o) => o.mode === 'disembark');
  const si = options.findIndex((o) => o.mode === 'stay-embarked');
  if (!t || di < 0) return Math.max(0, si);
  const ov = objectiveView(c);
  const at = unitGeo(s, t);
  const uc = unitCtx(c, u, at);
  let out: number;
  if (t.flags.moved === null) {
    // getting out first: then it moves as usual (and may charge)
    const reach = uc.move + 3;
    let best = positionScore(c, ov, uc, at, { advanced: false, fellBack: false });
    for (const e of uc.enemies) best = Math.max(best, positionScore(c, ov, uc, endPoint(at, e, reach, e.r + uc.r + 1.2), { advanced: false, fellBack: false }));
    for (const o of s.objectives) best = Math.max(best, positionScore(c, ov, uc, endPoint(at, o.pos, reach), { advanced: false, fellBack: false }));
    out = uc.meleeOriented ? best : best - 15;
  } else {
    out = positionScore(c, ov, uc, at, { advanced: false, fellBack: false, noCharge: true });
  }
  setLastScores(options.map((o) => (o.mode === 'disembark' ? out : 0)));
  return out > 0 ? di : Math.max(0, si);
}
