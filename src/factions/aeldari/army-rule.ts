/**
 * Strands of Fate, the Aeldari army rule (from the index pages of ../shared/seeds). At the start of the
 * battle the player rolls six D6: the Fate dice pool. They may re-roll the whole pool, with one die
 * fewer each time, until satisfied (or one die is left). Once per phase, before making one of the listed
 * rolls for one of their units, they may use a Fate die instead of rolling one die: it counts as an
 * unmodified roll of its value; for a roll of several dice, the rest are rolled.
 *
 * The export has a second Aeldari army rule, Battle Focus (its tokens and Agile Manoeuvres, ./battle-focus.ts),
 * which the datasheets list as an ability: the engine plays both for every Aeldari army.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { RollPurpose } from '../../core/events.ts';
import type { Game } from '../../core/game.ts';
import type { PlayerIndex } from '../../core/state.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { registerBeforeRollReaction } from '../../rules/roll-window.ts';

export const STRANDS_OF_FATE = 'Strands of Fate';

/** The rolls a Fate die may replace. */
export const FATE_ROLLS: ReadonlySet<RollPurpose> = new Set(['advance', 'battle-shock', 'charge', 'damage', 'hit', 'save', 'wound']);

export function fatePool(g: Game, player: PlayerIndex): number[] {
  return (g.state.players[player].ruleState.fate as number[] | undefined) ?? [];
}

function phaseKey(g: Game): string {
  const s = g.state;
  return `${s.round}:${s.turn}:${s.phase}`;
}

/** How many dice a player's pool starts with: six, unless a rule of theirs says otherwise (the Seer Council's, by battle size). */
const poolSizes: ((g: Game, player: PlayerIndex) => number | null)[] = [];

/** A rule that sets the number of Fate dice a player rolls (null: not for this player). */
export function registerFatePoolSize(size: (g: Game, player: PlayerIndex) => number | null): void {
  poolSizes.push(size);
}

/** Roll the pool, then keep it or re-roll it with one die fewer, as the player decides. */
export function rollFatePool(g: Game, player: PlayerIndex): number[] {
  let n = 6;
  for (const size of poolSizes) n = size(g, player) ?? n;
  let pool = g.dice.d6(n, 'fate', player, null, 'Strands of Fate');
  while (pool.length > 1) {
    const { option } = g.decide({
      kind: 'fate-pool', player, prompt: `Strands of Fate: keep [${pool.join(', ')}] or re-roll ${pool.length - 1} dice?`,
      options: ['keep', 're-roll'], context: { pool: [...pool] },
    });
    if (option === 'keep') break;
    pool = g.dice.d6(pool.length - 1, 'fate', player, null, 'Strands of Fate');
  }
  const sorted = [...pool].sort((a, b) => b - a);
  g.emit({ type: 'rule-state', player, key: 'fate', value: sorted });
  return sorted;
}

registerArmyRuleHooks({
  name: STRANDS_OF_FATE,
  battleStart(g, owner) { rollFatePool(g, owner); },
});

registerRule({ name: STRANDS_OF_FATE, kind: 'army-rule' });

registerBeforeRollReaction({
  name: 'Fate die',
  substitute(g, roll) {
    // a D3 is a D6 halved (rounding up): a Fate die stands for that D6
    if (!FATE_ROLLS.has(roll.purpose) || roll.unit === null || (roll.sides !== 6 && roll.sides !== 3)) return null;
    const p = roll.player;
    const st = g.state.players[p];
    if (!st.rules.includes(STRANDS_OF_FATE)) return null;
    const pool = fatePool(g, p);
    if (pool.length === 0 || st.ruleState.fateUsed === phaseKey(g)) return null;
    const unit = g.state.units[roll.unit];
    if (!unit || unit.player !== p) return null;
    const values = [...new Set(pool)];
    const { option } = g.decide<{ none: true } | { fate: number }>({
      kind: 'fate-die', player: p, prompt: `Use a Fate die for this ${roll.purpose} roll (${roll.count} ${roll.sides === 3 ? 'D3, each a D6 halved' : 'dice'})? Pool: [${pool.join(', ')}]`,
      options: [{ none: true }, ...values.map((v) => ({ fate: v }))], context: { purpose: roll.purpose, unit: roll.unit, count: roll.count, sides: roll.sides, pool: [...pool] },
    });
    if ('none' in option) return null;
    const rest = [...pool];
    rest.splice(rest.indexOf(option.fate), 1);
    g.emit({ type: 'rule-state', player: p, key: 'fate', value: rest });
    g.emit({ type: 'rule-state', player: p, key: 'fateUsed', value: phaseKey(g) });
    return roll.sides === 3 ? Math.ceil(option.fate / 2) : option.fate;
  },
});

// Disparate Paths, listed on the datasheets, lets Harlequins units be mustered in an Asuryani army: the engine's
// army checks (src/data/muster-checks.ts) take any Aeldari datasheet in any Aeldari detachment, so what it allows
// is allowed; nothing in a battle reads it.
registerRule({ name: 'Disparate Paths', kind: 'datasheet-ability' });
