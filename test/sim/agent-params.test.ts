/**
 * A scenario's `agentParams`: passed to the agent the scenario names for that player (in `play`, batches on
 * worker threads, `batch-game` and forks), dropped when the command line puts another agent in the seat, and
 * checked by the agent against its own parameters (a misspelt or mistyped one is bad input, not a default).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentFactory } from '../../src/core/agent.ts';
import { loadAgentFactory, makeSeatAgent } from '../../src/core/agent-loader.ts';
import { checkAgentParams } from '../../src/core/agent-params.ts';
import { DataError } from '../../src/data/errors.ts';
import { cli } from '../helpers/cli.ts';
import { batchScenario, writeBatchScenarioFile } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'strategium-agent-params-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SALTED = join(import.meta.dirname, 'fixtures', 'salted-agent.ts');

/** The mini batch scenario as a file, player 1 played by `agent` with `params`. */
function scenarioWith(name: string, agent: string, params?: Record<string, unknown>): string {
  const file = writeBatchScenarioFile(join(tmp, name));
  const json = JSON.parse(readFileSync(file, 'utf8'));
  json.players[0].agent = agent;
  if (params) json.players[0].agentParams = params;
  writeFileSync(file, JSON.stringify(json));
  return file;
}

describe('checkAgentParams', () => {
  it('takes the parameters an agent has, of their kind, and names the rest', () => {
    const d = { objective: 70, greedy: false };
    expect(checkAgentParams('a', { objective: 10 }, d)).toEqual({ objective: 10 });
    expect(checkAgentParams('a', undefined, d)).toEqual({});
    expect(() => checkAgentParams('a', { objectve: 10 }, d)).toThrow('a: unknown parameter "objectve" (its parameters: objective, greedy)');
    expect(() => checkAgentParams('a', { objective: 'ten' }, d)).toThrow('a: parameter "objective": expected a finite number (default 70), got "ten"');
    expect(() => checkAgentParams('a', { objective: null }, d)).toThrow(/expected a finite number/);
    expect(() => checkAgentParams('a', { greedy: 1 }, d)).toThrow('a: parameter "greedy": expected a boolean (default false), got 1');
    expect(() => checkAgentParams('random', { x: 1 }, {})).toThrow('random: takes no parameters, got "x"');
  });

  it('a number outside its range is refused: the lookahead with no futures (rollouts: 0) would play as the heuristic', async () => {
    const f = await loadAgentFactory('lookahead');
    const make = (params: Record<string, unknown>) => () => f({ player: 0, random: { int: () => 0, next: () => 0 } as never, params });
    expect(make({ rollouts: 0 })).toThrow('lookahead: parameter "rollouts": expected a whole number from 1 (default 2), got 0');
    expect(make({ candidates: 1.5 })).toThrow('lookahead: parameter "candidates": expected a whole number from 1 (default 3), got 1.5');
    expect(make({ lastRound: 6 })).toThrow('lookahead: parameter "lastRound": expected a whole number from 1 to 5 (default 5), got 6');
    expect(make({ margin: -1 })).toThrow('lookahead: parameter "margin": expected a number from 0 (default 10), got -1');
    expect(make({ rollouts: 1, candidates: 2 })).not.toThrow();
  });

  it('each built-in agent checks its own', async () => {
    for (const name of ['random', 'heuristic', 'lookahead']) {
      const f = await loadAgentFactory(name);
      expect(() => f({ player: 0, random: { int: () => 0, next: () => 0 } as never, params: { nonsense: 1 } }), name).toThrow(new RegExp(`^${name}: (unknown parameter|takes no parameters)`));
    }
  });
});

describe('makeSeatAgent', () => {
  const sc = batchScenario();
  sc.players[0].agent = 'random';
  sc.players[0].agentParams = { salt: 3 };
  const seen: unknown[] = [];
  const spy: AgentFactory = (ctx) => { seen.push(ctx.params); return { name: 'spy', decide: () => ({ option: 0 }) }; };

  it("gives the scenario's parameters to the agent it names, not to another in the seat", () => {
    seen.length = 0;
    makeSeatAgent(spy, 'random', sc, 0, 's');
    makeSeatAgent(spy, 'heuristic', sc, 0, 's');
    makeSeatAgent(spy, 'random', sc, 1, 's');
    expect(seen).toEqual([{ salt: 3 }, undefined, undefined]);
  });

  it('parameters the agent refuses are bad input naming the scenario file and the player', async () => {
    const random = await loadAgentFactory('random');
    expect(() => makeSeatAgent(random, 'random', sc, 0, 's')).toThrow(DataError);
    expect(() => makeSeatAgent(random, 'random', sc, 0, 's')).toThrow(`${sc.file}: agentParams of ${sc.players[0].name}: random: takes no parameters, got "salt"`);
  });
});

describe('agentParams through the commands', () => {
  it('play: a misspelt parameter is a one-line error; another agent on the command line plays without them', () => {
    const file = scenarioWith('bad', 'heuristic', { objectve: 10 });
    const r = cli(['play', file, '--seed', '1', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: .*scenario\.json: agentParams of .*: heuristic: unknown parameter "objectve" \(its parameters: objective, /);
    const other = cli(['play', file, '--seed', '1', '--json', '--agents', 'random,random']);
    expect(other.code).toBe(0);
    // and the batch refuses it before any game, with the same words
    const b = cli(['batch', file, '--games', '2', '--workers', '0', '--no-progress']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/agentParams of .*: heuristic: unknown parameter "objectve"/);
  });

  it('reach the agent in play, in batches on worker threads, and in batch-game, which regenerates the game', () => {
    const plain = scenarioWith('plain', SALTED);
    const salted = scenarioWith('salted', SALTED, { salt: 5 });
    const events = (file: string) => JSON.parse(cli(['play', file, '--seed', '9', '--json']).stdout).events as number;
    // the salt moves the agent's stream: another game (its length tells)
    expect(events(salted)).not.toBe(events(plain));
    const out = join(tmp, 'batch');
    const b = cli(['batch', salted, '--games', '4', '--workers', '2', '--seed', 'p', '--out', out, '--no-progress', '--json']);
    expect(b.code).toBe(0);
    const records = readFileSync(join(out, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const i of [0, 1]) {
      const g = JSON.parse(cli(['batch-game', out, String(i), '--json']).stdout);
      expect(g.matchesRecord).toBe(true);
      // game 0 (sides as in the file) is `play` with its seed, parameters included
      if (i === 0) expect(g.events).toBe(JSON.parse(cli(['play', salted, '--seed', records[0].seed, '--json']).stdout).events);
    }
    // the same batch without the parameter plays other games
    const outPlain = join(tmp, 'batch-plain');
    expect(cli(['batch', plain, '--games', '4', '--workers', '2', '--seed', 'p', '--out', outPlain, '--no-progress', '--json']).code).toBe(0);
    const plainEvents = readFileSync(join(outPlain, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).events);
    expect(plainEvents).not.toEqual(records.map((r) => r.events));
  }, 120_000);

  it('a forked log plays on with the parameters its scenario gave', () => {
    const salted = scenarioWith('fork', SALTED, { salt: 5 });
    const log = join(tmp, 'fork.jsonl');
    const played = JSON.parse(cli(['play', salted, '--seed', '4', '--log', log, '--json']).stdout);
    // forked at the first event, the agents decide everything again: the same game only with the salt
    const fork = cli(['fork', log, '--at', '1', '--json']);
    expect(fork.code).toBe(0);
    expect(JSON.parse(fork.stdout).events).toBe(played.events);
  }, 60_000);
});
