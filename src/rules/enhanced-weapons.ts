/**
 * Enhancements that change one weapon of their bearer (Rule.enhancedWeapon): before the units are
 * mustered, one copy of the weapon the bearer carries is renamed to the enhanced weapon, which is added
 * to (a copy of) the bearer's datasheet with the changed profiles. From then on it is an ordinary weapon:
 * shooting, the agents' estimates and the calculator read its profile like any other.
 */
import { getRule } from '../core/rules-registry.ts';
import type { Datasheet } from '../data/datasheet.ts';
import type { ResolvedPlayer } from '../data/scenario-types.ts';
import { lookupKey } from '../data/text.ts';

/** The name of the enhanced weapon of an Enhancement. */
export function enhancedWeaponName(weapon: string, enhancement: string): string {
  return `${weapon} (${enhancement})`;
}

/**
 * The player with its Enhancements' weapons in place (the player itself when none applies): the datasheets
 * concerned are copied, never changed in place (they are the catalog's).
 */
export function withEnhancedWeapons(p: ResolvedPlayer): ResolvedPlayer {
  let datasheets: Record<string, Datasheet> | null = null;
  const units = p.army.units.map((au) => {
    const spec = au.enhancement ? getRule(au.enhancement)?.enhancedWeapon : undefined;
    if (!spec) return au;
    const ds = (datasheets ?? p.datasheets)[au.datasheetId];
    const base = ds?.weapons.find((w) => lookupKey(w.name) === lookupKey(spec.weapon));
    // the bearer: the unit's (a CHARACTER's) model that carries the weapon
    const mi = au.models.findIndex((m) => m.weapons.some((w) => lookupKey(w) === lookupKey(spec.weapon)));
    if (!ds || !base || mi < 0) return au;
    const name = enhancedWeaponName(base.name, au.enhancement!);
    datasheets ??= { ...p.datasheets };
    if (!ds.weapons.some((w) => w.name === name)) {
      datasheets[ds.id] = { ...ds, weapons: [...ds.weapons, { name, profiles: base.profiles.map((x) => ({ ...spec.change(x), name: enhancedWeaponName(x.name, au.enhancement!) })) }] };
    }
    const models = au.models.map((m, j) => {
      if (j !== mi) return m;
      const k = m.weapons.findIndex((w) => lookupKey(w) === lookupKey(spec.weapon));
      return { ...m, weapons: m.weapons.map((w, i) => (i === k ? name : w)) };
    });
    // a group of several models would give every one of them the enhanced weapon: keep it to one model
    if (models[mi].count > 1) {
      const rest = { ...au.models[mi], count: au.models[mi].count - 1 };
      models.splice(mi, 1, { ...models[mi], count: 1 }, rest);
    }
    return { ...au, models };
  });
  return datasheets ? { ...p, datasheets, army: { ...p.army, units } } : p;
}
