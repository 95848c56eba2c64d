/**
 * Bad input on the command line is exit code 2 whoever finds it: commander (an unknown option or command, a
 * missing argument) or a command (an unknown agent, which batch-like commands check before any worker starts).
 * The help and the version exit 0.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, root } from '../helpers/cli.ts';

describe('exit codes', () => {
  it('commander\'s own errors are bad input: 2, with the message and the usage on stderr', () => {
    for (const [args, message] of [
      [['batch', '--bogus'], /unknown option '--bogus'/],
      [['compare', 'only-one-folder'], /missing required argument 'b'/],
      [['play', '--seed'], /option '--seed <n>' argument missing/],
      [['nosuchcommand'], /unknown command 'nosuchcommand'/],
    ] as const) {
      const r = cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/Usage: strategium/);
    }
  });

  it('an empty --seed is bad input, said in one line, in every command that takes one', () => {
    for (const args of [['play', '--seed', ''], ['batch', '--games', '2', '--seed', ' '], ['calc', 'scenarios/calc/pulse-rifles-vs-guardians.json', '--seed', ''], ['board', 'scenarios/default.json', '--seed', '']]) {
      const r = cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toMatch(/^error: --seed: expected a seed \(any non-empty text\), got "\s*"$/);
    }
  });

  it('an unknown agent is bad input in play and in the commands that start workers', () => {
    // the agents loaded by name: every .ts file directly in agents/ (a contributor's own too)
    const named = readdirSync(join(root, 'agents')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort().join(', ');
    expect(named).toMatch(/heuristic.*lookahead.*random/);
    for (const args of [
      ['play', '--agents', 'nosuchagent,random'],
      ['batch', '--games', '2', '--agents', 'random,nosuchagent'],
      ['tournament', '--agents', 'random,nosuchagent', '--games', '2'],
      ['worth', '--agents', 'nosuchagent', '--games', '2'],
    ]) {
      const r = cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --agents: unknown agent "nosuchagent" (in agents/: ${named}; or give a path to a module exporting an agent factory)`);
    }
    // a near name is suggested; a path that is no file says where it was looked for
    expect(cli(['play', '--agents', 'heurstic,random']).stderr.trim())
      .toBe(`error: --agents: unknown agent "heurstic" (in agents/: ${named}; did you mean "heuristic"?; or give a path to a module exporting an agent factory)`);
    const path = cli(['play', '--agents', './agents/nope.ts,random']);
    expect(path.code).toBe(2);
    expect(path.stderr.trim()).toBe(`error: --agents: agent file not found: ${join(root, 'agents', 'nope.ts')} (expected a module exporting an agent factory, or an agent's name: ${named})`);
  });

  it('a folder that is not a batch, a matrix naming a detachment twice and a tournament naming an agent twice are bad input', () => {
    const merged = cli(['merge', 'scenarios', '--out', 'out/never-written']);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(/scenarios: no batch\.json \(not a batch folder\)/);
    for (const [args, message] of [
      [['matrix', '--detachments', "Mont'ka,montka", '--games', '2'], /--detachments: "Mont'ka" is named twice/], // by the data's spelling
      [['matrix', '--detachments', 'Kauyon', '--vs', 'none,None', '--games', '2'], /--vs: "none" is named twice/],
      [['tournament', '--agents', 'random,heuristic,random', '--games', '2'], /--agents: "random" is named twice/],
      [['tournament', '--agents', 'random,agents/random.ts', '--games', '2'], /--agents: "agents\/random.ts" is "random" again/],
    ] as const) {
      const r = cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('a --log naming a folder is refused before the game is played, leaving no .partial file (audit 19)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategium-exit-'));
    try {
      for (const target of [dir, `${dir}/`, join(dir, 'new') + '/']) {
        const r = cli(['play', '--agents', 'random,random', '--log', target]);
        expect(r.code, target).toBe(2);
        expect(r.stderr.trim()).toBe(`error: ${target}: cannot write (it is a folder)`);
        expect(r.stdout).not.toMatch(/Winner|draw/i);
      }
      expect(readdirSync(dir)).toEqual([]);
      expect(existsSync(`${dir}.partial`)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an army file of a faction that is not bundled names the bundled ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategium-exit-'));
    try {
      const file = join(dir, 'army.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(join(root, 'scenarios', 'armies', 'tau-kauyon.json'), 'utf8')), faction: 'TAUU' }));
      const r = cli(['army', file]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`error: ${file}: faction: "TAUU" is not bundled (available: Aeldari (AE), T'au Empire (TAU)); pass --data <Wahapedia export dir> for another`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an option left without its value is named, not taken for the next option\'s', () => {
    // commander gives --seed the next word, "--agents"; "random,random" would then be read as the scenario
    const r = cli(['play', '--seed', '--agents', 'random,random']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: --seed: expected a value, got the option --agents (give --seed its value)');
    // a value that only starts like an option is a value
    const ok = cli(['batch', '--games', '2', '--workers', '0', '--agents', 'random,random', '--seed', '--not-an-option', '--json', '--no-progress']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('an --out that cannot be written, a misspelt --detachments and an empty scenario seed are bad input, said in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategium-exit-'));
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'x');
      for (const [args, message] of [
        [['coverage', '--out', join(file, 'coverage.md')], `error: ${join(file, 'coverage.md')}: cannot write (ENOTDIR)`],
        [['batch', '--games', '2', '--out', file], `error: --out: ${file} is a file: expected a folder (a new one, or one holding no batch)`],
      ] as const) {
        const r = cli([...args]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr.trim()).toBe(message);
      }
      // the option typed is named, not only the scenario's field
      const d = cli(['batch', '--games', '2', '--detachments', 'Kauyon,Battle Hst']);
      expect(d.code).toBe(2);
      expect(d.stderr.trim()).toMatch(/players\[1\]\.detachment: .*found "Battle Hst".*\(players\[1\]\.detachment is "Battle Hst" from --detachments, where none plays without a detachment\)$/);
      const scenario = JSON.parse(readFileSync(join(root, 'scenarios', 'default.json'), 'utf8'));
      const emptySeed = join(dir, 'empty-seed.json');
      writeFileSync(emptySeed, JSON.stringify({ ...scenario, seed: ' ' }));
      const e = cli(['play', emptySeed]);
      expect(e.code).toBe(2);
      expect(e.stderr.trim()).toBe(`error: ${emptySeed}: seed: expected a seed (non-empty text or a number)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a --log naming the command\'s own input is refused before anything is written: fork\'s log, a batch folder\'s files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategium-exit-'));
    try {
      const log = join(dir, 'game.jsonl');
      expect(cli(['play', '--seed', '3', '--agents', 'random', '--log', log]).code).toBe(0);
      const batch = join(dir, 'batch');
      expect(cli(['batch', '--games', '2', '--workers', '0', '--agents', 'random', '--out', batch]).code).toBe(0);
      const before = [log, join(batch, 'games.jsonl'), join(batch, 'batch.json')].map((f) => readFileSync(f, 'utf8'));
      for (const [args, message] of [
        [['fork', log, '--at', '50', '--log', log], `error: --log: ${log} is the log being forked; write to another file`],
        [['batch-game', batch, '0', '--log', join(batch, 'games.jsonl')], `error: --log: ${join(batch, 'games.jsonl')} is a file of the batch folder ${batch}; write to another file`],
        [['replay', '--from-batch', batch, '--game', '1', '--log', join(batch, 'batch.json')], `error: --log: ${join(batch, 'batch.json')} is a file of the batch folder ${batch}; write to another file`],
      ] as const) {
        const r = cli([...args]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr.trim()).toBe(message);
      }
      expect([log, join(batch, 'games.jsonl'), join(batch, 'batch.json')].map((f) => readFileSync(f, 'utf8'))).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('coverage with two report formats at once is bad input (it printed JSON and dropped --markdown)', () => {
    const r = cli(['coverage', '--json', '--markdown']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: --json and --markdown: give one of them (one report format)');
  });

  it('the help exits 0', () => {
    const r = cli(['play', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: strategium play/);
  });
});
