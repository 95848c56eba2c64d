/**
 * Armies no scenario has, for the rule checks: four datasheets a side (or more) drawn at random (from the seed alone)
 * from the whole of both bundled factions' data, and a unit for the first Leader drawn to lead, the agents
 * declaring the battle formations; one army under a detachment of its faction and the other under none.
 * Strike Force detachments play on the small board of test/helpers/mini-scenario.ts; Boarding Actions ones
 * on the bundled Boarding Actions board (scenarios/boarding-actions/starfire-vs-aeldari.json), with INFANTRY
 * datasheets only (its corridors are built for them). bench/datasheet-sweep.ts plays many; the invariants
 * suite (test/rules/invariants.test.ts) a few of each detachment.
 */
import seedrandom from 'seedrandom';
import { loadFactionCatalog, type FactionCatalog } from '../../src/data/catalog.ts';
import type { Datasheet } from '../../src/data/datasheet.ts';
import { loadScenario } from '../../src/data/scenario.ts';
import type { ResolvedScenario } from '../../src/data/scenario-types.ts';
import { registeredFactions } from '../../src/rules/factions.ts';
import { miniScenario } from './mini-scenario.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { lookupKey } from '../../src/data/text.ts';

// the Manta's base does not fit in the small board's 18" deployment zone (a clear error at set-up, not a rule broken)
const TOO_LARGE = new Set(['Manta']);
const BOARDING_BOARD = 'scenarios/boarding-actions/starfire-vs-aeldari.json';

export type Mode = 'strike-force' | 'boarding-actions';

interface Pool { names: string[]; catalog: FactionCatalog }
let cached: { pools: Record<Mode, { tau: Pool; aeldari: Pool }>; boardingActions: Set<string>; board: ResolvedScenario } | null = null;
function data() {
  if (cached) return cached;
  const catalogs = { tau: loadFactionCatalog('tau'), aeldari: loadFactionCatalog('aeldari') };
  const pool = (c: FactionCatalog, keep: (d: Datasheet) => boolean): Pool => ({ names: c.datasheets.filter((d) => !TOO_LARGE.has(d.name) && keep(d)).map((d) => d.name), catalog: c });
  const any = () => true;
  const infantry = (d: Datasheet) => d.keywords.includes('INFANTRY');
  // Boarding Actions detachments (the data's type) play only on their own boards
  const boardingActions = new Set([...catalogs.tau.data.detachments, ...catalogs.aeldari.data.detachments].filter((d) => d.type === 'Boarding Actions').map((d) => d.name));
  return (cached = {
    pools: {
      'strike-force': { tau: pool(catalogs.tau, any), aeldari: pool(catalogs.aeldari, any) },
      'boarding-actions': { tau: pool(catalogs.tau, infantry), aeldari: pool(catalogs.aeldari, infantry) },
    },
    boardingActions,
    board: loadScenario(BOARDING_BOARD),
  });
}

/** The detachments of the bundled factions, with their mode and the side (0: T'au, 1: Aeldari) that plays each. */
export function sweptDetachments(): { detachment: string; side: 0 | 1; mode: Mode }[] {
  const { boardingActions } = data();
  return registeredFactions().flatMap((f) => Object.keys(f.detachments).map((detachment) => ({
    detachment, side: (f.id === 'TAU' ? 0 : 1) as 0 | 1, mode: (boardingActions.has(detachment) ? 'boarding-actions' : 'strike-force') as Mode,
  })));
}

/**
 * The random armies of `seed` (`units` datasheets a side), `side`'s under `detachment`, over five battle rounds,
 * on the board of `mode`. With `enhancements`, each CHARACTER of that army that may take one is given an
 * Enhancement of the detachment drawn at random (each once, at most three, as an army may).
 */
export function randomArmiesScenario(seed: string, detachment: string, side: 0 | 1, mode: Mode = 'strike-force', units = 4, enhancements = false, wargear = false): ResolvedScenario {
  const { pools, board } = data();
  const rng = seedrandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rng() * list.length)];
  const draw = ({ names, catalog }: Pool) => {
    const out = Array.from({ length: units }, () => pick(names));
    // a Leader drawn brings a unit it can lead, so that Attached units are played too
    const leader = out.map((n) => catalog.byName(n)!).find((d) => d.leads.length > 0);
    const bodyguard = leader ? catalog.byId(pick(leader.leads)) : undefined;
    if (bodyguard && !TOO_LARGE.has(bodyguard.name) && (mode === 'strike-force' || bodyguard.keywords.includes('INFANTRY'))) out.push(bodyguard.name);
    return out;
  };
  const armies = miniScenario({ tau: draw(pools[mode].tau), aeldari: draw(pools[mode].aeldari), rounds: 5 });
  let sc = armies;
  if (mode === 'boarding-actions') {
    // the bundled board, mission and hatchways, with these armies (T'au and Aeldari on the board's own sides)
    sc = structuredClone(board);
    for (const p of sc.players) {
      const a = armies.players[p.faction === 'TAU' ? 0 : 1];
      Object.assign(p, { army: { ...a.army, battleSize: p.army.battleSize }, datasheets: a.datasheets, leaders: {}, transports: {}, reserves: {}, detachment: null });
      p.army.detachment = '';
    }
  }
  const p = sc.players.find((x) => x.faction === (side === 0 ? 'TAU' : 'AE'))!;
  p.detachment = detachment;
  p.army.detachment = detachment;
  if (enhancements) giveEnhancements(p, pools[mode][side === 0 ? 'tau' : 'aeldari'].catalog, detachment, pick);
  if (wargear) for (const x of sc.players) for (const u of x.army.units) u.models = randomWargear(x.datasheets[u.datasheetId], u.models, rng);
  // the agents attach the Leaders, fill the TRANSPORTs and pick the Reserves (Declare Battle Formations)
  for (const x of sc.players) x.formations = 'agent';
  return sc;
}

type ArmyModels = ResolvedScenario['players'][number]['army']['units'][number]['models'];

/**
 * The data's wargear options taken at random (each option half the time, one of its choices): for as many
 * models of the profiles it names as it allows (all, or its count, once for every N models when it says so),
 * among those that carry what it replaces, the replaced items go and the choice's come (a weapon of the
 * datasheet among the weapons, anything else as wargear). Options the importer could not structure are left.
 */
function randomWargear(ds: Datasheet, models: ArmyModels, rng: () => number): ArmyModels {
  const out = models.map((m) => ({ ...m }));
  const size = out.reduce((n, m) => n + m.count, 0);
  const isWeapon = (name: string) => ds.weapons.some((w) => lookupKey(w.name) === lookupKey(name));
  // a model's wargear when the army names none: its profile's default loadout's (kept unnamed until an option changes it)
  const wargearOf = (m: (typeof out)[number]) => m.wargear ?? (ds.defaultLoadout[m.profile] ?? []).filter((n) => !isWeapon(n));
  const carries = (m: (typeof out)[number], item: string) => [...(m.weapons ?? []), ...wargearOf(m)].some((x) => lookupKey(x) === lookupKey(item));
  // one copy of each replaced item goes (a model with two Missile pods that swaps one keeps the other)
  const without = (items: readonly string[], gone: readonly string[]) => {
    const left = [...items];
    for (const r of gone) {
      const i = left.findIndex((x) => lookupKey(x) === lookupKey(r));
      if (i >= 0) left.splice(i, 1);
    }
    return left;
  };
  for (const o of ds.wargearOptions) {
    if (o.unparsed || rng() < 0.5) continue;
    const choices = o.choices?.length ? o.choices : o.with.map((w) => [w]);
    if (!choices.length) continue;
    const choice = choices[Math.floor(rng() * choices.length)];
    const i = out.findIndex((m) => (o.models.length === 0 || o.models.includes(m.profile)) && o.replace.every((r) => carries(m, r)));
    if (i < 0) continue;
    const m = out[i];
    const times = o.perModels ? Math.floor(size / o.perModels) : 1;
    const n = o.count === 'all' ? m.count : Math.min(m.count, o.count * times);
    if (n <= 0) continue;
    const changed = { ...m, count: n, weapons: [...without(m.weapons ?? [], o.replace), ...choice.filter(isWeapon)] };
    if ([...o.replace, ...choice].some((x) => !isWeapon(x))) changed.wargear = [...without(wargearOf(m), o.replace), ...choice.filter((c) => !isWeapon(c))];
    out.splice(i, 1, changed, ...(m.count > n ? [{ ...m, count: m.count - n }] : []));
  }
  return out;
}

/** Enhancements of the detachment for the army's CHARACTERs, drawn with `pick`; one the muster checks refuse for its bearer is taken back. */
function giveEnhancements(p: ResolvedScenario['players'][number], catalog: FactionCatalog, detachment: string, pick: <T>(list: readonly T[]) => T): void {
  const left = catalog.data.enhancements.filter((e) => e.detachment === detachment).map((e) => e.name);
  let given = 0;
  for (const u of p.army.units) {
    const ds = p.datasheets[u.datasheetId];
    if (given >= 3 || !left.length || !ds.keywords.includes('CHARACTER')) continue;
    const name = pick(left);
    u.enhancement = name;
    if (musterWarnings(p.army, (id) => p.datasheets[id], (e) => catalog.enhancement(e)).some((w) => w.includes(name))) {
      delete u.enhancement;
      continue;
    }
    left.splice(left.indexOf(name), 1);
    given++;
  }
}
