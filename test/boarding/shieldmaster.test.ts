/**
 * Shieldmaster: "after the bearer has moved, you can close one open Hatchway it moved through this phase
 * (this can be done in addition to operating a Hatchway using the Unerring Strike Detachment rule)".
 */
import { expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { isHatchwayOpen } from '../../src/rules/battle/hatchways.ts';

const HATCH = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };
const WALLS = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];

it('Shieldmaster may close the hatchway the bearer opened with Unerring Strike and moved through', () => {
  const asked: DecisionRequest[] = [];
  const g = battleSandbox([
    { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 18.2, y: 14.5 }, enhancement: 'Shieldmaster' },
    { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 36, y: 25 }, spacing: 0.8, counts: [10, 0] },
  ], {
    // no objective marker: the sandbox's, at the board's centre, would stand in the doorway (no move ends on one)
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALLS, hatchways: [HATCH], phase: 'movement', turn: 0, round: 2, cp: [3, 3], objectives: [],
    detachments: ["Khaine's Arrow", null], factions: ['AE', 'TAU'],
    agents: [scriptedAgent('ae', (r) => { asked.push(r); return r.kind === 'unerring-strike' || r.kind === 'shieldmaster' ? 1 : 0; }), scriptedAgent('tau')],
  });
  executeMove(g, g.state.units.AU, { mode: 'normal', to: { x: 30, y: 14.5 }, toward: 'test' });
  expect(asked.map((r) => r.kind)).toContain('unerring-strike');
  // the bearer went through the doorway and stands clear of it
  expect(g.state.units.AU.models[0].pos!.x).toBeGreaterThan(22.7);
  // Unerring Strike opened it; Shieldmaster must be offered and close it
  expect(asked.map((r) => r.kind)).toContain('shieldmaster');
  expect(isHatchwayOpen(g.state, 'h1')).toBe(false);
});
