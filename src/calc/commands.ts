/**
 * `calc <file.json> [--trials N] [--seed S] [--json]`: exact distributions of one weapon profile's
 * attacks against a target unit, side by side with a seeded simulation through the engine's pipeline.
 */
import { seedArg } from '../sim/cli-options.ts';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';

const MAX_TRIALS = 10_000_000;

export function register(program: Command): void {
  program
    .command('calc')
    .description('exact damage distribution of one weapon profile against a unit, with a seeded simulation beside it')
    .argument('<file>', 'calculator input (JSON)')
    .option('--trials <n>', 'simulated trials', '10000')
    .option('--seed <s>', 'seed of the simulation', seedArg, '1')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { trials: string; seed: string; json?: boolean }) => {
      const { parseCalcInput } = await import('./input.ts');
      const { buildScene, exactForInput, simulate } = await import('./simulate.ts');
      const trials = Number(opts.trials);
      // the exact distribution is the answer; the simulation only checks it, and ten million trials take a
      // minute or two (a mistyped 1e12 would run for days with nothing shown)
      if (!Number.isInteger(trials) || trials < 0 || trials > MAX_TRIALS) throw new CliError(`--trials: expected a whole number from 0 to ${MAX_TRIALS.toLocaleString('en-US')}, got "${opts.trials}"`);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new CliError(`${file}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw new CliError(`${file}: not valid JSON (${(err as Error).message})`);
      }
      let input;
      try {
        input = parseCalcInput(json, file);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      const scene = buildScene(input, opts.seed);
      const exact = exactForInput(input, scene);
      const sim = simulate(input, trials, opts.seed, scene);
      if (opts.json) {
        process.stdout.write(JSON.stringify({
          exact: { meanDamage: exact.mean.woundsLost, meanModelsDestroyed: exact.mean.modelsDestroyed, modelsDestroyed: exact.modelsDestroyed },
          // --trials 0: nothing simulated, said as null (its means were 0/0, printed as null numbers)
          simulated: sim.trials ? { trials: sim.trials, meanDamage: sim.meanDamage, meanModelsDestroyed: sim.meanModelsDestroyed, modelsDestroyed: sim.modelsDestroyed } : null,
        }) + '\n');
        return;
      }
      const { formatCalc } = await import('./format.ts');
      process.stdout.write(formatCalc(input, exact, sim));
    });
}
