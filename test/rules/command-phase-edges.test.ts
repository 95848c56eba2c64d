/**
 * Command phase rules at their edges (audit 19's mutants C02, C03, C06, S06, S09: each played wrong, no directed
 * test failed): Below Half-strength is fewer than half (a unit at exactly half is not; a lone model at exactly
 * half its Wounds is not); a Battle-shock test is taken against the best Leadership in the unit; COMMAND RE-ROLL
 * cannot re-roll a Battle-shock test, nor any roll of a Battle-shocked unit.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { battleShockStep, battleShockTest } from '../../src/rules/battle/command.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { belowHalfStrength } from '../../src/rules/battle/units.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';

const shockDice = (g: ReturnType<typeof battleSandbox>) => (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'battle-shock').length;

describe('Below Half-strength', () => {
  it('a Strike Team of 10 with 5 models left is not Below Half-strength and takes no Battle-shock test; with 4 it is and takes one', () => {
    for (const [lost, below] of [[5, false], [6, true]] as const) {
      const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 20 } }], { phase: 'command', stream: scriptedStream([6, 6]), objectives: [] });
      const st = g.state.units.ST;
      for (const m of st.models.slice(0, lost)) destroyModel(g, st, m, null, 'test');
      expect(belowHalfStrength(g.state, g.state.units.ST), `${10 - lost} left`).toBe(below);
      battleShockStep(g, 0);
      expect(shockDice(g), `${10 - lost} left`).toBe(below ? 1 : 0);
    }
  });

  it('a lone Farseer (W4, Starting Strength 1) with 2 wounds left is not Below Half-strength; with 1 it is', () => {
    const g = battleSandbox([{ id: 'F', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 30, y: 20 } }], { objectives: [] });
    const f = g.state.units.F;
    expect(f.startingStrength).toBe(1);
    f.models[0].wounds = 2;
    expect(belowHalfStrength(g.state, f)).toBe(false);
    f.models[0].wounds = 1;
    expect(belowHalfStrength(g.state, f)).toBe(true);
  });
});

describe('the Battle-shock test reads the best Leadership in the unit', () => {
  /** Guardian Defenders (Ld 7+) down to 4 models, led by a Farseer (Ld 6+) or alone; the test rolls 3 and 3. */
  function test(led: boolean) {
    const g = battleSandbox([
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 0], at: { x: 30, y: 10 } },
      { id: 'F', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 31, y: 10 } },
    ], { phase: 'command', turn: 1, stream: scriptedStream([3, 3]), objectives: [] });
    if (led) g.emit({ type: 'unit-attached', leader: 'F', bodyguard: 'GD' });
    const gd = g.state.units.GD;
    for (const m of gd.models.filter((x) => x.origin === 'GD').slice(0, 6)) destroyModel(g, gd, m, null, 'test');
    expect(belowHalfStrength(g.state, g.state.units.GD)).toBe(true);
    return battleShockTest(g, 1, 'GD');
  }

  it('6 passes with the Farseer leading (Ld 6+) and fails for the Guardians alone (Ld 7+)', () => {
    expect(test(true)).toBe(true);
    expect(test(false)).toBe(false);
  });
});

describe('COMMAND RE-ROLL', () => {
  /** A Strike Team, 1 CP; the T'au player records every stratagem offered and takes the first option (pass). */
  function sandbox(dice: number[]) {
    const offered: string[] = [];
    const record = (r: DecisionRequest) => {
      if (r.kind === 'stratagem') for (const o of r.options as { stratagem?: string }[]) if (o.stratagem) offered.push(o.stratagem);
      return 0;
    };
    const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 20 } }], {
      phase: 'command', cp: [1, 0], stream: scriptedStream(dice), agents: [scriptedAgent('tau', record), scriptedAgent('ae')], objectives: [],
    });
    return { g, offered };
  }

  it('is not offered for a failed Battle-shock test (it is offered for an Advance roll)', () => {
    const { g, offered } = sandbox([1, 1, 2]);
    const st = g.state.units.ST;
    for (const m of st.models.slice(0, 6)) destroyModel(g, st, m, null, 'test');
    expect(battleShockTest(g, 0, 'ST')).toBe(false);
    expect(offered).not.toContain('COMMAND RE-ROLL');
    expect(g.state.units.ST.battleShocked).toBe(true);
    expect(g.state.players[0].cp).toBe(1);
    // the control: the same unit's Advance roll is offered the re-roll... once it is no longer Battle-shocked
    g.emit({ type: 'battle-shock', unit: 'ST', value: false });
    advanceDistance(g, g.state.units.ST);
    expect(offered).toContain('COMMAND RE-ROLL');
  });

  it('is not offered for a roll of a Battle-shocked unit', () => {
    const { g, offered } = sandbox([2]);
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    advanceDistance(g, g.state.units.ST);
    expect(offered).not.toContain('COMMAND RE-ROLL');
    expect(g.state.players[0].cp).toBe(1);
  });
});
