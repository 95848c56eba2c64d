/**
 * Factions register their army rules and detachments here: which rule names a player plays for their
 * faction (the army rule) and for their detachment (detachment rules). The rules themselves are
 * ordinary registry entries (src/core/rules-registry.ts); stratagems name their detachment as source.
 */
import { getRule } from '../core/rules-registry.ts';
import type { Datasheet } from '../data/datasheet.ts';
export interface FactionRules {
  /** faction id of the data: TAU, AE */
  id: string;
  name: string;
  /** army rule names played by every army of the faction */
  armyRules: string[];
  /** detachment name -> its rule names */
  detachments: Record<string, string[]>;
}

const registry = new Map<string, FactionRules>();

export function registerFaction(f: FactionRules): void {
  if (registry.has(f.id)) throw new Error(`faction "${f.id}" registered twice`);
  registry.set(f.id, f);
}

export function factionRules(id: string): FactionRules | undefined {
  return registry.get(id);
}

export function registeredFactions(): FactionRules[] {
  return [...registry.values()];
}

/** The rule names a player plays: the army rule, plus the detachment's rules (none for the baseline). */
export function playerRules(faction: string, detachment: string | null): string[] {
  const f = registry.get(faction);
  if (!f) return [];
  const out = f.armyRules.slice();
  if (detachment !== null) for (const r of f.detachments[detachment] ?? []) out.push(r);
  return out;
}

/**
 * The Aura abilities (Rule.aura) of these datasheets, their wargear's too (Command-link Drone), once each in
 * their order: played army-wide (see Rule.aura; a wargear aura finds its bearers, if any carry it).
 */
export function auraRules(datasheets: Iterable<Datasheet>): string[] {
  const out: string[] = [];
  for (const ds of datasheets) {
    for (const a of [...ds.abilities, ...(ds.wargearAbilities ?? [])]) if (getRule(a)?.aura && !out.includes(a)) out.push(a);
  }
  return out;
}
