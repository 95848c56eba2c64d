/**
 * Resolving a raw army list (army-list-parse.ts) against a faction's datasheets into an army file:
 * every unit and wargear name matched (errors name the line and the closest known names), model
 * counts and loadouts per model, points checked against the data (mismatches become warnings).
 */
import path from 'node:path';
import { sizedModelCount, type Datasheet } from './datasheet.ts';
import { BATTLE_SIZES, MAX_UNIT_MODELS, battleSizeFor, dataWeaponName, optionalModelsCost, unknownDetachmentWarning, validateArmy, type ArmyFile, type ArmyModelGroup, type ArmyUnit } from './army.ts';
import { bundledSource, findFaction, type CatalogSource, type FactionCatalog } from './catalog.ts';
import { parseListText, type ListFormat, type RawArmyList, type RawItem, type RawUnit } from './army-list-parse.ts';
import { matchProfiles } from './composition-parse.ts';
import { DataError } from './errors.ts';
import { musterWarnings } from './muster-checks.ts';
import { closestNames } from './fuzzy.ts';
import { keyVariants, lookupKey } from './text.ts';

export interface ParseArmyOptions {
  /** file name for messages */
  file?: string;
  /** the faction, when the list does not say it (short formats) or to override it */
  faction?: string;
  /** where datasheets come from, first match wins; default: the bundled factions */
  sources?: CatalogSource[];
  /**
   * Fit the loadouts to the datasheets (lists from another data version): a weapon the datasheet does
   * not have is dropped, and a model left with none of its datasheet's weapons takes its default
   * loadout, each with a warning. Without it such a weapon is kept with a warning and a game refuses
   * the army.
   */
  fitWargear?: boolean;
}

export interface ParsedArmy {
  army: ArmyFile;
  format: ListFormat;
  catalog: FactionCatalog;
  warnings: string[];
  /** the warnings that say what --fit-wargear changed (also in `warnings`) */
  fitted: string[];
}

/** Parse an army-list text export (Warhammer 40,000 app or New Recruit) into a checked army file. */
export function parseArmyList(text: string, options: ParseArmyOptions = {}): ParsedArmy {
  const file = options.file ?? 'army list';
  const raw = parseListText(text);
  if (!raw.units.length) throw new DataError(`${file}: no units found (expected a Warhammer 40,000 app or New Recruit text export)`, file);
  const sources = options.sources ?? [bundledSource()];
  const catalog = resolveFaction(raw, options.faction, sources, file);
  // New Recruit writes "Kauyon (Patient Hunter)", the detachment's rule after its name: the name alone when the whole is no detachment
  const bare = raw.detachment?.replace(/\s*\([^()]*\)$/, '');
  if (bare && bare !== raw.detachment && unknownDetachmentWarning(catalog, raw.detachment!) && !unknownDetachmentWarning(catalog, bare)) raw.detachment = bare;
  const warnings: string[] = [...(raw.warnings ?? [])];
  const fitted: string[] = [];
  const units = raw.units.map((u, i) => buildUnit(u, i, catalog, raw, file, { warnings, fitted }, options.fitWargear ?? false));
  // in the list's line order (a unit's points are checked after its weapons, whose lines come later)
  for (const list of [warnings, fitted]) list.sort((a, b) => lineOf(a) - lineOf(b));

  // Warlord: flagged on a unit, or named in the header (GW/WTC style)
  if (!units.some((u) => u.warlord) && raw.warlord) {
    // the unit line of the header's number ("Char4: 1x Commander in Coldstar Battlesuit"), when the list numbers
    // them and the names agree; otherwise the first unit of that name
    const named = (u: { name: string }) => lookupKey(u.name) === lookupKey(raw.warlord!);
    const numbered = raw.warlordChar ? raw.units.findIndex((u) => u.char?.toLowerCase() === raw.warlordChar!.toLowerCase() && named(u)) : -1;
    const w = numbered >= 0 ? units[numbered] : units.find(named);
    if (w) w.warlord = true;
    else warnings.push(`the header names ${raw.warlordChar ? `${raw.warlordChar}: ` : ''}${raw.warlord} as Warlord, which is not a unit of the list`);
  }
  const warlords = units.filter((u) => u.warlord);
  for (const extra of warlords.slice(1)) { delete extra.warlord; warnings.push(`${extra.name} (${extra.id}): only one Warlord; kept ${warlords[0].name}`); }

  const detachment = raw.detachment ?? '';
  if (!detachment) warnings.push('the list names no detachment');
  else {
    const unknown = unknownDetachmentWarning(catalog, detachment);
    if (unknown) warnings.push(unknown);
  }
  const points = units.reduce((s, u) => s + u.points, 0);
  // the list's own total: stated, or the sum of its unit prices (short formats)
  const listPoints = raw.points ?? (raw.units.every((u) => u.points !== undefined) ? raw.units.reduce((s, u) => s + u.points!, 0) : undefined);
  let battleSize = raw.battleSize;
  if (!battleSize) {
    const name = battleSizeFor(listPoints ?? points);
    battleSize = { name, pointsLimit: BATTLE_SIZES[name] };
    warnings.push(`the list names no battle size; ${name} (${battleSize.pointsLimit} points) assumed from the points`);
  }
  if (points > battleSize.pointsLimit) warnings.push(`the army is ${points} points, over the ${battleSize.name} limit of ${battleSize.pointsLimit}`);
  if (listPoints !== undefined && listPoints !== points) warnings.push(`the list totals ${listPoints} points, the data gives ${points}`);

  const army: ArmyFile = {
    name: raw.name ?? (options.file ? path.basename(options.file).replace(/\.[^.]+$/, '') : 'Army'),
    faction: catalog.faction.id,
    factionName: catalog.faction.name,
    detachment,
    battleSize,
    points,
    units,
  };
  if (raw.subfaction) army.subfaction = raw.subfaction;
  if (warnings.length) army.warnings = warnings;
  // army construction: reported now, not kept in the file (checkArmyAgainstCatalog checks it whenever the file is read)
  const all = [...warnings, ...musterWarnings(army, (id) => catalog.byId(id), (name) => catalog.enhancement(name, detachment))];
  return { army: validateArmy(army, file), format: raw.format, catalog, warnings: all, fitted };
}

/** The line number a unit's warning starts with ("line 12: ..."). */
function lineOf(warning: string): number {
  return Number(/^line (\d+):/.exec(warning)?.[1] ?? 0);
}

function resolveFaction(raw: RawArmyList, override: string | undefined, sources: CatalogSource[], file: string): FactionCatalog {
  const text = override ?? raw.faction;
  if (text) {
    for (const src of sources) {
      const f = findFaction(text, src.factions());
      if (f) return src.load(f.id);
    }
    const bundled = sources.flatMap((s) => s.factions().map((f) => f.name));
    throw new DataError(`${file}: faction "${text}" is not bundled (available: ${[...new Set(bundled)].join(', ')}); \`army --data <Wahapedia export dir>\` reads it from an export, but games are played with the bundled factions only`, file);
  }
  // no faction named: the faction whose datasheets match the most unit names
  let best: { src: CatalogSource; id: string; hits: number } | null = null;
  for (const src of sources) {
    for (const f of src.factions()) {
      const names = new Set(src.unitNames(f.id).map(lookupKey));
      const hits = raw.units.filter((u) => names.has(lookupKey(u.name))).length;
      if (hits > (best?.hits ?? 0)) best = { src, id: f.id, hits };
    }
  }
  if (!best) throw new DataError(`${file}: the list names no faction and no unit matches a known faction; give the faction (--faction; \`army --data <Wahapedia export dir>\` reads other factions from an export)`, file);
  return best.src.load(best.id);
}

// ---------------------------------------------------------------------------------------------

type Resolved = { name: string; kind: 'weapon' | 'wargear' } | { kind: 'skip' } | { kind: 'enhancement'; name: string } | { kind: 'dropped' };

/** A unit's warnings go to `warnings`; those saying what the fit changed go to `fitted` as well. */
interface BuildNotes { warnings: string[]; fitted: string[] }

function buildUnit(u: RawUnit, index: number, catalog: FactionCatalog, raw: RawArmyList, file: string, notes: BuildNotes, fit: boolean): ArmyUnit {
  const at = `${file}: line ${u.line}`;
  const ds = catalog.byName(u.name, raw.subfaction) ?? catalog.byName(u.name.replace(/\s*\((legends|legendary)\)$/i, ''));
  if (!ds) {
    throw new DataError(`${at}: unknown unit "${u.name}" (${catalog.faction.name}); closest: ${closestNames(u.name, catalog.names()).join(', ')}`, file, u.line);
  }
  const warn: Warn = (line, msg, fitChange = false) => {
    const w = `line ${line}: ${ds.name}: ${msg}`;
    notes.warnings.push(w);
    if (fitChange) notes.fitted.push(w);
  };
  // models and wargear are laid out one by one below: a count no unit comes near is a mistake in the list
  const listed = u.groups.length ? u.groups.reduce((t, g) => t + g.count, 0) : u.count ?? 0;
  if (listed > MAX_UNIT_MODELS) throw new DataError(`${at}: ${ds.name}: ${listed} models; expected at most ${MAX_UNIT_MODELS} in a unit`, file, u.line);
  for (const it of [...u.items, ...u.groups.flatMap((g) => g.items)]) {
    if (it.count > MAX_UNIT_MODELS) throw new DataError(`${file}: line ${it.line}: ${ds.name}: ${it.count}x ${it.name}; expected at most ${MAX_UNIT_MODELS} of an item in a unit`, file, it.line);
  }
  const resolver = itemResolver(ds, catalog, file, warn, fit);
  const unit: ArmyUnit = { id: `u${index + 1}`, datasheetId: ds.id, name: ds.name, points: 0, models: [] };
  let enhancement = u.enhancement?.name;
  for (const more of u.moreEnhancements ?? []) warn(more.line, `a unit takes one Enhancement: ${more.name} is left out (it keeps ${enhancement})`);

  const groups: ArmyModelGroup[] = [];
  const addGroup = (profile: string, count: number, items: RawItem[], line: number) => {
    const perModel: { weapons: string[]; wargear: string[] }[] = Array.from({ length: count }, () => ({ weapons: [], wargear: [] }));
    const present = new Set<string>();
    let dropped = false;
    let fill = 0;
    const give = (r: Resolved, it: RawItem) => {
      if (r.kind === 'dropped') { dropped = true; return; }
      if (r.kind === 'skip') return;
      if (r.kind === 'enhancement') {
        if (enhancement && lookupKey(enhancement) !== lookupKey(r.name)) warn(it.line, `a unit takes one Enhancement: ${r.name} is left out (it keeps ${enhancement})`);
        else enhancement ??= r.name;
        return;
      }
      const key = r.kind === 'weapon' ? 'weapons' : 'wargear';
      present.add(lookupKey(r.name));
      if (!it.total) { for (const m of perModel) for (let k = 0; k < it.count; k++) m[key].push(r.name); return; }
      // a total for the group: share evenly; a remainder goes to the next models in turn, since
      // partial counts are usually alternatives ("3x Rail rifle" and "6x Pulse carbine" for 9 models)
      const q = Math.floor(it.count / count);
      for (const m of perModel) for (let k = 0; k < q; k++) m[key].push(r.name);
      for (let k = 0; k < it.count % count; k++) perModel[(fill++) % count][key].push(r.name);
    };
    const carried: RawItem[] = [];
    for (const it of items) {
      const r = resolver(it.name, it.line, false);
      give(r.main, it);
      if (r.carried) carried.push({ ...it, carried: [r.carried] });
      else if (it.carried) carried.push(it);
    }
    for (const it of carried) {
      for (const c of it.carried ?? []) {
        const r = resolver(c, it.line, true).main;
        if (r.kind === 'weapon' || r.kind === 'wargear') { if (present.has(lookupKey(r.name))) continue; }
        give(r, { ...it, name: c });
      }
    }
    const defaults = (ds.defaultLoadout[profile] ?? []).filter((n) => dataWeaponName(ds, n) !== undefined);
    const bare = perModel.filter((m) => !m.weapons.length);
    // fitted: a model left with no weapon (none listed, or none of those listed is the datasheet's) takes its
    // default loadout
    if (fit && bare.length && defaults.length) {
      for (const m of bare) m.weapons = [...defaults];
      warn(line, `${bare.length} ${profile}: ${dropped ? 'no weapon of the datasheet left' : 'no weapon listed'}; given the default weapons (${defaults.join(', ')})`, true);
    } else if (bare.length && defaults.length) {
      // a model the datasheet arms but the list leaves with no weapon cannot attack in a game: most likely
      // its weapons were lost in the export (or dropped above as unknown), so say so rather than play it unarmed
      warn(line, `${bare.length} ${profile}: no weapon listed (the datasheet's default: ${defaults.join(', ')}); ${bare.length === 1 ? 'it has' : 'they have'} no weapon in a game (--fit-wargear gives the default)`);
    }
    // identical loadouts make one group
    for (const m of perModel) {
      const last = groups[groups.length - 1];
      const same = last && last.profile === profile && sameList(last.weapons, m.weapons) && sameList(last.wargear ?? [], m.wargear);
      if (same) last.count++;
      else groups.push({ profile, count: 1, weapons: m.weapons, ...(m.wargear.length ? { wargear: m.wargear } : {}) });
    }
  };

  if (u.groups.length) {
    for (const g of u.groups) {
      const profile = resolveProfile(g.name, ds, (msg) => warn(g.line, msg));
      addGroup(profile, g.count, [...g.items, ...(g === u.groups[0] ? u.items : [])], g.line);
    }
  } else {
    const total = u.count ?? ds.sizes[0]?.models ?? ds.composition.reduce((s, c) => s + Math.max(c.min, 1), 0);
    const counts = defaultCounts(ds, total);
    const made = counts.reduce((s, c) => s + c.count, 0);
    if (u.count !== undefined && made !== u.count) warn(u.line, `the list has ${u.count} models; the unit composition in the data gives ${made}`);
    counts.forEach(({ profile, count }, k) => {
      if (!count) return;
      const items: RawItem[] = u.items.length
        ? (k === 0 ? u.items : [])
        : (ds.defaultLoadout[profile] ?? []).map((name) => ({ line: u.line, name, count: 1, total: false }));
      addGroup(profile, count, items, u.line);
    });
    if (u.items.length && counts.filter((c) => c.count).length > 1) warn(u.line, 'wargear listed for the unit as a whole was given to its first model profile');
  }
  unit.models = groups;

  // points: the size the data gives for this many models, optional models' costs, the enhancement
  const models = groups.reduce((s, g) => s + g.count, 0);
  const sized = sizedModelCount(ds, groups);
  const size = ds.sizes.find((s) => s.models === sized);
  if (!size && ds.sizes.length) warn(u.line, `${sized} models is not a unit size of the datasheet (${ds.sizes.map((s) => s.models).join(', ')})`);
  // an export whose points cell could not be read leaves the datasheet with no size: priced 0, said so
  else if (!ds.sizes.length) warn(u.line, `the data gives ${ds.name} no points (no unit size): priced 0`);
  if (ds.maxModels && models > ds.maxModels) warn(u.line, `${models} models is over the maximum of ${ds.maxModels}`);
  const chosen = size ?? ds.sizes.find((s) => s.models >= sized) ?? ds.sizes[ds.sizes.length - 1];
  let points = (chosen?.points ?? 0) + optionalModelsCost(ds, groups);
  if (enhancement) {
    // by the name as written, parentheses included ("Infamy (Aura)"), else without a trailing one
    const e = catalog.enhancement(enhancement, raw.detachment) ?? catalog.enhancement(enhancement.replace(/\s*\([^()]*\)$/, ''), raw.detachment);
    if (!e) {
      const line = u.enhancement?.line ?? u.line;
      throw new DataError(`${file}: line ${line}: unknown enhancement "${enhancement}" (${catalog.faction.name}); closest: ${closestNames(enhancement, catalog.data.enhancements.map((x) => x.name)).join(', ')}`, file, line);
    }
    unit.enhancement = e.name;
    points += e.cost;
    if (e.datasheets.length && !e.datasheets.includes(ds.id)) warn(u.line, `the data does not list ${ds.name} among the units that may take ${e.name}`);
    if (raw.detachment && lookupKey(e.detachment) !== lookupKey(raw.detachment)) warn(u.line, `${e.name} is an enhancement of ${e.detachment}, not ${raw.detachment}`);
    if (u.enhancement?.points !== undefined && u.enhancement.points !== e.cost) warn(u.enhancement.line, `the list prices ${e.name} at ${u.enhancement.points} pts, the data at ${e.cost}`);
  }
  if (u.points !== undefined && u.points !== points) {
    warn(u.line, `the list says ${u.points} pts, the data says ${points} (${models} model${models === 1 ? '' : 's'}${unit.enhancement ? ` with ${unit.enhancement}` : ''})`);
  }
  unit.points = points;
  if (u.warlord) unit.warlord = true;
  return unit;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Model counts per composition profile for a unit of `total` models: every minimum, then the rest where the maximum allows. */
export function defaultCounts(ds: Datasheet, total: number): { profile: string; count: number }[] {
  const out = ds.composition.map((c) => ({ profile: c.profile, count: c.min, max: c.max }));
  const least = out.reduce((s, c) => s + c.count, 0);
  if (total < least) {
    // fewer models than the datasheet's smallest unit (a list from before a codex changed it: "3x Stealth
    // Battlesuits" where the data has 5): the list's count, the profiles filled in order (leader first), as a list
    // naming its models keeps its count; the build warns that the size is not the datasheet's
    let room = total;
    for (const c of out) {
      c.count = Math.min(c.count, room);
      room -= c.count;
    }
    return out.map(({ profile, count }) => ({ profile, count }));
  }
  let left = total - least;
  for (const c of out) {
    if (left <= 0) break;
    const add = Math.min(left, c.max - c.count);
    // optional single models (0-1 Exarch, 0-1 Shade Runner) stay out unless the list names them
    if (c.count === 0 && c.max === 1) continue;
    c.count += add;
    left -= add;
  }
  return out.map(({ profile, count }) => ({ profile, count }));
}

/** "Pathfinders w/ pulse carbine" -> "Pathfinders"; a unit's own name for single-profile units. */
function resolveProfile(name: string, ds: Datasheet, warn: (msg: string) => void): string {
  const profiles = ds.composition.map((c) => c.profile);
  const clean = name.replace(/\s+w\/.*$/i, '').trim();
  const exact = matchProfiles(clean, profiles);
  if (exact.length) return exact[0];
  // plurals inside the name: "Vanguard Veteran with Jump Pack" ~ "Vanguard Veterans with Jump Packs"
  const singular = (s: string) => lookupKey(s).split(' ').map((w) => w.replace(/s$/, '')).join(' ');
  const bySingular = profiles.filter((p) => singular(p) === singular(clean));
  if (bySingular.length) return bySingular[0];
  const contains = profiles.filter((p) => lookupKey(clean).includes(lookupKey(p)) || lookupKey(p).includes(lookupKey(clean)));
  if (contains.length === 1) return contains[0];
  if (profiles.length === 1) return profiles[0];
  if (keyVariants(clean).includes(lookupKey(ds.name))) return profiles[profiles.length - 1];
  const guess = closestNames(clean, profiles, 1)[0];
  warn(`model "${name}" is not in the unit composition (${profiles.join(', ')}); taken as ${guess}`);
  return guess;
}

/**
 * Resolve one wargear name of a list on a datasheet: its weapons, wargear and default loadout; the
 * enhancement names ("Plasma Accelerator Rifle" and its "... upgrade" line); two names glued together
 * by the export ("Plasma Accelerator Rifle upgradeBattlesuit fists"); then anything the faction knows
 * (kept, with a warning: list and data versions differ). Unknown names are errors with suggestions.
 */
type Warn = (line: number, msg: string, fitChange?: boolean) => void;

function itemResolver(ds: Datasheet, catalog: FactionCatalog, file: string, warn: Warn, fit: boolean) {
  const own = new Map<string, { name: string; kind: 'weapon' | 'wargear' }>();
  const add = (name: string, kind: 'weapon' | 'wargear') => {
    for (const v of [lookupKey(name), ...keyVariants(name)]) if (!own.has(v)) own.set(v, { name, kind });
  };
  for (const w of ds.weapons) add(w.name, 'weapon');
  for (const w of ds.weapons) for (const p of w.profiles) add(p.name, 'weapon');
  for (const n of ds.wargear ?? []) add(n, 'wargear');
  for (const n of (ds.wargearAbilities ?? [])) add(n.replace(/\s*\(.*?\)/g, ''), 'wargear');
  for (const n of Object.values(ds.defaultLoadout).flat()) if (!own.has(lookupKey(n))) add(n, 'wargear');
  let faction: Map<string, { name: string; kind: 'weapon' | 'wargear' }> | null = null;
  const factionWide = () => {
    if (!faction) {
      faction = new Map();
      for (const d of catalog.datasheets) {
        for (const w of d.weapons) if (!faction.has(lookupKey(w.name))) faction.set(lookupKey(w.name), { name: w.name, kind: 'weapon' });
        for (const n of d.wargear ?? []) if (!faction.has(lookupKey(n))) faction.set(lookupKey(n), { name: n, kind: 'wargear' });
      }
    }
    return faction;
  };
  const ownHit = (name: string) => {
    for (const v of [lookupKey(name), ...keyVariants(name)]) {
      const hit = own.get(v);
      if (hit) return hit;
    }
    return undefined;
  };
  const simple = (name: string): Resolved | undefined => {
    const up = /^(.+?)\s+upgrade$/i.exec(name);
    if (up && catalog.enhancement(up[1])) return { kind: 'skip' };
    const hit = ownHit(name);
    if (hit) return hit;
    const e = catalog.enhancement(name);
    if (e) return { kind: 'enhancement', name: e.name };
    return undefined;
  };
  return (name: string, line: number, lenient: boolean): { main: Resolved; carried?: string } => {
    const direct = simple(name);
    if (direct) return { main: direct };
    // glued names (WTC style): split where a lower-case letter meets an upper-case one and both halves
    // resolve. "X upgradeBattlesuit fists" is the second item; "Recon droneDrone burst cannon" is a
    // drone and the weapon it carries.
    for (let i = 1; i < name.length; i++) {
      if (/[a-z]/.test(name[i - 1]) && /[A-Z]/.test(name[i])) {
        const a = simple(name.slice(0, i));
        const b = simple(name.slice(i));
        if (a && b) return a.kind === 'skip' || a.kind === 'enhancement' ? { main: b } : { main: a, carried: name.slice(i) };
      }
    }
    const wide = factionWide().get(lookupKey(name));
    if (wide && fit && wide.kind === 'weapon') {
      warn(line, `"${name}" is not a weapon of this datasheet in the data (the list may come from another data version); dropped (--fit-wargear)`, true);
      return { main: { kind: 'dropped' } };
    }
    if (wide) {
      warn(line, wide.kind === 'weapon'
        ? `"${name}" is not a weapon of this datasheet in the data (the list may come from another data version); kept, but a game refuses the army until it names one of the datasheet's weapons (--fit-wargear drops it)`
        : `"${name}" is not wargear of this datasheet in the data (the list may come from another data version); kept`);
      return { main: wide };
    }
    if (lenient) {
      warn(line, `"${name}" is not known in the data; ignored`);
      return { main: { kind: 'skip' } };
    }
    const known = [...new Set([...own.values()].map((v) => v.name))];
    throw new DataError(`${file}: line ${line}: unknown wargear "${name}" for ${ds.name}; closest: ${closestNames(name, known).join(', ')}`, file, line);
  };
}
