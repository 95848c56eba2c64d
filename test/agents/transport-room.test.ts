/**
 * The heuristic drives a loaded transport where its passengers can get out: the passengers' part of a
 * move's score counts only where they would have room after the move as the engine would plan it (checked
 * with the planner, mocked here so that room can be taken away from one move at a time), and only the best
 * few options are checked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { createStream } from '../../src/core/rng.ts';
import { moveUnit } from '../../src/rules/battle/movement.ts';
import { roomToDisembarkAfterMove, type TransportMove } from '../../src/rules/battle/transports.ts';
import { createHeuristic, lastOptionScores } from '../../agents/heuristic.ts';

vi.mock('../../src/rules/battle/transports.ts', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/rules/battle/transports.ts')>();
  return { ...mod, roomToDisembarkAfterMove: vi.fn(mod.roomToDisembarkAfterMove) };
});

const room = vi.mocked(roomToDisembarkAfterMove);
afterEach(() => room.mockReset());

type MoveOption = { mode: string; toward?: string; to?: { x: number; y: number } };

/** A room check's move as one string (null: the transport stays). */
const moveKey = (m: TransportMove | null) => (m ? `${m.mode}|${m.destination.x}|${m.destination.y}|${m.maxDistance}` : 'stays');

/**
 * A Wave Serpent at (18, 22) with Guardian Defenders inside and a Strike Team at (40, 22) (the marker at
 * the centre): the heuristic's choice for the Serpent's move, its scores, and the moves room was asked
 * for (moveKey). `hasRoom(move)` answers the room checks.
 */
function serpentMove(hasRoom: (move: string) => boolean) {
  const asked: string[] = [];
  const moves: (TransportMove | null)[] = [];
  room.mockImplementation((_s, u, move) => {
    expect(u.id).toBe('G');
    asked.push(moveKey(move));
    moves.push(move);
    return hasRoom(moveKey(move));
  });
  const h = createHeuristic();
  let choice: { option: MoveOption; scores: number[] } | null = null;
  const agent: Agent = {
    name: 'heuristic',
    decide(view, req: DecisionRequest) {
      const d = h.decide(view, req);
      if (req.kind === 'move' && req.context?.unit === 'W') choice = { option: req.options[d.option] as MoveOption, scores: lastOptionScores() };
      return d;
    },
  };
  const g = loadedSerpent(agent);
  // the options the engine offers the Serpent (the same game, asked of an agent that keeps still)
  const options: MoveOption[] = [];
  const probe = loadedSerpent({ name: 'probe', decide: (_v, req) => { if (req.kind === 'move') options.push(...(req.options as MoveOption[])); return { option: 0 }; } });
  moveUnit(probe, probe.state.units.W);
  moveUnit(g, g.state.units.W);
  if (!choice) throw new Error('the Serpent was not asked to move');
  return { choice: choice as { option: MoveOption; scores: number[] }, asked, moves, options };
}

/** The Serpent W with the Guardians G inside and the Strike Team S, `agent` playing the Aeldari. */
function loadedSerpent(agent: Agent) {
  const g = battleSandbox([
    { id: 'W', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 18, y: 22 } },
    { id: 'G', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 3, y: 3 } },
    { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 22 } },
  ], { phase: 'movement', round: 2, agents: [agent, scriptedAgent('first')], stream: createStream('room') });
  g.emit({ type: 'unit-location', unit: 'G', location: 'embarked', embarkedIn: 'W' });
  return g;
}

describe('the heuristic counts a transport\'s passengers only where they would have room to get out', () => {
  it('with room everywhere it checks the option it picks, once, as the engine would plan the move', () => {
    const { choice, moves } = serpentMove(() => true);
    // a Normal move (the Guardians may get out after it)
    expect(choice.option.mode).toBe('normal');
    // the move the engine makes of that option: toward its destination, the Serpent's Move (14") at most
    expect(moves).toEqual([{ mode: 'normal', destination: choice.option.to, maxDistance: 14 }]);
  });

  it('an end point without room is scored without the passengers, and the next best option is checked and taken', () => {
    const free = serpentMove(() => true);
    const first = free.asked[0];
    const blocked = serpentMove((move) => move !== first);
    expect(blocked.asked[0]).toBe(first);
    expect(blocked.asked).toHaveLength(2);
    expect(blocked.choice.option).not.toEqual(free.choice.option);
    // the blocked option lost the passengers' part of its score, and nothing else changed
    const k = free.options.findIndex((o) => o.mode === free.choice.option.mode && o.toward === free.choice.option.toward);
    expect(blocked.choice.scores[k]).toBeLessThan(free.choice.scores[k]);
    const others = free.choice.scores.map((s, i) => (i === k ? null : s));
    expect(blocked.choice.scores.map((s, i) => (i === k ? null : s))).toEqual(others);
  });

  it("with room nowhere it checks the best options in turn (four at most) until the best one's passengers add nothing", () => {
    const free = serpentMove(() => true);
    const none = serpentMove(() => false);
    expect(none.asked.length).toBeGreaterThan(1);
    expect(none.asked.length).toBeLessThanOrEqual(4);
    expect(new Set(none.asked).size).toBe(none.asked.length);
    // the options checked lost the passengers' part of their score, the others kept theirs
    const dropped = free.choice.scores.filter((s, i) => none.choice.scores[i] < s);
    expect(dropped).toHaveLength(none.asked.length);
    expect(free.choice.scores.filter((s, i) => none.choice.scores[i] === s)).toHaveLength(free.options.length - none.asked.length);
  });
});
