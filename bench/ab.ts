/**
 * `npm run ab -- <baseline-tree> [--agent A] [--games N] [--scenario FILE]`: is this tree faster than
 * another checkout of the project (a baseline), on the same games? Both trees' modules are loaded into one
 * process and their games alternate (A B, then B A, ...), so the machine's drift, which moves a game's time
 * by 20% and more from one minute to the next here, falls on both alike; runs of two versions one after
 * the other cannot resolve a few per cent. Prints each tree's ms a game and the ratio with a 95% interval
 * from the per-game ratios (their logs' mean and standard error). It also checks that both trees play the
 * same games (event counts): when they differ, the timing compares different work, and it says so.
 *
 * A baseline tree: `git worktree add ../base HEAD~1 && ln -s "$PWD/node_modules" ../base/node_modules`.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');

// two games at least: the interval needs the spread of the per-game ratios
const gamesCount = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 2) throw new InvalidArgumentError('expected a whole number, 2 or more');
  return n;
};

const program = new Command('ab')
  .description('time this tree against a baseline checkout, games alternated in one process')
  .argument('<baseline>', 'the baseline checkout (a directory holding src/ and agents/)')
  .option('--agent <name>', 'the agent on both sides (a name in agents/ of each tree)', 'heuristic')
  .option('--games <n>', 'timed games for each tree (after 3 warm-up games each)', gamesCount, 20)
  .option('--scenario <file>', "a scenario file name in each tree's scenarios/", 'default.json')
  .showHelpAfterError();
program.parse();
const [baselineArg] = program.args;
const opts = program.opts<{ agent: string; games: number; scenario: string }>();

const baseline = resolve(baselineArg);
for (const dir of [baseline, here]) {
  for (const f of ['src/sim/play.ts', join('agents', `${opts.agent}.ts`), join('scenarios', opts.scenario)]) {
    if (!existsSync(join(dir, f))) {
      process.stderr.write(`ab: ${join(dir, f)} does not exist (expected a checkout of the project with that file)\n`);
      process.exit(2);
    }
  }
}

type Play = (tag: string, i: number) => number;

/** One tree's game: its own modules (a separate module graph per path), its own agent and scenario. */
async function loadTree(root: string): Promise<Play> {
  const loader = await import(join(root, 'src/core/agent-loader.ts'));
  const rng = await import(join(root, 'src/core/rng.ts'));
  const scen = await import(join(root, 'src/data/scenario.ts'));
  const play = await import(join(root, 'src/sim/play.ts'));
  const factory = await loader.loadAgentFactory(join(root, 'agents', `${opts.agent}.ts`));
  const scenario = scen.loadScenario(join(root, 'scenarios', opts.scenario));
  return (tag, i) => {
    const seed = rng.gameSeed(tag, i);
    const { game } = play.playGame(scenario, { seed, agents: [loader.makeAgent(factory, seed, 0), loader.makeAgent(factory, seed, 1)] });
    return game.state.eventCount as number;
  };
}

const trees = { base: await loadTree(baseline), self: await loadTree(here) };
for (let i = 0; i < 3; i++) { trees.base('ab-warm', i); trees.self('ab-warm', i); }

const ms = { base: [] as number[], self: [] as number[] };
let sameGames = true;
for (let i = 0; i < opts.games; i++) {
  const order = i % 2 === 0 ? (['base', 'self'] as const) : (['self', 'base'] as const);
  const events: Record<string, number> = {};
  for (const which of order) {
    const t = performance.now();
    events[which] = trees[which]('ab', i);
    ms[which].push(performance.now() - t);
  }
  if (events.base !== events.self) sameGames = false;
  process.stderr.write(`\r${i + 1}/${opts.games} games`);
}
process.stderr.write('\n');

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const logs = ms.self.map((t, i) => Math.log(t / ms.base[i]));
const m = mean(logs);
const se = Math.sqrt(logs.reduce((a, x) => a + (x - m) ** 2, 0) / (logs.length - 1) / logs.length);
console.log(`${opts.agent}, ${opts.scenario}, ${opts.games} games each, alternated in one process`);
console.log(`baseline (${baseline}): ${mean(ms.base).toFixed(1)} ms a game`);
console.log(`this tree (${here}): ${mean(ms.self).toFixed(1)} ms a game`);
console.log(`this tree / baseline: ${Math.exp(m).toFixed(3)} [${Math.exp(m - 1.96 * se).toFixed(3)}, ${Math.exp(m + 1.96 * se).toFixed(3)}] (geometric mean of the per-game ratios, 95% interval)`);
if (!sameGames) console.log('the trees play different games (event counts differ): the ratio compares different work');
