/**
 * FLY lets a model be moved over enemy models in a Normal, Advance or Fall Back move only (core rules, Flying); a
 * Charge move must not pass within Engagement Range of a unit that is not a target of the charge. The planner let
 * FLY models pass over enemy models in every move, so Windriders charged through a wall of Breachers (audit 16).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';

/** Chargers at x 12; a wall of two Breacher Teams across the board at x 16 (no gap a base fits through); the target at x 21. */
function wall(charger: string, counts: number[]) {
  return battleSandbox([
    { id: 'W', player: 0, faction: 'aeldari', name: charger, counts, at: { x: 12, y: 20 }, spacing: 2.5 },
    { id: 'B1', player: 1, faction: 'tau', name: 'Breacher Team', counts: [10, 0], at: { x: 16, y: 0.8 }, spacing: 2.2 },
    { id: 'B2', player: 1, faction: 'tau', name: 'Breacher Team', counts: [10, 0], at: { x: 16, y: 22.8 }, spacing: 2.2 },
    { id: 'T', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 21, y: 20 }, spacing: 1.5 },
  ], { factions: ['AE', 'TAU'], phase: 'charge', round: 2 });
}

describe('FLY and Charge moves', () => {
  it('Windriders cannot charge through a wall of enemy models they did not target, as Guardians cannot; a Normal move takes them over it', () => {
    for (const [name, counts] of [['Windriders', [3]], ['Guardian Defenders', [5, 0]]] as const) {
      const g = wall(name, [...counts]);
      const plan = planUnit(g.state, g.state.units.W, 'charge', { maxDistance: 12, targetUnitIds: ['T'] });
      expect(plan.ok, name).toBe(false);
    }
    const g = wall('Windriders', [3]);
    const over = planUnit(g.state, g.state.units.W, 'normal', { maxDistance: 14, destination: { x: 19, y: 8 } });
    expect(over.ok).toBe(true);
    if (over.ok) expect(Math.min(...over.positions.map((p) => p.x))).toBeGreaterThan(16);
    const walking = wall('Guardian Defenders', [5, 0]);
    const blocked = planUnit(walking.state, walking.state.units.W, 'normal', { maxDistance: 14, destination: { x: 19, y: 8 } });
    expect(blocked.ok && Math.max(...blocked.positions.map((p) => p.x)) > 16).toBe(false);
  });
});
