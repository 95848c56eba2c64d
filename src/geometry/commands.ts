/**
 * CLI: `strategium board <file.json> [--svg out.svg]` draws a board picture (BoardPicture JSON, see
 * svg.ts) as SVG, to the file given or to standard output.
 */
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';

export function register(program: Command): void {
  program
    .command('board')
    .description('draw a board (board, terrain, deployment zones, objectives, models) as SVG')
    .argument('<file>', 'a JSON board picture: {board, deploymentZones?, objectives?, models, highlights?}')
    .option('--svg <out>', 'write the SVG to this file (default: standard output)')
    .action(async (file: string, opts: { svg?: string }) => {
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
      const picture = parseBoardPicture(json, file);
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
