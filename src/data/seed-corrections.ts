/**
 * Where the rules' own seed pages (../shared/seeds, the source of RULES.md) give a datasheet of the export a
 * different weapon profile, the seed's is played: RULES.md names these units, and the export carries the later
 * codex's profiles. One entry per profile; the importer applies them and says so in its report.
 */
import type { Datasheet, WeaponAbility } from './datasheet.ts';

export interface SeedCorrection {
  /** export faction id */
  faction: string;
  datasheet: string;
  weapon: string;
  /** the profile's abilities on the seed page */
  abilities: WeaponAbility[];
  /** the seed page it comes from */
  seed: string;
}

export const SEED_CORRECTIONS: readonly SeedCorrection[] = [
  // the export (codex) gives LETHAL HITS; the seed's Starweaver (index) SUSTAINED HITS 1
  { faction: 'AE', datasheet: 'Starweaver', weapon: 'Shuriken cannon', abilities: [{ name: 'SUSTAINED HITS', x: 1 }], seed: 'aeldari-starweaver-and-rules.txt' },
];

/** Apply the corrections of `faction` to its datasheets (in place); returns each profile changed. */
export function applySeedCorrections(faction: string, datasheets: Datasheet[]): { datasheet: string; what: string }[] {
  const done: { datasheet: string; what: string }[] = [];
  for (const c of SEED_CORRECTIONS) {
    if (c.faction.toUpperCase() !== faction.toUpperCase()) continue;
    const ds = datasheets.find((d) => d.name === c.datasheet);
    const w = ds?.weapons.find((x) => x.name === c.weapon);
    if (!ds || !w) continue;
    for (const p of w.profiles) {
      if (JSON.stringify(p.abilities) === JSON.stringify(c.abilities)) continue;
      p.abilities = c.abilities.map((a) => ({ ...a }));
      done.push({ datasheet: c.datasheet, what: `${p.name}: ${c.abilities.map((a) => `${a.name}${a.x !== undefined ? ` ${a.x}` : ''}`).join(', ')}, as on the seed page ${c.seed}` });
    }
  }
  return done;
}

/**
 * Where a datasheet's loadout names a weapon otherwise than its profile in the export (Datasheets_wargear.csv), the
 * profile the loadout means. Krootox Rampagers' loadout gives "hunting blades; Rampager fists" and their melee
 * profiles are "Close combat weapon" and "Krootox fists": unmatched, the models were armed with the pistol alone.
 */
export interface LoadoutAlias {
  faction: string;
  datasheet: string;
  /** the loadout's words */
  item: string;
  /** the export's weapon */
  weapon: string;
}

export const LOADOUT_ALIASES: readonly LoadoutAlias[] = [
  { faction: 'TAU', datasheet: 'Krootox Rampagers', item: 'hunting blades', weapon: 'Close combat weapon' },
  { faction: 'TAU', datasheet: 'Krootox Rampagers', item: 'Rampager fists', weapon: 'Krootox fists' },
];

/** The aliases of one datasheet, keyed by the loadout's words in lower case. */
export function loadoutAliases(faction: string, datasheet: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of LOADOUT_ALIASES) {
    if (a.faction.toUpperCase() === faction.toUpperCase() && a.datasheet === datasheet) out.set(a.item.toLowerCase(), a.weapon);
  }
  return out;
}
