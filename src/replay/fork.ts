/**
 * Fork a logged game: play it again from its embedded scenario and seed, the original decisions
 * answered by scripted agents, up to event N; from there the dice continue from another seed (when
 * given) and other agents (when given; by default fresh copies of the original ones) play on to the
 * end. The first N events of the fork are checked against the log, byte for byte, as they are played.
 */
// play.ts first: it loads the rules and faction registries before any single rules module
import { scenarioFromStart } from '../sim/play.ts';
import type { Agent, DecisionRequest, GameView } from '../core/agent.ts';
import { loadAgentFactory, makeSeatAgent } from '../core/agent-loader.ts';
import type { DecisionEvent, GameEvent, GameStartedEvent } from '../core/events.ts';
import type { Game } from '../core/game.ts';
import type { GameResult, PlayerIndex } from '../core/state.ts';
import type { RerollPolicy } from '../rules/attack-plan.ts';
import { playBattle } from '../rules/battle/battle.ts';
import { createGame } from '../rules/battle/setup.ts';

/** The recorded answers to re-roll questions ('reroll-policy'; 're-roll-policy' accepted too). */
const REROLL_REQUESTS = new Set(['reroll-policy', 're-roll-policy']);

export class ForkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForkError';
  }
}

/**
 * Two agents that replay the recorded decisions, in order (both players share one cursor, since the
 * log interleaves them). Each answer checks that the request matches the record: same player, same
 * kind, the recorded option exists and is the same choice. A player gets `rerollPolicy` only when the
 * log records re-roll answers for them (an agent without it records none, and the engine must then
 * take its default exactly as it did).
 */
export function scriptedAgents(decisions: readonly DecisionEvent[], start: GameStartedEvent, eventNumbers?: readonly number[], failures?: { error: ForkError | null }): [Agent, Agent] {
  let next = 0;
  const where = (k: number) => (eventNumbers ? `event ${eventNumbers[k]}` : `decision ${k + 1}`);
  // the engine wraps what an agent throws: keep the first failure for the caller to report as it is
  const fail = (message: string): never => {
    const err = new ForkError(message);
    if (failures && !failures.error) failures.error = err;
    throw err;
  };
  const take = (player: PlayerIndex, kind: string): DecisionEvent => {
    const d = decisions[next];
    if (!d) fail(`the replayed game asks player ${player + 1} for "${kind}" but the log has no decision left before the fork point: the engine no longer plays this log the same way`);
    if (d.player !== player || (d.request !== kind && !(REROLL_REQUESTS.has(kind) && REROLL_REQUESTS.has(d.request)))) {
      fail(`the replayed game asks player ${player + 1} for "${kind}" where the log (${where(next)}) has player ${d.player + 1} answering "${d.request}": the engine no longer plays this log the same way`);
    }
    next++;
    return d;
  };
  const names: [string, string] = [start.players[0].agent, start.players[1].agent];
  const rerolls: [boolean, boolean] = [false, false];
  const seen: [boolean, boolean] = [false, false];
  for (const d of decisions) {
    if (!seen[d.player]) { names[d.player] = d.agent; seen[d.player] = true; }
    if (REROLL_REQUESTS.has(d.request)) rerolls[d.player] = true;
  }
  const make = (player: PlayerIndex): Agent => {
    const agent: Agent = {
      name: names[player],
      decide(_view: GameView, request: DecisionRequest) {
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
        return d.why !== undefined ? { option: d.option, why: d.why } : { option: d.option };
      },
    };
    if (rerolls[player]) {
      agent.rerollPolicy = (_view, roll) => take(player, 'reroll-policy').choice as RerollPolicy ?? roll.granted;
    }
    return agent;
  };
  return [make(0), make(1)];
}

export interface ForkOptions {
  /** the fork point: the number of original events kept (1..length) */
  at: number;
  /** dice seed from the fork point (default: the dice continue as in the original game) */
  seed?: string;
  /** agent specs for players 1 and 2 from the fork point (default: the log's agents) */
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
  /** seed of the agents and, when given, of the dice after the fork point */
  seed: string;
  /** things the user should know (the log's decisions name other agents than its game-started event) */
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

/**
 * Play the fork. `events` is the original log (at least its first `at` events). Throws ForkError when
 * the replayed prefix differs from the log.
 */
export async function forkGame(events: readonly GameEvent[], opts: ForkOptions): Promise<ForkResult> {
  const start = events[0];
  if (!start || start.type !== 'game-started') throw new ForkError('the log does not start with a game-started event');
  if (!Number.isInteger(opts.at) || opts.at < 1 || opts.at > events.length) throw new ForkError(`--at ${opts.at}: the fork point must be an event number from 1 to ${events.length}`);
  let sc;
  try {
    sc = scenarioFromStart(start);
  } catch (err) {
    throw new ForkError((err as Error).message);
  }
  const prefix = events.slice(0, opts.at);
  const decisions: DecisionEvent[] = [];
  const numbers: number[] = [];
  prefix.forEach((e, i) => {
    if (e.type === 'decision') { decisions.push(e); numbers.push(i + 1); }
  });
  const failures: { error: ForkError | null } = { error: null };
  const scripted = scriptedAgents(decisions, start, numbers, failures);
  const specs = opts.agents ?? logAgents(start);
  const warnings: string[] = [];
  if (!opts.agents) {
    // game-started names the scenario's agents; decisions name the agents that really played
    for (const p of [0, 1] as PlayerIndex[]) {
      const d = events.find((e): e is DecisionEvent => e.type === 'decision' && e.player === p);
      const base = specs[p].replace(/^.*\//, '').replace(/\.[jt]s$/, '');
      if (d && d.agent !== specs[p] && d.agent !== base) {
        warnings.push(`player ${p + 1}'s decisions were made by agent "${d.agent}" but the log's game-started names "${specs[p]}": the fork continues with "${specs[p]}" (choose with --agents)`);
      }
    }
  }
  const agentSeed = opts.seed ?? start.seed;
  const fresh: Agent[] = [];
  for (const p of [0, 1] as PlayerIndex[]) {
    let factory;
    try {
      factory = await loadAgentFactory(specs[p]);
    } catch (err) {
      throw new ForkError(`agent of player ${p + 1}: ${(err as Error).message}`);
    }
    // made as `play` and the batch runner make them: one agent per seat from the seed (the scenario's
    // agentParams for the agent it names)
    try {
      fresh.push(makeSeatAgent(factory, specs[p], sc, p, agentSeed));
    } catch (err) {
      throw new ForkError((err as Error).message);
    }
  }
  const expected = prefix.map((e) => JSON.stringify(e));
  let n = 0;
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
  let result: GameResult;
  try {
    game = createGame(sc, {
      seed: start.seed,
      agents: scripted,
      log: opts.log,
      onEvent,
      recordDecisions: true,
      switchAt: { event: opts.at, seed: opts.seed, agents: [fresh[0], fresh[1]] },
    });
    result = playBattle(game);
  } catch (err) {
    throw failures.error ?? err;
  }
  return { game, result, agents: [specs[0], specs[1]], seed: agentSeed, warnings };
}
