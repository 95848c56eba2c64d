/**
 * Faction catalogs: the datasheets of one faction with lookups by id and by name (case- and
 * apostrophe-insensitive), plus its detachments, stratagems and enhancements. Bundled factions load
 * from src/factions/<folder>/units.json; `exportSource` builds any faction straight from a Wahapedia
 * export directory instead (for lists of factions that are not bundled).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Datasheet } from './datasheet.ts';
import { FACTION_FILE_FORMAT, type EnhancementEntry, type FactionData } from './faction-data.ts';
import { DataError } from './errors.ts';
import { cleanName, lookupKey } from './text.ts';
import { buildFactions, readWahapediaExport } from './wahapedia.ts';
import { withStandIns } from './leader-stand-ins.ts';

export interface FactionCatalog {
  faction: FactionData['faction'];
  data: FactionData;
  datasheets: Datasheet[];
  byId(id: string): Datasheet | undefined;
  /**
   * The datasheet with this name. When several share it (a Legends and a current version, or a
   * chapter variant), the current one wins, then the one whose source matches `sourceHint`.
   */
  byName(name: string, sourceHint?: string): Datasheet | undefined;
  /** every datasheet with this name */
  findAll(name: string): Datasheet[];
  /** every datasheet name, sorted */
  names(): string[];
  /** the Enhancement of that name: the `detachment`'s when two detachments have one of that name (Deathwing Assault) */
  enhancement(name: string, detachment?: string): EnhancementEntry | undefined;
  detachment(name: string): FactionData['detachments'][number] | undefined;
}

/**
 * Detachments the engine plays that the data export does not list, by faction id. Battle Host is the
 * Aeldari index detachment of the seed pages (the export has the codex's Warhost instead).
 */
const EXTRA_DETACHMENTS: Record<string, { name: string; type?: string }[]> = {
  AE: [{ name: 'Battle Host' }],
  TAU: [{ name: 'Starfire Cadre', type: 'Boarding Actions' }],
};

/** The faction's detachments an army may name: the data's, and those the engine plays that the export lacks. */
export function knownDetachments(catalog: FactionCatalog): { name: string; type?: string }[] {
  return [
    ...catalog.data.detachments.map((d) => ({ name: d.name, type: d.type })),
    ...(EXTRA_DETACHMENTS[catalog.faction.id] ?? []).filter((x) => !catalog.detachment(x.name)),
  ];
}

export function catalogFromData(source: FactionData): FactionCatalog {
  // Leaders list the units standing in for their Bodyguards too (CORSAIRS): a fact of the datasheets
  const data: FactionData = { ...source, datasheets: withStandIns(source.datasheets) };
  const byId = new Map(data.datasheets.map((d) => [d.id, d]));
  const byKey = new Map<string, Datasheet[]>();
  for (const d of data.datasheets) {
    const k = lookupKey(d.name);
    let list = byKey.get(k);
    if (!list) byKey.set(k, (list = []));
    list.push(d);
  }
  const legends = (d: Datasheet) => /legends|forge world/i.test(d.source ?? '');
  return {
    faction: data.faction,
    data,
    datasheets: data.datasheets,
    byId: (id) => byId.get(id),
    findAll: (name) => [...(byKey.get(lookupKey(name)) ?? [])],
    byName(name, sourceHint) {
      const all = byKey.get(lookupKey(name));
      if (!all?.length) return undefined;
      const hint = sourceHint ? lookupKey(sourceHint) : '';
      return [...all].sort((a, b) =>
        Number(legends(a)) - Number(legends(b))
        || Number(!!hint && lookupKey(b.source ?? '') === hint) - Number(!!hint && lookupKey(a.source ?? '') === hint)
        || (a.id < b.id ? -1 : 1))[0];
    },
    names: () => [...new Set(data.datasheets.map((d) => d.name))].sort(),
    enhancement(name, detachment) {
      const all = data.enhancements.filter((e) => lookupKey(e.name) === lookupKey(name));
      return (detachment ? all.find((e) => lookupKey(e.detachment) === lookupKey(detachment)) : undefined) ?? all[0];
    },
    detachment: (name) => data.detachments.find((e) => lookupKey(e.name) === lookupKey(name)),
  };
}

/** src/factions, next to this module's folder: the bundled data travels with the code. */
const FACTIONS_DIR = fileURLToPath(new URL('../factions/', import.meta.url));

const cache = new Map<string, FactionCatalog>();

/** Parse and sanity-check a faction file's JSON. */
export function parseFactionData(json: string, file: string): FactionData {
  let data: FactionData;
  try {
    data = JSON.parse(json) as FactionData;
  } catch (e) {
    throw new DataError(`${file}: not valid JSON (${(e as Error).message})`, file);
  }
  if (data?.format !== FACTION_FILE_FORMAT || !Array.isArray(data.datasheets)) {
    throw new DataError(`${file}: expected a faction units file (format "${FACTION_FILE_FORMAT}"), found format ${JSON.stringify(data?.format)}`, file);
  }
  return data;
}

/** The bundled factions (folders of src/factions holding a units.json). */
export function bundledFactions(): FactionData['faction'][] {
  if (!existsSync(FACTIONS_DIR)) return [];
  const out: FactionData['faction'][] = [];
  for (const folder of readdirSync(FACTIONS_DIR).sort()) {
    const file = path.join(FACTIONS_DIR, folder, 'units.json');
    if (existsSync(file)) out.push(loadFile(file).faction);
  }
  return out;
}

function loadFile(file: string): FactionCatalog {
  let c = cache.get(file);
  if (!c) {
    c = catalogFromData(parseFactionData(readFileSync(file, 'utf8'), file));
    cache.set(file, c);
  }
  return c;
}

/** Does `text` name this faction (folder "tau", id "TAU", name "T'au Empire", "Xenos - T'au Empire")? */
export function namesFaction(text: string, f: { id: string; name: string; folder?: string }): boolean {
  const t = lookupKey(text);
  if (!t) return false;
  if (t === lookupKey(f.id) || (f.folder && t === lookupKey(f.folder)) || t === lookupKey(f.name)) return true;
  return ` ${t} `.includes(` ${lookupKey(f.name)} `);
}

/**
 * The faction `text` names among `factions`: one it names exactly first, else the one with the longest name
 * inside it ("Chaos Space Marines" and "Xenos - Chaos Space Marines" are Chaos Space Marines, not the Space
 * Marines whose name they also hold).
 */
export function findFaction<F extends { id: string; name: string; folder?: string }>(text: string, factions: readonly F[]): F | undefined {
  const t = lookupKey(text);
  const exact = factions.find((f) => t === lookupKey(f.id) || (f.folder && t === lookupKey(f.folder)) || t === lookupKey(f.name));
  if (exact) return exact;
  let best: F | undefined;
  for (const f of factions) if (namesFaction(text, f) && (!best || lookupKey(f.name).length > lookupKey(best.name).length)) best = f;
  return best;
}

/**
 * The bundled catalog of a faction: 'tau' | 'aeldari', or its export id ('TAU', 'AE') or name
 * ("T'au Empire"). Throws a DataError listing the bundled factions when there is none.
 */
export function loadFactionCatalog(faction: 'tau' | 'aeldari' | (string & {})): FactionCatalog {
  const direct = path.join(FACTIONS_DIR, faction, 'units.json');
  if (/^[a-z0-9-]+$/.test(faction) && existsSync(direct)) return loadFile(direct);
  const bundled = bundledFactions();
  const hit = findFaction(faction, bundled);
  if (!hit) {
    throw new DataError(`faction ${JSON.stringify(faction)} is not bundled (bundled: ${bundled.map((f) => `${f.name} [${f.folder}]`).join(', ') || 'none'})`);
  }
  return loadFile(path.join(FACTIONS_DIR, hit.folder, 'units.json'));
}

/** Somewhere catalogs come from: the bundled files, or an export directory. */
export interface CatalogSource {
  /** what the source is, for messages */
  label: string;
  factions(): { id: string; name: string }[];
  /** datasheet names of a faction, cheaper than load() (used to guess the faction of a list) */
  unitNames(id: string): string[];
  load(id: string): FactionCatalog;
}

export function bundledSource(): CatalogSource {
  return {
    label: 'bundled data',
    factions: () => bundledFactions(),
    unitNames: (id) => loadFactionCatalog(id).names(),
    load: (id) => loadFactionCatalog(id),
  };
}

/** Catalogs built from a Wahapedia export directory, read once and built per faction on demand. */
export function exportSource(dir: string): CatalogSource {
  const tables = readWahapediaExport(dir);
  const built = new Map<string, FactionCatalog>();
  const factions = tables.Factions.records.map((r) => ({ id: r.fields.id.trim(), name: cleanName(r.fields.name) }));
  return {
    label: `export ${dir}`,
    factions: () => factions,
    unitNames: (id) => tables.Datasheets.records.filter((r) => r.fields.faction_id.trim() === id).map((r) => cleanName(r.fields.name)),
    load(id) {
      let c = built.get(id);
      if (!c) {
        c = catalogFromData(buildFactions(tables, { factions: [id] }).factions[0]);
        built.set(id, c);
      }
      return c;
    },
  };
}
