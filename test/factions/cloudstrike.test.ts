import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { openWindow } from '../../src/rules/windows.ts';
import { arrive } from '../../src/rules/battle/reserves.ts';
import { canCharge } from '../../src/rules/battle/charge.ts';
import { disembark } from '../../src/rules/battle/transports.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';

/** A Wave Serpent (Armoured Warhost) in Strategic Reserves in battle round 2, Guardians aboard; CLOUDSTRIKE used on it. */
function cloudstrike() {
  const ae = scriptedAgent('ae', (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, (r.options as { stratagem?: string }[]).findIndex((o) => o.stratagem === 'CLOUDSTRIKE')) : 0));
  const g = battleSandbox([
    { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 5, y: 5 } },
    { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 0], at: { x: 5, y: 20 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 40, y: 20 }, spacing: 1 },
  ], { factions: ['AE', 'TAU'], detachments: ['Armoured Warhost', null], phase: 'movement', round: 2, cp: [2, 0], agents: [ae, scriptedAgent('tau')], stream: scriptedStream([]) });
  g.emit({ type: 'unit-location', unit: 'WS', location: 'strategic-reserves', embarkedIn: null });
  g.emit({ type: 'unit-location', unit: 'GD', location: 'embarked', embarkedIn: 'WS' });
  expect(openWindow(g, { name: 'movement/reinforcements-start', unit: null, targets: [] })).toEqual(['CLOUDSTRIKE']);
  return g;
}

describe('CLOUDSTRIKE (Armoured Warhost)', () => {
  it('set up within 9" of the enemy (more than 6" away): no charge this turn', () => {
    const g = cloudstrike();
    expect(arrive(g, g.state.units.WS, { unit: 'WS', how: 'deep-strike', x: 32, y: 20 })).toBe(true);
    const d = unitDistance(g.state, g.state.units.WS, g.state.units.ST);
    expect(d).toBeGreaterThan(6);
    expect(d).toBeLessThanOrEqual(9);
    expect(canCharge(g, g.state.units.WS)).toBe(false);
  });

  it('set up where asked at 6.5" from the enemy (more than 6"); asked at 5.5", it stands more than 6" away (audit 19 mutant D08)', () => {
    for (const gap of [6.5, 5.5]) {
      const g = cloudstrike();
      // where the Wave Serpent's hull stands `gap` inches from the Strike Team: found from its distance at x 28
      const probe = cloudstrike();
      expect(arrive(probe, probe.state.units.WS, { unit: 'WS', how: 'deep-strike', x: 28, y: 20 })).toBe(true);
      const x = 28 + unitDistance(probe.state, probe.state.units.WS, probe.state.units.ST) - gap;
      expect(arrive(g, g.state.units.WS, { unit: 'WS', how: 'deep-strike', x, y: 20 })).toBe(true);
      const d = unitDistance(g.state, g.state.units.WS, g.state.units.ST);
      if (gap > 6) expect(d, `${gap}"`).toBeCloseTo(gap, 3);
      else expect(d, `${gap}"`).toBeGreaterThan(6);
    }
  });

  it('set up more than 9" away, as a plain Deep Strike would be: it may charge', () => {
    const g = cloudstrike();
    expect(arrive(g, g.state.units.WS, { unit: 'WS', how: 'deep-strike', x: 28, y: 20 })).toBe(true);
    const d = unitDistance(g.state, g.state.units.WS, g.state.units.ST);
    expect(d).toBeGreaterThan(9);
    expect(d).toBeLessThanOrEqual(12);
    expect(canCharge(g, g.state.units.WS)).toBe(true);
  });

  it('units disembarking from it this turn are set up more than 6" from enemy units and cannot charge', () => {
    const g = cloudstrike();
    expect(arrive(g, g.state.units.WS, { unit: 'WS', how: 'deep-strike', x: 32, y: 20 })).toBe(true);
    expect(disembark(g, g.state.units.GD)).toBe(true);
    const gd = g.state.units.GD;
    expect(unitDistance(g.state, gd, g.state.units.ST)).toBeGreaterThan(6);
    expect(unitDistance(g.state, gd, g.state.units.ST)).toBeLessThanOrEqual(12);
    // (out after its transport arrived, which counts as a move, it could not charge anyway)
    expect(canCharge(g, gd)).toBe(false);
  });
});
