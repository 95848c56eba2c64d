/**
 * T'au Empire datasheet abilities of the Kroot and Vespid auxiliaries that the real army lists field
 * (../shared/data/army-lists), one registry entry each. Not in RULES.md: written from the datasheets of
 * the data export, in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent } from '../../core/state.ts';
import { holdMarkersAtCommandEnd, intoReservesAtTurnEnd } from '../helpers.ts';

/** The effect Fieldcraft leaves on a marker (params.objective), army-wide for its player. */
export const FIELDCRAFT_HOLD = 'Fieldcraft (held)';

/**
 * Kroot Carnivores' Fieldcraft: at the end of its player's Command phase, each marker the unit is within
 * range of and its player controls stays under that player's control without models in range, until
 * the opponent controls it at the start or end of a turn (the hold outlives the unit).
 */
registerRule({
  name: 'Fieldcraft', kind: 'datasheet-ability',
  phaseEnd: (g, unit, phase) => holdMarkersAtCommandEnd(g, unit, phase, FIELDCRAFT_HOLD),
});

/**
 * The hold: its player controls the marker unless the opponent does by the Levels of Control (a
 * contested marker stays held). Ends at the end of a turn in which the opponent controls it (the start
 * of the next turn sees the same positions, so the end of each turn is where it is checked).
 */
registerRule({
  name: FIELDCRAFT_HOLD, kind: 'effect',
  objectiveControl(_state, objective, controller, effect) {
    if (effect.params.objective !== objective || controller === opponent(effect.player)) return controller;
    return effect.player;
  },
  effectTurnEnd(g, effect) {
    const o = g.state.objectives.find((x) => x.id === effect.params.objective);
    if (o && o.controller === opponent(effect.player)) g.removeEffect(effect.id);
  },
});

/**
 * Vespid Stingwings' Airborne Agility: at the end of the opponent's turn, a unit not within Engagement
 * Range of an enemy unit may leave the battlefield for Strategic Reserves (from where it arrives as any
 * unit there; still there when the battle ends, it counts as destroyed).
 */
registerRule({
  name: 'Airborne Agility', kind: 'datasheet-ability',
  turnEnd: intoReservesAtTurnEnd('Airborne Agility', 'airborne-agility'),
});
