import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { rolls } from '../helpers/attack.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { createUnitState } from '../../src/rules/muster.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { boardOf, modelBody } from '../../src/rules/battle/world.ts';
import { isVisible } from '../../src/geometry/visibility.ts';

describe('INDIRECT FIRE', () => {
  // 10th-edition core rule (the seeds do not have its text): the -1 to hit and the Benefit of Cover apply
  // when no model of the target is visible to the attacking unit, not only to the models with the weapon
  it('no -1 to hit when another model of the attacking unit sees the target', () => {
    const ruin = { id: 'r', kind: 'ruin' as const, polygon: [{ x: 24, y: 14 }, { x: 27, y: 14 }, { x: 27, y: 26 }, { x: 24, y: 26 }], height: 5 };
    // rifle hits 1, 1 (RAPID FIRE within 15"); turret hits 5, 5 (BS 5+: both hit without the -1);
    // turret wounds 1, 1 and their TWIN-LINKED re-rolls 1, 1
    const g = battleSandbox([
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 31, y: 20 } },
      // (brings the Strike Team's datasheet into the game)
      { id: 'X', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 2, y: 40 } },
    ], { phase: 'shooting', stream: scriptedStream([1, 1, 5, 5, 1, 1, 1, 1]), terrain: [ruin] });
    // a Strike Team of two: a Shas'ui with a pulse rifle in sight of the Dire Avenger, a Fire Warrior with
    // a Support turret behind the ruin
    const ds = loadFactionCatalog('tau').byName('Strike Team')!;
    g.emit({ type: 'unit-created', unit: createUnitState({ id: 'ST', player: 0, datasheet: ds, models: [
      { profile: "Fire Warrior Shas'ui", count: 1, weapons: ['Pulse rifle'] },
      { profile: 'Fire Warriors', count: 1, weapons: ['Support turret'] },
    ] }) });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'battlefield', embarkedIn: null });
    const [rifle, turret] = g.state.units.ST.models;
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: [{ model: rifle.id, pos: { x: 31, y: 8, z: 0 } }, { model: turret.id, pos: { x: 18, y: 20, z: 0 } }] });
    const target = modelBody(g.state, g.state.units.DA.models[0]);
    expect(isVisible(modelBody(g.state, rifle), target, boardOf(g.state))).toBe(true);
    expect(isVisible(modelBody(g.state, turret), target, boardOf(g.state))).toBe(false);
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'hit')).toEqual([[1, 1], [5, 5]]);
    // with the -1, a 5 would be a 4: a miss at BS 5+, and no Wound roll
    expect(rolls(g, 'wound')).toEqual([[1, 1]]);
  });
});
