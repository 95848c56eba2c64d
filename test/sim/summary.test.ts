/**
 * `play`'s summary of a game (src/sim/summary.ts): what it reads from the log must agree with the game's
 * final state, and its table must show each army's whole name.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/core/events.ts';
import { loadAgents } from '../../src/core/agent-loader.ts';
import { playGame } from '../../src/sim/play.ts';
import { formatSummary, summarize, SUMMARY_EVENTS } from '../../src/sim/summary.ts';
import { batchScenario } from './helpers.ts';

async function played(seed: string) {
  const sc = batchScenario();
  const events: GameEvent[] = [];
  const { game, result } = playGame(sc, { seed, agents: await loadAgents(['random', 'random'], seed), onEvent: (e) => events.push(e) });
  return { sc, events, state: game.state, result };
}

describe('the summary of a played game', () => {
  it('agrees with the final state: VP by round and in total, each destroyed unit, each stratagem and its CP', async () => {
    const { events, state, result } = await played('summary-1');
    const s = summarize(events, state);
    s.players.forEach((p, i) => {
      expect(p.vpByRound.reduce((a, b) => a + b, 0)).toBe(result.vp[i]);
      expect(p.vp).toBe(result.vp[i]);
      // the CP spent is the sum of the stratagems' costs that player used
      expect(s.stratagems.filter((x) => x.player === i).reduce((t, x) => t + x.cp, 0)).toBe(p.cpSpent);
    });
    const destroyed = events.filter((e) => e.type === 'unit-destroyed');
    expect(s.destroyed).toHaveLength(destroyed.length);
    expect(s.stratagems).toHaveLength(events.filter((e) => e.type === 'stratagem-used').length);
    expect(s.winner).toBe(result.winner);
    expect(s.rounds).toBe(result.rounds);
    // a summary from the kept events alone (as `play` keeps them) is the same
    expect(summarize(events.filter((e) => SUMMARY_EVENTS.has(e.type)), state)).toEqual(s);
  });

  it('prints both army names whole, the totals in their columns, and the result', async () => {
    const { events, state, result } = await played('summary-2');
    const s = summarize(events, state);
    s.players[1].name = 'Aeldari (Battle Host) of Ulthwé';
    const text = formatSummary(s);
    const lines = text.split('\n');
    const head = lines.find((l) => l.startsWith('round'))!;
    expect(head).toContain(s.players[0].name);
    expect(head).toContain(s.players[1].name);
    // the totals line up under the end of each name
    const total = lines.find((l) => l.startsWith('total'))!;
    expect(total.length).toBe(head.length);
    expect(total.trimEnd().endsWith(` ${result.vp[1]}`)).toBe(true);
    const end = result.winner === null ? 'Draw' : `Winner: ${s.players[result.winner].name} (${result.vp[0]}-${result.vp[1]})`;
    expect(text).toContain(end);
    // a name longer than the widest column is cut with an ellipsis, never overflowing it
    s.players[0].name = 'x'.repeat(60);
    const cut = formatSummary(s).split('\n').find((l) => l.startsWith('round'))!;
    expect(cut).toContain(`${'x'.repeat(35)}…`);
    expect(cut).not.toContain('x'.repeat(36));
  });

  it('says whose army was destroyed when that ended the battle: the army left standing wins, whatever the VP', async () => {
    const { events, state } = await played('summary-1');
    const ended = (gone: (0 | 1)[], winner: 0 | 1 | null) => {
      const st = structuredClone(state);
      for (const id of st.unitOrder) if (gone.includes(st.units[id].player)) st.units[id].location = 'destroyed';
      st.result = { ...st.result!, endedBy: 'army-destroyed', winner };
      return summarize(events, st);
    };
    const one = ended([1], 0);
    expect(one.armiesDestroyed).toEqual([1]);
    expect(formatSummary(one)).toContain(`Winner: ${one.players[0].name} (${one.players[0].vp}-${one.players[1].vp}), ${one.players[1].name}'s army was destroyed (the army left standing wins).`);
    const both = ended([0, 1], null);
    expect(both.armiesDestroyed).toEqual([0, 1]);
    expect(formatSummary(both)).toContain('Draw, both armies were destroyed (the VP decide).');
    // this game was played to its last round: no army destroyed, the rounds said
    expect(state.result!.endedBy).toBe('rounds');
    expect(summarize(events, state).armiesDestroyed).toEqual([]);
    expect(formatSummary(summarize(events, state))).toContain(`, after ${state.round} battle rounds.`);
  });
});
