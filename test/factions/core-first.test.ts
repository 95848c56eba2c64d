/**
 * Faction modules load the core's rule registries first (src/factions/core-first.ts): stratagem lists, roll
 * reactions and listeners act in registration order, and a game registers the core's before the factions',
 * so a faction module imported alone (by a test, a tool) must not put its entries before the core's.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/cli.ts';
import { firstImportLine, registriesAfterImporting } from '../helpers/load-order.ts';

const factionsDir = join(root, 'src', 'factions');
const factionModules = readdirSync(factionsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))
  .flatMap((d) => readdirSync(join(factionsDir, d.name)).filter((f) => f.endsWith('.ts')).sort().map((f) => join(d.name, f)));
// a call that adds to a registry: registerRule(...), registerStratagem(...), onModelDestroyed(...) and the like
const registers = /\bregister[A-Z]\w*\(|\bon(ModelDestroyed|UnitDestroyed|MortalWoundAllocated|ObserverSelected)\(/;

/** The stratagems' sources in registration order, in a fresh process that imports `first` before anything else. */
const stratagemSources = (first: string) => registriesAfterImporting(first).stratagems.map((x) => x.source);

const isCore = (source: string) => source === 'Core' || source === 'Boarding Actions';

describe('faction modules load the core rules first', () => {
  it('every faction module that registers something imports ../core-first.ts before anything else', () => {
    const registering = factionModules.filter((f) => registers.test(readFileSync(join(factionsDir, f), 'utf8')));
    expect(registering.length).toBeGreaterThan(40);
    for (const f of registering) {
      expect(firstImportLine(join(factionsDir, f)), f).toBe("import '../core-first.ts';");
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
