/**
 * Ruins (10th core, Movement): only INFANTRY and BEASTS models (and FLY, over them) move through a ruin's
 * walls and floors as if they were not there; other models cannot. The engine models a ruin as a footprint
 * that blocks models that cannot go through its walls; it gave that treatment only to VEHICLE and MONSTER,
 * so MOUNTED models without FLY (Krootox Riders, Krootox Rampagers, Knarloc Riders, Kroot Lone-Spear) walked
 * through a ruin and ended moves on its footprint, like INFANTRY.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { planMove } from '../../src/rules/battle/movement.ts';
import { overlapsPolygon } from '../../src/geometry/distance.ts';
import { modelBody } from '../../src/rules/battle/world.ts';

const ruin = { id: 'r1', kind: 'ruin' as const, height: 5, polygon: [{ x: 14, y: 2 }, { x: 19, y: 2 }, { x: 19, y: 42 }, { x: 14, y: 42 }] };

describe('MOUNTED models and ruins', () => {
  it('Krootox Riders (MOUNTED, not INFANTRY/BEASTS/FLY) do not move through a ruin', () => {
    const g = battleSandbox([
      { id: 'KR', player: 0, faction: 'tau', name: 'Krootox Riders', counts: [1], at: { x: 11, y: 22 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
    ], { terrain: [ruin] });
    const s = g.state;
    const u = s.units.KR;
    const plan = planMove(s, u, 'normal', { x: 16.5, y: 22 }, 8);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const end = plan.positions[0];
    const b = modelBody(s, { ...u.models[0], pos: end });
    // the engine's own rule for models that cannot pass through ruin walls: they do not end on its footprint
    expect(overlapsPolygon(b, ruin.polygon)).toBe(false);
  });

  it('INFANTRY (Kroot Carnivores) do: the same move ends in the ruin', () => {
    const g = battleSandbox([
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1], at: { x: 11, y: 22 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
    ], { terrain: [ruin] });
    const s = g.state;
    const u = s.units.KC;
    const plan = planMove(s, u, 'normal', { x: 16.5, y: 22 }, 8);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(overlapsPolygon(modelBody(s, { ...u.models[0], pos: plan.positions[0] }), ruin.polygon)).toBe(true);
  });
});
