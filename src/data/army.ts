/**
 * The army file: an army list resolved against the datasheets, ready to muster. Written by
 * `army <list.txt> --out`, or by hand; either way it is checked with the zod schema below, and errors
 * name the file, the field path and what was expected.
 */
import { readFileSync, existsSync } from 'node:fs';
import { z } from 'zod';
import { DataError } from './errors.ts';
import { unknownFieldMessage } from './unknown-field.ts';
import { knownDetachments, type FactionCatalog } from './catalog.ts';
import { sizedModelCount, type Datasheet } from './datasheet.ts';
import { musterWarnings } from './muster-checks.ts';
import { mayLead } from './leader-stand-ins.ts';
import { mayJoinAsLeader, ONE_LEADER_RULE } from './bodyguard.ts';
import { lookupKey } from './text.ts';
import { closestNames } from './fuzzy.ts';
import { bundledNamesake } from './project-path.ts';

/** Points limit of each battle size. */
export const BATTLE_SIZES = { Incursion: 1000, 'Strike Force': 2000, Onslaught: 3000, 'Boarding Actions': 500 } as const;
export type BattleSizeName = keyof typeof BATTLE_SIZES;

export interface ArmyModelGroup {
  /** the model's name in the datasheet's unit composition ("Fire Warrior Shas'ui") */
  profile: string;
  count: number;
  /** weapons each of these models carries, by the datasheet's weapon names (repeated when it carries two) */
  weapons: string[];
  /** other wargear each of these models carries (drones, shield generators...) */
  wargear?: string[];
}

export interface ArmyUnit {
  /** stable id within the army: "u1", "u2"... */
  id: string;
  datasheetId: string;
  name: string;
  points: number;
  models: ArmyModelGroup[];
  enhancement?: string;
  warlord?: boolean;
  /** id of the Bodyguard unit this Leader starts attached to */
  attachedTo?: string;
}

export interface ArmyFile {
  name: string;
  /** faction id of the data (TAU, AE, SM...) */
  faction: string;
  factionName?: string;
  /** e.g. "Space Wolves" for a Space Marines list */
  subfaction?: string;
  /** detachment name; '' when the list names none */
  detachment: string;
  battleSize: { name: BattleSizeName; pointsLimit: number };
  /** total points of the units */
  points: number;
  units: ArmyUnit[];
  /** what did not match the data (points, sizes, names): reported, not fatal */
  warnings?: string[];
}

const name = z.string().min(1, 'expected a non-empty string');

/** The most models a unit of an army file may have (far above any datasheet's unit size). */
export const MAX_UNIT_MODELS = 100;

export const armyModelGroupSchema = z.strictObject({
  profile: name,
  count: z.number().int().positive(),
  weapons: z.array(name),
  wargear: z.array(name).optional(),
});

export const armyUnitSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected an id of letters, digits, "-" or "_" (e.g. "u1")'),
  datasheetId: name,
  name,
  points: z.number().int().nonnegative(),
  models: z.array(armyModelGroupSchema).min(1, 'expected at least one model group'),
  enhancement: name.optional(),
  warlord: z.boolean().optional(),
  attachedTo: name.optional(),
});

export const armyFileSchema = z.strictObject({
  name,
  faction: name,
  factionName: name.optional(),
  subfaction: name.optional(),
  detachment: z.string(),
  battleSize: z.strictObject({
    name: z.enum(['Incursion', 'Strike Force', 'Onslaught', 'Boarding Actions']),
    pointsLimit: z.number().int().positive(),
  }),
  points: z.number().int().nonnegative(),
  units: z.array(armyUnitSchema).min(1, 'expected at least one unit'),
  warnings: z.array(z.string()).optional(),
}).superRefine((army, ctx) => {
  const ids = new Set<string>();
  army.units.forEach((u, i) => {
    if (ids.has(u.id)) ctx.addIssue({ code: 'custom', path: ['units', i, 'id'], message: `duplicate unit id ${JSON.stringify(u.id)}` });
    ids.add(u.id);
  });
  army.units.forEach((u, i) => {
    // a unit's models are all set up as objects before any room on the table is checked: a count no
    // datasheet comes near (the data's largest unit is 22 models) is a typing mistake, not an army
    const models = u.models.reduce((t, g) => t + g.count, 0);
    if (models > MAX_UNIT_MODELS) ctx.addIssue({ code: 'custom', path: ['units', i, 'models'], message: `expected at most ${MAX_UNIT_MODELS} models in a unit, found ${models}` });
  });
  army.units.forEach((u, i) => {
    if (u.attachedTo && !ids.has(u.attachedTo)) {
      ctx.addIssue({ code: 'custom', path: ['units', i, 'attachedTo'], message: `expected the id of a unit of this army, found ${JSON.stringify(u.attachedTo)}` });
    }
  });
  if (army.units.filter((u) => u.warlord).length > 1) ctx.addIssue({ code: 'custom', path: ['units'], message: 'expected at most one Warlord' });
});

/** "units[2].models[0].count" */
export function fieldPath(p: readonly PropertyKey[]): string {
  return p.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '') || '(root)';
}

/** Validate parsed JSON as an army file; throws DataError naming `file`, the field and what was expected. */
export function validateArmy(value: unknown, file = 'army'): ArmyFile {
  const r = armyFileSchema.safeParse(value);
  if (r.success) return r.data as ArmyFile;
  // a misspelt field is told with the fields expected there and the likely one
  const issues = r.error.issues.map((i) => `${fieldPath(i.path)}: ${i.code === 'unrecognized_keys' ? unknownFieldMessage(armyFileSchema, i) : i.message}`);
  throw new DataError(`${file}: invalid army file: ${issues.slice(0, 10).join('; ')}${issues.length > 10 ? `; and ${issues.length - 10} more` : ''}`, file);
}

/** The datasheet's own name of a weapon an army names (case and punctuation aside), or undefined: not its weapon. */
export function dataWeaponName(ds: Datasheet, name: string): string | undefined {
  const key = lookupKey(name);
  return ds.weapons.find((w) => lookupKey(w.name) === key)?.name;
}

/** The datasheet's weapons closest to a name it does not have, for messages. */
export function closestWeapons(ds: Datasheet, name: string): string {
  return closestNames(name, [...new Set(ds.weapons.map((w) => w.name))]).join(', ');
}

/**
 * Check an army against its faction's datasheets: every datasheet id, model profile and enhancement
 * must exist, and Leaders may only be attached to units they can lead. Throws DataError; returns
 * warnings for points that do not match the data and for weapons or wargear the datasheet does not
 * have (the scenario loader refuses such a weapon: a game cannot play it).
 */
/** A warning for a detachment name the faction's data does not have, with the closest names; null when it has it or none is named. */
export function unknownDetachmentWarning(catalog: FactionCatalog, detachment: string): string | null {
  const known = knownDetachments(catalog).map((d) => d.name);
  if (!detachment || known.some((n) => lookupKey(n) === lookupKey(detachment))) return null;
  return `detachment "${detachment}" is not a ${catalog.faction.name} detachment in the data; closest: ${closestNames(detachment, known).join(', ')}`;
}

/**
 * What the unit's optional models cost beyond its size's price: the datasheet's extra costs of the profiles it
 * has, or of the wargear its models carry (a Tidewall Shieldline's Tidewall Defence Platform, +20, is wargear).
 */
export function optionalModelsCost(ds: Datasheet, models: readonly { profile: string; wargear?: readonly string[] }[]): number {
  let points = 0;
  const has = (name: string) => models.some((m) => lookupKey(m.profile) === lookupKey(name) || (m.wargear ?? []).some((w) => lookupKey(w) === lookupKey(name)));
  for (const extra of ds.extraCosts ?? []) if (has(extra.profile)) points += extra.points;
  return points;
}

/** Points the data gives this unit: its size, optional models' costs, its enhancement; null when its model count is no size of the datasheet. */
export function unitPointsFromData(u: ArmyUnit, ds: Datasheet, catalog: FactionCatalog, detachment?: string | null): number | null {
  const n = sizedModelCount(ds, u.models);
  const size = ds.sizes.find((s) => s.models === n);
  if (!size) return null;
  let points = size.points + optionalModelsCost(ds, u.models);
  if (u.enhancement) points += catalog.enhancement(u.enhancement, detachment ?? undefined)?.cost ?? 0;
  return points;
}

/**
 * An army's points against the data and a battle size: each unit's price, the file's total against its units',
 * and the total against the limit. Warnings only: a list may be priced from another points update. One check for
 * the `army` command (the file's own detachment and battle size) and the scenario loader (the game's).
 */
export function armyPointsWarnings(army: ArmyFile, catalog: FactionCatalog, detachment: string | null, battleSize: { name: string; pointsLimit: number }): string[] {
  const warnings: string[] = [];
  let total = 0;
  for (const u of army.units) {
    total += u.points;
    const ds = catalog.byId(u.datasheetId);
    if (!ds) continue;
    const data = unitPointsFromData(u, ds, catalog, detachment);
    if (data === null) warnings.push(`${u.name} (${u.id}) has ${sizedModelCount(ds, u.models)} models, not a unit size of the datasheet (${ds.sizes.map((s) => s.models).join(', ')})`);
    else if (data !== u.points) warnings.push(`${u.name} (${u.id}) is priced ${u.points} points; the data says ${data}`);
  }
  if (total !== army.points) warnings.push(`the army file says ${army.points} points; its units total ${total}`);
  if (total > battleSize.pointsLimit) warnings.push(`${total} points is over the ${battleSize.name} limit of ${battleSize.pointsLimit}`);
  return warnings;
}

export function checkArmyAgainstCatalog(army: ArmyFile, catalog: FactionCatalog, file = 'army'): string[] {
  const warnings: string[] = [];
  const unknownDetachment = unknownDetachmentWarning(catalog, army.detachment);
  if (unknownDetachment) warnings.push(`${unknownDetachment}: a game refuses it unless its scenario names another`);
  const fail = (p: (string | number)[], msg: string) => { throw new DataError(`${file}: ${fieldPath(p)}: ${msg}`, file); };
  // Leaders already attached to each Bodyguard unit (by their datasheet ids), in the order of the file
  const ledBy = new Map<string, { names: string[]; datasheets: Datasheet[] }>();
  army.units.forEach((u, i) => {
    const ds = catalog.byId(u.datasheetId);
    if (!ds) {
      // a datasheet's name written for its id: say the id; else the closest names with theirs
      const named = catalog.byName(u.datasheetId) ?? catalog.byName(u.name);
      const hint = named
        ? `; ${JSON.stringify(named.name)} is datasheet ${JSON.stringify(named.id)}`
        : `; closest: ${closestNames(u.datasheetId, catalog.names()).map((n) => `${n} (${catalog.byName(n)!.id})`).join(', ')}`;
      return fail(['units', i, 'datasheetId'], `expected a datasheet id of ${catalog.faction.name} (the data's id, as \`army --out\` writes it), found ${JSON.stringify(u.datasheetId)}${hint}`);
    }
    const profiles = ds.composition.map((c) => c.profile);
    const known = new Set([
      ...ds.weapons.map((w) => lookupKey(w.name)),
      ...(ds.wargear ?? []).map(lookupKey),
      ...(ds.wargearAbilities ?? []).map(lookupKey),
      ...Object.values(ds.defaultLoadout).flat().map(lookupKey),
    ]);
    u.models.forEach((m, j) => {
      if (!profiles.some((p) => lookupKey(p) === lookupKey(m.profile))) {
        fail(['units', i, 'models', j, 'profile'], `expected one of ${profiles.map((p) => JSON.stringify(p)).join(', ')} (${ds.name}), found ${JSON.stringify(m.profile)}`);
      }
      // a weapon must be one of the datasheet's for a game to play it (the scenario loader refuses it)
      for (const w of m.weapons) {
        if (dataWeaponName(ds, w) === undefined) {
          warnings.push(`units[${i}].models[${j}]: ${JSON.stringify(w)} is not a weapon of ${ds.name} in the data; a game refuses it until the army names one of its weapons (closest: ${closestWeapons(ds, w)})`);
        }
      }
      for (const w of m.wargear ?? []) {
        if (!known.has(lookupKey(w))) warnings.push(`units[${i}].models[${j}]: ${JSON.stringify(w)} is not wargear of ${ds.name} in the data`);
      }
    });
    if (u.enhancement && !catalog.enhancement(u.enhancement)) {
      fail(['units', i, 'enhancement'], `expected an enhancement of ${catalog.faction.name}, found ${JSON.stringify(u.enhancement)}; closest: ${closestNames(u.enhancement, catalog.data.enhancements.map((e) => e.name)).join(', ')}`);
    }
    if (u.attachedTo) {
      const target = army.units.find((x) => x.id === u.attachedTo)!;
      const tds = catalog.byId(target.datasheetId);
      if (!tds || !mayLead(ds, tds)) return fail(['units', i, 'attachedTo'], `${ds.name} cannot lead ${target.name}`);
      // a second Leader only where the Bodyguard's rules allow one (a warning: a scenario may detach one;
      // the scenario loader refuses the pair otherwise)
      const led = ledBy.get(target.id) ?? { names: [], datasheets: [] };
      const size = target.models.reduce((n, m) => n + m.count, 0);
      if (led.names.length > 0 && !mayJoinAsLeader(tds, size, led.datasheets, ds)) {
        warnings.push(`units[${i}].attachedTo: ${target.name} (${target.id}) already has a Leader (${led.names.join(', ')}); ${ONE_LEADER_RULE}, so a game refuses the army until one is detached`);
      } else {
        ledBy.set(target.id, { names: [...led.names, `${u.name} (${u.id})`], datasheets: [...led.datasheets, ds] });
      }
    }
  });
  warnings.push(...musterWarnings(army, (id) => catalog.byId(id), (name) => catalog.enhancement(name, army.detachment)));
  return warnings;
}

/** Is this path an army file (JSON), rather than a list export? By its extension, in any case (ARMY.JSON). */
export function isArmyFile(file: string): boolean {
  return file.toLowerCase().endsWith('.json');
}

/** A list export's or army file's text; a folder or an unreadable file is bad input naming it. */
export function readListFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DataError(`${file}: ${code === 'EISDIR' ? 'expected an army list export (.txt) or an army file (.json), found a folder' : `cannot read (${code ?? String(e)})`}`, file);
  }
}

/** Read, parse and validate a hand-written or generated army file. */
export function loadArmyFile(file: string): ArmyFile {
  if (!existsSync(file)) throw new DataError(`${file}: army file not found${bundledNamesake(file)}`, file);
  let json: unknown;
  try {
    // a byte-order mark (an editor's) is no part of the JSON
    json = JSON.parse(readListFile(file).replace(/^\ufeff/, ''));
  } catch (e) {
    if (e instanceof DataError) throw e;
    throw new DataError(`${file}: not valid JSON (${(e as Error).message})`, file);
  }
  return validateArmy(json, file);
}

/** Battle size from the points limit or, failing that, the army's points. */
export function battleSizeFor(points: number): BattleSizeName {
  return points <= 1000 ? 'Incursion' : points <= 2000 ? 'Strike Force' : 'Onslaught';
}
