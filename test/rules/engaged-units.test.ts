/**
 * A unit within Engagement Range of an enemy unit (core rules, Movement and Charge phases): in its Movement phase
 * it may only Remain Stationary or Fall Back, and it cannot be selected to declare a charge. A TITANIC model
 * Falling Back over enemy models takes no Desperate Escape test. (Audit 19's mutants M41, M53 and M10: each rule
 * dropped, no directed test failed; the planner's refusals hid the first two in played games.)
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { createStream } from '../../src/core/rng.ts';
import type { PlannedMove } from '../../src/geometry/planner/types.ts';
import { canCharge, chargeBody } from '../../src/rules/battle/charge.ts';
import { completeFallBack, moveOptions } from '../../src/rules/battle/movement.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';
import { battleSandbox, scriptedAgent, type BattleSandboxOptions } from '../helpers/battle.ts';

/** A Strike Team (ST) 0.5" from Guardian Defenders, a second Strike Team (ST2) 8" from Dire Avengers. */
function lines(phase: 'movement' | 'charge', agents?: BattleSandboxOptions['agents']) {
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 21.5, y: 20 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 20 } },
    { id: 'ST2', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 2 } },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 49, y: 2 } },
  ], { phase, turn: 0, objectives: [], ...(agents ? { agents } : {}) });
  const s = g.state;
  // the set-up: ST and GD engaged (and GD, from its side); ST2 and DA not
  expect([isEngaged(s, s.units.ST), isEngaged(s, s.units.GD), isEngaged(s, s.units.ST2), isEngaged(s, s.units.DA)]).toEqual([true, true, false, false]);
  return g;
}

describe('a unit in Engagement Range', () => {
  it('is offered only Remain Stationary and Fall Back moves in its Movement phase; a unit out of combat Normal moves and Advances, not Fall Back', () => {
    const g = lines('movement');
    const modes = (id: string) => [...new Set(moveOptions(g.state, g.state.units[id]).map((o) => o.mode))].sort();
    expect(modes('ST')).toEqual(['fall-back', 'stationary']);
    expect(modes('ST2')).toEqual(['advance', 'normal', 'stationary']);
  });

  it('cannot be selected to declare a charge, though an enemy unit is in reach: the unit out of combat can', () => {
    const asked: DecisionRequest[] = [];
    const g = lines('charge', [scriptedAgent('p1', (r) => { asked.push(r); return 0; }), scriptedAgent('p2')]);
    expect(canCharge(g, g.state.units.ST)).toBe(false);
    expect(canCharge(g, g.state.units.ST2)).toBe(true);
    chargeBody(g, 0);
    const select = asked.find((r) => r.kind === 'select-unit-to-charge')!;
    expect(select.options).toEqual([{ done: true }, { unit: 'ST2' }]);
  });
});

describe('Desperate Escape and TITANIC models', () => {
  /** `name` (player 0) Falls Back 8" west along y 10, its path over a Guardian Defender standing at (16, 10). */
  function fallBackOver(name: string, faction: 'tau' | 'aeldari') {
    const g = battleSandbox([
      { id: 'U', player: 0, faction, name, at: { x: 22, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 0], at: { x: 16, y: 10 } },
    ], { phase: 'movement', turn: 0, stream: createStream('de-titanic'), objectives: [] });
    const s = g.state;
    const u = s.units.U;
    g.emit({ type: 'models-placed', unit: 'GD', mode: 'test', positions: s.units.GD.models.map((m, i) => ({ model: m.id, pos: { x: 16, y: 10 + (i === 0 ? 0 : 10 + 1.2 * i), z: 0 } })) });
    g.emit({ type: 'models-placed', unit: 'U', mode: 'test', positions: u.models.map((m, i) => ({ model: m.id, pos: { x: 22, y: 10 + 5 * i, z: 0 } })) });
    const paths = u.models.map((_, i) => [{ x: 22, y: 10 + 5 * i }, { x: 8, y: 10 + 5 * i }]);
    const plan: PlannedMove = {
      ok: true, positions: u.models.map((_, i) => ({ x: 8, y: 10 + 5 * i, z: 0 })), paths, pathLengths: paths.map(() => 14),
      crossedEnemyModelIds: [s.units.GD.models[0].id], reachedDestination: true, baseContact: paths.map(() => false),
    };
    const from = g.log!.length;
    completeFallBack(g, g.state.units.U, plan, { x: 8, y: 10 }, 14);
    return g.log!.slice(from).filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
  }

  it('a Stormsurge (TITANIC) moving over a Guardian takes no test; a Broadside (not TITANIC, no FLY) takes one for its model that does', () => {
    expect(fallBackOver('Stormsurge', 'tau')).toBe(0);
    expect(fallBackOver('Broadside Battlesuits', 'tau')).toBe(1);
  });
});
