import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { rolls } from '../helpers/attack.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { canShoot, shootWithUnit, type TargetOption } from '../../src/rules/battle/shooting.ts';
import { boardOf, modelBody } from '../../src/rules/battle/world.ts';
import { isVisible } from '../../src/geometry/visibility.ts';
import { buildAttackPlan } from '../../src/rules/attack-context.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';

// A ruin between the Fire Prism P and the Strike Team: P cannot see it; Q, below, sees both.
const RUIN = { id: 'r', kind: 'ruin' as const, polygon: [{ x: 24, y: 14 }, { x: 27, y: 14 }, { x: 27, y: 34 }, { x: 24, y: 34 }], height: 5 };

/** Fire Prism P behind the ruin, a Strike Team of 5 at 30" beyond it; Q (when given) where it sees both. */
function sandbox(opts: { q?: { x: number; y: number }; dice?: number[]; pick?: (req: DecisionRequest) => number; terrain?: typeof RUIN[] } = {}) {
  const offered: TargetOption[][] = [];
  const agent = scriptedAgent('p2', (req) => {
    if (req.kind === 'shoot-target') offered.push(req.options as TargetOption[]);
    return opts.pick?.(req) ?? 0;
  });
  const g = battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 18 }, spacing: 1.5 },
    { id: 'P', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 40, y: 20 } },
    ...(opts.q ? [{ id: 'Q', player: 1 as const, faction: 'aeldari' as const, name: 'Fire Prism', at: opts.q }] : []),
  ], { phase: 'shooting', turn: 1, terrain: opts.terrain ?? [RUIN], agents: [scriptedAgent('p1'), agent], stream: scriptedStream(opts.dice ?? []) });
  return { g, offered };
}

describe('LINKED FIRE (Fire Prism: focused lances)', () => {
  it('set-up: the ruin hides the Strike Team from P, and Q sees both', () => {
    const { g } = sandbox({ q: { x: 40, y: 40 } });
    const board = boardOf(g.state);
    const p = modelBody(g.state, g.state.units.P.models[0]);
    const q = modelBody(g.state, g.state.units.Q.models[0]);
    const st = g.state.units.ST.models.map((m) => modelBody(g.state, m));
    expect(st.some((b) => isVisible(p, b, board))).toBe(false);
    expect(st.some((b) => isVisible(q, b, board))).toBe(true);
    expect(isVisible(p, q, board)).toBe(true);
  });

  it('a Fire Prism that sees no target cannot shoot alone, but can through another FIRE PRISM it sees', () => {
    const alone = sandbox().g;
    expect(canShoot(alone, alone.state.units.P)).toBe(false);
    const { g } = sandbox({ q: { x: 40, y: 40 } });
    expect(canShoot(g, g.state.units.P)).toBe(true);
  });

  it('the linked shot is offered for the LINKED FIRE profile only, marked linked, and makes 1 attack', () => {
    // P's lances: 1 Hit roll (6), its Wound roll (6), the Fire Warrior's save (1): one model destroyed
    const { g, offered } = sandbox({ q: { x: 40, y: 40 }, dice: [6, 6, 1] });
    shootWithUnit(g, g.state.units.P);
    const ds = g.state.datasheets[g.state.units.P.datasheet];
    const cannon = ds.weapons.find((w) => w.name === 'Prism cannon')!;
    const lances = cannon.profiles.findIndex((p) => p.name.includes('focused lances'));
    expect(offered[0]).toEqual([{ weapon: 'Prism cannon', profile: lances, target: 'ST', models: 1, linked: 1 }]);
    expect(cannon.profiles[lances].attacks).toEqual({ n: 0, sides: 0, plus: 2 });
    expect(rolls(g, 'hit')).toEqual([[6]]);
    expect(g.state.units.ST.models.filter((m) => m.alive)).toHaveLength(g.state.units.ST.models.length - 1);
  });

  it('a Fire Prism that sees the target itself makes its 2 attacks, with no link', () => {
    const lancesOf = (req: DecisionRequest) => (req.options as TargetOption[]).findIndex((o) => o.weapon === 'Prism cannon' && o.profile === 1);
    const { g, offered } = sandbox({ q: { x: 40, y: 40 }, terrain: [], dice: [6, 6, 6, 6, 1, 1], pick: (req) => (req.kind === 'shoot-target' ? lancesOf(req) : 0) });
    const lances = g.state.datasheets[g.state.units.P.datasheet].weapons.find((w) => w.name === 'Prism cannon')!.profiles[1];
    expect(lances.name).toContain('focused lances');
    // (the twin shuriken catapult is out of range at 30": only the cannon shoots)
    shootWithUnit(g, g.state.units.P);
    expect(offered[0].find((o) => o.profile === 1)).toEqual({ weapon: 'Prism cannon', profile: 1, target: 'ST', models: 1 });
    expect(rolls(g, 'hit')).toEqual([[6, 6]]);
  });

  it('no link through a FIRE PRISM the bearer does not see', () => {
    // a second ruin between P and Q, wider than their hulls
    const wall = { id: 'w', kind: 'ruin' as const, polygon: [{ x: 34, y: 29 }, { x: 46, y: 29 }, { x: 46, y: 31 }, { x: 34, y: 31 }], height: 5 };
    const { g } = sandbox({ q: { x: 40, y: 40 }, terrain: [RUIN, wall] });
    expect(isVisible(modelBody(g.state, g.state.units.P.models[0]), modelBody(g.state, g.state.units.Q.models[0]), boardOf(g.state))).toBe(false);
    expect(canShoot(g, g.state.units.P)).toBe(false);
  });

  it('the Attack plan: Attacks 1 when the group aimed through the link, the profile\'s otherwise', () => {
    const { g } = sandbox({ q: { x: 40, y: 40 } });
    const ds = loadFactionCatalog('aeldari').byName('Fire Prism')!;
    const weapon = ds.weapons.find((w) => w.name === 'Prism cannon')!;
    const profile = weapon.profiles.find((p) => p.name.includes('focused lances'))!;
    const ctx = {
      state: g.state, attacker: g.state.units.P, attackers: g.state.units.P.models, target: g.state.units.ST, weapon, profile,
      melee: false, halfRange: false, targetModels: 5, targetVisible: true, targetInCover: false, distance: 30,
    };
    expect(buildAttackPlan(ctx).attacks).toEqual({ n: 0, sides: 0, plus: 2 });
    expect(buildAttackPlan({ ...ctx, linkedFire: true }).attacks).toEqual({ n: 0, sides: 0, plus: 1 });
  });
});
