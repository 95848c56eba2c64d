/**
 * Complete games per second on one thread: setup and battle of the default scenario, random agents
 * (the engine alone) and heuristic agents (engine and agent), batch mode (no log), and the events a game
 * takes. Also the small test scenario of the batch tests.
 * Run directly: npx tsx bench/games.bench.ts
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAgentFactory, makeAgent } from '../src/core/agent-loader.ts';
import { gameSeed } from '../src/core/rng.ts';
import { SCENARIOS_DIR, loadScenario } from '../src/data/scenario.ts';
import type { ResolvedScenario } from '../src/data/scenario-types.ts';
import { playGame } from '../src/sim/play.ts';
import { miniScenario } from '../test/helpers/mini-scenario.ts';

export interface BenchRow { name: string; value: number; unit: string }

/** Play seeded games for about `seconds` (at least `minGames`). */
async function measure(label: string, sc: ResolvedScenario, seconds: number, minGames: number, agent = 'random'): Promise<BenchRow[]> {
  const random = await loadAgentFactory(agent);
  // warm-up: the first games pay for compiling the hot paths
  for (let i = 0; i < 2; i++) playGame(sc, { seed: `warm${i}`, agents: [makeAgent(random, `warm${i}`, 0), makeAgent(random, `warm${i}`, 1)] });
  let games = 0;
  let events = 0;
  const start = performance.now();
  while (games < minGames || performance.now() - start < seconds * 1000) {
    const seed = gameSeed('bench', games);
    const { game } = playGame(sc, { seed, agents: [makeAgent(random, seed, 0), makeAgent(random, seed, 1)] });
    events += game.state.eventCount;
    games++;
  }
  const secs = (performance.now() - start) / 1000;
  return [
    { name: `games: ${label}, ${agent} agents, 1 thread, no log (${games} games)`, value: games / secs, unit: 'games/s' },
    { name: `games: ${label}, ${agent} agents, time per game`, value: (secs * 1000) / games, unit: 'ms' },
    { name: `games: ${label}, ${agent} agents, events per game`, value: events / games, unit: 'events' },
    { name: `games: ${label}, ${agent} agents, events per second`, value: events / secs, unit: 'events/s' },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const sc = loadScenario(join(SCENARIOS_DIR, 'kauyon-vs-battle-host.json'));
  return [
    ...(await measure('default scenario (Kauyon vs Battle Host)', sc, 20, 3)),
    ...(await measure('default scenario (Kauyon vs Battle Host)', sc, 30, 6, 'heuristic')),
    ...(await measure('small scenario (3 units a side, 3 rounds)', miniScenario({ rounds: 3, tau: ['Strike Team', 'Crisis Sunforge Battlesuits', 'Cadre Fireblade'], aeldari: ['Guardian Defenders', 'Windriders', 'Autarch'] }), 5, 10)),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) console.log(`${r.name.padEnd(80)} ${r.value.toFixed(2).padStart(12)} ${r.unit}`);
}
