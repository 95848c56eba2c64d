/**
 * The coverage report (src/factions/coverage.ts): what the engine plays of the bundled data, and the
 * abilities of a game's units it does not play.
 */
import { describe, expect, it } from 'vitest';
import '../../src/rules/index.ts';
import '../../src/factions/index.ts';
import { battleSandbox } from '../helpers/battle.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import type { Datasheet } from '../../src/data/datasheet.ts';
import { bundledScenarios, loadScenario } from '../../src/data/scenario.ts';
import { sandboxDatasheet } from '../../src/rules/sandbox.ts';
import {
  combine, datasheetCoverage, factionCoverage, formatCoverageMarkdown, formatCoverageText, ruleCoverage, unplayedAbilities,
} from '../../src/factions/coverage.ts';

const tau = loadFactionCatalog('tau');
const aeldari = loadFactionCatalog('aeldari');

function sheet(name: string, abilities: string[], core: string[] = []): Datasheet {
  return sandboxDatasheet('x', { name, models: 1, abilities, coreAbilities: core.map((n) => ({ name: n })) });
}

describe('coverage of a datasheet', () => {
  it("a played unit shows as played: Aun'Shi (Leader, Inspirational Defiance, Martial Warrior)", () => {
    const c = datasheetCoverage(tau.byName("Aun'shi")!, true);
    expect(c.status).toBe('played');
    expect(c.abilities.map((a) => [a.name, a.status])).toEqual([['Leader', 'played'], ['Inspirational Defiance', 'played'], ['Martial Warrior', 'played']]);
    expect(c.inArmies).toBe(true);
  });

  it('an unregistered ability shows as not played; with played ones the unit is partly played', () => {
    expect(ruleCoverage('Made-up Ability')).toEqual({ name: 'Made-up Ability', status: 'not played', missing: 'no rule entry' });
    expect(datasheetCoverage(sheet('Nobody', ['Made-up Ability'])).status).toBe('not played');
    const partly = datasheetCoverage(sheet('Somebody', ['Made-up Ability'], ['Stealth']));
    expect(partly.status).toBe('partly');
    expect(partly.abilities.map((a) => a.status)).toEqual(['played', 'not played']);
  });

  it("an entry's `missing` makes it partly played, with what is missing", () => {
    const c = datasheetCoverage(loadFactionCatalog('tau').byName("Aun'va")!);
    expect(c.status).toBe('partly');
    expect(c.abilities.find((a) => a.name === 'Supreme Loyalty (Aura)')).toMatchObject({ status: 'partly', missing: expect.any(String) });
    expect(c.abilities.find((a) => a.name === 'Duality Shield')?.status).toBe('played');
    expect(datasheetCoverage(aeldari.byName('Guardian Defenders')!).status).toBe('played');
  });

  it("a keyword's core rules count as an ability of its datasheets: AIRCRAFT is played in part, so the Crimson Hunter is", () => {
    const c = datasheetCoverage(aeldari.byName('Crimson Hunter')!);
    expect(c.status).toBe('partly');
    expect(c.abilities.find((a) => a.name === 'AIRCRAFT')).toMatchObject({ status: 'partly', missing: expect.stringMatching(/20"/) });
    expect(datasheetCoverage(aeldari.byName('Falcon')!).abilities.some((a) => a.name === 'AIRCRAFT' || a.name === 'FLY')).toBe(false);
  });

  it('weapon abilities count: one the engine does not know is not played; the Great Knarloc\'s HOOKED and the Fire Prism\'s LINKED FIRE are', () => {
    const knarloc = loadFactionCatalog('tau').byName('Great Knarloc')!;
    const c = datasheetCoverage(knarloc);
    expect([...c.weaponAbilities, ...c.options].find((a) => a.name === 'HOOKED')?.status).toBe('played');
    const odd = structuredClone(knarloc);
    odd.weapons[0].profiles[0].abilities = [{ name: 'UNHEARD OF' }];
    const o = datasheetCoverage(odd);
    expect([...o.weaponAbilities, ...o.options].find((a) => a.name === 'UNHEARD OF')?.status).toBe('not played');
    const prism = datasheetCoverage(aeldari.byName('Fire Prism')!);
    expect(prism.weaponAbilities.find((a) => a.name === 'LINKED FIRE')?.status).toBe('played');
    expect(prism.weaponAbilities.find((a) => a.name === 'BLAST')?.status).toBe('played');
  });

  it('combine: played, partly, not played', () => {
    expect(combine([{ name: 'a', status: 'played' }])).toBe('played');
    expect(combine([{ name: 'a', status: 'played' }, { name: 'b', status: 'not played' }])).toBe('partly');
    expect(combine([{ name: 'a', status: 'not played' }])).toBe('not played');
  });
});

describe('coverage of a faction', () => {
  it('every T\'au datasheet of the bundled armies is played in full', () => {
    const ids = new Set(['000000408', '000000405', '000000411', '000000412', '000000424', '000000422', '000000417', '000003699', '000003701', '000000432', '000000433', '000000421', '000000423']);
    const f = factionCoverage(tau.data, ids);
    const used = f.datasheets.filter((d) => d.inArmies);
    expect(used).toHaveLength(13);
    expect(used.filter((d) => d.status !== 'played').map((d) => d.name)).toEqual([]);
  });

  it('detachments: registered ones with their stratagems; Battle Host listed although the data lacks it', () => {
    const f = factionCoverage(aeldari.data);
    const bh = f.detachments.find((d) => d.name === 'Battle Host')!;
    expect(bh).toMatchObject({ inData: false, registered: true, status: 'played' });
    expect(bh.stratagems.map((s) => s.name).sort()).toEqual(['BLADESTORM', 'FEIGNED RETREAT', 'FIRE AND FADE', 'LIGHTNING-FAST REACTIONS', 'MATCHLESS AGILITY']);
    const aw = f.detachments.find((d) => d.name === 'Armoured Warhost')!;
    expect(aw.registered).toBe(true);
    expect(aw.stratagems.filter((s) => s.status !== 'played')).toEqual([]);
    // every detachment of the bundled factions' data has a registry entry now (Corsair Coterie, then the T'au
    // Kroot Raiding Party, were the last examples of one without)
    const unregistered = [...f.detachments, ...factionCoverage(tau.data).detachments].filter((d) => !d.registered);
    expect(unregistered.map((d) => d.name)).toEqual([]);
    expect(factionCoverage(tau.data).detachments.find((d) => d.name === 'Kroot Raiding Party')).toMatchObject({ registered: true, status: 'partly' });
    expect(f.detachments.find((d) => d.name === 'Corsair Coterie')).toMatchObject({ registered: true, status: 'partly' });
    const k = factionCoverage(tau.data).detachments.find((d) => d.name === 'Kauyon')!;
    expect(k.rules).toEqual([{ name: 'Patient Hunter', status: 'played' }]);
    expect(k.stratagems.find((s) => s.name === 'A TEMPTING TRAP')?.status).toBe('played');
  });

  it("the export's Army Rules stratagems, Battle Focus's Agile Manoeuvres, count as played through the army rule's entries", () => {
    const f = factionCoverage(aeldari.data);
    expect(f.armyRuleStratagems.map((s) => `${s.name}: ${s.status}`)).toEqual(
      ['SWIFT AS THE WIND', 'FLITTING SHADOWS', 'STAR ENGINES', 'SUDDEN STRIKE', 'OPPORTUNITY SEIZED', 'FADE BACK'].map((n) => `${n}: played`),
    );
    expect(formatCoverageMarkdown([f])).toMatch(/"Army Rules"\): 6 played, 0 partly, 0 not played: SWIFT AS THE WIND \(played\), /);
  });

  it('formats as text and Markdown', () => {
    const report = [factionCoverage(tau.data, new Set(['000000408']))];
    expect(formatCoverageText(report, { armiesOnly: true })).toMatch(/\* Aun'shi\s+played/);
    const md = formatCoverageMarkdown(report);
    expect(md).toMatch(/\| Aun'shi \| ✓ \| played \|/);
    expect(md).toMatch(/## Core stratagems/);
  });
});

/** A detachment name of no faction's data (an army list's own), now that every detachment of the bundled factions is registered. */
const UNKNOWN = 'Hypothetical Raiding Cadre';

describe('unplayedAbilities', () => {
  it('of a game: the abilities of its units the engine does not play fully, once per unit name', () => {
    const g = battleSandbox([
      { id: 'A', player: 0, faction: 'tau', name: "Aun'shi", at: { x: 10, y: 10 } },
      { id: 'P1', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 40, y: 10 } },
      { id: 'P2', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 40, y: 30 } },
    ]);
    // LINKED FIRE (and Battle Focus) played: nothing listed
    expect(unplayedAbilities(g.state)).toEqual([]);
  });

  it('of a game: a detachment of the data the engine has no rules for (all of it), or whose stratagems it does not all play, first', () => {
    const game = (d: string) => battleSandbox([
      { id: 'A', player: 0, faction: 'tau', name: "Aun'shi", at: { x: 10, y: 10 } },
      { id: 'D', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 10 } },
    ], { detachments: [d, 'Battle Host'] });
    // every detachment of the data is registered: an army list's own name (not in the data) stands for one
    expect(unplayedAbilities(game(UNKNOWN).state)[0]).toEqual({ unit: 'detachment', ability: UNKNOWN, missing: expect.stringMatching(/plays as with no detachment/) });
    expect(unplayedAbilities(game('Starfire Cadre').state)[0]).toEqual({
      unit: 'detachment', ability: 'Starfire Cadre', missing: 'its stratagem PULSE BARRAGE is not played',
    });
    // Kauyon's, Mont'ka's, the Experimental Prototype Cadre's, the Retaliation Cadre's, the Kroot Hunting Pack's,
    // the Auxiliary Cadre's and the Kroot Raiding Party's stratagems are all played; Battle Host's are not in the data (the engine plays the seed's)
    for (const d of ['Kauyon', "Mont'ka", 'Experimental Prototype Cadre', 'Retaliation Cadre', 'Kroot Hunting Pack', 'Auxiliary Cadre', 'Kroot Raiding Party']) expect(unplayedAbilities(game(d).state).filter((x) => x.unit === 'detachment')).toEqual([]);
    // and the Guardian Battlehost's and the Windrider Host's (Aeldari detachments)
    for (const d of ['Guardian Battlehost', 'Windrider Host']) {
      const aeldari = battleSandbox([
        { id: 'A', player: 0, faction: 'tau', name: "Aun'shi", at: { x: 10, y: 10 } },
        { id: 'D', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 10 } },
      ], { detachments: ['Kauyon', d] });
      expect(unplayedAbilities(aeldari.state).filter((x) => x.unit === 'detachment')).toEqual([]);
    }
  });

  it('of the bundled scenarios: none, every rule of their armies is played', () => {
    const names = new Set<string>();
    for (const file of bundledScenarios()) for (const x of unplayedAbilities(loadScenario(file))) names.add(x.missing?.startsWith('its stratagem') ? `${x.ability}: ${x.missing}` : x.ability);
    expect([...names]).toEqual([]);
  });

  it('a game notes them once at setup', async () => {
    const { createGame } = await import('../../src/rules/battle/setup.ts');
    const { loadAgents } = await import('../../src/core/agent-loader.ts');
    const bundled = loadScenario(bundledScenarios()[0]);
    // the bundled armies are played in full: the T'au play a detachment the engine has no rules for instead
    const sc = { ...bundled, players: bundled.players.map((p, i) => (i === 0 ? { ...p, detachment: UNKNOWN } : p)) } as typeof bundled;
    const g = createGame(sc, { seed: '1', agents: await loadAgents(['random', 'random'], '1'), log: true });
    const notes = (g.log ?? []).filter((e) => e.type === 'note' && e.text.startsWith('not played: ')).map((e) => (e as { text: string }).text);
    expect(notes.length).toBe(unplayedAbilities(sc).length);
    expect(notes).toContain(`not played: detachment: ${UNKNOWN} (the army plays as with no detachment: its rule and stratagems are not in the engine)`);
  });
});
