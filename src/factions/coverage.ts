/**
 * Rules coverage: what of a faction's data the engine plays. For each datasheet, its abilities (core,
 * faction and its own) and the abilities of the weapons it carries by default; for each detachment, its
 * rules, stratagems and enhancements; each fully played, partly played (an entry's `missing`, or parts
 * of it that have no entry) or not played at all. The answers come from the registries (rules, weapon
 * abilities, stratagems, factions), so the report cannot drift from the engine.
 *
 * Pure functions of the data handed in: the command (./commands.ts) loads the catalogs and armies, and
 * the registries must be loaded by the caller (src/rules/index.ts, src/factions/index.ts).
 */
import { allRules, getRule } from '../core/rules-registry.ts';
import type { GameState } from '../core/state.ts';
import type { Datasheet } from '../data/datasheet.ts';
import type { FactionData } from '../data/faction-data.ts';
import { loadFactionCatalog } from '../data/catalog.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { lookupKey } from '../data/text.ts';
import { ARMY_BUILDING_ABILITY_NAMES } from '../data/muster-checks.ts';
import { factionRules } from '../rules/factions.ts';
import { allStratagems } from '../rules/stratagems/registry.ts';
import { getWeaponAbility } from '../rules/weapon-abilities.ts';

export type PlayStatus = 'played' | 'partly' | 'not played';

export interface RuleCoverage {
  name: string;
  status: PlayStatus;
  /** what is not played: the entry's `missing`, or why it is not played at all */
  missing?: string;
}

export interface DatasheetCoverage {
  id: string;
  name: string;
  status: PlayStatus;
  /** core, faction and datasheet abilities: every unit of the datasheet has them */
  abilities: RuleCoverage[];
  /** abilities of the weapons of the default loadout */
  weaponAbilities: RuleCoverage[];
  /** wargear abilities and abilities of optional weapons, only played when a unit carries them (not counted in `status`) */
  options: RuleCoverage[];
  /** used by a bundled army */
  inArmies: boolean;
}

export interface DetachmentCoverage {
  name: string;
  status: PlayStatus;
  /** the data has it (Battle Host is played from the seed; the export no longer has it) */
  inData: boolean;
  /** the engine has it registered (src/rules/factions.ts) */
  registered: boolean;
  boardingActions: boolean;
  rules: RuleCoverage[];
  stratagems: RuleCoverage[];
  enhancements: RuleCoverage[];
}

export interface FactionCoverage {
  id: string;
  name: string;
  armyRules: RuleCoverage[];
  datasheets: DatasheetCoverage[];
  detachments: DetachmentCoverage[];
  /** stratagems of the army rule (the export lists them under "Army Rules") */
  armyRuleStratagems: RuleCoverage[];
}

/** Status of one rule name in the rule registry. */
export function ruleCoverage(name: string): RuleCoverage {
  const r = getRule(name);
  // army-building abilities are checked when an army is read (src/data/muster-checks.ts), not played
  if (!r && ARMY_BUILDING_ABILITY_NAMES.includes(name)) return { name, status: 'played' };
  if (!r) return { name, status: 'not played', missing: 'no rule entry' };
  return r.missing ? { name, status: 'partly', missing: r.missing } : { name, status: 'played' };
}

/** Status of a weapon ability (by its registry name: ANTI, SUSTAINED HITS...). */
export function weaponAbilityCoverage(name: string): RuleCoverage {
  return getWeaponAbility(name) ? { name, status: 'played' } : { name, status: 'not played', missing: 'unknown weapon ability' };
}

/** Overall status of several parts: played when all are, not played when none is even partly. */
export function combine(parts: readonly RuleCoverage[]): PlayStatus {
  if (parts.every((p) => p.status === 'played')) return 'played';
  if (parts.every((p) => p.status === 'not played')) return 'not played';
  return 'partly';
}

function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => (seen.has(key(t)) ? false : (seen.add(key(t)), true)));
}

/**
 * The abilities every unit of a datasheet has (core first, then faction and its own), by registry name, and
 * the core rules its keywords bring (an entry of kind 'keyword-rules' named by the keyword: AIRCRAFT).
 */
export function datasheetAbilityNames(ds: Datasheet): string[] {
  return uniqueBy([...ds.coreAbilities.map((a) => a.name), ...ds.abilities, ...keywordRuleNames(ds.keywords)], (n) => n);
}

function keywordRuleNames(keywords: readonly string[]): string[] {
  return keywords.filter((k) => getRule(k)?.kind === 'keyword-rules');
}

function weaponAbilityNames(ds: Datasheet, weapons: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const w of ds.weapons) {
    if (!weapons(w.name)) continue;
    for (const p of w.profiles) for (const a of p.abilities) if (!out.includes(a.name)) out.push(a.name);
  }
  return out;
}

export function datasheetCoverage(ds: Datasheet, inArmies = false): DatasheetCoverage {
  const defaults = new Set(Object.values(ds.defaultLoadout).flat());
  const abilities = datasheetAbilityNames(ds).map(ruleCoverage);
  const weaponAbilities = weaponAbilityNames(ds, (w) => defaults.has(w)).map(weaponAbilityCoverage);
  const optional = weaponAbilityNames(ds, (w) => !defaults.has(w)).filter((n) => !weaponAbilities.some((x) => x.name === n)).map(weaponAbilityCoverage);
  const options = [...(ds.wargearAbilities ?? []).map(ruleCoverage), ...optional];
  const all = [...abilities, ...weaponAbilities];
  return { id: ds.id, name: ds.name, status: all.length ? combine(all) : 'played', abilities, weaponAbilities, options, inArmies };
}

function stratagemCoverage(source: string, name: string): RuleCoverage {
  const s = allStratagems().find((x) => x.source === source && lookupKey(x.name) === lookupKey(name));
  if (!s) return { name, status: 'not played', missing: 'no stratagem entry' };
  return s.missing ? { name, status: 'partly', missing: s.missing } : { name, status: 'played' };
}

/**
 * Coverage of one faction's data. `armyDatasheets`: ids of the datasheets the bundled armies use.
 * Detachments the engine registers that the data lacks (Battle Host) are listed too.
 */
export function factionCoverage(data: FactionData, armyDatasheets: ReadonlySet<string> = new Set()): FactionCoverage {
  const registered = factionRules(data.faction.id);
  const datasheets = data.datasheets.map((d) => datasheetCoverage(d, armyDatasheets.has(d.id))).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const names = uniqueBy([...data.detachments.map((d) => d.name), ...Object.keys(registered?.detachments ?? {})], lookupKey);
  const detachments = names.map((name): DetachmentCoverage => {
    const entry = data.detachments.find((d) => lookupKey(d.name) === lookupKey(name));
    const regName = Object.keys(registered?.detachments ?? {}).find((n) => lookupKey(n) === lookupKey(name));
    const rules = regName ? registered!.detachments[regName].map(ruleCoverage) : [];
    const stratNames = uniqueBy([
      ...data.stratagems.filter((s) => lookupKey(s.detachment) === lookupKey(name)).map((s) => s.name),
      ...allStratagems().filter((s) => lookupKey(s.source) === lookupKey(name)).map((s) => s.name),
    ], lookupKey);
    const stratagems = stratNames.map((s) => stratagemCoverage(regName ?? name, s));
    const enhancements = data.enhancements.filter((e) => lookupKey(e.detachment) === lookupKey(name)).map((e) => ruleCoverage(e.name));
    const parts = [...rules, ...stratagems, ...enhancements];
    const status: PlayStatus = !regName ? 'not played' : combine(parts.length ? parts : [{ name, status: 'played' }]);
    return { name, status, inData: !!entry, registered: !!regName, boardingActions: entry?.type === 'Boarding Actions', rules, stratagems, enhancements };
  });
  // the export's "Army Rules" stratagems are parts of an army rule made without CP (Battle Focus's Agile
  // Manoeuvres): the army rule plays them under a rule entry of their name
  const armyRuleStratagems = data.stratagems.filter((s) => lookupKey(s.detachment) === lookupKey('Army Rules'))
    .map((s) => {
      const rule = allRules().find((r) => lookupKey(r.name) === lookupKey(s.name));
      return rule ? { ...ruleCoverage(rule.name), name: s.name } : stratagemCoverage('Army Rules', s.name);
    });
  return {
    id: data.faction.id, name: data.faction.name, armyRules: (registered?.armyRules ?? []).map(ruleCoverage),
    datasheets, detachments, armyRuleStratagems,
  };
}

/** The core stratagems the engine plays (Core and Boarding Actions sets). */
export function coreStratagemCoverage(): { source: string; stratagems: RuleCoverage[] }[] {
  return ['Core', 'Boarding Actions'].map((source) => ({
    source,
    stratagems: allStratagems().filter((s) => s.source === source).map((s) => (s.missing ? { name: s.name, status: 'partly' as const, missing: s.missing } : { name: s.name, status: 'played' as const })),
  }));
}

// ---------------------------------------------------------------------------------------------------
// Abilities of the units in a game that the engine does not play (fully)

export interface UnplayedAbility {
  /** the unit's (datasheet's) name */
  unit: string;
  ability: string;
  /** what is not played of it; absent when it is not played at all */
  missing?: string;
}

/** The stratagems of a detachment in the faction's data that the engine does not play (none for a faction without data). */
function dataStratagemsNotPlayed(faction: string, detachment: string): string[] {
  let data: FactionData;
  try {
    data = loadFactionCatalog(faction).data;
  } catch {
    return [];
  }
  const played = new Set(allStratagems().filter((s) => lookupKey(s.source) === lookupKey(detachment)).map((s) => lookupKey(s.name)));
  return data.stratagems.filter((s) => lookupKey(s.detachment) === lookupKey(detachment) && !played.has(lookupKey(s.name))).map((s) => s.name);
}

function isGameState(x: GameState | ResolvedScenario): x is GameState {
  return 'unitOrder' in x;
}

function unplayedOf(out: UnplayedAbility[], unit: string, abilities: readonly RuleCoverage[]): void {
  for (const a of abilities) {
    if (a.status === 'played') continue;
    if (out.some((x) => x.unit === unit && x.ability === a.name)) continue;
    out.push(a.status === 'partly' ? { unit, ability: a.name, missing: a.missing } : { unit, ability: a.name });
  }
}

/**
 * The abilities of the units of a game (or of a scenario's armies) that the engine does not play, or
 * plays in part: their core and datasheet abilities, the abilities of the weapons they carry, and (from a
 * scenario) of the wargear they carry. One entry per unit name and ability; first, a player's detachment
 * the engine has no rules for (unit "detachment").
 */
export function unplayedAbilities(x: GameState | ResolvedScenario): UnplayedAbility[] {
  const out: UnplayedAbility[] = [];
  // a detachment of the data the engine has no rules for (an army list's own): none of it is played;
  // one it has: the stratagems of the data it does not play
  for (const p of x.players) {
    if (p.detachment === null) continue;
    const registered = Object.keys(factionRules(p.faction)?.detachments ?? {});
    if (!registered.some((d) => lookupKey(d) === lookupKey(p.detachment!))) {
      out.push({ unit: 'detachment', ability: p.detachment, missing: 'the army plays as with no detachment: its rule and stratagems are not in the engine' });
      continue;
    }
    const unplayed = dataStratagemsNotPlayed(p.faction, p.detachment);
    const many = unplayed.length > 1;
    if (unplayed.length) out.push({ unit: 'detachment', ability: p.detachment, missing: `its stratagem${many ? 's' : ''} ${unplayed.join(', ')} ${many ? 'are' : 'is'} not played` });
  }
  if (isGameState(x)) {
    for (const id of x.unitOrder) {
      const u = x.units[id];
      for (const c of u.components) {
        const ds = x.datasheets[c.datasheet];
        unplayedOf(out, c.name, [...c.abilities, ...keywordRuleNames(ds.keywords)].map(ruleCoverage));
        const carried = new Set(u.models.filter((m) => m.origin === c.unit).flatMap((m) => m.weapons));
        unplayedOf(out, c.name, weaponAbilityNames(ds, (w) => carried.has(w)).map(weaponAbilityCoverage));
      }
    }
    return out;
  }
  for (const p of x.players) {
    for (const au of p.army.units) {
      const ds = p.datasheets[au.datasheetId];
      if (!ds) continue;
      const names = [...datasheetAbilityNames(ds), ...(au.enhancement ? [au.enhancement] : [])];
      unplayedOf(out, ds.name, names.map(ruleCoverage));
      const carried = new Set(au.models.flatMap((m) => m.weapons));
      unplayedOf(out, ds.name, weaponAbilityNames(ds, (w) => carried.has(w)).map(weaponAbilityCoverage));
      const wargear = new Set(au.models.flatMap((m) => m.wargear ?? []).map(lookupKey));
      unplayedOf(out, ds.name, (ds.wargearAbilities ?? []).filter((w) => wargear.has(lookupKey(w))).map(ruleCoverage));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Formatting

const MARK: Record<PlayStatus, string> = { played: 'played', partly: 'partly', 'not played': 'not played' };

/**
 * What of these parts is not played. With `notes`, a partly played rule is written "name (partly)" and
 * what it misses goes once into the notes (the same rule recurs on many datasheets).
 */
function notPlayed(parts: readonly RuleCoverage[], notes?: Map<string, string>): string {
  return parts.filter((p) => p.status !== 'played').map((p) => {
    if (p.status !== 'partly') return `${p.name} (not played)`;
    if (!notes) return `${p.name} (${p.missing})`;
    notes.set(p.name, p.missing ?? '');
    return `${p.name} (partly)`;
  }).join('; ');
}

function noteLines(notes: Map<string, string>, bullet: string): string[] {
  return [...notes].map(([name, missing]) => `${bullet}${name}: ${missing}`);
}

function count(items: readonly { status: PlayStatus }[]): string {
  const n = (s: PlayStatus) => items.filter((i) => i.status === s).length;
  return `${n('played')} played, ${n('partly')} partly, ${n('not played')} not played`;
}

export interface FormatOptions {
  /** only the datasheets of the bundled armies */
  armiesOnly?: boolean;
}

/** Plain-text report for the terminal. */
export function formatCoverageText(report: FactionCoverage[], opts: FormatOptions = {}): string {
  const lines: string[] = [];
  for (const f of report) {
    const sheets = f.datasheets.filter((d) => !opts.armiesOnly || d.inArmies);
    const notes = new Map<string, string>();
    lines.push(`${f.name} (${f.id})`);
    lines.push(`  army rules: ${f.armyRules.map((r) => `${r.name} [${MARK[r.status]}]`).join(', ') || 'none'}`);
    lines.push(`  datasheets: ${count(sheets)}`);
    for (const d of sheets) {
      const extra = notPlayed([...d.abilities, ...d.weaponAbilities], notes);
      lines.push(`    ${d.inArmies ? '*' : ' '} ${d.name.padEnd(44)} ${MARK[d.status].padEnd(10)} ${extra}`);
    }
    lines.push(`  detachments: ${count(f.detachments)}`);
    for (const d of f.detachments) {
      const note = [!d.inData ? 'not in the data' : '', d.boardingActions ? 'Boarding Actions' : ''].filter(Boolean).join(', ');
      lines.push(`      ${(d.name + (note ? ` (${note})` : '')).padEnd(44)} ${MARK[d.status].padEnd(10)} ${notPlayed([...d.rules, ...d.stratagems, ...d.enhancements], notes)}`);
    }
    if (f.armyRuleStratagems.length) lines.push(`  army-rule stratagems: ${count(f.armyRuleStratagems)}`);
    if (notes.size) lines.push('  partly played:', ...noteLines(notes, '    '));
    lines.push('');
  }
  lines.push('* used by a bundled army');
  return lines.join('\n');
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** Markdown report (docs/coverage.md). */
export function formatCoverageMarkdown(report: FactionCoverage[], opts: FormatOptions = {}): string {
  const out: string[] = ['# Rules coverage', ''];
  out.push('What of the bundled factions\' data the engine plays, from its registries (`strategium coverage --markdown`).');
  out.push('A datasheet is *played* when all its core, faction and datasheet abilities and the abilities of the weapons it carries by default are;');
  out.push('*partly* lists what is not. Wargear abilities and optional weapons only matter for the units that carry them (column "options").');
  out.push('Units marked ✓ are in the bundled armies.', '');
  for (const f of report) {
    const sheets = f.datasheets.filter((d) => !opts.armiesOnly || d.inArmies);
    const notes = new Map<string, string>();
    out.push(`## ${f.name}`, '');
    out.push(`Army rules: ${f.armyRules.map((r) => `${r.name} (${MARK[r.status]})`).join(', ') || 'none'}.`, '');
    out.push(`### Datasheets (${count(sheets)})`, '');
    out.push('| Datasheet | Army | Status | Not played | Options not played |', '|---|---|---|---|---|');
    for (const d of sheets) {
      out.push(`| ${cell(d.name)} | ${d.inArmies ? '✓' : ''} | ${MARK[d.status]} | ${cell(notPlayed([...d.abilities, ...d.weaponAbilities], notes))} | ${cell(notPlayed(d.options, notes))} |`);
    }
    out.push('', `### Detachments (${count(f.detachments)})`, '');
    out.push('| Detachment | Status | Rules | Stratagems | Enhancements | Not played |', '|---|---|---|---|---|---|');
    for (const d of f.detachments) {
      const name = `${d.name}${d.inData ? '' : ' (not in the data)'}${d.boardingActions ? ' (Boarding Actions)' : ''}`;
      const frac = (xs: RuleCoverage[]) => `${xs.filter((x) => x.status === 'played').length}/${xs.length}`;
      out.push(`| ${cell(name)} | ${MARK[d.status]} | ${frac(d.rules)} | ${frac(d.stratagems)} | ${frac(d.enhancements)} | ${cell(d.registered ? notPlayed([...d.rules, ...d.stratagems, ...d.enhancements], notes) : 'not registered')} |`);
    }
    if (f.armyRuleStratagems.length) {
      out.push('', `Stratagems of the army rule (the export lists them under "Army Rules"): ${count(f.armyRuleStratagems)}: ${f.armyRuleStratagems.map((x) => `${x.name} (${x.status})`).join(', ')}.`);
    }
    if (notes.size) out.push('', 'What the partly played rules leave out:', '', ...noteLines(notes, '- '));
    out.push('');
  }
  out.push('## Core stratagems', '');
  for (const c of coreStratagemCoverage()) {
    out.push(`- ${c.source}: ${c.stratagems.map((s) => `${s.name}${s.status === 'played' ? '' : ` (${s.missing})`}`).join(', ')}`);
  }
  out.push('');
  return out.join('\n');
}
