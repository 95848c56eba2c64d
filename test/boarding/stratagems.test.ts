import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { MissionState, PhaseName } from '../../src/core/state.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { allStratagems, stratagemsOf } from '../../src/rules/stratagems/registry.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { battleShockTest } from '../../src/rules/battle/command.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { BATTLEFIELD_COMMAND } from '../../src/rules/lent-leaders.ts';
import { pileInMove, targetableFrom } from '../../src/core/rules-registry.ts';
import { leaderAbilities } from '../../src/rules/stratagems/boarding-actions.ts';
import { FIGHTS_NEXT } from '../../src/rules/battle/fight.ts';
import { weaponEstimate, weaponUses } from '../../src/ai/evaluate.ts';
import { createHeuristic, lastOptionScores } from '../../agents/heuristic.ts';

const BA = { mode: 'boarding-actions' as MissionState['mode'], size: { width: 44, height: 30 } };

/** An agent that uses the named stratagem whenever it is offered, and otherwise answers with the first option. */
function using(name: string, then: (r: DecisionRequest) => number = () => 0): Agent {
  return scriptedAgent(`uses ${name}`, (r) => {
    if (r.kind === 'stratagem') {
      const i = r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name);
      return i < 0 ? 0 : i;
    }
    return then(r);
  });
}

function sandbox(units: PlacedUnit[], opts: { ba?: boolean; phase?: PhaseName; cp?: [number, number]; agents?: [Agent, Agent]; dice?: number[] } = {}): Game {
  return battleSandbox(units, {
    ...(opts.ba === false ? {} : BA), phase: opts.phase ?? 'shooting', cp: opts.cp ?? [3, 3], agents: opts.agents,
    ...(opts.dice ? { stream: scriptedStream(opts.dice) } : {}),
  });
}

const names = (g: Game, w: Window, p: 0 | 1) => usableStratagems(g, w, p).map((x) => `${x.s.name} (${x.s.source})`);

describe('the Boarding Actions stratagems replace the Core ones', () => {
  it('the five are registered with source Boarding Actions, with their costs and categories', () => {
    const ba = allStratagems().filter((s) => s.source === 'Boarding Actions').map((s) => `${s.name} ${s.cp}CP ${s.category}`).sort();
    expect(ba).toEqual([
      'BATTLEFIELD COMMAND 1CP Strategic Ploy', 'COMMAND RE-ROLL 1CP Epic Deed', 'COUNTER-OFFENSIVE 2CP Strategic Ploy',
      'EXPLOSIVE CLEARANCE 1CP Battle Tactic', 'INSANE BRAVERY 1CP Epic Deed',
    ]);
  });

  it('a Boarding Actions game offers them and no Core stratagem; a Strike Force game the reverse', () => {
    const units: PlacedUnit[] = [{ id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } }];
    const ba = sandbox(units);
    const sf = sandbox(units, { ba: false });
    const sources = (g: Game) => [...new Set(stratagemsOf(g, 0).map((s) => s.source))];
    expect(sources(ba)).toEqual(['Boarding Actions']);
    expect(sources(sf)).toEqual(['Core']);
    expect(stratagemsOf(ba, 0).map((s) => s.name).sort()).toEqual(['BATTLEFIELD COMMAND', 'COMMAND RE-ROLL', 'COUNTER-OFFENSIVE', 'EXPLOSIVE CLEARANCE', 'INSANE BRAVERY']);
  });

  it('the detachment\'s own stratagems stay available beside them', () => {
    const g = battleSandbox([{ id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } }], { ...BA, detachments: [null, 'Battle Host'] });
    expect(stratagemsOf(g, 1).map((s) => s.source).sort()).toContain('Battle Host');
    expect(stratagemsOf(g, 1).some((s) => s.source === 'Core')).toBe(false);
  });

  it('COUNTER-OFFENSIVE: the Boarding Actions one in that mode, the Core one in Strike Force', () => {
    const units: PlacedUnit[] = [
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
      { id: 'B', player: 1, faction: 'aeldari', name: 'Howling Banshees', at: { x: 11.1, y: 10 } },
    ];
    const w: Window = { name: 'fight/after-enemy-fought', unit: 'B', targets: [] };
    expect(names(sandbox(units, { phase: 'fight' }), w, 0)).toEqual(['COUNTER-OFFENSIVE (Boarding Actions)']);
    expect(names(sandbox(units, { phase: 'fight', ba: false }), w, 0)).toEqual(['COUNTER-OFFENSIVE (Core)']);
    const g = sandbox(units, { phase: 'fight', agents: [using('COUNTER-OFFENSIVE'), scriptedAgent('ae')] });
    expect(openWindow(g, w)).toEqual(['COUNTER-OFFENSIVE']);
    expect(g.state.players[0].cp).toBe(1);
    expect(g.state.effects.map((e) => `${e.kind}:${e.unit}`)).toEqual([`${FIGHTS_NEXT}:S`]);
    // not for a unit that has already fought, nor one out of Engagement Range, nor after a friendly unit fought
    const fought = sandbox(units, { phase: 'fight' });
    fought.emit({ type: 'unit-flag', unit: 'S', flag: 'fought', value: true });
    expect(names(fought, w, 0)).toEqual([]);
    const apart = sandbox([units[0], { ...units[1], at: { x: 14, y: 10 } }], { phase: 'fight' });
    expect(names(apart, w, 0)).toEqual([]);
    expect(names(sandbox(units, { phase: 'fight' }), { ...w, unit: 'S' }, 0)).toEqual([]);
  });
});

describe('INSANE BRAVERY (Boarding Actions): just after a failed Battle-shock test', () => {
  function shaken(ba: boolean, agents?: [Agent, Agent]) {
    const g = sandbox([{ id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } }], { ba, phase: 'command', cp: [2, 0], dice: [1, 1], agents });
    const s = g.state.units.S;
    for (const m of s.models.slice(4)) g.emit({ type: 'model-destroyed', unit: 'S', model: m.id, by: null, reason: 'test' });
    return g;
  }

  it('turns the failed test into a pass: not Battle-shocked, 1 CP spent', () => {
    const g = shaken(true, [using('INSANE BRAVERY'), scriptedAgent('ae')]);
    // not offered before the test (that is the Core timing)
    expect(names(g, { name: 'command/before-battle-shock-test', unit: 'S', targets: [], data: { battleShockStep: true } }, 0)).toEqual([]);
    expect(battleShockTest(g, 0, 'S', 0, true)).toBe(true);
    expect(g.state.units.S.battleShocked).toBe(false);
    expect(g.state.players[0].cp).toBe(1);
    // the dice were rolled (and failed) first
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'battle-shock').map((e) => e.type === 'dice' && e.values)).toEqual([[1, 1]]);
    expect(g.state.players[0].stratagemsUsed.map((u) => u.name)).toEqual(['INSANE BRAVERY']);
  });

  it('declined, the unit is Battle-shocked', () => {
    const g = shaken(true);
    expect(battleShockTest(g, 0, 'S', 0, true)).toBe(false);
    expect(g.state.units.S.battleShocked).toBe(true);
  });

  it('in Strike Force the Core one is offered before the test instead, and nothing after it', () => {
    const g = shaken(false);
    expect(names(g, { name: 'command/before-battle-shock-test', unit: 'S', targets: [], data: { battleShockStep: true } }, 0)).toEqual(['INSANE BRAVERY (Core)']);
    expect(names(g, { name: 'command/after-battle-shock-failed', unit: 'S', targets: [], data: { battleShockStep: true } }, 0)).toEqual([]);
  });
});

describe('COMMAND RE-ROLL (Boarding Actions)', () => {
  it('re-rolls a Charge roll, offered once (not by the Core entry as well)', () => {
    const offers: string[] = [];
    const tau = scriptedAgent('tau', (r) => {
      if (r.kind === 'stratagem') { offers.push(JSON.stringify(r.options)); return 1; }
      return 0;
    });
    const g = sandbox([
      { id: 'A', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 10 } },
      { id: 'B', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 20, y: 10 } },
    ], { phase: 'charge', agents: [tau, scriptedAgent('ae')], dice: [1, 1, 6, 6] });
    declareCharge(g, g.state.units.A, { targets: ['B'] });
    expect(offers).toEqual([JSON.stringify([{ pass: true }, { stratagem: 'COMMAND RE-ROLL', reroll: -1, value: null }])]);
    expect(g.log!.filter((e) => e.type === 'reroll').map((e) => e.type === 'reroll' && `${e.source}: ${e.values.join(',')}`)).toEqual(['COMMAND RE-ROLL: 6,6']);
    expect(g.state.players[0].cp).toBe(2);
    expect(g.state.units.A.flags.charged).toBe(true);
  });
});

describe('BATTLEFIELD COMMAND', () => {
  const units = (leader: 'Cadre Fireblade' | "Aun'shi", bodyguardAt = 14): PlacedUnit[] => [
    { id: 'L', player: 0, faction: 'tau', name: leader, at: { x: 10, y: 10 } },
    { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: bodyguardAt, y: 6 } },
    { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 6 } },
  ];
  const start = (phase: PhaseName): Window => ({ name: 'phase/start', unit: null, targets: [], data: { phase } });

  it('lends the Leader unit\'s Leader ability to a Bodyguard unit within 6": Volley Fire gives the Strike Team +1 Attack', () => {
    const g = sandbox(units('Cadre Fireblade'), { agents: [using('BATTLEFIELD COMMAND'), scriptedAgent('ae')] });
    expect(names(g, start('shooting'), 0)).toEqual(['BATTLEFIELD COMMAND (Boarding Actions)']);
    expect(usableStratagems(g, start('shooting'), 0).map((x) => x.unit.id)).toEqual(['L']);
    expect(planFor(g, 'S', 'G', 'Pulse rifle').attacksBonus).toBe(0);
    expect(openWindow(g, start('shooting'))).toEqual(['BATTLEFIELD COMMAND']);
    expect(g.state.effects.map((e) => ({ kind: e.kind, unit: e.unit, params: e.params }))).toEqual([{ kind: BATTLEFIELD_COMMAND, unit: 'S', params: { leader: 'L', ability: 'Volley Fire' } }]);
    expect(planFor(g, 'S', 'G', 'Pulse rifle').attacksBonus).toBe(1);
    // the Leader's own unit gets nothing from it (it leads nobody)
    expect(planFor(g, 'L', 'G', 'Fireblade pulse rifle').attacksBonus).toBe(0);
    // until the start of the player's next Command phase
    expireEffects(g, { at: 'end-of-phase', round: 1, turn: 0, phase: 'shooting' });
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 0 });
    expect(planFor(g, 'S', 'G', 'Pulse rifle').attacksBonus).toBe(1);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(planFor(g, 'S', 'G', 'Pulse rifle').attacksBonus).toBe(0);
  });

  /** The Aeldari Leader L within 6" of its Bodyguard unit T; BATTLEFIELD COMMAND at the start of the Fight phase lends `ability` (recorded: what was offered). */
  function lend(leader: string, ability: string, bodyguard: string, offered: string[][]): Game {
    const agent = using('BATTLEFIELD COMMAND', (r) => {
      if (r.kind !== 'battlefield-command-ability') return 0;
      offered.push(r.options as string[]);
      return Math.max(0, (r.options as string[]).indexOf(ability));
    });
    const g = battleSandbox([
      { id: 'L', player: 0, faction: 'aeldari', name: leader, at: { x: 10, y: 10 } },
      { id: 'T', player: 0, faction: 'aeldari', name: bodyguard, at: { x: 13, y: 6 } },
      { id: 'E', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 6 } },
    ], { ...BA, factions: ['AE', 'TAU'], phase: 'fight', cp: [3, 3], agents: [agent, scriptedAgent('tau')] });
    openWindow(g, start('fight'));
    return g;
  }

  it('lent abilities played through Pile-in and who may shoot the unit work (audit 16): Choreographer of War, Fog of Dreams', () => {
    const offered: string[][] = [];
    const g = lend('Troupe Master', 'Choreographer of War', 'Troupe', offered);
    expect(g.state.effects.map((e) => e.params.ability)).toEqual(['Choreographer of War']);
    expect(pileInMove(g.state, g.state.units.T).distance).toBe(6);
    expect(pileInMove(g.state, g.state.units.E).distance).toBe(3);
    const f = lend('Shadowseer', 'Fog of Dreams (Psychic)', 'Troupe', offered);
    expect(f.state.effects.map((e) => e.params.ability)).toEqual(['Fog of Dreams (Psychic)']);
    expect([targetableFrom(f.state, f.state.units.T, 17), targetableFrom(f.state, f.state.units.T, 27)]).toEqual([true, false]);
  });

  it('a Leader ability the effect cannot play is not offered (Burning Lance changes a Range), nor is a Leader that has only such abilities', () => {
    const offered: string[][] = [];
    const g = lend('Fuegan', 'Burning Lance', 'Fire Dragons', offered);
    expect(offered.flat()).not.toContain('Burning Lance');
    expect(leaderAbilities(g.state.units.L)).not.toContain('Burning Lance');
    expect(g.state.effects.some((e) => e.params.ability === 'Burning Lance')).toBe(false);
  });

  it('the Ynnari Archon lends Overlord ("while this model is leading a unit"): the Kabalite Warriors re-roll Wound rolls of 1', () => {
    const offered: string[][] = [];
    const g = lend('Ynnari Archon', 'Overlord', 'Ynnari Kabalite Warriors', offered);
    expect(offered.flat()).toContain('Overlord');
    expect(g.state.effects.map((e) => e.params.ability)).toEqual(['Overlord']);
    expect(planFor(g, 'T', 'E', 'Splinter rifle').rerollWounds).toBe('ones');
  });

  it('Aun\'Shi lends Inspirational Defiance: +1 OC for the Strike Team\'s models', () => {
    const g = sandbox(units("Aun'shi"), { agents: [using('BATTLEFIELD COMMAND'), scriptedAgent('ae')] });
    const oc = () => characteristic(g.state, g.state.units.S, g.state.units.S.models[0], 'OC');
    expect(oc()).toBe(2);
    openWindow(g, start('shooting'));
    expect(oc()).toBe(3);
  });

  it('not when the Bodyguard unit is more than 6" away; neither unit again before the next Command phase; not in Strike Force', () => {
    expect(names(sandbox(units('Cadre Fireblade', 20)), start('shooting'), 0)).toEqual([]);
    const g = sandbox(units('Cadre Fireblade'), { agents: [using('BATTLEFIELD COMMAND'), scriptedAgent('ae')] });
    openWindow(g, start('shooting'));
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'charge' });
    expect(names(g, start('charge'), 0)).toEqual([]);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(names(g, start('charge'), 0)).toEqual(['BATTLEFIELD COMMAND (Boarding Actions)']);
    expect(names(sandbox(units('Cadre Fireblade'), { ba: false }), start('shooting'), 0)).toEqual([]);
  });

  it('not with a Battle-shocked Bodyguard unit: it is the second target, and no Stratagem affects its player\'s Battle-shocked unit', () => {
    const g = sandbox(units('Cadre Fireblade'), { agents: [using('BATTLEFIELD COMMAND'), scriptedAgent('ae')] });
    g.emit({ type: 'battle-shock', unit: 'S', value: true });
    expect(names(g, start('shooting'), 0)).toEqual([]);
    expect(openWindow(g, start('shooting'))).toEqual([]);
    expect(g.state.effects).toEqual([]);
    g.emit({ type: 'battle-shock', unit: 'S', value: false });
    expect(names(g, start('shooting'), 0)).toEqual(['BATTLEFIELD COMMAND (Boarding Actions)']);
  });

  it('used in the opponent\'s turn by the player who goes second, it ends at the start of their Command phase of the same round', () => {
    const g = battleSandbox([
      { id: 'G', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 36, y: 20 } },
      { id: 'L', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 10, y: 10 } },
      { id: 'D', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 14, y: 6 } },
    ], { ...BA, phase: 'movement', cp: [0, 3], agents: [scriptedAgent('tau'), using('BATTLEFIELD COMMAND')] });
    expect(openWindow(g, start('movement'))).toEqual(['BATTLEFIELD COMMAND']);
    const e = g.state.effects[0];
    expect(e.params).toEqual({ leader: 'L', ability: 'Superlative Strategist' });
    expect(e.expires).toEqual({ at: 'start-of-command', player: 1, afterRound: 0 });
  });
});

describe('the heuristic prices BATTLEFIELD COMMAND by what the lent ability adds', () => {
  const end = (phase: PhaseName): Window => ({ name: 'phase/end', unit: null, targets: [], data: { phase } });
  const start = (phase: PhaseName): Window => ({ name: 'phase/start', unit: null, targets: [], data: { phase } });
  /** A Cadre Fireblade with a Strike Team and a Breacher Team within 6" (both units it could lead), Guardian Defenders (dear ones) across. */
  const setup = (phase: PhaseName, agents?: [Agent, Agent]) => sandbox([
    { id: 'L', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 10 } },
    { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 6 } },
    { id: 'B', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 6, y: 13 } },
    { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 6 }, points: 200 },
  ], { phase, cp: [6, 3], agents });
  /** The unit's guns on the Guardians from anywhere, as the calculator counts them. */
  const guns = (g: Game, id: string) => weaponUses(g.state, g.state.units[id], false).filter((u) => u.beyond === undefined)
    .reduce((v, u) => v + weaponEstimate(g.state, g.state.units[id], u, g.state.units.G, { anywhere: true }).value, 0);
  /** What Volley Fire lent to the unit adds to its guns, measured on a game where the stratagem was really used on it. */
  const lentGain = (bodyguard: string) => {
    const g = setup('command', [using('BATTLEFIELD COMMAND', (r) => (r.kind === 'battlefield-command-bodyguard' ? (r.options as string[]).indexOf(bodyguard) : 0)), scriptedAgent('ae')]);
    const before = guns(g, bodyguard);
    expect(openWindow(g, end('command'))).toEqual(['BATTLEFIELD COMMAND']);
    return guns(g, bodyguard) - before;
  };
  const score = (g: Game, w: Window) => {
    createHeuristic().decide({ state: g.state, player: 0 }, {
      kind: 'stratagem', player: 0, prompt: 'stratagem?', options: [{ pass: true }, { stratagem: 'BATTLEFIELD COMMAND', unit: 'L', cp: 1 }], context: { window: w },
    });
    return lastOptionScores()[1];
  };

  it('at the end of its own Command phase: worth what Volley Fire adds to the unit it helps most; elsewhere nothing (the same CP price)', () => {
    const best = Math.max(lentGain('S'), lentGain('B'));
    expect(best).toBeGreaterThan(0);
    const atEnd = score(setup('command'), end('command'));
    const later = score(setup('shooting'), start('shooting'));
    expect(atEnd - later).toBeCloseTo(best, 9);
    // the opponent's Command phase is not its own
    const theirs = setup('command');
    theirs.state.turn = 1;
    expect(score(theirs, end('command'))).toBeCloseTo(later, 9);
  });

  it('used, it lends Volley Fire to that unit', () => {
    const to = lentGain('S') >= lentGain('B') ? 'S' : 'B';
    const g = setup('command', [createHeuristic(), scriptedAgent('ae')]);
    g.state.players[0].cp = 20;
    g.state.round = 5;
    expect(openWindow(g, end('command'))).toEqual(['BATTLEFIELD COMMAND']);
    expect(g.state.effects.map((e) => ({ kind: e.kind, unit: e.unit, params: e.params }))).toEqual([{ kind: BATTLEFIELD_COMMAND, unit: to, params: { leader: 'L', ability: 'Volley Fire' } }]);
  });
});
