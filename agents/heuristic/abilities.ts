/**
 * The choices datasheet and detachment abilities ask (Dance of Death, Martial Warrior, Targeting Array...),
 * each priced with the same calculator.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { UnitState } from '../../src/core/state.ts';
import { widerReroll, woundTarget } from '../../src/rules/attack-plan.ts';
import { enemyUnits, ownUnits, p2d6AtLeast, pointsPerWound, unitAttackPotential, unitValue, unitWounds, weaponEstimate, weaponUses, type PlanTweak } from '../../src/ai/evaluate.ts';
import { dangerFrom, dangerSources, dist, expectedAdvance, objectiveSnapshot, unitGeo, type Point } from '../../src/ai/tactics.ts';
import { bestLeadership, characteristic, hasKeyword, onBattlefield, rollModifier, unitMove } from '../../src/rules/battle/units.ts';
import { isEngaged, unitDistance, engagedEnemies, unitSees } from '../../src/rules/battle/world.ts';
import { MICRODRONE_UNITS } from '../../src/factions/tau/more-abilities.ts';
import { cruelAmusementTweak } from '../../src/factions/aeldari/harlequins.ts';
import { destroyedWraiths } from '../../src/factions/aeldari/spiritseer.ts';
import { type Ctx, argmax, setLastScores } from './context.ts';
import { objectiveView } from './objectives.ts';
import { positionScore, unitCtx } from './unit-context.ts';
import { attackOn, bestVolley, shootable } from './attacks.ts';
import { MINUS_ONE_TO_HIT, incomingSaved, volleyGain } from './stratagem-prices.ts';

function tweakFor(weapon: string | null, f: (p: Parameters<PlanTweak>[0]) => void): PlanTweak {
  return (p, info) => { if (weapon === null || info.weapon === weapon) f(p); };
}

/** Enemy units the unit is fighting (or could charge this turn). */
function foesOf(c: Ctx, u: UnitState): UnitState[] {
  const engaged = engagedEnemies(c.state, u);
  if (engaged.length) return engaged;
  return enemyUnits(c.state, c.me).filter((e) => unitDistance(c.state, u, e) <= 12);
}

export function decideDanceOfDeath(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as string[];
  const foes = foesOf(c, u);
  if (!u || foes.length === 0) return Math.max(0, options.indexOf("Trickster's Grace"));
  return argmax(options, (o) => {
    let v = 0;
    for (const e of foes) {
      if (o === "Hero's Prowess") v = Math.max(v, attackOn(c, u, e, true, (p) => { p.rerollHits = widerReroll(p.rerollHits, 'ones'); }) - attackOn(c, u, e, true));
      else if (o === "Villain's Doom") v = Math.max(v, attackOn(c, u, e, true, (p) => { p.woundModifier += 1; }) - attackOn(c, u, e, true));
      else v += Math.max(0, attackOn(c, e, u, true) - attackOn(c, e, u, true, MINUS_ONE_TO_HIT)) * (engagedEnemies(s, u).includes(e) ? 1 : 0.3);
    }
    return v;
  });
}

export function decideMartialWarrior(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as string[];
  const foes = u ? foesOf(c, u) : [];
  return argmax(options, (o) => {
    let v = 0;
    for (const e of foes) {
      if (o === 'Direct Grace') {
        // PRECISION: worth it against an Attached unit with a Leader to pick out
        const leader = e.components.find((x) => x.isLeader && !x.destroyed);
        v = Math.max(v, attackOn(c, u, e, true) + (leader ? 0.3 * (s.units[leader.unit]?.points ?? 0) : 0));
      } else if (o === 'Forceful Strike') v = Math.max(v, attackOn(c, u, e, true, tweakFor('Fidelity', (p) => { p.devastatingWounds = true; })));
      else v = Math.max(v, attackOn(c, u, e, true, tweakFor('Fidelity', (p) => { p.sustainedHits = Math.max(p.sustainedHits, 2); })));
    }
    return v;
  });
}

export function decideTargetingArray(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as string[];
  // re-roll the roll that fails more often against the likely target
  let pHit = 1, pWound = 1;
  let best = 0;
  for (const e of enemyUnits(s, c.me)) {
    for (const use of weaponUses(s, u, false)) {
      const v = weaponEstimate(s, u, use, e, { inRangeOnly: true }).value;
      if (v <= best) continue;
      best = v;
      let tough = 0;
      for (const m of e.models) if (m.alive) { tough = s.datasheets[m.datasheet].models[m.profile].toughness; break; }
      pHit = (7 - Math.min(6, Math.max(2, use.profile.skill))) / 6;
      pWound = (7 - woundTarget(use.profile.strength, tough)) / 6;
    }
  }
  const want = pHit <= pWound ? 'hit' : 'wound';
  return Math.max(0, options.indexOf(want));
}

export function decideNovaCharge(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as ({ none: true } | { weapon: string })[];
  // once per battle: worth using when it adds a good deal now, or late in the battle
  return argmax(options, (o) => {
    if ('none' in o) return 0;
    const gain = volleyGain(c, u, tweakFor(o.weapon, (p) => { p.devastatingWounds = true; }));
    return gain - tokenThreshold(c, 1);
  });
}

/** What a once-per-battle use must add to be spent now: as the Nova Charge, less late in the battle. */
function tokenThreshold(c: Ctx, uses: number): number {
  return (12 / uses) * (c.state.round >= 4 ? 0.5 : 1);
}

/** Oversight Drone (once per battle): IGNORES COVER this phase when it adds enough to the unit's volley. */
export function decideOversightDrone(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  const gain = volleyGain(c, u, (p) => { if (!p.melee) p.ignoresCover = true; });
  return gain > tokenThreshold(c, 1) ? (req.options as string[]).indexOf('use') : 0;
}

/** Blacklight Marker Drones (twice per battle): the Guided unit's re-rolls of Wound rolls of 1 at the Spotted unit, when they add enough. */
export function decideBlacklight(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  const spotted = String(req.context?.spotted);
  const only = (t: UnitState) => t.id === spotted;
  const gain = bestVolley(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'ones'); }, only) - bestVolley(c, u, undefined, only);
  return gain > tokenThreshold(c, 2) ? (req.options as string[]).indexOf('use') : 0;
}

/** A once-per-battle protection when targeted (Nova Shielding, Duality Shield): used when it saves enough of this attack. */
export function decideShield(c: Ctx, req: DecisionRequest, tweak: PlanTweak): number {
  const u = c.state.units[String(req.context?.unit)];
  const attacker = String(req.context?.attacker);
  const saved = incomingSaved(c, { name: 'shooting/after-enemy-targets', unit: attacker, targets: [u.id] }, u, tweak);
  return saved > tokenThreshold(c, 1) ? (req.options as string[]).indexOf('use') : 0;
}

/** Kroot Packmates (once per turn): answer when the unit's guns can hurt the attacker. */
export function decidePackmates(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  const attacker = String(req.context?.attacker);
  return bestVolley(c, u, undefined, (t) => t.id === attacker) > 0 ? (req.options as string[]).indexOf('use') : 0;
}

/**
 * Nova Burst (once per battle, Move 18"): used for a move whose destination lies beyond the unit's reach
 * without it (its Move, plus the expected Advance when it Advances), so that the extra inches are walked.
 */
export function decideNovaBurst(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const ctx = req.context as { mode: string; to: Point };
  if (!u) return 0;
  const reach = unitMove(s, u) + (ctx.mode === 'advance' ? expectedAdvance(s, u) : 0);
  return dist(unitGeo(s, u), ctx.to) > reach + 1 ? (req.options as string[]).indexOf('use') : 0;
}

/**
 * Target Optimisation Microdrones (once per turn, AP +1 this phase): on this unit when its guns gain at
 * least as much from it as those of any other unit that could have it and has not shot yet.
 */
export function decideMicrodrones(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const bearer = s.units[String(req.context?.bearer)];
  if (!u || !bearer) return 0;
  const ap: PlanTweak = (p) => { if (!p.melee) p.ap -= 1; };
  const gain = volleyGain(c, u, ap);
  if (gain <= 0) return 0;
  for (const o of ownUnits(s, c.me)) {
    if (o.id === u.id || o.flags.shot || !onBattlefield(o) || unitDistance(s, o, bearer) > 6) continue;
    if (!MICRODRONE_UNITS.some((k) => hasKeyword(o, k))) continue;
    if (volleyGain(c, o, ap) > gain) return 0;
  }
  return (req.options as string[]).indexOf('use');
}

/**
 * Cruel Amusement: the abilities whose shrieker cannon volley gains most (SUSTAINED HITS 3 on ties, the
 * first option). PRECISION against a visible Attached unit in range led by a CHARACTER: its damage goes to
 * the Leader, worth the volley at that unit times how much more the Leader's wounds are worth than the
 * unit's on average (at most the Leader's value).
 */
export function decideCruelAmusement(c: Ctx, req: DecisionRequest): number {
  // (the Death Jester's only ranged weapon is its shrieker cannon: its volley is the cannon's)
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  if (!u || !onBattlefield(u)) return 0;
  let precision = 0;
  for (const e of shootable(c, u)) {
    const leader = e.components.find((x) => x.isLeader && !x.destroyed && x.keywords.includes('CHARACTER'));
    if (!leader || unitDistance(s, u, e) > CRUEL_AMUSEMENT_RANGE || !unitSees(s, u, e)) continue;
    const models = e.models.filter((m) => m.alive && m.origin === leader.unit);
    const wounds = models.reduce((a, m) => a + s.datasheets[m.datasheet].models[m.profile].wounds, 0);
    const left = models.reduce((a, m) => a + m.wounds, 0);
    if (wounds === 0) continue;
    const perWound = Math.max(s.units[leader.unit]?.points ?? 0, 20) / wounds;
    const ratio = perWound / Math.max(1e-9, pointsPerWound(s, e)) - 1;
    if (ratio <= 0) continue;
    precision = Math.max(precision, Math.min(perWound * left, ratio * bestVolley(c, u, undefined, (t) => t.id === e.id)));
  }
  return argmax(req.options as string[][], (abilities) => {
    const gain = volleyGain(c, u, (p) => { if (p.weapon === 'Shrieker cannon') cruelAmusementTweak(p, abilities); });
    return gain + (abilities.includes('PRECISION') ? precision : 0);
  });
}

/** The shrieker cannon's Range (Cruel Amusement's PRECISION is weighed against units within it). */
const CRUEL_AMUSEMENT_RANGE = 24;

/**
 * Blitz (once per battle: +2D6" Move, +3 Attacks to the Solitaire's weapons this turn): used when the chosen
 * destination is farther than its Move, or when an enemy unit is within its Move, 2D6" and a charge on
 * average (7" each): the Attacks will likely be used this turn.
 */
export function decideBlitz(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const to = req.context?.to as Point | undefined;
  const options = req.options as string[];
  if (!u || !to) return 0;
  const move = unitMove(s, u);
  const far = dist(unitGeo(s, u), to) > move + 1;
  const prey = s.unitOrder.some((id) => { const e = s.units[id]; return e.player === c.opp && onBattlefield(e) && unitDistance(s, u, e) <= move + 14; });
  return Math.max(0, options.indexOf(far || prey ? 'use' : 'keep'));
}

/** Pick the enemy unit whose effect matters most by a score. */
export function pickEnemy(c: Ctx, req: DecisionRequest, score: (e: UnitState) => number): number {
  const s = c.state;
  const options = req.options as string[];
  return argmax(options, (id) => { const e = s.units[id]; return e ? score(e) : -Infinity; });
}

/** How much the enemy unit can hurt my army (its best attacks against any of my units). */
export function offense(c: Ctx, e: UnitState): number {
  let best = 0;
  for (const m of ownUnits(c.state, c.me)) best = Math.max(best, unitAttackPotential(c.state, e, m, false) + 0.5 * unitAttackPotential(c.state, e, m, true));
  return best;
}

export function decideFlyover(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as ({ none: true } | { target: string })[];
  let hawks = 0;
  for (const m of u.models) if (m.alive) hawks++;
  const mortal = Math.min(6, hawks / 2);
  return argmax(options, (o) => {
    if ('none' in o) return 0;
    const e = s.units[o.target];
    return Math.min(mortal, unitWounds(s, e).now) * pointsPerWound(s, e) + 0.01;
  });
}

const SUSTAINED_HITS_1: PlanTweak = (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); };

/**
 * Spirit Mark: the Wraith unit and enemy unit whose SUSTAINED HITS 1 adds most to what the Wraiths can do to
 * it (their guns in range now, their melee weapons at a third: a fight is less sure), the more valuable enemy
 * on a tie. At the start of the Spiritseer's move a mark worth less than `spiritMarkWait` is kept for the end
 * of the move (the Spiritseer and the Wraiths may be nearer the enemy by then); at its end the best is taken.
 */
export function decideSpiritMark(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ none: true } | { unit: string; target: string })[];
  const wait = req.context?.when === 'end' ? -1 : c.w.spiritMarkWait;
  return argmax(options, (o) => {
    if ('none' in o) return wait;
    const w = s.units[o.unit];
    const e = s.units[o.target];
    const ranged = attackOn(c, w, e, false, SUSTAINED_HITS_1) - attackOn(c, w, e, false);
    const melee = attackOn(c, w, e, true, SUSTAINED_HITS_1) - attackOn(c, w, e, true);
    return ranged + melee / 3 + 0.001 * unitValue(s, e);
  });
}

/** Tears of Isha: the Wraith unit that gains most: a destroyed model back (its wounds), else up to D3 wounds (2 on average) on its most hurt model. */
export function decideTearsOfIsha(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  return argmax(req.options as string[], (id) => {
    const w = s.units[id];
    const dead = destroyedWraiths(s, w);
    if (dead.length > 0) return characteristic(s, w, dead[0], 'W') * pointsPerWound(s, w);
    let lost = 0;
    for (const m of w.models) if (m.alive) lost = Math.max(lost, characteristic(s, w, m, 'W') - m.wounds);
    return Math.min(2, lost) * pointsPerWound(s, w);
  });
}

export function decideDroneHarassment(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  return pickEnemy(c, req, (e) => {
    if (e.battleShocked) return -1;
    const pFail = 1 - p2d6AtLeast(bestLeadership(s, e) - rollModifier(s, e, 'battle-shock'));
    const row = objectiveSnapshot(s).contrib.get(e.id);
    const oc = row ? row.reduce((a, b) => a + b, 0) : 0;
    return pFail * (oc * 10 + 5);
  });
}

/**
 * What embarking the unit now saves it (Rapid Embarkation, SKYBORNE SANCTUARY): the danger it stands in,
 * less a little for the turn it spends getting out; -1 while it holds an objective marker.
 */
export function embarkSafety(c: Ctx, u: UnitState): number {
  const s = c.state;
  const row = objectiveSnapshot(s).contrib.get(u.id);
  if (row && row.some((x) => x > 0)) return -1;
  const g = unitGeo(s, u);
  const d = Math.min(dangerFrom(dangerSources(s, u), g, g.r), 1.25 * unitValue(s, u));
  return c.w.danger * d - 5;
}

export function decideRapidEmbarkation(c: Ctx, req: DecisionRequest): number {
  const options = req.options as ({ none: true } | { unit: string })[];
  return argmax(options, (o) => ('none' in o ? 0 : embarkSafety(c, c.state.units[o.unit])));
}

/** Inevitable Death: the Yncarne goes where the friendly unit fell when it is not fighting and that spot is nearer an enemy model. */
export function decideInevitableDeath(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const go = req.options[1] as { to: { x: number; y: number } } | undefined;
  const here = u?.models.find((m) => m.alive && m.pos)?.pos;
  if (!go || !here || isEngaged(s, u)) return 0;
  const nearest = (p: { x: number; y: number }) => {
    let d = Infinity;
    for (const id of s.unitOrder) {
      const e = s.units[id];
      if (e.player === u.player || !onBattlefield(e)) continue;
      for (const m of e.models) if (m.alive && m.pos) d = Math.min(d, Math.hypot(m.pos.x - p.x, m.pos.y - p.y));
    }
    return d;
  };
  return nearest(go.to) < nearest(here) ? 1 : 0;
}

export function decideEmbark(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ stay: true } | { transport: string })[];
  // the unit the request names (a rule's move may be another unit's than the last this agent moved)
  const id = (req.context as { unit?: string }).unit ?? c.mem.moved;
  const u = id ? s.units[id] : null;
  if (options.length < 2 || !u || !onBattlefield(u)) return 0;
  // get back in when where it stands is worth less than nothing (no marker, nothing to shoot, in danger)
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: u.flags.advanced, fellBack: u.flags.fellBack });
  setLastScores(options.map((o) => ('stay' in o ? 0 : -here - 10)));
  return here < -10 ? 1 : 0;
}

export function decideFocusedFireChoice(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { unit: string; enemy: string }[];
  // the first unit of the pair is the one the stratagem was used on: the one not among the options' units
  const apPlus: PlanTweak = (p) => { p.ap -= 1; };
  const cache = new Map<string, number>();
  const first = ownUnits(s, c.me).find((x) => !x.flags.shot && !options.some((o) => o.unit === x.id));
  return argmax(options, (o) => {
    const e = s.units[o.enemy];
    const x = s.units[o.unit];
    let a = cache.get(`f|${o.enemy}`);
    if (a === undefined) { a = first ? attackOn(c, first, e, false, apPlus) : 0; cache.set(`f|${o.enemy}`, a); }
    return a + attackOn(c, x, e, false, apPlus) - bestVolley(c, x);
  });
}

/**
 * Admired Leader (+1 Objective Control, Leadership improved): the unit in range of a marker with the most
 * models there, else the one with the most models (it may get there); never none, it costs nothing.
 */
export function decideAdmiredLeader(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const snap = objectiveSnapshot(s);
  return argmax(req.options as ({ none: true } | { unit: string })[], (o) => {
    if ('none' in o) return -1;
    const u = s.units[o.unit];
    if (!u) return -1;
    let models = 0;
    for (const m of u.models) if (m.alive) models++;
    return (snap.contrib.get(u.id)?.some((x) => x > 0) ? 100 : 0) + models;
  });
}

export function decideFightWeapon(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const modelId = String(req.context?.model ?? '');
  const options = req.options as string[];
  let unit: UnitState | null = null;
  for (const u of ownUnits(s, c.me)) if (u.models.some((m) => m.id === modelId)) { unit = u; break; }
  if (!unit) return 0;
  const model = unit.models.find((m) => m.id === modelId)!;
  const ds = s.datasheets[model.datasheet];
  const foes = foesOf(c, unit);
  return argmax(options, (name) => {
    const wpn = ds.weapons.find((x) => x.name === name);
    const prof = wpn?.profiles.find((p) => p.range === 'Melee');
    if (!wpn || !prof) return 0;
    let best = 0;
    for (const e of foes) best = Math.max(best, weaponEstimate(s, unit!, { weapon: wpn, profile: prof, models: [model] }, e).value);
    return best;
  });
}
