/**
 * The Spiritseer's datasheet abilities (src/factions/aeldari/spiritseer.ts): Lone Operative near the Wraith
 * constructs, Spirit Mark's SUSTAINED HITS 1 and Tears of Isha's returned model or regained wounds; each test
 * compares the situation with and without the ability and fails if it is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { aeldariSandbox, battleSandbox, pocketWalls, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule, isLoneOperative } from '../../src/core/rules-registry.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { modelBody, unitDistance } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { inEngagementRange, unitCoherency } from '../../src/geometry/ranges.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { SPIRIT_MARK, SPIRIT_MARKED, TEARS_OF_ISHA } from '../../src/factions/aeldari/spiritseer.ts';
import { returnDestroyedModel } from '../../src/factions/helpers.ts';
import { characteristic } from '../../src/rules/battle/units.ts';

type Pick = (r: DecisionRequest) => number;

const asked: string[] = [];
const sandbox = (units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game => aeldariSandbox(units, asked, opts, pick);
const rule = (name: string) => getRule(name)!;
const SS: PlacedUnit = { id: 'SS', player: 0, faction: 'aeldari', name: 'Spiritseer', at: { x: 10, y: 5 } };
const WG: PlacedUnit = { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 12.5, y: 5 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 };
const BT: PlacedUnit = { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 30, y: 30 }, spacing: 0.9 };
const spiritMarks = () => asked.filter((k) => k === 'spirit-mark');

describe('Spiritseer: Lone Operative within 3" of a friendly WRAITH CONSTRUCT unit', () => {
  const shotAt = (wraithAt: { x: number; y: number } | null, strikeTeamX = 30) => {
    const g = sandbox([SS, ...(wraithAt ? [{ ...WG, at: wraithAt }] : []), { ...ST, at: { x: strikeTeamX, y: 5 } }], { phase: 'shooting', turn: 1 });
    return { g, canShootIt: canShoot(g, g.state.units.ST, 'SS'), lone: isLoneOperative(g.state, g.state.units.SS) };
  };

  it('beyond 12" the enemy cannot shoot it while Wraithguard stand within 3", and can when they do not', () => {
    const near = shotAt({ x: 12.5, y: 5 });
    expect(unitDistance(near.g.state, near.g.state.units.SS, near.g.state.units.WG)).toBeLessThan(3);
    expect(near.lone).toBe(true);
    expect(near.canShootIt).toBe(false);
    // the Wraithguard 5" away: no Lone Operative
    const far = shotAt({ x: 16.5, y: 5 });
    expect(unitDistance(far.g.state, far.g.state.units.SS, far.g.state.units.WG)).toBeGreaterThan(3);
    expect(far.lone).toBe(false);
    expect(far.canShootIt).toBe(true);
    expect(shotAt(null).canShootIt).toBe(true);
  });

  it('within 12" it can be shot all the same', () => {
    const close = shotAt({ x: 12.5, y: 5 }, 20);
    expect(close.lone).toBe(true);
    expect(close.canShootIt).toBe(true);
  });

  it('the Wraithguard themselves are no Lone Operatives', () => {
    const { g } = shotAt({ x: 12.5, y: 5 });
    expect(isLoneOperative(g.state, g.state.units.WG)).toBe(false);
  });
});

describe('Spirit Mark (Psychic)', () => {
  const WB: PlacedUnit = { id: 'WB', player: 0, faction: 'aeldari', name: 'Wraithblades', at: { x: 7.5, y: 5 } };
  const pair = (unit: string, target: string): Pick => (r) => (r.kind === 'spirit-mark' ? Math.max(0, (r.options as { unit?: string; target?: string }[]).findIndex((o) => o.unit === unit && o.target === target)) : 0);
  const marked = (opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = pair('WG', 'ST')) => sandbox([SS, WG, WB, ST, BT], { phase: 'movement', ...opts }, pick);
  const move = (g: Game, unit = 'SS') => executeMove(g, g.state.units[unit], { mode: 'normal', to: { x: g.state.units[unit].models[0].pos!.x + 1, y: 5 }, toward: 'test' });

  it('when the Spiritseer starts a move: the marked Wraith unit has SUSTAINED HITS 1 against the marked enemy unit only', () => {
    const g = marked();
    for (const [u, t, w] of [['WG', 'ST', 'Wraithcannon'], ['WG', 'BT', 'Wraithcannon'], ['WB', 'ST', 'Ghostswords']]) expect(planFor(g, u, t, w).sustainedHits).toBe(0);
    move(g);
    expect(spiritMarks()).toEqual(['spirit-mark']);
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').sustainedHits).toBe(1);
    expect(planFor(g, 'WG', 'ST', 'Close combat weapon').sustainedHits).toBe(1);
    // not against another enemy unit, nor for the other Wraith unit
    expect(planFor(g, 'WG', 'BT', 'Wraithcannon').sustainedHits).toBe(0);
    expect(planFor(g, 'WB', 'ST', 'Ghostswords').sustainedHits).toBe(0);
    // it lasts into the opponent's turn, until the start of the player's next turn
    const e = g.state.effects.find((x) => x.kind === SPIRIT_MARKED)!;
    expect(e.expires).toEqual({ at: 'start-of-command', player: 0, afterRound: 1 });
  });

  it('not a Wraith unit 8" from the Spiritseer (6" is the range; audit 19 mutant SS01)', () => {
    let offered: unknown[] = [];
    const g = sandbox([SS, { ...WG, at: { x: 12.5, y: 20 } }, ST], { phase: 'movement' }, (r) => {
      if (r.kind === 'spirit-mark') offered = r.options;
      return 0;
    });
    // the Wraithguard moved so that the closest models stand 8" apart
    setGap(g, 'WG', 'SS', 8);
    expect(unitDistance(g.state, g.state.units.SS, g.state.units.WG)).toBeCloseTo(8, 2);
    move(g);
    expect(offered.filter((o) => (o as { unit?: string }).unit === 'WG')).toEqual([]);
  });

  it('offers each Wraith unit within 6" (not a TITANIC one) with each visible enemy unit; declined at the start, offered again at the end; once per turn', () => {
    let offered: unknown[] = [];
    let n = 0;
    const g = sandbox([SS, WG, WB, { id: 'WK', player: 0, faction: 'aeldari', name: 'Wraithknight', at: { x: 10, y: 9 } }, ST, BT], { phase: 'movement' }, (r) => {
      if (r.kind !== 'spirit-mark') return 0;
      offered = r.options;
      // none at the start of the move, the Wraithblades against the Breacher Team at its end
      return n++ === 0 ? 0 : (r.options as { unit?: string; target?: string }[]).findIndex((o) => o.unit === 'WB' && o.target === 'BT');
    });
    expect(unitDistance(g.state, g.state.units.SS, g.state.units.WK)).toBeLessThan(6);
    move(g);
    expect(spiritMarks()).toEqual(['spirit-mark', 'spirit-mark']);
    expect(offered).toEqual([{ none: true }, { unit: 'WG', target: 'ST' }, { unit: 'WG', target: 'BT' }, { unit: 'WB', target: 'ST' }, { unit: 'WB', target: 'BT' }]);
    expect(planFor(g, 'WB', 'BT', 'Ghostswords').sustainedHits).toBe(1);
    expect(planFor(g, 'WG', 'ST', 'Wraithcannon').sustainedHits).toBe(0);
    // used this turn: another move of the Spiritseer asks nothing
    asked.length = 0;
    rule(SPIRIT_MARK).afterMove!(g, g.state.units.SS);
    expect(asked).toEqual([]);
  });

  it('not in the opponent\'s Movement phase, nor with no Wraith unit within 6", nor when another unit moves', () => {
    const theirs = marked({ turn: 1 });
    rule(SPIRIT_MARK).beforeMove!(theirs, theirs.state.units.SS, 'normal', { x: 11, y: 5 });
    expect(spiritMarks()).toEqual([]);
    const alone = sandbox([SS, { ...WG, at: { x: 20, y: 20 } }, ST], { phase: 'movement' }, pair('WG', 'ST'));
    move(alone);
    expect(spiritMarks()).toEqual([]);
    expect(planFor(alone, 'WG', 'ST', 'Wraithcannon').sustainedHits).toBe(0);
    const other = marked();
    move(other, 'WG');
    expect(spiritMarks()).toEqual([]);
  });

  it('the heuristic marks the enemy unit the Wraithguard can shoot, not one out of their guns\' reach', () => {
    const g = battleSandbox([SS, WG, { ...ST, at: { x: 26, y: 5 } }, { ...BT, at: { x: 50, y: 40 } }], { factions: ['AE', 'TAU'], phase: 'movement', agents: [createHeuristic(), scriptedAgent('tau')] });
    move(g);
    const e = g.state.effects.find((x) => x.kind === SPIRIT_MARKED);
    expect(e?.unit).toBe('WG');
    expect(e?.params.target).toBe('ST');
  });
});

describe('Tears of Isha (Psychic)', () => {
  const tears = (units: PlacedUnit[], dice: number[] = [], pick: Pick = () => 0) => {
    const stream = scriptedStream(dice);
    return { g: sandbox(units, { phase: 'command', stream }, pick), stream };
  };
  const kill = (g: Game, unit: string, i: number) => g.emit({ type: 'model-destroyed', unit, model: g.state.units[unit].models[i].id, by: null, reason: 'test' });
  const hurt = (g: Game, unit: string, i: number, wounds: number) => g.emit({ type: 'model-damaged', unit, model: g.state.units[unit].models[i].id, wounds, by: null, mortal: false });

  it('a destroyed model of a Wraith unit within 6" is returned, full wounds, in Unit Coherency and out of Engagement Range', () => {
    // a Strike Team in a line along the Wraithguard's right side, within Engagement Range of them (they may
    // stay there), and of the gap the destroyed model left
    const { g } = tears([SS, WG, { ...ST, at: { x: 14.6, y: 3 } }]);
    expect(g.state.units.ST.models.length).toBe(10);
    kill(g, 'WG', 2);
    hurt(g, 'WG', 0, 2);
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.SS, 'command');
    expect(asked).toEqual(['tears-of-isha']);
    const wg = g.state.units.WG;
    const back = wg.models[2];
    expect(back.alive).toBe(true);
    expect(back.wounds).toBe(3);
    // not healed as well: one or the other
    expect(wg.models[0].wounds).toBe(1);
    const s = g.state;
    expect(unitCoherency(wg.models.map((m) => modelBody(s, m))).ok).toBe(true);
    for (const m of wg.models) for (const o of wg.models) if (m !== o) expect(horizontalDistance(modelBody(s, m), modelBody(s, o))).toBeGreaterThan(0);
    for (const e of s.units.ST.models) expect(inEngagementRange(modelBody(s, back), modelBody(s, e))).toBe(false);
    expect(s.units.ST.models.some((e) => inEngagementRange(modelBody(s, wg.models[1]), modelBody(s, e)))).toBe(true);
    expect(back.pos!.x).toBeLessThan(12.5);
    // the others stayed where they were
    expect(wg.models[0].pos).toEqual({ x: 12.5, y: 5, z: 0 });
  });

  it('with no destroyed model, the most hurt model regains up to D3 lost wounds', () => {
    const { g, stream } = tears([SS, WG], [3]);
    hurt(g, 'WG', 1, 1);
    hurt(g, 'WG', 3, 2);
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.SS, 'command');
    expect(stream.remaining()).toBe(0);
    expect(g.state.units.WG.models.map((m) => m.wounds)).toEqual([3, 2, 3, 3, 3]);
    const { g: g1 } = tears([SS, WG], [1]);
    hurt(g1, 'WG', 3, 2);
    rule(TEARS_OF_ISHA).phaseStart!(g1, g1.state.units.SS, 'command');
    expect(g1.state.units.WG.models[3].wounds).toBe(2);
  });

  it('each unit once per turn: a second Spiritseer selects another Wraith unit, and nothing when none is left', () => {
    const S2: PlacedUnit = { ...SS, id: 'S2', at: { x: 10, y: 8 } };
    const WB: PlacedUnit = { id: 'WB', player: 0, faction: 'aeldari', name: 'Wraithblades', at: { x: 7.5, y: 5 } };
    const { g, stream } = tears([SS, S2, WG, WB], [2]);
    kill(g, 'WG', 4);
    hurt(g, 'WB', 0, 2);
    const offered: unknown[][] = [];
    g.agents![0] = scriptedAgent('ae', (r) => { asked.push(r.kind); offered.push(r.options as unknown[]); return 0; });
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.SS, 'command');
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.S2, 'command');
    expect(offered).toEqual([['WG', 'WB'], ['WB']]);
    expect(g.state.units.WG.models[4].alive).toBe(true);
    expect(g.state.units.WB.models[0].wounds).toBe(3);
    expect(stream.remaining()).toBe(0);
    // a third selection this turn finds no unit left to select
    asked.length = 0;
    kill(g, 'WG', 3);
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.SS, 'command');
    expect(asked).toEqual([]);
    expect(g.state.units.WG.models[3].alive).toBe(false);
  });

  it('not beyond 6", not in the opponent\'s Command phase, not for an unhurt unit', () => {
    const { g } = tears([SS, { ...WG, at: { x: 25, y: 5 } }]);
    kill(g, 'WG', 0);
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.SS, 'command');
    expect(asked).toEqual([]);
    expect(g.state.units.WG.models[0].alive).toBe(false);
    const theirs = sandbox([SS, WG], { phase: 'command', turn: 1 });
    kill(theirs, 'WG', 0);
    rule(TEARS_OF_ISHA).phaseStart!(theirs, theirs.state.units.SS, 'command');
    expect(theirs.state.units.WG.models[0].alive).toBe(false);
    const { g: whole } = tears([SS, WG]);
    rule(TEARS_OF_ISHA).phaseStart!(whole, whole.state.units.SS, 'command');
    expect(asked).toEqual([]);
  });

  it('a model with no room to stand is not returned (a Wraithguard model alone in a pocket of walls)', () => {
    const g = sandbox([{ ...WG, at: { x: 30, y: 22 } }], { phase: 'command', terrain: pocketWalls() });
    for (let i = 1; i < 5; i++) kill(g, 'WG', i);
    const events = g.log!.length;
    expect(returnDestroyedModel(g, g.state.units.WG, g.state.units.WG.models[1].id, 'Tears of Isha')).toBe(false);
    // nothing but a note in the log
    expect(g.log!.slice(events).map((e) => e.type)).toEqual(['note']);
    expect(g.state.units.WG.models[1].alive).toBe(false);
    // without the walls it stands again
    const open = sandbox([{ ...WG, at: { x: 30, y: 22 } }], { phase: 'command' });
    for (let i = 1; i < 5; i++) kill(open, 'WG', i);
    expect(returnDestroyedModel(open, open.state.units.WG, open.state.units.WG.models[1].id, 'Tears of Isha')).toBe(true);
    expect(open.state.units.WG.models[1].alive).toBe(true);
    // with its full wounds
    const back = open.state.units.WG.models[1];
    expect(back.wounds).toBe(characteristic(open.state, open.state.units.WG, back, 'W'));
  });

  it('the heuristic returns a model rather than heal one wound', () => {
    const WB: PlacedUnit = { id: 'WB', player: 0, faction: 'aeldari', name: 'Wraithblades', at: { x: 7.5, y: 5 } };
    const g = battleSandbox([SS, WB, WG], { factions: ['AE', 'TAU'], phase: 'command', agents: [createHeuristic(), scriptedAgent('tau')], stream: scriptedStream([]) });
    hurt(g, 'WB', 0, 1);
    kill(g, 'WG', 1);
    rule(TEARS_OF_ISHA).phaseStart!(g, g.state.units.SS, 'command');
    expect(g.state.units.WG.models[1].alive).toBe(true);
    expect(g.state.units.WB.models[0].wounds).toBe(2);
  });
});
