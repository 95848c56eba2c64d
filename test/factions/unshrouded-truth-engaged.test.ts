/** UNSHROUDED TRUTH has no "not within Engagement Range" condition in its TARGET. */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits as offered } from '../helpers/stratagems.ts';
import type { Window } from '../../src/rules/windows.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';

const FS: PlacedUnit = { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 6, y: 5 } };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 2 }, spacing: 0.9 };
const DF: PlacedUnit = { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 40, y: 30 } };

describe('UNSHROUDED TRUTH and Engagement Range', () => {
  it('an engaged Asuryani Infantry unit within 9" of a Psyker is a valid target', () => {
    const g = battleSandbox([FS, GD, { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 4.6 }, spacing: 0.9 }, DF], {
      factions: ['AE', 'TAU'], phase: 'movement', turn: 0, cp: [4, 3], detachments: ['Seer Council', null],
      agents: [scriptedAgent('ae'), scriptedAgent('tau')],
    });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [] });
    expect(isEngaged(g.state, g.state.units.GD)).toBe(true);
    const start: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'movement' } };
    expect(offered(g, start, 0, 'UNSHROUDED TRUTH')).toContain('GD');
  });
});
