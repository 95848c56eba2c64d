/**
 * The lookahead agent: a Monte Carlo search over the high-level options. At the decisions that shape a
 * turn (which unit moves, shoots or charges next, where a unit moves, whom it charges) it tries the
 * most promising options in copies of the game, plays short futures with the heuristic agent on both
 * sides (to the end of the opponent's next turn), and keeps the option whose futures are worth most.
 * Every other decision is the heuristic's.
 *
 * Copies are cheap (src/core/clone.ts copies the changing parts of the state and shares the rest) and
 * searches spend iterations, never time: `candidates` x `rollouts` futures per searched decision.
 */
import type { Agent, AgentFactory, DecisionRequest, GameView } from '../src/core/agent.ts';
import { Game } from '../src/core/game.ts';
import { cloneState } from '../src/core/clone.ts';
import { createStream } from '../src/core/rng.ts';
import type { GameState, PlayerIndex } from '../src/core/state.ts';
import { continueBattle } from '../src/rules/battle/battle.ts';
import { executeMove, afterMove, type MoveChoice } from '../src/rules/battle/movement.ts';
import { declareCharge } from '../src/rules/battle/charge.ts';
import { stateValue } from '../src/ai/evaluate.ts';
import { createHeuristic } from './heuristic.ts';

export const LOOKAHEAD = {
  /** options tried per searched decision (the heuristic's choice is always one of them) */
  candidates: 3,
  /** futures played per option */
  rollouts: 2,
  /** how many ends of turn a future runs to (2: this turn and the opponent's next) */
  turnEnds: 2,
  /** battle rounds in which it searches (later rounds use the heuristic alone) */
  lastRound: 5,
};

const SEARCHED = new Set(['select-unit-to-move', 'select-unit-to-shoot', 'select-unit-to-charge', 'move', 'charge-targets']);

/** An agent that answers the first request of a kind with a forced option, then defers to another. */
function forcing(inner: Agent, kind: string, option: number): Agent {
  let used = false;
  return {
    name: inner.name,
    decide(view, req) {
      if (!used && req.kind === kind) { used = true; return { option: Math.min(option, req.options.length - 1) }; }
      return inner.decide(view, req);
    },
  };
}

export function createLookahead(params: Partial<typeof LOOKAHEAD> = {}, random: { int(n: number): number; next(): number }): Agent {
  const p = { ...LOOKAHEAD, ...params };
  const heuristic = createHeuristic();
  let searches = 0;

  /** Play one future of the option from a copy of the state; the value for `me` at its end. */
  function future(state: GameState, me: PlayerIndex, req: DecisionRequest, option: number): number {
    const seed = `lookahead:${searches}:${random.int(1 << 30)}`;
    const h: [Agent, Agent] = [createHeuristic({}, 'heuristic'), createHeuristic({}, 'heuristic')];
    const g = new Game(cloneState(state), { agents: h }, createStream(seed));
    const unit = String(req.context?.unit ?? '');
    if (req.kind === 'move') {
      const u = g.state.units[unit];
      executeMove(g, u, req.options[option] as MoveChoice);
      if (g.state.units[unit].location === 'battlefield') afterMove(g, g.state.units[unit]);
    } else if (req.kind === 'charge-targets') {
      declareCharge(g, g.state.units[unit], { targets: (req.options[option] as { targets: string[] }).targets });
    } else {
      // a unit selection: answer the phase loop's next identical request with this option
      g.agents![me] = forcing(h[me], req.kind, option);
    }
    if (!g.state.result) continueBattle(g, p.turnEnds);
    return stateValue(g.state, me);
  }

  return {
    name: 'lookahead',
    decide(view: GameView, req: DecisionRequest) {
      const state = view.state as GameState;
      const prior = heuristic.decide(view, req).option;
      if (!SEARCHED.has(req.kind) || req.options.length < 2 || state.round > p.lastRound || state.stage !== 'battle') return { option: prior };
      if (req.kind === 'move' && (req.options as MoveChoice[]).some((o) => o.mode === 'disembark' || o.mode === 'stay-embarked')) return { option: prior };
      searches++;
      // the heuristic's choice and others drawn from the agent's own stream
      const candidates = [prior];
      const pool = req.options.map((_, i) => i).filter((i) => i !== prior);
      while (candidates.length < p.candidates && pool.length > 0) candidates.push(pool.splice(random.int(pool.length), 1)[0]);
      const scores = candidates.map((c) => {
        let sum = 0;
        for (let r = 0; r < p.rollouts; r++) sum += future(state, view.player, req, c);
        return sum / p.rollouts;
      });
      let best = 0;
      for (let i = 1; i < candidates.length; i++) if (scores[i] > scores[best] + 1e-9) best = i;
      return { option: candidates[best], why: candidates.map((c, i) => ({ option: c, score: Math.round(scores[i] * 10) / 10 })) };
    },
  };
}

const factory: AgentFactory = (ctx) => createLookahead((ctx.params ?? {}) as Partial<typeof LOOKAHEAD>, ctx.random);
export default factory;
