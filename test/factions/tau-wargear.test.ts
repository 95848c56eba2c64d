/**
 * Wargear abilities: the models that carry wargear (named by the army, or fixed in the default loadout)
 * and the T'au wargear abilities played for their bearers.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, type PlacedUnit } from '../helpers/battle.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { carriedWargearAbilities } from '../../src/rules/muster.ts';
import { invulnerableOf } from '../../src/rules/damage.ts';

const tau = loadFactionCatalog('tau');
const ds = (name: string) => tau.byName(name)!;

function sandbox(units: PlacedUnit[]) {
  return battleSandbox(units);
}

describe('wargear carried', () => {
  it('the army names it; fixed default wargear comes along; wargear the army does not name is a default only when it names none', () => {
    // Shadowsun's drones are fixed (no option replaces them): a list need not name them
    expect(carriedWargearAbilities(ds('Commander Shadowsun'), 'Commander Shadowsun', [])).toEqual(['Advanced Guardian Drone', 'Command-link Drone (Aura)']);
    // a Coldstar's Shield Generator is an option: carried only when named; a Shield drone has no ability in the data
    expect(carriedWargearAbilities(ds('Commander In Coldstar Battlesuit'), 'Commander in Coldstar Battlesuit', ['shield generator', 'Shield drone'])).toEqual(['Shield Generator']);
    expect(carriedWargearAbilities(ds('Commander In Coldstar Battlesuit'), 'Commander in Coldstar Battlesuit', [])).toEqual([]);
    // Heavy Gun Drones' Markerlight can be replaced: the default when the army names no wargear, not when it names other wargear
    expect(carriedWargearAbilities(ds('Heavy Gun Drones'), 'Heavy Gun Drones')).toEqual(['Markerlight']);
    expect(carriedWargearAbilities(ds('Heavy Gun Drones'), 'Heavy Gun Drones', [])).toEqual([]);
  });

  it('the models carry it, and the unit plays its abilities', () => {
    const g = sandbox([
      { id: 'C', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 10 }, wargear: [['Shield Generator']] },
      { id: 'S', player: 0, faction: 'tau', name: 'Commander Shadowsun', at: { x: 10, y: 20 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
    ]);
    expect(g.state.units.C.models[0].wargear).toEqual(['Shield Generator']);
    expect(g.state.units.C.abilities).toContain('Shield Generator');
    expect(g.state.units.S.models[0].wargear).toEqual(['Advanced Guardian Drone', 'Command-link Drone (Aura)']);
    expect(g.state.units.E.models[0].wargear).toBeUndefined();
  });
});

describe('Shield Generator', () => {
  it('its bearer has a 4+ invulnerable save; without it none', () => {
    const g = sandbox([
      { id: 'C', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 10 }, wargear: [['Shield Generator']] },
      { id: 'N', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 20 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
    ]);
    expect(invulnerableOf(g.state, g.state.units.C, g.state.units.C.models[0])).toBe(4);
    expect(invulnerableOf(g.state, g.state.units.N, g.state.units.N.models[0])).toBeNull();
  });
});
