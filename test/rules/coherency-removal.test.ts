/**
 * Unit Coherency at the end of a turn (the controlling player removes models one at a time until one
 * coherent group is left; they count as destroyed but trigger nothing) and casualties taken from a
 * unit's edges, so that attacks do not leave gaps that cost models at the end of the turn.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { unitCoherency } from '../../src/geometry/ranges.ts';
import { allocationTarget } from '../../src/rules/allocation.ts';
import { removeOutOfCoherency } from '../../src/rules/battle/end-of-turn.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';

const place = (g: Game, unit: string, at: Record<string, [number, number]>) =>
  g.emit({ type: 'models-placed', unit, mode: 'test', positions: Object.entries(at).map(([model, [x, y]]) => ({ model, pos: { x, y, z: 0 } })) });

const alive = (g: Game, unit: string) => g.state.units[unit].models.filter((m) => m.alive);
const coherent = (g: Game, unit: string) => unitCoherency(alive(g, unit).map((m) => modelBody(g.state, m))).ok;
const removals = (g: Game) => g.log!.filter((e) => e.type === 'model-destroyed' && e.reason === 'out of Unit Coherency');

/** A player recording each `coherency-removal` request and answering with `pick` (default: the suggestion). */
function remover(asked: DecisionRequest[], pick: (req: DecisionRequest) => number = () => 0) {
  return scriptedAgent('remover', (req) => {
    if (req.kind !== 'coherency-removal') return 0;
    asked.push(req);
    return pick(req);
  });
}

describe('Unit Coherency at the end of the turn', () => {
  it('keeps a Leader who stands apart when fewer points of Bodyguard models restore coherency', () => {
    // 10 Fire Warriors (7 points each) in two rows, every one with two neighbours; their Cadre Fireblade
    // (50 points) within 2" of one of them only. Eleven models need two neighbours each: losing the
    // Fireblade (50) or five Fire Warriors (35, leaving six models, which need one neighbour each).
    const asked: DecisionRequest[] = [];
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 }, points: 70 },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 28.9, y: 10 }, points: 50 },
    ], { agents: [remover(asked), scriptedAgent('p2')] });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    const rows: Record<string, [number, number]> = {};
    for (let k = 0; k < 10; k++) rows[`ST-m${k + 1}`] = [20 + 1.5 * (k % 5), k < 5 ? 10 : 11.5];
    place(g, 'ST', rows);
    expect(coherent(g, 'ST')).toBe(false);
    removeOutOfCoherency(g);
    const left = alive(g, 'ST');
    expect(left.map((m) => m.origin).filter((o) => o === 'CF')).toHaveLength(1);
    expect(left).toHaveLength(6);
    expect(coherent(g, 'ST')).toBe(true);
    // asked of the owner once per model removed, every model on the battlefield offered each time
    expect(asked.map((r) => r.options.length)).toEqual([11, 10, 9, 8, 7]);
    expect(asked.every((r) => r.player === 0 && (r.context as { unit: string }).unit === 'ST')).toBe(true);
  });

  it('the player picks: a model in coherency may go first, and the engine asks again until the unit is coherent', () => {
    const asked: DecisionRequest[] = [];
    const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 10 }, spacing: 1 }],
      { agents: [remover(asked, (req) => (asked.length === 1 ? req.options.findIndex((o) => (o as { model: string }).model === 'ST-m1') : 0)), scriptedAgent('p2')] });
    const stray = g.state.units.ST.models[9].id;
    place(g, 'ST', { [stray]: [40, 40] });
    removeOutOfCoherency(g);
    // the suggestion is the stray model; the player removed its Shas'ui first, then the stray one
    expect((asked[0].options[0] as { model: string }).model).toBe(stray);
    expect(removals(g).map((e) => (e as { model: string }).model)).toEqual(['ST-m1', stray]);
    expect(alive(g, 'ST')).toHaveLength(8);
  });

  it('the removed models count as destroyed but trigger nothing: no Deadly Demise', () => {
    // two Piranhas (Deadly Demise 1) 20" apart, each with an enemy unit 3" away; every D6 would be a 6
    const g = battleSandbox([
      { id: 'PI', player: 0, faction: 'tau', name: 'Piranhas', counts: [2], at: { x: 20, y: 10 } },
      { id: 'E1', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 23, y: 10 }, spacing: 1 },
      { id: 'E2', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 43, y: 30 }, spacing: 1 },
    ], { stream: scriptedStream(new Array(20).fill(6)) });
    place(g, 'PI', { 'PI-m2': [40, 30] });
    expect(coherent(g, 'E1') && coherent(g, 'E2')).toBe(true);
    const before = g.log!.length;
    removeOutOfCoherency(g);
    const after = g.log!.slice(before);
    expect(after.filter((e) => e.type === 'model-destroyed')).toHaveLength(1);
    expect(after.filter((e) => e.type === 'dice')).toEqual([]);
    expect(after.filter((e) => e.type === 'model-damaged')).toEqual([]);
    expect(alive(g, 'PI')).toHaveLength(1);
  });

  it('a Leader removed whole: the Attached unit splits at once (its Bodyguard back to its own Starting Strength)', () => {
    // six Fire Warriors (70 points) together, their Fireblade (50) alone 10" away: the Fireblade goes
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 5], at: { x: 20, y: 10 }, points: 70 },
      { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 10 }, points: 50 },
    ]);
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    expect(g.state.units.ST.startingStrength).toBe(7);
    removeOutOfCoherency(g);
    expect(g.state.units.CF.location).toBe('destroyed');
    expect(g.state.units.ST.startingStrength).toBe(6);
    expect(g.state.units.ST.components).toHaveLength(1);
    expect(alive(g, 'ST')).toHaveLength(6);
  });
});

describe('Casualties from the edges of a unit', () => {
  it('the model taking an attack is one whose loss keeps the unit coherent, the last in order among those', () => {
    // five Fire Warriors in a line 1.6" apart, the last in the unit's order in the middle of it
    const g = battleSandbox([{ id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 20, y: 10 } }]);
    place(g, 'ST', { 'ST-m1': [20, 10], 'ST-m2': [20, 11.6], 'ST-m5': [20, 13.2], 'ST-m3': [20, 14.8], 'ST-m4': [20, 16.4] });
    expect(allocationTarget(g.state, g.state.units.ST, false)?.id).toBe('ST-m4');
    // in order along the line (a control): the last model is at an end, and it is the one
    place(g, 'ST', { 'ST-m3': [20, 13.2], 'ST-m4': [20, 14.8], 'ST-m5': [20, 16.4] });
    expect(allocationTarget(g.state, g.state.units.ST, false)?.id).toBe('ST-m5');
  });
});
