/**
 * HOOKED (a weapon ability of the data: the Great Knarloc's Kroot bolt thrower). Each time the bearer's
 * attack with the weapon hits a MONSTER or VEHICLE unit, until the end of the turn, if the bearer's unit
 * declares a charge with that unit among its targets, its Charge roll gets +2 and the enemy cannot use
 * FIRE OVERWATCH to shoot at it. Played as: a hit leaves a `Hooked` effect naming the unit hit (until the
 * end of the turn); declaring a charge at it turns that into `Hooked charge` for the Charge phase, which
 * adds 2 to the Charge roll and forbids being shot at with FIRE OVERWATCH (the window after the charge is
 * declared comes after it).
 */
import type { Game } from '../../core/game.ts';
import type { GameState, UnitState } from '../../core/state.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { registerWeaponAbility } from '../weapon-abilities.ts';
import { hasKeyword } from './units.ts';

export const HOOKED = 'Hooked';
export const HOOKED_CHARGE = 'Hooked charge';

registerWeaponAbility({
  name: 'HOOKED',
  compile: (p) => { p.tags.push('HOOKED'); },
  scoredHit(g: Game, attacker: UnitState, target: UnitState) {
    if (!hasKeyword(target, 'MONSTER') && !hasKeyword(target, 'VEHICLE')) return;
    if (g.state.effects.some((e) => e.kind === HOOKED && e.unit === attacker.id && e.params.target === target.id)) return;
    g.addEffect(HOOKED, attacker.player, attacker.id, g.untilEndOfTurn(), { target: target.id });
  },
});

registerRule({
  name: HOOKED, kind: 'effect',
  chargeDeclared(g, unit, targets) {
    if (hookedChargeBonus(g.state, unit, targets) > 0) g.addEffect(HOOKED_CHARGE, unit.player, unit.id, g.untilEndOfPhase());
  },
});

registerRule({
  name: HOOKED_CHARGE, kind: 'effect',
  rollModifier: (purpose) => (purpose === 'charge' ? 2 : 0),
  forbids: (perm) => perm === 'fire-overwatch-at',
});

/**
 * What HOOKED will add to a charge at these targets that the unit has not declared yet: +2 when one of them
 * is a unit it hooked this turn and no charge of its has taken the bonus already. The rule adds the effect
 * that gives it when the charge is declared; the agents reckon with it before.
 */
export function hookedChargeBonus(state: GameState, unit: UnitState, targets: readonly string[]): number {
  if (state.effects.some((e) => e.kind === HOOKED_CHARGE && e.unit === unit.id)) return 0;
  return state.effects.some((e) => e.kind === HOOKED && e.unit === unit.id && targets.includes(e.params.target as string)) ? 2 : 0;
}
