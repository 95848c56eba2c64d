/**
 * The Benefit of Cover against a shooting unit: a target model not fully visible to every model of the
 * attacking unit because of terrain has it (core rules), for all the unit's weapons at that target, whatever
 * order its weapon groups are resolved in.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { benefitOfCover } from '../../src/geometry/visibility.ts';
import { boardOf, modelBody } from '../../src/rules/battle/world.ts';

// woods (area terrain: blocks no sight, gives cover to what is behind it) between the rifles and the target
const WOODS = { id: 'woods', kind: 'area' as const, polygon: [{ x: 20, y: 8 }, { x: 24, y: 8 }, { x: 24, y: 20 }, { x: 20, y: 20 }], height: 3 };

/**
 * A Strike Team: one model with a Pulse carbine in the open (at y 40), nine with Pulse rifles behind the woods;
 * it shoots a Strike Team (Sv 4+). The carbine's two shots miss; one rifle hits and wounds; the save roll is a 3,
 * which saves only with cover. `carbineFirst`: the carbine model is the unit's first (its group is resolved first).
 */
function volley(carbineFirst: boolean) {
  const carbineHits = [1, 1];
  const rifleHits = [4, 1, 1, 1, 1, 1, 1, 1, 1];
  const rifleWoundAndSave = [3, 3];
  const stream = scriptedStream(carbineFirst ? [...carbineHits, ...rifleHits, ...rifleWoundAndSave] : [...rifleHits, ...rifleWoundAndSave, ...carbineHits]);
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 2 } },
    { id: 'T', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 18 } },
  ], { phase: 'shooting', turn: 0, factions: ['TAU', 'TAU'], terrain: [WOODS], stream, agents: [scriptedAgent('p1'), scriptedAgent('p2')], objectives: [] });
  const st = g.state.units.ST;
  const carbine = carbineFirst ? 0 : st.models.length - 1;
  g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: st.models.map((m, i) => ({ model: m.id, pos: i === carbine ? { x: 14, y: 40, z: 0 } : { x: 14, y: 2 + 1.6 * (i < carbine ? i : i - 1), z: 0 } })) });
  st.models.forEach((m, i) => { m.weapons = [i === carbine ? 'Pulse carbine' : 'Pulse rifle', 'Close combat weapon']; });
  const s = g.state;
  const board = boardOf(s);
  const bodies = (pick: (i: number) => boolean) => s.units.ST.models.filter((_, i) => pick(i)).map((m) => modelBody(s, m));
  const coverAgainst = (b: ReturnType<typeof bodies>) => s.units.T.models.filter((m) => benefitOfCover(modelBody(s, m), b, board)).length;
  const geometry = { carbineAlone: coverAgainst(bodies((i) => i === carbine)), rifles: coverAgainst(bodies((i) => i !== carbine)) };
  shootWithUnit(g, s.units.ST);
  return { geometry, lost: 10 - g.state.units.T.models.filter((m) => m.alive).length, left: stream.remaining() };
}

describe('Benefit of Cover against a unit with two weapon groups', () => {
  it('the target behind the woods from the rifles has cover against the rifle hit, whichever group is resolved first', () => {
    for (const carbineFirst of [true, false]) {
      const r = volley(carbineFirst);
      // the set-up: the carbine model alone sees every target model fully; the rifles see none of them fully
      expect(r.geometry).toEqual({ carbineAlone: 0, rifles: 10 });
      expect(r.left, 'every scripted die rolled').toBe(0);
      // the save roll of 3 against Sv 4+ passes with cover's +1
      expect(r.lost, carbineFirst ? 'carbine group first' : 'rifle group first').toBe(0);
    }
  });
});
