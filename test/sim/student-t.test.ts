/**
 * Student's t for the intervals of mean differences (src/sim/student-t.ts): its tail against closed forms and
 * its density integrated, its 97.5% quantile against the tables, the normal quantile against known values,
 * and the z of a t statistic, which must agree with the t interval about 0.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { lgamma } from 'mathjs';
import { normalQuantile, t975, tUpperTail, zOfT } from '../../src/sim/student-t.ts';
import { Histogram, meanDifference, Z95 } from '../../src/sim/stats.ts';

describe("Student's t", () => {
  it('has the closed-form tails on 1 and 2 degrees of freedom', () => {
    for (const t of [0, 0.3, 1, 2.5, 7, 40]) {
      expect(tUpperTail(t, 1)).toBeCloseTo(0.5 - Math.atan(t) / Math.PI, 12);
      expect(tUpperTail(t, 2)).toBeCloseTo((1 - t / Math.sqrt(t * t + 2)) / 2, 12);
    }
  });

  it('has the tail of its density, integrated (Simpson), on 3 to 500 degrees of freedom', () => {
    for (const df of [3, 4, 7, 15, 30, 120, 500]) {
      const c = Math.exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / Math.sqrt(df * Math.PI);
      const f = (x: number) => c * (1 + (x * x) / df) ** (-(df + 1) / 2);
      for (const q of [0.5, 1.7, 2.6]) {
        const steps = 20000;
        const h = q / steps;
        let sum = f(0) + f(q);
        for (let i = 1; i < steps; i++) sum += (i % 2 ? 4 : 2) * f(i * h);
        expect(tUpperTail(q, df), `df ${df}, t ${q}`).toBeCloseTo(0.5 - (sum * h) / 3, 9);
      }
    }
  });

  it("has the tables' 97.5% quantiles, tending to the normal one", () => {
    const table: [number, number][] = [[1, 12.7062], [2, 4.3027], [3, 3.1824], [4, 2.7764], [5, 2.5706], [9, 2.2622], [19, 2.093], [29, 2.0452], [60, 2.0003], [120, 1.9799]];
    for (const [df, q] of table) expect(t975(df), `df ${df}`).toBeCloseTo(q, 4);
    expect(t975(1e6)).toBeCloseTo(Z95, 5);
  });

  it('turns a t statistic into the z of the same tail: past 1.96 exactly when past t\'s quantile', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(Z95, 8);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489, 8);
    expect(normalQuantile(1e-4)).toBeCloseTo(-3.719016485455709, 7);
    expect(normalQuantile(0.5)).toBe(0);
    for (const df of [1, 2, 4, 9, 30, 200]) {
      const q = t975(df);
      expect(zOfT(q, df)).toBeCloseTo(Z95, 7);
      expect(zOfT(-q, df)).toBeCloseTo(-Z95, 7);
      expect(Math.abs(zOfT(q * 1.01, df))).toBeGreaterThan(Z95);
      expect(Math.abs(zOfT(q * 0.99, df))).toBeLessThan(Z95);
    }
    // a tail too small for a number: the t statistic itself
    expect(zOfT(1e6, 1000)).toBe(1e6);
  });

  it('makes the VP margins\' interval: random samples, the z agreeing with the interval about 0', () => {
    const rng = seedrandom('student-interval');
    for (let k = 0; k < 2000; k++) {
      const h = new Histogram();
      const n = 2 + Math.floor(rng() * 30);
      const shift = (rng() - 0.5) * 20;
      for (let i = 0; i < n; i++) h.add(5 * Math.round((shift + 25 * (rng() - 0.5)) / 5));
      const d = meanDifference(h.distribution())!;
      if (d.z === null) continue;
      const [lo, hi] = d.ci95;
      // away from the boundary itself (the quantiles agree to 1e-7 there)
      if (Math.min(Math.abs(lo), Math.abs(hi)) < 1e-6 * (hi - lo)) continue;
      expect(Math.abs(d.z) > Z95).toBe(lo > 0 || hi < 0);
    }
  });
});
