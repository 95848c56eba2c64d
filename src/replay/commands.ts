/**
 * CLI:
 *  `replay <log.jsonl> [--to N|end [--json]] [--html out.html] [--ascii] [--no-color]`
 *  `replay --from-batch DIR --game I [--log FILE] ...`: regenerate a batch game from its seed, then replay it
 *  `fork <log.jsonl> --at N|end [--seed S] [--agents A,B] [--log new.jsonl] [--json]`
 *
 * Without --to or --html, `replay` is interactive: keys on a terminal, one command per line otherwise.
 * Exit status 3 when the log is truncated or corrupted (the readable part is still replayed) or its
 * recorded result disagrees with its events.
 */
import { seedArg } from '../sim/cli-options.ts';
import { logWriter } from './log-writer.ts';
import { refuseOverwritingInput } from '../data/write-whole.ts';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { GameEvent } from '../core/events.ts';
import type { GameResult } from '../core/state.ts';

const EXIT_BAD_LOG = 3;

interface ReplayOpts {
  to?: string;
  json?: boolean;
  html?: string;
  fromBatch?: string;
  game?: string;
  log?: string;
  ascii?: boolean;
  color?: boolean;
}

/** `replay ... | head`: a reader that goes away is not an error. */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

function parseTo(v: string, length: number): number {
  if (v === 'end') return length;
  if (!/^\d+$/.test(v)) throw new CliError(`--to: expected an event number or "end", got "${v}"`);
  return Number(v);
}

/** `--agents` names agents that exist: bad input otherwise, as `play --agents` says it. */
async function checkAgents(specs: [string, string]): Promise<void> {
  const { loadAgentFactory } = await import('../core/agent-loader.ts');
  for (const spec of specs) {
    try {
      await loadAgentFactory(spec);
    } catch (err) {
      throw new CliError(`--agents: ${(err as Error).message}`);
    }
  }
}

export function register(program: Command): void {
  program
    .command('replay')
    .description('replay a logged game event by event (terminal, --to for scripts, --html for the browser)')
    .argument('[log]', 'event log (JSONL) written by play --log or fork --log')
    .option('--to <n>', 'print the state after event N ("end": the final state) and exit')
    .option('--json', 'with --to: print the state as JSON')
    .option('--html <out>', 'write a self-contained HTML viewer of the game')
    .option('--from-batch <dir>', 'regenerate a game of a batch folder (DIR/batch.json, else DIR/results.json) from its seed first')
    .option('--game <i>', 'with --from-batch: index of the game in the batch')
    .option('--log <file>', 'with --from-batch: also write the regenerated log')
    .option('--ascii', 'draw the board with ASCII characters only')
    .option('--no-color', 'no ANSI colours')
    .action(async (file: string | undefined, opts: ReplayOpts) => {
      quietOnClosedPipe();
      const { Replay } = await import('./replay.ts');
      const { formatLogError } = await import('./log.ts');
      // every option is checked before anything is written (--to against the log's length once it is read)
      if (opts.json && opts.to === undefined) throw new CliError('--json goes with --to N');
      if (opts.to !== undefined) parseTo(opts.to, 0);
      let replay;
      let name = file ?? '';
      // the regenerated game's log (--from-batch --log), kept as its temporary file until the options check out
      let regeneratedLog: ReturnType<typeof logWriter> | null = null;
      const refuse = (message: string) => {
        regeneratedLog?.fail();
        return new CliError(message);
      };
      if (opts.fromBatch !== undefined) {
        if (file) throw new CliError('give either a log file or --from-batch DIR --game I, not both');
        if (opts.game === undefined || !/^\d+$/.test(opts.game)) throw new CliError('--from-batch needs --game I (a game index from 0)');
        const { regenerateBatchGame, BatchError } = await import('./batch.ts');
        const { refuseBatchFileAsLog } = await import('../sim/batch.ts');
        refuseBatchFileAsLog(opts.log, opts.fromBatch);
        const w = logWriter(opts.log);
        let events: GameEvent[];
        try {
          const res = await regenerateBatchGame(opts.fromBatch, Number(opts.game), w.write);
          events = res.events;
          process.stderr.write(`regenerated game ${opts.game} of ${opts.fromBatch} (${res.game.source.join('; ')}): ${events.length} events\n`);
          if (res.mismatch) {
            process.stderr.write(`warning: ${res.mismatch}\n`);
            process.exitCode = EXIT_BAD_LOG;
          }
        } catch (err) {
          w.fail();
          if (err instanceof BatchError) throw new CliError(err.message);
          throw err;
        }
        if (opts.log) regeneratedLog = w;
        replay = Replay.fromEvents(events);
        name = `batch ${opts.fromBatch} game ${opts.game}`;
      } else {
        if (!file) throw new CliError('replay: give a log file (or --from-batch DIR --game I)');
        if (opts.game !== undefined || opts.log !== undefined) throw new CliError('--game and --log go with --from-batch DIR');
        try {
          replay = Replay.fromFile(file);
        } catch (err) {
          throw new CliError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
        }
      }
      if (replay.length === 0) throw refuse(replay.error ? formatLogError(replay.error, name) : `${name}: no event`);
      const check = replay.verify();
      if (replay.error) process.stderr.write(`warning: ${formatLogError(replay.error, name)} (replaying the ${replay.length} events before it)\n`);
      for (const p of check.problems) if (!replay.error || !p.startsWith('line ')) process.stderr.write(`warning: ${p}\n`);
      if (!check.ok) process.exitCode = EXIT_BAD_LOG;
      const color = opts.color !== false && process.stdout.isTTY === true && !process.env.NO_COLOR;
      const view = { ascii: opts.ascii, color, width: process.stdout.columns || 100 };
      const to = opts.to === undefined ? null : parseTo(opts.to, replay.length);
      if (to !== null && to > replay.length) {
        throw refuse(replay.error
          ? `--to ${to}: only ${replay.length} events replay (${formatLogError(replay.error, name)})`
          : `--to ${to}: the log has ${replay.length} events`);
      }
      if (regeneratedLog) {
        regeneratedLog.done();
        process.stderr.write(`wrote ${opts.log} (${regeneratedLog.count()} events)\n`);
      }
      if (opts.html) {
        const { buildViewerHtml } = await import('./html.ts');
        const { writeFilesWhole } = await import('../data/write-whole.ts');
        const html = buildViewerHtml(replay);
        // whole or not at all: a viewer cut short would open as a broken page
        writeFilesWhole([{ path: opts.html, text: html }]);
        process.stderr.write(`wrote ${opts.html} (${Math.round(Buffer.byteLength(html) / 1024)} KB, ${replay.length} events)\n`);
      }
      if (to !== null) {
        const n = to;
        replay.goto(n);
        if (opts.json) {
          process.stdout.write(JSON.stringify(replay.state) + '\n');
        } else {
          const { headerLines, boardLines, eventText } = await import('./terminal.ts');
          process.stdout.write([...headerLines(replay), ...boardLines(replay, view), n > 0 ? `${String(n).padStart(6)}  ${eventText(replay, n)}` : ''].join('\n') + '\n');
        }
        return;
      }
      if (opts.html) return;
      const { runKeys, runLines } = await import('./terminal.ts');
      if (process.stdin.isTTY && process.stdout.isTTY) await runKeys(replay, process.stdin, process.stdout, view);
      else await runLines(replay, process.stdin, process.stdout, view);
    });

  program
    .command('fork')
    .description('continue a logged game from event N with another dice seed or other agents')
    .argument('<log>', 'event log (JSONL) of the original game')
    .requiredOption('--at <n>', 'fork point: keep the first N events of the log ("end": all of them)')
    .option('--seed <s>', 'dice (and agent) seed from the fork point (default: the dice go on as in the log)', seedArg)
    .option('--agents <a,b>', 'agents for player 1 and player 2 from the fork point (default: the log\'s)')
    .option('--log <file>', 'write the forked game\'s event log (JSONL)')
    .option('--json', 'print a JSON summary')
    .action(async (file: string, opts: { at: string; seed?: string; agents?: string; log?: string; json?: boolean }) => {
      const { readLogFile, formatLogError } = await import('./log.ts');
      const { forkGame, ForkError } = await import('./fork.ts');
      let parsed;
      try {
        parsed = readLogFile(file);
      } catch (err) {
        throw new CliError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      }
      const events = parsed.events;
      if (events.length === 0) throw new CliError(parsed.error ? formatLogError(parsed.error, file) : `${file}: no event`);
      if (parsed.error) process.stderr.write(`warning: ${formatLogError(parsed.error, file)} (the ${events.length} events before it can be forked)\n`);
      const at = opts.at === 'end' ? events.length : /^\d+$/.test(opts.at) ? Number(opts.at) : NaN;
      if (!Number.isInteger(at) || at < 1 || at > events.length) throw new CliError(`--at: expected an event number from 1 to ${events.length} or "end", got "${opts.at}"`);
      let agents: [string, string] | undefined;
      if (opts.agents !== undefined) {
        const parts = opts.agents.split(',').map((s) => s.trim()).filter(Boolean);
        if (parts.length === 1) agents = [parts[0], parts[0]];
        else if (parts.length === 2) agents = [parts[0], parts[1]];
        else throw new CliError(`--agents: expected one or two agents separated by a comma, got "${opts.agents}"`);
        await checkAgents(agents);
      }
      refuseOverwritingInput(opts.log, [file], '--log', 'the log being forked');
      const w = logWriter(opts.log);
      let res;
      try {
        res = await forkGame(events, { at, seed: opts.seed, agents, onEvent: w.write });
      } catch (err) {
        w.fail();
        // a damaged log is bad input, named by its line; a sound log the engine plays otherwise is not
        if (err instanceof ForkError && err.event !== undefined) throw new CliError(`${file} line ${parsed.lines[err.event - 1] ?? err.event}: ${err.message}`);
        if (err instanceof ForkError) throw new CliError(`${file}: ${err.message}`, 1);
        throw err;
      }
      w.done();
      for (const warning of res.warnings) process.stderr.write(`warning: ${warning}\n`);
      const original = events[events.length - 1].type === 'game-ended' ? (events[events.length - 1] as Extract<GameEvent, { type: 'game-ended' }>).result : null;
      const s = res.game.state;
      if (opts.json) {
        // winners as players 1 and 2 (null for a draw), as play --json prints them; the log keeps the engine's 0/1
        const printed = (r: GameResult | null) => (r === null ? null : { ...r, winner: r.winner === null ? null : r.winner + 1 });
        process.stdout.write(JSON.stringify({
          at, of: events.length, seed: opts.seed ?? null, agents: res.agents, originalAgents: res.originalAgents,
          events: w.count(), result: printed(res.result), original: printed(original), log: opts.log ?? null,
        }) + '\n');
        return;
      }
      const name = (p: 0 | 1 | null) => (p === null ? 'draw' : s.players[p].name);
      const fmt = (r: { winner: 0 | 1 | null; vp: [number, number]; rounds: number; endedBy: string }) =>
        `${r.winner === null ? 'draw' : `${name(r.winner)} wins`} ${r.vp[0]}-${r.vp[1]} (${r.endedBy === 'army-destroyed' ? 'army destroyed' : `${r.rounds} rounds`})`;
      process.stdout.write(`forked ${file} at event ${at} of ${events.length}: ${opts.seed !== undefined ? `dice seed ${opts.seed}` : 'dice as in the log'}, agents ${res.agents.join(' vs ')}\n`);
      process.stdout.write(`original: ${original ? fmt(original) : 'unfinished'}\n`);
      process.stdout.write(`fork:     ${fmt(res.result)}\n`);
      if (opts.log) process.stdout.write(`log: ${opts.log} (${w.count()} events)\n`);
    });
}
