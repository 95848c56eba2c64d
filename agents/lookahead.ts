/**
 * The lookahead agent: a Monte Carlo search over the decisions that shape a turn, on top of the
 * heuristic agent. Where it searches:
 *  - at the start of each of its Movement phases, how the phase is played: the heuristic with its
 *    default weights or one of a few other profiles (bolder, more careful, greedier for markers);
 *  - a unit's move, when the heuristic's two best moves score close to each other;
 *  - whether to charge, with which unit, and whom.
 * At each searched decision it tries the heuristic's best-scored options (the others are pruned), plays
 * short futures in copies of the game (src/core/clone.ts: cheap copies) with the heuristic on both sides
 * (to the end of the opponent's next turn), values the end position statically (VP, the markers each
 * side will score next, the army left) and keeps the option whose futures are worth most. The same dice
 * seeds are used for every option (common random numbers), so options are compared on the same luck,
 * and another option must beat the heuristic's by a margin. Every other decision is the heuristic's.
 *
 * Searches spend iterations, never time: `candidates` x `rollouts` futures per searched decision.
 */
import type { Agent, AgentFactory, DecisionRequest, GameView } from '../src/core/agent.ts';
import { Game } from '../src/core/game.ts';
import { checkAgentParams } from '../src/core/agent-params.ts';
import { cloneState } from '../src/core/clone.ts';
import { createStream } from '../src/core/rng.ts';
import { opponent, type GameState, type PlayerIndex } from '../src/core/state.ts';
import { continueBattle } from '../src/rules/battle/battle.ts';
import { executeMove, type MoveChoice } from '../src/rules/battle/movement.ts';
import { declareCharge } from '../src/rules/battle/charge.ts';
import { unitValue } from '../src/ai/evaluate.ts';
import { heldCount, objectiveSnapshot } from '../src/ai/tactics.ts';
import { createHeuristic, lastOptionScores, WEIGHTS } from './heuristic.ts';

export const LOOKAHEAD = {
  /** options tried per searched decision (the heuristic's best-scored ones; its heuristics score at least that many moves in full: WEIGHTS.prune) */
  candidates: 3,
  /** futures played per option */
  rollouts: 2,
  /** how many ends of turn a future runs to (2: this turn and the opponent's next) */
  turnEnds: 2,
  /** battle rounds in which it searches (later rounds use the heuristic alone) */
  lastRound: 5,
  /** another option must beat the heuristic's choice by this many points (noise guard) */
  margin: 10,
  /** search how each Movement phase is played (weight profiles) */
  searchProfiles: 1,
  /** search a unit's move when the heuristic's two best moves are within this many points */
  moveGap: 8,
  /** search charges */
  searchCharges: 1,
  /** worth of a VP in points, for the static evaluation of a future's end */
  vp: 12,
};

type Params = typeof LOOKAHEAD;

/** Weight profiles tried for a Movement phase (the first is the heuristic's own). */
export const PROFILES: Partial<typeof WEIGHTS>[] = [
  {},
  { danger: 0, fire: 1.1, charge: 1, chargeThreshold: 0 },
  { danger: 0.45, fire: 0.7, progress: 0.35 },
  { objective: 110, deny: 0.9, progress: 0.7 },
];

/**
 * A static value of a position for a player, in points: VP (a VP is worth `vp` points), the markers
 * each side holds now (what they will score at their next Command phase, capped at 3), and the army
 * each side has left, which counts less as the battle nears its end.
 */
export function positionValue(state: GameState, me: PlayerIndex, vp = LOOKAHEAD.vp): number {
  const opp = opponent(me);
  if (state.result) {
    const w = state.result.winner;
    return (w === me ? 2000 : w === null ? 0 : -2000) + (state.players[me].vp - state.players[opp].vp) * vp;
  }
  let v = (state.players[me].vp - state.players[opp].vp) * vp;
  const snap = objectiveSnapshot(state);
  const per = (state.mission.params as { vpPerObjective?: number }).vpPerObjective ?? 5;
  const myNext = state.turn === me ? 0.6 : 1;
  const theirNext = state.turn === me ? 1 : 0.6;
  v += Math.min(3, heldCount(snap.level, me)) * per * vp * myNext;
  v -= Math.min(3, heldCount(snap.level, opp)) * per * vp * theirNext;
  const roundsLeft = Math.max(0, state.mission.rounds - state.round);
  const material = 0.35 + 0.65 * (roundsLeft / Math.max(1, state.mission.rounds));
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location === 'destroyed' || u.location === 'attached') continue;
    const val = unitValue(state, u);
    v += (u.player === me ? val : -val) * material;
  }
  return v;
}

/** An agent that answers the first request of a kind with a forced option, then defers to another. */
function forcing(inner: Agent, kind: string, option: number): Agent {
  let used = false;
  return {
    name: inner.name,
    decide(view, req) {
      if (!used && req.kind === kind) { used = true; return { option: Math.min(option, req.options.length - 1) }; }
      return inner.decide(view, req);
    },
    rerollPolicy: inner.rerollPolicy,
  };
}

export type Candidate =
  | { kind: 'option'; option: number }
  | { kind: 'profile'; profile: number };

/**
 * Play one future of a candidate from a copy of the state (the state at the request `req` of player
 * `me`) to the end of `turnEnds` turns, with heuristics on both sides; returns the future's game. A move
 * candidate resumes the move where the request was made: `executeMove` plays the move and all that
 * follows it (the after-move rules and windows, embarking), as the Movement phase does.
 */
export function playFuture(state: GameState, me: PlayerIndex, req: DecisionRequest, cand: Candidate, seed: string, opts: { profile: number; turnEnds: number }): Game {
  const mine = createHeuristic(cand.kind === 'profile' ? PROFILES[cand.profile] : PROFILES[opts.profile]);
  const theirs = createHeuristic();
  const agents: [Agent, Agent] = me === 0 ? [mine, theirs] : [theirs, mine];
  const g = new Game(cloneState(state), { agents }, createStream(seed));
  // common random numbers: every phase of the future starts its dice from the same seed whatever the
  // candidate, so the candidates are compared on the same luck as far as the dice line up
  const emit = g.emit.bind(g);
  g.emit = ((e) => {
    const out = emit(e);
    if (e.type === 'phase-started') g.dice.reseed(`${seed}:${e.round}:${e.player}:${e.phase}`);
    return out;
  }) as typeof g.emit;
  if (cand.kind === 'option') {
    const unit = String(req.context?.unit ?? '');
    if (req.kind === 'move') {
      executeMove(g, g.state.units[unit], req.options[cand.option] as MoveChoice);
    } else if (req.kind === 'charge-targets') {
      declareCharge(g, g.state.units[unit], { targets: (req.options[cand.option] as { targets: string[] }).targets });
    } else {
      // a unit selection: answer the phase loop's next identical request with this option
      g.agents![me] = forcing(mine, req.kind, cand.option);
    }
  }
  if (!g.state.result) continueBattle(g, opts.turnEnds);
  return g;
}

export function createLookahead(params: Partial<Params> = {}, random: { int(n: number): number; next(): number }): Agent {
  const p = { ...LOOKAHEAD, ...params };
  // the heuristic prunes move options below its best WEIGHTS.prune: it must score every candidate in full
  const exact = (w: Partial<typeof WEIGHTS>): Partial<typeof WEIGHTS> => (WEIGHTS.prune > 0 ? { ...w, prune: Math.max(WEIGHTS.prune, p.candidates) } : w);
  // the same stream as the search's seeds: the heuristic draws from it only to vary its deployment
  const heuristics = PROFILES.map((w) => createHeuristic(exact(w), 'heuristic', random));
  let current = 0;
  let profileKey = '';
  let searches = 0;

  /** Value each candidate over the same futures' seeds; the index of the best (0 unless another beats it by the margin). */
  function search(state: GameState, me: PlayerIndex, req: DecisionRequest, cands: Candidate[]): { best: number; scores: number[] } {
    searches++;
    const seeds: string[] = [];
    for (let r = 0; r < p.rollouts; r++) seeds.push(`lookahead:${state.seed}:${searches}:${r}:${random.int(1 << 30)}`);
    const scores = cands.map((cand) => {
      let sum = 0;
      for (const seed of seeds) sum += positionValue(playFuture(state, me, req, cand, seed, { profile: current, turnEnds: p.turnEnds }).state, me, p.vp);
      return sum / seeds.length;
    });
    let best = 0;
    for (let i = 1; i < cands.length; i++) if (scores[i] > scores[best] + (best === 0 ? p.margin : 1e-9)) best = i;
    return { best, scores };
  }

  /** The heuristic's choice and the indices of its best-scored options (the choice first). */
  function ranked(view: GameView, req: DecisionRequest): { prior: number; top: number[]; scores: number[] } {
    const prior = heuristics[current].decide(view, req).option;
    const scores = lastOptionScores();
    if (scores.length !== req.options.length) return { prior, top: [prior], scores };
    const order = scores.map((s, i) => [s, i] as const).filter(([s]) => Number.isFinite(s)).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
    const top = [prior, ...order.filter((i) => i !== prior)].slice(0, p.candidates);
    return { prior, top, scores };
  }

  return {
    name: 'lookahead',
    decide(view: GameView, req: DecisionRequest) {
      const state = view.state as GameState;
      const me = view.player;
      const searching = state.stage === 'battle' && state.round <= p.lastRound && state.turn === me && !state.result;
      // a new Movement phase of mine: pick how it is played
      if (searching && req.kind === 'select-unit-to-move' && p.searchProfiles) {
        const key = `${state.round}:${state.turn}`;
        if (key !== profileKey) {
          profileKey = key;
          current = 0;
          const cands: Candidate[] = PROFILES.slice(0, Math.max(1, p.candidates + 1)).map((_, i) => ({ kind: 'profile', profile: i }));
          const { best, scores } = search(state, me, req, cands);
          current = (cands[best] as { profile: number }).profile;
          const d = heuristics[current].decide(view, req);
          return { option: d.option, why: { profile: current, scores: scores.map((x) => Math.round(x)) } };
        }
      }
      if (!searching || req.options.length < 2) return heuristics[current].decide(view, req);
      const isMove = req.kind === 'move' && p.moveGap > 0 && !(req.options as MoveChoice[]).some((o) => o.mode === 'disembark' || o.mode === 'stay-embarked');
      // a charge's targets are searched when it is declared, not when a target is gone afterwards (its
      // future could not resume there: declaring it again would open the declaration's window again)
      const isCharge = p.searchCharges > 0 && (req.kind === 'select-unit-to-charge' || (req.kind === 'charge-targets' && !state.units[String(req.context?.unit)]?.flags.declaredCharge));
      if (!isMove && !isCharge) return heuristics[current].decide(view, req);
      const { prior, top, scores } = ranked(view, req);
      if (top.length < 2) return { option: prior };
      if (isMove && scores[top[0]] - scores[top[1]] > p.moveGap) return { option: prior };
      const cands: Candidate[] = top.map((i) => ({ kind: 'option', option: i }));
      const { best, scores: values } = search(state, me, req, cands);
      return { option: top[best], why: top.map((o, i) => ({ option: req.options[o], heuristic: Math.round(scores[o] * 10) / 10, future: Math.round(values[i]) })) };
    },
    rerollPolicy: heuristics[0].rerollPolicy,
  };
}

/** What each parameter may be: searches count at least one option and one future. */
const RANGES = {
  candidates: { min: 1, integer: true }, rollouts: { min: 1, integer: true }, turnEnds: { min: 1, integer: true },
  lastRound: { min: 1, max: 5, integer: true }, margin: { min: 0 }, searchProfiles: { min: 0, max: 1, integer: true },
  moveGap: { min: 0 }, searchCharges: { min: 0, max: 1, integer: true }, vp: { min: 0 },
} as const;

const factory: AgentFactory = (ctx) => createLookahead(checkAgentParams('lookahead', ctx.params, LOOKAHEAD, RANGES), ctx.random);
export default factory;
