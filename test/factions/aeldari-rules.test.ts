import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { Game } from '../../src/core/game.ts';
import { cloneState } from '../../src/core/clone.ts';
import { createStream } from '../../src/core/rng.ts';
import { fatePool, rollFatePool } from '../../src/factions/aeldari/army-rule.ts';
import { resolveAttacks, newTally } from '../../src/rules/attack-sequence.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { canCharge } from '../../src/rules/battle/charge.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { rollDice } from '../../src/rules/roll-window.ts';
import { usableStratagems } from '../../src/rules/windows.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';

type Pick = (r: DecisionRequest) => number;

function aeldari(opts: { detachment?: string | null; agents?: [Agent, Agent]; stream?: ReturnType<typeof scriptedStream>; phase?: 'shooting' | 'movement' | 'fight' | 'command'; cp?: [number, number] } = {}) {
  return battleSandbox([
    { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
    { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 14, y: 30 } },
    { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', at: { x: 10, y: 20 }, spacing: 3 },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    { id: 'SB', player: 1, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 32, y: 5 } },
  ], { factions: ['AE', 'TAU'], detachments: [opts.detachment ?? null, null], phase: opts.phase ?? 'shooting', agents: opts.agents, stream: opts.stream, cp: opts.cp });
}

describe('Strands of Fate', () => {
  it('six dice, then the whole pool re-rolled with one die fewer as long as the player asks', () => {
    let asked = 0;
    const agent = scriptedAgent('ae', (r) => (r.kind === 'fate-pool' ? (++asked <= 2 ? 1 : 0) : 0));
    const g = aeldari({ agents: [agent, scriptedAgent('tau')], stream: scriptedStream([1, 1, 1, 1, 1, 1, 6, 6, 2, 2, 2, 6, 6, 6, 5]) });
    expect(rollFatePool(g, 0)).toEqual([6, 6, 6, 5]);
    expect(fatePool(g, 0)).toEqual([6, 6, 6, 5]);
    const rolls = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'fate').map((e) => (e as { values: number[] }).values.length);
    expect(rolls).toEqual([6, 5, 4]);
  });

  it('re-rolled as long as the player asks, down to a single die and no further (audit 19 mutant SF07)', () => {
    let asked = 0;
    const agent = scriptedAgent('ae', (r) => (r.kind === 'fate-pool' ? (++asked, 1) : 0));
    const g = aeldari({ agents: [agent, scriptedAgent('tau')], stream: scriptedStream([...Array(6).fill(1), ...Array(5).fill(1), ...Array(4).fill(1), 1, 1, 1, 1, 1, 4]) });
    expect(rollFatePool(g, 0)).toEqual([4]);
    const rolls = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'fate').map((e) => (e as { values: number[] }).values.length);
    expect(rolls).toEqual([6, 5, 4, 3, 2, 1]);
    expect(asked).toBe(5);
  });

  it('a Fate die of 6 substituted into a Hit roll is an unmodified 6: a Critical Hit even at BS 6+ with -1', () => {
    const pick: Pick = (r) => (r.kind === 'fate-die' ? r.options.findIndex((o) => (o as { fate?: number }).fate === 6) : 0);
    const g = aeldari({ agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], stream: scriptedStream([2, 3, 4]) });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [6, 2] });
    const values = rollDice(g, 2, 6, 'hit', 0, 'GD');
    expect(values[0]).toBe(6);
    const sub = (g.log ?? []).find((e) => e.type === 'dice-substituted');
    expect(sub).toMatchObject({ value: 6, old: 2, source: 'Fate die' });
    expect(fatePool(g, 0)).toEqual([2]);
    // once per phase: no second substitution offered
    const before = (g.log ?? []).filter((e) => e.type === 'decision').length;
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [6, 2] });
    rollDice(g, 1, 6, 'wound', 0, 'GD');
    expect((g.log ?? []).filter((e) => e.type === 'decision').length).toBe(before);
  });

  it('only the listed rolls (not the number of attacks, not Hazardous)', () => {
    const g = aeldari({ agents: [scriptedAgent('ae', () => 1), scriptedAgent('tau')], stream: scriptedStream([3, 3]) });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [6] });
    rollDice(g, 1, 6, 'attacks', 0, 'GD');
    rollDice(g, 1, 6, 'hazardous', 0, 'GD');
    expect(fatePool(g, 0)).toEqual([6]);
  });
});

describe('Battle Host', () => {
  it('LIGHTNING-FAST REACTIONS stacks with Stealth only up to the -1 cap', () => {
    const g = aeldari({ detachment: 'Battle Host' });
    g.addEffect('Lightning-Fast Reactions', 1, 'SB', g.untilEndOfPhase());
    const plan = planFor(g, 'GD', 'SB', 'Shuriken catapult');
    expect(plan.hitModifier).toBe(-2); // Stealth and the stratagem both apply...
    // ...but the Hit roll is capped: a 4 against BS 3+ hits with -1, not with -2
    // hit 4; wound 1, re-rolled by Unparalleled Foresight's one Wound roll: 1 again
    const s = scriptedStream([4, /* wound */ 1, /* re-roll */ 1]);
    const g2 = aeldari({ detachment: 'Battle Host', stream: s });
    g2.addEffect('Lightning-Fast Reactions', 1, 'SB', g2.untilEndOfPhase());
    const GD = g2.state.units.GD;
    const m = GD.models[0];
    const w = g2.state.datasheets[m.datasheet].weapons.find((x) => x.name === 'Shuriken catapult')!;
    // one attack only, without Unparalleled Foresight's re-rolls getting in the way of the script
    const t = resolveAttacks(g2, GD, [{ weapon: w, profile: { ...w.profiles[0], attacks: { n: 0, sides: 0, plus: 1 } }, models: [m], target: 'SB', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 3 }], false);
    expect(t.hits).toBe(w.profiles[0].skill <= 3 ? 1 : 0);
  });

  it('LIGHTNING-FAST REACTIONS: in the opponent\'s Shooting phase and either Fight phase, not against Fire Overwatch in its own turn', () => {
    const offered = (phase: 'shooting' | 'movement' | 'charge' | 'fight', turn: 0 | 1) => {
      const g = battleSandbox([
        { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
        { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
      ], { factions: ['AE', 'TAU'], detachments: ['Battle Host', null], phase, turn, cp: [2, 0] });
      const name = phase === 'fight' ? 'fight/after-enemy-targets' : 'shooting/after-enemy-targets';
      return usableStratagems(g, { name, unit: 'ST', targets: ['GD'] }, 0).filter((x) => x.s.name === 'LIGHTNING-FAST REACTIONS').map((x) => x.unit.id);
    };
    expect(offered('shooting', 1)).toEqual(['GD']);
    expect(offered('fight', 0)).toEqual(['GD']);
    expect(offered('fight', 1)).toEqual(['GD']);
    // Fire Overwatch at the Guardians in their own Movement or Charge phase
    expect(offered('movement', 0)).toEqual([]);
    expect(offered('charge', 0)).toEqual([]);
  });

  it('Unparalleled Foresight re-rolls one failed Hit roll per activation: E[hits] of 10 attacks at 4+ is 5 + (1 - 2^-10)/2', () => {
    const g = aeldari({ detachment: 'Battle Host' });
    const template = g.state;
    const stream = createStream('foresight');
    const trials = 3000;
    let sum = 0;
    let sum2 = 0;
    for (let t = 0; t < trials; t++) {
      const game = new Game(cloneState(template), {}, stream);
      const GD = game.state.units.GD;
      const m = GD.models[0];
      const w = game.state.datasheets[m.datasheet].weapons.find((x) => x.name === 'Shuriken catapult')!;
      const profile = { ...w.profiles[0], skill: 4, strength: 1, attacks: { n: 0, sides: 0, plus: 10 }, abilities: [] };
      const tally = resolveAttacks(game, GD, [{ weapon: w, profile, models: [m], target: 'ST', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 }], false, newTally());
      sum += tally.hits;
      sum2 += tally.hits ** 2;
    }
    const exact = 5 + (1 - 2 ** -10) / 2;
    // variance of hits: Binomial(10, 1/2) plus the re-roll; bounded above by 3 — use the sample sd
    const mean = sum / trials;
    const sd = Math.sqrt(sum2 / trials - mean * mean);
    expect(Math.abs(mean - exact)).toBeLessThan(4 * sd / Math.sqrt(trials));
    // and it is distinguishable from the plain binomial mean (5) without the rule
    expect(mean - 5).toBeGreaterThan(4 * sd / Math.sqrt(trials));
  });

  it('FEIGNED RETREAT: the unit may shoot and charge after Falling Back', () => {
    const g = aeldari({ detachment: 'Battle Host' });
    g.emit({ type: 'unit-moved', unit: 'GD', mode: 'fall-back' });
    expect(canShoot(g, g.state.units.GD)).toBe(false);
    g.addEffect('Feigned Retreat', 0, 'GD', g.untilEndOfTurn());
    expect(canShoot(g, g.state.units.GD)).toBe(true);
  });

  it('BLADESTORM: +2 AP on Critical Wounds only', () => {
    const g = aeldari({ detachment: 'Battle Host' });
    const ap = planFor(g, 'GD', 'ST', 'Shuriken catapult').ap;
    g.addEffect('Bladestorm (stratagem)', 0, 'GD', g.untilEndOfPhase());
    const plan = planFor(g, 'GD', 'ST', 'Shuriken catapult');
    expect(plan.criticalWoundAp).toBe(2);
    expect(plan.ap).toBe(ap);
  });
});

describe('Armoured Warhost', () => {
  it('Skilled Crews: VEHICLE ranged weapons are ASSAULT; VEHICLE FLY units may re-roll the Advance roll', () => {
    const g = aeldari({ detachment: 'Armoured Warhost', agents: [scriptedAgent('ae', (r) => (r.kind === 'reroll-advance' ? 1 : 0)), scriptedAgent('tau')], stream: scriptedStream([1, 5]) });
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'movement' });
    expect(advanceDistance(g, g.state.units.WS)).toBe(5);
    g.emit({ type: 'unit-moved', unit: 'WW', mode: 'advance', advanceRoll: 5 });
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    // War Walkers' shuriken cannons are not ASSAULT: only Skilled Crews lets them fire after Advancing
    expect(canShoot(g, g.state.units.WW)).toBe(true);
    const none = aeldari({ detachment: null });
    none.emit({ type: 'unit-moved', unit: 'WW', mode: 'advance', advanceRoll: 5 });
    expect(canShoot(none, none.state.units.WW)).toBe(false);
  });

  it('Skilled Crews offers no re-roll of an Advance roll a Fate die stands for (it cannot be re-rolled)', () => {
    const asked: string[] = [];
    const pick: Pick = (r) => {
      asked.push(r.kind);
      if (r.kind === 'fate-die') return Math.max(0, r.options.findIndex((o) => (o as { fate?: number }).fate === 6));
      return r.kind === 'reroll-advance' ? 1 : 0;
    };
    const g = aeldari({ detachment: 'Armoured Warhost', agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], stream: scriptedStream([1, 1]) });
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'movement' });
    g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [6] });
    expect(advanceDistance(g, g.state.units.WS)).toBe(6);
    expect(asked).toContain('fate-die');
    expect(asked).not.toContain('reroll-advance');
  });

  it('ANTI-GRAV REPULSION is offered to a FLY VEHICLE targeted by a charge', () => {
    const g = aeldari({ detachment: 'Armoured Warhost', cp: [2, 0] });
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    const offered = usableStratagems(g, { name: 'charge/after-enemy-charge-declared', unit: 'ST', targets: ['WS', 'GD'] }, 0);
    expect(offered.map((x) => `${x.s.name}:${x.unit.id}`)).toContain('ANTI-GRAV REPULSION:WS');
    expect(offered.map((x) => `${x.s.name}:${x.unit.id}`)).not.toContain('ANTI-GRAV REPULSION:GD');
  });
});

describe('Starweaver', () => {
  it('Rapid Embarkation: at the end of the Fight phase, a HARLEQUINS unit of 6 or fewer within 6" can embark', () => {
    const g = battleSandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', counts: [1, 4], at: { x: 23, y: 18 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 45, y: 5 } },
    ], { factions: ['AE', 'TAU'], phase: 'fight', agents: [scriptedAgent('ae', (r) => (r.kind === 'rapid-embarkation' ? 1 : 0)), scriptedAgent('tau')] });
    expect(canCharge(g, g.state.units.TR)).toBe(false);
    endPhase(g, 0, 'fight');
    expect(g.state.units.TR.location).toBe('embarked');
    expect(g.state.units.TR.embarkedIn).toBe('SW');
  });
});
