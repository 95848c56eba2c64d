/**
 * T'au Empire Enhancements the engine plays: the Experimental Prototype Cadre's four, each a change to
 * one weapon of its bearer (Rule.enhancedWeapon, src/rules/enhanced-weapons.ts). Not in RULES.md: written
 * from the data export's Enhancements, in the engine's words.
 */
import { registerRule } from '../../core/rules-registry.ts';
import type { DiceExpr, WeaponProfile } from '../../data/datasheet.ts';

const plus = (d: DiceExpr, n: number): DiceExpr => ({ ...d, plus: d.plus + n });

/** A weapon ability set to `x` (replacing the profile's own of that name). */
function withAbility(p: WeaponProfile, name: string, x: number): WeaponProfile['abilities'] {
  return [...p.abilities.filter((a) => a.name !== name), { name, x }];
}

/** Supernova Launcher: one airbursting fragmentation projector: Strength +3, AP and Damage improved by 1. */
registerRule({
  name: 'Supernova Launcher', kind: 'enhancement',
  enhancedWeapon: { weapon: 'Airbursting fragmentation projector', change: (p) => ({ ...p, strength: p.strength + 3, ap: p.ap - 1, damage: plus(p.damage, 1) }) },
});

/** Thermoneutronic Projector: one T'au flamer: Strength +2, AP and Damage improved by 1. */
registerRule({
  name: 'Thermoneutronic Projector', kind: 'enhancement',
  enhancedWeapon: { weapon: "T'au flamer", change: (p) => ({ ...p, strength: p.strength + 2, ap: p.ap - 1, damage: plus(p.damage, 1) }) },
});

/** Plasma Accelerator Rifle: one plasma rifle: Strength +2, Attacks, AP and Damage improved by 1. */
registerRule({
  name: 'Plasma Accelerator Rifle', kind: 'enhancement',
  enhancedWeapon: { weapon: 'Plasma rifle', change: (p) => ({ ...p, strength: p.strength + 2, attacks: plus(p.attacks, 1), ap: p.ap - 1, damage: plus(p.damage, 1) }) },
});

/** Fusion Blades: one fusion blaster: Attacks +1, Strength +3, and MELTA 4. */
registerRule({
  name: 'Fusion Blades', kind: 'enhancement',
  enhancedWeapon: { weapon: 'Fusion blaster', change: (p) => ({ ...p, attacks: plus(p.attacks, 1), strength: p.strength + 3, abilities: withAbility(p, 'MELTA', 4) }) },
});
