/**
 * The Game: a running game's context. It owns the state, the dice stream and the agents; rules code
 * changes the state only through `emit(event)`, which applies the reducer and appends to the log.
 *
 * Batch mode keeps no log (events are applied to the private mutable state and dropped); log mode
 * keeps every event, so `foldEvents(game.log)` rebuilds the final state.
 */
import { apply } from './reducer.ts';
import type { DiceRolledEvent, ForkPointEvent, GameEvent, RollPurpose } from './events.ts';
import { createStream, streamFromState, subSeed, type Stream } from './rng.ts';
import type { Effect, Expiry, GameState, PlayerIndex } from './state.ts';
import { IllegalDecisionError, thrownAt, type Agent, type Decision, type DecisionRequest, type GameView } from './agent.ts';

export interface GameOptions {
  /** keep the event log in memory (replay, tests, --log) */
  log?: boolean;
  /** called after each event is applied (streaming a log to a file, checking invariants) */
  onEvent?: (e: GameEvent, state: GameState) => void;
  agents?: [Agent, Agent];
  /** record agents' decisions in the log (on by default when logging) */
  recordDecisions?: boolean;
  /** Fork: where the game is taken over, in event order (see TakeOver). */
  takeOvers?: TakeOver[];
}

/**
 * A fork's take-over: once `event` events have been applied, the dice continue from `seed` (when given),
 * `agents` play on (when given) and `mark` is recorded (the fork-point event that says so in the log).
 */
export interface TakeOver { event: number; seed?: string; agents?: [Agent, Agent]; mark?: ForkPointEvent }

/** No game comes near this many events (a Strike Force game is 2,000-6,000): more means a rule loops. */
export const MAX_EVENTS = 2_000_000;

export class Game {
  state: GameState;
  readonly log: GameEvent[] | null;
  readonly dice: Dice;
  agents: [Agent, Agent] | null;
  private readonly onEvent: ((e: GameEvent, state: GameState) => void) | null;
  private readonly recordDecisions: boolean;
  private readonly takeOvers: TakeOver[];

  /** `stream`: the dice stream to use; by default the state's saved PRNG state, or a fresh one from its seed. */
  constructor(state: GameState, opts: GameOptions = {}, stream?: Stream) {
    this.state = state;
    this.log = opts.log ? [] : null;
    this.onEvent = opts.onEvent ?? null;
    this.agents = opts.agents ?? null;
    this.recordDecisions = opts.recordDecisions ?? (opts.log === true || opts.onEvent !== undefined);
    this.takeOvers = [...(opts.takeOvers ?? [])];
    this.dice = new Dice(this, stream ?? (state.rng ? streamFromState(state.rng) : createStream(subSeed(state.seed, 'dice'))));
  }

  get logging(): boolean {
    return this.log !== null || this.onEvent !== null;
  }

  emit<E extends GameEvent>(e: E): E {
    if (this.state.eventCount >= MAX_EVENTS) {
      // a rule that loops for ever would hang a whole batch; a game is a few thousand events
      throw new Error(`game seed "${this.state.seed}": more than ${MAX_EVENTS} events (round ${this.state.round}, ${this.state.phase} phase); a rule is looping (last event: ${e.type})`);
    }
    apply(this.state, e);
    if (this.log) this.log.push(e);
    if (this.onEvent) this.onEvent(e, this.state);
    if (this.takeOvers.length > 0 && this.state.eventCount >= this.takeOvers[0].event) this.takeOver();
    return e;
  }

  /** The next take-over is due: switch the dice and agents, then record its mark (which may bring the next one due). */
  private takeOver(): void {
    const t = this.takeOvers.shift()!;
    if (t.seed !== undefined) this.dice.reseed(t.seed);
    if (t.agents) this.agents = t.agents;
    if (t.mark) this.emit(t.mark);
  }

  /** Record an answer that is not an option of a request (a re-roll policy), for replays. */
  recordAnswer(player: PlayerIndex, agent: string, request: string, choice: unknown): void {
    if (this.recordDecisions) this.emit({ type: 'decision', player, agent, request, option: -1, choice });
  }

  /** Ask a player's agent, validate the answer, record it. */
  decide<O>(request: DecisionRequest<O>): { option: O; index: number; decision: Decision } {
    if (!this.agents) throw new Error(`no agents attached to the game (request "${request.kind}")`);
    const agent = this.agents[request.player];
    if (request.options.length === 0) throw new Error(`request "${request.kind}" offered no options`);
    const view: GameView = { state: this.state, player: request.player };
    let decision: Decision;
    try {
      decision = agent.decide(view, request as DecisionRequest);
    } catch (err) {
      // the agent's own frame named, and its error kept as the cause (a batch's failed-game record shows its stack)
      const at = thrownAt(err);
      throw new IllegalDecisionError(agent.name, request as DecisionRequest, this.state.seed, `the agent threw: ${(err as Error)?.message ?? String(err)}${at ? ` (at ${at})` : ''}`, { cause: err });
    }
    const i = decision?.option;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= request.options.length) {
      throw new IllegalDecisionError(agent.name, request as DecisionRequest, this.state.seed,
        `answered ${JSON.stringify(decision)}, expected {option: n} with n an integer in 0..${request.options.length - 1}`);
    }
    if (this.recordDecisions) {
      this.emit({ type: 'decision', player: request.player, agent: agent.name, request: request.kind, option: i, choice: request.options[i], ...(decision.why !== undefined ? { why: decision.why } : {}) });
    }
    return { option: request.options[i], index: i, decision };
  }

  // --- effects -------------------------------------------------------------------------------

  addEffect(kind: string, player: PlayerIndex, unit: string | null, expires: Expiry, params: Record<string, unknown> = {}): Effect {
    const effect: Effect = { id: this.state.nextEffectId, kind, player, unit, params, expires };
    this.emit({ type: 'effect-added', effect });
    return effect;
  }

  removeEffect(id: number): void {
    this.emit({ type: 'effect-removed', id });
  }

  /** Expiry that ends with the current phase. */
  untilEndOfPhase(): Expiry {
    const s = this.state;
    return { at: 'end-of-phase', round: s.round, turn: s.turn, phase: s.phase === 'setup' ? 'command' : s.phase };
  }

  untilEndOfTurn(): Expiry {
    return { at: 'end-of-turn', round: this.state.round, turn: this.state.turn };
  }
}

/**
 * The dice: every roll, re-roll and substitution is an event saying what it was for. One event may
 * carry many dice of the same roll (fast dice rolling). Arrays returned are owned by the event: never
 * mutate them; re-rolls return a new array.
 */
export class Dice {
  /**
   * Dice of a roll that no re-roll may change, by the roll's array (a Fate die put in a roll's place stands
   * as it is); the re-rolled array inherits them.
   */
  private readonly fixedDice = new WeakMap<readonly number[], readonly number[]>();

  constructor(private readonly g: Game, private stream: Stream) {}

  /** May this die of the roll not be re-rolled (a Fate die stands for it)? */
  isFixed(values: readonly number[], index: number): boolean {
    const f = this.fixedDice.get(values);
    return f !== undefined && f.includes(index);
  }

  /** Does any die of the roll stand fixed (a summed roll with one cannot be re-rolled whole)? */
  hasFixed(values: readonly number[]): boolean {
    return this.fixedDice.has(values);
  }

  /** Continue with another dice stream (a fork of a game with another seed). */
  reseed(seed: string): void {
    this.stream = createStream(subSeed(seed, 'dice'));
  }

  get rngState() {
    return this.stream.state();
  }

  roll(n: number, sides: number, purpose: RollPurpose, player: PlayerIndex, unit: string | null, label?: string): number[] {
    const values = new Array<number>(n);
    const s = this.stream;
    for (let i = 0; i < n; i++) values[i] = s.die(sides);
    const e: DiceRolledEvent = { type: 'dice', purpose, player, unit, sides, values, rng: s.state() };
    if (label !== undefined && this.g.logging) e.label = label;
    this.g.emit(e);
    return values;
  }

  d6(n: number, purpose: RollPurpose, player: PlayerIndex, unit: string | null, label?: string): number[] {
    return this.roll(n, 6, purpose, player, unit, label);
  }

  /** Re-roll the dice at `indices` of a roll; returns the new array of values. */
  reroll(values: readonly number[], indices: number[], sides: number, purpose: RollPurpose, player: PlayerIndex, unit: string | null, source: string): number[] {
    const fixed = this.fixedDice.get(values);
    if (fixed !== undefined) {
      indices = indices.filter((i) => !fixed.includes(i));
      if (indices.length === 0) {
        const same = values.slice();
        this.fixedDice.set(same, fixed);
        return same;
      }
    }
    const out = values.slice();
    if (fixed !== undefined) this.fixedDice.set(out, fixed);
    const old: number[] = new Array(indices.length);
    const fresh: number[] = new Array(indices.length);
    for (let k = 0; k < indices.length; k++) {
      old[k] = out[indices[k]];
      fresh[k] = out[indices[k]] = this.stream.die(sides);
    }
    this.g.emit({ type: 'reroll', purpose, player, unit, indices, old, values: fresh, rng: this.stream.state(), source });
    return out;
  }

  /** Replace one die of a roll by a given value (a Fate die): it counts as an unmodified roll of that value. */
  substitute(values: readonly number[], index: number, value: number, purpose: RollPurpose, player: PlayerIndex, unit: string | null, source: string): number[] {
    const out = values.slice();
    const old = out[index];
    out[index] = value;
    this.fixedDice.set(out, [...(this.fixedDice.get(values) ?? []), index]);
    this.g.emit({ type: 'dice-substituted', purpose, player, unit, index, old, value, source });
    return out;
  }
}
