/**
 * The danger agents price for a position counts the enemy units inside transports: they get out
 * within 3" and move, or get out after the transport's move and shoot.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { dangerAt, unitGeo } from '../../src/ai/tactics.ts';
import { p2d6AtLeast, weaponPotentials } from '../../src/ai/evaluate.ts';
import { unitMove } from '../../src/rules/battle/units.ts';

function setup(embarked: boolean) {
  const g = battleSandbox([
    { id: 'F', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 5, y: 22 } },
    { id: 'W', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 50, y: 22 } },
    { id: 'D', player: 1, faction: 'aeldari', name: 'Fire Dragons', at: { x: 57, y: 5 } },
  ], { phase: 'movement', turn: 0, round: 2, factions: ['AE', 'AE'] });
  // the Fire Dragons inside the Wave Serpent, or (for comparison) somewhere they cannot come from
  g.emit({ type: 'unit-location', unit: 'D', location: embarked ? 'embarked' : 'reserves', embarkedIn: embarked ? 'W' : null });
  return g;
}

describe('danger from passengers', () => {
  it('a transport\'s passengers threaten from 3" plus the farther of its move and theirs, with their own guns', () => {
    const inside = setup(true);
    const outside = setup(false);
    const s = inside.state;
    const F = s.units.F, D = s.units.D, W = s.units.W;
    const w = unitGeo(s, W);
    const reach = 3 + Math.max(unitMove(s, D), unitMove(s, W));
    expect(reach).toBe(17);
    const guns = weaponPotentials(s, D, F, false).filter((p) => p.value > 0);
    const shortest = Math.min(...guns.map((p) => p.range));
    // the Falcon (radius 1) where only the shortest gun's range plus the reach gets there (too far to charge)
    const gapAt = (gap: number) => ({ x: w.x - w.r - 1 - gap, y: w.y });
    const gap = reach + shortest - 0.5;
    const extra = dangerAt(inside.state, F, gapAt(gap), 1) - dangerAt(outside.state, F, gapAt(gap), 1);
    // the Falcon is the only target they could pick: each gun with the range counts in full
    const expected = guns.filter((p) => p.range >= gap - reach).reduce((a, p) => a + p.value, 0);
    expect(expected).toBeGreaterThan(0);
    expect(extra).toBeCloseTo(expected, 9);
    // out of every gun's reach: the passengers add nothing
    const far = reach + Math.max(...guns.map((p) => p.range)) + 1;
    expect(dangerAt(inside.state, F, gapAt(far), 1)).toBeCloseTo(dangerAt(outside.state, F, gapAt(far), 1), 9);
  });
});

describe('weapon groups kept across events', () => {
  it('a model destroyed leaves its unit\'s groups (the same unit object, a later version), and the potentials follow', async () => {
    const { weaponUses } = await import('../../src/ai/evaluate.ts');
    const g = battleSandbox([
      { id: 'A', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 22 } },
      { id: 'B', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 40, y: 22 } },
    ], { phase: 'shooting', turn: 0, round: 2, factions: ['AE', 'AE'] });
    const s = g.state;
    const A = s.units.A;
    const count = () => weaponUses(s, A, false).reduce((n, use) => n + use.models.length, 0);
    const before = count();
    const value = weaponPotentials(s, A, s.units.B, false).reduce((v, p) => v + p.value, 0);
    const victim = weaponUses(s, A, false)[0].models[0];
    g.emit({ type: 'model-destroyed', unit: 'A', model: victim.id, by: null, reason: 'test' });
    expect(weaponUses(s, A, false).some((use) => use.models.includes(victim))).toBe(false);
    expect(count()).toBeLessThan(before);
    expect(weaponPotentials(s, A, s.units.B, false).reduce((v, p) => v + p.value, 0)).toBeLessThan(value);
  });
});

describe('charge odds', () => {
  it('P(2D6 >= k): the 36 outcomes counted, the same for whole and fractional k', () => {
    // ways to roll each total on 2D6: 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 (totals 2..12)
    const ways = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    for (let k = 2; k <= 12; k++) {
      const n = ways.slice(k - 2).reduce((a, b) => a + b, 0);
      expect(p2d6AtLeast(k)).toBe(n / 36);
    }
    expect(p2d6AtLeast(7)).toBe(21 / 36);
    expect(p2d6AtLeast(1)).toBe(1);
    expect(p2d6AtLeast(-3)).toBe(1);
    expect(p2d6AtLeast(13)).toBe(0);
    // a fractional need is met by the next whole total
    expect(p2d6AtLeast(6.5)).toBe(p2d6AtLeast(7));
  });
});
