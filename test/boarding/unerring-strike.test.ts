/**
 * Unerring Strike (Khaine's Arrow, Boarding Actions): an AELDARI unit's Normal move may open a closed hatchway
 * on its way, the move 2" shorter, and the unit operates no hatchway again that turn.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { HatchwayState } from '../../src/core/state.ts';
import { executeMove, moveOptions, moveUnit } from '../../src/rules/battle/movement.ts';
import { isHatchwayOpen } from '../../src/rules/battle/hatchways.ts';
import { unitMove } from '../../src/rules/battle/units.ts';
import { createHeuristic, lastOptionScores } from '../../agents/heuristic.ts';
import { unerringHatchways } from '../../src/factions/aeldari/boarding-khaines-arrow.ts';

// a 2"-thick wall at x 20-22 across the board, with one hatchway in it at y 13-16
const WALL = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];
const HATCH: HatchwayState = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };
const BEYOND = { x: 32, y: 14.5 };

function ship(opts: { detachment?: string | null; enemyAt?: { x: number; y: number }; pick?: (r: DecisionRequest) => number; asked?: DecisionRequest[] } = {}) {
  const asked = opts.asked ?? [];
  const units: PlacedUnit[] = [
    { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 17, y: 14.5 }, spacing: 0.8 },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: opts.enemyAt ?? { x: 38, y: 5 }, spacing: 1 },
  ];
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALL, hatchways: [HATCH], phase: 'movement', turn: 0, round: 2, cp: [3, 3],
    detachments: [opts.detachment === undefined ? "Khaine's Arrow" : opts.detachment, null], factions: ['AE', 'TAU'],
    agents: [scriptedAgent('ae', (r) => { asked.push(r); return (opts.pick ?? (() => 0))(r); }), scriptedAgent('tau')],
  });
}

const openIt = (r: DecisionRequest) => (r.kind === 'unerring-strike' ? 1 : 0);
const starts = (g: ReturnType<typeof ship>) => new Map(g.state.units.DA.models.map((m) => [m.id, { ...m.pos! }]));

describe('Unerring Strike', () => {
  it('a Normal move opens the closed hatchway on the way and goes on through it, each model moving at most its Move less 2"', () => {
    const asked: DecisionRequest[] = [];
    const g = ship({ pick: openIt, asked });
    const move = unitMove(g.state, g.state.units.DA);
    const from = starts(g);
    executeMove(g, g.state.units.DA, { mode: 'normal', to: BEYOND, toward: 'test' });
    const offer = asked.find((r) => r.kind === 'unerring-strike');
    expect(offer?.options).toEqual([{ keep: true }, { hatchway: 'h1', way: expect.any(Number) }]);
    // the way there: from x 17 to the hatchway's face (x 20), less than the Move less 2"
    const way = (offer!.options[1] as { way: number }).way;
    expect(way).toBeGreaterThan(1.5);
    expect(way).toBeLessThanOrEqual(move - 2);
    expect(isHatchwayOpen(g.state, 'h1')).toBe(true);
    const models = g.state.units.DA.models;
    // through the doorway: a closed hatchway would have stopped every model short of x 20
    expect(Math.max(...models.map((m) => m.pos!.x))).toBeGreaterThan(20.5);
    for (const m of models) {
      const a = from.get(m.id)!;
      expect(Math.hypot(m.pos!.x - a.x, m.pos!.y - a.y)).toBeLessThanOrEqual(move - 2 + 1e-6);
    }
    // it operates no hatchway again this turn: no hatchway step after its move
    expect(asked.slice(asked.indexOf(offer!) + 1).map((r) => r.kind)).not.toContain('hatchway');
  });

  it('declined, the move stops at the closed hatchway, and the hatchway step after the move is offered', () => {
    const asked: DecisionRequest[] = [];
    // declines Unerring Strike (its first option) and keeps the hatchways as they are after the move
    const keep = (r: DecisionRequest) => (r.kind === 'hatchway' ? r.options.findIndex((o) => 'keep' in (o as object)) : 0);
    const g = ship({ asked, pick: keep });
    executeMove(g, g.state.units.DA, { mode: 'normal', to: BEYOND, toward: 'test' });
    expect(asked.map((r) => r.kind)).toContain('unerring-strike');
    expect(isHatchwayOpen(g.state, 'h1')).toBe(false);
    expect(Math.max(...g.state.units.DA.models.map((m) => m.pos!.x))).toBeLessThan(20);
    expect(asked.map((r) => r.kind)).toContain('hatchway');
  });

  it('not offered for an Advance, with an enemy unit within 1" of the hatchway, or without the detachment', () => {
    const kinds = (g: ReturnType<typeof ship>, asked: DecisionRequest[], mode: 'normal' | 'advance') => {
      executeMove(g, g.state.units.DA, { mode, to: BEYOND, toward: 'test' });
      return asked.map((r) => r.kind);
    };
    let asked: DecisionRequest[] = [];
    expect(kinds(ship({ asked, pick: openIt }), asked, 'advance')).not.toContain('unerring-strike');
    asked = [];
    expect(kinds(ship({ asked, pick: openIt, enemyAt: { x: 23.2, y: 14.5 } }), asked, 'normal')).not.toContain('unerring-strike');
    asked = [];
    expect(kinds(ship({ asked, pick: openIt, detachment: null }), asked, 'normal')).not.toContain('unerring-strike');
  });

  it('not offered when the hatchway is more than the Move less 2" (and 1") away', () => {
    const asked: DecisionRequest[] = [];
    const g = ship({ asked, pick: openIt });
    // 8" back from the wall: a Move of 7 less 2 does not bring a model within 1" of it
    g.emit({ type: 'models-placed', unit: 'DA', mode: 'test', positions: g.state.units.DA.models.map((m) => ({ model: m.id, pos: { x: m.pos!.x - 5, y: m.pos!.y, z: 0 } })) });
    expect(unitMove(g.state, g.state.units.DA)).toBe(7);
    executeMove(g, g.state.units.DA, { mode: 'normal', to: BEYOND, toward: 'test' });
    expect(asked.map((r) => r.kind)).not.toContain('unerring-strike');
  });

  it('the heuristic opens the hatchway when the move heads beyond it, not when it heads along its own side of the wall', () => {
    const answer = (to: { x: number; y: number }) => {
      const g = ship();
      const h = createHeuristic();
      const way = Math.max(...unerringHatchways(g.state, g.state.units.DA, unitMove(g.state, g.state.units.DA))[0].plan.pathLengths);
      const req: DecisionRequest = { kind: 'unerring-strike', player: 0, prompt: '', options: [{ keep: true }, { hatchway: 'h1', way }], context: { unit: 'DA', to } };
      return h.decide({ state: g.state, player: 0 }, req).option;
    };
    expect(answer(BEYOND)).toBe(1);
    expect(answer({ x: 10, y: 25 })).toBe(0);
  });

  describe('the heuristic heads beyond a closed hatchway it may open', () => {
    // the only marker beyond the wall, 5.5" past the hatchway: a move that opens it on the way ends near it
    const MARKER = { x: 26.5, y: 14.5 };
    const game = (detachment: string | null) => battleSandbox([
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 17, y: 14.5 }, spacing: 0.8 },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 38, y: 5 }, spacing: 1 },
    ], {
      mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALL, hatchways: [HATCH], phase: 'movement', turn: 0, round: 2, cp: [3, 3],
      detachments: [detachment, null], factions: ['AE', 'TAU'], objectives: [{ id: 'o1', pos: MARKER }],
      agents: [createHeuristic(), scriptedAgent('tau')],
    });
    const markerScore = (detachment: string | null) => {
      const g = game(detachment);
      const options = moveOptions(g.state, g.state.units.DA);
      const i = options.findIndex((o) => 'toward' in o && o.toward === 'objective o1' && o.mode === 'normal');
      createHeuristic().decide({ state: g.state, player: 0 }, { kind: 'move', player: 0, prompt: 'move DA', options, context: { unit: 'DA' } });
      return lastOptionScores()[i];
    };

    it("the move toward the marker is scored where it ends through the doorway, not stopped at the wall", () => {
      // without the rule the planned move stops at the closed hatchway; with it the unit gets within range of the marker
      expect(markerScore("Khaine's Arrow")).toBeGreaterThan(markerScore(null) + 1);
    });

    it('played: the unit opens the hatchway on its way and goes into the doorway, nearer the marker than without the rule', () => {
      const played = (detachment: string | null) => {
        const g = game(detachment);
        moveUnit(g, g.state.units.DA);
        const pos = g.state.units.DA.models.filter((m) => m.alive).map((m) => m.pos!);
        const x = pos.reduce((t, p) => t + p.x, 0) / pos.length;
        const y = pos.reduce((t, p) => t + p.y, 0) / pos.length;
        return { open: isHatchwayOpen(g.state, 'h1'), front: Math.max(...pos.map((p) => p.x)), gap: Math.hypot(MARKER.x - x, MARKER.y - y) };
      };
      const rule = played("Khaine's Arrow");
      const none = played(null);
      expect(rule.open).toBe(true);
      // past the wall's near face (x 20): a closed hatchway stops every model short of it
      expect(rule.front).toBeGreaterThan(20.5);
      expect(none.front).toBeLessThan(20);
      expect(rule.gap).toBeLessThan(none.gap - 1);
    });
  });
});

