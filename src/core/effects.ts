/**
 * Effects that last: data in the state with an expiry. The engine calls `expireEffects` at each
 * boundary of the battle (end of a phase, of a turn, of a battle round, start of a Command phase), and
 * every effect whose moment has come is removed by an event.
 */
import type { Game } from './game.ts';
import type { Effect, PhaseName, PlayerIndex } from './state.ts';

export type Boundary =
  | { at: 'end-of-phase'; round: number; turn: PlayerIndex; phase: PhaseName }
  | { at: 'end-of-turn'; round: number; turn: PlayerIndex }
  | { at: 'end-of-round'; round: number }
  | { at: 'start-of-command'; round: number; player: PlayerIndex };

/** Does this effect end at this boundary (or did its moment already pass)? */
export function expiresAt(e: Effect, b: Boundary): boolean {
  const x = e.expires;
  switch (x.at) {
    case 'end-of-phase':
      // "until the end of the phase" also ends at the end of that turn or round, whatever comes first
      if (b.at === 'end-of-phase') return b.round === x.round && b.turn === x.turn && b.phase === x.phase;
      if (b.at === 'end-of-turn') return b.round > x.round || (b.round === x.round && b.turn === x.turn);
      return b.at === 'end-of-round' && b.round >= x.round;
    case 'end-of-turn':
      if (b.at === 'end-of-turn') return b.round > x.round || (b.round === x.round && b.turn === x.turn);
      return b.at === 'end-of-round' && b.round >= x.round;
    case 'end-of-round':
      return b.at === 'end-of-round' && b.round >= x.round;
    case 'start-of-command':
      return b.at === 'start-of-command' && b.player === x.player && b.round > x.afterRound;
    case 'end-of-battle':
      return false;
  }
}

export function expireEffects(g: Game, b: Boundary): void {
  const ending = g.state.effects.filter((e) => expiresAt(e, b));
  for (const e of ending) g.removeEffect(e.id);
}
