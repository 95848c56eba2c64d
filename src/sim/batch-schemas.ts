/**
 * The shapes of a batch folder's files (./batch-types.ts): batch.json's spec and each games.jsonl record,
 * checked as a folder is read (resume, merge, compare, batch-game, replay --from-batch): a file edited or
 * damaged by hand is refused naming its field (and line), instead of failing somewhere in the statistics.
 */
import { z } from 'zod';
import { fieldPath } from '../data/army.ts';
import { BATCH_FORMAT, type BatchSpec, type GameRecord } from './batch-types.ts';

const count = z.number().int().nonnegative();
const byArmy = <T extends z.ZodType>(t: T) => z.tuple([t, t]);
const army = z.union([z.literal(0), z.literal(1)]);

const recordSchema = z.object({
  index: count,
  seed: z.string(),
  swapped: z.boolean(),
  winner: army.nullable(),
  vp: byArmy(z.number()),
  vpByRound: byArmy(z.array(z.number())),
  rounds: count,
  endedBy: z.string(),
  first: army.nullable(),
  cpGained: byArmy(z.number()),
  cpSpent: byArmy(z.number()),
  stratagems: byArmy(z.record(z.string(), z.tuple([count, z.number()]))),
  offered: byArmy(z.array(z.string())).optional(),
  units: byArmy(z.array(z.tuple([z.number(), z.number(), z.number(), z.number()]))),
  events: count,
  error: z.string().optional(),
  stack: z.string().optional(),
});

/** The value when it has the schema's shape, or an error message naming its first wrong field. */
function checkShape<T>(schema: z.ZodType, value: unknown): { value: T } | { error: string } {
  const r = schema.safeParse(value);
  if (r.success) return { value: value as T };
  const issue = r.error.issues[0];
  return { error: `${fieldPath(issue.path)}: ${issue.message}` };
}

/** A games.jsonl record, or an error message naming the first wrong field. */
export const checkRecord = (value: unknown) => checkShape<GameRecord>(recordSchema, value);

const specSchema = z.object({
  format: z.literal(BATCH_FORMAT),
  scenarioFile: z.string().nullable(),
  // the resolved scenario as the batch played it (read in full by the games themselves)
  scenario: z.object({ file: z.string(), name: z.string(), players: z.array(z.object({ name: z.string(), army: z.object({}).loose() }).loose()).length(2) }).loose(),
  agents: byArmy(z.string()),
  batchSeed: z.string(),
  games: z.number().int().min(1),
  swap: z.boolean(),
  blockSize: z.number().int().min(1),
  untilCi: z.number().nullable(),
  shard: z.object({ k: z.number().int().min(1), n: z.number().int().min(1) }).nullable(),
}).loose();

/** A batch.json spec, or an error message naming the first wrong field. */
export const checkSpecShape = (value: unknown) => checkShape<BatchSpec>(specSchema, value);
