/**
 * Distances between models, points and zones, as the rules measure them: from the closest point of
 * one base to the closest point of the other ("edge to edge"), horizontally, with heights handled
 * separately (the vertical distance is the gap between the two models' vertical extents).
 *
 * Accuracy: round-round and round-rect distances use closed forms; rect-rect uses GJK, which ends
 * exactly on polygons: all exact to rounding. Anything with an oval uses GJK on support functions
 * (see shape.ts), accurate to 1e-9" by construction (worst measured error 9e-10").
 *
 * Tolerances: "within X" accepts X + DISTANCE_EPSILON (1e-6"); "more than X" is its negation; bases
 * overlap only when they interpenetrate by more than OVERLAP_TOLERANCE (1e-4"), so touching bases
 * (base-to-base contact) do not overlap.
 */
import { len } from './vec.ts';
import type { Body, Vec2 } from './types.ts';
import { DISTANCE_EPSILON, OVERLAP_TOLERANCE } from './types.ts';
import {
  type Shape,
  newShape,
  setBaseShape,
  shapeDistance,
  shapesOverlap,
  pointShapeDistance,
  farthestPointDistance,
  farthestDistanceToShape,
  shapeAabb,
} from './shape.ts';
import {
  shapeDistanceToPolygon,
  shapeOverlapsPolygon,
  shapeTouchesPolygon,
  shapeWhollyInPolygon,
} from './polygon.ts';

const sa = newShape();
const sb = newShape();

/** The shape of a body's base (a fresh object). */
export function bodyShape(body: Body): Shape {
  return setBaseShape(newShape(), body.base, body.pos.x, body.pos.y);
}

/** Horizontal edge-to-edge distance between two models' bases (0 when touching or overlapping). */
export function horizontalDistance(a: Body, b: Body): number {
  const ba = a.base;
  const bb = b.base;
  if (ba.kind === 'circle' && bb.kind === 'circle') {
    const dx = a.pos.x - b.pos.x;
    const dy = a.pos.y - b.pos.y;
    const d = Math.sqrt(dx * dx + dy * dy) - ba.r - bb.r;
    return d > 0 ? d : 0;
  }
  setBaseShape(sa, ba, a.pos.x, a.pos.y);
  setBaseShape(sb, bb, b.pos.x, b.pos.y);
  return shapeDistance(sa, sb);
}

/** Vertical distance: the gap between [z, z + height] of each model (0 when they overlap in height). */
export function verticalDistance(a: Body, b: Body): number {
  const aTop = a.pos.z + a.height;
  const bTop = b.pos.z + b.height;
  if (b.pos.z > aTop) return b.pos.z - aTop;
  if (a.pos.z > bTop) return a.pos.z - bTop;
  return 0;
}

/** Straight-line distance between the closest points of two models (horizontal and vertical gaps combined). */
export function distance(a: Body, b: Body): number {
  const h = horizontalDistance(a, b);
  const v = verticalDistance(a, b);
  return v === 0 ? h : Math.sqrt(h * h + v * v);
}

/** Is a within `range` of b, measured between closest points (3D)? */
export function isWithin(a: Body, b: Body, range: number): boolean {
  return distance(a, b) <= range + DISTANCE_EPSILON;
}

/** Within `horizontal` inches horizontally and `vertical` inches vertically (as Engagement Range and coherency measure). */
export function isWithinHV(a: Body, b: Body, horizontal: number, vertical: number): boolean {
  return (
    verticalDistance(a, b) <= vertical + DISTANCE_EPSILON && horizontalDistance(a, b) <= horizontal + DISTANCE_EPSILON
  );
}

/** Do two bases interpenetrate (horizontally, by more than OVERLAP_TOLERANCE)? Touching is allowed. */
export function basesOverlap(a: Body, b: Body): boolean {
  setBaseShape(sa, a.base, a.pos.x, a.pos.y);
  setBaseShape(sb, b.base, b.pos.x, b.pos.y);
  return shapesOverlap(sa, sb, OVERLAP_TOLERANCE);
}

/** Do two models occupy the same space: bases overlapping and vertical extents overlapping? */
export function modelsOverlap(a: Body, b: Body): boolean {
  const aTop = a.pos.z + a.height;
  const bTop = b.pos.z + b.height;
  if (b.pos.z >= aTop || a.pos.z >= bTop) return false;
  return basesOverlap(a, b);
}

/** Are the two bases in base-to-base contact (edge gap at most `contact`)? */
export function inBaseContact(a: Body, b: Body, contact = 0.01): boolean {
  return horizontalDistance(a, b) <= contact && verticalDistance(a, b) <= DISTANCE_EPSILON;
}

// ---------------------------------------------------------------------------------------------
// Points.

/** Horizontal distance from the closest point of the base to p (0 when p is under the base). */
export function horizontalDistanceToPoint(body: Body, p: Vec2): number {
  if (body.base.kind === 'circle') {
    const d = len(body.pos.x - p.x, body.pos.y - p.y) - body.base.r;
    return d > 0 ? d : 0;
  }
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return pointShapeDistance(p.x, p.y, sa);
}

/** Horizontal distance from p to the farthest point of the base. */
export function farthestHorizontalDistanceToPoint(body: Body, p: Vec2): number {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return farthestPointDistance(p.x, p.y, sa);
}

/** Is any part of the base within `range` of point p (horizontally)? */
export function isWithinOfPoint(body: Body, p: Vec2, range: number): boolean {
  return horizontalDistanceToPoint(body, p) <= range + DISTANCE_EPSILON;
}

/** Is every part of the base within `range` of point p (horizontally)? */
export function isWhollyWithinOfPoint(body: Body, p: Vec2, range: number): boolean {
  return farthestHorizontalDistanceToPoint(body, p) <= range + DISTANCE_EPSILON;
}

/**
 * Is every part of a's base within `range` of b's base (horizontally)? E.g. disembarking models are
 * set up wholly within 3" of their transport. Exact for round and rectangular a; sampled for ovals.
 */
export function isWhollyWithinOfBody(a: Body, b: Body, range: number): boolean {
  setBaseShape(sa, a.base, a.pos.x, a.pos.y);
  setBaseShape(sb, b.base, b.pos.x, b.pos.y);
  return farthestDistanceToShape(sa, sb) <= range + DISTANCE_EPSILON;
}

// ---------------------------------------------------------------------------------------------
// Polygons (zones, footprints).

/** Horizontal distance from the base to the polygon (0 when touching or overlapping it). */
export function horizontalDistanceToPolygon(body: Body, poly: Vec2[]): number {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return shapeDistanceToPolygon(sa, poly);
}

/** Is any part of the base within `range` of the polygon (range 0: touching or inside)? */
export function isWithinOfPolygon(body: Body, poly: Vec2[], range: number): boolean {
  return horizontalDistanceToPolygon(body, poly) <= range + DISTANCE_EPSILON;
}

/** Is any part of the base over the polygon, i.e. overlapping it by more than the tolerance (touching is not)? */
export function overlapsPolygon(body: Body, poly: Vec2[]): boolean {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return shapeOverlapsPolygon(sa, poly, OVERLAP_TOLERANCE);
}

/** Does the base touch or overlap the polygon? */
export function touchesPolygon(body: Body, poly: Vec2[]): boolean {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return shapeTouchesPolygon(sa, poly, DISTANCE_EPSILON);
}

/** Is the whole base inside the polygon (touching its outline from inside counts)? */
export function isWhollyWithinPolygon(body: Body, poly: Vec2[]): boolean {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return shapeWhollyInPolygon(sa, poly, DISTANCE_EPSILON);
}

// ---------------------------------------------------------------------------------------------
// Board edges.

export type BoardEdge = 'top' | 'bottom' | 'left' | 'right';
export const BOARD_EDGES: readonly BoardEdge[] = ['top', 'right', 'bottom', 'left'];

/** Horizontal distance from the base's farthest point to a board edge (how far in from that edge the base reaches). */
export function farthestDistanceFromEdge(body: Body, edge: BoardEdge, board: { width: number; height: number }): number {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  const ex = extentsOf(sa);
  switch (edge) {
    case 'left':
      return body.pos.x + ex.x;
    case 'right':
      return board.width - (body.pos.x - ex.x);
    case 'top':
      return body.pos.y + ex.y;
    case 'bottom':
      return board.height - (body.pos.y - ex.y);
  }
}

/** Is the whole base within `range` of the given board edge? */
export function isWhollyWithinOfEdge(
  body: Body,
  edge: BoardEdge,
  range: number,
  board: { width: number; height: number },
): boolean {
  return farthestDistanceFromEdge(body, edge, board) <= range + DISTANCE_EPSILON;
}

/** Is the whole base on the board (touching an edge is fine)? */
export function isOnBoard(body: Body, board: { width: number; height: number }): boolean {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  const ex = extentsOf(sa);
  return (
    body.pos.x - ex.x >= -DISTANCE_EPSILON &&
    body.pos.y - ex.y >= -DISTANCE_EPSILON &&
    body.pos.x + ex.x <= board.width + DISTANCE_EPSILON &&
    body.pos.y + ex.y <= board.height + DISTANCE_EPSILON
  );
}

const aabb = [0, 0, 0, 0];
function extentsOf(sh: Shape): Vec2 {
  // half extents of an unswept shape around its centre
  shapeAabb(sh, aabb);
  return { x: (aabb[2] - aabb[0]) / 2, y: (aabb[3] - aabb[1]) / 2 };
}
