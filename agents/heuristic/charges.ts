/**
 * Charges: which unit charges which targets, when the odds times the prize beat the risk.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { UnitState } from '../../src/core/state.ts';
import { allows } from '../../src/core/rules-registry.ts';
import { enemyUnits, p2d6AtLeast, unitAttackPotential, unitValue } from '../../src/ai/evaluate.ts';
import { objectiveSnapshot } from '../../src/ai/tactics.ts';
import { isMonsterOrVehicle, rollsHalved } from '../../src/rules/battle/units.ts';
import { chargeRollModifier } from '../../src/rules/battle/charge.ts';
import { hookedChargeBonus } from '../../src/rules/battle/hooked.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { mustTake } from '../../src/rules/allocation.ts';
import { type Ctx, argmax } from './context.ts';

/** What a charge by `u` at `e` is worth if it succeeds: the fight, the marker, being shielded from guns. */
export function chargePrize(c: Ctx, u: UnitState, e: UnitState): number {
  const s = c.state;
  let v = unitAttackPotential(s, u, e, true);
  // contesting or taking the marker the target stands on
  const row = objectiveSnapshot(s).contrib.get(e.id);
  if (row && row.some((x) => x > 0)) v += 0.3 * c.w.objective;
  // it fights back (unless it dies), and the unit is locked in combat
  const back = unitAttackPotential(s, e, u, true);
  const kill = Math.min(1, unitAttackPotential(s, u, e, true) / Math.max(1, unitValue(s, e) * 1.25));
  v -= 0.5 * back * (1 - kill);
  if (!isMonsterOrVehicle(u) && !allows(s, u, 'shoot-after-fall-back')) v -= c.w.lockedShooting * bestPotential(c, u);
  return v;
}

export function bestPotential(c: Ctx, u: UnitState): number {
  let best = 0;
  for (const e of enemyUnits(c.state, c.me)) best = Math.max(best, unitAttackPotential(c.state, u, e, false));
  return best;
}

/**
 * The 2D6 a charge of `u` at `e` needs: the gap less 1" and the roll's modifiers; when a rule halves the unit's
 * Charge rolls (TANGLEBOMB BOLAS: rounded up, before modifiers), the 2D6 that still reach it after halving.
 */
export function chargeNeed(c: Ctx, u: UnitState, e: UnitState): number {
  // HOOKED's +2 comes once the charge is declared: reckoned with before
  const need = Math.ceil(Math.max(0, unitDistance(c.state, u, e) - 1 - chargeRollModifier(c.state, u, [e]) - hookedChargeBonus(c.state, u, [e.id])));
  return need > 0 && rollsHalved(c.state, u, 'charge') ? 2 * need - 1 : need;
}

export function chargeScore(c: Ctx, u: UnitState, e: UnitState): number {
  const p = p2d6AtLeast(chargeNeed(c, u, e));
  return p * chargePrize(c, u, e);
}

export function decideChargeUnit(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  return argmax(options, (o) => {
    if ('done' in o) return 0;
    const u = s.units[o.unit];
    let best = -Infinity;
    for (const e of enemyUnits(s, c.me)) {
      if (unitDistance(s, u, e) > 12) continue;
      best = Math.max(best, chargeScore(c, u, e));
    }
    return best - c.w.chargeThreshold * unitValue(s, u);
  });
}

export function decideChargeTargets(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { targets: string[] }[];
  // one target: a charge is priced by the odds of reaching its target times the melee value there, and a
  // second target only lowers those odds (the farther one must be reached too); what locking a second
  // unit in combat is worth is not priced, so sets of several are never declared
  const i = argmax(options, (o) => (o.targets.length === 1 ? chargeScore(c, u, s.units[o.targets[0]]) : -Infinity));
  const t = s.units[options[i].targets[0]];
  c.mem.charge = { unit: u.id, target: t.id, value: Math.max(10, chargePrize(c, u, t)) };
  return i;
}

/** PRECISION: the CHARACTER already hurt (or already taking attacks this phase) first, to finish it; else the first offered. */
export function decidePrecisionTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const target = s.units[String(req.context?.target)];
  const options = req.options as { model: string }[];
  const hurt = options.findIndex((o) => {
    const m = target?.models.find((x) => x.id === o.model);
    return !!m && mustTake(s, m);
  });
  return Math.max(0, hurt);
}
