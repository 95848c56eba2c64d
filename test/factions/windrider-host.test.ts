/**
 * The Windrider Host (src/factions/aeldari/windrider-host.ts): Ride the Wind, its six stratagems and its four
 * Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { allows, weaponHas } from '../../src/core/rules-registry.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { inflictMortalWounds } from '../../src/rules/damage.ts';
import { arrivalRound, arrive, deepStrikeDistance, reinforcements } from '../../src/rules/battle/reserves.ts';
import { declareFormationsByAgent, type ReserveOption } from '../../src/rules/battle/formations.ts';
import { endTurn } from '../../src/rules/battle/battle.ts';
import { startPhase } from '../../src/rules/battle/phase.ts';
import { scoutsDistance } from '../../src/rules/battle/pre-battle.ts';
import type { ResolvedPlayer } from '../../src/data/scenario-types.ts';

const WH = 'Windrider Host';

/** Player 0 (Aeldari) answers with `pick`; player 1 (T'au) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; round?: number } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [4, 3], detachments: [opts.detachment === undefined ? WH : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], ...(opts.stream ? { stream: opts.stream } : {}), ...(opts.round ? { round: opts.round } : {}),
  });
}

/** Use `name` whenever offered, and answer its own request `kind` with option `choice`. */

const WR: PlacedUnit = { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 10, y: 5 }, spacing: 2.5 };
const VY: PlacedUnit = { id: 'VY', player: 0, faction: 'aeldari', name: 'Vypers', at: { x: 10, y: 20 }, spacing: 3 };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 30 }, spacing: 0.9 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 };
const DF: PlacedUnit = { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 30 } };

describe('Ride the Wind', () => {
  it('a rider set up from Reserves counts the battle round one higher: in round 1 it arrives (not in the enemy zone), in round 2 it may arrive in the enemy zone', () => {
    const g = sandbox([WR, VY, GD, ST], { phase: 'movement', round: 1 });
    expect([arrivalRound(g.state, g.state.units.WR), arrivalRound(g.state, g.state.units.VY), arrivalRound(g.state, g.state.units.GD)]).toEqual([2, 2, 1]);
    expect(arrivalRound(sandbox([WR], { detachment: null }).state, sandbox([WR], { detachment: null }).state.units.WR)).toBe(1);
    // in round 2, a Strategic Reserves set-up on the enemy's edge (their zone is x >= 48)
    // (the set-up is the legal one nearest the point: the Guardians end outside the zone)
    const inZone = (id: string) => {
      const h = sandbox([WR, GD, { ...ST, at: { x: 50, y: 40 } }], { phase: 'movement', round: 2 });
      h.emit({ type: 'unit-location', unit: id, location: 'strategic-reserves', embarkedIn: null });
      expect(arrive(h, h.state.units[id], { unit: id, how: 'strategic-reserves', x: 57, y: 6 })).toBe(true);
      return h.state.units[id].models.some((m) => m.pos!.x > 48);
    };
    expect(inZone('WR')).toBe(true);
    expect(inZone('GD')).toBe(false);
  });

  it('in the first battle round, the Reinforcements step offers a rider in Strategic Reserves (not another unit)', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([WR, GD, { ...ST, at: { x: 50, y: 40 } }], { phase: 'movement', round: 1 }, (r) => { if (r.kind === 'reinforcement') asked.push(r); return r.kind === 'reinforcement' ? 1 : 0; });
    for (const id of ['WR', 'GD']) g.emit({ type: 'unit-location', unit: id, location: 'strategic-reserves', embarkedIn: null });
    reinforcements(g, 0);
    const units = new Set(asked.flatMap((r) => (r.options as { unit?: string }[]).map((o) => o.unit).filter(Boolean)));
    expect([...units]).toEqual(['WR']);
    expect(g.state.units.WR.location).toBe('battlefield');
    expect(g.state.units.GD.location).toBe('strategic-reserves');
  });

  it('riders go into Reserves at Declare Battle Formations outside the Strategic Reserves quarter (not other units)', () => {
    const units: PlacedUnit[] = [
      { ...WR, id: 'W1', points: 200 }, { ...WR, id: 'W2', points: 200, at: { x: 20, y: 5 } }, { ...WR, id: 'W3', points: 200, at: { x: 30, y: 5 } },
      { ...GD, id: 'G1', points: 200 }, { ...GD, id: 'G2', points: 200, at: { x: 15, y: 30 } }, { ...GD, id: 'G3', points: 200, at: { x: 25, y: 30 } },
    ];
    const formations = (detachment: string | null) => {
      // Strategic Reserves whenever offered
      const g = sandbox(units, { phase: 'command', detachment }, (r) => (r.kind === 'reserves' ? Math.max(0, (r.options as ReserveOption[]).findIndex((o) => o.reserves === 'strategic')) : 0));
      for (const id of g.state.unitOrder) g.emit({ type: 'unit-location', unit: id, location: 'unplaced', embarkedIn: null });
      declareFormationsByAgent(g, 0, { transports: {}, leaders: {}, reserves: {} } as unknown as ResolvedPlayer, 2000, (id) => id);
      return ['W1', 'W2', 'W3', 'G1', 'G2', 'G3'].map((id) => g.state.units[id].location === 'strategic-reserves');
    };
    // 500 points of Strategic Reserves (a quarter of 2,000), 1,000 of Reserves in all
    expect(formations(null)).toEqual([true, true, false, false, false, false]);
    expect(formations(WH)).toEqual([true, true, true, true, true, false]);
  });

  it('at the end of the opponent\'s turn, up to two riders not within Engagement Range go into Strategic Reserves', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([WR, { ...WR, id: 'W2', at: { x: 20, y: 5 } }, VY, GD, { ...ST, at: { x: 40, y: 30 } }], { phase: 'fight', turn: 1 }, (r) => {
      if (r.kind !== 'ride-the-wind') return 0;
      asked.push(r);
      return 1;
    });
    endTurn(g, 1);
    expect(asked.map((r) => r.options)).toEqual([[{ done: true }, { unit: 'WR' }, { unit: 'W2' }, { unit: 'VY' }], [{ done: true }, { unit: 'W2' }, { unit: 'VY' }]]);
    expect(['WR', 'W2', 'VY', 'GD'].map((id) => g.state.units[id].location)).toEqual(['strategic-reserves', 'strategic-reserves', 'battlefield', 'battlefield']);
    // not at the end of its own turn
    const own = sandbox([WR, ST], { phase: 'fight', turn: 0 }, (r) => { if (r.kind === 'ride-the-wind') asked.push(r); return 0; });
    const before = asked.length;
    endTurn(own, 0);
    expect(asked.length).toBe(before);
  });
});

describe('Windrider Host stratagems', () => {
  it('SPIRALLING EVASION: a targeted rider has a 4+ invulnerable save this phase, in the opponent\'s Shooting phase', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['WR', 'GD'] };
    const g = sandbox([WR, GD, ST], { turn: 1 }, using('SPIRALLING EVASION'));
    expect(offered(g, w, 0, 'SPIRALLING EVASION')).toEqual(['WR']);
    expect(planFor(g, 'ST', 'WR', 'Pulse rifle').invulnerable).toBe(null);
    expect(openWindow(g, w)).toEqual(['SPIRALLING EVASION']);
    expect(planFor(g, 'ST', 'WR', 'Pulse rifle').invulnerable).toBe(4);
    expect(offered(sandbox([WR, GD, ST], { turn: 1, phase: 'charge' }), w, 0, 'SPIRALLING EVASION')).toEqual([]);
  });

  it('FOCUSED FIREPOWER: +1 AP for a rider selected to shoot', () => {
    const g = sandbox([WR, GD, ST], {}, using('FOCUSED FIREPOWER'));
    const ap = planFor(g, 'WR', 'ST', 'Twin shuriken catapult').ap;
    expect(offered(g, { name: 'shooting/unit-selected', unit: 'GD', targets: [] }, 0, 'FOCUSED FIREPOWER')).toEqual([]);
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'WR', targets: [] })).toEqual(['FOCUSED FIREPOWER']);
    expect(planFor(g, 'WR', 'ST', 'Twin shuriken catapult').ap).toBe(ap - 1);
  });

  it('DEATH FROM ON HIGH: only for a rider set up from Reserves this turn; its attacks re-roll the Wound roll', () => {
    // the Vypers' bright lance (the Windriders' twin catapults re-roll their Wound rolls anyway: TWIN-LINKED)
    const g = sandbox([WR, VY, ST], {}, using('DEATH FROM ON HIGH'));
    const w = (id: string): Window => ({ name: 'shooting/unit-selected', unit: id, targets: [] });
    expect(offered(g, w('VY'), 0, 'DEATH FROM ON HIGH')).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'VY', mode: 'arrived' });
    expect(planFor(g, 'VY', 'ST', 'Bright lance').rerollWounds).toBe('none');
    expect(openWindow(g, w('VY'))).toEqual(['DEATH FROM ON HIGH']);
    expect(planFor(g, 'VY', 'ST', 'Bright lance').rerollWounds).toBe('failed');
    // not in the opponent's Shooting phase
    const h = sandbox([VY, ST], { turn: 1 });
    h.emit({ type: 'unit-moved', unit: 'VY', mode: 'arrived' });
    expect(offered(h, w('VY'), 0, 'DEATH FROM ON HIGH')).toEqual([]);
  });

  it('OVERFLIGHT: at the end of the phase, a MOUNTED unit that destroyed an enemy unit makes a Normal move of up to 7"', () => {
    const g = sandbox([WR, VY, ST, DF], {}, using('OVERFLIGHT', 'overflight', 1));
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'shooting' } };
    expect(offered(g, end, 0, 'OVERFLIGHT')).toEqual([]);
    // the Vypers (a VEHICLE) destroy the Devilfish: no; the Windriders destroy the Strike Team: yes
    inflictMortalWounds(g, g.state.units.DF, 99, 'VY');
    expect(offered(g, end, 0, 'OVERFLIGHT')).toEqual([]);
    inflictMortalWounds(g, g.state.units.ST, 99, 'WR');
    const from = g.state.units.WR.models.map((m) => ({ ...m.pos! }));
    expect(openWindow(g, end)).toEqual(['OVERFLIGHT']);
    const moved = g.state.units.WR.models.map((m, i) => Math.hypot(m.pos!.x - from[i].x, m.pos!.y - from[i].y));
    expect(Math.max(...moved)).toBeGreaterThan(0);
    expect(Math.max(...moved)).toBeLessThanOrEqual(7 + 1e-6);
    // without the detachment nothing marks the unit
    const none = sandbox([WR, ST], { detachment: null });
    inflictMortalWounds(none, none.state.units.ST, 99, 'WR');
    expect(none.state.effects).toEqual([]);
  });

  it('WIND OF BLADES: a rider selected to move may shoot (its guns ASSAULT) and charge after an Advance or a Fall Back this turn', () => {
    // the Vypers' bright lance (not ASSAULT of its own)
    const g = sandbox([VY, GD, ST], { phase: 'movement' }, using('WIND OF BLADES'));
    const lance = g.state.datasheets[g.state.units.VY.models[0].datasheet].weapons.find((x) => x.name === 'Bright lance')!.profiles[0];
    const perms = () => [allows(g.state, g.state.units.VY, 'charge-after-advance'), allows(g.state, g.state.units.VY, 'charge-after-fall-back'), allows(g.state, g.state.units.VY, 'shoot-after-fall-back'), weaponHas(g.state, g.state.units.VY, lance, 'ASSAULT')];
    expect(perms()).toEqual([false, false, false, false]);
    expect(offered(g, { name: 'movement/unit-selected', unit: 'GD', targets: [] }, 0, 'WIND OF BLADES')).toEqual([]);
    expect(openWindow(g, { name: 'movement/unit-selected', unit: 'VY', targets: [] })).toEqual(['WIND OF BLADES']);
    expect(perms()).toEqual([true, true, true, true]);
  });

  it('DARING RIDERS: a rider in Reserves may be set up more than 6" from enemy units this phase', () => {
    const g = sandbox([WR, GD, ST], { phase: 'movement', round: 2 }, using('DARING RIDERS'));
    for (const id of ['WR', 'GD']) g.emit({ type: 'unit-location', unit: id, location: 'strategic-reserves', embarkedIn: null });
    expect(offered(g, { name: 'movement/reinforcements-start', unit: null, targets: [] }, 0, 'DARING RIDERS')).toEqual(['WR']);
    expect([deepStrikeDistance(g.state, g.state.units.WR), allows(g.state, g.state.units.WR, 'deep-strike')]).toEqual([9, false]);
    expect(openWindow(g, { name: 'movement/reinforcements-start', unit: null, targets: [] })).toEqual(['DARING RIDERS']);
    expect([deepStrikeDistance(g.state, g.state.units.WR), allows(g.state, g.state.units.WR, 'deep-strike')]).toEqual([6, true]);
    // set up 7" from the Strike Team: allowed, and then no charge this turn
    expect(arrive(g, g.state.units.WR, { unit: 'WR', how: 'deep-strike', x: 22, y: 5 })).toBe(true);
    expect(allows(g.state, g.state.units.WR, 'charge')).toBe(false);
  });
});

describe('Windrider Host Enhancements', () => {
  const bearer = (name: string, enhancement: string, extra: PlacedUnit[] = [ST, DF], opts: Parameters<typeof sandbox>[1] = {}) =>
    sandbox([{ id: 'B', player: 0, faction: 'aeldari', name, at: { x: 10, y: 5 }, enhancement }, GD, ...extra], opts);

  it('Firstdrawn Blade: the bearer\'s unit has Scouts 9"', () => {
    expect(scoutsDistance(bearer('Autarch Skyrunner', 'Firstdrawn Blade').state, bearer('Autarch Skyrunner', 'Firstdrawn Blade').state.units.B)).toBe(9);
    const g = bearer('Autarch Skyrunner', 'Mirage Field');
    expect(scoutsDistance(g.state, g.state.units.B)).toBe(0);
  });

  it('Mirage Field: -1 to hit the bearer\'s unit', () => {
    const g = bearer('Autarch Skyrunner', 'Mirage Field');
    const plain = bearer('Autarch Skyrunner', 'Firstdrawn Blade');
    expect(planFor(g, 'ST', 'B', 'Pulse rifle').hitModifier).toBe(planFor(plain, 'ST', 'B', 'Pulse rifle').hitModifier - 1);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').hitModifier).toBe(planFor(plain, 'ST', 'GD', 'Pulse rifle').hitModifier);
  });

  it('Seersight Strike: the bearer\'s Psychic weapons wound a MONSTER or VEHICLE critically on a 2+', () => {
    const g = bearer('Farseer Skyrunner', 'Seersight Strike');
    expect(planFor(g, 'B', 'DF', 'Eldritch Storm').criticalWoundOn).toBe(2);
    expect(planFor(g, 'B', 'ST', 'Eldritch Storm').criticalWoundOn).toBe(6);
    expect(planFor(g, 'B', 'DF', 'Twin shuriken catapult').criticalWoundOn).toBe(6);
  });

  it('Echoes of Ulthanesh: in its Command phase a D6, +1 outside its own zone, +1 more in the enemy\'s: 5+ gains 1CP', () => {
    const cpAfter = (x: number, roll: number) => {
      const g = sandbox([{ id: 'B', player: 0, faction: 'aeldari', name: 'Autarch Skyrunner', at: { x, y: 5 }, enhancement: 'Echoes of Ulthanesh' }, ST], { phase: 'movement', stream: scriptedStream([roll]) });
      const cp = g.state.players[0].cp;
      startPhase(g, 0, 'command');
      return g.state.players[0].cp - cp;
    };
    // its own zone is x <= 12, the enemy's x >= 48
    expect(cpAfter(5, 4)).toBe(0);
    expect(cpAfter(5, 5)).toBe(1);
    expect(cpAfter(30, 4)).toBe(1);
    expect(cpAfter(30, 3)).toBe(0);
    expect(cpAfter(55, 3)).toBe(1);
  });
});
