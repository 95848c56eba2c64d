/**
 * The win-rate difference pair by pair of one or more batch folders, and of all of them pooled (the
 * README's "four deployments together" rows): npx tsx bench/pair-margins.ts out/agent-rows/aw-*
 * Each complete side-swapped pair counts once: army 1's wins less army 2's, halved (see docs/batch.md).
 */
import { readRecords, readSpec } from '../src/sim/batch.ts';
import { Histogram } from '../src/sim/stats.ts';
import { pairDifferenceText } from '../src/sim/batch-report.ts';
import { pairDifference } from '../src/sim/aggregate.ts';
import type { GameRecord } from '../src/sim/batch-types.ts';

function margins(dir: string): number[] {
  if (!readSpec(dir).swap) throw new Error(`${dir}: a batch without side-swapped pairs`);
  const byIndex = new Map<number, GameRecord>();
  for (const r of readRecords(dir)) byIndex.set(r.index, r);
  const out: number[] = [];
  for (const [i, a] of [...byIndex.entries()].sort((x, y) => x[0] - y[0])) {
    const b = byIndex.get(i + 1);
    if (i % 2 !== 0 || !b || a.error !== undefined || b.error !== undefined) continue;
    out.push(Number(a.winner === 0) + Number(b.winner === 0) - Number(a.winner === 1) - Number(b.winner === 1));
  }
  return out;
}

function line(label: string, values: number[]): string {
  const h = new Histogram();
  for (const v of values) h.add(v);
  const d = h.distribution();
  const text = d.n > 0 ? pairDifferenceText(pairDifference(d)!) : '-';
  const both = (v: number) => values.filter((x) => x === v).length;
  return `${label}: ${d.n} pairs, won twice ${both(2)} to ${both(-2)}; army 1 less army 2, pair by pair: ${text}`;
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) { console.error('usage: npx tsx bench/pair-margins.ts <batch dirs...>'); process.exit(2); }
const all: number[] = [];
for (const d of dirs) {
  const m = margins(d);
  all.push(...m);
  console.log(line(d, m));
}
if (dirs.length > 1) console.log(line('pooled', all));
