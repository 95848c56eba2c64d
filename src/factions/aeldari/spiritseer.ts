/**
 * The Spiritseer's datasheet abilities, one registry entry each, written from the data export in the
 * engine's words: Spiritseer (Lone Operative near the Wraith constructs), Spirit Mark (their weapons get
 * SUSTAINED HITS 1 against one enemy unit) and Tears of Isha (a destroyed Wraith model returned, or wounds
 * regained).
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { type GameState, type ModelState, type UnitState } from '../../core/state.ts';
import { characteristic, hasKeyword, isUnitOrItsPart, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { enemiesSeenBy, modelWithinRangeOf, regainD3Wounds, returnDestroyedModel, untilStartOfNextTurn } from '../helpers.ts';

export const SPIRITSEER = 'Spiritseer';
export const SPIRIT_MARK = 'Spirit Mark (Psychic)';
export const TEARS_OF_ISHA = 'Tears of Isha (Psychic)';
/** The effect of a Spirit Mark on the friendly WRAITH CONSTRUCT unit: params.target, the marked enemy unit; params.by, the Spiritseer's unit. */
export const SPIRIT_MARKED = 'Spirit Mark (marked)';
/** A Spiritseer's unit used its Spirit Mark this turn (once per turn). */
const SPIRIT_MARK_USED = 'Spirit Mark (used)';
/** A unit was selected for Tears of Isha this turn (each unit once per turn, whichever Spiritseer selects it). */
const TEARS_SELECTED = 'Tears of Isha (selected)';

const WRAITH_CONSTRUCT = 'WRAITH CONSTRUCT';

/** The unit's models on the battlefield whose datasheet has `ability` (the Spiritseer itself). */
function seerModels(state: GameState, unit: UnitState, ability: string): ModelState[] {
  return unit.models.filter((m) => m.alive && m.pos && state.datasheets[m.datasheet].abilities.includes(ability));
}

/** The friendly WRAITH CONSTRUCT units on the battlefield within `range` of one of these models (other than their own unit), in unit order. */
function wraithsNear(state: GameState, unit: UnitState, seers: readonly ModelState[], range: number): UnitState[] {
  if (seers.length === 0) return [];
  return unitsOnBattlefield(state, unit.player).filter((w) => w.id !== unit.id && hasKeyword(w, WRAITH_CONSTRUCT) && seers.some((m) => modelWithinRangeOf(state, m, w, range)));
}

/**
 * Spiritseer: while the model is within 3" of a friendly WRAITH CONSTRUCT unit it has the Lone Operative
 * ability (read through isLoneOperative, by target selection and by the agents alike).
 */
registerRule({
  name: SPIRITSEER, kind: 'datasheet-ability',
  loneOperative({ state, unit }) {
    return wraithsNear(state, unit, seerModels(state, unit, SPIRITSEER), 3).length > 0;
  },
  escortedBy: (f) => hasKeyword(f, 'WRAITH CONSTRUCT'),
});

/**
 * Spirit Mark: once per turn, in its player's Movement phase, when the Spiritseer starts or ends a Normal,
 * Advance or Fall Back move, its player may select a friendly WRAITH CONSTRUCT unit (not TITANIC) within 6"
 * of it and an enemy unit it can see: the weapons of that Wraith unit's models have SUSTAINED HITS 1 against
 * that enemy unit until the start of the player's next Movement phase (kept until the start of their next
 * turn: no attack is made in the Command phase between the two). One decision (`spirit-mark`) offers each
 * pair, or none, at the start of the move and, if none was taken, again at its end.
 */
function spiritMark(g: Game, unit: UnitState, when: 'start' | 'end'): void {
  const s = g.state;
  if (s.phase !== 'movement' || s.turn !== unit.player) return;
  if (when === 'end' && unit.flags.moved !== 'normal' && unit.flags.moved !== 'advance' && unit.flags.moved !== 'fall-back') return;
  if (s.effects.some((e) => e.kind === SPIRIT_MARK_USED && e.unit === unit.id)) return;
  const seers = seerModels(s, unit, SPIRIT_MARK);
  const wraiths = wraithsNear(s, unit, seers, 6).filter((w) => !hasKeyword(w, 'TITANIC'));
  if (wraiths.length === 0) return;
  const seen = enemiesSeenBy(s, unit.player, seers);
  if (seen.length === 0) return;
  const options: ({ none: true } | { unit: string; target: string })[] = [{ none: true }];
  for (const w of wraiths) for (const e of seen) options.push({ unit: w.id, target: e.id });
  const { option } = g.decide({
    kind: 'spirit-mark', player: unit.player, prompt: `${unit.name}: Spirit Mark (SUSTAINED HITS 1 for a Wraith unit against an enemy unit)?`,
    options, context: { unit: unit.id, when },
  });
  if ('none' in option) return;
  g.addEffect(SPIRIT_MARK_USED, unit.player, unit.id, g.untilEndOfTurn());
  g.addEffect(SPIRIT_MARKED, unit.player, option.unit, untilStartOfNextTurn(g, unit.player), { target: option.target, by: unit.id });
}

registerRule({
  name: SPIRIT_MARK, kind: 'datasheet-ability',
  beforeMove(g, unit) { spiritMark(g, unit, 'start'); },
  afterMove(g, unit) { spiritMark(g, unit, 'end'); },
});

registerRule({
  name: SPIRIT_MARKED, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && src.effect && isUnitOrItsPart(ctx.target, src.effect.params.target)) plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

/** The destroyed WRAITH CONSTRUCT models of the unit (those Tears of Isha may return), in the unit's order. */
export function destroyedWraiths(state: GameState, unit: UnitState): ModelState[] {
  return unit.models.filter((m) => !m.alive && state.datasheets[m.datasheet].keywords.includes(WRAITH_CONSTRUCT));
}

/** Wounds the model has lost. */
function lostWounds(state: GameState, unit: UnitState, m: ModelState): number {
  return m.alive ? characteristic(state, unit, m, 'W') - m.wounds : 0;
}

/**
 * Tears of Isha: in its player's Command phase the Spiritseer selects a friendly WRAITH CONSTRUCT unit within
 * 6" (decision `tears-of-isha`, among the units it would help, not one selected for it already this turn):
 * if models of that unit were destroyed, one of them is returned to it with its full wounds (see
 * returnDestroyedModel: in Unit Coherency, out of Engagement Range; nothing when there is no room);
 * otherwise its model that lost most wounds regains up to D3 of them.
 */
registerRule({
  name: TEARS_OF_ISHA, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const options = wraithsNear(s, unit, seerModels(s, unit, TEARS_OF_ISHA), 6)
      .filter((w) => !s.effects.some((e) => e.kind === TEARS_SELECTED && e.unit === w.id))
      .filter((w) => destroyedWraiths(s, w).length > 0 || w.models.some((m) => lostWounds(s, w, m) > 0))
      .map((w) => w.id);
    if (options.length === 0) return;
    const { option } = g.decide({
      kind: 'tears-of-isha', player: unit.player, prompt: `${unit.name}: Tears of Isha: which Wraith unit gets a model back (or wounds)?`,
      options, context: { unit: unit.id },
    });
    g.addEffect(TEARS_SELECTED, unit.player, option, g.untilEndOfTurn());
    const w = g.state.units[option];
    const dead = destroyedWraiths(g.state, w);
    if (dead.length > 0) {
      const m = dead[0];
      returnDestroyedModel(g, w, m.id, 'Tears of Isha');
      return;
    }
    // the model that lost most wounds (the first of them on a tie)
    let worst: ModelState | null = null;
    for (const m of w.models) if (lostWounds(g.state, w, m) > (worst ? lostWounds(g.state, w, worst) : 0)) worst = m;
    if (!worst) return;
    regainD3Wounds(g, unit, w, worst, 'Tears of Isha (D3 wounds)');
  },
});
