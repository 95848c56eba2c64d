/**
 * src/factions/aeldari/support-and-ynnari.ts: the Support Weapon platforms (Support Weapon, SUPPORT ARTILLERY),
 * the Yncarne's Inevitable Death and the Ynnari Venom's Lithe Embarkation. Each test compares the situation with
 * and without the ability, so it fails if the ability is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { fitsIn } from '../../src/rules/battle/transports.ts';
import { belowStartingStrength } from '../../src/rules/battle/units.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { rolls } from '../helpers/attack.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import { applyImmutable } from '../../src/core/reducer.ts';
import { emptyGameState } from '../../src/core/state.ts';

const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 10 } };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 5 }, spacing: 1.3 };
const DC: PlacedUnit = { id: 'DC', player: 0, faction: 'aeldari', name: 'D-cannon Platform', at: { x: 22, y: 5 } };

/** Guardian Defenders with the D-cannon Platform joined to them (as SUPPORT ARTILLERY does), and a Strike Team. */
function joined(others: PlacedUnit[] = []): Game {
  const g = battleSandbox([GD, DC, ST, ...others], { factions: ['AE', 'TAU'], phase: 'shooting' });
  g.emit({ type: 'unit-joined', unit: 'DC', into: 'GD' });
  return g;
}

describe('Support Weapon', () => {
  it('an attack on the Guardians with a D-cannon Platform joined wounds them as T3 (a pulse rifle on 3+), not as the platform\'s T6', () => {
    const g = joined();
    const plan = planFor(g, 'ST', 'GD', 'Pulse rifle');
    expect(plan.toughness).toBe(3);
    // the platform alone keeps its own Toughness
    const alone = battleSandbox([DC, ST], { factions: ['AE', 'TAU'], phase: 'shooting' });
    expect(planFor(alone, 'ST', 'DC', 'Pulse rifle').toughness).toBe(6);
  });

  it('once the platform is the last model of the unit, it is T6 again', () => {
    const g = joined();
    const u = () => g.state.units.GD;
    for (const id of u().models.filter((x) => x.name !== 'D-cannon Platform').map((x) => x.id)) {
      const m = u().models.find((x) => x.id === id)!;
      if (m.alive) destroyModel(g, u(), m, null, 'test');
    }
    const left = u().models.filter((m) => m.alive);
    expect(left.map((m) => m.name)).toEqual(['D-cannon Platform']);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').toughness).toBe(6);
  });
});

describe('SUPPORT ARTILLERY', () => {
  it('the platform joins a Guardian Defenders unit at Declare Battle Formations: one of its models, counted in its Starting Strength', () => {
    const asked: DecisionRequest[] = [];
    const pick = (r: DecisionRequest) => { asked.push(r); return r.kind === 'support-artillery' ? 1 : 0; };
    const sc = miniScenario({ aeldari: ['Guardian Defenders', 'D-cannon Platform', 'Guardian Defenders'] });
    const g = createGame(sc, { seed: 'support-artillery', agents: [scriptedAgent('tau'), scriptedAgent('ae', pick)] });
    const s = g.state;
    const req = asked.filter((r) => r.kind === 'support-artillery');
    expect(req).toHaveLength(1);
    // stay alone, or either Guardian Defenders unit
    expect(req[0].options).toEqual([{ unit: 'p2-u2', into: null }, { unit: 'p2-u2', into: 'p2-u1' }, { unit: 'p2-u2', into: 'p2-u3' }]);
    const gd = s.units['p2-u1'];
    expect(s.units['p2-u2'].location).toBe('attached');
    expect(gd.models.filter((m) => m.name === 'D-cannon Platform')).toHaveLength(1);
    expect(gd.models).toHaveLength(12);
    expect(gd.startingStrength).toBe(12);
    expect(gd.keywords).toContain('SUPPORT WEAPON');
    expect(gd.location).toBe('battlefield');
    // its 12 models set up together
    expect(gd.models.every((m) => m.pos !== null)).toBe(true);
    // one model lost: below its Starting Strength (12), which it would not be at 11
    const g2 = createGame(sc, { seed: 'support-artillery', agents: [scriptedAgent('tau'), scriptedAgent('ae', pick)] });
    const u = g2.state.units['p2-u1'];
    expect(belowStartingStrength(u)).toBe(false);
    destroyModel(g2, u, u.models[0], null, 'test');
    expect(belowStartingStrength(g2.state.units['p2-u1'])).toBe(true);
    // a second platform could join the other unit, not this one
    expect(g.state.units['p2-u3'].startingStrength).toBe(11);
  });

  it('the replay folds the join (immer snapshots) into the state the game reached', () => {
    const sc = miniScenario({ aeldari: ['Guardian Defenders', 'Shadow Weaver Platform'] });
    const g = createGame(sc, { seed: 'support-artillery', log: true, agents: [scriptedAgent('tau'), scriptedAgent('ae', (r) => (r.kind === 'support-artillery' ? 1 : 0))] });
    expect(g.log!.some((e) => e.type === 'unit-joined')).toBe(true);
    let snap = emptyGameState();
    for (const e of g.log!) snap = applyImmutable(snap, e);
    expect(snap.units['p2-u1']).toEqual(g.state.units['p2-u1']);
    expect(snap).toEqual(g.state);
  });

  it('declined, the platform stays a unit of its own', () => {
    const sc = miniScenario({ aeldari: ['Guardian Defenders', 'D-cannon Platform'] });
    const g = createGame(sc, { seed: 'support-artillery', agents: [scriptedAgent('tau'), scriptedAgent('ae')] });
    expect(g.state.units['p2-u2'].location).toBe('battlefield');
    expect(g.state.units['p2-u1'].startingStrength).toBe(11);
  });

  it('the heuristic joins the platform to the Guardian Defenders', async () => {
    const f = await loadAgentFactory('heuristic');
    const sc = miniScenario({ aeldari: ['Guardian Defenders', 'Vibro Cannon Platform'] });
    const g = createGame(sc, { seed: 'support-artillery', agents: [makeAgent(f, 's', 0), makeAgent(f, 's', 1)] });
    expect(g.state.units['p2-u2'].location).toBe('attached');
    expect(g.state.units['p2-u1'].startingStrength).toBe(12);
  });

  it('neither the platform nor the unit it joined may embark within a transport; other Guardians may', () => {
    const WS: PlacedUnit = { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 10, y: 30 } };
    const GD2: PlacedUnit = { ...GD, id: 'GD2', at: { x: 25, y: 5 } };
    const lone = battleSandbox([DC, WS, ST], { factions: ['AE', 'TAU'] });
    expect(fitsIn(lone, lone.state.units.DC, lone.state.units.WS)).toBe(false);
    const g = joined([WS, GD2]);
    expect(fitsIn(g, g.state.units.GD, g.state.units.WS)).toBe(false);
    expect(fitsIn(g, g.state.units.GD2, g.state.units.WS)).toBe(true);
  });

  it('Crewed Platform: the last Guardian Defender lost takes the Heavy Weapon Platform with it, not the joined D-cannon Platform', () => {
    const g = joined();
    const u = () => g.state.units.GD;
    for (const id of u().models.filter((x) => x.name === 'Guardian Defenders').map((x) => x.id)) destroyModel(g, u(), u().models.find((y) => y.id === id)!, null, 'test');
    expect(u().models.filter((m) => m.alive).map((m) => m.name)).toEqual(['D-cannon Platform']);
    expect(u().location).toBe('battlefield');
  });
});

describe('Lithe Embarkation', () => {
  it('at the end of the Fight phase a YNNARI INFANTRY unit of the listed units, 6 or fewer within 6", embarks within the Ynnari Venom; Yvraine leading Guardians does not qualify', () => {
    const asked: DecisionRequest[] = [];
    const g = battleSandbox([
      { id: 'VN', player: 0, faction: 'aeldari', name: 'Ynnari Venom', at: { x: 20, y: 20 } },
      { id: 'IN', player: 0, faction: 'aeldari', name: 'Ynnari Incubi', counts: [1, 4], at: { x: 23, y: 18 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', counts: [3, 0], at: { x: 17, y: 18 } },
      { id: 'YV', player: 0, faction: 'aeldari', name: 'Yvraine', at: { x: 17, y: 23 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 45, y: 5 } },
    ], { factions: ['AE', 'TAU'], phase: 'fight', agents: [scriptedAgent('ae', (r) => { asked.push(r); return r.kind === 'lithe-embarkation' ? 1 : 0; }), scriptedAgent('tau')] });
    g.emit({ type: 'unit-attached', leader: 'YV', bodyguard: 'GD' });
    expect(g.state.units.GD.keywords).toEqual(expect.arrayContaining(['YNNARI', 'INFANTRY']));
    endPhase(g, 0, 'fight');
    const req = asked.filter((r) => r.kind === 'lithe-embarkation');
    expect(req).toHaveLength(1);
    expect(req[0].options).toEqual([{ none: true }, { unit: 'IN' }]);
    expect(g.state.units.IN.location).toBe('embarked');
    expect(g.state.units.IN.embarkedIn).toBe('VN');
    // with a unit within, nothing more is offered at the next Fight phase's end
    asked.length = 0;
    endPhase(g, 0, 'fight');
    expect(asked.filter((r) => r.kind === 'lithe-embarkation')).toHaveLength(0);
  });
});

describe('Inevitable Death', () => {
  const YN: PlacedUnit = { id: 'YN', player: 0, faction: 'aeldari', name: 'The Yncarne', at: { x: 8, y: 36 } };
  const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 8 }, spacing: 1.2 };
  const DA2: PlacedUnit = { ...DA, id: 'DA2', at: { x: 30, y: 26 } };
  const ENEMY: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 33.5, y: 8 }, spacing: 1.2 };

  function game(turn: 0 | 1, asked: DecisionRequest[], go = true): Game {
    return battleSandbox([YN, DA, DA2, ENEMY], {
      factions: ['AE', 'TAU'], phase: 'shooting', turn,
      agents: [scriptedAgent('ae', (r) => { asked.push(r); return r.kind === 'inevitable-death' && go ? 1 : 0; }), scriptedAgent('tau')],
    });
  }

  /** Destroys every model of the unit, the last one last; returns where that one stood. */
  function wipe(g: Game, id: string): { x: number; y: number } {
    const ids = g.state.units[id].models.map((m) => m.id);
    const last = g.state.units[id].models.find((m) => m.id === ids[ids.length - 1])!.pos!;
    for (const mid of ids) destroyModel(g, g.state.units[id], g.state.units[id].models.find((m) => m.id === mid)!, 'ST', 'test');
    return { x: last.x, y: last.y };
  }

  it('in the opponent\'s turn the Yncarne is set up where the last model of a destroyed friendly unit fell, out of Engagement Range; once that turn', () => {
    const asked: DecisionRequest[] = [];
    const g = game(1, asked);
    const at = wipe(g, 'DA');
    expect(g.state.units.DA.location).toBe('destroyed');
    const req = asked.filter((r) => r.kind === 'inevitable-death');
    expect(req).toHaveLength(1);
    expect(req[0].options).toEqual([{ stay: true }, { to: at }]);
    const yn = g.state.units.YN;
    const pos = yn.models[0].pos!;
    // beside the spot (the Strike Team stands about 3" from it): within a few inches, not in Engagement Range
    expect(Math.hypot(pos.x - at.x, pos.y - at.y)).toBeLessThan(4);
    expect(unitDistance(g.state, yn, g.state.units.ST)).toBeGreaterThan(1);
    // a second unit destroyed the same turn: not offered again
    wipe(g, 'DA2');
    expect(asked.filter((r) => r.kind === 'inevitable-death')).toHaveLength(1);
    expect(g.state.units.YN.models[0].pos).toEqual(pos);
  });

  it('not in its own turn, and declined it stays where it is', () => {
    const own: DecisionRequest[] = [];
    const g = game(0, own);
    wipe(g, 'DA');
    expect(own.filter((r) => r.kind === 'inevitable-death')).toHaveLength(0);
    expect(g.state.units.YN.models[0].pos).toMatchObject({ x: 8, y: 36 });
    const declined: DecisionRequest[] = [];
    const g2 = game(1, declined, false);
    wipe(g2, 'DA');
    expect(declined.filter((r) => r.kind === 'inevitable-death')).toHaveLength(1);
    expect(g2.state.units.YN.models[0].pos).toMatchObject({ x: 8, y: 36 });
    // declining does not use it up: the next unit destroyed this turn offers it again
    wipe(g2, 'DA2');
    expect(declined.filter((r) => r.kind === 'inevitable-death')).toHaveLength(2);
  });
});

describe('Skyfire', () => {
  // the Piranhas (FLY) end a Normal move; the Firestorm fires Overwatch at them, then its scatter laser at the Tactical Drones (FLY)
  const units = (): PlacedUnit[] => [
    { id: 'FS', player: 1, faction: 'aeldari', name: 'Firestorm', at: { x: 20, y: 20 } },
    { id: 'P', player: 0, faction: 'tau', name: 'Piranhas', at: { x: 34, y: 20 } },
    { id: 'TD', player: 0, faction: 'tau', name: 'Tactical Drones', at: { x: 34, y: 30 } },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 34, y: 4 } },
  ];
  const moved: Window = { name: 'movement/after-enemy-move', unit: 'P', targets: [] };

  /** The T'au move; the Aeldari fire Overwatch whenever offered and pick the first unit Skyfire offers. */
  function firestormGame(asked: DecisionRequest[]): Game {
    return battleSandbox(units(), {
      factions: ['TAU', 'AE'], phase: 'movement', turn: 0, round: 2, cp: [3, 3],
      agents: [scriptedAgent('tau'), scriptedAgent('ae', (r) => {
        asked.push(r);
        if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'FIRE OVERWATCH'));
        return r.kind === 'skyfire' ? 1 : 0;
      })],
    });
  }

  function overwatch(mode: 'normal' | 'arrived', asked: DecisionRequest[]): Game {
    const g = firestormGame(asked);
    g.emit({ type: 'unit-moved', unit: 'P', mode });
    expect(openWindow(g, moved)).toEqual(['FIRE OVERWATCH']);
    return g;
  }

  it('after Overwatch at a FLY unit that ended a Normal move, the scatter laser also shoots at another FLY unit within 24", hitting on unmodified 6s', () => {
    const asked: DecisionRequest[] = [];
    const g = overwatch('normal', asked);
    const sky = asked.filter((r) => r.kind === 'skyfire');
    // the Strike Team cannot Fly: only the drones are offered, then nothing is left
    expect(sky).toHaveLength(1);
    expect(sky[0].options).toEqual([{ done: true }, { unit: 'TD' }]);
    const shots = asked.filter((r) => r.kind === 'shoot-target');
    const atDrones = shots.filter((r) => (r.options as { target: string }[]).every((o) => o.target === 'TD'));
    expect(atDrones).toHaveLength(1);
    expect((atDrones[0].options as { weapon: string }[]).map((o) => o.weapon)).toEqual(['Firestorm scatter laser']);
    // its 16 Hit rolls, under the Overwatch effect
    expect(rolls(g, 'hit').at(-1)).toHaveLength(16);
    const laser = g.state.datasheets[g.state.units.FS.datasheet].weapons.find((w) => w.name === 'Firestorm scatter laser')!;
    expect(laser.profiles[0].attacks.plus).toBe(16);
    expect(planFor(g, 'FS', 'TD', 'Firestorm scatter laser').unmodifiedHitOn).toBe(6);
  });

  it('also when Overwatch is fired as the FLY unit starts its Normal move', () => {
    const asked: DecisionRequest[] = [];
    const g = firestormGame(asked);
    expect(openWindow(g, { name: 'movement/enemy-move-started', unit: 'P', targets: [] })).toEqual(['FIRE OVERWATCH']);
    expect(g.state.units.P.flags.moved).toBe(null);
    expect(asked.filter((r) => r.kind === 'skyfire').map((r) => r.options)).toEqual([[{ done: true }, { unit: 'TD' }]]);
  });

  it('not after a unit arrived from Reserves (no Normal, Advance or Fall Back move)', () => {
    const asked: DecisionRequest[] = [];
    overwatch('arrived', asked);
    expect(asked.filter((r) => r.kind === 'skyfire')).toHaveLength(0);
  });
});
