/**
 * `calc <file.json> [--trials N] [--seed S] [--json]`, or `calc --attacker <unit> --weapon <profile> --defender
 * <unit>` from the datasheets (the bundled ones, and an export's with --data): exact distributions of one weapon profile's attacks against a target unit,
 * side by side with a seeded simulation through the engine's pipeline.
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
    .argument('[file]', 'calculator input (JSON); or name the units with --attacker, --weapon and --defender')
    .option('--attacker <unit>', 'the attacking datasheet, by name (bundled, or in --data)')
    .option('--weapon <profile>', "the attacker's weapon profile, by name (\"Plasma rifle\", \"Fusion blaster\")")
    .option('--defender <unit>', 'the target datasheet, by name (bundled, or in --data)')
    .option('--models <n>', "attacking models with the weapon (default: the attacker's minimum unit's models carrying it)")
    .option('--targets <n>', "models in the target unit (default: its minimum unit size)")
    .option('--half-range', 'the target is within half range (RAPID FIRE, MELTA)')
    .option('--charged', 'the attacker made a Charge move this turn (LANCE)')
    .option('--stationary', 'the attacker Remained Stationary (HEAVY)')
    .option('--cover', 'the target has the Benefit of Cover')
    .option('--data <dir>', 'a Wahapedia export directory: datasheets of factions that are not bundled (looked up there first)')
    .option('--save-input <file>', 'write the input built from the data (a file `calc <file>` reads, to edit)')
    .option('--trials <n>', 'simulated trials', '10000')
    .option('--seed <s>', 'seed of the simulation', seedArg, '1')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExamples:\n  calc scenarios/calc/pulse-rifles-vs-guardians.json\n  calc --attacker "Crisis Fireknife Battlesuits" --weapon "Plasma rifle" --defender "Guardian Defenders" --half-range')
    .action(async (file: string | undefined, opts: CalcOptions) => {
      const { parseCalcInput } = await import('./input.ts');
      const { buildScene, exactForInput, simulate } = await import('./simulate.ts');
      const trials = Number(opts.trials);
      // the exact distribution is the answer; the simulation only checks it, and ten million trials take a
      // minute or two (a mistyped 1e12 would run for days with nothing shown)
      if (!Number.isInteger(trials) || trials < 0 || trials > MAX_TRIALS) throw new CliError(`--trials: expected a whole number from 0 to ${MAX_TRIALS.toLocaleString('en-US')}, got "${opts.trials}"`);
      const named = (['attacker', 'weapon', 'defender'] as const).filter((k) => opts[k] !== undefined);
      const shaping = (['models', 'targets', 'halfRange', 'charged', 'stationary', 'cover', 'data', 'saveInput'] as const).filter((k) => opts[k] !== undefined);
      let json: unknown;
      let source: string;
      if (file !== undefined) {
        if (named.length || shaping.length) throw new CliError(`calc: name a file or the units (--attacker, --weapon, --defender), not both (got ${file} and --${flag([...named, ...shaping][0])})`);
        source = file;
        json = readJson(file);
      } else {
        if (named.length < 3) throw new CliError(`calc: expected a calculator input file, or --attacker, --weapon and --defender (missing ${(['attacker', 'weapon', 'defender'] as const).filter((k) => opts[k] === undefined).map((k) => `--${k}`).join(', ')})`);
        const { calcInputFromData } = await import('./from-data.ts');
        const { bundledSource, exportSource } = await import('../data/catalog.ts');
        let built;
        try {
          const sources = [...(opts.data ? [exportSource(opts.data)] : []), bundledSource()];
          built = calcInputFromData({
            attacker: opts.attacker!, weapon: opts.weapon!, defender: opts.defender!,
            models: count('--models', opts.models), targets: count('--targets', opts.targets),
            halfRange: opts.halfRange, charged: opts.charged, stationary: opts.stationary, cover: opts.cover,
          }, sources);
        } catch (err) {
          throw new CliError((err as Error).message);
        }
        for (const n of built.notes) process.stderr.write(`note: ${n}\n`);
        json = built.input;
        source = 'the data';
      }
      let input;
      try {
        input = parseCalcInput(json, source);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      if (opts.saveInput) {
        const { writeFilesWhole } = await import('../data/write-whole.ts');
        writeFilesWhole([{ path: opts.saveInput, text: JSON.stringify(json, null, 2) + '\n' }]);
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

interface CalcOptions {
  attacker?: string; weapon?: string; defender?: string; models?: string; targets?: string;
  halfRange?: boolean; charged?: boolean; stationary?: boolean; cover?: boolean; data?: string; saveInput?: string;
  trials: string; seed: string; json?: boolean;
}

/** the option as typed: halfRange is --half-range */
const flag = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** a count of models, 1 to 100 as the input allows */
function count(option: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 100) throw new CliError(`${option}: expected a whole number of models from 1 to 100, got "${v}"`);
  return n;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${file}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file}: not valid JSON (${(err as Error).message})`);
  }
}
