/**
 * The names and numbers of Battle Focus (./battle-focus.ts) that the heuristic agent and the invariant checks
 * read, in a module that registers nothing: importing the rule itself would register it earlier than the
 * factions' index does, and registration order is the order rules are offered.
 */
import type { MissionState } from '../../core/state.ts';

export const BATTLE_FOCUS = 'Battle Focus';
export const SWIFT_AS_THE_WIND = 'Swift as the Wind';
export const FLITTING_SHADOWS = 'Flitting Shadows';
export const STAR_ENGINES = 'Star Engines';
export const SUDDEN_STRIKE = 'Sudden Strike';
export const OPPORTUNITY_SEIZED = 'Opportunity Seized';
export const FADE_BACK = 'Fade Back';

/**
 * Tokens by battle size. Boarding Actions games (small boards, small armies) get the Incursion count, the
 * smallest size the rule names.
 */
export const BATTLE_FOCUS_TOKENS: Readonly<Record<MissionState['mode'], number>> = { incursion: 2, 'strike-force': 4, onslaught: 6, 'boarding-actions': 2 };

/** The manoeuvres that are a Normal move of up to D6+1" (the D6 is rolled under the manoeuvre's name). */
export const D6_PLUS_1_MOVES: readonly string[] = [OPPORTUNITY_SEIZED, FADE_BACK];

/** A choice of the 'battle-focus' decision: none, or a manoeuvre for a unit (`free`: the rule that makes it cost no token). */
export type BattleFocusOption = { none: true } | { manoeuvre: string; unit: string; free?: string };
