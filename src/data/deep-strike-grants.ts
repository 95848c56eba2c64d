/**
 * Enhancements that give units of the army Deep Strike in the Declare Battle Formations step (Student of
 * Kauyon). A fact the scenario loader needs before any rule is played, to accept such units among a
 * scenario's Deep Strike Reserves; the rule (src/factions/tau/auxiliary-cadre.ts) reads the same entry.
 */
import type { Datasheet } from './datasheet.ts';
import { lookupKey } from './text.ts';

export interface DeepStrikeGrant {
  enhancement: string;
  /** how many units the bearer's player may select */
  units: number;
  /** a unit that may be selected has one of these keywords */
  keywords: readonly string[];
}

export const DEEP_STRIKE_GRANTS: readonly DeepStrikeGrant[] = [
  { enhancement: 'Student of Kauyon', units: 3, keywords: ['CARNIVORES', 'FARSTALKERS'] },
];

/** The grant among the army's Enhancements that may select a unit of this datasheet, or null. */
export function deepStrikeGrantFor(enhancements: readonly string[], ds: Datasheet): DeepStrikeGrant | null {
  const carried = new Set(enhancements.map(lookupKey));
  return DEEP_STRIKE_GRANTS.find((g) => carried.has(lookupKey(g.enhancement)) && g.keywords.some((k) => ds.keywords.includes(k))) ?? null;
}
