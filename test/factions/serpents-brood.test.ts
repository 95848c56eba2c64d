/**
 * Serpent's Brood (src/factions/aeldari/serpents-brood.ts): Boons of the Brood, its six stratagems and three
 * Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { allows, forbids } from '../../src/core/rules-registry.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { startPhase } from '../../src/rules/battle/phase.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { scoutsDistance } from '../../src/rules/battle/pre-battle.ts';
import { redeployUnits, type RedeployOption } from '../../src/rules/battle/redeploy.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';

const SB = "Serpent's Brood";

/** Player 0 (Harlequins) answers with `pick`; player 1 (T'au) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; detachment?: string | null } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [4, 3], detachments: [opts.detachment === undefined ? SB : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')],
  });
}

/** Use `name` whenever offered, and answer its own request `kind` with option `choice`. */
const moved = (g: Game, id: string, f: () => void) => {
  const from = g.state.units[id].models.map((m) => ({ ...m.pos! }));
  f();
  return Math.max(...g.state.units[id].models.map((m, i) => Math.hypot(m.pos!.x - from[i].x, m.pos!.y - from[i].y)));
};

const TR: PlacedUnit = { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 18 }, spacing: 1.2 };
const TM: PlacedUnit = { id: 'TM', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 10, y: 30 } };
const SW: PlacedUnit = { id: 'SW', player: 0, faction: 'aeldari', name: 'Skyweavers', at: { x: 5, y: 38 }, spacing: 3 };
const VW: PlacedUnit = { id: 'VW', player: 0, faction: 'aeldari', name: 'Voidweaver', at: { x: 5, y: 5 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 18 }, spacing: 0.9 };

describe('Boons of the Brood', () => {
  it('HARLEQUINS MOUNTED and VEHICLE weapons have SUSTAINED HITS 1; the Troupe\'s only in a turn it disembarked', () => {
    const g = sandbox([TR, SW, VW, ST]);
    expect([planFor(g, 'SW', 'ST', 'Shuriken cannon').sustainedHits, planFor(g, 'VW', 'ST', 'Shuriken cannon').sustainedHits]).toEqual([1, 1]);
    expect(planFor(g, 'TR', 'ST', 'Shuriken pistol').sustainedHits).toBe(0);
    g.emit({ type: 'unit-flag', unit: 'TR', flag: 'disembarked', value: true });
    expect(planFor(g, 'TR', 'ST', 'Shuriken pistol').sustainedHits).toBe(1);
    const plain = sandbox([SW, ST], { detachment: null });
    expect(planFor(plain, 'SW', 'ST', 'Shuriken cannon').sustainedHits).toBe(0);
  });

  it('Travelling Players: TROUPE models have OC 2', () => {
    const oc = (detachment: string | null) => { const g = sandbox([TR, ST], { detachment }); return characteristic(g.state, g.state.units.TR, g.state.units.TR.models[0], 'OC'); };
    expect([oc(null), oc(SB)]).toEqual([1, 2]);
  });
});

describe('Serpent\'s Brood stratagems', () => {
  it('WEAVING STRIDE: after an enemy unit\'s move in the opponent\'s Movement phase, a HARLEQUINS INFANTRY unit within 9" makes a Normal move of up to 6"', () => {
    const g = sandbox([{ ...TM, at: { x: 12, y: 24 } }, { ...SW, at: { x: 12, y: 12 } }, { ...ST, at: { x: 18, y: 18 } }], { phase: 'movement', turn: 1 }, using('WEAVING STRIDE', 'weaving-stride', 1));
    const w: Window = { name: 'movement/after-enemy-move', unit: 'ST', targets: [] };
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'advance' });
    // the Troupe Master (INFANTRY), not the Skyweavers (MOUNTED)
    expect(offered(g, w, 0, 'WEAVING STRIDE')).toEqual(['TM']);
    const d = moved(g, 'TM', () => expect(openWindow(g, w)).toEqual(['WEAVING STRIDE']));
    expect(d).toBeGreaterThan(1);
    expect(d).toBeLessThanOrEqual(6 + 1e-6);
  });

  it('FANGS OF THE BROOD: at the start of the Fight phase a Troupe takes all three Dance of Death abilities', () => {
    const dances = (strat: boolean) => {
      const g = sandbox([TR, ST], { phase: 'shooting' }, strat ? using('FANGS OF THE BROOD') : () => 0);
      startPhase(g, 0, 'fight');
      return g.state.effects.filter((e) => e.kind === 'Dance of Death' && e.unit === 'TR').map((e) => e.params.choice).sort();
    };
    expect(dances(false)).toEqual(["Hero's Prowess"]);
    expect(dances(true)).toEqual(["Hero's Prowess", "Trickster's Grace", "Villain's Doom"]);
    const g = sandbox([TR, ST], { phase: 'shooting' }, using('FANGS OF THE BROOD'));
    startPhase(g, 0, 'fight');
    const attack = planFor(g, 'TR', 'ST', "Harlequin's blade");
    expect([attack.rerollHits, attack.woundModifier, planFor(g, 'ST', 'TR', 'Pulse rifle').hitModifier]).toEqual(['ones', 1, -1]);
  });

  it('VENOMOUS WRATH: a HARLEQUINS VEHICLE selected to shoot makes a Normal move of up to 6" once it has shot, and cannot charge this turn', () => {
    const g = sandbox([VW, TR, { ...ST, at: { x: 25, y: 8 } }], {}, using('VENOMOUS WRATH', 'venomous-wrath', 1));
    expect(offered(g, { name: 'shooting/unit-selected', unit: 'TR', targets: [] }, 0, 'VENOMOUS WRATH')).toEqual([]);
    expect(offered(g, { name: 'shooting/unit-selected', unit: 'VW', targets: [] }, 0, 'VENOMOUS WRATH')).toEqual(['VW']);
    const d = moved(g, 'VW', () => shootWithUnit(g, g.state.units.VW));
    expect(g.state.units.VW.flags.shot).toBe(true);
    expect(d).toBeGreaterThan(1);
    expect(d).toBeLessThanOrEqual(6 + 1e-6);
    expect(forbids(g.state, g.state.units.VW, 'charge')).toBe(true);
  });

  it('STRIKING STRIDE: at the start of the player\'s Charge phase a HARLEQUINS unit that Advanced may declare a charge this phase', () => {
    const g = sandbox([TR, SW, ST], { phase: 'charge' }, using('STRIKING STRIDE'));
    const w: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'charge' } };
    expect(offered(g, w, 0, 'STRIKING STRIDE')).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'TR', mode: 'advance', advanceRoll: 3 });
    expect(offered(g, w, 0, 'STRIKING STRIDE')).toEqual(['TR']);
    expect(allows(g.state, g.state.units.TR, 'charge-after-advance')).toBe(false);
    expect(openWindow(g, w)).toEqual(['STRIKING STRIDE']);
    expect(allows(g.state, g.state.units.TR, 'charge-after-advance')).toBe(true);
  });

  it('WEAVERS\' COILS: at the end of the player\'s Fight phase a MOUNTED unit that fought makes a Normal move, or a Fall Back of up to 6" from combat', () => {
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    const fought = (g: Game) => { g.emit({ type: 'unit-flag', unit: 'SW', flag: 'fought', value: true }); return g; };
    const free = sandbox([SW, TR, { ...ST, at: { x: 40, y: 40 } }], { phase: 'fight' }, using("WEAVERS' COILS", 'weavers-coils', 1));
    expect(offered(free, end, 0, "WEAVERS' COILS")).toEqual([]);
    fought(free);
    expect(offered(free, end, 0, "WEAVERS' COILS")).toEqual(['SW']);
    const far = moved(free, 'SW', () => openWindow(free, end));
    expect(far).toBeGreaterThan(6);
    expect(far).toBeLessThanOrEqual(14 + 1e-6);
    // within Engagement Range: a Fall Back of up to 6"
    const engaged = fought(sandbox([{ ...SW, at: { x: 20, y: 20 }, spacing: 2.5 }, { ...ST, at: { x: 21.6, y: 20 } }], { phase: 'fight' }, using("WEAVERS' COILS", 'weavers-coils', 1)));
    expect(unitsInEngagement(engaged.state, engaged.state.units.SW, engaged.state.units.ST)).toBe(true);
    const back = moved(engaged, 'SW', () => openWindow(engaged, end));
    expect(back).toBeGreaterThan(0);
    expect(back).toBeLessThanOrEqual(6 + 1e-6);
    expect(offered(fought(sandbox([SW, ST], { phase: 'fight', turn: 1 })), end, 0, "WEAVERS' COILS")).toEqual([]);
  });

  it('SKYWARD LUNGE: at the end of the opponent\'s Fight phase a HARLEQUINS VEHICLE or MOUNTED unit goes into Strategic Reserves', () => {
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    const g = sandbox([TR, SW, VW, { ...ST, at: { x: 40, y: 40 } }], { phase: 'fight', turn: 1 }, using('SKYWARD LUNGE'));
    expect(offered(g, end, 0, 'SKYWARD LUNGE')).toEqual(['SW', 'VW']);
    expect(openWindow(g, end)).toEqual(['SKYWARD LUNGE']);
    expect(g.state.units.SW.location).toBe('strategic-reserves');
  });
});

describe('Serpent\'s Brood Enhancements', () => {
  it('Key of Ghosts: the bearer\'s unit has Scouts 6"', () => {
    const scouts = (enhancement: string) => { const g = sandbox([{ ...TM, enhancement }, ST]); return scoutsDistance(g.state, g.state.units.TM); };
    expect([scouts('Key of Ghosts'), scouts("Weavers' Wail")]).toEqual([6, 0]);
  });

  it('Weavers\' Wail: +3 Strength and +1 Attacks for the bearer\'s melee weapons (not its pistol)', () => {
    const g = sandbox([{ ...TM, enhancement: "Weavers' Wail" }, ST]);
    const plain = sandbox([{ ...TM, enhancement: 'Key of Ghosts' }, ST]);
    const blade = planFor(g, 'TM', 'ST', "Troupe Master's blade");
    const before = planFor(plain, 'TM', 'ST', "Troupe Master's blade");
    expect([blade.strength - before.strength, blade.attacksBonus - before.attacksBonus]).toEqual([3, 1]);
    expect(planFor(g, 'TM', 'ST', 'Shuriken pistol').strength).toBe(planFor(plain, 'TM', 'ST', 'Shuriken pistol').strength);
  });

  it('Shedskin Raiment: after deployment, up to three HARLEQUINS units are redeployed (or go into Strategic Reserves)', () => {
    const offeredIds: string[][] = [];
    const agent = scriptedAgent('p', (r: DecisionRequest) => {
      if (r.kind !== 'redeploy') return 0;
      const ids = (r.options as RedeployOption[]).map((o) => ('done' in o ? 'done' : o.unit));
      offeredIds.push(ids);
      return ids.length > 1 ? 1 : 0;
    });
    const units: PlacedUnit[] = [
      { id: 'SS', player: 0, faction: 'aeldari', name: 'Shadowseer', at: { x: 6, y: 6 }, enhancement: 'Shedskin Raiment' },
      { ...TR, at: { x: 4, y: 14 } }, { ...VW, at: { x: 6, y: 30 } }, { ...SW, at: { x: 6, y: 38 } }, { ...ST, at: { x: 54, y: 20 } },
    ];
    const g = battleSandbox(units, { factions: ['AE', 'TAU'], detachments: [SB, null], agents: [agent, scriptedAgent('q')], phase: 'movement' });
    redeployUnits(g, 0, [0, 1]);
    expect(offeredIds).toEqual([['done', 'SS', 'TR', 'VW', 'SW'], ['done', 'TR', 'VW', 'SW'], ['done', 'VW', 'SW']]);
    expect(['SS', 'TR', 'VW', 'SW'].map((id) => g.state.units[id].location)).toEqual(['strategic-reserves', 'strategic-reserves', 'strategic-reserves', 'battlefield']);
  });
});
