import { describe, expect, it } from 'vitest';
import {
  horizontalDistance,
  verticalDistance,
  distance,
  basesOverlap,
  modelsOverlap,
  isWithinOfPoint,
  isWhollyWithinOfPoint,
  isWhollyWithinOfBody,
  isWhollyWithinPolygon,
  isWithinOfPolygon,
  overlapsPolygon,
  horizontalDistanceToPolygon,
  isWhollyWithinOfEdge,
  isOnBoard,
  horizontalDistanceToPoint,
} from '../../src/geometry/distance.ts';
import { baseFromSize, baseOutline } from '../../src/geometry/bases.ts';
import { baseShape, shapeDistance } from '../../src/geometry/shape.ts';
import { pointInPolygon } from '../../src/geometry/polygon.ts';
import type { Base } from '../../src/geometry/types.ts';
import { body, circle, oval, rect, R32, square } from './helpers.ts';

describe('bases', () => {
  it('converts datasheet base sizes (mm) into inches', () => {
    expect(baseFromSize({ shape: 'round', diameterMm: 32 })).toEqual({ kind: 'circle', r: 16 / 25.4 });
    expect(baseFromSize({ shape: 'oval', lengthMm: 90, widthMm: 52 })).toEqual({ kind: 'oval', rx: 45 / 25.4, ry: 26 / 25.4, angle: 0 });
    expect(baseFromSize({ shape: 'hull', lengthMm: 150, widthMm: 90 })).toEqual({ kind: 'rect', l: 150 / 25.4, w: 90 / 25.4, angle: 0 });
    expect(baseFromSize({ shape: 'oval', lengthMm: 60, widthMm: 60 })).toEqual({ kind: 'circle', r: 30 / 25.4 });
  });
});

describe('horizontal distance between round bases', () => {
  it('is measured edge to edge', () => {
    const a = body(10, 10);
    const b = body(10 + 2 * R32 + 0.99, 10);
    expect(horizontalDistance(a, b)).toBeCloseTo(0.99, 12);
    expect(horizontalDistance(body(0, 0, circle(1)), body(3, 4, circle(0.5)))).toBeCloseTo(3.5, 12);
  });
  it('is 0 for touching or overlapping bases', () => {
    expect(horizontalDistance(body(0, 0), body(2 * R32, 0))).toBe(0);
    expect(horizontalDistance(body(0, 0), body(0.3, 0))).toBe(0);
  });
  it('overlap needs interpenetration; touching bases do not overlap', () => {
    expect(basesOverlap(body(0, 0), body(2 * R32, 0))).toBe(false);
    expect(basesOverlap(body(0, 0), body(2 * R32 - 0.01, 0))).toBe(true);
  });
  it('models at different heights do not overlap', () => {
    expect(modelsOverlap(body(0, 0, circle(R32), 0, 1.5), body(0, 0, circle(R32), 3, 1.5))).toBe(false);
    expect(modelsOverlap(body(0, 0, circle(R32), 0, 1.5), body(0, 0, circle(R32), 1, 1.5))).toBe(true);
  });
});

describe('vertical distance', () => {
  it('is the gap between the vertical extents', () => {
    expect(verticalDistance(body(0, 0, circle(R32), 0, 1.5), body(0, 0, circle(R32), 6.5, 1))).toBeCloseTo(5, 12);
    expect(verticalDistance(body(0, 0, circle(R32), 6.5, 1), body(0, 0, circle(R32), 0, 1.5))).toBeCloseTo(5, 12);
    expect(verticalDistance(body(0, 0, circle(R32), 0, 3), body(0, 0, circle(R32), 2, 1))).toBe(0);
  });
  it('distance combines both gaps', () => {
    expect(distance(body(0, 0, circle(0.5), 0, 1), body(4, 0, circle(0.5), 5, 1))).toBeCloseTo(5, 12); // 3" across, 4" up
  });
});

describe('ovals and rectangles', () => {
  it('oval to circle along the axes', () => {
    const o = body(0, 0, oval(2, 1));
    expect(horizontalDistance(o, body(4, 0, circle(0.5)))).toBeCloseTo(1.5, 9);
    expect(horizontalDistance(o, body(0, 3, circle(0.5)))).toBeCloseTo(1.5, 9);
    const turned = body(0, 0, oval(2, 1, Math.PI / 2));
    expect(horizontalDistance(turned, body(4, 0, circle(0.5)))).toBeCloseTo(2.5, 9);
    expect(horizontalDistance(turned, body(0, 4, circle(0.5)))).toBeCloseTo(1.5, 9);
  });
  it('oval to oval along the axes', () => {
    expect(horizontalDistance(body(0, 0, oval(2, 1)), body(5, 0, oval(1.5, 0.7)))).toBeCloseTo(1.5, 9);
  });
  it('rectangle to circle: faces and corners', () => {
    const t = body(0, 0, rect(4, 2));
    expect(horizontalDistance(t, body(4, 0, circle(0.5)))).toBeCloseTo(1.5, 12);
    expect(horizontalDistance(t, body(4, 3, circle(0.5)))).toBeCloseTo(Math.SQRT2 * 2 - 0.5, 12);
    const turned = body(0, 0, rect(4, 2, Math.PI / 4));
    // the corner at (l/2, w/2) turned 45 degrees; a point 1.25" beyond it along the diagonal
    const cx = Math.cos(Math.PI / 4) * 2 - Math.sin(Math.PI / 4) * 1;
    const cy = Math.sin(Math.PI / 4) * 2 + Math.cos(Math.PI / 4) * 1;
    const k = 1 + 1.25 / Math.hypot(cx, cy);
    expect(horizontalDistanceToPoint(turned, { x: cx * k, y: cy * k })).toBeCloseTo(1.25, 12);
    expect(horizontalDistance(turned, body(cx * k, cy * k, circle(0.25)))).toBeCloseTo(1, 12);
  });
  it('rectangle to rectangle', () => {
    expect(horizontalDistance(body(0, 0, rect(4, 2)), body(7, 0, rect(2, 2)))).toBeCloseTo(4, 12);
    expect(horizontalDistance(body(0, 0, rect(4, 2)), body(5, 4, rect(2, 2)))).toBeCloseTo(Math.hypot(2, 2), 12);
    expect(horizontalDistance(body(0, 0, rect(4, 2)), body(3, 0, rect(2, 2)))).toBe(0);
  });
  it('agrees with a brute-force search over the outlines to 1e-6" for random pairs of every kind', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const randBase = (k: number): Base =>
      k === 0
        ? circle(0.3 + rnd() * 2)
        : k === 1
          ? oval(0.3 + rnd() * 3, 0.3 + rnd() * 2, rnd() * 7)
          : rect(0.5 + rnd() * 6, 0.5 + rnd() * 4, rnd() * 7);
    let worst = 0;
    let compared = 0;
    for (let i = 0; i < 120; i++) {
      const a = randBase(i % 3);
      const b = randBase(Math.floor(i / 3) % 3);
      const ax = rnd() * 10;
      const ay = rnd() * 10;
      const bx = ax + 1 + rnd() * 8;
      const by = ay + rnd() * 6 - 3;
      const d = shapeDistance(baseShape(a, ax, ay), baseShape(b, bx, by));
      const overlapping = pointInPolygon(outlineAt(a, ax, ay, 0.123), baseOutline(b, bx, by, 720)) ||
        pointInPolygon(outlineAt(b, bx, by, 0.123), baseOutline(a, ax, ay, 720));
      const brute = outlineDistance(a, ax, ay, b, bx, by);
      if (overlapping || brute < 1e-3) {
        if (overlapping) expect(d).toBe(0);
        continue;
      }
      compared++;
      worst = Math.max(worst, Math.abs(d - brute));
    }
    expect(compared).toBeGreaterThan(40);
    if (process.env.GEOMETRY_VERBOSE) console.log(`compared ${compared} pairs, worst error ${worst}`);
    expect(worst).toBeLessThan(1e-6);
  });
});

/** The point at parameter t in [0, 1) on the outline of a base (angle for round/oval, perimeter walk for rect). */
function outlineAt(b: Base, x: number, y: number, t: number): { x: number; y: number } {
  t = ((t % 1) + 1) % 1;
  let lx: number;
  let ly: number;
  let angle = 0;
  if (b.kind === 'circle') {
    lx = b.r * Math.cos(2 * Math.PI * t);
    ly = b.r * Math.sin(2 * Math.PI * t);
  } else if (b.kind === 'oval') {
    lx = b.rx * Math.cos(2 * Math.PI * t);
    ly = b.ry * Math.sin(2 * Math.PI * t);
    angle = b.angle;
  } else {
    angle = b.angle;
    const P = 2 * (b.l + b.w);
    let s = t * P;
    const hl = b.l / 2;
    const hw = b.w / 2;
    if (s < b.l) [lx, ly] = [-hl + s, -hw];
    else if ((s -= b.l) < b.w) [lx, ly] = [hl, -hw + s];
    else if ((s -= b.w) < b.l) [lx, ly] = [hl - s, hw];
    else [lx, ly] = [-hl, hw - (s - b.l)];
  }
  const c = Math.cos(angle);
  const sn = Math.sin(angle);
  return { x: x + c * lx - sn * ly, y: y + sn * lx + c * ly };
}

/** Shortest distance between two outlines: a 400 x 400 grid over both parameters, then local refinement. */
function outlineDistance(a: Base, ax: number, ay: number, b: Base, bx: number, by: number): number {
  const f = (t: number, u: number) => {
    const p = outlineAt(a, ax, ay, t);
    const q = outlineAt(b, bx, by, u);
    return Math.hypot(p.x - q.x, p.y - q.y);
  };
  let bt = 0;
  let bu = 0;
  let best = Infinity;
  const N = 160;
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < N; j++) {
      const v = f(i / N, j / N);
      if (v < best) [best, bt, bu] = [v, i / N, j / N];
    }
  }
  let span = 2 / N;
  for (let round = 0; round < 12; round++) {
    const M = 20;
    let nt = bt;
    let nu = bu;
    for (let i = -M; i <= M; i++) {
      for (let j = -M; j <= M; j++) {
        const t = bt + (i / M) * span;
        const u = bu + (j / M) * span;
        const v = f(t, u);
        if (v < best) [best, nt, nu] = [v, t, u];
      }
    }
    bt = nt;
    bu = nu;
    span /= 5;
  }
  return best;
}

describe('within and wholly within', () => {
  it('of a point', () => {
    const m = body(3, 0, circle(0.5));
    expect(isWithinOfPoint(m, { x: 0, y: 0 }, 2.5)).toBe(true);
    expect(isWithinOfPoint(m, { x: 0, y: 0 }, 2.49)).toBe(false);
    expect(isWhollyWithinOfPoint(m, { x: 0, y: 0 }, 3.5)).toBe(true);
    expect(isWhollyWithinOfPoint(m, { x: 0, y: 0 }, 3.49)).toBe(false);
    const o = body(3, 0, oval(1, 0.5));
    expect(isWhollyWithinOfPoint(o, { x: 0, y: 0 }, 4)).toBe(true);
    expect(isWhollyWithinOfPoint(o, { x: 0, y: 0 }, 3.99)).toBe(false);
    const t = body(3, 0, rect(2, 2));
    expect(isWhollyWithinOfPoint(t, { x: 0, y: 0 }, Math.hypot(4, 1))).toBe(true);
    expect(isWhollyWithinOfPoint(t, { x: 0, y: 0 }, Math.hypot(4, 1) - 0.01)).toBe(false);
  });
  it('of another body (disembarking wholly within 3" of a transport)', () => {
    const transport = body(10, 10, rect(6, 3));
    // a 32 mm base whose far edge is exactly 3" from the hull's side
    expect(isWhollyWithinOfBody(body(10 + 3 + 3 - R32, 10), transport, 3)).toBe(true);
    expect(isWhollyWithinOfBody(body(10 + 3 + 3 - R32 + 0.01, 10), transport, 3)).toBe(false);
    expect(isWhollyWithinOfBody(body(10, 10 + 1.5 + 3 - R32), transport, 3)).toBe(true);
    expect(isWhollyWithinOfBody(body(10, 10 + 1.5 + 3 - R32 + 0.01), transport, 3)).toBe(false);
    // an oval model beside a round transport
    const round = body(0, 0, circle(2));
    expect(isWhollyWithinOfBody(body(4, 0, oval(1, 0.5)), round, 3)).toBe(true);
    expect(isWhollyWithinOfBody(body(4.01, 0, oval(1, 0.5)), round, 3)).toBe(false);
  });
  it('of a polygon zone', () => {
    const zone = square(0, 0, 10, 10);
    expect(isWhollyWithinPolygon(body(R32, 5), zone)).toBe(true);
    expect(isWhollyWithinPolygon(body(R32 - 0.01, 5), zone)).toBe(false);
    expect(isWhollyWithinPolygon(body(11, 5), zone)).toBe(false);
    expect(isWithinOfPolygon(body(11, 5, circle(0.5)), zone, 0.5)).toBe(true);
    expect(isWithinOfPolygon(body(11.01, 5, circle(0.5)), zone, 0.5)).toBe(false);
    expect(horizontalDistanceToPolygon(body(13, 14, circle(1)), zone)).toBeCloseTo(4, 12);
    expect(overlapsPolygon(body(10 + R32, 5), zone)).toBe(false); // touching only
    expect(overlapsPolygon(body(10 + R32 - 0.01, 5), zone)).toBe(true);
    // rotated rectangle inside a triangle zone
    const tri = [
      { x: 0, y: 0 },
      { x: 30, y: 44 },
      { x: 0, y: 44 },
    ];
    expect(isWhollyWithinPolygon(body(5, 35, rect(4, 2, 0.3)), tri)).toBe(true);
    expect(isWhollyWithinPolygon(body(23, 35, rect(4, 2, 0.3)), tri)).toBe(false);
  });
  it('of a board edge, and on the board', () => {
    const board = { width: 60, height: 44 };
    expect(isWhollyWithinOfEdge(body(6 - R32, 20), 'left', 6, board)).toBe(true);
    expect(isWhollyWithinOfEdge(body(6 - R32 + 0.01, 20), 'left', 6, board)).toBe(false);
    expect(isWhollyWithinOfEdge(body(20, 44 - 6 + R32), 'bottom', 6, board)).toBe(true);
    expect(isOnBoard(body(R32, R32), board)).toBe(true);
    expect(isOnBoard(body(R32 - 0.01, 10), board)).toBe(false);
    expect(isOnBoard(body(59, 22, rect(4, 2, Math.PI / 2)), board)).toBe(true);
    expect(isOnBoard(body(59, 22, rect(4, 2)), board)).toBe(false);
  });
});
