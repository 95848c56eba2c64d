import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';
import { calcInputFromData } from '../../src/calc/from-data.ts';
import { parseCalcInput } from '../../src/calc/input.ts';
import { bundledSource, exportSource } from '../../src/data/catalog.ts';

const built = (o: Parameters<typeof calcInputFromData>[0]) => calcInputFromData(o);
const refusal = (o: Parameters<typeof calcInputFromData>[0]) => {
  try { calcInputFromData(o); } catch (e) { return (e as Error).message; }
  throw new Error('expected the names to be refused');
};

describe('calc --attacker --weapon --defender: the input from the bundled data', () => {
  it("takes the weapon's profile and the target's characteristics from the datasheets, as the datasheets print them", () => {
    const { input, notes } = built({ attacker: 'Strike Team', weapon: 'pulse rifle', defender: 'wraithguard', halfRange: true });
    expect(notes).toEqual([]);
    // a Strike Team's ten models carry pulse rifles; Wraithguard come five to a unit, T6 Sv2+ W3
    expect(input.attacker).toEqual({
      models: 10,
      weapon: { name: 'Pulse rifle', range: 30, attacks: '1', skill: 4, strength: 5, ap: 0, damage: '1', abilities: ['RAPID FIRE 1'] },
      modifiers: { halfRange: true, charged: false, remainedStationary: false },
    });
    expect(input.defender).toMatchObject({ models: 5, toughness: 6, save: 2, wounds: 3, invulnerable: null, feelNoPain: null, cover: false, stealth: false });
    expect(parseCalcInput(input, 'the data').defender.keywords).toContain('INFANTRY');
  });

  it("a unit's invulnerable save against melee attacks is taken for a melee weapon (Howling Banshees: 4+ in melee, 5+ otherwise)", () => {
    const melee = built({ attacker: 'Howling Banshees', weapon: 'Banshee blade', defender: 'Howling Banshees' });
    const ranged = built({ attacker: 'Breacher Team', weapon: 'Pulse blaster', defender: 'Howling Banshees' });
    expect((melee.input.defender as { invulnerable: number }).invulnerable).toBe(4);
    expect((ranged.input.defender as { invulnerable: number }).invulnerable).toBe(5);
    expect((melee.input.attacker as { weapon: { abilities: string[] } }).weapon.abilities).toEqual(['ANTI-INFANTRY 3+']);
  });

  it('a TORRENT weapon says "N/A" for its skill; a weapon no model carries by default is fired by one model, said in a note', () => {
    const { input, notes } = built({ attacker: 'Crisis Battlesuits', weapon: "T'au flamer", defender: 'Guardian Defenders' });
    const a = input.attacker as { models: number; weapon: { skill: unknown; abilities: string[] } };
    expect(a.weapon.skill).toBe('N/A');
    expect(a.weapon.abilities).toContain('TORRENT');
    expect(a.models).toBe(1);
    expect(notes).toContain("no model of Crisis Battlesuits carries T'au flamer by default: 1 model fires it (--models N)");
    // the Guardian Defenders' Heavy Weapon Platform has 2 wounds: the unit is played as its ten Guardians
    expect(notes.some((n) => n.startsWith('the models of Guardian Defenders differ (Guardian Defender: T3 Sv4+ W1; Heavy Weapon Platform: T3 Sv4+ W2)'))).toBe(true);
    expect(built({ attacker: 'Crisis Battlesuits', weapon: "T'au flamer", defender: 'Guardian Defenders', models: 3, targets: 10 }).input).toMatchObject({ attacker: { models: 3 }, defender: { models: 10 } });
  });

  it('names not in the data are refused with the closest names, and a weapon of several profiles needs one named', () => {
    expect(refusal({ attacker: 'Strike Team', weapon: 'Pulse rifle', defender: 'Howling Banshes' })).toBe('--defender: no datasheet is named "Howling Banshes" in the bundled data (closest: Howling Banshees, Swooping Hawks, Piranhas)');
    expect(refusal({ attacker: 'Strike Team', weapon: 'plasma', defender: 'Wraithguard' })).toBe('--weapon: Strike Team has no weapon "plasma" (its weapons: Pulse carbine, Pulse pistol, Pulse rifle, Support turret, Close combat weapon)');
    expect(refusal({ attacker: 'Crisis Battlesuits', weapon: 'Cyclic ion blaster', defender: 'Wraithguard' })).toBe('--weapon: Cyclic ion blaster has 2 profiles: name one (Cyclic ion blaster – standard, Cyclic ion blaster – overcharge)');
    // the profile typed with a plain hyphen
    expect(built({ attacker: 'Crisis Battlesuits', weapon: 'Cyclic ion blaster - overcharge', defender: 'Wraithguard' }).input).toMatchObject({ attacker: { weapon: { name: 'Cyclic ion blaster – overcharge' } } });
  });

  it('a ranged and a melee profile of one name (Shining Spears\' Laser lance) are told apart by "(ranged)" or "(melee)"; the bare name is refused listing both', () => {
    expect(refusal({ attacker: 'Shining Spears', weapon: 'Laser lance', defender: 'Crisis Battlesuits' })).toBe('--weapon: Shining Spears has 2 profiles named "Laser lance": name one as "Laser lance (ranged)" (6") or "Laser lance (melee)"');
    expect(built({ attacker: 'Shining Spears', weapon: 'Laser lance (melee)', defender: 'Crisis Battlesuits', charged: true }).input).toMatchObject({ attacker: { weapon: { name: 'Laser lance', range: 'Melee' } } });
    expect(built({ attacker: 'Shining Spears', weapon: 'laser lance (Ranged)', defender: 'Crisis Battlesuits' }).input).toMatchObject({ attacker: { weapon: { name: 'Laser lance', range: 6 } } });
  });

  it('--data: a faction that is not bundled, from a Wahapedia export (looked up there first, then in the bundled data)', () => {
    const sources = [exportSource(join(root, '..', 'shared', 'data', 'wahapedia-10e')), bundledSource()];
    const { input } = calcInputFromData({ attacker: 'Intercessor Squad', weapon: 'Bolt rifle', defender: 'Wraithguard' }, sources);
    // five Intercessors with bolt rifles (24" A2 BS3+ S4 AP-1 D1, ASSAULT and HEAVY)
    expect(input.attacker).toMatchObject({ models: 5, weapon: { range: 24, attacks: '2', skill: 3, strength: 4, ap: -1, damage: '1', abilities: ['ASSAULT', 'HEAVY'] } });
    expect(input.defender).toMatchObject({ toughness: 6, save: 2, wounds: 3 });
    expect(() => calcInputFromData({ attacker: 'Intercessor Squad', weapon: 'Bolt rifle', defender: 'Wraithguard' })).toThrow(/^--attacker: no datasheet is named "Intercessor Squad" in the bundled data \(closest: /);
  });

  it('the command: the same exact answer as the hand-written file of the same profiles; --save-input writes a file calc reads back', () => {
    // the example file is ten pulse rifles at half range against ten Guardians in cover
    const example = join(root, 'scenarios', 'calc', 'pulse-rifles-vs-guardians.json');
    const dir = mkdtempSync(join(tmpdir(), 'calc-data-'));
    const saved = join(dir, 'built.json');
    const r = cli(['calc', '--attacker', 'Strike Team', '--weapon', 'Pulse rifle', '--defender', 'Guardian Defenders', '--targets', '10', '--half-range', '--cover', '--json', '--trials', '0', '--save-input', saved]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: the models of Guardian Defenders differ/);
    const fromFile = JSON.parse(cli(['calc', example, '--json', '--trials', '0']).stdout);
    expect(JSON.parse(r.stdout).exact).toEqual(fromFile.exact);
    expect(JSON.parse(cli(['calc', saved, '--json', '--trials', '0']).stdout)).toEqual(JSON.parse(r.stdout));
    expect(JSON.parse(readFileSync(saved, 'utf8')).attacker.weapon.name).toBe('Pulse rifle');
    // a file and the names together, names missing, a count out of range: one line each, exit code 2
    const both = cli(['calc', example, '--attacker', 'Strike Team']);
    expect([both.code, both.stderr.trim()]).toEqual([2, `error: calc: name a file or the units (--attacker, --weapon, --defender), not both (got ${example} and --attacker)`]);
    const missing = cli(['calc', '--attacker', 'Strike Team']);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, 'error: calc: expected a calculator input file, or --attacker, --weapon and --defender (missing --weapon, --defender)']);
    const zero = cli(['calc', '--attacker', 'Strike Team', '--weapon', 'Pulse rifle', '--defender', 'Wraithguard', '--models', '0']);
    expect([zero.code, zero.stderr.trim()]).toEqual([2, 'error: --models: expected a whole number of models from 1 to 100, got "0"']);
  });
});
