import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Game } from '../../src/core/game.ts';
import { buildAttackPlan } from '../../src/rules/attack-context.ts';
import { declareCharge, fightsFirst } from '../../src/rules/battle/charge.ts';
import { destroyModel, splitAttachedUnits } from '../../src/rules/damage.ts';

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

describe('an Attached unit that charged without the Charge Bonus, then lost its Bodyguard part', () => {
  /** A Fireblade leading a Strike Team charges the Guardians (Charge roll 12); then every Fire Warrior is destroyed. */
  function split(chargeBonus: boolean) {
    const g = battleSandbox([
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 30 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 21.5, y: 30 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 26, y: 30 } },
    ], { phase: 'charge', turn: 1, stream: scriptedStream([6, 6, ...new Array(30).fill(1)]) });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    expect(declareCharge(g, g.state.units.ST, { targets: ['E'], chargeBonus })).toBe(true);
    const attached = fightsFirst(g, g.state.units.ST);
    for (const m of g.state.units.ST.models.filter((x) => x.alive && x.origin === 'ST')) destroyModel(g, g.state.units.ST, m, 'E', 'test');
    splitAttachedUnits(g);
    const cf = g.state.units.CF;
    expect([cf.attachedTo, cf.flags.charged]).toEqual([null, true]);
    return { attached, leader: fightsFirst(g, cf) };
  }

  it('the Leader left on its own keeps the charge and its missing Charge Bonus: no Fights First', () => {
    expect(split(false)).toEqual({ attached: false, leader: false });
  });

  it('with the Charge Bonus, the Leader keeps Fights First', () => {
    expect(split(true)).toEqual({ attached: true, leader: true });
  });
});
