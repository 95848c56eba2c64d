import { describe, expect, it } from 'vitest';
import {
  lineOfSight,
  isVisible,
  isFullyVisible,
  unitVisible,
  benefitOfCover,
  coverReason,
  sightLines,
  crossesFootprint,
} from '../../src/geometry/visibility.ts';
import { segmentCrossesPolygon } from '../../src/geometry/polygon.ts';
import { createStream } from '../../src/core/rng.ts';
import type { Board, TerrainPiece } from '../../src/geometry/types.ts';
import { body, circle, piece, R32, square } from './helpers.ts';

const board = (...terrain: TerrainPiece[]): Board => ({ width: 60, height: 44, terrain });
// a 4" x 4" ruin between x = 18 and 22
const ruin = piece('ruin', 'ruin', square(18, 18, 4, 4));

describe('sight lines', () => {
  it('centre to centre plus the two outer lines', () => {
    const lines = sightLines(body(10, 20, circle(1)), body(30, 20, circle(0.5)));
    expect(lines).toHaveLength(3);
    expect(lines[0].from).toEqual({ x: 10, y: 20 });
    expect(lines[1].from.y).toBeCloseTo(21, 12);
    expect(lines[1].to.y).toBeCloseTo(20.5, 12);
    expect(lines[2].from.y).toBeCloseTo(19, 12);
  });
});

describe('line of sight against ruins', () => {
  it('a ruin between two models blocks sight', () => {
    const los = lineOfSight(body(10, 20), body(30, 20), board(ruin));
    expect(los.visible).toBe(false);
    expect(los.clearLines).toBe(0);
  });
  it('with nothing in between, models are fully visible', () => {
    expect(isFullyVisible(body(10, 10), body(30, 10), board(ruin))).toBe(true);
  });
  it('is not blocked when the target touches the ruin (seen through its edge)', () => {
    const target = body(22 + R32, 20); // touching the far side
    expect(isVisible(body(10, 20), target, board(ruin))).toBe(true);
    expect(isVisible(body(10, 20), body(22 + R32 + 0.01, 20), board(ruin))).toBe(false);
  });
  it('is not blocked when the observer stands in the ruin', () => {
    expect(isVisible(body(19, 20), body(30, 20), board(ruin))).toBe(true);
  });
  // 10th edition core rules: only a model wholly within a ruin sees out of it; one partly within, or touching
  // it from outside, does not see through it (they saw through the whole ruin), but still sees away from it
  it('an observer partly within the ruin, or touching it from outside, does not see through it', () => {
    expect(isVisible(body(18, 20), body(30, 20), board(ruin))).toBe(false); // centre on the ruin's edge
    expect(isVisible(body(18 - R32, 20), body(30, 20), board(ruin))).toBe(false); // touching it from outside
    expect(isVisible(body(18 + R32 - 0.01, 20), body(30, 20), board(ruin))).toBe(false); // all but a sliver within
    expect(isVisible(body(18 + R32 + 0.01, 20), body(30, 20), board(ruin))).toBe(true); // wholly within
  });
  it('an observer partly within the ruin sees away from it: its own spot does not block', () => {
    // the centre line from the observer at the ruin's edge crosses the footprint only under its own base
    expect(isFullyVisible(body(18, 20), body(5, 20), board(ruin))).toBe(true);
    // looking away at a slant: seen, though one outer line crosses the ruin's corner beside the observer's base
    const slant = lineOfSight(body(18.2, 19), body(5, 25), board(ruin));
    expect([slant.visible, slant.clearLines]).toEqual([true, 2]);
  });
  it('AIRCRAFT see and are seen through ruins; a TOWERING model within a ruin sees out of it', () => {
    const aircraft = { ...body(30, 20), aircraft: true as const };
    expect(isVisible(body(10, 20), aircraft, board(ruin))).toBe(true);
    expect(isVisible(aircraft, body(10, 20), board(ruin))).toBe(true);
    expect(coverReason(body(10, 20), [aircraft], board(ruin))).toBe(null);
    // TOWERING: within (not wholly) sees out; outside the ruin it sees no more than others, nor is it seen through it
    expect(isVisible({ ...body(18, 20), towering: true }, body(30, 20), board(ruin))).toBe(true);
    expect(coverReason(body(30, 20), [{ ...body(18, 20), towering: true }], board(ruin))).toBe(null);
    expect(isVisible({ ...body(10, 20), towering: true }, body(30, 20), board(ruin))).toBe(false);
    expect(isVisible(body(10, 20), { ...body(30, 20), towering: true }, board(ruin))).toBe(false);
  });
  it('a ruin covering only part of the view: visible but not fully visible', () => {
    // the ruin's top edge is at y = 18; a target 0.3" below the line y = 18 - ... seen past the corner
    const observer = body(10, 17.6);
    const target = body(30, 17.6);
    const los = lineOfSight(observer, target, board(ruin));
    expect(los.visible).toBe(true);
    expect(los.fullyVisible).toBe(false);
    expect(los.clearLines).toBe(2);
  });
  it('ruins block whatever the heights (no seeing over them)', () => {
    const low = piece('low', 'ruin', square(18, 18, 4, 4), 0.5);
    expect(isVisible(body(10, 20, circle(R32), 0, 10), body(30, 20, circle(R32), 0, 10), board(low))).toBe(false);
  });
});

describe('walls, impassable and area terrain', () => {
  const wall = piece('wall', 'wall', square(19.9, 10, 0.2, 20));
  it('walls always block, even for a model touching them', () => {
    expect(isVisible(body(10, 20), body(30, 20), board(wall))).toBe(false);
    expect(isVisible(body(19.9 - R32, 20), body(30, 20), board(wall))).toBe(false);
  });
  it('impassable terrain blocks only below its height', () => {
    const rock = piece('rock', 'impassable', square(18, 18, 4, 4), 2);
    expect(isVisible(body(10, 20, circle(R32), 0, 1.5), body(30, 20, circle(R32), 0, 1.5), board(rock))).toBe(false);
    expect(isVisible(body(10, 20, circle(R32), 0, 3), body(30, 20, circle(R32), 0, 3), board(rock))).toBe(true);
  });
  it('area terrain never blocks sight', () => {
    const woods = piece('woods', 'area', square(18, 18, 4, 4));
    expect(isFullyVisible(body(10, 20), body(30, 20), board(woods))).toBe(true);
  });
  it('a unit is visible if any of its models is', () => {
    const b = board(ruin);
    expect(unitVisible([body(10, 20)], [body(30, 20), body(30, 10)], b)).toBe(true);
    expect(unitVisible([body(10, 20)], [body(30, 20), body(30, 21)], b)).toBe(false);
  });
});

describe('isVisible (stops at the first clear line) agrees with lineOfSight', () => {
  it('over a grid of observers and targets among ruins, a wall and impassable rocks', () => {
    const b = board(
      ruin,
      piece('ruin2', 'ruin', square(30, 6, 6, 3)),
      piece('wall', 'wall', square(40, 20, 0.3, 10)),
      piece('rock', 'impassable', square(8, 30, 5, 5), 2),
      piece('woods', 'area', square(25, 30, 6, 6)),
    );
    const counts = { hidden: 0, centreBlockedOnly: 0, clear: 0 };
    for (let ox = 2; ox < 60; ox += 7) for (let oy = 3; oy < 44; oy += 6) for (let tx = 5; tx < 60; tx += 9) for (let ty = 1; ty < 44; ty += 5) {
      // a big disc (a unit's spread) against a small one, so outer lines reach past what hides the centre
      const o = body(ox, oy, circle(2.5));
      const t = body(tx, ty, circle(R32), 0, 2.5);
      const los = lineOfSight(o, t, b);
      expect(isVisible(o, t, b)).toBe(los.visible);
      if (!los.visible) counts.hidden++;
      // the centre line alone: the same models shrunk to points
      else if (!isVisible(body(ox, oy, circle(0)), body(tx, ty, circle(0), 0, 2.5), b)) counts.centreBlockedOnly++;
      else counts.clear++;
    }
    // every branch was exercised: hidden, seen only past a blocked centre line, and plainly seen
    expect(counts.hidden).toBeGreaterThan(100);
    expect(counts.centreBlockedOnly).toBeGreaterThan(100);
    expect(counts.clear).toBeGreaterThan(100);
  });
});

describe('Benefit of Cover', () => {
  it('a model wholly within a ruin has cover', () => {
    const b = board(ruin);
    expect(coverReason(body(20, 20), [body(19, 40)], b)).toBe('wholly-within-terrain');
  });
  it('a model wholly within area terrain has cover', () => {
    const woods = piece('woods', 'area', square(18, 18, 4, 4));
    expect(benefitOfCover(body(20, 20), [body(10, 10)], board(woods))).toBe(true);
  });
  it('a fully visible model in the open has no cover', () => {
    expect(benefitOfCover(body(30, 10), [body(10, 10)], board(ruin))).toBe(false);
  });
  it('a model partly hidden by a ruin has cover', () => {
    expect(coverReason(body(30, 17.6), [body(10, 17.6)], board(ruin))).toBe('not-fully-visible');
  });
  it('a model touching the far side of a ruin is visible, and has cover (it is behind the ruin)', () => {
    const target = body(22 + R32, 20);
    expect(isVisible(body(10, 20), target, board(ruin))).toBe(true);
    expect(coverReason(target, [body(10, 20)], board(ruin))).toBe('not-fully-visible');
  });
  it('a model behind a ruin has cover against an attacker partly within it; not against one wholly within', () => {
    expect(coverReason(body(30, 20), [body(18, 20)], board(ruin))).toBe('not-fully-visible');
    expect(coverReason(body(30, 20), [body(18 + R32 + 0.01, 20)], board(ruin))).toBe(null);
    // shooting away from the ruin, the attacker's own spot gives the target no cover
    expect(coverReason(body(5, 20), [body(18, 20)], board(ruin))).toBe(null);
  });
  it('a model behind area terrain has cover; not when the attacker stands in it', () => {
    const woods = piece('woods', 'area', square(18, 18, 4, 4));
    expect(benefitOfCover(body(30, 20), [body(10, 20)], board(woods))).toBe(true);
    expect(benefitOfCover(body(30, 20), [body(19, 20)], board(woods))).toBe(false);
  });
  it('against several attackers: cover unless fully visible to every one of them', () => {
    const b = board(ruin);
    expect(benefitOfCover(body(30, 17.6), [body(30, 5), body(10, 17.6)], b)).toBe(true);
    expect(benefitOfCover(body(30, 17.6), [body(30, 5), body(40, 17.6)], b)).toBe(false);
  });
});

describe('the bounding-box rejection of sight lines', () => {
  it('never rejects a line that crosses the footprint: the same answer as the exact test alone', () => {
    // rectangles, a rotated square and an L: lines at random, and lines along and through box edges
    const polys = [
      square(10, 10, 4, 6),
      [{ x: 30, y: 10 }, { x: 34, y: 14 }, { x: 30, y: 18 }, { x: 26, y: 14 }],
      [{ x: 40, y: 20 }, { x: 50, y: 20 }, { x: 50, y: 23 }, { x: 43, y: 23 }, { x: 43, y: 30 }, { x: 40, y: 30 }],
    ];
    const rnd = createStream('box-rejection');
    const pts = (): { x: number; y: number }[] => {
      const out = [];
      for (let i = 0; i < 1500; i++) out.push({ x: rnd.next() * 60, y: rnd.next() * 44 });
      // corners and edges of the boxes exactly
      for (const x of [10, 14, 26, 34, 40, 43, 50]) for (const y of [10, 14, 16, 18, 20, 23, 30]) out.push({ x, y });
      return out;
    };
    const a = pts(), b = pts();
    let crossing = 0, total = 0;
    for (const poly of polys) {
      const p = piece('p', 'wall', poly);
      for (let i = 0; i < a.length; i++) {
        const line = { from: a[i], to: b[(i * 7) % b.length], fromZ: 1, toZ: 1 };
        const exact = segmentCrossesPolygon(line.from, line.to, poly);
        expect(crossesFootprint(line, p), `${JSON.stringify(line)} against ${JSON.stringify(poly)}`).toBe(exact);
        total++;
        if (exact) crossing++;
      }
    }
    expect(crossing).toBeGreaterThan(100);
    expect(total - crossing).toBeGreaterThan(1000);
  });
});
