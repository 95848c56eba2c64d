/**
 * Importer for Wahapedia's 10th-edition CSV export: reads the export directory, checks every file it
 * needs, and builds one FactionData per faction (datasheets, detachments, stratagem and enhancement
 * names). It keeps only facts (no descriptions, no legends) and reports, rather than drops, what it
 * could not parse. Nothing here writes files: the caller writes only after the whole import succeeded.
 */
import { applySeedCorrections, loadoutAliases } from './seed-corrections.ts';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BaseSize, CoreAbility, Datasheet, ModelProfile, Weapon, WeaponProfile, WargearOption } from './datasheet.ts';
import { parsePipeCsv, type CsvRecord, type CsvTable } from './csv.ts';
import { DataError } from './errors.ts';
import { cleanName, lookupKey, normaliseKeyword, normaliseText, titleCaseIfUpper } from './text.ts';
import {
  parseCoreAbility, parseDamaged, parseDice, parseInvulnerable, parseStat, parseTransport, parseWeaponAbilities,
} from './abilities-parse.ts';
import { isHullOnly, parseBaseSize } from './bases.ts';
import { hullByKeywords, knownHull } from './hulls.ts';
import { makeItemResolver, splitCount } from './items.ts';
import { matchProfiles, parseCompositionLine, parseCostLine, parseLoadout } from './composition-parse.ts';
import { parseWargearOption } from './wargear-options-parse.ts';
import { parseJoinsBeside } from './co-leaders.ts';
import {
  FACTION_FILE_FORMAT, factionFolder, type DetachmentEntry, type EnhancementEntry, type FactionData, type StratagemEntry,
} from './faction-data.ts';

/** The export's files and the columns the importer reads from each. */
const FILES = {
  Factions: ['id', 'name'],
  Source: ['id', 'name'],
  Last_update: ['last_update'],
  Datasheets: ['id', 'name', 'faction_id', 'source_id', 'role', 'loadout', 'transport', 'virtual', 'leader_footer', 'damaged_w', 'damaged_description'],
  Datasheets_models: ['datasheet_id', 'line', 'name', 'M', 'T', 'Sv', 'inv_sv', 'inv_sv_descr', 'W', 'Ld', 'OC', 'base_size', 'base_size_descr'],
  Datasheets_wargear: ['datasheet_id', 'line', 'line_in_wargear', 'dice', 'name', 'description', 'range', 'type', 'A', 'BS_WS', 'S', 'AP', 'D'],
  Datasheets_abilities: ['datasheet_id', 'line', 'ability_id', 'model', 'name', 'type', 'parameter'],
  Abilities: ['id', 'name', 'faction_id'],
  Datasheets_keywords: ['datasheet_id', 'keyword', 'model', 'is_faction_keyword'],
  Datasheets_leader: ['leader_id', 'attached_id'],
  Datasheets_models_cost: ['datasheet_id', 'line', 'description', 'cost'],
  Datasheets_unit_composition: ['datasheet_id', 'line', 'description'],
  Datasheets_options: ['datasheet_id', 'line', 'button', 'description'],
  Detachments: ['id', 'faction_id', 'name', 'type'],
  Stratagems: ['faction_id', 'name', 'id', 'type', 'cp_cost', 'turn', 'phase', 'detachment', 'detachment_id'],
  Enhancements: ['faction_id', 'id', 'name', 'cost', 'detachment', 'detachment_id'],
  Datasheets_enhancements: ['datasheet_id', 'enhancement_id'],
} as const;

type FileName = keyof typeof FILES;
export type ExportTables = Record<FileName, CsvTable>;

/** Read and check every file the importer needs. Throws DataError naming the file (and line). */
export function readWahapediaExport(dir: string): ExportTables {
  if (!existsSync(dir)) throw new DataError(`${dir}: export directory not found`, dir);
  if (!statSync(dir).isDirectory()) throw new DataError(`${dir}: is not a directory (expected the export's directory of .csv files)`, dir);
  const out = {} as ExportTables;
  for (const [name, columns] of Object.entries(FILES) as [FileName, readonly string[]][]) {
    const file = path.join(dir, `${name}.csv`);
    if (!existsSync(file)) throw new DataError(`${file}: missing file (the export must contain ${name}.csv)`, file);
    out[name] = parsePipeCsv(readExportFile(file), file, columns);
  }
  return out;
}

/** One export file's text; a directory in its place, or a file the system will not read, is a DataError naming it. */
function readExportFile(file: string): string {
  if (statSync(file).isDirectory()) throw new DataError(`${file}: cannot read: it is a directory, not a .csv file`, file);
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new DataError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, file);
  }
}

/**
 * Where a value sits in the export, for the report: "Datasheets_models.csv line 123, column T". Bad values
 * are reported, not errors: the export has "5*", "2D6" or "N/A" here and there, which must not block an import.
 */
function cellAt(file: string, r: CsvRecord, column: string): string {
  return `${path.basename(file)} line ${r.line}, column ${column}`;
}

/** The report line for a value that is not what its column holds: "<cell>: "five" is not a number (written as 0)". */
function badValue(file: string, r: CsvRecord, column: string, expected: string, written: string): string {
  return `${cellAt(file, r, column)}: ${JSON.stringify(r.fields[column])} is not ${expected} (written as ${written})`;
}

// ---------------------------------------------------------------------------------------------
// Report of what could not be parsed

export interface ImportProblem {
  faction: string;
  datasheet: string;
  what: string;
}

export interface ImportReport {
  /** weapon ability words the engine does not play, with how many profiles use them */
  unknownWeaponAbilities: Record<string, number>;
  unparsedWargearOptions: ImportProblem[];
  unknownBaseSizes: ImportProblem[];
  /** hulls sized by keyword because the model is not in the hull table */
  estimatedHulls: ImportProblem[];
  /**
   * everything else: characteristics and costs (each naming its file, line and column), composition, loadout,
   * option items that are no weapon nor wargear ability, transport, damaged profiles
   */
  problems: ImportProblem[];
  /** rows skipped on purpose, by reason */
  skipped: Record<string, number>;
  /** profiles played as the rules' seed pages give them, not as the export does (./seed-corrections.ts) */
  seedCorrections: ImportProblem[];
}

function emptyReport(): ImportReport {
  return { unknownWeaponAbilities: {}, unparsedWargearOptions: [], unknownBaseSizes: [], estimatedHulls: [], problems: [], skipped: {}, seedCorrections: [] };
}

export function formatImportReport(r: ImportReport): string {
  const lines: string[] = [];
  const words = Object.entries(r.unknownWeaponAbilities).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  lines.push(`Unknown weapon ability words (${words.length}): ${words.length ? words.map(([w, n]) => `${w} x${n}`).join(', ') : 'none'}`);
  const list = (title: string, items: ImportProblem[]) => {
    lines.push(`${title} (${items.length})${items.length ? ':' : ''}`);
    for (const p of items) lines.push(`  ${p.faction} ${p.datasheet}: ${p.what}`);
  };
  list('Unparsed wargear options', r.unparsedWargearOptions);
  list('Unknown base sizes', r.unknownBaseSizes);
  list('Hulls sized by keyword (not in src/data/hulls.ts)', r.estimatedHulls);
  list('Other unparsed data', r.problems);
  list('Played from the seed pages, not the export', r.seedCorrections);
  const skipped = Object.entries(r.skipped).sort();
  if (skipped.length) lines.push(`Skipped on purpose: ${skipped.map(([k, n]) => `${n} ${k}`).join('; ')}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Import

export interface ImportOptions {
  /** export faction ids (TAU, AE...); 'all' or empty for every faction */
  factions?: string[];
}

export interface ImportResult {
  factions: FactionData[];
  report: ImportReport;
}

export function importWahapedia(dir: string, options: ImportOptions = {}): ImportResult {
  return buildFactions(readWahapediaExport(dir), options);
}

/** Group a table's records by one column, keeping file order. */
function groupBy(t: CsvTable, column: string): Map<string, CsvRecord[]> {
  const m = new Map<string, CsvRecord[]>();
  for (const r of t.records) {
    const k = r.fields[column].trim();
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(r);
  }
  return m;
}

const byLine = (a: CsvRecord, b: CsvRecord) => Number(a.fields.line) - Number(b.fields.line) || a.line - b.line;

export function buildFactions(t: ExportTables, options: ImportOptions = {}): ImportResult {
  const report = emptyReport();
  const skip = (why: string, n = 1) => { report.skipped[why] = (report.skipped[why] ?? 0) + n; };

  const factionRows = t.Factions.records.map((r) => ({ id: r.fields.id.trim(), name: cleanName(r.fields.name) }));
  const known = new Map(factionRows.map((f) => [f.id.toUpperCase(), f]));
  const wanted = (options.factions ?? []).filter((f) => f.toLowerCase() !== 'all');
  for (const f of wanted) {
    if (!known.has(f.toUpperCase())) {
      throw new DataError(`${t.Factions.file}: no faction with id ${f} (known: ${factionRows.map((x) => x.id).sort().join(', ')})`, t.Factions.file);
    }
  }
  // ids are case-blind: TAU and tau are one faction, imported once
  const selected = wanted.length ? [...new Set(wanted.map((f) => known.get(f.toUpperCase())!))] : factionRows;
  const factionNameKeywords = new Set(factionRows.map((f) => normaliseKeyword(f.name)));

  const sources = new Map(t.Source.records.map((r) => [r.fields.id.trim(), cleanName(r.fields.name)]));
  const abilityNames = new Map<string, string>();
  for (const r of t.Abilities.records) if (!abilityNames.has(r.fields.id.trim())) abilityNames.set(r.fields.id.trim(), cleanName(r.fields.name));
  const models = groupBy(t.Datasheets_models, 'datasheet_id');
  const wargear = groupBy(t.Datasheets_wargear, 'datasheet_id');
  const abilities = groupBy(t.Datasheets_abilities, 'datasheet_id');
  const keywords = groupBy(t.Datasheets_keywords, 'datasheet_id');
  const leaders = groupBy(t.Datasheets_leader, 'leader_id');
  const costs = groupBy(t.Datasheets_models_cost, 'datasheet_id');
  const composition = groupBy(t.Datasheets_unit_composition, 'datasheet_id');
  const optionRows = groupBy(t.Datasheets_options, 'datasheet_id');
  const enhancementSheets = groupBy(t.Datasheets_enhancements, 'enhancement_id');
  const lastUpdate = normaliseText(t.Last_update.records[0]?.fields.last_update ?? '');

  const factions: FactionData[] = [];
  for (const f of selected) {
    const rows = t.Datasheets.records.filter((r) => r.fields.faction_id.trim() === f.id);
    const ctx: SheetContext = {
      faction: f.id, report, skip, sources, abilityNames, factionNameKeywords,
      models, wargear, abilities, keywords, leaders, costs, composition, options: optionRows,
      modelsFile: t.Datasheets_models.file, wargearFile: t.Datasheets_wargear.file, costsFile: t.Datasheets_models_cost.file,
      vocabulary: keywordVocabulary(rows, keywords, factionNameKeywords),
    };
    const datasheets: Datasheet[] = [];
    for (const row of rows) {
      if (row.fields.virtual.trim() === 'true') { skip('virtual datasheets'); continue; }
      datasheets.push(buildDatasheet(row, ctx));
    }
    datasheets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const c of applySeedCorrections(f.id, datasheets)) report.seedCorrections.push({ faction: f.id, ...c });

    const detachments: DetachmentEntry[] = t.Detachments.records
      .filter((r) => r.fields.faction_id.trim() === f.id)
      .map((r) => {
        const d: DetachmentEntry = { id: r.fields.id.trim(), name: cleanName(r.fields.name) };
        const type = cleanName(r.fields.type);
        if (type) d.type = type;
        return d;
      })
      .sort((a, b) => cmp(a.id, b.id));
    const stratagems: StratagemEntry[] = t.Stratagems.records
      .filter((r) => r.fields.faction_id.trim() === f.id)
      .map((r) => {
        const type = cleanName(r.fields.type);
        const cpText = r.fields.cp_cost.trim();
        const cp = /^\d+$/.test(cpText) ? Number(cpText) : null;
        // null says "the export gives none": an unreadable cost is that too, but reported
        if (cp === null && cpText) report.problems.push({ faction: f.id, datasheet: cleanName(r.fields.name), what: badValue(t.Stratagems.file, r, 'cp_cost', 'a number', 'null') });
        return {
          id: r.fields.id.trim(),
          name: cleanName(r.fields.name),
          cp,
          type: (type.includes(' – ') ? type.slice(type.lastIndexOf(' – ') + 3) : type).replace(/\s*Stratagem$/i, ''),
          turn: cleanName(r.fields.turn),
          phase: cleanName(r.fields.phase),
          detachment: cleanName(r.fields.detachment),
          detachmentId: r.fields.detachment_id.trim(),
        };
      })
      .sort((a, b) => cmp(a.id, b.id));
    const enhancements: EnhancementEntry[] = t.Enhancements.records
      .filter((r) => r.fields.faction_id.trim() === f.id)
      .map((r) => {
        const cost = Number(r.fields.cost.trim());
        if (!Number.isFinite(cost)) report.problems.push({ faction: f.id, datasheet: cleanName(r.fields.name), what: badValue(t.Enhancements.file, r, 'cost', 'a number', '0') });
        const id = r.fields.id.trim();
        return {
          id,
          name: cleanName(r.fields.name),
          cost: Number.isFinite(cost) ? cost : 0,
          detachment: cleanName(r.fields.detachment),
          detachmentId: r.fields.detachment_id.trim(),
          datasheets: [...new Set((enhancementSheets.get(id) ?? []).map((x) => x.fields.datasheet_id.trim()))].sort(),
        };
      })
      .sort((a, b) => cmp(a.id, b.id));

    factions.push({
      format: FACTION_FILE_FORMAT,
      faction: { id: f.id, name: f.name, folder: factionFolder(f.id, f.name) },
      source: { name: 'Wahapedia Warhammer 40,000 10th edition data export', lastUpdate },
      datasheets, detachments, stratagems, enhancements,
    });
  }
  return { factions, report };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface SheetContext {
  faction: string;
  report: ImportReport;
  skip: (why: string, n?: number) => void;
  sources: Map<string, string>;
  abilityNames: Map<string, string>;
  factionNameKeywords: Set<string>;
  models: Map<string, CsvRecord[]>;
  wargear: Map<string, CsvRecord[]>;
  abilities: Map<string, CsvRecord[]>;
  keywords: Map<string, CsvRecord[]>;
  leaders: Map<string, CsvRecord[]>;
  costs: Map<string, CsvRecord[]>;
  composition: Map<string, CsvRecord[]>;
  options: Map<string, CsvRecord[]>;
  /** the files of `models` and `wargear` rows, for naming a bad value's place in the report */
  modelsFile: string;
  wargearFile: string;
  costsFile: string;
  /** every keyword of the faction, for splitting "T’au Empire Infantry" into keywords */
  vocabulary: Set<string>;
}

function keywordVocabulary(rows: CsvRecord[], keywords: Map<string, CsvRecord[]>, extra: Set<string>): Set<string> {
  const v = new Set(extra);
  for (const r of rows) for (const k of keywords.get(r.fields.id.trim()) ?? []) if (k.fields.keyword.trim()) v.add(normaliseKeyword(k.fields.keyword));
  return v;
}

/** Greedy longest match of known keywords: "T'au Empire Infantry" -> ["T'AU EMPIRE", "INFANTRY"]. */
function splitKeywords(words: string, vocabulary: Set<string>): string[] {
  const parts = normaliseKeyword(words).split(' ');
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    let j = parts.length;
    while (j > i + 1 && !vocabulary.has(parts.slice(i, j).join(' '))) j--;
    out.push(parts.slice(i, j).join(' '));
    i = j;
  }
  return out;
}

function buildDatasheet(row: CsvRecord, ctx: SheetContext): Datasheet {
  const id = row.fields.id.trim();
  const name = cleanName(row.fields.name);
  const problem = (what: string) => ctx.report.problems.push({ faction: ctx.faction, datasheet: name, what });

  // keywords, with the faction's own name counted as a faction keyword (the export files AELDARI as
  // an ordinary keyword on Aeldari datasheets and leaves an empty faction keyword row)
  const unitKeywords = new Set<string>();
  const factionKeywords = new Set<string>();
  const perModel = new Map<string, Set<string>>();
  for (const k of ctx.keywords.get(id) ?? []) {
    const kw = normaliseKeyword(k.fields.keyword);
    if (!kw) { ctx.skip('empty keyword rows'); continue; }
    const model = cleanName(k.fields.model);
    if (k.fields.is_faction_keyword.trim() === 'true' || ctx.factionNameKeywords.has(kw)) factionKeywords.add(kw);
    else if (model && model.toUpperCase() !== 'ALL MODELS') {
      let s = perModel.get(model);
      if (!s) perModel.set(model, (s = new Set()));
      s.add(kw);
    } else unitKeywords.add(kw);
  }
  const keywordList = [...unitKeywords].sort();
  const allKeywords = [...new Set([...keywordList, ...[...perModel.values()].flatMap((s) => [...s])])];

  // unit composition (the names army lists use)
  const comp: Datasheet['composition'] = [];
  let maxModels: number | undefined;
  for (const r of (ctx.composition.get(id) ?? []).sort(byLine)) {
    const c = parseCompositionLine(r.fields.description);
    if (!c) problem(`unit composition line not understood: ${cleanName(r.fields.description).slice(0, 80)}`);
    else if (c.kind === 'max-models') maxModels = c.max;
    else comp.push({ profile: c.name, min: c.min, max: c.max });
  }

  // model profiles (characteristics)
  const modelRows = (ctx.models.get(id) ?? []).sort(byLine);
  const profiles: ModelProfile[] = [];
  const baseNotes: string[] = [];
  for (const r of modelRows) {
    const f = r.fields;
    const raw = cleanName(f.name) || name;
    const mName = compositionCasing(raw, comp.map((c) => c.profile));
    const what = (s: string) => problem(`model ${mName}: ${s}`);
    const move = /^(\d+)\s*(\+)?\s*"?$/.exec(normaliseText(f.M));
    if (!move && normaliseText(f.M) !== '-') problem(badValue(ctx.modelsFile, r, 'M', 'a distance in inches', '0'));
    const num = (column: 'T' | 'Sv' | 'W' | 'Ld' | 'OC', dflt: number) => {
      const v = parseStat(f[column]);
      if (v === null && normaliseText(f[column]) !== '-') problem(badValue(ctx.modelsFile, r, column, 'a number', String(dflt)));
      return v ?? dflt;
    };
    const inv = parseInvulnerable(f.inv_sv, f.inv_sv_descr);
    if (inv.problem) what(inv.problem);
    const p: ModelProfile = {
      name: mName,
      move: move ? Number(move[1]) : 0,
      toughness: num('T', 0),
      save: num('Sv', 7),
      invulnerable: inv.invulnerable,
      wounds: num('W', 0),
      leadership: num('Ld', 7),
      oc: num('OC', 0),
      base: { shape: 'round', diameterMm: 0 },
    };
    if (move?.[2]) p.minimumMove = Number(move[1]);
    if (inv.rangedOnly) p.invulnerableRangedOnly = true;
    if (inv.melee) p.invulnerableMelee = inv.melee;
    p.base = modelBase(f.base_size, p.name, name, allKeywords, ctx, (hull) => { p.hull = hull; });
    if (cleanName(f.base_size_descr)) baseNotes.push(cleanName(f.base_size_descr));
    profiles.push(p);
  }
  if (!profiles.length) problem('no model profile');
  if (!comp.length) for (const p of profiles) comp.push({ profile: p.name, min: 1, max: 1 });
  for (const c of comp) c.statsProfile = statsProfileFor(c.profile, profiles.map((p) => p.name));
  for (const note of baseNotes) {
    // "Kill-broker 32mm": a different base for one model of the unit
    const m = /^(.+?)\s+(\d[\d.]*\s*(?:x\s*[\d.]+\s*)?mm.*)$/i.exec(note);
    const base = m ? parseBaseSize(m[2]) : null;
    const target = m ? comp.find((c) => lookupKey(c.profile).includes(lookupKey(m[1]))) : undefined;
    if (base && target) target.base = base;
    else ctx.report.unknownBaseSizes.push({ faction: ctx.faction, datasheet: name, what: `base note not understood: ${note}` });
  }

  // weapons: a row whose line_in_wargear is above 1 is another profile of the weapon before it
  const weapons: Weapon[] = [];
  const wRows = (ctx.wargear.get(id) ?? []).sort((a, b) => byLine(a, b) || Number(a.fields.line_in_wargear) - Number(b.fields.line_in_wargear));
  for (const r of wRows) {
    const f = r.fields;
    const pName = cleanName(f.name);
    if (!pName) { ctx.skip('wargear rows without a name'); continue; }
    const profile = weaponProfile(r, ctx, problem);
    const inWargear = Number(f.line_in_wargear.trim() || '1');
    const prev = weapons[weapons.length - 1];
    if (inWargear > 1 && prev) prev.profiles.push(profile);
    else weapons.push({ name: pName, profiles: [profile] });
  }
  for (const w of weapons) {
    if (w.profiles.length > 1) w.name = w.profiles[0].name.split(' – ')[0].trim();
  }
  // a weapon with a ranged and a melee profile is listed twice under one name (Singing spear): one Weapon
  for (let i = weapons.length - 1; i > 0; i--) {
    const first = weapons.findIndex((w) => w.name === weapons[i].name);
    if (first < i) {
      weapons[first].profiles.push(...weapons[i].profiles);
      weapons.splice(i, 1);
    }
  }

  // abilities
  const coreAbilities: CoreAbility[] = [];
  const abilityList: string[] = [];
  const wargearAbilities: string[] = [];
  for (const r of (ctx.abilities.get(id) ?? []).sort(byLine)) {
    const f = r.fields;
    const type = f.type.trim();
    const aName = cleanName(f.name) || ctx.abilityNames.get(f.ability_id.trim()) || '';
    if (!aName) { problem(`ability row ${f.line} has neither a name nor a known ability id`); continue; }
    if (type === 'Core') {
      const c = parseCoreAbility(aName, f.parameter);
      if (c.problem) problem(c.problem);
      coreAbilities.push(c.ability);
    } else if (type === 'Wargear') {
      if (!wargearAbilities.includes(aName)) wargearAbilities.push(aName);
    } else if (type === 'Wargear profile') {
      ctx.skip('weapon ability reminders ("Wargear profile" abilities)');
    } else if (!abilityList.includes(aName)) {
      abilityList.push(aName);
    }
  }

  // loadout and options
  const compProfiles = comp.map((c) => c.profile);
  const misspelt = new Map<string, string>();
  const byWords = makeItemResolver(weapons, wargearAbilities, (text, weapon) => misspelt.set(text, weapon));
  const aliases = loadoutAliases(ctx.faction, name);
  const resolve = aliases.size === 0 ? byWords : (text: string) => {
    const weapon = aliases.get(cleanName(text).toLowerCase());
    return weapon ? { name: weapon, kind: 'weapon' as const } : byWords(text);
  };
  const lo = parseLoadout(row.fields.loadout, compProfiles, resolve);
  for (const p of lo.problems) problem(p);
  const wargearNames = new Set(lo.wargear);
  const wargearOptions: WargearOption[] = [];
  const unknownItems = new Set<string>();
  const optionRows = (ctx.options.get(id) ?? []).sort(byLine);
  // the footnote "* This model cannot have duplicates of these pieces of wargear": the items its options star
  const starredOnce = optionRows.some((r) => r.fields.button.trim() === '*' && /cannot have duplicates/i.test(cleanName(r.fields.description)));
  const noDuplicates = new Set<string>();
  const exclusiveOnModel: string[][] = [];
  let maxRangedWeaponsPerModel: number | undefined;
  // "* You cannot select the same option more than once per unit unless it contains N models, in which case ...
  // more than twice per unit": N, for the option the footnote stars ("one of the following*:")
  const perUnitOnce = /cannot select the same (?:option|weapon) more than once per unit,? unless (?:it|this unit) contains (\d+) models, in which case you cannot select the same (?:option|weapon) more than twice\s+per unit/i;
  const twiceFrom = optionRows.map((r) => (r.fields.button.trim() === '*' ? perUnitOnce.exec(cleanName(r.fields.description)) : null)).find((m) => m);
  for (const r of optionRows) {
    if (r.fields.button.trim() === '*') {
      const note = cleanName(r.fields.description);
      let m: RegExpExecArray | null;
      if ((m = /no model can be equipped with both (?:an? )?(.+?) and (?:an? )?(.+?)(?: at the same time)?\.?$/i.exec(note))) {
        exclusiveOnModel.push([resolve(m[1]).name, resolve(m[2]).name]);
      } else if ((m = /each model cannot be equipped with more than (\d+) ranged weapons/i.exec(note))) {
        maxRangedWeaponsPerModel = Number(m[1]);
      } else if (!perUnitOnce.test(note) && !/cannot have duplicates/i.test(note)) {
        ctx.skip('wargear option footnotes (constraints, not structured)');
      }
      continue;
    }
    if (starredOnce) for (const m of r.fields.description.matchAll(/<li>([^<]*?)\*+\s*<\/li>/gi)) noDuplicates.add(resolve(splitCount(m[1]).text).name);
    const o = parseWargearOption(r.fields.description, compProfiles, resolve);
    if (!o.option) continue;
    if (o.option.unparsed) ctx.report.unparsedWargearOptions.push({ faction: ctx.faction, datasheet: name, what: o.text });
    for (const n of [...o.option.with, ...o.option.replace]) {
      const kind = resolve(n).kind;
      if (kind === 'wargear') wargearNames.add(n);
      else if (kind === 'unknown') unknownItems.add(n);
    }
    if (twiceFrom && /\*\s*:?\s*$/.test(r.fields.description.split(/<ul/i)[0])) { o.option.distinct = true; o.option.twiceFromModels = Number(twiceFrom[1]); }
    wargearOptions.push(o.option);
  }
  for (const [text, weapon] of misspelt) problem(`"${text}" in its loadout or wargear options is not a weapon of the datasheet: read as ${weapon} (a misspelling)`);
  reportUnknownOptionItems([...unknownItems], wargearNames, problem);

  // points
  const sizes: Datasheet['sizes'] = [];
  const extraCosts: NonNullable<Datasheet['extraCosts']> = [];
  for (const r of (ctx.costs.get(id) ?? []).sort(byLine)) {
    const c = parseCostLine(r.fields.description, r.fields.cost);
    // not read: the datasheet has no size of it, and a unit of that many models is said not to be one of its sizes
    if (!c) problem(`${cellAt(ctx.costsFile, r, 'cost')}: points line not understood: ${cleanName(r.fields.description)} = ${cleanName(r.fields.cost)} (left out of the sizes)`);
    else if (c.kind === 'size') sizes.push({ models: c.models, points: c.points });
    else extraCosts.push({ profile: c.profile, points: c.points });
  }
  sizes.sort((a, b) => a.models - b.models || a.points - b.points);

  const transportText = row.fields.transport;
  const tr = parseTransport(transportText, (w) => splitKeywords(w, ctx.vocabulary));
  if (tr?.problem) problem(`transport: ${tr.problem}`);
  const strange = tr ? transportKeywords(tr.transport).filter((k) => !ctx.vocabulary.has(k)) : [];
  if (strange.length) problem(`transport: ${strange.join(', ')} ${strange.length > 1 ? 'are not keywords' : 'is not a keyword'} of any ${ctx.faction} datasheet`);
  const dmg = parseDamaged(row.fields.damaged_w, row.fields.damaged_description);
  if (dmg?.problem) problem(`damaged profile: ${dmg.problem}`);
  if (!dmg && cleanName(row.fields.damaged_w)) problem(`damaged range ${JSON.stringify(row.fields.damaged_w)} not understood`);

  const ds: Datasheet = {
    id,
    name,
    faction: ctx.faction,
    role: cleanName(row.fields.role),
    models: profiles,
    composition: comp,
    sizes,
    weapons,
    defaultLoadout: lo.loadout,
    wargearOptions,
    keywords: keywordList,
    factionKeywords: [...factionKeywords].sort(),
    coreAbilities,
    abilities: abilityList,
    leads: [...new Set((ctx.leaders.get(id) ?? []).map((r) => r.fields.attached_id.trim()))].sort(),
    transport: tr?.transport ?? null,
    damaged: dmg?.damaged ?? null,
  };
  const beside = parseJoinsBeside(cleanName(row.fields.leader_footer));
  if (beside) ds.joinsBeside = beside;
  if (maxModels !== undefined) ds.maxModels = maxModels;
  if (extraCosts.length) ds.extraCosts = extraCosts;
  const source = ctx.sources.get(row.fields.source_id.trim());
  if (source) ds.source = source;
  if (wargearNames.size) ds.wargear = [...wargearNames].sort();
  if (wargearAbilities.length) ds.wargearAbilities = wargearAbilities;
  if (noDuplicates.size) ds.noDuplicates = [...noDuplicates].sort();
  if (exclusiveOnModel.length) ds.exclusiveOnModel = exclusiveOnModel;
  if (maxRangedWeaponsPerModel !== undefined) ds.maxRangedWeaponsPerModel = maxRangedWeaponsPerModel;
  if (perModel.size) {
    ds.modelKeywords = {};
    for (const [model, kws] of [...perModel].sort((a, b) => cmp(a[0], b[0]))) {
      const target = matchProfiles(model, compProfiles)[0] ?? compProfiles.find((p) => lookupKey(p).includes(lookupKey(model))) ?? titleCaseIfUpper(model);
      ds.modelKeywords[target] = [...kws].sort();
    }
  }
  return ds;
}

/** Every keyword a transport's fields name (who may embark, who may not, who takes more room), each once. */
function transportKeywords(t: NonNullable<Datasheet['transport']>): string[] {
  return [...new Set([...t.keywords, ...t.excludedKeywords, ...(t.excludedExceptions ?? []), ...(t.modelSpace ?? []).map((s) => s.keyword)])];
}

/**
 * Option items that are neither a weapon nor a wargear ability of the datasheet (a misspelt weapon was read as
 * the weapon), reported (one line per datasheet) and kept as wargear: wargear the data gives no rule (a Gun
 * drone), which army lists name.
 */
function reportUnknownOptionItems(items: string[], wargear: Set<string>, problem: (what: string) => void): void {
  for (const n of items) wargear.add(n);
  if (items.length) problem(`wargear option item${items.length > 1 ? 's' : ''} ${items.map((n) => `"${n}"`).join(', ')}: neither a weapon nor a wargear ability of the datasheet (listed as wargear)`);
}

/** "GUARDIAN DEFENDER" -> "Guardian Defender", using the composition's spelling when it matches. */
function compositionCasing(raw: string, comp: string[]): string {
  if (/[a-z]/.test(raw)) return raw;
  const k = lookupKey(raw);
  for (const c of comp) {
    const ck = lookupKey(c);
    if (ck === k) return c;
    if (ck === `${k}s` && c.length === raw.length + 1) return c.slice(0, -1);
  }
  return titleCaseIfUpper(raw);
}

/** The characteristics profile for a composition entry: same name (singular/plural), best word overlap, or the only one. */
function statsProfileFor(profile: string, statNames: string[]): string | undefined {
  if (statNames.length <= 1) return statNames[0];
  const exact = matchProfiles(profile, statNames);
  if (exact.length) return exact[0];
  const words = (s: string) => new Set(lookupKey(s).split(' ').map((w) => w.replace(/s$/, '')));
  const pw = words(profile);
  let best = statNames[0];
  let bestScore = -1;
  for (const s of statNames) {
    const score = [...words(s)].filter((w) => pw.has(w)).length;
    if (score > bestScore) { best = s; bestScore = score; }
  }
  return best;
}

function modelBase(text: string, model: string, sheet: string, keywords: string[], ctx: SheetContext, setHull: (h: { lengthMm: number; widthMm: number }) => void): BaseSize {
  const base = parseBaseSize(text);
  const estimated = (why: string) => {
    const hull = hullByKeywords(keywords);
    ctx.report.estimatedHulls.push({ faction: ctx.faction, datasheet: sheet, what: `${model}: ${why}, ${hull.lengthMm} x ${hull.widthMm} mm by keyword` });
    return hull;
  };
  if (base) {
    // vehicles whose body overhangs the base: those in the table, and any on a flying stand
    const known = keywords.includes('VEHICLE') ? knownHull(model, sheet) : null;
    if (known) setHull(known);
    else if ('flying' in base && base.flying && keywords.includes('VEHICLE')) setHull(estimated('vehicle on a flying base'));
    return base;
  }
  if (!isHullOnly(text)) ctx.report.unknownBaseSizes.push({ faction: ctx.faction, datasheet: sheet, what: `${model}: base ${JSON.stringify(cleanName(text))}` });
  const hull = knownHull(model, sheet) ?? estimated(isHullOnly(text) ? 'no base ("Use model")' : 'unknown base');
  return { shape: 'hull', lengthMm: hull.lengthMm, widthMm: hull.widthMm };
}

function weaponProfile(r: CsvRecord, ctx: SheetContext, problem: (s: string) => void): WeaponProfile {
  const f = r.fields;
  const bad = (column: string, expected: string, written: string) => problem(badValue(ctx.wargearFile, r, column, expected, written));
  const melee = f.type.trim() === 'Melee' || /^melee$/i.test(f.range.trim());
  const rangeN = parseStat(f.range);
  if (!melee && rangeN === null) bad('range', 'a distance in inches', '0');
  const dice = (column: 'A' | 'D') => {
    const d = parseDice(f[column]);
    if (!d) bad(column, 'a number or dice expression', '0');
    return d ?? { n: 0, sides: 0, plus: 0 };
  };
  const skillText = normaliseText(f.BS_WS);
  const skill = /^n\/a$|^-$/i.test(skillText) ? 0 : parseStat(skillText);
  if (skill === null) bad('BS_WS', 'a number', '0');
  const strength = parseStat(f.S);
  if (strength === null) bad('S', 'a number', '0');
  const apText = normaliseText(f.AP);
  const ap = /^-?\d+$/.test(apText) ? -Math.abs(Number(apText)) : apText === '-' ? 0 : null;
  if (ap === null) bad('AP', 'a number', '0');
  const ab = parseWeaponAbilities(f.description);
  for (const u of ab.unknown) ctx.report.unknownWeaponAbilities[u] = (ctx.report.unknownWeaponAbilities[u] ?? 0) + 1;
  const p: WeaponProfile = {
    name: cleanName(f.name),
    range: melee ? 'Melee' : rangeN ?? 0,
    attacks: dice('A'),
    skill: skill ?? 0,
    strength: strength ?? 0,
    ap: ap === 0 ? 0 : ap ?? 0,
    damage: dice('D'),
    abilities: ab.abilities,
  };
  const roll = normaliseText(f.dice);
  if (roll) p.roll = roll;
  return p;
}
