/**
 * What stratagems' effects are worth: their plan tweaks (folded into the Attack plan the calculator
 * reads) and the gain of each effect that is not an attack (Battle-shock, moves, mortal wounds, hatchways).
 */
import './registries.ts';
import type { GameState, ModelState, UnitState } from '../../src/core/state.ts';
import { foldUnmodifiedHit, widerReroll } from '../../src/rules/attack-plan.ts';
import { enemyUnits, maxRange, ownUnits, p2d6AtLeast, pointsPerWound, unitAttackPotential, unitValue, unitWounds, weaponEstimate, weaponUses, type PlanTweak } from '../../src/ai/evaluate.ts';
import { dist, objectiveSnapshot, unitSpread, type Point } from '../../src/ai/tactics.ts';
import { belowHalfStrength, bestLeadership, characteristic, onBattlefield, rollModifier, rollsHalved, unitMove } from '../../src/rules/battle/units.ts';
import { isEngaged, modelBody, unitDistance, engagedEnemies } from '../../src/rules/battle/world.ts';
import { centroidOf } from '../../src/geometry/planner.ts';
import { enemiesBeyondHatchway } from '../../src/rules/battle/hatchways.ts';
import { unitNearModel } from '../../src/rules/battle/transports.ts';
import { FAIL_SAFE_RANGE } from '../../src/factions/tau/retaliation-cadre.ts';
import { INTERLOCKING_MOVE } from '../../src/factions/tau/auxiliary-cadre.ts';
import { bruteForceVictims } from '../../src/factions/tau/kroot-raiding-party.ts';
import { PATH_OF_THE_WARRIOR_CHOICES, PRETERNATURAL_PRECISION_CHOICES, pathOfTheWarriorPlan, preternaturalPlan } from '../../src/factions/aeldari/aspect-host.ts';
import { moveOrFallBackChoices } from '../../src/factions/helpers.ts';
import { LETHAL_RUSE_ENGAGED } from '../../src/factions/aeldari/corsair-coterie.ts';
import type { Ctx } from './context.ts';
import { objectiveView } from './objectives.ts';
import { type UnitCtx, positionScore, unitCtx } from './unit-context.ts';
import { moveEnd, towardEnemy } from './moves.ts';
import { attackOn, bestVolley } from './attacks.ts';
import { chargeNeed, chargeScore } from './charges.ts';
import { strategicReservesGain } from './stratagems.ts';
import { offense } from './abilities.ts';

export interface StratOption { stratagem: string; source?: string; unit?: string; cp?: number; reroll?: number; value?: number | null; pass?: true; discount?: string }

export interface WindowCtx { name: string; unit: string | null; targets: string[]; data?: Record<string, unknown> }

export const GO_TO_GROUND: PlanTweak = (p) => { if (!p.melee && !p.ignoresCover) p.cover = true; p.invulnerable = p.invulnerable === null ? 6 : Math.min(p.invulnerable, 6); };

export const SMOKESCREEN: PlanTweak = (p) => { if (!p.melee && !p.ignoresCover) p.cover = true; p.hitModifier -= 1; };

export const MINUS_ONE_TO_HIT: PlanTweak = (p) => { p.hitModifier -= 1; };

export const MINUS_ONE_DAMAGE: PlanTweak = (p) => { p.damageReduction += 1; };

export const OVERWATCH: PlanTweak = (p) => { p.skill = 7; p.criticalHitOn = 6; };

export const DAMPENERS: PlanTweak = (p) => { if (p.strength > p.toughness) p.woundModifier -= 1; };

/** THREAT ASSESSMENT ANALYSER's choices (in the stratagem's order) as plan tweaks, and whether each is HAZARDOUS. */
export const THREAT_ASSESSMENT_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = [
  { tweak: (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); }, hazardous: false },
  { tweak: (p) => { p.lethalHits = true; }, hazardous: false },
  { tweak: (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); p.lethalHits = true; }, hazardous: true },
];

/** EXPERIMENTAL AMMUNITION's choices likewise. */
export const EXPERIMENTAL_AMMUNITION_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = [
  { tweak: (p) => { p.strength += 1; }, hazardous: false },
  { tweak: (p) => { p.strength += 1; p.ap -= 1; }, hazardous: true },
];

/**
 * Expected loss of the unit's Hazardous tests if every model fires a HAZARDOUS weapon: a 1 in 6 chance
 * for each model of losing up to 3 wounds (a model destroyed, or 3 mortal wounds).
 */
function hazardCost(c: Ctx, u: UnitState): number {
  let wounds = 0;
  for (const m of u.models) if (m.alive) wounds += Math.min(3, m.wounds);
  return (wounds / 6) * pointsPerWound(c.state, u);
}

/** The best of a stratagem's choices for the unit's volley this phase: its gain (HAZARDOUS priced) and index. */
export function bestChoice(c: Ctx, u: UnitState, choices: { tweak: PlanTweak; hazardous: boolean }[]): { gain: number; index: number } {
  let best = { gain: 0, index: 0 };
  choices.forEach((x, i) => {
    const g = volleyGain(c, u, x.tweak) - (x.hazardous ? hazardCost(c, u) : 0);
    if (g > best.gain) best = { gain: g, index: i };
  });
  return best;
}

/** Damage the enemy unit in the window is about to deal to `u`, and with a defensive effect. */
export function incomingSaved(c: Ctx, win: WindowCtx, u: UnitState, tweak: PlanTweak): number {
  const s = c.state;
  const attacker = win.unit ? s.units[win.unit] : null;
  if (!attacker || !onBattlefield(u)) return 0;
  const melee = s.phase === 'fight';
  const share = win.targets.length <= 1 ? 1 : Math.min(1, 1.5 / win.targets.length);
  const before = attackOn(c, attacker, u, melee);
  const after = attackOn(c, attacker, u, melee, tweak);
  return share * Math.max(0, before - after);
}

/**
 * TO THEIR FINAL BREATH, HEROES' FALL: half of the unit's models the attacking unit is expected to destroy (a D6 of 4+
 * each) fight it before they are removed, each with its share of the unit's melee attacks on it. Nothing
 * when the unit has fought already (its models would not).
 */
export function fightOnDeathGain(c: Ctx, win: WindowCtx, u: UnitState): number {
  const s = c.state;
  const attacker = win.unit ? s.units[win.unit] : null;
  if (!attacker || !onBattlefield(u) || !onBattlefield(attacker) || u.flags.fought) return 0;
  let alive = 0;
  for (const m of u.models) if (m.alive) alive++;
  if (alive === 0) return 0;
  let killed = 0;
  for (const use of weaponUses(s, attacker, true)) killed += weaponEstimate(s, attacker, use, u).modelsKilled;
  const share = win.targets.length <= 1 ? 1 : Math.min(1, 1.5 / win.targets.length);
  return 0.5 * share * (Math.min(killed, alive) / alive) * attackOn(c, u, attacker, true);
}

export const MINUS_ONE_TO_WOUND: PlanTweak = (p) => { p.woundModifier -= 1; };

/**
 * COST OF VICTORY, WITHDRAW AND REINFORCE: the unit leaves for Strategic Reserves (strategicReservesGain) with
 * its destroyed models `back` (Guardians; all but CHARACTERS); never when it could not arrive again (it would
 * count as destroyed).
 */
export function costOfVictoryGain(c: Ctx, u: UnitState, returned: readonly ModelState[]): number {
  const s = c.state;
  const next = s.firstPlayer === c.me ? s.round + 1 : s.round;
  if (next < 2 || next > s.mission.rounds) return 0;
  let back = 0;
  for (const m of returned) back += characteristic(s, u, m, 'W');
  return Math.max(0, strategicReservesGain(c, u) + back * pointsPerWound(s, u));
}

/** THE ARRO'KON PROTOCOL: SUSTAINED HITS 1 against a unit of 6+ models, 2 against 11+. */
export const ARROKON: PlanTweak = (p, info) => {
  let n = 0;
  for (const m of info.target.models) if (m.alive) n++;
  if (n >= 6) p.sustainedHits = Math.max(p.sustainedHits, n >= 11 ? 2 : 1);
};

/** STIMM INJECTORS: Feel No Pain 6+. */
export const STIMMS: PlanTweak = (p) => { p.feelNoPain = p.feelNoPain === null ? 6 : Math.min(p.feelNoPain, 6); };

/** YRIEL'S EXAMPLE: Feel No Pain 5+. */
export const FNP_5: PlanTweak = (p) => { p.feelNoPain = p.feelNoPain === null ? 5 : Math.min(p.feelNoPain, 5); };

/** PRETERNATURAL PRECISION's choices (Aspect Host), in the stratagem's order. */
export const PRETERNATURAL_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = PRETERNATURAL_PRECISION_CHOICES.map((ch) => ({ tweak: (p) => preternaturalPlan(p, ch), hazardous: false }));

/** Path of the Warrior's choices (Aspect Host), in the rule's order. */
export const PATH_OF_THE_WARRIOR_TWEAKS: PlanTweak[] = PATH_OF_THE_WARRIOR_CHOICES.map((ch) => (p) => pathOfTheWarriorPlan(p, ch));

/** WARRIOR FOCUS: the Hit roll penalties are ignored (the net modifier no worse than none: a bonus cancelled by a penalty is not counted back). */
/** SEER'S EYE: the target's Damage reductions gone (the estimate cannot tell the AP's modifiers from the profile's). */
export const SEERS_EYE: PlanTweak = (p) => { p.damageReduction = 0; p.halveDamage = false; };

export const IGNORE_HIT_PENALTIES: PlanTweak = (p) => { if (p.hitModifier < 0) p.hitModifier = 0; };

/** DOOM INESCAPABLE: the Wailing Doom's ranged attacks at Damage 8. */
export const DOOM_DAMAGE: PlanTweak = (p) => { if (!p.melee && p.weapon === 'The Wailing Doom') p.damage = { n: 0, sides: 0, plus: 8 }; };

/** Prototype Weapon System's choices, in the Enhancement's order (the whole unit's volley stands for the bearer's). */
export const PROTOTYPE_WEAPON_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = [
  { tweak: (p) => { p.lethalHits = true; }, hazardous: false },
  { tweak: (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); }, hazardous: false },
];

/**
 * What mean mortal wounds `mw` on each unit within `inches` of the destroyed model are worth: the enemy's
 * wounds lost (up to what each unit has left) less mine.
 */
export function blastValue(c: Ctx, m: ModelState, mw: number, inches: number): number {
  const s = c.state;
  if (!m.pos) return 0;
  const body = modelBody(s, m);
  let v = 0;
  for (const id of s.unitOrder) {
    const o = s.units[id];
    if (!unitNearModel(s, o, m, inches, body)) continue;
    let left = 0;
    for (const x of o.models) if (x.alive && x.id !== m.id) left += x.wounds;
    v += (o.player === c.me ? -1 : 1) * Math.min(mw, left) * pointsPerWound(s, o);
  }
  return v;
}

/** The mean mortal wounds of the model's Deadly Demise on each unit near it, or null when it has none. */
export function deadlyDemiseMean(s: GameState, m: ModelState): number | null {
  const dd = s.datasheets[m.datasheet].coreAbilities.find((a) => a.name === 'Deadly Demise');
  if (!dd) return null;
  return dd.dice ? dd.dice.plus + (dd.dice.n * (dd.dice.sides + 1)) / 2 : dd.x ?? 0;
}

/**
 * FAIL-SAFE DETONATOR on the destroyed model: with Deadly Demise, its blast for sure (or none) against the 1
 * in 6 it had; without, a 4+ on each unit within 6" for D3 mortal wounds.
 */
export function failSafeGain(c: Ctx, u: UnitState, model: string): number {
  const m = u.models.find((x) => x.id === model);
  if (!m) return 0;
  const dd = deadlyDemiseMean(c.state, m);
  if (dd === null) return Math.max(0, 0.5 * blastValue(c, m, 2, FAIL_SAFE_RANGE));
  const blast = blastValue(c, m, dd, 6);
  return blast > 0 ? (5 / 6) * blast : (1 / 6) * -blast;
}

/** FIRING LINE's attacks: a hit only on an unmodified 5+ (as the plan builder applies it). */
export const FIRING_LINE: PlanTweak = (p) => { p.unmodifiedHitOn = 5; foldUnmodifiedHit(p); };

/** -2 to a Charge roll: a charge needing `need` on 2D6 then needs need + 2. */
const MINUS_TWO_TO_CHARGE = (need: number) => need + 2;

/**
 * A worse Charge roll for `e` charging `u` (`harder`: the 2D6 a charge needing `need` then needs; -2 unless
 * said): the odds of the charge it takes away times the melee it would bring.
 */
export function chargeFoiled(c: Ctx, e: UnitState, u: UnitState, harder: (need: number) => number = MINUS_TWO_TO_CHARGE): number {
  const need = chargeNeed(c, e, u);
  return (p2d6AtLeast(need) - p2d6AtLeast(harder(need))) * unitAttackPotential(c.state, e, u, true);
}

/**
 * A rule that makes the enemy unit's Charge rolls worse, priced at the charge on one of my units (within 12")
 * that it foils most: `harder` gives the 2D6 a charge needing `need` then needs.
 */
function bestChargeFoiled(c: Ctx, e: UnitState, harder: (need: number) => number): number {
  const s = c.state;
  let best = 0;
  for (const m of ownUnits(s, c.me)) if (onBattlefield(m) && unitDistance(s, e, m) <= 12) best = Math.max(best, chargeFoiled(c, e, m, harder));
  return best;
}

/** IMPEDING FIRE on the enemy unit: -2 to its Charge rolls this phase, priced at the charge of mine it is likeliest to make. */
export function impedingFireGain(c: Ctx, e: UnitState): number {
  return bestChargeFoiled(c, e, MINUS_TWO_TO_CHARGE);
}

/** NO PREY TOO BIG: +1 to wound when the attack's Strength is below the highest Toughness in the target unit. */
export function noPreyTooBig(s: GameState): PlanTweak {
  return (p, info) => {
    let t = 0;
    for (const m of info.target.models) if (m.alive) t = Math.max(t, characteristic(s, info.target, m, 'T'));
    if (p.strength < t) p.woundModifier += 1;
  };
}

/** What my army's ranged attacks can do to the enemy unit: units within 30" in full, the others a fifth. */
export function armyCanHurt(c: Ctx, e: UnitState): number {
  const s = c.state;
  let v = 0;
  for (const m of ownUnits(s, c.me)) v += unitAttackPotential(s, m, e, false) * (unitDistance(s, m, e) <= 30 ? 1 : 0.2);
  return v;
}

export function volleyGain(c: Ctx, u: UnitState, tweak: PlanTweak): number {
  return Math.max(0, bestVolley(c, u, tweak) - bestVolley(c, u));
}

/**
 * What failing a Battle-shock test would cost the unit's side: the chance it fails (its test's own modifiers
 * and `modifier`) times its hold on objective markers (the share of its OC the Battle-shock takes) and a
 * tenth of its value.
 */
export function battleShockCost(c: Ctx, u: UnitState, modifier: number): number {
  const s = c.state;
  const need = bestLeadership(s, u) - rollModifier(s, u, 'battle-shock') - modifier;
  const pFail = 1 - p2d6AtLeast(need);
  const row = objectiveSnapshot(s).contrib.get(u.id);
  const onObj = row && row.some((x) => x > 0) ? c.w.objective * 0.8 * battleShockOcShare(s, u) : 0;
  return pFail * (onObj + 0.1 * unitValue(s, u));
}

/**
 * The share of the unit's Objective Control that Battle-shock would take: all of it, unless a rule adds
 * OC after Battle-shock sets it to 0 (Inspirational Defiance's +1 stays: units.ts `characteristic`). Read
 * from the unit as it would be, Battle-shocked (a copy: the agent writes nothing to the state).
 */
function battleShockOcShare(s: GameState, u: UnitState): number {
  const shocked: UnitState = { ...u, battleShocked: true };
  let now = 0;
  let kept = 0;
  for (const m of u.models) {
    if (!m.alive) continue;
    now += Math.max(0, characteristic(s, u, m, 'OC'));
    kept += Math.max(0, characteristic(s, shocked, m, 'OC'));
  }
  return now > 0 ? Math.max(0, now - kept) / now : 1;
}

/**
 * THE GRISLY FEAST: the enemy units within 6" of the Kroot unit now take a test in their next Command phase
 * (-1 Below Half-strength); one that would take it anyway gains only the -1.
 */
export function grislyFeastGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  let v = 0;
  for (const e of enemyUnits(s, c.me)) {
    if (e.battleShocked || unitDistance(s, u, e) > 6) continue;
    v += belowHalfStrength(s, e) ? battleShockCost(c, e, -1) - battleShockCost(c, e, 0) : battleShockCost(c, e, 0);
  }
  return v;
}

/** JOIN THE HUNT: the destroyed Kroot unit back at full strength in Strategic Reserves, if it can still arrive: half its points. */
export function joinTheHuntGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  const next = s.firstPlayer === c.me ? s.round + 1 : s.round;
  if (next < 2 || next > s.mission.rounds) return 0;
  return 0.5 * u.points * (next >= s.mission.rounds ? 0.5 : 1);
}

/** A TRAP WELL LAID: +1 AP for the army's other KROOT units shooting after this one at the enemy it picks: a share of what this unit gains from it, for each (up to two). */
export function trapWellLaidGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  if (s.phase !== 'shooting') return 0;
  let after = 0;
  for (const o of ownUnits(s, c.me)) if (o.id !== u.id && onBattlefield(o) && o.keywords.includes('KROOT') && !o.flags.shot) after++;
  return 0.25 * Math.min(2, after) * volleyGain(c, u, (p) => { p.ap -= 1; });
}

export const WORSE_SKILL: PlanTweak = (p) => { p.skill += 1; };

export const INVULNERABLE_4: PlanTweak = (p) => { p.invulnerable = p.invulnerable === null ? 4 : Math.min(p.invulnerable, 4); };

/**
 * A change to the unit's attacks for the phase (MULTISENSORY SCANNING, EXPERIMENTAL MODIFICATIONS): its
 * volley in a Shooting phase; in a Fight phase its melee at the enemy unit it is fighting that it gains most on.
 */
export function phaseAttackGain(c: Ctx, u: UnitState, tweak: PlanTweak): number {
  if (c.state.phase !== 'fight') return volleyGain(c, u, tweak);
  let best = 0;
  for (const e of engagedEnemies(c.state, u)) best = Math.max(best, attackOn(c, u, e, true, tweak) - attackOn(c, u, e, true));
  return best;
}

/**
 * SERPENT STRIKE: a Consolidation of D3+3" rather than 3" may reach an enemy unit 4-7" away that 3" would not:
 * the odds the roll reaches it (within Engagement Range) times half the unit's melee on it, for the best one.
 */
export function serpentStrikeGain(c: Ctx, u: UnitState): number {
  // it ends within 1" when 3 + D3 >= d - 1: a D3 of ceil(d - 4) or more
  return longConsolidationGain(c, u, (d) => (4 - Math.ceil(d - 4)) / 3);
}

/**
 * SWEEPING AMBUSH: Pile-in and Consolidation moves of 6" rather than 3": a Consolidation that reaches an enemy
 * unit 4-7" away (within Engagement Range after the move) that 3" would not, half the unit's melee on the best one.
 */
export function sweepingAmbushGain(c: Ctx, u: UnitState): number {
  return longConsolidationGain(c, u, () => 1);
}

/**
 * A Consolidation longer than 3" (up to 7" reaches an enemy unit 4-7" away, within Engagement Range after it):
 * half the unit's melee on the best such enemy unit, times the odds the move reaches a unit `d` inches away.
 */
function longConsolidationGain(c: Ctx, u: UnitState, odds: (d: number) => number): number {
  const s = c.state;
  let best = 0;
  for (const e of enemyUnits(s, c.me)) {
    if (!onBattlefield(e)) continue;
    const d = unitDistance(s, u, e);
    if (d <= 4 || d > 7) continue;
    best = Math.max(best, odds(d) * 0.5 * unitAttackPotential(s, u, e, true));
  }
  return best;
}

/**
 * TANGLEBOMB BOLAS on the enemy unit (a D6 of 2+): its Charge rolls halved until my next Shooting phase, priced
 * as IMPEDING FIRE is, at the charge of it on my units it is likeliest to make: a halved 2D6 (rounded up)
 * reaches `need` when the 2D6 reach 2 x need - 1.
 */
export function tanglebombGain(c: Ctx, e: UnitState): number {
  const s = c.state;
  // already slowed: nothing more to take (and chargeNeed counts the halving already)
  if (!onBattlefield(e) || isEngaged(s, e) || rollsHalved(s, e, 'charge')) return 0;
  return (5 / 6) * bestChargeFoiled(c, e, (need) => 2 * need - 1);
}

/**
 * BRUTE FORCE: a D6 for each enemy unit within 3" beyond the hatchway that sees it: one mortal wound on 2-4, two
 * on 5+ (7/6 on average), each at its points per wound.
 */
export function bruteForceGain(c: Ctx, u: UnitState, hatchway: unknown): number {
  const s = c.state;
  let v = 0;
  for (const e of bruteForceVictims(s, hatchway, u)) v += Math.min(7 / 6, unitWounds(s, e).now) * pointsPerWound(s, e);
  return v;
}

/**
 * D-STRIKE's stun (-1 to the Hit rolls of the enemy units within 3" beyond the hatchway, for their next turn): a
 * sixth of what each could deal, about what -1 to hit takes from a 4+ roll's hits, less for a 5+.
 */
export function dStrikeStun(c: Ctx, u: UnitState, hatchway: string): number {
  const h = (c.state.board.hatchways ?? []).find((x) => x.id === hatchway);
  if (!h) return 0;
  let v = 0;
  for (const e of enemiesBeyondHatchway(c.state, u, h, 3)) v += offense(c, e) / 6;
  return v;
}

/**
 * The weapons SHURIKEN STORM (Protector Host) gives +1 Strength, as src/factions/aeldari/boarding-protector-host.ts
 * names them (kept here: the heuristic imports no module that registers rules).
 */
export const SHURIKEN_STORM_WEAPONS: readonly string[] = ['Avenger shuriken catapult', 'Shuriken catapult', 'Shuriken pistol', 'Shuriken cannon'];

/**
 * What a move of up to D6+1" is counted to reach: its average (INTO THE BREACH, the Warhost's FIRE AND FADE,
 * Fade Back and Opportunity Seized, Lethal Intent).
 */
export const D6_PLUS_1_REACH = 4.5;

/** The Warhost (a name, not an import of its module: see the Load order note of the common rules). */
export const WARHOST = 'Warhost';

/** BLITZING FIREPOWER: within 12", SUSTAINED HITS 1, or Critical Hits on 5+ for a weapon that has SUSTAINED HITS. */
export const BLITZING_FIREPOWER: PlanTweak = (p, info) => {
  if (p.melee || info.distance > 12) return;
  if (p.sustainedHits > 0 || p.sustainedHitsDice) p.criticalHitOn = Math.min(p.criticalHitOn, 5);
  else p.sustainedHits = 1;
};

/** LETHAL RUSE's six D6 at 4+ for an ANHRATHE unit: three mortal wounds on the best enemy unit it was engaged with. */
export function lethalRuseWounds(c: Ctx, u: UnitState): number {
  const s = c.state;
  if (!u.keywords.includes('ANHRATHE')) return 0;
  const mark = s.effects.find((e) => e.kind === LETHAL_RUSE_ENGAGED && e.unit === u.id);
  let best = 0;
  for (const id of (mark?.params.enemies as string[] | undefined) ?? []) {
    const e = s.units[id];
    if (e && onBattlefield(e)) best = Math.max(best, 3 * pointsPerWound(s, e));
  }
  return best;
}

/** VENGEFUL SORROW: the closest enemy unit within the Surge's reach (4.5" on average) is fought: half its melee potential against it, by the odds of reaching it. */
export function vengefulSorrowGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  let closest: UnitState | null = null;
  let d = Infinity;
  for (const e of enemyUnits(s, c.me)) {
    const x = unitDistance(s, u, e);
    if (x < d) { d = x; closest = e; }
  }
  if (!closest) return 0;
  // the D6+1 must reach within Engagement Range (1")
  const need = Math.ceil(d - 1 - 1);
  const p = need <= 0 ? 1 : Math.max(0, (6 - need + 1) / 6);
  return 0.5 * p * unitAttackPotential(s, u, closest, true);
}

/**
 * INTERLOCKING MANOUEVRES at the end of a Fight phase: what the unit's best move (6", or a Fall Back) gains
 * over staying, weighed as the move itself is chosen (decideShadeOfTwilight: no charge is lost then).
 */
export function interlockingGain(c: Ctx, u: UnitState, move = INTERLOCKING_MOVE): number {
  const { options } = moveOrFallBackChoices(c.state, u);
  if (options.length === 0) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const short: UnitCtx = { ...uc, move };
  const flags = { advanced: u.flags.advanced, fellBack: u.flags.fellBack };
  const stay = positionScore(c, ov, uc, uc.from, flags);
  let best = stay;
  for (const o of options) {
    if ('none' in o || !o.to) continue;
    best = Math.max(best, positionScore(c, ov, short, moveEnd(short, o, o.to, 0, towardEnemy(short, o)), { ...flags, noCharge: false }));
  }
  return best - stay;
}

/** BLOODY DANCE: the best charge at an enemy unit within 6" (as HEROIC INTERVENTION's: my attacks less half of theirs back). */
export function bloodyDanceGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  let best = 0;
  for (const e of enemyUnits(s, c.me)) {
    if (!onBattlefield(e) || unitDistance(s, u, e) > 6) continue;
    best = Math.max(best, p2d6AtLeast(chargeNeed(c, u, e)) * (unitAttackPotential(s, u, e, true) - 0.5 * unitAttackPotential(s, e, u, true)));
  }
  return best;
}

/** STAGED DEATH: the fallen CHARACTER back with half its wounds: half its unit's points, while rounds are left to use it. */
export function stagedDeathGain(c: Ctx, u: UnitState, modelId: string): number {
  const s = c.state;
  const m = u.models.find((x) => x.id === modelId);
  const own = m ? s.units[m.origin] : null;
  // in the last player turn of the battle, it would stand again for nothing
  if (!own || (s.round >= s.mission.rounds && s.turn !== c.me)) return 0;
  return 0.5 * own.points;
}

/** FANGS OF THE BROOD: the Dance of Death abilities the Troupe has not taken, on the enemy unit it fights that it gains most on. */
export function fangsGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  const taken = s.effects.filter((e) => e.kind === 'Dance of Death' && e.unit === u.id).map((e) => e.params.choice);
  let v = 0;
  for (const e of engagedEnemies(s, u)) {
    const tweak: PlanTweak = (p) => {
      if (!taken.includes("Hero's Prowess")) p.rerollHits = widerReroll(p.rerollHits, 'ones');
      if (!taken.includes("Villain's Doom")) p.woundModifier += 1;
    };
    v = Math.max(v, attackOn(c, u, e, true, tweak) - attackOn(c, u, e, true));
  }
  if (!taken.includes("Trickster's Grace")) for (const e of engagedEnemies(s, u)) v += Math.max(0, attackOn(c, e, u, true) - attackOn(c, e, u, true, MINUS_ONE_TO_HIT));
  return v;
}

/** STRIKING STRIDE: the charge the unit that Advanced could not make otherwise, at the enemy unit in reach it gains most on. */
export function strikingStrideGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  let best = 0;
  for (const e of enemyUnits(s, c.me)) {
    if (!onBattlefield(e) || unitDistance(s, u, e) > 12) continue;
    best = Math.max(best, chargeScore(c, u, e));
  }
  return best;
}

/**
 * Will a unit starting a move toward `to` end it more than the shooter's longest range from each of the
 * shooter's models? Its end: as far toward `to` as its Move (3.5" more for an Advance) takes its centre.
 */
export function endsBeyondReach(c: Ctx, shooter: UnitState, mover: UnitState, move: { mode?: string; to?: Point } | undefined): boolean {
  const s = c.state;
  const pts = mover.models.filter((m) => m.alive && m.pos).map((m) => m.pos!);
  if (!move?.to || pts.length === 0) return false;
  const from = centroidOf(pts);
  const far = dist(from, move.to);
  const step = Math.min(far, unitMove(s, mover) + (move.mode === 'advance' ? 3.5 : 0));
  const end = far > 0 ? { x: from.x + ((move.to.x - from.x) * step) / far, y: from.y + ((move.to.y - from.y) * step) / far } : from;
  // range is measured between bases: ~1" of two bases' radii between the centres counted
  const reach = maxRange(s, shooter) + unitSpread(s, mover) + 1;
  for (const m of shooter.models) if (m.alive && m.pos && dist(m.pos, end) <= reach) return false;
  return true;
}
