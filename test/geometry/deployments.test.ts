import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentFromJson, deploymentsFromJson } from '../../src/geometry/deployments.ts';
import { polygonArea, pointInPolygon } from '../../src/geometry/polygon.ts';

// deployment-patterns.json lives in the shared folder beside the repository (wn-mitch/40kdc-data, CC-BY-4.0)
const patternsFile = fileURLToPath(new URL('../../../shared/data/missions/deployment-patterns.json', import.meta.url));

describe('deployment patterns', () => {
  it('places polygon points relative to the zone position and expands rectangles', () => {
    const map = deploymentFromJson({
      id: 'x',
      name: 'X',
      zones: [
        { player: 'defender', name: 'D', shape: { type: 'rectangle', width: 60, height: 12 }, position: { x: 0, y: 0 } },
        {
          player: 'attacker',
          name: 'A',
          shape: { type: 'polygon', points: [{ x: 0, y: 0 }, { x: 60, y: 0 }, { x: 60, y: -8 }] },
          position: { x: 0, y: 44 },
        },
      ],
      territories: [],
      objectives: [{ x: 30, y: 22 }],
    });
    expect(map.zones[0].polygon).toEqual([
      { x: 0, y: 0 },
      { x: 60, y: 0 },
      { x: 60, y: 12 },
      { x: 0, y: 12 },
    ]);
    expect(map.zones[1].polygon).toEqual([
      { x: 0, y: 44 },
      { x: 60, y: 44 },
      { x: 60, y: 36 },
    ]);
    expect(map.objectives).toEqual([{ id: '1', pos: { x: 30, y: 22 } }]);
  });
  it('rejects unknown shapes naming the field', () => {
    expect(() => deploymentFromJson({ id: 'y', zones: [{ player: 'a', shape: { type: 'circle' } }] })).toThrow(/y.zones\[0\].shape.type/);
  });
  it.skipIf(!existsSync(patternsFile))('loads the Leviathan deployments: zones on the board, point-symmetric, objectives outside them', () => {
    const maps = deploymentsFromJson(JSON.parse(readFileSync(patternsFile, 'utf8')));
    expect(maps.map((m) => m.id)).toContain('hammer-and-anvil');
    for (const m of maps) {
      expect(m.zones).toHaveLength(2);
      expect(m.objectives).toHaveLength(5);
      const [a, b] = m.zones;
      expect(polygonArea(a.polygon)).toBeCloseTo(polygonArea(b.polygon), 0);
      for (const z of m.zones) {
        for (const p of z.polygon) {
          expect(p.x).toBeGreaterThanOrEqual(0);
          expect(p.x).toBeLessThanOrEqual(60);
          expect(p.y).toBeGreaterThanOrEqual(0);
          expect(p.y).toBeLessThanOrEqual(44);
        }
      }
      // the centre objective is in no deployment zone
      expect(m.objectives.some((o) => o.pos.x === 30 && o.pos.y === 22)).toBe(true);
      expect(pointInPolygon({ x: 30, y: 22 }, a.polygon)).toBe(false);
      expect(pointInPolygon({ x: 30, y: 22 }, b.polygon)).toBe(false);
    }
    const ta = maps.find((m) => m.id === 'tipping-point')!;
    // the attacker's L: 40..60 in the top half, 48..60 in the bottom half
    expect(pointInPolygon({ x: 42, y: 10 }, ta.zones[1].polygon)).toBe(true);
    expect(pointInPolygon({ x: 42, y: 30 }, ta.zones[1].polygon)).toBe(false);
    expect(pointInPolygon({ x: 50, y: 30 }, ta.zones[1].polygon)).toBe(true);
  });
});
