/**
 * A unit takes one Enhancement: a list that names two on one unit keeps the first and says so, where the parser
 * had silently put the second in the first's place (the only sign a points mismatch naming the one kept).
 */
import { describe, expect, it } from 'vitest';
import { parseArmyList } from '../../src/data/army-build.ts';

const head = `Xenos - T'au Empire - Probe - [0 pts]

# ++ Army Roster ++
## Configuration
Battle Size: Strike Force (2000 Point limit)
Detachment: Kauyon

## Units
`;

describe('two Enhancements on one unit', () => {
  it('the first is kept and the second named in a warning', () => {
    const r = parseArmyList(`${head}Cadre Fireblade [85 pts]: Warlord, Fireblade pulse rifle, Close combat weapon, Enhancement: Exemplar of the Kauyon (+20 pts), Enhancement: Precision of the Patient Hunter (+15 pts)
`, { file: 'p.txt' });
    expect(r.army.units[0].enhancement).toBe('Exemplar of the Kauyon');
    expect(r.warnings.filter((w) => /takes one Enhancement/.test(w))).toEqual([
      expect.stringMatching(/Precision of the Patient Hunter is left out \(it keeps Exemplar of the Kauyon\)/),
    ]);
  });

  it('one Enhancement: no such warning', () => {
    const r = parseArmyList(`${head}Cadre Fireblade [70 pts]: Warlord, Fireblade pulse rifle, Close combat weapon, Enhancement: Exemplar of the Kauyon (+20 pts)
`, { file: 'p.txt' });
    expect(r.army.units[0].enhancement).toBe('Exemplar of the Kauyon');
    expect(r.warnings.filter((w) => /takes one Enhancement/.test(w))).toEqual([]);
  });
});
