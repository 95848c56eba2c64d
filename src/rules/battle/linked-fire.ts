/**
 * LINKED FIRE (Fire Prism's focused lances, from the export's datasheet; not a core rule): when selecting
 * targets for the weapon, its player may measure range and determine visibility from another friendly
 * FIRE PRISM model that the bearer sees; a weapon aimed that way has an Attacks characteristic of 1 (the
 * registry entry in ../weapon-abilities.ts sets it from the attack group's `linkedFire`). The shooting
 * phase asks here where else a bearer may aim from; the target rules it then applies (range, visibility,
 * Lone Operative, combats) are its own, measured from the linked model, and so is the Benefit of Cover.
 */
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import { profileHas, type Weapon } from '../../data/datasheet.ts';
import type { Body } from '../../geometry/types.ts';
import { unitsOnBattlefield } from './units.ts';
import { modelBody, modelsSee } from './world.ts';

/** The keyword of the models a LINKED FIRE weapon may measure from (the only datasheet with the ability names it). */
export const LINKED_FIRE_KEYWORD = 'FIRE PRISM';

/** Does some profile of the weapon have LINKED FIRE? */
export function hasLinkedFire(w: Weapon): boolean {
  for (const p of w.profiles) if (profileHas(p, 'LINKED FIRE')) return true;
  return false;
}

/**
 * The bodies a LINKED FIRE weapon of `bearer` may be aimed from, besides its own: every other friendly
 * FIRE PRISM model on the battlefield the bearer sees, in the army's unit order (so the choice is the same
 * on every replay).
 */
export function linkedFireBodies(s: GameState, unit: UnitState, bearer: ModelState, bearerBody: Body): Body[] {
  const out: Body[] = [];
  for (const other of unitsOnBattlefield(s, unit.player)) {
    if (!other.keywords.includes(LINKED_FIRE_KEYWORD)) continue;
    for (const m of other.models) {
      if (m === bearer || !m.alive || !m.pos) continue;
      const b = modelBody(s, m);
      if (modelsSee(s, bearerBody, bearer.id, b, m.id)) out.push(b);
    }
  }
  return out;
}
