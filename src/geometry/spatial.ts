/**
 * A static spatial index over model bases (their axis-aligned bounding boxes).
 *
 * Why an index: the planner asks "which models are near this spot / this path?" for every candidate
 * position it tries. A set-up or Deep Strike search tries hundreds of candidate spots per unit, each
 * checked against every model on the table (200 in a Strike Force game, and the 9" rule looks far),
 * and a path search checks many segments. Flatbush (a packed static R-tree, typed arrays, no per-item
 * objects) answers a box query in O(log n + k) after an O(n log n) build that costs a few
 * microseconds for 200 boxes, so each planning call builds one and every check touches only the
 * nearby models. A static index fits: the other models do not move while one unit is planned.
 * It is built lazily: a plain Normal move in the open asks only a few queries, for which scanning
 * 200 boxes is cheaper than building the tree, so the tree is only built once a planning call has
 * asked enough queries to repay it. bench/geometry.bench.ts measures the gain (the same moves with
 * and without the index).
 *
 * Queries return indices in ascending order (deterministic whatever the tree's internal order).
 */
import Flatbush from 'flatbush';
import { NumberList } from './number-list.ts';

export interface BoxIndex {
  /** the R-tree, built lazily once enough queries have been asked (null until then, or when disabled) */
  tree: Flatbush | null;
  /** [minX, minY, maxX, maxY] per item */
  boxes: Float64Array;
  count: number;
  /** queries answered so far by scanning */
  scans: number;
}

/** When false, queries always scan every box (used by the bench to measure what the index buys). */
let useIndex = true;
export function setSpatialIndexEnabled(enabled: boolean): void {
  useIndex = enabled;
}

/**
 * Below this many boxes, or for the first LAZY_QUERIES queries, a scan is cheaper than building the
 * tree (measured with 200 boxes: building costs about 27 us, a scan 0.75 us, a tree query 0.4 us for
 * a small box): a Normal move in the open asks a few dozen queries, a set-up search or a detour
 * hundreds to thousands.
 */
const MIN_ITEMS = 32;
const LAZY_QUERIES = 64;
const LARGE_QUERY_AREA = 100;

let collectInto: NumberList | null = null;
/** flatbush filter that collects the hits itself (so that flatbush allocates no result array) */
function collect(i: number): boolean {
  collectInto!.push(i);
  return false;
}

export function buildBoxIndex(boxes: Float64Array, count: number): BoxIndex {
  return { tree: null, boxes, count, scans: 0 };
}

function buildTree(idx: BoxIndex): void {
  const tree = new Flatbush(idx.count, 8, Float64Array);
  const b = idx.boxes;
  for (let i = 0; i < idx.count; i++) tree.add(b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]);
  tree.finish();
  idx.tree = tree;
}

/** Indices of the boxes intersecting [minX, maxX] x [minY, maxY], ascending, written into `out` (cleared). */
export function queryBoxes(
  idx: BoxIndex,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: NumberList,
): NumberList {
  out.n = 0;
  // large boxes hit most items: scanning beats walking the tree and sorting many results
  const small = (maxX - minX) * (maxY - minY) <= LARGE_QUERY_AREA;
  if (small && !idx.tree && useIndex && idx.count >= MIN_ITEMS && ++idx.scans > LAZY_QUERIES) buildTree(idx);
  if (idx.tree && small) {
    collectInto = out;
    idx.tree.search(minX, minY, maxX, maxY, collect);
    collectInto = null;
    // ascending order whatever the tree's order (few items: insertion sort)
    const a = out.v;
    for (let i = 1; i < out.n; i++) {
      const v = a[i];
      let j = i - 1;
      while (j >= 0 && a[j] > v) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = v;
    }
    return out;
  }
  const b = idx.boxes;
  for (let i = 0; i < idx.count; i++) {
    if (b[4 * i] <= maxX && b[4 * i + 2] >= minX && b[4 * i + 1] <= maxY && b[4 * i + 3] >= minY) out.push(i);
  }
  return out;
}

/**
 * Visits the items whose box lies within `maxDist` of point (x, y), nearest box first when the tree
 * is built (index order otherwise), until `visit` returns true. Returns whether a visit did.
 */
export function someWithin(idx: BoxIndex, x: number, y: number, maxDist: number, visit: (i: number) => boolean): boolean {
  if (!idx.tree && useIndex && idx.count >= MIN_ITEMS && ++idx.scans > LAZY_QUERIES) buildTree(idx);
  if (idx.tree) {
    let hit = false;
    idx.tree.neighbors(x, y, Infinity, maxDist, (i) => {
      if (!hit && visit(i)) hit = true;
      return false; // never collect: the visitor decides
    });
    return hit;
  }
  const b = idx.boxes;
  const d2 = maxDist * maxDist;
  for (let i = 0; i < idx.count; i++) {
    const dx = x < b[4 * i] ? b[4 * i] - x : x > b[4 * i + 2] ? x - b[4 * i + 2] : 0;
    const dy = y < b[4 * i + 1] ? b[4 * i + 1] - y : y > b[4 * i + 3] ? y - b[4 * i + 3] : 0;
    if (dx * dx + dy * dy <= d2 && visit(i)) return true;
  }
  return false;
}
