/**
 * Mustering: turning a datasheet and a chosen unit size and loadout into a unit of the game state.
 */
import type { Datasheet } from '../data/datasheet.ts';
import { emptyTurnFlags, type ModelState, type PlayerIndex, type UnitState } from '../core/state.ts';

export interface ModelGroupSpec {
  /** model profile name on the datasheet (or its index) */
  profile: string | number;
  count: number;
  /** weapon names this group of models is equipped with (defaults to the datasheet's default loadout) */
  weapons?: string[];
}

export interface UnitSpec {
  id: string;
  player: PlayerIndex;
  datasheet: Datasheet;
  models: ModelGroupSpec[];
  points?: number;
  warlord?: boolean;
  enhancement?: string | null;
  /** extra rule names this unit plays (enhancement effects...) */
  extraAbilities?: string[];
}

export function profileIndex(ds: Datasheet, profile: string | number): number {
  if (typeof profile === 'number') {
    if (profile < 0 || profile >= ds.models.length) throw new Error(`${ds.name}: no model profile #${profile}`);
    return profile;
  }
  const norm = (s: string) => s.toLowerCase().replace(/[’']/g, "'");
  const i = ds.models.findIndex((m) => norm(m.name) === norm(profile));
  if (i >= 0) return i;
  // army lists name models as the unit composition does ("Fire Warrior Shas'ui"); the composition entry
  // says which model profile holds their characteristics
  const comp = ds.composition.find((c) => norm(c.profile) === norm(profile));
  if (comp?.statsProfile) {
    const j = ds.models.findIndex((m) => norm(m.name) === norm(comp.statsProfile!));
    if (j >= 0) return j;
  }
  if (ds.models.length === 1) return 0;
  throw new Error(`${ds.name}: no model profile named "${profile}" (known: ${ds.models.map((m) => m.name).join(', ')})`);
}

/** Rule names a datasheet plays: its core abilities and its own abilities, each resolved by the registry. */
export function datasheetAbilities(ds: Datasheet): string[] {
  const out: string[] = [];
  for (const c of ds.coreAbilities) if (!out.includes(c.name)) out.push(c.name);
  for (const a of ds.abilities) if (!out.includes(a)) out.push(a);
  return out;
}

export function createUnitState(spec: UnitSpec): UnitState {
  const ds = spec.datasheet;
  const models: ModelState[] = [];
  let n = 0;
  for (const group of spec.models) {
    const pi = profileIndex(ds, group.profile);
    const prof = ds.models[pi];
    const weapons = group.weapons ?? ds.defaultLoadout[prof.name] ?? ds.weapons.map((w) => w.name);
    for (const w of weapons) {
      if (!ds.weapons.some((x) => x.name === w)) throw new Error(`${ds.name}: model "${prof.name}" has no weapon "${w}"`);
    }
    for (let k = 0; k < group.count; k++) {
      models.push({
        id: `${spec.id}-m${++n}`, origin: spec.id, datasheet: ds.id, profile: pi, name: typeof group.profile === 'string' ? group.profile : prof.name,
        wounds: prof.wounds, pos: null, weapons: weapons.slice(), alive: true, allocated: false,
      });
    }
  }
  const keywords = [...ds.keywords, ...ds.factionKeywords];
  const abilities = [...datasheetAbilities(ds), ...(spec.extraAbilities ?? [])];
  return {
    id: spec.id, player: spec.player, datasheet: ds.id, name: ds.name, models,
    startingStrength: models.length,
    components: [{ unit: spec.id, datasheet: ds.id, name: ds.name, startingStrength: models.length, isLeader: false, destroyed: false, keywords, abilities }],
    attachedTo: null, location: 'unplaced', embarkedIn: null, keywords: keywords.slice(), abilities: abilities.slice(),
    battleShocked: false, flags: emptyTurnFlags(), warlord: spec.warlord ?? false, enhancement: spec.enhancement ?? null,
    points: spec.points ?? 0, stats: { woundsDealt: 0, woundsTaken: 0, modelsKilled: 0 },
  };
}
