/**
 * The batch runner: games per second with 1 and 2 worker threads (default scenario, random and heuristic agents) and
 * their ratio; the process's memory (RSS, worker threads included) over a long batch of the small
 * scenario, to show it does not grow with the number of games.
 * Run directly: npx tsx bench/batch.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SCENARIOS_DIR, loadScenario } from '../src/data/scenario.ts';
import type { ResolvedScenario } from '../src/data/scenario-types.ts';
import { runBatch, variantOf } from '../src/sim/batch.ts';
import { createGamePool } from '../src/sim/batch-pool.ts';
import { makeSpec } from '../src/sim/variants.ts';
import { miniScenario } from '../test/helpers/mini-scenario.ts';

export interface BenchRow { name: string; value: number; unit: string }

const spec = (scenario: ResolvedScenario, games: number, seed: string, blockSize = 10, agent = 'random') =>
  makeSpec({ scenario, scenarioFile: null, agents: [agent, agent], batchSeed: seed, games, blockSize });

/**
 * Games per second with 1 and with 2 worker threads, and their ratio, on the same games.
 * Each worker thread is its own V8 isolate and compiles the engine's code for itself: over its first ~50
 * games of the default scenario a thread keeps ~1.5 cores busy (V8's compiler and collector threads),
 * later ~1.1, and on 2 cores that start-up starves a second worker. Timing after a few warm-up games
 * measured that start-up, not a long batch (48 games: 1.17x from the second worker; 1,200 games: 1.88x),
 * so each thread is warmed first. This machine's speed also drifts by 20-30% within minutes, which moved
 * a ratio timed as one run of 1 worker then one of 2 by as much: both pools are kept warm and the same
 * blocks of games are timed on each in turn, round after round; the ratio is the median of the rounds'
 * ratios (games per second are over all rounds). Small blocks, so that the two workers finish together
 * (games vary a lot in length).
 */
async function pairedThroughput(scenario: ResolvedScenario, games: number, rounds: number, warmPerWorker: number, blockSize = 2, agent = 'random'): Promise<Paired> {
  const pools = [1, 2].map((w) => createGamePool(w, { batch: variantOf(spec(scenario, 2, 'x', 10, agent)) }));
  try {
    for (let i = 0; i < 2; i++) await runBatch(spec(scenario, warmPerWorker * (i + 1), 'warm', 2, agent), { pool: pools[i] });
    const secs = [0, 0];
    // CPU of the whole process (every thread: the runner, the workers, V8's compiler and collector threads)
    const cpuSecs = [0, 0];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t: number[] = [];
      // the same games on both pools; which pool goes first alternates, so drift within a round cancels too
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const cpu0 = process.cpuUsage();
        const start = performance.now();
        await runBatch(spec(scenario, games, `bench-${r}`, blockSize, agent), { pool: pools[i] });
        t[i] = (performance.now() - start) / 1000;
        const cpu = process.cpuUsage(cpu0);
        cpuSecs[i] += (cpu.user + cpu.system) / 1e6;
        secs[i] += t[i];
      }
      ratios.push(t[0] / t[1]);
    }
    ratios.sort((a, b) => a - b);
    const mid = Math.floor(rounds / 2);
    const ratio = rounds % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
    return {
      one: (games * rounds) / secs[0], two: (games * rounds) / secs[1], ratio, low: ratios[0], high: ratios[rounds - 1],
      cores: [cpuSecs[0] / secs[0], cpuSecs[1] / secs[1]],
      cpuPerGame: [(cpuSecs[0] * 1000) / (games * rounds), (cpuSecs[1] * 1000) / (games * rounds)],
    };
  } finally {
    await Promise.all(pools.map((p) => p.destroy()));
  }
}

interface Paired {
  one: number;
  two: number;
  ratio: number;
  low: number;
  high: number;
  /** cores the process kept busy while 1 worker played, and while 2 did */
  cores: [number, number];
  /** CPU milliseconds a game cost, with 1 worker and with 2 */
  cpuPerGame: [number, number];
}

/**
 * CPU the machine gives two busy threads for a second (up to 2 cores): the ceiling of the 2-worker ratio
 * when other processes share the cores.
 */
async function coresForTwoThreads(): Promise<number> {
  const code = `const t = Date.now(); let x = 0; while (Date.now() - t < 1000) x += Math.sqrt(x + 1); require('node:worker_threads').parentPort.postMessage(x);`;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  await Promise.all([0, 1].map(() => new Promise((res) => new Worker(code, { eval: true }).once('message', res))));
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / (performance.now() - start);
}

const MB = 1024 * 1024;

/** RSS over a long batch: at a quarter, at the end, and the peak. */
async function memory(games: number): Promise<BenchRow[]> {
  const sc = miniScenario({ rounds: 3, tau: ['Strike Team', 'Crisis Sunforge Battlesuits', 'Cadre Fireblade'], aeldari: ['Guardian Defenders', 'Windriders', 'Autarch'] });
  const dir = mkdtempSync(join(tmpdir(), 'strategium-bench-'));
  let peak = 0;
  const at: number[] = [0, 0, 0, 0];
  let heapQuarter = 0;
  let heapEnd = 0;
  const sample = () => { peak = Math.max(peak, process.memoryUsage().rss); };
  const timer = setInterval(sample, 50);
  const start = performance.now();
  try {
    await runBatch(spec(sc, games, 'rss'), {
      workers: 2, outDir: join(dir, 'b'),
      onProgress: (p) => {
        sample();
        for (let q = 0; q < 4; q++) if (!at[q] && p.done >= (games * (q + 1)) / 4) at[q] = process.memoryUsage().rss;
        if (!heapQuarter && p.done >= games / 4) heapQuarter = process.memoryUsage().heapUsed;
        if (p.done === games) heapEnd = process.memoryUsage().heapUsed;
      },
    });
  } finally {
    clearInterval(timer);
    rmSync(dir, { recursive: true, force: true });
  }
  const secs = (performance.now() - start) / 1000;
  return [
    { name: `batch: small scenario, ${games} games on 2 workers with --out (incl. startup)`, value: games / secs, unit: 'games/s' },
    ...at.map((v, q) => ({ name: `batch: RSS (process, worker threads included) after ${q + 1}/4 of the games`, value: v / MB, unit: 'MB' })),
    { name: 'batch: peak RSS', value: peak / MB, unit: 'MB' },
    { name: 'batch: RSS growth from 1/4 of the games to the end', value: (at[3] - at[0]) / MB, unit: 'MB' },
    { name: 'batch: main thread heap used, 1/4 of the games -> the end', value: (heapEnd - heapQuarter) / MB, unit: 'MB' },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const sc = loadScenario(join(SCENARIOS_DIR, 'kauyon-vs-battle-host.json'));
  const random = await pairedThroughput(sc, 40, 6, 40);
  // heuristic games take ~0.4 s and vary a lot: 48 of them timed once gave ratios from 1.41x to 1.91x
  const heuristic = await pairedThroughput(sc, 16, 8, 24, 2, 'heuristic');
  const small = miniScenario({ rounds: 3, tau: ['Strike Team', 'Crisis Sunforge Battlesuits', 'Cadre Fireblade'], aeldari: ['Guardian Defenders', 'Windriders', 'Autarch'] });
  const smallRun = await pairedThroughput(small, 600, 6, 200, 24);
  // The ratio is (cores busy with 2 workers / with 1) / (CPU a game costs with 2 / with 1): one worker alone
  // already keeps more than a core busy (V8 compiles and collects on other threads), which a second worker
  // then competes for, and a game may cost more CPU when two run at once (shared caches).
  const rows = (label: string, what: string, m: Paired): BenchRow[] => [
    { name: `batch: ${label}, 1 worker`, value: m.one, unit: 'games/s' },
    { name: `batch: ${label}, 2 workers`, value: m.two, unit: 'games/s' },
    { name: `batch: 2 workers / 1 worker, median of rounds (${what})`, value: m.ratio, unit: 'x' },
    { name: `batch: 2 workers / 1 worker, lowest and highest round (${label})`, value: m.low, unit: `x to ${m.high.toFixed(2)} x` },
    { name: `batch: cores busy (all threads), 1 worker -> 2 workers (${label})`, value: m.cores[0], unit: `-> ${m.cores[1].toFixed(2)}` },
    { name: `batch: CPU a game costs, 1 worker -> 2 workers (${label})`, value: m.cpuPerGame[0], unit: `-> ${m.cpuPerGame[1].toFixed(1)} ms` },
  ];
  return [
    ...rows('default scenario, random agents', 'default scenario, random, 6 rounds of 40 games, after 40 per worker', random),
    ...rows('default scenario, heuristic agents', 'default scenario, heuristic, 8 rounds of 16 games, after 24 per worker', heuristic),
    ...rows('small scenario, random agents', 'small scenario, 6 rounds of 600 games, after 200 per worker', smallRun),
    { name: 'batch: CPU the machine gives 2 busy threads now (the ceiling of that ratio)', value: await coresForTwoThreads(), unit: 'cores' },
    ...(await memory(2000)),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) console.log(`${r.name.padEnd(80)} ${r.value.toFixed(2).padStart(12)} ${r.unit}`);
}
