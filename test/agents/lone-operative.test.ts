/**
 * Lone Operative in the heuristic's danger and in the moves offered: a Spiritseer is a Lone Operative only
 * within 3" of a friendly WRAITH CONSTRUCT unit, so it is offered a move toward each such unit (Rule.escortedBy)
 * and the danger of ending there counts only the enemy guns that can come within 12" of it.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, type PlacedUnit } from '../helpers/battle.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { moveOptions, planMove } from '../../src/rules/battle/movement.ts';
import { dangerFrom, dangerSources } from '../../src/ai/tactics.ts';
import { isLoneOperative } from '../../src/core/rules-registry.ts';
import { unitMove } from '../../src/rules/battle/units.ts';

const WG: PlacedUnit = { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 14, y: 30 }, spacing: 1.5 };
const BS: PlacedUnit = { id: 'BS', player: 1, faction: 'tau', name: 'Broadside Battlesuits', at: { x: 44, y: 20 }, spacing: 2 };

function sandbox(objectives = [{ id: 'o1', pos: { x: 57, y: 42 } }], name = 'Spiritseer') {
  return battleSandbox([{ id: 'SS', player: 0, faction: 'aeldari', name, at: { x: 20, y: 22 } }, WG, BS], {
    factions: ['AE', 'TAU'], phase: 'movement', turn: 0, round: 2, objectives,
  });
}

describe('Lone Operative: the danger of a position', () => {
  it('an enemy unit whose guns cannot come within 12" counts nothing against a Lone Operative, in full otherwise', () => {
    const g = sandbox();
    const s = g.state;
    const sources = dangerSources(s, s.units.SS);
    const at = { x: 20, y: 22 };
    // the Broadsides are ~23" away, their Move 5": their guns reach from ~18"
    expect(dangerFrom(sources, at, 1)).toBeGreaterThan(0);
    expect(dangerFrom(sources, at, 1, undefined, 12)).toBe(0);
    // brought within 12" of their Move, they count in full again
    const near = { x: 34, y: 22 };
    expect(dangerFrom(sources, near, 1, undefined, 12)).toBe(dangerFrom(sources, near, 1));
  });
});

describe('Lone Operative: moves toward the escorts', () => {
  it('the Spiritseer is offered moves toward the Wraithguard (a Farseer is not); ending there it is a Lone Operative', () => {
    const g = sandbox();
    const s = g.state;
    const toward = moveOptions(s, s.units.SS).filter((o) => 'toward' in o && o.toward === 'friend WG').map((o) => o.mode);
    expect(toward).toEqual(['normal', 'advance']);
    const farseer = sandbox(undefined, 'Farseer');
    expect(moveOptions(farseer.state, farseer.state.units.SS).some((o) => 'toward' in o && o.toward.startsWith('friend '))).toBe(false);
    // the Normal move toward them ends within 3": a Lone Operative there
    expect(isLoneOperative(s, s.units.SS)).toBe(false);
    const plan = planMove(s, s.units.SS, 'normal', { x: 14, y: 33 }, unitMove(s, s.units.SS));
    if (!plan.ok) throw new Error('the move toward the Wraithguard is not planned');
    g.emit({ type: 'models-placed', unit: 'SS', mode: 'normal', positions: s.units.SS.models.map((m, i) => ({ model: m.id, pos: plan.positions[i] })) });
    expect(isLoneOperative(g.state, g.state.units.SS)).toBe(true);
  });

  it('with no marker to go for, the heuristic takes the Spiritseer to the Wraithguard, out of the Broadsides\' reach (not without the Lone Operative danger)', () => {
    const chosen = (w: number) => {
      const g = sandbox([]);
      const options = moveOptions(g.state, g.state.units.SS);
      const d = createHeuristic({ loneOperative: w }).decide({ state: g.state, player: 0 }, { kind: 'move', player: 0, prompt: 'SS: how does it move?', options, context: { unit: 'SS' } });
      return options[d.option];
    };
    expect(chosen(1)).toMatchObject({ mode: 'normal', toward: 'friend WG' });
    expect(chosen(0)).not.toMatchObject({ toward: 'friend WG' });
  });
});
