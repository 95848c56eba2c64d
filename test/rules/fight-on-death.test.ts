/**
 * Fighting on death (src/rules/battle/fight-on-death.ts) through TO THEIR FINAL BREATH (Aspect Host) and
 * HEROES' FALL (Ghosts of the Webway): a model of the unit destroyed in the Fight phase before it has fought
 * rolls a D6; on 4+ it fights the attacking unit once that unit has made its attacks, from where it stood,
 * then stays removed.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { DiceRolledEvent, GameEvent } from '../../src/core/events.ts';
import type { Game } from '../../src/core/game.ts';
import { createStream } from '../../src/core/rng.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { usableStratagems } from '../../src/rules/windows.ts';
import { FALLEN_WARRIOR } from '../../src/rules/battle/fight-on-death.ts';
import { registerRule } from '../../src/core/rules-registry.ts';
import { apply } from '../../src/core/reducer.ts';
import { emptyGameState } from '../../src/core/state.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { inEngagementRange } from '../../src/geometry/ranges.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { ruleChecker } from '../helpers/rule-checks.ts';

// five Howling Banshees (player 0, Aspect Host) or five Troupe players (Ghosts of the Webway) in a column, twenty
// Kroot Carnivores (player 1) in a column beside them
const HB: PlacedUnit = { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 10, y: 10 }, spacing: 1.2 };
const KC: PlacedUnit = { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 11.1, y: 9.4 }, spacing: 0.6, counts: [20, 0] };

interface Case { stratagem: string; detachment: string; unit: PlacedUnit; attacks: number }
const CASES: Case[] = [
  // Banshee blade: 2 attacks
  { stratagem: 'TO THEIR FINAL BREATH', detachment: 'Aspect Host', unit: HB, attacks: 2 },
  // Harlequin's blade: 5 attacks
  { stratagem: "HEROES' FALL", detachment: 'Ghosts of the Webway', unit: { ...HB, name: 'Troupe' }, attacks: 5 },
];

const using = (name: string | null) => (r: DecisionRequest) =>
  (r.kind === 'stratagem' && name ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : 0);

function sandbox(seed: string, stratagem: string | null, detachment: string | null = 'Aspect Host', unit: PlacedUnit = HB, kroot: PlacedUnit = KC): Game {
  return battleSandbox([unit, kroot], {
    phase: 'fight', turn: 1, cp: [3, 3], detachments: [detachment, null], factions: ['AE', 'TAU'], stream: createStream(seed),
    agents: [scriptedAgent('ae', using(stratagem)), scriptedAgent('tau')],
  });
}

/** The index of the last event matching `f` (-1: none). */
function lastIndex(log: readonly GameEvent[], f: (e: GameEvent) => boolean): number {
  for (let i = log.length - 1; i >= 0; i--) if (f(log[i])) return i;
  return -1;
}
const dice = (log: readonly GameEvent[]) => log.filter((e): e is DiceRolledEvent => e.type === 'dice');
const onDeath = (log: readonly GameEvent[]) => dice(log).filter((e) => e.label === 'fight on death');
const killedBy = (log: readonly GameEvent[], by: string) => log.filter((e) => e.type === 'model-destroyed' && e.unit === 'HB' && e.by === by).length;

/** The Kroot fight the player's unit: the log from the fight on. */
function krootFight(seed: string, stratagem: string | null, detachment?: string | null, unit?: PlacedUnit): { g: Game; log: GameEvent[] } {
  const g = sandbox(seed, stratagem, detachment, unit);
  const from = g.log!.length;
  fight(g, g.state.units.KC);
  return { g, log: g.log!.slice(from) };
}

describe('TO THEIR FINAL BREATH: fighting on death', () => {
  it('is offered against the enemy unit that selected the Aspect Warriors (HEROES\' FALL: HARLEQUINS) as targets in a Fight phase, and costs 1 CP', () => {
    const g = sandbox('offer', null);
    const w = { name: 'fight/after-enemy-targets' as const, unit: 'KC', targets: ['HB'] };
    expect(usableStratagems(g, w, 0).filter((x) => x.s.name === 'TO THEIR FINAL BREATH').map((x) => [x.unit.id, x.s.cp])).toEqual([['HB', 1]]);
    // not for the player's own unit selecting targets, nor without the detachment
    expect(usableStratagems(g, { ...w, unit: 'HB', targets: ['KC'] }, 0).some((x) => x.s.name === 'TO THEIR FINAL BREATH')).toBe(false);
    expect(usableStratagems(sandbox('offer', null, null), w, 0).some((x) => x.s.name === 'TO THEIR FINAL BREATH')).toBe(false);
    // HEROES' FALL: for a HARLEQUINS unit in the Ghosts of the Webway, not for Aspect Warriors
    const heroes = (unit: PlacedUnit) => usableStratagems(sandbox('offer', null, 'Ghosts of the Webway', unit), w, 0).filter((x) => x.s.name === "HEROES' FALL").map((x) => x.unit.id);
    expect(heroes(CASES[1].unit)).toEqual(['HB']);
    expect(heroes(HB)).toEqual([]);
  });

  it.each(CASES)('$stratagem: a D6 for each model destroyed; each 4+ fights back after the attacking unit has made its attacks, with its own melee attacks, then stays removed', ({ stratagem, detachment, unit, attacks }) => {
    let seen = { passed: 0, failed: 0 };
    for (let i = 0; i < 40 && (seen.passed === 0 || seen.failed === 0); i++) {
      const { g, log } = krootFight(`fod-${i}`, stratagem, detachment, unit);
      const rolls = onDeath(log);
      // one D6 for each Banshee the Kroot destroyed, no more
      expect(rolls.length).toBe(killedBy(log, 'KC'));
      const passed = rolls.filter((e) => e.values[0] >= 4).length;
      seen = { passed: seen.passed + passed, failed: seen.failed + rolls.length - passed };
      const fallen = log.filter((e) => e.type === 'effect-added' && e.effect.kind === FALLEN_WARRIOR);
      expect(fallen.length).toBe(passed);
      // the unit's Attacks: nothing before the Kroot's last attack dice; then its melee weapon's attacks for each fallen model
      const lastKroot = lastIndex(log, (e) => e.type === 'dice' && e.unit === 'KC' && ['hit', 'wound', 'damage'].includes(e.purpose));
      const banshees = dice(log).filter((e) => e.unit === 'HB' && e.purpose === 'hit');
      const hitDice = banshees.reduce((n, e) => n + e.values.length, 0);
      expect(hitDice).toBe(attacks * passed);
      if (passed > 0) {
        const firstBanshee = log.findIndex((e) => e.type === 'dice' && e.unit === 'HB' && e.purpose === 'hit');
        expect(firstBanshee).toBeGreaterThan(lastKroot);
        // ... once the Kroot are marked as having fought (so Kroot the fallen destroy do not fight on death), marked once
        const marks = log.flatMap((e, i) => (e.type === 'unit-flag' && e.unit === 'KC' && e.flag === 'fought' ? [i] : []));
        expect(marks).toHaveLength(1);
        expect(firstBanshee).toBeGreaterThan(marks[0]);
        // ... and before they consolidate
        const consolidated = log.findIndex((e) => e.type === 'models-placed' && e.unit === 'KC' && e.mode === 'consolidate');
        if (consolidated >= 0) expect(firstBanshee).toBeLessThan(consolidated);
      }
      // the fallen stay destroyed, no effect is left waiting, and the Banshees still alive have not fought
      const hb = g.state.units.HB;
      expect(hb.models.filter((m) => !m.alive).length).toBe(killedBy(g.log!, 'KC'));
      expect(g.state.effects.some((e) => e.kind === FALLEN_WARRIOR)).toBe(false);
      expect(hb.flags.fought).toBe(false);
    }
    expect(seen.passed).toBeGreaterThan(0);
    expect(seen.failed).toBeGreaterThan(0);
  });

  it('the fallen follow the fight sequence: the enemy may answer their choice of targets (its own TO THEIR FINAL BREATH here), and the rules acting after a unit\'s attacks act', () => {
    // player 1's Howling Banshees (Aspect Host too) fight player 0's; the fallen Banshees of player 0 fight back
    const B2: PlacedUnit = { ...KC, id: 'B2', faction: 'aeldari', name: 'Howling Banshees', counts: undefined, spacing: 1.2 };
    const heard: { unit: string; hit: readonly string[] }[] = [];
    const after = 'Test: after attacks';
    registerRule({ name: after, kind: 'effect', afterAttacks: (_g, unit, hitTargets, melee) => { if (melee) heard.push({ unit: unit.id, hit: hitTargets }); } });
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      const asked: DecisionRequest[] = [];
      const g = battleSandbox([HB, B2], {
        phase: 'fight', turn: 1, cp: [3, 3], detachments: ['Aspect Host', 'Aspect Host'], factions: ['AE', 'AE'], stream: createStream(`fallen-window-${i}`),
        agents: [scriptedAgent('ae', using('TO THEIR FINAL BREATH')), scriptedAgent('ae2', (r) => { asked.push(r); return 0; })],
      });
      g.addEffect(after, 0, 'HB', g.untilEndOfPhase());
      heard.length = 0;
      const from = g.log!.length;
      fight(g, g.state.units.B2);
      const log = g.log!.slice(from);
      const fallenHits = dice(log).filter((e) => e.unit === 'HB' && e.purpose === 'hit');
      if (fallenHits.length === 0) continue;
      found = true;
      // player 1 was asked in the window the fallen's targets opened, TO THEIR FINAL BREATH offered for its Banshees
      const offers = asked.filter((r) => r.kind === 'stratagem' && (r.context as { window?: { unit: string } }).window?.unit === 'HB');
      expect(offers.length).toBeGreaterThan(0);
      expect((offers[0].context as { window: { name: string } }).window.name).toBe('fight/after-enemy-targets');
      expect(offers[0].options.some((o) => (o as { stratagem?: string; unit?: string }).stratagem === 'TO THEIR FINAL BREATH' && (o as { unit?: string }).unit === 'B2')).toBe(true);
      // ... before the fallen rolled their first Hit roll; and the after-attacks rule heard the fallen's attacks
      const first = log.indexOf(fallenHits[0]);
      const lastB2 = lastIndex(log.slice(0, first), (e) => e.type === 'dice' && e.unit === 'B2');
      const offered = log.findIndex((e, k) => k > lastB2 && e.type === 'decision' && e.player === 1 && e.request === 'stratagem');
      expect(offered).toBeGreaterThan(lastB2);
      expect(offered).toBeLessThan(first);
      expect(heard.filter((h) => h.unit === 'HB')).toHaveLength(1);
    }
    expect(found).toBe(true);
  });

  it('the fallen may pile in before they fight (the Rules Commentary): one out of reach where it fell reaches the Kroot and fights; the rule checks pass, and flag a longer move', () => {
    const checks = (events: readonly GameEvent[]) => {
      const rules = ruleChecker();
      const state = emptyGameState();
      for (const e of events) { apply(state, e); rules.onEvent(e, state); }
      return rules;
    };
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      // ten Banshees in two ranks: the front one beside the Kroot, the back one 1.3" behind it, out of Engagement Range;
      // ten Kroot in a column as long as the Banshees' front rank (twenty would reach past its end with their own
      // Pile-in and engage the back rank)
      const g = sandbox(`pile-${i}`, 'TO THEIR FINAL BREATH', 'Aspect Host', { ...HB, counts: [1, 9] }, { ...KC, counts: [10, 0] });
      g.emit({ type: 'models-placed', unit: 'HB', mode: 'test', positions: g.state.units.HB.models.map((m, k) => ({ model: m.id, pos: { x: k < 5 ? 10 : 8.7, y: 10 + (k % 5) * 1.2, z: 0 } })) });
      const from = g.log!.length;
      fight(g, g.state.units.KC);
      const log = g.log!.slice(from);
      const piled = log.filter((e): e is Extract<GameEvent, { type: 'fallen-piled-in' }> => e.type === 'fallen-piled-in');
      if (piled.length === 0) continue;
      const kroot = g.state.units.KC.models.filter((m) => m.alive && m.pos).map((m) => modelBody(g.state, m));
      const fellAt = new Map(log.flatMap((e) => (e.type === 'effect-added' && e.effect.kind === FALLEN_WARRIOR ? [[String(e.effect.params.model), e.effect.params as { x: number; y: number; z: number }]] : [])));
      const hb = g.state.units.HB;
      const reached = piled[0].positions.filter(({ model, pos }) => {
        const m = hb.models.find((x) => x.id === model)!;
        const at = fellAt.get(model)!;
        const before = modelBody(g.state, { ...m, pos: { x: at.x, y: at.y, z: at.z } });
        const after = modelBody(g.state, { ...m, pos });
        return !kroot.some((k) => inEngagementRange(before, k)) && kroot.some((k) => inEngagementRange(after, k));
      });
      if (reached.length === 0) continue;
      found = true;
      // the Banshees' attacks come after the Pile-in, and the Kroot have not consolidated yet
      const at = log.indexOf(piled[0]);
      expect(log.findIndex((e) => e.type === 'dice' && e.unit === 'HB' && e.purpose === 'hit')).toBeGreaterThan(at);
      // (the sandbox's packed Kroot overlap one another: only the checks of the fallen are read)
      const ok = checks(g.log!);
      expect(ok.violations.filter((v) => /fallen/.test(v))).toEqual([]);
      expect(ok.checked.get('fallen pile-in')).toBeGreaterThan(0);
      // the same event with a model moved 5" farther is flagged
      const k = g.log!.indexOf(piled[0]);
      const stretched = { ...piled[0], positions: piled[0].positions.map((p) => ({ ...p, pos: { ...p.pos, x: p.pos.x + 5 } })) };
      expect(checks([...g.log!.slice(0, k), stretched, ...g.log!.slice(k + 1)]).violations.some((v) => /fallen-piled-in: .* moved/.test(v))).toBe(true);
      // ... and so is one that moves 1" away from the Kroot (within reach, but no closer)
      const away = { ...piled[0], positions: piled[0].positions.map((p) => { const at = fellAt.get(p.model)!; return { ...p, pos: { x: at.x - 1, y: at.y, z: at.z } }; }) };
      expect(checks([...g.log!.slice(0, k), away, ...g.log!.slice(k + 1)]).violations.some((v) => /fallen-piled-in: .* ends no closer/.test(v))).toBe(true);
    }
    expect(found).toBe(true);
  });

  it('without the stratagem, or once the unit has fought this phase, a destroyed model does not fight on', () => {
    for (let i = 0; i < 6; i++) {
      const { log } = krootFight(`fod-${i}`, null);
      expect(killedBy(log, 'KC')).toBeGreaterThan(0);
      expect(onDeath(log)).toEqual([]);
      expect(dice(log).some((e) => e.unit === 'HB' && e.purpose === 'hit')).toBe(false);
    }
    // the Banshees fought first: their models destroyed afterwards roll nothing
    const g = sandbox('fod-0', 'TO THEIR FINAL BREATH');
    g.emit({ type: 'unit-flag', unit: 'HB', flag: 'fought', value: true });
    const from = g.log!.length;
    fight(g, g.state.units.KC);
    const log = g.log!.slice(from);
    expect(killedBy(log, 'KC')).toBeGreaterThan(0);
    expect(log.some((e) => e.type === 'stratagem-used')).toBe(true);
    expect(onDeath(log)).toEqual([]);
  });
});

describe('Fight on Death before Deadly Demise (the Rules Commentary)', () => {
  /**
   * A Starweaver (1 wound left, a Troupe embarked) that fights on death (PARTING THE VEIL's effect: no roll)
   * is destroyed by the Kroot's attacks: it fights first, then its Deadly Demise is rolled, then the Troupe
   * disembarks.
   */
  function starweaverFalls(seed: string): { g: Game; log: GameEvent[] } {
    const g = battleSandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
      { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 40, y: 5 }, counts: [20, 0] },
    ], { phase: 'fight', turn: 1, factions: ['AE', 'TAU'], stream: createStream(seed), agents: [scriptedAgent('ae'), scriptedAgent('tau')] });
    g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
    const sw = g.state.units.SW.models[0];
    g.emit({ type: 'model-damaged', unit: 'SW', model: sw.id, wounds: sw.wounds - 1, by: null, mortal: false });
    // the Kroot in two columns along the hull's east side, the first just within Engagement Range of it
    const hull = modelBody(g.state, sw);
    const kroot = g.state.units.KC.models;
    let x = 20;
    while (inEngagementRange(modelBody(g.state, { ...kroot[0], pos: { x: x + 0.05, y: 20, z: 0 } }), hull)) x += 0.05;
    const positions = kroot.map((m, i) => ({ model: m.id, pos: { x: x + (i % 2) * 1.1, y: 20 + (Math.floor(i / 2) - 5) * 1.1, z: 0 } }));
    g.emit({ type: 'models-placed', unit: 'KC', mode: 'test', positions });
    g.addEffect('Parting the Veil', 0, 'SW', g.untilEndOfPhase());
    const from = g.log!.length;
    fight(g, g.state.units.KC);
    return { g, log: g.log!.slice(from) };
  }

  it('the fallen Starweaver fights before its Deadly Demise is rolled, which comes before its passengers disembark', () => {
    let checked = 0;
    for (let i = 0; i < 30 && checked < 3; i++) {
      const { g, log } = starweaverFalls(`fod-dd-${i}`);
      const destroyed = log.findIndex((e) => e.type === 'model-destroyed' && e.unit === 'SW');
      if (destroyed < 0) continue;
      checked++;
      const fallenHits = log.findIndex((e) => e.type === 'dice' && e.unit === 'SW' && e.purpose === 'hit');
      const demise = log.findIndex((e) => e.type === 'dice' && e.purpose === 'deadly-demise');
      const out = log.findIndex((e) => e.type === 'models-placed' && e.unit === 'TR');
      expect(fallenHits).toBeGreaterThan(destroyed);
      expect(demise).toBeGreaterThan(fallenHits);
      // the Troupe got out after the Deadly Demise, around the hull where it stood (the west side is free)
      expect(out).toBeGreaterThan(demise);
      expect(g.state.units.TR.location).toBe('battlefield');
      {
        const piled = log.find((e) => e.type === 'fallen-piled-in' && e.unit === 'SW');
        const pos = piled?.type === 'fallen-piled-in' ? piled.positions[0].pos : { x: 20, y: 20, z: 0 };
        const hull = modelBody(g.state, { ...g.state.units.SW.models[0], alive: true, pos });
        for (const m of g.state.units.TR.models) if (m.alive) expect(horizontalDistance(modelBody(g.state, m), hull)).toBeLessThanOrEqual(3 + 1e-6);
      }
      expect(g.state.effects.some((e) => e.kind === FALLEN_WARRIOR)).toBe(false);
    }
    expect(checked).toBe(3);
  });
});

describe('a fallen Leader whose Attached unit splits as the attacks end', () => {
  it('still fights, from where it fell, as its own unit', () => {
    // an Autarch leading five Howling Banshees (Aspect Host, TO THEIR FINAL BREATH), down to its last wound; the
    // Kroot's melee attacks have PRECISION here (a test effect), so the Autarch can fall while Banshees stand:
    // its part of the Attached unit is destroyed, the unit splits as the Kroot's attacks end, and the
    // Autarch's stand-in, its D6 passed, must fight all the same (it was once lost with the split)
    const AU: PlacedUnit = { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 10, y: 16.2 } };
    const precise = 'Test: precision';
    registerRule({ name: precise, kind: 'effect', attack(plan, ctx, src) { if (src.role === 'attacker' && ctx.melee) plan.precision = true; } });
    let found = 0;
    for (let i = 0; i < 80 && found < 2; i++) {
      const g = battleSandbox([HB, AU, KC], {
        phase: 'fight', turn: 1, cp: [3, 3], detachments: ['Aspect Host', null], factions: ['AE', 'TAU'], stream: createStream(`fallen-leader-${i}`),
        agents: [scriptedAgent('ae', using('TO THEIR FINAL BREATH')), scriptedAgent('tau')],
      });
      g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: 'HB' });
      const autarch = g.state.units.HB.models.find((m) => m.id === 'AU-m1')!;
      g.emit({ type: 'model-damaged', unit: 'HB', model: autarch.id, wounds: autarch.wounds - 1, by: null, mortal: false });
      g.addEffect(precise, 1, 'KC', g.untilEndOfPhase());
      const from = g.log!.length;
      fight(g, g.state.units.KC);
      const log = g.log!.slice(from);
      const leaderFell = log.some((e) => e.type === 'effect-added' && e.effect.kind === FALLEN_WARRIOR && e.effect.params.model === 'AU-m1');
      const split = log.findIndex((e) => e.type === 'unit-detached' && e.leader === 'AU');
      if (!leaderFell || split < 0) continue;
      found++;
      // the Autarch's attacks come after the split, rolled for its own unit
      const autarchHits = log.findIndex((e, k) => k > split && e.type === 'dice' && e.purpose === 'hit' && e.unit === 'AU');
      expect(autarchHits, `seed fallen-leader-${i}`).toBeGreaterThan(split);
      expect(g.state.effects.some((e) => e.kind === FALLEN_WARRIOR)).toBe(false);
    }
    expect(found).toBe(2);
  });
});
