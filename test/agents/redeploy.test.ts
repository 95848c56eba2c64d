/**
 * The heuristic's Redeploy Units step (Prince of Corsairs here): it sets up again the unit whose spot the
 * deployment's own scoring finds worst now that the enemy has deployed (in sight of the enemy's guns where a
 * wall would hide it), and stops when no unit gains enough.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, type PlacedUnit } from '../helpers/battle.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import type { Game } from '../../src/core/game.ts';
import { redeployUnits } from '../../src/rules/battle/redeploy.ts';
import { unitSees } from '../../src/rules/battle/world.ts';

// a wall along the front of player 0's deployment zone, from the top edge to y 26: the Broadsides beyond it see
// only what stands below it
const WALL = { id: 'wall', kind: 'wall' as const, polygon: [{ x: 13, y: 0 }, { x: 14, y: 0 }, { x: 14, y: 26 }, { x: 13, y: 26 }], height: 10 };
const YR: PlacedUnit = { id: 'YR', player: 0, faction: 'aeldari', name: 'Prince Yriel', at: { x: 6, y: 12 } };
const HID: PlacedUnit = { id: 'HID', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 4, y: 2 }, spacing: 1 };
const OPEN: PlacedUnit = { id: 'OPEN', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 6, y: 34 }, spacing: 1 };
const BS: PlacedUnit = { id: 'BS', player: 1, faction: 'tau', name: 'Broadside Battlesuits', at: { x: 52, y: 10 }, spacing: 2 };

function redeploy(units: PlacedUnit[]): { g: Game; picks: string[] } {
  const g = battleSandbox(units, { factions: ['AE', 'TAU'], phase: 'movement', turn: 0, terrain: [WALL], agents: [createHeuristic(), createHeuristic()] });
  const from = g.log!.length;
  redeployUnits(g, 0, [0, 1]);
  const picks = g.log!.slice(from).flatMap((e) => (e.type === 'decision' && e.request === 'redeploy' ? ['done' in (e.choice as object) ? 'done' : (e.choice as { unit: string }).unit] : []));
  return { g, picks };
}

describe('heuristic: Redeploy Units', () => {
  it('the unit in sight of the enemy guns is set up again behind the wall; the hidden ones stay; then it stops', () => {
    const { g, picks } = redeploy([YR, HID, OPEN, BS]);
    const sees = (id: string) => unitSees(g.state, g.state.units.BS, g.state.units[id]);
    expect(picks).toEqual(['OPEN', 'done']);
    expect(sees('OPEN')).toBe(false);
    expect(g.state.units.OPEN.location).toBe('battlefield');
    expect(g.state.units.OPEN.models.every((m) => m.pos!.x <= 12 && m.pos!.y < 26)).toBe(true);
    expect(g.state.units.HID.models[0].pos).toEqual({ x: 4, y: 2, z: 0 });
    expect(g.state.units.YR.models[0].pos).toEqual({ x: 6, y: 12, z: 0 });
  });

  it('nothing gains enough: it stops at once', () => {
    expect(redeploy([YR, HID, BS]).picks).toEqual(['done']);
  });
});
