/**
 * A model whose unit composition entry gives it a base of its own: the Kroot Farstalkers' Kill-broker stands on
 * 32 mm while the characteristics profile it shares with the Farstalkers says 28.5 mm. Bodies took every base
 * from the characteristics profile, so the Kill-broker was 1.75 mm too small in every distance.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { createStream } from '../../src/core/rng.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { createUnitState } from '../../src/rules/muster.ts';
import { modelBase, modelBody, unitsInEngagement } from '../../src/rules/battle/world.ts';

const MM = 1 / 25.4;

describe("a unit composition entry's own base", () => {
  it('the Kill-broker stands on 32 mm, the Farstalkers on 28.5 mm, and Engagement Range is measured from the 32 mm base', () => {
    const g = battleSandbox([
      { id: 'K', player: 0, faction: 'tau', name: 'Kroot Farstalkers', at: { x: 10, y: 10 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 40 }, counts: [1, 0] },
    ], { phase: 'movement', turn: 0, stream: createStream('kill-broker'), objectives: [] });
    const s = g.state;
    const broker = s.units.K.models.find((m) => m.name === 'Kroot Kill-broker')!;
    const stalker = s.units.K.models.find((m) => m.name === 'Kroot Farstalkers')!;
    expect(broker.profile).toBe(stalker.profile);
    expect((modelBase(s, broker) as { r: number }).r).toBeCloseTo(16 * MM, 9);
    expect((modelBody(s, broker).base as { r: number }).r).toBeCloseTo(16 * MM, 9);
    expect((modelBase(s, stalker) as { r: number }).r).toBeCloseTo(14.25 * MM, 9);
    // only the Kill-broker on the battlefield; a Guardian 0.97" from its edge (32 mm base), 1.04" from a 28.5 mm one
    const guardian = s.units.G.models[0];
    const gr = (modelBase(s, guardian) as { r: number }).r;
    g.emit({ type: 'models-placed', unit: 'K', mode: 'test', positions: s.units.K.models.map((m, i) => ({ model: m.id, pos: m === broker ? { x: 10, y: 10, z: 0 } : { x: 2, y: 2 + 1.5 * i, z: 0 } })) });
    for (const m of s.units.K.models) if (m !== broker) m.alive = false;
    g.emit({ type: 'models-placed', unit: 'G', mode: 'test', positions: [{ model: guardian.id, pos: { x: 10 + 16 * MM + gr + 0.97, y: 10, z: 0 } }] });
    expect(unitsInEngagement(s, s.units.K, s.units.G)).toBe(true);
  });

  it("a model named by its composition entry without weapons gets that entry's default loadout", () => {
    const ds = loadFactionCatalog('tau').byName('Kroot Farstalkers')!;
    const unit = createUnitState({ id: 'K', player: 0, datasheet: ds, models: [{ profile: 'Kroot Kill-broker', count: 1 }, { profile: 'Kroot Farstalkers', count: 9 }] });
    expect(unit.models[0].weapons).toEqual(['Farstalker firearm', 'Kroot pistol', 'Ritual blade']);
    expect(unit.models[1].weapons).toEqual(['Farstalker firearm', 'Kroot pistol', 'Close combat weapon']);
  });
});
