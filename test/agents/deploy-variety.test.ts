/**
 * The heuristic's deployment variety (WEIGHTS.deployVariety): no dice are rolled before deployment, so
 * an agent that always takes the best-scoring spot deploys alike in every game of a batch. It draws each
 * unit's spot from its own seeded stream among the spots near the best: games of one seed deploy alike,
 * games of different seeds differently, and with the weight at 0 every seed deploys the same.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenario, SCENARIOS_DIR } from '../../src/data/scenario.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { makeAgent } from '../../src/core/agent-loader.ts';
import type { AgentFactory } from '../../src/core/agent.ts';
import { createStream } from '../../src/core/rng.ts';
import type { GameState } from '../../src/core/state.ts';
import type { GameEvent } from '../../src/core/events.ts';
import heuristic, { createHeuristic, nearBest } from '../../agents/heuristic.ts';

describe('nearBest', () => {
  // finite scores sorted: 0, 5, 9, 9.5, 10: the median is 9, the best 10 (option 0)
  const scores = [10, 9, 5, 0, -Infinity, 9.5];
  const drawn = (share: number) => {
    const seen: number[] = [];
    let n = 0;
    for (let k = 0; ; k++) {
      const i = nearBest(scores, 0, share, { int: (m) => { n = m; return k; } });
      seen.push(i);
      if (n === 0 || k === n - 1) return seen; // n 0: nothing was drawn
    }
  };
  it('draws among the options within the share of the gap between the best and the median', () => {
    expect(drawn(0)).toEqual([0]);
    expect(drawn(0.5)).toEqual([0, 5]); // cut 9.5
    expect(drawn(1)).toEqual([0, 1, 5]); // cut 9: never 2, 3 nor the -Infinity option
    // a best that is not a number stands, and nothing is drawn
    expect(nearBest([NaN, -Infinity, 3], 0, 0.2, { int: () => { throw new Error('drawn'); } })).toBe(0);
  });
  it('draws them uniformly from the stream', () => {
    const random = createStream('near-best');
    const n = 4000;
    let first = 0;
    for (let i = 0; i < n; i++) if (nearBest(scores, 0, 0.5, random) === 0) first++;
    // two options, p = 1/2: within 4 standard errors (sqrt(n p (1 - p)) = 31.6)
    expect(Math.abs(first - n / 2)).toBeLessThan(4 * Math.sqrt(n / 4));
  });
});

describe('deployment variety', () => {
  const sc = loadScenario(join(SCENARIOS_DIR, 'default.json'));
  // where every unit stands when the armies are deployed (before the first turn's roll-off, Scouts, redeployments)
  const deployment = (factory: AgentFactory, seed: string): string => {
    let at = '';
    const onEvent = (e: GameEvent, s: GameState) => {
      if (e.type !== 'first-turn' || at) return;
      at = s.unitOrder.map((id) => {
        const m = s.units[id].models.find((x) => x.alive && x.pos);
        return m?.pos ? `${id}@${m.pos.x.toFixed(2)},${m.pos.y.toFixed(2)}` : `${id}:${s.units[id].location}`;
      }).join(' ');
    };
    createGame(sc, { seed, agents: [makeAgent(factory, seed, 0), makeAgent(factory, seed, 1)], log: false, onEvent } as never);
    expect(at).not.toBe('');
    return at;
  };
  const fixed: AgentFactory = (ctx) => createHeuristic({ deployVariety: 0 }, 'fixed', ctx.random);

  it('deploys alike for one seed, differently for others; with no variety alike for every seed', () => {
    const a = deployment(heuristic, 'dv-1');
    expect(deployment(heuristic, 'dv-1')).toBe(a);
    const others = ['dv-2', 'dv-3', 'dv-4'].map((seed) => deployment(heuristic, seed));
    expect(new Set([a, ...others]).size).toBeGreaterThanOrEqual(3);
    const still = ['dv-1', 'dv-2', 'dv-3'].map((seed) => deployment(fixed, seed));
    expect(new Set(still).size).toBe(1);
  });
});
