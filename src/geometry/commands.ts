/**
 * CLI: `strategium board <file> [--svg out.svg]` draws as SVG, to the file given or to standard
 * output: a board picture (BoardPicture JSON, see svg.ts), a game state (`replay --to N --json`), a
 * logged game (JSONL, `play --log`: the state after event `--at`, its end by default), or a scenario (its
 * armies as deployed by random agents from `--seed`).
 */
import { seedArg } from '../sim/cli-options.ts';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';

export function register(program: Command): void {
  program
    .command('board')
    .description('draw a board (board, terrain, deployment zones, objectives, models) as SVG')
    .argument('<file>', 'a scenario, a game state (replay --to N --json), a logged game (play --log), or a board picture {board, deploymentZones?, objectives?, models}')
    .option('--svg <out>', 'write the SVG to this file (default: standard output)')
    .option('--seed <s>', 'for a scenario: the seed of the deployment shown', seedArg, '1')
    .option('--at <n>', 'for a logged game: the state after event N (default: its last event)')
    .action(async (file: string, opts: { svg?: string; seed: string; at?: string }) => {
      const { readFile, writeFile } = await import('node:fs/promises');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        throw new CliError(`${file}: cannot read file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
      const log = isLog(text);
      if (opts.at !== undefined && !log) throw new CliError('--at goes with a logged game (play --log)');
      let json: unknown;
      let picture;
      // drawn from a game state (a log's, or one read from the file)
      let fromState = log;
      if (log) {
        picture = await pictureOfLog(file, text, opts.at);
      } else {
        try {
          json = JSON.parse(text);
        } catch (e) {
          throw new CliError(`${file}: not valid JSON (${(e as Error).message})`);
        }
      }
      const { parseBoardPicture } = await import('./picture-schema.ts');
      const obj = json as Record<string, unknown>;
      if (picture) {
        // drawn from the log above
      } else if (obj && typeof obj === 'object' && 'unitOrder' in obj && 'units' in obj && 'board' in obj) {
        picture = await pictureOfStateFile(file, json);
        fromState = true;
      } else if (obj && typeof obj === 'object' && 'players' in obj && 'mission' in obj) {
        // a scenario: set it up (deployment by random agents) and draw the armies as deployed
        const { loadScenario } = await import('../data/scenario.ts');
        const { loadAgents } = await import('../core/agent-loader.ts');
        await import('../rules/index.ts');
        await import('../factions/index.ts');
        const { createGame } = await import('../rules/battle/setup.ts');
        const { pictureOfState } = await import('../rules/battle/picture.ts');
        let sc;
        try { sc = loadScenario(file); } catch (e) { throw new CliError((e as Error).message); }
        const g = createGame(sc, { seed: opts.seed, agents: await loadAgents(['random', 'random'], opts.seed) });
        picture = pictureOfState(g.state, `${sc.name} (deployment, seed ${opts.seed})`);
      } else {
        picture = parseBoardPicture(json, file);
      }
      // what a game state (or a log) gave is checked as a picture too: never an SVG of NaN
      if (fromState) parseBoardPicture(picture, `${file} (as drawn)`);
      const { renderBoardSvg } = await import('./svg.ts');
      const svg = renderBoardSvg(picture);
      if (opts.svg) {
        try {
          await writeFile(opts.svg, svg, 'utf8');
        } catch (e) {
          throw new CliError(`${opts.svg}: cannot write file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
        }
      } else {
        process.stdout.write(svg);
      }
    });
}

/** A logged game: JSONL whose first line is a game-started event (its only one, in a log of one event). */
function isLog(text: string): boolean {
  const nl = text.indexOf('\n');
  try {
    return (JSON.parse(nl < 0 ? text : text.slice(0, nl)) as { type?: unknown })?.type === 'game-started';
  } catch {
    return false;
  }
}

/** The picture of a game state read from a file (`replay --to N --json`): a damaged one is named by its field. */
async function pictureOfStateFile(file: string, json: unknown) {
  const { drawnStateProblem, pictureOfState } = await import('../rules/battle/picture.ts');
  const problem = drawnStateProblem(json);
  if (problem) throw new CliError(`${file}: not a game state that can be drawn: ${problem}`);
  try {
    return pictureOfState(json as never);
  } catch (e) {
    throw new CliError(`${file}: not a game state that can be drawn: ${(e as Error).message}`);
  }
}

/** The picture of a logged game after event `at` (its last event by default): the replay's state there. */
async function pictureOfLog(file: string, text: string, at: string | undefined) {
  const { Replay } = await import('../replay/replay.ts');
  const { formatLogError } = await import('../replay/log.ts');
  const { pictureOfState } = await import('../rules/battle/picture.ts');
  const r = Replay.fromText(text);
  // a log whose first event is bad has nothing to draw (its game-started event sets up the board)
  if (r.error && r.length === 0) throw new CliError(formatLogError(r.error, file));
  if (r.error) process.stderr.write(`warning: ${formatLogError(r.error, file)}; drawn up to there\n`);
  let n = r.length;
  if (at !== undefined && at !== 'end') {
    n = Number(at);
    if (!/^\d+$/.test(at) || n > r.length) throw new CliError(`--at: expected an event number from 0 to ${r.length} or "end", got "${at}"`);
  }
  return pictureOfState(r.at(n), `${file}, after event ${n} of ${r.length}`);
}