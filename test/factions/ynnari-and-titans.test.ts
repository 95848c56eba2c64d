/**
 * src/factions/aeldari/ynnari-and-titans.ts: the Ynnari characters and units, the Titans, the Bonesinger, the
 * D-cannon Platform and the Legendary Prince Yriel. Each test compares the situation with and without the
 * ability, so it fails if the ability is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { allows, getRule, isLoneOperative } from '../../src/core/rules-registry.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { destroyModel, feelNoPainOf } from '../../src/rules/damage.ts';
import { fightsFirst } from '../../src/rules/battle/charge.ts';
import { advanceDistance, desperateEscapeRules, executeMove } from '../../src/rules/battle/movement.ts';
import { stratagemSurcharge, usableStratagems } from '../../src/rules/windows.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { disembark } from '../../src/rules/battle/transports.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { phase: 'movement', ...opts });
}

const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 20 }, spacing: 0.9 };
const WY: PlacedUnit = { id: 'WY', player: 0, faction: 'aeldari', name: 'Ynnari Wyches', at: { x: 20, y: 20 }, spacing: 0.9 };

/** `leader` (id L) attached to `unit`. */
function led(unit: PlacedUnit, leader: string, others: PlacedUnit[] = [], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  const g = sandbox([unit, { id: 'L', player: 0, faction: 'aeldari', name: leader, at: { x: unit.at.x - 2, y: unit.at.y } }, ...others], opts);
  g.emit({ type: 'unit-attached', leader: 'L', bodyguard: unit.id });
  return g;
}

describe('The Visarch and Yvraine', () => {
  it('Way of the Blade: the unit the Visarch leads has Fights First; not alone, not once he is gone', () => {
    const g = led(WY, 'The Visarch', [ST]);
    expect(fightsFirst(g, g.state.units.WY)).toBe(true);
    const alone = sandbox([WY, ST]);
    expect(fightsFirst(alone, alone.state.units.WY)).toBe(false);
    const visarch = g.state.units.WY.models.find((m) => m.origin === 'L')!;
    g.emit({ type: 'model-destroyed', unit: 'WY', model: visarch.id, by: null, reason: 'test' });
    expect(fightsFirst(g, g.state.units.WY)).toBe(false);
  });

  it("Yvraine's Champion: another CHARACTER attached to the Visarch's unit has Feel No Pain 4+; the Visarch and the Wyches do not", () => {
    const g = led(WY, 'The Visarch', [{ id: 'YV', player: 0, faction: 'aeldari', name: 'Yvraine', at: { x: 16, y: 20 } }]);
    g.emit({ type: 'unit-attached', leader: 'YV', bodyguard: 'WY' });
    const u = g.state.units.WY;
    const by = (origin: string) => u.models.find((m) => m.origin === origin)!;
    expect(feelNoPainOf(g.state, u, by('YV'), null)).toBe(4);
    expect(feelNoPainOf(g.state, u, by('L'), null)).toBe(null);
    expect(feelNoPainOf(g.state, u, by('WY'), null)).toBe(null);
  });

  it('Herald of Ynnead: at the start of the Fight phase an enemy unit in Engagement Range of Yvraine is picked; AELDARI attacks on it re-roll Wound rolls of 1', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([
      { id: 'YV', player: 0, faction: 'aeldari', name: 'Yvraine', at: { x: 20, y: 20 } },
      { ...WY, at: { x: 20, y: 30 } },
      { ...ST, at: { x: 21.6, y: 20 } },
      { ...ST, id: 'S2', at: { x: 40, y: 5 } },
    ], { agents: [scriptedAgent('ae', (r) => { asked.push(r); return 0; }), scriptedAgent('tau')] });
    expect(planFor(g, 'WY', 'ST', 'Hekatarii blade').rerollWounds).toBe('none');
    startPhase(g, 0, 'fight');
    expect(asked.filter((r) => r.kind === 'herald-of-ynnead').map((r) => r.options)).toEqual([['ST']]);
    expect(planFor(g, 'WY', 'ST', 'Hekatarii blade').rerollWounds).toBe('ones');
    expect(planFor(g, 'WY', 'S2', 'Hekatarii blade').rerollWounds).toBe('none');
  });
});

describe('Yvraine: Word of the Phoenix', () => {
  it('in its Command phase, on a 2+, D3+1 destroyed Bodyguard models return with full wounds; on a 1 none; not without Yvraine leading', () => {
    const run = (dice: number[], leading = true) => {
      const g = leading ? led(WY, 'Yvraine', [ST], { phase: 'command', stream: scriptedStream(dice) }) : sandbox([WY, ST], { phase: 'command', stream: scriptedStream(dice) });
      const wyches = g.state.units.WY.models.filter((m) => m.origin === 'WY');
      for (const m of wyches.slice(0, 4)) g.emit({ type: 'model-destroyed', unit: 'WY', model: m.id, by: null, reason: 'test' });
      startPhase(g, 0, 'command');
      return g.state.units.WY.models.filter((m) => m.origin === 'WY' && m.alive).length - (wyches.length - 4);
    };
    // a 2, then a D3 of 2: three models back
    expect(run([2, 2])).toBe(3);
    expect(run([1])).toBe(0);
    expect(run([], false)).toBe(0);
  });
});

describe('Succubus, Kabalite Warriors, Wyches, Incubi', () => {
  it('Storm of Blades: the Wyches the Succubus leads have SUSTAINED HITS 1 in melee (not with pistols); not alone', () => {
    const g = led(WY, 'Ynnari Succubus', [ST]);
    expect(planFor(g, 'WY', 'ST', 'Hekatarii blade').sustainedHits).toBe(1);
    expect(planFor(g, 'WY', 'ST', 'Splinter pistol').sustainedHits).toBe(0);
    const alone = sandbox([WY, ST]);
    expect(planFor(alone, 'WY', 'ST', 'Hekatarii blade').sustainedHits).toBe(0);
  });

  it('Empowered by Death: below its Starting Strength, the Succubus\' unit has Fights First in the Fight phase; at full strength not', () => {
    const full = led(WY, 'Ynnari Succubus', [ST]);
    startPhase(full, 0, 'fight');
    expect(fightsFirst(full, full.state.units.WY)).toBe(false);
    const hurt = led(WY, 'Ynnari Succubus', [ST]);
    const m = hurt.state.units.WY.models.find((x) => x.origin === 'WY')!;
    hurt.emit({ type: 'model-destroyed', unit: 'WY', model: m.id, by: null, reason: 'test' });
    startPhase(hurt, 0, 'fight');
    expect(fightsFirst(hurt, hurt.state.units.WY)).toBe(true);
  });

  it('Sadistic Raiders: a marker the Kabalite Warriors hold at the end of their Command phase stays held after they leave', () => {
    const g = sandbox([{ id: 'KW', player: 0, faction: 'aeldari', name: 'Ynnari Kabalite Warriors', at: { x: 30, y: 22 } }, ST], { phase: 'command', objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }] });
    g.emit({ type: 'objective-control', objective: 'o1', controller: 0 });
    endPhase(g, 0, 'command');
    expect(g.state.effects.filter((e) => e.kind === 'Sadistic Raiders (held)').map((e) => e.params.objective)).toEqual(['o1']);
  });

  it('Sadistic Raiders from inside a Transport: the marker the Raider is within range of is held; not one the Raider is far from (held by Guardians there)', () => {
    const held = (at: { x: number; y: number }) => {
      const g = sandbox([{ id: 'KW', player: 0, faction: 'aeldari', name: 'Ynnari Kabalite Warriors', at: { x: 10, y: 5 } }, { id: 'RA', player: 0, faction: 'aeldari', name: 'Ynnari Raider', at },
        { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 20 }, spacing: 0.9 }, ST],
        { phase: 'command', objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }] });
      g.emit({ type: 'unit-location', unit: 'KW', location: 'embarked', embarkedIn: 'RA' });
      g.emit({ type: 'objective-control', objective: 'o1', controller: 0 });
      endPhase(g, 0, 'command');
      return g.state.effects.filter((e) => e.kind === 'Sadistic Raiders (held)').map((e) => e.params.objective);
    };
    expect(held({ x: 30, y: 22 })).toEqual(['o1']);
    expect(held({ x: 10, y: 30 })).toEqual([]);
  });

  it('No Escape: an enemy unit Falling Back from the Wyches tests Desperate Escape for all its models, -1 when Battle-shocked; not from other units', () => {
    const g = sandbox([WY, { ...ST, at: { x: 21.5, y: 20 } }]);
    expect(desperateEscapeRules(g.state, g.state.units.ST)).toEqual({ allModels: true, modifier: 0 });
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    expect(desperateEscapeRules(g.state, g.state.units.ST)).toEqual({ allModels: true, modifier: -1 });
    const other = sandbox([{ ...WY, name: 'Guardian Defenders' }, { ...ST, at: { x: 21.5, y: 20 } }]);
    expect(desperateEscapeRules(other.state, other.state.units.ST)).toEqual({ allModels: false, modifier: 0 });
  });

  it('Tormentors: at the start of the Fight phase each enemy unit in Engagement Range of the Incubi takes a Battle-shock test (no +1 to hit: that is the Drukhari Incubi\'s)', () => {
    // the test's 2D6: 1 and 1, failed
    const g = sandbox([{ id: 'IN', player: 0, faction: 'aeldari', name: 'Ynnari Incubi', at: { x: 20, y: 20 } }, { ...ST, at: { x: 21.5, y: 20 } }, { ...ST, id: 'S2', at: { x: 40, y: 5 } }], { stream: scriptedStream([1, 1]) });
    const before = planFor(g, 'IN', 'ST', 'Klaive').hitModifier;
    startPhase(g, 0, 'fight');
    expect([g.state.units.ST.battleShocked, g.state.units.S2.battleShocked]).toEqual([true, false]);
    expect(planFor(g, 'IN', 'ST', 'Klaive').hitModifier).toBe(before);
  });
});

describe('one unit with the ability or several: Tormentors and No Escape count once', () => {
  const between = (name: string): PlacedUnit[] => [
    { id: 'A', player: 0, faction: 'aeldari', name, at: { x: 21.2, y: 5 }, spacing: 1.2 },
    { id: 'B', player: 0, faction: 'aeldari', name, at: { x: 18.8, y: 5 }, spacing: 1.2 },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 5 }, spacing: 1.2 },
  ];

  it('Tormentors: a Strike Team engaged with two Incubi units takes one Battle-shock test', () => {
    const g = sandbox(between('Ynnari Incubi'), { stream: scriptedStream([6, 6, 1, 1]) });
    expect([unitsInEngagement(g.state, g.state.units.A, g.state.units.ST), unitsInEngagement(g.state, g.state.units.B, g.state.units.ST)]).toEqual([true, true]);
    const from = g.log!.length;
    startPhase(g, 0, 'fight');
    expect(g.log!.slice(from).filter((e) => e.type === 'dice' && e.purpose === 'battle-shock').length).toBe(1);
    expect(g.state.units.ST.battleShocked).toBe(false);
  });

  it('No Escape: a Battle-shocked Strike Team Falling Back from two Wyches units tests at -1, not -2', () => {
    const g = sandbox(between('Ynnari Wyches'));
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    expect(desperateEscapeRules(g.state, g.state.units.ST)).toEqual({ allModels: true, modifier: -1 });
  });
});

describe('Titans, Bonesinger, D-cannon Platform, Prince Yriel (Legendary)', () => {
  it('Towering Wraith Construct: a stratagem on the Phantom Titan costs three times its CP, on the Revenant Titan twice; on another unit not more', () => {
    const g = sandbox([{ id: 'PT', player: 0, faction: 'aeldari', name: 'Phantom Titan', at: { x: 20, y: 20 } }, { id: 'RT', player: 0, faction: 'aeldari', name: 'Revenant Titan', at: { x: 20, y: 35 } }, { ...WY, at: { x: 5, y: 5 } }]);
    const s = allStratagems().find((x) => x.name === 'COMMAND RE-ROLL' && x.cp === 1)!;
    expect(stratagemSurcharge(g, g.state.units.PT, s)).toBe(2);
    expect(stratagemSurcharge(g, g.state.units.RT, s)).toBe(1);
    expect(stratagemSurcharge(g, g.state.units.WY, s)).toBe(0);
  });

  it('Flawless Poise: the Phantom Titan may shoot and charge after Falling Back; Revenant Jet Pack: the Revenant Titan Advances 8" without a roll', () => {
    const g = sandbox([{ id: 'PT', player: 0, faction: 'aeldari', name: 'Phantom Titan', at: { x: 20, y: 20 } }, { id: 'RT', player: 0, faction: 'aeldari', name: 'Revenant Titan', at: { x: 20, y: 35 } }], { stream: scriptedStream([]) });
    expect([allows(g.state, g.state.units.PT, 'shoot-after-fall-back'), allows(g.state, g.state.units.PT, 'charge-after-fall-back')]).toEqual([true, true]);
    expect(allows(g.state, g.state.units.RT, 'charge-after-fall-back')).toBe(false);
    expect(advanceDistance(g, g.state.units.RT)).toBe(8);
  });

  it('Way of the Shaper: the WRAITH CONSTRUCT models the Bonesinger leads have Feel No Pain 6+; the Bonesinger not', () => {
    const g = led({ id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 20, y: 20 } }, 'Bonesinger');
    const u = g.state.units.WG;
    expect(feelNoPainOf(g.state, u, u.models.find((m) => m.origin === 'WG')!, null)).toBe(6);
    expect(feelNoPainOf(g.state, u, u.models.find((m) => m.origin === 'L')!, null)).toBe(null);
  });

  it('Bonesinger: Lone Operative within 3" of a Wraith unit and leading none; not farther, not while leading', () => {
    const near = sandbox([{ id: 'BS', player: 0, faction: 'aeldari', name: 'Bonesinger', at: { x: 20, y: 20 } }, { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 23, y: 20 } }]);
    expect(isLoneOperative(near.state, near.state.units.BS)).toBe(true);
    const far = sandbox([{ id: 'BS', player: 0, faction: 'aeldari', name: 'Bonesinger', at: { x: 20, y: 20 } }, { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 30, y: 20 } }]);
    expect(isLoneOperative(far.state, far.state.units.BS)).toBe(false);
    const leading = led({ id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 20, y: 20 } }, 'Bonesinger', [{ id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 18, y: 24 } }]);
    expect(isLoneOperative(leading.state, leading.state.units.WG)).toBe(false);
  });

  it('Psytronome Shaper: in its Command phase a hurt Wraith model within 3" regains up to D3 wounds', () => {
    const g = sandbox([{ id: 'BS', player: 0, faction: 'aeldari', name: 'Bonesinger', at: { x: 20, y: 20 } }, { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 23, y: 20 } }], { phase: 'command', stream: scriptedStream([2]) });
    const wl = g.state.units.WL.models[0];
    const full = characteristic(g.state, g.state.units.WL, wl, 'W');
    g.emit({ type: 'model-damaged', unit: 'WL', model: wl.id, wounds: 5, by: null, mortal: false });
    startPhase(g, 0, 'command');
    expect(g.state.units.WL.models[0].wounds).toBe(full - 3);
  });

  it('Structural Collapse: the D-cannon re-rolls Damage rolls of 1, any Damage roll against a TITANIC unit', () => {
    const g = sandbox([
      { id: 'DC', player: 0, faction: 'aeldari', name: 'D-cannon Platform', at: { x: 10, y: 20 } },
      { id: 'SS', player: 1, faction: 'tau', name: 'Stormsurge', at: { x: 30, y: 10 } },
      { ...ST, at: { x: 30, y: 30 } },
    ]);
    const titan = planFor(g, 'DC', 'SS', 'D-cannon');
    const other = planFor(g, 'DC', 'ST', 'D-cannon');
    expect([titan.rerollDamage, other.rerollDamage, other.rerollDamageOnes]).toEqual([true, false, true]);
  });

  it('Hero of Iyanden: the unit the Legendary Prince Yriel leads has +1 OC', () => {
    const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 20 }, spacing: 0.9 };
    const g = led(GD, 'Prince Yriel (Legendary)');
    const alone = sandbox([GD]);
    const m = g.state.units.GD.models.find((x) => x.origin === 'GD')!;
    expect(characteristic(g.state, g.state.units.GD, m, 'OC')).toBe(characteristic(alone.state, alone.state.units.GD, alone.state.units.GD.models[0], 'OC') + 1);
  });
});

describe('Ynnari Reavers, Archon, Nightwing', () => {
  /** Reavers (RV, 3 models; `caltrops` of them with Cluster Caltrops) Advancing 14" east over a line of Fire Warriors. */
  function flyBy(caltrops: number, dice: number[], mode: 'normal' | 'advance' = 'normal'): { g: Game; asked: DecisionRequest[]; left: number } {
    const seen: DecisionRequest[] = [];
    const stream = scriptedStream(dice);
    const g = battleSandbox([
      { id: 'RV', player: 0, faction: 'aeldari', name: 'Ynnari Reavers', at: { x: 10, y: 22 }, spacing: 1.5, ...(caltrops > 0 ? { wargear: [['Cluster Caltrops'], ['Cluster Caltrops']] } : {}) },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 9], at: { x: 17, y: 16.5 }, spacing: 1.2 },
    ], { factions: ['AE', 'TAU'], phase: 'movement', round: 2, stream, agents: [scriptedAgent('ae', (r) => { seen.push(r); return r.kind === 'eviscerating-fly-by' ? 1 : 0; }), scriptedAgent('tau')] });
    executeMove(g, g.state.units.RV, { mode, to: { x: 24, y: 22 }, toward: 'test' });
    return { g, asked: seen.filter((r) => r.kind === 'eviscerating-fly-by'), left: stream.remaining() };
  }

  it('Eviscerating Fly-by: after a Normal move over an enemy unit, a D6 per Reaver, a mortal wound for each 4+', () => {
    // one D6 for each of the 3 Reavers: 4, 1, 5
    const { g, asked, left } = flyBy(0, [4, 1, 5]);
    expect(asked).toHaveLength(1);
    expect(left).toBe(0);
    expect(g.state.units.ST.models.filter((m) => !m.alive)).toHaveLength(2);
  });

  it('Eviscerating Fly-by: not after an Advance (the Ynnari Reavers\' says "ends a Normal move")', () => {
    // the Advance roll (6) only
    const { g, asked, left } = flyBy(0, [6], 'advance');
    expect(asked).toHaveLength(0);
    expect(left).toBe(0);
    expect(g.state.units.ST.models.filter((m) => !m.alive)).toHaveLength(0);
  });

  it('Cluster Caltrops: each bearer re-rolls one failed die', () => {
    // 1, 1, 5; the caltrops re-roll the two 1s: 4 and 6
    const { g, left } = flyBy(2, [1, 1, 5, 4, 6]);
    expect(left).toBe(0);
    expect(g.state.units.ST.models.filter((m) => !m.alive)).toHaveLength(3);
  });

  it('Reborn Mastermind: once per battle round a stratagem on the Archon\'s unit may cost 1CP less', () => {
    const g = sandbox([{ id: 'AR', player: 0, faction: 'aeldari', name: 'Ynnari Archon', at: { x: 20, y: 20 } }, { ...ST, at: { x: 40, y: 20 } }], { phase: 'shooting', turn: 1, cp: [1, 0] });
    const w = { name: 'shooting/after-enemy-targets' as const, unit: 'ST', targets: ['AR'] };
    const offered = usableStratagems(g, w, 0).filter((x) => x.s.name === 'GO TO GROUND').map((x) => [x.cp, x.discount ?? null]);
    expect(offered).toEqual([[1, null], [0, 'Reborn Mastermind']]);
  });

  it('Overlord: the unit the Archon leads re-rolls Wound rolls of 1, the failed ones once below its Starting Strength; not when it leads none', () => {
    const g = sandbox([
      { id: 'AR', player: 0, faction: 'aeldari', name: 'Ynnari Archon', at: { x: 20, y: 20 } },
      { id: 'KW', player: 0, faction: 'aeldari', name: 'Ynnari Kabalite Warriors', at: { x: 20, y: 22 } },
      { id: 'K2', player: 0, faction: 'aeldari', name: 'Ynnari Kabalite Warriors', at: { x: 20, y: 30 } },
      ST,
    ]);
    expect(planFor(g, 'KW', 'ST', 'Splinter rifle').rerollWounds).toBe('none');
    g.emit({ type: 'unit-attached', leader: 'AR', bodyguard: 'KW' });
    expect(planFor(g, 'KW', 'ST', 'Splinter rifle').rerollWounds).toBe('ones');
    // the Archon's own attacks too: it is a model of the unit it leads
    expect(planFor(g, 'KW', 'ST', 'Splinter pistol').rerollWounds).toBe('ones');
    expect(planFor(g, 'K2', 'ST', 'Splinter rifle').rerollWounds).toBe('none');
    const warrior = g.state.units.KW.models.find((m) => g.state.datasheets[m.datasheet].name === 'Ynnari Kabalite Warriors')!;
    g.emit({ type: 'model-destroyed', unit: 'KW', model: warrior.id, by: 'ST', reason: 'test' });
    expect(planFor(g, 'KW', 'ST', 'Splinter rifle').rerollWounds).toBe('failed');
  });

  it('Aethersails: the Ynnari Raider Advances 6" without a roll; a Ynnari Venom rolls', () => {
    const g = sandbox([
      { id: 'RD', player: 0, faction: 'aeldari', name: 'Ynnari Raider', at: { x: 20, y: 20 } },
      { id: 'VN', player: 0, faction: 'aeldari', name: 'Ynnari Venom', at: { x: 20, y: 30 } },
      ST,
    ], { phase: 'movement', stream: scriptedStream([2]) });
    expect(advanceDistance(g, g.state.units.RD)).toBe(6);
    expect((g.log ?? []).filter((e) => e.type === 'dice')).toHaveLength(0);
    expect(advanceDistance(g, g.state.units.VN)).toBe(2);
  });

  it('Interceptor: the Nightwing\'s ranged attacks at a unit that can FLY have +1 to hit', () => {
    const g = sandbox([
      { id: 'NW', player: 0, faction: 'aeldari', name: 'Nightwing', at: { x: 10, y: 20 } },
      { id: 'CB', player: 1, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 30, y: 10 } },
      { ...ST, at: { x: 30, y: 30 } },
    ]);
    const fly = planFor(g, 'NW', 'CB', 'Twin shuriken cannon').hitModifier;
    const ground = planFor(g, 'NW', 'ST', 'Twin shuriken cannon').hitModifier;
    expect(fly - ground).toBe(1);
  });
});

describe('The Yncarne', () => {
  it('Ethereal Form: when its attacks destroy an enemy unit it regains up to D3 lost wounds; not for a model of a unit left standing', () => {
    const g = sandbox([{ id: 'YC', player: 0, faction: 'aeldari', name: 'The Yncarne', at: { x: 20, y: 20 } }, { ...ST, counts: [1, 1], at: { x: 21.8, y: 20 } }], { phase: 'fight', stream: scriptedStream([2]) });
    const yc = g.state.units.YC;
    const full = characteristic(g.state, yc, yc.models[0], 'W');
    g.emit({ type: 'model-damaged', unit: 'YC', model: yc.models[0].id, wounds: 5, by: 'ST', mortal: false });
    const [a, b] = g.state.units.ST.models;
    destroyModel(g, g.state.units.ST, a, 'YC', 'test');
    expect(g.state.units.YC.models[0].wounds).toBe(full - 5);
    destroyModel(g, g.state.units.ST, b, 'YC', 'test');
    expect(g.state.units.YC.models[0].wounds).toBe(full - 3);
  });

  it('Ethereal Form: the Bodyguard part of an Attached unit destroyed while its Leader lives is an enemy unit destroyed (core rules, Attached Units)', () => {
    const g = sandbox([
      { id: 'YC', player: 0, faction: 'aeldari', name: 'The Yncarne', at: { x: 20, y: 20 } },
      { ...ST, counts: [1, 1], at: { x: 21.8, y: 20 } },
      { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 21.8, y: 22 } },
    ], { phase: 'fight', stream: scriptedStream([2]) });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    const yc = g.state.units.YC;
    const full = characteristic(g.state, yc, yc.models[0], 'W');
    g.emit({ type: 'model-damaged', unit: 'YC', model: yc.models[0].id, wounds: 5, by: 'ST', mortal: false });
    for (const m of g.state.units.ST.models.filter((x) => x.origin === 'ST')) destroyModel(g, g.state.units.ST, m, 'YC', 'test');
    expect(g.state.units.ST.components.find((c) => c.unit === 'ST')!.destroyed).toBe(true);
    expect(g.state.units.ST.models.some((m) => m.alive)).toBe(true);
    // the D3 is a 2
    expect(g.state.units.YC.models[0].wounds).toBe(full - 3);
  });
});

describe('Vampire Raider', () => {
  it('Into the Foe: a unit that gets out before the Raider moves may charge this turn though it Advanced; not after the Raider moved, not from another transport', () => {
    const out = (transport: string, moved: boolean) => {
      const g = sandbox([{ id: 'VR', player: 0, faction: 'aeldari', name: transport, at: { x: 20, y: 20 } }, { ...WY, at: { x: 40, y: 5 } }]);
      g.emit({ type: 'unit-location', unit: 'WY', location: 'embarked', embarkedIn: 'VR' });
      if (moved) g.emit({ type: 'unit-moved', unit: 'VR', mode: 'normal' });
      expect(disembark(g, g.state.units.WY)).toBe(true);
      return allows(g.state, g.state.units.WY, 'charge-after-advance');
    };
    expect(out('Vampire Raider', false)).toBe(true);
    expect(out('Vampire Raider', true)).toBe(false);
    expect(out('Wave Serpent', false)).toBe(false);
  });
});

describe('Cobra', () => {
  it('D-rift: a D6 for the D-impaler\'s target and every unit within 3" of it, friendly ones too; each 5+ suffers D3 mortal wounds once the Cobra has shot', () => {
    // D6s for ST (5), S2 (2), GD (6); then D3s for ST (2) and GD (1)
    const g = sandbox([
      { id: 'CO', player: 0, faction: 'aeldari', name: 'Cobra', at: { x: 10, y: 20 } },
      { ...ST, at: { x: 40, y: 20 } },
      { ...ST, id: 'S2', at: { x: 42.5, y: 20 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 38, y: 20 }, spacing: 0.9 },
    ], { phase: 'shooting', stream: scriptedStream([5, 2, 6, 2, 1]) });
    const rule = getRule('D-rift')!;
    // no D-impaler among its targets: nothing rolled
    rule.targetsSelected!(g, g.state.units.CO, ['ST'], [{ weapon: 'Bright lance', target: 'ST' }]);
    rule.targetsSelected!(g, g.state.units.CO, ['ST'], [{ weapon: 'Bright lance', target: 'S2' }, { weapon: 'D-impaler', target: 'ST' }]);
    const wounds = (id: string) => g.state.units[id].models.reduce((n, m) => n + (m.alive ? m.wounds : 0), 0);
    const before = ['ST', 'S2', 'GD'].map(wounds);
    rule.afterShooting!(g, g.state.units.CO, [], []);
    expect(['ST', 'S2', 'GD'].map((id, i) => before[i] - wounds(id))).toEqual([2, 0, 1]);
  });
});

