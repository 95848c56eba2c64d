/**
 * The battle: five battle rounds (or the mission's number), each a turn for each player starting with
 * the player who took the first turn; a turn is the Command, Movement, Shooting, Charge and Fight
 * phases, then the end of the turn. The battle also ends when an army is destroyed.
 */
import type { Game } from '../../core/game.ts';
import { expireEffects } from '../../core/effects.ts';
import { opponent, type GameResult, type PhaseName, type PlayerIndex } from '../../core/state.ts';
import { commandPhase } from './command.ts';
import { movementBody, movementPhase } from './movement.ts';
import { shootingBody, shootingPhase } from './shooting.ts';
import { chargeBody, chargePhase } from './charge.ts';
import { fightPhase } from './fight.ts';
import { removeOutOfCoherency } from './end-of-turn.ts';
import { primaryMission } from './missions.ts';
import { updateObjectiveControl } from './objectives.ts';
import { endPhase, hooksOf } from './phase.ts';
import { inReserves } from './reserves.ts';
import { armyDestroyedOf } from './units.ts';
import { getRule, playerRulesWith } from '../../core/rules-registry.ts';

/** Play the battle from where the state is (after setup) to its end; returns the result. */
export function playBattle(g: Game): GameResult {
  const s = g.state;
  if (s.round === 0) {
    for (const p of [0, 1] as PlayerIndex[]) for (const h of hooksOf(g, p)) h.battleStart?.(g, p);
    // an attached Leader's own unit is empty: its abilities are its Bodyguard unit's now
    for (const id of s.unitOrder) if (s.units[id].location !== 'attached') for (const name of s.units[id].abilities) getRule(name)?.battleStart?.(g, s.units[id]);
  }
  for (let round = s.round + 1; round <= s.mission.rounds; round++) {
    g.emit({ type: 'round-started', round });
    for (const player of [s.firstPlayer, opponent(s.firstPlayer)]) {
      playTurn(g, player);
      if (armyDestroyed(g) !== null) return endBattle(g, 'army-destroyed');
    }
    expireEffects(g, { at: 'end-of-round', round });
  }
  return endBattle(g, 'rounds');
}

const PHASES: [PhaseName, (g: Game, p: PlayerIndex) => void][] = [
  ['command', commandPhase], ['movement', movementPhase], ['shooting', shootingPhase], ['charge', chargePhase], ['fight', fightPhase],
];

export function playTurn(g: Game, player: PlayerIndex): void {
  g.emit({ type: 'turn-started', round: g.state.round, player });
  for (const [, phase] of PHASES) {
    phase(g, player);
    if (armyDestroyed(g) !== null) return;
  }
  endTurn(g, player);
}

/** Phases whose selection loop can be resumed from the state between two activations. */
const BODIES: Partial<Record<PhaseName, (g: Game, p: PlayerIndex) => void>> = { movement: movementBody, shooting: shootingBody, charge: chargeBody };

/**
 * Continue a battle from between two activations of the current Movement, Shooting or Charge phase
 * (where a lookahead agent forks a copy of the game), for at most `turnEnds` more ends of turn, or to
 * the end of the battle.
 */
export function continueBattle(g: Game, turnEnds: number): void {
  const s = g.state;
  let player = s.turn;
  const phase = s.phase as PhaseName;
  const body = BODIES[phase];
  if (!body) throw new Error(`cannot resume a battle in the ${phase} phase`);
  body(g, player);
  endPhase(g, player, phase);
  if (armyDestroyed(g) !== null) { endBattle(g, 'army-destroyed'); return; }
  for (const [, fn] of PHASES.slice(PHASES.findIndex(([n]) => n === phase) + 1)) {
    fn(g, player);
    if (armyDestroyed(g) !== null) { endBattle(g, 'army-destroyed'); return; }
  }
  endTurn(g, player);
  while (--turnEnds > 0) {
    if (player === s.firstPlayer) {
      player = opponent(player);
    } else {
      expireEffects(g, { at: 'end-of-round', round: s.round });
      if (s.round >= s.mission.rounds) { endBattle(g, 'rounds'); return; }
      g.emit({ type: 'round-started', round: s.round + 1 });
      player = s.firstPlayer;
    }
    playTurn(g, player);
    if (armyDestroyed(g) !== null) { endBattle(g, 'army-destroyed'); return; }
  }
}

/** The end of a turn: coherency, objective control, the rules that act then, the second player's last scoring, effects that expire. */
export function endTurn(g: Game, player: PlayerIndex): void {
  removeOutOfCoherency(g);
  updateObjectiveControl(g, 'turn-end');
  // rules that act at the end of any turn: units' abilities (Airborne Agility), then effects (Fieldcraft's hold)
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    if (u.location !== 'battlefield') continue;
    for (const name of u.abilities) getRule(name)?.turnEnd?.(g, g.state.units[id], player);
  }
  // the players' army and detachment rules (Ride the Wind), the active player's first
  for (const owner of [player, opponent(player)]) for (const r of playerRulesWith(g.state, owner, 'playerTurnEnd')) r.playerTurnEnd!(g, owner, player);
  for (const e of [...g.state.effects]) getRule(e.kind)?.effectTurnEnd?.(g, e, player);
  // a unit that left the battlefield then no longer holds its marker (no event when nothing changed)
  updateObjectiveControl(g, 'turn-end');
  primaryMission(g.state.mission.primary).endOfTurn?.(g, player);
  expireEffects(g, { at: 'end-of-turn', round: g.state.round, turn: player });
}

/** The player whose army is destroyed (no unit left on the battlefield, embarked or in Reserves), if any. */
export function armyDestroyed(g: Game): PlayerIndex | null {
  for (const p of [0, 1] as PlayerIndex[]) if (armyDestroyedOf(g.state, p)) return p;
  return null;
}

/**
 * End of the battle: units still in Reserves count as destroyed, and so do the units embarked within a
 * transport still in Reserves (they are in Reserves with it, as Declare Battle Formations counts them); the
 * winner has more VP, a tie is a draw. When an army is destroyed the battle ends there and the player with an
 * army left wins (they would go on scoring every remaining turn against no opposition); when both are, the VP
 * decide.
 */
function endBattle(g: Game, endedBy: GameResult['endedBy']): GameResult {
  const s = g.state;
  const leftInReserves = s.unitOrder.map((id) => s.units[id])
    .filter((u) => inReserves(u) || (u.location === 'embarked' && u.embarkedIn !== null && inReserves(s.units[u.embarkedIn])));
  for (const u of leftInReserves) {
    for (const c of u.components) if (!c.destroyed) g.emit({ type: 'unit-destroyed', unit: u.id, component: c.unit, by: null, player: u.player });
  }
  const vp: [number, number] = [s.players[0].vp, s.players[1].vp];
  let winner: PlayerIndex | null = vp[0] > vp[1] ? 0 : vp[1] > vp[0] ? 1 : null;
  if (endedBy === 'army-destroyed') {
    const loser = armyDestroyed(g);
    // both armies destroyed at once (a Deadly Demise taking the last enemy unit with it): neither has an
    // army left to go on scoring, so the VP decide, as at the end of the fifth round
    if (loser !== null && !armyDestroyedOf(g.state, opponent(loser))) winner = opponent(loser);
  }
  const result: GameResult = { winner, vp, rounds: s.round, endedBy };
  g.emit({ type: 'game-ended', result });
  return result;
}
