import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { foldEvents } from '../../src/core/reducer.ts';
import { cloneState } from '../../src/core/clone.ts';
import type { HatchwayState } from '../../src/core/state.ts';
import type { Agent } from '../../src/core/agent.ts';
import { boardOf, unitSees } from '../../src/rules/battle/world.ts';
import { executeMove, moveUnit } from '../../src/rules/battle/movement.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { hatchwayOptions, hatchwayStep, setHatchway } from '../../src/rules/battle/hatchways.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';
import { resolveScenario } from '../../src/data/scenario.ts';

/**
 * A Boarding Actions board cut in two by a 2"-thick wall at x 20-22, with one hatchway in it at
 * y 13-16 (closed unless `open`), and a Cadre Fireblade west of the wall facing an Autarch east of it.
 */
const WALL = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];
const HATCH: HatchwayState = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };

function ship(opts: { open?: boolean; agents?: [Agent, Agent]; fireblade?: { x: number; y: number }; autarch?: { x: number; y: number } } = {}) {
  return battleSandbox([
    { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: opts.fireblade ?? { x: 16, y: 14.5 } },
    { id: 'A', player: 1, faction: 'aeldari', name: 'Autarch', at: opts.autarch ?? { x: 28, y: 14.5 } },
  ], {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALL,
    hatchways: [{ ...HATCH, ...(opts.open ? { startsOpen: true } : {}) }], agents: opts.agents,
  });
}

const east = (x: number) => x > 22;

describe('walls', () => {
  it('block sight: models on either side of a wall do not see each other', () => {
    const g = ship({ fireblade: { x: 16, y: 5 }, autarch: { x: 28, y: 5 } });
    expect(unitSees(g.state, g.state.units.F, g.state.units.A)).toBe(false);
    // opening the hatchway further along the wall does not open a line through the wall itself
    setHatchway(g, 'h1', true, null);
    expect(unitSees(g.state, g.state.units.F, g.state.units.A)).toBe(false);
  });

  it('block movement: a move toward a point beyond the wall never crosses it', () => {
    const g = ship({ fireblade: { x: 16, y: 5 } });
    const plan = planUnit(g.state, g.state.units.F, 'normal', { maxDistance: 6, destination: { x: 26, y: 5 } });
    // it gets as close as it can: up against the wall
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.positions[0].x).toBeGreaterThan(19);
    expect(plan.positions[0].x).toBeLessThan(20);
    for (const path of plan.paths) for (const q of path) expect(q.x).toBeLessThan(20);
  });
});

describe('hatchways', () => {
  it('a closed hatchway is a wall: it blocks sight and movement', () => {
    const g = ship();
    expect(boardOf(g.state).terrain.map((t) => `${t.id}:${t.kind}`)).toEqual(['wall-n:wall', 'wall-s:wall', 'h1:wall']);
    expect(unitSees(g.state, g.state.units.F, g.state.units.A)).toBe(false);
    const plan = planUnit(g.state, g.state.units.F, 'normal', { maxDistance: 8, destination: { x: 26, y: 14.5 } });
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.positions[0].x).toBeLessThan(20);
  });

  it('an open hatchway is a gap: the geometry sees through it and models move through it', () => {
    const g = ship({ open: true });
    expect(boardOf(g.state).terrain.map((t) => t.id)).toEqual(['wall-n', 'wall-s']);
    expect(unitSees(g.state, g.state.units.F, g.state.units.A)).toBe(true);
    const plan = planUnit(g.state, g.state.units.F, 'normal', { maxDistance: 8, destination: { x: 26, y: 14.5 } });
    if (!plan.ok) throw new Error(plan.reason);
    expect(east(plan.positions[0].x)).toBe(true);
  });

  it('opening one is an event: the state, the geometry (its cache), sight and shooting follow it, and a fold of the log agrees', () => {
    const g = ship({ fireblade: { x: 16, y: 14.5 }, autarch: { x: 28, y: 14.5 } });
    const closedBoard = boardOf(g.state);
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    expect(canShoot(g, g.state.units.F)).toBe(false);
    setHatchway(g, 'h1', true, 'F');
    const e = g.log!.at(-1)!;
    expect(e).toEqual({ type: 'hatchway', hatchway: 'h1', open: true, unit: 'F' });
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(boardOf(g.state)).not.toBe(closedBoard);
    expect(unitSees(g.state, g.state.units.F, g.state.units.A)).toBe(true);
    expect(canShoot(g, g.state.units.F)).toBe(true);
    // closing it again brings the wall back
    setHatchway(g, 'h1', false, 'F');
    expect(g.state.openHatchways).toEqual([]);
    expect(unitSees(g.state, g.state.units.F, g.state.units.A)).toBe(false);
    // the log alone rebuilds the state (the game-started board is not mutated by the hatchway events)
    expect(foldEvents(g.log!)).toEqual(g.state);
    expect(g.log![0].type === 'game-started' && g.log![0].board.hatchways).toEqual([HATCH]);
  });

  it('a copy of the state (lookahead) opens its own hatchways without touching the original', () => {
    const g = ship();
    const copy = cloneState(g.state);
    const before = boardOf(g.state);
    copy.openHatchways = ['h1'];
    expect(boardOf(copy).terrain).toHaveLength(2);
    expect(boardOf(g.state)).toBe(before);
    expect(boardOf(g.state).terrain).toHaveLength(3);
  });

  it('only a unit within 1" may open or close it, and not while a model stands in it', () => {
    const far = ship({ fireblade: { x: 10, y: 14.5 } });
    expect(hatchwayOptions(far.state, far.state.units.F)).toEqual([]);
    const near = ship({ fireblade: { x: 19, y: 14.5 } });
    expect(hatchwayOptions(near.state, near.state.units.F)).toEqual([{ hatchway: 'h1', open: true }]);
    const open = ship({ open: true, fireblade: { x: 19, y: 14.5 } });
    expect(hatchwayOptions(open.state, open.state.units.F)).toEqual([{ hatchway: 'h1', open: false }]);
    // a model in the doorway keeps it open
    open.emit({ type: 'models-placed', unit: 'A', mode: 'test', positions: [{ model: open.state.units.A.models[0].id, pos: { x: 21, y: 14.5, z: 0 } }] });
    expect(hatchwayOptions(open.state, open.state.units.F)).toEqual([]);
  });

  it('the player decides, when the unit is selected to move and again after its move', () => {
    const asked: string[] = [];
    const tau = scriptedAgent('tau', (r) => {
      if (r.kind === 'hatchway') { asked.push(JSON.stringify(r.options)); return 0; }
      if (r.kind === 'move') return r.options.findIndex((o) => (o as { mode: string; toward?: string }).mode === 'normal' && (o as { toward?: string }).toward === 'enemy A');
      return 0;
    });
    const g = ship({ fireblade: { x: 19, y: 14.5 }, agents: [tau, scriptedAgent('ae')] });
    moveUnit(g, g.state.units.F);
    // before the move: open it (the first option), then the unit walks through toward the Autarch
    expect(asked[0]).toBe(JSON.stringify([{ hatchway: 'h1', open: true }, { keep: true }]));
    expect(g.log!.filter((e) => e.type === 'hatchway')).toEqual([{ type: 'hatchway', hatchway: 'h1', open: true, unit: 'F' }]);
    expect(east(g.state.units.F.models[0].pos!.x)).toBe(true);
  });

  it('a player who keeps it closed stays behind it', () => {
    const keep = scriptedAgent('tau', (r) => (r.kind === 'hatchway' ? r.options.findIndex((o) => 'keep' in (o as object)) : 0));
    const g = ship({ fireblade: { x: 19, y: 14.5 }, agents: [keep, scriptedAgent('ae')] });
    hatchwayStep(g, g.state.units.F);
    executeMove(g, g.state.units.F, { mode: 'normal', to: { x: 28, y: 14.5 }, toward: 'enemy A' });
    expect(g.state.openHatchways).toEqual([]);
    expect(g.state.units.F.models[0].pos!.x).toBeLessThan(20);
  });
});

describe('scenario files', () => {
  const army = (faction: 'TAU' | 'AE') => ({
    name: 'x', faction, detachment: '', battleSize: { name: 'Boarding Actions', pointsLimit: 500 }, points: 50,
    units: faction === 'TAU'
      ? [{ id: 'u1', datasheetId: '000000405', name: 'Cadre Fireblade', points: 50, warlord: true, models: [{ profile: 'Cadre Fireblade', count: 1, weapons: ['Fireblade pulse rifle', 'Close combat weapon'] }] }]
      : [{ id: 'u1', datasheetId: '000000582', name: 'Farseer', points: 70, warlord: true, models: [{ profile: 'Farseer', count: 1, weapons: ['Eldritch Storm', 'Shuriken pistol', 'Witchblade'] }] }],
  });
  const file = (over: Record<string, unknown> = {}) => ({
    name: 'ba', mode: 'boarding-actions',
    mission: { deployment: { zones: [[[0, 0], [8, 0], [8, 30], [0, 30]], [[36, 0], [44, 0], [44, 30], [36, 30]]], objectives: [[22, 15]] }, rounds: 4, primary: 'take-and-hold', params: { vpPerObjective: 3 } },
    terrain: WALL, hatchways: [{ id: 'h1', polygon: [[20, 13], [22, 13], [22, 16], [20, 16]] }, { id: 'h2', polygon: [[30, 13], [32, 13], [32, 16], [30, 16]], open: true }],
    players: [{ army: army('TAU'), detachment: null }, { army: army('AE'), detachment: null }],
    ...over,
  });

  it('give the board, walls, hatchways (closed unless "open"), zones, objectives, game length and scoring', () => {
    const sc = resolveScenario(file(), 'ba.json');
    expect(sc.board).toMatchObject({ width: 44, height: 30 });
    expect(sc.board.terrain.map((t) => t.kind)).toEqual(['wall', 'wall']);
    expect(sc.board.hatchways).toEqual([
      { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] },
      { id: 'h2', polygon: [{ x: 30, y: 13 }, { x: 32, y: 13 }, { x: 32, y: 16 }, { x: 30, y: 16 }], startsOpen: true },
    ]);
    expect(sc.objectives).toEqual([{ id: '1', pos: { x: 22, y: 15 } }]);
    expect(sc.mission).toMatchObject({ mode: 'boarding-actions', rounds: 4, primary: 'take-and-hold', params: { vpPerObjective: 3 } });
    expect(sc.pointsLimit).toBe(500);
  });

  it('name a bad hatchway by its field', () => {
    expect(() => resolveScenario(file({ hatchways: [{ id: 'h1', polygon: [[20, 13], [50, 13], [22, 16]] }] }), 'ba.json')).toThrow(/hatchways\[0\]\.polygon\[1\]: expected a point on the 44" x 30" board/);
    expect(() => resolveScenario(file({ hatchways: [{ id: 'wall-n', polygon: [[20, 13], [22, 13], [22, 16]] }] }), 'ba.json')).toThrow(/hatchways\[0\]\.id: duplicate terrain piece or hatchway id "wall-n"/);
    expect(() => resolveScenario(file({ hatchways: [{ id: 'h1', polygon: [[20, 13], [22, 13], [22, 16]], shut: true }] }), 'ba.json')).toThrow(/hatchways\[0\]/);
  });
});
