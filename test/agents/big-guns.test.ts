/**
 * The agents' damage estimates price Big Guns Never Tire's -1 to hit as the shooting phase plays it: a
 * gun fired at a VEHICLE engaged with the shooter's army loses exactly the hits one point of BS takes.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { weaponEstimate, weaponUses } from '../../src/ai/evaluate.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';

/** A Fire Warrior with a Pulse rifle 20" from a War Walker; with `engaged`, another Fire Warrior in base contact beyond it. */
function scene(engaged: boolean) {
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 20 } },
    { id: 'TIE', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: engaged ? 32.2 : 55, y: 20 } },
    { id: 'WW', player: 1, faction: 'aeldari', name: 'War Walkers', counts: [1], at: { x: 30, y: 20 } },
  ], { phase: 'shooting' });
  g.state.units.ST.models[0].weapons = ['Pulse rifle'];
  expect(isEngaged(g.state, g.state.units.WW)).toBe(engaged);
  const s = g.state;
  const [use] = weaponUses(s, s.units.ST, false);
  return weaponEstimate(s, s.units.ST, use, s.units.WW, { inRangeOnly: true });
}

describe('estimates: Big Guns Never Tire', () => {
  it('a Pulse rifle at a War Walker engaged with a friendly unit: hits on 5+ instead of 4+, so 2/3 of the wounds', () => {
    const free = scene(false);
    const engaged = scene(true);
    expect(free.woundsLost).toBeGreaterThan(0);
    expect(engaged.woundsLost / free.woundsLost).toBeCloseTo(2 / 3, 9);
  });
});
