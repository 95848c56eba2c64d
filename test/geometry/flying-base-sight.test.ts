/**
 * A vehicle on a flying base is seen, and sees, by its hull: a model is visible when any part of it can be
 * seen (10th edition core rules, Determining Visibility), and the hull of a Wave Serpent reaches well past its
 * 60 mm stand. Its distances still measure to the base (README, "What the engine plays").
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { boardOf, modelBody, unitDistance, unitSees } from '../../src/rules/battle/world.ts';
import { benefitOfCover, isVisible } from '../../src/geometry/visibility.ts';
import type { TerrainPiece } from '../../src/geometry/types.ts';
import { MM_PER_INCH } from '../../src/geometry/types.ts';

/** A Commander at (10, 22) and a Wave Serpent at (30, 22), with one ruin. */
function commanderAndSerpent(ruin: TerrainPiece['polygon']) {
  const g = battleSandbox([
    { id: 'CM', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 10, y: 22 } },
    { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 22 } },
  ], { terrain: [{ id: 'ruin', kind: 'ruin', polygon: ruin, height: 5 }], phase: 'shooting' });
  const s = g.state;
  const commander = modelBody(s, s.units.CM.models[0]);
  const serpent = modelBody(s, s.units.WS.models[0]);
  // the same Wave Serpent as if it were only its base: what the engine saw before
  const { sight: _hull, ...baseOnly } = serpent;
  return { s, commander, serpent, baseOnly };
}

// a ruin 2" wide and 2.6" deep on the line between them: it hides the Wave Serpent's stand, not the ends of its hull
const wideRuin = [{ x: 20, y: 20.7 }, { x: 22, y: 20.7 }, { x: 22, y: 23.3 }, { x: 20, y: 23.3 }];
// a 1" ruin in front of the near corner of the hull, clear of the line to the stand
const smallRuin = [{ x: 24, y: 23.5 }, { x: 25, y: 23.5 }, { x: 25, y: 24.5 }, { x: 24, y: 24.5 }];

describe('a vehicle on a flying base', () => {
  it('has its hull as its sight footprint (205 x 115 mm for a Wave Serpent), its 60 mm stand as its base', () => {
    const { serpent } = commanderAndSerpent(wideRuin);
    expect(serpent.base).toEqual({ kind: 'circle', r: 30 / MM_PER_INCH });
    expect(serpent.sight).toEqual({ kind: 'rect', l: 205 / MM_PER_INCH, w: 115 / MM_PER_INCH, angle: 0 });
  });

  it('is visible when its hull shows past a ruin that hides its stand', () => {
    const { s, commander, serpent, baseOnly } = commanderAndSerpent(wideRuin);
    const board = boardOf(s);
    expect(isVisible(commander, baseOnly, board)).toBe(false);
    expect(isVisible(commander, serpent, board)).toBe(true);
    expect(unitSees(s, s.units.CM, s.units.WS)).toBe(true);
  });

  it('sees by its hull too: past the same ruin, the Wave Serpent sees the Commander', () => {
    const { s, commander, baseOnly } = commanderAndSerpent(wideRuin);
    expect(isVisible(baseOnly, commander, boardOf(s))).toBe(false);
    expect(unitSees(s, s.units.WS, s.units.CM)).toBe(true);
  });

  it('has the Benefit of Cover when a ruin hides part of its hull, though its stand is in plain sight', () => {
    const { s, commander, serpent, baseOnly } = commanderAndSerpent(smallRuin);
    const board = boardOf(s);
    expect(benefitOfCover(baseOnly, [commander], board)).toBe(false);
    expect(benefitOfCover(serpent, [commander], board)).toBe(true);
  });

  it('still measures its distances to its base', () => {
    const { s } = commanderAndSerpent(smallRuin);
    const commanderR = modelBody(s, s.units.CM.models[0]).base;
    expect(commanderR.kind).toBe('circle');
    const gap = 20 - 30 / MM_PER_INCH - (commanderR.kind === 'circle' ? commanderR.r : 0);
    expect(unitDistance(s, s.units.CM, s.units.WS)).toBeCloseTo(gap, 9);
  });
});
