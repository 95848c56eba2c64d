/**
 * The battle sequence rules, each in a seeded situation that fails if the rule is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDER_AND_FIREKNIVES, attachCommanderToFireknives, battleSandbox, pocketWalls, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { playGame } from '../../src/sim/play.ts';
import { belowHalfStrength, unitsOnBattlefield } from '../../src/rules/battle/units.ts';
import { canShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { canCharge } from '../../src/rules/battle/charge.ts';
import { afterMove, executeMove, movementBody } from '../../src/rules/battle/movement.ts';
import { reinforcements } from '../../src/rules/battle/reserves.ts';
import { removeOutOfCoherency } from '../../src/rules/battle/end-of-turn.ts';
import { fight, fightPhase } from '../../src/rules/battle/fight.ts';
import { destroyModel, inflictMortalWounds } from '../../src/rules/damage.ts';
import { disembark, disembarkPlan, embarkOptions, roomToDisembarkAfterMove } from '../../src/rules/battle/transports.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';
import { unitDistance, modelBody, isEngaged } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { createUnitState } from '../../src/rules/muster.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { ModelState } from '../../src/core/state.ts';

describe('Command phase', () => {
  it('an Attached unit is Below Half-strength against its combined Starting Strength', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'AS', player: 0, faction: 'tau', name: "Aun'shi", at: { x: 11, y: 4 } },
    ], { phase: 'command' });
    g.emit({ type: 'unit-attached', leader: 'AS', bodyguard: 'ST' });
    const u = g.state.units.ST;
    expect(u.startingStrength).toBe(11);
    // 6 of 11 left: not below half; 5 of 11: below half (10 of its own would be 5 of 10, not below)
    for (const m of u.models.filter((x) => x.origin === 'ST').slice(0, 5)) destroyModel(g, u, m, null, 'test');
    expect(belowHalfStrength(g.state, u)).toBe(false);
    destroyModel(g, u, u.models.find((x) => x.alive && x.origin === 'ST')!, null, 'test');
    expect(belowHalfStrength(g.state, u)).toBe(true);
  });
});

describe('Movement phase', () => {
  it('a Battle-shocked unit that Falls Back takes a Desperate Escape test for every model: 1-2 destroys one', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 21.3, y: 10 } },
    ], { phase: 'movement', stream: scriptedStream([1, 2, 3, 4, 5, 6, 3, 4, 5, 6]) });
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    executeMove(g, g.state.units.ST, { mode: 'fall-back', to: { x: 5, y: 10 }, toward: 'own deployment zone' });
    const tests = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape');
    expect(tests).toHaveLength(1);
    expect((tests[0] as { values: number[] }).values).toHaveLength(10);
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(8);
  });

  it('a Fall Back with no legal path is not made: the unit Remains Stationary, takes no Desperate Escape test and may still shoot', () => {
    // a lone Warlock in the corner behind four rows of Strike Team models: a Fall Back may cross enemy
    // models but must end more than 1" from them, which takes more than its 7" of movement
    const g = battleSandbox([
      { id: 'WL', player: 0, faction: 'aeldari', name: 'Warlock', at: { x: 1, y: 4 } },
      ...[2.3, 3.9, 5.5, 7.1].map((x, i) => ({ id: `ST${i}`, player: 1 as const, faction: 'tau' as const, name: 'Strike Team', at: { x, y: 0.6 } })),
    ], { phase: 'movement', factions: ['AE', 'TAU'] });
    g.emit({ type: 'battle-shock', unit: 'WL', value: true });
    const u = g.state.units.WL;
    const before = JSON.stringify(u.models.map((m) => m.pos));
    expect(isEngaged(g.state, u)).toBe(true);
    expect(planUnit(g.state, u, 'fallBack', { maxDistance: 7, destination: { x: 1, y: 30 } }).ok).toBe(false);
    executeMove(g, u, { mode: 'fall-back', to: { x: 1, y: 30 }, toward: 'own deployment zone' });
    const after = g.state.units.WL;
    expect(JSON.stringify(after.models.map((m) => m.pos))).toBe(before);
    expect(after.flags.moved).toBe('stationary');
    expect(after.flags.fellBack).toBe(false);
    expect((g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'desperate-escape')).toHaveLength(0);
    // having not Fallen Back, it can shoot its Shuriken pistol in Engagement Range in the Shooting phase
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    expect(canShoot(g, g.state.units.WL)).toBe(true);
  });

  it('a unit that Advanced cannot declare a charge', () => {
    const g = battleSandbox([
      { id: 'A', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 20, y: 10 } },
      { id: 'E', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 28, y: 10 } },
    ], { phase: 'charge', factions: ['AE', 'TAU'] });
    expect(canCharge(g, g.state.units.A)).toBe(true);
    g.emit({ type: 'unit-moved', unit: 'A', mode: 'advance', advanceRoll: 3 });
    // Howling Banshees' Acrobatic lets them; a Strike Team cannot
    const h = battleSandbox([
      { id: 'A', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 28, y: 10 } },
    ], { phase: 'charge' });
    expect(canCharge(h, h.state.units.A)).toBe(true);
    h.emit({ type: 'unit-moved', unit: 'A', mode: 'advance', advanceRoll: 3 });
    expect(canCharge(h, h.state.units.A)).toBe(false);
  });

  it('Deep Strike: never in battle round 1; from round 2, more than 9" from every enemy model', () => {
    const arrivals: DecisionRequest[] = [];
    const agent = scriptedAgent('p1', (r) => {
      if (r.kind === 'reinforcement') { arrivals.push(r); return r.options.length > 1 ? 1 : 0; }
      return 0;
    });
    for (const round of [1, 2]) {
      arrivals.length = 0;
      const g = battleSandbox([
        { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', at: { x: 10, y: 10 } },
        { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 22 } },
      ], { phase: 'movement', round, agents: [agent, scriptedAgent('p2')] });
      g.emit({ type: 'unit-location', unit: 'CS', location: 'reserves', embarkedIn: null });
      reinforcements(g, 0);
      if (round === 1) {
        expect(arrivals).toHaveLength(0);
        expect(g.state.units.CS.location).toBe('reserves');
      } else {
        expect(arrivals.length).toBeGreaterThan(0);
        expect(g.state.units.CS.location).toBe('battlefield');
        const s = g.state;
        for (const m of s.units.CS.models) for (const e of s.units.E.models) {
          expect(horizontalDistance(modelBody(s, m), modelBody(s, e))).toBeGreaterThan(9);
        }
      }
    }
  });

  it('units still in Reserves at the end of the battle count as destroyed', () => {
    const sc = miniScenario({ rounds: 2 });
    sc.players[0].reserves = { u3: 'deep-strike' }; // Crisis Sunforge Battlesuits, never brought in
    const wait = scriptedAgent('waits', (r) => (r.kind === 'reinforcement' || r.kind === 'rapid-ingress' ? 0 : 0));
    const { game } = playGame(sc, { seed: 'reserves', agents: [wait, scriptedAgent('p2')], log: true });
    const u = game.state.units['p1-u3'];
    expect(u.location).toBe('destroyed');
    const destroyed = (game.log ?? []).filter((e) => e.type === 'unit-destroyed' && e.unit === 'p1-u3');
    expect(destroyed).toHaveLength(1);
    const endIdx = (game.log ?? []).findIndex((e) => e.type === 'game-ended');
    const dIdx = (game.log ?? []).findIndex((e) => e.type === 'unit-destroyed' && e.unit === 'p1-u3');
    expect(dIdx).toBeLessThan(endIdx);
    expect(dIdx).toBeGreaterThan((game.log ?? []).findIndex((e) => e.type === 'round-started' && e.round === 2));
  });
});

describe('Shooting phase', () => {
  it('in Engagement Range: INFANTRY shoot only Pistols, at the unit they are engaged with; VEHICLEs may shoot (Big Guns Never Tire) at -1', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 } },
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 20, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 21.1, y: 10 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 35, y: 10 } },
      { id: 'WW', player: 1, faction: 'aeldari', name: 'War Walkers', at: { x: 23.4, y: 30 } },
    ], { phase: 'shooting' });
    expect(canShoot(g, g.state.units.ST, 'GD')).toBe(true); // pulse pistols at the engaged unit
    expect(canShoot(g, g.state.units.ST, 'DA')).toBe(false); // nothing at another target
    expect(canShoot(g, g.state.units.HH)).toBe(true);
  });

  it('BLAST weapons are never fired at a unit within Engagement Range of the attacking unit, even by Big Guns Never Tire', () => {
    const weapons: string[] = [];
    const tau = scriptedAgent('tau', (r) => {
      if (r.kind === 'shoot-target') weapons.push(...(r.options as { weapon: string; target: string }[]).map((o) => `${o.weapon} -> ${o.target}`));
      return 0;
    });
    const g = battleSandbox([
      { id: 'SS', player: 0, faction: 'tau', name: 'Stormsurge', at: { x: 20, y: 30 } },
      { id: 'WW', player: 1, faction: 'aeldari', name: 'War Walkers', at: { x: 24, y: 30 } },
    ], { phase: 'shooting', agents: [tau, scriptedAgent('ae')] });
    expect(isEngaged(g.state, g.state.units.SS)).toBe(true);
    shootWithUnit(g, g.state.units.SS);
    // the Stormsurge's other guns are offered the War Walkers it is engaged with; its BLAST guns
    // (Cluster rocket system, Pulse driver cannon) are not
    expect([...new Set(weapons)].sort()).toEqual(['Destroyer missiles -> WW', "Twin T'au flamer -> WW", 'Twin smart missile system -> WW']);
  });

  it('two weapon groups of one name (a Leader\'s Plasma rifle, 24", beside its Bodyguard\'s, 18"): each is offered only the targets its own models reach', () => {
    const asked: { weapon: string; targets: string[]; models: number[] }[] = [];
    const tau = scriptedAgent('tau', (r) => {
      if (r.kind === 'shoot-target') {
        const o = r.options as { weapon: string; target: string; models: number }[];
        asked.push({ weapon: o[0].weapon, targets: o.map((x) => x.target), models: o.map((x) => x.models) });
      }
      return 0;
    });
    const g = battleSandbox([
      ...COMMANDER_AND_FIREKNIVES,
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 38, y: 10 } },
    ], { phase: 'shooting', agents: [tau, scriptedAgent('ae')] });
    const { commander, fireknives } = attachCommanderToFireknives(g);
    const s = g.state;
    const nearest = (m: ModelState) => Math.min(...s.units.GD.models.map((t) => horizontalDistance(modelBody(s, m), modelBody(s, t))));
    // the setting: the Guardians within the Commander's 24", beyond every Fireknife's 18"
    expect(nearest(commander)).toBeLessThan(24);
    for (const m of fireknives) expect(nearest(m)).toBeGreaterThan(18);
    shootWithUnit(g, s.units.FK);
    // one Plasma rifle request, the Commander's: its one model; the Fireknives' group, which reaches nothing, is not asked
    expect(asked.filter((a) => a.weapon === 'Plasma rifle')).toEqual([{ weapon: 'Plasma rifle', targets: ['GD'], models: [1] }]);
  });

  /** A Starweaver with seven Players embarked (the Lead Player with a Neuro disruptor too); `pick` answers each Firing Deck request. */
  function starweaverDeck(pick: (options: ({ model: string; weapon: string } | { done: true })[], slot: number) => number) {
    const offered: { weapon: string; models: number }[] = [];
    const deck: ({ model: string; weapon: string } | { done: true })[][] = [];
    const ae = scriptedAgent('ae', (r) => {
      if (r.kind === 'shoot-target') offered.push(...(r.options as { weapon: string; models: number }[]).map((o) => ({ weapon: o.weapon, models: o.models })));
      if (r.kind !== 'firing-deck') return 0;
      const options = r.options as ({ model: string; weapon: string } | { done: true })[];
      deck.push(options);
      return pick(options, deck.length);
    });
    const g = battleSandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 20 } },
      // (another Troupe, far away, brings the datasheet into the game)
      { id: 'T2', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', agents: [ae, scriptedAgent('tau')] });
    const troupe = loadFactionCatalog('aeldari').byName('Troupe')!;
    g.emit({ type: 'unit-created', unit: createUnitState({ id: 'TR', player: 0, datasheet: troupe, models: [
      { profile: 'Lead Player', count: 1, weapons: ['Shuriken pistol', 'Neuro disruptor'] },
      { profile: 'Players', count: 6, weapons: ['Shuriken pistol'] },
    ] }) });
    g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
    shootWithUnit(g, g.state.units.SW);
    return { g, offered, deck, lead: g.state.units.TR.models[0].id };
  }

  it('Firing Deck 6: one ranged weapon from each of up to 6 embarked models', () => {
    // the first weapon offered each time: six models lend one each, six Shuriken pistols; the Lead Player's
    // second weapon is not lent, nor the seventh model's pistol
    const t = starweaverDeck(() => 1);
    expect(t.deck).toHaveLength(6);
    expect(t.offered.filter((o) => o.weapon !== 'Shuriken cannon')).toEqual([{ weapon: 'Shuriken pistol', models: 6 }]);
    expect(t.g.state.units.TR.flags.shot).toBe(true);
  });

  it('Firing Deck: the player picks the models and the weapon each lends, up to X, or stops early', () => {
    // the Lead Player lends its Neuro disruptor, one Player its pistol, then no more
    const t = starweaverDeck((options, slot) => {
      const i = slot === 1 ? options.findIndex((o) => 'weapon' in o && o.weapon === 'Neuro disruptor') : slot === 2 ? options.findIndex((o) => 'weapon' in o && o.weapon === 'Shuriken pistol') : 0;
      return i;
    });
    expect(t.deck).toHaveLength(3);
    // first request: "no more" first, then both weapons of the Lead Player and the pistol of each of the six Players
    const first = t.deck[0];
    expect(first[0]).toEqual({ done: true });
    expect(first.filter((o) => 'weapon' in o && o.model === t.lead).map((o) => (o as { weapon: string }).weapon).sort()).toEqual(['Neuro disruptor', 'Shuriken pistol']);
    expect(first.filter((o) => 'weapon' in o && o.model !== t.lead)).toHaveLength(6);
    // the Lead Player is not offered again once it has lent a weapon
    expect(t.deck[1].some((o) => 'weapon' in o && o.model === t.lead)).toBe(false);
    expect(t.offered.filter((o) => o.weapon !== 'Shuriken cannon')).toEqual([{ weapon: 'Neuro disruptor', models: 1 }, { weapon: 'Shuriken pistol', models: 1 }]);
    expect(t.g.state.units.TR.flags.shot).toBe(true);
  });

  it('Firing Deck: lending nothing leaves the embarked unit free to shoot later (not marked as having shot)', () => {
    const t = starweaverDeck(() => 0);
    expect(t.deck).toHaveLength(1);
    expect(t.offered.filter((o) => o.weapon !== 'Shuriken cannon')).toEqual([]);
    expect(t.g.state.units.TR.flags.shot).toBe(false);
  });

  it('Firing Deck: the transport may shoot when any weapon an embarked model could lend reaches a target', () => {
    // the Starweaver Advanced (its Shuriken cannon is not ASSAULT); the one embarked model carries a
    // Fusion pistol (6") first and a Shuriken pistol (12"): the enemy 6-12" away is reached by the second only
    const g = battleSandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 32, y: 20 } },
      { id: 'T2', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', agents: [scriptedAgent('ae', (r) => (r.kind === 'firing-deck' ? r.options.findIndex((o) => (o as { weapon?: string }).weapon === 'Shuriken pistol') : 0)), scriptedAgent('tau')] });
    const troupe = loadFactionCatalog('aeldari').byName('Troupe')!;
    g.emit({ type: 'unit-created', unit: createUnitState({ id: 'TR', player: 0, datasheet: troupe, models: [{ profile: 'Lead Player', count: 1, weapons: ['Fusion pistol', 'Shuriken pistol'] }] }) });
    g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
    g.emit({ type: 'unit-moved', unit: 'SW', mode: 'advance', advanceRoll: 3 });
    const gap = unitDistance(g.state, g.state.units.SW, g.state.units.ST);
    expect(gap).toBeGreaterThan(6);
    expect(gap).toBeLessThan(12);
    expect(canShoot(g, g.state.units.SW)).toBe(true);
    const log = g.log!;
    const before = log.length;
    shootWithUnit(g, g.state.units.SW);
    const labels = log.slice(before).filter((e) => e.type === 'dice' && e.purpose === 'hit').map((e) => (e as { label?: string }).label ?? '');
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.every((l) => /Shuriken pistol/.test(l))).toBe(true);
    expect(g.state.units.TR.flags.shot).toBe(true);
  });

  it('Firing Deck: a transport fires weapons of the models embarked within it', () => {
    const g = battleSandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', counts: [1, 4], at: { x: 25, y: 25 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 20 } },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', agents: [scriptedAgent('ae', (r) => (r.kind === 'firing-deck' && r.options.length > 1 ? 1 : 0)), scriptedAgent('tau')] });
    g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
    const log = g.log!;
    const before = log.length;
    shootWithUnit(g, g.state.units.SW);
    const labels = log.slice(before).filter((e) => e.type === 'dice' && e.purpose === 'hit').map((e) => (e as { label?: string }).label ?? '');
    expect(labels.some((l) => /pistol|disruptor/i.test(l))).toBe(true);
    expect(g.state.units.TR.flags.shot).toBe(true);
  });
});

describe('Fight phase', () => {
  it('Fights First units fight first; then players alternate, starting with the player whose turn it is not', () => {
    const order: string[] = [];
    const pick = (name: string) => scriptedAgent(name, (r) => {
      if (r.kind === 'select-unit-to-fight') order.push((r.options[0] as { unit: string }).unit);
      return 0;
    });
    const g = battleSandbox([
      { id: 'A1', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 20, y: 10 } },
      { id: 'A2', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 20, y: 30 } },
      { id: 'B1', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 21.1, y: 10 } },
      { id: 'B2', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 21.1, y: 30 } },
    ], { phase: 'charge', agents: [pick('p1'), pick('p2')], stream: scriptedStream(new Array(200).fill(1)) });
    g.emit({ type: 'unit-flag', unit: 'A2', flag: 'charged', value: true });
    fightPhase(g, 0);
    // Fights First: only A2 (it charged). Then the remaining combats start with player 2.
    // (each player's first eligible unit is the one picked)
    expect(order).toEqual(['A2', 'B1', 'A1', 'B2']);
  });
});

describe('End of turn and destroyed units', () => {
  it('models out of Unit Coherency are removed at the end of the turn', () => {
    // 1" apart in a line: every model has two others within 2" (a unit of 7+ needs two)
    const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 }, spacing: 1 }]);
    removeOutOfCoherency(g);
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(10);
    const far = g.state.units.ST.models[9];
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: [{ model: far.id, pos: { x: 40, y: 40, z: 0 } }] });
    removeOutOfCoherency(g);
    const alive = g.state.units.ST.models.filter((m) => m.alive);
    expect(alive).toHaveLength(9);
    expect(alive.some((m) => m.id === far.id)).toBe(false);
  });

  it('Deadly Demise: on a 6, every unit within 6" suffers the mortal wounds; a destroyed transport\'s passengers disembark, each 1 a mortal wound (a W1 Breacher each)', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 5 } },
      { id: 'NEAR', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 24, y: 20 } },
      { id: 'FAR', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 35 } },
    ], { phase: 'shooting', stream: scriptedStream([6, /* D3 */ 2, /* passengers */ 1, 3, 3, 3, 3, 3, 3, 3, 3, 3]) });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    const DF = g.state.units.DF;
    inflictMortalWounds(g, DF, 20, null);
    expect(g.state.units.DF.location).toBe('destroyed');
    const near = g.state.units.NEAR;
    // D3 rolled 2: two mortal wounds for the unit within 6" (the Heavy Weapon Platform, W2, takes both)
    expect(near.stats.woundsTaken).toBe(2);
    expect(g.state.units.FAR.models.every((m) => m.alive)).toBe(true);
    const bt = g.state.units.BT;
    expect(bt.location).toBe('battlefield');
    expect(bt.models.filter((m) => m.alive)).toHaveLength(9);
    expect(unitDistance(g.state, bt, near)).toBeGreaterThanOrEqual(0);
  });

  it('a unit destroyed by its own target\'s Deadly Demise is not marked as having shot', () => {
    // one Guardian shoots a Devilfish on its last wound: hits and wounds on 6s, the save fails (1), the
    // Devilfish explodes (6) and its D3 (3) kills the Guardian 4" away before its unit is marked
    const g = battleSandbox([
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 24, y: 20 } },
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
    ], { phase: 'shooting', stream: scriptedStream([6, 6, 6, 6, 1, 1, 6, 3]) });
    const df = g.state.units.DF.models[0];
    g.emit({ type: 'model-damaged', unit: 'DF', model: df.id, wounds: df.wounds - 1, by: null, mortal: false });
    shootWithUnit(g, g.state.units.GD);
    expect(g.state.units.DF.location).toBe('destroyed');
    expect(g.state.units.GD.location).toBe('destroyed');
    expect(g.log!.some((e) => e.type === 'unit-flag' && e.unit === 'GD' && e.flag === 'shot')).toBe(false);
  });

  it('a unit destroyed by its own target\'s Deadly Demise in melee is not marked as having fought', () => {
    // one Guardian fights a Devilfish on its last wound: hit and wound on 6s, the save fails (1), the
    // Devilfish explodes (6) and its D3 (3) kills the Guardian before its unit is marked
    const g = battleSandbox([
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 22.2, y: 20 } },
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
    ], { phase: 'fight', stream: scriptedStream([6, 6, 1, 6, 3]) });
    const df = g.state.units.DF.models[0];
    g.emit({ type: 'model-damaged', unit: 'DF', model: df.id, wounds: df.wounds - 1, by: null, mortal: false });
    expect(isEngaged(g.state, g.state.units.GD)).toBe(true);
    fight(g, g.state.units.GD);
    expect(g.state.units.DF.location).toBe('destroyed');
    expect(g.state.units.GD.location).toBe('destroyed');
    expect(g.log!.some((e) => e.type === 'unit-flag' && e.unit === 'GD' && e.flag === 'fought')).toBe(false);
  });

  it('Deadly Demise D3: the mortal wounds are rolled separately for each unit within 6"', () => {
    // two Aeldari units beside the Devilfish: its 6 is followed by a D3 for each of them (1, then 3)
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'A', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 24, y: 16 } },
      { id: 'B', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 24, y: 22 } },
    ], { phase: 'shooting', stream: scriptedStream([6, 1, 3]) });
    inflictMortalWounds(g, g.state.units.DF, 20, null);
    expect(g.state.units.DF.location).toBe('destroyed');
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'mortal-wounds').map((e) => e.type === 'dice' && e.values)).toEqual([[1], [3]]);
    expect([g.state.units.A.stats.woundsTaken, g.state.units.B.stats.woundsTaken]).toEqual([1, 3]);
  });

  it('a chain of Deadly Demise explosions never comes back to the vehicle already destroyed', () => {
    // the Devilfish explodes (6; D3 = 3 for the Wave Serpent beside it), the Wave Serpent on its last
    // wound explodes in turn (6; D3 = 2 for the Guardians): its mortal wounds go to the Guardians only,
    // not back to the Devilfish being removed (which used to loop for ever, allocating wounds to a model
    // at 0 wounds); then the Devilfish's D3 for the Guardians (1)
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 28, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 24, y: 24 }, spacing: 1.3 },
    ], { phase: 'shooting', stream: scriptedStream([6, 3, 6, 2, 1]) });
    const ws = g.state.units.WS;
    g.emit({ type: 'model-damaged', unit: 'WS', model: ws.models[0].id, wounds: ws.models[0].wounds - 1, by: null, mortal: false });
    const within6 = (id: string, from: string) => g.state.units[id].models.some((m) => m.pos && horizontalDistance(modelBody(g.state, m), modelBody(g.state, g.state.units[from].models[0])) <= 6);
    expect(within6('WS', 'DF')).toBe(true);
    expect(within6('GD', 'DF')).toBe(true);
    expect(within6('GD', 'WS')).toBe(true);
    inflictMortalWounds(g, g.state.units.DF, 20, null);
    expect(g.state.units.DF.location).toBe('destroyed');
    expect(g.state.units.WS.location).toBe('destroyed');
    expect(g.state.units.GD.stats.woundsTaken).toBe(2 + 1);
  });

  it('an embarked unit is offered to disembark only where it can be set up (wholly within 3" of its transport, out of Engagement Range)', () => {
    // impassable terrain all round the Devilfish's base, 10" deep: nowhere within 3" of it to set a model up
    const walls = pocketWalls();
    const offered = (terrain: typeof walls): string[] => {
      let modes: string[] = [];
      const pick = (req: DecisionRequest) => {
        if (req.kind === 'select-unit-to-move') {
          const i = (req.options as ({ done: true } | { unit: string })[]).findIndex((o) => 'unit' in o && o.unit === 'BT');
          return Math.max(0, i);
        }
        if (req.kind === 'move' && req.context?.unit === 'BT') modes = (req.options as { mode: string }[]).map((o) => o.mode);
        return 0;
      };
      const g = battleSandbox([
        { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 22 } },
        { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 50, y: 5 } },
        { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 30 } },
      ], { phase: 'movement', terrain, agents: [scriptedAgent('p1', pick), scriptedAgent('p2', pick)] });
      g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
      movementBody(g, 0);
      return modes;
    };
    expect(offered([])).toEqual(['stay-embarked', 'disembark']);
    // no room: selecting it asks nothing (its only move would be to stay in)
    expect(offered(walls)).toEqual([]);
  });

  it('an embarked unit selected with no room to get out has not moved: it is offered again once something has moved', () => {
    const walls = pocketWalls();
    const selects: string[][] = [];
    const moves: string[] = [];
    const pick = (req: DecisionRequest) => {
      if (req.kind === 'select-unit-to-move') {
        const units = (req.options as ({ done: true } | { unit: string })[]).map((o) => ('unit' in o ? o.unit : 'done'));
        selects.push(units);
        // BT first; then the Strike Team; then BT again; then done
        const want = ['BT', 'ST', 'BT'][selects.length - 1];
        return Math.max(0, units.indexOf(want ?? 'done'));
      }
      if (req.kind === 'move') {
        moves.push(String(req.context?.unit));
        return Math.max(0, (req.options as { mode: string; toward?: string }[]).findIndex((o) => o.mode === 'normal' && o.toward === 'enemy E'));
      }
      return 0;
    };
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 22 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 50, y: 5 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 8, y: 5 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 30 } },
    ], { phase: 'movement', terrain: walls, agents: [scriptedAgent('p1', pick), scriptedAgent('p2', pick)] });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    movementBody(g, 0);
    expect(selects).toEqual([
      ['done', 'DF', 'BT', 'ST'],
      // nothing has moved since BT found no room: it is not offered
      ['done', 'DF', 'ST'],
      // the Strike Team moved: BT is offered again (and again finds no room)
      ['done', 'DF', 'BT'],
      ['done', 'DF'],
    ]);
    expect(moves).toEqual(['ST']);
    expect(g.state.units.BT.location).toBe('embarked');
    expect(g.state.units.BT.flags.moved).toBe(null);
  });

  it('room to get out is judged where the transport would stand after the move as the engine plans it, without moving it', () => {
    const walls = pocketWalls();
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 40 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 50, y: 5 } },
    ], { phase: 'movement', terrain: walls });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    const before = JSON.stringify(g.state.units.DF);
    const bt = g.state.units.BT;
    // where it stands (open ground) there is room
    expect(roomToDisembarkAfterMove(g.state, bt, null)).toBe(true);
    // a move toward the walled pocket 18" away: a straight line would end in it, with no room around; the
    // planner stops the Devilfish at the walls (it cannot get in), on open ground where there is room
    const intoPocket = { mode: 'normal' as const, destination: { x: 30, y: 22 }, maxDistance: 18 };
    const plan = planUnit(g.state, g.state.units.DF, 'normal', { maxDistance: 18, destination: intoPocket.destination });
    expect(plan.ok).toBe(true);
    if (plan.ok) expect(plan.positions[0].y).toBeGreaterThan(34);
    expect(roomToDisembarkAfterMove(g.state, bt, intoPocket)).toBe(true);
    // the state is untouched: the transport where it was, and room to get out there
    expect(JSON.stringify(g.state.units.DF)).toBe(before);
    expect(disembarkPlan(g.state, bt)).not.toBeNull();
  });

  it('a transport that cannot move out of a walled pocket leaves its passengers no room, whatever move it makes', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 22 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 50, y: 5 } },
    ], { phase: 'movement', terrain: pocketWalls() });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    const bt = g.state.units.BT;
    expect(roomToDisembarkAfterMove(g.state, bt, null)).toBe(false);
    expect(roomToDisembarkAfterMove(g.state, bt, { mode: 'normal', destination: { x: 30, y: 44 }, maxDistance: 12 })).toBe(false);
    expect(roomToDisembarkAfterMove(g.state, bt, { mode: 'advance', destination: { x: 5, y: 22 }, maxDistance: 18 })).toBe(false);
  });

  it('disembarking after the transport moved counts as a Normal move, and the unit cannot charge', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 5 } },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 20 } },
    ], { phase: 'movement' });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    g.emit({ type: 'unit-moved', unit: 'DF', mode: 'normal' });
    expect(disembark(g, g.state.units.BT)).toBe(true);
    const bt = g.state.units.BT;
    expect(bt.flags.moved).toBe('disembarked');
    expect(canCharge(g, bt)).toBe(false);
    const hull = modelBody(g.state, g.state.units.DF.models[0]);
    for (const m of bt.models) expect(horizontalDistance(modelBody(g.state, m), hull)).toBeLessThanOrEqual(3);
    expect(unitsOnBattlefield(g.state, 0).map((u) => u.id)).toContain('BT');
  });

  it('a unit that disembarked this phase cannot embark again, even after a Normal move that ends beside the transport', () => {
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 5 } },
    ], { phase: 'movement' });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    // out before the transport moves, then a Normal move (it stays where it was set up, within 3")
    expect(disembark(g, g.state.units.BT)).toBe(true);
    g.emit({ type: 'unit-moved', unit: 'BT', mode: 'normal' });
    expect(embarkOptions(g, g.state.units.BT)).toEqual([]);
  });

  it('a unit may embark only when every one of its models is within 3" of the transport', () => {
    const at = (dx: number) => {
      const g = battleSandbox([
        { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 20 }, spacing: 0 },
      ], { phase: 'movement' });
      // every model on one spot, dx" from the Devilfish's hull (in a straight line along x)
      const hull = modelBody(g.state, g.state.units.DF.models[0]);
      const probe = g.state.units.ST.models[0];
      const gap = horizontalDistance(modelBody(g.state, probe), hull);
      const x = 30 - gap + dx;
      g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: g.state.units.ST.models.map((m) => ({ model: m.id, pos: { x, y: 20, z: 0 } })) });
      expect(horizontalDistance(modelBody(g.state, g.state.units.ST.models[0]), hull)).toBeCloseTo(dx, 6);
      g.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
      return embarkOptions(g, g.state.units.ST).map((t) => t.id);
    };
    expect(at(2.95)).toEqual(['DF']);
    expect(at(3.05)).toEqual([]);
  });

  it('after a move that ends beside a transport, the unit\'s player is asked whether it embarks; the request names the unit', () => {
    const asked: { options: unknown[]; context: unknown }[] = [];
    const tau = scriptedAgent('tau', (r: DecisionRequest) => {
      if (r.kind !== 'embark') return 0;
      asked.push({ options: r.options, context: r.context });
      return 1;
    });
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 23.5, y: 18.2 }, spacing: 0.9 },
    ], { phase: 'movement', agents: [tau, scriptedAgent('ae')] });
    expect(embarkOptions(g, g.state.units.ST).map((t) => t.id)).toEqual(['DF']);
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
    afterMove(g, g.state.units.ST);
    expect(asked).toEqual([{ options: [{ stay: true }, { transport: 'DF' }], context: { unit: 'ST' } }]);
    expect(g.state.units.ST.location).toBe('embarked');
  });
});
