/**
 * Where a model may end: on the board, off walls (and ruins for VEHICLE and MONSTER models), on no other
 * model, out of Engagement Range when the mode forbids it, far enough from enemies, within its zone, edge or
 * transport range. Shared by the planner (with a safety margin) and the validator (without); works on
 * module-level scratch shapes, so no closures in the hot path.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import type { Body, Vec3 } from '../types.ts';
import { BASE_CONTACT_DISTANCE, DISTANCE_EPSILON, OBJECTIVE_MARKER_RADIUS, OVERLAP_TOLERANCE, type Base } from '../types.ts';
import { newShape, setBaseShape, shapeAabb, shapeDistance, shapesOverlap, farthestDistanceToShape, shrinkShape, copyShape, boundingRadius } from '../shape.ts';
import { shapeOverlapsPolygon, shapeWhollyInPolygon } from '../polygon.ts';
import { queryBoxes, someWithin } from '../spatial.ts';
import { NumberList } from '../number-list.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, ENGAGEMENT_RANGE_VERTICAL } from '../ranges.ts';
import type { BlockingPiece } from '../pathing.ts';
import type { ViolationRule, Violation } from './types.ts';
import { STRATEGIC_RESERVES_EDGE_RANGE, type UnitModel, type Ctx } from './context.ts';

// scratch shapes and lists, reused by every check (planning is synchronous and never re-entered)
export const candShape = newShape();
const otherShape = newShape();
const tmpShape = newShape();
const near = new NumberList();
export const nearScratch = new NumberList();
const box = [0, 0, 0, 0];
const MARKER_BASE: Base = { kind: 'circle', r: OBJECTIVE_MARKER_RADIUS };

export function modelBody(m: UnitModel, x: number, y: number, z: number): Body {
  return { pos: { x, y, z }, base: m.base, height: m.height };
}

/**
 * Checks the end position of model i against everything but its own unit. Returns true when legal;
 * with `out`, records every violation instead of stopping at the first.
 */
export function endLegal(ctx: Ctx, i: number, x: number, y: number, z: number, margin: number, out: Violation[] | null): boolean {
  const m = ctx.models[i];
  endOk = true;
  setBaseShape(candShape, m.base, x, y);
  shapeAabb(candShape, box);
  // board
  if (
    box[0] < -DISTANCE_EPSILON + margin ||
    box[1] < -DISTANCE_EPSILON + margin ||
    box[2] > ctx.board.width + DISTANCE_EPSILON - margin ||
    box[3] > ctx.board.height + DISTANCE_EPSILON - margin
  ) {
    if (!violation(out, m.id, 'offBoard', 'not wholly on the board')) return false;
  }
  // terrain
  for (const piece of ctx.walls) {
    if (overlapsPiece(piece, margin)) {
      if (!violation(out, m.id, 'terrain', `on ${piece.kind} terrain`)) return false;
    }
  }
  // (core rules, Ruins: INFANTRY, BEASTS and FLY models may end a move on a ruin, a FLY VEHICLE or MONSTER too;
  // for the others the footprint stands in for the walls the board does not draw)
  if (m.heavy && !m.fly) {
    for (const piece of ctx.ruins) {
      if (overlapsPiece(piece, margin)) {
        if (!violation(out, m.id, 'terrain', 'only INFANTRY, BEASTS and FLY models (not VEHICLES or MONSTERS without FLY) end a move on a ruin')) return false;
      }
    }
  }
  // other models
  const z1 = z + m.height;
  const reach = ENGAGEMENT_RANGE_HORIZONTAL + margin + DISTANCE_EPSILON;
  queryBoxes(ctx.pathWorld.index, box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach, near);
  for (let k = 0; k < near.n; k++) {
    const o = ctx.obstacles[near.v[k]];
    const vOverlap = o.z0 < z1 && z < o.z1;
    if (vOverlap) {
      shrinkShape(tmpShape, candShape, -margin / 2);
      if (shapesOverlap(margin > 0 ? tmpShape : candShape, o.shape, OVERLAP_TOLERANCE)) {
        if (!violation(out, m.id, 'overlap', `overlaps model ${o.id}`)) return false;
        continue;
      }
    }
    if (!o.enemy) continue;
    const vg = o.z0 > z1 ? o.z0 - z1 : z > o.z1 ? z - o.z1 : 0;
    const d = shapeDistance(candShape, o.shape);
    const forbidER = ctx.engagement === 'forbidden' || (ctx.engagement === 'nonTargets' && !o.target);
    if (forbidER && vg <= ENGAGEMENT_RANGE_VERTICAL + DISTANCE_EPSILON && d <= ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON + margin) {
      if (!violation(out, m.id, 'engagementRange', `within Engagement Range of enemy model ${o.id}`)) return false;
    }
  }
  // not on top of an objective marker at the end of a move (a set-up is not a move; nor is staying where the
  // model stands); a model standing on a ruin's upper floor is not on the marker below it
  if (ctx.endsOffMarkers && z <= DISTANCE_EPSILON && !(m.start && m.start.x === x && m.start.y === y)) {
    const reachR = boundingRadius(candShape) + OBJECTIVE_MARKER_RADIUS;
    for (const mk of ctx.world.objectives ?? []) {
      const dx = mk.pos.x - x;
      const dy = mk.pos.y - y;
      if (dx * dx + dy * dy >= reachR * reachR) continue;
      setBaseShape(tmpShape, MARKER_BASE, mk.pos.x, mk.pos.y);
      if (shapesOverlap(candShape, tmpShape, OVERLAP_TOLERANCE)) {
        if (!violation(out, m.id, 'objectiveMarker', `on top of objective marker ${mk.id}`)) return false;
      }
    }
  }
  // more than N" from every enemy model (set-ups): nearest boxes first
  if (ctx.minEnemyDistance > 0) {
    const limit = ctx.minEnemyDistance + DISTANCE_EPSILON + margin;
    nearCtx = ctx;
    nearLimit = limit;
    nearCulprit = -1;
    someWithin(ctx.pathWorld.index, x, y, limit + boundingRadius(candShape), enemyTooClose);
    if (nearCulprit >= 0) {
      if (!violation(out, m.id, 'enemyDistance', `not more than ${ctx.minEnemyDistance}" from enemy model ${ctx.obstacles[nearCulprit].id}`)) return false;
    }
  }
  // zones
  if (ctx.zone) {
    shrinkShape(tmpShape, candShape, -margin);
    if (!shapeWhollyInPolygon(margin > 0 ? tmpShape : candShape, ctx.zone, DISTANCE_EPSILON)) {
      if (!violation(out, m.id, 'zone', 'not wholly within the deployment zone')) return false;
    }
  }
  if (ctx.edges) {
    const hx = (box[2] - box[0]) / 2;
    const hy = (box[3] - box[1]) / 2;
    let inEdge = false;
    for (const e of ctx.edges) {
      const far =
        e === 'left' ? x + hx : e === 'right' ? ctx.board.width - (x - hx) : e === 'top' ? y + hy : ctx.board.height - (y - hy);
      if (far <= STRATEGIC_RESERVES_EDGE_RANGE + DISTANCE_EPSILON - margin) inEdge = true;
    }
    if (!inEdge) {
      if (!violation(out, m.id, 'edge', `not wholly within ${STRATEGIC_RESERVES_EDGE_RANGE}" of an allowed board edge`)) return false;
    }
  }
  for (const zone of ctx.forbiddenZones) {
    copyShape(tmpShape, candShape);
    if (margin > 0) shrinkShape(tmpShape, candShape, -margin);
    if (shapeOverlapsPolygon(tmpShape, zone, OVERLAP_TOLERANCE)) {
      if (!violation(out, m.id, 'forbiddenZone', 'over a forbidden zone')) return false;
    }
  }
  if (ctx.transport && ctx.mode === 'disembark') {
    if (farthestDistanceToShape(candShape, ctx.transport.shape) > ctx.transportRange + DISTANCE_EPSILON - margin) {
      if (!violation(out, m.id, 'transport', `not wholly within ${ctx.transportRange}" of the transport`)) return false;
    }
  }
  return endOk;
}

// endLegal's helpers work on module-level scratch state (no closures in the hot path)
let endOk = true;

function violation(out: Violation[] | null, modelId: string, rule: ViolationRule, detail: string): boolean {
  endOk = false;
  if (out) out.push({ modelId, rule, detail });
  return out !== null; // keep going only when collecting every violation
}

/** Does the candidate shape (candShape, its box in `box`), grown by mg, overlap the piece? */
function overlapsPiece(piece: BlockingPiece, mg: number): boolean {
  const bb = piece.aabb;
  if (box[0] - mg > bb.maxX || box[2] + mg < bb.minX || box[1] - mg > bb.maxY || box[3] + mg < bb.minY) return false;
  if (mg > 0) {
    shrinkShape(tmpShape, candShape, -mg);
    return shapeOverlapsPolygon(tmpShape, piece.polygon, OVERLAP_TOLERANCE);
  }
  return shapeOverlapsPolygon(candShape, piece.polygon, OVERLAP_TOLERANCE);
}

let nearCtx: Ctx | null = null;
let nearLimit = 0;
let nearCulprit = -1;

function enemyTooClose(k: number): boolean {
  const o = nearCtx!.obstacles[k];
  if (!o.enemy || shapeDistance(candShape, o.shape) > nearLimit) return false;
  nearCulprit = k;
  return true;
}

/** Do models i (at x, y, z) and j (at px, py, pz) of the unit overlap? */
export function unitOverlap(ctx: Ctx, i: number, x: number, y: number, z: number, j: number, px: number, py: number, pz: number, margin: number): boolean {
  const a = ctx.models[i];
  const b = ctx.models[j];
  if (!(pz < z + a.height && z < pz + b.height)) return false;
  if (a.base.kind === 'circle' && b.base.kind === 'circle') {
    const r = a.base.r + b.base.r + margin - OVERLAP_TOLERANCE;
    const dx = x - px;
    const dy = y - py;
    return dx * dx + dy * dy < r * r;
  }
  setBaseShape(candShape, a.base, x, y);
  setBaseShape(otherShape, b.base, px, py);
  if (margin > 0) {
    shrinkShape(tmpShape, candShape, -margin);
    return shapesOverlap(tmpShape, otherShape, OVERLAP_TOLERANCE);
  }
  return shapesOverlap(candShape, otherShape, OVERLAP_TOLERANCE);
}

export function touchesEnemy(ctx: Ctx, i: number, p: Vec3): boolean {
  return enemyWithin(ctx, i, p.x, p.y, p.z, BASE_CONTACT_DISTANCE, DISTANCE_EPSILON, false) >= 0;
}

/**
 * The first enemy obstacle (index) within `h` horizontally and `v` vertically of model i at (x, y, z),
 * or -1; with `nonTargetsOnly`, charge targets are ignored. No allocation.
 */
export function enemyWithin(ctx: Ctx, i: number, x: number, y: number, z: number, h: number, v: number, nonTargetsOnly: boolean): number {
  const m = ctx.models[i];
  setBaseShape(candShape, m.base, x, y);
  shapeAabb(candShape, box);
  const r = h + DISTANCE_EPSILON;
  queryBoxes(ctx.pathWorld.index, box[0] - r, box[1] - r, box[2] + r, box[3] + r, nearScratch);
  const z1 = z + m.height;
  for (let q = 0; q < nearScratch.n; q++) {
    const k = nearScratch.v[q];
    const o = ctx.obstacles[k];
    if (!o.enemy || (nonTargetsOnly && o.target)) continue;
    const vg = o.z0 > z1 ? o.z0 - z1 : z > o.z1 ? z - o.z1 : 0;
    if (vg > v + DISTANCE_EPSILON) continue;
    if (shapeDistance(candShape, o.shape) <= h + DISTANCE_EPSILON) return k;
  }
  return -1;
}

export function obstacleBody(ctx: Ctx, k: number): Body {
  return ctx.obstacles[k].body;
}
