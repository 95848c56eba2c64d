/**
 * The decision protocol. Agents only decide; the engine alone writes events.
 *
 * The engine asks `agent.decide(view, request)` whenever a player has a choice. A request says what is
 * being decided (`kind`) and, where the choices are enumerable, lists the legal `options`; the agent
 * answers with a Decision for that kind. The engine validates every answer; an illegal one stops the
 * game with an error naming the agent, the request and the seed.
 */
import type { GameState, PlayerIndex } from './state.ts';
import type { Stream } from './rng.ts';
import type { RerollPolicy } from '../rules/attack-plan.ts';

export type DeepReadonly<T> = T extends (infer U)[] ? ReadonlyArray<DeepReadonly<U>>
  : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** What an agent sees: the state (read-only) and who it is playing. */
export interface GameView {
  readonly state: DeepReadonly<GameState>;
  readonly player: PlayerIndex;
}

/**
 * A request for a decision. `options` lists the legal choices when they are enumerable; the answer is
 * then `{ option: i }` (an index into options). Other kinds document their own answer shape.
 */
export interface DecisionRequest<O = unknown> {
  kind: string;
  player: PlayerIndex;
  /** human-readable summary for logs and errors */
  prompt: string;
  options: O[];
  /** extra context for the agent (plain JSON) */
  context?: Record<string, unknown>;
}

export interface Decision {
  /** index into request.options */
  option: number;
  /** the agent's explanation: top candidates and their scores, when it reports them */
  why?: unknown;
}

export interface Agent {
  readonly name: string;
  decide(view: GameView, request: DecisionRequest): Decision;
  /**
   * Optional: which dice to re-roll when a rule lets this player re-roll a roll (Hit, Wound, save).
   * `granted` is the widest policy the rules allow; answer it or a narrower one. Without this method
   * the player re-rolls failed rolls (or exactly what was granted, when that is narrower).
   */
  rerollPolicy?(view: GameView, roll: { purpose: 'hit' | 'wound' | 'save'; granted: RerollPolicy; unit: string; weapon: string }): RerollPolicy;
  /**
   * Optional: true when an option this agent does not take leaves no trace in its game: it takes the
   * best-scored option (the first of equals), whatever else is offered beside it, and declining draws nothing
   * from its stream; nor does it play the game ahead (where the opponent's options would count). A stratagem
   * the army did not use in a game could then be taken away without changing that game, so `worth` copies
   * such games from its baseline rather than playing them again when both agents say so (and checks the
   * first few: src/sim/worth.ts). The heuristic does; the random agent (it draws among what is offered) and
   * lookahead (it plays futures) do not.
   */
  readonly declinesWithoutTrace?: boolean;
}

export interface AgentContext {
  player: PlayerIndex;
  /** the agent's own seeded stream (never the dice stream) */
  random: Stream;
  /** agent-specific parameters from the command line or scenario */
  params?: Record<string, unknown>;
}

export type AgentFactory = (ctx: AgentContext) => Agent;

export class IllegalDecisionError extends Error {
  constructor(readonly agent: string, readonly request: DecisionRequest, readonly seed: string, detail: string, options?: { cause?: unknown }) {
    super(`illegal decision by agent "${agent}" (player ${request.player + 1}) on request "${request.kind}" (${request.prompt}) in game seed "${seed}": ${detail}`, options);
    this.name = 'IllegalDecisionError';
  }
}

/**
 * Where an agent's error was thrown, from its stack's first frame ("agents/mine.ts:12:7", relative to the
 * working folder when under it): the agent's author's file and line, which the one-line error would lose.
 */
export function thrownAt(err: unknown): string | null {
  const stack = (err as Error)?.stack;
  if (typeof stack !== 'string') return null;
  const frame = stack.split('\n').find((l) => /^\s+at /.test(l));
  const m = frame && /\(?((?:file:\/\/)?[^()\s]+:\d+:\d+)\)?\s*$/.exec(frame);
  if (!m) return null;
  let where = m[1].replace(/^file:\/\//, '');
  const cwd = process.cwd() + '/';
  if (where.startsWith(cwd)) where = where.slice(cwd.length);
  return where;
}
