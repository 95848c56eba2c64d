/**
 * Kroot Lone-Spear's Fire and Fade: "In your Shooting phase, after this model has shot, if it is not within
 * Engagement Range of one or more enemy units, it can make a Normal move of up to 6". If it does, until the
 * end of the turn, this model is not eligible to declare a charge." The ability's name was taken by the Aeldari
 * FIRE AND FADE stratagem's effect (which forbids charging), so the Lone-Spear could never charge and never
 * made the move.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { forbids } from '../../src/core/rules-registry.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

describe('Kroot Lone-Spear: Fire and Fade', () => {
  it('before it has shot or moved, the Lone-Spear may declare a charge', () => {
    const g = battleSandbox([
      { id: 'LS', player: 0, faction: 'tau', name: 'Kroot Lone-Spear', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 5 } },
    ], { phase: 'charge', factions: ['TAU', 'AE'] });
    expect(forbids(g.state, g.state.units.LS, 'charge')).toBe(false);
  });

  it('after shooting in its Shooting phase: offered a Normal move of up to 6"; made, it may not charge this turn', () => {
    const asked: DecisionRequest[] = [];
    // the move's last option (none is the first): some destination
    const pick = (r: DecisionRequest) => { asked.push(r); return r.kind === 'lone-spear-fire-and-fade' ? r.options.length - 1 : 0; };
    const g = battleSandbox([
      { id: 'LS', player: 0, faction: 'tau', name: 'Kroot Lone-Spear', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { phase: 'shooting', factions: ['TAU', 'AE'], agents: [scriptedAgent('p0', pick), scriptedAgent('p1')] });
    const LS = g.state.units.LS;
    const from = { ...LS.models[0].pos! };
    shootWithUnit(g, LS);
    const offers = asked.filter((r) => r.kind === 'lone-spear-fire-and-fade');
    expect(offers).toHaveLength(1);
    expect(offers[0].options[0]).toEqual({ none: true });
    const to = g.state.units.LS.models[0].pos!;
    const moved = Math.hypot(to.x - from.x, to.y - from.y);
    expect(moved).toBeGreaterThan(0.5);
    expect(moved).toBeLessThanOrEqual(6 + 1e-6);
    expect(forbids(g.state, g.state.units.LS, 'charge')).toBe(true);
  });
});
