/**
 * Datasheet abilities of units outside the bundled armies, added together: the Wraithknights' (Titanic
 * Strides, Titanic Agility, Agile, Point-blank Devastation, Webway Shunt Generator), the Wraithblades' Malevolent
 * Souls, the Hemlock's Mindshock Pod, Amallyn Shadowguide's The Path Least Travelled, Lhykhis' Empyric Ambush,
 * the Barracuda's Agile Dogfighter, the Ta'unar's Super-heavy Walker, the Tx42 Piranha's Outflank and The Twin
 * Lance's three. Each test compares the situation with and without the ability, so it fails if the ability
 * is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { allows, forbids, getRule, registerRule } from '../../src/core/rules-registry.ts';
import { createStream } from '../../src/core/rng.ts';
import { isClosestEligibleTarget, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { executeMove, planMove } from '../../src/rules/battle/movement.ts';
import { rollModifier } from '../../src/rules/battle/units.ts';
import { enemyBattleShockModifier } from '../../src/rules/battle/command.ts';
import { chargeRollModifier } from '../../src/rules/battle/charge.ts';
import { arrive } from '../../src/rules/battle/reserves.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { fightOnDeathModifier } from '../../src/rules/battle/fight-on-death.ts';
import { FLICKERJUMPED } from '../../src/factions/aeldari/wraiths-and-warlocks.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { miniScenario } from '../helpers/mini-scenario.ts';

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { phase: 'shooting', ...opts });
}

const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 20 }, spacing: 0.9 };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 20 }, spacing: 0.9 };

/** How far right (x) a Normal move of the unit toward (34, 22) gets past a wall of enemy models at x 20, or null. */
function across(name: string, faction: 'tau' | 'aeldari'): number | null {
  const wall: PlacedUnit[] = [0, 1, 2, 3].map((k) => ({ id: `W${k}`, player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 1], at: { x: 20, y: 0.6 + 11 * k }, spacing: 1.05 }));
  // no objective marker (the sandbox's, at the centre, would stop the largest bases short of x 34: no move ends on one)
  const g = sandbox([{ id: 'U', player: 0, faction, name, at: { x: 8, y: 22 } }, ...wall], { objectives: [] });
  const plan = planMove(g.state, g.state.units.U, 'normal', { x: 34, y: 22 }, 26);
  return plan.ok ? Math.max(...plan.positions.map((p) => p.x)) : null;
}

/** A ruin across the whole board between x 18 and 22, `height` inches high. */
const ruinAcross = (height: number) => [{ id: 'R', kind: 'ruin' as const, polygon: [{ x: 18, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 44 }, { x: 18, y: 44 }], height }];

/** The unit's Normal move toward (34, 22), 26" at most, with `others` on the table: its model's path, or null. */
function walk(name: string, faction: 'tau' | 'aeldari', others: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): { x: number; y: number }[] | null {
  const g = sandbox([{ id: 'U', player: 0, faction, name, at: { x: 8, y: 22 } }, ...others], { objectives: [], ...opts });
  const plan = planMove(g.state, g.state.units.U, 'normal', { x: 34, y: 22 }, 26);
  return plan.ok ? plan.paths[0] : null;
}

const WALKERS = [['Wraithknight', 'aeldari'], ['Skathach Wraithknight', 'aeldari'], ['Stormsurge', 'tau'], ["Ta'unar Supremacy Armour", 'tau'], ['Phantom Titan', 'aeldari']] as const;

describe('Walkers: TITANIC models and terrain over 4"', () => {
  it('Titanic Strides, Agile, Heavy Walker, Super-heavy Walker, Titanic Advance pass over a Wraithlord in the way but go around an enemy TITANIC model; Titanic Agility passes over both', () => {
    const lord: PlacedUnit = { id: 'E', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 20, y: 22 } };
    const knight: PlacedUnit = { id: 'E', player: 1, faction: 'aeldari', name: 'Wraithknight', at: { x: 20, y: 22 } };
    for (const [name, faction] of WALKERS) {
      const over = walk(name, faction, [lord]);
      expect(over, name).toHaveLength(2);
      expect(over![1].x, name).toBeCloseTo(34, 6);
      const around = walk(name, faction, [knight]);
      // not the straight line through the enemy Wraithknight: a detour, or a stop short of it
      expect(around === null || around.length > 2 || around[around.length - 1].x < 20, name).toBe(true);
    }
    const agility = walk('Wraithknight with Ghostglaive', 'aeldari', [knight]);
    expect(agility).toHaveLength(2);
    expect(agility![1].x).toBeCloseTo(34, 6);
  });

  it('the walkers cross a ruin 4" high, not one 5" high; Titanic Strides and Titanic Agility cross both; a Wraithlord neither', () => {
    for (const [name, faction] of WALKERS) {
      const low = walk(name, faction, [], { terrain: ruinAcross(4) });
      expect(low?.[low.length - 1].x, name).toBeCloseTo(34, 6);
      const high = walk(name, faction, [], { terrain: ruinAcross(5) });
      const crossed = high !== null && high[high.length - 1].x > 22;
      expect(crossed, name).toBe(name === 'Wraithknight');
    }
    const agility = walk('Wraithknight with Ghostglaive', 'aeldari', [], { terrain: ruinAcross(5) });
    expect(agility?.[agility.length - 1].x).toBeCloseTo(34, 6);
    for (const h of [4, 5]) {
      const lord = walk('Wraithlord', 'aeldari', [], { terrain: ruinAcross(h) });
      expect(lord === null || lord[lord.length - 1].x < 18).toBe(true);
    }
  });

  it('Titanic Strides: after a move through a ruin over 4" high, a D6: Battle-shocked on a 1, not on a 2; no D6 through a lower ruin', () => {
    const strides = (height: number, die: number | null) => {
      const stream = scriptedStream(die === null ? [] : [die]);
      const g = sandbox([{ id: 'WK', player: 0, faction: 'aeldari', name: 'Wraithknight', at: { x: 10, y: 22 } }, { ...GD, at: { x: 50, y: 5 } }],
        { phase: 'movement', terrain: [{ id: 'R', kind: 'ruin', polygon: [{ x: 14, y: 0 }, { x: 15, y: 0 }, { x: 15, y: 44 }, { x: 14, y: 44 }], height }], stream });
      executeMove(g, g.state.units.WK, { mode: 'normal', to: { x: 18, y: 22 }, toward: 'test' });
      expect(g.state.units.WK.models[0].pos!.x).toBeCloseTo(18, 6);
      return { shocked: g.state.units.WK.battleShocked, left: stream.remaining(), rolled: (g.log ?? []).filter((e) => e.type === 'dice' && e.label === 'Titanic Strides').length };
    };
    expect(strides(5, 1)).toEqual({ shocked: true, left: 0, rolled: 1 });
    expect(strides(5, 2)).toEqual({ shocked: false, left: 0, rolled: 1 });
    expect(strides(4, null)).toEqual({ shocked: false, left: 0, rolled: 0 });
  });
});

describe('Wraithknights and Wraithblades', () => {
  it('Titanic Strides, Titanic Agility, Agile, Super-heavy Walker, Titanic Advance: their Normal moves pass over a wall of enemy models; a Wraithlord\'s do not', () => {
    for (const [name, faction] of [['Wraithknight', 'aeldari'], ['Wraithknight with Ghostglaive', 'aeldari'], ['Skathach Wraithknight', 'aeldari'], ["Ta'unar Supremacy Armour", 'tau'], ['Phantom Titan', 'aeldari']] as const) {
      expect(across(name, faction), name).toBeCloseTo(34, 6);
    }
    const blocked = across('Wraithlord', 'aeldari');
    expect(blocked === null || blocked < 20).toBe(true);
  });

  it('Point-blank Devastation: the suncannon re-rolls its number of attacks against a target within half range; not beyond, not its other weapons', () => {
    const g = sandbox([{ id: 'WK', player: 0, faction: 'aeldari', name: 'Wraithknight', at: { x: 10, y: 20 } }, GD]);
    expect(planFor(g, 'WK', 'GD', 'Suncannon', { halfRange: true }).rerollAttacks).toBe(true);
    expect(planFor(g, 'WK', 'GD', 'Suncannon', { halfRange: false }).rerollAttacks).toBe(false);
    expect(planFor(g, 'WK', 'GD', 'Titanic feet', { halfRange: true }).rerollAttacks).toBe(false);
  });

  it('Malevolent Souls: a Wraithblades model destroyed before it fought fights on a 3+ (the 4+ with +1); Wraithguard do not', () => {
    const g = sandbox([
      { id: 'WB', player: 0, faction: 'aeldari', name: 'Wraithblades', at: { x: 10, y: 20 } },
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 10, y: 30 } },
      GD,
    ], { phase: 'fight' });
    expect(fightOnDeathModifier(g, g.state.units.WB)).toBe(1);
    expect(fightOnDeathModifier(g, g.state.units.WB, false)).toBe(null);
    expect(fightOnDeathModifier(g, g.state.units.WG)).toBe(null);
  });

  it('Webway Shunt Generator: once per battle, at the end of the opponent\'s turn, not engaged, into Strategic Reserves', () => {
    const asked: string[] = [];
    const pick = (r: DecisionRequest) => { asked.push(r.kind); return r.kind === 'webway-shunt-generator' ? 1 : 0; };
    const g = sandbox([{ id: 'SK', player: 0, faction: 'aeldari', name: 'Skathach Wraithknight', at: { x: 10, y: 20 } }, GD], { agents: [scriptedAgent('ae', pick), scriptedAgent('p1')] });
    const shunt = getRule('Webway Shunt Generator')!.turnEnd!;
    // the end of its own turn: nothing asked
    shunt(g, g.state.units.SK, 0);
    expect(asked).toEqual([]);
    shunt(g, g.state.units.SK, 1);
    expect(asked).toEqual(['webway-shunt-generator']);
    expect(g.state.units.SK.location).toBe('strategic-reserves');
    // back on the battlefield: not again this battle
    g.emit({ type: 'unit-location', unit: 'SK', location: 'battlefield', embarkedIn: null });
    g.emit({ type: 'models-placed', unit: 'SK', mode: 'test', positions: [{ model: g.state.units.SK.models[0].id, pos: { x: 10, y: 20, z: 0 } }] });
    shunt(g, g.state.units.SK, 1);
    expect(asked).toEqual(['webway-shunt-generator']);
    expect(g.state.units.SK.location).toBe('battlefield');
  });
});

describe('Hemlock Wraithfighter, Amallyn Shadowguide, Lhykhis', () => {
  it('Mindshock Pod: enemy units within 9" of the Hemlock take Battle-shock tests at -1; not beyond, not its own army', () => {
    const g = sandbox([
      { id: 'HW', player: 0, faction: 'aeldari', name: 'Hemlock Wraithfighter', at: { x: 30, y: 20 } },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 32, y: 26 } },
      { ...ST, at: { x: 36, y: 20 } },
      { ...ST, id: 'S2', at: { x: 50, y: 20 } },
    ]);
    const mod = (id: string) => enemyBattleShockModifier(g.state, g.state.units[id]);
    expect([mod('ST'), mod('S2'), mod('DA')]).toEqual([-1, 0, 0]);
    // a modifier of the enemy's, not of the unit's own rules
    expect(rollModifier(g.state, g.state.units.ST, 'battle-shock')).toBe(0);
  });

  it('Mindshock Pod counts once: a Strike Team within 9" of two Hemlocks tests at -1, not -2', () => {
    const g = sandbox([
      { id: 'HW', player: 0, faction: 'aeldari', name: 'Hemlock Wraithfighter', at: { x: 30, y: 20 } },
      { id: 'H2', player: 0, faction: 'aeldari', name: 'Hemlock Wraithfighter', at: { x: 42, y: 20 } },
      { ...ST, at: { x: 36, y: 20 } },
    ]);
    expect(enemyBattleShockModifier(g.state, g.state.units.ST)).toBe(-1);
  });

  it('The Path Least Travelled: one Rangers or Shroud Runners unit may be redeployed', () => {
    const g = sandbox([
      { id: 'AS', player: 0, faction: 'aeldari', name: 'Amallyn Shadowguide', at: { x: 5, y: 5 } },
      { id: 'RG', player: 0, faction: 'aeldari', name: 'Rangers', at: { x: 5, y: 15 } },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 25 } },
    ]);
    const r = getRule('The Path Least Travelled')!.redeploy!;
    expect(r.max).toBe(1);
    const s = g.state;
    expect([r.eligible(s.units.AS, s.units.RG, []), r.eligible(s.units.AS, s.units.DA, [])]).toEqual([true, false]);
  });

  it('The Path Least Travelled is resolved once the first turn is decided ("... and determined who has the first turn")', () => {
    const asked: string[] = [];
    const agent = (n: string) => scriptedAgent(n, (r) => { if (r.kind === 'redeploy' || r.kind === 'first-turn') asked.push(r.kind); return 0; });
    const sc = miniScenario({ tau: ['Strike Team'], aeldari: ['Amallyn Shadowguide', 'Rangers'] });
    createGame(sc, { seed: 'path-least-travelled', agents: [agent('tau'), agent('ae')] });
    expect(asked).toEqual(['first-turn', 'redeploy']);
  });

  it('Empyric Ambush: Warp Spiders led by Lhykhis may charge in the turn they used Flickerjump; without her they may not', () => {
    const spiders = (led: boolean) => {
      const g = sandbox([
        { id: 'WS', player: 0, faction: 'aeldari', name: 'Warp Spiders', at: { x: 10, y: 20 } },
        { id: 'LH', player: 0, faction: 'aeldari', name: 'Lhykhis', at: { x: 12, y: 20 } },
        GD,
      ], { phase: 'movement' });
      if (led) g.emit({ type: 'unit-attached', leader: 'LH', bodyguard: 'WS' });
      g.addEffect(FLICKERJUMPED, 0, 'WS', g.untilEndOfTurn());
      return g;
    };
    const led = spiders(true);
    expect(forbids(led.state, led.state.units.WS, 'charge')).toBe(false);
    const alone = spiders(false);
    expect(forbids(alone.state, alone.state.units.WS, 'charge')).toBe(true);
  });
});

describe('Shadow Weaver Platform', () => {
  it('Monofilament Snare: after it shot, an enemy unit its shadow weaver hit is snared: each Normal move, a D6 per model, each 1 a mortal wound', () => {
    const asked: DecisionRequest[] = [];
    // the Strike Team's 10 models move: dice 1, 1, 3, 4, 5, 6, 2, 3, 4, 5 (two 1s: two Fire Warriors die)
    const g = sandbox([{ id: 'SW', player: 0, faction: 'aeldari', name: 'Shadow Weaver Platform', at: { x: 10, y: 20 } }, { ...ST, at: { x: 30, y: 20 } }, { ...ST, id: 'S2', at: { x: 30, y: 35 } }],
      { stream: scriptedStream([1, 1, 3, 4, 5, 6, 2, 3, 4, 5]), agents: [scriptedAgent('ae', (r) => { asked.push(r); return 0; }), scriptedAgent('tau')] });
    getRule('Monofilament Snare')!.afterShooting!(g, g.state.units.SW, ['ST', 'S2'], [{ weapon: 'Shuriken catapult', target: 'S2' }, { weapon: 'Shadow weaver', target: 'ST' }]);
    expect(asked.filter((r) => r.kind === 'monofilament-snare').map((r) => r.options)).toEqual([['ST']]);
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    g.emit({ type: 'phase-started', round: 1, player: 1, phase: 'movement' });
    executeMove(g, g.state.units.ST, { mode: 'normal', to: { x: 36, y: 20 }, toward: 'test' });
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(8);
    // the other unit moves freely (no dice left to roll)
    executeMove(g, g.state.units.S2, { mode: 'normal', to: { x: 36, y: 35 }, toward: 'test' });
    expect(g.state.units.S2.models.filter((m) => m.alive)).toHaveLength(10);
  });
});

describe('Vibro Cannon Platform', () => {
  it('Sonic Destruction: +1 Strength, AP and Damage for each other platform that aimed its vibro cannon at the same unit this phase', () => {
    const g = sandbox([
      { id: 'V1', player: 0, faction: 'aeldari', name: 'Vibro Cannon Platform', at: { x: 10, y: 15 } },
      { id: 'V2', player: 0, faction: 'aeldari', name: 'Vibro Cannon Platform', at: { x: 10, y: 20 } },
      { id: 'V3', player: 0, faction: 'aeldari', name: 'Vibro Cannon Platform', at: { x: 10, y: 25 } },
      { ...ST, at: { x: 30, y: 20 } },
      { ...ST, id: 'S2', at: { x: 30, y: 35 } },
    ]);
    const rule = getRule('Sonic Destruction')!;
    const plan = (id: string, target = 'ST') => { const p = planFor(g, id, target, 'Vibro cannon'); return [p.strength, p.ap, p.damageBonus]; };
    const base = plan('V3');
    rule.targetsSelected!(g, g.state.units.V1, ['ST'], [{ weapon: 'Vibro cannon', target: 'ST' }]);
    rule.targetsSelected!(g, g.state.units.V2, ['ST'], [{ weapon: 'Vibro cannon', target: 'ST' }]);
    // V3: two others aimed at ST; V1: one other (V2); at S2: none
    expect(plan('V3')).toEqual([base[0] + 2, base[1] - 2, base[2] + 2]);
    expect(plan('V1')).toEqual([base[0] + 1, base[1] - 1, base[2] + 1]);
    expect(plan('V3', 'S2')).toEqual(base);
    // its other weapons: nothing
    expect(planFor(g, 'V3', 'ST', 'Shuriken catapult').strength).toBe(planFor(g, 'V3', 'S2', 'Shuriken catapult').strength);
  });
});

describe("Barracuda, Tx42 Piranha, The Twin Lance", () => {
  it('Agile Dogfighter: attacks that target the Barracuda have -1 to hit', () => {
    const g = sandbox([
      { id: 'BC', player: 0, faction: 'tau', name: 'Barracuda', at: { x: 10, y: 20 } },
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 10, y: 32 } },
      { ...GD, at: { x: 30, y: 20 } },
    ]);
    expect(planFor(g, 'GD', 'BC', 'Shuriken catapult').hitModifier).toBe(planFor(g, 'GD', 'HH', 'Shuriken catapult').hitModifier - 1);
  });

  it('Outflank: from Strategic Reserves in battle round 2 it may be set up in the enemy deployment zone; another unit may not', () => {
    const comeIn = (id: string, name: string) => {
      const g = sandbox([{ id, player: 0, faction: 'tau', name, at: { x: 5, y: 5 } }, { ...GD, at: { x: 30, y: 5 } }], { phase: 'movement', round: 2 });
      g.emit({ type: 'unit-location', unit: id, location: 'strategic-reserves', embarkedIn: null });
      // x 57: within 6" of the right edge, in player 1's deployment zone (x 48 to 60); where its models end up
      const ok = arrive(g, g.state.units[id], { unit: id, how: 'strategic-reserves', x: 57, y: 30 });
      return ok ? Math.max(...g.state.units[id].models.filter((m) => m.pos).map((m) => m.pos!.x)) : null;
    };
    expect(comeIn('PR', 'Tx42 Piranha')).toBeGreaterThan(48);
    const crisis = comeIn('CB', 'Crisis Battlesuits');
    expect(crisis === null || crisis < 48).toBe(true);
  });

  it("Exemplars of Mont'ka: ranged attacks at the closest eligible target have SUSTAINED HITS 1 and IGNORES COVER; not at another target", () => {
    const g = sandbox([
      { id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 10, y: 20 } },
      { ...GD, at: { x: 20, y: 20 } },
      { ...GD, id: 'G2', at: { x: 30, y: 30 } },
    ]);
    const near = planFor(g, 'TL', 'GD', 'Fusion eliminator', { cover: true });
    expect([near.sustainedHits, near.ignoresCover, near.cover]).toEqual([1, true, false]);
    const far = planFor(g, 'TL', 'G2', 'Fusion eliminator', { cover: true });
    expect([far.sustainedHits, far.ignoresCover, far.cover]).toEqual([0, false, true]);
  });

  it("Exemplars of Mont'ka is judged for each model: Ri'Lantar's XV pulse pistol at its own closest target (a Wraithlord X) has SUSTAINED HITS 1 and IGNORES COVER, Ri'Locai's (whose closest is Y) has not", () => {
    const seen: { attackers: string[]; sustained: number; ignoresCover: boolean }[] = [];
    const spy = 'test: Exemplars spy';
    // a defender-side effect: asked after every attacker-side rule, so it sees the plan as played
    if (!getRule(spy)) registerRule({ name: spy, kind: 'effect', attack(plan, ctx, src) { if (src.role === 'defender' && plan.profile === 'XV pulse pistol') seen.push({ attackers: ctx.attackers.map((m) => m.id), sustained: plan.sustainedHits, ignoresCover: plan.ignoresCover }); } });
    // the pistols at X, every other gun at Y
    const pick = (r: DecisionRequest) => {
      if (r.kind !== 'shoot-target') return 0;
      const o = r.options as { target?: string; weapon?: string }[];
      return Math.max(0, o.findIndex((x) => x.target === (x.weapon === 'XV pulse pistol' ? 'X' : 'Y')));
    };
    const g = sandbox([
      { id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 20, y: 10 }, spacing: 3 },
      { id: 'X', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 29.9, y: 6 } },
      { id: 'Y', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 30, y: 17 } },
    ], { stream: createStream('exemplars'), agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
    const s = g.state;
    const [lantar, locai] = s.units.TL.models;
    const pistol = s.datasheets[lantar.datasheet].weapons.find((w) => w.name === 'XV pulse pistol')!.profiles[0];
    expect([isClosestEligibleTarget(s, s.units.TL, [lantar], pistol, s.units.X), isClosestEligibleTarget(s, s.units.TL, [locai], pistol, s.units.X)]).toEqual([true, false]);
    g.addEffect(spy, 1, 'X', g.untilEndOfPhase(), {});
    shootWithUnit(g, s.units.TL);
    const by = (id: string) => [...new Set(seen.filter((x) => x.attackers.includes(id)).map((x) => `${x.attackers.length} ${x.sustained} ${x.ignoresCover}`))];
    expect(by(lantar.id)).toEqual(['1 1 true']);
    expect(by(locai.id)).toEqual(['1 0 false']);
  });

  it('Neocapacitor Shields: at the start of the opponent\'s Charge phase an enemy unit within 12" (not a VEHICLE) takes a Battle-shock test and has -1 to its Charge rolls this turn', () => {
    const asked: DecisionRequest[] = [];
    // the Battle-shock test: 2D6 of 1 and 1, failed
    const g = sandbox([
      { id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 10, y: 20 } },
      { ...GD, at: { x: 18, y: 20 } },
      { ...GD, id: 'G2', at: { x: 40, y: 20 } },
    ], { phase: 'movement', turn: 1, stream: scriptedStream([1, 1]), agents: [scriptedAgent('tau', (r) => { asked.push(r); return 0; }), scriptedAgent('ae')] });
    const s = g.state;
    expect(chargeRollModifier(s, s.units.GD, [s.units.TL])).toBe(0);
    startPhase(g, 1, 'charge');
    const mine = asked.filter((r) => r.kind === 'neocapacitor-shields');
    expect(mine.map((r) => r.options)).toEqual([['GD']]);
    expect(s.units.GD.battleShocked).toBe(true);
    expect(chargeRollModifier(s, s.units.GD, [s.units.TL])).toBe(-1);
    // in its own Charge phase: nothing asked
    asked.length = 0;
    const own = sandbox([{ id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 10, y: 20 } }, { ...GD, at: { x: 18, y: 20 } }], { phase: 'movement', turn: 0, agents: [scriptedAgent('tau', (r) => { asked.push(r); return 0; }), scriptedAgent('ae')] });
    startPhase(own, 0, 'charge');
    expect(asked.filter((r) => r.kind === 'neocapacitor-shields')).toEqual([]);
  });

  it('Retro-thrusters: at the end of a Fight phase in which it fought or charged, a Normal move of up to 6"; not when it was not eligible', () => {
    const asked: string[] = [];
    const pick = (r: DecisionRequest) => { asked.push(r.kind); return r.kind === 'retro-thrusters' ? r.options.length - 1 : 0; };
    const g = sandbox([{ id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 10, y: 20 } }, { ...GD, at: { x: 40, y: 20 } }],
      { phase: 'fight', turn: 1, agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
    endPhase(g, 1, 'fight');
    expect(asked).not.toContain('retro-thrusters');
    g.emit({ type: 'unit-flag', unit: 'TL', flag: 'fought', value: true });
    const from = { ...g.state.units.TL.models[0].pos! };
    endPhase(g, 1, 'fight');
    expect(asked).toContain('retro-thrusters');
    const to = g.state.units.TL.models[0].pos!;
    const moved = Math.hypot(to.x - from.x, to.y - from.y);
    expect(moved).toBeGreaterThan(0.5);
    expect(moved).toBeLessThanOrEqual(6 + 1e-6);
  });
});

it('allows: Outflank is the Piranha\'s permission alone', () => {
  const g = sandbox([{ id: 'PR', player: 0, faction: 'tau', name: 'Tx42 Piranha', at: { x: 5, y: 5 } }, { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 5, y: 25 } }]);
  expect([allows(g.state, g.state.units.PR, 'arrive-in-enemy-zone'), allows(g.state, g.state.units.CB, 'arrive-in-enemy-zone')]).toEqual([true, false]);
});
