/**
 * The heuristic's Firing Deck choice: the weapon lent is the one worth most fired from the transport at a
 * target in range, not the first offered.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { createUnitState } from '../../src/rules/muster.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { isEngaged, unitDistance, unitSees } from '../../src/rules/battle/world.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

type Terrain = NonNullable<Parameters<typeof battleSandbox>[1]>['terrain'] extends (infer T)[] | undefined ? T : never;
type DeckOption = { done: true } | { model: string; unit: string; weapon: string };

/**
 * A Starweaver at (20, 20) carrying one Lead Player with `weapons` (offered in that order), and an enemy
 * unit: the weapons the heuristic lends, slot by slot.
 */
function lent(enemy: { name: string; at: { x: number; y: number } }, weapons: string[], more: { other?: { name: string; at: { x: number; y: number } }; terrain?: Terrain[]; tie?: { name: string; at: { x: number; y: number } } } = {}) {
  const h = createHeuristic();
  const picks: string[] = [];
  const firstOffered: string[] = [];
  const agent: Agent = {
    name: 'heuristic',
    decide(view, req: DecisionRequest) {
      const d = h.decide(view, req);
      if (req.kind === 'firing-deck') {
        const options = req.options as DeckOption[];
        if (firstOffered.length === 0) firstOffered.push(...options.map((o) => ('done' in o ? 'done' : o.weapon)));
        const o = options[d.option];
        picks.push('done' in o ? 'done' : o.weapon);
      }
      return d;
    },
  };
  const g = battleSandbox([
    { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
    { id: 'E', player: 1, faction: 'tau', name: enemy.name, counts: [1, 0], at: enemy.at },
    ...(more.other ? [{ id: 'E2', player: 1 as const, faction: 'tau' as const, name: more.other.name, counts: [1, 0], at: more.other.at }] : []),
    // (another Troupe, far away, brings the datasheet into the game)
    { id: 'T2', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
    // a friendly unit in combat with the enemy unit
    ...(more.tie ? [{ id: 'TIE', player: 0 as const, faction: 'aeldari' as const, name: more.tie.name, counts: [1, 0], at: more.tie.at }] : []),
  ], { factions: ['AE', 'TAU'], phase: 'shooting', agents: [agent, scriptedAgent('tau')], terrain: more.terrain ?? [] });
  const troupe = loadFactionCatalog('aeldari').byName('Troupe')!;
  g.emit({ type: 'unit-created', unit: createUnitState({ id: 'TR', player: 0, datasheet: troupe, models: [{ profile: 'Lead Player', count: 1, weapons }] }) });
  g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
  const gap = unitDistance(g.state, g.state.units.SW, g.state.units.E);
  const seen = unitSees(g.state, g.state.units.SW, g.state.units.E);
  const other = g.state.units.E2;
  const otherGap = other ? unitDistance(g.state, g.state.units.SW, other) : null;
  const otherSeen = other ? unitSees(g.state, g.state.units.SW, other) : null;
  const engaged = isEngaged(g.state, g.state.units.E);
  shootWithUnit(g, g.state.units.SW);
  return { picks, firstOffered, gap, seen, otherGap, otherSeen, engaged };
}

describe('the heuristic lends through a Firing Deck the weapon worth most', () => {
  it('an enemy 6-12" away: the Shuriken pistol, which reaches it, not the Fusion pistol offered first', () => {
    const t = lent({ name: 'Strike Team', at: { x: 32, y: 20 } }, ['Fusion pistol', 'Shuriken pistol']);
    expect(t.gap).toBeGreaterThan(6);
    expect(t.gap).toBeLessThan(12);
    expect(t.firstOffered).toEqual(['done', 'Fusion pistol', 'Shuriken pistol']);
    // one model: one slot (it lends one weapon)
    expect(t.picks).toEqual(['Shuriken pistol']);
  });

  it('an enemy vehicle within 6": the Fusion pistol (melta against armour), offered after the Shuriken pistol', () => {
    const t = lent({ name: 'Devilfish', at: { x: 26, y: 20 } }, ['Shuriken pistol', 'Fusion pistol']);
    expect(t.gap).toBeGreaterThan(1);
    expect(t.gap).toBeLessThan(6);
    expect(t.firstOffered).toEqual(['done', 'Shuriken pistol', 'Fusion pistol']);
    expect(t.picks).toEqual(['Fusion pistol']);
  });

  it('an enemy vehicle within 6" but out of sight behind a ruin is not priced: the Shuriken pistol, for another vehicle in sight 6-12" away', () => {
    const ruin = { id: 'r', kind: 'ruin' as const, polygon: [{ x: 23, y: 14 }, { x: 26, y: 14 }, { x: 26, y: 26 }, { x: 23, y: 26 }], height: 5 };
    const t = lent({ name: 'Devilfish', at: { x: 28, y: 20 } }, ['Shuriken pistol', 'Fusion pistol'], { other: { name: 'Devilfish', at: { x: 20, y: 33 } }, terrain: [ruin] });
    expect(t.gap).toBeLessThan(6);
    expect(t.seen).toBe(false);
    // the other Devilfish: in sight, out of the Fusion pistol's 6", in the Shuriken pistol's 12"
    expect(t.otherGap).toBeGreaterThan(6);
    expect(t.otherGap).toBeLessThan(12);
    expect(t.otherSeen).toBe(true);
    expect(t.picks).toEqual(['Shuriken pistol']);
  });

  it('an enemy vehicle in combat with a friendly unit is still a target (Big Guns Never Tire): the Fusion pistol, offered second', () => {
    const t = lent({ name: 'Devilfish', at: { x: 26, y: 20 } }, ['Shuriken pistol', 'Fusion pistol'], { tie: { name: 'Dire Avengers', at: { x: 26, y: 22.2 } } });
    expect(t.engaged).toBe(true);
    expect(t.gap).toBeLessThan(6);
    expect(t.firstOffered).toEqual(['done', 'Shuriken pistol', 'Fusion pistol']);
    expect(t.picks).toEqual(['Fusion pistol']);
  });
});
