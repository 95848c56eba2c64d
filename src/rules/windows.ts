/**
 * Timing windows: the moments the rules name ("just after an enemy unit has selected its targets",
 * "end of your opponent's Movement phase"...). The engine opens a window; every stratagem usable there
 * (enough CP, once per phase, valid target, not Battle-shocked unless allowed) is offered to the player
 * who may use it, as a decision. CP spent and stratagems used are events.
 */
import type { Game } from '../core/game.ts';
import { opponent, type PlayerIndex, type UnitState } from '../core/state.ts';
import { stratagemsOf, type Stratagem } from './stratagems/registry.ts';

export type WindowName =
  /** your Command phase, Battle-shock step, just before a test (Insane Bravery) */
  | 'command/before-battle-shock-test'
  /** your Command phase, just after a failed Battle-shock test (Boarding Actions Insane Bravery) */
  | 'command/after-battle-shock-failed'
  /** start of a phase (the phase's player is the active player) */
  | 'phase/start'
  /** end of a phase */
  | 'phase/end'
  /** just after an enemy unit is set up or ends a Normal, Advance or Fall Back move */
  | 'movement/after-enemy-move'
  /** your Movement phase, a unit of yours has been selected to move (before it moves) */
  | 'movement/unit-selected'
  /** your Movement phase, just after a unit of yours ends a move */
  | 'movement/after-own-move'
  /** your Shooting phase, a unit of yours has been selected to shoot (before targets) */
  | 'shooting/unit-selected'
  /** just after an enemy unit has selected its targets */
  | 'shooting/after-enemy-targets'
  /** your Shooting phase, just after a unit of yours has shot */
  | 'shooting/after-own-shot'
  /** just after an enemy unit has shot (its attacks resolved) */
  | 'shooting/after-enemy-shot'
  /** just after an enemy unit has declared a charge */
  | 'charge/after-enemy-charge-declared'
  /** your Charge phase, just after a unit of yours ends a Charge move */
  | 'charge/after-own-charge-move'
  /** just after an enemy unit ends a Charge move */
  | 'charge/after-enemy-charge-move'
  /** your Charge phase, a unit of yours has been selected to charge (before the roll) */
  | 'charge/unit-selected'
  /** Fight phase, a unit of yours has been selected to fight */
  | 'fight/unit-selected'
  /** Fight phase, just after an enemy unit has fought */
  | 'fight/after-enemy-fought'
  /** Fight phase, just after an enemy unit has selected its targets */
  | 'fight/after-enemy-targets'
  /** your Shooting phase, just after a unit of yours was selected as an Observer unit (For the Greater Good) */
  | 'shooting/observer-selected'
  /** any phase, just after a unit was destroyed (`unit`: the destroyed unit, data.by: the unit that destroyed it) */
  | 'unit/destroyed'
  /** start of the Reinforcements step of your Movement phase */
  | 'movement/reinforcements-start'
  /** any phase, just after a mortal wound was allocated to a unit (`unit`) */
  | 'damage/mortal-wound-allocated';

export interface Window {
  name: WindowName;
  /** the unit whose action opened the window (the enemy that selected targets, your unit selected...) */
  unit: string | null;
  /** the units it targeted (shooting targets, charge targets), when any */
  targets: string[];
  /** anything else the window's stratagems need (plain JSON) */
  data?: Record<string, unknown>;
}

export interface StratagemOption {
  stratagem: string;
  source: string;
  unit: string;
  cp: number;
}

export type StratagemChoice = { pass: true } | StratagemOption;

/** Has this player used this stratagem already in the current phase (or turn / battle, when limited)? */
export function stratagemUsed(g: Game, player: PlayerIndex, s: Stratagem): boolean {
  const st = g.state;
  for (const u of st.players[player].stratagemsUsed) {
    if (u.name !== s.name) continue;
    if (s.oncePerBattle) return true;
    if (u.round === st.round && u.turn === st.turn && (s.oncePerTurn || u.phase === st.phase)) return true;
  }
  return false;
}

/** The usable (stratagem, target) pairs for a player in a window. */
export function usableStratagems(g: Game, w: Window, player: PlayerIndex): { s: Stratagem; unit: UnitState }[] {
  const st = g.state;
  const cp = st.players[player].cp;
  if (cp <= 0) return [];
  const out: { s: Stratagem; unit: UnitState }[] = [];
  const ownTurn = st.turn === player;
  for (const s of stratagemsOf(g, player)) {
    if (s.cp > cp || !s.windows.includes(w.name)) continue;
    if ((s.turn === 'own' && !ownTurn) || (s.turn === 'opponent' && ownTurn)) continue;
    if (stratagemUsed(g, player, s)) continue;
    for (const unit of s.targets(g, w, player)) {
      if (unit.battleShocked && !s.allowBattleShocked) continue;
      out.push({ s, unit });
    }
  }
  return out;
}

/**
 * Open a window: offer the usable stratagems to each player (the active player first), one at a time,
 * until they pass or nothing is usable. Returns the names of the stratagems used.
 */
export function openWindow(g: Game, w: Window): string[] {
  const used: string[] = [];
  if (g.agents === null || g.state.result !== null) return used;
  const first = g.state.turn;
  for (const player of [first, opponent(first)] as PlayerIndex[]) {
    for (;;) {
      const usable = usableStratagems(g, w, player);
      if (usable.length === 0) break;
      const options: StratagemChoice[] = [{ pass: true }, ...usable.map(({ s, unit }) => ({ stratagem: s.name, source: s.source, unit: unit.id, cp: s.cp }))];
      const { index } = g.decide({ kind: 'stratagem', player, prompt: `window ${w.name}: use a stratagem?`, options, context: { window: w } });
      if (index === 0) break;
      const { s, unit } = usable[index - 1];
      useStratagem(g, w, player, s, unit);
      used.push(s.name);
    }
  }
  return used;
}

export function useStratagem(g: Game, w: Window, player: PlayerIndex, s: Stratagem, unit: UnitState): void {
  const st = g.state;
  g.emit({ type: 'cp', player, delta: -s.cp, reason: s.name });
  g.emit({ type: 'stratagem-used', player, name: s.name, cp: s.cp, unit: unit.id, round: st.round, turn: st.turn, phase: st.phase });
  s.use(g, w, player, unit);
}
