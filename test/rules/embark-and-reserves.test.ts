/**
 * Transports and Reserves (core rules):
 * - Embark: a unit that ends a Normal, Advance or Fall Back move wholly within 3" of a friendly TRANSPORT may
 *   embark; a unit set up from Reserves made no such move, so it may not (it was offered to, even by RAPID
 *   INGRESS in the opponent's turn);
 * - units still in Reserves at the end of the battle count as destroyed, and so do the units embarked within a
 *   transport still in Reserves (only the transport was counted).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { arrive } from '../../src/rules/battle/reserves.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { playBattle } from '../../src/rules/battle/battle.ts';

describe('Embark needs a Normal, Advance or Fall Back move', () => {
  function setup() {
    const asked: string[] = [];
    // embarks whenever asked
    const agent = scriptedAgent('tau', (r: DecisionRequest) => { asked.push(r.kind); return r.kind === 'embark' ? 1 : 0; });
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 4.5, y: 18 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 12, y: 18 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 35 } },
    ], { phase: 'movement', round: 2, agents: [agent, scriptedAgent('ae')] });
    return { g, asked };
  }

  it('a unit set up from Strategic Reserves beside a transport is not offered to embark', () => {
    const { g, asked } = setup();
    g.emit({ type: 'unit-location', unit: 'CF', location: 'strategic-reserves', embarkedIn: null });
    expect(arrive(g, g.state.units.CF, { unit: 'CF', how: 'strategic-reserves', x: 3, y: 18 })).toBe(true);
    expect(asked).not.toContain('embark');
    expect(g.state.units.CF.location).toBe('battlefield');
  });

  it('a Normal move ending beside it is', () => {
    const { g, asked } = setup();
    executeMove(g, g.state.units.CF, { mode: 'normal', to: { x: 4.5, y: 20.5 }, toward: 'friend DF' });
    expect(asked).toContain('embark');
    expect(g.state.units.CF.location).toBe('embarked');
    expect(g.state.units.CF.embarkedIn).toBe('DF');
  });
});

describe('the end of the battle', () => {
  it('the units embarked within a transport left in Reserves count as destroyed with it', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 2 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 2 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 5, y: 20 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 35 } },
    ], { phase: 'fight', round: 5, turn: 1 });
    g.emit({ type: 'unit-location', unit: 'DF', location: 'strategic-reserves', embarkedIn: null });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
    const result = playBattle(g);
    expect(result.rounds).toBe(5);
    const destroyed = g.log!.filter((e) => e.type === 'unit-destroyed').map((e) => e.type === 'unit-destroyed' && e.component);
    expect(destroyed).toEqual(['DF', 'ST']);
  });
});
