/**
 * T'au rules at the edges audit 19's mutation testing found no test at (tmp/audit19-mutation-tau/FINDINGS.md): a
 * worse AP never past 0 for a ranged AP 0 attack (Enforcer Commander), REACTIVE IMPACT DAMPENERS at Strength
 * equal to Toughness, THE ARRO'KON PROTOCOL against 10 models, GRAV-INHIBITOR FIELD's D6s of 5, ranges, costs and
 * targets at their edges (the Supernova Launcher's weapon: tau-enhancements.test.ts). Each test fails on the
 * mutant that played the rule wrong.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { saveNeeded } from '../../src/rules/attack-plan.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { offeredUnits } from '../helpers/stratagems.ts';
import { unitDistance, unitSees } from '../../src/rules/battle/world.ts';
import { guidanceOptions } from '../../src/factions/tau/army-rule.ts';
import { neocapacitorTargets } from '../../src/factions/tau/more-abilities.ts';
import { battleShockStep } from '../../src/rules/battle/command.ts';

/** Use the stratagem `name` when offered; every other request: the first option. */
const using = (name: string) => (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : 0);

function sandbox(units: PlacedUnit[], detachment: string | null, opts: { turn?: 0 | 1; phase?: 'shooting' | 'charge' | 'fight'; dice?: number[]; pick?: (r: DecisionRequest) => number } = {}): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [3, 3], detachments: [detachment, 'Battle Host'],
    agents: [scriptedAgent('tau', opts.pick ?? (() => 0)), scriptedAgent('ae')], ...(opts.dice ? { stream: scriptedStream(opts.dice) } : {}),
  });
}

const CS: PlacedUnit = { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Starscythe Battlesuits', at: { x: 10, y: 5 } };
const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 }, spacing: 0.9 };

/** A Guardian armed with a Scatter laser (S5 AP 0; the Heavy Weapon Platform's option), as a test's attacker. */
function scatterLaser(g: Game): void {
  g.state.units.GD.models[0].weapons = ['Scatter laser', 'Close combat weapon'];
}

describe('Enforcer Commander', () => {
  it('a ranged AP 0 attack (a Scatter laser) at the unit he leads stays AP 0: never worsened past 0', () => {
    const g = sandbox([
      { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 10, y: 5 } },
      { id: 'LD', player: 0, faction: 'tau', name: 'Commander In Enforcer Battlesuit', at: { x: 12, y: 8 } },
      GD,
    ], null);
    g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'FK' });
    scatterLaser(g);
    const p = planFor(g, 'GD', 'FK', 'Scatter laser');
    expect(p.ap).toBe(0);
    expect(saveNeeded(p, 3, null)).toBe(3);
  });
});

describe('REACTIVE IMPACT DAMPENERS (Experimental Prototype Cadre)', () => {
  it('an attack whose Strength equals the Toughness (a Scatter laser, S5, at T5 Crisis suits) is not affected; S6 is', () => {
    const g = sandbox([CS, GD], 'Experimental Prototype Cadre', { turn: 1, pick: using('REACTIVE IMPACT DAMPENERS') });
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['CS'] };
    expect(openWindow(g, w)).toContain('REACTIVE IMPACT DAMPENERS');
    const cannon = planFor(g, 'GD', 'CS', 'Shuriken cannon');
    scatterLaser(g);
    const laser = planFor(g, 'GD', 'CS', 'Scatter laser');
    expect([laser.strength, laser.toughness, laser.woundModifier]).toEqual([5, 5, 0]);
    expect([cannon.strength, cannon.woundModifier]).toEqual([6, -1]);
  });
});

describe('Retaliation Cadre', () => {
  it("THE ARRO'KON PROTOCOL: SUSTAINED HITS 1 against a unit of 10 models (2 only from 11)", () => {
    const g = sandbox([CS, { id: 'D10', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 25 }, counts: [1, 9] }], 'Retaliation Cadre', { pick: using("THE ARRO'KON PROTOCOL") });
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'CS', targets: [] })).toContain("THE ARRO'KON PROTOCOL");
    expect(g.state.units.D10.models.filter((m) => m.alive)).toHaveLength(10);
    expect(planFor(g, 'CS', 'D10', 'Burst cannon').sustainedHits).toBe(1);
  });

  it('GRAV-INHIBITOR FIELD: only a 6 is a mortal wound (D6s of 6, 5 and 5: one)', () => {
    // the Battle-shock test 1+1 fails; then eleven D6, one 6 and two 5s
    const g = sandbox([CS, GD], 'Retaliation Cadre', { phase: 'charge', turn: 1, dice: [1, 1, 6, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1], pick: using('GRAV-INHIBITOR FIELD') });
    const before = g.state.units.GD.models.reduce((n, m) => n + m.wounds, 0);
    expect(openWindow(g, { name: 'charge/after-enemy-charge-declared', unit: 'GD', targets: ['CS'] })).toContain('GRAV-INHIBITOR FIELD');
    expect(g.state.units.GD.models.reduce((n, m) => n + (m.alive ? m.wounds : 0), 0)).toBe(before - 1);
  });
});

describe('Kroot Hunting Pack distances', () => {
  const KC: PlacedUnit = { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 8 }, spacing: 0.9 };

  it('EMP GRENADES: a KROOT GRENADES unit 7" from the enemy VEHICLE is offered it; at 10" it is not', () => {
    const WS: PlacedUnit = { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 34, y: 10 } };
    const ST: PlacedUnit = { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 32 }, spacing: 0.9 };
    for (const [gap, offered] of [[7, ['KC']], [10, []]] as const) {
      const g = sandbox([KC, ST, WS], 'Kroot Hunting Pack', { turn: 1 });
      setGap(g, 'KC', 'WS', gap);
      expect(unitDistance(g.state, g.state.units.KC, g.state.units.WS)).toBeCloseTo(gap, 2);
      expect(offeredUnits(g, { name: 'shooting/after-enemy-targets', unit: 'WS', targets: ['ST'] }, 0, 'EMP GRENADES'), `${gap}"`).toEqual(offered);
    }
  });

  it('THE GRISLY FEAST: an enemy unit 5.5" from the Kroot tests in its next Command phase; one 8" away does not', () => {
    for (const [gap, tested] of [[5.5, 1], [8, 0]] as const) {
      const g = sandbox([KC, { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 8 }, spacing: 0.9 }], 'Kroot Hunting Pack', { phase: 'fight', pick: using('THE GRISLY FEAST') });
      setGap(g, 'DA', 'KC', gap);
      expect(unitDistance(g.state, g.state.units.DA, g.state.units.KC)).toBeCloseTo(gap, 2);
      expect(openWindow(g, { name: 'fight/after-enemy-fought', unit: 'KC', targets: [], data: { destroyed: ['X'] } })).toEqual(['THE GRISLY FEAST']);
      battleShockStep(g, 1);
      expect((g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'battle-shock').length, `${gap}"`).toBe(tested);
    }
  });
});

describe('stratagem costs and targets at their edges', () => {
  it("COUNTERFIRE DEFENCE SYSTEMS (Mont'ka) costs 2CP: not offered with 1CP; used with 2CP, it leaves 0", () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['CS'] };
    const poor = sandbox([CS, GD], "Mont'ka", { turn: 1 });
    poor.state.players[0].cp = 1;
    expect(offeredUnits(poor, w, 0, 'COUNTERFIRE DEFENCE SYSTEMS')).toEqual([]);
    const g = sandbox([CS, GD], "Mont'ka", { turn: 1, pick: using('COUNTERFIRE DEFENCE SYSTEMS') });
    g.state.players[0].cp = 2;
    expect(openWindow(g, w)).toContain('COUNTERFIRE DEFENCE SYSTEMS');
    expect(g.state.players[0].cp).toBe(0);
  });

  it('NEUROWEB SYSTEM JAMMER (Experimental Prototype Cadre) targets a CRISIS unit: a targeted Broadside (BATTLESUIT, not CRISIS) is not offered it', () => {
    const BS: PlacedUnit = { id: 'BS', player: 0, faction: 'tau', name: 'Broadside Battlesuits', at: { x: 10, y: 25 } };
    const g = sandbox([CS, BS, GD], 'Experimental Prototype Cadre', { turn: 1 });
    expect(g.state.units.BS.keywords).toContain('BATTLESUIT');
    expect(offeredUnits(g, { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['BS', 'CS'] }, 0, 'NEUROWEB SYSTEM JAMMER')).toEqual(['CS']);
  });
});

describe('For the Greater Good: the Spotted unit is visible to both units', () => {
  it('a Strike Team behind a wall from the Guardians may observe only the Dire Avengers it sees too', () => {
    const WALL = { id: 'wall', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 20.5, y: 0 }, { x: 20.5, y: 26 }, { x: 20, y: 26 }], height: 6 };
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 3, y: 5 }, spacing: 0.9 },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 47, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 12, y: 38 }, spacing: 0.9 },
    ], { phase: 'shooting', round: 1, terrain: [WALL] });
    const s = g.state;
    expect([unitSees(s, s.units.ST, s.units.GD), unitSees(s, s.units.BT, s.units.GD)]).toEqual([false, true]);
    expect([unitSees(s, s.units.ST, s.units.DA), unitSees(s, s.units.BT, s.units.DA)]).toEqual([true, true]);
    expect(guidanceOptions(g, s.units.BT).map((o) => `${o.observer}>${o.spotted}`)).toEqual(['ST>DA']);
  });
});

describe('Neocapacitor Shields (The Twin Lance)', () => {
  it('an enemy INFANTRY unit 10" away may be chosen (the range is 12"); one 13" away may not', () => {
    for (const [gap, chosen] of [[10, ['GD']], [13, []]] as const) {
      const g = sandbox([{ id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 10, y: 20 } }, { ...GD, at: { x: 30, y: 20 } }], null, { turn: 1 });
      setGap(g, 'GD', 'TL', gap);
      expect(unitDistance(g.state, g.state.units.GD, g.state.units.TL)).toBeCloseTo(gap, 2);
      expect(neocapacitorTargets(g.state, g.state.units.TL).map((u) => u.id), `${gap}"`).toEqual(chosen);
    }
  });
});
