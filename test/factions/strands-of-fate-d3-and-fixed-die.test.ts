/**
 * Strands of Fate: a Fate die may stand for a Damage roll, a D3 one too (a D3 is a D6 halved, rounding up),
 * and the die it stands for is not changed or re-rolled afterwards. The engine offered Fate dice for D6 rolls
 * only, and re-rolled a substituted die as any other (Unparalleled Foresight; COMMAND RE-ROLL offered it).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { fatePool } from '../../src/factions/aeldari/army-rule.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { rollDice } from '../../src/rules/roll-window.ts';

const useFate = (v: number) => (r: DecisionRequest) => (r.kind === 'fate-die' ? r.options.findIndex((o) => (o as { fate?: number }).fate === v) : 0);

function aeldari(pick: (r: DecisionRequest) => number, dice: number[], detachment: string | null = null) {
  return battleSandbox([
    { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
  ], { factions: ['AE', 'TAU'], detachments: [detachment, null], phase: 'shooting', agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], stream: scriptedStream(dice) });
}

describe('Strands of Fate', () => {
  it('(a) a Fate die may substitute a D3 Damage roll (a 6 counts as a roll of 6: D3 result 3)', () => {
    const asked: string[] = [];
    const pick = useFate(6);
    const g = aeldari((r) => { asked.push(r.kind); return pick(r); }, [1]);
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [6] });
    // the attack sequence's own call for a Damage characteristic of D3 (attack-sequence.ts applyDamage)
    const values = rollDice(g, 1, 3, 'damage', 0, 'GD', 'Test D3 weapon');
    expect(asked, 'decisions asked before the D3 Damage roll').toContain('fate-die');
    expect(fatePool(g, 0)).toEqual([]);
    expect(values[0]).toBe(3);
  });

  it('(b) COMMAND RE-ROLL is not offered for a Fate die standing for a Hit roll; offered for the same roll rolled', () => {
    for (const fate of [true, false]) {
      const asked: DecisionRequest[] = [];
      const pick = (r: DecisionRequest) => { asked.push(r); return r.kind === 'fate-die' && fate ? r.options.findIndex((o) => (o as { fate?: number }).fate === 2) : 0; };
      // one attack at BS 3+: the Fate die 2, or a rolled 2, misses
      const g = aeldari(pick, [2, 4, 4, 4]);
      g.emit({ type: 'cp', player: 0, delta: 2, reason: 'test' });
      g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [2] });
      const GD = g.state.units.GD;
      const m = GD.models[0];
      const w = g.state.datasheets[m.datasheet].weapons.find((x) => x.name === 'Shuriken catapult')!;
      resolveAttacks(g, GD, [{ weapon: w, profile: { ...w.profiles[0], skill: 3, attacks: { n: 0, sides: 0, plus: 1 } }, models: [m], target: 'ST', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 }], false);
      const rerollOffers = asked.filter((r) => r.kind === 'stratagem' && r.options.some((o) => (o as { stratagem?: string }).stratagem === 'COMMAND RE-ROLL' && (o as { reroll?: number }).reroll === 0));
      expect(rerollOffers.length, fate ? 'COMMAND RE-ROLL offered for the Fate die' : 'COMMAND RE-ROLL offered for the rolled 2').toBe(fate ? 0 : 1);
    }
  });

  it('(b) a Fate die substituted into a Hit roll is not re-rolled afterwards (Unparalleled Foresight)', () => {
    // Battle Host: re-roll one Hit roll. One attack at BS 3+; the Fate die 2 replaces the Hit roll (a miss).
    const g = aeldari(useFate(2), [5, 6, 4, 4, 4, 4, 4, 4], 'Battle Host');
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [2] });
    const GD = g.state.units.GD;
    const m = GD.models[0];
    const w = g.state.datasheets[m.datasheet].weapons.find((x) => x.name === 'Shuriken catapult')!;
    resolveAttacks(g, GD, [{ weapon: w, profile: { ...w.profiles[0], skill: 3, attacks: { n: 0, sides: 0, plus: 1 } }, models: [m], target: 'ST', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 }], false);
    const subs = (g.log ?? []).filter((e) => e.type === 'dice-substituted');
    expect(subs).toMatchObject([{ purpose: 'hit', value: 2, source: 'Fate die' }]);
    const hitRerolls = (g.log ?? []).filter((e) => e.type === 'reroll' && (e as { purpose: string }).purpose === 'hit');
    expect(hitRerolls, 'Hit re-rolls made after the Fate die was substituted').toEqual([]);
  });
});
