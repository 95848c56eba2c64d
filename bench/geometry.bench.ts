/**
 * Geometry bench: planned moves per second on a Strike Force board (60" x 44") with 100 models per
 * side and 12 terrain pieces, for units of 1, 5, 10 and 20 models; plus charges, Deep Strikes,
 * line of sight, and the same Normal moves without the spatial index (what flatbush buys).
 *
 * Run alone with `npx tsx bench/geometry.bench.ts`, or through bench/run.ts.
 */
import { pathToFileURL } from 'node:url';
import { planMove, type MoveRequest, type World, type WorldModel } from '../src/geometry/planner.ts';
import { lineOfSight } from '../src/geometry/visibility.ts';
import { setSpatialIndexEnabled } from '../src/geometry/spatial.ts';
import type { Base, TerrainPiece } from '../src/geometry/types.ts';

interface BenchRow {
  name: string;
  value: number;
  unit: string;
}

const R32: Base = { kind: 'circle', r: 16 / 25.4 };
const R40: Base = { kind: 'circle', r: 20 / 25.4 };

/** A unit in rows of five, 1" between bases. */
function unit(id: string, player: string, n: number, x: number, y: number, base: Base = R32): WorldModel[] {
  const r = base.kind === 'circle' ? base.r : 1;
  const s = 2 * r + 1;
  return Array.from({ length: n }, (_, i) => ({
    id: `${id}-${i}`,
    unitId: id,
    player,
    body: { pos: { x: x + (i % 5) * s, y: y + Math.floor(i / 5) * s, z: 0 }, base, height: 1.5 },
  }));
}

function terrain(): TerrainPiece[] {
  // 12 pieces, point-symmetric like a tournament layout: 8 ruins, 2 woods, 2 ruins in the middle
  const half: TerrainPiece[] = [
    { id: 'a', kind: 'ruin', polygon: rectPoly(14, 4, 6, 4), height: 5 },
    { id: 'b', kind: 'ruin', polygon: rectPoly(24, 12, 5, 5), height: 4 },
    { id: 'c', kind: 'area', polygon: rectPoly(12, 18, 4, 6), height: 1 },
    { id: 'd', kind: 'ruin', polygon: [{ x: 22, y: 26 }, { x: 28, y: 26 }, { x: 22, y: 32 }], height: 4 },
    { id: 'e', kind: 'ruin', polygon: rectPoly(15, 34, 6, 3), height: 3 },
    { id: 'f', kind: 'ruin', polygon: rectPoly(28, 19, 2, 6), height: 6 },
  ];
  const mirrored = half.map((t) => ({ ...t, id: `${t.id}'`, polygon: t.polygon.map((p) => ({ x: 60 - p.x, y: 44 - p.y })) }));
  return [...half, ...mirrored];
}

function rectPoly(x: number, y: number, w: number, h: number) {
  return [
    { x, y },
    { x: x + w, y },
    { x: x + w, y: y + h },
    { x, y: y + h },
  ];
}

/** 100 models a side: ten units of ten, in and around each deployment zone. */
function world(): World {
  const models: WorldModel[] = [];
  for (let k = 0; k < 10; k++) {
    const y = 1.5 + (k % 5) * 8.5;
    models.push(...unit(`A${k}`, 'p1', 10, k < 5 ? 1.5 : 8, y));
    models.push(...unit(`B${k}`, 'p2', 10, k < 5 ? 48 : 41.5, y, k % 3 === 0 ? R40 : R32));
  }
  return { board: { width: 60, height: 44, terrain: terrain() }, models, objectives: [{ id: '1', pos: { x: 30, y: 22 } }] };
}

const ROUND_MS = 80;

/** One round: calls fn(offset + k) for at least ROUND_MS, returns calls per second. */
function round(fn: (k: number) => unknown, offset: number): number {
  let calls = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ROUND_MS) {
    for (let k = 0; k < 8; k++) fn(offset + calls++);
    t = performance.now();
  }
  return calls / ((t - t0) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Calls per second: the median of seven timed rounds after a warm-up round (the machine may be busy). */
function measure(label: string, unitLabel: string, fn: (k: number) => unknown): BenchRow {
  round(fn, 0);
  const rates = Array.from({ length: 7 }, (_, r) => round(fn, r * 1000));
  return { name: label, value: median(rates), unit: unitLabel };
}

/**
 * Calls per second of fn in two configurations, A then B: a warm-up round of each, then seven rounds
 * alternating A and B, the median of each.
 */
function compare(fn: (k: number) => unknown, toB: () => void, toA: () => void): [number, number] {
  const a: number[] = [];
  const b: number[] = [];
  try {
    round(fn, 0);
    toB();
    round(fn, 0);
    toA();
    for (let r = 0; r < 7; r++) {
      a.push(round(fn, r * 1000));
      toB();
      b.push(round(fn, r * 1000));
      toA();
    }
  } finally {
    toA();
  }
  return [median(a), median(b)];
}

export function run(): BenchRow[] {
  const rows: BenchRow[] = [];
  const w = world();
  const destinations = [
    { x: 30, y: 22 },
    { x: 26, y: 8 },
    { x: 34, y: 36 },
    { x: 38, y: 20 },
    { x: 22, y: 40 },
    { x: 30, y: 2 },
  ];
  for (const n of [1, 5, 10, 20]) {
    const mover = unit(`M${n}`, 'p1', n, 16, 10);
    const wm: World = { ...w, models: [...w.models, ...mover] };
    const models = mover.map((m) => ({ id: m.id, body: m.body }));
    const req = (k: number): MoveRequest => ({ mode: 'normal', player: 'p1', unitId: mover[0].unitId, models, maxDistance: 6 + (k % 3) * 3, destination: destinations[k % destinations.length] });
    const move = (k: number) => planMove(req(k), wm);
    if (!move(0).ok) throw new Error('bench: no move planned');
    // interleave the rounds with and without the index so that both see the same machine
    const [withIndex, without] = compare(move, () => setSpatialIndexEnabled(false), () => setSpatialIndexEnabled(true));
    rows.push({ name: `geometry: Normal moves, unit of ${n}, 200 models + 12 terrain on the table`, value: withIndex, unit: 'moves/s' });
    rows.push({ name: `geometry: Normal moves, unit of ${n}, without the spatial index`, value: without, unit: 'moves/s' });
  }
  // Deep Strike of 10 near the middle (must find room more than 9" from 100 enemy models), with and without the index
  {
    const models = Array.from({ length: 10 }, (_, i) => ({ id: `D-${i}`, body: null, base: R32, height: 1.5 }));
    const ds = (k: number) => planMove({ mode: 'deepStrike', player: 'p1', unitId: 'D', models, destination: destinations[k % destinations.length] }, w);
    const [withIndex, without] = compare(ds, () => setSpatialIndexEnabled(false), () => setSpatialIndexEnabled(true));
    rows.push({ name: 'geometry: Deep Strikes, unit of 10, toward the centre', value: withIndex, unit: 'set-ups/s' });
    rows.push({ name: 'geometry: Deep Strikes, unit of 10, without the spatial index', value: without, unit: 'set-ups/s' });
  }
  // charges: a unit of 10, about 2" from a unit of 10
  {
    const mover = unit('C', 'p1', 10, 29, 16.5);
    const wm: World = { ...w, models: [...w.models, ...mover] };
    const models = mover.map((m) => ({ id: m.id, body: m.body }));
    const charge = () => planMove({ mode: 'charge', player: 'p1', unitId: 'C', models, maxDistance: 7, targetUnitIds: ['B7'] }, wm);
    const first = charge();
    if (!first.ok) throw new Error(`bench: the charge failed: ${first.reason}`);
    const [withIndex, without] = compare(charge, () => setSpatialIndexEnabled(false), () => setSpatialIndexEnabled(true));
    rows.push({ name: 'geometry: charges, unit of 10, 2D6 = 7 into a unit of 10', value: withIndex, unit: 'charges/s' });
    rows.push({ name: 'geometry: charges, unit of 10, without the spatial index', value: without, unit: 'charges/s' });
  }
  // a unit of 10 going round an enemy unit in its way (waypoint search)
  {
    const mover = unit('G', 'p1', 10, 12, 36.5);
    const wm: World = { ...w, models: [...w.models, ...mover, ...unit('X', 'p2', 10, 25, 36)] };
    const models = mover.map((m) => ({ id: m.id, body: m.body }));
    const detour = () => planMove({ mode: 'normal', player: 'p1', unitId: 'G', models, maxDistance: 12, destination: { x: 34, y: 41 } }, wm);
    const first = detour();
    if (!first.ok) throw new Error(`bench: the detour failed: ${first.reason}`);
    const [withIndex, without] = compare(detour, () => setSpatialIndexEnabled(false), () => setSpatialIndexEnabled(true));
    rows.push({ name: 'geometry: Normal moves around an enemy unit in the way, unit of 10', value: withIndex, unit: 'moves/s' });
    rows.push({ name: 'geometry: the same detours without the spatial index', value: without, unit: 'moves/s' });
  }
  // line of sight between random pairs across the terrain
  {
    const a = w.models.filter((m) => m.player === 'p1');
    const b = w.models.filter((m) => m.player === 'p2');
    rows.push(measure('geometry: line of sight checks (model to model, 12 terrain pieces)', 'checks/s', (k) => lineOfSight(a[k % a.length].body, b[(k * 7) % b.length].body, w.board)));
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of run()) console.log(`${r.name.padEnd(80)} ${r.value.toFixed(0).padStart(10)} ${r.unit}`);
}
