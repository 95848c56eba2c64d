/**
 * The Wahapedia importer on broken output paths, broken export files and the export's odd rows: each bug the
 * importer audit found (B1-B9, M1-M3) has one test here. Corrupted exports are built in os.tmpdir(): symbolic
 * links to the real files, with a rewritten copy of each file a test breaks; one import of that copy (TAU, AE)
 * serves every test that reads its report.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildFactions, importWahapedia, readWahapediaExport, type ExportTables, type ImportResult } from '../../src/data/wahapedia.ts';
import { runImport } from '../../src/data/import-command.ts';
import { parseTransport } from '../../src/data/abilities-parse.ts';
import { parseWargearOption } from '../../src/data/wargear-options-parse.ts';
import { makeItemResolver } from '../../src/data/items.ts';
import type { Weapon } from '../../src/data/datasheet.ts';
import { CliError } from '../../src/cli-error.ts';
import { DataError } from '../../src/data/errors.ts';
import { cli } from '../helpers/cli.ts';
import { EXPORT_DIR, HAVE_EXPORT } from './paths.ts';

const scratch: string[] = [];
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
}
afterAll(() => { for (const d of scratch) rmSync(d, { recursive: true, force: true }); });

/** An export dir linking every real file, except those `edit` rewrites (given the real text) or replaces by a folder (null). */
function brokenExport(edits: Record<string, ((text: string) => string) | null>): string {
  const dir = tempDir('import-robustness-export-');
  for (const f of readdirSync(EXPORT_DIR)) {
    const edit = edits[f];
    if (edit === undefined) symlinkSync(join(EXPORT_DIR, f), join(dir, f));
    else if (edit === null) mkdirSync(join(dir, f));
    else writeFileSync(join(dir, f), edit(readFileSync(join(EXPORT_DIR, f), 'utf8')));
  }
  return dir;
}

/** Replace one exact, unique piece of a file's text, recording the 1-based line it is on. */
function replaceOnce(text: string, from: string, to: string, lineOut?: (line: number) => void): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`test setup: ${JSON.stringify(from)} is not unique in the file`);
  lineOut?.(text.slice(0, at).split('\n').length);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The report's lines for one datasheet (or stratagem, enhancement) of a faction. */
function reportLines(r: ImportResult, faction: string, name: string): string[] {
  return [...r.report.problems, ...r.report.unparsedWargearOptions].filter((p) => p.faction === faction && p.datasheet === name).map((p) => p.what);
}

const weapons = (...names: string[]): Weapon[] => names.map((name) => ({ name, profiles: [] }));

describe.skipIf(!HAVE_EXPORT)('import wahapedia: robustness', () => {
  const lines: Record<string, number> = {};
  let stratagem = '';
  let result: ImportResult;
  let tables: ExportTables;

  beforeAll(() => {
    const dir = brokenExport({
      'Datasheets_models.csv': (t) => replaceOnce(t, '000000418|1|Crisis Battlesuits|10"|5|', '000000418|1|Crisis Battlesuits|10"|five|', (n) => { lines.T = n; }),
      'Datasheets_wargear.csv': (t) => replaceOnce(t, '000000418|2|1||Burst cannon||18|Ranged|4|4|5|0|1|', '000000418|2|1||Burst cannon||18|Ranged|4|4|5|0|lots|', (n) => { lines.D = n; }),
      'Enhancements.csv': (t) => replaceOnce(t, 'TAU|000008821002|Borthrod Gland|15|', 'TAU|000008821002|Borthrod Gland|ten|', (n) => { lines.cost = n; }),
      'Datasheets_models_cost.csv': (t) => replaceOnce(t, '000000418|2|6 models|400|', '000000418|2|6 models|4o0|', (n) => { lines.points = n; }),
      'Stratagems.csv': (t) => {
        const rows = t.split('\n');
        const i = rows.findIndex((l) => l.startsWith('TAU|') && l.split('|')[4] === '1');
        const cols = rows[i].split('|');
        stratagem = cols[1].trim();
        cols[4] = 'one';
        rows[i] = cols.join('|');
        lines.cp = i + 1;
        return rows.join('\n');
      },
      // the Devilfish bars a keyword no T'au datasheet has
      'Datasheets.csv': (t) => {
        const start = t.indexOf('000000424|Devilfish|TAU|');
        const at = t.indexOf('It cannot transport Battlesuit, Kroot or', start);
        return t.slice(0, at) + 'It cannot transport Battlesuit, Gravis or' + t.slice(at + 'It cannot transport Battlesuit, Kroot or'.length);
      },
    });
    result = importWahapedia(dir, { factions: ['TAU', 'AE'] });
    tables = readWahapediaExport(EXPORT_DIR);
  });

  // runImport prints the report: kept out of the test output
  beforeEach(() => { vi.spyOn(process.stdout, 'write').mockImplementation(() => true); });
  afterEach(() => { vi.restoreAllMocks(); });

  it('B1 an --out that cannot be written is a one-line CliError naming the path (exit code 2), not a stack trace', () => {
    const base = tempDir('import-robustness-b1-');
    writeFileSync(join(base, 'afile'), '');
    const r = cli(['import', 'wahapedia', EXPORT_DIR, '--factions', 'TAU', '--out', join(base, 'afile', 'sub')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: cannot create the folder .*afile\/sub\/tau: ENOTDIR/);
    if (existsSync('/proc')) {
      const fail = (out: string) => { try { runImport(EXPORT_DIR, { factions: 'TAU', out }); } catch (e) { return e; } return undefined; };
      const file = fail('/proc/strategium-import.json');
      expect(file).toBeInstanceOf(CliError);
      expect((file as Error).message).toBe('/proc/strategium-import.json: cannot write (ENOENT)');
      const dir = fail('/proc/strategium-import');
      expect(dir).toBeInstanceOf(CliError);
      expect((dir as Error).message).toMatch(/^cannot create the folder \/proc\/strategium-import\/tau: ENOENT/);
    }
  });

  it('B2 a faction that cannot be written leaves every output as it was: no file replaced, no partial file, no folder made', () => {
    const out = tempDir('import-robustness-b2-');
    mkdirSync(join(out, 'tau'));
    writeFileSync(join(out, 'tau', 'units.json'), 'OLD');
    writeFileSync(join(out, 'aeldari'), ''); // aeldari/units.json cannot be made
    let err: unknown;
    try { runImport(EXPORT_DIR, { factions: 'TAU,AE', out }); } catch (e) { err = e; }
    expect(readFileSync(join(out, 'tau', 'units.json'), 'utf8')).toBe('OLD');
    expect(err).toBeInstanceOf(CliError);
    expect(readdirSync(join(out, 'tau'))).toEqual(['units.json']);

    const fresh = tempDir('import-robustness-b2-');
    writeFileSync(join(fresh, 'aeldari'), '');
    expect(() => runImport(EXPORT_DIR, { factions: 'TAU,AE', out: fresh })).toThrow(/aeldari\/units\.json: cannot write \(ENOTDIR\)$/);
    expect(readdirSync(fresh)).toEqual(['aeldari']);
  });

  it('B3 a bad characteristic is still imported (as 0) and its report line names file, line and column', () => {
    const crisis = result.factions[0].datasheets.find((d) => d.id === '000000418')!;
    expect(crisis.models[0].toughness).toBe(0);
    const report = reportLines(result, 'TAU', 'Crisis Battlesuits');
    expect(report).toContain(`Datasheets_models.csv line ${lines.T}, column T: "five" is not a number (written as 0)`);
    expect(report).toContain(`Datasheets_wargear.csv line ${lines.D}, column D: "lots" is not a number or dice expression (written as 0)`);
    // a points cell: named by its place, the size left out
    expect(report).toContain(`Datasheets_models_cost.csv line ${lines.points}, column cost: points line not understood: 6 models = 4o0 (left out of the sizes)`);
    expect(crisis.sizes).toEqual([{ models: 3, points: 200 }]);
    expect(result.factions[0].enhancements.find((e) => e.name === 'Borthrod Gland')!.cost).toBe(0);
    expect(reportLines(result, 'TAU', 'Borthrod Gland')).toEqual([`Enhancements.csv line ${lines.cost}, column cost: "ten" is not a number (written as 0)`]);
  });

  it('B4 a CP cost that is not a number stays null (the export gives none) but is reported with its place', () => {
    expect(result.factions[0].stratagems.find((s) => s.name === stratagem)!.cp).toBeNull();
    expect(reportLines(result, 'TAU', stratagem)).toEqual([`Stratagems.csv line ${lines.cp}, column cp_cost: "one" is not a number (written as null)`]);
  });

  it('B5 an option item that is no weapon nor wargear ability is reported; a misspelt weapon is read as that weapon, and reported', () => {
    const incubi = result.factions[1].datasheets.find((d) => d.name === 'Ynnari Incubi')!;
    // the export's "Demilklaives": the option gives the datasheet's Demiklaives, which a list can name
    expect(incubi.wargearOptions[0].with).toEqual(['Demiklaives']);
    expect(incubi.weapons.map((w) => w.name)).toContain('Demiklaives');
    expect(incubi.wargear).toBeUndefined();
    expect(reportLines(result, 'AE', 'Ynnari Incubi')).toEqual(['"demilklaives" in its loadout or wargear options is not a weapon of the datasheet: read as Demiklaives (a misspelling)']);
    // "dart-bow and tri-bade" is the War Shaper's one weapon, misspelt: its option replaces that weapon, not two
    // pieces of wargear ("Dart-bow", "Tri-bade") no model carries
    const shaper = result.factions[0].datasheets.find((d) => d.name === 'Kroot War Shaper')!;
    expect(shaper.wargearOptions.map((o) => [o.replace, o.with])).toEqual([[['Dart-bow and tri-blade'], ['Bladestave and prey-hook']]]);
    expect(shaper.wargear).toBeUndefined();
    expect(reportLines(result, 'TAU', 'Kroot War Shaper')).toEqual(['"dart-bow and tri-bade" in its loadout or wargear options is not a weapon of the datasheet: read as Dart-bow and tri-blade (a misspelling)']);
    // a name as near two weapons as each other is not guessed
    const told: string[] = [];
    const resolve = makeItemResolver(weapons('Pulse rifle', 'Missile pod A', 'Missile pod B'), [], (text, weapon) => told.push(`${text} -> ${weapon}`));
    expect(resolve('Pulse rifel')).toEqual({ name: 'Pulse rifle', kind: 'weapon' });
    expect(resolve('Missile pod C')).toEqual({ name: 'Missile pod C', kind: 'unknown' });
    // short names are not guessed at (two edits make another word of them)
    expect(resolve('Pulse')).toEqual({ name: 'Pulse', kind: 'unknown' });
    expect(told).toEqual(['Pulse rifel -> Pulse rifle']);
    // wargear the data gives no rule (drones) stays wargear, which army lists name, and is reported too
    const strike = result.factions[0].datasheets.find((d) => d.name === 'Strike Team')!;
    expect(strike.wargear).toEqual(['Guardian drone', 'Gun drone', 'Marker drone', 'Shield drone']);
    expect(reportLines(result, 'TAU', 'Strike Team')).toEqual(['wargear option items "Guardian drone", "Gun drone", "Marker drone", "Shield drone": neither a weapon nor a wargear ability of the datasheet (listed as wargear)']);
  });

  it('B6 "... takes up the space of N models and each ..." gives one entry per keyword of each list; a keyword unknown to the faction is reported', () => {
    const split = (w: string) => [w.toUpperCase()];
    const landRaider = parseTransport('This model has a transport capacity of 12 Adeptus Astartes Infantry models. Each Jump Pack, Wulfen, Gravis or Terminator model takes up the space of 2 models and each Centurion model takes up the space of 3 models.', split)!;
    expect(landRaider).toEqual({ transport: {
      capacity: 12, keywords: ['ADEPTUS ASTARTES INFANTRY'], excludedKeywords: [],
      modelSpace: [{ keyword: 'JUMP PACK', space: 2 }, { keyword: 'WULFEN', space: 2 }, { keyword: 'GRAVIS', space: 2 }, { keyword: 'TERMINATOR', space: 2 }, { keyword: 'CENTURION', space: 3 }],
    } });
    const centaur = parseTransport('This model has a transport capacity of 6 Astra Militarum Infantry models. Each Heavy Weapons Team model and Veteran Heavy Weapons Team model takes up the space of 2 models. Each Jump Pack, Possessed and Terminator model takes up the space of 3 models.', split)!;
    expect(centaur.transport.modelSpace!.map((s) => `${s.keyword} ${s.space}`)).toEqual(['HEAVY WEAPONS TEAM 2', 'VETERAN HEAVY WEAPONS TEAM 2', 'JUMP PACK 3', 'POSSESSED 3', 'TERMINATOR 3']);
    expect(reportLines(result, 'TAU', 'Devilfish')).toEqual(['transport: GRAVIS is not a keyword of any TAU datasheet']);
  });

  it('B7 a capacity naming two kinds of model (Ghost Ark, Harridan) is unparsed with no keywords, and says why', () => {
    const split = (w: string) => w.toUpperCase().split(' ');
    const ark = parseTransport('This model has a transport capacity of 10 Necron Warrior models and 1 Necrons Infantry Character model.', split)!;
    expect(ark.transport).toEqual({ capacity: 10, keywords: [], excludedKeywords: [], unparsed: true });
    expect(ark.problem).toMatch(/^capacity names more than one kind of model: Necron Warrior models and 1 Necrons Infantry Character/);
    const harridan = parseTransport('This model has a transport capacity of 20 Gargoyles models and 1 Winged Tyranid Prime model.', split)!;
    expect(harridan.transport.unparsed).toBe(true);
    expect(harridan.transport.keywords).toEqual([]);
  });

  it('B8 an option whose wording the parser cannot split is unparsed, not items named after the rule text', () => {
    const tactical = makeItemResolver(weapons('Bolt pistol', 'Boltgun', 'Twin lightning claws', 'Astartes chainsword', 'Power fist', 'Flamer'), []);
    const profiles = ['Tactical Sergeant', 'Tactical Marines'];
    const sergeant = parseWargearOption('The Tactical Sergeant’s bolt pistol and boltgun can be replaced with 1 twin lightning claws, or two different weapons from the following list:* <br><ul><li>1 Astartes chainsword</li><li>1 power fist</li></ul>', profiles, tactical);
    expect(sergeant.option).toEqual({ replace: [], with: [], count: 0, models: [], unparsed: true });
    const rhino = parseWargearOption('This model can be equipped with 1 havoc launcher or can replace 1 combi-bolter with 1 havoc launcher.', ['Chaos Rhino'], makeItemResolver(weapons('Havoc launcher', 'Combi-bolter'), []));
    expect(rhino.option?.unparsed).toBe(true);
    // an option of a shape the parser knows is unchanged
    const marine = parseWargearOption('1 Tactical Marine’s boltgun can be replaced with 1 flamer.', profiles, tactical);
    expect(marine.option).toEqual({ replace: ['Boltgun'], with: ['Flamer'], count: 1, models: ['Tactical Marines'], choices: [['Flamer']] });
  });

  it('B8b "(duplicates are not allowed)" and its other wordings: the option is read, its choices marked distinct', () => {
    const raptors = makeItemResolver(weapons('Astartes chainsword', 'Flamer', 'Meltagun', 'Plasma gun', 'Close combat weapon'), []);
    const r = parseWargearOption('Up to 2 Raptors can each have their Astartes chainsword replaced with one of the following options (you cannot select the same option more than once):<ul><li>1 flamer and 1 close combat weapon</li><li>1 meltagun and 1 close combat weapon</li></ul>', ['Raptor Champion', 'Raptors'], raptors);
    expect(r.option).toEqual({ replace: ['Astartes chainsword'], with: ['Flamer', 'Close combat weapon', 'Meltagun'], count: 2, models: ['Raptors'], choices: [['Flamer', 'Close combat weapon'], ['Meltagun', 'Close combat weapon']], distinct: true });
    const guns = makeItemResolver(weapons('Multi-melta', 'Twin lascannon', 'Twin heavy bolter'), []);
    const fort = parseWargearOption('This model can be equipped with up to two of the following (but cannot be equipped with duplicates of the same weapon):<ul><li>1 multi-melta</li><li>1 twin lascannon</li><li>1 twin heavy bolter</li></ul>', ['Castellum Stronghold'], guns);
    expect(fort.option).toMatchObject({ with: ['Multi-melta', 'Twin lascannon', 'Twin heavy bolter'], choose: 2, distinct: true });
    const squad = makeItemResolver(weapons('Lasgun', 'Flamer', 'Meltagun'), []);
    const plain = parseWargearOption('Up to 3 Traitor Guardsmen can each have their lasgun replaced with one of the following:<ul><li>1 flamer</li><li>1 meltagun</li></ul>', ['Traitor Guardsmen'], squad);
    expect(plain.option).toEqual({ replace: ['Lasgun'], with: ['Flamer', 'Meltagun'], count: 3, models: ['Traitor Guardsmen'], choices: [['Flamer'], ['Meltagun']] });
  });

  it('B9 an export path that is a file, or an export file that is a folder, is a DataError naming it', () => {
    const notDir = join(EXPORT_DIR, 'Factions.csv');
    expect(() => importWahapedia(notDir)).toThrow(DataError);
    expect(() => importWahapedia(notDir)).toThrow(`${notDir}: is not a directory`);
    const dir = brokenExport({ 'Enhancements.csv': null });
    expect(() => importWahapedia(dir)).toThrow(DataError);
    expect(() => importWahapedia(dir)).toThrow(`${join(dir, 'Enhancements.csv')}: cannot read: it is a directory, not a .csv file`);
  });

  it('M1 a faction named twice (TAU,tau) is imported once', () => {
    expect(buildFactions(tables, { factions: ['TAU', 'tau'] }).factions.map((f) => f.faction.id)).toEqual(['TAU']);
    const out = join(tempDir('import-robustness-m1-'), 'tau.json');
    runImport(EXPORT_DIR, { factions: 'TAU,tau', out }); // one faction: a single .json file holds it
    expect(existsSync(out)).toBe(true);
  });

  it('M2 an empty --factions list is an error, not every faction', () => {
    const out = tempDir('import-robustness-m2-');
    expect(() => runImport(EXPORT_DIR, { factions: '', out })).toThrow(CliError);
    expect(() => runImport(EXPORT_DIR, { factions: ' , ', out })).toThrow(/^--factions: expected export faction ids separated by commas/);
    expect(readdirSync(out)).toEqual([]);
  });

  it("M3 'all' together with ids is an error, not the ids alone", () => {
    const out = tempDir('import-robustness-m3-');
    expect(() => runImport(EXPORT_DIR, { factions: 'all,TAU', out })).toThrow(/^--factions: 'all' imports every faction; give it alone/);
    expect(readdirSync(out)).toEqual([]);
  });
});
