/**
 * Transports: a unit cannot disembark and embark in the same phase, but may embark in a later phase of the
 * same turn (COMBAT EMBARKATION in the opponent's Charge phase, after its transport was destroyed in their
 * Shooting phase). The engine used to refuse every embark for the rest of the turn.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { destroyModel, inflictMortalWounds } from '../../src/rules/damage.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { DISEMBARKED_THIS_PHASE, embarkOptions } from '../../src/rules/battle/transports.ts';

describe('Embarking after disembarking', () => {
  it('a unit set up around its destroyed transport may not embark in that phase, and may in the next', () => {
    // the Devilfish DF is destroyed in the Aeldari Shooting phase: Deadly Demise 2 (nothing), the Strike Team's
    // ten D6 no 1; a second Devilfish D2 stands beside where the Strike Team is set up
    const stream = scriptedStream([2, ...Array(10).fill(4)]);
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'D2', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 29 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 20 } },
    ], { phase: 'shooting', turn: 1, round: 2, agents: [scriptedAgent('tau'), scriptedAgent('ae')], stream });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
    const df = g.state.units.DF;
    destroyModel(g, df, df.models[0], 'GD', 'test');
    const st = g.state.units.ST;
    expect(st.location).toBe('battlefield');
    expect(g.state.effects.filter((e) => e.kind === DISEMBARKED_THIS_PHASE).map((e) => e.unit)).toEqual(['ST']);
    // every model within 3" of D2 (moved there, as a Normal move would), still in the Shooting phase: refused
    const hull = g.state.units.D2.models[0].pos!;
    st.models.forEach((m, i) => { m.pos = { ...hull, x: hull.x - 2.4 + (i % 5) * 1.2, y: hull.y + (i < 5 ? -3 : 3) }; });
    expect(embarkOptions(g, st)).toEqual([]);
    // the Charge phase of the same turn: the unit may embark
    endPhase(g, 1, 'shooting');
    g.emit({ type: 'phase-started', round: 2, player: 1, phase: 'charge' });
    expect(st.flags.disembarkedAfterTransportMoved).toBe(true);
    expect(embarkOptions(g, g.state.units.ST).map((t) => t.id)).toEqual(['D2']);
  });

  it("Rapid Embarkation at the end of the Fight phase does not take a unit set up around its transport destroyed in that phase (audit 16)", () => {
    // Starweaver A dies in the Fight phase (Deadly Demise 1: nothing; every Troupe model's D6 a 6); Starweaver B
    // stands beside where the Troupe is set up, with nothing embarked: the only unit it could take is the Troupe
    const asked: DecisionRequest[] = [];
    const ae = scriptedAgent('ae', (r: DecisionRequest) => { asked.push(r); return r.kind === 'rapid-embarkation' ? r.options.length - 1 : 0; });
    const g = battleSandbox([
      { id: 'SWA', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'SWB', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 24, y: 20 } },
      { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', counts: [5, 0], at: { x: 40, y: 5 } },
      { id: 'E', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 55, y: 35 } },
    ], { factions: ['AE', 'TAU'], phase: 'fight', round: 2, turn: 1, agents: [ae, scriptedAgent('tau')], stream: scriptedStream([1, ...Array(10).fill(6)]) });
    g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SWA' });
    inflictMortalWounds(g, g.state.units.SWA, 30, null);
    expect(g.state.units.TR.location).toBe('battlefield');
    getRule('Rapid Embarkation')!.phaseEnd!(g, g.state.units.SWB, 'fight');
    expect(asked.filter((r) => r.kind === 'rapid-embarkation')).toEqual([]);
    expect(g.state.units.TR.location).toBe('battlefield');
    // in the next phase it may (the effect lasts the phase only)
    endPhase(g, 1, 'fight');
    expect(g.state.effects.some((e) => e.kind === DISEMBARKED_THIS_PHASE)).toBe(false);
  });
});
