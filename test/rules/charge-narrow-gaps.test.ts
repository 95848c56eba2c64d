/**
 * A charge's legal ends may lie only in a narrow gap between the target model and models standing round it (a
 * lookahead game: a Crisis battlesuit's only ends lay in 2.4 degrees between a Guardian and a Riptide engaged with
 * it, between the planner's tries 3 degrees apart, and its charge of 10 failed as blocked; a Kroot Hound was left
 * 0.85" short of base contact it could reach, between tries 7.5 degrees apart). The core rules: the charge succeeds
 * if a Charge move of up to the roll meets its conditions, and each model ends in base contact if it can.
 *
 * Here a Guardian stands in a ring of ten Fire Warriors of the charger's own army, 2" or 2.4" from it, with one gap
 * facing the charging Crisis Starscythe: the gap's angle sets how wide the window of legal ends is (measured with
 * the planner's validator, every 0.05 degrees).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { planModels, planUnit, worldOf } from '../../src/rules/battle/placement.ts';
import { validatePlacement } from '../../src/geometry/planner/validate.ts';
import { modelBody } from '../../src/rules/battle/world.ts';

const CX = 20, CY = 34;
const rad = (d: number) => (d * Math.PI) / 180;

/** The charger 8" from the Guardian at `from` degrees; the ring `rho` from it, its gap `2 * half` degrees wide at 0. */
function ring(rho: number, half: number, from: number) {
  const g = battleSandbox([
    { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Starscythe Battlesuits', counts: [1, 0], at: { x: CX + 8 * Math.cos(rad(from)), y: CY + 8 * Math.sin(rad(from)) } },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 9], at: { x: 5, y: 5 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: CX, y: CY } },
  ], { phase: 'charge', turn: 0, round: 2 });
  const s = g.state;
  const step = (360 - 2 * half) / 9;
  s.units.ST.models.forEach((m, k) => { m.pos = { x: CX + rho * Math.cos(rad(half + k * step)), y: CY + rho * Math.sin(rad(half + k * step)), z: 0 }; });
  s.geometryVersion++;
  const cs = s.units.CS;
  const target = modelBody(s, s.units.GD.models[0]);
  const own = modelBody(s, cs.models[0]);
  const r = (b: typeof target) => (b.base.kind === 'circle' ? b.base.r : 0);
  /** the directions (degrees) in which an end at this edge gap from the Guardian is legal */
  const window = (gap: number) => {
    const req = { mode: 'charge' as const, player: '0', unitId: 'CS', models: planModels(s, cs), maxDistance: 9, targetUnitIds: ['GD'] };
    const world = worldOf(s, 'CS');
    const out: number[] = [];
    for (let a = -2000; a <= 2000; a += 5) {
      const d = r(target) + r(own) + gap;
      const p = { x: CX + Math.cos(rad(a / 100)) * d, y: CY + Math.sin(rad(a / 100)) * d, z: 0 };
      if ((validatePlacement(req as never, world, [p]) as { ok: boolean }).ok) out.push(a / 100);
    }
    return out.length ? [out[0], out[out.length - 1]] : null;
  };
  const plan = planUnit(s, cs, 'charge', { maxDistance: 9, targetUnitIds: ['GD'] });
  const end = plan.ok ? plan.positions[0] : null;
  const gapAtEnd = end ? Math.hypot(end.x - CX, end.y - CY) - r(target) - r(own) : null;
  return { window, plan, gapAtEnd };
}

describe('charges into narrow gaps', () => {
  it('a charge whose only legal ends lie in a gap 1.4 or 2.4 degrees wide is made (it failed as blocked)', () => {
    for (const [half, width] of [[36.5, 1.4], [37, 2.4]]) {
      const r = ring(2, half, 1.5);
      // no end in base contact or at 0.5" or 0.9": only just inside Engagement Range, in that window
      expect([r.window(0.005), r.window(0.5), r.window(0.9)]).toEqual([null, null, null]);
      const w = r.window(0.98)!;
      expect(w[1] - w[0]).toBeCloseTo(width, 6);
      expect(r.plan.ok).toBe(true);
      expect(r.gapAtEnd!).toBeLessThanOrEqual(1);
    }
  });

  it('a model that can reach base contact only through a gap 6 degrees wide ends in base contact (it was left 0.9" short)', () => {
    const r = ring(2.4, 39.5, 3.75);
    expect(r.window(0.005)).toEqual([-3, 3]);
    expect(r.plan.ok).toBe(true);
    expect(r.gapAtEnd!).toBeCloseTo(0.005, 3);
  });
});
