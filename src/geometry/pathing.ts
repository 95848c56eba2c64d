/**
 * Paths for a moving model: is a straight slide clear, and if not, the shortest way around.
 *
 * A path is a polyline of straight slides. A slide is clear when the area the base sweeps (the base
 * translated along the segment: a convex shape, so exact GJK tests apply) does not overlap a blocking
 * terrain footprint, and, depending on the move, does not overlap enemy bases or come within
 * Engagement Range of enemy models (see EnemyRule).
 *
 * When the straight slide is blocked, a lazy A* runs over a waypoint graph: points just outside
 * every obstacle (an octagon around each enemy base grown by the moving model's radius plus the
 * clearance the rule needs; the vertices of blocking footprints pushed out by the moving model's
 * radius), every pair of waypoints potentially connected. Edges are only checked when A* pops a
 * node (lazy evaluation), and waypoints that cannot be on a path within the allowed length (outside
 * the ellipse |start-p| + |p-goal| <= maxLength) are skipped. The result is the shortest path in that
 * graph (not always the true shortest path, but always a real, checked, clear path).
 *
 * Non-round moving models use their bounding radius to place waypoints (conservative), but every
 * slide is checked with their real base.
 */
import { len } from './vec.ts';
import type { Base, Body, Vec2 } from './types.ts';
import { DISTANCE_EPSILON, OVERLAP_TOLERANCE } from './types.ts';
import {
  type Shape,
  newShape,
  setBaseShape,
  shapeAabb,
  shapeDistance,
  shapesOverlap,
  baseHalfExtents,
} from './shape.ts';
import { shapeOverlapsPolygon, offsetPolygonVertices, type Aabb } from './polygon.ts';
import { queryBoxes, type BoxIndex } from './spatial.ts';
import { NumberList } from './number-list.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, ENGAGEMENT_RANGE_VERTICAL } from './ranges.ts';

/** A model already on the table, as the planner sees it. */
export interface Obstacle {
  id: string;
  body: Body;
  unitId: string;
  enemy: boolean;
  /** an enemy model belonging to one of the charge's targets */
  target: boolean;
  /** a TITANIC model: the walkers' rules do not pass over it (Mover.titanicOnly) */
  titanic: boolean;
  /** a MONSTER or VEHICLE model: other MONSTER and VEHICLE models of its army go round it (Mover.aroundFriendlyHulls) */
  monsterOrVehicle: boolean;
  shape: Shape;
  z0: number;
  z1: number;
  radius: number;
}

/** A terrain piece that blocks some models' movement. */
export interface BlockingPiece {
  polygon: Vec2[];
  aabb: Aabb;
  kind: 'ruin' | 'area' | 'wall' | 'impassable';
  /** inches: a walker's rule passes over pieces up to 4" high (Heavy Walker) */
  height: number;
}

/**
 * What enemy models do to a path:
 * - 'none': nothing (FLY models move over them);
 * - 'bases': their bases cannot be crossed;
 * - 'engagement': their bases cannot be crossed and the model cannot move within Engagement Range of them
 *   (Normal and Advance moves);
 * - 'charge': target models' bases cannot be crossed; other enemy models cannot be approached within
 *   Engagement Range.
 */
export type EnemyRule = 'none' | 'bases' | 'engagement' | 'charge';

export interface PathWorld {
  obstacles: Obstacle[];
  index: BoxIndex;
  /** largest bounding radius among obstacles (for queries) */
  maxObstacleRadius: number;
  board: { width: number; height: number };
}

/** One moving model's path constraints. */
export interface Mover {
  base: Base;
  radius: number;
  /** vertical extent of the model during the move */
  z0: number;
  z1: number;
  enemyRule: EnemyRule;
  /** only TITANIC enemy models constrain the path: a walker's rule passes over the others (Heavy Walker) */
  titanicOnly?: boolean;
  /**
   * a MONSTER or VEHICLE model that cannot FLY: it moves through friendly models, but not through friendly
   * MONSTER and VEHICLE models, which it goes round (core rules, moving; with `titanicOnly`, only TITANIC ones)
   */
  aroundFriendlyHulls?: boolean;
  /** terrain the model cannot cross */
  blocking: BlockingPiece[];
}

const swept = newShape();
const aabb = [0, 0, 0, 0];
const found = new NumberList();
const alt: number[] = [];
const order: number[] = [];

function verticalGap(a0: number, a1: number, b0: number, b1: number): number {
  if (b0 > a1) return b0 - a1;
  if (a0 > b1) return a0 - b1;
  return 0;
}

/** The area the base sweeps sliding from A to B, into `swept`, its box into `aabb`. */
function sweep(base: Base, ax: number, ay: number, bx: number, by: number): void {
  setBaseShape(swept, base, ax, ay);
  swept.sx = bx - ax;
  swept.sy = by - ay;
  shapeAabb(swept, aabb);
}

/** A friendly MONSTER or VEHICLE model the mover must go round (Mover.aroundFriendlyHulls)? */
function friendlyHull(m: Mover, o: Obstacle): boolean {
  return !o.enemy && o.monsterOrVehicle && (!m.titanicOnly || o.titanic) && o.z0 < m.z1 && m.z0 < o.z1;
}

/** Is the straight slide of the mover from A to B clear? */
export function slideClear(w: PathWorld, m: Mover, ax: number, ay: number, bx: number, by: number): boolean {
  sweep(m.base, ax, ay, bx, by);
  // terrain
  for (let p = 0; p < m.blocking.length; p++) {
    const piece = m.blocking[p];
    const bb = piece.aabb;
    if (aabb[0] > bb.maxX || aabb[2] < bb.minX || aabb[1] > bb.maxY || aabb[3] < bb.minY) continue;
    if (shapeOverlapsPolygon(swept, piece.polygon, OVERLAP_TOLERANCE)) return false;
  }
  if (m.aroundFriendlyHulls) {
    queryBoxes(w.index, aabb[0], aabb[1], aabb[2], aabb[3], found);
    for (let k = 0; k < found.n; k++) {
      const o = w.obstacles[found.v[k]];
      if (friendlyHull(m, o) && shapesOverlap(swept, o.shape, OVERLAP_TOLERANCE)) return false;
    }
  }
  if (m.enemyRule === 'none') return true;
  const reach = m.enemyRule === 'bases' ? 0 : ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON;
  queryBoxes(w.index, aabb[0] - reach, aabb[1] - reach, aabb[2] + reach, aabb[3] + reach, found);
  for (let k = 0; k < found.n; k++) {
    const o = w.obstacles[found.v[k]];
    if (!o.enemy || (m.titanicOnly && !o.titanic)) continue;
    const vg = verticalGap(m.z0, m.z1, o.z0, o.z1);
    const engagementApplies =
      (m.enemyRule === 'engagement' || (m.enemyRule === 'charge' && !o.target)) &&
      vg <= ENGAGEMENT_RANGE_VERTICAL + DISTANCE_EPSILON;
    if (engagementApplies) {
      if (shapeDistance(swept, o.shape) <= ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON) return false;
    } else if (o.z0 < m.z1 && m.z0 < o.z1) {
      if (shapesOverlap(swept, o.shape, OVERLAP_TOLERANCE)) return false;
    }
  }
  return true;
}

/** Does the base, slid along the path, overlap one of the pieces? (Titanic Strides: terrain over 4" crossed) */
export function pathOverlapsTerrain(base: Base, path: readonly Vec2[], pieces: readonly BlockingPiece[]): boolean {
  for (let k = 1; k < path.length; k++) {
    sweep(base, path[k - 1].x, path[k - 1].y, path[k].x, path[k].y);
    for (const piece of pieces) {
      const bb = piece.aabb;
      if (aabb[0] > bb.maxX || aabb[2] < bb.minX || aabb[1] > bb.maxY || aabb[3] < bb.minY) continue;
      if (shapeOverlapsPolygon(swept, piece.polygon, OVERLAP_TOLERANCE)) return true;
    }
  }
  return false;
}

const passed = newShape();

/** Does the base, slid along the path, pass over the body's base? (Internal Grenade Racks: the models its bearer moved over) */
export function pathOverlapsBase(base: Base, path: readonly Vec2[], body: Body): boolean {
  setBaseShape(passed, body.base, body.pos.x, body.pos.y);
  for (let k = 1; k < path.length; k++) {
    sweep(base, path[k - 1].x, path[k - 1].y, path[k].x, path[k].y);
    if (shapesOverlap(swept, passed, OVERLAP_TOLERANCE)) return true;
  }
  return false;
}

/** Enemy models whose bases the slide passes over (for Desperate Escape tests), appended to `out` as obstacle indices. */
export function enemiesCrossed(w: PathWorld, m: Mover, ax: number, ay: number, bx: number, by: number, out: number[]): void {
  sweep(m.base, ax, ay, bx, by);
  queryBoxes(w.index, aabb[0], aabb[1], aabb[2], aabb[3], found);
  for (let k = 0; k < found.n; k++) {
    const o = w.obstacles[found.v[k]];
    if (!o.enemy) continue;
    if (!(o.z0 < m.z1 && m.z0 < o.z1)) continue;
    if (shapesOverlap(swept, o.shape, OVERLAP_TOLERANCE)) out.push(found.v[k]);
  }
}

/** Waypoints for a mover starting at (sx, sy), covering obstacles within `reach` of the start. */
export interface Waypoints {
  xs: number[];
  ys: number[];
}

const OCTAGON = 8;
const WAYPOINT_CLEARANCE = 0.02;

export function buildWaypoints(w: PathWorld, m: Mover, sx: number, sy: number, reach: number): Waypoints {
  const xs: number[] = [];
  const ys: number[] = [];
  const half = baseHalfExtents(m.base);
  // quick rejection discs (round enemies, round mover): a waypoint inside one is surely blocked
  const discs: number[] = [];
  const add = (x: number, y: number) => {
    if (x - half.x < 0 || y - half.y < 0 || x + half.x > w.board.width || y + half.y > w.board.height) return;
    if ((x - sx) * (x - sx) + (y - sy) * (y - sy) > reach * reach) return;
    for (let d = 0; d < discs.length; d += 3) {
      const dx = x - discs[d];
      const dy = y - discs[d + 1];
      if (dx * dx + dy * dy < discs[d + 2]) return;
    }
    if (!slideClear(w, m, x, y, x, y)) return;
    xs.push(x);
    ys.push(y);
  };
  // around enemy models
  if (m.enemyRule !== 'none') {
    const extra = m.enemyRule === 'bases' ? 0 : ENGAGEMENT_RANGE_HORIZONTAL;
    const q = reach + m.radius + extra + w.maxObstacleRadius + 1;
    const near = new NumberList();
    queryBoxes(w.index, sx - q, sy - q, sx + q, sy + q, near);
    if (m.base.kind === 'circle') {
      for (let n = 0; n < near.n; n++) {
        const k = near.v[n];
        const o = w.obstacles[k];
        if (!o.enemy || (m.titanicOnly && !o.titanic) || o.shape.k !== 0 || !(o.z0 < m.z1 && m.z0 < o.z1)) continue;
        const ruleExtra = m.enemyRule === 'engagement' || (m.enemyRule === 'charge' && !o.target) ? extra : 0;
        const lim = o.shape.m + m.base.r + ruleExtra;
        discs.push(o.shape.x, o.shape.y, lim * lim);
      }
    }
    for (let n = 0; n < near.n; n++) {
      const k = near.v[n];
      const o = w.obstacles[k];
      if (!o.enemy || (m.titanicOnly && !o.titanic)) continue;
      const ruleExtra = m.enemyRule === 'engagement' || (m.enemyRule === 'charge' && !o.target) ? extra : 0;
      const R = (o.radius + m.radius + ruleExtra + WAYPOINT_CLEARANCE) / Math.cos(Math.PI / OCTAGON);
      for (let j = 0; j < OCTAGON; j++) {
        const t = (2 * Math.PI * (j + 0.5)) / OCTAGON;
        add(o.shape.x + R * Math.cos(t), o.shape.y + R * Math.sin(t));
      }
    }
  }
  // around friendly MONSTER and VEHICLE models, for a mover that cannot pass through them
  if (m.aroundFriendlyHulls) {
    const q = reach + m.radius + w.maxObstacleRadius + 1;
    const near = new NumberList();
    queryBoxes(w.index, sx - q, sy - q, sx + q, sy + q, near);
    for (let n = 0; n < near.n; n++) {
      const o = w.obstacles[near.v[n]];
      if (!friendlyHull(m, o)) continue;
      const R = (o.radius + m.radius + WAYPOINT_CLEARANCE) / Math.cos(Math.PI / OCTAGON);
      for (let j = 0; j < OCTAGON; j++) {
        const t = (2 * Math.PI * (j + 0.5)) / OCTAGON;
        add(o.shape.x + R * Math.cos(t), o.shape.y + R * Math.sin(t));
      }
    }
  }
  // around blocking terrain
  for (const piece of m.blocking) {
    const bb = piece.aabb;
    if (bb.minX > sx + reach + m.radius || bb.maxX < sx - reach - m.radius) continue;
    if (bb.minY > sy + reach + m.radius || bb.maxY < sy - reach - m.radius) continue;
    for (const p of offsetPolygonVertices(piece.polygon, m.radius + WAYPOINT_CLEARANCE)) add(p.x, p.y);
  }
  return { xs, ys };
}

export interface FoundPath {
  /** waypoints from start to goal inclusive */
  points: Vec2[];
  length: number;
}

/**
 * Shortest clear path from S to G of length at most maxLength through the waypoints (lazy A*),
 * or null. The straight slide is tried first.
 */
export function findPath(
  w: PathWorld,
  m: Mover,
  wp: Waypoints,
  sx: number,
  sy: number,
  gx: number,
  gy: number,
  maxLength: number,
): FoundPath | null {
  const direct = len(gx - sx, gy - sy);
  if (direct > maxLength + DISTANCE_EPSILON) return null;
  if (slideClear(w, m, sx, sy, gx, gy)) return { points: [{ x: sx, y: sy }, { x: gx, y: gy }], length: direct };
  // nodes: 0 = start, 1 = goal, 2.. = waypoints inside the ellipse
  const nx: number[] = [sx, gx];
  const ny: number[] = [sy, gy];
  for (let k = 0; k < wp.xs.length; k++) {
    const x = wp.xs[k];
    const y = wp.ys[k];
    if (len(x - sx, y - sy) + len(gx - x, gy - y) <= maxLength) {
      nx.push(x);
      ny.push(y);
    }
  }
  const n = nx.length;
  if (n === 2) return null;
  const g = new Float64Array(n).fill(Infinity);
  const parent = new Int32Array(n).fill(-1);
  const verified = new Uint8Array(n);
  const closed = new Uint8Array(n);
  const h = (i: number) => len(gx - nx[i], gy - ny[i]);
  const heap = new MinHeap();
  g[0] = 0;
  verified[0] = 1;
  heap.push(h(0), 0);
  let pops = 0;
  const maxPops = 4 * n + 16;
  while (heap.size > 0 && pops++ < maxPops) {
    const f = heap.topKey();
    const u = heap.pop();
    if (closed[u]) continue;
    if (f > g[u] + h(u) + 1e-12) continue; // stale entry
    if (!verified[u]) {
      const p = parent[u];
      if (slideClear(w, m, nx[p], ny[p], nx[u], ny[u])) {
        verified[u] = 1;
      } else {
        // best verified alternative among closed nodes, tried in order of the resulting length
        alt.length = 0;
        for (let c = 0; c < n; c++) {
          if (!closed[c] || c === p) continue;
          const cand = g[c] + len(nx[u] - nx[c], ny[u] - ny[c]);
          if (cand + h(u) <= maxLength + DISTANCE_EPSILON) alt.push(cand, c);
        }
        order.length = 0;
        for (let k = 0; k < alt.length; k += 2) order.push(k);
        order.sort((a, b) => alt[a] - alt[b] || alt[a + 1] - alt[b + 1]);
        let best = Infinity;
        let bestP = -1;
        for (const k of order) {
          const c = alt[k + 1];
          if (slideClear(w, m, nx[c], ny[c], nx[u], ny[u])) {
            best = alt[k];
            bestP = c;
            break;
          }
        }
        if (bestP < 0) {
          g[u] = Infinity;
          continue;
        }
        g[u] = best;
        parent[u] = bestP;
        verified[u] = 1;
        heap.push(best + h(u), u);
        continue;
      }
    }
    closed[u] = 1;
    if (u === 1) break;
    for (let v = 1; v < n; v++) {
      if (closed[v]) continue;
      const cand = g[u] + len(nx[v] - nx[u], ny[v] - ny[u]);
      if (cand < g[v] - 1e-12 && cand + h(v) <= maxLength + DISTANCE_EPSILON) {
        g[v] = cand;
        parent[v] = u;
        verified[v] = 0;
        heap.push(cand + h(v), v);
      }
    }
  }
  if (!closed[1]) return null;
  const pts: Vec2[] = [];
  for (let v = 1; v !== -1; v = parent[v]) pts.push({ x: nx[v], y: ny[v] });
  pts.reverse();
  let length = 0;
  for (let k = 1; k < pts.length; k++) length += len(pts[k].x - pts[k - 1].x, pts[k].y - pts[k - 1].y);
  if (length > maxLength + DISTANCE_EPSILON) return null;
  return { points: pts, length };
}

/** Binary min-heap of (key, value) pairs; ties broken by value for determinism. */
class MinHeap {
  private keys: number[] = [];
  private vals: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  topKey(): number {
    return this.keys[0];
  }
  push(key: number, val: number): void {
    const k = this.keys;
    const v = this.vals;
    let i = k.length;
    k.push(key);
    v.push(val);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (k[p] < key || (k[p] === key && v[p] <= val)) break;
      k[i] = k[p];
      v[i] = v[p];
      i = p;
    }
    k[i] = key;
    v[i] = val;
  }
  pop(): number {
    const k = this.keys;
    const v = this.vals;
    const top = v[0];
    const lastK = k.pop()!;
    const lastV = v.pop()!;
    const n = k.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && (k[r] < k[l] || (k[r] === k[l] && v[r] < v[l]))) c = r;
        if (lastK < k[c] || (lastK === k[c] && lastV <= v[c])) break;
        k[i] = k[c];
        v[i] = v[c];
        i = c;
      }
      k[i] = lastK;
      v[i] = lastV;
    }
    return top;
  }
}

