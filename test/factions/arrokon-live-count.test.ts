/**
 * THE ARRO'KON PROTOCOL gives SUSTAINED HITS 1 to attacks against a unit of 6 or more models, counted as the
 * attacks are made: a Riptide's second weapon (twin plasma rifle), resolved after its heavy burst cannon
 * destroyed one of six Dire Avengers, attacks a unit of 5 and has none. The engine counted the models once,
 * when the targets were selected.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

function game(dice: number[]) {
  const tau = scriptedAgent('tau', (r: DecisionRequest) => {
    if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === "THE ARRO'KON PROTOCOL"));
    // heavy burst cannon first, then twin plasma rifle, both at the Dire Avengers (their only target)
    return 0;
  });
  return battleSandbox([
    { id: 'RT', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 10, y: 20 } },
    // 1 Exarch + 5 Dire Avengers: 6 models, 14" away (beyond Bonded Heroes' 12")
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 5], at: { x: 26, y: 18 }, spacing: 1.3 },
  ], { phase: 'shooting', turn: 0, round: 2, cp: [2, 0], detachments: ['Retaliation Cadre', null], agents: [tau, scriptedAgent('ae')], stream: scriptedStream(dice) });
}

describe("THE ARRO'KON PROTOCOL counts the target's models when each attack is made", () => {
  it('the twin plasma rifle, after the heavy burst cannon left 5 of 6 Dire Avengers, has no SUSTAINED HITS 1', () => {
    // heavy burst cannon (12 attacks, BS4+): one hit (a 4, no Critical Hit), wound 2 (S6 v T3), save 1 (fails): one Dire Avenger destroyed
    // twin plasma rifle (1 attack): Hit roll 6 (a Critical Hit), then wound rolls of 2
    const dice = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 6, 2, 2, 2, 2, 2, 2, 2, 2];
    const g = game(dice);
    expect(g.state.units.DA.models.filter((m) => m.alive)).toHaveLength(6);
    shootWithUnit(g, g.state.units.RT);
    const used = g.state.players[0].stratagemsUsed.map((u) => u.name);
    expect(used).toContain("THE ARRO'KON PROTOCOL");
    const hits = rolls(g, 'hit');
    const wounds = rolls(g, 'wound');
    // one Dire Avenger was destroyed before the twin plasma rifle's Hit roll: 5 models left when it attacked
    const log = g.log!;
    const secondHit = log.findIndex((e, i) => e.type === 'dice' && e.purpose === 'hit' && log.slice(0, i).some((x) => x.type === 'dice' && x.purpose === 'hit'));
    expect(log.slice(0, secondHit).filter((e) => e.type === 'model-destroyed' && e.unit === 'DA')).toHaveLength(1);
    // first weapon: the target had 6 models; its one hit, one Wound roll
    expect(hits[0]).toHaveLength(12);
    expect(wounds[0]).toEqual([2]);
    // second weapon: the Dire Avengers had 5 models when its attack was made: a Critical Hit is one hit, one Wound roll
    expect(hits[1], 'twin plasma rifle Hit roll').toEqual([6]);
    expect(wounds[1], 'a Critical Hit against a unit of 5 models is 1 hit (no SUSTAINED HITS 1): one Wound roll').toHaveLength(1);
  });

  it('control: when the heavy burst cannon misses (6 models still), the same Critical Hit is 2 hits (SUSTAINED HITS 1)', () => {
    const g = game([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 2, 2, 2, 2, 2, 2, 2, 2]);
    shootWithUnit(g, g.state.units.RT);
    expect(rolls(g, 'hit')).toEqual([[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [6]]);
    expect(rolls(g, 'wound')).toEqual([[2, 2]]);
  });
});
