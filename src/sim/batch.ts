/**
 * The batch runner: numbered, seeded games on worker threads, folded into statistics in index order.
 *
 * - Game i is seeded with gameSeed(batchSeed, i) (with side swapping, games 2k and 2k+1 share game 2k's
 *   seed and the odd one has the sides swapped), so a game's result depends on nothing but its number:
 *   not on the number of workers, the order games finish, shards or resumes.
 * - Blocks of `blockSize` games go to the workers, a window of a few blocks per worker at a time, in index
 *   order; records stream back game by game and wait in a reorder buffer until every game before them is
 *   in, then they are folded into the statistics (and written in order). So the statistics, including the
 *   sequential stopping rule checked at block boundaries, are the same whatever the timing.
 * - With an output folder every record is appended to games.jsonl the moment it arrives: a batch that is
 *   killed loses at most the games being played, and `resume` plays only the games not in the file.
 * - A game that throws comes back as a record with `error`; a worker that dies is replaced by the pool and
 *   the rest of its block is played again; a game that kills its worker every time is recorded as failed.
 */
import { CliError } from '../cli-error.ts';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { makeDirs } from '../data/make-dirs.ts';
import { refuseOverwritingInput } from '../data/write-whole.ts';
import { DataError } from '../data/errors.ts';
import { join, resolve } from 'node:path';
import { BatchAggregator, type BatchStats } from './aggregate.ts';
import { createGamePool, defaultWorkers, PoolBrokenError, type GamePool } from './batch-pool.ts';
import { checkSetsUp, emptyRecord, gameIdentity, type Variant } from './batch-game.ts';
import { BATCH_FORMAT, type BatchSpec, type GameRecord } from './batch-types.ts';
import { checkRecord, checkSpecShape } from './batch-schemas.ts';
import { csvHeader, csvRow, writeReports } from './batch-report.ts';
import { halfWidth, wilson } from './stats.ts';
import { swapSides as swapScenario } from './swap.ts';

export const FILES = {
  spec: 'batch.json',
  games: 'games.jsonl',
  ordered: 'games.jsonl.ordered.partial',
  csv: 'games.csv',
  csvPartial: 'games.csv.partial',
  results: 'results.json',
  html: 'report.html',
} as const;

/** Refuse a `--log` naming one of the batch folder's own files (batch-game, replay --from-batch): it would replace it. */
export function refuseBatchFileAsLog(log: string | undefined, dir: string): void {
  refuseOverwritingInput(log, Object.values(FILES).map((f) => join(dir, f)), '--log', `a file of the batch folder ${dir}`);
}

/** The game numbers [from, to) a run of the spec plays (its shard's slice, or all of them). */
export function sliceOf(spec: Pick<BatchSpec, 'games' | 'swap' | 'shard'>): { from: number; to: number } {
  if (!spec.shard) return { from: 0, to: spec.games };
  const step = spec.swap ? 2 : 1;
  const units = Math.ceil(spec.games / step);
  const { k, n } = spec.shard;
  return { from: Math.min(spec.games, Math.floor(((k - 1) * units) / n) * step), to: Math.min(spec.games, Math.floor((k * units) / n) * step) };
}

/** Parse "k/n" (1 <= k <= n). */
export function parseShard(s: string): { k: number; n: number } {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) throw new Error(`--shard: expected k/n (e.g. 2/8), got "${s}"`);
  const k = Number(m[1]);
  const n = Number(m[2]);
  if (n < 1 || k < 1 || k > n) throw new Error(`--shard: expected 1 <= k <= n, got ${s}`);
  return { k, n };
}

/** Check a spec's numbers; throws Error with a message for the user. */
export function checkSpec(spec: BatchSpec): void {
  const int = (v: number, what: string, min: number) => {
    if (!Number.isInteger(v) || v < min) throw new Error(`${what}: expected an integer >= ${min}, got ${v}`);
  };
  int(spec.games, '--games', 1);
  int(spec.blockSize, '--block', 1);
  if (spec.swap && spec.games % 2 !== 0) throw new Error(`--games: expected an even number with side swapping (pairs of games), got ${spec.games}`);
  if (spec.swap && spec.blockSize % 2 !== 0) throw new Error(`--block: expected an even number with side swapping (a pair stays in one block), got ${spec.blockSize}`);
  if (spec.untilCi !== null && !(spec.untilCi > 0 && spec.untilCi < 0.5)) throw new Error(`--until-ci: expected a half-width between 0 and 0.5 (e.g. 0.02), got ${spec.untilCi}`);
  if (spec.untilCi !== null && spec.shard) throw new Error('--until-ci cannot be used with --shard (where to stop depends on every game before)');
  if (spec.shard) {
    const { k, n } = spec.shard;
    if (!Number.isInteger(k) || !Number.isInteger(n) || n < 1 || k < 1 || k > n) throw new Error(`--shard: expected 1 <= k <= n, got ${k}/${n}`);
    // the slices split whole pairs (whole games with --no-swap): more shards than that leaves some empty
    const units = spec.swap ? spec.games / 2 : spec.games;
    if (n > units) throw new Error(`--shard: ${n} shards of ${spec.games} games ${spec.swap ? `(${units} side-swapped pairs) ` : ''}would leave shards with no game: expected at most ${units} shards`);
  }
}

export interface Progress {
  /** games of the slice with a record (loaded or played) */
  done: number;
  /** games of the slice (the most, with untilCi) */
  total: number;
  /** played in this run */
  played: number;
  failed: number;
  /** by army, as the records arrived (display only: the statistics are folded in index order) */
  wins: [number, number];
  draws: number;
  elapsedMs: number;
}

export interface BatchRunOptions {
  /** a pool to use (a matrix shares one); else one is created with `workers` threads and destroyed at the end */
  pool?: GamePool;
  /** key of this batch's variant in `pool` */
  variantKey?: string;
  /** worker threads when no pool is given (default: the number of cores; 0 = this thread) */
  workers?: number;
  /** folder for batch.json, games.jsonl and the reports */
  outDir?: string | null;
  /** continue the batch in outDir (its batch.json is the spec; `spec` must be null) */
  resume?: boolean;
  onProgress?: (p: Progress) => void;
  /** each game's record as it is counted: in game order, those of an earlier run (resume) too */
  onRecord?: (r: GameRecord) => void;
  /** how many games the pool may be busy with ahead of the oldest unfinished one: blocks per worker */
  blocksPerWorker?: number;
  /**
   * A game's record known without playing it (worth: a game the army did not use the stratagem in, as its
   * baseline played it), or null to play it: taken as if played (written, counted, reported), not played.
   */
  known?: (index: number) => GameRecord | null;
  /** of the games `known` gives, those played for this run all the same (worth's check games): counted as played */
  knownPlayed?: (index: number) => boolean;
  /** merge: the number of shard folders merged into outDir (the reports say so) */
  mergedShards?: number;
}

export interface BatchOutcome {
  spec: BatchSpec;
  stats: BatchStats;
  slice: { from: number; to: number };
  /** every game of the slice has a record, or the stopping rule was met */
  complete: boolean;
  /** with untilCi: the game number the batch stopped at (games [from, stoppedAt) count) */
  stoppedAt: number | null;
  /** games played by this run (not loaded from an earlier one) */
  played: number;
  elapsedMs: number;
  gamesPerSecond: number;
  workers: number;
  outDir: string | null;
  /** made by merge: the number of shard folders merged */
  mergedShards?: number;
}

export function variantOf(spec: BatchSpec): Variant {
  return { scenario: spec.scenario, agents: spec.agents };
}

/** Run (or continue) a batch. */
export async function runBatch(specIn: BatchSpec | null, opts: BatchRunOptions = {}): Promise<BatchOutcome> {
  const started = performance.now();
  const outDir = opts.outDir ? resolve(opts.outDir) : null;
  let spec: BatchSpec;
  let loaded: GameRecord[] = [];
  if (opts.resume) {
    if (!outDir) throw new Error('resume needs the batch folder');
    spec = readSpec(outDir);
    loaded = readRecords(outDir, true);
  } else {
    if (!specIn) throw new Error('runBatch: no spec');
    spec = specIn;
    checkSpec(spec);
    await checkSetsUp(variantOf(spec), spec.batchSeed, spec.swap);
    if (outDir) startFolder(outDir, spec);
  }
  const slice = sliceOf(spec);
  const agg = new BatchAggregator(spec);
  const progress: Progress = { done: 0, total: slice.to - slice.from, played: 0, failed: 0, wins: [0, 0], draws: 0, elapsedMs: 0 };

  const append = outDir ? openSync(join(outDir, FILES.games), 'a') : null;
  const ordered = outDir ? openSync(join(outDir, FILES.ordered), 'w') : null;
  const csv = outDir ? openSync(join(outDir, FILES.csvPartial), 'w') : null;
  if (csv !== null) writeSync(csv, csvHeader(spec));

  // reorder buffer: records wait here until every game before them is in
  const pending = new Map<number, GameRecord>();
  let cursor = slice.from;
  let stoppedAt: number | null = null;

  const drain = () => {
    while (stoppedAt === null && pending.has(cursor)) {
      const r = pending.get(cursor)!;
      pending.delete(cursor);
      agg.add(r);
      opts.onRecord?.(r);
      if (ordered !== null) writeSync(ordered, JSON.stringify(r) + '\n');
      if (csv !== null) writeSync(csv, csvRow(spec, r));
      cursor++;
      const boundary = (cursor - slice.from) % spec.blockSize === 0 || cursor === slice.to;
      if (boundary && spec.untilCi !== null && agg.count > 0 && halfWidth(wilson(agg.army1Wins, agg.count)) <= spec.untilCi) stoppedAt = cursor;
    }
  };
  const have = (i: number) => i < cursor || pending.has(i);
  /** `fresh`: new to the folder (played, or known: `copied`) */
  const accept = (r: GameRecord, fresh: boolean, copied = false) => {
    if (r.index < slice.from || r.index >= slice.to || have(r.index)) return;
    pending.set(r.index, r);
    if (fresh && append !== null) writeSync(append, JSON.stringify(r) + '\n');
    progress.done++;
    if (fresh && !copied) progress.played++;
    if (r.error !== undefined) progress.failed++;
    else if (r.winner === null) progress.draws++;
    else progress.wins[r.winner]++;
    drain();
    if (fresh && opts.onProgress) {
      progress.elapsedMs = performance.now() - started;
      opts.onProgress(progress);
    }
  };
  for (const r of loaded.sort((a, b) => a.index - b.index)) {
    const foreign = foreignRecord(spec, r);
    if (foreign) throw new Error(`${join(outDir!, FILES.games)}: ${foreign} (is it another batch's?)`);
    accept(r, false);
  }
  loaded = [];

  // the blocks still to play, made as they are handed out (a list of them all would grow with the games)
  const blockAt = (b: number): number[] => {
    const idx: number[] = [];
    for (let i = b; i < Math.min(b + spec.blockSize, slice.to); i++) {
      if (have(i)) continue;
      const k = opts.known?.(i) ?? null;
      if (k === null) idx.push(i);
      else if (k.index !== i) throw new Error(`runBatch: the record known for game ${i} is game ${k.index}'s`);
      else accept(k, true, !(opts.knownPlayed?.(i) ?? false));
    }
    return idx;
  };
  let nextBlockStart = slice.from;
  const nextBlock = (): number[] | null => {
    while (nextBlockStart < slice.to) {
      const idx = blockAt(nextBlockStart);
      nextBlockStart += spec.blockSize;
      if (idx.length) return idx;
    }
    return null;
  };
  /** the blocks left to play, counted up to `most` */
  const blocksLeft = (most: number): number => {
    let n = 0;
    for (let b = nextBlockStart; b < slice.to && n < most; b += spec.blockSize) if (blockAt(b).length) n++;
    return n;
  };

  let pool: GamePool | null = null;
  const ownPool = !opts.pool;
  const key = opts.variantKey ?? 'batch';
  let fatal: Error | null = null;
  let deaths = 0;
  try {
    const perWorker = opts.blocksPerWorker ?? 2;
    const workers = opts.pool?.workers ?? opts.workers ?? defaultWorkers();
    // blocks in play at once: this many per worker
    const left = blocksLeft(Math.max(1, workers) * perWorker);
    if (left && stoppedAt === null) {
      // no more threads than blocks to play: a thread started for no block only costs its start
      pool = opts.pool ?? createGamePool(Math.min(workers, left), { [key]: variantOf(spec) });
      const p = pool;
      const deathLimit = Math.max(20, 4 * Math.max(1, p.workers));
      // a game played by a worker resets the count of worker deaths in a row
      const play = (indices: number[]) => p.run(key, spec.batchSeed, spec.swap, indices, (r) => { deaths = 0; accept(r, true); });
      const died = (err: unknown) => {
        if (err instanceof PoolBrokenError) {
          fatal ??= err;
          return;
        }
        deaths++;
        if (deaths >= deathLimit) fatal ??= new Error(`the batch's workers keep failing without finishing a game (${deaths} times in a row): ${(err as Error)?.message ?? err}`);
      };
      const runBlock = async (indices: number[]) => {
        try {
          await play(indices);
          return;
        } catch (err) {
          died(err);
          if (fatal) return;
        }
        // the worker died: play the rest of the block again, once
        let rest = indices.filter((i) => !have(i));
        if (!rest.length) return;
        try {
          await play(rest);
          return;
        } catch (err) {
          died(err);
          if (fatal) return;
        }
        // again: play the rest one game at a time, so only the game that kills its worker is lost
        rest = rest.filter((i) => !have(i));
        for (const i of rest) {
          let last: unknown = null;
          for (let attempt = 0; attempt < 2 && !have(i) && !fatal; attempt++) {
            try {
              await play([i]);
            } catch (err) {
              last = err;
              died(err);
            }
          }
          if (fatal) return;
          if (!have(i)) {
            const id = gameIdentity(spec.batchSeed, i, spec.swap);
            accept(emptyRecord(i, id.seed, id.swapped, `its worker died each time the game was played (4 tries): ${(last as Error)?.message ?? last}`), true);
          }
        }
      };
      const lane = async () => {
        for (let b: number[] | null; stoppedAt === null && fatal === null && (b = nextBlock()) !== null;) await runBlock(b);
      };
      await Promise.all(Array.from({ length: left }, lane));
    }
  } finally {
    if (ownPool && pool) await pool.destroy();
    for (const fd of [append, ordered, csv]) if (fd !== null) closeSync(fd);
  }
  if (fatal) throw fatal;
  const complete = stoppedAt !== null || cursor === slice.to;
  if (!complete) throw new Error(`batch incomplete: game ${cursor} has no record (this is a bug)`);
  const elapsedMs = performance.now() - started;
  const outcome: BatchOutcome = {
    spec, stats: agg.result(), slice, complete, stoppedAt,
    played: progress.played, elapsedMs, gamesPerSecond: elapsedMs > 0 ? progress.played / (elapsedMs / 1000) : 0,
    workers: pool?.workers ?? opts.workers ?? 0, outDir, ...(opts.mergedShards !== undefined ? { mergedShards: opts.mergedShards } : {}),
  };
  if (outDir) {
    // the records in index order replace the arrival-order log (a stopped batch keeps only the games counted)
    renameSync(join(outDir, FILES.ordered), join(outDir, FILES.games));
    renameSync(join(outDir, FILES.csvPartial), join(outDir, FILES.csv));
    writeReports(outDir, outcome);
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------------
// the batch folder

/**
 * Empty a folder of the batch it holds (`batch --replace`): only the batch's own files go, so a wrong
 * path loses nothing else; a folder that holds no batch is left as it is.
 */
export function clearBatchFolder(dir: string): void {
  if (!existsSync(join(dir, FILES.spec)) && !existsSync(join(dir, FILES.games))) return;
  for (const f of Object.values(FILES)) rmSync(join(dir, f), { force: true });
}

/** Make the output folder of a new batch (`merging`: of merged shards); one that holds a batch already is bad input, never overwritten. */
function startFolder(dir: string, spec: BatchSpec, merging = false): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError(`--out: ${dir} is a file: expected a folder (a new one, or one holding no batch)`);
  makeDirs(dir);
  if (existsSync(join(dir, FILES.games)) || existsSync(join(dir, FILES.spec))) {
    throw new CliError(merging ? `--out: ${dir} already holds a batch: choose another --out for the merged shards` : `--out: ${dir} already holds a batch: continue it with --resume ${dir}, replace it with --replace, or choose another --out`);
  }
  writeFileSync(join(dir, FILES.spec), JSON.stringify(spec, null, 1) + '\n');
  writeFileSync(join(dir, FILES.games), '');
}

export function readSpec(dir: string): BatchSpec {
  const file = join(dir, FILES.spec);
  // a folder given on the command line that is not a batch's: bad input (exit code 2)
  if (!existsSync(file)) throw new DataError(`${dir}: no ${FILES.spec} (not a batch folder)`);
  let spec: BatchSpec;
  try {
    spec = JSON.parse(readFileSync(file, 'utf8')) as BatchSpec;
  } catch (err) {
    throw new DataError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (spec?.format !== BATCH_FORMAT) throw new DataError(`${file}: not a ${BATCH_FORMAT} batch (format ${JSON.stringify(spec?.format)})`);
  const checked = checkSpecShape(spec);
  if ('error' in checked) throw new DataError(`${file}: not a batch spec: ${checked.error}`);
  // its numbers as the command line's are checked (a hand-edited shard 3/2 or an odd count of paired games)
  try {
    checkSpec(checked.value);
  } catch (err) {
    const flag: Record<string, string> = { '--games': 'games', '--block': 'blockSize', '--until-ci': 'untilCi', '--shard': 'shard' };
    throw new DataError(`${file}: ${(err as Error).message.replace(/^--[a-z-]+/, (f) => flag[f] ?? f)}`);
  }
  return checked.value;
}

/** Why a record is not game `r.index` of the batch (no such game, or another seed or side), or null when it is. */
function foreignRecord(spec: Pick<BatchSpec, 'batchSeed' | 'swap' | 'games'>, r: GameRecord): string | null {
  if (r.index >= spec.games) return `game ${r.index} is outside the batch's ${spec.games} games`;
  const id = gameIdentity(spec.batchSeed, r.index, spec.swap);
  if (r.seed === id.seed && r.swapped === id.swapped) return null;
  const sides = (swapped: boolean) => (swapped ? ' (sides swapped)' : '');
  return `game ${r.index} has seed ${r.seed}${sides(r.swapped)}, not the batch's ${id.seed}${sides(id.swapped)}`;
}

/**
 * The records in a batch folder's games.jsonl. With `repair`, a last line cut short by a kill is cut off
 * the file (that game is simply played again).
 */
export function readRecords(dir: string, repair = false): GameRecord[] {
  const file = join(dir, FILES.games);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const out: GameRecord[] = [];
  let pos = 0;
  // blank lines passed over (for the line numbers of messages)
  let skipped = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const line = nl < 0 ? text.slice(pos) : text.slice(pos, nl);
    let rec: GameRecord | null = null;
    try {
      rec = line.trim() ? (JSON.parse(line) as GameRecord) : null;
    } catch {
      rec = null;
    }
    const checked = rec === null ? null : checkRecord(rec);
    // the last line, complete but for its newline (a file edited by hand, or a kill just before the newline)
    const whole = nl < 0 && checked !== null && !('error' in checked);
    if ((nl < 0 && !whole) || (rec === null && line.trim())) {
      // an unterminated or unreadable line: only the last one may be (a write cut short)
      if (nl >= 0 && text.slice(nl + 1).trim()) throw new CliError(`${file}: unreadable line at byte ${pos}`);
      if (repair) truncateSync(file, Buffer.byteLength(text.slice(0, pos)));
      break;
    }
    if (checked) {
      if ('error' in checked) throw new CliError(`${file}: line ${out.length + 1 + skipped}: not a game record: ${checked.error}`);
      out.push(checked.value);
      // the records a resumed batch appends start on a line of their own
      if (whole && repair) appendFileSync(file, '\n');
    } else skipped++;
    if (nl < 0) break;
    pos = nl + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// merging shards

/** The parts of a spec that must agree for shards to be merged. */
function comparable(spec: BatchSpec): string {
  // not the paths, which differ between machines that ran the shards (the armies they name are in the scenario)
  const { shard: _s, label: _l, scenarioFile: _f, armies: _a, scenario, ...rest } = spec;
  const { file: _file, ...sc } = scenario;
  return JSON.stringify({ ...rest, sc });
}

/**
 * Merge the folders of a batch's shards into one folder with the same files (and the same numbers) as a
 * single run of the whole batch.
 */
export async function mergeBatches(dirs: string[], outDir: string): Promise<BatchOutcome> {
  if (!dirs.length) throw new CliError('merge: no batch folders given');
  const specs = dirs.map((d) => readSpec(d));
  const base = comparable(specs[0]);
  specs.forEach((s, i) => {
    if (comparable(s) !== base) throw new CliError(`merge: ${dirs[i]} is not a shard of the same batch as ${dirs[0]} (scenario, agents, seed, games, swap or block size differ)`);
  });
  const merged: BatchSpec = { ...specs[0], shard: null };
  const records = new Map<number, GameRecord>();
  // which folder each record came from: two folders may both hold a game (shards that overlap, or a whole batch
  // beside one of its shards) only with the same record
  const from = new Map<number, string>();
  dirs.forEach((d) => {
    for (const r of readRecords(d)) {
      // a record of another batch is refused here, naming its shard, before anything is written
      const foreign = foreignRecord(merged, r);
      if (foreign) throw new CliError(`${join(d, FILES.games)}: ${foreign} (is it another batch's?)`);
      const held = records.get(r.index);
      if (!held) {
        records.set(r.index, r);
        from.set(r.index, d);
      } else if (JSON.stringify(held) !== JSON.stringify(r)) {
        throw new CliError(`merge: game ${r.index} differs between ${from.get(r.index)} and ${d} (the same game of one batch gives the same record: was one folder's games.jsonl edited, or played by another version of the engine?)`);
      }
    }
  });
  const missing: string[] = [];
  for (let i = 0; i < merged.games; i++) {
    if (records.has(i)) continue;
    let j = i;
    while (j + 1 < merged.games && !records.has(j + 1)) j++;
    missing.push(i === j ? `${i}` : `${i}-${j}`);
    i = j;
  }
  const out = resolve(outDir);
  if (dirs.some((d) => resolve(d) === out)) throw new CliError('merge: --out must be a new folder, not one of the shards');
  if (missing.length) {
    throw new CliError(`merge: games ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''} are in none of the folders (a shard is missing or unfinished: finish it with batch --resume DIR)`);
  }
  startFolder(out, merged, true);
  const fd = openSync(join(out, FILES.games), 'w');
  try {
    for (let i = 0; i < merged.games; i++) writeSync(fd, JSON.stringify(records.get(i)) + '\n');
  } finally {
    closeSync(fd);
  }
  records.clear();
  return runBatch(null, { outDir: out, resume: true, workers: 0, mergedShards: dirs.length });
}

// ---------------------------------------------------------------------------------------------------
// one game of a batch

/** What regenerates game `index` of a batch folder: the scenario with the seats as played, seed, agents by seat. */
export function batchGame(dir: string, index: number): { spec: BatchSpec; seed: string; swapped: boolean; scenario: BatchSpec['scenario']; agents: [string, string]; record: GameRecord | null } {
  const spec = readSpec(dir);
  if (!Number.isInteger(index) || index < 0 || index >= spec.games) throw new Error(`game ${index}: the batch has games 0 to ${spec.games - 1}`);
  const { seed, swapped } = gameIdentity(spec.batchSeed, index, spec.swap);
  const record = readRecords(dir).find((r) => r.index === index) ?? null;
  const { scenario, agents } = swapped
    ? { scenario: swapScenario(spec.scenario), agents: [spec.agents[1], spec.agents[0]] as [string, string] }
    : { scenario: spec.scenario, agents: spec.agents };
  return { spec, seed, swapped, scenario, agents, record };
}
