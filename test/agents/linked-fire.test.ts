/**
 * The heuristic prices a LINKED FIRE shot as the shooting phase plays it: 1 attack, aimed from the linked
 * FIRE PRISM, so the same target seen directly (2 attacks) is worth about twice as much.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { createHeuristic, lastOptionScores } from '../../agents/heuristic.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { shootWithUnit, type TargetOption } from '../../src/rules/battle/shooting.ts';
import { unitSees } from '../../src/rules/battle/world.ts';

describe('the heuristic and LINKED FIRE', () => {
  it('two Strike Teams placed alike about the Fire Prism: the one it sees only through the other Fire Prism scores half', () => {
    const h = createHeuristic();
    const seen: { options: TargetOption[]; scores: number[]; pick: number }[] = [];
    const agent: Agent = {
      name: 'heuristic',
      decide(view, req: DecisionRequest) {
        const d = h.decide(view, req);
        if (req.kind === 'shoot-target') seen.push({ options: req.options as TargetOption[], scores: lastOptionScores(), pick: d.option });
        return d;
      },
    };
    // mirror images about y = 22 (P's line): a ruin hides the lower one (LOW) from P; Q sees it
    const ruin = { id: 'r', kind: 'ruin' as const, polygon: [{ x: 20, y: 24.5 }, { x: 27, y: 24.5 }, { x: 27, y: 33 }, { x: 20, y: 33 }], height: 5 };
    const g = battleSandbox([
      { id: 'LOW', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 30 }, spacing: 1.5 },
      { id: 'HIGH', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 8 }, spacing: 1.5 },
      { id: 'P', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 40, y: 22 } },
      { id: 'Q', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 40, y: 39 } },
    ], { phase: 'shooting', turn: 1, terrain: [ruin], agents: [scriptedAgent('p1'), agent] });
    const s = g.state;
    expect(unitSees(s, s.units.P, s.units.LOW)).toBe(false);
    expect(unitSees(s, s.units.P, s.units.HIGH)).toBe(true);
    expect(unitSees(s, s.units.Q, s.units.LOW)).toBe(true);
    shootWithUnit(g, s.units.P);
    const first = seen[0];
    const lances = (target: string) => first.options.findIndex((o) => o.weapon === 'Prism cannon' && o.profile === 1 && o.target === target);
    const low = lances('LOW');
    const high = lances('HIGH');
    expect(first.options[low]).toMatchObject({ target: 'LOW', models: 1, linked: 1 });
    expect(first.options[high]).toEqual({ weapon: 'Prism cannon', profile: 1, target: 'HIGH', models: 1 });
    // Crystal Matrix re-rolls one Hit roll and one Wound roll; hits on 3+, wounds on 2+, no save at AP -4
    // (Sv 4+), each unsaved wound one Fire Warrior. 1 attack: 8/9 hit x 35/36 wound = 280/324. 2 attacks:
    // hits 2 with 20/27, 1 with 6/27; wounds given 1 hit 35/36, given 2 hits 10/6 + 11/36 x 5/6 = 415/216:
    // 9560/5832 in all. Same targets, same value a wound: the scores are in that ratio (not 1/2).
    expect(first.scores[low] / first.scores[high]).toBeCloseTo((280 / 324) / (9560 / 5832), 9);
  });
});
