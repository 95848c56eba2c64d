/**
 * "Just after you make a roll": the window the engine opens after every roll a player makes for
 * their units (Hit, Wound, Damage, saving throw, Advance, Charge, Battle-shock, Hazardous...).
 * Roll reactions (Command Re-roll, a Fate die...) register here; each one says when it can be used and
 * asks its player through the decision protocol. With none usable the window costs one loop.
 */
import type { Game } from '../core/game.ts';
import type { RollPurpose } from '../core/events.ts';
import type { PlayerIndex } from '../core/state.ts';

export interface RollInfo {
  purpose: RollPurpose;
  player: PlayerIndex;
  unit: string | null;
  sides: number;
  /** current values (after any automatic re-rolls): read-only */
  values: readonly number[];
  /**
   * For pass/fail rolls, what a die needs: `rollOutcome(value, needed, modifier, criticalOn)` gives
   * 0 fail, 1 success, 2 critical. For sums (Advance, Charge, Damage), null.
   */
  test: { needed: number; modifier: number; criticalOn: number } | null;
  /** indices of dice that were already re-rolled (a die is never re-rolled twice) */
  rerolled: readonly number[];
  /**
   * Several separate rolls made at once (fast dice rolling): each `dicePerRoll` consecutive dice are one
   * roll (one attack's Damage roll, one model's Attacks roll). Absent: the values are one roll.
   */
  dicePerRoll?: number;
  /** for a summed roll (2D6 Charge), what total is needed to succeed, when known */
  target?: number;
  /** Hit, Wound and Damage rolls of attacks: the ids of the attacking models the roll is made for */
  models?: readonly string[];
  /** the dice cannot be re-rolled (a Shadow Field's invulnerable saving throws) */
  noReroll?: boolean;
  /**
   * A Hit or Wound roll whose Critical results do more than a success (LETHAL HITS, SUSTAINED HITS,
   * DEVASTATING WOUNDS...): a successful die that is not a Critical may be re-rolled to fish for one.
   */
  criticalMatters?: boolean;
}

export interface RollReaction {
  name: string;
  /** return new values when the reaction was used, null otherwise */
  react(g: Game, roll: RollInfo): { values: number[]; rerolled: number[] } | null;
}

const reactions: RollReaction[] = [];

/**
 * "Before making a dice roll": a reaction may replace one die of the roll by a value it chooses (a
 * Fate die). The die still comes out of the stream and is then substituted, so the event log shows
 * what was replaced; the value used counts as an unmodified roll.
 */
export interface BeforeRollReaction {
  name: string;
  substitute(g: Game, roll: { purpose: RollPurpose; player: PlayerIndex; unit: string | null; sides: number; count: number }): number | null;
}

const beforeReactions: BeforeRollReaction[] = [];

export function registerBeforeRollReaction(r: BeforeRollReaction): void {
  if (beforeReactions.some((x) => x.name === r.name)) throw new Error(`before-roll reaction "${r.name}" registered twice`);
  beforeReactions.push(r);
}

/** Roll dice for a player's unit, giving the before-roll reactions their chance first. */
export function rollDice(g: Game, n: number, sides: number, purpose: RollPurpose, player: PlayerIndex, unit: string | null, label?: string): number[] {
  let sub: number | null = null;
  let source = '';
  if (n > 0 && beforeReactions.length > 0 && g.agents !== null) {
    for (const r of beforeReactions) {
      sub = r.substitute(g, { purpose, player, unit, sides, count: n });
      if (sub !== null) { source = r.name; break; }
    }
  }
  const values = g.dice.roll(n, sides, purpose, player, unit, label);
  return sub === null ? values : g.dice.substitute(values, 0, sub, purpose, player, unit, source);
}

export function registerRollReaction(r: RollReaction): void {
  if (reactions.some((x) => x.name === r.name)) throw new Error(`roll reaction "${r.name}" registered twice`);
  reactions.push(r);
}

/** Open the window after a roll; returns the final values (the same array when nothing changed). */
export function afterRoll(g: Game, roll: RollInfo): readonly number[] {
  if (reactions.length === 0 || g.agents === null) return roll.values;
  let values = roll.values;
  let rerolled = roll.rerolled;
  for (const r of reactions) {
    const out = r.react(g, { ...roll, values, rerolled });
    if (out) { values = out.values; rerolled = out.rerolled; }
  }
  return values;
}
