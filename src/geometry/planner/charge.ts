/**
 * Charge moves: a model of the unit within Engagement Range of every target first, then the others in base
 * contact where they can, in Unit Coherency, never within Engagement Range of a unit not charged.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { Vec2 } from '../types.ts';
import { DISTANCE_EPSILON } from '../types.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, inEngagementRange, unitCoherency } from '../ranges.ts';
import { horizontalDistance } from '../distance.ts';
import type { PlanResult } from './types.ts';
import { CONTACT_GAP, PLAN_MARGIN, type Ctx } from './context.ts';
import { modelBody, endLegal, obstacleBody } from './end-position.ts';
import { type Placement, newPlacement, freeOfUnit, place, placedNeighbours, placedCount, requiredNeighbours, reach, finish, fail, requireStarts, startsInEngagement } from './placement.ts';
import { contactSpots, repairCoherency, approach } from './spots.ts';

/** A gap just inside Engagement Range (1" less the planner's margin, twice, so rounding keeps it within). */
const EDGE_GAP = ENGAGEMENT_RANGE_HORIZONTAL - 2 * PLAN_MARGIN;

/**
 * Directions round a target model tried last, before a charge fails or a model is left out of base contact:
 * half a degree apart. The only legal ends may lie in a gap of a few degrees between the target and another
 * model standing by it (2.4 degrees, seen in a game, between 3-degree tries).
 */
const FINE_DIRECTIONS = 720;

/** The same for a charging model's base contact once the unit is placed: a degree apart (a 3-degree gap seen). */
const FINE_CONTACT_DIRECTIONS = 360;

export function planCharge(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const engaged = startsInEngagement(ctx, false);
  if (engaged) return fail(`the unit starts within Engagement Range of enemy model ${engaged}: it cannot charge`);
  const n = ctx.models.length;
  const R = ctx.maxDistance;
  const targetUnits = ctx.req.targetUnitIds!;
  const byUnit = new Map<string, number[]>();
  for (const u of targetUnits) byUnit.set(u, []);
  ctx.obstacles.forEach((o, k) => {
    if (o.enemy) byUnit.get(o.unitId)?.push(k);
  });
  const targetIdx = (u: string) => byUnit.get(u)!;
  const startBodies = ctx.models.map((m) => modelBody(m, m.start!.x, m.start!.y, m.start!.z));
  const startBody = (i: number) => startBodies[i];
  // feasibility: every target must be within roll + 1" of some model
  for (const u of targetUnits) {
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      for (const k of targetIdx(u)) best = Math.min(best, horizontalDistance(startBody(i), obstacleBody(ctx, k)));
    }
    if (best > R + ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON) {
      return fail(`charge roll of ${R}" is insufficient: unit ${u} is ${best.toFixed(2)}" away (needs more than ${(best - ENGAGEMENT_RANGE_HORIZONTAL).toFixed(2)}")`);
    }
  }
  const P = newPlacement(n);
  const req = requiredNeighbours(ctx);
  const needN = () => Math.min(req, placedCount(P));
  const allTargets = targetUnits.flatMap(targetIdx);
  const distToTargets = (i: number) => {
    let best = Infinity;
    for (const k of allTargets) best = Math.min(best, horizontalDistance(startBody(i), obstacleBody(ctx, k)));
    return best;
  };
  const dT = Array.from({ length: n }, (_, i) => distToTargets(i));

  /**
   * Try base-contact spots for model i against the given target obstacles. `alsoEngage`: other target
   * units (their obstacles) still to be engaged; spots within Engagement Range of more of them come first,
   * so that one model can tie up two targets standing close together (the nearest spot otherwise).
   */
  const tryContact = (i: number, targets: number[], gap: number, need: number, alsoEngage: readonly number[][] = [], directions = 24): boolean => {
    const m = ctx.models[i];
    const s = m.start!;
    const cands: { x: number; y: number; d: number; also: number }[] = [];
    for (const k of targets) {
      const o = ctx.obstacles[k];
      const ob = obstacleBody(ctx, k);
      if (horizontalDistance(startBody(i), ob) > R + gap + DISTANCE_EPSILON) continue;
      for (const p of contactSpots(ctx, i, o.shape, s.x, s.y, gap, directions)) {
        const d = len(p.x - s.x, p.y - s.y);
        if (d > R + DISTANCE_EPSILON) continue;
        let also = 0;
        if (alsoEngage.length > 0) {
          const body = modelBody(m, p.x, p.y, 0);
          for (const group of alsoEngage) if (group.some((g) => inEngagementRange(body, ctx.obstacles[g].body))) also++;
        }
        cands.push({ x: p.x, y: p.y, d, also });
      }
    }
    cands.sort((a, b) => b.also - a.also || a.d - b.d || a.x - b.x || a.y - b.y);
    for (const c of cands) {
      if (need > 0 && placedNeighbours(ctx, P, i, c.x, c.y, 0) < need) continue;
      if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, false)) continue;
      if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
      const r = reach(ctx, i, c.x, c.y, 0);
      if (!r) continue;
      place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
      return true;
    }
    return false;
  };

  // Phase A: make sure every target unit gets a model within Engagement Range.
  for (const u of targetUnits) {
    const tgt = targetIdx(u);
    if (engagedWith(ctx, P, tgt)) continue;
    const order = Array.from({ length: n }, (_, i) => i).filter((i) => !P.placed[i]);
    const dU = (i: number) => Math.min(...tgt.map((k) => horizontalDistance(startBody(i), obstacleBody(ctx, k))));
    order.sort((a, b) => dU(a) - dU(b) || a - b);
    const others = targetUnits.filter((v) => v !== u && !engagedWith(ctx, P, targetIdx(v))).map(targetIdx);
    // no coherency requirement yet: the other models link these up in phase B
    const closing = (i: number) => tryContact(i, tgt, CONTACT_GAP, 0, others) || tryContact(i, tgt, 0.5, 0, others) || tryContact(i, tgt, 0.9, 0, others);
    const near = order.slice(0, 4);
    let ok = near.some(closing);
    // a roll that brings the unit within Engagement Range but no nearer than 0.9" (or only a model farther
    // back has a way through): just inside Engagement Range, any model of the unit
    if (!ok) ok = order.some((i) => (!near.includes(i) && closing(i)) || tryContact(i, tgt, EDGE_GAP, 0, others));
    // a target among other models may leave room only in gaps narrower than 15 degrees: the nearest models try
    // 120 directions (3 degrees apart) before the charge fails
    if (!ok) ok = near.some((i) => [CONTACT_GAP, 0.5, 0.9, EDGE_GAP].some((gap) => tryContact(i, tgt, gap, 0, others, 120)));
    if (!ok) ok = near.some((i) => [CONTACT_GAP, 0.5, 0.9, EDGE_GAP].some((gap) => tryContact(i, tgt, gap, 0, others, FINE_DIRECTIONS)));
    if (!ok) return fail(`no model can reach unit ${u} with a charge of ${R}" (blocked, or too far along a legal path)`);
  }
  // Phase B: the other models, closest first: base contact where possible, else as close as possible in
  // coherency with the models already placed. A model that finds no spot waits for the others and tries
  // again; the last pass lets it stand still, and the coherency repair below links up what is left.
  let queue = Array.from({ length: n }, (_, i) => i).filter((i) => !P.placed[i]);
  queue.sort((a, b) => dT[a] - dT[b] || a - b);
  for (let pass = 0; pass < 3 && queue.length > 0; pass++) {
    const left: number[] = [];
    for (const i of queue) {
      const need = pass === 0 ? needN() : pass === 1 ? Math.min(1, placedCount(P)) : 0;
      if (tryContact(i, allTargets, CONTACT_GAP, need)) continue;
      if (approach(ctx, P, i, allTargets, need, pass === 2, Infinity, undefined, false)) continue;
      left.push(i);
    }
    queue = left;
  }
  if (queue.length > 0) return fail(`model ${ctx.models[queue[0]].id} cannot end its charge move in Unit Coherency`);
  const towardTargets = (i: number): Vec2 => {
    let best = Infinity;
    let p: Vec2 = { x: P.x[i], y: P.y[i] };
    for (const k of allTargets) {
      const o = ctx.obstacles[k];
      const d = len(o.shape.x - ctx.models[i].start!.x, o.shape.y - ctx.models[i].start!.y);
      if (d < best) {
        best = d;
        p = { x: o.shape.x, y: o.shape.y };
      }
    }
    return p;
  };
  // a model may only be moved by the repair if every target stays within Engagement Range of the unit
  const keepsTargets = (b: number, x: number, y: number): boolean => {
    const body = modelBody(ctx.models[b], x, y, 0);
    for (const u of targetUnits) {
      const idx = targetIdx(u);
      if (engagedWith(ctx, P, idx)) continue;
      if (!idx.some((k) => inEngagementRange(body, ctx.obstacles[k].body))) return false;
    }
    return true;
  };
  if (!repairCoherency(ctx, P, towardTargets, keepsTargets)) return fail('the unit cannot end its charge move in Unit Coherency');
  for (const u of targetUnits) {
    if (!engagedWith(ctx, P, targetIdx(u))) return fail(`the unit cannot end its charge move within Engagement Range of unit ${u}`);
  }
  baseContactPass(ctx, P, R, allTargets, targetUnits.map(targetIdx));
  return finish(ctx, P, true);
}

/** Is model i, where it is placed, in base contact with one of these enemy models? */
function inBaseContact(ctx: Ctx, P: Placement, i: number, targets: readonly number[]): boolean {
  const body = modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]);
  for (const k of targets) if (horizontalDistance(body, obstacleBody(ctx, k)) <= CONTACT_GAP + PLAN_MARGIN) return true;
  return false;
}

/**
 * Each model must end its Charge move in base contact with an enemy model if it can (core rules). The
 * placement above puts the models one by one, each in coherency with those placed before it, so a model
 * whose contact spot only later models link up ends short of it. Each model not in base contact is tried
 * again at a base-contact spot (48 directions round each target model in reach, then FINE_CONTACT_DIRECTIONS), the
 * rest of the unit where it stands: kept when the unit stays in Unit Coherency and within Engagement Range of
 * every target. Two rounds, the unit's order.
 */
function baseContactPass(ctx: Ctx, P: Placement, R: number, targets: readonly number[], targetUnits: readonly number[][]): void {
  const n = ctx.models.length;
  for (let round = 0; round < 2; round++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      if (inBaseContact(ctx, P, i, targets)) continue;
      // finer directions only where some spot was in reach and none could be taken (a narrow gap may be left)
      const coarse = toBaseContact(ctx, P, i, R, targets, targetUnits, 48);
      if (coarse === 'moved' || (coarse === 'blocked' && toBaseContact(ctx, P, i, R, targets, targetUnits, FINE_CONTACT_DIRECTIONS) === 'moved')) moved = true;
    }
    if (!moved) return;
  }
}

/**
 * Move model i to the nearest base-contact spot (`directions` round each target model in reach) that keeps the
 * unit in Unit Coherency and within Engagement Range of every target and that it can reach: 'moved'; it
 * stays when none is in reach ('out-of-reach') or none can be taken ('blocked').
 */
function toBaseContact(ctx: Ctx, P: Placement, i: number, R: number, targets: readonly number[], targetUnits: readonly number[][], directions: number): 'moved' | 'out-of-reach' | 'blocked' {
  const n = ctx.models.length;
  const m = ctx.models[i];
  const s = m.start!;
  const start = modelBody(m, s.x, s.y, s.z);
  const cands: { x: number; y: number; d: number }[] = [];
  for (const k of targets) {
    if (horizontalDistance(start, obstacleBody(ctx, k)) > R + CONTACT_GAP + DISTANCE_EPSILON) continue;
    for (const p of contactSpots(ctx, i, ctx.obstacles[k].shape, s.x, s.y, CONTACT_GAP, directions)) {
      const d = len(p.x - s.x, p.y - s.y);
      if (d <= R + DISTANCE_EPSILON) cands.push({ x: p.x, y: p.y, d });
    }
  }
  cands.sort((a, b) => a.d - b.d || a.x - b.x || a.y - b.y);
  const was = { x: P.x[i], y: P.y[i], z: P.z[i] };
  for (const c of cands) {
    if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, false)) continue;
    if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
    P.x[i] = c.x;
    P.y[i] = c.y;
    P.z[i] = 0;
    const keeps = unitCoherency(Array.from({ length: n }, (_, j) => modelBody(ctx.models[j], P.x[j], P.y[j], P.z[j]))).ok
      && targetUnits.every((idx) => engagedWith(ctx, P, idx));
    const r = keeps ? reach(ctx, i, c.x, c.y, 0) : null;
    if (r) {
      place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
      return 'moved';
    }
    P.x[i] = was.x;
    P.y[i] = was.y;
    P.z[i] = was.z;
  }
  return cands.length === 0 ? 'out-of-reach' : 'blocked';
}

/** Is some placed model of the unit within Engagement Range of one of these obstacles? */
function engagedWith(ctx: Ctx, P: Placement, obstacleIdx: number[]): boolean {
  for (let i = 0; i < ctx.models.length; i++) {
    if (!P.placed[i]) continue;
    const body = modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]);
    for (const k of obstacleIdx) {
      if (inEngagementRange(body, obstacleBody(ctx, k))) {
        return true;
      }
    }
  }
  return false;
}
