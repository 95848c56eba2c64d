/**
 * COMBAT DEBARKATION (Mont'ka) targets "one INFANTRY unit from your army that disembarked from a TRANSPORT this
 * turn". A unit set up around its destroyed transport has disembarked too (src/rules/battle/transports.ts sets
 * disembarkedAfterTransportMoved then, not disembarked): in its own turn it meets the condition. It is also
 * Battle-shocked (core rules, Destroyed Transport), and its player's Stratagems cannot affect a Battle-shocked
 * unit: the stratagem is offered only once that has ended.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { offeredUnits } from '../helpers/stratagems.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import type { Window } from '../../src/rules/windows.ts';
import { destroyModel } from '../../src/rules/damage.ts';

const selected: Window = { name: 'shooting/unit-selected', unit: 'ST', targets: [] };

/**
 * The Strike Team rides in a Devilfish that is destroyed in the T'au player's own Movement phase (Fire
 * Overwatch, say): its Deadly Demise roll is a 2 (no explosion), the Strike Team's ten D6 no 1 (none slain).
 */
function forcedOut() {
  const stream = scriptedStream([2, ...Array(10).fill(4)]);
  const g = battleSandbox([
    { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 5 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 38, y: 20 } },
  ], { phase: 'movement', round: 1, cp: [3, 0], detachments: ["Mont'ka", null], agents: [scriptedAgent('tau'), scriptedAgent('ae')], stream });
  g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
  const df = g.state.units.DF;
  destroyModel(g, df, df.models[0], 'GD', 'test');
  expect(stream.remaining()).toBe(0);
  return g;
}

describe('COMBAT DEBARKATION (Mont\'ka): a unit forced out of its destroyed transport has disembarked this turn', () => {
  it('meets the condition in the Shooting phase of that turn: offered once it is not Battle-shocked', () => {
    const g = forcedOut();
    const st = g.state.units.ST;
    expect(rolls(g, 'other').map((v) => v.length)).toEqual([10]);
    expect([st.location, st.models.filter((m) => m.alive).length]).toEqual(['battlefield', 10]);
    expect([st.flags.disembarked, st.flags.disembarkedAfterTransportMoved]).toEqual([false, true]);
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    expect(st.battleShocked).toBe(true);
    expect(offeredUnits(g, selected, 0, 'COMBAT DEBARKATION')).toEqual([]);
    g.emit({ type: 'battle-shock', unit: 'ST', value: false });
    expect(offeredUnits(g, selected, 0, 'COMBAT DEBARKATION')).toEqual(['ST']);
  });

  it('not in a later turn', () => {
    const g = forcedOut();
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    expect(offeredUnits(g, selected, 0, 'COMBAT DEBARKATION')).toEqual([]);
  });
});
