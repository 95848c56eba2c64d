// A Boarding Actions list (BATTLE_SIZES has 'Boarding Actions': 500): the parsers' battle-size pattern knew
// only Incursion / Strike Force / Onslaught (the app export's detachment line was read as the battle size).
import { describe, expect, it } from 'vitest';
import { parseArmyList } from '../../src/data/army-build.ts';

const gw = `Boarders (95 Points)

T'au Empire
Starfire Cadre
Boarding Actions (500 Points)

CHARACTERS

Cadre Fireblade (50 Points)
  • Warlord
  • 1x Fireblade pulse rifle
  • 1x Close combat weapon

Exported with App Version: v1.29.0 (2), Data Version: v579
`;

const nr = `Xenos - T'au Empire - Boarders - [50 pts]

# ++ Army Roster ++ [50 pts]
## Configuration
Battle Size: Boarding Actions (500 Point limit)
Detachment: Starfire Cadre

## Character [50 pts]
Cadre Fireblade [50 pts]: Warlord, Fireblade pulse rifle, Close combat weapon
`;

describe('Boarding Actions battle size', () => {
  it('GW app: the detachment is Starfire Cadre and the battle size Boarding Actions', () => {
    const r = parseArmyList(gw, { file: 'gw.txt' });
    expect.soft(r.army.detachment).toBe('Starfire Cadre');
    expect.soft(r.army.subfaction).toBeUndefined();
    expect.soft(r.army.battleSize).toEqual({ name: 'Boarding Actions', pointsLimit: 500 });
  });
  it('New Recruit: the battle size is Boarding Actions', () => {
    const r = parseArmyList(nr, { file: 'nr.txt' });
    expect.soft(r.army.battleSize).toEqual({ name: 'Boarding Actions', pointsLimit: 500 });
  });
});
