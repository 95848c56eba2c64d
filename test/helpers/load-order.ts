/**
 * Registration order as a module loaded first leaves it: rules, stratagems and listeners act in the order they
 * were registered, so the tests that guard the load order (test/agents/module-order.test.ts,
 * test/factions/core-first.test.ts) read the registries in a fresh process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './cli.ts';

/** The first `import` line of a source file. */
export function firstImportLine(file: string): string | undefined {
  return readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith('import '));
}

/**
 * The rules' names and the stratagems (source/name) in registration order, in a fresh process that imports
 * `first` before anything else, then a game's modules (src/sim/play.ts).
 */
export function registriesAfterImporting(first: string): { rules: string[]; stratagems: { source: string; name: string }[] } {
  const script = `await import(${JSON.stringify(first)});
await import(${JSON.stringify(join(root, 'src/sim/play.ts'))});
const { allRules } = await import(${JSON.stringify(join(root, 'src/core/rules-registry.ts'))});
const { allStratagems } = await import(${JSON.stringify(join(root, 'src/rules/stratagems/registry.ts'))});
console.log(JSON.stringify({ rules: allRules().map((r) => r.name), stratagems: allStratagems().map((s) => ({ source: s.source, name: s.name })) }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`importing ${first} first failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim());
}
