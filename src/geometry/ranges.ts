/**
 * The distances the core rules name: Engagement Range, Unit Coherency, objective range and Level of Control.
 */
import type { Body, ObjectiveMarker } from './types.ts';
import { DISTANCE_EPSILON, OBJECTIVE_MARKER_RADIUS } from './types.ts';
import { horizontalDistance, verticalDistance } from './distance.ts';

/** Engagement Range: within 1" horizontally and 5" vertically. */
export const ENGAGEMENT_RANGE_HORIZONTAL = 1;
export const ENGAGEMENT_RANGE_VERTICAL = 5;
/** Unit Coherency: within 2" horizontally and 5" vertically. */
export const COHERENCY_HORIZONTAL = 2;
export const COHERENCY_VERTICAL = 5;
/** Objective range: within 3" horizontally (from the marker's edge) and 5" vertically. */
export const OBJECTIVE_RANGE_HORIZONTAL = 3;
export const OBJECTIVE_RANGE_VERTICAL = 5;

/** Are the two models within Engagement Range of each other (1" horizontally, 5" vertically)? */
export function inEngagementRange(a: Body, b: Body): boolean {
  if (verticalDistance(a, b) > ENGAGEMENT_RANGE_VERTICAL + DISTANCE_EPSILON) return false;
  return horizontalDistance(a, b) <= ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON;
}

/** Is any of the models within Engagement Range of any of the others? */
export function unitsInEngagementRange(a: Body[], b: Body[]): boolean {
  for (const x of a) for (const y of b) if (inEngagementRange(x, y)) return true;
  return false;
}

/** Are two models of a unit close enough for Unit Coherency (2" horizontally, 5" vertically)? */
export function inCoherencyRange(a: Body, b: Body): boolean {
  if (verticalDistance(a, b) > COHERENCY_VERTICAL + DISTANCE_EPSILON) return false;
  return horizontalDistance(a, b) <= COHERENCY_HORIZONTAL + DISTANCE_EPSILON;
}

export interface CoherencyResult {
  /** true when the unit is in Unit Coherency */
  ok: boolean;
  /** indices (into the input array) of the models that break coherency, ascending */
  breaking: number[];
  /** per model: how many other models of the unit are within coherency range */
  neighbours: number[];
  /** the connected groups of the coherency graph, each a sorted list of indices, largest first */
  groups: number[][];
}

/**
 * Unit Coherency. The core rule: each model must be within 2" horizontally and 5" vertically of at
 * least one other model of its unit (at least two others when the unit has 7 or more models).
 *
 * We also require the unit to form a single group: read literally, the rule lets a unit of 7+
 * split into two triangles, and the Rules Commentary says a unit must be one group. So the models
 * of the coherency graph (an edge between two models within 2"/5") must all be connected.
 *
 * `breaking` lists the models that fail: those with too few neighbours, plus, when the unit is
 * split, every model outside the largest group (ties: the group holding the lowest index stays).
 * A unit of one model is always coherent.
 */
export function unitCoherency(bodies: Body[]): CoherencyResult {
  const n = bodies.length;
  const neighbours: number[] = new Array(n).fill(0);
  if (n <= 1) return { ok: true, breaking: [], neighbours, groups: n === 1 ? [[0]] : [] };
  const required = n >= 7 ? 2 : 1;
  // union-find over coherency edges
  const parent: number[] = [];
  for (let i = 0; i < n; i++) parent.push(i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (inCoherencyRange(bodies[i], bodies[j])) {
        neighbours[i]++;
        neighbours[j]++;
        const ri = find(i);
        const rj = find(j);
        if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
      }
    }
  }
  const byRoot = new Map<number, number[]>();
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = find(i);
    let g = byRoot.get(r);
    if (!g) {
      g = [];
      byRoot.set(r, g);
      roots.push(r);
    }
    g.push(i);
  }
  // deterministic: roots in ascending order of first member, then stable sort by size
  const groups = roots.map((r) => byRoot.get(r)!);
  groups.sort((a, b) => b.length - a.length || a[0] - b[0]);
  const broken = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) if (neighbours[i] < required) broken[i] = true;
  for (let g = 1; g < groups.length; g++) for (const i of groups[g]) broken[i] = true;
  const breaking: number[] = [];
  for (let i = 0; i < n; i++) if (broken[i]) breaking.push(i);
  return { ok: breaking.length === 0, breaking, neighbours, groups };
}

/** Is the unit in Unit Coherency? */
export function isCoherent(bodies: Body[]): boolean {
  return unitCoherency(bodies).ok;
}

/** Which pairs of the models are within coherency range of each other (measured once, for many subsets). */
export function coherencyGraph(bodies: Body[]): boolean[][] {
  const n = bodies.length;
  const near: boolean[][] = bodies.map(() => new Array<boolean>(n).fill(false));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (inCoherencyRange(bodies[i], bodies[j])) near[i][j] = near[j][i] = true;
  return near;
}

/**
 * How far the models kept (`keep[i]`) are from Unit Coherency, as unitCoherency judges it: the models with
 * too few neighbours among them, plus the models outside their largest group (0: coherent).
 */
export function outOfCoherency(near: boolean[][], keep: readonly boolean[]): number {
  const idx: number[] = [];
  for (let i = 0; i < keep.length; i++) if (keep[i]) idx.push(i);
  if (idx.length <= 1) return 0;
  const required = idx.length >= 7 ? 2 : 1;
  let broken = 0;
  for (const i of idx) {
    let c = 0;
    for (const j of idx) if (near[i][j]) c++;
    if (c < required) broken++;
  }
  const group = new Array<number>(keep.length).fill(-1);
  let largest = 0;
  for (const i of idx) {
    if (group[i] >= 0) continue;
    group[i] = i;
    const stack = [i];
    let size = 0;
    while (stack.length) {
      const x = stack.pop()!;
      size++;
      for (const j of idx) if (near[x][j] && group[j] < 0) { group[j] = i; stack.push(j); }
    }
    if (size > largest) largest = size;
  }
  return broken + idx.length - largest;
}

/** The body of an objective marker: a 40 mm disc of no height on the table (or at its z). */
export function markerBody(marker: ObjectiveMarker, z = 0): Body {
  return { pos: { x: marker.pos.x, y: marker.pos.y, z }, base: { kind: 'circle', r: OBJECTIVE_MARKER_RADIUS }, height: 0 };
}

/**
 * Is the model within range of the objective marker: within 3" horizontally of the marker's edge
 * (its 40 mm disc, not its centre) and within 5" vertically?
 */
export function inObjectiveRange(body: Body, marker: ObjectiveMarker): boolean {
  const m = markerBody(marker);
  if (verticalDistance(body, m) > OBJECTIVE_RANGE_VERTICAL + DISTANCE_EPSILON) return false;
  return horizontalDistance(body, m) <= OBJECTIVE_RANGE_HORIZONTAL + DISTANCE_EPSILON;
}

/** A model as Level of Control sees it. */
export interface ControlModel {
  player: string;
  /** the model's Objective Control characteristic (after every rule: Battle-shock's 0 and what modifies it) */
  oc: number;
  body: Body;
}

export interface ObjectiveControl {
  markerId: string;
  /** Level of Control of each player that has models in range, sorted by player id */
  levels: { player: string; level: number }[];
  /** the player who controls the marker, or null (nobody in range, or contested) */
  controller: string | null;
  /** true when two or more players share the highest Level of Control (greater than 0): nobody controls it */
  contested: boolean;
}

/**
 * Level of Control of each player over a marker: the sum of the OC of their models within range
 * (a negative OC counts 0). A player controls the marker when their Level of Control is
 * greater than every opponent's. On a tie (10th edition core rules) the objective is contested and
 * NO player controls it; a level of 0 never controls. (Mission rules that keep control of an
 * objective after the models leave, "sticky" objectives, are the engine's business, not this one's.)
 */
export function levelOfControl(marker: ObjectiveMarker, models: ControlModel[]): ObjectiveControl {
  const levels = new Map<string, number>();
  for (const m of models) {
    if (!inObjectiveRange(m.body, marker)) continue;
    const oc = Math.max(0, m.oc);
    levels.set(m.player, (levels.get(m.player) ?? 0) + oc);
  }
  const list = [...levels.entries()]
    .map(([player, level]) => ({ player, level }))
    .sort((a, b) => (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
  let best = 0;
  let bestPlayer: string | null = null;
  let tie = false;
  for (const { player, level } of list) {
    if (level > best) {
      best = level;
      bestPlayer = player;
      tie = false;
    } else if (level === best && level > 0) {
      tie = true;
    }
  }
  return {
    markerId: marker.id,
    levels: list,
    controller: tie ? null : bestPlayer,
    contested: tie,
  };
}

/** Level of Control for every marker, in the markers' order. */
export function objectiveControl(markers: ObjectiveMarker[], models: ControlModel[]): ObjectiveControl[] {
  return markers.map((m) => levelOfControl(m, models));
}
