/**
 * One name, two rules: the T'au Tiger Shark's "Strafing Run" ("in your Shooting phase, after this model has shot,
 * select one enemy unit hit by one or more of those attacks that cannot FLY. That enemy unit must take a
 * Battle-shock test"; no Hit modifier) and the Aeldari Phoenix's (+1 to hit a unit that cannot FLY). The one
 * registry entry played the Phoenix's for both.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { createStream } from '../../src/core/rng.ts';

function sandbox() {
  return battleSandbox([
    { id: 'TS', player: 0, faction: 'tau', name: 'Tiger Shark', at: { x: 10, y: 20 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 }, spacing: 1.5 },
  ], { phase: 'shooting', stream: createStream('strafing'), agents: [scriptedAgent('tau'), scriptedAgent('ae')] });
}

describe("Tiger Shark's Strafing Run (T'au)", () => {
  it('gives no +1 to Hit against a unit that cannot FLY (that is the Phoenix\'s rule)', () => {
    const g = sandbox();
    expect(g.state.units.TS.abilities).toContain('Strafing Run');
    expect(planFor(g, 'TS', 'GD', 'Burst cannon').hitModifier).toBe(0);
  });

  it('without the ability the modifier is 0 too', () => {
    const g = sandbox();
    g.state.units.TS.abilities = g.state.units.TS.abilities.filter((a) => a !== 'Strafing Run');
    expect(planFor(g, 'TS', 'GD', 'Burst cannon').hitModifier).toBe(0);
  });

  it('after it has shot, a non-FLY enemy unit it hit takes a Battle-shock test', () => {
    const g = sandbox();
    // what the Shooting phase does once the unit has shot (src/rules/battle/shooting.ts:726)
    for (const name of g.state.units.TS.abilities) getRule(name)?.afterShooting?.(g, g.state.units.TS, ['GD'], [{ weapon: 'Burst cannon', target: 'GD' }]);
    const tests = (g.log ?? []).filter((e) => e.type === 'dice' && (e as { purpose: string }).purpose === 'battle-shock').map((e) => (e as { unit: string }).unit);
    expect(tests).toEqual(['GD']);
  });

  it("the Phoenix's still has +1 to hit a unit that cannot FLY", () => {
    const g = battleSandbox([
      { id: 'PX', player: 1, faction: 'aeldari', name: 'Phoenix', at: { x: 30, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
    ], { phase: 'shooting', turn: 1 });
    const w = g.state.datasheets[g.state.units.PX.models[0].datasheet].weapons[0].name;
    expect(planFor(g, 'PX', 'ST', w).hitModifier).toBe(1);
  });
});
