/**
 * Homing Beacon (Stealth Battlesuits): RAPID INGRESS for 0CP once per battle, the unit set up within 3" of the
 * bearer's unit and more than 9" from all enemy units. Against Kharseth's Aethersense (no enemy unit set up from
 * Reserves within 12" of him) the beacon offers only places where the set-up keeps both: it offered places the
 * planner then moved out of the 12" circle, up to 6" from the beacon's unit.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { usableStratagems, useStratagem } from '../../src/rules/windows.ts';
import { homingBeaconArrivals } from '../../src/factions/tau/wargear.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';

const window = { name: 'phase/end' as const, unit: null, targets: [], data: { phase: 'movement' } };

/** Kharseth at (`x`, 22), the beacon's Stealth Battlesuits at x 20: the beacon's RAPID INGRESS for a Strike Team, at the place nearest Kharseth. */
function beaconAgainstKharseth(x: number) {
  const g = battleSandbox([
    { id: 'SB', player: 0, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 20, y: 20 }, spacing: 1.5, wargear: [['Homing Beacon']] },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 5 }, spacing: 1 },
    { id: 'KH', player: 1, faction: 'aeldari', name: 'Kharseth', at: { x, y: 22 } },
  ], {
    phase: 'movement', turn: 1, round: 2, factions: ['TAU', 'AE'],
    agents: [scriptedAgent('tau', (r) => {
      if (r.kind !== 'rapid-ingress') return 0;
      const opts = r.options as { x: number }[];
      return opts.reduce((best, o, i) => (o.x > opts[best].x ? i : best), 0);
    }), scriptedAgent('ae')],
  });
  g.emit({ type: 'unit-location', unit: 'ST', location: 'strategic-reserves', embarkedIn: null });
  const offered = homingBeaconArrivals(g, g.state.units.ST, g.state.units.SB).length;
  const beacon = usableStratagems(g, window, 0).filter((u) => u.s.name === 'RAPID INGRESS' && u.s.source === 'Homing Beacon');
  if (beacon.length) useStratagem(g, window, 0, beacon[0].s, beacon[0].unit);
  const s = g.state;
  const set = s.units.ST.models.filter((m) => m.alive && m.pos).map((m) => modelBody(s, m));
  const closest = (unit: string) => Math.min(...set.flatMap((b) => s.units[unit].models.filter((m) => m.alive).map((m) => horizontalDistance(b, modelBody(s, m)))));
  return { offered, location: s.units.ST.location, toBeacon: set.length ? closest('SB') : null, toKharseth: set.length ? closest('KH') : null };
}

describe('Homing Beacon against Aethersense', () => {
  it('set up within 3" of the beacon\'s unit and 12" or more from Kharseth, or not offered there', () => {
    for (const x of [26, 27, 28, 30, 32]) {
      const r = beaconAgainstKharseth(x);
      if (r.location === 'battlefield') {
        expect(r.toBeacon!).toBeLessThanOrEqual(3 + 1e-6);
        expect(r.toKharseth!).toBeGreaterThanOrEqual(12 - 1e-6);
      } else {
        expect([r.offered, r.location]).toEqual([0, 'strategic-reserves']);
      }
    }
    // Kharseth 10" from the beacon's unit leaves room within 3" of it; 8" leaves none (the engine set the unit up 3.89" away)
    expect(beaconAgainstKharseth(30).location).toBe('battlefield');
    expect(beaconAgainstKharseth(28)).toMatchObject({ offered: 0, location: 'strategic-reserves' });
  });
});
