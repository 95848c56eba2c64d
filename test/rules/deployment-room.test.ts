/**
 * Setting up a unit in its deployment zone when the room left is a pocket: the search for room does not
 * stop at the points of one grid.
 */
import { describe, expect, it } from 'vitest';
import '../../src/factions/index.ts';
import { scriptedAgent } from '../helpers/battle.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { deploymentAnchors } from '../../src/rules/battle/placement.ts';

describe('deployment: room between the grid points', () => {
  it('a unit fits only in a pocket centred between the 1" grid points around every anchor: it is set up there', () => {
    const sc = miniScenario({ aeldari: ['Farseer'] });
    // player 2's zone is the strip x 42-60; impassable terrain fills it but for a 1.4" square pocket
    // centred on (47.5, 20.5), half an inch off the grid the anchors (x 45, 51, 57; y 3, 9, ...) lie on
    const rect = (x0: number, y0: number, x1: number, y1: number, id: string) =>
      ({ id, kind: 'impassable' as const, height: 5, polygon: [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }] });
    sc.board.terrain = [
      rect(42, 0, 46.8, 44, 'w'), rect(48.2, 0, 60, 44, 'e'),
      rect(46.8, 0, 48.2, 19.8, 's'), rect(46.8, 21.2, 48.2, 44, 'n'),
    ];
    const g = createGame(sc, { seed: 'pocket', agents: [scriptedAgent('tau'), scriptedAgent('ae')] });
    const farseer = g.state.units['p2-u1'];
    expect(deploymentAnchors(g.state, 1).every((a) => Math.abs(a.x - Math.round(a.x)) < 1e-9 && Math.abs(a.y - Math.round(a.y)) < 1e-9)).toBe(true);
    expect(farseer.location).toBe('battlefield');
    const pos = farseer.models[0].pos!;
    expect(pos.x).toBeCloseTo(47.5, 1);
    expect(pos.y).toBeCloseTo(20.5, 1);
  });
});
