import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { writeBatchScenarioFile } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'strategium-batch-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const scenario = writeBatchScenarioFile(join(tmp, 'scenario'));

describe('batch command', () => {
  let firstJson = '';
  it('--json prints the batch line; --out writes the report; batch-game regenerates a swapped game', () => {
    const out = join(tmp, 'run');
    const r = cli(['batch', scenario, '--games', '8', '--workers', '1', '--seed', 'cli', '--out', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    firstJson = r.stdout;
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['games', 'wins', 'draws', 'winRate', 'ci95', 'meanVp', 'failed', 'gamesPerSecond']);
    expect(j.games).toBe(8);
    expect(j.wins[0] + j.wins[1] + j.draws).toBe(8);
    expect(j.winRate[0]).toBeCloseTo(j.wins[0] / 8, 12);
    expect(j.ci95[0][0]).toBeLessThanOrEqual(j.winRate[0]);
    expect(j.failed).toBe(0);
    for (const f of ['batch.json', 'games.jsonl', 'games.csv', 'results.json', 'report.html']) expect(existsSync(join(out, f))).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('new Chart(');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toMatch(/less [^<]*, pair by pair \(95% interval\): [+-]?\d+\.\d points \[/);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.spec).toMatchObject({ batchSeed: 'cli', swap: true, agents: ['random', 'random'], scenarioFile: scenario });
    expect(results.spec.scenario.players[0].army.units.length).toBe(3);

    const g = cli(['batch-game', out, '3', '--json', '--log', join(tmp, 'game-3.jsonl')]);
    expect(g.code).toBe(0);
    const gj = JSON.parse(g.stdout);
    expect(gj).toMatchObject({ index: 3, seed: 'cli#2', swapped: true, matchesRecord: true });
    expect(readFileSync(join(tmp, 'game-3.jsonl'), 'utf8').split('\n').length).toBeGreaterThan(gj.events - 1);

    // the terminal summary of the same batch, continued (nothing left to play)
    const again = cli(['batch', '--resume', out, '--workers', '0']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/8 games, batch seed cli/);
    expect(again.stdout).toMatch(/none played/);
    expect(again.stdout).toMatch(/wins \(95% CI\)/);
    // the win-rate difference pair by pair: in results.json and in the summary; with no game failed its
    // mean is the difference of the two win rates
    const d = results.stats.pairs.winRateDifference;
    expect(d.mean).toBeCloseTo(j.winRate[0] - j.winRate[1], 12);
    expect(d.ci95[0]).toBeLessThanOrEqual(d.mean);
    const sign = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
    expect(again.stdout).toContain(`pair by pair: ${sign(d.mean)} points [${sign(d.ci95[0])}, ${sign(d.ci95[1])}]`);
  });

  it('an --out folder that holds a batch is refused, or replaced with --replace (its batch files only)', () => {
    const out = join(tmp, 'replace');
    expect(cli(['batch', scenario, '--games', '2', '--workers', '0', '--seed', 'r1', '--out', out, '--json']).code).toBe(0);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const refused = cli(['batch', scenario, '--games', '2', '--workers', '0', '--seed', 'r2', '--out', out, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds a batch: continue it with --resume/);
    const replaced = cli(['batch', scenario, '--games', '2', '--workers', '0', '--seed', 'r2', '--out', out, '--replace', '--json']);
    expect(replaced.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).spec.batchSeed).toBe('r2');
    expect(readFileSync(join(out, 'games.csv'), 'utf8').trim().split('\n')).toHaveLength(3); // header + 2 games, none left from r1
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(cli(['batch', '--resume', out, '--replace']).stderr).toMatch(/--replace and --resume: choose one/);
  });

  it('shards merged by the merge command print the single run\'s numbers', () => {
    // the same batch as the first test's, in two shards
    const dirs = [1, 2].map((k) => join(tmp, `shard-${k}`));
    dirs.forEach((d, i) => expect(cli(['batch', scenario, '--games', '8', '--workers', '0', '--seed', 'cli', '--shard', `${i + 1}/2`, '--out', d, '--json']).code).toBe(0));
    const merged = cli(['merge', ...dirs, '--out', join(tmp, 'merged'), '--json']);
    expect(merged.code).toBe(0);
    const strip = (s: string) => ({ ...JSON.parse(s), gamesPerSecond: 0 });
    expect(strip(merged.stdout)).toEqual(strip(firstJson));
  });

  it('rejects bad options with one line', () => {
    const odd = cli(['batch', scenario, '--games', '7', '--workers', '0']);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/--games: expected an even number/);
    const agent = cli(['batch', scenario, '--agents', 'nobody', '--workers', '0']);
    expect(agent.stderr).toMatch(/unknown agent "nobody"/);
  });
});

describe('matrix command', () => {
  it('plays each pair of detachments and prints player 1 win rates with intervals', () => {
    const out = join(tmp, 'matrix');
    const r = cli(['matrix', scenario, '--detachments', 'none,Kauyon', '--vs', 'none', '--games', '4', '--workers', '1', '--out', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.rows).toEqual([null, 'Kauyon']);
    expect(m.cols).toEqual([null]);
    expect(m.cells).toHaveLength(2);
    for (const row of m.cells) {
      expect(row).toHaveLength(1);
      expect(row[0].games + row[0].failed).toBe(4);
      expect(row[0].ci95[0][0]).toBeLessThanOrEqual(row[0].winRate[0]);
      if (row[0].failed === 0) expect(row[0].winRateDifference.mean).toBeCloseTo(row[0].winRate[0] - row[0].winRate[1], 12);
    }
    expect(readFileSync(join(out, 'matrix.csv'), 'utf8').split('\n')[0]).toMatch(/,pair_difference,pair_difference_ci95_low,pair_difference_ci95_high,pair_difference_z$/);
    for (const f of ['matrix.json', 'matrix.csv', 'matrix.html']) expect(existsSync(join(out, f))).toBe(true);
    const cellSpec = JSON.parse(readFileSync(join(out, m.cells[1][0].dir, 'batch.json'), 'utf8'));
    expect(cellSpec.scenario.players.map((p: { detachment: string | null }) => p.detachment)).toEqual(['Kauyon', null]);
    const bad = cli(['matrix', scenario, '--detachments', 'Kauyonn', '--games', '2', '--workers', '1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Kauyon/);
  });
});
