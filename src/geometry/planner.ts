/**
 * The movement planner: turns a movement intent ("advance toward P", "charge these units", "deep strike
 * near P") into a legal position for every model of the unit, or says why it cannot; and checks
 * positions an agent gives explicitly against the same rules (validatePlacement).
 *
 * Pure: plain data in, plain data out, deterministic (no randomness, no clock; candidates are tried
 * in a fixed order and ties are broken by index).
 *
 * What the planner enforces, by mode (`MoveMode`):
 * - every mode: models on the board, not overlapping other models (friendly models may be crossed,
 *   never ended on), not on wall or impassable footprints, VEHICLE/MONSTER models not on ruin
 *   footprints, Unit Coherency at the end (ranges.ts: 2"/5", two neighbours for 7+ models, one group);
 *   paths never through wall/impassable footprints, nor through ruins for VEHICLE/MONSTER models
 *   unless they can FLY; a walker's rule (`WalksOver`: Heavy Walker, Titanic Strides...) passes over
 *   ruins and impassable pieces up to its height (never a Boarding Actions wall, never to end on them);
 * - normal, advance: each model's path no longer than the move, never over enemy bases nor within
 *   Engagement Range of enemy models (FLY models ignore enemy models on the way, a walker's rule all but
 *   TITANIC ones, or all), not starting or ending within Engagement Range;
 * - fallBack: as normal, but paths may pass within Engagement Range, and over enemy bases when there is
 *   no other way (the ids of the enemy models passed over, by any model, FLY included, are returned
 *   for Desperate Escape tests);
 * - charge: path no longer than the Charge roll, not over enemy bases, not within Engagement Range of
 *   non-target units; ends within Engagement Range of every target and of no other enemy unit;
 *   each model in base-to-base contact with a target model where it can (greedy);
 * - pileIn, consolidate: up to 3", each model that moves ends closer to the enemy model that was
 *   closest to it, in base contact where it can; consolidate moves toward the closest objective
 *   marker instead when no enemy can be reached (and only if the unit then ends within its range);
 * - deepStrike: anywhere on the board more than 9" horizontally from every enemy model;
 * - strategicReserves: each model wholly within 6" of an allowed board edge, more than 9" from enemies;
 * - setUp: each model wholly within the given zone, not within Engagement Range (or more than
 *   `minEnemyDistance` from enemies when given, e.g. Infiltrators);
 * - disembark: each model wholly within 3" of the transport, not within Engagement Range;
 * - embarkCheck: every model within 3" of the transport (no movement).
 * `forbiddenZones` (any mode that sets up) are areas no part of a base may be over.
 *
 * How it places models:
 * - moves toward a destination translate the unit's formation so that its centroid goes toward the
 *   point (at most the move's length: the planner never exceeds a model's allowance), front models
 *   first; a model whose translated spot is illegal or unreachable takes the nearest legal reachable
 *   spot (spiral of candidates around it), going around obstacles with the waypoint search of
 *   pathing.ts; models breaking coherency are then moved next to the main group. If the unit still
 *   cannot end legally, the move is shortened (75%, 50%, 25% of the way, then staying put). So when
 *   the destination cannot be reached the unit moves as far as it legally can toward it, and
 *   `reachedDestination` is false.
 * - set-ups (deep strike, reserves, deployment, disembark) try anchor points on a 1" grid in order of
 *   distance to the requested point, and around each anchor fill a hexagonal lattice of slots
 *   (spread out: 1.5" between bases; 0.5", then 0.05" when that fails) nearest first, each model
 *   next to the ones already placed; the first anchor whose lattice holds the whole unit legally wins.
 * - charges first put, for each target unit, the closest model in base contact with it (or within
 *   Engagement Range when contact is out of reach), then the other models, closest first, in base
 *   contact where they can (keeping coherency with those placed), else as close to the targets as
 *   they can get beside the models already placed; a final pass repairs coherency without losing
 *   any target.
 * - the planner keeps a margin of 0.01" on every limit it must not cross (Engagement Range, 9",
 *   zones, edges, overlaps), so its output passes validatePlacement, which uses the exact limits.
 *
 * Geometry simplifications (documented choices): the planner moves models on the ground (planned
 * positions have z = 0, except models that do not move keep their z; a change of height counts toward
 * the distance moved); it does not rotate non-round bases; friendly models do not block paths (they
 * can be moved through; the rules' exception is played: a MONSTER or VEHICLE model that cannot FLY goes
 * round friendly MONSTER and VEHICLE models) but block end positions; the models of the unit moved pass
 * through one another (it moves as a formation); a charge move may not pass within Engagement Range
 * of a unit it does not target (the core rules' Charge move); FLY models ignore enemy models on
 * the way in Normal, Advance and Fall Back moves (not at the end), as the core rules' Flying says.
 *
 * The parts, in planner/: types.ts (the request and the answers), context.ts (a request checked and made
 * ready: obstacles, terrain, limits), end-position.ts (where a model may end), placement.ts (one attempt:
 * models placed so far, paths, the result), spots.ts (a spot for one model: spiral, base contact, approach,
 * coherency repair), then one file per kind of move: moves.ts (Normal, Advance, Fall Back), charge.ts,
 * pile-in.ts (and Consolidation), set-up.ts (set-ups and the embark check); validate.ts checks explicit
 * positions.
 */
import { buildContext } from './planner/context.ts';
import { fail } from './planner/placement.ts';
import { planTranslate } from './planner/moves.ts';
import { planCharge } from './planner/charge.ts';
import { planPileIn } from './planner/pile-in.ts';
import { planEmbarkCheck, planSetUp } from './planner/set-up.ts';
import type { MoveRequest, PlanResult, World } from './planner/types.ts';

export type * from './planner/types.ts';
export { centroidOf } from './planner/placement.ts';
export { validatePlacement } from './planner/validate.ts';

/** Plans the move or set-up of a unit. See the file comment for the rules applied. */
export function planMove(request: MoveRequest, world: World): PlanResult {
  const ctx = buildContext(request, world);
  if (typeof ctx === 'string') return fail(ctx);
  switch (ctx.mode) {
    case 'normal':
    case 'advance':
    case 'fallBack':
      return planTranslate(ctx);
    case 'charge':
      return planCharge(ctx);
    case 'pileIn':
    case 'consolidate':
      return planPileIn(ctx);
    case 'deepStrike':
    case 'strategicReserves':
    case 'setUp':
    case 'disembark':
      return planSetUp(ctx);
    case 'embarkCheck':
      return planEmbarkCheck(ctx);
  }
}
