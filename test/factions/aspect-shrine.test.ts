/**
 * Aspect Shrine tokens (src/factions/aeldari/aspect-shrine.ts): a Hit or Wound roll of a model that is not a
 * CHARACTER changed to an unmodified 6, once per token; a token removed for TO THEIR FINAL BREATH (+1 to the
 * D6) or PRETERNATURAL PRECISION (a second ability); at most one token for every five models at muster.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName } from '../../src/core/state.ts';
import { afterRoll } from '../../src/rules/roll-window.ts';
import { fightOnDeathModifier } from '../../src/rules/battle/fight-on-death.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { openWindow } from '../../src/rules/windows.ts';
import { shrineTokens } from '../../src/factions/aeldari/aspect-shrine.ts';
import { loadArmyFile, type ArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';

const TOKEN = ['Aspect Shrine Token'];
// the Exarch carries the unit's one token (five models); the second unit carries none
const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 20 }, wargear: [TOKEN] };
const DX: PlacedUnit = { id: 'DX', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 5, y: 30 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 20 }, spacing: 0.9 };
const KC: PlacedUnit = { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 6.1, y: 20 }, spacing: 0.9 };

function sandbox(units: PlacedUnit[], pick: (r: DecisionRequest) => number, phase: PhaseName = 'shooting', asked: DecisionRequest[] = []): Game {
  return battleSandbox(units, {
    phase, turn: 0, cp: [3, 3], detachments: ['Aspect Host', null], factions: ['AE', 'TAU'],
    agents: [scriptedAgent('ae', (r) => { asked.push(r); return pick(r); }), scriptedAgent('tau')],
  });
}

/** A Hit roll of the Dire Avengers' models `models`: the values after the roll window. */
function hitRoll(g: Game, unit: string, models: string[], values: number[]): readonly number[] {
  return afterRoll(g, { purpose: 'hit', player: 0, unit, sides: 6, values, rerolled: [], test: { needed: 3, modifier: 0, criticalOn: 6 }, models });
}
const answer = (kind: string, choice: number) => (r: DecisionRequest) => (r.kind === kind ? choice : 0);
const exarch = (g: Game, unit = 'DA') => g.state.units[unit].models[0].id;

describe('Aspect Shrine token', () => {
  it('changes one failed Hit roll to an unmodified 6, once per battle for its one token; a unit without one is never asked', () => {
    const asked: DecisionRequest[] = [];
    // option 1: the lowest die (1)
    const g = sandbox([DA, DX, ST], answer('aspect-shrine-token', 1), 'shooting', asked);
    expect(shrineTokens(g.state, g.state.units.DA)?.left).toBe(1);
    expect(hitRoll(g, 'DA', [exarch(g)], [1, 2, 5])).toEqual([6, 2, 5]);
    expect(g.log!.at(-1)).toMatchObject({ type: 'dice-substituted', source: 'Aspect Shrine Token', old: 1, value: 6 });
    expect(shrineTokens(g.state, g.state.units.DA)).toBeNull();
    // spent: the next roll is left alone and nothing is asked
    const before = asked.filter((r) => r.kind === 'aspect-shrine-token').length;
    expect(hitRoll(g, 'DA', [exarch(g)], [1, 2])).toEqual([1, 2]);
    expect(hitRoll(g, 'DX', [exarch(g, 'DX')], [1, 2])).toEqual([1, 2]);
    expect(asked.filter((r) => r.kind === 'aspect-shrine-token').length).toBe(before);
    expect(before).toBe(1);
    // the first option keeps the roll (and the token)
    const h = sandbox([DA, ST], () => 0);
    expect(hitRoll(h, 'DA', [exarch(h)], [1, 2])).toEqual([1, 2]);
    expect(shrineTokens(h.state, h.state.units.DA)?.left).toBe(1);
  });

  it('not for a roll made for CHARACTER models only (a Leader leading the unit)', () => {
    const AU: PlacedUnit = { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 3, y: 20 } };
    const g = sandbox([DA, AU, ST], answer('aspect-shrine-token', 1));
    g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: 'DA' });
    const autarch = g.state.units.DA.models.find((m) => m.origin === 'AU')!.id;
    expect(hitRoll(g, 'DA', [autarch], [1, 2])).toEqual([1, 2]);
    expect(hitRoll(g, 'DA', [autarch, exarch(g)], [1, 2])).toEqual([6, 2]);
  });

  it('the heuristic changes a failed die only', async () => {
    const { createHeuristic } = await import('../../agents/heuristic.ts');
    const agent = createHeuristic();
    const g = sandbox([DA, ST], () => 0);
    const req = (values: number[], needed: number): DecisionRequest => ({
      kind: 'aspect-shrine-token', player: 0, prompt: '', options: [{ none: true }, ...[...new Set(values.filter((v) => v < 6))].sort().map((v) => ({ die: v }))],
      context: { unit: 'DA', purpose: 'hit', values, needed, left: 1 },
    });
    expect(agent.decide({ state: g.state, player: 0 }, req([3, 4, 5], 3)).option).toBe(0);
    expect(agent.decide({ state: g.state, player: 0 }, req([2, 4], 3)).option).toBe(1);
  });

  it('TO THEIR FINAL BREATH: a token removed adds 1 to the D6 to fight on death; kept, nothing', () => {
    for (const [remove, bonus, left] of [[1, 1, null], [0, 0, 1]] as const) {
      const g = sandbox([DA, KC], (r) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'TO THEIR FINAL BREATH')) : r.kind === 'remove-aspect-shrine-token' ? remove : 0), 'fight');
      openWindow(g, { name: 'fight/after-enemy-targets', unit: 'KC', targets: ['DA'] });
      expect(g.log!.some((e) => e.type === 'stratagem-used' && e.name === 'TO THEIR FINAL BREATH')).toBe(true);
      expect(fightOnDeathModifier(g, g.state.units.DA)).toBe(bonus);
      expect(shrineTokens(g.state, g.state.units.DA)?.left ?? null).toBe(left);
    }
  });

  it('PRETERNATURAL PRECISION: a token removed gives a second ability, one of the two left', () => {
    const g = sandbox([DA, ST], (r) => {
      if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'PRETERNATURAL PRECISION'));
      if (r.kind === 'remove-aspect-shrine-token') return 1;
      // LETHAL HITS first; then, of IGNORES COVER and SUSTAINED HITS 1, the second
      if (r.kind === 'preternatural-precision') return (r.options as string[]).indexOf(r.options.length === 3 ? 'LETHAL HITS' : 'SUSTAINED HITS 1');
      return 0;
    });
    shootWithUnit(g, g.state.units.DA);
    const p = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult');
    expect([p.lethalHits, p.sustainedHits, p.ignoresCover]).toEqual([true, 1, false]);
    expect(shrineTokens(g.state, g.state.units.DA)).toBeNull();
  });

  it('at muster, at most one token for every five models', () => {
    const ae = loadFactionCatalog('AE');
    const army = loadArmyFile(join(import.meta.dirname, '..', '..', 'scenarios', 'armies', 'aeldari-battle-host.json'));
    const ds = ae.byName('Dire Avengers')!;
    const unit = (counts: [number, number], tokens: [boolean, boolean]): ArmyFile => {
      const u: ArmyUnit = {
        id: 'da', datasheetId: ds.id, name: ds.name, points: 0,
        models: ds.composition.map((c, i) => ({ profile: c.profile, count: counts[i], weapons: ['Avenger shuriken catapult'], ...(tokens[i] ? { wargear: TOKEN } : {}) })),
      };
      return { ...army, units: [...army.units, u] };
    };
    const warnings = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id)).filter((w) => w.includes('Aspect Shrine Token'));
    expect(warnings(unit([1, 4], [true, false]))).toEqual([]);
    expect(warnings(unit([1, 4], [true, true]))).toEqual(['Dire Avengers (da): 5 models carry Aspect Shrine Token, at most 1 for 5 models (one for every 5)']);
    expect(warnings(unit([1, 9], [true, false]))).toEqual([]);
  });
});
