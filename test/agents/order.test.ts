/**
 * A game's result depends on its number alone, not on which games the same thread played before it:
 * the agents' caches must not carry anything from one game to the next. Side-swapped pairs share a seed
 * and unit ids while the units behind the ids change, which is where a cache shared across games went wrong.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadScenario, SCENARIOS_DIR } from '../../src/data/scenario.ts';
import { join } from 'node:path';

/** Fresh copies of the engine and agent modules (empty module-level caches), then the games in order. */
async function playInOrder(indices: number[]): Promise<string[]> {
  vi.resetModules();
  const { playBatchGame, prepareVariant } = await import('../../src/sim/batch-game.ts');
  const scenario = loadScenario(join(SCENARIOS_DIR, 'mirror', 'kauyon-vs-none.json'));
  const p = await prepareVariant({ scenario, agents: ['heuristic', 'heuristic'] });
  return indices.map((i) => JSON.stringify(playBatchGame(p, '1', i, true)));
}

describe('agent caches', () => {
  it('a heuristic game gives the same record after another game in the thread as on its own', async () => {
    const [, afterGame0] = await playInOrder([0, 1]);
    const [alone] = await playInOrder([1]);
    expect(afterGame0).toEqual(alone);
  }, 120_000);
});
