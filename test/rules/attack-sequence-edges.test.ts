/**
 * Attack-sequence rules at the values no test used (audit 19's mutants A06, A10, A11, B07: each played wrong,
 * no test failed): SUSTAINED HITS X above 1, TORRENT hits that are never Critical Hits, BLAST's whole groups of
 * five models, and a Hazardous test of 2, which passes.
 */
import { describe, expect, it } from 'vitest';
import { duel, rolls } from '../helpers/attack.ts';
import { scriptedStream } from '../helpers/scripted.ts';

const noSave = { name: 'Targets', models: 10, profile: { toughness: 4, save: 7, wounds: 1 } };

describe('SUSTAINED HITS X', () => {
  it('SUSTAINED HITS 2: a Critical Hit scores two extra hits (three Wound rolls from one attack)', () => {
    const s = scriptedStream([6, /* wounds */ 4, 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '1', skill: 4, abilities: ['SUSTAINED HITS 2'] } }, noSave, s);
    const t = d.run();
    expect(t.hits).toBe(3);
    expect(rolls(d.game, 'wound')).toEqual([[4, 4, 4]]);
    expect(s.remaining()).toBe(0);
  });
});

describe('TORRENT', () => {
  it('hits automatically, with no Hit roll and so no Critical Hit: SUSTAINED HITS and LETHAL HITS add nothing', () => {
    const s = scriptedStream([/* wounds */ 4, 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '3', abilities: ['TORRENT', 'SUSTAINED HITS 1', 'LETHAL HITS'] } }, noSave, s);
    const t = d.run();
    expect(t.hits).toBe(3);
    expect(rolls(d.game, 'hit')).toEqual([]);
    // each hit rolls to wound (none wounds automatically)
    expect(rolls(d.game, 'wound')).toEqual([[4, 4, 4]]);
    expect(s.remaining()).toBe(0);
  });
});

describe('BLAST', () => {
  it('adds one attack for each whole five models: none against 4, one against 9, two against 10', () => {
    for (const [models, attacks] of [[4, 1], [9, 2], [10, 3]] as const) {
      const s = scriptedStream(Array.from({ length: attacks }, () => 1));
      const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['BLAST'] } }, { ...noSave, models }, s);
      expect(d.run().attacks, `${models} target models`).toBe(attacks);
      expect(s.remaining()).toBe(0);
    }
  });
});

describe('Hazardous', () => {
  it('a test of 2 passes: only a 1 fails (the bearers keep their wounds)', () => {
    const s = scriptedStream([2, 2, /* hazardous */ 2, 2]);
    const d = duel({ models: 2, profile: { wounds: 3 }, weapon: { attacks: '1', abilities: ['HAZARDOUS'] } }, noSave, s);
    d.run();
    const A = d.game.state.units.A;
    expect(A.models.map((m) => [m.alive, m.wounds])).toEqual([[true, 3], [true, 3]]);
    expect((d.game.log ?? []).filter((e) => e.type === 'model-damaged' && e.unit === 'A')).toEqual([]);
    expect(rolls(d.game, 'hazardous')).toEqual([[2, 2]]);
    expect(s.remaining()).toBe(0);
  });
});
