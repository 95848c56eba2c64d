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
import { unitDistance } from '../../src/rules/battle/world.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

type DeckOption = { done: true } | { model: string; unit: string; weapon: string };

/**
 * A Starweaver at (20, 20) carrying one Lead Player with `weapons` (offered in that order), and an enemy
 * unit: the weapons the heuristic lends, slot by slot.
 */
function lent(enemy: { name: string; at: { x: number; y: number } }, weapons: string[]) {
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
    // (another Troupe, far away, brings the datasheet into the game)
    { id: 'T2', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
  ], { factions: ['AE', 'TAU'], phase: 'shooting', agents: [agent, scriptedAgent('tau')] });
  const troupe = loadFactionCatalog('aeldari').byName('Troupe')!;
  g.emit({ type: 'unit-created', unit: createUnitState({ id: 'TR', player: 0, datasheet: troupe, models: [{ profile: 'Lead Player', count: 1, weapons }] }) });
  g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
  const gap = unitDistance(g.state, g.state.units.SW, g.state.units.E);
  shootWithUnit(g, g.state.units.SW);
  return { picks, firstOffered, gap };
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
});
