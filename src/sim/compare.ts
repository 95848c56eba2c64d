/**
 * Two batches compared game by game: how much better an army does in batch A than in batch B (another
 * detachment, another list, another agent), with an interval for the difference itself.
 *
 * Both batches must be played on the same seeds (the same batch seed and side swapping): game i of A and
 * game i of B then share their deployment, first-turn roll and dice stream until their play diverges
 * (common random numbers), so their outcomes are correlated and the difference is measured on each seed
 * and averaged. The unit compared is what shares a seed: a side-swapped pair of games (2k, 2k + 1) with
 * swapping, one game without. A unit counts only when all its games are recorded, and none failed, in
 * both batches. The intervals are those of a mean of paired differences (src/sim/stats.ts meanDifference, as
 * the batch's own pair-by-pair difference, src/sim/aggregate.ts): the win rate's Agresti and Min's for matched
 * proportions, the VP margin's Student's with a pseudo-pair at ± the spread of a game's VP margin (the two
 * batches' games pooled); valid whatever the correlation, and narrower than two separate
 * intervals would give when the shared seeds make the batches agree. On batches whose every game agrees
 * unless the difference tips it (the model of test/sim/compare.test.ts, 4,000 replications a size) the win
 * rate's covered 96% with 100 pairs and all of them with 10 (it errs wide on so few differences); the
 * normal interval it replaces covered 94% with 100 pairs, 87% with 25.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FILES, readRecords, readSpec, runBatch, type BatchOutcome, type BatchRunOptions, type Progress } from './batch.ts';
import type { GamePool } from './batch-pool.ts';
import { opponent } from '../core/state.ts';
import { pairDifferenceText } from './batch-report.ts';
import type { BatchSpec, GameRecord } from './batch-types.ts';
import { Histogram, meanDifference, pooledSd, type Difference } from './stats.ts';

/**
 * One batch of several to be compared seed by seed (a matrix's cells, worth's batches): played on a shared
 * pool under its variant key, into `folder` when given (a folder holding this batch already, left by a stopped
 * run, is continued; one holding another batch is refused), with the outcome of each game kept for
 * pairedComparison. `more`: records known without playing (runBatch's `known`), and each record as counted.
 */
export async function playLogged(pool: GamePool, key: string, spec: BatchSpec, folder: string | null, onProgress?: (p: Progress) => void, more: Pick<BatchRunOptions, 'known' | 'knownPlayed' | 'onRecord'> = {}): Promise<{ outcome: BatchOutcome; log: OutcomeLog }> {
  const resume = folder !== null && existsSync(join(folder, FILES.spec));
  if (resume && JSON.stringify(readSpec(folder!)) !== JSON.stringify(spec)) {
    throw new Error(`${folder} holds another batch (different scenario, seed, games or agents): remove it or choose another --out`);
  }
  const log = new OutcomeLog(spec.games);
  const onRecord = (r: GameRecord) => {
    log.add(r);
    more.onRecord?.(r);
  };
  const outcome = await runBatch(resume ? null : spec, { pool, variantKey: key, outDir: folder, resume, onProgress, onRecord, known: more.known, knownPlayed: more.knownPlayed });
  return { outcome, log };
}

/** Codes of a game in an OutcomeLog's `winner` array. */
const ABSENT = -1;
const DRAW = 2;
const FAILED = 3;

/**
 * The outcomes of a batch's games, compact (a byte and two VP a game), by game number: what a paired
 * comparison needs, kept for every game of a matrix cell without keeping the records. The arrays grow
 * with the games recorded, not with the batch's size (a batch may be far larger than what was played).
 */
export class OutcomeLog {
  private winners = new Int8Array(0);
  private vps = new Int32Array(0);
  /** one more than the highest game number recorded */
  extent = 0;

  constructor(readonly games: number) {}

  add(r: Pick<GameRecord, 'index' | 'winner' | 'vp' | 'error'>): void {
    if (!Number.isInteger(r.index) || r.index < 0 || r.index >= this.games) throw new Error(`game ${r.index} is outside the batch's ${this.games} games`);
    if (r.index >= this.winners.length) this.grow(r.index + 1);
    this.winners[r.index] = r.error !== undefined ? FAILED : r.winner === null ? DRAW : r.winner;
    this.vps[2 * r.index] = r.vp[0];
    this.vps[2 * r.index + 1] = r.vp[1];
    this.extent = Math.max(this.extent, r.index + 1);
  }

  private grow(needed: number): void {
    const size = Math.min(this.games, Math.max(needed, 2 * this.winners.length, 64));
    const winners = new Int8Array(size).fill(ABSENT);
    winners.set(this.winners);
    const vps = new Int32Array(2 * size);
    vps.set(this.vps);
    this.winners = winners;
    this.vps = vps;
  }

  /** the game is recorded and did not fail */
  played(i: number): boolean {
    if (i >= this.extent) return false;
    const w = this.winners[i];
    return w !== ABSENT && w !== FAILED;
  }

  /** the winning army of a played game (null: a draw) */
  winner(i: number): 0 | 1 | null {
    const w = this.winners[i];
    return w === DRAW ? null : (w as 0 | 1);
  }

  /** the army's VP in a played game */
  vp(i: number, army: 0 | 1): number {
    return this.vps[2 * i + army];
  }
}

/** Batch A against batch B for one army, on the units both played. */
export interface PairedComparison {
  /** units compared: side-swapped pairs of games (`unitGames` 2) or single games (1) */
  units: number;
  unitGames: 1 | 2;
  /** units of the shorter batch left out: a game missing or failed in either batch */
  leftOut: number;
  /** the army's win rate in A's and B's games of those units, and A's less B's (-1 to 1) */
  winRate: { a: number; b: number; difference: Difference };
  /** the army's VP less its opponent's, mean per game in A and in B, and A's less B's */
  vpMargin: { a: number; b: number; difference: Difference };
}

/**
 * `army`'s results in batch A less in batch B, seed by seed (see the module comment); null when no unit
 * was played in both. `swap`: both batches played side-swapped pairs.
 */
export function pairedComparison(a: OutcomeLog, b: OutcomeLog, army: 0 | 1, swap: boolean): PairedComparison | null {
  const size = swap ? 2 : 1;
  const games = Math.min(a.games, b.games);
  const totalUnits = Math.floor(games / size);
  // units past either log's last recorded game are not complete in both: left out without a look
  const seen = Math.min(totalUnits, Math.ceil(Math.min(a.extent, b.extent) / size));
  let n = 0;
  const sums = { winA: 0, winB: 0, vpA: 0, vpB: 0 };
  // the differences, seed by seed (multiples of a half: a few values, kept exactly)
  const dWin = new Histogram();
  const dVp = new Histogram();
  // each batch's VP margins game by game: the spread of a game's result, for the VP interval's pseudo-pair
  const margins = [new Histogram(), new Histogram()];
  for (let u = 0; u < seen; u++) {
    const first = u * size;
    let complete = true;
    for (let i = first; i < first + size; i++) if (!a.played(i) || !b.played(i)) complete = false;
    if (!complete) continue;
    let winA = 0;
    let winB = 0;
    let vpA = 0;
    let vpB = 0;
    for (let i = first; i < first + size; i++) {
      winA += a.winner(i) === army ? 1 : 0;
      winB += b.winner(i) === army ? 1 : 0;
      const [marginA, marginB] = [a.vp(i, army) - a.vp(i, opponent(army)), b.vp(i, army) - b.vp(i, opponent(army))];
      vpA += marginA;
      vpB += marginB;
      margins[0].add(marginA);
      margins[1].add(marginB);
    }
    // per game of the unit, so that a unit's value is on the scale of one game
    dWin.add((winA - winB) / size);
    dVp.add((vpA - vpB) / size);
    n++;
    sums.winA += winA / size;
    sums.winB += winB / size;
    sums.vpA += vpA / size;
    sums.vpB += vpB / size;
  }
  if (n === 0) return null;
  return {
    units: n,
    unitGames: size,
    leftOut: totalUnits - n,
    winRate: { a: sums.winA / n, b: sums.winB / n, difference: meanDifference(dWin.distribution(), 1, { bounds: [-1, 1] })! },
    vpMargin: { a: sums.vpA / n, b: sums.vpB / n, difference: meanDifference(dVp.distribution(), 1, { spread: pooledSd(margins[0].distribution(), margins[1].distribution()) })! },
  };
}

/** "+1.8 VP [-0.4, +4.0], z 1.6": a difference of VP margins. */
export function vpText(d: Difference): string {
  const v = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}`;
  return `${v(d.mean)} VP [${v(d.ci95[0])}, ${v(d.ci95[1])}]${d.z === null ? '' : `, z ${d.z.toFixed(1)}`}`;
}

/** One side of a comparison of batch folders: what was played there. */
export interface ComparedBatch {
  dir: string;
  /** by army (the scenario's player 1 army first): name, detachment (null: none) and agent */
  armies: [ComparedArmy, ComparedArmy];
  games: number;
  /** games recorded in the folder */
  recorded: number;
}

/** `faction`: the data's faction id; `withoutStratagems`: what the batch forbade the army (absent when nothing) */
export interface ComparedArmy { name: string; faction: string; detachment: string | null; agent: string; withoutStratagems?: string[] }

export interface BatchComparison {
  a: ComparedBatch;
  b: ComparedBatch;
  /** the army compared: 1 = the scenario's player 1 army, 2 = its player 2 army (as the CLI's --army) */
  army: 1 | 2;
  batchSeed: string;
  swap: boolean;
  comparison: PairedComparison | null;
  /** what makes the comparison doubtful (the army compared is of another faction in B), said on stderr too */
  warnings: string[];
}

/**
 * Batch folders A and B (batch --out) compared for one army, seed by seed. They must share the batch seed
 * and side swapping (else game i of one is not game i of the other); their scenarios, detachments,
 * armies and agents may differ: that is what is compared.
 */
export function compareBatches(dirA: string, dirB: string, army: 0 | 1): BatchComparison {
  const [sa, sb] = [readSpec(dirA), readSpec(dirB)];
  if (sa.batchSeed !== sb.batchSeed) {
    throw new Error(`${dirB}: batch seed "${sb.batchSeed}", not "${sa.batchSeed}" as ${dirA}: their games are not played on the same seeds, so they cannot be compared seed by seed (play both with the same --seed)`);
  }
  if (sa.swap !== sb.swap) {
    throw new Error(`${dirB}: ${sb.swap ? 'side-swapped pairs' : 'no side-swapped pairs (--no-swap)'}, not as ${dirA}: their odd games are not played on the same seeds (play both alike)`);
  }
  const side = (dir: string, spec: BatchSpec): { batch: ComparedBatch; log: OutcomeLog } => {
    const log = new OutcomeLog(spec.games);
    const records = readRecords(dir);
    for (const r of records) {
      try {
        log.add(r);
      } catch (e) {
        throw new Error(`${join(dir, FILES.games)}: ${(e as Error).message} (is it this batch's?)`);
      }
    }
    const armyOf = (i: 0 | 1): ComparedArmy => {
      const p = spec.scenario.players[i];
      return { name: p.name, faction: p.faction, detachment: p.detachment, agent: spec.agents[i], ...(p.withoutStratagems?.length ? { withoutStratagems: p.withoutStratagems } : {}) };
    };
    return { batch: { dir, armies: [armyOf(0), armyOf(1)], games: spec.games, recorded: new Set(records.map((r) => r.index)).size }, log };
  };
  const [a, b] = [side(dirA, sa), side(dirB, sb)];
  return {
    a: a.batch, b: b.batch, army: (army + 1) as 1 | 2, batchSeed: sa.batchSeed, swap: sa.swap,
    comparison: pairedComparison(a.log, b.log, army, sa.swap), warnings: armyWarnings(a.batch, b.batch, army),
  };
}

/**
 * The army compared is the scenario's player n army in both folders; of another faction in B it is most
 * likely a scenario with its players in the other order (then --army compares each army with its opponent).
 * Other lists or detachments of the same faction are what compare is for, and another faction may be meant
 * (which of two does better against the same opponent), so this warns rather than refuses.
 */
function armyWarnings(a: ComparedBatch, b: ComparedBatch, army: 0 | 1): string[] {
  const other = opponent(army);
  const [x, y] = [a.armies[army], b.armies[army]];
  if (x.faction === y.faction) return [];
  const n = army + 1;
  const swapped = x.faction === b.armies[other].faction && y.faction === a.armies[other].faction;
  return [`army ${n} is ${x.name} (${x.faction}) in ${a.dir} but ${y.name} (${y.faction}) in ${b.dir}: ${swapped
    ? `B's scenario has its players in the other order, so this compares each army with its opponent (play B with the players as in A)`
    : `the comparison is of two different factions' results`}`];
}

/** The terminal summary of a comparison of batch folders. */
export function formatComparison(c: BatchComparison): string {
  const side = (label: string, s: ComparedBatch) => {
    const army = (x: ComparedArmy) => `${x.name} [${x.detachment ?? 'no detachment'}, ${x.agent}${x.withoutStratagems ? `, without ${x.withoutStratagems.join(', ')}` : ''}]`;
    return `${label}: ${s.dir}: ${army(s.armies[0])} vs ${army(s.armies[1])}, ${s.recorded} of ${s.games} games recorded`;
  };
  const out = [side('A', c.a), side('B', c.b)];
  const who = `${c.a.armies[c.army - 1].name} (player ${c.army}'s army)`;
  const r = c.comparison;
  if (!r) {
    out.push(`No ${c.swap ? 'side-swapped pair' : 'game'} was played in both (batch seed ${c.batchSeed}): nothing to compare.`);
    return out.join('\n') + '\n';
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const vp = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}`;
  out.push(`Compared seed by seed (batch seed ${c.batchSeed}, ${c.swap ? 'side-swapped pairs' : 'sides fixed'}): ${r.units} ${r.unitGames === 2 ? 'pairs of games' : 'games'}${r.leftOut ? `, ${r.leftOut} left out (a game missing or failed in either batch)` : ''}; differences with 95% intervals.`);
  // the rates of the compared games only (a batch's own report counts all of its games, so may differ)
  out.push(`${who}, in those games: win rate ${pct(r.winRate.a)} in A, ${pct(r.winRate.b)} in B; A less B ${pairDifferenceText(r.winRate.difference)}`);
  out.push(`its VP less its opponent's, a game: ${vp(r.vpMargin.a)} in A, ${vp(r.vpMargin.b)} in B; A less B ${vpText(r.vpMargin.difference)}`);
  return out.join('\n') + '\n';
}
