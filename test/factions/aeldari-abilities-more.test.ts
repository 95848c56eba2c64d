/**
 * More Aeldari datasheet abilities: Reckless Abandon and Raid and Run (seers-and-corsairs.ts), Lanced
 * Obliteration (more-datasheets.ts), Unquenchable Resolve and Harvester of Souls (phoenix-lords.ts),
 * Shadow of Death (seers-and-corsairs.ts, with Irillyth's other ability). Each test fails if the rule is
 * played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { aeldariSandbox, battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { usableStratagems } from '../../src/rules/windows.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { battleShockTest } from '../../src/rules/battle/command.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { isEngaged, modelBody, unitDistance } from '../../src/rules/battle/world.ts';
import { isCoherent } from '../../src/geometry/ranges.ts';
import { newShape, setBaseShape, shapeAabb } from '../../src/geometry/shape.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { EXPLOSIVE_DEBRIS, RESOLVE_PENDING } from '../../src/factions/aeldari/phoenix-lords.ts';

type Pick = (r: DecisionRequest) => number;

const asked: string[] = [];
const sandbox = (units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game => aeldariSandbox(units, asked, opts, pick);

const rule = (name: string) => getRule(name)!;
const lost = (g: Game, unit: string) => g.state.units[unit].models.reduce((n, m) => n + (m.alive ? 0 : 1), 0);
const wounds = (g: Game, unit: string) => g.state.units[unit].models.reduce((n, m) => n + (m.alive ? m.wounds : 0), 0);

describe('Corsair Cloud Dancer Band', () => {
  it('Reckless Abandon: HEROIC INTERVENTION on it costs 0CP and is offered again after another unit used it this phase', () => {
    const g = sandbox([
      { id: 'CD', player: 0, faction: 'aeldari', name: 'Corsair Cloud Dancer Band', at: { x: 10, y: 5 } },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 16 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 10 }, spacing: 0.9 },
    ], { phase: 'charge', turn: 1, cp: [1, 0] });
    const w = { name: 'charge/after-enemy-charge-move' as const, unit: 'ST', targets: ['DA'] };
    const offers = () => usableStratagems(g, w, 0).filter((u) => u.s.name === 'HEROIC INTERVENTION').map((u) => `${u.unit.id}:${u.cp}`);
    // 0CP only: the reduction is never used up, so paying 1CP would be no choice at all
    expect(offers()).toEqual(['CD:0', 'DA:1']);
    // used on the Dire Avengers this phase: only the Cloud Dancers may still be targeted
    g.emit({ type: 'cp', player: 0, delta: -1, reason: 'HEROIC INTERVENTION' });
    g.emit({ type: 'stratagem-used', player: 0, name: 'HEROIC INTERVENTION', cp: 1, unit: 'DA', round: 1, turn: 1, phase: 'charge' });
    expect(offers()).toEqual(['CD:0']);
    // used on the Cloud Dancers themselves: not again
    g.emit({ type: 'stratagem-used', player: 0, name: 'HEROIC INTERVENTION', cp: 0, unit: 'CD', round: 1, turn: 1, phase: 'charge' });
    expect(offers()).toEqual([]);
  });
});

describe('Scorpion', () => {
  it('Lanced Obliteration: its twin Scorpion pulsar sets off Deadly Demise on a 4+; other weapons on a 6', () => {
    const g = sandbox([
      { id: 'SC', player: 0, faction: 'aeldari', name: 'Scorpion', at: { x: 10, y: 10 } },
      { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 40, y: 10 } },
    ]);
    expect(planFor(g, 'SC', 'DF', 'Twin Scorpion pulsar').deadlyDemiseOn).toBe(4);
    expect(planFor(g, 'SC', 'DF', 'Shuriken cannon').deadlyDemiseOn).toBe(6);
  });

  it('Deadly Demise reads the threshold an attack gives: a 4 explodes after Lanced Obliteration, not otherwise', () => {
    const units: PlacedUnit[] = [
      { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 40, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 16 }, spacing: 0.9 },
    ];
    // D6 for Deadly Demise 4, then D3 mortal wounds 2 for the Strike Team
    const lanced = sandbox(units, { stream: scriptedStream([4, 2]) });
    destroyModel(lanced, lanced.state.units.DF, lanced.state.units.DF.models[0], null, 'test', { deadlyDemiseOn: 4 });
    expect(lost(lanced, 'ST')).toBe(2);
    const plain = sandbox(units, { stream: scriptedStream([4]) });
    destroyModel(plain, plain.state.units.DF, plain.state.units.DF.models[0], null, 'test');
    expect(lost(plain, 'ST')).toBe(0);
  });
});

describe('Corsair Skyreavers', () => {
  const units = (engaged: boolean): PlacedUnit[] => [
    { id: 'SR', player: 0, faction: 'aeldari', name: 'Corsair Skyreavers', at: { x: 20, y: 10 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: engaged ? 21.4 : 40, y: 10 }, spacing: 0.9 },
  ];

  it('Raid and Run: eligible to fight and no longer engaged at the end of the Fight phase, a Normal move of up to D3+3"', () => {
    const g = sandbox(units(false), { phase: 'movement', stream: scriptedStream([2]) }, (r) => (r.kind === 'raid-and-run' ? 1 : 0));
    // it fought this phase (its foe since gone)
    startPhase(g, 0, 'fight');
    g.emit({ type: 'unit-flag', unit: 'SR', flag: 'fought', value: true });
    const before = { ...g.state.units.SR.models[0].pos! };
    endPhase(g, 0, 'fight');
    expect(asked).toEqual(['raid-and-run']);
    const after = g.state.units.SR.models[0].pos!;
    const moved = Math.hypot(after.x - before.x, after.y - before.y);
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThanOrEqual(5 + 1e-6);
  });

  it('Raid and Run: still engaged, a Fall Back of up to D3+3" that leaves Engagement Range; nothing when it was not eligible', () => {
    const g = sandbox(units(true), { phase: 'movement', stream: scriptedStream([3]) }, (r) => (r.kind === 'raid-and-run' ? 1 : 0));
    expect(isEngaged(g.state, g.state.units.SR)).toBe(true);
    startPhase(g, 1, 'fight');
    // engaged as the phase began: the fight phase records it (fight.ts), the unit has not fought
    g.emit({ type: 'unit-flag', unit: 'SR', flag: 'eligibleToFight', value: true });
    const before = { ...g.state.units.SR.models[0].pos! };
    endPhase(g, 1, 'fight');
    expect(asked).toEqual(['raid-and-run']);
    expect(isEngaged(g.state, g.state.units.SR)).toBe(false);
    const after = g.state.units.SR.models[0].pos!;
    expect(Math.hypot(after.x - before.x, after.y - before.y)).toBeLessThanOrEqual(6 + 1e-6);
    // never engaged, never fought: no move offered
    const idle = sandbox(units(false), { phase: 'movement' }, () => 1);
    startPhase(idle, 0, 'fight');
    endPhase(idle, 0, 'fight');
    expect(asked).toEqual([]);
  });
});

describe('Fuegan', () => {
  const units = (attached: boolean): PlacedUnit[] => [
    { id: 'BG', player: 0, faction: 'aeldari', name: 'Fire Dragons', at: { x: 10, y: 5 } },
    { id: 'FU', player: 0, faction: 'aeldari', name: 'Fuegan', at: { x: attached ? 11.4 : 20, y: 5 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 }, spacing: 0.9 },
  ];
  const fuegan = (g: Game) => g.state.units.FU.models[0];

  it('Unquenchable Resolve: the first time he is destroyed, on a 2+ at the end of the phase he stands again with full wounds where he fell; only once', () => {
    const g = sandbox(units(false), { stream: scriptedStream([2, 6]) });
    const where = { ...fuegan(g).pos! };
    destroyModel(g, g.state.units.FU, fuegan(g), 'ST', 'test');
    expect(g.state.units.FU.location).toBe('destroyed');
    expect(g.state.effects.filter((e) => e.kind === RESOLVE_PENDING)).toHaveLength(1);
    endPhase(g, 0, 'shooting');
    const m = fuegan(g);
    expect(m.alive).toBe(true);
    expect(m.wounds).toBe(g.state.datasheets[m.datasheet].models[m.profile].wounds);
    expect(g.state.units.FU.location).toBe('battlefield');
    expect(Math.hypot(m.pos!.x - where.x, m.pos!.y - where.y)).toBeLessThanOrEqual(1 + 1e-6);
    expect(g.state.effects.filter((e) => e.kind === RESOLVE_PENDING)).toHaveLength(0);
    // the second time he stays destroyed (no die is rolled: the stream holds one spare value)
    destroyModel(g, g.state.units.FU, fuegan(g), 'ST', 'test');
    endPhase(g, 0, 'shooting');
    expect(fuegan(g).alive).toBe(false);
    expect(g.state.units.FU.location).toBe('destroyed');
  });

  it('Unquenchable Resolve: a 1 keeps him destroyed; leading a unit, he rejoins it when he stands', () => {
    const fail = sandbox(units(false), { stream: scriptedStream([1]) });
    destroyModel(fail, fail.state.units.FU, fuegan(fail), 'ST', 'test');
    endPhase(fail, 0, 'shooting');
    expect(fuegan(fail).alive).toBe(false);

    const g = sandbox(units(true), { stream: scriptedStream([4]) });
    g.emit({ type: 'unit-attached', leader: 'FU', bodyguard: 'BG' });
    const m = g.state.units.BG.models.find((x) => x.origin === 'FU')!;
    destroyModel(g, g.state.units.BG, m, 'ST', 'test');
    endPhase(g, 0, 'shooting');
    const bg = g.state.units.BG;
    expect(bg.components.map((c) => c.unit)).toEqual(['BG', 'FU']);
    const back = bg.models.find((x) => x.origin === 'FU')!;
    expect(back.alive).toBe(true);
    expect(g.state.units.FU.location).toBe('attached');
  });

  it('Unquenchable Resolve: rejoining his unit, he is set up in Unit Coherency with it, as near as he can to where he fell', () => {
    const g = sandbox(units(true), { stream: scriptedStream([4]) });
    g.emit({ type: 'unit-attached', leader: 'FU', bodyguard: 'BG' });
    const m = g.state.units.BG.models.find((x) => x.origin === 'FU')!;
    const where = { ...m.pos! };
    destroyModel(g, g.state.units.BG, m, 'ST', 'test');
    // the Fire Dragons move 6" away before the phase ends: where he fell is out of coherency with them
    const dragons = g.state.units.BG.models.filter((x) => x.alive);
    g.emit({ type: 'models-placed', unit: 'BG', mode: 'test', positions: dragons.map((x) => ({ model: x.id, pos: { ...x.pos!, y: x.pos!.y + 6 } })) });
    endPhase(g, 0, 'shooting');
    const bg = g.state.units.BG;
    expect(bg.components.map((c) => c.unit)).toEqual(['BG', 'FU']);
    expect(isCoherent(bg.models.filter((x) => x.alive).map((x) => modelBody(g.state, x)))).toBe(true);
    const back = bg.models.find((x) => x.origin === 'FU')!;
    // the nearest coherent spots are on the Dragons' side, a little under 6" from where he fell
    expect(Math.hypot(back.pos!.x - where.x, back.pos!.y - where.y)).toBeLessThan(6);
  });
});

describe('Off the battlefield', () => {
  /** Impassable terrain all round the Wave Serpent's hull at (20, 20), 7" deep: no room to disembark from it, even wholly within 6" (an Emergency Disembarkation). */
  function boxedIn(): { x: number; y: number }[][] {
    const probe = sandbox([{ id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 20 } }]);
    const body = modelBody(probe.state, probe.state.units.WS.models[0]);
    const shape = newShape();
    setBaseShape(shape, body.base, body.pos.x, body.pos.y);
    const bb = [0, 0, 0, 0];
    shapeAabb(shape, bb);
    const [x0, y0, x1, y1] = [bb[0] - 0.05, bb[1] - 0.05, bb[2] + 0.05, bb[3] + 0.05];
    const rect = (ax: number, ay: number, bx: number, by: number) => [{ x: ax, y: ay }, { x: bx, y: ay }, { x: bx, y: by }, { x: ax, y: by }];
    const d = 7;
    return [rect(x0 - d, y0 - d, x0, y1 + d), rect(x1, y0 - d, x1 + d, y1 + d), rect(x0, y0 - d, x1, y0), rect(x0, y1, x1, y1 + d)];
  }

  it.each(['Fuegan', 'the Phoenix Gem'])('%s in a transport destroyed with no room to disembark falls with it, and on a 2+ stands again where it stood', (who) => {
    const terrain = boxedIn().map((polygon, i) => ({ id: `wall${i}`, kind: 'impassable' as const, polygon, height: 5 }));
    const bearer: PlacedUnit = who === 'Fuegan'
      ? { id: 'FU', player: 0, faction: 'aeldari', name: 'Fuegan', at: { x: 40, y: 35 } }
      : { id: 'FU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 40, y: 35 }, enhancement: 'Phoenix Gem' };
    // the Wave Serpent's Deadly Demise roll (1: no explosion), then the return's D6 (2)
    const g = sandbox([{ id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 20 } }, bearer, { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 5 }, spacing: 0.9 }],
      { terrain, stream: scriptedStream([1, 2]) });
    g.emit({ type: 'unit-location', unit: 'FU', location: 'embarked', embarkedIn: 'WS' });
    const hull = g.state.units.WS.models[0];
    const where = { ...hull.pos! };
    destroyModel(g, g.state.units.WS, hull, 'ST', 'test');
    expect(g.state.units.FU.location).toBe('destroyed');
    endPhase(g, 0, 'shooting');
    const m = g.state.units.FU.models[0];
    expect(m.alive).toBe(true);
    expect(g.state.units.FU.location).toBe('battlefield');
    expect(m.wounds).toBe(g.state.datasheets[m.datasheet].models[m.profile].wounds);
    // the hull is gone: he stands where it stood
    expect(Math.hypot(m.pos!.x - where.x, m.pos!.y - where.y)).toBeLessThanOrEqual(1 + 1e-6);
  });
});

describe('Maugan Ra', () => {
  const units: PlacedUnit[] = [
    { id: 'BG', player: 0, faction: 'aeldari', name: 'Dark Reapers', at: { x: 10, y: 5 } },
    { id: 'LD', player: 0, faction: 'aeldari', name: 'Maugan Ra', at: { x: 11.6, y: 5 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 },
    // within 3" of the Strike Team
    { id: 'NB', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 32, y: 5 }, spacing: 0.9 },
    // far from it
    { id: 'FAR', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 35 }, spacing: 0.9 },
  ];

  it('Harvester of Souls: one target: a D6 for it and each enemy unit within 3"; each 5+ suffers D3 mortal wounds after the attacks', () => {
    // D6 for ST 5 and NB 6 (none for FAR), then their D3 mortal wounds 2 and 3
    const g = sandbox(units, { stream: scriptedStream([5, 6, 2, 3]) });
    g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    expect(unitDistance(g.state, g.state.units.NB, g.state.units.ST)).toBeLessThanOrEqual(3);
    rule('Harvester of Souls').targetsSelected!(g, g.state.units.BG, ['ST']);
    expect(g.state.effects.find((e) => e.kind === EXPLOSIVE_DEBRIS)?.params.struck).toEqual(['ST', 'NB']);
    const before = [wounds(g, 'ST'), wounds(g, 'NB'), wounds(g, 'FAR')];
    rule('Harvester of Souls').afterShooting!(g, g.state.units.BG, []);
    expect([wounds(g, 'ST'), wounds(g, 'NB'), wounds(g, 'FAR')]).toEqual([before[0] - 2, before[1] - 3, before[2]]);
    expect(g.state.effects.filter((e) => e.kind === EXPLOSIVE_DEBRIS)).toHaveLength(0);
  });

  it('Harvester of Souls: nothing with two targets or when he leads no unit', () => {
    // no die may be rolled
    const g = sandbox(units, { stream: scriptedStream([]) });
    g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    rule('Harvester of Souls').targetsSelected!(g, g.state.units.BG, ['ST', 'FAR']);
    const alone = sandbox(units, { stream: scriptedStream([]) });
    rule('Harvester of Souls').targetsSelected!(alone, alone.state.units.LD, ['ST']);
    expect([...g.state.effects, ...alone.state.effects].filter((e) => e.kind === EXPLOSIVE_DEBRIS)).toHaveLength(0);
  });

  it('Harvester of Souls: the Shooting phase asks it once targets are selected', () => {
    const g = sandbox(units, {}, (r) => (r.kind === 'shoot-target' ? (r.options as { target: string }[]).findIndex((o) => o.target === 'ST') : 0));
    g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    let heard: readonly string[] | null = null;
    const r = rule('Harvester of Souls');
    const saved = r.targetsSelected;
    r.targetsSelected = (_g, _u, targets) => { heard = targets; };
    try {
      shootWithUnit(g, g.state.units.BG);
    } finally {
      r.targetsSelected = saved;
    }
    expect(heard).toEqual(['ST']);
  });
});

describe('Irillyth', () => {
  it('Shadow of Death: an enemy unit within 6" of her subtracts 1 from its Battle-shock test; not beyond 6"', () => {
    const units = (x: number): PlacedUnit[] => [
      { id: 'IR', player: 0, faction: 'aeldari', name: 'Irillyth', at: { x: 10, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x, y: 5 }, spacing: 0.9 },
    ];
    // Strike Team Leadership 7+: a 7 passes unmodified, fails at -1
    const near = sandbox(units(15), { stream: scriptedStream([3, 4]) });
    expect(battleShockTest(near, 1, 'ST')).toBe(false);
    const far = sandbox(units(25), { stream: scriptedStream([3, 4]) });
    expect(battleShockTest(far, 1, 'ST')).toBe(true);
  });
});

describe('Lightning Assault (Hornet)', () => {
  /** A Hornet (H) flying 14" east over a line of Fire Warriors (ST, across its path) or beside it. */
  function run(across: boolean, dice: number[], answer: number): { g: Game; asked: DecisionRequest[]; left: number } {
    const seen: DecisionRequest[] = [];
    const stream = scriptedStream(dice);
    const g = battleSandbox([
      { id: 'H', player: 0, faction: 'aeldari', name: 'Hornet', at: { x: 10, y: 22 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 9], at: { x: 17, y: across ? 16.5 : 30 }, spacing: 1.2 },
    ], { factions: ['AE', 'TAU'], phase: 'movement', round: 2, stream, agents: [scriptedAgent('ae', (r) => { seen.push(r); return r.kind === 'lightning-assault' ? answer : 0; }), scriptedAgent('tau')] });
    executeMove(g, g.state.units.H, { mode: 'normal', to: { x: 24, y: 22 }, toward: 'test' });
    return { g, asked: seen.filter((r) => r.kind === 'lightning-assault'), left: stream.remaining() };
  }

  it('after a Normal move over an enemy unit: six D6, each 4+ a mortal wound on the unit chosen', () => {
    const { g, asked, left } = run(true, [4, 4, 4, 1, 2, 6], 1);
    expect(g.state.units.H.models[0].pos!.x).toBeGreaterThan(20);
    expect(asked).toHaveLength(1);
    expect(asked[0].options).toEqual([{ none: true }, { unit: 'ST' }]);
    expect(left).toBe(0);
    // four 4+: four Fire Warriors (1 wound each) destroyed
    expect(g.state.units.ST.models.filter((m) => !m.alive)).toHaveLength(4);
  });

  it('declined, or no enemy unit passed over: nothing is rolled', () => {
    const declined = run(true, [4, 4, 4, 4, 4, 4], 0);
    expect(declined.left).toBe(6);
    expect(declined.g.state.units.ST.models.every((m) => m.alive)).toBe(true);
    const beside = run(false, [4, 4, 4, 4, 4, 4], 1);
    expect(beside.asked).toHaveLength(0);
    expect(beside.left).toBe(6);
  });
});
