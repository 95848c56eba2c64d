/**
 * Stratagems whose effect reads each model's distance to the target, measured model by model: the shooting
 * unit's attack groups split at the distance the effect on the unit names (Rule.attackRangeBands).
 * POINT-BLANK AMBUSH (Kauyon): "each time a model in your unit makes a ranged attack that targets an enemy unit
 * within 9"", AP improves by 1. BLITZING FIREPOWER (Warhost): "ranged weapons equipped by models in your unit
 * have [SUSTAINED HITS 1] while targeting an enemy unit within 12"".
 */
import { describe, expect, it } from 'vitest';
import { aeldariDetachmentSandbox, battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { usingStratagem } from '../helpers/stratagems.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import { planFor } from '../helpers/plan.ts';
import type { Game } from '../../src/core/game.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { modelBody } from '../../src/rules/battle/world.ts';

/** Each model's distance to the closest alive model of the target, in the unit's order. */
function gaps(g: Game, unit: string, target: string): number[] {
  const s = g.state;
  const t = s.units[target].models.filter((m) => m.alive && m.pos);
  return s.units[unit].models.map((m) => Math.min(...t.map((x) => horizontalDistance(modelBody(s, m), modelBody(s, x)))));
}

const place = (g: Game, unit: string, at: { x: number; y: number }[]) =>
  g.emit({ type: 'models-placed', unit, mode: 'test', positions: g.state.units[unit].models.map((m, i) => ({ model: m.id, pos: { ...at[i], z: 0 } })) });

describe('POINT-BLANK AMBUSH (Kauyon): AP +1 for the attacks of the models within 9" only', () => {
  /**
   * A Strike Team of three (Pulse rifles: RAPID FIRE 1, 30"): its Shas'ui ~19" from five Guardians (Sv 4+, T3), its
   * two Fire Warriors ~6" and ~10", both within half range. Every die is a 4: every attack hits and wounds; a save
   * of 4 fails against AP -1 only.
   */
  function ambush(use: boolean) {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 2], at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [5, 0], at: { x: 30, y: 5 }, spacing: 1.1 },
    ], {
      phase: 'shooting', round: 3, cp: [3, 0], detachments: ['Kauyon', null], stream: scriptedStream(Array(100).fill(4)),
      agents: [scriptedAgent('tau', usingStratagem(use ? 'POINT-BLANK AMBUSH' : 'none')), scriptedAgent('ae')],
    });
    place(g, 'ST', [{ x: 10, y: 5 }, { x: 23, y: 5 }, { x: 19, y: 5 }]);
    const [far, near, mid] = gaps(g, 'ST', 'GD');
    expect([near < 9, mid > 9 && mid < 15, far > 15]).toEqual([true, true, true]);
    shootWithUnit(g, g.state.units.ST);
    return g;
  }
  const alive = (g: Game) => g.state.units.GD.models.filter((m) => m.alive).length;

  it('the Fire Warrior within 9" makes its 2 attacks at AP -1 (2 Guardians slain); the one at 10" (also within half range) and the Shas\'ui make theirs at AP 0', () => {
    const g = ambush(true);
    expect(g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['POINT-BLANK AMBUSH']);
    // one attack group (the Shas'ui's rifle is the Fire Warriors'): its half-range models split at 9" (one Hit roll
    // for the model within, one for the model beyond), then the Shas'ui beyond half range
    expect(rolls(g, 'hit').map((v) => v.length)).toEqual([2, 2, 1]);
    expect(rolls(g, 'save').flat().length).toBe(5);
    expect(alive(g)).toBe(3);
  });

  it('without it every save of 4 is made', () => {
    const g = ambush(false);
    expect(g.state.players[0].stratagemsUsed).toEqual([]);
    expect(alive(g)).toBe(5);
  });
});

describe('BLITZING FIREPOWER (Warhost): SUSTAINED HITS 1 for the weapons of the models within 12" only', () => {
  /**
   * Three Guardians (Shuriken catapults: 2 attacks, 18", one attack group) ~10.5", ~15" and ~15" from a Strike
   * Team: all beyond half range (9"), where the group would split anyway. Every die is a 6: every attack is a
   * Critical Hit, wounds and is saved.
   */
  function blitz(use: boolean) {
    const g = aeldariDetachmentSandbox('Warhost')([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', counts: [3, 0], at: { x: 24, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 10 }, spacing: 0.9 },
    ], { stream: scriptedStream(Array(100).fill(6)) }, usingStratagem(use ? 'BLITZING FIREPOWER' : 'none'));
    place(g, 'GD', [{ x: 28.5, y: 10 }, { x: 24, y: 10 }, { x: 24, y: 12 }]);
    const [near, ...far] = gaps(g, 'GD', 'ST');
    expect([near > 9 && near < 12, far.every((d) => d > 12 && d < 18)]).toEqual([true, true]);
    shootWithUnit(g, g.state.units.GD);
    return g;
  }

  it('the Guardian within 12" scores 2 extra hits (4 hits from its 2 attacks); the two beyond 4 hits from 4 attacks: 8 Wound rolls', () => {
    const g = blitz(true);
    expect(g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['BLITZING FIREPOWER']);
    // the attack group splits at 12": one Hit roll for the model within, one for those beyond
    expect(rolls(g, 'hit').map((v) => v.length)).toEqual([2, 4]);
    expect(rolls(g, 'wound').flat().length).toBe(8);
  });

  it('Dire Avengers within half range already have SUSTAINED HITS 1 (Bladestorm): a Critical Hit on a 5+; beyond half range on a 6 (audit 16)', () => {
    const g = battleSandbox([
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 20, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 28, y: 20 } },
    ], { factions: ['AE', 'TAU'], detachments: ['Warhost', null], phase: 'shooting', turn: 0, round: 2, agents: [scriptedAgent('ae'), scriptedAgent('tau')] });
    const weapon = 'Avenger shuriken catapult';
    const crit = () => [planFor(g, 'DA', 'ST', weapon, { distance: 8, halfRange: true }), planFor(g, 'DA', 'ST', weapon, { distance: 11, halfRange: false })].map((p) => [p.sustainedHits, p.criticalHitOn]);
    expect(crit()).toEqual([[1, 6], [0, 6]]);
    g.addEffect('Blitzing Firepower', 0, 'DA', g.untilEndOfPhase());
    expect(crit()).toEqual([[1, 5], [1, 6]]);
  });

  it('without it, 6 hits from 6 attacks', () => {
    const g = blitz(false);
    expect(g.state.players[0].stratagemsUsed).toEqual([]);
    expect(rolls(g, 'hit').map((v) => v.length)).toEqual([6]);
    expect(rolls(g, 'wound').flat().length).toBe(6);
  });
});
