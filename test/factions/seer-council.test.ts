/**
 * The Seer Council (src/factions/aeldari/seer-council.ts): Strands of Fate (Seer Council), its six stratagems
 * and its four Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { targetableFrom, weaponRange } from '../../src/core/rules-registry.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { feelNoPainOf } from '../../src/rules/damage.ts';
import { startPhase } from '../../src/rules/battle/phase.ts';
import { commandPhase } from '../../src/rules/battle/command.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { rollFatePool } from '../../src/factions/aeldari/army-rule.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';

const SC = 'Seer Council';

/** Player 0 (Aeldari, Seer Council) answers with `pick`, player 1 (T'au) with `tau`; player 0's Fate pool is `fate`. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; cp?: [number, number]; fate?: number[] } = {},
  pick: (r: DecisionRequest) => number = () => 0, tau: (r: DecisionRequest) => number = () => 0): Game {
  const g = battleSandbox(units, {
    factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: opts.cp ?? [4, 3], detachments: [opts.detachment === undefined ? SC : opts.detachment, null],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau', tau)], ...(opts.stream ? { stream: opts.stream } : {}),
  });
  g.emit({ type: 'rule-state', player: 0, key: 'fate', value: opts.fate ?? [] });
  return g;
}

/** Use `name` whenever offered (at full cost unless `discounted`), and answer its own request `kind` with option `choice`. */
const using = (name: string, kind = '', choice = 0, discounted = false) => (r: DecisionRequest) => {
  if (r.kind === 'stratagem') {
    return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string; discount?: string }).stratagem === name && ((o as { discount?: string }).discount !== undefined) === discounted));
  }
  return r.kind === kind ? choice : 0;
};

// the Farseer (an ASURYANI PSYKER) 4" from the first Guardians; the second Guardians and the Wraithguard far away
const FS: PlacedUnit = { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 6, y: 5 } };
const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 2 }, spacing: 0.9 };
const G2: PlacedUnit = { id: 'G2', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 30 }, spacing: 0.9 };
const WG: PlacedUnit = { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 4, y: 8 }, spacing: 1.6 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 };
const DF: PlacedUnit = { id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 40, y: 30 } };

const shootingSelected = (id: string): Window => ({ name: 'shooting/unit-selected', unit: id, targets: [] });

describe('Strands of Fate (Seer Council)', () => {
  it('the pool starts with 3, 6 or 9 dice by battle size (six without the detachment)', () => {
    const dice = (mode: 'incursion' | 'strike-force' | 'onslaught', detachment: string | null) => {
      const g = battleSandbox([FS, ST], { factions: ['AE', 'TAU'], detachments: [detachment, null], mode, agents: [scriptedAgent('ae'), scriptedAgent('tau')] });
      return rollFatePool(g, 0).length;
    };
    expect([dice('incursion', SC), dice('strike-force', SC), dice('onslaught', SC)]).toEqual([3, 6, 9]);
    expect([dice('incursion', null), dice('onslaught', null)]).toEqual([6, 6]);
  });

  it('a Fate die of the listed value may be discarded to use the stratagem for 1CP less', () => {
    const g = sandbox([FS, GD, ST], { fate: [6, 4, 1] }, using('FATE INESCAPABLE', '', 0, true));
    const costs = usableStratagems(g, shootingSelected('GD'), 0).filter((x) => x.s.name === 'FATE INESCAPABLE').map((x) => x.cp);
    expect(costs).toEqual([1, 0]);
    expect(openWindow(g, shootingSelected('GD'))).toEqual(['FATE INESCAPABLE']);
    expect(g.state.players[0].cp).toBe(4);
    // the 4 (FATE INESCAPABLE's value) is gone, the others kept
    expect(g.state.players[0].ruleState.fate).toEqual([6, 1]);
    expect(g.state.players[0].stratagemsUsed.at(-1)!.cp).toBe(0);
  });

  it('no discount without a die of that value, nor without the detachment; with 0CP only the discounted use is offered', () => {
    const costs = (g: Game) => usableStratagems(g, shootingSelected('GD'), 0).filter((x) => x.s.name === 'FATE INESCAPABLE').map((x) => x.cp);
    expect(costs(sandbox([FS, GD, ST], { fate: [6, 5, 1] }))).toEqual([1]);
    expect(costs(sandbox([FS, GD, ST], { fate: [4], cp: [0, 3] }))).toEqual([0]);
    expect(costs(sandbox([FS, GD, ST], { fate: [5], cp: [0, 3] }))).toEqual([]);
    // a core stratagem is not discounted by it
    const g = sandbox([FS, GD, ST], { turn: 1, fate: [1, 2, 3, 4, 5, 6] });
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['GD'] };
    expect(usableStratagems(g, w, 0).filter((x) => x.s.name === 'GO TO GROUND').map((x) => x.cp)).toEqual([1]);
    // each stratagem its own value: PSYCHIC SHIELD (6)
    expect(usableStratagems(g, w, 0).filter((x) => x.s.name === 'PSYCHIC SHIELD').map((x) => x.cp)).toEqual([1, 0]);
    expect(usableStratagems(sandbox([FS, GD, ST], { turn: 1, fate: [1, 2, 3, 4, 5] }), w, 0).filter((x) => x.s.name === 'PSYCHIC SHIELD').map((x) => x.cp)).toEqual([1]);
  });
});

describe('Seer Council stratagems', () => {
  it('FATE INESCAPABLE: an ASURYANI INFANTRY unit (not a WRAITH CONSTRUCT) within 9" of a PSYKER: IGNORES COVER and +1 AP on Critical Wounds', () => {
    const g = sandbox([FS, GD, G2, WG, ST], {}, using('FATE INESCAPABLE'));
    for (const id of ['G2', 'WG']) expect(offered(g, shootingSelected(id), 0, 'FATE INESCAPABLE')).toEqual([]);
    expect(offered(g, shootingSelected('GD'), 0, 'FATE INESCAPABLE')).toEqual(['GD']);
    // the Farseer's own unit: a PSYKER within 9" of itself
    expect(offered(g, shootingSelected('FS'), 0, 'FATE INESCAPABLE')).toEqual(['FS']);
    const before = planFor(g, 'GD', 'ST', 'Shuriken catapult', { cover: true });
    expect([before.ignoresCover, before.criticalWoundAp]).toEqual([false, 0]);
    expect(openWindow(g, shootingSelected('GD'))).toEqual(['FATE INESCAPABLE']);
    const after = planFor(g, 'GD', 'ST', 'Shuriken catapult', { cover: true });
    expect([after.ignoresCover, after.criticalWoundAp]).toEqual([true, 1]);
  });

  it('ISHA\u2019S FURY: after an enemy unit ends a Normal move within 9" of the PSYKER, six D6: a mortal wound for each 3+', () => {
    // 3, 2, 6, 1, 5, 4: four mortal wounds, four Fire Warriors lost
    const g = sandbox([FS, GD, { ...ST, at: { x: 14, y: 5 } }], { phase: 'movement', turn: 1, stream: scriptedStream([3, 2, 6, 1, 5, 4]) }, using('ISHA\u2019S FURY'));
    const w: Window = { name: 'movement/after-enemy-move', unit: 'ST', targets: [] };
    expect(offered(g, w, 0, 'ISHA\u2019S FURY')).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
    // the Farseer only (the Guardians have no PSYKER model)
    expect(offered(g, w, 0, 'ISHA\u2019S FURY')).toEqual(['FS']);
    const alive = g.state.units.ST.models.filter((m) => m.alive).length;
    expect(openWindow(g, w)).toEqual(['ISHA\u2019S FURY']);
    expect(g.state.units.ST.models.filter((m) => m.alive).length).toBe(alive - 4);
    // more than 9" away: not offered
    const far = sandbox([FS, GD, ST], { phase: 'movement', turn: 1 });
    far.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
    expect(offered(far, w, 0, 'ISHA\u2019S FURY')).toEqual([]);
  });

  it('PSYCHIC SHIELD: in the opponent\'s Shooting phase, the targeted unit can only be shot from within 18"', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['GD', 'G2', 'WG'] };
    const g = sandbox([FS, GD, G2, WG, ST], { turn: 1 }, using('PSYCHIC SHIELD'));
    expect(offered(g, w, 0, 'PSYCHIC SHIELD')).toEqual(['GD']);
    expect(targetableFrom(g.state, g.state.units.GD, 20)).toBe(true);
    expect(openWindow(g, w)).toEqual(['PSYCHIC SHIELD']);
    expect([targetableFrom(g.state, g.state.units.GD, 20), targetableFrom(g.state, g.state.units.GD, 17)]).toEqual([false, true]);
    // not against Fire Overwatch in the Charge phase
    expect(offered(sandbox([FS, GD, ST], { turn: 1, phase: 'charge' }), { ...w, targets: ['GD'] }, 0, 'PSYCHIC SHIELD')).toEqual([]);
  });

  it('FOREWARNED: in a Fight phase, attacks on the targeted unit have -1 to Hit and -1 to Wound', () => {
    const w: Window = { name: 'fight/after-enemy-targets', unit: 'ST', targets: ['GD', 'WG'] };
    const g = sandbox([FS, GD, WG, ST], { phase: 'fight', turn: 1 }, using('FOREWARNED'));
    expect(offered(g, w, 0, 'FOREWARNED')).toEqual(['GD']);
    const before = planFor(g, 'ST', 'GD', 'Close combat weapon');
    expect(openWindow(g, w)).toEqual(['FOREWARNED']);
    const after = planFor(g, 'ST', 'GD', 'Close combat weapon');
    expect([after.hitModifier, after.woundModifier]).toEqual([before.hitModifier - 1, before.woundModifier - 1]);
    expect(planFor(g, 'ST', 'WG', 'Close combat weapon').hitModifier).toBe(before.hitModifier);
  });

  it('PRESENTIMENT OF DREAD: in a Command phase, after the Battle-shock step, an enemy unit within 18" of the PSYKER tests Battle-shock at -1', () => {
    const step: Window = { name: 'command/after-battle-shock-step', unit: null, targets: [] };
    // 3 + 4 = 7: the Strike Team's Leadership 7+ passes it, but not at -1
    const g = sandbox([FS, GD, { ...ST, at: { x: 20, y: 5 } }], { phase: 'command', turn: 1, stream: scriptedStream([3, 4]) }, using('PRESENTIMENT OF DREAD'));
    expect(offered(g, step, 0, 'PRESENTIMENT OF DREAD')).toEqual(['FS']);
    expect(openWindow(g, step)).toEqual(['PRESENTIMENT OF DREAD']);
    expect(g.state.units.ST.battleShocked).toBe(true);
    // more than 18" away: not offered; not at the end of the phase, after the mission has scored
    expect(offered(sandbox([FS, GD, ST], { phase: 'command' }), step, 0, 'PRESENTIMENT OF DREAD')).toEqual([]);
    const near = sandbox([FS, GD, { ...ST, at: { x: 20, y: 5 } }], { phase: 'command' });
    expect(offered(near, { name: 'phase/end', unit: null, targets: [], data: { phase: 'command' } }, 0, 'PRESENTIMENT OF DREAD')).toEqual([]);
  });

  it('PRESENTIMENT OF DREAD before the score: a Strike Team shocked off the marker in the Command phase no longer holds it when Take and Hold scores', () => {
    // round 2, the Seer Council player's Command phase: the Farseer (OC 1) and the Strike Team's nearest
    // models are within range of the marker; the Strike Team holds it until it is Battle-shocked
    const units: PlacedUnit[] = [{ ...FS, at: { x: 17.5, y: 5 } }, { ...ST, at: { x: 20.5, y: 5 } }];
    const play = (use: boolean) => {
      const g = battleSandbox(units, {
        factions: ['AE', 'TAU'], phase: 'movement', turn: 1, round: 2, cp: [4, 3], detachments: [SC, null], objectives: [{ id: 'o1', pos: { x: 20, y: 5 } }],
        agents: [scriptedAgent('ae', use ? using('PRESENTIMENT OF DREAD') : () => 0), scriptedAgent('tau')], stream: scriptedStream(use ? [3, 4] : []),
      });
      g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [] });
      g.emit({ type: 'turn-started', round: 2, player: 0 });
      commandPhase(g, 0);
      return g.state;
    };
    const without = play(false);
    expect(without.objectives[0].controller).toBe(1);
    expect(without.players[0].vp).toBe(0);
    const s = play(true);
    expect(s.units.ST.battleShocked).toBe(true);
    expect(s.players[0].vp).toBe(5);
  });

  it('UNSHROUDED TRUTH: at the start of its Movement phase the unit is set up again more than 9" from every enemy model, and does not move', () => {
    const start: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'movement' } };
    const asked: DecisionRequest[] = [];
    const enemies: PlacedUnit[] = [{ ...ST, at: { x: 25, y: 5 } }, DF];
    const g = sandbox([FS, GD, G2, WG, ...enemies], { phase: 'movement' }, (r) => {
      if (r.kind === 'unshrouded-truth') asked.push(r);
      return using('UNSHROUDED TRUTH')(r);
    });
    expect(offered(g, start, 0, 'UNSHROUDED TRUTH')).toEqual(['FS', 'GD']);
    const from = g.state.units.FS.models[0].pos!;
    expect(openWindow(g, start)).toContain('UNSHROUDED TRUTH');
    expect(asked.length).toBe(1);
    // the Farseer (first offered) went to the first point offered (the objective marker at the centre)
    const fs = g.state.units.FS;
    expect(fs.location).toBe('battlefield');
    expect(fs.models[0].pos).not.toEqual(from);
    expect(Math.hypot(fs.models[0].pos!.x - 30, fs.models[0].pos!.y - 22)).toBeLessThan(6);
    for (const e of ['ST', 'DF']) expect(unitDistance(g.state, fs, g.state.units[e])).toBeGreaterThan(9);
    expect(fs.flags.moved).toBe('arrived');
    // a unit that has moved this phase is not offered
    const h = sandbox([FS, GD, ...enemies], { phase: 'movement' });
    h.emit({ type: 'unit-moved', unit: 'GD', mode: 'normal' });
    expect(offered(h, start, 0, 'UNSHROUDED TRUTH')).toEqual(['FS']);
  });
});

describe('Seer Council Enhancements', () => {
  const bearer = (enhancement: string, extra: PlacedUnit[] = [ST], opts: Parameters<typeof sandbox>[1] = {}, pick?: (r: DecisionRequest) => number, tau?: (r: DecisionRequest) => number) =>
    sandbox([{ ...FS, enhancement }, GD, ...extra], opts, pick, tau);

  it('Lucid Eye: in its player\'s Command phase, one Fate die goes up or down by 1', () => {
    const asked: DecisionRequest[] = [];
    const g = bearer('Lucid Eye', [ST], { phase: 'command', fate: [5, 3] }, (r) => {
      if (r.kind !== 'lucid-eye') return 0;
      asked.push(r);
      return r.options.findIndex((o) => JSON.stringify(o) === JSON.stringify({ die: 3, to: 4 }));
    });
    startPhase(g, 0, 'command');
    expect(asked.map((r) => r.options)).toEqual([[{ none: true }, { die: 5, to: 6 }, { die: 5, to: 4 }, { die: 3, to: 4 }, { die: 3, to: 2 }]]);
    expect(g.state.players[0].ruleState.fate).toEqual([5, 4]);
    // not without the Enhancement, nor in the opponent's Command phase
    const none = bearer('Runes of Warding', [ST], { phase: 'command', fate: [5, 3] }, (r) => { if (r.kind === 'lucid-eye') asked.push(r); return 0; });
    startPhase(none, 0, 'command');
    const theirs = bearer('Lucid Eye', [ST], { phase: 'command', turn: 1, fate: [5, 3] }, (r) => { if (r.kind === 'lucid-eye') asked.push(r); return 0; });
    startPhase(theirs, 1, 'command');
    expect(asked.length).toBe(1);
  });

  it('Runes of Warding: Feel No Pain 4+ against mortal wounds and Psychic Attacks for the bearer\'s unit', () => {
    const warlock: PlacedUnit = { id: 'WL', player: 1, faction: 'aeldari', name: 'Warlock', at: { x: 20, y: 5 } };
    const g = bearer('Runes of Warding', [ST, warlock]);
    const fs = g.state.units.FS;
    expect([feelNoPainOf(g.state, fs, fs.models[0], null, true), feelNoPainOf(g.state, fs, fs.models[0], null, false)]).toEqual([4, null]);
    expect(planFor(g, 'WL', 'FS', 'Destructor').feelNoPain).toBe(4);
    expect(planFor(g, 'ST', 'FS', 'Pulse rifle').feelNoPain).toBe(null);
    const plain = bearer('Lucid Eye', [ST, warlock]);
    expect(planFor(plain, 'WL', 'FS', 'Destructor').feelNoPain).toBe(null);
    expect(feelNoPainOf(plain.state, plain.state.units.FS, plain.state.units.FS.models[0], null, true)).toBe(null);
  });

  it('Stone of Eldritch Fury: +12" Range for the bearer\'s ranged PSYCHIC weapons', () => {
    const range = (g: Game, weapon: string) => {
      const u = g.state.units.FS;
      return weaponRange(g.state, u, g.state.datasheets[u.models[0].datasheet].weapons.find((w) => w.name === weapon)!.profiles[0]);
    };
    const g = bearer('Stone of Eldritch Fury');
    expect([range(g, 'Eldritch Storm'), range(g, 'Shuriken pistol')]).toEqual([36, 12]);
    expect(range(bearer('Lucid Eye'), 'Eldritch Storm')).toBe(24);
  });

  it('Torc of Morai-Heg: once per turn, the opponent\'s stratagem on their unit within 12" of the bearer costs 1CP more', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['ST'] };
    const goToGround = (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'GO TO GROUND')) : 0);
    const near: PlacedUnit = { ...ST, at: { x: 16, y: 5 } };
    const g = bearer('Torc of Morai-Heg', [near], {}, () => 0, goToGround);
    expect(openWindow(g, w)).toEqual(['GO TO GROUND']);
    expect(g.state.players[1].cp).toBe(1);
    expect(g.state.players[1].stratagemsUsed.at(-1)!.cp).toBe(2);
    // once per turn: the next offer this turn is at 1CP, in the next turn at 2CP again
    const price = () => usableStratagems(g, w, 1).filter((x) => x.s.name === 'GO TO GROUND').map((x) => x.cp);
    g.emit({ type: 'cp', player: 1, delta: 3, reason: 'test' });
    // (GO TO GROUND is used only in the Shooting phase, once a phase: its record taken away, it stands for the
    // player's next stratagem on that unit this turn; the Torc keeps its own)
    g.state.players[1].stratagemsUsed.pop();
    expect(price()).toEqual([1]);
    g.emit({ type: 'round-started', round: 2 });
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    expect(price()).toEqual([2]);
    // COMMAND RE-ROLL (paid apart from the other stratagems) too: an Advance roll of 1 re-rolled into a 6 for 2CP
    const reroll = (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'COMMAND RE-ROLL')) : 0);
    const cr = bearer('Torc of Morai-Heg', [near], { phase: 'movement', turn: 1, stream: scriptedStream([1, 6]) }, () => 0, reroll);
    expect(advanceDistance(cr, cr.state.units.ST)).toBe(6);
    expect(cr.state.players[1].cp).toBe(1);
    // an opponent who cannot pay the extra CP is not offered it
    const poor = bearer('Torc of Morai-Heg', [near], { cp: [4, 1] }, () => 0, goToGround);
    expect(openWindow(poor, w)).toEqual([]);
    expect(poor.state.players[1].cp).toBe(1);
    // far from the bearer, or without the Enhancement: 1CP
    for (const h of [bearer('Torc of Morai-Heg', [ST], {}, () => 0, goToGround), bearer('Lucid Eye', [near], {}, () => 0, goToGround)]) {
      expect(openWindow(h, w)).toEqual(['GO TO GROUND']);
      expect(h.state.players[1].cp).toBe(2);
    }
  });
});

describe('the heuristic agent with the Seer Council', () => {
  it('Lucid Eye raises a die toward 6; PRESENTIMENT OF DREAD is used on an enemy unit in range', () => {
    const h = createHeuristic();
    const g = battleSandbox([{ ...FS, enhancement: 'Lucid Eye' }, GD, { ...ST, at: { x: 20, y: 5 }, points: 200 }], {
      factions: ['AE', 'TAU'], detachments: [SC, null], phase: 'command', cp: [4, 3], agents: [h, scriptedAgent('tau')],
    });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [5, 3, 1] });
    startPhase(g, 0, 'command');
    expect(g.state.players[0].ruleState.fate).toEqual([6, 3, 1]);
    // the Strike Team (Ld 7+) tests at -1 when the heuristic pays for it (the pool's 1 pays it)
    expect(openWindow(g, { name: 'command/after-battle-shock-step', unit: null, targets: [] })).toContain('PRESENTIMENT OF DREAD');
    expect(g.state.players[0].ruleState.fate).toEqual([6, 3]);
    expect(g.state.players[0].cp).toBe(4);
  });
});
