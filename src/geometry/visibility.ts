/**
 * Line of sight and Benefit of Cover against terrain footprints.
 *
 * Sight lines. Between an observing model and a target we draw three lines on the table: centre to
 * centre, and the two "outer" lines joining the extreme points of both bases on either side (for
 * round bases, the outer common tangents when the bases are the same size; in general the support
 * points of each base perpendicular to the centre line). Each line runs from the top of the observer
 * (z + height) to the top of the target. The target is visible when at least one line is clear, and
 * fully visible when all of them are. A vehicle on a flying base is seen, and sees, by its hull
 * (`Body.sight`: any part of a model seen makes it visible), its hull standing in for its base in the
 * outer lines; whether it is in or wholly within a piece of terrain is still judged by its base.
 *
 * What blocks a line:
 * - wall: always, wherever the line crosses its footprint;
 * - ruin: crossing its footprint blocks the line, whatever the heights (10th edition ruins cannot be
 *   seen over), unless the observer is wholly within that ruin (it sees out of it) or the target is in
 *   or touching it (it is seen normally). An observer only partly within sees out of the ruin on the
 *   side it stands out of, not through it: the line is blocked only where it crosses the footprint
 *   beyond the observer's own base (10th edition core rules: only models wholly within a ruin see out).
 *   Its exceptions: ruins block no sight to or from an AIRCRAFT model, and a TOWERING model sees out of a
 *   ruin it is in or touching, not only wholly within (`Body.aircraft`, `Body.towering`);
 * - impassable: only where the line, at that point, is lower than the piece's height;
 * - area (woods, craters): never (it only gives cover).
 * Other models never block sight here (true line of sight through models is not modelled).
 *
 * Benefit of Cover (10th edition core: terrain features give cover to models wholly within them, or
 * not fully visible to the attacker because of them). A target model has the Benefit of Cover
 * against an attacking model when:
 * - it is wholly within the footprint of a ruin or an area terrain piece; or
 * - it is not fully visible to that attacking model because of terrain: some sight line between them
 *   is blocked as above, or crosses (beyond the attacker's own base) the footprint of a ruin the attacker
 *   is not wholly within (or, TOWERING, within) or of an area piece it is not in or touching (the target
 *   is "behind" it; a target partly inside a ruin counts as behind it); no ruin obscures an AIRCRAFT
 *   model or what it shoots (its visibility is determined as if the ruin were not there).
 * Against a unit of attackers, the target has cover when it is not fully visible to every one of
 * them (pass the attacking models). Whether the cover applies (Ignores Cover, Sv 3+ vs AP 0) is the
 * rules' business.
 */
import { len } from './vec.ts';
import type { Body, Board, TerrainPiece, Vec2 } from './types.ts';
import { DISTANCE_EPSILON } from './types.ts';
import { newShape, pointShapeDistance, setBaseShape, shapeSupportInto } from './shape.ts';
import { NumberList } from './number-list.ts';
import {
  segmentInsideIntervals,
  shapeTouchesPolygon,
  shapeWhollyInPolygon,
} from './polygon.ts';

export interface SightLine {
  from: Vec2;
  to: Vec2;
  /** heights of the ends (top of each model) */
  fromZ: number;
  toZ: number;
}

export interface LineOfSight {
  /** at least one sight line is clear */
  visible: boolean;
  /** every sight line is clear */
  fullyVisible: boolean;
  /** how many of the sight lines are clear */
  clearLines: number;
  lines: number;
}

const sa = newShape();
const sb = newShape();

/** The sight lines between two models: centre to centre, then the two outer lines. */
export function sightLines(observer: Body, target: Body): SightLine[] {
  const lines = [centreLine(observer, target, newLine())];
  if (outerLines(observer, target, OUTER) > 0) lines.push(copyLine(OUTER[0]), copyLine(OUTER[1]));
  return lines;
}

function newLine(): SightLine {
  return { from: { x: 0, y: 0 }, to: { x: 0, y: 0 }, fromZ: 0, toZ: 0 };
}

function copyLine(l: SightLine): SightLine {
  return { from: { x: l.from.x, y: l.from.y }, to: { x: l.to.x, y: l.to.y }, fromZ: l.fromZ, toZ: l.toZ };
}

// scratch lines for the checks that keep no line (isVisible, obscured): no allocation per check
const CENTRE: SightLine[] = [newLine()];
const OUTER: SightLine[] = [newLine(), newLine()];
const ALL: SightLine[] = [CENTRE[0], OUTER[0], OUTER[1]];

function centreLine(observer: Body, target: Body, out: SightLine): SightLine {
  out.from.x = observer.pos.x; out.from.y = observer.pos.y;
  out.to.x = target.pos.x; out.to.y = target.pos.y;
  out.fromZ = observer.pos.z + observer.height;
  out.toZ = target.pos.z + target.height;
  return out;
}

/**
 * The two outer lines, written into out[0] and out[1]: the support points of both bases on either
 * side, perpendicular to the centre line. Returns 2, or 0 when the centres coincide (no outer lines).
 */
function outerLines(observer: Body, target: Body, out: SightLine[]): number {
  const fromZ = observer.pos.z + observer.height;
  const toZ = target.pos.z + target.height;
  const dx = target.pos.x - observer.pos.x;
  const dy = target.pos.y - observer.pos.y;
  const d = len(dx, dy);
  if (d < 1e-9) return 0;
  const nx = -dy / d;
  const ny = dx / d;
  setBaseShape(sa, observer.sight ?? observer.base, observer.pos.x, observer.pos.y);
  setBaseShape(sb, target.sight ?? target.base, target.pos.x, target.pos.y);
  shapeSupportInto(sa, nx, ny, out[0].from); shapeSupportInto(sb, nx, ny, out[0].to);
  shapeSupportInto(sa, -nx, -ny, out[1].from); shapeSupportInto(sb, -nx, -ny, out[1].to);
  out[0].fromZ = out[1].fromZ = fromZ;
  out[0].toZ = out[1].toZ = toZ;
  return 2;
}

const intervals = new NumberList();

/**
 * The footprint's bounding box grown by BOX_MARGIN on every side (the slab test's divisions round),
 * kept per polygon array. Footprints are never changed in place (a piece that moves or changes shape
 * gets a new polygon array), so the box holds as long as the array.
 */
const boxes = new WeakMap<readonly Vec2[], Float64Array>();
const BOX_MARGIN = 1e-6;

function footprintBox(poly: readonly Vec2[]): Float64Array {
  let b = boxes.get(poly);
  if (!b) {
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (const p of poly) {
      if (p.x < minX) minX = p.x;
      if (p.x > maxX) maxX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.y > maxY) maxY = p.y;
    }
    b = new Float64Array([minX - BOX_MARGIN, maxX + BOX_MARGIN, minY - BOX_MARGIN, maxY + BOX_MARGIN]);
    boxes.set(poly, b);
  }
  return b;
}

/**
 * Does segment A-B meet the closed box (slab test)? A segment that does not cannot pass through
 * anything inside the box: a quick rejection before the exact test, which is what decides.
 */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, box: Float64Array): boolean {
  SLAB[0] = 0;
  SLAB[1] = 1;
  return clipSlab(ax, bx - ax, box[0], box[1]) && clipSlab(ay, by - ay, box[2], box[3]);
}

/** The segment's parameter range [SLAB[0], SLAB[1]] narrowed to where a + t d lies in [lo, hi]; false when empty. */
function clipSlab(a: number, d: number, lo: number, hi: number): boolean {
  if (d === 0) return a >= lo && a <= hi;
  let u0 = (lo - a) / d;
  let u1 = (hi - a) / d;
  if (u0 > u1) { const t = u0; u0 = u1; u1 = t; }
  if (u0 > SLAB[0]) SLAB[0] = u0;
  if (u1 < SLAB[1]) SLAB[1] = u1;
  return SLAB[0] <= SLAB[1];
}
const SLAB = new Float64Array(2);

/** Does the sight line cross the piece's footprint (pass through its interior)? Heights ignored. */
export function crossesFootprint(line: SightLine, piece: TerrainPiece): boolean {
  const { from, to } = line;
  // quick rejection: a line that misses the footprint's bounding box (with a margin for rounding)
  if (!segmentMeetsBox(from.x, from.y, to.x, to.y, footprintBox(piece.polygon))) return false;
  segmentInsideIntervals(from.x, from.y, to.x, to.y, piece.polygon, intervals);
  return intervals.n > 0;
}

/** Does the sight line pass through the piece below its height? */
function passesBelowTop(line: SightLine, piece: TerrainPiece): boolean {
  if (!crossesFootprint(line, piece)) return false;
  // `intervals` holds the inside parts; the line's height is linear along it
  for (let k = 0; k < intervals.n; k += 2) {
    const z0 = line.fromZ + (line.toZ - line.fromZ) * intervals.v[k];
    const z1 = line.fromZ + (line.toZ - line.fromZ) * intervals.v[k + 1];
    if (Math.min(z0, z1) < piece.height) return true;
  }
  return false;
}

/**
 * Do the footprint crossings crossesFootprint just found (in `intervals`) all end inside the observer's
 * own base? Then the line crosses only the spot the observer stands on (it is partly within the piece and
 * looks out of it), not the piece between it and the target: the line starts at the observer's centre or
 * base edge and the base is convex, so a crossing ending inside the base lies wholly inside it.
 */
function crossesOnlyOwnBase(line: SightLine, observer: Body): boolean {
  setBaseShape(sa, observer.sight ?? observer.base, observer.pos.x, observer.pos.y);
  const { from, to } = line;
  for (let k = 0; k < intervals.n; k += 2) {
    const t = intervals.v[k + 1];
    if (pointShapeDistance(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t, sa) > DISTANCE_EPSILON) return false;
  }
  return true;
}

/**
 * Does the ruin let sight through between these two models: the observer sees past it (seesPast), or the
 * target is in or touching it (seen normally)?
 */
function ruinLetsSightThrough(observer: Body, target: Body, piece: TerrainPiece): boolean {
  return seesPast(observer, target, piece) || touchesTerrain(target, piece);
}

/**
 * Is the ruin no obstacle between the observer and the target, wherever the target stands: an AIRCRAFT among
 * them, or an observer that sees out of it (wholly within, or a TOWERING one within)? Sight and cover both ask.
 */
function seesPast(observer: Body, target: Body, piece: TerrainPiece): boolean {
  if (observer.aircraft === true || target.aircraft === true) return true;
  return observer.towering === true ? touchesTerrain(observer, piece) : whollyWithinTerrain(observer, piece);
}

/** Is the model in or touching the piece's footprint? */
export function touchesTerrain(body: Body, piece: TerrainPiece): boolean {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return shapeTouchesPolygon(sa, piece.polygon, DISTANCE_EPSILON);
}

/** Is the model's base wholly within the piece's footprint? */
export function whollyWithinTerrain(body: Body, piece: TerrainPiece): boolean {
  setBaseShape(sa, body.base, body.pos.x, body.pos.y);
  return shapeWhollyInPolygon(sa, piece.polygon, DISTANCE_EPSILON);
}

/** Is the line blocked for visibility by a wall or an impassable piece? (Ruins and area pieces: see clearLines.) */
function blocksSight(line: SightLine, piece: TerrainPiece): boolean {
  switch (piece.kind) {
    case 'wall':
      return crossesFootprint(line, piece);
    case 'impassable':
      return passesBelowTop(line, piece);
    default:
      return false;
  }
}

/** Line of sight from an observing model to a target model across the board's terrain. */
export function lineOfSight(observer: Body, target: Body, board: Board): LineOfSight {
  const lines = sightLines(observer, target);
  const clear = clearLines(observer, target, lines, board, lines.length, []);
  return { visible: clear > 0, fullyVisible: clear === lines.length, clearLines: clear, lines: lines.length };
}

/**
 * How many of the sight lines are clear, counting no further than `enough` (visibility needs one:
 * the agents ask it for every position they score, so it stops at the first clear line). `seesThrough`
 * says, per terrain piece, whether the ruin lets sight through between the two models (ruinLetsSightThrough);
 * it is filled lazily and may be shared between calls for the same two models.
 */
function clearLines(observer: Body, target: Body, lines: SightLine[], board: Board, enough: number, seesThrough: (boolean | undefined)[]): number {
  const terrain = board.terrain;
  let clear = 0;
  for (const line of lines) {
    let blocked = false;
    for (let p = 0; p < terrain.length && !blocked; p++) {
      const piece = terrain[p];
      if (piece.kind === 'area') continue;
      if (piece.kind === 'ruin') {
        if (!crossesFootprint(line, piece)) continue;
        if (seesThrough[p] === undefined) seesThrough[p] = ruinLetsSightThrough(observer, target, piece);
        if (!seesThrough[p] && !crossesOnlyOwnBase(line, observer)) blocked = true;
        continue;
      }
      if (blocksSight(line, piece)) blocked = true;
    }
    if (!blocked && ++clear >= enough) break;
  }
  return clear;
}

export function isVisible(observer: Body, target: Body, board: Board): boolean {
  // which ruins let sight through (ruinLetsSightThrough): filled lazily, shared by the lines
  const seesThrough = SEES_THROUGH;
  seesThrough.length = 0;
  // the outer lines are built only when the centre line is blocked
  centreLine(observer, target, CENTRE[0]);
  if (clearLines(observer, target, CENTRE, board, 1, seesThrough) > 0) return true;
  return outerLines(observer, target, OUTER) > 0 && clearLines(observer, target, OUTER, board, 1, seesThrough) > 0;
}

const SEES_THROUGH: (boolean | undefined)[] = [];

export function isFullyVisible(observer: Body, target: Body, board: Board): boolean {
  return lineOfSight(observer, target, board).fullyVisible;
}

/** A unit is visible to another when any model of the first can see any model of the second. */
export function unitVisible(observers: Body[], targets: Body[], board: Board): boolean {
  for (const o of observers) for (const t of targets) if (isVisible(o, t, board)) return true;
  return false;
}

/** For each target model: can any of the observing models see it? */
export function visibleTargets(observers: Body[], targets: Body[], board: Board): boolean[] {
  return targets.map((t) => observers.some((o) => isVisible(o, t, board)));
}

export type CoverReason = 'wholly-within-terrain' | 'not-fully-visible';

/**
 * Why the target has the Benefit of Cover against these attacking models, or null when it has not
 * (see the file comment for the exact rule).
 */
export function coverReason(target: Body, attackers: Body[], board: Board): CoverReason | null {
  for (const piece of board.terrain) {
    if ((piece.kind === 'ruin' || piece.kind === 'area') && whollyWithinTerrain(target, piece)) {
      return 'wholly-within-terrain';
    }
  }
  for (const attacker of attackers) if (obscured(attacker, target, board)) return 'not-fully-visible';
  return null;
}

/** Does the target have the Benefit of Cover against the attacking models? */
export function benefitOfCover(target: Body, attackers: Body[], board: Board): boolean {
  return coverReason(target, attackers, board) !== null;
}

/** Is some sight line from the attacker to the target blocked or obscured by terrain? */
function obscured(attacker: Body, target: Body, board: Board): boolean {
  centreLine(attacker, target, CENTRE[0]);
  const lines = outerLines(attacker, target, OUTER) > 0 ? ALL : CENTRE;
  const terrain = board.terrain;
  const seesOut = SEES_THROUGH;
  seesOut.length = 0;
  for (const line of lines) {
    for (let p = 0; p < terrain.length; p++) {
      const piece = terrain[p];
      if (piece.kind === 'ruin' || piece.kind === 'area') {
        if (!crossesFootprint(line, piece)) continue;
        // an attacker that sees out of a ruin (wholly within, or TOWERING within), or in or touching an area
        // piece, sees out of it normally; a ruin obscures nothing to or from an AIRCRAFT model
        if (seesOut[p] === undefined) {
          seesOut[p] = piece.kind === 'ruin' ? seesPast(attacker, target, piece) : touchesTerrain(attacker, piece);
        }
        if (seesOut[p]) continue;
        // the target is behind (or partly in) the piece: obscured, unless the line crosses only the spot
        // the attacker stands on (partly within a ruin, looking out of it)
        if (piece.kind === 'area' || !crossesOnlyOwnBase(line, attacker)) return true;
        continue;
      }
      if (blocksSight(line, piece)) return true;
    }
  }
  return false;
}

/** Convenience: the body of a shape-less point observer (e.g. for area effects) at height z. */
export function pointBody(p: Vec2, z = 0): Body {
  return { pos: { x: p.x, y: p.y, z }, base: { kind: 'circle', r: 0 }, height: 0 };
}

