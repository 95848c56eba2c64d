/**
 * The heuristic's modules load the engine's registries first (agents/heuristic/registries.ts): rules, stratagems
 * and listeners act in registration order, so a module imported alone (by a test, another agent) must not
 * register the factions' rules before the core's, or the games it plays would differ from the CLI's.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/cli.ts';
import { firstImportLine, registriesAfterImporting } from '../helpers/load-order.ts';

const dir = join(root, 'agents', 'heuristic');
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'registries.ts').sort();

/** The rules and stratagems in registration order, in a fresh process that imports `first` before anything else. */
const registrationOrder = (first: string) => JSON.stringify(registriesAfterImporting(first));

describe("the heuristic's modules load the registries first", () => {
  it('every module of agents/heuristic/ imports ./registries.ts before anything else', () => {
    expect(modules.length).toBeGreaterThan(10);
    for (const f of modules) {
      expect(firstImportLine(join(dir, f)), f).toBe("import './registries.ts';");
    }
  });

  it('a module imported alone registers the rules in the order a game loads them', () => {
    const game = registrationOrder(join(root, 'src/sim/play.ts'));
    // the module that imports the most of the engine before its own code
    expect(registrationOrder(join(dir, 'stratagems.ts'))).toBe(game);
    expect(JSON.parse(game).rules.length).toBeGreaterThan(100);
  }, 60_000);
});
