/**
 * VOID GHOSTS ("Your opponent's Shooting phase or the Fight phase, just after an enemy unit has selected its
 * targets") and GUARDIAN CONSTRUCTS ("Fight phase, just after an enemy unit has selected its targets") are offered
 * when the enemy unit selects its targets for a shooting made in the Fight phase (FIRING LINE), as in melee.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { usableStratagems } from '../../src/rules/windows.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { createStream } from '../../src/core/rng.ts';

const WALL = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];
const HATCH = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };
function using(name: string | null, seen?: string[][]): Agent {
  return scriptedAgent(`uses ${name}`, (r: DecisionRequest) => {
    if (r.kind !== 'stratagem') return 0;
    seen?.push((r.options as { stratagem?: string }[]).flatMap((o) => (o.stratagem ? [o.stratagem] : [])));
    return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name));
  });
}
function ship(units: PlacedUnit[], aeDetachment: string, ae: Agent, turn: 0 | 1): Game {
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALL, hatchways: [HATCH], phase: 'fight', turn,
    round: 2, cp: [3, 3], detachments: ['Starfire Cadre', aeDetachment], factions: ['TAU', 'AE'],
    agents: [using('FIRING LINE'), ae], stream: createStream('firing-line'),
  });
}

describe('enemy targets selected for a shooting in the Fight phase', () => {
  it("VOID GHOSTS: offered to the Aeldari when FIRING LINE's shooting selects their unit in the Fight phase of their own turn", () => {
    const seen: string[][] = [];
    const g = ship([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 8 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 18 }, spacing: 1 },
      { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 4], at: { x: 11.6, y: 8 }, spacing: 0.9 },
    ], 'Star-dancer Masque', using('VOID GHOSTS', seen), 1);
    const f = g.state.units.F.models[0];
    g.emit({ type: 'model-damaged', unit: 'F', model: f.id, wounds: f.wounds - 1, by: null, mortal: false });
    fight(g, g.state.units.HB);
    const used = (g.log ?? []).filter((e) => e.type === 'stratagem-used').map((e) => (e as { name: string }).name);
    expect(used).toContain('FIRING LINE');
    // the Fight phase, just after an enemy unit (ST) has selected its targets (HB): VOID GHOSTS should be there
    expect(seen.flat()).toContain('VOID GHOSTS');
  });

  it('VOID GHOSTS (window): the same shooting window in the Fight phase, Aeldari turn vs T\'au turn', () => {
    const units: PlacedUnit[] = [
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 18 }, spacing: 1 },
      { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 4], at: { x: 11.6, y: 8 }, spacing: 0.9 },
    ];
    const w = { name: 'shooting/after-enemy-targets' as const, unit: 'ST', targets: ['HB'] };
    const names = (g: Game) => usableStratagems(g, w, 1).map((x) => x.s.name);
    expect(names(ship(units, 'Star-dancer Masque', using(null), 0))).toContain('VOID GHOSTS');
    expect(names(ship(units, 'Star-dancer Masque', using(null), 1))).toContain('VOID GHOSTS');
  });

  it('GUARDIAN CONSTRUCTS: offered when an enemy unit selects a WRAITH CONSTRUCT unit as the target of a shooting in the Fight phase', () => {
    const units: PlacedUnit[] = [
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 26, y: 14.5 }, spacing: 1 },
      { id: 'WG', player: 1, faction: 'aeldari', name: 'Wraithguard', at: { x: 16, y: 14.5 }, spacing: 1.5 },
    ];
    const w = { name: 'shooting/after-enemy-targets' as const, unit: 'ST', targets: ['WG'] };
    expect(usableStratagems(ship(units, 'Wraiths of the Void', using(null), 0), w, 1).map((x) => x.s.name)).toContain('GUARDIAN CONSTRUCTS');
  });
});
