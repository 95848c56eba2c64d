/**
 * The stratagems offered to each army in a batch's games (GameRecord.offered) and the report's "games
 * offered": counted by army in swapped games too, never missing a used stratagem, and shown for the
 * stratagems offered and never used.
 */
import { describe, expect, it } from 'vitest';
import type { Agent, AgentFactory } from '../../src/core/agent.ts';
import { loadAgentFactory } from '../../src/core/agent-loader.ts';
import { emptyRecord, playBatchGame, prepareVariant } from '../../src/sim/batch-game.ts';
import { variantOf } from '../../src/sim/batch.ts';
import { BatchAggregator } from '../../src/sim/aggregate.ts';
import { formatBatchSummary } from '../../src/sim/batch-report.ts';
import { renderBatchHtml } from '../../src/sim/report-html.ts';
import { runBatch } from '../../src/sim/batch.ts';
import { rate } from '../../src/sim/stats.ts';
import type { GameRecord } from '../../src/sim/batch-types.ts';
import { batchSpec } from './helpers.ts';

/**
 * Random agents that write down, for their army, every stratagem name in the `stratagem` requests they are
 * asked; with `pass`, they pass every such request (the first option is always the pass).
 */
async function recordingFactories(pass: [boolean, boolean]) {
  const random = await loadAgentFactory('random');
  const seen: [Set<string>, Set<string>] = [new Set(), new Set()];
  const factory = (army: 0 | 1): AgentFactory => (ctx) => {
    const inner = random(ctx);
    const agent: Agent = {
      name: `recording-${army}`,
      decide(view, request) {
        if (request.kind !== 'stratagem') return inner.decide(view, request);
        for (const o of request.options as { stratagem?: string }[]) if (o.stratagem) seen[army].add(o.stratagem);
        return pass[army] ? { option: 0 } : inner.decide(view, request);
      },
    };
    return agent;
  };
  return { seen, factories: [factory(0), factory(1)] as [AgentFactory, AgentFactory] };
}

describe('stratagems offered in a batch game', () => {
  it('are recorded by army, in side-swapped games too, and include every stratagem used', async () => {
    const spec = batchSpec({ games: 6, blockSize: 2 });
    const prepared = await prepareVariant(variantOf(spec));
    const { seen, factories } = await recordingFactories([false, false]);
    prepared.factories = factories;
    let used = 0;
    for (let index = 0; index < 6; index++) {
      seen[0].clear();
      seen[1].clear();
      const r = playBatchGame(prepared, spec.batchSeed, index, true);
      expect(r.error).toBeUndefined();
      expect(r.swapped).toBe(index % 2 === 1);
      for (const a of [0, 1] as const) {
        // the record's army a is the army whose agent saw these requests, whichever seat it sat in
        expect(r.offered![a]).toEqual([...seen[a]].sort());
        for (const name of Object.keys(r.stratagems[a])) expect(r.offered![a]).toContain(name);
        used += Object.keys(r.stratagems[a]).length;
      }
    }
    // the check above meant something: stratagems were used
    expect(used).toBeGreaterThan(0);
  });

  it('show in the report when offered and never used', async () => {
    const spec = batchSpec({ games: 4, blockSize: 2 });
    const prepared = await prepareVariant(variantOf(spec));
    const { seen, factories } = await recordingFactories([true, false]);
    prepared.factories = factories;
    const agg = new BatchAggregator(spec);
    // the games in which army 1's agent saw each stratagem in its requests, counted here game by game
    const gamesSeen = new Map<string, number>();
    for (let index = 0; index < 4; index++) {
      seen[0].clear();
      agg.add(playBatchGame(prepared, spec.batchSeed, index, true));
      for (const name of seen[0]) gamesSeen.set(name, (gamesSeen.get(name) ?? 0) + 1);
    }
    const army0 = agg.result().armies[0];
    // army 1 passed every stratagem: each one offered is listed, with no use and the games it came up in
    expect(gamesSeen.size).toBeGreaterThan(0);
    expect(army0.stratagems.map((s) => s.name).sort()).toEqual([...gamesSeen.keys()].sort());
    for (const s of army0.stratagems) {
      expect(s.uses).toBe(0);
      expect(s.games.count).toBe(0);
      expect(s.offered).toEqual(rate(gamesSeen.get(s.name)!, 4));
    }
    // not every stratagem comes up in every game: the counts are per game, not a flag
    expect([...gamesSeen.values()].some((n) => n < 4)).toBe(true);
  });
});

describe('games offered in the statistics', () => {
  const spec = batchSpec({ games: 4, blockSize: 2 });
  const rec = (index: number, offered: [string[], string[]] | undefined, stratagems: GameRecord['stratagems']): GameRecord => ({
    ...emptyRecord(index, `T#${index - (index % 2)}`, index % 2 === 1, ''), error: undefined,
    winner: 0, vp: [5, 0], vpByRound: [[5], [0]], rounds: 1, endedBy: 'rounds', first: 0, stratagems, offered,
  });

  it('counts the games each stratagem was offered in, used or not, sorted by uses then offers', () => {
    const agg = new BatchAggregator(spec);
    agg.add(rec(0, [['FIRE OVERWATCH', 'GO TO GROUND', 'TANK SHOCK'], []], [{ 'FIRE OVERWATCH': [2, 2] }, {}]));
    agg.add(rec(1, [['GO TO GROUND', 'TANK SHOCK'], ['INSANE BRAVERY']], [{}, {}]));
    agg.add(rec(2, [['GO TO GROUND'], []], [{}, {}]));
    const [a, b] = agg.result().armies;
    expect(a.stratagems).toEqual([
      { name: 'FIRE OVERWATCH', uses: 2, usesPerGame: 2 / 3, games: rate(1, 3), offered: rate(1, 3), cpPerGame: 2 / 3 },
      { name: 'GO TO GROUND', uses: 0, usesPerGame: 0, games: rate(0, 3), offered: rate(3, 3), cpPerGame: 0 },
      { name: 'TANK SHOCK', uses: 0, usesPerGame: 0, games: rate(0, 3), offered: rate(2, 3), cpPerGame: 0 },
    ]);
    expect(b.stratagems).toEqual([{ name: 'INSANE BRAVERY', uses: 0, usesPerGame: 0, games: rate(0, 3), offered: rate(1, 3), cpPerGame: 0 }]);
  });

  it('counts offers over the games whose records keep them, and none when no record does (older batches)', () => {
    const mixed = new BatchAggregator(spec);
    mixed.add(rec(0, undefined, [{ 'FIRE OVERWATCH': [1, 1] }, {}]));
    mixed.add(rec(1, [['FIRE OVERWATCH'], []], [{}, {}]));
    expect(mixed.result().armies[0].stratagems[0].offered).toEqual(rate(1, 1));
    const old = new BatchAggregator(spec);
    old.add(rec(0, undefined, [{ 'FIRE OVERWATCH': [1, 1] }, {}]));
    expect(old.result().armies[0].stratagems[0].offered).toBeNull();
  });

  it('the summary and the page have a "games offered" column only when offers were kept', async () => {
    const o = await runBatch(batchSpec({ games: 2, blockSize: 2 }), { workers: 0 });
    const never = { name: 'NEVER USED', uses: 0, usesPerGame: 0, games: rate(0, 2), offered: rate(2, 2), cpPerGame: 0 };
    o.stats.armies[0].stratagems = [never];
    const text = formatBatchSummary(o);
    expect(text).toMatch(/stratagem +uses\/game +games used +games offered +CP\/game/);
    expect(text).toMatch(/NEVER USED +0\.00 +0\.0% \[[^\]]+\] +100\.0% \[[^\]]+\] +0\.00/);
    expect(text).toContain('(none used)');
    expect(renderBatchHtml(o)).toContain('games offered [95% CI]');
    o.stats.armies[0].stratagems = [{ ...never, uses: 1, usesPerGame: 0.5, games: rate(1, 2), offered: null, cpPerGame: 0.5 }];
    o.stats.armies[1].stratagems = [];
    expect(formatBatchSummary(o)).not.toContain('games offered');
    expect(renderBatchHtml(o)).not.toContain('games offered');
  });
});
