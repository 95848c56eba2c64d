import { describe, expect, it } from 'vitest';
import {
  pointInPolygon,
  segmentsIntersect,
  segmentIntersectionParam,
  distanceToPolygon,
  circleIntersectsPolygon,
  circleWhollyInPolygon,
  segmentCrossesPolygon,
  polygonArea,
  polygonCentroid,
  offsetPolygonVertices,
} from '../../src/geometry/polygon.ts';
import { square } from './helpers.ts';

const L = [
  { x: 0, y: 0 },
  { x: 12, y: 0 },
  { x: 12, y: 22 },
  { x: 20, y: 22 },
  { x: 20, y: 44 },
  { x: 0, y: 44 },
]; // Tipping Point's defender zone: concave

describe('polygons', () => {
  it('point in polygon (concave, either winding)', () => {
    expect(pointInPolygon({ x: 5, y: 5 }, L)).toBe(true);
    expect(pointInPolygon({ x: 15, y: 5 }, L)).toBe(false);
    expect(pointInPolygon({ x: 15, y: 30 }, L)).toBe(true);
    expect(pointInPolygon({ x: 15, y: 30 }, [...L].reverse())).toBe(true);
  });
  it('area and centroid', () => {
    expect(polygonArea(square(0, 0, 4, 3))).toBe(12);
    expect(polygonArea(L)).toBe(12 * 22 + 20 * 22);
    expect(polygonCentroid(square(2, 2, 4, 4))).toEqual({ x: 4, y: 4 });
  });
  it('segment intersection', () => {
    expect(segmentsIntersect({ x: 0, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }, { x: 2, y: 0 })).toBe(true);
    expect(segmentsIntersect({ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 0 })).toBe(false);
    expect(segmentsIntersect({ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 3 })).toBe(true); // touching
    expect(segmentIntersectionParam(0, 0, 4, 0, 1, -1, 1, 1)).toBeCloseTo(0.25, 12);
    expect(segmentIntersectionParam(0, 0, 4, 0, 5, -1, 5, 1)).toBe(-1);
  });
  it('distance to a polygon (0 inside)', () => {
    expect(distanceToPolygon({ x: 5, y: 5 }, L)).toBe(0);
    expect(distanceToPolygon({ x: 15, y: 5 }, L)).toBe(3);
    expect(distanceToPolygon({ x: 23, y: 18 }, L)).toBe(5);
  });
  it('circles against polygons', () => {
    expect(circleIntersectsPolygon({ x: 14, y: 5 }, 2, L)).toBe(true);
    expect(circleIntersectsPolygon({ x: 14.01, y: 5 }, 2, L)).toBe(false);
    expect(circleWhollyInPolygon({ x: 10, y: 5 }, 2, L)).toBe(true);
    expect(circleWhollyInPolygon({ x: 10.01, y: 5 }, 2, L)).toBe(false);
  });
  it('a segment crosses a polygon only through its interior, not along its outline', () => {
    const sq = square(0, 0, 4, 4);
    expect(segmentCrossesPolygon({ x: -1, y: 2 }, { x: 5, y: 2 }, sq)).toBe(true);
    expect(segmentCrossesPolygon({ x: -1, y: 0 }, { x: 5, y: 0 }, sq)).toBe(false); // along an edge
    expect(segmentCrossesPolygon({ x: -1, y: -1 }, { x: 5, y: 5 }, sq)).toBe(true); // through corners
    expect(segmentCrossesPolygon({ x: -1, y: 1 }, { x: 1, y: -1 }, sq)).toBe(false); // touches a corner
    // through the notch of the L without entering it
    expect(segmentCrossesPolygon({ x: 14, y: 1 }, { x: 14, y: 21 }, L)).toBe(false);
    expect(segmentCrossesPolygon({ x: 14, y: 1 }, { x: 14, y: 23 }, L)).toBe(true);
  });
  it('offsets vertices outwards', () => {
    const out = offsetPolygonVertices(square(0, 0, 4, 4), 1);
    expect(out[0].x).toBeCloseTo(-1, 12);
    expect(out[0].y).toBeCloseTo(-1, 12);
    expect(offsetPolygonVertices([...square(0, 0, 4, 4)].reverse(), 1)[0].x).toBeCloseTo(-1, 12);
  });
});
