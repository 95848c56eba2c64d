/**
 * Stratagems: one registry entry each, with its CP cost, category, the timing windows it can be used in,
 * who it can target and its effect. The engine opens windows (src/rules/windows.ts); the registry says
 * which stratagems are usable there, and the player decides.
 */
import type { Game } from '../../core/game.ts';
import type { PhaseName, PlayerIndex, UnitState } from '../../core/state.ts';
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
  /**
   * the phases it is used in, when its windows also open in others (a unit selected to shoot or shooting at
   * a target for Fire Overwatch, or in the Fight phase: VAUL'S VENGEANCE, FIRING LINE); absent: any
   */
  phases?: PhaseName[];
  /** usable on (or by) a Battle-shocked unit (Insane Bravery) */
  allowBattleShocked?: boolean;
  /** at most once per battle (per player) */
  oncePerBattle?: boolean;
  /** at most once per turn (per player), on top of once per phase */
  oncePerTurn?: boolean;
  /**
   * The modifier of the Battle-shock test its effect makes a unit take in the Command phase (PRESENTIMENT OF
   * DREAD: -1), when it makes one: the invariant checks (test/helpers/rule-checks.ts) read it.
   */
  battleShockTest?: number;
  /** units this stratagem can target in this window; [] when none */
  targets(g: Game, w: Window, player: PlayerIndex): UnitState[];
  /** resolve the effect (CP and the usage record are handled by the engine) */
  use(g: Game, w: Window, player: PlayerIndex, unit: UnitState): void;
  /** what of it is not played yet (coverage report) */
  missing?: string;
  /**
   * A use granted by an ability of a unit of the army (a Homing Beacon's Rapid Ingress): the player has it
   * while one of their units not destroyed has that ability, whatever their detachment.
   */
  grantedBy?: string;
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
  if (s.cp === 0) free.push(s);
  return s;
}

/** The entries that cost 0CP (a Homing Beacon's RAPID INGRESS), so a player without CP is asked only about those. */
const free: Stratagem[] = [];

/** Does the player have a stratagem that costs 0CP in this game? */
export function hasFreeStratagem(g: Game, player: PlayerIndex): boolean {
  return free.some((s) => hasStratagem(g, player, s));
}

export function allStratagems(): Stratagem[] {
  return [...registry.values()];
}

/** The core set a player has: the Boarding Actions set in that mode, the Core set otherwise. */
export function coreSource(mode: string): string {
  return mode === 'boarding-actions' ? 'Boarding Actions' : 'Core';
}

/**
 * The names of the stratagems a player of this mode and detachment may have: the mode's core set, the
 * detachment's, and every one an ability grants (whether the army has that ability is known only once it is
 * mustered). What a scenario's `withoutStratagems` may name.
 */
export function stratagemNamesFor(mode: string, detachment: string | null): string[] {
  const core = coreSource(mode);
  const names: string[] = [];
  for (const s of registry.values()) {
    if ((s.source === core || (detachment !== null && s.source === detachment) || s.grantedBy !== undefined) && !names.includes(s.name)) names.push(s.name);
  }
  return names;
}

/** The names of a detachment's own stratagems (not the core set's, nor those an ability grants), in registration order. */
export function detachmentStratagemNames(detachment: string): string[] {
  const names: string[] = [];
  for (const s of registry.values()) if (s.source === detachment && s.grantedBy === undefined && !names.includes(s.name)) names.push(s.name);
  return names;
}

/** Stratagems available to a player in this game: the mode's core set, their detachment's, and those their army's abilities grant. */
export function stratagemsOf(g: Game, player: PlayerIndex): Stratagem[] {
  const { fixed, granted } = stratagemLists(g, player);
  if (granted.length === 0) return fixed;
  const out = fixed.slice();
  for (const s of granted) if (armyHasAbility(g, player, s.grantedBy!)) out.push(s);
  return out;
}

/** Does the player have a stratagem for this window in this game? (Lets costly window data be skipped when none.) */
export function hasStratagemFor(g: Game, player: PlayerIndex, window: WindowName): boolean {
  return stratagemsOf(g, player).some((s) => s.windows.includes(window));
}

/** The player has this stratagem in this game: the mode's core set, their detachment's, or granted by an ability of their army. */
function hasStratagem(g: Game, player: PlayerIndex, s: Stratagem): boolean {
  const { fixed, granted } = stratagemLists(g, player);
  return fixed.includes(s) || (granted.includes(s) && armyHasAbility(g, player, s.grantedBy!));
}

/**
 * A player's stratagems, kept per game (the mode and detachment do not change): the core set's and the
 * detachment's, and the entries granted by an ability some unit of the army has.
 */
function stratagemLists(g: Game, player: PlayerIndex): PlayerStratagems {
  let lists = perGame.get(g);
  if (!lists || lists.generation !== registry.size) perGame.set(g, (lists = { generation: registry.size, players: [null, null] }));
  let mine = lists.players[player];
  // made again when units were added (the army is mustered after the game starts)
  if (!mine || mine.units !== g.state.unitOrder.length) {
    const core = coreSource(g.state.mission.mode);
    const det = g.state.players[player].detachment;
    // the scenario's withoutStratagems: never offered, whatever their source (a granted use too)
    const without = g.state.players[player].withoutStratagems ?? [];
    const fixed: Stratagem[] = [];
    const granted: Stratagem[] = [];
    for (const s of registry.values()) {
      if (without.includes(s.name)) continue;
      if (s.source === core || (det !== null && s.source === det)) fixed.push(s);
      else if (s.grantedBy !== undefined && armyHasAbility(g, player, s.grantedBy)) granted.push(s);
    }
    lists.players[player] = mine = { units: g.state.unitOrder.length, fixed, granted };
  }
  return mine;
}

interface PlayerStratagems { units: number; fixed: Stratagem[]; granted: Stratagem[] }
const perGame = new WeakMap<Game, { generation: number; players: [PlayerStratagems | null, PlayerStratagems | null] }>();

/** Does a unit of the player's army, not destroyed, have the ability? */
function armyHasAbility(g: Game, player: PlayerIndex, ability: string): boolean {
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    if (u.player === player && u.location !== 'destroyed' && u.abilities.includes(ability)) return true;
  }
  return false;
}
