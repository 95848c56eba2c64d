/**
 * The potentials' cache (what a unit's weapons can do to a target from anywhere) is shared by a game and the
 * copies of it agents look ahead in. A copy's effects take the ids the real game's next effects will take,
 * for other rules: the cache keys an effect by its kind and parameters too, so a copy's value is never read
 * back for the real game.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { cloneState } from '../../src/core/clone.ts';
import { apply as applyEvent } from '../../src/core/reducer.ts';
import { unitAttackPotential, weaponEstimate, weaponUses } from '../../src/ai/evaluate.ts';
import { BATTLEFIELD_COMMAND } from '../../src/rules/lent-leaders.ts';
import '../../src/factions/tau/detachments.ts';
import type { Effect, GameState } from '../../src/core/state.ts';

/** The Strike Team's guns on the Guardians from anywhere, counted afresh by the calculator (no cache). */
const fresh = (s: GameState) => weaponUses(s, s.units.S, false).filter((u) => u.beyond === undefined)
  .reduce((v, u) => v + weaponEstimate(s, s.units.S, u, s.units.G, { anywhere: true }).value, 0);

describe('the potentials cache and copies of the game', () => {
  it("a copy's lent Volley Fire, under the id the real game then gives another lent ability, is not read back", () => {
    const g = battleSandbox([
      { id: 'L', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 10 } },
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 6 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 6 } },
    ], { phase: 'shooting' });
    const s = g.state;
    const lend = (ability: string): Effect => ({
      id: s.nextEffectId, kind: BATTLEFIELD_COMMAND, player: 0, unit: 'S', params: { leader: 'L', ability }, expires: { at: 'start-of-command', player: 0, afterRound: s.round },
    });
    const before = unitAttackPotential(s, s.units.S, s.units.G, false);
    expect(before).toBeCloseTo(fresh(s), 9);
    // the copy: Volley Fire lent (+1 Attack), its value cached
    const h = cloneState(s);
    applyEvent(h, { type: 'effect-added', effect: lend('Volley Fire') });
    const lent = unitAttackPotential(h, h.units.S, h.units.G, false);
    expect(lent).toBeCloseTo(fresh(h), 9);
    expect(lent).toBeGreaterThan(before * 1.2);
    // the real game: the same id, an ability that changes no attack; the value is the unit's own
    g.emit({ type: 'effect-added', effect: lend('Not a Leader ability') });
    expect(g.state.effects.map((e) => e.id)).toEqual(h.effects.map((e) => e.id));
    expect(unitAttackPotential(g.state, g.state.units.S, g.state.units.G, false)).toBeCloseTo(before, 9);
  });

  it("an army-wide effect of a copy (PINPOINT COUNTER-OFFENSIVE's re-rolls) under the id the real game gives another is not read back", () => {
    const g = battleSandbox([
      { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 6 } },
      { id: 'G', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 6 } },
    ], { phase: 'shooting' });
    const s = g.state;
    const armyWide = (kind: string, params: Record<string, unknown>): Effect => ({ id: s.nextEffectId, kind, player: 0, unit: null, params, expires: { at: 'end-of-battle' } });
    const before = unitAttackPotential(s, s.units.S, s.units.G, false);
    const h = cloneState(s);
    applyEvent(h, { type: 'effect-added', effect: armyWide('Pinpoint Counter-offensive', { enemy: 'G' }) });
    const rerolled = unitAttackPotential(h, h.units.S, h.units.G, false);
    expect(rerolled).toBeCloseTo(fresh(h), 9);
    // pulse rifles hit on 4+: re-rolling the failures takes the hits from 1/2 to 3/4 of the shots
    expect(rerolled).toBeCloseTo(1.5 * before, 9);
    // the real game: the same id, an army-wide effect that changes no attack
    g.emit({ type: 'effect-added', effect: armyWide('Target Optimisation Microdrones used', {}) });
    expect(unitAttackPotential(g.state, g.state.units.S, g.state.units.G, false)).toBeCloseTo(before, 9);
  });
});
