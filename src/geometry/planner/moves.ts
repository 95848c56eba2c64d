/**
 * Normal, Advance and Fall Back moves: the unit's formation carried toward the destination, front models
 * first, shortened until it ends legally.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import { len } from '../vec.ts';
import type { PlanResult } from './types.ts';
import { type Ctx } from './context.ts';
import { type Placement, newPlacement, centroidOf, finish, fail, requireStarts, startsInEngagement, endLegalOrStay } from './placement.ts';
import { placeNear, repairCoherency } from './spots.ts';

export function planTranslate(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const dest = ctx.req.destination;
  if (!dest) return fail(`mode ${ctx.mode} needs a destination`);
  if (ctx.mode !== 'fallBack') {
    const engaged = startsInEngagement(ctx, false);
    if (engaged) return fail(`the unit starts within Engagement Range of enemy model ${engaged}: it can only Fall Back or Remain Stationary`);
  }
  const starts = ctx.models.map((m) => m.start!);
  const c0 = centroidOf(starts);
  const dx = dest.x - c0.x;
  const dy = dest.y - c0.y;
  const L = len(dx, dy);
  const full = L > 1e-9 ? Math.min(1, ctx.maxDistance / L) : 0;
  const fractions = full > 0 ? [full, full * 0.75, full * 0.5, full * 0.25, 0] : [0];
  let lastReason = '';
  for (const f of fractions) {
    const r = placeTranslated(ctx, dx * f, dy * f);
    if (typeof r === 'string') {
      lastReason = r;
      continue;
    }
    const end = centroidOf(Array.from({ length: ctx.models.length }, (_, i) => ({ x: r.x[i], y: r.y[i], z: 0 })));
    const reached = len(end.x - dest.x, end.y - dest.y) <= 1;
    return finish(ctx, r, reached);
  }
  return fail(lastReason || 'no legal position');
}

function placeTranslated(ctx: Ctx, dx: number, dy: number): Placement | string {
  const n = ctx.models.length;
  const P = newPlacement(n);
  const dist = len(dx, dy);
  const ux = dist > 0 ? dx / dist : 0;
  const uy = dist > 0 ? dy / dist : 0;
  const order = Array.from({ length: n }, (_, i) => i);
  const proj = (i: number) => ctx.models[i].start!.x * ux + ctx.models[i].start!.y * uy;
  order.sort((a, b) => proj(b) - proj(a) || a - b);
  for (const i of order) {
    const m = ctx.models[i];
    const s = m.start!;
    if (dist === 0) {
      if (!endLegalOrStay(ctx, P, i)) return `model ${m.id} cannot stay where it is`;
      continue;
    }
    const tx = s.x + dx;
    const ty = s.y + dy;
    if (!placeNear(ctx, P, i, tx, ty, false)) {
      if (!endLegalOrStay(ctx, P, i)) return `model ${m.id} can neither move toward the destination nor stay where it is`;
    }
  }
  if (!repairCoherency(ctx, P, (i) => ({ x: ctx.models[i].start!.x + dx, y: ctx.models[i].start!.y + dy }))) {
    return 'the unit cannot end its move in Unit Coherency';
  }
  return P;
}
