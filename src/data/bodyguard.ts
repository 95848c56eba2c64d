/**
 * How many Leader units a Bodyguard unit takes at Declare Battle Formations: one, or two for a unit with the
 * BODYGUARD special rule (Kroot Carnivores) and a Starting Strength of 20, the two of different datasheets.
 * A fact of the datasheet, read by the scenario loader and by the agent's Declare Battle Formations alike;
 * a Leader's own text may let it join beside another (./co-leaders.ts).
 * (The Orks' BODYGUARD, whose second Leader must be a Warboss, is not in the bundled factions.)
 */
import type { Datasheet } from './datasheet.ts';
import { joinsBeside } from './co-leaders.ts';

export const BODYGUARD = 'BODYGUARD';

/** Leader units the Bodyguard unit takes with `models` models. */
export function leadersAllowed(bodyguard: Datasheet, models: number): number {
  return bodyguard.abilities.includes(BODYGUARD) && models === 20 ? 2 : 1;
}

/**
 * May the Leader `candidate` join the Bodyguard unit, already led by the Leaders `leaders`: below the number
 * its BODYGUARD rule allows (never two of one datasheet), or beside the one Leader it has when either one's
 * leader text allows the pair (./co-leaders.ts).
 */
export function mayJoinAsLeader(bodyguard: Datasheet, models: number, leaders: readonly Datasheet[], candidate: Datasheet): boolean {
  if (leaders.some((l) => l.id === candidate.id)) return false;
  if (leaders.length < leadersAllowed(bodyguard, models)) return true;
  return leaders.length === 1 && joinsBeside(candidate, leaders[0]);
}

/** Why a Bodyguard unit refuses another Leader, for the messages of the army and scenario checks. */
export const ONE_LEADER_RULE = 'a Bodyguard unit takes one Leader (two of different datasheets for a BODYGUARD unit of 20 models, or where a Leader\'s text lets it join beside the other)';
