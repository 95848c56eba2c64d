/**
 * Stratagems: one registry entry each, with its CP cost, category, the timing windows it can be used in,
 * who it can target and its effect. The engine opens windows (src/rules/windows.ts); the registry says
 * which stratagems are usable there, and the player decides.
 */
import type { Game } from '../../core/game.ts';
import type { PlayerIndex, UnitState } from '../../core/state.ts';
import type { Window, WindowName } from '../windows.ts';

export type StratagemCategory = 'Battle Tactic' | 'Strategic Ploy' | 'Epic Deed' | 'Wargear';

export interface Stratagem {
  name: string;
  cp: number;
  category: StratagemCategory;
  /** 'Core', 'Boarding Actions', or the detachment that grants it */
  source: string;
  /** windows in which it can be used */
  windows: WindowName[];
  /** whose turn it must be, relative to the player using it */
  turn: 'own' | 'opponent' | 'either';
  /** usable on (or by) a Battle-shocked unit (Insane Bravery) */
  allowBattleShocked?: boolean;
  /** at most once per battle (per player) */
  oncePerBattle?: boolean;
  /** at most once per turn (per player), on top of once per phase */
  oncePerTurn?: boolean;
  /** units this stratagem can target in this window; [] when none */
  targets(g: Game, w: Window, player: PlayerIndex): UnitState[];
  /** resolve the effect (CP and the usage record are handled by the engine) */
  use(g: Game, w: Window, player: PlayerIndex, unit: UnitState): void;
  /** what of it is not played yet (coverage report) */
  missing?: string;
}

const registry = new Map<string, Stratagem>();

/** Registry key: the same name can exist in several sources (COMMAND RE-ROLL: Core and Boarding Actions). */
function key(source: string, name: string): string {
  return `${source}::${name}`;
}

export function registerStratagem(s: Stratagem): Stratagem {
  const k = key(s.source, s.name);
  if (registry.has(k)) throw new Error(`stratagem "${s.name}" (${s.source}) registered twice`);
  registry.set(k, s);
  return s;
}

export function allStratagems(): Stratagem[] {
  return [...registry.values()];
}

/** The core set a player has: the Boarding Actions set in that mode, the Core set otherwise. */
export function coreSource(mode: string): string {
  return mode === 'boarding-actions' ? 'Boarding Actions' : 'Core';
}

/** Stratagems available to a player in this game: the mode's core set and their detachment's. */
export function stratagemsOf(g: Game, player: PlayerIndex): Stratagem[] {
  const core = coreSource(g.state.mission.mode);
  const det = g.state.players[player].detachment;
  const out: Stratagem[] = [];
  for (const s of registry.values()) if (s.source === core || (det !== null && s.source === det)) out.push(s);
  return out;
}
