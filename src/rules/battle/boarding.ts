/**
 * Rules of the Boarding Actions game mode (`mission.mode === 'boarding-actions'`) that change how the
 * core rules play. The board (44" x 30", walls, hatchways: ./hatchways.ts) and the stratagems
 * (src/rules/stratagems/boarding-actions.ts) are elsewhere.
 *
 * Close quarters (what the engine plays; the seeds only imply it through EXPLOSIVE CLEARANCE, which
 * lifts it): in a Boarding Actions game,
 * - each time a model makes a ranged attack, that attack can only be allocated to a model of the target
 *   unit that is visible to the attacking model (its Devastating Wounds too); when no such model is
 *   left, the rest of the attacks are lost;
 * - when determining how many models are in the target unit for the [BLAST] ability, only the models
 *   visible to the attacking model count.
 * Melee attacks are not affected; an INDIRECT FIRE attack at a unit none of whose models the firing model
 * sees has nobody to be allocated to. With fast dice rolling, the models of one weapon group are split
 * into groups that see the same target models, so every attack is allocated as its own model's
 * would be. A model given EXPLOSIVE CLEARANCE for its Blast weapon is exempt for that weapon (all
 * models count, any model can be allocated its attacks) until the end of the phase.
 */
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import type { Body } from '../../geometry/types.ts';
import type { AttackGroup } from '../attack-sequence.ts';
import { modelBody, modelsSee } from './world.ts';

/**
 * Why the rules that change firing Overwatch do nothing here (Aeldari and T'au Boarding Actions detachments):
 * the Boarding Actions stratagems have no FIRE OVERWATCH, and nothing else in these games fires Overwatch.
 */
export const NO_OVERWATCH = "it changes firing Overwatch, and the engine's Boarding Actions games have no FIRE OVERWATCH";

/** Effect kind (on the attacking unit): params.model fires params.weapon under Explosive Clearance. */
export const EXPLOSIVE_CLEARANCE = 'Explosive Clearance';

export function isBoardingActions(state: GameState): boolean {
  return state.mission.mode === 'boarding-actions';
}

/** Does Explosive Clearance free this model's weapon from the close-quarters restrictions now? */
export function explosiveClearance(state: GameState, unit: UnitState, model: string, weapon: string): boolean {
  for (const e of state.effects) {
    if (e.kind === EXPLOSIVE_CLEARANCE && e.unit === unit.id && e.params.model === model && e.params.weapon === weapon) return true;
  }
  return false;
}

/**
 * Close quarters for one attack group of a Boarding Actions game: the group split by which target
 * models each attacking model sees, each part with the models its attacks may be allocated to and the
 * number of models Blast counts. `bodyOf` gives where a model shoots from (its transport for Firing
 * Deck).
 */
export function closeQuartersGroups(state: GameState, attacker: UnitState, group: AttackGroup, bodyOf: (m: ModelState) => Body): AttackGroup[] {
  const target = state.units[group.target];
  const out: AttackGroup[] = [];
  const byKey = new Map<string, AttackGroup>();
  for (const m of group.models) {
    if (explosiveClearance(state, attacker, m.id, group.weapon.name)) {
      let free = byKey.get('*');
      if (!free) {
        const all = target.models.filter((t) => t.alive).length;
        byKey.set('*', (free = { ...group, models: [], targetModels: all }));
        delete free.allocatable;
        out.push(free);
      }
      free.models.push(m);
      continue;
    }
    const body = bodyOf(m);
    const seen: string[] = [];
    for (const t of target.models) {
      if (t.alive && t.pos && modelsSee(state, body, m.id, modelBody(state, t), t.id)) seen.push(t.id);
    }
    const key = seen.join(',');
    let part = byKey.get(key);
    if (!part) {
      byKey.set(key, (part = { ...group, models: [], targetModels: seen.length, allocatable: new Set(seen) }));
      out.push(part);
    }
    part.models.push(m);
  }
  return out;
}
