/**
 * Where a batch's games are played: a piscina pool of worker threads (reused for every block, and for
 * every cell of a matrix), or this thread (`workers: 0`, for debugging and single-thread benches).
 * Either way a block of game numbers goes in and each game's record comes out as soon as it is played.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, SHARE_ENV } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { GameRecord } from './batch-types.ts';
import { playBatchGame, prepareVariant, type PreparedVariant, type Variant } from './batch-game.ts';
import type { BlockTask } from './batch-worker.ts';

/**
 * The pool cannot play at all: its threads fail to start (a module that does not load) or the batch's
 * agents or scenario cannot be set up. The runner stops at once instead of retrying.
 */
export class PoolBrokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolBrokenError';
  }
}

/** Prefix of the message of a worker task that failed before playing (see batch-worker.ts). */
export const SETUP_FAILED = 'batch setup failed: ';

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

/** A pool of `workers` threads, each given the variants once. */
export function createGamePool(workers: number, variants: Record<string, Variant>): GamePool {
  if (workers <= 0) return inProcessPool(variants);
  // a plain JS entry that registers tsx in the thread, then imports batch-worker.ts
  const filename = new URL('./batch-worker-boot.mjs', import.meta.url).href;
  const piscina = new Piscina({
    filename,
    // not the parent's flags: tsx's CLI flags do not work in a worker on Node 20 (see batch-worker-boot.mjs)
    execArgv: [],
    minThreads: workers,
    maxThreads: workers,
    // a thread stays for the whole batch: never let it go idle and be torn down between blocks
    idleTimeout: 2 ** 31 - 1,
    // blocks queue on the main thread side of the runner, not here
    concurrentTasksPerWorker: 1,
    workerData: { variants },
    // the threads see the process's environment as it is now, not a copy taken when they started
    env: SHARE_ENV,
  });
  // A thread that fails to start (its module throws) is reported as an 'error' event of the pool, and tasks
  // sent after that may wait forever: before any task has succeeded, that breaks the pool.
  let broken: PoolBrokenError | null = null;
  let succeeded = false;
  const waiting = new Set<(e: Error) => void>();
  piscina.on('error', (err: Error) => {
    if (succeeded || broken) return;
    broken = new PoolBrokenError(`the batch's worker threads fail to start: ${err?.message ?? err}`);
    for (const reject of waiting) reject(broken);
  });
  return {
    workers,
    async run(variant, batchSeed, swap, indices, onRecord) {
      if (broken) throw broken;
      const { port1, port2 } = new MessageChannel();
      const expected = new Set(indices);
      let allIn: () => void = () => {};
      const arrived = new Promise<void>((resolve) => { allIn = resolve; });
      port1.on('message', (r: GameRecord) => {
        onRecord(r);
        expected.delete(r.index);
        if (expected.size === 0) allIn();
      });
      let reject: (e: Error) => void = () => {};
      const breaks = new Promise<never>((_, rej) => { reject = rej; });
      waiting.add(reject);
      try {
        const task: BlockTask = { variant, batchSeed, swap, indices, port: port2 };
        try {
          await Promise.race([piscina.run(task, { transferList: [port2] as never }), breaks]);
        } catch (err) {
          const msg = (err as Error)?.message ?? '';
          if (msg.startsWith(SETUP_FAILED)) throw new PoolBrokenError(msg);
          throw err;
        }
        succeeded = true;
        // the records and the task's value travel on different ports: wait for the last record
        await Promise.race([arrived, breaks]);
      } finally {
        waiting.delete(reject);
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
        if (!v) throw new PoolBrokenError(`unknown variant ${variant}`);
        p = prepareVariant(v).catch((err: Error) => { throw new PoolBrokenError(`${SETUP_FAILED}${err?.message ?? err}`); });
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
