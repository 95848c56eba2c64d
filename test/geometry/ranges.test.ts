import { describe, expect, it } from 'vitest';
import {
  inEngagementRange,
  unitCoherency,
  isCoherent,
  inObjectiveRange,
  levelOfControl,
  objectiveControl,
  unitsInEngagementRange,
} from '../../src/geometry/ranges.ts';
import { OBJECTIVE_MARKER_RADIUS } from '../../src/geometry/types.ts';
import { body, circle, oval, rect, R32 } from './helpers.ts';

describe('Engagement Range', () => {
  it('two 32 mm bases 0.99" apart are in Engagement Range, 1.01" are not', () => {
    expect(inEngagementRange(body(10, 10), body(10 + 2 * R32 + 0.99, 10))).toBe(true);
    expect(inEngagementRange(body(10, 10), body(10 + 2 * R32 + 1.01, 10))).toBe(false);
    expect(inEngagementRange(body(10, 10), body(10 + 2 * R32 + 1, 10))).toBe(true); // exactly 1" is within
  });
  it('measures diagonally edge to edge', () => {
    const d = 2 * R32 + 0.99;
    expect(inEngagementRange(body(0, 0), body(d / Math.SQRT2, d / Math.SQRT2))).toBe(true);
    const e = 2 * R32 + 1.01;
    expect(inEngagementRange(body(0, 0), body(e / Math.SQRT2, e / Math.SQRT2))).toBe(false);
  });
  it('has a 5" vertical limit', () => {
    // a model 1.5" tall on the table and one on a floor: gap = floor height - 1.5
    expect(inEngagementRange(body(0, 0, circle(R32), 0, 1.5), body(0.5, 0, circle(R32), 6.5, 1.5))).toBe(true);
    expect(inEngagementRange(body(0, 0, circle(R32), 0, 1.5), body(0.5, 0, circle(R32), 6.51, 1.5))).toBe(false);
    expect(inEngagementRange(body(0, 0, circle(R32), 6.5, 1.5), body(0.5, 0, circle(R32), 0, 1.5))).toBe(true);
  });
  it('works with ovals and hulls', () => {
    const tank = body(20, 20, rect(6, 4));
    expect(inEngagementRange(tank, body(20 + 3 + 0.99 + R32, 20))).toBe(true);
    expect(inEngagementRange(tank, body(20 + 3 + 1.01 + R32, 20))).toBe(false);
    const bike = body(20, 30, oval(1.5, 0.8));
    expect(inEngagementRange(bike, body(20, 30 + 0.8 + 0.99 + R32))).toBe(true);
    expect(inEngagementRange(bike, body(20, 30 + 0.8 + 1.01 + R32))).toBe(false);
  });
  it('between units: any pair', () => {
    expect(unitsInEngagementRange([body(0, 0), body(10, 0)], [body(10 + 2 * R32 + 0.5, 0)])).toBe(true);
    expect(unitsInEngagementRange([body(0, 0)], [body(10, 0)])).toBe(false);
  });
});

/** Models in a line, `gap` inches edge to edge. */
function line(n: number, gap: number, z = 0) {
  return Array.from({ length: n }, (_, i) => body(10 + i * (2 * R32 + gap), 10, circle(R32), z));
}

describe('Unit Coherency', () => {
  it('6 models in a line 1.9" apart are coherent (one neighbour each)', () => {
    expect(isCoherent(line(6, 1.9))).toBe(true);
  });
  it('7 models in the same line are not: the two ends have only one neighbour', () => {
    const r = unitCoherency(line(7, 1.9));
    expect(r.ok).toBe(false);
    expect(r.breaking).toEqual([0, 6]);
    expect(r.neighbours).toEqual([1, 2, 2, 2, 2, 2, 1]);
  });
  it('7 models in two staggered rows are coherent', () => {
    const s = 2 * R32 + 1;
    const bodies = [
      ...Array.from({ length: 4 }, (_, i) => body(10 + i * s, 10)),
      ...Array.from({ length: 3 }, (_, i) => body(10 + s / 2 + i * s, 10 + s * 0.8)),
    ];
    expect(isCoherent(bodies)).toBe(true);
  });
  it('2.01" apart breaks coherency; 2" holds', () => {
    expect(isCoherent(line(2, 2))).toBe(true);
    expect(unitCoherency(line(2, 2.01)).breaking).toEqual([0, 1]);
  });
  it('5" vertical limit', () => {
    const a = body(10, 10, circle(R32), 0, 1.5);
    expect(isCoherent([a, body(10.5, 10, circle(R32), 6.5, 1.5)])).toBe(true);
    expect(isCoherent([a, body(10.5, 10, circle(R32), 6.6, 1.5)])).toBe(false);
  });
  it('a unit must be one group: two separate triangles of a 6-model unit break it', () => {
    const tri = (x: number) => [body(x, 10), body(x + 2 * R32 + 1, 10), body(x + R32 + 0.5, 11.5)];
    const r = unitCoherency([...tri(10), ...tri(30)]);
    expect(r.neighbours).toEqual([2, 2, 2, 2, 2, 2]);
    expect(r.ok).toBe(false);
    expect(r.groups).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(r.breaking).toEqual([3, 4, 5]); // the largest group stays; ties: the one with the lowest index
  });
  it('a lone model is always coherent', () => {
    expect(isCoherent([body(0, 0)])).toBe(true);
  });
});

describe('objective range', () => {
  const marker = { id: 'A', pos: { x: 30, y: 22 } };
  const reach = OBJECTIVE_MARKER_RADIUS + 3 + R32; // centre to centre when exactly 3" from the marker's edge
  it('is measured from the 40 mm marker\'s edge, not its centre', () => {
    expect(inObjectiveRange(body(30 + reach - 0.01, 22), marker)).toBe(true);
    expect(inObjectiveRange(body(30 + reach + 0.01, 22), marker)).toBe(false);
    // 3.5" from the marker's centre to the base's edge is still within 3" of the marker's edge
    expect(inObjectiveRange(body(30 + 3.5 + R32, 22), marker)).toBe(true);
  });
  it('has a 5" vertical limit', () => {
    expect(inObjectiveRange(body(31, 22, circle(R32), 5), marker)).toBe(true);
    expect(inObjectiveRange(body(31, 22, circle(R32), 5.01), marker)).toBe(false);
  });
});

describe('Level of Control', () => {
  const marker = { id: 'B', pos: { x: 10, y: 10 } };
  const at = (x: number) => body(x, 10);
  it('sums the OC of models in range per player; the greater level controls', () => {
    const r = levelOfControl(marker, [
      { player: 'tau', oc: 2, body: at(11) },
      { player: 'tau', oc: 2, body: at(12) },
      { player: 'aeldari', oc: 3, body: at(9) },
      { player: 'aeldari', oc: 5, body: at(30) }, // out of range
    ]);
    expect(r.levels).toEqual([
      { player: 'aeldari', level: 3 },
      { player: 'tau', level: 4 },
    ]);
    expect(r.controller).toBe('tau');
    expect(r.contested).toBe(false);
  });
  it('models with OC 0 (Battle-shocked) add nothing, nor does a negative OC', () => {
    const r = levelOfControl(marker, [
      { player: 'tau', oc: 0, body: at(11) },
      { player: 'tau', oc: -1, body: at(12) },
      { player: 'aeldari', oc: 1, body: at(9) },
    ]);
    expect(r.levels).toEqual([{ player: 'aeldari', level: 1 }, { player: 'tau', level: 0 }]);
    expect(r.controller).toBe('aeldari');
  });
  it('a tie is contested: nobody controls the marker', () => {
    const r = levelOfControl(marker, [
      { player: 'tau', oc: 3, body: at(11) },
      { player: 'aeldari', oc: 3, body: at(9) },
    ]);
    expect(r.controller).toBeNull();
    expect(r.contested).toBe(true);
  });
  it('nobody in range (or only OC 0): no controller, not contested', () => {
    expect(levelOfControl(marker, [])).toEqual({ markerId: 'B', levels: [], controller: null, contested: false });
    const r = levelOfControl(marker, [{ player: 'tau', oc: 0, body: at(11) }]);
    expect(r.controller).toBeNull();
    expect(r.contested).toBe(false);
  });
  it('for several markers', () => {
    const res = objectiveControl(
      [marker, { id: 'C', pos: { x: 40, y: 10 } }],
      [{ player: 'tau', oc: 1, body: at(40) }],
    );
    expect(res.map((r) => r.controller)).toEqual([null, 'tau']);
  });
});
