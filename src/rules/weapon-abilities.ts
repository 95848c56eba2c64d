/**
 * Weapon abilities: one registry entry each. An entry folds its effect into the Attack plan at the
 * moment the plan is built for a group of attacks. Abilities that decide who may shoot or fight
 * (ASSAULT, PISTOL, ONE SHOT, EXTRA ATTACKS) or that act after the attacks (HAZARDOUS) only mark the
 * plan or are read by the phases; they still have an entry so the engine knows it plays them.
 */
import type { WeaponAbility } from '../data/datasheet.ts';
import type { AttackContext } from './attack-context.ts';
import type { Game } from '../core/game.ts';
import type { UnitState } from '../core/state.ts';
import { widerReroll, type AttackPlan } from './attack-plan.ts';

export interface WeaponAbilityRule {
  name: string;
  compile(plan: AttackPlan, ability: WeaponAbility, ctx: AttackContext): void;
  /** after a group of the weapon's attacks scored one hit or more on the target (HOOKED) */
  scoredHit?(g: Game, attacker: UnitState, target: UnitState): void;
}

const registry = new Map<string, WeaponAbilityRule>();

export function registerWeaponAbility(rule: WeaponAbilityRule): void {
  if (registry.has(rule.name)) throw new Error(`weapon ability "${rule.name}" is registered twice`);
  registry.set(rule.name, rule);
}

export function getWeaponAbility(name: string): WeaponAbilityRule | undefined {
  return registry.get(name);
}

export function weaponAbilityNames(): string[] {
  return [...registry.keys()];
}

function x(a: WeaponAbility): number {
  return a.x ?? 0;
}

const entries: WeaponAbilityRule[] = [
  // Each Critical Hit scores X additional hits (not Critical Hits). Not cumulative with itself: the best X.
  // X may be a dice expression (the Avatar's Wailing Doom: D3), rolled for each Critical Hit.
  {
    name: 'SUSTAINED HITS',
    compile: (p, a) => {
      if (a.dice) p.sustainedHitsDice = a.dice;
      else p.sustainedHits = Math.max(p.sustainedHits, x(a));
    },
  },
  // A Critical Hit automatically wounds; it is not a Critical Wound.
  { name: 'LETHAL HITS', compile: (p) => { p.lethalHits = true; } },
  // A Critical Wound inflicts mortal wounds equal to Damage instead, with no save.
  { name: 'DEVASTATING WOUNDS', compile: (p) => { p.devastatingWounds = true; } },
  // +1 attack for every five models in the target when it was selected.
  { name: 'BLAST', compile: (p, _a, c) => { p.attacksBonus += Math.floor(c.targetModels / 5); } },
  { name: 'HAZARDOUS', compile: (p) => { p.hazardous = true; } },
  { name: 'PRECISION', compile: (p) => { p.precision = true; } },
  { name: 'IGNORES COVER', compile: (p) => { p.ignoresCover = true; } },
  // Eligibility rules read by the Shooting phase (Advanced units may shoot ASSAULT weapons...).
  { name: 'ASSAULT', compile: (p) => { p.tags.push('ASSAULT'); } },
  { name: 'PISTOL', compile: (p) => { p.tags.push('PISTOL'); } },
  { name: 'ONE SHOT', compile: (p) => { p.tags.push('ONE SHOT'); } },
  { name: 'EXTRA ATTACKS', compile: (p) => { p.tags.push('EXTRA ATTACKS'); } },
  { name: 'PSYCHIC', compile: (p) => { p.tags.push('PSYCHIC'); } },
  // +X attacks when the target is within half range.
  { name: 'RAPID FIRE', compile: (p, a, c) => { if (c.halfRange) p.attacksBonus += x(a); } },
  // +1 to hit if the attacking unit Remained Stationary this turn.
  { name: 'HEAVY', compile: (p, _a, c) => { if (c.attacker.flags.moved === 'stationary') p.hitModifier += 1; } },
  // Hits automatically.
  { name: 'TORRENT', compile: (p) => { p.autoHit = true; } },
  // Re-roll the Wound roll.
  { name: 'TWIN-LINKED', compile: (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); } },
  // +X Damage when the target is within half range.
  { name: 'MELTA', compile: (p, a, c) => { if (c.halfRange) p.damageBonus += x(a); } },
  // Against a target with the keyword, an unmodified Wound roll of X+ is a Critical Wound.
  {
    name: 'ANTI',
    compile: (p, a, c) => {
      if (a.keyword && a.threshold && c.target.keywords.includes(a.keyword.toUpperCase())) {
        p.criticalWoundOn = Math.min(p.criticalWoundOn, a.threshold);
      }
    },
  },
  // +1 to wound if the bearer's unit made a Charge move this turn.
  { name: 'LANCE', compile: (p, _a, c) => { if (c.attacker.flags.charged) p.woundModifier += 1; } },
  // Can target units that are not visible: then -1 to hit and the target has the Benefit of Cover.
  {
    name: 'INDIRECT FIRE',
    compile: (p, _a, c) => {
      p.tags.push('INDIRECT FIRE');
      if (!c.targetVisible) { p.hitModifier -= 1; p.cover = true; }
    },
  },
  // The shooting phase may measure range and visibility from another friendly model of the keyword the
  // data names (Fire Prism: another FIRE PRISM it sees, ./battle/linked-fire.ts); then the Attacks are 1.
  {
    name: 'LINKED FIRE',
    compile: (p, _a, c) => {
      p.tags.push('LINKED FIRE');
      if (c.linkedFire) p.attacks = { n: 0, sides: 0, plus: 1 };
    },
  },
];

for (const e of entries) registerWeaponAbility(e);
