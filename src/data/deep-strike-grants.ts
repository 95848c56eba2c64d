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

/**
 * Enhancements whose bearer's unit (an Attached unit's every model) has Deep Strike: Webway Pathstone ("Models in
 * this unit have the Deep Strike ability"). The loader accepts such a unit in Deep Strike Reserves; the rule
 * (src/factions/aeldari/corsair-coterie.ts) grants the ability in play (`grantsAbilities`).
 */
export const UNIT_DEEP_STRIKE_ENHANCEMENTS: readonly string[] = ['Webway Pathstone'];

/** Does one of these Enhancements (a unit's and its Leaders') give their unit Deep Strike? */
export function enhancementGivesDeepStrike(enhancements: readonly (string | undefined)[]): boolean {
  return enhancements.some((e) => e !== undefined && UNIT_DEEP_STRIKE_ENHANCEMENTS.some((x) => lookupKey(x) === lookupKey(e)));
}

/** The grant among the army's Enhancements that may select a unit of this datasheet, or null. */
export function deepStrikeGrantFor(enhancements: readonly string[], ds: Datasheet): DeepStrikeGrant | null {
  const carried = new Set(enhancements.map(lookupKey));
  return DEEP_STRIKE_GRANTS.find((g) => carried.has(lookupKey(g.enhancement)) && g.keywords.some((k) => ds.keywords.includes(k))) ?? null;
}

/**
 * Units a detachment's rule lets wait in Reserves from Declare Battle Formations as if in Strategic Reserves,
 * outside the Strategic Reserves quarter of the points (they still count toward the half in Reserves): Ride the
 * Wind's riders, an ASURYANI MOUNTED or VYPERS unit. A fact the scenario loader needs as the agents' Declare
 * Battle Formations does; the rule (src/factions/aeldari/windrider-host.ts) reads the same entry.
 */
export const UNCAPPED_RESERVES: readonly { detachment: string; keywords: readonly (readonly string[])[] }[] = [
  { detachment: 'Windrider Host', keywords: [['ASURYANI', 'MOUNTED'], ['VYPERS']] },
];

/** Does the detachment's rule let a unit with these keywords (every set's keywords, for one of the sets) wait outside the quarter? */
export function uncappedReserves(detachment: string | null, has: (keyword: string) => boolean): boolean {
  const entry = UNCAPPED_RESERVES.find((e) => lookupKey(e.detachment) === lookupKey(detachment ?? ''));
  return !!entry && entry.keywords.some((set) => set.every(has));
}

