/**
 * Building the Attack plan for one group of attacks: the weapon profile's characteristics, then each
 * weapon ability's registry entry, then every active rule of both sides (unit abilities, army and
 * detachment rules, effects in the state), then the core caps.
 */
import type { DiceExpr, Weapon, WeaponProfile } from '../data/datasheet.ts';
import { forEachActiveRule, getRule, type RuleSource } from '../core/rules-registry.ts';
import type { Effect, GameState, ModelState, UnitState } from '../core/state.ts';
import { basePlan, foldUnmodifiedHit, type AttackPlan } from './attack-plan.ts';
import { getWeaponAbility } from './weapon-abilities.ts';
import { characteristic, damagedProfileOf } from './battle/units.ts';

export interface AttackContext {
  state: GameState;
  attacker: UnitState;
  /** the models of the attacking unit making these attacks */
  attackers: ModelState[];
  target: UnitState;
  weapon: Weapon;
  profile: WeaponProfile;
  melee: boolean;
  /** every attacking model of the group is within half the weapon's range of the target */
  halfRange: boolean;
  /** models in the target unit when it was selected as the target (BLAST) */
  targetModels: number;
  /**
   * the target's models as these attacks are made, when the unit's earlier weapons destroyed some ("attacks
   * against a unit of N models": THE ARRO'KON PROTOCOL); absent: `targetModels`
   */
  liveTargetModels?: number;
  /** at least one model of the target is visible to the attackers (false only for INDIRECT FIRE shots) */
  targetVisible: boolean;
  /** the target has the Benefit of Cover from terrain against these attacks */
  targetInCover: boolean;
  /** closest distance from the attacking models to the target unit (0 in melee) */
  distance: number;
  /**
   * The target's Toughness characteristic as it was when the attacking unit started its attacks (an
   * Attached unit keeps its Bodyguard's until they are all resolved); when absent, as it is now.
   */
  toughness?: number;
  /** range and visibility were measured from another friendly model (LINKED FIRE): the shooting phase sets it */
  linkedFire?: boolean;
}

/**
 * The attack group a model's attacks with a weapon join: the models of one datasheet with that weapon and
 * the same wargear (a bearer's wargear can change its attacks: Weapon Support System, Grav-talon).
 */
/**
 * The models of an attack group (ranged or melee) split by the effects on the unit that give them different
 * bonuses (Rule.splitAttackers: Psychic Communion, Guiding Presence, EPIC CHALLENGE's model).
 */
export function splitBySource(s: GameState, u: UnitState, w: Weapon, models: ModelState[], splitters: readonly Effect[]): ModelState[][] {
  let parts = [models];
  for (const e of splitters) {
    const src: RuleSource = { role: 'attacker', player: e.player, effect: e, unit: null };
    parts = parts.flatMap((p) => getRule(e.kind)!.splitAttackers!(s, u, w, p, src));
  }
  return parts;
}

/** One model's attacks apart from the rest of its group (a bonus of that model's own), or the group unsplit. */
export function splitOffModel(models: ModelState[], model: unknown): ModelState[][] {
  if (models.length < 2 || !models.some((m) => m.id === model)) return [models];
  return [models.filter((m) => m.id === model), models.filter((m) => m.id !== model)];
}

export function attackGroupKey(m: ModelState, weapon: string): string {
  return m.wargear === undefined ? `${m.datasheet}:${weapon}` : `${m.datasheet}:${weapon}|${m.wargear.join(',')}`;
}

/**
 * The target unit's Toughness for an attack: its Bodyguard models' for an Attached unit (the Leaders' do not
 * count while one is alive). Every datasheet gives its models one Toughness, read as it is; a unit whose
 * models differ (a Support Weapon joined to Guardian Defenders) is wounded against the highest among them,
 * each read through the rules (Support Weapon: T3 while the unit has other models).
 */
export function targetToughness(state: GameState, target: UnitState): number {
  let fallback: ModelState | null = null;
  let first: ModelState | null = null;
  let mixed = false;
  for (const m of target.models) {
    if (!m.alive) continue;
    if (fallback === null) fallback = m;
    const isLeader = target.components.length > 1 && target.components.some((c) => c.isLeader && c.unit === m.origin);
    if (isLeader) continue;
    if (first === null) first = m;
    else if (!mixed && (m.datasheet !== first.datasheet || m.profile !== first.profile) && profileToughness(state, m) !== profileToughness(state, first)) mixed = true;
  }
  if (first === null) return profileToughness(state, fallback ?? target.models[0]);
  if (!mixed) return profileToughness(state, first);
  let t = 0;
  for (const m of target.models) {
    if (m.alive && !(target.components.length > 1 && target.components.some((c) => c.isLeader && c.unit === m.origin))) t = Math.max(t, characteristic(state, target, m, 'T'));
  }
  return t;
}

function profileToughness(state: GameState, m: ModelState): number {
  return state.datasheets[m.datasheet].models[m.profile].toughness;
}

/** Run one side's rules; returns the sum of the Hit roll modifiers they added that help the attacker. */
function runSide(plan: AttackPlan, ctx: AttackContext, unit: UnitState, role: 'attacker' | 'defender'): number {
  let bonuses = 0;
  forEachActiveRule(ctx.state, unit, role, (rule, src) => {
    if (!rule.attack) return;
    const before = plan.hitModifier;
    rule.attack(plan, ctx, src);
    if (plan.hitModifier > before) bonuses += plan.hitModifier - before;
  });
  return bonuses;
}

const meanOf = (d: DiceExpr) => (d.n * (d.sides + 1)) / 2 + d.plus;

/**
 * Ignoring "any or all" modifiers to the BS/WS, Strength, AP and Damage characteristics (WARRIOR FOCUS): each
 * keeps its modified value where that is better, its profile's otherwise, and the Damage reductions and
 * halving go. The engine sums a characteristic's changes, so a mix of helping and hurting ones is kept or
 * dropped whole.
 */
function keepBetterCharacteristics(plan: AttackPlan, p: WeaponProfile): void {
  plan.skill = Math.min(plan.skill, p.skill);
  plan.strength = Math.max(plan.strength, p.strength);
  keepBetterApAndDamage(plan, p);
}

/** The AP and Damage part of it (SEER'S EYE ignores modifiers to those two only). */
function keepBetterApAndDamage(plan: AttackPlan, p: WeaponProfile): void {
  plan.ap = Math.min(plan.ap, p.ap);
  if (meanOf(plan.damage) < meanOf(p.damage)) plan.damage = p.damage;
  plan.damageReduction = 0;
  plan.halveDamage = false;
}

export function buildAttackPlan(ctx: AttackContext): AttackPlan {
  const p = ctx.profile;
  const plan = basePlan({
    weapon: ctx.weapon.name, profile: p.name, melee: ctx.melee, attacks: p.attacks, skill: p.skill,
    strength: p.strength, ap: p.ap, damage: p.damage, toughness: ctx.toughness ?? targetToughness(ctx.state, ctx.target),
  });
  // Benefit of Cover is only against ranged attacks.
  plan.cover = ctx.targetInCover && !ctx.melee;
  // Hit roll modifiers that help the attacker, summed as the rules add them (for ignoreHitModifiers)
  let hitBonuses = 0;
  for (const a of p.abilities) {
    const entry = getWeaponAbility(a.name);
    const before = plan.hitModifier;
    if (entry) entry.compile(plan, a, ctx);
    else plan.tags.push(a.name);
    if (plan.hitModifier > before) hitBonuses += plan.hitModifier - before;
  }
  // a damaged model ("while this model has 1-5 wounds remaining, subtract 1 from the Hit roll"): the models with
  // such a profile are units of one model, so the group's attacking model is the one
  for (const m of ctx.attackers) {
    const d = damagedProfileOf(ctx.state, m);
    if (d) { plan.hitModifier += d.hitModifier; break; }
  }
  hitBonuses += runSide(plan, ctx, ctx.attacker, 'attacker');
  hitBonuses += runSide(plan, ctx, ctx.target, 'defender');
  // ignoring "any or all" Hit roll modifiers: keep the ones that help
  if (plan.ignoreHitModifiers) plan.hitModifier = hitBonuses;
  if (plan.ignoreSkillModifiers) plan.skill = Math.min(plan.skill, p.skill);
  if (plan.ignoreCharacteristicModifiers) keepBetterCharacteristics(plan, p);
  else if (plan.ignoreApDamageModifiers) keepBetterApAndDamage(plan, p);
  if (plan.ignoresCover || plan.melee) plan.cover = false;
  // "an unmodified Hit roll of X+ is required": the BS and every modifier give way to it
  foldUnmodifiedHit(plan);
  return plan;
}
