/**
 * Models destroyed outside an attack sequence: a failed Desperate Escape test destroys a model selected
 * by its controlling player, and an Attached unit that loses its Leader or Bodyguard part that way (or to
 * TANK SHOCK's mortal wounds) splits as soon as the window after that action closes, not at the next
 * attack sequence, so its Starting Strength is right for the next Battle-shock test.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { executeMove, moveUnit, movementBody } from '../../src/rules/battle/movement.ts';
import { createStream } from '../../src/core/rng.ts';
import { declareCharge, fightsFirst } from '../../src/rules/battle/charge.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { belowHalfStrength } from '../../src/rules/battle/units.ts';
import { destroyModel, inflictMortalWounds, splitAttachedUnits } from '../../src/rules/damage.ts';
import { openWindow } from '../../src/rules/windows.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';

const alive = (g: Game, unit: string) => g.state.units[unit].models.filter((m) => m.alive);
const detached = (g: Game) => g.log!.filter((e) => e.type === 'unit-detached');

/**
 * A Battle-shocked Strike Team (10 models) led by a Cadre Fireblade, engaged with Guardian Defenders,
 * Falls Back: eleven Desperate Escape tests, the first a 1 and the rest 6s, so one model is destroyed.
 */
function fallBack(pick: (req: DecisionRequest) => number) {
  const asked: DecisionRequest[] = [];
  const owner = scriptedAgent('owner', (req) => {
    if (req.kind !== 'select-casualty') return 0;
    asked.push(req);
    return pick(req);
  });
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
    { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 12 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 21.3, y: 10 } },
  ], { phase: 'movement', agents: [owner, scriptedAgent('p2')], stream: scriptedStream([1, ...new Array(10).fill(6)]) });
  g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
  g.emit({ type: 'battle-shock', unit: 'ST', value: true });
  executeMove(g, g.state.units.ST, { mode: 'fall-back', to: { x: 5, y: 10 }, toward: 'own deployment zone' });
  const tests = g.log!.filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape').map((e) => (e as { values: number[] }).values);
  expect(tests).toEqual([[1, ...new Array(10).fill(6)]]);
  return { g, asked };
}

describe('Desperate Escape: the controlling player selects the model destroyed', () => {
  it('the engine suggests a Bodyguard model, and the Leader stays', () => {
    const { g, asked } = fallBack(() => 0);
    // one request for the one failed test, every model of the Attached unit offered
    expect(asked).toHaveLength(1);
    expect(asked[0].player).toBe(0);
    expect(asked[0].options).toHaveLength(11);
    expect(asked[0].context).toEqual({ unit: 'ST', cause: 'Desperate Escape' });
    const lost = g.log!.filter((e) => e.type === 'model-destroyed');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ unit: 'ST', reason: 'Desperate Escape' });
    expect((lost[0] as { model: string }).model).toBe((asked[0].options[0] as { model: string }).model);
    expect(alive(g, 'ST').filter((m) => m.origin === 'CF')).toHaveLength(1);
    expect(alive(g, 'ST')).toHaveLength(10);
    expect(g.state.units.ST.components).toHaveLength(2);
  });

  it('the player may select the Leader: the Attached unit then splits when the move\'s windows close', () => {
    const { g } = fallBack((req) => req.options.findIndex((o) => (o as { model: string }).model === 'CF-m1'));
    expect(g.log!.filter((e) => e.type === 'model-destroyed').map((e) => (e as { model: string }).model)).toEqual(['CF-m1']);
    expect(detached(g)).toEqual([{ type: 'unit-detached', leader: 'CF', bodyguard: 'ST' }]);
    // the Strike Team is a unit of its own again: Starting Strength 10, all ten alive, Fallen Back
    const st = g.state.units.ST;
    expect(st.components).toHaveLength(1);
    expect(st.startingStrength).toBe(10);
    expect(alive(g, 'ST')).toHaveLength(10);
    expect(st.flags.fellBack).toBe(true);
    expect(g.state.units.CF.location).toBe('destroyed');
  });
});

describe('A destroyed transport: each 1 rolled for the models set up is a mortal wound on their unit', () => {
  it('an Attached unit: the mortal wound goes to a Bodyguard model, not the Leader (the allocation rules), and nothing is asked', () => {
    // a Devilfish carrying a Strike Team led by a Cadre Fireblade is destroyed: no Deadly Demise (a 1),
    // then eleven D6 for the eleven models set up, one of them a 1
    const asked: DecisionRequest[] = [];
    const owner = scriptedAgent('owner', (req) => { if (req.kind === 'select-casualty') asked.push(req); return 0; });
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 40, y: 8 } },
    ], { phase: 'shooting', agents: [owner, scriptedAgent('p2')], stream: scriptedStream([1, 3, 3, 1, 3, 3, 3, 3, 3, 3, 3, 3]) });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
    inflictMortalWounds(g, g.state.units.DF, 20, null);
    expect(g.state.units.DF.location).toBe('destroyed');
    expect(g.state.units.ST.location).toBe('battlefield');
    expect(asked).toEqual([]);
    const lost = g.log!.filter((e) => e.type === 'model-destroyed' && e.unit === 'ST');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ reason: 'mortal wounds' });
    expect((lost[0] as { model: string }).model).toMatch(/^ST-m/);
    expect(alive(g, 'ST').filter((m) => m.origin === 'CF')).toHaveLength(1);
  });

  it('passengers all lost to the 1s: the destroyed unit is not flagged as having disembarked (a destroyed unit does nothing)', () => {
    // no Deadly Demise (a 1), then a D6 for each of the five Strike Team models set up: all 1s, five mortal wounds (W1)
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 40, y: 5 } },
    ], { phase: 'shooting', stream: scriptedStream([1, 1, 1, 1, 1, 1]) });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'embarked', embarkedIn: 'DF' });
    inflictMortalWounds(g, g.state.units.DF, 20, null);
    expect(g.state.units.ST.location).toBe('destroyed');
    const i = g.log!.findIndex((e) => e.type === 'unit-destroyed' && e.unit === 'ST');
    expect(i).toBeGreaterThan(0);
    expect(g.log!.slice(i).filter((e) => e.type === 'unit-flag' && e.unit === 'ST')).toEqual([]);
  });
});

describe('An Attached unit that lost a part outside an attack sequence', () => {
  it('TANK SHOCK destroys the last Bodyguard model: the Leader stands alone, Starting Strength 1, not Below Half-strength', () => {
    // a Wave Serpent (T9) has just charged a Strike Team reduced to one model, led by a Cadre Fireblade;
    // Tank Shock's nine D6: one 5+, so one mortal wound, which the Bodyguard model takes
    const tankShock = scriptedAgent('uses TANK SHOCK', (r) => {
      if (r.kind !== 'stratagem') return 0;
      const i = r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'TANK SHOCK');
      return i < 0 ? 0 : i;
    });
    const g = battleSandbox([
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 22.2, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 } },
      { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 19, y: 22 } },
    ], { phase: 'charge', round: 2, cp: [3, 3], factions: ['AE', 'TAU'], agents: [tankShock, scriptedAgent('p2')], stream: scriptedStream([5, 1, 1, 1, 1, 1, 1, 1, 1]) });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    const st = g.state.units.ST;
    // nine Strike Team models lost earlier; the last one stands beside the Wave Serpent
    for (const m of st.models.filter((x) => x.origin === 'ST').slice(1)) destroyModel(g, st, m, null, 'test');
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: [{ model: 'ST-m1', pos: { x: 20, y: 20, z: 0 } }, { model: 'CF-m1', pos: { x: 19, y: 21.5, z: 0 } }] });
    expect(belowHalfStrength(g.state, g.state.units.ST)).toBe(true);
    expect(unitsInEngagement(g.state, g.state.units.WS, g.state.units.ST)).toBe(true);
    expect(openWindow(g, { name: 'charge/after-own-charge-move', unit: 'WS', targets: ['ST'] })).toEqual(['TANK SHOCK']);
    expect(g.log!.filter((e) => e.type === 'model-destroyed').at(-1)).toMatchObject({ unit: 'ST', model: 'ST-m1', reason: 'mortal wounds' });
    expect(detached(g)).toEqual([{ type: 'unit-detached', leader: 'CF', bodyguard: 'ST' }]);
    const cf = g.state.units.CF;
    expect(cf.location).toBe('battlefield');
    expect(cf.startingStrength).toBe(1);
    expect(alive(g, 'CF')).toHaveLength(1);
    expect(belowHalfStrength(g.state, cf)).toBe(false);
    expect(g.state.units.ST.location).toBe('destroyed');
  });
});

describe('An Attached unit whose whole Bodyguard is destroyed by Desperate Escape', () => {
  it('the Leader ends the Fall Back as its own unit and is offered to embark within a transport in reach', () => {
    // the Battle-shocked Strike Team and Cadre Fireblade Fall Back toward a Devilfish: ten of the eleven
    // tests fail, the ten Strike Team models are destroyed (the suggestion each time), the Fireblade moves on
    const asked: DecisionRequest[] = [];
    const owner = scriptedAgent('owner', (req) => { asked.push(req); return 0; });
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 12, y: 11 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 12 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 21.3, y: 10 } },
    ], { phase: 'movement', agents: [owner, scriptedAgent('p2')], stream: scriptedStream([...new Array(10).fill(1), 6]) });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    executeMove(g, g.state.units.ST, { mode: 'fall-back', to: { x: 5, y: 10 }, toward: 'own deployment zone' });
    expect(g.log!.filter((e) => e.type === 'model-destroyed').map((e) => (e as { model: string }).model).sort()).toEqual(g.state.units.ST.models.map((m) => m.id).sort());
    expect(detached(g)).toEqual([{ type: 'unit-detached', leader: 'CF', bodyguard: 'ST' }]);
    const cf = g.state.units.CF;
    expect(cf.location).toBe('battlefield');
    expect(cf.flags.fellBack).toBe(true);
    // the Fireblade ended its move within 3" of the Devilfish: embarking is offered to it, by its own id
    expect(unitDistance(g.state, cf, g.state.units.DF)).toBeLessThanOrEqual(3);
    const embarks = asked.filter((r) => r.kind === 'embark');
    expect(embarks.map((r) => r.context)).toEqual([{ unit: 'CF' }]);
    expect(embarks[0].options).toContainEqual({ transport: 'DF' });
  });
});

describe('An Attached unit with two Leaders that loses one', () => {
  it('stays an Attached unit with the Bodyguard and the other Leader: their combined Starting Strength (11), so 5 models left are Below Half-strength', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 22, y: 10 } },
      { id: 'ET', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 22, y: 12 } },
    ], { phase: 'shooting' });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    g.emit({ type: 'unit-attached', leader: 'ET', bodyguard: 'ST' });
    expect(g.state.units.ST.startingStrength).toBe(12);
    destroyModel(g, g.state.units.ST, g.state.units.ST.models.find((m) => m.origin === 'CF')!, null, 'test');
    splitAttachedUnits(g);
    expect(detached(g)).toEqual([{ type: 'unit-detached', leader: 'CF', bodyguard: 'ST' }]);
    const st = () => g.state.units.ST;
    expect(st().components.map((c) => c.unit)).toEqual(['ST', 'ET']);
    expect(st().startingStrength).toBe(11);
    // 6 of 11 left: not Below Half-strength; 5 of 11: Below (5 of 10 would not be)
    for (const m of st().models.filter((x) => x.origin === 'ST').slice(0, 5)) destroyModel(g, st(), m, null, 'test');
    expect(alive(g, 'ST')).toHaveLength(6);
    expect(belowHalfStrength(g.state, st())).toBe(false);
    destroyModel(g, st(), st().models.find((x) => x.origin === 'ST' && x.alive)!, null, 'test');
    expect(belowHalfStrength(g.state, st())).toBe(true);
  });
});

describe('An Attached unit whose Bodyguard is destroyed during its own charge', () => {
  it('FIRE OVERWATCH destroys the Strike Team\'s one model: the Cadre Fireblade left carries the charge on (its Charge roll, its Charge move, Fights First)', () => {
    const ae = scriptedAgent('ae', (r) => (r.kind === 'stratagem' ? Math.max(0, (r.options as { stratagem?: string }[]).findIndex((o) => o.stratagem === 'FIRE OVERWATCH')) : 0));
    const g = battleSandbox([
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 20, y: 21.5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 26, y: 20.5 } },
    ], { factions: ['TAU', 'AE'], phase: 'charge', turn: 0, cp: [3, 3], stream: scriptedStream([6, 6, 6, 6, 1, 6, ...new Array(200).fill(5)]), agents: [scriptedAgent('tau'), ae] });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    const from = g.log!.length;
    expect(declareCharge(g, g.state.units.ST, { targets: ['GD'] })).toBe(true);
    expect(g.log!.slice(from).some((e) => e.type === 'stratagem-used' && e.name === 'FIRE OVERWATCH')).toBe(true);
    expect(g.state.units.ST.location).toBe('destroyed');
    const cf = g.state.units.CF;
    expect([cf.location, cf.flags.declaredCharge, cf.flags.charged]).toEqual(['battlefield', true, true]);
    expect(g.log!.slice(from).filter((e) => e.type === 'dice' && e.purpose === 'charge').map((e) => (e as { unit: string }).unit)).toEqual(['CF']);
    expect(unitsInEngagement(g.state, cf, g.state.units.GD)).toBe(true);
    expect(fightsFirst(g, cf)).toBe(true);
  });

  it('Relentless Raiders\' mortal wounds as the Charge move ends destroy the Bodyguard: HEROIC INTERVENTION is offered against the Fireblade left, as against the whole unit', () => {
    const run = (shasLa: number) => {
      let offered = false;
      const ae = scriptedAgent('ae', (r) => {
        if (r.kind === 'stratagem' && (r.options as { stratagem?: string }[]).some((o) => o.stratagem === 'HEROIC INTERVENTION')) offered = true;
        return 0;
      });
      // the Charge roll 6+6; Relentless Raiders' 6, then a D3 of 1
      const g = battleSandbox([
        { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 25, y: 22 } },
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, shasLa], at: { x: 25, y: 23.2 }, spacing: 1.2 },
        { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 29.5, y: 22 } },
        { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 0], at: { x: 27, y: 27.5 } },
      ], { factions: ['TAU', 'AE'], detachments: [null, 'Corsair Coterie'], phase: 'charge', turn: 0, cp: [3, 3],
        objectives: [{ id: 'o1', pos: { x: 30, y: 24 } }], stream: scriptedStream([6, 6, 6, 1, ...new Array(100).fill(3)]), agents: [scriptedAgent('tau'), ae] });
      g.emit({ type: 'objective-control', objective: 'o1', controller: 1 });
      g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
      expect(declareCharge(g, g.state.units.ST, { targets: ['GD'] })).toBe(true);
      return { g, offered };
    };
    const lone = run(0);
    expect(lone.g.state.units.ST.location).toBe('destroyed');
    expect(lone.g.state.units.CF.flags.charged).toBe(true);
    expect(lone.offered).toBe(true);
    expect(run(1).offered).toBe(true);
  });
});

describe('An Attached unit whose Bodyguard is destroyed as its move starts', () => {
  it('FIRE OVERWATCH at the start of the Guardian\'s Normal move destroys it: the Farseer left makes the move (7") and is not selected to move again', () => {
    const selected: string[] = [];
    const ae = (req: DecisionRequest) => {
      if (req.kind === 'move') return Math.max(0, (req.options as { mode: string }[]).findIndex((o) => o.mode === 'normal'));
      if (req.kind === 'select-unit-to-move') {
        const i = (req.options as { unit?: string }[]).findIndex((o) => o.unit === 'FS');
        if (i >= 0) { selected.push('FS'); return i; }
      }
      return 0;
    };
    const tau = (req: DecisionRequest) => {
      if (req.kind !== 'stratagem' || (req.context as { window?: { name: string } } | undefined)?.window?.name !== 'movement/enemy-move-started') return 0;
      return Math.max(0, (req.options as { stratagem?: string }[]).findIndex((o) => o.stratagem === 'FIRE OVERWATCH'));
    };
    const g = battleSandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 10, y: 20 } },
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 10, y: 21.5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 22, y: 16 } },
    ], { phase: 'movement', turn: 0, round: 2, cp: [3, 3], factions: ['AE', 'TAU'], agents: [scriptedAgent('ae', ae), scriptedAgent('tau', tau)], stream: createStream('p2-0') });
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    const start = { ...g.state.units.GD.models.find((m) => m.origin === 'FS')!.pos! };
    moveUnit(g, g.state.units.GD);
    expect(detached(g).length).toBe(1);
    expect(g.state.units.GD.location).toBe('destroyed');
    const fs = g.state.units.FS;
    expect(fs.flags.moved).toBe('normal');
    const pos = fs.models[0].pos!;
    expect(Math.hypot(pos.x - start.x, pos.y - start.y)).toBeCloseTo(7, 6);
    movementBody(g, 0);
    expect(selected).toEqual([]);
  });
});
