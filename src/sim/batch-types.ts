/**
 * The plain-JSON shapes of a batch: its spec (batch.json, everything needed to continue it or to
 * regenerate any of its games) and one compact record per game (a line of games.jsonl).
 *
 * Everything is by ARMY, not by seat: army 0 is the scenario's player 1 army, army 1 its player 2 army,
 * whichever side of the table each played in a given game (see `swapped`).
 */
import type { ResolvedScenario } from '../data/scenario-types.ts';

export const BATCH_FORMAT = 'strategium-batch/1';

export interface BatchSpec {
  format: typeof BATCH_FORMAT;
  /** absolute path of the scenario file the batch was started from (null: built in memory, e.g. tests) */
  scenarioFile: string | null;
  /** the scenario as played in the unswapped games: player 1's army first, detachments as played */
  scenario: ResolvedScenario;
  /** agent of each army (a built-in name, or an absolute path to an agent module) */
  agents: [string, string];
  /** batch seed: game i is seeded with gameSeed(batchSeed, i) (i - i % 2 with swap) */
  batchSeed: string;
  /** game numbers 0 .. games-1 (the most that will be played with untilCi) */
  games: number;
  /** side-swapped pairs: game 2k+1 replays game 2k's seed with the armies' sides swapped */
  swap: boolean;
  /** games per worker task; also the step of the sequential stopping rule */
  blockSize: number;
  /** stop at the first block boundary where army 1's win-rate 95% interval half-width is at most this */
  untilCi: number | null;
  /** this run plays the k-th (1-based) of n disjoint slices of the game numbers */
  shard: { k: number; n: number } | null;
  /** the detachments given on the command line instead of the scenario file's (null = no detachment) */
  detachments?: [string | null, string | null];
  /** the armies given on the command line instead of the scenario file's (their paths; null = the scenario's) */
  armies?: [string | null, string | null];
  /** the army-list exports among `armies` were fitted to the datasheets (--fit-wargear) */
  fitWargear?: true;
  /** the stratagems forbidden on the command line (--without-stratagem), per army; the scenario holds them all */
  withoutStratagems?: [string[], string[]];
  /** free text (the matrix cell) */
  label?: string;
}

/** Per army unit, in the order of the army list: [wounds dealt, wounds taken, models killed, survived 0|1]. */
export type UnitRecord = [number, number, number, number];

export interface GameRecord {
  /** game number in the batch */
  index: number;
  /** the game's seed: `play --seed` with it (and the sides swapped when `swapped`) regenerates the game */
  seed: string;
  /** the armies played each other's side: the scenario's player 2 army sat as player 1 */
  swapped: boolean;
  /** winning army (0 = the scenario's player 1 army), null for a draw or a failed game */
  winner: 0 | 1 | null;
  /** by army */
  vp: [number, number];
  vpByRound: [number[], number[]];
  rounds: number;
  endedBy: string;
  /** army that took the first turn */
  first: 0 | 1 | null;
  cpGained: [number, number];
  cpSpent: [number, number];
  /** by army: stratagem name -> [times used, CP spent on it] */
  stratagems: [Record<string, [number, number]>, Record<string, [number, number]>];
  /**
   * by army: the names of the stratagems offered to it in the game (sorted), used or not. Absent in the
   * records of batches played before it was kept.
   */
  offered?: [string[], string[]];
  /** by army, in army-list order */
  units: [UnitRecord[], UnitRecord[]];
  /** events the game took, its decisions left out (a batch records none; its log, `batch-game --log`, holds one event more for each) */
  events: number;
  /** set when the game threw (or its worker died every time it was tried): the rest is empty */
  error?: string;
  /** the first lines of the error's stack */
  stack?: string;
}
