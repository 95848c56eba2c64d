/**
 * Statistical agreement between the exact calculator and the engine's dice pipeline: the same weapon
 * profiles (through the real plan builder and abilities) resolved many times with seeded dice in the
 * sandbox; the sample means and the models-destroyed frequencies must match the exact values.
 */
import { describe, expect, it } from 'vitest';
import '../../src/rules/index.ts';
import { weapon, type ProfileSpec } from '../helpers/attack.ts';
import { createStream } from '../../src/core/rng.ts';
import { buildAttackPlan } from '../../src/rules/attack-context.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { sandboxGame, sandboxState, type SandboxUnitSpec } from '../../src/rules/sandbox.ts';
import { exactAttack } from '../../src/calc/exact.ts';

interface Case {
  name: string;
  models: number;
  weapon: ProfileSpec;
  defender: SandboxUnitSpec;
  halfRange?: boolean;
  cover?: boolean;
}

const cases: Case[] = [
  {
    name: 'sustained 1 + lethal, D2 vs W2 Sv3+ in cover',
    models: 5, weapon: { attacks: '2', skill: 3, strength: 5, ap: -1, damage: '2', abilities: ['SUSTAINED HITS 1', 'LETHAL HITS'] },
    defender: { name: 'T', models: 5, profile: { toughness: 4, save: 3, wounds: 2 } }, cover: true,
  },
  {
    name: 'sustained D3 (the Wailing Doom\'s), D2 vs W2 Sv4+',
    models: 3, weapon: { attacks: '3', skill: 3, strength: 5, ap: -1, damage: '2', abilities: ['SUSTAINED HITS D3'] },
    defender: { name: 'T', models: 6, profile: { toughness: 5, save: 4, wounds: 2 } },
  },
  {
    name: 'devastating wounds + twin-linked, D3 vs W3 4++ FNP 5+',
    models: 3, weapon: { attacks: 'D6', skill: 4, strength: 4, ap: -2, damage: 'D3', abilities: ['DEVASTATING WOUNDS', 'TWIN-LINKED'] },
    defender: { name: 'T', models: 4, profile: { toughness: 4, save: 3, invulnerable: 4, wounds: 3 }, coreAbilities: [{ name: 'Feel No Pain', x: 5 }] },
  },
  {
    name: 'melta 2 at half range vs a vehicle',
    models: 2, weapon: { attacks: '1', skill: 3, strength: 9, ap: -4, damage: 'D6', abilities: ['MELTA 2'] },
    defender: { name: 'T', models: 1, profile: { toughness: 10, save: 3, wounds: 12 } }, halfRange: true,
  },
  {
    name: 'torrent + anti-infantry 4+ vs infantry',
    models: 4, weapon: { attacks: 'D6', skill: 4, strength: 5, ap: -1, damage: '1', abilities: ['TORRENT', 'ANTI-INFANTRY 4+', 'DEVASTATING WOUNDS'] },
    defender: { name: 'T', models: 10, profile: { toughness: 4, save: 4, wounds: 1 }, keywords: ['INFANTRY'] },
  },
];

// A grid over the other dimensions: skill, S vs T, AP vs save/invulnerable, damage vs wounds, re-rolls.
const grid: Case[] = [];
for (const [skill, strength, toughness] of [[2, 4, 4], [3, 8, 4], [4, 3, 6], [5, 6, 3]] as const) {
  for (const [ap, damage, wounds, save, inv] of [[0, '1', 1, 4, null], [-2, 'D3', 3, 2, 5], [-1, 'D6+1', 4, 3, null]] as const) {
    grid.push({
      name: `grid: BS${skill}+ S${strength} vs T${toughness}, AP${ap} D${damage} vs W${wounds} Sv${save}+${inv ? ` ${inv}++` : ''}`,
      models: 4, weapon: { attacks: skill === 5 ? '2D6' : '3', skill, strength, ap, damage, abilities: skill === 4 ? ['TWIN-LINKED'] : [] },
      defender: { name: 'T', models: 6, profile: { toughness, save, invulnerable: inv, wounds } }, cover: skill === 3,
    });
  }
}
cases.push(...grid);

const TRIALS = 4000;

describe('exact calculator vs the dice pipeline (sampled)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const w = weapon(c.weapon);
      const template = sandboxState({ name: 'A', models: c.models, weapons: [w] }, c.defender);
      const A = template.units.A;
      const D = template.units.D;
      const plan = buildAttackPlan({
        state: template, attacker: A, attackers: A.models, target: D, weapon: w, profile: w.profiles[0], melee: false,
        halfRange: c.halfRange ?? false, targetModels: D.models.length, targetVisible: true, targetInCover: c.cover ?? false, distance: 0,
      });
      const p = c.defender.profile ?? {};
      const fnp = c.defender.coreAbilities?.find((a) => a.name === 'Feel No Pain')?.x ?? null;
      const exact = exactAttack(plan, c.models, {
        models: c.defender.models, save: p.save ?? 4, invulnerable: p.invulnerable ?? null, wounds: p.wounds ?? 1, feelNoPain: fnp,
      });

      const stream = createStream(`exact-vs-pipeline ${c.name}`);
      const keys = ['attacks', 'hits', 'wounds', 'unsaved', 'woundsLost', 'modelsDestroyed'] as const;
      const sum = Object.fromEntries(keys.map((k) => [k, 0])) as Record<(typeof keys)[number], number>;
      const destroyed = new Array<number>(c.defender.models + 1).fill(0);
      for (let t = 0; t < TRIALS; t++) {
        const g = sandboxGame(template, stream, { log: false });
        const a = g.state.units.A;
        const tally = resolveAttacks(g, a, [{
          weapon: w, profile: w.profiles[0], models: a.models, target: 'D', halfRange: c.halfRange ?? false, targetVisible: true,
          targetInCover: c.cover ?? false, targetModels: g.state.units.D.models.length,
        }], false);
        for (const k of keys) sum[k] += tally[k];
        destroyed[tally.modelsDestroyed]++;
      }
      for (const k of keys) {
        const pmf = exact[k];
        const m = exact.mean[k];
        const variance = pmf.reduce((s, q, i) => s + q * (i - m) ** 2, 0);
        const se = Math.sqrt(variance / TRIALS);
        // 4 standard errors (fixed seeds: the outcome is deterministic); a rules mismatch shows as tens of SE
        expect(Math.abs(sum[k] / TRIALS - m), `${k}: sample ${sum[k] / TRIALS} vs exact ${m}`).toBeLessThanOrEqual(4 * se + 1e-12);
      }
      // models destroyed, frequency of each value
      for (let i = 0; i < destroyed.length; i++) {
        const q = exact.modelsDestroyed[i];
        const se = Math.sqrt(q * (1 - q) / TRIALS);
        expect(Math.abs(destroyed[i] / TRIALS - q), `P(${i} destroyed)`).toBeLessThanOrEqual(4 * se + 1e-12);
      }
    });
  }
});
