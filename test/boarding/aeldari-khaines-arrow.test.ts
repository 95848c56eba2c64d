/**
 * Khaine's Arrow (Aeldari, Boarding Actions): FOCUSED FUSILLADE, BLADEFOCUS, VOID GHOSTS, CRITICAL CAPTURE and
 * Runes of Sanctuary, Shieldmaster (Unerring Strike: unerring-strike.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName } from '../../src/core/state.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { currentControl } from '../../src/rules/battle/objectives.ts';
import { endTurn } from '../../src/rules/battle/battle.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { enemyAttacking, openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { CRITICAL_CAPTURE_HOLD } from '../../src/factions/aeldari/boarding-khaines-arrow.ts';

function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: 0 | 1; detachment?: string | null; pick?: (r: DecisionRequest) => number; asked?: string[] } = {}): Game {
  const asked = opts.asked ?? [];
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, round: 2, cp: [3, 3],
    detachments: [opts.detachment === undefined ? "Khaine's Arrow" : opts.detachment, null], factions: ['AE', 'TAU'],
    agents: [scriptedAgent('ae', (r) => { asked.push(r.kind); return (opts.pick ?? (() => 0))(r); }), scriptedAgent('tau')],
  });
}

const using = (name: string) => (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : 0);
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 5 }, spacing: 1 };

describe("Khaine's Arrow stratagems", () => {
  it('FOCUSED FUSILLADE: +1 to wound for a DIRE AVENGERS unit selected to shoot; not offered to Howling Banshees', () => {
    const g = sandbox([
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 20, y: 5 }, spacing: 0.8 },
      { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 10, y: 5 }, spacing: 0.8 },
      ST,
    ], { pick: using('FOCUSED FUSILLADE') });
    expect(usableStratagems(g, { name: 'shooting/unit-selected', unit: 'HB', targets: [] }, 0).filter((x) => x.s.name === 'FOCUSED FUSILLADE')).toEqual([]);
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').woundModifier).toBe(0);
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'DA', targets: [] })).toEqual(['FOCUSED FUSILLADE']);
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').woundModifier).toBe(1);
  });

  it('BLADEFOCUS: a HOWLING BANSHEES unit that charged this turn re-rolls its Hit rolls this phase; not offered when it did not charge', () => {
    const units: PlacedUnit[] = [{ id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 29, y: 12 }, spacing: 0.8 }, ST];
    const w: Window = { name: 'fight/unit-selected', unit: 'HB', targets: [] };
    const still = sandbox(units, { phase: 'fight' });
    expect(usableStratagems(still, w, 0).filter((x) => x.s.name === 'BLADEFOCUS')).toEqual([]);
    const g = sandbox(units, { phase: 'fight', pick: using('BLADEFOCUS') });
    g.emit({ type: 'unit-flag', unit: 'HB', flag: 'charged', value: true });
    expect(planFor(g, 'HB', 'ST', 'Banshee blade').rerollHits).toBe('none');
    expect(openWindow(g, w)).toEqual(['BLADEFOCUS']);
    expect(planFor(g, 'HB', 'ST', 'Banshee blade').rerollHits).toBe('failed');
  });

  it('VOID GHOSTS: -1 to be hit for a targeted AELDARI unit in the opponent\'s Shooting phase', () => {
    const g = sandbox([{ id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 20, y: 5 }, spacing: 0.8 }, ST], { turn: 1, pick: using('VOID GHOSTS') });
    expect(openWindow(g, { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['DA'] })).toEqual(['VOID GHOSTS']);
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').hitModifier).toBe(-1);
  });

  it('CRITICAL CAPTURE: in its Command phase, +1 OC for a unit that is not a CHARACTER until its next Command phase, and at the end of the turn its marker is Secured', () => {
    const units: PlacedUnit[] = [
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 22, y: 14 }, spacing: 0.8 },
      { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 5, y: 5 } },
      ST,
    ];
    const g = sandbox(units, { phase: 'command', pick: using('CRITICAL CAPTURE') });
    const start: Window = { name: 'command/after-battle-shock-step', unit: null, targets: [] };
    expect(usableStratagems(g, start, 0).filter((x) => x.s.name === 'CRITICAL CAPTURE').map((x) => x.unit.id)).toEqual(['DA']);
    const oc = () => characteristic(g.state, g.state.units.DA, g.state.units.DA.models[0], 'OC');
    const before = oc();
    expect(openWindow(g, start)).toEqual(['CRITICAL CAPTURE']);
    expect(oc()).toBe(before + 1);
    endTurn(g, 0);
    expect(g.state.effects.filter((e) => e.kind === CRITICAL_CAPTURE_HOLD).map((e) => e.params.objective)).toEqual(['o1']);
    // the Dire Avengers leave the marker: it stays the Aeldari player's
    g.emit({ type: 'models-placed', unit: 'DA', mode: 'test', positions: g.state.units.DA.models.map((m, i) => ({ model: m.id, pos: { x: 5, y: 10 + i, z: 0 } })) });
    expect(currentControl(g.state)[0]).toBe(0);
  });

  it('Unerring Strike is played (no missing part); the detachment has its four stratagems', () => {
    expect(getRule('Unerring Strike')?.moveUnderway).toBeTypeOf('function');
    expect(getRule('Unerring Strike')?.missing).toBeUndefined();
    expect(allStratagems().filter((s) => s.source === "Khaine's Arrow").map((s) => s.name).sort()).toEqual(['BLADEFOCUS', 'CRITICAL CAPTURE', 'FOCUSED FUSILLADE', 'VOID GHOSTS']);
  });
});

describe('Runes of Sanctuary (Khaine\'s Arrow)', () => {
  const units = (enhancement: string | null, at = { x: 12, y: 5 }): PlacedUnit[] => [
    { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at, ...(enhancement ? { enhancement } : {}) },
    { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 15, y: 3 }, spacing: 0.8 },
    { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', counts: [1, 4], at: { x: 25, y: 5 }, spacing: 1 },
  ];

  it('in the opponent\'s Shooting phase, when a unit within 9" of the PSYKER bearer is targeted: -1 AP against it this phase, once per turn', () => {
    const asked: string[] = [];
    const g = sandbox(units('Runes of Sanctuary (Psychic)'), { turn: 1, pick: (r) => (r.kind === 'runes-of-sanctuary' ? 1 : 0), asked });
    expect(planFor(g, 'BT', 'GD', 'Pulse blaster').ap).toBe(-1);
    enemyAttacking(g, g.state.units.BT, ['GD'], false);
    expect(asked).toEqual(['runes-of-sanctuary']);
    expect(planFor(g, 'BT', 'GD', 'Pulse blaster').ap).toBe(0);
    // once per turn
    enemyAttacking(g, g.state.units.BT, ['GD'], false);
    expect(asked).toEqual(['runes-of-sanctuary']);
  });

  it('not in the player\'s own turn, nor beyond 9", nor without the Enhancement', () => {
    const asked: string[] = [];
    enemyAttacking(...args(sandbox(units('Runes of Sanctuary (Psychic)'), { turn: 0, asked })));
    enemyAttacking(...args(sandbox(units('Runes of Sanctuary (Psychic)', { x: 2, y: 28 }), { turn: 1, asked })));
    enemyAttacking(...args(sandbox(units(null), { turn: 1, asked })));
    expect(asked).toEqual([]);
  });
});

function args(g: Game): [Game, Game['state']['units'][string], string[], boolean] {
  return [g, g.state.units.BT, ['GD'], false];
}

describe("Shieldmaster (Khaine's Arrow)", () => {
  const HATCH = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };
  const WALLS = [
    { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
    { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
  ];
  function ship(enhancement: string | null, asked: string[]): Game {
    const g = battleSandbox([
      { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 18, y: 14.5 }, ...(enhancement ? { enhancement } : {}) },
      { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 36, y: 20 }, spacing: 0.8, counts: [10, 0] },
    ], {
      mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALLS, hatchways: [HATCH], phase: 'movement', turn: 0, round: 2, cp: [3, 3],
      detachments: ["Khaine's Arrow", null], factions: ['AE', 'TAU'],
      agents: [scriptedAgent('ae', (r) => { asked.push(r.kind); return r.kind === 'shieldmaster' ? 1 : 0; }), scriptedAgent('tau')],
    });
    g.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: null });
    return g;
  }
  const through = (g: Game, x: number) => executeMove(g, g.state.units.AU, { mode: 'normal', to: { x, y: 14.5 }, toward: 'test' });

  it('after the bearer moved through an open hatchway in its Movement phase, the player may close it; once per turn', () => {
    const asked: string[] = [];
    const g = ship('Shieldmaster', asked);
    through(g, 25);
    expect(g.state.units.AU.models[0].pos!.x).toBeGreaterThan(23);
    expect(asked).toContain('shieldmaster');
    expect(g.state.openHatchways).toEqual([]);
    // open again, and back through it: not asked again this turn
    g.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: null });
    asked.length = 0;
    through(g, 17);
    expect(asked).not.toContain('shieldmaster');
    expect(g.state.openHatchways).toEqual(['h1']);
  });

  it('not without the Enhancement, nor for a move that does not go through the hatchway', () => {
    const asked: string[] = [];
    const g = ship(null, asked);
    through(g, 25);
    expect(g.state.openHatchways).toEqual(['h1']);
    const h = ship('Shieldmaster', asked);
    executeMove(h, h.state.units.AU, { mode: 'normal', to: { x: 15, y: 20 }, toward: 'test' });
    expect(asked).not.toContain('shieldmaster');
    expect(h.state.openHatchways).toEqual(['h1']);
  });
});

