import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';
import { parseCalcInput } from '../../src/calc/input.ts';
import { buildScene, exactForInput, simulate } from '../../src/calc/simulate.ts';
import { formatCalc } from '../../src/calc/format.ts';

const example = join(root, 'scenarios', 'calc', 'pulse-rifles-vs-guardians.json');

function tmp(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'calc-'));
  const f = join(dir, name);
  writeFileSync(f, content);
  return f;
}

describe('strategium calc', () => {
  it('--json prints the exact and simulated results in the documented shape', () => {
    const r = cli(['calc', example, '--json', '--trials', '2000', '--seed', '7']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // 10 pulse rifles at half range (RAPID FIRE 1): 20 shots, 4+ to hit, S5 vs T3 wounds on 3+,
    // Sv4+ in cover -> 3+: unsaved = 20 * 1/2 * 2/3 * 1/3 = 20/9; W1 so wounds lost = unsaved (up to 10 models)
    expect(out.exact.meanDamage).toBeGreaterThan(20 / 9 - 1e-4);
    expect(out.exact.meanDamage).toBeLessThanOrEqual(20 / 9);
    expect(out.exact.modelsDestroyed).toHaveLength(11);
    expect(out.simulated.trials).toBe(2000);
    expect(out.simulated.modelsDestroyed.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 9);
    // the simulated mean within 4 standard errors (sd of a sum of 20 Bernoulli(1/9) ~ 1.405)
    const se = Math.sqrt(20 * (1 / 9) * (8 / 9) / 2000);
    expect(Math.abs(out.simulated.meanDamage - 20 / 9)).toBeLessThan(4 * se);
  });

  it('the same seed gives the same simulation', () => {
    const a = cli(['calc', example, '--json', '--trials', '500', '--seed', 'x']);
    const b = cli(['calc', example, '--json', '--trials', '500', '--seed', 'x']);
    expect(a.stdout).toBe(b.stdout);
  });

  it('human output has the stage table and the histogram', () => {
    const r = cli(['calc', example, '--trials', '200']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wounds lost\s+2\.222/);
    expect(r.stdout.split('\n')[0]).toBe('10 x Pulse rifle: 30" A:1 BS:4+ S:5 AP:0 D:1 [RAPID FIRE 1]');
    expect(r.stdout).toContain('models destroyed   exact');
  });

  it('a malformed file gets a one-line error naming the field, and exit code 2', () => {
    const f = tmp('bad.json', JSON.stringify({
      attacker: { models: 10, weapon: { name: 'X', range: 24, attacks: 'D7', skill: 4, strength: 4, ap: 0, damage: '1', abilities: [] } },
      defender: { models: 5, toughness: 4, save: 3, wounds: 1 },
    }));
    const r = cli(['calc', f]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('attacker.weapon.attacks');
    expect(r.stderr).toContain('dice expression');
  });

  it('an unknown ability and invalid JSON are reported the same way', () => {
    const f = tmp('bad2.json', JSON.stringify({
      attacker: { models: 1, weapon: { range: 'Melee', attacks: '3', skill: 3, strength: 4, ap: -1, damage: '1', abilities: ['SUPER HITS 2'] } },
      defender: { models: 5, toughness: 4, save: 3, wounds: 1 },
    }));
    const r = cli(['calc', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('attacker.weapon.abilities.0');
    const g = tmp('bad3.json', '{ "attacker": ');
    const r2 = cli(['calc', g]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('not valid JSON');
  });

  it('SUSTAINED HITS D3 is read; RAPID FIRE D3 (not played with dice) is refused as an unknown ability, not played as 0', () => {
    const input = (abilities: string[]) => ({
      attacker: { models: 1, weapon: { range: 24, attacks: '3', skill: 3, strength: 4, ap: -1, damage: '1', abilities } },
      defender: { models: 5, toughness: 4, save: 3, wounds: 1 },
    });
    expect(parseCalcInput(input(['SUSTAINED HITS D3'])).attacker.weapon.abilities).toEqual([{ name: 'SUSTAINED HITS', x: 0, dice: { n: 1, sides: 3, plus: 0 } }]);
    expect(() => parseCalcInput(input(['RAPID FIRE D3']), 'rf.json')).toThrow(/rf\.json: attacker\.weapon\.abilities\.0: unknown weapon ability "RAPID FIRE D3"/);
  });

  it('--trials: a whole number up to ten million (a mistyped 1e12 ran for days)', () => {
    for (const bad of ['1e12', '10000001', '-5', '2.5']) {
      const r = cli(['calc', example, '--trials', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --trials: expected a whole number from 0 to 10,000,000, got "${bad}"`);
    }
  });
});

/** The example input, edited. */
const input = () => JSON.parse(readFileSync(example, 'utf8'));
/** The message the example input, edited, is refused with (an error if it is taken). */
const refusal = (edit: (j: any) => void) => {
  const j = input();
  edit(j);
  try { parseCalcInput(j, 'in.json'); } catch (e) { return (e as Error).message; }
  throw new Error('expected the input to be refused');
};

describe('calculator input errors say what was expected', () => {
  const message = refusal;
  it('a range neither inches nor "Melee"', () => {
    expect(message((j) => { j.attacker.weapon.range = 'melee'; })).toBe('in.json: attacker.weapon.range: expected a range in inches (more than 0) or "Melee"');
  });
  it('attacks or damage neither a dice expression nor a whole number', () => {
    expect(message((j) => { j.attacker.weapon.attacks = [1]; })).toBe('in.json: attacker.weapon.attacks: expected a dice expression such as 3, D3, D6+1 or 2D6 (a string or a whole number)');
    expect(message((j) => { j.attacker.weapon.damage = 'D7x'; })).toBe('in.json: attacker.weapon.damage: expected a dice expression such as 3, D3, D6+1 or 2D6, got "D7x"');
  });
  it('a misspelt field is named, with the field it was likely meant as (not its missing twin\'s "received undefined")', () => {
    expect(message((j) => { j.defender.toughnes = j.defender.toughness; delete j.defender.toughness; }))
      .toBe('in.json: defender: unknown field "toughnes" (expected one of models, toughness, save, invulnerable, wounds, feelNoPain, keywords, cover, stealth; did you mean "toughness"?)');
    // an optional field misspelt (nothing is missing), inside a field that has a default
    expect(message((j) => { j.attacker.modifiers = { rerolHits: 'ones' }; }))
      .toMatch(/^in\.json: attacker\.modifiers: unknown field "rerolHits" \(expected one of hit, wound, rerollHits, .*; did you mean "rerollHits"\?\)$/);
    // nothing near: the fields are listed, no guess
    expect(message((j) => { j.attacker.weapon.xyzzy = 1; })).toBe('in.json: attacker.weapon: unknown field "xyzzy" (expected one of name, range, attacks, skill, strength, ap, damage, abilities)');
  });
});

describe('calculator inputs taken wrongly before (audit 10)', () => {
  const refused = refusal;
  const abilities = (list: string[]) => { const j = input(); j.attacker.weapon.abilities = list; return parseCalcInput(j, 'in.json').attacker.weapon.abilities; };

  it('abilities written together as the data writes them are all read (the second was dropped)', () => {
    expect(abilities(['LETHAL HITS, DEVASTATING WOUNDS', 'RAPID FIRE 1'])).toEqual([{ name: 'LETHAL HITS' }, { name: 'DEVASTATING WOUNDS' }, { name: 'RAPID FIRE', x: 1 }]);
    expect(refused((j) => { j.attacker.weapon.abilities = ['LETHAL HITS, NOPE']; })).toMatch(/^in\.json: attacker\.weapon\.abilities\.0: unknown weapon ability "NOPE" \(known: /);
  });

  it('an ability listed twice is refused (BLAST twice added its attacks twice)', () => {
    expect(refused((j) => { j.attacker.weapon.abilities = ['BLAST', 'BLAST']; })).toBe('in.json: attacker.weapon.abilities: BLAST is listed twice (an ability counts once)');
    expect(refused((j) => { j.attacker.weapon.abilities = ['ANTI-INFANTRY 4+, ANTI-INFANTRY 2+']; })).toBe('in.json: attacker.weapon.abilities: ANTI-INFANTRY is listed twice (an ability counts once)');
    // two ANTI abilities against different keywords are two abilities
    expect(abilities(['ANTI-INFANTRY 4+', 'ANTI-VEHICLE 2+'])).toHaveLength(2);
  });

  it('an ability that takes a value without it, and an ANTI threshold outside 2+ to 6+, are refused (they did nothing, or made a 1 a Critical Wound)', () => {
    for (const a of ['SUSTAINED HITS', 'RAPID FIRE', 'MELTA']) {
      expect(refused((j) => { j.attacker.weapon.abilities = [a]; })).toBe(`in.json: attacker.weapon.abilities.0: ${a} needs its value, e.g. "${a} 1"; got "${a}"`);
    }
    for (const a of ['ANTI-INFANTRY 1+', 'ANTI-INFANTRY 7+']) {
      expect(refused((j) => { j.attacker.weapon.abilities = [a]; })).toBe(`in.json: attacker.weapon.abilities.0: expected an ANTI threshold from 2+ to 6+, got "${a}"`);
    }
  });

  it('a Damage of 0, a second "re-roll one Damage roll", and one with DEVASTATING WOUNDS are refused (the exact results were not)', () => {
    expect(refused((j) => { j.attacker.weapon.damage = 0; })).toBe('in.json: attacker.weapon.damage: expected a Damage of at least 1 (such as 1, D3, D6+1)');
    expect(refused((j) => { j.attacker.modifiers.rerollOneDamage = 2; })).toBe('in.json: attacker.modifiers.rerollOneDamage: Too big: expected number to be <=1');
    expect(refused((j) => { j.attacker.modifiers.rerollOneDamage = 1; j.attacker.weapon.damage = 'D6'; j.attacker.weapon.abilities = ['DEVASTATING WOUNDS']; }))
      .toBe('in.json: attacker.modifiers.rerollOneDamage: not with DEVASTATING WOUNDS: the exact calculator does not model re-rolling one Damage roll among its mortal wounds');
  });

  it('a TORRENT weapon may say "N/A" for its skill or leave it out, as its datasheet does (it needed an invented one); other weapons need theirs', () => {
    const torrent = (skill: unknown) => {
      const j = input();
      j.attacker.weapon.abilities = ['TORRENT'];
      if (skill === undefined) delete j.attacker.weapon.skill; else j.attacker.weapon.skill = skill;
      const parsed = parseCalcInput(j, 'in.json');
      const scene = buildScene(parsed);
      const exact = exactForInput(parsed, scene);
      return { skill: parsed.attacker.weapon.skill, exact: exact.mean, header: formatCalc(parsed, exact, simulate(parsed, 0, '1', scene)).split('\n')[0] };
    };
    const na = torrent('N/A');
    expect(na.skill).toBe(0);
    expect(na.header).toContain(' BS:N/A S:5 ');
    expect(torrent(undefined)).toEqual(na);
    // every attack hits: the same as any skill the weapon could have been given
    expect(na.exact).toEqual(torrent(4).exact);
    expect(na.exact.hits).toBe(na.exact.attacks);
    expect(refused((j) => { delete j.attacker.weapon.skill; }))
      .toBe('in.json: attacker.weapon.skill: expected a skill from 2 to 6 (3 means 3+); only a TORRENT weapon, which never rolls to hit, may leave it out or say "N/A"');
    expect(refused((j) => { j.attacker.weapon.skill = '3+'; })).toBe('in.json: attacker.weapon.skill: expected a skill from 2 to 6 (3 means 3+), or "N/A" for a TORRENT weapon');
  });

  it('a Melee weapon at half range is refused (it got RAPID FIRE and MELTA\'s bonuses)', () => {
    expect(refused((j) => { j.attacker.weapon.range = 'Melee'; j.attacker.weapon.abilities = ['MELTA 2']; j.attacker.modifiers = { halfRange: true }; }))
      .toBe('in.json: attacker.modifiers.halfRange: a Melee weapon has no half range (it counts for ranged attacks: RAPID FIRE, MELTA)');
  });

  it('--trials 0 --json: "simulated" is null (its means were null numbers)', () => {
    const r = cli(['calc', example, '--trials', '0', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.simulated).toBe(null);
    // the exact results do not depend on the trials
    expect(j.exact).toEqual(JSON.parse(cli(['calc', example, '--trials', '10', '--json']).stdout).exact);
  });
});
