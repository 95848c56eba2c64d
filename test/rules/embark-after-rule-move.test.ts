/**
 * Embark (core rules) follows any Normal, Advance or Fall Back move, in any phase: a Normal move a rule gives
 * (INTERLOCKING MANOUEVRES at the end of a Fight phase) may end with the unit embarking, unless the rule says
 * it cannot (INTERLOCKING MANOUEVRES after a disembark this turn; FIRE AND FADE always).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { openWindow } from '../../src/rules/windows.ts';

/** Takes the stratagem named for `unit`, moves toward `toward`, and embarks when asked; records the requests' kinds. */
function agent(side: string, stratagem: string, unit: string, moveKind: string, toward: string, asked: string[]) {
  return scriptedAgent(side, (r: DecisionRequest) => {
    asked.push(r.kind);
    const options = r.options as Record<string, unknown>[];
    if (r.kind === 'stratagem') return Math.max(0, options.findIndex((o) => o.stratagem === stratagem && o.unit === unit));
    if (r.kind === moveKind) return Math.max(0, options.findIndex((o) => o.toward === toward));
    if (r.kind === 'embark') return options.findIndex((o) => 'transport' in o);
    return 0;
  });
}

describe('embarking at the end of a Normal move a rule gives', () => {
  function interlocking(disembarked: boolean | 'transport destroyed') {
    const asked: string[] = [];
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 12, y: 20 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 45, y: 10 } },
    ], {
      phase: 'fight', turn: 0, round: 2, cp: [3, 3], detachments: ['Auxiliary Cadre', null],
      agents: [agent('tau', 'INTERLOCKING MANOUEVRES', 'CF', 'interlocking-manoeuvres', 'objective o2', asked), scriptedAgent('ae')],
      objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }, { id: 'o2', pos: { x: 14.6, y: 20 } }],
      stream: scriptedStream(new Array(40).fill(3)),
    });
    g.emit({ type: 'unit-flag', unit: 'CF', flag: 'eligibleToFight', value: true });
    if (disembarked === true) g.emit({ type: 'unit-flag', unit: 'CF', flag: 'disembarked', value: true });
    // set up round its transport destroyed earlier this turn: the flag that sets
    if (disembarked === 'transport destroyed') g.emit({ type: 'unit-flag', unit: 'CF', flag: 'disembarkedAfterTransportMoved', value: true });
    openWindow(g, { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } });
    return { g, asked };
  }

  it('INTERLOCKING MANOUEVRES: the Fireblade ends its move beside the Devilfish and embarks', () => {
    const { g, asked } = interlocking(false);
    expect(asked).toEqual(['stratagem', 'interlocking-manoeuvres', 'embark']);
    expect([g.state.units.CF.location, g.state.units.CF.embarkedIn]).toEqual(['embarked', 'DF']);
  });

  it('INTERLOCKING MANOUEVRES: not when the unit disembarked this turn', () => {
    const { g, asked } = interlocking(true);
    expect(asked).toEqual(['stratagem', 'interlocking-manoeuvres']);
    expect(g.state.units.CF.location).toBe('battlefield');
  });

  it('INTERLOCKING MANOUEVRES: not when the unit was set up round its destroyed transport this turn (it disembarked)', () => {
    const { g, asked } = interlocking('transport destroyed');
    expect(asked).toEqual(['stratagem', 'interlocking-manoeuvres']);
    expect(g.state.units.CF.location).toBe('battlefield');
  });

  it('FIRE AND FADE: never', () => {
    const asked: string[] = [];
    const g = battleSandbox([
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 40, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 46, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 4 } },
    ], {
      phase: 'shooting', turn: 1, round: 2, cp: [0, 3], detachments: [null, 'Battle Host'],
      agents: [scriptedAgent('tau'), agent('ae', 'FIRE AND FADE', 'DA', 'fire-and-fade', 'objective o2', asked)],
      objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }, { id: 'o2', pos: { x: 42.5, y: 20 } }],
    });
    openWindow(g, { name: 'phase/end', unit: null, targets: [], data: { phase: 'shooting' } });
    expect(asked).toEqual(['stratagem', 'fire-and-fade']);
    expect(g.log!.some((e) => e.type === 'models-placed' && e.unit === 'DA' && e.mode === 'normal')).toBe(true);
    expect(g.state.units.DA.location).toBe('battlefield');
  });
});
