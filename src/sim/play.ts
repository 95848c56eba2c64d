/**
 * Play one game of a scenario from a seed: setup, the battle, the result. The same scenario, seed and
 * agents give the same events, byte for byte.
 */
import '../rules/index.ts';
import '../factions/index.ts';
import type { Agent } from '../core/agent.ts';
import type { Game } from '../core/game.ts';
import type { GameEvent } from '../core/events.ts';
import type { GameResult, GameState } from '../core/state.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { createGame } from '../rules/battle/setup.ts';
import { playBattle } from '../rules/battle/battle.ts';
import { embeddedScenarioProblem } from './embedded-scenario.ts';

export interface PlayOptions {
  seed: string;
  agents: [Agent, Agent];
  /** keep the event log in memory */
  log?: boolean;
  onEvent?: (e: GameEvent, state: GameState) => void;
}

export function playGame(sc: ResolvedScenario, opts: PlayOptions): { game: Game; result: GameResult } {
  const game = createGame(sc, { seed: opts.seed, agents: opts.agents, log: opts.log, onEvent: opts.onEvent });
  const result = playBattle(game);
  return { game, result };
}

/**
 * The scenario a logged game was set up from (embedded in its game-started event). Throws an Error
 * "game-started event: scenario.players[0]...: ..." when it is missing or damaged (embedded-scenario.ts).
 */
export function scenarioFromStart(e: GameEvent): ResolvedScenario {
  if (e.type !== 'game-started') throw new Error(`the log starts with a ${e.type} event, not game-started`);
  const problem = embeddedScenarioProblem(e);
  if (problem) throw new Error(`game-started event: ${problem}`);
  const sc = structuredClone(e.scenario) as ResolvedScenario;
  for (const p of sc.players) {
    for (const u of p.army.units) {
      const ds = e.datasheets[u.datasheetId];
      if (ds) p.datasheets[u.datasheetId] = ds;
    }
  }
  return sc;
}
