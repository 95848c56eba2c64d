/**
 * D-STRIKE: "Select one closed Hatchway that is visible to and within range of one or more of the ranged weapons".
 * Distances to a terrain feature are measured to its closest point (the engine measured to the hatchway's centre).
 * Here the hatchway's near face is 17.5" from the Wraithguard's base (Wraithcannon 18") and its centre 18.5".
 */
import { expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { dStrikeHatchways } from '../../src/factions/aeldari/boarding-wraiths-of-the-void.ts';
import { isWithinOfPolygon } from '../../src/geometry/distance.ts';
import { modelBody } from '../../src/rules/battle/world.ts';

const HATCH = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };
const WALLS = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];

it('a closed hatchway whose near face is within the Wraithcannon\'s 18" (and in plain view) can be picked', () => {
  const r = 20 / 25.4; // 40mm base
  const x = 20 - 17.5 - r;
  const g = battleSandbox([{ id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x, y: 14.5 }, spacing: 1.1 }], {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALLS, hatchways: [HATCH], phase: 'shooting', turn: 0, round: 2, cp: [3, 3],
    detachments: ['Wraiths of the Void', null], factions: ['AE', 'TAU'], agents: [scriptedAgent('ae'), scriptedAgent('tau')],
  });
  const m = g.state.units.WG.models[0];
  // the engine's own closest-point measure: the hatchway is within 18" of the model
  expect(isWithinOfPolygon(modelBody(g.state, m), HATCH.polygon, 18)).toBe(true);
  expect(dStrikeHatchways(g.state, g.state.units.WG)).toEqual(['h1']);
});
