/**
 * Kauyon's, Mont'ka's and the Armoured Warhost's Enhancements (src/factions/tau/enhancements.ts,
 * src/factions/aeldari/enhancements.ts): each against the same situation without it.
 */
import { describe, expect, it } from 'vitest';
import { startPhase } from '../../src/rules/battle/phase.ts';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule, isLoneOperative, weaponHas } from '../../src/core/rules-registry.ts';
import type { PhaseName } from '../../src/core/state.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { updateObjectiveControl } from '../../src/rules/battle/objectives.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { GUIDED } from '../../src/factions/tau/army-rule.ts';
import { beforeScoutMoves, scoutsDistance } from '../../src/rules/battle/pre-battle.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { playGame } from '../../src/sim/play.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

/** A Cadre Fireblade (F, with `enhancement`) leading a Strike Team (ST) when `attached`, a second Strike Team (S2), and a Wave Serpent (WS) 20" away. */
function tau(opts: { enhancement?: string; attached?: boolean; round?: number; detachment?: string; pick?: (r: DecisionRequest) => number; objectives?: { id: string; pos: { x: number; y: number } }[] } = {}): Game {
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 16 }, spacing: 1 },
    { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 11.5, y: 16 }, ...(opts.enhancement ? { enhancement: opts.enhancement } : {}) },
    { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 26 }, spacing: 1 },
    { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 32, y: 20 } },
  ], { phase: 'shooting', round: opts.round ?? 2, detachments: [opts.detachment ?? 'Kauyon', null], objectives: opts.objectives, agents: [scriptedAgent('tau', opts.pick), scriptedAgent('ae')] });
  if (opts.attached ?? true) g.emit({ type: 'unit-attached', leader: 'F', bodyguard: 'ST' });
  return g;
}

describe('Kauyon Enhancements', () => {
  it('Exemplar of the Kauyon: Patient Hunter (SUSTAINED HITS 1) for the unit the bearer leads from battle round 2; not in round 1, not without it, not for a bearer on its own', () => {
    const sustained = (g: Game) => planFor(g, 'ST', 'WS', 'Pulse rifle').sustainedHits;
    expect(sustained(tau({ enhancement: 'Exemplar of the Kauyon' }))).toBe(1);
    expect(sustained(tau())).toBe(0);
    expect(sustained(tau({ enhancement: 'Exemplar of the Kauyon', round: 1 }))).toBe(0);
    expect(planFor(tau({ enhancement: 'Exemplar of the Kauyon', attached: false }), 'F', 'WS', 'Fireblade pulse rifle').sustainedHits).toBe(0);
    // from round 3 the detachment rule gives it to every unit anyway
    expect(sustained(tau({ round: 3 }))).toBe(1);
  });

  it('Precision of the Patient Hunter: +1 to the bearer\'s ranged Hit rolls, and +1 to wound from battle round 3; the Fire Warriors beside it get neither', () => {
    const g2 = tau({ enhancement: 'Precision of the Patient Hunter' });
    expect([planFor(g2, 'ST', 'WS', 'Fireblade pulse rifle').hitModifier, planFor(g2, 'ST', 'WS', 'Fireblade pulse rifle').woundModifier]).toEqual([1, 0]);
    expect(planFor(g2, 'ST', 'WS', 'Pulse rifle').hitModifier).toBe(0);
    const g3 = tau({ enhancement: 'Precision of the Patient Hunter', round: 3 });
    expect([planFor(g3, 'ST', 'WS', 'Fireblade pulse rifle').hitModifier, planFor(g3, 'ST', 'WS', 'Fireblade pulse rifle').woundModifier]).toEqual([1, 1]);
    const none = tau({ round: 3 });
    expect([planFor(none, 'ST', 'WS', 'Fireblade pulse rifle').hitModifier, planFor(none, 'ST', 'WS', 'Fireblade pulse rifle').woundModifier]).toEqual([0, 0]);
  });

  it('Through Unity, Devastation: when the unit the bearer leads is an Observer, its Guided unit has LETHAL HITS against the Spotted unit', () => {
    // S2 shoots and becomes Guided, with the led Strike Team as its Observer and the Wave Serpent Spotted
    const observedBy = (r: DecisionRequest) => (r.kind === 'for-the-greater-good' ? Math.max(0, (r.options as { observer?: string }[]).findIndex((o) => o.observer === 'ST')) : 0);
    for (const [enhancement, lethal] of [['Through Unity, Devastation', true], [undefined, false]] as const) {
      const g = tau({ ...(enhancement ? { enhancement } : {}), pick: observedBy });
      shootWithUnit(g, g.state.units.S2);
      expect(g.state.effects.some((e) => e.kind === GUIDED && e.unit === 'S2' && e.params.observer === 'ST')).toBe(true);
      expect(planFor(g, 'S2', 'WS', 'Pulse rifle').lethalHits).toBe(lethal);
    }
  });
});

describe("Mont'ka Enhancements", () => {
  it("Exemplar of the Mont'ka: Killing Blow's ASSAULT for the led unit in battle round 4 as well; not without it, nor in round 5", () => {
    const rifle = (g: Game) => g.state.datasheets[g.state.units.ST.models[0].datasheet].weapons.find((w) => w.name === 'Pulse rifle')!.profiles[0];
    const assault = (g: Game) => weaponHas(g.state, g.state.units.ST, rifle(g), 'ASSAULT');
    expect(assault(tau({ detachment: "Mont'ka", round: 4, enhancement: "Exemplar of the Mont'ka" }))).toBe(true);
    expect(assault(tau({ detachment: "Mont'ka", round: 4 }))).toBe(false);
    expect(assault(tau({ detachment: "Mont'ka", round: 5, enhancement: "Exemplar of the Mont'ka" }))).toBe(false);
    expect(assault(tau({ detachment: "Mont'ka", round: 3 }))).toBe(true);
  });

  it("Exemplar of the Mont'ka: Killing Blow's LETHAL HITS for the led unit, Guided, in battle round 4 too; not without it, nor in round 5 (audit 19 mutant E03)", () => {
    // the led Strike Team shoots and becomes Guided, with S2 its Observer and the Wave Serpent Spotted
    const observedBy = (r: DecisionRequest) => (r.kind === 'for-the-greater-good' ? Math.max(0, (r.options as { observer?: string }[]).findIndex((o) => o.observer === 'S2')) : 0);
    for (const [round, enhancement, lethal] of [[4, "Exemplar of the Mont'ka", true], [4, undefined, false], [5, "Exemplar of the Mont'ka", false]] as const) {
      const g = tau({ detachment: "Mont'ka", round, ...(enhancement ? { enhancement } : {}), pick: observedBy });
      shootWithUnit(g, g.state.units.ST);
      expect(g.state.effects.some((e) => e.kind === GUIDED && e.unit === 'ST'), `round ${round}`).toBe(true);
      expect(planFor(g, 'ST', 'WS', 'Pulse rifle').lethalHits, `round ${round}, ${enhancement ?? 'no Enhancement'}`).toBe(lethal);
    }
  });

  it('Coordinated Exploitation: when the led unit is an Observer, its Guided unit has SUSTAINED HITS 1 against the Spotted unit', () => {
    const observedBy = (r: DecisionRequest) => (r.kind === 'for-the-greater-good' ? Math.max(0, (r.options as { observer?: string }[]).findIndex((o) => o.observer === 'ST')) : 0);
    for (const [enhancement, sustained] of [['Coordinated Exploitation', 1], [undefined, 0]] as const) {
      const g = tau({ detachment: "Mont'ka", round: 5, ...(enhancement ? { enhancement } : {}), pick: observedBy });
      shootWithUnit(g, g.state.units.S2);
      expect(planFor(g, 'S2', 'WS', 'Pulse rifle').sustainedHits).toBe(sustained);
    }
  });

  it('Strategic Conqueror in a played game: the marker is chosen once, at the start of the first battle round, before the first turn', () => {
    const sc = miniScenario({ tau: ['Strike Team', 'Cadre Fireblade', 'Crisis Sunforge Battlesuits'], rounds: 1 });
    sc.players[0].detachment = "Mont'ka";
    sc.players[0].army.units[1].enhancement = 'Strategic Conqueror';
    const { game } = playGame(sc, { seed: 'conqueror', agents: [createHeuristic(), createHeuristic()], log: true });
    const log = game.log ?? [];
    const asked = log.findIndex((e) => e.type === 'decision' && e.request === 'strategic-conqueror');
    expect(asked).toBeGreaterThan(-1);
    expect(log.filter((e) => e.type === 'decision' && e.request === 'strategic-conqueror')).toHaveLength(1);
    expect(asked).toBeLessThan(log.findIndex((e) => e.type === 'turn-started'));
    expect(game.state.effects.filter((e) => e.kind === 'Strategic Conqueror')).toHaveLength(1);
  });

  it('Strategic Conqueror: +1 OC for T\'AU EMPIRE models within range of the chosen marker while the bearer is on the battlefield', () => {
    // o2 under the Strike Team's first model, o1 at the centre, away from everyone
    const objectives = [{ id: 'o1', pos: { x: 30, y: 22 } }, { id: 'o2', pos: { x: 10, y: 16 } }];
    const g = tau({ detachment: "Mont'ka", enhancement: 'Strategic Conqueror', objectives, pick: (r) => (r.kind === 'strategic-conqueror' ? (r.options as string[]).indexOf('o2') : 0) });
    const s = g.state;
    getRule('Strategic Conqueror')!.battleStart!(g, s.units.ST);
    const [near] = s.units.ST.models;
    const far = s.units.S2.models[0];
    const base = s.datasheets[near.datasheet].models[near.profile].oc;
    expect(characteristic(s, s.units.ST, near, 'OC')).toBe(base + 1);
    expect(characteristic(s, s.units.S2, far, 'OC')).toBe(base);
    // the bearer gone: no more
    const bearer = s.units.ST.models.find((m) => m.origin === 'F')!;
    g.emit({ type: 'model-destroyed', unit: 'ST', model: bearer.id, by: null, reason: 'test' });
    expect(characteristic(g.state, g.state.units.ST, near, 'OC')).toBe(base);
  });
});

describe("Strike Swiftly (Mont'ka)", () => {
  /** The Fireblade bearer (alone) at (10, 16); a Strike Team 3" off, a Pathfinder Team (Scouts 7") 3" off, a second Strike Team 20" off. */
  function swiftly(picks: string[]) {
    const offered: string[][] = [];
    const pick = (r: DecisionRequest) => {
      if (r.kind !== 'strike-swiftly') return 0;
      const ids = (r.options as ({ done: true } | { unit: string })[]).map((o) => ('done' in o ? 'done' : o.unit));
      offered.push(ids);
      return Math.max(0, ids.indexOf(picks[offered.length - 1]));
    };
    const g = battleSandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 16 }, enhancement: 'Strike Swiftly' },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 13, y: 16 }, spacing: 1 },
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 7, y: 16 }, spacing: 1 },
      { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 16 }, spacing: 1 },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 55, y: 20 } },
    ], { agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
    beforeScoutMoves(g);
    return { g, offered };
  }

  it('up to two units within 6" of the bearer without Scouts get Scouts 6" (the bearer\'s own unit may be one); not a unit 20" away, nor one with Scouts of its own', () => {
    const { g, offered } = swiftly(['ST', 'F']);
    expect(offered).toEqual([['done', 'F', 'ST'], ['done', 'F']]);
    const s = g.state;
    expect([scoutsDistance(s, s.units.ST), scoutsDistance(s, s.units.F), scoutsDistance(s, s.units.S2), scoutsDistance(s, s.units.PF)]).toEqual([6, 6, 0, 7]);
  });

  it('the player may stop after one, or choose none', () => {
    const one = swiftly(['ST', 'done']);
    expect(scoutsDistance(one.g.state, one.g.state.units.F)).toBe(0);
    expect(scoutsDistance(one.g.state, one.g.state.units.ST)).toBe(6);
    const none = swiftly(['done']);
    expect(none.offered).toHaveLength(1);
    expect(scoutsDistance(none.g.state, none.g.state.units.ST)).toBe(0);
  });
});

describe('Armoured Warhost Enhancements', () => {
  /** A Farseer (FS, with `enhancement`) on the centre marker, a Falcon (FA) 4" east of it (its hull about 1" away), a Strike Team far off. */
  function ae(enhancement: string, opts: { at?: { x: number; y: number }; dice?: number[]; phase?: PhaseName } = {}): Game {
    const units: PlacedUnit[] = [
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 30, y: 22 }, enhancement },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Falcon', at: opts.at ?? { x: 34, y: 22 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 4 }, spacing: 1 },
    ];
    return battleSandbox(units, { phase: opts.phase ?? 'command', turn: 1, round: 2, detachments: [null, 'Armoured Warhost'], ...(opts.dice ? { stream: scriptedStream(opts.dice) } : {}) });
  }
  const start = (g: Game, phase: PhaseName) => getRule(g.state.units.FS.enhancement!)!.phaseStart!(g, g.state.units.FS, phase);

  it('Guiding Presence: at the start of its Shooting phase a VEHICLE model within 9" adds 1 to its Hit rolls until the end of the phase; one 12" away is not offered', () => {
    const g = ae('Guiding Presence', { phase: 'shooting' });
    expect(planFor(g, 'FA', 'ST', 'Pulse laser').hitModifier).toBe(0);
    start(g, 'shooting');
    expect(planFor(g, 'FA', 'ST', 'Pulse laser').hitModifier).toBe(1);
    const farther = ae('Guiding Presence', { phase: 'shooting', at: { x: 48, y: 22 } });
    start(farther, 'shooting');
    expect(planFor(farther, 'FA', 'ST', 'Pulse laser').hitModifier).toBe(0);
  });

  it('Guiding Presence on one War Walker of two: that model\'s attacks hit on 2s with the +1, its partner\'s do not (audit 16: they shared one weapon group)', () => {
    const g = battleSandbox([
      { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 20, y: 20 }, enhancement: 'Guiding Presence' },
      { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', counts: [2], at: { x: 24, y: 20 }, spacing: 4 },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 9], at: { x: 40, y: 16 }, spacing: 1.2 },
    ], { factions: ['AE', 'TAU'], detachments: ['Armoured Warhost', null], phase: 'shooting', turn: 0, round: 2, agents: [scriptedAgent('ae'), scriptedAgent('tau')], stream: scriptedStream(Array(200).fill(2)) });
    getRule('Guiding Presence')!.phaseStart!(g, g.state.units.FS, 'shooting');
    expect(g.state.effects.find((e) => e.kind === 'Guiding Presence')?.params.model).toBe('WW-m1');
    shootWithUnit(g, g.state.units.WW);
    const dice = (purpose: string) => (g.log ?? []).reduce((n, e) => n + (e.type === 'dice' && e.unit === 'WW' && e.purpose === purpose ? e.values.length : 0), 0);
    // each War Walker fires 6 shots (two shuriken cannons, 3 each) at BS 3+: every die a 2, so only the chosen one's hit
    expect(dice('hit')).toBe(12);
    expect(dice('wound')).toBe(6);
  });

  it('Harmonisation Matrix: in its Command phase, on a marker its player controls, a 3+ on a D6 gains 1CP, a 2 does not; off the marker, no roll', () => {
    for (const [die, gained] of [[3, 1], [2, 0]] as const) {
      const g = ae('Harmonisation Matrix', { dice: [die] });
      updateObjectiveControl(g);
      expect(g.state.objectives[0].controller).toBe(1);
      const cp = g.state.players[1].cp;
      start(g, 'command');
      expect(g.state.players[1].cp - cp).toBe(gained);
    }
    const off = ae('Harmonisation Matrix', { dice: [] });
    g_move(off, 'FS', { x: 20, y: 10 });
    updateObjectiveControl(off);
    const cp = off.state.players[1].cp;
    start(off, 'command');
    expect(off.state.players[1].cp).toBe(cp);
  });

  it('Harmonisation Matrix from inside a Transport: the Falcon the bearer is embarked within is on the marker: the D6 is rolled as the Command phase starts; a Falcon far from it, no roll', () => {
    const embarked = (at: { x: number; y: number }, dice: number[]) => {
      const g = ae('Harmonisation Matrix', { at, dice });
      g.emit({ type: 'unit-location', unit: 'FS', location: 'embarked', embarkedIn: 'FA' });
      updateObjectiveControl(g);
      const cp = g.state.players[1].cp;
      startPhase(g, 1, 'command');
      return { held: g.state.objectives[0].controller, gained: g.state.players[1].cp - cp };
    };
    expect(embarked({ x: 34, y: 22 }, [3])).toEqual({ held: 1, gained: 1 });
    // the scripted dice are empty: a roll would throw
    expect(embarked({ x: 48, y: 22 }, [])).toEqual({ held: null, gained: 0 });
  });

  it('Spirit Stone of Raelyth: in its Command phase a VEHICLE model within 3" that lost wounds regains D3 (never above its Wounds)', () => {
    const hurt = (g: Game, n: number) => g.emit({ type: 'model-damaged', unit: 'FA', model: g.state.units.FA.models[0].id, wounds: n, by: null, mortal: false });
    const g = ae('Spirit Stone of Raelyth', { dice: [2] });
    const full = g.state.units.FA.models[0].wounds;
    hurt(g, 5);
    start(g, 'command');
    expect(g.state.units.FA.models[0].wounds).toBe(full - 3);
    const one = ae('Spirit Stone of Raelyth', { dice: [3] });
    hurt(one, 1);
    start(one, 'command');
    expect(one.state.units.FA.models[0].wounds).toBe(full);
    // more than 3" away: nothing is asked or rolled
    const far = ae('Spirit Stone of Raelyth', { dice: [], at: { x: 42, y: 22 } });
    hurt(far, 5);
    start(far, 'command');
    expect(far.state.units.FA.models[0].wounds).toBe(full - 5);
  });

  it('Spirit Stone of Raelyth: the bearer has Lone Operative within 3" of a friendly AELDARI VEHICLE, not farther, not while it leads a unit', () => {
    const g = ae('Spirit Stone of Raelyth');
    expect(isLoneOperative(g.state, g.state.units.FS)).toBe(true);
    const far = ae('Spirit Stone of Raelyth', { at: { x: 42, y: 22 } });
    expect(isLoneOperative(far.state, far.state.units.FS)).toBe(false);
    // the same Farseer without the Enhancement
    expect(isLoneOperative(ae('Lucid Eye').state, ae('Lucid Eye').state.units.FS)).toBe(false);
    // leading Guardian Defenders: an Attached unit
    const led = battleSandbox([
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 30, y: 22 }, enhancement: 'Spirit Stone of Raelyth' },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 31, y: 18 } },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 34, y: 22 } },
    ], { phase: 'command', turn: 1, detachments: [null, 'Armoured Warhost'] });
    led.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    expect(led.state.units.GD.abilities).toContain('Spirit Stone of Raelyth');
    expect(isLoneOperative(led.state, led.state.units.GD)).toBe(false);
  });
});

/** Move every model of a unit to `to` (one model units). */
function g_move(g: Game, unit: string, to: { x: number; y: number }): void {
  g.emit({ type: 'models-placed', unit, mode: 'test', positions: g.state.units[unit].models.map((m) => ({ model: m.id, pos: { x: to.x, y: to.y, z: 0 } })) });
}
