/**
 * How many Leader units a Bodyguard unit takes at Declare Battle Formations: one, or two for a unit with the
 * BODYGUARD special rule (Kroot Carnivores) and a Starting Strength of 20, the two of different datasheets.
 * A fact of the datasheet, read by the scenario loader and by the agent's Declare Battle Formations alike.
 * (The Orks' BODYGUARD, whose second Leader must be a Warboss, is not in the bundled factions.)
 */
import type { Datasheet } from './datasheet.ts';

export const BODYGUARD = 'BODYGUARD';

/** Leader units the Bodyguard unit takes with `models` models. */
export function leadersAllowed(bodyguard: Datasheet, models: number): number {
  return bodyguard.abilities.includes(BODYGUARD) && models === 20 ? 2 : 1;
}

/** May a Leader of datasheet `candidate` join the Bodyguard unit, already led by Leaders of datasheets `leaders`? */
export function mayJoinAsLeader(bodyguard: Datasheet, models: number, leaders: readonly string[], candidate: string): boolean {
  return leaders.length < leadersAllowed(bodyguard, models) && !leaders.includes(candidate);
}
