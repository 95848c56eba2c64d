/**
 * Eldritch Raiders (src/factions/aeldari/eldritch-raiders.ts): Yriel's Own, its six stratagems, its
 * Enhancements, Veterans of the Void's muster check in this detachment, and its mirror scenario. Each test
 * fails if the rule is played wrong or not at all.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { allows, weaponHas } from '../../src/core/rules-registry.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { destroyModel, feelNoPainOf } from '../../src/rules/damage.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { chargeRollModifier } from '../../src/rules/battle/charge.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { loadArmyFile, type ArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { loadScenario } from '../../src/data/scenario.ts';

const ER = 'Eldritch Raiders';
const root = join(import.meta.dirname, '..', '..');

/** Player 0 (Corsairs) answers with `pick`; player 1 (T'au) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; cp?: [number, number] } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: opts.cp ?? [4, 3], detachments: [opts.detachment === undefined ? ER : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], ...(opts.stream ? { stream: opts.stream } : {}),
  });
}

/** Use `name` whenever offered, and answer its own request `kind` with option `choice`. */

const VR: PlacedUnit = { id: 'VR', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 20, y: 20 }, spacing: 1 };
const VS: PlacedUnit = { id: 'VS', player: 0, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 10, y: 35 }, spacing: 1 };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 30 }, spacing: 0.9 };
const RG: PlacedUnit = { id: 'RG', player: 0, faction: 'aeldari', name: 'Rangers', at: { x: 10, y: 5 }, spacing: 1 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 }, spacing: 0.9 };
const HH: PlacedUnit = { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 40, y: 30 } };

const alive = (g: Game, id: string) => g.state.units[id].models.filter((m) => m.alive).length;

describe("Yriel's Own", () => {
  it('every AELDARI unit may charge after Advancing; not without the detachment', () => {
    const g = sandbox([VR, GD, ST]);
    expect(allows(g.state, g.state.units.GD, 'charge-after-advance')).toBe(true);
    expect(allows(g.state, g.state.units.VR, 'charge-after-advance')).toBe(true);
    // the opponent's units do not
    expect(allows(g.state, g.state.units.ST, 'charge-after-advance')).toBe(false);
    const none = sandbox([VR, GD, ST], { detachment: null });
    expect(allows(none.state, none.state.units.GD, 'charge-after-advance')).toBe(false);
  });

  it('ANHRATHE, RANGERS and SHROUD RUNNERS units may re-roll their Advance rolls; other units may not', () => {
    const reroll = (r: DecisionRequest) => (r.kind === 'reroll-advance' ? 1 : 0);
    for (const unit of [VR, RG]) {
      const asked: string[] = [];
      const g = sandbox([unit, ST], { phase: 'movement', stream: scriptedStream([1, 5]) }, (r) => { asked.push(r.kind); return reroll(r); });
      expect(advanceDistance(g, g.state.units[unit.id])).toBe(5);
      expect(asked).toContain('reroll-advance');
    }
    const asked: string[] = [];
    const gd = sandbox([GD, ST], { phase: 'movement', stream: scriptedStream([1]) }, (r) => { asked.push(r.kind); return reroll(r); });
    expect(advanceDistance(gd, gd.state.units.GD)).toBe(1);
    expect(asked).not.toContain('reroll-advance');
    const none = sandbox([VR, ST], { phase: 'movement', detachment: null, stream: scriptedStream([1]) }, reroll);
    expect(advanceDistance(none, none.state.units.VR)).toBe(1);
  });
});

describe('Eldritch Raiders stratagems', () => {
  it('NO PREY TOO BIG: +1 to wound when the Strength is below the highest Toughness in the target unit; offered to ANHRATHE and RANGERS units as they are selected to shoot', () => {
    const w: Window = { name: 'shooting/unit-selected', unit: 'VR', targets: [] };
    const g = sandbox([VR, GD, ST, HH], {}, using('NO PREY TOO BIG'));
    expect(offered(g, { ...w, unit: 'GD' }, 0, 'NO PREY TOO BIG')).toEqual([]);
    expect(offered(g, { ...w, unit: 'RG' }, 0, 'NO PREY TOO BIG')).toEqual([]);
    const before = [planFor(g, 'VR', 'HH', 'Shuriken pistol').woundModifier, planFor(g, 'VR', 'ST', 'Shuriken pistol').woundModifier];
    expect(openWindow(g, w)).toEqual(['NO PREY TOO BIG']);
    // Strength 4 against the Hammerhead's Toughness 10: +1; against the Strike Team's 3: nothing
    expect(planFor(g, 'VR', 'HH', 'Shuriken pistol').woundModifier).toBe(before[0] + 1);
    expect(planFor(g, 'VR', 'ST', 'Shuriken pistol').woundModifier).toBe(before[1]);
    const r = sandbox([RG, ST]);
    expect(offered(r, { ...w, unit: 'RG' }, 0, 'NO PREY TOO BIG')).toEqual(['RG']);
  });

  it("YRIEL'S EXAMPLE: an AELDARI INFANTRY unit an enemy unit targets in the Fight phase has Feel No Pain 5+ this phase", () => {
    const w: Window = { name: 'fight/after-enemy-targets', unit: 'ST', targets: ['VR'] };
    const g = sandbox([VR, { ...ST, at: { x: 21.5, y: 20 } }], { phase: 'fight', turn: 1 }, using("YRIEL'S EXAMPLE"));
    const vr = g.state.units.VR;
    expect(feelNoPainOf(g.state, vr, vr.models[0], null)).toBe(null);
    expect(openWindow(g, w)).toEqual(["YRIEL'S EXAMPLE"]);
    expect(feelNoPainOf(g.state, vr, vr.models[0], null)).toBe(5);
    expect(feelNoPainOf(g.state, vr, vr.models[0], null, true)).toBe(5);
    expireEffects(g, { at: 'end-of-phase', round: g.state.round, turn: 1, phase: 'fight' });
    expect(feelNoPainOf(g.state, vr, vr.models[0], null)).toBe(null);
    // not a unit the enemy did not target
    expect(offered(sandbox([VR, GD, ST], { phase: 'fight', turn: 1 }), { ...w, targets: ['GD'] }, 0, "YRIEL'S EXAMPLE")).toEqual(['GD']);
    expect(offered(sandbox([VR, GD, ST], { phase: 'fight', turn: 1 }), w, 0, "YRIEL'S EXAMPLE")).toEqual(['VR']);
  });

  it('WITHDRAW AND REINFORCE: at the end of the opponent\'s Fight phase an ANHRATHE unit goes into Strategic Reserves with its destroyed models back; not when engaged', () => {
    const w: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    const g = sandbox([VR, GD, ST], { phase: 'fight', turn: 1 }, using('WITHDRAW AND REINFORCE'));
    expect(offered(g, w, 0, 'WITHDRAW AND REINFORCE')).toEqual(['VR']);
    const full = alive(g, 'VR');
    for (const m of g.state.units.VR.models.slice(0, 3)) destroyModel(g, g.state.units.VR, m, 'ST', 'test');
    expect(openWindow(g, w)).toEqual(['WITHDRAW AND REINFORCE']);
    const vr = g.state.units.VR;
    expect(vr.location).toBe('strategic-reserves');
    expect(alive(g, 'VR')).toBe(full);
    expect(vr.models.every((m) => m.wounds === characteristic(g.state, vr, m, 'W'))).toBe(true);
    // engaged: not offered; in the player's own turn: not offered
    expect(offered(sandbox([VR, { ...ST, at: { x: 21.5, y: 20 } }], { phase: 'fight', turn: 1 }), w, 0, 'WITHDRAW AND REINFORCE')).toEqual([]);
    expect(offered(sandbox([VR, ST], { phase: 'fight', turn: 0 }), w, 0, 'WITHDRAW AND REINFORCE')).toEqual([]);
  });

  it('RUTHLESS KILLERS: a Corsair Voidscarred unit\'s attacks get +1 Damage this phase (its Shooting phase or a Fight phase)', () => {
    const w: Window = { name: 'fight/unit-selected', unit: 'VS', targets: [] };
    const g = sandbox([VS, VR, ST], { phase: 'fight', turn: 1 }, using('RUTHLESS KILLERS'));
    expect(offered(g, { ...w, unit: 'VR' }, 0, 'RUTHLESS KILLERS')).toEqual([]);
    const before = planFor(g, 'VS', 'ST', 'Power sword').damageBonus;
    expect(openWindow(g, w)).toEqual(['RUTHLESS KILLERS']);
    expect(planFor(g, 'VS', 'ST', 'Power sword').damageBonus).toBe(before + 1);
    expect(planFor(g, 'VS', 'ST', 'Shuriken pistol').damageBonus).toBe(before + 1);
    // the opponent's Shooting phase (a unit selected to shoot there is Fire Overwatch's): not offered
    const theirs = sandbox([VS, ST], { phase: 'shooting', turn: 1 });
    expect(offered(theirs, { name: 'shooting/unit-selected', unit: 'VS', targets: [] }, 0, 'RUTHLESS KILLERS')).toEqual([]);
    const mine = sandbox([VS, ST], { phase: 'shooting', turn: 0 });
    expect(offered(mine, { name: 'shooting/unit-selected', unit: 'VS', targets: [] }, 0, 'RUTHLESS KILLERS')).toEqual(['VS']);
  });

  it("RAIDERS' SPOILS: in a Command phase an engaged ANHRATHE unit gets +1 OC until the start of the next Command phase", () => {
    const w: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'command' } };
    // player 1's Command phase, player 0 first: the next Command phase is player 0's, next round
    const g = sandbox([VR, GD, { ...ST, at: { x: 21.5, y: 20 } }, { ...ST, id: 'S2', at: { x: 6.4, y: 30 } }], { phase: 'command', turn: 1 }, using("RAIDERS' SPOILS"));
    const vr = g.state.units.VR;
    const oc = characteristic(g.state, vr, vr.models[0], 'OC');
    expect(offered(g, w, 0, "RAIDERS' SPOILS")).toEqual(['VR']);
    expect(openWindow(g, w)).toEqual(["RAIDERS' SPOILS"]);
    expect(characteristic(g.state, vr, vr.models[0], 'OC')).toBe(oc + 1);
    const round = g.state.round;
    expireEffects(g, { at: 'start-of-command', round, player: 1 });
    expect(characteristic(g.state, vr, vr.models[0], 'OC')).toBe(oc + 1);
    expireEffects(g, { at: 'start-of-command', round: round + 1, player: 0 });
    expect(characteristic(g.state, vr, vr.models[0], 'OC')).toBe(oc);
    // not engaged: not offered
    expect(offered(sandbox([VR, ST], { phase: 'command', turn: 0 }), w, 0, "RAIDERS' SPOILS")).toEqual([]);
  });

  it('IMPEDING FIRE: at the start of the opponent\'s Charge phase a Rangers unit gives a visible enemy unit within 36" -2 to its Charge rolls, not added to other penalties', () => {
    const w: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'charge' } };
    const far = { ...ST, id: 'S2', at: { x: 10, y: 55 } };
    const g = sandbox([RG, VR, { ...ST, at: { x: 30, y: 5 } }, far], { phase: 'charge', turn: 1 }, using('IMPEDING FIRE'));
    expect(offered(g, w, 0, 'IMPEDING FIRE')).toEqual(['RG']);
    const s = g.state;
    expect(chargeRollModifier(s, s.units.ST, [s.units.VR])).toBe(0);
    expect(openWindow(g, w)).toEqual(['IMPEDING FIRE']);
    expect(chargeRollModifier(s, s.units.ST, [s.units.VR])).toBe(-2);
    // the enemy 50" away was not a choice, and is not slowed
    expect(chargeRollModifier(s, s.units.S2, [s.units.VR])).toBe(0);
    // pinned by a Monofilament Web too (-2 to its Charge rolls of its own): -2 in all, not -4
    g.addEffect('Monofilament Web (pinned)', 0, 'ST', g.untilEndOfPhase());
    expect(chargeRollModifier(s, s.units.ST, [])).toBe(-2);
    expect(chargeRollModifier(s, s.units.ST, [s.units.VR])).toBe(-2);
    // in the player's own Charge phase: not offered
    expect(offered(sandbox([RG, ST], { phase: 'charge', turn: 0 }), w, 0, 'IMPEDING FIRE')).toEqual([]);
  });
});

describe('Eldritch Raiders Enhancements', () => {
  it('Alacritous Assault: the unit\'s melee weapons have LANCE (+1 to wound after a charge); not its ranged weapons', () => {
    const g = sandbox([{ ...VR, enhancement: 'Alacritous Assault' }, { ...VS }, ST], { phase: 'fight' });
    const base = planFor(g, 'VR', 'ST', 'Power sword').woundModifier;
    g.emit({ type: 'unit-flag', unit: 'VR', flag: 'charged', value: true });
    g.emit({ type: 'unit-flag', unit: 'VS', flag: 'charged', value: true });
    expect(planFor(g, 'VR', 'ST', 'Power sword').woundModifier).toBe(base + 1);
    expect(planFor(g, 'VR', 'ST', 'Shuriken pistol').woundModifier).toBe(planFor(g, 'VS', 'ST', 'Shuriken pistol').woundModifier);
    expect(planFor(g, 'VS', 'ST', 'Power sword').woundModifier).toBe(base);
    const vr = g.state.units.VR;
    const sword = g.state.datasheets[vr.models[0].datasheet].weapons.find((x) => x.name === 'Power sword')!.profiles[0];
    expect(weaponHas(g.state, vr, sword, 'LANCE')).toBe(true);
  });

  it('Exotic Munitions: the unit\'s ranged attacks wound VEHICLE and MONSTER units critically on 5+; not INFANTRY, not its melee', () => {
    const g = sandbox([{ ...VR, enhancement: 'Exotic Munitions' }, VS, ST, HH]);
    expect(planFor(g, 'VR', 'HH', 'Shuriken pistol').criticalWoundOn).toBe(5);
    expect(planFor(g, 'VS', 'HH', 'Shuriken pistol').criticalWoundOn).toBe(6);
    expect(planFor(g, 'VR', 'ST', 'Shuriken pistol').criticalWoundOn).toBe(6);
    expect(planFor(g, 'VR', 'HH', 'Power sword').criticalWoundOn).toBe(6);
  });
});

describe('Veterans of the Void in the Eldritch Raiders, and the mirror', () => {
  const ae = loadFactionCatalog('AE');
  const army = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-corsairs.json'));
  const warn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));
  const withEnhancement = (a: ArmyFile, name: string, e: string, detachment = ER): ArmyFile => {
    const units = a.units.map((u): ArmyUnit => ({ ...u }));
    units.find((u) => u.name === name)!.enhancement = e;
    return { ...a, detachment, units };
  };

  it('a Corsair Enhancement goes on an ANHRATHE unit; Pirate Prince on Prince Yriel only; not elsewhere', () => {
    expect(warn(withEnhancement(army, 'Corsair Voidreavers', 'Exotic Munitions'))).toEqual([]);
    expect(warn(withEnhancement(army, 'Prince Yriel', 'Pirate Prince'))).toEqual([]);
    expect(warn(withEnhancement(army, 'Corsair Voidscarred', 'Pirate Prince'))).toHaveLength(1);
    expect(warn(withEnhancement(army, 'Rangers', 'Exotic Munitions'))).toHaveLength(1);
    // in another detachment the same unit may not take it
    expect(warn(withEnhancement(army, 'Corsair Voidreavers', 'Exotic Munitions', 'Corsair Coterie'))).toHaveLength(1);
  });

  it('the mirror scenario plays the Corsair army with the Eldritch Raiders against none', () => {
    const sc = loadScenario(join(root, 'scenarios', 'mirror', 'eldritch-raiders-vs-none.json'));
    expect(sc.players.map((p) => p.detachment)).toEqual([ER, null]);
    expect(sc.warnings).toEqual([]);
  });
});
