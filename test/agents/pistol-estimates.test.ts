/**
 * The agents' estimates follow Pistols or other weapons: a model that is not a MONSTER or VEHICLE fires
 * its Pistol instead of its other ranged weapons, not as well, so its Pistol counts only where the others
 * reach nothing, or while its unit is engaged. A Breacher carries a Pulse blaster (10") and a Pulse
 * pistol (12").
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, roundBaseRadius as radius } from '../helpers/battle.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { rangedPotentialAt, unitAttackPotential, weaponEstimate, weaponPotentials, weaponUses } from '../../src/ai/evaluate.ts';
import { isEngaged, modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';

/** One model of `name` `gap` inches (edge to edge) from a lone Dire Avenger; what each of its ranged weapons would do to it. */
function scene(name: 'Breacher Team' | 'War Walkers', gap: number) {
  const g = battleSandbox([
    { id: 'A', player: 0, faction: name === 'War Walkers' ? 'aeldari' : 'tau', name, counts: name === 'War Walkers' ? [1] : [1, 0], at: { x: 10, y: 20 } },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 40, y: 20 } },
  ], { factions: name === 'War Walkers' ? ['AE', 'AE'] : ['TAU', 'AE'], phase: 'shooting' });
  if (name === 'War Walkers') {
    // a VEHICLE with a Pistol besides its guns (borrowed from the Breacher Team datasheet): it fires both
    const pistol = loadFactionCatalog('tau').byName('Breacher Team')!.weapons.find((w) => w.name === 'Pulse pistol')!;
    const m = g.state.units.A.models[0];
    g.state.datasheets[m.datasheet].weapons.push(pistol);
    m.weapons = ['Bright lance', 'Pulse pistol'];
  }
  const m = g.state.units.A.models[0];
  const target = modelBody(g.state, g.state.units.DA.models[0]);
  const x = 40 - (gap + radius(modelBody(g.state, m)) + radius(target));
  g.emit({ type: 'models-placed', unit: 'A', mode: 'test', positions: [{ model: m.id, pos: { x, y: 20, z: 0 } }] });
  const s = g.state;
  expect(horizontalDistance(modelBody(s, s.units.A.models[0]), target)).toBeCloseTo(gap, 6);
  const attackers: Record<string, number> = {};
  for (const use of weaponUses(s, s.units.A, false)) attackers[use.weapon.name] = weaponEstimate(s, s.units.A, use, s.units.DA, { inRangeOnly: true }).attackers;
  const potentials = weaponPotentials(s, s.units.A, s.units.DA, false);
  return { s, attackers, potentials, engaged: isEngaged(s, s.units.A) };
}

describe('estimates: Pistols or other weapons', () => {
  it('within the blaster\'s 10" the Breacher fires the blaster only; between 10" and 12" the pistol only', () => {
    expect(scene('Breacher Team', 8).attackers).toEqual({ 'Pulse blaster': 1, 'Pulse pistol': 0 });
    expect(scene('Breacher Team', 11).attackers).toEqual({ 'Pulse blaster': 0, 'Pulse pistol': 1 });
  });

  it('engaged, the Breacher fires its pistol (the only weapon it may fire)', () => {
    const close = scene('Breacher Team', 0.5);
    expect(close.engaged).toBe(true);
    expect(close.attackers['Pulse pistol']).toBe(1);
  });

  it('a VEHICLE fires its Pistol besides its other guns', () => {
    expect(scene('War Walkers', 8).attackers).toEqual({ 'Bright lance': 1, 'Pulse pistol': 1 });
  });

  it('the potentials at a gap count the blaster within 10", the pistol between 10" and 12", and never both', () => {
    const { s, potentials } = scene('Breacher Team', 8);
    const blaster = potentials.find((p) => p.range === 10)!;
    const pistol = potentials.find((p) => p.range === 12)!;
    expect(blaster.value).toBeGreaterThan(pistol.value);
    expect(pistol.value).toBeGreaterThan(0);
    expect(pistol.beyond).toBe(10);
    const at = (gap: number) => rangedPotentialAt(s, s.units.A, s.units.DA, gap);
    expect(at(8)).toBeCloseTo(blaster.value, 9);
    expect(at(11)).toBeCloseTo(pistol.value, 9);
    expect(at(12.5)).toBe(0);
    // the threat the unit carries, in range of everything: its blasters
    expect(unitAttackPotential(s, s.units.A, s.units.DA, false)).toBeCloseTo(blaster.value, 9);
  });
});
