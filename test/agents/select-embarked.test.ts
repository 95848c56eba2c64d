/**
 * The heuristic does not select an embarked unit that has no room to get out: the selection would have no
 * effect (the engine finds no room and asks again), and the heuristic, which puts passengers first, would
 * make it again after every other unit's move.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, pocketWalls } from '../helpers/battle.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { movementBody } from '../../src/rules/battle/movement.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

/**
 * A Devilfish that has made its Normal move this phase, a Breacher Team inside, a Strike Team free to move:
 * the heuristic plays the movement phase's unit selections; returns the units offered and picked at each.
 */
function selections(devilfishAt: { x: number; y: number }, walled: boolean) {
  const h = createHeuristic();
  const picks: { offered: string[]; picked: string }[] = [];
  const moveModes: Record<string, string[]> = {};
  const agent: Agent = {
    name: 'heuristic',
    decide(view, req: DecisionRequest) {
      const d = h.decide(view, req);
      if (req.kind === 'select-unit-to-move') {
        const ids = (req.options as ({ done: true } | { unit: string })[]).map((o) => ('unit' in o ? o.unit : 'done'));
        picks.push({ offered: ids, picked: ids[d.option] });
      }
      if (req.kind === 'move') moveModes[String(req.context?.unit)] = (req.options as { mode: string }[]).map((o) => o.mode);
      return d;
    },
  };
  const g = battleSandbox([
    { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: devilfishAt },
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 50, y: 5 } },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 6, y: 5 } },
    { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 30 } },
  ], { phase: 'movement', round: 2, terrain: walled ? pocketWalls() : [], agents: [agent, agent] });
  g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
  g.emit({ type: 'unit-moved', unit: 'DF', mode: 'normal' });
  movementBody(g, 0);
  return { picks, moveModes, g };
}

describe('the heuristic selects embarked units to move only where they have room to get out', () => {
  it('a transport walled in after its move: its passengers are offered but never selected', () => {
    const { picks, moveModes, g } = selections({ x: 30, y: 22 }, true);
    // offered at the first selection (the engine does not check room before it is picked)...
    expect(picks[0].offered).toContain('BT');
    // ...and never picked: the Strike Team moves, then the phase ends
    expect(picks.map((p) => p.picked)).not.toContain('BT');
    expect(picks[0].picked).toBe('ST');
    expect(picks[picks.length - 1].picked).toBe('done');
    expect(g.state.units.ST.flags.moved).not.toBe(null);
    expect(g.state.units.BT.location).toBe('embarked');
    expect(moveModes.BT).toBeUndefined();
  });

  it('the same transport on open ground: its passengers are selected first (the check takes nothing from them)', () => {
    const { picks, moveModes } = selections({ x: 30, y: 40 }, false);
    expect(picks[0].picked).toBe('BT');
    // it was asked how to move, and getting out was offered (there was room)
    expect(moveModes.BT).toEqual(['stay-embarked', 'disembark']);
  });
});
