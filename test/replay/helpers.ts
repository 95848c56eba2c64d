/** Small logged games for the replay tests: the mini scenario, played with logging, kept per seed. */
import { join } from 'node:path';
import { loadAgents } from '../../src/core/agent-loader.ts';
import type { GameEvent } from '../../src/core/events.ts';
import type { GameState, GameResult } from '../../src/core/state.ts';
import { playGame } from '../../src/sim/play.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';

/** A test agent that explains its decisions and answers re-roll questions. */
export const CAREFUL = join(import.meta.dirname, 'agents', 'careful.ts');

export interface LoggedGame {
  events: GameEvent[];
  /** the log as written by `play --log` */
  text: string;
  state: GameState;
  result: GameResult;
}

const cache = new Map<string, LoggedGame>();

export async function loggedGame(seed: string, agents: [string, string] = ['random', 'random']): Promise<LoggedGame> {
  const key = `${seed}|${agents.join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const sc = miniScenario();
  // the log records the agents that play (as play --agents should)
  sc.players[0].agent = agents[0];
  sc.players[1].agent = agents[1];
  const { game, result } = playGame(sc, { seed, agents: await loadAgents(agents, seed), log: true });
  const events = game.log!;
  const g = { events, text: events.map((e) => JSON.stringify(e)).join('\n') + '\n', state: game.state, result };
  cache.set(key, g);
  return g;
}
