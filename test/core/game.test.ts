import { describe, expect, it } from 'vitest';
import { Game, MAX_EVENTS } from '../../src/core/game.ts';
import { emptyGameState } from '../../src/core/state.ts';
import { createStream } from '../../src/core/rng.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.ts';

/** Run `fn` in a new temporary folder, removed afterwards whatever happens. */
function inTempDir(prefix: string, fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Game', () => {
  it('stops a game whose rules loop: past MAX_EVENTS events, emit throws naming the seed, and applies nothing', () => {
    const s = emptyGameState();
    s.seed = 'loop';
    s.eventCount = MAX_EVENTS - 1;
    const g = new Game(s, {}, createStream('x'));
    g.emit({ type: 'note', text: 'the last one allowed' });
    expect(g.state.eventCount).toBe(MAX_EVENTS);
    expect(() => g.emit({ type: 'note', text: 'one too many' })).toThrow(/game seed "loop": more than 2000000 events .*a rule is looping \(last event: note\)/);
    expect(g.state.eventCount).toBe(MAX_EVENTS);
  });
});

describe('illegal decisions', () => {
  it('an answer outside the options is an error naming the agent, the request and the seed', async () => {
    const { IllegalDecisionError } = await import('../../src/core/agent.ts');
    const s = emptyGameState();
    s.seed = 'seed-7';
    const bad = { name: 'bad-agent', decide: () => ({ option: 3 }) };
    const g = new Game(s, { agents: [bad, bad] }, createStream('x'));
    const ask = () => g.decide({ kind: 'first-turn', player: 1, prompt: 'take the first turn?', options: ['first', 'second'] });
    expect(ask).toThrow(IllegalDecisionError);
    expect(ask).toThrow(/agent "bad-agent" \(player 2\) on request "first-turn" \(take the first turn\?\) in game seed "seed-7": answered \{"option":3\}, expected \{option: n\} with n an integer in 0\.\.1/);
  });

  it('the CLI prints it as one line (no stack trace) and exits with 1', () => inTempDir('strategium-bad-agent-', (dir) => {
    const file = join(dir, 'bad.ts');
    writeFileSync(file, "export default () => ({ name: 'bad-agent', decide: () => ({ option: -1 }) });\n");
    // into folders that do not exist yet: made for the log, removed again when the game fails
    const log = join(dir, 'logs', 'today', 'game.jsonl');
    const r = cli(['play', '--agents', `${file},random`, '--seed', '5', '--log', log]);
    expect(r.code).toBe(1);
    // nothing half-written: neither the log nor its temporary file nor the folders made for them is left
    expect(existsSync(log)).toBe(false);
    expect(existsSync(`${log}.partial`)).toBe(false);
    expect(existsSync(join(dir, 'logs'))).toBe(false);
    // the scenario's "not played" notes come first; then the error alone, without a stack trace
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(lines.some((l) => /^\s+at /.test(l))).toBe(false);
    expect(lines[lines.length - 1]).toMatch(/^error: illegal decision by agent "bad-agent" \(player 1\) on request "[a-z-]+" .* in game seed "5": answered \{"option":-1\}/);
  }), 60_000);

  it('a log that cannot be written is a one-line error before the game is played', () => inTempDir('strategium-log-', (dir) => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder\n');
    const r = cli(['play', '--seed', '5', '--log', join(file, 'game.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`error: ${join(file, 'game.jsonl')}: cannot write (ENOTDIR)`);
  }), 60_000);

  it('a log into a folder that does not exist yet makes the folder, as the other writers do', () => inTempDir('strategium-log-', (dir) => {
    const log = join(dir, 'logs', 'game.jsonl');
    const r = cli(['play', '--seed', '5', '--agents', 'random,random', '--log', log]);
    expect(r.code).toBe(0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]).type).toBe('game-started');
    expect(JSON.parse(lines[lines.length - 1]).type).toBe('game-ended');
  }), 60_000);
});

describe('the game-started event', () => {
  it('names the scenario file relative to the project root: the same game logged from two checkouts is byte-identical', async () => {
    const { join } = await import('node:path');
    const { SCENARIOS_DIR, loadScenario } = await import('../../src/data/scenario.ts');
    const { PROJECT_ROOT } = await import('../../src/data/project-path.ts');
    const { createGame } = await import('../../src/rules/battle/setup.ts');
    const { loadAgentFactory, makeAgent } = await import('../../src/core/agent-loader.ts');
    const sc = loadScenario(join(SCENARIOS_DIR, 'default.json'));
    expect(sc.file.startsWith(PROJECT_ROOT)).toBe(true);
    const random = await loadAgentFactory('random');
    const g = createGame(sc, { seed: 'where', log: true, agents: [makeAgent(random, 'where', 0), makeAgent(random, 'where', 1)] });
    const start = g.log![0];
    expect(start.type === 'game-started' && (start.scenario as { file: string }).file).toBe('scenarios/default.json');
    expect(JSON.stringify(g.log)).not.toContain(PROJECT_ROOT);
  });
});
