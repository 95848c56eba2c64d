/**
 * The batch target's memory row: RSS over a long batch of the small scenario on 2 workers with an output
 * folder, as the CLI runs it (the runner in this process, its workers included in the RSS): games/s, the peak
 * (sampled every 50 ms) and the RSS at each tenth of the games. Run under `/usr/bin/time -v` for the kernel's
 * peak as well: `/usr/bin/time -v npx tsx bench/long-batch-memory.ts [games=100000]` (~2.5 minutes on 2 cores).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBatch } from '../src/sim/batch.ts';
import { makeSpec } from '../src/sim/variants.ts';
import { miniScenario } from '../test/helpers/mini-scenario.ts';
const games = Number(process.argv[2] ?? 100000);
const sc = miniScenario({ rounds: 3, tau: ['Strike Team', 'Crisis Sunforge Battlesuits', 'Cadre Fireblade'], aeldari: ['Guardian Defenders', 'Windriders', 'Autarch'] });
const dir = mkdtempSync(join(tmpdir(), 'strategium-mem-'));
let peak = 0; const tenth: number[] = [];
const t = performance.now();
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
await runBatch(makeSpec({ scenario: sc, scenarioFile: null, agents: ['random', 'random'], batchSeed: 'mem', games, blockSize: 10 }), {
  workers: 2, outDir: join(dir, 'b'),
  onProgress: (p) => { const r = process.memoryUsage().rss; peak = Math.max(peak, r); const k = Math.floor((p.done * 10) / games); if (k >= 1 && !tenth[k - 1]) tenth[k - 1] = r; },
});
clearInterval(timer);
rmSync(dir, { recursive: true, force: true });
console.log('games', games, 'games/s', (games / ((performance.now() - t) / 1000)).toFixed(0), 'peak MB', (peak / 2 ** 20).toFixed(0), 'tenths', tenth.map((v) => (v / 2 ** 20).toFixed(0)).join(' '));
