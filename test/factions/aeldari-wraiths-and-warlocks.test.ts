/**
 * Aeldari datasheet abilities of the Wraith constructs, Warlocks and a few vehicles
 * (src/factions/aeldari/wraiths-and-warlocks.ts): one test (or more) each, comparing the situation with
 * and without the ability, that fails if it is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { aeldariSandbox, battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { duel } from '../helpers/attack.ts';
import { effectiveDamagePmf } from '../../src/calc/exact.ts';
import { parseDiceExpr } from '../../src/core/dice-expr.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { allows, forbids, getRule } from '../../src/core/rules-registry.ts';
import { advanceDistance, executeMove } from '../../src/rules/battle/movement.ts';
import { chargeRollModifier } from '../../src/rules/battle/charge.ts';
import { canShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { FALLEN_WARRIOR } from '../../src/rules/battle/fight-on-death.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { FATED_HERO, FATED_HERO_KEYWORDS, FLICKERJUMPED } from '../../src/factions/aeldari/wraiths-and-warlocks.ts';

type Pick = (r: DecisionRequest) => number;

const asked: string[] = [];
const sandbox = (units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game => aeldariSandbox(units, asked, opts, pick);
const rule = (name: string) => getRule(name)!;
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 };
const ld = (g: Game, unit: string) => characteristic(g.state, g.state.units[unit], g.state.units[unit].models[0], 'Ld');

describe('Crimson Hunter', () => {
  it('Skyhunter: its ranged attacks at a unit that can FLY get +1 to hit and +1 to wound; not at other units, not in melee', () => {
    const g = sandbox([
      { id: 'CH', player: 0, faction: 'aeldari', name: 'Crimson Hunter', at: { x: 10, y: 10 } },
      ST,
      { id: 'PI', player: 1, faction: 'tau', name: 'Piranhas', at: { x: 30, y: 30 } },
    ]);
    const fly = planFor(g, 'CH', 'PI', 'Starcannon');
    expect([fly.hitModifier, fly.woundModifier]).toEqual([1, 1]);
    const ground = planFor(g, 'CH', 'ST', 'Starcannon');
    expect([ground.hitModifier, ground.woundModifier]).toEqual([0, 0]);
    const melee = planFor(g, 'CH', 'PI', 'Wraithbone hull');
    expect([melee.hitModifier, melee.woundModifier]).toEqual([0, 0]);
  });
});

describe('Windriders', () => {
  function windriders(): Game {
    return sandbox([
      { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 10, y: 10 } },
      { ...ST, at: { x: 18, y: 10 } },
      { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 22, y: 20 }, spacing: 0.9 },
    ]);
  }

  it('Swift Demise: failed Hit rolls re-rolled against the closest eligible target, only 1s against another one', () => {
    const g = windriders();
    expect(planFor(g, 'WR', 'ST', 'Twin shuriken catapult').rerollHits).toBe('failed');
    expect(planFor(g, 'WR', 'BT', 'Twin shuriken catapult').rerollHits).toBe('ones');
    // the Strike Team moved out of the catapults' 18": the Breacher Team is now the closest eligible target
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: g.state.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 40 + (i % 3), y: 40 - Math.floor(i / 3), z: 0 } })) });
    expect(planFor(g, 'WR', 'BT', 'Twin shuriken catapult').rerollHits).toBe('failed');
    // not its melee attacks
    expect(planFor(g, 'WR', 'BT', 'Close combat weapon').rerollHits).toBe('none');
  });
});

describe('Wraithguard, Wraithblades, Wraithlord', () => {
  it('War Construct: the Wraithguard may shoot in a turn they Fell Back; Windriders that Fell Back may not', () => {
    const g = sandbox([
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 20, y: 5 } },
      { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 20, y: 20 } },
      { ...ST, at: { x: 28, y: 10 } },
    ], { phase: 'movement' });
    expect(allows(g.state, g.state.units.WG, 'shoot-after-fall-back')).toBe(true);
    for (const id of ['WG', 'WR']) g.emit({ type: 'unit-moved', unit: id, mode: 'fall-back' });
    endPhase(g, 0, 'movement');
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    expect(canShoot(g, g.state.units.WG)).toBe(true);
    expect(canShoot(g, g.state.units.WR)).toBe(false);
  });

  function wraiths(psykerAt: number | null): Game {
    return sandbox([
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 10, y: 5 } },
      { id: 'WB', player: 0, faction: 'aeldari', name: 'Wraithblades', at: { x: 13, y: 5 } },
      { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 10, y: 18 } },
      ...(psykerAt === null ? [] : [{ id: 'WK', player: 0 as const, faction: 'aeldari' as const, name: 'Warlock', at: { x: psykerAt, y: 12 } }]),
      ST,
    ]);
  }

  it('Psychic Guidance: within 12" of a friendly AELDARI PSYKER, Leadership 6+ and +1 to hit (the Wraithlord: BS and WS improved by 1)', () => {
    const near = wraiths(20);
    expect(ld(near, 'WG')).toBe(6);
    expect(ld(near, 'WL')).toBe(6);
    expect(planFor(near, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(1);
    expect(planFor(near, 'WB', 'ST', 'Ghostswords').hitModifier).toBe(1);
    const lord = planFor(near, 'WL', 'ST', 'Shuriken catapult');
    expect([lord.hitModifier, lord.skill]).toEqual([0, 3]); // BS 4+ improved to 3+
    // the Warlock 25" away: nothing
    const far = wraiths(35);
    expect(ld(far, 'WG')).toBe(8);
    expect(planFor(far, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(0);
    expect(planFor(far, 'WL', 'ST', 'Shuriken catapult').skill).toBe(4);
    const none = wraiths(null);
    expect(ld(none, 'WB')).toBe(ld(far, 'WB'));
    expect(planFor(none, 'WB', 'ST', 'Ghostswords').hitModifier).toBe(0);
  });

  it('Fated Hero: at the start of the battle a keyword is chosen; the Wraithlord re-rolls Hit and Wound rolls of 1 against it only', () => {
    const pickVehicle: Pick = (r) => (r.kind === 'fated-hero' ? FATED_HERO_KEYWORDS.indexOf('VEHICLE') : 0);
    const g = sandbox([
      { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 10, y: 20 } },
      ST,
      { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 30, y: 25 } },
    ], {}, pickVehicle);
    expect(planFor(g, 'WL', 'HH', 'Shuriken catapult').rerollHits).toBe('none');
    rule(FATED_HERO).battleStart!(g, g.state.units.WL);
    expect(asked).toEqual(['fated-hero']);
    const hh = planFor(g, 'WL', 'HH', 'Shuriken catapult');
    expect([hh.rerollHits, hh.rerollWounds]).toEqual(['ones', 'ones']);
    const st = planFor(g, 'WL', 'ST', 'Shuriken catapult');
    expect([st.rerollHits, st.rerollWounds]).toEqual(['none', 'none']);
  });

  it('Fated Hero: the heuristic picks the keyword the enemy army has the most value in', () => {
    const picked = (strikeTeamPoints: number) => {
      const g = battleSandbox([
        { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 10, y: 20 } },
        { ...ST, points: strikeTeamPoints },
        { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 30, y: 25 }, points: 145 },
      ], { factions: ['AE', 'TAU'], agents: [createHeuristic(), scriptedAgent('tau')] });
      rule(FATED_HERO).battleStart!(g, g.state.units.WL);
      return g.state.effects.find((e) => e.kind === FATED_HERO)!.params.keyword;
    };
    expect(picked(75)).toBe('VEHICLE');
    expect(picked(400)).toBe('INFANTRY');
  });
});

describe('Warlocks', () => {
  it('Runes of Battle: the Warlock Skyrunners\' attacks ignore the Benefit of Cover; the Conclave\'s do not', () => {
    const g = sandbox([
      { id: 'SK', player: 0, faction: 'aeldari', name: 'Warlock Skyrunners', at: { x: 20, y: 5 } },
      { id: 'WC', player: 0, faction: 'aeldari', name: 'Warlock Conclave', at: { x: 20, y: 15 } },
      ST,
    ]);
    expect(planFor(g, 'SK', 'ST', 'Twin shuriken catapult', { cover: true }).cover).toBe(false);
    expect(planFor(g, 'WC', 'ST', 'Shuriken pistol', { cover: true }).cover).toBe(true);
  });

  /** Two Warlocks (WC, 1.6" apart), a Farseer (FS) next to them or `farseerAt`, a Warlock (WK) 25" off. */
  function conclave(attached: boolean, farseerAt = { x: 21.6, y: 5 }): Game {
    const g = sandbox([
      { id: 'WC', player: 0, faction: 'aeldari', name: 'Warlock Conclave', at: { x: 20, y: 5 } },
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: farseerAt },
      { id: 'WK', player: 0, faction: 'aeldari', name: 'Warlock', at: { x: 20, y: 30 } },
      ST,
    ]);
    if (attached) g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'WC' });
    return g;
  }

  it('Protect: while a Farseer leads the Conclave, attacks at it get -1 to wound; not without him', () => {
    expect(planFor(conclave(true), 'ST', 'WC', 'Pulse rifle').woundModifier).toBe(-1);
    expect(planFor(conclave(false), 'ST', 'WC', 'Pulse rifle').woundModifier).toBe(0);
  });

  it('Runes of Fortune: -2 to the Charge roll of a unit charging the Warlock; not when it charges another unit only', () => {
    const g = conclave(false);
    const s = g.state;
    expect(chargeRollModifier(s, s.units.ST, [s.units.WK])).toBe(-2);
    expect(chargeRollModifier(s, s.units.ST, [s.units.WK, s.units.WC])).toBe(-2);
    expect(chargeRollModifier(s, s.units.ST, [s.units.WC])).toBe(0);
  });

  it("Runes of Fortune adds to the charging unit's own penalties (no \"not cumulative\" clause, unlike the Grav-inhibitor Drone's)", () => {
    const g = conclave(false);
    // the Night Spinner's web on the charging unit: -2 of its own
    g.addEffect('Monofilament Web (pinned)', 1, 'ST', g.untilEndOfTurn());
    const s = g.state;
    expect(chargeRollModifier(s, s.units.ST, [s.units.WC])).toBe(-2);
    expect(chargeRollModifier(s, s.units.ST, [s.units.WK])).toBe(-4);
    // with another target beside the Warlock: the same
    expect(chargeRollModifier(s, s.units.ST, [s.units.WK, s.units.WC])).toBe(-4);
  });

  it('Psychic Communion: each Warlock\'s Destructor gets +1 Attacks and Strength per other AELDARI PSYKER within 6", at most +2, for the phase', () => {
    const destructor = (g: Game) => { const p = planFor(g, 'WC', 'ST', 'Destructor'); return [p.attacks.plus, p.strength]; };
    // two Warlocks 1.6" apart, the Farseer 20" off: one other PSYKER each
    const two = conclave(false, { x: 40, y: 5 });
    expect(destructor(two)).toEqual([0, 5]);
    rule('Psychic Communion (Psychic)').selectedToShoot!(two, two.state.units.WC);
    expect(destructor(two)).toEqual([1, 6]);
    // with the Farseer next to them (whether he leads them or not): two others each
    const near = conclave(false);
    rule('Psychic Communion (Psychic)').selectedToShoot!(near, near.state.units.WC);
    expect(destructor(near)).toEqual([2, 7]);
    // the Farseer leading them and a third Warlock 1" away: still +2
    const led = conclave(true);
    led.emit({ type: 'models-placed', unit: 'WK', mode: 'test', positions: [{ model: led.state.units.WK.models[0].id, pos: { x: 18.4, y: 5, z: 0 } }] });
    rule('Psychic Communion (Psychic)').selectedToShoot!(led, led.state.units.WC);
    expect(destructor(led)).toEqual([2, 7]);
    // selected a second time in the phase: still +2
    rule('Psychic Communion (Psychic)').selectedToShoot!(led, led.state.units.WC);
    expect(destructor(led)).toEqual([2, 7]);
    // the Warlock 25" from any other psyker: nothing
    rule('Psychic Communion (Psychic)').selectedToShoot!(two, two.state.units.WK);
    const lone = planFor(two, 'WK', 'ST', 'Destructor');
    expect([lone.attacks.plus, lone.strength]).toEqual([0, 5]);
    // until the end of the phase
    endPhase(led, 0, 'shooting');
    expect(led.state.effects.filter((e) => e.kind === 'Psychic Communion (Psychic)')).toEqual([]);
  });

  it('Psychic Communion: Warlocks of one unit with different bonuses each fire with their own (the attack group is split)', () => {
    // Warlocks 5" apart (one other PSYKER each); the Farseer within 6" of the first only: +2 and +1
    const g = sandbox([
      { id: 'WC', player: 0, faction: 'aeldari', name: 'Warlock Conclave', at: { x: 20, y: 10 }, spacing: 5 },
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 20, y: 4 } },
      { ...ST, at: { x: 28, y: 12 } },
    ]);
    const [w1, w2] = g.state.units.WC.models;
    shootWithUnit(g, g.state.units.WC);
    const effect = g.state.effects.find((e) => e.kind === 'Psychic Communion (Psychic)')!;
    expect(effect.params.bonus).toEqual({ [w1.id]: 2, [w2.id]: 1 });
    // TORRENT: one Wound roll per attack; the D6 Attacks of each Warlock plus its own bonus
    const dice = (g.log ?? []).filter((e) => e.type === 'dice');
    const rolled = (purpose: string) => dice.filter((e) => e.type === 'dice' && e.purpose === purpose).flatMap((e) => (e.type === 'dice' ? e.values : []));
    const attackDice = rolled('attacks');
    expect(attackDice).toHaveLength(2);
    expect(rolled('wound')).toHaveLength(attackDice[0] + attackDice[1] + 3);
  });
});

describe('Wraithseer and Warp Hunter', () => {
  const shooter = (name: string, opts: Parameters<typeof battleSandbox>[1] = {}, pick = 1) => sandbox([
    { id: 'SH', player: 0, faction: 'aeldari', name, at: { x: 20, y: 5 } },
    ST,
    { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 30, y: 25 }, spacing: 0.9 },
  ], opts, (r) => (r.kind === 'horrify' || r.kind === 'devastating-assault' ? pick : 0));

  for (const [name, ability, kind, weapon] of [
    ['Wraithseer', 'Horrify (Psychic)', 'horrify', 'Destructor'],
    ['Warp Hunter', 'Devastating Assault', 'devastating-assault', 'D-flail'],
  ] as const) {
    it(`${ability}: after the ${name} shot in its Shooting phase, one enemy unit it hit (the player's pick) takes a Battle-shock test`, () => {
      // 1 + 1 fails any Battle-shock test
      const g = shooter(name, { stream: scriptedStream([1, 1]) });
      rule(ability).afterShooting!(g, g.state.units.SH, ['ST', 'BT'], [{ weapon, target: 'ST' }, { weapon, target: 'BT' }]);
      expect(asked).toEqual([kind]);
      expect([g.state.units.ST.battleShocked, g.state.units.BT.battleShocked]).toEqual([false, true]);
      // one unit hit: that one tests
      const one = shooter(name, { stream: scriptedStream([1, 1]) }, 0);
      rule(ability).afterShooting!(one, one.state.units.SH, ['ST'], [{ weapon, target: 'ST' }]);
      expect(one.state.units.ST.battleShocked).toBe(true);
      // not in the opponent's turn (shooting at Fire Overwatch)
      const theirs = shooter(name, { stream: scriptedStream([1, 1]), turn: 1 }, 0);
      rule(ability).afterShooting!(theirs, theirs.state.units.SH, ['ST'], [{ weapon, target: 'ST' }]);
      expect(asked).toEqual([]);
      expect(theirs.state.units.ST.battleShocked).toBe(false);
    });
  }
});

describe('Vypers', () => {
  it('Harassment Fire: after they shot, one enemy unit they hit (the player\'s pick) gets -1 to its Hit rolls until their next turn, even once the Vypers are gone', () => {
    const g = sandbox([
      { id: 'VY', player: 0, faction: 'aeldari', name: 'Vypers', at: { x: 20, y: 5 } },
      ST,
      { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 30, y: 25 }, spacing: 0.9 },
    ]);
    const before = planFor(g, 'ST', 'VY', 'Pulse rifle').hitModifier;
    const breachers = planFor(g, 'BT', 'VY', 'Pulse blaster').hitModifier;
    rule('Harassment Fire').afterShooting!(g, g.state.units.VY, ['ST', 'BT'], []);
    expect(asked).toEqual(['harassment-fire']);
    expect(planFor(g, 'ST', 'VY', 'Pulse rifle').hitModifier).toBe(before - 1);
    // the first option (the Strike Team) was picked: the Breachers are not suppressed
    expect(planFor(g, 'BT', 'VY', 'Pulse blaster').hitModifier).toBe(breachers);
    // the Vypers destroyed: the Strike Team stays suppressed (Suppression Volley's lasts only while its team stands)
    for (const m of g.state.units.VY.models) g.emit({ type: 'model-destroyed', unit: 'VY', model: m.id, by: 'ST', reason: 'test' });
    expect(planFor(g, 'ST', 'VY', 'Pulse rifle').hitModifier).toBe(before - 1);
    const e = g.state.effects.find((x) => x.unit === 'ST')!;
    expect(e.expires).toMatchObject({ at: 'start-of-command', player: 0 });
  });
});

describe('Wasp Assault Walker', () => {
  it('Cloudbreakers: its Advance is not rolled: 6" more', () => {
    const stream = scriptedStream([2]);
    const g = sandbox([
      { id: 'WA', player: 0, faction: 'aeldari', name: 'Wasp Assault Walker', at: { x: 10, y: 10 } },
      { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 10, y: 30 } },
    ], { phase: 'movement', stream });
    expect(advanceDistance(g, g.state.units.WA)).toBe(6);
    expect(stream.remaining()).toBe(1);
    expect(advanceDistance(g, g.state.units.WR)).toBe(2);
  });
});

describe('Titan Hunter', () => {
  it('the Vampire Hunter\'s ranged attacks at a MONSTER or VEHICLE re-roll a Damage roll of 1 (plan, pipeline and calculator)', () => {
    const g = sandbox([
      { id: 'VH', player: 0, faction: 'aeldari', name: 'Vampire Hunter', at: { x: 10, y: 10 } },
      ST,
      { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 30, y: 25 } },
    ]);
    expect(planFor(g, 'VH', 'HH', 'Twin pulse laser').rerollDamageOnes).toBe(true);
    expect(planFor(g, 'VH', 'ST', 'Twin pulse laser').rerollDamageOnes).toBe(false);
    expect(planFor(g, 'VH', 'HH', 'Wraithbone hull').rerollDamageOnes).toBe(false);
    // hits 4 4, wounds 4 4, no save (7+), Damage 1 and 4: the 1 is rolled again (a 5)
    const attacker = { models: 1, keywords: ['VAMPIRE HUNTER'], weapon: { attacks: '2', skill: 4, strength: 4, damage: 'D6' }, abilities: ['Titan Hunter'] };
    const tank = { name: 'Tank', models: 1, keywords: ['VEHICLE'], profile: { toughness: 4, save: 7, wounds: 30 } };
    expect(duel(attacker, tank, scriptedStream([4, 4, 4, 4, 1, 4, 5])).run().woundsLost).toBe(9);
    expect(duel({ ...attacker, abilities: [] }, tank, scriptedStream([4, 4, 4, 4, 1, 4])).run().woundsLost).toBe(5);
    expect(duel(attacker, { ...tank, keywords: ['INFANTRY'] }, scriptedStream([4, 4, 4, 4, 1, 4])).run().woundsLost).toBe(5);
    // the calculator: a D6 whose 1 is rolled again: 1/36 for a 1, 7/36 for each other face
    const pmf = effectiveDamagePmf({ damage: parseDiceExpr('D6')!, damageBonus: 0, damageReduction: 0, halveDamage: false, rerollDamageOnes: true }, null);
    expect(pmf[1]).toBeCloseTo(1 / 36, 12);
    for (const v of [2, 3, 4, 5, 6]) expect(pmf[v]).toBeCloseTo(7 / 36, 12);
    const plus = effectiveDamagePmf({ damage: parseDiceExpr('D6+1')!, damageBonus: 0, damageReduction: 0, halveDamage: false, rerollDamageOnes: true }, null);
    expect(plus[2]).toBeCloseTo(1 / 36, 12);
    expect(plus[7]).toBeCloseTo(7 / 36, 12);
  });

  it('the AX-1-0 Tiger Shark\'s twin heavy rail cannon and seeker missiles have ANTI-TITANIC 3+ within half range', () => {
    const g = sandbox([
      { id: 'VH', player: 0, faction: 'aeldari', name: 'Vampire Hunter', at: { x: 10, y: 10 } },
      { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 10, y: 30 } },
      { id: 'TS', player: 1, faction: 'tau', name: 'AX-1-0 Tiger Shark', at: { x: 40, y: 20 } },
    ]);
    // its seeker missiles are not in the default loadout: the rail cannon stands for both
    for (const w of ['Twin heavy rail cannon']) {
      expect(planFor(g, 'TS', 'VH', w, { halfRange: true }).criticalWoundOn).toBe(3);
      expect(planFor(g, 'TS', 'VH', w, { halfRange: false }).criticalWoundOn).toBe(6);
      expect(planFor(g, 'TS', 'WR', w, { halfRange: true }).criticalWoundOn).toBe(6);
    }
    expect(planFor(g, 'TS', 'VH', 'Missile pod', { halfRange: true }).criticalWoundOn).toBe(6);
  });
});

describe('Warp Spiders', () => {
  /** Warp Spiders at (6, 5) make a Normal move toward (50, 5), using Flickerjump when `use`; the end of the phase rolls `dice`. */
  function jump(use: boolean, dice: number[]) {
    const g = sandbox([
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Warp Spiders', at: { x: 6, y: 5 }, spacing: 1.2 },
      { ...ST, at: { x: 55, y: 35 } },
    ], { phase: 'movement', stream: scriptedStream(dice) }, (r) => (r.kind === 'flickerjump' && use ? 1 : 0));
    const before = g.state.units.WS.models[0].pos!.x;
    executeMove(g, g.state.units.WS, { mode: 'normal', to: { x: 50, y: 5 }, toward: 'test' });
    const moved = g.state.units.WS.models[0].pos!.x - before;
    const noCharge = forbids(g.state, g.state.units.WS, 'charge');
    endPhase(g, 0, 'movement');
    const woundsLost = 6 - g.state.units.WS.models.reduce((n, m) => n + (m.alive ? m.wounds : 0), 0);
    return { g, moved, noCharge, woundsLost };
  }

  it('Flickerjump: used when selected for a Normal move: Move 24" and no charge this turn, then a D6 per model, each 1 a mortal wound', () => {
    const used = jump(true, [6, 1, 6, 1, 6]);
    expect(asked).toEqual(['flickerjump']);
    expect(used.moved).toBeGreaterThan(12 + 1e-6);
    expect(used.moved).toBeLessThanOrEqual(24 + 1e-6);
    expect(used.noCharge).toBe(true);
    expect(used.woundsLost).toBe(2);
    // still until the end of the turn, gone at the next
    expect(used.g.state.effects.filter((e) => e.kind === FLICKERJUMPED)).toHaveLength(1);
    // not used: its own 12", no dice, free to charge
    const kept = jump(false, []);
    expect(asked).toEqual(['flickerjump']);
    expect(kept.moved).toBeLessThanOrEqual(12 + 1e-6);
    expect(kept.noCharge).toBe(false);
    expect(kept.woundsLost).toBe(0);
  });

  it('Flickerjump: the heuristic jumps toward a destination beyond the unit\'s own Move, not toward one within it', () => {
    const choice = (toX: number) => {
      const g = battleSandbox([
        { id: 'WS', player: 0, faction: 'aeldari', name: 'Warp Spiders', at: { x: 6, y: 5 }, spacing: 1.2 },
        { ...ST, at: { x: 55, y: 35 } },
      ], { phase: 'movement', factions: ['AE', 'TAU'], stream: scriptedStream([6, 6, 6, 6, 6]), agents: [createHeuristic(), scriptedAgent('tau')] });
      executeMove(g, g.state.units.WS, { mode: 'normal', to: { x: toX, y: 7 }, toward: 'test' });
      return g.state.effects.some((e) => e.kind === FLICKERJUMPED);
    };
    expect(choice(45)).toBe(true);
    expect(choice(12)).toBe(false);
  });
});

describe('Wraithblades: Malevolent Souls', () => {
  it('a Wraithblades model an enemy unit destroys in the Fight phase before it has fought fights on a D6 of 3+ (a Wraithguard model does not roll)', () => {
    const fallen = (name: string, roll: number[], fought = false, melee = true) => {
      const g = sandbox([{ id: 'W', player: 0, faction: 'aeldari', name, at: { x: 20, y: 5 } }, { ...ST, at: { x: 21.7, y: 5 } }], { phase: 'fight', turn: 1, stream: scriptedStream(roll) });
      if (fought) g.emit({ type: 'unit-flag', unit: 'W', flag: 'fought', value: true });
      destroyModel(g, g.state.units.W, g.state.units.W.models[0], 'ST', 'test', { melee });
      return g.state.effects.filter((e) => e.kind === FALLEN_WARRIOR).length;
    };
    expect(fallen('Wraithblades', [3])).toBe(1);
    expect(fallen('Wraithblades', [2])).toBe(0);
    // no die left to roll: none is rolled
    expect(fallen('Wraithblades', [], true)).toBe(0);
    expect(fallen('Wraithguard', [])).toBe(0);
    // not by a melee attack (a mortal wound of the Fight phase): none is rolled
    expect(fallen('Wraithblades', [], false, false)).toBe(0);
  });
});
