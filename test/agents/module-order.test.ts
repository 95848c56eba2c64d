/**
 * The heuristic's modules load the engine's registries first (agents/heuristic/registries.ts): rules, stratagems
 * and listeners act in registration order, so a module imported alone (by a test, another agent) must not
 * register the factions' rules before the core's, or the games it plays would differ from the CLI's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/cli.ts';

const dir = join(root, 'agents', 'heuristic');
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'registries.ts').sort();

/** The rules and stratagems in registration order, in a fresh process that imports `first` before anything else. */
function registrationOrder(first: string): string {
  const script = `await import(${JSON.stringify(first)});
const { allRules } = await import(${JSON.stringify(join(root, 'src/core/rules-registry.ts'))});
const { allStratagems } = await import(${JSON.stringify(join(root, 'src/rules/stratagems/registry.ts'))});
console.log(JSON.stringify([allRules().map((r) => r.name), allStratagems().map((s) => s.source + '/' + s.name)]));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`importing ${first} first failed: ${r.stderr}`);
  return r.stdout.trim();
}

describe("the heuristic's modules load the registries first", () => {
  it('every module of agents/heuristic/ imports ./registries.ts before anything else', () => {
    expect(modules.length).toBeGreaterThan(10);
    for (const f of modules) {
      const firstImport = readFileSync(join(dir, f), 'utf8').split('\n').find((l) => l.startsWith('import '));
      expect(firstImport, f).toBe("import './registries.ts';");
    }
  });

  it('a module imported alone registers the rules in the order a game loads them', () => {
    const game = registrationOrder(join(root, 'src/sim/play.ts'));
    // the module that imports the most of the engine before its own code
    expect(registrationOrder(join(dir, 'stratagems.ts'))).toBe(game);
    expect(JSON.parse(game)[0].length).toBeGreaterThan(100);
  }, 60_000);
});
