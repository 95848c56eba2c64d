/**
 * Unerring Strike (Khaine's Arrow, Boarding Actions): whether a Normal move opens a closed hatchway on its way,
 * and where such a move is expected to end, so that the move decision can head beyond a closed hatchway.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { UnitState } from '../../src/core/state.ts';
import { dist, type Point } from '../../src/ai/tactics.ts';
import { unitMove } from '../../src/rules/battle/units.ts';
import { centroidOf } from '../../src/geometry/planner.ts';
import { planMove } from '../../src/rules/battle/movement.ts';
import { acrossHatchway, hatchwayById, hatchwayCentre } from '../../src/rules/battle/hatchways.ts';
import { mayUnerringStrike, unerringHatchways, type UnerringOption } from '../../src/factions/aeldari/boarding-khaines-arrow.ts';
import { perVersion } from '../../src/ai/memo.ts';
import type { Ctx } from './context.ts';
import { endPoint } from './unit-context.ts';

/**
 * The hatchway worth opening on a Normal move of `move` inches toward `to`, and where the move then ends: one the
 * move's point lies beyond (across its wall) whose way through ends more than 1" nearer `to` than `shut`, the end
 * with the hatchways as they are. The end through the doorway is estimated as the rest of the move (the Move less
 * 2" less the way to the hatchway) taken from the hatchway's centre straight at `to`. Null: none is worth it.
 */
function throughHatchway(c: Ctx, u: UnitState, to: Point, move: number, options: readonly UnerringOption[], shut: Point): { i: number; end: Point } | null {
  const pts = u.models.filter((m) => m.alive && m.pos).map((m) => m.pos!);
  let best: { i: number; end: Point } | null = null;
  let bestGap = dist(shut, to);
  options.forEach((o, i) => {
    const h = hatchwayById(c.state, o.hatchway);
    if (!h || !acrossHatchway(h.polygon, pts, [to])) return;
    const end = endPoint(hatchwayCentre(h), to, Math.max(0, move - 2 - o.way));
    const gap = dist(end, to);
    if (gap < bestGap - 1) {
      best = { i, end };
      bestGap = gap;
    }
  });
  return best;
}

/** The `unerring-strike` decision: open the hatchway throughHatchway finds, else keep the move as it is. */
export function decideUnerringStrike(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const to = req.context?.to as Point | undefined;
  if (!u || !to) return 0;
  const pts = u.models.filter((m) => m.alive && m.pos).map((m) => m.pos!);
  if (pts.length === 0) return 0;
  const move = unitMove(s, u);
  const shut = planMove(s, u, 'normal', to, move);
  const options = req.options as ({ keep: true } | UnerringOption)[];
  const open = options.map((o, i) => ({ o, i })).filter((x): x is { o: UnerringOption; i: number } => !('keep' in x.o));
  const best = throughHatchway(c, u, to, move, open.map((x) => x.o), shut.ok ? centroidOf(shut.positions) : centroidOf(pts));
  return best ? open[best.i].i : 0;
}

/**
 * Where a Normal move of `move` inches toward `to` ends when the unit will open a hatchway on its way (Unerring
 * Strike, as decideUnerringStrike will answer), given `shut`, its planned end with the hatchways as they are;
 * null when the rule does not apply or opens none. The hatchways it could open are found as the engine finds them
 * (a planner call each), so only for a unit whose player has the rule, in its Movement phase, and once per state
 * version (they do not depend on the move's point: the few options planned for one move decision share them).
 */
export function unerringStrikeEnd(c: Ctx, u: UnitState, to: Point, move: number, shut: Point): Point | null {
  if (!mayUnerringStrike(c.state, u)) return null;
  const options = perVersion(c.state, `unerring|${u.id}|${move}`, () =>
    unerringHatchways(c.state, u, move).map((h) => ({ hatchway: h.hatchway, way: Math.max(0, ...h.plan.pathLengths) })));
  return options.length ? throughHatchway(c, u, to, move, options, shut)?.end ?? null : null;
}
