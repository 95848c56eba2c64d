import { describe, expect, it } from 'vitest';
import { parseCoreAbility, parseDamaged, parseInvulnerable, parseTransport, parseWeaponAbilities } from '../../src/data/abilities-parse.ts';
import { parseBaseSize } from '../../src/data/bases.ts';
import { hullByKeywords, knownHull } from '../../src/data/hulls.ts';
import { parseCompositionLine, parseCostLine } from '../../src/data/composition-parse.ts';
import { normaliseKeyword, lookupKey } from '../../src/data/text.ts';
import { closestNames, editDistance } from '../../src/data/fuzzy.ts';
import { stableStringify } from '../../src/data/stable-json.ts';

describe('weapon abilities', () => {
  it('parses the core abilities with their values, in any case', () => {
    const r = parseWeaponAbilities('anti-infantry 4+, DEVASTATING WOUNDS, rapid fire 1, sustained hits D3, melta 2, lethal hits, twin-linked, Anti-Epic Hero 2+');
    expect(r.abilities).toEqual([
      { name: 'ANTI', keyword: 'INFANTRY', threshold: 4 },
      { name: 'DEVASTATING WOUNDS' },
      { name: 'RAPID FIRE', x: 1 },
      { name: 'SUSTAINED HITS', x: 0, dice: { n: 1, sides: 3, plus: 0 } },
      { name: 'MELTA', x: 2 },
      { name: 'LETHAL HITS' },
      { name: 'TWIN-LINKED' },
      { name: 'ANTI', keyword: 'EPIC HERO', threshold: 2 },
    ]);
    expect(r.unknown).toEqual([]);
  });

  it('RAPID FIRE D3 and MELTA D6 (dice the engine does not roll for them) are reported, not read as X = 0', () => {
    const r = parseWeaponAbilities('rapid fire D3, melta D6, sustained hits D3');
    expect(r.abilities).toEqual([{ name: 'RAPID FIRE D3' }, { name: 'MELTA D6' }, { name: 'SUSTAINED HITS', x: 0, dice: { n: 1, sides: 3, plus: 0 } }]);
    expect(r.unknown).toEqual(['RAPID FIRE D3', 'MELTA D6']);
  });

  it('keeps an unknown word as a named entry and reports it', () => {
    const r = parseWeaponAbilities('hooked, blast');
    expect(r.abilities).toEqual([{ name: 'HOOKED' }, { name: 'BLAST' }]);
    expect(r.unknown).toEqual(['HOOKED']);
  });
});

describe('core abilities', () => {
  it('reads the parameter: x+, inches, numbers and dice', () => {
    expect(parseCoreAbility('Feel No Pain', '5+').ability).toEqual({ name: 'Feel No Pain', x: 5 });
    expect(parseCoreAbility('Scouts', '7"').ability).toEqual({ name: 'Scouts', x: 7 });
    expect(parseCoreAbility('Firing Deck', '6').ability).toEqual({ name: 'Firing Deck', x: 6 });
    expect(parseCoreAbility('Deadly Demise', 'D3').ability).toEqual({ name: 'Deadly Demise', dice: { n: 1, sides: 3, plus: 0 } });
    expect(parseCoreAbility('Deadly Demise', ' 2D6').ability).toEqual({ name: 'Deadly Demise', dice: { n: 2, sides: 6, plus: 0 } });
    expect(parseCoreAbility('Deadly Demise', 'D6+3 (Szarekh model only)').ability).toEqual({ name: 'Deadly Demise', dice: { n: 1, sides: 6, plus: 3 } });
    expect(parseCoreAbility('Stealth', '').ability).toEqual({ name: 'Stealth' });
    expect(parseCoreAbility('Scouts', 'fast').problem).toMatch(/cannot read/);
  });
});

describe('transport, damaged profile, invulnerable notes', () => {
  const vocab = new Set(["T'AU EMPIRE", 'INFANTRY', 'HARLEQUINS', 'VESPID STINGWINGS']);
  const split = (w: string) => {
    const parts = normaliseKeyword(w).split(' ');
    const out: string[] = [];
    for (let i = 0; i < parts.length;) {
      let j = parts.length;
      while (j > i + 1 && !vocab.has(parts.slice(i, j).join(' '))) j--;
      out.push(parts.slice(i, j).join(' '));
      i = j;
    }
    return out;
  };

  it('reads capacity, keywords and exclusions', () => {
    expect(parseTransport('This model has a transport capacity of 12 T’au Empire Infantry models. It cannot transport Battlesuit, Kroot or Vespid Stingwings models.', split)).toEqual({
      transport: { capacity: 12, keywords: ["T'AU EMPIRE", 'INFANTRY'], excludedKeywords: ['BATTLESUIT', 'KROOT', 'VESPID STINGWINGS'] },
    });
    expect(parseTransport('', split)).toBeNull();
    expect(parseTransport('Carries things.', split)?.problem).toBeTruthy();
  });

  it('reads the damaged range and its modifiers', () => {
    expect(parseDamaged('1-4', 'While this model has 1-4 wounds remaining, each time this model makes an attack, subtract 1 from the Hit roll.'))
      .toEqual({ damaged: { from: 1, to: 4, hitModifier: -1 } });
    expect(parseDamaged('1-9', 'While this model has 1‑9 wounds remaining, subtract 5 from this model’s Objective Control characteristic and each time this model makes an attack, subtract 1 from the Hit roll.'))
      .toEqual({ damaged: { from: 1, to: 9, hitModifier: -1, ocModifier: -5 } });
    expect(parseDamaged('', '')).toBeNull();
  });

  it('reads invulnerable saves and their notes', () => {
    expect(parseInvulnerable('4*', 'Against ranged attacks only')).toEqual({ invulnerable: 4, rangedOnly: true });
    expect(parseInvulnerable('5', 'This invulnerable save is improved to 4+ against melee attacks.')).toEqual({ invulnerable: 5, melee: 4 });
    expect(parseInvulnerable('-', '')).toEqual({ invulnerable: null });
  });
});

describe('bases and hulls', () => {
  it('reads round, oval and flying bases', () => {
    expect(parseBaseSize('32mm')).toEqual({ shape: 'round', diameterMm: 32 });
    expect(parseBaseSize('28.5mm')).toEqual({ shape: 'round', diameterMm: 28.5 });
    expect(parseBaseSize('60 x 35.5mm')).toEqual({ shape: 'oval', lengthMm: 60, widthMm: 35.5 });
    expect(parseBaseSize('120 x 92mm flying base')).toEqual({ shape: 'oval', lengthMm: 120, widthMm: 92, flying: true });
    expect(parseBaseSize('60mm flying base')).toEqual({ shape: 'round', diameterMm: 60, flying: true });
    expect(parseBaseSize('Use model')).toBeNull();
  });

  it('knows T’au and Aeldari hulls and falls back by keyword', () => {
    expect(knownHull('Devilfish')).toEqual({ lengthMm: 185, widthMm: 115 });
    expect(knownHull('Nope', 'Wave Serpent')).toEqual({ lengthMm: 205, widthMm: 115 });
    expect(knownHull('Starweaver')).not.toBeNull();
    expect(hullByKeywords(['VEHICLE', 'TITANIC'])).toEqual({ lengthMm: 300, widthMm: 220 });
    expect(hullByKeywords(['VEHICLE', 'TRANSPORT'])).toEqual({ lengthMm: 205, widthMm: 115 });
  });
});

describe('composition and points lines', () => {
  it('reads counts, ranges and the keyword suffix', () => {
    expect(parseCompositionLine('1 Aun’Shi – <span class="kwb">EPIC</span> <span class="kwb">HERO</span>')).toEqual({ kind: 'models', name: "Aun'Shi", min: 1, max: 1 });
    expect(parseCompositionLine('2-5 Crisis Shas’ui')).toEqual({ kind: 'models', name: "Crisis Shas'ui", min: 2, max: 5 });
    expect(parseCompositionLine('This unit can contain a maximum of 10 models.')).toEqual({ kind: 'max-models', max: 10 });
    expect(parseCostLine('10 models', '70')).toEqual({ kind: 'size', models: 10, points: 70 });
    expect(parseCostLine('5 Shadow Spectres', '115')).toEqual({ kind: 'size', models: 5, points: 115 });
    expect(parseCostLine('Shadow Spectre Exarch', '+30')).toEqual({ kind: 'extra', profile: 'Shadow Spectre Exarch', points: 30 });
  });
});

describe('names', () => {
  it('keywords are upper-case with straight apostrophes; lookups ignore case and apostrophes', () => {
    expect(normaliseKeyword('T’au Empire')).toBe("T'AU EMPIRE");
    expect(lookupKey('Aun’Shi')).toBe(lookupKey("aun'shi"));
    expect(lookupKey('Commander In Crisis Battlesuit')).toBe(lookupKey('Commander in Crisis Battlesuit'));
  });

  it('suggests close names', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestNames('Strke Team', ['Strike Team', 'Breacher Team', 'Stealth Battlesuits'])[0]).toBe('Strike Team');
  });

  it('writes stable JSON: sorted keys, same bytes for the same value', () => {
    expect(stableStringify({ b: 1, a: [1, 2] })).toBe('{ "a": [1, 2], "b": 1 }\n');
    expect(stableStringify({ b: 1, a: 2 })).toBe(stableStringify({ a: 2, b: 1 }));
  });
});
