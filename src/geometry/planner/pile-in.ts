/**
 * Pile-in and Consolidation moves: up to 3", each model that moves ends closer to its closest enemy model
 * (base contact where it can); a Consolidation with no enemy in reach goes toward the closest objective
 * marker.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { ObjectiveMarker } from '../types.ts';
import { DISTANCE_EPSILON } from '../types.ts';
import { setBaseShape, shapeDistance } from '../shape.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, inEngagementRange, unitCoherency, inObjectiveRange, markerBody } from '../ranges.ts';
import { horizontalDistance } from '../distance.ts';
import type { PlannedMove, PlanResult } from './types.ts';
import { CONTACT_GAP, PLAN_MARGIN, type Ctx } from './context.ts';
import { candShape, modelBody, endLegal, obstacleBody } from './end-position.ts';
import { newPlacement, freeOfUnit, place, placedNeighbours, placedCount, requiredNeighbours, reach, centroidOf, finish, fail, requireStarts, endLegalOrStay } from './placement.ts';
import { SPIRAL, contactSpots, repairCoherency, approach } from './spots.ts';

export function planPileIn(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const n = ctx.models.length;
  const enemies = ctx.obstacles.map((o, k) => (o.enemy ? k : -1)).filter((k) => k >= 0);
  const stayAll = (note: string): PlannedMove => {
    const P = newPlacement(n);
    for (let i = 0; i < n; i++) {
      const s = ctx.models[i].start!;
      place(P, i, s.x, s.y, s.z, [{ x: s.x, y: s.y }], 0, []);
    }
    return finish(ctx, P, false, note);
  };
  const startBody = (i: number) => modelBody(ctx.models[i], ctx.models[i].start!.x, ctx.models[i].start!.y, ctx.models[i].start!.z);
  // the closest enemy model of each model
  const closest: number[] = [];
  const d0: number[] = [];
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    let bk = -1;
    for (const k of enemies) {
      const d = horizontalDistance(startBody(i), obstacleBody(ctx, k));
      if (d < best) {
        best = d;
        bk = k;
      }
    }
    closest.push(bk);
    d0.push(best);
  }
  const R = ctx.maxDistance;
  const canReachEnemy = enemies.length > 0 && d0.some((d) => d <= R + ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON);
  if (ctx.mode === 'consolidate' && !canReachEnemy) return consolidateToObjective(ctx, stayAll);
  if (enemies.length === 0) return stayAll('no enemy models on the table');
  const mustEngage = ctx.mode === 'pileIn' && ctx.req.endEngaged === true;
  if (mustEngage && !canReachEnemy) return stayAll('the unit cannot end its Pile-in within Engagement Range');
  const towardEnemies = pileInToward(ctx, enemies, closest, d0, stayAll);
  // a Pile-in is made only when it ends within Engagement Range of an enemy unit
  if (mustEngage && !(towardEnemies.ok && endsEngaged(ctx, towardEnemies, enemies))) return stayAll('the unit cannot end its Pile-in within Engagement Range');
  // a Consolidation goes toward the enemy only when the unit can end it within Engagement Range of an enemy
  // unit (distance alone does not tell: terrain may stand in the way); else toward the closest objective marker
  if (ctx.mode === 'consolidate' && !(towardEnemies.ok && endsEngaged(ctx, towardEnemies, enemies))) return consolidateToObjective(ctx, stayAll);
  return towardEnemies;
}

/** A spot for a model's Pile-in: `d` orders them (nearest first), `k` the enemy model it is beside or heads for. */
interface PileInSpot { x: number; y: number; d: number; k: number }

const byScore = (a: PileInSpot, b: PileInSpot) => a.d - b.d || a.x - b.x || a.y - b.y;

/** Spots of base contact for model i with the enemy models in its reach: its closest enemy model's (`closestK`) first, then the others, each nearest first. */
function contactCandidates(ctx: Ctx, i: number, enemies: readonly number[], closestK: number): PileInSpot[] {
  const m = ctx.models[i];
  const s = m.start!;
  const R = ctx.maxDistance;
  const start = modelBody(m, s.x, s.y, s.z);
  const out: PileInSpot[] = [];
  for (const k of [closestK, ...enemies.filter((e) => e !== closestK)]) {
    if (horizontalDistance(start, obstacleBody(ctx, k)) > R + DISTANCE_EPSILON) continue;
    for (const p of contactSpots(ctx, i, ctx.obstacles[k].shape, s.x, s.y, CONTACT_GAP)) {
      const d = len(p.x - s.x, p.y - s.y);
      if (d <= R + DISTANCE_EPSILON) out.push({ x: p.x, y: p.y, d: (k === closestK ? 0 : 100) + d, k });
    }
  }
  return out;
}

/**
 * Does model i at the spot end closer to its closest enemy model (`closestK`, `d0i` away at the start)? Base
 * contact with a model of that enemy's unit is enough when the move says so (closestUnitContact).
 */
function endsCloser(ctx: Ctx, i: number, c: PileInSpot, closestK: number, d0i: number): boolean {
  if (ctx.req.closestUnitContact === true && ctx.obstacles[c.k].unitId === ctx.obstacles[closestK].unitId) return true;
  setBaseShape(candShape, ctx.models[i].base, c.x, c.y);
  return shapeDistance(candShape, ctx.obstacles[closestK].shape) < d0i - 1e-9;
}

/** Does the planned move end with a model of the unit within Engagement Range of an enemy model? */
function endsEngaged(ctx: Ctx, plan: PlannedMove, enemies: readonly number[]): boolean {
  for (let i = 0; i < plan.positions.length; i++) {
    const p = plan.positions[i];
    const body = modelBody(ctx.models[i], p.x, p.y, p.z);
    for (const k of enemies) if (inEngagementRange(body, obstacleBody(ctx, k))) return true;
  }
  return false;
}

/** Each model toward its closest enemy model (`closest`, `d0` its distance there), base contact where it can. */
function pileInToward(ctx: Ctx, enemies: readonly number[], closest: readonly number[], d0: readonly number[], stayAll: (note: string) => PlannedMove): PlanResult {
  const n = ctx.models.length;
  const P = newPlacement(n);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => d0[a] - d0[b] || a - b);
  const req = requiredNeighbours(ctx);
  const startsCoherent = unitCoherency(ctx.models.map((m) => modelBody(m, m.start!.x, m.start!.y, m.start!.z))).ok;
  for (const i of order) {
    const need = startsCoherent ? Math.min(req, placedCount(P)) : 0;
    if (d0[i] <= 0.01) {
      if (!endLegalOrStay(ctx, P, i)) return stayAll('the unit cannot pile in');
      continue;
    }
    // base contact: the closest enemy model first, then any enemy model in reach
    let placedIt = false;
    const cands = contactCandidates(ctx, i, enemies, closest[i]);
    cands.sort(byScore);
    for (const c of cands) {
      if (!endsCloser(ctx, i, c, closest[i], d0[i])) continue;
      if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, true)) continue;
      if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
      if (placedNeighbours(ctx, P, i, c.x, c.y, 0) < need) continue;
      const r = reach(ctx, i, c.x, c.y, 0);
      if (!r) continue;
      place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
      placedIt = true;
      break;
    }
    if (placedIt) continue;
    if (!approach(ctx, P, i, [closest[i]], need, true, d0[i], closest[i])) {
      return pileInModelByModel(ctx, enemies, closest, d0) ?? stayAll('the unit cannot pile in and keep Unit Coherency');
    }
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  if (!unitCoherency(bodies).ok) {
    const closer = (i: number, x: number, y: number) => {
      setBaseShape(candShape, ctx.models[i].base, x, y);
      return shapeDistance(candShape, ctx.obstacles[closest[i]].shape) < d0[i] - 1e-9;
    };
    if (!repairCoherency(ctx, P, (i) => ({ x: ctx.obstacles[closest[i]].shape.x, y: ctx.obstacles[closest[i]].shape.y }), closer)) {
      return pileInModelByModel(ctx, enemies, closest, d0) ?? stayAll('the unit cannot pile in and keep Unit Coherency');
    }
  }
  return finish(ctx, P, true);
}

/**
 * The fallback when placing the models one after another cannot keep Unit Coherency (enemy models near both
 * ends of a long unit: each end's models are placed toward their own enemy and the halves part). Every model
 * starts where it stands; then each in turn, closest to an enemy first, moves to its best spot (base contact
 * with its closest enemy model, else the spot closest to it) only where the whole unit, the others as they now
 * stand, stays coherent. A model that finds no such spot stays, as a Pile-in lets it. Two passes, since a
 * model moved may open a spot for one before it. Null when no model moves or the unit starts out of coherency.
 */
function pileInModelByModel(ctx: Ctx, enemies: readonly number[], closest: readonly number[], d0: readonly number[]): PlannedMove | null {
  const n = ctx.models.length;
  const R = ctx.maxDistance;
  const P = newPlacement(n);
  for (let i = 0; i < n; i++) {
    const s = ctx.models[i].start!;
    place(P, i, s.x, s.y, s.z, [{ x: s.x, y: s.y }], 0, []);
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  if (!unitCoherency(bodies).ok) return null;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => d0[a] - d0[b] || a - b);
  const moved = new Uint8Array(n);
  for (let pass = 0; pass < 2; pass++) {
    for (const i of order) {
      if (moved[i] || d0[i] <= 0.01) continue;
      const m = ctx.models[i];
      const s = m.start!;
      const closestShape = ctx.obstacles[closest[i]].shape;
      // candidates: base contact with an enemy model in reach (its closest first), then steps straight toward
      // the closest enemy model, nearest to it first
      const cands = contactCandidates(ctx, i, enemies, closest[i]);
      const L = len(closestShape.x - s.x, closestShape.y - s.y);
      if (L > 0) {
        for (let step = 12; step >= 1; step--) {
          const dd = Math.min(R, L) * (step / 12);
          const x = s.x + ((closestShape.x - s.x) / L) * dd;
          const y = s.y + ((closestShape.y - s.y) / L) * dd;
          setBaseShape(candShape, m.base, x, y);
          cands.push({ x, y, d: 200 + shapeDistance(candShape, closestShape), k: closest[i] });
        }
      }
      cands.sort(byScore);
      for (const c of cands) {
        if (!endsCloser(ctx, i, c, closest[i], d0[i])) continue;
        if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, false)) continue;
        if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
        const was = bodies[i];
        bodies[i] = modelBody(m, c.x, c.y, 0);
        if (!unitCoherency(bodies).ok) {
          bodies[i] = was;
          continue;
        }
        const r = reach(ctx, i, c.x, c.y, 0);
        if (!r) {
          bodies[i] = was;
          continue;
        }
        place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
        moved[i] = 1;
        break;
      }
    }
  }
  return moved.some((v) => v === 1) ? finish(ctx, P, true, 'piled in model by model, keeping Unit Coherency') : null;
}

/**
 * The objective marker a Consolidation with no enemy in reach heads for: the one closest to the unit's
 * centre where it starts (the first of equals), or null without markers. The validator asks it too.
 */
export function consolidationMarker(ctx: Ctx): ObjectiveMarker | null {
  const c = centroidOf(ctx.models.map((m) => m.start!));
  let best: ObjectiveMarker | null = null;
  let bd = Infinity;
  for (const mk of ctx.world.objectives ?? []) {
    const d = len(mk.pos.x - c.x, mk.pos.y - c.y);
    if (d < bd) {
      bd = d;
      best = mk;
    }
  }
  return best;
}

function consolidateToObjective(ctx: Ctx, stayAll: (note: string) => PlannedMove): PlanResult {
  const best = consolidationMarker(ctx);
  if (!best) return stayAll('no enemy in reach and no objective marker');
  const n = ctx.models.length;
  const mb = markerBody(best);
  const P = newPlacement(n);
  const dist0 = ctx.models.map((m) => horizontalDistance(modelBody(m, m.start!.x, m.start!.y, m.start!.z), mb));
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => dist0[a] - dist0[b] || a - b);
  const startsCoherent = unitCoherency(ctx.models.map((m) => modelBody(m, m.start!.x, m.start!.y, m.start!.z))).ok;
  const req = requiredNeighbours(ctx);
  for (const i of order) {
    const m = ctx.models[i];
    const s = m.start!;
    const need = startsCoherent ? Math.min(req, placedCount(P)) : 0;
    const L = len(best.pos.x - s.x, best.pos.y - s.y);
    const d = Math.min(ctx.maxDistance, L);
    const tx = L > 0 ? s.x + ((best.pos.x - s.x) / L) * d : s.x;
    const ty = L > 0 ? s.y + ((best.pos.y - s.y) / L) * d : s.y;
    let done = false;
    const maxR = Math.min(3, ctx.maxDistance);
    for (let k = 0; k < SPIRAL.length && !done; k += 2) {
      const ox = SPIRAL[k];
      const oy = SPIRAL[k + 1];
      if (ox * ox + oy * oy > maxR * maxR) break;
      const x = tx + ox;
      const y = ty + oy;
      if (horizontalDistance(modelBody(m, x, y, 0), mb) >= dist0[i] - 1e-9) continue;
      if (!freeOfUnit(ctx, P, i, x, y, 0, true)) continue;
      if (!endLegal(ctx, i, x, y, 0, PLAN_MARGIN, null)) continue;
      if (placedNeighbours(ctx, P, i, x, y, 0) < need) continue;
      const r = reach(ctx, i, x, y, 0);
      if (!r) continue;
      place(P, i, x, y, 0, r.path, r.length, r.crossed);
      done = true;
    }
    if (!done && !endLegalOrStay(ctx, P, i)) return stayAll('the unit cannot consolidate toward the objective');
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  if (!unitCoherency(bodies).ok) return stayAll('the unit cannot consolidate toward the objective in Unit Coherency');
  if (!bodies.some((b) => inObjectiveRange(b, best))) return stayAll(`the unit cannot end within range of objective ${best.id}`);
  return finish(ctx, P, true, `consolidated toward objective ${best.id}`);
}
