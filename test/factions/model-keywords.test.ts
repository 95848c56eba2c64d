/**
 * Keywords the data gives to one model of a unit only (Datasheet.modelKeywords, read by nothing before):
 * (a) a Corsair Voidscarred unit's Way Seeker is an ASURYANI PSYKER model, so a unit within 9" of it may be
 *     UNSHROUDED TRUTH's target; (b) Aun'Va is a CHARACTER (and EPIC HERO, ETHEREAL) model, so his unit is a
 *     CHARACTER unit for EPIC CHALLENGE; (c) at muster his unit may be the Warlord and is an EPIC HERO.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits as offered } from '../helpers/stratagems.ts';
import type { Window } from '../../src/rules/windows.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';
import { modelWithinRangeOf } from '../../src/factions/helpers.ts';
import { join } from 'node:path';
import { loadArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { SCENARIOS_DIR } from '../../src/data/scenario.ts';

describe('per-model keywords', () => {
  it('(a) UNSHROUDED TRUTH: Guardian Defenders 3" from a Voidscarred Way Seeker (an ASURYANI PSYKER model) may be targeted', () => {
    // Voidscarred: Felarch, 4 Voidscarred, no Shade Runner, no Soul Weaver, a Way Seeker (the 6th model, y = 5 + 5 = 10)
    const VS: PlacedUnit = { id: 'VS', player: 0, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 8, y: 5 }, spacing: 1, counts: [1, 4, 0, 0, 1] };
    const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 11, y: 10 }, spacing: 0.9 };
    const g = battleSandbox([VS, GD, { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 45, y: 30 } }], {
      factions: ['AE', 'TAU'], phase: 'movement', turn: 0, cp: [4, 3], detachments: ['Seer Council', null],
      agents: [scriptedAgent('ae'), scriptedAgent('tau')],
    });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [] });
    const s = g.state;
    const wayseeker = s.units.VS.models.find((m) => m.name === 'Way Seeker')!;
    expect(s.datasheets[wayseeker.datasheet].modelKeywords?.['Way Seeker']).toContain('PSYKER');
    expect(modelWithinRangeOf(s, wayseeker, s.units.GD, 9)).toBe(true);
    const start: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'movement' } };
    expect(offered(g, start, 0, 'UNSHROUDED TRUTH'), 'units offered UNSHROUDED TRUTH').toContain('GD');
  });

  it('(b) EPIC CHALLENGE: Aun\'Va\'s unit (a CHARACTER model) engaged with an Attached unit may use it', () => {
    const g = battleSandbox([
      { id: 'AV', player: 0, faction: 'tau', name: "Aun'va", at: { x: 20, y: 20 }, spacing: 1.3 },
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 21.6, y: 19 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22.6, y: 20 }, spacing: 1 },
    ], { phase: 'fight', turn: 0, cp: [4, 3] });
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    expect(unitsInEngagement(g.state, g.state.units.AV, g.state.units.GD)).toBe(true);
    const w: Window = { name: 'fight/unit-selected', unit: 'AV', targets: [] };
    expect(offered(g, w, 0, 'EPIC CHALLENGE'), 'units offered EPIC CHALLENGE').toEqual(['AV']);
  });

  it("(c) at muster Aun'Va's unit is a CHARACTER (a Warlord) and an EPIC HERO (once)", () => {
    const tau = loadFactionCatalog('TAU');
    const army = loadArmyFile(join(SCENARIOS_DIR, 'armies', 'tau-kauyon.json'));
    const ds = tau.byName("Aun'va")!;
    const aunva = (id: string): ArmyUnit => ({ id, datasheetId: ds.id, name: ds.name, points: 65, models: [
      { profile: "Aun'Va", count: 1, weapons: ['Close combat weapon'] }, { profile: 'Ethereal Guards', count: 2, weapons: ['Supreme honour blade'] },
    ] });
    const warn = (units: ArmyUnit[]) => musterWarnings({ ...army, units }, (id) => tau.byId(id));
    const others = army.units.map((u) => ({ ...u, warlord: undefined }));
    expect(warn([...others, { ...aunva('a1'), warlord: true }])).toEqual([]);
    expect(warn([...others, { ...aunva('a1'), warlord: true }, aunva('a2')])).toEqual(["2 Aun'va units: an EPIC HERO can be included once"]);
  });
});
