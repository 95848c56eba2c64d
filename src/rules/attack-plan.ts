/**
 * The Attack plan: everything the attack sequence needs to resolve the attacks of one weapon profile
 * against one target unit, with every rule of the moment already folded in (weapon abilities, army
 * and detachment rules, stratagem effects, the defender's abilities).
 *
 * It is compiled once per (attacking model group, weapon profile, target) and then used two ways:
 *  - by the engine's attack pipeline (src/rules/attack-sequence.ts), rolling real dice as events;
 *  - by the exact calculator (src/calc), which turns the same plan into probability distributions.
 * Because both read the same plan, the calculator and the simulation can never disagree on the rules.
 *
 * Per-model defender characteristics (Save, invulnerable save, Wounds, Feel No Pain) are not part of
 * the plan: the pipeline reads them from the model an attack is allocated to, the calculator from its
 * single-profile defender.
 */
import type { DiceExpr } from '../data/datasheet.ts';

/**
 * Which rolls a player re-rolls when a rule lets them re-roll a roll (in increasing generosity). As a rule's
 * grant (AttackPlan.rerollHits...), 'failed' stands for "you can re-roll the roll": the player may re-roll any
 * of them, failures by default or every non-Critical one to fish (attack-sequence.ts rerollAllowed).
 */
export type RerollPolicy =
  | 'none'
  /** re-roll unmodified 1s */
  | 'ones'
  /** re-roll rolls that failed (the default play of a grant to re-roll the roll) */
  | 'failed'
  /** re-roll every roll that is not a Critical (fishing for Critical Hits / Critical Wounds) */
  | 'non-critical';

export interface AttackPlan {
  weapon: string;
  profile: string;
  melee: boolean;

  // --- Attacks -------------------------------------------------------------------------------
  /** Attacks characteristic of the profile, per attacking model */
  attacks: DiceExpr;
  /** fixed attacks added per model (RAPID FIRE X at half range, BLAST per five target models...) */
  attacksBonus: number;
  /** re-roll the dice that determine the number of attacks */
  rerollAttacks: boolean;

  // --- Hit roll --------------------------------------------------------------------------------
  /** TORRENT: the attack hits automatically (no Hit roll, so no Critical Hit) */
  autoHit: boolean;
  /** BS or WS after every characteristic change (improve/worsen), e.g. 3 for 3+ */
  skill: number;
  /** sum of Hit roll modifiers; the sequence caps it to [-1, +1] (see capModifier) */
  hitModifier: number;
  /**
   * The attacker may ignore modifiers to the Hit roll (Weapon Support System): the plan builder keeps
   * only the modifiers that help (a -1 is always worth ignoring, a +1 never is).
   */
  ignoreHitModifiers: boolean;
  /**
   * The attacker may ignore modifiers to its BS/WS characteristic (Inescapable Accuracy): the plan builder
   * keeps the profile's skill where that is better (a worsened BS is restored, an improved one kept).
   */
  ignoreSkillModifiers: boolean;
  /**
   * The attacker may ignore modifiers to its BS/WS, Strength, AP and Damage characteristics (WARRIOR FOCUS):
   * the plan builder keeps each characteristic's profile value where that is better, and the sequence drops
   * the target's per-model Damage reductions.
   */
  ignoreCharacteristicModifiers: boolean;
  /**
   * The attacker may ignore modifiers to its AP and Damage characteristics only (SEER'S EYE): the plan builder
   * keeps the profile's AP and Damage where they are better, and the sequence drops the target's per-model
   * Damage reductions, as for ignoreCharacteristicModifiers.
   */
  ignoreApDamageModifiers: boolean;
  rerollHits: RerollPolicy;
  /**
   * A hit needs an unmodified Hit roll of this or more, whatever the BS and the modifiers (FIRING LINE:
   * 5); null when the BS and modifiers decide. The plan builder applies it last (BS set to it, modifiers
   * dropped), and no modifier is added after; Critical Hits are unchanged.
   */
  unmodifiedHitOn: number | null;
  /** unmodified Hit roll at or above which a hit is a Critical Hit (6 unless a rule says otherwise) */
  criticalHitOn: number;
  /**
   * every Hit roll that hits scores a Critical Hit (Cry of the Wind, Murder's Jest): read when the dice are
   * rolled, with every modifier then known (criticalHitThreshold)
   */
  everyHitCritical: boolean;
  /** SUSTAINED HITS X: extra hits per Critical Hit (these extra hits are not Critical Hits) */
  sustainedHits: number;
  /**
   * SUSTAINED HITS D3 (a dice expression): each Critical Hit's extra hits are rolled, one roll per Critical Hit;
   * with a fixed `sustainedHits` too, each Critical Hit scores the better of the two (the ability is not cumulative)
   */
  sustainedHitsDice: DiceExpr | null;
  /** LETHAL HITS: a Critical Hit automatically wounds (it is not a Critical Wound) */
  lethalHits: boolean;

  // --- Wound roll ------------------------------------------------------------------------------
  strength: number;
  /** Toughness used for the whole attacking unit's attacks (Bodyguard Toughness for Attached units) */
  toughness: number;
  woundModifier: number;
  rerollWounds: RerollPolicy;
  /** unmodified Wound roll at or above which a wound is a Critical Wound (ANTI-X y+ lowers it) */
  criticalWoundOn: number;
  /** DEVASTATING WOUNDS: a Critical Wound becomes mortal wounds equal to Damage, no save, excess lost */
  devastatingWounds: boolean;
  /** AP improvement for attacks that score a Critical Wound (Bladestorm: 2) */
  criticalWoundAp: number;

  // --- Saving throw ----------------------------------------------------------------------------
  /** AP, as a non-positive number (-2 for AP -2) */
  ap: number;
  /** the target has the Benefit of Cover against this attack (already false for IGNORES COVER / melee) */
  cover: boolean;
  /** IGNORES COVER: the plan builder turns `cover` off when this is set, whatever granted the cover */
  ignoresCover: boolean;
  /** other saving throw modifiers (the sequence caps the improvement at +1 in total, with cover) */
  saveModifier: number;
  /** modifier applied to invulnerable saving throws only (rare; AP never applies to them) */
  invulnerableModifier: number;
  /** an invulnerable save granted by a rule (Go to Ground: 6+); a model uses the better of it and its own */
  invulnerable: number | null;
  rerollSaves: RerollPolicy;
  /**
   * "Re-roll one Hit roll / one Wound roll / one Damage roll" each time the unit shoots or fights
   * (Unparalleled Foresight, Soulsight): one failed die per activation, not per attack, for each rule
   * that grants it (two such rules re-roll two different dice: no die is re-rolled twice). The dice
   * pipeline plays it; the exact calculator counts the Hit and Wound ones (not the Damage one).
   */
  rerollOne: { hit: number; wound: number; damage: number };

  // --- Damage ------------------------------------------------------------------------------------
  damage: DiceExpr;
  /** re-roll the Damage roll (each attack's dice, when they came out below their average) */
  rerollDamage: boolean;
  /**
   * Re-roll a Damage roll of 1 (Titan Hunter): a one-die Damage roll that came out 1 is rolled again;
   * nothing for fixed Damage or several dice (their total is never 1).
   */
  rerollDamageOnes: boolean;
  /** fixed damage added (MELTA X at half range) */
  damageBonus: number;
  /** subtracted from the Damage characteristic, never below 1 (e.g. a -1 Damage rule) */
  damageReduction: number;
  /** Damage characteristic halved (rounded up) before reduction, when a rule says so */
  halveDamage: boolean;
  /** Feel No Pain granted by effects on top of the models' own (best one is used; null when none) */
  feelNoPain: number | null;

  // --- Other -----------------------------------------------------------------------------------
  precision: boolean;
  /** a Critical Wound has PRECISION (Stave of Kurnous): those wounds are allocated apart, with PRECISION */
  criticalWoundPrecision: boolean;
  /**
   * The CHARACTER models PRECISION may send the attacks to, in the order they take them: those an attacking
   * model can see, the one the attacking player picked first (set by the attack sequence when some of the
   * unit's Leaders are hidden or two or more could take the attacks); null: any of them, the wounded first.
   */
  precisionOnly: string[] | null;
  hazardous: boolean;
  /**
   * The D6 roll (or more) on which the Deadly Demise of a model these attacks destroy inflicts its mortal
   * wounds: 6 by the core rules, 4 for Lanced Obliteration.
   */
  deadlyDemiseOn: number;
  /** abilities of the profile that the engine plays elsewhere (ASSAULT, PISTOL, HEAVY...), for reporting */
  tags: string[];
}

/**
 * The unmodified Hit roll from which an attack scores a Critical Hit: criticalHitOn, or, when every Hit roll
 * that hits does (everyHitCritical), the lowest roll that hits with the BS and the capped modifiers as the
 * attack sequence reads them, so a modifier added after the rule was asked counts too (never 1: a 1 fails).
 */
export function criticalHitThreshold(plan: AttackPlan): number {
  if (!plan.everyHitCritical) return plan.criticalHitOn;
  return Math.min(plan.criticalHitOn, Math.max(2, plan.skill - capModifier(plan.hitModifier)));
}

/** A Hit or Wound roll modifier total, capped to +1/-1 as the core rules require. */
export function capModifier(total: number): number {
  return total > 1 ? 1 : total < -1 ? -1 : total;
}

/** Wound roll needed from the Strength/Toughness table. */
export function woundTarget(strength: number, toughness: number): number {
  if (strength >= 2 * toughness) return 2;
  if (strength > toughness) return 3;
  if (strength === toughness) return 4;
  if (strength * 2 <= toughness) return 6;
  return 5;
}

/**
 * Result of one die against a Hit or Wound roll: 0 fail, 1 success, 2 Critical success. A saving
 * throw uses it with criticalOn = 7 (no Critical: a 6 passes only if 6 is enough).
 */
export function rollOutcome(unmodified: number, needed: number, modifier: number, criticalOn: number): 0 | 1 | 2 {
  if (unmodified >= criticalOn) return 2;
  if (unmodified === 1) return 0;
  return unmodified + modifier >= needed ? 1 : 0;
}

/**
 * The smallest unmodified D6 that passes a saving throw for a model with `save` and `invulnerable`
 * against this plan (7 when no save is possible). Armour: AP, cover and other modifiers add up, and the
 * net modifier never improves the roll by more than +1 (like the Hit and Wound roll caps, the cap is on
 * the total); cover does not help a 3+ (or better) save against AP 0, nor any save with IGNORES COVER.
 * Invulnerable: never modified by AP or cover. The better of the two is used (the controlling player's
 * choice). An unmodified 1 always fails, so the result is at least 2.
 */
export function saveNeeded(plan: Pick<AttackPlan, 'ap' | 'cover' | 'ignoresCover' | 'saveModifier' | 'invulnerableModifier' | 'invulnerable'>, save: number, invulnerable: number | null): number {
  const coverApplies = plan.cover && !plan.ignoresCover && !(save <= 3 && plan.ap === 0);
  let net = (coverApplies ? 1 : 0) + plan.saveModifier + plan.ap;
  if (net > 1) net = 1;
  const armour = save - net;
  let inv = 7;
  const best = invulnerable === null ? plan.invulnerable : plan.invulnerable === null ? invulnerable : Math.min(invulnerable, plan.invulnerable);
  if (best !== null) inv = best - Math.min(1, plan.invulnerableModifier);
  let need = Math.min(armour, inv);
  if (need < 2) need = 2;
  return need > 7 ? 7 : need;
}

/**
 * Damage characteristic after changes, in the order the rules commentary gives: halving (rounded up)
 * first, then additions (MELTA), then reductions; never below 1.
 */
export function adjustDamage(rolled: number, plan: Pick<AttackPlan, 'damageBonus' | 'damageReduction' | 'halveDamage'>): number {
  let d = plan.halveDamage ? Math.ceil(rolled / 2) : rolled;
  d += plan.damageBonus;
  d -= plan.damageReduction;
  return d < 1 ? 1 : d;
}

/** Saving throws have no Critical result: re-rolling "non-critical" saves means re-rolling failed ones. */
export function saveRerollPolicy(p: RerollPolicy): RerollPolicy {
  return p === 'non-critical' ? 'failed' : p;
}

/** Whether a die is re-rolled under a policy, given its unmodified value and its outcome (0 fail, 1 success, 2 critical). */
export function shouldReroll(policy: RerollPolicy, unmodified: number, outcome: 0 | 1 | 2): boolean {
  switch (policy) {
    case 'none': return false;
    case 'ones': return unmodified === 1;
    case 'failed': return outcome === 0;
    case 'non-critical': return outcome !== 2;
  }
}

const REROLL_ORDER: RerollPolicy[] = ['none', 'ones', 'failed', 'non-critical'];

/**
 * A rule's "re-roll one Hit / Wound / Damage roll" each time the unit attacks: each rule that grants it
 * adds one die to re-roll (different dice: none is re-rolled twice), so grants add up.
 */
export function grantRerollOne(plan: AttackPlan, rolls: { hit?: number; wound?: number; damage?: number }): void {
  plan.rerollOne = {
    hit: plan.rerollOne.hit + (rolls.hit ?? 0),
    wound: plan.rerollOne.wound + (rolls.wound ?? 0),
    damage: plan.rerollOne.damage + (rolls.damage ?? 0),
  };
}

/**
 * A Hit roll modifier the attack's circumstances add after the plan is built (Big Guns Never Tire's -1):
 * a penalty is dropped when the plan ignores Hit roll modifiers, a bonus is kept.
 */
/**
 * "An unmodified Hit roll of X+ is required" (`unmodifiedHitOn`): the BS becomes X and every Hit roll modifier
 * is dropped; a lower roll scores no hit, so it is no Critical Hit either (Fire Overwatch: 6s only).
 */
export function foldUnmodifiedHit(plan: AttackPlan): void {
  if (plan.unmodifiedHitOn !== null) {
    plan.skill = plan.unmodifiedHitOn;
    plan.hitModifier = 0;
    plan.criticalHitOn = Math.max(plan.criticalHitOn, plan.unmodifiedHitOn);
  }
}

export function addHitModifier(plan: AttackPlan, modifier: number): void {
  if (plan.unmodifiedHitOn !== null) return;
  if (modifier && !(plan.ignoreHitModifiers && modifier < 0)) plan.hitModifier += modifier;
}

/** When two rules grant re-rolls of the same roll, the more generous one applies (a die is re-rolled once). */
export function widerReroll(a: RerollPolicy, b: RerollPolicy): RerollPolicy {
  return REROLL_ORDER.indexOf(a) >= REROLL_ORDER.indexOf(b) ? a : b;
}

export function basePlan(p: {
  weapon: string; profile: string; melee: boolean; attacks: DiceExpr; skill: number; strength: number; ap: number; damage: DiceExpr; toughness: number;
}): AttackPlan {
  return {
    weapon: p.weapon, profile: p.profile, melee: p.melee,
    attacks: p.attacks, attacksBonus: 0, rerollAttacks: false,
    autoHit: false, skill: p.skill, hitModifier: 0, ignoreHitModifiers: false, ignoreSkillModifiers: false, ignoreCharacteristicModifiers: false, ignoreApDamageModifiers: false, rerollHits: 'none', unmodifiedHitOn: null, criticalHitOn: 6, everyHitCritical: false, sustainedHits: 0, sustainedHitsDice: null, lethalHits: false,
    strength: p.strength, toughness: p.toughness, woundModifier: 0, rerollWounds: 'none', criticalWoundOn: 6, devastatingWounds: false, criticalWoundAp: 0,
    ap: p.ap, cover: false, ignoresCover: false, saveModifier: 0, invulnerableModifier: 0, invulnerable: null, rerollSaves: 'none', rerollOne: { hit: 0, wound: 0, damage: 0 },
    damage: p.damage, rerollDamage: false, rerollDamageOnes: false, damageBonus: 0, damageReduction: 0, halveDamage: false, feelNoPain: null,
    precision: false, criticalWoundPrecision: false, precisionOnly: null, hazardous: false, deadlyDemiseOn: 6, tags: [],
  };
}
