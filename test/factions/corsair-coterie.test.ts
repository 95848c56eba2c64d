/**
 * The Corsair Coterie (src/factions/aeldari/corsair-coterie.ts): Relentless Raiders with Void Thieves, its six
 * stratagems, its four Enhancements, Veterans of the Void's muster check, and the bundled Corsair army. Each
 * test fails if the rule is played wrong or not at all.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { allows, targetableFrom } from '../../src/core/rules-registry.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { inflictMortalWounds, invulnerableOf } from '../../src/rules/damage.ts';
import { afterMove } from '../../src/rules/battle/movement.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { endTurn } from '../../src/rules/battle/battle.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { modelBody, unitDistance } from '../../src/rules/battle/world.ts';
import { inEngagementRange } from '../../src/geometry/ranges.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { loadArmyFile, type ArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';

const CC = 'Corsair Coterie';
const root = join(import.meta.dirname, '..', '..');

/** Player 0 (Corsairs) answers with `pick`; player 1 (T'au) always with the first option. The marker o1 is at (30, 22). */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; cp?: [number, number] } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: opts.cp ?? [4, 3], detachments: [opts.detachment === undefined ? CC : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }], ...(opts.stream ? { stream: opts.stream } : {}),
  });
}

/** Use `name` whenever offered, and answer its own request `kind` with option `choice` (-1: the last). */

const VR: PlacedUnit = { id: 'VR', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 30, y: 21 }, spacing: 1 };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 30 }, spacing: 0.9 };
const RG: PlacedUnit = { id: 'RG', player: 0, faction: 'aeldari', name: 'Rangers', at: { x: 10, y: 5 }, spacing: 1 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 5 }, spacing: 0.9 };

const alive = (g: Game, id: string) => g.state.units[id].models.filter((m) => m.alive).length;
const control = (g: Game, p: PlayerIndex | null) => g.emit({ type: 'objective-control', objective: 'o1', controller: p });

/** Place unit `id`'s models in a line along y from (x, y), then end a move of `mode` (the Movement phase's after-move step). */
function place(g: Game, id: string, x: number, y: number, gap = 0.9): void {
  g.emit({ type: 'models-placed', unit: id, mode: 'test', positions: g.state.units[id].models.filter((m) => m.alive).map((m, i) => ({ model: m.id, pos: { x, y: y + i * gap, z: 0 } })) });
}
function endMove(g: Game, id: string, x: number, y: number, mode: 'normal' | 'advance' | 'fall-back' | 'arrived' = 'normal'): void {
  place(g, id, x, y);
  g.emit({ type: 'unit-moved', unit: id, mode });
  afterMove(g, g.state.units[id]);
}

describe('Relentless Raiders', () => {
  it('an enemy unit that ends a Normal or Advance move within range of a marker the player controls: on a 2+, D3 mortal wounds', () => {
    // D6 2, then D3 3: three Fire Warriors die
    const g = sandbox([VR, ST], { phase: 'movement', turn: 1, cp: [0, 0], stream: scriptedStream([2, 3]) });
    control(g, 0);
    endMove(g, 'ST', 31.5, 21);
    expect(alive(g, 'ST')).toBe(7);
    // a 1: nothing
    const one = sandbox([VR, ST], { phase: 'movement', turn: 1, cp: [0, 0], stream: scriptedStream([1]) });
    control(one, 0);
    endMove(one, 'ST', 31.5, 21, 'advance');
    expect(alive(one, 'ST')).toBe(10);
  });

  it('no dice when the marker is not the player\'s, the move ends out of range, the move is an arrival, or without the detachment', () => {
    const cases: [PlayerIndex | null, number, 'normal' | 'arrived', string | null][] = [[null, 31.5, 'normal', CC], [1, 31.5, 'normal', CC], [0, 40, 'normal', CC], [0, 31.5, 'arrived', CC], [0, 31.5, 'normal', null]];
    for (const [owner, x, mode, det] of cases) {
      // an empty dice stream: any roll fails the test
      const g = sandbox([VR, ST], { phase: 'movement', turn: 1, cp: [0, 0], stream: scriptedStream([]), detachment: det });
      control(g, owner);
      endMove(g, 'ST', x, 21, mode);
      expect(alive(g, 'ST')).toBe(10);
    }
  });

  it('a Fall Back move too, and a Charge move ending within range of the marker', () => {
    const fb = sandbox([VR, ST], { phase: 'movement', turn: 1, cp: [0, 0], stream: scriptedStream([5, 2]) });
    control(fb, 0);
    endMove(fb, 'ST', 32, 21, 'fall-back');
    expect(alive(fb, 'ST')).toBe(8);
    // the Strike Team charges the Voidreavers on the marker: 2D6 = 12, then the D6 (4) and the D3 (1)
    const g = sandbox([VR, { ...ST, at: { x: 36, y: 18 } }], { phase: 'charge', turn: 1, cp: [0, 0], stream: scriptedStream([6, 6, 4, 1]) });
    control(g, 0);
    expect(declareCharge(g, g.state.units.ST, { targets: ['VR'] })).toBe(true);
    expect(alive(g, 'ST')).toBe(9);
  });

  it('a Normal move a rule makes (a reactive move, a move after shooting) counts too', async () => {
    const { moveOrFallBack, normalMoveAfterShooting } = await import('../../src/factions/helpers.ts');
    const to = { mode: 'normal' as const, to: { x: 31.5, y: 22 }, toward: 'o1' };
    // D6 3, D3 2
    const g = sandbox([VR, { ...ST, at: { x: 36, y: 22 } }], { phase: 'movement', turn: 0, cp: [0, 0], stream: scriptedStream([3, 2]) });
    control(g, 0);
    moveOrFallBack(g, g.state.units.ST, to, false, () => 6);
    expect(alive(g, 'ST')).toBe(8);
    const h = sandbox([VR, { ...ST, at: { x: 36, y: 22 } }], { phase: 'shooting', turn: 1, cp: [0, 0], stream: scriptedStream([6, 1]) });
    control(h, 0);
    normalMoveAfterShooting(h, h.state.units.ST, to, () => 6, 'No charge (test)');
    expect(alive(h, 'ST')).toBe(9);
  });
});

describe('Void Thieves', () => {
  it('a marker an ANHRATHE unit stands on at the end of a phase stays the player\'s after it leaves, until the opponent\'s Level of Control is greater', () => {
    const g = sandbox([VR, ST], { phase: 'movement' });
    endPhase(g, 0, 'movement');
    expect(g.state.objectives[0].controller).toBe(0);
    place(g, 'VR', 5, 5);
    endPhase(g, 0, 'shooting');
    expect(g.state.objectives[0].controller).toBe(0);
    // the Strike Team on the marker: the opponent's Level of Control is greater
    place(g, 'ST', 30, 21);
    endPhase(g, 0, 'charge');
    expect(g.state.objectives[0].controller).toBe(1);
    place(g, 'ST', 50, 5);
    endPhase(g, 0, 'fight');
    expect(g.state.objectives[0].controller).toBe(null);
  });

  it('not for a unit that is not ANHRATHE, nor without the detachment', () => {
    for (const [unit, det] of [[{ ...GD, at: { x: 30, y: 21 } }, CC], [VR, null]] as [PlacedUnit, string | null][]) {
      const g = sandbox([unit, ST], { phase: 'movement', detachment: det });
      endPhase(g, 0, 'movement');
      expect(g.state.objectives[0].controller).toBe(0);
      place(g, unit.id, 5, 5);
      endPhase(g, 0, 'shooting');
      expect(g.state.objectives[0].controller).toBe(null);
    }
  });
});

describe('Corsair Coterie stratagems', () => {
  it('PIRATES\' DUE: re-roll Wound rolls of 1; an ANHRATHE unit re-rolls any Wound roll against a unit within range of a marker', () => {
    const w: Window = { name: 'fight/unit-selected', unit: 'VR', targets: [] };
    const units = [{ ...VR, at: { x: 10, y: 30 } }, { ...GD, at: { x: 10, y: 5 } }, { ...ST, at: { x: 31, y: 21 } }, { ...ST, id: 'S2', at: { x: 50, y: 35 } }];
    const g = sandbox(units, { phase: 'fight' }, using("PIRATES' DUE"));
    expect(offered(g, w, 0, "PIRATES' DUE")).toEqual(['VR']);
    expect(planFor(g, 'VR', 'ST', 'Power sword').rerollWounds).toBe('none');
    expect(openWindow(g, w)).toEqual(["PIRATES' DUE"]);
    expect(planFor(g, 'VR', 'ST', 'Power sword').rerollWounds).toBe('failed');
    expect(planFor(g, 'VR', 'S2', 'Power sword').rerollWounds).toBe('ones');
    // an AELDARI unit that is not ANHRATHE: re-roll 1s only, on the marker too
    const h = sandbox(units, { phase: 'fight' }, using("PIRATES' DUE"));
    expect(openWindow(h, { ...w, unit: 'GD' })).toEqual(["PIRATES' DUE"]);
    expect(planFor(h, 'GD', 'ST', 'Close combat weapon').rerollWounds).toBe('ones');
  });

  it('INTO THE BREACH: an ANHRATHE unit that destroyed an enemy unit in its Shooting phase makes a Normal move of up to D6+1"', () => {
    const w: Window = { name: 'shooting/after-own-shot', unit: 'VR', targets: ['ST'] };
    const units = [{ ...VR, at: { x: 20, y: 21 } }, { ...ST, at: { x: 40, y: 5 } }];
    const none = sandbox(units);
    expect(offered(none, w, 0, 'INTO THE BREACH')).toEqual([]);
    // the last destination offered, then a D6 of 2: at most 3"
    const g = sandbox(units, { stream: scriptedStream([2]) }, using('INTO THE BREACH', 'into-the-breach', -1));
    inflictMortalWounds(g, g.state.units.ST, 20, 'VR');
    expect(g.state.units.ST.location).toBe('destroyed');
    expect(offered(g, w, 0, 'INTO THE BREACH')).toEqual(['VR']);
    const from = { ...g.state.units.VR.models[0].pos! };
    expect(openWindow(g, w)).toEqual(['INTO THE BREACH']);
    const to = g.state.units.VR.models[0].pos!;
    const moved = Math.hypot(to.x - from.x, to.y - from.y);
    expect(moved).toBeGreaterThan(0.5);
    expect(moved).toBeLessThanOrEqual(3 + 1e-6);
  });

  it('LETHAL RUSE: charge after Falling Back; an ANHRATHE unit rolls six D6 against an enemy it was engaged with at the start of the phase, a mortal wound per 4+', () => {
    // the window after the Fall Back is where the stratagem is used: endMove opens it
    const g = sandbox([{ ...VR, at: { x: 20, y: 21 } }, { ...ST, at: { x: 21.3, y: 21 } }], { phase: 'command', stream: scriptedStream([4, 6, 1, 3, 5, 2]) }, using('LETHAL RUSE'));
    startPhase(g, 0, 'movement');
    expect(allows(g.state, g.state.units.VR, 'charge-after-fall-back')).toBe(false);
    endMove(g, 'VR', 10, 21, 'fall-back');
    expect(g.state.players[0].stratagemsUsed.map((x) => x.name)).toEqual(['LETHAL RUSE']);
    expect(allows(g.state, g.state.units.VR, 'charge-after-fall-back')).toBe(true);
    expect(alive(g, 'ST')).toBe(7);
    // a Normal move: not offered
    const n = sandbox([{ ...VR, at: { x: 20, y: 21 } }, { ...ST, at: { x: 40, y: 5 } }], { phase: 'command', stream: scriptedStream([]) }, using('LETHAL RUSE'));
    startPhase(n, 0, 'movement');
    endMove(n, 'VR', 10, 21, 'normal');
    expect(n.state.players[0].stratagemsUsed).toEqual([]);
    // a unit that is not ANHRATHE: only the charge, no dice (the stream is empty)
    const h = sandbox([{ ...GD, at: { x: 20, y: 21 } }, { ...ST, at: { x: 21.3, y: 21 } }], { phase: 'command', stream: scriptedStream([]) }, using('LETHAL RUSE'));
    startPhase(h, 0, 'movement');
    endMove(h, 'GD', 10, 21, 'fall-back');
    expect(h.state.players[0].stratagemsUsed.map((x) => x.name)).toEqual(['LETHAL RUSE']);
    expect(allows(h.state, h.state.units.GD, 'charge-after-fall-back')).toBe(true);
    expect(alive(h, 'ST')).toBe(10);
  });

  it('OUTCAST AMBUSH: a Rangers unit\'s ranged weapons have IGNORES COVER, RAPID FIRE 1 and +1 AP this phase', () => {
    const w: Window = { name: 'shooting/unit-selected', unit: 'RG', targets: [] };
    const g = sandbox([RG, { ...VR, at: { x: 10, y: 30 } }, ST], {}, using('OUTCAST AMBUSH'));
    expect(offered(g, { ...w, unit: 'VR' }, 0, 'OUTCAST AMBUSH')).toEqual([]);
    const before = planFor(g, 'RG', 'ST', 'Long rifle', { halfRange: true });
    expect(openWindow(g, w)).toEqual(['OUTCAST AMBUSH']);
    const after = planFor(g, 'RG', 'ST', 'Long rifle', { halfRange: true });
    expect([after.ap - before.ap, after.attacksBonus - before.attacksBonus, before.ignoresCover, after.ignoresCover]).toEqual([-1, 1, false, true]);
    // RAPID FIRE only within half range
    expect(planFor(g, 'RG', 'ST', 'Long rifle').attacksBonus).toBe(before.attacksBonus);
  });

  it('CLOAK AND SHADOW: a targeted AELDARI INFANTRY unit on a marker the player controls has Stealth and can be shot only from within 18"', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['VR', 'GD'] };
    const g = sandbox([VR, GD, ST], { turn: 1 }, using('CLOAK AND SHADOW'));
    expect(offered(g, w, 0, 'CLOAK AND SHADOW')).toEqual([]);
    control(g, 0);
    expect(offered(g, w, 0, 'CLOAK AND SHADOW')).toEqual(['VR']);
    expect(planFor(g, 'ST', 'VR', 'Pulse rifle').hitModifier).toBe(0);
    expect(targetableFrom(g.state, g.state.units.VR, 20)).toBe(true);
    expect(openWindow(g, w)).toEqual(['CLOAK AND SHADOW']);
    expect(planFor(g, 'ST', 'VR', 'Pulse rifle').hitModifier).toBe(-1);
    expect([targetableFrom(g.state, g.state.units.VR, 20), targetableFrom(g.state, g.state.units.VR, 17)]).toEqual([false, true]);
  });

  it('VENGEFUL SORROW: an AELDARI INFANTRY unit that lost models to an enemy unit\'s shots Surges D6+1" toward the closest enemy', () => {
    const w: Window = { name: 'shooting/after-enemy-shot', unit: 'ST', targets: ['VR'], data: { hitTargets: ['VR'], destroyed: [], lostModels: ['VR'] } };
    const units = [{ ...VR, at: { x: 20, y: 21 } }, { ...ST, at: { x: 27, y: 21 } }];
    expect(offered(sandbox(units, { turn: 1 }), { ...w, data: { ...w.data, lostModels: [] } }, 0, 'VENGEFUL SORROW')).toEqual([]);
    // a D6 of 5: up to 6", enough to reach the Strike Team 7" away (centre to centre)
    const g = sandbox(units, { turn: 1, stream: scriptedStream([5]) }, using('VENGEFUL SORROW'));
    expect(offered(g, w, 0, 'VENGEFUL SORROW')).toEqual(['VR']);
    expect(openWindow(g, w)).toEqual(['VENGEFUL SORROW']);
    const xs = g.state.units.VR.models.map((m) => m.pos!.x);
    expect(Math.max(...xs)).toBeGreaterThan(24);
  });

  it('VENGEFUL SORROW: the Surge ends in Engagement Range of the closest enemy unit only (a second Fireblade 0.2" farther is not engaged)', () => {
    const g = sandbox([{ ...VR, at: { x: 20, y: 21 } }, { id: 'A', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 23.5, y: 21 } }, { id: 'B', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 23.7, y: 25 } }],
      { turn: 1, stream: scriptedStream([5]) }, using('VENGEFUL SORROW'));
    const s = g.state;
    expect(unitDistance(s, s.units.VR, s.units.A)).toBeLessThan(unitDistance(s, s.units.VR, s.units.B));
    const w: Window = { name: 'shooting/after-enemy-shot', unit: 'A', targets: ['VR'], data: { hitTargets: ['VR'], destroyed: [], lostModels: ['VR'] } };
    expect(openWindow(g, w)).toEqual(['VENGEFUL SORROW']);
    const engagedWith = (id: string) => g.state.units.VR.models.filter((m) => m.alive && g.state.units[id].models.some((o) => o.alive && inEngagementRange(modelBody(g.state, m), modelBody(g.state, o)))).length;
    expect(engagedWith('A')).toBeGreaterThan(0);
    expect(engagedWith('B')).toBe(0);
  });

  it('the shooting phase tells the window which of the defender\'s units lost models', async () => {
    const { shootWithUnit } = await import('../../src/rules/battle/shooting.ts');
    const seen: unknown[] = [];
    const g = sandbox([{ ...VR, at: { x: 20, y: 21 }, counts: [1, 9], spacing: 0.9 }, { ...ST, at: { x: 35, y: 21 } }], { turn: 1 }, (r) => {
      const win = (r.context as { window?: Window } | undefined)?.window;
      if (r.kind === 'stratagem' && win?.name === 'shooting/after-enemy-shot') seen.push(win.data?.lostModels);
      return 0;
    });
    shootWithUnit(g, g.state.units.ST);
    expect(alive(g, 'VR')).toBeLessThan(10);
    expect(alive(g, 'VR')).toBeGreaterThan(0);
    expect(seen).toEqual([['VR']]);
  });
});

describe('Corsair Coterie Enhancements', () => {
  it('Infamy (Aura): enemy models within 3" of the bearer\'s unit have -1 OC', () => {
    const g = sandbox([{ ...VR, enhancement: 'Infamy (Aura)' }, { ...ST, at: { x: 32, y: 21 } }, { ...ST, id: 'S2', at: { x: 50, y: 5 } }]);
    getRule('Infamy (Aura)')!.battleStart!(g, g.state.units.VR);
    const oc = (id: string) => characteristic(g.state, g.state.units[id], g.state.units[id].models[0], 'OC');
    expect([oc('ST'), oc('S2'), oc('VR')]).toEqual([1, 2, 2]);
  });

  it('Voidstone: models of the bearer\'s unit have a 5+ invulnerable save', () => {
    const g = sandbox([{ ...VR, enhancement: 'Voidstone' }, { ...VR, id: 'V2', at: { x: 5, y: 5 } }]);
    expect(invulnerableOf(g.state, g.state.units.VR, g.state.units.VR.models[1])).toBe(5);
    expect(invulnerableOf(g.state, g.state.units.V2, g.state.units.V2.models[1])).toBe(null);
  });

  it('Webway Pathstone: Deep Strike; once per battle, at the end of the opponent\'s turn, into Strategic Reserves', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([{ ...VR, enhancement: 'Webway Pathstone' }, ST], { phase: 'fight', turn: 1 }, (r) => { if (r.kind === 'webway-pathstone') asked.push(r); return r.kind === 'webway-pathstone' ? 1 : 0; });
    expect(g.state.units.VR.abilities).toContain('Deep Strike');
    endTurn(g, 1);
    expect(g.state.units.VR.location).toBe('strategic-reserves');
    expect(asked.length).toBe(1);
    // back on the battlefield: not asked again
    g.emit({ type: 'unit-location', unit: 'VR', location: 'battlefield', embarkedIn: null });
    endTurn(g, 1);
    expect(asked.length).toBe(1);
    expect(g.state.units.VR.location).toBe('battlefield');
  });

  it('Webway Pathstone gives every model of the unit Deep Strike, a Leader attached to it too', async () => {
    const { everyModelHas } = await import('../../src/core/rules-registry.ts');
    const YR: PlacedUnit = { id: 'YR', player: 0, faction: 'aeldari', name: 'Prince Yriel', at: { x: 32, y: 21 } };
    for (const [enhancement, deepStrike] of [['Webway Pathstone', true], [undefined, false]] as const) {
      const g = sandbox([{ ...VR, ...(enhancement ? { enhancement } : {}) }, YR, ST]);
      g.emit({ type: 'unit-attached', leader: 'YR', bodyguard: 'VR' });
      expect(g.state.units.VR.components).toHaveLength(2);
      expect(everyModelHas(g.state.units.VR, 'Deep Strike'), String(enhancement)).toBe(deepStrike);
    }
  });

  it('Archraider: a stratagem the opponent uses on a unit within 12" of the bearer costs 1CP more', async () => {
    const { useStratagem } = await import('../../src/rules/windows.ts');
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'YR', targets: ['ST'] };
    const YR: PlacedUnit = { id: 'YR', player: 0, faction: 'aeldari', name: 'Prince Yriel', at: { x: 30, y: 5 }, enhancement: 'Archraider' };
    const cost = (g: Game) => usableStratagems(g, w, 1).filter((x) => x.s.name === 'GO TO GROUND').map((x) => x.cp);
    expect(cost(sandbox([YR, { ...ST, at: { x: 40, y: 5 } }]))).toEqual([2]);
    expect(cost(sandbox([YR, { ...ST, at: { x: 50, y: 5 } }]))).toEqual([1]);
    expect(cost(sandbox([YR, { ...ST, at: { x: 40, y: 5 } }], { cp: [4, 1] }))).toEqual([]);
    const g = sandbox([YR, { ...ST, at: { x: 40, y: 5 } }]);
    const u = usableStratagems(g, w, 1).find((x) => x.s.name === 'GO TO GROUND')!;
    useStratagem(g, w, 1, u.s, u.unit);
    expect(g.state.players[1].cp).toBe(1);
  });

  it('Archraider: COMMAND RE-ROLL on a unit within 12" of the bearer costs 2CP too', async () => {
    const { commandRerollReaction, REROLLABLE } = await import('../../src/rules/stratagems/core.ts');
    const YR: PlacedUnit = { id: 'YR', player: 0, faction: 'aeldari', name: 'Prince Yriel', at: { x: 30, y: 5 }, enhancement: 'Archraider' };
    const reroll = (stX: number, cp: number) => {
      const g = battleSandbox([YR, { ...ST, at: { x: stX, y: 5 } }], {
        factions: ['AE', 'TAU'], phase: 'shooting', turn: 1, cp: [4, cp], detachments: [CC, null], stream: scriptedStream([5]),
        agents: [scriptedAgent('ae'), scriptedAgent('tau', (r) => (r.kind === 'stratagem' ? 1 : 0))],
      });
      const out = commandRerollReaction('COMMAND RE-ROLL', 'Core', REROLLABLE)(g, { purpose: 'hit', player: 1, unit: 'ST', sides: 6, values: [1], test: { needed: 4, modifier: 0, criticalOn: 6 }, rerolled: [] });
      return [out?.values ?? null, g.state.players[1].cp];
    };
    expect(reroll(40, 3)).toEqual([[5], 1]);
    expect(reroll(50, 3)).toEqual([[5], 2]);
    expect(reroll(40, 1)).toEqual([null, 1]);
  });
});

describe('Veterans of the Void and the Corsair army', () => {
  const ae = loadFactionCatalog('AE');
  const army = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-corsairs.json'));
  const warn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));
  const withEnhancement = (a: ArmyFile, name: string, e: string): ArmyFile => {
    const units = a.units.map((u): ArmyUnit => ({ ...u }));
    units.find((u) => u.name === name)!.enhancement = e;
    return { ...a, units };
  };

  it('the bundled Corsair army is legal with no detachment and carries no Enhancement', () => {
    expect(army.detachment).toBe(CC);
    expect(warn(army)).toEqual([]);
    expect(warn({ ...army, detachment: '' })).toEqual([]);
    expect(army.units.filter((u) => u.enhancement)).toEqual([]);
    expect(army.points).toBeLessThanOrEqual(2000);
  });

  it('in the Corsair Coterie a Corsair Enhancement goes on an ANHRATHE unit that is not a CHARACTER; not elsewhere', () => {
    const a = withEnhancement(withEnhancement(army, 'Corsair Voidscarred', 'Voidstone'), 'Starfangs', 'Webway Pathstone');
    expect(warn(a)).toEqual([]);
    expect(warn({ ...a, detachment: 'Windrider Host' })).toEqual([
      'Corsair Voidscarred (u8) has Voidstone: an Enhancement goes on a CHARACTER that is not an EPIC HERO',
      'Starfangs (u15) has Webway Pathstone: an Enhancement goes on a CHARACTER that is not an EPIC HERO',
    ]);
    // Voidstone asks for INFANTRY, every Corsair Enhancement for ANHRATHE, and no EPIC HERO
    expect(warn(withEnhancement(army, 'Starfangs', 'Voidstone'))).toEqual(['Starfangs (u15) has Voidstone: in the Corsair Coterie it goes on an ANHRATHE INFANTRY unit that is not an EPIC HERO']);
    expect(warn(withEnhancement(army, 'Rangers', 'Infamy (Aura)'))).toEqual(['Rangers (u13) has Infamy (Aura): in the Corsair Coterie it goes on an ANHRATHE unit that is not an EPIC HERO']);
    expect(warn(withEnhancement(army, 'Prince Yriel', 'Infamy (Aura)'))).toEqual(['Prince Yriel (u1) has Infamy (Aura): in the Corsair Coterie it goes on an ANHRATHE unit that is not an EPIC HERO']);
  });
});
