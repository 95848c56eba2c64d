/**
 * `npm run bench`: every bench module's measurements as one table. Benches measure throughput and
 * ratios; tests never time anything.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

interface BenchRow { name: string; value: number; unit: string }

const here = dirname(fileURLToPath(import.meta.url));
const modules = ['attacks', 'calc', 'geometry', 'games', 'batch'];
const only = process.argv.slice(2);

const rows: BenchRow[] = [];
for (const name of modules) {
  if (only.length && !only.includes(name)) continue;
  const file = join(here, `${name}.bench.ts`);
  if (!existsSync(file)) continue;
  const mod = (await import(file)) as { run: () => BenchRow[] | Promise<BenchRow[]> };
  process.stderr.write(`running ${name}...\n`);
  for (const r of await mod.run()) {
    rows.push(r);
    process.stdout.write(`${r.name.padEnd(78)} ${fmt(r.value).padStart(14)} ${r.unit}\n`);
  }
}

function fmt(v: number): string {
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2);
}
