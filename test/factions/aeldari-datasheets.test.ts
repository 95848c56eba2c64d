/**
 * Aeldari datasheet abilities of the bundled armies: one test (or more) each, in a seeded situation,
 * with scripted dice or exact values, that fails if the ability is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { everyModelHas, getRule } from '../../src/core/rules-registry.ts';
import { canInfiltrate, scoutsDistance } from '../../src/rules/battle/pre-battle.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { afterRoll, rollDice } from '../../src/rules/roll-window.ts';
import { advanceDistance, afterMove } from '../../src/rules/battle/movement.ts';
import { canCharge, fightsFirst } from '../../src/rules/battle/charge.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { DISEMBARKED_FROM } from '../../src/rules/battle/transports.ts';
import { openWindow, usableStratagems } from '../../src/rules/windows.ts';
import { DANCE_OF_DEATH } from '../../src/factions/aeldari/datasheets.ts';

type Pick = (r: DecisionRequest) => number;

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { factions: ['AE', 'TAU'], phase: 'shooting', ...opts });
}

function agents(pick: Pick): [ReturnType<typeof scriptedAgent>, ReturnType<typeof scriptedAgent>] {
  return [scriptedAgent('ae', pick), scriptedAgent('tau')];
}

function effects(g: Game, kind: string) {
  return g.state.effects.filter((e) => e.kind === kind);
}

describe('Farseer', () => {
  function farseer(pick: Pick, attached = true): Game {
    const g = sandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 11.5, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 25, y: 5 } },
      { id: 'SB', player: 1, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 45, y: 5 } },
    ], { agents: agents(pick), phase: 'movement' });
    if (attached) g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    return g;
  }

  const hit = (g: Game, values: number[], models: string[]) => afterRoll(g, {
    purpose: 'hit', player: 0, unit: 'GD', sides: 6, values, rerolled: [], test: { needed: 3, modifier: 0, criticalOn: 6 }, models,
  });

  it('Branching Fates: once per phase, one Hit roll of the unit it leads becomes an unmodified 6', () => {
    const asked: unknown[][] = [];
    const g = farseer((r) => { if (r.kind === 'branching-fates') { asked.push(r.options); return r.options.findIndex((o) => (o as { die?: number }).die === 2); } return 0; });
    const guardian = g.state.units.GD.models[0].id;
    expect(hit(g, [2, 3, 6], [guardian])).toEqual([6, 3, 6]);
    expect(asked[0]).toEqual([{ none: true }, { die: 2 }, { die: 3 }]);
    expect((g.log ?? []).find((e) => e.type === 'dice-substituted')).toMatchObject({ old: 2, value: 6, source: 'Branching Fates' });
    // once per phase
    expect(hit(g, [1, 1], [guardian])).toEqual([1, 1]);
    expect(asked).toHaveLength(1);
    // a new phase: again
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    expect(hit(g, [2], [guardian])).toEqual([6]);
  });

  it('Branching Fates never changes a die a Fate die stands for (Strands of Fate: it cannot be changed)', () => {
    const asked: unknown[][] = [];
    const pick: Pick = (r) => {
      if (r.kind === 'fate-die') return Math.max(0, r.options.findIndex((o) => (o as { fate?: number }).fate === 2));
      if (r.kind === 'branching-fates') { asked.push(r.options); return 1; }
      return 0;
    };
    const g = sandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 11.5, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 25, y: 5 } },
    ], { agents: agents(pick), stream: scriptedStream([4, 4]) });
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [2] });
    // two Hit dice, both 4s: a Fate die of 2 stands for one; only the other may become a 6
    const rolled = rollDice(g, 2, 6, 'hit', 0, 'GD');
    const values = afterRoll(g, { purpose: 'hit', player: 0, unit: 'GD', sides: 6, values: rolled, rerolled: [], test: { needed: 3, modifier: 0, criticalOn: 6 }, models: [g.state.units.GD.models[0].id] });
    expect(asked).toEqual([[{ none: true }, { die: 4 }]]);
    expect([...values].sort()).toEqual([2, 6]);
  });

  it('Branching Fates: not for the Heavy Weapon Platform, nor when the Farseer leads no unit', () => {
    let asked = 0;
    const pick: Pick = (r) => { if (r.kind === 'branching-fates') { asked++; return 1; } return 0; };
    const g = farseer(pick);
    const platform = g.state.units.GD.models.find((m) => m.name === 'Heavy Weapon Platform')!.id;
    expect(hit(g, [2], [platform])).toEqual([2]);
    const alone = farseer(pick, false);
    expect(afterRoll(alone, { purpose: 'hit', player: 0, unit: 'FS', sides: 6, values: [2], rerolled: [], test: null })).toEqual([2]);
    expect(asked).toBe(0);
  });

  it('Guide: at the end of its Movement phase, an enemy unit within 18" and visible; friendly AELDARI attacks get +1 to hit against it', () => {
    const asked: unknown[][] = [];
    const g = farseer((r) => { if (r.kind === 'guide') asked.push(r.options); return 0; });
    endPhase(g, 0, 'movement');
    expect(asked).toEqual([['ST']]); // the Stealth Battlesuits are 30" away
    expect(effects(g, 'Guide (Psychic)').map((e) => e.unit)).toEqual(['ST']);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(1);
    expect(planFor(g, 'SB', 'ST', 'Burst cannon').hitModifier).toBe(0); // not an Aeldari attack
    // until the start of the Aeldari player's next Command phase
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(1);
  });
});

describe('Autarch', () => {
  function autarch(pick: Pick, lead = 'DA', opts: Parameters<typeof battleSandbox>[1] = {}): Game {
    const g = sandbox([
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 5 } },
      { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 10, y: 25 } },
      { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 11.5, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 25, y: 5 } },
    ], { agents: agents(pick), ...opts });
    if (lead) g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: lead });
    return g;
  }

  it('Superlative Strategist: the unit it leads may re-roll its Advance roll', () => {
    const g = autarch((r) => (r.kind === 'reroll-advance' ? 1 : 0), 'DA', { stream: scriptedStream([1, 4]), phase: 'movement' });
    expect(advanceDistance(g, g.state.units.DA)).toBe(4);
    let asked = 0;
    const h = autarch((r) => { if (r.kind === 'reroll-advance') asked++; return 0; }, 'DA', { stream: scriptedStream([1]), phase: 'movement' });
    expect(advanceDistance(h, h.state.units.HB)).toBe(1);
    expect(asked).toBe(0);
  });

  it('Path of Command: once per battle round, a stratagem on its unit may cost 1 CP less (the player chooses)', () => {
    const g = autarch((r) => (r.kind === 'stratagem' ? r.options.findIndex((o) => (o as { discount?: string }).discount === 'Path of Command') : 0), 'DA', { cp: [1, 0] });
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    const w = { name: 'shooting/after-enemy-targets' as const, unit: 'ST', targets: ['DA', 'HB'] };
    const offered = usableStratagems(g, w, 0).filter((x) => x.s.name === 'GO TO GROUND');
    expect(offered.map((x) => [x.unit.id, x.cp, x.discount ?? null])).toEqual([['DA', 1, null], ['DA', 0, 'Path of Command'], ['HB', 1, null]]);
    expect(openWindow(g, w)).toContain('GO TO GROUND');
    expect(g.state.players[0].cp).toBe(1);
    expect(g.state.players[0].stratagemsUsed.map((u) => u.cp)).toEqual([0]);
    // no second reduction this battle round (another stratagem, another phase)
    g.emit({ type: 'phase-started', round: 1, player: 1, phase: 'fight' });
    expect(usableStratagems(g, w, 0).some((x) => x.discount)).toBe(false);
    g.emit({ type: 'round-started', round: 2 });
    g.emit({ type: 'turn-started', round: 2, player: 1 });
    g.emit({ type: 'phase-started', round: 2, player: 1, phase: 'shooting' });
    expect(usableStratagems(g, w, 0).some((x) => x.discount === 'Path of Command')).toBe(true);
  });

  it('Path of Command: with 0 CP the reduced stratagem is still offered', () => {
    const g = autarch(() => 0);
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    const offered = usableStratagems(g, { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['DA'] }, 0);
    expect(offered.map((x) => [x.s.name, x.cp])).toContainEqual(['GO TO GROUND', 0]);
  });

  it('ASPECT TRAINING: leading Howling Banshees, the Attached unit fights first', () => {
    const g = autarch(() => 0, 'HB');
    expect(fightsFirst(g, g.state.units.HB)).toBe(true);
    const h = autarch(() => 0, '');
    expect(fightsFirst(h, h.state.units.AU)).toBe(false);
    // leading Dire Avengers (no Fights First of their own) he shares nothing
    const d = autarch(() => 0, 'DA');
    expect(fightsFirst(d, d.state.units.DA)).toBe(false);
  });

  it('ASPECT TRAINING: leading Striking Scorpions, the Attached unit has their Stealth, Infiltrators and Scouts 7"', () => {
    const g = sandbox([
      { id: 'SS', player: 0, faction: 'aeldari', name: 'Striking Scorpions', at: { x: 10, y: 5 } },
      { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 11.5, y: 5 } },
      { id: 'AS', player: 1, faction: 'tau', name: "Aun'shi", at: { x: 30, y: 5 } },
      { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 31.5, y: 5 } },
    ]);
    g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: 'SS' });
    const SS = g.state.units.SS;
    expect(everyModelHas(SS, 'Stealth')).toBe(true);
    expect(canInfiltrate(g.state, SS)).toBe(true);
    expect(scoutsDistance(g.state, SS)).toBe(7);
    // a Leader without such a rule takes none of its Bodyguard's: Aun'Shi leading Kroot Carnivores (Stealth, Scouts 7")
    g.emit({ type: 'unit-attached', leader: 'AS', bodyguard: 'KC' });
    const KC = g.state.units.KC;
    expect(KC.abilities).toContain('Stealth');
    expect(everyModelHas(KC, 'Stealth')).toBe(false);
    expect(scoutsDistance(g.state, KC)).toBe(0);
  });
});

describe('Guardian Defenders', () => {
  it('Crewed Platform: when the last Guardian Defender is destroyed, the Heavy Weapon Platform is too', () => {
    const g = sandbox([{ id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } }]);
    const GD = g.state.units.GD;
    const crew = GD.models.filter((m) => m.name !== 'Heavy Weapon Platform');
    const platform = GD.models.find((m) => m.name === 'Heavy Weapon Platform')!;
    for (const m of crew.slice(0, -1)) destroyModel(g, GD, m, null, 'test');
    expect(platform.alive).toBe(true);
    destroyModel(g, GD, crew[crew.length - 1], null, 'test');
    expect(platform.alive).toBe(false);
    expect(g.state.units.GD.location).toBe('destroyed');
  });
});

describe('Troupe', () => {
  function troupe(choice: number): Game {
    const g = sandbox([
      { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 11.5, y: 5 } },
    ], { agents: agents((r) => (r.kind === 'dance-of-death' ? choice : 0)) });
    startPhase(g, 0, 'fight');
    return g;
  }

  it('Dance of Death: at the start of each Fight phase the Troupe picks one of three until the end of the phase', () => {
    const heroes = troupe(0);
    expect(effects(heroes, 'Dance of Death').map((e) => e.params.choice)).toEqual([DANCE_OF_DEATH[0]]);
    expect(planFor(heroes, 'TR', 'ST', "Harlequin's blade").rerollHits).toBe('ones');
    const villains = troupe(1);
    expect(planFor(villains, 'TR', 'ST', "Harlequin's blade").woundModifier).toBe(1);
    expect(planFor(villains, 'TR', 'ST', "Harlequin's blade").rerollHits).toBe('none');
    const tricksters = troupe(2);
    expect(planFor(tricksters, 'ST', 'TR', 'Close combat weapon').hitModifier).toBe(-1);
    expect(planFor(tricksters, 'TR', 'ST', "Harlequin's blade").woundModifier).toBe(0);
    endPhase(tricksters, 0, 'fight');
    expect(planFor(tricksters, 'ST', 'TR', 'Close combat weapon').hitModifier).toBe(0);
    // not in the other phases
    const g = sandbox([{ id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 5 } }]);
    startPhase(g, 0, 'shooting');
    expect(effects(g, 'Dance of Death')).toHaveLength(0);
  });
});

describe('Vehicles', () => {
  function vehicles(pick: Pick = () => 0): Game {
    return sandbox([
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 10, y: 10 } },
      { id: 'FA', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 10, y: 25 } },
      { id: 'FP', player: 0, faction: 'aeldari', name: 'Fire Prism', at: { x: 10, y: 38 } },
      { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', at: { x: 4, y: 2 }, spacing: 3 },
      { id: 'FD', player: 0, faction: 'aeldari', name: 'Fire Dragons', at: { x: 18, y: 25 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 18, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
      { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 30, y: 25 } },
      { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 34, y: 5 } },
    ], { agents: agents(pick) });
  }

  it('Wave Serpent Shield: -1 to wound for ranged attacks with Strength above its Toughness', () => {
    const g = vehicles();
    expect(planFor(g, 'HH', 'WS', 'Railgun').woundModifier).toBe(-1); // S20 > T9
    expect(planFor(g, 'ST', 'WS', 'Pulse rifle').woundModifier).toBe(0); // S5
    expect(planFor(g, 'HH', 'FA', 'Railgun').woundModifier).toBe(0); // a Falcon has no shield
  });

  it('Fire Support: after the Falcon shot, units that disembarked from it this turn re-roll wounds against a unit it hit', () => {
    const g = vehicles();
    getRule('Fire Support')!.afterShooting!(g, g.state.units.FA, ['HH']);
    expect(effects(g, 'Fire Support').map((e) => [e.unit, e.params.transport])).toEqual([['HH', 'FA']]);
    g.addEffect(DISEMBARKED_FROM, 0, 'FD', g.untilEndOfTurn(), { transport: 'FA' });
    g.addEffect(DISEMBARKED_FROM, 0, 'GD', g.untilEndOfTurn(), { transport: 'WS' });
    expect(planFor(g, 'FD', 'HH', 'Dragon fusion gun').rerollWounds).toBe('failed');
    expect(planFor(g, 'GD', 'HH', 'Shuriken catapult').rerollWounds).toBe('none'); // from another transport
    expect(planFor(g, 'FD', 'ST', 'Dragon fusion gun').rerollWounds).toBe('none'); // another target
  });

  it('Crystal Matrix: the Fire Prism re-rolls one Hit roll and one Wound roll each time it shoots', () => {
    const g = vehicles();
    expect(planFor(g, 'FP', 'ST', 'Twin shuriken catapult').rerollOne).toEqual({ hit: 1, wound: 1, damage: 0 });
    expect(planFor(g, 'FP', 'ST', 'Wraithbone hull').rerollOne).toEqual({ hit: 0, wound: 0, damage: 0 });
    // SOULSIGHT on top: a second Hit and Wound die, and one Damage die (each rule re-rolls its own die)
    g.addEffect('Soulsight', 0, 'FP', g.untilEndOfPhase());
    expect(planFor(g, 'FP', 'ST', 'Twin shuriken catapult').rerollOne).toEqual({ hit: 2, wound: 2, damage: 1 });
  });

  it('Crystalline Targeting: after the War Walkers shot, friendly AELDARI attacks against a unit they hit improve AP by 1 this phase', () => {
    const asked: unknown[][] = [];
    const g = vehicles((r) => { if (r.kind === 'crystalline-targeting') asked.push(r.options); return 0; });
    const ap = planFor(g, 'GD', 'ST', 'Shuriken catapult').ap;
    getRule('Crystalline Targeting')!.afterShooting!(g, g.state.units.WW, ['ST', 'BT']);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').ap).toBe(ap - 1);
    expect(planFor(g, 'GD', 'BT', 'Shuriken catapult').ap).toBe(ap);
    expect(planFor(g, 'HH', 'ST', 'Railgun').ap).toBe(-5); // a T'au attack on a T'au unit: unchanged
    // each unit only once per turn
    getRule('Crystalline Targeting')!.afterShooting!(g, g.state.units.WW, ['ST', 'BT']);
    expect(asked).toEqual([['ST', 'BT'], ['BT']]);
    endPhase(g, 0, 'shooting');
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').ap).toBe(ap);
  });
});

describe('Aspect Warriors', () => {
  function aspects(opts: Parameters<typeof battleSandbox>[1] = {}): Game {
    return sandbox([
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 5 } },
      { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 12, y: 5 } },
      { id: 'FD', player: 0, faction: 'aeldari', name: 'Fire Dragons', at: { x: 14, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 22, y: 5 } },
      { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 22, y: 25 } },
    ], opts);
  }

  it('Bladestorm: SUSTAINED HITS 1 within half range', () => {
    const g = aspects();
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult', { halfRange: true }).sustainedHits).toBe(1);
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult', { halfRange: false }).sustainedHits).toBe(0);
  });

  it('Acrobatic: the Banshees may charge after Advancing or Falling Back; Dire Avengers may not', () => {
    const g = aspects({ phase: 'charge' });
    g.emit({ type: 'unit-moved', unit: 'HB', mode: 'advance', advanceRoll: 3 });
    g.emit({ type: 'unit-moved', unit: 'DA', mode: 'advance', advanceRoll: 3 });
    expect(canCharge(g, g.state.units.HB)).toBe(true);
    expect(canCharge(g, g.state.units.DA)).toBe(false);
    const h = aspects({ phase: 'charge' });
    h.emit({ type: 'unit-moved', unit: 'HB', mode: 'fall-back' });
    expect(canCharge(h, h.state.units.HB)).toBe(true);
  });

  it('Assured Destruction: in its Shooting phase, re-roll Hit, Wound and Damage rolls against a MONSTER or VEHICLE', () => {
    const g = aspects();
    const v = planFor(g, 'FD', 'HH', 'Dragon fusion gun');
    expect([v.rerollHits, v.rerollWounds, v.rerollDamage]).toEqual(['failed', 'failed', true]);
    const i = planFor(g, 'FD', 'ST', 'Dragon fusion gun');
    expect([i.rerollHits, i.rerollWounds, i.rerollDamage]).toEqual(['none', 'none', false]);
    // not in the opponent's turn (Fire Overwatch)
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    expect(planFor(g, 'FD', 'HH', 'Dragon fusion gun').rerollDamage).toBe(false);
  });
});

describe('Swooping Hawks', () => {
  it('Grenade Pack Flyover: once per turn after a move in its Movement phase, a D6 per Hawk, 4+ a mortal wound', () => {
    let asked = 0;
    const g = sandbox([
      { id: 'SH', player: 0, faction: 'aeldari', name: 'Swooping Hawks', at: { x: 10, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 16, y: 5 } },
      { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 5 } },
    ], { phase: 'movement', stream: scriptedStream([4, 3, 1, 6, 2]), agents: agents((r) => {
      if (r.kind !== 'grenade-pack-flyover') return 0;
      asked++;
      expect(r.options).toEqual([{ none: true }, { target: 'ST' }]); // the Breachers are too far
      return 1;
    }) });
    afterMove(g, g.state.units.SH);
    // 4 and 6 are mortal wounds, the 3 is not
    expect(g.state.units.ST.models.filter((m) => !m.alive)).toHaveLength(2);
    afterMove(g, g.state.units.SH);
    expect(asked).toBe(1);
  });
});
