/**
 * T'au Empire datasheet abilities of the Commanders, Crisis Fireknife Battlesuits and Ghostkeel of the real
 * army lists (src/factions/tau/commanders.ts, Stealth Drones in battlesuits.ts), and the rule of their
 * detachment, the Experimental Prototype Cadre (detachments.ts): one test (or more) each, that fails if the ability is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { commandPhase } from '../../src/rules/battle/command.ts';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { stealthDronesUsed } from '../../src/factions/tau/battlesuits.ts';
import { planFor } from '../helpers/plan.ts';
import type { Game } from '../../src/core/game.ts';
import { weaponHas, weaponRange } from '../../src/core/rules-registry.ts';
import { maxRange } from '../../src/ai/evaluate.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { openWindow, stratagemDiscount, usableStratagems, type Window } from '../../src/rules/windows.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { canShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { createStream } from '../../src/core/rng.ts';
import { unitMove } from '../../src/rules/battle/units.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { saveNeeded } from '../../src/rules/attack-plan.ts';
import { auraRules } from '../../src/rules/factions.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';

function sandbox(units: PlacedUnit[]): Game {
  return battleSandbox(units, { phase: 'shooting' });
}

/** Crisis Fireknife Battlesuits (FK), led by `leader` (LD) when `attached`, and Guardian Defenders (GD) 20" away. */
function ledFireknives(leader: string, attached = true): Game {
  const g = sandbox([
    { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 10, y: 5 } },
    { id: 'LD', player: 0, faction: 'tau', name: leader, at: { x: 12, y: 8 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
  ]);
  if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'FK' });
  return g;
}

describe('Commander in Coldstar Battlesuit', () => {
  it('Coldstar Commander: the unit he leads has Move 12" and ASSAULT ranged weapons; alone the Crisis suits have neither', () => {
    const g = ledFireknives('Commander In Coldstar Battlesuit');
    const FK = g.state.units.FK;
    expect(unitMove(g.state, FK)).toBe(12);
    const rifle = g.state.datasheets[FK.models[0].datasheet].weapons.find((w) => w.name === 'Plasma rifle')!.profiles[0];
    const fists = g.state.datasheets[FK.models[0].datasheet].weapons.find((w) => w.name === 'Battlesuit fists')!.profiles[0];
    expect(weaponHas(g.state, FK, rifle, 'ASSAULT')).toBe(true);
    expect(weaponHas(g.state, FK, fists, 'ASSAULT')).toBe(false);
    // so the unit may shoot after Advancing
    g.emit({ type: 'unit-moved', unit: 'FK', mode: 'advance', advanceRoll: 3 });
    expect(canShoot(g, g.state.units.FK)).toBe(true);

    const alone = ledFireknives('Commander In Coldstar Battlesuit', false);
    expect(unitMove(alone.state, alone.state.units.FK)).toBe(10);
    expect(weaponHas(alone.state, alone.state.units.FK, rifle, 'ASSAULT')).toBe(false);
    alone.emit({ type: 'unit-moved', unit: 'FK', mode: 'advance', advanceRoll: 3 });
    expect(canShoot(alone, alone.state.units.FK)).toBe(false);
  });
});

describe('Commander in Enforcer Battlesuit', () => {
  it('Enforcer Commander: ranged attacks against the unit he leads have AP worsened by 1, never past 0; not melee, not alone', () => {
    const g = ledFireknives('Commander In Enforcer Battlesuit');
    // Guardian Defenders' Shuriken catapult is AP -1; their Close combat weapon AP 0
    expect(planFor(g, 'GD', 'FK', 'Shuriken catapult').ap).toBe(0);
    expect(planFor(g, 'GD', 'FK', 'Close combat weapon').ap).toBe(0);
    const alone = ledFireknives('Commander In Enforcer Battlesuit', false);
    expect(planFor(alone, 'GD', 'FK', 'Shuriken catapult').ap).toBe(-1);
    // the save a 3+ Crisis suit needs: 3 against AP 0 (led), 4 against AP -1 (alone)
    expect(saveNeeded(planFor(g, 'GD', 'FK', 'Shuriken catapult'), 3, null)).toBe(3);
    expect(saveNeeded(planFor(alone, 'GD', 'FK', 'Shuriken catapult'), 3, null)).toBe(4);
  });
});

describe('Commander Farsight', () => {
  it('Way of the Short Blade: +1 to wound for the unit he leads against an enemy unit within 9"; not beyond, not alone', () => {
    const g = ledFireknives('Commander Farsight');
    expect(planFor(g, 'FK', 'GD', 'Plasma rifle', { distance: 9 }).woundModifier).toBe(1);
    expect(planFor(g, 'FK', 'GD', 'Plasma rifle', { distance: 9.5 }).woundModifier).toBe(0);
    expect(planFor(g, 'FK', 'GD', 'Battlesuit fists', { distance: 0 }).woundModifier).toBe(1);
    const alone = ledFireknives('Commander Farsight', false);
    expect(planFor(alone, 'LD', 'GD', 'High-intensity plasma rifle', { distance: 6 }).woundModifier).toBe(0);
  });

  it('Way of the Short Blade, model by model: his unit\'s missile pods split at 9" (one Hit roll for the Fireknife within, one for those beyond); alone, one', () => {
    const hitRolls = (attached: boolean) => {
      const g = ledFireknives('Commander Farsight', attached);
      const fk = g.state.units.FK.models.filter((m) => m.origin === 'FK');
      // one Fireknife 7" from the Guardians, the others 14" and more (all within the missile pods' half range)
      g.emit({ type: 'models-placed', unit: 'FK', mode: 'test', positions: fk.map((m, i) => ({ model: m.id, pos: i === 0 ? { x: 22, y: 5, z: 0 } : { x: 15, y: 5 + 2 * i, z: 0 } })) });
      shootWithUnit(g, g.state.units.FK);
      return (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit' && (e as { unit: string }).unit === 'FK' && /^Missile pod/.test((e as { label?: string }).label ?? '')).map((e) => (e as { values: number[] }).values.length);
    };
    const led = hitRolls(true);
    const alone = hitRolls(false);
    expect(alone).toHaveLength(1);
    expect(led).toHaveLength(2);
    expect(led[0] + led[1]).toBe(alone[0]);
  });

  it("Puretide's Teachings: once per battle round a stratagem on his unit may cost 1 CP less; not on another unit", () => {
    const g = sandbox([
      { id: 'FS', player: 0, faction: 'tau', name: 'Commander Farsight', at: { x: 10, y: 5 } },
      { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 10, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ]);
    const overwatch = allStratagems().find((s) => s.name === 'FIRE OVERWATCH')!;
    const d = stratagemDiscount(g, g.state.units.FS, overwatch);
    expect([d?.rule.name, d?.amount]).toEqual(["Puretide's Teachings", 1]);
    expect(stratagemDiscount(g, g.state.units.FK, overwatch)).toBeNull();
    d!.rule.stratagemDiscountUsed!(g, g.state.units.FS, d!.src);
    expect(stratagemDiscount(g, g.state.units.FS, overwatch)).toBeNull();
    g.emit({ type: 'round-started', round: 2 });
    expect(stratagemDiscount(g, g.state.units.FS, overwatch)?.amount).toBe(1);
  });
});

describe('Commander Shadowsun', () => {
  function shadowsun(): Game {
    return sandbox([
      { id: 'SS', player: 0, faction: 'tau', name: 'Commander Shadowsun', at: { x: 10, y: 5 } },
      { id: 'NEAR', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 5 } },
      { id: 'FAR', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 13, y: 10 } },
    ]);
  }

  it('Hero of the Empire (Aura): ranged attacks of friendly T\'au units within 6" of her (hers too) re-roll Hit rolls of 1', () => {
    const g = shadowsun();
    expect(planFor(g, 'NEAR', 'GD', 'Pulse rifle').rerollHits).toBe('ones');
    expect(planFor(g, 'SS', 'GD', 'Flechette launcher').rerollHits).toBe('ones');
    expect(planFor(g, 'FAR', 'GD', 'Pulse rifle').rerollHits).toBe('none');
    expect(planFor(g, 'NEAR', 'GD', 'Close combat weapon').rerollHits).toBe('none');
    // not the enemy's units near her
    expect(unitDistance(g.state, g.state.units.SS, g.state.units.DA)).toBeLessThan(6);
    expect(unitDistance(g.state, g.state.units.SS, g.state.units.FAR)).toBeGreaterThan(6);
    expect(planFor(g, 'DA', 'NEAR', 'Avenger shuriken catapult').rerollHits).toBe('none');
    // gone from the battlefield, no aura
    g.emit({ type: 'unit-location', unit: 'SS', location: 'reserves', embarkedIn: null });
    expect(planFor(g, 'NEAR', 'GD', 'Pulse rifle').rerollHits).toBe('none');
  });

  it('the aura is one of her player\'s rules only when the army has her (her Command-link Drone\'s too)', () => {
    const tau = loadFactionCatalog('TAU');
    expect(auraRules([tau.byName('Strike Team')!, tau.byName('Commander Shadowsun')!, tau.byName('Commander Shadowsun')!])).toEqual(['Hero of the Empire (Aura)', 'Command-link Drone (Aura)']);
    expect(auraRules([tau.byName('Strike Team')!, tau.byName('Commander Farsight')!])).toEqual([]);
    expect(shadowsun().state.players.map((p) => p.rules.includes('Hero of the Empire (Aura)'))).toEqual([true, false]);
  });

  it('Agile Combatant: she may shoot in a turn in which she Fell Back; a Strike Team may not', () => {
    const g = shadowsun();
    g.emit({ type: 'unit-moved', unit: 'SS', mode: 'fall-back' });
    g.emit({ type: 'unit-moved', unit: 'NEAR', mode: 'fall-back' });
    expect(canShoot(g, g.state.units.SS)).toBe(true);
    expect(canShoot(g, g.state.units.NEAR)).toBe(false);
  });
});

describe('Crisis Fireknife Battlesuits', () => {
  it('Fireknife: ranged attacks re-roll Hit rolls of 1, any failed Hit roll against a unit at its Starting Strength; not melee', () => {
    const g = ledFireknives('Commander Farsight', false);
    expect(planFor(g, 'FK', 'GD', 'Plasma rifle').rerollHits).toBe('failed');
    expect(planFor(g, 'FK', 'GD', 'Battlesuit fists').rerollHits).toBe('none');
    const GD = g.state.units.GD;
    g.emit({ type: 'model-destroyed', unit: 'GD', model: GD.models[GD.models.length - 1].id, by: null, reason: 'test' });
    expect(planFor(g, 'FK', 'GD', 'Plasma rifle').rerollHits).toBe('ones');
  });
});

describe('Ghostkeel Battlesuit', () => {
  /** Fire Dragons 10" from a Ghostkeel; `pick` answers its player's stealth-drones requests. */
  function ghostkeel(dice: number[], pick: (options: number[]) => number, asked: number[][] = [], heuristic = false): Game {
    const scripted = scriptedAgent('tau', (r) => { if (r.kind !== 'stealth-drones') return 0; asked.push(r.options as number[]); return pick(r.options as number[]); });
    return battleSandbox([
      { id: 'GK', player: 0, faction: 'tau', name: 'Ghostkeel Battlesuit', at: { x: 10, y: 5 } },
      { id: 'FD', player: 1, faction: 'aeldari', name: 'Fire Dragons', at: { x: 20, y: 5 } },
    ], {
      phase: 'shooting', turn: 1, stream: scriptedStream(dice),
      agents: [heuristic ? createHeuristic() : scripted, scriptedAgent('ae')],
    });
  }
  /** `n` Fire Dragons fire their Dragon fusion guns (1 attack each, D6 Damage) at the Ghostkeel. */
  function fusion(g: Game, n: number, weapon = 'Dragon fusion gun'): void {
    const FD = g.state.units.FD;
    const models = FD.models.filter((m) => m.weapons.includes(weapon)).slice(0, n);
    const w = g.state.datasheets[models[0].datasheet].weapons.find((x) => x.name === weapon)!;
    resolveAttacks(g, FD, [{ weapon: w, profile: w.profiles[0], models, target: 'GK', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
  }
  const wounds = (g: Game) => g.state.units.GK.models[0].wounds;

  it('Stealth Drones: twice a battle, attacks allocated to it can be made to do nothing (no saving throw)', () => {
    // two hits (6, 6), two wounds (6, 6), both made harmless: no save or Damage dice
    const asked: number[][] = [];
    const g = ghostkeel([6, 6, 6, 6, 6, 6, 1, 4], (o) => o[o.length - 1], asked);
    fusion(g, 2);
    expect(asked).toEqual([[0, 1, 2]]);
    expect(wounds(g)).toBe(12);
    // the two uses are spent: the next attack is not asked about; save 1 fails, Damage 4
    fusion(g, 1);
    expect(asked).toHaveLength(1);
    expect(wounds(g)).toBe(8);
  });

  it('Stealth Drones against a DEVASTATING WOUNDS attack: it is allocated too, so its Damage (its mortal wounds) can be made 0 (audit 16)', () => {
    for (const use of [true, false]) {
      const asked: number[][] = [];
      const g = battleSandbox([
        { id: 'GK', player: 0, faction: 'tau', name: 'Ghostkeel Battlesuit', at: { x: 10, y: 5 } },
        { id: 'IN', player: 1, faction: 'aeldari', name: 'Illic Nightspear', at: { x: 30, y: 5 } },
      ], { phase: 'shooting', turn: 1, stream: scriptedStream([6, 6, 6, 6, 6, 6]), agents: [scriptedAgent('tau', (r) => { if (r.kind !== 'stealth-drones') return 0; asked.push(r.options as number[]); return use ? 1 : 0; }), scriptedAgent('ae')] });
      const IN = g.state.units.IN;
      const w = g.state.datasheets[IN.models[0].datasheet].weapons.find((x) => x.name === 'Voidbringer')!;
      expect(w.profiles[0].abilities.map((a) => a.name)).toContain('DEVASTATING WOUNDS');
      // hit 6, wound 6 (a Critical Wound): no save, Damage 3 as mortal wounds
      resolveAttacks(g, IN, [{ weapon: w, profile: w.profiles[0], models: [IN.models[0]], target: 'GK', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
      expect(asked).toEqual([[0, 1]]);
      expect(wounds(g)).toBe(use ? 12 : 12 - w.profiles[0].damage.plus);
    }
  });

  it('Stealth Drones declined: the attacks are saved and damage as usual', () => {
    // hits 6 6, wounds 6 6, saves 1 1 (fail), Damage 4 and 5 (above average: the Fire Dragons keep them)
    const g = ghostkeel([6, 6, 6, 6, 1, 1, 4, 5], () => 0);
    fusion(g, 2);
    expect(wounds(g)).toBe(3);
  });

  it('the heuristic spends Stealth Drones on heavy hits (mean Damage 3 or more), not on light ones', () => {
    // a Dragon fusion gun (D6 Damage): both uses on the two attacks
    const g = ghostkeel([6, 6, 6, 6], () => 0, [], true);
    fusion(g, 2);
    expect(stealthDronesUsed(g.state, g.state.units.GK)).toBe(2);
    expect(wounds(g)).toBe(12);
    // a Close combat weapon (2 attacks, Damage 1): kept; hits 6 6, wounds 6 6, both saved (6 6) as usual
    const h = ghostkeel([6, 6, 6, 6, 6, 6], () => 0, [], true);
    fusion(h, 1, 'Close combat weapon');
    expect(stealthDronesUsed(h.state, h.state.units.GK)).toBe(0);
  });
});

describe('Experimental Prototype Cadre', () => {
  function cadre(detachment: string | null): Game {
    return battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 44, y: 5 } },
    ], { phase: 'shooting', detachments: [detachment, 'Battle Host'] });
  }

  it('Superior Craftsmanship: the ranged weapons of its T\'au units have 6" more Range, in the rules and in the agents\' estimates', () => {
    const g = cadre('Experimental Prototype Cadre');
    const ST = g.state.units.ST;
    const rifle = g.state.datasheets[ST.models[0].datasheet].weapons.find((w) => w.name === 'Pulse rifle')!.profiles[0];
    expect(rifle.range).toBe(30);
    expect(weaponRange(g.state, ST, rifle)).toBe(36);
    expect(maxRange(g.state, ST)).toBe(36);
    // the Guardians are more than 30" and less than 36" away: in range only with the detachment
    const gap = unitDistance(g.state, ST, g.state.units.GD);
    expect(gap).toBeGreaterThan(30);
    expect(gap).toBeLessThan(36);
    expect(canShoot(g, ST, 'GD')).toBe(true);
    const none = cadre(null);
    expect(canShoot(none, none.state.units.ST, 'GD')).toBe(false);
    expect(maxRange(none.state, none.state.units.ST)).toBe(30);
    // not the opponent's weapons
    const GD = g.state.units.GD;
    const catapult = g.state.datasheets[GD.models[0].datasheet].weapons.find((w) => w.name === 'Shuriken catapult')!.profiles[0];
    expect(weaponRange(g.state, GD, catapult)).toBe(catapult.range);
  });

  /** A Strike Team (ST), Crisis Starscythes (CS) and Guardian Defenders (GD); `pick` answers player 1's (T'au) requests. */
  function cadreGame(turn: 0 | 1, pick: (r: DecisionRequest) => number = () => 0, detachment: string | null = 'Experimental Prototype Cadre'): Game {
    return battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Starscythe Battlesuits', at: { x: 10, y: 25 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { phase: 'shooting', turn, cp: [3, 3], detachments: [detachment, 'Battle Host'], agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
  }
  const offered = (g: Game, w: Window, p: 0 | 1) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`);
  /** Player 1 uses `name` on `unit` when offered, and answers the stratagem's own request with `choice`. */
  const using = (name: string, unit: string, choice = 0) => (r: DecisionRequest) => {
    if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name && (o as { unit?: string }).unit === unit));
    return r.kind === 'threat-assessment' || r.kind === 'experimental-ammunition' ? choice : 0;
  };
  const selected: Window = { name: 'shooting/unit-selected', unit: 'ST', targets: [] };

  it('its Shooting phase stratagems are offered for a T\'au unit selected to shoot, only in that detachment', () => {
    expect(offered(cadreGame(0), selected, 0)).toEqual(expect.arrayContaining(['EXPERIMENTAL WEAPONRY>ST', 'THREAT ASSESSMENT ANALYSER>ST', 'EXPERIMENTAL AMMUNITION>ST']));
    expect(offered(cadreGame(0, () => 0, null), selected, 0).filter((x) => /EXPERIMENTAL|THREAT/.test(x))).toEqual([]);
  });

  it('EXPERIMENTAL WEAPONRY: the unit\'s random Attacks are re-rolled this phase', () => {
    const g = cadreGame(0, using('EXPERIMENTAL WEAPONRY', 'ST'));
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollAttacks).toBe(false);
    expect(openWindow(g, selected)).toContain('EXPERIMENTAL WEAPONRY');
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollAttacks).toBe(true);
    expect(planFor(g, 'ST', 'GD', 'Close combat weapon').rerollAttacks).toBe(false);
  });

  it('THREAT ASSESSMENT ANALYSER: the chosen abilities; then EXPERIMENTAL AMMUNITION is not offered for that unit', () => {
    const g = cadreGame(0, using('THREAT ASSESSMENT ANALYSER', 'ST', 2));
    expect(openWindow(g, selected)).toContain('THREAT ASSESSMENT ANALYSER');
    const p = planFor(g, 'ST', 'GD', 'Pulse rifle');
    expect([p.sustainedHits, p.lethalHits, p.hazardous]).toEqual([1, true, true]);
    expect(offered(g, selected, 0)).not.toContain('EXPERIMENTAL AMMUNITION>ST');
    const lethal = cadreGame(0, using('THREAT ASSESSMENT ANALYSER', 'ST', 1));
    openWindow(lethal, selected);
    const q = planFor(lethal, 'ST', 'GD', 'Pulse rifle');
    expect([q.sustainedHits, q.lethalHits, q.hazardous]).toEqual([0, true, false]);
  });

  it('EXPERIMENTAL AMMUNITION: Strength +1, or Strength and AP +1 with HAZARDOUS', () => {
    const base = planFor(cadreGame(0), 'ST', 'GD', 'Pulse rifle');
    const g = cadreGame(0, using('EXPERIMENTAL AMMUNITION', 'ST', 0));
    openWindow(g, selected);
    const p = planFor(g, 'ST', 'GD', 'Pulse rifle');
    expect([p.strength, p.ap, p.hazardous]).toEqual([base.strength + 1, base.ap, false]);
    const h = cadreGame(0, using('EXPERIMENTAL AMMUNITION', 'ST', 1));
    openWindow(h, selected);
    const q = planFor(h, 'ST', 'GD', 'Pulse rifle');
    expect([q.strength, q.ap, q.hazardous]).toEqual([base.strength + 1, base.ap - 1, true]);
    expect(offered(h, selected, 0)).not.toContain('THREAT ASSESSMENT ANALYSER>ST');
  });

  it('REACTIVE IMPACT DAMPENERS: in the opponent\'s Shooting phase, a targeted BATTLESUIT unit: -1 to wound when Strength beats Toughness', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['ST', 'CS'] };
    const g = cadreGame(1, using('REACTIVE IMPACT DAMPENERS', 'CS'));
    expect(offered(g, w, 0).filter((x) => x.startsWith('REACTIVE'))).toEqual(['REACTIVE IMPACT DAMPENERS>CS']);
    expect(openWindow(g, w)).toContain('REACTIVE IMPACT DAMPENERS');
    // the Crisis suits are T5: a Shuriken catapult (S4) is not affected, a Bright lance (S12) of a War Walker would be
    const catapult = planFor(g, 'GD', 'CS', 'Shuriken catapult');
    expect(catapult.strength).toBeLessThanOrEqual(catapult.toughness);
    expect(catapult.woundModifier).toBe(0);
    // the Heavy Weapon Platform's Shuriken cannon (S6) is
    const cannon = planFor(g, 'GD', 'CS', 'Shuriken cannon');
    expect(cannon.strength).toBeGreaterThan(cannon.toughness);
    expect(cannon.woundModifier).toBe(-1);
    expect(planFor(g, 'GD', 'ST', 'Shuriken cannon').woundModifier).toBe(0);
    // not in the T'au player's own Shooting phase
    expect(offered(cadreGame(0), { ...w }, 0).filter((x) => x.startsWith('REACTIVE'))).toEqual([]);
  });

  it('the heuristic picks THREAT ASSESSMENT ANALYSER\'s better ability for the target at hand: SUSTAINED HITS against T3, LETHAL HITS against T9', () => {
    const choiceAgainst = (enemy: string) => {
      const h = createHeuristic();
      const agent = {
        name: 'heuristic, using the stratagem',
        decide: (view: Parameters<typeof h.decide>[0], r: DecisionRequest) => {
          if (r.kind === 'stratagem') return { option: Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'THREAT ASSESSMENT ANALYSER')) };
          return r.kind === 'threat-assessment' ? h.decide(view, r) : { option: 0 };
        },
      };
      const g = battleSandbox([
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
        { id: 'E', player: 1, faction: 'aeldari', name: enemy, at: { x: 25, y: 5 } },
      ], { phase: 'shooting', turn: 0, cp: [3, 3], detachments: ['Experimental Prototype Cadre', 'Battle Host'], agents: [agent, scriptedAgent('ae')] });
      openWindow(g, selected);
      return g.state.effects.find((e) => e.kind === 'Threat Assessment Analyser')?.params.choice;
    };
    // S5 pulse rifles: against T3 a hit wounds on 3+ (an extra hit is worth more than an automatic wound);
    // against T9 on 5+ (the automatic wound is worth more)
    expect(choiceAgainst('Guardian Defenders')).toBe('SUSTAINED HITS 1');
    expect(choiceAgainst('Wave Serpent')).toBe('LETHAL HITS');
  });

  it('AUTOMATED REPAIR DRONES: at the end of a Command phase a wounded BATTLESUIT model regains D3+1 wounds, not above its Wounds', () => {
    const endOfCommand: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'command' } };
    const repair = (dice: number[], lost: number) => {
      const g = battleSandbox([
        { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
        { id: 'CS', player: 0, faction: 'tau', name: 'Crisis Starscythe Battlesuits', at: { x: 10, y: 25 } },
        { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 5 } },
      ], { phase: 'command', turn: 1, cp: [3, 3], detachments: ['Experimental Prototype Cadre', 'Battle Host'], stream: scriptedStream(dice), agents: [scriptedAgent('tau', using('AUTOMATED REPAIR DRONES', 'CS')), scriptedAgent('ae')] });
      const CS = g.state.units.CS;
      if (lost) g.emit({ type: 'model-damaged', unit: 'CS', model: CS.models[1].id, wounds: lost, by: null, mortal: false });
      return g;
    };
    // 3 of its 4 wounds lost, a D3 of 1: 2 wounds back
    const g = repair([1], 3);
    expect(offered(g, endOfCommand, 0)).toContain('AUTOMATED REPAIR DRONES>CS');
    expect(openWindow(g, endOfCommand)).toContain('AUTOMATED REPAIR DRONES');
    expect(g.state.units.CS.models[1].wounds).toBe(3);
    // a D3 of 3 (4 wounds) gives back only the 1 lost
    const h = repair([3], 1);
    openWindow(h, endOfCommand);
    expect(h.state.units.CS.models[1].wounds).toBe(4);
    expect(h.log!.filter((e) => e.type === 'model-healed').map((e) => (e as { wounds: number }).wounds)).toEqual([1]);
    // nothing to repair, or not a Command phase: not offered
    expect(offered(repair([], 0), endOfCommand, 0).filter((x) => x.startsWith('AUTOMATED'))).toEqual([]);
    expect(offered(repair([], 2), { ...endOfCommand, data: { phase: 'movement' } }, 0).filter((x) => x.startsWith('AUTOMATED'))).toEqual([]);
  });

  it('AUTOMATED REPAIR DRONES at the start of the Command phase, before the Battle-shock step: a Riptide at 6 of 14 wounds (Below Half-strength) healed to 8 takes no test', () => {
    const g = battleSandbox([
      { id: 'RT', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 10 } },
    ], { phase: 'fight', turn: 1, round: 2, cp: [3, 3], detachments: ['Experimental Prototype Cadre', null], stream: scriptedStream([1, 1, 1, 1]),
      agents: [scriptedAgent('tau', using('AUTOMATED REPAIR DRONES', 'RT')), scriptedAgent('ae')] });
    const m = g.state.units.RT.models[0];
    g.emit({ type: 'model-damaged', unit: 'RT', model: m.id, wounds: m.wounds - 6, by: null, mortal: false });
    g.emit({ type: 'turn-started', round: 3, player: 0 });
    const from = g.log!.length;
    commandPhase(g, 0);
    const seen = g.log!.slice(from).flatMap((e) => (e.type === 'stratagem-used' ? [e.name] : e.type === 'dice' && e.purpose === 'battle-shock' ? ['test'] : []));
    expect(seen).toEqual(['AUTOMATED REPAIR DRONES']);
    expect([g.state.units.RT.models[0].wounds, g.state.units.RT.battleShocked]).toEqual([8, false]);
  });

  it('NEUROWEB SYSTEM JAMMER: the attacks of the attacking unit\'s models more than 18" away are lost, and they cannot select it this phase', () => {
    // Guardian Defenders 20" from Crisis Fireknives: only the platform's Shuriken cannon (24") reaches
    const jammed = (use: boolean) => battleSandbox([
      { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 31, y: 5 } },
    ], { phase: 'shooting', turn: 1, cp: [3, 3], detachments: ['Experimental Prototype Cadre', 'Battle Host'], stream: createStream('jam'),
      agents: [scriptedAgent('tau', use ? using('NEUROWEB SYSTEM JAMMER', 'FK') : () => 0), scriptedAgent('ae')] });
    const g = jammed(true);
    const gap = unitDistance(g.state, g.state.units.FK, g.state.units.GD);
    expect(gap).toBeGreaterThan(18);
    expect(gap).toBeLessThan(24);
    expect(canShoot(g, g.state.units.GD, 'FK')).toBe(true);
    shootWithUnit(g, g.state.units.GD);
    expect(g.state.players[0].stratagemsUsed.map((x) => x.name)).toEqual(['NEUROWEB SYSTEM JAMMER']);
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'hit')).toEqual([]);
    // for the rest of the phase the Guardians cannot select it from there
    g.emit({ type: 'unit-flag', unit: 'GD', flag: 'shot', value: false });
    expect(canShoot(g, g.state.units.GD, 'FK')).toBe(false);
    // not used: the cannon fires
    const h = jammed(false);
    shootWithUnit(h, h.state.units.GD);
    const GD = h.state.units.GD;
    const cannon = GD.models.find((m) => m.weapons.includes('Shuriken cannon'))!;
    const attacks = h.state.datasheets[cannon.datasheet].weapons.find((w) => w.name === 'Shuriken cannon')!.profiles[0].attacks;
    expect(attacks.n).toBe(0);
    expect(h.log!.filter((e) => e.type === 'dice' && e.purpose === 'hit').flatMap((e) => (e as { values: number[] }).values)).toHaveLength(attacks.plus);
  });
});
