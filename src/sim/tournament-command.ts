/** `tournament [scenario] --agents a,b,c --games N`: every pair of agents, sides and armies swapped. */
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import { ARMIES_HELP, FIT_WARGEAR_HELP, seedArg } from './cli-options.ts';

export function register(program: Command): void {
  program
    .command('tournament')
    .description('play every pair of agents (each with each army, sides swapped) and report win rates with 95% intervals')
    .argument('[scenario]', 'scenario file (default: the bundled default scenario)')
    .option('--agents <list>', 'agents, comma-separated (names or module paths)', 'random,heuristic')
    .option('--games <n>', 'games per pair, rounded to a multiple of 4 (each agent with each army, each batch side-swapped in pairs)', '20')
    .option('--seed <s>', 'seed: the pair of agents A,B (as --agents orders and spells them) plays the batches seeded "<s>/A-vs-B" (batch --seed replays them); another order or spelling of --agents plays other games', seedArg, '1')
    .option('--armies <a,b>', ARMIES_HELP)
    .option('--fit-wargear', FIT_WARGEAR_HELP)
    .option('--workers <n>', 'worker threads (default: the number of cores)')
    .option('--json', 'print JSON')
    .action(async (file: string | undefined, opts: { agents: string; games: string; seed: string; armies?: string; fitWargear?: boolean; workers?: string; json?: boolean }) => {
      const { loadScenarioForCli, workersOption } = await import('./cli-support.ts');
      const { checkAgents } = await import('./variants.ts');
      const { runTournament, formatTournament } = await import('./tournament.ts');
      const { DEFAULT_SCENARIO } = await import('../data/scenario.ts');
      const agents = opts.agents.split(',').map((s) => s.trim()).filter(Boolean);
      if (agents.length < 2) throw new CliError(`--agents: expected at least two agents, got "${opts.agents}"`);
      const games = Number(opts.games);
      if (!Number.isInteger(games) || games < 2) throw new CliError(`--games: expected an integer >= 2, got "${opts.games}"`);
      const workers = workersOption(opts.workers);
      await checkAgents(agents);
      // the same agent twice (also by a path and its built-in name) would play itself under two rows of one name
      const { sameAgent } = await import('../core/agent-loader.ts');
      agents.forEach((a, i) => {
        const twin = agents.slice(0, i).find((b) => sameAgent(a, b));
        if (twin !== undefined) throw new CliError(`--agents: "${a}" is ${twin === a ? 'named twice' : `"${twin}" again`} (a tournament plays different agents; batch --agents ${a},${a} plays one against itself)`);
      });
      const sc = loadScenarioForCli(file, { armies: opts.armies, fitWargear: opts.fitWargear });
      const result = await runTournament({
        scenario: sc, scenarioFile: file ?? DEFAULT_SCENARIO, agents, games, seed: opts.seed, workers,
        onProgress: opts.json ? undefined : (t) => process.stderr.write(`${t}\n`),
      });
      process.stdout.write(opts.json ? JSON.stringify(result) + '\n' : formatTournament(result));
    });
}
