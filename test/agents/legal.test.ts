/**
 * Agents only ever return legal decisions: complete games between the bundled agents, over many seeds,
 * on the mini scenario and on every bundled scenario. An illegal decision throws IllegalDecisionError
 * (naming the agent, the request and the seed), so playing the games is the check. Every decision is
 * also checked to be an index into its request's options, and re-roll policies never wider than the
 * rules grant.
 */
import { describe, expect, it } from 'vitest';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { playGame } from '../../src/sim/play.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import type { Agent, DecisionRequest, GameView } from '../../src/core/agent.ts';
import { bundledScenarios, loadScenario } from '../../src/data/scenario.ts';
import { swapSides } from '../../src/sim/swap.ts';
import type { ResolvedScenario } from '../../src/data/scenario-types.ts';
import { rerollAllowed } from '../../src/rules/attack-sequence.ts';
import type { RerollPolicy } from '../../src/rules/attack-plan.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

/** Wraps an agent: every answer must be an index into the options; counts the decision kinds seen. */
function checked(inner: Agent, kinds: Map<string, number>): Agent {
  return {
    name: inner.name,
    decide(view: GameView, req: DecisionRequest) {
      const d = inner.decide(view, req);
      kinds.set(req.kind, (kinds.get(req.kind) ?? 0) + 1);
      if (!Number.isInteger(d.option) || d.option < 0 || d.option >= req.options.length) {
        throw new Error(`${inner.name} answered option ${d.option} to ${req.kind} with ${req.options.length} options`);
      }
      return d;
    },
    rerollPolicy: inner.rerollPolicy
      ? (view, roll) => {
        const p = inner.rerollPolicy!(view, roll);
        if (!rerollAllowed(roll.granted, p)) throw new Error(`${inner.name} re-rolls ${p}, wider than granted ${roll.granted}`);
        return p;
      }
      : undefined,
  };
}

async function playChecked(sc: ResolvedScenario, seed: string, specs: [string, string], kinds: Map<string, number>) {
  const f0 = await loadAgentFactory(specs[0]);
  const f1 = await loadAgentFactory(specs[1]);
  const agents: [Agent, Agent] = [checked(makeAgent(f0, seed, 0), kinds), checked(makeAgent(f1, seed, 1), kinds)];
  return playGame(sc, { seed, agents }).result;
}

describe('agents answer legally', () => {
  it('random and heuristic on the mini scenario, many seeds, both sides', async () => {
    const kinds = new Map<string, number>();
    const sc = miniScenario();
    for (let i = 0; i < 30; i++) {
      const pair: [string, string] = i % 3 === 0 ? ['heuristic', 'random'] : i % 3 === 1 ? ['random', 'heuristic'] : ['heuristic', 'heuristic'];
      const r = await playChecked(sc, `legal-mini-${i}`, pair, kinds);
      expect(r.rounds).toBeGreaterThan(0);
    }
    expect(kinds.get('move')).toBeGreaterThan(0);
    expect(kinds.get('shoot-target')).toBeGreaterThan(0);
  }, 120_000);

  it('heuristic against random and against itself on every bundled scenario', async () => {
    const kinds = new Map<string, number>();
    const files = bundledScenarios().filter((f) => !f.endsWith('default.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const [k, file] of files.entries()) {
      const sc = loadScenario(file);
      const pair: [string, string] = k % 2 === 0 ? ['heuristic', 'random'] : ['random', 'heuristic'];
      await playChecked(sc, `legal-real-${k}`, pair, kinds);
      await playChecked(swapSides(sc), `legal-real-swap-${k}`, ['heuristic', 'heuristic'], kinds);
    }
    // the stratagem, charge and fight decisions were all exercised
    for (const kind of ['deploy', 'move', 'shoot-target', 'stratagem', 'select-unit-to-charge']) expect(kinds.get(kind) ?? 0).toBeGreaterThan(0);
  }, 300_000);

  it('lookahead (a small budget) against the heuristic on the mini scenario', async () => {
    const kinds = new Map<string, number>();
    const sc = miniScenario();
    const { createLookahead } = await import('../../agents/lookahead.ts');
    const { createStream } = await import('../../src/core/rng.ts');
    for (let i = 0; i < 2; i++) {
      const seed = `legal-lookahead-${i}`;
      const la = checked(createLookahead({ candidates: 2, rollouts: 1 }, createStream(seed)), kinds);
      const h = checked(createHeuristic(), kinds);
      const r = playGame(sc, { seed, agents: i === 0 ? [la, h] : [h, la] }).result;
      expect(r.rounds).toBeGreaterThan(0);
    }
  }, 120_000);

  it('the heuristic re-roll policy is never wider than granted, and it does not fish for Critical results on a grant to re-roll the roll', () => {
    const h = createHeuristic();
    const view = { state: {} as never, player: 0 as const };
    for (const granted of ['none', 'ones', 'failed', 'non-critical'] as RerollPolicy[]) {
      for (const purpose of ['hit', 'wound', 'save'] as const) {
        const p = h.rerollPolicy!(view, { purpose, granted, unit: 'u', weapon: 'w' });
        expect(rerollAllowed(granted, p)).toBe(true);
        if (granted === 'failed') expect(p).toBe('failed');
      }
    }
  });
});
