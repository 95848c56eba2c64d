/**
 * The calculator's input built from the data: `calc --attacker <unit> --weapon <profile> --defender <unit>
 * [--data <export dir>]`. A list builder asks "what do these guns do to that unit" by name; writing the profiles out by hand
 * was the only way before. The result is the same JSON a file holds (checked by the same schema), so
 * `--save-input` can write it for editing.
 */
import { diceExprToString } from '../core/dice-expr.ts';
import type { Datasheet, WeaponProfile } from '../data/datasheet.ts';
import { abilityText } from './format.ts';
import { bundledSource, type CatalogSource } from '../data/catalog.ts';
import { closestNames } from '../data/fuzzy.ts';
import { lookupKey } from '../data/text.ts';
import { getWeaponAbility } from '../rules/weapon-abilities.ts';

export interface FromDataOptions {
  attacker: string;
  weapon: string;
  defender: string;
  /** attacking models with the weapon (default: the minimum unit's models carrying it by default) */
  models?: number;
  /** models in the target unit (default: its minimum unit size) */
  targets?: number;
  halfRange?: boolean;
  charged?: boolean;
  stationary?: boolean;
  cover?: boolean;
}

export interface FromData {
  /** the calculator input, as a file would hold it */
  input: Record<string, unknown>;
  /** what was assumed or left out, one line each */
  notes: string[];
}

/**
 * The datasheet of that name in the first source that has it (an export given with --data, then the bundled
 * data): a name several factions share is the first faction's (by the source's order).
 */
function findDatasheet(option: string, name: string, sources: readonly CatalogSource[]): Datasheet {
  const key = lookupKey(name);
  const names: string[] = [];
  for (const src of sources) {
    for (const f of src.factions()) {
      const unitNames = src.unitNames(f.id);
      names.push(...unitNames);
      if (unitNames.some((n) => lookupKey(n) === key)) {
        const sheet = src.load(f.id).byName(name);
        if (sheet) return sheet;
      }
    }
  }
  throw new Error(`${option}: no datasheet is named "${name}" in the ${sources.map((s) => s.label).join(' or the ')} (closest: ${closestNames(name, names).join(', ')})`);
}

/**
 * The weapon profile named: a profile's full name, or a weapon's when it has one profile. A ranged and a melee
 * profile of the same name (Shining Spears' Laser lance) are told apart by a "(ranged)" or "(melee)" after the
 * name; without it the name is refused, listing both (the first one found was taken, so a melee profile could
 * not be asked for).
 */
function findProfile(sheet: Datasheet, name: string): { weapon: string; profile: WeaponProfile } {
  const kind = /\((melee|ranged)\)\s*$/i.exec(name)?.[1]?.toLowerCase() as 'melee' | 'ranged' | undefined;
  const key = lookupKey(kind ? name.replace(/\((melee|ranged)\)\s*$/i, '') : name);
  const matches = sheet.weapons.flatMap((w) => w.profiles.filter((x) => lookupKey(x.name) === key).map((profile) => ({ weapon: w.name, profile })))
    .filter((m) => !kind || (m.profile.range === 'Melee') === (kind === 'melee'));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    const label = (p: WeaponProfile) => (p.range === 'Melee' ? `"${p.name} (melee)"` : `"${p.name} (ranged)" (${p.range}")`);
    const kinds = new Set(matches.map((m) => m.profile.range === 'Melee'));
    if (kinds.size > 1) throw new Error(`--weapon: ${sheet.name} has ${matches.length} profiles named "${matches[0].profile.name}": name one as ${matches.map((m) => label(m.profile)).join(' or ')}`);
    // the same profile carried twice (a weapon listed for two models): one
    return matches[0];
  }
  const all = sheet.weapons.flatMap((w) => w.profiles.map((p) => p.name));
  const weapon = sheet.weapons.find((w) => lookupKey(w.name) === key);
  if (weapon?.profiles.length === 1) return { weapon: weapon.name, profile: weapon.profiles[0] };
  if (weapon) throw new Error(`--weapon: ${weapon.name} has ${weapon.profiles.length} profiles: name one (${weapon.profiles.map((p) => p.name).join(', ')})`);
  throw new Error(`--weapon: ${sheet.name} has no weapon "${name}" (its weapons: ${all.join(', ')})`);
}

export function calcInputFromData(o: FromDataOptions, sources: readonly CatalogSource[] = [bundledSource()]): FromData {
  const attacker = findDatasheet('--attacker', o.attacker, sources);
  const defender = findDatasheet('--defender', o.defender, sources);
  const { weapon, profile } = findProfile(attacker, o.weapon);
  const notes: string[] = [];
  const melee = profile.range === 'Melee';

  // the minimum unit's models that carry the weapon in their default loadout (each copy counts: "2 shuriken cannons")
  let carried = 0;
  for (const c of attacker.composition) carried += c.min * (attacker.defaultLoadout[c.profile] ?? []).filter((x) => lookupKey(x) === lookupKey(weapon)).length;
  const models = o.models ?? Math.max(1, carried);
  if (o.models === undefined && carried === 0) notes.push(`no model of ${attacker.name} carries ${weapon} by default: 1 model fires it (--models N)`);

  const abilities: string[] = [];
  for (const a of profile.abilities) {
    if (getWeaponAbility(a.name)) abilities.push(abilityText(a));
    else notes.push(`${profile.name}'s ${a.name} is left out (the calculator does not play it)`);
  }

  // the target's profile: its most numerous models' (a unit of several profiles is played as one)
  const main = [...defender.composition].sort((a, b) => b.min - a.min)[0];
  const stats = defender.models.find((m) => m.name === (main?.statsProfile ?? main?.profile)) ?? defender.models[0];
  const others = defender.models.filter((m) => m !== stats && (m.toughness !== stats.toughness || m.save !== stats.save || m.wounds !== stats.wounds || m.invulnerable !== stats.invulnerable));
  if (others.length) notes.push(`the models of ${defender.name} differ (${[stats, ...others].map((m) => `${m.name}: T${m.toughness} Sv${m.save}+ W${m.wounds}`).join('; ')}): every target model is played as ${stats.name}`);
  const invulnerable = melee ? (stats.invulnerableMelee ?? (stats.invulnerableRangedOnly ? null : stats.invulnerable)) : stats.invulnerable;
  const fnp = defender.coreAbilities.find((a) => a.name === 'Feel No Pain')?.x ?? null;
  const targets = o.targets ?? defender.sizes[0]?.models ?? 1;

  const input = {
    attacker: {
      models,
      weapon: {
        name: profile.name,
        range: profile.range,
        attacks: diceExprToString(profile.attacks),
        // a TORRENT weapon's "N/A" is read as 0
        skill: profile.skill || 'N/A',
        strength: profile.strength,
        ap: profile.ap,
        damage: diceExprToString(profile.damage),
        abilities,
      },
      modifiers: { halfRange: !!o.halfRange, charged: !!o.charged, remainedStationary: !!o.stationary },
    },
    defender: {
      models: targets,
      toughness: stats.toughness,
      save: stats.save,
      invulnerable,
      wounds: stats.wounds,
      feelNoPain: fnp,
      keywords: defender.keywords,
      cover: !!o.cover,
      stealth: defender.coreAbilities.some((a) => a.name === 'Stealth'),
    },
  };
  return { input, notes };
}
