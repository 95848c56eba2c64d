import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { weapon } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';

/** A Strike Team (player 0) with a test gun against a Wave Serpent; player 0 answers COMMAND RE-ROLL with `pick`. */
function gunline(dice: number[], pick: (req: DecisionRequest) => number, gun = { attacks: '3', damage: 'D6' }, abilities = ['TORRENT']) {
  const asked: DecisionRequest[] = [];
  const g = battleSandbox([
    { id: 'A', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
    { id: 'D', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 10 } },
  ], {
    phase: 'shooting', cp: [3, 3], stream: scriptedStream(dice),
    agents: [scriptedAgent('tau', (r) => { if (r.kind === 'stratagem') { asked.push(r); return pick(r); } return 0; }), scriptedAgent('ae')],
  });
  const w = weapon({ ...gun, skill: 2, strength: 12, ap: -4, abilities });
  const A = g.state.units.A;
  const run = (models = 1) => resolveAttacks(g, A, [{ weapon: w, profile: w.profiles[0], models: A.models.slice(0, models), target: 'D', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
  return { g, asked, run };
}

type Offer = { pass?: true; stratagem?: string; reroll?: number; value?: number | null };
const offers = (r: DecisionRequest) => r.options as Offer[];
const rerolls = (g: ReturnType<typeof gunline>['g']) => g.log!.filter((e) => e.type === 'reroll').map((e) => e.type === 'reroll' && { purpose: e.purpose, indices: e.indices, values: e.values, source: e.source });

describe('COMMAND RE-ROLL of Damage and Attacks rolls made together (fast dice rolling)', () => {
  it('re-rolls one attack\'s Damage roll, not every Damage die of the batch, for 1 CP', () => {
    // three unsaved wounds (AP -4 against a 3+ save), D6 Damage rolled 1, 4, 2; the 1 is re-rolled into a 6
    const { g, asked, run } = gunline([5, 5, 5, 2, 2, 2, 1, 4, 2, 6], (r) => offers(r).findIndex((o) => o.value === 1));
    const tally = run();
    const damageAsk = asked.filter((r) => (r.context?.roll as { purpose: string }).purpose === 'damage');
    expect(damageAsk.map(offers)).toEqual([[{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: 0, value: 1 }, { stratagem: 'COMMAND RE-ROLL', reroll: 1, value: 4 }, { stratagem: 'COMMAND RE-ROLL', reroll: 2, value: 2 }]]);
    expect(rerolls(g)).toEqual([{ purpose: 'damage', indices: [0], values: [6], source: 'COMMAND RE-ROLL' }]);
    expect(tally.woundsLost).toBe(12);
    expect(g.state.players[0].cp).toBe(2);
  });

  it('a 2D6 Damage roll is re-rolled whole: both dice of one attack', () => {
    // two unsaved wounds, 2D6 Damage: 1+1 and 6+6; the first attack's dice are re-rolled into 5 and 5
    const { g, run } = gunline([5, 5, 2, 2, 1, 1, 6, 6, 5, 5, 1], (r) => offers(r).findIndex((o) => o.value === 2), { attacks: '2', damage: '2D6' });
    const tally = run();
    expect(rerolls(g)).toEqual([{ purpose: 'damage', indices: [0, 1], values: [5, 5], source: 'COMMAND RE-ROLL' }]);
    // 10, then 12 of which (the Deadly Demise roll a 1) the 3 wounds the Wave Serpent has left are lost (excess damage is lost)
    expect(tally.woundsLost).toBe(13);
    expect(g.state.players[0].cp).toBe(2);
  });

  it('a single Damage roll is offered whole, as before', () => {
    const again = gunline([5, 2, 2, 6], () => 0, { attacks: '1', damage: 'D6' });
    again.run();
    expect(again.asked.filter((r) => (r.context?.roll as { purpose: string }).purpose === 'damage').map(offers)).toEqual([[{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: -1, value: null }]]);
  });

  it('re-rolls one model\'s Attacks roll, not every model\'s', () => {
    // two models with D3 attacks roll 1 and 3; the 1 is re-rolled into a 3: 6 attacks, whose Wound rolls of 1 all fail
    const { g, asked, run } = gunline([1, 3, 3, 1, 1, 1, 1, 1, 1], (r) => offers(r).findIndex((o) => o.value === 1), { attacks: 'D3', damage: '1' });
    const tally = run(2);
    expect(asked.map(offers)[0]).toEqual([{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: 0, value: 1 }, { stratagem: 'COMMAND RE-ROLL', reroll: 1, value: 3 }]);
    expect(rerolls(g)).toEqual([{ purpose: 'attacks', indices: [0], values: [3], source: 'COMMAND RE-ROLL' }]);
    expect(tally.attacks).toBe(6);
  });
});

describe('COMMAND RE-ROLL of a successful Hit or Wound roll, fishing for a Critical', () => {
  const purposeOf = (r: DecisionRequest) => (r.context?.roll as { purpose: string }).purpose;

  it('with DEVASTATING WOUNDS a Wound roll that succeeded (a 4, not a Critical Wound) is offered beside the failed one', () => {
    // two auto-hitting attacks (S12 against T9: 3+ to wound, -1 for the Wave Serpent's Serpent Shield) roll 4 and 1;
    // the 4 is re-rolled into a 6, a Critical Wound
    const { g, asked, run } = gunline([4, 1, 6, 1, 1, 1, 1, 1], (r) => offers(r).findIndex((o) => o.value === 4), { attacks: '2', damage: '1' }, ['TORRENT', 'DEVASTATING WOUNDS']);
    run();
    const woundAsk = asked.filter((r) => purposeOf(r) === 'wound');
    expect(woundAsk.map(offers)[0]).toEqual([{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: 0, value: 4 }, { stratagem: 'COMMAND RE-ROLL', reroll: 1, value: 1 }]);
    expect(rerolls(g)).toEqual([{ purpose: 'wound', indices: [0], values: [6], source: 'COMMAND RE-ROLL' }]);
    // the request tells what a die needs, so an agent can tell the success from the failure
    expect((woundAsk[0].context?.roll as { test: unknown }).test).toEqual({ needed: 3, modifier: -1, criticalOn: 6 });
  });

  it('without a Critical-dependent ability only the failed die is offered (re-rolling a success could only lose it)', () => {
    const { asked, run } = gunline([4, 1, 1, 1, 1, 1, 1, 1], () => 0, { attacks: '2', damage: '1' });
    run();
    expect(asked.filter((r) => purposeOf(r) === 'wound').map(offers)[0]).toEqual([{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: 1, value: 1 }]);
  });

  it('with SUSTAINED HITS a Hit roll that hit is offered; a Critical Hit never is', () => {
    // BS 2+: two Hit rolls, 4 and 6; only the 4 is offered (the 6 is a Critical Hit already)
    const { asked, run } = gunline([4, 6, 1, 1, 1, 1, 1, 1, 1, 1], () => 0, { attacks: '2', damage: '1' }, ['SUSTAINED HITS 1']);
    run();
    expect(asked.filter((r) => purposeOf(r) === 'hit').map(offers)[0]).toEqual([{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: 0, value: 4 }]);
  });
});
