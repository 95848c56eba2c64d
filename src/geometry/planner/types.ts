/**
 * The planner's public types: the request (a unit's models, the mode, how far, where), the world it moves in,
 * and what the planner and the validator answer.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import type { Base, Board, Body, ObjectiveMarker, Vec2, Vec3 } from '../types.ts';
import type { BoardEdge } from '../distance.ts';

export type MoveMode =
  | 'normal'
  | 'advance'
  | 'fallBack'
  | 'charge'
  | 'pileIn'
  | 'consolidate'
  | 'deepStrike'
  | 'strategicReserves'
  | 'disembark'
  | 'setUp'
  | 'embarkCheck';

/** A model on the table. */
export interface WorldModel {
  id: string;
  unitId: string;
  player: string;
  body: Body;
  /** TITANIC: a walker's rule does not pass over it (WalksOver) */
  titanic?: boolean;
  /** a MONSTER or VEHICLE model: friendly MONSTER and VEHICLE models without FLY go round it */
  monsterOrVehicle?: boolean;
}

/** What the planner needs to know of the game: the board with its terrain, every model on the table, the markers. */
export interface World {
  board: Board;
  models: WorldModel[];
  objectives?: ObjectiveMarker[];
}

/** A model of the unit being moved or set up. */
export interface PlanModel {
  id: string;
  /** where it is now; null when it is not on the battlefield (reserves, embarked) */
  body: Body | null;
  /** base and height: required when body is null, taken from body otherwise */
  base?: Base;
  height?: number;
  canFly?: boolean;
  /** a rule lets this move pass over enemy models as a FLY model's Normal move does (Acrobatic Onslaught's charges) */
  overModels?: boolean;
  /**
   * VEHICLE or MONSTER, or any model that is not INFANTRY, BEASTS or FLY (MOUNTED): cannot end a move on a ruin
   * unless it can FLY, nor cross one unless it can FLY or a walker's rule lets it
   */
  isVehicleOrMonster?: boolean;
  /** a MONSTER or VEHICLE model (the keywords alone): without FLY, it goes round friendly MONSTER and VEHICLE models */
  monsterOrVehicle?: boolean;
  /** a walker's rule for this move (Heavy Walker, Titanic Strides...): what it passes over as if it were not there */
  walksOver?: WalksOver;
}

/**
 * What a walker's rule lets a model's Normal, Advance and Fall Back moves pass over as if it were not there:
 * other models (the rules of the TITANIC walkers exclude TITANIC models) and terrain up to a height. It
 * still cannot end within Engagement Range of an enemy model, nor (VEHICLE or MONSTER without FLY) on a ruin.
 */
export interface WalksOver {
  /** TITANIC models too (Titanic Agility, ACROBATIC LEAPS) */
  titanicModels: boolean;
  /** ruins and impassable pieces up to this height, in inches (Infinity: any; a Boarding Actions wall always blocks) */
  terrainHeight: number;
}

export interface MoveRequest {
  mode: MoveMode;
  /** the player who owns the unit: models of other players are enemies */
  player: string;
  unitId: string;
  models: PlanModel[];
  /** inches: Move, Move + Advance roll, Charge roll, 3 for pile-in/consolidate (default 3 for those) */
  maxDistance?: number;
  /** where to go (moves), or where to set up (set-ups; default: zone centroid / board centre / edge middle / transport) */
  destination?: Vec2;
  /** charge targets */
  targetUnitIds?: string[];
  /** setUp: the deployment zone (each model wholly within) */
  zone?: Vec2[];
  /** strategicReserves: allowed board edges (default all four) */
  allowedEdges?: BoardEdge[];
  /** set-ups: areas no part of a base may be over (e.g. the enemy deployment zone) */
  forbiddenZones?: Vec2[][];
  /** disembark, embarkCheck: the transport's model id (in world.models) */
  transportId?: string;
  /** disembark: how far from the transport the models must be set up, wholly within (3" by default; 6" for an Emergency Disembarkation) */
  transportRange?: number;
  /** set-ups: models must be more than this far (horizontally) from every enemy model. Default 9 for
   *  deepStrike and strategicReserves, none (only Engagement Range) for setUp and disembark. */
  minEnemyDistance?: number;
  /** Normal moves and Advances: list the enemy models passed over too, as a Fall Back does (Lightning Assault) */
  movedOver?: boolean;
  /**
   * pileIn, consolidate: a model need not end closer to its closest enemy model when it ends in base
   * contact with another model of that model's unit, as close as can be to the closest enemy unit
   * (Choreographer of War)
   */
  closestUnitContact?: boolean;
  /**
   * pileIn: the move is made only if the unit ends it within Engagement Range of an enemy model (the core
   * rules' Pile-in; a Surge move, planned as a Pile-in, need not)
   */
  endEngaged?: boolean;
}

export interface PlannedMove {
  ok: true;
  /** the end position of each model, in the request's order */
  positions: Vec3[];
  /** the path of each model, start to end (just the end for set-ups) */
  paths: Vec2[][];
  /** length of each model's path (including any change of height) */
  pathLengths: number[];
  /** enemy models passed over on the way (Fall Back only, FLY models included: Desperate Escape tests), sorted */
  crossedEnemyModelIds: string[];
  /** the unit got where it was asked to (centroid within 1" of the destination; charges: always true) */
  reachedDestination: boolean;
  /** per model: in base-to-base contact with an enemy model at the end */
  baseContact: boolean[];
  /** extra information (e.g. why a consolidation did not move) */
  note?: string;
}

export interface PlanFailure {
  ok: false;
  reason: string;
}

export type PlanResult = PlannedMove | PlanFailure;

export type ViolationRule =
  | 'request'
  | 'notOnBattlefield'
  | 'offBoard'
  | 'overlap'
  | 'terrain'
  | 'engagementRange'
  | 'enemyDistance'
  | 'zone'
  | 'edge'
  | 'forbiddenZone'
  | 'transport'
  | 'distance'
  | 'path'
  | 'coherency'
  | 'chargeTarget'
  | 'pileInEngagement'
  | 'objectiveMarker'
  | 'notCloser';

export interface Violation {
  /** the model at fault, or null for a rule about the whole unit */
  modelId: string | null;
  rule: ViolationRule;
  detail: string;
}

export interface PlacementCheck {
  ok: boolean;
  violations: Violation[];
  /** enemy models passed over on the way (Fall Back), sorted */
  crossedEnemyModelIds: string[];
  /** shortest legal path length found for each model (Infinity when none) */
  pathLengths: number[];
}
