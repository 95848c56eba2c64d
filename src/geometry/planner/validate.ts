/**
 * Positions an agent gives explicitly, checked against the rules of the request's mode (the same end-position
 * rules as the planner, without its margin).
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { Vec3 } from '../types.ts';
import { DISTANCE_EPSILON } from '../types.ts';
import { unitCoherency, inEngagementRange, markerBody } from '../ranges.ts';
import { horizontalDistance, verticalDistance } from '../distance.ts';
import type { World, MoveRequest, Violation, PlacementCheck } from './types.ts';
import { TRANSPORT_RANGE, isSetUpMode, buildContext } from './context.ts';
import { modelBody, endLegal, unitOverlap, obstacleBody } from './end-position.ts';
import { requiredNeighbours, reach, startsInEngagement } from './placement.ts';
import { consolidationMarker } from './pile-in.ts';

/**
 * Checks positions given by an agent (one per model, in the request's order) against the rules of
 * the request's mode. Paths are not given: a model's move is legal when some clear path (straight,
 * or around obstacles through the planner's waypoints) is short enough. Not checked: "base-to-base
 * contact where possible" in charges and pile-ins (only that the charge ends within Engagement Range
 * of every target, and that pile-in moves end closer).
 */
export function validatePlacement(request: MoveRequest, world: World, positions: Vec3[]): PlacementCheck {
  const violations: Violation[] = [];
  const ctx = buildContext(request, world);
  if (typeof ctx === 'string') {
    return { ok: false, violations: [{ modelId: null, rule: 'request', detail: ctx }], crossedEnemyModelIds: [], pathLengths: [] };
  }
  const n = ctx.models.length;
  if (positions.length !== n) {
    violations.push({ modelId: null, rule: 'request', detail: `expected ${n} positions, got ${positions.length}` });
    return { ok: false, violations, crossedEnemyModelIds: [], pathLengths: [] };
  }
  const moving = !isSetUpMode(ctx.mode) && ctx.mode !== 'embarkCheck';
  if (moving || ctx.mode === 'embarkCheck') {
    for (const m of ctx.models) {
      if (!m.start) violations.push({ modelId: m.id, rule: 'notOnBattlefield', detail: 'the model is not on the battlefield' });
    }
    if (violations.length > 0) return { ok: false, violations, crossedEnemyModelIds: [], pathLengths: [] };
  }
  const bodies = positions.map((p, i) => modelBody(ctx.models[i], p.x, p.y, p.z));
  const lengths: number[] = new Array(n).fill(0);
  const crossedIdx = new Set<number>();
  if (ctx.mode === 'embarkCheck') {
    const tb = ctx.world.models.find((w) => w.id === ctx.transport!.id)!.body;
    for (let i = 0; i < n; i++) {
      const h = horizontalDistance(bodies[i], tb);
      const v = verticalDistance(bodies[i], tb);
      if (len(h, v) > TRANSPORT_RANGE + DISTANCE_EPSILON) {
        violations.push({ modelId: ctx.models[i].id, rule: 'transport', detail: `not within ${TRANSPORT_RANGE}" of the transport` });
      }
    }
    return { ok: violations.length === 0, violations, crossedEnemyModelIds: [], pathLengths: lengths };
  }
  for (let i = 0; i < n; i++) {
    const p = positions[i];
    endLegal(ctx, i, p.x, p.y, p.z, 0, violations);
    for (let j = 0; j < i; j++) {
      if (unitOverlap(ctx, i, p.x, p.y, p.z, j, positions[j].x, positions[j].y, positions[j].z, 0)) {
        violations.push({ modelId: ctx.models[i].id, rule: 'overlap', detail: `overlaps model ${ctx.models[j].id} of its unit` });
      }
    }
  }
  // movement
  if (moving) {
    if (ctx.mode === 'normal' || ctx.mode === 'advance' || ctx.mode === 'charge') {
      const engaged = startsInEngagement(ctx, false);
      if (engaged) violations.push({ modelId: null, rule: 'engagementRange', detail: `the unit starts within Engagement Range of enemy model ${engaged}` });
    }
    for (let i = 0; i < n; i++) {
      const m = ctx.models[i];
      const s = m.start!;
      const p = positions[i];
      if (s.x === p.x && s.y === p.y && s.z === p.z) continue;
      const dz = Math.abs(p.z - s.z);
      const straight = len(p.x - s.x, p.y - s.y) + dz;
      if (straight > ctx.maxDistance + DISTANCE_EPSILON) {
        lengths[i] = Infinity;
        violations.push({ modelId: m.id, rule: 'distance', detail: `moves ${straight.toFixed(2)}" (more than ${ctx.maxDistance}")` });
        continue;
      }
      const r = reach(ctx, i, p.x, p.y, p.z);
      if (!r) {
        lengths[i] = Infinity;
        violations.push({ modelId: m.id, rule: 'path', detail: `no legal path of at most ${ctx.maxDistance}"` });
        continue;
      }
      lengths[i] = r.length;
      for (const c of r.crossed) crossedIdx.add(c);
    }
    if (ctx.mode === 'charge') {
      for (const u of ctx.req.targetUnitIds!) {
        const idx = ctx.obstacles.map((o, k) => (o.unitId === u && o.enemy ? k : -1)).filter((k) => k >= 0);
        let engaged = false;
        for (let i = 0; i < n && !engaged; i++) {
          for (const k of idx) {
            const ob = obstacleBody(ctx, k);
            if (inEngagementRange(bodies[i], ob)) {
              engaged = true;
              break;
            }
          }
        }
        if (!engaged) violations.push({ modelId: null, rule: 'chargeTarget', detail: `the unit does not end within Engagement Range of target unit ${u}` });
      }
    }
    if (ctx.mode === 'pileIn' || ctx.mode === 'consolidate') {
      const enemies = ctx.obstacles.map((o, k) => (o.enemy ? k : -1)).filter((k) => k >= 0);
      // a Pile-in that moves a model must end within Engagement Range of an enemy model (endEngaged)
      if (ctx.mode === 'pileIn' && ctx.req.endEngaged === true && positions.some((p, i) => { const st = ctx.models[i].start!; return p.x !== st.x || p.y !== st.y || p.z !== st.z; })) {
        if (!bodies.some((b) => enemies.some((k) => inEngagementRange(b, obstacleBody(ctx, k))))) {
          violations.push({ modelId: null, rule: 'pileInEngagement', detail: 'the Pile-in does not end within Engagement Range of an enemy unit' });
        }
      }
      for (let i = 0; i < n; i++) {
        const m = ctx.models[i];
        const s = m.start!;
        const p = positions[i];
        if (s.x === p.x && s.y === p.y && s.z === p.z) continue;
        const sb = modelBody(m, s.x, s.y, s.z);
        let best = Infinity;
        let bk = -1;
        for (const k of enemies) {
          const d = horizontalDistance(sb, obstacleBody(ctx, k));
          if (d < best) {
            best = d;
            bk = k;
          }
        }
        let closer = bk >= 0 && horizontalDistance(bodies[i], obstacleBody(ctx, bk)) < best - 1e-9;
        // or in base contact with a model of the closest enemy unit, when that is enough (closestUnitContact)
        if (!closer && bk >= 0 && ctx.req.closestUnitContact === true) {
          const unit = ctx.obstacles[bk].unitId;
          closer = enemies.some((k) => ctx.obstacles[k].unitId === unit && horizontalDistance(bodies[i], obstacleBody(ctx, k)) <= 0.01);
        }
        if (!closer && ctx.mode === 'consolidate') {
          // toward the objective marker closest to the unit
          const mk = consolidationMarker(ctx);
          if (mk) closer = horizontalDistance(bodies[i], markerBody(mk)) < horizontalDistance(sb, markerBody(mk)) - 1e-9;
        }
        if (!closer) violations.push({ modelId: m.id, rule: 'notCloser', detail: 'does not end closer to the closest enemy model' });
      }
    }
  }
  const coh = unitCoherency(bodies);
  for (const b of coh.breaking) {
    violations.push({ modelId: ctx.models[b].id, rule: 'coherency', detail: coh.neighbours[b] < requiredNeighbours(ctx) ? 'too few models of its unit within 2"' : 'not in the same group as the rest of its unit' });
  }
  const crossed = [...crossedIdx].map((k) => ctx.obstacles[k].id).sort();
  return { ok: violations.length === 0, violations, crossedEnemyModelIds: crossed, pathLengths: lengths };
}
