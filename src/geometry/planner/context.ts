/**
 * A request checked and turned into the planner's working context: the other models as obstacles (with a
 * spatial index), the terrain that blocks, each model's mover, and the limits of the mode.
 * Part of the movement planner (../planner.ts, whose comment says what it enforces and how it places models).
 */
import type { Base, Board, Vec2, Vec3 } from '../types.ts';
import { DISTANCE_EPSILON } from '../types.ts';
import { newShape, setBaseShape, shapeAabb, baseBoundingRadius } from '../shape.ts';
import { polygonAabb } from '../polygon.ts';
import { buildBoxIndex, type BoxIndex } from '../spatial.ts';
import { type BoardEdge, BOARD_EDGES } from '../distance.ts';
import type { BlockingPiece, EnemyRule, Mover, Obstacle, PathWorld, Waypoints } from '../pathing.ts';
import type { MoveMode, World, MoveRequest } from './types.ts';

/** Base-to-base contact is planned with this gap (well inside BASE_CONTACT_DISTANCE). */
export const CONTACT_GAP = 0.005;

/** The planner keeps this much extra room on every "more than" / "wholly within" limit. */
export const PLAN_MARGIN = 0.01;

const SETUP_DEFAULT_MIN_ENEMY = 9;
const PILE_IN_DISTANCE = 3;
export const STRATEGIC_RESERVES_EDGE_RANGE = 6;
export const TRANSPORT_RANGE = 3;

export interface UnitModel {
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

export interface Ctx {
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
  /** disembark: the models end wholly within this of the transport (MoveRequest.transportRange) */
  transportRange: number;
  zone: Vec2[] | null;
  edges: BoardEdge[] | null;
  forbiddenZones: Vec2[][];
  /** a move (not a set-up, nor the embark check): no model may end it on top of an objective marker */
  endsOffMarkers: boolean;
}

export function isSetUpMode(mode: MoveMode): boolean {
  return mode === 'deepStrike' || mode === 'strategicReserves' || mode === 'setUp' || mode === 'disembark';
}

/** The moves in which a model that can FLY is moved over enemy models as if they were not there. */
const FLYING_MOVES: ReadonlySet<MoveMode> = new Set<MoveMode>(['normal', 'advance', 'fallBack']);

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

export function buildContext(req: MoveRequest, world: World): Ctx | string {
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
      o = { id: '', body: wm.body, unitId: '', enemy: false, target: false, titanic: false, monsterOrVehicle: false, shape: newShape(), z0: 0, z1: 0, radius: 0 };
      obstaclePool.push(o);
    }
    const enemy = wm.player !== req.player;
    o.id = wm.id;
    o.body = wm.body;
    o.unitId = wm.unitId;
    o.enemy = enemy;
    o.titanic = !!wm.titanic;
    o.monsterOrVehicle = !!wm.monsterOrVehicle;
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
    // FLY models pass over every model on the way in a Normal, Advance or Fall Back move only (core rules,
    // Flying: not in a Charge move, Pile-in or Consolidation); a rule may let a charge pass through
    // (Acrobatic Onslaught: overModels), as may a walker's rule that excludes no model
    const overAll = (fly && FLYING_MOVES.has(mode)) || !!pm.overModels || !!walk?.titanicModels;
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
        ...(pm.monsterOrVehicle && !overAll ? { aroundFriendlyHulls: true } : {}),
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
    transportRange: req.transportRange ?? TRANSPORT_RANGE,
    zone: mode === 'setUp' ? req.zone! : null,
    edges: mode === 'strategicReserves' ? (req.allowedEdges && req.allowedEdges.length > 0 ? req.allowedEdges : [...BOARD_EDGES]) : null,
    forbiddenZones: req.forbiddenZones ?? [],
    endsOffMarkers: !isSetUpMode(mode) && mode !== 'embarkCheck' && (world.objectives?.length ?? 0) > 0,
  };
}
