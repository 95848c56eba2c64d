/**
 * BATTLEFIELD COMMAND (Boarding Actions): a free Leader unit lends one of its Leader abilities to a
 * Bodyguard unit within 6" until the start of my next Command phase. Priced as the most the lent ability adds
 * to the Bodyguard unit's attacks on any one enemy unit (guns and half its melee, as `offense` weighs them) plus
 * half the most it takes off one enemy unit's attacks on it (half: that unit may attack another),
 * each counted by the calculator on a copy of the state with the ability lent. Only priced at the end of
 * my own Command phase, where it covers a whole turn of mine and one of the enemy's (a use later in the
 * turn buys less for the same CP); abilities that change neither (moves, Objective Control) are worth 0.
 */
import './registries.ts';
import type { GameState, PlayerIndex, UnitState } from '../../src/core/state.ts';
import { cloneState } from '../../src/core/clone.ts';
import { apply as applyEvent } from '../../src/core/reducer.ts';
import { enemyUnits, unitAttackPotential } from '../../src/ai/evaluate.ts';
import { perVersion } from '../../src/ai/memo.ts';
import { BATTLEFIELD_COMMAND } from '../../src/rules/lent-leaders.ts';
import { battlefieldCommandBodyguards, leaderAbilities } from '../../src/rules/stratagems/boarding-actions.ts';
import type { Ctx } from './context.ts';

export interface CommandChoice { gain: number; bodyguard: string | null; ability: string | null }

/**
 * What lending `ability` to bodyguard `b` is worth (see the module's comment), on the copy `h` where it is
 * lent. The potentials' cache tells the copy's lent ability from the real game's effects (it keys an effect
 * by its kind and parameters as well as its id, which is the real game's next).
 */
function lentGain(s: GameState, h: GameState, me: PlayerIndex, b: UnitState): number {
  const hb = h.units[b.id];
  let offense = 0;
  let defense = 0;
  for (const e of enemyUnits(s, me)) {
    const he = h.units[e.id];
    const now = unitAttackPotential(s, b, e, false) + 0.5 * unitAttackPotential(s, b, e, true);
    const lent = unitAttackPotential(h, hb, he, false) + 0.5 * unitAttackPotential(h, hb, he, true);
    offense = Math.max(offense, lent - now);
    const incoming = Math.max(unitAttackPotential(s, e, b, false), unitAttackPotential(s, e, b, true));
    const lentIncoming = Math.max(unitAttackPotential(h, he, hb, false), unitAttackPotential(h, he, hb, true));
    defense = Math.max(defense, 0.5 * (incoming - lentIncoming));
  }
  return Math.max(0, offense) + Math.max(0, defense);
}

/** The Bodyguard unit and Leader ability worth most for this Leader unit now, and what it is worth. */
export function battlefieldCommandChoice(c: Ctx, leader: UnitState): CommandChoice {
  return perVersion(c.state, `bfc|${c.me}|${leader.id}`, () => {
    const s = c.state;
    let best: CommandChoice = { gain: 0, bodyguard: null, ability: null };
    for (const b of battlefieldCommandBodyguards(s, c.me, leader)) {
      for (const ability of leaderAbilities(leader)) {
        const h = cloneState(s);
        applyEvent(h, {
          type: 'effect-added',
          effect: { id: s.nextEffectId, kind: BATTLEFIELD_COMMAND, player: c.me, unit: b.id, params: { leader: leader.id, ability }, expires: { at: 'start-of-command', player: c.me, afterRound: s.round } },
        });
        const gain = lentGain(s, h, c.me, b);
        if (gain > best.gain) best = { gain, bodyguard: b.id, ability };
      }
    }
    return best;
  });
}

/** The stratagem's gain: only at the end of my own Command phase (see the module's comment). */
export function battlefieldCommandGain(c: Ctx, leader: UnitState, window: { name: string; data?: Record<string, unknown> } | undefined): number {
  const s = c.state;
  if (window?.name !== 'phase/end' || window.data?.phase !== 'command' || s.turn !== c.me) return 0;
  return battlefieldCommandChoice(c, leader).gain;
}

/** `battlefield-command-bodyguard`: the unit the best lent ability helps most. */
export function decideCommandBodyguard(c: Ctx, options: readonly string[], leader: UnitState): number {
  const i = options.indexOf(battlefieldCommandChoice(c, leader).bodyguard ?? '');
  return Math.max(0, i);
}

/** `battlefield-command-ability`: the ability worth most to the chosen unit. */
export function decideCommandAbility(c: Ctx, options: readonly string[], leader: UnitState, bodyguard: string): number {
  const choice = battlefieldCommandChoice(c, leader);
  if (choice.bodyguard === bodyguard) return Math.max(0, options.indexOf(choice.ability ?? ''));
  return 0;
}
