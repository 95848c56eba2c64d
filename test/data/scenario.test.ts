import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.ts';
import { checkArmyAgainstCatalog, loadArmyFile, validateArmy } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { DEFAULT_SCENARIO, SCENARIOS_DIR, bundledScenarios, loadScenario, resolveScenario } from '../../src/data/scenario.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { destroyModel, splitAttachedUnits } from '../../src/rules/damage.ts';
import { allRules } from '../../src/core/rules-registry.ts';
import { UNIT_DEEP_STRIKE_ENHANCEMENTS } from '../../src/data/deep-strike-grants.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const ARMIES = join(SCENARIOS_DIR, 'armies');
const TMP = mkdtempSync(join(tmpdir(), 'strategium-scenario-'));

/** The default scenario as JSON, with army paths made absolute so a copy can live anywhere. */
function baseScenario(): any {
  const s = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'kauyon-vs-battle-host.json'), 'utf8'));
  for (const p of s.players) p.army = join(SCENARIOS_DIR, p.army);
  return s;
}

let n = 0;
function writeScenario(value: unknown, raw?: string): string {
  const file = join(TMP, `case-${++n}.json`);
  writeFileSync(file, raw ?? JSON.stringify(value, null, 2));
  return file;
}

/** Load a modified copy of the default scenario; returns the error message (or fails when it loads). */
function errorOf(edit: (s: any) => void): string {
  const s = baseScenario();
  edit(s);
  const file = writeScenario(s);
  try {
    loadScenario(file);
  } catch (e) {
    expect(e).toBeInstanceOf(DataError);
    const msg = (e as Error).message;
    expect(msg.startsWith(`${file}: `)).toBe(true);
    return msg;
  }
  throw new Error('expected the scenario to be rejected');
}

function army(file: string): any {
  return JSON.parse(readFileSync(join(ARMIES, file), 'utf8'));
}

describe('bundled scenarios', () => {
  const files = bundledScenarios();

  it('are the four seed matchups, the default, and one with formations by the agents', () => {
    expect(files.map((f) => f.slice(SCENARIOS_DIR.length))).toEqual([
      'agent-formations.json', 'default.json', 'kauyon-vs-armoured-warhost.json', 'kauyon-vs-battle-host.json', 'montka-vs-armoured-warhost.json', 'montka-vs-battle-host.json',
    ]);
  });

  it.each(files.map((f) => [f.slice(SCENARIOS_DIR.length), f]))('%s loads without warnings', (_name, file) => {
    const s = loadScenario(file);
    expect(s.warnings).toEqual([]);
    expect(s.mission).toMatchObject({ mode: 'strike-force', rounds: 5, primary: 'take-and-hold', params: { vpPerObjective: 5, maxPerTurn: 15, fromRound: 2, maxTotal: 50 } });
    expect(s.board).toMatchObject({ width: 60, height: 44 });
    expect(s.board.deploymentZones.map((z) => z.player)).toEqual([0, 1]);
    expect(s.objectives).toHaveLength(5);
    expect(s.board.terrain.length).toBeGreaterThanOrEqual(10);
    expect(s.seed).toMatch(/^\d+$/);
    expect(s.players.map((p) => p.role)).toEqual(['attacker', 'defender']);
    expect(s.players.map((p) => p.zone)).toEqual([0, 1]);
    for (const p of s.players) {
      expect(p.agent).toBe('heuristic');
      expect(p.army.units.filter((u) => u.warlord)).toHaveLength(1);
      for (const u of p.army.units) expect(p.datasheets[u.datasheetId]?.id).toBe(u.datasheetId);
      // every Leader is attached in the army copy as in the formations
      for (const [leader, bodyguard] of Object.entries(p.leaders)) expect(p.army.units.find((u) => u.id === leader)?.attachedTo).toBe(bodyguard);
    }
    if (s.players.every((p) => p.formations === 'agent')) {
      // the agents declare Leaders and Reserves in the game (test/rules/formations.test.ts)
      expect(s.players.flatMap((p) => [...Object.keys(p.leaders), ...Object.keys(p.reserves)])).toEqual([]);
      expect(s.players.flatMap((p) => p.army.units.filter((u) => u.attachedTo))).toEqual([]);
      return;
    }
    // Aun'Shi leads a unit; Harlequins ride in a Starweaver
    const tau = s.players[0];
    const aunshi = tau.army.units.find((u) => u.name === "Aun'shi")!;
    expect(['Strike Team', 'Breacher Team']).toContain(tau.army.units.find((u) => u.id === tau.leaders[aunshi.id])?.name);
    const ae = s.players[1];
    const starweavers = ae.army.units.filter((u) => u.name === 'Starweaver').map((u) => u.id);
    const riders = Object.entries(ae.transports).filter(([, t]) => starweavers.includes(t)).map(([u]) => ae.army.units.find((x) => x.id === u)!.name);
    expect(riders).toContain('Troupe');
    // at least one Deep Strike
    expect(s.players.flatMap((p) => Object.values(p.reserves))).toContain('deep-strike');
  });

  it('use both terrain layouts and several deployments', () => {
    const all = files.map((f) => loadScenario(f));
    expect(new Set(all.map((s) => s.terrainLayout)).size).toBe(2);
    expect(new Set(all.map((s) => s.deployment?.id)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(all.flatMap((s) => s.players.map((p) => p.detachment)))).toEqual(new Set(['Kauyon', "Mont'ka", 'Battle Host', 'Armoured Warhost']));
  });

  it('default.json is the same scenario as DEFAULT_SCENARIO', () => {
    expect(DEFAULT_SCENARIO).toBe('scenarios/kauyon-vs-battle-host.json');
    const read = (f: string) => JSON.parse(readFileSync(f, 'utf8'));
    expect(read(join(SCENARIOS_DIR, 'default.json'))).toEqual(read(join(ROOT, DEFAULT_SCENARIO)));
  });

  it('an Attached unit embarks and goes into Reserves under its Bodyguard id', () => {
    const s = loadScenario(join(SCENARIOS_DIR, 'montka-vs-armoured-warhost.json'));
    // Aun'Shi (u1) leads Breacher Team u4, which rides Devilfish u8; two Starscythe units Deep Strike
    expect(s.players[0].transports).toEqual({ u4: 'u8', u5: 'u9' });
    expect(s.players[0].reserves).toEqual({ u10: 'deep-strike', u11: 'deep-strike' });
    // a Falcon with Deep Strike may carry Fire Dragons into Reserves
    expect(s.players[1].transports.u9).toBe('u10');
    expect(s.players[1].reserves.u10).toBe('deep-strike');
    // naming the Leader instead gives the same formation
    const ok = baseScenario();
    ok.players[0].transports = { u2: 'u8' };
    ok.players[0].leaders = { u2: 'u7' }; // Cadre Fireblade leads the Breacher Team
    const r = loadScenario(writeScenario(ok));
    expect(r.players[0].transports).toEqual({ u7: 'u8' });
    expect(r.players[0].leaders).toEqual({ u2: 'u7' });
  });
});

describe('scenario options', () => {
  it('seeds normalise to strings; defaults apply', () => {
    const s = baseScenario();
    s.seed = 42;
    delete s.mode;
    delete s.mission.primary;
    delete s.mission.rounds;
    delete s.mission.params;
    delete s.terrain;
    for (const p of s.players) { delete p.zone; delete p.agent; delete p.name; }
    const r = loadScenario(writeScenario(s));
    expect(r.seed).toBe('42');
    expect(r.mission).toMatchObject({ mode: 'strike-force', primary: 'take-and-hold', rounds: 5, params: {} });
    expect(r.board.terrain).toEqual([]);
    expect(r.players.map((p) => [p.role, p.agent, p.name])).toEqual([['attacker', 'random', "T'au Kauyon Hunters"], ['defender', 'random', 'Aeldari Battle Host']]);
    delete s.seed;
    expect(loadScenario(writeScenario(s)).seed).toBeNull();
  });

  it('zones follow the players: the defender of Hammer and Anvil is the left 18"', () => {
    const s = baseScenario();
    s.players[0].zone = 'defender';
    s.players[1].zone = 'attacker';
    const r = loadScenario(writeScenario(s));
    const xs = (i: number) => r.board.deploymentZones[i].polygon.map((p) => p.x);
    expect(Math.max(...xs(0))).toBe(18);
    expect(Math.min(...xs(1))).toBe(42);
    expect(r.players.map((p) => p.role)).toEqual(['defender', 'attacker']);
    // one player's zone decides the other's
    delete s.players[1].zone;
    expect(loadScenario(writeScenario(s)).players.map((p) => p.role)).toEqual(['defender', 'attacker']);
  });

  it('a detachment override (or null) replaces the army file\'s', () => {
    const s = baseScenario();
    s.players[0].detachment = "mont'ka";
    s.players[1].detachment = null;
    const r = loadScenario(writeScenario(s));
    expect(r.players.map((p) => p.detachment)).toEqual(["Mont'ka", null]);
    delete s.players[0].detachment;
    expect(loadScenario(writeScenario(s)).players[0].detachment).toBe('Kauyon');
  });

  it('an inline army, deployment and terrain', () => {
    const s = baseScenario();
    s.players[1].army = army('aeldari-battle-host.json');
    s.mission.deployment = { zones: [[[0, 0], [12, 0], [12, 44], [0, 44]], [{ x: 48, y: 0 }, { x: 60, y: 0 }, { x: 60, y: 44 }, { x: 48, y: 44 }]], objectives: [[30, 22], { x: 30, y: 10 }] };
    s.terrain = [{ id: 'r1', kind: 'ruin', polygon: [[20, 20], [24, 20], [24, 24], [20, 24]], height: 4 }];
    const r = loadScenario(writeScenario(s));
    expect(r.deployment).toEqual({ id: 'inline', name: 'Custom deployment' });
    expect(r.board.deploymentZones[0].polygon[1]).toEqual({ x: 12, y: 0 });
    expect(r.objectives).toEqual([{ id: '1', pos: { x: 30, y: 22 } }, { id: '2', pos: { x: 30, y: 10 } }]);
    expect(r.board.terrain).toEqual([{ id: 'r1', kind: 'ruin', polygon: [{ x: 20, y: 20 }, { x: 24, y: 20 }, { x: 24, y: 24 }, { x: 20, y: 24 }], height: 4 }]);
    expect(r.terrainLayout).toBe('inline');
  });

  it('no Warlord marked: the first CHARACTER is made Warlord, with a warning', () => {
    const s = baseScenario();
    const a = army('tau-kauyon.json');
    for (const u of a.units) delete u.warlord;
    s.players[0].army = a;
    const r = resolveScenario(s, 'inline.json');
    expect(r.players[0].army.units.filter((u) => u.warlord).map((u) => u.id)).toEqual(['u1']);
    expect(r.warnings).toContainEqual(expect.stringMatching(/no Warlord marked: a game makes Aun'shi \(u1\), the first CHARACTER, the Warlord/));
  });

  it('weapons named as in the data whatever their case: an army file may spell them otherwise', () => {
    const s = baseScenario();
    const a = army('tau-kauyon.json');
    const before = a.units[3].models[1].weapons.slice();
    a.units[3].models[1].weapons = before.map((w: string) => w.toUpperCase());
    s.players[0].army = a;
    const r = resolveScenario(s, 'inline.json');
    expect(r.players[0].army.units[3].models[1].weapons).toEqual(before);
  });

  it('points that do not match the data are warnings', () => {
    const s = baseScenario();
    const a = army('tau-kauyon.json');
    a.units[3].points = 60;
    s.players[0].army = a;
    const r = resolveScenario(s, 'inline.json');
    expect(r.warnings).toContainEqual(expect.stringMatching(/Strike Team \(u4\) is priced 60 points; the data says 70/));
    expect(r.warnings).toContainEqual(expect.stringMatching(/the army file says 1995 points; its units total 1985/));
  });

  it('a Boarding Actions game has a 44" x 30" board and takes Boarding Actions detachments', () => {
    const s = baseScenario();
    s.mode = 'boarding-actions';
    s.mission.deployment = { zones: [[[0, 0], [44, 0], [44, 6], [0, 6]], [[0, 24], [44, 24], [44, 30], [0, 30]]], objectives: [[22, 15]] };
    delete s.terrain;
    s.players[0].detachment = 'Starfire Cadre';
    s.players[0].reserves = {};
    s.players[1].reserves = {};
    const r = loadScenario(writeScenario(s));
    expect(r.board).toMatchObject({ width: 44, height: 30 });
    expect(r.players[0].detachment).toBe('Starfire Cadre');
    expect(r.warnings).toContainEqual(expect.stringMatching(/Battle Host is not a Boarding Actions detachment/));
    expect(r.warnings).toContainEqual(expect.stringMatching(/over the Boarding Actions limit of 500/));
  });
});

describe('scenario errors name the file, the field and what was expected', () => {
  it('malformed JSON', () => {
    const file = writeScenario(null, '{ "name": "x", ');
    expect(() => loadScenario(file)).toThrow(DataError);
    expect(() => loadScenario(file)).toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`));
  });

  it('a missing scenario file', () => {
    expect(() => loadScenario(join(TMP, 'nope.json'))).toThrow(/nope\.json: scenario file not found$/);
  });

  it('a missing file named as a bundled one: the error points to the bundled file', () => {
    // the README's words, typed from the project root without the folder
    expect(() => loadScenario(join(TMP, 'default.json'))).toThrow(/default\.json: scenario file not found; the bundled \S*scenarios\/default\.json has that name$/);
    expect(() => loadArmyFile(join(TMP, 'tau-kauyon.json'))).toThrow(/tau-kauyon\.json: army file not found; the bundled \S*scenarios\/armies\/tau-kauyon\.json has that name$/);
  });

  it('a field of the wrong shape', () => {
    expect(errorOf((s) => { s.players.pop(); })).toMatch(/players: expected exactly two players/);
    expect(errorOf((s) => { s.mission.rounds = 'five'; })).toMatch(/mission\.rounds: .*expected number/);
    expect(errorOf((s) => { s.players[0].reserves.u12 = 'teleport'; })).toMatch(/players\[0\]\.reserves\.u12: .*"deep-strike"\|"strategic"/);
    expect(errorOf((s) => { s.players[1].zone = 'attacker'; })).toMatch(/players\[1\]\.zone: both players have the attacker zone/);
    expect(errorOf((s) => { s.extra = 1; })).toMatch(/\(root\): .*extra/);
  });

  it('a misspelt field: the fields expected there and the likely one (scenario, inline deployment, army file)', () => {
    expect(errorOf((s) => { s.players[0].detachmnet = 'Kauyon'; })).toMatch(/: players\[0\]: unknown field "detachmnet" \(expected one of name, army, detachment, agent, agentParams, zone, leaders, transports, reserves, formations, withoutStratagems; did you mean "detachment"\?\)$/);
    expect(errorOf((s) => { s.terain = 'x'; })).toMatch(/: \(root\): unknown field "terain" \(expected one of name, description, seed, mode, mission, terrain, hatchways, players; did you mean "terrain"\?\)$/);
    expect(errorOf((s) => { s.mission.deployment = { zones: [[[0, 0], [1, 0], [1, 1]], [[2, 0], [3, 0], [3, 1]]], objectives: [], obectives: [] }; }))
      .toMatch(/mission\.deployment: unknown field "obectives" \(expected one of name, zones, objectives; did you mean "objectives"\?\)/);
    const a = army('tau-kauyon.json');
    a.units[1].warlrd = true;
    expect(() => validateArmy(a, 'a.json')).toThrow('a.json: invalid army file: units[1]: unknown field "warlrd" (expected one of id, datasheetId, name, points, models, enhancement, warlord, attachedTo; did you mean "warlord"?)');
  });

  it('an army file naming a datasheet by its name for its id, or a misspelt Enhancement: the id, the closest names', () => {
    const tau = loadFactionCatalog('TAU');
    const byName = army('tau-kauyon.json');
    byName.units[0].datasheetId = 'Cadre Fireblade';
    expect(() => checkArmyAgainstCatalog(byName, tau, 'a.json')).toThrow(`a.json: units[0].datasheetId: expected a datasheet id of T'au Empire (the data's id, as \`army --out\` writes it), found "Cadre Fireblade"; "Cadre Fireblade" is datasheet "${tau.byName('Cadre Fireblade')!.id}"`);
    const enh = army('tau-kauyon.json');
    const u = 0;
    enh.units[u].enhancement = 'Puretide Engram Neurochipp';
    expect(() => checkArmyAgainstCatalog(enh, tau, 'a.json')).toThrow(new RegExp(`^a\\.json: units\\[${u}\\]\\.enhancement: expected an enhancement of T'au Empire, found "Puretide Engram Neurochipp"; closest: Puretide Engram Neurochip`));
  });

  it('a missing army file', () => {
    const msg = errorOf((s) => { s.players[0].army = 'armies/no-such-army.json'; });
    expect(msg).toMatch(/: players\[0\]\.army: .*no-such-army\.json: army file not found/);
  });

  it('an invalid inline army', () => {
    const msg = errorOf((s) => { s.players[1].army = { ...army('aeldari-battle-host.json'), units: [] }; });
    expect(msg).toMatch(/players\[1\]\.army: .*units: expected at least one unit/);
  });

  it('a weapon the datasheet does not have (the army command only warns; the game cannot play it)', () => {
    const msg = errorOf((s) => {
      const a = army('tau-kauyon.json');
      a.units[3].models[1].weapons[1] = 'Missile pod';
      s.players[0].army = a;
    });
    expect(msg).toMatch(/players\[0\]\.army\.units\[3\]\.models\[1\]\.weapons\[1\]: Strike Team \(u4\): "Missile pod" is not a weapon of Strike Team in the data; closest: /);
  });

  it('an unknown unit id in leaders', () => {
    const msg = errorOf((s) => { s.players[0].leaders.u99 = 'u4'; });
    expect(msg).toMatch(/players\[0\]\.leaders\.u99: expected a unit id of T'au Kauyon Hunters, found "u99"; closest: /);
    expect(errorOf((s) => { s.players[0].leaders.u1 = 'u42'; })).toMatch(/players\[0\]\.leaders\.u1: expected a unit id .*found "u42"/);
  });

  it('a Leader that cannot lead that Bodyguard', () => {
    // Aun'Shi (u1) cannot lead the Pathfinder Team (u9)
    const msg = errorOf((s) => { s.players[0].leaders.u1 = 'u9'; });
    expect(msg).toMatch(/players\[0\]\.leaders\.u1: Aun'shi \(u1\) cannot lead Pathfinder Team \(u9\); expected a unit it can lead: Strike Team, Breacher Team, Kroot Carnivores/);
    // a unit without the Leader ability
    expect(errorOf((s) => { s.players[0].leaders.u9 = 'u6'; })).toMatch(/players\[0\]\.leaders\.u9: Pathfinder Team \(u9\) does not have the Leader ability/);
    // two Leaders for one Bodyguard
    expect(errorOf((s) => { s.players[0].leaders.u2 = 'u4'; })).toMatch(/players\[0\]\.leaders\.u2: Strike Team \(u4\) already has a Leader \(u1\)/);
  });

  it('a transport over capacity', () => {
    // 5 Troupe in one Starweaver (6), then 6 more Troupe: 11 models in a 6-model transport
    const msg = errorOf((s) => { s.players[1].transports.u10 = 'u6'; });
    expect(msg).toMatch(/players\[1\]\.transports\.u10: Starweaver \(u6\) has a transport capacity of 6 models; the units embarked within it take 11 \(Troupe \(u9\): 5, Troupe \(u10\): 6\)/);
    // Aun'Shi + 10 Fire Warriors and 10 Breachers in a Devilfish (12)
    expect(errorOf((s) => { s.players[0].transports.u4 = 'u8'; })).toMatch(/Devilfish \(u8\) has a transport capacity of 12 models; the units embarked within it take 21/);
  });

  it('a unit without the transport\'s keywords', () => {
    // Dire Avengers are not HARLEQUINS
    expect(errorOf((s) => { s.players[1].transports.u12 = 'u7'; delete s.players[1].transports.u10; }))
      .toMatch(/players\[1\]\.transports\.u12: Dire Avengers \(u12\) cannot embark within Starweaver \(u7\): it lacks the keyword HARLEQUINS/);
    // JUMP PACK models cannot ride a Wave Serpent (their ASURYANI keyword exempts them from YNNARI only)
    expect(errorOf((s) => { s.players[1].transports.u15 = 'u8'; delete s.players[1].reserves.u15; delete s.players[1].transports.u14; }))
      .toMatch(/players\[1\]\.transports\.u15: Swooping Hawks \(u15\) cannot embark within Wave Serpent \(u8\): the transport cannot carry JUMP PACK models/);
    // Battlesuits cannot ride a Devilfish; a Strike Team is not a transport
    expect(errorOf((s) => { s.players[0].transports.u12 = 'u8'; delete s.players[0].reserves.u12; delete s.players[0].transports.u7; }))
      .toMatch(/Crisis Starscythe Battlesuits \(u12\) cannot embark within Devilfish \(u8\): it lacks the keyword INFANTRY/);
    expect(errorOf((s) => { s.players[0].transports.u9 = 'u6'; })).toMatch(/players\[0\]\.transports\.u9: Strike Team \(u6\) is not a TRANSPORT/);
  });

  it('a unit both embarked and in Reserves', () => {
    expect(errorOf((s) => { s.players[1].reserves.u10 = 'strategic'; }))
      .toMatch(/players\[1\]\.reserves\.u10: Troupe \(u10\) starts embarked within Starweaver \(u7\); a unit starts either embarked or in Reserves/);
  });

  it('Deep Strike for a unit without Deep Strike', () => {
    expect(errorOf((s) => { s.players[0].reserves.u6 = 'deep-strike'; }))
      .toMatch(/players\[0\]\.reserves\.u6: Strike Team \(u6\) does not have the Deep Strike ability; expected "strategic"/);
    // an Attached unit: Aun'Shi's Strike Team cannot Deep Strike either way
    expect(errorOf((s) => { s.players[0].reserves.u1 = 'deep-strike'; })).toMatch(/players\[0\]\.reserves\.u1: Aun'shi \(u1\) and Strike Team \(u4\) do not have the Deep Strike ability/);
  });

  it('Windrider Host: Ride the Wind\'s riders wait outside the Strategic Reserves quarter (560 points of Windriders load), within the half in Reserves; without the detachment the quarter holds them', () => {
    const windriders = (detachment: string | null) => {
      const sc = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'mirror/windrider-host-vs-none.json'), 'utf8'));
      for (const p of sc.players) p.army = join(SCENARIOS_DIR, 'mirror', p.army);
      Object.assign(sc.players[0], { formations: 'scenario', detachment, reserves: { u4: 'strategic', u5: 'strategic', u6: 'strategic', u7: 'strategic' } });
      return writeScenario(sc);
    };
    expect(loadScenario(windriders('Windrider Host')).players[0].reserves).toEqual({ u4: 'strategic', u5: 'strategic', u6: 'strategic', u7: 'strategic' });
    expect(() => loadScenario(windriders(null))).toThrow(/players\[0\]\.reserves: the units in Strategic Reserves \(with the units embarked within them\) total 560 points; expected at most 25%/);
  });

  it('Strategic Reserves over 25% of the points limit', () => {
    const msg = errorOf((s) => { Object.assign(s.players[0].reserves, { u13: 'strategic', u15: 'strategic', u16: 'strategic' }); });
    expect(msg).toMatch(/players\[0\]\.reserves: the units in Strategic Reserves \(with the units embarked within them\) total 645 points; expected at most 25% of the 2000-point limit \(500\)/);
  });

  it('a misspelt detachment', () => {
    expect(errorOf((s) => { s.players[0].detachment = 'Kauyonn'; }))
      .toMatch(/players\[0\]\.detachment: expected a T'au Empire detachment, found "Kauyonn"; closest: Kauyon/);
    expect(errorOf((s) => { s.players[1].detachment = 'Battle Hots'; })).toMatch(/players\[1\]\.detachment: expected an Aeldari detachment, found "Battle Hots"; closest: Battle Host/);
    expect(errorOf((s) => { s.players[0].detachment = 'Starfire Cadre'; })).toMatch(/players\[0\]\.detachment: Starfire Cadre is a Boarding Actions detachment/);
  });

  it('an unknown primary mission is refused as the scenario is read, not when a game sets up', () => {
    expect(errorOf((s) => { s.mission.primary = 'take-and-hlod'; })).toMatch(/mission\.primary: expected a primary mission \(take-and-hold, none\), found "take-and-hlod"/);
  });

  it("the primary mission's parameters: the ones it reads, of the kind it reads", () => {
    // a string would have scored no VP at all, silently (5 x "five" is not a number)
    expect(errorOf((s) => { s.mission.params = { vpPerObjective: 'five' }; })).toMatch(/mission\.params\.vpPerObjective: .*expected number.* \(take-and-hold\)/);
    expect(errorOf((s) => { s.mission.params = { maxPerTurn: -5 }; })).toMatch(/mission\.params\.maxPerTurn: expected a whole number of VP, 0 or more \(take-and-hold\)/);
    expect(errorOf((s) => { s.mission.params = { fromRound: 11 }; })).toMatch(/mission\.params\.fromRound: expected a battle round \(1-10\)/);
    expect(errorOf((s) => { s.mission.params = { vpPerObjectve: 5 }; })).toMatch(/mission\.params: .*vpPerObjectve.* \(take-and-hold\)/);
    expect(errorOf((s) => { s.mission.primary = 'none'; s.mission.params = { vpPerObjective: 5 }; })).toMatch(/mission\.params: .*vpPerObjective.* \(none\)/);
  });

  it('two deployment zones that share ground (the same strip, or overlapping by 16"); zones that touch load', () => {
    const zones = (a: number[][], b: number[][]) => (s: any) => { s.mission.deployment = { zones: [a, b], objectives: [[30, 22]] }; };
    const strip = [[0, 0], [60, 0], [60, 12], [0, 12]];
    const expected = /mission\.deployment\.zones: expected two deployment zones apart; the attacker's and the defender's overlap/;
    expect(errorOf(zones(strip, strip))).toMatch(expected);
    expect(errorOf(zones([[0, 0], [30, 0], [30, 44], [0, 44]], [[14, 0], [60, 0], [60, 44], [14, 44]]))).toMatch(expected);
    // sharing a side is not sharing ground
    const s = baseScenario();
    zones([[0, 0], [12, 0], [12, 44], [0, 44]], [[12, 0], [24, 0], [24, 44], [12, 44]])(s);
    expect(loadScenario(writeScenario(s)).board.deploymentZones.length).toBe(2);
  });

  it('an objective marker inside impassable terrain; one beside it loads', () => {
    const block = (x: number) => (s: any) => { s.terrain = [{ id: 'rock', kind: 'impassable', polygon: [[x, 18], [x + 8, 18], [x + 8, 26], [x, 26]], height: 5 }]; };
    const s = baseScenario();
    const marker = loadScenario(writeScenario(s)).objectives[0].pos;
    expect(errorOf((t) => block(marker.x - 4)(t))).toMatch(/mission\.deployment\.objectives\[0\]: the objective marker at \([\d.]+, [\d.]+\) is inside impassable terrain "rock"; expected a marker models can reach/);
    const beside = baseScenario();
    block(marker.x + 3)(beside);
    expect(loadScenario(writeScenario(beside)).objectives.map((o) => o.pos)).toEqual(loadScenario(writeScenario(baseScenario())).objectives.map((o) => o.pos));
  });

  it('an unknown deployment or terrain layout, and shapes off the board', () => {
    expect(errorOf((s) => { s.mission.deployment = 'hammer-and-anvill'; })).toMatch(/mission\.deployment: expected a bundled deployment .*closest: hammer-and-anvil/);
    expect(errorOf((s) => { s.terrain = 'tournament-c'; })).toMatch(/terrain: expected a bundled terrain layout \(tournament-a, tournament-b\).*found "tournament-c"/);
    expect(errorOf((s) => { s.terrain = [{ id: 'r', kind: 'ruin', polygon: [[58, 40], [62, 40], [62, 43]], height: 3 }]; }))
      .toMatch(/terrain\[0\]\.polygon\[1\]: expected a point on the 60" x 44" board, found \(62, 40\)/);
    expect(errorOf((s) => { s.terrain = [{ id: 'r', kind: 'crater', polygon: [[1, 1], [2, 1], [2, 2]], height: 3 }]; })).toMatch(/terrain\[0\]\.kind: /);
  });
});

describe('a scenario whose armies cannot be set up is bad input, named as such', () => {
  async function setUpError(edit: (s: any) => void): Promise<unknown> {
    const s = baseScenario();
    edit(s);
    const file = writeScenario(s);
    const sc = loadScenario(file);
    const f = await loadAgentFactory('random');
    try {
      createGame(sc, { seed: 'x', agents: [makeAgent(f, 'x', 0), makeAgent(f, 'x', 1)] });
    } catch (e) {
      return e;
    }
    throw new Error('expected the set-up to fail');
  }

  it('a deployment zone too small for any base', async () => {
    const e = await setUpError((s) => { s.mission.deployment = { zones: [[[0, 0], [1, 0], [1, 1], [0, 1]], [[48, 0], [60, 0], [60, 44], [48, 44]]], objectives: [[30, 22]] }; });
    expect(e).toBeInstanceOf(DataError);
    expect((e as Error).message).toMatch(/: mission\.deployment: player 1's deployment zone has no room to set up any unit$/);
  });

  /** The two 16" strips at the short edges (player 1's the strip x 44-60), the markers in the middle, clear of the terrain the tests put in a zone. */
  const strips = (s: any) => { s.mission.deployment = { zones: [[[44, 0], [60, 0], [60, 44], [44, 44]], [[0, 0], [16, 0], [16, 44], [0, 44]]], objectives: [[30, 22], [30, 8], [30, 36]] }; };

  it('a zone the terrain fills: a unit that does not fit even alone', async () => {
    const e = await setUpError((s) => { strips(s); s.terrain = [{ id: 'x', kind: 'impassable', height: 5, polygon: [[44, 0], [60, 0], [60, 44], [44, 44]] }]; });
    expect(e).toBeInstanceOf(DataError);
    expect((e as Error).message).toMatch(
      /: mission\.deployment, terrain, players\[0\]\.army: cannot deploy .*: its \d+ models cannot be set up wholly within its deployment zone \(zones\[0\]\) in Unit Coherency even with no other model on the table \(expected a zone, less its terrain, with room for each unit\)$/,
    );
  });

  it('a zone with room for each unit but not for the whole army', async () => {
    const e = await setUpError((s) => { strips(s); s.terrain = [{ id: 'x', kind: 'impassable', height: 5, polygon: [[44, 0], [60, 0], [60, 38], [44, 38]] }]; });
    expect(e).toBeInstanceOf(DataError);
    expect((e as Error).message).toMatch(/: players\[0\]\.army, mission\.deployment, terrain: cannot deploy .* no room left in its deployment zone \(zones\[0\]\) after \d+ units of its army were set up; it would fit alone \(expected a zone, less its terrain, with room for the whole army, and set-up points that leave room for the rest\)$/);
  });
});

describe('BODYGUARD: two Leaders for 20 Kroot Carnivores', () => {
  /** The Kauyon army with Kroot Carnivores (u19, `n` models), a Trail Shaper (u20) and two War Shapers (u21, u22). */
  function kroot(n: number, leaders: Record<string, string>): any {
    const s = baseScenario();
    const a = army('tau-kauyon.json');
    a.units.push(
      { id: 'u19', datasheetId: '000000413', name: 'Kroot Carnivores', points: n === 20 ? 140 : 65, models: [{ profile: 'Long-quill', count: 1, weapons: ['Kroot pistol', 'Kroot rifle', 'Close combat weapon'] }, { profile: 'Kroot Carnivores', count: n - 1, weapons: ['Kroot rifle', 'Close combat weapon'] }] },
      { id: 'u20', datasheetId: '000003702', name: 'Kroot Trail Shaper', points: 50, models: [{ profile: 'Kroot Trail Shaper', count: 1, weapons: ['Kroot rifle', "Shaper's blade"] }] },
      { id: 'u21', datasheetId: '000003703', name: 'Kroot War Shaper', points: 50, models: [{ profile: 'Kroot War Shaper', count: 1, weapons: ['Dart-bow and tri-blade', 'Kroot pistol', "Shaper's blade"] }] },
      { id: 'u22', datasheetId: '000003703', name: 'Kroot War Shaper', points: 50, models: [{ profile: 'Kroot War Shaper', count: 1, weapons: ['Dart-bow and tri-blade', 'Kroot pistol', "Shaper's blade"] }] },
    );
    s.players[0].army = a;
    Object.assign(s.players[0].leaders, leaders);
    return s;
  }
  const load = (s: any) => loadScenario(writeScenario(s));
  const rejected = (s: any) => { try { load(s); } catch (e) { return (e as Error).message; } throw new Error('expected the scenario to be rejected'); };

  it('takes a Trail Shaper and a War Shaper; both play in the Attached unit, which splits into three when the Carnivores fall', async () => {
    const sc = load(kroot(20, { u20: 'u19', u21: 'u19' }));
    expect(sc.players[0].leaders).toMatchObject({ u20: 'u19', u21: 'u19' });
    const f = await loadAgentFactory('random');
    const g = createGame(sc, { seed: 'bodyguard', agents: [makeAgent(f, 'bodyguard', 0), makeAgent(f, 'bodyguard', 1)], log: true });
    const u = g.state.units['p1-u19'];
    expect(u.components.map((c) => c.unit)).toEqual(['p1-u19', 'p1-u20', 'p1-u21']);
    expect(u.startingStrength).toBe(22);
    // the Carnivores destroyed: each Leader is a unit again, with its own Starting Strength
    for (const m of u.models.filter((x) => x.origin === 'p1-u19')) destroyModel(g, g.state.units['p1-u19'], m, null, 'test');
    splitAttachedUnits(g);
    for (const id of ['p1-u20', 'p1-u21']) {
      const leader = g.state.units[id];
      expect([leader.attachedTo, leader.startingStrength, leader.models.filter((m) => m.alive).length]).toEqual([null, 1, 1]);
      expect(leader.location).not.toBe('destroyed');
    }
  });

  it('not two Leaders of one datasheet, nor two for 10 Carnivores', () => {
    expect(rejected(kroot(20, { u21: 'u19', u22: 'u19' }))).toMatch(/players\[0\]\.leaders\.u22: Kroot Carnivores \(u19\) already has a Leader \(u21\); a Bodyguard unit takes one Leader \(two of different datasheets for a BODYGUARD unit of 20 models, or where a Leader's text lets it join beside the other\)/);
    expect(rejected(kroot(10, { u20: 'u19', u21: 'u19' }))).toMatch(/players\[0\]\.leaders\.u21: Kroot Carnivores \(u19\) already has a Leader \(u20\)/);
  });
});

describe('an Enhancement comes from the detachment played (core rules, Muster Your Army)', () => {
  it('one of another detachment, or any when none is played, is not played: off its unit with its points, and said', () => {
    const cost = 20; // the data's cost of Exemplar of the Kauyon
    const withExemplar = (detachment: string | null | undefined) => {
      const s = baseScenario();
      const a = army('tau-kauyon.json');
      const fireblade = a.units.find((u: any) => u.name === 'Cadre Fireblade');
      fireblade.enhancement = 'Exemplar of the Kauyon';
      fireblade.points += cost;
      a.points += cost;
      s.players[0].army = a;
      if (detachment !== undefined) s.players[0].detachment = detachment;
      const sc = loadScenario(writeScenario(s));
      const u = sc.players[0].army.units.find((x) => x.name === 'Cadre Fireblade')!;
      return { enhancement: u.enhancement ?? null, points: u.points, army: sc.players[0].army.points, warnings: (sc.warnings ?? []).filter((w) => /Exemplar/.test(w)), sc };
    };
    const kauyon = withExemplar(undefined);
    expect([kauyon.enhancement, kauyon.points, kauyon.army, kauyon.warnings]).toEqual(['Exemplar of the Kauyon', 50 + cost, 1995 + cost, []]);
    for (const other of [null, "Mont'ka"]) {
      const r = withExemplar(other);
      expect([r.enhancement, r.points, r.army]).toEqual([null, 50, 1995]);
      expect(r.warnings).toEqual([`player 1 (${r.sc.players[0].army.name}): Cadre Fireblade (u2) has Exemplar of the Kauyon, an enhancement of Kauyon, while playing ${other ?? 'no detachment'}: not played (its ${cost} points are taken off)`]);
    }
  });
});

describe('Deep Strike Reserves given by an Enhancement of the unit (Webway Pathstone)', () => {
  it('the loader\'s table names exactly the Enhancement rules that give their unit Deep Strike in play', () => {
    const granting = allRules().filter((r) => r.kind === 'enhancement' && (r.grantsAbilities ?? []).includes('Deep Strike')).map((r) => r.name);
    expect([...UNIT_DEEP_STRIKE_ENHANCEMENTS].sort()).toEqual(granting.sort());
  });

  it('a Corsair Voidreavers unit carrying Webway Pathstone may wait in Deep Strike Reserves; without it, it may not', () => {
    const corsairs = (enhancement: string | null) => {
      const s = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'mirror', 'corsair-coterie-vs-none.json'), 'utf8'));
      for (const p of s.players) if (typeof p.army === 'string') p.army = join(SCENARIOS_DIR, 'mirror', p.army);
      const a = army('aeldari-corsairs.json');
      const u3 = a.units.find((u: any) => u.id === 'u3');
      expect(u3.name).toBe('Corsair Voidreavers');
      if (enhancement) u3.enhancement = enhancement;
      s.players[0].army = a;
      s.players[0].formations = 'scenario';
      s.players[0].reserves = { u3: 'deep-strike' };
      return writeScenario(s);
    };
    expect(loadScenario(corsairs('Webway Pathstone')).players[0].reserves).toEqual({ u3: 'deep-strike' });
    expect(() => loadScenario(corsairs(null))).toThrow(/players\[0\]\.reserves\.u3: Corsair Voidreavers \(u3\) does not have the Deep Strike ability/);
  });
});
