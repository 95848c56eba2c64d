/**
 * Melee targets: every model that can fight attacks a unit it can reach. The engine asks one `fight-target`
 * per group of models with the same melee weapon, and again for the models of the group the chosen unit is
 * out of reach of.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Game } from '../../src/core/game.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { modelBase } from '../../src/rules/battle/world.ts';
import { baseBoundingRadius } from '../../src/geometry/shape.ts';

/**
 * Five Guardian Defenders in a line (one weapon group: close combat weapons, A1) with a Cadre Fireblade 0.5"
 * off each end. Their Pile-in brings each end Guardian into base contact with its Fireblade and its neighbour
 * within Engagement Range of it: two Guardians reach each Fireblade, the middle one neither. The Aeldari player answers `fight-target` with the first
 * option or the last; all dice are 1s (every attack misses).
 */
function twoCombats(pickLast: boolean) {
  const asked: string[][] = [];
  const ae = scriptedAgent('ae', (r) => {
    if (r.kind !== 'fight-target') return 0;
    const options = r.options as { target: string }[];
    asked.push(options.map((o) => o.target));
    return pickLast ? options.length - 1 : 0;
  });
  const g: Game = battleSandbox([
    { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', counts: [5, 0], at: { x: 20, y: 10 } },
    { id: 'F1', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 10 } },
    { id: 'F2', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 16.4 } },
  ], { factions: ['AE', 'TAU'], phase: 'fight', turn: 0, stream: scriptedStream(new Array(200).fill(1)), agents: [ae, scriptedAgent('tau')] });
  const s = g.state;
  const gap = baseBoundingRadius(modelBase(s, s.units.GD.models[0])) + baseBoundingRadius(modelBase(s, s.units.F1.models[0])) + 0.5;
  for (const [id, y] of [['F1', 10], ['F2', 16.4]] as const) g.emit({ type: 'models-placed', unit: id, mode: 'test', positions: [{ model: s.units[id].models[0].id, pos: { x: 20 + gap, y, z: 0 } }] });
  const before = g.log!.length;
  fight(g, s.units.GD);
  const hitRolls = g.log!.slice(before).filter((e) => e.type === 'dice' && e.purpose === 'hit' && e.unit === 'GD').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
  return { asked, hitRolls };
}

describe('a weapon group in two combats', () => {
  it('whichever Fireblade is chosen first, the Guardians that cannot reach it are asked about the other: four attacks, not two', () => {
    for (const pickLast of [false, true]) {
      const { asked, hitRolls } = twoCombats(pickLast);
      expect(asked.length).toBe(2);
      expect([...asked[0]].sort()).toEqual(['F1', 'F2']);
      // the second ask offers only the Fireblade the first left out
      expect(asked[1]).toEqual([pickLast ? 'F1' : 'F2']);
      expect(hitRolls).toBe(4);
    }
  });
});
