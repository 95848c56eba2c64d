/**
 * A piscina worker of the batch runner. The pool hands every worker the batch's scenarios once (as
 * workerData); a task is a block of game numbers, whose records are posted one by one on the task's
 * port as the games finish. The task's value is the number of records posted.
 *
 * Runs under tsx: the thread's entry point, batch-worker-boot.mjs, registers tsx and imports this module.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'piscina';
import { playBatchGame, prepareVariant, type PreparedVariant, type Variant } from './batch-game.ts';

/** (the same as SETUP_FAILED in batch-pool.ts, which this thread does not load) */
const SETUP_FAILED = 'batch setup failed: ';

export interface BlockTask {
  /** key into the pool's variants */
  variant: string;
  batchSeed: string;
  swap: boolean;
  indices: number[];
  port: MessagePort;
}

const variants = ((workerData ?? {}) as { variants?: Record<string, Variant> }).variants ?? {};
const prepared = new Map<string, Promise<PreparedVariant>>();

export default async function runBlock(task: BlockTask): Promise<number> {
  let p = prepared.get(task.variant);
  if (!p) {
    const v = variants[task.variant];
    if (!v) throw new Error(`${SETUP_FAILED}unknown variant ${task.variant}`);
    p = prepareVariant(v).catch((err: Error) => { throw new Error(`${SETUP_FAILED}${err?.message ?? err}`); });
    prepared.set(task.variant, p);
  }
  const pv = await p;
  for (const i of task.indices) task.port.postMessage(playBatchGame(pv, task.batchSeed, i, task.swap));
  return task.indices.length;
}
