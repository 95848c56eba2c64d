/**
 * Shooting and fighting: the target with the best expected value (the exact calculator with every rule of
 * the moment), Firing Deck, Pistols, guidance, and the volleys stratagems are priced against.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { GameState, UnitState } from '../../src/core/state.ts';
import { grantRerollOne } from '../../src/rules/attack-plan.ts';
import { enemyUnits, ownUnits, pointsPerWound, unitAttackPotential, unitValue, unitWounds, weaponEstimate, weaponUses, type PlanTweak, type WeaponUse } from '../../src/ai/evaluate.ts';
import { objectiveSnapshot, scoringOutlook } from '../../src/ai/tactics.ts';
import { onBattlefield } from '../../src/rules/battle/units.ts';
import { engagedEnemies, unitSees } from '../../src/rules/battle/world.ts';
import { targetableInCombat } from '../../src/rules/battle/big-guns.ts';
import { profileHas } from '../../src/data/datasheet.ts';
import { perVersion } from '../../src/ai/memo.ts';
import { type Ctx, argmax } from './context.ts';

/** Extra worth per wound of damaging the target: the markers it holds or contests, its own damage output. */
function targetBonusPerWound(c: Ctx, t: UnitState): number {
  return perVersion(c.state, `tb|${c.me}|${t.id}`, () => computeTargetBonus(c, t));
}

function computeTargetBonus(c: Ctx, t: UnitState): number {
  const s = c.state;
  const now = unitWounds(s, t).now;
  if (now <= 0) return 0;
  let bonus = 0;
  const snap = objectiveSnapshot(s);
  const row = snap.contrib.get(t.id);
  if (row) {
    const ov = scoringOutlook(s, c.me);
    for (let i = 0; i < row.length; i++) {
      if (row[i] <= 0) continue;
      // it keeps the marker from me (they hold it or contest it)
      if (snap.level[t.player][i] >= snap.level[c.me][i]) bonus += c.w.objective * c.w.objectiveTarget * Math.max(ov.mine, ov.deny);
    }
  }
  let threat = 0;
  for (const m of ownUnits(s, c.me)) threat = Math.max(threat, unitAttackPotential(s, t, m, false), unitAttackPotential(s, t, m, true));
  bonus += c.w.threatTarget * threat;
  return bonus / now;
}

function attackScore(c: Ctx, t: UnitState, woundsLost: number): number {
  const s = c.state;
  const now = unitWounds(s, t).now;
  const left = now - (c.mem.assigned.get(t.id) ?? 0);
  // what the weapons already aimed at it are expected to leave: little means almost surely dead
  if (left <= 0.15 * now) return 0.01 * woundsLost;
  const useful = Math.min(woundsLost, left);
  let v = useful * (pointsPerWound(s, t) + targetBonusPerWound(c, t));
  // finishing the unit off: worth a bonus, in proportion to what is left of it
  if (woundsLost >= left) v += 0.25 * unitValue(s, t) * (left / now);
  return v;
}

export function decideShootTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { weapon: string; profile: number; target: string; models: number }[];
  const group = requestedGroup(s, u, req.context?.models, options[0].weapon);
  // each option's expected wounds once (the calculator's work), for its score and for the pick's assignment
  const ests = options.map((o) => estimateOption(c, u, group, o));
  const i = argmax(options, (o, k) => {
    const est = ests[k];
    return est === null ? 0 : attackScore(c, s.units[o.target], est);
  });
  const o = options[i];
  c.mem.assigned.set(o.target, (c.mem.assigned.get(o.target) ?? 0) + (ests[i] ?? 0));
  return i;
}

/**
 * The weapon group a target request is for, from the models the engine names (the request's context): a
 * Leader's weapon may share its Bodyguard's name with another profile, a rule may give a model a weapon
 * (DS8 Support Turret), and a Firing Deck fires passengers' weapons, which are priced from the transport's
 * hull as the choice of what to lend prices them. Without the models (a request made by hand): the unit's
 * group of that weapon name.
 */
function requestedGroup(s: GameState, u: UnitState, ids: unknown, weapon: string): WeaponUse | undefined {
  if (!Array.isArray(ids)) return weaponUses(s, u, false).find((w) => w.weapon.name === weapon);
  const named = new Set(ids as string[]);
  const own = u.models.filter((m) => m.alive && m.pos && named.has(m.id));
  if (own.length > 0) {
    const w = s.datasheets[own[0].datasheet].weapons.find((x) => x.name === weapon);
    return w && { weapon: w, profile: w.profiles[0], models: own };
  }
  const hull = u.models.find((m) => m.alive && m.pos);
  if (!hull) return undefined;
  for (const id of s.unitOrder) {
    const p = s.units[id];
    if (p.location !== 'embarked' || p.embarkedIn !== u.id) continue;
    const m = p.models.find((x) => named.has(x.id));
    const w = m && s.datasheets[m.datasheet].weapons.find((x) => x.name === weapon);
    if (w) return { weapon: w, profile: w.profiles[0], models: ids.map(() => hull) };
  }
  return undefined;
}

function estimateOption(c: Ctx, u: UnitState, base: WeaponUse | undefined, o: { profile: number; target: string; models?: number; linked?: number }): number | null {
  if (!base) return null;
  // the weapons offered are those the unit fires (its Pistols-or-other-weapons choice made): no `beyond`
  const use: WeaponUse = { weapon: base.weapon, profile: base.weapon.profiles[o.profile], models: base.models };
  const target = c.state.units[o.target];
  const linked = o.linked ?? 0;
  const e = weaponEstimate(c.state, u, use, target, { inRangeOnly: true });
  // only the models that can see the target fire at it
  const direct = (o.models ?? e.attackers) - linked;
  const scale = o.models !== undefined && e.attackers > direct ? Math.max(0, direct) / e.attackers : 1;
  if (linked === 0) return e.woundsLost * scale;
  // LINKED FIRE: those models aim from another model (its range and sight), with 1 attack each
  const one: WeaponUse = { ...use, profile: { ...use.profile, attacks: { n: 0, sides: 0, plus: 1 } } };
  const l = weaponEstimate(c.state, u, one, target);
  return e.woundsLost * scale + (l.attackers > 0 ? (l.woundsLost * Math.min(linked, l.attackers)) / l.attackers : 0);
}

export function decideFightTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { profile: number; target: string }[];
  const melee = weaponUses(s, u, true);
  const i = argmax(options, (o) => {
    const t = s.units[o.target];
    let lost = 0;
    for (const use of melee) lost += weaponEstimate(s, u, use, t).woundsLost;
    return attackScore(c, t, lost / Math.max(1, melee.length));
  });
  return i;
}

/**
 * Firing Deck: lend, slot after slot, the weapon worth most fired from the transport at its best target,
 * among the enemy units the transport can see and shoot at, in the weapon's range of the transport's
 * models. Equal worth (nothing in range, or the same gun): the first offered. "No more" (option 0) only
 * when nothing is left to lend: a lent weapon costs nothing.
 */
export function decideFiringDeck(c: Ctx, req: DecisionRequest): number {
  if (req.options.length <= 1) return 0;
  const s = c.state;
  const t = s.units[String(req.context?.unit)];
  const hull = t.models.filter((m) => m.alive && m.pos);
  // the same for every slot of the activation (nothing changes between them)
  const enemies = perVersion(s, `deck-targets|${t.id}`, () => shootable(c, t).filter((e) => unitSees(s, t, e)));
  const options = req.options as ({ done: true } | { model: string; unit: string; weapon: string })[];
  return argmax(options, (o) => {
    if ('done' in o) return -1;
    const m = s.units[o.unit].models.find((x) => x.id === o.model);
    const w = m ? s.datasheets[m.datasheet].weapons.find((x) => x.name === o.weapon) : undefined;
    if (!w || !m) return 0;
    // the same gun of several models (and slot after slot, nothing changing between them) is priced once
    return perVersion(s, `deck|${t.id}|${m.datasheet}|${w.name}`, () => {
      let best = 0;
      for (const profile of w.profiles) {
        if (profile.range !== 'Melee') best = Math.max(best, bestInRange(s, t, { weapon: w, profile, models: hull }, enemies));
      }
      return best;
    });
  });
}

/**
 * Pistols or other weapons: the option (a set of models firing their Pistols) whose volley is worth most,
 * each weapon at its best target in range; the other weapons (the first option) when they are level.
 */
export function decidePistols(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { pistols: string[] }[];
  if (!u || options.length <= 1) return 0;
  // the models that carry both: every option's models (one option lists them all)
  const dual = new Set(options.flatMap((o) => o.pistols));
  const enemies = shootable(c, u);
  const uses = weaponUses(s, u, false);
  return argmax(options, (o) => {
    const chosen = new Set(o.pistols);
    let v = 0;
    for (const use of uses) {
      const pistol = profileHas(use.profile, 'PISTOL');
      const models = use.models.filter((m) => !dual.has(m.id) || chosen.has(m.id) === pistol);
      // each option says who fires what: the estimates' own Pistol rule (`beyond`) is left out
      if (models.length > 0) v += bestInRange(s, u, { weapon: use.weapon, profile: use.profile, models }, enemies);
    }
    return v;
  });
}

/** Total expected value of the unit's guns now: each weapon at its best target in range. */
export function bestVolley(c: Ctx, u: UnitState, tweak?: PlanTweak, only?: (t: UnitState) => boolean): number {
  if (!tweak && !only) return perVersion(c.state, `volley|${c.me}|${u.id}`, () => computeVolley(c, u));
  return computeVolley(c, u, tweak, only);
}

function computeVolley(c: Ctx, u: UnitState, tweak?: PlanTweak, only?: (t: UnitState) => boolean): number {
  let total = 0;
  for (const v of volleyByWeapon(c, u, tweak, only)) total += v;
  return total;
}

/** The value of each of the unit's ranged weapons at its best target in range. */
function volleyByWeapon(c: Ctx, u: UnitState, tweak?: PlanTweak, only?: (t: UnitState) => boolean): number[] {
  if (!onBattlefield(u)) return [];
  const enemies = shootable(c, u);
  const out: number[] = [];
  for (const use of weaponUses(c.state, u, false)) out.push(bestInRange(c.state, u, use, enemies, tweak, only));
  return out;
}

/**
 * The enemy units the unit may shoot at, sight aside: not engaged with other units of its army, unless
 * MONSTER or VEHICLE (Big Guns Never Tire; its -1 to hit is in the estimates).
 */
export function shootable(c: Ctx, u: UnitState): UnitState[] {
  const s = c.state;
  return enemyUnits(s, c.me).filter((e) => targetableInCombat(s, e, c.me) || engagedEnemies(s, u).includes(e));
}

/** The value of a weapon fired by the unit at the best of `enemies` in range (0: none in range). */
function bestInRange(s: GameState, u: UnitState, use: WeaponUse, enemies: readonly UnitState[], tweak?: PlanTweak, only?: (t: UnitState) => boolean): number {
  let best = 0;
  for (const e of enemies) {
    if (only && !only(e)) continue;
    const v = weaponEstimate(s, u, use, e, { inRangeOnly: true, tweak }).value;
    if (v > best) best = v;
  }
  return best;
}

/**
 * "Re-roll one Hit roll, one Wound roll and one Damage roll" (SOULSIGHT) is spent once for the whole
 * volley: worth what it adds to the one weapon it helps most. The exact calculator counts the Hit and
 * Wound re-rolls; the Damage one is left out (an underestimate for D3/D6 Damage guns).
 */
export function oneRerollGain(c: Ctx, u: UnitState): number {
  const plain = volleyByWeapon(c, u);
  const helped = volleyByWeapon(c, u, (p) => grantRerollOne(p, { hit: 1, wound: 1, damage: 1 }));
  let best = 0;
  for (let i = 0; i < plain.length; i++) best = Math.max(best, helped[i] - plain[i]);
  return best;
}

/** Expected value of the unit's attacks on one target (ranged: weapons in range; melee: all). */
export function attackOn(c: Ctx, u: UnitState, t: UnitState, melee: boolean, tweak?: PlanTweak): number {
  let v = 0;
  for (const use of weaponUses(c.state, u, melee)) v += weaponEstimate(c.state, u, use, t, { inRangeOnly: !melee, tweak }).value;
  return v;
}

export function decideGuidance(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { none?: true; observer?: string; spotted?: string }[];
  const rules = s.players[c.me].rules;
  const base = bestVolley(c, u);
  const cache = new Map<string, number>();
  return argmax(options, (o) => {
    if (o.none) return base;
    const key = `${o.spotted}|${s.units[o.observer!].keywords.includes('MARKERLIGHT')}`;
    let v = cache.get(key);
    if (v === undefined) {
      const t = s.units[o.spotted!];
      const ml = s.units[o.observer!].keywords.includes('MARKERLIGHT');
      const tweak: PlanTweak = (plan) => {
        plan.skill -= 1;
        if (ml) { plan.ignoresCover = true; plan.cover = false; }
        if (rules.includes('Killing Blow') && s.round <= 3) plan.lethalHits = true;
        if (rules.includes('Patient Hunter') && s.round >= 3) plan.sustainedHits = Math.max(plan.sustainedHits, 2);
      };
      v = attackOn(c, u, t, false, tweak);
      cache.set(key, v);
    }
    // the Observer is spent (it cannot be Guided itself this phase): a small price
    return v - 2;
  });
}
