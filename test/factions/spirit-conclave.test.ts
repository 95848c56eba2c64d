/**
 * Spirit Conclave (src/factions/aeldari/spirit-conclave.ts): Shepherds of the Dead, its six stratagems, its
 * four Enhancements, the Wraith units it makes BATTLELINE at muster, and its mirror scenario. Each test fails
 * if the rule is played wrong or not at all.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aeldariDetachmentSandbox, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits as offered, usingStratagem as using } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { weapon } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule, weaponHas } from '../../src/core/rules-registry.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { afterMove } from '../../src/rules/battle/movement.ts';
import { currentControl } from '../../src/rules/battle/objectives.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { commandPhase } from '../../src/rules/battle/command.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { loadArmyFile, type ArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { loadScenario } from '../../src/data/scenario.ts';
import { SPIRIT_GUIDES, SPIRIT_TOKEN_HOLD, VENGEFUL_DEAD } from '../../src/factions/aeldari/spirit-conclave.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { fitsIn } from '../../src/rules/battle/transports.ts';
import { BATTLE_FOCUS, manoeuvreOptions, setBattleFocusTokens, SWIFT_AS_THE_WIND, type BattleFocusOption } from '../../src/factions/aeldari/battle-focus.ts';

const SC = 'Spirit Conclave';
const root = join(import.meta.dirname, '..', '..');

const sandbox = aeldariDetachmentSandbox(SC);

const alive = (g: Game, id: string) => g.state.units[id].models.filter((m) => m.alive).length;
const rule = (name: string) => getRule(name)!;

const WG: PlacedUnit = { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 10, y: 5 } };
const WB: PlacedUnit = { id: 'WB', player: 0, faction: 'aeldari', name: 'Wraithblades', at: { x: 20, y: 5 } };
const WL: PlacedUnit = { id: 'WL', player: 0, faction: 'aeldari', name: 'Wraithlord', at: { x: 14, y: 16 } };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 30 }, spacing: 0.9 };
const SS: PlacedUnit = { id: 'SS', player: 0, faction: 'aeldari', name: 'Spiritseer', at: { x: 10, y: 40 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 }, spacing: 0.9 };
const HH: PlacedUnit = { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 40, y: 30 } };

describe('Shepherds of the Dead', () => {
  it('an enemy unit that destroys an ASURYANI PSYKER model gains a Vengeful Dead token: WRAITH CONSTRUCT attacks on it get +1 to hit and +1 to wound', () => {
    const g = sandbox([WG, GD, SS, ST, HH]);
    const before = { st: planFor(g, 'WG', 'ST', 'Wraithcannon'), hh: planFor(g, 'WG', 'HH', 'Wraithcannon'), gd: planFor(g, 'GD', 'ST', 'Shuriken catapult') };
    destroyModel(g, g.state.units.SS, g.state.units.SS.models[0], 'ST', 'test');
    expect(g.state.effects.filter((e) => e.kind === VENGEFUL_DEAD).map((e) => [e.unit, e.player])).toEqual([['ST', 0]]);
    const st = planFor(g, 'WG', 'ST', 'Wraithcannon');
    expect([st.hitModifier, st.woundModifier]).toEqual([before.st.hitModifier + 1, before.st.woundModifier + 1]);
    // not against an enemy unit without a token; not for the Guardians (no WRAITH CONSTRUCT)
    const hh = planFor(g, 'WG', 'HH', 'Wraithcannon');
    expect([hh.hitModifier, hh.woundModifier]).toEqual([before.hh.hitModifier, before.hh.woundModifier]);
    const gd = planFor(g, 'GD', 'ST', 'Shuriken catapult');
    expect([gd.hitModifier, gd.woundModifier]).toEqual([before.gd.hitModifier, before.gd.woundModifier]);
    // the token lasts: still there after the turn
    expireEffects(g, { at: 'end-of-round', round: 1 });
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(before.st.hitModifier + 1);
  });

  it('no token for a model that is not a PSYKER, for a PSYKER the player\'s own unit destroys, or without the detachment', () => {
    const g = sandbox([WG, SS, ST]);
    destroyModel(g, g.state.units.WG, g.state.units.WG.models[0], 'ST', 'test');
    destroyModel(g, g.state.units.SS, g.state.units.SS.models[0], 'WG', 'test');
    expect(g.state.effects.filter((e) => e.kind === VENGEFUL_DEAD)).toEqual([]);
    const none = sandbox([WG, SS, ST], { detachment: null });
    destroyModel(none, none.state.units.SS, none.state.units.SS.models[0], 'ST', 'test');
    expect(none.state.effects.filter((e) => e.kind === VENGEFUL_DEAD)).toEqual([]);
  });
});

describe('Spirit Guides', () => {
  const WK: PlacedUnit = { id: 'WK', player: 0, faction: 'aeldari', name: 'Wraithknight', at: { x: 30, y: 30 } };
  const selected = { kind: 'selected-to-move' as const, unit: 'WG', mode: 'normal' as const, to: { x: 40, y: 5 } };
  /** The manoeuvres offered to the Wraithguard when it is selected to move, with tokens in hand. */
  const manoeuvres = (g: Game) => {
    setBattleFocusTokens(g, 0, 4);
    return (manoeuvreOptions(g, 0, selected) as BattleFocusOption[]).filter((o) => 'manoeuvre' in o).map((o) => ('manoeuvre' in o ? o.manoeuvre : ''));
  };

  it('at muster: the WRAITHBLADES, WRAITHGUARD and WRAITHLORD units gain it, not a Wraith unit with Battle Focus of its own, not without the detachment', () => {
    const g = sandbox([WG, WB, WL, WK, ST]);
    expect(['WG', 'WB', 'WL', 'WK'].map((id) => g.state.units[id].abilities.includes(SPIRIT_GUIDES))).toEqual([true, true, true, false]);
    expect(g.state.units.WK.abilities).toContain(BATTLE_FOCUS);
    const none = sandbox([WG, WB, WL, ST], { detachment: null });
    expect(['WG', 'WB', 'WL'].map((id) => none.state.units[id].abilities.includes(SPIRIT_GUIDES))).toEqual([false, false, false]);
  });

  it('a Wraith unit within 12" of an ASURYANI PSYKER model has Battle Focus: it may make an Agile Manoeuvre; beyond 12" only when SOUL BRIDGE ties it to one', () => {
    const near = sandbox([WG, { ...SS, at: { x: 10, y: 20 } }, ST], { phase: 'movement' });
    setGap(near, 'SS', 'WG', 11.5);
    expect(manoeuvres(near)).toContain(SWIFT_AS_THE_WIND);
    const far = sandbox([WG, { ...SS, at: { x: 10, y: 20 } }, ST], { phase: 'movement' });
    setGap(far, 'SS', 'WG', 12.5);
    expect(manoeuvres(far)).toEqual([]);
    // the same within 12" without the detachment: the Wraithguard has no Battle Focus
    const none = sandbox([WG, { ...SS, at: { x: 10, y: 20 } }, ST], { phase: 'movement', detachment: null });
    setGap(none, 'SS', 'WG', 11.5);
    expect(manoeuvres(none)).toEqual([]);
    // bridged to the Spiritseer, far away: Battle Focus while the Spiritseer stands
    const bridged = sandbox([WG, SS, ST], { phase: 'command' }, using('SOUL BRIDGE'));
    openWindow(bridged, { name: 'phase/start', unit: null, targets: [], data: { phase: 'command' } });
    expect(manoeuvres(bridged)).toContain(SWIFT_AS_THE_WIND);
    destroyModel(bridged, bridged.state.units.SS, bridged.state.units.SS.models[0], null, 'test');
    expect(manoeuvres(bridged)).toEqual([]);
  });

  it('played when the unit is selected to move: Swift as the Wind adds 2" to the Wraithguard\'s move', () => {
    const moved = (swift: boolean) => {
      const g = sandbox([WG, { ...SS, at: { x: 10, y: 20 } }, ST], { phase: 'movement' }, (r) =>
        (swift && r.kind === 'battle-focus' ? Math.max(0, (r.options as BattleFocusOption[]).findIndex((o) => 'manoeuvre' in o && o.manoeuvre === SWIFT_AS_THE_WIND)) : 0));
      setBattleFocusTokens(g, 0, 4);
      const m = characteristic(g.state, g.state.units.WG, g.state.units.WG.models[0], 'M');
      const from = { ...g.state.units.WG.models[0].pos! };
      executeMove(g, g.state.units.WG, { mode: 'normal', to: { x: 40, y: 5 }, toward: 'objective' });
      const to = g.state.units.WG.models[0].pos!;
      return { m, inches: Math.hypot(to.x - from.x, to.y - from.y) };
    };
    const without = moved(false);
    const withSwift = moved(true);
    expect(without.inches).toBeLessThanOrEqual(without.m + 1e-6);
    expect(withSwift.inches).toBeGreaterThan(without.m + 1.5);
    expect(withSwift.inches).toBeLessThanOrEqual(without.m + 2 + 1e-6);
  });

  it('a Spiritseer leading the Wraithguard brings Battle Focus of its own: each moment is offered once, not once per ability', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([WG, { ...SS, at: { x: 10, y: 20 } }, ST], { phase: 'movement' }, (r) => { asked.push(r); return 0; });
    g.emit({ type: 'unit-attached', leader: 'SS', bodyguard: 'WG' });
    expect(g.state.units.WG.abilities).toEqual(expect.arrayContaining([BATTLE_FOCUS, SPIRIT_GUIDES]));
    setBattleFocusTokens(g, 0, 4);
    executeMove(g, g.state.units.WG, { mode: 'normal', to: { x: 40, y: 5 }, toward: 'objective' });
    expect(asked.filter((r) => r.kind === 'battle-focus')).toHaveLength(1);
  });
});

describe('Wraith units in a transport', () => {
  it('each WRAITH CONSTRUCT model takes the space of 2 in a Wave Serpent (12): five Wraithguard fill 10, four Guardians no longer fit beside them, a Spiritseer does', () => {
    const WS: PlacedUnit = { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 30 } };
    const g = sandbox([WS, WG, { ...GD, counts: [4, 0] } as PlacedUnit, SS, ST]);
    expect(fitsIn(g, g.state.units.WG, g.state.units.WS)).toBe(true);
    g.emit({ type: 'unit-location', unit: 'WG', location: 'embarked', embarkedIn: 'WS' });
    expect(fitsIn(g, g.state.units.GD, g.state.units.WS)).toBe(false);
    expect(fitsIn(g, g.state.units.SS, g.state.units.WS)).toBe(true);
  });
});

describe('Spirit Conclave stratagems', () => {
  it('CRUSHING STRIDES: after a Charge move, a D6 per Wraithblades model (four for a Wraithlord) at an enemy unit in Engagement Range: a mortal wound for each 3+', () => {
    const w: Window = { name: 'charge/after-own-charge-move', unit: 'WB', targets: ['ST'] };
    const g = sandbox([WB, WG, { ...ST, at: { x: 23, y: 5 } }], { phase: 'charge', stream: scriptedStream([3, 3, 2, 6, 4]) }, using('CRUSHING STRIDES'));
    setGap(g, 'ST', 'WB', 0.5);
    expect(offered(g, { ...w, unit: 'WG' }, 0, 'CRUSHING STRIDES')).toEqual([]);
    const full = alive(g, 'ST');
    expect(openWindow(g, w)).toEqual(['CRUSHING STRIDES']);
    expect(alive(g, 'ST')).toBe(full - 4);

    const l = sandbox([WL, { ...ST, at: { x: 17, y: 16 } }], { phase: 'charge', stream: scriptedStream([3, 4, 2, 6, 5, 5]) }, using('CRUSHING STRIDES'));
    setGap(l, 'ST', 'WL', 0.5);
    expect(openWindow(l, { ...w, unit: 'WL' })).toEqual(['CRUSHING STRIDES']);
    expect(alive(l, 'ST')).toBe(full - 3);
    // not within Engagement Range of an enemy unit: not offered
    expect(offered(sandbox([WB, ST], { phase: 'charge' }), w, 0, 'CRUSHING STRIDES')).toEqual([]);
  });

  it('WRAITHBONE ARMOUR: a WRAITH CONSTRUCT unit an enemy unit targets gets -1 to the Damage of attacks allocated to it this phase', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'HH', targets: ['WG', 'GD'] };
    const g = sandbox([WG, GD, HH], { turn: 1 }, using('WRAITHBONE ARMOUR'));
    expect(offered(g, w, 0, 'WRAITHBONE ARMOUR')).toEqual(['WG']);
    const before = planFor(g, 'HH', 'WG', 'Railgun').damageReduction;
    expect(openWindow(g, w)).toEqual(['WRAITHBONE ARMOUR']);
    expect(planFor(g, 'HH', 'WG', 'Railgun').damageReduction).toBe(before + 1);
    expect(planFor(g, 'HH', 'GD', 'Railgun').damageReduction).toBe(before);
    expireEffects(g, { at: 'end-of-phase', round: 1, turn: 1, phase: 'shooting' });
    expect(planFor(g, 'HH', 'WG', 'Railgun').damageReduction).toBe(before);
  });

  it('BLADES FROM BEYOND: a Wraithblades unit\'s melee weapons have DEVASTATING WOUNDS this phase; not a Wraithguard unit, not one that has fought', () => {
    const w: Window = { name: 'fight/unit-selected', unit: 'WB', targets: [] };
    const g = sandbox([WB, WG, ST], { phase: 'fight', turn: 1 }, using('BLADES FROM BEYOND'));
    expect(offered(g, { ...w, unit: 'WG' }, 0, 'BLADES FROM BEYOND')).toEqual([]);
    expect(planFor(g, 'WB', 'ST', 'Ghostswords').devastatingWounds).toBe(false);
    expect(openWindow(g, w)).toEqual(['BLADES FROM BEYOND']);
    expect(planFor(g, 'WB', 'ST', 'Ghostswords').devastatingWounds).toBe(true);
    const wb = g.state.units.WB;
    const swords = g.state.datasheets[wb.models[0].datasheet].weapons.find((x) => x.name === 'Ghostswords')!.profiles[0];
    expect(weaponHas(g.state, wb, swords, 'DEVASTATING WOUNDS')).toBe(true);
    const fought = sandbox([WB, ST], { phase: 'fight' });
    fought.emit({ type: 'unit-flag', unit: 'WB', flag: 'fought', value: true });
    expect(offered(fought, w, 0, 'BLADES FROM BEYOND')).toEqual([]);
  });

  it("SEER'S EYE: with a PSYKER within 12\", the Wraith unit's attacks on the enemy unit picked ignore modifiers to AP and Damage", () => {
    const w: Window = { name: 'shooting/unit-selected', unit: 'WG', targets: [] };
    const near = { ...SS, at: { x: 12, y: 14 } };
    const g = sandbox([WG, near, ST, HH], {}, using("SEER'S EYE", 'seers-eye', (o) => o.indexOf('HH')));
    for (const id of ['ST', 'HH']) g.addEffect('Counterfire Defence Systems', 1, id, g.untilEndOfPhase());
    expect(planFor(g, 'WG', 'HH', 'Wraithcannon').damageReduction).toBe(1);
    expect(openWindow(g, w)).toEqual(["SEER'S EYE"]);
    expect(planFor(g, 'WG', 'HH', 'Wraithcannon').damageReduction).toBe(0);
    expect(planFor(g, 'WG', 'HH', 'Wraithcannon').ap).toBe(-4);
    // not against the other enemy unit
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').damageReduction).toBe(1);
    // no PSYKER within 12": not offered; in the opponent's Shooting phase: not offered
    expect(offered(sandbox([WG, SS, ST]), w, 0, "SEER'S EYE")).toEqual([]);
    expect(offered(sandbox([WG, near, ST], { turn: 1 }), w, 0, "SEER'S EYE")).toEqual([]);
    expect(offered(sandbox([WG, near, ST]), w, 0, "SEER'S EYE")).toEqual(['WG']);
  });

  it("SEER'S EYE and SOUL BRIDGE: a PSYKER model of a Battle-shocked unit is no target of its player's stratagems", () => {
    const shocked = (g: Game) => { g.emit({ type: 'battle-shock', unit: 'SS', value: true }); return g; };
    const eye: Window = { name: 'shooting/unit-selected', unit: 'WG', targets: [] };
    const near = { ...SS, at: { x: 12, y: 14 } };
    expect(offered(sandbox([WG, near, ST]), eye, 0, "SEER'S EYE")).toEqual(['WG']);
    expect(offered(shocked(sandbox([WG, near, ST])), eye, 0, "SEER'S EYE")).toEqual([]);
    const bridge: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'command' } };
    expect(offered(sandbox([WG, SS, ST], { phase: 'command' }), bridge, 0, 'SOUL BRIDGE')).toEqual(['WG']);
    expect(offered(shocked(sandbox([WG, SS, ST], { phase: 'command' })), bridge, 0, 'SOUL BRIDGE')).toEqual([]);
  });

  it("SEER'S EYE: the Damage reduction a target model's own wargear gives (Scattershield) is ignored too", () => {
    // one Wraithcannon shot: hit (4), wound (6), the 4+ invulnerable save fails (1), Damage D6+1 rolled 3: 4, or 3 through the Scattershield
    const shot = (eye: boolean) => {
      const g = sandbox([WG, { ...SS, at: { x: 12, y: 14 } }, { id: 'WK', player: 1, faction: 'aeldari', name: 'Wraithknight', at: { x: 24, y: 8 }, wargear: [['Scattershield']] }], { stream: scriptedStream([4, 6, 1, 3]) });
      if (eye) g.addEffect("Seer's Eye", 0, 'WG', g.untilEndOfPhase(), { target: 'WK' });
      const wg = g.state.units.WG;
      const m = wg.models[0];
      const cannon = g.state.datasheets[m.datasheet].weapons.find((x) => x.name === 'Wraithcannon')!;
      const wk = g.state.units.WK;
      const before = wk.models[0].wounds;
      resolveAttacks(g, wg, [{ weapon: cannon, profile: cannon.profiles[0], models: [m], target: 'WK', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
      return before - g.state.units.WK.models[0].wounds;
    };
    expect(shot(false)).toBe(3);
    expect(shot(true)).toBe(4);
  });

  it('SPIRIT TOKEN: a marker a Wraithguard unit holds stays the player\'s after it leaves, until the opponent\'s Level of Control is greater', () => {
    const w: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'movement' } };
    const place = (g: Game, id: string, x: number, y: number) => g.emit({ type: 'models-placed', unit: id, mode: 'test', positions: g.state.units[id].models.filter((m) => m.alive).map((m, i) => ({ model: m.id, pos: { x, y: y + i * 1.6, z: 0 } })) });
    const g = sandbox([{ ...WG, at: { x: 30, y: 20 } }, GD, ST], { phase: 'movement' }, using('SPIRIT TOKEN'));
    expect(currentControl(g.state)).toEqual([0]);
    expect(offered(g, w, 0, 'SPIRIT TOKEN')).toEqual(['WG']);
    expect(openWindow(g, w)).toEqual(['SPIRIT TOKEN']);
    expect(g.state.effects.filter((e) => e.kind === SPIRIT_TOKEN_HOLD).map((e) => e.params.objective)).toEqual(['o1']);
    place(g, 'WG', 10, 5);
    expect(currentControl(g.state)).toEqual([0]);
    // the Strike Team on the marker: greater Level of Control; at the end of the phase the hold ends
    place(g, 'ST', 30, 20);
    expect(currentControl(g.state)).toEqual([1]);
    endPhase(g, 0, 'movement');
    place(g, 'ST', 50, 5);
    expect(currentControl(g.state)).toEqual([null]);
    // a unit off the marker, or the Guardians on it: not offered
    expect(offered(sandbox([WG, ST], { phase: 'movement' }), w, 0, 'SPIRIT TOKEN')).toEqual([]);
    expect(offered(sandbox([{ ...GD, at: { x: 30, y: 20 } }, ST], { phase: 'movement' }), w, 0, 'SPIRIT TOKEN')).toEqual([]);
  });

  it('SOUL BRIDGE: a Wraith unit far from any PSYKER counts as within 12" of one for Psychic Guidance until the next Command phase, while that model lives', () => {
    const w: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'command' } };
    const g = sandbox([WG, SS, ST], { phase: 'command' }, using('SOUL BRIDGE'));
    const wg = g.state.units.WG;
    const before = planFor(g, 'WG', 'ST', 'Wraithcannon').hitModifier;
    expect(characteristic(g.state, wg, wg.models[0], 'Ld')).toBe(8);
    expect(offered(g, w, 0, 'SOUL BRIDGE')).toEqual(['WG']);
    expect(openWindow(g, w)).toEqual(['SOUL BRIDGE']);
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(before + 1);
    expect(characteristic(g.state, wg, wg.models[0], 'Ld')).toBe(6);
    // it lasts through the opponent's turn, and ends at the start of the player's next Command phase
    expireEffects(g, { at: 'start-of-command', round: 1, player: 1 });
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(before + 1);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(before);
    // the PSYKER model destroyed: the bridge leads nowhere
    const d = sandbox([WG, SS, ST], { phase: 'command' }, using('SOUL BRIDGE'));
    openWindow(d, w);
    destroyModel(d, d.state.units.SS, d.state.units.SS.models[0], null, 'test');
    expect(planFor(d, 'WG', 'ST', 'Wraithcannon').hitModifier).toBe(before);
    // no ASURYANI PSYKER in the army: not offered
    expect(offered(sandbox([WG, ST], { phase: 'command' }), w, 0, 'SOUL BRIDGE')).toEqual([]);
  });

  it('SOUL BRIDGE from 0CP: the Command phase\'s 1CP comes before anything else in the phase, its start-of-phase stratagems included', () => {
    const g = sandbox([WG, SS, ST], { phase: 'command', round: 2, cp: 0 }, using('SOUL BRIDGE'));
    const before = (g.log ?? []).length;
    commandPhase(g, 0);
    expect(g.state.players[0].stratagemsUsed.map((x) => x.name)).toEqual(['SOUL BRIDGE']);
    expect(g.state.players[0].cp).toBe(0);
    // the log: the phase starts, both players gain 1CP, then the stratagem is used
    const log = (g.log ?? []).slice(before).map((e) => e.type);
    const started = log.indexOf('phase-started');
    expect(log.slice(started, started + 3)).toEqual(['phase-started', 'cp', 'cp']);
  });
});

describe('Spirit Conclave Enhancements', () => {
  const WK: PlacedUnit = { id: 'WK', player: 0, faction: 'aeldari', name: 'Wraithknight', at: { x: 16, y: 30 } };
  const bearer = (e: string): PlacedUnit => ({ ...SS, at: { x: 10, y: 24 }, enhancement: e });

  it('Light of Clarity: a Wraith unit within 12" of the bearer gets +1 OC for INFANTRY models, +3 for MONSTER models, until the next Command phase', () => {
    const asked: unknown[][] = [];
    for (const [pick, id, plus] of [[0, 'WG', 1], [1, 'WL', 3]] as const) {
      const g = sandbox([WG, { ...WL, at: { x: 14, y: 20 } }, { ...WB, at: { x: 50, y: 40 } }, bearer('Light of Clarity'), ST], { phase: 'command' }, (r) => { if (r.kind === 'light-of-clarity') { asked.push(r.options as unknown[]); return pick; } return 0; });
      const u = g.state.units[id];
      const oc = characteristic(g.state, u, u.models[0], 'OC');
      rule('Light of Clarity').phaseStart!(g, g.state.units.SS, 'command');
      expect(characteristic(g.state, u, u.models[0], 'OC')).toBe(oc + plus);
      // the bearer itself is unchanged
      expect(characteristic(g.state, g.state.units.SS, g.state.units.SS.models[0], 'OC')).toBe(1);
      expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
      expect(characteristic(g.state, u, u.models[0], 'OC')).toBe(oc);
    }
    // the Wraithblades 40" away were not a choice
    expect(asked[0]).toEqual(['WG', 'WL']);
  });

  it('Stave of Kurnous: the Wraith unit picked (not TITANIC) sends its Critical Wounds to a CHARACTER leading the target (PRECISION)', () => {
    const asked: unknown[][] = [];
    const g = sandbox([WG, WK, bearer('Stave of Kurnous'), ST], { phase: 'command' }, (r) => { if (r.kind === 'stave-of-kurnous') asked.push(r.options as unknown[]); return 0; });
    rule('Stave of Kurnous').phaseStart!(g, g.state.units.SS, 'command');
    expect(asked).toEqual([['WG']]);
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').criticalWoundPrecision).toBe(true);

    // two hits (5s on a 2+), wounds of 6 and 3: the Critical Wound goes to the Fireblade, the other to a Fire Warrior
    const shoot = (stave: boolean) => {
      const s = sandbox([WG, { ...ST, at: { x: 30, y: 5 } }, { id: 'FB', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 31, y: 14 } }], { stream: scriptedStream([5, 5, 6, 3, 1, 1, 1, 1]) });
      s.emit({ type: 'unit-attached', leader: 'FB', bodyguard: 'ST' });
      if (stave) s.addEffect('Stave of Kurnous', 0, 'WG', s.untilEndOfPhase());
      const gun = weapon({ attacks: '2', skill: 2, strength: 8, ap: -4, damage: '1' });
      const target = s.state.units.ST;
      resolveAttacks(s, s.state.units.WG, [{ weapon: gun, profile: gun.profiles[0], models: [s.state.units.WG.models[0]], target: 'ST', halfRange: false, targetVisible: true, targetInCover: false, targetModels: target.models.length }], false);
      const fireblade = target.models.find((m) => m.origin === 'FB')!;
      return { fireblade: fireblade.wounds, warriorsLost: target.models.filter((m) => m.origin === 'ST' && !m.alive).length };
    };
    expect(shoot(true)).toEqual({ fireblade: 2, warriorsLost: 1 });
    expect(shoot(false)).toEqual({ fireblade: 3, warriorsLost: 2 });
  });

  it('Rune of Mists: ranged attacks on the Wraith unit picked give it the Benefit of Cover unless the attacker is within 18"', () => {
    const g = sandbox([WG, bearer('Rune of Mists'), ST], { phase: 'command' });
    expect(planFor(g, 'ST', 'WG', 'Pulse rifle', { distance: 24 }).cover).toBe(false);
    rule('Rune of Mists').phaseStart!(g, g.state.units.SS, 'command');
    expect(planFor(g, 'ST', 'WG', 'Pulse rifle', { distance: 24 }).cover).toBe(true);
    expect(planFor(g, 'ST', 'WG', 'Pulse rifle', { distance: 17 }).cover).toBe(false);
    expect(planFor(g, 'ST', 'WG', 'Close combat weapon', { distance: 24 }).cover).toBe(false);
    // the bearer's own unit is not veiled
    expect(planFor(g, 'ST', 'SS', 'Pulse rifle', { distance: 24 }).cover).toBe(false);
  });

  it('Rune of Mists, model by model: a Strike Team with models within and beyond 18" of the veiled Wraithguard rolls its pulse rifles in two groups, each measured from its own closest model (the far one beyond 18": cover); unveiled, one', () => {
    const hitRolls = (veiled: boolean) => {
      const g = sandbox([WG, bearer('Rune of Mists'), { ...ST, counts: [1, 9] }], { phase: 'command' });
      if (veiled) rule('Rune of Mists').phaseStart!(g, g.state.units.SS, 'command');
      expect(g.state.effects.some((e) => e.kind === 'Rune of Mists' && e.unit === 'WG')).toBe(veiled);
      // the bearer leaves the table: the Wraithguard are the only target
      g.emit({ type: 'unit-location', unit: 'SS', location: 'strategic-reserves', embarkedIn: null });
      g.emit({ type: 'turn-started', round: 1, player: 1 });
      g.emit({ type: 'phase-started', round: 1, player: 1, phase: 'shooting' });
      // five Fire Warriors ~16" from the Wraithguard (beyond the pulse rifles' half range), five ~21"
      const st = g.state.units.ST.models;
      g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: st.map((m, i) => ({ model: m.id, pos: { x: i < 5 ? 27 : 32, y: 4 + (i % 5) * 1.2, z: 0 } })) });
      shootWithUnit(g, g.state.units.ST);
      return (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit' && e.unit === 'ST' && /^Pulse rifle/.test(e.label ?? '')).map((e) => (e as { values: number[] }).values.length);
    };
    const veiled = hitRolls(true);
    const open = hitRolls(false);
    expect(open).toHaveLength(1);
    expect(veiled).toHaveLength(2);
    expect(veiled[0] + veiled[1]).toBe(open[0]);
  });

  it('Higher Duty: once per turn, when an enemy unit ends a Normal move within 9" of the bearer, its unit may make a Normal move of up to 6"', () => {
    const run = (gap: number, moves: ('normal' | 'advance')[]) => {
      const asked: DecisionRequest[] = [];
      const g = sandbox([{ ...SS, at: { x: 20, y: 22 }, enhancement: 'Higher Duty' }, { ...ST, at: { x: 50, y: 22 } }], { phase: 'movement', turn: 1, round: 2 }, (r) => { asked.push(r); return r.kind === 'higher-duty' ? r.options.length - 1 : 0; });
      const from = { ...g.state.units.SS.models[0].pos! };
      for (const mode of moves) {
        const r = g.state.units.SS.models[0].pos!;
        const st = g.state.units.ST;
        g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: st.models.map((x, i) => ({ model: x.id, pos: { x: r.x + gap, y: r.y + i * 1.2, z: 0 } })) });
        g.emit({ type: 'unit-moved', unit: 'ST', mode });
        afterMove(g, g.state.units.ST);
      }
      const to = g.state.units.SS.models[0].pos!;
      return { asked: asked.filter((r) => r.kind === 'higher-duty').length, moved: Math.hypot(to.x - from.x, to.y - from.y) };
    };
    const near = run(8, ['normal', 'advance']);
    expect(near.asked).toBe(1);
    // the whole 6": nothing in the way
    expect(near.moved).toBeCloseTo(6, 3);
    expect(run(12, ['normal']).asked).toBe(0);
  });
});

describe('Spirit Conclave muster, and the mirror', () => {
  const ae = loadFactionCatalog('AE');
  const army = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-wraiths.json'));
  const warn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));

  it('the Wraith army is legal with the detachment and without one', () => {
    expect(warn(army)).toEqual([]);
    expect(warn({ ...army, detachment: null as unknown as string })).toEqual([]);
  });

  it('Wraithblades and Wraithguard are BATTLELINE in the Spirit Conclave: a fourth unit of each is allowed there, not elsewhere', () => {
    const more = (detachment: string): ArmyFile => {
      const extra = ['Wraithguard', 'Wraithblades'].map((n, i): ArmyUnit => ({ ...army.units.find((u) => u.name === n)!, id: `x${i}` }));
      return { ...army, detachment, units: [...army.units, ...extra] };
    };
    expect(warn(more(SC))).toEqual([]);
    expect(warn(more('Battle Host'))).toHaveLength(2);
  });

  it('its Enhancements go on a Spiritseer only', () => {
    const withEnhancement = (name: string, e: string): ArmyFile => {
      const units = army.units.map((u): ArmyUnit => ({ ...u }));
      units.find((u) => u.name === name)!.enhancement = e;
      return { ...army, units };
    };
    expect(warn(withEnhancement('Spiritseer', 'Higher Duty'))).toEqual([]);
    expect(warn(withEnhancement('Farseer', 'Higher Duty'))).toHaveLength(1);
  });

  it('the mirror scenario plays the Wraith army with the Spirit Conclave against none', () => {
    const sc = loadScenario(join(root, 'scenarios', 'mirror', 'spirit-conclave-vs-none.json'));
    expect(sc.players.map((p) => p.detachment)).toEqual([SC, null]);
    expect(sc.warnings).toEqual([]);
  });
});
