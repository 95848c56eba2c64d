/**
 * Leader abilities lent to a Bodyguard unit that the Leader is not attached to: BATTLEFIELD COMMAND
 * (Boarding Actions) makes "that Bodyguard unit ... treated as being led by that Leader unit for the
 * purposes of that Leader ability" until the start of the player's next Command phase.
 *
 * The lending is an effect on the Bodyguard unit (kind BATTLEFIELD_COMMAND, params: `leader` unit id,
 * `ability` rule name). The effect's rule entry (src/rules/stratagems/boarding-actions.ts) plays the
 * lent ability's hooks for the Bodyguard unit inside `withLentLeader`, and while it does,
 * `lendingLeader` names the Leader unit: "is this unit led by a model with keyword K?"
 * (`leadingModel`, src/factions/helpers.ts) then finds the Leader's model. Abilities that are not
 * hooks (a roll reaction such as Branching Fates) ask `lentLeaderModel`.
 */
import type { GameState, ModelState, UnitState } from '../core/state.ts';
import { modelHasKeyword } from './battle/units.ts';

/** Effect kind on the Bodyguard unit. */
export const BATTLEFIELD_COMMAND = 'Battlefield Command';

let current: { bodyguard: string; leader: string } | null = null;

/** Play `fn` (a lent Leader ability's hook) with `leader` leading `bodyguard` for it. */
export function withLentLeader<T>(bodyguard: string, leader: string, fn: () => T): T {
  const prev = current;
  current = { bodyguard, leader };
  try {
    return fn();
  } finally {
    current = prev;
  }
}

/** The Leader unit lending the ability being played for this unit right now, if any. */
export function lendingLeader(state: GameState, unit: UnitState): UnitState | null {
  if (current === null || current.bodyguard !== unit.id) return null;
  return state.units[current.leader] ?? null;
}

/** An alive model of the Leader unit that lends `ability` to this unit (through an effect), with the keyword. */
export function lentLeaderModel(state: GameState, unit: UnitState, ability: string, keyword: string): ModelState | null {
  for (const e of state.effects) {
    if (e.kind !== BATTLEFIELD_COMMAND || e.unit !== unit.id || e.params.ability !== ability) continue;
    const leader = state.units[e.params.leader as string];
    if (!leader || leader.location !== 'battlefield') continue;
    for (const m of leader.models) if (m.alive && modelHasKeyword(state, m, keyword)) return m;
  }
  return null;
}
