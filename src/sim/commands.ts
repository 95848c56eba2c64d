/**
 * `play [scenario] [--seed N] [--log FILE] [--agents A,B] [--json]`: play one complete game.
 */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { ARMIES_HELP, FIT_WARGEAR_HELP, WITHOUT_STRATAGEM_HELP, collect, seedArg } from './cli-options.ts';
import type { GameEvent } from '../core/events.ts';


export function register(program: Command): void {
  program
    .command('play')
    .description('play one complete game of a scenario and print what happened')
    .argument('[scenario]', 'scenario file (default: the bundled default scenario)')
    .option('--seed <n>', 'seed (default: the scenario\'s, else 1)', seedArg)
    .option('--log <file>', 'write the whole event log (JSONL)')
    .option('--agents <a,b>', 'agents for player 1 and player 2 (names or paths)')
    .option('--armies <a,b>', ARMIES_HELP)
    .option('--fit-wargear', FIT_WARGEAR_HELP)
    .option('--without-stratagem <army:name>', WITHOUT_STRATAGEM_HELP, collect, [])
    .option('--json', 'print a JSON summary')
    .action(async (file: string | undefined, opts: { seed?: string; log?: string; agents?: string; armies?: string; fitWargear?: boolean; withoutStratagem: string[]; json?: boolean }) => {
      const { loadScenarioForCli, agentOrigins, agentSpecs, seatAgents } = await import('./cli-support.ts');
      const { playGame } = await import('./play.ts');
      const { summarize, formatSummary, SUMMARY_EVENTS } = await import('./summary.ts');
      const sc = loadScenarioForCli(file, { armies: opts.armies, fitWargear: opts.fitWargear, withoutStratagem: opts.withoutStratagem });
      const seed = opts.seed ?? sc.seed ?? '1';
      const specs = agentSpecs(opts.agents, sc);
      // the log's game-started event records the agents that actually play (fork replays them)
      const agents = await seatAgents(sc, specs, seed, agentOrigins(opts.agents, sc));
      // The log is streamed to a temporary file and renamed at the end: never half-written.
      const hash = createHash('sha256');
      const { logWriter } = await import('../replay/log-writer.ts');
      const log = logWriter(opts.log);
      let events = 0;
      const kept: GameEvent[] = [];
      const onEvent = (e: GameEvent) => {
        hash.update(log.write(e));
        events++;
        if (SUMMARY_EVENTS.has(e.type)) kept.push(e);
        // the abilities of the armies the engine does not play, noted once at setup
        if (e.type === 'note' && e.text.startsWith('not played: ')) process.stderr.write(`${e.text}\n`);
      };
      let result;
      let game;
      try {
        ({ game, result } = playGame(sc, { seed, agents, onEvent }));
      } catch (err) {
        log.fail();
        throw err;
      }
      log.done();
      const logSha256 = hash.digest('hex');
      if (opts.json) {
        process.stdout.write(JSON.stringify({ seed, winner: result.winner === null ? null : result.winner + 1, vp: result.vp, rounds: result.rounds, endedBy: result.endedBy, events, logSha256 }) + '\n');
        return;
      }
      process.stdout.write(`${sc.name} (seed ${seed}, agents ${specs.join(' vs ')})\n`);
      const { withoutStratagemsText } = await import('./batch-report.ts');
      const without = withoutStratagemsText(sc);
      process.stdout.write(without ? `${without}\n\n` : '\n');
      process.stdout.write(formatSummary(summarize(kept, game.state)));
      if (opts.log) process.stdout.write(`\nlog: ${opts.log} (${events} events, sha256 ${logSha256})\n`);
    });
}
