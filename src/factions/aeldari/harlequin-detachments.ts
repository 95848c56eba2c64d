/**
 * What the two Harlequin detachments (Ghosts of the Webway, Serpent's Brood) share: Travelling Players'
 * Objective Control of 2, the stratagem of a Normal move of up to 6" after an enemy unit's move (TRICKSTERS'
 * RETORT, WEAVING STRIDE) and the one that takes a unit into Strategic Reserves at the end of the opponent's
 * Fight phase (EXIT THE STAGE, SKYWARD LUNGE).
 */
import '../core-first.ts';
import type { Rule } from '../../core/rules-registry.ts';
import type { UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { enemyJustMoved } from '../../rules/stratagems/targets.ts';
import { hasKeyword, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, unitDistance } from '../../rules/battle/world.ts';
import { moveOrFallBack, normalMoveChoices } from '../helpers.ts';

/** A HARLEQUINS unit. */
export const harlequins = (u: UnitState): boolean => hasKeyword(u, 'HARLEQUINS');

/** A Troupe unit (its datasheet's keyword; a Troupe a Troupe Master leads is one too). */
export const troupe = (u: UnitState): boolean => hasKeyword(u, 'TROUPE');

/**
 * Travelling Players (both detachments): TROUPE models of Troupe units have an Objective Control of 2. (Its
 * BATTLELINE keyword and its limits on Characters are muster checks, in src/data/muster-checks.ts.)
 */
export const troupeObjectiveControl: NonNullable<Rule['characteristic']> = (which, value, ctx) => {
  if (which !== 'OC' || ctx.unit.battleShocked || !ctx.state.datasheets[ctx.model.datasheet].keywords.includes('TROUPE')) return value;
  return 2;
};

/** The reactive move's length (TRICKSTERS' RETORT, WEAVING STRIDE). */
export const STRIDE_MOVE = 6;
/** VENOMOUS WRATH's move after the unit has shot (Serpent's Brood). */
export const VENOMOUS_WRATH_MOVE = 6;
/** WEAVERS' COILS' Fall Back move (Serpent's Brood). */
export const WEAVERS_COILS_FALL_BACK = 6;

/**
 * "Your opponent's Movement phase, just after an enemy unit ends a Normal, Advance or Fall Back move: one unit
 * within 9" of it makes a Normal move of up to 6"" (TRICKSTERS' RETORT for a Troupe, WEAVING STRIDE for any
 * HARLEQUINS INFANTRY unit). A unit within Engagement Range makes no Normal move, so it is not offered.
 * Decision `kind`: none first, then the Normal move destinations.
 */
export function registerStride(name: string, source: string, kind: string, eligible: (u: UnitState) => boolean): void {
  registerStratagem({
    name, cp: 1, category: 'Strategic Ploy', source, turn: 'opponent', windows: ['movement/after-enemy-move'],
    targets(g, w, p) {
      const s = g.state;
      const mover = enemyJustMoved(g, w, p);
      if (!mover) return [];
      return unitsOnBattlefield(s, p).filter((u) => eligible(u) && !isEngaged(s, u) && unitDistance(s, u, mover) <= 9 + 1e-6 && normalMoveChoices(s, u).length > 0);
    },
    use(g, _w, p, u) {
      const options = normalMoveChoices(g.state, u);
      if (options.length === 0) return;
      const { option } = g.decide({ kind, player: p, prompt: `${u.name}: ${name}: a Normal move of up to ${STRIDE_MOVE}"?`, options, context: { unit: u.id } });
      moveOrFallBack(g, u, option, false, () => STRIDE_MOVE);
    },
  });
}

/**
 * "End of your opponent's Fight phase: one unit not within Engagement Range of enemy units is removed from the
 * battlefield and placed into Strategic Reserves" (EXIT THE STAGE for a HARLEQUINS unit, SKYWARD LUNGE for a
 * HARLEQUINS VEHICLE or MOUNTED unit).
 */
export function registerExit(name: string, source: string, eligible: (u: UnitState) => boolean): void {
  registerStratagem({
    name, cp: 1, category: 'Strategic Ploy', source, turn: 'opponent', windows: ['phase/end'],
    targets(g, w, p) {
      if (w.data?.phase !== 'fight') return [];
      return unitsOnBattlefield(g.state, p).filter((u) => eligible(u) && !isEngaged(g.state, u));
    },
    use(g, _w, _p, u) { g.emit({ type: 'unit-location', unit: u.id, location: 'strategic-reserves', embarkedIn: null }); },
  });
}
