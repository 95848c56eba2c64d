/**
 * Kroot War Shaper's Root of Honour: "Once per battle, at the start of any phase, you can select one friendly
 * Kroot unit that is Battle-shocked and within 12" of this model. That unit is no longer Battle-shocked."
 * A once-per-battle limit of the War Shaper's own ability (unlike his War Leader, it does not say "one unit
 * from your army with this ability"). The engine kept the use under the ability's name alone, so a second War
 * Shaper could never use his; now under each War Shaper's unit.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { getRule } from '../../src/core/rules-registry.ts';

describe('Root of Honour: once per battle for each War Shaper', () => {
  it('the second War Shaper may still rally a Battle-shocked Kroot unit after the first used his', () => {
    const g = battleSandbox([
      { id: 'W1', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 10, y: 5 } },
      { id: 'K1', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 12, y: 5 } },
      { id: 'W2', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 10, y: 35 } },
      { id: 'K2', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 12, y: 35 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
    ], { phase: 'movement', turn: 0, factions: ['TAU', 'AE'] });
    g.emit({ type: 'battle-shock', unit: 'K1', value: true });
    g.emit({ type: 'battle-shock', unit: 'K2', value: true });
    const rule = getRule('Root of Honour')!;
    // first War Shaper: rallies K1 (the agent takes the first option: use it)
    rule.phaseStart!(g, g.state.units.W1, 'movement');
    expect(g.state.units.K1.battleShocked).toBe(false);
    // second War Shaper, his own once-per-battle ability unused: K2 (far from W1, within 12" of W2)
    rule.phaseStart!(g, g.state.units.W2, 'movement');
    expect(g.state.units.K2.battleShocked).toBe(false);
  });
});
