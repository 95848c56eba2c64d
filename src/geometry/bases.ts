/**
 * Bases: from the datasheet's base size to a Base, and outlines for pictures.
 */
import type { BaseSize } from '../data/datasheet.ts';
import type { Base, Vec2 } from './types.ts';
import { MM_PER_INCH } from './types.ts';

/**
 * Converts a datasheet base size (mm) into a Base (inches). Round bases become circles; ovals keep
 * their length along the model's facing (local x); hulls become rectangles. The facing starts along +x.
 */
export function baseFromSize(size: BaseSize): Base {
  switch (size.shape) {
    case 'round':
      return { kind: 'circle', r: size.diameterMm / 2 / MM_PER_INCH };
    case 'oval':
      if (size.lengthMm === size.widthMm) return { kind: 'circle', r: size.lengthMm / 2 / MM_PER_INCH };
      return { kind: 'oval', rx: size.lengthMm / 2 / MM_PER_INCH, ry: size.widthMm / 2 / MM_PER_INCH, angle: 0 };
    case 'hull':
      return { kind: 'rect', l: size.lengthMm / MM_PER_INCH, w: size.widthMm / MM_PER_INCH, angle: 0 };
  }
}

/** A round base of the given diameter in mm (handy in tests and scenarios). */
export function roundBase(diameterMm: number): Base {
  return { kind: 'circle', r: diameterMm / 2 / MM_PER_INCH };
}

/** The same base turned to face `angle` (circles are unchanged). */
export function rotateBase(base: Base, angle: number): Base {
  if (base.kind === 'circle') return base;
  return { ...base, angle };
}

/** Footprint area in square inches. */
export function baseArea(base: Base): number {
  switch (base.kind) {
    case 'circle':
      return Math.PI * base.r * base.r;
    case 'oval':
      return Math.PI * base.rx * base.ry;
    case 'rect':
      return base.l * base.w;
  }
}

/** The outline of a base centred at (x, y) as a polygon (circles and ovals with `segments` vertices). */
export function baseOutline(base: Base, x: number, y: number, segments = 32): Vec2[] {
  const out: Vec2[] = [];
  switch (base.kind) {
    case 'circle':
      for (let i = 0; i < segments; i++) {
        const t = (2 * Math.PI * i) / segments;
        out.push({ x: x + base.r * Math.cos(t), y: y + base.r * Math.sin(t) });
      }
      return out;
    case 'oval': {
      const c = Math.cos(base.angle);
      const s = Math.sin(base.angle);
      for (let i = 0; i < segments; i++) {
        const t = (2 * Math.PI * i) / segments;
        const lx = base.rx * Math.cos(t);
        const ly = base.ry * Math.sin(t);
        out.push({ x: x + c * lx - s * ly, y: y + s * lx + c * ly });
      }
      return out;
    }
    case 'rect': {
      const c = Math.cos(base.angle);
      const s = Math.sin(base.angle);
      const hl = base.l / 2;
      const hw = base.w / 2;
      for (const [i, j] of [
        [1, 1],
        [-1, 1],
        [-1, -1],
        [1, -1],
      ]) {
        const lx = i * hl;
        const ly = j * hw;
        out.push({ x: x + c * lx - s * ly, y: y + s * lx + c * ly });
      }
      return out;
    }
  }
}
