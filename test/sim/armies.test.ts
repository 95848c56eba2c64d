/**
 * `--armies`: a batch (or a game, a matrix, a tournament) of a scenario's mission and terrain with other
 * armies, given as army files or army-list text exports.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { writeBatchScenarioFile } from './helpers.ts';
import { HAVE_LISTS, LISTS_DIR } from '../data/paths.ts';
import { parseArmyList } from '../../src/data/army-build.ts';
import { nameStem, parseArmies, scenarioVariant } from '../../src/sim/variants.ts';
import { playCommand } from '../../src/sim/batch-report.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';

const tmp = mkdtempSync(join(tmpdir(), 'strategium-armies-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const scenario = writeBatchScenarioFile(join(tmp, 'scenario'));
/** A Warhammer 40,000 app export of a small Mont'ka army (4 units, 440 points). */
const LIST = join(import.meta.dirname, 'fixtures', 'hunters-app.txt');

describe('--detachments', () => {
  it('renames an army whose name carries the detachment it no longer plays, spelled as the engine spells it', () => {
    const file = join(import.meta.dirname, '..', '..', 'scenarios', 'default.json');
    const before = scenarioVariant(file, {});
    expect(before.players.map((p) => p.name)).toEqual(["T'au (Kauyon)", 'Aeldari (Battle Host)']);
    const sc = scenarioVariant(file, { detachments: ['montka', null] });
    expect(sc.players.map((p) => [p.name, p.detachment])).toEqual([["T'au (Mont'ka)", "Mont'ka"], ['Aeldari (no detachment)', null]]);
    // the same detachment again, or none given: the name stays
    expect(scenarioVariant(file, { detachments: [undefined, 'Battle Host'] }).players.map((p) => p.name)).toEqual(before.players.map((p) => p.name));
    // the stem (the matrix names each army by it, as its rows and columns play several detachments)
    expect(sc.players.map((p) => nameStem(p.name, p.detachment))).toEqual(["T'au", 'Aeldari']);
    expect(nameStem('Hunters', "Mont'ka")).toBeNull();
    expect(nameStem(' (Kauyon)', 'Kauyon')).toBeNull();
    // a name that does not carry its detachment stays as it is
    const mini = scenarioVariant(scenario, {});
    expect(scenarioVariant(scenario, { detachments: ['Kauyon', 'Battle Host'] }).players.map((p) => p.name)).toEqual(mini.players.map((p) => p.name));
  });
});

describe('--armies', () => {
  it('names two armies, "-" keeping the scenario\'s', () => {
    expect(parseArmies('a.txt,-')).toEqual(['a.txt', undefined]);
    expect(parseArmies(' -, b.json ')).toEqual([undefined, 'b.json']);
    expect(() => parseArmies('a.txt')).toThrow(/expected two armies separated by a comma/);
    expect(() => parseArmies('a.txt,')).toThrow(/expected two armies/);
    expect(() => parseArmies('-,-')).toThrow(/replaces neither army/);
  });

  it('an army-list export replaces the army: its own detachment, Leaders and Reserves declared by its agent', () => {
    const before = scenarioVariant(scenario, {});
    const sc = scenarioVariant(scenario, { armies: [LIST, undefined] });
    const p = sc.players[0];
    expect(p.name).toBe('Hunters');
    expect(p.detachment).toBe("Mont'ka");
    // the scenario's name says which army is not the scenario's; with both replaced, only its mission is
    expect(sc.name).toBe(`${before.name}, player 1's army from the command line`);
    expect(scenarioVariant(scenario, { armies: [LIST, LIST] }).name).toBe(`the mission and terrain of ${before.name}, armies from the command line`);
    expect(p.formations).toBe('agent');
    expect(p.leaders).toEqual({});
    expect(p.army.units.map((u) => u.name)).toEqual(['Cadre Fireblade', 'Strike Team', 'Riptide Battlesuit', 'Piranhas']);
    expect(p.army.units.find((u) => u.warlord)?.name).toBe('Cadre Fireblade');
    // the other army, the mission and the terrain are the scenario's
    expect(sc.players[1]).toEqual(before.players[1]);
    expect(sc.board).toEqual(before.board);
    expect(sc.objectives).toEqual(before.objectives);
    // a detachment given as well is played instead of the list's
    expect(scenarioVariant(scenario, { armies: [LIST, undefined], detachments: ['Kauyon', undefined] }).players[0].detachment).toBe('Kauyon');
  });

  it('a replaced army\'s agent chooses its passengers: the scenario\'s transports named the army it replaced', async () => {
    // the default scenario's T'au army given again with --armies: no transports named any more, so the
    // heuristic starts the Breacher Team (10" guns) in the Devilfish itself; the Aeldari keep the scenario's
    const root = join(import.meta.dirname, '..', '..');
    const sc = scenarioVariant(join(root, 'scenarios', 'default.json'), { armies: [join(root, 'scenarios', 'armies', 'tau-kauyon.json'), undefined] });
    expect(sc.players[0].transports).toEqual({});
    expect(sc.players[0].formations).toBe('agent');
    const f = await loadAgentFactory('heuristic');
    const g = createGame(sc, { seed: 'armies-transports', agents: [makeAgent(f, 'x', 0), makeAgent(f, 'x', 1)] });
    const breacher = g.state.units['p1-u7'];
    expect(breacher.name).toBe('Breacher Team');
    expect(breacher.location).toBe('embarked');
    expect(g.state.units[breacher.embarkedIn!].name).toBe('Devilfish');
    expect(g.state.units['p2-u9'].embarkedIn).toBe('p2-u6');
  });

  it('batch --armies plays the list; the spec records it and `play --armies` plays the same game', () => {
    const out = join(tmp, 'batch');
    const r = cli(['batch', scenario, '--armies', `${LIST},-`, '--agents', 'heuristic,random', '--games', '2', '--workers', '0', '--seed', 'arm', '--out', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.spec.armies).toEqual([LIST, null]);
    expect(results.spec.scenario.players[0].army.name).toBe('Hunters');
    const [header, row] = readFileSync(join(out, 'games.csv'), 'utf8').split('\n');
    const game = Object.fromEntries(header.split(',').map((k, i) => [k, row.split(',')[i]]));
    expect(game.swapped).toBe('false');
    const play = cli(['play', scenario, '--armies', `${LIST},-`, '--agents', 'heuristic,random', '--seed', game.seed, '--json']);
    expect(play.code).toBe(0);
    const pj = JSON.parse(play.stdout);
    expect([pj.vp, pj.rounds, pj.endedBy]).toEqual([[Number(game.vp_p1), Number(game.vp_p2)], Number(game.rounds), game.ended_by]);
    // the command the report gives for that game is that play command
    expect(playCommand(results.spec, game.seed, false)).toMatch(new RegExp(`play \\S+ --seed \\S+ --agents heuristic,random --armies ${LIST.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},-$`));
    // and batch-game regenerates it from the folder alone
    const g = cli(['batch-game', out, '0', '--json']);
    expect(JSON.parse(g.stdout)).toMatchObject({ index: 0, matchesRecord: true });
    expect(cli(['batch', '--resume', out, '--armies', `${LIST},-`]).stderr).toMatch(/--resume continues the batch as its batch\.json says: leave out --armies/);
  });

  it('bad armies: a clear error naming the file and what was expected', () => {
    const missing = cli(['play', scenario, '--armies', `${join(tmp, 'nope.txt')},-`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--armies: .*nope\.txt: file not found\n/);
    expect(cli(['play', scenario, '--armies', `-,${join(tmp, 'aeldari-battle-host.json')}`]).stderr).toMatch(/--armies: .*aeldari-battle-host\.json: file not found; the bundled \S*scenarios\/armies\/aeldari-battle-host\.json has that name/);
    expect(cli(['batch', scenario, '--armies', LIST, '--workers', '0']).stderr).toMatch(/--armies: expected two armies/);
    // a weapon of another edition's data: the list converts (with a warning) but cannot be played
    const old = join(tmp, 'old.txt');
    writeFileSync(old, readFileSync(LIST, 'utf8').replace('1x Twin plasma rifle', '1x Missile pod'));
    const bad = cli(['play', scenario, '--armies', `-,${old}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/players\[1\]\.army\.units\[2\]\.models\[0\]\.weapons\[\d\]: Riptide Battlesuit \(u3\): "Missile pod" is not a weapon of Riptide Battlesuit in the data/);
    expect(bad.stderr).toContain(`players[1].army is ${old} (--armies)`);
    // ... and says how to fit it: --fit-wargear on the command, or the army command once
    expect(bad.stderr).toContain('add --fit-wargear to drop the weapons the datasheets do not have');
    expect(bad.stderr).toContain(`\`army ${old} --fit-wargear --out army.json\``);
    const fitted = join(tmp, 'fitted.json');
    const made = cli(['army', old, '--fit-wargear', '--out', fitted]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/Riptide Battlesuit: "Missile pod" is not a weapon of this datasheet in the data .*; dropped \(--fit-wargear\)/);
    const riptide = (JSON.parse(readFileSync(fitted, 'utf8')) as { units: { name: string; models: { weapons: string[] }[] }[] }).units.find((u) => u.name === 'Riptide Battlesuit')!;
    expect(riptide.models[0].weapons).not.toContain('Missile pod');
    // an army file is not fitted: its weapons are edited in the file
    expect(cli(['army', fitted, '--fit-wargear']).stderr).toMatch(/fitted\.json: --fit-wargear fits a list export \(\.txt\) as it is converted/);
    const played = cli(['play', scenario, '--armies', `-,${fitted}`, '--agents', 'random,random']);
    expect(played.stderr).toBe('');
    expect(played.code).toBe(0);
  });

  it('--fit-wargear on a game, batch, matrix or tournament fits a list export as it is read', () => {
    const old = join(tmp, 'old-fit.txt');
    writeFileSync(old, readFileSync(LIST, 'utf8').replace('1x Twin plasma rifle', '1x Missile pod'));
    // play: the weapon is dropped (said on stderr) and the game is the one the fitted army file plays
    const logs = [join(tmp, 'fit-a.jsonl'), join(tmp, 'fit-b.jsonl')];
    const play = cli(['play', scenario, '--armies', `-,${old}`, '--fit-wargear', '--agents', 'random,random', '--seed', 'fit', '--log', logs[0]]);
    expect(play.code).toBe(0);
    expect(play.stderr).toMatch(/player 2 \(--armies \S+old-fit\.txt\): line \d+: Riptide Battlesuit: "Missile pod" is not a weapon of this datasheet in the data .*; dropped \(--fit-wargear\)/);
    const fitted = join(tmp, 'old-fit.json');
    expect(cli(['army', old, '--fit-wargear', '--out', fitted]).code).toBe(0);
    expect(cli(['play', scenario, '--armies', `-,${fitted}`, '--agents', 'random,random', '--seed', 'fit', '--log', logs[1]]).code).toBe(0);
    // the same events after game-started (which records the scenario's warnings, here naming the fit)
    const [a, b] = logs.map((f) => readFileSync(f, 'utf8').split('\n').slice(1));
    expect(a.length).toBeGreaterThan(100);
    expect(a).toEqual(b);

    // batch: the spec records the fit, and the report's play command repeats it
    const out = join(tmp, 'batch-fit');
    const r = cli(['batch', scenario, '--armies', `-,${old}`, '--fit-wargear', '--agents', 'random,random', '--games', '2', '--workers', '0', '--seed', 'fit', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.spec.fitWargear).toBe(true);
    const riptide = results.spec.scenario.players[1].army.units.find((u: { name: string }) => u.name === 'Riptide Battlesuit');
    expect(riptide.models[0].weapons).not.toContain('Missile pod');
    expect(playCommand(results.spec, 'x', false)).toMatch(/ --armies -,\S+old-fit\.txt --fit-wargear$/);
    expect(cli(['batch', '--resume', out, '--fit-wargear']).stderr).toMatch(/--resume continues the batch as its batch\.json says: leave out --fit-wargear/);

    // matrix and tournament take it too
    const m = cli(['matrix', scenario, '--armies', `-,${old}`, '--fit-wargear', '--detachments', 'Kauyon', '--vs', "Mont'ka", '--agents', 'random,random', '--games', '2', '--workers', '0', '--json']);
    expect(m.code).toBe(0);
    expect(JSON.parse(m.stdout).cells).toHaveLength(1);
    // (two different agents: a tournament refuses one named twice)
    const t = cli(['tournament', scenario, '--armies', `-,${old}`, '--fit-wargear', '--agents', `random,${join(import.meta.dirname, 'fixtures', 'salted-agent.ts')}`, '--games', '2', '--workers', '0', '--json']);
    expect(t.code, t.stderr).toBe(0);

    // without an army-list export to fit it is an error
    expect(cli(['play', scenario, '--fit-wargear']).stderr).toMatch(/--fit-wargear: fits the army-list exports given with --armies; expected --armies/);
    expect(cli(['play', scenario, '--armies', `-,${fitted}`, '--fit-wargear']).stderr).toMatch(/--fit-wargear: fits army-list exports \(\.txt\) as they are read; \S+old-fit\.json is an army file/);
  });

  it.runIf(HAVE_LISTS)('a fitted list from another data version: the first fitted weapons shown, the rest of its warnings counted', () => {
    const list = join(LISTS_DIR, 'listgrok_nr_nr1_gw.txt');
    const parsed = parseArmyList(readFileSync(list, 'utf8'), { file: list, fitWargear: true });
    expect(parsed.fitted.length).toBeGreaterThan(6);
    expect(parsed.fitted.every((w) => parsed.warnings.includes(w))).toBe(true);
    const sc = scenarioVariant(scenario, { armies: [list, undefined], fitWargear: true });
    const own = (sc.warnings ?? []).filter((w) => w.startsWith(`player 1 (--armies ${list}): `)).map((w) => w.slice(`player 1 (--armies ${list}): `.length));
    expect(own.slice(0, 5)).toEqual(parsed.fitted.slice(0, 5));
    expect(own.slice(5)).toEqual([`${parsed.warnings.length - 5} more warnings about the list (\`army ${list} --fit-wargear\` lists them all)`]);
    expect(() => scenarioVariant(scenario, { armies: [list, undefined] })).toThrow(/is not a weapon of .*add --fit-wargear/);
  });
});
