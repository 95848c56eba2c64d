/**
 * The ruins' visibility as the game reads its models (10th edition core rules, Ruins; audit 10): only a model
 * wholly within a ruin sees out of it (a unit partly in one saw through it), AIRCRAFT see and are seen through
 * ruins, and a TOWERING model within a ruin sees out of it. The bodies of the models carry the keywords'
 * exceptions (src/rules/battle/world.ts); the geometry is in test/geometry/visibility.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Game } from '../../src/core/game.ts';
import { unitSees } from '../../src/rules/battle/world.ts';
import { battleSandbox } from '../helpers/battle.ts';

// a long ruin between x = 26 and 34: a unit on one side cannot see one on the other
const ruin = { id: 'r1', kind: 'ruin' as const, polygon: [{ x: 26, y: 6 }, { x: 34, y: 6 }, { x: 34, y: 40 }, { x: 26, y: 40 }], height: 5 };

function place(g: Game, unit: string, x: number, y: number): void {
  const positions = g.state.units[unit].models.map((m, i) => ({ model: m.id, pos: { x, y: y + i * 1.4, z: 0 } }));
  g.emit({ type: 'models-placed', unit, mode: 'test', positions });
}

describe('ruins between units', () => {
  it('a unit standing half in the ruin does not see through it; wholly within, it does', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 42, y: 17 }, spacing: 1.4 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 16, y: 18 }, spacing: 1.4 },
    ], { terrain: [ruin], phase: 'shooting', round: 2 });
    // every Fire Warrior's base across the ruin's edge at x = 34 (their centres on it)
    place(g, 'ST', 34, 17);
    expect(unitSees(g.state, g.state.units.ST, g.state.units.GD)).toBe(false);
    place(g, 'ST', 33, 17);
    expect(unitSees(g.state, g.state.units.ST, g.state.units.GD)).toBe(true);
  });

  it('AIRCRAFT see and are seen through it; a TOWERING model sees out of it from within, not through it from outside', () => {
    const g = battleSandbox([
      { id: 'SS', player: 0, faction: 'tau', name: 'Sun Shark Bomber', at: { x: 42, y: 22 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 42, y: 30 }, spacing: 1.4 },
      { id: 'WK', player: 1, faction: 'aeldari', name: 'Wraithknight', at: { x: 16, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 16, y: 12 }, spacing: 1.4 },
    ], { terrain: [ruin], phase: 'shooting', round: 2 });
    const { units } = g.state;
    expect(unitSees(g.state, units.GD, units.SS)).toBe(true);
    expect(unitSees(g.state, units.SS, units.GD)).toBe(true);
    // the control: the Strike Team behind the same ruin
    expect(unitSees(g.state, units.GD, units.ST)).toBe(false);
    // the Wraithknight outside the ruin neither sees the Strike Team through it nor is seen
    expect(unitSees(g.state, g.state.units.WK, g.state.units.ST)).toBe(false);
    expect(unitSees(g.state, g.state.units.ST, g.state.units.WK)).toBe(false);
    // standing with its base across the ruin's edge, it sees out of it (another model would not)
    place(g, 'WK', 26, 30);
    expect(unitSees(g.state, g.state.units.WK, g.state.units.ST)).toBe(true);
    place(g, 'GD', 26, 12);
    expect(unitSees(g.state, g.state.units.GD, g.state.units.ST)).toBe(false);
  });
});
