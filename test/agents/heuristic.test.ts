/**
 * The heuristic agent in constructed situations, asked through the engine's real requests: it shoots
 * the target with the best expected value, uses a stratagem when its gain is obvious and keeps its CP
 * when the stratagem cannot help.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type BattleSandboxOptions, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Stream } from '../../src/core/rng.ts';
import { createStream } from '../../src/core/rng.ts';
import type { Game } from '../../src/core/game.ts';
import type { PlayerIndex } from '../../src/core/state.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { openWindow } from '../../src/rules/windows.ts';
import { afterRoll } from '../../src/rules/roll-window.ts';
import { unitAttackPotential, unitValue, weaponEstimate, weaponUses } from '../../src/ai/evaluate.ts';
import { createHeuristic, lastOptionScores, WEIGHTS } from '../../agents/heuristic.ts';
import { advanceDistance, canFallBack, moveOptions, moveUnit } from '../../src/rules/battle/movement.ts';
import { expectedAdvance } from '../../src/ai/tactics.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { join } from 'node:path';
import { playGame } from '../../src/sim/play.ts';
import { SCENARIOS_DIR, loadScenario } from '../../src/data/scenario.ts';

interface Seen { req: DecisionRequest; option: number }

/** The heuristic, recording every request it answers. */
function recording(seen: Seen[]): Agent {
  const h = createHeuristic();
  return {
    name: 'heuristic',
    decide(view, req) {
      const d = h.decide(view, req);
      seen.push({ req, option: d.option });
      return d;
    },
    rerollPolicy: h.rerollPolicy,
  };
}

function sandbox(units: PlacedUnit[], heuristicSeat: PlayerIndex, seen: Seen[], opts: { phase: 'shooting' | 'charge' | 'movement'; turn?: PlayerIndex; round?: number; cp?: [number, number]; stream?: Stream; other?: Agent; detachments?: [string | null, string | null]; factions?: [string, string]; terrain?: BattleSandboxOptions['terrain'] } ) {
  const other = opts.other ?? scriptedAgent('first');
  const agents: [Agent, Agent] = heuristicSeat === 0 ? [recording(seen), other] : [other, recording(seen)];
  const g = battleSandbox(units, { phase: opts.phase, turn: opts.turn ?? 0, round: opts.round, cp: opts.cp, stream: opts.stream ?? createStream('agents-test'), agents, detachments: opts.detachments, factions: opts.factions, terrain: opts.terrain });
  // the sandbox musters units at 0 points: give each its datasheet's points for its size (what the
  // agent weighs damage by), as an army list would
  for (const u of units) {
    const unit = g.state.units[u.id];
    const ds = g.state.datasheets[unit.datasheet];
    const n = unit.models.length;
    unit.points = (ds.sizes.find((x) => x.models >= n) ?? ds.sizes[ds.sizes.length - 1]).points;
  }
  return g;
}

function usedStratagems(g: Game, p: PlayerIndex): string[] {
  return g.state.players[p].stratagemsUsed.map((x) => x.name);
}

describe('the heuristic shoots the target with the best expected value', () => {
  it('pulse rifles at Guardian Defenders rather than at a Wave Serpent', () => {
    const seen: Seen[] = [];
    const g = sandbox([
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'W', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 34, y: 10 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 34, y: 24 }, spacing: 1.3 },
    ], 0, seen, { phase: 'shooting' });
    shootWithUnit(g, g.state.units.S);
    const shots = seen.filter((x) => x.req.kind === 'shoot-target');
    expect(shots.length).toBeGreaterThan(0);
    for (const s of shots) {
      const o = s.req.options[s.option] as { target: string };
      expect(o.target).toBe('G');
    }
  });

  it('fusion guns at the Wave Serpent, the target where the calculator expects the most points', () => {
    const seen: Seen[] = [];
    const g = sandbox([
      { id: 'F', player: 0, faction: 'aeldari', name: 'Fire Dragons', at: { x: 20, y: 10 } },
      { id: 'W', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 25, y: 10 } },
      { id: 'P', player: 1, faction: 'tau', name: 'Pathfinder Team', at: { x: 25, y: 16 }, spacing: 1.3 },
    ], 0, seen, { phase: 'shooting' });
    // the expected value of each weapon at each target, from the same exact calculator the agent uses
    const s = g.state;
    const value = new Map<string, number>();
    for (const use of weaponUses(s, s.units.F, false)) for (const t of ['W', 'P']) value.set(`${use.weapon.name}|${t}`, weaponEstimate(s, s.units.F, use, s.units[t], { inRangeOnly: true }).value);
    shootWithUnit(g, g.state.units.F);
    const shots = seen.filter((x) => x.req.kind === 'shoot-target');
    expect(shots.length).toBeGreaterThan(0);
    const first = shots[0];
    const opts = first.req.options as { weapon: string; target: string }[];
    const w = opts[first.option].weapon;
    expect(value.get(`${w}|W`)).toBeGreaterThan(2 * value.get(`${w}|P`)!);
    expect(opts[first.option].target).toBe('W');
  });

  it('spreads its weapons: a target already killed by the first weapons is not shot again', () => {
    const seen: Seen[] = [];
    // a lone Cadre Fireblade-sized target (one Autarch) close by, and a big unit further away
    const g = sandbox([
      { id: 'R', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 20, y: 20 } },
      { id: 'A', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 30, y: 20 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 32, y: 30 }, spacing: 1.3 },
    ], 0, seen, { phase: 'shooting' });
    shootWithUnit(g, g.state.units.R);
    const targets = seen.filter((x) => x.req.kind === 'shoot-target').map((x) => (x.req.options[x.option] as { target: string }).target);
    expect(targets.length).toBeGreaterThan(1);
    expect(new Set(targets).size).toBeGreaterThan(1);
  });
});

describe('the heuristic uses stratagems by expected gain against CP', () => {
  function goToGround(shooter: 'full' | 'lone', cp: number) {
    const seen: Seen[] = [];
    const units: PlacedUnit[] = [
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 19, y: 12 } },
      { id: 'B', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 9], at: { x: 30, y: 8 }, spacing: 1.3 },
    ];
    const g = sandbox(shooter === 'full' ? units : units.filter((u) => u.id !== 'S'), 1, seen, { phase: 'shooting', turn: 0, cp: [0, cp] });
    if (shooter === 'full') g.emit({ type: 'unit-attached', leader: 'F', bodyguard: 'S' });
    shootWithUnit(g, g.state.units[shooter === 'full' ? 'S' : 'F']);
    return { g, seen };
  }

  it('GO TO GROUND for a valuable INFANTRY unit targeted by heavy AP 0 fire (also with its last CP)', () => {
    for (const cp of [2, 1]) {
      const { g, seen } = goToGround('full', cp);
      expect(seen.some((x) => x.req.kind === 'stratagem')).toBe(true);
      expect(usedStratagems(g, 1)).toContain('GO TO GROUND');
    }
  });

  it('not against a single rifle: the gain is worth less than the CP', () => {
    const { g, seen } = goToGround('lone', 1);
    expect(seen.some((x) => x.req.kind === 'stratagem' && (x.req.options as { stratagem?: string }[]).some((o) => o.stratagem === 'GO TO GROUND'))).toBe(true);
    expect(usedStratagems(g, 1)).not.toContain('GO TO GROUND');
  });

  it('no FOCUSED FIRE when either unit alone would all but destroy the one target (the second unit\'s shots are wasted)', () => {
    const seen: Seen[] = [];
    const units: PlacedUnit[] = [
      { id: 'S1', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 16 } },
      { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 3], at: { x: 18, y: 10 } },
    ];
    const g = sandbox(units, 0, seen, { phase: 'shooting', cp: [3, 0], detachments: ["Mont'ka", null], stream: createStream('ff') });
    const s = g.state;
    // AP+1 is worth much to each unit alone (more than the CP), but either one alone takes most of the
    // Banshees: together they cannot take more than the whole unit (four Banshees: the Shas'ui's Pulse
    // pistol does not add to his rifle, Pistols or other weapons, so five would outlast the two volleys)
    const value = (id: string, ap: boolean) => weaponUses(s, s.units[id], false)
      .reduce((n, use) => n + weaponEstimate(s, s.units[id], use, s.units.HB, { inRangeOnly: true, tweak: ap ? (p) => { p.ap -= 1; } : undefined }).value, 0);
    const whole = 1.25 * unitValue(s, s.units.HB);
    expect(value('S1', true) - value('S1', false) + value('S2', true) - value('S2', false)).toBeGreaterThan(40);
    expect(value('S1', true) + value('S2', true)).toBeGreaterThan(whole);
    expect(whole - value('S1', false) - value('S2', false)).toBeLessThan(0);
    openWindow(g, { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } });
    expect(seen.some((x) => x.req.kind === 'stratagem' && (x.req.options as { stratagem?: string }[]).some((o) => o.stratagem === 'FOCUSED FIRE'))).toBe(true);
    expect(usedStratagems(g, 0)).not.toContain('FOCUSED FIRE');
  });

  /** The Armoured Warhost window when one of the heuristic's vehicles (6 CP) is selected to shoot. */
  function soulsight(units: PlacedUnit[], shooter: string): Game {
    const seen: Seen[] = [];
    const g = sandbox(units, 0, seen, { phase: 'shooting', cp: [6, 0], detachments: ['Armoured Warhost', null], factions: ['AE', 'TAU'], stream: createStream('ss') });
    openWindow(g, { name: 'shooting/unit-selected', unit: shooter, targets: [], data: {} });
    expect(seen.some((x) => x.req.kind === 'stratagem' && (x.req.options as { stratagem?: string }[]).some((o) => o.stratagem === 'SOULSIGHT'))).toBe(true);
    return g;
  }

  it('SOULSIGHT for a Falcon\'s few big shots at a Riptide; not for a Wave Serpent\'s many small ones, nor with nothing in range', () => {
    // the exact calculator prices the Hit and Wound re-rolls: on the Falcon's pulse laser against a
    // Riptide they are worth more than a CP; spread over a Wave Serpent's volley of shuriken fire, little
    const riptide = (shooter: string): PlacedUnit[] => [
      { id: 'V', player: 0, faction: 'aeldari', name: shooter, at: { x: 20, y: 20 } },
      { id: 'R', player: 1, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 32, y: 20 } },
    ];
    expect(usedStratagems(soulsight(riptide('Falcon'), 'V'), 0)).toContain('SOULSIGHT');
    expect(usedStratagems(soulsight(riptide('Wave Serpent'), 'V'), 0)).not.toContain('SOULSIGHT');
    const far = soulsight([
      { id: 'V', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 5, y: 5 } },
      { id: 'R', player: 1, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 55, y: 40 } },
    ], 'V');
    expect(usedStratagems(far, 0)).not.toContain('SOULSIGHT');
  });

  /** The Mont'ka window after a unit of the heuristic's was destroyed by `by`. */
  function pinpoint(units: PlacedUnit[], by: string): Game {
    const seen: Seen[] = [];
    const g = sandbox(units, 0, seen, { phase: 'shooting', turn: 1, cp: [3, 0], detachments: ["Mont'ka", null], stream: createStream('pp') });
    // the unit lost (its own window, by no unit, offers nothing), then the window as the enemy unit destroyed it
    for (const m of g.state.units.LOST.models) destroyModel(g, g.state.units.LOST, m, null, 'test');
    openWindow(g, { name: 'unit/destroyed', unit: 'LOST', targets: [], data: { by } });
    expect(seen.some((x) => x.req.kind === 'stratagem' && (x.req.options as { stratagem?: string }[]).some((o) => o.stratagem === 'PINPOINT COUNTER-OFFENSIVE'))).toBe(true);
    return g;
  }

  it('PINPOINT COUNTER-OFFENSIVE against a vehicle a gunline can reach, not when the guns cannot reach it', () => {
    const near = pinpoint([
      { id: 'LOST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 30 } },
      { id: 'R1', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 20, y: 20 } },
      { id: 'R2', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 20, y: 30 } },
      { id: 'H1', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 20, y: 10 } },
      { id: 'H2', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 12, y: 20 } },
      { id: 'B', player: 0, faction: 'tau', name: 'Broadside Battlesuits', at: { x: 12, y: 10 } },
      { id: 'W', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 40, y: 20 } },
    ], 'W');
    expect(usedStratagems(near, 0)).toContain('PINPOINT COUNTER-OFFENSIVE');
    const far = pinpoint([
      { id: 'LOST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 3, y: 30 } },
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 3, y: 3 }, spacing: 1.3 },
      { id: 'W', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 56, y: 40 } },
    ], 'W');
    expect(usedStratagems(far, 0)).not.toContain('PINPOINT COUNTER-OFFENSIVE');
  });

  /** Howling Banshees 8" from a Strike Team: a charge needs 7. The dice: the Charge roll, then the re-roll. */
  function charge(dice: number[], opts: { cp: number; shaken?: boolean }) {
    const seen: Seen[] = [];
    const g = sandbox([
      { id: 'B', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 20, y: 10 }, spacing: 1.3 },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 28.9, y: 10 }, spacing: 1.3 },
    ], 0, seen, { phase: 'charge', cp: [opts.cp, 0], stream: scriptedStream(dice) });
    if (opts.shaken) g.addEffect('Shaken', 1, 'B', g.untilEndOfPhase());
    declareCharge(g, g.state.units.B);
    return { g, seen };
  }

  it('COMMAND RE-ROLL on a failed Charge roll of 6 that needed 7', () => {
    const { g, seen } = charge([3, 3, 5, 4], { cp: 2 });
    const ask = seen.find((x) => x.req.kind === 'stratagem' && (x.req.context?.roll as { purpose?: string } | undefined)?.purpose === 'charge');
    expect(ask).toBeDefined();
    expect((ask!.req.context!.roll as { target: number }).target).toBe(7);
    expect(usedStratagems(g, 0)).toContain('COMMAND RE-ROLL');
    expect(g.state.units.B.flags.charged).toBe(true);
  });

  it('COMMAND RE-ROLL on a failed Wound roll; not on one that succeeded, though DEVASTATING WOUNDS lets it fish for a 6', () => {
    const wound = (v: number) => {
      const seen: Seen[] = [];
      const g = sandbox([
        { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 10, y: 20 } },
        { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 30, y: 20 } },
      ], 0, seen, { phase: 'shooting', cp: [6, 3] });
      afterRoll(g, { purpose: 'wound', player: 0, unit: 'HH', sides: 6, values: [v], rerolled: [], test: { needed: 2, modifier: 0, criticalOn: 6 }, criticalMatters: true });
      return { asked: seen.filter((x) => x.req.kind === 'stratagem').length, used: usedStratagems(g, 0) };
    };
    expect(wound(1)).toEqual({ asked: 1, used: ['COMMAND RE-ROLL'] });
    // the 2 is offered (the engine's part), and the heuristic keeps it
    expect(wound(2)).toEqual({ asked: 1, used: [] });
  });

  it('no COMMAND RE-ROLL on a Charge roll that already succeeded', () => {
    const { g } = charge([4, 5], { cp: 2 });
    expect(usedStratagems(g, 0)).not.toContain('COMMAND RE-ROLL');
    expect(g.state.units.B.flags.charged).toBe(true);
  });

  it('no COMMAND RE-ROLL on a charge that needs more than 12 (Shaken: -2 to the Charge roll)', () => {
    const seen: Seen[] = [];
    const g = sandbox([
      { id: 'B', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 20, y: 10 }, spacing: 1.3 },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 33.8, y: 10 }, spacing: 1.3 },
    ], 0, seen, { phase: 'charge', cp: [3, 0], stream: scriptedStream([3, 3, 6, 6]) });
    g.addEffect('Shaken', 1, 'B', g.untilEndOfPhase());
    declareCharge(g, g.state.units.B, { targets: ['S'] });
    const ask = seen.find((x) => x.req.kind === 'stratagem' && (x.req.context?.roll as { purpose?: string } | undefined)?.purpose === 'charge');
    expect(ask).toBeDefined();
    expect(usedStratagems(g, 0)).not.toContain('COMMAND RE-ROLL');
  });

  it('COMMAND RE-ROLL on a Charge roll prices the target\'s Grav-inhibitor Drone: a 6 that needed 7 is re-rolled, not when the drone makes it 9', () => {
    const run = (wargear: string[]) => {
      const seen: Seen[] = [];
      const g = sandbox([
        { id: 'B', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 20, y: 10 }, spacing: 1.3 },
        { id: 'P', player: 1, faction: 'tau', name: 'Pathfinder Team', at: { x: 28.9, y: 10 }, spacing: 1.3, wargear: [wargear] },
      ], 0, seen, { phase: 'charge', cp: [2, 0], stream: scriptedStream([3, 3, 5, 5]) });
      declareCharge(g, g.state.units.B);
      const ask = seen.find((x) => x.req.kind === 'stratagem' && (x.req.context?.roll as { purpose?: string } | undefined)?.purpose === 'charge');
      expect((ask!.req.context!.roll as { target: number }).target).toBe(7);
      return usedStratagems(g, 0);
    };
    expect(run([])).toContain('COMMAND RE-ROLL');
    expect(run(['Grav-inhibitor Drone'])).not.toContain('COMMAND RE-ROLL');
  });

  it('no COMMAND RE-ROLL of a single Hit roll with its last CP', () => {
    const seen: Seen[] = [];
    const g = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 10 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 10 }, spacing: 1.3 },
    ], 0, seen, { phase: 'shooting', cp: [1, 0], stream: scriptedStream([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) });
    try { shootWithUnit(g, g.state.units.F); } catch { /* scripted dice may run out after the decision */ }
    const ask = seen.find((x) => x.req.kind === 'stratagem' && (x.req.options as { stratagem?: string }[]).some((o) => o.stratagem === 'COMMAND RE-ROLL'));
    expect(ask).toBeDefined();
    expect(usedStratagems(g, 0)).not.toContain('COMMAND RE-ROLL');
  });
});

describe('the heuristic uses what its detachment gives it', () => {
  /** The heuristic's scores of a Normal move and an Advance toward the marker, for a Falcon 20" from it. */
  function falconScores(detachment: string | null): { normal: number; advance: number } {
    const g = sandbox([
      { id: 'F', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 10, y: 22 } },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 30 } },
    ], 0, [], { phase: 'movement', round: 2, detachments: [detachment, null], factions: ['AE', 'TAU'], stream: createStream('aw-move') });
    const h = createHeuristic();
    let scores: number[] = [];
    let options: { mode: string; toward?: string }[] = [];
    g.agents![0] = {
      name: 'heuristic',
      decide(view, req) {
        const d = h.decide(view, req);
        if (req.kind === 'move') { scores = lastOptionScores(); options = req.options as typeof options; }
        return d;
      },
    };
    moveUnit(g, g.state.units.F);
    const at = (mode: string) => options.findIndex((o) => o.mode === mode && o.toward === 'objective o1');
    expect(at('normal')).toBeGreaterThanOrEqual(0);
    expect(at('advance')).toBeGreaterThanOrEqual(0);
    return { normal: scores[at('normal')], advance: scores[at('advance')] };
  }

  it('Armoured Warhost (Skilled Crews: VEHICLE guns have ASSAULT): an Advance keeps the Falcon\'s guns, and scores their value more', () => {
    const aw = falconScores('Armoured Warhost');
    const none = falconScores(null);
    // a Normal move is the same with or without the detachment
    expect(aw.normal).toBeCloseTo(none.normal, 9);
    // after an Advance only ASSAULT guns fire: the twin shuriken catapult without the detachment, every gun with it
    expect(aw.advance - none.advance).toBeGreaterThan(10);
  });

  it('Skilled Crews (FLY VEHICLE units re-roll the Advance roll): the heuristic re-rolls 1-3 and expects 4.25" from an Advance', () => {
    const advance = (detachment: string | null, dice: number[]) => {
      const seen: Seen[] = [];
      const stream = scriptedStream(dice);
      const g = sandbox([
        { id: 'F', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 10, y: 22 } },
        { id: 'W', player: 0, faction: 'aeldari', name: 'War Walkers', at: { x: 10, y: 32 } },
        { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 30 } },
      ], 0, seen, { phase: 'movement', round: 2, detachments: [detachment, null], factions: ['AE', 'TAU'], stream });
      return { g, seen, distance: advanceDistance(g, g.state.units.F), left: stream.remaining() };
    };
    // a 3 is re-rolled (into a 5), a 4 kept: a re-roll averages 3.5
    expect(advance('Armoured Warhost', [3, 5])).toMatchObject({ distance: 5, left: 0 });
    expect(advance('Armoured Warhost', [4, 1])).toMatchObject({ distance: 4, left: 1 });
    // without the detachment nothing is asked and the 3 stands
    const none = advance(null, [3, 5]);
    expect(none).toMatchObject({ distance: 3, left: 1 });
    expect(none.seen.some((x) => x.req.kind === 'reroll-advance')).toBe(false);
    // what its move scores count on: (4 + 5 + 6 + 3 x 3.5) / 6 for the FLY VEHICLE; a D6's 3.5 for the War
    // Walkers (no FLY) and without the detachment
    const { g } = advance('Armoured Warhost', [4]);
    expect(expectedAdvance(g.state, g.state.units.F)).toBeCloseTo(4.25, 12);
    expect(expectedAdvance(g.state, g.state.units.W)).toBe(3.5);
    expect(expectedAdvance(none.g.state, none.g.state.units.F)).toBe(3.5);
    // with Shaken's -2 (never below 0, as advanceDistance plays it): the re-rolled D6 gives 0, 0, 1 a 12th of
    // the time each and 2, 3, 4 a quarter each; the plain D6 0, 0, 1, 2, 3, 4
    for (const id of ['F', 'W']) g.addEffect('Shaken', 1, id, g.untilEndOfPhase());
    expect(expectedAdvance(g.state, g.state.units.F)).toBeCloseTo(1 / 12 + 9 / 4, 12);
    expect(expectedAdvance(g.state, g.state.units.W)).toBeCloseTo(10 / 6, 12);
  });

  /**
   * The move the heuristic makes with an Armoured Warhost unit `gap` inches from the marker (round 2), with
   * a Strike Team at `enemyAt`.
   */
  function moveToMarker(name: string, gap: number, enemyAt: { x: number; y: number }, params: Parameters<typeof createHeuristic>[0] = {}): { mode: string; toward?: string } {
    const g = sandbox([
      { id: 'V', player: 0, faction: 'aeldari', name, at: { x: 30 - gap, y: 22 } },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: enemyAt },
    ], 0, [], { phase: 'movement', round: 2, detachments: ['Armoured Warhost', null], factions: ['AE', 'TAU'], stream: createStream('gunline') });
    const h = createHeuristic(params);
    let chosen: { mode: string; toward?: string } | null = null;
    g.agents![0] = {
      name: 'heuristic',
      decide(view, req) {
        const d = h.decide(view, req);
        if (req.kind === 'move') chosen = req.options[d.option] as { mode: string; toward?: string };
        return d;
      },
    };
    moveUnit(g, g.state.units.V);
    expect(chosen).not.toBeNull();
    return chosen!;
  }

  it('a gun platform (longest gun 60" or more) does not Advance onto a marker the enemy could charge; away from them, or shorter-ranged, it does', () => {
    const takesMarker = expect.objectContaining({ mode: 'advance', toward: 'objective o1' });
    // 19.5" away: a Normal move (14") stops off the marker, an Advance (14" + D6) gets onto it. The Fire
    // Prism's prism cannon reaches 60" and the Strike Team 14" beyond the marker could charge it there: it stays back
    const near = { x: 44, y: 22 };
    // the rule for VEHICLE units (gunlineVehicles) off throughout: the 60" rule alone holds it back
    const rangeOnly = { gunlineVehicles: 0 };
    expect(moveToMarker('Fire Prism', 19.5, near, rangeOnly).mode).not.toBe('advance');
    // the same with the 60" rule switched off too: it takes the marker (so the situation does tempt it)
    expect(moveToMarker('Fire Prism', 19.5, near, { ...rangeOnly, gunlineRange: Infinity })).toEqual(takesMarker);
    // the Strike Team far from the marker: it takes it
    expect(moveToMarker('Fire Prism', 19.5, { x: 56, y: 40 }, rangeOnly)).toEqual(takesMarker);
    // as committed (both rules on) it stays back too
    expect(moveToMarker('Fire Prism', 19.5, near).mode).not.toBe('advance');
  });

  it('a VEHICLE carrying no passengers, whatever its guns reach, does not Advance onto a marker the enemy could charge; away from them it does', () => {
    const takesMarker = expect.objectContaining({ mode: 'advance', toward: 'objective o1' });
    const near = { x: 44, y: 22 };
    // War Walkers (24" shuriken cannons, 10" move) 15.5" away: an Advance gets them onto the marker, with
    // their ASSAULT guns, but the Strike Team 14" beyond it could charge them there
    expect(moveToMarker('War Walkers', 15.5, near).mode).not.toBe('advance');
    // the doctrine switched off: they take it (the situation does tempt them)
    expect(moveToMarker('War Walkers', 15.5, near, { gunlineVehicles: 0 })).toEqual(takesMarker);
    // the Strike Team far from the marker: they take it
    expect(moveToMarker('War Walkers', 15.5, { x: 56, y: 40 })).toEqual(takesMarker);
  });

  it('WEIGHTS.chargeCost prices the odds of a charge instead of the veto (chargeCost 0): a likely charge holds the War Walkers back, an unlikely one no longer does', () => {
    const takesMarker = expect.objectContaining({ mode: 'advance', toward: 'objective o1' });
    const veto = { chargeCost: 0 };
    // the Strike Team 14" beyond the marker: a charge on them there is likely; priced (as committed) or
    // vetoed they stay back
    expect(moveToMarker('War Walkers', 15.5, { x: 44, y: 22 }).mode).not.toBe('advance');
    expect(moveToMarker('War Walkers', 15.5, { x: 44, y: 22 }, veto).mode).not.toBe('advance');
    // 22" beyond it: a charge is possible but unlikely. The veto (any odds above 0) holds them back; the
    // price (half their worth times the odds) is less than what the marker and the guns are worth: they take it
    const far = { x: 52, y: 22 };
    expect(moveToMarker('War Walkers', 15.5, far, veto).mode).not.toBe('advance');
    expect(moveToMarker('War Walkers', 15.5, far)).toEqual(takesMarker);
    // the same odds priced at 100 times the worth hold them back: the price, not its absence, decides
    expect(moveToMarker('War Walkers', 15.5, far, { chargeCost: 100 }).mode).not.toBe('advance');
  });

  /** A Wave Serpent with Guardian Defenders inside, 20" from the marker, under Armoured Warhost (4 CP). */
  function serpent(enemyAt: { x: number; y: number }) {
    const seen: Seen[] = [];
    const g = sandbox([
      { id: 'W', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 10, y: 22 } },
      { id: 'G', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 3, y: 3 } },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: enemyAt },
    ], 0, seen, { phase: 'movement', round: 2, cp: [4, 0], detachments: ['Armoured Warhost', null], factions: ['AE', 'TAU'], stream: createStream('sd') });
    g.emit({ type: 'unit-location', unit: 'G', location: 'embarked', embarkedIn: 'W' });
    moveUnit(g, g.state.units.W);
    if (g.state.units.G.location === 'embarked') moveUnit(g, g.state.units.G);
    expect(seen.some((x) => x.req.kind === 'stratagem' && (x.req.options as { stratagem?: string }[]).some((o) => o.stratagem === 'SWIFT DEPLOYMENT'))).toBe(true);
    return g;
  }

  it('SWIFT DEPLOYMENT when the Advance lets the Guardians out in range of the enemy; not when they would stay in', () => {
    // the Strike Team 20" beyond the marker: after an Advance onto it the Guardians get out within 24"
    const near = serpent({ x: 50, y: 22 });
    expect(usedStratagems(near, 0)).toContain('SWIFT DEPLOYMENT');
    expect(near.state.units.W.flags.advanced).toBe(true);
    expect(near.state.units.G.location).toBe('battlefield');
    // far away: getting out gains nothing (the Serpent takes the marker itself), so no CP is spent on it
    const far = serpent({ x: 56, y: 40 });
    expect(usedStratagems(far, 0)).not.toContain('SWIFT DEPLOYMENT');
    expect(far.state.units.G.location).toBe('embarked');
  });
});

describe('the heuristic Falls Back only where the unit can', () => {
  // A Warlock in a corner, in Engagement Range of Strike Team models along the board edge: with two of
  // them it can Fall Back toward the marker; with four rows it cannot end more than 1" from them within its
  // Move anywhere, and the engine would have it Remain Stationary whatever Fall Back it chose
  function cornered(rows: number[]) {
    const g = battleSandbox([
      { id: 'WL', player: 0, faction: 'aeldari', name: 'Warlock', at: { x: 1, y: 4 } },
      ...rows.map((x, i) => ({ id: `ST${i}`, player: 1 as const, faction: 'tau' as const, name: 'Strike Team', at: { x, y: 0.6 } })),
    ], { phase: 'movement', round: 2, factions: ['AE', 'TAU'] });
    const u = g.state.units.WL;
    const options = moveOptions(g.state, u);
    const d = createHeuristic().decide({ state: g.state, player: 0 }, { kind: 'move', player: 0, prompt: 'WL: how does it move?', options, context: { unit: 'WL' } });
    const reachable = options.map((o) => (o.mode === 'fall-back' ? canFallBack(g.state, u, o.to) : null));
    return { options, chosen: options[d.option], scores: lastOptionScores().slice(), reachable };
  }

  it('with a Fall Back it can make, it Falls Back toward the marker', () => {
    const { chosen, reachable } = cornered([2.3, 3.9]);
    expect(chosen).toMatchObject({ mode: 'fall-back', toward: 'objective o1' });
    expect(reachable.every((r) => r !== false)).toBe(true);
  });

  it('walled in, it Remains Stationary rather than choose the Fall Back it scores best, which the planner cannot make', () => {
    const { options, chosen, scores, reachable } = cornered([2.3, 3.9, 5.5, 7.1]);
    expect(reachable.filter((r) => r !== null).every((r) => r === false)).toBe(true);
    expect(chosen).toEqual({ mode: 'stationary' });
    // the marker's Fall Back (what a straight-line estimate scores best) was checked and dropped
    const marker = options.findIndex((o) => o.mode === 'fall-back' && o.toward === 'objective o1');
    expect(scores[marker]).toBe(-Infinity);
    expect(Number.isFinite(scores[options.indexOf(chosen)])).toBe(true);
  });
});

describe('the heuristic scores a move where the planner takes the unit', () => {
  // A Fire Prism (Move 12") at (18, 22) with two markers 12" away: o1 at (30, 22) straight ahead, o2 at
  // (18, 34) straight down. A straight line reaches either; the planner reaches o2, but with an impassable
  // wall across the way to o1 (x 24-25, y 8-36) the Prism must go round it and cannot get near o1.
  function prism(wall: boolean) {
    const terrain = wall ? [{ id: 'w', kind: 'impassable' as const, height: 5, polygon: [{ x: 24, y: 8 }, { x: 25, y: 8 }, { x: 25, y: 36 }, { x: 24, y: 36 }] }] : [];
    const g = battleSandbox([
      { id: 'P', player: 0, faction: 'aeldari', name: 'Fire Prism', at: { x: 18, y: 22 } },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 58, y: 4 } },
    ], { phase: 'movement', round: 2, factions: ['AE', 'TAU'], terrain, objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }, { id: 'o2', pos: { x: 18, y: 34 } }] });
    const u = g.state.units.P;
    const options = moveOptions(g.state, u);
    const d = createHeuristic().decide({ state: g.state, player: 0 }, { kind: 'move', player: 0, prompt: 'P: how does it move?', options, context: { unit: 'P' } });
    const scores = lastOptionScores().slice();
    const index = (toward: string) => options.findIndex((o) => o.mode === 'normal' && o.toward === toward);
    return { chosen: options[d.option], o1: scores[index('objective o1')], o2: scores[index('objective o2')] };
  }

  it('walled off from the marker ahead, it takes the marker it can reach, the other scored where the planner stops', () => {
    const open = prism(false);
    const walled = prism(true);
    // in the open both markers are reached, and from o1 (east of where the wall would be) its guns see the
    // Strike Team: a straight line to o1 past the wall would still score that, more than o2 walled off
    expect(open.o1).toBeGreaterThan(walled.o2 + 5);
    // the planner finds no way round within 12": the Prism would stay where it is, scored there
    expect(walled.o1).toBeLessThan(walled.o2 - 5);
    expect(walled.chosen).toMatchObject({ mode: 'normal', toward: 'objective o2' });
  });
});

describe('the heuristic moves to where its guns see', () => {
  /**
   * The heuristic's score for each move of a Fire Prism at (10, 22) with an enemy unit (a Strike Team
   * unless named) at (50, 22), with or without a ruin just in front of the Fire Prism (x 14-16, y 16-28)
   * that hides each from the other.
   */
  function prismMoveScores(ruin: boolean, params: Parameters<typeof createHeuristic>[0] = {}, enemy = 'Strike Team'): Map<string, number> {
    const terrain = ruin ? [{ id: 'r1', kind: 'ruin' as const, height: 5, polygon: [{ x: 14, y: 16 }, { x: 16, y: 16 }, { x: 16, y: 28 }, { x: 14, y: 28 }] }] : [];
    const g = sandbox([
      { id: 'P', player: 0, faction: 'aeldari', name: 'Fire Prism', at: { x: 10, y: 22 } },
      { id: 'S', player: 1, faction: 'tau', name: enemy, at: { x: 50, y: 22 } },
    ], 0, [], { phase: 'movement', round: 2, factions: ['AE', 'TAU'], terrain });
    // every option scored (prune 0): with pruning, options that cannot be among the best are not
    const h = createHeuristic({ prune: 0, ...params });
    const scores = new Map<string, number>();
    g.agents![0] = {
      name: 'heuristic',
      decide(view, req) {
        const d = h.decide(view, req);
        if (req.kind === 'move') {
          const all = lastOptionScores();
          (req.options as { mode: string; toward?: string }[]).forEach((o, i) => scores.set(`${o.mode} ${o.toward ?? ''}`.trim(), all[i]));
        }
        return d;
      },
    };
    moveUnit(g, g.state.units.P);
    expect(scores.size).toBeGreaterThan(3);
    return scores;
  }

  it('a position from which terrain hides the target is worth less by the value of its shooting', () => {
    const open = prismMoveScores(false);
    const hidden = prismMoveScores(true);
    // Remaining Stationary behind the ruin, the Strike Team cannot be seen: the score loses the shooting
    // (the fire weight times the prism cannon's expected value, tens of points)
    const lost = open.get('stationary')! - hidden.get('stationary')!;
    expect(lost).toBeGreaterThan(20);
    // a Normal move toward the Strike Team ends 14" on, past the ruin, where it sees again: same score
    expect(hidden.get('normal enemy S')).toBeCloseTo(open.get('normal enemy S')!, 9);
    // so the ruin makes moving out better than staying, by what staying lost
    const gain = (sc: Map<string, number>) => sc.get('normal enemy S')! - sc.get('stationary')!;
    expect(gain(hidden) - gain(open)).toBeCloseTo(lost, 9);
    // control: with sight not checked (blockedFire 1, hiddenDanger 1), the ruin changes nothing
    expect(prismMoveScores(true, { blockedFire: 1, hiddenDanger: 1 }).get('stationary')).toBeCloseTo(open.get('stationary')!, 9);
  });

  it('the danger of a position counts half the guns of an enemy unit that cannot see it from where it stands', () => {
    // a Hammerhead Gunship 40" away: its railgun reaches the Fire Prism; the shooting side is left out
    // (blockedFire 1) so that only the danger differs
    const only = (ruin: boolean, hiddenDanger: number) => prismMoveScores(ruin, { blockedFire: 1, hiddenDanger }, 'Hammerhead Gunship').get('stationary')!;
    const open = only(false, 0.5);
    const saved = only(true, 0.5) - open;
    // the danger weight (0.15) times half of the railgun's expected value against the Fire Prism
    expect(saved).toBeGreaterThan(3);
    // with hidden guns counted at 0 the saving doubles; at 1 there is none
    expect(only(true, 0) - open).toBeCloseTo(2 * saved, 9);
    expect(only(true, 1)).toBeCloseTo(open, 9);
    // without the ruin the weight changes nothing (the enemy sees the Fire Prism)
    expect(only(false, 0)).toBeCloseTo(open, 9);
  });

  it('prune N scores at least the best N move options in full, each as without pruning (what a search agent tries)', () => {
    const best = (m: Map<string, number>, n: number) => [...m].filter(([, v]) => Number.isFinite(v)).sort((a, b) => b[1] - a[1]).slice(0, n);
    const full = prismMoveScores(false, { prune: 0 });
    for (const n of [1, 3, 5]) {
      const pruned = prismMoveScores(false, { prune: n });
      expect(best(pruned, n)).toEqual(best(full, n));
      // and fewer than all of them: the pruning does prune here
      expect([...pruned.values()].filter(Number.isFinite).length).toBeLessThan(full.size);
    }
  });
});

describe('the heuristic deploys where enemy guns do not see', () => {
  /**
   * The heuristic's scores for setting up a Fire Prism at (10, 22) or (10, 8), with a Strike Team set
   * up at (50, 22), with or without a ruin at x 14-16, y 16-28 (it hides (10, 22) from the Strike Team,
   * not (10, 8)).
   */
  function deployScores(ruin: boolean, params: Parameters<typeof createHeuristic>[0] = {}): { hidden: number; open: number; potential: number } {
    const terrain = ruin ? [{ id: 'r1', kind: 'ruin' as const, height: 5, polygon: [{ x: 14, y: 16 }, { x: 16, y: 16 }, { x: 16, y: 28 }, { x: 14, y: 28 }] }] : [];
    const g = sandbox([
      { id: 'P', player: 0, faction: 'aeldari', name: 'Fire Prism', at: { x: 10, y: 22 } },
      { id: 'S', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 22 } },
    ], 0, [], { phase: 'movement', round: 1, factions: ['AE', 'TAU'], terrain });
    const h = createHeuristic(params);
    const req: DecisionRequest = { kind: 'deploy', player: 0, prompt: 'set up a unit', options: [{ unit: 'P', x: 10, y: 22 }, { unit: 'P', x: 10, y: 8 }] };
    h.decide({ state: g.state, player: 0 }, req);
    const [hidden, open] = lastOptionScores();
    return { hidden, open, potential: unitAttackPotential(g.state, g.state.units.S, g.state.units.P, false) };
  }

  it('an enemy unit that cannot see the spot counts for WEIGHTS.hiddenDanger of its guns', () => {
    const bare = deployScores(false);
    const ruin = deployScores(true);
    expect(bare.potential).toBeGreaterThan(1);
    // behind the ruin the Strike Team's guns (40" away: 0.3 of them) count half
    expect(ruin.hidden - bare.hidden).toBeCloseTo(0.5 * bare.potential * 0.3 * WEIGHTS.deployDanger, 9);
    // in the open, the ruin changes nothing
    expect(ruin.open).toBeCloseTo(bare.open, 9);
    // controls: sight not checked at deployment, or hidden guns counted in full
    expect(deployScores(true, { deploySight: 0 }).hidden).toBeCloseTo(bare.hidden, 9);
    expect(deployScores(true, { hiddenDanger: 1 }).hidden).toBeCloseTo(bare.hidden, 9);
  });
});

describe("the heuristic's move search skips only options that cannot win", () => {
  // WEIGHTS.prune scores move options in the order of an upper bound (no sight lines) and stops where no
  // bound can beat the best found: the same moves, the same explanations in the log, as scoring every one
  it.each(['default.json', 'mirror/armoured-warhost-vs-none.json'])('%s: the same game with and without pruning', (file) => {
    const sc = loadScenario(join(SCENARIOS_DIR, file));
    const play = (prune: number) => {
      const seed = `prune:${file}`;
      const { game } = playGame(sc, { seed, agents: [createHeuristic({ prune }), createHeuristic({ prune })], log: true });
      return game.log!.map((e) => JSON.stringify(e));
    };
    const pruned = play(WEIGHTS.prune);
    const full = play(0);
    expect(pruned.length).toBeGreaterThan(500);
    expect(pruned).toEqual(full);
  });
});

describe('move scores remembered within a state version', () => {
  // Two Strike Teams far from the only marker: the first to move heads for it (a heading noted by the
  // agent, no event), which makes the marker worth less to the second (it is crowded). Scores
  // remembered before the heading must not be served after it.
  const setup = () => battleSandbox([
    { id: 'X', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 4, y: 14 } },
    { id: 'Y', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 4, y: 28 } },
    { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 57, y: 20 } },
  ], { phase: 'movement', turn: 0, round: 2 });
  const moveReq = (g: Game, unit: string): DecisionRequest => ({ kind: 'move', player: 0, prompt: `move ${unit}`, options: moveOptions(g.state, g.state.units[unit]), context: { unit } });
  const yScores = (steps: ('select' | 'X')[]) => {
    const g = setup();
    const h = createHeuristic();
    const view = { state: g.state, player: 0 as PlayerIndex };
    for (const step of steps) {
      if (step === 'select') h.decide(view, { kind: 'select-unit-to-move', player: 0, prompt: 'select', options: [{ unit: 'X' }, { unit: 'Y' }, { done: true }] });
      else h.decide(view, moveReq(g, 'X'));
    }
    const option = h.decide(view, moveReq(g, 'Y')).option;
    return { option, scores: lastOptionScores().slice() };
  };

  it('a heading noted after the scores were remembered is counted (the same scores as a fresh agent)', () => {
    const alone = yScores([]);
    const afterX = yScores(['X']);
    // the heading matters here: without it the second unit scores the marker higher
    expect(afterX.scores).not.toEqual(alone.scores);
    // scored once during the selection (remembered), then X heads for the marker, then Y is asked
    expect(yScores(['select', 'X'])).toEqual(afterX);
  });
});

describe('Battle-shock priced by the OC it takes', () => {
  // PRESENTIMENT OF DREAD's choice scores an enemy unit by what a failed test costs it. A Strike Team that
  // Aun'Shi leads keeps his +1 OC while Battle-shocked (set to 0 first, then +1), so holding the marker is
  // worth less of that cost than for the same unit without Inspirational Defiance; the chance to fail and the
  // unit's value are the same both ways.
  const score = (onMarker: boolean, defiance: boolean) => {
    const g = battleSandbox([
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 22 } },
      { id: 'AS', player: 1, faction: 'tau', name: "Aun'shi", at: { x: 31, y: 21 } },
      { id: 'S2', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 5 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 5 } },
    ], { phase: 'shooting', turn: 0, round: 2, objectives: [{ id: 'o1', pos: onMarker ? { x: 30, y: 22 } : { x: 55, y: 40 } }] });
    g.emit({ type: 'unit-attached', leader: 'AS', bodyguard: 'ST' });
    // attached, the unit carries its Leader's abilities
    const ST = g.state.units.ST;
    if (!defiance) ST.abilities = ST.abilities.filter((a) => a !== 'Inspirational Defiance');
    createHeuristic().decide({ state: g.state, player: 0 }, { kind: 'presentiment-of-dread', player: 0, prompt: 'which', options: ['ST', 'S2'], context: { unit: 'GD' } });
    const oc = (shocked: boolean) => ST.models.filter((m) => m.alive).reduce((t, m) => t + characteristic(g.state, { ...ST, battleShocked: shocked }, m, 'OC'), 0);
    return { score: lastOptionScores()[0], share: (oc(false) - oc(true)) / oc(false) };
  };

  it("the marker's part of the cost is scaled by the share of OC lost (Aun'Shi's +1 is kept)", () => {
    const withDefiance = score(true, true).score - score(false, true).score;
    const without = score(true, false).score - score(false, false).score;
    const { share } = score(true, true);
    // ten Fire Warriors at OC 3 keep 1 each, Aun'Shi (OC 1 + 1) keeps 1: 21 of 32 lost
    expect(share).toBeCloseTo(21 / 32, 9);
    expect(without).toBeGreaterThan(0);
    expect(withDefiance / without).toBeCloseTo(share, 9);
    // without the ability nothing is kept: the whole of the marker's part
    expect(score(true, false).share).toBe(1);
  });
});
