/**
 * The rule registry: every rule the engine plays (core abilities, datasheet abilities, army rules,
 * detachment rules, enhancements, effects) is one entry, found by name. An entry answers the hooks
 * the engine calls at the moments the rules name ("each time a model makes an attack...", "while this
 * unit is Battle-shocked..."). Adding a rule adds an entry; it does not edit the core.
 *
 * Which entries are active is data: a unit's `abilities`, a player's `rules`, the state's `effects`.
 */
import type { AttackPlan } from '../rules/attack-plan.ts';
import type { AttackContext } from '../rules/attack-context.ts';
import type { Effect, GameState, ModelState, PlayerIndex, UnitState } from './state.ts';

export type RuleKind =
  | 'core-ability' | 'datasheet-ability' | 'army-rule' | 'detachment-rule' | 'enhancement' | 'effect' | 'mission';

/** Why a rule is active for a hook call: which side of the attack, and from what. */
export interface RuleSource {
  /** the side the rule belongs to, relative to the attack or question being asked */
  role: 'attacker' | 'defender' | 'self';
  player: PlayerIndex;
  /** the effect, when the rule is active through an effect in the state */
  effect: Effect | null;
  /** the unit whose ability it is, when it is a unit ability */
  unit: UnitState | null;
}

export type Characteristic = 'M' | 'T' | 'Sv' | 'W' | 'Ld' | 'OC';

export interface CharacteristicContext {
  state: GameState;
  unit: UnitState;
  model: ModelState;
}

export interface Rule {
  name: string;
  kind: RuleKind;
  /** what of the rule is not played yet (for the coverage report); absent when fully played */
  missing?: string;
  /** change the Attack plan of an attack this rule's side is involved in */
  attack?(plan: AttackPlan, ctx: AttackContext, src: RuleSource): void;
  /** change a model's characteristic (OC, Move...) while this rule applies to its unit */
  characteristic?(which: Characteristic, value: number, ctx: CharacteristicContext, src: RuleSource): number;
}

const registry = new Map<string, Rule>();

export function registerRule(rule: Rule): Rule {
  if (registry.has(rule.name)) throw new Error(`rule "${rule.name}" is registered twice`);
  registry.set(rule.name, rule);
  return rule;
}

export function getRule(name: string): Rule | undefined {
  return registry.get(name);
}

export function allRules(): Rule[] {
  return [...registry.values()];
}
