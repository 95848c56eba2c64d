/**
 * Mustering: turning a datasheet and a chosen unit size and loadout into a unit of the game state.
 */
import type { Datasheet } from '../data/datasheet.ts';
import { lookupKey } from '../data/text.ts';
import { getRule } from '../core/rules-registry.ts';
import { emptyTurnFlags, type ModelState, type PlayerIndex, type UnitState } from '../core/state.ts';

export interface ModelGroupSpec {
  /** model profile name on the datasheet (or its index) */
  profile: string | number;
  count: number;
  /** weapon names this group of models is equipped with (defaults to the datasheet's default loadout) */
  weapons?: string[];
  /** other wargear these models carry (drones, shields...), as the army file names it */
  wargear?: string[];
}

export interface UnitSpec {
  id: string;
  player: PlayerIndex;
  datasheet: Datasheet;
  models: ModelGroupSpec[];
  points?: number;
  warlord?: boolean;
  enhancement?: string | null;
  /** extra rule names this unit plays (enhancement effects...) */
  extraAbilities?: string[];
  /** keywords the unit gains from its army's rules (Rule.musterGrants) */
  extraKeywords?: string[];
  /** the army unit this new unit comes back as (JOIN THE HUNT): UnitState.returnOf */
  returnOf?: string;
}

export function profileIndex(ds: Datasheet, profile: string | number): number {
  if (typeof profile === 'number') {
    if (profile < 0 || profile >= ds.models.length) throw new Error(`${ds.name}: no model profile #${profile}`);
    return profile;
  }
  const norm = (s: string) => s.toLowerCase().replace(/[’']/g, "'");
  const i = ds.models.findIndex((m) => norm(m.name) === norm(profile));
  if (i >= 0) return i;
  // army lists name models as the unit composition does ("Fire Warrior Shas'ui"); the composition entry
  // says which model profile holds their characteristics
  const comp = ds.composition.find((c) => norm(c.profile) === norm(profile));
  if (comp?.statsProfile) {
    const j = ds.models.findIndex((m) => norm(m.name) === norm(comp.statsProfile!));
    if (j >= 0) return j;
  }
  if (ds.models.length === 1) return 0;
  throw new Error(`${ds.name}: no model profile named "${profile}" (known: ${ds.models.map((m) => m.name).join(', ')})`);
}

/** Rule names a datasheet plays: its core abilities and its own abilities, each resolved by the registry. */
export function datasheetAbilities(ds: Datasheet): string[] {
  const out: string[] = [];
  for (const c of ds.coreAbilities) if (!out.includes(c.name)) out.push(c.name);
  for (const a of ds.abilities) if (!out.includes(a)) out.push(a);
  return out;
}

/**
 * What the army's rules give a unit of this datasheet at muster (Rule.musterGrants): the abilities and
 * keywords it gains, each once, in the rules' order.
 */
export function musterGrants(armyRules: readonly string[], ds: Datasheet): { abilities: string[]; keywords: string[] } {
  const out = { abilities: [] as string[], keywords: [] as string[] };
  const keywords = [...ds.keywords, ...ds.factionKeywords];
  const abilities = datasheetAbilities(ds);
  for (const name of armyRules) {
    const grant = getRule(name)?.musterGrants?.(keywords, abilities);
    for (const a of grant?.abilities ?? []) if (!out.abilities.includes(a)) out.abilities.push(a);
    for (const k of grant?.keywords ?? []) if (!out.keywords.includes(k)) out.keywords.push(k);
  }
  return out;
}

/** A wargear name without its "(Aura)"-like tag, compared as lookupKey does. */
const wargearKey = (name: string) => lookupKey(name.replace(/\s*\(.*?\)/g, ''));

/**
 * The wargear abilities (by their datasheet names, "Command-link Drone (Aura)") a model of this profile
 * carries. When the army names the model's wargear: that, and the wargear of the profile's default loadout
 * that no wargear option can replace (Shadowsun's drones: a list export need not name them); when it names
 * none, the default loadout's wargear (Heavy Gun Drones' Markerlight). Wargear without an ability in the
 * data (a Gun drone) plays no rule and is left out.
 */
export function carriedWargearAbilities(ds: Datasheet, profile: string, named?: readonly string[]): string[] {
  const abilities = ds.wargearAbilities ?? [];
  if (!abilities.length) return [];
  const weapons = new Set(ds.weapons.map((w) => lookupKey(w.name)));
  const replaceable = new Set((ds.wargearOptions ?? []).flatMap((o) => o.replace).map(wargearKey));
  const defaults = (ds.defaultLoadout[profile] ?? []).filter((n) => !weapons.has(lookupKey(n)));
  const fixed = named === undefined ? defaults : defaults.filter((n) => !replaceable.has(wargearKey(n)));
  const carried = new Set([...(named ?? []), ...fixed].map(wargearKey));
  return abilities.filter((a) => carried.has(wargearKey(a)));
}

export function createUnitState(spec: UnitSpec): UnitState {
  const ds = spec.datasheet;
  const models: ModelState[] = [];
  let n = 0;
  for (const group of spec.models) {
    const pi = profileIndex(ds, group.profile);
    const prof = ds.models[pi];
    // the default loadout is keyed by the unit composition's names ("Lead Player"), else the profile's
    const loadoutKey = typeof group.profile === 'string' && ds.defaultLoadout[group.profile] ? group.profile : prof.name;
    // a default loadout may name wargear beside the weapons (Shadowsun's drones)
    const weapons = group.weapons ?? ds.defaultLoadout[loadoutKey]?.filter((w) => ds.weapons.some((x) => x.name === w)) ?? ds.weapons.map((w) => w.name);
    const wargear = carriedWargearAbilities(ds, loadoutKey, group.wargear);
    for (const w of weapons) {
      if (!ds.weapons.some((x) => x.name === w)) throw new Error(`${ds.name}: model "${prof.name}" has no weapon "${w}"`);
    }
    for (let k = 0; k < group.count; k++) {
      models.push({
        id: `${spec.id}-m${++n}`, origin: spec.id, datasheet: ds.id, profile: pi, name: typeof group.profile === 'string' ? group.profile : prof.name,
        // always present (undefined when none: the log's JSON leaves it out), so every model has one shape
        wounds: prof.wounds, pos: null, weapons: weapons.slice(), alive: true, allocated: false, wargear: wargear.length ? wargear.slice() : undefined,
      });
    }
  }
  const keywords = [...ds.keywords, ...ds.factionKeywords];
  for (const k of spec.extraKeywords ?? []) if (!keywords.includes(k)) keywords.push(k);
  // a unit has the keywords of its models: those only some profiles have (Aun'Va's CHARACTER, a Way Seeker's PSYKER)
  for (const m of models) for (const k of ds.modelKeywords?.[m.name] ?? []) if (!keywords.includes(k)) keywords.push(k);
  const abilities = [...datasheetAbilities(ds), ...(spec.extraAbilities ?? [])];
  // an Enhancement may give its bearer a keyword (Internal Grenade Racks: GRENADES) or its unit an ability
  // (Fanatical Convert: For the Greater Good), as wargear does below
  for (const a of spec.extraAbilities ?? []) {
    const rule = getRule(a);
    for (const k of rule?.grantsKeywords ?? []) if (!keywords.includes(k)) keywords.push(k);
    for (const x of rule?.grantsAbilities ?? []) if (!abilities.includes(x)) abilities.push(x);
  }
  // the unit plays the abilities of the wargear its models carry (the rules ask which model is the bearer),
  // and has the keywords such wargear gives
  for (const m of models) {
    for (const w of m.wargear ?? []) {
      const rule = getRule(w);
      for (const a of [w, ...(rule?.grantsAbilities ?? [])]) if (!abilities.includes(a)) abilities.push(a);
      for (const k of rule?.grantsKeywords ?? []) if (!keywords.includes(k)) keywords.push(k);
      for (const k of rule?.removesKeywords ?? []) if (keywords.includes(k)) keywords.splice(keywords.indexOf(k), 1);
    }
  }
  return {
    id: spec.id, player: spec.player, datasheet: ds.id, name: ds.name, models,
    startingStrength: models.length,
    components: [{ unit: spec.id, datasheet: ds.id, name: ds.name, startingStrength: models.length, isLeader: false, destroyed: false, keywords, abilities }],
    attachedTo: null, location: 'unplaced', embarkedIn: null, keywords: keywords.slice(), abilities: abilities.slice(),
    battleShocked: false, flags: emptyTurnFlags(), warlord: spec.warlord ?? false, enhancement: spec.enhancement ?? null,
    points: spec.points ?? 0, stats: { woundsDealt: 0, woundsTaken: 0, modelsKilled: 0 },
    // only on a unit that comes back, so every other unit's log entry is as before
    ...(spec.returnOf ? { returnOf: spec.returnOf } : {}),
  };
}
