/**
 * What other rules add to Battle Focus (./battle-focus.ts): tokens more at the start of the battle round, a
 * bonus to the D6 of the Agile Manoeuvres that roll one, inches more for Swift as the Wind. A rule that adds
 * one registers it here (the Warhost's Martial Grace and Timeless Strategist, ./warhost.ts); Battle Focus and
 * the invariant checks ask the sums. This module registers no rule (the checks import it): the bonuses are
 * read from the state alone.
 */
import '../core-first.ts';
import type { GameState, PlayerIndex, UnitState } from '../../core/state.ts';

export interface BattleFocusBonus {
  /** the rule that gives it */
  rule: string;
  /** tokens more the player receives at the start of the battle round */
  tokens?(state: GameState, player: PlayerIndex): number;
  /** added to the D6 rolled as the unit performs the manoeuvre (Fade Back, Opportunity Seized) */
  manoeuvreRoll?(state: GameState, unit: UnitState, manoeuvre: string): number;
  /** inches added to the unit's Move on top of Swift as the Wind's 2" */
  swiftAsTheWind?(state: GameState, unit: UnitState): number;
}

const bonuses: BattleFocusBonus[] = [];

export function registerBattleFocusBonus(b: BattleFocusBonus): void {
  if (bonuses.some((x) => x.rule === b.rule)) throw new Error(`Battle Focus bonus "${b.rule}" registered twice`);
  bonuses.push(b);
}

/** Tokens the player receives on top of the battle size's at the start of the battle round. */
export function battleFocusTokenBonus(state: GameState, player: PlayerIndex): number {
  let n = 0;
  for (const b of bonuses) n += b.tokens?.(state, player) ?? 0;
  return n;
}

/** What is added to the D6 of `manoeuvre` performed by the unit. */
export function manoeuvreRollBonus(state: GameState, unit: UnitState, manoeuvre: string): number {
  let n = 0;
  for (const b of bonuses) n += b.manoeuvreRoll?.(state, unit, manoeuvre) ?? 0;
  return n;
}

/** Inches Swift as the Wind adds to the unit's Move on top of its own 2". */
export function swiftAsTheWindBonus(state: GameState, unit: UnitState): number {
  let n = 0;
  for (const b of bonuses) n += b.swiftAsTheWind?.(state, unit) ?? 0;
  return n;
}
