/**
 * The Auxiliary Cadre (src/factions/tau/auxiliary-cadre.ts): Integrated Command Structure's two auras, its
 * six stratagems and its Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS_DIR, loadScenario } from '../../src/data/scenario.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { battleSandbox, scriptedAgent, setGap, type BattleSandboxOptions, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { allows, getRule, targetableFrom, weaponHas } from '../../src/core/rules-registry.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { canCharge } from '../../src/rules/battle/charge.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { arrivalPoints, reinforcements } from '../../src/rules/battle/reserves.ts';
import { declareFormationsByAgent, type ReserveOption } from '../../src/rules/battle/formations.ts';
import type { ResolvedPlayer } from '../../src/data/scenario-types.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { isEngaged, unitDistance } from '../../src/rules/battle/world.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

const AC = 'Auxiliary Cadre';

/** Player 0 (T'au) answers with `pick`; player 1 (Aeldari) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; detachment?: string | null; terrain?: BattleSandboxOptions['terrain']; round?: number } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [3, 3], detachments: [opts.detachment === undefined ? AC : opts.detachment, 'Battle Host'],
    agents: [scriptedAgent('tau', pick), scriptedAgent('ae')], ...(opts.terrain ? { terrain: opts.terrain } : {}), ...(opts.round ? { round: opts.round } : {}),
  });
}

/** Use `name` when offered, and answer its own request `kind` with option `choice`. */

// Kroot Carnivores and a Strike Team side by side (2" apart, ten models each in a line), the enemy to the east
const KC: PlacedUnit = { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 20, y: 5 } };
const ST: PlacedUnit = { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 18, y: 5 } };
const VS: PlacedUnit = { id: 'VS', player: 0, faction: 'tau', name: 'Vespid Stingwings', at: { x: 20, y: 30 } };
const SS: PlacedUnit = { id: 'SS', player: 0, faction: 'tau', name: 'Stormsurge', at: { x: 8, y: 30 } };
const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } };
const FP: PlacedUnit = { id: 'FP', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 50, y: 10 } };

describe('Integrated Command Structure', () => {
  it('Targeting Triangulation: +1 AP to a T\'au unit\'s ranged attack at an enemy within 9" of and visible to a Kroot unit; not at 9.5", not for Kroot, TITANIC or melee attacks, not without the detachment', () => {
    const g = sandbox([KC, ST, SS, GD]);
    const none = sandbox([KC, ST, SS, GD], { detachment: null });
    setGap(g, 'GD', 'KC', 9);
    setGap(none, 'GD', 'KC', 9);
    const ap = (x: Game, unit: string, weapon: string) => planFor(x, unit, 'GD', weapon).ap;
    expect(ap(g, 'ST', 'Pulse rifle') - ap(none, 'ST', 'Pulse rifle')).toBe(-1);
    // the Kroot themselves, the TITANIC Stormsurge and a melee attack are not helped
    expect(ap(g, 'KC', 'Kroot rifle')).toBe(ap(none, 'KC', 'Kroot rifle'));
    expect(ap(g, 'SS', 'Pulse driver cannon')).toBe(ap(none, 'SS', 'Pulse driver cannon'));
    expect(ap(g, 'ST', 'Close combat weapon')).toBe(ap(none, 'ST', 'Close combat weapon'));
    setGap(g, 'GD', 'KC', 9.5);
    expect(ap(g, 'ST', 'Pulse rifle')).toBe(ap(none, 'ST', 'Pulse rifle'));
    // Vespid Stingwings spot as well
    const vespid = sandbox([{ ...VS, at: { x: 20, y: 5 } }, ST, GD]);
    setGap(vespid, 'GD', 'VS', 8);
    expect(ap(vespid, 'ST', 'Pulse rifle') - ap(none, 'ST', 'Pulse rifle')).toBe(-1);
  });

  it('Targeting Triangulation: not when a wall hides the enemy from the Kroot', () => {
    const wall = [{ id: 'w', kind: 'wall' as const, polygon: [{ x: 24, y: -1 }, { x: 24.4, y: -1 }, { x: 24.4, y: 45 }, { x: 24, y: 45 }], height: 10 }];
    const g = sandbox([KC, { ...ST, at: { x: 18, y: 30 } }, { ...GD, at: { x: 27, y: 5 } }], { terrain: wall });
    const open = sandbox([KC, { ...ST, at: { x: 18, y: 30 } }, { ...GD, at: { x: 27, y: 5 } }]);
    expect(unitDistance(g.state, g.state.units.KC, g.state.units.GD)).toBeLessThan(9);
    expect(planFor(open, 'ST', 'GD', 'Pulse rifle').ap - planFor(g, 'ST', 'GD', 'Pulse rifle').ap).toBe(-1);
  });

  it('Localised Stealth Projectors: a Kroot unit wholly within 6" of a Strike Team is targetable only from within 18"; not once the Strike Team is 7" away, not a Strike Team, not without the detachment', () => {
    const g = sandbox([KC, ST, FP]);
    const kc = () => g.state.units.KC;
    expect(targetableFrom(g.state, kc(), 18)).toBe(true);
    expect(targetableFrom(g.state, kc(), 18.5)).toBe(false);
    expect(targetableFrom(g.state, g.state.units.ST, 40)).toBe(true);
    // the Fire Prism, ~28" away, cannot shoot the Kroot (its prism cannon reaches them), can without the detachment
    expect(canShoot(g, g.state.units.FP, 'KC')).toBe(false);
    expect(canShoot(g, g.state.units.FP, 'ST')).toBe(true);
    const none = sandbox([KC, ST, FP], { detachment: null });
    expect(targetableFrom(none.state, none.state.units.KC, 18.5)).toBe(true);
    expect(canShoot(none, none.state.units.FP, 'KC')).toBe(true);
    // the Strike Team 7" away: the Kroot are no longer wholly within 6" of it
    setGap(g, 'ST', 'KC', 7);
    expect(targetableFrom(g.state, kc(), 40)).toBe(true);
    expect(canShoot(g, g.state.units.FP, 'KC')).toBe(true);
  });

  it('Localised Stealth Projectors: not when a wall hides the Kroot from the Strike Team', () => {
    const wall = [{ id: 'w', kind: 'wall' as const, polygon: [{ x: 18.8, y: -1 }, { x: 19.2, y: -1 }, { x: 19.2, y: 45 }, { x: 18.8, y: 45 }], height: 10 }];
    const g = sandbox([{ ...KC, at: { x: 21, y: 5 } }, { ...ST, at: { x: 17, y: 5 } }, FP], { terrain: wall });
    expect(targetableFrom(g.state, g.state.units.KC, 30)).toBe(true);
    const open = sandbox([{ ...KC, at: { x: 21, y: 5 } }, { ...ST, at: { x: 17, y: 5 } }, FP]);
    expect(targetableFrom(open.state, open.state.units.KC, 30)).toBe(false);
  });
});

describe('Auxiliary Cadre stratagems', () => {
  const shooting = (unit: string): Window => ({ name: 'shooting/unit-selected', unit, targets: [] });

  it('MULTISENSORY SCANNING: a T\'au unit re-rolls Wound rolls of 1, a Kroot unit every failed one; in the Fight phase too', () => {
    const g = sandbox([KC, ST, GD], {}, using('MULTISENSORY SCANNING'));
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollWounds).toBe('none');
    expect(openWindow(g, shooting('ST'))).toContain('MULTISENSORY SCANNING');
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollWounds).toBe('ones');
    const k = sandbox([KC, ST, GD], { phase: 'fight', turn: 1 }, using('MULTISENSORY SCANNING'));
    expect(openWindow(k, { name: 'fight/unit-selected', unit: 'KC', targets: [] })).toContain('MULTISENSORY SCANNING');
    expect(planFor(k, 'KC', 'GD', 'Close combat weapon').rerollWounds).toBe('failed');
    // not on an enemy unit
    expect(offered(g, shooting('GD'), 0, 'MULTISENSORY SCANNING')).toEqual([]);
  });

  it('ALIEN EXPERTISE: a T\'au unit shoots after an Advance, a Kroot unit also charges; a Strike Team does not charge', () => {
    // one game for each unit (a stratagem is used once a phase)
    const advanced = (unit: string) => {
      const g = sandbox([KC, ST, GD], { phase: 'movement' }, using('ALIEN EXPERTISE'));
      for (const id of ['KC', 'ST']) g.emit({ type: 'unit-moved', unit: id, mode: 'advance', advanceRoll: 3 });
      expect([canShoot(g, g.state.units.ST), canShoot(g, g.state.units.KC), canCharge(g, g.state.units.KC)]).toEqual([false, false, false]);
      expect(openWindow(g, { name: 'movement/unit-selected', unit, targets: [] })).toContain('ALIEN EXPERTISE');
      return g;
    };
    const k = advanced('KC');
    expect([canShoot(k, k.state.units.KC), canCharge(k, k.state.units.KC), canShoot(k, k.state.units.ST)]).toEqual([true, true, false]);
    const g = advanced('ST');
    expect(canShoot(g, g.state.units.ST)).toBe(true);
    expect(allows(g.state, g.state.units.ST, 'charge-after-advance')).toBe(false);
    // its melee weapons are not made ASSAULT
    const ccw = g.state.datasheets[g.state.units.ST.datasheet].weapons.find((w) => w.name === 'Close combat weapon')!.profiles[0];
    expect(weaponHas(g.state, g.state.units.ST, ccw, 'ASSAULT')).toBe(false);
  });

  it('GUIDED FIRE: +2 Strength to ranged attacks wholly within 9" of a Kroot unit, +1 otherwise; not a Kroot unit', () => {
    const near = sandbox([KC, ST, GD], {}, using('GUIDED FIRE'));
    const s0 = planFor(near, 'ST', 'GD', 'Pulse rifle').strength;
    expect(offered(near, shooting('KC'), 0, 'GUIDED FIRE')).toEqual([]);
    expect(openWindow(near, shooting('ST'))).toContain('GUIDED FIRE');
    expect(planFor(near, 'ST', 'GD', 'Pulse rifle').strength).toBe(s0 + 2);
    expect(planFor(near, 'ST', 'GD', 'Close combat weapon').strength).toBe(3);
    const far = sandbox([KC, { ...ST, at: { x: 5, y: 5 } }, GD], {}, using('GUIDED FIRE'));
    expect(openWindow(far, shooting('ST'))).toContain('GUIDED FIRE');
    expect(planFor(far, 'ST', 'GD', 'Pulse rifle').strength).toBe(s0 + 1);
  });

  it('INTERLOCKING MANOUEVRES: at the end of a Fight phase a unit that fought makes a Normal move of up to 6"; not one that did not fight', () => {
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    // option 1: the first destination offered
    const g = sandbox([ST, GD], { phase: 'fight' }, using('INTERLOCKING MANOUEVRES', 'interlocking-manoeuvres', 1));
    expect(offered(g, end, 0, 'INTERLOCKING MANOUEVRES')).toEqual([]);
    g.emit({ type: 'unit-flag', unit: 'ST', flag: 'fought', value: true });
    expect(offered(g, { ...end, data: { phase: 'shooting' } }, 0, 'INTERLOCKING MANOUEVRES')).toEqual([]);
    const before = g.state.units.ST.models.map((m) => ({ ...m.pos! }));
    expect(openWindow(g, end)).toContain('INTERLOCKING MANOUEVRES');
    const moved = g.state.units.ST.models.map((m, i) => Math.hypot(m.pos!.x - before[i].x, m.pos!.y - before[i].y));
    expect(Math.max(...moved)).toBeGreaterThan(0.5);
    expect(Math.max(...moved)).toBeLessThanOrEqual(6 + 1e-6);
  });

  it('INTERLOCKING MANOUEVRES: a unit within Engagement Range Falls Back instead', () => {
    const g = sandbox([ST, { ...GD, at: { x: 19.5, y: 5 } }], { phase: 'fight' }, using('INTERLOCKING MANOUEVRES', 'interlocking-manoeuvres', 1));
    expect(isEngaged(g.state, g.state.units.ST)).toBe(true);
    g.emit({ type: 'unit-flag', unit: 'ST', flag: 'fought', value: true });
    const before = g.state.units.ST.models.map((m) => ({ ...m.pos! }));
    expect(openWindow(g, { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } })).toContain('INTERLOCKING MANOUEVRES');
    // a Fall Back of up to its Move (6"): out of Engagement Range (a Normal move could not leave it)
    expect(isEngaged(g.state, g.state.units.ST)).toBe(false);
    expect(unitDistance(g.state, g.state.units.ST, g.state.units.GD)).toBeGreaterThan(1);
    // (the destination taken lies past the Guardians: Desperate Escape tests were taken, some models lost)
    expect((g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape')).toHaveLength(1);
    const moved = g.state.units.ST.models.flatMap((m, i) => (m.alive ? [Math.hypot(m.pos!.x - before[i].x, m.pos!.y - before[i].y)] : []));
    expect(Math.max(...moved)).toBeLessThanOrEqual(6 + 1e-6);
  });

  it('PHEROMONE WAYPOINTS: a Kroot or Vespid unit Advances 6" without a roll; not a Strike Team', () => {
    const g = sandbox([KC, ST, VS], { phase: 'movement' }, using('PHEROMONE WAYPOINTS'));
    const moving = (unit: string): Window => ({ name: 'movement/unit-selected', unit, targets: [] });
    expect(offered(g, moving('ST'), 0, 'PHEROMONE WAYPOINTS')).toEqual([]);
    expect(offered(g, moving('VS'), 0, 'PHEROMONE WAYPOINTS')).toEqual(['VS']);
    expect(openWindow(g, moving('KC'))).toContain('PHEROMONE WAYPOINTS');
    const dice = (g.log ?? []).filter((e) => e.type === 'dice').length;
    expect(advanceDistance(g, g.state.units.KC)).toBe(6);
    expect((g.log ?? []).filter((e) => e.type === 'dice').length).toBe(dice);
  });

  it('EXPERIMENTAL MODIFICATIONS: +1 AP to a Kroot unit\'s attacks, ranged and melee; not a Strike Team', () => {
    const g = sandbox([KC, ST, GD], {}, using('EXPERIMENTAL MODIFICATIONS'));
    const ap0 = [planFor(g, 'KC', 'GD', 'Kroot rifle').ap, planFor(g, 'KC', 'GD', 'Close combat weapon').ap];
    expect(offered(g, shooting('ST'), 0, 'EXPERIMENTAL MODIFICATIONS')).toEqual([]);
    expect(openWindow(g, shooting('KC'))).toContain('EXPERIMENTAL MODIFICATIONS');
    expect([planFor(g, 'KC', 'GD', 'Kroot rifle').ap, planFor(g, 'KC', 'GD', 'Close combat weapon').ap]).toEqual(ap0.map((x) => x - 1));
    const f = sandbox([KC, GD], { phase: 'fight', turn: 1 });
    expect(offered(f, { name: 'fight/unit-selected', unit: 'KC', targets: [] }, 0, 'EXPERIMENTAL MODIFICATIONS')).toEqual(['KC']);
  });
});

describe('Auxiliary Cadre Enhancements', () => {
  it('Fanatical Convert: the bearer\'s Kroot unit has For the Greater Good; without it, none', () => {
    const g = sandbox([{ id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 10, y: 5 }, enhancement: 'Fanatical Convert' }]);
    expect(g.state.units.WS.abilities).toContain('For the Greater Good');
    const plain = sandbox([{ id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 10, y: 5 } }]);
    expect(plain.state.units.WS.abilities).not.toContain('For the Greater Good');
  });

  it('Admired Leader: in its Command phase the player selects a Kroot unit within 12" of the bearer: Leadership improved by 1, Objective Control +1 (0 when Battle-shocked)', () => {
    const units: PlacedUnit[] = [{ id: 'FB', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 5 }, enhancement: 'Admired Leader' }, KC, { ...VS, at: { x: 40, y: 30 } }];
    const asked: DecisionRequest[] = [];
    const record = (r: DecisionRequest) => { asked.push(r); return r.kind === 'admired-leader' ? 1 : 0; };
    const rule = getRule('Admired Leader')!;
    // not in the opponent's Command phase
    const theirs = sandbox(units, { phase: 'command', turn: 1 }, record);
    rule.phaseStart!(theirs, theirs.state.units.FB, 'command');
    expect(asked).toEqual([]);
    const g = sandbox(units, { phase: 'command' }, record);
    const kc = () => g.state.units.KC;
    const m = () => kc().models[0];
    const [ld, oc] = [characteristic(g.state, kc(), m(), 'Ld'), characteristic(g.state, kc(), m(), 'OC')];
    rule.phaseStart!(g, g.state.units.FB, 'command');
    // the Vespid, 30" away, are not offered
    expect(asked.map((r) => r.options)).toEqual([[{ none: true }, { unit: 'KC' }]]);
    expect(characteristic(g.state, kc(), m(), 'Ld')).toBe(ld - 1);
    expect(characteristic(g.state, kc(), m(), 'OC')).toBe(oc + 1);
    g.emit({ type: 'battle-shock', unit: 'KC', value: true });
    expect(characteristic(g.state, kc(), m(), 'OC')).toBe(0);
    // the heuristic selects a unit (it costs nothing)
    const heur = createHeuristic().decide({ state: g.state, player: 0 }, { kind: 'admired-leader', player: 0, prompt: '', options: [{ none: true }, { unit: 'KC' }], context: { unit: 'FB' } });
    expect(heur.option).toBe(1);
  });

  it('Transponder Lock Module: the bearer\'s unit arrives by Deep Strike in battle round 1, within 12" of a Kroot unit and more than 9" from the enemy; not without it', () => {
    const arrival = (enhancement: string | undefined, round = 1) => {
      const asked: DecisionRequest[] = [];
      // the first arrival point offered
      const g = sandbox([{ id: 'CS', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 5, y: 40 }, ...(enhancement ? { enhancement } : {}) },
        { ...KC, at: { x: 30, y: 30 } }, { ...GD, at: { x: 50, y: 5 } }], { phase: 'movement', round }, (r) => { asked.push(r); return r.kind === 'reinforcement' ? 1 : 0; });
      g.emit({ type: 'unit-location', unit: 'CS', location: 'reserves', embarkedIn: null });
      reinforcements(g, 0);
      return { g, asked: asked.filter((r) => r.kind === 'reinforcement') };
    };
    const { g, asked } = arrival('Transponder Lock Module');
    // one point, at the Kroot
    expect(asked.map((r) => r.options.length)).toEqual([2]);
    const cs = g.state.units.CS;
    expect(cs.location).toBe('battlefield');
    expect(unitDistance(g.state, cs, g.state.units.KC)).toBeLessThanOrEqual(12);
    expect(unitDistance(g.state, cs, g.state.units.GD)).toBeGreaterThan(9);
    // without the Enhancement nothing arrives in battle round 1
    const plain = arrival(undefined);
    expect(plain.asked).toEqual([]);
    expect(plain.g.state.units.CS.location).toBe('reserves');
    // Kroot in a corner behind a screen of Guardians: nowhere within 12" of them is more than 9" from the enemy
    const asked2: DecisionRequest[] = [];
    const boxed = sandbox([{ id: 'CS', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 5, y: 40 }, enhancement: 'Transponder Lock Module' },
      { ...KC, at: { x: 2, y: 2 }, counts: [4, 1], spacing: 1.2 }, { ...GD, at: { x: 8, y: 1 } }], { phase: 'movement' }, (r) => { asked2.push(r); return r.kind === 'reinforcement' ? 1 : 0; });
    boxed.emit({ type: 'unit-location', unit: 'CS', location: 'reserves', embarkedIn: null });
    reinforcements(boxed, 0);
    expect(asked2.filter((r) => r.kind === 'reinforcement')).toHaveLength(1);
    expect(boxed.state.units.CS.location).toBe('reserves');
    // from battle round 2, any Deep Strike point as usual
    expect(arrival('Transponder Lock Module', 2).asked[0].options.length).toBeGreaterThan(2);
  });

  it('Student of Kauyon: in Declare Battle Formations up to three Kroot Carnivores or Farstalkers units get Deep Strike (Deep Strike Reserves offered); not a fourth, not a Strike Team, not without it', () => {
    const units = (enhancement?: string): PlacedUnit[] => [
      { id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 5, y: 40 }, ...(enhancement ? { enhancement } : {}) },
      { ...KC, id: 'K1' }, { ...KC, id: 'K2', at: { x: 24, y: 5 } }, { id: 'KF', player: 0, faction: 'tau', name: 'Kroot Farstalkers', at: { x: 28, y: 5 } },
      { ...KC, id: 'K3', at: { x: 32, y: 5 } }, ST,
    ];
    const formations = (enhancement?: string) => {
      const asked: DecisionRequest[] = [];
      // Student of Kauyon: the first unit offered each time; Reserves: Deep Strike when offered; no Leader attached
      const g = sandbox(units(enhancement), { phase: 'command' }, (r) => {
        asked.push(r);
        if (r.kind === 'student-of-kauyon') return 1;
        if (r.kind === 'reserves') return Math.max(0, (r.options as ReserveOption[]).findIndex((o) => o.reserves === 'deep-strike'));
        return 0;
      });
      for (const id of g.state.unitOrder) g.emit({ type: 'unit-location', unit: id, location: 'unplaced', embarkedIn: null });
      const p = { transports: {}, leaders: {}, reserves: {} } as unknown as ResolvedPlayer;
      declareFormationsByAgent(g, 0, p, 2000, (id) => id);
      const deepStrike = (r: DecisionRequest) => (r.options as ReserveOption[]).some((o) => o.reserves === 'deep-strike');
      return { g, students: asked.filter((r) => r.kind === 'student-of-kauyon'), deep: asked.filter((r) => r.kind === 'reserves' && deepStrike(r)).map((r) => r.context?.unit) };
    };
    const { g, students, deep } = formations('Student of Kauyon');
    // three selections, each offering the Kroot Carnivores and Farstalkers not chosen yet (never the Strike Team)
    expect(students.map((r) => r.options)).toEqual([
      [{ done: true }, { unit: 'K1' }, { unit: 'K2' }, { unit: 'KF' }, { unit: 'K3' }],
      [{ done: true }, { unit: 'K2' }, { unit: 'KF' }, { unit: 'K3' }],
      [{ done: true }, { unit: 'KF' }, { unit: 'K3' }],
    ]);
    expect(deep).toEqual(['K1', 'K2', 'KF']);
    expect(['K1', 'K2', 'KF', 'K3', 'ST'].map((id) => g.state.units[id].location)).toEqual(['reserves', 'reserves', 'reserves', 'unplaced', 'unplaced']);
    // such a unit arrives by Deep Strike as any other
    expect(arrivalPoints(g.state, g.state.units.K1, false).some((o) => o.how === 'deep-strike')).toBe(true);
    const plain = formations(undefined);
    expect([plain.students, plain.deep]).toEqual([[], []]);
  });
});

describe('Student of Kauyon in a scenario that names its Reserves', () => {
  /** The Auxiliary Cadre mirror with player 1's formations from the scenario: its War Shaper (u1) carries the Enhancement or not, and `deep` go into Deep Strike Reserves. */
  function scenario(enhancement: boolean, deep: string[]): string {
    const sc = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'mirror', 'auxiliary-cadre-vs-none.json'), 'utf8'));
    const army = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'armies', 'tau-kroot-hunting-pack.json'), 'utf8'));
    if (enhancement) army.units[0].enhancement = 'Student of Kauyon';
    sc.players[0] = { ...sc.players[0], army, formations: undefined, reserves: Object.fromEntries(deep.map((u) => [u, 'deep-strike'])) };
    sc.players[1].army = join(SCENARIOS_DIR, 'armies', 'tau-kroot-hunting-pack.json');
    const dir = mkdtempSync(join(tmpdir(), 'student-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(sc));
    return file;
  }
  const loadError = (file: string) => { try { loadScenario(file); } catch (e) { return (e as Error).message; } throw new Error('expected the scenario to be rejected'); };

  it('up to three Kroot Carnivores or Farstalkers units may be named in Deep Strike Reserves; the game selects them and they arrive by Deep Strike', async () => {
    const sc = loadScenario(scenario(true, ['u6', 'u7', 'u11']));
    expect(sc.players[0].reserves).toEqual({ u6: 'deep-strike', u7: 'deep-strike', u11: 'deep-strike' });
    const f = await loadAgentFactory('random');
    const g = createGame(sc, { seed: 'student', agents: [makeAgent(f, 'student', 0), makeAgent(f, 'student', 1)], log: true });
    for (const id of ['p1-u6', 'p1-u7', 'p1-u11']) {
      expect(g.state.units[id].location).toBe('reserves');
      expect(allows(g.state, g.state.units[id], 'deep-strike')).toBe(true);
    }
    // no decision was asked for it: the scenario made the choice
    expect(g.log!.some((e) => e.type === 'decision' && e.request === 'student-of-kauyon')).toBe(false);
    expect(allows(g.state, g.state.units['p1-u8'], 'deep-strike')).toBe(false);
    expect(arrivalPoints(g.state, g.state.units['p1-u6'], false).some((o) => o.how === 'deep-strike')).toBe(true);
  });

  it('not a fourth, not another unit, not without the Enhancement', () => {
    expect(loadError(scenario(true, ['u6', 'u7', 'u11', 'u12']))).toMatch(
      /players\[0\]\.reserves\.u12: Kroot Farstalkers \(u12\) does not have the Deep Strike ability, and Student of Kauyon gives it to at most 3 units \(this is the 4th\); expected "strategic"/,
    );
    expect(loadError(scenario(true, ['u10']))).toMatch(/players\[0\]\.reserves\.u10: Strike Team \(u10\) does not have the Deep Strike ability/);
    expect(loadError(scenario(false, ['u6']))).toMatch(/players\[0\]\.reserves\.u6: Kroot Carnivores \(u6\) does not have the Deep Strike ability; expected "strategic"/);
  });
});
