/**
 * Stratagems in play: each test plays the stratagem's effect with exact dice or exact numbers, and
 * checks its most important restriction (CP, timing, once per turn or battle, keywords, distance).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import { planFor } from '../helpers/plan.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { unitDistance, unitsInEngagement } from '../../src/rules/battle/world.ts';
import * as chargeModule from '../../src/rules/battle/charge.ts';
import * as fightModule from '../../src/rules/battle/fight.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { rollDice } from '../../src/rules/roll-window.ts';
import { fatePool } from '../../src/factions/aeldari/army-rule.ts';
import { battleShockTest } from '../../src/rules/battle/command.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { advanceDistance, executeMove } from '../../src/rules/battle/movement.ts';
import { getRule, registerRule } from '../../src/core/rules-registry.ts';
import { FIRE_OVERWATCH_EFFECT } from '../../src/rules/stratagems/core.ts';

const CRIT_5 = 'Fire Overwatch test: Critical Hits on 5+';

/** An agent that uses the named stratagem (on `unit`, when given) whenever it is offered, and otherwise answers with `then`. */
function using(name: string, then: (r: DecisionRequest) => number = () => 0, unit?: string): Agent {
  return scriptedAgent(`uses ${name}`, (r) => {
    if (r.kind === 'stratagem') {
      const i = r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name && (unit === undefined || (o as { unit?: string }).unit === unit));
      return i < 0 ? 0 : i;
    }
    return then(r);
  });
}

/** The (stratagem > unit) pairs a player is offered in a window. */
const offered = (g: Game, w: Window, p: PlayerIndex) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`);

function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; round?: number; cp?: [number, number]; agents?: [Agent, Agent]; dice?: number[]; detachments?: [string | null, string | null]; factions?: [string, string] } = {}): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'movement', turn: opts.turn ?? 0, round: opts.round ?? 2, cp: opts.cp ?? [3, 3], agents: opts.agents,
    detachments: opts.detachments, factions: opts.factions, ...(opts.dice ? { stream: scriptedStream(opts.dice) } : {}),
  });
}


/** Wounds left in a unit (all its models). */
const woundsLeft = (g: Game, unit: string) => g.state.units[unit].models.filter((m) => m.alive).reduce((a, m) => a + m.wounds, 0);

describe('FIRE OVERWATCH', () => {
  // The Fireblade (T'au) ends a move 20" from 5 Dark Reapers (Reaper launcher: BS3+, S10 AP-2 D3); the Reapers overwatch.
  const units = (): PlacedUnit[] => [
    { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 20 } },
    { id: 'R', player: 1, faction: 'aeldari', name: 'Dark Reapers', at: { x: 30, y: 14 } },
  ];
  const moved: Window = { name: 'movement/after-enemy-move', unit: 'F', targets: [] };

  it('only an unmodified 6 hits: with BS3+ and +1 to hit, a 5 misses and a 6 hits', () => {
    // hits 5 5 5 4 6; one Wound roll (6); the save (Sv4+, AP-2: 6+) fails on a 1
    const g = sandbox(units(), { agents: [scriptedAgent('tau'), using('FIRE OVERWATCH')], dice: [5, 5, 5, 4, 6, 6, 1] });
    // Guide (Farseer): +1 to hit for Aeldari attacks against the Fireblade
    g.addEffect('Guide (Psychic)', 1, 'F', g.untilEndOfTurn());
    expect(planFor(g, 'R', 'F', 'Reaper launcher').hitModifier).toBe(1);
    expect(openWindow(g, moved)).toEqual(['FIRE OVERWATCH']);
    expect(g.state.players[1].cp).toBe(2);
    expect(rolls(g, 'hit')).toEqual([[5, 5, 5, 4, 6]]);
    // one hit, so one Wound roll; the 3 damage kill the Fireblade (W3)
    expect(rolls(g, 'wound')).toEqual([[6]]);
    expect(g.state.units.F.models[0].alive).toBe(false);
  });

  it('only an unmodified 6 hits whatever restores the BS (Inescapable Accuracy) or makes Critical Hits on 5+', () => {
    const g = sandbox(units());
    if (!getRule(CRIT_5)) registerRule({ name: CRIT_5, kind: 'effect', attack(plan, _ctx, src) { if (src.role === 'attacker') plan.criticalHitOn = Math.min(plan.criticalHitOn, 5); } });
    g.addEffect(CRIT_5, 1, 'R', g.untilEndOfTurn());
    expect(planFor(g, 'R', 'F', 'Reaper launcher').criticalHitOn).toBe(5);
    g.addEffect(FIRE_OVERWATCH_EFFECT, 1, 'R', g.untilEndOfTurn());
    const p = planFor(g, 'R', 'F', 'Reaper launcher');
    expect([p.skill, p.hitModifier, p.criticalHitOn]).toEqual([6, 0, 6]);
  });

  it('only for a unit within 24" of the enemy unit (the Reaper launcher reaches 48")', () => {
    const g = sandbox(units());
    setGap(g, 'R', 'F', 24.5);
    expect(offered(g, moved, 1)).toEqual([]);
    setGap(g, 'R', 'F', 23.5);
    expect(offered(g, moved, 1)).toEqual(['FIRE OVERWATCH>R']);
  });

  it('once per turn: not again in the Charge phase of the same turn, even for another unit; again in the next turn', () => {
    const g = sandbox([...units(), { id: 'R2', player: 1, faction: 'aeldari', name: 'Dark Reapers', at: { x: 30, y: 26 } }],
      { agents: [scriptedAgent('tau'), using('FIRE OVERWATCH', () => 0, 'R')], dice: [1, 1, 1, 1, 1] });
    expect(offered(g, moved, 1)).toEqual(['FIRE OVERWATCH>R', 'FIRE OVERWATCH>R2']);
    expect(openWindow(g, moved)).toEqual(['FIRE OVERWATCH']);
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'charge' });
    const declared: Window = { name: 'charge/after-enemy-charge-declared', unit: 'F', targets: ['R2'] };
    expect(offered(g, declared, 1)).toEqual([]);
    g.emit({ type: 'round-started', round: 3 });
    g.emit({ type: 'turn-started', round: 3, player: 0 });
    g.emit({ type: 'phase-started', round: 3, player: 0, phase: 'movement' });
    expect(offered(g, moved, 1)).toContain('FIRE OVERWATCH>R2');
  });

  /** The Fireblade starts a Normal move away from the Reapers, who fire Overwatch whenever offered; the windows they were asked in. */
  function moveAway(dice: number[]): { g: Game; windows: string[] } {
    const windows: string[] = [];
    const reapers = scriptedAgent('ae', (r) => {
      const w = (r.context as { window?: Window } | undefined)?.window;
      if (r.kind !== 'stratagem' || !w) return 0;
      windows.push(w.name);
      return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'FIRE OVERWATCH'));
    });
    const g = sandbox(units(), { agents: [scriptedAgent('tau'), reapers], dice });
    executeMove(g, g.state.units.F, { mode: 'normal', to: { x: 2, y: 20 }, toward: 'objective' });
    return { g, windows };
  }

  it('also as an enemy unit starts a Normal move: the shots come before the move, which a destroyed unit does not make', () => {
    // hits 5 5 5 4 6, a wound of 6, a failed save: the Fireblade is destroyed where it stood
    const { g, windows } = moveAway([5, 5, 5, 4, 6, 6, 1]);
    expect(windows).toEqual(['movement/enemy-move-started']);
    expect(g.state.players[1].cp).toBe(2);
    expect(g.state.units.F.models[0].alive).toBe(false);
    expect(g.log!.some((e) => e.type === 'unit-moved' && e.unit === 'F')).toBe(false);
  });

  it('fired as the move starts, it is not offered again as the move ends (once per turn); a unit that survives moves on', () => {
    const { g, windows } = moveAway([1, 1, 1, 1, 1]);
    expect(windows).toEqual(['movement/enemy-move-started']);
    expect(rolls(g, 'hit')).toEqual([[1, 1, 1, 1, 1]]);
    expect(g.log!.some((e) => e.type === 'unit-moved' && e.unit === 'F' && e.mode === 'normal')).toBe(true);
    expect(g.state.units.F.models[0].pos!.x).toBeLessThan(10 - 5);
  });

  it('only in the opponent\'s Movement or Charge phase: not for a move made in its Shooting phase', () => {
    const g = sandbox(units(), { phase: 'shooting' });
    expect(offered(g, moved, 1)).toEqual([]);
    expect(offered(g, { name: 'movement/enemy-move-started', unit: 'F', targets: [] }, 1)).toEqual([]);
    const m = sandbox(units());
    expect(offered(m, { name: 'movement/enemy-move-started', unit: 'F', targets: [] }, 1)).toEqual(['FIRE OVERWATCH>R']);
  });
});

describe('TANK SHOCK', () => {
  // a VEHICLE has just ended a Charge move within Engagement Range of 10 Guardian Defenders and their platform (12 wounds)
  function shock(vehicle: string, dice: number[], then?: (r: DecisionRequest) => number) {
    const g = sandbox([
      { id: 'V', player: 0, faction: 'tau', name: vehicle, at: { x: 20, y: 22 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 14 } },
    ], { phase: 'charge', agents: [using('TANK SHOCK', then), scriptedAgent('ae')], dice });
    setGap(g, 'G', 'V', 0.5);
    return g;
  }
  const charged: Window = { name: 'charge/after-own-charge-move', unit: 'V', targets: ['G'] };

  it('rolls as many D6 as the VEHICLE\'s Toughness: each 5+ is a mortal wound', () => {
    // Piranha: T7, 7 dice, three of them 5+
    const g = shock('Piranhas', [5, 6, 4, 1, 5, 2, 3]);
    expect(woundsLeft(g, 'G')).toBe(12);
    expect(openWindow(g, charged)).toEqual(['TANK SHOCK']);
    expect(rolls(g, 'mortal-wounds')).toEqual([[5, 6, 4, 1, 5, 2, 3]]);
    expect(woundsLeft(g, 'G')).toBe(9);
    expect(g.state.players[0].cp).toBe(2);
  });

  it('the request for the enemy unit names the VEHICLE unit (context.unit)', () => {
    const asked: unknown[] = [];
    const g = shock('Piranhas', [5, 6, 4, 1, 5, 2, 3], (r) => { if (r.kind === 'tank-shock-target') asked.push(r.context); return 0; });
    expect(openWindow(g, charged)).toEqual(['TANK SHOCK']);
    expect(asked).toEqual([{ unit: 'V' }]);
  });

  it('at most 6 mortal wounds, even with ten 5+ (Hammerhead: T10)', () => {
    const g = shock('Hammerhead Gunship', [6, 6, 6, 6, 6, 6, 6, 6, 6, 6]);
    expect(openWindow(g, charged)).toEqual(['TANK SHOCK']);
    expect(rolls(g, 'mortal-wounds')).toEqual([[6, 6, 6, 6, 6, 6, 6, 6, 6, 6]]);
    expect(woundsLeft(g, 'G')).toBe(6);
  });

  it('only for a VEHICLE, only in your own turn', () => {
    const g = sandbox([
      { id: 'V', player: 0, faction: 'tau', name: 'Piranhas', at: { x: 20, y: 22 } },
      { id: 'C', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 30 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 14 } },
    ], { phase: 'charge' });
    setGap(g, 'G', 'V', 0.5);
    // the Fireblade (INFANTRY) stands beside the Guardians' last model
    const last = g.state.units.G.models.at(-1)!.pos!;
    g.emit({ type: 'models-placed', unit: 'C', mode: 'test', positions: [{ model: g.state.units.C.models[0].id, pos: { x: last.x + 1.3, y: last.y, z: 0 } }] });
    expect(unitsInEngagement(g.state, g.state.units.C, g.state.units.G)).toBe(true);
    expect(offered(g, charged, 0)).toEqual(['TANK SHOCK>V']);
    expect(offered(g, { ...charged, unit: 'C' }, 0)).toEqual([]);
    // the Aeldari player cannot use it in the T'au turn
    expect(offered(g, { ...charged, unit: 'G', targets: ['V'] }, 1)).toEqual([]);
  });
});

describe('HEROIC INTERVENTION', () => {
  // The Fireblade has just ended a Charge move; Aeldari units stand around it.
  function intervention(dice: number[] = []) {
    const g = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 22 } },
      { id: 'H', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 36, y: 22 } },
      { id: 'FAR', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 24, y: 22 } },
      { id: 'WW', player: 1, faction: 'aeldari', name: 'War Walkers', at: { x: 30, y: 12 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 34 } },
    ], { phase: 'charge', agents: [scriptedAgent('tau'), using('HEROIC INTERVENTION', () => 0, 'H')], dice });
    setGap(g, 'H', 'F', 5);
    setGap(g, 'FAR', 'F', 6.5);
    setGap(g, 'WW', 'F', 4);
    setGap(g, 'WS', 'F', 4);
    return g;
  }
  const ended: Window = { name: 'charge/after-enemy-charge-move', unit: 'F', targets: [] };

  it('only units within 6" of the enemy unit; a VEHICLE only if it is a WALKER', () => {
    const g = intervention();
    const s = g.state;
    expect(unitDistance(s, s.units.WW, s.units.F)).toBeLessThan(6);
    expect(unitDistance(s, s.units.WS, s.units.F)).toBeLessThan(6);
    // (the Autarch is offered twice: at full cost and reduced by its Path of Command)
    expect([...new Set(offered(g, ended, 1))].sort()).toEqual(['HEROIC INTERVENTION>H', 'HEROIC INTERVENTION>WW']);
  });

  it('the unit charges that enemy unit, but gets no Charge Bonus: it does not fight first', () => {
    // Charge roll 3 + 3 = 6 for a gap of 5"
    const g = intervention([3, 3]);
    expect(openWindow(g, ended)).toEqual(['HEROIC INTERVENTION']);
    expect(g.state.players[1].cp).toBe(2);
    expect(rolls(g, 'charge')).toEqual([[3, 3]]);
    expect(unitsInEngagement(g.state, g.state.units.H, g.state.units.F)).toBe(true);
    // it made a Charge move (LANCE would count it), without the Charge Bonus
    expect(g.state.units.H.flags.charged).toBe(true);
    expect(chargeModule.fightsFirst(g, g.state.units.H)).toBe(false);
  });
});

describe('RAPID INGRESS', () => {
  // Crisis Sunforge Battlesuits (Deep Strike) wait in Reserves; it is the Aeldari player's turn
  function ingress(round: number) {
    const g = sandbox([
      { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', at: { x: 10, y: 10 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 34, y: 14 } },
    ], { turn: 1, round, agents: [using('RAPID INGRESS'), scriptedAgent('ae')] });
    g.emit({ type: 'unit-location', unit: 'CS', location: 'reserves', embarkedIn: null });
    return g;
  }
  const endOf = (phase: PhaseName): Window => ({ name: 'phase/end', unit: null, targets: [], data: { phase } });

  it('at the end of the opponent\'s Movement phase the unit arrives by Deep Strike, more than 9" from every enemy model', () => {
    const g = ingress(2);
    expect(offered(g, endOf('shooting'), 0)).toEqual([]);
    expect(openWindow(g, endOf('movement'))).toEqual(['RAPID INGRESS']);
    expect(g.state.players[0].cp).toBe(2);
    const s = g.state;
    expect(s.units.CS.location).toBe('battlefield');
    // the first Deep Strike point is the objective marker, 4" from the Guardians: it is set up farther
    expect(unitDistance(s, s.units.CS, s.units.E)).toBeGreaterThan(9);
    expect(unitDistance(s, s.units.CS, s.units.E)).toBeLessThan(12);
  });

  it('not in battle round 1 (the unit could not arrive then), nor in your own turn', () => {
    expect(offered(ingress(1), endOf('movement'), 0)).toEqual([]);
    const own = ingress(2);
    own.emit({ type: 'turn-started', round: 2, player: 0 });
    expect(offered(own, endOf('movement'), 0)).toEqual([]);
  });
});

describe('Strands of Fate: the rolls a Fate die can replace', () => {
  function fate(purpose: string, n: number) {
    const pick = (r: DecisionRequest) => (r.kind === 'fate-die' ? r.options.findIndex((o) => (o as { fate?: number }).fate === 6) : 0);
    const g = sandbox([{ id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } }],
      { factions: ['AE', 'TAU'], agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], dice: [2, 2] });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [6] });
    const values = rollDice(g, n, 6, purpose as Parameters<typeof rollDice>[3], 0, 'GD');
    return { values, pool: fatePool(g, 0) };
  }

  for (const [purpose, n] of [['save', 1], ['damage', 1], ['advance', 1], ['charge', 2], ['battle-shock', 2]] as const) {
    it(`a ${purpose} roll takes the Fate die (a 6), the rest is rolled`, () => {
      const { values, pool } = fate(purpose, n);
      expect(values).toEqual(n === 1 ? [6] : [6, 2]);
      expect(pool).toEqual([]);
    });
  }

  it('a roll not in the list (Desperate Escape) does not', () => {
    const { values, pool } = fate('desperate-escape', 1);
    expect(values).toEqual([2]);
    expect(pool).toEqual([6]);
  });
});

describe('A TEMPTING TRAP (Kauyon)', () => {
  // the sandbox's objective marker o1 is at the centre (30, 22); a second one is added in the Aeldari deployment zone
  function trap(round: number, agents?: [Agent, Agent]) {
    const g = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 31, y: 16 } }, // models within 3" of o1
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 5 } },
    ], { phase: 'shooting', round, detachments: ['Kauyon', null], agents });
    g.state.objectives.push({ id: 'o2', pos: { x: 54, y: 22 }, controller: null });
    return g;
  }
  const selected: Window = { name: 'shooting/unit-selected', unit: 'ST', targets: [] };

  it('+1 to the Wound roll of ranged attacks against a unit within range of the Trap marker, and only those', () => {
    const choices: unknown[] = [];
    const g = trap(3, [using('A TEMPTING TRAP', (r) => { if (r.kind === 'trap-objective') choices.push(r.options); return 0; }), scriptedAgent('ae')]);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').woundModifier).toBe(0);
    expect(openWindow(g, selected)).toEqual(['A TEMPTING TRAP']);
    expect(g.state.players[0].cp).toBe(2);
    // the marker in the opponent's deployment zone cannot be the Trap marker
    expect(choices).toEqual([['o1']]);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').woundModifier).toBe(1);
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').woundModifier).toBe(0);
    expect(planFor(g, 'ST', 'GD', 'Close combat weapon').woundModifier).toBe(0);
  });

  it('not in the first or second battle round', () => {
    const traps = (g: Game) => offered(g, selected, 0).filter((x) => x.startsWith('A TEMPTING TRAP'));
    expect(traps(trap(2))).toEqual([]);
    expect(traps(trap(3))).toEqual(['A TEMPTING TRAP>ST']);
  });
});

describe('GO TO GROUND: a 6+ invulnerable save and the Benefit of Cover', () => {
  function shot(shooter: 'Crisis Sunforge Battlesuits' | 'Cadre Fireblade', dice: number[], gap: number) {
    const g = sandbox([
      { id: 'S', player: 0, faction: 'tau', name: shooter, counts: [1, 0], at: { x: 10, y: 22 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 14 } },
    ], { phase: 'shooting', agents: [scriptedAgent('tau'), using('GO TO GROUND')], dice });
    setGap(g, 'GD', 'S', gap);
    shootWithUnit(g, g.state.units.S);
    expect(g.state.players[1].cp).toBe(2);
    return g;
  }

  it('against AP-4 (Sv4+ becomes 8+, 7+ with cover) a save of 6 passes on the invulnerable save; a 5 fails', () => {
    // two fusion blasters: hits 4 4, wounds 2 2, saves 6 5, then one Damage roll (D6: 1)
    const g = shot('Crisis Sunforge Battlesuits', [4, 4, 2, 2, 6, 5, 1], 10);
    expect(rolls(g, 'save')).toEqual([[6, 5]]);
    expect(rolls(g, 'damage')).toEqual([[1]]);
    expect(woundsLeft(g, 'GD')).toBe(11);
  });

  it('against AP 0 the Benefit of Cover turns a save of 3 into a pass', () => {
    // Fireblade pulse rifle (A1 beyond half range): hit 4, wound 3, save 3 against Sv4+
    const g = shot('Cadre Fireblade', [4, 3, 3], 20);
    expect(rolls(g, 'save')).toEqual([[3]]);
    expect(woundsLeft(g, 'GD')).toBe(12);
  });
});

describe('COUNTER-OFFENSIVE (Core): the unit fights next', () => {
  it('after an enemy unit has fought, the chosen unit fights before the players go on alternating', () => {
    // Two Riptides each locked with a Wraithlord; no charges, so the Aeldari player (not the active one) starts.
    // The T'au player would pick R2 (its first option) but uses COUNTER-OFFENSIVE on R1 after W1 fought.
    const g = battleSandbox([
      { id: 'R2', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 20, y: 8 } },
      { id: 'R1', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 20, y: 32 } },
      { id: 'W1', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 28, y: 32 } },
      { id: 'W2', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 28, y: 8 } },
    ], { phase: 'fight', round: 2, cp: [3, 0], agents: [using('COUNTER-OFFENSIVE', () => 0, 'R1'), scriptedAgent('ae')] });
    setGap(g, 'W1', 'R1', 0.5);
    setGap(g, 'W2', 'R2', 0.5);
    const { fightPhase } = fightModule;
    fightPhase(g, 0);
    const order = (g.log ?? []).filter((e) => e.type === 'unit-flag' && e.flag === 'fought' && e.value).map((e) => (e as { unit: string }).unit);
    expect(order.slice(0, 2)).toEqual(['W1', 'R1']);
    expect(order.sort()).toEqual(['R1', 'R2', 'W1', 'W2']);
    expect(g.state.players[0].cp).toBe(1);
  });
});

describe('EPIC CHALLENGE', () => {
  // The Autarch is in Engagement Range of a Strike Team led by a Cadre Fireblade (an Attached unit).
  function challenge(attached: boolean, dice: number[] = []) {
    const g = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'L', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 26.4 } },
      { id: 'A', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 21.4, y: 25.6 } },
    ], { phase: 'fight', agents: [scriptedAgent('tau'), using('EPIC CHALLENGE')], dice });
    if (attached) g.emit({ type: 'unit-attached', leader: 'L', bodyguard: 'ST' });
    return g;
  }
  const selected: Window = { name: 'fight/unit-selected', unit: 'A', targets: [] };

  it('only when the CHARACTER unit is within Engagement Range of an Attached unit', () => {
    expect([...new Set(offered(challenge(false), selected, 1))]).toEqual([]);
    expect([...new Set(offered(challenge(true), selected, 1))]).toEqual(['EPIC CHALLENGE>A']);
  });

  it('the CHARACTER model\'s melee attacks have PRECISION: the wound goes to the Fireblade, not a Fire Warrior', () => {
    // Star glaive (A4, WS2+, S6 AP-3 D3): hits 6 1 1 1, wound 6; the Fireblade (Sv4+, W3) saves on 7+ only
    const g = challenge(true, [6, 1, 1, 1, 6, 1, 1, 1, 1, 1]);
    expect(planFor(g, 'A', 'ST', 'Star glaive').precision).toBe(false);
    fightModule.fight(g, g.state.units.A);
    expect(g.state.players[1].cp).toBe(2);
    expect(rolls(g, 'hit')).toEqual([[6, 1, 1, 1]]);
    expect(rolls(g, 'wound')).toEqual([[6]]);
    // the Fireblade is destroyed (the Strike Team is on its own again); every Fire Warrior stands
    expect(g.state.units.L.models.map((m) => m.alive)).toEqual([false]);
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(10);
  });
});

describe('FIRE AND FADE (Battle Host)', () => {
  function fade(cp = 3, then: (r: DecisionRequest) => number = () => 0) {
    const g = sandbox([
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 4 } },
      { id: 'AU', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 30, y: 30 } },
      { id: 'CH', player: 1, faction: 'aeldari', name: 'Crimson Hunter', at: { x: 40, y: 36 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 4 } },
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 28, y: 30 } },
    ], { phase: 'shooting', turn: 1, cp: [0, cp], detachments: [null, 'Battle Host'], agents: [scriptedAgent('tau'), using('FIRE AND FADE', then, 'GD')] });
    setGap(g, 'AU', 'F', 0.5);
    return g;
  }
  const end = (phase: PhaseName): Window => ({ name: 'phase/end', unit: null, targets: [], data: { phase } });

  it('at the end of your Shooting phase; not an AIRCRAFT, not a unit in Engagement Range', () => {
    const g = fade();
    expect(offered(g, end('movement'), 1)).toEqual([]);
    expect(offered(g, end('shooting'), 1)).toEqual(['FIRE AND FADE>GD']);
  });

  it('the request for where to move names the unit (context.unit)', () => {
    const asked: unknown[] = [];
    const g = fade(3, (r) => { if (r.kind === 'fire-and-fade') asked.push(r.context); return 0; });
    expect(openWindow(g, end('shooting'))).toEqual(['FIRE AND FADE']);
    expect(asked).toEqual([{ unit: 'GD' }]);
  });

  it('the unit makes a Normal move (up to its Move of 7"), and cannot declare a charge this turn', () => {
    const g = fade();
    const { canCharge } = chargeModule;
    expect(canCharge(g, g.state.units.GD)).toBe(true);
    const before = g.state.units.GD.models.map((m) => ({ ...m.pos! }));
    expect(openWindow(g, end('shooting'))).toEqual(['FIRE AND FADE']);
    const after = g.state.units.GD.models.map((m) => ({ ...m.pos! }));
    const moved = after.map((p, i) => Math.hypot(p.x - before[i].x, p.y - before[i].y));
    expect(Math.max(...moved)).toBeGreaterThan(0.5);
    expect(Math.max(...moved)).toBeLessThanOrEqual(7 + 1e-6);
    expect(g.log!.some((e) => e.type === 'models-placed' && e.unit === 'GD' && e.mode === 'normal')).toBe(true);
    g.emit({ type: 'phase-started', round: 2, player: 1, phase: 'charge' });
    expect(unitDistance(g.state, g.state.units.GD, g.state.units.ST)).toBeLessThanOrEqual(12);
    expect(canCharge(g, g.state.units.GD)).toBe(false);
  });

  it('costs 2 CP (the seed\'s Battle Host; the export\'s Warhost one costs 1): not offered with 1 CP; using it spends 2', () => {
    expect(offered(fade(1), end('shooting'), 1)).toEqual([]);
    const g = fade(3);
    expect(openWindow(g, end('shooting'))).toEqual(['FIRE AND FADE']);
    expect(g.state.players[1].cp).toBe(1);
  });
});

describe('INSANE BRAVERY (Core): once per battle', () => {
  it('the unit passes its Battle-shock test without rolling; the stratagem is not offered again in a later battle round', () => {
    const g = sandbox([{ id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } }],
      { phase: 'command', cp: [3, 0], agents: [using('INSANE BRAVERY'), scriptedAgent('ae')], dice: [1, 1] });
    for (const m of g.state.units.S.models.slice(4)) g.emit({ type: 'model-destroyed', unit: 'S', model: m.id, by: null, reason: 'test' });
    expect(battleShockTest(g, 0, 'S', 0, true)).toBe(true);
    expect(rolls(g, 'battle-shock')).toEqual([]);
    expect(g.state.units.S.battleShocked).toBe(false);
    expect(g.state.players[0].cp).toBe(2);
    expireEffects(g, { at: 'end-of-phase', round: 2, turn: 0, phase: 'command' });
    g.emit({ type: 'round-started', round: 3 });
    g.emit({ type: 'turn-started', round: 3, player: 0 });
    g.emit({ type: 'phase-started', round: 3, player: 0, phase: 'command' });
    expect(offered(g, { name: 'command/before-battle-shock-test', unit: 'S', targets: [], data: { battleShockStep: true } }, 0)).toEqual([]);
    // so the test is rolled: 1 + 1 fails
    expect(battleShockTest(g, 0, 'S', 0, true)).toBe(false);
    expect(g.state.units.S.battleShocked).toBe(true);
  });
});

describe('SMOKESCREEN', () => {
  it('the SMOKE unit gets Stealth (-1 to hit) and the Benefit of Cover: a Hit roll of 3 misses at BS3+', () => {
    // the Fireblade (BS3+) shoots the Starweaver (SMOKE), 20" away: one Hit roll of 3, nothing more
    const g = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 22 } },
      { id: 'SW', player: 1, faction: 'aeldari', name: 'Starweaver', at: { x: 30, y: 22 } },
    ], { phase: 'shooting', agents: [scriptedAgent('tau'), using('SMOKESCREEN')], dice: [3] });
    setGap(g, 'SW', 'F', 20);
    expect(planFor(g, 'F', 'SW', 'Fireblade pulse rifle').hitModifier).toBe(0);
    shootWithUnit(g, g.state.units.F);
    expect(g.state.players[1].cp).toBe(2);
    expect(rolls(g, 'hit')).toEqual([[3]]);
    expect(rolls(g, 'wound')).toEqual([]);
    const plan = planFor(g, 'F', 'SW', 'Fireblade pulse rifle');
    expect([plan.hitModifier, plan.cover]).toEqual([-1, true]);
  });

  it('a SMOKE unit with Stealth of its own (a Ghostkeel) gets the Benefit of Cover, not a second -1 to hit', () => {
    const g = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 22 } },
      { id: 'GK', player: 1, faction: 'tau', name: 'Ghostkeel Battlesuit', at: { x: 30, y: 22 } },
    ], { phase: 'shooting' });
    setGap(g, 'GK', 'F', 20);
    expect(planFor(g, 'F', 'GK', 'Fireblade pulse rifle').hitModifier).toBe(-1);
    g.addEffect('Smokescreen', 1, 'GK', g.untilEndOfPhase());
    const plan = planFor(g, 'F', 'GK', 'Fireblade pulse rifle');
    expect([plan.hitModifier, plan.cover]).toEqual([-1, true]);
  });

  it('only a SMOKE unit that was targeted', () => {
    const g = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 22 } },
      { id: 'SW', player: 1, faction: 'aeldari', name: 'Starweaver', at: { x: 30, y: 22 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 4 } },
    ], { phase: 'shooting' });
    const w = (t: string): Window => ({ name: 'shooting/after-enemy-targets', unit: 'F', targets: [t] });
    expect(offered(g, w('SW'), 1)).toContain('SMOKESCREEN>SW');
    expect(offered(g, w('GD'), 1).filter((x) => x.startsWith('SMOKESCREEN'))).toEqual([]);
  });
});

describe('AGGRESSIVE MOBILITY (Mont\'ka) and MATCHLESS AGILITY (Battle Host): Advance +6" without a roll', () => {
  for (const [name, detachment, player, unit] of [['AGGRESSIVE MOBILITY', "Mont'ka", 0, 'Strike Team'], ['MATCHLESS AGILITY', 'Battle Host', 1, 'Guardian Defenders']] as const) {
    it(`${name}: the Advance is 6", and no die is rolled`, () => {
      const agents: [Agent, Agent] = player === 0 ? [using(name), scriptedAgent('ae')] : [scriptedAgent('tau'), using(name)];
      const g = sandbox([{ id: 'U', player, faction: player === 0 ? 'tau' : 'aeldari', name: unit, at: { x: 10, y: 5 } }],
        { turn: player, agents, detachments: player === 0 ? [detachment, null] : [null, detachment], dice: [2] });
      const selected: Window = { name: 'movement/unit-selected', unit: 'U', targets: [] };
      expect(openWindow(g, selected)).toEqual([name]);
      expect(g.state.players[player].cp).toBe(2);
      expect(advanceDistance(g, g.state.units.U)).toBe(6);
      expect(rolls(g, 'advance')).toEqual([]);
    });
  }
});

describe('ANTI-GRAV REPULSION (Armoured Warhost)', () => {
  function charge(target: 'Wave Serpent' | 'Guardian Defenders') {
    const g = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 22 } },
      { id: 'T', player: 1, faction: 'aeldari', name: target, at: { x: 30, y: 22 } },
    ], { phase: 'charge', detachments: [null, 'Armoured Warhost'], agents: [scriptedAgent('tau'), using('ANTI-GRAV REPULSION')], dice: [3, 3] });
    setGap(g, 'T', 'F', 5.5);
    return g;
  }

  it('-2 to the Charge roll against a FLY VEHICLE: a 6 for a 5.5" charge becomes 4 and fails (a 5 would make it)', () => {
    const g = charge('Wave Serpent');
    expect(chargeModule.declareCharge(g, g.state.units.F, { targets: ['T'] })).toBe(false);
    expect(g.state.players[1].cp).toBe(2);
    expect(rolls(g, 'charge')).toEqual([[3, 3]]);
    expect(unitDistance(g.state, g.state.units.F, g.state.units.T)).toBeCloseTo(5.5, 2);
  });

  it('not for a unit that is not a FLY VEHICLE: the same 6 makes it', () => {
    const g = charge('Guardian Defenders');
    expect(chargeModule.declareCharge(g, g.state.units.F, { targets: ['T'] })).toBe(true);
    expect(g.state.players[1].cp).toBe(3);
  });
});
