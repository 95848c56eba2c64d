/**
 * Evaluation helpers for agents: the value of units, the expected damage of a unit's weapons against a
 * target with every active rule counted (the same Attack plan the engine builds, fed to the exact
 * calculator), threat, and charge probabilities. Pure reads of the state.
 */
import type { Effect, GameState, ModelState, PlayerIndex, UnitState } from '../core/state.ts';
import { profileHas, type Weapon, type WeaponProfile } from '../data/datasheet.ts';
import { expectedDamage, type DefenderProfile } from '../calc/exact.ts';
import { weaponHas, weaponRange } from '../core/rules-registry.ts';
import { buildAttackPlan } from '../rules/attack-context.ts';
import { addHitModifier, type AttackPlan } from '../rules/attack-plan.ts';
import { isLeaderModel } from '../rules/allocation.ts';
import { feelNoPainOf, invulnerableOf } from '../rules/damage.ts';
import { horizontalDistance } from '../geometry/distance.ts';
import { benefitOfCover } from '../geometry/visibility.ts';
import { boardOf, isEngaged, modelBody } from '../rules/battle/world.ts';
import { isMonsterOrVehicle, onBattlefield } from '../rules/battle/units.ts';
import { bigGunsHitModifier } from '../rules/battle/big-guns.ts';
import { perVersion } from './memo.ts';

/** Total Wounds of a unit at full strength and now. */
export function unitWounds(state: GameState, u: UnitState): { now: number; max: number } {
  let now = 0, max = 0;
  for (const m of u.models) {
    const w = state.datasheets[m.datasheet].models[m.profile].wounds;
    max += w;
    if (m.alive) now += m.wounds;
  }
  return { now, max };
}

function aliveModels(u: UnitState): number {
  let n = 0;
  for (const m of u.models) if (m.alive) n++;
  return n;
}

/** Points of the unit still on the table, pro rata of its wounds (Attached units: both parts). */
export function unitValue(state: GameState, u: UnitState): number {
  const { now, max } = unitWounds(state, u);
  let pts = u.points;
  for (const c of u.components) if (c.unit !== u.id) pts += state.units[c.unit]?.points ?? 0;
  return max > 0 ? Math.max(pts, 20) * (now / max) : 0;
}

export function pointsPerWound(state: GameState, u: UnitState): number {
  const { now } = unitWounds(state, u);
  return now > 0 ? unitValue(state, u) / now : 0;
}

/** The defender as the calculator sees it against ranged or (`melee`) melee attacks: the most common profile of the models attacks can reach. */
export function defenderProfile(state: GameState, target: UnitState, melee = false): DefenderProfile {
  const c = versionCache(state);
  const cache = melee ? c.meleeDefenders : c.defenders;
  let d = cache.get(target);
  if (!d) cache.set(target, (d = computeDefenderProfile(state, target, melee)));
  return d;
}

function computeDefenderProfile(state: GameState, target: UnitState, melee: boolean): DefenderProfile {
  const bodyguard = target.models.some((m) => m.alive && !isLeaderModel(target, m));
  const alive = target.models.filter((m) => m.alive && (!bodyguard || !isLeaderModel(target, m)));
  const first = alive[0] ?? target.models[0];
  const p = state.datasheets[first.datasheet].models[first.profile];
  // the datasheet's, and the ones its abilities and effects give (an Ethereal leading it), as the damage step reads them
  const fnp = feelNoPainOf(state, target, first, null, false);
  return { models: alive.length, save: p.save, invulnerable: invulnerableOf(state, target, first, melee), wounds: p.wounds, feelNoPain: fnp };
}

export interface WeaponUse {
  weapon: Weapon;
  profile: WeaponProfile;
  models: ModelState[];
  /**
   * The Pistol of models that also carry other ranged weapons (not in a MONSTER or VEHICLE unit): such a
   * model fires one or the other, so its Pistol is counted only beyond this range (the longest of its
   * other ranged weapons), where they reach nothing, or while its unit is engaged (Pistols only).
   */
  beyond?: number;
}

/**
 * Caches of one state object that hold while its contentVersion does not change (every change of the
 * state is an event; dice events only move the dice stream): the weapon groups of units, their signatures, the rules-of-the-moment stamp.
 */
interface VersionCache {
  version: number;
  uses: Map<string, WeaponUse[]>;
  sig: Map<string, string>;
  stamp: string;
  /** signature ids of units (weaponPotentials), valid for the potential cache's generation sigGen */
  sigIds: Map<string, number>;
  sigGen: number;
  /** benefit of cover of a target model from an attacking model (weaponEstimate asks for each weapon of the unit) */
  cover: Map<ModelState, Map<ModelState, boolean>>;
  /** defender profiles of target units (read-only: shared by every estimate of the version) */
  defenders: Map<UnitState, DefenderProfile>;
  /** the same against melee attacks (an invulnerable save against ranged attacks only, or a better one in melee) */
  meleeDefenders: Map<UnitState, DefenderProfile>;
}

const versionCaches = new WeakMap<GameState, VersionCache>();

function versionCache(state: GameState): VersionCache {
  // the last one asked for, without the WeakMap (asked several times per potential, ~100,000 times a game)
  if (lastCacheState === state && lastCache !== null && lastCache.version === state.contentVersion) return lastCache;
  let c = versionCaches.get(state);
  if (!c || c.version !== state.contentVersion) {
    // effects on no unit in particular (army-wide) count for every unit; those on a unit, in its signature
    let global = '';
    for (const e of state.effects) if (e.unit === null) global += effectKey(e);
    c = { version: state.contentVersion, uses: new Map(), sig: new Map(), stamp: `${state.seed}|${state.round}|${global}`, sigIds: new Map(), sigGen: -1, cover: new Map(), defenders: new Map(), meleeDefenders: new Map() };
    versionCaches.set(state, c);
  }
  lastCacheState = state;
  lastCache = c;
  return c;
}

let lastCacheState: GameState | null = null;
let lastCache: VersionCache | null = null;

/** The unit's weapons of one kind (ranged or melee), grouped by weapon, with the models carrying each copy. */
export function weaponUses(state: GameState, u: UnitState, melee: boolean): WeaponUse[] {
  const cache = versionCache(state).uses;
  const key = melee ? `${u.id}|m` : `${u.id}|r`;
  const hit = cache.get(key);
  if (hit) return hit;
  // the groups change only when models die or join or leave the unit (a model's weapons never change):
  // kept per unit object with the ids of its living models
  let alive = '';
  for (const m of u.models) if (m.alive) alive += `${m.id},`;
  let kept = usesByUnit.get(u);
  if (!kept || kept.alive !== alive) usesByUnit.set(u, (kept = { alive, ranged: null, melee: null }));
  let out = melee ? kept.melee : kept.ranged;
  if (!out) {
    out = groupWeapons(state, u, melee);
    if (melee) kept.melee = out;
    else kept.ranged = out;
  }
  cache.set(key, out);
  return out;
}

const usesByUnit = new WeakMap<UnitState, { alive: string; ranged: WeaponUse[] | null; melee: WeaponUse[] | null }>();

function groupWeapons(state: GameState, u: UnitState, melee: boolean): WeaponUse[] {
  const groups = new Map<string, WeaponUse>();
  const bigGuns = isMonsterOrVehicle(u);
  for (const m of u.models) {
    if (!m.alive) continue;
    const ds = state.datasheets[m.datasheet];
    // Pistols or other weapons: the reach of the model's other ranged weapons (0: none)
    let other = 0;
    if (!melee && !bigGuns) {
      for (const name of m.weapons) {
        const p = ds.weapons.find((x) => x.name === name)?.profiles.find((q) => q.range !== 'Melee');
        if (p && !profileHas(p, 'PISTOL')) other = Math.max(other, weaponRange(state, u, p));
      }
    }
    for (const name of m.weapons) {
      const w = ds.weapons.find((x) => x.name === name);
      if (!w) continue;
      const pi = w.profiles.findIndex((p) => (p.range === 'Melee') === melee);
      if (pi < 0) continue;
      const dual = other > 0 && profileHas(w.profiles[pi], 'PISTOL');
      const key = dual ? `${m.datasheet}:${name}:${other}` : `${m.datasheet}:${name}`;
      let gr = groups.get(key);
      if (!gr) groups.set(key, (gr = { weapon: w, profile: w.profiles[pi], models: [], ...(dual ? { beyond: other } : {}) }));
      gr.models.push(m);
    }
  }
  return [...groups.values()];
}

export interface DamageEstimate {
  /** models that make the attacks (those in range, with inRangeOnly) */
  attackers: number;
  woundsLost: number;
  modelsKilled: number;
  /** value in points of the expected damage (wounds x points per wound, bonus for killing the unit) */
  value: number;
}

/** A change to the Attack plan, to price a rule that is not in force yet (a stratagem's effect). */
export type PlanTweak = (plan: AttackPlan, info: { distance: number; target: UnitState; weapon: string }) => void;

export interface EstimateOptions {
  /** count only the models within range of the target now (ranged) */
  inRangeOnly?: boolean;
  /** ignore positions: every model fires, no half range, no cover (the threat a unit carries anywhere) */
  anywhere?: boolean;
  /** a change to the plan before it is priced */
  tweak?: PlanTweak;
}

/** Expected damage of some of a unit's models firing one profile at a target, every rule of the moment counted. */
export function weaponEstimate(state: GameState, attacker: UnitState, use: WeaponUse, target: UnitState, opts: EstimateOptions = {}): DamageEstimate {
  const melee = use.profile.range === 'Melee';
  // the groups of weaponUses hold living models only (no copy needed); other callers' may not
  let models = use.models.every((m) => m.alive) ? use.models : use.models.filter((m) => m.alive);
  let distance = 0;
  let half = false;
  let cover = false;
  if (!melee && attacker.location === 'battlefield' && !opts.anywhere) {
    const range = weaponRange(state, attacker, use.profile);
    // a Pistol backing up other weapons fires only where they reach nothing, or in combat
    const beyond = use.beyond !== undefined && !isEngaged(state, attacker) ? use.beyond : -1;
    const within: ModelState[] = [];
    let best = Infinity;
    let halfCount = 0;
    for (const m of models) {
      if (!m.pos) continue;
      const b = modelBody(state, m);
      let d = Infinity;
      for (const t of target.models) if (t.alive && t.pos) d = Math.min(d, horizontalDistance(b, modelBody(state, t)));
      if (d <= beyond) continue;
      if (d <= range || !opts.inRangeOnly) within.push(m);
      if (d <= range / 2) halfCount++;
      best = Math.min(best, d);
    }
    models = within;
    distance = best === Infinity ? 0 : best;
    half = halfCount * 2 >= Math.max(1, within.length);
    const t0 = target.models.find((m) => m.alive && m.pos);
    const a0 = models.find((m) => m.pos);
    if (t0 && a0) cover = coverFrom(state, a0, t0);
  } else if (!melee && opts.anywhere) {
    distance = 12;
  }
  if (models.length === 0 || !(onBattlefield(target) || opts.anywhere)) return { attackers: 0, woundsLost: 0, modelsKilled: 0, value: 0 };
  const plan = buildAttackPlan({
    state, attacker, attackers: models, target, weapon: use.weapon, profile: use.profile, melee,
    halfRange: half, targetModels: aliveModels(target), targetVisible: true, targetInCover: cover, distance,
  });
  // Big Guns Never Tire's -1 where the units stand now, as the shooting phase adds it
  if (!melee && !opts.anywhere && attacker.location === 'battlefield') addHitModifier(plan, bigGunsHitModifier(state, attacker, target, use.profile));
  if (opts.tweak) opts.tweak(plan, { distance, target, weapon: use.weapon.name });
  const def = defenderProfile(state, target, melee);
  const e = expectedDamage(plan, models.length, def);
  const { now } = unitWounds(state, target);
  const lost = Math.min(e.meanWoundsLost, now);
  const kill = lost >= now - 1e-9 ? 0.25 * unitValue(state, target) : 0;
  return { attackers: models.length, woundsLost: lost, modelsKilled: e.meanModelsDestroyed, value: lost * pointsPerWound(state, target) + kill };
}

/** Does the target model have the benefit of cover from the attacking model (kept for the state's version)? */
function coverFrom(state: GameState, a: ModelState, t: ModelState): boolean {
  const all = versionCache(state).cover;
  let byTarget = all.get(a);
  if (!byTarget) all.set(a, (byTarget = new Map()));
  let v = byTarget.get(t);
  if (v === undefined) byTarget.set(t, (v = benefitOfCover(modelBody(state, t), [modelBody(state, a)], boardOf(state))));
  return v;
}

/**
 * Potentials: what a unit's weapons can do to a target from anywhere (every model firing, no cover, no
 * half range). They depend on the models alive and the rules in force, not on positions, so they are
 * kept across events (and phases of a battle round) while the models and effects of both units and
 * the army-wide effects stay the same. (Rules that only apply in one phase are priced as in the phase
 * the potential was first computed in: a threat estimate, not the attack itself.)
 * One cache per game, keyed by the game's datasheet table (made for each game, never changed, shared by
 * the copies the lookahead plays): unit ids repeat from game to game (a side-swapped game has other
 * units under the same ids), so a cache shared by the games of a worker would answer for the wrong unit.
 */
const potentialCaches = new WeakMap<object, PotentialCache>();

/**
 * A game's potentials, keyed by number: each (army-wide rules stamp, unit signature) pair gets an id
 * once, and a potential's key is (attacker's id, target's id, melee) packed in one number (no string
 * built per call: the agents ask ~30,000 times a game).
 */
interface PotentialCache {
  byKey: Map<number, WeaponPotential[]>;
  ids: Map<string, number>;
  /** bumped when the ids start again (more than MAX_SIGNATURES): ids kept per state version are then stale */
  gen: number;
}
const MAX_SIGNATURES = 1 << 20;

export interface WeaponPotential {
  range: number;
  /** counted only at gaps beyond this (a Pistol backing up other weapons: WeaponUse.beyond); -1 for the rest */
  beyond: number;
  /** ASSAULT: may fire after an Advance */
  assault: boolean;
  value: number;
}

function aliveKey(state: GameState, u: UnitState): string {
  const cache = versionCache(state).sig;
  let k = cache.get(u.id);
  if (k === undefined) {
    let w = 0, n = 0;
    for (const m of u.models) if (m.alive) { w += m.wounds; n++; }
    let eff = '';
    for (const e of state.effects) if (e.unit === u.id) eff += effectKey(e);
    k = `${u.id}:${n}:${w}:${u.location === 'battlefield' ? 1 : 0}:${u.battleShocked ? 1 : 0}:${eff}`;
    cache.set(u.id, k);
  }
  return k;
}

/**
 * An effect as the potentials' keys name it (in a unit's signature, in the army-wide stamp): its id with its
 * kind and parameters. The id alone is not enough: the copies of a game the agents look ahead in (and a
 * hypothetical effect the heuristic prices) share the game's cache, and their effects take the ids the real
 * game's next effects will take, for other rules. Kept per effect object (an effect never changes once added).
 */
function effectKey(e: Effect): string {
  let k = effectKeys.get(e);
  if (k === undefined) effectKeys.set(e, (k = `${e.id}.${e.kind}.${JSON.stringify(e.params)},`));
  return k;
}
const effectKeys = new WeakMap<Effect, string>();

function potentialCache(state: GameState): PotentialCache {
  if (lastPotentialsOf === state.datasheets && lastPotentials !== null) return lastPotentials;
  let pc = potentialCaches.get(state.datasheets);
  if (!pc) potentialCaches.set(state.datasheets, (pc = { byKey: new Map(), ids: new Map(), gen: 0 }));
  lastPotentialsOf = state.datasheets;
  lastPotentials = pc;
  return pc;
}

/** The game's potential cache last asked for (without the WeakMap). */
let lastPotentialsOf: object | null = null;
let lastPotentials: PotentialCache | null = null;

/** The id of the unit's signature under the rules stamp of the state's version (see PotentialCache). */
function signatureId(state: GameState, pc: PotentialCache, u: UnitState): number {
  const vc = versionCache(state);
  if (vc.sigGen !== pc.gen) { vc.sigIds.clear(); vc.sigGen = pc.gen; }
  let id = vc.sigIds.get(u.id);
  if (id === undefined) {
    const full = `${vc.stamp}|${aliveKey(state, u)}`;
    id = pc.ids.get(full);
    if (id === undefined) {
      if (pc.ids.size >= MAX_SIGNATURES) {
        pc.ids.clear(); pc.byKey.clear(); pc.gen++;
        vc.sigIds.clear(); vc.sigGen = pc.gen;
      }
      pc.ids.set(full, (id = pc.ids.size));
    }
    vc.sigIds.set(u.id, id);
  }
  return id;
}

/** Each weapon's expected value against the target from anywhere (ranged), or the melee total (one entry). */
export function weaponPotentials(state: GameState, attacker: UnitState, target: UnitState, melee: boolean): WeaponPotential[] {
  const pc = potentialCache(state);
  const a = signatureId(state, pc, attacker);
  const key = (a * MAX_SIGNATURES + signatureId(state, pc, target)) * 2 + (melee ? 1 : 0);
  let out = pc.byKey.get(key);
  if (out) return out;
  out = [];
  let total = 0;
  for (const use of weaponUses(state, attacker, melee)) {
    const v = weaponEstimate(state, attacker, use, target, { anywhere: true }).value;
    if (melee) total += v;
    else out.push({ range: weaponRange(state, attacker, use.profile), beyond: use.beyond ?? -1, assault: weaponHas(state, attacker, use.profile, 'ASSAULT'), value: v });
  }
  if (melee) out.push({ range: 0, beyond: -1, assault: false, value: total });
  if (pc.byKey.size > 200_000) pc.byKey.clear();
  pc.byKey.set(key, out);
  return out;
}

/**
 * Expected value of the unit's attacks on the target if it were in range of all of them (threat): the
 * Pistols that back up other weapons are left out (those fire instead). `maxRange`: only the guns that
 * reach no further.
 */
export function unitAttackPotential(state: GameState, attacker: UnitState, target: UnitState, melee: boolean, maxRange = Infinity): number {
  let v = 0;
  for (const p of weaponPotentials(state, attacker, target, melee)) if (p.beyond < 0 && p.range <= maxRange) v += p.value;
  return v;
}

/** Does a ranged potential count at a target `gap` inches away (edge to edge): in range, and beyond `beyond`? */
export function reachesAt(p: Pick<WeaponPotential, 'range' | 'beyond'>, gap: number): boolean {
  return gap <= p.range && gap > p.beyond;
}

/** Value of the unit's ranged weapons that reach a target `gap` inches away (edge to edge). */
export function rangedPotentialAt(state: GameState, attacker: UnitState, target: UnitState, gap: number, advanced = false): number {
  let v = 0;
  for (const p of weaponPotentials(state, attacker, target, false)) if (reachesAt(p, gap) && (!advanced || p.assault)) v += p.value;
  return v;
}

/** Longest ranged weapon range of the unit. */
export function maxRange(state: GameState, u: UnitState): number {
  return perVersion(state, `range|${u.id}`, () => {
    let r = 0;
    for (const use of weaponUses(state, u, false)) r = Math.max(r, weaponRange(state, u, use.profile));
    return r;
  });
}

/** P(2D6 >= k) for k = 0..12, counted once (the agents ask hundreds of thousands of times a game). */
const P2D6_AT_LEAST = Array.from({ length: 13 }, (_, k) => count2d6AtLeast(k));

/** P(2D6 >= k). */
export function p2d6AtLeast(k: number): number {
  if (k <= 2) return 1;
  if (k > 12) return 0;
  // k is an integer from the callers (Math.ceil of a distance); any other k is counted out
  return Number.isInteger(k) ? P2D6_AT_LEAST[k] : count2d6AtLeast(k);
}

function count2d6AtLeast(k: number): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b >= k) n++;
  return n / 36;
}

export function enemyUnits(state: GameState, player: PlayerIndex): UnitState[] {
  return state.unitOrder.map((id) => state.units[id]).filter((u) => u.player !== player && onBattlefield(u));
}

export function ownUnits(state: GameState, player: PlayerIndex): UnitState[] {
  return state.unitOrder.map((id) => state.units[id]).filter((u) => u.player === player && onBattlefield(u));
}
