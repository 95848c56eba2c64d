/**
 * Kroot Raiding Party (T'au, Boarding Actions): BOARDING BLADES, SWEEPING AMBUSH, TANGLEBOMB BOLAS, BRUTE FORCE,
 * Experienced Leader, what is registered as not played (Guerrilla Ambushers, Quill Marker), and the bundled
 * mirror scenario, each against the same situation without it.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { ruleChecker } from '../helpers/rule-checks.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { DiceRolledEvent, GameEvent } from '../../src/core/events.ts';
import type { Game } from '../../src/core/game.ts';
import { emptyGameState, type HatchwayState, type PhaseName } from '../../src/core/state.ts';
import { apply } from '../../src/core/reducer.ts';
import { createStream, type Stream } from '../../src/core/rng.ts';
import { getRule, pileInMove } from '../../src/core/rules-registry.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { hatchwayStep } from '../../src/rules/battle/hatchways.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { chargePhase, declareCharge } from '../../src/rules/battle/charge.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { characteristic, rollHalved } from '../../src/rules/battle/units.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { SCENARIOS_DIR, loadScenario } from '../../src/data/scenario.ts';
import { loadAgents } from '../../src/core/agent-loader.ts';
import { playGame } from '../../src/sim/play.ts';

const DETACHMENT = 'Kroot Raiding Party';

const using = (name: string | null, then: (r: DecisionRequest) => number = () => 0) => (r: DecisionRequest) =>
  (r.kind === 'stratagem' ? (name ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : 0) : then(r));

const WALLS = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];
const HATCH: HatchwayState = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };

/** Player 0: T'au with the detachment (or `detachment`), 3 CP, answering with `pick`; player 1: Aeldari, first options. Boarding Actions, round 2. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: 0 | 1; detachment?: string | null; stream?: Stream; hatch?: boolean; pick?: (r: DecisionRequest) => number; round?: number } = {}): Game {
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: opts.phase ?? 'fight', turn: opts.turn ?? 0, round: opts.round ?? 2, cp: [3, 3],
    factions: ['TAU', 'AE'], detachments: [opts.detachment === undefined ? DETACHMENT : opts.detachment, null],
    stream: opts.stream ?? createStream('kroot-raiding-party'), agents: [scriptedAgent('tau', opts.pick ?? using(null)), scriptedAgent('ae')],
    ...(opts.hatch ? { terrain: WALLS, hatchways: [HATCH] } : {}),
  });
}

const offered = (g: Game, w: Window, p: 0 | 1 = 0) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`);
const dice = (log: readonly GameEvent[]) => log.filter((e): e is DiceRolledEvent => e.type === 'dice');
/** The mortal wounds a unit suffered in these events. */
const mortalWounds = (log: readonly GameEvent[], unit: string) => log.reduce((n, e) => n + (e.type === 'model-damaged' && e.unit === unit && e.mortal ? e.wounds : 0), 0);

// ten Kroot Carnivores beside five Guardian Defenders; a Strike Team (T'au, not KROOT) beside them too
const KC: PlacedUnit = { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1, 9], at: { x: 10, y: 5 }, spacing: 1.1 };
const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 11.3, y: 5 }, spacing: 1.1 };
const ST: PlacedUnit = { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 5 }, spacing: 1 };
const DA: PlacedUnit = { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 31.3, y: 5 }, spacing: 1 };

describe('not played in these games', () => {
  it('Guerrilla Ambushers (an Overwatch rule: no FIRE OVERWATCH in Boarding Actions) and Quill Marker (charges need no sight of their target here) are registered as not played', () => {
    expect(getRule('Guerrilla Ambushers')?.missing).toMatch(/Overwatch/);
    expect(getRule('Quill Marker')?.missing).toMatch(/charge/);
  });
});

describe('BOARDING BLADES (Kroot Raiding Party)', () => {
  it('as a KROOT unit is selected to fight: +1 AP for its melee weapons this phase, and one more on a Critical Wound; not offered to other units', () => {
    const g = sandbox([KC, GD, ST, DA], { pick: using('BOARDING BLADES') });
    const before = planFor(g, 'KC', 'GD', 'Close combat weapon');
    expect(offered(g, { name: 'fight/unit-selected', unit: 'ST', targets: [] })).toEqual([]);
    expect(openWindow(g, { name: 'fight/unit-selected', unit: 'KC', targets: [] })).toEqual(['BOARDING BLADES']);
    const after = planFor(g, 'KC', 'GD', 'Close combat weapon');
    expect(after.ap).toBe(before.ap - 1);
    expect(after.criticalWoundAp).toBe(before.criticalWoundAp + 1);
    // ranged weapons are not changed, nor another unit's melee
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').ap).toBe(planFor(sandbox([KC, GD]), 'KC', 'GD', 'Kroot rifle').ap);
    expect(planFor(g, 'ST', 'DA', 'Close combat weapon').ap).toBe(planFor(sandbox([KC, GD, ST, DA]), 'ST', 'DA', 'Close combat weapon').ap);
    expect(g.state.players[0].cp).toBe(2);
    // not without the detachment
    expect(offered(sandbox([KC, GD], { detachment: null }), { name: 'fight/unit-selected', unit: 'KC', targets: [] })).toEqual([]);
  });
});

describe('SWEEPING AMBUSH (Kroot Raiding Party)', () => {
  // the Carnivores 5" from the Guardians (edge to edge): a 3" Pile-in does not reach them, a 6" one does
  const far: PlacedUnit = { ...GD, at: { x: 16.1, y: 5 }, spacing: 1.3 };
  const kroot: PlacedUnit = { ...KC, spacing: 0.8 };

  it('as a KROOT unit is selected to fight: its Pile-in and Consolidation moves reach 6" this phase (3" before)', () => {
    const g = sandbox([KC, far], { pick: using('SWEEPING AMBUSH') });
    expect(pileInMove(g.state, g.state.units.KC).distance).toBe(3);
    expect(openWindow(g, { name: 'fight/unit-selected', unit: 'KC', targets: [] })).toEqual(['SWEEPING AMBUSH']);
    expect(pileInMove(g.state, g.state.units.KC).distance).toBe(6);
    expect(offered(sandbox([ST, DA]), { name: 'fight/unit-selected', unit: 'ST', targets: [] })).toEqual([]);
  });

  it('in a fight after a charge: the Carnivores pile in more than 3" into Engagement Range and fight; the invariant checks accept the move', () => {
    const play = (stratagem: string | null) => {
      const g = sandbox([kroot, far], { pick: using(stratagem), turn: 0 });
      g.emit({ type: 'unit-flag', unit: 'KC', flag: 'charged', value: true });
      const from = g.log!.length;
      fight(g, g.state.units.KC);
      return { g, log: g.log!.slice(from) };
    };
    const moved = (g: Game, log: readonly GameEvent[]) => {
      type Placed = { positions: { model: string; pos: { x: number; y: number } }[] };
      const at = log.find((e) => e.type === 'models-placed' && e.unit === 'KC' && e.mode === 'pile-in') as Placed | undefined;
      if (!at) return 0;
      const first = g.log!.find((e) => e.type === 'models-placed' && e.unit === 'KC') as Placed;
      const start = new Map(first.positions.map((p) => [p.model, p.pos]));
      return Math.max(...at.positions.map((p) => Math.hypot(p.pos.x - start.get(p.model)!.x, p.pos.y - start.get(p.model)!.y)));
    };
    const swept = play('SWEEPING AMBUSH');
    expect(swept.g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['SWEEPING AMBUSH']);
    expect(moved(swept.g, swept.log)).toBeGreaterThan(3);
    expect(moved(swept.g, swept.log)).toBeLessThanOrEqual(6 + 1e-6);
    expect(dice(swept.log).some((e) => e.purpose === 'hit' && e.unit === 'KC')).toBe(true);
    const rules = ruleChecker();
    const state = emptyGameState();
    for (const e of swept.g.log!) { apply(state, e); rules.onEvent(e, state); }
    expect(rules.violations.filter((v) => /pile-in|consolidate/.test(v))).toEqual([]);
    // without it the 3" Pile-in ends short: no model fights
    const plain = play(null);
    expect(moved(plain.g, plain.log)).toBeLessThanOrEqual(3 + 1e-6);
    expect(dice(plain.log).some((e) => e.purpose === 'hit' && e.unit === 'KC')).toBe(false);
  });
});

describe('TANGLEBOMB BOLAS (Kroot Raiding Party)', () => {
  // Guardians 6" from the Carnivores (within 9", seen); Dire Avengers 20" away
  const near: PlacedUnit = { ...GD, at: { x: 17.2, y: 5 } };
  const away: PlacedUnit = { ...DA, at: { x: 35, y: 25 } };
  const start: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } };

  it('at the start of the Shooting phase, for a KROOT unit with an enemy unit within 9" it sees: only that unit is offered to pick; on a 2+ it is slowed', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([KC, near, away], { phase: 'shooting', stream: scriptedStream([2]), pick: using('TANGLEBOMB BOLAS', (r) => { asked.push(r); return 0; }) });
    const move = characteristic(g.state, g.state.units.GD, g.state.units.GD.models[0], 'M');
    expect(openWindow(g, start)).toEqual(['TANGLEBOMB BOLAS']);
    const pick = asked.find((r) => r.kind === 'tanglebomb-bolas')!;
    expect(pick.options).toEqual(['GD']);
    // M7" halved, rounded up
    expect(move).toBe(7);
    expect(characteristic(g.state, g.state.units.GD, g.state.units.GD.models[0], 'M')).toBe(4);
    expect(characteristic(g.state, g.state.units.DA, g.state.units.DA.models[0], 'M')).toBe(move);
    expect(rollHalved(g.state, g.state.units.GD, 'charge', 7)).toBe(4);
    expect(rollHalved(g.state, g.state.units.GD, 'advance', 5)).toBe(3);
    expect(rollHalved(g.state, g.state.units.DA, 'charge', 7)).toBe(7);
  });

  it("the halved Move comes before what adds to it and after what sets it, rounded up once (the Rules Commentary's order), whatever order the effects came in", () => {
    const g = sandbox([KC, near], { phase: 'shooting' });
    const gd = () => characteristic(g.state, g.state.units.GD, g.state.units.GD.models[0], 'M');
    const forever = { at: 'end-of-battle' } as const;
    const oc = characteristic(g.state, g.state.units.GD, g.state.units.GD.models[0], 'OC');
    // Swift as the Wind (+2") in force before the bolas: 7 / 2 + 2 = 5.5, so 6" (halving last would give 5")
    g.addEffect('Swift as the Wind', 1, 'GD', forever);
    expect(gd()).toBe(9);
    g.addEffect('Tanglebomb Bolas', 0, 'GD', forever);
    expect(gd()).toBe(6);
    // a Move set to 24" (Flickerjump) is set first, then halved, then +2": 14" (in rule order it would be 24")
    g.addEffect('Flickerjump (jumped)', 1, 'GD', forever);
    expect(gd()).toBe(14);
    // the stages are per characteristic: the unit's Objective Control is as it was
    expect(characteristic(g.state, g.state.units.GD, g.state.units.GD.models[0], 'OC')).toBe(oc);
  });

  it('on a 1 nothing happens; not offered in another phase, without an enemy in reach, or without the detachment', () => {
    const g = sandbox([KC, near], { phase: 'shooting', stream: scriptedStream([1]), pick: using('TANGLEBOMB BOLAS') });
    expect(openWindow(g, start)).toEqual(['TANGLEBOMB BOLAS']);
    expect(g.state.effects.filter((e) => e.kind === 'Tanglebomb Bolas')).toEqual([]);
    expect(offered(sandbox([KC, away], { phase: 'shooting' }), start)).toEqual([]);
    expect(offered(sandbox([KC, near], { phase: 'shooting' }), { ...start, data: { phase: 'movement' } })).toEqual([]);
    expect(offered(sandbox([KC, near], { phase: 'shooting', detachment: null }), start)).toEqual([]);
  });

  it("the enemy unit's Advance and Charge rolls are halved (rounded up) in its turn, and the effect ends with the player's next Movement phase", () => {
    // the D6 of 2+, then the enemy's Advance roll (5: 3") and its Charge roll (4 and 3: 4")
    const g = sandbox([KC, near], { phase: 'shooting', stream: scriptedStream([2, 5, 4, 3]), pick: using('TANGLEBOMB BOLAS') });
    openWindow(g, start);
    const effect = g.state.effects.find((e) => e.kind === 'Tanglebomb Bolas')!;
    expect(effect.unit).toBe('GD');
    expect(advanceDistance(g, g.state.units.GD)).toBe(3);
    const from = g.log!.length;
    declareCharge(g, g.state.units.GD, { targets: ['KC'] });
    const note = g.log!.slice(from).find((e) => e.type === 'note' && /charge failed/.test(e.text));
    // 6" apart: a halved 7 (4") falls short; the full 7 would have reached
    expect(note && note.type === 'note' ? note.text : '').toMatch(/rolled 4/);
    expect(effect.expires).toEqual({ at: 'end-of-phase', round: 3, turn: 0, phase: 'movement' });
  });

  it('the heuristic counts the halved Charge roll: Howling Banshees 7" from the Carnivores charge them, slowed they do not (6" needs 11+ on 2D6 then)', () => {
    const HB: PlacedUnit = { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', at: { x: 20, y: 5 }, spacing: 1.1 };
    const charges = (slowed: boolean) => {
      const g = battleSandbox([KC, HB], {
        mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'charge', turn: 1, round: 2, cp: [0, 0], factions: ['TAU', 'AE'],
        detachments: [DETACHMENT, null], stream: scriptedStream(Array(50).fill(3)), agents: [scriptedAgent('tau'), createHeuristic()],
      });
      setGap(g, 'HB', 'KC', 7);
      if (slowed) g.addEffect('Tanglebomb Bolas', 0, 'HB', { at: 'end-of-battle' });
      chargePhase(g, 1);
      return dice(g.log!).filter((e) => e.purpose === 'charge').length;
    };
    expect(charges(false)).toBe(1);
    expect(charges(true)).toBe(0);
  });

  it('still in force in the opponent\'s turn; gone once the player\'s next Movement phase ends', () => {
    const g = sandbox([KC, near], { phase: 'shooting', stream: scriptedStream([2]), pick: using('TANGLEBOMB BOLAS') });
    openWindow(g, start);
    g.emit({ type: 'phase-started', round: 2, player: 1, phase: 'movement' });
    endPhase(g, 1, 'movement');
    expect(g.state.effects.some((e) => e.kind === 'Tanglebomb Bolas')).toBe(true);
    g.emit({ type: 'round-started', round: 3 } as GameEvent);
    g.emit({ type: 'phase-started', round: 3, player: 0, phase: 'movement' });
    endPhase(g, 0, 'movement');
    expect(g.state.effects.some((e) => e.kind === 'Tanglebomb Bolas')).toBe(false);
  });
});

describe('BRUTE FORCE (Kroot Raiding Party)', () => {
  // Krootox Riders west of the hatchway; Guardians just beyond it (east, within 3", seeing it), Dire Avengers far east
  const KR: PlacedUnit = { id: 'KR', player: 0, faction: 'tau', name: 'Krootox Riders', counts: [3], at: { x: 18.5, y: 12.5 }, spacing: 2.1 };
  const beyond: PlacedUnit = { ...GD, at: { x: 23.5, y: 13 }, spacing: 1.1 };
  const farEast: PlacedUnit = { ...DA, at: { x: 35, y: 14 } };

  it('just after KROOTOX RIDERS open a hatchway: a D6 for each enemy unit within 3" beyond it that sees it (5+: two mortal wounds); not for one further away', () => {
    const g = sandbox([KR, beyond, farEast], { phase: 'movement', hatch: true, stream: scriptedStream([5]), pick: using('BRUTE FORCE') });
    const from = g.log!.length;
    hatchwayStep(g, g.state.units.KR);
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(g.state.players[0].stratagemsUsed.map((u) => `${u.name}>${u.unit}`)).toEqual(['BRUTE FORCE>KR']);
    expect(dice(g.log!.slice(from)).filter((e) => e.label === 'Brute Force').map((e) => [e.unit, e.values[0]])).toEqual([['GD', 5]]);
    expect(mortalWounds(g.log!.slice(from), 'GD')).toBe(2);
    expect(g.state.units.DA.models.every((m) => m.alive)).toBe(true);
  });

  it('a 2-4 inflicts one mortal wound, a 1 none', () => {
    for (const [roll, wounds] of [[4, 1], [2, 1], [1, 0]] as const) {
      const g = sandbox([KR, beyond], { phase: 'movement', hatch: true, stream: scriptedStream([roll]), pick: using('BRUTE FORCE') });
      hatchwayStep(g, g.state.units.KR);
      expect(mortalWounds(g.log!, 'GD')).toBe(wounds);
    }
  });

  it('not offered to another KROOT unit opening it, nor with no enemy unit beyond it, nor in the opponent\'s turn', () => {
    const w: Window = { name: 'movement/hatchway-opened', unit: 'KR', targets: [], data: { hatchway: 'h1' } };
    expect(offered(sandbox([KR, beyond], { phase: 'movement', hatch: true }), w)).toEqual(['BRUTE FORCE>KR']);
    const carnivores: PlacedUnit = { ...KC, at: { x: 18.5, y: 11 }, spacing: 0.9 };
    expect(offered(sandbox([carnivores, beyond], { phase: 'movement', hatch: true }), { ...w, unit: 'KC' })).toEqual([]);
    expect(offered(sandbox([KR, farEast], { phase: 'movement', hatch: true }), w)).toEqual([]);
    expect(offered(sandbox([KR, beyond], { phase: 'movement', hatch: true, turn: 1 }), w)).toEqual([]);
  });
});

describe('Experienced Leader (Kroot Raiding Party)', () => {
  const TS = (enhancement?: string): PlacedUnit => ({ id: 'TS', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 8, y: 5 }, ...(enhancement ? { enhancement } : {}) });

  it('at the start of the battle the player picks an enemy unit: KROOT attacks at it re-roll the Wound roll while the bearer is on the battlefield; not other targets, not other units', () => {
    const asked: DecisionRequest[] = [];
    const pick = (r: DecisionRequest) => { asked.push(r); return r.kind === 'experienced-leader' ? (r.options as string[]).indexOf('DA') : 0; };
    const g = sandbox([TS('Experienced Leader'), KC, GD, ST, DA], { phase: 'command', round: 1, pick });
    expect(planFor(g, 'KC', 'DA', 'Kroot rifle').rerollWounds).toBe('none');
    getRule('Experienced Leader')!.battleStart!(g, g.state.units.TS);
    expect(asked.find((r) => r.kind === 'experienced-leader')?.options).toEqual(['GD', 'DA']);
    expect(planFor(g, 'KC', 'DA', 'Kroot rifle').rerollWounds).toBe('failed');
    expect(planFor(g, 'KC', 'DA', 'Close combat weapon').rerollWounds).toBe('failed');
    expect(planFor(g, 'TS', 'DA', 'Kroot rifle').rerollWounds).toBe('failed');
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollWounds).toBe('none');
    // the Strike Team is not KROOT
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').rerollWounds).toBe('none');
    // the bearer destroyed: no more re-rolls
    g.emit({ type: 'model-destroyed', unit: 'TS', model: g.state.units.TS.models[0].id, by: null, reason: 'test' } as GameEvent);
    expect(planFor(g, 'KC', 'DA', 'Kroot rifle').rerollWounds).toBe('none');
  });

  it('nothing is asked without the Enhancement', () => {
    const asked: string[] = [];
    const g = sandbox([TS(), KC, GD], { phase: 'command', round: 1, pick: (r) => { asked.push(r.kind); return 0; } });
    for (const id of g.state.unitOrder) for (const name of g.state.units[id].abilities) getRule(name)?.battleStart?.(g, g.state.units[id]);
    expect(asked).not.toContain('experienced-leader');
    expect(g.state.effects.filter((e) => e.kind === 'Experienced Leader')).toEqual([]);
  });
});

describe('the Kroot Raiding Party mirror (scenarios/boarding-actions/kroot-raiding-party-vs-none.json)', () => {
  const FILE = join(SCENARIOS_DIR, 'boarding-actions', 'kroot-raiding-party-vs-none.json');

  it('loads without warnings: the detachment on player 1, none on player 2, the same 495-point Kroot army on both sides', () => {
    const sc = loadScenario(FILE);
    expect(sc.warnings ?? []).toEqual([]);
    expect(sc.mission).toMatchObject({ mode: 'boarding-actions' });
    expect(sc.players.map((p) => p.detachment)).toEqual([DETACHMENT, null]);
    expect(sc.players.map((p) => p.army.points)).toEqual([495, 495]);
    expect(sc.players[0].army.units.every((u) => sc.players[0].datasheets[u.datasheetId].keywords.includes('KROOT'))).toBe(true);
  });

  it('two games with random agents finish, the Kroot Raiding Party player with its rule', async () => {
    for (const seed of ['kroot-1', 'kroot-2']) {
      const { game, result } = playGame(loadScenario(FILE), { seed, agents: await loadAgents(['random', 'random'], seed), log: true });
      expect(game.state.stage).toBe('ended');
      expect(['rounds', 'army-destroyed']).toContain(result.endedBy);
      expect(game.state.players[0].rules).toContain('Guerrilla Ambushers');
      expect(game.state.players[1].rules).not.toContain('Guerrilla Ambushers');
    }
  });
});
