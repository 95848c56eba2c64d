import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/core/agent-loader.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { gameSeed } from '../../src/core/rng.ts';
import { readBatchGame, regenerateBatchGame } from '../../src/replay/batch.ts';
import { forkGame, ForkError } from '../../src/replay/fork.ts';
import { Replay } from '../../src/replay/replay.ts';
import { playGame } from '../../src/sim/play.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { CAREFUL, loggedGame } from './helpers.ts';

const lines = (events: readonly GameEvent[]) => events.map((e) => JSON.stringify(e));

describe('fork', () => {
  it('keeps events 1..N identical and plays on to a legal end with another seed', async () => {
    const g = await loggedGame('1');
    const at = Math.floor(g.events.length / 2);
    const { game, result } = await forkGame(g.events, { at, seed: 'other', log: true });
    const log = game.log!;
    expect(lines(log.slice(0, at))).toEqual(lines(g.events.slice(0, at)));
    expect(log[log.length - 1]).toEqual({ type: 'game-ended', result });
    // the fork's own log replays and verifies
    const r = Replay.fromText(lines(log).join('\n') + '\n');
    expect(r.error).toBeNull();
    expect(r.verify().problems).toEqual([]);
    // the dice went another way after the fork point
    const after = (events: readonly GameEvent[]) => lines(events.slice(at).filter((e) => e.type === 'dice'));
    expect(after(log)).not.toEqual(after(g.events));
  });

  it('a fork at the last event reproduces the original game and result', async () => {
    const g = await loggedGame('2');
    const { game, result } = await forkGame(g.events, { at: g.events.length, seed: 'ignored', log: true });
    expect(result).toEqual(g.result);
    expect(lines(game.log!)).toEqual(lines(g.events));
  });

  it('replays recorded reasons and re-roll answers, then hands over to other agents', async () => {
    const g = await loggedGame('1', [CAREFUL, CAREFUL]);
    const rerolls = g.events.map((e, i) => (e.type === 'decision' && e.request === 'reroll-policy' ? i + 1 : 0)).filter(Boolean);
    expect(rerolls.length).toBeGreaterThan(0);
    const at = rerolls[rerolls.length - 1] + 5;
    const { game } = await forkGame(g.events, { at, agents: ['random', CAREFUL], log: true });
    const log = game.log!;
    expect(lines(log.slice(0, at))).toEqual(lines(g.events.slice(0, at)));
    const later = log.slice(at).filter((e): e is Extract<GameEvent, { type: 'decision' }> => e.type === 'decision');
    expect(later.some((d) => d.player === 0)).toBe(true);
    for (const d of later) expect(d.agent).toBe(d.player === 0 ? 'random' : 'careful');
    expect(log[log.length - 1].type).toBe('game-ended');
  });

  it('says where a log and the engine disagree', async () => {
    const g = await loggedGame('3');
    const events = g.events.map((e) => JSON.parse(JSON.stringify(e)) as GameEvent);
    const k = events.findIndex((e) => e.type === 'decision' && e.request === 'move');
    const d = events[k] as Extract<GameEvent, { type: 'decision' }>;
    d.request = 'charge-targets';
    await expect(forkGame(events, { at: events.length })).rejects.toThrow(ForkError);
    await expect(forkGame(events, { at: events.length })).rejects.toThrow(`event ${k + 1}`);
    // a decision before the fork point whose recorded choice differs from what the game offers
    const events2 = g.events.map((e) => JSON.parse(JSON.stringify(e)) as GameEvent);
    (events2[k] as Extract<GameEvent, { type: 'decision' }>).choice = { mode: 'nowhere' };
    await expect(forkGame(events2, { at: k + 2 })).rejects.toThrow(/was \{"mode":"nowhere"\} in the log/);
    await expect(forkGame(g.events, { at: 0 })).rejects.toThrow(/fork point/);
    // a difference during deployment, whose errors set-up turns into a scenario error: still said as one
    const events3 = g.events.map((e) => JSON.parse(JSON.stringify(e)) as GameEvent);
    const placed = events3.findIndex((e) => e.type === 'models-placed' && e.mode === 'deploy');
    const first = (events3[placed] as Extract<GameEvent, { type: 'models-placed' }>).positions[0];
    first.pos.x += 0.5;
    await expect(forkGame(events3, { at: placed + 5 })).rejects.toThrow(ForkError);
    await expect(forkGame(events3, { at: placed + 5 })).rejects.toThrow(`event ${placed + 1} (models-placed) differs from the log`);
  });
});

describe('batch games', () => {
  it('regenerates game I of a batch from results.json: same events as playing its seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batch-'));
    const sc = miniScenario();
    writeFileSync(join(dir, 'results.json'), JSON.stringify({
      scenario: sc, batchSeed: 'b7', agents: ['random', 'random'],
      games: [{ index: 0, seed: gameSeed('b7', 0), swapped: false }, { index: 1, seed: gameSeed('b7', 1), swapped: true }],
    }));
    const bg = readBatchGame(dir, 1);
    expect(bg.seed).toBe('b7#1');
    expect(bg.swapped).toBe(true);
    expect(bg.scenario.players[0].name).toBe(sc.players[1].name);
    const { events, result, mismatch } = await regenerateBatchGame(dir, 0);
    const direct = playGame(miniScenario(), { seed: 'b7#0', agents: await loadAgents(['random', 'random'], 'b7#0'), log: true });
    expect(result).toEqual(direct.result);
    expect(lines(events)).toEqual(lines(direct.game.log!));
    expect(mismatch).toBeNull();
    // the VP the batch recorded are checked
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ scenario: sc, seed: 'b7', games: [{ seed: 'b7#0', result: { vp: [result.vp[0] + 1, result.vp[1]] } }] }));
    expect((await regenerateBatchGame(dir, 0)).mismatch).toMatch(/the batch recorded VP/);
    // no per-game entries: the seed comes from the batch seed
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ scenario: sc, seed: 'b7' }));
    expect(readBatchGame(dir, 3).seed).toBe('b7#3');
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ seed: 'b7' }));
    expect(() => readBatchGame(dir, 0)).toThrow(/no scenario/);
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toContain('b7');
  });

  it('reads the batch runner\'s folder: batch.json (side-swapped pairs) and the records of games.jsonl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batch-'));
    const sc = miniScenario();
    writeFileSync(join(dir, 'batch.json'), JSON.stringify({ format: 'any', scenarioFile: null, scenario: sc, agents: ['random', CAREFUL], batchSeed: 'q', games: 4, swap: true }));
    // game 3 replays game 2's seed with the armies on each other's side
    const g3 = readBatchGame(dir, 3);
    expect(g3.seed).toBe(gameSeed('q', 2));
    expect(g3.swapped).toBe(true);
    expect(g3.agents).toEqual([CAREFUL, 'random']);
    expect(g3.scenario.players[0].army.faction).toBe(sc.players[1].army.faction);
    // the seat keeps its side
    expect(g3.scenario.players[0].zone).toBe(sc.players[0].zone);
    expect(() => readBatchGame(dir, 4)).toThrow(/games 0 to 3/);
    // a record by army, checked by seat
    const { result } = await regenerateBatchGame(dir, 3);
    writeFileSync(join(dir, 'games.jsonl'), `${JSON.stringify({ index: 3, seed: gameSeed('q', 2), swapped: true, vp: [result.vp[1], result.vp[0]] })}\n{"index": 9, "cut`);
    expect((await regenerateBatchGame(dir, 3)).mismatch).toBeNull();
    writeFileSync(join(dir, 'games.jsonl'), `${JSON.stringify({ index: 3, seed: gameSeed('q', 2), swapped: true, vp: [result.vp[0] + 1, result.vp[1] + 2] })}\n`);
    expect((await regenerateBatchGame(dir, 3)).mismatch).toMatch(/recorded VP/);
  });
});
