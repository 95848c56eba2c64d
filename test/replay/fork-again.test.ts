/**
 * Forking a fork, and what a fork keeps of the original: a fork with neither seed nor agents is the original
 * game byte for byte at any fork point (the agents that play on watched the prefix); a fork with another seed
 * or other agents records a fork-point event, so that it can be forked again after it; a damaged log or an
 * unknown agent is bad input (exit 2), said in one line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/core/events.ts';
import { forkGame, ForkError } from '../../src/replay/fork.ts';
import { parseLog } from '../../src/replay/log.ts';
import { Replay } from '../../src/replay/replay.ts';
import { cli } from '../helpers/cli.ts';
import { loggedGame } from './helpers.ts';

const text = (events: readonly GameEvent[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
const dir = mkdtempSync(join(tmpdir(), 'fork-again-'));
const writeLog = (name: string, events: readonly GameEvent[]) => {
  const f = join(dir, name);
  writeFileSync(f, text(events));
  return f;
};
const forkPoints = (events: readonly GameEvent[]) => events.filter((e) => e.type === 'fork-point');

describe('a fork with the log\'s own agents and dice', () => {
  for (const agent of ['heuristic', 'random']) {
    it(`is the original game, byte for byte, wherever it forks (${agent})`, async () => {
      const g = await loggedGame('31', [agent, agent]);
      const n = g.events.length;
      // right after each of the first deployment decisions: the agents' own streams are in use (the heuristic's too)
      const deployed = g.events.flatMap((e, i) => (e.type === 'decision' && e.request === 'deploy' ? [i + 1] : [])).slice(0, 4);
      for (const at of [1, ...deployed, 100, Math.floor(n / 2), n - 3]) {
        const { game, result } = await forkGame(g.events, { at, log: true });
        expect(text(game.log!) === g.text, `fork at ${at} of ${n}`).toBe(true);
        expect(result).toEqual(g.result);
      }
    });
  }
});

describe('a fork of a fork', () => {
  it('after a fork point with another seed: it replays the reseeded dice (and, with nothing changed, is that fork)', async () => {
    const g = await loggedGame('32');
    const at = Math.floor(g.events.length / 3);
    const first = (await forkGame(g.events, { at, seed: 'other', log: true })).game.log!;
    // the fork says where it took over, and with what
    expect(forkPoints(first)).toEqual([{ type: 'fork-point', at, seed: 'other' }]);
    expect(first[at].type).toBe('fork-point');
    // a log like any other: read, replayed, verified
    const parsed = parseLog(text(first));
    expect(parsed.error).toBeNull();
    expect(Replay.fromEvents(parsed.events).verify().problems).toEqual([]);
    for (const later of [at + 1, at + 2, Math.floor((at + first.length) / 2), first.length - 2]) {
      const again = await forkGame(first, { at: later, log: true });
      expect(text(again.game.log!) === text(first), `fork again at ${later}`).toBe(true);
      expect(again.seed).toBe('other');
    }
    const third = await forkGame(first, { at: first.length - 40, seed: 'third', log: true });
    expect(forkPoints(third.game.log!).map((e) => e.at)).toEqual([at, first.length - 40]);
  });

  it('after a fork point with other agents: each decision replayed under the agent that made it', async () => {
    const g = await loggedGame('33');
    const at = Math.floor(g.events.length / 3);
    const first = (await forkGame(g.events, { at, agents: ['heuristic', 'heuristic'], log: true })).game.log!;
    expect(forkPoints(first)).toEqual([{ type: 'fork-point', at, agents: ['heuristic', 'heuristic'] }]);
    // the heuristic answers re-roll questions where the random agent took the engine's default
    expect(first.slice(at).some((e) => e.type === 'decision' && e.request === 'reroll-policy')).toBe(true);
    const later = first.length - 5;
    const again = await forkGame(first, { at: later, log: true });
    expect(again.agents).toEqual(['heuristic', 'heuristic']);
    // what the log itself played on with there: the fork point's agents after it, game-started's before it
    expect(again.originalAgents).toEqual(['heuristic', 'heuristic']);
    expect((await forkGame(first, { at: at - 5, agents: ['random', 'random'] })).originalAgents).toEqual(['random', 'random']);
    const json = JSON.parse(cli(['fork', writeLog('first.jsonl', first), '--at', String(later), '--seed', '9', '--json']).stdout);
    expect([json.agents, json.originalAgents]).toEqual([['heuristic', 'heuristic'], ['heuristic', 'heuristic']]);
    expect(again.warnings).toEqual([]);
    expect(text(again.game.log!) === text(first)).toBe(true);
    // a fork of the fork with another seed: its prefix is the fork's, both fork points recorded, the agents kept
    const third = await forkGame(first, { at: later, seed: 'third', log: true });
    expect(text(third.game.log!.slice(0, later))).toBe(text(first.slice(0, later)));
    expect(forkPoints(third.game.log!).map((e) => e.at)).toEqual([at, later]);
    expect(third.agents).toEqual(['heuristic', 'heuristic']);
  });

  it('refuses a fork-point event that does not stand where it says', async () => {
    const g = await loggedGame('32');
    const at = Math.floor(g.events.length / 3);
    const first = (await forkGame(g.events, { at, seed: 'other', log: true })).game.log!.map((e) => structuredClone(e));
    (first[at] as Extract<GameEvent, { type: 'fork-point' }>).at = at - 1;
    await expect(forkGame(first, { at: at + 10 })).rejects.toThrow(ForkError);
    await expect(forkGame(first, { at: at + 10 })).rejects.toMatchObject({ event: at + 1 });
  });
});

describe('a log whose embedded scenario is damaged', () => {
  it('is refused as the log\'s fault (ForkError at event 1), never a TypeError', async () => {
    const g = await loggedGame('34');
    const bad = g.events.map((e) => structuredClone(e));
    (bad[0] as { scenario: { players: { army: { units: { models: unknown }[] } }[] } }).scenario.players[0].army.units[0].models = 'oops';
    const err = await forkGame(bad, { at: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForkError);
    expect((err as ForkError).event).toBe(1);
    expect((err as ForkError).message).toMatch(/^game-started event: scenario\.players\[0\]\.army\.units\[0\]\.models: /);
  });

  it('fork says so in one line naming the file, line 1 and the field: exit 2', async () => {
    const g = await loggedGame('34');
    const bad = g.events.map((e) => structuredClone(e));
    const start = bad[0] as Extract<GameEvent, { type: 'game-started' }>;
    const id = (start.scenario as { players: { army: { units: { datasheetId: string }[] } }[] }).players[0].army.units[0].datasheetId;
    delete start.datasheets[id];
    const r = cli(['fork', writeLog('no-datasheet.jsonl', bad), '--at', '50', '--seed', 'x']);
    expect(r.stderr).toBe(`error: ${join(dir, 'no-datasheet.jsonl')} line 1: game-started event: scenario.players[0].army.units[0].datasheetId: expected a datasheet of the event's "datasheets", found "${id}" (not there)\n`);
    expect(r.code).toBe(2);
    // a log from before games embedded their scenario
    const old = g.events.map((e) => structuredClone(e));
    delete (old[0] as { scenario?: unknown }).scenario;
    const r2 = cli(['fork', writeLog('no-scenario.jsonl', old), '--at', '50']);
    expect(r2.stderr).toMatch(/^error: .*no-scenario\.jsonl line 1: game-started event: no "scenario" \(.*\)\n$/);
    expect(r2.code).toBe(2);
  });
});

describe('fork --agents with an unknown agent', () => {
  it('is bad input said as play says it: exit 2, "--agents: unknown agent", no log written', async () => {
    const out = join(dir, 'never.jsonl');
    const r = cli(['fork', writeLog('b5.jsonl', (await loggedGame('35')).events), '--at', '20', '--agents', 'nosuch', '--log', out]);
    expect(r.stderr).toMatch(/^error: --agents: unknown agent "nosuch"/);
    expect(r.code).toBe(2);
    expect(() => readFileSync(out)).toThrow();
  });
});
