/**
 * Set-ups (deployment, Deep Strike, Strategic Reserves, disembarking) on a lattice of slots around the anchor
 * points nearest the wanted point, and the check that a unit can embark.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { Vec2 } from '../types.ts';
import { DISTANCE_EPSILON } from '../types.ts';
import { polygonAabb, polygonCentroid, pointInPolygon } from '../polygon.ts';
import { COHERENCY_HORIZONTAL, unitCoherency } from '../ranges.ts';
import { horizontalDistance, verticalDistance } from '../distance.ts';
import type { PlannedMove, PlanResult } from './types.ts';
import { PLAN_MARGIN, TRANSPORT_RANGE, type Ctx } from './context.ts';
import { modelBody, endLegal } from './end-position.ts';
import { type Placement, newPlacement, freeOfUnit, place, placedNeighbours, placedCount, requiredNeighbours, centroidOf, finish, fail, requireStarts } from './placement.ts';

/** Hex-lattice slot offsets for spacing s, nearest first, enough for a unit strung along a 6" strip (memoised). */
const latticeCache = new Map<string, Float64Array>();
function latticeSlots(spacing: number, n: number): Float64Array {
  const key = `${spacing}:${n}`;
  const hit = latticeCache.get(key);
  if (hit) return hit;
  const radius = spacing * Math.max(3, Math.ceil(n / 2) + 2);
  const pts: { x: number; y: number; d: number; a: number }[] = [];
  const rowH = (spacing * Math.sqrt(3)) / 2;
  const rows = Math.ceil(radius / rowH);
  const cols = Math.ceil(radius / spacing) + 1;
  for (let r = -rows; r <= rows; r++) {
    const off = (r & 1) !== 0 ? spacing / 2 : 0;
    for (let c = -cols; c <= cols; c++) {
      const x = c * spacing + off;
      const y = r * rowH;
      const d = len(x, y);
      if (d <= radius) pts.push({ x, y, d, a: Math.atan2(y, x) });
    }
  }
  pts.sort((p, q) => p.d - q.d || p.a - q.a);
  const out = new Float64Array(pts.length * 2);
  pts.forEach((p, k) => {
    out[2 * k] = p.x;
    out[2 * k + 1] = p.y;
  });
  if (latticeCache.size > 256) latticeCache.clear();
  latticeCache.set(key, out);
  return out;
}

/** Integer grid offsets (i, j) within radius 90, nearest first (ties: j, then i); built once. */
let gridOrder: Int16Array | null = null;
function gridOffsets(): Int16Array {
  if (gridOrder) return gridOrder;
  const R = 90;
  const pts: number[][] = [];
  for (let i = -R; i <= R; i++) for (let j = -R; j <= R; j++) if (i * i + j * j <= R * R) pts.push([i * i + j * j, j, i]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  gridOrder = new Int16Array(pts.length * 2);
  pts.forEach((p, k) => {
    gridOrder![2 * k] = p[2];
    gridOrder![2 * k + 1] = p[1];
  });
  return gridOrder;
}

function defaultSetUpPoint(ctx: Ctx): Vec2 {
  const b = ctx.board;
  switch (ctx.mode) {
    case 'setUp':
      return polygonCentroid(ctx.zone!);
    case 'disembark':
      return { x: ctx.transport!.shape.x, y: ctx.transport!.shape.y };
    case 'strategicReserves': {
      const e = ctx.edges![0];
      return e === 'left' ? { x: 0, y: b.height / 2 } : e === 'right' ? { x: b.width, y: b.height / 2 } : e === 'top' ? { x: b.width / 2, y: 0 } : { x: b.width / 2, y: b.height };
    }
    default:
      return { x: b.width / 2, y: b.height / 2 };
  }
}

export function planSetUp(ctx: Ctx): PlanResult {
  const n = ctx.models.length;
  const want = ctx.req.destination ?? defaultSetUpPoint(ctx);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ctx.models[b].radius - ctx.models[a].radius || a - b);
  const ref = order[0];
  const maxR = ctx.models[ref].radius;
  // anchors: a 1" grid aligned on the requested point, nearest first; in disembarks a finer grid near the transport
  const step = ctx.mode === 'disembark' ? 0.5 : 1;
  const W = ctx.board.width;
  const H = ctx.board.height;
  let xmin = 0;
  let xmax = W;
  let ymin = 0;
  let ymax = H;
  if (ctx.mode === 'disembark') {
    const t = ctx.transport!;
    const rr = t.radius + ctx.transportRange;
    xmin = Math.max(0, t.shape.x - rr);
    xmax = Math.min(W, t.shape.x + rr);
    ymin = Math.max(0, t.shape.y - rr);
    ymax = Math.min(H, t.shape.y + rr);
  } else if (ctx.zone) {
    const bb = polygonAabb(ctx.zone);
    xmin = Math.max(0, bb.minX);
    xmax = Math.min(W, bb.maxX);
    ymin = Math.max(0, bb.minY);
    ymax = Math.min(H, bb.maxY);
  }
  // anchors: grid points around the requested point, nearest first, inside the search box (and zone)
  const grid = gridOffsets();
  const anchorAt = (k: number): Vec2 | null => {
    const x = want.x + grid[2 * k] * step;
    const y = want.y + grid[2 * k + 1] * step;
    if (x < xmin || x > xmax || y < ymin || y > ymax) return null;
    if (ctx.zone && !pointInPolygon({ x, y }, ctx.zone)) return null;
    return { x, y };
  };
  const setUpDone = (P: Placement): PlannedMove => {
    const end = centroidOf(Array.from({ length: n }, (_, i) => ({ x: P.x[i], y: P.y[i], z: 0 })));
    return finish(ctx, P, len(end.x - want.x, end.y - want.y) <= 1);
  };
  const gaps = [1.5, 0.5, 0.05];
  const spacings = gaps.map((g) => 2 * maxR + g);
  // a lattice spaced for the largest base leaves the smallest ones out of Unit Coherency with each other
  // when a much larger model leads them (Yvraine's 75 mm oval among Wyches): then also lattices spaced
  // for the smallest base, the larger models standing on the slots they cover
  const minR = ctx.models[order[n - 1]].radius;
  if (2 * (maxR - minR) + gaps[gaps.length - 1] > COHERENCY_HORIZONTAL) for (const g of gaps) spacings.push(2 * minR + g);
  const slotsBySpacing = spacings.map((s) => latticeSlots(s, n));
  let tried = 0;
  for (let k = 0; k < grid.length / 2; k++) {
    const a = anchorAt(k);
    if (!a) continue;
    if (!endLegal(ctx, ref, a.x, a.y, 0, PLAN_MARGIN, null)) continue;
    if (tried++ > 150) break;
    for (const slots of slotsBySpacing) {
      const P = fillSlots(ctx, order, a.x, a.y, slots);
      if (P) return setUpDone(P);
    }
  }
  if (ctx.mode === 'disembark') {
    const P = fillAroundTransport(ctx, order, want, xmin, xmax, ymin, ymax);
    if (P) return setUpDone(P);
  }
  return fail(`no legal set-up found for the unit near (${want.x.toFixed(1)}, ${want.y.toFixed(1)})`);
}

/**
 * Disembarking when no compact blob fits (the 3" around the transport cut by enemy Engagement Range,
 * terrain or other models leaves a thin band): model by model on a fine grid of the band, each at the
 * legal point nearest the models already placed (the first nearest the wanted point), with the
 * neighbours Unit Coherency asks for. A player would line them up along the hull the same way.
 */
function fillAroundTransport(ctx: Ctx, order: number[], want: Vec2, xmin: number, xmax: number, ymin: number, ymax: number): Placement | null {
  const n = ctx.models.length;
  const step = 0.25;
  const pts: number[] = [];
  for (let y = ymin; y <= ymax + 1e-9; y += step) for (let x = xmin; x <= xmax + 1e-9; x += step) pts.push(x, y);
  const P = newPlacement(n);
  let cx = want.x, cy = want.y;
  for (const i of order) {
    const need = neighboursNeeded(ctx, P);
    let best = -1, bestD = Infinity;
    for (let k = 0; k < pts.length; k += 2) {
      const x = pts[k], y = pts[k + 1];
      const d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      if (d < bestD && slotFits(ctx, P, i, x, y, need)) { best = k; bestD = d; }
    }
    if (best < 0) return null;
    place(P, i, pts[best], pts[best + 1], 0, [{ x: pts[best], y: pts[best + 1] }], 0, []);
    // the next model goes nearest the placed ones' centre (a compact line, not a chain)
    const c = placedCount(P);
    cx = 0; cy = 0;
    for (let j = 0; j < n; j++) if (P.placed[j]) { cx += P.x[j] / c; cy += P.y[j] / c; }
  }
  return coherentOrNull(ctx, P);
}

/** Placed models of the unit a set-up model must be in coherency with: none for the first, then 1 (2 from the third on in units of 7+). */
function neighboursNeeded(ctx: Ctx, P: Placement): number {
  const have = placedCount(P);
  return have === 0 ? 0 : requiredNeighbours(ctx) === 2 && have >= 2 ? 2 : 1;
}

/** Can model i be set up at (x, y): its neighbours, clear of its unit's placed models, and legal there. */
function slotFits(ctx: Ctx, P: Placement, i: number, x: number, y: number, need: number): boolean {
  if (need > 0 && placedNeighbours(ctx, P, i, x, y, 0) < need) return false;
  return freeOfUnit(ctx, P, i, x, y, 0, false) && endLegal(ctx, i, x, y, 0, PLAN_MARGIN, null);
}

function coherentOrNull(ctx: Ctx, P: Placement): Placement | null {
  const bodies = Array.from({ length: P.placed.length }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  return unitCoherency(bodies).ok ? P : null;
}

function fillSlots(ctx: Ctx, order: number[], ax: number, ay: number, slots: Float64Array): Placement | null {
  const n = ctx.models.length;
  const P = newPlacement(n);
  const used = new Uint8Array(slots.length / 2);
  for (const i of order) {
    let ok = false;
    const need = neighboursNeeded(ctx, P);
    for (let k = 0; k < used.length; k++) {
      if (used[k]) continue;
      const x = ax + slots[2 * k];
      const y = ay + slots[2 * k + 1];
      if (!slotFits(ctx, P, i, x, y, need)) continue;
      used[k] = 1;
      place(P, i, x, y, 0, [{ x, y }], 0, []);
      ok = true;
      break;
    }
    if (!ok) return null;
  }
  return coherentOrNull(ctx, P);
}

export function planEmbarkCheck(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const t = ctx.transport!;
  const tb = ctx.world.models.find((w) => w.id === t.id)!.body;
  for (const m of ctx.models) {
    const b = modelBody(m, m.start!.x, m.start!.y, m.start!.z);
    const h = horizontalDistance(b, tb);
    const v = verticalDistance(b, tb);
    if (len(h, v) > TRANSPORT_RANGE + DISTANCE_EPSILON) return fail(`model ${m.id} is not within ${TRANSPORT_RANGE}" of the transport`);
  }
  const P = newPlacement(ctx.models.length);
  ctx.models.forEach((m, i) => place(P, i, m.start!.x, m.start!.y, m.start!.z, [{ x: m.start!.x, y: m.start!.y }], 0, []));
  return finish(ctx, P, true);
}
