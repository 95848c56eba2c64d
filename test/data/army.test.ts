import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseArmyList } from '../../src/data/army-build.ts';
import { detectFormat } from '../../src/data/army-list-parse.ts';
import { checkArmyAgainstCatalog, loadArmyFile, validateArmy, type ArmyFile } from '../../src/data/army.ts';
import { bundledSource, exportSource, loadFactionCatalog, type CatalogSource } from '../../src/data/catalog.ts';
import { DataError } from '../../src/data/errors.ts';
import { stableStringify } from '../../src/data/stable-json.ts';
import { EXPORT_DIR, HAVE_EXPORT, HAVE_LISTS, LISTS_DIR } from './paths.ts';
import { cli } from '../helpers/cli.ts';

const TAU_LIST = `Xenos - T'au Empire - Test - [330 pts]

# ++ Army Roster ++ [330 pts]
## Configuration
Battle Size: Incursion (1000 Point limit)
Detachment: Kauyon

## Character [50 pts]
Aun'shi [50 pts]: Warlord, Fidelity

## Battleline [70 pts]
Strike Team [70 pts]:
• 1x Fire Warrior Shas'ui: Pulse rifle, Pulse pistol, Close combat weapon, Shield Drone
• 9x Fire Warriors: Pulse rifle, Pulse pistol, Close combat weapon

## Other [210 pts]
Crisis Battlesuits [210 pts]:
• 1x Crisis Shas'vre: Cyclic ion blaster, Plasma rifle, Battlesuit fists
• 2x Crisis Shas'ui: Fusion blaster, Burst cannon, Battlesuit fists
`;

describe('army lists (bundled T’au data)', () => {
  it('parses a New Recruit list into an army file, checking points', () => {
    const { army, warnings, format } = parseArmyList(TAU_LIST, { file: 'tau.txt' });
    expect(format).toBe('nr-plain');
    expect(army).toMatchObject({ name: 'Test', faction: 'TAU', factionName: "T'au Empire", detachment: 'Kauyon', battleSize: { name: 'Incursion', pointsLimit: 1000 } });
    expect(army.units.map((u) => [u.id, u.name, u.points])).toEqual([['u1', "Aun'shi", 50], ['u2', 'Strike Team', 70], ['u3', 'Crisis Battlesuits', 200]]);
    expect(army.units[0]).toMatchObject({ datasheetId: '000000408', warlord: true, models: [{ profile: "Aun'Shi", count: 1, weapons: ['Fidelity'] }] });
    expect(army.units[1].models).toEqual([
      { profile: "Fire Warrior Shas'ui", count: 1, weapons: ['Pulse rifle', 'Pulse pistol', 'Close combat weapon'], wargear: ['Shield drone'] },
      { profile: 'Fire Warriors', count: 9, weapons: ['Pulse rifle', 'Pulse pistol', 'Close combat weapon'] },
    ]);
    expect(army.units[2].models[0].weapons).toEqual(['Cyclic ion blaster', 'Plasma rifle', 'Battlesuit fists']);
    expect(army.points).toBe(320);
    // wrong points: reported, not fatal
    expect(warnings).toContain('line 17: Crisis Battlesuits: the list says 210 pts, the data says 200 (3 models)');
  });

  it("reports a list's warnings in its line order (a unit's points before its weapons, found first)", () => {
    const list = TAU_LIST.replace('Strike Team [70 pts]:', 'Strike Team [75 pts]:').replace('9x Fire Warriors: Pulse rifle,', '9x Fire Warriors: Pulse rifle, Pulse blaster,');
    const { warnings } = parseArmyList(list, { file: 'tau.txt' });
    const lines = warnings.map((w) => Number(/^line (\d+):/.exec(w)?.[1])).filter((n) => !Number.isNaN(n));
    expect(warnings.filter((w) => w.startsWith('line 12: Strike Team: the list says 75 pts'))).toHaveLength(1);
    expect(warnings.some((w) => w.startsWith('line 14: Strike Team: "Pulse blaster" is not a weapon'))).toBe(true);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(warnings).toContain('the list totals 330 points, the data gives 320');
  });

  it('an unknown unit names the line and the closest datasheets', () => {
    const text = TAU_LIST.replace('Strike Team [70 pts]:', 'Strke Teams [70 pts]:');
    expect(() => parseArmyList(text, { file: 'tau.txt' })).toThrow(DataError);
    expect(() => parseArmyList(text, { file: 'tau.txt' })).toThrow(/^tau\.txt: line 12: unknown unit "Strke Teams" \(T'au Empire\); closest: Strike Team/);
  });

  it('unknown wargear names the line and the closest wargear of the unit', () => {
    const text = TAU_LIST.replace('Aun\'shi [50 pts]: Warlord, Fidelity', 'Aun\'shi [50 pts]: Warlord, Fidellity blade');
    expect(() => parseArmyList(text, { file: 'tau.txt' })).toThrow(/tau\.txt: line 9: unknown wargear "Fidellity blade" for Aun'shi; closest: Fidelity/);
  });

  it('a bullet line with no model on it is passed over (it threw a TypeError)', () => {
    const text = TAU_LIST.replace('• 9x Fire Warriors', '•\n• 9x Fire Warriors');
    expect(text).not.toBe(TAU_LIST);
    expect(parseArmyList(text, { file: 'tau.txt' }).army.units).toEqual(parseArmyList(TAU_LIST, { file: 'tau.txt' }).army.units);
  });

  it('a count no unit comes near names the line, before the models are laid out one by one', () => {
    const models = TAU_LIST.replace('9x Fire Warriors', '999999999x Fire Warriors');
    expect(() => parseArmyList(models, { file: 'tau.txt' })).toThrow(/^tau\.txt: line 12: Strike Team: 1000000000 models; expected at most 100 in a unit$/);
    const items = TAU_LIST.replace('9x Fire Warriors: Pulse rifle', '9x Fire Warriors: 999999999x Pulse rifle');
    expect(() => parseArmyList(items, { file: 'tau.txt' })).toThrow(/^tau\.txt: line 14: Strike Team: 999999999x Pulse rifle; expected at most 100 of an item in a unit$/);
    // a large real unit is not refused
    expect(() => parseArmyList(TAU_LIST.replace('9x Fire Warriors', '19x Fire Warriors'), { file: 'tau.txt' })).not.toThrow();
  });

  it('over the points limit and wrong unit sizes are warnings', () => {
    const text = TAU_LIST.replace('Incursion (1000', 'Incursion (300').replace('• 2x Crisis', '• 3x Crisis');
    const { warnings } = parseArmyList(text);
    // 4 Crisis Battlesuits are priced as the next size up (6 models, 400 pts)
    expect(warnings).toContain('the army is 520 points, over the Incursion limit of 300');
    expect(warnings.some((w) => /4 models is not a unit size of the datasheet \(3, 6\)/.test(w))).toBe(true);
  });

  it('--fit-wargear: a weapon of another data version is dropped; a model left with none of its datasheet\'s weapons takes its default ones', () => {
    // an older export: the Shas'vre's drone carried a Twin pulse carbine, which the Sunforge datasheet
    // no longer has; the Shas'ui lists only the drone's gun
    const old = `${TAU_LIST.slice(0, TAU_LIST.indexOf('## Character'))}## Other [140 pts]
Crisis Sunforge Battlesuits [140 pts]:
• 1x Crisis Sunforge Shas'vre: 2x Fusion blaster, Battlesuit fists, Gun Drone (Twin pulse carbine)
• 2x Crisis Sunforge Shas'ui: Gun Drone (Twin pulse carbine)
`;
    const kept = parseArmyList(old, { file: 'old.txt', faction: 'TAU' });
    expect(kept.army.units[0].models.map((m) => m.weapons)).toEqual([['Fusion blaster', 'Fusion blaster', 'Battlesuit fists', 'Twin pulse carbine'], ['Twin pulse carbine']]);
    expect(kept.warnings.filter((w) => /"Twin pulse carbine" is not a weapon of this datasheet.*a game refuses the army.*--fit-wargear drops it/.test(w))).toHaveLength(2);
    const fit = parseArmyList(old, { file: 'old.txt', faction: 'TAU', fitWargear: true });
    expect(fit.army.units[0].models).toEqual([
      { profile: "Crisis Sunforge Shas'vre", count: 1, weapons: ['Fusion blaster', 'Fusion blaster', 'Battlesuit fists'], wargear: ['Gun drone'] },
      { profile: "Crisis Sunforge Shas'ui", count: 2, weapons: ['Fusion blaster', 'Fusion blaster', 'Battlesuit fists'], wargear: ['Gun drone'] },
    ]);
    expect(fit.warnings.filter((w) => /"Twin pulse carbine" is not a weapon of this datasheet.*dropped \(--fit-wargear\)/.test(w))).toHaveLength(2);
    expect(fit.warnings.filter((w) => /no weapon of the datasheet left/.test(w))).toEqual(["line 11: Crisis Sunforge Battlesuits: 2 Crisis Sunforge Shas'ui: no weapon of the datasheet left; given the default weapons (Fusion blaster, Fusion blaster, Battlesuit fists)"]);
    // the fitted army's weapons pass the checks a game makes (the one-unit army has no CHARACTER to be its Warlord)
    expect(checkArmyAgainstCatalog(fit.army, loadFactionCatalog('TAU'), 'old.txt')).toEqual(['no Warlord marked and no CHARACTER to be one: a game refuses the army']);
    // a weapon the faction does not know at all is still an error, fitted or not
    expect(() => parseArmyList(old.replace('2x Fusion blaster', '2x Fusion blastr'), { faction: 'TAU', fitWargear: true })).toThrow(/unknown wargear "Fusion blastr"/);
  });

  it('a short list with no faction finds the faction from its units', () => {
    const { army } = parseArmyList("Aun'shi (50pts): Fidelity\n10x Strike Team (70pts)\n");
    expect(army.faction).toBe('TAU');
    expect(army.units[1].models).toEqual([
      { profile: "Fire Warrior Shas'ui", count: 1, weapons: ['Pulse pistol', 'Pulse rifle', 'Close combat weapon'] },
      { profile: 'Fire Warriors', count: 9, weapons: ['Pulse pistol', 'Pulse rifle', 'Close combat weapon'] },
    ]);
  });

  it('a list of a faction that is not bundled says so', () => {
    const text = 'Boop (100 Points)\n\nSpace Marines\nGladius Task Force\nIncursion (1000 Points)\n\nCHARACTERS\n\nCaptain (100 Points)\n  • 1x Bolt pistol\n';
    expect(() => parseArmyList(text, { file: 'sm.txt', sources: [bundledSource()] })).toThrow(/sm\.txt: faction "Space Marines" is not bundled .*--data/);
  });
});

describe('army files (JSON)', () => {
  const good = (): ArmyFile => parseArmyList(TAU_LIST).army;

  it('round-trips through a file and validates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'army-'));
    const f = join(dir, 'army.json');
    writeFileSync(f, stableStringify(good()));
    const army = loadArmyFile(f);
    expect(army).toEqual(good());
    expect(checkArmyAgainstCatalog(army, loadFactionCatalog('tau'))).toEqual([]);
  });

  it('a malformed army names the file, the field and what was expected', () => {
    const dir = mkdtempSync(join(tmpdir(), 'army-'));
    const f = join(dir, 'bad.json');
    const bad = good() as unknown as { units: { models: { count: unknown }[] }[]; battleSize: { name: string } };
    bad.units[1].models[0].count = 'ten';
    writeFileSync(f, JSON.stringify(bad));
    expect(() => loadArmyFile(f)).toThrow(DataError);
    expect(() => loadArmyFile(f)).toThrow(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid army file: units\\[1\\]\\.models\\[0\\]\\.count: .*expected number`));
    // a count no unit comes near stops here, before a game would set up a billion models
    bad.units[1].models[0].count = 1e9;
    expect(() => validateArmy(bad, 'x.json')).toThrow(/x\.json: invalid army file: units\[1\]\.models: expected at most 100 models in a unit, found 100000000\d/);
    bad.units[1].models[0].count = 100 - bad.units[1].models.slice(1).reduce((t, g) => t + (g.count as number), 0);
    expect(() => validateArmy(bad, 'x.json')).not.toThrow();
    bad.units[1].models[0].count = 9;
    bad.battleSize.name = 'Huge';
    expect(() => validateArmy(bad, 'x.json')).toThrow(/x\.json: invalid army file: battleSize\.name: .*"Incursion"/);
    writeFileSync(f, '{ "name": ');
    expect(() => loadArmyFile(f)).toThrow(/bad\.json: not valid JSON/);
    expect(() => loadArmyFile(join(dir, 'missing.json'))).toThrow(/missing\.json: army file not found/);
  });

  it('checks datasheets, profiles and Leader attachments against the catalog', () => {
    const army = good();
    army.units[0].attachedTo = 'u3';
    expect(() => checkArmyAgainstCatalog(validateArmy(army), loadFactionCatalog('tau'), 'a.json')).toThrow(/a\.json: units\[0\]\.attachedTo: Aun'shi cannot lead Crisis Battlesuits/);
    army.units[0].attachedTo = 'u2';
    expect(checkArmyAgainstCatalog(validateArmy(army), loadFactionCatalog('tau'))).toEqual([]);
    army.units[0].attachedTo = 'u9';
    expect(() => validateArmy(army, 'a.json')).toThrow(/units\[0\]\.attachedTo: expected the id of a unit/);
    delete army.units[0].attachedTo;
    army.units[1].models[0].profile = 'Fire Warrior Shasvre';
    expect(() => checkArmyAgainstCatalog(validateArmy(army), loadFactionCatalog('tau'), 'a.json')).toThrow(/units\[1\]\.models\[0\]\.profile: expected one of "Fire Warrior Shas'ui", "Fire Warriors"/);
  });

  it('a weapon the datasheet does not have: a warning that a game refuses it, with the closest weapons', () => {
    const army = good();
    army.units[1].models[0].weapons = ['Pulse rifle', 'Missile pod'];
    const warnings = checkArmyAgainstCatalog(validateArmy(army), loadFactionCatalog('tau'));
    expect(warnings).toEqual([expect.stringMatching(/^units\[1\]\.models\[0\]: "Missile pod" is not a weapon of Strike Team in the data; a game refuses it until the army names one of its weapons \(closest: .*\)$/)]);
    // names differing in case only are the data's weapons (played under the data's name)
    army.units[1].models[0].weapons = ['PULSE RIFLE'];
    expect(checkArmyAgainstCatalog(validateArmy(army), loadFactionCatalog('tau'))).toEqual([]);
  });
});

describe.skipIf(!HAVE_LISTS || !HAVE_EXPORT)('every example army list parses', () => {
  let sources: CatalogSource[];
  beforeAll(() => {
    sources = [bundledSource(), exportSource(EXPORT_DIR)];
  });
  const files = HAVE_LISTS ? readdirSync(LISTS_DIR).filter((f) => f.endsWith('.txt')).sort() : [];

  it.each(files)('%s', (file) => {
    const text = readFileSync(join(LISTS_DIR, file), 'utf8');
    const { army, format } = parseArmyList(text, { file, sources });
    expect(validateArmy(army)).toEqual(army);
    const expected: Record<string, string> = {
      'listgrok_nr_nr1.txt': 'nr-plain', 'listgrok_nr_nr1_gw.txt': 'nr-gw', 'listgrok_nr_nr1_wtc.txt': 'nr-wtc',
      'listgrok_nr_nr1_short.txt': 'nr-short', 'listgrok_official_app_example1.txt': 'gw-app',
    };
    if (expected[file]) expect(format).toBe(expected[file]);
    expect(detectFormat(text)).toBe(format);
    if (file.startsWith('listgrok_nr')) {
      // the T'au list: 18 units, Shadowsun the Warlord, three enhancements
      expect(army.faction).toBe('TAU');
      expect(army.units).toHaveLength(18);
      expect(army.units.filter((u) => u.warlord).map((u) => u.name)).toEqual(['Commander Shadowsun']);
      expect(army.units.filter((u) => u.enhancement).map((u) => u.enhancement)).toEqual(['Plasma Accelerator Rifle', 'Fusion Blades', 'Thermoneutronic Projector']);
      const carnivores = army.units.find((u) => u.name === 'Kroot Carnivores')!;
      expect(carnivores.models.reduce((s, m) => s + m.count, 0)).toBe(10);
      const pathfinders = army.units.find((u) => u.name === 'Pathfinder Team')!;
      expect(pathfinders.models.map((m) => [m.profile, m.count])).toEqual([["Pathfinder Shas'ui", 1], ['Pathfinders', 9]]);
      const shadowsun = army.units.find((u) => u.name === 'Commander Shadowsun')!;
      expect(shadowsun.models[0].weapons.filter((w) => w === 'High-energy fusion blaster')).toHaveLength(2);
      const coldstar = army.units.find((u) => u.enhancement === 'Fusion Blades')!;
      expect(coldstar.models[0].weapons.filter((w) => w === 'Fusion blaster')).toHaveLength(4);
      expect(coldstar.points).toBe(95 + 25);
      if (format !== 'nr-short') expect(army.detachment).toBe('Experimental Prototype Cadre');
      if (format !== 'nr-short') {
        const recon = pathfinders.models[0];
        expect(recon.wargear).toContain('Recon Drone');
        expect(recon.weapons.filter((w) => w === 'Drone burst cannon')).toHaveLength(1);
      }
    } else {
      expect(army).toMatchObject({ faction: 'SM', subfaction: 'Space Wolves', detachment: 'Stormlance Task Force', battleSize: { name: 'Strike Force', pointsLimit: 2000 } });
      expect(army.units).toHaveLength(14);
      expect(army.units.find((u) => u.warlord)?.name).toBe('Logan Grimnar On Stormrider');
      expect(army.units.filter((u) => u.enhancement).map((u) => u.enhancement)).toEqual(['Portents of Wisdom', 'Fury of the Storm']);
      const cav = army.units.find((u) => u.name === 'Thunderwolf Cavalry')!;
      expect(cav.models.map((m) => [m.profile, m.count])).toEqual([['Thunderwolf Cavalry Pack Leader', 1], ['Thunderwolf Cavalry', 5]]);
    }
  });
});

describe.skipIf(!HAVE_LISTS || !HAVE_EXPORT)('strategium army (CLI)', () => {
  it('prints a summary; --json prints the army file', () => {
    const list = join(LISTS_DIR, 'listgrok_nr_nr1.txt');
    const r = cli(['army', list]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Tauuuu: T'au Empire, Experimental Prototype Cadre, Strike Force \(2000\), \d+ points, 18 units/);
    expect(r.stdout).toMatch(/warnings:/);
    // a weapon of older data (Broadsides' "Missile pod") is kept, with what it means for a game
    expect(r.stdout).toMatch(/"Missile pod" is not a weapon of this datasheet in the data .*; kept, but a game refuses the army until it names one of the datasheet's weapons/);
    const j = cli(['army', list, '--json']);
    expect(validateArmy(JSON.parse(j.stdout)).units).toHaveLength(18);
  });

  it('a faction that is not bundled is a one-line error with exit code 2, unless --data is given', () => {
    const list = join(LISTS_DIR, 'listgrok_official_app_example1.txt');
    const r = cli(['army', list]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*faction "Space Marines" is not bundled/);
    const d = cli(['army', list, '--data', EXPORT_DIR]);
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/Space Marines \(Space Wolves\), Stormlance Task Force/);
  });
});
