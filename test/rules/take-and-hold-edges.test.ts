/**
 * Take and Hold at its edges (audit 19's mutants M07 and M03: each played wrong, no test failed): the VP a player
 * scores stop at the mission's total (50 unless `maxTotal` says otherwise); in the last battle round the player
 * with the second turn scores at the end of that turn, not at the end of its Command phase (the project's
 * reading, as the Leviathan missions do: README, missions.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PlayerIndex } from '../../src/core/state.ts';
import { findPrimaryMission } from '../../src/rules/battle/missions.ts';
import { battleSandbox } from '../helpers/battle.ts';

const MARKERS = [{ id: 'o1', pos: { x: 15, y: 22 } }, { id: 'o2', pos: { x: 30, y: 22 } }, { id: 'o3', pos: { x: 45, y: 22 } }];
const takeAndHold = findPrimaryMission('take-and-hold')!;

/** Player `holder`'s Strike Teams of one model each stand on the three markers; battle round `round`, player 0 first. */
function holding(holder: PlayerIndex, round: number) {
  const g = battleSandbox(MARKERS.map((o, i) => ({ id: `S${i}`, player: holder, faction: 'tau' as const, name: 'Strike Team', counts: [1, 0], at: { x: o.pos.x, y: o.pos.y + 1 } })), {
    phase: 'command', turn: holder, round, objectives: MARKERS,
  });
  g.state.firstPlayer = 0;
  const vp = () => (g.log ?? []).filter((e) => e.type === 'vp' && e.player === holder).map((e) => (e as { amount: number; reason: string }).amount);
  return { g, vp };
}

describe('Take and Hold', () => {
  it('three markers held score 15 at 30 VP, and only the 5 left to 50 at 45 VP', () => {
    for (const [before, scored] of [[30, 15], [45, 5], [50, 0]] as const) {
      const { g, vp } = holding(0, 3);
      g.state.players[0].vp = before;
      takeAndHold.endOfCommandPhase!(g, 0);
      expect(vp(), `at ${before} VP`).toEqual(scored ? [scored] : []);
      expect(g.state.players[0].vp).toBe(before + scored);
    }
  });

  it('in the last round the second player scores at the end of its turn, not of its Command phase; the first player at its Command phase', () => {
    const second = holding(1, 5);
    takeAndHold.endOfCommandPhase!(second.g, 1);
    expect(second.vp()).toEqual([]);
    takeAndHold.endOfTurn!(second.g, 1);
    expect(second.vp()).toEqual([15]);
    expect((second.g.log ?? []).filter((e) => e.type === 'vp').map((e) => (e as { reason: string }).reason)).toEqual(['take-and-hold (end of the battle)']);
    const first = holding(0, 5);
    takeAndHold.endOfCommandPhase!(first.g, 0);
    takeAndHold.endOfTurn!(first.g, 0);
    expect(first.vp()).toEqual([15]);
    // before the last round the second player scores at its Command phase
    const earlier = holding(1, 4);
    takeAndHold.endOfCommandPhase!(earlier.g, 1);
    takeAndHold.endOfTurn!(earlier.g, 1);
    expect(earlier.vp()).toEqual([15]);
  });
});
