/**
 * More T'au Empire abilities (src/factions/tau/more-abilities.ts): Ground Strike Fighter, Coordinated
 * Strike, High-intensity Markerlights, Nova Burst, Photon Casters, Pulse Bombs, Drone Escort and the
 * Target Optimisation Microdrones Enhancement. Each test compares the rule's condition met and not met,
 * so that it fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PlayerIndex } from '../../src/core/state.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { rollModifier, unitMove } from '../../src/rules/battle/units.ts';
import { GUIDED } from '../../src/factions/tau/army-rule.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

const count = (asked: DecisionRequest[], kind: string) => asked.filter((r) => r.kind === kind).length;
const hitRollsBy = (g: Game, unit: string) => (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit' && (e as { unit: string }).unit === unit).length;

/** The T'au (player 0) answer `kind` with `answer` ('keep' or 'use'), every other request with the first option. */
function tauSandbox(units: PlacedUnit[], kind: string, answer: string, asked: DecisionRequest[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  const pick = (r: DecisionRequest) => { asked.push(r); return r.kind === kind ? Math.max(0, (r.options as string[]).indexOf(answer)) : 0; };
  return battleSandbox(units, { phase: 'shooting', agents: [scriptedAgent('tau', pick), scriptedAgent('ae')], ...opts });
}

describe('Ground Strike Fighter (Razorshark Strike Fighter)', () => {
  it('+1 to the Hit roll of ranged attacks against a unit that cannot FLY; not against a FLY unit, not for other T\'au units', () => {
    const g = battleSandbox([
      { id: 'RS', player: 0, faction: 'tau', name: 'Razorshark Strike Fighter', at: { x: 10, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 20 } },
      { id: 'WR', player: 1, faction: 'aeldari', name: 'Windriders', at: { x: 30, y: 35 } },
    ], { phase: 'shooting' });
    expect(planFor(g, 'RS', 'GD', 'Accelerator burst cannon').hitModifier).toBe(1);
    expect(planFor(g, 'RS', 'GD', 'Seeker missile').hitModifier).toBe(1);
    expect(planFor(g, 'RS', 'WR', 'Accelerator burst cannon').hitModifier).toBe(0);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').hitModifier).toBe(0);
  });
});

describe('Coordinated Strike (Ta\'unar Supremacy Armour)', () => {
  function taunar(): Game {
    return battleSandbox([
      { id: 'TA', player: 0, faction: 'tau', name: "Ta'unar Supremacy Armour", at: { x: 10, y: 20 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 10 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 30 } },
    ], { phase: 'shooting' });
  }

  it('while it is a Guided unit: Hit rolls of 1 re-rolled against its Spotted unit only', () => {
    const g = taunar();
    // not Guided: no re-roll (the BS is that of the profile)
    expect(planFor(g, 'TA', 'GD', 'Burst cannon').rerollHits).toBe('none');
    g.addEffect(GUIDED, 0, 'TA', g.untilEndOfPhase(), { observer: 'ST', spotted: 'GD' });
    expect(planFor(g, 'TA', 'GD', 'Burst cannon').rerollHits).toBe('ones');
    expect(planFor(g, 'TA', 'GD', 'Tri-axis ion cannon').rerollHits).toBe('ones');
    expect(planFor(g, 'TA', 'DA', 'Burst cannon').rerollHits).toBe('none');
  });

  it('as the Observer unit of another unit (not Guided itself): no re-roll for its own attacks', () => {
    const g = taunar();
    g.addEffect(GUIDED, 0, 'ST', g.untilEndOfPhase(), { observer: 'TA', spotted: 'GD' });
    expect(planFor(g, 'TA', 'GD', 'Burst cannon').rerollHits).toBe('none');
  });
});

describe('High-intensity Markerlights (Tetras)', () => {
  /** A Strike Team selected to shoot, Guided with `observer` as its Observer unit and the Guardians Spotted. */
  function guided(observer: 'TE' | 'PF'): Game {
    const pick = (r: DecisionRequest) => {
      if (r.kind !== 'for-the-greater-good') return 0;
      return (r.options as { observer?: string; spotted?: string }[]).findIndex((o) => o.observer === observer && o.spotted === 'GD');
    };
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 15 } },
      { id: 'TE', player: 0, faction: 'tau', name: 'Tetras', at: { x: 10, y: 5 } },
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 12, y: 24 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 28, y: 15 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 28, y: 30 } },
    ], { phase: 'shooting', agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
    shootWithUnit(g, g.state.units.ST);
    return g;
  }

  it('the Tetras as Observer: until the end of the phase, the Guided unit\'s attacks at the Spotted unit may re-roll the Hit roll', () => {
    const g = guided('TE');
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollHits).toBe('failed');
    // not against another unit, not for the Tetras' own attacks
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').rerollHits).toBe('none');
    expect(planFor(g, 'TE', 'GD', 'Pulse rifle').rerollHits).toBe('none');
    // the end of the phase ends it
    expireEffects(g, { at: 'end-of-phase', round: 1, turn: 0, phase: 'shooting' });
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollHits).toBe('none');
  });

  it('another Observer unit (Pathfinders): no re-roll', () => {
    const g = guided('PF');
    expect(g.state.effects.some((e) => e.kind === GUIDED && e.unit === 'ST')).toBe(true);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollHits).toBe('none');
  });
});

describe('Nova Burst (Y\'vahra Battlesuit)', () => {
  /** A Y'vahra (M10") in its Movement phase, 30" from where it heads. */
  function yvahra(answer: 'keep' | 'use', asked: DecisionRequest[]): Game {
    return tauSandbox([
      { id: 'YV', player: 0, faction: 'tau', name: "Y'vahra Battlesuit", at: { x: 5, y: 22 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 55, y: 5 } },
    ], 'nova-burst', answer, asked, { phase: 'movement' });
  }
  const x = (g: Game) => g.state.units.YV.models[0].pos!.x;

  it('used before a Normal move: Move 18" until the end of the phase; once per battle', () => {
    const asked: DecisionRequest[] = [];
    const g = yvahra('use', asked);
    expect(unitMove(g.state, g.state.units.YV)).toBe(10);
    executeMove(g, g.state.units.YV, { mode: 'normal', to: { x: 35, y: 22 }, toward: 'test' });
    expect(count(asked, 'nova-burst')).toBe(1);
    expect(asked.find((r) => r.kind === 'nova-burst')!.context).toMatchObject({ unit: 'YV', mode: 'normal' });
    expect(x(g) - 5).toBeGreaterThan(17.9);
    expect(x(g) - 5).toBeLessThanOrEqual(18 + 1e-6);
    expect(unitMove(g.state, g.state.units.YV)).toBe(18);
    expireEffects(g, { at: 'end-of-phase', round: 1, turn: 0, phase: 'movement' });
    expect(unitMove(g.state, g.state.units.YV)).toBe(10);
    // once per battle: not offered again
    const before = x(g);
    executeMove(g, g.state.units.YV, { mode: 'normal', to: { x: 55, y: 22 }, toward: 'test' });
    expect(count(asked, 'nova-burst')).toBe(1);
    expect(x(g) - before).toBeLessThanOrEqual(10 + 1e-6);
  });

  it('kept: a Move of 10", and offered again at the next move', () => {
    const asked: DecisionRequest[] = [];
    const g = yvahra('keep', asked);
    executeMove(g, g.state.units.YV, { mode: 'normal', to: { x: 35, y: 22 }, toward: 'test' });
    expect(count(asked, 'nova-burst')).toBe(1);
    expect(x(g) - 5).toBeLessThanOrEqual(10 + 1e-6);
    expect(x(g) - 5).toBeGreaterThan(9.9);
    executeMove(g, g.state.units.YV, { mode: 'normal', to: { x: 45, y: 22 }, toward: 'test' });
    expect(count(asked, 'nova-burst')).toBe(2);
  });

  it('the 18" is the Move before modifiers: a -2" effect on the unit still applies (16")', () => {
    const asked: DecisionRequest[] = [];
    const g = yvahra('use', asked);
    // an effect from before the burst (pinned by a Night Spinner's web: -2")
    g.addEffect('Monofilament Web (pinned)', 1, 'YV', { at: 'end-of-battle' });
    expect(unitMove(g.state, g.state.units.YV)).toBe(8);
    executeMove(g, g.state.units.YV, { mode: 'normal', to: { x: 35, y: 22 }, toward: 'test' });
    expect(unitMove(g.state, g.state.units.YV)).toBe(16);
  });

  it('the heuristic uses it for a move beyond its Move, keeps it for a short one', () => {
    const g = yvahra('keep', []);
    const ask = (to: { x: number; y: number }, mode = 'normal') => createHeuristic().decide({ state: g.state, player: 0 }, {
      kind: 'nova-burst', player: 0, prompt: 'Nova Burst?', options: ['keep', 'use'], context: { unit: 'YV', mode, to },
    }).option;
    expect(ask({ x: 35, y: 22 })).toBe(1);
    expect(ask({ x: 12, y: 22 })).toBe(0);
    // an Advance reaches 10" + 3.5" on average
    expect(ask({ x: 18, y: 22 }, 'normal')).toBe(1);
    expect(ask({ x: 18, y: 22 }, 'advance')).toBe(0);
  });

  it('not offered for a unit that Remains Stationary', () => {
    const asked: DecisionRequest[] = [];
    const g = yvahra('use', asked);
    executeMove(g, g.state.units.YV, { mode: 'stationary' });
    expect(count(asked, 'nova-burst')).toBe(0);
  });
});

describe('Photon Casters (XV9 Hazard Battlesuits)', () => {
  function hazard(): Game {
    return battleSandbox([
      { id: 'XV', player: 0, faction: 'tau', name: 'Xv9 Hazard Battlesuits', at: { x: 10, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 20 } },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 22, y: 35 } },
    ], { phase: 'shooting' });
  }
  const stunned = (g: Game, unit: string) => g.state.effects.filter((e) => e.kind === 'Photon Casters (stunned)' && e.unit === unit);

  it('after it shot: each enemy INFANTRY unit hit is stunned (-2" Move, -2 to Advance and Charge rolls); not a VEHICLE', () => {
    const g = hazard();
    const GD = g.state.units.GD;
    expect(unitMove(g.state, GD)).toBe(7);
    getRule('Photon Casters')!.afterShooting!(g, g.state.units.XV, ['GD', 'FA']);
    expect(stunned(g, 'GD')).toHaveLength(1);
    expect(stunned(g, 'FA')).toHaveLength(0);
    expect(unitMove(g.state, GD)).toBe(5);
    expect(rollModifier(g.state, GD, 'advance')).toBe(-2);
    expect(rollModifier(g.state, GD, 'charge')).toBe(-2);
    expect(rollModifier(g.state, GD, 'battle-shock')).toBe(0);
    // a second volley does not stun it twice
    getRule('Photon Casters')!.afterShooting!(g, g.state.units.XV, ['GD']);
    expect(stunned(g, 'GD')).toHaveLength(1);
    expect(unitMove(g.state, GD)).toBe(5);
  });

  it('until the end of the opponent\'s next turn: this round\'s when the T\'au went first, else the next round\'s', () => {
    const g = hazard();
    getRule('Photon Casters')!.afterShooting!(g, g.state.units.XV, ['GD']);
    expect(stunned(g, 'GD')[0].expires).toEqual({ at: 'end-of-turn', round: 1, turn: 1 });
    // the end of the T'au turn does not end it; the end of the Aeldari turn does
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 0 });
    expect(stunned(g, 'GD')).toHaveLength(1);
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 1 });
    expect(stunned(g, 'GD')).toHaveLength(0);
    // the T'au as the second player: the Aeldari's next turn is in the next battle round
    const h = hazard();
    h.emit({ type: 'first-turn', player: 1 });
    getRule('Photon Casters')!.afterShooting!(h, h.state.units.XV, ['GD']);
    expect(stunned(h, 'GD')[0].expires).toEqual({ at: 'end-of-turn', round: 2, turn: 1 });
  });

  it('in a Shooting phase: the Guardians the battlesuits hit are stunned', () => {
    const g = hazard();
    shootWithUnit(g, g.state.units.XV);
    expect(hitRollsBy(g, 'XV')).toBeGreaterThan(0);
    expect(stunned(g, 'GD')).toHaveLength(1);
    expect(stunned(g, 'GD')[0].player).toBe(0);
  });
});

describe('Pulse Bombs (Sun Shark Bomber)', () => {
  /** A Sun Shark (SS) flying 20" east over a line of Guardians (GD) across its path, or beside it. */
  function run(across: boolean, dice: number[], answer: number): { g: Game; asked: DecisionRequest[]; left: number } {
    const seen: DecisionRequest[] = [];
    const stream = scriptedStream(dice);
    const g = battleSandbox([
      { id: 'SS', player: 0, faction: 'tau', name: 'Sun Shark Bomber', at: { x: 8, y: 22 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 1], at: { x: 18, y: across ? 15 : 32 }, spacing: 1.3 },
    ], { phase: 'movement', round: 2, stream, agents: [scriptedAgent('tau', (r) => { seen.push(r); return r.kind === 'pulse-bombs' ? answer : 0; }), scriptedAgent('ae')] });
    executeMove(g, g.state.units.SS, { mode: 'normal', to: { x: 28, y: 22 }, toward: 'test' });
    return { g, asked: seen.filter((r) => r.kind === 'pulse-bombs'), left: stream.remaining() };
  }
  const woundsLeft = (g: Game) => g.state.units.GD.models.reduce((n, m) => n + (m.alive ? m.wounds : 0), 0);
  /** Wounds the Guardians have lost (against an untouched unit's). */
  const lost = (g: Game) => woundsLeft(run(false, [], 0).g) - woundsLeft(g);

  it('after a Normal move over an enemy unit: six D6, each 4+ a mortal wound on the unit chosen', () => {
    const { g, asked, left } = run(true, [4, 5, 6, 1, 2, 4], 1);
    expect(g.state.units.SS.models[0].pos!.x).toBeGreaterThan(20);
    expect(asked).toHaveLength(1);
    expect(asked[0].options).toEqual([{ none: true }, { unit: 'GD' }]);
    expect(left).toBe(0);
    // four 4+: four mortal wounds
    expect(lost(g)).toBe(4);
  });

  it('declined, or no enemy unit passed over: nothing is rolled', () => {
    const declined = run(true, [4, 4, 4, 4, 4, 4], 0);
    expect(declined.asked).toHaveLength(1);
    expect(declined.left).toBe(6);
    expect(lost(declined.g)).toBe(0);
    const beside = run(false, [4, 4, 4, 4, 4, 4], 1);
    expect(beside.asked).toHaveLength(0);
    expect(beside.left).toBe(6);
  });
});

describe('Drone Escort (Heavy Gun Drones)', () => {
  const units = (gap: number): PlacedUnit[] => [
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 20 }, spacing: 1 },
    { id: 'HG', player: 0, faction: 'tau', name: 'Heavy Gun Drones', at: { x: 10 - gap, y: 20 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 20 }, spacing: 1 },
    { id: 'G2', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 32 }, spacing: 1 },
  ];
  const opts = { turn: 1 as PlayerIndex, round: 2 };

  it('when a friendly unit within 6" is targeted, the Drones shoot the attacker once it has shot; once per turn', () => {
    const asked: DecisionRequest[] = [];
    const g = tauSandbox(units(4), 'drone-escort', 'use', asked, opts);
    shootWithUnit(g, g.state.units.GD);
    expect(count(asked, 'drone-escort')).toBe(1);
    expect(asked.find((r) => r.kind === 'drone-escort')!.context).toEqual({ unit: 'HG', attacker: 'GD' });
    const log = g.log ?? [];
    const lastGd = log.map((e, i) => (e.type === 'dice' && (e as { unit: string }).unit === 'GD' && e.purpose === 'hit' ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
    const firstHg = log.findIndex((e) => e.type === 'dice' && (e as { unit: string }).unit === 'HG' && e.purpose === 'hit');
    expect(hitRollsBy(g, 'HG')).toBeGreaterThan(0);
    expect(firstHg).toBeGreaterThan(lastGd);
    // once per turn: the second attacker is not answered
    shootWithUnit(g, g.state.units.G2);
    expect(count(asked, 'drone-escort')).toBe(1);
  });

  it('not when the targeted unit is more than 6" away, nor when the player keeps it, nor in the T\'au Shooting phase', () => {
    const far: DecisionRequest[] = [];
    const g = tauSandbox(units(12), 'drone-escort', 'use', far, opts);
    // the Guardians' nearest target is the Strike Team, 12" from the Drones
    shootWithUnit(g, g.state.units.GD);
    expect(count(far, 'drone-escort')).toBe(0);
    expect(hitRollsBy(g, 'HG')).toBe(0);
    const kept: DecisionRequest[] = [];
    const k = tauSandbox(units(4), 'drone-escort', 'keep', kept, opts);
    shootWithUnit(k, k.state.units.GD);
    expect(count(kept, 'drone-escort')).toBe(1);
    expect(hitRollsBy(k, 'HG')).toBe(0);
    const own: DecisionRequest[] = [];
    const o = tauSandbox(units(4), 'drone-escort', 'use', own, { turn: 0, round: 2 });
    shootWithUnit(o, o.state.units.GD);
    expect(count(own, 'drone-escort')).toBe(0);
  });

  it('Drones that fired Overwatch earlier in the turn shoot again ("as if it were your Shooting phase"); Drones that could not shoot the attacker are not asked (audit 16)', () => {
    const asked: DecisionRequest[] = [];
    const g = tauSandbox(units(4), 'drone-escort', 'use', asked, { ...opts, phase: 'movement' });
    // the Overwatch of the Aeldari Movement phase (FIRE OVERWATCH's use), then their Shooting phase
    shootWithUnit(g, g.state.units.HG, { onlyTarget: 'GD' });
    // one Hit roll a volley: the Drones' burst cannons are one weapon group
    expect(hitRollsBy(g, 'HG')).toBe(1);
    expect(g.state.units.HG.flags.shot).toBe(true);
    g.emit({ type: 'phase-ended', round: 2, player: 1, phase: 'movement' });
    g.emit({ type: 'phase-started', round: 2, player: 1, phase: 'shooting' });
    shootWithUnit(g, g.state.units.GD);
    expect(count(asked, 'drone-escort')).toBe(1);
    expect(hitRollsBy(g, 'HG')).toBe(2);
    // Guardians in range of the Strike Team but out of the Drones' burst cannons' 18": not asked, the use not spent
    const far: DecisionRequest[] = [];
    const e = tauSandbox(units(4).slice(0, 3), 'drone-escort', 'use', far, opts);
    setGap(e, 'GD', 'ST', 15);
    expect(unitDistance(e.state, e.state.units.HG, e.state.units.GD)).toBeGreaterThan(18);
    shootWithUnit(e, e.state.units.GD);
    // the Guardians shot (two weapon groups: two Hit rolls), the Drones did not answer
    expect(hitRollsBy(e, 'GD')).toBe(2);
    expect(count(far, 'drone-escort')).toBe(0);
    expect(e.state.effects.some((x) => x.kind === 'Drone Escort used')).toBe(false);
  });
});

describe('Target Optimisation Microdrones (Starfire Cadre Enhancement)', () => {
  /** A Cadre Fireblade (CF) with the Enhancement; a Strike Team 3" away, Pathfinders 3" away, a Strike Team 20" away, Crisis Battlesuits 3" away. */
  function cadre(answer: 'keep' | 'use', asked: DecisionRequest[], turn: PlayerIndex = 0): Game {
    return tauSandbox([
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 20 }, enhancement: 'Target Optimisation Microdrones' },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 13, y: 14 } },
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 7, y: 14 } },
      { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 40 }, counts: [1, 4] },
      { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 13, y: 22 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 20 } },
    ], 'target-optimisation-microdrones', answer, asked, { turn, detachments: ['Starfire Cadre', null] });
  }

  it('a FIRE WARRIOR unit within 6" of the bearer selected to shoot: AP +1 for its ranged weapons until the end of the phase; once per turn', () => {
    const asked: DecisionRequest[] = [];
    const g = cadre('use', asked);
    const ap = planFor(g, 'ST', 'GD', 'Pulse rifle').ap;
    shootWithUnit(g, g.state.units.ST);
    expect(count(asked, 'target-optimisation-microdrones')).toBe(1);
    expect(asked.find((r) => r.kind === 'target-optimisation-microdrones')!.context).toEqual({ unit: 'ST', bearer: 'CF' });
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').ap).toBe(ap - 1);
    expect(planFor(g, 'ST', 'GD', 'Close combat weapon').ap).toBe(planFor(g, 'S2', 'GD', 'Close combat weapon').ap);
    // not for the other units
    expect(planFor(g, 'PF', 'GD', 'Pulse carbine').ap).toBe(planFor(g, 'S2', 'GD', 'Pulse rifle').ap);
    // once per turn: the Pathfinders (within 6" too) are not offered it
    shootWithUnit(g, g.state.units.PF);
    expect(count(asked, 'target-optimisation-microdrones')).toBe(1);
    expireEffects(g, { at: 'end-of-phase', round: 1, turn: 0, phase: 'shooting' });
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').ap).toBe(ap);
  });

  it('the bearer\'s own unit counts; kept, it is offered to the next unit; not to a unit 20" away nor to Crisis Battlesuits', () => {
    const asked: DecisionRequest[] = [];
    const g = cadre('keep', asked);
    shootWithUnit(g, g.state.units.S2);
    shootWithUnit(g, g.state.units.CB);
    expect(count(asked, 'target-optimisation-microdrones')).toBe(0);
    shootWithUnit(g, g.state.units.CF);
    expect(count(asked, 'target-optimisation-microdrones')).toBe(1);
    expect(g.state.effects.some((e) => e.kind === 'Target Optimisation Microdrones')).toBe(false);
    shootWithUnit(g, g.state.units.PF);
    expect(count(asked, 'target-optimisation-microdrones')).toBe(2);
  });

  it('the heuristic uses it on a unit whose guns gain from it, unless another unit near the bearer gains more', () => {
    const g = cadre('keep', []);
    const ask = (unit: string) => createHeuristic().decide({ state: g.state, player: 0 }, {
      kind: 'target-optimisation-microdrones', player: 0, prompt: 'Microdrones?', options: ['keep', 'use'], context: { unit, bearer: 'CF' },
    }).option;
    // ten Fire Warriors' pulse rifles gain more than the Fireblade's own rifle
    expect(ask('ST')).toBe(1);
    expect(ask('CF')).toBe(0);
    // once the Strike Team has shot, the Fireblade's gain is the best left
    g.emit({ type: 'unit-flag', unit: 'ST', flag: 'shot', value: true });
    g.emit({ type: 'unit-flag', unit: 'PF', flag: 'shot', value: true });
    expect(ask('CF')).toBe(1);
  });

  it('not in the opponent\'s Shooting phase', () => {
    const asked: DecisionRequest[] = [];
    const g = cadre('use', asked, 1);
    shootWithUnit(g, g.state.units.ST);
    expect(count(asked, 'target-optimisation-microdrones')).toBe(0);
  });
});
