/**
 * The lookahead's futures play a move candidate the way the Movement phase does: the move and what
 * follows it (the after-move rules and windows, embarking) once, and nothing of it after Remaining
 * Stationary. (They ran the after-move step a second time, so a rule such as Grenade Pack Flyover could
 * fire twice in a future.)
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { registerRule, getRule } from '../../src/core/rules-registry.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { moveOptions, type MoveChoice } from '../../src/rules/battle/movement.ts';
import { createLookahead, playFuture } from '../../agents/lookahead.ts';
import { chargeTargetSets } from '../../src/rules/battle/charge.ts';
import { createStream } from '../../src/core/rng.ts';

const COUNTER = 'Test: after-move counter';
const calls: string[] = [];
if (!getRule(COUNTER)) registerRule({ name: COUNTER, kind: 'datasheet-ability', afterMove(_g, unit) { calls.push(unit.id); } });

function future(mode: MoveChoice['mode']): string[] {
  const g = battleSandbox([
    { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 6, y: 16 } },
    { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 54, y: 16 } },
  ], { phase: 'movement', turn: 0, round: 2 });
  g.state.units.S.abilities.push(COUNTER);
  const options = moveOptions(g.state, g.state.units.S);
  const option = options.findIndex((o) => o.mode === mode);
  expect(option).toBeGreaterThanOrEqual(0);
  const req: DecisionRequest = { kind: 'move', player: 0, prompt: 'S: how does it move?', options, context: { unit: 'S' } };
  calls.length = 0;
  const f = playFuture(g.state, 0, req, { kind: 'option', option }, 'future-test', { profile: 0, turnEnds: 1 });
  // the future played to the end of this turn: the unit moved as the candidate says
  const moved = f.state.units.S.flags.moved;
  expect(moved).toBe(mode === 'stationary' ? 'stationary' : mode);
  return calls.filter((id) => id === 'S');
}

describe('lookahead futures resume a move candidate as the Movement phase does', () => {
  it('a Normal move runs the after-move step once', () => {
    expect(future('normal')).toEqual(['S']);
  });
  it('an Advance runs it once', () => {
    expect(future('advance')).toEqual(['S']);
  });
  it('Remaining Stationary runs none of it', () => {
    expect(future('stationary')).toEqual([]);
  });
});

describe('lookahead charge searches', () => {
  it('searches a charge\'s targets when it is declared, not when they are picked again after a target is gone', () => {
    const g = battleSandbox([
      { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', at: { x: 20, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 27, y: 18 } },
      { id: 'WR', player: 1, faction: 'aeldari', name: 'Windriders', at: { x: 27, y: 24 } },
    ], { phase: 'charge', turn: 0, round: 2 });
    const options = chargeTargetSets(g, g.state.units.CS);
    expect(options.length).toBeGreaterThanOrEqual(2);
    const req: DecisionRequest = { kind: 'charge-targets', player: 0, prompt: 'CS: charge which units?', options, context: { unit: 'CS' } };
    const searched = (why: unknown) => Array.isArray(why) && why.every((w) => typeof (w as { future?: unknown }).future === 'number');
    const la = createLookahead({}, createStream('lookahead-charge-test'));
    expect(searched(la.decide({ state: g.state, player: 0 }, req).why)).toBe(true);
    // the charge is declared; COMBAT EMBARKATION took a target away and the targets are asked again
    g.emit({ type: 'unit-flag', unit: 'CS', flag: 'declaredCharge', value: true });
    const again = la.decide({ state: g.state, player: 0 }, req);
    expect(searched(again.why)).toBe(false);
    expect(again.option).toBeLessThan(options.length);
  });
});
