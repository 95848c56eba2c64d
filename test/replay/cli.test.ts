import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { loggedGame, type LoggedGame } from './helpers.ts';

let dir: string;
let log: string;
let g: LoggedGame;

beforeAll(async () => {
  g = await loggedGame('2');
  dir = mkdtempSync(join(tmpdir(), 'replay-cli-'));
  log = join(dir, 'game.jsonl');
  writeFileSync(log, g.text);
});

describe('strategium replay', () => {
  it('--to N --json prints the state after event N; --to end the final state', () => {
    const end = cli(['replay', log, '--to', 'end', '--json']);
    expect(end.stderr).toBe('');
    expect(end.code).toBe(0);
    const s = JSON.parse(end.stdout);
    expect(s.eventCount).toBe(g.events.length);
    expect(s.result).toEqual(g.result);
    expect([s.players[0].vp, s.players[1].vp]).toEqual(g.result.vp);
    const at = JSON.parse(cli(['replay', log, '--to', '40', '--json']).stdout);
    expect(at.eventCount).toBe(40);
    const bad = cli(['replay', log, '--to', String(g.events.length + 1)]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/the log has \d+ events/);
  });

  it('reads commands from a pipe: steps, phases, rounds, the board', () => {
    const r = cli(['replay', log, '--ascii'], { input: 'n\nn 3\nnp\nr 2\nd\nboard\nquit\n' });
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/^\[1\/\d+\] setup/);
    expect(out).toContain('[2/');
    expect(out).toContain('[5/');
    expect(out).toMatch(/Command phase/);
    expect(out).toContain('=== Battle round 2 ===');
    expect(out).toMatch(/P[12] \[random\] /); // a decision
    expect(out).toMatch(/\+-{60}\+/); // the board's frame
    expect(out).toMatch(/VP \d+/);
  });

  it('a truncated log: warns with the line, replays what it can, exits 3', () => {
    const lines = g.text.split('\n');
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, lines.slice(0, 99).join('\n') + '\n' + lines[99].slice(0, 20));
    const r = cli(['replay', cut, '--to', 'end', '--json']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cut\.jsonl line 100: truncated or invalid JSON/);
    expect(JSON.parse(r.stdout).eventCount).toBe(99);
  });

  it('--html writes the viewer', () => {
    const out = join(dir, 'game.html');
    const r = cli(['replay', log, '--html', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote .*game\.html \(\d+ KB, \d+ events\)/);
    expect(readFileSync(out, 'utf8')).toContain('id="replay-data"');
  });

  it('--from-batch DIR --game I regenerates a batch game from its seed', () => {
    const bdir = mkdtempSync(join(tmpdir(), 'replay-batch-'));
    // the batch's seed of game 0 is the one this test's log was played with
    writeFileSync(join(bdir, 'results.json'), JSON.stringify({ scenario: miniScenario(), batchSeed: 'x', agents: 'random', games: [{ seed: '2', swapped: false }] }));
    const regenerated = join(bdir, 'game0.jsonl');
    const r = cli(['replay', '--from-batch', bdir, '--game', '0', '--log', regenerated, '--to', 'end', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toEqual(g.result);
    expect(readFileSync(regenerated, 'utf8')).toBe(g.text);
    const missing = cli(['replay', '--from-batch', bdir, '--game', '5', '--to', 'end']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no game 5/);
    // a damaged scenario that makes the game throw: one line naming the folder and the game (was a stack trace)
    const damaged = miniScenario();
    (damaged.players[0].army.units[0].models[0] as { weapons: unknown }).weapons = -1;
    writeFileSync(join(bdir, 'results.json'), JSON.stringify({ scenario: damaged, batchSeed: 'x', agents: 'random', games: [{ seed: '2', swapped: false }] }));
    const threw = cli(['replay', '--from-batch', bdir, '--game', '0', '--to', 'end']);
    expect(threw.code).toBe(2);
    expect(threw.stderr.trim()).toMatch(new RegExp(`^error: ${bdir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: game 0 threw as it was played again \\(seed 2\\): TypeError: `));
  });
});

describe('strategium fork', () => {
  it('continues from event N with another seed and writes the new log', () => {
    const at = 250;
    const out = join(dir, 'fork.jsonl');
    const r = cli(['fork', log, '--at', String(at), '--seed', 'other', '--log', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(res.at).toBe(at);
    // winners printed as players 1 and 2, as play --json prints them (the log keeps the engine's 0 and 1)
    const printed = (r: any) => ({ ...r, winner: r.winner === null ? null : r.winner + 1 });
    expect(res.original).toEqual(printed(g.result));
    const forked = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(forked.slice(0, at)).toEqual(g.text.split('\n').slice(0, at));
    const ended = JSON.parse(forked[forked.length - 1]);
    expect(ended.type).toBe('game-ended');
    expect(res.result).toEqual(printed(ended.result));
    expect(existsSync(`${out}.partial`)).toBe(false);
    // human summary and errors
    const human = cli(['fork', log, '--at', 'end']);
    expect(human.stdout).toMatch(/original: .*\nfork: {5}/);
    const bad = cli(['fork', log, '--at', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--at: expected an event number from 1 to \d+/);
  });
});
