/**
 * Finding a spot for one model: the nearest legal reachable spot around a point, base-contact spots around
 * another model, the closest it can get to a target, and moving stragglers back into Unit Coherency.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { Base, Vec2 } from '../types.ts';
import { DISTANCE_EPSILON, OVERLAP_TOLERANCE } from '../types.ts';
import { type Shape, newShape, setBaseShape, shapeDistance, baseBoundingRadius, boundingRadius } from '../shape.ts';
import { queryBoxes } from '../spatial.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, ENGAGEMENT_RANGE_VERTICAL, unitCoherency, inCoherencyRange } from '../ranges.ts';
import { PLAN_MARGIN, type Ctx } from './context.ts';
import { candShape, modelBody, endLegal, nearScratch } from './end-position.ts';
import { type Placement, freeOfUnit, place, placedNeighbours, requiredNeighbours, reach, endLegalOrStay } from './placement.ts';

/** Offsets of a spiral of candidate points around a spot, nearest first (0.25" rings). */
export const SPIRAL: Float64Array = (() => {
  const pts: number[] = [0, 0];
  const step = 0.25;
  for (let ring = 1; ring <= 24; ring++) {
    const r = ring * step;
    const count = Math.max(8, Math.round((2 * Math.PI * r) / 0.3));
    for (let j = 0; j < count; j++) {
      const t = (2 * Math.PI * j) / count;
      pts.push(r * Math.cos(t), r * Math.sin(t));
    }
  }
  return new Float64Array(pts);
})();

/** Centre positions for model i at which it touches obstacle shape `o` (gap CONTACT_GAP), `N` directions (24: 15 degrees apart) starting toward (fx, fy). */
export function contactSpots(ctx: Ctx, i: number, o: Shape, fx: number, fy: number, gap: number, N = 24): Vec2[] {
  const m = ctx.models[i];
  const a0 = Math.atan2(fy - o.y, fx - o.x);
  const out: Vec2[] = [];
  const roundPair = m.base.kind === 'circle' && o.k === 0 && o.sx === 0 && o.sy === 0;
  for (let k = 0; k < N; k++) {
    // 0, +1, -1, +2, -2, ... steps of 360/N degrees
    const step = k === 0 ? 0 : (k % 2 === 1 ? 1 : -1) * Math.ceil(k / 2);
    const t = a0 + (step * 2 * Math.PI) / N;
    const ux = Math.cos(t);
    const uy = Math.sin(t);
    if (roundPair) {
      const R = o.m + (m.base as { r: number }).r + gap;
      out.push({ x: o.x + ux * R, y: o.y + uy * R });
    } else {
      // bisection on the distance along the ray where the edge gap equals `gap`, between the
      // distance at which the two shapes' inscribed circles would touch and the one at which their
      // bounding circles would: 16 halvings of that narrow bracket is far below 0.001"
      let lo = innerRadius(o) + baseInnerRadius(m.base) + gap;
      let hi = boundingRadius(o) + baseBoundingRadius(m.base) + gap + 1e-6;
      for (let it = 0; it < 16; it++) {
        const mid = (lo + hi) / 2;
        setBaseShape(candShape, m.base, o.x + ux * mid, o.y + uy * mid);
        if (shapeDistance(candShape, o) < gap) lo = mid;
        else hi = mid;
      }
      out.push({ x: o.x + ux * hi, y: o.y + uy * hi });
    }
  }
  return out;
}

/** Radius of the largest circle centred on the shape inside it (its margin plus the core's smallest half-extent). */
function innerRadius(sh: Shape): number {
  if (sh.k === 1 || sh.k === 2) return Math.min(sh.a, sh.b) + sh.m;
  return sh.m;
}

function baseInnerRadius(base: Base): number {
  return base.kind === 'circle' ? base.r : base.kind === 'oval' ? Math.min(base.rx, base.ry) : Math.min(base.l, base.w) / 2;
}

/** Places model i at the nearest legal reachable spot around (tx, ty) (spiral). */
export function placeNear(ctx: Ctx, P: Placement, i: number, tx: number, ty: number, blockUnplaced: boolean, minNeighbours = 0): boolean {
  const m = ctx.models[i];
  const s = m.start!;
  const maxR = Math.min(6, ctx.maxDistance + 0.5);
  // quick rejection of spots on or (when forbidden) within Engagement Range of round models nearby,
  // before the full check: most spiral candidates around a blocked spot fail here, without a query
  const round = m.base.kind === 'circle' ? (m.base as { r: number }).r : -1;
  const quick: number[] = [];
  if (round >= 0) {
    const q = maxR + round + ENGAGEMENT_RANGE_HORIZONTAL + 0.1;
    queryBoxes(ctx.pathWorld.index, tx - q, ty - q, tx + q, ty + q, nearScratch);
    for (let n = 0; n < nearScratch.n; n++) {
      const k = nearScratch.v[n];
      const o = ctx.obstacles[k];
      if (o.shape.k !== 0 || o.z0 >= m.height || o.z1 <= 0) continue;
      const er = o.enemy && (ctx.engagement === 'forbidden' || (ctx.engagement === 'nonTargets' && !o.target));
      // squared centre distance below which the spot is surely illegal
      const lim = round + o.shape.m + (er && o.z0 <= ENGAGEMENT_RANGE_VERTICAL ? ENGAGEMENT_RANGE_HORIZONTAL : -OVERLAP_TOLERANCE);
      quick.push(o.shape.x, o.shape.y, lim * lim);
    }
  }
  spiral: for (let k = 0; k < SPIRAL.length; k += 2) {
    const ox = SPIRAL[k];
    const oy = SPIRAL[k + 1];
    if (ox * ox + oy * oy > maxR * maxR) break;
    const x = tx + ox;
    const y = ty + oy;
    if (len(x - s.x, y - s.y) > ctx.maxDistance - s.z + DISTANCE_EPSILON) continue;
    for (let q = 0; q < quick.length; q += 3) {
      const dx = x - quick[q];
      const dy = y - quick[q + 1];
      if (dx * dx + dy * dy < quick[q + 2]) continue spiral;
    }
    if (!freeOfUnit(ctx, P, i, x, y, 0, blockUnplaced)) continue;
    if (!endLegal(ctx, i, x, y, 0, PLAN_MARGIN, null)) continue;
    if (minNeighbours > 0 && placedNeighbours(ctx, P, i, x, y, 0) < minNeighbours) continue;
    const r = reach(ctx, i, x, y, 0);
    if (!r) continue;
    place(P, i, x, y, 0, r.path, r.length, r.crossed);
    return true;
  }
  return false;
}

/**
 * Moves the models that break coherency next to the main group (reachable spots only). `wanted(i)`
 * is where model i would like to be (candidates nearer to it first). Returns true when coherent.
 */
export function repairCoherency(ctx: Ctx, P: Placement, wanted: (i: number) => Vec2, extraCheck?: (i: number, x: number, y: number) => boolean): boolean {
  const n = ctx.models.length;
  const req = requiredNeighbours(ctx);
  for (let round = 0; round < 3; round++) {
    const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
    const coh = unitCoherency(bodies);
    if (coh.ok) return true;
    const main = coh.groups[0];
    const inMain = new Uint8Array(n);
    for (const j of main) inMain[j] = 1;
    for (const b of coh.breaking) {
      const w = wanted(b);
      // candidate spots around members of the main group, nearest to where b wants to be first
      const cands: { x: number; y: number; d: number }[] = [];
      const mb = ctx.models[b];
      for (const j of main) {
        if (j === b) continue;
        const mj = ctx.models[j];
        for (const gap of [1.0, 0.3, 1.7]) {
          const R = mb.radius + mj.radius + gap;
          for (let a = 0; a < 16; a++) {
            const t = (2 * Math.PI * a) / 16;
            const x = P.x[j] + R * Math.cos(t);
            const y = P.y[j] + R * Math.sin(t);
            cands.push({ x, y, d: len(x - w.x, y - w.y) });
          }
        }
      }
      cands.sort((p, q) => p.d - q.d || p.x - q.x || p.y - q.y);
      P.placed[b] = 0;
      let done = false;
      for (const c of cands) {
        if (!freeOfUnit(ctx, P, b, c.x, c.y, 0, false)) continue;
        if (!endLegal(ctx, b, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
        // must be in coherency with enough members of the main group
        const body = modelBody(mb, c.x, c.y, 0);
        let nb = 0;
        for (const j of main) {
          if (j !== b && inCoherencyRange(body, modelBody(ctx.models[j], P.x[j], P.y[j], P.z[j]))) nb++;
        }
        if (nb < Math.min(req, main.length)) continue;
        if (extraCheck && !extraCheck(b, c.x, c.y)) continue;
        const r = reach(ctx, b, c.x, c.y, 0);
        if (!r) continue;
        place(P, b, c.x, c.y, 0, r.path, r.length, r.crossed);
        done = true;
        break;
      }
      if (!done) P.placed[b] = 1;
    }
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  return unitCoherency(bodies).ok;
}

/**
 * Places model i as close as it can get to the target obstacles while keeping `minNeighbours`
 * placed neighbours: candidates around placed models and around the targets, scored by the
 * distance to the nearest target. With `allowStay`, staying put is the last resort.
 */
export function approach(
  ctx: Ctx,
  P: Placement,
  i: number,
  targets: number[],
  minNeighbours: number,
  allowStay: boolean,
  mustBeCloserThan = Infinity,
  closestOf?: number,
  blockUnplacedStarts = true,
): boolean {
  const m = ctx.models[i];
  const s = m.start!;
  const R = ctx.maxDistance;
  const scoreOf = closestOf !== undefined ? [closestOf] : targets;
  const round = m.base.kind === 'circle';
  /** edge distance from model i at (x, y) to the nearest scored target */
  const score = (x: number, y: number): number => {
    let best = Infinity;
    if (!round) setBaseShape(candShape, m.base, x, y);
    for (const k of scoreOf) {
      const o = ctx.obstacles[k].shape;
      let d: number;
      if (round && o.k === 0) {
        d = len(o.x - x, o.y - y) - o.m - (m.base as { r: number }).r;
        if (d < 0) d = 0;
      } else {
        if (round) setBaseShape(candShape, m.base, x, y);
        d = shapeDistance(candShape, o);
      }
      if (d < best) best = d;
    }
    return best;
  };
  // candidates within reach and with enough placed neighbours; scored afterwards
  const cands: { x: number; y: number; d: number }[] = [];
  const add = (x: number, y: number): void => {
    if (len(x - s.x, y - s.y) > R + DISTANCE_EPSILON) return;
    if (minNeighbours > 0 && placedNeighbours(ctx, P, i, x, y, 0) < minNeighbours) return;
    cands.push({ x, y, d: 0 });
  };
  // spots next to the placed models nearest to this model's start (exact edge gaps, whatever the bases)
  const placedIdx: number[] = [];
  for (let j = 0; j < ctx.models.length; j++) if (P.placed[j] && j !== i) placedIdx.push(j);
  const dj = (j: number) => len(P.x[j] - s.x, P.y[j] - s.y);
  placedIdx.sort((a, b) => dj(a) - dj(b) || a - b);
  for (const j of placedIdx.slice(0, 6)) {
    if (dj(j) > R + m.radius + ctx.models[j].radius + 2) continue;
    const sh = setBaseShape(newShape(), ctx.models[j].base, P.x[j], P.y[j]);
    for (const gap of [0.1, 0.7, 1.4, 1.9]) for (const p of contactSpots(ctx, i, sh, s.x, s.y, gap)) add(p.x, p.y);
  }
  for (const k of targets) {
    const o = ctx.obstacles[k];
    if (len(o.shape.x - s.x, o.shape.y - s.y) > R + o.radius + m.radius + 2) continue;
    for (const gap of [0.3, 0.8]) for (const p of contactSpots(ctx, i, o.shape, s.x, s.y, gap)) add(p.x, p.y);
  }
  // straight toward the nearest target, in steps
  if (targets.length > 0) {
    let bk = targets[0];
    let bd = Infinity;
    for (const k of targets) {
      const d = len(ctx.obstacles[k].shape.x - s.x, ctx.obstacles[k].shape.y - s.y);
      if (d < bd) {
        bd = d;
        bk = k;
      }
    }
    const o = ctx.obstacles[closestOf ?? bk].shape;
    const L = len(o.x - s.x, o.y - s.y);
    if (L > 0) {
      for (let step = 1; step <= 12; step++) {
        const dd = Math.min(R, L) * (step / 12);
        add(s.x + ((o.x - s.x) / L) * dd, s.y + ((o.y - s.y) / L) * dd);
      }
    }
  }
  for (const c of cands) c.d = score(c.x, c.y);
  cands.sort((a, b) => a.d - b.d || a.x - b.x || a.y - b.y);
  for (const c of cands) {
    if (c.d >= mustBeCloserThan - 1e-9) break;
    if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, blockUnplacedStarts)) continue;
    if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
    if (placedNeighbours(ctx, P, i, c.x, c.y, 0) < minNeighbours) continue;
    const r = reach(ctx, i, c.x, c.y, 0);
    if (!r) continue;
    place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
    return true;
  }
  if (allowStay) {
    if (placedNeighbours(ctx, P, i, s.x, s.y, s.z) < minNeighbours) return false;
    return endLegalOrStay(ctx, P, i);
  }
  return false;
}
