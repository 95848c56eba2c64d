/**
 * Protector Host (Aeldari, Boarding Actions): Determined Defence, VOID GHOSTS, SHURIKEN STORM, RAPID AMBUSH,
 * Grace of Khaine, Rallying Cry, and what is registered as not played (SHIELD OF BLADES), each against the
 * same situation without it.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { HatchwayState, PhaseName } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { hatchwayStep } from '../../src/rules/battle/hatchways.ts';
import { moveUnit } from '../../src/rules/battle/movement.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { SHURIKEN_STORM_WEAPONS } from '../../src/factions/aeldari/boarding-protector-host.ts';
import { SHURIKEN_STORM_WEAPONS as HEURISTIC_SHURIKEN } from '../../agents/heuristic.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCENARIOS_DIR, loadScenario, resolveScenario } from '../../src/data/scenario.ts';
import { loadAgents } from '../../src/core/agent-loader.ts';
import { foldEvents } from '../../src/core/reducer.ts';
import { playGame } from '../../src/sim/play.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { pointInPolygon } from '../../src/geometry/polygon.ts';

/** The zone index of the Aeldari (player 2) as the game has it. */
const sc1Zone = (g: Game) => g.state.board.deploymentZones.findIndex((z) => z.player === 1);
import { unitsOnBattlefield } from '../../src/rules/battle/units.ts';

const FILE = join(SCENARIOS_DIR, 'boarding-actions', 'starfire-vs-aeldari.json');

const WALL = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];
const HATCH: HatchwayState = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };

/** An agent that uses the named stratagem whenever it is offered, otherwise answers with `then`. */
function using(name: string | null, then: (r: DecisionRequest) => number = () => 0, asked: string[] = []): Agent {
  return scriptedAgent(`uses ${name}`, (r) => {
    asked.push(r.kind);
    return r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : then(r);
  });
}

function ship(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: 0 | 1; ae?: Agent; detachment?: string | null; stream?: Stream; walls?: boolean } = {}): Game {
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: opts.walls === false ? [] : WALL, hatchways: opts.walls === false ? [] : [HATCH],
    phase: opts.phase ?? 'movement', turn: opts.turn ?? 0, round: 2, cp: [3, 3],
    detachments: [null, opts.detachment === undefined ? 'Protector Host' : opts.detachment],
    agents: [scriptedAgent('tau'), opts.ae ?? using(null)], ...(opts.stream ? { stream: opts.stream } : {}),
  });
}

const offered = (g: Game, w: Window, p: 0 | 1) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`);

describe('Determined Defence (Protector Host)', () => {
  // the board's one objective marker is at its centre (22, 15)
  const units: PlacedUnit[] = [
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 20 }, spacing: 1 },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 23, y: 14 }, spacing: 0.8 },
    { id: 'FAR', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 2 }, spacing: 0.8 },
    { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', at: { x: 21, y: 15 }, spacing: 0.8 },
  ];

  it('+1 to the armour save of a DIRE AVENGERS unit within range of an objective marker; not away from one, not for other units, not without the detachment', () => {
    const g = ship(units, { walls: false });
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').saveModifier).toBe(1);
    expect(planFor(g, 'ST', 'FAR', 'Pulse rifle').saveModifier).toBe(0);
    expect(planFor(g, 'ST', 'HB', 'Pulse rifle').saveModifier).toBe(0);
    const none = ship(units, { walls: false, detachment: null });
    expect(planFor(none, 'ST', 'DA', 'Pulse rifle').saveModifier).toBe(0);
  });

  it('armour only: the invulnerable save is not changed', () => {
    const g = ship(units, { walls: false });
    const p = planFor(g, 'ST', 'DA', 'Pulse rifle');
    expect([p.invulnerableModifier, p.invulnerable]).toEqual([0, null]);
  });
});

describe('VOID GHOSTS (Protector Host)', () => {
  it('just after an enemy unit selected an AELDARI unit as its target in the Shooting phase: -1 to its Hit rolls this phase', () => {
    const g = ship([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 20 }, spacing: 1 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 14, y: 5 }, spacing: 0.8 },
    ], { walls: false, phase: 'shooting', ae: using('VOID GHOSTS') });
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['GD'] };
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').hitModifier).toBe(0);
    expect(offered(g, w, 1)).toEqual(['VOID GHOSTS>GD']);
    expect(openWindow(g, w)).toEqual(['VOID GHOSTS']);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').hitModifier).toBe(-1);
    expect(g.state.players[1].cp).toBe(2);
  });
});

describe('SHURIKEN STORM (Protector Host)', () => {
  it('+1 Strength for the shuriken catapults and cannon of the unit selected to shoot, this phase; not for other weapons', () => {
    const g = ship([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 20 }, spacing: 1 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 14, y: 5 }, spacing: 0.8 },
      { id: 'FD', player: 1, faction: 'aeldari', name: 'Fire Dragons', at: { x: 10, y: 5 }, spacing: 0.8 },
    ], { walls: false, phase: 'shooting', turn: 1, ae: using('SHURIKEN STORM') });
    const before = [planFor(g, 'GD', 'ST', 'Shuriken catapult').strength, planFor(g, 'GD', 'ST', 'Shuriken cannon').strength];
    // Fire Dragons carry none of the named weapons: not offered
    expect(offered(g, { name: 'shooting/unit-selected', unit: 'FD', targets: [] }, 1)).toEqual([]);
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'GD', targets: [] })).toEqual(['SHURIKEN STORM']);
    expect([planFor(g, 'GD', 'ST', 'Shuriken catapult').strength, planFor(g, 'GD', 'ST', 'Shuriken cannon').strength]).toEqual([before[0] + 1, before[1] + 1]);
    expect(planFor(g, 'GD', 'ST', 'Close combat weapon').strength).toBe(planFor(ship([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 20 }, spacing: 1 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 14, y: 5 }, spacing: 0.8 },
    ], { walls: false }), 'GD', 'ST', 'Close combat weapon').strength);
  });

  it('the heuristic prices it with the same weapons', () => {
    expect(HEURISTIC_SHURIKEN).toEqual(SHURIKEN_STORM_WEAPONS);
  });
});

describe('RAPID AMBUSH (Protector Host)', () => {
  const units = (avengersAt: { x: number; y: number }): PlacedUnit[] => [
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 19, y: 12.5 }, spacing: 1 },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: avengersAt, spacing: 0.8 },
    { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', at: { x: 24, y: 12 }, spacing: 0.8 },
  ];

  it('just after an enemy unit opens a hatchway: a DIRE AVENGERS unit across it within 9" and seeing it inflicts 2 mortal wounds on a 6, then makes a Normal move of up to D6"', () => {
    const asked: string[] = [];
    // the D6 for mortal wounds (6), then the D6 of the move (4)
    const g = ship(units({ x: 25, y: 13 }), { ae: using('RAPID AMBUSH', (r) => (r.kind === 'rapid-ambush' ? 1 : 0), asked), stream: scriptedStream([6, 4]) });
    const before = g.state.units.DA.models.map((m) => m.pos!);
    hatchwayStep(g, g.state.units.ST);
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(g.state.players[1].stratagemsUsed.map((u) => `${u.name}>${u.unit}`)).toEqual(['RAPID AMBUSH>DA']);
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(3);
    expect(asked).toContain('rapid-ambush');
    const after = g.state.units.DA.models.map((m) => m.pos!);
    const moved = Math.max(...after.map((p, i) => Math.hypot(p.x - before[i].x, p.y - before[i].y)));
    // the scripted 4": more than a D3 could give, no more than the 4
    expect(moved).toBeGreaterThan(3);
    expect(moved).toBeLessThanOrEqual(4 + 1e-6);
  });

  it('a unit its mortal wounds destroy as it opens the hatchway before moving is not asked to move (audit 16)', () => {
    const asked: string[] = [];
    const tau = scriptedAgent('tau', (r) => { asked.push(r.kind); return 0; });
    const g = battleSandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 19, y: 14.5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 25, y: 13 }, spacing: 0.8 },
    ], { mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALL, hatchways: [HATCH], phase: 'movement', turn: 0, round: 2, cp: [3, 3],
      detachments: [null, 'Protector Host'], agents: [tau, using('RAPID AMBUSH')], stream: scriptedStream([6, 4, ...Array(8).fill(3)]) });
    const f = g.state.units.F.models[0];
    g.emit({ type: 'model-damaged', unit: 'F', model: f.id, wounds: f.wounds - 1, by: null, mortal: false });
    moveUnit(g, g.state.units.F);
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(g.state.units.F.location).toBe('destroyed');
    expect(asked).not.toContain('move');
    expect((g.log ?? []).some((e) => e.type === 'unit-moved' && e.unit === 'F')).toBe(false);
  });

  it('a 1 does nothing: no mortal wound, no move', () => {
    const asked: string[] = [];
    const g = ship(units({ x: 25, y: 13 }), { ae: using('RAPID AMBUSH', () => 1, asked), stream: scriptedStream([1]) });
    const before = JSON.stringify(g.state.units.DA.models.map((m) => m.pos));
    hatchwayStep(g, g.state.units.ST);
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(5);
    expect(asked).not.toContain('rapid-ambush');
    expect(JSON.stringify(g.state.units.DA.models.map((m) => m.pos))).toBe(before);
  });

  it('not for a unit more than 9" away, nor for Howling Banshees, nor in its own turn', () => {
    const g = ship(units({ x: 32, y: 13 }));
    const w: Window = { name: 'movement/hatchway-opened', unit: 'ST', targets: [], data: { hatchway: 'h1' } };
    g.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: 'ST' });
    expect(offered(g, w, 1)).toEqual([]);
    const near = ship(units({ x: 25, y: 13 }));
    near.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: 'ST' });
    expect(offered(near, w, 1)).toEqual(['RAPID AMBUSH>DA']);
    const own = ship(units({ x: 25, y: 13 }), { turn: 1 });
    own.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: 'ST' });
    expect(offered(own, w, 1)).toEqual([]);
  });
});

describe('Protector Host Enhancements and what is not played', () => {
  it('Grace of Khaine: the bearer re-rolls Hit, Wound and Damage rolls of 1', () => {
    const units = (enhancement?: string): PlacedUnit[] => [
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 20 }, spacing: 1 },
      { id: 'AU', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 14, y: 5 }, ...(enhancement ? { enhancement } : {}) },
    ];
    const g = ship(units('Grace of Khaine'), { walls: false });
    const p = planFor(g, 'AU', 'ST', 'Star glaive');
    expect([p.rerollHits, p.rerollWounds, p.rerollDamageOnes]).toEqual(['ones', 'ones', true]);
    const q = planFor(ship(units(), { walls: false }), 'AU', 'ST', 'Star glaive');
    expect([q.rerollHits, q.rerollWounds, q.rerollDamageOnes]).toEqual(['none', 'none', false]);
  });

  it('SHIELD OF BLADES (Overwatch) is registered as not played, with no window', () => {
    const s = allStratagems().find((x) => x.source === 'Protector Host' && x.name === 'SHIELD OF BLADES')!;
    expect(s.windows).toEqual([]);
    expect(s.missing).toMatch(/Overwatch/);
    expect(getRule('Rallying Cry')?.missing).toBeUndefined();
    expect(allStratagems().filter((x) => x.source === 'Protector Host').map((x) => x.name).sort()).toEqual(['RAPID AMBUSH', 'SHIELD OF BLADES', 'SHURIKEN STORM', 'VOID GHOSTS']);
  });

  it('Rallying Cry: when the bearer is set up, two GUARDIANS units are set up in its zone at once, before the other player sets up a unit', () => {
    // the Protector Host army with the Autarch (u2) carrying it, and two more Guardian Defenders units (u7, u8)
    const deploy = (enhancement: boolean, pick: (r: DecisionRequest) => number) => {
      const raw = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'boarding-actions', 'starfire-vs-protector-host.json'), 'utf8'));
      const file = join(SCENARIOS_DIR, 'boarding-actions', 'starfire-vs-protector-host.json');
      const army = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'armies', 'aeldari-boarding-host.json'), 'utf8'));
      const gd = army.units.find((u: { id: string }) => u.id === 'u3');
      army.units.push({ ...gd, id: 'u7' }, { ...gd, id: 'u8' });
      army.points += 2 * gd.points;
      army.battleSize = { ...army.battleSize, pointsLimit: 1000 };
      if (enhancement) army.units.find((u: { id: string }) => u.id === 'u2').enhancement = 'Rallying Cry';
      raw.players[1].army = army;
      const sc = resolveScenario(raw, file);
      const asked: DecisionRequest[] = [];
      const agent = (name: string, me: 0 | 1): Agent => ({
        name, decide: (_v, r) => {
          if (r.kind === 'rallying-cry') asked.push(r);
          // each player sets up its units in army order; the Autarch first for the Aeldari
          if (r.kind === 'deploy' && me === 1) return { option: Math.max(0, r.options.findIndex((o) => (o as { unit: string }).unit === 'p2-u2')) };
          return { option: pick(r) };
        },
      });
      const g = createGame(sc, { seed: 'rally', agents: [agent('tau', 0), agent('ae', 1)], log: true });
      const placed = g.log!.filter((e) => e.type === 'models-placed' && e.mode === 'deploy').map((e) => (e as { unit: string }).unit);
      return { g, asked, placed };
    };
    // the new Guardian Defenders units (not u3, which the Farseer leads) each time; the first option is "no more"
    const { g, asked, placed } = deploy(true, (r) => (r.kind === 'rallying-cry' ? r.options.findIndex((o) => 'unit' in (o as object) && (o as { unit: string }).unit !== 'p2-u3') : 0));
    expect(asked).toHaveLength(2);
    expect(asked[0].options[0]).toEqual({ done: true });
    // every GUARDIANS unit not yet set up (the Farseer's Guardian Defenders too), no other
    expect([...new Set(asked[0].options.slice(1).map((o) => (o as { unit: string }).unit))]).toEqual(['p2-u3', 'p2-u7', 'p2-u8']);
    // the Autarch, then at once the two Guardian Defenders units, then the T'au set up their next unit
    const at = placed.indexOf('p2-u2');
    expect(placed.slice(at, at + 3)).toEqual(['p2-u2', 'p2-u7', 'p2-u8']);
    expect(placed[at + 3]?.startsWith('p1-')).toBe(true);
    const zone = g.state.board.deploymentZones[sc1Zone(g)].polygon;
    for (const id of ['p2-u7', 'p2-u8']) for (const m of g.state.units[id].models) expect(pointInPolygon(m.pos!, zone)).toBe(true);
    // declined, or without the Enhancement: the T'au set up a unit next
    const declined = deploy(true, () => 0);
    expect(declined.asked).toHaveLength(1);
    expect(declined.placed[declined.placed.indexOf('p2-u2') + 1]?.startsWith('p1-')).toBe(true);
    const plain = deploy(false, () => 0);
    expect(plain.asked).toEqual([]);
  });

  it('Protector Host is a Boarding Actions detachment: played in a Boarding Actions scenario, refused in a Strike Force one', () => {
    const raw = JSON.parse(readFileSync(FILE, 'utf8'));
    raw.players[1].detachment = 'Protector Host';
    expect(resolveScenario(raw, FILE).players[1].detachment).toBe('Protector Host');
    delete raw.mode;
    expect(() => resolveScenario(raw, FILE)).toThrow(/Protector Host is a Boarding Actions detachment/);
  });
});

describe('scenarios/boarding-actions/starfire-vs-protector-host.json', () => {
  const file = join(SCENARIOS_DIR, 'boarding-actions', 'starfire-vs-protector-host.json');

  it('is the bundled Boarding Actions game with the Aeldari playing Protector Host', () => {
    const sc = loadScenario(file);
    const base = loadScenario(FILE);
    expect(sc.mission).toMatchObject({ mode: 'boarding-actions', rounds: 5 });
    expect(sc.players.map((p) => p.detachment)).toEqual(['Starfire Cadre', 'Protector Host']);
    expect(sc.board).toEqual(base.board);
    expect((sc.warnings ?? []).filter((w) => /not a Boarding Actions detachment/.test(w))).toEqual([]);
  });

  it('plays to the end with heuristic agents, with Determined Defence among the Aeldari rules, and its log folds to the final state', async () => {
    const { game, result } = playGame(loadScenario(file), { seed: 'ph-heuristic', agents: await loadAgents(['heuristic', 'heuristic'], 'ph-heuristic'), log: true });
    expect(game.state.stage).toBe('ended');
    // the game ends after its rounds or when an army has no unit left on the battlefield
    if (result.endedBy === 'rounds') expect(result.rounds).toBe(5);
    else expect([result.endedBy, ([0, 1] as const).some((p) => unitsOnBattlefield(game.state, p).length === 0)]).toEqual(['army-destroyed', true]);
    expect(game.state.players[1].rules).toContain('Determined Defence');
    // its own stratagems are used, and only they and the Boarding Actions ones
    const sources = new Set(game.state.players[1].stratagemsUsed.map((u) => allStratagems().find((s) => s.name === u.name && (s.source === 'Protector Host' || s.source === 'Boarding Actions'))?.source ?? u.name));
    expect(sources).toContain('Protector Host');
    for (const x of sources) expect(['Protector Host', 'Boarding Actions']).toContain(x);
    expect(foldEvents(game.log!)).toEqual(game.state);
  });
});
