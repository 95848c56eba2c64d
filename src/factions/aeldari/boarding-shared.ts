/**
 * What the Aeldari Boarding Actions detachments share (Protector Host, Star-dancer Masque, Khaine's Arrow,
 * Wraiths of the Void): the VOID GHOSTS stratagem, which three of them list, and the reason the engine gives
 * for the Overwatch rules it does not play in Boarding Actions games.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { hasKeyword } from '../../rules/battle/units.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedInOpponentsShootingOrFight } from '../../rules/stratagems/targets.ts';

/** Why the Overwatch stratagems and Enhancements do nothing here (shared with the T'au Boarding Actions detachments). */
export { NO_OVERWATCH } from '../../rules/battle/boarding.ts';

/** Void Ghosts: attacks that target the unit get -1 to the Hit roll this phase. */
registerRule({
  name: 'Void Ghosts', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.hitModifier -= 1; },
});

/**
 * VOID GHOSTS (1CP Battle Tactic) of `source`: in the opponent's Shooting phase or either Fight phase, just
 * after an enemy unit has selected its targets, one AELDARI unit it targets gets -1 to be hit until the end of
 * the phase.
 */
export function registerVoidGhosts(source: string): void {
  registerStratagem({
    name: 'VOID GHOSTS', cp: 1, category: 'Battle Tactic', source, turn: 'either',
    windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
    targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => hasKeyword(u, 'AELDARI')),
    use(g, _w, p, u) { g.addEffect('Void Ghosts', p, u.id, g.untilEndOfPhase()); },
  });
}
