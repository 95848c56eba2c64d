/**
 * Convex shapes and the distance between them (internal to src/geometry).
 *
 * A Shape is a convex "core" (point, ellipse, rectangle or segment), optionally swept along a vector
 * (the area a base covers while it slides in a straight line), grown by a margin radius. A round base
 * is a point with margin r, so circle-circle distances stay exact and cheap; a round base sliding
 * from A to B is the segment AB with margin r.
 *
 * Distances between two shapes use closed forms where they exist (point-point, point-segment,
 * point-rectangle) and otherwise the GJK distance algorithm on the cores' support functions, minus
 * the margins. GJK is exact (to rounding) when both cores are polygons (rectangles, segments,
 * points) and converges on ellipses; it stops when the gap between its upper and lower bound falls
 * below GJK_TOLERANCE (1e-9") or after GJK_MAX_ITERATIONS (it then returns its upper bound).
 * Against a brute-force search over both outlines (test/geometry/distance.test.ts, ~90 random pairs
 * of every kind of base) the worst error measured is 9e-10"; the test asserts 1e-6".
 * "Wholly within" of an oval samples its outline (48 points) and refines the best one by golden
 * section search (40 steps): the error is of the same order.
 *
 * Shapes are small mutable records so that inner loops can re-use one instead of allocating.
 */
import { len } from './vec.ts';
import type { Base, Vec2 } from './types.ts';

export const CORE_POINT = 0;
export const CORE_ELLIPSE = 1;
export const CORE_RECT = 2;
export const CORE_SEGMENT = 3;

export interface Shape {
  /** CORE_POINT | CORE_ELLIPSE | CORE_RECT | CORE_SEGMENT */
  k: number;
  /** centre (point, ellipse, rect) or first end (segment) */
  x: number;
  y: number;
  /** ellipse: semi-axes; rect: half-length (local x) and half-width (local y); segment: second end */
  a: number;
  b: number;
  /** cos and sin of the rotation (ellipse, rect) */
  c: number;
  s: number;
  /** margin radius added all around the core */
  m: number;
  /** sweep vector: the core slides from its position to position + (sx, sy) */
  sx: number;
  sy: number;
}

export function newShape(): Shape {
  return { k: CORE_POINT, x: 0, y: 0, a: 0, b: 0, c: 1, s: 0, m: 0, sx: 0, sy: 0 };
}

/** Writes the shape of a base centred at (x, y) into `out` (no sweep). */
export function setBaseShape(out: Shape, base: Base, x: number, y: number): Shape {
  out.x = x;
  out.y = y;
  out.sx = 0;
  out.sy = 0;
  switch (base.kind) {
    case 'circle':
      out.k = CORE_POINT;
      out.a = 0;
      out.b = 0;
      out.c = 1;
      out.s = 0;
      out.m = base.r;
      break;
    case 'oval':
      if (base.rx === base.ry) {
        out.k = CORE_POINT;
        out.a = 0;
        out.b = 0;
        out.c = 1;
        out.s = 0;
        out.m = base.rx;
      } else {
        out.k = CORE_ELLIPSE;
        out.a = base.rx;
        out.b = base.ry;
        out.c = Math.cos(base.angle);
        out.s = Math.sin(base.angle);
        out.m = 0;
      }
      break;
    case 'rect':
      out.k = CORE_RECT;
      out.a = base.l / 2;
      out.b = base.w / 2;
      out.c = Math.cos(base.angle);
      out.s = Math.sin(base.angle);
      out.m = 0;
      break;
  }
  return out;
}

export function baseShape(base: Base, x: number, y: number): Shape {
  return setBaseShape(newShape(), base, x, y);
}

export function setSegmentShape(out: Shape, ax: number, ay: number, bx: number, by: number, margin: number): Shape {
  out.k = CORE_SEGMENT;
  out.x = ax;
  out.y = ay;
  out.a = bx;
  out.b = by;
  out.c = 1;
  out.s = 0;
  out.m = margin;
  out.sx = 0;
  out.sy = 0;
  return out;
}

export function setPointShape(out: Shape, x: number, y: number, margin: number): Shape {
  out.k = CORE_POINT;
  out.x = x;
  out.y = y;
  out.a = 0;
  out.b = 0;
  out.c = 1;
  out.s = 0;
  out.m = margin;
  out.sx = 0;
  out.sy = 0;
  return out;
}

export function copyShape(out: Shape, src: Shape): Shape {
  out.k = src.k;
  out.x = src.x;
  out.y = src.y;
  out.a = src.a;
  out.b = src.b;
  out.c = src.c;
  out.s = src.s;
  out.m = src.m;
  out.sx = src.sx;
  out.sy = src.sy;
  return out;
}

/** Shrinks a shape by t all around (approximately for ellipses: both semi-axes lose t). Used for tolerances. */
export function shrinkShape(out: Shape, src: Shape, t: number): Shape {
  copyShape(out, src);
  if (out.m >= t) {
    out.m -= t;
  } else {
    const rest = t - out.m;
    out.m = 0;
    if (out.k === CORE_ELLIPSE || out.k === CORE_RECT) {
      out.a = Math.max(0, out.a - rest);
      out.b = Math.max(0, out.b - rest);
    }
  }
  return out;
}

/** Largest distance from the shape's reference point (centre) to its outline, ignoring sweep. */
export function boundingRadius(sh: Shape): number {
  switch (sh.k) {
    case CORE_ELLIPSE:
      return Math.max(sh.a, sh.b) + sh.m;
    case CORE_RECT:
      return Math.sqrt(sh.a * sh.a + sh.b * sh.b) + sh.m;
    case CORE_SEGMENT:
      return len(sh.a - sh.x, sh.b - sh.y) + sh.m;
    default:
      return sh.m;
  }
}

export function baseBoundingRadius(base: Base): number {
  switch (base.kind) {
    case 'circle':
      return base.r;
    case 'oval':
      return Math.max(base.rx, base.ry);
    case 'rect':
      return len(base.l, base.w) / 2;
  }
}

/** Half extents along x and y of a base (its axis-aligned bounding box is centre +- these). */
export function baseHalfExtents(base: Base): Vec2 {
  switch (base.kind) {
    case 'circle':
      return { x: base.r, y: base.r };
    case 'oval': {
      const c = Math.cos(base.angle);
      const s = Math.sin(base.angle);
      return {
        x: Math.sqrt(base.rx * base.rx * c * c + base.ry * base.ry * s * s),
        y: Math.sqrt(base.rx * base.rx * s * s + base.ry * base.ry * c * c),
      };
    }
    case 'rect': {
      const c = Math.abs(Math.cos(base.angle));
      const s = Math.abs(Math.sin(base.angle));
      return { x: (base.l / 2) * c + (base.w / 2) * s, y: (base.l / 2) * s + (base.w / 2) * c };
    }
  }
}

/** Axis-aligned bounding box of a shape (sweep and margin included), written into out as [minX, minY, maxX, maxY]. */
export function shapeAabb(sh: Shape, out: Float64Array | number[]): void {
  let hx = 0;
  let hy = 0;
  let cx = sh.x;
  let cy = sh.y;
  switch (sh.k) {
    case CORE_ELLIPSE:
      hx = Math.sqrt(sh.a * sh.a * sh.c * sh.c + sh.b * sh.b * sh.s * sh.s);
      hy = Math.sqrt(sh.a * sh.a * sh.s * sh.s + sh.b * sh.b * sh.c * sh.c);
      break;
    case CORE_RECT: {
      const c = Math.abs(sh.c);
      const s = Math.abs(sh.s);
      hx = sh.a * c + sh.b * s;
      hy = sh.a * s + sh.b * c;
      break;
    }
    case CORE_SEGMENT:
      cx = (sh.x + sh.a) / 2;
      cy = (sh.y + sh.b) / 2;
      hx = Math.abs(sh.a - sh.x) / 2;
      hy = Math.abs(sh.b - sh.y) / 2;
      break;
  }
  hx += sh.m;
  hy += sh.m;
  out[0] = cx - hx + Math.min(0, sh.sx);
  out[1] = cy - hy + Math.min(0, sh.sy);
  out[2] = cx + hx + Math.max(0, sh.sx);
  out[3] = cy + hy + Math.max(0, sh.sy);
}

// ---------------------------------------------------------------------------------------------
// Support functions and GJK.

// Scratch results in typed arrays, not module-level `let`s: a double stored in a module variable is
// boxed (a new heap number per assignment in this V8), and GJK assigns them millions of times a game.
const SUP = new Float64Array(2);

/** Support point of the core (margin excluded, sweep included) in direction (dx, dy), into SUP[0]/SUP[1]. */
function coreSupport(sh: Shape, dx: number, dy: number): void {
  switch (sh.k) {
    case CORE_POINT:
      SUP[0] = sh.x;
      SUP[1] = sh.y;
      break;
    case CORE_ELLIPSE: {
      const lx = sh.c * dx + sh.s * dy;
      const ly = -sh.s * dx + sh.c * dy;
      const ax = sh.a * sh.a * lx;
      const by = sh.b * sh.b * ly;
      const n = Math.sqrt(ax * lx + by * ly);
      if (n === 0) {
        SUP[0] = sh.x;
        SUP[1] = sh.y;
      } else {
        const px = ax / n;
        const py = by / n;
        SUP[0] = sh.x + sh.c * px - sh.s * py;
        SUP[1] = sh.y + sh.s * px + sh.c * py;
      }
      break;
    }
    case CORE_RECT: {
      const lx = sh.c * dx + sh.s * dy;
      const ly = -sh.s * dx + sh.c * dy;
      const px = lx >= 0 ? sh.a : -sh.a;
      const py = ly >= 0 ? sh.b : -sh.b;
      SUP[0] = sh.x + sh.c * px - sh.s * py;
      SUP[1] = sh.y + sh.s * px + sh.c * py;
      break;
    }
    case CORE_SEGMENT:
      if (dx * (sh.a - sh.x) + dy * (sh.b - sh.y) > 0) {
        SUP[0] = sh.a;
        SUP[1] = sh.b;
      } else {
        SUP[0] = sh.x;
        SUP[1] = sh.y;
      }
      break;
  }
  if (dx * sh.sx + dy * sh.sy > 0) {
    SUP[0] += sh.sx;
    SUP[1] += sh.sy;
  }
}

/** Support point of the full shape (margin included) in direction (dx, dy). */
export function shapeSupport(sh: Shape, dx: number, dy: number): Vec2 {
  return shapeSupportInto(sh, dx, dy, { x: 0, y: 0 });
}

/** shapeSupport written into `out` (no allocation: sight lines are drawn by the hundred thousand). */
export function shapeSupportInto(sh: Shape, dx: number, dy: number, out: Vec2): Vec2 {
  coreSupport(sh, dx, dy);
  const n = Math.sqrt(dx * dx + dy * dy);
  if (n > 0 && sh.m > 0) {
    out.x = SUP[0] + (sh.m * dx) / n;
    out.y = SUP[1] + (sh.m * dy) / n;
  } else {
    out.x = SUP[0];
    out.y = SUP[1];
  }
  return out;
}

export const GJK_TOLERANCE = 1e-9;
export const GJK_MAX_ITERATIONS = 64;

// simplex scratch (at most 3 points of the Minkowski difference)
const spx = new Float64Array(3);
const spy = new Float64Array(3);
const V = new Float64Array(2);

/** Closest point of segment P-Q to the origin into V[0]/V[1]; returns 1 (P only), 2 (Q only) or 3 (interior). */
function closestOnSegment(px: number, py: number, qx: number, qy: number): number {
  const ex = qx - px;
  const ey = qy - py;
  const ee = ex * ex + ey * ey;
  if (ee <= 1e-300) {
    V[0] = px;
    V[1] = py;
    return 1;
  }
  const t = -(px * ex + py * ey) / ee;
  if (t <= 0) {
    V[0] = px;
    V[1] = py;
    return 1;
  }
  if (t >= 1) {
    V[0] = qx;
    V[1] = qy;
    return 2;
  }
  V[0] = px + t * ex;
  V[1] = py + t * ey;
  return 3;
}

/**
 * Distance between the cores of two shapes (margins not subtracted), 0 when they intersect.
 * Fast paths for point/segment pairs; GJK otherwise.
 */
export function coreDistance(A: Shape, B: Shape): number {
  const ak = A.k;
  const bk = B.k;
  const aSwept = A.sx !== 0 || A.sy !== 0;
  const bSwept = B.sx !== 0 || B.sy !== 0;
  if (ak === CORE_POINT && bk === CORE_POINT && !aSwept && !bSwept) {
    const dx = A.x - B.x;
    const dy = A.y - B.y;
    return Math.sqrt(dx * dx + dy * dy);
  }
  if (ak === CORE_POINT && !aSwept && !bSwept) {
    if (bk === CORE_SEGMENT) return pointSegmentDistance(A.x, A.y, B.x, B.y, B.a, B.b);
    if (bk === CORE_RECT) return pointRectDistance(A.x, A.y, B);
    if (bk === CORE_ELLIPSE) return pointEllipseDistance(A.x, A.y, B);
  }
  if (bk === CORE_POINT && !aSwept && !bSwept) {
    if (ak === CORE_SEGMENT) return pointSegmentDistance(B.x, B.y, A.x, A.y, A.a, A.b);
    if (ak === CORE_RECT) return pointRectDistance(B.x, B.y, A);
    if (ak === CORE_ELLIPSE) return pointEllipseDistance(B.x, B.y, A);
  }
  if (ak === CORE_POINT && bk === CORE_POINT) {
    // swept point(s) against point(s): a point against a segment
    const ax = A.x - B.x;
    const ay = A.y - B.y;
    const dx = A.sx - B.sx;
    const dy = A.sy - B.sy;
    return pointSegmentDistance(0, 0, ax, ay, ax + dx, ay + dy);
  }
  return gjkDistance(A, B);
}

/**
 * Distance from a point to an ellipse core (0 inside). In the ellipse's own frame, folded into the
 * first quadrant, the nearest boundary point is found by the fixed-point iteration on the evolute
 * (the "trig-free" method, Chatfield 2017): it converges to far below 1e-9" in a few steps for any
 * eccentricity a base can have. Much cheaper than GJK for the common round base against an oval one.
 */
function pointEllipseDistance(px: number, py: number, E: Shape): number {
  const dx = px - E.x;
  const dy = py - E.y;
  // into the ellipse frame (a along local x)
  const lx = Math.abs(dx * E.c + dy * E.s);
  const ly = Math.abs(-dx * E.s + dy * E.c);
  const a = E.a;
  const b = E.b;
  if ((lx * lx) / (a * a) + (ly * ly) / (b * b) <= 1) return 0;
  let tx = 0.70710678118;
  let ty = 0.70710678118;
  const a2b2 = a * a - b * b;
  for (let i = 0; i < 8; i++) {
    const x = a * tx;
    const y = b * ty;
    const ex = (a2b2 * tx * tx * tx) / a;
    const ey = (-a2b2 * ty * ty * ty) / b;
    const rx = x - ex;
    const ry = y - ey;
    const qx = lx - ex;
    const qy = ly - ey;
    const r = Math.sqrt(rx * rx + ry * ry);
    const q = Math.sqrt(qx * qx + qy * qy);
    tx = Math.min(1, Math.max(0, ((qx * r) / q + ex) / a));
    ty = Math.min(1, Math.max(0, ((qy * r) / q + ey) / b));
    const t = Math.sqrt(tx * tx + ty * ty);
    tx /= t;
    ty /= t;
  }
  const cx = a * tx - lx;
  const cy = b * ty - ly;
  return Math.sqrt(cx * cx + cy * cy);
}

export function pointSegmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax;
  const ey = by - ay;
  const ee = ex * ex + ey * ey;
  let t = ee > 0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const dx = ax + t * ex - px;
  const dy = ay + t * ey - py;
  return Math.sqrt(dx * dx + dy * dy);
}

function pointRectDistance(px: number, py: number, R: Shape): number {
  const dx = px - R.x;
  const dy = py - R.y;
  const lx = Math.abs(R.c * dx + R.s * dy) - R.a;
  const ly = Math.abs(-R.s * dx + R.c * dy) - R.b;
  const ox = lx > 0 ? lx : 0;
  const oy = ly > 0 ? ly : 0;
  return Math.sqrt(ox * ox + oy * oy);
}

/** GJK distance between the cores of A and B (0 when they intersect). */
export function gjkDistance(A: Shape, B: Shape): number {
  // initial direction: centre difference
  let dx = A.x - B.x + A.sx / 2 - B.sx / 2;
  let dy = A.y - B.y + A.sy / 2 - B.sy / 2;
  if (A.k === CORE_SEGMENT) {
    dx += (A.a - A.x) / 2;
    dy += (A.b - A.y) / 2;
  }
  if (B.k === CORE_SEGMENT) {
    dx -= (B.a - B.x) / 2;
    dy -= (B.b - B.y) / 2;
  }
  if (dx === 0 && dy === 0) dx = 1;
  // first simplex point: support of A - B in direction -d
  coreSupport(A, -dx, -dy);
  let wx = SUP[0];
  let wy = SUP[1];
  coreSupport(B, dx, dy);
  wx -= SUP[0];
  wy -= SUP[1];
  spx[0] = wx;
  spy[0] = wy;
  let n = 1;
  V[0] = wx;
  V[1] = wy;
  let best = Infinity;
  for (let iter = 0; iter < GJK_MAX_ITERATIONS; iter++) {
    const vv = V[0] * V[0] + V[1] * V[1];
    if (vv <= 1e-24) return 0;
    const vlen = Math.sqrt(vv);
    coreSupport(A, -V[0], -V[1]);
    wx = SUP[0];
    wy = SUP[1];
    coreSupport(B, V[0], V[1]);
    wx -= SUP[0];
    wy -= SUP[1];
    // v.w / |v| is a lower bound of the distance, |v| an upper bound
    const lower = (V[0] * wx + V[1] * wy) / vlen;
    if (vlen - lower <= GJK_TOLERANCE || vlen >= best) return Math.min(vlen, best);
    best = vlen;
    // add w and reduce the simplex to the part closest to the origin
    if (n === 1) {
      const code = closestOnSegment(spx[0], spy[0], wx, wy);
      if (code === 1) {
        n = 1;
      } else if (code === 2) {
        spx[0] = wx;
        spy[0] = wy;
        n = 1;
      } else {
        spx[1] = wx;
        spy[1] = wy;
        n = 2;
      }
    } else {
      // triangle P0 P1 W
      const p0x = spx[0];
      const p0y = spy[0];
      const p1x = spx[1];
      const p1y = spy[1];
      const c0 = cross(p0x, p0y, p1x, p1y); // sign of origin wrt edge P0P1... via areas
      const c1 = cross(p1x, p1y, wx, wy);
      const c2 = cross(wx, wy, p0x, p0y);
      if ((c0 >= 0 && c1 >= 0 && c2 >= 0) || (c0 <= 0 && c1 <= 0 && c2 <= 0)) return 0; // origin inside
      // closest of the three edges
      let bestD = Infinity;
      let bx = 0;
      let by = 0;
      let keepN = 0;
      let k0x = 0;
      let k0y = 0;
      let k1x = 0;
      let k1y = 0;
      const edges = 3;
      for (let e = 0; e < edges; e++) {
        let ax: number, ay: number, qx: number, qy: number;
        if (e === 0) {
          ax = p0x; ay = p0y; qx = p1x; qy = p1y;
        } else if (e === 1) {
          ax = p1x; ay = p1y; qx = wx; qy = wy;
        } else {
          ax = wx; ay = wy; qx = p0x; qy = p0y;
        }
        const code = closestOnSegment(ax, ay, qx, qy);
        const d = V[0] * V[0] + V[1] * V[1];
        if (d < bestD) {
          bestD = d;
          bx = V[0];
          by = V[1];
          if (code === 1) {
            keepN = 1; k0x = ax; k0y = ay;
          } else if (code === 2) {
            keepN = 1; k0x = qx; k0y = qy;
          } else {
            keepN = 2; k0x = ax; k0y = ay; k1x = qx; k1y = qy;
          }
        }
      }
      V[0] = bx;
      V[1] = by;
      spx[0] = k0x;
      spy[0] = k0y;
      spx[1] = k1x;
      spy[1] = k1y;
      n = keepN;
    }
  }
  return Math.min(Math.sqrt(V[0] * V[0] + V[1] * V[1]), best);
}

function cross(ax: number, ay: number, bx: number, by: number): number {
  return ax * by - ay * bx;
}

/** Edge-to-edge distance between two shapes (0 when they touch or overlap). */
export function shapeDistance(A: Shape, B: Shape): number {
  const d = coreDistance(A, B) - A.m - B.m;
  return d > 0 ? d : 0;
}

const tmpA = newShape();
const tmpB = newShape();

/** True when the shapes interpenetrate by more than `tolerance` (touching is not overlapping). */
export function shapesOverlap(A: Shape, B: Shape, tolerance: number): boolean {
  if (A.k === CORE_POINT && B.k === CORE_POINT && A.sx === 0 && A.sy === 0 && B.sx === 0 && B.sy === 0) {
    const dx = A.x - B.x;
    const dy = A.y - B.y;
    const r = A.m + B.m - tolerance;
    return r > 0 && dx * dx + dy * dy < r * r;
  }
  shrinkShape(tmpA, A, tolerance / 2);
  shrinkShape(tmpB, B, tolerance / 2);
  return coreDistance(tmpA, tmpB) - tmpA.m - tmpB.m <= 0;
}

// ---------------------------------------------------------------------------------------------
// Points and outlines.

const tmpP = newShape();

/** Distance from a point to the shape (0 inside). */
export function pointShapeDistance(px: number, py: number, sh: Shape): number {
  setPointShape(tmpP, px, py, 0);
  const d = coreDistance(tmpP, sh) - sh.m;
  return d > 0 ? d : 0;
}

/** Corner points of a rect core (margin ignored), in order. */
export function rectCorners(sh: Shape): Vec2[] {
  const out: Vec2[] = [];
  const sg = [
    [1, 1],
    [-1, 1],
    [-1, -1],
    [1, -1],
  ];
  for (const [i, j] of sg) {
    const lx = i * sh.a;
    const ly = j * sh.b;
    out.push({ x: sh.x + sh.c * lx - sh.s * ly, y: sh.y + sh.s * lx + sh.c * ly });
  }
  return out;
}

/**
 * Largest value of f over the outline of a smooth closed curve parametrised on [0, 2pi):
 * 48 samples, then golden-section refinement around the best one. Used for ellipses and circles.
 */
export function maxOverOutline(f: (t: number) => number): number {
  const N = 48;
  let bestT = 0;
  let best = -Infinity;
  for (let i = 0; i < N; i++) {
    const t = (i * 2 * Math.PI) / N;
    const v = f(t);
    if (v > best) {
      best = v;
      bestT = t;
    }
  }
  let lo = bestT - (2 * Math.PI) / N;
  let hi = bestT + (2 * Math.PI) / N;
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = hi - g * (hi - lo);
  let x2 = lo + g * (hi - lo);
  let f1 = f(x1);
  let f2 = f(x2);
  for (let i = 0; i < 40; i++) {
    if (f1 < f2) {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = f(x2);
    } else {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = f(x1);
    }
  }
  return Math.max(best, f1, f2);
}

/** Largest distance from point p to any point of the (unswept) shape. */
export function farthestPointDistance(px: number, py: number, sh: Shape): number {
  switch (sh.k) {
    case CORE_POINT:
      return len(sh.x - px, sh.y - py) + sh.m;
    case CORE_SEGMENT:
      return Math.max(len(sh.x - px, sh.y - py), len(sh.a - px, sh.b - py)) + sh.m;
    case CORE_RECT: {
      let best = 0;
      for (const q of rectCorners(sh)) best = Math.max(best, len(q.x - px, q.y - py));
      return best + sh.m;
    }
    default: {
      const a = sh.a;
      const b = sh.b;
      return (
        maxOverOutline((t) => {
          const lx = a * Math.cos(t);
          const ly = b * Math.sin(t);
          const qx = sh.x + sh.c * lx - sh.s * ly;
          const qy = sh.y + sh.s * lx + sh.c * ly;
          return len(qx - px, qy - py);
        }) + sh.m
      );
    }
  }
}

/**
 * Largest distance from a point of shape A to shape B (0 when A lies inside B): "A is wholly within X
 * of B" exactly when this is <= X. Exact for a round A (distance from its centre to B plus its
 * radius: B is convex) and a rectangular A (its corners); sampled and refined for an oval A.
 */
export function farthestDistanceToShape(A: Shape, B: Shape): number {
  switch (A.k) {
    case CORE_POINT: {
      const d = pointShapeDistanceCore(A.x, A.y, B);
      // disc of radius m around the centre: farthest point is the centre's distance to B plus m,
      // except when the centre is deep inside B (then the disc may still be wholly inside)
      if (d > 0) return d + A.m;
      return Math.max(0, farthestFromInside(A, B));
    }
    case CORE_RECT: {
      let best = 0;
      for (const q of rectCorners(A)) best = Math.max(best, pointShapeDistance(q.x, q.y, B));
      return best;
    }
    case CORE_SEGMENT:
      return Math.max(pointShapeDistance(A.x, A.y, B), pointShapeDistance(A.a, A.b, B));
    default:
      return Math.max(
        0,
        maxOverOutline((t) => {
          const lx = A.a * Math.cos(t);
          const ly = A.b * Math.sin(t);
          const qx = A.x + A.c * lx - A.s * ly;
          const qy = A.y + A.s * lx + A.c * ly;
          return pointShapeDistance(qx, qy, B);
        }),
      );
  }
}

function pointShapeDistanceCore(px: number, py: number, sh: Shape): number {
  setPointShape(tmpP, px, py, 0);
  return coreDistance(tmpP, sh) - sh.m;
}

/** For a disc A whose centre lies inside B: largest distance from the disc's outline to B. */
function farthestFromInside(A: Shape, B: Shape): number {
  return maxOverOutline((t) => pointShapeDistance(A.x + A.m * Math.cos(t), A.y + A.m * Math.sin(t), B));
}
