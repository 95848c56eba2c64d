import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { quantileSeq, std, mean } from 'mathjs';
import { Histogram, bin, halfWidth, meanDifference, rate, wilson, Z95 } from '../../src/sim/stats.ts';
import { normalQuantile } from '../../src/sim/student-t.ts';
import { BatchAggregator } from '../../src/sim/aggregate.ts';
import { emptyRecord } from '../../src/sim/batch-game.ts';
import type { GameRecord } from '../../src/sim/batch-types.ts';
import { batchSpec } from './helpers.ts';

describe('Wilson score interval', () => {
  it('50 of 100: 0.5 ± 0.0962 (by hand: z = 1.96, z²/n = 0.03841, half = z/(1+z²/n)·sqrt(0.25/100 + z²/40000))', () => {
    const [lo, hi] = wilson(50, 100);
    expect(lo).toBeCloseTo(0.403832, 5);
    expect(hi).toBeCloseTo(0.596168, 5);
    expect(halfWidth([lo, hi])).toBeCloseTo(0.096168, 5);
  });

  it('0 of 10: [0, 0.2775] (center = half = (z²/20)/(1+z²/10))', () => {
    const [lo, hi] = wilson(0, 10);
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(0.277533, 5);
  });

  it('10 of 10 mirrors 0 of 10; 8 of 10 is [0.4902, 0.9433]', () => {
    expect(wilson(10, 10)[0]).toBeCloseTo(1 - 0.277533, 5);
    expect(wilson(10, 10)[1]).toBe(1);
    const [lo, hi] = wilson(8, 10);
    expect(lo).toBeCloseTo(0.490162, 5);
    expect(hi).toBeCloseTo(0.943318, 5);
  });

  it('no trials: [0, 1]; z is the 0.975 normal quantile', () => {
    expect(wilson(0, 0)).toEqual([0, 1]);
    expect(Z95).toBeCloseTo(1.959964, 6);
    expect(rate(3, 4)).toEqual({ count: 3, n: 4, rate: 0.75, ci95: wilson(3, 4) });
  });
});

describe('Histogram', () => {
  it('mean, sample sd and type-7 quantiles of 1..4: 2.5, 1.2910, p25 = 1.75', () => {
    const h = new Histogram();
    for (const v of [4, 1, 3, 2]) h.add(v);
    expect(h.mean()).toBe(2.5);
    expect(h.sd()).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(h.quantile(0.25)).toBe(1.75);
    expect(h.quantile(0.5)).toBe(2.5);
    expect(h.quantile(0)).toBe(1);
    expect(h.quantile(1)).toBe(4);
    const d = h.distribution();
    expect(d.min).toBe(1);
    expect(d.max).toBe(4);
    // Student's on 3 degrees of freedom: t = 3.182446 (the tables), not 1.96
    expect(d.meanCi95![1] - d.mean).toBeCloseTo((3.182446 * Math.sqrt(5 / 3)) / 2, 5);
  });

  it('agrees with mathjs on VP-like data with many ties', () => {
    let x = 12345;
    const data: number[] = [];
    for (let i = 0; i < 997; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      data.push(5 * (x % 19) - 20);
    }
    const h = new Histogram();
    for (const v of data) h.add(v);
    expect(h.mean()).toBeCloseTo(mean(data) as number, 10);
    expect(h.sd()).toBeCloseTo(std(data) as unknown as number, 10);
    for (const p of [0.05, 0.25, 0.5, 0.75, 0.95, 0.333]) expect(h.quantile(p)).toBeCloseTo(quantileSeq(data, p) as number, 10);
  });

  it('a single value: sd 0 and no interval of the mean (no spread to measure); no values: zeros, no interval', () => {
    const h = new Histogram();
    expect(h.distribution()).toMatchObject({ n: 0, mean: 0, sd: 0, meanCi95: null, histogram: [] });
    h.add(7);
    expect(h.sd()).toBe(0);
    expect(h.quantile(0.9)).toBe(7);
    // not [7, 7]: a zero-width "95% interval" from one game would claim certainty
    expect(h.distribution().meanCi95).toBeNull();
    h.add(9);
    // two values: Student's t on 1 degree of freedom, 12.706 * sd / sqrt(2) = 12.706
    expect(h.distribution().meanCi95![1]).toBeCloseTo(8 + 12.7062, 3);
  });

  it('bins counts by width with empty bins kept', () => {
    expect(bin([[0, 2], [3, 1], [12, 4]], 5)).toEqual([[0, 3], [5, 0], [10, 4]]);
    expect(bin([[-7, 1], [2, 1]], 5)).toEqual([[-10, 1], [-5, 0], [0, 1]]);
  });
});

describe('the interval of a difference of win rates (Agresti and Min)', () => {
  it('holds the sample mean it is printed beside, stays within the bounds, and agrees with its z about 0', () => {
    const rng = seedrandom('adjusted-interval');
    for (let k = 0; k < 3000; k++) {
      const h = new Histogram();
      const n = 1 + Math.floor(rng() * 40);
      // pair margins in wins, -2 to 2, drawn around a random lean
      const lean = rng();
      for (let i = 0; i < n; i++) h.add([-2, -1, 0, 1, 2][Math.min(4, Math.floor((rng() + lean) * 2.5))]);
      const d = meanDifference(h.distribution(), 1 / 2, { bounds: [-2, 2] })!;
      expect(d.ci95[0]).toBeLessThanOrEqual(d.mean + 1e-12);
      expect(d.ci95[1]).toBeGreaterThanOrEqual(d.mean - 1e-12);
      expect(d.ci95[0]).toBeGreaterThanOrEqual(-1);
      expect(d.ci95[1]).toBeLessThanOrEqual(1);
      expect(d.ci95[1]).toBeGreaterThan(d.ci95[0]);
      // |z| past 1.96 exactly when the interval leaves 0 out
      expect(Math.abs(d.z!) > Z95).toBe(d.ci95[0] > 0 || d.ci95[1] < 0);
    }
  });
});

describe('the interval of a difference of VP margins (Student, with a pseudo-pair at ± a game\'s spread)', () => {
  it('holds the sample mean, has width whenever there is a spread, and agrees with its z about 0', () => {
    const rng = seedrandom('spread-interval');
    for (let k = 0; k < 3000; k++) {
      const h = new Histogram();
      const n = 1 + Math.floor(rng() * 60);
      // most seeds agree (0), the others part by a few VP about a random lean
      const share = rng();
      const lean = 20 * (rng() - 0.5);
      for (let i = 0; i < n; i++) h.add(rng() < share ? Math.round(lean + 20 * (rng() - 0.5)) : 0);
      const spread = 1 + 30 * rng();
      const d = meanDifference(h.distribution(), 1, { spread })!;
      expect(d.ci95[0]).toBeLessThanOrEqual(d.mean + 1e-9);
      expect(d.ci95[1]).toBeGreaterThanOrEqual(d.mean - 1e-9);
      expect(d.ci95[1]).toBeGreaterThan(d.ci95[0]);
      expect(Math.abs(d.z!) > Z95).toBe(d.ci95[0] > 0 || d.ci95[1] < 0);
    }
  });

  it('one difference of 4 with a spread of 3: Student on 1 degree of freedom of 4, +3 and -3 weighted a half', () => {
    // n 2, sum 4, sum of squares 16 + 9 = 25: mean 2, variance (25 - 2·4) / 1 = 17, standard error sqrt(17/2);
    // t's 97.5% quantile on 1 degree of freedom is tan(0.475π) = 12.7062
    const h = new Histogram();
    h.add(4);
    const d = meanDifference(h.distribution(), 1, { spread: 3 })!;
    const se = Math.sqrt(17 / 2);
    expect(d.mean).toBe(4);
    expect(d.ci95[0]).toBeCloseTo(2 - Math.tan(0.475 * Math.PI) * se, 9);
    expect(d.ci95[1]).toBeCloseTo(2 + Math.tan(0.475 * Math.PI) * se, 9);
    // on 1 degree of freedom P(T > t) = 1/2 - atan(t)/π
    const t = 2 / se;
    expect(d.z).toBeCloseTo(-normalQuantile(0.5 - Math.atan(t) / Math.PI), 9);
    // without a spread, one difference says nothing of its spread
    expect(meanDifference(h.distribution(), 1, { spread: 0 })).toEqual({ mean: 4, ci95: [4, 4], z: null });
  });
});

describe('BatchAggregator', () => {
  const spec = batchSpec({ games: 4, blockSize: 2 });
  const rec = (index: number, winner: 0 | 1 | null, vp: [number, number], swapped = index % 2 === 1): GameRecord => ({
    ...emptyRecord(index, `T#${index - (index % 2)}`, swapped, ''), error: undefined,
    winner, vp, vpByRound: [[0, vp[0]], [0, vp[1]]], rounds: 2, endedBy: 'rounds', first: 0,
    cpGained: [3, 3], cpSpent: [1, 2], stratagems: [{ 'FIRE OVERWATCH': [1, 1] }, {}], units: [[[2, 1, 1, 1], [0, 3, 0, 0], [0, 0, 0, 1]], [[1, 2, 1, 1], [0, 0, 0, 1], [0, 0, 0, 1]]],
  });

  it('counts by army (not seat), pairs, margins, units and stratagems', () => {
    const agg = new BatchAggregator(spec);
    agg.add(rec(0, 0, [10, 5]));
    agg.add({ ...rec(1, 0, [15, 0]), first: 1 });
    agg.add(rec(2, 1, [0, 5]));
    agg.add({ ...emptyRecord(3, 'T#2', true, 'Error: boom') });
    const s = agg.result();
    // the army taking the first turn (army 0, then 1, then 0) won game 0 only
    expect(s.firstTurnWins).toEqual(rate(1, 3));
    expect(s.armies[0].firstTurn).toEqual({ games: 2, wins: rate(1, 2) });
    expect(s.games).toBe(3);
    expect(s.failed).toEqual([{ index: 3, seed: 'T#2', swapped: true, error: 'Error: boom' }]);
    expect(s.armies[0].wins.count).toBe(2);
    expect(s.armies[1].wins.count).toBe(1);
    expect(s.armies[0].losses.count).toBe(1);
    // player 1's seat won game 0 (army 0 unswapped) and lost game 1 (army 0 sat as player 2) and game 2
    expect(s.seat1Wins.count).toBe(1);
    // one complete pair (game 3 failed): army 1 won both, a difference of 1 with no spread of its own; the
    // interval's pseudo-pairs (half at -2 wins, half at +2, one at 0) give it one: n 3, sum 2, sum of squares
    // 8, so 2/3 ± 1.96·sqrt((8/3 - 4/9) / 3) wins, halved, cut at +1
    expect(s.pairs).toMatchObject({ pairs: 1, army1Both: 1, army2Both: 0, split: 0, withDraw: 0 });
    expect(s.pairs!.winRateDifference!.mean).toBe(1);
    expect(s.pairs!.winRateDifference!.z).toBeCloseTo(2 / 3 / Math.sqrt(20 / 27), 12);
    expect(s.pairs!.winRateDifference!.ci95[0]).toBeCloseTo((2 / 3 - Z95 * Math.sqrt(20 / 27)) / 2, 12);
    expect(s.pairs!.winRateDifference!.ci95[1]).toBe(1);
    expect(s.margin.mean).toBeCloseTo((5 + 15 - 5) / 3, 12);
    expect(s.armies[0].vpByRound).toEqual([0, 25 / 3, 0]);
    expect(s.armies[0].units[0]).toMatchObject({ woundsDealt: 2, woundsTaken: 1, survival: rate(3, 3) });
    expect(s.armies[0].units[1].survival.count).toBe(0);
    expect(s.armies[0].stratagems).toEqual([{ name: 'FIRE OVERWATCH', uses: 3, usesPerGame: 1, games: rate(3, 3), offered: null, cpPerGame: 1 }]);
    expect(s.armies[1].cpSpent).toBe(2);
  });

  it('the win-rate difference pair by pair: its mean is the difference of the win rates, its interval from the spread between pairs', () => {
    const agg = new BatchAggregator(batchSpec({ games: 10, blockSize: 2 }));
    // the winning army of each game, pair by pair (game 2k+1 swaps the sides of game 2k)
    const winners: [0 | 1 | null, 0 | 1 | null][] = [[0, 0], [0, 1], [1, 1], [0, null], [0, 0]];
    winners.forEach(([a, b], k) => { agg.add(rec(2 * k, a, [5, 5])); agg.add(rec(2 * k + 1, b, [5, 5])); });
    const s = agg.result();
    // pair margins (army 1's wins less army 2's) 2, 0, -2, 1, 2: mean 0.6, sample sd sqrt(11.2 / 4)
    const margins = [2, 0, -2, 1, 2];
    const se = Number(std(margins)) / Math.sqrt(5);
    expect(se).toBeCloseTo(Math.sqrt(2.8 / 5), 12);
    const d = s.pairs!.winRateDifference!;
    expect(d.mean).toBeCloseTo(s.armies[0].wins.rate - s.armies[1].wins.rate, 12);
    expect(d.mean).toBeCloseTo(0.3, 12);
    // the interval and z: the margins with the pseudo-pairs (half at -2, half at +2, one at 0): n 7, sum 3,
    // sum of squares 13 + 4 = 17; mean 3/7, variance 17/7 - 9/49 = 110/49; halved (the normal interval,
    // 0.3 ± 0.73, ran past 100 points on these five pairs, with z 0.6 / se = 0.80)
    const seAdjusted = Math.sqrt(110 / 49 / 7);
    expect(d.ci95[0]).toBeCloseTo((3 / 7 - Z95 * seAdjusted) / 2, 12);
    expect(d.ci95[1]).toBeCloseTo((3 / 7 + Z95 * seAdjusted) / 2, 12);
    expect(d.z).toBeCloseTo(3 / 7 / seAdjusted, 12);
    expect(d.z).toBeLessThan(0.6 / se);
    expect(s.pairs).toMatchObject({ pairs: 5, army1Both: 2, army2Both: 1, split: 1, withDraw: 1 });
  });

  it('the pair-by-pair interval stops at 100 points: one pair split and four won twice by army 1', () => {
    const agg = new BatchAggregator(batchSpec({ games: 10, blockSize: 2 }));
    const winners: [0 | 1, 0 | 1][] = [[0, 0], [0, 0], [0, 1], [0, 0], [0, 0]];
    winners.forEach(([a, b], k) => { agg.add(rec(2 * k, a, [5, 5])); agg.add(rec(2 * k + 1, b, [5, 5])); });
    const d = agg.result().pairs!.winRateDifference!;
    // margins 2, 2, 0, 2, 2: mean 1.6; with the pseudo-pairs n 7, sum 8, sum of squares 20: mean 8/7, variance
    // 20/7 - 64/49 = 76/49; its top, (8/7 + 0.92) / 2 = 1.03, is past the most a win-rate difference can be,
    // so it ends there
    const se = Math.sqrt(76 / 49 / 7);
    const half = Z95 * se;
    expect((8 / 7 + half) / 2).toBeGreaterThan(1);
    expect(d.mean).toBeCloseTo(0.8, 12);
    expect(d.ci95[0]).toBeCloseTo((8 / 7 - half) / 2, 12);
    expect(d.ci95[1]).toBe(1);
    expect(d.z).toBeCloseTo(8 / 7 / se, 12);
  });

  it('refuses records out of order', () => {
    const agg = new BatchAggregator(spec);
    agg.add(rec(1, 0, [1, 0]));
    expect(() => agg.add(rec(0, 0, [1, 0]))).toThrow(/index order/);
  });
});
