/**
 * What an activation leaves behind when its own attacks rearrange the units mid-activation: a Deadly Demise
 * or a Hazardous test destroys the attacking transport (its passengers get out) or the Bodyguard part of an
 * Attached unit (the Leader is left alone). The end-of-activation bookkeeping still applies to what is left:
 * the units that lent weapons through a Firing Deck and the Leader left alone have shot (fought, and
 * consolidate), and the Leader's failed Hazardous test still hurts him. Also: PRECISION fired through a
 * Firing Deck sees from the transport, and a Deadly Demise hits only the units on the battlefield when it goes
 * off. Found by audit 16 (shooting); every test here failed on the code before its fixes (2d5d8e2).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { canShoot, eligibleToShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { modelBody, modelsSee } from '../../src/rules/battle/world.ts';

/** Take `lost` wounds off the first model of `unit` (a model already hurt before the test starts). */
function wound(g: Game, unit: string, lost: number, model = g.state.units[unit].models[0]): void {
  g.emit({ type: 'model-damaged', unit, model: model.id, wounds: lost, by: null, mortal: true });
}

/** The events of the log from `start` of a type (and, optionally, for a unit). */
function eventsOf(g: Game, start: number, type: string, unit?: string): Record<string, unknown>[] {
  return g.log!.slice(start).filter((e) => e.type === type && (unit === undefined || (e as { unit?: string }).unit === unit)) as unknown as Record<string, unknown>[];
}

/**
 * A Starweaver (1 wound left unless `unhurt`) carrying a Troupe lends one Shuriken pistol through its Firing
 * Deck and shoots a Tetra (1 wound left) 3" away. Dice: the Shuriken cannons' 6 Hit rolls miss (1s); the
 * pistol hits (4), wounds (6), the Tetra fails its save (1) and is destroyed; its Deadly Demise is a 6
 * (1 mortal wound to the Starweaver); then, when the Starweaver is destroyed, its own Deadly Demise (1) and the
 * Troupe's five rolls for getting out of a destroyed transport (3s).
 */
function starweaverVolley(unhurt: boolean) {
  const stream = scriptedStream(unhurt ? [1, 1, 1, 1, 1, 1, 4, 6, 1, 6] : [1, 1, 1, 1, 1, 1, 4, 6, 1, 6, 1, 3, 3, 3, 3, 3]);
  let lent = false;
  const pick = (r: DecisionRequest): number => {
    // lend the first Shuriken pistol offered, then no more
    if (r.kind === 'firing-deck') { if (lent) return 0; lent = true; return 1; }
    return 0;
  };
  const g = battleSandbox([
    // the Troupe before the Starweaver in the order of units, so that the Tetra's Deadly Demise passes it over
    // while it is still embarked (what the last test here checks for units after it)
    { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
    { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 22 } },
    { id: 'TT', player: 1, faction: 'tau', name: 'Tetras', counts: [1], at: { x: 26, y: 22 } },
    // out of everyone's reach for now
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 58, y: 2 } },
  ], { factions: ['AE', 'TAU'], phase: 'shooting', turn: 0, stream, agents: [scriptedAgent('ae', pick), scriptedAgent('tau')] });
  g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
  if (!unhurt) wound(g, 'SW', g.state.units.SW.models[0].wounds - 1);
  wound(g, 'TT', g.state.units.TT.models[0].wounds - 1);
  shootWithUnit(g, g.state.units.SW);
  return { g, stream };
}

/**
 * A Commander in Crisis Battlesuit (CM) leading one Crisis Shas'ui (CB), `lost` wounds off the Shas'ui, both
 * armed with a Cyclic ion blaster and firing its overcharge profile (HAZARDOUS), in the T'au Shooting phase.
 */
function commanderWithShasui(g: Game, lost: number): void {
  g.state.units.CB.models[0].weapons = ['Cyclic ion blaster'];
  g.state.units.CM.models[0].weapons = ['Cyclic ion blaster'];
  g.emit({ type: 'unit-attached', leader: 'CM', bodyguard: 'CB' });
  wound(g, 'CB', lost, g.state.units.CB.models.find((m) => m.origin === 'CB')!);
}
const overcharge = scriptedAgent('tau', (r) => (r.kind === 'shoot-target' ? Math.max(0, r.options.findIndex((o) => (o as { profile: number }).profile === 1)) : 0));

describe('mid-activation: what is left of the activating unit', () => {
  it('Firing Deck: a unit that lent a weapon is not eligible to shoot for the rest of the phase, also when the transport is destroyed during that activation and the unit gets out', () => {
    const { g, stream } = starweaverVolley(false);
    const s = g.state;
    expect(stream.remaining()).toBe(0);
    expect(rolls(g, 'deadly-demise')).toEqual([[6], [1]]);
    expect(s.units.TT.location).toBe('destroyed');
    expect(s.units.SW.location).toBe('destroyed');
    // the Troupe got out, all five of them
    expect(s.units.TR.location).toBe('battlefield');
    expect(s.units.TR.models.filter((m) => m.alive && m.pos)).toHaveLength(5);
    expect(s.units.TR.flags.shot).toBe(true);
    expect(eligibleToShoot(g, s.units.TR)).toBe(false);
    // an enemy unit 6" away, in range of the Troupe's Shuriken pistols: still not selectable to shoot
    const tr = s.units.TR.models.find((m) => m.alive && m.pos)!.pos!;
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: [{ model: s.units.ST.models[0].id, pos: { x: tr.x + 6, y: tr.y, z: 0 } }] });
    expect(canShoot(g, g.state.units.TR)).toBe(false);

    // control: the same volley with the Starweaver unhurt (the Tetra's Deadly Demise leaves it 5 wounds): the
    // Troupe stays embarked and is flagged as having shot (so before the fix too)
    const control = starweaverVolley(true);
    const cs = control.g.state;
    expect(control.stream.remaining()).toBe(0);
    expect(cs.units.SW.location).toBe('battlefield');
    expect(cs.units.SW.models[0].wounds).toBe(5);
    expect(cs.units.TR.location).toBe('embarked');
    expect(cs.units.TR.flags.shot).toBe(true);
  });

  it('Attached unit: the Leader left alone when its Bodyguard part is destroyed by the unit\'s own Hazardous test has shot, and cannot shoot again this phase', () => {
    // each blaster's 3 Hit rolls miss and are re-rolled (Crisis Commander: re-roll 1s), missing again; the
    // Hazardous tests are 1 (3 mortal wounds to the wounded Shas'ui: destroyed) and 3
    const stream = scriptedStream([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
    const g = battleSandbox([
      { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', counts: [0, 1], at: { x: 20, y: 20 } },
      { id: 'CM', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 20, y: 22.5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 14 } },
    ], { factions: ['TAU', 'AE'], phase: 'shooting', turn: 0, stream, agents: [overcharge, scriptedAgent('ae')] });
    commanderWithShasui(g, 2);
    shootWithUnit(g, g.state.units.CB);
    const s = g.state;
    expect(stream.remaining()).toBe(0);
    expect(rolls(g, 'hazardous')).toEqual([[1], [3]]);
    expect(s.units.CB.location).toBe('destroyed');
    expect(s.units.CM.location).toBe('battlefield');
    expect(s.units.CM.models[0].wounds).toBe(5);
    expect(s.units.CM.flags.shot).toBe(true);
    // the Guardians are 13" away, in range of his Cyclic ion blaster
    expect(canShoot(g, s.units.CM)).toBe(false);
  });

  it('Attached unit in the Fight phase: the Leader left alone when its Bodyguard part is destroyed by the Deadly Demise of the unit it fought has fought, and makes the Consolidation move', () => {
    // the Shas'ui's Battlesuit fists: Hit rolls 6, 1, 1; Wound roll 5; the Vyper's save 1 (destroyed); its
    // Deadly Demise 6: 1 mortal wound to the Shas'ui (1 wound left): destroyed. The Commander has nothing left to hit.
    const stream = scriptedStream([6, 1, 1, 5, 1, 6]);
    const g = battleSandbox([
      { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', counts: [0, 1], at: { x: 20, y: 20 } },
      { id: 'CM', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 20, y: 22.3 } },
      { id: 'VY', player: 1, faction: 'aeldari', name: 'Vypers', at: { x: 22.6, y: 21.2 } },
    ], {
      factions: ['TAU', 'AE'], phase: 'fight', turn: 0, stream, agents: [scriptedAgent('tau'), scriptedAgent('ae')],
      // no enemy left nearby after the fight: the Consolidation goes 3" toward this marker
      objectives: [{ id: 'o1', pos: { x: 14, y: 22.3 } }],
    });
    g.state.units.CB.models[0].weapons = ['Battlesuit fists'];
    g.state.units.CM.models[0].weapons = ['Battlesuit fists'];
    g.state.units.VY.models[0].weapons = [];
    g.emit({ type: 'unit-attached', leader: 'CM', bodyguard: 'CB' });
    wound(g, 'CB', 3, g.state.units.CB.models.find((m) => m.origin === 'CB')!);
    wound(g, 'VY', g.state.units.VY.models[0].wounds - 1);
    g.emit({ type: 'unit-flag', unit: 'CB', flag: 'charged', value: true });
    const start = g.log!.length;
    fight(g, g.state.units.CB);
    const s = g.state;
    expect(stream.remaining()).toBe(0);
    expect(s.units.VY.location).toBe('destroyed');
    expect(s.units.CB.location).toBe('destroyed');
    expect(s.units.CM.location).toBe('battlefield');
    expect(s.units.CM.flags.charged).toBe(true);
    // fought: the Fight phase does not offer him again (eligible: not fought, and charged or engaged)
    expect(s.units.CM.flags.fought).toBe(true);
    const moves = eventsOf(g, start, 'models-placed', 'CM');
    expect(moves.map((e) => e.mode)).toEqual(['consolidate']);
    const pos = s.units.CM.models[0].pos!;
    expect(pos.x).toBeCloseTo(17, 6);
    expect(pos.y).toBeCloseTo(22.3, 6);
  });

  it('Hazardous: the Leader left alone when the Deadly Demise of the unit\'s target destroys its Bodyguard part suffers 3 mortal wounds for his failed test', () => {
    // the Shas'ui's blaster: Hit rolls 4, 1, 1 (the 1s re-rolled: 1, 1); Wound roll 3; the Tetra's save 1: destroyed
    // (1 wound left); its Deadly Demise 6: 1 mortal wound to the Shas'ui (1 wound left): destroyed. The
    // Commander's blaster has no target left. Both blasters had their target selected, so both owe a Hazardous
    // test, the slain Shas'ui's too (each blaster its own group): 4, then 1, which falls on the Commander, the carrier left.
    const stream = scriptedStream([4, 1, 1, 1, 1, 3, 1, 6, 4, 1]);
    const g = battleSandbox([
      { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', counts: [0, 1], at: { x: 20, y: 20 } },
      { id: 'CM', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 20, y: 22.5 } },
      { id: 'TT', player: 1, faction: 'tau', name: 'Tetras', counts: [1], at: { x: 25, y: 21 } },
    ], { factions: ['TAU', 'AE'], phase: 'shooting', turn: 0, stream, agents: [overcharge, scriptedAgent('ae')] });
    commanderWithShasui(g, 3);
    wound(g, 'TT', g.state.units.TT.models[0].wounds - 1);
    shootWithUnit(g, g.state.units.CB);
    const s = g.state;
    expect(stream.remaining()).toBe(0);
    expect(rolls(g, 'deadly-demise')).toEqual([[6]]);
    expect(rolls(g, 'hazardous')).toEqual([[4], [1]]);
    expect(s.units.TT.location).toBe('destroyed');
    expect(s.units.CB.location).toBe('destroyed');
    expect(s.units.CM.location).toBe('battlefield');
    expect(s.units.CM.models[0].wounds).toBe(5 - 3);
  });
});

describe('mid-activation: who is hit', () => {
  it('PRECISION through a Firing Deck: an attack is not allocated to a CHARACTER the transport cannot see', () => {
    // the Longshot pulse rifles (lent by an embarked Firesight Team): Hit rolls 4, 1, 1; Wound roll 4; save 1
    const stream = scriptedStream([4, 1, 1, 4, 1]);
    let lent = false;
    const pick = (r: DecisionRequest): number => {
      if (r.kind === 'firing-deck') { if (lent) return 0; lent = true; return r.options.findIndex((o) => (o as { weapon?: string }).weapon === 'Longshot pulse rifles'); }
      return 0;
    };
    // the Farseer stands behind this wall, the Guardians in the open
    const wall = { id: 'w', kind: 'wall' as const, polygon: [{ x: 33, y: 27 }, { x: 33.3, y: 27 }, { x: 33.3, y: 40 }, { x: 33, y: 40 }], height: 5 };
    const g = battleSandbox([
      { id: 'TW', player: 0, faction: 'tau', name: 'Tidewall Droneport', at: { x: 15, y: 22 } },
      { id: 'FS', player: 0, faction: 'tau', name: 'Firesight Team', at: { x: 2, y: 42 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 36, y: 8 }, spacing: 1.5 },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 36, y: 34 } },
    ], { factions: ['TAU', 'AE'], phase: 'shooting', turn: 0, stream, agents: [scriptedAgent('tau', pick), scriptedAgent('ae')], terrain: [wall] });
    g.emit({ type: 'unit-location', unit: 'FS', location: 'embarked', embarkedIn: 'TW' });
    // the Droneport's own guns stay quiet: only the lent rifles shoot
    g.state.units.TW.models[0].weapons = [];
    g.emit({ type: 'unit-attached', leader: 'FA', bodyguard: 'GD' });
    const s = g.state;
    const droneport = modelBody(s, s.units.TW.models[0]);
    const farseer = s.units.GD.models.find((m) => m.origin === 'FA')!;
    const platform = s.units.GD.models.find((m) => m.origin === 'GD' && s.datasheets[m.datasheet].models[m.profile].name === 'Heavy Weapon Platform')!;
    expect(modelsSee(s, droneport, 'tw', modelBody(s, farseer), farseer.id)).toBe(false);
    expect(s.units.GD.models.filter((m) => m.origin === 'GD').every((m) => modelsSee(s, droneport, 'tw', modelBody(s, m), m.id))).toBe(true);
    const start = g.log!.length;
    shootWithUnit(g, s.units.TW);
    expect(stream.remaining()).toBe(0);
    expect(eventsOf(g, start, 'attack-allocated', 'GD').map((e) => e.model)).toEqual([platform.id]);
    expect(farseer.alive).toBe(true);
    expect(g.state.units.GD.models.find((m) => m.id === farseer.id)!.wounds).toBe(4);
    // the wounded model is the Heavy Weapon Platform (2 wounds, Damage 2): destroyed
    expect(g.state.units.GD.models.find((m) => m.id === platform.id)!.alive).toBe(false);
  });

  it('Deadly Demise: a transport\'s passengers, embarked when it goes off, take none of its mortal wounds when its explosion destroys their transport and they get out', () => {
    // Devilfish A's Deadly Demise: 6, then D3 = 2 mortal wounds to Devilfish B (1 wound left): destroyed; B's
    // own Deadly Demise: 1; the Strike Team's five rolls for getting out of a destroyed transport: 3s. One more
    // die (3) that the explosion must not use for the Strike Team.
    const stream = scriptedStream([6, 2, 1, 3, 3, 3, 3, 3, 3]);
    const g = battleSandbox([
      { id: 'DA', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 14 } },
      { id: 'DB', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 22 } },
      // after both Devilfish in the order of units
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 2, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 20 } },
    ], { factions: ['TAU', 'AE'], phase: 'shooting', turn: 1, stream, agents: [scriptedAgent('tau'), scriptedAgent('ae')] });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DB' });
    wound(g, 'DB', g.state.units.DB.models[0].wounds - 1);
    const start = g.log!.length;
    destroyModel(g, g.state.units.DA, g.state.units.DA.models[0], 'GD', 'test');
    const s = g.state;
    expect(rolls(g, 'deadly-demise')).toEqual([[6], [1]]);
    expect(s.units.DB.location).toBe('destroyed');
    expect(s.units.ST.location).toBe('battlefield');
    // one D3 for the explosion's mortal wounds: Devilfish B's, none for the Strike Team
    expect(rolls(g, 'mortal-wounds')).toEqual([[2]]);
    expect(eventsOf(g, start, 'model-damaged', 'ST')).toEqual([]);
    expect(s.units.ST.models.filter((m) => m.alive)).toHaveLength(5);
    expect(stream.remaining()).toBe(1);
  });
});
