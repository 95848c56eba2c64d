/**
 * Armies no scenario has, for the rule checks: four datasheets a side drawn at random (from the seed alone)
 * from the whole of both bundled factions' data, on the small board of test/helpers/mini-scenario.ts, one
 * army under a Strike Force detachment of its faction and the other under none. bench/datasheet-sweep.ts
 * plays many; test/rules/invariants.test.ts a few of each detachment.
 */
import seedrandom from 'seedrandom';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import type { ResolvedScenario } from '../../src/data/scenario-types.ts';
import { registeredFactions } from '../../src/rules/factions.ts';
import { miniScenario } from './mini-scenario.ts';

// the Manta's base does not fit in the small board's 18" deployment zone (a clear error at set-up, not a rule broken)
const TOO_LARGE = new Set(['Manta']);

let cached: { pools: { tau: string[]; aeldari: string[] }; boardingActions: Set<string> } | null = null;
function data() {
  if (cached) return cached;
  const catalogs = { tau: loadFactionCatalog('tau'), aeldari: loadFactionCatalog('aeldari') };
  const pool = (c: typeof catalogs.tau) => c.datasheets.filter((d) => !TOO_LARGE.has(d.name)).map((d) => d.name);
  // Boarding Actions detachments (the data's type) play only on their own boards
  const boardingActions = new Set([...catalogs.tau.data.detachments, ...catalogs.aeldari.data.detachments].filter((d) => d.type === 'Boarding Actions').map((d) => d.name));
  return (cached = { pools: { tau: pool(catalogs.tau), aeldari: pool(catalogs.aeldari) }, boardingActions });
}

/** The Strike Force detachments of the bundled factions, with the side (0: T'au, 1: Aeldari) that plays each. */
export function strikeForceDetachments(): { detachment: string; side: 0 | 1 }[] {
  const { boardingActions } = data();
  return registeredFactions().flatMap((f) => Object.keys(f.detachments).filter((d) => !boardingActions.has(d)).map((detachment) => ({ detachment, side: (f.id === 'TAU' ? 0 : 1) as 0 | 1 })));
}

/** The random armies of `seed`, `side`'s under `detachment`, over five battle rounds. */
export function randomArmiesScenario(seed: string, detachment: string, side: 0 | 1): ResolvedScenario {
  const { pools } = data();
  const rng = seedrandom(seed);
  const draw = (pool: string[]) => Array.from({ length: 4 }, () => pool[Math.floor(rng() * pool.length)]);
  const sc = miniScenario({ tau: draw(pools.tau), aeldari: draw(pools.aeldari), rounds: 5 });
  sc.players[side].detachment = detachment;
  sc.players[side].army.detachment = detachment;
  return sc;
}
