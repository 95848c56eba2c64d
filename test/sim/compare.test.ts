/**
 * Two batches compared seed by seed (src/sim/compare.ts): the paired difference against values worked by
 * hand, the units it pairs (side-swapped pairs, or games), what it leaves out, and the interval's coverage
 * on batches whose true difference is known.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { OutcomeLog, pairedComparison } from '../../src/sim/compare.ts';
import { Z95 } from '../../src/sim/stats.ts';
import { normalQuantile } from '../../src/sim/student-t.ts';

type Game = { winner: 0 | 1 | null; vp?: [number, number]; error?: true };

function log(games: Game[]): OutcomeLog {
  const l = new OutcomeLog(games.length);
  games.forEach((g, index) => l.add({ index, winner: g.winner, vp: g.vp ?? [0, 0], ...(g.error ? { error: 'thrown' } : {}) }));
  return l;
}

describe('pairedComparison', () => {
  it('side-swapped pairs: the difference of win rates pair by pair, its sd over the pairs and its 95% interval', () => {
    // army 1's wins per pair: A 2, 1, 2 of 2; B 1, 1, 0 of 2 -> differences per game 0.5, 0, 1
    const a = log([{ winner: 0, vp: [30, 10] }, { winner: 0, vp: [40, 20] }, { winner: 0, vp: [25, 25] }, { winner: 1, vp: [10, 30] }, { winner: 0, vp: [45, 5] }, { winner: 0, vp: [35, 15] }]);
    const b = log([{ winner: 0, vp: [30, 20] }, { winner: 1, vp: [20, 30] }, { winner: null, vp: [20, 20] }, { winner: 0, vp: [30, 10] }, { winner: 1, vp: [10, 40] }, { winner: 1, vp: [15, 35] }]);
    const c = pairedComparison(a, b, 0, true)!;
    expect(c.units).toBe(3);
    expect(c.unitGames).toBe(2);
    expect(c.leftOut).toBe(0);
    expect(c.winRate.a).toBeCloseTo(5 / 6, 12);
    expect(c.winRate.b).toBeCloseTo(2 / 6, 12);
    // mean 0.5 (deviations 0, -0.5, 0.5); the interval (Agresti and Min's) and z: the three differences with
    // half a pseudo-pair at -1 and at +1 and one at 0: n 5, sum 1.5, sum of squares 1.25 + 1 = 2.25; mean 0.3,
    // variance 2.25 / 5 - 0.09 = 0.36, standard error sqrt(0.36 / 5)
    const se = Math.sqrt(0.36 / 5);
    expect(c.winRate.difference.mean).toBeCloseTo(0.5, 12);
    expect(c.winRate.difference.z).toBeCloseTo(0.3 / se, 12);
    expect(c.winRate.difference.ci95[0]).toBeCloseTo(0.3 - Z95 * se, 12);
    expect(c.winRate.difference.ci95[1]).toBeCloseTo(0.3 + Z95 * se, 12);
    // VP margins of army 1 per game of each pair: A (20 + 20) / 2 = 20, (0 - 20) / 2 = -10, (40 + 20) / 2 = 30;
    // B (10 - 10) / 2 = 0, (0 + 20) / 2 = 10, (-30 - 20) / 2 = -25 -> differences 20, -20, 55
    expect(c.vpMargin.a).toBeCloseTo(40 / 3, 12);
    expect(c.vpMargin.b).toBeCloseTo(-15 / 3, 12);
    expect(c.vpMargin.difference.mean).toBeCloseTo(55 / 3, 12);
    // the spread of a game's VP margin, each batch about its own mean: A's games 20, 20, 0, -20, 40, 20 (mean
    // 40/3, sum of squared deviations 3200 - 6·(40/3)² = 6400/3), B's 10, -10, 0, 20, -30, -20 (mean -5,
    // 1900 - 150 = 1750), on 10 degrees of freedom: variance (6400/3 + 1750) / 10 = 1165/3
    const spread2 = 1165 / 3;
    // Student's interval of 20, -20, 55 and half a pseudo-pair at each of ±spread: n 4, sum 55, sum of
    // squares 3825 + spread²; on 3 degrees of freedom (t 3.1824, not 1.96), and z the normal score of the
    // same tail: on 3 degrees of freedom P(T > t) = 1/2 - (atan(t/√3) + (t/√3)/(1 + t²/3)) / π
    const mean = 55 / 4;
    const seVp = Math.sqrt((3825 + spread2 - 4 * mean * mean) / 3 / 4);
    expect(c.vpMargin.difference.ci95[0]).toBeCloseTo(mean - 3.182446 * seVp, 4);
    expect(c.vpMargin.difference.ci95[1]).toBeCloseTo(mean + 3.182446 * seVp, 4);
    const t = mean / seVp;
    const x = t / Math.sqrt(3);
    expect(c.vpMargin.difference.z).toBeCloseTo(-normalQuantile(0.5 - (Math.atan(x) + x / (1 + x * x)) / Math.PI), 8);
    expect(c.vpMargin.difference.z!).toBeLessThan(t);
  });

  it("army 2's view is army 2's wins and VP margin", () => {
    const a = log([{ winner: 1, vp: [10, 30] }, { winner: 0, vp: [30, 20] }]);
    const b = log([{ winner: 0, vp: [40, 0] }, { winner: 0, vp: [40, 10] }]);
    const c = pairedComparison(a, b, 1, false)!;
    expect(c.unitGames).toBe(1);
    expect(c.units).toBe(2);
    expect(c.winRate.a).toBe(0.5);
    expect(c.winRate.b).toBe(0);
    expect(c.winRate.difference.mean).toBe(0.5);
    // army 2's margins: A +20, -10; B -40, -30 -> differences 60, 20
    expect(c.vpMargin.difference.mean).toBe(40);
  });

  it('a pair with a failed or missing game in either batch is left out whole', () => {
    const a = log([{ winner: 0 }, { winner: 0, error: true }, { winner: 0 }, { winner: 0 }, { winner: 1 }, { winner: 1 }]);
    const b = new OutcomeLog(6);
    for (const [index, winner] of [[0, 1], [1, 1], [2, 1], [3, 1], [4, 0]] as const) b.add({ index, winner, vp: [0, 0] });
    const c = pairedComparison(a, b, 0, true)!;
    // pair 0: failed in A; pair 2: game 5 missing in B; only pair 1 (A 2 wins, B 0) counts
    expect(c.units).toBe(1);
    expect(c.leftOut).toBe(2);
    // one difference of 1: no spread of its own, but the pseudo-pairs give the interval a width (n 3, sum 1,
    // sum of squares 2: mean 1/3, variance 2/3 - 1/9 = 5/9), cut at +1
    expect(c.winRate.difference.mean).toBe(1);
    expect(c.winRate.difference.z).toBeCloseTo(1 / 3 / Math.sqrt(5 / 27), 12);
    expect(c.winRate.difference.ci95[0]).toBeCloseTo(1 / 3 - Z95 * Math.sqrt(5 / 27), 12);
    expect(c.winRate.difference.ci95[1]).toBe(1);
    // without pairs, game by game: games 0, 2, 3, 4 count
    const g = pairedComparison(a, b, 0, false)!;
    expect(g.units).toBe(4);
    expect(g.winRate.difference.mean).toBeCloseTo((1 + 1 + 1 + -1) / 4, 12);
    expect(pairedComparison(a, new OutcomeLog(6), 0, true)).toBeNull();
  });

  it('a batch against itself differs by nothing, exactly; two pairs cannot say the win rates or VP margins are the same', () => {
    const a = log([{ winner: 0, vp: [30, 10] }, { winner: 1, vp: [0, 40] }, { winner: null, vp: [20, 20] }, { winner: 0, vp: [35, 30] }]);
    const c = pairedComparison(a, a, 0, true)!;
    // two differences of 0 and the pseudo-pairs: n 4, sum 0, sum of squares 1 -> 0 ± 1.96·sqrt(1/16)
    expect(c.winRate.difference.mean).toBe(0);
    expect(c.winRate.difference.z).toBe(0);
    expect(c.winRate.difference.ci95[0]).toBeCloseTo(-Z95 / 4, 12);
    expect(c.winRate.difference.ci95[1]).toBeCloseTo(Z95 / 4, 12);
    // VP: two differences of 0 and the pseudo-pair at ± the spread of a game's margin (20, -40, 0, 5 in both
    // batches: mean -15/4, sum of squared deviations 2025 - 4·(15/4)² = 1968.75 each, variance 3937.5 / 6):
    // n 3, sum 0, sum of squares 656.25 -> 0 ± t(2)·sqrt(656.25 / 2 / 3)
    expect(c.vpMargin.difference.mean).toBe(0);
    expect(c.vpMargin.difference.z).toBe(0);
    expect(c.vpMargin.difference.ci95[1]).toBeCloseTo(4.302653 * Math.sqrt(656.25 / 6), 4);
    expect(c.vpMargin.difference.ci95[0]).toBeCloseTo(-c.vpMargin.difference.ci95[1], 12);
  });

  it("keeps what was played, not the batch's size: a batch of 2^40 games with four played", () => {
    // arrays sized by the batch could not even be made (a typed array of 2^40 bytes is refused)
    const games = 2 ** 40;
    const a = new OutcomeLog(games);
    const b = new OutcomeLog(games);
    for (const [index, wa, wb] of [[0, 0, 1], [1, 0, 0], [2, 1, 1], [3, 0, 1]] as const) {
      a.add({ index, winner: wa, vp: [wa === 0 ? 10 : 0, wa === 1 ? 10 : 0] });
      b.add({ index, winner: wb, vp: [wb === 0 ? 10 : 0, wb === 1 ? 10 : 0] });
    }
    const c = pairedComparison(a, b, 0, true)!;
    expect(c.units).toBe(2);
    expect(c.leftOut).toBe(games / 2 - 2);
    // pair 0: A won 2 of 2, B 1 of 2 (+0.5); pair 1: A 1 of 2, B 0 of 2 (+0.5)
    expect(c.winRate.difference.mean).toBeCloseTo(0.5, 12);
    expect(c.vpMargin.difference.mean).toBeCloseTo(10, 12);
    expect(a.played(3)).toBe(true);
    expect(a.played(4)).toBe(false);
  });

  it('a game outside the batch is an error', () => {
    expect(() => new OutcomeLog(4).add({ index: 4, winner: 0, vp: [0, 0] })).toThrow(/game 4 is outside the batch's 4 games/);
  });

  it('the win-rate interval stops at the most one army can gain: +100 points', () => {
    // four games (no swapping): A's army 1 won all four; B's lost two, drew one (no win either) and won one:
    // differences 1, 1, 1, 0
    const a = log([{ winner: 0 }, { winner: 0 }, { winner: 0 }, { winner: 0 }]);
    const b = log([{ winner: 1 }, { winner: 1 }, { winner: null }, { winner: 0 }]);
    const d = pairedComparison(a, b, 0, false)!.winRate.difference;
    // mean 0.75 (sd 0.5, se 0.25: the normal z would be 3); with the pseudo-pairs n 6, sum 3, sum of squares
    // 4: mean 0.5, variance 4/6 - 1/4 = 5/12, so 0.5 ± 1.96·sqrt(5/72), whose top (1.017) is cut at +1, and z
    // 0.5 / sqrt(5/72) = 1.90: three better games in four do not yet show a difference
    expect(d.mean).toBeCloseTo(0.75, 12);
    expect(d.z).toBeCloseTo(0.5 / Math.sqrt(5 / 72), 12);
    expect(0.5 + Z95 * Math.sqrt(5 / 72)).toBeGreaterThan(1);
    expect(d.ci95[0]).toBeCloseTo(0.5 - Z95 * Math.sqrt(5 / 72), 12);
    expect(d.ci95[1]).toBe(1);
  });

  it('covers the true difference 95% of the time, narrower than two separate intervals when the seeds make the batches agree', () => {
    // Each seed has a strength s (0.2, 0.5 or 0.8, equally likely) shared by both batches; army 1 wins a game
    // of batch A with chance s + 0.1, of batch B with chance s: the true difference is 0.1 exactly.
    const replications = 4000;
    const tolerance = 4 * Math.sqrt((0.95 * 0.05) / replications);
    const coverage = (pairs: number, seed: string) => {
      const rng = seedrandom(seed);
      let covered = 0;
      let pairedHalf = 0;
      let separateHalf = 0;
      for (let rep = 0; rep < replications; rep++) {
        const a = new OutcomeLog(2 * pairs);
        const b = new OutcomeLog(2 * pairs);
        for (let k = 0; k < pairs; k++) {
          const s = [0.2, 0.5, 0.8][Math.floor(rng() * 3)];
          for (const index of [2 * k, 2 * k + 1]) {
            // one uniform draw for both batches: the common random numbers of a shared seed
            const u = rng();
            a.add({ index, winner: u < s + 0.1 ? 0 : 1, vp: [0, 0] });
            b.add({ index, winner: u < s ? 0 : 1, vp: [0, 0] });
          }
        }
        const c = pairedComparison(a, b, 0, true)!;
        const [lo, hi] = c.winRate.difference.ci95;
        if (lo <= 0.1 && 0.1 <= hi) covered++;
        pairedHalf += (hi - lo) / 2;
        const n = 2 * pairs;
        separateHalf += Z95 * Math.sqrt((c.winRate.a * (1 - c.winRate.a)) / n + (c.winRate.b * (1 - c.winRate.b)) / n);
      }
      return { covered: covered / replications, pairedHalf: pairedHalf / replications, separateHalf: separateHalf / replications };
    };
    // the matrix's default cell, 200 games: at least 95%, less four standard errors of a proportion over the
    // replications (1.4 points; this seed gives 96.3%, the normal interval 94.1%), and no more than a point or
    // two over (the interval errs a little wide on this sparse model)
    const many = coverage(100, 'compare-coverage');
    expect(many.covered).toBeGreaterThan(0.95 - tolerance);
    expect(many.covered).toBeLessThan(0.95 + 2 * tolerance);
    // a shared draw makes the two batches agree on most games: the paired interval is far narrower
    expect(many.pairedHalf).toBeLessThan(0.6 * many.separateHalf);
    // 20 games: the normal interval covered 88% here; this one never less than 95% (all of them on this
    // sparse model, where nine games in ten agree: it errs wide when few differences are seen)
    const few = coverage(10, 'compare-coverage-10');
    expect(few.covered).toBeGreaterThan(0.95 - tolerance);
  });
  it("the VP margin's interval covers the true difference when most seeds' games agree to the last VP, and is not wide where they all differ", () => {
    // Each game's VP margin is drawn once (sd 18, as the default scenario's) for both batches; with chance
    // `share` batch A's game parts from B's and its margin moves by -5, 5, 10 or 15 VP (mean 6.25): a
    // stratagem used in a game in twenty (share 0.05), taken away. The true difference is share · 6.25.
    const replications = 4000;
    const tolerance = 4 * Math.sqrt((0.95 * 0.05) / replications);
    const coverage = (pairs: number, share: number, seed: string) => {
      const rng = seedrandom(seed);
      const truth = share * 6.25;
      let covered = 0;
      for (let rep = 0; rep < replications; rep++) {
        const a = new OutcomeLog(2 * pairs);
        const b = new OutcomeLog(2 * pairs);
        for (let index = 0; index < 2 * pairs; index++) {
          const gauss = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
          const margin = Math.round(18 * gauss);
          const moved = rng() < share ? [-5, 5, 10, 15][Math.floor(rng() * 4)] : 0;
          const vp = (m: number): [number, number] => [40 + Math.max(0, m), 40 + Math.max(0, -m)];
          a.add({ index, winner: null, vp: vp(margin + moved) });
          b.add({ index, winner: null, vp: vp(margin) });
        }
        const [lo, hi] = pairedComparison(a, b, 0, true)!.vpMargin.difference.ci95;
        if (lo <= truth && truth <= hi) covered++;
      }
      return covered / replications;
    };
    // 100 pairs, ~10 games that differ: Student's interval of the differences alone covered 92.3% here (its
    // spread is that of the few games seen to differ); with the pseudo-pair 99.9%: at least 95%, less four standard
    // errors of a proportion over the replications (one-sided: it errs wide on so few differences)
    expect(coverage(100, 0.05, 'compare-vp-sparse')).toBeGreaterThan(0.95 - tolerance);
    // every game differs (its moves are small beside a game's spread, so the pseudo-pair widens the interval
    // most here): 96.4%, within the same four standard errors below and two above 95%
    const dense = coverage(100, 1, 'compare-vp-dense');
    expect(dense).toBeGreaterThan(0.95 - tolerance);
    expect(dense).toBeLessThan(0.95 + 2 * tolerance);
  });
});
