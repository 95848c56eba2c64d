/**
 * The calculator's two answers for one input: the exact distributions (src/calc/exact.ts) and a seeded
 * simulation through the engine's own attack pipeline (src/rules/attack-sequence.ts). Both start from
 * the same Attack plan, built by the same code the full game uses.
 */
import '../rules/index.ts';
import type { Weapon } from '../data/datasheet.ts';
import { Game } from '../core/game.ts';
import { cloneState } from '../core/clone.ts';
import { createStream, subSeed } from '../core/rng.ts';
import { registerRule, getRule } from '../core/rules-registry.ts';
import type { GameState } from '../core/state.ts';
import { buildAttackPlan } from '../rules/attack-context.ts';
import { grantRerollOne, widerReroll, type AttackPlan, type RerollPolicy } from '../rules/attack-plan.ts';
import { newTally, resolveAttacks, type AttackGroup } from '../rules/attack-sequence.ts';
import { sandboxState } from '../rules/sandbox.ts';
import { exactAttack, type ExactResult } from './exact.ts';
import type { CalcInput } from './input.ts';

const MODIFIERS = 'Calculator modifiers';
// The calculator's "modifiers" block, played as an effect on the attacking unit.
if (!getRule(MODIFIERS)) {
  registerRule({
    name: MODIFIERS, kind: 'effect',
    attack: (plan, _ctx, src) => {
      if (src.role !== 'attacker' || !src.effect) return;
      const p = src.effect.params as { hit: number; wound: number; rerollHits: RerollPolicy; rerollWounds: RerollPolicy; rerollOneHit: number; rerollOneWound: number; rerollOneDamage: number };
      plan.hitModifier += p.hit;
      plan.woundModifier += p.wound;
      plan.rerollHits = widerReroll(plan.rerollHits, p.rerollHits);
      plan.rerollWounds = widerReroll(plan.rerollWounds, p.rerollWounds);
      grantRerollOne(plan, { hit: p.rerollOneHit, wound: p.rerollOneWound, damage: p.rerollOneDamage });
    },
  });
}

export interface CalcScene {
  state: GameState;
  weapon: Weapon;
  group: AttackGroup;
  melee: boolean;
  plan: AttackPlan;
}

export function buildScene(input: CalcInput, seed = 'calc'): CalcScene {
  const w = input.attacker.weapon;
  const weapon: Weapon = {
    name: w.name,
    profiles: [{ name: w.name, range: w.range, attacks: w.attacks, skill: w.skill, strength: w.strength, ap: w.ap, damage: w.damage, abilities: w.abilities }],
  };
  const d = input.defender;
  const state = sandboxState(
    { name: 'Attackers', models: input.attacker.models, weapons: [weapon] },
    {
      name: 'Defenders', models: d.models, keywords: d.keywords,
      profile: { toughness: d.toughness, save: d.save, invulnerable: d.invulnerable, wounds: d.wounds },
      coreAbilities: [...(d.feelNoPain !== null ? [{ name: 'Feel No Pain', x: d.feelNoPain }] : []), ...(d.stealth ? [{ name: 'Stealth' }] : [])],
      abilities: [],
    },
    seed,
  );
  const g = new Game(state);
  const m = input.attacker.modifiers;
  g.addEffect(MODIFIERS, 0, 'A', { at: 'end-of-battle' }, { hit: m.hit, wound: m.wound, rerollHits: m.rerollHits, rerollWounds: m.rerollWounds, rerollOneHit: m.rerollOneHit, rerollOneWound: m.rerollOneWound, rerollOneDamage: m.rerollOneDamage });
  if (m.charged) g.emit({ type: 'unit-flag', unit: 'A', flag: 'charged', value: true });
  if (m.remainedStationary) g.emit({ type: 'unit-moved', unit: 'A', mode: 'stationary' });
  const melee = w.range === 'Melee';
  const A = state.units.A;
  const group: AttackGroup = {
    weapon, profile: weapon.profiles[0], models: A.models, target: 'D', halfRange: m.halfRange,
    targetVisible: true, targetInCover: d.cover, targetModels: d.models,
  };
  const plan = buildAttackPlan({
    state, attacker: A, attackers: A.models, target: state.units.D, weapon, profile: weapon.profiles[0], melee,
    halfRange: group.halfRange, targetModels: group.targetModels, targetVisible: true, targetInCover: group.targetInCover, distance: 0,
  });
  return { state, weapon, group, melee, plan };
}

export function exactForInput(input: CalcInput, scene = buildScene(input)): ExactResult {
  const d = input.defender;
  return exactAttack(scene.plan, input.attacker.models, { models: d.models, save: d.save, invulnerable: d.invulnerable, wounds: d.wounds, feelNoPain: d.feelNoPain });
}

export interface SimulatedResult {
  trials: number;
  meanAttacks: number;
  meanHits: number;
  meanWounds: number;
  meanUnsaved: number;
  meanDamage: number;
  meanModelsDestroyed: number;
  /** frequency of each number of models destroyed */
  modelsDestroyed: number[];
  /** standard deviation of wounds lost (for standard errors) */
  sdDamage: number;
  sdModelsDestroyed: number;
}

/** Run the engine's attack pipeline `trials` times from the seed (batch mode: no log). */
export function simulate(input: CalcInput, trials: number, seed: string, scene = buildScene(input, seed)): SimulatedResult {
  const stream = createStream(subSeed(seed, 'calc-trials'));
  const hist = new Array<number>(input.defender.models + 1).fill(0);
  let attacks = 0, hits = 0, wounds = 0, unsaved = 0, dmg = 0, dmg2 = 0, killed = 0, killed2 = 0;
  for (let t = 0; t < trials; t++) {
    const g = new Game(cloneState(scene.state), {}, stream);
    const A = g.state.units.A;
    const tally = resolveAttacks(g, A, [{ ...scene.group, models: A.models }], scene.melee, newTally());
    attacks += tally.attacks; hits += tally.hits; wounds += tally.wounds; unsaved += tally.unsaved;
    dmg += tally.woundsLost; dmg2 += tally.woundsLost ** 2;
    killed += tally.modelsDestroyed; killed2 += tally.modelsDestroyed ** 2;
    hist[tally.modelsDestroyed]++;
  }
  const mean = (x: number) => x / trials;
  const sd = (s: number, s2: number) => Math.sqrt(Math.max(0, s2 / trials - (s / trials) ** 2));
  return {
    trials, meanAttacks: mean(attacks), meanHits: mean(hits), meanWounds: mean(wounds), meanUnsaved: mean(unsaved),
    meanDamage: mean(dmg), meanModelsDestroyed: mean(killed), modelsDestroyed: hist.map((c) => c / trials),
    sdDamage: sd(dmg, dmg2), sdModelsDestroyed: sd(killed, killed2),
  };
}
