/**
 * The Aspect Host (src/factions/aeldari/aspect-host.ts): Path of the Warrior, the stratagems the engine plays
 * and the four Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { weaponRange } from '../../src/core/rules-registry.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { executeMove, moveOptions } from '../../src/rules/battle/movement.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { weapon } from '../helpers/attack.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';

const AH = 'Aspect Host';

/** Player 0 (Aeldari) answers with `pick`; player 1 (T'au) with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; detachment?: string | null } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [3, 3], detachments: [opts.detachment === undefined ? AH : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], factions: ['AE', 'TAU'],
  });
}
const using = (name: string, also: (r: DecisionRequest) => number = () => 0) => (r: DecisionRequest) =>
  (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : also(r));
const offered = (g: Game, w: Window, name: string) => usableStratagems(g, w, 0).filter((x) => x.s.name === name).map((x) => x.unit.id);
const selected = (unit: string, phase: 'shooting' | 'fight' = 'shooting'): Window => ({ name: `${phase}/unit-selected`, unit, targets: [] });

const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 20 } };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 5 }, spacing: 0.9 };
const AV: PlacedUnit = { id: 'AV', player: 0, faction: 'aeldari', name: 'Avatar of Khaine', at: { x: 5, y: 40 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 }, spacing: 0.9 };

/** Answers a Path of the Warrior decision with `choice` and records the units it was asked for. */
function pathPick(choice: number, asked: string[]) {
  return (r: DecisionRequest) => {
    if (r.kind !== 'path-of-the-warrior') return 0;
    asked.push(String(r.context?.unit));
    return choice;
  };
}

describe('Path of the Warrior', () => {
  it('an Aspect Warriors unit selected to shoot: its player picks re-rolls of Hit rolls of 1 or of Wound rolls of 1 for the phase', () => {
    for (const [choice, hits, wounds] of [[0, 'ones', 'none'], [1, 'none', 'ones']] as const) {
      const asked: string[] = [];
      const g = sandbox([DA, ST], {}, pathPick(choice, asked));
      expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').rerollHits).toBe('none');
      shootWithUnit(g, g.state.units.DA);
      expect(asked).toEqual(['DA']);
      const p = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult');
      expect([p.rerollHits, p.rerollWounds]).toEqual([hits, wounds]);
    }
  });

  it('the Avatar of Khaine selected to fight is asked too', () => {
    const asked: string[] = [];
    const g = sandbox([{ ...AV, at: { x: 20, y: 17 } }, ST], { phase: 'fight' }, pathPick(1, asked));
    fight(g, g.state.units.AV);
    expect(asked).toEqual(['AV']);
    expect(planFor(g, 'AV', 'ST', 'The Wailing Doom').rerollWounds).toBe('ones');
  });

  it('the heuristic re-rolls Wound rolls of 1 for TORRENT weapons (no Hit roll), Hit rolls of 1 for SUSTAINED HITS', () => {
    const choice = (unit: PlacedUnit) => {
      const g = sandbox([{ ...unit, at: { x: 12, y: 20 } }, ST]);
      const req = { kind: 'path-of-the-warrior', player: 0 as PlayerIndex, prompt: '', options: ['hit-ones', 'wound-ones'], context: { unit: unit.id } };
      // the agent answers with the option's index
      return createHeuristic().decide({ state: g.state, player: 0 }, req).option;
    };
    expect(choice({ id: 'WS', player: 0, faction: 'aeldari', name: 'Warp Spiders', at: { x: 0, y: 0 } })).toBe(1);
    expect(choice(AV)).toBe(0);
  });

  it('not for other units, not without the detachment', () => {
    const asked: string[] = [];
    const g = sandbox([{ ...GD, at: { x: 5, y: 20 } }, ST], {}, pathPick(0, asked));
    shootWithUnit(g, g.state.units.GD);
    const none = sandbox([DA, ST], { detachment: null }, pathPick(0, asked));
    shootWithUnit(none, none.state.units.DA);
    expect(asked).toEqual([]);
    expect(planFor(none, 'DA', 'ST', 'Avenger shuriken catapult').rerollHits).toBe('none');
  });
});

describe('Aspect Host stratagems', () => {
  it('WARRIOR FOCUS: an Aspect Warriors unit\'s attacks ignore a -1 to hit this phase; not a Guardians unit', () => {
    const g = sandbox([DA, GD, ST], {}, using('WARRIOR FOCUS'));
    // a -1 to Hit rolls of attacks that target the Strike Team
    g.addEffect('Lightning-Fast Reactions', 1, 'ST', g.untilEndOfPhase());
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').hitModifier).toBe(-1);
    expect(offered(g, selected('GD'), 'WARRIOR FOCUS')).toEqual([]);
    expect(openWindow(g, selected('DA'))).toContain('WARRIOR FOCUS');
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').hitModifier).toBe(0);
    // in the opponent's turn, in the Fight phase
    expect(offered(sandbox([DA, ST], { phase: 'fight', turn: 1 }), selected('DA', 'fight'), 'WARRIOR FOCUS')).toEqual(['DA']);
  });

  it('WARRIOR FOCUS: the modifiers that hurt the BS/WS, Strength, AP and Damage are ignored too (those that help stay), and a target\'s per-model Damage reduction', () => {
    const g = sandbox([DA, ST], {});
    // BS worsened by 1 (EMP GRENADES), AP improved by 1 (FOCUSED FIREPOWER), -1 Damage (COUNTERFIRE DEFENCE SYSTEMS)
    g.addEffect('EMP Grenades', 1, 'DA', g.untilEndOfPhase());
    g.addEffect('Focused Firepower', 0, 'DA', g.untilEndOfPhase());
    g.addEffect('Counterfire Defence Systems', 1, 'ST', g.untilEndOfPhase());
    const plan = () => { const p = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult'); return [p.skill, p.ap, p.damageReduction]; };
    expect(plan()).toEqual([4, -2, 1]);
    g.addEffect('Warrior Focus', 0, 'DA', g.untilEndOfPhase());
    expect(plan()).toEqual([3, -2, 0]);
    // a Wraithknight's Scattershield takes 1 from the Damage of each attack allocated to it: not from these
    for (const [focus, lost] of [[false, 2], [true, 3]] as const) {
      const h = battleSandbox([DA, { id: 'WK', player: 1, faction: 'aeldari', name: 'Wraithknight', at: { x: 40, y: 20 } }], {
        phase: 'shooting', factions: ['AE', 'AE'], detachments: [AH, null], stream: scriptedStream([6, 1]),
      });
      if (focus) h.addEffect('Warrior Focus', 0, 'DA', h.untilEndOfPhase());
      const gun = weapon({ attacks: '1', strength: 12, ap: -4, damage: '3', abilities: ['TORRENT'] });
      const A = h.state.units.DA;
      const tally = resolveAttacks(h, A, [{ weapon: gun, profile: gun.profiles[0], models: [A.models[0]], target: 'WK', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
      expect(tally.woundsLost).toBe(lost);
    }
  });

  it('DOOM INESCAPABLE: the Avatar\'s Wailing Doom shoots at 18" with Damage 8 this phase; its melee profiles unchanged; not other units', () => {
    const g = sandbox([AV, DA, ST], {}, using('DOOM INESCAPABLE'));
    const av = g.state.units.AV;
    const doom = g.state.datasheets[av.models[0].datasheet].weapons.find((w) => w.name === 'The Wailing Doom')!;
    expect(weaponRange(g.state, av, doom.profiles[0])).toBe(12);
    expect(planFor(g, 'AV', 'ST', 'The Wailing Doom').damage).toEqual({ n: 1, sides: 6, plus: 2 });
    expect(offered(g, selected('DA'), 'DOOM INESCAPABLE')).toEqual([]);
    expect(openWindow(g, selected('AV'))).toContain('DOOM INESCAPABLE');
    expect(weaponRange(g.state, g.state.units.AV, doom.profiles[0])).toBe(18);
    expect(planFor(g, 'AV', 'ST', 'The Wailing Doom').damage).toEqual({ n: 0, sides: 0, plus: 8 });
    // the range comes with the effect on the Avatar's unit, not for every unit with the profile
    expect(weaponRange(g.state, g.state.units.DA, doom.profiles[0])).toBe(12);
  });

  it('PRETERNATURAL PRECISION: the chosen ability for the unit\'s ranged weapons this phase; not the Avatar', () => {
    for (const [i, check] of [
      [0, (g: Game) => planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').ignoresCover],
      [1, (g: Game) => planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').lethalHits],
      [2, (g: Game) => planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').sustainedHits === 1],
    ] as const) {
      const g = sandbox([DA, AV, ST], {}, using('PRETERNATURAL PRECISION', (r) => (r.kind === 'preternatural-precision' ? i : 0)));
      expect(check(g)).toBe(false);
      expect(offered(g, selected('AV'), 'PRETERNATURAL PRECISION')).toEqual([]);
      expect(openWindow(g, selected('DA'))).toContain('PRETERNATURAL PRECISION');
      expect(check(g)).toBe(true);
      const p = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult');
      // one ability only: the other two are not given
      expect([p.ignoresCover, p.lethalHits, p.sustainedHits > 0].filter(Boolean)).toHaveLength(1);
    }
  });
});

describe("KHAINE'S VENGEANCE", () => {
  const KV = "KHAINE'S VENGEANCE";
  /** Dire Avengers within Engagement Range of the Strike Team, in the T'au player's Movement phase. */
  const engaged = (pick: (r: DecisionRequest) => number = () => 0, units: PlacedUnit[] = [DA]) =>
    sandbox([...units, { ...ST, at: { x: 6.8, y: 20 } }], { phase: 'movement', turn: 1 }, pick);
  /** The Strike Team Falls Back (away from the Avengers); the Desperate Escape dice and the models they destroyed. */
  const fallBack = (g: Game) => {
    const option = moveOptions(g.state, g.state.units.ST).find((o) => o.mode === 'fall-back')!;
    const before = (g.log ?? []).length;
    executeMove(g, g.state.units.ST, option);
    const events = (g.log ?? []).slice(before);
    const dice = events.flatMap((e) => (e.type === 'dice' && e.purpose === 'desperate-escape' ? (e as { values: number[] }).values : []));
    const lost = events.filter((e) => e.type === 'model-destroyed' && e.reason === 'Desperate Escape').length;
    return { dice, lost };
  };
  const falling: Window = { name: 'movement/fall-back-selected', unit: 'ST', targets: [] };

  it('an enemy unit selected to Fall Back from an Aspect Warriors unit: every one of its models takes a Desperate Escape test', () => {
    const plain = fallBack(engaged());
    expect(plain.dice).toEqual([]);
    const g = engaged(using(KV));
    const models = g.state.units.ST.models.filter((m) => m.alive).length;
    const { dice, lost } = fallBack(g);
    expect(dice).toHaveLength(models);
    expect(lost).toBe(dice.filter((v) => v <= 2).length);
  });

  it('-1 to each test while the enemy unit is Battle-shocked', () => {
    const g = engaged(using(KV));
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    // two dice rolled first, so that the tests below meet a 3 (a pass without the -1)
    g.dice.d6(2, 'other', 1, 'ST', 'test');
    const { dice, lost } = fallBack(g);
    expect(dice.filter((v) => v === 3).length).toBeGreaterThan(0);
    expect(lost).toBe(dice.filter((v) => v <= 3).length);
  });

  it('no -1 while the enemy unit is not Battle-shocked: a 3 passes (audit 19 mutant AH01)', () => {
    const g = engaged(using(KV));
    // the same dice as the Battle-shocked case above, which meet a 3
    g.dice.d6(2, 'other', 1, 'ST', 'test');
    const { dice, lost } = fallBack(g);
    expect(dice.filter((v) => v === 3).length).toBeGreaterThan(0);
    expect(lost).toBe(dice.filter((v) => v <= 2).length);
  });

  it('not for a unit out of Engagement Range, not a Guardians unit, not in its player\'s own turn, not for a MONSTER or VEHICLE', () => {
    expect(offered(engaged(), falling, KV)).toEqual(['DA']);
    expect(offered(engaged(() => 0, [DA, { ...DA, id: 'D2', at: { x: 30, y: 40 } }]), falling, KV)).toEqual(['DA']);
    expect(offered(engaged(() => 0, [{ ...GD, at: { x: 5, y: 20 } }]), falling, KV)).toEqual([]);
    expect(offered(sandbox([DA, { ...ST, at: { x: 6.8, y: 20 } }], { phase: 'movement', turn: 0 }), falling, KV)).toEqual([]);
    const WS: PlacedUnit = { id: 'WS', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 12, y: 20 } };
    const g = sandbox([DA, WS], { phase: 'movement', turn: 1 });
    setGap(g, 'WS', 'DA', 0.5);
    expect(unitsInEngagement(g.state, g.state.units.DA, g.state.units.WS)).toBe(true);
    expect(offered(g, { ...falling, unit: 'WS' }, KV)).toEqual([]);
  });
});

describe('SKYBORNE SANCTUARY', () => {
  const WS: PlacedUnit = { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 10, y: 23 } };
  const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
  const fought = (g: Game, id: string) => { g.emit({ type: 'unit-flag', unit: id, flag: 'fought', value: true }); return g; };

  it('at the end of the Fight phase an Asuryani unit that fought embarks within a friendly transport it is wholly within 6" of', () => {
    const g = fought(sandbox([DA, WS, { ...ST, at: { x: 40, y: 40 } }], { phase: 'fight', turn: 1 }, using('SKYBORNE SANCTUARY')), 'DA');
    expect(openWindow(g, end)).toContain('SKYBORNE SANCTUARY');
    expect([g.state.units.DA.location, g.state.units.DA.embarkedIn]).toEqual(['embarked', 'WS']);
  });

  it('not a unit that did not fight, nor one within Engagement Range, nor one farther than 6" from the transport, nor at the end of another phase', () => {
    const far = { ...ST, at: { x: 40, y: 40 } };
    expect(offered(sandbox([DA, WS, far], { phase: 'fight' }), end, 'SKYBORNE SANCTUARY')).toEqual([]);
    expect(offered(fought(sandbox([DA, WS, far], { phase: 'fight' }), 'DA'), end, 'SKYBORNE SANCTUARY')).toEqual(['DA']);
    expect(offered(fought(sandbox([DA, WS, far], { phase: 'shooting' }), 'DA'), { ...end, data: { phase: 'shooting' } }, 'SKYBORNE SANCTUARY')).toEqual([]);
    expect(offered(fought(sandbox([DA, { ...WS, at: { x: 24, y: 23 } }, far], { phase: 'fight' }), 'DA'), end, 'SKYBORNE SANCTUARY')).toEqual([]);
    const engaged = fought(sandbox([DA, WS, { ...ST, at: { x: 6.8, y: 20 } }], { phase: 'fight' }), 'DA');
    expect(offered(engaged, end, 'SKYBORNE SANCTUARY')).toEqual([]);
  });

  it('not into a Battle-shocked transport: it is a target of the stratagem too', () => {
    const far = { ...ST, at: { x: 40, y: 40 } };
    const g = fought(sandbox([DA, WS, far], { phase: 'fight' }), 'DA');
    g.emit({ type: 'battle-shock', unit: 'WS', value: true });
    expect(offered(g, end, 'SKYBORNE SANCTUARY')).toEqual([]);
  });
});

describe('Aspect Host Enhancements', () => {
  /** An Autarch with `enhancement` leading `unit`. */
  const led = (unit: PlacedUnit, enhancement: string, pick: (r: DecisionRequest) => number = () => 0) => {
    const g = sandbox([unit, { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: unit.at.x + 2, y: unit.at.y }, enhancement }, ST], {}, pick);
    g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: unit.id });
    return g;
  };

  it('Aspect of Murder: the bearer\'s melee weapons have +1 Damage and PRECISION; not its pistol, not the Avengers\'', () => {
    const g = led(DA, 'Aspect of Murder');
    const glaive = planFor(g, 'DA', 'ST', 'Star glaive');
    expect([glaive.damageBonus, glaive.precision]).toEqual([1, true]);
    const pistol = planFor(g, 'DA', 'ST', 'Shuriken pistol');
    expect([pistol.damageBonus, pistol.precision]).toEqual([0, false]);
    const plain = led(DA, 'Shimmerstone');
    expect(planFor(plain, 'DA', 'ST', 'Star glaive').damageBonus).toBe(0);
  });

  it('Mantle of Wisdom: the Aspect Warriors unit the bearer leads gets both Path of the Warrior abilities, without a choice', () => {
    const asked: string[] = [];
    const g = led(DA, 'Mantle of Wisdom', pathPick(0, asked));
    shootWithUnit(g, g.state.units.DA);
    expect(asked).toEqual([]);
    const p = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult');
    expect([p.rerollHits, p.rerollWounds]).toEqual(['ones', 'ones']);
    // another Enhancement: the choice is asked, one ability
    const other = led(DA, 'Shimmerstone', pathPick(0, asked));
    shootWithUnit(other, other.state.units.DA);
    expect(asked).toEqual(['DA']);
    expect(planFor(other, 'DA', 'ST', 'Avenger shuriken catapult').rerollWounds).toBe('none');
  });

  it('Shimmerstone: ranged attacks at the Aspect Warriors unit the bearer leads get -1 to wound; not alone', () => {
    expect(planFor(led(DA, 'Shimmerstone'), 'ST', 'DA', 'Pulse rifle').woundModifier).toBe(-1);
    expect(planFor(led(DA, 'Strategic Savant'), 'ST', 'DA', 'Pulse rifle').woundModifier).toBe(0);
    expect(planFor(sandbox([DA, ST]), 'ST', 'DA', 'Pulse rifle').woundModifier).toBe(0);
  });

  it('Strategic Savant: +1 OC for the models of the Aspect Warriors unit the bearer leads, the bearer too', () => {
    const g = led(DA, 'Strategic Savant');
    const u = g.state.units.DA;
    for (const m of [u.models.find((x) => x.origin === 'AU')!, u.models.find((x) => x.origin === 'DA')!]) {
      expect(characteristic(g.state, u, m, 'OC')).toBe(g.state.datasheets[m.datasheet].models[m.profile].oc + 1);
    }
    const other = led(DA, 'Shimmerstone');
    const a = other.state.units.DA.models.find((x) => x.origin === 'DA')!;
    expect(characteristic(other.state, other.state.units.DA, a, 'OC')).toBe(other.state.datasheets[a.datasheet].models[a.profile].oc);
  });
});
