import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkSpec, mergeBatches, parseShard, readRecords, runBatch, sliceOf, variantOf, type BatchOutcome } from '../../src/sim/batch.ts';
import { createGamePool, type GamePool } from '../../src/sim/batch-pool.ts';
import { swapSides } from '../../src/sim/swap.ts';
import type { GameRecord } from '../../src/sim/batch-types.ts';
import { batchScenario, batchSpec, stable, testSpec, TEST_GAMES } from './helpers.ts';
import { DataError } from '../../src/data/errors.ts';
import { batchJson, everyGameFailed, formatBatchSummary, playCommand, shellQuote } from '../../src/sim/batch-report.ts';
import { escapeHtml, renderBatchHtml } from '../../src/sim/report-html.ts';

const root = join(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'strategium-batch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// the faulty agent plays exactly like the random agent unless an environment variable tells it to fail
const GAMES = TEST_GAMES;
const spec = testSpec;
const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Record<string, unknown>;
const gamesFile = (dir: string) => readFileSync(join(dir, 'games.jsonl'), 'utf8');
const byIndex = (dir: string) => new Map(readRecords(dir).map((r) => [r.index, r]));

const ENV = ['STRATEGIUM_FAULTY_THROW', 'STRATEGIUM_FAULTY_EXIT', 'STRATEGIUM_FAULTY_EXIT_ALWAYS', 'STRATEGIUM_FAULTY_DIR', 'STRATEGIUM_FAULTY_SLOW_MS'];
afterEach(() => { for (const k of ENV) delete process.env[k]; });

// one pool of two workers for the whole file (its threads share the environment, so the fault switches reach them)
let pool: GamePool;
let ref: BatchOutcome;
const refDir = join(tmp, 'ref');
// a reference batch on two worker threads: a minute allowed, as on a loaded machine it takes more than the default 10 s
beforeAll(async () => {
  pool = createGamePool(2, { batch: variantOf(spec()) });
  ref = await runBatch(spec(), { outDir: refDir, pool });
}, 60_000);
afterAll(async () => { await pool.destroy(); });

describe('batch runner', () => {
  it('plays every game once, in index order, with side-swapped pairs', () => {
    const recs = readRecords(refDir);
    expect(recs.map((r) => r.index)).toEqual([...Array(GAMES).keys()]);
    expect(recs[4]).toMatchObject({ seed: 'T#4', swapped: false });
    expect(recs[5]).toMatchObject({ seed: 'T#4', swapped: true });
    expect(recs.every((r) => r.error === undefined)).toBe(true);
    expect(ref.stats.games).toBe(GAMES);
    expect(ref.stats.armies[0].wins.count + ref.stats.armies[1].wins.count + ref.stats.draws.count).toBe(GAMES);
    for (const f of ['batch.json', 'games.jsonl', 'games.csv', 'results.json', 'report.html']) expect(existsSync(join(refDir, f))).toBe(true);
    expect(readdirSync(refDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
    expect(readFileSync(join(refDir, 'games.csv'), 'utf8').trim().split('\n')).toHaveLength(GAMES + 1);
  });

  it('gives the same records and statistics with 1 worker, 2 workers and in this thread', async () => {
    for (const workers of [1, 0]) {
      // (a pool of its own for one worker; in this thread for 0)
      const dir = join(tmp, `w${workers}`);
      const o = await runBatch(spec(), { outDir: dir, workers });
      expect(gamesFile(dir)).toBe(gamesFile(refDir));
      expect(stable(results(dir))).toEqual(stable(results(refDir)));
      expect(o.stats).toEqual(ref.stats);
    }
  });

  it('swaps sides: each army keeps its list, detachment and agent, each seat its zone and role', () => {
    const sc = batchScenario();
    sc.players[0].detachment = 'Kauyon';
    sc.players[0].role = 'attacker';
    sc.players[1].role = 'defender';
    const sw = swapSides(sc);
    expect(sw.players[0].army).toBe(sc.players[1].army);
    expect(sw.players[1].detachment).toBe('Kauyon');
    expect([sw.players[0].zone, sw.players[0].role, sw.players[1].zone, sw.players[1].role]).toEqual([0, 'attacker', 1, 'defender']);
    expect(sw.board).toBe(sc.board);
    expect(swapSides(sw).players).toEqual(sc.players);
  });

  it('merging the shards gives exactly the single run', async () => {
    const dirs: string[] = [];
    const slices: { from: number; to: number }[] = [];
    for (let k = 1; k <= 3; k++) {
      const dir = join(tmp, `shard-${k}`);
      const o = await runBatch(spec({ shard: { k, n: 3 } }), { outDir: dir, workers: 0 });
      slices.push(o.slice);
      dirs.push(dir);
    }
    // disjoint slices covering every game, cut between pairs
    expect(slices).toEqual([{ from: 0, to: 4 }, { from: 4, to: 10 }, { from: 10, to: 16 }]);
    expect(sliceOf({ games: 10, swap: true, shard: { k: 2, n: 3 } })).toEqual({ from: 2, to: 6 });
    const merged = join(tmp, 'merged');
    const o = await mergeBatches([dirs[2], dirs[0], dirs[1]], merged);
    expect(o.played).toBe(0);
    // the page says what the run did, as the summary does (not "0 games played by this run")
    expect(o.mergedShards).toBe(3);
    expect(readFileSync(join(merged, 'report.html'), 'utf8')).toContain('; this run: merged from 3 shard folders.</p>');
    expect(readFileSync(join(refDir, 'report.html'), 'utf8')).toMatch(/; this run: 16 played in [\d.]+ s \([\d.]+ games\/s, 2 worker threads\)\.<\/p>/);
    expect(gamesFile(merged)).toBe(gamesFile(refDir));
    expect(stable(results(merged))).toEqual(stable(results(refDir)));
    await expect(mergeBatches([dirs[0], dirs[2]], join(tmp, 'merged-missing'))).rejects.toThrow(/games 4-9 are in none/);
    // bad input (exit code 2), not a failure
    await expect(mergeBatches([dirs[0], dirs[2]], join(tmp, 'merged-missing'))).rejects.toMatchObject({ name: 'CliError', exitCode: 2 });
    await expect(mergeBatches(dirs, dirs[0])).rejects.toMatchObject({ name: 'CliError', exitCode: 2, message: 'merge: --out must be a new folder, not one of the shards' });
    // a shard holding a record of another batch is named, and nothing is written (the check came after the
    // merged folder was started, and named it)
    const lines = gamesFile(dirs[1]).trim().split('\n');
    lines[1] = JSON.stringify({ ...JSON.parse(lines[1]), seed: 'other#4' });
    writeFileSync(join(dirs[1], 'games.jsonl'), lines.join('\n') + '\n');
    const foreign = join(tmp, 'merged-foreign');
    await expect(mergeBatches(dirs, foreign)).rejects.toThrow(`${join(dirs[1], 'games.jsonl')}: game 5 has seed other#4 (sides swapped), not the batch's T#4 (sides swapped) (is it another batch's?)`);
    expect(existsSync(foreign)).toBe(false);
    // resuming that shard refuses the record the same way
    await expect(runBatch(null, { resume: true, outDir: dirs[1], workers: 0 })).rejects.toThrow(`${join(dirs[1], 'games.jsonl')}: game 5 has seed other#4 (sides swapped), not the batch's T#4 (sides swapped) (is it another batch's?)`);
  });

  it('merge takes a game two folders both hold only when their records agree', async () => {
    // the whole batch beside its first shard: the games they share are the same records, the merge is the whole
    const shard = join(tmp, 'overlap-shard-1');
    await runBatch(spec({ shard: { k: 1, n: 3 } }), { outDir: shard, workers: 0 });
    const merged = join(tmp, 'overlap-merged');
    await mergeBatches([shard, refDir], merged);
    expect(gamesFile(merged)).toBe(gamesFile(refDir));
    // the shard's game 1 edited: which folder comes first no longer decides the result, the merge is refused
    const lines = gamesFile(shard).trim().split('\n');
    const rec = JSON.parse(lines[1]) as GameRecord;
    lines[1] = JSON.stringify({ ...rec, vp: [rec.vp[0] + 5, rec.vp[1]] });
    writeFileSync(join(shard, 'games.jsonl'), lines.join('\n') + '\n');
    const refused = join(tmp, 'overlap-refused');
    await expect(mergeBatches([refDir, shard], refused)).rejects.toMatchObject({ name: 'CliError', exitCode: 2, message: expect.stringContaining(`merge: game 1 differs between ${refDir} and ${shard}`) });
    expect(existsSync(refused)).toBe(false);
  });

  it('reads a last record that lacks only its newline (and a resume starts the next on a line of its own); a damaged line is bad input', async () => {
    const dir = join(tmp, 'no-newline');
    await runBatch(spec({ shard: { k: 1, n: 2 } }), { outDir: dir, workers: 0 });
    const whole = gamesFile(dir);
    expect(readRecords(dir)).toEqual(readRecords(refDir).slice(0, 8));
    // four records, the last without its newline: all four read, and the resume plays the other four
    writeFileSync(join(dir, 'games.jsonl'), whole.trim().split('\n').slice(0, 4).join('\n'));
    expect(readRecords(dir)).toEqual(readRecords(refDir).slice(0, 4));
    const o = await runBatch(null, { outDir: dir, resume: true, workers: 0 });
    expect(o.played).toBe(4);
    expect(gamesFile(dir)).toBe(whole);
    // a line in the middle that is not a record: the folder's fault, said naming the file (exit code 2)
    const lines = whole.trim().split('\n');
    lines[2] = '{"index": 2, "seed"';
    writeFileSync(join(dir, 'games.jsonl'), lines.join('\n') + '\n');
    expect(() => readRecords(dir)).toThrow(expect.objectContaining({ name: 'CliError', exitCode: 2, message: expect.stringContaining(`${join(dir, 'games.jsonl')}: unreadable line at byte`) }));
    lines[2] = '{"index": 2}';
    writeFileSync(join(dir, 'games.jsonl'), lines.join('\n') + '\n');
    expect(() => readRecords(dir)).toThrow(expect.objectContaining({ name: 'CliError', exitCode: 2, message: expect.stringContaining(`${join(dir, 'games.jsonl')}: line 3: not a game record`) }));
  });

  it('resumes a killed batch without losing or repeating a game', async () => {
    const dir = join(tmp, 'killed');
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'run-batch.ts'), dir, '2'], {
      cwd: root, stdio: 'ignore', env: { ...process.env, STRATEGIUM_FAULTY_SLOW_MS: '100' },
    });
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    // kill it (SIGKILL: nothing is flushed or cleaned up) once a few games are in
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const file = join(dir, 'games.jsonl');
      if (existsSync(file) && readFileSync(file, 'utf8').split('\n').length > 4) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    await exited;
    const before = readRecords(dir);
    expect(before.length).toBeGreaterThanOrEqual(4);
    expect(before.length).toBeLessThan(GAMES);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
    // a write cut short by the kill: half a line at the end
    writeFileSync(join(dir, 'games.jsonl'), readFileSync(join(dir, 'games.jsonl'), 'utf8') + '{"index":15,"seed":"T#14","swa');
    const o = await runBatch(null, { outDir: dir, resume: true, pool });
    expect(o.played).toBe(GAMES - before.length);
    expect(gamesFile(dir)).toBe(gamesFile(refDir));
    expect(stable(results(dir)).stats).toEqual(stable(results(refDir)).stats);
    // a finished batch resumes to itself, playing nothing
    const again = await runBatch(null, { outDir: dir, resume: true, workers: 0 });
    expect(again.played).toBe(0);
    expect(gamesFile(dir)).toBe(gamesFile(refDir));
  });

  it('resumes only a batch.json whose numbers the command line would take (a hand-edited one is refused, naming its field)', async () => {
    const dir = join(tmp, 'edited');
    await runBatch(spec({ games: 4 }), { outDir: dir, workers: 0 });
    const file = join(dir, 'batch.json');
    const original = readFileSync(file, 'utf8');
    for (const [edit, message] of [
      [{ shard: { k: 3, n: 2 } }, 'shard: expected 1 <= k <= n, got 3/2'],
      [{ games: 5 }, 'games: expected an even number with side swapping (pairs of games), got 5'],
      [{ untilCi: 7 }, 'untilCi: expected a half-width between 0 and 0.5 (e.g. 0.02), got 7'],
      [{ shard: { k: 2, n: 3 } }, 'shard: 3 shards of 4 games (2 side-swapped pairs) would leave shards with no game: expected at most 2 shards'],
    ] as const) {
      writeFileSync(file, JSON.stringify({ ...JSON.parse(original), ...edit }));
      await expect(runBatch(null, { outDir: dir, resume: true, workers: 0 })).rejects.toThrow(new DataError(`${file}: ${message}`));
    }
  });

  it('resumes from records in any order, keeping the first of duplicates', async () => {
    const dir = join(tmp, 'shuffled');
    await runBatch(spec(), { outDir: dir, workers: 0 });
    const lines = gamesFile(dir).trim().split('\n');
    const kept = [lines[7], lines[2], lines[13], lines[2], lines[0], lines[11]];
    writeFileSync(join(dir, 'games.jsonl'), kept.join('\n') + '\n');
    rmSync(join(dir, 'results.json'));
    const o = await runBatch(null, { outDir: dir, resume: true, workers: 0 });
    expect(o.played).toBe(GAMES - 5);
    expect(gamesFile(dir)).toBe(gamesFile(refDir));
  });

  it('takes the records it is told are known without playing them, as if played', async () => {
    const dir = join(tmp, 'known');
    const records = byIndex(refDir);
    const asked: number[] = [];
    // every third game known (from the reference run), the rest played
    const o = await runBatch(spec(), { outDir: dir, workers: 0, known: (i) => { asked.push(i); return i % 3 === 0 ? records.get(i)! : null; } });
    expect(o.played).toBe(GAMES - Math.ceil(GAMES / 3));
    expect(gamesFile(dir).trim().split('\n').sort()).toEqual(gamesFile(refDir).trim().split('\n').sort());
    expect(o.stats).toEqual(ref.stats);
    // asked about every game (a game it is to play may be asked again, as blocks are counted, then made)
    expect([...new Set(asked)].sort((a, b) => a - b)).toEqual([...Array(GAMES).keys()]);
    await expect(runBatch(spec(), { workers: 0, known: (i) => (i === 2 ? records.get(3)! : null) })).rejects.toThrow('runBatch: the record known for game 2 is game 3\'s');
  });

  it('checks its options', () => {
    expect(parseShard('2/8')).toEqual({ k: 2, n: 8 });
    expect(() => parseShard('3/2')).toThrow(/1 <= k <= n/);
    expect(() => parseShard('x')).toThrow(/expected k\/n/);
    expect(() => checkSpec(spec({ games: 7 }))).toThrow(/even number/);
    expect(() => checkSpec(spec({ blockSize: 3 }))).toThrow(/even number/);
    expect(() => checkSpec(spec({ untilCi: 0.02, shard: { k: 1, n: 2 } }))).toThrow(/cannot be used with --shard/);
    expect(() => checkSpec(spec({ untilCi: 0 }))).toThrow(/half-width/);
    expect(() => checkSpec(spec({ games: 7, swap: false, blockSize: 3 }))).not.toThrow();
    // a shard of no game: more shards than side-swapped pairs (than games, without swapping)
    expect(() => checkSpec(spec({ games: 4, shard: { k: 1, n: 3 } }))).toThrow('--shard: 3 shards of 4 games (2 side-swapped pairs) would leave shards with no game: expected at most 2 shards');
    expect(() => checkSpec(spec({ games: 4, shard: { k: 1, n: 2 } }))).not.toThrow();
    expect(() => checkSpec(spec({ games: 3, swap: false, blockSize: 1, shard: { k: 3, n: 3 } }))).not.toThrow();
    expect(() => checkSpec(spec({ games: 3, swap: false, blockSize: 1, shard: { k: 1, n: 4 } }))).toThrow(/would leave shards with no game: expected at most 3 shards/);
  });

  it('starts no more worker threads than it has blocks to play', async () => {
    // one block of 4 games: a second thread would have nothing to play
    const one = await runBatch(spec({ games: 4, blockSize: 4 }), { workers: 2 });
    expect(one.workers).toBe(1);
    expect(one.stats).toEqual((await runBatch(spec({ games: 4, blockSize: 4 }), { workers: 0 })).stats);
  }, 60_000);

  it('hands out blocks as it goes: a batch of 2^40 games stopped early plays its first block only', async () => {
    // a list of every block made up front would not fit in memory (2^38 blocks of 4)
    const o = await runBatch(spec({ games: 2 ** 40, blockSize: 4, untilCi: 0.45 }), { workers: 0 });
    expect(o.stoppedAt).toBe(4);
    expect(o.stats.games + o.stats.failed.length).toBe(4);
    // two blocks are in play at once for one worker: the second was under way when the first stopped the batch
    expect(o.played).toBe(8);
  });

  it('refuses to start a batch over another one', async () => {
    await expect(runBatch(spec(), { outDir: refDir, workers: 0 })).rejects.toThrow(/already holds a batch/);
  });
});

describe('faults', () => {
  const same = (a: GameRecord | undefined, b: GameRecord | undefined) => expect(a).toEqual(b);

  it('records a game that throws with its seed and error, and goes on', async () => {
    process.env.STRATEGIUM_FAULTY_THROW = 'T#4';
    const dir = join(tmp, 'throws');
    const o = await runBatch(spec(), { outDir: dir, pool });
    expect(o.stats.games).toBe(GAMES - 2);
    expect(o.stats.failed.map((f) => [f.index, f.seed, f.swapped])).toEqual([[4, 'T#4', false], [5, 'T#4', true]]);
    expect(o.stats.failed[0].error).toMatch(/told to fail on seed T#4/);
    const recs = byIndex(dir);
    const refs = byIndex(refDir);
    // where in the agent it threw: named in the error, and the record's stack is the agent's, not the engine's call to it
    expect(o.stats.failed[0].error).toMatch(/told to fail on seed T#4 \(at \S*test\/sim\/fixtures\/faulty-agent\.ts:29:\d+\)$/);
    expect(recs.get(4)!.stack!.split('\n')[1]).toMatch(/faulty-agent\.ts:29:\d+/);
    for (let i = 0; i < GAMES; i++) if (i !== 4 && i !== 5) same(recs.get(i), refs.get(i));
    const res = results(dir) as { stats: { failed: { replay: string }[] } };
    expect(res.stats.failed[0].replay).toContain(`batch-game ${dir} 4`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('told to fail on seed T#4');
  });

  it('a batch of which every game failed reports that nothing was measured: no rates, means or intervals', async () => {
    process.env.STRATEGIUM_FAULTY_THROW = 'T#0|T#2';
    const o = await runBatch(spec({ games: 4 }), { workers: 0 });
    expect([o.stats.games, o.stats.failed.length]).toEqual([0, 4]);
    const json = batchJson(o);
    expect([json.games, json.winRate, json.meanVp, json.failed]).toEqual([0, [null, null], [null, null], 4]);
    const text = formatBatchSummary(o);
    expect(text).toContain('no game finished: every game failed, so there is nothing to report but the failures');
    expect(text).not.toMatch(/VP mean|VP margin|wins \(95% CI\)/);
    expect(text).toContain('4 failed games:\n');
    expect(renderBatchHtml(o).includes('No game finished: every game failed (4), so nothing was measured.'), 'report.html says nothing was measured').toBe(true);
    // and the command says so on stderr, exit code 1
    const stderr: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((t: string) => { stderr.push(t); return true; }) as typeof process.stderr.write;
    try {
      everyGameFailed(o);
    } finally {
      process.stderr.write = write;
    }
    expect([stderr.join(''), process.exitCode]).toEqual(['error: every game of the batch failed (4): nothing was measured\n', 1]);
    process.exitCode = undefined;
  });

  it('replaces a worker that dies and plays its block again', async () => {
    const markers = mkdtempSync(join(tmp, 'markers-'));
    process.env.STRATEGIUM_FAULTY_DIR = markers;
    process.env.STRATEGIUM_FAULTY_EXIT = 'T#4|T#12';
    const dir = join(tmp, 'dies-once');
    const o = await runBatch(spec(), { outDir: dir, pool });
    expect(readdirSync(markers).length).toBe(2);
    expect(o.stats.failed).toEqual([]);
    expect(gamesFile(dir)).toBe(gamesFile(refDir));
  });

  it('records a game that kills its worker every time as failed', async () => {
    process.env.STRATEGIUM_FAULTY_EXIT_ALWAYS = 'T#8';
    const dir = join(tmp, 'dies-always');
    const o = await runBatch(spec(), { outDir: dir, pool });
    expect(o.stats.failed.map((f) => f.index)).toEqual([8, 9]);
    expect(o.stats.failed[0].error).toMatch(/worker died/);
    const recs = byIndex(dir);
    const refs = byIndex(refDir);
    for (let i = 0; i < GAMES; i++) if (i !== 8 && i !== 9) same(recs.get(i), refs.get(i));
  });
});

describe('a scenario whose armies cannot be set up', () => {
  it('stops the batch before its first game with the scenario error, and writes no folder', async () => {
    // impassable terrain filling player 2's zone (x 42-60): no army fits
    const sc = batchScenario();
    sc.board.terrain = [...sc.board.terrain, { id: 'wall', kind: 'impassable', height: 5, polygon: [{ x: 42, y: 0 }, { x: 60, y: 0 }, { x: 60, y: 44 }, { x: 42, y: 44 }] }];
    const dir = join(tmp, 'no-room');
    const run = runBatch(batchSpec({ scenario: sc, games: 8 }), { outDir: dir, workers: 0 });
    await expect(run).rejects.toThrow(DataError);
    await expect(run).rejects.toThrow(/^mini: mission\.deployment, terrain, players\[1\]\.army: cannot deploy .* \(expected a zone, less its terrain, with room for each unit\)$/);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('sequential stopping', () => {
  it('stops at the same block boundary whatever the number of workers', async () => {
    const s = spec({ games: 400, untilCi: 0.2, blockSize: 8 });
    const a = await runBatch(s, { workers: 0 });
    const b = await runBatch(s, { pool });
    expect(a.stoppedAt).not.toBeNull();
    expect(a.stoppedAt! % 8).toBe(0);
    expect(a.stoppedAt).toBeLessThan(400);
    expect(b.stoppedAt).toBe(a.stoppedAt);
    expect(b.stats).toEqual(a.stats);
    const w = a.stats.armies[0].wins;
    expect((w.ci95[1] - w.ci95[0]) / 2).toBeLessThanOrEqual(0.2);
    expect(a.stats.games + a.stats.failed.length).toBe(a.stoppedAt);
  });

  it('says so when the interval never narrowed that far in the games it had (summary and report)', async () => {
    const o = await runBatch(spec({ games: 8, untilCi: 0.01, blockSize: 4 }), { workers: 0 });
    expect([o.stoppedAt, o.complete, o.stats.games]).toEqual([null, true, 8]);
    const half = ((o.stats.armies[0].wins.ci95[1] - o.stats.armies[0].wins.ci95[0]) / 2).toFixed(3);
    const line = `--until-ci 0.01: not reached in 8 games (army 1's win-rate 95% interval half-width is ${half}); play more games for it`;
    expect(formatBatchSummary(o)).toContain(`\n${line}\n`);
    expect(renderBatchHtml(o).includes(`<p>${escapeHtml(line)}.</p>`), 'report.html says the target was not reached').toBe(true);
    // a batch that stopped says where, and nothing of a target missed
    const stopped = await runBatch(spec({ games: 400, untilCi: 0.2, blockSize: 8 }), { workers: 0 });
    expect(formatBatchSummary(stopped)).not.toContain('not reached');
  });
});

describe('a batch of one game', () => {
  it('gives no interval of a mean (no spread to measure), in the summary and the report alike', async () => {
    const o = await runBatch(spec({ games: 1, swap: false, blockSize: 1 }), { workers: 0 });
    expect(o.stats.margin.meanCi95).toBeNull();
    expect(formatBatchSummary(o)).toMatch(/VP margin \(.*\): mean -?\d+\.\d \[no interval from one game\], sd/);
    expect(renderBatchHtml(o).includes('<td>[no interval from one game]</td>'), 'report.html').toBe(true);
  });
});

describe('the commands a report prints', () => {
  it('quote a seed the shell would read otherwise (a leading # starts a comment)', () => {
    const s = spec();
    expect(playCommand({ ...s, scenarioFile: 'sc.json' }, '#run#0', false)).toBe("npx tsx src/cli.ts play sc.json --seed '#run#0' --agents " + shellQuote(s.agents.join(',')));
    expect(shellQuote('run#0')).toBe('run#0');
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
