/**
 * When the heuristic fires Overwatch at a moving unit: as the move starts only when the move ends beyond
 * the shooter's guns (the unit moves away), otherwise at the move's end, where the target is nearest.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

/**
 * A Strike Team (M6") `gap` inches east of ten Guardian Defenders without their platform (shuriken
 * catapults, 18"), in the T'au Movement phase, starts a Normal move `dx` inches east (west when negative,
 * then the Strike Team stops short of the Guardians). The Guardians' heuristic is asked in the window, with
 * a CP priced low (weight `cp` 2) so that the shots are worth it wherever they are fired: the window
 * decides. Returns the stratagems it used.
 */
function asked(gap: number, dx: number, window: 'movement/enemy-move-started' | 'movement/after-enemy-move' = 'movement/enemy-move-started'): string[] {
  const g = battleSandbox([
    { id: 'F', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 22 } },
    { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 0], at: { x: 10, y: 22 } },
  ], { factions: ['TAU', 'AE'], phase: 'movement', turn: 0, round: 2, cp: [3, 3], agents: [scriptedAgent('tau'), createHeuristic({ cp: 2 })], stream: scriptedStream(Array(200).fill(1)) });
  setGap(g, 'G', 'F', gap);
  const pts = g.state.units.F.models.map((m) => m.pos!);
  const to = { x: pts.reduce((a, p) => a + p.x, 0) / pts.length + dx, y: pts.reduce((a, p) => a + p.y, 0) / pts.length };
  const w: Window = window === 'movement/enemy-move-started'
    ? { name: window, unit: 'F', targets: [], data: { mode: 'normal', to } }
    : { name: window, unit: 'F', targets: [] };
  return openWindow(g, w);
}

describe('the heuristic\'s FIRE OVERWATCH at the start of an enemy move', () => {
  it('fires as the move starts when the move ends out of the Guardians\' 18" (16" away, moving 6" more away)', () => {
    expect(asked(16, 30)).toEqual(['FIRE OVERWATCH']);
  });

  it('waits when the move ends within reach: toward the Guardians, or a 1" step away (17")', () => {
    expect(asked(16, -5)).toEqual([]);
    expect(asked(16, 1)).toEqual([]);
  });

  it('at the move\'s end it fires wherever the move ended', () => {
    expect(asked(16, 0, 'movement/after-enemy-move')).toEqual(['FIRE OVERWATCH']);
  });
});
