/**
 * Desperate Escape next to an oval base: a model is tested when its own base, swept along its path, passes over
 * an enemy model's base. The engine compared the path with the two bases' bounding radii, exact for round bases
 * only: a model passing beside a Vyper's narrow side (its oval is 105mm long, 70mm wide) was tested too.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { createStream } from '../../src/core/rng.ts';
import type { PlannedMove } from '../../src/geometry/planner/types.ts';
import { completeFallBack } from '../../src/rules/battle/movement.ts';
import { modelBase, modelBody } from '../../src/rules/battle/world.ts';
import { pathOverlapsBase } from '../../src/geometry/pathing.ts';

describe('Desperate Escape beside an oval base', () => {
  it('of two Fire Warriors falling back past a Vyper, the one whose base passes over it is tested; the one 0.3" clear of its narrow side is not', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 } },
      { id: 'V', player: 1, faction: 'aeldari', name: 'Vypers', at: { x: 16, y: 10 } },
    ], { phase: 'movement', turn: 0, stream: createStream('de-oval'), objectives: [] });
    const s = g.state;
    const vyper = modelBody(s, s.units.V.models[0]);
    const st = s.units.ST.models;
    const r = (modelBase(s, st[0]) as { r: number }).r;
    const ry = (vyper.base as { ry: number }).ry;
    // model 0 straight through the Vyper's centre, model 1 along its side 0.3" clear, the rest far off
    const ys = st.map((_, i) => (i === 0 ? 10 : i === 1 ? 10 + ry + r + 0.3 : 25 + 1.2 * i));
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: st.map((m, i) => ({ model: m.id, pos: { x: 20, y: ys[i], z: 0 } })) });
    const paths = ys.map((y) => [{ x: 20, y }, { x: 12, y }]);
    // the set-up: only model 0's base passes over the Vyper's, though model 1's path is within the two bounding radii
    expect(paths.map((p) => pathOverlapsBase(modelBase(s, st[0]), p, vyper))).toEqual(ys.map((_, i) => i === 0));
    expect(ys[1] - 10).toBeLessThan((vyper.base as { rx: number }).rx + r);
    const plan: PlannedMove = {
      ok: true, positions: ys.map((y) => ({ x: 12, y, z: 0 })), paths, pathLengths: ys.map(() => 8),
      crossedEnemyModelIds: [s.units.V.models[0].id], reachedDestination: true, baseContact: ys.map(() => false),
    };
    completeFallBack(g, g.state.units.ST, plan, { x: 12, y: 10 }, 8);
    const tests = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
    expect(tests).toBe(1);
  });
});
