/**
 * What happened in a game, from its event log: VP per round, units destroyed, CP gained and spent,
 * stratagems used, the result. Used by `play` and by the replay.
 */
import type { GameEvent } from '../core/events.ts';
import type { GameState, PlayerIndex } from '../core/state.ts';
import { armyDestroyedOf } from '../rules/battle/units.ts';

/** The events `summarize` reads: a command that plays a game keeps only these for its summary. */
export const SUMMARY_EVENTS: ReadonlySet<string> = new Set(['unit-created', 'round-started', 'unit-destroyed', 'stratagem-used']);

export interface GameSummary {
  players: { name: string; detachment: string | null; agent: string; vp: number; vpByRound: number[]; cpGained: number; cpSpent: number }[];
  destroyed: { round: number; player: PlayerIndex; unit: string; by: string | null }[];
  stratagems: { round: number; player: PlayerIndex; name: string; cp: number; unit: string | null }[];
  winner: PlayerIndex | null;
  endedBy: string;
  rounds: number;
  /** the players whose armies were destroyed (none left alive) when the game ended */
  armiesDestroyed: PlayerIndex[];
}

export function summarize(events: readonly GameEvent[], final: GameState): GameSummary {
  const destroyed: GameSummary['destroyed'] = [];
  const stratagems: GameSummary['stratagems'] = [];
  let round = 0;
  const names = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'unit-created') names.set(e.unit.id, e.unit.name);
    else if (e.type === 'round-started') round = e.round;
    else if (e.type === 'unit-destroyed') destroyed.push({ round, player: e.player, unit: `${names.get(e.component) ?? e.component} (${e.component})`, by: e.by ? names.get(e.by) ?? e.by : null });
    else if (e.type === 'stratagem-used') stratagems.push({ round: e.round, player: e.player, name: e.name, cp: e.cp, unit: e.unit ? names.get(e.unit) ?? e.unit : null });
  }
  return {
    players: final.players.map((p) => ({ name: p.name, detachment: p.detachment, agent: p.agent, vp: p.vp, vpByRound: p.vpByRound.slice(), cpGained: p.cpGained, cpSpent: p.cpSpent })),
    destroyed, stratagems,
    winner: final.result?.winner ?? null,
    endedBy: final.result?.endedBy ?? 'unfinished',
    rounds: final.round,
    armiesDestroyed: ([0, 1] as PlayerIndex[]).filter((p) => final.result && armyDestroyedOf(final, p)),
  };
}

/** The widest a VP table column grows for an army's name; a longer name is cut with an ellipsis. */
const NAME_COLUMN_MAX = 36;

export function formatSummary(s: GameSummary): string {
  const out: string[] = [];
  const label = (i: number) => `${s.players[i].name}${s.players[i].detachment ? ` [${s.players[i].detachment}]` : ' [no detachment]'}`;
  out.push(`${label(0)} vs ${label(1)}`);
  out.push('');
  // each column as wide as the longer army name (up to a point), so that neither name is cut short
  const width = Math.max(18, ...s.players.map((p) => Math.min(p.name.length, NAME_COLUMN_MAX)));
  const head = (name: string) => (name.length > width ? `${name.slice(0, width - 1)}…` : name).padStart(width);
  out.push(`round   ${s.players.map((p) => head(p.name)).join(' ')}`);
  for (let r = 0; r < s.rounds; r++) out.push(`${String(r + 1).padStart(5)}   ${s.players.map((p) => String(p.vpByRound[r] ?? 0).padStart(width)).join(' ')}`);
  out.push(`total   ${s.players.map((p) => String(p.vp).padStart(width)).join(' ')}`);
  out.push(`CP      ${s.players.map((p) => `+${p.cpGained} / -${p.cpSpent}`.padStart(width)).join(' ')}`);
  out.push('');
  out.push('units destroyed:');
  if (s.destroyed.length === 0) out.push('  none');
  for (const d of s.destroyed) out.push(`  round ${d.round}: ${s.players[d.player].name}'s ${d.unit}${d.by ? ` by ${d.by}` : ''}`);
  out.push('stratagems used:');
  if (s.stratagems.length === 0) out.push('  none');
  for (const st of s.stratagems) out.push(`  round ${st.round}: ${s.players[st.player].name} ${st.name} (${st.cp} CP)${st.unit ? ` on ${st.unit}` : ''}`);
  out.push('');
  // an army destroyed ends the battle: the army left standing wins whatever the VP; both destroyed, the VP decide
  const gone = s.armiesDestroyed;
  const why = s.endedBy !== 'army-destroyed' ? `after ${s.rounds} battle rounds`
    : gone.length === 1 ? `${s.players[gone[0]].name}'s army was destroyed (the army left standing wins)`
      : gone.length === 2 ? 'both armies were destroyed (the VP decide)' : 'an army was destroyed';
  out.push(s.winner === null ? `Draw, ${why}.` : `Winner: ${s.players[s.winner].name} (${s.players[0].vp}-${s.players[1].vp}), ${why}.`);
  return out.join('\n') + '\n';
}
