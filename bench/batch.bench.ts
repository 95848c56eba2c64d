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
 * Games per second of a pool of `workers` threads, after `warmPerWorker` warm-up games on each thread.
 * Each worker thread is its own V8 isolate and compiles the engine's code for itself: over its first ~50
 * games of the default scenario a thread keeps ~1.5 cores busy (V8's compiler and collector threads),
 * later ~1.1, and on 2 cores that start-up starves a second worker. Timing after a few warm-up games
 * measured that start-up, not a long batch (48 games: 1.17x from the second worker; 1,200 games: 1.88x),
 * so each thread is warmed first. Small blocks, so that the two workers finish together (games vary a lot
 * in length).
 */
async function throughput(scenario: ResolvedScenario, workers: number, games: number, warmPerWorker: number, blockSize = 2, agent = 'random'): Promise<number> {
  const pool = createGamePool(workers, { batch: variantOf(spec(scenario, 2, 'x', 10, agent)) });
  try {
    await runBatch(spec(scenario, warmPerWorker * workers, 'warm', 2, agent), { pool });
    const start = performance.now();
    await runBatch(spec(scenario, games, 'bench', blockSize, agent), { pool });
    return games / ((performance.now() - start) / 1000);
  } finally {
    await pool.destroy();
  }
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
  // the same games with 1 and 2 workers (game lengths vary a lot: different games would skew the ratio)
  const sc = loadScenario(join(SCENARIOS_DIR, 'kauyon-vs-battle-host.json'));
  const one = await throughput(sc, 1, 240, 40);
  const two = await throughput(sc, 2, 240, 40);
  // heuristic games take ~0.7 s and vary a lot: 48 of them gave ratios from 1.41x to 1.91x, 200 gave 1.62x-1.70x
  const hOne = await throughput(sc, 1, 120, 24, 2, 'heuristic');
  const hTwo = await throughput(sc, 2, 120, 24, 2, 'heuristic');
  const small = miniScenario({ rounds: 3, tau: ['Strike Team', 'Crisis Sunforge Battlesuits', 'Cadre Fireblade'], aeldari: ['Guardian Defenders', 'Windriders', 'Autarch'] });
  const smallOne = await throughput(small, 1, 1200, 200, 24);
  const smallTwo = await throughput(small, 2, 1200, 200, 24);
  return [
    { name: 'batch: default scenario, random agents, 1 worker', value: one, unit: 'games/s' },
    { name: 'batch: default scenario, random agents, 2 workers', value: two, unit: 'games/s' },
    { name: 'batch: 2 workers / 1 worker (default scenario, random, 240 games after 40 per worker)', value: two / one, unit: 'x' },
    { name: 'batch: default scenario, heuristic agents, 1 worker', value: hOne, unit: 'games/s' },
    { name: 'batch: default scenario, heuristic agents, 2 workers', value: hTwo, unit: 'games/s' },
    { name: 'batch: 2 workers / 1 worker (default scenario, heuristic, 120 games after 24 per worker)', value: hTwo / hOne, unit: 'x' },
    { name: 'batch: small scenario, random agents, 1 worker', value: smallOne, unit: 'games/s' },
    { name: 'batch: small scenario, random agents, 2 workers', value: smallTwo, unit: 'games/s' },
    { name: 'batch: 2 workers / 1 worker (small scenario, 1,200 games after 200 per worker)', value: smallTwo / smallOne, unit: 'x' },
    { name: 'batch: CPU the machine gives 2 busy threads now (the ceiling of that ratio)', value: await coresForTwoThreads(), unit: 'cores' },
    ...(await memory(2000)),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) console.log(`${r.name.padEnd(80)} ${r.value.toFixed(2).padStart(12)} ${r.unit}`);
}
