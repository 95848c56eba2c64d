/** The Aeldari: army rule, detachments and stratagems, datasheet abilities. */
import '../core-first.ts';
import { registerFaction } from '../../rules/factions.ts';
import { STRANDS_OF_FATE } from './army-rule.ts';
import { BATTLE_FOCUS } from './battle-focus.ts';
import { AELDARI_DETACHMENTS } from './detachments.ts';
import './aspect-shrine.ts';
import './datasheets.ts';
import './enhancements.ts';
import './harlequins.ts';
import './more-datasheets.ts';
import './phoenix-lords.ts';
import './seers-and-corsairs.ts';
import './corsair-characters.ts';
import './spiritseer.ts';
import './reactive-moves.ts';
import './wargear.ts';
import './wraiths-and-warlocks.ts';
import './ynnari-and-titans.ts';
import './support-and-ynnari.ts';

registerFaction({ id: 'AE', name: 'Aeldari', armyRules: [STRANDS_OF_FATE, BATTLE_FOCUS], detachments: AELDARI_DETACHMENTS });
