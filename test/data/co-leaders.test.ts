// Second Leaders by a Leader's own text (the Warlock beside an Autarch or Farseer, the Visarch beside Yvraine,
// Eldrad Ulthran beside a Warlock): the data's leader text allows the pair, and the engine refused every second
// Leader but the Kroot Carnivores' (BODYGUARD), so Yvraine's Champion could never be played.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJoinsBeside } from '../../src/data/co-leaders.ts';
import { mayJoinAsLeader } from '../../src/data/bodyguard.ts';
import { checkArmyAgainstCatalog, loadArmyFile, type ArmyFile } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { parsePipeCsv } from '../../src/data/csv.ts';
import { resolveScenario, SCENARIOS_DIR } from '../../src/data/scenario.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { feelNoPainOf } from '../../src/rules/damage.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import { EXPORT_DIR } from './paths.ts';

const ae = loadFactionCatalog('AE');
const ds = (name: string) => ae.byName(name)!;

describe('parseJoinsBeside: the Leaders a leader text names as already attached', () => {
  const file = join(EXPORT_DIR, 'Datasheets.csv');
  const rows = parsePipeCsv(readFileSync(file, 'utf8'), file).records.filter((r) => /even if/.test(r.fields.leader_footer));
  const named = (name: string, faction: string) => parseJoinsBeside(rows.find((r) => r.fields.name === name && r.fields.faction_id === faction)!.fields.leader_footer.replace(/<[^>]*>/g, ''));

  it('reads every such text of the export, of every faction', () => {
    expect(rows.length).toBe(51);
    const unread = rows.filter((r) => parseJoinsBeside(r.fields.leader_footer.replace(/<[^>]*>/g, '')) === null).map((r) => r.fields.name);
    expect(unread).toEqual([]);
  });

  it('names each Leader the text lists, as written', () => {
    expect(named('Warlock', 'AE')).toEqual(['Autarch', 'Farseer']);
    expect(named('The Visarch', 'AE')).toEqual(['Yvraine']);
    expect(named('Eldrad Ulthran', 'AE')).toEqual(['Warlocks']);
    expect(named('Death Rider Commissar', 'AM')).toEqual(['Death Rider Squadron Commander', 'Lord Marshal Dreir', 'Lord Solar Leontus']);
    expect(named('Chronomancer', 'NEC')).toEqual(['Royal Warden', 'Noble']);
    expect(named('Cyberwolf', 'SM')).toEqual(['Canis Wolfborn']);
    expect(named('Exalted Champion', 'CSM')).toEqual(['CHARACTER']);
    expect(parseJoinsBeside('This model can lead the units above.')).toBeNull();
  });

  it('the bundled Aeldari datasheets carry what their texts name', () => {
    expect(ds('Warlock').joinsBeside).toEqual(['Autarch', 'Farseer']);
    expect(ds('The Visarch').joinsBeside).toEqual(['Yvraine']);
    expect(ds('Eldrad Ulthran').joinsBeside).toEqual(['Warlocks']);
    expect(ds('Farseer').joinsBeside).toBeUndefined();
  });
});

describe('mayJoinAsLeader with the leader texts', () => {
  const gd = ds('Guardian Defenders');
  const join2 = (first: string, second: string) => mayJoinAsLeader(gd, 11, [ds(first)], ds(second));

  it('a Warlock joins a unit led by a Farseer or an Autarch, and either of them one led by a Warlock', () => {
    expect(join2('Farseer', 'Warlock')).toBe(true);
    expect(join2('Autarch', 'Warlock')).toBe(true);
    expect(join2('Warlock', 'Farseer')).toBe(true);
    expect(join2('Warlock', 'Autarch')).toBe(true);
  });

  it('no pair the texts do not name, no two of one datasheet, no third Leader', () => {
    expect(join2('Farseer', 'Autarch')).toBe(false);
    expect(join2('Farseer', 'Farseer')).toBe(false);
    expect(join2('Warlock', 'Warlock')).toBe(false);
    expect(mayJoinAsLeader(gd, 11, [ds('Farseer'), ds('Warlock')], ds('Autarch'))).toBe(false);
  });

  it('Eldrad Ulthran beside a Warlock; the Visarch beside Yvraine, not beside another Leader', () => {
    expect(join2('Warlock', 'Eldrad Ulthran')).toBe(true);
    const wyches = ds('Ynnari Wyches');
    expect(mayJoinAsLeader(wyches, 10, [ds('Yvraine')], ds('The Visarch'))).toBe(true);
    expect(mayJoinAsLeader(wyches, 10, [ds('The Visarch')], ds('Yvraine'))).toBe(true);
    expect(mayJoinAsLeader(wyches, 10, [ds('Ynnari Succubus')], ds('The Visarch'))).toBe(false);
  });
});

describe('an army and a game with Yvraine and the Visarch leading one unit', () => {
  const army = (): ArmyFile => {
    const a = loadArmyFile(join(SCENARIOS_DIR, 'armies', 'aeldari-ynnari.json'));
    const id = (name: string) => a.units.find((u) => u.name === name)!.id;
    const wyches = id('Ynnari Wyches');
    for (const u of a.units) delete u.attachedTo;
    a.units.find((u) => u.name === 'Yvraine')!.attachedTo = wyches;
    a.units.find((u) => u.name === 'The Visarch')!.attachedTo = wyches;
    return a;
  };

  it('the army command takes the pair without a warning', () => {
    expect(checkArmyAgainstCatalog(army(), ae, 'ynnari.json').filter((w) => /already has a Leader/.test(w))).toEqual([]);
  });

  it('the scenario loader attaches both, and Yvraine has the Feel No Pain 4+ of Yvraine\'s Champion', async () => {
    const s = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'mirror', 'devoted-of-ynnead-vs-none.json'), 'utf8'));
    s.players[0].army = army();
    delete s.players[0].formations;
    s.players[1].army = join(SCENARIOS_DIR, 'armies', 'aeldari-ynnari.json');
    const r = resolveScenario(s, 'inline.json');
    const id = (name: string) => r.players[0].army.units.find((u) => u.name === name)!.id;
    expect(r.players[0].leaders).toMatchObject({ [id('Yvraine')]: id('Ynnari Wyches'), [id('The Visarch')]: id('Ynnari Wyches') });
    const f = await loadAgentFactory('random');
    const g = createGame(r, { seed: 'co-leaders', agents: [makeAgent(f, 'co-leaders', 0), makeAgent(f, 'co-leaders', 1)] });
    const unit = g.state.units[`p1-${id('Ynnari Wyches')}`];
    expect(unit.components.map((c) => g.state.datasheets[c.datasheet].name).sort()).toEqual(['The Visarch', 'Ynnari Wyches', 'Yvraine']);
    const yvraine = unit.models.find((m) => g.state.datasheets[m.datasheet].name === 'Yvraine')!;
    const wych = unit.models.find((m) => g.state.datasheets[m.datasheet].name === 'Ynnari Wyches')!;
    expect(feelNoPainOf(g.state, unit, yvraine, null)).toBe(4);
    expect(feelNoPainOf(g.state, unit, wych, null)).toBeNull();
  });
});
