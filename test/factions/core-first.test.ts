/**
 * Faction modules load the core's rule registries first (src/factions/core-first.ts): stratagem lists, roll
 * reactions and listeners act in registration order, and a game registers the core's before the factions',
 * so a faction module imported alone (by a test, a tool) must not put its entries before the core's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/cli.ts';

const factionsDir = join(root, 'src', 'factions');
const factionModules = readdirSync(factionsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))
  .flatMap((d) => readdirSync(join(factionsDir, d.name)).filter((f) => f.endsWith('.ts')).sort().map((f) => join(d.name, f)));
// a call that adds to a registry: registerRule(...), registerStratagem(...), onModelDestroyed(...) and the like
const registers = /\bregister[A-Z]\w*\(|\bon(ModelDestroyed|UnitDestroyed|MortalWoundAllocated|ObserverSelected)\(/;

/** The stratagems' sources in registration order, in a fresh process that imports `first` before anything else. */
function stratagemSources(first: string): string[] {
  const script = `await import(${JSON.stringify(first)});
await import(${JSON.stringify(join(root, 'src/sim/play.ts'))});
const { allStratagems } = await import(${JSON.stringify(join(root, 'src/rules/stratagems/registry.ts'))});
console.log(JSON.stringify(allStratagems().map((s) => s.source)));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`importing ${first} first failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim()) as string[];
}

const isCore = (source: string) => source === 'Core' || source === 'Boarding Actions';

describe('faction modules load the core rules first', () => {
  it('every faction module that registers something imports ../core-first.ts before anything else', () => {
    const registering = factionModules.filter((f) => registers.test(readFileSync(join(factionsDir, f), 'utf8')));
    expect(registering.length).toBeGreaterThan(40);
    for (const f of registering) {
      const firstImport = readFileSync(join(factionsDir, f), 'utf8').split('\n').find((l) => l.startsWith('import '));
      expect(firstImport, f).toBe("import '../core-first.ts';");
    }
  });

  it("a detachment's module imported alone registers its stratagems after the core's, as a game does", () => {
    const game = stratagemSources(join(root, 'src/sim/play.ts'));
    const alone = stratagemSources(join(factionsDir, 'tau', 'detachments.ts'));
    for (const order of [game, alone]) {
      const lastCore = order.length - 1 - [...order].reverse().findIndex(isCore);
      const firstFaction = order.findIndex((s) => !isCore(s));
      expect(lastCore).toBeLessThan(firstFaction);
    }
    expect(alone.filter(isCore)).toEqual(game.filter(isCore));
    expect(alone.length).toBe(game.length);
  }, 60_000);
});
