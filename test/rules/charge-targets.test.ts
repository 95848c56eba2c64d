import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { MAX_TARGET_SETS, chargeTargetSets, declareCharge, targetSets } from '../../src/rules/battle/charge.ts';
import { modelBase, unitDistance, unitsInEngagement } from '../../src/rules/battle/world.ts';
import { baseBoundingRadius } from '../../src/geometry/shape.ts';

function radius(g: Game, unit: string): number {
  return baseBoundingRadius(modelBase(g.state, g.state.units[unit].models[0]));
}

/** Put a single-model unit's model at a point. */
function place(g: Game, unit: string, x: number, y: number): void {
  g.emit({ type: 'models-placed', unit, mode: 'test', positions: [{ model: g.state.units[unit].models[0].id, pos: { x, y, z: 0 } }] });
}

/**
 * A Cadre Fireblade (A) and three Autarchs: B 9.5" east of it (edge to edge), C `cGap`" from it to the
 * north-east, D 14" away (out of charge reach). The Fireblade's agent declares `pick` (a '+'-joined set).
 */
function setup(dice: number[], pick: string, cAt: (g: Game) => { x: number; y: number }) {
  const offered: string[][] = [];
  const tau = scriptedAgent('tau', (r: DecisionRequest) => {
    if (r.kind !== 'charge-targets') return 0;
    const sets = (r.options as { targets: string[] }[]).map((o) => o.targets.join('+'));
    offered.push(sets);
    return sets.indexOf(pick);
  });
  const g = battleSandbox([
    { id: 'A', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 20 } },
    { id: 'B', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 40, y: 20 } },
    { id: 'C', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 40, y: 30 } },
    { id: 'D', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 50, y: 40 } },
  ], { stream: scriptedStream(dice), phase: 'charge', agents: [tau, scriptedAgent('ae')] });
  const rA = radius(g, 'A');
  const rB = radius(g, 'B');
  place(g, 'B', 20 + 9.5 + rA + rB, 20);
  const c = cAt(g);
  place(g, 'C', c.x, c.y);
  place(g, 'D', 20 + 14 + rA + rB, 5);
  return { g, offered };
}

describe('Charge targets: one unit or several', () => {
  it('every set of the units within 12" is offered, each unit alone first; a unit beyond 12" is in none', () => {
    const { g, offered } = setup([6, 6], 'B', (g) => ({ x: 20 + 6 + radius(g, 'A') + radius(g, 'C'), y: 26 }));
    expect(unitDistance(g.state, g.state.units.A, g.state.units.D)).toBeGreaterThan(12);
    expect(chargeTargetSets(g, g.state.units.A).map((o) => o.targets.join('+'))).toEqual(['B', 'C', 'B+C']);
    declareCharge(g, g.state.units.A);
    expect(offered).toEqual([['B', 'C', 'B+C']]);
  });

  it('a charge against two units must end within Engagement Range of both: a roll that reaches the nearer alone fails', () => {
    // C 11.5" away: a Charge roll of 9 reaches B (8.5" needed) but not C
    const cAt = (g: Game) => {
      const d = 11.5 + radius(g, 'A') + radius(g, 'C');
      return { x: 20 + d * Math.cos(0.6), y: 20 + d * Math.sin(0.6) };
    };
    const both = setup([4, 5], 'B+C', cAt);
    expect(unitDistance(both.g.state, both.g.state.units.A, both.g.state.units.C)).toBeCloseTo(11.5, 9);
    const from = { ...both.g.state.units.A.models[0].pos! };
    expect(declareCharge(both.g, both.g.state.units.A)).toBe(false);
    expect(both.g.state.units.A.flags.charged).toBe(false);
    expect(both.g.state.units.A.models[0].pos).toMatchObject({ x: from.x, y: from.y });
    // the same dice with B alone: the charge is made
    const one = setup([4, 5], 'B', cAt);
    expect(declareCharge(one.g, one.g.state.units.A)).toBe(true);
    expect(unitsInEngagement(one.g.state, one.g.state.units.A, one.g.state.units.B)).toBe(true);
  });

  it('a charge against two units that are made ends within Engagement Range of both, and of no other enemy unit', () => {
    // C just north of B, 1.2" between their bases: the Fireblade can end between them
    const { g } = setup([6, 6], 'B+C', (g) => ({ x: g.state.units.B.models[0].pos!.x, y: 20 + 2 * radius(g, 'B') + 1.2 }));
    expect(declareCharge(g, g.state.units.A)).toBe(true);
    const s = g.state;
    expect(unitsInEngagement(s, s.units.A, s.units.B)).toBe(true);
    expect(unitsInEngagement(s, s.units.A, s.units.C)).toBe(true);
    expect(unitsInEngagement(s, s.units.A, s.units.D)).toBe(false);
    expect(s.units.A.flags.charged).toBe(true);
  });

  it('sets are offered size by size while they fit in MAX_TARGET_SETS; single targets always', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `U${i}`);
    const sizes = (n: number) => targetSets(ids(n)).map((o) => o.targets.length);
    // 3 units: 3 + 3 + 1
    expect(sizes(3)).toEqual([1, 1, 1, 2, 2, 2, 3]);
    expect(targetSets(ids(3)).map((o) => o.targets.join('+'))).toEqual(['U0', 'U1', 'U2', 'U0+U1', 'U0+U2', 'U1+U2', 'U0+U1+U2']);
    // 10 units: all 1,023 sets fit
    expect(sizes(10).length).toBe(1023);
    // 11 units: 11 + 55 + 165 + 330 + 462 = 1,023 sets up to five units; the 462 of six would pass the limit
    expect(MAX_TARGET_SETS).toBe(1024);
    expect(sizes(11).length).toBe(1023);
    expect(Math.max(...sizes(11))).toBe(5);
    // 12 units: 12 + 66 + 220 + 495 = 793 up to four (the 792 of five would pass it)
    expect(sizes(12).length).toBe(793);
    expect(Math.max(...sizes(12))).toBe(4);
    // every set is distinct and in the units' order
    const keys = targetSets(ids(11)).map((o) => o.targets.join('+'));
    expect(new Set(keys).size).toBe(keys.length);
    for (const o of targetSets(ids(11))) expect([...o.targets].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(o.targets);
    // 40 units (no board holds that many in reach, but the decision stays bounded): the singles and pairs
    expect(sizes(40).length).toBe(40 + 780);
  });
});
