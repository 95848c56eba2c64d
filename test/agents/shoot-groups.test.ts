/**
 * The heuristic prices each weapon group's target request with that group's own models, as the engine names
 * them in the request: a Leader's weapon that shares its Bodyguard's name (another Range), and a Firing
 * Deck's passengers' weapons, fired from the transport. Priced by weapon name, the first was measured with the
 * Bodyguard models and the second found no weapon at all: every option scored nothing and the first was taken.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDER_AND_FIREKNIVES, attachCommanderToFireknives, battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { createHeuristic, lastOptionScores } from '../../agents/heuristic.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { shootWithUnit, type TargetOption } from '../../src/rules/battle/shooting.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { createUnitState } from '../../src/rules/muster.ts';
import type { GameState, ModelState, UnitState } from '../../src/core/state.ts';

/** The heuristic, with each target request it answers, its scores and its pick. */
function watchedHeuristic() {
  const h = createHeuristic();
  const seen: { req: DecisionRequest; options: TargetOption[]; scores: number[]; pick: number }[] = [];
  const agent: Agent = {
    name: 'heuristic',
    decide(view, req: DecisionRequest) {
      const d = h.decide(view, req);
      if (req.kind === 'shoot-target') seen.push({ req, options: req.options as TargetOption[], scores: lastOptionScores(), pick: d.option });
      return d;
    },
  };
  return { agent, seen };
}

const nearest = (s: GameState, m: ModelState, t: UnitState) => Math.min(...t.models.map((x) => horizontalDistance(modelBody(s, m), modelBody(s, x))));

describe('the heuristic prices the weapon group a target request is for', () => {
  it("an Attached Commander's 24\" Plasma rifle, beside its Fireknives' 18\" ones, is priced with the Commander's model", () => {
    const { agent, seen } = watchedHeuristic();
    // a Wave Serpent first in the unit order (a tough target), Guardian Defenders second; both
    // within the Commander's 24" and beyond every Fireknife's 18"
    const g = battleSandbox([
      ...COMMANDER_AND_FIREKNIVES,
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 38, y: 14 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 38, y: 6 } },
    ], { phase: 'shooting', agents: [agent, scriptedAgent('ae')] });
    const { commander, fireknives } = attachCommanderToFireknives(g);
    const s = g.state;
    const fk = s.units.FK;
    for (const t of [s.units.WS, s.units.GD]) {
      expect(nearest(s, commander, t)).toBeLessThan(24);
      for (const m of fireknives) expect(nearest(s, m, t)).toBeGreaterThan(18);
    }
    shootWithUnit(g, fk);
    const rifle = seen.find((x) => x.options[0].weapon === 'Plasma rifle')!;
    // the request names the Commander's model alone
    expect(rifle.req.context?.models).toEqual([commander.id]);
    expect(rifle.options.map((o) => o.target)).toEqual(['WS', 'GD']);
    // both targets are worth something to the Commander's shot (with the Fireknives' models neither was: out
    // of their 18"), and the Guardians, which it wounds on 2+ through no save, most
    expect(Math.min(...rifle.scores)).toBeGreaterThan(0);
    expect(rifle.options[rifle.pick].target).toBe('GD');
  });

  it("a Firing Deck's lent Shuriken pistols are priced from the transport, not found wanting by name", () => {
    const { agent, seen } = watchedHeuristic();
    // a Wave Serpent (T9, Sv3+) first in the unit order, a Strike Team (T3, Sv4+) second, both in 12" of the Starweaver
    const g = battleSandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Starweaver', at: { x: 20, y: 20 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 28, y: 30 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 28, y: 12 } },
      { id: 'T2', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 2, y: 2 } },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', agents: [agent, scriptedAgent('tau')] });
    const troupe = loadFactionCatalog('aeldari').byName('Troupe')!;
    g.emit({ type: 'unit-created', unit: createUnitState({ id: 'TR', player: 0, datasheet: troupe, models: [
      { profile: 'Lead Player', count: 1, weapons: ['Shuriken pistol'] },
      { profile: 'Players', count: 5, weapons: ['Shuriken pistol'] },
    ] }) });
    g.emit({ type: 'unit-location', unit: 'TR', location: 'embarked', embarkedIn: 'SW' });
    shootWithUnit(g, g.state.units.SW);
    const pistols = seen.find((x) => x.options[0].weapon === 'Shuriken pistol')!;
    // the passengers' models, none of them the Starweaver's
    expect(pistols.req.context?.models).toEqual(g.state.units.TR.models.map((m) => m.id));
    const order = pistols.options.map((o) => o.target);
    expect(order.indexOf('WS')).toBeLessThan(order.indexOf('ST'));
    expect(Math.min(...pistols.scores)).toBeGreaterThan(0);
    expect(pistols.options[pistols.pick].target).toBe('ST');
  });
});
