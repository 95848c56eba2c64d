/**
 * Core abilities played before the first battle round: Scouts and Infiltrators.
 */
import { describe, expect, it } from 'vitest';
import '../../src/factions/index.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { UnitState } from '../../src/core/state.ts';
import { horizontalDistance, horizontalDistanceToPolygon } from '../../src/geometry/distance.ts';
import { canInfiltrate, placeInfiltrator, scoutMove, scoutMoves, scoutsDistance } from '../../src/rules/battle/pre-battle.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { modelBody, unitCentre } from '../../src/rules/battle/world.ts';

function closest(g: Game, a: UnitState, b: UnitState): number {
  let best = Infinity;
  for (const m of a.models) for (const n of b.models) {
    if (m.alive && m.pos && n.alive && n.pos) best = Math.min(best, horizontalDistance(modelBody(g.state, m), modelBody(g.state, n)));
  }
  return best;
}

describe('Scouts', () => {
  function scouts(enemyX: number, pick?: (r: DecisionRequest) => number): Game {
    return battleSandbox([
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 6, y: 14 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 3, y: 14 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: enemyX, y: 14 } },
    ], { agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
  }

  it('x" from the datasheet; every part of an Attached unit must have it', () => {
    const g = scouts(40);
    expect(scoutsDistance(g.state, g.state.units.PF)).toBe(7);
    expect(scoutsDistance(g.state, g.state.units.ST)).toBe(0);
  });

  it('a DEDICATED TRANSPORT moves as far as its passengers\' Scouts when every one has it; not empty, nor with one that lacks it', () => {
    const transport = (passenger: string | null, pick?: (r: DecisionRequest) => number): Game => {
      const g = battleSandbox([
        { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 6, y: 20 } },
        ...(passenger ? [{ id: 'P', player: 0 as const, faction: 'tau' as const, name: passenger, at: { x: 3, y: 4 } }] : []),
        { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 14 } },
      ], { agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
      if (passenger) g.emit({ type: 'unit-location', unit: 'P', location: 'embarked', embarkedIn: 'DF' });
      return g;
    };
    const distance = (passenger: string | null) => { const s = transport(passenger).state; return scoutsDistance(s, s.units.DF); };
    expect(distance('Pathfinder Team')).toBe(7);
    expect(distance('Strike Team')).toBe(0);
    expect(distance(null)).toBe(0);
    // the Scout moves offer it, and it moves up to 7" toward the enemy
    let offered = false;
    const g = transport('Pathfinder Team', (r) => {
      if (r.kind !== 'scout-move') return 0;
      const i = r.options.findIndex((o) => (o as { unit?: string }).unit === 'DF' && (o as { toward?: string }).toward === 'enemy GD');
      offered ||= i >= 0;
      return Math.max(0, i);
    });
    const before = unitCentre(g.state.units.DF).x;
    scoutMoves(g);
    expect(offered).toBe(true);
    const moved = unitCentre(g.state.units.DF).x - before;
    expect(moved).toBeGreaterThan(5);
    expect(moved).toBeLessThanOrEqual(7 + 1e-6);
  });

  it('a Normal move of up to x" toward the chosen point', () => {
    const g = scouts(40);
    const before = unitCentre(g.state.units.PF).x;
    expect(scoutMove(g, g.state.units.PF, { x: 40, y: 20 })).toBe(true);
    const moved = unitCentre(g.state.units.PF).x - before;
    expect(moved).toBeGreaterThan(5);
    expect(moved).toBeLessThanOrEqual(7 + 1e-6);
  });

  it('ending more than 9" from every enemy model: the move is shortened', () => {
    const g = scouts(21); // 15" away: a full 7" move would end 8" away
    expect(scoutMove(g, g.state.units.PF, { x: 21, y: 20 })).toBe(true);
    const d = closest(g, g.state.units.PF, g.state.units.GD);
    expect(d).toBeGreaterThan(9);
    expect(d).toBeLessThan(11);
  });

  it('the player picks which Scouts units move, and where, or ends the Scout moves', () => {
    const asked: DecisionRequest[] = [];
    const g = scouts(40, (r) => {
      if (r.kind !== 'scout-move') return 0;
      asked.push(r);
      return r.options.findIndex((o) => (o as { toward?: string }).toward === 'enemy GD');
    });
    const before = unitCentre(g.state.units.PF).x;
    scoutMoves(g);
    // one question: the Strike Team has no Scouts, and a unit makes one Scout move
    expect(asked).toHaveLength(1);
    expect(asked[0].options.every((o) => 'done' in (o as object) || (o as { unit: string }).unit === 'PF')).toBe(true);
    expect(unitCentre(g.state.units.PF).x).toBeGreaterThan(before + 5);
    // "done": nothing moves
    const h = scouts(40, () => 0);
    const at = unitCentre(h.state.units.PF).x;
    scoutMoves(h);
    expect(unitCentre(h.state.units.PF).x).toBe(at);
  });
});

describe('Infiltrators', () => {
  it('set up anywhere more than 9" from the enemy deployment zone and from every enemy model', () => {
    const g = battleSandbox([
      { id: 'SB', player: 0, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 6, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 38, y: 16 } },
    ]);
    const SB = g.state.units.SB;
    expect(canInfiltrate(g.state, SB)).toBe(true);
    g.emit({ type: 'unit-location', unit: 'SB', location: 'unplaced', embarkedIn: null });
    expect(placeInfiltrator(g, g.state.units.SB, { x: 33, y: 20 })).toBe(true);
    const enemyZone = g.state.board.deploymentZones[1].polygon;
    for (const m of g.state.units.SB.models) {
      expect(horizontalDistanceToPolygon(modelBody(g.state, m), enemyZone)).toBeGreaterThan(9);
    }
    expect(closest(g, g.state.units.SB, g.state.units.GD)).toBeGreaterThan(9);
    expect(unitCentre(g.state.units.SB).x).toBeGreaterThan(12); // out of its own zone
  });

  it('in a game: Infiltrators are offered set-up points outside the zone; others only inside', () => {
    const sc = miniScenario({ tau: ['Stealth Battlesuits', 'Strike Team'], aeldari: ['Guardian Defenders'], terrain: false });
    const deployOptions: Record<string, number> = {};
    const tau = scriptedAgent('tau', (r) => {
      if (r.kind !== 'deploy') return 0;
      const opts = r.options as { unit: string; x: number; infiltrate?: true }[];
      for (const o of opts) if (o.infiltrate) deployOptions[o.unit] = (deployOptions[o.unit] ?? 0) + 1;
      const i = opts.findIndex((o) => o.infiltrate && o.x >= 24);
      return i >= 0 ? i : 0;
    });
    const g = createGame(sc, { seed: '7', agents: [tau, scriptedAgent('ae')] });
    expect(Object.keys(deployOptions)).toEqual(['p1-u1']);
    const SB = g.state.units['p1-u1'];
    expect(unitCentre(SB).x).toBeGreaterThan(18);
    for (const m of SB.models) expect(horizontalDistanceToPolygon(modelBody(g.state, m), sc.board.deploymentZones[1].polygon)).toBeGreaterThan(9);
  });
});
