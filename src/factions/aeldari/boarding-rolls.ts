/**
 * What the invariant checks (test/helpers/rule-checks.ts) read of the Aeldari Boarding Actions rules, in a
 * module that registers nothing: importing the detachments themselves would register their rules earlier
 * than the factions' index does, and registration order is the order rules are offered.
 */

/** The label of SERPENT STRIKE's D3. */
export const SERPENT_STRIKE_ROLL = 'Serpent Strike';

/** How far SERPENT STRIKE's Consolidation moves reach with this D3. */
export const serpentStrikeReach = (d3: number) => 3 + d3;
