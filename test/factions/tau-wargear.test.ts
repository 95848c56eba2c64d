/**
 * Wargear abilities: the models that carry wargear (named by the army, or fixed in the default loadout)
 * and the T'au wargear abilities played for their bearers (src/factions/tau/wargear.ts, the Support
 * Systems in battlesuits.ts): each against the same situation without the wargear.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { allows, weaponRange } from '../../src/core/rules-registry.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { carriedWargearAbilities } from '../../src/rules/muster.ts';
import { destroyModel, invulnerableOf, splitAttachedUnits } from '../../src/rules/damage.ts';
import { chargeRollModifier } from '../../src/rules/battle/charge.ts';
import { allModelsHave, characteristic, modelHasKeyword } from '../../src/rules/battle/units.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';
import { canInfiltrate } from '../../src/rules/battle/pre-battle.ts';
import { canShoot, modelWeapons, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { usableStratagems, useStratagem } from '../../src/rules/windows.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { isWithin } from '../../src/geometry/distance.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { GUIDED } from '../../src/factions/tau/army-rule.ts';
import { expireEffects } from '../../src/core/effects.ts';

const tau = loadFactionCatalog('tau');
const ds = (name: string) => tau.byName(name)!;
const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 20 } };

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { phase: 'shooting', round: 2, ...opts });
}

const shown = (g: Game, unit: string) => g.state.units[unit];

describe('wargear carried', () => {
  it('the army names it; fixed default wargear comes along; wargear the army does not name is a default only when it names none', () => {
    // Shadowsun's drones are fixed (no option replaces them): a list need not name them
    expect(carriedWargearAbilities(ds('Commander Shadowsun'), 'Commander Shadowsun', [])).toEqual(['Advanced Guardian Drone', 'Command-link Drone (Aura)']);
    // a Coldstar's Shield Generator is an option: carried only when named; a Shield drone has no ability in the data
    expect(carriedWargearAbilities(ds('Commander In Coldstar Battlesuit'), 'Commander in Coldstar Battlesuit', ['shield generator', 'Shield drone'])).toEqual(['Shield Generator']);
    expect(carriedWargearAbilities(ds('Commander In Coldstar Battlesuit'), 'Commander in Coldstar Battlesuit', [])).toEqual([]);
    // Heavy Gun Drones' Markerlight can be replaced: the default when the army names no wargear, not when it names other wargear
    expect(carriedWargearAbilities(ds('Heavy Gun Drones'), 'Heavy Gun Drones')).toEqual(['Markerlight']);
    expect(carriedWargearAbilities(ds('Heavy Gun Drones'), 'Heavy Gun Drones', [])).toEqual([]);
  });

  it('the models carry it, and the unit plays its abilities', () => {
    const g = sandbox([
      { id: 'C', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 10 }, wargear: [['Shield Generator']] },
      { id: 'S', player: 0, faction: 'tau', name: 'Commander Shadowsun', at: { x: 10, y: 20 } },
      GD,
    ]);
    expect(shown(g, 'C').models[0].wargear).toEqual(['Shield Generator']);
    expect(shown(g, 'C').abilities).toContain('Shield Generator');
    expect(shown(g, 'S').models[0].wargear).toEqual(['Advanced Guardian Drone', 'Command-link Drone (Aura)']);
    expect(shown(g, 'GD').models[0].wargear).toBeUndefined();
  });
});

describe('Shield Generator', () => {
  it('its bearer has a 4+ invulnerable save; without it none', () => {
    const g = sandbox([
      { id: 'C', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 10 }, wargear: [['Shield Generator']] },
      { id: 'N', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 20 } },
      GD,
    ]);
    expect(invulnerableOf(g.state, shown(g, 'C'), shown(g, 'C').models[0])).toBe(4);
    expect(invulnerableOf(g.state, shown(g, 'N'), shown(g, 'N').models[0])).toBeNull();
  });
});

describe('Support Systems as wargear', () => {
  it('Weapon Support System: the bearer\'s ranged attacks ignore Hit roll modifiers; another Commander\'s do not', () => {
    const g = sandbox([
      { id: 'W', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 10, y: 10 }, wargear: [['Weapon Support System']] },
      { id: 'N', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 10, y: 20 } },
      GD,
    ]);
    const gun = shown(g, 'W').models[0].weapons.find((w) => w !== 'Battlesuit fists')!;
    expect(planFor(g, 'W', 'GD', gun).ignoreHitModifiers).toBe(true);
    expect(planFor(g, 'N', 'GD', gun).ignoreHitModifiers).toBe(false);
  });

  it('Weapon Support System in a Crisis team: the bearer fires in an attack group of its own (its Hit rolls apart), which ignores Hit roll modifiers', () => {
    const hitRolls = (wargear: string[][]) => {
      const g = sandbox([{ id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 10, y: 10 }, spacing: 2, wargear }, { ...GD, at: { x: 22, y: 12 } }]);
      shootWithUnit(g, shown(g, 'CB'));
      return (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').map((e) => (e as { values: number[] }).values.length);
    };
    const split = hitRolls([['Weapon Support System']]);
    const whole = hitRolls([]);
    // one burst cannon group without the wargear; the Shas'vre's apart with it, the same dice in all
    expect(whole).toHaveLength(1);
    expect(split).toHaveLength(2);
    expect(split[0] + split[1]).toBe(whole[0]);
  });

  it('Battlesuit Support System: after a Fall Back the bearer\'s unit may shoot, with the bearers only; without it not at all', () => {
    const crisis = (wargear: string[][]) => {
      const g = sandbox([{ id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 10, y: 10 }, spacing: 2, wargear }, { ...GD, at: { x: 22, y: 12 } }]);
      g.emit({ type: 'unit-moved', unit: 'CB', mode: 'fall-back' });
      return g;
    };
    const g = crisis([['Battlesuit Support System']]);
    // the composition's first line is one model (the Shas'vre) or the whole unit: only the models carrying it shoot
    const bearers = shown(g, 'CB').models.filter((m) => m.wargear?.includes('Battlesuit Support System')).map((m) => m.id);
    expect(bearers.length).toBeGreaterThan(0);
    expect(bearers.length).toBeLessThan(shown(g, 'CB').models.length);
    expect(allows(g.state, shown(g, 'CB'), 'shoot-after-fall-back')).toBe(true);
    expect(canShoot(g, shown(g, 'CB'))).toBe(true);
    shootWithUnit(g, shown(g, 'CB'));
    const shooters = new Set((g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').map((e) => (e as { unit: string }).unit));
    expect([...shooters]).toEqual(['CB']);
    const hitDice = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
    const none = crisis([]);
    expect(allows(none.state, shown(none, 'CB'), 'shoot-after-fall-back')).toBe(false);
    expect(canShoot(none, shown(none, 'CB'))).toBe(false);
    // the same unit not having Fallen Back shoots with every model: more Hit rolls than the bearers made
    const all = sandbox([{ id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 10, y: 10 }, spacing: 2, wargear: [['Battlesuit Support System']] }, { ...GD, at: { x: 22, y: 12 } }]);
    shootWithUnit(all, shown(all, 'CB'));
    const allDice = (all.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit').reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
    expect(hitDice).toBeGreaterThan(0);
    expect(allDice).toBe(hitDice * shown(all, 'CB').models.length / bearers.length);
  });
});

describe("Shadowsun's drones", () => {
  it('Advanced Guardian Drone: -1 to wound for ranged attacks at her unit; not in melee, not at another unit', () => {
    const g = sandbox([
      { id: 'S', player: 0, faction: 'tau', name: 'Commander Shadowsun', at: { x: 10, y: 20 } },
      { id: 'C', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 10, y: 30 } },
      { ...GD, at: { x: 20, y: 20 } },
    ]);
    expect(planFor(g, 'GD', 'S', 'Shuriken catapult').woundModifier).toBe(-1);
    expect(planFor(g, 'GD', 'C', 'Shuriken catapult').woundModifier).toBe(0);
    expect(planFor(g, 'GD', 'S', 'Close combat weapon').woundModifier).toBe(0);
  });

  it('Command-link Drone: a Stratagem on a T\'AU EMPIRE unit within 6" of her rolls a D6, 5+ gains 1CP; a 4 does not; beyond 6" no roll', () => {
    const strat = allStratagems().find((s) => s.name === 'GO TO GROUND')!;
    const run = (gap: number, dice: number[]) => {
      const stream = scriptedStream(dice);
      const g = sandbox([
        { id: 'S', player: 0, faction: 'tau', name: 'Commander Shadowsun', at: { x: 10, y: 20 } },
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10 + gap, y: 20 }, spacing: 1 },
        GD,
      ], { stream });
      g.emit({ type: 'cp', player: 0, delta: 3, reason: 'test' });
      const cp = g.state.players[0].cp;
      useStratagem(g, { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['ST'] }, 0, strat, shown(g, 'ST'));
      return { spent: cp - g.state.players[0].cp, left: stream.remaining() };
    };
    expect(run(4, [5])).toEqual({ spent: 0, left: 0 });
    expect(run(4, [4])).toEqual({ spent: 1, left: 0 });
    expect(run(12, [5])).toEqual({ spent: 1, left: 1 });
  });
});

describe("Pathfinders' drones", () => {
  const pathfinders = (wargear: string[]) => sandbox([
    { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 10, y: 10 }, spacing: 1, wargear: [wargear] },
    { ...GD, at: { x: 16, y: 10 } },
  ]);

  it('Grav-inhibitor Drone: -2 to the Charge roll of a unit charging its unit; not cumulative with the charger\'s own reductions', () => {
    const g = pathfinders(['Grav-inhibitor Drone']);
    expect(chargeRollModifier(g.state, shown(g, 'GD'), [shown(g, 'PF')])).toBe(-2);
    const none = pathfinders([]);
    expect(chargeRollModifier(none.state, shown(none, 'GD'), [shown(none, 'PF')])).toBe(0);
    g.addEffect('Photon Grenades', 0, 'GD', g.untilEndOfPhase());
    expect(chargeRollModifier(g.state, shown(g, 'GD'), [shown(g, 'PF')])).toBe(-2);
  });

  it('Pulse Accelerator Drone: +6" to the unit\'s pulse carbines; not to its pulse pistols', () => {
    const range = (g: Game, weapon: string) => weaponRange(g.state, shown(g, 'PF'), g.state.datasheets[shown(g, 'PF').datasheet].weapons.find((w) => w.name === weapon)!.profiles[0]);
    const g = pathfinders(['Pulse Accelerator Drone']);
    const none = pathfinders([]);
    expect(range(g, 'Pulse carbine')).toBe(range(none, 'Pulse carbine') + 6);
    expect(range(g, 'Pulse pistol')).toBe(range(none, 'Pulse pistol'));
  });

  it('Recon Drone: its bearer carries a drone burst cannon, and the unit has Infiltrators', () => {
    const g = pathfinders(['Recon Drone']);
    const [bearer, other] = shown(g, 'PF').models;
    expect(modelWeapons(g.state, shown(g, 'PF'), bearer)).toContain('Drone burst cannon');
    expect(modelWeapons(g.state, shown(g, 'PF'), other)).not.toContain('Drone burst cannon');
    expect(canInfiltrate(g.state, shown(g, 'PF'))).toBe(true);
    const none = pathfinders([]);
    expect(modelWeapons(none.state, shown(none, 'PF'), shown(none, 'PF').models[0])).not.toContain('Drone burst cannon');
    expect(canInfiltrate(none.state, shown(none, 'PF'))).toBe(false);
  });
});

describe('other drones', () => {
  it('MV15 Gun Drone: the Twin Lance\'s suits carry a twin pulse blaster', () => {
    const g = sandbox([{ id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 10, y: 10 } }, GD]);
    for (const m of shown(g, 'TL').models) expect(modelWeapons(g.state, shown(g, 'TL'), m)).toContain('Twin pulse blaster');
  });

  it('Markerlight: Heavy Gun Drones with it have the MARKERLIGHT keyword', () => {
    const g = sandbox([{ id: 'HG', player: 0, faction: 'tau', name: 'Heavy Gun Drones', at: { x: 10, y: 10 } }, GD]);
    expect(shown(g, 'HG').keywords).toContain('MARKERLIGHT');
    const without = sandbox([{ id: 'HG', player: 0, faction: 'tau', name: 'Heavy Gun Drones', at: { x: 10, y: 10 }, wargear: [[]] }, GD]);
    expect(without.state.units.HG.keywords).not.toContain('MARKERLIGHT');
  });

  it('Hover Drone: the Ethereal\'s Move is 10"; 6" without it', () => {
    const move = (wargear: string[][]) => {
      const g = sandbox([{ id: 'E', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 10, y: 10 }, wargear }, GD]);
      return characteristic(g.state, shown(g, 'E'), shown(g, 'E').models[0], 'M');
    };
    expect(move([['Hover Drone']])).toBe(10);
    expect(move([])).toBe(6);
  });

  it('Hover Drone: the bearer has FLY: it moves over a wall of enemy models; his unit has the keyword, a unit he leads does not move as FLY', () => {
    // twenty Kroot in a wall from y 0 to 19 at x 14; the Ethereal at (10, 10) moves toward (18, 10), up to 10"
    const ethereal = (wargear: string[][]) => battleSandbox([
      { id: 'E', player: 0, faction: 'tau', name: 'Ethereal', at: { x: 10, y: 10 }, wargear },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 4, y: 30 } },
      { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 14, y: 0 }, counts: [20, 0], spacing: 1 },
    ], { phase: 'movement' });
    const end = (g: Game) => {
      const plan = planUnit(g.state, g.state.units.E, 'normal', { destination: { x: 18, y: 10 }, maxDistance: 10 });
      return plan.ok ? plan.positions[0] : null;
    };
    const flying = ethereal([['Hover Drone']]);
    expect(flying.state.units.E.keywords).toContain('FLY');
    expect(allModelsHave(flying.state, flying.state.units.E, 'FLY')).toBe(true);
    const over = end(flying)!;
    expect(Math.hypot(over.x - 18, over.y - 10)).toBeLessThan(1);
    const walking = ethereal([]);
    expect(walking.state.units.E.keywords).not.toContain('FLY');
    const short = end(walking);
    expect(short === null || short.x < 14).toBe(true);
    // leading the Strike Team: the Attached unit has every keyword of its models, but not every model can FLY
    flying.emit({ type: 'unit-attached', leader: 'E', bodyguard: 'ST' });
    const led = flying.state.units.ST;
    expect(led.keywords).toContain('FLY');
    expect(allModelsHave(flying.state, led, 'FLY')).toBe(false);
    expect(modelHasKeyword(flying.state, led.models.find((m) => m.origin === 'E')!, 'FLY')).toBe(true);
  });

  it('Oversight Drone: once per battle, chosen when the unit is selected to shoot: IGNORES COVER this phase', () => {
    const asked: string[] = [];
    const pick = (r: DecisionRequest) => { asked.push(r.kind); return r.kind === 'oversight-drone' ? 1 : 0; };
    const vespid = (wargear: string[][]) => sandbox([
      { id: 'V', player: 0, faction: 'tau', name: 'Vespid Stingwings', at: { x: 10, y: 10 }, spacing: 1, wargear },
      { ...GD, at: { x: 18, y: 10 } },
    ], { agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
    const g = vespid([['Oversight Drone']]);
    expect(planFor(g, 'V', 'GD', 'Neutron blaster').ignoresCover).toBe(false);
    shootWithUnit(g, shown(g, 'V'));
    expect(asked.filter((k) => k === 'oversight-drone')).toHaveLength(1);
    expect(planFor(g, 'V', 'GD', 'Neutron blaster').ignoresCover).toBe(true);
    // used: the next time it is selected to shoot (a new phase) it is not offered
    g.emit({ type: 'phase-started', phase: 'shooting', player: 0 } as never);
    const before = asked.length;
    g.emit({ type: 'unit-flag', unit: 'V', flag: 'shot', value: false });
    shootWithUnit(g, shown(g, 'V'));
    expect(asked.slice(before)).not.toContain('oversight-drone');
    const none = vespid([]);
    shootWithUnit(none, shown(none, 'V'));
    expect(asked.slice(before)).not.toContain('oversight-drone');
  });

  it('Blacklight Marker Drones: twice per battle, the Guided unit of Shas\'o R\'alai\'s Observer unit re-rolls Wound rolls of 1 at the Spotted unit', () => {
    const g = sandbox([
      { id: 'R', player: 0, faction: 'tau', name: "Shas'o R'alai", at: { x: 10, y: 14 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 20 }, spacing: 1 },
      { ...GD, at: { x: 26, y: 18 } },
    ], { agents: [scriptedAgent('tau', (r) => (r.kind === 'for-the-greater-good' ? Math.max(0, (r.options as { observer?: string }[]).findIndex((o) => o.observer === 'R')) : r.kind === 'blacklight-marker-drones' ? 1 : 0)), scriptedAgent('ae')] });
    shootWithUnit(g, shown(g, 'ST'));
    expect(g.state.effects.some((e) => e.kind === GUIDED && e.unit === 'ST' && e.params.observer === 'R')).toBe(true);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollWounds).toBe('ones');
    expect(g.state.effects.filter((e) => e.kind === 'Blacklight Marker Drones used')).toHaveLength(1);
    // the next two Shooting phases (the pair's effects ended with the phase): a second use, then none left
    const asked: number[] = [];
    for (const round of [3, 4]) {
      expireEffects(g, { at: 'end-of-phase', round: g.state.round, turn: 0, phase: 'shooting' });
      g.emit({ type: 'round-started', round });
      g.emit({ type: 'unit-flag', unit: 'ST', flag: 'shot', value: false });
      const before = g.state.effects.filter((e) => e.kind === 'Blacklight Marker Drones used').length;
      shootWithUnit(g, shown(g, 'ST'));
      asked.push(g.state.effects.filter((e) => e.kind === 'Blacklight Marker Drones used').length - before);
      expect(g.state.effects.some((e) => e.kind === GUIDED && e.unit === 'ST' && e.params.observer === 'R')).toBe(true);
    }
    expect(asked).toEqual([1, 0]);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollWounds).toBe('none');
  });

  it('Baggage Harness: KROOT units within 3" of the Great Knarloc carrying it have SUSTAINED HITS 1 with ranged weapons; not beyond 3", not other units', () => {
    const g = (gap: number, wargear: string[][] = [['Baggage Harness']]) => sandbox([
      { id: 'K', player: 0, faction: 'tau', name: 'Great Knarloc', at: { x: 10, y: 10 }, wargear },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 10 + gap }, spacing: 1 },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10 + gap, y: 10 }, spacing: 1 },
      { ...GD, at: { x: 30, y: 20 } },
    ]);
    expect(planFor(g(4), 'KC', 'GD', 'Kroot rifle').sustainedHits).toBe(1);
    expect(planFor(g(4), 'ST', 'GD', 'Pulse rifle').sustainedHits).toBe(0);
    expect(planFor(g(9), 'KC', 'GD', 'Kroot rifle').sustainedHits).toBe(0);
    expect(planFor(g(4, []), 'KC', 'GD', 'Kroot rifle').sustainedHits).toBe(0);
  });
});

describe('Homing Beacon', () => {
  const window = { name: 'phase/end' as const, unit: null, targets: [], data: { phase: 'movement' } };
  const setup = (wargear: string[][]) => {
    const g = sandbox([
      { id: 'SB', player: 0, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 30, y: 22 }, spacing: 1.5, wargear },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 5 }, spacing: 1 },
      { ...GD, at: { x: 55, y: 22 } },
    ], { phase: 'movement', turn: 1, round: 2 });
    g.emit({ type: 'unit-location', unit: 'ST', location: 'strategic-reserves', embarkedIn: null });
    return g;
  };
  const beacon = (g: Game) => usableStratagems(g, window, 0).filter((x) => x.s.name === 'RAPID INGRESS' && x.s.source === 'Homing Beacon');

  it('once per battle: RAPID INGRESS for 0CP, the unit set up within 3" of the bearer\'s unit and more than 9" from the enemy', () => {
    const g = setup([['Homing Beacon']]);
    expect(g.state.players[0].cp).toBe(0);
    const offered = beacon(g);
    expect(offered.map((x) => [x.unit.id, x.cp])).toEqual([['ST', 0]]);
    useStratagem(g, window, 0, offered[0].s, offered[0].unit);
    const st = g.state.units.ST;
    expect(st.location).toBe('battlefield');
    const sb = g.state.units.SB.models.filter((m) => m.alive).map((m) => modelBody(g.state, m));
    // within 3" (a model of it within 3" of a model of the bearer's unit), every model more than 9" from the enemy
    expect(st.models.some((m) => sb.some((b) => isWithin(modelBody(g.state, m), b, 3)))).toBe(true);
    for (const m of st.models) for (const e of g.state.units.GD.models) expect(isWithin(modelBody(g.state, m), modelBody(g.state, e), 9)).toBe(false);
    expect(g.state.players[0].stratagemsUsed.map((u) => [u.name, u.cp])).toEqual([['RAPID INGRESS', 0]]);
    // used: another unit in Reserves is not offered it again (a later battle round)
    g.emit({ type: 'unit-location', unit: 'ST', location: 'strategic-reserves', embarkedIn: null });
    g.emit({ type: 'round-started', round: 3 });
    expect(beacon(g)).toEqual([]);
  });

  it('without the beacon it is not offered', () => {
    expect(beacon(setup([]))).toEqual([]);
  });

  it('not in the first battle round (Reserves arrive from the second: audit 19 mutant N13)', () => {
    const g = setup([['Homing Beacon']]);
    g.emit({ type: 'round-started', round: 1 });
    expect(beacon(g)).toEqual([]);
    g.emit({ type: 'round-started', round: 2 });
    expect(beacon(g).map((x) => x.unit.id)).toEqual(['ST']);
  });
});

describe('Blacklight Marker Drones are used twice per battle by the bearer', () => {
  it('Shas\'o R\'alai spends both uses leading the XV9s; alone after they are destroyed, he has none left', () => {
    let observer = 'XV';
    const g: Game = battleSandbox([
      { id: 'R', player: 0, faction: 'tau', name: "Shas'o R'alai", at: { x: 10, y: 12 } },
      { id: 'XV', player: 0, faction: 'tau', name: 'Xv9 Hazard Battlesuits', at: { x: 10, y: 14 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 20 }, spacing: 1 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 26, y: 18 } },
    ], {
      phase: 'shooting', round: 2,
      agents: [scriptedAgent('tau', (r) => (r.kind === 'for-the-greater-good' ? Math.max(0, (r.options as { observer?: string }[]).findIndex((o) => o.observer === observer)) : r.kind === 'blacklight-marker-drones' ? 1 : 0)), scriptedAgent('ae')],
    });
    g.emit({ type: 'unit-attached', leader: 'R', bodyguard: 'XV' });
    const uses = () => g.state.effects.filter((e) => e.kind === 'Blacklight Marker Drones used').length;
    const nextRound = (round: number) => {
      expireEffects(g, { at: 'end-of-phase', round: g.state.round, turn: 0, phase: 'shooting' });
      g.emit({ type: 'round-started', round });
      g.emit({ type: 'unit-flag', unit: 'ST', flag: 'shot', value: false });
    };
    shootWithUnit(g, g.state.units.ST);
    nextRound(3);
    shootWithUnit(g, g.state.units.ST);
    expect(uses()).toBe(2);
    const xv = g.state.units.XV;
    for (const m of xv.models.filter((x) => x.origin === 'XV' && x.alive)) destroyModel(g, xv, m, 'GD', 'damage');
    splitAttachedUnits(g);
    expect(g.state.units.R.components.length).toBe(1);
    observer = 'R';
    nextRound(4);
    shootWithUnit(g, g.state.units.ST);
    expect(g.state.effects.find((e) => e.kind === 'Guided unit' && e.unit === 'ST')?.params.observer).toBe('R');
    expect(uses()).toBe(2);
  });
});
