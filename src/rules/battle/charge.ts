/**
 * Charge phase: the active player selects eligible units (not Advanced or Fell Back this turn, not in
 * Engagement Range, not disembarked from a transport that moved, an enemy within 12"), declares targets
 * within 12" (visibility not needed: one unit or several, every set offered), rolls 2D6, and the planner
 * moves the unit so that it ends within Engagement Range of every target and of no other enemy unit, in
 * coherency, in base contact where it can. A unit that charged fights first this turn (Charge Bonus).
 */
import type { Game } from '../../core/game.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { afterRoll, rollDice } from '../roll-window.ts';
import { abilityRules, abilityRulesWith, allows, effectsWith, everyModelHas, forbids, getRule, registerRule } from '../../core/rules-registry.ts';
import { openWindow } from '../windows.ts';
import { allocateHazardousAfterCharge } from '../hazardous.ts';
import { splitAttachedUnits } from '../damage.ts';
import { endPhase, hasEffect, startPhase } from './phase.ts';
import { applyPlan, planUnit } from './placement.ts';
import { armyEnemyMoveEnded } from './movement.ts';
import { hasKeyword, rollHalved, rollModifier, survivingPart, unitsOnBattlefield } from './units.ts';
import { isEngaged, unitDistance, unitGapLowerBound } from './world.ts';
import './hooked.ts';

export function chargePhase(g: Game, player: PlayerIndex): void {
  startPhase(g, player, 'charge');
  chargeBody(g, player);
  endPhase(g, player, 'charge');
}

/** The phase between its start and its end; re-entrant between two charges (lookahead resumes it). */
/**
 * The modifier to a Charge roll against these targets: the charging unit's own (its rules and effects, and
 * the targets' abilities that add to them, Runes of Fortune, each once) and the largest reduction a target's
 * abilities or an effect on the unit impose (Grav-inhibitor Drone, IMPEDING FIRE), which does not add to the
 * unit's own reductions. Only the total of the unit's own is known here, so its positive and negative
 * parts are not told apart: a -2 against the unit takes the total to at least 2 below 0 or below, e.g. +1
 * and -2 of its own with a Grav-inhibitor Drone give -2 rather than -1 (no bundled army has both).
 */
export function chargeRollModifier(state: GameState, charger: UnitState, targets: readonly UnitState[]): number {
  let own = rollModifier(state, charger, 'charge');
  let against = 0;
  const adds = new Map<string, number>();
  for (const t of targets) {
    for (const r of abilityRules(t)) {
      const ctx = { state, unit: t, charger };
      const src = { role: 'defender', player: t.player, effect: null, unit: t } as const;
      if (r.chargeRollAgainst) against = Math.min(against, r.chargeRollAgainst(ctx, src));
      if (r.chargeRollAgainstAdds) adds.set(r.name, Math.min(adds.get(r.name) ?? 0, r.chargeRollAgainstAdds(ctx, src)));
    }
  }
  for (const v of adds.values()) own += v;
  // effects on the charging unit whose penalty does not add to the others (IMPEDING FIRE)
  for (const e of effectsWith(state, charger.id, 'chargeRollPenalty')) against = Math.min(against, getRule(e.kind)!.chargeRollPenalty!);
  return against < 0 ? Math.min(own, Math.max(own, 0) + against) : own;
}

export function chargeBody(g: Game, player: PlayerIndex): void {
  for (;;) {
    if (g.state.result) break;
    const eligible = unitsOnBattlefield(g.state, player).filter((u) => canCharge(g, u));
    if (eligible.length === 0) break;
    const options: ({ done: true } | { unit: string })[] = [{ done: true }, ...eligible.map((u) => ({ unit: u.id }))];
    const { option } = g.decide({ kind: 'select-unit-to-charge', player, prompt: 'select a unit to charge (or end the phase)', options });
    if ('done' in option) break;
    declareCharge(g, g.state.units[option.unit]);
  }
}

export function chargeTargets(g: Game, u: UnitState): UnitState[] {
  // the bounding circles first: most enemy units are far beyond 12" and need no model-by-model measure
  const s = g.state;
  return unitsOnBattlefield(s, opponent(u.player)).filter((e) => unitGapLowerBound(s, u, e) <= 12 + 1e-6 && unitDistance(s, u, e) <= 12 + 1e-6 && !hasKeyword(e, 'AIRCRAFT'));
}

/** Options beyond this many are not enumerated: the sets of the largest sizes are left out (see chargeTargetSets). */
export const MAX_TARGET_SETS = 1024;

/**
 * Every set of targets a charge may declare (the core rules: one or more enemy units within 12"): each
 * unit alone first, in chargeTargets' order, then the pairs, the triples and so on. Sets are offered size by
 * size while the options stay within MAX_TARGET_SETS, so that eleven or more units in reach (2,047 sets and
 * up) do not flood the decision: every size that fits whole is offered, and always every single target.
 */
export function chargeTargetSets(g: Game, u: UnitState): { targets: string[] }[] {
  return targetSets(chargeTargets(g, u).map((t) => t.id));
}

/** The sets of chargeTargetSets for units `ids` in reach, in that order. */
export function targetSets(ids: readonly string[]): { targets: string[] }[] {
  const out: { targets: string[] }[] = [];
  // sets of one size: n choose size, counted before any is built
  let count = 1;
  for (let size = 1; size <= ids.length; size++) {
    count = (count * (ids.length - size + 1)) / size;
    if (size > 1 && out.length + count > MAX_TARGET_SETS) break;
    for (const targets of combinations(ids, size)) out.push({ targets });
  }
  return out;
}

/** The k-element subsets of `items`, each in the items' order, in lexicographic order of positions. */
function combinations<T>(items: readonly T[], k: number): T[][] {
  const out: T[][] = [];
  const pick: T[] = [];
  const walk = (from: number): void => {
    if (pick.length === k) { out.push([...pick]); return; }
    for (let i = from; i <= items.length - (k - pick.length); i++) {
      pick.push(items[i]);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return out;
}

export function canCharge(g: Game, u: UnitState): boolean {
  const f = u.flags;
  const s = g.state;
  if (f.declaredCharge || f.disembarkedAfterTransportMoved) return false;
  if (f.advanced && !allows(s, u, 'charge-after-advance')) return false;
  if (f.fellBack && !allows(s, u, 'charge-after-fall-back')) return false;
  if (forbids(s, u, 'charge')) return false;
  if (hasKeyword(u, 'AIRCRAFT') || isEngaged(g.state, u)) return false;
  return chargeTargets(g, u).length > 0;
}

/** Declare a charge: targets, the opponent's reactions, the Charge roll and the Charge move. */
export function declareCharge(g: Game, u: UnitState, opts: { targets?: string[]; chargeBonus?: boolean } = {}): boolean {
  const charged = chargeSequence(g, u, opts);
  // a charge that failed or ended without a move: the Overwatch's Hazardous mortal wounds wait no longer
  allocateHazardousAfterCharge(g);
  return charged;
}

function chargeSequence(g: Game, u: UnitState, opts: { targets?: string[]; chargeBonus?: boolean }): boolean {
  const player = u.player;
  const parts = u.components.map((c) => c.unit);
  let targets = opts.targets;
  if (!targets) {
    openWindow(g, { name: 'charge/unit-selected', unit: u.id, targets: [] });
    const options = chargeTargetSets(g, u);
    const { option } = g.decide({ kind: 'charge-targets', player, prompt: `${u.name}: charge which units?`, options, context: { unit: u.id } });
    targets = option.targets;
  }
  g.emit({ type: 'unit-flag', unit: u.id, flag: 'declaredCharge', value: true });
  // the unit's abilities that act as it declares the charge (Battle Focus), before the opponent answers it
  for (const r of abilityRulesWith(u, 'chargeDeclared')) r.chargeDeclared!(g, g.state.units[u.id], targets);
  // and the effects on it that do (HOOKED)
  for (const e of effectsWith(g.state, u.id, 'chargeDeclared')) getRule(e.kind)!.chargeDeclared!(g, g.state.units[u.id], targets);
  openWindow(g, { name: 'charge/after-enemy-charge-declared', unit: u.id, targets });
  // FIRE OVERWATCH may have destroyed the Bodyguard part: the Leader left carries the charge on
  const fresh = survivingPart(g.state, parts);
  if (!fresh) return false;
  const id = fresh.id;
  // a target that left the battlefield in reply (COMBAT EMBARKATION): the charging player can select new
  // targets for the charge, any set in reach, or keep the targets that are left (offered first)
  if (targets.some((t) => g.state.units[t].location !== 'battlefield')) {
    const still = targets.filter((t) => g.state.units[t].location === 'battlefield');
    const key = (ts: readonly string[]) => [...ts].sort().join('+');
    const options = chargeTargetSets(g, fresh).filter((o) => key(o.targets) !== key(still));
    if (still.length > 0) options.unshift({ targets: still });
    if (options.length === 0) {
      g.emit({ type: 'note', text: `${fresh.name}'s charge has no target left` });
      return false;
    }
    const prompt = still.length > 0 ? `${fresh.name}: a target is gone; keep the others or charge which units?` : `${fresh.name}: its targets are gone; charge which units?`;
    const { option } = g.decide({ kind: 'charge-targets', player, prompt, options, context: { unit: id } });
    targets = option.targets;
  }
  let dice = rollDice(g, 2, 6, 'charge', player, id, fresh.name);
  const needed = Math.max(...targets.map((t) => unitDistance(g.state, fresh, g.state.units[t]))) - 1;
  dice = afterRoll(g, { purpose: 'charge', player, unit: id, sides: 6, values: dice, test: null, rerolled: [], target: Math.ceil(needed) }) as number[];
  const roll = Math.max(0, rollHalved(g.state, fresh, 'charge', dice[0] + dice[1]) + chargeRollModifier(g.state, fresh, targets.map((t) => g.state.units[t])));
  const plan = planUnit(g.state, fresh, 'charge', { maxDistance: roll, targetUnitIds: targets });
  if (!plan.ok) {
    g.emit({ type: 'note', text: `${fresh.name}'s charge failed (rolled ${roll}): ${plan.reason}` });
    return false;
  }
  applyPlan(g, fresh, plan, 'charge');
  // it made a Charge move (LANCE counts it); without the Charge Bonus (HEROIC INTERVENTION) it does not Fight First
  g.emit({ type: 'unit-flag', unit: id, flag: 'charged', value: true });
  if (opts.chargeBonus === false) g.addEffect(NO_CHARGE_BONUS, player, id, g.untilEndOfTurn());
  // the Charge move has ended: the mortal wounds of Hazardous tests failed in Overwatch against it are allocated
  allocateHazardousAfterCharge(g);
  // unit abilities that act when the unit ends a Charge move (Kroot Linebreakers)
  for (const name of g.state.units[id].abilities) getRule(name)?.afterChargeMove?.(g, g.state.units[id]);
  // the opponent's army rules that act when an enemy unit ends a Charge move (Relentless Raiders)
  armyEnemyMoveEnded(g, g.state.units[id], 'charge');
  // the windows after the move hear the part still on the battlefield (mortal wounds just now may have
  // destroyed the Bodyguard: the split is made first, so HEROIC INTERVENTION sees the Leader that charged)
  splitAttachedUnits(g);
  const mover = survivingPart(g.state, parts);
  if (!mover) return true;
  openWindow(g, { name: 'charge/after-own-charge-move', unit: mover.id, targets });
  const still = survivingPart(g.state, parts);
  if (still) openWindow(g, { name: 'charge/after-enemy-charge-move', unit: still.id, targets });
  return true;
}

/** A unit that made a Charge move without the Charge Bonus (HEROIC INTERVENTION): it does not Fight First. */
export const NO_CHARGE_BONUS = 'No Charge Bonus';
// a Leader whose Bodyguard part is destroyed keeps the charge flag, and with it the missing Charge Bonus
registerRule({ name: NO_CHARGE_BONUS, kind: 'effect', followsLeaderOnSplit: true });

/**
 * Fights First: units that charged this turn (Charge Bonus), or with the ability (every model of the unit:
 * Jain Zar alone does not give it to her Howling Banshees), or given it by a rule or an effect.
 */
export function fightsFirst(g: Game, u: UnitState): boolean {
  if (u.flags.charged && !hasEffect(g, NO_CHARGE_BONUS, u.id)) return true;
  if (everyModelHas(u, 'Fights First')) return true;
  for (const r of abilityRulesWith(u, 'fightsFirst')) if (r.fightsFirst!({ state: g.state, unit: u }, { role: 'self', player: u.player, effect: null, unit: u })) return true;
  // an effect that plays such a rule for the unit (BATTLEFIELD COMMAND lending Way of the Blade)
  for (const e of effectsWith(g.state, u.id, 'fightsFirst')) if (getRule(e.kind)!.fightsFirst!({ state: g.state, unit: u }, { role: 'self', player: e.player, effect: e, unit: u })) return true;
  return hasEffect(g, 'Fights First', u.id);
}
