/**
 * Exotic Munitions and Alacritous Assault (Eldritch Raiders) give their abilities to the weapons of the models
 * in the bearer's unit; with a Leader attached, that unit is the Attached unit, the Leader's weapons included.
 * The engine gave them to the bearer's part only (while its LANCE was already reported on every melee weapon
 * of the Attached unit).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { weaponHas } from '../../src/core/rules-registry.ts';
import type { Game } from '../../src/core/game.ts';

const KH: PlacedUnit = { id: 'KH', player: 0, faction: 'aeldari', name: 'Kharseth', at: { x: 20, y: 18.4 } };
const VR: PlacedUnit = { id: 'VR', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 20, y: 20 }, spacing: 1 };
const HH: PlacedUnit = { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 40, y: 30 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 }, spacing: 0.9 };

function sandbox(enhancement: string, phase: 'shooting' | 'fight'): Game {
  const g = battleSandbox([KH, { ...VR, enhancement }, HH, ST], {
    factions: ['AE', 'TAU'], phase, turn: 0, cp: [4, 3], detachments: ['Eldritch Raiders', null],
    agents: [scriptedAgent('ae'), scriptedAgent('tau')],
  });
  g.emit({ type: 'unit-attached', leader: 'KH', bodyguard: 'VR' });
  return g;
}

describe('Eldritch Raiders Enhancements on a unit led by a Leader', () => {
  it('Exotic Munitions: Kharseth\'s ranged weapon, equipped by a model in the (Attached) unit, has ANTI-VEHICLE 5+', () => {
    const g = sandbox('Exotic Munitions', 'shooting');
    // control: the Voidreavers' own pistols have it
    expect(planFor(g, 'VR', 'HH', 'Shuriken pistol').criticalWoundOn).toBe(5);
    expect(planFor(g, 'VR', 'HH', 'Dread of the Deep Void').criticalWoundOn, 'Critical Wound threshold of Kharseth\'s Dread of the Deep Void vs a VEHICLE').toBe(5);
  });

  it('Alacritous Assault: Kharseth\'s Waystave has LANCE (+1 to wound after a charge), as the engine itself reports', () => {
    const g = sandbox('Alacritous Assault', 'fight');
    const base = planFor(g, 'VR', 'ST', 'Waystave').woundModifier;
    g.emit({ type: 'unit-flag', unit: 'VR', flag: 'charged', value: true });
    const vr = g.state.units.VR;
    const kh = vr.models.find((m) => m.origin === 'KH')!;
    const waystave = g.state.datasheets[kh.datasheet].weapons.find((x) => x.name === 'Waystave')!.profiles[0];
    expect(weaponHas(g.state, vr, waystave, 'LANCE')).toBe(true);
    expect(planFor(g, 'VR', 'ST', 'Waystave').woundModifier, 'Waystave wound modifier after charging').toBe(base + 1);
  });
});
