/** The T'au Empire: army rule, detachments and stratagems, datasheet abilities. */
import '../core-first.ts';
import { registerFaction } from '../../rules/factions.ts';
import { FOR_THE_GREATER_GOOD } from './army-rule.ts';
import { TAU_DETACHMENTS } from './detachments.ts';
import './datasheets.ts';
import './battlesuits.ts';
import './commanders.ts';
import './leaders.ts';
import './kroot.ts';
import './auxiliaries.ts';
import './enhancements.ts';
import './wargear.ts';
import './reactive-moves.ts';
import './more-abilities.ts';

registerFaction({ id: 'TAU', name: "T'au Empire", armyRules: [FOR_THE_GREATER_GOOD], detachments: TAU_DETACHMENTS });
