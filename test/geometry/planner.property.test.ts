/**
 * Property tests of the movement planner: on random boards (random ruins, walls, woods, rocks), with
 * random units (1-20 models, random bases) and random intents, every plan the planner returns keeps
 * every rule, checked here independently of the planner (by sampling paths, with the public distance
 * functions), and validatePlacement accepts it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planMove, validatePlacement, type MoveMode, type MoveRequest, type PlannedMove, type PlanModel, type WalksOver, type World, type WorldModel } from '../../src/geometry/planner.ts';
import {
  horizontalDistance,
  isOnBoard,
  isWhollyWithinOfBody,
  isWhollyWithinOfEdge,
  isWhollyWithinPolygon,
  modelsOverlap,
  overlapsPolygon,
  type BoardEdge,
} from '../../src/geometry/distance.ts';
import { inEngagementRange, isCoherent, markerBody } from '../../src/geometry/ranges.ts';
import type { Base, Body, TerrainPiece, Vec2 } from '../../src/geometry/types.ts';
import { baseBoundingRadius } from '../../src/geometry/shape.ts';
import { square } from './helpers.ts';

const EPS = 1e-6;

// ---------------------------------------------------------------------------------------------
// Generators.

const baseArb: fc.Arbitrary<Base> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(25, 28.5, 32, 40, 50, 60).map((mm): Base => ({ kind: 'circle', r: mm / 2 / 25.4 })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ rx: fc.double({ min: 0.7, max: 2.5, noNaN: true }), k: fc.double({ min: 0.4, max: 0.95, noNaN: true }), angle: fc.double({ min: 0, max: 6.28, noNaN: true }) })
      .map(({ rx, k, angle }): Base => ({ kind: 'oval', rx, ry: rx * k, angle })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ l: fc.double({ min: 2, max: 6, noNaN: true }), k: fc.double({ min: 0.4, max: 0.9, noNaN: true }), angle: fc.double({ min: 0, max: 6.28, noNaN: true }) })
      .map(({ l, k, angle }): Base => ({ kind: 'rect', l, w: l * k, angle })),
  },
);

const terrainArb = fc.record({
  x: fc.double({ min: 2, max: 54, noNaN: true }),
  y: fc.double({ min: 2, max: 38, noNaN: true }),
  w: fc.double({ min: 1.5, max: 10, noNaN: true }),
  h: fc.double({ min: 1.5, max: 8, noNaN: true }),
  kind: fc.constantFrom<TerrainPiece['kind']>('ruin', 'ruin', 'ruin', 'area', 'wall', 'impassable'),
  triangle: fc.boolean(),
});

const unitArb = fc.record({
  n: fc.integer({ min: 1, max: 20 }),
  base: baseArb,
  x: fc.double({ min: 3, max: 57, noNaN: true }),
  y: fc.double({ min: 3, max: 41, noNaN: true }),
  gap: fc.double({ min: 0.2, max: 1.6, noNaN: true }),
  perRow: fc.integer({ min: 1, max: 6 }),
});

const otherUnitArb = fc.record({
  n: fc.integer({ min: 1, max: 10 }),
  base: baseArb,
  x: fc.double({ min: 1, max: 59, noNaN: true }),
  y: fc.double({ min: 1, max: 43, noNaN: true }),
  gap: fc.double({ min: 0.2, max: 2, noNaN: true }),
  perRow: fc.integer({ min: 1, max: 5 }),
  enemy: fc.boolean(),
  titanic: fc.constantFrom(false, false, true),
});

/** A walker's rule: none, over non-TITANIC models and terrain up to 4" (Heavy Walker), over everything (Titanic Agility). */
const walksOverArb = fc.constantFrom<WalksOver | undefined>(undefined, undefined, undefined, { titanicModels: false, terrainHeight: 4 }, { titanicModels: true, terrainHeight: Infinity });

const pointArb = fc.record({ x: fc.double({ min: 0, max: 60, noNaN: true }), y: fc.double({ min: 0, max: 44, noNaN: true }) });

const scenarioArb = fc.record({
  terrain: fc.array(terrainArb, { maxLength: 8 }),
  unit: unitArb,
  others: fc.array(otherUnitArb, { maxLength: 5 }),
  flags: fc.record({ canFly: fc.boolean(), isVehicleOrMonster: fc.boolean(), walksOver: walksOverArb }),
  destination: pointArb,
  distance: fc.double({ min: 0.5, max: 20, noNaN: true }),
  chargeRoll: fc.integer({ min: 2, max: 12 }),
  edges: fc.subarray<BoardEdge>(['top', 'right', 'bottom', 'left'], { minLength: 1 }),
  zone: fc.record({ x: fc.double({ min: 0, max: 40, noNaN: true }), y: fc.double({ min: 0, max: 25, noNaN: true }), w: fc.double({ min: 8, max: 20, noNaN: true }), h: fc.double({ min: 8, max: 19, noNaN: true }) }),
  transport: fc.record({ x: fc.double({ min: 6, max: 54, noNaN: true }), y: fc.double({ min: 6, max: 38, noNaN: true }), angle: fc.double({ min: 0, max: 3.14, noNaN: true }) }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function grid(prefix: string, unitId: string, player: string, u: { n: number; base: Base; x: number; y: number; gap: number; perRow: number; titanic?: boolean }): WorldModel[] {
  const s = 2 * baseBoundingRadius(u.base) + u.gap;
  return Array.from({ length: u.n }, (_, i) => ({
    id: `${prefix}${i}`,
    unitId,
    player,
    body: { pos: { x: u.x + (i % u.perRow) * s, y: u.y + Math.floor(i / u.perRow) * s, z: 0 }, base: u.base, height: 1.5 },
    ...(u.titanic ? { titanic: true } : {}),
  }));
}

interface Built {
  world: World;
  req: MoveRequest;
}

const SETUP: MoveMode[] = ['deepStrike', 'strategicReserves', 'setUp', 'disembark'];

/** Builds a legal starting world for the mode, or null when the random draw cannot make one. */
function build(sc: Scenario, mode: MoveMode): Built | null {
  const setUp = SETUP.includes(mode);
  const W = 60;
  const H = 44;
  const board = { width: W, height: H, terrain: [] as TerrainPiece[] };
  const onBoard = (b: Body) => isOnBoard(b, board);
  // the unit being moved
  let mine = setUp ? [] : grid('u', 'U', 'p1', sc.unit).filter((m) => onBoard(m.body));
  if (!setUp) {
    if (mine.length === 0) return null;
    if (!isCoherent(mine.map((m) => m.body))) return null;
  }
  // terrain that does not overlap the unit's starting positions
  sc.terrain.forEach((t, k) => {
    const polygon: Vec2[] = t.triangle
      ? [
          { x: t.x, y: t.y },
          { x: t.x + t.w, y: t.y },
          { x: t.x, y: t.y + t.h },
        ]
      : t.kind === 'wall'
        ? square(t.x, t.y, t.w > t.h ? t.w : 0.3, t.w > t.h ? 0.3 : t.h)
        : square(t.x, t.y, t.w, t.h);
    if (mine.some((m) => overlapsPolygon(m.body, polygon) || horizontalDistance(m.body, { pos: { x: polygon[0].x, y: polygon[0].y, z: 0 }, base: { kind: 'circle', r: 0 }, height: 0 }) < 0)) return;
    board.terrain.push({ id: `t${k}`, kind: t.kind, polygon, height: 3 + (k % 3) });
  });
  const blocking = board.terrain.filter((t) => t.kind === 'wall' || t.kind === 'impassable');
  const models: WorldModel[] = [...mine];
  const engagedForbidden = mode === 'normal' || mode === 'advance' || mode === 'charge';
  const legalOther = (m: WorldModel) =>
    onBoard(m.body) &&
    !blocking.some((t) => overlapsPolygon(m.body, t.polygon)) &&
    !models.some((o) => modelsOverlap(o.body, m.body)) &&
    !(engagedForbidden && m.player !== 'p1' && mine.some((u) => horizontalDistance(u.body, m.body) <= 1.2));
  if (mode === 'disembark') {
    const t: WorldModel = { id: 'transport', unitId: 'T', player: 'p1', body: { pos: { x: sc.transport.x, y: sc.transport.y, z: 0 }, base: { kind: 'rect', l: 5, w: 3, angle: sc.transport.angle }, height: 3 } };
    if (!legalOther(t)) return null;
    models.push(t);
  }
  sc.others.forEach((o, k) => {
    for (const m of grid(`o${k}-`, `O${k}`, o.enemy ? 'p2' : 'p1', o)) if (legalOther(m)) models.push(m);
  });
  const world: World = { board, models, objectives: [{ id: 'A', pos: { x: 30, y: 22 } }, { id: 'B', pos: sc.destination }] };
  const planModels: PlanModel[] = setUp
    ? Array.from({ length: Math.min(sc.unit.n, mode === 'disembark' ? 10 : 20) }, (_, i) => ({ id: `u${i}`, body: null, base: sc.unit.base, height: 1.5, ...sc.flags }))
    : mine.map((m) => ({ id: m.id, body: m.body, ...sc.flags }));
  const req: MoveRequest = { mode, player: 'p1', unitId: 'U', models: planModels };
  switch (mode) {
    case 'normal':
    case 'advance':
    case 'fallBack':
      req.maxDistance = sc.distance;
      req.destination = sc.destination;
      break;
    case 'charge': {
      const enemies = models.filter((m) => m.player === 'p2');
      if (enemies.length === 0) return null;
      let best = enemies[0];
      let bd = Infinity;
      for (const e of enemies) {
        for (const u of mine) {
          const d = horizontalDistance(u.body, e.body);
          if (d < bd) [bd, best] = [d, e];
        }
      }
      if (bd > 12) return null;
      req.maxDistance = sc.chargeRoll;
      req.targetUnitIds = [best.unitId];
      break;
    }
    case 'pileIn':
    case 'consolidate':
      req.maxDistance = 3;
      break;
    case 'deepStrike':
      req.destination = sc.destination;
      break;
    case 'strategicReserves':
      req.destination = sc.destination;
      req.allowedEdges = sc.edges;
      break;
    case 'setUp':
      req.zone = square(sc.zone.x, sc.zone.y, sc.zone.w, sc.zone.h);
      req.destination = sc.destination;
      break;
    case 'disembark':
      req.transportId = 'transport';
      break;
  }
  return { world, req };
}

// ---------------------------------------------------------------------------------------------
// Independent checks.

function sample(path: Vec2[], step: number): Vec2[] {
  const out: Vec2[] = [];
  for (let k = 1; k < path.length; k++) {
    const a = path[k - 1];
    const b = path[k];
    const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / step));
    for (let i = 0; i <= n; i++) out.push({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n });
  }
  return out;
}

function checkPlan({ world, req }: Built, r: PlannedMove): void {
  const n = req.models.length;
  expect(r.positions).toHaveLength(n);
  const mode = req.mode;
  const moving = !SETUP.includes(mode);
  const ends: Body[] = r.positions.map((p, i) => ({ pos: p, base: req.models[i].body?.base ?? req.models[i].base!, height: req.models[i].body?.height ?? req.models[i].height! }));
  const ids = new Set(req.models.map((m) => m.id));
  const others = world.models.filter((m) => !ids.has(m.id));
  const enemies = others.filter((m) => m.player !== req.player);
  const flags = req.models[0];
  const fly = !!flags.canFly;
  const heavy = !!flags.isVehicleOrMonster;
  const blocking = world.board.terrain.filter((t) => t.kind === 'wall' || t.kind === 'impassable');
  const ruins = world.board.terrain.filter((t) => t.kind === 'ruin');
  for (let i = 0; i < n; i++) {
    const b = ends[i];
    expect(isOnBoard(b, world.board)).toBe(true);
    for (let j = 0; j < i; j++) expect(modelsOverlap(b, ends[j])).toBe(false);
    for (const o of others) expect(modelsOverlap(b, o.body)).toBe(false);
    for (const t of blocking) expect(overlapsPolygon(b, t.polygon)).toBe(false);
    // a VEHICLE or MONSTER ends on a ruin only if it can FLY
    if (heavy && !fly) for (const t of ruins) expect(overlapsPolygon(b, t.polygon)).toBe(false);
  }
  expect(isCoherent(ends)).toBe(true);
  // Engagement Range at the end
  if (mode === 'normal' || mode === 'advance' || mode === 'fallBack' || SETUP.includes(mode)) {
    for (const b of ends) for (const e of enemies) expect(inEngagementRange(b, e.body)).toBe(false);
  }
  if (mode === 'charge') {
    const targets = new Set(req.targetUnitIds);
    for (const b of ends) for (const e of enemies) if (!targets.has(e.unitId)) expect(inEngagementRange(b, e.body)).toBe(false);
    for (const u of targets) expect(ends.some((b) => enemies.some((e) => e.unitId === u && inEngagementRange(b, e.body)))).toBe(true);
  }
  if (mode === 'deepStrike' || mode === 'strategicReserves') {
    for (const b of ends) for (const e of enemies) expect(horizontalDistance(b, e.body)).toBeGreaterThan(9);
  }
  if (mode === 'strategicReserves') {
    for (const b of ends) expect(req.allowedEdges!.some((e) => isWhollyWithinOfEdge(b, e, 6, world.board))).toBe(true);
  }
  if (mode === 'setUp') for (const b of ends) expect(isWhollyWithinPolygon(b, req.zone!)).toBe(true);
  if (mode === 'disembark') {
    const t = world.models.find((m) => m.id === req.transportId)!;
    for (const b of ends) expect(isWhollyWithinOfBody(b, t.body, 3)).toBe(true);
  }
  if (moving) {
    // a walker's rule: over every enemy model (or all but TITANIC ones), and over terrain up to its height
    const walk = flags.walksOver;
    const crossAllowed = fly || mode === 'fallBack' || !!walk?.titanicModels;
    const walkHeight = walk?.terrainHeight ?? 0;
    const pathBlocking = blocking.filter((t) => t.kind === 'wall' || t.height > walkHeight);
    const pathRuins = !heavy || fly ? [] : ruins.filter((t) => t.height > walkHeight);
    const constraining = walk ? enemies.filter((e) => e.titanic) : enemies;
    for (let i = 0; i < n; i++) {
      const s = req.models[i].body!;
      const path = r.paths[i];
      expect(r.pathLengths[i]).toBeLessThanOrEqual(req.maxDistance! + EPS);
      if (r.pathLengths[i] === 0) {
        expect(r.positions[i]).toEqual(s.pos);
        continue;
      }
      expect(path[0].x).toBeCloseTo(s.pos.x, 9);
      expect(path[0].y).toBeCloseTo(s.pos.y, 9);
      expect(path[path.length - 1].x).toBeCloseTo(r.positions[i].x, 9);
      let len = 0;
      for (let k = 1; k < path.length; k++) len += Math.hypot(path[k].x - path[k - 1].x, path[k].y - path[k - 1].y);
      expect(len + Math.abs(r.positions[i].z - s.pos.z)).toBeCloseTo(r.pathLengths[i], 9);
      for (const p of sample(path, 0.1)) {
        const at: Body = { pos: { x: p.x, y: p.y, z: 0 }, base: s.base, height: s.height };
        for (const t of pathBlocking) expect(overlapsPolygon(at, t.polygon)).toBe(false);
        for (const t of pathRuins) expect(overlapsPolygon(at, t.polygon)).toBe(false);
        if (!crossAllowed) {
          for (const e of constraining) {
            const d = horizontalDistance(at, e.body);
            if (mode === 'normal' || mode === 'advance' || (mode === 'charge' && !req.targetUnitIds!.includes(e.unitId))) expect(d).toBeGreaterThan(1);
            else expect(modelsOverlap(at, e.body)).toBe(false);
          }
        }
      }
    }
    if (mode === 'pileIn' || mode === 'consolidate') {
      for (let i = 0; i < n; i++) {
        const s = req.models[i].body!;
        if (r.pathLengths[i] === 0) continue;
        let closest = Infinity;
        let e0: WorldModel | null = null;
        for (const e of enemies) {
          const d = horizontalDistance(s, e.body);
          if (d < closest) [closest, e0] = [d, e];
        }
        const closerToEnemy = e0 !== null && horizontalDistance(ends[i], e0.body) < closest;
        const closerToObjective = mode === 'consolidate' && (world.objectives ?? []).some((o) => horizontalDistance(ends[i], markerBody(o)) < horizontalDistance(s, markerBody(o)));
        expect(closerToEnemy || closerToObjective).toBe(true);
      }
    }
  }
  const check = validatePlacement(req, world, r.positions);
  expect(check.violations).toEqual([]);
  expect(check.crossedEnemyModelIds.every((id) => enemies.some((e) => e.id === id))).toBe(true);
}

// ---------------------------------------------------------------------------------------------

const RUNS: Record<MoveMode, number> = {
  normal: 60,
  advance: 40,
  fallBack: 40,
  charge: 50,
  pileIn: 40,
  consolidate: 30,
  deepStrike: 30,
  strategicReserves: 30,
  setUp: 30,
  disembark: 30,
  embarkCheck: 0,
};

// GEOMETRY_SEED picks another seed, GEOMETRY_RUNS multiplies the runs (stress runs); GEOMETRY_VERBOSE prints success rates
const SEED = process.env.GEOMETRY_SEED ? Number(process.env.GEOMETRY_SEED) : 20240611;
const MULT = process.env.GEOMETRY_RUNS ? Number(process.env.GEOMETRY_RUNS) : 1;

describe('planner properties', () => {
  for (const mode of Object.keys(RUNS) as MoveMode[]) {
    if (RUNS[mode] === 0) continue;
    it(`${mode}: every plan keeps every rule and passes validatePlacement`, () => {
      let planned = 0;
      let built = 0;
      fc.assert(
        fc.property(scenarioArb, (sc) => {
          const b = build(sc, mode);
          if (!b) return;
          built++;
          const r = planMove(b.req, b.world);
          if (!r.ok) {
            expect(r.reason.length).toBeGreaterThan(0);
            return;
          }
          planned++;
          checkPlan(b, r);
        }),
        { numRuns: Math.round(RUNS[mode] * MULT), seed: SEED + mode.length, endOnFailure: true },
      );
      if (process.env.GEOMETRY_VERBOSE) console.log(`${mode}: ${planned} planned of ${built} legal scenarios`);
      // a legal starting position always allows some legal plan for these modes (at worst, staying put)
      if (mode === 'normal' || mode === 'advance' || mode === 'pileIn' || mode === 'consolidate') expect(planned).toBe(built);
      expect(planned).toBeGreaterThan(0);
    });
  }
  it('plans are deterministic', () => {
    fc.assert(
      fc.property(scenarioArb, fc.constantFrom<MoveMode>('normal', 'charge', 'deepStrike', 'fallBack'), (sc, mode) => {
        const b = build(sc, mode);
        if (!b) return;
        expect(JSON.stringify(planMove(b.req, b.world))).toBe(JSON.stringify(planMove(structuredClone(b.req), structuredClone(b.world))));
      }),
      { numRuns: 20, seed: 7 },
    );
  });
});
