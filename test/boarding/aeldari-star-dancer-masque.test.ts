/**
 * Star-dancer Masque (Aeldari, Boarding Actions): Faolchú's Last Flight (fighting on death on 3+, melee only),
 * DARTING STRIKES, SERPENT STRIKE, ACROBATIC LEAPS, Path of Eldanesh, and Prismatic Garb registered as not
 * played (no Overwatch in these games).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { DiceRolledEvent, GameEvent } from '../../src/core/events.ts';
import type { Game } from '../../src/core/game.ts';
import type { HatchwayState, PhaseName } from '../../src/core/state.ts';
import { createStream, type Stream } from '../../src/core/rng.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { fightsFirst } from '../../src/rules/battle/charge.ts';
import { FALLEN_WARRIOR, fightOnDeathModifier } from '../../src/rules/battle/fight-on-death.ts';
import { hatchwayStep } from '../../src/rules/battle/hatchways.ts';
import { desperateEscapeRules } from '../../src/rules/battle/movement.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';
import { getRule, type RuleSource } from '../../src/core/rules-registry.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { apply } from '../../src/core/reducer.ts';
import { emptyGameState } from '../../src/core/state.ts';
import { ruleChecker } from '../helpers/rule-checks.ts';

const using = (name: string | null) => (r: DecisionRequest) =>
  (r.kind === 'stratagem' && name ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : 0);

function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: 0 | 1; detachment?: string | null; stratagem?: string | null; stream?: Stream; hatch?: boolean } = {}): Game {
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: opts.phase ?? 'fight', turn: opts.turn ?? 1, round: 2, cp: [3, 3],
    detachments: [opts.detachment === undefined ? 'Star-dancer Masque' : opts.detachment, null], factions: ['AE', 'TAU'],
    stream: opts.stream ?? createStream('star-dancer'), agents: [scriptedAgent('ae', using(opts.stratagem ?? null)), scriptedAgent('tau')],
    ...(opts.hatch ? {
      terrain: [
        { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
        { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
      ],
      hatchways: [{ id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] } as HatchwayState],
    } : {}),
  });
}

// five Troupe players (player 0) in a column, twenty Kroot Carnivores (player 1) beside them
const TR: PlacedUnit = { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 10 }, spacing: 1.2 };
const KC: PlacedUnit = { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 11.1, y: 9.4 }, spacing: 0.6, counts: [20, 0] };

const dice = (log: readonly GameEvent[]) => log.filter((e): e is DiceRolledEvent => e.type === 'dice');

describe("Faolchú's Last Flight (Star-dancer Masque)", () => {
  it('an AELDARI model destroyed by a melee attack before it has fought rolls a D6 and fights back on 3+ (not 4+); nothing without the detachment', () => {
    // ten Kroot beside the whole Troupe column: two hits, two wounds, two failed saves kill two Troupe players
    // (each in Engagement Range); their rolls are a 3 (fights back) and a 2 (does not); the fallen misses
    const KROOT: PlacedUnit = { ...KC, counts: [10, 0] };
    const script = [4, 4, ...Array(18).fill(1), 4, 4, 1, 1, 3, 2, 1, 1, 1, 1, 1];
    const stream = scriptedStream(script);
    const g = sandbox([TR, KROOT], { stream });
    const from = g.log!.length;
    fight(g, g.state.units.KC);
    const log = g.log!.slice(from);
    expect(stream.remaining()).toBe(0);
    expect(dice(log).filter((e) => e.label === 'fight on death').map((e) => e.values[0])).toEqual([3, 2]);
    expect(log.filter((e) => e.type === 'model-destroyed' && e.unit === 'TR')).toHaveLength(2);
    const fallen = log.flatMap((e) => (e.type === 'effect-added' && e.effect.kind === FALLEN_WARRIOR ? [e.effect.params.model] : []));
    expect(fallen).toHaveLength(1);
    // the one that rolled the 3 fights: its Hit rolls come after the Kroot have fought
    const fought = log.findIndex((e) => e.type === 'unit-flag' && e.unit === 'KC' && e.flag === 'fought');
    expect(dice(log.slice(fought)).filter((e) => e.purpose === 'hit' && e.unit === 'TR')).toHaveLength(1);
    // without the detachment the same dice kill the same two models and nobody rolls to fight back
    const none = sandbox([TR, KROOT], { detachment: null, stream: scriptedStream(script) });
    const start = none.log!.length;
    fight(none, none.state.units.KC);
    expect(none.log!.slice(start).filter((e) => e.type === 'model-destroyed' && e.unit === 'TR')).toHaveLength(2);
    expect(dice(none.log!.slice(start)).filter((e) => e.label === 'fight on death')).toEqual([]);
  });

  it('only melee attacks: a model destroyed by a ranged attack in the Fight phase does not fight back', () => {
    const g = sandbox([TR, KC]);
    expect(fightOnDeathModifier(g, g.state.units.TR, true)).toBe(1);
    expect(fightOnDeathModifier(g, g.state.units.TR, false)).toBeNull();
    expect(fightOnDeathModifier(sandbox([TR, KC], { detachment: null }), g.state.units.TR, true)).toBeNull();
  });
});

describe('DARTING STRIKES (Star-dancer Masque)', () => {
  it('as an AELDARI unit is selected to fight: its attacks re-roll the Wound roll this phase', () => {
    const g = sandbox([TR, KC], { stratagem: 'DARTING STRIKES' });
    expect(planFor(g, 'TR', 'KC', "Harlequin's blade").rerollWounds).toBe('none');
    expect(openWindow(g, { name: 'fight/unit-selected', unit: 'TR', targets: [] })).toEqual(['DARTING STRIKES']);
    expect(planFor(g, 'TR', 'KC', "Harlequin's blade").rerollWounds).toBe('failed');
  });
});

describe('SERPENT STRIKE (Star-dancer Masque)', () => {
  const destroyed = (by: string): Window => ({ name: 'unit/destroyed', unit: 'F', targets: [], data: { by } });
  const units: PlacedUnit[] = [TR, { id: 'F', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 11.2, y: 10 } }];

  it('just after an AELDARI unit destroyed an enemy unit in the Fight phase: offered for that unit, not in another phase', () => {
    const g = sandbox(units);
    expect(usableStratagems(g, destroyed('TR'), 0).map((x) => `${x.s.name}>${x.unit.id}`)).toEqual(['SERPENT STRIKE>TR']);
    expect(usableStratagems(sandbox(units, { phase: 'shooting' }), destroyed('TR'), 0)).toEqual([]);
  });

  it('its Consolidation move reaches D3+3" (rolled as it consolidates)', () => {
    const g = sandbox(units, { stream: scriptedStream([2]) });
    g.addEffect('Serpent Strike', 0, 'TR', g.untilEndOfPhase());
    const rule = getRule('Serpent Strike')!;
    const effect = g.state.effects.find((e) => e.kind === 'Serpent Strike')!;
    const src: RuleSource = { role: 'self', player: 0, effect, unit: g.state.units.TR };
    expect(rule.consolidationDistance!(g, g.state.units.TR, src)).toBe(5);
  });

  it('in a fight: the Troupe destroys the Fireblade, uses it, and consolidates with a D3 rolled for it', () => {
    // three hits and three Critical Wounds (Devastating Wounds: three mortal wounds) destroy the Fireblade; the D3 is a 3
    const stream = scriptedStream([4, 4, 4, ...Array(17).fill(1), 6, 6, 6, 3]);
    const g = sandbox([...units, { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 17, y: 10 }, spacing: 0.8, counts: [10, 0] }], { turn: 0, stratagem: 'SERPENT STRIKE', stream });
    const from = g.log!.length;
    fight(g, g.state.units.TR);
    expect(stream.remaining()).toBe(0);
    expect(g.state.units.F.location).toBe('destroyed');
    const log = g.log!.slice(from);
    expect(g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['SERPENT STRIKE']);
    const roll = dice(log).find((e) => e.label === 'Serpent Strike');
    expect(roll?.values).toEqual([3]);
    const rollAt = log.indexOf(roll!);
    const consolidated = log.findIndex((e) => e.type === 'models-placed' && e.unit === 'TR' && e.mode === 'consolidate');
    expect(consolidated).toBeGreaterThan(rollAt);
    // the invariant checks accept the longer move (they read the D3), and flag it when it is not rolled
    const checks = (events: readonly GameEvent[]) => {
      const rules = ruleChecker();
      const state = emptyGameState();
      for (const e of events) { apply(state, e); rules.onEvent(e, state); }
      return rules.violations.filter((v) => /consolidate/.test(v));
    };
    expect(checks(g.log!)).toEqual([]);
    const moved = Math.max(...(log[consolidated] as { positions: { model: string; pos: { x: number; y: number } }[] }).positions.map((p) => {
      const before = g.log!.slice(0, from + consolidated).reverse().find((e) => e.type === 'models-placed' && e.unit === 'TR') as { positions: { model: string; pos: { x: number; y: number } }[] };
      const q = before.positions.find((x) => x.model === p.model)!.pos;
      return Math.hypot(p.pos.x - q.x, p.pos.y - q.y);
    }));
    // a model went further than 3" toward the Kroot, and no further than the D3+3"
    expect(moved).toBeGreaterThan(3);
    expect(moved).toBeLessThanOrEqual(6 + 1e-6);
    expect(checks(g.log!.filter((e) => !(e.type === 'dice' && e.label === 'Serpent Strike'))).length).toBeGreaterThan(0);
  });
});

describe('SERPENT STRIKE: a Consolidation that cannot end within Engagement Range goes in any direction', () => {
  /** The Troupe destroys the Fireblade (as above; the D3 is a 3: 6"), the Kroot far off; `pick` answers the any-direction decision. */
  function strike(pick: (r: DecisionRequest) => number, stratagem: string | null = 'SERPENT STRIKE') {
    const asked: DecisionRequest[] = [];
    const stream = scriptedStream([4, 4, 4, ...Array(17).fill(1), 6, 6, 6, 3]);
    const g = battleSandbox([TR, { id: 'F', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 11.2, y: 10 } }, { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 35, y: 10 }, spacing: 1.4, counts: [10, 0] }], {
      mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'fight', turn: 0, round: 2, cp: [3, 3], detachments: ['Star-dancer Masque', null], factions: ['AE', 'TAU'], stream,
      agents: [scriptedAgent('ae', (r) => { asked.push(r); return r.kind === 'consolidate-any-direction' ? pick(r) : using(stratagem)(r); }), scriptedAgent('tau')],
    });
    const before = g.state.units.TR.models.map((m) => ({ ...m.pos! }));
    const from = g.log!.length;
    fight(g, g.state.units.TR);
    expect(g.state.units.F.location).toBe('destroyed');
    const log = g.log!.slice(from);
    const moved = g.state.units.TR.models.map((m, i) => Math.hypot(m.pos!.x - before[i].x, m.pos!.y - before[i].y));
    const rules = ruleChecker();
    const state = emptyGameState();
    for (const e of g.log!) { apply(state, e); rules.onEvent(e, state); }
    return { g, log, asked: asked.filter((r) => r.kind === 'consolidate-any-direction'), moved, before, violations: rules.violations };
  }
  const toward = (label: string) => (r: DecisionRequest) => r.options.findIndex((o) => (o as { toward?: string }).toward === label);

  it('the player picks where: back toward its own deployment zone, up to the D3+3" rolled, away from every enemy', () => {
    const { g, log, asked, moved, before, violations } = strike(toward('own deployment zone'));
    expect(asked).toHaveLength(1);
    expect(asked[0].options[0]).toEqual({ none: true });
    expect(asked[0].context).toMatchObject({ unit: 'TR', reach: 6 });
    expect(log.some((e) => e.type === 'models-placed' && e.unit === 'TR' && e.mode === 'consolidate-any-direction')).toBe(true);
    expect(Math.max(...moved)).toBeGreaterThan(3);
    expect(Math.max(...moved)).toBeLessThanOrEqual(6 + 1e-6);
    // west, toward its zone (x 0-12): every model ends further from the Kroot than it was
    g.state.units.TR.models.forEach((m, i) => expect(m.pos!.x).toBeLessThan(before[i].x));
    expect(violations).toEqual([]);
    // the rule checks flag the move when an enemy stood within its reach plus 1": the Kroot moved up just before it
    const at = g.log!.findIndex((e) => e.type === 'models-placed' && e.mode === 'consolidate-any-direction');
    const near = { type: 'models-placed' as const, unit: 'KC', mode: 'test', positions: g.state.units.KC.models.map((m, i) => ({ model: m.id, pos: { x: 19, y: 2 + i * 1.4, z: 0 } })) };
    const rules = ruleChecker();
    const state = emptyGameState();
    for (const e of [...g.log!.slice(0, at), near, g.log![at]]) { apply(state, e); rules.onEvent(e, state); }
    expect(rules.violations.some((v) => /could have ended its Consolidation within Engagement Range/.test(v))).toBe(true);
  });

  it('or the core rules\' move (first option): toward an objective marker it can reach, here none (the marker is 12" off), so it stays; without the stratagem nothing is asked', () => {
    const core = strike(() => 0);
    expect(core.asked).toHaveLength(1);
    expect(core.log.some((e) => e.type === 'models-placed' && e.unit === 'TR' && e.mode.startsWith('consolidate'))).toBe(false);
    expect(core.violations).toEqual([]);
    const none = strike(() => 0, null);
    expect(none.asked).toEqual([]);
  });

  it("with a Troupe Master leading the unit, it reaches the unit's own Consolidation (Choreographer of War's 6\") when the D3+3\" is shorter, and the checks know it", () => {
    // (the stream's dice, seed 'serpent-0': the Fireblade falls, the D3 is a 2: 5")
    const g = battleSandbox([TR, { id: 'TM', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 8.5, y: 10 } }, { id: 'F', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 11.2, y: 10 } }, { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 35, y: 10 }, spacing: 1.4, counts: [10, 0] }], {
      mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'fight', turn: 0, round: 2, cp: [3, 3], detachments: ['Star-dancer Masque', null], factions: ['AE', 'TAU'], stream: createStream('serpent-0'),
      agents: [scriptedAgent('ae', (r) => (r.kind === 'consolidate-any-direction' ? toward('own deployment zone')(r) : using('SERPENT STRIKE')(r))), scriptedAgent('tau')],
    });
    g.emit({ type: 'unit-attached', leader: 'TM', bodyguard: 'TR' });
    const before = new Map(g.state.units.TR.models.map((m) => [m.id, { ...m.pos! }]));
    const from = g.log!.length;
    fight(g, g.state.units.TR);
    const log = g.log!.slice(from);
    expect(g.state.units.F.location).toBe('destroyed');
    expect(dice(log).find((e) => e.label === 'Serpent Strike')?.values).toEqual([2]);
    expect(log.some((e) => e.type === 'models-placed' && e.unit === 'TR' && e.mode === 'consolidate-any-direction')).toBe(true);
    const moved = Math.max(...g.state.units.TR.models.filter((m) => m.alive && m.pos).map((m) => Math.hypot(m.pos!.x - before.get(m.id)!.x, m.pos!.y - before.get(m.id)!.y)));
    expect(moved).toBeGreaterThan(5 + 0.01);
    expect(moved).toBeLessThanOrEqual(6 + 1e-6);
    const rules = ruleChecker();
    const state = emptyGameState();
    for (const e of g.log!) { apply(state, e); rules.onEvent(e, state); }
    expect(rules.violations).toEqual([]);
  });

  it('not when the unit can end within Engagement Range: the Kroot within reach', () => {
    const stream = scriptedStream([4, 4, 4, ...Array(17).fill(1), 6, 6, 6, 3]);
    const asked: string[] = [];
    const g = battleSandbox([TR, { id: 'F', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 11.2, y: 10 } }, { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 17, y: 10 }, spacing: 0.8, counts: [10, 0] }], {
      mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'fight', turn: 0, round: 2, cp: [3, 3], detachments: ['Star-dancer Masque', null], factions: ['AE', 'TAU'], stream,
      agents: [scriptedAgent('ae', (r) => { asked.push(r.kind); return using('SERPENT STRIKE')(r); }), scriptedAgent('tau')],
    });
    fight(g, g.state.units.TR);
    expect(g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['SERPENT STRIKE']);
    expect(asked).not.toContain('consolidate-any-direction');
  });
});

describe('ACROBATIC LEAPS (Star-dancer Masque)', () => {
  it('as an AELDARI unit is selected to move in its Movement phase: Desperate Escape tests pass and its moves go through models', () => {
    const g = sandbox([TR, KC], { phase: 'movement', turn: 0, stratagem: 'ACROBATIC LEAPS' });
    expect(desperateEscapeRules(g.state, g.state.units.TR).modifier).toBe(0);
    expect(openWindow(g, { name: 'movement/unit-selected', unit: 'TR', targets: [] })).toEqual(['ACROBATIC LEAPS']);
    // +5: no D6 can fail (a 1 or 2 fails)
    expect(desperateEscapeRules(g.state, g.state.units.TR).modifier).toBe(5);
    expect(usableStratagems(sandbox([TR, KC], { phase: 'movement', turn: 1 }), { name: 'movement/unit-selected', unit: 'TR', targets: [] }, 0)).toEqual([]);
  });

  it('a Normal move across a long Kroot column: planned only with it (without it the column blocks the way within the Troupe\'s Move)', () => {
    const wall: PlacedUnit = { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 14, y: 3 }, spacing: 1.2, counts: [20, 0] };
    const troupe: PlacedUnit = { ...TR, at: { x: 10, y: 12 } };
    const to = { x: 19, y: 14 };
    const before = sandbox([troupe, wall], { phase: 'movement', turn: 0 });
    const after = sandbox([troupe, wall], { phase: 'movement', turn: 0 });
    after.addEffect('Acrobatic Leaps', 0, 'TR', after.untilEndOfPhase());
    const end = (g: Game) => {
      const plan = planUnit(g.state, g.state.units.TR, 'normal', { maxDistance: 8, destination: to });
      return plan.ok ? Math.min(...plan.positions.map((p) => p.x)) : 0;
    };
    expect(end(after)).toBeGreaterThan(14);
    expect(end(before)).toBeLessThan(14);
  });
});

describe('Star-dancer Masque Enhancements', () => {
  const TM = (enhancement?: string): PlacedUnit => ({ id: 'TM', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 19, y: 14.5 }, ...(enhancement ? { enhancement } : {}) });
  const KR: PlacedUnit = { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 30, y: 14.5 }, spacing: 0.8, counts: [10, 0] };

  it('Path of Eldanesh: the bearer on its own fights first', () => {
    const g = sandbox([TM('Path of Eldanesh'), KR]);
    expect(fightsFirst(g, g.state.units.TM)).toBe(true);
    const none = sandbox([TM(), KR]);
    expect(fightsFirst(none, none.state.units.TM)).toBe(false);
  });

  it('Path of Eldanesh: once the bearer opened a hatchway, +1 AP for its melee weapons until the end of the turn', () => {
    const g = sandbox([TM('Path of Eldanesh'), KR], { phase: 'movement', turn: 0, hatch: true });
    const ap = () => planFor(g, 'TM', 'KC', "Troupe Master's blade").ap;
    const before = ap();
    hatchwayStep(g, g.state.units.TM);
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(ap()).toBe(before - 1);
    // its Shuriken pistol is not a melee weapon
    const n = sandbox([TM(), KR], { phase: 'movement', turn: 0, hatch: true });
    hatchwayStep(n, n.state.units.TM);
    expect(planFor(n, 'TM', 'KC', "Troupe Master's blade").ap).toBe(before);
    expect(planFor(g, 'TM', 'KC', 'Shuriken pistol').ap).toBe(planFor(n, 'TM', 'KC', 'Shuriken pistol').ap);
  });

  it('Prismatic Garb is registered as not played (no Overwatch in these games)', () => {
    expect(getRule('Prismatic Garb')?.missing).toMatch(/Overwatch/);
  });
});
