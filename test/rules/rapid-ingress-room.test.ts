/**
 * RAPID INGRESS is offered only for a unit that can be set up somewhere now: the 1CP is not spent on an arrival
 * that cannot happen (the stratagem took it, and the unit stayed in Reserves), and its places to arrive are
 * those the planner finds room at.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { canArriveAt, reinforcementOptions, type ArrivalOption } from '../../src/rules/battle/reserves.ts';

const END_OF_MOVEMENT: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'movement' } };

/** Crisis battlesuits in Reserves on a 24" board; Windriders at the given points (the opponent's Movement phase ends). */
function board(enemyAt: { x: number; y: number }[], offered: ArrivalOption[][]) {
  const enemies: PlacedUnit[] = enemyAt.map((at, n) => ({ id: `E${n}`, player: 1, faction: 'aeldari', name: 'Windriders', at, spacing: 2.2 }));
  const tau = (r: DecisionRequest) => {
    if (r.kind === 'rapid-ingress') offered.push(r.options as ArrivalOption[]);
    return r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'RAPID INGRESS')) : 0;
  };
  const g = battleSandbox([{ id: 'CB', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', at: { x: 2, y: 2 } }, ...enemies], {
    factions: ['TAU', 'AE'], phase: 'movement', turn: 1, round: 2, cp: [3, 3], size: { width: 24, height: 24 },
    agents: [scriptedAgent('tau', tau), scriptedAgent('ae')],
  });
  g.emit({ type: 'unit-location', unit: 'CB', location: 'reserves', embarkedIn: null });
  return g;
}

describe('RAPID INGRESS needs room to arrive', () => {
  it('no place on the board is more than 9" from every enemy model: not offered, no CP spent', () => {
    const grid = [4, 12, 20].flatMap((x) => [4, 12, 20].map((y) => ({ x, y })));
    const g = board(grid, []);
    // the places the Reinforcements step would list are there; none has room
    const places = reinforcementOptions(g, g.state.units.CB);
    expect(places.length).toBeGreaterThan(0);
    expect(places.filter((o) => canArriveAt(g.state, g.state.units.CB, o))).toEqual([]);
    expect(usableStratagems(g, END_OF_MOVEMENT, 0).filter((x) => x.s.name === 'RAPID INGRESS')).toEqual([]);
    expect(openWindow(g, END_OF_MOVEMENT)).toEqual([]);
    expect(g.state.players[0].cp).toBe(3);
    expect(g.state.units.CB.location).toBe('reserves');
  });

  it('with room on the far side: offered, its places only those the unit fits at, and the unit arrives for 1CP', () => {
    const offered: ArrivalOption[][] = [];
    const g = board([{ x: 4, y: 4 }], offered);
    const fits = reinforcementOptions(g, g.state.units.CB).filter((o) => canArriveAt(g.state, g.state.units.CB, o));
    expect(fits.length).toBeGreaterThan(0);
    expect(openWindow(g, END_OF_MOVEMENT)).toEqual(['RAPID INGRESS']);
    expect(offered).toEqual([fits]);
    expect(g.state.players[0].cp).toBe(2);
    expect(g.state.units.CB.location).toBe('battlefield');
  });
});
