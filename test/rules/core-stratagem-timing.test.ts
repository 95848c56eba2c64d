/**
 * The phase a Core Stratagem's WHEN names, kept when another rule makes the same thing happen in another
 * phase:
 * - INSANE BRAVERY: "Battle-shock step of your Command phase, just before you take a Battle-shock test" (the
 *   Boarding Actions one: "... just after you have failed a Battle-shock test"), not a test the Incubi's
 *   Tormentors force at the start of the Fight phase, nor one PRESENTIMENT OF DREAD forces after the step;
 * - GO TO GROUND and SMOKESCREEN: "Your opponent's Shooting phase, just after an enemy unit has selected its
 *   targets", not a unit shooting in the Fight phase (FIRING LINE, VAUL'S VENGEANCE).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName } from '../../src/core/state.ts';
import { battleShockTest, commandPhase } from '../../src/rules/battle/command.ts';
import { startPhase } from '../../src/rules/battle/phase.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';

/**
 * An agent that records every stratagem offered in a window ("NAME:unit@window") in `offers` and uses the
 * one named `use`, when offered; otherwise the first option.
 */
function recording(offers: string[], use?: string) {
  return scriptedAgent('recording', (req: DecisionRequest) => {
    const window = (req.context as { window?: Window } | undefined)?.window?.name;
    if (req.kind !== 'stratagem' || !window) return 0;
    const options = req.options as { stratagem?: string; unit?: string }[];
    for (const o of options) if (o.stratagem) offers.push(`${o.stratagem}:${o.unit}@${window}`);
    return Math.max(0, options.findIndex((o) => o.stratagem === use));
  });
}

const usable = (g: Game, w: Window, player: 0 | 1) => usableStratagems(g, w, player).map((u) => `${u.s.name} (${u.s.source}):${u.unit.id}`);

/** A Strike Team down to 4 of its 10 models (Below Half-strength). */
function belowHalf(g: Game, id: string): void {
  for (const m of g.state.units[id].models.slice(4)) g.emit({ type: 'model-destroyed', unit: id, model: m.id, by: null, reason: 'test' });
}

describe('INSANE BRAVERY only in the Battle-shock step of your Command phase', () => {
  it('is not offered for the test the Tormentors force at the start of your Fight phase: the test is taken (1 + 1 fails)', () => {
    const offers: string[] = [];
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 18 } },
      { id: 'IN', player: 1, faction: 'aeldari', name: 'Ynnari Incubi', at: { x: 21.6, y: 18 } },
    ], { factions: ['TAU', 'AE'], phase: 'fight', turn: 0, round: 2, cp: [3, 3], agents: [recording(offers, 'INSANE BRAVERY'), scriptedAgent('ae')], stream: scriptedStream(Array(20).fill(1)) });
    expect(isEngaged(g.state, g.state.units.ST)).toBe(true);
    startPhase(g, 0, 'fight');
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'battle-shock' && e.unit === 'ST').map((e) => e.type === 'dice' && e.values)).toEqual([[1, 1]]);
    expect(offers.filter((o) => o.startsWith('INSANE BRAVERY'))).toEqual([]);
    expect(g.state.units.ST.battleShocked).toBe(true);
    expect(g.state.players[0].cp).toBe(3);
  });

  it('is offered in the Battle-shock step: used, the unit passes without rolling', () => {
    const offers: string[] = [];
    const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 18 } }],
      { phase: 'command', turn: 0, round: 2, cp: [3, 3], agents: [recording(offers, 'INSANE BRAVERY'), scriptedAgent('ae')], stream: scriptedStream(Array(20).fill(1)) });
    belowHalf(g, 'ST');
    commandPhase(g, 0);
    expect(offers).toEqual(['INSANE BRAVERY:ST@command/before-battle-shock-test']);
    expect(g.log!.some((e) => e.type === 'dice' && e.purpose === 'battle-shock')).toBe(false);
    expect(g.state.units.ST.battleShocked).toBe(false);
    // 3, +1 for the Command phase, -1
    expect(g.state.players[0].cp).toBe(3);
  });

  it('Boarding Actions: not offered after a test failed outside the Command phase, offered after one failed in it', () => {
    const ba = (phase: PhaseName, offers: string[]) => {
      const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } }], {
        mode: 'boarding-actions', size: { width: 44, height: 30 }, phase, turn: 0, round: 2, cp: [3, 3],
        agents: [recording(offers, 'INSANE BRAVERY'), scriptedAgent('ae')], stream: scriptedStream([1, 1]),
      });
      belowHalf(g, 'ST');
      return g;
    };
    const failed: Window = { name: 'command/after-battle-shock-failed', unit: 'ST', targets: [] };
    const offers: string[] = [];
    const fight = ba('fight', offers);
    expect(usable(fight, failed, 0)).toEqual([]);
    expect(battleShockTest(fight, 0, 'ST')).toBe(false);
    expect(fight.state.units.ST.battleShocked).toBe(true);
    expect(offers).toEqual([]);
    // in the Command phase: offered after a test of the Battle-shock step failed, not after one another rule forces
    expect(usable(ba('command', []), { ...failed, data: { battleShockStep: true } }, 0)).toEqual(['INSANE BRAVERY (Boarding Actions):ST']);
    expect(usable(ba('command', []), { ...failed, data: { battleShockStep: false } }, 0)).toEqual([]);
  });

  it('is not offered for the test PRESENTIMENT OF DREAD forces after the Battle-shock step: the test is taken (1 + 1 fails)', () => {
    // the T'au player's Command phase, its Battle-shock step over; the Seer Council's Farseer makes the Strike Team test
    const offers: string[] = [];
    const seers = scriptedAgent('ae', (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'PRESENTIMENT OF DREAD')) : 0));
    const g = battleSandbox([
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 6, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 5 }, spacing: 0.9 },
    ], { factions: ['AE', 'TAU'], phase: 'command', turn: 1, round: 2, cp: [4, 3], detachments: ['Seer Council', null], agents: [seers, recording(offers, 'INSANE BRAVERY')], stream: scriptedStream([1, 1]) });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [] });
    openWindow(g, { name: 'command/after-battle-shock-step', unit: null, targets: [] });
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'battle-shock' && e.unit === 'ST').map((e) => e.type === 'dice' && e.values)).toEqual([[1, 1]]);
    expect(offers.filter((o) => o.startsWith('INSANE BRAVERY'))).toEqual([]);
    expect(g.state.units.ST.battleShocked).toBe(true);
    expect(g.state.players[1].cp).toBe(3);
  });

  it('passes "that" test only: a second test the unit takes later in the phase (PRESENTIMENT OF DREAD forces one) is rolled, Core and Boarding Actions', () => {
    for (const mode of ['strike-force', 'boarding-actions'] as const) {
      const offers: string[] = [];
      const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } }], {
        mode, ...(mode === 'boarding-actions' ? { size: { width: 44, height: 30 } } : {}), phase: 'command', turn: 0, round: 2, cp: [3, 3],
        agents: [recording(offers, 'INSANE BRAVERY'), scriptedAgent('ae')], stream: scriptedStream([1, 1, 1, 1]),
      });
      belowHalf(g, 'ST');
      expect(battleShockTest(g, 0, 'ST', 0, true), mode).toBe(true);
      expect(g.log!.filter((e) => e.type === 'stratagem-used').map((e) => e.type === 'stratagem-used' && e.name), mode).toEqual(['INSANE BRAVERY']);
      // the second test: the stratagem cannot be used again (once per battle; once per phase in Boarding Actions)
      expect(battleShockTest(g, 0, 'ST', 0, true), mode).toBe(false);
      expect(g.state.units.ST.battleShocked, mode).toBe(true);
      const rolled = g.log!.filter((e) => e.type === 'dice' && e.purpose === 'battle-shock').length;
      // Core: passed before rolling, then one roll; Boarding Actions: a roll failed and saved, then one roll
      expect(rolled, mode).toBe(mode === 'strike-force' ? 1 : 2);
    }
  });
});

describe('GO TO GROUND and SMOKESCREEN only in the opponent\'s Shooting phase', () => {
  /** The Strike Team shoots the Guardian Defenders 10" away in the given phase of its turn; every offer to the Aeldari is recorded. */
  function strikeTeamShoots(phase: PhaseName) {
    const offers: string[] = [];
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 18 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 18 } },
    ], { phase, turn: 0, round: 2, cp: [3, 3], agents: [scriptedAgent('tau'), recording(offers)], stream: scriptedStream(Array(200).fill(1)) });
    shootWithUnit(g, g.state.units.ST, { onlyTarget: 'GD' });
    return offers;
  }

  it('GO TO GROUND is not offered when an enemy unit shoots in its Fight phase (FIRING LINE)', () => {
    expect(strikeTeamShoots('fight')).toEqual([]);
  });

  it('GO TO GROUND is offered when it shoots in its Shooting phase', () => {
    expect(strikeTeamShoots('shooting')).toEqual(['GO TO GROUND:GD@shooting/after-enemy-targets']);
  });

  it('SMOKESCREEN: not for a SMOKE unit targeted in the Fight phase; in the Shooting phase, yes', () => {
    const targeted = (phase: PhaseName) => {
      const g = battleSandbox([
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 22 } },
        { id: 'SW', player: 1, faction: 'aeldari', name: 'Starweaver', at: { x: 30, y: 22 } },
      ], { phase, turn: 0, round: 2, cp: [3, 3] });
      return usable(g, { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['SW'] }, 1);
    };
    expect(targeted('fight')).toEqual([]);
    expect(targeted('shooting')).toEqual(['SMOKESCREEN (Core):SW']);
  });
});
