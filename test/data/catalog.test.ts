import { describe, expect, it } from 'vitest';
import { loadFactionCatalog, bundledFactions } from '../../src/data/catalog.ts';
import { DataError } from '../../src/data/errors.ts';

describe('bundled faction catalogs', () => {
  it('lists the bundled factions', () => {
    expect(bundledFactions()).toEqual([
      { id: 'AE', name: 'Aeldari', folder: 'aeldari' },
      { id: 'TAU', name: "T'au Empire", folder: 'tau' },
    ]);
  });

  it('loads by folder, export id or name', () => {
    const tau = loadFactionCatalog('tau');
    expect(loadFactionCatalog('TAU')).toBe(tau);
    expect(loadFactionCatalog('T’au Empire')).toBe(tau);
    expect(loadFactionCatalog('aeldari').faction.id).toBe('AE');
  });

  it('looks datasheets up by id and by name, ignoring case and apostrophes', () => {
    const tau = loadFactionCatalog('tau');
    const aunshi = tau.byId('000000408')!;
    expect(aunshi.name).toBe("Aun'shi");
    expect(tau.byName('Aun’Shi')).toBe(aunshi);
    expect(tau.byName('AUNSHI')).toBe(aunshi);
    expect(tau.byName('commander in crisis battlesuit')?.id).toBe('000001477');
    expect(loadFactionCatalog('aeldari').byName('starweaver')?.id).toBe('000002541');
    expect(tau.byName('Nope')).toBeUndefined();
    expect(tau.names()).toContain('Strike Team');
    expect(tau.enhancement('plasma accelerator rifle')?.cost).toBe(10);
    expect(tau.detachment('Mont’ka')?.name).toBe("Mont'ka");
  });

  it('a faction that is not bundled is a clear error', () => {
    expect(() => loadFactionCatalog('Space Marines')).toThrow(DataError);
    expect(() => loadFactionCatalog('Space Marines')).toThrow(/not bundled \(bundled: Aeldari \[aeldari\], T'au Empire \[tau\]\)/);
  });
});
