/**
 * Consolidate (10th core): only if the unit CAN end its Consolidation move within Engagement Range of an
 * enemy unit does each model move closer to the closest enemy model; otherwise it moves toward the closest
 * objective marker (ending within its range), or not at all.
 * Distance alone does not tell whether it can (the planner decided so until the fifty-sixth session): here a
 * MONSTER 3.0" from an enemy model on the far side of a ruin it may not cross cannot end in Engagement Range,
 * so it consolidates toward the objective; it had moved toward the enemy and ended on neither.
 */
import { describe, expect, it } from 'vitest';
import { planMove, type MoveRequest, type World } from '../../src/geometry/planner.ts';
import { inEngagementRange, inObjectiveRange } from '../../src/geometry/ranges.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import type { Body } from '../../src/geometry/types.ts';

const R = 32 / 2 / 25.4;
const circle = { kind: 'circle' as const, r: R };
const bodyAt = (x: number, y: number): Body => ({ pos: { x, y, z: 0 }, base: circle, height: 3 });

describe('Consolidation when Engagement Range cannot be reached', () => {
  it('goes toward the objective, not toward an enemy it cannot reach', () => {
    // a long ruin between the MONSTER and the enemy model (x 11.2 .. 12.4, y 5 .. 39)
    const ruin = { id: 'r', kind: 'ruin' as const, height: 5, polygon: [{ x: 11.2, y: 5 }, { x: 12.4, y: 5 }, { x: 12.4, y: 39 }, { x: 11.2, y: 39 }] };
    const world: World = {
      board: { width: 60, height: 44, terrain: [ruin] },
      models: [{ id: 'e-0', unitId: 'E', player: 'p2', body: bodyAt(10 + 2 * R + 3.0, 20) }],
      objectives: [{ id: 'o1', pos: { x: 10, y: 15.5 } }],
    };
    const me = bodyAt(10, 20);
    expect(horizontalDistance(me, world.models[0].body)).toBeCloseTo(3.0, 6);
    const req: MoveRequest = { mode: 'consolidate', player: 'p1', unitId: 'M', models: [{ id: 'm-0', body: me, isVehicleOrMonster: true }], maxDistance: 3 };
    const plan = planMove(req, world);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const end = bodyAt(plan.positions[0].x, plan.positions[0].y);
    const inER = inEngagementRange(end, world.models[0].body);
    // the unit could not reach Engagement Range, so the move must be toward the objective (and end in its range)
    expect(inER).toBe(false); // sanity: it really cannot get there
    expect(inObjectiveRange(end, world.objectives![0])).toBe(true);
  });
});
