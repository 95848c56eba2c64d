/**
 * Desperate Escape (core rules, Fall Back): a test for each model that moves over enemy models, models that
 * can FLY (and TITANIC ones) excepted, model by model. The engine excepted FLY only when every model of the
 * unit had it, so an Ethereal with a Hover Drone leading a Strike Team was tested when it alone flew over an
 * enemy model.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { createStream } from '../../src/core/rng.ts';
import type { Game } from '../../src/core/game.ts';
import type { PlannedMove } from '../../src/geometry/planner/types.ts';
import { completeFallBack } from '../../src/rules/battle/movement.ts';
import { modelHasKeyword } from '../../src/rules/battle/units.ts';

function setup(wargear: string[][]): Game {
  const g = battleSandbox([
    { id: 'E', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 10, y: 8.4 }, wargear },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
    // one enemy model in front of the Ethereal only (the Strike Team's paths along y >= 10 pass well clear of it)
    { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 8.5, y: 8.4 } },
  ], { phase: 'movement', turn: 0, stream: createStream('audit7-de') });
  g.emit({ type: 'unit-attached', leader: 'E', bodyguard: 'ST' });
  return g;
}

/** Every model of ST moves 8" straight toward -x; only the Ethereal's path crosses the Farseer. */
function fallBack(g: Game): number {
  const u = g.state.units.ST;
  const alive = u.models.filter((m) => m.alive);
  const farseer = g.state.units.FS.models[0];
  const plan: PlannedMove = {
    ok: true,
    positions: alive.map((m) => ({ x: m.pos!.x - 8, y: m.pos!.y, z: 0 })),
    paths: alive.map((m) => [{ x: m.pos!.x, y: m.pos!.y }, { x: m.pos!.x - 8, y: m.pos!.y }]),
    pathLengths: alive.map(() => 8),
    crossedEnemyModelIds: [farseer.id],
    reachedDestination: true,
    baseContact: alive.map(() => false),
  };
  completeFallBack(g, u, plan, { x: 2, y: 12 }, 8);
  return (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape').map((e) => (e as { values: number[] }).values.length).reduce((a, b) => a + b, 0);
}

describe('Desperate Escape: models that can FLY are exempt, model by model', () => {
  it('control: the Ethereal on foot passing over the Farseer takes one test', () => {
    expect(fallBack(setup([]))).toBe(1);
  });

  it('the Ethereal with a Hover Drone (FLY) passing over the Farseer takes no test, though his Strike Team cannot FLY', () => {
    const g = setup([['Hover Drone']]);
    const ethereal = g.state.units.ST.models.find((m) => m.origin === 'E')!;
    expect(modelHasKeyword(g.state, ethereal, 'FLY')).toBe(true);
    expect(fallBack(g), 'Desperate Escape tests taken (the only model moving over an enemy model can FLY)').toBe(0);
  });
});
