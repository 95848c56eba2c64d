/**
 * One attempt at placing a unit: where each model has been put so far, whether a model can reach a spot along
 * a legal path, and the planned move that results.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { Body, Vec2, Vec3 } from '../types.ts';
import { DISTANCE_EPSILON } from '../types.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, ENGAGEMENT_RANGE_VERTICAL, inCoherencyRange } from '../ranges.ts';
import { meanPoint } from '../polygon.ts';
import { type EnemyRule, type Mover, type Waypoints, buildWaypoints, enemiesCrossed, findPath, slideClear } from '../pathing.ts';
import type { PlannedMove, PlanFailure } from './types.ts';
import { PLAN_MARGIN, type UnitModel, type Ctx } from './context.ts';
import { modelBody, endLegal, unitOverlap, touchesEnemy, enemyWithin } from './end-position.ts';

export interface Placement {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  placed: Uint8Array;
  paths: (Vec2[] | null)[];
  lengths: Float64Array;
  crossed: number[][];
}

export function newPlacement(n: number): Placement {
  return {
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    placed: new Uint8Array(n),
    paths: new Array(n).fill(null),
    lengths: new Float64Array(n),
    crossed: Array.from({ length: n }, () => []),
  };
}

/** Is (x, y, z) free of the unit's already placed models (and, with `blockUnplacedStarts`, of the starts of unplaced ones)? */
export function freeOfUnit(ctx: Ctx, P: Placement, i: number, x: number, y: number, z: number, blockUnplacedStarts: boolean): boolean {
  const n = ctx.models.length;
  for (let j = 0; j < n; j++) {
    if (j === i) continue;
    if (P.placed[j]) {
      if (unitOverlap(ctx, i, x, y, z, j, P.x[j], P.y[j], P.z[j], PLAN_MARGIN)) return false;
    } else if (blockUnplacedStarts) {
      const s = ctx.models[j].start;
      if (s && unitOverlap(ctx, i, x, y, z, j, s.x, s.y, s.z, PLAN_MARGIN)) return false;
    }
  }
  return true;
}

export function place(P: Placement, i: number, x: number, y: number, z: number, path: Vec2[], length: number, crossed: number[]): void {
  P.x[i] = x;
  P.y[i] = y;
  P.z[i] = z;
  P.placed[i] = 1;
  P.paths[i] = path;
  P.lengths[i] = length;
  P.crossed[i] = crossed;
}

/** Number of placed models of the unit within coherency range of model i at (x, y, z). */
export function placedNeighbours(ctx: Ctx, P: Placement, i: number, x: number, y: number, z: number): number {
  const mi = ctx.models[i];
  let body: Body | null = null;
  let c = 0;
  for (let j = 0; j < ctx.models.length; j++) {
    if (j === i || !P.placed[j]) continue;
    const mj = ctx.models[j];
    const dx = x - P.x[j];
    const dy = y - P.y[j];
    const lim = mi.radius + mj.radius + 2 + DISTANCE_EPSILON;
    if (dx * dx + dy * dy > lim * lim) continue;
    body ??= modelBody(mi, x, y, z);
    if (inCoherencyRange(body, modelBody(mj, P.x[j], P.y[j], P.z[j]))) c++;
  }
  return c;
}

export function placedCount(P: Placement): number {
  let c = 0;
  for (let j = 0; j < P.placed.length; j++) c += P.placed[j];
  return c;
}

export function requiredNeighbours(ctx: Ctx): number {
  return ctx.models.length >= 7 ? 2 : 1;
}

interface Reach {
  path: Vec2[];
  length: number;
  crossed: number[];
}

function waypointsFor(ctx: Ctx, m: UnitModel, rule: EnemyRule): Waypoints {
  let wp = m.waypoints.get(rule);
  if (!wp) {
    const mover = rule === m.mover.enemyRule ? m.mover : { ...m.mover, enemyRule: rule };
    wp = buildWaypoints(ctx.pathWorld, mover, m.start!.x, m.start!.y, ctx.maxDistance + 0.5);
    m.waypoints.set(rule, wp);
  }
  return wp;
}

/** Can model i move from its start to (x, y, z) within the move's distance? Returns the path, or null. */
export function reach(ctx: Ctx, i: number, x: number, y: number, z: number): Reach | null {
  const m = ctx.models[i];
  const s = m.start!;
  const dz = Math.abs(z - s.z);
  const budget = ctx.maxDistance - dz;
  if (budget < -DISTANCE_EPSILON) return null;
  const straight = len(x - s.x, y - s.y);
  if (straight > budget + DISTANCE_EPSILON) return null;
  let path: Vec2[] | null = null;
  let length = 0;
  if (slideClear(ctx.pathWorld, m.mover, s.x, s.y, x, y)) {
    path = [{ x: s.x, y: s.y }, { x, y }];
    length = straight;
  } else {
    const found = findPath(ctx.pathWorld, m.mover, waypointsFor(ctx, m, m.mover.enemyRule), s.x, s.y, x, y, budget);
    if (found) {
      path = found.points;
      length = found.length;
    } else if (ctx.mode === 'fallBack' && m.mover.enemyRule !== 'none') {
      // no way around: pass over enemy models (Desperate Escape tests)
      const soft: Mover = { ...m.mover, enemyRule: 'none' };
      const f2 = findPath(ctx.pathWorld, soft, waypointsFor(ctx, m, 'none'), s.x, s.y, x, y, budget);
      if (f2) {
        path = f2.points;
        length = f2.length;
      }
    }
  }
  if (!path) return null;
  // Fall Back: every enemy model passed over (FLY models included), for Desperate Escape tests; other moves
  // when asked (Lightning Assault)
  const crossed: number[] = [];
  if (ctx.mode === 'fallBack' || ctx.req.movedOver) {
    for (let k = 1; k < path.length; k++) enemiesCrossed(ctx.pathWorld, m.mover, path[k - 1].x, path[k - 1].y, path[k].x, path[k].y, crossed);
  }
  return { path, length: length + dz, crossed: crossed.length > 1 ? [...new Set(crossed)].sort((a, b) => a - b) : crossed };
}

/** The mean of the points' horizontal positions (a unit's centre from its models' positions). */
export function centroidOf(pts: readonly Vec3[]): Vec2 {
  return meanPoint(pts);
}

export function finish(ctx: Ctx, P: Placement, reachedDestination: boolean, note?: string): PlannedMove {
  const n = ctx.models.length;
  const positions: Vec3[] = [];
  const paths: Vec2[][] = [];
  const lengths: number[] = [];
  const crossedIdx = new Set<number>();
  for (let i = 0; i < n; i++) {
    positions.push({ x: P.x[i], y: P.y[i], z: P.z[i] });
    paths.push(P.paths[i] ?? [{ x: P.x[i], y: P.y[i] }]);
    lengths.push(P.lengths[i]);
    for (const c of P.crossed[i]) crossedIdx.add(c);
  }
  const crossed = [...crossedIdx].map((k) => ctx.obstacles[k].id).sort();
  const baseContact = positions.map((p, i) => touchesEnemy(ctx, i, p));
  const res: PlannedMove = {
    ok: true,
    positions,
    paths,
    pathLengths: lengths,
    crossedEnemyModelIds: crossed,
    reachedDestination,
    baseContact,
  };
  if (note) res.note = note;
  return res;
}

export function fail(reason: string): PlanFailure {
  return { ok: false, reason };
}

export function requireStarts(ctx: Ctx): string | null {
  for (const m of ctx.models) if (!m.start) return `model ${m.id} is not on the battlefield`;
  return null;
}

export function startsInEngagement(ctx: Ctx, nonTargetsOnly: boolean): string | null {
  for (let i = 0; i < ctx.models.length; i++) {
    const s = ctx.models[i].start!;
    const k = enemyWithin(ctx, i, s.x, s.y, s.z, ENGAGEMENT_RANGE_HORIZONTAL, ENGAGEMENT_RANGE_VERTICAL, nonTargetsOnly);
    if (k >= 0) return ctx.obstacles[k].id;
  }
  return null;
}

/** Puts model i where it stands (no move), if that is free of the unit's placed models. */
export function endLegalOrStay(ctx: Ctx, P: Placement, i: number): boolean {
  const s = ctx.models[i].start!;
  if (!freeOfUnit(ctx, P, i, s.x, s.y, s.z, false)) return false;
  // a model that Falls Back cannot stay within Engagement Range
  if (ctx.mode === 'fallBack' && !endLegal(ctx, i, s.x, s.y, s.z, 0, null)) return false;
  place(P, i, s.x, s.y, s.z, [{ x: s.x, y: s.y }], 0, []);
  return true;
}
