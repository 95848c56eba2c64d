/**
 * Duty's Echo (Starfire Cadre Enhancement, ETHEREAL): at the end of its player's Shooting phase, one friendly
 * FIRE WARRIOR or PATHFINDER TEAM unit within 6" of the bearer may make a Normal move of up to 3" (its Set
 * Overwatch is not played: the engine's Boarding Actions games have no Overwatch). It had no rule entry.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { ruleCoverage } from '../../src/factions/coverage.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';

function game(strikeTeamAt: { x: number; y: number }, turn: 0 | 1, pick: (r: DecisionRequest) => number) {
  const tau = scriptedAgent('tau', pick);
  return battleSandbox([
    { id: 'ET', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 10, y: 10 }, enhancement: "Duty's Echo" },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: strikeTeamAt },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 10 } },
  ], { phase: 'shooting', turn, round: 2, mode: 'boarding-actions', size: { width: 44, height: 30 }, detachments: ['Starfire Cadre', null], agents: [tau, scriptedAgent('ae')] });
}

describe("Duty's Echo", () => {
  it('at the end of its Shooting phase the Strike Team within 6" of the Ethereal is offered a Normal move; made, it goes up to 3"', () => {
    const asked: DecisionRequest[] = [];
    // pick the Strike Team, then the last destination offered
    const g = game({ x: 13, y: 10 }, 0, (r) => { asked.push(r); return r.kind === 'dutys-echo' ? 1 : r.kind === 'dutys-echo-move' ? r.options.length - 1 : 0; });
    const before = g.state.units.ST.models.map((m) => ({ ...m.pos! }));
    endPhase(g, 0, 'shooting');
    const offer = asked.find((r) => r.kind === 'dutys-echo')!;
    expect(offer.options).toEqual([{ none: true }, { unit: 'ST' }]);
    expect(asked.some((r) => r.kind === 'dutys-echo-move')).toBe(true);
    const moved = g.state.units.ST.models.map((m, i) => Math.hypot(m.pos!.x - before[i].x, m.pos!.y - before[i].y));
    expect(Math.max(...moved)).toBeGreaterThan(0.5);
    expect(Math.max(...moved)).toBeLessThanOrEqual(3 + 1e-6);
    expect(ruleCoverage("Duty's Echo").status).toBe('played');
  });

  it('not for a unit more than 6" from the bearer, nor in the opponent\'s turn', () => {
    for (const [at, turn] of [[{ x: 20, y: 10 }, 0], [{ x: 13, y: 10 }, 1]] as const) {
      const asked: DecisionRequest[] = [];
      const g = game(at, turn, (r) => { asked.push(r); return 0; });
      endPhase(g, turn, 'shooting');
      expect(asked.filter((r) => r.kind === 'dutys-echo')).toEqual([]);
    }
  });
});
