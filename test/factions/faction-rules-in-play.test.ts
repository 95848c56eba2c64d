/**
 * Faction and detachment rules in play: each test plays the rule with exact dice (or exact numbers) and
 * checks the restriction most likely to be played wrong (keywords, which enemy unit, how many re-rolls,
 * how long it lasts).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type BattleSandboxOptions, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import { planFor } from '../helpers/plan.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { usableStratagems, openWindow, type Window } from '../../src/rules/windows.ts';
import { unitDistance, modelBody } from '../../src/rules/battle/world.ts';
import { shootWithUnit, canShoot } from '../../src/rules/battle/shooting.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { destroyModel, splitAttachedUnits } from '../../src/rules/damage.ts';
import { disembark, embark } from '../../src/rules/battle/transports.ts';
import { guidanceOptions, FOR_THE_GREATER_GOOD } from '../../src/factions/tau/army-rule.ts';
import { isWhollyWithinOfBody } from '../../src/geometry/distance.ts';

type Picks = Partial<Record<string, (r: DecisionRequest) => number>>;

/**
 * An agent that uses the named stratagems whenever they are offered (passes on the others), answers
 * the decisions named in `picks` with their function, and everything else with its first option.
 */
function agent(name: string, stratagems: string[] = [], picks: Picks = {}): Agent {
  return scriptedAgent(name, (r) => {
    if (r.kind === 'stratagem') {
      const i = r.options.findIndex((o) => stratagems.includes((o as { stratagem?: string }).stratagem ?? ''));
      return i < 0 ? 0 : i;
    }
    return picks[r.kind]?.(r) ?? 0;
  });
}

/** Pick the option whose field `key` is `value`. */
const where = (key: string, value: string) => (r: DecisionRequest) => {
  const i = r.options.findIndex((o) => (o as Record<string, unknown>)[key] === value);
  if (i < 0) throw new Error(`no ${r.kind} option with ${key} ${value}`);
  return i;
};

/** The (stratagem > unit) pairs a player is offered in a window. */
const offered = (g: Game, w: Window, p: PlayerIndex) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`);

/** The re-rolls of the game, as "purpose: old -> new at indices". */
const rerolls = (g: Game) => (g.log ?? []).flatMap((e) => (e.type === 'reroll' ? [`${e.purpose}: [${e.old.join(',')}] -> [${e.values.join(',')}] at [${e.indices.join(',')}]`] : []));

const alive = (g: Game, unit: string) => g.state.units[unit].models.filter((m) => m.alive).length;

function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; round?: number; cp?: [number, number]; agents?: [Agent, Agent]; dice?: number[]; detachments?: [string | null, string | null]; factions?: [string, string]; terrain?: BattleSandboxOptions['terrain'] } = {}) {
  const stream = scriptedStream(opts.dice ?? []);
  const g = battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, round: opts.round ?? 2, cp: opts.cp, agents: opts.agents,
    detachments: opts.detachments, factions: opts.factions, terrain: opts.terrain, stream,
  });
  return { g, stream };
}

// --- Battle Host: Unparalleled Foresight --------------------------------------------------------

describe('Unparalleled Foresight (Battle Host): one Hit roll and one Wound roll re-rolled each time a unit shoots or fights', () => {
  it('shooting with two weapons (two Guardians\' catapults, the platform\'s cannon): only the first failed Hit roll and the first failed Wound roll of the whole unit are re-rolled', () => {
    // Catapults: 4 attacks, BS3+, S4 v T3 (3+), AP-1 v Sv4+ (5+). Hits 3 1 2 3: the first failed one (the 1) is
    // re-rolled (a 2); wounds 3 1: the 1 is re-rolled (a 2); one save of 6. Cannon: 3 attacks, hits 1 2 5 and
    // wound 1, not re-rolled: the unit's re-rolls are spent.
    const { g, stream } = sandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', counts: [2, 1], at: { x: 10, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 25, y: 5 } },
    ], { factions: ['AE', 'TAU'], detachments: ['Battle Host', null], dice: [3, 1, 2, 3, 2, 3, 1, 2, 6, 1, 2, 5, 1] });
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').rerollOne).toEqual({ hit: 1, wound: 1, damage: 0 });
    shootWithUnit(g, g.state.units.GD);
    expect(rolls(g, 'hit')).toEqual([[3, 1, 2, 3], [1, 2, 5]]);
    expect(rolls(g, 'wound')).toEqual([[3, 1], [1]]);
    expect(rolls(g, 'save')).toEqual([[6]]);
    expect(rerolls(g)).toEqual(['hit: [1] -> [2] at [1]', 'wound: [1] -> [2] at [1]']);
    expect(stream.remaining()).toBe(0);
    expect(alive(g, 'ST')).toBe(10);
  });

  it('fighting: the Autarch\'s star glaive re-rolls one failed Hit roll and one failed Wound roll', () => {
    // Star glaive: 4 attacks, WS2+, S6 v T3 (2+). Hits 1 1 2 2 (the first 1 re-rolled: a 1); wounds 1 1 (the first re-rolled: a 1)
    const { g, stream } = sandbox([
      { id: 'A', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 21.4, y: 25.6 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 } },
    ], { phase: 'fight', factions: ['AE', 'TAU'], detachments: ['Battle Host', null], dice: [1, 1, 2, 2, 1, 1, 1, 1] });
    expect(planFor(g, 'A', 'ST', 'Star glaive').rerollOne).toEqual({ hit: 1, wound: 1, damage: 0 });
    fight(g, g.state.units.A);
    expect(rolls(g, 'hit')).toEqual([[1, 1, 2, 2]]);
    expect(rolls(g, 'wound')).toEqual([[1, 1]]);
    expect(rerolls(g)).toEqual(['hit: [1] -> [1] at [0]', 'wound: [1] -> [1] at [0]']);
    expect(stream.remaining()).toBe(0);
    expect(alive(g, 'ST')).toBe(10);
  });

  it('without the detachment nothing is re-rolled (the same Hit rolls, then the wounds)', () => {
    const { g, stream } = sandbox([
      { id: 'A', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 21.4, y: 25.6 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 } },
    ], { phase: 'fight', factions: ['AE', 'TAU'], dice: [1, 1, 2, 2, 1, 1] });
    fight(g, g.state.units.A);
    expect(rerolls(g)).toEqual([]);
    expect(rolls(g, 'wound')).toEqual([[1, 1]]);
    expect(stream.remaining()).toBe(0);
  });
});

// --- Mont'ka: PINPOINT COUNTER-OFFENSIVE ----------------------------------------------------------

describe("PINPOINT COUNTER-OFFENSIVE (Mont'ka): re-roll Hit rolls against the enemy unit that destroyed one of yours", () => {
  /**
   * In the Aeldari turn of battle round 1, the Guardians (GD) destroy the Cadre Fireblade; the T'au
   * player uses the stratagem. Then it is the T'au Shooting phase of round 2. One-model Strike Team and
   * Kroot Carnivores; GD and the Dire Avengers (DA) are both beyond half range of their rifles.
   */
  function counterOffensive(dice: number[], shootAt?: string) {
    const picks: Picks = shootAt ? { 'shoot-target': where('target', shootAt) } : {};
    const { g, stream } = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 30 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 5 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1, 0], at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [2, 0], at: { x: 30, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 16 } },
    ], { turn: 1, round: 1, cp: [3, 0], detachments: ["Mont'ka", null], dice, agents: [agent('tau', ['PINPOINT COUNTER-OFFENSIVE'], picks), agent('ae')] });
    const F = g.state.units.F;
    destroyModel(g, F, F.models[0], 'GD', 'test');
    expect(g.state.players[0].cp).toBe(2);
    // the effect lasts until the end of the battle: past the end of this turn and round
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 1 });
    expireEffects(g, { at: 'end-of-round', round: 1 });
    g.emit({ type: 'round-started', round: 2 });
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    return { g, stream };
  }

  it('a failed Hit roll against the unit that destroyed the Fireblade is re-rolled, a battle round later', () => {
    // pulse rifle, 1 attack at BS4+: a 2 misses, re-rolled (a 1)
    const { g, stream } = counterOffensive([2, 1], 'GD');
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollHits).toBe('failed');
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'hit')).toEqual([[2]]);
    expect(rerolls(g)).toEqual(['hit: [2] -> [1] at [0]']);
    expect(stream.remaining()).toBe(0);
  });

  it('destroyed by an Attached unit: its Leader left alone once the Bodyguard is destroyed is still that unit (audit 16, as Bounty Hunters reads it)', () => {
    const { g } = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 32, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 16 } },
    ], { turn: 1, round: 2, cp: [3, 0], detachments: ["Mont'ka", null], dice: [], agents: [agent('tau', ['PINPOINT COUNTER-OFFENSIVE']), agent('ae')] });
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    const CF = g.state.units.CF;
    destroyModel(g, CF, CF.models[0], 'GD', 'test');
    expect(g.state.players[0].cp).toBe(2);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollHits).toBe('failed');
    // the Guardians die (the Farseer's model stands apart from them in the unit's order): the unit splits
    for (const m of g.state.units.GD.models.filter((x) => x.alive && x.origin === 'GD')) destroyModel(g, g.state.units.GD, m, 'ST', 'test');
    splitAttachedUnits(g);
    expect([g.state.units.GD.location, g.state.units.FS.location]).toEqual(['destroyed', 'battlefield']);
    expect(planFor(g, 'ST', 'FS', 'Pulse rifle').rerollHits).toBe('failed');
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').rerollHits).toBe('none');
  });

  it('not against another enemy unit', () => {
    const { g, stream } = counterOffensive([2], 'DA');
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').rerollHits).toBe('none');
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'hit')).toEqual([[2]]);
    expect(rerolls(g)).toEqual([]);
    expect(stream.remaining()).toBe(0);
  });

  it('not for a KROOT unit\'s attacks, even against that unit', () => {
    // Kroot rifle, 1 attack at BS4+: the 2 misses and stays a miss
    const { g, stream } = counterOffensive([2], 'GD');
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('none');
    shootWithUnit(g, g.state.units.KC);
    expect(rolls(g, 'hit')).toEqual([[2]]);
    expect(rerolls(g)).toEqual([]);
    expect(stream.remaining()).toBe(0);
  });

  it('the destroyed unit must be yours, not KROOT, and destroyed by an enemy unit', () => {
    const { g } = sandbox([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 30 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 5 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1, 0], at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [2, 0], at: { x: 30, y: 5 } },
    ], { turn: 1, round: 1, cp: [3, 0], detachments: ["Mont'ka", null] });
    for (const id of ['F', 'KC', 'GD']) for (const m of g.state.units[id].models) destroyModel(g, g.state.units[id], m, null, 'test');
    const destroyed = (unit: string, by: string | null): Window => ({ name: 'unit/destroyed', unit, targets: [], data: { by } });
    expect(offered(g, destroyed('F', 'GD'), 0)).toEqual(['PINPOINT COUNTER-OFFENSIVE>F']);
    expect(offered(g, destroyed('KC', 'GD'), 0)).toEqual([]);
    expect(offered(g, destroyed('F', 'ST'), 0)).toEqual([]);
    expect(offered(g, destroyed('F', null), 0)).toEqual([]);
    expect(offered(g, destroyed('GD', 'ST'), 0)).toEqual([]);
    // a unit Battle-shocked when it was destroyed is not its target (audit 16: as JOIN THE HUNT's same words)
    g.emit({ type: 'battle-shock', unit: 'F', value: true });
    expect(offered(g, destroyed('F', 'GD'), 0)).toEqual([]);
  });

  it("a destroyed Bodyguard part is judged by its own keywords, not its KROOT Leader's (Leader)", () => {
    // no T'au Leader of the export brings KROOT to a unit without it: the pair is attached by its event alone
    const { g } = sandbox([
      { id: 'KS', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 10, y: 7 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [2, 0], at: { x: 30, y: 5 } },
    ], { turn: 1, round: 1, cp: [3, 0], detachments: ["Mont'ka", null] });
    g.emit({ type: 'unit-attached', leader: 'KS', bodyguard: 'ST' });
    expect(g.state.units.ST.keywords).toContain('KROOT');
    const st = g.state.units.ST;
    for (const m of st.models.filter((x) => x.origin === 'ST')) destroyModel(g, st, m, null, 'test');
    expect(offered(g, { name: 'unit/destroyed', unit: 'ST', targets: [], data: { by: 'GD' } }, 0)).toEqual(['PINPOINT COUNTER-OFFENSIVE>ST']);
  });
});

// --- T'au: For the Greater Good, COORDINATE TO ENGAGE (Kauyon) ----------------------------------

/**
 * A one-model Guardian Defenders unit (Sv4+, W1) stands wholly within area terrain (the Benefit of
 * Cover); a one-model Strike Team and Breacher Team (both MARKERLIGHT) and a Cadre Fireblade (no
 * MARKERLIGHT) are 7-8" from it. The Dire Avengers stand in the open, farther away.
 */
function spotting(opts: { dice: number[]; observer?: string; detachment?: string | null; cp?: [number, number]; stratagems?: string[] }) {
  const picks: Picks = {
    'for-the-greater-good': opts.observer ? where('observer', opts.observer) : () => 0,
    'shoot-target': where('target', 'GD'),
  };
  const area = { id: 'wood', kind: 'area' as const, polygon: [{ x: 27, y: 7 }, { x: 33, y: 7 }, { x: 33, y: 13 }, { x: 27, y: 13 }], height: 0 };
  return sandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 22, y: 10 } },
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', counts: [1, 0], at: { x: 22, y: 14 } },
    { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 22, y: 6 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 30, y: 10 } },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 30 } },
  ], { round: 1, terrain: [area], dice: opts.dice, detachments: [opts.detachment ?? null, null], cp: opts.cp, agents: [agent('tau', opts.stratagems ?? [], picks), agent('ae')] });
}

describe('For the Greater Good: who can be the Observer unit', () => {
  it('not a Battle-shocked unit', () => {
    const { g } = spotting({ dice: [] });
    const observers = () => [...new Set(guidanceOptions(g, g.state.units.ST).map((o) => o.observer))];
    expect(observers()).toEqual(['BT', 'F']);
    g.emit({ type: 'battle-shock', unit: 'BT', value: true });
    expect(observers()).toEqual(['F']);
  });

  it('not a FORTIFICATION (a Drone Sentry Turret given the ability, since no T\'au FORTIFICATION datasheet has it)', () => {
    const { g } = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 22, y: 10 } },
      { id: 'DT', player: 0, faction: 'tau', name: 'Drone Sentry Turret', at: { x: 22, y: 16 } },
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 22, y: 6 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 30, y: 10 } },
    ], { round: 1 });
    g.state.units.DT.abilities.push(FOR_THE_GREATER_GOOD);
    expect(canShoot(g, g.state.units.DT)).toBe(true);
    expect(guidanceOptions(g, g.state.units.ST).map((o) => o.observer)).toEqual(['F']);
  });
});

describe('For the Greater Good: the Guided unit\'s attacks against its Spotted unit (in cover)', () => {
  // Strike Team pulse rifle within half range: 2 attacks. Hits 3 3 (BS4+ improved to 3+), wounds 3 3 (S5 v T3),
  // saves 3 3: against Sv4+ they pass only with the Benefit of Cover.
  const dice = [3, 3, 3, 3, 3, 3];

  it('guided by the Fireblade (no MARKERLIGHT): BS improved, but the target keeps its cover: both saves pass', () => {
    const { g, stream } = spotting({ dice, observer: 'F' });
    shootWithUnit(g, g.state.units.ST);
    expect(g.state.effects.filter((e) => e.kind === 'Guided unit').map((e) => e.params)).toEqual([{ observer: 'F', spotted: 'GD' }]);
    const plan = planFor(g, 'ST', 'GD', 'Pulse rifle', { cover: true });
    expect([plan.skill, plan.ignoresCover, plan.cover]).toEqual([3, false, true]);
    expect(rolls(g, 'hit')).toEqual([[3, 3]]);
    expect(rolls(g, 'save')).toEqual([[3, 3]]);
    expect(stream.remaining()).toBe(0);
    expect(alive(g, 'GD')).toBe(1);
  });

  it('guided by the Breacher Team (MARKERLIGHT): IGNORES COVER, so a save of 3 fails', () => {
    const { g, stream } = spotting({ dice, observer: 'BT' });
    shootWithUnit(g, g.state.units.ST);
    expect(g.state.effects.filter((e) => e.kind === 'Guided unit').map((e) => e.params)).toEqual([{ observer: 'BT', spotted: 'GD' }]);
    expect(rolls(g, 'save')).toEqual([[3, 3]]);
    expect(stream.remaining()).toBe(0);
    expect(alive(g, 'GD')).toBe(0);
  });
});

describe('COORDINATE TO ENGAGE (Kauyon): the Observer unit\'s own attacks against the Spotted unit', () => {
  // The Breacher Team shoots first, Guided (its pulse blaster's two Hit rolls are 1s); the stratagem is
  // used on its Observer, which then shoots the Spotted unit (in cover).

  it('a MARKERLIGHT Observer (Strike Team): BS 4+ improved to 3+ and IGNORES COVER: hits 3 3, wounds 3 3, saves 3 3 fail', () => {
    const { g, stream } = spotting({ dice: [1, 1, 3, 3, 3, 3, 3, 3], observer: 'ST', detachment: 'Kauyon', cp: [2, 0], stratagems: ['COORDINATE TO ENGAGE'] });
    shootWithUnit(g, g.state.units.BT);
    expect(g.state.players[0].cp).toBe(1);
    expect(g.state.effects.filter((e) => e.kind === 'Coordinate to Engage').map((e) => [e.unit, e.params.spotted])).toEqual([['ST', 'GD']]);
    // only against the Spotted unit
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').skill).toBe(4);
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'hit')).toEqual([[1, 1], [3, 3]]);
    expect(rolls(g, 'save')).toEqual([[3, 3]]);
    expect(stream.remaining()).toBe(0);
    expect(alive(g, 'GD')).toBe(0);
  });

  it('a non-MARKERLIGHT Observer (the Fireblade): BS 3+ improved to 2+, but the target keeps its cover: saves 3 3 pass', () => {
    const { g, stream } = spotting({ dice: [1, 1, 2, 2, 3, 3, 3, 3], observer: 'F', detachment: 'Kauyon', cp: [2, 0], stratagems: ['COORDINATE TO ENGAGE'] });
    shootWithUnit(g, g.state.units.BT);
    expect(g.state.players[0].cp).toBe(1);
    shootWithUnit(g, g.state.units.F);
    expect(rolls(g, 'hit')).toEqual([[1, 1], [2, 2]]);
    expect(rolls(g, 'wound')).toEqual([[3, 3]]);
    expect(rolls(g, 'save')).toEqual([[3, 3]]);
    expect(stream.remaining()).toBe(0);
    expect(alive(g, 'GD')).toBe(1);
  });

  it('without the stratagem the Observer shoots at its own BS: hits 3 3 miss at BS4+', () => {
    const { g, stream } = spotting({ dice: [1, 1, 3, 3], observer: 'ST', detachment: 'Kauyon', cp: [2, 0] });
    shootWithUnit(g, g.state.units.BT);
    shootWithUnit(g, g.state.units.ST);
    expect(rolls(g, 'hit')).toEqual([[1, 1], [3, 3]]);
    expect(rolls(g, 'wound')).toEqual([]);
    expect(stream.remaining()).toBe(0);
  });
});

// --- Mont'ka: PULSE ONSLAUGHT -----------------------------------------------------------------------

describe("PULSE ONSLAUGHT (Mont'ka): the enemy unit is shaken until the end of the opponent's next turn", () => {
  /** The Strike Team has just shot and hit the Guardians in the T'au Shooting phase of battle round 2. */
  function onslaught(tauFirst: boolean, dice: number[]) {
    const { g, stream } = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { cp: [3, 0], detachments: ["Mont'ka", null], dice, agents: [agent('tau', ['PULSE ONSLAUGHT']), agent('ae')] });
    if (!tauFirst) g.emit({ type: 'first-turn', player: 1 });
    expect(openWindow(g, { name: 'shooting/after-own-shot', unit: 'ST', targets: ['GD'], data: { hitTargets: ['GD'] } })).toEqual(['PULSE ONSLAUGHT']);
    expect(g.state.players[0].cp).toBe(1);
    expireEffects(g, { at: 'end-of-phase', round: 2, turn: 0, phase: 'shooting' });
    expireEffects(g, { at: 'end-of-turn', round: 2, turn: 0 });
    return { g, stream };
  }
  const aeldariMovement = (g: Game, round: number) => {
    if (round === 3) {
      expireEffects(g, { at: 'end-of-round', round: 2 });
      g.emit({ type: 'round-started', round: 3 });
    }
    g.emit({ type: 'turn-started', round, player: 1 });
    g.emit({ type: 'phase-started', round, player: 1, phase: 'movement' });
  };
  const shaken = (g: Game) => g.state.effects.some((e) => e.kind === 'Shaken' && e.unit === 'GD');

  it('the T\'au went first: in the Aeldari turn of the same battle round an Advance roll of 5 is 3"; after that turn a 5 is 5"', () => {
    const { g, stream } = onslaught(true, [5, 5]);
    aeldariMovement(g, 2);
    expect(advanceDistance(g, g.state.units.GD)).toBe(3);
    expireEffects(g, { at: 'end-of-turn', round: 2, turn: 1 });
    expect(shaken(g)).toBe(false);
    expect(advanceDistance(g, g.state.units.GD)).toBe(5);
    expect(stream.remaining()).toBe(0);
  });

  it('the T\'au went second: it lasts through the end of the battle round into the Aeldari turn of the next one', () => {
    const { g, stream } = onslaught(false, [5, 1]);
    aeldariMovement(g, 3);
    expect(shaken(g)).toBe(true);
    expect(advanceDistance(g, g.state.units.GD)).toBe(3);
    // an Advance roll of 1 becomes 0", not less
    expect(advanceDistance(g, g.state.units.GD)).toBe(0);
    expireEffects(g, { at: 'end-of-turn', round: 3, turn: 1 });
    expect(shaken(g)).toBe(false);
    expect(stream.remaining()).toBe(0);
  });

  it('not against a VEHICLE or MONSTER it hit, nor after a KROOT unit shot', () => {
    const { g } = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 25 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 5 } },
      { id: 'WL', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 30, y: 15 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 25 } },
    ], { cp: [3, 0], detachments: ["Mont'ka", null] });
    const shot = (unit: string, hit: string[]): Window => ({ name: 'shooting/after-own-shot', unit, targets: hit, data: { hitTargets: hit } });
    expect(offered(g, shot('ST', ['WS', 'WL']), 0)).toEqual([]);
    expect(offered(g, shot('ST', ['WS', 'GD']), 0)).toEqual(['PULSE ONSLAUGHT>ST']);
    expect(offered(g, shot('KC', ['GD']), 0)).toEqual([]);
  });
});

// --- Mont'ka: COMBAT DEBARKATION ---------------------------------------------------------------------

describe("COMBAT DEBARKATION (Mont'ka): an INFANTRY unit that disembarked this turn re-rolls Wound rolls against the closest enemy unit", () => {
  /**
   * A one-model Strike Team disembarks from its Devilfish in the Movement phase, then stands at (10, 10):
   * the Guardians are 20" away (the closest enemy unit), the Dire Avengers farther, both beyond half range.
   */
  function debarkation(dice: number[], shootAt = 'GD') {
    const { g, stream } = sandbox([
      { id: 'D', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 10, y: 22 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 10, y: 10 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', counts: [1, 0], at: { x: 4, y: 40 } },
      { id: 'H', player: 0, faction: 'tau', name: 'Kroot Hounds', at: { x: 4, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [2, 0], at: { x: 30, y: 10 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 34, y: 18 } },
    ], { phase: 'movement', cp: [3, 0], detachments: ["Mont'ka", null], dice, agents: [agent('tau', ['COMBAT DEBARKATION'], { 'shoot-target': where('target', shootAt) }), agent('ae')] });
    embark(g, g.state.units.ST, g.state.units.D);
    expect(disembark(g, g.state.units.ST)).toBe(true);
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: [{ model: g.state.units.ST.models[0].id, pos: { x: 10, y: 10, z: 0 } }] });
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    const s = g.state;
    expect(unitDistance(s, s.units.ST, s.units.GD)).toBeLessThan(unitDistance(s, s.units.ST, s.units.DA));
    return { g, stream };
  }
  const selected = (unit: string): Window => ({ name: 'shooting/unit-selected', unit, targets: [] });

  it('only an INFANTRY unit that disembarked from a TRANSPORT this turn', () => {
    const { g } = debarkation([]);
    expect(offered(g, selected('ST'), 0)).toEqual(['COMBAT DEBARKATION>ST']);
    // the Breacher Team did not disembark
    expect(offered(g, selected('BT'), 0)).toEqual([]);
    // the Kroot Hounds (BEASTS) are not INFANTRY, even flagged as having disembarked
    g.emit({ type: 'unit-flag', unit: 'H', flag: 'disembarked', value: true });
    expect(offered(g, selected('H'), 0)).toEqual([]);
    // in a later turn the Strike Team no longer counts as having disembarked this turn
    g.emit({ type: 'turn-started', round: 3, player: 0 });
    g.emit({ type: 'phase-started', round: 3, player: 0, phase: 'shooting' });
    expect(offered(g, selected('ST'), 0)).toEqual([]);
  });

  it('against the closest enemy unit, a failed Wound roll is re-rolled', () => {
    // pulse rifle, 1 attack: hit 4 (BS4+), wound 2 (S5 v T3 needs 3+) re-rolled: a 1
    const { g, stream } = debarkation([4, 2, 1]);
    shootWithUnit(g, g.state.units.ST);
    expect(g.state.players[0].cp).toBe(2);
    expect(rolls(g, 'wound')).toEqual([[2]]);
    expect(rerolls(g)).toEqual(['wound: [2] -> [1] at [0]']);
    expect(stream.remaining()).toBe(0);
  });

  it('against another enemy unit, it is not', () => {
    const { g, stream } = debarkation([4, 2], 'DA');
    shootWithUnit(g, g.state.units.ST);
    expect(g.state.players[0].cp).toBe(2);
    expect(rolls(g, 'wound')).toEqual([[2]]);
    expect(rerolls(g)).toEqual([]);
    expect(stream.remaining()).toBe(0);
  });
});

// --- Armoured Warhost: VECTORED ENGINES -----------------------------------------------------------

describe('VECTORED ENGINES (Armoured Warhost): a FLY VEHICLE that Fell Back may shoot', () => {
  function fellBack() {
    const { g } = sandbox([
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 5 } },
      { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', counts: [1], at: { x: 20, y: 15 } },
      { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 20, y: 25 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 35, y: 5 } },
    ], { phase: 'movement', factions: ['AE', 'TAU'], cp: [3, 0], detachments: ['Armoured Warhost', null], agents: [agent('ae', ['VECTORED ENGINES']), agent('tau')] });
    for (const id of ['WS', 'WW', 'WR']) g.emit({ type: 'unit-moved', unit: id, mode: 'fall-back' });
    return g;
  }
  const moved = (unit: string): Window => ({ name: 'movement/after-own-move', unit, targets: [] });

  it('only a VEHICLE that can FLY: not a WALKER without FLY, not a FLY unit that is not a VEHICLE', () => {
    const g = fellBack();
    expect(offered(g, moved('WS'), 0)).toEqual(['VECTORED ENGINES>WS']);
    expect(offered(g, moved('WW'), 0)).toEqual([]);
    expect(offered(g, moved('WR'), 0)).toEqual([]);
  });

  it('the Wave Serpent is eligible to shoot in the Shooting phase of that turn; the War Walkers, which Fell Back too, are not', () => {
    const g = fellBack();
    expect(openWindow(g, moved('WS'))).toEqual(['VECTORED ENGINES']);
    expect(g.state.players[0].cp).toBe(2);
    endPhase(g, 0, 'movement');
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    expect(canShoot(g, g.state.units.WS)).toBe(true);
    expect(canShoot(g, g.state.units.WW)).toBe(false);
    // without the stratagem the Wave Serpent could not
    const other = fellBack();
    endPhase(other, 0, 'movement');
    other.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    expect(canShoot(other, other.state.units.WS)).toBe(false);
  });
});

// --- Starweaver: Rapid Embarkation --------------------------------------------------------------------

describe('Starweaver: Rapid Embarkation (end of the Fight phase) is not offered when', () => {
  /** The Starweaver at (20, 20); a Troupe (`counts`) next to it; T'au far away unless placed. */
  function rapid(counts: number[], extra: PlacedUnit[] = []) {
    const asked: string[][] = [];
    const pick = (r: DecisionRequest) => {
      asked.push(r.options.map((o) => ('unit' in (o as object) ? (o as { unit: string }).unit : 'none')));
      return 0;
    };
    const { g } = sandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', counts, at: { x: 23, y: 18 }, spacing: 1.1 },
      ...extra,
      { id: 'FAR', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 5 } },
    ], { phase: 'fight', factions: ['AE', 'TAU'], agents: [agent('ae', [], { 'rapid-embarkation': pick }), agent('tau')] });
    return { g, asked, end: () => endPhase(g, 0, 'fight') };
  }

  it('(the control: a Troupe of 5 wholly within 6", not engaged, is offered)', () => {
    const { asked, end, g } = rapid([1, 4]);
    end();
    expect(asked).toEqual([['none', 'TR']]);
    expect(g.state.units.TR.location).toBe('battlefield');
  });

  it('models are already embarked within it (a Troupe of 1), although 1 + 5 would fit its 6', () => {
    const { asked, end, g } = rapid([1, 4], [{ id: 'T1', player: 0, faction: 'aeldari', name: 'Troupe', counts: [1, 0], at: { x: 16, y: 20 } }]);
    embark(g, g.state.units.T1, g.state.units.SW);
    end();
    expect(asked).toEqual([]);
    expect(g.state.units.TR.location).toBe('battlefield');
  });

  it('the unit has 7 models', () => {
    // (the Starweaver's capacity of 6 forbids it too: the two limits are the same number)
    const { asked, end } = rapid([1, 6]);
    end();
    expect(asked).toEqual([]);
  });

  it('one model is 6.1" from it (not wholly within 6"); at 5.9" it is offered', () => {
    for (const [gap, expected] of [[6.1, []], [5.9, [['none', 'TR']]]] as const) {
      const { g, asked, end } = rapid([1, 4]);
      const s = g.state;
      const hull = modelBody(s, s.units.SW.models[0]);
      const last = s.units.TR.models.at(-1)!;
      const r = (b: ReturnType<typeof modelBody>) => (b.base.kind === 'circle' ? b.base.r : NaN);
      // the farthest point of the model's base is `gap` from the Starweaver's base
      const d = gap + r(hull) - r(modelBody(s, last));
      g.emit({ type: 'models-placed', unit: 'TR', mode: 'test', positions: [{ model: last.id, pos: { x: 20 + d, y: 20, z: 0 } }] });
      const body = modelBody(g.state, g.state.units.TR.models.at(-1)!);
      expect([isWhollyWithinOfBody(body, hull, gap - 0.05), isWhollyWithinOfBody(body, hull, gap + 0.05)]).toEqual([false, true]);
      end();
      expect(asked).toEqual(expected);
    }
  });

  it('the unit is within Engagement Range of an enemy unit', () => {
    // a Cadre Fireblade 0.5" from the Troupe's first model
    const { g, asked, end } = rapid([1, 4], [{ id: 'F', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 24.5, y: 16.5 } }]);
    const s = g.state;
    const [a, b] = [modelBody(s, s.units.TR.models[0]), modelBody(s, s.units.F.models[0])];
    const r = (x: typeof a) => (x.base.kind === 'circle' ? x.base.r : NaN);
    const d = 0.5 + r(a) + r(b);
    g.emit({ type: 'models-placed', unit: 'F', mode: 'test', positions: [{ model: s.units.F.models[0].id, pos: { x: 23 + d, y: 18, z: 0 } }] });
    expect(unitDistance(g.state, g.state.units.F, g.state.units.TR)).toBeCloseTo(0.5, 3);
    end();
    expect(asked).toEqual([]);
  });
});
