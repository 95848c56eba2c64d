/**
 * Coldstar Commander: "While this model is leading a unit, models in that unit have a Move characteristic of
 * 12"". A rule that SETS a characteristic; the engine's own convention (rules-registry characteristicStage,
 * Hover Drone's 'set') applies set, then divide, then add/subtract (Rules Commentary). Without a stage the
 * Coldstar's ran in the add/subtract stage, after a halving: TANGLEBOMB BOLAS (Kroot Raiding Party, a T'au
 * mirror match) on a Coldstar-led Crisis unit left its Move at 12" instead of 6".
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { unitMove } from '../../src/rules/battle/units.ts';

describe('Coldstar Commander: Move 12" is a set, before a halving', () => {
  it('a Coldstar-led Crisis Fireknife unit under TANGLEBOMB BOLAS has Move 6"', () => {
    const g = battleSandbox([
      { id: 'CR', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 10, y: 5 } },
      { id: 'CS', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 13, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { factions: ['TAU', 'TAU'] });
    g.emit({ type: 'unit-attached', leader: 'CS', bodyguard: 'CR' });
    expect(unitMove(g.state, g.state.units.CR)).toBe(12);
    g.addEffect('Tanglebomb Bolas', 1, 'CR', g.untilEndOfTurn());
    // set 12, then halved: 6 (without the Coldstar the unit's 10" is halved to 5")
    expect(unitMove(g.state, g.state.units.CR)).toBe(6);
  });
});
