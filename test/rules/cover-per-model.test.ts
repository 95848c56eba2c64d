/**
 * The Benefit of Cover is judged model by model (core rules): when only some models of the target unit are
 * behind terrain from the shooters, a saving throw made for a model in the open gets no +1 (audit 19's mutant
 * M35: cover given to the whole unit once any of its models had it passed every directed test).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { benefitOfCover } from '../../src/geometry/visibility.ts';
import { boardOf, modelBody } from '../../src/rules/battle/world.ts';

// woods (area terrain: blocks no sight, gives cover to what is behind it)
const WOODS = { id: 'woods', kind: 'area' as const, polygon: [{ x: 20, y: 8 }, { x: 24, y: 8 }, { x: 24, y: 20 }, { x: 20, y: 20 }], height: 3 };

/**
 * One Fire Warrior with a Pulse rifle (the others carry no gun) shoots a Strike Team (Sv 4+): five of its models
 * in the open beside the woods, five behind them; `openFirst`: the models in the open come first in the unit (the
 * attack goes to a model at the same place in the unit's order either way). The hit is a 4, the wound a 3, the
 * save a 3: saved only with cover.
 */
function volley(openFirst: boolean) {
  const stream = scriptedStream([4, 3, 3]);
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 2 } },
    { id: 'T', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 36, y: 2 } },
  ], { phase: 'shooting', turn: 0, factions: ['TAU', 'TAU'], terrain: [WOODS], stream, agents: [scriptedAgent('p1'), scriptedAgent('p2')], objectives: [] });
  const s = g.state;
  s.units.ST.models.forEach((m, i) => { m.weapons = i === 0 ? ['Pulse rifle', 'Close combat weapon'] : ['Close combat weapon']; });
  g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: s.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 14 - 1.2 * i, y: 2, z: 0 } })) });
  // open: a row at y 1-5 (the line from the shooter stays below the woods); covered: a row at y 15-19, seen through them
  const open = (k: number) => ({ x: 32, y: 1 + k, z: 0 });
  const covered = (k: number) => ({ x: 32, y: 15 + k, z: 0 });
  g.emit({ type: 'models-placed', unit: 'T', mode: 'test', positions: s.units.T.models.map((m, i) => {
    const first = i < 5;
    return { model: m.id, pos: first === openFirst ? open(i % 5) : covered(i % 5) };
  }) });
  const board = boardOf(s);
  const shooter = [modelBody(s, s.units.ST.models[0])];
  const inCover = s.units.T.models.map((m) => benefitOfCover(modelBody(s, m), shooter, board));
  const from = g.log!.length;
  shootWithUnit(g, s.units.ST);
  const allocated = g.log!.slice(from).flatMap((e) => (e.type === 'attack-allocated' ? [s.units.T.models.findIndex((m) => m.id === e.model)] : []));
  const lost = s.units.T.models.flatMap((m, i) => (m.alive ? [] : [i]));
  return { inCover, allocated, lost, left: stream.remaining() };
}

describe('Benefit of Cover, model by model', () => {
  it('a save of 3 against Sv 4+ fails for a model in the open though five of its unit are behind woods, and passes for a model behind them', () => {
    for (const openFirst of [true, false]) {
      const r = volley(openFirst);
      // the set-up: five models stand in the open, five have cover; every scripted die was rolled
      expect(r.inCover).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => (i < 5) !== openFirst));
      expect(r.left, 'every scripted die rolled').toBe(0);
      expect(r.allocated).toHaveLength(1);
      const [k] = r.allocated;
      // in the open: no +1, the save fails and the Fire Warrior is slain; behind the woods: 3 + 1 saves
      expect(r.lost, `model ${k}, ${r.inCover[k] ? 'in cover' : 'in the open'}`).toEqual(r.inCover[k] ? [] : [k]);
    }
    // both cases were met: the attack went once to a model in the open, once to one in cover
    expect([true, false].map((o) => { const r = volley(o); return r.inCover[r.allocated[0]]; }).sort()).toEqual([false, true]);
  });
});
