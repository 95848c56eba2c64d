/**
 * Plain-data types of the battlefield geometry. Everything here is JSON-able (no classes, no Maps):
 * positions, bases, bodies, terrain footprints, boards and objective markers.
 *
 * Coordinates are in inches. The board's origin is its top-left corner, x grows to the right (along
 * the 60" edge of a Strike Force board), y grows downwards (along the 44" edge), z is the height
 * above the table. Angles are in radians, measured from +x towards +y (clockwise on screen, since y
 * points down).
 */

export interface Vec2 {
  x: number;
  y: number;
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/**
 * A model's base (or hull footprint), centred on the model's position.
 * - circle: radius r.
 * - oval: semi-axis rx along the model's facing (local x), ry across it (local y), rotated by angle.
 * - rect: length l along the facing (local x), width w across it (local y), rotated by angle.
 *   Vehicles without a base use their hull as a rect.
 */
export type Base =
  | { kind: 'circle'; r: number }
  | { kind: 'oval'; rx: number; ry: number; angle: number }
  | { kind: 'rect'; w: number; l: number; angle: number };

/** What geometry needs of a model: where it stands (centre of its base, z = bottom), its base and its height. */
export interface Body {
  pos: Vec3;
  base: Base;
  /** vertical extent of the model: it occupies [pos.z, pos.z + height] */
  height: number;
  /** an AIRCRAFT model: ruins block no sight to or from it */
  aircraft?: true;
  /** a TOWERING model: within a ruin (not only wholly within) it sees out of it */
  towering?: true;
  /**
   * The footprint sight lines are drawn from and to, when it is not the base: a vehicle on a flying base is
   * seen, and sees, by its hull (a model is visible when any part of it is), while distances still measure
   * to its base.
   */
  sight?: Base;
}

/**
 * A terrain feature's footprint.
 * - ruin: blocks visibility through its footprint (except for observers wholly within it and targets in or touching it), gives Benefit of
 *   Cover to models wholly within it or behind it; INFANTRY may cross it, VEHICLE/MONSTER models may not
 *   end a move on it (and may only cross it if they can FLY).
 * - area: woods, craters: gives Benefit of Cover, does not block visibility, can be crossed.
 * - wall: blocks movement and visibility entirely, whatever the heights (Boarding Actions walls).
 * - impassable: blocks movement; blocks visibility only below its height (sight lines passing above it are clear).
 */
export interface TerrainPiece {
  id: string;
  kind: 'ruin' | 'area' | 'wall' | 'impassable';
  /** footprint, a simple polygon (either winding), vertices in order, not closed (last != first) */
  polygon: Vec2[];
  height: number;
}

/** The battlefield: width along x, height along y (Strike Force: 60 x 44; Boarding Actions: 44 x 30). */
export interface Board {
  width: number;
  height: number;
  terrain: TerrainPiece[];
}

/** An objective marker: a 40 mm disc lying on the table at pos. */
export interface ObjectiveMarker {
  id: string;
  pos: Vec2;
}

export const MM_PER_INCH = 25.4;
/** Objective markers are 40 mm in diameter. */
export const OBJECTIVE_MARKER_RADIUS = 20 / MM_PER_INCH;

/**
 * Measuring tolerance. Every "within X" test accepts distances up to X + DISTANCE_EPSILON, so that
 * positions computed in floating point (a model placed exactly 1" away) count as the rules intend;
 * "more than X" is the negation. 1e-6" is far below anything measurable on a table.
 */
export const DISTANCE_EPSILON = 1e-6;

/**
 * Two bases overlap when they interpenetrate by more than this (bases touching, as in base-to-base
 * contact, do not overlap). 1e-4" = 0.0025 mm.
 */
export const OVERLAP_TOLERANCE = 1e-4;

/** Base-to-base contact: bases at most this far apart edge to edge (0.01" = 0.25 mm). */
export const BASE_CONTACT_DISTANCE = 0.01;
