import { describe, expect, it } from 'vitest';
import { battleSandbox, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { Game } from '../../src/core/game.ts';
import { isEngaged, unitSees } from '../../src/rules/battle/world.ts';
import { playerRules } from '../../src/rules/factions.ts';

/**
 * Starfire Cadre (Markerlight Precision): a Cadre Fireblade (not MARKERLIGHT) and Kroot Carnivores
 * (KROOT) shoot at Guardian Defenders; a Strike Team (MARKERLIGHT) is the only spotter.
 */
function cadre(opts: { detachment?: string | null; strikeTeamAt?: { x: number; y: number }; extra?: PlacedUnit[]; wall?: boolean } = {}): Game {
  return battleSandbox([
    { id: 'CF', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 4 } },
    { id: 'K', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 8, y: 4 }, spacing: 1.3 },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: opts.strikeTeamAt ?? { x: 14, y: 12 }, spacing: 1.2 },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 4 }, spacing: 1.3 },
    ...(opts.extra ?? []),
  ], {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'shooting',
    detachments: [opts.detachment === undefined ? 'Starfire Cadre' : opts.detachment, null],
    // a wall hiding the Strike Team's corner of the deck from the Guardian Defenders
    terrain: opts.wall ? [{ id: 'w', kind: 'wall', polygon: [{ x: 18, y: 6 }, { x: 20, y: 6 }, { x: 20, y: 30 }, { x: 18, y: 30 }], height: 5 }] : [],
  });
}

const BS = { fireblade: 0, kroot: 0 };

describe('Starfire Cadre: Markerlight Precision', () => {
  it('is the detachment rule of Starfire Cadre', () => {
    expect(playerRules('TAU', 'Starfire Cadre')).toContain('Markerlight Precision');
  });

  it('on: against a unit a friendly MARKERLIGHT unit sees, ranged weapons get BS +1 and SUSTAINED HITS 1', () => {
    const none = cadre({ detachment: null });
    BS.fireblade = planFor(none, 'CF', 'GD', 'Fireblade pulse rifle').skill;
    const g = cadre();
    expect(unitSees(g.state, g.state.units.ST, g.state.units.GD)).toBe(true);
    const p = planFor(g, 'CF', 'GD', 'Fireblade pulse rifle');
    expect(p.skill).toBe(BS.fireblade - 1);
    expect(p.sustainedHits).toBe(1);
    // a characteristic change, not a Hit roll modifier
    expect(p.hitModifier).toBe(0);
    // the MARKERLIGHT unit's own attacks too
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').sustainedHits).toBe(1);
  });

  it('not for melee attacks', () => {
    const g = cadre();
    expect(planFor(g, 'CF', 'GD', 'Close combat weapon').sustainedHits).toBe(0);
  });

  it('off: the only MARKERLIGHT unit is within Engagement Range of an enemy unit', () => {
    const g = cadre({ extra: [{ id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', at: { x: 15.1, y: 12 }, spacing: 1.2 }] });
    expect(isEngaged(g.state, g.state.units.ST)).toBe(true);
    const p = planFor(g, 'CF', 'GD', 'Fireblade pulse rifle');
    expect(p.skill).toBe(BS.fireblade);
    expect(p.sustainedHits).toBe(0);
  });

  it('off: no MARKERLIGHT unit sees the target (a wall between them), even though the shooter does', () => {
    const g = cadre({ wall: true, strikeTeamAt: { x: 14, y: 16 } });
    expect(unitSees(g.state, g.state.units.ST, g.state.units.GD)).toBe(false);
    expect(unitSees(g.state, g.state.units.CF, g.state.units.GD)).toBe(true);
    const p = planFor(g, 'CF', 'GD', 'Fireblade pulse rifle');
    expect(p.skill).toBe(BS.fireblade);
    expect(p.sustainedHits).toBe(0);
  });

  it('KROOT units are excluded', () => {
    BS.kroot = planFor(cadre({ detachment: null }), 'K', 'GD', 'Kroot rifle').skill;
    const p = planFor(cadre(), 'K', 'GD', 'Kroot rifle');
    expect(p.skill).toBe(BS.kroot);
    expect(p.sustainedHits).toBe(0);
  });

  it('not under another detachment (Kauyon) nor without one', () => {
    for (const detachment of ['Kauyon', null]) {
      const p = planFor(cadre({ detachment }), 'CF', 'GD', 'Fireblade pulse rifle');
      expect(p.skill).toBe(BS.fireblade);
      expect(p.sustainedHits).toBe(0);
    }
  });
});
