/**
 * The Guardian Battlehost (src/factions/aeldari/guardian-battlehost.ts): Defend at All Costs, its six
 * stratagems and its four Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { allows, weaponHas } from '../../src/core/rules-registry.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { canInfiltrate, deployArmiesStart } from '../../src/rules/battle/pre-battle.ts';
import { currentControl, updateObjectiveControl } from '../../src/rules/battle/objectives.ts';

const GB = 'Guardian Battlehost';
/** The sandbox's one objective marker, at the middle of the board. */
const MARKER = { x: 22, y: 30 };

/** Player 0 (Aeldari) answers with `pick`; player 1 (T'au) with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; detachment?: string | null; cp?: number } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [opts.cp ?? 3, 3], detachments: [opts.detachment === undefined ? GB : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], objectives: [{ id: 'o1', pos: MARKER }], factions: ['AE', 'TAU'],
  });
}
const using = (name: string) => (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : 0);
const offered = (g: Game, w: Window, name: string) => usableStratagems(g, w, 0).filter((x) => x.s.name === name).map((x) => `${x.unit.id}:${x.cp}`);

const onMarker = (p: PlacedUnit): PlacedUnit => ({ ...p, at: { x: MARKER.x, y: MARKER.y - 1 } });
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 5 }, spacing: 0.9 };
const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 20 } };
const HB: PlacedUnit = { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 5, y: 40 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 }, spacing: 0.9 };

describe('Defend at All Costs', () => {
  it('+1 to hit for Guardians and Dire Avengers while they or their target are within range of an objective marker; not other units, not without the detachment', () => {
    const away = sandbox([GD, ST]);
    expect(planFor(away, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(0);
    const holding = sandbox([onMarker(GD), ST]);
    expect(planFor(holding, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(1);
    const targetHolds = sandbox([GD, onMarker(ST)]);
    expect(planFor(targetHolds, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(1);
    const banshees = sandbox([onMarker(HB), ST]);
    expect(planFor(banshees, 'HB', 'ST', 'Shuriken pistol').hitModifier).toBe(0);
    const none = sandbox([onMarker(GD), ST], { detachment: null });
    expect(planFor(none, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(0);
  });
});

describe('Guardian Battlehost stratagems', () => {
  it('SHIELD NODES: a targeted Guardians unit within range of a marker: -1 to wound this phase; not off the marker, not in its own turn', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['GD'] };
    expect(offered(sandbox([GD, ST], { turn: 1 }), w, 'SHIELD NODES')).toEqual([]);
    expect(offered(sandbox([onMarker(GD), ST], { turn: 0 }), w, 'SHIELD NODES')).toEqual([]);
    const g = sandbox([onMarker(GD), ST], { turn: 1 }, using('SHIELD NODES'));
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').woundModifier).toBe(0);
    expect(openWindow(g, w)).toContain('SHIELD NODES');
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').woundModifier).toBe(-1);
  });

  it('WARDING SALVOES: the unit re-rolls Wound rolls at a target within range of a marker, not at one away from it', () => {
    const g = sandbox([DA, onMarker(ST), { ...ST, id: 'S2', at: { x: 40, y: 50 } }], {}, using('WARDING SALVOES'));
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'DA', targets: [] })).toContain('WARDING SALVOES');
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').rerollWounds).toBe('failed');
    expect(planFor(g, 'DA', 'S2', 'Avenger shuriken catapult').rerollWounds).toBe('none');
  });

  it('TIME TO STRIKE: Storm Guardians Advance 6" without a roll, and may still shoot and charge', () => {
    const SG: PlacedUnit = { id: 'SG', player: 0, faction: 'aeldari', name: 'Storm Guardians', at: { x: 5, y: 5 }, spacing: 0.9 };
    const g = sandbox([SG, GD, ST], { phase: 'movement' }, using('TIME TO STRIKE'));
    const w: Window = { name: 'movement/unit-selected', unit: 'GD', targets: [] };
    expect(offered(g, w, 'TIME TO STRIKE')).toEqual([]);
    // the Storm Guardians' own guns are ASSAULT already: a bright lance's profile (not ASSAULT) shows the grant
    const gd = g.state.units.GD.models[0].datasheet;
    const lance = g.state.datasheets[gd].weapons.find((x) => x.name === 'Bright lance')!.profiles[0];
    expect(weaponHas(g.state, g.state.units.SG, lance, 'ASSAULT')).toBe(false);
    expect(openWindow(g, { ...w, unit: 'SG' })).toContain('TIME TO STRIKE');
    const rolls = (g.log ?? []).filter((e) => e.type === 'dice').length;
    expect(advanceDistance(g, g.state.units.SG)).toBe(6);
    expect((g.log ?? []).filter((e) => e.type === 'dice').length).toBe(rolls);
    expect(weaponHas(g.state, g.state.units.SG, lance, 'ASSAULT')).toBe(true);
    expect(allows(g.state, g.state.units.SG, 'charge-after-advance')).toBe(true);
  });

  it("VAUL'S VENGEANCE: once an enemy unit's attacks destroyed Guardians, War Walkers shoot it alone; once per battle round; not in the player's own Shooting phase", () => {
    const WW: PlacedUnit = { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', at: { x: 25, y: 5 } };
    const g = sandbox([WW, GD, ST], { turn: 1 }, using("VAUL'S VENGEANCE"));
    const w: Window = { name: 'shooting/after-enemy-shot', unit: 'ST', targets: ['GD'], data: { hitTargets: ['GD'], destroyed: ['GD'] } };
    expect(offered(g, { ...w, data: { hitTargets: ['GD'], destroyed: [] } }, "VAUL'S VENGEANCE")).toEqual([]);
    expect(offered(sandbox([WW, GD, ST], { turn: 0 }), w, "VAUL'S VENGEANCE")).toEqual([]);
    expect(openWindow(g, w)).toContain("VAUL'S VENGEANCE");
    // every gun of the War Walkers fired (their attacks are fixed numbers): the Hit dice add up to them
    const hitDice = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit' && (e as { unit: string }).unit === 'WW')
      .reduce((n, e) => n + (e as { values: number[] }).values.length, 0);
    const ww = g.state.units.WW;
    const guns = ww.models.flatMap((m) => m.weapons.map((n) => g.state.datasheets[m.datasheet].weapons.find((x) => x.name === n)!.profiles[0]))
      .filter((p) => p.range !== 'Melee');
    expect(guns.length > 0 && guns.every((p) => p.attacks.n === 0)).toBe(true);
    expect(hitDice).toBe(guns.reduce((n, p) => n + p.attacks.plus, 0));
    expect(g.state.units.WW.flags.shot).toBe(true);
    // once per battle round, though a War Walkers unit could shoot again
    g.emit({ type: 'unit-flag', unit: 'WW', flag: 'shot', value: false });
    expect(offered(g, w, "VAUL'S VENGEANCE")).toEqual([]);
  });

  it('BLADES OF ASURYAN: Dire Avengers within Engagement Range, without Pistols, may shoot this phase, at the unit they fight only', () => {
    const fighting = (use: boolean) => {
      const g = sandbox([{ ...DA, at: { x: 20, y: 5 }, spacing: 0.9 }, { ...ST, at: { x: 21.5, y: 5 } }, { ...ST, id: 'S2', at: { x: 35, y: 5 } }], {}, use ? using('BLADES OF ASURYAN') : () => 0);
      const w: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } };
      expect(offered(g, w, 'BLADES OF ASURYAN')).toEqual(['DA:1']);
      openWindow(g, w);
      return g;
    };
    const plain = fighting(false);
    expect(canShoot(plain, plain.state.units.DA)).toBe(false);
    const blades = fighting(true);
    expect(canShoot(blades, blades.state.units.DA, 'ST')).toBe(true);
    expect(canShoot(blades, blades.state.units.DA, 'S2')).toBe(false);
    // not offered for a unit out of combat
    expect(offered(sandbox([DA, ST]), { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } }, 'BLADES OF ASURYAN')).toEqual([]);
  });

  it('COST OF VICTORY: at the end of the opponent\'s Fight phase a Guardians unit goes into Strategic Reserves with its destroyed models back; not when engaged', () => {
    const g = sandbox([GD, ST], { phase: 'fight', turn: 1 }, using('COST OF VICTORY'));
    const gd = g.state.units.GD;
    for (const m of gd.models.slice(0, 3)) destroyModel(g, g.state.units.GD, m, 'ST', 'test');
    expect(g.state.units.GD.models.filter((m) => m.alive)).toHaveLength(8);
    const w: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    expect(openWindow(g, w)).toContain('COST OF VICTORY');
    expect(g.state.units.GD.location).toBe('strategic-reserves');
    expect(g.state.units.GD.models.filter((m) => m.alive)).toHaveLength(11);
    expect(g.state.units.GD.models.every((m) => m.wounds === characteristic(g.state, g.state.units.GD, m, 'W'))).toBe(true);
    // within Engagement Range of the Strike Team: not a target
    const engaged = sandbox([GD, { ...ST, at: { x: 6, y: 5 } }], { phase: 'fight', turn: 1 });
    expect(offered(engaged, w, 'COST OF VICTORY')).toEqual([]);
    expect(offered(sandbox([GD, ST], { phase: 'fight', turn: 0 }), w, 'COST OF VICTORY')).toEqual([]);
  });
});

describe('Guardian Battlehost Enhancements', () => {
  /** A `leader` (AU; an Autarch unless said) with `enhancement` leading `unit`. */
  const led = (unit: PlacedUnit, enhancement: string, opts: Parameters<typeof sandbox>[1] = {}, leader = 'Autarch') => {
    const g = sandbox([unit, { id: 'AU', player: 0, faction: 'aeldari', name: leader, at: { x: unit.at.x + 2, y: unit.at.y }, enhancement }, ST], opts);
    g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: unit.id });
    return g;
  };

  it("Craftworld's Champion: the bearer has OC 5; the others of its unit keep theirs", () => {
    const g = led(DA, "Craftworld's Champion");
    const u = g.state.units.DA;
    const autarch = u.models.find((m) => m.origin === 'AU')!;
    const avenger = u.models.find((m) => m.origin === 'DA')!;
    expect(characteristic(g.state, u, autarch, 'OC')).toBe(5);
    expect(characteristic(g.state, u, avenger, 'OC')).toBe(g.state.datasheets[avenger.datasheet].models[avenger.profile].oc);
  });

  it('Breath of Vaul: the Storm Guardians it leads re-roll their flamers\' attacks and fusion guns\' Damage; not alone', () => {
    const SG: PlacedUnit = { id: 'SG', player: 0, faction: 'aeldari', name: 'Storm Guardians', at: { x: 5, y: 5 }, spacing: 0.9 };
    const arm = (g: Game) => {
      // the sandbox gives the default loadout: hand a flamer and a fusion gun to two Guardians
      const [a, b] = g.state.units.SG.models.filter((m) => m.origin === 'SG');
      a.weapons.push('Flamer');
      b.weapons.push('Fusion gun');
    };
    const g = led(SG, 'Breath of Vaul');
    arm(g);
    expect(planFor(g, 'SG', 'ST', 'Flamer').rerollAttacks).toBe(true);
    expect(planFor(g, 'SG', 'ST', 'Fusion gun').rerollDamage).toBe(true);
    expect(planFor(g, 'SG', 'ST', 'Fusion gun').rerollAttacks).toBe(false);
    const alone = sandbox([SG, ST]);
    arm(alone);
    expect(planFor(alone, 'SG', 'ST', 'Flamer').rerollAttacks).toBe(false);
  });

  it('Ethereal Pathway: at the start of the Deploy Armies step up to two Guardians units get Infiltrators; not Dire Avengers, not a unit led by a Farseer', () => {
    const offered: string[][] = [];
    // the last option each time
    const pick = (r: DecisionRequest) => {
      if (r.kind !== 'ethereal-pathway') return 0;
      offered.push((r.options as { unit?: string }[]).flatMap((o) => (o.unit ? [o.unit] : [])));
      return r.options.length - 1;
    };
    const g = sandbox([
      { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 5, y: 40 }, enhancement: 'Ethereal Pathway' },
      GD, { ...GD, id: 'G2', at: { x: 8, y: 5 } }, { ...GD, id: 'G3', at: { x: 11, y: 5 } }, { ...GD, id: 'G4', at: { x: 14, y: 5 } }, DA,
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 14, y: 7 } }, ST,
    ], {}, pick);
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'G4' });
    expect(['GD', 'G2', 'G3', 'DA'].map((id) => canInfiltrate(g.state, g.state.units[id]))).toEqual([false, false, false, false]);
    deployArmiesStart(g);
    // G3, then G2; two at most; G4 (led by the Farseer) and the Dire Avengers never offered
    expect(offered).toEqual([['GD', 'G2', 'G3'], ['GD', 'G2']]);
    expect(['GD', 'G2', 'G3', 'DA'].map((id) => canInfiltrate(g.state, g.state.units[id]))).toEqual([false, true, true, false]);
    // without the Enhancement nothing is asked
    const none = sandbox([GD, ST]);
    deployArmiesStart(none);
    expect(canInfiltrate(none.state, none.state.units.GD)).toBe(false);
  });

  it('Protector of the Paths: FIRE OVERWATCH on its unit for 0CP once per battle round; its Overwatch hits on 5+, 4+ on a marker its player controls', () => {
    const w: Window = { name: 'movement/after-enemy-move', unit: 'ST', targets: [] };
    // a Farseer: an Autarch's own Path of Command would make the stratagem 1CP cheaper first
    const g = led({ ...DA, at: { x: 30, y: 5 } }, 'Protector of the Paths', { phase: 'movement', turn: 1 }, 'Farseer');
    expect(offered(g, w, 'FIRE OVERWATCH')).toEqual(['DA:1', 'DA:0']);
    g.emit({ type: 'rule-state', player: 0, key: 'Protector of the Paths', value: g.state.round });
    expect(offered(g, w, 'FIRE OVERWATCH')).toEqual(['DA:1']);
    g.addEffect('Fire Overwatch', 0, 'DA', g.untilEndOfPhase());
    const p = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult');
    expect([p.skill, p.hitModifier]).toEqual([5, 0]);
    // on the marker: 5+ until the Avengers control it (control changes as a phase or turn ends), then 4+
    const held = led(onMarker(DA), 'Protector of the Paths', { phase: 'movement', turn: 1 }, 'Farseer');
    held.addEffect('Fire Overwatch', 0, 'DA', held.untilEndOfPhase());
    expect(planFor(held, 'DA', 'ST', 'Avenger shuriken catapult').skill).toBe(5);
    updateObjectiveControl(held);
    expect(held.state.objectives[0].controller).toBe(0);
    expect(planFor(held, 'DA', 'ST', 'Avenger shuriken catapult').skill).toBe(4);
    // a Strike Team ends a move on the marker, out-controlling the Avengers by Level of Control: the marker is
    // theirs until the phase ends, so the Overwatch at it still hits on 4+
    const st = held.state.units.ST;
    held.emit({ type: 'models-placed', unit: 'ST', mode: 'normal', positions: st.models.map((m, i) => ({ model: m.id, pos: { x: MARKER.x + 2.6 + (i % 2), y: MARKER.y - 2 + Math.floor(i / 2), z: 0 } })) });
    expect(currentControl(held.state)[0]).toBe(1);
    expect(planFor(held, 'DA', 'ST', 'Avenger shuriken catapult').skill).toBe(4);
    // Overwatch without the bearer: only 6s
    const plain = sandbox([{ ...DA, at: { x: 30, y: 5 } }, ST], { phase: 'movement', turn: 1 });
    plain.addEffect('Fire Overwatch', 0, 'DA', plain.untilEndOfPhase());
    const six = planFor(plain, 'DA', 'ST', 'Avenger shuriken catapult');
    expect([six.unmodifiedHitOn, six.skill, six.hitModifier]).toEqual([6, 6, 0]);
  });
});
