/**
 * The heuristic agent: plays the mission (takes and holds objective markers with Objective Control
 * where the scoring counts, denies the opponent's), keeps out of reach when that pays, shoots and
 * fights the target with the best expected value from the exact calculator with every rule of the
 * moment, charges when the odds times the prize beat the risk, and spends CP when a stratagem's
 * expected gain (priced with the same calculator, the stratagem's effect folded into the Attack plan)
 * beats the CP's worth. Every other decision the engine asks (Fate dice, Scout moves, Reserves, Dance
 * of Death, Martial Warrior, Targeting Array...) is priced the same way.
 *
 * Its weights are named parameters (WEIGHTS), so they can be tuned; `params` on the command line or
 * scenario override them. It spends no time budget and draws randomness only from its own stream, and
 * only to vary its deployment (WEIGHTS.deployVariety; other ties go to the first option), so games stay
 * reproducible.
 */
// The engine's registries first, in the order every game loads them (src/sim/play.ts): roll reactions,
// stratagem lists and listeners run in registration order, so the faction modules imported below must not
// register theirs before the core's (imported first, this agent could otherwise change the games it plays).
import '../src/rules/index.ts';
import '../src/factions/index.ts';
import type { Agent, AgentFactory, DecisionRequest, GameView } from '../src/core/agent.ts';
import type { Stream } from '../src/core/rng.ts';
import { opponent, type GameState, type ModelState, type PlayerIndex, type UnitState } from '../src/core/state.ts';
import { foldUnmodifiedHit, grantRerollOne, widerReroll, woundTarget } from '../src/rules/attack-plan.ts';
import { allows, escortUnits, forbids, forEachActiveRule, weaponHas, weaponRange } from '../src/core/rules-registry.ts';
import {
  enemyUnits, maxRange, ownUnits, p2d6AtLeast, pointsPerWound, unitAttackPotential, unitValue, unitWounds,
  reachesAt, weaponEstimate, weaponPotentials, weaponUses, type PlanTweak, type WeaponPotential, type WeaponUse,
} from '../src/ai/evaluate.ts';
import {
  ADVANCE_REROLL_AT_MOST, chargeOdds, dangerFrom, dangerSources, dist, expectedAdvance, heldCount, objectiveSnapshot, scoringOutlook, unitGeo, spreadOf, unitOC, unitSpread,
  type DangerSource, type ObjectiveSnapshot, type Point, type ScoringOutlook, type UnitGeo,
} from '../src/ai/tactics.ts';
import { belowHalfStrength, belowStartingStrength, bestLeadership, characteristic, hasKeyword, isMonsterOrVehicle, onBattlefield, rollModifier, rollsHalved, unitMove } from '../src/rules/battle/units.ts';
import { chargeRollModifier } from '../src/rules/battle/charge.ts';
import { boardOf, isEngaged, modelBody, unitDisc, unitDistance, engagedEnemies, unitSees } from '../src/rules/battle/world.ts';
import { horizontalDistance } from '../src/geometry/distance.ts';
import { targetableInCombat } from '../src/rules/battle/big-guns.ts';
import { profileHas } from '../src/data/datasheet.ts';
import { isVisible } from '../src/geometry/visibility.ts';
import type { Body, Board } from '../src/geometry/types.ts';
import { centroidOf } from '../src/geometry/planner.ts';
import { moveOptions, planMove } from '../src/rules/battle/movement.ts';
import { deploymentAnchors } from '../src/rules/battle/placement.ts';
import { canInfiltrate, infiltrationAnchors } from '../src/rules/battle/pre-battle.ts';
import type { RedeployOption, RedeployWhere } from '../src/rules/battle/redeploy.ts';
import { arrivalPoints as reservesArrivalPoints } from '../src/rules/battle/reserves.ts';
import { acrossHatchway, enemiesBeyondHatchway, hatchwayById, hatchwayCentre } from '../src/rules/battle/hatchways.ts';
import type { UnerringOption } from '../src/factions/aeldari/boarding-khaines-arrow.ts';
import { disembarkPlan, roomToDisembarkAfterMove, unitNearModel, type TransportMove } from '../src/rules/battle/transports.ts';
import { FAIL_SAFE_RANGE } from '../src/factions/tau/retaliation-cadre.ts';
import { auxiliary, guidedFireBonus, INTERLOCKING_MOVE } from '../src/factions/tau/auxiliary-cadre.ts';
import { bruteForceVictims, tanglebombTargets } from '../src/factions/tau/kroot-raiding-party.ts';
import { OVERFLIGHT_MOVE } from '../src/factions/aeldari/windrider-host.ts';
import { STRIDE_MOVE, VENOMOUS_WRATH_MOVE, WEAVERS_COILS_FALL_BACK } from '../src/factions/aeldari/harlequin-detachments.ts';
import { MICRODRONE_UNITS } from '../src/factions/tau/more-abilities.ts';
import { destroyedGuardians } from '../src/factions/aeldari/guardian-battlehost.ts';
import { PATH_OF_THE_WARRIOR_CHOICES, PRETERNATURAL_PRECISION_CHOICES, pathOfTheWarriorPlan, preternaturalPlan } from '../src/factions/aeldari/aspect-host.ts';
import { moveOrFallBackChoices, normalMoveChoices, withinObjectiveRange } from '../src/factions/helpers.ts';
import { manoeuvreRollBonus } from '../src/factions/aeldari/battle-focus-bonuses.ts';
import { FADE_BACK, FLITTING_SHADOWS, OPPORTUNITY_SEIZED, STAR_ENGINES, SUDDEN_STRIKE, SWIFT_AS_THE_WIND, type BattleFocusOption } from '../src/factions/aeldari/battle-focus-names.ts';
import { cruelAmusementTweak } from '../src/factions/aeldari/harlequins.ts';
import { LETHAL_RUSE_ENGAGED } from '../src/factions/aeldari/corsair-coterie.ts';
import { impedingFireTargets, withdrawnModelsBack } from '../src/factions/aeldari/eldritch-raiders.ts';
import { SEER_STRANDS_OF_FATE, truthPoints } from '../src/factions/aeldari/seer-council.ts';
import { destroyedWraiths } from '../src/factions/aeldari/spiritseer.ts';
import { crushingStridesDice } from '../src/factions/aeldari/spirit-conclave.ts';
import { psychicallyGuided } from '../src/factions/aeldari/wraiths-and-warlocks.ts';
import { isLeaderModel, mustTake } from '../src/rules/allocation.ts';
import { pointInPolygon } from '../src/geometry/polygon.ts';
import { cloneState } from '../src/core/clone.ts';
import { perVersion } from '../src/ai/memo.ts';
import { apply as applyEvent } from '../src/core/reducer.ts';
import { len } from '../src/geometry/vec.ts';

/** Every tunable number of the agent, in points-equivalent (the army points a thing is worth). */
export const WEIGHTS = {
  /** worth of controlling an objective marker at one's next scoring, in points */
  objective: 70,
  /** share of that worth for denying a marker to the opponent before they score */
  deny: 0.7,
  /** share of the worth for a marker beyond those the per-turn cap pays for (redundancy) */
  redundant: 0.25,
  /**
   * share of the enemy OC that could reach a marker next turn counted against holding it. 0 against 0.5,
   * head-to-head, 1,000 games each (sides swapped): default scenario 548-406 and 556-403, Kauyon vs
   * Armoured Warhost 542-409, Kauyon mirror 529-398 (docs/agent-measurements.md)
   */
  reachContest: 0,
  /** share of a marker's worth for heading toward it when it is out of reach this turn */
  progress: 0.5,
  /** weight of the expected value of the shooting a position offers this turn */
  fire: 0.9,
  /**
   * share of a target's value counted when terrain blocks every sight line to it from the position
   * (0: a hidden target is worth nothing there; 1: sight is not checked)
   */
  blockedFire: 0,
  /** weight of the expected value of the charge a position offers this turn (melee units) */
  charge: 0.8,
  /** weight of the expected damage the enemy can deal to the unit next turn where it ends */
  danger: 0.15,
  /**
   * share of an enemy unit's shooting counted in the danger of a position it cannot see from where it
   * stands now (it may move to see it; 1: sight is not checked). 0.5 against 1, head-to-head, 400 games
   * each: default scenario 49.5% vs 39.3%, montka-vs-battle-host 49.8% vs 46.3%
   */
  hiddenDanger: 0.5,
  /** bonus for ending in terrain (cover), per point of unit value */
  cover: 0.04,
  /** a charge is declared when its expected gain exceeds this share of the unit's value */
  chargeThreshold: 0.05,
  /** share of the unit's shooting it gives up next turn by being locked in combat (non-vehicles) */
  lockedShooting: 0.5,
  /** worth of 1 CP in points */
  cp: 20,
  /** CP kept for reactions (Command Re-roll on a charge, Go to Ground...) when a stratagem is optional */
  cpReserve: 1,
  /** worth of spending a Fate die of 6 (lower dice are worth proportionally less) */
  fateDie: 10,
  /** extra worth (share of a marker's worth) of damaging an enemy unit that holds or contests a marker */
  objectiveTarget: 0.4,
  /** extra worth per point of the target's own damage output removed (killing the dangerous first) */
  threatTarget: 0.3,
  /** share of the army's fire that goes to the unit PINPOINT COUNTER-OFFENSIVE marks, each turn */
  pinpointShare: 0.25,
  /** Stealth Drones (Ghostkeel, twice a battle): spent on allocated attacks whose mean Damage is at least this */
  stealthDronesDamage: 3,
  /** Airborne Agility: the gain (points) over staying that sends a unit into Strategic Reserves */
  airborneAgilityMargin: 5,
  /** Spirit Mark: at the start of the Spiritseer's move, a mark worth less than this (points) waits for the end of the move */
  spiritMarkWait: 1,
  /**
   * 1: the danger of a position counts that a Lone Operative there can be shot only from within 12" (the
   * Spiritseer, Bonesinger and Spirit Stone of Raelyth's bearer only within 3" of their escorts); 0: every
   * unit's danger as if it had none
   */
  loneOperative: 1,
  /** Declare Battle Formations: share of a Leader's value for the protection of a Bodyguard unit */
  leaderProtection: 0.3,
  /** Declare Battle Formations: units whose guns reach no further than this (or melee units) Deep Strike */
  deepStrikeRange: 18,
  /**
   * Units whose longest gun reaches this far (the length of the battlefield), carrying no passengers, pay
   * for an Advance to where an enemy unit could charge them (WEIGHTS.chargeCost; 0 there: they do not make
   * it): their guns reach anyway, and the extra inches only bring them into the enemy's reach. Found in the Armoured Warhost mirror, where ASSAULT made every
   * Advance look free; since positions count sight lines its effect there is neutral in sum (it helps on
   * Crucible of Battle, costs on Hammer and Anvil: docs/agent-measurements.md).
   */
  gunlineRange: 60,
  /**
   * 1: VEHICLE units carrying no passengers follow the same doctrine whatever their guns reach (found in
   * the Armoured Warhost mirror on Dawn of War, where War Walkers with ASSAULT 24" guns Advanced into
   * charge reach: the same games without their Advances were 6.1 points better, without any VEHICLE's
   * Advance 9.7). Against 0, both with the veto, default scenario, 400 games, seed 11: 55.8% vs 35.5%;
   * the heuristic as it is (the price, chargeCost 0.5) against 0 with the veto: 56.3% vs 35.3%. As a veto
   * it cost Mont'ka (ASSAULT battlesuits) part of its edge; the price gives most of it back
   */
  gunlineVehicles: 1,
  /**
   * Deployment: worth of a spot lost per point of an enemy unit's shooting at the unit (x 0.3 when the
   * enemy unit is 30" away or more). Head-to-head on the default scenario, 400 games each, seed 11, each
   * value against the one before: 0.025 (until 2026-11-30) < 0.075 (69.0% vs 24.3%) < 0.2 (57.0% vs
   * 34.5%) < 0.5 (63.0% vs 29.0%) < 1.25 (76.8% vs 17.0%) < 5 (54.8% vs 39.0%): where it starts out of
   * the enemy's sight and reach matters far more than the markers it is near (docs/agent-measurements.md)
   */
  deployDanger: 5,
  /** 1: deployment counts an enemy unit that cannot see the spot at WEIGHTS.hiddenDanger (0: every enemy in full) */
  deploySight: 1,
  /**
   * The gun-platform doctrine above as a price rather than a veto: an Advance to where an enemy unit could
   * charge the platform costs this share of its worth times the best odds of a charge there (0: the veto,
   * any odds above 0 rule the Advance out). 0.5 against the veto, same seeds (docs/agent-measurements.md,
   * "A price for a charge instead of the veto"): the Armoured Warhost mirror's margin over its baseline +2.4
   * points over 8,000 games (z 3.3); Mont'ka -0.6 of 1,000, +11.0 of 200; Kauyon +1.0, Battle Host 0.
   */
  chargeCost: 0.5,
  /**
   * Not a playing weight: N > 0 scores move options in the order of an upper bound of their score and
   * stops where no bound can win (bestMoveScore, argmaxBounded), scoring in full at least the best N of a
   * move decision (the log explains the best 3; a search agent that tries more candidates asks for more:
   * lastOptionScores), and remembers the scores within a state version (moveScores); 0 scores every
   * option every time. Both choose the same moves (a test plays games both ways); pruning saves most of the
   * sight lines.
   */
  prune: 3,
  /**
   * Deployment variety: each unit is set up on a spot drawn from the agent's own seeded stream among those
   * scoring within this share of the gap between the best spot and the median one (0: always the best).
   * No dice are rolled before deployment, so a deployment that always takes the best spot is the same in
   * every game of a batch: a batch then measures one deployment per side, and a detachment that changes
   * the threat estimates changes the other army's deployment with it, one draw that all its games share
   * (the Retaliation Cadre's -15 a pair: docs/agent-measurements.md, "One deployment per batch").
   */
  deployVariety: 0.2,
};

type Weights = typeof WEIGHTS;

/** Scores of the last argmax (read right after it, to explain the decision). */
let lastScores: number[] = [];

function argmax<T>(items: readonly T[], score: (t: T, i: number) => number): number {
  let best = -Infinity;
  let idx = 0;
  lastScores = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const s = score(items[i], i);
    lastScores[i] = s;
    if (s > best + 1e-9) { best = s; idx = i; }
  }
  return idx;
}

/**
 * argmax with the same choice, when an upper bound of each score is cheap: the options are scored in the
 * order of their bounds until no bound left can reach the `keep`-th best score found. lastScores holds the
 * scores of the options scored and -Infinity for the others, which could not be among the best `keep`
 * (so the log's explanation and a search agent's candidates are the same as with every option scored).
 */
function argmaxBounded<T>(items: readonly T[], score: (t: T) => number, bound: (t: T) => number, keep: number): number {
  const order = inBoundOrder(items, bound);
  const scores = new Array<number>(items.length).fill(-Infinity);
  // the `keep` best scores found so far, best first
  const top: number[] = [];
  for (const { t, i, b } of order) {
    // a margin for rounding (the bound adds the same terms, each at least as large)
    if (top.length >= keep && b < top[keep - 1] - 1e-6) break;
    const s = score(t);
    scores[i] = s;
    let k = top.length;
    while (k > 0 && top[k - 1] < s) k--;
    top.splice(k, 0, s);
    if (top.length > keep) top.pop();
  }
  // the choice argmax makes: the options not scored are below every near-best one
  return argmax(scores, (s) => s);
}

/** The items with their upper bounds, highest bound first (ties in the items' order). */
function inBoundOrder<T>(items: readonly T[], bound: (t: T) => number): { t: T; i: number; b: number }[] {
  return items.map((t, i) => ({ t, i, b: bound(t) })).sort((x, y) => y.b - x.b || x.i - y.i);
}

/**
 * The scores the heuristic gave each option of its last decision (a search agent reads them to prune). With
 * WEIGHTS.prune N a move's options below the best N may be -Infinity (not scored).
 */
export function lastOptionScores(): number[] {
  return lastScores.slice();
}

/** The top candidates and their scores, for the log ("what each agent decided and why"). */
function why(req: DecisionRequest): { candidates: { option: unknown; score: number }[] } | undefined {
  if (lastScores.length !== req.options.length || lastScores.length < 2) return undefined;
  const order = lastScores.map((s, i) => [s, i] as const).filter(([s]) => Number.isFinite(s)).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 3);
  return { candidates: order.map(([s, i]) => ({ option: req.options[i], score: Math.round(s * 10) / 10 })) };
}

/** What the agent remembers between decisions (reset when it no longer applies). */
interface Memory {
  /** expected wounds the current activation already aimed at each target (against overkill) */
  assigned: Map<string, number>;
  assignedFor: string;
  /** OC already heading to each marker this Movement phase (units that did not get there yet) */
  heading: Map<number, number>;
  /** counts the changes of `heading` (scores remembered with an older count are stale) */
  headingGen: number;
  headingKey: string;
  /** the charge being made: unit, targets and what it is worth (for re-rolls and Fate dice) */
  charge: { unit: string; target: string; value: number } | null;
  /** the last unit this agent moved or set up (the 'embark' request does not name it) */
  moved: string | null;
  /** what moving each unit gains, this Movement phase (the order units move in) */
  moveRank: { key: string; gains: Map<string, number> };
  /**
   * Sight between two discs, remembered for the phase: picking which unit moves next scores every
   * unit's moves again, and ~3 in 4 sight checks repeat one (keyed by both discs, so exact).
   */
  sight: SightMemory;
}

interface SightMemory {
  key: string;
  board: Board | null;
  /** hash of the two discs -> the last entry with that hash (entries: 10 numbers in keys, visible 0/1, next entry of the same hash or -1) */
  seen: Map<number, number>;
  keys: number[];
  visible: number[];
  next: number[];
}

interface Ctx {
  state: GameState;
  me: PlayerIndex;
  opp: PlayerIndex;
  w: Weights;
  mem: Memory;
  /** the battlefield's terrain (sight lines) */
  board: Board;
  /** the agent's own seeded stream (WEIGHTS.deployVariety); none: every decision is the best-scoring option */
  random: Pick<Stream, 'int'> | null;
}

// --- objectives ---------------------------------------------------------------------------------

/** Range within which a unit's centre puts (most of) its models in range of a marker. */
const ON_MARKER = 4.2;

interface ObjectiveView {
  snap: ObjectiveSnapshot;
  outlook: ScoringOutlook;
  /** markers each side holds now */
  held: [number, number];
}

function objectiveView(c: Ctx): ObjectiveView {
  const snap = objectiveSnapshot(c.state);
  return { snap, outlook: scoringOutlook(c.state, c.me), held: [heldCount(snap.level, 0), heldCount(snap.level, 1)] };
}

/** Value (for me) of a marker with these levels of control: mine if I hold it, minus theirs if they do. */
function controlValue(c: Ctx, ov: ObjectiveView, i: number, mine: number, theirs: number): number {
  const lv = ov.snap.level;
  const holdsNow = lv[c.me][i] > lv[c.opp][i];
  const theyHoldNow = lv[c.opp][i] > lv[c.me][i];
  if (mine > theirs) {
    const others = ov.held[c.me] - (holdsNow ? 1 : 0);
    return c.w.objective * ov.outlook.mine * (others < 3 ? 1 : c.w.redundant);
  }
  if (theirs > mine) {
    const others = ov.held[c.opp] - (theyHoldNow ? 1 : 0);
    return -c.w.objective * c.w.deny * ov.outlook.deny * (others < 3 ? 1 : 0.3);
  }
  return 0;
}

/** Fraction of a unit's OC in range of a marker when its centre is `d` from it. */
function onMarker(d: number, r: number): number {
  if (d <= ON_MARKER) return 1;
  if (d >= ON_MARKER + r) return 0;
  return 1 - (d - ON_MARKER) / r;
}

/** Gain in marker value of the unit standing at `end` rather than nowhere. */
function objectiveGain(c: Ctx, ov: ObjectiveView, uc: UnitCtx, end: Point, alsoMine?: number[]): number {
  if (uc.oc <= 0) return 0;
  let v = 0;
  const objs = c.state.objectives;
  for (let i = 0; i < objs.length; i++) {
    const f = onMarker(dist(end, objs[i].pos), uc.r);
    if (f <= 0) continue;
    v += markerGain(c, ov, uc, i, f * uc.oc, alsoMine?.[i] ?? 0);
  }
  return v;
}

/** What `oc` more of my OC on marker i is worth (`alsoMine`: OC a companion moving with the unit changes there). */
function markerGain(c: Ctx, ov: ObjectiveView, uc: UnitCtx, i: number, oc: number, alsoMine = 0): number {
  const lv = ov.snap.level;
  const mine = lv[c.me][i] - uc.contrib[i] + alsoMine;
  const theirs = lv[c.opp][i] + c.w.reachContest * ov.snap.reach[c.opp][i];
  return controlValue(c, ov, i, mine + oc, theirs) - controlValue(c, ov, i, mine, theirs);
}

// --- units and positions ------------------------------------------------------------------------

interface EnemyView {
  u: UnitState;
  x: number;
  y: number;
  r: number;
  ranged: WeaponPotential[];
  maxRange: number;
  melee: number;
  /** engaged with one of my units: my guns cannot pick it (unless it is this unit's own fight) */
  engaged: boolean;
  /** the unit as one disc where it stands (sight lines) */
  body: Body;
  /** the value of all my unit's guns against it, in range or not */
  rangedTotal: number;
}

interface UnitCtx {
  u: UnitState;
  from: Point;
  /** a Lone Operative wherever it stands; or, for one only within 3" of some friendly units, those units (else null) */
  lone: boolean;
  loneNear: UnitGeo[] | null;
  /** radius of the unit once moved */
  r: number;
  move: number;
  value: number;
  oc: number;
  contrib: number[];
  enemies: EnemyView[];
  /** the same, the most valuable targets for its guns first */
  byFire: EnemyView[];
  danger: DangerSource[];
  dangerCap: number;
  maxMelee: number;
  maxRanged: number;
  meleeOriented: boolean;
  shootAfterFallBack: boolean;
  chargeAfterAdvance: boolean;
  chargeAfterFallBack: boolean;
  mayCharge: boolean;
  /** expected Advance distance (expectedAdvance) */
  advance: number;
  /** reach of its longest gun, whether it is a VEHICLE and carries passengers (the gun-platform doctrine) */
  longestRange: number;
  vehicle: boolean;
  carrying: boolean;
}


function unitCtx(c: Ctx, u: UnitState, at?: Point): UnitCtx {
  if (at) return buildUnitCtx(c, u, at);
  return perVersion(c.state, `uc|${c.me}|${u.id}`, () => buildUnitCtx(c, u));
}

function buildUnitCtx(c: Ctx, u: UnitState, at?: Point): UnitCtx {
  const s = c.state;
  const g = unitGeo(s, u);
  const enemies: EnemyView[] = [];
  let maxMelee = 0, maxRanged = 0;
  for (const e of enemyUnits(s, c.me)) {
    const eg = unitGeo(s, e);
    const ranged = weaponPotentials(s, u, e, false);
    let mr = 0, tot = 0;
    for (const p of ranged) { if (p.value > 0 && p.range > mr) mr = p.range; tot += p.value; }
    const melee = unitAttackPotential(s, u, e, true);
    if (melee > maxMelee) maxMelee = melee;
    if (tot > maxRanged) maxRanged = tot;
    enemies.push({ u: e, x: eg.x, y: eg.y, r: eg.r, ranged, maxRange: mr, melee, engaged: isEngaged(s, e), body: unitDisc(s, e, eg, eg.r), rangedTotal: tot });
  }
  const value = unitValue(s, u);
  return {
    u, from: at ?? { x: g.x, y: g.y }, lone: u.abilities.includes('Lone Operative'), loneNear: loneOperativeEscorts(s, u),
    r: unitSpread(s, u), move: unitMove(s, u), value,
    oc: unitOC(s, u), contrib: objectiveSnapshot(s).contrib.get(u.id) ?? new Array(s.objectives.length).fill(0),
    enemies, byFire: [...enemies].sort((a, b) => b.rangedTotal - a.rangedTotal), danger: dangerSources(s, u), dangerCap: 1.25 * value, maxMelee, maxRanged,
    meleeOriented: maxMelee > 0.8 * maxRanged && maxMelee > 5,
    shootAfterFallBack: allows(s, u, 'shoot-after-fall-back'),
    chargeAfterAdvance: allows(s, u, 'charge-after-advance'),
    chargeAfterFallBack: allows(s, u, 'charge-after-fall-back'),
    mayCharge: !forbids(s, u, 'charge') && !hasKeyword(u, 'AIRCRAFT'),
    advance: expectedAdvance(s, u),
    longestRange: maxRange(s, u),
    vehicle: hasKeyword(u, 'VEHICLE'),
    carrying: passengersOf(s, u).length > 0,
  };
}

interface MoveFlags {
  advanced: boolean;
  fellBack: boolean;
  noCharge?: boolean;
  /**
   * An upper bound of the score instead of the score, without sight lines: every target counts as seen
   * (fireAt) and every enemy as not seeing the position (danger at WEIGHTS.hiddenDanger). A search for the
   * best score skips the options whose bound cannot beat the best found (bestMoveScore).
   */
  bound?: boolean;
}

/**
 * Best value of the unit's guns from a point this turn (one target: the best one in reach). A target
 * that terrain hides from there (no sight line between the unit and it, both seen as discs) counts
 * for WEIGHTS.blockedFire of its value.
 */
function fireAt(c: Ctx, uc: UnitCtx, end: Point, f: MoveFlags): number {
  if (f.fellBack && !uc.shootAfterFallBack) return 0;
  let best = 0;
  let from: Body | null = null;
  for (const e of uc.byFire) {
    // sorted by the most their guns could be worth: the rest cannot beat the best found
    if (e.rangedTotal <= best) break;
    // engaged with units of this army: out of bounds unless MONSTER or VEHICLE (Big Guns Never Tire; its
    // -1 to hit is not priced here, where the values are position-free potentials)
    if (e.engaged && !isMonsterOrVehicle(e.u)) continue;
    const gap = len(e.x - end.x, e.y - end.y) - e.r - uc.r;
    if (gap > e.maxRange) continue;
    let v = 0;
    for (const p of e.ranged) if (reachesAt(p, gap) && (!f.advanced || p.assault)) v += p.value;
    if (v <= best) continue;
    if (c.w.blockedFire < 1 && !f.bound) {
      from ??= unitDisc(c.state, uc.u, end, uc.r);
      if (!sees(c, from, e.body)) v *= c.w.blockedFire;
    }
    if (v > best) best = v;
  }
  return best;
}

/** Best expected value of a charge from a point this turn (odds times the melee value). */
function chargeAt(uc: UnitCtx, end: Point, f: MoveFlags): number {
  if (!uc.mayCharge || f.noCharge || uc.maxMelee <= 0) return 0;
  if (f.advanced && !uc.chargeAfterAdvance) return 0;
  if (f.fellBack && !uc.chargeAfterFallBack) return 0;
  let best = 0;
  for (const e of uc.enemies) {
    if (e.melee <= 0) continue;
    const gap = len(e.x - end.x, e.y - end.y) - e.r - uc.r;
    if (gap > 12.5) continue;
    const v = e.melee * p2d6AtLeast(Math.ceil(Math.max(0, gap - 1)));
    if (v > best) best = v;
  }
  return best;
}

function inTerrain(c: Ctx, p: Point): boolean {
  for (const t of c.state.board.terrain) if ((t.kind === 'ruin' || t.kind === 'area') && pointInPolygon(p, t.polygon)) return true;
  return false;
}

/** A Lone Operative can be shot only from this close. */
const LONE_OPERATIVE_RANGE = 12;

/** The friendly units near which the unit would be a Lone Operative (Rule.escortedBy); null: none. */
function loneOperativeEscorts(s: GameState, u: UnitState): UnitGeo[] | null {
  const escorts = escortUnits(s, u);
  return escorts.length === 0 ? null : escorts.map((f) => unitGeo(s, f));
}

/** Would the unit be a Lone Operative ending at `end`? */
function loneOperativeAt(uc: UnitCtx, end: Point): boolean {
  if (uc.lone) return true;
  if (uc.loneNear === null) return false;
  for (const f of uc.loneNear) if (len(f.x - end.x, f.y - end.y) - f.r - uc.r <= 3) return true;
  return false;
}

/** How good it is for the unit to end its move at `end` (this turn's shooting/charge, markers, danger, cover). */
function positionScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, end: Point, f: MoveFlags, alsoMine?: number[]): number {
  let v = objectiveGain(c, ov, uc, end, alsoMine);
  v += c.w.fire * fireAt(c, uc, end, f);
  if (uc.meleeOriented) v += c.w.charge * chargeAt(uc, end, f);
  const share = c.w.hiddenDanger >= 1 ? undefined : f.bound ? allHidden(c) : hiddenShare(c, uc, end);
  const d = dangerFrom(uc.danger, end, uc.r, share, c.w.loneOperative > 0 && loneOperativeAt(uc, end) ? LONE_OPERATIVE_RANGE : Infinity);
  v -= c.w.danger * (d > uc.dangerCap ? uc.dangerCap : d);
  if (c.w.cover > 0 && inTerrain(c, end)) v += c.w.cover * uc.value;
  return v;
}

/** WEIGHTS.hiddenDanger for an enemy unit that cannot see the unit at `end` from where it stands now, else 1. */
function hiddenShare(c: Ctx, uc: UnitCtx, end: Point): (e: DangerSource) => number {
  const at = unitDisc(c.state, uc.u, end, uc.r);
  return (e) => (sees(c, e.body, at) ? 1 : c.w.hiddenDanger);
}

/** WEIGHTS.hiddenDanger for every enemy unit (the least danger sight could leave: a bound). */
function allHidden(c: Ctx): () => number {
  const share = c.w.hiddenDanger;
  return () => share;
}

/** isVisible on the Ctx's board, through the phase's memory (Memory.sight). */
function sees(c: Ctx, from: Body, to: Body): boolean {
  const k = SIGHT_KEY;
  k[0] = from.pos.x; k[1] = from.pos.y; k[2] = from.pos.z; k[3] = discRadius(from); k[4] = from.height;
  k[5] = to.pos.x; k[6] = to.pos.y; k[7] = to.pos.z; k[8] = discRadius(to); k[9] = to.height;
  // a hash of the ten numbers' bits picks the chain; the numbers themselves are compared (exact)
  let h = 0;
  for (let i = 0; i < SIGHT_KEY_BITS.length; i++) h = Math.imul(h ^ SIGHT_KEY_BITS[i], 0x9e3779b1);
  const m = c.mem.sight;
  const head = m.seen.get(h);
  for (let e = head ?? -1; e >= 0; e = m.next[e]) {
    const at = e * 10;
    let same = true;
    for (let i = 0; i < 10 && same; i++) same = m.keys[at + i] === k[i];
    if (same) return m.visible[e] === 1;
  }
  const visible = isVisible(from, to, c.board);
  // entries in flat arrays chained by `next` (no object per entry: hundreds of thousands a game)
  const e = m.visible.length;
  for (let i = 0; i < 10; i++) m.keys.push(k[i]);
  m.visible.push(visible ? 1 : 0);
  m.next.push(head ?? -1);
  m.seen.set(h, e);
  return visible;
}

const SIGHT_KEY = new Float64Array(10);
const SIGHT_KEY_BITS = new Int32Array(SIGHT_KEY.buffer);

/** An empty sight memory for a phase on a board. */
function sightMemory(key: string, board: Board | null): SightMemory {
  return { key, board, seen: new Map(), keys: [], visible: [], next: [] };
}

function discRadius(b: Body): number {
  if (b.base.kind !== 'circle') throw new Error(`the heuristic's sight memory keys discs only, not a ${b.base.kind} base`);
  return b.base.r;
}

/** The point a move toward `to` with `reach` inches ends at (straight line), short of `stopShort`. */
function endPoint(from: Point, to: Point, reach: number, stopShort = 0): Point {
  const d = dist(from, to);
  const r = Math.max(0, Math.min(reach, d - stopShort));
  if (d <= 1e-9) return { x: from.x, y: from.y };
  return { x: from.x + ((to.x - from.x) * r) / d, y: from.y + ((to.y - from.y) * r) / d };
}

type MoveOption = { mode: string; to?: Point; toward?: string };

/**
 * Scores of move options already computed for a unit context (one state version and player): selecting the
 * unit to move scores its options, and the move decision that follows in the same version asks again. The
 * score also reads the weights and the markers other units head for, so a change of either starts afresh.
 */
const moveScores = new WeakMap<UnitCtx, { w: Weights; heading: number; scores: Map<string, number> }>();

/** Score of one move option for the unit. */
function moveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, o: MoveOption, advanceOverride?: number): number {
  if (c.w.prune <= 0) return computeMoveScore(c, ov, uc, o, advanceOverride);
  let memo = moveScores.get(uc);
  if (!memo || memo.w !== c.w || memo.heading !== c.mem.headingGen) moveScores.set(uc, (memo = { w: c.w, heading: c.mem.headingGen, scores: new Map() }));
  const key = `${o.mode}|${o.toward}|${o.to?.x}|${o.to?.y}|${advanceOverride}`;
  let v = memo.scores.get(key);
  if (v === undefined) memo.scores.set(key, (v = computeMoveScore(c, ov, uc, o, advanceOverride)));
  return v;
}

/**
 * The best score of the options, or `floor` when none beats it (for a unit, its gain from moving): the options in the order of an upper
 * bound of their score (no sight lines), each scored in full until no bound left can beat the best.
 * The same maximum as scoring every option, with far fewer sight lines.
 */
function bestMoveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, options: readonly MoveOption[], floor = -Infinity, advanceOverride?: number): number {
  let best = floor;
  for (const { t: o, b } of inBoundOrder(options, (x) => computeMoveScore(c, ov, uc, x, advanceOverride, true))) {
    // a margin for rounding: the bound adds the same terms in the same order, less the sight checks
    if (c.w.prune > 0 && b < best - 1e-6) break;
    const v = moveScore(c, ov, uc, o, advanceOverride);
    if (v > best) best = v;
  }
  return best;
}

/** `at`: where the move ends, when known better than the straight line (plannedChoice: the planner's end). */
function computeMoveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, o: MoveOption, advanceOverride?: number, bound = false, at?: Point): number {
  if (o.mode === 'stationary') return positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, bound });
  if (!o.to) return -1e6;
  const enemy = towardEnemy(uc, o);
  const end = at ?? moveEnd(uc, o, o.to, advanceOverride ?? uc.advance, enemy);
  const flags: MoveFlags = { advanced: o.mode === 'advance', fellBack: o.mode === 'fall-back', bound };
  let v = positionScore(c, ov, uc, end, flags);
  // heading for a marker it does not reach this turn: part of what holding it would be worth
  if (o.toward?.startsWith('objective ')) {
    const i = c.state.objectives.findIndex((x) => `objective ${x.id}` === o.toward);
    if (i >= 0 && uc.oc > 0) {
      const left = dist(end, c.state.objectives[i].pos);
      if (left > ON_MARKER) {
        const gain = Math.max(0, markerGain(c, ov, uc, i, uc.oc));
        const soon = left <= uc.move + ON_MARKER + 3.5 ? 1 : 0.5;
        const already = c.mem.heading.get(i) ?? 0;
        const crowd = already > 0 ? 0.4 : 1;
        v += c.w.progress * gain * soon * crowd;
      }
    }
  }
  // a melee unit heading for an enemy it cannot charge this turn: next turn's charge
  if (enemy && uc.meleeOriented) {
    const gap = len(enemy.x - end.x, enemy.y - end.y) - enemy.r - uc.r;
    if (gap > 12 && gap <= uc.move + 12) v += c.w.progress * 0.5 * enemy.melee;
  }
  if (o.mode === 'advance') v -= advanceCost(c, uc, end);
  return v;
}

/**
 * What an Advance to `end` costs in the move's score: 1 (a Normal move is preferred when they score the
 * same), and for a gun platform carrying no passengers the gun-platform doctrine: a veto (WEIGHTS.gunlineRange,
 * gunlineVehicles) where any enemy unit could charge it, or with WEIGHTS.chargeCost a price for the odds.
 */
function advanceCost(c: Ctx, uc: UnitCtx, end: Point): number {
  const platform = uc.longestRange >= c.w.gunlineRange || (c.w.gunlineVehicles > 0 && uc.vehicle);
  if (!platform || uc.carrying) return 1;
  let odds = 0;
  for (const e of uc.danger) if (e.melee > 0) odds = Math.max(odds, chargeOdds(e, end, uc.r));
  if (c.w.chargeCost > 0) return c.w.chargeCost * odds * uc.value + 1;
  return odds > 0 ? 1e4 : 1;
}

function decideMove(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as MoveOption[];
  if (u.location === 'embarked') return decideEmbarkedMove(c, u, options);
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const pass = passengerBonus(c, ov, u);
  // passengers may get out after a Normal move; after an Advance only when a rule allows it (SWIFT DEPLOYMENT)
  const outAfterAdvance = pass !== null && allows(s, u, 'disembark-after-advance');
  let i: number;
  let end: Point | null;
  if (pass) {
    const base = options.map((o) => moveScore(c, ov, uc, o));
    const out = options.map((o) => (o.mode !== 'fall-back' && (o.mode !== 'advance' || outAfterAdvance) ? pass(endOf(uc, o)) : 0));
    bestWithRoom(c, u, uc, options, base, out, new Map());
    i = argmax(options, (_, k) => base[k] + out[k]);
    ({ i, end } = plannedChoice(c, ov, uc, options, i, out));
  } else {
    i = c.w.prune <= 0
      ? argmax(options, (o) => moveScore(c, ov, uc, o))
      : argmaxBounded(options, (o) => moveScore(c, ov, uc, o), (o) => computeMoveScore(c, ov, uc, o, undefined, true), c.w.prune);
    ({ i, end } = plannedChoice(c, ov, uc, options, i));
  }
  noteHeading(c, uc, options[i], end);
  return i;
}

/** How many move options decideMove plans at most (a planner call each). */
const PLAN_CHECKS = 4;
/** How far (inches) the planner's end may lie from the straight-line end the option was scored at. */
const PLAN_GAP = 1;

/**
 * The scores place a move at a straight-line end, but the engine moves the unit where the planner takes it:
 * around terrain it may not cross (a vehicle or monster does not go through ruins), stopping where it can
 * (measured over the Normal moves toward markers of 6 heuristic games of the default scenario: vehicles
 * and monsters ended a median 1.25" from the straight-line end, nearly a quarter of them over 4"; other
 * units a median 0", one in ten over 1"). A Fall Back must also
 * end more than 1" from every enemy model: with no legal path the engine has the unit Remain Stationary
 * (executeMove). So the chosen option is planned as the engine will plan it (an Advance at the expected
 * roll): a Fall Back the unit cannot make is dropped (-Infinity), a move that ends more than PLAN_GAP from
 * where it was scored is scored again where it ends (a move with no legal path where it stands), and the
 * best is taken again, until it is an option already planned or one with nothing to plan; after PLAN_CHECKS
 * plans, the best of those. `extra`: a part of each option's score that stays (a transport's passengers).
 * The checked scores replace the others in lastScores (which explain the decision and give a search agent
 * its candidates; options never scored stay -Infinity there). Returns the option and where it ends, if planned.
 */
function plannedChoice(c: Ctx, ov: ObjectiveView, uc: UnitCtx, options: readonly MoveOption[], chosen: number, extra?: readonly number[]): { i: number; end: Point | null } {
  const first = plannedScore(c, ov, uc, options[chosen]);
  if (first === null || first.score === null) return { i: chosen, end: first?.end ?? null };
  const plus = (k: number) => extra?.[k] ?? 0;
  const scores = lastScores.length === options.length ? lastScores.slice() : new Array<number>(options.length).fill(-Infinity);
  // the options a pruned search left unscored stand at their upper bound (no sight lines) until one is the
  // best, then are scored in full: the same choice as scoring them all, for far fewer sight lines
  const scored = scores.map((v) => Number.isFinite(v));
  const value = scores.map((v, k) => (scored[k] ? v : computeMoveScore(c, ov, uc, options[k], undefined, true) + plus(k)));
  const planned = new Map<number, Point>([[chosen, first.end]]);
  value[chosen] = scores[chosen] = first.score + plus(chosen);
  const best = (ok: (k: number) => boolean) => {
    let i = -1;
    for (let k = 0; k < options.length; k++) if (ok(k) && (i < 0 || value[k] > value[i] + 1e-9)) i = k;
    return i;
  };
  let result: { i: number; end: Point | null };
  // after PLAN_CHECKS plans, only the options planned or with nothing to plan are taken
  let n = 1;
  for (;;) {
    const i = best((k) => n < PLAN_CHECKS || planned.has(k) || !toPlan(options[k]));
    if (!scored[i]) {
      value[i] = scores[i] = moveScore(c, ov, uc, options[i]) + plus(i);
      scored[i] = true;
      continue;
    }
    if (planned.has(i) || !toPlan(options[i])) { result = { i, end: planned.get(i) ?? null }; break; }
    const p = plannedScore(c, ov, uc, options[i]);
    n++;
    if (p === null || p.score === null) { result = { i, end: p?.end ?? null }; break; }
    value[i] = scores[i] = p.score + plus(i);
    planned.set(i, p.end);
  }
  // the explanation (the best WEIGHTS.prune scores) as with every option scored: an option left unscored
  // whose bound could be among them is scored
  for (;;) {
    const kth = scores.filter((v) => Number.isFinite(v)).sort((a, b) => b - a)[c.w.prune - 1] ?? -Infinity;
    const k = best((x) => !scored[x]);
    if (k < 0 || value[k] < kth - 1e-6) break;
    scores[k] = moveScore(c, ov, uc, options[k]) + plus(k);
    scored[k] = true;
  }
  lastScores = scores;
  return result;
}

/** A move with a place to go (Remain Stationary has nothing to plan). */
function toPlan(o: MoveOption): o is MoveOption & { mode: 'normal' | 'advance' | 'fall-back'; to: Point } {
  return !!o.to && (o.mode === 'normal' || o.mode === 'advance' || o.mode === 'fall-back');
}

/**
 * The option planned as executeMove plans it: where the unit ends (its models' centre), and its score
 * there, or null where that is within PLAN_GAP of where it was scored; -Infinity for a Fall Back the
 * unit cannot make. Null for an option with nothing to plan.
 */
function plannedScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, o: MoveOption): { end: Point; score: number | null } | null {
  if (!toPlan(o)) return null;
  const plan = planMove(c.state, uc.u, o.mode, o.to, moveReach(uc, o, uc.advance));
  if (!plan.ok) {
    if (o.mode === 'fall-back') return { end: uc.from, score: -Infinity };
    return { end: uc.from, score: computeMoveScore(c, ov, uc, o, undefined, false, uc.from) };
  }
  const end = centroidOf(plan.positions);
  if (dist(end, endOf(uc, o)) <= PLAN_GAP) return { end, score: null };
  return { end, score: computeMoveScore(c, ov, uc, o, undefined, false, end) };
}

/** How many of a loaded transport's best options bestWithRoom checks for room at most (a planner call each). */
const ROOM_CHECKS = 4;

/**
 * The best option of a loaded transport by `base` plus its passengers' part `out`, where the passengers'
 * part counts only if they would have room to get out where the transport ends (wholly within 3" of it and
 * out of Engagement Range: a transport driven up to an enemy unit can leave none). Room costs a planner
 * call, so it is checked for the best options only, best first, until the best has room or its passengers
 * add nothing; an option found without room is scored without them (`out` is changed). Room is judged where
 * the planner would take the transport (transportMove), not at the straight-line end the scores use. `room`
 * remembers the checks by move (SWIFT DEPLOYMENT prices two sets of the same options).
 */
function bestWithRoom(c: Ctx, t: UnitState, uc: UnitCtx, options: readonly MoveOption[], base: readonly number[], out: number[], room: Map<string, boolean>): number {
  const total = (k: number) => base[k] + out[k];
  // (not argmax: the SWIFT DEPLOYMENT pricing calls this inside the stratagem decision's own scoring)
  const bestIndex = () => {
    let best = 0;
    for (let k = 1; k < options.length; k++) if (total(k) > total(best) + 1e-9) best = k;
    return best;
  };
  for (let n = 0; n < ROOM_CHECKS; n++) {
    const best = bestIndex();
    if (out[best] <= 0) break;
    const move = transportMove(uc, options[best]);
    const key = move ? `${move.mode}|${move.destination.x}|${move.destination.y}|${move.maxDistance}` : 'stays';
    let ok = room.get(key);
    if (ok === undefined) {
      ok = passengersOf(c.state, t).some((p) => roomToDisembarkAfterMove(c.state, p, move));
      room.set(key, ok);
    }
    if (ok) break;
    out[best] = 0;
  }
  return bestIndex();
}

/**
 * The move option as the engine will plan it, for the room check (null: the unit stays): the planner finds
 * the path around terrain and where it stops, which a straight line toward the destination does not. An
 * Advance is planned at the expected roll: another roll can still end where there is no room.
 */
function transportMove(uc: UnitCtx, o: MoveOption): TransportMove | null {
  if (!o.to || (o.mode !== 'normal' && o.mode !== 'advance')) return null;
  return { mode: o.mode, destination: o.to, maxDistance: moveReach(uc, o, uc.advance) };
}

/** Where the unit ends the move option (straight line), as the move's score places it. */
function endOf(uc: UnitCtx, o: MoveOption): Point {
  if (!o.to || o.mode === 'stationary') return uc.from;
  return moveEnd(uc, o, o.to, uc.advance, towardEnemy(uc, o));
}

/** The enemy unit a move option heads for, if any. */
function towardEnemy(uc: UnitCtx, o: MoveOption): EnemyView | undefined {
  if (!o.toward?.startsWith('enemy ')) return undefined;
  const id = o.toward.slice(6);
  return uc.enemies.find((e) => e.u.id === id);
}

/**
 * The end of a move toward `to` (straight line, the move's length, an Advance adding `advance`): a move
 * toward an enemy unit stops just outside Engagement Range of it, as the planner stops it.
 */
function moveEnd(uc: UnitCtx, o: MoveOption, to: Point, advance: number, enemy: EnemyView | undefined): Point {
  const stop = o.toward?.startsWith('enemy ') ? (enemy ? enemy.r + uc.r + 1.2 : 2) : 0;
  return endPoint(uc.from, to, moveReach(uc, o, advance), stop);
}

/** How far the move option takes the unit: its Move, and `advance` more for an Advance. */
function moveReach(uc: UnitCtx, o: MoveOption, advance: number): number {
  return o.mode === 'advance' ? uc.move + advance : uc.move;
}

/** Remember the OC heading to a marker it will not reach this turn (others then pick other markers). */
function noteHeading(c: Ctx, uc: UnitCtx, o: MoveOption, at: Point | null = null): void {
  if (!o?.toward?.startsWith('objective ') || !o.to || uc.oc <= 0) return;
  const i = c.state.objectives.findIndex((x) => `objective ${x.id}` === o.toward);
  if (i < 0) return;
  const end = at ?? endOf(uc, o);
  if (dist(end, c.state.objectives[i].pos) > ON_MARKER) { c.mem.heading.set(i, (c.mem.heading.get(i) ?? 0) + uc.oc); c.mem.headingGen++; }
}

/** Units embarked within a transport (which could get out after it moves). */
function passengersOf(s: GameState, t: UnitState): UnitState[] {
  const out: UnitState[] = [];
  for (const id of s.unitOrder) {
    const x = s.units[id];
    if (x.location === 'embarked' && x.embarkedIn === t.id && x.models.some((m) => m.alive) && x.flags.moved === null) out.push(x);
  }
  return out;
}

/**
 * For a transport: what its passengers would gain by getting out where it ends. The transport's own OC
 * moves there too: a marker it takes is not theirs to take again.
 */
function passengerBonus(c: Ctx, ov: ObjectiveView, t: UnitState): ((end: Point) => number) | null {
  const ps = passengersOf(c.state, t);
  if (ps.length === 0) return null;
  const ctxs = ps.map((p) => unitCtx(c, p, unitGeo(c.state, t)));
  const tc = unitCtx(c, t);
  const objs = c.state.objectives;
  return (end: Point) => {
    const transportOc = objs.map((o, i) => onMarker(dist(end, o.pos), tc.r) * tc.oc - tc.contrib[i]);
    let v = 0;
    for (const pc of ctxs) v += Math.max(0, positionScore(c, ov, pc, end, { advanced: false, fellBack: false, noCharge: true }, transportOc));
    return 0.8 * v;
  };
}

/**
 * SWIFT DEPLOYMENT: the transport may Advance and still let its passengers out (as after a Normal move).
 * Worth what its best move scores with that over without it, scored as decideMove scores the moves the
 * engine will offer it (moveOptions), so that the stratagem is bought only when the move it pays for is
 * the one the heuristic will then make.
 */
function swiftDeploymentGain(c: Ctx, t: UnitState): number {
  const s = c.state;
  if (t.location !== 'battlefield' || isEngaged(s, t)) return 0;
  const ov = objectiveView(c);
  const pass = passengerBonus(c, ov, t);
  if (!pass) return 0;
  const uc = unitCtx(c, t);
  const options = moveOptions(s, t) as MoveOption[];
  const base = options.map((o) => moveScore(c, ov, uc, o));
  const out = options.map((o) => pass(endOf(uc, o)));
  const outWithout = options.map((o, k) => (o.mode === 'advance' ? 0 : out[k]));
  const room = new Map<string, boolean>();
  const without = bestWithRoom(c, t, uc, options, base, outWithout, room);
  const withIt = bestWithRoom(c, t, uc, options, base, out, room);
  return base[withIt] + out[withIt] - (base[without] + outWithout[without]);
}

/** An embarked unit: get out (now, or after its transport moved) or stay in. */
function decideEmbarkedMove(c: Ctx, u: UnitState, options: MoveOption[]): number {
  const s = c.state;
  const t = u.embarkedIn ? s.units[u.embarkedIn] : null;
  const di = options.findIndex((o) => o.mode === 'disembark');
  const si = options.findIndex((o) => o.mode === 'stay-embarked');
  if (!t || di < 0) return Math.max(0, si);
  const ov = objectiveView(c);
  const at = unitGeo(s, t);
  const uc = unitCtx(c, u, at);
  let out: number;
  if (t.flags.moved === null) {
    // getting out first: then it moves as usual (and may charge)
    const reach = uc.move + 3;
    let best = positionScore(c, ov, uc, at, { advanced: false, fellBack: false });
    for (const e of uc.enemies) best = Math.max(best, positionScore(c, ov, uc, endPoint(at, e, reach, e.r + uc.r + 1.2), { advanced: false, fellBack: false }));
    for (const o of s.objectives) best = Math.max(best, positionScore(c, ov, uc, endPoint(at, o.pos, reach), { advanced: false, fellBack: false }));
    out = uc.meleeOriented ? best : best - 15;
  } else {
    out = positionScore(c, ov, uc, at, { advanced: false, fellBack: false, noCharge: true });
  }
  lastScores = options.map((o) => (o.mode === 'disembark' ? out : 0));
  return out > 0 ? di : Math.max(0, si);
}

// --- selecting units ----------------------------------------------------------------------------

function decideSelectMove(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  const ov = objectiveView(c);
  // what moving each unit gains over standing still: all units at the first selection of the phase,
  // then only the few best so far again (the others' gains change little as their friends move)
  const key = `${s.round}:${s.turn}`;
  if (c.mem.moveRank.key !== key) c.mem.moveRank = { key, gains: new Map() };
  const gains = c.mem.moveRank.gains;
  const gainOf = (u: UnitState): number => {
    const uc = unitCtx(c, u);
    const here = moveScore(c, ov, uc, { mode: 'stationary' });
    return bestMoveScore(c, ov, uc, moveOptionsFor(c, u), here) - here;
  };
  const plain: UnitState[] = [];
  for (const o of options) {
    if ('done' in o) continue;
    const u = s.units[o.unit];
    if (u.location === 'embarked' || passengersOf(s, u).length > 0) continue;
    plain.push(u);
    if (!gains.has(u.id)) gains.set(u.id, gainOf(u));
  }
  plain.sort((a, b) => gains.get(b.id)! - gains.get(a.id)!);
  for (const u of plain.slice(0, 3)) gains.set(u.id, gainOf(u));
  // Embarked units with no room to get out are worth nothing now: picking one would be a decision without
  // effect (the engine checks the room and asks again), made again after every other unit's move. Room is
  // checked only for the unit that would be picked (the planner's cost), then the next best is taken.
  const noRoom = new Set<string>();
  for (;;) {
    const i = argmax(options, (o) => selectMoveScore(c, o, gains, noRoom));
    const o = options[i];
    if ('unit' in o && !noRoom.has(o.unit) && s.units[o.unit].location === 'embarked' && !disembarkPlan(s, s.units[o.unit])) {
      noRoom.add(o.unit);
      continue;
    }
    // with no unit offered, "done" (option 0) is the only option
    return i;
  }
}

/** How much the heuristic wants to move a unit next (done and units without room to get out: 0). */
function selectMoveScore(c: Ctx, o: { done: true } | { unit: string }, gains: ReadonlyMap<string, number>, noRoom: ReadonlySet<string>): number {
  const s = c.state;
  if ('done' in o || noRoom.has(o.unit)) return 0;
  const u = s.units[o.unit];
  if (u.location === 'embarked') {
    const t = u.embarkedIn ? s.units[u.embarkedIn] : null;
    if (t && t.flags.moved === null) {
      // melee passengers get out before their transport moves; the others wait for it
      const uc = unitCtx(c, u, unitGeo(s, t));
      return uc.meleeOriented ? 1000 : 0.001;
    }
    return 500;
  }
  if (passengersOf(s, u).length > 0) return 800;
  return 1 + (gains.get(u.id) ?? 0);
}

/** The move options the engine will offer (mirrors moveOptions in the movement rules). */
function moveOptionsFor(c: Ctx, u: UnitState): MoveOption[] {
  const s = c.state;
  const dests: { to: Point; toward: string }[] = [];
  for (const o of s.objectives) dests.push({ to: o.pos, toward: `objective ${o.id}` });
  for (const e of enemyUnits(s, c.me)) dests.push({ to: unitGeo(s, e), toward: `enemy ${e.id}` });
  if (isEngaged(s, u)) return dests.map((d) => ({ mode: 'fall-back', ...d }));
  return [...dests.map((d) => ({ mode: 'normal', ...d })), ...dests.map((d) => ({ mode: 'advance', ...d }))];
}

function decideSelectShoot(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  return argmax(options, (o) => ('done' in o ? -1 : 1 + bestVolley(c, s.units[o.unit])));
}

function decideSelectFight(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { unit: string }[];
  if (options.length === 1) return 0;
  return argmax(options, (o) => {
    const u = s.units[o.unit];
    let best = 0;
    let danger = 0;
    for (const e of engagedEnemies(s, u)) {
      best = Math.max(best, unitAttackPotentialInRange(c, u, e, true));
      danger = Math.max(danger, unitAttackPotential(s, e, u, true));
    }
    // the unit that would lose most by waiting (it may die before it fights) and hits hardest goes first
    return best + 0.5 * Math.min(danger, unitValue(s, u));
  });
}

function unitAttackPotentialInRange(c: Ctx, u: UnitState, e: UnitState, melee: boolean): number {
  let v = 0;
  for (const use of weaponUses(c.state, u, melee)) v += weaponEstimate(c.state, u, use, e, { inRangeOnly: !melee }).value;
  return v;
}

// --- shooting and fighting ----------------------------------------------------------------------

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

function decideShootTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { weapon: string; profile: number; target: string; models: number }[];
  const uses = new Map(weaponUses(s, u, false).map((w) => [w.weapon.name, w]));
  const i = argmax(options, (o) => {
    const est = estimateOption(c, u, uses.get(o.weapon), o);
    return est === null ? 0 : attackScore(c, s.units[o.target], est);
  });
  const o = options[i];
  const est = estimateOption(c, u, uses.get(o.weapon), o) ?? 0;
  c.mem.assigned.set(o.target, (c.mem.assigned.get(o.target) ?? 0) + est);
  return i;
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

function decideFightTarget(c: Ctx, req: DecisionRequest): number {
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
function decideFiringDeck(c: Ctx, req: DecisionRequest): number {
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
function decidePistols(c: Ctx, req: DecisionRequest): number {
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
function bestVolley(c: Ctx, u: UnitState, tweak?: PlanTweak, only?: (t: UnitState) => boolean): number {
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
function shootable(c: Ctx, u: UnitState): UnitState[] {
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
function oneRerollGain(c: Ctx, u: UnitState): number {
  const plain = volleyByWeapon(c, u);
  const helped = volleyByWeapon(c, u, (p) => grantRerollOne(p, { hit: 1, wound: 1, damage: 1 }));
  let best = 0;
  for (let i = 0; i < plain.length; i++) best = Math.max(best, helped[i] - plain[i]);
  return best;
}

/** Expected value of the unit's attacks on one target (ranged: weapons in range; melee: all). */
function attackOn(c: Ctx, u: UnitState, t: UnitState, melee: boolean, tweak?: PlanTweak): number {
  let v = 0;
  for (const use of weaponUses(c.state, u, melee)) v += weaponEstimate(c.state, u, use, t, { inRangeOnly: !melee, tweak }).value;
  return v;
}

function decideGuidance(c: Ctx, req: DecisionRequest): number {
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

// --- charges ------------------------------------------------------------------------------------

/** What a charge by `u` at `e` is worth if it succeeds: the fight, the marker, being shielded from guns. */
function chargePrize(c: Ctx, u: UnitState, e: UnitState): number {
  const s = c.state;
  let v = unitAttackPotential(s, u, e, true);
  // contesting or taking the marker the target stands on
  const row = objectiveSnapshot(s).contrib.get(e.id);
  if (row && row.some((x) => x > 0)) v += 0.3 * c.w.objective;
  // it fights back (unless it dies), and the unit is locked in combat
  const back = unitAttackPotential(s, e, u, true);
  const kill = Math.min(1, unitAttackPotential(s, u, e, true) / Math.max(1, unitValue(s, e) * 1.25));
  v -= 0.5 * back * (1 - kill);
  if (!isMonsterOrVehicle(u) && !allows(s, u, 'shoot-after-fall-back')) v -= c.w.lockedShooting * bestPotential(c, u);
  return v;
}

function bestPotential(c: Ctx, u: UnitState): number {
  let best = 0;
  for (const e of enemyUnits(c.state, c.me)) best = Math.max(best, unitAttackPotential(c.state, u, e, false));
  return best;
}

/**
 * The 2D6 a charge of `u` at `e` needs: the gap less 1" and the roll's modifiers; when a rule halves the unit's
 * Charge rolls (TANGLEBOMB BOLAS: rounded up, before modifiers), the 2D6 that still reach it after halving.
 */
function chargeNeed(c: Ctx, u: UnitState, e: UnitState): number {
  const need = Math.ceil(Math.max(0, unitDistance(c.state, u, e) - 1 - chargeRollModifier(c.state, u, [e])));
  return need > 0 && rollsHalved(c.state, u, 'charge') ? 2 * need - 1 : need;
}

function chargeScore(c: Ctx, u: UnitState, e: UnitState): number {
  const p = p2d6AtLeast(chargeNeed(c, u, e));
  return p * chargePrize(c, u, e);
}

function decideChargeUnit(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  return argmax(options, (o) => {
    if ('done' in o) return 0;
    const u = s.units[o.unit];
    let best = -Infinity;
    for (const e of enemyUnits(s, c.me)) {
      if (unitDistance(s, u, e) > 12) continue;
      best = Math.max(best, chargeScore(c, u, e));
    }
    return best - c.w.chargeThreshold * unitValue(s, u);
  });
}

function decideChargeTargets(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { targets: string[] }[];
  // one target: a charge is priced by the odds of reaching its target times the melee value there, and a
  // second target only lowers those odds (the farther one must be reached too); what locking a second
  // unit in combat is worth is not priced, so sets of several are never declared
  const i = argmax(options, (o) => (o.targets.length === 1 ? chargeScore(c, u, s.units[o.targets[0]]) : -Infinity));
  const t = s.units[options[i].targets[0]];
  c.mem.charge = { unit: u.id, target: t.id, value: Math.max(10, chargePrize(c, u, t)) };
  return i;
}

/** PRECISION: the CHARACTER already hurt (or already taking attacks this phase) first, to finish it; else the first offered. */
function decidePrecisionTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const target = s.units[String(req.context?.target)];
  const options = req.options as { model: string }[];
  const hurt = options.findIndex((o) => {
    const m = target?.models.find((x) => x.id === o.model);
    return !!m && mustTake(s, m);
  });
  return Math.max(0, hurt);
}

// --- stratagems ---------------------------------------------------------------------------------

interface StratOption { stratagem: string; source?: string; unit?: string; cp?: number; reroll?: number; value?: number | null; pass?: true; discount?: string }
interface WindowCtx { name: string; unit: string | null; targets: string[]; data?: Record<string, unknown> }

const GO_TO_GROUND: PlanTweak = (p) => { if (!p.melee && !p.ignoresCover) p.cover = true; p.invulnerable = p.invulnerable === null ? 6 : Math.min(p.invulnerable, 6); };
const SMOKESCREEN: PlanTweak = (p) => { if (!p.melee && !p.ignoresCover) p.cover = true; p.hitModifier -= 1; };
const MINUS_ONE_TO_HIT: PlanTweak = (p) => { p.hitModifier -= 1; };
const MINUS_ONE_DAMAGE: PlanTweak = (p) => { p.damageReduction += 1; };
const OVERWATCH: PlanTweak = (p) => { p.skill = 7; p.criticalHitOn = 6; };

const DAMPENERS: PlanTweak = (p) => { if (p.strength > p.toughness) p.woundModifier -= 1; };

/** THREAT ASSESSMENT ANALYSER's choices (in the stratagem's order) as plan tweaks, and whether each is HAZARDOUS. */
const THREAT_ASSESSMENT_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = [
  { tweak: (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); }, hazardous: false },
  { tweak: (p) => { p.lethalHits = true; }, hazardous: false },
  { tweak: (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); p.lethalHits = true; }, hazardous: true },
];
/** EXPERIMENTAL AMMUNITION's choices likewise. */
const EXPERIMENTAL_AMMUNITION_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = [
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
function bestChoice(c: Ctx, u: UnitState, choices: { tweak: PlanTweak; hazardous: boolean }[]): { gain: number; index: number } {
  let best = { gain: 0, index: 0 };
  choices.forEach((x, i) => {
    const g = volleyGain(c, u, x.tweak) - (x.hazardous ? hazardCost(c, u) : 0);
    if (g > best.gain) best = { gain: g, index: i };
  });
  return best;
}

/** Damage the enemy unit in the window is about to deal to `u`, and with a defensive effect. */
function incomingSaved(c: Ctx, win: WindowCtx, u: UnitState, tweak: PlanTweak): number {
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
function fightOnDeathGain(c: Ctx, win: WindowCtx, u: UnitState): number {
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

const MINUS_ONE_TO_WOUND: PlanTweak = (p) => { p.woundModifier -= 1; };

/**
 * COST OF VICTORY, WITHDRAW AND REINFORCE: the unit leaves for Strategic Reserves (strategicReservesGain) with
 * its destroyed models `back` (Guardians; all but CHARACTERS); never when it could not arrive again (it would
 * count as destroyed).
 */
function costOfVictoryGain(c: Ctx, u: UnitState, returned: readonly ModelState[]): number {
  const s = c.state;
  const next = s.firstPlayer === c.me ? s.round + 1 : s.round;
  if (next < 2 || next > s.mission.rounds) return 0;
  let back = 0;
  for (const m of returned) back += characteristic(s, u, m, 'W');
  return Math.max(0, strategicReservesGain(c, u) + back * pointsPerWound(s, u));
}

/** THE ARRO'KON PROTOCOL: SUSTAINED HITS 1 against a unit of 6+ models, 2 against 11+. */
const ARROKON: PlanTweak = (p, info) => {
  let n = 0;
  for (const m of info.target.models) if (m.alive) n++;
  if (n >= 6) p.sustainedHits = Math.max(p.sustainedHits, n >= 11 ? 2 : 1);
};
/** STIMM INJECTORS: Feel No Pain 6+. */
const STIMMS: PlanTweak = (p) => { p.feelNoPain = p.feelNoPain === null ? 6 : Math.min(p.feelNoPain, 6); };
/** YRIEL'S EXAMPLE: Feel No Pain 5+. */
const FNP_5: PlanTweak = (p) => { p.feelNoPain = p.feelNoPain === null ? 5 : Math.min(p.feelNoPain, 5); };
/** PRETERNATURAL PRECISION's choices (Aspect Host), in the stratagem's order. */
const PRETERNATURAL_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = PRETERNATURAL_PRECISION_CHOICES.map((ch) => ({ tweak: (p) => preternaturalPlan(p, ch), hazardous: false }));
/** Path of the Warrior's choices (Aspect Host), in the rule's order. */
const PATH_OF_THE_WARRIOR_TWEAKS: PlanTweak[] = PATH_OF_THE_WARRIOR_CHOICES.map((ch) => (p) => pathOfTheWarriorPlan(p, ch));
/** WARRIOR FOCUS: the Hit roll penalties are ignored (the net modifier no worse than none: a bonus cancelled by a penalty is not counted back). */
/** SEER'S EYE: the target's Damage reductions gone (the estimate cannot tell the AP's modifiers from the profile's). */
const SEERS_EYE: PlanTweak = (p) => { p.damageReduction = 0; p.halveDamage = false; };
const IGNORE_HIT_PENALTIES: PlanTweak = (p) => { if (p.hitModifier < 0) p.hitModifier = 0; };
/** DOOM INESCAPABLE: the Wailing Doom's ranged attacks at Damage 8. */
const DOOM_DAMAGE: PlanTweak = (p) => { if (!p.melee && p.weapon === 'The Wailing Doom') p.damage = { n: 0, sides: 0, plus: 8 }; };

/** Prototype Weapon System's choices, in the Enhancement's order (the whole unit's volley stands for the bearer's). */
const PROTOTYPE_WEAPON_TWEAKS: { tweak: PlanTweak; hazardous: boolean }[] = [
  { tweak: (p) => { p.lethalHits = true; }, hazardous: false },
  { tweak: (p) => { p.sustainedHits = Math.max(p.sustainedHits, 1); }, hazardous: false },
];

/**
 * What mean mortal wounds `mw` on each unit within `inches` of the destroyed model are worth: the enemy's
 * wounds lost (up to what each unit has left) less mine.
 */
function blastValue(c: Ctx, m: ModelState, mw: number, inches: number): number {
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
function deadlyDemiseMean(s: GameState, m: ModelState): number | null {
  const dd = s.datasheets[m.datasheet].coreAbilities.find((a) => a.name === 'Deadly Demise');
  if (!dd) return null;
  return dd.dice ? dd.dice.plus + (dd.dice.n * (dd.dice.sides + 1)) / 2 : dd.x ?? 0;
}

/**
 * FAIL-SAFE DETONATOR on the destroyed model: with Deadly Demise, its blast for sure (or none) against the 1
 * in 6 it had; without, a 4+ on each unit within 6" for D3 mortal wounds.
 */
function failSafeGain(c: Ctx, u: UnitState, model: string): number {
  const m = u.models.find((x) => x.id === model);
  if (!m) return 0;
  const dd = deadlyDemiseMean(c.state, m);
  if (dd === null) return Math.max(0, 0.5 * blastValue(c, m, 2, FAIL_SAFE_RANGE));
  const blast = blastValue(c, m, dd, 6);
  return blast > 0 ? (5 / 6) * blast : (1 / 6) * -blast;
}

/** FIRING LINE's attacks: a hit only on an unmodified 5+ (as the plan builder applies it). */
const FIRING_LINE: PlanTweak = (p) => { p.unmodifiedHitOn = 5; foldUnmodifiedHit(p); };

/** -2 to a Charge roll: a charge needing `need` on 2D6 then needs need + 2. */
const MINUS_TWO_TO_CHARGE = (need: number) => need + 2;

/**
 * A worse Charge roll for `e` charging `u` (`harder`: the 2D6 a charge needing `need` then needs; -2 unless
 * said): the odds of the charge it takes away times the melee it would bring.
 */
function chargeFoiled(c: Ctx, e: UnitState, u: UnitState, harder: (need: number) => number = MINUS_TWO_TO_CHARGE): number {
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
function impedingFireGain(c: Ctx, e: UnitState): number {
  return bestChargeFoiled(c, e, MINUS_TWO_TO_CHARGE);
}

/** NO PREY TOO BIG: +1 to wound when the attack's Strength is below the highest Toughness in the target unit. */
function noPreyTooBig(s: GameState): PlanTweak {
  return (p, info) => {
    let t = 0;
    for (const m of info.target.models) if (m.alive) t = Math.max(t, characteristic(s, info.target, m, 'T'));
    if (p.strength < t) p.woundModifier += 1;
  };
}

/** What my army's ranged attacks can do to the enemy unit: units within 30" in full, the others a fifth. */
function armyCanHurt(c: Ctx, e: UnitState): number {
  const s = c.state;
  let v = 0;
  for (const m of ownUnits(s, c.me)) v += unitAttackPotential(s, m, e, false) * (unitDistance(s, m, e) <= 30 ? 1 : 0.2);
  return v;
}

function volleyGain(c: Ctx, u: UnitState, tweak: PlanTweak): number {
  return Math.max(0, bestVolley(c, u, tweak) - bestVolley(c, u));
}

/**
 * What failing a Battle-shock test would cost the unit's side: the chance it fails (its test's own modifiers
 * and `modifier`) times its hold on objective markers (the share of its OC the Battle-shock takes) and a
 * tenth of its value.
 */
function battleShockCost(c: Ctx, u: UnitState, modifier: number): number {
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
export function battleShockOcShare(s: GameState, u: UnitState): number {
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
function grislyFeastGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  let v = 0;
  for (const e of enemyUnits(s, c.me)) {
    if (e.battleShocked || unitDistance(s, u, e) > 6) continue;
    v += belowHalfStrength(s, e) ? battleShockCost(c, e, -1) - battleShockCost(c, e, 0) : battleShockCost(c, e, 0);
  }
  return v;
}

/** JOIN THE HUNT: the destroyed Kroot unit back at full strength in Strategic Reserves, if it can still arrive: half its points. */
function joinTheHuntGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  const next = s.firstPlayer === c.me ? s.round + 1 : s.round;
  if (next < 2 || next > s.mission.rounds) return 0;
  return 0.5 * u.points * (next >= s.mission.rounds ? 0.5 : 1);
}

/** A TRAP WELL LAID: +1 AP for the army's other KROOT units shooting after this one at the enemy it picks: a share of what this unit gains from it, for each (up to two). */
function trapWellLaidGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  if (s.phase !== 'shooting') return 0;
  let after = 0;
  for (const o of ownUnits(s, c.me)) if (o.id !== u.id && onBattlefield(o) && o.keywords.includes('KROOT') && !o.flags.shot) after++;
  return 0.25 * Math.min(2, after) * volleyGain(c, u, (p) => { p.ap -= 1; });
}

const WORSE_SKILL: PlanTweak = (p) => { p.skill += 1; };
const INVULNERABLE_4: PlanTweak = (p) => { p.invulnerable = p.invulnerable === null ? 4 : Math.min(p.invulnerable, 4); };

/**
 * A change to the unit's attacks for the phase (MULTISENSORY SCANNING, EXPERIMENTAL MODIFICATIONS): its
 * volley in a Shooting phase; in a Fight phase its melee at the enemy unit it is fighting that it gains most on.
 */
function phaseAttackGain(c: Ctx, u: UnitState, tweak: PlanTweak): number {
  if (c.state.phase !== 'fight') return volleyGain(c, u, tweak);
  let best = 0;
  for (const e of engagedEnemies(c.state, u)) best = Math.max(best, attackOn(c, u, e, true, tweak) - attackOn(c, u, e, true));
  return best;
}

/**
 * SERPENT STRIKE: a Consolidation of D3+3" rather than 3" may reach an enemy unit 4-7" away that 3" would not:
 * the odds the roll reaches it (within Engagement Range) times half the unit's melee on it, for the best one.
 */
function serpentStrikeGain(c: Ctx, u: UnitState): number {
  // it ends within 1" when 3 + D3 >= d - 1: a D3 of ceil(d - 4) or more
  return longConsolidationGain(c, u, (d) => (4 - Math.ceil(d - 4)) / 3);
}

/**
 * SWEEPING AMBUSH: Pile-in and Consolidation moves of 6" rather than 3": a Consolidation that reaches an enemy
 * unit 4-7" away (within Engagement Range after the move) that 3" would not, half the unit's melee on the best one.
 */
function sweepingAmbushGain(c: Ctx, u: UnitState): number {
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
function tanglebombGain(c: Ctx, e: UnitState): number {
  const s = c.state;
  // already slowed: nothing more to take (and chargeNeed counts the halving already)
  if (!onBattlefield(e) || isEngaged(s, e) || rollsHalved(s, e, 'charge')) return 0;
  return (5 / 6) * bestChargeFoiled(c, e, (need) => 2 * need - 1);
}

/**
 * BRUTE FORCE: a D6 for each enemy unit within 3" beyond the hatchway that sees it: one mortal wound on 2-4, two
 * on 5+ (7/6 on average), each at its points per wound.
 */
function bruteForceGain(c: Ctx, u: UnitState, hatchway: unknown): number {
  const s = c.state;
  let v = 0;
  for (const e of bruteForceVictims(s, hatchway, u)) v += Math.min(7 / 6, unitWounds(s, e).now) * pointsPerWound(s, e);
  return v;
}

/**
 * D-STRIKE's stun (-1 to the Hit rolls of the enemy units within 3" beyond the hatchway, for their next turn): a
 * sixth of what each could deal, about what -1 to hit takes from a 4+ roll's hits, less for a 5+.
 */
function dStrikeStun(c: Ctx, u: UnitState, hatchway: string): number {
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
const D6_PLUS_1_REACH = 4.5;
/** The Warhost (a name, not an import of its module: see the Load order note of the common rules). */
const WARHOST = 'Warhost';
/** BLITZING FIREPOWER: within 12", SUSTAINED HITS 1, or Critical Hits on 5+ for a weapon that has SUSTAINED HITS. */
const BLITZING_FIREPOWER: PlanTweak = (p, info) => {
  if (p.melee || info.distance > 12) return;
  if (p.sustainedHits > 0) p.criticalHitOn = Math.min(p.criticalHitOn, 5);
  else p.sustainedHits = 1;
};

/** LETHAL RUSE's six D6 at 4+ for an ANHRATHE unit: three mortal wounds on the best enemy unit it was engaged with. */
function lethalRuseWounds(c: Ctx, u: UnitState): number {
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
function vengefulSorrowGain(c: Ctx, u: UnitState): number {
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
function interlockingGain(c: Ctx, u: UnitState, move = INTERLOCKING_MOVE): number {
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
function bloodyDanceGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  let best = 0;
  for (const e of enemyUnits(s, c.me)) {
    if (!onBattlefield(e) || unitDistance(s, u, e) > 6) continue;
    best = Math.max(best, p2d6AtLeast(chargeNeed(c, u, e)) * (unitAttackPotential(s, u, e, true) - 0.5 * unitAttackPotential(s, e, u, true)));
  }
  return best;
}

/** STAGED DEATH: the fallen CHARACTER back with half its wounds: half its unit's points, while rounds are left to use it. */
function stagedDeathGain(c: Ctx, u: UnitState, modelId: string): number {
  const s = c.state;
  const m = u.models.find((x) => x.id === modelId);
  const own = m ? s.units[m.origin] : null;
  // in the last player turn of the battle, it would stand again for nothing
  if (!own || (s.round >= s.mission.rounds && s.turn !== c.me)) return 0;
  return 0.5 * own.points;
}

/** FANGS OF THE BROOD: the Dance of Death abilities the Troupe has not taken, on the enemy unit it fights that it gains most on. */
function fangsGain(c: Ctx, u: UnitState): number {
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
function strikingStrideGain(c: Ctx, u: UnitState): number {
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
function endsBeyondReach(c: Ctx, shooter: UnitState, mover: UnitState, move: { mode?: string; to?: Point } | undefined): boolean {
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

/**
 * Unerring Strike: open a hatchway in the middle of the move when the move's point lies beyond it (across its
 * wall) and going through ends the move more than 1" nearer that point than the move with the hatchway shut. The
 * end through the doorway is estimated as the rest of the move (its Move less 2" less the way to the hatchway)
 * taken from the hatchway's centre straight at the point.
 */
function decideUnerringStrike(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const to = req.context?.to as Point | undefined;
  if (!u || !to) return 0;
  const pts = u.models.filter((m) => m.alive && m.pos).map((m) => m.pos!);
  if (pts.length === 0) return 0;
  const move = unitMove(s, u);
  const shut = planMove(s, u, 'normal', to, move);
  let best = 0;
  let bestEnd = dist(shut.ok ? centroidOf(shut.positions) : centroidOf(pts), to);
  (req.options as ({ keep: true } | UnerringOption)[]).forEach((o, i) => {
    if ('keep' in o) return;
    const h = hatchwayById(s, o.hatchway);
    if (!h || !acrossHatchway(h.polygon, pts, [to])) return;
    const left = Math.max(0, move - 2 - o.way);
    const end = Math.max(0, dist(hatchwayCentre(h), to) - left);
    if (end < bestEnd - 1) {
      best = i;
      bestEnd = end;
    }
  });
  return best;
}

/** Expected gain of a stratagem option in points (before its CP cost). */
function stratagemGain(c: Ctx, o: StratOption, win: WindowCtx | undefined, roll: { purpose: string; values: number[]; target: number | null; unit?: string } | undefined): number {
  const s = c.state;
  const u = o.unit ? s.units[o.unit] : null;
  switch (o.stratagem) {
    case 'COMMAND RE-ROLL': return rerollGain(c, o, roll);
    case 'GO TO GROUND': return u && win ? incomingSaved(c, win, u, GO_TO_GROUND) : 0;
    case 'SMOKESCREEN': return u && win ? incomingSaved(c, win, u, SMOKESCREEN) : 0;
    case 'LIGHTNING-FAST REACTIONS': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_HIT) : 0;
    case 'COUNTERFIRE DEFENCE SYSTEMS': return u && win ? incomingSaved(c, win, u, MINUS_ONE_DAMAGE) : 0;
    case 'FIRE OVERWATCH': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      // as a move starts, fire only at a unit whose move ends beyond the unit's guns (moving away); else wait
      // for the end, where the target is nearest in nearly every move (Overwatch is once a turn)
      if (win?.name === 'movement/enemy-move-started' && !endsBeyondReach(c, u, e, win.data as { mode?: string; to?: Point } | undefined)) return 0;
      return attackOn(c, u, e, false, OVERWATCH);
    }
    case 'HEROIC INTERVENTION': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      const p = p2d6AtLeast(chargeNeed(c, u, e));
      return p * (unitAttackPotential(s, u, e, true) - 0.5 * unitAttackPotential(s, e, u, true));
    }
    case 'COUNTER-OFFENSIVE': {
      if (!u) return 0;
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, unitAttackPotential(s, u, e, true));
      return 0.5 * best;
    }
    case 'EPIC CHALLENGE': {
      if (!u) return 0;
      let best = 0;
      for (const e of engagedEnemies(s, u)) {
        if (e.components.length < 2) continue;
        for (const comp of e.components) if (comp.isLeader && !comp.destroyed) best = Math.max(best, 0.3 * (s.units[comp.unit]?.points ?? 0));
      }
      return best;
    }
    case 'INSANE BRAVERY': return u ? battleShockCost(c, u, 0) : 0;
    case 'RAPID INGRESS': return u ? 0.5 * bestArrival(c, u).gain + 5 : 0;
    case 'TANK SHOCK': {
      if (!u) return 0;
      let tough = 0;
      for (const m of u.models) if (m.alive) tough = Math.max(tough, s.datasheets[m.datasheet].models[m.profile].toughness);
      const mortal = Math.min(6, tough / 3);
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, Math.min(mortal, unitWounds(s, e).now) * pointsPerWound(s, e));
      return best;
    }
    case 'A TEMPTING TRAP': {
      if (!u) return 0;
      const trap = s.players[c.me].ruleState.trapObjective as string | undefined;
      const marker: { id: string; pos: Point } | undefined = trap ? s.objectives.find((x) => x.id === trap) : bestTrapObjective(c);
      if (!marker) return 0;
      const near = (t: UnitState) => unitNearMarker(c, t, marker.pos);
      return Math.max(0, bestVolley(c, u, (p, info) => { if (near(info.target)) p.woundModifier += 1; }) - bestVolley(c, u));
    }
    case 'POINT-BLANK AMBUSH': return u ? volleyGain(c, u, (p, info) => { if (info.distance <= 9) p.ap -= 1; }) : 0;
    case 'COORDINATE TO ENGAGE': {
      const t = win?.targets[0] ? s.units[win.targets[0]] : null;
      if (!u || !t) return 0;
      const ml = u.keywords.includes('MARKERLIGHT');
      return Math.max(0, attackOn(c, u, t, false, (p) => { p.skill -= 1; if (ml) { p.ignoresCover = true; p.cover = false; } }) - attackOn(c, u, t, false));
    }
    case 'COMBAT DEBARKATION': return u ? 0.6 * volleyGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    case 'BLADESTORM': return u ? volleyGain(c, u, (p) => { p.criticalWoundAp = Math.max(p.criticalWoundAp, 2); }) : 0;
    // two SOULSIGHTs: the Armoured Warhost's (a re-roll of one Hit, Wound and Damage roll) and Devoted of Ynnead's
    case 'SOULSIGHT':
      if (!u) return 0;
      return o.source === 'Devoted of Ynnead' ? volleyGain(c, u, (p) => { p.lethalHits = true; p.ignoresCover = true; p.cover = false; }) : oneRerollGain(c, u);
    case 'FOCUSED FIRE': return u ? focusedFire(c, u).gain : 0;
    case 'PULSE ONSLAUGHT': {
      if (!u) return 0;
      const hit = (win?.data?.hitTargets as string[] | undefined) ?? [];
      let best = 0;
      for (const id of hit) {
        const e = s.units[id];
        if (!e || !onBattlefield(e)) continue;
        for (const m of ownUnits(s, c.me)) best = Math.max(best, 0.25 * unitAttackPotential(s, e, m, true));
      }
      return best;
    }
    case 'PINPOINT COUNTER-OFFENSIVE': {
      const by = win?.data?.by as string | undefined;
      const e = by ? s.units[by] : null;
      return e && onBattlefield(e) ? pinpointGain(c, e) : 0;
    }
    case 'FEIGNED RETREAT': case 'VECTORED ENGINES': case 'GUERRILLA WARRIORS': return u ? 0.8 * bestPotential(c, u) * (s.round >= 5 ? 0.8 : 1) : 0;
    case 'MATCHLESS AGILITY': case 'AGGRESSIVE MOBILITY': return u ? agilityGain(c, u) : 0;
    case 'ANTI-GRAV REPULSION': {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e ? chargeFoiled(c, e, u) : 0;
    }
    case 'PHOTON GRENADES': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      const charge = chargeFoiled(c, e, u);
      // its Battle-shock test: failed, its Objective Control is 0 until its next Command phase
      const pFail = e.battleShocked ? 0 : 1 - p2d6AtLeast(bestLeadership(s, e) - rollModifier(s, e, 'battle-shock'));
      const row = objectiveSnapshot(s).contrib.get(e.id);
      return charge + pFail * (row && row.some((x) => x > 0) ? c.w.objective * 0.8 : 0);
    }
    case 'WALL OF MIRRORS': return u ? strategicReservesGain(c, u) : 0;
    // the volley it could not make after Falling Back
    case 'RETREATING FIRE': return u ? bestVolley(c, u) : 0;
    case 'FIRING LINE': {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e ? attackOn(c, u, e, false, FIRING_LINE) : 0;
    }
    case 'RESPONSIVE VOLLEY': {
      const h = (s.board.hatchways ?? []).find((x) => x.id === win?.data?.hatchway);
      if (!u || !h) return 0;
      const from = u.models.flatMap((m) => (m.alive && m.pos ? [m.pos] : []));
      return volleyGain(c, u, (p, info) => {
        const to = info.target.models.flatMap((m) => (m.alive && m.pos ? [m.pos] : []));
        if (acrossHatchway(h.polygon, from, to)) p.criticalHitOn = Math.min(p.criticalHitOn, 5);
      });
    }
    case 'COMBAT EMBARKATION': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      return p2d6AtLeast(chargeNeed(c, e, u)) * unitAttackPotential(s, e, u, true) - 0.3 * c.w.objective * (objectiveSnapshot(s).contrib.get(u.id)?.some((x) => x > 0) ? 1 : 0);
    }
    case 'LAYERED WARDS': return u ? 2 * pointsPerWound(s, u) * 0.33 : 0;
    case 'CLOUDSTRIKE': case 'DARING RIDERS': return u ? 10 : 0;
    // Windrider Host
    case 'SPIRALLING EVASION': return u && win ? incomingSaved(c, win, u, INVULNERABLE_4) : 0;
    case 'FOCUSED FIREPOWER': return u ? volleyGain(c, u, (p) => { p.ap -= 1; }) : 0;
    case 'DEATH FROM ON HIGH': return u ? phaseAttackGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    // the end of a phase: a 7" Normal move, weighed as INTERLOCKING MANOUEVRES' 6"
    case 'OVERFLIGHT': return u ? interlockingGain(c, u, OVERFLIGHT_MOVE) : 0;
    // selected to move: out of combat it may Fall Back and still shoot (as FEIGNED RETREAT), else Advance and
    // still shoot and charge (a share of MATCHLESS AGILITY's sure 6", as ALIEN EXPERTISE's)
    case 'WIND OF BLADES': return u ? (isEngaged(s, u) ? 0.8 * bestPotential(c, u) : 0.6 * agilityGain(c, u)) : 0;
    // the Warhost's: after the unit shot, a D6+1" move (the Battle Host's: a full Normal move at the end of the phase)
    case 'FIRE AND FADE': return u ? fireAndFadeGain(c, u, o.source === WARHOST ? D6_PLUS_1_REACH : undefined) : 0;
    // Warhost. BLITZING FIREPOWER: SUSTAINED HITS 1 within 12" (Critical Hits on 5+ for a weapon that has it);
    // WEBWAY TUNNEL: into Strategic Reserves as WALL OF MIRRORS
    case 'BLITZING FIREPOWER': return u ? volleyGain(c, u, BLITZING_FIREPOWER) : 0;
    case 'WEBWAY TUNNEL': return u ? strategicReservesGain(c, u) : 0;
    case 'SWIFT DEPLOYMENT': return u ? swiftDeploymentGain(c, u) : 0;
    case 'EXPERIMENTAL WEAPONRY': return u ? volleyGain(c, u, (p) => { p.rerollAttacks = true; }) : 0;
    case "THE ARRO'KON PROTOCOL": return u ? volleyGain(c, u, ARROKON) : 0;
    case 'SHIELD NODES': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_WOUND) : 0;
    case 'WARDING SALVOES': return u ? volleyGain(c, u, (p, info) => { if (withinObjectiveRange(s, info.target)) p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    // an Advance of 6" for sure, after which it still shoots and charges: as 6" more of move
    case 'TIME TO STRIKE': return u ? agilityGain(c, u) : 0;
    case 'COST OF VICTORY': return u ? costOfVictoryGain(c, u, destroyedGuardians(s, u)) : 0;
    // its guns fire in combat, at the enemy units it is fighting: most of what they would do there
    case 'BLADES OF ASURYAN': {
      if (!u) return 0;
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, attackOn(c, u, e, false));
      return 0.8 * best;
    }
    case "VAUL'S VENGEANCE": {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e ? attackOn(c, u, e, false) : 0;
    }
    // Aspect Host
    case 'WARRIOR FOCUS': return u ? phaseAttackGain(c, u, IGNORE_HIT_PENALTIES) : 0;
    // the Damage 8 on the targets within its 12": the 6" of Range it adds are not priced (the volley reads
    // the ranges as they are), so it is used when a target is already in range
    case 'DOOM INESCAPABLE': return u ? volleyGain(c, u, DOOM_DAMAGE) : 0;
    case 'PRETERNATURAL PRECISION': return u ? bestChoice(c, u, PRETERNATURAL_TWEAKS).gain : 0;
    // every model of the enemy unit falling back tests: a 2 in 6 chance of losing each (a 1 in 6 more
    // for a Battle-shocked unit, which tests them all anyway); the models crossing mine would test anyway
    // and are not told apart (the move is not planned yet)
    case "KHAINE'S VENGEANCE": {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!e || !onBattlefield(e)) return 0;
      return (e.battleShocked ? 1 / 6 : 2 / 6) * unitValue(s, e);
    }
    // embarked before the opponent's turn, out of reach of their shooting and charges; at the end of the
    // opponent's Fight phase nothing is gained (it would get out again in its own Movement phase)
    case 'SKYBORNE SANCTUARY': return u && s.turn === c.me ? Math.max(0, embarkSafety(c, u)) : 0;
    case 'TO THEIR FINAL BREATH':
    case "HEROES' FALL": return u && win ? fightOnDeathGain(c, win, u) : 0;
    case 'STIMM INJECTORS': return u && win ? incomingSaved(c, win, u, STIMMS) : 0;
    case 'JOIN THE HUNT': return u ? joinTheHuntGain(c, u) : 0;
    case 'A TRAP WELL LAID': return u ? trapWellLaidGain(c, u) : 0;
    case 'THE GRISLY FEAST': return u ? grislyFeastGain(c, u) : 0;
    case 'EMP GRENADES': {
      // the VEHICLE's attacks on each of the player's units it targets, at a worse Ballistic or Weapon Skill
      let v = 0;
      if (win) for (const id of win.targets) if (s.units[id]?.player === c.me) v += incomingSaved(c, win, s.units[id], WORSE_SKILL);
      return v;
    }
    case 'THE TORCHSTAR GAMBIT': return u ? fireAndFadeGain(c, u) : 0;
    case 'FAIL-SAFE DETONATOR': return u && win ? failSafeGain(c, u, String(win.data?.model)) : 0;
    // Ghosts of the Webway
    // a charge at the end of the opponent's Charge phase, without Fighting First: as HEROIC INTERVENTION's
    case 'BLOODY DANCE': return u ? bloodyDanceGain(c, u) : 0;
    case 'MOCKING FLIGHT': return u ? 0.8 * bestPotential(c, u) * (s.round >= 5 ? 0.8 : 1) : 0;
    // a 6" Normal move in the opponent's Movement phase, weighed as INTERLOCKING MANOUEVRES' 6"
    case "TRICKSTERS' RETORT": case 'WEAVING STRIDE': return u ? interlockingGain(c, u, STRIDE_MOVE) : 0;
    case 'EXIT THE STAGE': case 'SKYWARD LUNGE': return u ? strategicReservesGain(c, u) : 0;
    case 'STAGED DEATH': return u && win ? stagedDeathGain(c, u, String(win.data?.model)) : 0;
    // Serpent's Brood
    case 'FANGS OF THE BROOD': return u ? fangsGain(c, u) : 0;
    // a 6" move after shooting (the VEHICLE gives up a charge it would seldom make)
    case 'VENOMOUS WRATH': return u ? 0.5 * interlockingGain(c, u, VENOMOUS_WRATH_MOVE) : 0;
    case 'STRIKING STRIDE': return u ? strikingStrideGain(c, u) : 0;
    // Corsair Coterie
    case "PIRATES' DUE": return u ? phaseAttackGain(c, u, (p, info) => { p.rerollWounds = widerReroll(p.rerollWounds, u.keywords.includes('ANHRATHE') && withinObjectiveRange(s, info.target) ? 'failed' : 'ones'); }) : 0;
    // a D6+1" Normal move after shooting (4.5" on average), no charge given up
    case 'INTO THE BREACH': return u ? interlockingGain(c, u, D6_PLUS_1_REACH) : 0;
    // as FEIGNED RETREAT (a charge after Falling Back), and for an ANHRATHE unit six D6 at 4+: three mortal wounds on average
    case 'LETHAL RUSE': return u ? 0.8 * bestPotential(c, u) * (s.round >= 5 ? 0.8 : 1) + lethalRuseWounds(c, u) : 0;
    // IGNORES COVER, +1 AP and RAPID FIRE 1 (its half range read as 18", the long rifles' and scatter lasers')
    case 'OUTCAST AMBUSH': return u ? volleyGain(c, u, (p, info) => { p.ignoresCover = true; p.cover = false; p.ap -= 1; if (info.distance <= 18) p.attacksBonus += 1; }) : 0;
    // Stealth (unless the unit has it) and HIDDEN HUNTERS' 18" limit
    case 'CLOAK AND SHADOW': return u && win ? (u.abilities.includes('Stealth') ? 0 : incomingSaved(c, win, u, MINUS_ONE_TO_HIT)) + stratagemGain(c, { ...o, stratagem: 'HIDDEN HUNTERS' }, win, roll) : 0;
    // a Surge of D6+1" toward the closest enemy: into combat with it when it is close (weighed as a charge of that reach)
    case 'VENGEFUL SORROW': return u ? vengefulSorrowGain(c, u) : 0;
    // Eldritch Raiders
    case 'NO PREY TOO BIG': return u ? volleyGain(c, u, noPreyTooBig(s)) : 0;
    case "YRIEL'S EXAMPLE": return u && win ? incomingSaved(c, win, u, FNP_5) : 0;
    case 'WITHDRAW AND REINFORCE': return u ? costOfVictoryGain(c, u, withdrawnModelsBack(s, u)) : 0;
    case 'RUTHLESS KILLERS': return u ? phaseAttackGain(c, u, (p) => { p.damageBonus += 1; }) : 0;
    // +1 OC while the unit holds a marker in a combat: half the worth of an objective
    case "RAIDERS' SPOILS": return u && objectiveSnapshot(s).contrib.get(u.id)?.some((x) => x > 0) ? 0.5 * c.w.objective : 0;
    case 'IMPEDING FIRE': {
      if (!u) return 0;
      let best = 0;
      for (const e of impedingFireTargets(s, u)) best = Math.max(best, impedingFireGain(c, e));
      return best;
    }
    // Spirit Conclave. CRUSHING STRIDES: two in three of its dice are mortal wounds, on the enemy unit whose wounds are worth most
    case 'CRUSHING STRIDES': {
      if (!u) return 0;
      const mortal = (2 / 3) * crushingStridesDice(s, u);
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, Math.min(mortal, unitWounds(s, e).now) * pointsPerWound(s, e));
      return best;
    }
    case 'WRAITHBONE ARMOUR': return u && win ? incomingSaved(c, win, u, MINUS_ONE_DAMAGE) : 0;
    case 'BLADES FROM BEYOND': return u ? phaseAttackGain(c, u, (p) => { if (p.melee) p.devastatingWounds = true; }) : 0;
    // the Damage reductions the target's rules give its models (the AP the estimate reads is already the better one but for those)
    case "SEER'S EYE": return u ? phaseAttackGain(c, u, SEERS_EYE) : 0;
    // a marker the unit holds stays held when it moves on (or dies): a share of what a marker is worth
    case 'SPIRIT TOKEN': return u ? 0.25 * c.w.objective : 0;
    // Psychic Guidance's +1 to hit for a turn (a third more hits at 4+), for a Wraith unit no PSYKER is near
    case 'SOUL BRIDGE': return u && !psychicallyGuided(s, u) ? 0.3 * bestPotential(c, u) : 0;
    // Devoted of Ynnead. EMISSARIES OF YNNEAD: its re-rolls on the enemy it fights; MACABRE RESILIENCE: -1 to wound
    // it; PARTING THE VEIL: a fight on death with no roll (twice TO THEIR FINAL BREATH's 4+); DEATH ANSWERS DEATH:
    // a whole volley; PALL OF DREAD: a marker kept, as CRITICAL CAPTURE's
    case 'EMISSARIES OF YNNEAD': return u ? phaseAttackGain(c, u, (p) => { p.rerollHits = widerReroll(p.rerollHits, belowStartingStrength(u) ? 'failed' : 'ones'); }) : 0;
    case 'MACABRE RESILIENCE': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_WOUND) : 0;
    case 'PARTING THE VEIL': return u && win ? 2 * fightOnDeathGain(c, win, u) : 0;
    case 'DEATH ANSWERS DEATH': return u ? bestVolley(c, u) : 0;
    case 'PALL OF DREAD': return u ? 0.4 * c.w.objective : 0;
    // Aeldari Boarding Actions detachments (Protector Host, Star-dancer Masque, Khaine's Arrow, Wraiths of the Void)
    case 'VOID GHOSTS': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_HIT) : 0;
    case 'SHURIKEN STORM': return u ? volleyGain(c, u, (p, info) => { if (SHURIKEN_STORM_WEAPONS.includes(info.weapon)) p.strength += 1; }) : 0;
    case 'DARTING STRIKES': return u ? phaseAttackGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    case 'SERPENT STRIKE': return u ? serpentStrikeGain(c, u) : 0;
    // a Battle-shocked unit Falling Back tests every model (a 1-2 loses one): what those tests would cost
    case 'ACROBATIC LEAPS': return u && u.battleShocked && isEngaged(s, u) ? (u.models.filter((m) => m.alive).length / 3) * pointsPerWound(s, u) * (unitWounds(s, u).now / Math.max(1, u.models.filter((m) => m.alive).length)) : 0;
    // IGNORES COVER, and the Hit roll's penalties ignored (a worsened BS too, which the calculator's plan would show as skill)
    case 'WRAITHSIGHT': return u ? volleyGain(c, u, (p) => { p.ignoresCover = true; p.cover = false; IGNORE_HIT_PENALTIES(p, { distance: 0, target: u, weapon: '' }); }) : 0;
    case 'GUARDIAN CONSTRUCTS': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !win || !e) return 0;
      const from = e.models.flatMap((m) => (m.alive && m.pos ? [m.pos] : []));
      const to = u.models.flatMap((m) => (m.alive && m.pos ? [m.pos] : []));
      return (s.board.hatchways ?? []).some((h) => acrossHatchway(h.polygon, from, to)) ? incomingSaved(c, win, u, MINUS_ONE_TO_WOUND) : 0;
    }
    case 'FOCUSED FUSILLADE': return u ? volleyGain(c, u, (p) => { p.woundModifier += 1; }) : 0;
    case 'BLADEFOCUS': return u ? phaseAttackGain(c, u, (p) => { p.rerollHits = widerReroll(p.rerollHits, 'failed'); }) : 0;
    // +1 OC, and at the end of the turn a marker the unit holds is Secured (kept until the opponent controls it):
    // worth a share of a marker when the unit stands on one now
    case 'CRITICAL CAPTURE': return u && objectiveSnapshot(s).contrib.get(u.id)?.some((x) => x > 0) ? 0.4 * c.w.objective : 0;
    // the stun on the enemy units beyond the best closed hatchway, less the volley the unit gives up
    case 'D-STRIKE': {
      if (!u) return 0;
      let best = 0;
      for (const h of s.board.hatchways ?? []) if (!s.openHatchways.includes(h.id)) best = Math.max(best, dStrikeStun(c, u, h.id));
      return best - bestVolley(c, u);
    }
    // a D6: one mortal wound on 2-5, two on a 6 (one on average) on the enemy unit that opened the hatchway,
    // and then a Normal move of up to D6" (a little more)
    case 'RAPID AMBUSH': {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e && onBattlefield(e) ? Math.min(1, unitWounds(s, e).now) * pointsPerWound(s, e) + 1 : 0;
    }
    // Kroot Raiding Party (Boarding Actions): +1 AP in melee and one more on a Critical Wound; 6" Pile-in and
    // Consolidation; an enemy unit's Move, Advance and Charge rolls halved; mortal wounds beyond a hatchway
    case 'BOARDING BLADES': return u ? phaseAttackGain(c, u, (p) => { if (p.melee) { p.ap -= 1; p.criticalWoundAp += 1; } }) : 0;
    case 'SWEEPING AMBUSH': return u ? sweepingAmbushGain(c, u) : 0;
    case 'TANGLEBOMB BOLAS': return u ? Math.max(0, ...tanglebombTargets(s, u).map((e) => tanglebombGain(c, e))) : 0;
    case 'BRUTE FORCE': return u ? bruteForceGain(c, u, win?.data?.hatchway) : 0;
    case "WEAVERS' COILS": return u ? interlockingGain(c, u, isEngaged(s, u) ? WEAVERS_COILS_FALL_BACK : unitMove(s, u)) : 0;
    // set up 3" closer than Deep Strike allows: a fifth more of its shooting (Bonded Heroes' bands); only
    // units that arrive this phase are offered it, and the heuristic brings them in when it can
    case 'THE SHORTENED BLADE': return u ? 0.2 * bestPotential(c, u) : 0;
    case 'GRAV-INHIBITOR FIELD': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!e || !onBattlefield(e)) return 0;
      const models = e.models.filter((m) => m.alive).length;
      const pFail = e.battleShocked ? 0 : 1 - p2d6AtLeast(bestLeadership(s, e) - rollModifier(s, e, 'battle-shock'));
      return (models / 6) * pointsPerWound(s, e) + pFail * 0.1 * unitValue(s, e);
    }
    // Auxiliary Cadre: re-rolled Wound rolls of 1 (an auxiliary unit: every failed one), this phase
    case 'MULTISENSORY SCANNING': return u ? phaseAttackGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, auxiliary(u) ? 'failed' : 'ones'); }) : 0;
    // an Advance (3.5" on average) that keeps the unit's shooting, and an auxiliary unit's charge: a share of
    // MATCHLESS AGILITY's sure 6" (the move is then chosen knowing its guns count as ASSAULT)
    case 'ALIEN EXPERTISE': return u ? (auxiliary(u) ? 0.8 : 0.6) * agilityGain(c, u) : 0;
    case 'GUIDED FIRE': { if (!u) return 0; const plus = guidedFireBonus(s, u); return volleyGain(c, u, (p) => { p.strength += plus; }); }
    case 'INTERLOCKING MANOUEVRES': return u ? interlockingGain(c, u) : 0;
    case 'PHEROMONE WAYPOINTS': return u ? agilityGain(c, u) : 0;
    case 'EXPERIMENTAL MODIFICATIONS': return u ? phaseAttackGain(c, u, (p) => { p.ap -= 1; }) : 0;
    case 'THREAT ASSESSMENT ANALYSER': return u ? bestChoice(c, u, THREAT_ASSESSMENT_TWEAKS).gain : 0;
    case 'EXPERIMENTAL AMMUNITION': return u ? bestChoice(c, u, EXPERIMENTAL_AMMUNITION_TWEAKS).gain : 0;
    case 'REACTIVE IMPACT DAMPENERS': return u && win ? incomingSaved(c, win, u, DAMPENERS) : 0;
    // Seer Council
    case 'FATE INESCAPABLE': return u ? volleyGain(c, u, FATE_INESCAPABLE_TWEAK) : 0;
    case 'ISHA\u2019S FURY': {
      // six D6, a mortal wound for each 3+ (four on average), never more than the unit is worth
      const e = win?.unit ? s.units[win.unit] : null;
      return e && onBattlefield(e) ? Math.min(unitValue(s, e), 4 * pointsPerWound(s, e)) : 0;
    }
    case 'FOREWARNED': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_HIT_AND_WOUND) : 0;
    case 'PRESENTIMENT OF DREAD': return u ? presentimentGain(c, u) : 0;
    case 'UNSHROUDED TRUTH': return u ? unshroudedTruthGain(c, u) : 0;
    // PSYCHIC SHIELD: only models within 18" may shoot at the unit, as NEUROWEB SYSTEM JAMMER
    case 'PSYCHIC SHIELD':
    case 'NEUROWEB SYSTEM JAMMER': case 'HIDDEN HUNTERS': {
      // the attacks of the attacking unit's models more than 18" away are lost: that share of its shooting
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e || !onBattlefield(u)) return 0;
      let far = 0, all = 0;
      for (const m of e.models) {
        if (!m.alive || !m.pos) continue;
        all++;
        let near = false;
        for (const x of u.models) if (x.alive && x.pos && horizontalDistance(modelBody(s, m), modelBody(s, x)) <= 18) { near = true; break; }
        if (!near) far++;
      }
      const share = win && win.targets.length > 1 ? Math.min(1, 1.5 / win.targets.length) : 1;
      return all ? (far / all) * share * attackOn(c, e, u, false) : 0;
    }
    case 'AUTOMATED REPAIR DRONES': {
      // D3+1 wounds back on the most wounded BATTLESUIT model (the engine offers it first), no more than it lost
      if (!u) return 0;
      let lost = 0;
      for (const m of u.models) if (m.alive && s.datasheets[m.datasheet].keywords.includes('BATTLESUIT')) lost = Math.max(lost, characteristic(s, u, m, 'W') - m.wounds);
      const expected = lost >= 4 ? 3 : lost === 3 ? 8 / 3 : lost;
      return expected * pointsPerWound(s, u);
    }
    default: return 0;
  }
}

const FATE_INESCAPABLE_TWEAK: PlanTweak = (p) => {
  if (!p.melee) { p.ignoresCover = true; p.cover = false; }
  p.criticalWoundAp = Math.max(p.criticalWoundAp, 1);
};
const MINUS_ONE_TO_HIT_AND_WOUND: PlanTweak = (p) => { p.hitModifier -= 1; p.woundModifier -= 1; };

/** What a Fate die kept for a later roll is worth, in points: spent on a discount only when a CP is worth more. */
const FATE_DIE_PRICE = 3;

/** PRESENTIMENT OF DREAD: the enemy unit within 18" of the Psyker's unit whose Battle-shock test (-1) costs its side most. */
function presentimentGain(c: Ctx, u: UnitState): number {
  let best = 0;
  for (const e of enemyUnits(c.state, c.me)) {
    if (e.battleShocked || unitDistance(c.state, u, e) > 18) continue;
    best = Math.max(best, battleShockCost(c, e, -1));
  }
  return best;
}

/** UNSHROUDED TRUTH: the best place more than 9" from the enemy, over the unit's best Normal move (which it gives up). */
function unshroudedTruthGain(c: Ctx, u: UnitState): number {
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true });
  const stay = bestMoveScore(c, ov, uc, moveOptionsFor(c, u).filter((o) => o.mode === 'normal'), here);
  const arrive = bestArrival(c, u, truthPoints(c.state).map((p) => ({ ...p, unit: u.id })));
  return arrive.index < 0 ? 0 : Math.max(0, arrive.gain - stay);
}

/**
 * PINPOINT COUNTER-OFFENSIVE: re-rolled Hit rolls against one enemy unit for the rest of the battle. What
 * the re-rolls add to the army's shooting at it, for the guns that can reach it next turn, counting on a
 * share of that fire going to it over the turns left (and never more than the unit itself is worth).
 */
function pinpointGain(c: Ctx, e: UnitState): number {
  const s = c.state;
  const reroll: PlanTweak = (p) => { p.rerollHits = widerReroll(p.rerollHits, 'failed'); };
  const eg = unitGeo(s, e);
  let gain = 0;
  for (const u of ownUnits(s, c.me)) {
    if (hasKeyword(u, 'KROOT')) continue;
    const ug = unitGeo(s, u);
    const gap = dist(ug, eg) - ug.r - eg.r;
    for (const use of weaponUses(s, u, false)) {
      if (gap > unitMove(s, u) + weaponRange(s, u, use.profile)) continue;
      gain += weaponEstimate(s, u, use, e, { anywhere: true, tweak: reroll }).value - weaponEstimate(s, u, use, e, { anywhere: true }).value;
    }
  }
  const turnsLeft = Math.max(0, s.mission.rounds - s.round + (s.turn === c.me ? 0 : 1));
  return Math.min(unitValue(s, e), gain * c.w.pinpointShare * Math.min(2, turnsLeft));
}

function unitNearMarker(c: Ctx, t: UnitState, pos: Point): boolean {
  const g = unitGeo(c.state, t);
  return dist(g, pos) <= 3.8 + g.r;
}

/** The marker (not in the enemy zone) with the most enemy value in range: the Trap objective. */
function bestTrapObjective(c: Ctx): { id: string; pos: Point } | undefined {
  const s = c.state;
  const zone = s.board.deploymentZones.find((z) => z.player === c.opp)?.polygon ?? [];
  let best: { id: string; pos: Point } | undefined;
  let bv = -1;
  for (const o of s.objectives) {
    if (pointInPolygon(o.pos, zone)) continue;
    let v = 0;
    for (const e of enemyUnits(s, c.me)) {
      const d = dist(unitGeo(s, e), o.pos);
      v += unitValue(s, e) / (1 + Math.max(0, d - 4));
    }
    if (v > bv) { bv = v; best = o; }
  }
  return best;
}

function focusedFire(c: Ctx, u: UnitState): { gain: number; unit: string | null; enemy: string | null } {
  return perVersion(c.state, `ff|${c.me}|${u.id}`, () => computeFocusedFire(c, u));
}

function computeFocusedFire(c: Ctx, u: UnitState): { gain: number; unit: string | null; enemy: string | null } {
  const s = c.state;
  const vs = perVersion(s, `ffvs|${c.me}`, () => focusedFireTable(c));
  const base = vs.base;
  let best = { gain: 0, unit: null as string | null, enemy: null as string | null };
  for (const e of enemyUnits(s, c.me)) {
    const a = vs.with.get(`${u.id}|${e.id}`) ?? 0;
    // both units fire at the one target: together they can take no more than the whole unit (and the
    // bonus for destroying it); what they would have done elsewhere is lost
    const whole = 1.25 * unitValue(s, e);
    for (const x of vs.mine) {
      if (x.id === u.id) continue;
      const g = Math.min(whole, a + (vs.with.get(`${x.id}|${e.id}`) ?? 0)) - (base.get(u.id) ?? 0) - (base.get(x.id) ?? 0);
      if (g > best.gain) best = { gain: g, unit: x.id, enemy: e.id };
    }
  }
  return best;
}

function focusedFireTable(c: Ctx): { mine: UnitState[]; base: Map<string, number>; with: Map<string, number> } {
  const s = c.state;
  const mine = ownUnits(s, c.me).filter((x) => !x.flags.shot);
  const enemies = enemyUnits(s, c.me);
  const apPlus: PlanTweak = (p) => { p.ap -= 1; };
  const base = new Map<string, number>();
  const vs = new Map<string, number>();
  for (const x of mine) {
    base.set(x.id, bestVolley(c, x));
    // the two units may shoot nothing else: a target they cannot see is worth nothing to them
    for (const e of enemies) vs.set(`${x.id}|${e.id}`, unitSees(s, x, e) ? attackOn(c, x, e, false, apPlus) : 0);
  }
  return { mine, base, with: vs };
}

/** A fixed 6" Advance instead of a D6: what the best move gains with it. */
function agilityGain(c: Ctx, u: UnitState): number {
  if (u.location !== 'battlefield' || isEngaged(c.state, u)) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const opts = moveOptionsFor(c, u);
  const a = bestMoveScore(c, ov, uc, opts);
  const b = bestMoveScore(c, ov, uc, opts, -Infinity, 6);
  return Math.max(0, b - a);
}

function fireAndFadeGain(c: Ctx, u: UnitState, reach?: number): number {
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true });
  const best = reach === undefined ? bestMoveScore(c, ov, uc, moveOptionsFor(c, u).filter((o) => o.mode === 'normal'), here) : shortMoveScore(c, ov, uc, u, reach, here);
  // it gives up its charge this turn
  const charge = uc.meleeOriented ? c.w.charge * chargeAt(uc, uc.from, { advanced: u.flags.advanced, fellBack: u.flags.fellBack }) : 0;
  return Math.max(0, best - here - charge);
}

/** The best place a Normal move of about `reach` inches takes the unit to (as Shade of Twilight's), at least `floor`; it may not charge after. */
function shortMoveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, u: UnitState, reach: number, floor: number): number {
  const short: UnitCtx = { ...uc, move: reach };
  let best = floor;
  for (const o of normalMoveChoices(c.state, u)) if (!('none' in o)) best = Math.max(best, shortMoveEndScore(c, ov, short, o, { advanced: false, fellBack: false, noCharge: true }));
  return best;
}

/** The score where a short move (`short`: the unit's context with the move's reach) toward a destination ends. */
function shortMoveEndScore(c: Ctx, ov: ObjectiveView, short: UnitCtx, o: MoveOption, flags: MoveFlags): number {
  if (!o.to) return -Infinity;
  return positionScore(c, ov, short, moveEnd(short, o, o.to, 0, towardEnemy(short, o)), flags);
}

/**
 * Leaving the battlefield for Strategic Reserves at the end of the opponent's turn (WALL OF MIRRORS, Airborne
 * Agility): where the unit could arrive in my next turn against the best Normal move it has from here,
 * less the markers it holds now (the opponent's to take at the end of this turn). Never when it could not
 * arrive: in battle round 1 (a turn lost) or after the last round (it would count as destroyed).
 */
function strategicReservesGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  const next = s.firstPlayer === c.me ? s.round + 1 : s.round;
  if (next < 2 || next > s.mission.rounds) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true });
  const stay = bestMoveScore(c, ov, uc, moveOptionsFor(c, u).filter((o) => o.mode === 'normal'), here);
  const arrive = bestArrival(c, u, reservesArrivalPoints(s, u, true));
  if (arrive.index < 0) return 0;
  const held = objectiveSnapshot(s).contrib.get(u.id)?.filter((x) => x > 0).length ?? 0;
  return arrive.gain - stay - c.w.objective * held;
}

/** The unit whose charge is being rolled: the one this agent just declared, else the last that declared one. */
function chargingUnit(c: Ctx, hint?: string): UnitState | null {
  const s = c.state;
  if (hint && s.units[hint]) return s.units[hint];
  if (c.mem.charge && s.units[c.mem.charge.unit]?.flags.declaredCharge && !s.units[c.mem.charge.unit].flags.charged) return s.units[c.mem.charge.unit];
  let found: UnitState | null = null;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player === c.me && onBattlefield(u) && u.flags.declaredCharge && !u.flags.charged) found = u;
  }
  return found;
}

/** COMMAND RE-ROLL after a roll: what the re-roll is expected to gain. */
function rerollGain(c: Ctx, o: StratOption, roll: { purpose: string; values: number[]; target: number | null; unit?: string } | undefined): number {
  if (!roll) return 0;
  const sum = roll.values.reduce((a, b) => a + b, 0);
  switch (roll.purpose) {
    case 'charge': {
      if (roll.target === null) return 0;
      const u = chargingUnit(c, roll.unit);
      // the charge this agent declared names its target, whose abilities may reduce the roll (Grav-inhibitor Drone)
      const target = u && c.mem.charge?.unit === u.id ? c.state.units[c.mem.charge.target] : undefined;
      const mod = u ? chargeRollModifier(c.state, u, target ? [target] : []) : 0;
      const need = roll.target - mod;
      if (sum >= need) return 0;
      const p = p2d6AtLeast(need);
      let value = 30;
      if (c.mem.charge && u && c.mem.charge.unit === u.id) value = c.mem.charge.value;
      else if (u) for (const e of enemyUnits(c.state, c.me)) if (unitDistance(c.state, u, e) <= 12) value = Math.max(value, chargePrize(c, u, e));
      return p * value;
    }
    case 'advance': return 0;
    case 'hit': case 'wound': return roll.values.length === 1 ? 14 : roll.values.length === 2 ? 8 : 0;
    case 'save': return roll.values.length === 1 ? 14 : roll.values.length === 2 ? 8 : 0;
    case 'damage': return o.reroll === -1 && roll.values.length === 1 && roll.values[0] <= 2 ? 14 : 0;
    default: return 0;
  }
}

/** What a CP is worth now: dearer when few are left, cheaper when they pile up or the battle ends soon. */
function cpPrice(c: Ctx, cost: number): number {
  const s = c.state;
  const cp = s.players[c.me].cp;
  if (cost <= 0) return 2;
  let f = cp <= 2 ? 1 : cp <= 4 ? 0.8 : 0.6;
  if (s.round >= s.mission.rounds) f *= 0.6;
  else if (s.round === s.mission.rounds - 1) f *= 0.85;
  // below the reserve, a CP is worth more (it may be needed for a reaction)
  if (cp - cost < c.w.cpReserve) f *= 1.4;
  return cost * c.w.cp * f;
}

function decideStratagem(c: Ctx, req: DecisionRequest): number {
  const options = req.options as StratOption[];
  const win = req.context?.window as WindowCtx | undefined;
  const roll = req.context?.roll as { purpose: string; values: number[]; target: number | null; unit?: string } | undefined;
  return argmax(options, (o) => {
    if (o.pass) return 0;
    return stratagemGain(c, o, win, roll) - cpPrice(c, o.cp ?? 1) - (o.discount === SEER_STRANDS_OF_FATE ? FATE_DIE_PRICE : 0);
  });
}

// --- reserves, deployment, Scouts ---------------------------------------------------------------

/** The best place for a unit arriving from Reserves (more than 9" from every enemy model, or it fails). */
function bestArrival(c: Ctx, u: UnitState, options?: { x: number; y: number; unit: string }[]): { gain: number; index: number } {
  const s = c.state;
  const ov = objectiveView(c);
  const pts = options ?? arrivalPoints(c, u);
  let best = { gain: -Infinity, index: -1 };
  const enemies = enemyUnits(s, c.me).map((e) => unitGeo(s, e));
  const uc = unitCtx(c, u, { x: 0, y: 0 });
  pts.forEach((p, i) => {
    if (p.unit !== u.id) return;
    let clear = true;
    for (const e of enemies) if (dist(e, p) - e.r - uc.r < 9.3) { clear = false; break; }
    const v = clear ? positionScore(c, ov, uc, p, { advanced: false, fellBack: false, noCharge: true }) : -1000;
    if (v > best.gain) best = { gain: v, index: i };
  });
  return best;
}

function arrivalPoints(c: Ctx, u: UnitState): { x: number; y: number; unit: string }[] {
  const s = c.state;
  const out: { x: number; y: number; unit: string }[] = [];
  for (const o of s.objectives) out.push({ unit: u.id, x: o.pos.x, y: o.pos.y });
  for (let x = 6; x < s.board.width; x += 12) for (let y = 6; y < s.board.height; y += 12) out.push({ unit: u.id, x, y });
  return out;
}

function decideReinforcement(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ wait: true } | { unit: string; how: string; x: number; y: number })[];
  const units = [...new Set(options.filter((o): o is { unit: string; how: string; x: number; y: number } => 'unit' in o).map((o) => o.unit))];
  let bestIdx = options.findIndex((o) => 'wait' in o);
  let bestScore = bestIdx >= 0 ? (s.round >= 3 ? -1e6 : 0) : -Infinity;
  const flat = options.map((o) => ('wait' in o ? { unit: '', x: -99, y: -99 } : o));
  for (const id of units) {
    const b = bestArrival(c, s.units[id], flat);
    if (b.index >= 0 && b.gain + 20 > bestScore) { bestScore = b.gain + 20; bestIdx = b.index; }
  }
  if (bestIdx < 0) bestIdx = 0;
  lastScores = [];
  const chosen = options[bestIdx];
  c.mem.moved = 'unit' in chosen ? chosen.unit : c.mem.moved;
  return bestIdx;
}

function decideDeploy(c: Ctx, req: DecisionRequest): number {
  const options = req.options as { unit: string; x: number; y: number; infiltrate?: true }[];
  const unit = options[0].unit;
  const score = deploySpotScore(c, c.state.units[unit]);
  const best = argmax(options, (o) => (o.unit !== unit ? -Infinity : score(o)));
  return c.random && c.w.deployVariety > 0 ? nearBest(lastScores, best, c.w.deployVariety, c.random) : best;
}

/**
 * An option drawn uniformly among those scoring within `share` of the gap between the best score and the
 * median one (WEIGHTS.deployVariety); options scored -Infinity (not this decision's) never.
 */
export function nearBest(scores: readonly number[], best: number, share: number, random: Pick<Stream, 'int'>): number {
  const finite = scores.filter((x) => x > -Infinity).sort((a, b) => a - b);
  const median = finite[Math.floor((finite.length - 1) / 2)];
  const cut = scores[best] - share * (scores[best] - median);
  const near: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] > -Infinity && scores[i] >= cut) near.push(i);
  // the best itself is always near, unless its score is not a number: then it stands
  return near.length > 0 ? near[random.int(near.length)] : best;
}

/**
 * How good a spot is to set the unit up on, at deployment or when it is redeployed: markers within its first
 * moves, room from its own units, out of the enemy's guns (hidden where possible), enemies within its reach.
 */
function deploySpotScore(c: Ctx, u: UnitState): (o: { x: number; y: number; infiltrate?: true }) => number {
  const s = c.state;
  // the others: a unit being redeployed stands where it was until it is picked up
  const mine = ownUnits(s, c.me).filter((x) => x.id !== u.id);
  const enemies = enemyUnits(s, c.me);
  const oc = unitOC(s, u);
  const mv = unitMove(s, u);
  let rangeMax = 0;
  for (const use of weaponUses(s, u, false)) rangeMax = Math.max(rangeMax, weaponRange(s, u, use.profile));
  // the spread of its models once set up (it is not on the battlefield yet, or is about to leave it)
  const spread = spreadOf(u.models.filter((m) => m.alive).length);
  // what each enemy unit is to this unit, the same for every spot
  const foes = enemies.map((e) => {
    const g = unitGeo(s, e);
    return { g, body: unitDisc(s, e, g, g.r), threat: unitAttackPotential(s, e, u, false), worth: unitAttackPotential(s, u, e, false) };
  });
  return (o) => {
    let v = 0;
    // markers it can reach in its first move(s)
    for (const ob of s.objectives) {
      const d = dist(ob.pos, o);
      v += (oc > 0 ? 6 + oc : 3) / (1 + Math.max(0, d - mv - 4) / 6);
    }
    // spread out
    for (const x of mine) if (dist(unitGeo(s, x), o) < 6) v -= 4;
    // out of the enemy's guns, hidden where possible: an enemy unit that cannot see the spot counts as in
    // the movement's danger (WEIGHTS.hiddenDanger). Whoever goes first shoots before the other moves.
    const at = c.w.hiddenDanger < 1 && c.w.deploySight > 0 ? unitDisc(s, u, o, spread) : null;
    for (const f of foes) {
      const d = dist(f.g, o);
      const share = at && !sees(c, f.body, at) ? c.w.hiddenDanger : 1;
      v -= c.w.deployDanger * share * f.threat * (d < 30 ? 1 : 0.3);
      if (rangeMax > 0 && d <= rangeMax + mv) v += f.worth / 60;
    }
    if (o.infiltrate) v += 2;
    return v;
  };
}

/**
 * How much better (a share of its spot's score, at least 3 points) a spot the unit must find if set up again
 * now (the enemy deployed) than where it stands. With 3 points flat, the Corsair Coterie mirror redeployed
 * three units a side every game, and the heuristic that never redeploys won 101 of 200 games against its 91
 * (seed 7, 8 draws): no gain, so only a clearly worse spot is left now.
 */
const REDEPLOY_MARGIN = { share: 0.15, min: 3 };

/**
 * Redeploy: the unit that gains most by being set up again on the best spot its redeployment offers (its
 * deployment zone's anchors, an Infiltrators unit's points beyond it), by the deployment's own scoring, now
 * that the enemy has deployed; none when no unit gains more than REDEPLOY_MARGIN. Strategic Reserves are not
 * weighed (as at Declare Battle Formations).
 */
function decideRedeploy(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as RedeployOption[];
  const zone = Number(req.context?.zone);
  if (!Number.isInteger(zone)) return 0;
  const anchors = deploymentAnchors(s, zone);
  const infiltration = infiltrationAnchors(s, c.me);
  let best = 0, bestGain = 0;
  options.forEach((o, i) => {
    if ('done' in o) return;
    const u = s.units[o.unit];
    const score = deploySpotScore(c, u);
    const here = score(unitGeo(s, u));
    let top = -Infinity;
    for (const a of anchors) top = Math.max(top, score(a));
    if (canInfiltrate(s, u)) for (const a of infiltration) top = Math.max(top, score({ x: a.x, y: a.y, infiltrate: true }));
    const gain = top - here;
    if (gain > Math.max(REDEPLOY_MARGIN.min, REDEPLOY_MARGIN.share * Math.abs(here)) && gain > bestGain) { best = i; bestGain = gain; }
  });
  return best;
}

/** Where a redeployed unit goes: the best spot by the deployment's scoring (never Strategic Reserves). */
function decideRedeployWhere(c: Ctx, req: DecisionRequest): number {
  const options = req.options as RedeployWhere[];
  const u = c.state.units[String(req.context?.unit)];
  if (!u) return 0;
  const score = deploySpotScore(c, u);
  const i = argmax(options, (o) => ('reserves' in o ? -Infinity : score(o)));
  return i;
}

function decideScoutMove(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const ov = objectiveView(c);
  const options = req.options as ({ done: true } | { unit: string; to: Point; toward: string })[];
  const ctxs = new Map<string, UnitCtx>();
  const here = new Map<string, number>();
  return argmax(options, (o) => {
    if ('done' in o) return 0;
    const u = s.units[o.unit];
    let uc = ctxs.get(u.id);
    if (!uc) {
      uc = { ...unitCtx(c, u), move: scoutsOf(c, u) };
      ctxs.set(u.id, uc);
      here.set(u.id, positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true }));
    }
    const end = endPoint(uc.from, o.to, uc.move, o.toward.startsWith('enemy ') ? 10 : 0);
    return positionScore(c, ov, uc, end, { advanced: false, fellBack: false, noCharge: true }) - here.get(u.id)! - 0.5;
  });
}

function scoutsOf(c: Ctx, u: UnitState): number {
  let x = Infinity;
  for (const comp of u.components) {
    if (comp.destroyed) continue;
    const a = c.state.datasheets[comp.datasheet].coreAbilities.find((k) => k.name === 'Scouts');
    x = Math.min(x, a?.x ?? 0);
  }
  return x === Infinity ? 0 : x;
}

// --- Fate dice and other dice -----------------------------------------------------------------

function decideFateDie(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ none: true } | { fate: number })[];
  const ctx = req.context as { purpose: string; unit: string; count: number; pool: number[] };
  const u = s.units[ctx.unit];
  const pool = ctx.pool;
  // later phases need dice too: the fewer left, the dearer each
  const scarcity = pool.length >= 4 ? 1 : pool.length >= 2 ? 1.3 : 1.6;
  return argmax(options, (o) => {
    if ('none' in o) return 0;
    const v = o.fate;
    const cost = c.w.fateDie * scarcity * (v / 6);
    let gain = 0;
    switch (ctx.purpose) {
      case 'charge': {
        const ch = c.mem.charge;
        if (!ch || ch.unit !== u?.id) break;
        const t = s.units[ch.target];
        if (!t) break;
        const need = chargeNeed(c, u, t);
        const pWith = 1 - Math.max(0, Math.min(6, need - v - 1)) / 6;
        gain = (Math.max(0, need - v <= 1 ? 1 : pWith) - p2d6AtLeast(need)) * ch.value;
        break;
      }
      case 'battle-shock': {
        if (!u) break;
        const need = bestLeadership(s, u) - rollModifier(s, u, 'battle-shock');
        const pWith = need - v <= 1 ? 1 : 1 - Math.min(6, need - v - 1) / 6;
        const row = objectiveSnapshot(s).contrib.get(u.id);
        const worth = (row && row.some((x) => x > 0) ? c.w.objective * 0.8 : 0) + 0.1 * unitValue(s, u);
        gain = (pWith - p2d6AtLeast(need)) * worth;
        break;
      }
      case 'hit': case 'wound': {
        // one die of the roll is this value (a 6 is a Critical): worth most on few, big attacks
        if (ctx.count > 3 || v < 5 || !u) break;
        gain = (v === 6 ? 1 : 0.6) * perAttackWorth(c, u) * (ctx.count === 1 ? 1 : 0.7);
        break;
      }
      case 'save': {
        if (ctx.count > 2 || v < 4 || !u) break;
        gain = (v === 6 ? 1 : 0.7) * Math.min(unitValue(s, u), 3 * pointsPerWound(s, u)) * (ctx.count === 1 ? 1 : 0.6);
        break;
      }
      case 'damage': {
        if (ctx.count > 2 || v < 4) break;
        gain = (v - 3.5) * 4;
        break;
      }
      case 'advance': break;
      default: break;
    }
    return gain - cost;
  });
}

/** Rough worth of one more successful attack of the unit's heaviest weapon. */
function perAttackWorth(c: Ctx, u: UnitState): number {
  let best = 0;
  for (const use of [...weaponUses(c.state, u, false), ...weaponUses(c.state, u, true)]) {
    const d = use.profile.damage;
    const avg = typeof d === 'number' ? d : (d as { n?: number; sides?: number; plus?: number }).sides ? ((d as { n?: number }).n ?? 1) * (((d as { sides: number }).sides + 1) / 2) + ((d as { plus?: number }).plus ?? 0) : 1;
    best = Math.max(best, avg);
  }
  return best * 6;
}

function decideFatePool(req: DecisionRequest): number {
  const pool = (req.context?.pool as number[]) ?? [];
  const score = (v: number) => (v === 6 ? 3 : v === 5 ? 2 : v === 4 ? 0.5 : 0.1);
  const now = pool.reduce((a, v) => a + score(v), 0);
  const expected = (pool.length - 1) * ((3 + 2 + 0.5 + 0.3) / 6);
  return now >= expected ? 0 : 1;
}

function decideBranchingFates(req: DecisionRequest): number {
  const options = req.options as ({ none: true } | { die: number })[];
  const purpose = String(req.context?.purpose ?? '');
  let best = 0;
  let lowest = 7;
  options.forEach((o, i) => { if ('die' in o && o.die < lowest) { lowest = o.die; best = i; } });
  if (best === 0) return 0;
  if (purpose === 'damage') return lowest <= 3 ? best : 0;
  return lowest <= 2 ? best : 0;
}

/** PRETERNATURAL PRECISION's ability (or, a token removed, its second one among those left): the one worth most alone. */
function decidePreternatural(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  if (!u) return 0;
  const options = req.options as string[];
  const choices = options.map((o) => PRETERNATURAL_TWEAKS[PRETERNATURAL_PRECISION_CHOICES.indexOf(o as (typeof PRETERNATURAL_PRECISION_CHOICES)[number])]);
  return bestChoice(c, u, choices).index;
}

/** An Aspect Shrine token turns a failed Hit or Wound roll into a 6: the lowest failed die (tokens unspent at the end are lost). */
function decideShrineTokenDie(req: DecisionRequest): number {
  const needed = Number(req.context?.needed ?? 7);
  let best = 0;
  let lowest = 7;
  (req.options as ({ none: true } | { die: number })[]).forEach((o, i) => { if ('die' in o && o.die < needed && o.die < lowest) { lowest = o.die; best = i; } });
  return best;
}

/**
 * A token removed for a stratagem's extra (a second PRETERNATURAL PRECISION ability, +1 to TO THEIR FINAL
 * BREATH's D6s) rather than kept for a die: a rule of thumb, when the unit has another token left or the
 * battle is near its end (a token unspent then is lost), and for PRETERNATURAL PRECISION only when the second
 * ability adds something.
 */
function decideRemoveShrineToken(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  if (!u || !(Number(req.context?.left ?? 0) >= 2 || s.round >= s.mission.rounds - 1)) return 0;
  if (req.context?.stratagem === 'PRETERNATURAL PRECISION') {
    const gains = PRETERNATURAL_TWEAKS.map((x) => volleyGain(c, u, x.tweak)).sort((a, b) => b - a);
    return gains[1] > 0 ? 1 : 0;
  }
  return 1;
}

// --- abilities asking a choice -----------------------------------------------------------------

function tweakFor(weapon: string | null, f: (p: Parameters<PlanTweak>[0]) => void): PlanTweak {
  return (p, info) => { if (weapon === null || info.weapon === weapon) f(p); };
}

/** Enemy units the unit is fighting (or could charge this turn). */
function foesOf(c: Ctx, u: UnitState): UnitState[] {
  const engaged = engagedEnemies(c.state, u);
  if (engaged.length) return engaged;
  return enemyUnits(c.state, c.me).filter((e) => unitDistance(c.state, u, e) <= 12);
}

function decideDanceOfDeath(c: Ctx, req: DecisionRequest): number {
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

function decideMartialWarrior(c: Ctx, req: DecisionRequest): number {
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

function decideTargetingArray(c: Ctx, req: DecisionRequest): number {
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

function decideNovaCharge(c: Ctx, req: DecisionRequest): number {
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
function decideOversightDrone(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  const gain = volleyGain(c, u, (p) => { if (!p.melee) p.ignoresCover = true; });
  return gain > tokenThreshold(c, 1) ? (req.options as string[]).indexOf('use') : 0;
}

/** Blacklight Marker Drones (twice per battle): the Guided unit's re-rolls of Wound rolls of 1 at the Spotted unit, when they add enough. */
function decideBlacklight(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  const spotted = String(req.context?.spotted);
  const only = (t: UnitState) => t.id === spotted;
  const gain = bestVolley(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'ones'); }, only) - bestVolley(c, u, undefined, only);
  return gain > tokenThreshold(c, 2) ? (req.options as string[]).indexOf('use') : 0;
}

/** A once-per-battle protection when targeted (Nova Shielding, Duality Shield): used when it saves enough of this attack. */
function decideShield(c: Ctx, req: DecisionRequest, tweak: PlanTweak): number {
  const u = c.state.units[String(req.context?.unit)];
  const attacker = String(req.context?.attacker);
  const saved = incomingSaved(c, { name: 'shooting/after-enemy-targets', unit: attacker, targets: [u.id] }, u, tweak);
  return saved > tokenThreshold(c, 1) ? (req.options as string[]).indexOf('use') : 0;
}

/** Kroot Packmates (once per turn): answer when the unit's guns can hurt the attacker. */
function decidePackmates(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  const attacker = String(req.context?.attacker);
  return bestVolley(c, u, undefined, (t) => t.id === attacker) > 0 ? (req.options as string[]).indexOf('use') : 0;
}

/**
 * Nova Burst (once per battle, Move 18"): used for a move whose destination lies beyond the unit's reach
 * without it (its Move, plus the expected Advance when it Advances), so that the extra inches are walked.
 */
function decideNovaBurst(c: Ctx, req: DecisionRequest): number {
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
function decideMicrodrones(c: Ctx, req: DecisionRequest): number {
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
function decideCruelAmusement(c: Ctx, req: DecisionRequest): number {
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
function decideBlitz(c: Ctx, req: DecisionRequest): number {
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
function pickEnemy(c: Ctx, req: DecisionRequest, score: (e: UnitState) => number): number {
  const s = c.state;
  const options = req.options as string[];
  return argmax(options, (id) => { const e = s.units[id]; return e ? score(e) : -Infinity; });
}

/** How much the enemy unit can hurt my army (its best attacks against any of my units). */
function offense(c: Ctx, e: UnitState): number {
  let best = 0;
  for (const m of ownUnits(c.state, c.me)) best = Math.max(best, unitAttackPotential(c.state, e, m, false) + 0.5 * unitAttackPotential(c.state, e, m, true));
  return best;
}

function decideFlyover(c: Ctx, req: DecisionRequest): number {
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
function decideSpiritMark(c: Ctx, req: DecisionRequest): number {
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
function decideTearsOfIsha(c: Ctx, req: DecisionRequest): number {
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

function decideDroneHarassment(c: Ctx, req: DecisionRequest): number {
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
function embarkSafety(c: Ctx, u: UnitState): number {
  const s = c.state;
  const row = objectiveSnapshot(s).contrib.get(u.id);
  if (row && row.some((x) => x > 0)) return -1;
  const g = unitGeo(s, u);
  const d = Math.min(dangerFrom(dangerSources(s, u), g, g.r), 1.25 * unitValue(s, u));
  return c.w.danger * d - 5;
}

function decideRapidEmbarkation(c: Ctx, req: DecisionRequest): number {
  const options = req.options as ({ none: true } | { unit: string })[];
  return argmax(options, (o) => ('none' in o ? 0 : embarkSafety(c, c.state.units[o.unit])));
}

/** Inevitable Death: the Yncarne goes where the friendly unit fell when it is not fighting and that spot is nearer an enemy model. */
function decideInevitableDeath(c: Ctx, req: DecisionRequest): number {
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

function decideEmbark(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ stay: true } | { transport: string })[];
  const u = c.mem.moved ? s.units[c.mem.moved] : null;
  if (options.length < 2 || !u || !onBattlefield(u)) return 0;
  // get back in when where it stands is worth less than nothing (no marker, nothing to shoot, in danger)
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: u.flags.advanced, fellBack: u.flags.fellBack });
  lastScores = options.map((o) => ('stay' in o ? 0 : -here - 10));
  return here < -10 ? 1 : 0;
}

function decideFocusedFireChoice(c: Ctx, req: DecisionRequest): number {
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

// --- the agent ----------------------------------------------------------------------------------

/** `random`: the agent's own seeded stream, for deployment variety (WEIGHTS.deployVariety); without it the agent draws nothing. */
export function createHeuristic(params: Partial<Weights> = {}, name = 'heuristic', random: Pick<Stream, 'int'> | null = null): Agent {
  const w: Weights = { ...WEIGHTS, ...params };
  const mem: Memory = { assigned: new Map(), assignedFor: '', heading: new Map(), headingGen: 0, headingKey: '', charge: null, moved: null, moveRank: { key: '', gains: new Map() }, sight: sightMemory('', null) };
  return {
    name,
    decide(view: GameView, req: DecisionRequest) {
      const state = view.state as GameState;
      const c: Ctx = { state, me: view.player, opp: opponent(view.player), w, mem, board: boardOf(state), random };
      const phaseKey = `${state.round}:${state.turn}:${state.phase}`;
      if (mem.headingKey !== phaseKey) { mem.heading.clear(); mem.headingKey = phaseKey; mem.headingGen++; }
      if (mem.sight.key !== phaseKey || mem.sight.board !== c.board) mem.sight = sightMemory(phaseKey, c.board);
      const unit = String(req.context?.unit ?? '');
      if (req.kind === 'move' && unit) mem.moved = unit;
      if (req.kind === 'shoot-target' || req.kind === 'fight-target') {
        const key = `${phaseKey}:${req.kind}:${unit}`;
        if (mem.assignedFor !== key) { mem.assigned.clear(); mem.assignedFor = key; }
      }
      lastScores = [];
      const option = decideKind(c, req);
      const o = Math.max(0, Math.min(req.options.length - 1, option));
      const explanation = why(req);
      return explanation ? { option: o, why: explanation } : { option: o };
    },
    rerollPolicy(_view, roll) {
      // Hit and Wound rolls: fish for Critical results only when the rules grant it; otherwise re-roll failures
      return roll.granted;
    },
  };
}

function decideKind(c: Ctx, req: DecisionRequest): number {
  switch (req.kind) {
    case 'first-turn': return 0;
    // the engine offers first the model a player would remove (the most valuable coherent group kept)
    case 'coherency-removal': return 0;
    // likewise for a model lost to Desperate Escape or a destroyed transport: a Bodyguard model before its Leader, from the unit's edge
    case 'select-casualty': return 0;
    case 'deploy': return decideDeploy(c, req);
    // Rallying Cry: a GUARDIANS unit set up now, where deploy would set it up (never declined)
    case 'rallying-cry': return 1 + decideDeploy(c, { ...req, options: req.options.slice(1) });
    case 'redeploy': return decideRedeploy(c, req);
    case 'redeploy-where': return decideRedeployWhere(c, req);
    case 'scout-move': return decideScoutMove(c, req);
    case 'select-unit-to-move': return decideSelectMove(c, req);
    case 'move': return decideMove(c, req);
    case 'fire-and-fade': case 'torchstar-gambit': return decideFireAndFade(c, req);
    // the first transport offered (any of them keeps the unit safe)
    case 'skyborne-sanctuary': return 0;
    case 'preternatural-precision': return decidePreternatural(c, req);
    case 'aspect-shrine-token': return decideShrineTokenDie(req);
    case 'remove-aspect-shrine-token': return decideRemoveShrineToken(c, req);
    // the re-roll its attacks this phase gain more from (Hit rolls of 1 on a tie)
    case 'path-of-the-warrior': {
      const u = c.state.units[String(req.context?.unit)];
      if (!u) return 0;
      const gains = PATH_OF_THE_WARRIOR_TWEAKS.map((t) => phaseAttackGain(c, u, t));
      return gains[1] > gains[0] ? 1 : 0;
    }
    case 'prototype-weapon-system': { const u = c.state.units[String(req.context?.unit)]; return u ? bestChoice(c, u, PROTOTYPE_WEAPON_TWEAKS).index : 0; }
    // the blast when it hurts the enemy more than my own units, else none
    case 'fail-safe-detonator': {
      const u = c.state.units[String(req.context?.unit)];
      const m = u?.models.find((x) => x.id === req.context?.model);
      const dd = m ? deadlyDemiseMean(c.state, m) : null;
      return Math.max(0, (req.options as number[]).indexOf(m && dd !== null && blastValue(c, m, dd, 6) > 0 ? 6 : 1));
    }
    case 'select-unit-to-shoot': return decideSelectShoot(c, req);
    case 'shoot-target': return decideShootTarget(c, req);
    case 'for-the-greater-good': return decideGuidance(c, req);
    case 'select-unit-to-charge': return decideChargeUnit(c, req);
    case 'charge-targets': return decideChargeTargets(c, req);
    case 'precision-target': return decidePrecisionTarget(c, req);
    case 'firing-deck': return decideFiringDeck(c, req);
    case 'pistols': return decidePistols(c, req);
    case 'select-unit-to-fight': return decideSelectFight(c, req);
    case 'fight-target': return decideFightTarget(c, req);
    case 'fight-weapon': return decideFightWeapon(c, req);
    case 'stratagem': return decideStratagem(c, req);
    case 'fate-die': return decideFateDie(c, req);
    case 'battle-focus': return decideBattleFocus(c, req);
    // Fade Back, Opportunity Seized: weighed as Shade of Twilight's move, D6+1" long
    case 'battle-focus-move': return decideShadeOfTwilight(c, req, battleFocusReach(c, req), false);
    // the Warhost's FIRE AND FADE: a D6+1" move after shooting, no charge after it
    case 'fire-and-fade-move': return decideShadeOfTwilight(c, req, D6_PLUS_1_REACH, true);
    // SERPENT STRIKE's Consolidation in any direction, its reach rolled already (first option: toward an objective, weighed as staying)
    case 'consolidate-any-direction': return decideShadeOfTwilight(c, req, Number(req.context?.reach ?? 3), false);
    // Superlative Strategist: a D6+1" move's die of 1 or 2 is re-rolled
    case 'battle-focus-reroll': return Number(req.context?.roll ?? 6) <= 2 ? 1 : 0;
    case 'fate-pool': return decideFatePool(req);
    case 'branching-fates': return decideBranchingFates(req);
    case 'reinforcement': case 'rapid-ingress': return decideReinforcement(c, req);
    case 'embark': return decideEmbark(c, req);
    // the same threshold expectedAdvance counts on
    case 'reroll-advance': return Number(req.context?.roll ?? 6) <= ADVANCE_REROLL_AT_MOST ? 1 : 0;
    case 'martial-warrior': return decideMartialWarrior(c, req);
    case 'threat-assessment': { const u = c.state.units[String(req.context?.unit)]; return u ? bestChoice(c, u, THREAT_ASSESSMENT_TWEAKS).index : 0; }
    case 'experimental-ammunition': { const u = c.state.units[String(req.context?.unit)]; return u ? bestChoice(c, u, EXPERIMENTAL_AMMUNITION_TWEAKS).index : 0; }
    case 'dance-of-death': return decideDanceOfDeath(c, req);
    case 'targeting-array': return decideTargetingArray(c, req);
    case 'nova-charge': return decideNovaCharge(c, req);
    case 'oversight-drone': return decideOversightDrone(c, req);
    case 'nova-shielding': return decideShield(c, req, (p) => { if (p.strength > p.toughness) p.woundModifier -= 1; });
    case 'd-strike': { const u = c.state.units[String(req.context?.unit)]; return argmax(req.options as string[], (id) => dStrikeStun(c, u, id)); }
    // Shieldmaster: close the door behind the unit when enemy units within 12" stand beyond it
    case 'shieldmaster': {
      const u = c.state.units[String(req.context?.unit)];
      return argmax(req.options as ({ keep: true } | string)[], (o) => {
        const h = typeof o === 'string' ? (c.state.board.hatchways ?? []).find((x) => x.id === o) : undefined;
        return h ? enemiesBeyondHatchway(c.state, u, h, 12).length : 0;
      });
    }
    case 'unerring-strike': return decideUnerringStrike(c, req);
    case 'runes-of-sanctuary': return decideShield(c, req, (p) => { p.ap = Math.min(0, p.ap + 1); });
    case 'duality-shield': return decideShield(c, req, (p) => { p.invulnerable = p.invulnerable === null ? 2 : Math.min(p.invulnerable, 2); });
    case 'kroot-packmates': case 'drone-escort': return decidePackmates(c, req);
    case 'nova-burst': return decideNovaBurst(c, req);
    case 'target-optimisation-microdrones': return decideMicrodrones(c, req);
    // free mortal wounds: at the unit that loses most for each wound
    case 'lightning-assault': case 'pulse-bombs': case 'internal-grenade-racks': case 'eviscerating-fly-by': return argmax(req.options as ({ none: true } | { unit: string })[], (o) => ('none' in o ? 0 : pointsPerWound(c.state, c.state.units[o.unit])));
    case 'blacklight-marker-drones': return decideBlacklight(c, req);
    case 'grenade-pack-flyover': return decideFlyover(c, req);
    case 'drone-harassment': return decideDroneHarassment(c, req);
    case 'rapid-embarkation': case 'lithe-embarkation': return decideRapidEmbarkation(c, req);
    case 'focused-fire': return decideFocusedFireChoice(c, req);
    // my AELDARI attacks hit (Guide), wound (Doom) or score Critical Hits (Whispering Web) more easily: the enemy my army can hurt most
    case 'guide':
    case 'doom':
    case 'whispering-web': return pickEnemy(c, req, (e) => armyCanHurt(c, e));
    case 'crystalline-targeting': {
      const s = c.state;
      const apPlus: PlanTweak = (p) => { p.ap -= 1; };
      return pickEnemy(c, req, (e) => {
        let v = 0;
        for (const m of ownUnits(s, c.me)) if (!m.flags.shot) v += attackOn(c, m, e, false, apPlus) - attackOn(c, m, e, false);
        return v;
      });
    }
    // riven (+1 Strength for my AELDARI attacks this turn): against the unit my units yet to shoot gain the most on
    case 'fury-of-the-void': {
      const s = c.state;
      const stronger: PlanTweak = (p) => { p.strength += 1; };
      return pickEnemy(c, req, (e) => {
        let v = 0;
        for (const m of ownUnits(s, c.me)) if (!m.flags.shot && m.keywords.includes('AELDARI')) v += attackOn(c, m, e, false, stronger) - attackOn(c, m, e, false);
        return v + 0.001 * unitValue(s, e);
      });
    }
    // no Benefit of Cover this phase: against the unit my units yet to shoot gain the most on
    case 'target-acquisition': {
      const s = c.state;
      const open: PlanTweak = (p) => { p.ignoresCover = true; p.cover = false; };
      return pickEnemy(c, req, (e) => {
        let v = 0;
        for (const m of ownUnits(s, c.me)) if (!m.flags.shot) v += attackOn(c, m, e, false, open) - attackOn(c, m, e, false);
        return v + 0.001 * unitValue(s, e);
      });
    }
    case 'shade-of-twilight': return decideShadeOfTwilight(c, req);
    // Asurmen's unit: a Normal move of up to 6", weighed as Shade of Twilight's D6"
    case 'tactical-acumen': return decideShadeOfTwilight(c, req, 6);
    case 'trail-finding': case 'path-of-the-outcast': case 'reaver-band': return decideShadeOfTwilight(c, req, SHADE_REACH, false);
    // end of the Fight phase: a D3+3" Normal move or Fall Back (5" on average), its turn over, so no charge lost
    case 'raid-and-run': return decideShadeOfTwilight(c, req, 5, false);
    // INTERLOCKING MANOUEVRES: a 6" Normal move or a Fall Back, at the end of a Fight phase
    case 'interlocking-manoeuvres': return decideShadeOfTwilight(c, req, INTERLOCKING_MOVE, false);
    // the Twin Lance's Retro-thrusters: a 6" Normal move or a Fall Back at the end of a Fight phase, as above
    case 'retro-thrusters': return decideShadeOfTwilight(c, req, 6, false);
    // Neocapacitor Shields: the enemy unit whose failed Battle-shock test costs its side most, and whose charges
    // at my units the -1 is likeliest to foil
    case 'neocapacitor-shields': return pickEnemy(c, req, (e) => battleShockCost(c, e, 0) + 0.5 * impedingFireGain(c, e));
    // TRICKSTERS' RETORT, WEAVING STRIDE (the opponent's Movement phase) and WEAVERS' COILS (the end of the
    // player's Fight phase): no charge of this turn is lost; VENOMOUS WRATH forbids the charge anyway
    case 'tricksters-retort': case 'weaving-stride': return decideShadeOfTwilight(c, req, STRIDE_MOVE, false);
    case 'venomous-wrath': return decideShadeOfTwilight(c, req, VENOMOUS_WRATH_MOVE, false);
    case 'weavers-coils': { const u = c.state.units[String(req.context?.unit)]; return decideShadeOfTwilight(c, req, u && isEngaged(c.state, u) ? WEAVERS_COILS_FALL_BACK : u ? unitMove(c.state, u) : 6, false); }
    // Cegorach's Coil: the enemy unit whose wounds are worth most (how many of the unit's models reach each is not weighed)
    case 'cegorachs-coil': return argmax(req.options as string[], (id) => { const e = c.state.units[id]; return e ? pointsPerWound(c.state, e) : 0; });
    case 'admired-leader': return decideAdmiredLeader(c, req);
    case 'aerial-disengagement': return decideShadeOfTwilight(c, req, 6, false);
    // a Battle-shock test (at -1 for Face of Death): the unit whose failed test costs the enemy most
    case 'face-of-death':
    case 'horrify':
    case 'devastating-assault': return decideDroneHarassment(c, req);
    // Move 24" for a mortal wound per six models and no charge: taken when the chosen destination is out of reach of the unit's own Move
    case 'flickerjump': {
      const u = c.state.units[String(req.context?.unit)];
      const to = req.context?.to as Point | undefined;
      const options = req.options as string[];
      const far = u !== undefined && to !== undefined && dist(unitGeo(c.state, u), to) > unitMove(c.state, u) + 1;
      return Math.max(0, options.indexOf(far ? 'use' : 'keep'));
    }
    case 'cruel-amusement': return decideCruelAmusement(c, req);
    case 'blitz': return decideBlitz(c, req);
    // a Battle-shock test (at -1 when the Death Jester destroyed a model of it): as for Drone Harassment
    case 'death-is-not-enough': return decideDroneHarassment(c, req);
    // re-rolls of 1 all battle against one keyword: the one the enemy army has most value in (unit order breaks ties)
    case 'fated-hero': {
      const s = c.state;
      const enemies = s.unitOrder.map((id) => s.units[id]).filter((e) => e.player === c.opp && e.location !== 'attached' && e.location !== 'destroyed');
      return argmax(req.options as string[], (k) => enemies.reduce((v, e) => v + (e.keywords.includes(k) ? unitValue(s, e) : 0), 0));
    }
    // -1 to wound for its attacks: the enemy unit that can hurt my army most
    case 'misfortune': return pickEnemy(c, req, (e) => offense(c, e));
    // its Charge rolls halved (TANGLEBOMB BOLAS): the unit whose charges that foils most, else the most dangerous
    case 'tanglebomb-bolas': return pickEnemy(c, req, (e) => tanglebombGain(c, e) + 0.01 * offense(c, e));
    // LETHAL HITS and PRECISION against it all battle: the most valuable enemy unit
    case 'piratical-raiders':
    case 'experienced-leader':
    case 'bounty-hunters': return pickEnemy(c, req, (e) => unitValue(c.state, e));
    // Stealth this phase: the most valuable friendly unit that lacks it (options: units, then none)
    case 'hallucinogen-grenades': {
      const s = c.state;
      return argmax(req.options as ({ none: true } | { unit: string })[], (o) => {
        if ('none' in o) return 0;
        const u = s.units[o.unit];
        return u && !u.abilities.includes('Stealth') ? 1 + unitValue(s, u) : -1;
      });
    }
    // Infiltrators only add places to set the unit up: every unit offered, until none is left
    case 'ethereal-pathway': return req.options.length > 1 ? 1 : 0;
    // Deep Strike only adds ways to hold the unit back (the Reserves choice comes next): every unit offered
    case 'student-of-kauyon': return req.options.length > 1 ? 1 : 0;
    // the platform is wounded as its crew is and scores with it: join the first Guardian Defenders unit offered
    case 'support-artillery': return req.options.length > 1 ? 1 : 0;
    case 'inevitable-death': return decideInevitableDeath(c, req);
    // Skyfire: free shots at more FLY units: each one offered, until none is left
    case 'skyfire': return req.options.length > 1 ? 1 : 0;
    // a rider into Strategic Reserves at the end of the opponent's turn: when arriving again gains more than staying
    // Seer Council. Lucid Eye: a die raised to the highest value it can reach (a 6 serves most rolls a Fate die
    // replaces); PRESENTIMENT OF DREAD: the enemy unit whose Battle-shock test (-1) costs its side most;
    // UNSHROUDED TRUTH: where the unit scores best
    case 'lucid-eye': return argmax(req.options as ({ none: true } | { die: number; to: number })[], (o) => ('none' in o || o.to < o.die ? 0 : o.to));
    case 'presentiment-of-dread': return argmax(req.options as string[], (id) => battleShockCost(c, c.state.units[id], -1));
    case 'unshrouded-truth': {
      const u = c.state.units[String(req.context?.unit)];
      return Math.max(0, bestArrival(c, u, (req.options as { x: number; y: number }[]).map((o) => ({ ...o, unit: u.id }))).index);
    }
    case 'ride-the-wind': return argmax(req.options as ({ done: true } | { unit: string })[], (o) => ('done' in o ? 0 : strategicReservesGain(c, c.state.units[o.unit]) - 5));
    case 'overflight': return decideShadeOfTwilight(c, req, OVERFLIGHT_MOVE, false);
    case 'into-the-breach': return decideShadeOfTwilight(c, req, D6_PLUS_1_REACH, false);
    // RAPID AMBUSH's Normal move of up to D6" (3.5" on average), after which the unit may still charge
    case 'rapid-ambush': return decideShadeOfTwilight(c, req, SHADE_REACH, false);
    // LETHAL RUSE's mortal wounds: on the enemy unit whose wounds are worth most
    case 'lethal-ruse': return pickEnemy(c, req, (e) => pointsPerWound(c.state, e));
    // Monofilament Snare: a sixth of its models' worth of wounds each time it moves: the unit with most models, by their worth
    case 'monofilament-snare': return pickEnemy(c, req, (e) => e.models.filter((m) => m.alive).length * pointsPerWound(c.state, e));
    // Herald of Ynnead: the enemy unit my units in combat with it can hurt most in melee
    case 'herald-of-ynnead': return pickEnemy(c, req, (e) => { let v = 0; for (const m of engagedEnemies(c.state, e)) v += unitAttackPotential(c.state, m, e, true); return v; });
    // Psytronome Shaper: the engine offers the model that lost the most wounds first
    case 'psytronome-shaper': return 0;
    // IMPEDING FIRE: the enemy unit whose charge it is likeliest to foil
    case 'impeding-fire': return pickEnemy(c, req, (e) => impedingFireGain(c, e));
    // Spirit Conclave. CRUSHING STRIDES: the enemy unit whose wounds are worth most; SEER'S EYE: the enemy unit the
    // Wraith unit's attacks do most against; Light of Clarity: the unit on a marker with the most OC to gain; Stave
    // of Kurnous: the unit with the most damage to deal; Rune of Mists: the most valuable unit
    case 'crushing-strides': return pickEnemy(c, req, (e) => pointsPerWound(c.state, e));
    case 'seers-eye': {
      const u = c.state.units[String(req.context?.unit)];
      return u ? pickEnemy(c, req, (e) => attackOn(c, u, e, c.state.phase === 'fight')) : 0;
    }
    case 'light-of-clarity': {
      const s = c.state;
      return argmax(req.options as string[], (id) => {
        const u = s.units[id];
        let oc = 0;
        for (const m of u.models) if (m.alive) oc += s.datasheets[m.datasheet].keywords.includes('MONSTER') ? 3 : 1;
        return oc * (withinObjectiveRange(s, u) ? 1 : 0.3);
      });
    }
    case 'stave-of-kurnous': return argmax(req.options as string[], (id) => bestPotential(c, c.state.units[id]));
    case 'rune-of-mists': return argmax(req.options as string[], (id) => unitValue(c.state, c.state.units[id]));
    // a Normal move of up to 6" in the opponent's Movement phase: no charge of this turn is lost
    case 'higher-duty': return decideShadeOfTwilight(c, req, 6, false);
    // Devoted of Ynnead. Lethal Intent: the first unit offered, whose move is then weighed as Battle Focus's (none
    // when it gains nothing); Lethal Surge: into the shooter when the unit does more to it in melee than it takes
    // back and than its own guns do; Lethal Reprisal: a unit in combat, the one worth most; Storm of Whispers: as
    // `face-of-death`
    case 'lethal-intent': return req.options.length > 1 ? 1 : 0;
    case 'lethal-intent-move': return decideShadeOfTwilight(c, req, D6_PLUS_1_REACH, false);
    case 'lethal-surge': {
      const s = c.state;
      const u = s.units[String(req.context?.unit)];
      const e = s.units[String(req.context?.enemy)];
      if (!u || !e) return 0;
      const strike = attackOn(c, u, e, true);
      return strike > attackOn(c, e, u, true) && strike > bestVolley(c, u) ? 1 : 0;
    }
    case 'lethal-reprisal': return argmax(req.options as string[], (id) => {
      const u = c.state.units[id];
      return (isEngaged(c.state, u) ? 1000 : 0) + unitValue(c.state, u);
    });
    case 'storm-of-whispers': return decideDroneHarassment(c, req);
    case 'suppression-volley': case 'harassment-fire': return pickEnemy(c, req, (e) => offense(c, e));
    case 'fire-support': case 'a-trap-well-laid': return pickEnemy(c, req, (e) => unitValue(c.state, e));
    case 'pulse-onslaught': return pickEnemy(c, req, (e) => { let b = 0; for (const m of ownUnits(c.state, c.me)) b = Math.max(b, unitAttackPotential(c.state, e, m, true)); return b + 0.01 * unitValue(c.state, e); });
    case 'tank-shock-target': return pickEnemy(c, req, (e) => pointsPerWound(c.state, e));
    case 'trap-objective': {
      const best = bestTrapObjective(c);
      const options = req.options as string[];
      return Math.max(0, best ? options.indexOf(best.id) : 0);
    }
    case 'combat-embarkation': return 0;
    // free, but a unit off the board misses the end of this turn: only for a clear gain
    case 'airborne-agility':
    case 'webway-pathstone':
    case 'webway-shunt-generator':
    case 'starflare-ignition':
    case 'cloudstrider':
    case 'skyleap': {
      const u = c.state.units[String(req.context?.unit)];
      const options = req.options as string[];
      const go = u !== undefined && strategicReservesGain(c, u) > c.w.airborneAgilityMargin;
      return Math.max(0, options.indexOf(go ? 'strategic-reserves' : 'stay'));
    }
    // the marker nearest the bearer's unit: where it will stand to add its Objective Control
    case 'strategic-conqueror': {
      const s = c.state;
      const u = s.units[String(req.context?.unit)];
      if (!u) return 0;
      const at = unitGeo(s, u);
      return argmax(req.options as string[], (id) => { const o = s.objectives.find((x) => x.id === id)!; return -dist(at, o.pos); });
    }
    // +1 to hit for the VEHICLE whose guns can hurt the enemy most
    case 'guiding-presence': {
      const s = c.state;
      return argmax(req.options as string[], (id) => {
        const u = ownUnits(s, c.me).find((x) => x.models.some((m) => m.id === id));
        let best = 0;
        if (u) for (const e of enemyUnits(s, c.me)) best = Math.max(best, unitAttackPotential(s, u, e, false));
        return best;
      });
    }
    // the engine offers the model that lost the most wounds first
    case 'spirit-stone': return 0;
    case 'spirit-mark': return decideSpiritMark(c, req);
    case 'tears-of-isha': return decideTearsOfIsha(c, req);
    // Wraith-Marked: the test most likely passed (a WRAITH CONSTRUCT unit tests at -2); a pass secures the marker
    case 'wraith-marked': return argmax(req.options as ({ none: true } | { unit: string; objective: string })[], (o) => {
      if ('none' in o) return 0;
      const u = c.state.units[o.unit];
      return p2d6AtLeast(bestLeadership(c.state, u) + (u.keywords.includes('WRAITH CONSTRUCT') ? 2 : 0)) * 0.5 * c.w.objective;
    });
    // Direct Guidance helps only a unit that Fell Back
    case 'direct-guidance': return argmax(req.options as string[], (id) => (c.state.units[id].flags.fellBack ? unitValue(c.state, c.state.units[id]) : 0));
    // Song of Renewal: the unit whose returned model is worth most
    case 'song-of-renewal': return argmax(req.options as ({ none: true } | string)[], (o) => {
      if (typeof o !== 'string') return 0;
      const w = c.state.units[o];
      const dead = w.models.find((m) => !m.alive);
      return dead ? characteristic(c.state, w, dead, 'W') * pointsPerWound(c.state, w) : 0;
    });
    // XV02 Pilot Battlesuit: the Hammerhead with the most wounds left comes first
    case 'xv02-pilot-battlesuit': return 0;
    // Scouts 6" costs nothing: the most valuable units first
    case 'strike-swiftly': return argmax(req.options as ({ done: true } | { unit: string })[], (o) => ('done' in o ? -1 : unitValue(c.state, c.state.units[o.unit])));
    // two uses a battle: kept for heavy hits (a mean Damage of 3 or more an attack), then as many as allowed
    case 'stealth-drones': return (req.context as { meanDamage: number }).meanDamage >= WEIGHTS.stealthDronesDamage ? req.options.length - 1 : 0;
    case 'attach-leader': return decideAttachLeader(c, req);
    case 'reserves': return decideReserves(c, req);
    case 'start-embarked': return decideStartEmbarked(c, req);
    default: return 0;
  }
}

/**
 * What a unit's weapons can do to the enemy army, summed over its units, with its guns and in melee;
 * `nearRanged`: the part of `ranged` from guns of `nearRange` inches or less.
 */
function armyThreat(s: GameState, me: PlayerIndex, u: UnitState, nearRange = 0): { ranged: number; melee: number; nearRanged: number } {
  let ranged = 0, melee = 0, nearRanged = 0;
  for (const id of s.unitOrder) {
    const e = s.units[id];
    if (e.player === me || e.location === 'attached' || e.location === 'destroyed') continue;
    ranged += unitAttackPotential(s, u, e, false);
    // the potentials are remembered: the second sum reads the same list
    if (nearRange > 0) nearRanged += unitAttackPotential(s, u, e, false, nearRange);
    melee += unitAttackPotential(s, u, e, true);
  }
  return { ranged, melee, nearRanged };
}

function totalThreat(s: GameState, me: PlayerIndex, u: UnitState): number {
  const t = armyThreat(s, me, u);
  return t.ranged + t.melee;
}

/**
 * Attach a Leader where the Attached unit does most: the damage the Attached unit can deal beyond the
 * two units apart (the Leader's buffs, priced by the calculator on a copy of the state with the Leader
 * attached), plus the protection the Bodyguard gives the Leader.
 */
function decideAttachLeader(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { leader: string; bodyguard: string | null }[];
  const leader = s.units[options[0].leader];
  const enemies = s.unitOrder.filter((id) => s.units[id].player !== c.me).length || 1;
  const alone = totalThreat(s, c.me, leader);
  return argmax(options, (o) => {
    if (!o.bodyguard) return 0;
    const b = s.units[o.bodyguard];
    const h = cloneState(s);
    applyEvent(h, { type: 'unit-attached', leader: leader.id, bodyguard: b.id });
    const synergy = (totalThreat(h, c.me, h.units[b.id]) - totalThreat(s, c.me, b) - alone) / enemies;
    const { max } = unitWounds(s, b);
    return synergy + c.w.leaderProtection * unitValue(s, leader) * Math.min(1, max / 10);
  });
}

/** A unit that must close in to do its work: short guns (`WEIGHTS.deepStrikeRange`), or melee worth more than its shooting. */
function mustCloseIn(c: Ctx, u: UnitState): boolean {
  const { ranged, melee } = armyThreat(c.state, c.me, u);
  return maxRange(c.state, u) <= c.w.deepStrikeRange || melee > ranged;
}

/** Deep Strike the units that must close in to do their work (short guns, melee); keep the rest on the table. */
function decideReserves(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { unit: string; reserves: 'none' | 'deep-strike' | 'strategic' }[];
  const closeIn = mustCloseIn(c, s.units[options[0].unit]);
  return argmax(options, (o) => (o.reserves === 'deep-strike' && closeIn ? 1 : o.reserves === 'none' ? 0 : -1));
}

/** The share of what a unit can do to the enemy army that needs it close: its melee, and its guns of `WEIGHTS.deepStrikeRange` or less. */
function closeInShare(c: Ctx, u: UnitState): number {
  const t = armyThreat(c.state, c.me, u, c.w.deepStrikeRange);
  const all = t.ranged + t.melee;
  return all > 0 ? (t.melee + t.nearRanged) / all : 0;
}

/**
 * Start embarked the unit that most needs carrying: its worth times the share of its work done close
 * (a TRANSPORT takes it across the table under armour), if that share is at least half; a unit that
 * works from afar starts on the battlefield. Against the same heuristic starting nothing embarked, on the
 * default scenario with both armies given with --armies: 210-166 (24 draws) of 400 games, sides swapped.
 */
function decideStartEmbarked(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { transport: string; unit: string | null }[];
  return argmax(options, (o) => {
    if (o.unit === null) return 0;
    const share = closeInShare(c, s.units[o.unit]);
    return share >= 0.5 ? share * unitValue(s, s.units[o.unit]) : -1;
  });
}

function decideFireAndFade(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as MoveOption[];
  // the unit is the one the stratagem was just used on (the last stratagem use of this player)
  const used = s.players[c.me].stratagemsUsed;
  const id = used.length ? used[used.length - 1].unit : null;
  const u = id ? s.units[id] : null;
  if (!u) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  return argmax(options, (o) => moveScore(c, ov, uc, o));
}

/**
 * Admired Leader (+1 Objective Control, Leadership improved): the unit in range of a marker with the most
 * models there, else the one with the most models (it may get there); never none, it costs nothing.
 */
function decideAdmiredLeader(c: Ctx, req: DecisionRequest): number {
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

/** Inches a Shade of Twilight move is expected to cover (a D6). */
const SHADE_REACH = 3.5;
/** What a Shade of Twilight move must gain over staying (in points) to be made. */
const SHADE_MARGIN = 1;

/**
 * Shade of Twilight after the unit shot: where a Normal move of a D6" toward each destination leaves the
 * unit (no charge this turn then) against staying where it is (its charge kept); a move only for a clear gain.
 * Reactive moves in the opponent's turn (Trail Finding...) cost no charge: `noCharge` false.
 */
function decideShadeOfTwilight(c: Ctx, req: DecisionRequest, reach = SHADE_REACH, noCharge = true): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  if (!u) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const short: UnitCtx = { ...uc, move: reach };
  const flags = { advanced: u.flags.advanced, fellBack: u.flags.fellBack };
  const stay = positionScore(c, ov, uc, uc.from, flags) + SHADE_MARGIN;
  return argmax(req.options as ({ none: true } | MoveOption)[], (o) => ('none' in o ? stay : shortMoveEndScore(c, ov, short, o, { ...flags, noCharge })));
}

function decideFightWeapon(c: Ctx, req: DecisionRequest): number {
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

/** A D6+1" manoeuvre's average reach, with what other rules add to its D6 (Martial Grace). */
function battleFocusReach(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  return D6_PLUS_1_REACH + (u ? manoeuvreRollBonus(c.state, u, String(req.context?.manoeuvre ?? '')) : 0);
}

/**
 * Battle Focus: which Agile Manoeuvre, if any, to spend a token on. A free Fade Back (Fleet of Foot) or a
 * paid one, and Opportunity Seized, when Shade of Twilight's weighing finds a move better than staying; Star
 * Engines for an Advancing VEHICLE with ranged weapons that lack ASSAULT; Swift as the Wind when the unit's
 * destination lies beyond its move; Sudden Strike when a 6" Pile-in brings models into the fight that a 3"
 * one would not; Flitting Shadows as a unit declares a charge while the opponent could still Fire Overwatch.
 * In its own turn the first player keeps one token for the opponent's turn of the same battle round.
 */
function decideBattleFocus(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const ctx = req.context as { kind: string; unit?: string; mode?: string; to?: Point; tokens: number };
  const options = req.options as BattleFocusOption[];
  const ownTurn = s.turn === c.me;
  const keep = ownTurn && s.firstPlayer === c.me && ctx.tokens <= 1;
  return argmax(options, (o) => {
    if ('none' in o) return 0;
    const u = s.units[o.unit];
    if (!u) return -1;
    if (o.manoeuvre === FADE_BACK || o.manoeuvre === OPPORTUNITY_SEIZED) {
      const moves = normalMoveChoices(s, u);
      if (moves.length === 0) return -1;
      const ask = { kind: 'battle-focus-move', player: c.me, prompt: '', options: moves, context: { unit: u.id, manoeuvre: o.manoeuvre } };
      const moved = decideShadeOfTwilight(c, ask, battleFocusReach(c, ask), false) !== 0;
      return moved ? (o.free ? 3 : 2) : -1;
    }
    if (keep) return -1;
    switch (o.manoeuvre) {
      case STAR_ENGINES:
        // a ranged weapon its models carry without ASSAULT as the rules in force give it (the Armoured Warhost's Skilled Crews)
        return hasKeyword(u, 'VEHICLE') && weaponUses(s, u, false).some((use) => !weaponHas(s, u, use.profile, 'ASSAULT')) ? 1.5 : -1;
      case SWIFT_AS_THE_WIND: {
        if (!ctx.to) return -1;
        // an Advance as this unit makes it (a fixed 6" of TIME TO STRIKE, re-rolls, modifiers), not a bare D6
        const reach = unitMove(s, u) + (ctx.mode === 'advance' ? expectedAdvance(s, u) : 0);
        const from = centroidOf(u.models.filter((m) => m.alive && m.pos).map((m) => m.pos!));
        return Math.hypot(ctx.to.x - from.x, ctx.to.y - from.y) - 2 > reach ? 1 : -1;
      }
      case SUDDEN_STRIKE: return suddenStrikeReaches(s, u) ? 1 : -1;
      case FLITTING_SHADOWS: {
        if (ctx.kind !== 'charge-declared' || s.players[c.opp].cp < 1) return -1;
        const used = s.players[c.opp].stratagemsUsed.some((x) => x.name === 'FIRE OVERWATCH' && x.round === s.round && x.turn === s.turn);
        return used ? -1 : 1;
      }
      default: return -1;
    }
  });
}

/** Does a model of the unit stand between 4" and 7" of the closest enemy model (in the fight with a 6" Pile-in, not a 3" one)? */
function suddenStrikeReaches(s: GameState, u: UnitState): boolean {
  const enemies: Body[] = [];
  for (const id of s.unitOrder) {
    const e = s.units[id];
    if (e.player === u.player || e.location !== 'battlefield') continue;
    for (const m of e.models) if (m.alive && m.pos) enemies.push(modelBody(s, m));
  }
  for (const m of u.models) {
    if (!m.alive || !m.pos) continue;
    const b = modelBody(s, m);
    let d = Infinity;
    for (const e of enemies) d = Math.min(d, horizontalDistance(b, e));
    if (d > 4 && d <= 7) return true;
  }
  return false;
}

const factory: AgentFactory = (ctx) => createHeuristic((ctx.params ?? {}) as Partial<Weights>, 'heuristic', ctx.random);
export default factory;
