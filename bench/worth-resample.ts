/**
 * How often the intervals of `worth` would cover the difference its own games measured, when fewer seeds
 * had been played: each stratagem's pair-by-pair differences of a `worth --out DIR` folder (baseline less
 * "without") are taken as the whole population, and samples of n pairs are drawn from them with
 * replacement; each sample's interval is checked against the population's mean. VP margins: Student's
 * interval of the sample alone against the engine's (src/sim/stats.ts meanDifference: Student's with a
 * pseudo-pair at ± the spread of a game's VP margin, the two batches pooled); win rates: the normal interval
 * against the engine's (Agresti and Min's). The measurements are in docs/batch.md, "The intervals of
 * differences".
 *
 *   npx tsx bench/worth-resample.ts [--samples 4000] [--pairs 50,200] <worth folders...>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import seedrandom from 'seedrandom';
import { readRecords, readSpec } from '../src/sim/batch.ts';
import { Histogram, meanDifference, pooledSd, Z95, type DifferenceScale } from '../src/sim/stats.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { samples: { type: 'string', default: '4000' }, pairs: { type: 'string', default: '50,200' } } });
const samples = Number(values.samples);
const sizes = values.pairs!.split(',').map(Number);
if (!positionals.length) throw new Error('usage: npx tsx bench/worth-resample.ts [--samples N] [--pairs 50,200] <worth folders...>');

/** army (0 or 1)'s VP less its opponent's, and 1 when it won (else 0), by game number */
function margins(dir: string, army: number): Map<number, { margin: number; won: number }> {
  const out = new Map<number, { margin: number; won: number }>();
  for (const r of readRecords(dir)) if (r.error === undefined) out.set(r.index, { margin: r.vp[army] - r.vp[1 - army], won: r.winner === army ? 1 : 0 });
  return out;
}

interface Population { name: string; differences: number[]; wins: number[]; spread: number }
const populations: Population[] = [];
for (const root of positionals) {
  const army = JSON.parse(readFileSync(join(root, 'worth.json'), 'utf8')).army.index - 1;
  const base = margins(join(root, 'baseline'), army);
  if (!readSpec(join(root, 'baseline')).swap) throw new Error(`${root}: expected side-swapped pairs`);
  for (const sub of readdirSync(root).filter((x) => x.startsWith('without-')).sort()) {
    const other = margins(join(root, sub), army);
    const differences: number[] = [];
    const wins: number[] = [];
    const games = [new Histogram(), new Histogram()];
    for (let p = 0; ; p++) {
      const pair = [2 * p, 2 * p + 1];
      if (!pair.every((g) => base.has(g) && other.has(g))) break;
      const [a, b] = [pair.map((g) => base.get(g)!), pair.map((g) => other.get(g)!)];
      differences.push((a[0].margin - b[0].margin + a[1].margin - b[1].margin) / 2);
      wins.push((a[0].won - b[0].won + a[1].won - b[1].won) / 2);
      for (const k of [0, 1]) {
        games[0].add(a[k].margin);
        games[1].add(b[k].margin);
      }
    }
    const spread = pooledSd(games[0].distribution(), games[1].distribution());
    populations.push({ name: `${root}/${sub}`, differences, wins, spread });
  }
}

/** an interval of a sample: Student's or the engine's (meanDifference), or the normal one (null) */
function interval(v: number[], known: DifferenceScale | null): [number, number] {
  const h = new Histogram();
  for (const x of v) h.add(x);
  const d = h.distribution();
  if (known) return meanDifference(d, 1, known)!.ci95;
  const half = (Z95 * d.sd) / Math.sqrt(d.n);
  return [d.mean - half, d.mean + half];
}

/** coverage by each interval of a measure's population mean, samples of n pairs */
function coverage(name: string, population: number[], n: number, intervals: [string, DifferenceScale | null][]): number[] {
  const mean = population.reduce((a, b) => a + b, 0) / population.length;
  const r = seedrandom(`${name}-${n}`);
  const covered = intervals.map(() => 0);
  for (let s = 0; s < samples; s++) {
    const v = Array.from({ length: n }, () => population[Math.floor(r() * population.length)]);
    intervals.forEach(([, known], k) => {
      const [lo, hi] = interval(v, known);
      if (lo <= mean && mean <= hi) covered[k]++;
    });
  }
  return covered.map((c) => c / samples);
}

const groups = new Map<string, { sums: number[]; count: number; names: string[] }>();
for (const p of populations) {
  const measures: [string, number[], [string, DifferenceScale | null][]][] = [
    ['VP margin', p.differences, [['Student', { spread: 0 }], ['engine', { spread: p.spread }]]],
    ['win rate', p.wins, [['normal', null], ['engine', { bounds: [-1, 1] }]]],
  ];
  const differing = p.differences.filter((x) => x !== 0).length;
  const sparse = differing < p.differences.length / 10 ? 'fewer' : 'more';
  const cells: string[] = [];
  for (const [measure, population, intervals] of measures) {
    for (const n of sizes) {
      const c = coverage(`${p.name}-${measure}`, population, n, intervals);
      cells.push(`${measure}, ${n} pairs: ${intervals.map(([k], i) => `${k} ${(100 * c[i]).toFixed(1)}%`).join(', ')}`);
      const key = `${measure}, ${n} pairs, ${sparse} than one pair in ten differing`;
      const g = groups.get(key) ?? { sums: intervals.map(() => 0), count: 0, names: intervals.map(([k]) => k) };
      c.forEach((x, i) => (g.sums[i] += x));
      g.count++;
      groups.set(key, g);
    }
  }
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  console.log(`${p.name}: ${differing} of ${p.differences.length} pairs differ in VP; mean ${mean(p.differences).toFixed(2)} VP, ${(100 * mean(p.wins)).toFixed(1)} points; spread ${p.spread.toFixed(1)} VP\n  ${cells.join('\n  ')}`);
}
console.log('\nmean coverage:');
for (const [k, g] of [...groups].sort()) console.log(`  ${k} (${g.count} stratagems): ${g.names.map((name, i) => `${name} ${(100 * g.sums[i] / g.count).toFixed(1)}%`).join(', ')}`);
