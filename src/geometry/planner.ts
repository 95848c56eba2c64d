/**
 * The movement planner: turns a movement intent ("advance toward P", "charge these units", "deep strike
 * near P") into a legal position for every model of the unit, or says why it cannot; and checks
 * positions an agent gives explicitly against the same rules (validatePlacement).
 *
 * Pure: plain data in, plain data out, deterministic (no randomness, no clock; candidates are tried
 * in a fixed order and ties are broken by index).
 *
 * What the planner enforces, by mode (`MoveMode`):
 * - every mode: models on the board, not overlapping other models (friendly models may be crossed,
 *   never ended on), not on wall or impassable footprints, VEHICLE/MONSTER models not on ruin
 *   footprints, Unit Coherency at the end (ranges.ts: 2"/5", two neighbours for 7+ models, one group);
 *   paths never through wall/impassable footprints, nor through ruins for VEHICLE/MONSTER models
 *   unless they can FLY; a walker's rule (`WalksOver`: Heavy Walker, Titanic Strides...) passes over
 *   ruins and impassable pieces up to its height (never a Boarding Actions wall, never to end on them);
 * - normal, advance: each model's path no longer than the move, never over enemy bases nor within
 *   Engagement Range of enemy models (FLY models ignore enemy models on the way, a walker's rule all but
 *   TITANIC ones, or all), not starting or ending within Engagement Range;
 * - fallBack: as normal, but paths may pass within Engagement Range, and over enemy bases when there is
 *   no other way (the ids of the enemy models passed over, by any model, FLY included, are returned
 *   for Desperate Escape tests);
 * - charge: path no longer than the Charge roll, not over enemy bases, not within Engagement Range of
 *   non-target units; ends within Engagement Range of every target and of no other enemy unit;
 *   each model in base-to-base contact with a target model where it can (greedy);
 * - pileIn, consolidate: up to 3", each model that moves ends closer to the enemy model that was
 *   closest to it, in base contact where it can; consolidate moves toward the closest objective
 *   marker instead when no enemy can be reached (and only if the unit then ends within its range);
 * - deepStrike: anywhere on the board more than 9" horizontally from every enemy model;
 * - strategicReserves: each model wholly within 6" of an allowed board edge, more than 9" from enemies;
 * - setUp: each model wholly within the given zone, not within Engagement Range (or more than
 *   `minEnemyDistance` from enemies when given, e.g. Infiltrators);
 * - disembark: each model wholly within 3" of the transport, not within Engagement Range;
 * - embarkCheck: every model within 3" of the transport (no movement).
 * `forbiddenZones` (any mode that sets up) are areas no part of a base may be over.
 *
 * How it places models:
 * - moves toward a destination translate the unit's formation so that its centroid goes toward the
 *   point (at most the move's length: the planner never exceeds a model's allowance), front models
 *   first; a model whose translated spot is illegal or unreachable takes the nearest legal reachable
 *   spot (spiral of candidates around it), going around obstacles with the waypoint search of
 *   pathing.ts; models breaking coherency are then moved next to the main group. If the unit still
 *   cannot end legally, the move is shortened (75%, 50%, 25% of the way, then staying put). So when
 *   the destination cannot be reached the unit moves as far as it legally can toward it, and
 *   `reachedDestination` is false.
 * - set-ups (deep strike, reserves, deployment, disembark) try anchor points on a 1" grid in order of
 *   distance to the requested point, and around each anchor fill a hexagonal lattice of slots
 *   (spread out: 1.5" between bases; 0.5", then 0.05" when that fails) nearest first, each model
 *   next to the ones already placed; the first anchor whose lattice holds the whole unit legally wins.
 * - charges first put, for each target unit, the closest model in base contact with it (or within
 *   Engagement Range when contact is out of reach), then the other models, closest first, in base
 *   contact where they can (keeping coherency with those placed), else as close to the targets as
 *   they can get beside the models already placed; a final pass repairs coherency without losing
 *   any target.
 * - the planner keeps a margin of 0.01" on every limit it must not cross (Engagement Range, 9",
 *   zones, edges, overlaps), so its output passes validatePlacement, which uses the exact limits.
 *
 * Geometry simplifications (documented choices): the planner moves models on the ground (planned
 * positions have z = 0, except models that do not move keep their z; a change of height counts toward
 * the distance moved); it does not rotate non-round bases; friendly models do not block paths (they
 * can be moved through) but block end positions; a charge move may not pass within Engagement Range
 * of a unit it does not target (our reading of the core rules); FLY models ignore enemy models on
 * the way in every mode (not at the end).
 */
import { len } from './vec.ts';
import type { Base, Board, Body, ObjectiveMarker, Vec2, Vec3 } from './types.ts';
import { BASE_CONTACT_DISTANCE, DISTANCE_EPSILON, OVERLAP_TOLERANCE } from './types.ts';
import {
  type Shape,
  newShape,
  setBaseShape,
  shapeAabb,
  shapeDistance,
  shapesOverlap,
  baseBoundingRadius,
  baseHalfExtents,
  farthestDistanceToShape,
  shrinkShape,
  copyShape,
  boundingRadius,
} from './shape.ts';
import { polygonAabb, polygonCentroid, shapeOverlapsPolygon, shapeWhollyInPolygon, pointInPolygon } from './polygon.ts';
import { buildBoxIndex, queryBoxes, someWithin, type BoxIndex } from './spatial.ts';
import { NumberList } from './number-list.ts';
import {
  COHERENCY_HORIZONTAL,
  ENGAGEMENT_RANGE_HORIZONTAL,
  ENGAGEMENT_RANGE_VERTICAL,
  unitCoherency,
  inCoherencyRange,
  inEngagementRange,
  inObjectiveRange,
  markerBody,
} from './ranges.ts';
import { horizontalDistance, verticalDistance, type BoardEdge, BOARD_EDGES } from './distance.ts';
import {
  type BlockingPiece,
  type EnemyRule,
  type Mover,
  type Obstacle,
  type PathWorld,
  type Waypoints,
  buildWaypoints,
  enemiesCrossed,
  findPath,
  slideClear,
} from './pathing.ts';

// ---------------------------------------------------------------------------------------------
// Public types.

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
  /** VEHICLE or MONSTER: cannot end a move on a ruin, nor cross one unless it can FLY or a walker's rule lets it */
  isVehicleOrMonster?: boolean;
  /** a walker's rule for this move (Heavy Walker, Titanic Strides...): what it passes over as if it were not there */
  walksOver?: WalksOver;
}

/**
 * What a walker's rule lets a model's Normal, Advance and Fall Back moves pass over as if it were not there:
 * other models (the rules of the TITANIC walkers exclude TITANIC models) and terrain up to a height. It
 * still cannot end within Engagement Range of an enemy model, nor (VEHICLE or MONSTER) on a ruin.
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

/** Base-to-base contact is planned with this gap (well inside BASE_CONTACT_DISTANCE). */
const CONTACT_GAP = 0.005;
/** The planner keeps this much extra room on every "more than" / "wholly within" limit. */
const PLAN_MARGIN = 0.01;
const SETUP_DEFAULT_MIN_ENEMY = 9;
const PILE_IN_DISTANCE = 3;
const STRATEGIC_RESERVES_EDGE_RANGE = 6;
const TRANSPORT_RANGE = 3;

// ---------------------------------------------------------------------------------------------
// Context.

interface UnitModel {
  id: string;
  base: Base;
  height: number;
  start: Vec3 | null;
  radius: number;
  fly: boolean;
  heavy: boolean;
  mover: Mover;
  /** lazily built waypoints around obstacles near the start (for each enemy rule variant) */
  waypoints: Map<EnemyRule, Waypoints>;
}

interface Ctx {
  req: MoveRequest;
  mode: MoveMode;
  board: Board;
  world: World;
  obstacles: Obstacle[];
  pathWorld: PathWorld;
  models: UnitModel[];
  walls: BlockingPiece[];
  ruins: BlockingPiece[];
  maxDistance: number;
  minEnemyDistance: number;
  engagement: 'forbidden' | 'nonTargets' | 'allowed';
  transport: Obstacle | null;
  zone: Vec2[] | null;
  edges: BoardEdge[] | null;
  forbiddenZones: Vec2[][];
}

function isSetUpMode(mode: MoveMode): boolean {
  return mode === 'deepStrike' || mode === 'strategicReserves' || mode === 'setUp' || mode === 'disembark';
}

function enemyRuleFor(mode: MoveMode, fly: boolean): EnemyRule {
  if (fly) return 'none';
  switch (mode) {
    case 'normal':
    case 'advance':
      return 'engagement';
    case 'charge':
      return 'charge';
    default:
      return 'bases';
  }
}

/**
 * The terrain a moving model cannot cross: walls and impassable pieces, and ruins for a VEHICLE or MONSTER
 * that cannot FLY; a walker's rule passes over ruins and impassable pieces up to `walkHeight` (never a
 * Boarding Actions wall).
 */
function blockingFor(walls: BlockingPiece[], ruins: BlockingPiece[], ruinsBlock: boolean, walkHeight: number): BlockingPiece[] {
  const blocks = (p: BlockingPiece) => p.kind === 'wall' || p.height > walkHeight + DISTANCE_EPSILON;
  if (walkHeight <= 0) return ruinsBlock ? walls.concat(ruins) : walls;
  const out = walls.filter(blocks);
  if (ruinsBlock) for (const p of ruins) if (blocks(p)) out.push(p);
  return out;
}

const obstaclePool: Obstacle[] = [];

const MODES: readonly MoveMode[] = ['normal', 'advance', 'fallBack', 'charge', 'pileIn', 'consolidate', 'deepStrike', 'strategicReserves', 'disembark', 'setUp', 'embarkCheck'];

function buildContext(req: MoveRequest, world: World): Ctx | string {
  const mode = req.mode;
  if (!MODES.includes(mode)) return `unknown movement mode ${JSON.stringify(mode)}`;
  if (!req.models || req.models.length === 0) return 'the unit has no models';
  const unitIds = new Set(req.models.map((m) => m.id));
  if (unitIds.size !== req.models.length) return 'duplicate model ids in the unit';
  // the obstacle records are pooled across calls (planning is synchronous and never re-entered):
  // building 200 of them afresh was a quarter of a Normal move's cost
  const obstacles: Obstacle[] = [];
  const targets = req.targetUnitIds ?? [];
  for (const wm of world.models) {
    if (wm.unitId === req.unitId || unitIds.has(wm.id)) continue;
    const k = obstacles.length;
    let o = obstaclePool[k];
    if (!o) {
      o = { id: '', body: wm.body, unitId: '', enemy: false, target: false, titanic: false, shape: newShape(), z0: 0, z1: 0, radius: 0 };
      obstaclePool.push(o);
    }
    const enemy = wm.player !== req.player;
    o.id = wm.id;
    o.body = wm.body;
    o.unitId = wm.unitId;
    o.enemy = enemy;
    o.titanic = !!wm.titanic;
    o.target = enemy && targets.length > 0 && targets.includes(wm.unitId);
    setBaseShape(o.shape, wm.body.base, wm.body.pos.x, wm.body.pos.y);
    o.z0 = wm.body.pos.z;
    o.z1 = wm.body.pos.z + wm.body.height;
    o.radius = baseBoundingRadius(wm.body.base);
    obstacles.push(o);
  }
  const boxes = new Float64Array(obstacles.length * 4);
  const bb = [0, 0, 0, 0];
  let maxR = 0;
  for (let i = 0; i < obstacles.length; i++) {
    shapeAabb(obstacles[i].shape, bb);
    boxes[4 * i] = bb[0];
    boxes[4 * i + 1] = bb[1];
    boxes[4 * i + 2] = bb[2];
    boxes[4 * i + 3] = bb[3];
    if (obstacles[i].radius > maxR) maxR = obstacles[i].radius;
  }
  const index: BoxIndex = buildBoxIndex(boxes, obstacles.length);
  const pathWorld: PathWorld = { obstacles, index, maxObstacleRadius: maxR, board: world.board };
  const walls: BlockingPiece[] = [];
  const ruins: BlockingPiece[] = [];
  for (const t of world.board.terrain) {
    const piece: BlockingPiece = { polygon: t.polygon, aabb: polygonAabb(t.polygon), kind: t.kind, height: t.height };
    if (t.kind === 'wall' || t.kind === 'impassable') walls.push(piece);
    else if (t.kind === 'ruin') ruins.push(piece);
  }
  const models: UnitModel[] = [];
  for (const pm of req.models) {
    const base = pm.body?.base ?? pm.base;
    const height = pm.body?.height ?? pm.height;
    if (!base || height === undefined) return `model ${pm.id} has neither a body nor a base and height`;
    const fly = !!pm.canFly;
    const heavy = !!pm.isVehicleOrMonster;
    const walk = pm.walksOver;
    // FLY models and a walker's rule that excludes no model pass over every model on the way
    const overAll = fly || !!walk?.titanicModels;
    const start = pm.body ? { x: pm.body.pos.x, y: pm.body.pos.y, z: pm.body.pos.z } : null;
    const z0 = 0;
    const z1 = Math.max(start ? start.z : 0, 0) + height;
    models.push({
      id: pm.id,
      base,
      height,
      start,
      radius: baseBoundingRadius(base),
      fly,
      heavy,
      mover: {
        base,
        radius: baseBoundingRadius(base),
        z0,
        z1,
        enemyRule: enemyRuleFor(mode, overAll),
        ...(walk && !overAll ? { titanicOnly: true } : {}),
        blocking: blockingFor(walls, ruins, heavy && !fly, walk?.terrainHeight ?? 0),
      },
      waypoints: new Map(),
    });
  }
  let maxDistance = req.maxDistance ?? (mode === 'pileIn' || mode === 'consolidate' ? PILE_IN_DISTANCE : NaN);
  if (!isSetUpMode(mode) && mode !== 'embarkCheck') {
    if (!Number.isFinite(maxDistance) || maxDistance < 0) return `mode ${mode} needs a maxDistance`;
  } else {
    maxDistance = 0;
  }
  let minEnemyDistance = 0;
  if (mode === 'deepStrike' || mode === 'strategicReserves') minEnemyDistance = req.minEnemyDistance ?? SETUP_DEFAULT_MIN_ENEMY;
  else if (mode === 'setUp' || mode === 'disembark') minEnemyDistance = req.minEnemyDistance ?? 0;
  const engagement =
    mode === 'charge' ? 'nonTargets' : mode === 'pileIn' || mode === 'consolidate' || mode === 'embarkCheck' ? 'allowed' : 'forbidden';
  let transport: Obstacle | null = null;
  if (mode === 'disembark' || mode === 'embarkCheck') {
    if (!req.transportId) return `mode ${mode} needs a transportId`;
    transport = obstacles.find((o) => o.id === req.transportId) ?? null;
    if (!transport) return `transport ${req.transportId} is not on the table`;
  }
  if (mode === 'setUp' && (!req.zone || req.zone.length < 3)) return 'setUp needs a zone polygon';
  if (mode === 'charge') {
    if (!req.targetUnitIds || req.targetUnitIds.length === 0) return 'a charge needs target units';
    for (const u of req.targetUnitIds) {
      if (!obstacles.some((o) => o.unitId === u && o.enemy)) return `charge target ${u} is not an enemy unit on the table`;
    }
  }
  return {
    req,
    mode,
    board: world.board,
    world,
    obstacles,
    pathWorld,
    models,
    walls,
    ruins,
    maxDistance,
    minEnemyDistance,
    engagement,
    transport,
    zone: mode === 'setUp' ? req.zone! : null,
    edges: mode === 'strategicReserves' ? (req.allowedEdges && req.allowedEdges.length > 0 ? req.allowedEdges : [...BOARD_EDGES]) : null,
    forbiddenZones: req.forbiddenZones ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// End-position rules (shared by the planner, with a safety margin, and the validator, without).

const candShape = newShape();
const otherShape = newShape();
const tmpShape = newShape();
const near = new NumberList();
const box = [0, 0, 0, 0];

function modelBody(m: UnitModel, x: number, y: number, z: number): Body {
  return { pos: { x, y, z }, base: m.base, height: m.height };
}

/**
 * Checks the end position of model i against everything but its own unit. Returns true when legal;
 * with `out`, records every violation instead of stopping at the first.
 */
function endLegal(ctx: Ctx, i: number, x: number, y: number, z: number, margin: number, out: Violation[] | null): boolean {
  const m = ctx.models[i];
  endOk = true;
  setBaseShape(candShape, m.base, x, y);
  shapeAabb(candShape, box);
  // board
  if (
    box[0] < -DISTANCE_EPSILON + margin ||
    box[1] < -DISTANCE_EPSILON + margin ||
    box[2] > ctx.board.width + DISTANCE_EPSILON - margin ||
    box[3] > ctx.board.height + DISTANCE_EPSILON - margin
  ) {
    if (!violation(out, m.id, 'offBoard', 'not wholly on the board')) return false;
  }
  // terrain
  for (const piece of ctx.walls) {
    if (overlapsPiece(piece, margin)) {
      if (!violation(out, m.id, 'terrain', `on ${piece.kind} terrain`)) return false;
    }
  }
  if (m.heavy) {
    for (const piece of ctx.ruins) {
      if (overlapsPiece(piece, margin)) {
        if (!violation(out, m.id, 'terrain', 'a VEHICLE or MONSTER cannot end on a ruin')) return false;
      }
    }
  }
  // other models
  const z1 = z + m.height;
  const reach = ENGAGEMENT_RANGE_HORIZONTAL + margin + DISTANCE_EPSILON;
  queryBoxes(ctx.pathWorld.index, box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach, near);
  for (let k = 0; k < near.n; k++) {
    const o = ctx.obstacles[near.v[k]];
    const vOverlap = o.z0 < z1 && z < o.z1;
    if (vOverlap) {
      shrinkShape(tmpShape, candShape, -margin / 2);
      if (shapesOverlap(margin > 0 ? tmpShape : candShape, o.shape, OVERLAP_TOLERANCE)) {
        if (!violation(out, m.id, 'overlap', `overlaps model ${o.id}`)) return false;
        continue;
      }
    }
    if (!o.enemy) continue;
    const vg = o.z0 > z1 ? o.z0 - z1 : z > o.z1 ? z - o.z1 : 0;
    const d = shapeDistance(candShape, o.shape);
    const forbidER = ctx.engagement === 'forbidden' || (ctx.engagement === 'nonTargets' && !o.target);
    if (forbidER && vg <= ENGAGEMENT_RANGE_VERTICAL + DISTANCE_EPSILON && d <= ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON + margin) {
      if (!violation(out, m.id, 'engagementRange', `within Engagement Range of enemy model ${o.id}`)) return false;
    }
  }
  // more than N" from every enemy model (set-ups): nearest boxes first
  if (ctx.minEnemyDistance > 0) {
    const limit = ctx.minEnemyDistance + DISTANCE_EPSILON + margin;
    nearCtx = ctx;
    nearLimit = limit;
    nearCulprit = -1;
    someWithin(ctx.pathWorld.index, x, y, limit + boundingRadius(candShape), enemyTooClose);
    if (nearCulprit >= 0) {
      if (!violation(out, m.id, 'enemyDistance', `not more than ${ctx.minEnemyDistance}" from enemy model ${ctx.obstacles[nearCulprit].id}`)) return false;
    }
  }
  // zones
  if (ctx.zone) {
    shrinkShape(tmpShape, candShape, -margin);
    if (!shapeWhollyInPolygon(margin > 0 ? tmpShape : candShape, ctx.zone, DISTANCE_EPSILON)) {
      if (!violation(out, m.id, 'zone', 'not wholly within the deployment zone')) return false;
    }
  }
  if (ctx.edges) {
    const hx = (box[2] - box[0]) / 2;
    const hy = (box[3] - box[1]) / 2;
    let inEdge = false;
    for (const e of ctx.edges) {
      const far =
        e === 'left' ? x + hx : e === 'right' ? ctx.board.width - (x - hx) : e === 'top' ? y + hy : ctx.board.height - (y - hy);
      if (far <= STRATEGIC_RESERVES_EDGE_RANGE + DISTANCE_EPSILON - margin) inEdge = true;
    }
    if (!inEdge) {
      if (!violation(out, m.id, 'edge', `not wholly within ${STRATEGIC_RESERVES_EDGE_RANGE}" of an allowed board edge`)) return false;
    }
  }
  for (const zone of ctx.forbiddenZones) {
    copyShape(tmpShape, candShape);
    if (margin > 0) shrinkShape(tmpShape, candShape, -margin);
    if (shapeOverlapsPolygon(tmpShape, zone, OVERLAP_TOLERANCE)) {
      if (!violation(out, m.id, 'forbiddenZone', 'over a forbidden zone')) return false;
    }
  }
  if (ctx.transport && ctx.mode === 'disembark') {
    if (farthestDistanceToShape(candShape, ctx.transport.shape) > TRANSPORT_RANGE + DISTANCE_EPSILON - margin) {
      if (!violation(out, m.id, 'transport', `not wholly within ${TRANSPORT_RANGE}" of the transport`)) return false;
    }
  }
  return endOk;
}

// endLegal's helpers work on module-level scratch state (no closures in the hot path)
let endOk = true;
function violation(out: Violation[] | null, modelId: string, rule: ViolationRule, detail: string): boolean {
  endOk = false;
  if (out) out.push({ modelId, rule, detail });
  return out !== null; // keep going only when collecting every violation
}

/** Does the candidate shape (candShape, its box in `box`), grown by mg, overlap the piece? */
function overlapsPiece(piece: BlockingPiece, mg: number): boolean {
  const bb = piece.aabb;
  if (box[0] - mg > bb.maxX || box[2] + mg < bb.minX || box[1] - mg > bb.maxY || box[3] + mg < bb.minY) return false;
  if (mg > 0) {
    shrinkShape(tmpShape, candShape, -mg);
    return shapeOverlapsPolygon(tmpShape, piece.polygon, OVERLAP_TOLERANCE);
  }
  return shapeOverlapsPolygon(candShape, piece.polygon, OVERLAP_TOLERANCE);
}

let nearCtx: Ctx | null = null;
let nearLimit = 0;
let nearCulprit = -1;
function enemyTooClose(k: number): boolean {
  const o = nearCtx!.obstacles[k];
  if (!o.enemy || shapeDistance(candShape, o.shape) > nearLimit) return false;
  nearCulprit = k;
  return true;
}


/** Do models i (at x, y, z) and j (at px, py, pz) of the unit overlap? */
function unitOverlap(ctx: Ctx, i: number, x: number, y: number, z: number, j: number, px: number, py: number, pz: number, margin: number): boolean {
  const a = ctx.models[i];
  const b = ctx.models[j];
  if (!(pz < z + a.height && z < pz + b.height)) return false;
  if (a.base.kind === 'circle' && b.base.kind === 'circle') {
    const r = a.base.r + b.base.r + margin - OVERLAP_TOLERANCE;
    const dx = x - px;
    const dy = y - py;
    return dx * dx + dy * dy < r * r;
  }
  setBaseShape(candShape, a.base, x, y);
  setBaseShape(otherShape, b.base, px, py);
  if (margin > 0) {
    shrinkShape(tmpShape, candShape, -margin);
    return shapesOverlap(tmpShape, otherShape, OVERLAP_TOLERANCE);
  }
  return shapesOverlap(candShape, otherShape, OVERLAP_TOLERANCE);
}

// ---------------------------------------------------------------------------------------------
// Placement state for one attempt.

interface Placement {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  placed: Uint8Array;
  paths: (Vec2[] | null)[];
  lengths: Float64Array;
  crossed: number[][];
}

function newPlacement(n: number): Placement {
  return {
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    placed: new Uint8Array(n),
    paths: new Array(n).fill(null),
    lengths: new Float64Array(n),
    crossed: Array.from({ length: n }, () => []),
  };
}

/** Is (x, y, z) free of the unit's already placed models (and, with `blockUnplacedStarts`, of the starts of unplaced ones)? */
function freeOfUnit(ctx: Ctx, P: Placement, i: number, x: number, y: number, z: number, blockUnplacedStarts: boolean): boolean {
  const n = ctx.models.length;
  for (let j = 0; j < n; j++) {
    if (j === i) continue;
    if (P.placed[j]) {
      if (unitOverlap(ctx, i, x, y, z, j, P.x[j], P.y[j], P.z[j], PLAN_MARGIN)) return false;
    } else if (blockUnplacedStarts) {
      const s = ctx.models[j].start;
      if (s && unitOverlap(ctx, i, x, y, z, j, s.x, s.y, s.z, PLAN_MARGIN)) return false;
    }
  }
  return true;
}

function place(P: Placement, i: number, x: number, y: number, z: number, path: Vec2[], length: number, crossed: number[]): void {
  P.x[i] = x;
  P.y[i] = y;
  P.z[i] = z;
  P.placed[i] = 1;
  P.paths[i] = path;
  P.lengths[i] = length;
  P.crossed[i] = crossed;
}

/** Number of placed models of the unit within coherency range of model i at (x, y, z). */
function placedNeighbours(ctx: Ctx, P: Placement, i: number, x: number, y: number, z: number): number {
  const mi = ctx.models[i];
  let body: Body | null = null;
  let c = 0;
  for (let j = 0; j < ctx.models.length; j++) {
    if (j === i || !P.placed[j]) continue;
    const mj = ctx.models[j];
    const dx = x - P.x[j];
    const dy = y - P.y[j];
    const lim = mi.radius + mj.radius + 2 + DISTANCE_EPSILON;
    if (dx * dx + dy * dy > lim * lim) continue;
    body ??= modelBody(mi, x, y, z);
    if (inCoherencyRange(body, modelBody(mj, P.x[j], P.y[j], P.z[j]))) c++;
  }
  return c;
}

function placedCount(P: Placement): number {
  let c = 0;
  for (let j = 0; j < P.placed.length; j++) c += P.placed[j];
  return c;
}

function requiredNeighbours(ctx: Ctx): number {
  return ctx.models.length >= 7 ? 2 : 1;
}

// ---------------------------------------------------------------------------------------------
// Reaching a spot.

interface Reach {
  path: Vec2[];
  length: number;
  crossed: number[];
}

function waypointsFor(ctx: Ctx, m: UnitModel, rule: EnemyRule): Waypoints {
  let wp = m.waypoints.get(rule);
  if (!wp) {
    const mover = rule === m.mover.enemyRule ? m.mover : { ...m.mover, enemyRule: rule };
    wp = buildWaypoints(ctx.pathWorld, mover, m.start!.x, m.start!.y, ctx.maxDistance + 0.5);
    m.waypoints.set(rule, wp);
  }
  return wp;
}

/** Can model i move from its start to (x, y, z) within the move's distance? Returns the path, or null. */
function reach(ctx: Ctx, i: number, x: number, y: number, z: number): Reach | null {
  const m = ctx.models[i];
  const s = m.start!;
  const dz = Math.abs(z - s.z);
  const budget = ctx.maxDistance - dz;
  if (budget < -DISTANCE_EPSILON) return null;
  const straight = len(x - s.x, y - s.y);
  if (straight > budget + DISTANCE_EPSILON) return null;
  let path: Vec2[] | null = null;
  let length = 0;
  if (slideClear(ctx.pathWorld, m.mover, s.x, s.y, x, y)) {
    path = [{ x: s.x, y: s.y }, { x, y }];
    length = straight;
  } else {
    const found = findPath(ctx.pathWorld, m.mover, waypointsFor(ctx, m, m.mover.enemyRule), s.x, s.y, x, y, budget);
    if (found) {
      path = found.points;
      length = found.length;
    } else if (ctx.mode === 'fallBack' && m.mover.enemyRule !== 'none') {
      // no way around: pass over enemy models (Desperate Escape tests)
      const soft: Mover = { ...m.mover, enemyRule: 'none' };
      const f2 = findPath(ctx.pathWorld, soft, waypointsFor(ctx, m, 'none'), s.x, s.y, x, y, budget);
      if (f2) {
        path = f2.points;
        length = f2.length;
      }
    }
  }
  if (!path) return null;
  // Fall Back: every enemy model passed over (FLY models included), for Desperate Escape tests; other moves
  // when asked (Lightning Assault)
  const crossed: number[] = [];
  if (ctx.mode === 'fallBack' || ctx.req.movedOver) {
    for (let k = 1; k < path.length; k++) enemiesCrossed(ctx.pathWorld, m.mover, path[k - 1].x, path[k - 1].y, path[k].x, path[k].y, crossed);
  }
  return { path, length: length + dz, crossed: crossed.length > 1 ? [...new Set(crossed)].sort((a, b) => a - b) : crossed };
}

// ---------------------------------------------------------------------------------------------
// Candidate generators.

/** Offsets of a spiral of candidate points around a spot, nearest first (0.25" rings). */
const SPIRAL: Float64Array = (() => {
  const pts: number[] = [0, 0];
  const step = 0.25;
  for (let ring = 1; ring <= 24; ring++) {
    const r = ring * step;
    const count = Math.max(8, Math.round((2 * Math.PI * r) / 0.3));
    for (let j = 0; j < count; j++) {
      const t = (2 * Math.PI * j) / count;
      pts.push(r * Math.cos(t), r * Math.sin(t));
    }
  }
  return new Float64Array(pts);
})();

/** Centre positions for model i at which it touches obstacle shape `o` (gap CONTACT_GAP), 24 directions starting toward (fx, fy). */
function contactSpots(ctx: Ctx, i: number, o: Shape, fx: number, fy: number, gap: number): Vec2[] {
  const m = ctx.models[i];
  const a0 = Math.atan2(fy - o.y, fx - o.x);
  const out: Vec2[] = [];
  const N = 24;
  const roundPair = m.base.kind === 'circle' && o.k === 0 && o.sx === 0 && o.sy === 0;
  for (let k = 0; k < N; k++) {
    // 0, +1, -1, +2, -2, ... steps of 15 degrees
    const step = k === 0 ? 0 : (k % 2 === 1 ? 1 : -1) * Math.ceil(k / 2);
    const t = a0 + (step * 2 * Math.PI) / N;
    const ux = Math.cos(t);
    const uy = Math.sin(t);
    if (roundPair) {
      const R = o.m + (m.base as { r: number }).r + gap;
      out.push({ x: o.x + ux * R, y: o.y + uy * R });
    } else {
      // bisection on the distance along the ray where the edge gap equals `gap`, between the
      // distance at which the two shapes' inscribed circles would touch and the one at which their
      // bounding circles would: 16 halvings of that narrow bracket is far below 0.001"
      let lo = innerRadius(o) + baseInnerRadius(m.base) + gap;
      let hi = boundingRadius(o) + baseBoundingRadius(m.base) + gap + 1e-6;
      for (let it = 0; it < 16; it++) {
        const mid = (lo + hi) / 2;
        setBaseShape(candShape, m.base, o.x + ux * mid, o.y + uy * mid);
        if (shapeDistance(candShape, o) < gap) lo = mid;
        else hi = mid;
      }
      out.push({ x: o.x + ux * hi, y: o.y + uy * hi });
    }
  }
  return out;
}

/** Radius of the largest circle centred on the shape inside it (its margin plus the core's smallest half-extent). */
function innerRadius(sh: Shape): number {
  if (sh.k === 1 || sh.k === 2) return Math.min(sh.a, sh.b) + sh.m;
  return sh.m;
}

function baseInnerRadius(base: Base): number {
  return base.kind === 'circle' ? base.r : base.kind === 'oval' ? Math.min(base.rx, base.ry) : Math.min(base.l, base.w) / 2;
}

/** The mean of the points' horizontal positions (a unit's centre from its models' positions). */
export function centroidOf(pts: readonly Vec3[]): Vec2 {
  let x = 0;
  let y = 0;
  for (const p of pts) {
    x += p.x;
    y += p.y;
  }
  return { x: x / pts.length, y: y / pts.length };
}

// ---------------------------------------------------------------------------------------------
// Results.

function finish(ctx: Ctx, P: Placement, reachedDestination: boolean, note?: string): PlannedMove {
  const n = ctx.models.length;
  const positions: Vec3[] = [];
  const paths: Vec2[][] = [];
  const lengths: number[] = [];
  const crossedIdx = new Set<number>();
  for (let i = 0; i < n; i++) {
    positions.push({ x: P.x[i], y: P.y[i], z: P.z[i] });
    paths.push(P.paths[i] ?? [{ x: P.x[i], y: P.y[i] }]);
    lengths.push(P.lengths[i]);
    for (const c of P.crossed[i]) crossedIdx.add(c);
  }
  const crossed = [...crossedIdx].map((k) => ctx.obstacles[k].id).sort();
  const baseContact = positions.map((p, i) => touchesEnemy(ctx, i, p));
  const res: PlannedMove = {
    ok: true,
    positions,
    paths,
    pathLengths: lengths,
    crossedEnemyModelIds: crossed,
    reachedDestination,
    baseContact,
  };
  if (note) res.note = note;
  return res;
}

function touchesEnemy(ctx: Ctx, i: number, p: Vec3): boolean {
  return enemyWithin(ctx, i, p.x, p.y, p.z, BASE_CONTACT_DISTANCE, DISTANCE_EPSILON, false) >= 0;
}

/**
 * The first enemy obstacle (index) within `h` horizontally and `v` vertically of model i at (x, y, z),
 * or -1; with `nonTargetsOnly`, charge targets are ignored. No allocation.
 */
function enemyWithin(ctx: Ctx, i: number, x: number, y: number, z: number, h: number, v: number, nonTargetsOnly: boolean): number {
  const m = ctx.models[i];
  setBaseShape(candShape, m.base, x, y);
  shapeAabb(candShape, box);
  const r = h + DISTANCE_EPSILON;
  queryBoxes(ctx.pathWorld.index, box[0] - r, box[1] - r, box[2] + r, box[3] + r, nearScratch);
  const z1 = z + m.height;
  for (let q = 0; q < nearScratch.n; q++) {
    const k = nearScratch.v[q];
    const o = ctx.obstacles[k];
    if (!o.enemy || (nonTargetsOnly && o.target)) continue;
    const vg = o.z0 > z1 ? o.z0 - z1 : z > o.z1 ? z - o.z1 : 0;
    if (vg > v + DISTANCE_EPSILON) continue;
    if (shapeDistance(candShape, o.shape) <= h + DISTANCE_EPSILON) return k;
  }
  return -1;
}

function obstacleBody(ctx: Ctx, k: number): Body {
  return ctx.obstacles[k].body;
}

/** Indices of enemy obstacles whose box is within `r` of (x, y), ascending. */
function nearbyEnemies(ctx: Ctx, x: number, y: number, r: number): number[] {
  queryBoxes(ctx.pathWorld.index, x - r, y - r, x + r, y + r, nearScratch);
  const out: number[] = [];
  for (let q = 0; q < nearScratch.n; q++) if (ctx.obstacles[nearScratch.v[q]].enemy) out.push(nearScratch.v[q]);
  return out;
}
const nearScratch = new NumberList();

function fail(reason: string): PlanFailure {
  return { ok: false, reason };
}

// ---------------------------------------------------------------------------------------------
// The planner.

/** Plans the move or set-up of a unit. See the file comment for the rules applied. */
export function planMove(request: MoveRequest, world: World): PlanResult {
  const ctx = buildContext(request, world);
  if (typeof ctx === 'string') return fail(ctx);
  switch (ctx.mode) {
    case 'normal':
    case 'advance':
    case 'fallBack':
      return planTranslate(ctx);
    case 'charge':
      return planCharge(ctx);
    case 'pileIn':
    case 'consolidate':
      return planPileIn(ctx);
    case 'deepStrike':
    case 'strategicReserves':
    case 'setUp':
    case 'disembark':
      return planSetUp(ctx);
    case 'embarkCheck':
      return planEmbarkCheck(ctx);
  }
}

function requireStarts(ctx: Ctx): string | null {
  for (const m of ctx.models) if (!m.start) return `model ${m.id} is not on the battlefield`;
  return null;
}

function startsInEngagement(ctx: Ctx, nonTargetsOnly: boolean): string | null {
  for (let i = 0; i < ctx.models.length; i++) {
    const s = ctx.models[i].start!;
    const k = enemyWithin(ctx, i, s.x, s.y, s.z, ENGAGEMENT_RANGE_HORIZONTAL, ENGAGEMENT_RANGE_VERTICAL, nonTargetsOnly);
    if (k >= 0) return ctx.obstacles[k].id;
  }
  return null;
}

// --- Normal, Advance, Fall Back -----------------------------------------------------------------

function planTranslate(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const dest = ctx.req.destination;
  if (!dest) return fail(`mode ${ctx.mode} needs a destination`);
  if (ctx.mode !== 'fallBack') {
    const engaged = startsInEngagement(ctx, false);
    if (engaged) return fail(`the unit starts within Engagement Range of enemy model ${engaged}: it can only Fall Back or Remain Stationary`);
  }
  const starts = ctx.models.map((m) => m.start!);
  const c0 = centroidOf(starts);
  const dx = dest.x - c0.x;
  const dy = dest.y - c0.y;
  const L = len(dx, dy);
  const full = L > 1e-9 ? Math.min(1, ctx.maxDistance / L) : 0;
  const fractions = full > 0 ? [full, full * 0.75, full * 0.5, full * 0.25, 0] : [0];
  let lastReason = '';
  for (const f of fractions) {
    const r = placeTranslated(ctx, dx * f, dy * f);
    if (typeof r === 'string') {
      lastReason = r;
      continue;
    }
    const end = centroidOf(Array.from({ length: ctx.models.length }, (_, i) => ({ x: r.x[i], y: r.y[i], z: 0 })));
    const reached = len(end.x - dest.x, end.y - dest.y) <= 1;
    return finish(ctx, r, reached);
  }
  return fail(lastReason || 'no legal position');
}

function placeTranslated(ctx: Ctx, dx: number, dy: number): Placement | string {
  const n = ctx.models.length;
  const P = newPlacement(n);
  const dist = len(dx, dy);
  const ux = dist > 0 ? dx / dist : 0;
  const uy = dist > 0 ? dy / dist : 0;
  const order = Array.from({ length: n }, (_, i) => i);
  const proj = (i: number) => ctx.models[i].start!.x * ux + ctx.models[i].start!.y * uy;
  order.sort((a, b) => proj(b) - proj(a) || a - b);
  for (const i of order) {
    const m = ctx.models[i];
    const s = m.start!;
    if (dist === 0) {
      if (!endLegalOrStay(ctx, P, i)) return `model ${m.id} cannot stay where it is`;
      continue;
    }
    const tx = s.x + dx;
    const ty = s.y + dy;
    if (!placeNear(ctx, P, i, tx, ty, false)) {
      if (!endLegalOrStay(ctx, P, i)) return `model ${m.id} can neither move toward the destination nor stay where it is`;
    }
  }
  if (!repairCoherency(ctx, P, (i) => ({ x: ctx.models[i].start!.x + dx, y: ctx.models[i].start!.y + dy }))) {
    return 'the unit cannot end its move in Unit Coherency';
  }
  return P;
}

/** Puts model i where it stands (no move), if that is free of the unit's placed models. */
function endLegalOrStay(ctx: Ctx, P: Placement, i: number): boolean {
  const s = ctx.models[i].start!;
  if (!freeOfUnit(ctx, P, i, s.x, s.y, s.z, false)) return false;
  // a model that Falls Back cannot stay within Engagement Range
  if (ctx.mode === 'fallBack' && !endLegal(ctx, i, s.x, s.y, s.z, 0, null)) return false;
  place(P, i, s.x, s.y, s.z, [{ x: s.x, y: s.y }], 0, []);
  return true;
}

/** Places model i at the nearest legal reachable spot around (tx, ty) (spiral). */
function placeNear(ctx: Ctx, P: Placement, i: number, tx: number, ty: number, blockUnplaced: boolean, minNeighbours = 0): boolean {
  const m = ctx.models[i];
  const s = m.start!;
  const maxR = Math.min(6, ctx.maxDistance + 0.5);
  // quick rejection of spots on or (when forbidden) within Engagement Range of round models nearby,
  // before the full check: most spiral candidates around a blocked spot fail here, without a query
  const round = m.base.kind === 'circle' ? (m.base as { r: number }).r : -1;
  const quick: number[] = [];
  if (round >= 0) {
    const q = maxR + round + ENGAGEMENT_RANGE_HORIZONTAL + 0.1;
    queryBoxes(ctx.pathWorld.index, tx - q, ty - q, tx + q, ty + q, nearScratch);
    for (let n = 0; n < nearScratch.n; n++) {
      const k = nearScratch.v[n];
      const o = ctx.obstacles[k];
      if (o.shape.k !== 0 || o.z0 >= m.height || o.z1 <= 0) continue;
      const er = o.enemy && (ctx.engagement === 'forbidden' || (ctx.engagement === 'nonTargets' && !o.target));
      // squared centre distance below which the spot is surely illegal
      const lim = round + o.shape.m + (er && o.z0 <= ENGAGEMENT_RANGE_VERTICAL ? ENGAGEMENT_RANGE_HORIZONTAL : -OVERLAP_TOLERANCE);
      quick.push(o.shape.x, o.shape.y, lim * lim);
    }
  }
  spiral: for (let k = 0; k < SPIRAL.length; k += 2) {
    const ox = SPIRAL[k];
    const oy = SPIRAL[k + 1];
    if (ox * ox + oy * oy > maxR * maxR) break;
    const x = tx + ox;
    const y = ty + oy;
    if (len(x - s.x, y - s.y) > ctx.maxDistance - s.z + DISTANCE_EPSILON) continue;
    for (let q = 0; q < quick.length; q += 3) {
      const dx = x - quick[q];
      const dy = y - quick[q + 1];
      if (dx * dx + dy * dy < quick[q + 2]) continue spiral;
    }
    if (!freeOfUnit(ctx, P, i, x, y, 0, blockUnplaced)) continue;
    if (!endLegal(ctx, i, x, y, 0, PLAN_MARGIN, null)) continue;
    if (minNeighbours > 0 && placedNeighbours(ctx, P, i, x, y, 0) < minNeighbours) continue;
    const r = reach(ctx, i, x, y, 0);
    if (!r) continue;
    place(P, i, x, y, 0, r.path, r.length, r.crossed);
    return true;
  }
  return false;
}

/**
 * Moves the models that break coherency next to the main group (reachable spots only). `wanted(i)`
 * is where model i would like to be (candidates nearer to it first). Returns true when coherent.
 */
function repairCoherency(ctx: Ctx, P: Placement, wanted: (i: number) => Vec2, extraCheck?: (i: number, x: number, y: number) => boolean): boolean {
  const n = ctx.models.length;
  const req = requiredNeighbours(ctx);
  for (let round = 0; round < 3; round++) {
    const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
    const coh = unitCoherency(bodies);
    if (coh.ok) return true;
    const main = coh.groups[0];
    const inMain = new Uint8Array(n);
    for (const j of main) inMain[j] = 1;
    for (const b of coh.breaking) {
      const w = wanted(b);
      // candidate spots around members of the main group, nearest to where b wants to be first
      const cands: { x: number; y: number; d: number }[] = [];
      const mb = ctx.models[b];
      for (const j of main) {
        if (j === b) continue;
        const mj = ctx.models[j];
        for (const gap of [1.0, 0.3, 1.7]) {
          const R = mb.radius + mj.radius + gap;
          for (let a = 0; a < 16; a++) {
            const t = (2 * Math.PI * a) / 16;
            const x = P.x[j] + R * Math.cos(t);
            const y = P.y[j] + R * Math.sin(t);
            cands.push({ x, y, d: len(x - w.x, y - w.y) });
          }
        }
      }
      cands.sort((p, q) => p.d - q.d || p.x - q.x || p.y - q.y);
      P.placed[b] = 0;
      let done = false;
      for (const c of cands) {
        if (!freeOfUnit(ctx, P, b, c.x, c.y, 0, false)) continue;
        if (!endLegal(ctx, b, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
        // must be in coherency with enough members of the main group
        const body = modelBody(mb, c.x, c.y, 0);
        let nb = 0;
        for (const j of main) {
          if (j !== b && inCoherencyRange(body, modelBody(ctx.models[j], P.x[j], P.y[j], P.z[j]))) nb++;
        }
        if (nb < Math.min(req, main.length)) continue;
        if (extraCheck && !extraCheck(b, c.x, c.y)) continue;
        const r = reach(ctx, b, c.x, c.y, 0);
        if (!r) continue;
        place(P, b, c.x, c.y, 0, r.path, r.length, r.crossed);
        done = true;
        break;
      }
      if (!done) P.placed[b] = 1;
    }
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  return unitCoherency(bodies).ok;
}

// --- Charge ---------------------------------------------------------------------------------

function planCharge(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const engaged = startsInEngagement(ctx, false);
  if (engaged) return fail(`the unit starts within Engagement Range of enemy model ${engaged}: it cannot charge`);
  const n = ctx.models.length;
  const R = ctx.maxDistance;
  const targetUnits = ctx.req.targetUnitIds!;
  const byUnit = new Map<string, number[]>();
  for (const u of targetUnits) byUnit.set(u, []);
  ctx.obstacles.forEach((o, k) => {
    if (o.enemy) byUnit.get(o.unitId)?.push(k);
  });
  const targetIdx = (u: string) => byUnit.get(u)!;
  const startBodies = ctx.models.map((m) => modelBody(m, m.start!.x, m.start!.y, m.start!.z));
  const startBody = (i: number) => startBodies[i];
  // feasibility: every target must be within roll + 1" of some model
  for (const u of targetUnits) {
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      for (const k of targetIdx(u)) best = Math.min(best, horizontalDistance(startBody(i), obstacleBody(ctx, k)));
    }
    if (best > R + ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON) {
      return fail(`charge roll of ${R}" is insufficient: unit ${u} is ${best.toFixed(2)}" away (needs more than ${(best - ENGAGEMENT_RANGE_HORIZONTAL).toFixed(2)}")`);
    }
  }
  const P = newPlacement(n);
  const req = requiredNeighbours(ctx);
  const needN = () => Math.min(req, placedCount(P));
  const allTargets = targetUnits.flatMap(targetIdx);
  const distToTargets = (i: number) => {
    let best = Infinity;
    for (const k of allTargets) best = Math.min(best, horizontalDistance(startBody(i), obstacleBody(ctx, k)));
    return best;
  };
  const dT = Array.from({ length: n }, (_, i) => distToTargets(i));

  /**
   * Try base-contact spots for model i against the given target obstacles. `alsoEngage`: other target
   * units (their obstacles) still to be engaged; spots within Engagement Range of more of them come first,
   * so that one model can tie up two targets standing close together (the nearest spot otherwise).
   */
  const tryContact = (i: number, targets: number[], gap: number, need: number, alsoEngage: readonly number[][] = []): boolean => {
    const m = ctx.models[i];
    const s = m.start!;
    const cands: { x: number; y: number; d: number; also: number }[] = [];
    for (const k of targets) {
      const o = ctx.obstacles[k];
      const ob = obstacleBody(ctx, k);
      if (horizontalDistance(startBody(i), ob) > R + gap + DISTANCE_EPSILON) continue;
      for (const p of contactSpots(ctx, i, o.shape, s.x, s.y, gap)) {
        const d = len(p.x - s.x, p.y - s.y);
        if (d > R + DISTANCE_EPSILON) continue;
        let also = 0;
        if (alsoEngage.length > 0) {
          const body = modelBody(m, p.x, p.y, 0);
          for (const group of alsoEngage) if (group.some((g) => inEngagementRange(body, ctx.obstacles[g].body))) also++;
        }
        cands.push({ x: p.x, y: p.y, d, also });
      }
    }
    cands.sort((a, b) => b.also - a.also || a.d - b.d || a.x - b.x || a.y - b.y);
    for (const c of cands) {
      if (need > 0 && placedNeighbours(ctx, P, i, c.x, c.y, 0) < need) continue;
      if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, false)) continue;
      if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
      const r = reach(ctx, i, c.x, c.y, 0);
      if (!r) continue;
      place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
      return true;
    }
    return false;
  };

  // Phase A: make sure every target unit gets a model within Engagement Range.
  for (const u of targetUnits) {
    const tgt = targetIdx(u);
    if (engagedWith(ctx, P, tgt)) continue;
    const order = Array.from({ length: n }, (_, i) => i).filter((i) => !P.placed[i]);
    const dU = (i: number) => Math.min(...tgt.map((k) => horizontalDistance(startBody(i), obstacleBody(ctx, k))));
    order.sort((a, b) => dU(a) - dU(b) || a - b);
    let ok = false;
    const others = targetUnits.filter((v) => v !== u && !engagedWith(ctx, P, targetIdx(v))).map(targetIdx);
    for (const i of order.slice(0, 4)) {
      // no coherency requirement yet: the other models link these up in phase B
      if (tryContact(i, tgt, CONTACT_GAP, 0, others) || tryContact(i, tgt, 0.5, 0, others) || tryContact(i, tgt, 0.9, 0, others)) {
        ok = true;
        break;
      }
    }
    if (!ok) return fail(`no model can reach unit ${u} with a charge of ${R}" (blocked, or too far along a legal path)`);
  }
  // Phase B: the other models, closest first: base contact where possible, else as close as possible in
  // coherency with the models already placed. A model that finds no spot waits for the others and tries
  // again; the last pass lets it stand still, and the coherency repair below links up what is left.
  let queue = Array.from({ length: n }, (_, i) => i).filter((i) => !P.placed[i]);
  queue.sort((a, b) => dT[a] - dT[b] || a - b);
  for (let pass = 0; pass < 3 && queue.length > 0; pass++) {
    const left: number[] = [];
    for (const i of queue) {
      const need = pass === 0 ? needN() : pass === 1 ? Math.min(1, placedCount(P)) : 0;
      if (tryContact(i, allTargets, CONTACT_GAP, need)) continue;
      if (approach(ctx, P, i, allTargets, need, pass === 2, Infinity, undefined, false)) continue;
      left.push(i);
    }
    queue = left;
  }
  if (queue.length > 0) return fail(`model ${ctx.models[queue[0]].id} cannot end its charge move in Unit Coherency`);
  const towardTargets = (i: number): Vec2 => {
    let best = Infinity;
    let p: Vec2 = { x: P.x[i], y: P.y[i] };
    for (const k of allTargets) {
      const o = ctx.obstacles[k];
      const d = len(o.shape.x - ctx.models[i].start!.x, o.shape.y - ctx.models[i].start!.y);
      if (d < best) {
        best = d;
        p = { x: o.shape.x, y: o.shape.y };
      }
    }
    return p;
  };
  // a model may only be moved by the repair if every target stays within Engagement Range of the unit
  const keepsTargets = (b: number, x: number, y: number): boolean => {
    const body = modelBody(ctx.models[b], x, y, 0);
    for (const u of targetUnits) {
      const idx = targetIdx(u);
      if (engagedWith(ctx, P, idx)) continue;
      if (!idx.some((k) => inEngagementRange(body, ctx.obstacles[k].body))) return false;
    }
    return true;
  };
  if (!repairCoherency(ctx, P, towardTargets, keepsTargets)) return fail('the unit cannot end its charge move in Unit Coherency');
  for (const u of targetUnits) {
    if (!engagedWith(ctx, P, targetIdx(u))) return fail(`the unit cannot end its charge move within Engagement Range of unit ${u}`);
  }
  return finish(ctx, P, true);
}

/** Is some placed model of the unit within Engagement Range of one of these obstacles? */
function engagedWith(ctx: Ctx, P: Placement, obstacleIdx: number[]): boolean {
  for (let i = 0; i < ctx.models.length; i++) {
    if (!P.placed[i]) continue;
    const body = modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]);
    for (const k of obstacleIdx) {
      if (inEngagementRange(body, obstacleBody(ctx, k))) {
        return true;
      }
    }
  }
  return false;
}

/**
 * Places model i as close as it can get to the target obstacles while keeping `minNeighbours`
 * placed neighbours: candidates around placed models and around the targets, scored by the
 * distance to the nearest target. With `allowStay`, staying put is the last resort.
 */
function approach(
  ctx: Ctx,
  P: Placement,
  i: number,
  targets: number[],
  minNeighbours: number,
  allowStay: boolean,
  mustBeCloserThan = Infinity,
  closestOf?: number,
  blockUnplacedStarts = true,
): boolean {
  const m = ctx.models[i];
  const s = m.start!;
  const R = ctx.maxDistance;
  const scoreOf = closestOf !== undefined ? [closestOf] : targets;
  const round = m.base.kind === 'circle';
  /** edge distance from model i at (x, y) to the nearest scored target */
  const score = (x: number, y: number): number => {
    let best = Infinity;
    if (!round) setBaseShape(candShape, m.base, x, y);
    for (const k of scoreOf) {
      const o = ctx.obstacles[k].shape;
      let d: number;
      if (round && o.k === 0) {
        d = len(o.x - x, o.y - y) - o.m - (m.base as { r: number }).r;
        if (d < 0) d = 0;
      } else {
        if (round) setBaseShape(candShape, m.base, x, y);
        d = shapeDistance(candShape, o);
      }
      if (d < best) best = d;
    }
    return best;
  };
  // candidates within reach and with enough placed neighbours; scored afterwards
  const cands: { x: number; y: number; d: number }[] = [];
  const add = (x: number, y: number): void => {
    if (len(x - s.x, y - s.y) > R + DISTANCE_EPSILON) return;
    if (minNeighbours > 0 && placedNeighbours(ctx, P, i, x, y, 0) < minNeighbours) return;
    cands.push({ x, y, d: 0 });
  };
  // spots next to the placed models nearest to this model's start (exact edge gaps, whatever the bases)
  const placedIdx: number[] = [];
  for (let j = 0; j < ctx.models.length; j++) if (P.placed[j] && j !== i) placedIdx.push(j);
  const dj = (j: number) => len(P.x[j] - s.x, P.y[j] - s.y);
  placedIdx.sort((a, b) => dj(a) - dj(b) || a - b);
  for (const j of placedIdx.slice(0, 6)) {
    if (dj(j) > R + m.radius + ctx.models[j].radius + 2) continue;
    const sh = setBaseShape(newShape(), ctx.models[j].base, P.x[j], P.y[j]);
    for (const gap of [0.1, 0.7, 1.4, 1.9]) for (const p of contactSpots(ctx, i, sh, s.x, s.y, gap)) add(p.x, p.y);
  }
  for (const k of targets) {
    const o = ctx.obstacles[k];
    if (len(o.shape.x - s.x, o.shape.y - s.y) > R + o.radius + m.radius + 2) continue;
    for (const gap of [0.3, 0.8]) for (const p of contactSpots(ctx, i, o.shape, s.x, s.y, gap)) add(p.x, p.y);
  }
  // straight toward the nearest target, in steps
  if (targets.length > 0) {
    let bk = targets[0];
    let bd = Infinity;
    for (const k of targets) {
      const d = len(ctx.obstacles[k].shape.x - s.x, ctx.obstacles[k].shape.y - s.y);
      if (d < bd) {
        bd = d;
        bk = k;
      }
    }
    const o = ctx.obstacles[closestOf ?? bk].shape;
    const L = len(o.x - s.x, o.y - s.y);
    if (L > 0) {
      for (let step = 1; step <= 12; step++) {
        const dd = Math.min(R, L) * (step / 12);
        add(s.x + ((o.x - s.x) / L) * dd, s.y + ((o.y - s.y) / L) * dd);
      }
    }
  }
  for (const c of cands) c.d = score(c.x, c.y);
  cands.sort((a, b) => a.d - b.d || a.x - b.x || a.y - b.y);
  for (const c of cands) {
    if (c.d >= mustBeCloserThan - 1e-9) break;
    if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, blockUnplacedStarts)) continue;
    if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
    if (placedNeighbours(ctx, P, i, c.x, c.y, 0) < minNeighbours) continue;
    const r = reach(ctx, i, c.x, c.y, 0);
    if (!r) continue;
    place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
    return true;
  }
  if (allowStay) {
    if (placedNeighbours(ctx, P, i, s.x, s.y, s.z) < minNeighbours) return false;
    return endLegalOrStay(ctx, P, i);
  }
  return false;
}

// --- Pile-in and Consolidate ------------------------------------------------------------------

function planPileIn(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const n = ctx.models.length;
  const enemies = ctx.obstacles.map((o, k) => (o.enemy ? k : -1)).filter((k) => k >= 0);
  const stayAll = (note: string): PlannedMove => {
    const P = newPlacement(n);
    for (let i = 0; i < n; i++) {
      const s = ctx.models[i].start!;
      place(P, i, s.x, s.y, s.z, [{ x: s.x, y: s.y }], 0, []);
    }
    return finish(ctx, P, false, note);
  };
  const startBody = (i: number) => modelBody(ctx.models[i], ctx.models[i].start!.x, ctx.models[i].start!.y, ctx.models[i].start!.z);
  // the closest enemy model of each model
  const closest: number[] = [];
  const d0: number[] = [];
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    let bk = -1;
    for (const k of enemies) {
      const d = horizontalDistance(startBody(i), obstacleBody(ctx, k));
      if (d < best) {
        best = d;
        bk = k;
      }
    }
    closest.push(bk);
    d0.push(best);
  }
  const R = ctx.maxDistance;
  const canReachEnemy = enemies.length > 0 && d0.some((d) => d <= R + ENGAGEMENT_RANGE_HORIZONTAL + DISTANCE_EPSILON);
  if (ctx.mode === 'consolidate' && !canReachEnemy) return consolidateToObjective(ctx, stayAll);
  if (enemies.length === 0) return stayAll('no enemy models on the table');
  const P = newPlacement(n);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => d0[a] - d0[b] || a - b);
  const req = requiredNeighbours(ctx);
  const startsCoherent = unitCoherency(ctx.models.map((m) => modelBody(m, m.start!.x, m.start!.y, m.start!.z))).ok;
  for (const i of order) {
    const m = ctx.models[i];
    const s = m.start!;
    const need = startsCoherent ? Math.min(req, placedCount(P)) : 0;
    if (d0[i] <= 0.01) {
      if (!endLegalOrStay(ctx, P, i)) return stayAll('the unit cannot pile in');
      continue;
    }
    // base contact: the closest enemy model first, then any enemy model in reach
    const targets = [closest[i], ...enemies.filter((k) => k !== closest[i])];
    let placedIt = false;
    const cands: { x: number; y: number; d: number; k: number }[] = [];
    for (const k of targets) {
      const o = ctx.obstacles[k];
      if (horizontalDistance(startBody(i), obstacleBody(ctx, k)) > R + DISTANCE_EPSILON) continue;
      for (const p of contactSpots(ctx, i, o.shape, s.x, s.y, CONTACT_GAP)) {
        const d = len(p.x - s.x, p.y - s.y);
        if (d <= R + DISTANCE_EPSILON) cands.push({ x: p.x, y: p.y, d: (k === closest[i] ? 0 : 100) + d, k });
      }
    }
    cands.sort((a, b) => a.d - b.d || a.x - b.x || a.y - b.y);
    const closestShape = ctx.obstacles[closest[i]].shape;
    const closestUnit = ctx.obstacles[closest[i]].unitId;
    for (const c of cands) {
      setBaseShape(candShape, m.base, c.x, c.y);
      // must end closer, unless in base contact with the closest enemy unit is enough (closestUnitContact)
      const contactEnough = ctx.req.closestUnitContact === true && ctx.obstacles[c.k].unitId === closestUnit;
      if (!contactEnough && shapeDistance(candShape, closestShape) >= d0[i] - 1e-9) continue;
      if (!freeOfUnit(ctx, P, i, c.x, c.y, 0, true)) continue;
      if (!endLegal(ctx, i, c.x, c.y, 0, PLAN_MARGIN, null)) continue;
      if (placedNeighbours(ctx, P, i, c.x, c.y, 0) < need) continue;
      const r = reach(ctx, i, c.x, c.y, 0);
      if (!r) continue;
      place(P, i, c.x, c.y, 0, r.path, r.length, r.crossed);
      placedIt = true;
      break;
    }
    if (placedIt) continue;
    if (!approach(ctx, P, i, [closest[i]], need, true, d0[i], closest[i])) {
      return stayAll('the unit cannot pile in and keep Unit Coherency');
    }
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  if (!unitCoherency(bodies).ok) {
    const closer = (i: number, x: number, y: number) => {
      setBaseShape(candShape, ctx.models[i].base, x, y);
      return shapeDistance(candShape, ctx.obstacles[closest[i]].shape) < d0[i] - 1e-9;
    };
    if (!repairCoherency(ctx, P, (i) => ({ x: ctx.obstacles[closest[i]].shape.x, y: ctx.obstacles[closest[i]].shape.y }), closer)) {
      return stayAll('the unit cannot pile in and keep Unit Coherency');
    }
  }
  return finish(ctx, P, true);
}

function consolidateToObjective(ctx: Ctx, stayAll: (note: string) => PlannedMove): PlanResult {
  const markers = ctx.world.objectives ?? [];
  if (markers.length === 0) return stayAll('no enemy in reach and no objective marker');
  const n = ctx.models.length;
  const c = centroidOf(ctx.models.map((m) => m.start!));
  let best: ObjectiveMarker = markers[0];
  let bd = Infinity;
  for (const mk of markers) {
    const d = len(mk.pos.x - c.x, mk.pos.y - c.y);
    if (d < bd) {
      bd = d;
      best = mk;
    }
  }
  const mb = markerBody(best);
  const P = newPlacement(n);
  const dist0 = ctx.models.map((m) => horizontalDistance(modelBody(m, m.start!.x, m.start!.y, m.start!.z), mb));
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => dist0[a] - dist0[b] || a - b);
  const startsCoherent = unitCoherency(ctx.models.map((m) => modelBody(m, m.start!.x, m.start!.y, m.start!.z))).ok;
  const req = requiredNeighbours(ctx);
  for (const i of order) {
    const m = ctx.models[i];
    const s = m.start!;
    const need = startsCoherent ? Math.min(req, placedCount(P)) : 0;
    const L = len(best.pos.x - s.x, best.pos.y - s.y);
    const d = Math.min(ctx.maxDistance, L);
    const tx = L > 0 ? s.x + ((best.pos.x - s.x) / L) * d : s.x;
    const ty = L > 0 ? s.y + ((best.pos.y - s.y) / L) * d : s.y;
    let done = false;
    const maxR = Math.min(3, ctx.maxDistance);
    for (let k = 0; k < SPIRAL.length && !done; k += 2) {
      const ox = SPIRAL[k];
      const oy = SPIRAL[k + 1];
      if (ox * ox + oy * oy > maxR * maxR) break;
      const x = tx + ox;
      const y = ty + oy;
      if (horizontalDistance(modelBody(m, x, y, 0), mb) >= dist0[i] - 1e-9) continue;
      if (!freeOfUnit(ctx, P, i, x, y, 0, true)) continue;
      if (!endLegal(ctx, i, x, y, 0, PLAN_MARGIN, null)) continue;
      if (placedNeighbours(ctx, P, i, x, y, 0) < need) continue;
      const r = reach(ctx, i, x, y, 0);
      if (!r) continue;
      place(P, i, x, y, 0, r.path, r.length, r.crossed);
      done = true;
    }
    if (!done && !endLegalOrStay(ctx, P, i)) return stayAll('the unit cannot consolidate toward the objective');
  }
  const bodies = Array.from({ length: n }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  if (!unitCoherency(bodies).ok) return stayAll('the unit cannot consolidate toward the objective in Unit Coherency');
  if (!bodies.some((b) => inObjectiveRange(b, best))) return stayAll(`the unit cannot end within range of objective ${best.id}`);
  return finish(ctx, P, true, `consolidated toward objective ${best.id}`);
}

// --- Set-ups: Deep Strike, Strategic Reserves, deployment, disembark ---------------------------------

/** Hex-lattice slot offsets for spacing s, nearest first, enough for a unit strung along a 6" strip (memoised). */
const latticeCache = new Map<string, Float64Array>();
function latticeSlots(spacing: number, n: number): Float64Array {
  const key = `${spacing}:${n}`;
  const hit = latticeCache.get(key);
  if (hit) return hit;
  const radius = spacing * Math.max(3, Math.ceil(n / 2) + 2);
  const pts: { x: number; y: number; d: number; a: number }[] = [];
  const rowH = (spacing * Math.sqrt(3)) / 2;
  const rows = Math.ceil(radius / rowH);
  const cols = Math.ceil(radius / spacing) + 1;
  for (let r = -rows; r <= rows; r++) {
    const off = (r & 1) !== 0 ? spacing / 2 : 0;
    for (let c = -cols; c <= cols; c++) {
      const x = c * spacing + off;
      const y = r * rowH;
      const d = len(x, y);
      if (d <= radius) pts.push({ x, y, d, a: Math.atan2(y, x) });
    }
  }
  pts.sort((p, q) => p.d - q.d || p.a - q.a);
  const out = new Float64Array(pts.length * 2);
  pts.forEach((p, k) => {
    out[2 * k] = p.x;
    out[2 * k + 1] = p.y;
  });
  if (latticeCache.size > 256) latticeCache.clear();
  latticeCache.set(key, out);
  return out;
}

/** Integer grid offsets (i, j) within radius 90, nearest first (ties: j, then i); built once. */
let gridOrder: Int16Array | null = null;
function gridOffsets(): Int16Array {
  if (gridOrder) return gridOrder;
  const R = 90;
  const pts: number[][] = [];
  for (let i = -R; i <= R; i++) for (let j = -R; j <= R; j++) if (i * i + j * j <= R * R) pts.push([i * i + j * j, j, i]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  gridOrder = new Int16Array(pts.length * 2);
  pts.forEach((p, k) => {
    gridOrder![2 * k] = p[2];
    gridOrder![2 * k + 1] = p[1];
  });
  return gridOrder;
}

function defaultSetUpPoint(ctx: Ctx): Vec2 {
  const b = ctx.board;
  switch (ctx.mode) {
    case 'setUp':
      return polygonCentroid(ctx.zone!);
    case 'disembark':
      return { x: ctx.transport!.shape.x, y: ctx.transport!.shape.y };
    case 'strategicReserves': {
      const e = ctx.edges![0];
      return e === 'left' ? { x: 0, y: b.height / 2 } : e === 'right' ? { x: b.width, y: b.height / 2 } : e === 'top' ? { x: b.width / 2, y: 0 } : { x: b.width / 2, y: b.height };
    }
    default:
      return { x: b.width / 2, y: b.height / 2 };
  }
}

function planSetUp(ctx: Ctx): PlanResult {
  const n = ctx.models.length;
  const want = ctx.req.destination ?? defaultSetUpPoint(ctx);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ctx.models[b].radius - ctx.models[a].radius || a - b);
  const ref = order[0];
  const maxR = ctx.models[ref].radius;
  // anchors: a 1" grid aligned on the requested point, nearest first; in disembarks a finer grid near the transport
  const step = ctx.mode === 'disembark' ? 0.5 : 1;
  const W = ctx.board.width;
  const H = ctx.board.height;
  let xmin = 0;
  let xmax = W;
  let ymin = 0;
  let ymax = H;
  if (ctx.mode === 'disembark') {
    const t = ctx.transport!;
    const rr = t.radius + TRANSPORT_RANGE;
    xmin = Math.max(0, t.shape.x - rr);
    xmax = Math.min(W, t.shape.x + rr);
    ymin = Math.max(0, t.shape.y - rr);
    ymax = Math.min(H, t.shape.y + rr);
  } else if (ctx.zone) {
    const bb = polygonAabb(ctx.zone);
    xmin = Math.max(0, bb.minX);
    xmax = Math.min(W, bb.maxX);
    ymin = Math.max(0, bb.minY);
    ymax = Math.min(H, bb.maxY);
  }
  // anchors: grid points around the requested point, nearest first, inside the search box (and zone)
  const grid = gridOffsets();
  const anchorAt = (k: number): Vec2 | null => {
    const x = want.x + grid[2 * k] * step;
    const y = want.y + grid[2 * k + 1] * step;
    if (x < xmin || x > xmax || y < ymin || y > ymax) return null;
    if (ctx.zone && !pointInPolygon({ x, y }, ctx.zone)) return null;
    return { x, y };
  };
  const setUpDone = (P: Placement): PlannedMove => {
    const end = centroidOf(Array.from({ length: n }, (_, i) => ({ x: P.x[i], y: P.y[i], z: 0 })));
    return finish(ctx, P, len(end.x - want.x, end.y - want.y) <= 1);
  };
  const gaps = [1.5, 0.5, 0.05];
  const spacings = gaps.map((g) => 2 * maxR + g);
  // a lattice spaced for the largest base leaves the smallest ones out of Unit Coherency with each other
  // when a much larger model leads them (Yvraine's 75 mm oval among Wyches): then also lattices spaced
  // for the smallest base, the larger models standing on the slots they cover
  const minR = ctx.models[order[n - 1]].radius;
  if (2 * (maxR - minR) + gaps[gaps.length - 1] > COHERENCY_HORIZONTAL) for (const g of gaps) spacings.push(2 * minR + g);
  const slotsBySpacing = spacings.map((s) => latticeSlots(s, n));
  let tried = 0;
  for (let k = 0; k < grid.length / 2; k++) {
    const a = anchorAt(k);
    if (!a) continue;
    if (!endLegal(ctx, ref, a.x, a.y, 0, PLAN_MARGIN, null)) continue;
    if (tried++ > 150) break;
    for (const slots of slotsBySpacing) {
      const P = fillSlots(ctx, order, a.x, a.y, slots);
      if (P) return setUpDone(P);
    }
  }
  if (ctx.mode === 'disembark') {
    const P = fillAroundTransport(ctx, order, want, xmin, xmax, ymin, ymax);
    if (P) return setUpDone(P);
  }
  return fail(`no legal set-up found for the unit near (${want.x.toFixed(1)}, ${want.y.toFixed(1)})`);
}

/**
 * Disembarking when no compact blob fits (the 3" around the transport cut by enemy Engagement Range,
 * terrain or other models leaves a thin band): model by model on a fine grid of the band, each at the
 * legal point nearest the models already placed (the first nearest the wanted point), with the
 * neighbours Unit Coherency asks for. A player would line them up along the hull the same way.
 */
function fillAroundTransport(ctx: Ctx, order: number[], want: Vec2, xmin: number, xmax: number, ymin: number, ymax: number): Placement | null {
  const n = ctx.models.length;
  const step = 0.25;
  const pts: number[] = [];
  for (let y = ymin; y <= ymax + 1e-9; y += step) for (let x = xmin; x <= xmax + 1e-9; x += step) pts.push(x, y);
  const P = newPlacement(n);
  let cx = want.x, cy = want.y;
  for (const i of order) {
    const need = neighboursNeeded(ctx, P);
    let best = -1, bestD = Infinity;
    for (let k = 0; k < pts.length; k += 2) {
      const x = pts[k], y = pts[k + 1];
      const d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      if (d < bestD && slotFits(ctx, P, i, x, y, need)) { best = k; bestD = d; }
    }
    if (best < 0) return null;
    place(P, i, pts[best], pts[best + 1], 0, [{ x: pts[best], y: pts[best + 1] }], 0, []);
    // the next model goes nearest the placed ones' centre (a compact line, not a chain)
    const c = placedCount(P);
    cx = 0; cy = 0;
    for (let j = 0; j < n; j++) if (P.placed[j]) { cx += P.x[j] / c; cy += P.y[j] / c; }
  }
  return coherentOrNull(ctx, P);
}

/** Placed models of the unit a set-up model must be in coherency with: none for the first, then 1 (2 from the third on in units of 7+). */
function neighboursNeeded(ctx: Ctx, P: Placement): number {
  const have = placedCount(P);
  return have === 0 ? 0 : requiredNeighbours(ctx) === 2 && have >= 2 ? 2 : 1;
}

/** Can model i be set up at (x, y): its neighbours, clear of its unit's placed models, and legal there. */
function slotFits(ctx: Ctx, P: Placement, i: number, x: number, y: number, need: number): boolean {
  if (need > 0 && placedNeighbours(ctx, P, i, x, y, 0) < need) return false;
  return freeOfUnit(ctx, P, i, x, y, 0, false) && endLegal(ctx, i, x, y, 0, PLAN_MARGIN, null);
}

function coherentOrNull(ctx: Ctx, P: Placement): Placement | null {
  const bodies = Array.from({ length: P.placed.length }, (_, i) => modelBody(ctx.models[i], P.x[i], P.y[i], P.z[i]));
  return unitCoherency(bodies).ok ? P : null;
}

function fillSlots(ctx: Ctx, order: number[], ax: number, ay: number, slots: Float64Array): Placement | null {
  const n = ctx.models.length;
  const P = newPlacement(n);
  const used = new Uint8Array(slots.length / 2);
  for (const i of order) {
    let ok = false;
    const need = neighboursNeeded(ctx, P);
    for (let k = 0; k < used.length; k++) {
      if (used[k]) continue;
      const x = ax + slots[2 * k];
      const y = ay + slots[2 * k + 1];
      if (!slotFits(ctx, P, i, x, y, need)) continue;
      used[k] = 1;
      place(P, i, x, y, 0, [{ x, y }], 0, []);
      ok = true;
      break;
    }
    if (!ok) return null;
  }
  return coherentOrNull(ctx, P);
}

// --- Embark check ------------------------------------------------------------------------------

function planEmbarkCheck(ctx: Ctx): PlanResult {
  const missing = requireStarts(ctx);
  if (missing) return fail(missing);
  const t = ctx.transport!;
  const tb = ctx.world.models.find((w) => w.id === t.id)!.body;
  for (const m of ctx.models) {
    const b = modelBody(m, m.start!.x, m.start!.y, m.start!.z);
    const h = horizontalDistance(b, tb);
    const v = verticalDistance(b, tb);
    if (len(h, v) > TRANSPORT_RANGE + DISTANCE_EPSILON) return fail(`model ${m.id} is not within ${TRANSPORT_RANGE}" of the transport`);
  }
  const P = newPlacement(ctx.models.length);
  ctx.models.forEach((m, i) => place(P, i, m.start!.x, m.start!.y, m.start!.z, [{ x: m.start!.x, y: m.start!.y }], 0, []));
  return finish(ctx, P, true);
}

// ---------------------------------------------------------------------------------------------
// Validation of explicit positions.

/**
 * Checks positions given by an agent (one per model, in the request's order) against the rules of
 * the request's mode. Paths are not given: a model's move is legal when some clear path (straight,
 * or around obstacles through the planner's waypoints) is short enough. Not checked: "base-to-base
 * contact where possible" in charges and pile-ins (only that the charge ends within Engagement Range
 * of every target, and that pile-in moves end closer).
 */
export function validatePlacement(request: MoveRequest, world: World, positions: Vec3[]): PlacementCheck {
  const violations: Violation[] = [];
  const ctx = buildContext(request, world);
  if (typeof ctx === 'string') {
    return { ok: false, violations: [{ modelId: null, rule: 'request', detail: ctx }], crossedEnemyModelIds: [], pathLengths: [] };
  }
  const n = ctx.models.length;
  if (positions.length !== n) {
    violations.push({ modelId: null, rule: 'request', detail: `expected ${n} positions, got ${positions.length}` });
    return { ok: false, violations, crossedEnemyModelIds: [], pathLengths: [] };
  }
  const moving = !isSetUpMode(ctx.mode) && ctx.mode !== 'embarkCheck';
  if (moving || ctx.mode === 'embarkCheck') {
    for (const m of ctx.models) {
      if (!m.start) violations.push({ modelId: m.id, rule: 'notOnBattlefield', detail: 'the model is not on the battlefield' });
    }
    if (violations.length > 0) return { ok: false, violations, crossedEnemyModelIds: [], pathLengths: [] };
  }
  const bodies = positions.map((p, i) => modelBody(ctx.models[i], p.x, p.y, p.z));
  const lengths: number[] = new Array(n).fill(0);
  const crossedIdx = new Set<number>();
  if (ctx.mode === 'embarkCheck') {
    const tb = ctx.world.models.find((w) => w.id === ctx.transport!.id)!.body;
    for (let i = 0; i < n; i++) {
      const h = horizontalDistance(bodies[i], tb);
      const v = verticalDistance(bodies[i], tb);
      if (len(h, v) > TRANSPORT_RANGE + DISTANCE_EPSILON) {
        violations.push({ modelId: ctx.models[i].id, rule: 'transport', detail: `not within ${TRANSPORT_RANGE}" of the transport` });
      }
    }
    return { ok: violations.length === 0, violations, crossedEnemyModelIds: [], pathLengths: lengths };
  }
  for (let i = 0; i < n; i++) {
    const p = positions[i];
    endLegal(ctx, i, p.x, p.y, p.z, 0, violations);
    for (let j = 0; j < i; j++) {
      if (unitOverlap(ctx, i, p.x, p.y, p.z, j, positions[j].x, positions[j].y, positions[j].z, 0)) {
        violations.push({ modelId: ctx.models[i].id, rule: 'overlap', detail: `overlaps model ${ctx.models[j].id} of its unit` });
      }
    }
  }
  // movement
  if (moving) {
    if (ctx.mode === 'normal' || ctx.mode === 'advance' || ctx.mode === 'charge') {
      const engaged = startsInEngagement(ctx, false);
      if (engaged) violations.push({ modelId: null, rule: 'engagementRange', detail: `the unit starts within Engagement Range of enemy model ${engaged}` });
    }
    for (let i = 0; i < n; i++) {
      const m = ctx.models[i];
      const s = m.start!;
      const p = positions[i];
      if (s.x === p.x && s.y === p.y && s.z === p.z) continue;
      const dz = Math.abs(p.z - s.z);
      const straight = len(p.x - s.x, p.y - s.y) + dz;
      if (straight > ctx.maxDistance + DISTANCE_EPSILON) {
        lengths[i] = Infinity;
        violations.push({ modelId: m.id, rule: 'distance', detail: `moves ${straight.toFixed(2)}" (more than ${ctx.maxDistance}")` });
        continue;
      }
      const r = reach(ctx, i, p.x, p.y, p.z);
      if (!r) {
        lengths[i] = Infinity;
        violations.push({ modelId: m.id, rule: 'path', detail: `no legal path of at most ${ctx.maxDistance}"` });
        continue;
      }
      lengths[i] = r.length;
      for (const c of r.crossed) crossedIdx.add(c);
    }
    if (ctx.mode === 'charge') {
      for (const u of ctx.req.targetUnitIds!) {
        const idx = ctx.obstacles.map((o, k) => (o.unitId === u && o.enemy ? k : -1)).filter((k) => k >= 0);
        let engaged = false;
        for (let i = 0; i < n && !engaged; i++) {
          for (const k of idx) {
            const ob = obstacleBody(ctx, k);
            if (inEngagementRange(bodies[i], ob)) {
              engaged = true;
              break;
            }
          }
        }
        if (!engaged) violations.push({ modelId: null, rule: 'chargeTarget', detail: `the unit does not end within Engagement Range of target unit ${u}` });
      }
    }
    if (ctx.mode === 'pileIn' || ctx.mode === 'consolidate') {
      const enemies = ctx.obstacles.map((o, k) => (o.enemy ? k : -1)).filter((k) => k >= 0);
      const markers = ctx.world.objectives ?? [];
      for (let i = 0; i < n; i++) {
        const m = ctx.models[i];
        const s = m.start!;
        const p = positions[i];
        if (s.x === p.x && s.y === p.y && s.z === p.z) continue;
        const sb = modelBody(m, s.x, s.y, s.z);
        let best = Infinity;
        let bk = -1;
        for (const k of enemies) {
          const d = horizontalDistance(sb, obstacleBody(ctx, k));
          if (d < best) {
            best = d;
            bk = k;
          }
        }
        let closer = bk >= 0 && horizontalDistance(bodies[i], obstacleBody(ctx, bk)) < best - 1e-9;
        // or in base contact with a model of the closest enemy unit, when that is enough (closestUnitContact)
        if (!closer && bk >= 0 && ctx.req.closestUnitContact === true) {
          const unit = ctx.obstacles[bk].unitId;
          closer = enemies.some((k) => ctx.obstacles[k].unitId === unit && horizontalDistance(bodies[i], obstacleBody(ctx, k)) <= 0.01);
        }
        if (!closer && ctx.mode === 'consolidate') {
          // toward the objective marker closest to the unit
          const c = centroidOf(ctx.models.map((mm) => mm.start!));
          let mk: ObjectiveMarker | null = null;
          let md = Infinity;
          for (const o of markers) {
            const d = len(o.pos.x - c.x, o.pos.y - c.y);
            if (d < md) {
              md = d;
              mk = o;
            }
          }
          if (mk) closer = horizontalDistance(bodies[i], markerBody(mk)) < horizontalDistance(sb, markerBody(mk)) - 1e-9;
        }
        if (!closer) violations.push({ modelId: m.id, rule: 'notCloser', detail: 'does not end closer to the closest enemy model' });
      }
    }
  }
  const coh = unitCoherency(bodies);
  for (const b of coh.breaking) {
    violations.push({ modelId: ctx.models[b].id, rule: 'coherency', detail: coh.neighbours[b] < requiredNeighbours(ctx) ? 'too few models of its unit within 2"' : 'not in the same group as the rest of its unit' });
  }
  const crossed = [...crossedIdx].map((k) => ctx.obstacles[k].id).sort();
  return { ok: violations.length === 0, violations, crossedEnemyModelIds: crossed, pathLengths: lengths };
}

