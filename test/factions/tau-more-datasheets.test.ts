/**
 * T'au Empire datasheet abilities of units no bundled army fields: the Ethereal, Darkstrider and
 * Commander in Crisis Battlesuit (src/factions/tau/leaders.ts), Crisis Battlesuits, the Sky Ray and
 * Longstrike (battlesuits.ts), the Firesight Team (datasheets.ts), the Kroot Flesh Shaper and Kroot
 * Hounds (kroot.ts): one test (or more) each, comparing the situation with the rule's condition met and
 * not met, so that it fails if the ability is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { Game } from '../../src/core/game.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { allows } from '../../src/core/rules-registry.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { destroyModel, feelNoPainOf, splitAttachedUnits } from '../../src/rules/damage.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { expectedAdvance } from '../../src/ai/tactics.ts';
import { GUIDED, OBSERVER } from '../../src/factions/tau/army-rule.ts';

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { phase: 'shooting', ...opts });
}

/** `bodyguard` (BG) with `leader` (LD) 3" off, attached when `attached`; Guardian Defenders (GD) 20" away. */
function led(leader: string, bodyguard: string, attached: boolean, opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  const g = sandbox([
    { id: 'BG', player: 0, faction: 'tau', name: bodyguard, at: { x: 10, y: 5 } },
    { id: 'LD', player: 0, faction: 'tau', name: leader, at: { x: 13, y: 5 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
  ], opts);
  if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
  return g;
}

const model = (g: Game, unit: string, i = 0) => g.state.units[unit].models[i];

describe('Ethereal', () => {
  it('Failure Is Not an Option: the models of the unit he leads (his own too) have Feel No Pain 5+, against mortal wounds too; not when he leads no unit', () => {
    const g = led('Ethereal', 'Strike Team', true);
    const BG = g.state.units.BG;
    const ethereal = BG.models.find((m) => m.origin === 'LD')!;
    expect(feelNoPainOf(g.state, BG, BG.models[0], null)).toBe(5);
    expect(feelNoPainOf(g.state, BG, BG.models[0], null, true)).toBe(5);
    expect(feelNoPainOf(g.state, BG, ethereal, null)).toBe(5);
    const alone = led('Ethereal', 'Strike Team', false);
    expect(feelNoPainOf(alone.state, alone.state.units.BG, model(alone, 'BG'), null)).toBeNull();
    expect(feelNoPainOf(alone.state, alone.state.units.LD, model(alone, 'LD'), null)).toBeNull();
  });

  function command(turn: PlayerIndex, dice: number[], attached = true): { g: Game; cp: number } {
    const g = led('Ethereal', 'Strike Team', attached, { phase: 'command', turn, stream: scriptedStream(dice) });
    return { g, cp: g.state.players[0].cp };
  }

  it('Coordinated Leadership: at the end of his player\'s Command phase a 4+ on a D6 gains 1CP, a 3 does not; no roll in the opponent\'s', () => {
    for (const [die, gained] of [[4, 1], [6, 1], [3, 0]] as const) {
      const { g, cp } = command(0, [die]);
      endPhase(g, 0, 'command');
      expect(g.state.players[0].cp - cp).toBe(gained);
    }
    // not leading a unit: his own ability all the same
    const alone = command(0, [5], false);
    endPhase(alone.g, 0, 'command');
    expect(alone.g.state.players[0].cp - alone.cp).toBe(1);
    // the opponent's Command phase: no die is rolled (the scripted stream has none)
    const theirs = command(1, []);
    endPhase(theirs.g, 1, 'command');
    expect(theirs.g.state.players[0].cp).toBe(theirs.cp);
  });
});

describe('Darkstrider', () => {
  it('Structural Analyser: ranged attacks of the unit he leads add 1 to the Wound roll; not melee, not when he leads no unit', () => {
    const g = led('Darkstrider', 'Pathfinder Team', true);
    expect(planFor(g, 'BG', 'GD', 'Pulse carbine').woundModifier).toBe(1);
    expect(planFor(g, 'BG', 'GD', 'Shade').woundModifier).toBe(1);
    expect(planFor(g, 'BG', 'GD', 'Close combat weapon').woundModifier).toBe(0);
    const alone = led('Darkstrider', 'Pathfinder Team', false);
    expect(planFor(alone, 'BG', 'GD', 'Pulse carbine').woundModifier).toBe(0);
    expect(planFor(alone, 'LD', 'GD', 'Shade').woundModifier).toBe(0);
  });
});

describe('Commander in Crisis Battlesuit', () => {
  it('Crisis Commander: ranged attacks of the unit he leads re-roll Hit rolls of 1; not melee, not when he leads no unit', () => {
    const g = led('Commander In Crisis Battlesuit', 'Crisis Battlesuits', true);
    expect(planFor(g, 'BG', 'GD', 'Burst cannon').rerollHits).toBe('ones');
    expect(planFor(g, 'BG', 'GD', 'Battlesuit fists').rerollHits).toBe('none');
    const alone = led('Commander In Crisis Battlesuit', 'Crisis Battlesuits', false);
    expect(planFor(alone, 'BG', 'GD', 'Burst cannon').rerollHits).toBe('none');
    expect(planFor(alone, 'LD', 'GD', 'Burst cannon').rerollHits).toBe('none');
  });
});

describe('Crisis Battlesuits', () => {
  it('Turbo-jets: an Advance is not rolled and adds 6"; other battlesuits roll it', () => {
    const g = sandbox([
      { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 10, y: 5 } },
      { id: 'SF', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', at: { x: 10, y: 20 } },
    ], { phase: 'movement', stream: scriptedStream([2]) });
    expect(advanceDistance(g, g.state.units.CB)).toBe(6);
    expect(expectedAdvance(g.state, g.state.units.CB)).toBe(6);
    // the one scripted die is the Sunforges' roll
    expect(advanceDistance(g, g.state.units.SF)).toBe(2);
    expect(expectedAdvance(g.state, g.state.units.SF)).toBe(3.5);
  });

  it('Turbo-jets: led by a Commander in Crisis Battlesuit, the Attached unit still Advances 6"', () => {
    const g = led('Commander In Crisis Battlesuit', 'Crisis Battlesuits', true, { phase: 'movement', stream: scriptedStream([]) });
    expect(advanceDistance(g, g.state.units.BG)).toBe(6);
  });
});

describe('Firesight Team', () => {
  function firesight(): Game {
    return sandbox([
      { id: 'FT', player: 0, faction: 'tau', name: 'Firesight Team', at: { x: 10, y: 5 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 12 } },
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 10, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 25 } },
    ]);
  }

  it('Precise Targeting: attacks against a Spotted unit may re-roll the Hit roll; not against another unit, nor when nothing is Spotted', () => {
    const g = firesight();
    expect(planFor(g, 'FT', 'GD', 'Longshot pulse rifles').rerollHits).toBe('none');
    // the team as a Guided unit: its Spotted unit
    g.addEffect(GUIDED, 0, 'FT', g.untilEndOfPhase(), { observer: 'ST', spotted: 'GD' });
    expect(planFor(g, 'FT', 'GD', 'Longshot pulse rifles').rerollHits).toBe('failed');
    expect(planFor(g, 'FT', 'DA', 'Longshot pulse rifles').rerollHits).toBe('none');
    // another pair's Spotted unit is a Spotted unit too; the Strike Team has no such re-roll
    const h = firesight();
    h.addEffect(GUIDED, 0, 'ST', h.untilEndOfPhase(), { observer: 'PF', spotted: 'DA' });
    h.addEffect(OBSERVER, 0, 'PF', h.untilEndOfPhase(), { guided: 'ST', spotted: 'DA' });
    expect(planFor(h, 'FT', 'DA', 'Longshot pulse rifles').rerollHits).toBe('failed');
    expect(planFor(h, 'FT', 'GD', 'Longshot pulse rifles').rerollHits).toBe('none');
    expect(planFor(h, 'ST', 'DA', 'Pulse rifle').rerollHits).toBe('none');
  });
});

describe('Sky Ray Gunship', () => {
  it('Velocity Tracker: ranged attacks against a unit that can FLY may re-roll the Hit roll; not against one that cannot, not in melee', () => {
    const g = sandbox([
      { id: 'SR', player: 0, faction: 'tau', name: 'Sky Ray Gunship', at: { x: 10, y: 10 } },
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 10, y: 25 } },
      { id: 'SH', player: 1, faction: 'aeldari', name: 'Swooping Hawks', at: { x: 30, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 25 } },
    ]);
    expect(planFor(g, 'SR', 'SH', 'Seeker missile rack').rerollHits).toBe('failed');
    expect(planFor(g, 'SR', 'SH', 'Twin pulse carbine').rerollHits).toBe('failed');
    expect(planFor(g, 'SR', 'SH', 'Armoured hull').rerollHits).toBe('none');
    expect(planFor(g, 'SR', 'GD', 'Twin pulse carbine').rerollHits).toBe('none');
    // a Hammerhead has no Velocity Tracker
    expect(planFor(g, 'HH', 'SH', 'Twin pulse carbine').rerollHits).toBe('none');
  });
});

describe('Longstrike', () => {
  /** Longstrike (LS) and Hammerheads at the given points, in his player's Command phase. */
  function longstrike(hammerheads: { id: string; at: { x: number; y: number } }[], pick?: (r: DecisionRequest) => number): { g: Game; asked: DecisionRequest[] } {
    const asked: DecisionRequest[] = [];
    const g = battleSandbox([
      { id: 'LS', player: 0, faction: 'tau', name: 'Longstrike', at: { x: 10, y: 10 } },
      ...hammerheads.map((h) => ({ id: h.id, player: 0 as PlayerIndex, faction: 'tau' as const, name: 'Hammerhead Gunship', at: h.at })),
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 10 } },
    ], { phase: 'command', agents: [scriptedAgent('tau', (r) => { if (r.kind === 'xv02-pilot-battlesuit') asked.push(r); return pick ? pick(r) : 0; }), scriptedAgent('ae')] });
    return { g, asked };
  }
  const lethal = (g: Game, unit: string) => planFor(g, unit, 'GD', 'Railgun').lethalHits;
  const start = (g: Game, player: PlayerIndex = 0) => startPhase(g, player, 'command');

  it('XV02 Pilot Battlesuit: in his Command phase a Hammerhead within 12" gets LETHAL HITS on its ranged weapons (not melee), not one farther off, not Longstrike', () => {
    const { g, asked } = longstrike([{ id: 'NEAR', at: { x: 10, y: 20 } }, { id: 'FAR', at: { x: 10, y: 38 } }]);
    expect(lethal(g, 'NEAR')).toBe(false);
    start(g);
    expect(asked).toHaveLength(0); // one Hammerhead in range: no choice to make
    expect(lethal(g, 'NEAR')).toBe(true);
    expect(planFor(g, 'NEAR', 'GD', 'Twin pulse carbine').lethalHits).toBe(true);
    expect(planFor(g, 'NEAR', 'GD', 'Armoured hull').lethalHits).toBe(false);
    expect(lethal(g, 'FAR')).toBe(false);
    expect(lethal(g, 'LS')).toBe(false);
  });

  it('XV02 Pilot Battlesuit: it lasts until the start of his next Command phase (through the opponent\'s turn), and not in the opponent\'s Command phase', () => {
    const { g } = longstrike([{ id: 'NEAR', at: { x: 10, y: 20 } }]);
    // the opponent's Command phase: nothing
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    start(g, 1);
    expect(lethal(g, 'NEAR')).toBe(false);
    g.emit({ type: 'turn-started', round: 1, player: 0 });
    start(g, 0);
    expect(lethal(g, 'NEAR')).toBe(true);
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 0 });
    expireEffects(g, { at: 'start-of-command', round: 1, player: 1 });
    expect(lethal(g, 'NEAR')).toBe(true);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(lethal(g, 'NEAR')).toBe(false);
  });

  it('XV02 Pilot Battlesuit: with two Hammerheads in range the player picks one (the least damaged offered first); only that one gets LETHAL HITS', () => {
    const run = (pick: number) => {
      const r = longstrike([{ id: 'H1', at: { x: 10, y: 20 } }, { id: 'H2', at: { x: 20, y: 10 } }], () => pick);
      r.g.emit({ type: 'model-damaged', unit: 'H1', model: model(r.g, 'H1').id, wounds: 3, by: null, mortal: false });
      start(r.g);
      return r;
    };
    const first = run(0);
    expect(first.asked.map((r) => r.options)).toEqual([['H2', 'H1']]);
    expect([lethal(first.g, 'H1'), lethal(first.g, 'H2')]).toEqual([false, true]);
    const second = run(1);
    expect([lethal(second.g, 'H1'), lethal(second.g, 'H2')]).toEqual([true, false]);
  });
});

describe('Kroot Flesh Shaper', () => {
  /** Kroot Carnivores (BG) led by a Flesh Shaper when `attached`; a Farseer (FS, one model) and Guardian Defenders (GD) of the enemy. */
  function shaper(attached: boolean, phase: PhaseName = 'fight'): Game {
    const g = battleSandbox([
      { id: 'BG', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 5 }, spacing: 1 },
      { id: 'LD', player: 0, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 12, y: 5 } },
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 30, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 20 } },
    ], { phase });
    if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    return g;
  }
  const fnp = (g: Game, mortal = false) => feelNoPainOf(g.state, g.state.units.BG, model(g, 'BG'), null, mortal);
  const killFarseer = (g: Game, by: string) => destroyModel(g, g.state.units.FS, model(g, 'FS'), by, 'damage');

  it('Ritual Butchery: melee weapons of the unit he leads (his own too) have SUSTAINED HITS 1; not ranged ones, not when he leads no unit', () => {
    const g = shaper(true);
    expect(planFor(g, 'BG', 'GD', 'Close combat weapon').sustainedHits).toBe(1);
    expect(planFor(g, 'BG', 'GD', 'Twin ritualistic blades').sustainedHits).toBeGreaterThanOrEqual(1);
    expect(planFor(g, 'BG', 'GD', 'Kroot rifle').sustainedHits).toBe(0);
    const alone = shaper(false);
    expect(planFor(alone, 'BG', 'GD', 'Close combat weapon').sustainedHits).toBe(0);
  });

  it('Rites of Feasting: the unit he leads has Feel No Pain 6+; not when he leads no unit', () => {
    expect(fnp(shaper(true))).toBe(6);
    expect(fnp(shaper(true), true)).toBe(6);
    expect(fnp(shaper(false))).toBeNull();
  });

  it('Rites of Feasting: once the unit destroys an enemy unit in the Fight phase, Feel No Pain 5+ for the rest of the battle, still after he is gone', () => {
    const g = shaper(true);
    killFarseer(g, 'BG');
    expect(fnp(g)).toBe(5);
    expect(fnp(g, true)).toBe(5);
    expect(planFor(g, 'GD', 'BG', 'Shuriken catapult').feelNoPain).toBe(5);
    g.emit({ type: 'round-started', round: 3 });
    expireEffects(g, { at: 'end-of-round', round: 3 });
    expect(fnp(g)).toBe(5);
    // the Flesh Shaper is destroyed: his unit keeps the 5+ (against attacks and against mortal wounds)
    const BG = g.state.units.BG;
    destroyModel(g, BG, BG.models.find((m) => m.origin === 'LD')!, null, 'damage');
    splitAttachedUnits(g);
    expect(g.state.units.BG.abilities).not.toContain('Rites of Feasting');
    expect(planFor(g, 'GD', 'BG', 'Shuriken catapult').feelNoPain).toBe(5);
    expect(fnp(g, true)).toBe(5);
  });

  it('Rites of Feasting: no 5+ for a unit destroyed in another phase, or by a unit he does not lead', () => {
    const shooting = shaper(true, 'shooting');
    killFarseer(shooting, 'BG');
    expect(fnp(shooting)).toBe(6);
    expect(planFor(shooting, 'GD', 'BG', 'Shuriken catapult').feelNoPain).toBeNull();
    const alone = shaper(false);
    killFarseer(alone, 'BG');
    expect(fnp(alone)).toBeNull();
    alone.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    expect(fnp(alone)).toBe(6);
    // the Flesh Shaper on his own (leading no unit) destroys one: no feast for the unit he leads later
    const own = shaper(false);
    killFarseer(own, 'LD');
    expect(planFor(own, 'GD', 'LD', 'Shuriken catapult').feelNoPain).toBeNull();
    expect(feelNoPainOf(own.state, own.state.units.LD, model(own, 'LD'), null, true)).toBeNull();
    own.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    expect(fnp(own)).toBe(6);
  });
});

describe('Kroot Hounds', () => {
  function hounds(extra: PlacedUnit[], phase: PhaseName = 'command'): Game {
    return battleSandbox([
      { id: 'KH', player: 0, faction: 'tau', name: 'Kroot Hounds', at: { x: 10, y: 5 }, spacing: 1 },
      ...extra,
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 20 } },
    ], { phase });
  }
  const oc = (g: Game) => characteristic(g.state, g.state.units.KH, model(g, 'KH'), 'OC');

  it('Hunting Hounds: OC 1 within 12" of a friendly KROOT CHARACTER model; 0 farther off, near a Kroot unit with no CHARACTER, or near an enemy', () => {
    expect(oc(hounds([{ id: 'FS', player: 0, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 20, y: 5 } }]))).toBe(1);
    expect(oc(hounds([{ id: 'FS', player: 0, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 30, y: 5 } }]))).toBe(0);
    expect(oc(hounds([{ id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 14, y: 5 } }]))).toBe(0);
    expect(oc(hounds([{ id: 'FS', player: 1, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 20, y: 5 } }]))).toBe(0);
  });

  it('Hunting Hounds: a Flesh Shaper leading Carnivores counts; Battle-shocked, the two rules that set OC go in the active player\'s order: 1 in its own turn, 0 in the opponent\'s', () => {
    const g = hounds([
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 14, y: 5 }, spacing: 1 },
      { id: 'FS', player: 0, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 16, y: 5 } },
    ]);
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'KC' });
    expect(oc(g)).toBe(1);
    g.emit({ type: 'battle-shock', unit: 'KH', value: true });
    expect(g.state.turn).toBe(0);
    expect(oc(g)).toBe(1);
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    expect(oc(g)).toBe(0);
    // away from the Flesh Shaper, only Battle-shock sets it: 0 in either turn
    g.emit({ type: 'models-placed', unit: 'KH', mode: 'test', positions: g.state.units.KH.models.map((m, i) => ({ model: m.id, pos: { x: 40, y: 30 + i, z: 0 } })) });
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    expect(oc(g)).toBe(0);
  });

  it('Loping Pounce: at the start of its Command phase within 6" of friendly Kroot INFANTRY, it may charge after Advancing until the end of the turn; not farther off, not near other INFANTRY, not in the opponent\'s turn', () => {
    const near = hounds([{ id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 14, y: 5 }, spacing: 1 }]);
    expect(allows(near.state, near.state.units.KH, 'charge-after-advance')).toBe(false);
    startPhase(near, 0, 'command');
    expect(allows(near.state, near.state.units.KH, 'charge-after-advance')).toBe(true);
    expect(allows(near.state, near.state.units.KC, 'charge-after-advance')).toBe(false);
    expireEffects(near, { at: 'end-of-turn', round: 1, turn: 0 });
    expect(allows(near.state, near.state.units.KH, 'charge-after-advance')).toBe(false);

    const far = hounds([{ id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 25, y: 5 }, spacing: 1 }]);
    startPhase(far, 0, 'command');
    expect(allows(far.state, far.state.units.KH, 'charge-after-advance')).toBe(false);
    // near INFANTRY that is not KROOT
    const fireWarriors = hounds([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 5 }, spacing: 1 }]);
    startPhase(fireWarriors, 0, 'command');
    expect(allows(fireWarriors.state, fireWarriors.state.units.KH, 'charge-after-advance')).toBe(false);
    // in the opponent's Command phase: nothing
    const theirs = hounds([{ id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 14, y: 5 }, spacing: 1 }]);
    theirs.emit({ type: 'turn-started', round: 1, player: 1 });
    startPhase(theirs, 1, 'command');
    expect(allows(theirs.state, theirs.state.units.KH, 'charge-after-advance')).toBe(false);
  });
});
