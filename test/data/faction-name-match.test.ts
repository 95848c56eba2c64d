// A list's faction line is matched to the faction it names: "Chaos Space Marines" holds "Space Marines", and the
// first faction whose name the line contained was taken (Space Marines, listed first), so every unit of a Chaos
// Space Marines list was unknown.
import { describe, expect, it } from 'vitest';
import { parseArmyList } from '../../src/data/army-build.ts';
import { bundledSource, exportSource, findFaction } from '../../src/data/catalog.ts';
import { EXPORT_DIR, HAVE_EXPORT } from './paths.ts';

const list = (faction: string) => `Chaos (90 Points)

${faction}
Veterans of the Long War
Strike Force (2000 Points)

CHARACTERS

Chaos Lord (90 Points)
  • Warlord
  • 1x Plasma pistol
  • 1x Daemon hammer

Exported with App Version: v1.29.0 (2), Data Version: v579
`;

describe('faction names inside other faction names', () => {
  const factions = [{ id: 'SM', name: 'Space Marines' }, { id: 'CSM', name: 'Chaos Space Marines' }, { id: 'TAU', name: "T'au Empire" }];
  it('the exact name, else the longest name the text holds', () => {
    expect(findFaction('Chaos Space Marines', factions)?.id).toBe('CSM');
    expect(findFaction('Chaos - Chaos Space Marines', factions)?.id).toBe('CSM');
    expect(findFaction('Space Marines', factions)?.id).toBe('SM');
    expect(findFaction('Imperium - Space Marines', factions)?.id).toBe('SM');
    expect(findFaction("Xenos - T'au Empire", factions)?.id).toBe('TAU');
    expect(findFaction('csm', factions)?.id).toBe('CSM');
    expect(findFaction('Necrons', factions)).toBeUndefined();
  });

  it.skipIf(!HAVE_EXPORT)('a Chaos Space Marines list read with the export is a Chaos Space Marines army', () => {
    const { army, warnings } = parseArmyList(list('Chaos Space Marines'), { file: 'csm.txt', sources: [exportSource(EXPORT_DIR), bundledSource()] });
    expect(army.faction).toBe('CSM');
    expect(army.detachment).toBe('Veterans of the Long War');
    expect(army.units.map((u) => [u.name, u.points])).toEqual([['Chaos Lord', 90]]);
    expect(warnings).toEqual([]);
  });
});
