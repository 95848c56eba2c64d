import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { battleShockTest } from '../../src/rules/battle/command.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { modelBase, unitDistance, unitsInEngagement } from '../../src/rules/battle/world.ts';
import { currentControl } from '../../src/rules/battle/objectives.ts';
import { openWindow, usableStratagems } from '../../src/rules/windows.ts';
import { baseBoundingRadius } from '../../src/geometry/shape.ts';
import type { Game } from '../../src/core/game.ts';

function radius(g: Game, unit: string): number {
  return baseBoundingRadius(modelBase(g.state, g.state.units[unit].models[0]));
}

describe('Charge', () => {
  // A single-model unit 9.5" (edge to edge) from its target needs 8.5" to end within Engagement Range.
  function setup(dice: number[]) {
    const g = battleSandbox([
      { id: 'A', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 20 } },
      { id: 'B', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 40, y: 20 } },
    ], { stream: scriptedStream(dice), phase: 'charge' });
    const d = 9.5 + radius(g, 'A') + radius(g, 'B');
    g.emit({ type: 'models-placed', unit: 'B', mode: 'test', positions: [{ model: g.state.units.B.models[0].id, pos: { x: 20 + d, y: 20, z: 0 } }] });
    expect(unitDistance(g.state, g.state.units.A, g.state.units.B)).toBeCloseTo(9.5, 9);
    return g;
  }

  it('a charge declared at 9.5" fails on a Charge roll of 8', () => {
    const g = setup([4, 4]);
    expect(declareCharge(g, g.state.units.A, { targets: ['B'] })).toBe(false);
    expect(unitDistance(g.state, g.state.units.A, g.state.units.B)).toBeCloseTo(9.5, 9);
    expect(g.state.units.A.flags.charged).toBe(false);
  });

  it('and succeeds on a 9, ending within Engagement Range, with the Charge Bonus', () => {
    const g = setup([4, 5]);
    expect(declareCharge(g, g.state.units.A, { targets: ['B'] })).toBe(true);
    expect(unitsInEngagement(g.state, g.state.units.A, g.state.units.B)).toBe(true);
    expect(g.state.units.A.flags.charged).toBe(true);
  });
});

describe('Shooting eligibility', () => {
  it('a unit that Advanced cannot shoot unless its weapons are ASSAULT', () => {
    const g = battleSandbox([
      { id: 'T', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'G', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 10 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 10 } },
    ], { phase: 'shooting' });
    expect(canShoot(g, g.state.units.T)).toBe(true);
    g.emit({ type: 'unit-moved', unit: 'T', mode: 'advance', advanceRoll: 3 });
    g.emit({ type: 'unit-moved', unit: 'G', mode: 'advance', advanceRoll: 3 });
    expect(canShoot(g, g.state.units.T)).toBe(false); // pulse rifles are not ASSAULT
    expect(canShoot(g, g.state.units.G)).toBe(true); // shuriken catapults are ASSAULT
  });

  it('a unit that Fell Back cannot shoot', () => {
    const g = battleSandbox([
      { id: 'G', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 10 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 10 } },
    ], { phase: 'shooting' });
    g.emit({ type: 'unit-moved', unit: 'G', mode: 'fall-back' });
    expect(canShoot(g, g.state.units.G)).toBe(false);
  });
});

describe('Battle-shock', () => {
  it('2D6 below the best Leadership fails; a Battle-shocked unit has OC 0', () => {
    const g = battleSandbox([{ id: 'T', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 20 } }], { stream: scriptedStream([3, 3, 4, 3]), phase: 'command' });
    const T = g.state.units.T;
    expect(battleShockTest(g, 0, 'T')).toBe(false); // 6 < 7
    expect(g.state.units.T.battleShocked).toBe(true);
    expect(characteristic(g.state, T, T.models[0], 'OC')).toBe(0);
    g.emit({ type: 'battle-shock', unit: 'T', value: false });
    expect(battleShockTest(g, 0, 'T')).toBe(true); // 7 passes against Ld 7+
    expect(characteristic(g.state, T, T.models[0], 'OC')).toBe(2);
  });
});

describe('Objective control', () => {
  it('sum of OC within 3" of the marker; a tie is contested; Battle-shocked models count 0', () => {
    const g = battleSandbox([
      { id: 'T', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 28, y: 22 } }, // OC 2
      { id: 'D', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 1], at: { x: 32, y: 21 } }, // OC 1 + 1
    ]);
    expect(currentControl(g.state)).toEqual([null]);
    g.emit({ type: 'battle-shock', unit: 'D', value: true });
    expect(currentControl(g.state)).toEqual([0]);
    g.emit({ type: 'battle-shock', unit: 'D', value: false });
    g.emit({ type: 'battle-shock', unit: 'T', value: true });
    expect(currentControl(g.state)).toEqual([1]);
  });
});

describe('Stratagems', () => {
  function shootingAt(cp: [number, number], agents = [scriptedAgent('p1'), scriptedAgent('p2', (r) => (r.kind === 'stratagem' ? 1 : 0))] as const) {
    return battleSandbox([
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 10 } },
    ], { phase: 'shooting', cp, agents: [agents[0], agents[1]] });
  }

  it('GO TO GROUND is offered to the targeted INFANTRY unit, once per phase, never to a Battle-shocked unit', () => {
    const g = shootingAt([0, 3]);
    const w = { name: 'shooting/after-enemy-targets' as const, unit: 'S', targets: ['G'] };
    expect(usableStratagems(g, w, 1).map((x) => x.s.name)).toContain('GO TO GROUND');
    g.emit({ type: 'battle-shock', unit: 'G', value: true });
    expect(usableStratagems(g, w, 1)).toEqual([]);
    g.emit({ type: 'battle-shock', unit: 'G', value: false });
    expect(openWindow(g, w)).toEqual(['GO TO GROUND']);
    expect(g.state.players[1].cp).toBe(2);
    expect(g.state.effects.map((e) => e.kind)).toEqual(['Go to Ground']);
    // once per phase: not offered again in this phase, offered in the next Shooting phase
    expect(usableStratagems(g, w, 1).map((x) => x.s.name)).not.toContain('GO TO GROUND');
    g.emit({ type: 'round-started', round: 2 });
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    expect(usableStratagems(g, w, 1).map((x) => x.s.name)).toContain('GO TO GROUND');
  });

  it('a stratagem is not offered without enough CP, nor in the wrong player\'s turn', () => {
    const g = shootingAt([0, 0]);
    const w = { name: 'shooting/after-enemy-targets' as const, unit: 'S', targets: ['G'] };
    expect(usableStratagems(g, w, 1)).toEqual([]);
    const g2 = shootingAt([3, 3]);
    // player 1 (the active player) cannot Go to Ground in their own turn
    expect(usableStratagems(g2, { name: 'shooting/after-enemy-targets', unit: 'G', targets: ['S'] }, 0).map((x) => x.s.name)).not.toContain('GO TO GROUND');
  });
});
