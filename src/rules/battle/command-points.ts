/**
 * Command points gained beyond the Command phase's 1CP. The 10th-edition core rules (Command phase) let
 * each player gain only 1CP per battle round from every other source together; RULES.md names no such
 * rule, so the core rules decide. A second extra CP in the same battle round is not gained, and a note
 * says why.
 */
import type { Game } from '../../core/game.ts';
import type { PlayerIndex } from '../../core/state.ts';

/** Whether `player` may still gain a CP beyond the Command phase's this battle round. */
export function canGainExtraCp(g: Game, player: PlayerIndex): boolean {
  return g.state.players[player].extraCpRound !== g.state.round;
}

/** Gain 1CP from the rule `reason`, unless the player has gained one beyond the Command phase's this battle round. */
export function gainExtraCp(g: Game, player: PlayerIndex, reason: string): boolean {
  if (!canGainExtraCp(g, player)) {
    g.emit({ type: 'note', text: `${reason}: no CP gained (only 1CP a battle round beyond the Command phase's)` });
    return false;
  }
  g.emit({ type: 'cp', player, delta: 1, reason, extra: true });
  return true;
}
