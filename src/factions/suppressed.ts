/**
 * Suppressed, an effect on an enemy unit that two factions' abilities put on it (the T'au Strike Team's
 * Suppression Volley, the Aeldari Vypers' Harassment Fire): -1 to its Hit rolls.
 */
import { registerRule } from '../core/rules-registry.ts';
import type { GameState } from '../core/state.ts';
import { onBattlefield } from '../rules/battle/units.ts';

/** Effect on an enemy unit: -1 to its Hit rolls (params.by: the unit that suppressed it, params.whileOnBattlefield). */
export const SUPPRESSED = 'Suppressed';

registerRule({
  name: SUPPRESSED, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !src.effect) return;
    // a unit is suppressed or not: only the first suppression in force counts
    const first = ctx.state.effects.find((e) => e.kind === SUPPRESSED && e.unit === ctx.attacker.id && suppressing(ctx.state, e.params));
    if (first === src.effect) plan.hitModifier -= 1;
  },
});

/** Is this suppression in force: always, or (Suppression Volley) while the unit that suppressed is on the battlefield. */
function suppressing(state: GameState, params: Record<string, unknown>): boolean {
  if (!params.whileOnBattlefield) return true;
  const by = state.units[String(params.by)];
  return !!by && onBattlefield(by);
}
