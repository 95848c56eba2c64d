/** Target rules many stratagems share, read from the window that offers them. */
import type { Game } from '../../core/game.ts';
import type { PlayerIndex, UnitState } from '../../core/state.ts';
import { hasKeyword, onBattlefield } from '../battle/units.ts';
import type { Window } from '../windows.ts';

/**
 * The part a 'unit/destroyed' window names (`w.unit`) and the unit holding it (an Attached unit, or the unit
 * itself). Rules triggered by a destroyed part read the part's own keywords (`component.keywords`): it does not
 * have those of the other units of its Attached unit (Leader).
 */
export function destroyedPart(g: Game, w: Window): { unit: UnitState; component: UnitState['components'][number] } | null {
  if (!w.unit) return null;
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    const component = u.components.find((c) => c.unit === w.unit && c.destroyed);
    if (component && u.location !== 'attached') return { unit: u, component };
  }
  return null;
}

/** The window's unit, when it is one of the player's units on the battlefield ("that unit from your army"). */
export function windowOwnUnit(g: Game, w: Window, p: PlayerIndex): UnitState | null {
  const u = w.unit ? g.state.units[w.unit] : null;
  return u && u.player === p && onBattlefield(u) ? u : null;
}

/** Target rule "that <KEYWORD> unit from your army": the window's unit (windowOwnUnit) when it has the keyword. */
export function windowOwnUnitWith(keyword: string): (g: Game, w: Window, p: PlayerIndex) => UnitState[] {
  return (g, w, p) => {
    const u = windowOwnUnit(g, w, p);
    return u && hasKeyword(u, keyword) ? [u] : [];
  };
}

/** The player's units an enemy unit just selected as targets ("a unit from your army that was selected as the target"). */
export function targetedOwnUnits(g: Game, w: Window, p: PlayerIndex): UnitState[] {
  const e = w.unit ? g.state.units[w.unit] : null;
  if (!e || e.player === p) return [];
  return w.targets.map((id) => g.state.units[id]).filter((u) => u && u.player === p && onBattlefield(u));
}

/**
 * "Your opponent's Shooting phase or the Fight phase, just after an enemy unit has selected its targets":
 * the player's units it targets, in the opponent's Shooting phase or in either Fight phase (a unit a rule has
 * shoot there, FIRING LINE, opens the shooting window too); not in the player's own turn's other phases (a
 * unit shooting back with Fire Overwatch opens the same window).
 */
export function targetedInOpponentsShootingOrFight(g: Game, w: Window, p: PlayerIndex): UnitState[] {
  const phase = g.state.phase;
  if (phase !== 'fight' && !(phase === 'shooting' && g.state.turn !== p)) return [];
  return targetedOwnUnits(g, w, p);
}

/** "The Fight phase, just after an enemy unit has selected its targets": its melee targets, or the ranged ones of a unit a rule has shoot in that phase (FIRING LINE). */
export function targetedInFight(g: Game, w: Window, p: PlayerIndex): UnitState[] {
  return g.state.phase === 'fight' ? targetedOwnUnits(g, w, p) : [];
}

/**
 * "Your opponent's Movement phase, just after an enemy unit ends a Normal, Advance or Fall Back move" (window
 * movement/after-enemy-move): that enemy unit, or null (TRICKSTERS' RETORT, WEAVING STRIDE, ISHA'S FURY).
 */
export function enemyJustMoved(g: Game, w: Window, p: PlayerIndex): UnitState | null {
  const s = g.state;
  const mover = w.unit ? s.units[w.unit] : null;
  if (s.phase !== 'movement' || !mover || mover.player === p || mover.location !== 'battlefield') return null;
  const moved = mover.flags.moved;
  return moved === 'normal' || moved === 'advance' || moved === 'fall-back' ? mover : null;
}
