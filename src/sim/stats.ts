/**
 * Statistics of a batch: Wilson score intervals for rates, and mean, standard deviation and quantiles
 * from exact value histograms.
 *
 * Everything is accumulated game by game in constant memory (VP, margins, wounds and CP are integers,
 * so the sums are exact whatever the number of games), and the runner feeds games in index order, so a
 * batch's numbers are the same to the last bit however its games were spread over workers or shards.
 */
import { t975, zOfT } from './student-t.ts';

/** The 0.975 quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054;

export type Interval = [number, number];

/**
 * Wilson score interval for a proportion of `k` successes in `n` trials:
 * (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n). For n = 0 it is [0, 1].
 */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // exactly 0 and 1 at the ends (0 or n successes), which rounding would miss
  return [k <= 0 ? 0 : Math.max(0, center - half), k >= n ? 1 : Math.min(1, center + half)];
}

/** Half the width of an interval. */
export function halfWidth(ci: Interval): number {
  return (ci[1] - ci[0]) / 2;
}

/** A proportion with its Wilson 95% interval. */
export interface Rate { count: number; n: number; rate: number; ci95: Interval }

export function rate(count: number, n: number): Rate {
  return { count, n, rate: n > 0 ? count / n : 0, ci95: wilson(count, n) };
}

export interface Quantiles { p5: number; p25: number; p50: number; p75: number; p95: number }

export interface Distribution {
  n: number;
  mean: number;
  /** sample standard deviation (n - 1) */
  sd: number;
  /** Student's 95% interval of the mean: mean ± t·sd/√n, t's 97.5% quantile on n - 1 degrees of freedom (1.96 from a few hundred games; 12.7 on two); null with fewer than two values (one value gives no spread to measure) */
  meanCi95: Interval | null;
  min: number;
  max: number;
  quantiles: Quantiles;
  /** [value, count] for every value seen, ascending */
  histogram: [number, number][];
}

/** An exact histogram of values (VP, margins: few distinct values), with the moments. */
export class Histogram {
  private readonly counts = new Map<number, number>();
  n = 0;
  sum = 0;
  sumSq = 0;

  add(v: number, times = 1): void {
    this.counts.set(v, (this.counts.get(v) ?? 0) + times);
    this.n += times;
    this.sum += v * times;
    this.sumSq += v * v * times;
  }

  /** [value, count] ascending */
  entries(): [number, number][] {
    return [...this.counts.entries()].sort((a, b) => a[0] - b[0]);
  }

  mean(): number {
    return this.n > 0 ? this.sum / this.n : 0;
  }

  /** sample standard deviation (n - 1 in the denominator); 0 with fewer than two values */
  sd(): number {
    if (this.n < 2) return 0;
    return Math.sqrt(Math.max(0, (this.sumSq - (this.sum * this.sum) / this.n) / (this.n - 1)));
  }

  /**
   * Quantile by linear interpolation between order statistics (Hyndman & Fan type 7, the default of R,
   * NumPy and mathjs): h = (n - 1)·p, x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋ + 1] - x[⌊h⌋]).
   */
  quantile(p: number, sorted = this.entries()): number {
    if (this.n === 0) return 0;
    const h = (this.n - 1) * p;
    const lo = Math.floor(h);
    const a = valueAt(sorted, lo);
    const b = lo + 1 < this.n ? valueAt(sorted, lo + 1) : a;
    return a + (h - lo) * (b - a);
  }

  distribution(): Distribution {
    const sorted = this.entries();
    const mean = this.mean();
    const sd = this.sd();
    const half = this.n > 1 ? (t975(this.n - 1) * sd) / Math.sqrt(this.n) : null;
    return {
      n: this.n, mean, sd, meanCi95: half === null ? null : [mean - half, mean + half],
      min: sorted.length ? sorted[0][0] : 0, max: sorted.length ? sorted[sorted.length - 1][0] : 0,
      quantiles: { p5: this.quantile(0.05, sorted), p25: this.quantile(0.25, sorted), p50: this.quantile(0.5, sorted), p75: this.quantile(0.75, sorted), p95: this.quantile(0.95, sorted) },
      histogram: sorted,
    };
  }
}

/** A mean difference with its 95% interval and z (the mean over its standard error; null without spread). */
export interface Difference { mean: number; ci95: Interval; z: number | null }

/**
 * What the interval of a difference knows beyond its sample: the least and greatest value a difference can
 * take (`bounds`, differences of win rates), or how far apart two games' results lie where the games part
 * (`spread`, differences of VP margins: the standard deviation of a game's VP margin).
 */
export type DifferenceScale = { bounds: Interval } | { spread: number };

/**
 * The mean of a sample of differences (side-swapped pairs, seeds of two batches) with a 95% interval and z,
 * each multiplied by `scale` (z is unchanged by it); null for an empty sample. z is the interval's own
 * statistic: it is beyond ±1.96 exactly when the interval (before any cut at a bound) leaves out 0.
 *
 * The two batches of a difference play the same seeds, so most of their games may agree to the last VP (a
 * stratagem used in few games, taken away): the sample then holds a few differences among many zeros, and
 * its own spread says too little of what the next seeds could give (five pairs won by the same army give an
 * interval of no width). Both intervals add pseudo-observations that give the sample the spread a
 * difference could have:
 * - `bounds` (win rates, whose samples are made of a few values between the bounds): Agresti and Min's
 *   interval for matched proportions ("Simple improved confidence intervals for comparing matched
 *   proportions", Statistics in Medicine 24, 2005): the normal interval of the sample with half a
 *   pseudo-observation at each bound and one at their middle (half a pair in each cell of the paired 2×2
 *   table), then cut to the bounds; its z is that sample's mean over its standard error.
 * - `spread` (VP margins): Student's interval, mean ± t·sd/√n with t's 97.5% quantile on n - 1 degrees of
 *   freedom, of the sample with half a pseudo-observation at +spread and half at -spread (a seed whose games
 *   parted, either way), and z the normal score of the same tail as that mean over its standard error. On
 *   the batches of `worth` (differences of 0 on nearly every seed when a stratagem is rare) Student's
 *   interval alone covered 90% of resamples of 200 pairs and 73% of 50; with the pseudo-pair 97-99%, and
 *   95-96% where most seeds differ, as wide as before from 100 pairs on.
 * - neither: Student's interval of the sample alone (null z without spread).
 * How each covers (bench/interval-coverage.ts): docs/batch.md, "The intervals of differences".
 */
export function meanDifference(d: Distribution, scale = 1, known?: DifferenceScale): Difference | null {
  if (d.n === 0) return null;
  const { ci95, z } = known && 'bounds' in known ? adjustedInterval(d, known.bounds) : studentInterval(d, known?.spread ?? 0);
  return { mean: d.mean * scale, ci95: [ci95[0] * scale, ci95[1] * scale], z };
}

/** Agresti and Min's interval of a bounded difference and its z (see meanDifference), from the sample's histogram. */
function adjustedInterval(d: Distribution, [least, most]: Interval): { ci95: Interval; z: number } {
  const middle = (least + most) / 2;
  let n = 2;
  let sum = (least + most) / 2 + middle;
  let sumSq = (least * least + most * most) / 2 + middle * middle;
  for (const [v, c] of d.histogram) {
    n += c;
    sum += v * c;
    sumSq += v * v * c;
  }
  const mean = sum / n;
  // the pseudo-observations at both bounds give it a spread whatever the sample
  const se = Math.sqrt(Math.max(0, sumSq / n - mean * mean) / n);
  return { ci95: [Math.max(least, mean - Z95 * se), Math.min(most, mean + Z95 * se)], z: mean / se };
}

/** Student's interval and z of the sample with half a pseudo-observation at ±spread (none for 0; see meanDifference). */
function studentInterval(d: Distribution, spread: number): { ci95: Interval; z: number | null } {
  const pseudo = spread > 0 ? 1 : 0;
  let n = pseudo;
  let sum = 0;
  let sumSq = pseudo * spread * spread;
  for (const [v, c] of d.histogram) {
    n += c;
    sum += v * c;
    sumSq += v * v * c;
  }
  const mean = sum / n;
  const se = n > 1 ? Math.sqrt(Math.max(0, sumSq - n * mean * mean) / (n - 1) / n) : 0;
  if (!(se > 0)) return { ci95: [d.mean, d.mean], z: null };
  const half = t975(n - 1) * se;
  return { ci95: [mean - half, mean + half], z: zOfT(mean / se, n - 1) };
}

/** The standard deviation of two samples about their own means (0 when they have no spread). */
export function pooledSd(x: Distribution, y: Distribution): number {
  const df = x.n + y.n - 2;
  return df > 0 ? Math.sqrt(((x.n - 1) * x.sd ** 2 + (y.n - 1) * y.sd ** 2) / df) : 0;
}

/** The value at 0-based rank r of the sorted sample a histogram stands for. */
function valueAt(sorted: [number, number][], r: number): number {
  let seen = 0;
  for (const [v, c] of sorted) {
    seen += c;
    if (r < seen) return v;
  }
  return sorted[sorted.length - 1][0];
}

/** Counts of a histogram grouped into bins of `width` starting at a multiple of it: [[binStart, count]]. */
export function bin(histogram: [number, number][], width: number): [number, number][] {
  const out = new Map<number, number>();
  for (const [v, c] of histogram) {
    const b = Math.floor(v / width) * width;
    out.set(b, (out.get(b) ?? 0) + c);
  }
  if (out.size === 0) return [];
  const keys = [...out.keys()].sort((a, b) => a - b);
  const res: [number, number][] = [];
  for (let b = keys[0]; b <= keys[keys.length - 1]; b += width) res.push([b, out.get(b) ?? 0]);
  return res;
}
