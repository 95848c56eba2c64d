/**
 * Army construction (Muster Armies) checks of an army against its datasheets, as warnings: the core
 * rules' limits (each EPIC HERO once; a datasheet at most three times, six for BATTLELINE and DEDICATED
 * TRANSPORT units; at most three Enhancements, each once, on CHARACTER units that are not EPIC HEROES)
 * and the datasheets' own army-building abilities, one entry each by the ability's name. A list that
 * breaks them is still played (a list builder may be trying one out); the warning says what is off.
 */
import type { ArmyFile, ArmyUnit } from './army.ts';
import { sizedModelCount, unitOfHasKeyword, type Datasheet } from './datasheet.ts';
import type { EnhancementEntry } from './faction-data.ts';
import { lookupKey } from './text.ts';

interface MusterUnit { unit: ArmyUnit; ds: Datasheet }

// a unit has its models' keywords: Aun'Va's unit is an EPIC HERO, a CHARACTER to be the Warlord
const has = (ds: Datasheet, keyword: string) => unitOfHasKeyword(ds, keyword);
const label = (u: ArmyUnit) => `${u.name} (${u.id})`;

/** The detachments in which up to three of each TRAVELLING PLAYERS datasheet may be taken, and Troupes are BATTLELINE. */
const HARLEQUIN_DETACHMENTS: readonly string[] = ['Ghosts of the Webway', "Serpent's Brood"];

/** Datasheet abilities that constrain the army a unit is in, by name: the warning, or null when kept. */
const ARMY_BUILDING_ABILITIES: Record<string, (self: MusterUnit, army: readonly MusterUnit[], detachment: string) => string | null> = {
  // Commander Shadowsun: if she is in the army she must be its Warlord (with none marked, the scenario
  // loader makes her the Warlord)
  'SUPREME COMMANDER': (self, army) => (self.unit.warlord || !army.some((x) => x.unit.warlord) ? null : `${label(self.unit)} must be the Warlord (SUPREME COMMANDER)`),
  // the Solitaire cannot be the Warlord (with none marked, the scenario loader passes it over)
  'PATH OF DAMNATION': (self) => (self.unit.warlord ? `${label(self.unit)} cannot be the Warlord (PATH OF DAMNATION)` : null),
  // the Troupe Master, Shadowseer and Death Jester: one of each datasheet, three in the Harlequin
  // detachments; told once, by the datasheet's first unit
  'TRAVELLING PLAYERS': (self, army, detachment) => {
    const same = army.filter((x) => x.ds.id === self.ds.id);
    const limit = HARLEQUIN_DETACHMENTS.includes(detachment) ? 3 : 1;
    return same[0] === self && same.length > limit ? `${same.length} ${self.ds.name} units: at most ${limit} (TRAVELLING PLAYERS)` : null;
  },
  // Yvraine, the Visarch, the Yncarne: no EPIC HERO that is not YNNARI in the same army
  'SERVANT OF THE WHISPERING GOD': (self, army) => whisperingGod(self, army, 'SERVANT OF THE WHISPERING GOD'),
  'AVATAR OF THE WHISPERING GOD': (self, army) => whisperingGod(self, army, 'AVATAR OF THE WHISPERING GOD'),
  // Commander Farsight: not in an army with ETHEREAL units
  'INDEPENDENT POWER': (self, army) => {
    const ethereals = army.filter((x) => has(x.ds, 'ETHEREAL'));
    return ethereals.length ? `${label(self.unit)} cannot be in an army with ETHEREAL units (INDEPENDENT POWER): ${ethereals.map((x) => label(x.unit)).join(', ')}` : null;
  },
};

/** The Ynnari EPIC HEROES' rule: the army has no other EPIC HERO that is not YNNARI. */
function whisperingGod(self: MusterUnit, army: readonly MusterUnit[], rule: string): string | null {
  const others = army.filter((x) => x !== self && has(x.ds, 'EPIC HERO') && !x.ds.factionKeywords.includes('YNNARI'));
  return others.length ? `${label(self.unit)} cannot be in an army with EPIC HEROES that are not YNNARI (${rule}): ${others.map((x) => label(x.unit)).join(', ')}` : null;
}

/**
 * Datasheets a detachment makes BATTLELINE, by detachment name: six of each may be taken, not three (the
 * Kroot Hunting Pack's Kroot Carnivores, the Windrider Host's Windriders, the Spirit Conclave's Wraithblades and
 * Wraithguard, the Harlequin detachments' Troupes). Nothing else in the engine reads BATTLELINE.
 */
const DETACHMENT_BATTLELINE: Record<string, readonly string[]> = {
  'Kroot Hunting Pack': ['Kroot Carnivores'], 'Windrider Host': ['Windriders'], 'Spirit Conclave': ['Wraithblades', 'Wraithguard'],
  ...Object.fromEntries(HARLEQUIN_DETACHMENTS.map((d) => [d, ['Troupe']])),
};

/**
 * Veterans of the Void (Corsair Coterie, Eldritch Raiders): a Corsair Enhancement goes on an ANHRATHE unit (not only a
 * CHARACTER), each once, with the keywords each asks for besides (Archraider: a CHARACTER unit; Voidstone: an
 * INFANTRY unit). The Spirit Conclave's four go on a Spiritseer only, the Warhost's on an ASURYANI CHARACTER,
 * Devoted of Ynnead's each on the one datasheet it names. By detachment, then Enhancement name.
 */
const UNIT_ENHANCEMENTS: Record<string, Record<string, readonly string[]>> = {
  'Corsair Coterie': { 'Infamy (Aura)': ['ANHRATHE'], 'Webway Pathstone': ['ANHRATHE'], Archraider: ['ANHRATHE', 'CHARACTER'], Voidstone: ['ANHRATHE', 'INFANTRY'] },
  'Spirit Conclave': { 'Light of Clarity': ['SPIRITSEER'], 'Stave of Kurnous': ['SPIRITSEER'], 'Rune of Mists': ['SPIRITSEER'], 'Higher Duty': ['SPIRITSEER'] },
  // the Warhost's four: an ASURYANI CHARACTER (Psychic Destroyer: a PSYKER one)
  Warhost: { 'Phoenix Gem': ['ASURYANI', 'CHARACTER'], 'Timeless Strategist': ['ASURYANI', 'CHARACTER'], 'Gift of Foresight': ['ASURYANI', 'CHARACTER'], 'Psychic Destroyer': ['ASURYANI', 'PSYKER', 'CHARACTER'] },
  'Eldritch Raiders': { 'Pirate Prince': ['PRINCE YRIEL'], 'Alacritous Assault': ['ANHRATHE'], 'Exotic Munitions': ['ANHRATHE'], 'Adrenal Infusions': ['ANHRATHE', 'INFANTRY'] },
  'Devoted of Ynnead': { 'Gaze of Ynnead': ['FARSEER'], 'Storm of Whispers': ['WARLOCK'], 'Borrowed Vigour': ['ARCHON'], 'Morbid Might': ['SUCCUBUS'] },
};

/**
 * What a detachment asks of the whole army, by detachment name: the warning, or null when kept. Devoted of
 * Ynnead (Servants of the Whispering God): Yvraine or the Yncarne is in the army, and one of them is the Warlord.
 */
const DETACHMENT_ARMY_CHECKS: Record<string, (army: readonly MusterUnit[]) => string | null> = {
  'Devoted of Ynnead': (army) => {
    const heralds = army.filter((x) => has(x.ds, 'YVRAINE') || has(x.ds, 'THE YNCARNE'));
    if (heralds.length === 0) return 'Devoted of Ynnead: the army must include Yvraine or the Yncarne (Servants of the Whispering God)';
    const warlord = army.find((x) => x.unit.warlord);
    return warlord && !heralds.includes(warlord) ? `Devoted of Ynnead: the Warlord must be Yvraine or the Yncarne, not ${label(warlord.unit)} (Servants of the Whispering God)` : null;
  },
};

/** Enhancements that name the one datasheet they go on, an EPIC HERO (Pirate Prince: Prince Yriel only). */
const EPIC_HERO_ENHANCEMENTS: ReadonlySet<string> = new Set(['pirate prince']);

/**
 * Why the unit cannot have the Enhancement, or null when it may. `entry` is the data's record of it: its
 * `datasheets` are those whose keywords it asks for ("Harlequins model only"), checked after the rule that
 * an Enhancement goes on a CHARACTER that is not an EPIC HERO (a detachment's own rule, in
 * UNIT_ENHANCEMENTS, replaces both).
 */
function enhancementBearerWarning(x: MusterUnit, e: string, detachment: string, entry: EnhancementEntry | undefined, byId: (datasheetId: string) => Datasheet | undefined): string | null {
  const own = Object.entries(UNIT_ENHANCEMENTS[detachment] ?? {}).find(([name]) => lookupKey(name) === lookupKey(e));
  const allKeywords = (ds: Datasheet, k: string) => has(ds, k) || ds.factionKeywords.includes(k);
  if (own) {
    const missing = own[1].filter((k) => !allKeywords(x.ds, k));
    if (missing.length === 0 && (!has(x.ds, 'EPIC HERO') || EPIC_HERO_ENHANCEMENTS.has(lookupKey(e)))) return null;
    return `${label(x.unit)} has ${e}: in the ${detachment} it goes on an ${own[1].join(' ')} unit that is not an EPIC HERO`;
  }
  if (!has(x.ds, 'CHARACTER') || has(x.ds, 'EPIC HERO')) return `${label(x.unit)} has ${e}: an Enhancement goes on a CHARACTER that is not an EPIC HERO`;
  if (entry && entry.datasheets.length > 0 && !entry.datasheets.includes(x.ds.id)) {
    const names = [...new Set(entry.datasheets.map((id) => byId(id)).filter((d): d is Datasheet => !!d && has(d, 'CHARACTER') && !has(d, 'EPIC HERO')).map((d) => d.name))].sort();
    return `${label(x.unit)} has ${e}: it goes on ${names.length ? names.join(', ') : 'other datasheets'} (the models its keywords name)`;
  }
  return null;
}

/** The names of the datasheet abilities checked here (for the coverage report). */
export const ARMY_BUILDING_ABILITY_NAMES: readonly string[] = Object.keys(ARMY_BUILDING_ABILITIES);

/** Warnings for an army's construction; `byId` gives each unit's datasheet. */
/**
 * The units a detachment asks to be the Warlord, by detachment name (the army check above warns about another):
 * Devoted of Ynnead's Yvraine or the Yncarne.
 */
const DETACHMENT_WARLORDS: Record<string, (ds: Datasheet) => boolean> = {
  'Devoted of Ynnead': (ds) => has(ds, 'YVRAINE') || has(ds, 'THE YNCARNE'),
};

/**
 * The Warlord a game makes when the army marks none: a unit that must be (SUPREME COMMANDER), else the first
 * CHARACTER that may be (not PATH OF DAMNATION), one the detachment asks for first (so that its own check holds);
 * undefined when there is none.
 */
export function defaultWarlord<U>(units: readonly U[], ds: (u: U) => Datasheet, detachment?: string | null): { unit: U; must: boolean; detachment?: string } | undefined {
  const must = units.find((u) => ds(u).abilities.includes('SUPREME COMMANDER'));
  if (must) return { unit: must, must: true };
  const may = (u: U) => has(ds(u), 'CHARACTER') && !ds(u).abilities.includes('PATH OF DAMNATION');
  const asked = detachment ? DETACHMENT_WARLORDS[detachment] : undefined;
  const preferred = asked ? units.find((u) => may(u) && asked(ds(u))) : undefined;
  if (preferred) return { unit: preferred, must: false, detachment: detachment! };
  const first = units.find(may);
  return first ? { unit: first, must: false } : undefined;
}

export function musterWarnings(army: ArmyFile, byId: (datasheetId: string) => Datasheet | undefined, enhancement?: (name: string) => EnhancementEntry | undefined): string[] {
  const units: MusterUnit[] = [];
  for (const unit of army.units) {
    const ds = byId(unit.datasheetId);
    if (ds) units.push({ unit, ds });
  }
  const warnings: string[] = [];
  const perDatasheet = new Map<string, MusterUnit[]>();
  for (const x of units) perDatasheet.set(x.ds.id, [...(perDatasheet.get(x.ds.id) ?? []), x]);
  for (const same of perDatasheet.values()) {
    const ds = same[0].ds;
    const battleline = has(ds, 'BATTLELINE') || (DETACHMENT_BATTLELINE[army.detachment]?.includes(ds.name) ?? false);
    const limit = has(ds, 'EPIC HERO') ? 1 : battleline || has(ds, 'DEDICATED TRANSPORT') ? 6 : 3;
    if (same.length > limit) warnings.push(`${same.length} ${ds.name} units: ${has(ds, 'EPIC HERO') ? 'an EPIC HERO can be included once' : `at most ${limit} of a datasheet`}`);
  }
  // the Warlord: one CHARACTER model (the scenario loader refuses another; the army command says so here)
  const warlords = units.filter((x) => x.unit.warlord);
  if (warlords.length > 1) warnings.push(`${warlords.length} Warlords (${warlords.map((x) => label(x.unit)).join(', ')}): one`);
  if (warlords.length === 0 && units.length === army.units.length) {
    const stand = defaultWarlord(army.units, (u) => byId(u.datasheetId)!, army.detachment);
    const why = stand?.must ? 'who must be (SUPREME COMMANDER)' : stand?.detachment ? `the first CHARACTER the ${stand.detachment} asks for` : 'the first CHARACTER';
    warnings.push(stand ? `no Warlord marked: a game makes ${label(stand.unit)}, ${why}, the Warlord` : 'no Warlord marked and no CHARACTER to be one: a game refuses the army');
  }
  for (const x of warlords) if (!has(x.ds, 'CHARACTER')) warnings.push(`${label(x.unit)} is the Warlord: the Warlord is a CHARACTER`);
  const enhanced = units.filter((x) => x.unit.enhancement);
  if (enhanced.length > 3) warnings.push(`${enhanced.length} Enhancements: at most 3`);
  const seen = new Set<string>();
  for (const x of enhanced) {
    const e = x.unit.enhancement!;
    if (seen.has(lookupKey(e))) warnings.push(`${e} is taken more than once: each Enhancement once`);
    seen.add(lookupKey(e));
    const w = enhancementBearerWarning(x, e, army.detachment, enhancement?.(e), byId);
    if (w) warnings.push(w);
  }
  const detachmentCheck = DETACHMENT_ARMY_CHECKS[army.detachment]?.(units);
  if (detachmentCheck) warnings.push(detachmentCheck);
  for (const x of units) warnings.push(...compositionWarnings(x), ...perModelsWargearWarnings(x), ...distinctWargearWarnings(x), ...distinctPerModelWarnings(x), ...modelWargearLimitWarnings(x));
  for (const x of units) {
    for (const a of x.ds.abilities) {
      const check = ARMY_BUILDING_ABILITIES[a];
      const w = check?.(x, units, army.detachment);
      if (w) warnings.push(w);
    }
  }
  return warnings;
}

/**
 * Each model profile within its count in the unit composition ("0-1 Shadow Spectre Exarch", "1 Voidscarred
 * Felarch"): more than its maximum is said always; fewer than its minimum only when the unit's models are
 * otherwise one of its sizes (a unit below its smallest size is already said so with its points).
 */
function compositionWarnings(x: MusterUnit): string[] {
  const out: string[] = [];
  const total = x.unit.models.reduce((n, m) => n + m.count, 0);
  const sized = x.ds.sizes.some((s) => s.models === sizedModelCount(x.ds, x.unit.models)) || x.ds.sizes.length === 0;
  for (const c of x.ds.composition) {
    const n = x.unit.models.filter((m) => lookupKey(m.profile) === lookupKey(c.profile)).reduce((k, m) => k + m.count, 0);
    if (n > c.max || (n < c.min && sized && total > 0)) {
      out.push(`${label(x.unit)} has ${n} ${c.profile}: ${x.ds.name} takes ${c.min === c.max ? c.min : `${c.min}-${c.max}`}`);
    }
  }
  return out;
}

/**
 * An option whose choices may not be duplicated ("one of the following (duplicates are not allowed)"): each
 * of its weapons or wargear carried at most once by the models it is for. An item is counted only when it
 * tells its choice apart (in no other choice of the option) and no other option of the datasheet and no
 * default loadout of those models gives it, so that a copy carried another way is not taken for a duplicate.
 */
function distinctWargearWarnings(x: MusterUnit): string[] {
  const out: string[] = [];
  const options = x.ds.wargearOptions;
  for (const o of options) {
    if (!o.distinct || !o.choices) continue;
    const forModel = (profile: string) => !o.models.length || o.models.some((p) => lookupKey(p) === lookupKey(profile));
    const otherwise = new Set<string>();
    for (const other of options) if (other !== o && (!other.models.length || other.models.some(forModel))) for (const w of other.with) otherwise.add(lookupKey(w));
    for (const [profile, loadout] of Object.entries(x.ds.defaultLoadout)) if (forModel(profile)) for (const w of loadout) otherwise.add(lookupKey(w));
    for (const item of o.with) {
      const key = lookupKey(item);
      if (otherwise.has(key) || o.choices.filter((c) => c.some((w) => lookupKey(w) === key)).length !== 1) continue;
      const carried = x.unit.models.reduce((n, m) => (forModel(m.profile) ? n + m.count * [...m.weapons, ...(m.wargear ?? [])].filter((w) => lookupKey(w) === key).length : n), 0);
      // "... unless it contains N models, in which case ... more than twice per unit"
      const size = x.unit.models.reduce((n, m) => n + m.count, 0);
      const twice = o.twiceFromModels !== undefined && size >= o.twiceFromModels;
      if (carried > (twice ? 2 : 1)) {
        out.push(twice
          ? `${label(x.unit)}: ${carried} ${item}: the datasheet allows each of its choices twice in a unit of ${o.twiceFromModels} or more models`
          : `${label(x.unit)}: ${carried} ${item}: the datasheet allows each of its choices once${o.twiceFromModels !== undefined ? ` (twice from ${o.twiceFromModels} models)` : ' (duplicates are not allowed)'}`);
      }
    }
  }
  return out;
}

/**
 * An option whose several choices one model may not duplicate ("up to two of the following, but cannot take
 * duplicates": a Broadside's two seeker missiles): each of its items at most once on a model taking it, unless
 * another option or the model's default loadout gives that item too.
 */
function distinctPerModelWarnings(x: MusterUnit): string[] {
  const out: string[] = [];
  const options = x.ds.wargearOptions;
  // the datasheet's starred items ("* This model cannot have duplicates of these pieces of wargear")
  for (const m of x.unit.models) {
    const carried = [...m.weapons, ...(m.wargear ?? [])].map(lookupKey);
    for (const item of x.ds.noDuplicates ?? []) {
      const n = carried.filter((w) => w === lookupKey(item)).length;
      if (n > 1) out.push(`${label(x.unit)}: a ${m.profile} model carries ${n} ${item}: the datasheet allows it once a model (cannot have duplicates)`);
    }
  }
  for (const o of options) {
    if (!o.distinctPerModel) continue;
    const forModel = (profile: string) => !o.models.length || o.models.some((p) => lookupKey(p) === lookupKey(profile));
    for (const m of x.unit.models) {
      if (!forModel(m.profile)) continue;
      const otherwise = new Set<string>();
      for (const other of options) if (other !== o && (!other.models.length || other.models.some((p) => lookupKey(p) === lookupKey(m.profile)))) for (const w of other.with) otherwise.add(lookupKey(w));
      for (const w of x.ds.defaultLoadout[m.profile] ?? []) otherwise.add(lookupKey(w));
      const carried = [...m.weapons, ...(m.wargear ?? [])].map(lookupKey);
      for (const item of o.with) {
        const key = lookupKey(item);
        const n = carried.filter((w) => w === key).length;
        if (n > 1 && !otherwise.has(key)) out.push(`${label(x.unit)}: a ${m.profile} model carries ${n} ${item}: the datasheet allows each of its choices once a model (cannot take duplicates)`);
      }
    }
  }
  return out;
}

/**
 * A model's wargear footnotes: two items it may not carry together (a Broadside's twin plasma rifle and twin
 * smart missile system) and the most ranged weapons it may carry (a Crisis Battlesuit's three).
 */
function modelWargearLimitWarnings(x: MusterUnit): string[] {
  const out: string[] = [];
  const { exclusiveOnModel: pairs = [], maxRangedWeaponsPerModel: maxRanged } = x.ds;
  if (!pairs.length && maxRanged === undefined) return out;
  const ranged = new Set(x.ds.weapons.filter((w) => w.profiles.some((p) => p.range !== 'Melee')).map((w) => lookupKey(w.name)));
  for (const m of x.unit.models) {
    const carried = [...m.weapons, ...(m.wargear ?? [])].map(lookupKey);
    for (const [a, b] of pairs) {
      if (carried.includes(lookupKey(a)) && carried.includes(lookupKey(b))) out.push(`${label(x.unit)}: a ${m.profile} model carries both ${a} and ${b}: the datasheet allows one of them a model`);
    }
    const n = m.weapons.filter((w) => ranged.has(lookupKey(w))).length;
    if (maxRanged !== undefined && n > maxRanged) out.push(`${label(x.unit)}: a ${m.profile} model carries ${n} ranged weapons: the datasheet allows ${maxRanged} a model`);
  }
  return out;
}

/**
 * Wargear a unit may have once for every N of its models and that replaces nothing (Aspect Shrine tokens: one
 * for every five models): no more carried than the unit's size allows.
 */
function perModelsWargearWarnings(x: MusterUnit): string[] {
  const out: string[] = [];
  const size = x.unit.models.reduce((n, m) => n + m.count, 0);
  for (const o of x.ds.wargearOptions) {
    if (!o.perModels || o.replace.length > 0 || o.with.length !== 1) continue;
    const item = lookupKey(o.with[0]);
    const carried = x.unit.models.reduce((n, m) => n + ((m.wargear ?? []).some((w) => lookupKey(w) === item) ? m.count : 0), 0);
    const allowed = Math.floor(size / o.perModels) * (typeof o.count === 'number' ? o.count : 1);
    if (carried > allowed) out.push(`${label(x.unit)}: ${carried} models carry ${o.with[0]}, at most ${allowed} for ${size} models (one for every ${o.perModels})`);
  }
  return out;
}
