/**
 * Folding game records into a batch's statistics, by army. Records must come in index order (the
 * runner guarantees it): then the result depends on nothing but the games.
 */
import type { BatchSpec, GameRecord } from './batch-types.ts';
import { Histogram, meanDifference, rate, type Difference, type Distribution, type Interval, type Rate } from './stats.ts';

export interface UnitStats {
  /** army-list unit id */
  id: string;
  name: string;
  points: number;
  /** the Leader units attached to this unit at the start (their damage is counted on this unit while attached) */
  leaders: string[];
  /** set when this unit is a Leader attached to another unit */
  attachedTo: string | null;
  /** means per game */
  woundsDealt: number;
  woundsTaken: number;
  modelsKilled: number;
  /** wounds dealt per 100 points, per game */
  woundsDealtPer100Points: number;
  /** the unit had a model alive at the end of the battle */
  survival: Rate;
}

export interface StratagemStats {
  name: string;
  /** times used in all games */
  uses: number;
  usesPerGame: number;
  /** share of games in which it was used at least once */
  games: Rate;
  /**
   * share of games in which it was offered (a window for it came up with the CP to pay), used or not; null
   * when no game record says (batches played before offers were kept)
   */
  offered: Rate | null;
  cpPerGame: number;
}

export interface ArmyStats {
  name: string;
  faction: string;
  detachment: string | null;
  agent: string;
  wins: Rate;
  losses: Rate;
  vp: Distribution;
  /** mean VP scored in each battle round (index 0 = round 1) */
  vpByRound: number[];
  cpGained: number;
  cpSpent: number;
  /** games in which this army took the first turn, and its wins then */
  firstTurn: { games: number; wins: Rate };
  units: UnitStats[];
  stratagems: StratagemStats[];
}

export interface FailedGame { index: number; seed: string; swapped: boolean; error: string }

export interface BatchStats {
  /** games that finished (failed games are not counted in rates) */
  games: number;
  failed: FailedGame[];
  draws: Rate;
  armies: [ArmyStats, ArmyStats];
  /** VP margin, army 1 minus army 2 */
  margin: Distribution;
  /** wins of the army that sat in player 1's seat (Attacker side unless the scenario says otherwise) */
  seat1Wins: Rate;
  /** wins of the army that took the first turn (whichever it was), of all games: the first-turn advantage */
  firstTurnWins: Rate;
  endedBy: Record<string, number>;
  meanRounds: number;
  meanEvents: number;
  /** with side swapping: outcome of complete pairs (same seed, sides swapped) */
  pairs: PairStats | null;
  /** army 1's win rate as games accumulated: [games, rate, lo, hi] */
  running: [number, number, number, number][];
}

export interface PairStats {
  pairs: number;
  army1Both: number;
  army2Both: number;
  split: number;
  withDraw: number;
  /**
   * Army 1's win rate less army 2's, measured pair by pair: each complete pair's wins of army 1 less
   * army 2's, halved (-1 to 1). Its mean over the complete pairs is the difference of the two win rates
   * in those games; its interval and z come from the spread between pairs, so each pair's shared seed
   * (the same deployment, terrain and dice stream for both sides) cancels: the detachment's effect with
   * first-turn and side bias taken out. null without a complete pair.
   */
  winRateDifference: Difference | null;
}

interface ArmyAcc {
  wins: number;
  vp: Histogram;
  vpByRound: number[];
  cpGained: number;
  cpSpent: number;
  firstGames: number;
  firstWins: number;
  units: number[][];
  stratagems: Map<string, { uses: number; cp: number; games: number; offered: number }>;
  /** games whose record lists the stratagems offered */
  offerGames: number;
}

export class BatchAggregator {
  private n = 0;
  private draws = 0;
  private seat1 = 0;
  private firstWins = 0;
  private rounds = 0;
  private events = 0;
  private readonly failed: FailedGame[] = [];
  private readonly margin = new Histogram();
  private readonly endedBy = new Map<string, number>();
  private readonly armies: [ArmyAcc, ArmyAcc];
  private readonly pairOpen = new Map<number, 0 | 1 | null | 'failed'>();
  private readonly pairs = { pairs: 0, army1Both: 0, army2Both: 0, split: 0, withDraw: 0 };
  /** each complete pair's wins of army 1 less army 2's (-2 to 2) */
  private readonly pairMargins = new Histogram();
  private readonly running: [number, number, number, number][] = [];
  private readonly runningEvery: number;
  private lastIndex = -1;

  constructor(private readonly spec: Pick<BatchSpec, 'scenario' | 'agents' | 'swap' | 'games' | 'blockSize'>) {
    const acc = (i: 0 | 1): ArmyAcc => ({
      wins: 0, vp: new Histogram(), vpByRound: [], cpGained: 0, cpSpent: 0, firstGames: 0, firstWins: 0,
      units: spec.scenario.players[i].army.units.map(() => [0, 0, 0, 0]), stratagems: new Map(), offerGames: 0,
    });
    this.armies = [acc(0), acc(1)];
    // about 400 points on the convergence chart, at block boundaries
    const b = Math.max(1, spec.blockSize);
    this.runningEvery = Math.max(b, Math.ceil(spec.games / 400 / b) * b);
  }

  /** games finished (not failed) so far */
  get count(): number { return this.n; }

  /** army 1's wins so far */
  get army1Wins(): number { return this.armies[0].wins; }

  add(r: GameRecord): void {
    if (r.index <= this.lastIndex) throw new Error(`batch aggregator: game ${r.index} after game ${this.lastIndex} (records must come in index order, once)`);
    this.lastIndex = r.index;
    if (this.spec.swap) this.pair(r);
    if (r.error !== undefined) {
      this.failed.push({ index: r.index, seed: r.seed, swapped: r.swapped, error: r.error });
      return;
    }
    this.n++;
    if (r.winner === null) this.draws++;
    else {
      this.armies[r.winner].wins++;
      if ((r.winner === 0) !== r.swapped) this.seat1++;
      if (r.first === r.winner) this.firstWins++;
    }
    this.margin.add(r.vp[0] - r.vp[1]);
    this.endedBy.set(r.endedBy, (this.endedBy.get(r.endedBy) ?? 0) + 1);
    this.rounds += r.rounds;
    this.events += r.events;
    for (const a of [0, 1] as const) {
      const acc = this.armies[a];
      acc.vp.add(r.vp[a]);
      r.vpByRound[a].forEach((v, k) => { acc.vpByRound[k] = (acc.vpByRound[k] ?? 0) + v; });
      acc.cpGained += r.cpGained[a];
      acc.cpSpent += r.cpSpent[a];
      if (r.first === a) {
        acc.firstGames++;
        if (r.winner === a) acc.firstWins++;
      }
      r.units[a].forEach((u, k) => {
        const t = acc.units[k];
        if (!t) return;
        for (let j = 0; j < 4; j++) t[j] += u[j];
      });
      const entry = (name: string) => acc.stratagems.get(name) ?? acc.stratagems.set(name, { uses: 0, cp: 0, games: 0, offered: 0 }).get(name)!;
      for (const [name, [uses, cp]] of Object.entries(r.stratagems[a])) {
        const s = entry(name);
        s.uses += uses;
        s.cp += cp;
        s.games += 1;
      }
      if (r.offered) {
        acc.offerGames++;
        for (const name of r.offered[a]) entry(name).offered += 1;
      }
    }
    if (this.n % this.runningEvery === 0) this.pushRunning();
  }

  private pair(r: GameRecord): void {
    const base = r.index - (r.index % 2);
    const outcome = r.error !== undefined ? 'failed' : r.winner;
    if (!this.pairOpen.has(base)) {
      this.pairOpen.set(base, outcome);
      return;
    }
    const other = this.pairOpen.get(base)!;
    this.pairOpen.delete(base);
    if (other === 'failed' || outcome === 'failed') return;
    this.pairs.pairs++;
    this.pairMargins.add(Number(other === 0) + Number(outcome === 0) - Number(other === 1) - Number(outcome === 1));
    if (other === null || outcome === null) this.pairs.withDraw++;
    else if (other === 0 && outcome === 0) this.pairs.army1Both++;
    else if (other === 1 && outcome === 1) this.pairs.army2Both++;
    else this.pairs.split++;
  }

  private pushRunning(): void {
    const w = rate(this.armies[0].wins, this.n);
    const last = this.running[this.running.length - 1];
    if (last && last[0] === this.n) return;
    this.running.push([this.n, w.rate, w.ci95[0], w.ci95[1]]);
  }

  result(): BatchStats {
    if (this.n > 0) this.pushRunning();
    const n = this.n;
    const sc = this.spec.scenario;
    const armies = ([0, 1] as const).map((a): ArmyStats => {
      const acc = this.armies[a];
      const p = sc.players[a];
      const leadersOf = new Map<string, string[]>();
      for (const [leader, bodyguard] of Object.entries(p.leaders)) leadersOf.set(bodyguard, [...(leadersOf.get(bodyguard) ?? []), leader]);
      const per = (x: number) => (n > 0 ? x / n : 0);
      return {
        name: p.name, faction: p.faction, detachment: p.detachment, agent: this.spec.agents[a],
        wins: rate(acc.wins, n),
        losses: rate(this.armies[1 - a].wins, n),
        vp: acc.vp.distribution(),
        vpByRound: Array.from({ length: Math.max(sc.mission.rounds, acc.vpByRound.length) }, (_, k) => per(acc.vpByRound[k] ?? 0)),
        cpGained: per(acc.cpGained),
        cpSpent: per(acc.cpSpent),
        firstTurn: { games: acc.firstGames, wins: rate(acc.firstWins, acc.firstGames) },
        units: p.army.units.map((u, k): UnitStats => {
          const t = acc.units[k];
          return {
            id: u.id, name: u.name, points: u.points,
            leaders: (leadersOf.get(u.id) ?? []).map((id) => p.army.units.find((x) => x.id === id)?.name ?? id),
            attachedTo: p.leaders[u.id] ?? null,
            woundsDealt: per(t[0]), woundsTaken: per(t[1]), modelsKilled: per(t[2]),
            woundsDealtPer100Points: u.points > 0 ? (per(t[0]) * 100) / u.points : 0,
            survival: rate(t[3], n),
          };
        }),
        stratagems: [...acc.stratagems.entries()]
          .sort((x, y) => y[1].uses - x[1].uses || y[1].offered - x[1].offered || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
          .map(([name, s]) => ({ name, uses: s.uses, usesPerGame: per(s.uses), games: rate(s.games, n), offered: acc.offerGames > 0 ? rate(s.offered, acc.offerGames) : null, cpPerGame: per(s.cp) })),
      };
    }) as [ArmyStats, ArmyStats];
    return {
      games: n,
      failed: this.failed.slice(),
      draws: rate(this.draws, n),
      armies,
      margin: this.margin.distribution(),
      seat1Wins: rate(this.seat1, n),
      firstTurnWins: rate(this.firstWins, n),
      endedBy: Object.fromEntries([...this.endedBy.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      meanRounds: n > 0 ? this.rounds / n : 0,
      meanEvents: n > 0 ? this.events / n : 0,
      pairs: this.spec.swap ? { ...this.pairs, winRateDifference: pairDifference(this.pairMargins.distribution()) } : null,
      running: this.running.slice(),
    };
  }
}

export type { Interval };

/** The win-rate difference from the distribution of pair margins (in wins, -2 to 2): half of each. */
export function pairDifference(d: Distribution): PairStats['winRateDifference'] {
  return meanDifference(d, 1 / 2, { bounds: [-2, 2] });
}
