/**
 * Hazardous: after a unit has resolved its attacks, one Hazardous test (a D6, failed on a 1) per Hazardous
 * weapon that had targets selected (one per model that used it, slain or not); each failed test makes a model equipped with a Hazardous weapon suffer 3 mortal
 * wounds (a wounded one first, then one that is not a CHARACTER, then a CHARACTER), excess lost.
 *
 * A unit that fires FIRE OVERWATCH in its opponent's Charge phase takes its tests when it has shot, but the
 * mortal wounds of the failed ones wait until the charging unit has ended its Charge move (a pending effect,
 * allocated by the charge: allocateHazardousAfterCharge).
 */
import type { Game } from '../core/game.ts';
import type { GameState, ModelState, UnitState } from '../core/state.ts';
import { profileHas } from '../data/datasheet.ts';
import { inflictMortalWounds } from './damage.ts';
import { afterRoll } from './roll-window.ts';
import { modelHasKeyword } from './battle/units.ts';

/**
 * FIRE OVERWATCH's effect on the shooting unit (src/rules/stratagems/core.ts registers its rule; the constant
 * lives here, below the attack sequence, which reads it for the Hazardous tests).
 */
export const FIRE_OVERWATCH_EFFECT = 'Fire Overwatch';

/** Effect kind: failed Hazardous tests of an Overwatch in the Charge phase, allocated after the Charge move. */
export const HAZARDOUS_AFTER_CHARGE = 'Hazardous tests failed in Overwatch';

const NO_REROLLS: number[] = [];

/** Take the unit's Hazardous tests for one weapon its `users` attacked with (`label` names it in the log). */
export function hazardousTests(g: Game, unit: UnitState, weapon: string, users: readonly ModelState[], label: string): void {
  // one test for each of the weapons that had targets selected, also one whose bearer was slain since (a Deadly
  // Demise of its target); a failed test falls on a model still equipped with a Hazardous weapon, if any is left
  if (users.length === 0 || !g.state.units[unit.id].models.some((m) => m.alive)) return;
  const rolls = afterRoll(g, {
    purpose: 'hazardous', player: unit.player, unit: unit.id, sides: 6,
    values: g.dice.d6(users.length, 'hazardous', unit.player, unit.id, label), test: { needed: 2, modifier: 0, criticalOn: 7 }, rerolled: NO_REROLLS,
  });
  let failed = 0;
  for (const v of rolls) if (v === 1) failed++;
  if (failed === 0) return;
  const ids = users.map((m) => m.id);
  if (waitsForChargeMove(g.state, unit)) {
    g.addEffect(HAZARDOUS_AFTER_CHARGE, unit.player, unit.id, g.untilEndOfPhase(), { weapon, users: ids, failed });
    return;
  }
  hazardousMortalWounds(g, unit, weapon, ids, failed);
}

/** Overwatch in the opponent's Charge phase: the only shooting a unit does in that phase. */
function waitsForChargeMove(s: GameState, unit: UnitState): boolean {
  if (s.phase !== 'charge' || s.turn === unit.player) return false;
  for (const e of s.effects) if (e.kind === FIRE_OVERWATCH_EFFECT && e.unit === unit.id) return true;
  return false;
}

/**
 * The charge is over (its Charge move ended, or it failed or was abandoned): allocate the mortal wounds of the
 * Hazardous tests failed in Overwatch against it. The rules name only the end of the Charge move; a charge
 * without a move ends the sequence all the same, so they are allocated then too.
 */
export function allocateHazardousAfterCharge(g: Game): void {
  // a copy: removing the effects (and the mortal wounds' windows) change the list
  for (const e of g.state.effects.filter((x) => x.kind === HAZARDOUS_AFTER_CHARGE)) {
    g.removeEffect(e.id);
    const unit = g.state.units[e.unit!];
    if (!unit || unit.location !== 'battlefield') continue;
    hazardousMortalWounds(g, unit, String(e.params.weapon), e.params.users as string[], Number(e.params.failed));
  }
}

/**
 * Resolve `failed` failed tests one at a time. A weapon a rule lends the unit is on none of its models: then
 * one of the models that used it suffers them; a Firing Deck's lent weapons were used by embarked models of
 * another unit, and the transport, which counts as equipped with them, suffers them.
 */
function hazardousMortalWounds(g: Game, unit: UnitState, weapon: string, users: readonly string[], failed: number): void {
  for (let k = 0; k < failed; k++) {
    const fresh = g.state.units[unit.id];
    const carriers = fresh.models.filter((m) => m.alive && (m.weapons.includes(weapon) || carriesHazardous(g.state, m)));
    if (carriers.length === 0) carriers.push(...fresh.models.filter((m) => m.alive && users.includes(m.id)));
    if (carriers.length === 0 && !fresh.models.some((m) => users.includes(m.id))) carriers.push(...fresh.models.filter((m) => m.alive));
    if (carriers.length === 0) return;
    const isChar = (m: ModelState) => modelHasKeyword(g.state, m, 'CHARACTER');
    const maxW = (m: ModelState) => g.state.datasheets[m.datasheet].models[m.profile].wounds;
    const pick = carriers.find((m) => m.wounds < maxW(m)) ?? carriers.find((m) => !isChar(m)) ?? carriers[0];
    inflictMortalWounds(g, fresh, 3, null, { excessLost: true, model: pick });
  }
}

function carriesHazardous(state: GameState, m: ModelState): boolean {
  const ds = state.datasheets[m.datasheet];
  for (const name of m.weapons) {
    const w = ds.weapons.find((x) => x.name === name);
    if (w && w.profiles.some((p) => profileHas(p, 'HAZARDOUS'))) return true;
  }
  return false;
}
