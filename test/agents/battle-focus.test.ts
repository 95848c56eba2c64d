/**
 * The heuristic's Battle Focus answers (agents/heuristic/aeldari-moves.ts decideBattleFocus): Flitting Shadows on a charge
 * only while the opponent could Fire Overwatch; Swift as the Wind only when the destination lies beyond the
 * unit's move; none of the manoeuvres when nothing calls for one.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { setBattleFocusTokens, type BattleFocusOption } from '../../src/factions/aeldari/battle-focus.ts';

/** The heuristic plays the Aeldari (player 0); its 'battle-focus' answers are recorded as the option chosen. */
function game(opts: Parameters<typeof battleSandbox>[1], chosen: string[], aeldari: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 22 } }): Game {
  const h = createHeuristic();
  const agent: Agent = {
    name: 'heuristic',
    decide(view, req: DecisionRequest) {
      const d = h.decide(view, req);
      if (req.kind === 'battle-focus') {
        const o = (req.options as BattleFocusOption[])[d.option];
        chosen.push('none' in o ? 'none' : o.manoeuvre);
      }
      return d;
    },
  };
  return battleSandbox([
    aeldari,
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 18, y: 22 } },
  ], { factions: ['AE', 'TAU'], agents: [agent, scriptedAgent('tau')], round: 1, ...opts });
}

describe('heuristic: Battle Focus', () => {
  it('Flitting Shadows on a charge while the opponent has CP for Fire Overwatch, not otherwise', () => {
    for (const [cp, want] of [[2, 'Flitting Shadows'], [0, 'none']] as const) {
      const chosen: string[] = [];
      const g = game({ phase: 'charge', turn: 0, cp: [0, cp], stream: scriptedStream([1, 1]) }, chosen);
      setGap(g, 'ST', 'DA', 6);
      setBattleFocusTokens(g, 0, 4);
      declareCharge(g, g.state.units.DA, { targets: ['ST'] });
      expect(chosen).toEqual([want]);
    }
  });

  it('Swift as the Wind only toward a destination beyond the unit\'s Move', () => {
    for (const [x, want] of [[14, 'none'], [40, 'Swift as the Wind']] as const) {
      const chosen: string[] = [];
      const g = game({ phase: 'movement', turn: 0 }, chosen);
      g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: g.state.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 55, y: 2 + i * 1.5, z: 0 } })) });
      setBattleFocusTokens(g, 0, 4);
      executeMove(g, g.state.units.DA, { mode: 'normal', to: { x, y: 22 }, toward: 'objective' });
      expect(chosen).toEqual([want]);
    }
  });

  it('Swift as the Wind on an Advance weighs the Advance the unit makes: not with a fixed 6" (TIME TO STRIKE) that reaches without it', () => {
    for (const [fixed, want] of [[false, 'Swift as the Wind'], [true, 'none']] as const) {
      const chosen: string[] = [];
      const g = game({ phase: 'movement', turn: 0, stream: scriptedStream([1]) }, chosen);
      g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: g.state.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 55, y: 2 + i * 1.5, z: 0 } })) });
      setBattleFocusTokens(g, 0, 4);
      if (fixed) g.addEffect('Time to Strike', 0, 'DA', g.untilEndOfTurn());
      // 14" away: M7" and a D6's 3.5" fall short by more than Swift's 2"; M7" and a fixed 6" do not
      executeMove(g, g.state.units.DA, { mode: 'advance', to: { x: 24, y: 22 }, toward: 'objective' });
      expect(chosen).toEqual([want]);
    }
  });

  it('Star Engines for an Advancing VEHICLE whose guns lack ASSAULT, not when a rule gives them ASSAULT already (the Armoured Warhost\'s Skilled Crews)', () => {
    const falcon: PlacedUnit = { id: 'FA', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 10, y: 22 } };
    for (const [detachment, want] of [[null, 'Star Engines'], ['Armoured Warhost', 'none']] as const) {
      const chosen: string[] = [];
      const g = game({ phase: 'movement', turn: 0, detachments: [detachment, null], stream: scriptedStream([3, 4]) }, chosen, falcon);
      g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: g.state.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 55, y: 2 + i * 1.5, z: 0 } })) });
      setBattleFocusTokens(g, 0, 4);
      // 10" away: within the Falcon's move, so Swift as the Wind is not wanted
      executeMove(g, g.state.units.FA, { mode: 'advance', to: { x: 20, y: 22 }, toward: 'objective' });
      expect(chosen).toEqual([want]);
    }
  });
});
