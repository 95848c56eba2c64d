/**
 * Aeldari reactive moves (Rule.enemyMoveEnded; see ../tau/reactive-moves.ts for the shape): a Normal move
 * of up to D6" once per turn when an enemy unit ends a Normal, Advance or Fall Back move within 9".
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { reactiveMoveHook } from '../helpers.ts';

/** Path of the Outcast (Rangers, Amallyn Shadowguide; the latter's "not within Engagement Range" holds for both: an engaged unit cannot make a Normal move). */
registerRule({
  name: 'Path of the Outcast', kind: 'datasheet-ability',
  enemyMoveEnded: reactiveMoveHook('Path of the Outcast (used this turn)',
    (g, unit, mover, options) => g.decide({ kind: 'path-of-the-outcast', player: unit.player, prompt: `${unit.name}: Path of the Outcast (${mover.name} moved within 9"): a Normal move of up to D6"?`, options, context: { unit: unit.id, mover: mover.id } }).option,
    (g, unit) => g.dice.d6(1, 'other', unit.player, unit.id, 'Path of the Outcast')[0]),
});

/** Corsair Reaver Band's Reaver Band. */
registerRule({
  name: 'Reaver Band', kind: 'datasheet-ability',
  enemyMoveEnded: reactiveMoveHook('Reaver Band (used this turn)',
    (g, unit, mover, options) => g.decide({ kind: 'reaver-band', player: unit.player, prompt: `${unit.name}: Reaver Band (${mover.name} moved within 9"): a Normal move of up to D6"?`, options, context: { unit: unit.id, mover: mover.id } }).option,
    (g, unit) => g.dice.d6(1, 'other', unit.player, unit.id, 'Reaver Band')[0]),
});
