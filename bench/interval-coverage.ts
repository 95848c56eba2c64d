/**
 * How often the intervals of differences cover the true difference (docs/batch.md, "The intervals of
 * differences"): `npx tsx bench/interval-coverage.ts` (about a minute).
 *
 * Win rates: samples of side-swapped pairs, each pair's two games drawn with a lean shared by the pair (a
 * seed's deployment and dice favour one side in both games), draws included; each pair's value is its wins
 * less the other side's, halved (-1 to 1). The normal interval (mean ± 1.96·sd/√n, cut at ±1) against the
 * engine's (Agresti and Min's, src/sim/stats.ts meanDifference). VP margins: each pair's mean margin
 * difference, multiples of 5 with occasional large swings, and sparse ones (most pairs differ by nothing);
 * the normal interval and Student's against the engine's (Student's with a pseudo-pair at ± a game's spread).
 */
import seedrandom from 'seedrandom';
import { Histogram, meanDifference, Z95, type DifferenceScale } from '../src/sim/stats.ts';

type Draw = (r: () => number) => number;

function game(r: () => number, win: number, draw: number): number {
  const u = r();
  return u < win ? 1 : u < win + draw ? 0 : -1;
}

/** A pair's value, -1 to 1: army 1's wins less army 2's over its two games, halved. */
function pairs(win: number, draw: number, lean: number): Draw {
  return (r) => {
    const s = (r() - 0.5) * 2 * lean;
    const w = Math.min(0.98, Math.max(0.01, win + s));
    const d = Math.min(draw, 1 - w);
    return (game(r, w, d) + game(r, w, d)) / 2;
  };
}

function normal(values: number[], bound: number | null): [number, number] {
  const h = new Histogram();
  for (const v of values) h.add(v);
  const d = h.distribution();
  const half = d.n > 0 ? (Z95 * d.sd) / Math.sqrt(d.n) : 0;
  const [lo, hi] = [d.mean - half, d.mean + half];
  return bound === null ? [lo, hi] : [Math.max(-bound, lo), Math.min(bound, hi)];
}

function engine(values: number[], known: DifferenceScale = { bounds: [-1, 1] }): [number, number] {
  const h = new Histogram();
  for (const v of values) h.add(v);
  return meanDifference(h.distribution(), 1, known)!.ci95;
}

function truth(draw: Draw, seed: string): number {
  const r = seedrandom(seed);
  let t = 0;
  const n = 2_000_000;
  for (let i = 0; i < n; i++) t += draw(r);
  return t / n;
}

function coverage(draw: Draw, name: string, intervals: Record<string, (v: number[]) => [number, number]>, unit = 'points'): void {
  const mean = truth(draw, `truth-${name}`);
  console.log(`${name} (true difference ${(unit === 'points' ? 100 * mean : mean).toFixed(1)} ${unit})`);
  for (const n of [5, 10, 20, 50, 100, 500]) {
    const r = seedrandom(`coverage-${name}-${n}`);
    const samples = n >= 500 ? 4000 : 10000;
    const covered: Record<string, number> = {};
    for (const k of Object.keys(intervals)) covered[k] = 0;
    for (let s = 0; s < samples; s++) {
      const v = Array.from({ length: n }, () => draw(r));
      for (const [k, f] of Object.entries(intervals)) {
        const [lo, hi] = f(v);
        if (lo <= mean && mean <= hi) covered[k]++;
      }
    }
    console.log(`  ${String(n).padStart(3)} pairs: ${Object.keys(intervals).map((k) => `${k} ${(100 * covered[k] / samples).toFixed(1)}%`).join(', ')}`);
  }
}

const winRates = { normal: (v: number[]) => normal(v, 1), 'Agresti-Min': engine };
coverage(pairs(0.45, 0.1, 0.3), 'even', winRates);
coverage(pairs(0.55, 0.08, 0.3), 'ahead', winRates);
coverage(pairs(0.8, 0.05, 0.15), 'lopsided', winRates);
coverage(pairs(0.95, 0.02, 0.05), 'crushing', winRates);

// VP margins: a pair's mean margin difference, each game's a multiple of 5, a large swing in three games of ten
const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-300)) * Math.cos(2 * Math.PI * r());
const vp: Draw = (r) => {
  let t = 0;
  for (let g = 0; g < 2; g++) t += 5 * Math.round(((r() < 0.3 ? 25 : 5) * gauss(r) + 3) / 5);
  return t / 2;
};
// the engine's pseudo-pair: ± the spread of a game's VP margin, 18 VP in the default scenario's batches
const SPREAD = 18;
const vpIntervals = { normal: (v: number[]) => normal(v, null), Student: (v: number[]) => engine(v, { spread: 0 }), 'Student, pseudo-pair': (v: number[]) => engine(v, { spread: SPREAD }) };
coverage(vp, 'VP margins', vpIntervals, 'VP');
// a stratagem used in few games, taken away: most seeds' games agree to the last VP, the others part
const sparse = (share: number, shift: number, sd: number): Draw => (r) => (r() < share ? 2.5 * Math.round((shift + sd * gauss(r)) / 2.5) : 0);
coverage(sparse(0.02, -8, 10), 'VP margins, one pair in fifty differs', vpIntervals, 'VP');
coverage(sparse(0.1, 5, 5), 'VP margins, one pair in ten differs', vpIntervals, 'VP');
console.log(`(95% intervals: 1.96 = ${Z95.toFixed(4)} standard errors)`);
