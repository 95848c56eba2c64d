import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
    // batch-game counts its log's events; the batch's record, the game's own (a batch keeps no decision event,
    // and a game copied by worth may have been offered a stratagem fewer)
    const logLines = readFileSync(join(tmp, 'game-3.jsonl'), 'utf8').trim().split('\n');
    const decisions = logLines.filter((l) => l.startsWith('{"type":"decision"')).length;
    expect(decisions).toBeGreaterThan(0);
    expect(gj.events).toBe(logLines.length);
    const record3 = readFileSync(join(out, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((x) => x.index === 3);
    expect(record3.events).toBe(logLines.length - decisions);

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
    expect(refused.code).toBe(2); // bad input, said in one line
    expect(refused.stderr.trim()).toBe(`error: --out: ${out} already holds a batch: continue it with --resume ${out}, replace it with --replace, or choose another --out`);
    const replaced = cli(['batch', scenario, '--games', '2', '--workers', '0', '--seed', 'r2', '--out', out, '--replace', '--json']);
    expect(replaced.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).spec.batchSeed).toBe('r2');
    expect(readFileSync(join(out, 'games.csv'), 'utf8').trim().split('\n')).toHaveLength(3); // header + 2 games, none left from r1
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(cli(['batch', '--resume', out, '--replace']).stderr).toMatch(/--replace and --resume: choose one/);
    // what batch.json fixes is refused beside --resume, not ignored (--games 20 does not extend the batch)
    const csv = readFileSync(join(out, 'games.csv'), 'utf8');
    for (const [args, named] of [[[scenario], `the scenario (${scenario})`], [['--games', '20'], '--games'], [['--no-swap'], '--no-swap']] as const) {
      const r = cli(['batch', ...args, '--resume', out, '--workers', '0']);
      expect([r.code, r.stderr.trim()]).toEqual([2, `error: --resume continues the batch as its batch.json says: leave out ${named}`]);
    }
    expect(readFileSync(join(out, 'games.csv'), 'utf8')).toBe(csv);
  });

  it('shards merged by the merge command print the single run\'s numbers', () => {
    // the same batch as the first test's, in two shards
    const dirs = [1, 2].map((k) => join(tmp, `shard-${k}`));
    dirs.forEach((d, i) => expect(cli(['batch', scenario, '--games', '8', '--workers', '0', '--seed', 'cli', '--shard', `${i + 1}/2`, '--out', d, '--json']).code).toBe(0));
    const merged = cli(['merge', ...dirs, '--out', join(tmp, 'merged'), '--json']);
    expect(merged.code).toBe(0);
    const again = cli(['merge', ...dirs, '--out', join(tmp, 'merged'), '--json']);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`error: --out: ${join(tmp, 'merged')} already holds a batch: choose another --out for the merged shards`);
    const strip = (s: string) => ({ ...JSON.parse(s), gamesPerSecond: 0 });
    expect(strip(merged.stdout)).toEqual(strip(firstJson));
    // the summary says what was merged (not the resume's "none played")
    const text = cli(['merge', ...dirs, '--out', join(tmp, 'merged-text')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^merged from 2 shard folders$/m);
    expect(text.stdout).not.toMatch(/none played/);
  });

  it('rejects bad options with one line', () => {
    const odd = cli(['batch', scenario, '--games', '7', '--workers', '0']);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/--games: expected an even number/);
    const agent = cli(['batch', scenario, '--agents', 'nobody', '--workers', '0']);
    expect(agent.stderr).toMatch(/unknown agent "nobody"/);
    // named as typed, not as "NaN"
    const ci = cli(['batch', scenario, '--until-ci', '2%', '--workers', '0']);
    expect([ci.code, ci.stderr.trim()]).toEqual([2, 'error: --until-ci: expected a half-width between 0 and 0.5 (e.g. 0.02), got "2%"']);
    // a thousand threads took minutes to start before a game was played: refused, on each command that plays batches
    const most = 4 * availableParallelism();
    for (const command of [['batch'], ['matrix', '--detachments', 'none'], ['tournament']]) {
      const many = cli([...command, scenario, '--workers', '1000', '--games', '2']);
      expect(many.code).toBe(2);
      expect(many.stderr).toContain(`--workers: expected a whole number from 0 to ${most} (four threads for each of this machine's ${availableParallelism()} cores; more only take turns on them), got "1000"`);
    }
    expect(cli(['tournament', scenario, '--workers', '-1']).stderr).toMatch(/--workers: expected a whole number from 0 to/);
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
    expect(readFileSync(join(out, 'matrix.csv'), 'utf8').split('\n')[0]).toMatch(/,pair_difference,pair_difference_ci95_low,pair_difference_ci95_high,pair_difference_z,p1_vs_row_baseline,p1_vs_row_baseline_units,p1_vs_row_baseline_win_rate_difference,/);
    for (const f of ['matrix.json', 'matrix.csv', 'matrix.html']) expect(existsSync(join(out, f))).toBe(true);
    const cellSpec = JSON.parse(readFileSync(join(out, m.cells[1][0].dir, 'batch.json'), 'utf8'));
    expect(cellSpec.scenario.players.map((p: { detachment: string | null }) => p.detachment)).toEqual(['Kauyon', null]);
    // Kauyon against the no-detachment baseline, seed by seed: the rows' win rates of the two cells, paired
    expect(m.baseline).toEqual({ row: 0, col: null });
    expect(m.colVsBaseline).toBeNull();
    expect(m.rowVsBaseline[0][0]).toBeNull();
    const vs = m.rowVsBaseline[1][0];
    // no game fails here: both pairs compared, on the cells' own rates and VP
    expect([m.cells[0][0].failed, m.cells[1][0].failed]).toEqual([0, 0]);
    expect([vs.units, vs.leftOut]).toEqual([2, 0]);
    expect(vs.winRate.a).toBeCloseTo(m.cells[1][0].winRate[0], 12);
    expect(vs.winRate.b).toBeCloseTo(m.cells[0][0].winRate[0], 12);
    expect(vs.winRate.difference.mean).toBeCloseTo(vs.winRate.a - vs.winRate.b, 12);
    expect(vs.vpMargin.difference.mean).toBeCloseTo(m.cells[1][0].meanVp[0] - m.cells[1][0].meanVp[1] - (m.cells[0][0].meanVp[0] - m.cells[0][0].meanVp[1]), 12);
    // the compare command on the two cells' folders finds the same
    const cmp = cli(['compare', join(out, m.cells[1][0].dir), join(out, m.cells[0][0].dir), '--json']);
    expect(cmp.stderr).toBe('');
    expect(JSON.parse(cmp.stdout).comparison).toEqual(vs);
    // run again on the same folder, the detachments spelt otherwise: every cell is continued from its records
    // (the names are the data's, whatever was typed), and compared the same
    const again = cli(['matrix', scenario, '--detachments', 'none,KAUYON', '--vs', 'none', '--games', '4', '--workers', '1', '--out', out]);
    expect(again.stderr).not.toMatch(/error|holds another batch/);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')).rows).toEqual([null, 'Kauyon']);
    expect(again.stdout).toContain("each detachment against none, its win rate less with none against the same opponent");
    expect(JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')).rowVsBaseline).toEqual(m.rowVsBaseline);
    // a folder holding another batch (4 games, not 6) is refused, not mixed with it (compare.ts playLogged)
    const other = cli(['matrix', scenario, '--detachments', 'none,Kauyon', '--vs', 'none', '--games', '6', '--workers', '1', '--out', out]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/cells\/1-none--1-none holds another batch \(different scenario, seed, games or agents\)/);
    expect(JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')).games).toBe(4);
    const kauyon = cli(['matrix', scenario, '--detachments', 'none,Kauyon', '--vs', 'none', '--baseline', 'KAUYON', '--games', '2', '--workers', '1', '--json']);
    expect(JSON.parse(kauyon.stdout).baseline).toEqual({ row: 1, col: null });
    // one baseline, and an empty --vs is no list (it was taken as no --vs)
    const two = cli(['matrix', scenario, '--detachments', 'none,Kauyon', '--baseline', 'Kauyon,none', '--games', '2', '--workers', '1']);
    expect([two.code, two.stderr.trim()]).toEqual([2, 'error: --baseline: expected one detachment (the rows\' and the columns\' where listed), got 2: "Kauyon,none"']);
    const emptyVs = cli(['matrix', scenario, '--detachments', 'none,Kauyon', '--vs', '', '--games', '2', '--workers', '1']);
    expect([emptyVs.code, emptyVs.stderr]).toEqual([2, expect.stringMatching(/^error: expected detachment names separated by commas/)]);
    const nowhere = cli(['matrix', scenario, '--detachments', 'none,Kauyon', '--baseline', "Mont'ka", '--games', '2', '--workers', '1']);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/--baseline: "Mont'ka" is neither among --detachments \(none, Kauyon\) nor among --vs/);
    const bad = cli(['matrix', scenario, '--detachments', 'Kauyonn', '--games', '2', '--workers', '1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Kauyon/);
  });
});

describe('compare command', () => {
  it("compares two batches on the same seeds, army by army; other seeds are refused", () => {
    const [a, b, c] = ['cmp-a', 'cmp-b', 'cmp-c'].map((d) => join(tmp, d));
    expect(cli(['batch', scenario, '--games', '6', '--workers', '1', '--seed', 'cmp', '--out', a, '--json']).code).toBe(0);
    expect(cli(['batch', scenario, '--games', '6', '--workers', '1', '--seed', 'cmp', '--detachments', 'Kauyon,none', '--out', b, '--json']).code).toBe(0);
    expect(cli(['batch', scenario, '--games', '6', '--workers', '1', '--seed', 'other', '--out', c, '--json']).code).toBe(0);
    const csv = (dir: string) => readFileSync(join(dir, 'games.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const head = readFileSync(join(a, 'games.csv'), 'utf8').split('\n')[0].split(',');
    const col = (name: string) => head.indexOf(name);
    const [ra, rb] = [csv(a), csv(b)];
    // army 2's wins in each batch, from games.csv (no game fails here)
    const wins2 = (rows: string[][]) => rows.filter((r) => r[col('winner_army')] === '2').length;
    const j = JSON.parse(cli(['compare', b, a, '--army', '2', '--json']).stdout);
    expect(j.army).toBe(2);
    expect(j.a.armies[0].detachment).toBe('Kauyon');
    expect(j.b.armies[0].detachment).toBe(null);
    expect(j.comparison.units).toBe(3);
    expect(j.comparison.winRate.a).toBeCloseTo(wins2(rb) / 6, 12);
    expect(j.comparison.winRate.b).toBeCloseTo(wins2(ra) / 6, 12);
    expect(j.comparison.winRate.difference.mean).toBeCloseTo((wins2(rb) - wins2(ra)) / 6, 12);
    const text = cli(['compare', b, a]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^A: .*cmp-b: .* \[Kauyon, random\] vs .* \[no detachment, random\], 6 of 6 games recorded$/m);
    expect(text.stdout).toContain('Compared seed by seed (batch seed cmp, side-swapped pairs): 3 pairs of games; differences with 95% intervals.');
    expect(text.stdout).toMatch(/\(player 1's army\), in those games: win rate [\d.]+% in A, [\d.]+% in B; A less B [+-]?[\d.]+ points \[/);
    // no warning about few seeds: the intervals are made for them (src/sim/stats.ts meanDifference)
    expect(text.stdout).not.toContain('Note:');
    expect(text.stderr).toBe('');
    // the same scenario with its players in the other order: army 1 is the other faction, which is warned about
    const sc = JSON.parse(readFileSync(scenario, 'utf8'));
    const reversed = join(dirname(scenario), 'reversed.json');
    writeFileSync(reversed, JSON.stringify({ ...sc, players: [...sc.players].reverse() }));
    const d = join(tmp, 'cmp-d');
    expect(cli(['batch', reversed, '--games', '2', '--workers', '1', '--seed', 'cmp', '--out', d, '--json']).code).toBe(0);
    const swapped = cli(['compare', a, d, '--json']);
    expect(swapped.code).toBe(0);
    const [p1, p2] = sc.players.map((p: { name: string }) => p.name);
    const warning = `army 1 is ${p1} (TAU) in ${a} but ${p2} (AE) in ${d}: B's scenario has its players in the other order, so this compares each army with its opponent (play B with the players as in A)`;
    expect(JSON.parse(swapped.stdout).warnings).toEqual([warning]);
    expect(swapped.stderr).toBe(`warning: ${warning}\n`);
    const other = cli(['compare', a, c]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/batch seed "other", not "cmp" as .*cmp-a: their games are not played on the same seeds/);
    expect(cli(['compare', a, b, '--army', '3']).stderr).toMatch(/--army: expected 1 or 2, got "3"/);
    // a record that is not this batch's game names the file
    const lines = readFileSync(join(a, 'games.jsonl'), 'utf8');
    const outside = { ...JSON.parse(lines.split('\n')[0]), index: 6 };
    writeFileSync(join(c, 'games.jsonl'), lines + JSON.stringify(outside) + '\n');
    writeFileSync(join(c, 'batch.json'), readFileSync(join(a, 'batch.json'), 'utf8'));
    const bad = cli(['compare', a, c]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${join(c, 'games.jsonl')}: game 6 is outside the batch's 6 games`);
    // and a line that is no game record at all names its line and field
    writeFileSync(join(c, 'games.jsonl'), lines + '{"index":6,"winner":0,"vp":[1,2]}\n');
    const broken = cli(['compare', a, c]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${join(c, 'games.jsonl')}: line 7: not a game record: seed: Invalid input: expected string, received undefined`);
  });
});
