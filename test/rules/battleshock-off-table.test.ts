/**
 * Battle-shock lasts "until the start of your next Command phase", wherever the unit is then: one that
 * embarked within a transport or went into Strategic Reserves while Battle-shocked recovers as the one on
 * the battlefield does. The opponent's Battle-shocked units do not.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { commandPhase } from '../../src/rules/battle/command.ts';

function shaken() {
  const g = battleSandbox([
    { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 8, y: 4 } },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 4, y: 4 } },
    { id: 'SR', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 24 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
  ], { phase: 'command', turn: 0, round: 3 });
  for (const id of ['BT', 'ST', 'SR', 'GD']) g.emit({ type: 'battle-shock', unit: id, value: true });
  // the Breachers embarked within the Devilfish, the second Strike Team in Strategic Reserves
  g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
  g.emit({ type: 'unit-location', unit: 'SR', location: 'strategic-reserves', embarkedIn: null });
  return g;
}

describe('Battle-shock ends at the start of the player\'s next Command phase wherever the unit is', () => {
  it('an embarked unit, a unit in Strategic Reserves and a unit on the battlefield all recover; the opponent\'s unit stays Battle-shocked', () => {
    const g = shaken();
    commandPhase(g, 0);
    const shocked = (id: string) => g.state.units[id].battleShocked;
    expect({ BT: shocked('BT'), SR: shocked('SR'), ST: shocked('ST'), GD: shocked('GD') }).toEqual({ BT: false, SR: false, ST: false, GD: true });
    // they stay where they were (and, at full strength, took no test)
    expect(g.state.units.BT.location).toBe('embarked');
    expect(g.state.units.SR.location).toBe('strategic-reserves');
    expect(g.log!.some((e) => e.type === 'dice' && e.purpose === 'battle-shock')).toBe(false);
  });
});
