/**
 * Ranged targets: each model shoots a unit it can. The engine asks one `shoot-target` per weapon group, and
 * again for the models of the group the chosen unit is out of range (or sight) of.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

/**
 * A Strike Team in a column 17" long (x 20, y 10 to 27.1; Pulse rifles, 30", one shot each at this range), an
 * Autarch 28" east of its top end and another 28" east of its bottom end: the top models reach only the first,
 * the bottom ones only the second, the middle ones both. The T'au player answers `shoot-target` with the first
 * option or the last; every die is a 1 (every shot misses).
 */
function spreadFire(pickLast: boolean) {
  const asked: { targets: string[]; models: number }[] = [];
  const tau = scriptedAgent('tau', (r) => {
    if (r.kind !== 'shoot-target') return 0;
    const options = r.options as { target: string; weapon: string }[];
    asked.push({ targets: options.map((o) => o.target), models: (r.context?.models as string[]).length });
    return pickLast ? options.length - 1 : 0;
  });
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 }, spacing: 1.9 },
    { id: 'N', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 48, y: 10 } },
    { id: 'S', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 48, y: 27.1 } },
  ], { factions: ['TAU', 'AE'], phase: 'shooting', turn: 0, stream: scriptedStream(new Array(100).fill(1)), agents: [tau, scriptedAgent('ae')] });
  const before = g.log!.length;
  shootWithUnit(g, g.state.units.ST);
  const shots = g.log!.slice(before).filter((e) => e.type === 'dice' && e.purpose === 'hit' && e.unit === 'ST').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
  return { asked, shots };
}

describe('a weapon group spread beyond one target\'s range', () => {
  it('whichever Autarch is chosen first, the models out of its range are asked about the other: all ten rifles fire', () => {
    for (const pickLast of [false, true]) {
      const { asked, shots } = spreadFire(pickLast);
      expect(asked.length).toBe(2);
      expect([...asked[0].targets].sort()).toEqual(['N', 'S']);
      expect(asked[0].models).toBe(10);
      // the second ask: the models left, offered only the Autarch the first left out
      expect(asked[1].targets).toEqual([pickLast ? 'N' : 'S']);
      expect(asked[1].models).toBeLessThan(10);
      expect(shots).toBe(10);
    }
  });
});
