/**
 * Fork a logged game: play it again from its embedded scenario and seed, the original decisions
 * answered by scripted agents, up to event N; from there the dice continue from another seed (when
 * given) and other agents (when given; by default the log's, made from its seed) play on to the end. The
 * agents that play on watch the first N events' requests as they are replayed, so a fork with neither seed
 * nor agents is the original game. The first N events of the fork are checked against the log, byte for
 * byte, as they are played.
 */
// play.ts first: it loads the rules and faction registries before any single rules module
import { scenarioFromStart } from '../sim/play.ts';
import type { Agent, DecisionRequest, GameView } from '../core/agent.ts';
import { loadAgentFactory, makeSeatAgent, sameAgent } from '../core/agent-loader.ts';
import type { DecisionEvent, ForkPointEvent, GameEvent, GameStartedEvent } from '../core/events.ts';
import type { Game, TakeOver } from '../core/game.ts';
import { DataError } from '../data/errors.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import type { GameResult, PlayerIndex } from '../core/state.ts';
import type { RerollPolicy } from '../rules/attack-plan.ts';
import { playBattle } from '../rules/battle/battle.ts';
import { createGame } from '../rules/battle/setup.ts';

/** The recorded answers to re-roll questions ('reroll-policy'; 're-roll-policy' accepted too). */
const REROLL_REQUESTS = new Set(['reroll-policy', 're-roll-policy']);

export class ForkError extends Error {
  /**
   * `event`: when the log itself is bad input (its embedded scenario is damaged), the number of the event at
   * fault; without it the log is sound but the engine does not play it the same way.
   */
  constructor(message: string, readonly event?: number) {
    super(message);
    this.name = 'ForkError';
  }
}

/** What scriptedAgents replays, and for whom. */
export interface Script {
  /** the log's decisions before the fork point, in order */
  decisions: readonly DecisionEvent[];
  start: GameStartedEvent;
  /** the event number of each decision (for messages; else they say "decision k") */
  eventNumbers?: readonly number[];
  /**
   * the event numbers of the log's fork points that changed agents: each starts a stretch of the log played by
   * other agents (with `played`, the number of events the game has played so far)
   */
  agentChanges?: readonly number[];
  played?: () => number;
  /**
   * the agents that play on from the fork point: each is shown the requests of its player as the game reaches
   * them, and its answer dropped, so that its stream and memory are where they would be had it played them
   */
  watchers?: [Agent, Agent];
  /** the first failure, kept for the caller to report as it is (the engine wraps what an agent throws) */
  failures?: { error: ForkError | null };
}

/** A watcher sees a request: what it answers, or throws, is dropped (the log's answer stands). */
function show(see: () => unknown): void {
  try {
    see();
  } catch {
    // an agent that cannot answer a request of the prefix fails, if at all, when it plays
  }
}

/**
 * Two agents that replay the recorded decisions, in order (both players share one cursor, since the
 * log interleaves them). Each answer checks that the request matches the record: same player, same
 * kind, the recorded option exists and is the same choice; and it is recorded under the name of the agent
 * the log says made it. A player gets `rerollPolicy` only in the stretches of the log where it records
 * re-roll answers for them (an agent without it records none, and the engine must then take its default
 * exactly as it did).
 */
export function scriptedAgents(script: Script): [Agent, Agent] {
  const { decisions, start, eventNumbers, agentChanges = [], played = () => 0, watchers, failures } = script;
  let next = 0;
  const where = (k: number) => (eventNumbers ? `event ${eventNumbers[k]}` : `decision ${k + 1}`);
  const fail = (message: string): never => {
    const err = new ForkError(message);
    if (failures && !failures.error) failures.error = err;
    throw err;
  };
  const names: [string, string] = [start.players[0].agent, start.players[1].agent];
  const take = (player: PlayerIndex, kind: string): DecisionEvent => {
    const d = decisions[next];
    if (!d) fail(`the replayed game asks player ${player + 1} for "${kind}" but the log has no decision left before the fork point: the engine no longer plays this log the same way`);
    if (d.player !== player || (d.request !== kind && !(REROLL_REQUESTS.has(kind) && REROLL_REQUESTS.has(d.request)))) {
      fail(`the replayed game asks player ${player + 1} for "${kind}" where the log (${where(next)}) has player ${d.player + 1} answering "${d.request}": the engine no longer plays this log the same way`);
    }
    next++;
    names[player] = d.agent;
    return d;
  };
  // the stretch of the log an event is in: how many agent changes stand before it
  const stretchOf = (eventNumber: number) => agentChanges.filter((c) => c < eventNumber).length;
  const rerolls = new Set<string>();
  decisions.forEach((d, k) => {
    if (REROLL_REQUESTS.has(d.request)) rerolls.add(`${d.player}:${stretchOf(eventNumbers ? eventNumbers[k] : 0)}`);
  });
  const answerReroll = (player: PlayerIndex): Agent['rerollPolicy'] => (view, roll) => {
    const d = take(player, 'reroll-policy');
    const watcher = watchers?.[player];
    if (watcher?.rerollPolicy) show(() => watcher.rerollPolicy!(view, roll));
    return (d.choice as RerollPolicy) ?? roll.granted;
  };
  const make = (player: PlayerIndex): Agent => {
    const reroll = answerReroll(player);
    return {
      get name() {
        return names[player];
      },
      decide(view: GameView, request: DecisionRequest) {
        const k = next;
        const d = take(player, request.kind);
        if (d.option < 0 || d.option >= request.options.length) {
          fail(`${where(k)}: the log chose option ${d.option} of "${d.request}" but the replayed game offers ${request.options.length} options`);
        }
        const offered = JSON.stringify(request.options[d.option]);
        const recorded = JSON.stringify(d.choice);
        if (offered !== recorded) {
          fail(`${where(k)}: option ${d.option} of "${d.request}" was ${recorded} in the log but is ${offered} in the replayed game`);
        }
        const watcher = watchers?.[player];
        if (watcher) show(() => watcher.decide(view, request));
        return d.why !== undefined ? { option: d.option, why: d.why } : { option: d.option };
      },
      // asked for only when the engine has a re-roll to offer: present in the stretches whose agent answered
      get rerollPolicy() {
        return rerolls.has(`${player}:${stretchOf(played() + 1)}`) ? reroll : undefined;
      },
    };
  };
  return [make(0), make(1)];
}

export interface ForkOptions {
  /** the fork point: the number of original events kept (1..length) */
  at: number;
  /** dice seed from the fork point, and the agents' (default: the dice continue as in the log) */
  seed?: string;
  /** agent specs for players 1 and 2 from the fork point (default: the log's agents there: game-started's, or its last fork point's) */
  agents?: [string, string];
  /** keep the whole log in memory */
  log?: boolean;
  onEvent?: (e: GameEvent) => void;
}

export interface ForkResult {
  game: Game;
  result: GameResult;
  /** agents that played after the fork point */
  agents: [string, string];
  /** the agents that played on from the fork point in the log itself (game-started's, as its fork points changed them) */
  originalAgents: [string, string];
  /** seed of the agents and, when given, of the dice after the fork point */
  seed: string;
  /** things the user should know (the log's decisions name other agents than it says played them) */
  warnings: string[];
}

/** The two texts around where they first differ (long events such as game-started differ deep inside). */
function firstDifference(a: string, b: string): [string, string] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 80);
  const cut = (t: string) => `${from > 0 ? '…' : ''}${t.slice(from, i + 120)}${t.length > i + 120 ? '…' : ''}`;
  return [cut(a), cut(b)];
}

/** The agent specs a log was played with (game-started's players). */
export function logAgents(start: GameStartedEvent): [string, string] {
  return [start.players[0].agent, start.players[1].agent];
}

/** A fork point of a log, and the number of events before it. */
interface Mark { index: number; e: ForkPointEvent }

/** The fork points among a log's first events; one that does not stand where it says is bad input. */
function marksOf(prefix: readonly GameEvent[]): Mark[] {
  const marks: Mark[] = [];
  prefix.forEach((e, index) => {
    if (e.type !== 'fork-point') return;
    if (e.at !== index) throw new ForkError(`fork-point event: "at" says the fork kept ${e.at} events, but ${index} stand before it`, index + 1);
    marks.push({ index, e });
  });
  return marks;
}

/** Who plays on after a log's first events: game-started's agents and seed, as its fork points changed them. */
function seatsAfter(start: GameStartedEvent, marks: readonly { e: ForkPointEvent }[]): { agents: [string, string]; seed: string } {
  let agents = logAgents(start);
  let seed = start.seed;
  for (const { e } of marks) {
    if (e.agents) agents = [e.agents[0], e.agents[1]];
    if (e.seed !== undefined) seed = e.seed;
  }
  return { agents, seed };
}

/**
 * The agents the log's decisions name where the fork point stands (its stretch: between the fork points that
 * changed agents) when they are not those the fork continues with: an older log's game-started named the
 * scenario's agents, not those that played.
 */
function agentWarnings(events: readonly GameEvent[], at: number, specs: [string, string]): string[] {
  const changes = events.flatMap((e, i) => (e.type === 'fork-point' && e.agents ? [i] : []));
  const from = changes.filter((i) => i < at).pop() ?? 0;
  const to = changes.find((i) => i >= at) ?? events.length;
  const warnings: string[] = [];
  for (const p of [0, 1] as PlayerIndex[]) {
    const d = events.slice(from, to).find((e): e is DecisionEvent => e.type === 'decision' && e.player === p);
    const base = specs[p].replace(/^.*\//, '').replace(/\.[jt]s$/, '');
    if (d && d.agent !== specs[p] && d.agent !== base) {
      warnings.push(`player ${p + 1}'s decisions were made by agent "${d.agent}" but the log names "${specs[p]}": the fork continues with "${specs[p]}" (choose with --agents)`);
    }
  }
  return warnings;
}

/** The agents that play on from the fork point, made as `play` and the batch runner make them. */
async function seatedAgents(specs: [string, string], sc: ResolvedScenario, seed: string): Promise<[Agent, Agent]> {
  const agents: Agent[] = [];
  for (const p of [0, 1] as PlayerIndex[]) {
    let factory;
    try {
      factory = await loadAgentFactory(specs[p]);
    } catch (err) {
      throw new ForkError(`agent of player ${p + 1}: ${(err as Error).message}`);
    }
    // one agent per seat from the seed (the scenario's agentParams for the agent it names)
    try {
      agents.push(makeSeatAgent(factory, specs[p], sc, p, seed));
    } catch (err) {
      throw new ForkError((err as Error).message);
    }
  }
  return [agents[0], agents[1]];
}

/**
 * Play the fork. `events` is the original log (at least its first `at` events). Throws ForkError when
 * the replayed prefix differs from the log, or when the log cannot be played again (`event` says where).
 *
 * The agents that play on are shown every request of the prefix as the game reaches it (their answers
 * dropped: the log's stand), so that with the log's agents and seed the fork is the original game, byte for
 * byte. A fork with another seed or other agents records a fork-point event after event N; forking the
 * fork replays those (the dice are reseeded there) and by default goes on with the agents and seed they name.
 */
export async function forkGame(events: readonly GameEvent[], opts: ForkOptions): Promise<ForkResult> {
  const start = events[0];
  if (!start || start.type !== 'game-started') throw new ForkError('the log does not start with a game-started event');
  if (!Number.isInteger(opts.at) || opts.at < 1 || opts.at > events.length) throw new ForkError(`--at ${opts.at}: the fork point must be an event number from 1 to ${events.length}`);
  let sc: ResolvedScenario;
  try {
    sc = scenarioFromStart(start);
  } catch (err) {
    throw new ForkError((err as Error).message, 1);
  }
  const prefix = events.slice(0, opts.at);
  const marks = marksOf(prefix);
  const seats = seatsAfter(start, marks);
  const specs = opts.agents ?? seats.agents;
  const warnings = opts.agents ? [] : agentWarnings(events, opts.at, specs);
  const agentSeed = opts.seed ?? seats.seed;
  const fresh = await seatedAgents(specs, sc, agentSeed);
  const decisions: DecisionEvent[] = [];
  const numbers: number[] = [];
  prefix.forEach((e, i) => {
    if (e.type === 'decision') { decisions.push(e); numbers.push(i + 1); }
  });
  const failures: { error: ForkError | null } = { error: null };
  const expected = prefix.map((e) => JSON.stringify(e));
  let n = 0;
  const scripted = scriptedAgents({
    decisions, start, eventNumbers: numbers, failures, watchers: fresh, played: () => n,
    agentChanges: marks.filter((m) => m.e.agents).map((m) => m.index + 1),
  });
  const onEvent = (e: GameEvent) => {
    if (n < expected.length) {
      const got = JSON.stringify(e);
      if (got !== expected[n]) {
        const [x, y] = firstDifference(expected[n], got);
        // kept as well as thrown: set-up wraps what its steps throw into a scenario error (a DataError)
        failures.error ??= new ForkError(`event ${n + 1} (${e.type}) differs from the log: the engine no longer plays this log the same way\n  log:    ${x}\n  replay: ${y}`);
        throw failures.error;
      }
    }
    n++;
    opts.onEvent?.(e);
  };
  let game: Game;
  try {
    game = createGame(sc, { seed: start.seed, agents: scripted, log: opts.log, onEvent, recordDecisions: true, takeOvers: takeOvers(prefix, marks, opts, specs, seats.agents, fresh) });
  } catch (err) {
    if (failures.error) throw failures.error;
    // before the fork point, the scenario checked out but its armies cannot be set up (after it, the agents that
    // play on failed: not the log's fault)
    if (err instanceof DataError && n < opts.at) throw new ForkError(`game-started event: its scenario cannot be set up: ${err.message}`, 1);
    throw err;
  }
  let result: GameResult;
  try {
    result = playBattle(game);
  } catch (err) {
    throw failures.error ?? err;
  }
  return { game, result, agents: [specs[0], specs[1]], originalAgents: seats.agents, seed: agentSeed, warnings };
}

/**
 * Where the fork's game is taken over: at each fork point of the prefix (the dice reseeded as they were, its
 * event recorded again), then at the fork point N by the agents that play on, with the new seed; a fork-point
 * event records N when the seed or the agents change (a fork that changes neither is the original game). A
 * game that ended at N has nothing to take over.
 */
function takeOvers(prefix: readonly GameEvent[], marks: readonly Mark[], opts: ForkOptions, specs: [string, string], playing: [string, string], fresh: [Agent, Agent]): TakeOver[] {
  const out: TakeOver[] = marks.map((m) => ({ event: m.index, seed: m.e.seed, mark: { ...m.e } }));
  if (prefix[prefix.length - 1].type === 'game-ended') return out;
  const otherAgents = !sameAgent(specs[0], playing[0]) || !sameAgent(specs[1], playing[1]);
  const mark: ForkPointEvent | undefined = opts.seed !== undefined || otherAgents
    ? { type: 'fork-point', at: opts.at, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(otherAgents ? { agents: [specs[0], specs[1]] } : {}) }
    : undefined;
  out.push({ event: opts.at, seed: opts.seed, agents: fresh, ...(mark ? { mark } : {}) });
  return out;
}
