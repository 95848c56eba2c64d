/**
 * A charge succeeds when the roll brings the unit within Engagement Range (1") of its target: the planner
 * tried only ends 0.9" or nearer, so a roll that reached 0.9"-1" away failed.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';

/** The charging unit `gap`" from a lone Autarch on open ground, with a Charge roll of dice[0] + dice[1]. */
function charge(name: string, counts: number[] | undefined, gap: number, dice: [number, number]) {
  const g = battleSandbox([
    { id: 'C', player: 0, faction: 'tau', name, counts, at: { x: 20, y: 10 } },
    { id: 'A', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 30, y: 10 } },
  ], { phase: 'charge', stream: scriptedStream([...dice, ...new Array(20).fill(1)]), objectives: [{ id: 'o1', pos: { x: 50, y: 40 } }] });
  const s = g.state;
  const a = s.units.A.models[0];
  const cur = unitDistance(s, s.units.C, s.units.A);
  g.emit({ type: 'models-placed', unit: 'A', mode: 'test', positions: [{ model: a.id, pos: { x: a.pos!.x - (cur - gap), y: a.pos!.y, z: 0 } }] });
  expect(unitDistance(g.state, g.state.units.C, g.state.units.A)).toBeCloseTo(gap, 6);
  const ok = declareCharge(g, g.state.units.C, { targets: ['A'] });
  return { ok, after: unitDistance(g.state, g.state.units.C, g.state.units.A) };
}

describe('a Charge roll that reaches 0.9"-1" from the target', () => {
  it('a Cadre Fireblade 2.95" away rolling 2 ends within Engagement Range', () => {
    const r = charge('Cadre Fireblade', undefined, 2.95, [1, 1]);
    expect(r.ok).toBe(true);
    expect(r.after).toBeGreaterThan(0.9);
    expect(r.after).toBeLessThanOrEqual(1);
  });

  it('a Strike Team of five 4.95" away rolling 4 too', () => {
    const r = charge('Strike Team', [1, 4], 4.95, [2, 2]);
    expect(r.ok).toBe(true);
    expect(r.after).toBeLessThanOrEqual(1);
  });

  it('but not 3.05" away rolling 2', () => {
    expect(charge('Cadre Fireblade', undefined, 3.05, [1, 1]).ok).toBe(false);
  });
});
