/**
 * The attack sequence, as the engine plays it with real dice. A unit that shoots or fights resolves
 * its attacks group by group (one weapon profile against one target): number of attacks, Hit roll,
 * Wound roll, allocation model by model, saving throw, damage, Feel No Pain. Mortal wounds from
 * DEVASTATING WOUNDS are inflicted after all the unit's other attacks; Hazardous tests come last.
 *
 * Dice are rolled in batches (fast dice rolling): one event per roll step of a group, each die recorded.
 */
import type { Weapon, WeaponProfile } from '../data/datasheet.ts';
import type { Game } from '../core/game.ts';
import { IllegalDecisionError } from '../core/agent.ts';
import { abilityRules, effectsWith, getRule, type RuleSource } from '../core/rules-registry.ts';
import type { GameState, ModelState, PlayerIndex, UnitState } from '../core/state.ts';
import { buildAttackPlan, targetToughness, type AttackContext } from './attack-context.ts';
import {
  addHitModifier, adjustDamage, capModifier, criticalHitThreshold, rollOutcome, saveNeeded, saveRerollPolicy, shouldReroll, woundTarget, type AttackPlan, type RerollPolicy,
} from './attack-plan.ts';
import { afterRoll, rollDice } from './roll-window.ts';
import {
  destroyModel, feelNoPainOf, invulnerableOf, invulnerableRerollForbidden, mortalWoundAllocated, mortalWoundsWatched, splitAttachedUnits,
} from './damage.ts';
import { allocatable, allocationTarget, isLeaderModel } from './allocation.ts';
import { modelBody, modelsSee } from './battle/world.ts';
import { getWeaponAbility } from './weapon-abilities.ts';
import { hazardousTests } from './hazardous.ts';

/** One weapon profile used by some models of the attacking unit against one target. */
export interface AttackGroup {
  weapon: Weapon;
  profile: WeaponProfile;
  models: ModelState[];
  target: string;
  /** every model of the group is within half range (RAPID FIRE, MELTA) */
  halfRange: boolean;
  targetVisible: boolean;
  targetInCover: boolean;
  /**
   * models in the target when it was selected (BLAST counts them; THE ARRO'KON PROTOCOL counts the models left
   * as the attacks are made: see liveTargetModels)
   */
  targetModels: number;
  /**
   * Target models that have the Benefit of Cover from terrain against these attackers (cover is per
   * model); when absent, `targetInCover` applies to the whole unit.
   */
  coverModels?: ReadonlySet<string>;
  /** Hit roll modifier from the situation (Big Guns Never Tire: -1 while in Engagement Range) */
  extraHitModifier?: number;
  /** closest distance from the attacking models to the target (0 in melee) */
  distance?: number;
  /**
   * The target models these attacks may be allocated to (Boarding Actions: those visible to the
   * attacking models); when absent, any model.
   */
  allocatable?: ReadonlySet<string>;
  /** the attacking models are fallen, fighting before they are removed (fight-on-death.ts): no Hazardous test */
  fallen?: boolean;
  /** the models measured range and visibility from another model (LINKED FIRE) */
  linkedFire?: boolean;
}

/** Counters of one resolution, for the calculator's comparison and for reports. */
export interface AttackTally {
  attacks: number;
  hits: number;
  wounds: number;
  unsaved: number;
  woundsLost: number;
  modelsDestroyed: number;
  /** enemy units hit by one or more of the attacks (Pulse Onslaught) */
  hitTargets: string[];
  /** the same, per weapon (its datasheet name), once each pair, in the order of the attacks (Monofilament Web) */
  /** which weapon (datasheet name) hit which unit, and the models whose group of attacks with it scored the hits */
  hitWith: { weapon: string; target: string; models: string[] }[];
}

export function newTally(): AttackTally {
  return { attacks: 0, hits: 0, wounds: 0, unsaved: 0, woundsLost: 0, modelsDestroyed: 0, hitTargets: [], hitWith: [] };
}

/** "Re-roll one Hit roll / Wound roll / Damage roll" left for this activation of the unit. */
interface RerollBudget {
  hit: number;
  wound: number;
  damage: number;
}

interface PendingMortal {
  target: UnitState;
  plan: AttackPlan;
  count: number;
  /** the attacking models (roll reactions may ask whose roll it is) */
  models: readonly string[];
  allowed: ReadonlySet<string> | null;
}

/**
 * Resolve every attack of a unit (all its groups), then Devastating Wounds, then split Attached units
 * that lost a part, then Hazardous tests.
 */
/**
 * The target's models as a weapon's attacks are made ("attacks against a unit of N models": THE ARRO'KON
 * PROTOCOL): those still alive, after the unit's earlier weapons took their toll; of a group that may reach
 * only some models (Boarding Actions' sight through hatchways), those of them. BLAST counts the models of
 * the target when it was selected instead (the seed's words), `AttackGroup.targetModels`.
 */
function liveTargetModels(target: UnitState, group: AttackGroup): number {
  let n = 0;
  for (const m of target.models) if (m.alive && (!group.allocatable || group.allocatable.has(m.id))) n++;
  return n;
}

/** A group's living attackers split by the effects on its target that judge each attacking model (Rule.splitAttackersAgainst). */
function splitAgainstTarget(state: GameState, target: UnitState, models: ModelState[]): ModelState[][] {
  const splitters = effectsWith(state, target.id, 'splitAttackersAgainst');
  if (splitters.length === 0) return [models];
  let parts = [models];
  for (const e of splitters) {
    const src: RuleSource = { role: 'defender', player: e.player, effect: e, unit: target };
    parts = parts.flatMap((p) => getRule(e.kind)!.splitAttackersAgainst!(state, target, p, src));
  }
  return parts;
}

export function resolveAttacks(g: Game, attacker: UnitState, groups: AttackGroup[], melee: boolean, tally: AttackTally = newTally()): AttackTally {
  const pending: PendingMortal[] = [];
  const hazardous: { group: AttackGroup }[] = [];
  const budget: RerollBudget = { hit: 0, wound: 0, damage: 0 };
  const granted = { hit: 0, wound: 0, damage: 0 };
  // an Attached target's Toughness before any attack: it keeps its Bodyguard's until the attacking unit has
  // resolved all its attacks, even once the last Bodyguard model is destroyed (other units' never changes)
  let toughness: Map<string, number> | null = null;
  for (const group of groups) {
    const t = g.state.units[group.target];
    if (!t || t.components.length < 2 || toughness?.has(t.id) || !t.models.some((m) => m.alive)) continue;
    (toughness ??= new Map()).set(t.id, targetToughness(g.state, t));
  }
  for (const group of groups) {
    const target = g.state.units[group.target];
    const alive = group.models.filter((m) => m.alive);
    if (!target || alive.length === 0) continue;
    let first = true;
    for (const attackers of splitAgainstTarget(g.state, target, alive)) {
      const ctx: AttackContext = {
        state: g.state, attacker, attackers, target, weapon: group.weapon, profile: group.profile, melee,
        halfRange: group.halfRange, targetModels: group.targetModels, liveTargetModels: liveTargetModels(target, group), targetVisible: group.targetVisible, targetInCover: group.targetInCover,
        distance: group.distance ?? 0, toughness: toughness?.get(target.id), linkedFire: group.linkedFire,
      };
      const plan = buildAttackPlan(ctx);
      // a Hazardous weapon's test is owed once its target was selected, even when the unit's earlier attacks
      // destroyed that target before this weapon's were resolved
      if (first && plan.hazardous && !group.fallen) hazardous.push({ group });
      first = false;
      if (target.location !== 'battlefield' || !target.models.some((m) => m.alive)) continue;
      addHitModifier(plan, group.extraHitModifier ?? 0);
      // one re-roll of each kind per rule per activation, however many weapon groups the rule covers
      for (const k of ['hit', 'wound', 'damage'] as const) {
        if (plan.rerollOne[k] > granted[k]) { budget[k] += plan.rerollOne[k] - granted[k]; granted[k] = plan.rerollOne[k]; }
      }
      for (const part of precisionParts(g, attacker, target, group, plan, attackers)) {
        const before = tally.hits;
        resolveGroup(g, attacker, target, part.plan, part.models.length, pending, tally, group.coverModels ?? null, budget, part.models.map((m) => m.id), group.allocatable ?? null);
        if (tally.hits > before) {
          if (!tally.hitTargets.includes(target.id)) tally.hitTargets.push(target.id);
          const weapon = group.weapon.name;
          const entry = tally.hitWith.find((x) => x.weapon === weapon && x.target === target.id);
          if (!entry) tally.hitWith.push({ weapon, target: target.id, models: part.models.map((m) => m.id) });
          else for (const m of part.models) if (!entry.models.includes(m.id)) entry.models.push(m.id);
          // the weapon's abilities that act on a hit (HOOKED)
          for (const a of group.profile.abilities) getWeaponAbility(a.name)?.scoredHit?.(g, g.state.units[attacker.id], g.state.units[target.id]);
        }
      }
    }
  }
  // Devastating Wounds: allocated and resolved after every other attack of the unit; excess is lost.
  for (const p of pending) {
    if (p.target.location !== 'battlefield') continue;
    // such an attack is allocated, then its Damage becomes mortal wounds: a rule that makes an allocated
    // attack's Damage 0 (Stealth Drones) is asked as for any other attack
    let count = p.count;
    const first = allocationTarget(g.state, p.target, p.plan.precision, p.allowed, p.plan.precisionOnly);
    if (first !== null) count = attacksLeftAfterAllocation(g, p.target, first, p.plan, count);
    if (count > 0) applyDamage(g, attacker, p.target, p.plan, count, true, tally, budget, p.models, p.allowed);
  }
  // Hazardous tests before an Attached unit that lost a part (to a Deadly Demise) splits: the unit that made the
  // attacks still holds the models that took them, so a Leader left alone suffers its failed tests' mortal wounds
  for (const h of hazardous) hazardousTests(g, attacker, h.group.weapon.name, h.group.models, h.group.profile.name);
  splitAttachedUnits(g);
  return tally;
}

/**
 * The CHARACTER models PRECISION may send the group's attacks to, the attacker's choice first. With two or
 * more that can take attacks while a Bodyguard model lives (else PRECISION changes nothing), the attacking
 * player picks the one that takes them; the others follow in the unit's order once it is destroyed. One
 * choice per part of a weapon group (precisionParts) where the rules allow one per attack: a part's attacks
 * are not split between two CHARACTERs that both survive. `seen`: null when every one is visible.
 */
function precisionOrder(g: Game, attacker: UnitState, target: UnitState, weapon: string, seen: string[] | null, allowed: ReadonlySet<string> | null): string[] | null {
  const leaders = target.models.filter((m) => allocatable(m) && isLeaderModel(target, m) && (seen === null || seen.includes(m.id)) && (allowed === null || allowed.has(m.id)));
  const bodyguard = target.models.some((m) => allocatable(m) && !isLeaderModel(target, m));
  if (leaders.length < 2 || !bodyguard) return seen;
  const options = leaders.map((m) => ({ model: m.id, name: g.state.datasheets[m.datasheet].name }));
  const { index } = g.decide({
    kind: 'precision-target', player: attacker.player, prompt: `${attacker.name}: PRECISION (${weapon}) - which CHARACTER of ${target.name} takes the attacks?`,
    options, context: { unit: attacker.id, target: target.id, weapon },
  });
  return [options[index].model, ...options.filter((_, i) => i !== index).map((o) => o.model)];
}

/**
 * PRECISION sends an attack to a CHARACTER visible to the model making it, and only to one it sees (PRECISION
 * on a Critical Wound too: the same CHARACTERs, picked before the dice). So the group's models are resolved in
 * parts, one per set of the target's CHARACTERs they see (nearly always one part: every model sees the same);
 * a part that sees none makes ordinary attacks. Without PRECISION, or at a unit with no Leader, the group is
 * one part with its plan.
 */
function precisionParts(g: Game, attacker: UnitState, target: UnitState, group: AttackGroup, plan: AttackPlan, attackers: ModelState[]): { models: ModelState[]; plan: AttackPlan }[] {
  if (!(plan.precision || plan.criticalWoundPrecision) || target.components.length < 2) return [{ models: attackers, plan }];
  const parts = charactersSeen(g.state, attacker, attackers, target);
  return parts.map(({ models, seen }) => {
    const p = parts.length === 1 ? plan : { ...plan };
    if (seen?.length === 0) p.precision = p.criticalWoundPrecision = false;
    else p.precisionOnly = precisionOrder(g, attacker, target, group.weapon.name, seen, group.allocatable ?? null);
    return { models, plan: p };
  });
}

/**
 * The attacking models grouped by the CHARACTER (Leader) models of the Attached unit each can see, in the
 * attackers' order; `seen` null when the models see every one alive (no restriction). An embarked model firing
 * through a Firing Deck sees from its transport (the attacking unit's model on the battlefield), as it measures
 * range and sight; models not on a board (a duel in the abstract) see each other.
 */
function charactersSeen(state: GameState, attacker: UnitState, attackers: readonly ModelState[], target: UnitState): { models: ModelState[]; seen: string[] | null }[] {
  const characters = target.models.filter((c) => c.alive && isLeaderModel(target, c));
  const out: { key: string; models: ModelState[]; seen: string[] }[] = [];
  const hull = attacker.models.find((m) => m.alive && m.pos) ?? null;
  for (const a of attackers) {
    const seen: string[] = [];
    const from = a.pos ? a : hull;
    for (const c of characters) {
      if (!from || !c.pos || modelsSee(state, modelBody(state, from), from.id, modelBody(state, c), c.id)) seen.push(c.id);
    }
    const key = seen.join(' ');
    const part = out.find((x) => x.key === key);
    if (part) part.models.push(a);
    else out.push({ key, models: [a], seen });
  }
  return out.map((x) => ({ models: x.models, seen: x.seen.length === characters.length ? null : x.seen }));
}

/** How many of `count` attacks just allocated to `model` still do anything once the target's rules that make such attacks do nothing (Stealth Drones: Damage 0) have been asked. */
function attacksLeftAfterAllocation(g: Game, target: UnitState, model: ModelState, plan: AttackPlan, count: number): number {
  for (const r of abilityRules(target)) if (count > 0 && r.attacksAllocated) count -= r.attacksAllocated(g, target, model, plan, count);
  return count;
}

/** One group: attacks, Hit roll, Wound roll, then saves and damage. */
export function resolveGroup(
  g: Game, attacker: UnitState, target: UnitState, plan: AttackPlan, models: number, pending: PendingMortal[], tally: AttackTally,
  coverModels: ReadonlySet<string> | null = null, budget: RerollBudget = { hit: 0, wound: 0, damage: 0 }, modelIds: readonly string[] = NONE_IDS,
  allowed: ReadonlySet<string> | null = null,
): void {
  const player = attacker.player;
  const label = `${plan.profile} -> ${target.name}`;
  const attacks = rollAttacks(g, attacker, plan, models, label);
  tally.attacks += attacks;
  if (attacks === 0) return;

  // Hit roll
  let crits = 0;
  let hits = 0;
  if (plan.autoHit) {
    hits = attacks;
  } else {
    const mod = capModifier(plan.hitModifier);
    const needed = plan.skill;
    const critOn = criticalHitThreshold(plan);
    const policy = plan.rerollHits === 'none' ? 'none' : rerollChoice(g, player, 'hit', plan.rerollHits, attacker.id, plan.weapon);
    // a Critical Hit is worth more than a hit: COMMAND RE-ROLL may fish for one
    const critMatters = plan.lethalHits || plan.sustainedHits > 0 || plan.sustainedHitsDice !== null;
    const values = rollStep(g, attacks, 'hit', player, attacker.id, needed, mod, critOn, policy, label, budget, modelIds, critMatters);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v >= critOn) crits++;
      else if (v !== 1 && v + mod >= needed) hits++;
    }
  }
  const autoWounds = plan.lethalHits ? crits : 0;
  const totalHits = hits + crits + (plan.sustainedHitsDice && crits > 0 ? sustainedHitsRolled(g, plan, crits, player, attacker.id, label) : crits * plan.sustainedHits);
  tally.hits += totalHits;
  const toWound = totalHits - autoWounds;

  // Wound roll
  let woundCrits = 0;
  let wounds = 0;
  if (toWound > 0) {
    const mod = capModifier(plan.woundModifier);
    const needed = woundTarget(plan.strength, plan.toughness);
    const critOn = plan.criticalWoundOn;
    const policy = plan.rerollWounds === 'none' ? 'none' : rerollChoice(g, player, 'wound', plan.rerollWounds, attacker.id, plan.weapon);
    const critMatters = plan.devastatingWounds || plan.criticalWoundAp > 0 || plan.criticalWoundPrecision;
    const values = rollStep(g, toWound, 'wound', player, attacker.id, needed, mod, critOn, policy, label, budget, modelIds, critMatters);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      // same as rollOutcome(): inlined on the hot path
      if (v >= critOn) woundCrits++;
      else if (v !== 1 && v + mod >= needed) wounds++;
    }
  }
  tally.wounds += wounds + woundCrits + autoWounds;
  let needSave = wounds + autoWounds;
  let critSaves = 0;
  // Critical Wounds that have PRECISION of their own (Stave of Kurnous) are allocated apart
  const critPlan = woundCrits > 0 && plan.criticalWoundPrecision && !plan.precision ? { ...plan, precision: true } : plan;
  if (plan.devastatingWounds) {
    if (woundCrits > 0) {
      pending.push({ target, plan: critPlan, count: woundCrits, models: modelIds, allowed });
      tally.unsaved += woundCrits;
    }
  } else if (plan.criticalWoundAp > 0 || critPlan !== plan) {
    critSaves = woundCrits;
  } else {
    needSave += woundCrits;
  }
  if (needSave > 0) savesAndDamage(g, attacker, target, plan, needSave, tally, coverModels, budget, modelIds, allowed);
  // Critical Wounds with a better AP (Bladestorm) or PRECISION take their saving throws apart
  if (critSaves > 0) savesAndDamage(g, attacker, target, { ...critPlan, ap: plan.ap - plan.criticalWoundAp }, critSaves, tally, coverModels, budget, modelIds, allowed);
}

function rollAttacks(g: Game, attacker: UnitState, plan: AttackPlan, models: number, label: string): number {
  const a = plan.attacks;
  const fixed = models * (a.plus + plan.attacksBonus);
  if (a.n === 0) return fixed;
  let values: readonly number[] = g.dice.roll(models * a.n, a.sides, 'attacks', attacker.player, attacker.id, label);
  const rerolled: number[] = [];
  if (plan.rerollAttacks) {
    // A model re-rolls its Attacks dice (all dice of the sum) when they came out below their mean.
    const mean = (a.n * (a.sides + 1)) / 2;
    for (let m = 0; m < models; m++) {
      let sum = 0;
      for (let k = 0; k < a.n; k++) sum += values[m * a.n + k];
      if (sum < mean) for (let k = 0; k < a.n; k++) rerolled.push(m * a.n + k);
    }
    if (rerolled.length) values = g.dice.reroll(values, rerolled, a.sides, 'attacks', attacker.player, attacker.id, 'Re-roll Attacks');
  }
  // each model's Attacks roll is its own roll (a die already re-rolled is not re-rolled again)
  values = afterRoll(g, { purpose: 'attacks', player: attacker.player, unit: attacker.id, sides: a.sides, values, test: null, rerolled, dicePerRoll: a.n });
  let total = fixed;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}

/** Roll `n` D6 for a pass/fail step, re-roll under the policy, then open the "just after a roll" window. */
function rollStep(
  g: Game, n: number, purpose: 'hit' | 'wound', player: 0 | 1, unit: string, needed: number, mod: number, critOn: number,
  policy: RerollPolicy, label: string, budget: RerollBudget, models: readonly string[] = NONE_IDS, criticalMatters = false,
): readonly number[] {
  let values: readonly number[] = rollDice(g, n, 6, purpose, player, unit, label);
  let rerolled: number[] = NONE;
  if (policy !== 'none') {
    rerolled = [];
    for (let i = 0; i < values.length; i++) {
      if (shouldReroll(policy, values[i], rollOutcome(values[i], needed, mod, critOn))) rerolled.push(i);
    }
    if (rerolled.length) values = g.dice.reroll(values, rerolled, 6, purpose, player, unit, `re-roll ${policy}`);
  }
  // "re-roll one Hit roll", once per rule that grants it: the first failed dice not re-rolled already
  for (let i = 0; i < values.length && budget[purpose] > 0; i++) {
    if (rerolled.includes(i) || g.dice.isFixed(values, i) || rollOutcome(values[i], needed, mod, critOn) !== 0) continue;
    values = g.dice.reroll(values, [i], 6, purpose, player, unit, `re-roll one ${purpose} roll`);
    rerolled = [...rerolled, i];
    budget[purpose]--;
  }
  return afterRoll(g, { purpose, player, unit, sides: 6, values, rerolled, test: { needed, modifier: mod, criticalOn: critOn }, models, criticalMatters });
}

const NONE: number[] = [];
const NONE_IDS: readonly string[] = [];

/**
 * Re-rolls are the owning player's decision: the agent may narrow the granted policy (e.g. keep
 * failed hits when fishing is pointless); by default failed rolls are re-rolled.
 */
function rerollChoice(g: Game, player: 0 | 1, purpose: 'hit' | 'wound' | 'save', granted: RerollPolicy, unit: string, weapon: string): RerollPolicy {
  const agent = g.agents?.[player];
  const fallback: RerollPolicy = granted === 'non-critical' ? 'failed' : granted;
  if (!agent?.rerollPolicy) return fallback;
  const chosen = agent.rerollPolicy({ state: g.state, player }, { purpose, granted, unit, weapon });
  g.recordAnswer(player, agent.name, 'reroll-policy', chosen);
  if (!rerollAllowed(granted, chosen)) {
    throw new IllegalDecisionError(agent.name, { kind: 'reroll-policy', player, prompt: `re-roll ${purpose} (granted: ${granted})`, options: [] }, g.state.seed, `policy "${chosen}" is wider than the granted "${granted}"`);
  }
  return chosen;
}

/**
 * May the player re-roll by `chosen` under the rule's grant? A grant of 'failed' is a rule's "you can re-roll the
 * Hit (Wound) roll": any roll may be re-rolled, so fishing for a Critical result ('non-critical') is as legal as
 * re-rolling the failures (the default play) or the 1s; a grant of 'ones' ("re-roll a Hit roll of 1") allows no
 * more than the 1s.
 */
export function rerollAllowed(granted: RerollPolicy, chosen: RerollPolicy): boolean {
  if (chosen === 'none' || chosen === granted) return true;
  if (granted === 'non-critical' || granted === 'failed') return chosen === 'failed' || chosen === 'ones' || chosen === 'non-critical';
  return false;
}

/** The saving throws of one group: the plan with and without the Benefit of Cover, and who has it. */
interface SaveContext {
  covered: AttackPlan;
  open: AttackPlan;
  coverModels: ReadonlySet<string> | null;
}

function saveContext(plan: AttackPlan, coverModels: ReadonlySet<string> | null): SaveContext {
  const can = !plan.ignoresCover && !plan.melee;
  return { covered: { ...plan, cover: can }, open: { ...plan, cover: plan.cover && can }, coverModels };
}

function saveFor(state: GameState, sc: SaveContext, target: UnitState, m: ModelState): number {
  const p = state.datasheets[m.datasheet].models[m.profile];
  const plan = sc.coverModels !== null && sc.coverModels.has(m.id) ? sc.covered : sc.open;
  return saveNeeded(plan, p.save, invulnerableOf(state, target, m, plan.melee));
}

/**
 * The save `need` is the model's invulnerable saving throw: better than its armour save would be (when both
 * need the same roll, the player makes the armour one, which costs nothing a Shadow Field keeps).
 */
function invulnerableSaveMade(state: GameState, sc: SaveContext, m: ModelState, need: number): boolean {
  const p = state.datasheets[m.datasheet].models[m.profile];
  const plan = sc.coverModels !== null && sc.coverModels.has(m.id) ? sc.covered : sc.open;
  return need < saveNeeded({ ...plan, invulnerable: null }, p.save, null);
}

/** The unit has abilities that watch its failed saving throws or limit its invulnerable saves (Rule.savesFailed, invulnerableRestriction). */
function savesWatched(target: UnitState): boolean {
  for (const r of abilityRules(target)) if (r.savesFailed || r.invulnerableRestriction) return true;
  return false;
}

/**
 * Saving throws, allocation and damage for `count` wounds that allow a save. When every model that
 * can take the next attacks needs the same roll, the saves are rolled together (fast dice rolling)
 * and the failed ones allocated one at a time; otherwise one at a time.
 */
function savesAndDamage(
  g: Game, attacker: UnitState, target: UnitState, plan: AttackPlan, count: number, tally: AttackTally, coverModels: ReadonlySet<string> | null,
  budget: RerollBudget, modelIds: readonly string[] = NONE_IDS, allowed: ReadonlySet<string> | null = null,
): void {
  const state = g.state;
  const sc = saveContext(plan, coverModels);
  // abilities that see each failed save (Channeller Stones, Shadow Field): saves one at a time
  const watched = savesWatched(target);
  let remaining = count;
  while (remaining > 0) {
    const first = allocationTarget(state, target, plan.precision, allowed, plan.precisionOnly);
    if (first === null) return;
    const need = saveFor(state, sc, target, first);
    let batch = watched ? 1 : Math.min(remaining, uniformSaveBatch(state, target, sc, plan.precision, need, allowed));
    remaining -= batch;
    if (!first.allocated) g.emit({ type: 'attack-allocated', unit: target.id, model: first.id });
    // rules that make allocated attacks do nothing (Stealth Drones): those need no saving throw
    batch = attacksLeftAfterAllocation(g, target, first, plan, batch);
    if (batch === 0) continue;
    let fails = 0;
    const invulnerable = watched && need < 7 && invulnerableSaveMade(state, sc, first, need);
    const noReroll = invulnerable && invulnerableRerollForbidden(state, target, first);
    if (need >= 7) {
      fails = batch;
    } else {
      // a saving throw is a pass/fail roll with no Critical: rollOutcome(v, need, 0, 7)
      let values: readonly number[] = rollDice(g, batch, 6, 'save', target.player, target.id, plan.profile);
      const policy = plan.rerollSaves === 'none' || noReroll ? 'none' : rerollChoice(g, target.player, 'save', saveRerollPolicy(plan.rerollSaves), target.id, plan.weapon);
      let rerolled: number[] = NONE;
      if (policy !== 'none') {
        rerolled = [];
        for (let i = 0; i < values.length; i++) {
          if (shouldReroll(saveRerollPolicy(policy), values[i], rollOutcome(values[i], need, 0, 7))) rerolled.push(i);
        }
        if (rerolled.length) values = g.dice.reroll(values, rerolled, 6, 'save', target.player, target.id, `re-roll ${policy}`);
      }
      values = afterRoll(g, { purpose: 'save', player: target.player, unit: target.id, sides: 6, values, rerolled, test: { needed: need, modifier: 0, criticalOn: 7 }, ...(noReroll ? { noReroll } : {}) });
      for (let i = 0; i < values.length; i++) if (values[i] === 1 || values[i] < need) fails++;
    }
    tally.unsaved += fails;
    // failed saves whose attacks a rule changes to Damage 0 (Channeller Stones)
    if (watched) for (const r of abilityRules(target)) if (fails > 0 && r.savesFailed) fails -= r.savesFailed(g, target, first, plan, fails, invulnerable);
    if (fails > 0) applyDamage(g, attacker, target, plan, fails, false, tally, budget, modelIds, allowed);
  }
}

/**
 * How many saving throws can be rolled together (fast dice rolling): every model that could be allocated
 * one of them must need the same roll (else 1). In an Attached unit whose Leader needs another roll, only as
 * many as its Bodyguard has models: each failed save destroys at most one model, so none of them can reach
 * the Leader, who makes his own saving throws once the last Bodyguard model is gone.
 */
function uniformSaveBatch(state: GameState, target: UnitState, sc: SaveContext, precision: boolean, need: number, allowed: ReadonlySet<string> | null): number {
  const protect = !precision && target.components.length > 1 && target.models.some((m) => m.alive && !isLeaderModel(target, m));
  let bodyguards = 0;
  let leadersDiffer = false;
  for (const m of target.models) {
    if (!m.alive || (allowed !== null && !allowed.has(m.id))) continue;
    const same = saveFor(state, sc, target, m) === need;
    if (protect && isLeaderModel(target, m)) {
      if (!same) leadersDiffer = true;
      continue;
    }
    if (!same) return 1;
    bodyguards++;
  }
  return leadersDiffer ? Math.max(1, bodyguards) : Infinity;
}

/**
 * Damage of `n` attacks that got through (failed saves, or Devastating Wounds' mortal wounds), one
 * attack at a time to the model the allocation rules pick; excess damage of an attack is lost.
 */
function applyDamage(
  g: Game, attacker: UnitState, target: UnitState, plan: AttackPlan, n: number, mortal: boolean, tally: AttackTally, budget?: RerollBudget,
  modelIds: readonly string[] = NONE_IDS, allowed: ReadonlySet<string> | null = null,
): void {
  const state = g.state;
  const d = plan.damage;
  let rolls: readonly number[] | null = null;
  let rerolled: number[] = NONE;
  if (d.n > 0) {
    rolls = rollDice(g, n * d.n, d.sides, 'damage', attacker.player, attacker.id, plan.profile);
    if (plan.rerollDamage) {
      // each attack's Damage dice (all of them) are re-rolled when they came out below their average, unless
      // the attack already destroys the model it will go to (the rule lets the player keep it). The models
      // are followed as the attacks will be allocated: the first the allocation rules pick, then fresh ones
      // (Feel No Pain and per-model reductions left out)
      const mean = (d.n * (d.sides + 1)) / 2;
      const first = allocationTarget(state, target, plan.precision, allowed, plan.precisionOnly);
      const fresh = first ? state.datasheets[first.datasheet].models[first.profile].wounds : Infinity;
      let left = first ? first.wounds : Infinity;
      const attackDamage = (a: number) => {
        let sum = 0;
        for (let k = 0; k < d.n; k++) sum += rolls![a * d.n + k];
        return { sum, dmg: adjustDamage(sum + d.plus, plan) };
      };
      rerolled = [];
      for (let a = 0; a < n; a++) {
        const rolled = attackDamage(a);
        let dmg = rolled.dmg;
        if (rolled.sum < mean && dmg < left) {
          const dice = Array.from({ length: d.n }, (_, k) => a * d.n + k);
          rolls = g.dice.reroll(rolls, dice, d.sides, 'damage', attacker.player, attacker.id, 're-roll Damage');
          rerolled.push(...dice);
          dmg = attackDamage(a).dmg;
        }
        left = dmg >= left ? fresh : left - dmg;
      }
    } else if (plan.rerollDamageOnes && d.n === 1) {
      // "re-roll a Damage roll of 1": each attack's one die that came out 1
      rerolled = [];
      for (let a = 0; a < n; a++) if (rolls[a] === 1) rerolled.push(a);
      if (rerolled.length) rolls = g.dice.reroll(rolls, rerolled, d.sides, 'damage', attacker.player, attacker.id, 're-roll a Damage roll of 1');
    }
    if (budget && d.n === 1 && rerolled.length === 0) {
      // "re-roll one Damage roll", once per rule that grants it: the lowest dice not re-rolled yet, while below average
      while (budget.damage > 0) {
        let low = -1;
        for (let i = 0; i < rolls.length; i++) if (!rerolled.includes(i) && !g.dice.isFixed(rolls, i) && (low < 0 || rolls[i] < rolls[low])) low = i;
        if (low < 0 || rolls[low] * 2 >= d.sides + 1) break;
        rolls = g.dice.reroll(rolls, [low], d.sides, 'damage', attacker.player, attacker.id, 're-roll one Damage roll');
        rerolled = [...rerolled, low];
        budget.damage--;
      }
    }
    rolls = afterRoll(g, { purpose: 'damage', player: attacker.player, unit: attacker.id, sides: d.sides, values: rolls, test: null, rerolled, models: modelIds, dicePerRoll: d.n });
  }
  // DEVASTATING WOUNDS' mortal wounds: rules used "just after a mortal wound is allocated" (LAYERED WARDS) are
  // offered as the first is allocated, before it is resolved (a Feel No Pain they give applies to it)
  let announce = mortal && mortalWoundsWatched();
  // WARRIOR FOCUS and SEER'S EYE ignore the target's Damage reductions too
  const perModel = !plan.ignoreCharacteristicModifiers && !plan.ignoreApDamageModifiers && damageReducedPerModel(target);
  for (let i = 0; i < n; i++) {
    const m = allocationTarget(state, target, plan.precision, allowed, plan.precisionOnly);
    if (m === null) return;
    let dmg = d.plus;
    if (rolls) for (let k = 0; k < d.n; k++) dmg += rolls[i * d.n + k];
    const less = perModel ? allocatedDamageReduction(state, target, m) : 0;
    dmg = adjustDamage(dmg, less === 0 ? plan : { damageBonus: plan.damageBonus, damageReduction: plan.damageReduction + less, halveDamage: plan.halveDamage });
    if (announce && dmg > 0) {
      announce = false;
      mortalWoundAllocated(g, target);
      if (!allocatable(m)) continue;
    }
    woundModel(g, attacker, target, m, dmg, plan, mortal, tally);
  }
}

/** The unit has abilities that reduce the Damage of attacks allocated to some of its models (Rule.allocatedDamageReduction). */
function damageReducedPerModel(target: UnitState): boolean {
  for (const r of abilityRules(target)) if (r.allocatedDamageReduction) return true;
  return false;
}

/** What the target's abilities subtract from the Damage of an attack allocated to model m (Scattershield). */
function allocatedDamageReduction(state: GameState, target: UnitState, m: ModelState): number {
  let less = 0;
  for (const r of abilityRules(target)) {
    if (r.allocatedDamageReduction) less += r.allocatedDamageReduction({ state, unit: target, model: m }, { role: 'defender', player: target.player, effect: null, unit: target });
  }
  return less;
}

/** `dmg` wounds of one attack to model m (excess lost), each with its Feel No Pain roll. */
function woundModel(g: Game, attacker: UnitState, target: UnitState, m: ModelState, dmg: number, plan: AttackPlan, mortal: boolean, tally: AttackTally): void {
  const fnp = feelNoPainOf(g.state, target, m, plan.feelNoPain, mortal);
  let lost = dmg;
  if (fnp !== null) {
    const saves = g.dice.d6(dmg, 'feel-no-pain', target.player, target.id);
    for (let k = 0; k < saves.length; k++) if (saves[k] >= fnp) lost--;
  }
  if (lost <= 0) {
    if (!m.allocated) g.emit({ type: 'attack-allocated', unit: target.id, model: m.id });
    return;
  }
  if (lost > m.wounds) lost = m.wounds;
  g.emit({ type: 'model-damaged', unit: target.id, model: m.id, wounds: lost, by: attacker.id, mortal });
  tally.woundsLost += lost;
  if (m.wounds <= 0) {
    destroyModel(g, target, m, attacker.id, mortal ? 'mortal wounds' : 'damage', plan.deadlyDemiseOn === 6 ? { melee: plan.melee } : { deadlyDemiseOn: plan.deadlyDemiseOn, melee: plan.melee });
    tally.modelsDestroyed++;
  } else if (!m.allocated) {
    g.emit({ type: 'attack-allocated', unit: target.id, model: m.id });
  }
}

/** SUSTAINED HITS D3: each Critical Hit's extra hits rolled, each the better of its roll and a fixed SUSTAINED HITS X. */
function sustainedHitsRolled(g: Game, plan: AttackPlan, crits: number, player: PlayerIndex, unit: string, label: string): number {
  const d = plan.sustainedHitsDice!;
  const rolls = rollDice(g, crits * d.n, d.sides, 'sustained-hits', player, unit, label);
  let extra = 0;
  for (let c = 0; c < crits; c++) {
    let v = d.plus;
    for (let k = 0; k < d.n; k++) v += rolls[c * d.n + k];
    extra += Math.max(v, plan.sustainedHits);
  }
  return extra;
}

export { destroyModel };
