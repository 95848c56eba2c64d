/**
 * T'au Empire datasheet abilities of the Kroot and Vespid auxiliaries that the real army lists field
 * (../shared/data/army-lists), one registry entry each. Not in RULES.md: written from the datasheets of
 * the data export, in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent } from '../../core/state.ts';
import { holdMarkersAtCommandEnd, intoReservesAtTurnEnd } from '../helpers.ts';
import { controlByLevel } from '../../rules/battle/objectives.ts';

/** The effect Fieldcraft leaves on a marker (params.objective), army-wide for its player. */
export const FIELDCRAFT_HOLD = 'Fieldcraft (held)';

/**
 * Kroot Carnivores' Fieldcraft: at the end of its player's Command phase, each marker the unit is within
 * range of and its player controls stays under that player's control without models in range, until
 * the opponent controls it (by the Levels of Control) at the start or end of a turn (the hold outlives the unit).
 */
registerRule({
  name: 'Fieldcraft', kind: 'datasheet-ability',
  phaseEnd: (g, unit, phase) => holdMarkersAtCommandEnd(g, unit, phase, FIELDCRAFT_HOLD),
});

/**
 * The hold: its player controls the marker whatever the Levels of Control, "until your opponent controls it at
 * the start or end of any turn": it ends at the end of a turn in which the opponent's Level of Control over it is
 * greater (the start of the next turn sees the same positions, so the end of each turn is where it is checked).
 * Within a turn the opponent does not take it by standing on it (nor score it at the end of their Command phase,
 * as the marker holds of other rules, worded "at the end of a phase", would let them: registerMarkerHold).
 */
registerRule({
  name: FIELDCRAFT_HOLD, kind: 'effect',
  objectiveControl(_state, objective, controller, effect) {
    return effect.params.objective === objective ? effect.player : controller;
  },
  effectTurnEnd(g, effect) {
    const i = g.state.objectives.findIndex((x) => x.id === effect.params.objective);
    // (endTurn records the control again after the effects' turn end)
    if (i >= 0 && controlByLevel(g.state)[i] === opponent(effect.player)) g.removeEffect(effect.id);
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
