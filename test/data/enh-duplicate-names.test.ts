// Two detachments of one faction with a same-named Enhancement at different costs (Deathwing Assault: 15 in
// Wrath of the Rock, 30 in Inner Circle Task Force): the list's detachment's is the one (the engine took the
// first by id whatever the detachment).
import { describe, expect, it } from 'vitest';
import { parseArmyList } from '../../src/data/army-build.ts';
import { bundledSource, exportSource } from '../../src/data/catalog.ts';
import { EXPORT_DIR } from './paths.ts';

const EXPORT = EXPORT_DIR;
const list = (detachment: string, points: number) => `Dup (${points} Points)

Space Marines
Dark Angels
${detachment}
Strike Force (2000 Points)

CHARACTERS

Captain in Terminator Armour (${points} Points)
  • Warlord
  • 1x Relic weapon
  • 1x Storm bolter
  • Enhancements: Deathwing Assault

Exported with App Version: v1.29.0 (2), Data Version: v579
`;

describe('same-named Enhancements of two detachments (Deathwing Assault: 15 pts in Wrath of the Rock, 30 in Inner Circle Task Force)', () => {
  const sources = [exportSource(EXPORT), bundledSource()];
  it('Wrath of the Rock: 95 + 15 = 110 pts, no detachment warning', () => {
    const r = parseArmyList(list('Wrath of the Rock', 110), { file: 'x.txt', sources });
    const u = r.army.units[0];
    expect(u.enhancement).toBe('Deathwing Assault');
    expect.soft(r.warnings.filter((w) => /enhancement of/.test(w))).toEqual([]);
    expect.soft(u.points).toBe(110);
  });
  it('Inner Circle Task Force: 95 + 30 = 125 pts (control: the first by id)', () => {
    const r = parseArmyList(list('Inner Circle Task Force', 125), { file: 'x.txt', sources });
    expect(r.army.units[0].points).toBe(125);
    expect.soft(r.warnings.filter((w) => /enhancement of/.test(w))).toEqual([]);
  });
});
