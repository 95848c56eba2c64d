/**
 * Where a batch's games are played: a piscina pool of worker threads (reused for every block, and for
 * every cell of a matrix), or this thread (`workers: 0`, for debugging and single-thread benches).
 * Either way a block of game numbers goes in and each game's record comes out as soon as it is played.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { GameRecord } from './batch-types.ts';
import { playBatchGame, prepareVariant, type PreparedVariant, type Variant } from './batch-game.ts';
import type { BlockTask } from './batch-worker.ts';

export function defaultWorkers(): number {
  return availableParallelism();
}

export interface GamePool {
  readonly workers: number;
  /**
   * Play the games `indices` of a variant; `onRecord` gets each record as it arrives. Rejects when the
   * worker died before finishing the block (some records may have arrived already).
   */
  run(variant: string, batchSeed: string, swap: boolean, indices: number[], onRecord: (r: GameRecord) => void): Promise<void>;
  destroy(): Promise<void>;
}

/** The `--import` flag that lets a worker thread load TypeScript modules (tsx's loader, by absolute URL). */
export function tsxExecArgv(): string[] {
  const require = createRequire(import.meta.url);
  return ['--import', pathToFileURL(require.resolve('tsx')).href];
}

/** A pool of `workers` threads, each given the variants once. */
export function createGamePool(workers: number, variants: Record<string, Variant>): GamePool {
  if (workers <= 0) return inProcessPool(variants);
  const filename = new URL('./batch-worker.ts', import.meta.url).href;
  const piscina = new Piscina({
    filename,
    execArgv: tsxExecArgv(),
    minThreads: workers,
    maxThreads: workers,
    // a thread stays for the whole batch: never let it go idle and be torn down between blocks
    idleTimeout: 2 ** 31 - 1,
    // blocks queue on the main thread side of the runner, not here
    concurrentTasksPerWorker: 1,
    workerData: { variants },
  });
  return {
    workers,
    async run(variant, batchSeed, swap, indices, onRecord) {
      const { port1, port2 } = new MessageChannel();
      const expected = new Set(indices);
      let allIn: () => void = () => {};
      const arrived = new Promise<void>((resolve) => { allIn = resolve; });
      port1.on('message', (r: GameRecord) => {
        onRecord(r);
        expected.delete(r.index);
        if (expected.size === 0) allIn();
      });
      try {
        const task: BlockTask = { variant, batchSeed, swap, indices, port: port2 };
        await piscina.run(task, { transferList: [port2] as never });
        // the records and the task's value travel on different ports: wait for the last record
        await arrived;
      } finally {
        port1.close();
      }
    },
    async destroy() {
      await piscina.destroy();
    },
  };
}

function inProcessPool(variants: Record<string, Variant>): GamePool {
  const prepared = new Map<string, Promise<PreparedVariant>>();
  return {
    workers: 0,
    async run(variant, batchSeed, swap, indices, onRecord) {
      let p = prepared.get(variant);
      if (!p) {
        const v = variants[variant];
        if (!v) throw new Error(`unknown variant ${variant}`);
        p = prepareVariant(v);
        prepared.set(variant, p);
      }
      const pv = await p;
      for (const i of indices) {
        onRecord(playBatchGame(pv, batchSeed, i, swap));
        // let the progress bar and signals through between games
        await new Promise<void>((r) => setImmediate(r));
      }
    },
    async destroy() {},
  };
}
