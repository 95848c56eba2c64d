/**
 * Polygons: terrain footprints, deployment zones, territories. A polygon is an array of vertices
 * (either winding, not closed), assumed simple (no self-intersections).
 */
import { len } from './vec.ts';
import { NumberList } from './number-list.ts';
import type { Vec2 } from './types.ts';
import {
  type Shape,
  CORE_POINT,
  newShape,
  setSegmentShape,
  coreDistance,
  shrinkShape,
  pointSegmentDistance,
} from './shape.ts';

/** Even-odd point-in-polygon test. Points exactly on an edge may go either way: use distances for tolerances. */
export function pointInPolygon(p: Vec2, poly: Vec2[]): boolean {
  return pointInPolygonXY(p.x, p.y, poly);
}

export function pointInPolygonXY(x: number, y: number, poly: Vec2[]): boolean {
  let inside = false;
  const n = poly.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a.y > y !== b.y > y) {
      const xi = a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y);
      if (x < xi) inside = !inside;
    }
  }
  return inside;
}

/** Signed area (positive when the vertices turn from +x towards +y). */
export function polygonSignedArea(poly: Vec2[]): number {
  let s = 0;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) s += poly[j].x * poly[i].y - poly[i].x * poly[j].y;
  return s / 2;
}

export function polygonArea(poly: Vec2[]): number {
  return Math.abs(polygonSignedArea(poly));
}

/** The mean of the points' horizontal positions (a unit's centre from its models' positions). */
export function meanPoint(pts: readonly Vec2[]): Vec2 {
  let x = 0;
  let y = 0;
  for (const p of pts) {
    x += p.x;
    y += p.y;
  }
  return { x: x / pts.length, y: y / pts.length };
}

/** Area centroid (vertex mean for degenerate polygons). */
export function polygonCentroid(poly: Vec2[]): Vec2 {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const f = poly[j].x * poly[i].y - poly[i].x * poly[j].y;
    a += f;
    cx += (poly[j].x + poly[i].x) * f;
    cy += (poly[j].y + poly[i].y) * f;
  }
  if (Math.abs(a) < 1e-12) return meanPoint(poly);
  return { x: cx / (3 * a), y: cy / (3 * a) };
}

export interface Aabb {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function polygonAabb(poly: Vec2[]): Aabb {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of poly) {
    if (p.x < minX) minX = p.x;
    if (p.y < minY) minY = p.y;
    if (p.x > maxX) maxX = p.x;
    if (p.y > maxY) maxY = p.y;
  }
  return { minX, minY, maxX, maxY };
}

/** Axis-aligned rectangle as a polygon. */
export function rectanglePolygon(x: number, y: number, width: number, height: number): Vec2[] {
  return [
    { x, y },
    { x: x + width, y },
    { x: x + width, y: y + height },
    { x, y: y + height },
  ];
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** The four orientations of two segments' ends say they cross at a point inside both (strictly opposite sides). */
function crosses(o1: number, o2: number, o3: number, o4: number): boolean {
  return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

/** Do segments AB and CD cross at a point inside both (touching or running along one another does not count)? */
function segmentsCross(a: Vec2, b: Vec2, c: Vec2, d: Vec2): boolean {
  return crosses(orient(a.x, a.y, b.x, b.y, c.x, c.y), orient(a.x, a.y, b.x, b.y, d.x, d.y), orient(c.x, c.y, d.x, d.y, a.x, a.y), orient(c.x, c.y, d.x, d.y, b.x, b.y));
}

/** Do segments AB and CD intersect (touching counts)? */
export function segmentsIntersect(a: Vec2, b: Vec2, c: Vec2, d: Vec2): boolean {
  const o1 = orient(a.x, a.y, b.x, b.y, c.x, c.y);
  const o2 = orient(a.x, a.y, b.x, b.y, d.x, d.y);
  const o3 = orient(c.x, c.y, d.x, d.y, a.x, a.y);
  const o4 = orient(c.x, c.y, d.x, d.y, b.x, b.y);
  if (crosses(o1, o2, o3, o4)) return true;
  if (o1 === 0 && onSegment(a, b, c)) return true;
  if (o2 === 0 && onSegment(a, b, d)) return true;
  if (o3 === 0 && onSegment(c, d, a)) return true;
  if (o4 === 0 && onSegment(c, d, b)) return true;
  return false;
}

/**
 * Do two simple polygons share some area (more than touching along an edge or at a point)? An edge of one
 * properly crosses an edge of the other, or a vertex, an edge's midpoint or the centroid of one lies inside the
 * other, more than `eps` from its outline (identical or nested polygons cross no edge).
 */
export function polygonsOverlap(a: Vec2[], b: Vec2[], eps = 1e-6): boolean {
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) if (segmentsCross(a[i], a[(i + 1) % a.length], b[j], b[(j + 1) % b.length])) return true;
  }
  const inside = (pt: Vec2, poly: Vec2[]) => pointInPolygon(pt, poly) && distanceToPolygonOutline(pt, poly) > eps;
  const probes = (poly: Vec2[]) => [...poly, ...poly.map((v, i) => ({ x: (v.x + poly[(i + 1) % poly.length].x) / 2, y: (v.y + poly[(i + 1) % poly.length].y) / 2 })), polygonCentroid(poly)];
  return probes(a).some((pt) => inside(pt, b)) || probes(b).some((pt) => inside(pt, a));
}

function onSegment(a: Vec2, b: Vec2, p: Vec2): boolean {
  return (
    Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y)
  );
}

/**
 * Parameter t in [0, 1] along AB where it crosses CD, or -1 when they do not cross at a single
 * point (parallel, or apart).
 */
export function segmentIntersectionParam(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): number {
  const rx = bx - ax;
  const ry = by - ay;
  const sx = dx - cx;
  const sy = dy - cy;
  const den = rx * sy - ry * sx;
  if (den === 0) return -1;
  const qx = cx - ax;
  const qy = cy - ay;
  const t = (qx * sy - qy * sx) / den;
  const u = (qx * ry - qy * rx) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return -1;
  return t;
}

/** Distance from a point to the polygon's outline. */
export function distanceToPolygonOutline(p: Vec2, poly: Vec2[]): number {
  return distanceToPolygonOutlineXY(p.x, p.y, poly);
}

/** distanceToPolygonOutline of the point (x, y), without a point object (hot in line of sight). */
export function distanceToPolygonOutlineXY(x: number, y: number, poly: Vec2[]): number {
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const d = pointSegmentDistance(x, y, poly[j].x, poly[j].y, poly[i].x, poly[i].y);
    if (d < best) best = d;
  }
  return best;
}

/** Distance from a point to the polygon (0 inside). */
export function distanceToPolygon(p: Vec2, poly: Vec2[]): number {
  if (pointInPolygon(p, poly)) return 0;
  return distanceToPolygonOutline(p, poly);
}

/** Does the disc of centre c and radius r intersect the polygon (touching counts)? */
export function circleIntersectsPolygon(c: Vec2, r: number, poly: Vec2[]): boolean {
  return distanceToPolygon(c, poly) <= r;
}

/** Is the disc of centre c and radius r wholly inside the polygon (touching the outline counts as inside)? */
export function circleWhollyInPolygon(c: Vec2, r: number, poly: Vec2[]): boolean {
  return pointInPolygon(c, poly) && distanceToPolygonOutline(c, poly) >= r;
}

// ---------------------------------------------------------------------------------------------
// Convex shapes against polygons.

const edge = newShape();
const shrunk = newShape();

/** Distance from a convex shape to the polygon's outline (not its interior). */
export function shapeDistanceToOutline(sh: Shape, poly: Vec2[]): number {
  let best = Infinity;
  const n = poly.length;
  const simple = sh.k === CORE_POINT && sh.sx === 0 && sh.sy === 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    let d: number;
    if (simple) d = pointSegmentDistance(sh.x, sh.y, poly[j].x, poly[j].y, poly[i].x, poly[i].y);
    else d = coreDistance(setSegmentShape(edge, poly[j].x, poly[j].y, poly[i].x, poly[i].y, 0), sh);
    if (d < best) {
      best = d;
      if (best <= 0) break;
    }
  }
  return best - sh.m;
}

/**
 * Is a point inside the core of the shape (its reference point, or the middle of a swept/segment core)
 * inside the polygon? (No point object: asked for every terrain piece a sight line or move crosses.)
 */
function corePointInPolygon(sh: Shape, poly: Vec2[]): boolean {
  if (sh.k === 3) return pointInPolygonXY((sh.x + sh.a) / 2 + sh.sx / 2, (sh.y + sh.b) / 2 + sh.sy / 2, poly);
  return pointInPolygonXY(sh.x + sh.sx / 2, sh.y + sh.sy / 2, poly);
}

/** Edge-to-edge distance from a convex shape to the polygon (0 when they touch or overlap). */
export function shapeDistanceToPolygon(sh: Shape, poly: Vec2[]): number {
  if (corePointInPolygon(sh, poly)) return 0;
  const d = shapeDistanceToOutline(sh, poly);
  return d > 0 ? d : 0;
}

/** Does the shape overlap the polygon by more than `tolerance` (touching does not count)? */
export function shapeOverlapsPolygon(sh: Shape, poly: Vec2[], tolerance: number): boolean {
  if (corePointInPolygon(sh, poly)) return true;
  shrinkShape(shrunk, sh, tolerance);
  return shapeDistanceToOutline(shrunk, poly) <= 0;
}

/** Does the shape touch or overlap the polygon (within `tolerance`)? */
export function shapeTouchesPolygon(sh: Shape, poly: Vec2[], tolerance: number): boolean {
  if (corePointInPolygon(sh, poly)) return true;
  return shapeDistanceToOutline(sh, poly) <= tolerance;
}

/** Is the shape wholly within the polygon (it may stick out by at most `tolerance`)? */
export function shapeWhollyInPolygon(sh: Shape, poly: Vec2[], tolerance: number): boolean {
  if (!corePointInPolygon(sh, poly)) return false;
  shrinkShape(shrunk, sh, tolerance);
  return shapeDistanceToOutline(shrunk, poly) > 0;
}

/**
 * The parts of segment AB that lie inside the polygon, as parameter intervals [t0, t1] (flattened
 * into `out`, which is cleared). Robust to vertices and edges touching the segment: crossing
 * parameters are sorted and each sub-interval's midpoint is tested (strictly inside: a segment
 * running along an edge is not inside).
 */
export function segmentInsideIntervals(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  poly: Vec2[],
  out: NumberList,
): void {
  out.n = 0;
  const list = scratchTs;
  list.n = 0;
  list.push(0);
  list.push(1);
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const t = segmentIntersectionParam(ax, ay, bx, by, poly[j].x, poly[j].y, poly[i].x, poly[i].y);
    if (t > 0 && t < 1) list.push(t);
  }
  // insertion sort: a handful of values, and Array.prototype.sort allocates a work array on every call
  // (it was the largest allocation of a whole game, through line of sight)
  const ts = list.v;
  const count = list.n;
  for (let k = 1; k < count; k++) {
    const v = ts[k];
    let m = k - 1;
    while (m >= 0 && ts[m] > v) { ts[m + 1] = ts[m]; m--; }
    ts[m + 1] = v;
  }
  const dx = bx - ax;
  const dy = by - ay;
  for (let k = 0; k + 1 < count; k++) {
    const t0 = ts[k];
    const t1 = ts[k + 1];
    if (t1 - t0 < 1e-12) continue;
    const tm = (t0 + t1) / 2;
    const mx = ax + tm * dx;
    const my = ay + tm * dy;
    if (pointInPolygonXY(mx, my, poly) && distanceToPolygonOutlineXY(mx, my, poly) > 1e-9) {
      const last = out.n;
      if (last >= 2 && out.v[last - 1] === t0) out.v[last - 1] = t1;
      else { out.push(t0); out.push(t1); }
    }
  }
}
const scratchTs = new NumberList();

/** Does segment AB pass through the polygon's interior (not merely graze its outline)? */
export function segmentCrossesPolygon(a: Vec2, b: Vec2, poly: Vec2[]): boolean {
  segmentInsideIntervals(a.x, a.y, b.x, b.y, poly, scratchIntervals);
  return scratchIntervals.n > 0;
}
const scratchIntervals = new NumberList();

/**
 * Grows a polygon outwards by `d` (miter offset, with miters capped at 2d from the vertex). Used to
 * put path waypoints just outside obstacles. Works for either winding.
 */
export function offsetPolygonVertices(poly: Vec2[], d: number): Vec2[] {
  const ccw = polygonSignedArea(poly) > 0; // +x towards +y
  const n = poly.length;
  const out: Vec2[] = [];
  for (let i = 0; i < n; i++) {
    const p = poly[(i + n - 1) % n];
    const c = poly[i];
    const q = poly[(i + 1) % n];
    // outward normals of edges p->c and c->q
    const n1 = outwardNormal(p, c, ccw);
    const n2 = outwardNormal(c, q, ccw);
    let mx = n1.x + n2.x;
    let my = n1.y + n2.y;
    const ml = len(mx, my);
    if (ml < 1e-9) {
      mx = n1.x;
      my = n1.y;
    } else {
      mx /= ml;
      my /= ml;
    }
    const cosHalf = mx * n1.x + my * n1.y;
    let reach = cosHalf > 1e-6 ? d / cosHalf : 2 * d;
    if (reach > 2 * d) reach = 2 * d;
    out.push({ x: c.x + mx * reach, y: c.y + my * reach });
  }
  return out;
}

function outwardNormal(a: Vec2, b: Vec2, ccw: boolean): Vec2 {
  const ex = b.x - a.x;
  const ey = b.y - a.y;
  const l = len(ex, ey) || 1;
  // positive signed area: the interior lies on the side of (-ey, ex), so the outward normal is (ey, -ex)
  return ccw ? { x: ey / l, y: -ex / l } : { x: -ey / l, y: ex / l };
}
