/**
 * The Retaliation Cadre (src/factions/tau/retaliation-cadre.ts): Bonded Heroes, its six stratagems and its
 * four Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits as offered } from '../helpers/stratagems.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { forbids, getRule } from '../../src/core/rules-registry.ts';
import { openWindow, stratagemTargeted, type Window } from '../../src/rules/windows.ts';
import { destroyModel, feelNoPainOf } from '../../src/rules/damage.ts';
import { deepStrikeDistance } from '../../src/rules/battle/reserves.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

const RC = 'Retaliation Cadre';

/** Player 0 (T'au) answers with `pick`; player 1 (Aeldari) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; round?: number } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [3, 3], detachments: [opts.detachment === undefined ? RC : opts.detachment, 'Battle Host'],
    agents: [scriptedAgent('tau', pick), scriptedAgent('ae')], ...(opts.stream ? { stream: opts.stream } : {}), ...(opts.round ? { round: opts.round } : {}),
  });
}

/** Use `name` when offered (on `unit` if given), and answer its own request `kind` with option `choice`. */
const using = (name: string, kind = '', choice = 0, unit?: string) => (r: DecisionRequest) => {
  if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name && (unit === undefined || (o as { unit?: string }).unit === unit)));
  return r.kind === kind ? choice : 0;
};
const alive = (g: Game, id: string) => g.state.units[id].models.filter((m) => m.alive).length;
/** Wounds the unit has left (mortal wounds may fall on its 2-wound weapon platform first). */
const wounds = (g: Game, id: string) => g.state.units[id].models.reduce((n, m) => n + (m.alive ? m.wounds : 0), 0);

const CS: PlacedUnit = { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Starscythe Battlesuits', at: { x: 10, y: 5 } };
const ST: PlacedUnit = { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 25 }, spacing: 0.9 };
const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 }, spacing: 0.9 };
/** Ten Guardians of 1 wound and a Heavy Weapon Platform of 2. */
const GD_WOUNDS = 12;

describe('Bonded Heroes', () => {
  it('a BATTLESUIT model\'s ranged attack at a unit within 12" has +1 Strength, within 9" also +1 AP; not beyond, not other units, not without the detachment', () => {
    const g = sandbox([CS, ST, GD]);
    const far = planFor(g, 'CS', 'GD', 'Burst cannon', { distance: 12.5 });
    const mid = planFor(g, 'CS', 'GD', 'Burst cannon', { distance: 12 });
    const near = planFor(g, 'CS', 'GD', 'Burst cannon', { distance: 9 });
    expect([mid.strength - far.strength, mid.ap - far.ap]).toEqual([1, 0]);
    expect([near.strength - far.strength, near.ap - far.ap]).toEqual([1, -1]);
    const none = sandbox([CS, ST, GD], { detachment: null });
    // the Strike Team is no BATTLESUIT unit; melee attacks are not ranged attacks (as without the detachment)
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle', { distance: 9 }).strength).toBe(planFor(g, 'ST', 'GD', 'Pulse rifle', { distance: 15 }).strength);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle', { distance: 9 }).ap).toBe(planFor(none, 'ST', 'GD', 'Pulse rifle', { distance: 9 }).ap);
    const fists = (x: Game) => planFor(x, 'CS', 'GD', 'Battlesuit fists', { distance: 0 });
    expect([fists(g).strength, fists(g).ap]).toEqual([fists(none).strength, fists(none).ap]);
    expect(planFor(none, 'CS', 'GD', 'Burst cannon', { distance: 9 }).strength).toBe(far.strength);
    expect(planFor(none, 'CS', 'GD', 'Burst cannon', { distance: 9 }).ap).toBe(far.ap);
  });

  it('model by model: a Crisis unit\'s burst cannons split at 9" and 12" (three Hit rolls), at half range only (two) without the detachment', () => {
    const hitRolls = (detachment: string | null) => {
      const g = sandbox([CS, GD], { detachment });
      const models = g.state.units.CS.models;
      // one Crisis ~6.5" from the Guardians, one ~10", one ~14.5" (all within the burst cannons' 18")
      const at = [{ x: 22, y: 5 }, { x: 19, y: 8 }, { x: 14, y: 11 }];
      g.emit({ type: 'models-placed', unit: 'CS', mode: 'test', positions: models.map((m, i) => ({ model: m.id, pos: { ...at[i], z: 0 } })) });
      shootWithUnit(g, g.state.units.CS, { onlyTarget: 'GD' });
      return (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit' && (e as { unit: string }).unit === 'CS' && /^Burst cannon/.test((e as { label?: string }).label ?? '')).map((e) => (e as { values: number[] }).values.length);
    };
    const bonded = hitRolls(RC);
    const plain = hitRolls(null);
    // without it the attacks split at half range (9") already
    expect(plain).toHaveLength(2);
    expect(bonded).toHaveLength(3);
    expect(bonded.reduce((a, b) => a + b, 0)).toBe(plain.reduce((a, b) => a + b, 0));
  });
});

describe('Retaliation Cadre stratagems', () => {
  it("THE ARRO'KON PROTOCOL: SUSTAINED HITS 1 against a unit of 6 to 10 models, 2 against 11 or more, none below 6; a BATTLESUIT unit only", () => {
    const g = sandbox([CS, ST, GD,
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 25 } },
      { id: 'D6', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 36, y: 25 }, counts: [1, 5] },
    ], {}, using("THE ARRO'KON PROTOCOL"));
    const w: Window = { name: 'shooting/unit-selected', unit: 'CS', targets: [] };
    expect(offered(g, { ...w, unit: 'ST' }, 0, "THE ARRO'KON PROTOCOL")).toEqual([]);
    expect(openWindow(g, w)).toContain("THE ARRO'KON PROTOCOL");
    expect([alive(g, 'DA'), alive(g, 'D6'), alive(g, 'GD')]).toEqual([5, 6, 11]);
    expect(planFor(g, 'CS', 'DA', 'Burst cannon').sustainedHits).toBe(0);
    expect(planFor(g, 'CS', 'D6', 'Burst cannon').sustainedHits).toBe(1);
    expect(planFor(g, 'CS', 'GD', 'Burst cannon').sustainedHits).toBe(2);
  });

  it('FAIL-SAFE DETONATOR without Deadly Demise: a D6 for each unit within 6" of the destroyed Crisis model, D3 mortal wounds on a 4+', () => {
    const g = sandbox([CS, GD, { ...ST, at: { x: 10, y: 20 } }], { stream: scriptedStream([5, 2]) }, using('FAIL-SAFE DETONATOR'));
    const cs = g.state.units.CS;
    // the last Crisis model, 4" from the Guardians; the Strike Team is more than 6" away
    for (const m of cs.models.slice(1)) destroyModel(g, g.state.units.CS, m, null, 'test', { triggers: false });
    g.emit({ type: 'models-placed', unit: 'CS', mode: 'test', positions: [{ model: cs.models[0].id, pos: { x: 25, y: 5, z: 0 } }] });
    destroyModel(g, g.state.units.CS, g.state.units.CS.models[0], 'GD', 'test');
    expect(g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['FAIL-SAFE DETONATOR']);
    expect(g.state.players[0].cp).toBe(1);
    expect(wounds(g, 'GD')).toBe(GD_WOUNDS - 2);
    expect(alive(g, 'ST')).toBe(10);
    // a 3 is no blast
    const low = sandbox([CS, GD], { stream: scriptedStream([3]) }, using('FAIL-SAFE DETONATOR'));
    const lone = low.state.units.CS;
    for (const m of lone.models.slice(1)) destroyModel(low, low.state.units.CS, m, null, 'test', { triggers: false });
    low.emit({ type: 'models-placed', unit: 'CS', mode: 'test', positions: [{ model: lone.models[0].id, pos: { x: 25, y: 5, z: 0 } }] });
    destroyModel(low, low.state.units.CS, low.state.units.CS.models[0], 'GD', 'test');
    expect(low.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['FAIL-SAFE DETONATOR']);
    expect(wounds(low, 'GD')).toBe(GD_WOUNDS);
  });

  it('FAIL-SAFE DETONATOR with Deadly Demise: the roll is not made; a chosen 6 explodes, a chosen 1 does not', () => {
    const riptide = (choice: number, stream: number[]) => {
      const g = sandbox([{ id: 'RT', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 25, y: 5 } }, GD], { stream: scriptedStream(stream) }, using('FAIL-SAFE DETONATOR', 'fail-safe-detonator', choice));
      destroyModel(g, g.state.units.RT, g.state.units.RT.models[0], 'GD', 'test');
      const rolled = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'deadly-demise').length;
      return { g, rolled };
    };
    // option 0 is 6: D6 mortal wounds (3) on the Guardians, no Deadly Demise roll
    const six = riptide(0, [3]);
    expect(six.rolled).toBe(0);
    expect(wounds(six.g, 'GD')).toBe(GD_WOUNDS - 3);
    // option 1 is 1: nothing, and no dice at all (the stream would run out)
    const one = riptide(1, []);
    expect(one.rolled).toBe(0);
    expect(wounds(one.g, 'GD')).toBe(GD_WOUNDS);
    // the heuristic picks the blast (6) next to enemy units only, and none (1) next to its own
    const choice = (friend: boolean) => {
      const g = sandbox([
        { id: 'RT', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 25, y: 5 }, points: 190 },
        friend ? { ...ST, at: { x: 29, y: 5 }, points: 75 } : { ...GD, points: 100 },
      ]);
      const req = { kind: 'fail-safe-detonator', player: 0 as PlayerIndex, prompt: '', options: [6, 1], context: { unit: 'RT', model: g.state.units.RT.models[0].id } };
      return createHeuristic().decide({ state: g.state, player: 0 }, req).option;
    };
    expect(choice(false)).toBe(0);
    expect(choice(true)).toBe(1);
  });

  it('THE SHORTENED BLADE: a BATTLESUIT unit arriving by Deep Strike may be set up more than 6" from enemy models, and cannot charge', () => {
    const g = sandbox([CS, ST, GD], { phase: 'movement', round: 2 }, using('THE SHORTENED BLADE'));
    for (const id of ['CS', 'ST']) g.emit({ type: 'unit-location', unit: id, location: 'reserves', embarkedIn: null });
    const w: Window = { name: 'movement/reinforcements-start', unit: null, targets: [] };
    expect(offered(g, w, 0, 'THE SHORTENED BLADE')).toEqual(['CS']);
    expect(deepStrikeDistance(g.state, g.state.units.CS)).toBe(9);
    expect(openWindow(g, w)).toContain('THE SHORTENED BLADE');
    expect(deepStrikeDistance(g.state, g.state.units.CS)).toBe(6);
    expect(forbids(g.state, g.state.units.CS, 'charge')).toBe(true);
  });

  it('THE SHORTENED BLADE: a BATTLESUIT unit with Deep Strike in Strategic Reserves may arrive by Deep Strike, so it is offered', () => {
    const g = sandbox([CS, ST, GD], { phase: 'movement', round: 2 });
    for (const id of ['CS', 'ST']) g.emit({ type: 'unit-location', unit: id, location: 'strategic-reserves', embarkedIn: null });
    const w: Window = { name: 'movement/reinforcements-start', unit: null, targets: [] };
    expect(offered(g, w, 0, 'THE SHORTENED BLADE')).toEqual(['CS']);
  });

  it('THE TORCHSTAR GAMBIT: a FLY BATTLESUIT unit that shot makes a Normal move and cannot charge; not a Strike Team', () => {
    const g = sandbox([CS, ST, GD], {}, using('THE TORCHSTAR GAMBIT', 'torchstar-gambit', 1));
    const w: Window = { name: 'shooting/after-own-shot', unit: 'CS', targets: [], data: { hitTargets: [] } };
    expect(offered(g, { ...w, unit: 'ST' }, 0, 'THE TORCHSTAR GAMBIT')).toEqual([]);
    const before = g.state.units.CS.models.map((m) => m.pos);
    expect(openWindow(g, w)).toContain('THE TORCHSTAR GAMBIT');
    expect(g.state.units.CS.models.map((m) => m.pos)).not.toEqual(before);
    expect(forbids(g.state, g.state.units.CS, 'charge')).toBe(true);
    expect(forbids(g.state, g.state.units.ST, 'charge')).toBe(false);
  });

  it('GRAV-INHIBITOR FIELD: the charging unit takes a Battle-shock test, and each 6 of a D6 per model is a mortal wound', () => {
    // the test: 1+1 fails; then eleven D6 with two 6s
    const g = sandbox([CS, GD], { phase: 'charge', turn: 1, stream: scriptedStream([1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1]) }, using('GRAV-INHIBITOR FIELD'));
    const w: Window = { name: 'charge/after-enemy-charge-declared', unit: 'GD', targets: ['CS'] };
    expect(openWindow(g, w)).toContain('GRAV-INHIBITOR FIELD');
    expect(g.state.units.GD.battleShocked).toBe(true);
    expect(wounds(g, 'GD')).toBe(GD_WOUNDS - 2);
  });

  it('STIMM INJECTORS: Feel No Pain 6+ for a targeted BATTLESUIT unit this phase; not in its own Shooting phase', () => {
    const g = sandbox([CS, GD], { turn: 1 }, using('STIMM INJECTORS'));
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['CS'] };
    const m = g.state.units.CS.models[0];
    expect(feelNoPainOf(g.state, g.state.units.CS, m, null)).toBe(null);
    expect(openWindow(g, w)).toContain('STIMM INJECTORS');
    expect(feelNoPainOf(g.state, g.state.units.CS, m, null)).toBe(6);
    expect(offered(sandbox([CS, GD], { turn: 0 }), w, 0, 'STIMM INJECTORS')).toEqual([]);
    expect(offered(sandbox([CS, GD], { turn: 1, phase: 'fight' }), { ...w, name: 'fight/after-enemy-targets' }, 0, 'STIMM INJECTORS')).toEqual(['CS']);
  });
});

describe('Retaliation Cadre Enhancements', () => {
  /** A Coldstar Commander (LD) with `enhancement`, leading Crisis Fireknives (FK) when `attached`. */
  const coldstar = (enhancement: string, pick: (r: DecisionRequest) => number = () => 0, opts: { stream?: Stream; turn?: PlayerIndex } = {}) => {
    const g = sandbox([
      { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 10, y: 5 } },
      { id: 'LD', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 12, y: 8 }, enhancement },
      GD,
    ], opts, pick);
    g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'FK' });
    return g;
  };

  it('Prototype Weapon System: the chosen ability for the bearer\'s ranged weapons this phase, not for the rest of its unit', () => {
    const lethal = coldstar('Prototype Weapon System', (r) => (r.kind === 'prototype-weapon-system' ? 0 : 0));
    getRule('Prototype Weapon System')!.selectedToShoot!(lethal, lethal.state.units.FK);
    expect(planFor(lethal, 'FK', 'GD', 'High-output burst cannon').lethalHits).toBe(true);
    expect(planFor(lethal, 'FK', 'GD', 'Plasma rifle').lethalHits).toBe(false);
    const sustained = coldstar('Prototype Weapon System', (r) => (r.kind === 'prototype-weapon-system' ? 1 : 0));
    getRule('Prototype Weapon System')!.selectedToShoot!(sustained, sustained.state.units.FK);
    expect(planFor(sustained, 'FK', 'GD', 'High-output burst cannon').sustainedHits).toBe(1);
    expect(planFor(sustained, 'FK', 'GD', 'High-output burst cannon').lethalHits).toBe(false);
  });

  it('Puretide Engram Neurochip: a stratagem on the bearer\'s unit gains 1CP on a 4+, not on a 3', () => {
    const four = coldstar('Puretide Engram Neurochip', () => 0, { stream: scriptedStream([4]) });
    stratagemTargeted(four, four.state.units.FK, 'COMMAND RE-ROLL');
    expect(four.state.players[0].cp).toBe(4);
    const three = coldstar('Puretide Engram Neurochip', () => 0, { stream: scriptedStream([3]) });
    stratagemTargeted(three, three.state.units.FK, 'COMMAND RE-ROLL');
    expect(three.state.players[0].cp).toBe(3);
  });

  it('Internal Grenade Racks: the bearer\'s unit has GRENADES; after a Normal move of the bearer over an enemy unit, six D6 and each 4+ is a mortal wound; not beside it', () => {
    const racks = (y: number) => {
      const asked: DecisionRequest[] = [];
      const g = sandbox([{ id: 'LD', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 25, y }, enhancement: 'Internal Grenade Racks' }, GD],
        { phase: 'movement', stream: scriptedStream([4, 6, 1, 3, 5, 2]) }, (r) => { asked.push(r); return r.kind === 'internal-grenade-racks' ? 1 : 0; });
      // east 10" at height y: the Guardians stand in a column at x 30, from y 5 to 14
      executeMove(g, g.state.units.LD, { mode: 'normal', to: { x: 35, y }, toward: 'test' });
      expect(g.state.units.LD.models[0].pos!.x).toBeCloseTo(35, 6);
      return { g, asked: asked.filter((r) => r.kind === 'internal-grenade-racks') };
    };
    const { g, asked } = racks(8);
    expect(g.state.units.LD.keywords).toContain('GRENADES');
    expect(asked.map((r) => r.options)).toEqual([[{ none: true }, { unit: 'GD' }]]);
    expect(wounds(g, 'GD')).toBe(GD_WOUNDS - 3);
    // the same move 6" past the column's end: nothing moved over, nothing asked
    const beside = racks(21);
    expect(beside.asked).toEqual([]);
    expect(wounds(beside.g, 'GD')).toBe(GD_WOUNDS);
    // leading Crisis Fireknives: they fly over the Guardians, the Commander beside them; the bearer's own path counts
    const ledAsked: DecisionRequest[] = [];
    const led = sandbox([
      { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 25, y: 9 }, spacing: 1.8 },
      { id: 'LD', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 25, y: 16.5 }, enhancement: 'Internal Grenade Racks' },
      GD,
    ], { phase: 'movement', stream: scriptedStream([4, 6, 1, 3, 5, 2]) }, (r) => { ledAsked.push(r); return r.kind === 'internal-grenade-racks' ? 1 : 0; });
    led.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'FK' });
    executeMove(led, led.state.units.FK, { mode: 'normal', to: { x: 35, y: 12 }, toward: 'test' });
    const fk = led.state.units.FK.models.filter((m) => m.origin === 'FK');
    const lead = led.state.units.FK.models.find((m) => m.origin === 'LD')!;
    expect(Math.min(...fk.map((m) => m.pos!.x))).toBeGreaterThan(31);
    expect(lead.pos!.y).toBeGreaterThan(15.5);
    expect(ledAsked.filter((r) => r.kind === 'internal-grenade-racks')).toEqual([]);
    const plain = sandbox([{ id: 'LD', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 5 } }]);
    expect(plain.state.units.LD.keywords).not.toContain('GRENADES');
  });

  it('Starflare Ignition System: at the end of the opponent\'s turn the bearer\'s unit may go into Strategic Reserves; not at the end of its own', () => {
    const g = coldstar('Starflare Ignition System', (r) => (r.kind === 'starflare-ignition' ? 1 : 0), { turn: 1 });
    const rule = getRule('Starflare Ignition System')!;
    rule.turnEnd!(g, g.state.units.FK, 0);
    expect(g.state.units.FK.location).toBe('battlefield');
    rule.turnEnd!(g, g.state.units.FK, 1);
    expect(g.state.units.FK.location).toBe('strategic-reserves');
  });
});
