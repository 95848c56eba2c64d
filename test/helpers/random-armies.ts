/**
 * Armies no scenario has, for the rule checks: four datasheets a side drawn at random (from the seed alone)
 * from the whole of both bundled factions' data, and a unit for the first Leader drawn to lead, on the small
 * board of test/helpers/mini-scenario.ts, the agents declaring the battle formations; one army under a Strike
 * Force detachment of its faction and the other under none. bench/datasheet-sweep.ts
 * plays many; test/rules/invariants.test.ts a few of each detachment.
 */
import seedrandom from 'seedrandom';
import { loadFactionCatalog, type FactionCatalog } from '../../src/data/catalog.ts';
import type { ResolvedScenario } from '../../src/data/scenario-types.ts';
import { registeredFactions } from '../../src/rules/factions.ts';
import { miniScenario } from './mini-scenario.ts';

// the Manta's base does not fit in the small board's 18" deployment zone (a clear error at set-up, not a rule broken)
const TOO_LARGE = new Set(['Manta']);

interface Pool { names: string[]; catalog: FactionCatalog }
let cached: { pools: { tau: Pool; aeldari: Pool }; boardingActions: Set<string> } | null = null;
function data() {
  if (cached) return cached;
  const catalogs = { tau: loadFactionCatalog('tau'), aeldari: loadFactionCatalog('aeldari') };
  const pool = (c: FactionCatalog): Pool => ({ names: c.datasheets.filter((d) => !TOO_LARGE.has(d.name)).map((d) => d.name), catalog: c });
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
  const pick = <T>(list: readonly T[]) => list[Math.floor(rng() * list.length)];
  const draw = ({ names, catalog }: Pool) => {
    const out = Array.from({ length: 4 }, () => pick(names));
    // a Leader drawn brings a unit it can lead, so that Attached units are played too
    const leader = out.map((n) => catalog.byName(n)!).find((d) => d.leads.length > 0);
    const bodyguard = leader ? catalog.byId(pick(leader.leads)) : undefined;
    if (bodyguard && !TOO_LARGE.has(bodyguard.name)) out.push(bodyguard.name);
    return out;
  };
  const sc = miniScenario({ tau: draw(pools.tau), aeldari: draw(pools.aeldari), rounds: 5 });
  sc.players[side].detachment = detachment;
  sc.players[side].army.detachment = detachment;
  // the agents attach the Leaders, fill the TRANSPORTs and pick the Reserves (Declare Battle Formations)
  for (const p of sc.players) p.formations = 'agent';
  return sc;
}
