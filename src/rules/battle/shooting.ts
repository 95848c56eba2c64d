/**
 * Shooting phase: the active player selects eligible units one at a time; each selects targets for its
 * ranged weapons (any split, one target per weapon), the opponent may react, then the attacks resolve.
 *
 * Eligibility: on the battlefield, not yet shot, did not Fall Back, did not Advance (unless the weapon
 * is ASSAULT), not within Engagement Range (unless MONSTER/VEHICLE: Big Guns Never Tire, or PISTOL
 * weapons at units it is engaged with). Targets: enemy units within range of the model and visible to
 * it (INDIRECT FIRE needs no visibility), not within Engagement Range of friendly units (unless MONSTER or
 * VEHICLE: Big Guns Never Tire, ./big-guns.ts), Lone Operatives only within 12". A model that is not a
 * MONSTER or VEHICLE fires its Pistols or its other ranged weapons, as its player chooses. Firing Deck X: a
 * transport also fires up to X ranged weapons of its embarked models, chosen by its player each time it
 * is selected to shoot. LINKED FIRE weapons may measure from another friendly FIRE PRISM (./linked-fire.ts).
 */
import type { Game } from '../../core/game.ts';
import { opponent, type GameState, type ModelState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { abilityRulesWith, allows, anyUnitHas, afterAttacks, forbids, forEachActiveRule, effectsWith, getRule, isLoneOperative, targetableFrom, weaponHas, weaponRange } from '../../core/rules-registry.ts';
import { profileHas, type Weapon, type WeaponProfile } from '../../data/datasheet.ts';
import { benefitOfCover } from '../../geometry/visibility.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import type { Body } from '../../geometry/types.ts';
import { resolveAttacks, type AttackGroup } from '../attack-sequence.ts';
import { attackGroupKey, splitBySource } from '../attack-context.ts';
import { enemyAttacking, openWindow } from '../windows.ts';
import { hasStratagemFor } from '../stratagems/registry.ts';
import { endPhase, hooksOf, startPhase } from './phase.ts';
import { destroyedParts, isMonsterOrVehicle, onBattlefield, unitsOnBattlefield } from './units.ts';
import { boardOf, engagedEnemies, modelBody, modelsSee, unitGapLowerBound, unitSees } from './world.ts';
import { closeQuartersGroups, isBoardingActions } from './boarding.ts';
import { bigGunsHitModifier, engagedWithArmyOf } from './big-guns.ts';
import { hasLinkedFire, linkedFireBodies } from './linked-fire.ts';

/** Effect kind recording that a ONE SHOT weapon of a model was fired (params: model, weapon). */
export const ONE_SHOT_USED = 'One Shot used';

export function shootingPhase(g: Game, player: PlayerIndex): void {
  startPhase(g, player, 'shooting');
  shootingBody(g, player);
  endPhase(g, player, 'shooting');
}

/** The phase between its start and its end; re-entrant between two units' shooting (lookahead resumes it). */
export function shootingBody(g: Game, player: PlayerIndex): void {
  for (;;) {
    if (g.state.result) break;
    const eligible = unitsOnBattlefield(g.state, player).filter((u) => canShoot(g, u));
    if (eligible.length === 0) break;
    const options: ({ done: true } | { unit: string })[] = [{ done: true }, ...eligible.map((u) => ({ unit: u.id }))];
    const { option } = g.decide({ kind: 'select-unit-to-shoot', player, prompt: 'select a unit to shoot (or end the phase)', options });
    if ('done' in option) break;
    shootWithUnit(g, g.state.units[option.unit]);
  }
}

/** A weapon carried by a model (a model carrying two of the same weapon appears twice). */
interface Shooter {
  model: ModelState;
  /** where the shot is measured from: the model, or its transport for Firing Deck */
  body: Body;
  /** LINKED FIRE weapons: the other bodies the model may measure from (./linked-fire.ts) */
  links?: Body[];
  /** measured from one of `links`: the attacks are made with an Attacks characteristic of 1 */
  linked?: boolean;
}

interface WeaponGroup {
  weapon: Weapon;
  shooters: Shooter[];
}

export interface TargetOption {
  weapon: string;
  profile: number;
  target: string;
  /** weapons of the group that can shoot that target (a model carrying two of the weapon counts twice) */
  models: number;
  /** of those, the models that can only through LINKED FIRE (absent when none) */
  linked?: number;
}

function isRanged(p: WeaponProfile): boolean {
  return p.range !== 'Melee';
}

function oneShotUsed(s: GameState, model: string, weapon: string): boolean {
  return s.effects.some((e) => e.kind === ONE_SHOT_USED && e.params.model === model && e.params.weapon === weapon);
}

/** A ranged weapon an embarked model lends its transport through a Firing Deck. */
interface Lent {
  model: ModelState;
  weapon: Weapon;
}

/** Firing Deck X of a unit (0 without one). */
function firingDeck(s: GameState, u: UnitState): number {
  return s.datasheets[u.datasheet].coreAbilities.find((a) => a.name === 'Firing Deck')?.x ?? 0;
}

/** Shared by a unit's own models and the models lending weapons through its Firing Deck. */
interface ShootContext {
  s: GameState;
  u: UnitState;
  engaged: boolean;
  bigGuns: boolean;
  grants: Map<string, WeaponGrant[]>;
  /** isPistol of each profile, remembered for the activation */
  pistols: Map<WeaponProfile, boolean>;
}

function shootContext(s: GameState, u: UnitState): ShootContext {
  return { s, u, engaged: engagedEnemies(s, u).length > 0, bigGuns: isMonsterOrVehicle(u), grants: new Map(), pistols: new Map() };
}

/**
 * The ranged weapons a model may fire now for the shooting unit `c.u` (`owner`: the model's own unit, an
 * embarked one for a Firing Deck, whose slot excludes ONE SHOT weapons): all of them in the model's order,
 * and the same split into non-Pistols and Pistols.
 */
function usableWeapons(c: ShootContext, m: ModelState, owner: UnitState, deckSlot: boolean): { usable: Weapon[]; nonPistols: Weapon[]; pistols: Weapon[] } {
  const { s, u } = c;
  const ds = s.datasheets[m.datasheet];
  let gr = c.grants.get(owner.id);
  if (!gr) c.grants.set(owner.id, (gr = weaponGrants(s, owner)));
  const usable: Weapon[] = [];
  const nonPistols: Weapon[] = [];
  const pistols: Weapon[] = [];
  for (const n of modelWeapons(s, owner, m, gr)) {
    const w = ds.weapons.find((x) => x.name === n);
    const p = w?.profiles.find(isRanged);
    if (!w || !p) continue;
    if (u.flags.advanced && !weaponHas(s, u, p, 'ASSAULT')) continue;
    if (profileHas(p, 'ONE SHOT') && (deckSlot || oneShotUsed(s, m.id, w.name))) continue;
    let pistol = c.pistols.get(p);
    if (pistol === undefined) c.pistols.set(p, (pistol = isPistol(s, u, p, c.engaged)));
    if (c.engaged && !c.bigGuns && !pistol) continue;
    usable.push(w);
    (pistol ? pistols : nonPistols).push(w);
  }
  return { usable, nonPistols, pistols };
}

/**
 * What the embarked models could lend through the unit's Firing Deck now: each model of an embarked unit
 * that has not shot, with the weapons it may lend (non-Pistols first), in the order units were created.
 * None when the transport has no Firing Deck or is within Engagement Range.
 */
function deckCandidates(g: Game, c: ShootContext): { model: ModelState; unit: UnitState; weapons: Weapon[] }[] {
  const { s, u } = c;
  if (firingDeck(s, u) <= 0 || c.engaged || !u.models.some((m) => m.alive && m.pos)) return [];
  const out: { model: ModelState; unit: UnitState; weapons: Weapon[] }[] = [];
  for (const id of s.unitOrder) {
    const e = s.units[id];
    if (e.location !== 'embarked' || e.embarkedIn !== u.id || e.flags.shot) continue;
    for (const m of e.models) {
      if (!m.alive) continue;
      const { nonPistols, pistols } = usableWeapons(c, m, e, true);
      if (nonPistols.length + pistols.length > 0) out.push({ model: m, unit: e, weapons: [...nonPistols, ...pistols] });
    }
  }
  return out;
}

/**
 * Firing Deck X: each time the transport is selected to shoot, its player selects up to X embarked models
 * (of units that have not shot) and one ranged weapon of each (not ONE SHOT); the transport fires them too,
 * measured from itself. One decision per weapon lent: no more (first), or a weapon of a model not yet selected.
 * Empty when there is nothing to lend.
 */
function chooseFiringDeck(g: Game, u: UnitState): Lent[] {
  const c = shootContext(g.state, u);
  const cands = deckCandidates(g, c);
  const picks: Lent[] = [];
  if (cands.length === 0) return picks;
  const x = firingDeck(g.state, u);
  for (let k = 0; k < x; k++) {
    // "no more" first, as the other requests that can be declined; `lent[i]` is what option i lends
    const options: ({ model: string; unit: string; weapon: string } | { done: true })[] = [{ done: true }];
    const lent: (Lent | null)[] = [null];
    for (const cand of cands) {
      if (picks.some((p) => p.model === cand.model)) continue;
      for (const w of cand.weapons) {
        options.push({ model: cand.model.id, unit: cand.unit.id, weapon: w.name });
        lent.push({ model: cand.model, weapon: w });
      }
    }
    if (options.length === 1) break;
    const { index } = g.decide({
      kind: 'firing-deck', player: u.player, prompt: `${u.name}: Firing Deck ${x}, weapon ${k + 1} of up to ${x} lent by an embarked model (or no more)`,
      options, context: { unit: u.id },
    });
    const pick = lent[index];
    if (!pick) break;
    picks.push(pick);
  }
  return picks;
}

/**
 * A model fires its Pistols or its other ranged weapons, not both, unless its unit is a MONSTER or
 * VEHICLE. `pistolModels`: the models whose player chose their Pistols (choosePistols); null while
 * eligibility is asked, before the choice, when either may give the unit a target.
 */
function firedWeapons(c: ShootContext, m: ModelState, usable: Weapon[], nonPistols: Weapon[], pistols: Weapon[], pistolModels: ReadonlySet<string> | null): Weapon[] {
  if (c.bigGuns || nonPistols.length === 0 || pistols.length === 0 || pistolModels === null) return usable;
  return pistolModels.has(m.id) ? pistols : nonPistols;
}

/**
 * Pistols or other weapons: when models of the unit (not a MONSTER or VEHICLE, not engaged, where only
 * Pistols may fire anyway) carry both and some of their Pistols have a target, the player chooses which
 * models fire their Pistols. One decision for the unit, its options the sets of such models: none (the
 * other weapons), those whose other weapons have no target, all of them; each set offered once.
 */
function choosePistols(g: Game, u: UnitState, onlyTarget: string | undefined, vis: Visibility): Set<string> {
  const s = g.state;
  const c = shootContext(g.state, u);
  const none = new Set<string>();
  if (c.bigGuns || c.engaged) return none;
  const dual: { m: ModelState; nonPistols: Weapon[]; pistols: Weapon[] }[] = [];
  for (const m of u.models) {
    if (!m.alive || !m.pos) continue;
    const { nonPistols, pistols } = usableWeapons(c, m, u, false);
    if (nonPistols.length > 0 && pistols.length > 0) dual.push({ m, nonPistols, pistols });
  }
  if (dual.length === 0) return none;
  const engagedWith = new Set<string>();
  const enemies = unitsOnBattlefield(s, opponent(u.player)).filter((t) => onlyTarget === undefined || t.id === onlyTarget);
  const reaches = (m: ModelState, ws: Weapon[]) => {
    const sh: Shooter = { model: m, body: modelBody(s, m) };
    return ws.some((w) => w.profiles.some((p) => isRanged(p) && enemies.some((t) => canTarget(g.state, sh, p, u, t, engagedWith, vis))));
  };
  const pistolReach = dual.filter((d) => reaches(d.m, d.pistols));
  if (pistolReach.length === 0) return none;
  const needed = pistolReach.filter((d) => !reaches(d.m, d.nonPistols)).map((d) => d.m.id);
  const all = dual.map((d) => d.m.id);
  const options: { pistols: string[] }[] = [{ pistols: [] }];
  for (const set of [needed, all]) {
    if (set.length > 0 && !options.some((o) => o.pistols.join() === set.join())) options.push({ pistols: set });
  }
  const { option } = g.decide({
    kind: 'pistols', player: u.player, prompt: `${u.name}: which models fire their Pistols instead of their other ranged weapons`,
    options, context: { unit: u.id },
  });
  return new Set(option.pistols);
}

/**
 * The unit's ranged weapons that may fire now, grouped by weapon name. `deck`: the weapons lent through
 * its Firing Deck (chooseFiringDeck); without it (eligibility, asked before the choice) every weapon any
 * embarked model could lend: the unit can shoot when some choice of lent weapons gives it a target.
 */
function weaponGroups(g: Game, u: UnitState, deck: readonly Lent[] | null = null, pistolModels: ReadonlySet<string> | null = null): WeaponGroup[] {
  const s = g.state;
  const c = shootContext(g.state, u);
  const groups = new Map<string, WeaponGroup>();
  const add = (m: ModelState, body: Body, w: Weapon, links?: Body[]) => {
    const key = attackGroupKey(m, w.name);
    let gr = groups.get(key);
    if (!gr) groups.set(key, (gr = { weapon: w, shooters: [] }));
    gr.shooters.push(links?.length ? { model: m, body, links } : { model: m, body });
  };
  const barred = u.flags.fellBack ? modelsBarredFromShooting(s, u) : null;
  for (const m of u.models) {
    if (!m.alive || !m.pos || barred?.has(m.id)) continue;
    const { usable, nonPistols, pistols } = usableWeapons(c, m, u, false);
    const body = modelBody(s, m);
    let links: Body[] | undefined;
    for (const w of firedWeapons(c, m, usable, nonPistols, pistols, pistolModels)) {
      if (!hasLinkedFire(w)) add(m, body, w);
      else add(m, body, w, (links ??= linkedFireBodies(s, u, m, body)));
    }
  }
  const lent = deck ?? deckCandidates(g, c).flatMap((cand) => cand.weapons.map((weapon) => ({ model: cand.model, weapon })));
  if (lent.length > 0) {
    // measured from the transport (deckCandidates requires a model of it on the battlefield)
    const body = modelBody(s, u.models.find((m) => m.alive && m.pos)!);
    for (const l of lent) add(l.model, body, l.weapon);
  }
  return [...groups.values()];
}

/**
 * The ranged weapons each model of the unit may fire now, as its weapon groups are made (after an Advance only
 * ASSAULT, within Engagement Range only Pistols unless Big Guns Never Tire, no model a rule bars after a Fall
 * Back, no ONE SHOT weapon already fired): (model, weapon) pairs in the models' order (EXPLOSIVE CLEARANCE).
 */
export function firableWeapons(s: GameState, u: UnitState): { model: string; weapon: string }[] {
  const c = shootContext(s, u);
  const barred = u.flags.fellBack ? modelsBarredFromShooting(s, u) : null;
  const out: { model: string; weapon: string }[] = [];
  for (const m of u.models) {
    if (!m.alive || !m.pos || barred?.has(m.id)) continue;
    for (const w of usableWeapons(c, m, u, false).usable) out.push({ model: m.id, weapon: w.name });
  }
  return out;
}

/**
 * The distances, nearest first, at which the unit's rules split its ranged attack groups (Rule.attackRangeBands):
 * its abilities' (Way of the Short Blade), its army's rules' (Bonded Heroes) and the effects' on it
 * (POINT-BLANK AMBUSH).
 */
function rangeBands(state: GameState, u: UnitState): number[] {
  const rules = abilityRulesWith(u, 'attackRangeBands');
  let out: Set<number> | null = null;
  for (const r of rules) for (const b of r.attackRangeBands!({ state, unit: u }, { role: 'attacker', player: u.player, effect: null, unit: u })) (out ??= new Set()).add(b);
  for (const name of state.players[u.player].rules) {
    const r = getRule(name);
    if (r?.attackRangeBands) for (const b of r.attackRangeBands({ state, unit: u }, { role: 'attacker', player: u.player, effect: null, unit: null })) (out ??= new Set()).add(b);
  }
  for (const e of effectsWith(state, u.id, 'attackRangeBands')) {
    for (const b of getRule(e.kind)!.attackRangeBands!({ state, unit: u }, { role: 'attacker', player: e.player, effect: e, unit: u })) (out ??= new Set()).add(b);
  }
  return out === null ? NO_BANDS : [...out].sort((x, y) => x - y);
}

const NO_BANDS: number[] = [];

/** The attacker's bands with those the effects on the target add (Rule.targetRangeBands), nearest first. */
function bandsAgainst(state: GameState, bands: number[], target: UnitState): number[] {
  const effects = effectsWith(state, target.id, 'targetRangeBands');
  if (effects.length === 0) return bands;
  const out = new Set(bands);
  for (const e of effects) {
    for (const b of getRule(e.kind)!.targetRangeBands!({ state, unit: target }, { role: 'defender', player: e.player, effect: e, unit: target })) out.add(b);
  }
  return [...out].sort((x, y) => x - y);
}

/**
 * The models whose closest eligible target `target` is, then the others (Rule.splitByClosestTarget); one part when
 * they agree. `vis`: the activation's sight lines (a Visibility a model would otherwise build afresh).
 */
function splitByClosest(s: GameState, u: UnitState, models: ModelState[], profile: WeaponProfile, target: UnitState, vis: Visibility): ModelState[][] {
  if (models.length < 2) return [models];
  const closest = models.filter((m) => isClosestEligibleTarget(s, u, [m], profile, target, vis));
  if (closest.length === 0 || closest.length === models.length) return [models];
  return [closest, models.filter((m) => !closest.includes(m))];
}

/** The models in parts by band: those within the first distance, then within the next, ..., then beyond the last. */
function splitByBand(models: readonly ModelState[], bands: readonly number[], distance: (m: ModelState) => number): ModelState[][] {
  const parts: ModelState[][] = bands.map(() => []);
  parts.push([]);
  for (const m of models) {
    const d = distance(m);
    let k = 0;
    while (k < bands.length && d > bands[k] + 1e-6) k++;
    parts[k].push(m);
  }
  return parts;
}

/** The models of the unit an active rule keeps from making ranged attacks now (Rule.modelMayShoot). */
function modelsBarredFromShooting(state: GameState, u: UnitState): Set<string> | null {
  let out: Set<string> | null = null;
  forEachActiveRule(state, u, 'self', (r, src) => {
    if (!r.modelMayShoot) return;
    for (const m of u.models) if (m.alive && !r.modelMayShoot({ state, unit: u, model: m }, src)) (out ??= new Set()).add(m.id);
  });
  return out;
}

/**
 * The weapons a model carries now: its own, plus those an active rule gives it for a while (DS8
 * Support Turret). Only rules with an `extraWeapons` hook are asked.
 */
export function modelWeapons(state: GameState, unit: UnitState, m: ModelState, grants: WeaponGrant[] = weaponGrants(state, unit)): string[] {
  let out = m.weapons;
  for (const grant of grants) {
    const extra = grant(m);
    if (extra.length) out = [...out, ...extra];
  }
  return out;
}

type WeaponGrant = (m: ModelState) => readonly string[];

/** The active rules of a unit that give its models weapons, asked once per unit. */
export function weaponGrants(state: GameState, unit: UnitState): WeaponGrant[] {
  const out: WeaponGrant[] = [];
  forEachActiveRule(state, unit, 'self', (r, src) => {
    if (!r.extraWeapons) return;
    const rule = r;
    const own = { ...src };
    out.push((model) => rule.extraWeapons!({ state, unit, model }, own));
  });
  return out;
}

/**
 * Is this profile a Pistol for the unit: by its abilities, or, within Engagement Range (where it matters),
 * by a rule of the unit (BLADES OF ASURYAN). Out of combat only the profile is read (the rules are not
 * walked for every weapon of every shot).
 */
function isPistol(state: GameState, u: UnitState, p: WeaponProfile, engaged: boolean): boolean {
  return profileHas(p, 'PISTOL') || (engaged && weaponHas(state, u, p, 'PISTOL'));
}

/** Can this model fire this profile at this target unit? */
function canTarget(state: GameState, shooter: Shooter, p: WeaponProfile, shooterUnit: UnitState, target: UnitState, engagedWith: Set<string>, vis: Visibility): boolean {
  if (p.range === 'Melee') return false;
  const engaged = engagedWith.size > 0;
  if (engaged && vis.pistolInCombat(shooterUnit, p) && !isMonsterOrVehicle(shooterUnit)) {
    if (!engagedWith.has(target.id)) return false;
  }
  // never into a combat involving friendly units (unless it is this unit's own combat), except at a
  // MONSTER or VEHICLE (Big Guns Never Tire)
  const ownCombat = engagedWith.has(target.id);
  const otherCombat = !ownCombat && engagedWithArmyOf(state, target, shooterUnit.player);
  if (otherCombat && !isMonsterOrVehicle(target)) return false;
  // BLAST never at a unit in Engagement Range of the attacking army, its own unit included (Big Guns, Pistols)
  if ((ownCombat || otherCombat) && profileHas(p, 'BLAST')) return false;
  const dist = vis.distance(shooter, target);
  if (dist > weaponRange(state, shooterUnit, p, shooter.model) + 1e-6) return false;
  if (!targetableFrom(state, target, dist)) return false;
  if (!vis.mayTarget(shooterUnit, target)) return false;
  if (dist > 12 + 1e-6 && isLoneOperative(state, target)) return false;
  if (profileHas(p, 'INDIRECT FIRE')) return true;
  return vis.unitVisible(shooter, target);
}

/**
 * Where a shooter fires this profile at this target from: its own body when it can, else (LINKED FIRE)
 * the first linked body from which it can (the army's unit order: the linked models differ only in the
 * cover they leave the target, and the lances have no half-range ability); null when it cannot.
 */
function aim(state: GameState, sh: Shooter, p: WeaponProfile, shooterUnit: UnitState, target: UnitState, engagedWith: Set<string>, vis: Visibility): Shooter | null {
  if (canTarget(state, sh, p, shooterUnit, target, engagedWith, vis)) return sh;
  if (!sh.links || !profileHas(p, 'LINKED FIRE')) return null;
  for (const body of sh.links) {
    const linked: Shooter = { model: sh.model, body, linked: true };
    if (canTarget(state, linked, p, shooterUnit, target, engagedWith, vis)) return linked;
  }
  return null;
}

/**
 * The bodies a target's Benefit of Cover is judged against: every model of the attacking unit (core rules: a
 * model not fully visible to every model in the attacking unit because of terrain), each from where it aims at
 * that target (the other FIRE PRISM for LINKED FIRE, the transport for a Firing Deck's lent weapons), a model
 * that does not shoot it from where it stands. One set for all the unit's weapons at that target, so the order
 * of its weapon groups does not matter.
 */
function coverObservers(s: GameState, u: UnitState, at: readonly { shooters: readonly Shooter[] }[]): Body[] {
  const out: Body[] = [];
  const aiming = new Set<string>();
  const seen = new Set<string>();
  for (const a of at) {
    for (const sh of a.shooters) {
      aiming.add(sh.model.id);
      // (a model with two weapons at the target aims from one place: one body)
      const key = `${sh.model.id}@${sh.body.pos.x},${sh.body.pos.y}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(sh.body);
    }
  }
  for (const m of u.models) if (m.alive && m.pos && !aiming.has(m.id)) out.push(modelBody(s, m));
  return out;
}

/** Distances and visibility from each shooter to each target unit, computed at most once per activation. */
class Visibility {
  private dist = new Map<string, number>();
  private seen = new Map<string, boolean>();
  private allowed = new Map<string, boolean>();
  private pistols = new Map<WeaponProfile, boolean>();
  constructor(private readonly state: GameState) {}
  /** isPistol within Engagement Range, remembered for the shooting unit's activation (its rules are walked once a profile) */
  pistolInCombat(unit: UnitState, p: WeaponProfile): boolean {
    let v = this.pistols.get(p);
    if (v === undefined) this.pistols.set(p, (v = isPistol(this.state, unit, p, true)));
    return v;
  }
  /** no active rule forbids the unit to target this enemy (Focused Fire) */
  mayTarget(unit: UnitState, target: UnitState): boolean {
    let v = this.allowed.get(target.id);
    if (v === undefined) {
      v = true;
      const state = this.state;
      forEachActiveRule(state, unit, 'self', (r, src) => { if (v && r.mayTarget && !r.mayTarget({ state, unit, target }, src)) v = false; });
      this.allowed.set(target.id, v);
    }
    return v;
  }
  private key(shooter: Shooter, target: UnitState): string {
    return `${shooter.model.id}@${shooter.body.pos.x},${shooter.body.pos.y}|${target.id}`;
  }
  /** closest horizontal distance from the shooter to the target unit's models */
  distance(shooter: Shooter, target: UnitState): number {
    const k = this.key(shooter, target);
    let d = this.dist.get(k);
    if (d === undefined) {
      d = Infinity;
      for (const m of target.models) {
        if (!m.alive || !m.pos) continue;
        const x = horizontalDistance(shooter.body, modelBody(this.state, m));
        if (x < d) d = x;
      }
      this.dist.set(k, d);
    }
    return d;
  }
  unitVisible(shooter: Shooter, target: UnitState): boolean {
    const k = this.key(shooter, target);
    let v = this.seen.get(k);
    if (v === undefined) {
      v = false;
      for (const m of target.models) {
        if (m.alive && m.pos && modelsSee(this.state, shooter.body, shooter.model.id, modelBody(this.state, m), m.id)) { v = true; break; }
      }
      this.seen.set(k, v);
    }
    return v;
  }
}

/**
 * Is `target` the closest eligible target of each of these models for ranged attacks with this profile?
 * Every enemy unit the model could shoot with it now (range, visibility, Lone Operative, combats: the
 * checks of target selection) is measured edge to edge, as target selection measures it; a tie counts as
 * closest (the core rules let the attacker pick among equally close units). Asked by rules such as Swift
 * Demise ("if the target is the closest eligible target").
 */
export function isClosestEligibleTarget(state: GameState, unit: UnitState, models: readonly ModelState[], profile: WeaponProfile, target: UnitState, vis = new Visibility(state)): boolean {
  const engagedWith = new Set(engagedEnemies(state, unit).map((e) => e.id));
  const enemies = unitsOnBattlefield(state, opponent(unit.player));
  let any = false;
  for (const m of models) {
    if (!m.alive || !m.pos) continue;
    const sh: Shooter = { model: m, body: modelBody(state, m) };
    if (!canTarget(state, sh, profile, unit, target, engagedWith, vis)) return false;
    const d = vis.distance(sh, target);
    for (const e of enemies) {
      if (e.id !== target.id && vis.distance(sh, e) < d - 1e-6 && canTarget(state, sh, profile, unit, e, engagedWith, vis)) return false;
    }
    any = true;
  }
  return any;
}

/**
 * Eligibility answers, cached while nothing they depend on changes: the models' positions and
 * numbers (geometry version), the effects in play, the battle round and the unit's own flags.
 */
const eligibility = new WeakMap<object, Map<string, boolean>>();

function eligibilityKey(g: Game, u: UnitState, onlyTarget: string | undefined): string {
  const s = g.state;
  const f = u.flags;
  return `${u.id}|${onlyTarget ?? ''}|${s.geometryVersion}|${s.nextEffectId}|${s.effects.length}|${s.round}|${f.shot}|${f.advanced}|${f.fellBack}`;
}

/** A rule keeps the unit from shooting whatever its weapons: it Fell Back (unless a rule allows it to shoot then), or a rule forbids it. */
function barredFromShooting(g: Game, u: UnitState): boolean {
  return (u.flags.fellBack && !allows(g.state, u, 'shoot-after-fall-back')) || forbids(g.state, u, 'shoot');
}

/**
 * Eligible to shoot, as other rules ask it (For the Greater Good's Observer): on the battlefield, not yet
 * selected to shoot, not barred (Fell Back, a rule forbids it), and a ranged weapon it may fire now (not
 * after Advancing unless ASSAULT; within Engagement Range only Pistols, unless Big Guns Never Tire). Unlike
 * canShoot, no target in range or in sight is needed: selecting targets comes after eligibility.
 */
export function eligibleToShoot(g: Game, u: UnitState): boolean {
  if (!onBattlefield(u) || u.flags.shot || barredFromShooting(g, u)) return false;
  return weaponGroups(g, u).length > 0;
}

/** `again`: a rule lets the unit shoot even though it has shot this turn (FIRING LINE). */
export function canShoot(g: Game, u: UnitState, onlyTarget?: string, again = false): boolean {
  if (!onBattlefield(u) || (u.flags.shot && !again)) return false;
  let cache = eligibility.get(g.state);
  if (!cache) eligibility.set(g.state, (cache = new Map()));
  const key = eligibilityKey(g, u, onlyTarget);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (cache.size > 5000) cache.clear();
  const v = !barredFromShooting(g, u) && targetOptions(g, u, onlyTarget, { firstOnly: true }).options.length > 0;
  cache.set(key, v);
  return v;
}

/**
 * Legal (weapon, profile, target) choices; `firstOnly` stops at the first one found (eligibility); `deck`
 * and `pistolModels`: the player's Firing Deck and Pistols choices (weaponGroups); `vis`: distances and
 * sight lines already measured in this activation.
 */
function targetOptions(g: Game, u: UnitState, onlyTarget: string | undefined, opts: { firstOnly?: boolean; deck?: readonly Lent[]; pistolModels?: ReadonlySet<string>; vis?: Visibility } = {}): { options: TargetOption[]; byGroup: Map<WeaponGroup, TargetOption[]>; groups: WeaponGroup[]; vis: Visibility; engagedWith: Set<string> } {
  const s = g.state;
  const firstOnly = opts.firstOnly ?? false;
  const groups = weaponGroups(g, u, opts.deck ?? null, opts.pistolModels ?? null);
  const vis = opts.vis ?? new Visibility(g.state);
  const engagedWith = new Set(engagedEnemies(s, u).map((e) => e.id));
  const options: TargetOption[] = [];
  // each group's own options: two groups may share a weapon name (a Leader's Plasma rifle beside its
  // Bodyguard's, of another Range), and each is offered only the targets its own models reach
  const byGroup = new Map<WeaponGroup, TargetOption[]>();
  // enemies out of reach of the longest weapon (measured from the unit, or its transport for a
  // Firing Deck, whose circle holds the shooters anyway) are skipped before any model-by-model work
  let reach = 0;
  for (const gr of groups) for (const p of gr.weapon.profiles) if (isRanged(p)) reach = Math.max(reach, weaponRange(s, u, p));
  const enemies = unitsOnBattlefield(s, opponent(u.player)).filter((t) => (onlyTarget === undefined || t.id === onlyTarget) && unitGapLowerBound(s, u, t) <= reach + 1e-6);
  for (const gr of groups) {
    const mine = groupOptions(g.state, u, gr.weapon, gr.shooters, enemies, engagedWith, vis, firstOnly);
    if (mine.length === 0) continue;
    options.push(...mine);
    byGroup.set(gr, mine);
    if (firstOnly) return { options, byGroup, groups, vis, engagedWith };
  }
  return { options, byGroup, groups, vis, engagedWith };
}

/** The targets `shooters` (of one weapon group) can shoot, profile by profile, with how many of them can (`firstOnly`: the first found). */
function groupOptions(
  s: GameState, u: UnitState, weapon: Weapon, shooters: readonly Shooter[], enemies: readonly UnitState[], engagedWith: Set<string>, vis: Visibility, firstOnly: boolean,
): TargetOption[] {
  const out: TargetOption[] = [];
  for (let pi = 0; pi < weapon.profiles.length; pi++) {
    const p = weapon.profiles[pi];
    if (!isRanged(p)) continue;
    for (const t of enemies) {
      let n = 0;
      let linked = 0;
      for (const sh of shooters) {
        const from = aim(s, sh, p, u, t, engagedWith, vis);
        if (!from) continue;
        n++;
        if (from.linked) linked++;
        if (firstOnly) break;
      }
      if (n > 0) {
        out.push(linked > 0 ? { weapon: weapon.name, profile: pi, target: t.id, models: n, linked } : { weapon: weapon.name, profile: pi, target: t.id, models: n });
        if (firstOnly) return out;
      }
    }
  }
  return out;
}

/**
 * Select targets for every weapon of the unit, let the opponent react, then resolve the attacks.
 * `onlyTarget`: shooting outside the Shooting phase at one unit (Fire Overwatch); `onlyWeapons`: with those
 * weapons only (Skyfire's scatter laser).
 */
export function shootWithUnit(g: Game, u: UnitState, opts: { onlyTarget?: string; onlyWeapons?: readonly string[] } = {}): void {
  const s = g.state;
  const player = u.player;
  if (!opts.onlyTarget) {
    for (const name of u.abilities) getRule(name)?.selectedToShoot?.(g, u);
    // abilities of the player's units that act when a unit near them is selected (Target Optimisation Microdrones)
    if (anyUnitHas(s, 'friendSelectedToShoot')) {
      for (const id of s.unitOrder) {
        const f = s.units[id];
        if (f.player !== player || f.location !== 'battlefield') continue;
        for (const r of abilityRulesWith(f, 'friendSelectedToShoot')) r.friendSelectedToShoot!(g, g.state.units[id], g.state.units[u.id]);
      }
    }
    for (const h of hooksOf(g, player)) h.unitSelectedToShoot?.(g, u, player);
    openWindow(g, { name: 'shooting/unit-selected', unit: u.id, targets: [] });
  }
  const deck = chooseFiringDeck(g, u);
  // the Pistols choice measures from the same models to the same targets as the target options
  const measured = new Visibility(g.state);
  const pistolModels = choosePistols(g, u, opts.onlyTarget, measured);
  const { byGroup, groups, vis, engagedWith } = targetOptions(g, u, opts.onlyTarget, { deck, pistolModels, vis: measured });
  const assignments: { group: WeaponGroup; profile: WeaponProfile; target: UnitState; shooters: Shooter[] }[] = [];
  // the enemy units a group's models left are asked about (made once, when a group first splits its fire)
  let enemies: UnitState[] | null = null;
  for (const gr of groups) {
    if (opts.onlyWeapons && !opts.onlyWeapons.includes(gr.weapon.name)) continue;
    let mine = byGroup.get(gr) ?? [];
    let left: readonly Shooter[] = gr.shooters;
    // each model shoots a unit it can: the models out of range or sight of the target chosen are asked again,
    // among the targets they can shoot (a group spread across the table splits its fire)
    while (mine.length > 0) {
      // the group's models in the context (not in the options, which the log records): two groups may share a
      // weapon name, and a Firing Deck's are the passengers' models
      const { option } = g.decide({ kind: 'shoot-target', player, prompt: `${u.name}: target for ${gr.weapon.name}`, options: mine, context: { unit: u.id, models: left.map((sh) => sh.model.id) } });
      const profile = gr.weapon.profiles[option.profile];
      const target = s.units[option.target];
      const shooters: Shooter[] = [];
      const rest: Shooter[] = [];
      for (const sh of left) {
        const from = aim(g.state, sh, profile, u, target, engagedWith, vis);
        if (from) shooters.push(from);
        else rest.push(sh);
      }
      assignments.push({ group: gr, profile, target, shooters });
      if (rest.length === 0 || rest.length === left.length) break;
      left = rest;
      enemies ??= unitsOnBattlefield(s, opponent(player)).filter((t) => opts.onlyTarget === undefined || t.id === opts.onlyTarget);
      mine = groupOptions(s, u, gr.weapon, left, enemies, engagedWith, vis, false);
    }
  }
  if (assignments.length === 0) {
    g.emit({ type: 'unit-flag', unit: u.id, flag: 'shot', value: true });
    return;
  }
  const targets = [...new Set(assignments.map((a) => a.target.id))];
  openWindow(g, { name: 'shooting/after-enemy-targets', unit: u.id, targets });
  enemyAttacking(g, u, targets, false);
  // the unit's own abilities that act once its targets are known (Harvester of Souls)
  if (onBattlefield(s.units[u.id])) {
    const ears = abilityRulesWith(s.units[u.id], 'targetsSelected');
    if (ears.length > 0) {
      const assigned = assignments.map((a) => ({ weapon: a.group.weapon.name, target: a.target.id }));
      for (const r of ears) r.targetsSelected!(g, s.units[u.id], targets, assigned);
    }
  }
  // a rule used just now may forbid some of the shooters (NEUROWEB SYSTEM JAMMER): their attacks are lost
  for (const a of assignments) a.shooters = a.shooters.filter((sh) => targetableFrom(s, a.target, vis.distance(sh, a.target)));
  const attackGroups: AttackGroup[] = [];
  const coverCache = new Map<string, Set<string>>();
  const bands = rangeBands(s, u);
  const splitters = effectsWith(s, u.id, 'splitAttackers');
  const byClosest = abilityRulesWith(u, 'splitByClosestTarget').length > 0;
  for (const a of assignments) {
    const t = a.target;
    if (!onBattlefield(t)) continue;
    const targetModels = t.models.filter((m) => m.alive).length;
    let cover = coverCache.get(t.id);
    if (!cover) {
      const board = boardOf(s);
      const attackerBodies = coverObservers(s, u, assignments.filter((x) => x.target === t));
      cover = new Set(t.models.filter((m) => m.alive && m.pos && benefitOfCover(modelBody(s, m), attackerBodies, board)).map((m) => m.id));
      coverCache.set(t.id, cover);
    }
    // visible to the attacking unit (any of its models, not only this weapon's): INDIRECT FIRE's penalties
    const visible = a.shooters.some((sh) => vis.unitVisible(sh, t)) || unitSees(s, u, t);
    // split by half range (RAPID FIRE, MELTA): the models within half range form their own group; the
    // models aiming through LINKED FIRE form theirs too (Attacks 1)
    const half: ModelState[] = [];
    const far: ModelState[] = [];
    const linkedHalf: ModelState[] = [];
    const linkedFar: ModelState[] = [];
    for (const sh of a.shooters) {
      const r = weaponRange(s, u, a.profile, sh.model);
      let close = false;
      for (const m of t.models) if (m.alive && m.pos && horizontalDistance(sh.body, modelBody(s, m)) <= r / 2 + 1e-6) { close = true; break; }
      if (sh.linked) (close ? linkedHalf : linkedFar).push(sh.model);
      else (close ? half : far).push(sh.model);
    }
    const nearest = Math.min(...a.shooters.map((sh) => vis.distance(sh, t)));
    const from = (m: ModelState) => vis.distance(a.shooters.find((sh) => sh.model === m)!, t);
    const here = bandsAgainst(s, bands, t);
    for (const [all, halfRange, linkedFire] of [[half, true, false], [far, false, false], [linkedHalf, true, true], [linkedFar, false, true]] as const) {
      // split again at the distances the rules read model by model (Way of the Short Blade: 9"; the target's
      // Rune of Mists: 18"), each part measured from its own closest model; without such rules one part,
      // measured from the closest shooter
      for (const band of here.length === 0 ? [all] : splitByBand(all, here, from)) for (const sourced of splitBySource(s, u, a.group.weapon, band, splitters)) for (const models of byClosest ? splitByClosest(s, u, sourced, a.profile, t, vis) : [sourced]) {
        if (models.length === 0) continue;
        const group: AttackGroup = {
          weapon: a.group.weapon, profile: a.profile, models, target: t.id, halfRange, targetVisible: visible,
          targetInCover: cover.size > 0 && cover.size === targetModels, coverModels: cover, targetModels,
          extraHitModifier: bigGunsHitModifier(s, u, t, a.profile),
          distance: here.length === 0 ? nearest : Math.min(...models.map(from)),
        };
        if (linkedFire) group.linkedFire = true;
        // Boarding Actions: attacks go only to the target models each attacking model sees (./boarding.ts)
        if (isBoardingActions(s)) attackGroups.push(...closeQuartersGroups(s, u, group, (m) => a.shooters.find((sh) => sh.model === m)!.body));
        else attackGroups.push(group);
      }
    }
  }
  // what the attacks destroyed, for the window after them, when the defender has a stratagem for it (VAUL'S VENGEANCE)
  const before = hasStratagemFor(g, opponent(player), 'shooting/after-enemy-shot') ? destroyedParts(s, opponent(player)) : null;
  // and which of the defender's units lost models (VENGEFUL SORROW)
  const aliveBefore = before === null ? null : aliveModelCounts(s, opponent(player));
  // the unit's parts: a Deadly Demise or Hazardous test may destroy its Bodyguard or Leader part mid-activation,
  // and the part left (a unit of its own then) has shot all the same
  const parts = u.components.map((c) => c.unit);
  const tally = resolveAttacks(g, u, attackGroups, false);
  const destroyed = before === null ? [] : [...destroyedParts(s, opponent(player))].filter((id) => !before.has(id));
  const lostModels = aliveBefore === null ? [] : [...aliveBefore].filter(([id, n]) => s.units[id].models.filter((m) => m.alive).length < n).map(([id]) => id);
  afterAttacks(g, u, tally.hitTargets, false);
  for (const a of assignments) {
    if (!profileHas(a.profile, 'ONE SHOT')) continue;
    for (const sh of a.shooters) g.addEffect(ONE_SHOT_USED, player, null, { at: 'end-of-battle' }, { model: sh.model.id, weapon: a.group.weapon.name });
  }
  // a unit its own target's Deadly Demise destroyed is gone: nothing of it is left to have shot
  for (const id of parts) if (onBattlefield(s.units[id]) && !s.units[id].flags.shot) g.emit({ type: 'unit-flag', unit: id, flag: 'shot', value: true });
  // embarked units that fired through a Firing Deck have shot too, also when the transport was destroyed
  // mid-activation and they got out
  for (const id of new Set(assignments.flatMap((a) => a.shooters.map((sh) => sh.model.origin)))) {
    const e = s.units[id];
    if (e && !parts.includes(e.id) && e.location !== 'destroyed' && e.models.some((m) => m.alive) && !e.flags.shot) g.emit({ type: 'unit-flag', unit: e.id, flag: 'shot', value: true });
  }
  // abilities that act "after this unit has shot" in its Shooting phase (Suppression Volley)
  const shooter = s.units[u.id];
  if (!opts.onlyTarget && s.phase === 'shooting' && s.turn === player && onBattlefield(shooter)) {
    for (const name of shooter.abilities) getRule(name)?.afterShooting?.(g, shooter, tally.hitTargets, tally.hitWith);
  }
  openWindow(g, { name: 'shooting/after-own-shot', unit: u.id, targets, data: { hitTargets: tally.hitTargets } });
  openWindow(g, { name: 'shooting/after-enemy-shot', unit: u.id, targets, data: { hitTargets: tally.hitTargets, destroyed, lostModels } });
  enemyAttacking(g, u, targets, false, true);
  // the defender's army rules that answer a unit that has shot in its Shooting phase (Fade Back)
  if (!opts.onlyTarget && s.phase === 'shooting' && s.turn === player && g.state.result === null) {
    const owner = opponent(player);
    for (const h of hooksOf(g, owner)) h.enemyUnitShot?.(g, g.state.units[u.id], tally.hitTargets, owner);
  }
}

/** How many models of each of the player's units are alive now (units in the state's order). */
function aliveModelCounts(s: GameState, player: PlayerIndex): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player === player) out.set(id, u.models.filter((m) => m.alive).length);
  }
  return out;
}
