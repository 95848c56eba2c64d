/**
 * A destroyed transport's passengers (10th edition core rules, Transports):
 * - disembarking from a destroyed TRANSPORT: set up wholly within 3", then roll one D6 per disembarking model,
 *   "that unit suffers 1 mortal wound for each roll of 1";
 * - Emergency Disembarkation: when it cannot be set up wholly within 3", it is set up wholly within 6"
 *   (1 mortal wound per roll of 1-3); only a model that still cannot be set up is destroyed;
 * - the units that get out are Battle-shocked until the start of their player's next Command phase.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { movementBody } from '../../src/rules/battle/movement.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { inflictMortalWounds } from '../../src/rules/damage.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { commandPhase } from '../../src/rules/battle/command.ts';

/** Impassable walls 4" thick round the Devilfish's pocket at (30, 22): nothing within 3" of its base, open ground 4.1"-6" away. */
function ringWalls() {
  const rect = (x0: number, y0: number, x1: number, y1: number) => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
  return [rect(24.7, 16.7, 28.7, 27.3), rect(31.3, 16.7, 35.3, 27.3), rect(28.7, 16.7, 31.3, 20.7), rect(28.7, 23.3, 31.3, 27.3)]
    .map((polygon, i) => ({ id: `w${i}`, kind: 'impassable' as const, polygon, height: 5 }));
}

describe('destroyed transport passengers', () => {
  it('a roll of 1 inflicts 1 mortal wound on the unit (a W3 Cadre Fireblade loses one wound, it is not slain)', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 40, y: 5 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 35 } },
    ], { phase: 'shooting', stream: scriptedStream([/* Deadly Demise */ 1, /* passenger */ 1, 3, 3, 3]) });
    g.emit({ type: 'unit-location', unit: 'CF', location: 'embarked', embarkedIn: 'DF' });
    const cf = g.state.units.CF.models[0];
    const maxW = cf.wounds;
    expect(maxW).toBeGreaterThan(1);
    inflictMortalWounds(g, g.state.units.DF, 30, null);
    expect(g.state.units.DF.location).toBe('destroyed');
    // 1 mortal wound: still alive with a wound fewer (the engine had destroyed the model)
    expect(g.state.units.CF.location).toBe('battlefield');
    expect(g.state.units.CF.models[0].alive).toBe(true);
    expect(g.state.units.CF.models[0].wounds).toBe(maxW - 1);
  });

  it('no room wholly within 3": Emergency Disembarkation wholly within 6" (the unit is not destroyed outright)', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 22 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 50, y: 5 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 35 } },
    ], { phase: 'shooting', terrain: ringWalls(), stream: scriptedStream([/* Deadly Demise */ 1, /* passenger: 4, passes even 1-3 */ 4, 4, 4, 4]) });
    g.emit({ type: 'unit-location', unit: 'CF', location: 'embarked', embarkedIn: 'DF' });
    const hullBody = modelBody(g.state, g.state.units.DF.models[0]);
    inflictMortalWounds(g, g.state.units.DF, 30, null);
    expect(g.state.units.DF.location).toBe('destroyed');
    // set up wholly within 6" (the engine had destroyed it: "could not disembark from a destroyed transport")
    expect(g.state.units.CF.location).toBe('battlefield');
    const m = g.state.units.CF.models[0];
    const body = modelBody(g.state, m);
    const r = body.base.kind === 'circle' ? body.base.r : 0;
    // wholly within 6": the model's far edge within 6" of the hull
    expect(horizontalDistance(body, hullBody) + 2 * r).toBeLessThanOrEqual(6 + 1e-6);
  });

  it('Emergency Disembarkation with room for only some models: those set up live, only the others are destroyed (the player picks them)', () => {
    // the ring's walls, with open ground only in an alcove 2" x 4" east of the Devilfish (x 34.4-36.4, y 20-24)
    const rect = (x0: number, y0: number, x1: number, y1: number) => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
    const walls = [rect(22, 14, 28.7, 30), rect(31.3, 14, 34.4, 30), rect(36.4, 14, 38, 30), rect(28.7, 14, 31.3, 20.7), rect(28.7, 23.3, 31.3, 30),
      rect(34.4, 14, 36.4, 20), rect(34.4, 24, 36.4, 30)].map((polygon, i) => ({ id: `w${i}`, kind: 'impassable' as const, polygon, height: 5 }));
    const passengers = (fireWarriors: number) => {
      const picked: string[] = [];
      const g = battleSandbox([
        { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 22 } },
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, fireWarriors - 1], at: { x: 50, y: 2 } },
        { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 35 } },
      ], {
        phase: 'shooting', terrain: walls, stream: scriptedStream([/* Deadly Demise */ 1, ...new Array(20).fill(6)]),
        agents: [{ name: 'picks', decide: (_v, r) => { if (r.kind === 'select-casualty') picked.push((r.options[0] as { model: string }).model); return { option: 0 }; } }, { name: 'ae', decide: () => ({ option: 0 }) }],
      });
      g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
      inflictMortalWounds(g, g.state.units.DF, 30, null);
      const st = g.state.units.ST;
      return { set: st.models.filter((m) => m.alive && m.pos).length, alive: st.models.filter((m) => m.alive).length, picked, location: st.location };
    };
    // four fit in the alcove
    expect(passengers(4)).toEqual({ set: 4, alive: 4, picked: [], location: 'battlefield' });
    const ten = passengers(10);
    expect(ten.location).toBe('battlefield');
    expect(ten.set).toBe(4);
    expect(ten.alive).toBe(4);
    // the player selected each of the six models destroyed
    expect(ten.picked.length).toBe(6);
  });

  it('in their own turn the passengers cannot Remain Stationary, and after the transport\'s move they count as having made a Normal move: not offered a move when it dies at the end of its move, nor recorded as stationary', () => {
    /** A Devilfish with a Strike Team embarked, in `phase` of player `turn`'s turn. */
    const devilfish = (phase: 'movement' | 'shooting', turn: 0 | 1, pick: (r: DecisionRequest) => number = () => 0) => {
      const g = battleSandbox([
        { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 22 } },
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 3, y: 3 } },
        { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 35 } },
      ], { phase, turn, round: 2, stream: scriptedStream(new Array(80).fill(3)), agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
      g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
      return g;
    };
    const offered: string[] = [];
    const g = devilfish('movement', 0, (r) => {
      if (r.kind === 'select-unit-to-move') offered.push(...(r.options as { unit?: string }[]).map((o) => o.unit ?? 'done'));
      return 0;
    });
    // the Devilfish has made its Normal move; Overwatch at its end destroys it
    g.emit({ type: 'unit-moved', unit: 'DF', mode: 'normal' });
    inflictMortalWounds(g, g.state.units.DF, 40, null);
    expect(g.state.units.ST.location).toBe('battlefield');
    movementBody(g, 0);
    expect(offered).not.toContain('ST');
    expect(g.state.units.ST.flags.moved).toBe('disembarked');
    // in the Shooting phase (a transport that Remained Stationary), the survivors have not Remained Stationary either
    const h = devilfish('shooting', 0);
    h.emit({ type: 'unit-moved', unit: 'ST', mode: 'stationary' });
    h.emit({ type: 'unit-moved', unit: 'DF', mode: 'stationary' });
    inflictMortalWounds(h, h.state.units.DF, 40, null);
    expect(h.state.units.ST.flags.moved).toBe('disembarked');
    // in the opponent's turn nothing is recorded (their moves are their own turn's)
    const o = devilfish('shooting', 1);
    inflictMortalWounds(o, o.state.units.DF, 40, null);
    expect(o.state.units.ST.flags.moved).toBe(null);
  });

  it('CLOUDSTRIKE holds the passengers of its transport destroyed that turn more than 6" from enemy units, as it holds those who get out', () => {
    const g = battleSandbox([
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 22 } },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 5 } },
      // T'au units either side of the Serpent, 7.4" from it at the closest
      { id: 'E1', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 39, y: 18 }, spacing: 1.6 },
      { id: 'E2', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 21, y: 18 }, spacing: 1.6 },
    ], { factions: ['AE', 'TAU'], detachments: ['Armoured Warhost', null], phase: 'movement', turn: 0, round: 2,
      stream: scriptedStream([/* Deadly Demise */ 1, ...new Array(20).fill(6)]) });
    g.emit({ type: 'unit-location', unit: 'DA', location: 'embarked', embarkedIn: 'WS' });
    g.addEffect('Cloudstrike', 0, 'WS', g.untilEndOfTurn());
    const enemies = ['E1', 'E2'].flatMap((id) => g.state.units[id].models.map((m) => modelBody(g.state, m)));
    inflictMortalWounds(g, g.state.units.WS, 40, null);
    const da = g.state.units.DA.models.filter((m) => m.alive && m.pos);
    expect(da.length).toBe(g.state.units.DA.models.length);
    const closest = Math.min(...da.flatMap((m) => enemies.map((e) => horizontalDistance(modelBody(g.state, m), e))));
    expect(closest).toBeGreaterThan(6);
  });

  it('the survivors are Battle-shocked until the start of their next Command phase: through the enemy turn, over at their own', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 44, y: 5 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 35 } },
    ], { phase: 'shooting', turn: 1, round: 2, stream: scriptedStream([/* Deadly Demise */ 1, /* passengers: no 1s */ ...new Array(10).fill(4), /* Battle-shock tests */ ...new Array(10).fill(6)]) });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
    inflictMortalWounds(g, g.state.units.DF, 40, null);
    expect(g.state.units.ST.location).toBe('battlefield');
    expect(g.state.units.ST.models.every((m) => m.alive)).toBe(true);
    expect(g.state.units.ST.battleShocked).toBe(true);
    // a unit not in the transport is not
    expect(g.state.units.CF.battleShocked).toBe(false);
    // the enemy's Command phase does not end it; the unit's own does (at full strength it takes no test there)
    commandPhase(g, 1);
    expect(g.state.units.ST.battleShocked).toBe(true);
    commandPhase(g, 0);
    expect(g.state.units.ST.battleShocked).toBe(false);
  });
});
