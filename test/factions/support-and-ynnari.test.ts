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
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';

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
