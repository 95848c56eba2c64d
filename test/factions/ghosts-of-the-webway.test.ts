/**
 * Ghosts of the Webway (src/factions/aeldari/ghosts-of-the-webway.ts): Acrobatic Onslaught, five stratagems and
 * the four Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { addHitModifier, criticalHitThreshold } from '../../src/rules/attack-plan.ts';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { allows, getRule } from '../../src/core/rules-registry.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { inflictMortalWounds } from '../../src/rules/damage.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';
import { declareCharge, fightsFirst } from '../../src/rules/battle/charge.ts';
import { desperateEscapeRules, executeMove, moveOptions } from '../../src/rules/battle/movement.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { canInfiltrate } from '../../src/rules/battle/pre-battle.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';

const GW = 'Ghosts of the Webway';

/** Player 0 (Harlequins) answers with `pick`; player 1 (T'au) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; objectives?: { id: string; pos: { x: number; y: number } }[] } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    ...(opts.objectives ? { objectives: opts.objectives } : {}),
    factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [4, 3], detachments: [opts.detachment === undefined ? GW : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], ...(opts.stream ? { stream: opts.stream } : {}),
  });
}

/** Use `name` whenever offered, and answer its own request `kind` with option `choice`. */

const TR: PlacedUnit = { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 18 }, spacing: 1.2 };
const TM: PlacedUnit = { id: 'TM', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 10, y: 30 } };
const VW: PlacedUnit = { id: 'VW', player: 0, faction: 'aeldari', name: 'Voidweaver', at: { x: 5, y: 5 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 18 }, spacing: 0.9 };

describe('Acrobatic Onslaught', () => {
  it('a HARLEQUINS unit\'s Charge move passes through enemy models: a screen in the way does not stop it', () => {
    // two Strike Teams screen x = 16 from y = 9 to y = 27.1; the target stands behind them
    const units: PlacedUnit[] = [TR, { ...ST, id: 'S1', at: { x: 16, y: 9 } }, { ...ST, id: 'S2', at: { x: 16, y: 18.5 } }, { ...ST, id: 'T', at: { x: 21.5, y: 16 } }];
    const plan = (detachment: string | null, screened = true) => {
      const g = sandbox(screened ? units : [TR, units[3]], { phase: 'charge', detachment });
      return planUnit(g.state, g.state.units.TR, 'charge', { maxDistance: 11, targetUnitIds: ['T'] }).ok;
    };
    // the charge is in reach without the screen; with it, only through the enemy models
    expect(plan(null, false)).toBe(true);
    expect(plan(null)).toBe(false);
    expect(plan(GW)).toBe(true);
    // not an Aeldari unit that is not HARLEQUINS
    const g = sandbox([{ ...TR, name: 'Dire Avengers' }, ...units.slice(1)], { phase: 'charge' });
    expect(planUnit(g.state, g.state.units.TR, 'charge', { maxDistance: 11, targetUnitIds: ['T'] }).ok).toBe(false);
  });

  it('Travelling Players: TROUPE models of a Troupe have OC 2 (not the Troupe Master leading them; 0 while Battle-shocked)', () => {
    const oc = (detachment: string | null) => {
      const g = sandbox([TR, { ...TM, at: { x: 12, y: 18 } }, ST], { detachment });
      g.emit({ type: 'unit-attached', leader: 'TM', bodyguard: 'TR' });
      const u = g.state.units.TR;
      return u.models.map((m) => characteristic(g.state, u, m, 'OC'));
    };
    expect(oc(null)).toEqual([1, 1, 1, 1, 1, 1]);
    expect([...oc(GW)].sort()).toEqual([1, 2, 2, 2, 2, 2]);
    const g = sandbox([TR, ST]);
    g.emit({ type: 'battle-shock', unit: 'TR', value: true });
    expect(characteristic(g.state, g.state.units.TR, g.state.units.TR.models[0], 'OC')).toBe(0);
  });
});

describe('Ghosts of the Webway stratagems', () => {
  const chargeEnd: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'charge' } };

  it('BLOODY DANCE: at the end of the opponent\'s Charge phase a Troupe within 6" of an enemy unit charges it, without the Charge bonus', () => {
    const near = { ...ST, at: { x: 15, y: 18 } };
    const g = sandbox([TR, near, VW, { ...TR, id: 'T2', at: { x: 10, y: 40 } }], { phase: 'charge', turn: 1, stream: scriptedStream([6, 6]) }, using('BLOODY DANCE'));
    // not the Voidweaver (a VEHICLE), not the Troupe farther than 6"
    expect(offered(g, chargeEnd, 0, 'BLOODY DANCE')).toEqual(['TR']);
    expect(openWindow(g, chargeEnd)).toEqual(['BLOODY DANCE']);
    expect(unitsInEngagement(g.state, g.state.units.TR, g.state.units.ST)).toBe(true);
    expect(g.state.units.TR.flags.charged).toBe(true);
    expect(fightsFirst(g, g.state.units.TR)).toBe(false);
    // not at the end of the player's own Charge phase, nor of another phase
    expect(offered(sandbox([TR, near], { phase: 'charge', turn: 0 }), chargeEnd, 0, 'BLOODY DANCE')).toEqual([]);
    expect(offered(sandbox([TR, near], { phase: 'shooting', turn: 1 }), { ...chargeEnd, data: { phase: 'shooting' } }, 0, 'BLOODY DANCE')).toEqual([]);
  });

  it('MOCKING FLIGHT: a HARLEQUINS unit that just Fell Back may shoot and charge this turn', () => {
    const g = sandbox([TR, ST], { phase: 'movement' }, using('MOCKING FLIGHT'));
    const w: Window = { name: 'movement/after-own-move', unit: 'TR', targets: [] };
    expect(offered(g, w, 0, 'MOCKING FLIGHT')).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'TR', mode: 'fall-back' });
    expect([allows(g.state, g.state.units.TR, 'shoot-after-fall-back'), allows(g.state, g.state.units.TR, 'charge-after-fall-back')]).toEqual([false, false]);
    expect(openWindow(g, w)).toEqual(['MOCKING FLIGHT']);
    expect([allows(g.state, g.state.units.TR, 'shoot-after-fall-back'), allows(g.state, g.state.units.TR, 'charge-after-fall-back')]).toEqual([true, true]);
  });

  it('TRICKSTERS\' RETORT: after an enemy unit\'s Normal move in the opponent\'s Movement phase, a Troupe within 9" makes a Normal move of up to 6"', () => {
    const mover = { ...ST, at: { x: 18, y: 18 } };
    const g = sandbox([TR, { ...TM, at: { x: 12, y: 30 } }, { ...TR, id: 'T2', at: { x: 10, y: 36 } }, mover], { phase: 'movement', turn: 1 }, using("TRICKSTERS' RETORT", 'tricksters-retort', 1));
    const w: Window = { name: 'movement/after-enemy-move', unit: 'ST', targets: [] };
    expect(offered(g, w, 0, "TRICKSTERS' RETORT")).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
    // the Troupe within 9" (not the Troupe Master, not the Troupe 18" away)
    expect(offered(g, w, 0, "TRICKSTERS' RETORT")).toEqual(['TR']);
    const from = g.state.units.TR.models.map((m) => ({ ...m.pos! }));
    expect(openWindow(g, w)).toEqual(["TRICKSTERS' RETORT"]);
    const moved = g.state.units.TR.models.map((m, i) => Math.hypot(m.pos!.x - from[i].x, m.pos!.y - from[i].y));
    // the full 6" toward a point farther away (5" would be too short: audit 19 mutant H04)
    expect(Math.max(...moved)).toBeGreaterThan(5.9);
    expect(Math.max(...moved)).toBeLessThanOrEqual(6 + 1e-6);
    // not after a unit arriving from Reserves, nor in the player's own turn
    const own = sandbox([TR, mover], { phase: 'movement', turn: 0 });
    own.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
    expect(offered(own, w, 0, "TRICKSTERS' RETORT")).toEqual([]);
    const arrived = sandbox([TR, mover], { phase: 'movement', turn: 1 });
    arrived.emit({ type: 'unit-moved', unit: 'ST', mode: 'arrived' });
    expect(offered(arrived, w, 0, "TRICKSTERS' RETORT")).toEqual([]);
  });

  it('EXIT THE STAGE: at the end of the opponent\'s Fight phase a HARLEQUINS unit not within Engagement Range goes into Strategic Reserves', () => {
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    const g = sandbox([TR, VW, { ...TM, at: { x: 29, y: 30 } }, ST], { phase: 'fight', turn: 1 }, using('EXIT THE STAGE'));
    g.emit({ type: 'models-placed', unit: 'TM', mode: 'test', positions: [{ model: g.state.units.TM.models[0].id, pos: { x: 30, y: 17.2, z: 0 } }] });
    expect(unitsInEngagement(g.state, g.state.units.TM, g.state.units.ST)).toBe(true);
    expect(offered(g, end, 0, 'EXIT THE STAGE')).toEqual(['TR', 'VW']);
    expect(openWindow(g, end)).toEqual(['EXIT THE STAGE']);
    expect(g.state.units.TR.location).toBe('strategic-reserves');
    expect(offered(sandbox([TR, ST], { phase: 'fight', turn: 0 }), end, 0, 'EXIT THE STAGE')).toEqual([]);
  });

  it('STAGED DEATH: a HARLEQUINS CHARACTER just destroyed is set back up at the end of the phase near where it fell, with half its wounds; once per model', () => {
    const g = sandbox([TM, TR, ST], { turn: 1 }, using('STAGED DEATH'));
    inflictMortalWounds(g, g.state.units.TM, 99, 'ST');
    expect(g.state.units.TM.models[0].alive).toBe(false);
    endPhase(g, 1, 'shooting');
    const m = g.state.units.TM.models[0];
    expect([m.alive, m.wounds, g.state.units.TM.location]).toEqual([true, 2, 'battlefield']);
    expect(Math.hypot(m.pos!.x - 10, m.pos!.y - 30)).toBeLessThan(1.5);
    // the second time it stays destroyed
    inflictMortalWounds(g, g.state.units.TM, 99, 'ST');
    endPhase(g, 1, 'shooting');
    expect(g.state.units.TM.models[0].alive).toBe(false);
    // not a Troupe model (not a CHARACTER)
    const h = sandbox([TR, ST], { turn: 1 }, using('STAGED DEATH'));
    inflictMortalWounds(h, h.state.units.TR, 1, 'ST');
    expect(h.state.players[0].cp).toBe(4);
  });

  it('STAGED DEATH: the model set back up on a marker at the end of the phase controls it when that phase ends', () => {
    // the Troupe Master alone on the marker, no enemy near it: destroyed, the marker is nobody's; set back up, it is his
    const g = sandbox([TM, ST], { turn: 1, objectives: [{ id: 'o1', pos: { x: 10, y: 31 } }] }, using('STAGED DEATH'));
    endPhase(g, 1, 'movement');
    expect(g.state.objectives[0].controller).toBe(0);
    inflictMortalWounds(g, g.state.units.TM, 99, 'ST');
    endPhase(g, 1, 'shooting');
    expect(g.state.units.TM.models[0].alive).toBe(true);
    expect(g.state.objectives[0].controller).toBe(0);
    // no flip to nobody's and back in the log
    expect(g.log!.filter((e) => e.type === 'objective-control').map((e) => (e as { controller: number | null }).controller)).toEqual([0]);
  });
});

describe('Ghosts of the Webway Enhancements', () => {
  it('Cegorach\'s Coil: after the bearer\'s unit ends a Charge move, a D6 for each of its models within Engagement Range of the enemy unit, 4+ a mortal wound', () => {
    // the charge roll (6, 6), then one die for the lone Troupe Master: 4
    const run = (enhancement: string, dice: number[]) => {
      const g = sandbox([{ ...TM, at: { x: 10, y: 18 }, enhancement }, { ...ST, at: { x: 16, y: 14 } }], { phase: 'charge', stream: scriptedStream(dice) });
      declareCharge(g, g.state.units.TM, { targets: ['ST'] });
      return g.state.units.ST.models.filter((m) => m.alive).length;
    };
    expect(run("Cegorach's Coil", [6, 6, 4])).toBe(9);
    expect(run("Cegorach's Coil", [6, 6, 3])).toBe(10);
    expect(() => run('Mistweave', [6, 6])).not.toThrow();
    expect(run('Mistweave', [6, 6])).toBe(10);
  });

  it('Cegorach\'s Coil: at most 6 mortal wounds, however many models are within Engagement Range', () => {
    const g = sandbox([{ ...TR, counts: [1, 11], spacing: 0.9, at: { x: 10, y: 14 } }, { ...TM, at: { x: 9, y: 14 }, enhancement: "Cegorach's Coil" },
      { ...ST, at: { x: 11.3, y: 14 } }, { ...ST, id: 'S2', at: { x: 11.3, y: 23 } }], { phase: 'fight', stream: scriptedStream(Array(20).fill(6)) });
    g.emit({ type: 'unit-attached', leader: 'TM', bodyguard: 'TR' });
    const before = g.state.units.ST.models.filter((m) => m.alive).length;
    const u = g.state.units.TR;
    expect(u.models.filter((m) => m.alive).length).toBe(13);
    // the rule's hook, as the Charge step calls it (the sandbox's units already stand in Engagement Range)
    expect(u.abilities).toContain("Cegorach's Coil");
    getRule("Cegorach's Coil")!.afterChargeMove!(g, u);
    const lost = before - g.state.units.ST.models.filter((m) => m.alive).length;
    expect(lost).toBe(6);
  });

  it('Mask of Secrets: an enemy unit Falling Back from the bearer\'s unit tests every model, -1 while Battle-shocked; not a VEHICLE', () => {
    const fallBack = (enhancement: string, shocked = false) => {
      const g = sandbox([{ ...TM, at: { x: 5, y: 20 }, enhancement }, { ...ST, at: { x: 6.8, y: 20 } }], { phase: 'movement', turn: 1 });
      if (shocked) g.emit({ type: 'battle-shock', unit: 'ST', value: true });
      const rules = desperateEscapeRules(g.state, g.state.units.ST);
      const option = moveOptions(g.state, g.state.units.ST).find((o) => o.mode === 'fall-back')!;
      const before = (g.log ?? []).length;
      executeMove(g, g.state.units.ST, option);
      const dice = (g.log ?? []).slice(before).flatMap((e) => (e.type === 'dice' && e.purpose === 'desperate-escape' ? (e as { values: number[] }).values : []));
      return { rules, dice: dice.length };
    };
    expect(fallBack('Mistweave')).toEqual({ rules: { allModels: false, modifier: 0 }, dice: 0 });
    expect(fallBack('Mask of Secrets')).toEqual({ rules: { allModels: true, modifier: 0 }, dice: 10 });
    expect(fallBack('Mask of Secrets', true).rules).toEqual({ allModels: true, modifier: -1 });
    const g = sandbox([{ ...TM, at: { x: 5, y: 20 }, enhancement: 'Mask of Secrets' }, { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 14, y: 20 } }], { phase: 'movement', turn: 1 });
    setGap(g, 'DF', 'TM', 0.5);
    expect(unitsInEngagement(g.state, g.state.units.TM, g.state.units.DF)).toBe(true);
    expect(desperateEscapeRules(g.state, g.state.units.DF)).toEqual({ allModels: false, modifier: 0 });
  });

  it('Murder\'s Jest: the bearer\'s Hit rolls that hit a unit Below Half-strength are Critical Hits', () => {
    const g = sandbox([{ id: 'DJ', player: 0, faction: 'aeldari', name: 'Death Jester', at: { x: 10, y: 5 }, enhancement: "Murder's Jest" }, ST]);
    const full = planFor(g, 'DJ', 'ST', 'Shrieker cannon');
    expect(criticalHitThreshold(full)).toBe(6);
    inflictMortalWounds(g, g.state.units.ST, 6, 'DJ');
    const half = planFor(g, 'DJ', 'ST', 'Shrieker cannon');
    expect(half.hitModifier).toBe(0);
    expect(criticalHitThreshold(half)).toBe(half.skill);
    // a -1 to hit added once the plan is built: a roll of the BS no longer hits, the next one does and is critical
    expect(half.skill).toBe(2);
    addHitModifier(half, -1);
    expect(criticalHitThreshold(half)).toBe(3);
    const plain = sandbox([{ id: 'DJ', player: 0, faction: 'aeldari', name: 'Death Jester', at: { x: 10, y: 5 }, enhancement: 'Mistweave' }, ST]);
    inflictMortalWounds(plain, plain.state.units.ST, 6, 'DJ');
    expect(criticalHitThreshold(planFor(plain, 'DJ', 'ST', 'Shrieker cannon'))).toBe(6);
  });

  it('Mistweave: the unit the bearer leads has Infiltrators; not the bearer alone', () => {
    const led = (enhancement: string, attach: boolean) => {
      const g = sandbox([TR, { id: 'SS', player: 0, faction: 'aeldari', name: 'Shadowseer', at: { x: 12, y: 18 }, enhancement }, ST]);
      if (attach) g.emit({ type: 'unit-attached', leader: 'SS', bodyguard: 'TR' });
      return canInfiltrate(g.state, g.state.units[attach ? 'TR' : 'SS']);
    };
    expect(led('Mistweave', true)).toBe(true);
    expect(led('Mask of Secrets', true)).toBe(false);
    expect(led('Mistweave', false)).toBe(false);
  });
});
