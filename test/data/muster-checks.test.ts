/**
 * Army construction checks (src/data/muster-checks.ts): each limit warns when broken and stays quiet at
 * the limit; the datasheets' army-building abilities (SUPREME COMMANDER, INDEPENDENT POWER).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArmyFile, type ArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { scenarioVariant } from '../../src/sim/variants.ts';
import { ruleCoverage } from '../../src/factions/coverage.ts';
import { cli } from '../helpers/cli.ts';
import { buildFactions, readWahapediaExport } from '../../src/data/wahapedia.ts';
import { EXPORT_DIR, HAVE_EXPORT } from './paths.ts';

const root = join(import.meta.dirname, '..', '..');
const tau = loadFactionCatalog('TAU');
const base = (): ArmyFile => loadArmyFile(join(root, 'scenarios', 'armies', 'tau-kauyon.json'));
const warn = (a: ArmyFile) => musterWarnings(a, (id) => tau.byId(id));

/** A copy of the army's first unit named `name`, with a new id (and changes). */
function more(a: ArmyFile, name: string, changes: Partial<ArmyUnit> = {}): ArmyFile {
  const u = a.units.find((x) => x.name === name)!;
  return { ...a, units: [...a.units, { ...structuredClone(u), id: `u${a.units.length + 1}`, warlord: undefined, ...changes }] };
}

/** A unit of a datasheet the army does not have (one model of its first profile, its default weapons). */
function unitOf(a: ArmyFile, name: string, changes: Partial<ArmyUnit> = {}): ArmyFile {
  const ds = tau.byName(name)!;
  const profile = ds.composition[0].profile;
  const weapons = (ds.defaultLoadout[profile] ?? []).filter((w) => ds.weapons.some((x) => x.name === w));
  const unit: ArmyUnit = { id: `u${a.units.length + 1}`, datasheetId: ds.id, name: ds.name, points: ds.sizes[0].points, models: [{ profile, count: 1, weapons }], ...changes };
  return { ...a, units: [...a.units, unit] };
}

describe('army construction', () => {
  it('the bundled army breaks none', () => {
    expect(warn(base())).toEqual([]);
  });

  it('one Warlord, a CHARACTER', () => {
    const a = base();
    const lord = a.units.find((u) => u.warlord)!;
    // a Strike Team made the Warlord in its place
    const team = { ...a, units: a.units.map((u) => (u === lord ? { ...u, warlord: undefined } : u.name === 'Strike Team' && !a.units.slice(0, a.units.indexOf(u)).some((x) => x.name === 'Strike Team') ? { ...u, warlord: true } : u)) };
    const st = team.units.find((u) => u.warlord)!;
    expect(warn(team)).toEqual([`Strike Team (${st.id}) is the Warlord: the Warlord is a CHARACTER`]);
    // two Warlords
    const two = more(base(), "Aun'shi", { warlord: true });
    expect(warn(two).filter((w) => /Warlord/.test(w))).toEqual([expect.stringMatching(/^2 Warlords \(.*\): one$/)]);
  });

  it('no Warlord marked: the CHARACTER a game makes the Warlord is named; with no CHARACTER, the army is refused', () => {
    const none = { ...base(), units: base().units.map((u) => ({ ...u, warlord: undefined })) };
    const first = none.units.find((u) => tau.byId(u.datasheetId)!.keywords.includes('CHARACTER'))!;
    expect(warn(none)).toEqual([`no Warlord marked: a game makes ${first.name} (${first.id}), the first CHARACTER, the Warlord`]);
    const noCharacter = { ...none, units: none.units.filter((u) => !tau.byId(u.datasheetId)!.keywords.includes('CHARACTER')) };
    expect(warn(noCharacter)).toEqual(['no Warlord marked and no CHARACTER to be one: a game refuses the army']);
  });

  it('an EPIC HERO once', () => {
    expect(warn(more(base(), "Aun'shi"))).toEqual(["2 Aun'shi units: an EPIC HERO can be included once"]);
  });

  it('a datasheet at most three times, six for BATTLELINE and DEDICATED TRANSPORT', () => {
    const two = more(base(), 'Riptide Battlesuit');
    expect(warn(two)).toEqual([]);
    expect(warn(more(two, 'Riptide Battlesuit'))).toEqual(['4 Riptide Battlesuit units: at most 3 of a datasheet']);
    let st = base();
    for (let i = 0; i < 3; i++) st = more(st, 'Strike Team');
    expect(warn(st)).toEqual([]);
    expect(warn(more(st, 'Strike Team'))).toEqual(['7 Strike Team units: at most 6 of a datasheet']);
  });

  it('the Kroot Hunting Pack makes Kroot Carnivores BATTLELINE: six of them, not three', () => {
    let k = unitOf(base(), 'Kroot Carnivores');
    for (let i = 0; i < 3; i++) k = more(k, 'Kroot Carnivores');
    expect(warn(k)).toEqual(['4 Kroot Carnivores units: at most 3 of a datasheet']);
    expect(warn({ ...k, detachment: 'Kroot Hunting Pack' })).toEqual([]);
    k = more(more(more(k, 'Kroot Carnivores'), 'Kroot Carnivores'), 'Kroot Carnivores');
    expect(warn({ ...k, detachment: 'Kroot Hunting Pack' })).toEqual(['7 Kroot Carnivores units: at most 6 of a datasheet']);
  });

  it('the Windrider Host makes Windriders BATTLELINE: six of them, not three', () => {
    const ae = loadFactionCatalog('AE');
    const army = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-battle-host.json'));
    const ds = ae.byName('Windriders')!;
    const wr = (i: number): ArmyUnit => ({ id: `w${i}`, datasheetId: ds.id, name: ds.name, points: ds.sizes[0].points, models: [{ profile: ds.composition[0].profile, count: 3, weapons: ['Twin shuriken catapult', 'Close combat weapon'] }] });
    const four = { ...army, units: [...army.units, wr(1), wr(2), wr(3), wr(4)] };
    const aeWarn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));
    expect(aeWarn(four)).toEqual(['4 Windriders units: at most 3 of a datasheet']);
    expect(aeWarn({ ...four, detachment: 'Windrider Host' })).toEqual([]);
  });

  it('at most three Enhancements, each once, on CHARACTER units that are not EPIC HEROES', () => {
    let a = unitOf(base(), 'Ethereal', { enhancement: 'Exemplar of the Kauyon' });
    a = unitOf(a, 'Commander In Crisis Battlesuit', { enhancement: 'Precision of the Patient Hunter' });
    a = unitOf(a, 'Commander In Coldstar Battlesuit', { enhancement: 'Solid-image Projection Unit' });
    expect(warn(a)).toEqual([]);
    expect(warn(unitOf(a, 'Commander In Enforcer Battlesuit', { enhancement: 'Through Unity, Devastation' }))).toEqual(['4 Enhancements: at most 3']);
    const twice = unitOf(base(), 'Ethereal', { enhancement: 'Exemplar of the Kauyon' });
    expect(warn(unitOf(twice, 'Commander In Crisis Battlesuit', { enhancement: 'Exemplar of the Kauyon' }))).toEqual(['Exemplar of the Kauyon is taken more than once: each Enhancement once']);
    const hero = base();
    hero.units[0].enhancement = 'Exemplar of the Kauyon';
    expect(warn(hero)).toEqual(["Aun'shi (u1) has Exemplar of the Kauyon: an Enhancement goes on a CHARACTER that is not an EPIC HERO"]);
  });

  it('SUPREME COMMANDER: Shadowsun must be the Warlord; with none marked the scenario loader makes her the Warlord', () => {
    const a = unitOf(base(), 'Commander Shadowsun');
    expect(warn(a)).toEqual(['Commander Shadowsun (u19) must be the Warlord (SUPREME COMMANDER)']);
    const hers = structuredClone(a);
    hers.units[0].warlord = undefined;
    hers.units[18].warlord = true;
    expect(warn(hers)).toEqual([]);
    const none = structuredClone(a);
    none.units[0].warlord = undefined;
    expect(warn(none)).toEqual(['no Warlord marked: a game makes Commander Shadowsun (u19), who must be (SUPREME COMMANDER), the Warlord']);
    const dir = mkdtempSync(join(tmpdir(), 'strategium-muster-'));
    try {
      const file = join(dir, 'army.json');
      writeFileSync(file, JSON.stringify(none));
      const sc = scenarioVariant(join(root, 'scenarios', 'default.json'), { armies: [file, undefined] });
      expect(sc.players[0].army.units.filter((u) => u.warlord).map((u) => u.name)).toEqual(['Commander Shadowsun']);
      expect(sc.warnings).toContainEqual(expect.stringMatching(/no Warlord marked: a game makes Commander Shadowsun \(u19\), who must be \(SUPREME COMMANDER\), the Warlord/));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(ruleCoverage('SUPREME COMMANDER').status).toBe('played');
  });

  it('INDEPENDENT POWER: Farsight not with ETHEREAL units', () => {
    // the bundled army has Aun'shi, an ETHEREAL
    expect(warn(unitOf(base(), 'Commander Farsight'))).toEqual(["Commander Farsight (u19) cannot be in an army with ETHEREAL units (INDEPENDENT POWER): Aun'shi (u1)"]);
    const noAunshi = base();
    noAunshi.units = noAunshi.units.slice(1);
    noAunshi.units[0].warlord = true; // Aun'shi was the Warlord
    expect(warn(unitOf(noAunshi, 'Commander Farsight'))).toEqual([]);
  });

  it('SERVANT OF THE WHISPERING GOD: Yvraine not with an EPIC HERO that is not YNNARI; with YNNARI ones she may', () => {
    const ae = loadFactionCatalog('AE');
    const corsairs = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-corsairs.json'));
    const aeWarn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));
    const hero = (name: string, id: string): ArmyUnit => {
      const ds = ae.byName(name)!;
      return { id, datasheetId: ds.id, name: ds.name, points: ds.sizes[0].points, models: [{ profile: ds.composition[0].profile, count: 1, weapons: [] }] };
    };
    const heroes = corsairs.units.filter((u) => ae.byId(u.datasheetId)!.keywords.includes('EPIC HERO')).map((u) => `${u.name} (${u.id})`);
    expect(heroes.length).toBeGreaterThan(0);
    expect(aeWarn({ ...corsairs, units: [...corsairs.units, hero('Yvraine', 'y1')] })).toEqual([`Yvraine (y1) cannot be in an army with EPIC HEROES that are not YNNARI (SERVANT OF THE WHISPERING GOD): ${heroes.join(', ')}`]);
    // the Corsairs' EPIC HEROES out: Yvraine with the Visarch (YNNARI too) is fine
    const noHeroes = { ...corsairs, units: corsairs.units.filter((u) => !ae.byId(u.datasheetId)!.keywords.includes('EPIC HERO')) };
    expect(aeWarn({ ...noHeroes, units: [...noHeroes.units, { ...hero('Yvraine', 'y1'), warlord: true }, hero('The Visarch', 'v1')] })).toEqual([]);
    expect(ruleCoverage('SERVANT OF THE WHISPERING GOD').status).toBe('played');
  });

  it('the army command prints a warning once, from a converted file that already carries it', () => {
    const a = more(base(), "Aun'shi");
    a.warnings = warn(a);
    const dir = mkdtempSync(join(tmpdir(), 'strategium-muster-'));
    try {
      const file = join(dir, 'army.json');
      writeFileSync(file, JSON.stringify(a));
      const r = cli(['army', file]);
      expect(r.code).toBe(0);
      expect(r.stdout.split('EPIC HERO can be included once')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The Kauyon army with its Broadside Battlesuits' two models given these weapons beside their rail rifles. */
function broadside(shasvre: string[], shasui: string[]): ArmyFile {
  const a = base();
  const u = a.units.find((x) => x.name === 'Broadside Battlesuits')!;
  u.models[0].weapons = ['Heavy rail rifle', 'Crushing bulk', ...shasvre];
  u.models[1].weapons = ['Heavy rail rifle', 'Crushing bulk', ...shasui];
  return a;
}

describe('a model\'s choices it may not duplicate (the bundled T\'au wordings)', () => {
  const dup = (a: ArmyFile) => warn(a).filter((w) => /duplicates/.test(w));

  it('"up to two of the following, but cannot take duplicates": two seeker missiles on one Broadside are said; one on each is not', () => {
    expect(tau.byName('Broadside Battlesuits')!.wargearOptions).toContainEqual(expect.objectContaining({ choose: 2, distinctPerModel: true, with: expect.arrayContaining(['Seeker missile']) }));
    expect(dup(broadside(['Seeker missile', 'Seeker missile'], []))).toEqual([
      "Broadside Battlesuits (u14): a Broadside Shas'vre model carries 2 Seeker missile: the datasheet allows each of its choices once a model (cannot take duplicates)",
    ]);
    expect(dup(broadside(['Seeker missile'], ['Seeker missile']))).toEqual([]);
  });

  it('"* This model cannot have duplicates of these pieces of wargear": a Commander in Coldstar Battlesuit with two cyclic ion blasters is said; a cyclic ion blaster and a fusion blaster are not', () => {
    const coldstar = tau.byName('Commander In Coldstar Battlesuit')!;
    expect(coldstar.noDuplicates).toEqual(['Airbursting fragmentation projector', 'Battlesuit Support System', 'Cyclic ion blaster', 'Shield Generator', 'Weapon Support System']);
    const profile = coldstar.composition[0].profile;
    const commander = (weapons: string[]) => unitOf(base(), 'Commander In Coldstar Battlesuit', { models: [{ profile, count: 1, weapons: [...weapons, 'Battlesuit fists'] }] });
    expect(dup(commander(['Cyclic ion blaster', 'Cyclic ion blaster']))).toEqual([
      `Commander In Coldstar Battlesuit (u19): a ${profile} model carries 2 Cyclic ion blaster: the datasheet allows it once a model (cannot have duplicates)`,
    ]);
    expect(dup(commander(['Cyclic ion blaster', 'Fusion blaster']))).toEqual([]);
  });
});

describe('a model\'s and a unit\'s wargear footnotes (the bundled wordings)', () => {
  const ae = loadFactionCatalog('AE');
  const limit = (w: string) => /allows (one of them|\d+ a model|each of its choices (once|twice))/.test(w);

  it('"* No model can be equipped with both a twin plasma rifle and twin smart missile system": both on one Broadside is said; one on each is not', () => {
    expect(tau.byName('Broadside Battlesuits')!.exclusiveOnModel).toEqual([['Twin plasma rifle', 'Twin smart missile system']]);
    expect(warn(broadside(['Twin plasma rifle', 'Twin smart missile system'], [])).filter(limit)).toEqual([
      "Broadside Battlesuits (u14): a Broadside Shas'vre model carries both Twin plasma rifle and Twin smart missile system: the datasheet allows one of them a model",
    ]);
    expect(warn(broadside(['Twin plasma rifle'], ['Twin smart missile system'])).filter(limit)).toEqual([]);
  });

  it('"** Each model cannot be equipped with more than 3 ranged weapons": a Crisis Battlesuit with four is said; with three it is not', () => {
    const ds = tau.byName('Crisis Battlesuits')!;
    expect(ds.maxRangedWeaponsPerModel).toBe(3);
    const profile = ds.composition[0].profile;
    const crisis = (weapons: string[]) => unitOf(base(), 'Crisis Battlesuits', { models: [{ profile, count: 1, weapons: [...weapons, 'Battlesuit fists'] }] });
    const id = `u${base().units.length + 1}`;
    expect(warn(crisis(['Burst cannon', 'Fusion blaster', 'Missile pod', 'Plasma rifle'])).filter(limit)).toEqual([
      `Crisis Battlesuits (${id}): a ${profile} model carries 4 ranged weapons: the datasheet allows 3 a model`,
    ]);
    expect(warn(crisis(['Burst cannon', 'Fusion blaster', 'Missile pod'])).filter(limit)).toEqual([]);
  });

  it('"* You cannot select the same option more than once per unit unless it contains 10 models": Corsair Skyreavers take each special weapon once in 5 models, twice in 10', () => {
    const ds = ae.byName('Corsair Skyreavers')!;
    expect(ds.wargearOptions).toContainEqual(expect.objectContaining({ distinct: true, twiceFromModels: 10, perModels: 5 }));
    const corsairs = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-corsairs.json'));
    const aeWarn = (a: ArmyFile) => musterWarnings(a, (x) => ae.byId(x)).filter(limit);
    const skyreavers = (size: 5 | 10, blasters: number): ArmyFile => {
      const a = structuredClone(corsairs);
      const u = a.units.find((x) => x.name === 'Corsair Skyreavers')!;
      u.points = size === 5 ? 75 : 150;
      u.models = [
        { count: 1, profile: 'Skyreaver Felarch', weapons: ['Shuriken pistol', 'Corsair blade'] },
        { count: size - 1 - blasters, profile: 'Skyreavers', weapons: ['Shuriken pistol', 'Corsair blade'] },
        { count: blasters, profile: 'Skyreavers', weapons: ['Blaster', 'Close combat weapon'] },
      ];
      return a;
    };
    const id = corsairs.units.find((x) => x.name === 'Corsair Skyreavers')!.id;
    expect(aeWarn(skyreavers(5, 2))).toEqual([`Corsair Skyreavers (${id}): 2 Blaster: the datasheet allows each of its choices once (twice from 10 models)`]);
    expect(aeWarn(skyreavers(5, 1))).toEqual([]);
    expect(aeWarn(skyreavers(10, 2))).toEqual([]);
    expect(aeWarn(skyreavers(10, 3))).toEqual([`Corsair Skyreavers (${id}): 3 Blaster: the datasheet allows each of its choices twice in a unit of 10 or more models`]);
  });
});

describe.runIf(HAVE_EXPORT)('an option whose choices may not be duplicated ("duplicates are not allowed")', () => {
  // no bundled datasheet has one: the Chaos Space Marines' Traitor Guardsmen Squad of the shared export
  // (up to 3 Traitor Guardsmen can each swap their lasgun for one of five weapons, no two alike)
  const csm = buildFactions(readWahapediaExport(EXPORT_DIR), { factions: ['CSM'] }).factions[0];
  const ds = csm.datasheets.find((d) => d.name === 'Traitor Guardsmen Squad')!;
  const squad = (specials: string[]): ArmyFile => ({
    name: 'Traitors', faction: 'CSM', detachment: 'Veterans of the Long War', points: 70, battleSize: { name: 'Incursion', pointsLimit: 1000 },
    units: [{
      id: 'u1', datasheetId: ds.id, name: ds.name, points: 70, models: [
        { profile: 'Traitor Sergeant', count: 1, weapons: ds.defaultLoadout['Traitor Sergeant'] },
        { profile: 'Traitor Guardsmen', count: 9 - specials.length, weapons: ['Lasgun', 'Close combat weapon'] },
        ...specials.map((w) => ({ profile: 'Traitor Guardsmen', count: 1, weapons: [w, 'Close combat weapon'] })),
      ],
    }],
  });
  const check = (a: ArmyFile) => musterWarnings(a, (id) => (id === ds.id ? ds : undefined)).filter((w) => /duplicates/.test(w));

  it('the importer reads the option with its restriction', () => {
    expect(ds.wargearOptions).toContainEqual(expect.objectContaining({ replace: ['Lasgun'], count: 3, models: ['Traitor Guardsmen'], distinct: true }));
  });

  it('two Traitor Guardsmen with a flamer each are warned about; a flamer, a meltagun and a plasma gun are not', () => {
    expect(check(squad(['Flamer', 'Flamer']))).toEqual(['Traitor Guardsmen Squad (u1): 2 Flamer: the datasheet allows each of its choices once (duplicates are not allowed)']);
    expect(check(squad(['Flamer', 'Meltagun', 'Plasma gun']))).toEqual([]);
  });
});
