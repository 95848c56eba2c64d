/**
 * Which unit moves, shoots or fights next.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { UnitState } from '../../src/core/state.ts';
import { enemyUnits, unitAttackPotential, unitValue, weaponEstimate, weaponUses } from '../../src/ai/evaluate.ts';
import { unitGeo, type Point } from '../../src/ai/tactics.ts';
import { isEngaged, engagedEnemies } from '../../src/rules/battle/world.ts';
import { disembarkPlan } from '../../src/rules/battle/transports.ts';
import { type Ctx, argmax } from './context.ts';
import { objectiveView } from './objectives.ts';
import { unitCtx } from './unit-context.ts';
import { type MoveOption, bestMoveScore, moveScore, passengersOf } from './moves.ts';
import { bestVolley } from './attacks.ts';

export function decideSelectMove(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  const ov = objectiveView(c);
  // what moving each unit gains over standing still: all units at the first selection of the phase,
  // then only the few best so far again (the others' gains change little as their friends move)
  const key = `${s.round}:${s.turn}`;
  if (c.mem.moveRank.key !== key) c.mem.moveRank = { key, gains: new Map() };
  const gains = c.mem.moveRank.gains;
  const gainOf = (u: UnitState): number => {
    const uc = unitCtx(c, u);
    const here = moveScore(c, ov, uc, { mode: 'stationary' });
    return bestMoveScore(c, ov, uc, moveOptionsFor(c, u), here) - here;
  };
  const plain: UnitState[] = [];
  for (const o of options) {
    if ('done' in o) continue;
    const u = s.units[o.unit];
    if (u.location === 'embarked' || passengersOf(s, u).length > 0) continue;
    plain.push(u);
    if (!gains.has(u.id)) gains.set(u.id, gainOf(u));
  }
  plain.sort((a, b) => gains.get(b.id)! - gains.get(a.id)!);
  for (const u of plain.slice(0, 3)) gains.set(u.id, gainOf(u));
  // Embarked units with no room to get out are worth nothing now: picking one would be a decision without
  // effect (the engine checks the room and asks again), made again after every other unit's move. Room is
  // checked only for the unit that would be picked (the planner's cost), then the next best is taken.
  const noRoom = new Set<string>();
  for (;;) {
    const i = argmax(options, (o) => selectMoveScore(c, o, gains, noRoom));
    const o = options[i];
    if ('unit' in o && !noRoom.has(o.unit) && s.units[o.unit].location === 'embarked' && !disembarkPlan(s, s.units[o.unit])) {
      noRoom.add(o.unit);
      continue;
    }
    // with no unit offered, "done" (option 0) is the only option
    return i;
  }
}

/** How much the heuristic wants to move a unit next (done and units without room to get out: 0). */
function selectMoveScore(c: Ctx, o: { done: true } | { unit: string }, gains: ReadonlyMap<string, number>, noRoom: ReadonlySet<string>): number {
  const s = c.state;
  if ('done' in o || noRoom.has(o.unit)) return 0;
  const u = s.units[o.unit];
  if (u.location === 'embarked') {
    const t = u.embarkedIn ? s.units[u.embarkedIn] : null;
    if (t && t.flags.moved === null) {
      // melee passengers get out before their transport moves; the others wait for it
      const uc = unitCtx(c, u, unitGeo(s, t));
      return uc.meleeOriented ? 1000 : 0.001;
    }
    return 500;
  }
  if (passengersOf(s, u).length > 0) return 800;
  return 1 + (gains.get(u.id) ?? 0);
}

/** The move options the engine will offer (mirrors moveOptions in the movement rules). */
export function moveOptionsFor(c: Ctx, u: UnitState): MoveOption[] {
  const s = c.state;
  const dests: { to: Point; toward: string }[] = [];
  for (const o of s.objectives) dests.push({ to: o.pos, toward: `objective ${o.id}` });
  for (const e of enemyUnits(s, c.me)) dests.push({ to: unitGeo(s, e), toward: `enemy ${e.id}` });
  if (isEngaged(s, u)) return dests.map((d) => ({ mode: 'fall-back', ...d }));
  return [...dests.map((d) => ({ mode: 'normal', ...d })), ...dests.map((d) => ({ mode: 'advance', ...d }))];
}

export function decideSelectShoot(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  return argmax(options, (o) => ('done' in o ? -1 : 1 + bestVolley(c, s.units[o.unit])));
}

export function decideSelectFight(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { unit: string }[];
  if (options.length === 1) return 0;
  return argmax(options, (o) => {
    const u = s.units[o.unit];
    let best = 0;
    let danger = 0;
    for (const e of engagedEnemies(s, u)) {
      best = Math.max(best, unitAttackPotentialInRange(c, u, e, true));
      danger = Math.max(danger, unitAttackPotential(s, e, u, true));
    }
    // the unit that would lose most by waiting (it may die before it fights) and hits hardest goes first
    return best + 0.5 * Math.min(danger, unitValue(s, u));
  });
}

function unitAttackPotentialInRange(c: Ctx, u: UnitState, e: UnitState, melee: boolean): number {
  let v = 0;
  for (const use of weaponUses(c.state, u, melee)) v += weaponEstimate(c.state, u, use, e, { inRangeOnly: !melee }).value;
  return v;
}
