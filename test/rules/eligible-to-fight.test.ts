/**
 * "Eligible to fight this phase" (TurnFlags.eligibleToFight, wasEligibleToFight): a unit within Engagement
 * Range of an enemy unit, or that charged, at some moment of the Fight phase was eligible to fight in it,
 * even when its enemies all fell before it could be selected. End-of-phase rules read it (INTERLOCKING
 * MANOUEVRES, Raid and Run, Retro-thrusters, SKYBORNE SANCTUARY, WEAVERS' COILS).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { fightPhase } from '../../src/rules/battle/fight.ts';
import { wasEligibleToFight } from '../../src/rules/battle/units.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';

// One Guardian (E) between Kroot Carnivores (K, to its west) and a Strike Team (ST, to its east), both within
// Engagement Range of it; a second Strike Team (FAR) far from any enemy.
const units: PlacedUnit[] = [
  { id: 'K', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 28.8, y: 20 }, spacing: 0.9 },
  { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 31.1, y: 20 }, spacing: 1.2 },
  { id: 'FAR', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 5 }, spacing: 1.2 },
  { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 30, y: 20 } },
];

/**
 * The Aeldari player's turn, so the T'au player (player 0) selects first: the Kroot Carnivores, whose six
 * attacks (after piling in) all hit and wound (4s) and whose first save against them fails (1): the Guardian
 * falls, and the Strike Team, no longer within Engagement Range of anyone, is never selected.
 */
function played(detachment: string | null, asked: string[] = []) {
  const tau = (r: DecisionRequest): number => {
    if (r.kind === 'select-unit-to-fight') return Math.max(0, (r.options as { unit: string }[]).findIndex((o) => o.unit === 'K'));
    if (r.kind === 'stratagem') {
      // every unit it is offered for, in the request's order; none used
      const options = r.options as { stratagem?: string; unit?: string }[];
      for (const o of options) if (o.stratagem === 'INTERLOCKING MANOUEVRES') asked.push(`INTERLOCKING MANOUEVRES: ${o.unit}`);
      return Math.max(0, options.findIndex((o) => !o.stratagem));
    }
    return 0;
  };
  // no objective marker (the sandbox's, 2" from the Guardian, would keep Kroot from piling in onto it)
  const g = battleSandbox(units, { phase: 'charge', turn: 1, cp: [3, 3], objectives: [], detachments: [detachment, null], agents: [scriptedAgent('tau', tau), scriptedAgent('ae')], stream: scriptedStream([...new Array(12).fill(4), ...new Array(6).fill(1)]) });
  expect(isEngaged(g.state, g.state.units.ST)).toBe(true);
  fightPhase(g, 1);
  return g;
}

describe('eligible to fight this phase', () => {
  it('a unit engaged as the Fight phase began stays "eligible to fight this phase" after its enemy fell before its turn; one never engaged does not', () => {
    const g = played(null);
    const s = g.state;
    expect(s.units.E.location).toBe('destroyed');
    expect(s.units.K.flags.fought).toBe(true);
    expect(s.units.ST.flags.fought).toBe(false);
    expect(wasEligibleToFight(s.units.K)).toBe(true);
    expect(wasEligibleToFight(s.units.ST)).toBe(true);
    expect(wasEligibleToFight(s.units.FAR)).toBe(false);
    // recorded as events (the log replays it), once per unit
    const flagged = g.log!.flatMap((e) => (e.type === 'unit-flag' && e.flag === 'eligibleToFight' ? [e.unit] : []));
    expect(flagged).toEqual(['K', 'ST', 'E']);
  });

  it('INTERLOCKING MANOUEVRES is offered at the end of that phase for the Strike Team that never fought', () => {
    const asked: string[] = [];
    played('Auxiliary Cadre', asked);
    // the Kroot fought, the Strike Team did not but was eligible; the other Strike Team was never eligible
    expect(asked).toEqual(['INTERLOCKING MANOUEVRES: K', 'INTERLOCKING MANOUEVRES: ST']);
  });

  it('the record lasts the turn: a new turn starts with no unit eligible', () => {
    const g = played(null);
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    expect(wasEligibleToFight(g.state.units.ST)).toBe(false);
  });
});
