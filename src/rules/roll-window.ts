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
  /** for a summed roll (2D6 Charge), what total is needed to succeed, when known */
  target?: number;
}

export interface RollReaction {
  name: string;
  /** return new values when the reaction was used, null otherwise */
  react(g: Game, roll: RollInfo): { values: number[]; rerolled: number[] } | null;
}

const reactions: RollReaction[] = [];

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
