/** Craftworld's Champion ("The bearer has an OC of 5") vs Battle-shock (OC 0). */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { characteristic } from '../../src/rules/battle/units.ts';

const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 20 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 }, spacing: 0.9 };

function game(turn: 0 | 1) {
  const g = battleSandbox([DA, { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 7, y: 20 }, enhancement: "Craftworld's Champion" }, ST], {
    phase: 'movement', turn, cp: [3, 3], detachments: ['Guardian Battlehost', null],
    agents: [scriptedAgent('ae'), scriptedAgent('tau')], objectives: [{ id: 'o1', pos: { x: 22, y: 30 } }], factions: ['AE', 'TAU'],
  });
  g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: 'DA' });
  g.state.units.DA.battleShocked = true;
  return g;
}

describe("Craftworld's Champion while Battle-shocked", () => {
  it('a Battle-shocked bearer has OC 0 (at least in the opponent\'s turn, by the engine\'s own set-vs-shock convention)', () => {
    const g = game(1);
    const u = g.state.units.DA;
    const autarch = u.models.find((m) => m.origin === 'AU')!;
    const avenger = u.models.find((m) => m.origin === 'DA')!;
    expect(characteristic(g.state, u, avenger, 'OC')).toBe(0);
    expect(characteristic(g.state, u, autarch, 'OC')).toBe(0);
  });

  it('in its own turn its player orders the two rules that set OC: Battle-shock first, then the Champion\'s 5', () => {
    const g = game(0);
    const u = g.state.units.DA;
    expect(characteristic(g.state, u, u.models.find((m) => m.origin === 'AU')!, 'OC')).toBe(5);
    expect(characteristic(g.state, u, u.models.find((m) => m.origin === 'DA')!, 'OC')).toBe(0);
  });
});
