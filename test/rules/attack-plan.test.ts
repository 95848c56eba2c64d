import { describe, expect, it } from 'vitest';
import { adjustDamage, capModifier, rollOutcome, saveNeeded, woundTarget } from '../../src/rules/attack-plan.ts';

const plan = (p: Partial<{ ap: number; cover: boolean; ignoresCover: boolean; saveModifier: number; invulnerableModifier: number; invulnerable: number | null }>) => ({
  ap: 0, cover: false, ignoresCover: false, saveModifier: 0, invulnerableModifier: 0, invulnerable: null, ...p,
});

describe('Strength against Toughness', () => {
  it.each([
    [8, 4, 2], [9, 4, 2], [5, 4, 3], [7, 4, 3], [4, 4, 4], [3, 4, 5], [3, 5, 5], [2, 4, 6], [4, 8, 6], [5, 10, 6], [5, 9, 5],
  ])('S%i vs T%i wounds on %i+', (s, t, need) => expect(woundTarget(s, t)).toBe(need));
});

describe('roll outcomes', () => {
  it('a Critical Hit always hits, an unmodified 1 always fails, modifiers are capped', () => {
    expect(rollOutcome(6, 7, -1, 6)).toBe(2);
    expect(rollOutcome(1, 2, 1, 6)).toBe(0);
    expect(capModifier(2)).toBe(1);
    expect(capModifier(-3)).toBe(-1);
    expect(rollOutcome(5, 4, -1, 5)).toBe(2); // a lowered Critical threshold (e.g. ANTI) hits regardless
  });
});

describe('saving throw', () => {
  it('cover: +1, but not to a 3+ or better save against AP 0, never with IGNORES COVER', () => {
    expect(saveNeeded(plan({ cover: true }), 4, null)).toBe(3);
    expect(saveNeeded(plan({ cover: true }), 3, null)).toBe(3);
    expect(saveNeeded(plan({ cover: true, ap: -1 }), 3, null)).toBe(3);
    expect(saveNeeded(plan({ cover: true, ignoresCover: true }), 4, null)).toBe(4);
  });
  it('the net improvement is capped at +1', () => {
    expect(saveNeeded(plan({ cover: true, saveModifier: 1 }), 5, null)).toBe(4);
    expect(saveNeeded(plan({ cover: true, saveModifier: 1, ap: -1 }), 4, null)).toBe(3);
    expect(saveNeeded(plan({ saveModifier: 1 }), 2, null)).toBe(2); // an unmodified 1 still fails
  });
  it('invulnerable saves ignore AP and cover; the better save is used; 7 means no save', () => {
    expect(saveNeeded(plan({ ap: -3 }), 3, 4)).toBe(4);
    expect(saveNeeded(plan({ ap: -1, cover: true }), 6, 5)).toBe(5);
    expect(saveNeeded(plan({ ap: -2 }), 6, null)).toBe(7);
  });
  it('an invulnerable save granted by a rule (Go to Ground 6+) is used when it is the best', () => {
    expect(saveNeeded(plan({ ap: -2, invulnerable: 6 }), 5, null)).toBe(6);
    expect(saveNeeded(plan({ ap: -2, invulnerable: 6 }), 5, 4)).toBe(4);
  });
});

describe('damage', () => {
  it('halve first, then add (MELTA), then subtract; never below 1', () => {
    expect(adjustDamage(6, { damageBonus: 2, damageReduction: 0, halveDamage: true })).toBe(5);
    expect(adjustDamage(1, { damageBonus: 0, damageReduction: 1, halveDamage: false })).toBe(1);
    expect(adjustDamage(3, { damageBonus: 0, damageReduction: 1, halveDamage: true })).toBe(1);
  });
});
