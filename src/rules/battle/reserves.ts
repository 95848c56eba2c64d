/**
 * Reinforcements step: units in Reserves arrive. Deep Strike: anywhere more than 9" horizontally from
 * every enemy model. Strategic Reserves: wholly within 6" of a battlefield edge, more than 9" from
 * enemies, and not in the enemy deployment zone in battle round 2. Neither in battle round 1, unless a rule
 * says so (Transponder Lock Module; Ride the Wind counts the round one higher). A unit that arrives counts as
 * having made a Normal move (it moves no further this phase).
 */
import type { Game } from '../../core/game.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { abilityRules, allows, everyModelHas, forEachActiveRule } from '../../core/rules-registry.ts';
import { applyPlan, planUnit } from './placement.ts';
import { afterMove } from './movement.ts';
import { openWindow } from '../windows.ts';
import { unitsOnBattlefield } from './units.ts';
import { bodyAt, modelBody, unitCentre, unitDistance } from './world.ts';
import { isWithin } from '../../geometry/distance.ts';

export function inReserves(u: UnitState): boolean {
  return (u.location === 'reserves' || u.location === 'strategic-reserves') && u.models.some((m) => m.alive);
}

export interface ArrivalOption {
  unit: string;
  how: 'deep-strike' | 'strategic-reserves';
  x: number;
  y: number;
}

/** Points a unit may arrive near: deep strike anywhere on a grid; strategic reserves along the edges. */
export function arrivalOptions(g: Game, u: UnitState): ArrivalOption[] {
  return arrivalPoints(g.state, u, u.location === 'strategic-reserves');
}

/**
 * The battle round as it counts for setting the unit up from Reserves: the current one, or higher when a rule
 * says so (Ride the Wind: one higher, Rule.reservesRoundBonus).
 */
export function arrivalRound(s: GameState, u: UnitState): number {
  let bonus = 0;
  forEachActiveRule(s, u, 'self', (r, src) => { bonus = Math.max(bonus, r.reservesRoundBonus?.({ state: s, unit: u }, src) ?? 0); });
  return s.round + bonus;
}

/** A rule's leave for the unit to Deep Strike in battle round 1 (Rule.firstRoundDeepStrike), or null. */
export function firstRoundDeepStrike(s: GameState, u: UnitState): { range: number; near: (friend: UnitState) => boolean } | null {
  let out: { range: number; near: (friend: UnitState) => boolean } | null = null;
  forEachActiveRule(s, u, 'self', (r, src) => { if (!out && r.firstRoundDeepStrike) out = r.firstRoundDeepStrike({ state: s, unit: u }, src); });
  return out;
}

/** The friendly units a Deep Strike in battle round 1 must be set up near (empty: the unit cannot arrive now). */
function firstRoundAnchors(s: GameState, u: UnitState): { range: number; friends: UnitState[] } {
  const leave = firstRoundDeepStrike(s, u);
  if (!leave || !(everyModelHas(u, 'Deep Strike') || allows(s, u, 'deep-strike'))) return { range: 0, friends: [] };
  return { range: leave.range, friends: unitsOnBattlefield(s, u.player).filter((f) => f.id !== u.id && leave.near(f)) };
}

/** Battle round 1: Deep Strike points at the friendly units the unit must arrive near (none without such a rule). */
function firstRoundPoints(s: GameState, u: UnitState): ArrivalOption[] {
  return firstRoundAnchors(s, u).friends.map((f) => ({ unit: u.id, how: 'deep-strike' as const, ...unitCentre(f) }));
}

/**
 * Where the unit may arrive from Reserves now: anywhere its Deep Strike or Strategic Reserves allow from battle
 * round 2 (as the round counts for it: Ride the Wind), in battle round 1 only near the units a rule names
 * (Transponder Lock Module). The Reinforcements step and RAPID INGRESS ("not in a battle round it could not
 * normally arrive in") ask the same.
 */
export function reinforcementOptions(g: Game, u: UnitState): ArrivalOption[] {
  return arrivalRound(g.state, u) < 2 ? firstRoundPoints(g.state, u) : arrivalOptions(g, u);
}

/** Does the planned set-up put a model within `range` of a model of one of the friendly units? */
function plannedNear(s: GameState, u: UnitState, positions: readonly { x: number; y: number; z: number }[], range: number, friends: readonly UnitState[]): boolean {
  const alive = u.models.filter((m) => m.alive);
  for (const f of friends) {
    for (const fm of f.models) {
      if (!fm.alive || !fm.pos) continue;
      const fb = modelBody(s, fm);
      for (let i = 0; i < alive.length; i++) if (isWithin(bodyAt(s, alive[i], positions[i]), fb, range)) return true;
    }
  }
  return false;
}

/**
 * The same for a unit as if it were in Reserves now (`strategic`: in Strategic Reserves), so an agent can
 * weigh sending a unit there (WALL OF MIRRORS).
 */
export function arrivalPoints(s: GameState, u: UnitState, strategic: boolean): ArrivalOption[] {
  const out: ArrivalOption[] = [];
  // Deep Strike "if every model in a unit has this ability": an Attached unit in Strategic Reserves whose Leader lacks it does not
  const canDeepStrike = everyModelHas(u, 'Deep Strike') || allows(s, u, 'deep-strike');
  if (canDeepStrike) {
    for (const o of s.objectives) out.push({ unit: u.id, how: 'deep-strike', x: o.pos.x, y: o.pos.y });
    for (let x = 6; x < s.board.width; x += 12) for (let y = 6; y < s.board.height; y += 12) out.push({ unit: u.id, how: 'deep-strike', x, y });
  }
  if (strategic) {
    const w = s.board.width, h = s.board.height;
    for (let x = 6; x < w; x += 12) { out.push({ unit: u.id, how: 'strategic-reserves', x, y: 3 }); out.push({ unit: u.id, how: 'strategic-reserves', x, y: h - 3 }); }
    for (let y = 6; y < h; y += 12) { out.push({ unit: u.id, how: 'strategic-reserves', x: 3, y }); out.push({ unit: u.id, how: 'strategic-reserves', x: w - 3, y }); }
  }
  return out;
}

/** A unit set up by Deep Strike within 9" of enemy units this turn (a rule allowed it). */
export const SET_UP_WITHIN_9 = 'Set up within 9"';

export function reinforcements(g: Game, player: PlayerIndex): void {
  // battle round 1: only units a rule lets Deep Strike then (Transponder Lock Module) or whose round counts
  // higher (Ride the Wind)
  if (g.state.round < 2 && !g.state.unitOrder.some((id) => {
    const u = g.state.units[id];
    return u.player === player && inReserves(u) && !u.flags.arrived && (firstRoundDeepStrike(g.state, u) !== null || arrivalRound(g.state, u) >= 2);
  })) return;
  openWindow(g, { name: 'movement/reinforcements-start', unit: null, targets: [] });
  for (;;) {
    if (g.state.result) return;
    const waiting = g.state.unitOrder.map((id) => g.state.units[id]).filter((u) => u.player === player && inReserves(u) && !u.flags.arrived);
    const options: ({ wait: true } | ArrivalOption)[] = [{ wait: true }];
    for (const u of waiting) options.push(...reinforcementOptions(g, u));
    if (options.length === 1) return;
    const { option } = g.decide({ kind: 'reinforcement', player, prompt: 'Reinforcements: set up a unit from Reserves?', options });
    if ('wait' in option) return;
    arrive(g, g.state.units[option.unit], option);
  }
}

/** How far from every enemy model the unit Deep Strikes: more than 9", unless one of its rules allows closer (Cloudstrike). */
export function deepStrikeDistance(s: GameState, u: UnitState): number {
  let least = 9;
  forEachActiveRule(s, u, 'self', (r, src) => {
    const d = r.deepStrikeDistance?.({ state: s, unit: u }, src);
    if (d !== undefined && d !== null) least = Math.min(least, d);
  });
  return least;
}

/** Areas the enemy's rules keep a unit set up from Reserves out of (Rule.enemyArrivalExclusion: Jammer Array). */
export function arrivalExclusions(s: GameState, u: UnitState): { x: number; y: number }[][] {
  const out: { x: number; y: number }[][] = [];
  for (const e of unitsOnBattlefield(s, opponent(u.player))) {
    for (const r of abilityRules(e)) if (r.enemyArrivalExclusion) out.push(...r.enemyArrivalExclusion(s, e));
  }
  return out;
}

/**
 * The set-up of the unit arriving at `option` now, as `arrive` would make it: the plan, and whether a unit
 * arriving in battle round 1 (a rule allowed it) stands near one of the friendly units that rule names.
 * `minEnemyDistance`: a Deep Strike's distance from enemy models when the rule that sets it up names its own
 * (the Homing Beacon's 9"), the unit's own otherwise.
 */
export function arrivalPlan(s: GameState, u: UnitState, option: ArrivalOption, minEnemyDistance = deepStrikeDistance(s, u)): { plan: ReturnType<typeof planUnit>; near: boolean } {
  const enemyZone = s.board.deploymentZones.find((z) => z.player === opponent(u.player))?.polygon;
  const jammed = arrivalExclusions(s, u);
  const round = arrivalRound(s, u);
  const plan = option.how === 'deep-strike'
    ? planUnit(s, u, 'deepStrike', { destination: { x: option.x, y: option.y }, minEnemyDistance, ...(jammed.length > 0 ? { forbiddenZones: jammed } : {}) })
    : planUnit(s, u, 'strategicReserves', { destination: { x: option.x, y: option.y }, forbiddenZones: [...(round === 2 && enemyZone && !allows(s, u, 'arrive-in-enemy-zone') ? [enemyZone] : []), ...jammed] });
  // battle round 1 (a rule allowed it): the set-up must be near one of the friendly units it names
  let near = true;
  if (plan.ok && round < 2) {
    const { range, friends } = firstRoundAnchors(s, u);
    near = option.how === 'deep-strike' && plannedNear(s, u, plan.positions, range, friends);
  }
  return { plan, near };
}

/** Can the unit be set up at `option` now (the planner finds room there)? */
export function canArriveAt(s: GameState, u: UnitState, option: ArrivalOption): boolean {
  const { plan, near } = arrivalPlan(s, u, option);
  return plan.ok && near;
}

/**
 * Set a unit up from Reserves near the chosen point; false when there is no legal place there. `minEnemyDistance`
 * as `arrivalPlan`'s: a rule that offered the point from that plan gets the same set-up (the planner is
 * deterministic).
 */
export function arrive(g: Game, u: UnitState, option: ArrivalOption, minEnemyDistance = deepStrikeDistance(g.state, u)): boolean {
  const s = g.state;
  const { plan, near } = arrivalPlan(s, u, option, minEnemyDistance);
  if (!plan.ok || !near) {
    // no room there this time: it stays in Reserves (and cannot try again this phase)
    g.emit({ type: 'unit-moved', unit: u.id, mode: 'arrived' });
    g.emit({ type: 'note', text: `${u.name} could not arrive near (${option.x}, ${option.y}): ${plan.ok ? 'too far from the units it must arrive near' : plan.reason}` });
    return false;
  }
  g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
  applyPlan(g, u, plan, option.how);
  // set up within 9" of the enemy, as only a rule allows (Cloudstrike): the rule may then forbid a charge
  if (option.how === 'deep-strike' && minEnemyDistance < 9) {
    const placed = g.state.units[u.id];
    if (unitsOnBattlefield(g.state, opponent(u.player)).some((e) => unitDistance(g.state, placed, e) <= 9 + 1e-6)) {
      g.addEffect(SET_UP_WITHIN_9, u.player, u.id, g.untilEndOfTurn());
    }
  }
  g.emit({ type: 'unit-moved', unit: u.id, mode: 'arrived' });
  afterMove(g, g.state.units[u.id]);
  return true;
}
