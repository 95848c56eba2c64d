/**
 * How often the VP-margin interval of `worth` would cover the difference its own games measured, when fewer
 * seeds had been played: each stratagem's pair-by-pair differences of a `worth --out DIR` folder (baseline
 * less "without") are taken as the whole population, and samples of n pairs are drawn from them with
 * replacement; each sample's interval is checked against the population's mean. Student's interval of the
 * sample alone against the engine's (src/sim/stats.ts meanDifference: Student's with a pseudo-pair at ± the
 * spread of a game's VP margin, the two batches pooled). The measurements are in docs/batch.md, "The
 * intervals of differences".
 *
 *   npx tsx bench/worth-resample.ts [--samples 4000] [--pairs 50,200] <worth folders...>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import seedrandom from 'seedrandom';
import { readRecords, readSpec } from '../src/sim/batch.ts';
import { Histogram, meanDifference, type DifferenceScale } from '../src/sim/stats.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { samples: { type: 'string', default: '4000' }, pairs: { type: 'string', default: '50,200' } } });
const samples = Number(values.samples);
const sizes = values.pairs!.split(',').map(Number);
if (!positionals.length) throw new Error('usage: npx tsx bench/worth-resample.ts [--samples N] [--pairs 50,200] <worth folders...>');

/** army (0 or 1) less its opponent, by game number */
function margins(dir: string, army: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of readRecords(dir)) if (r.error === undefined) out.set(r.index, r.vp[army] - r.vp[1 - army]);
  return out;
}

interface Population { name: string; differences: number[]; spread: number }
const populations: Population[] = [];
for (const root of positionals) {
  const army = JSON.parse(readFileSync(join(root, 'worth.json'), 'utf8')).army.index - 1;
  const base = margins(join(root, 'baseline'), army);
  if (!readSpec(join(root, 'baseline')).swap) throw new Error(`${root}: expected side-swapped pairs`);
  for (const sub of readdirSync(root).filter((x) => x.startsWith('without-')).sort()) {
    const other = margins(join(root, sub), army);
    const differences: number[] = [];
    const games = [new Histogram(), new Histogram()];
    for (let p = 0; ; p++) {
      const [i, j] = [2 * p, 2 * p + 1];
      if (![i, j].every((g) => base.has(g) && other.has(g))) break;
      differences.push((base.get(i)! - other.get(i)! + base.get(j)! - other.get(j)!) / 2);
      for (const g of [i, j]) {
        games[0].add(base.get(g)!);
        games[1].add(other.get(g)!);
      }
    }
    const [x, y] = [games[0].distribution(), games[1].distribution()];
    const spread = Math.sqrt(((x.n - 1) * x.sd ** 2 + (y.n - 1) * y.sd ** 2) / (x.n + y.n - 2));
    populations.push({ name: `${root}/${sub}`, differences, spread });
  }
}

function interval(v: number[], known: DifferenceScale): [number, number] {
  const h = new Histogram();
  for (const x of v) h.add(x);
  return meanDifference(h.distribution(), 1, known)!.ci95;
}

const groups = new Map<string, { student: number; engine: number; count: number }>();
for (const p of populations) {
  const mean = p.differences.reduce((a, b) => a + b, 0) / p.differences.length;
  const differing = p.differences.filter((x) => x !== 0).length;
  const cells: string[] = [];
  for (const n of sizes) {
    const r = seedrandom(`${p.name}-${n}`);
    let student = 0;
    let engine = 0;
    for (let s = 0; s < samples; s++) {
      const v = Array.from({ length: n }, () => p.differences[Math.floor(r() * p.differences.length)]);
      const [lo, hi] = interval(v, { spread: 0 });
      if (lo <= mean && mean <= hi) student++;
      const [lo2, hi2] = interval(v, { spread: p.spread });
      if (lo2 <= mean && mean <= hi2) engine++;
    }
    cells.push(`${n} pairs: Student ${(100 * student / samples).toFixed(1)}%, engine ${(100 * engine / samples).toFixed(1)}%`);
    // "few": fewer than one pair in ten differs
    const key = `${n} pairs, ${differing < p.differences.length / 10 ? 'fewer' : 'more'} than one pair in ten differing`;
    const g = groups.get(key) ?? { student: 0, engine: 0, count: 0 };
    g.student += student / samples;
    g.engine += engine / samples;
    g.count++;
    groups.set(key, g);
  }
  console.log(`${p.name}: ${differing} of ${p.differences.length} pairs differ, mean ${mean.toFixed(2)} VP, spread ${p.spread.toFixed(1)}; ${cells.join('; ')}`);
}
console.log('\nmean coverage:');
for (const [k, g] of [...groups].sort()) console.log(`  ${k} (${g.count} stratagems): Student ${(100 * g.student / g.count).toFixed(1)}%, engine ${(100 * g.engine / g.count).toFixed(1)}%`);
