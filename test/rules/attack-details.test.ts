/**
 * Details of the attack rules, each played with exact dice so that the test fails if the rule is
 * played wrong: the unmodified 1 and the modifier caps in the dice pipeline,
 * allocation, Feel No Pain, Hazardous victims, half range, Big Guns Never Tire, range, re-rolls, ONE SHOT,
 * EXTRA ATTACKS, INDIRECT FIRE, multi-profile weapons and LANCE.
 */
import { describe, expect, it } from 'vitest';
import { attachLeader, duel, rolls, weapon } from '../helpers/attack.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { sandboxGame, sandboxState } from '../../src/rules/sandbox.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { registerRule } from '../../src/core/rules-registry.ts';
import { grantRerollOne } from '../../src/rules/attack-plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { canShoot, shootWithUnit, type TargetOption } from '../../src/rules/battle/shooting.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { isEngaged, modelBody, unitSees } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';

// A test-only effect. On the attacking unit: params.hit / params.wound add to the Hit / Wound roll,
// params.rerollWound grants "re-roll one Wound roll". On the defending unit: params.fnp grants a Feel No Pain.
registerRule({
  name: 'test: attack details', kind: 'effect',
  attack: (plan, _ctx, src) => {
    const p = src.effect?.params ?? {};
    if (src.role === 'attacker') {
      plan.hitModifier += Number(p.hit ?? 0);
      plan.woundModifier += Number(p.wound ?? 0);
      if (p.rerollWound) grantRerollOne(plan, { wound: Number(p.rerollWound) });
    } else if (p.fnp !== undefined) {
      plan.feelNoPain = Number(p.fnp);
    }
  },
});
const EFFECT = 'test: attack details';
const forever = { at: 'end-of-battle' } as const;

const noSave = { name: 'Targets', models: 10, profile: { toughness: 4, save: 7, wounds: 1 } };

describe('Hit and Wound rolls in the dice pipeline', () => {
  it('an unmodified Hit roll of 1 fails even with +1 to hit and BS 2+', () => {
    // 1 + 1 = 2 would reach BS 2+; the unmodified 1 still fails. The 2 hits (wound roll 4).
    const s = scriptedStream([1, 2, /* wound */ 4]);
    const d = duel({ models: 1, weapon: { attacks: '2', skill: 2 } }, noSave, s);
    d.game.addEffect(EFFECT, 0, 'A', forever, { hit: 1 });
    const t = d.run();
    expect(t.hits).toBe(1);
    expect(rolls(d.game, 'wound')).toEqual([[4]]);
    expect(s.remaining()).toBe(0);
  });

  it('an unmodified Wound roll of 1 fails even with +1 to wound (S8 against T4 needs a 2+)', () => {
    const s = scriptedStream([4, 4, /* wounds */ 1, 2]);
    const d = duel({ models: 1, weapon: { attacks: '2', strength: 8 } }, noSave, s);
    d.game.addEffect(EFFECT, 0, 'A', forever, { wound: 1 });
    const t = d.run();
    expect(t.wounds).toBe(1);
    expect(t.modelsDestroyed).toBe(1);
    expect(s.remaining()).toBe(0);
  });

  it('the Wound roll modifier is capped at +1: two +1s and a 2 against 4+ fail, a 3 wounds', () => {
    const s = scriptedStream([4, 4, /* wounds */ 2, 3]);
    const d = duel({ models: 1, weapon: { attacks: '2', strength: 4 } }, noSave, s);
    d.game.addEffect(EFFECT, 0, 'A', forever, { wound: 1 });
    d.game.addEffect(EFFECT, 0, 'A', forever, { wound: 1 });
    const t = d.run();
    // 2+1 = 3 fails, 3+1 = 4 wounds; uncapped (+2) both would wound
    expect(t.wounds).toBe(1);
    expect(t.modelsDestroyed).toBe(1);
  });
});

describe('LANCE', () => {
  it('no +1 to wound when the unit did not charge', () => {
    // S4 against T4 needs a 4+: the 3 fails without the charge, and wounds after it.
    const s = scriptedStream([4, /* wound */ 3]);
    const d = duel({ models: 1, weapon: { attacks: '1', range: 'Melee', abilities: ['LANCE'] } }, noSave, s);
    expect(d.run().wounds).toBe(0);
    const s2 = scriptedStream([4, /* wound */ 3]);
    const charged = duel({ models: 1, weapon: { attacks: '1', range: 'Melee', abilities: ['LANCE'] } }, noSave, s2);
    charged.game.emit({ type: 'unit-flag', unit: 'A', flag: 'charged', value: true });
    expect(charged.run().wounds).toBe(1);
  });
});

describe('RAPID FIRE and MELTA outside half range', () => {
  it('RAPID FIRE 1 adds no attack when the target is not within half range', () => {
    const s = scriptedStream([1, 1]);
    const d = duel({ models: 2, weapon: { attacks: '1', abilities: ['RAPID FIRE 1'] } }, noSave, s);
    expect(d.run({ halfRange: false }).attacks).toBe(2);
    expect(rolls(d.game, 'hit')).toEqual([[1, 1]]);
    const s2 = scriptedStream([1, 1, 1, 1]);
    const close = duel({ models: 2, weapon: { attacks: '1', abilities: ['RAPID FIRE 1'] } }, noSave, s2);
    expect(close.run({ halfRange: true }).attacks).toBe(4);
  });

  it('MELTA 2 adds no damage when the target is not within half range', () => {
    const s = scriptedStream([4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '1', damage: '1', abilities: ['MELTA 2'] } }, { name: 'Tank', models: 1, profile: { toughness: 4, save: 7, wounds: 10 } }, s);
    expect(d.run({ halfRange: false }).woundsLost).toBe(1);
    expect(d.game.state.units.D.models[0].wounds).toBe(9);
  });
});

describe('Allocation', () => {
  it('a model that already had an attack allocated this phase (its save passed) takes the next attack', () => {
    // Sv 4+, W2 models. First attack: only model #1 may be allocated it (as when only it is visible);
    // its save (5) passes. Second attack, any model allowed: model #1 must take it; its save (2) fails.
    const def = { name: 'Guards', models: 3, profile: { toughness: 4, save: 4, wounds: 2 } };
    const s = scriptedStream([4, /* wound */ 4, /* save */ 5, /* second attack */ 4, 4, /* save */ 2]);
    const d = duel({ models: 1, weapon: { attacks: '1' } }, def, s);
    const D = d.game.state.units.D;
    const first = D.models[0];
    expect(d.run({ allocatable: new Set([first.id]) }).unsaved).toBe(0);
    expect(first.allocated).toBe(true);
    expect(d.run().unsaved).toBe(1);
    // the default choice would have been the last model; the allocated one lost the wound
    expect(D.models.map((m) => m.wounds)).toEqual([1, 2, 2]);
    expect(s.remaining()).toBe(0);
  });
});

describe('Feel No Pain', () => {
  it('only one Feel No Pain applies: with 5+ on the datasheet and a granted 6+, only the 5+ is rolled, once per wound', () => {
    // Damage 2: two Feel No Pain dice (5 and 5), both pass the 5+ (a 6+ would have ignored none).
    const s = scriptedStream([4, /* wound */ 4, /* fnp */ 5, 5, /* spare */ 6, 6]);
    const d = duel({ models: 1, weapon: { attacks: '1', damage: '2' } },
      { name: 'Orks', models: 1, profile: { toughness: 4, save: 7, wounds: 3 }, coreAbilities: [{ name: 'Feel No Pain', x: 5 }] }, s);
    d.game.addEffect(EFFECT, 1, 'D', forever, { fnp: 6 });
    const t = d.run();
    expect(rolls(d.game, 'feel-no-pain')).toEqual([[5, 5]]);
    expect(t.woundsLost).toBe(0);
    expect(s.remaining()).toBe(2);
  });

  it('the better one is used when it is the granted one: a granted 5+ over a datasheet 6+', () => {
    const s = scriptedStream([4, /* wound */ 4, /* fnp */ 5, 2, /* spare */ 6, 6]);
    const d = duel({ models: 1, weapon: { attacks: '1', damage: '2' } },
      { name: 'Orks', models: 1, profile: { toughness: 4, save: 7, wounds: 3 }, coreAbilities: [{ name: 'Feel No Pain', x: 6 }] }, s);
    d.game.addEffect(EFFECT, 1, 'D', forever, { fnp: 5 });
    const t = d.run();
    expect(rolls(d.game, 'feel-no-pain')).toEqual([[5, 2]]);
    expect(t.woundsLost).toBe(1);
    expect(s.remaining()).toBe(2);
  });
});

describe('HAZARDOUS: which model suffers the mortal wounds', () => {
  it('a carrier that has lost wounds is selected first', () => {
    // Three W3 carriers; model #2 has lost a wound. The Hazardous 1 goes to it (not to model #1).
    const s = scriptedStream([1, 1, 1, /* hazardous */ 1, 4, 4]);
    const d = duel({ models: 3, profile: { wounds: 3 }, weapon: { attacks: '1', abilities: ['HAZARDOUS'] } }, noSave, s);
    const A = d.game.state.units.A;
    d.game.emit({ type: 'model-damaged', unit: 'A', model: A.models[1].id, wounds: 1, by: null, mortal: false });
    d.run();
    expect(A.models.map((m) => m.alive)).toEqual([true, false, true]);
    expect(A.models.map((m) => m.wounds)).toEqual([3, 0, 3]);
    expect(s.remaining()).toBe(0);
  });

  it('a CHARACTER carrier is selected only when no other carrier is left', () => {
    // An Attached unit: a CHARACTER Leader (W4) and two Bodyguard models (W3), all carrying the weapon.
    // The Leader is listed first, so a rule that ignored CHARACTERs would pick it.
    const s = scriptedStream([1, 1, 1, /* hazardous */ 1, 1, 4]);
    const d = duel({ models: 2, profile: { wounds: 3 }, weapon: { attacks: '1', abilities: ['HAZARDOUS'] } }, noSave, s);
    attachLeader(d, { profile: { wounds: 4 }, keywords: ['CHARACTER', 'INFANTRY'], weapons: [d.weapon] }, 'A');
    const A = d.game.state.units.A;
    A.models.unshift(A.models.pop()!); // the Leader first in the unit's order
    d.run();
    // two failed tests: each destroys one Bodyguard model (3 mortal wounds, W3); the Leader is untouched
    // (and, its Bodyguard destroyed, is its own unit again)
    const st = d.game.state;
    expect(st.units.A.models.map((m) => m.alive)).toEqual([false, false]);
    expect(st.units.L.models.map((m) => m.wounds)).toEqual([4]);
    expect(s.remaining()).toBe(0);
  });

  it('a wounded model equipped with another Hazardous weapon is selected before an unwounded one that fired', () => {
    // Two W3 models: #1 fired HazA, #2 carries HazB and has lost a wound. The Hazardous test fails (1): the
    // wounded model with a Hazardous weapon suffers the 3 mortal wounds, though it did not fire.
    const hazA = weapon({ name: 'HazA', attacks: '1', skill: 2, abilities: ['HAZARDOUS'] });
    const hazB = weapon({ name: 'HazB', attacks: '1', skill: 2, abilities: ['HAZARDOUS'] });
    const state = sandboxState({ name: 'Attackers', models: 2, weapons: [hazA, hazB], profile: { wounds: 3 } }, noSave);
    const s = scriptedStream([/* hit */ 1, /* hazardous */ 1]);
    const g = sandboxGame(state, s, { log: true });
    const A = g.state.units.A;
    A.models[0].weapons = ['HazA'];
    A.models[1].weapons = ['HazB'];
    g.emit({ type: 'model-damaged', unit: 'A', model: A.models[1].id, wounds: 1, by: null, mortal: false });
    resolveAttacks(g, A, [{ weapon: hazA, profile: hazA.profiles[0], models: [A.models[0]], target: 'D', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 }], false);
    expect(rolls(g, 'hazardous')).toEqual([[1]]);
    expect(A.models.map((m) => m.wounds)).toEqual([3, 0]);
    expect(s.remaining()).toBe(0);
  });

  it('a test is owed for the weapon of a model slain after its targets were selected; a failure falls on a carrier left', () => {
    // Three W3 models with HazA selected the target; the first is slain before the attacks are resolved (a Deadly
    // Demise set off by an earlier weapon). The two others attack; the tests are three, the third fails (1).
    const hazA = weapon({ name: 'HazA', attacks: '1', skill: 2, abilities: ['HAZARDOUS'] });
    const state = sandboxState({ name: 'Attackers', models: 3, weapons: [hazA], profile: { wounds: 3 } }, noSave);
    const s = scriptedStream([/* hits */ 1, 1, /* hazardous */ 4, 4, 1]);
    const g = sandboxGame(state, s, { log: true });
    const A = g.state.units.A;
    g.emit({ type: 'model-damaged', unit: 'A', model: A.models[0].id, wounds: 3, by: null, mortal: true });
    g.emit({ type: 'model-destroyed', unit: 'A', model: A.models[0].id, by: null, reason: 'a Deadly Demise' });
    expect(A.models[0].alive).toBe(false);
    resolveAttacks(g, A, [{ weapon: hazA, profile: hazA.profiles[0], models: A.models.slice(), target: 'D', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 }], false);
    expect(rolls(g, 'hazardous')).toEqual([[4, 4, 1]]);
    expect(A.models.filter((m) => m.alive).length).toBe(1);
    expect(s.remaining()).toBe(0);
  });
});

describe('SUSTAINED HITS D3', () => {
  it('each Critical Hit scores D3 more hits, rolled for it', () => {
    // two attacks at 2+: a 6 (Critical Hit) and a 6; the Sustained Hits rolls 3 and 1: 2 + 3 + 1 = 6 hits
    const s = scriptedStream([6, 6, 3, 1, 4, 4, 4, 4, 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '2', skill: 2, abilities: ['SUSTAINED HITS D3'] } }, noSave, s);
    const t = d.run();
    expect(rolls(d.game, 'sustained-hits')).toEqual([[3, 1]]);
    expect(t.hits).toBe(6);
    expect(rolls(d.game, 'wound')).toEqual([[4, 4, 4, 4, 4, 4]]);
    expect(s.remaining()).toBe(0);
  });
});

describe('HAZARDOUS: the test is owed once targets were selected', () => {
  it('a Hazardous weapon whose target the unit\'s other weapon destroyed first still takes its test', () => {
    // The Gun (resolved first) hits (3) and wounds (3) the one W1 target model: destroyed. The Hazardous weapon
    // had selected the same target; its attacks are lost, but its Hazardous test is rolled (1): 3 mortal
    // wounds to its bearer (W5 -> 2).
    const gun = weapon({ name: 'Gun', attacks: '1', skill: 2, strength: 8, ap: -3, damage: '1' });
    const haz = weapon({ name: 'Haz', attacks: '1', skill: 2, strength: 8, ap: -3, damage: '1', abilities: ['HAZARDOUS'] });
    const state = sandboxState({ name: 'Attackers', models: 1, weapons: [gun, haz], profile: { wounds: 5 } },
      { name: 'Target', models: 1, profile: { toughness: 4, save: 7, wounds: 1 } });
    const s = scriptedStream([3, 3, 1]);
    const g = sandboxGame(state, s, { log: true });
    const A = g.state.units.A;
    const group = (w: typeof gun) => ({ weapon: w, profile: w.profiles[0], models: A.models, target: 'D', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 });
    resolveAttacks(g, A, [group(gun), group(haz)], false);
    expect(g.state.units.D.models[0].alive).toBe(false);
    expect(rolls(g, 'hit')).toEqual([[3]]);
    expect(rolls(g, 'hazardous')).toEqual([[1]]);
    expect(A.models[0].wounds).toBe(2);
    expect(s.remaining()).toBe(0);
  });
});

describe('Re-rolls: never a die twice', () => {
  it('a Wound die re-rolled by TWIN-LINKED is not re-rolled again by "re-roll one Wound roll"', () => {
    // Wound roll 2 (fails 4+), TWIN-LINKED re-roll 3 (fails): the one-die re-roll has nothing left to re-roll.
    const s = scriptedStream([4, /* wound */ 2, /* twin-linked */ 3, /* would be a second re-roll */ 6]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['TWIN-LINKED'] } }, noSave, s);
    d.game.addEffect(EFFECT, 0, 'A', forever, { rerollWound: 1 });
    const t = d.run();
    expect(t.wounds).toBe(0);
    expect((d.game.log ?? []).filter((e) => e.type === 'reroll')).toHaveLength(1);
    expect(s.remaining()).toBe(1);
  });

  it('"re-roll one Wound roll" takes a failed die that TWIN-LINKED did not re-roll (control)', () => {
    // Without TWIN-LINKED the same failed 2 is re-rolled once by the one-die re-roll.
    const s = scriptedStream([4, /* wound */ 2, /* re-roll one */ 6]);
    const d = duel({ models: 1, weapon: { attacks: '1' } }, noSave, s);
    d.game.addEffect(EFFECT, 0, 'A', forever, { rerollWound: 1 });
    expect(d.run().wounds).toBe(1);
    expect(s.remaining()).toBe(0);
  });

  it('COMMAND RE-ROLL is not offered for a Wound die TWIN-LINKED already re-rolled; it is for one not re-rolled', () => {
    const asked: DecisionRequest[] = [];
    const agent = { name: 'watcher', decide: (_v: unknown, req: DecisionRequest) => { asked.push(req); return { option: 0 }; } };
    const woundOffers = () => asked.filter((r) => r.kind === 'stratagem' && (r.context?.roll as { purpose?: string } | undefined)?.purpose === 'wound');
    for (const twin of [true, false]) {
      asked.length = 0;
      // Hit 4, Wound 2 (fails), TWIN-LINKED re-roll 3 (fails)
      const s = scriptedStream(twin ? [4, 2, 3] : [4, 2]);
      const d = duel({ models: 1, weapon: { attacks: '1', abilities: twin ? ['TWIN-LINKED'] : [] } }, noSave, s);
      d.game.agents = [agent, agent];
      d.game.emit({ type: 'cp', player: 0, delta: 2, reason: 'test' });
      expect(d.run().wounds).toBe(0);
      expect(woundOffers()).toHaveLength(twin ? 0 : 1);
      expect(s.remaining()).toBe(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// In the Shooting and Fight phases

/** An agent that records every request and answers with `pick` (default: the first option). */
function recorder(pick: (req: DecisionRequest) => number = () => 0) {
  const asked: DecisionRequest[] = [];
  return { asked, agent: scriptedAgent('recorder', (req) => { asked.push(req); return req.kind === 'targeting-array' ? noHitReroll(req) : pick(req); }) };
}

/** The Hammerhead's Targeting Array: take "re-roll one Wound roll" (these tests make no Wound roll), not the Hit one. */
function noHitReroll(req: DecisionRequest): number {
  return (req.options as string[]).indexOf('wound');
}

/** The weapons a unit was asked to pick a target for. */
function targetPrompts(asked: DecisionRequest[]): string[] {
  return asked.filter((r) => r.kind === 'shoot-target').map((r) => (r.options[0] as TargetOption).weapon);
}

/** Edge-to-edge distance between the first models of two units. */
function gapBetween(g: Game, a: string, b: string): number {
  return horizontalDistance(modelBody(g.state, g.state.units[a].models[0]), modelBody(g.state, g.state.units[b].models[0]));
}

/** Move the (one-model) unit `mover` along x so that it stands `gap` inches (edge to edge) from `ref`'s first model. */
function placeAtGap(g: Game, mover: string, ref: string, gap: number): void {
  const m = g.state.units[mover].models[0];
  const move = (x: number) => g.emit({ type: 'models-placed', unit: mover, mode: 'test', positions: [{ model: m.id, pos: { x, y: m.pos!.y, z: 0 } }] });
  move(m.pos!.x + gap - gapBetween(g, mover, ref));
  expect(gapBetween(g, mover, ref)).toBeCloseTo(gap, 6);
}

describe('Shooting phase: half range per model', () => {
  it('a unit straddling half range: RAPID FIRE adds attacks for the models within half range only', () => {
    // Two Fire Warriors 20" apart along y; the target is 14" from the first and ~24" from the second.
    // Pulse rifle (30", RAPID FIRE 1): the close model makes 2 attacks, the far one 1.
    const s = scriptedStream([1, 1, 1]);
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 1], at: { x: 10, y: 10 }, spacing: 20 },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 25, y: 10 } },
    ], { phase: 'shooting', stream: s });
    const [near, far] = g.state.units.ST.models.map((m) => horizontalDistance(modelBody(g.state, m), modelBody(g.state, g.state.units.DA.models[0])));
    expect(near).toBeLessThan(15);
    expect(far).toBeGreaterThan(15);
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'hit')).toEqual([[1, 1], [1]]);
    expect(s.remaining()).toBe(0);
  });
});

describe('Shooting phase: Big Guns Never Tire', () => {
  /** A War Walker with one weapon shooting at a lone Fire Warrior Shas'ui `gap` inches away (edge to edge). */
  function walker(weapon: string, gap: number, dice: number[]) {
    const s = scriptedStream(dice);
    const g = battleSandbox([
      { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', counts: [1], at: { x: 20, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 40, y: 20 } },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', stream: s });
    const WW = g.state.units.WW;
    if (weapon === 'Pulse pistol') {
      // a VEHICLE with a PISTOL: borrowed from the Strike Team datasheet
      const pistol = loadFactionCatalog('tau').byName('Strike Team')!.weapons.find((w) => w.name === 'Pulse pistol')!;
      g.state.datasheets[WW.models[0].datasheet].weapons.push(pistol);
    }
    WW.models[0].weapons = [weapon];
    placeAtGap(g, 'ST', 'WW', gap);
    return { g, s };
  }

  it('an engaged VEHICLE shooting a non-PISTOL weapon subtracts 1 from its Hit rolls', () => {
    // Bright lance: 1 attack, BS 3+, a Hit roll of 3. Not engaged: it hits (one Wound roll);
    // engaged (0.5" away): 3 - 1 = 2 misses, no Wound roll.
    const free = walker('Bright lance', 5, [3, /* wound */ 1]);
    expect(isEngaged(free.g.state, free.g.state.units.WW)).toBe(false);
    shootWithUnit(free.g, free.g.state.units.WW);
    expect(rolls(free.g, 'wound')).toEqual([[1]]);
    expect(free.s.remaining()).toBe(0);

    const engaged = walker('Bright lance', 0.5, [3]);
    expect(isEngaged(engaged.g.state, engaged.g.state.units.WW)).toBe(true);
    expect(canShoot(engaged.g, engaged.g.state.units.WW)).toBe(true);
    shootWithUnit(engaged.g, engaged.g.state.units.WW);
    expect(rolls(engaged.g, 'hit')).toEqual([[3]]);
    expect(rolls(engaged.g, 'wound')).toEqual([]);
    expect(engaged.s.remaining()).toBe(0);
  });

  it('no -1 for a PISTOL fired by an engaged VEHICLE', () => {
    // Pulse pistol, BS 4+: the 4 hits
    const { g, s } = walker('Pulse pistol', 0.5, [4, /* wound */ 1]);
    expect(isEngaged(g.state, g.state.units.WW)).toBe(true);
    shootWithUnit(g, g.state.units.WW);
    expect(rolls(g, 'wound')).toEqual([[1]]);
    expect(s.remaining()).toBe(0);
  });
});

describe('Shooting phase: Big Guns Never Tire, shooting into a combat', () => {
  /**
   * A lone Fire Warrior (ST, one gun) 20" from an Aeldari unit; with `engaged`, another Fire Warrior (TIE)
   * stands 0.5" beyond the enemy unit, so it is within Engagement Range of the Fire Warrior's army.
   */
  function intoCombat(target: 'War Walkers' | 'Dire Avengers', engaged: boolean, weapon: string, dice: number[] = []) {
    const s = scriptedStream(dice);
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 20 } },
      { id: 'TIE', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 55, y: 20 } },
      { id: 'E', player: 1, faction: 'aeldari', name: target, counts: target === 'War Walkers' ? [1] : [1, 0], at: { x: 30, y: 20 } },
    ], { phase: 'shooting', stream: s });
    g.state.units.ST.models[0].weapons = [weapon];
    if (engaged) placeAtGap(g, 'TIE', 'E', 0.5);
    expect(isEngaged(g.state, g.state.units.E)).toBe(engaged);
    return { g, s };
  }

  it('an enemy unit engaged with the attacker\'s army cannot be shot, unless it is a MONSTER or VEHICLE', () => {
    const free = intoCombat('Dire Avengers', false, 'Pulse rifle').g;
    expect(canShoot(free, free.state.units.ST, 'E')).toBe(true);
    const da = intoCombat('Dire Avengers', true, 'Pulse rifle').g;
    expect(canShoot(da, da.state.units.ST, 'E')).toBe(false);
    const ww = intoCombat('War Walkers', true, 'Pulse rifle').g;
    expect(canShoot(ww, ww.state.units.ST, 'E')).toBe(true);
  });

  it('a ranged attack at a VEHICLE engaged with the attacker\'s army subtracts 1 from its Hit roll', () => {
    // Pulse rifle, BS 4+, 1 attack (beyond half range): a Hit roll of 4 hits a free War Walker (a Wound
    // roll follows) and misses an engaged one (4 - 1 = 3).
    const free = intoCombat('War Walkers', false, 'Pulse rifle', [4, /* wound */ 1]);
    shootWithUnit(free.g, free.g.state.units.ST);
    expect(rolls(free.g, 'hit')).toEqual([[4]]);
    expect(rolls(free.g, 'wound')).toEqual([[1]]);
    expect(free.s.remaining()).toBe(0);

    const engaged = intoCombat('War Walkers', true, 'Pulse rifle', [4]);
    shootWithUnit(engaged.g, engaged.g.state.units.ST);
    expect(rolls(engaged.g, 'hit')).toEqual([[4]]);
    expect(rolls(engaged.g, 'wound')).toEqual([]);
    expect(engaged.s.remaining()).toBe(0);
  });

  it('no -1 for a PISTOL fired at an engaged VEHICLE (the rule exempts Pistols)', () => {
    // Pulse pistol (12"), BS 4+: moved to 10" of the engaged War Walker, a 4 hits
    const { g, s } = intoCombat('War Walkers', true, 'Pulse pistol', [4, /* wound */ 1]);
    const m = g.state.units.ST.models[0];
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: [{ model: m.id, pos: { x: m.pos!.x + gapBetween(g, 'ST', 'E') - 10, y: m.pos!.y, z: 0 } }] });
    expect(gapBetween(g, 'ST', 'E')).toBeCloseTo(10, 6);
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'wound')).toEqual([[1]]);
    expect(s.remaining()).toBe(0);
  });

  it('BLAST weapons are never fired at a VEHICLE engaged with another unit of the attacking army', () => {
    const offered = (engaged: boolean) => {
      const weapons: string[] = [];
      const tau = scriptedAgent('tau', (r) => {
        if (r.kind === 'shoot-target') weapons.push(...(r.options as { weapon: string; target: string }[]).filter((o) => o.target === 'WW').map((o) => o.weapon));
        return 0;
      });
      const g = battleSandbox([
        { id: 'SS', player: 0, faction: 'tau', name: 'Stormsurge', at: { x: 10, y: 30 } },
        { id: 'TIE', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 50, y: 30 } },
        { id: 'WW', player: 1, faction: 'aeldari', name: 'War Walkers', at: { x: 30, y: 30 } },
      ], { phase: 'shooting', agents: [tau, scriptedAgent('ae')] });
      if (engaged) placeAtGap(g, 'TIE', 'WW', 0.5);
      shootWithUnit(g, g.state.units.SS);
      return [...new Set(weapons)].sort();
    };
    const free = offered(false);
    const engaged = offered(true);
    // the BLAST guns (Cluster rocket system, Pulse driver cannon) are offered only at the free War Walkers
    expect(free).toEqual(expect.arrayContaining(['Cluster rocket system', 'Pulse driver cannon']));
    expect(engaged).toEqual(free.filter((w) => w !== 'Cluster rocket system' && w !== 'Pulse driver cannon'));
    expect(engaged.length).toBeGreaterThan(0);
  });
});

describe('Shooting phase: range', () => {
  /** A Fire Warrior with a Pulse rifle (30") and a Pulse carbine (20"), a lone enemy `gap` inches away. */
  function atGap(gap: number, dice: number[] = []) {
    const rec = recorder();
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 50, y: 20 } },
    ], { phase: 'shooting', stream: scriptedStream(dice), agents: [rec.agent, rec.agent] });
    g.state.units.ST.models[0].weapons = ['Pulse rifle', 'Pulse carbine'];
    placeAtGap(g, 'DA', 'ST', gap);
    return { g, asked: rec.asked };
  }

  it('a target out of range of a weapon is not offered to it; out of range of every weapon, the unit cannot shoot it', () => {
    // 25": the Pulse rifle (30") may shoot, the Pulse carbine (20") is not asked for a target
    const mid = atGap(25, [/* rifle hit */ 1]);
    shootWithUnit(mid.g, mid.g.state.units.ST);
    expect(targetPrompts(mid.asked)).toEqual(['Pulse rifle']);
    // 19.9": both
    const near = atGap(19.9, [/* rifle */ 1, /* carbine */ 1, 1]);
    shootWithUnit(near.g, near.g.state.units.ST);
    expect(targetPrompts(near.asked)).toEqual(['Pulse rifle', 'Pulse carbine']);
    // 29.9" and 30.1"
    const inside = atGap(29.9);
    expect(canShoot(inside.g, inside.g.state.units.ST, 'DA')).toBe(true);
    const out = atGap(30.1);
    expect(canShoot(out.g, out.g.state.units.ST, 'DA')).toBe(false);
  });
});

describe('ONE SHOT', () => {
  it('a ONE SHOT weapon is not offered again once it has been fired; the other weapons are', () => {
    const rec = recorder();
    const g = battleSandbox([
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 20, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 40, y: 20 } },
    ], { phase: 'shooting', stream: scriptedStream([/* seeker */ 1, /* railgun */ 1, /* second turn: railgun */ 1]), agents: [rec.agent, rec.agent] });
    const HH = g.state.units.HH;
    HH.models[0].weapons = ['Seeker missile', 'Railgun'];
    shootWithUnit(g, HH);
    expect(targetPrompts(rec.asked)).toEqual(['Seeker missile', 'Railgun']);
    // a later Shooting phase
    g.emit({ type: 'unit-flag', unit: 'HH', flag: 'shot', value: false });
    rec.asked.length = 0;
    shootWithUnit(g, g.state.units.HH);
    expect(targetPrompts(rec.asked)).toEqual(['Railgun']);
    // with only the spent missile left, the unit is not eligible to shoot
    g.emit({ type: 'unit-flag', unit: 'HH', flag: 'shot', value: false });
    g.state.units.HH.models[0].weapons = ['Seeker missile'];
    expect(canShoot(g, g.state.units.HH)).toBe(false);
  });
});

describe('Multi-profile weapons', () => {
  it('a weapon with two profiles fires exactly one of them, the one selected with its target', () => {
    // Ion cannon: standard (D6+3, BLAST) or overcharge (D6+3, BLAST, HAZARDOUS). The player picks overcharge.
    const rec = recorder((req) => req.kind === 'shoot-target' ? (req.options as TargetOption[]).findIndex((o) => o.profile === 1) : 0);
    const s = scriptedStream([/* attacks */ 1, /* hits */ 1, 1, 1, 1, 1, /* hazardous */ 4]);
    const g = battleSandbox([
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 20, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 4], at: { x: 40, y: 20 } },
    ], { phase: 'shooting', stream: s, agents: [rec.agent, rec.agent] });
    g.state.units.HH.models[0].weapons = ['Ion cannon'];
    shootWithUnit(g, g.state.units.HH);
    const prompts = rec.asked.filter((r) => r.kind === 'shoot-target');
    expect(prompts).toHaveLength(1);
    expect((prompts[0].options as TargetOption[]).map((o) => o.profile)).toEqual([0, 1]);
    // one Attacks roll (1 + 3, +1 BLAST for 5 models), five Hit rolls, one Hazardous test: the overcharge only
    expect(rolls(g, 'attacks')).toEqual([[1]]);
    expect(rolls(g, 'hit')).toEqual([[1, 1, 1, 1, 1]]);
    expect(rolls(g, 'hazardous')).toEqual([[4]]);
    const labels = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').map((e) => (e as { label?: string }).label ?? '');
    expect(labels).toEqual([expect.stringContaining('overcharge')]);
    expect(s.remaining()).toBe(0);
  });
});

describe('INDIRECT FIRE', () => {
  const ruin = { id: 'r', kind: 'ruin' as const, polygon: [{ x: 24, y: 14 }, { x: 27, y: 14 }, { x: 27, y: 26 }, { x: 24, y: 26 }], height: 5 };
  function hidden(weapon: string, dice: number[], terrain = true) {
    const s = scriptedStream(dice);
    const g = battleSandbox([
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 18, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 31, y: 20 } },
    ], { phase: 'shooting', stream: s, terrain: terrain ? [ruin] : [], agents: [recorder().agent, recorder().agent] });
    g.state.units.HH.models[0].weapons = [weapon];
    return { g, s };
  }

  it('an INDIRECT FIRE weapon may target a unit no model can see, at -1 to hit', () => {
    const { g, s } = hidden('Smart missile system', [4, 4, 4]);
    expect(unitSees(g.state, g.state.units.HH, g.state.units.DA)).toBe(false);
    expect(canShoot(g, g.state.units.HH, 'DA')).toBe(true);
    shootWithUnit(g, g.state.units.HH);
    // BS 4+: 4 - 1 = 3 misses, no Wound roll
    expect(rolls(g, 'hit')).toEqual([[4, 4, 4]]);
    expect(rolls(g, 'wound')).toEqual([]);
    expect(s.remaining()).toBe(0);
    // the same weapon at a visible target: the 4s hit
    // (the Targeting Array's "re-roll one Wound roll" re-rolls one of the 1s)
    const seen = hidden('Smart missile system', [4, 4, 4, /* wounds */ 1, 1, 1, /* re-roll one */ 1], false);
    shootWithUnit(seen.g, seen.g.state.units.HH);
    expect(rolls(seen.g, 'hit')).toEqual([[4, 4, 4]]);
    expect(rolls(seen.g, 'wound')).toEqual([[1, 1, 1]]);
    expect(seen.s.remaining()).toBe(0);
  });

  it('a weapon without INDIRECT FIRE cannot target the hidden unit', () => {
    const { g } = hidden('Railgun', []);
    expect(canShoot(g, g.state.units.HH, 'DA')).toBe(false);
  });

  it('in the dice pipeline: against a target that is not visible, -1 to hit and the target has the Benefit of Cover', () => {
    // Sv 4+ against AP 0: a save of 3 passes only with the cover's +1.
    const target = { name: 'Guard', models: 1, profile: { toughness: 4, save: 4, wounds: 1 } };
    const shot = (visible: boolean, dice: number[]) => {
      const s = scriptedStream(dice);
      const d = duel({ models: 1, weapon: { attacks: '1', skill: 4, abilities: ['INDIRECT FIRE'] } }, target, s);
      const t = d.run({ targetVisible: visible });
      expect(s.remaining()).toBe(0);
      return t;
    };
    expect(shot(false, [4]).hits).toBe(0);
    expect(shot(true, [4, /* wound */ 4, /* save */ 3]).unsaved).toBe(1);
    const t = shot(false, [5, /* wound */ 4, /* save */ 3]);
    expect(t.hits).toBe(1);
    expect(t.unsaved).toBe(0);
  });
});

describe('EXTRA ATTACKS', () => {
  it('an EXTRA ATTACKS weapon is used in addition to the weapon the model fights with', () => {
    // A Krootox Rider: Close combat weapon (A2) and Krootox fists (A4, EXTRA ATTACKS): 2 + 4 Hit rolls.
    const s = scriptedStream([1, 1, 1, 1, 1, 1]);
    const rec = recorder();
    const g = battleSandbox([
      { id: 'KR', player: 0, faction: 'tau', name: 'Krootox Riders', counts: [1], at: { x: 20, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 40, y: 20 } },
    ], { phase: 'fight', stream: s, agents: [rec.agent, rec.agent] });
    placeAtGap(g, 'DA', 'KR', 0);
    fight(g, g.state.units.KR);
    expect(rec.asked.filter((r) => r.kind === 'fight-weapon')).toEqual([]);
    expect(rolls(g, 'hit')).toEqual([[1, 1], [1, 1, 1, 1]]);
    const labels = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').map((e) => (e as { label?: string }).label ?? '');
    expect(labels).toEqual([expect.stringContaining('Close combat weapon'), expect.stringContaining('Krootox fists')]);
    expect(s.remaining()).toBe(0);
  });
});
