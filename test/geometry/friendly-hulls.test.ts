/**
 * Moving through friendly models: any model may, except that a MONSTER or VEHICLE model that cannot FLY goes
 * round friendly MONSTER and VEHICLE models (core rules, moving units; the seed's Flying rule names the same
 * exception from the FLY side).
 */
import { describe, expect, it } from 'vitest';
import { planMove, validatePlacement, type MoveRequest, type PlanModel, type World, type WorldModel } from '../../src/geometry/planner.ts';
import { pathOverlapsBase } from '../../src/geometry/pathing.ts';
import { body, circle, r as mm } from './helpers.ts';

const R60 = mm(60);
const WALL_X = 12.5;

/** A wall of six touching friendly 60mm models at x 12.5 (y 14.7 to 29), MONSTER/VEHICLE or not, and the mover at (10, 23). */
function world(wallIsHulls: boolean): World {
  const wall: WorldModel[] = Array.from({ length: 6 }, (_, i) => ({
    id: `w${i}`, unitId: `W${i}`, player: 'p1', body: body(WALL_X, 15.9 + i * 2 * R60, circle(R60), 0, 3),
    ...(wallIsHulls ? { monsterOrVehicle: true } : {}),
  }));
  return { board: { width: 60, height: 44, terrain: [] }, models: [...wall, { id: 'm', unitId: 'M', player: 'p1', body: body(10, 23, circle(R60), 0, 3) }] };
}

function move(w: World, flags: Partial<PlanModel>): { end: { x: number; y: number }; crossed: string[] } {
  const req: MoveRequest = { mode: 'normal', player: 'p1', unitId: 'M', models: [{ id: 'm', body: w.models.at(-1)!.body, ...flags }], maxDistance: 5, destination: { x: 15, y: 23 } };
  const r = planMove(req, w);
  if (!r.ok) throw new Error(r.reason);
  expect(validatePlacement(req, w, r.positions).violations).toEqual([]);
  const crossed = w.models.slice(0, 6).filter((o) => pathOverlapsBase(circle(R60), r.paths[0], o.body)).map((o) => o.id);
  return { end: r.positions[0], crossed };
}

describe('a MONSTER or VEHICLE model without FLY goes round friendly MONSTER and VEHICLE models', () => {
  it('a VEHICLE behind a wall of friendly VEHICLEs does not pass through it (going round takes more than its 5")', () => {
    const r = move(world(true), { isVehicleOrMonster: true, monsterOrVehicle: true });
    expect(r.crossed).toEqual([]);
    expect(r.end.x).toBeLessThan(WALL_X);
  });
  it('... but moves through friendly models that are not MONSTER or VEHICLE, and a FLY VEHICLE over the VEHICLEs', () => {
    const infantryWall = move(world(false), { isVehicleOrMonster: true, monsterOrVehicle: true });
    expect(infantryWall.end).toMatchObject({ x: 15, y: 23 });
    expect(infantryWall.crossed.length).toBeGreaterThan(0);
    const flyer = move(world(true), { isVehicleOrMonster: true, monsterOrVehicle: true, canFly: true });
    expect(flyer.end).toMatchObject({ x: 15, y: 23 });
  });
  it('an INFANTRY model moves through the VEHICLEs', () => {
    const inf = move(world(true), {});
    expect(inf.end).toMatchObject({ x: 15, y: 23 });
    expect(inf.crossed.length).toBeGreaterThan(0);
  });
});
