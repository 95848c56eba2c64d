/**
 * RAPID INGRESS: "RESTRICTIONS: You cannot use this Stratagem to enable a unit to arrive on the battlefield during a
 * battle round it would not normally be able to do so in." A Windrider Host rider (Ride the Wind: "treat the current
 * battle round number as being one higher") can normally arrive in battle round 1 (the engine's own Reinforcements
 * step lets it, test/factions/windrider-host.test.ts), so RAPID INGRESS must be usable on it at the end of the
 * opponent's Movement phase in battle round 1. The engine refused every unit in round 1.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits } from '../helpers/stratagems.ts';
import type { Window } from '../../src/rules/windows.ts';
import { arrivalOptions, arrivalRound } from '../../src/rules/battle/reserves.ts';

const WR: PlacedUnit = { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 10, y: 5 }, spacing: 2.5 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 40 }, spacing: 0.9 };
const endOfMovement: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'movement' } };

function game(round: number, detachment: string | null = 'Windrider Host') {
  const g = battleSandbox([WR, ST], {
    factions: ['AE', 'TAU'], phase: 'movement', turn: 1, round, cp: [4, 3], detachments: [detachment, null],
    agents: [scriptedAgent('ae'), scriptedAgent('tau')],
  });
  g.emit({ type: 'unit-location', unit: 'WR', location: 'strategic-reserves', embarkedIn: null });
  return g;
}

describe('RAPID INGRESS in battle round 1 for a unit that can normally arrive then', () => {
  it('a Ride the Wind rider (arrival round counts as 2) is offered RAPID INGRESS in round 1', () => {
    const g = game(1);
    expect(arrivalRound(g.state, g.state.units.WR)).toBe(2);
    expect(arrivalOptions(g, g.state.units.WR).length).toBeGreaterThan(0);
    // control: in round 2 it is offered
    expect(offeredUnits(game(2), endOfMovement, 0, 'RAPID INGRESS')).toEqual(['WR']);
    expect(offeredUnits(g, endOfMovement, 0, 'RAPID INGRESS')).toEqual(['WR']);
  });

  it('without Ride the Wind the same Windriders are not offered it in round 1 (they could not normally arrive then)', () => {
    const g = game(1, null);
    expect(arrivalRound(g.state, g.state.units.WR)).toBe(1);
    expect(offeredUnits(g, endOfMovement, 0, 'RAPID INGRESS')).toEqual([]);
    expect(offeredUnits(game(2, null), endOfMovement, 0, 'RAPID INGRESS')).toEqual(['WR']);
  });
});
