/**
 * Attack plan fields added for datasheet abilities: re-rolled Damage rolls (Sunforge, Assured
 * Destruction) in the pipeline and the exact calculator, and ignored Hit roll modifiers (Weapon
 * Support System), including the Big Guns Never Tire penalty the shooting phase adds.
 */
import { describe, expect, it } from 'vitest';
import '../../src/factions/index.ts';
import { duel } from '../helpers/attack.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { effectiveDamagePmf } from '../../src/calc/exact.ts';
import { parseDiceExpr } from '../../src/core/dice-expr.ts';

describe('re-rolled Damage rolls', () => {
  it('exact: a D6 re-rolled below its average (1-3) gives 1/12 for 1-3 and 1/4 for 4-6', () => {
    const pmf = effectiveDamagePmf({ damage: parseDiceExpr('D6')!, damageBonus: 0, damageReduction: 0, halveDamage: false, rerollDamage: true }, null);
    expect(pmf[0]).toBeCloseTo(0, 12);
    for (const v of [1, 2, 3]) expect(pmf[v]).toBeCloseTo(1 / 12, 12);
    for (const v of [4, 5, 6]) expect(pmf[v]).toBeCloseTo(1 / 4, 12);
  });

  it('pipeline: a 2 is re-rolled (into a 5), a 4 is kept', () => {
    const attacker = { models: 1, weapon: { attacks: '2', skill: 4, strength: 4, damage: 'D6' }, abilities: ['Sunforge'] };
    const defender = { name: 'Tank', models: 1, keywords: ['VEHICLE'], profile: { toughness: 4, save: 7, wounds: 30 } };
    // hits 4 4, wounds 4 4, no save (7+), damage 2 4 -> the 2 re-rolled into 5
    const d = duel(attacker, defender, scriptedStream([4, 4, 4, 4, 2, 4, 5]));
    expect(d.run().woundsLost).toBe(9);
    const plain = duel({ ...attacker, abilities: [] }, defender, scriptedStream([4, 4, 4, 4, 2, 4]));
    expect(plain.run().woundsLost).toBe(6);
  });
});

describe('ignored Hit roll modifiers', () => {
  it('Weapon Support System ignores the Big Guns Never Tire -1 as well', () => {
    const attacker = { models: 1, weapon: { attacks: '1', skill: 3, strength: 4, damage: '1' } };
    const defender = { name: 'Target', models: 1, profile: { toughness: 4, save: 7, wounds: 3 } };
    // a 3 hits at 3+ unless a -1 applies; then a 4 to wound
    const wss = duel({ ...attacker, abilities: ['Weapon Support System'] }, defender, scriptedStream([3, 4]));
    expect(wss.run({ extraHitModifier: -1 }).hits).toBe(1);
    const plain = duel(attacker, defender, scriptedStream([3]));
    expect(plain.run({ extraHitModifier: -1 }).hits).toBe(0);
  });
});
