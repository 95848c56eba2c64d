/**
 * Hazardous through a Firing Deck: the transport counts as equipped with the weapons its passengers lend, so a
 * failed test for a lent Hazardous weapon gives the transport, the unit that shot, its 3 mortal wounds.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

describe('a Hazardous weapon lent through a Firing Deck', () => {
  it('a Tidewall Gunrig fires a Pathfinder\'s overcharged Ion rifle and fails the test: the Gunrig loses 3 wounds, the Pathfinders none', () => {
    let lent = false;
    const pick = (r: DecisionRequest): number => {
      // lend the Ion rifle once, then stop; fire its overcharge profile (HAZARDOUS)
      if (r.kind === 'firing-deck') {
        if (lent) return 0;
        lent = true;
        return Math.max(0, r.options.findIndex((o) => (o as { weapon?: string }).weapon === 'Ion rifle'));
      }
      if (r.kind === 'shoot-target') return Math.max(0, r.options.findIndex((o) => (o as { weapon: string }).weapon === 'Ion rifle' && (o as { profile: number }).profile === 1));
      return 0;
    };
    // the railgun misses, the Ion rifle's 3 attacks miss, the Hazardous test fails (1)
    const stream = scriptedStream([1, 1, 1, 1, 1]);
    const g = battleSandbox([
      { id: 'GR', player: 0, faction: 'tau', name: 'Tidewall Gunrig', at: { x: 10, y: 20 } },
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 4, y: 4 } },
      { id: 'T', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 14 } },
    ], { phase: 'shooting', turn: 0, factions: ['TAU', 'TAU'], stream, agents: [scriptedAgent('p1', pick), scriptedAgent('p2')], objectives: [] });
    g.state.units.PF.models[0].weapons = ['Ion rifle', 'Pulse pistol', 'Close combat weapon'];
    g.emit({ type: 'unit-location', unit: 'PF', location: 'embarked', embarkedIn: 'GR' });
    const gunrig = g.state.units.GR.models[0];
    const max = g.state.datasheets[gunrig.datasheet].models[gunrig.profile].wounds;
    expect(gunrig.wounds).toBe(max);
    shootWithUnit(g, g.state.units.GR);
    expect(rolls(g, 'hazardous')).toEqual([[1]]);
    expect(stream.remaining()).toBe(0);
    expect(g.state.units.GR.models[0].wounds).toBe(max - 3);
    expect(g.state.units.PF.models.every((m) => m.alive && m.wounds === g.state.datasheets[m.datasheet].models[m.profile].wounds)).toBe(true);
  });
});
