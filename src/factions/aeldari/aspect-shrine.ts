/**
 * Aspect Shrine tokens (wargear of Aspect Warriors units, one allowed for every five models; the army names
 * the models that carry them). Each token is spent once per battle: to change one Hit or Wound roll made for
 * a model of the unit that is not a CHARACTER into an unmodified 6, or, in the Aspect Host, to give a
 * stratagem more (TO THEIR FINAL BREATH: +1 to its D6; PRETERNATURAL PRECISION: a second ability).
 *
 * The tokens belong to the datasheet unit whose models carry them (its part of an Attached unit), and
 * stay with it when the carrying model is destroyed: the count is of the models that mustered with one.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, UnitState } from '../../core/state.ts';
import { registerRollReaction } from '../../rules/roll-window.ts';
import { modelHasKeyword } from '../../rules/battle/units.ts';

export const ASPECT_SHRINE_TOKEN = 'Aspect Shrine Token';

registerRule({ name: ASPECT_SHRINE_TOKEN, kind: 'wargear-ability' });

const usedKey = (origin: string) => `${ASPECT_SHRINE_TOKEN}:${origin}`;

/** The part of the unit (its datasheet unit id) holding tokens not yet spent, and how many: null when none is left. */
export function shrineTokens(s: GameState, unit: UnitState): { origin: string; left: number } | null {
  for (const c of unit.components) {
    let carried = 0;
    for (const m of unit.models) if (m.origin === c.unit && m.wargear?.includes(ASPECT_SHRINE_TOKEN)) carried++;
    if (carried === 0) continue;
    const left = carried - Number(s.players[unit.player].ruleState[usedKey(c.unit)] ?? 0);
    if (left > 0) return { origin: c.unit, left };
  }
  return null;
}

/** Spend one of the unit's tokens (the caller checked `shrineTokens`). */
export function spendShrineToken(g: Game, unit: UnitState, origin: string): void {
  const st = g.state.players[unit.player].ruleState;
  g.emit({ type: 'rule-state', player: unit.player, key: usedKey(origin), value: Number(st[usedKey(origin)] ?? 0) + 1 });
}

/**
 * A stratagem's optional token: if the unit has one left, its player decides whether to remove it (decision
 * `remove-aspect-shrine-token`); true when removed.
 */
export function removeShrineTokenFor(g: Game, unit: UnitState, stratagem: string, gain: string): boolean {
  const tokens = shrineTokens(g.state, unit);
  if (!tokens) return false;
  const { option } = g.decide({
    kind: 'remove-aspect-shrine-token', player: unit.player,
    prompt: `${unit.name}: remove an Aspect Shrine token (${tokens.left} left) for ${stratagem} (${gain})?`,
    options: [false, true], context: { unit: unit.id, stratagem, left: tokens.left },
  });
  if (option) spendShrineToken(g, unit, tokens.origin);
  return option;
}

registerRollReaction({
  name: ASPECT_SHRINE_TOKEN,
  react(g, roll) {
    if ((roll.purpose !== 'hit' && roll.purpose !== 'wound') || roll.unit === null || roll.sides !== 6) return null;
    const s = g.state;
    const unit = s.units[roll.unit];
    // every Hit and Wound roll of the game asks: most units carry no token
    if (!unit || unit.player !== roll.player || !unit.abilities.includes(ASPECT_SHRINE_TOKEN)) return null;
    const tokens = shrineTokens(s, unit);
    if (!tokens) return null;
    // made for a model that is not a CHARACTER (a roll of several models' dice: one of them is not)
    const models = (roll.models ?? []).map((id) => unit.models.find((m) => m.id === id));
    if (!models.some((m) => m && !modelHasKeyword(s, m, 'CHARACTER'))) return null;
    const values: number[] = [];
    for (const v of roll.values) if (v < 6 && !values.includes(v)) values.push(v);
    if (values.length === 0) return null;
    values.sort((a, b) => a - b);
    const { option } = g.decide<{ none: true } | { die: number }>({
      kind: 'aspect-shrine-token', player: roll.player,
      prompt: `Aspect Shrine token (${tokens.left} left): change one ${roll.purpose} roll to an unmodified 6? Rolled [${roll.values.join(', ')}]`,
      options: [{ none: true }, ...values.map((v) => ({ die: v }))],
      context: { unit: unit.id, purpose: roll.purpose, values: [...roll.values], needed: roll.test?.needed ?? null, left: tokens.left },
    });
    if ('none' in option) return null;
    spendShrineToken(g, unit, tokens.origin);
    const index = roll.values.indexOf(option.die);
    return { values: g.dice.substitute(roll.values, index, 6, roll.purpose, roll.player, unit.id, ASPECT_SHRINE_TOKEN), rerolled: [...roll.rerolled] };
  },
});
