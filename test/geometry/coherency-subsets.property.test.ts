/**
 * The subset measure the casualty and end-of-turn choices use (`coherencyGraph` + `outOfCoherency`)
 * judges Unit Coherency exactly as `unitCoherency` does: zero for every subset of models that
 * `unitCoherency` finds coherent, above zero for every other (random layouts, fixed seed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coherencyGraph, outOfCoherency, unitCoherency } from '../../src/geometry/ranges.ts';
import { body, circle, r } from './helpers.ts';

type Model = { x: number; y: number; mm: number; z: number };
// a cloud of mixed bases (some on upper floors), and a line of 25 mm bases whose neighbours are within 2"
// but not the next ones along (ends with one neighbour: coherent up to six models, not from seven)
const cloud: fc.Arbitrary<Model[]> = fc.array(
  fc.record({ x: fc.double({ min: 0, max: 7, noNaN: true }), y: fc.double({ min: 0, max: 3, noNaN: true }), mm: fc.constantFrom(25, 32, 40, 60), z: fc.constantFrom(0, 0, 0, 4, 6) }),
  { minLength: 1, maxLength: 12 },
);
const line: fc.Arbitrary<Model[]> = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.double({ min: 1.55, max: 2.9, noNaN: true }))
  .map(([n, gap]) => Array.from({ length: n }, (_, i) => ({ x: i * gap, y: 0, mm: 25, z: 0 })));
const layout = fc.oneof(cloud, line);

describe('outOfCoherency over a coherency graph', () => {
  it('is zero exactly when unitCoherency finds the models (any subset of them) coherent', () => {
    fc.assert(fc.property(layout, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (models, mask) => {
      const bodies = models.map((m) => body(m.x, m.y, circle(r(m.mm)), m.z));
      const near = coherencyGraph(bodies);
      for (const keep of [bodies.map(() => true), bodies.map((_, i) => mask[i])]) {
        const kept = bodies.filter((_, i) => keep[i]);
        expect(outOfCoherency(near, keep) === 0).toBe(unitCoherency(kept).ok);
      }
    }), { seed: 20261202, numRuns: 400 });
  });
});
