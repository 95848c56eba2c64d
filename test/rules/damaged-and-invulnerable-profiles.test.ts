/**
 * Two parts of a datasheet the importer derived and the engine did not play until the fifty-sixth session:
 * damaged profiles ("while this model has 1-5 wounds remaining, each time this model makes an attack, subtract 1
 * from the Hit roll"; some also "subtract 5 from its Objective Control"), and invulnerable saves that differ by
 * the kind of attack (Howling Banshees: 5+, improved to 4+ against melee attacks; Rangers: 5+ against ranged
 * attacks only). Exact dice, so each test fails if the profile is ignored.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { rolls } from '../helpers/attack.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Game } from '../../src/core/game.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { characteristic, damagedProfileOf } from '../../src/rules/battle/units.ts';

/** Take wounds from the unit's one model until it has `left` remaining. */
function leave(g: Game, unit: string, left: number): void {
  const m = g.state.units[unit].models[0];
  g.emit({ type: 'model-damaged', unit, model: m.id, wounds: m.wounds - left, by: null, mortal: false });
}

describe('Damaged profiles', () => {
  it('a Hammerhead (1-5 wounds) has -1 to hit at 5 wounds left, not at 6', () => {
    const g = battleSandbox([
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { phase: 'shooting' });
    const full = planFor(g, 'HH', 'GD', 'Railgun').hitModifier;
    leave(g, 'HH', 6);
    expect(planFor(g, 'HH', 'GD', 'Railgun').hitModifier).toBe(full);
    leave(g, 'HH', 5);
    expect(damagedProfileOf(g.state, g.state.units.HH.models[0])).toMatchObject({ from: 1, to: 5, hitModifier: -1 });
    expect(planFor(g, 'HH', 'GD', 'Railgun').hitModifier).toBe(full - 1);
  });

  it('in the dice: the damaged Hammerhead misses its Railgun shot on a 4 (BS 4+)', () => {
    const g = battleSandbox([
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { phase: 'shooting', stream: scriptedStream([4]) });
    leave(g, 'HH', 5);
    const HH = g.state.units.HH;
    const w = g.state.datasheets[HH.models[0].datasheet].weapons.find((x) => x.name === 'Railgun')!;
    const t = resolveAttacks(g, HH, [{ weapon: w, profile: w.profiles[0], models: HH.models, target: 'GD', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 11 }], false);
    expect(rolls(g, 'hit')).toEqual([[4]]);
    expect(t.hits).toBe(0);
  });

  it('a Wraithknight (1-6 wounds: -1 to hit, OC -5) has OC 10 at 7 wounds left, 5 at 6, and 0 Battle-shocked', () => {
    const g = battleSandbox([
      { id: 'WK', player: 1, faction: 'aeldari', name: 'Wraithknight', at: { x: 30, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
    ], { phase: 'shooting', turn: 1 });
    const oc = () => characteristic(g.state, g.state.units.WK, g.state.units.WK.models[0], 'OC');
    leave(g, 'WK', 7);
    expect(oc()).toBe(10);
    leave(g, 'WK', 6);
    expect(oc()).toBe(5);
    g.emit({ type: 'battle-shock', unit: 'WK', value: true });
    expect(oc()).toBe(0);
  });
});

describe('Invulnerable saves by the kind of attack', () => {
  /** One attack of `weapon` (the attacker's) at the target, all its dice scripted; the target's save roll is 4. */
  function oneAttack(attacker: { id: string; name: string }, weapon: string, target: { id: string; name: string }, melee: boolean, dice: number[]) {
    const g = battleSandbox([
      { ...attacker, player: 0, faction: 'tau', at: { x: 10, y: 5 } },
      { ...target, player: 1, faction: 'aeldari', at: { x: 11.2, y: 5 } },
    ], { phase: melee ? 'fight' : 'shooting', stream: scriptedStream(dice) });
    const A = g.state.units[attacker.id];
    const w = g.state.datasheets[A.models[0].datasheet].weapons.find((x) => x.name === weapon)!;
    const profile = { ...w.profiles[0], attacks: { n: 0, sides: 0, plus: 1 } };
    const t = resolveAttacks(g, A, [{ weapon: w, profile, models: [A.models[0]], target: target.id, halfRange: false, targetVisible: true, targetInCover: false, targetModels: 5 }], melee);
    return { g, t };
  }

  it('Howling Banshees: 4+ against a melee attack (Fidelity, AP -1: a 4 saves)', () => {
    // Aun'Shi's Fidelity: hit 3 (WS 3+), wound 4 (S5 vs T3), save 4: the armour save needs 5 (Sv 4+, AP -1), the
    // melee invulnerable save 4+: saved
    const melee = oneAttack({ id: 'AS', name: "Aun'shi" }, 'Fidelity', { id: 'HB', name: 'Howling Banshees' }, true, [3, 4, 4]);
    expect(rolls(melee.g, 'save')).toEqual([[4]]);
    expect(melee.t.unsaved).toBe(0);
  });

  it('Rangers: their 5+ invulnerable save is against ranged attacks only (none in melee)', () => {
    // Fidelity (AP -1) against Rangers (Sv 5+): the armour save needs 6, a roll of 5 would pass the 5+
    // invulnerable save against a ranged attack, not against this melee one
    const melee = oneAttack({ id: 'AS', name: "Aun'shi" }, 'Fidelity', { id: 'RG', name: 'Rangers' }, true, [3, 3, 5]);
    expect(rolls(melee.g, 'save')).toEqual([[5]]);
    expect(melee.t.unsaved).toBe(1);
    // a ranged attack with the same AP (the Breacher Team's Pulse blaster, AP -1): the 5 passes the 5+ invulnerable save
    const ranged = oneAttack({ id: 'BT', name: 'Breacher Team' }, 'Pulse blaster', { id: 'RG', name: 'Rangers' }, false, [4, 4, 5]);
    expect(rolls(ranged.g, 'save')).toEqual([[5]]);
    expect(ranged.t.unsaved).toBe(0);
  });
});
