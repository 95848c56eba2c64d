import type { Base, Body, TerrainPiece, Vec2 } from '../../src/geometry/types.ts';
import { MM_PER_INCH } from '../../src/geometry/types.ts';

/** Radius in inches of a round base of `mm` diameter. */
export const r = (mm: number) => mm / 2 / MM_PER_INCH;
export const R32 = r(32);
export const R40 = r(40);

export const circle = (radius: number): Base => ({ kind: 'circle', r: radius });
export const oval = (rx: number, ry: number, angle = 0): Base => ({ kind: 'oval', rx, ry, angle });
export const rect = (l: number, w: number, angle = 0): Base => ({ kind: 'rect', l, w, angle });

export function body(x: number, y: number, base: Base = circle(R32), z = 0, height = 1.5): Body {
  return { pos: { x, y, z }, base, height };
}

export function square(x: number, y: number, w: number, h: number): Vec2[] {
  return [
    { x, y },
    { x: x + w, y },
    { x: x + w, y: y + h },
    { x, y: y + h },
  ];
}

export function piece(id: string, kind: TerrainPiece['kind'], polygon: Vec2[], height = 5): TerrainPiece {
  return { id, kind, polygon, height };
}
