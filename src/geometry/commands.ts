/**
 * CLI: `strategium board <file.json> [--svg out.svg]` draws as SVG, to the file given or to standard
 * output: a board picture (BoardPicture JSON, see svg.ts), a game state (`replay --to N --json`), or a
 * scenario (its armies as deployed by random agents from `--seed`).
 */
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';

export function register(program: Command): void {
  program
    .command('board')
    .description('draw a board (board, terrain, deployment zones, objectives, models) as SVG')
    .argument('<file>', 'a scenario, a game state (replay --to N --json), or a board picture {board, deploymentZones?, objectives?, models}')
    .option('--svg <out>', 'write the SVG to this file (default: standard output)')
    .option('--seed <s>', 'for a scenario: the seed of the deployment shown', '1')
    .action(async (file: string, opts: { svg?: string; seed: string }) => {
      const { readFile, writeFile } = await import('node:fs/promises');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        throw new CliError(`${file}: cannot read file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        throw new CliError(`${file}: not valid JSON (${(e as Error).message})`);
      }
      const { parseBoardPicture } = await import('./picture-schema.ts');
      const obj = json as Record<string, unknown>;
      let picture;
      if (obj && typeof obj === 'object' && 'unitOrder' in obj && 'units' in obj && 'board' in obj) {
        // a game state
        const { pictureOfState } = await import('../rules/battle/picture.ts');
        picture = pictureOfState(json as never);
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
