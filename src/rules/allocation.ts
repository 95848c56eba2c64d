/**
 * Who takes the next attack. The defender allocates, within the rules:
 *  - a model that has lost wounds or already had attacks allocated this phase must take it;
 *  - in an Attached unit, CHARACTER (Leader) models cannot be allocated attacks while Bodyguard models
 *    remain, unless the attack has PRECISION (the attacker then picks a visible CHARACTER);
 *  - otherwise the defender's default choice: the model whose loss leaves the unit closest to Unit
 *    Coherency (casualties from the unit's edges), and among those the last in the unit's order (so the
 *    first model listed, typically the unit's champion, is the last to go).
 * `allowed` (Boarding Actions: the models visible to the attacking models) narrows every choice to
 * those models; with none of them left, the attack cannot be allocated (null).
 */
import type { GameState, ModelState, UnitState } from '../core/state.ts';
import { coherencyGraph, outOfCoherency } from '../geometry/ranges.ts';
import { modelBody } from './battle/world.ts';

export function isLeaderModel(unit: UnitState, m: ModelState): boolean {
  if (unit.components.length < 2) return false;
  for (const c of unit.components) if (c.unit === m.origin) return c.isLeader;
  return false;
}

/** A model that has lost wounds or already had an attack allocated to it this phase: it takes the next attacks. */
export function mustTake(state: GameState, m: ModelState): boolean {
  return m.allocated || m.wounds < state.datasheets[m.datasheet].models[m.profile].wounds;
}

/**
 * A model attacks and mortal wounds can go to: on the table with wounds left. A model at 0 wounds is
 * already destroyed, only not yet removed (its Deadly Demise is being resolved): nothing more can be
 * allocated to it, so a chain of Deadly Demise explosions never comes back to it.
 */
export function allocatable(m: ModelState): boolean {
  return m.alive && m.wounds > 0;
}

export function allocationTarget(
  state: GameState, unit: UnitState, precision: boolean, allowed: ReadonlySet<string> | null = null, precisionOnly: readonly string[] | null = null,
): ModelState | null {
  const models = unit.models;
  const attached = unit.components.length > 1;
  let bodyguardAlive = false;
  if (attached) {
    for (let i = 0; i < models.length; i++) if (allocatable(models[i]) && !isLeaderModel(unit, models[i])) { bodyguardAlive = true; break; }
  }
  if (precision && attached && bodyguardAlive) {
    if (precisionOnly !== null) {
      // the CHARACTERs the attacker can see, in the order it chose (precisionOrder)
      for (const id of precisionOnly) {
        const m = models.find((x) => x.id === id);
        if (m && allocatable(m) && isLeaderModel(unit, m) && (allowed === null || allowed.has(m.id))) return m;
      }
    } else {
      // The attacker sends the attack to a CHARACTER (one alone, or every one visible with no choice asked): the wounded one first.
      let pick: ModelState | null = null;
      for (const m of models) {
        if (!allocatable(m) || !isLeaderModel(unit, m) || (allowed !== null && !allowed.has(m.id))) continue;
        if (mustTake(state, m)) return m;
        pick ??= m;
      }
      if (pick) return pick;
    }
  }
  const free: ModelState[] = [];
  for (let i = models.length - 1; i >= 0; i--) {
    const m = models[i];
    if (!allocatable(m) || (allowed !== null && !allowed.has(m.id))) continue;
    if (bodyguardAlive && isLeaderModel(unit, m)) continue;
    if (mustTake(state, m)) return m;
    free.push(m);
  }
  return free.length <= 1 ? (free[0] ?? null) : keepsCoherency(state, unit, free);
}

/**
 * Of the models free to take the attack (last in the unit's order first), the one whose loss leaves the
 * unit closest to Unit Coherency: a player removes casualties from the edges of a unit, not from its
 * middle, where the gap would cost more models at the end of the turn. Among equals, the last in order.
 */
function keepsCoherency(state: GameState, unit: UnitState, free: ModelState[]): ModelState {
  const standing = unit.models.filter((m) => allocatable(m) && m.pos);
  if (standing.length <= 2) return free[0];
  const near = coherencyGraph(standing.map((m) => modelBody(state, m)));
  const keep = standing.map(() => true);
  let best = free[0];
  let bestLeft = Infinity;
  for (const m of free) {
    const i = standing.indexOf(m);
    if (i < 0) continue;
    keep[i] = false;
    const left = outOfCoherency(near, keep);
    keep[i] = true;
    if (left < bestLeft) { best = m; bestLeft = left; }
  }
  return best;
}
