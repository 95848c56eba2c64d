import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Game } from '../../src/core/game.ts';
import { buildAttackPlan } from '../../src/rules/attack-context.ts';
import { declareCharge, fightsFirst } from '../../src/rules/battle/charge.ts';

/** The Wound roll modifier of the Shining Spears' Laser lance (its melee profile, LANCE) against the Strike Team. */
function lanceWoundModifier(g: Game): number {
  const s = g.state;
  const A = s.units.SP;
  const T = s.units.ST;
  const m = A.models[0];
  const w = s.datasheets[m.datasheet].weapons.find((x) => x.name === 'Laser lance')!;
  const profile = w.profiles.find((p) => p.range === 'Melee')!;
  return buildAttackPlan({ state: s, attacker: A, attackers: [m], target: T, weapon: w, profile, melee: true, halfRange: false, targetModels: T.models.length, targetVisible: true, targetInCover: false, distance: 0 }).woundModifier;
}

/** Shining Spears 5" from a Strike Team charge it (Charge roll 12), with or without the Charge Bonus. */
function charge(chargeBonus: boolean) {
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 } },
    { id: 'SP', player: 1, faction: 'aeldari', name: 'Shining Spears', at: { x: 25, y: 20 } },
  ], { phase: 'charge', turn: 0, stream: scriptedStream([6, 6]) });
  const before = lanceWoundModifier(g);
  expect(declareCharge(g, g.state.units.SP, { targets: ['ST'], chargeBonus })).toBe(true);
  return { before, after: lanceWoundModifier(g), fightsFirst: fightsFirst(g, g.state.units.SP) };
}

describe('a Charge move without the Charge Bonus (HEROIC INTERVENTION)', () => {
  it('a charge with the Charge Bonus: Fights First, and LANCE adds 1 to the Wound roll', () => {
    expect(charge(true)).toEqual({ before: 0, after: 1, fightsFirst: true });
  });

  it('without it: no Fights First, but LANCE still counts the Charge move', () => {
    expect(charge(false)).toEqual({ before: 0, after: 1, fightsFirst: false });
  });
});
