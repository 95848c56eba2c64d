/**
 * Where a model's Feel No Pain comes from: its datasheet, its unit's abilities (an Ethereal leading it),
 * and effects that answer like an ability (a Leader ability lent by BATTLEFIELD COMMAND). The damage step
 * and the agents' defender profile read the same answer.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import type { MissionState } from '../../src/core/state.ts';
import { destroyModel, feelNoPainOf } from '../../src/rules/damage.ts';
import { defenderProfile } from '../../src/ai/evaluate.ts';
import { BATTLEFIELD_COMMAND } from '../../src/rules/lent-leaders.ts';

const BA = { mode: 'boarding-actions' as MissionState['mode'], size: { width: 44, height: 30 } };

describe('Feel No Pain sources', () => {
  it('an Ethereal leading a Strike Team: 5+ for the damage step and for the agents\' defender profile; none without him', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 10 }, spacing: 1 },
      { id: 'E', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 12, y: 10 } },
      { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 30 }, spacing: 1 },
    ]);
    g.emit({ type: 'unit-attached', leader: 'E', bodyguard: 'ST' });
    const s = g.state;
    expect(feelNoPainOf(s, s.units.ST, s.units.ST.models[0], null)).toBe(5);
    expect(defenderProfile(s, s.units.ST).feelNoPain).toBe(5);
    expect(feelNoPainOf(s, s.units.S2, s.units.S2.models[0], null)).toBeNull();
    expect(defenderProfile(s, s.units.S2).feelNoPain).toBeNull();
  });

  it('Failure Is Not an Option lent by BATTLEFIELD COMMAND (an effect on the Strike Team) gives its models 5+', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 10 }, spacing: 1 },
      { id: 'E', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 14, y: 10 } },
    ], BA);
    const s = g.state;
    expect(feelNoPainOf(s, s.units.ST, s.units.ST.models[0], null)).toBeNull();
    g.addEffect(BATTLEFIELD_COMMAND, 0, 'ST', { at: 'end-of-battle' }, { leader: 'E', ability: 'Failure Is Not an Option' });
    expect(feelNoPainOf(g.state, g.state.units.ST, g.state.units.ST.models[0], null)).toBe(5);
    expect(defenderProfile(g.state, g.state.units.ST).feelNoPain).toBe(5);
  });

  it('Rites of Feasting lent by BATTLEFIELD COMMAND: 6+, then 5+ once the Carnivores destroy an enemy unit in the Fight phase (audit 16)', () => {
    const g = battleSandbox([
      { id: 'L', player: 0, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 10, y: 10 } },
      { id: 'K', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 13, y: 6 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 14.5, y: 6 } },
    ], { ...BA, phase: 'fight' });
    g.addEffect(BATTLEFIELD_COMMAND, 0, 'K', { at: 'end-of-battle' }, { leader: 'L', ability: 'Rites of Feasting' });
    const fnp = () => feelNoPainOf(g.state, g.state.units.K, g.state.units.K.models[0], null);
    expect(fnp()).toBe(6);
    destroyModel(g, g.state.units.E, g.state.units.E.models[0], 'K', 'test', { melee: true });
    expect(g.state.units.E.location).toBe('destroyed');
    expect(fnp()).toBe(5);
  });
});
