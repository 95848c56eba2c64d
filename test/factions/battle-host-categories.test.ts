/**
 * Battle Host is not in the Wahapedia export (stratagem-data.test.ts compares the others): its stratagems'
 * CP cost and category are compared with the seed page's headers ("NAME", "1CP", "Battle Host – Strategic Ploy").
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import '../../src/rules/index.ts';
import '../../src/factions/index.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';

const SEED = new URL('../../../shared/seeds/aeldari-starweaver-and-rules.txt', import.meta.url);

/** name -> "<cp> CP, <category>" for every Battle Host stratagem header of the seed (list and full entries alike). */
function seedBattleHost(): Map<string, string> {
  const lines = readFileSync(SEED, 'utf8').split(/\r?\n/).map((l) => l.trim());
  const out = new Map<string, string>();
  for (let i = 2; i < lines.length; i++) {
    const header = /^Battle Host – (.+?)(?: Stratagem)?$/.exec(lines[i]);
    const cp = /^(\d)CP$/.exec(lines[i - 1]);
    if (!header || !cp) continue;
    const entry = `${cp[1]} CP, ${header[1]}`;
    // the list at the top and each stratagem's own entry must agree
    expect(out.get(lines[i - 2]) ?? entry).toBe(entry);
    out.set(lines[i - 2], entry);
  }
  return out;
}

describe('Battle Host stratagems match the seed', () => {
  it('every one of them, with its cost and category (FEIGNED RETREAT and BLADESTORM are Strategic Ploys)', () => {
    const seed = seedBattleHost();
    expect([...seed.keys()].sort()).toEqual(['BLADESTORM', 'FEIGNED RETREAT', 'FIRE AND FADE', 'LIGHTNING-FAST REACTIONS', 'MATCHLESS AGILITY']);
    const engine = allStratagems().filter((s) => s.source === 'Battle Host');
    expect(engine.map((s) => s.name).sort()).toEqual([...seed.keys()].sort());
    for (const s of engine) expect(`${s.name}: ${s.cp} CP, ${s.category}`).toBe(`${s.name}: ${seed.get(s.name)}`);
  });
});
