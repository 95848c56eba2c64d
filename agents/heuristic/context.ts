/**
 * The heuristic's weights (WEIGHTS), its per-game context (Ctx: the state, the player, what it remembers)
 * and the argmax helpers every decision scores its options with (they keep the last scores: lastOptionScores).
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Stream } from '../../src/core/rng.ts';
import type { GameState, PlayerIndex } from '../../src/core/state.ts';
import type { Board } from '../../src/geometry/types.ts';

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

export type Weights = typeof WEIGHTS;

/** Scores of the last argmax (read right after it, to explain the decision). */
export let lastScores: number[] = [];

/** Replace the last scores (a decision that scores its options another way than argmax). */
export function setLastScores(scores: number[]): void {
  lastScores = scores;
}

export function argmax<T>(items: readonly T[], score: (t: T, i: number) => number): number {
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
export function argmaxBounded<T>(items: readonly T[], score: (t: T) => number, bound: (t: T) => number, keep: number): number {
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
export function inBoundOrder<T>(items: readonly T[], bound: (t: T) => number): { t: T; i: number; b: number }[] {
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
export function why(req: DecisionRequest): { candidates: { option: unknown; score: number }[] } | undefined {
  if (lastScores.length !== req.options.length || lastScores.length < 2) return undefined;
  const order = lastScores.map((s, i) => [s, i] as const).filter(([s]) => Number.isFinite(s)).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 3);
  return { candidates: order.map(([s, i]) => ({ option: req.options[i], score: Math.round(s * 10) / 10 })) };
}

/** What the agent remembers between decisions (reset when it no longer applies). */
export interface Memory {
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

export interface SightMemory {
  key: string;
  board: Board | null;
  /** hash of the two discs -> the last entry with that hash (entries: 10 numbers in keys, visible 0/1, next entry of the same hash or -1) */
  seen: Map<number, number>;
  keys: number[];
  visible: number[];
  next: number[];
}

export interface Ctx {
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
