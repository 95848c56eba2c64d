/**
 * `worth`: what each stratagem is worth to an army, a baseline batch and one batch without each stratagem,
 * compared seed by seed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { writeBatchScenarioFile } from './helpers.ts';
import { compareBatches } from '../../src/sim/compare.ts';
import { readRecords, readSpec } from '../../src/sim/batch.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import '../../src/factions/index.ts';
import { COPIES_CHECKED, formatWorth, type WorthResult } from '../../src/sim/worth.ts';

const tmp = mkdtempSync(join(tmpdir(), 'strategium-worth-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const scenario = writeBatchScenarioFile(join(tmp, 'scenario'));
const common = ['--games', '10', '--workers', '0', '--agents', 'random,random', '--no-progress'];

describe('worth', () => {
  const out = join(tmp, 'army1');
  const run = cli(['worth', scenario, ...common, '--out', out, '--json']);
  const r = JSON.parse(run.stdout || '{}') as WorthResult;

  it('measures each stratagem the army used in the baseline, in a batch where it is never used by that army', () => {
    expect(run.code, run.stderr).toBe(0);
    const used = (JSON.parse(readFileSync(join(out, 'baseline', 'results.json'), 'utf8')) as { stats: { armies: { stratagems: { name: string; uses: number }[] }[] } })
      .stats.armies[0].stratagems.filter((s) => s.uses > 0).map((s) => s.name);
    // random agents use several core stratagems in ten games (else there would be nothing to see)
    expect(used.length).toBeGreaterThanOrEqual(2);
    expect(r.stratagems.map((s) => s.name).sort()).toEqual([...used].sort());
    for (const s of r.stratagems) {
      const dir = join(out, s.dir!);
      expect(readSpec(dir).scenario.players[0].withoutStratagems).toEqual([s.name]);
      for (const rec of readRecords(dir)) expect(rec.stratagems[0][s.name], `${s.name} in game ${rec.index}`).toBeUndefined();
    }
  });

  it('each worth is the seed-by-seed comparison of the baseline with the batch without it (compare gives the same), the most worth first', () => {
    for (const s of r.stratagems) {
      const c = compareBatches(join(out, 'baseline'), join(out, s.dir!), 0);
      expect(s.worth).toEqual(c.comparison);
      expect(s.winRateWithout).toBeCloseTo(c.comparison!.winRate.b, 12);
    }
    const worths = r.stratagems.map((s) => s.worth!.winRate.difference.mean);
    expect(worths).toEqual([...worths].sort((x, y) => y - x));
    expect(JSON.parse(readFileSync(join(out, 'worth.json'), 'utf8')).stratagems).toEqual(r.stratagems);
  });

  it('worth.csv has a row per stratagem with its worth, worth.html the table and a chart of the worths', () => {
    const [header, ...rows] = readFileSync(join(out, 'worth.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
    expect(rows.map((x) => x[0])).toEqual(r.stratagems.map((s) => s.name));
    const col = (name: string) => header.indexOf(name);
    rows.forEach((x, i) => {
      const w = r.stratagems[i].worth!;
      expect(Number(x[col('worth_win_rate')])).toBe(w.winRate.difference.mean);
      expect(Number(x[col('worth_win_rate_ci95_low')])).toBe(w.winRate.difference.ci95[0]);
      expect(Number(x[col('worth_vp_margin')])).toBe(w.vpMargin.difference.mean);
      expect(x[col('dir')]).toBe(r.stratagems[i].dir);
    });
    const html = readFileSync(join(out, 'worth.html'), 'utf8');
    for (const s of r.stratagems) expect(html).toContain(`<td style="text-align:left">${s.name}</td>`);
    const charts = JSON.parse(/<script id="chart-data" type="application\/json">(.*?)<\/script>/s.exec(html)![1]) as { id: string; config: { data: { labels: string[] } } }[];
    expect(charts.map((c) => c.id)).toEqual(['worth']);
    expect(charts[0].config.data.labels).toEqual(r.stratagems.map((s) => s.name));
  });

  it('the terminal report: the baseline and a row per stratagem', () => {
    const text = cli(['worth', scenario, ...common, '--out', out]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^What each stratagem is worth to .* \(army 1\) against /);
    expect(text.stdout).toMatch(/\nbaseline: .* won \d+\.\d%/);
    for (const s of r.stratagems) expect(text.stdout).toContain(`\n${s.name} `);
  });

  it('--army 2 and --stratagems: only the named ones, taken from army 2', () => {
    const dir = join(tmp, 'army2');
    const res = cli(['worth', scenario, ...common, '--army', '2', '--stratagems', 'fire overwatch', '--out', dir, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const w = JSON.parse(res.stdout) as WorthResult;
    expect(w.army.index).toBe(2);
    expect(w.stratagems.map((s) => s.name)).toEqual(['FIRE OVERWATCH']);
    // taken from army 2's player, not army 1's, and compared for army 2
    const players = readSpec(join(dir, w.stratagems[0].dir!)).scenario.players;
    expect(players.map((p) => p.withoutStratagems)).toEqual([undefined, ['FIRE OVERWATCH']]);
    expect(w.stratagems[0].worth).toEqual(compareBatches(join(dir, 'baseline'), join(dir, w.stratagems[0].dir!), 1).comparison);
    // its page names army 2's folders as they are
    expect(readFileSync(join(dir, 'worth-army-2.html'), 'utf8')).toContain('(<code>baseline/</code>, <code>army-2-without-…/</code>)');
    // a stratagem named twice (in any spelling) is one batch: refused, not played twice
    const twice = cli(['worth', scenario, ...common, '--stratagems', 'FIRE OVERWATCH,fire overwatch']);
    expect([twice.code, twice.stderr.trim()]).toEqual([2, 'error: --stratagems: FIRE OVERWATCH is named twice']);
  });

  it('army 2 measured into army 1\'s folder: the same baseline, continued rather than played, beside army 1\'s results', () => {
    const before = { games: readFileSync(join(out, 'baseline', 'games.jsonl'), 'utf8'), worth: readFileSync(join(out, 'worth.json'), 'utf8') };
    const res = cli(['worth', scenario, ...common, '--army', '2', '--stratagems', 'FIRE OVERWATCH', '--out', out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const w = JSON.parse(res.stdout) as WorthResult;
    expect(w.stratagems.map((s) => s.dir)).toEqual(['army-2-without-fire-overwatch']);
    // army 1 has a without-fire-overwatch/ of its own: both stand, each taking it from its own army
    expect(readSpec(join(out, 'without-fire-overwatch')).scenario.players.map((p) => p.withoutStratagems)).toEqual([['FIRE OVERWATCH'], undefined]);
    expect(readSpec(join(out, 'army-2-without-fire-overwatch')).scenario.players.map((p) => p.withoutStratagems)).toEqual([undefined, ['FIRE OVERWATCH']]);
    // the baseline was not played again, and army 1's results are as they were
    expect(readFileSync(join(out, 'baseline', 'games.jsonl'), 'utf8')).toBe(before.games);
    expect(readFileSync(join(out, 'worth.json'), 'utf8')).toBe(before.worth);
    expect(JSON.parse(readFileSync(join(out, 'worth-army-2.json'), 'utf8')).army.index).toBe(2);
  });

  it('--detachment: the whole detachment, the baseline less the army under no detachment, seed by seed', () => {
    // the small scenario plays no detachment: give army 1 Kauyon (its Strike Team, Crisis suits and Fireblade are T'au)
    const dir = join(tmp, 'detachment');
    const res = cli(['worth', scenario, ...common, '--detachments', 'Kauyon,none', '--stratagems', 'FIRE OVERWATCH', '--detachment', '--out', dir, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const w = JSON.parse(res.stdout) as WorthResult;
    expect(w.army.detachment).toBe('Kauyon');
    expect(w.detachment!.name).toBe('Kauyon');
    expect(readSpec(join(dir, 'without-detachment')).scenario.players[0].detachment).toBeNull();
    expect(w.detachment!.worth).toEqual(compareBatches(join(dir, 'baseline'), join(dir, 'without-detachment'), 0).comparison);
    // typed otherwise, the same worth: its folder continued (the specs hold the data's spelling), not refused
    const again = cli(['worth', scenario, ...common, '--detachments', 'KAUYON,None', '--stratagems', 'FIRE OVERWATCH', '--detachment', '--out', dir, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as WorthResult).detachment!.worth).toEqual(w.detachment!.worth);
    expect(readSpec(join(dir, 'baseline')).detachments).toEqual(['Kauyon', null]);
    expect(cli(['worth', scenario, ...common, '--detachment']).stderr).toMatch(/--detachment: .* plays no detachment: there is none to take away/);
  });

  it('--detachment-stratagems: the detachment\'s stratagems together, all taken away in one batch (its rule kept)', () => {
    const dir = join(tmp, 'detachment-stratagems');
    const res = cli(['worth', scenario, ...common, '--detachments', 'Kauyon,none', '--stratagems', 'FIRE OVERWATCH', '--detachment-stratagems', '--out', dir, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const w = JSON.parse(res.stdout) as WorthResult;
    // every Kauyon stratagem, none of another source
    const kauyon = allStratagems().filter((s) => s.source === 'Kauyon').map((s) => s.name);
    expect(kauyon).toContain('A TEMPTING TRAP');
    expect(w.detachmentStratagems!.names).toEqual(kauyon);
    const spec = readSpec(join(dir, w.detachmentStratagems!.dir!));
    expect(spec.scenario.players[0].withoutStratagems).toEqual(kauyon);
    expect(spec.scenario.players[0].detachment).toBe('Kauyon');
    for (const rec of readRecords(join(dir, w.detachmentStratagems!.dir!))) for (const n of kauyon) expect(rec.stratagems[0][n]).toBeUndefined();
    expect(w.detachmentStratagems!.worth).toEqual(compareBatches(join(dir, 'baseline'), join(dir, w.detachmentStratagems!.dir!), 0).comparison);
    expect(formatWorth(w)).toContain("\nThe detachment's stratagems together (A TEMPTING TRAP, ");
    expect(cli(['worth', scenario, ...common, '--detachment-stratagems']).stderr).toMatch(/--detachment-stratagems: .* plays no detachment: it has no detachment stratagems/);
  });

  it('bad input: a stratagem the army cannot use, an army other than 1 or 2', () => {
    const bad = cli(['worth', scenario, ...common, '--stratagems', 'A TEMPTING TRAP']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/players\[0\]\.withoutStratagems\[0\]: expected a stratagem of Core \(or one an ability grants\), found "A TEMPTING TRAP"/);
    expect(cli(['worth', scenario, '--army', '3']).stderr).toMatch(/--army: expected 1 or 2/);
    // one the scenario takes away already: nothing to compare
    const file = join(tmp, 'scenario', 'without.json');
    const sc = JSON.parse(readFileSync(scenario, 'utf8'));
    sc.players[0].withoutStratagems = ['INSANE BRAVERY', 'GO TO GROUND'];
    writeFileSync(file, JSON.stringify(sc));
    expect(cli(['worth', file, ...common, '--stratagems', 'insane bravery']).stderr).toMatch(/--stratagems: the scenario already takes insane bravery away from .*: there is nothing to compare/);
  });
  it('copies from the baseline the games the army did not use a stratagem in, as the heuristic plays them the same; --play-all plays them', () => {
    // (batch seed 3: a seed whose ten games use some stratagem in some games and not in more than the four played
    // to check the copies; if the games change and none is copied, try another --seed)
    const heuristic = ['--games', '10', '--seed', '3', '--workers', '0', '--agents', 'heuristic,heuristic', '--no-progress', '--json'];
    const [copying, all] = [join(tmp, 'copying'), join(tmp, 'play-all')];
    const c = cli(['worth', scenario, ...heuristic, '--out', copying]);
    const p = cli(['worth', scenario, ...heuristic, '--out', all, '--play-all']);
    expect(c.code, c.stderr).toBe(0);
    expect(p.code, p.stderr).toBe(0);
    const [wc, wp] = [JSON.parse(c.stdout) as WorthResult, JSON.parse(p.stdout) as WorthResult];
    // something was copied, and something played (a stratagem used in some games, not in others)
    expect(wc.stratagems.some((s) => s.copied > 0 && s.games!.rate < 1)).toBe(true);
    expect(wp.stratagems.every((s) => s.copied === 0)).toBe(true);
    // not more than the games it was not used in, less the four played to check the copies
    for (const s of wc.stratagems) expect(s.copied).toBeLessThanOrEqual(Math.max(0, Math.round(10 * (1 - s.games!.rate)) - COPIES_CHECKED));
    // each batch's report counts as played every game not copied (the games checking the copies too)
    for (const s of wc.stratagems) expect(JSON.parse(readFileSync(join(copying, s.dir!, 'results.json'), 'utf8')).run.played, s.name).toBe(10 - s.copied);
    // the same worths, and every batch's records the same, line for line
    const strip = (w: WorthResult) => ({ ...w, elapsedSeconds: 0, baseline: { ...w.baseline, gamesPerSecond: 0 }, stratagems: w.stratagems.map((s) => ({ ...s, copied: 0 })) });
    expect(strip(wc)).toEqual(strip(wp));
    for (const s of wc.stratagems) {
      const lines = (dir: string) => readFileSync(join(dir, s.dir!, 'games.jsonl'), 'utf8').trim().split('\n').sort();
      expect(lines(copying), s.name).toEqual(lines(all));
    }
    expect(formatWorth(wc)).toMatch(/\n\d+ of the \d+ games without a stratagem were copied from the baseline, not played/);
    // a copied game regenerates from its seed as any other: batch-game plays it and finds the copy's result
    const s = wc.stratagems.find((x) => x.copied > 0)!;
    const unused = readRecords(join(copying, 'baseline')).filter((x) => !x.stratagems[0][s.name]).map((x) => x.index).sort((a, b) => a - b);
    const game = cli(['batch-game', join(copying, s.dir!), String(unused[COPIES_CHECKED]), '--json']);
    expect(game.code, game.stderr).toBe(0);
    expect(JSON.parse(game.stdout).matchesRecord).toBe(true);
    // each folder lists its copies, so that the same command again reports them (it plays nothing), and --play-all
    // into the folder is refused rather than taking the copies for played games
    const listed = (dir: string) => (existsSync(join(copying, dir, 'copied.txt')) ? readFileSync(join(copying, dir, 'copied.txt'), 'utf8').trim().split('\n') : []);
    for (const x of wc.stratagems) expect(listed(x.dir!), x.name).toHaveLength(x.copied);
    const again = cli(['worth', scenario, ...heuristic, '--out', copying]);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as WorthResult).stratagems.map((x) => x.copied)).toEqual(wc.stratagems.map((x) => x.copied));
    const playAll = cli(['worth', scenario, ...heuristic, '--out', copying, '--play-all']);
    expect(playAll.code).toBe(1);
    const first = wc.stratagems.map((x) => `${x.dir}: ${x.copied} of its games`).filter((t) => playAll.stderr.includes(t));
    expect(first, playAll.stderr).toHaveLength(1);
    expect(playAll.stderr).toMatch(/ of its games were copied from the baseline by an earlier run \(copied\.txt\); --play-all plays every game: remove the folder or choose another --out\n$/);
  });

  it('an agent that says it declines without trace and does not: the check finds a game played otherwise, and nothing is copied', () => {
    const traced = join(import.meta.dirname, 'fixtures', 'traced-agent.ts');
    // 32 games: the first in which some stratagem was offered and not used (so that a random draw differs without
    // it) is among the games checked (game 30, COMMAND RE-ROLL; with 16 and 24 games none was)
    const args = ['--games', '32', '--workers', '0', '--agents', `${traced},${traced}`, '--no-progress', '--json'];
    const c = cli(['worth', scenario, ...args, '--out', join(tmp, 'traced')]);
    const p = cli(['worth', scenario, ...args, '--out', join(tmp, 'traced-all'), '--play-all']);
    expect(c.code, c.stderr).toBe(0);
    const [wc, wp] = [JSON.parse(c.stdout) as WorthResult, JSON.parse(p.stdout) as WorthResult];
    const refused = wc.stratagems.filter((s) => s.copyRefused);
    expect(refused.length).toBeGreaterThan(0);
    for (const s of refused) {
      expect(s.copyRefused).toMatch(/^game \d+ was played otherwise without .* than the baseline played it/);
      expect(s.copied).toBe(0);
      expect(s.worth).toEqual(wp.stratagems.find((x) => x.name === s.name)!.worth);
    }
    // the random agent does not say so: nothing copied, nothing checked
    expect(r.stratagems.every((s) => s.copied === 0 && s.copyRefused === undefined)).toBe(true);
  });
});
