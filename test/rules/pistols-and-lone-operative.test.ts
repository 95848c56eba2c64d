/**
 * Two target restrictions of the Shooting phase the played games met but no directed test held (audit 19's
 * mutants M31 and M32, caught only by the random-game invariants): a unit in Engagement Range shoots its Pistols
 * only at a unit it is engaged with, even at another enemy unit in the Pistols' range; a Lone Operative can be
 * targeted only by an attacking model within 12". And half range (RAPID FIRE) as the phase measures it.
 */
import { describe, expect, it } from 'vitest';
import { canShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { battleSandbox, setGap } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';

describe('Pistols in Engagement Range', () => {
  it('a Strike Team engaged with Guardian Defenders fires its pulse pistols at them, not at Dire Avengers 8" away (in pistol range)', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 21.1, y: 10 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 29, y: 10 } },
    ], { phase: 'shooting', objectives: [] });
    const s = g.state;
    const pistol = s.datasheets[s.units.ST.models[0].datasheet].weapons.find((w) => w.name === 'Pulse pistol')!.profiles[0];
    // the set-up: the Dire Avengers stand within the pistols' range
    expect(unitDistance(s, s.units.ST, s.units.DA)).toBeLessThan(pistol.range as number);
    expect(canShoot(g, s.units.ST, 'GD')).toBe(true);
    expect(canShoot(g, s.units.ST, 'DA')).toBe(false);
  });
});

describe('Lone Operative', () => {
  /** A Strike Team shooting a Death Jester (Lone Operative) whose base is `gap` inches from the closest Fire Warrior's. */
  function at(gap: number) {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
      { id: 'DJ', player: 1, faction: 'aeldari', name: 'Death Jester', at: { x: 30, y: 10 } },
    ], { phase: 'shooting', objectives: [] });
    setGap(g, 'DJ', 'ST', gap);
    expect(unitDistance(g.state, g.state.units.ST, g.state.units.DJ)).toBeCloseTo(gap, 2);
    return canShoot(g, g.state.units.ST, 'DJ');
  }

  it('is a target at 11.9" and not at 12.1" (the pulse rifles reach 30")', () => {
    expect(at(11.9)).toBe(true);
    expect(at(12.1)).toBe(false);
  });
});

describe('half range, measured in the Shooting phase (audit 19 mutant A27)', () => {
  /** One Fire Warrior's Pulse rifle (30", RAPID FIRE 1) at a lone Guardian Defender whose base is `gap` inches from its own: the attacks made. */
  function attacksAt(gap: number) {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 30, y: 10 } },
    ], { phase: 'shooting', objectives: [], stream: scriptedStream([1, 1, 1]) });
    const s = g.state;
    s.units.ST.models.forEach((m, i) => { m.weapons = i === 0 ? ['Pulse rifle', 'Close combat weapon'] : ['Close combat weapon']; });
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: s.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 10 - 1.2 * i, y: 10, z: 0 } })) });
    setGap(g, 'GD', 'ST', gap);
    expect(unitDistance(s, s.units.ST, s.units.GD)).toBeCloseTo(gap, 2);
    shootWithUnit(g, s.units.ST);
    return (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
  }

  it('2 attacks at 14.9" (within 15"), 1 at 15.1"', () => {
    expect(attacksAt(14.9)).toBe(2);
    expect(attacksAt(15.1)).toBe(1);
  });
});
