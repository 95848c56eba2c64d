/**
 * FIRE OVERWATCH: "WHEN: Your opponent's Movement or Charge phase, just after an enemy unit is set up or when
 * an enemy unit starts or ends a Normal, Advance or Fall Back move, or declares a charge. TARGET: One unit from
 * your army that is within 24" of that enemy unit and that would be eligible to shoot if it were your Shooting
 * phase. EFFECT: If that enemy unit is visible to your unit, your unit can shoot that enemy unit as if it were
 * your Shooting phase."
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { Stream } from '../../src/core/rng.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { moveUnit } from '../../src/rules/battle/movement.ts';
import { canShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { isEngaged, unitSees } from '../../src/rules/battle/world.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';

/** The (stratagem, target unit) pairs `player` could use in the window now. */
const usable = (g: Game, w: Window, player: 0 | 1) => usableStratagems(g, w, player).map((u) => `${u.s.name}:${u.unit.id}`);

describe('FIRE OVERWATCH just after an enemy unit is set up by disembarking', () => {
  /**
   * The T'au Breachers, embarked within a Devilfish, disembark (are set up wholly within 3" of it) in their
   * Movement phase; the Guardian Defenders 12" away pass or, `useOverwatch`, use FIRE OVERWATCH when offered.
   */
  function disembarkBreachers(transportMoved: boolean, useOverwatch: boolean) {
    const offers: string[] = [];
    const tau = (req: DecisionRequest) => {
      if (req.kind === 'move' && req.context?.unit === 'BT') return Math.max(0, (req.options as { mode: string }[]).findIndex((o) => o.mode === 'disembark'));
      return 0;
    };
    const aeldari = (req: DecisionRequest) => {
      // offers in windows only (not COMMAND RE-ROLL's, after a roll)
      const window = (req.context as { window?: Window } | undefined)?.window?.name;
      if (req.kind !== 'stratagem' || !window) return 0;
      const options = req.options as { stratagem?: string; unit?: string }[];
      for (const o of options) if (o.stratagem) offers.push(`${o.stratagem}:${o.unit}@${window}`);
      return useOverwatch ? Math.max(0, options.findIndex((o) => o.stratagem === 'FIRE OVERWATCH')) : 0;
    };
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 50, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 32, y: 20 } },
    ], { phase: 'movement', turn: 0, round: 2, cp: [3, 3], agents: [scriptedAgent('tau', tau), scriptedAgent('ae', aeldari)] });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    if (transportMoved) g.emit({ type: 'unit-moved', unit: 'DF', mode: 'normal' });
    moveUnit(g, g.state.units.BT);
    return { g, offers };
  }

  it('is offered once the unit is set up after its transport moved (the unit moves no further)', () => {
    const { g, offers } = disembarkBreachers(true, false);
    expect(g.state.units.BT.location).toBe('battlefield');
    expect(g.state.units.BT.flags.moved).toBe('disembarked');
    expect(offers).toEqual(['FIRE OVERWATCH:GD@movement/after-enemy-move']);
  });

  it('used, the Guardians shoot the Breachers just set up, for 1 CP', () => {
    const { g } = disembarkBreachers(true, true);
    expect(g.state.players[1].stratagemsUsed.map((u) => u.name)).toEqual(['FIRE OVERWATCH']);
    expect(g.state.players[1].cp).toBe(2);
    expect(g.log!.some((e) => e.type === 'dice' && e.purpose === 'hit' && e.unit === 'GD')).toBe(true);
    expect(g.state.units.GD.flags.shot).toBe(true);
  });
});

describe('FIRE OVERWATCH needs the enemy unit to be visible to the unit', () => {
  // a wall 20" high between the D-cannon Platform and the Strike Team
  const wall = { id: 'w', kind: 'wall' as const, polygon: [{ x: 29, y: 5 }, { x: 30, y: 5 }, { x: 30, y: 40 }, { x: 29, y: 40 }], height: 20 };
  const ended: Window = { name: 'movement/after-enemy-move', unit: 'ST', targets: [] };

  /** A D-cannon Platform (its INDIRECT FIRE D-cannon only) 18" from a Strike Team that ends a move; the Aeldari use any stratagem offered. */
  function platform(walled: boolean) {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 18 } },
      { id: 'DC', player: 1, faction: 'aeldari', name: 'D-cannon Platform', at: { x: 38, y: 20 } },
    ], {
      phase: 'movement', turn: 0, round: 2, cp: [3, 3], terrain: walled ? [wall] : [],
      agents: [scriptedAgent('tau'), scriptedAgent('ae', (r) => (r.kind === 'stratagem' ? 1 : 0))], stream: scriptedStream(Array(50).fill(3)),
    });
    for (const m of g.state.units.DC.models) m.weapons = m.weapons.filter((w) => w === 'D-cannon' || w === 'Close combat weapon');
    return g;
  }

  it('is not offered to an INDIRECT FIRE unit that cannot see the enemy unit, though in its Shooting phase it could shoot it', () => {
    const g = platform(true);
    expect(unitSees(g.state, g.state.units.DC, g.state.units.ST)).toBe(false);
    expect(canShoot(g, g.state.units.DC, 'ST')).toBe(true);
    expect(usable(g, ended, 1)).toEqual([]);
    // the window opened, nothing is shot and no CP spent
    const alive = g.state.units.ST.models.filter((m) => m.alive).length;
    openWindow(g, ended);
    expect(g.log!.filter((e) => e.type === 'dice' && e.unit === 'DC')).toEqual([]);
    expect(g.state.units.ST.models.filter((m) => m.alive).length).toBe(alive);
    expect(g.state.players[1].cp).toBe(3);
  });

  it('is offered to the same unit when it sees the enemy unit', () => {
    const g = platform(false);
    expect(unitSees(g.state, g.state.units.DC, g.state.units.ST)).toBe(true);
    expect(usable(g, ended, 1)).toEqual(['FIRE OVERWATCH:DC']);
  });
});

describe('FIRE OVERWATCH by a unit within Engagement Range: as eligible to shoot as in a Shooting phase', () => {
  it('a VEHICLE (Big Guns Never Tire) engaged with one enemy unit may fire at another that ends a move within 24"', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 20, y: 25.2 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 34, y: 16 } },
    ], { factions: ['TAU', 'AE'], phase: 'movement', turn: 1, round: 2, cp: [3, 3] });
    setGap(g, 'GD', 'DF', 0.5);
    expect(isEngaged(g.state, g.state.units.DF)).toBe(true);
    expect(usable(g, { name: 'movement/after-enemy-move', unit: 'DA', targets: [] }, 0)).toEqual(['FIRE OVERWATCH:DF']);
  });

  /** A Strike Team (Pulse pistols) 0.5" from a lone Guardian; the Dire Avengers 10" away. */
  function engagedStrikeTeam() {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 18 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 23, y: 18 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 34, y: 10 } },
    ], { factions: ['TAU', 'AE'], phase: 'movement', turn: 1, round: 2, cp: [3, 3] });
    setGap(g, 'GD', 'ST', 0.5);
    expect(isEngaged(g.state, g.state.units.ST)).toBe(true);
    return g;
  }

  it('a unit with Pistols may fire them at the enemy unit it is engaged with as that unit starts to Fall Back', () => {
    const g = engagedStrikeTeam();
    expect(usable(g, { name: 'movement/enemy-move-started', unit: 'GD', targets: [], data: { mode: 'fall-back', to: { x: 40, y: 18 } } }, 0)).toEqual(['FIRE OVERWATCH:ST']);
  });

  it('but not at another enemy unit (its Pistols may target only the units it is engaged with)', () => {
    const g = engagedStrikeTeam();
    expect(usable(g, { name: 'movement/after-enemy-move', unit: 'DA', targets: [] }, 0)).toEqual([]);
  });
});

describe('FIRE OVERWATCH in the Charge phase: the Hazardous tests\' mortal wounds wait for the end of the Charge move', () => {
  /**
   * Guardian Defenders charge a Y'vahra; it overwatches with the Ionic discharge cannon's overcharge profile
   * (HAZARDOUS). Every die is a 1: no hit, the Hazardous test fails (3 mortal wounds), the Charge roll is 2.
   */
  const ones: Stream = { next: () => 0, die: () => 1, int: () => 0, state: () => ({ c: 0, s0: 0, s1: 0, s2: 0 }) };
  const tau = scriptedAgent('tau', (r: DecisionRequest) => {
    const options = r.options as { stratagem?: string; weapon?: string; profile?: number }[];
    if (r.kind === 'stratagem') return Math.max(0, options.findIndex((o) => o.stratagem === 'FIRE OVERWATCH'));
    if (r.kind === 'shoot-target') return Math.max(0, options.findIndex((o) => o.weapon === 'Ionic discharge cannon' && o.profile === 1));
    return 0;
  });
  const charge = (gap: number) => {
    const g = battleSandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 14 } },
      { id: 'Y', player: 1, faction: 'tau', name: "Y'vahra Battlesuit", at: { x: 30, y: 20 } },
    ], { factions: ['AE', 'TAU'], phase: 'charge', turn: 0, round: 2, cp: [3, 3], agents: [scriptedAgent('ae'), tau], stream: ones });
    setGap(g, 'GD', 'Y', gap);
    const wounds = g.state.units.Y.models[0].wounds;
    const made = declareCharge(g, g.state.units.GD, { targets: ['Y'] });
    const log = g.log!;
    const at = (pred: (e: (typeof log)[number]) => boolean) => log.findIndex(pred);
    return {
      made, lost: wounds - g.state.units.Y.models[0].wounds, overwatched: g.state.players[1].cp === 2,
      test: at((e) => e.type === 'dice' && e.purpose === 'hazardous'),
      wounded: at((e) => e.type === 'model-damaged' && (e as { unit: string }).unit === 'Y'),
      roll: at((e) => e.type === 'dice' && e.purpose === 'charge'),
      move: at((e) => e.type === 'models-placed' && (e as { unit: string; mode: string }).unit === 'GD' && (e as { mode: string }).mode === 'charge'),
    };
  };

  it('a charge that is made: the test is taken as the unit has shot, the 3 mortal wounds come after the Charge move', () => {
    const r = charge(1.5);
    expect([r.overwatched, r.made, r.lost]).toEqual([true, true, 3]);
    expect(r.test).toBeGreaterThan(0);
    expect(r.test).toBeLessThan(r.roll);
    expect(r.move).toBeGreaterThan(r.roll);
    expect(r.wounded).toBeGreaterThan(r.move);
  });

  it('a charge that fails: the mortal wounds are allocated all the same, once the charge is over', () => {
    const r = charge(5);
    expect([r.overwatched, r.made, r.move, r.lost]).toEqual([true, false, -1, 3]);
    expect(r.wounded).toBeGreaterThan(r.roll);
    expect(r.test).toBeLessThan(r.roll);
  });
});

describe('FIRE OVERWATCH by a unit that shot earlier in the turn: eligible "if it were your Shooting phase"', () => {
  it('a unit that shot in the opponent\'s Shooting phase (a rule let it: DEATH ANSWERS DEATH, Drone Escort ...) may fire at a unit charging it', () => {
    const g = battleSandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 10 }, spacing: 0.9 },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 28, y: 10 }, spacing: 0.9 },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', turn: 1, round: 2, cp: [3, 3], stream: scriptedStream(Array(200).fill(1)) });
    // the T'au player's Shooting phase: the Guardians shoot the Strike Team, as a reaction would make them
    shootWithUnit(g, g.state.units.GD, { onlyTarget: 'ST' });
    expect(g.state.units.GD.flags.shot).toBe(true);
    // their Charge phase: the Strike Team declares a charge at the Guardians
    g.emit({ type: 'phase-started', round: 2, phase: 'charge', player: 1 });
    expect(usable(g, { name: 'charge/after-enemy-charge-declared', unit: 'ST', targets: ['GD'] }, 0)).toEqual(['FIRE OVERWATCH:GD']);
  });
});
