/**
 * T'au reactive moves: "once per turn, when an enemy unit ends a Normal, Advance or Fall Back move within 9"
 * of this unit, if it is not within Engagement Range, it can make a Normal move" (Rule.enemyMoveEnded; the
 * shared steps are reactiveMoveHook and its parts in ../helpers.ts). The move is toward a destination its
 * player picks; a D6 distance is rolled only once it is chosen.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { reactiveMoveHook } from '../helpers.ts';

/** Kroot Trail Shaper's Trail Finding: the Trail Shaper's unit (the unit he leads too) moves up to D6". */
registerRule({
  name: 'Trail Finding', kind: 'datasheet-ability',
  enemyMoveEnded: reactiveMoveHook('Trail Finding (used this turn)',
    (g, unit, mover, options) => g.decide({ kind: 'trail-finding', player: unit.player, prompt: `${unit.name}: Trail Finding (${mover.name} moved within 9"): a Normal move of up to D6"?`, options, context: { unit: unit.id, mover: mover.id } }).option,
    (g, unit) => g.dice.d6(1, 'other', unit.player, unit.id, 'Trail Finding')[0]),
});

/** Remora Stealth Drones' Aerial Disengagement: a Normal move of up to 6". */
registerRule({
  name: 'Aerial Disengagement', kind: 'datasheet-ability',
  enemyMoveEnded: reactiveMoveHook('Aerial Disengagement (used this turn)',
    (g, unit, mover, options) => g.decide({ kind: 'aerial-disengagement', player: unit.player, prompt: `${unit.name}: Aerial Disengagement (${mover.name} moved within 9"): a Normal move of up to 6"?`, options, context: { unit: unit.id, mover: mover.id } }).option,
    () => 6),
});
