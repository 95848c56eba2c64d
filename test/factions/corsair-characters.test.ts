/**
 * The Corsair characters' abilities and the Corsair Reaver Band's CORSAIRS
 * (src/factions/aeldari/corsair-characters.ts, src/data/leader-stand-ins.ts): Kharseth's Aethersense and
 * Fury of the Void, Prince Yriel's Piratical Hero and Prince of Corsairs. Each test fails if the rule is
 * played wrong or not at all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { arrive } from '../../src/rules/battle/reserves.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { endTurn } from '../../src/rules/battle/battle.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { bodyguardCandidates } from '../../src/rules/battle/formations.ts';
import { redeployUnits, type RedeployOption } from '../../src/rules/battle/redeploy.ts';
import { loadFactionCatalog, parseFactionData } from '../../src/data/catalog.ts';
import { mayLead } from '../../src/data/leader-stand-ins.ts';
import { checkArmyAgainstCatalog, validateArmy } from '../../src/data/army.ts';
import { resolveScenario } from '../../src/data/scenario.ts';
import { RIVEN } from '../../src/factions/aeldari/corsair-characters.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const KH: PlacedUnit = { id: 'KH', player: 0, faction: 'aeldari', name: 'Kharseth', at: { x: 10, y: 20 } };
const YR: PlacedUnit = { id: 'YR', player: 0, faction: 'aeldari', name: 'Prince Yriel', at: { x: 10, y: 10 } };
const VR: PlacedUnit = { id: 'VR', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 8, y: 4 }, spacing: 1 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 20 }, spacing: 1 };

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { factions: ['AE', 'TAU'], phase: 'shooting', turn: 0, ...opts });
}

describe('Kharseth', () => {
  /** Crisis Battlesuits of player 1 arriving from Reserves in round 2, aimed 10" from `enemy` of player 0 standing at (20, 22). */
  function arrival(enemy: string, how: 'deep-strike' | 'strategic-reserves'): { ok: boolean; gap: number } {
    const at = how === 'deep-strike' ? { x: 20, y: 22 } : { x: 48, y: 22 };
    const g = sandbox([
      { id: 'EN', player: 0, faction: 'aeldari', name: enemy, at },
      { id: 'CB', player: 1, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 55, y: 5 } },
    ], { phase: 'movement', turn: 1, round: 2 });
    g.emit({ type: 'unit-location', unit: 'CB', location: how === 'deep-strike' ? 'reserves' : 'strategic-reserves', embarkedIn: null });
    const ok = arrive(g, g.state.units.CB, { unit: 'CB', how, x: how === 'deep-strike' ? 30.5 : 57, y: 22 });
    return { ok, gap: ok ? unitDistance(g.state, g.state.units.CB, g.state.units.EN) : Infinity };
  }

  it('Aethersense: an enemy unit Deep Striking is set up more than 12" from him (near Prince Yriel, who lacks it, it lands within 12")', () => {
    const plain = arrival('Prince Yriel', 'deep-strike');
    expect(plain.ok).toBe(true);
    expect(plain.gap).toBeGreaterThan(9);
    expect(plain.gap).toBeLessThan(12);
    const sensed = arrival('Kharseth', 'deep-strike');
    expect(sensed.gap).toBeGreaterThan(12);
  });

  it('Aethersense: the same for a unit arriving from Strategic Reserves', () => {
    const plain = arrival('Prince Yriel', 'strategic-reserves');
    expect(plain.ok).toBe(true);
    expect(plain.gap).toBeLessThan(12);
    expect(arrival('Kharseth', 'strategic-reserves').gap).toBeGreaterThan(12);
  });

  it('Fury of the Void: after his unit shot, an enemy unit his Dread of the Deep Void hit is riven: +1 Strength for AELDARI attacks on it until the end of the turn', () => {
    const asked: DecisionRequest[] = [];
    const ae = scriptedAgent('ae', (r) => { if (r.kind === 'fury-of-the-void') asked.push(r); return 0; });
    // every die a 4: the Dread of the Deep Void hits (3+), its Hazardous test passes
    const g = sandbox([KH, VR, ST], { stream: scriptedStream(new Array(300).fill(4)), agents: [ae, scriptedAgent('tau')] });
    const before = planFor(g, 'VR', 'ST', 'Shuriken pistol').strength;
    shootWithUnit(g, g.state.units.KH);
    expect(asked.map((r) => r.options)).toEqual([['ST']]);
    expect(g.state.effects.filter((e) => e.kind === RIVEN).map((e) => [e.unit, e.player])).toEqual([['ST', 0]]);
    expect(planFor(g, 'VR', 'ST', 'Shuriken pistol').strength).toBe(before + 1);
    expect(planFor(g, 'KH', 'ST', 'Waystave').strength).toBe(4);
    // until the end of the turn
    endTurn(g, 0);
    expect(planFor(g, 'VR', 'ST', 'Shuriken pistol').strength).toBe(before);
  });

  it('Fury of the Void: only an enemy unit hit by the Dread of the Deep Void is offered; none, no question', () => {
    const asked: DecisionRequest[] = [];
    const ae = scriptedAgent('ae', (r) => { if (r.kind === 'fury-of-the-void') asked.push(r); return 0; });
    const g = sandbox([KH, VR, ST, { ...ST, id: 'S2', at: { x: 30, y: 35 } }], { agents: [ae, scriptedAgent('tau')] });
    const fury = getRule('Fury of the Void (Psychic)')!;
    g.emit({ type: 'unit-attached', leader: 'KH', bodyguard: 'VR' });
    fury.afterShooting!(g, g.state.units.VR, ['ST'], [{ weapon: 'Shuriken pistol', target: 'ST' }]);
    expect(asked).toEqual([]);
    fury.afterShooting!(g, g.state.units.VR, ['ST', 'S2'], [{ weapon: 'Shuriken pistol', target: 'ST' }, { weapon: 'Dread of the Deep Void', target: 'S2' }]);
    expect(asked.map((r) => r.options)).toEqual([['S2']]);
    expect(planFor(g, 'VR', 'S2', 'Shuriken pistol').strength).toBe(planFor(g, 'VR', 'ST', 'Shuriken pistol').strength + 1);
  });
});

describe('Prince Yriel', () => {
  it('Piratical Hero: while he leads a unit, its attacks (his own too) have SUSTAINED HITS 1 and +1 to hit; not on his own', () => {
    const g = sandbox([YR, VR, ST]);
    const alone = planFor(g, 'YR', 'ST', 'Eye of Wrath');
    const pistol = planFor(g, 'VR', 'ST', 'Shuriken pistol');
    expect([alone.sustainedHits, pistol.sustainedHits]).toEqual([0, 0]);
    g.emit({ type: 'unit-attached', leader: 'YR', bodyguard: 'VR' });
    const led = planFor(g, 'VR', 'ST', 'Shuriken pistol');
    expect([led.sustainedHits, led.hitModifier]).toEqual([1, pistol.hitModifier + 1]);
    const own = planFor(g, 'VR', 'ST', 'Eye of Wrath');
    expect([own.sustainedHits, own.hitModifier]).toEqual([1, alone.hitModifier + 1]);
    const spear = planFor(g, 'VR', 'ST', 'Power sword');
    expect([spear.sustainedHits, spear.hitModifier]).toEqual([1, 1]);
  });

  /** The Redeploy Units step with player 0's agent picking `picks` (unit ids, or 'done'), each sent to Strategic Reserves. */
  function redeploy(units: PlacedUnit[], picks: string[], before: (g: Game) => void = () => {}) {
    const offered: string[][] = [];
    const agent = scriptedAgent('ae', (r: DecisionRequest) => {
      if (r.kind !== 'redeploy') return 0;
      const ids = (r.options as RedeployOption[]).map((o) => ('done' in o ? 'done' : o.unit));
      offered.push(ids);
      return Math.max(0, ids.indexOf(picks[offered.length - 1] ?? 'done'));
    });
    const g = sandbox(units, { agents: [agent, scriptedAgent('tau')], phase: 'movement' });
    before(g);
    redeployUnits(g, 0, [0, 1]);
    return { g, offered };
  }

  const army: PlacedUnit[] = [
    YR, VR,
    { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 6, y: 30 } },
    { id: 'V2', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 4, y: 38 }, spacing: 1 },
    { id: 'KR', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 4, y: 16 }, spacing: 1 },
    { ...ST, at: { x: 54, y: 20 } },
  ];

  it('Prince of Corsairs: up to three AELDARI units of his army (his own among them) are redeployed, into Strategic Reserves whatever is there', () => {
    const { g, offered } = redeploy(army, ['VR', 'WS', 'V2'], (h) => {
      // units already in Strategic Reserves do not stop it
      h.emit({ type: 'unit-location', unit: 'KR', location: 'strategic-reserves', embarkedIn: null });
    });
    expect(offered).toEqual([['done', 'YR', 'VR', 'WS', 'V2'], ['done', 'YR', 'WS', 'V2'], ['done', 'YR', 'V2']]);
    expect(['VR', 'WS', 'V2', 'YR'].map((id) => g.state.units[id].location)).toEqual(['strategic-reserves', 'strategic-reserves', 'strategic-reserves', 'battlefield']);
  });

  it('Prince of Corsairs: while he is embarked within a Transport on the battlefield it acts; in Reserves it does not', () => {
    const embarked = redeploy(army, ['done'], (g) => g.emit({ type: 'unit-location', unit: 'YR', location: 'embarked', embarkedIn: 'WS' }));
    expect(embarked.offered).toEqual([['done', 'VR', 'WS', 'V2']]);
    const reserves = redeploy(army, ['done'], (g) => g.emit({ type: 'unit-location', unit: 'YR', location: 'strategic-reserves', embarkedIn: null }));
    expect(reserves.offered).toEqual([]);
    // leading a unit, through that unit
    const leading = redeploy(army, ['done'], (g) => g.emit({ type: 'unit-attached', leader: 'YR', bodyguard: 'VR' }));
    expect(leading.offered).toEqual([['done', 'VR', 'WS', 'V2']]);
  });

  it('Prince of Corsairs of the Legendary Prince Yriel: "if your army includes this model", so in Reserves too', () => {
    const legendary = army.map((u) => (u.id === 'YR' ? { ...u, name: 'Prince Yriel (Legendary)' } : u));
    const reserves = redeploy(legendary, ['done'], (g) => g.emit({ type: 'unit-location', unit: 'YR', location: 'strategic-reserves', embarkedIn: null }));
    expect(reserves.g.state.units.YR.datasheet).toBe('000000569');
    expect(reserves.offered).toEqual([['done', 'VR', 'WS', 'V2']]);
  });
});

describe('Corsair Reaver Band: CORSAIRS', () => {
  const ae = loadFactionCatalog('aeldari');
  const ds = (name: string) => ae.byName(name)!;

  it('a Leader that may lead Corsair Voidreavers may lead a Reaver Band; one that may not, may not', () => {
    const band = ds('Corsair Reaver Band');
    // no Leader lists the Reaver Band in the data: only the rule lets them, resolved as the catalog is built
    const raw = parseFactionData(readFileSync('src/factions/aeldari/units.json', 'utf8'), 'units.json');
    expect(raw.datasheets.filter((d) => d.leads.includes(band.id))).toEqual([]);
    const voidreavers = ds('Corsair Voidreavers').id;
    expect(ae.datasheets.filter((d) => d.leads.includes(band.id)).map((d) => d.id))
      .toEqual(raw.datasheets.filter((d) => d.leads.includes(voidreavers)).map((d) => d.id));
    expect(['Prince Yriel', 'Kharseth', 'Yvraine', 'The Visarch'].map((n) => mayLead(ds(n), band))).toEqual([true, true, true, true]);
    expect(['Farseer', 'Autarch', 'Warlock'].map((n) => mayLead(ds(n), band))).toEqual([false, false, false]);
    // the Voidscarred have no such rule
    expect(mayLead(ds('Farseer'), ds('Corsair Voidscarred'))).toBe(false);
  });

  it('the agent\'s Declare Battle Formations offers the Reaver Band to Kharseth, not to a Farseer', () => {
    const g = sandbox([
      KH,
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 10, y: 30 } },
      { id: 'RB', player: 0, faction: 'aeldari', name: 'Corsair Reaver Band', at: { x: 5, y: 5 }, spacing: 1 },
      VR,
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 40 }, spacing: 1 },
      ST,
    ]);
    for (const id of ['KH', 'FS', 'RB', 'VR', 'GD']) g.emit({ type: 'unit-location', unit: id, location: 'unplaced', embarkedIn: null });
    const ids = (leader: string) => bodyguardCandidates(g, g.state.units[leader]).map((u) => u.id);
    expect(ids('KH')).toEqual(['RB', 'VR']);
    expect(ids('FS')).toEqual(['GD']);
  });

  it('an army or scenario attaching Prince Yriel to the Reaver Band is accepted; a Farseer attached to it is refused', () => {
    const file = join(ROOT, 'scenarios', 'armies', 'aeldari-corsairs.json');
    const army = JSON.parse(readFileSync(file, 'utf8'));
    const band = army.units.find((u: { name: string }) => u.name === 'Corsair Reaver Band').id;
    army.units[0].attachedTo = band;
    expect(() => checkArmyAgainstCatalog(validateArmy(army), ae, 'a.json')).not.toThrow();
    const farseer = ds('Farseer');
    army.units.push({ id: 'fs', datasheetId: farseer.id, name: 'Farseer', points: 70, models: [{ count: 1, profile: 'Farseer', weapons: [] }], attachedTo: band });
    delete army.units[0].attachedTo;
    expect(() => checkArmyAgainstCatalog(validateArmy(army), ae, 'a.json')).toThrow(/Farseer cannot lead Corsair Reaver Band/);
    // the scenario's leaders map
    const mirror = join(ROOT, 'scenarios', 'mirror', 'corsair-coterie-vs-none.json');
    const sc = JSON.parse(readFileSync(mirror, 'utf8'));
    for (const p of sc.players) delete p.formations;
    sc.players[0].leaders = { u2: band };
    const resolved = resolveScenario(sc, mirror);
    expect(resolved.players[0].leaders).toEqual({ u2: band });
  });
});
