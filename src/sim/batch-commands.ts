/**
 * `batch`, `matrix`, `compare`, `merge` and `batch-game`: seeded games on worker threads, their statistics
 * and reports, the detachment matrix, two batches compared seed by seed, merging shards, and regenerating
 * any game of a batch.
 */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import { lookupKey } from '../data/text.ts';
import { ARMIES_HELP, FIT_WARGEAR_HELP, WITHOUT_STRATAGEM_HELP, collect, seedArg } from './cli-options.ts';

interface BatchCliOptions {
  games?: string;
  seed?: string;
  agents?: string;
  workers?: string;
  swap: boolean;
  untilCi?: string;
  block?: string;
  shard?: string;
  out?: string;
  resume?: string;
  replace?: boolean;
  detachments?: string;
  armies?: string;
  fitWargear?: boolean;
  withoutStratagem: string[];
  json?: boolean;
  progress: boolean;
}

function intOption(v: string | undefined, name: string, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new CliError(`${name}: expected an integer >= ${min}, got "${v}"`);
  return n;
}

function cliErrors<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError((err as Error).message);
  }
}

async function cliErrorsAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof CliError) throw err;
    const e = err as Error;
    // errors of the user's input become one-line CLI errors; anything else keeps its stack
    if (e && typeof e.message === 'string' && !(e instanceof TypeError) && !(e instanceof RangeError)) throw new CliError(e.message, 1);
    throw err;
  }
}

/**
 * The progress of a command that plays batches one after the other (matrix, worth): a bar per batch on
 * stderr (`start` with its prefix), and when stderr is not a terminal a line as each ends (`done`).
 */
async function batchesProgress(names: [string, string], show: boolean) {
  const { progressBar } = await import('./progress.ts');
  let bar = progressBar(['', '']);
  return {
    start: (prefix: string) => { if (show) bar = progressBar(names, { prefix }); },
    update: show ? (p: Parameters<typeof bar.update>[0]) => bar.update(p) : undefined,
    done: (line: string) => {
      bar.stop();
      if (show && !process.stderr.isTTY) process.stderr.write(`${line}\n`);
    },
  };
}

/** A matrix's rows or columns name each detachment once (a repeat would play the same cell twice). */
function distinctDetachments(list: (string | null)[], flag: string): (string | null)[] {
  const seen = new Set<string>();
  for (const d of list) {
    const key = d === null ? 'none' : lookupKey(d);
    if (seen.has(key)) throw new CliError(`${flag}: "${d ?? 'none'}" is named twice`);
    seen.add(key);
  }
  return list;
}

/**
 * The matrix's `--baseline`: its index among the rows and among the columns; a list that does not hold it
 * keeps its default. Named in neither list, it is an error.
 */
function matrixBaseline(name: string | undefined, rows: (string | null)[], cols: (string | null)[], dflt: (l: (string | null)[]) => number, parse: (list: string) => (string | null)[]): { row: number; col: number } {
  if (name === undefined) return { row: dflt(rows), col: dflt(cols) };
  const named = parse(name);
  if (named.length !== 1) throw new CliError(`--baseline: expected one detachment (the rows' and the columns' where listed), got ${named.length}: "${name}"`);
  const [d] = named;
  // spelt as the lists may be (case, apostrophes: Montka for Mont'ka)
  const find = (l: (string | null)[]) => l.findIndex((x) => (x === null || d === null ? x === d : lookupKey(x) === lookupKey(d)));
  const [row, col] = [find(rows), find(cols)];
  if (row < 0 && col < 0) throw new CliError(`--baseline: "${name}" is neither among --detachments (${rows.map((x) => x ?? 'none').join(', ')}) nor among --vs (${cols.map((x) => x ?? 'none').join(', ')})`);
  return { row: row >= 0 ? row : dflt(rows), col: col >= 0 ? col : dflt(cols) };
}

/** `--until-ci`: a number as typed (checkSpec checks its range); text that is none is named as typed, not as NaN. */
function untilCiOption(text: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new CliError(`--until-ci: expected a half-width between 0 and 0.5 (e.g. 0.02), got "${text}"`);
  return v;
}

/** The batch options a batch.json fixes (option key, flag): `--resume` refuses them. */
const RESUME_FIXED: [string, string][] = [
  ['games', '--games'], ['seed', '--seed'], ['agents', '--agents'], ['swap', '--no-swap'], ['untilCi', '--until-ci'], ['block', '--block'],
  ['shard', '--shard'], ['detachments', '--detachments'], ['armies', '--armies'], ['fitWargear', '--fit-wargear'], ['withoutStratagem', '--without-stratagem'],
];

export function register(program: Command): void {
  program
    .command('batch')
    .description('play many seeded games of a scenario on worker threads and report win rates with intervals, VP, units and stratagems')
    .argument('[scenario]', 'scenario file (default: the bundled default scenario)')
    .option('--games <n>', 'games to play (the most, with --until-ci)', '1000')
    .option('--seed <s>', 'batch seed: game i is seeded "<s>#i"', seedArg, '1')
    .option('--agents <a,b>', "agents of the player 1 and player 2 armies (default: the scenario's)")
    .option('--workers <n>', 'worker threads (default: the number of cores; 0 = play in this thread)')
    .option('--no-swap', 'do not play side-swapped pairs (by default game 2k+1 replays game 2k\'s seed with the armies on each other\'s side)')
    .option('--until-ci <w>', "stop once player 1's army's win-rate 95% interval half-width is at most w (e.g. 0.02 = ±2 points), checked at the end of each block in game order")
    .option('--block <n>', 'games per worker task, and the step of --until-ci (even with swapping)', '10')
    .option('--shard <k/n>', 'play only the k-th of n disjoint slices of the game numbers (combine them with merge)')
    .option('--detachments <d1,d2>', 'detachments of the two armies instead of the scenario\'s ("none" = no detachment)')
    .option('--armies <a,b>', ARMIES_HELP)
    .option('--fit-wargear', FIT_WARGEAR_HELP)
    .option('--without-stratagem <army:name>', WITHOUT_STRATAGEM_HELP, collect, [])
    .option('--out <dir>', 'write batch.json, games.jsonl (as games finish), games.csv, results.json and report.html here')
    .option('--replace', 'with --out: replace the batch already in that folder (its batch files only) instead of refusing')
    .option('--resume <dir>', 'continue the interrupted batch in this folder (its batch.json gives the scenario, seed, games...)')
    .option('--json', 'print one JSON line: games, wins, draws, winRate, ci95, meanVp, failed, gamesPerSecond')
    .option('--no-progress', 'no progress bar (it is shown on stderr when that is a terminal)')
    .addHelpText('after', `
Every game is numbered and seeded from the batch seed and its number alone, so the results do not
depend on --workers, on the order games finish, on shards or on resuming. Win rates are per army
(player 1's army, player 2's army), whichever side it played. Intervals are 95%: Wilson intervals for
rates, Student's t for means, Agresti-Min for the side-swapped pairs' win-rate difference.

Examples:
  npx tsx src/cli.ts batch scenarios/kauyon-vs-battle-host.json --games 10000 --out out/kvb
  npx tsx src/cli.ts batch --games 20000 --until-ci 0.01 --out out/kvb-ci
  npx tsx src/cli.ts batch --games 10000 --shard 3/8 --out out/shard-3   (then: merge out/shard-* --out out/all)
  npx tsx src/cli.ts batch --resume out/kvb
  npx tsx src/cli.ts batch --games 400 --out out/no-trap --without-stratagem "1:A TEMPTING TRAP"   (then: compare out/kvb out/no-trap)
  npx tsx src/cli.ts batch-game out/kvb 17 --log game-17.jsonl`)
    .action(async (file: string | undefined, opts: BatchCliOptions, command: Command) => {
      const { runBatch, parseShard, checkSpec, readSpec, clearBatchFolder } = await import('./batch.ts');
      const { makeSpec, checkAgents, parseDetachments, parseWithoutStratagems } = await import('./variants.ts');
      const { loadScenarioForCli, agentOrigins, agentSpecs, armiesForSpec, workersOption } = await import('./cli-support.ts');
      const workers = workersOption(opts.workers);
      let spec = null;
      if (opts.resume) {
        if (opts.out && opts.out !== opts.resume) throw new CliError('--resume writes into the folder it continues: leave out --out');
        if (opts.replace) throw new CliError('--replace and --resume: choose one (replace the batch in the folder, or continue it)');
        // the folder's batch.json says what is played: an option that would change it is refused, not ignored
        // (typed ones only: --games, --seed and --block have defaults)
        if (file !== undefined) throw new CliError(`--resume continues the batch as its batch.json says: leave out the scenario (${file})`);
        const changed = RESUME_FIXED.find(([key]) => command.getOptionValueSource(key) === 'cli');
        if (changed) throw new CliError(`--resume continues the batch as its batch.json says: leave out ${changed[1]}`);
      } else {
        const dets = opts.detachments ? cliErrors(() => parseDetachments(opts.detachments!)) : null;
        if (dets && dets.length !== 2) throw new CliError(`--detachments: expected two detachments (player 1's, player 2's), got ${dets.length}`);
        const scenarioFile = file ?? (await import('../data/scenario.ts')).DEFAULT_SCENARIO;
        const sc = loadScenarioForCli(scenarioFile, { armies: opts.armies, detachments: dets ? [dets[0], dets[1]] : undefined, fitWargear: opts.fitWargear, withoutStratagem: opts.withoutStratagem });
        const agents = agentSpecs(opts.agents, sc);
        spec = makeSpec({
          scenario: sc, scenarioFile, agents, batchSeed: opts.seed ?? '1',
          games: intOption(opts.games, '--games', 1, 1000), swap: opts.swap, blockSize: intOption(opts.block, '--block', 1, 10),
          untilCi: opts.untilCi === undefined ? null : untilCiOption(opts.untilCi),
          shard: opts.shard ? cliErrors(() => parseShard(opts.shard!)) : null,
          // as the data spells them, whatever was typed
          detachments: dets ? [sc.players[0].detachment, sc.players[1].detachment] : undefined,
          armies: armiesForSpec(opts.armies),
          fitWargear: opts.fitWargear,
          withoutStratagems: cliErrors(() => parseWithoutStratagems(opts.withoutStratagem)),
        });
        cliErrors(() => checkSpec(spec!));
        await cliErrorsAsync(() => checkAgents(spec!.agents, agentOrigins(opts.agents, sc)));
        if (opts.replace) {
          if (!opts.out) throw new CliError('--replace: expected --out <dir> (the folder whose batch it replaces)');
          // only once everything else checked out: a bad option does not cost the old batch
          cliErrors(() => clearBatchFolder(opts.out!));
        }
      }
      const outDir = opts.resume ?? opts.out ?? null;
      const { progressBar } = await import('./progress.ts');
      const shown = spec ?? cliErrors(() => readSpec(opts.resume!));
      const names: [string, string] = [shown.scenario.players[0].name, shown.scenario.players[1].name];
      const show = opts.progress && !opts.json;
      const bar = progressBar(names);
      let outcome;
      try {
        outcome = await cliErrorsAsync(() => runBatch(spec, { workers, outDir, resume: !!opts.resume, onProgress: show ? (p) => bar.update(p) : undefined }));
      } finally {
        bar.stop();
      }
      const { batchJson, formatBatchSummary, everyGameFailed } = await import('./batch-report.ts');
      process.stdout.write(opts.json ? JSON.stringify(batchJson(outcome)) + '\n' : formatBatchSummary(outcome));
      everyGameFailed(outcome);
    });

  program
    .command('matrix')
    .description("play each detachment of player 1's army against each of player 2's (and the no-detachment baseline): a matrix of win rates with intervals")
    .argument('[scenario]', 'scenario file (default: the bundled default scenario)')
    .requiredOption('--detachments <list>', 'detachments of player 1\'s army, e.g. "Kauyon,Mont\'ka,none" ("none" = no detachment)')
    .option('--vs <list>', "detachments of player 2's army (default: the same list when both armies are of one faction, else player 2's detachment and none)")
    .option('--baseline <detachment>', 'the detachment the others are compared with, seed by seed, in the rows and in the columns where it is listed (default: none where listed, else the first)')
    .option('--games <n>', 'games per cell', '200')
    .option('--seed <s>', 'batch seed (the same for every cell)', seedArg, '1')
    .option('--agents <a,b>', "agents of the two armies (default: the scenario's)")
    .option('--armies <a,b>', ARMIES_HELP)
    .option('--fit-wargear', FIT_WARGEAR_HELP)
    .option('--workers <n>', 'worker threads (default: the number of cores; 0 = play in this thread)')
    .option('--no-swap', 'do not play side-swapped pairs')
    .option('--block <n>', 'games per worker task', '10')
    .option('--out <dir>', 'write matrix.json, matrix.csv, matrix.html and each cell\'s batch folder (cells/...); an existing cell folder is continued')
    .option('--json', 'print the matrix as JSON')
    .option('--no-progress', 'no progress bar')
    .action(async (file: string | undefined, opts: { detachments: string; vs?: string; baseline?: string; games?: string; seed?: string; agents?: string; armies?: string; fitWargear?: boolean; workers?: string; swap: boolean; block?: string; out?: string; json?: boolean; progress: boolean }) => {
      const { runMatrix, formatMatrix, defaultBaseline } = await import('./matrix.ts');
      const { pct } = await import('./batch-report.ts');
      const { makeSpec, checkAgents, scenarioVariant, parseDetachments, parseArmies } = await import('./variants.ts');
      const { loadScenarioForCli, agentOrigins, agentSpecs, armiesForSpec, workersOption } = await import('./cli-support.ts');
      const { checkSpec } = await import('./batch.ts');
      const scenarioFile = file ?? (await import('../data/scenario.ts')).DEFAULT_SCENARIO;
      const base = loadScenarioForCli(scenarioFile, { armies: opts.armies, fitWargear: opts.fitWargear });
      const armies = opts.armies === undefined ? undefined : cliErrors(() => parseArmies(opts.armies!));
      // each detachment as the data spells it (kauyon, Montka), so that the same matrix typed otherwise is the same
      // matrix: its cells' folders, labels and the batches' specs
      const spelt = (list: (string | null)[], seat: 0 | 1) => list.map((d) => (d === null ? null
        : cliErrors(() => scenarioVariant(scenarioFile, { armies, detachments: seat === 0 ? [d, undefined] : [undefined, d], fitWargear: opts.fitWargear, detachmentsOption: ['--detachments', '--vs'] })).players[seat].detachment));
      const rows = distinctDetachments(spelt(cliErrors(() => parseDetachments(opts.detachments)), 0), '--detachments');
      const cols = opts.vs !== undefined ? distinctDetachments(spelt(cliErrors(() => parseDetachments(opts.vs!)), 1), '--vs')
        : base.players[0].faction === base.players[1].faction ? rows
        : [...new Set([base.players[1].detachment, null])];
      const baseline = cliErrors(() => matrixBaseline(opts.baseline, rows, cols, defaultBaseline, parseDetachments));
      const games = intOption(opts.games, '--games', 1, 200);
      const blockSize = intOption(opts.block, '--block', 1, 10);
      const agents = agentSpecs(opts.agents, base);
      const workers = workersOption(opts.workers);
      // check every cell's scenario (an unknown detachment fails here, before any game)
      const scenarios = new Map<string, ReturnType<typeof scenarioVariant>>();
      for (const r of rows) for (const c of cols) scenarios.set(JSON.stringify([r, c]), cliErrors(() => scenarioVariant(scenarioFile, { armies, detachments: [r, c], fitWargear: opts.fitWargear })));
      const specFor = (sc: typeof base, r: string | null, c: string | null) => {
        const spec = makeSpec({ scenario: sc, scenarioFile, agents, batchSeed: opts.seed ?? '1', games, swap: opts.swap, blockSize, detachments: [r, c], armies: armiesForSpec(opts.armies), fitWargear: opts.fitWargear });
        cliErrors(() => checkSpec(spec));
        return spec;
      };
      await cliErrorsAsync(() => checkAgents(makeSpec({ scenario: base, scenarioFile, agents, batchSeed: '1', games: 2 }).agents, agentOrigins(opts.agents, base)));
      const progress = await batchesProgress([base.players[0].name, base.players[1].name], opts.progress && !opts.json);
      let label = '';
      const result = await cliErrorsAsync(() => runMatrix({
        rows, cols, baseline, workers, outDir: opts.out ?? null,
        scenarioFor: (r, c) => scenarios.get(JSON.stringify([r, c]))!,
        specFor,
        onCellStart: (r, c, i, of) => {
          label = `${r ?? 'none'} vs ${c ?? 'none'}`;
          progress.start(`[${i + 1}/${of}] ${label} `);
        },
        onProgress: progress.update,
        onCellDone: (cell) => progress.done(`${label}: ${cell.games} games, ${pct(cell.winRate[0])} wins`),
      }));
      if (opts.json) {
        process.stdout.write(JSON.stringify(result) + '\n');
        return;
      }
      process.stdout.write(formatMatrix(result));
      if (opts.out) process.stdout.write(`\nmatrix: ${opts.out}/matrix.html (matrix.json, matrix.csv; each cell's batch in ${opts.out}/cells/)\n`);
    });

  program
    .command('worth')
    .description('what each stratagem is worth to an army: a baseline batch, then one batch without each stratagem it used, compared seed by seed')
    .argument('[scenario]', 'scenario file (default: the bundled default scenario)')
    .option('--army <n>', "the army measured: 1 = the scenario's player 1 army, 2 = player 2's", '1')
    .option('--stratagems <list>', 'the stratagems to measure, comma-separated (default: those the army used in the baseline)')
    .option('--detachment', 'also measure the whole detachment (its rule and stratagems): one more batch, the army under no detachment')
    .option('--detachment-stratagems', "also measure the detachment's stratagems together (its rule kept): one more batch, without all of them")
    .option('--play-all', 'play every game without each stratagem; by default a game the army did not use it in is copied from the baseline when both agents decline without trace (the heuristic), as it plays the same')
    .option('--games <n>', 'games a batch', '200')
    .option('--seed <s>', 'batch seed (the same for every batch)', seedArg, '1')
    .option('--agents <a,b>', "agents of the two armies (default: the scenario's)")
    .option('--detachments <d1,d2>', 'detachments of the two armies instead of the scenario\'s ("none" = no detachment)')
    .option('--armies <a,b>', ARMIES_HELP)
    .option('--fit-wargear', FIT_WARGEAR_HELP)
    .option('--workers <n>', 'worker threads (default: the number of cores; 0 = play in this thread)')
    .option('--block <n>', 'games per worker task', '10')
    .option('--out <dir>', 'write worth.json, worth.csv, worth.html and each batch\'s folder (baseline/, without-<stratagem>/; for --army 2 worth-army-2.* and army-2-without-<stratagem>/, so both armies can share a folder and its baseline); an existing batch folder is continued')
    .option('--json', 'print the result as JSON')
    .option('--no-progress', 'no progress bar')
    .addHelpText('after', `
Every batch plays the same seeds with the sides swapped in pairs, so each stratagem's worth (the army's
win rate and VP margin with it less without it) is measured seed by seed, with a 95% interval.

Example: what each Kauyon stratagem the heuristic uses is worth against the Battle Host:
  npx tsx src/cli.ts worth --games 400 --out out/kauyon-worth`)
    .action(async (file: string | undefined, opts: { army?: string; stratagems?: string; detachment?: boolean; detachmentStratagems?: boolean; playAll?: boolean; games?: string; seed?: string; agents?: string; detachments?: string; armies?: string; fitWargear?: boolean; workers?: string; block?: string; out?: string; json?: boolean; progress: boolean }) => {
      const { runWorth, formatWorth, worthNames } = await import('./worth.ts');
      const { makeSpec, checkAgents, scenarioVariant, parseDetachments, parseArmies } = await import('./variants.ts');
      const { loadScenarioForCli, agentOrigins, agentSpecs, armiesForSpec, workersOption } = await import('./cli-support.ts');
      const { checkSpec } = await import('./batch.ts');
      const army = intOption(opts.army, '--army', 1, 1);
      if (army > 2) throw new CliError(`--army: expected 1 or 2, got "${opts.army}"`);
      const a = (army - 1) as 0 | 1;
      const dets = opts.detachments ? cliErrors(() => parseDetachments(opts.detachments!)) : null;
      if (dets && dets.length !== 2) throw new CliError(`--detachments: expected two detachments (player 1's, player 2's), got ${dets.length}`);
      const scenarioFile = file ?? (await import('../data/scenario.ts')).DEFAULT_SCENARIO;
      const base = loadScenarioForCli(scenarioFile, { armies: opts.armies, detachments: dets ? [dets[0], dets[1]] : undefined, fitWargear: opts.fitWargear });
      // as the data spells them (kauyon, Montka): the batches' specs, and so a re-run into the folder, do not depend on the typing
      const detachments: [string | null, string | null] | undefined = dets ? [base.players[0].detachment, base.players[1].detachment] : undefined;
      const armies = opts.armies === undefined ? undefined : cliErrors(() => parseArmies(opts.armies!));
      const games = intOption(opts.games, '--games', 2, 200);
      const blockSize = intOption(opts.block, '--block', 1, 10);
      const agents = agentSpecs(opts.agents, base);
      const workers = workersOption(opts.workers);
      // each variant read once: the named stratagems are checked with it before any game, then played
      const variants = new Map<string, ReturnType<typeof scenarioVariant>>();
      // the stratagems taken from the army measured, as the scenario variant and the batch spec both take them
      const fromArmy = (names: string[]): [string[], string[]] => (a === 0 ? [names, []] : [[], names]);
      const without = (names: string[]) => {
        const key = names.join('\n');
        let sc = variants.get(key);
        if (!sc) variants.set(key, (sc = scenarioVariant(scenarioFile, { armies, detachments, fitWargear: opts.fitWargear, withoutStratagems: fromArmy(names), withoutStratagemsOption: '--stratagems' })));
        return sc;
      };
      const named = opts.stratagems?.split(',').map((x) => x.trim()).filter(Boolean);
      if (opts.stratagems !== undefined && !named?.length) throw new CliError(`--stratagems: expected stratagem names separated by commas, got "${opts.stratagems}"`);
      // each named stratagem checked now (one the army cannot use fails here, before any game), as the engine spells it
      const stratagems = named?.map((n) => {
        if (base.players[a].withoutStratagems?.some((x) => lookupKey(x) === lookupKey(n))) throw new CliError(`--stratagems: the scenario already takes ${n} away from ${base.players[a].name} (its withoutStratagems): there is nothing to compare`);
        return cliErrors(() => without([n])).players[a].withoutStratagems!.find((x) => lookupKey(x) === lookupKey(n))!;
      });
      // one batch a stratagem: a name given twice (in any spelling) would play the same batch again
      stratagems?.forEach((s, i) => { if (stratagems.indexOf(s) !== i) throw new CliError(`--stratagems: ${s} is named twice`); });
      const specFor = (sc: typeof base, w: string[] | null) => {
        const spec = makeSpec({
          scenario: sc, scenarioFile, agents, batchSeed: opts.seed ?? '1', games, blockSize, detachments, armies: armiesForSpec(opts.armies), fitWargear: opts.fitWargear,
          withoutStratagems: w === null ? undefined : fromArmy(w),
        });
        cliErrors(() => checkSpec(spec));
        return spec;
      };
      let withoutDetachment: ReturnType<typeof makeSpec> | undefined;
      if (opts.detachment) {
        if (base.players[a].detachment === null) throw new CliError(`--detachment: ${base.players[a].name} plays no detachment: there is none to take away`);
        const dets: [string | null | undefined, string | null | undefined] = [detachments?.[0], detachments?.[1]];
        dets[a] = null;
        const sc = cliErrors(() => scenarioVariant(scenarioFile, { armies, detachments: dets, fitWargear: opts.fitWargear }));
        withoutDetachment = makeSpec({ scenario: sc, scenarioFile, agents, batchSeed: opts.seed ?? '1', games, blockSize, detachments: [sc.players[0].detachment, sc.players[1].detachment], armies: armiesForSpec(opts.armies), fitWargear: opts.fitWargear });
        cliErrors(() => checkSpec(withoutDetachment!));
      }
      let detachmentStratagems: string[] | undefined;
      if (opts.detachmentStratagems) {
        const det = base.players[a].detachment;
        if (det === null) throw new CliError(`--detachment-stratagems: ${base.players[a].name} plays no detachment: it has no detachment stratagems`);
        const { detachmentStratagemNames } = await import('../rules/stratagems/registry.ts');
        const taken = new Set((base.players[a].withoutStratagems ?? []).map(lookupKey));
        detachmentStratagems = detachmentStratagemNames(det).filter((n) => !taken.has(lookupKey(n)));
        if (!detachmentStratagems.length) throw new CliError(`--detachment-stratagems: ${det} has no stratagems ${base.players[a].name} may use`);
        cliErrors(() => without(detachmentStratagems!));
      }
      await cliErrorsAsync(() => checkAgents(makeSpec({ scenario: base, scenarioFile, agents, batchSeed: '1', games: 2 }).agents, agentOrigins(opts.agents, base)));
      const progress = await batchesProgress([base.players[0].name, base.players[1].name], opts.progress && !opts.json);
      const result = await cliErrorsAsync(() => runWorth({
        scenario: base, army: a, without: (n) => cliErrors(() => without(n)), specFor, stratagems, withoutDetachment, detachmentStratagems, workers, outDir: opts.out ?? null, playAll: opts.playAll === true,
        onBatchStart: (label, i, of) => progress.start(`[${i + 1}/${of ?? '?'}] ${label} `),
        onProgress: progress.update,
        onBatchDone: (label, outcome) => progress.done(`${label}: ${outcome.stats.games} games, ${(100 * outcome.stats.armies[a].wins.rate).toFixed(1)}% wins for ${base.players[a].name}`),
      }));
      if (opts.json) {
        process.stdout.write(JSON.stringify(result) + '\n');
        return;
      }
      process.stdout.write(formatWorth(result));
      if (opts.out) {
        const { prefix, files } = worthNames(a);
        process.stdout.write(`\nworth: ${opts.out}/${files}.html (${files}.json, ${files}.csv; each batch's folder in ${opts.out}/: baseline/, ${prefix}without-.../)\n`);
      }
    });

  program
    .command('compare')
    .description('compare two batches played on the same seeds (batch --out A, batch --out B): how much better an army did in A than in B, seed by seed, with a 95% interval')
    .argument('<a>', 'batch folder A')
    .argument('<b>', 'batch folder B (the same --seed and side swapping as A)')
    .option('--army <n>', "the army compared: 1 = the scenario's player 1 army, 2 = player 2's", '1')
    .option('--json', 'print the comparison as JSON')
    .addHelpText('after', `
Game i of A and game i of B share their seed (deployment, first turn, dice) when both batches were played
with the same --seed and side swapping, so the difference is measured on each seed (a side-swapped pair of
games, or one game with --no-swap) and its interval comes from the spread of those differences.

Example: the same army under two detachments, against the same opponent:
  npx tsx src/cli.ts batch --detachments "Kauyon,Battle Host" --games 400 --out out/kauyon
  npx tsx src/cli.ts batch --detachments "Mont'ka,Battle Host" --games 400 --out out/montka
  npx tsx src/cli.ts compare out/kauyon out/montka`)
    .action(async (a: string, b: string, opts: { army?: string; json?: boolean }) => {
      const { compareBatches, formatComparison } = await import('./compare.ts');
      const army = intOption(opts.army, '--army', 1, 1);
      if (army > 2) throw new CliError(`--army: expected 1 or 2, got "${opts.army}"`);
      const c = cliErrors(() => compareBatches(a, b, (army - 1) as 0 | 1));
      for (const w of c.warnings) process.stderr.write(`warning: ${w}\n`);
      process.stdout.write(opts.json ? JSON.stringify(c) + '\n' : formatComparison(c));
    });

  program
    .command('merge')
    .description('combine the folders of a batch\'s shards (batch --shard k/n --out DIR) into one report, the same as a single run')
    .argument('<dirs...>', 'the shards\' batch folders')
    .requiredOption('--out <dir>', 'folder for the merged batch (a new folder)')
    .option('--json', 'print the batch --json line')
    .action(async (dirs: string[], opts: { out: string; json?: boolean }) => {
      const { mergeBatches } = await import('./batch.ts');
      const outcome = await cliErrorsAsync(() => mergeBatches(dirs, opts.out));
      const { batchJson, formatBatchSummary, everyGameFailed } = await import('./batch-report.ts');
      process.stdout.write(opts.json ? JSON.stringify(batchJson(outcome)) + '\n' : formatBatchSummary(outcome));
      everyGameFailed(outcome);
    });

  program
    .command('batch-game')
    .description('regenerate game I of a batch from its folder (same seed, sides and agents): its summary, and its log with --log')
    .argument('<dir>', 'the batch folder (batch --out DIR)')
    .argument('<index>', 'game number')
    .option('--log <file>', 'write the whole event log (JSONL)')
    .option('--json', 'print a JSON summary')
    .action(async (dir: string, index: string, opts: { log?: string; json?: boolean }) => {
      const { batchGame, variantOf } = await import('./batch.ts');
      const { seatBatchGame } = await import('./batch-game.ts');
      const { logWriter } = await import('../replay/log-writer.ts');
      const { playGame } = await import('./play.ts');
      const { summarize, formatSummary, SUMMARY_EVENTS } = await import('./summary.ts');
      const i = intOption(index, 'index', 0, 0);
      // what is wrong with the folder, or the agents it names, is said naming the folder
      const inFolder = (err: unknown) => {
        const message = (err as Error).message;
        if (message.includes(dir)) return err instanceof CliError ? err : new CliError(message);
        return new CliError(`${dir}: ${message}`);
      };
      let g;
      let seated;
      try {
        g = batchGame(dir, i);
        // seated and made as the batch runner seats and makes them: the log is the one `play --agents` writes
        seated = await seatBatchGame(variantOf(g.spec), { seed: g.seed, swapped: g.swapped });
      } catch (err) {
        throw inFolder(err);
      }
      const hash = createHash('sha256');
      const { refuseBatchFileAsLog } = await import('./batch.ts');
      refuseBatchFileAsLog(opts.log, dir);
      const log = logWriter(opts.log);
      const kept: import('../core/events.ts').GameEvent[] = [];
      let events = 0;
      let played;
      let error: Error | null = null;
      try {
        played = playGame(seated.sc, {
          seed: g.seed, agents: seated.agents,
          onEvent: (e) => {
            hash.update(log.write(e));
            events++;
            if (SUMMARY_EVENTS.has(e.type)) kept.push(e);
          },
        });
      } catch (err) {
        error = err as Error;
      }
      // a game that threw keeps its log too: it shows where
      log.done();
      const logSha256 = hash.digest('hex');
      const rec = g.record;
      const armyWinner = played ? (played.result.winner === null ? null : ((g.swapped ? 1 - played.result.winner : played.result.winner) as 0 | 1)) : null;
      const vpByArmy = played ? (g.swapped ? [played.result.vp[1], played.result.vp[0]] : played.result.vp) : null;
      const matches = rec === null ? null
        : error ? rec.error !== undefined
        : rec.error === undefined && rec.winner === armyWinner && rec.vp[0] === vpByArmy![0] && rec.vp[1] === vpByArmy![1] && rec.rounds === played!.result.rounds && rec.endedBy === played!.result.endedBy;
      if (opts.json) {
        process.stdout.write(JSON.stringify({
          index: i, seed: g.seed, swapped: g.swapped, agents: g.agents,
          winnerArmy: armyWinner === null ? null : armyWinner + 1, vpByArmy, rounds: played?.result.rounds ?? null, endedBy: played?.result.endedBy ?? 'error',
          error: error ? error.message : undefined, events, logSha256, matchesRecord: matches,
        }) + '\n');
        return;
      }
      process.stdout.write(`game ${i} of ${dir} (seed ${g.seed}${g.swapped ? ', sides swapped: player 1 is the scenario\'s player 2 army' : ''}, agents ${g.agents.join(' vs ')})\n\n`);
      if (played) process.stdout.write(formatSummary(summarize(kept, played.game.state)));
      if (error) process.stdout.write(`the game threw: ${error.stack ?? error.message}\n`);
      if (opts.log) process.stdout.write(`\nlog: ${opts.log} (${events} events, sha256 ${logSha256})\n`);
      if (matches === true) process.stdout.write('\nsame result as the batch recorded\n');
      else if (matches === false) process.stdout.write('\nwarning: not the result the batch recorded (has the engine changed since?)\n');
      if (error) process.exitCode = 1;
    });
}
