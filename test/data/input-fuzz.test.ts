/**
 * Bad input on purpose (test/helpers/input-mutations.ts; bench/input-fuzz.ts runs more): mutated scenarios
 * and the files they read, army-list exports, calculator inputs, batch folders and logged games are each taken or refused as bad input
 * naming the file and field, never met with a TypeError or a run out of memory. What such fuzzing found is
 * each a case here too: a unit of a billion models, an unknown primary mission, a bullet with no model, a
 * weapon of a billion attacks in the calculator.
 */
import { describe, expect, it } from 'vitest';
import { fuzzBatchFolders, fuzzCalc, fuzzLists, fuzzLogs, fuzzScenarios } from '../helpers/input-mutations.ts';
import { parseCalcInput } from '../../src/calc/input.ts';
import { HAVE_LISTS } from './paths.ts';

describe('input fuzz', () => {
  it('mutated scenarios and the army and terrain files they read: taken, or refused naming the file and field', async () => {
    for (const [scenario, cases] of [['default.json', 150], ['boarding-actions/starfire-vs-aeldari.json', 80]] as const) {
      const r = await fuzzScenarios(scenario, cases);
      expect(r.problems, scenario).toEqual([]);
      // both outcomes occur: the cases are neither all harmless nor all rejected by the first check (most of
      // the Boarding Actions scenario is inline walls and zones, where a changed point is refused)
      expect(r.taken, scenario).toBeGreaterThan(0);
      expect(r.refused, scenario).toBeGreaterThan(cases / 3);
    }
  }, 120_000);

  it('a few of them played through: taken scenarios play, or refuse at set-up as bad input', async () => {
    const r = await fuzzScenarios('default.json', 12, 1000, 'random');
    expect(r.problems).toEqual([]);
    expect(r.taken).toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(!HAVE_LISTS)('mutated army-list exports: parsed, or refused naming the line', () => {
    const r = fuzzLists(400);
    expect(r.problems).toEqual([]);
    expect(r.taken).toBeGreaterThan(40);
    expect(r.refused).toBeGreaterThan(40);
  }, 120_000);

  it("mutated batch folders (batch.json, a games.jsonl record): merge, compare, batch-game and resume take them or name the file", async () => {
    // a damaged record reached the statistics and threw there (TypeError) before records were checked as read
    const r = await fuzzBatchFolders(60);
    expect(r.problems).toEqual([]);
    expect(r.taken).toBeGreaterThan(20);
    expect(r.refused).toBeGreaterThan(20);
  }, 120_000);

  it('logged games with an event changed: the replay stops at it, a fork taken or refused with a ForkError', async () => {
    // a difference during deployment came out as the scenario error set-up wrapped it in
    const r = await fuzzLogs(40);
    expect(r.problems).toEqual([]);
    expect(r.refused).toBeGreaterThan(10);
  }, 120_000);

  it('mutated calculator inputs: refused naming the field, or calculated and simulated', () => {
    const r = fuzzCalc(400);
    expect(r.problems).toEqual([]);
    expect(r.taken).toBeGreaterThan(20);
    // a weapon of a billion attacks made arrays a billion long (out of memory): refused
    const input = { attacker: { models: 1, weapon: { range: 24, attacks: 1e9, skill: 3, strength: 4, ap: 0, damage: '1' } }, defender: { models: 5, toughness: 4, save: 4, wounds: 1 } };
    expect(() => parseCalcInput(input, 'c.json')).toThrow('c.json: attacker.weapon.attacks: expected a dice expression of at most 100, got 1000000000');
    expect(() => parseCalcInput({ ...input, attacker: { ...input.attacker, weapon: { ...input.attacker.weapon, attacks: '2D6' } }, defender: { ...input.defender, wounds: 1e6 } }, 'c.json')).toThrow(/c\.json: defender\.wounds: .*100/);
  });
});
