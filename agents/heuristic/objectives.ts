/**
 * Objective markers: what holding or denying each marker is worth to the agent at its next scoring.
 */
import './registries.ts';
import { dist, heldCount, objectiveSnapshot, scoringOutlook, type ObjectiveSnapshot, type Point, type ScoringOutlook } from '../../src/ai/tactics.ts';
import type { Ctx } from './context.ts';
import type { UnitCtx } from './unit-context.ts';

/** Range within which a unit's centre puts (most of) its models in range of a marker. */
export const ON_MARKER = 4.2;

export interface ObjectiveView {
  snap: ObjectiveSnapshot;
  outlook: ScoringOutlook;
  /** markers each side holds now */
  held: [number, number];
}

export function objectiveView(c: Ctx): ObjectiveView {
  const snap = objectiveSnapshot(c.state);
  return { snap, outlook: scoringOutlook(c.state, c.me), held: [heldCount(snap.level, 0), heldCount(snap.level, 1)] };
}

/** Value (for me) of a marker with these levels of control: mine if I hold it, minus theirs if they do. */
function controlValue(c: Ctx, ov: ObjectiveView, i: number, mine: number, theirs: number): number {
  const lv = ov.snap.level;
  const holdsNow = lv[c.me][i] > lv[c.opp][i];
  const theyHoldNow = lv[c.opp][i] > lv[c.me][i];
  if (mine > theirs) {
    const others = ov.held[c.me] - (holdsNow ? 1 : 0);
    return c.w.objective * ov.outlook.mine * (others < 3 ? 1 : c.w.redundant);
  }
  if (theirs > mine) {
    const others = ov.held[c.opp] - (theyHoldNow ? 1 : 0);
    return -c.w.objective * c.w.deny * ov.outlook.deny * (others < 3 ? 1 : 0.3);
  }
  return 0;
}

/** Fraction of a unit's OC in range of a marker when its centre is `d` from it. */
export function onMarker(d: number, r: number): number {
  if (d <= ON_MARKER) return 1;
  if (d >= ON_MARKER + r) return 0;
  return 1 - (d - ON_MARKER) / r;
}

/** Gain in marker value of the unit standing at `end` rather than nowhere. */
export function objectiveGain(c: Ctx, ov: ObjectiveView, uc: UnitCtx, end: Point, alsoMine?: number[]): number {
  if (uc.oc <= 0) return 0;
  let v = 0;
  const objs = c.state.objectives;
  for (let i = 0; i < objs.length; i++) {
    const f = onMarker(dist(end, objs[i].pos), uc.r);
    if (f <= 0) continue;
    v += markerGain(c, ov, uc, i, f * uc.oc, alsoMine?.[i] ?? 0);
  }
  return v;
}

/** What `oc` more of my OC on marker i is worth (`alsoMine`: OC a companion moving with the unit changes there). */
export function markerGain(c: Ctx, ov: ObjectiveView, uc: UnitCtx, i: number, oc: number, alsoMine = 0): number {
  const lv = ov.snap.level;
  const mine = lv[c.me][i] - uc.contrib[i] + alsoMine;
  const theirs = lv[c.opp][i] + c.w.reachContest * ov.snap.reach[c.opp][i];
  return controlValue(c, ov, i, mine + oc, theirs) - controlValue(c, ov, i, mine, theirs);
}
