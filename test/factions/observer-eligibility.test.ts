/**
 * For the Greater Good: the Observer unit must be "eligible to shoot" (and see the Spotted unit). Eligibility
 * (core rules) asks what the unit did this turn and what weapons it may fire, not whether a target is in range:
 * a Strike Team far from the enemy but in sight of it is an Observer (eligibleToShoot, src/rules/battle/shooting.ts).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import type { Game } from '../../src/core/game.ts';
import { guidanceOptions } from '../../src/factions/tau/army-rule.ts';
import { canShoot, eligibleToShoot } from '../../src/rules/battle/shooting.ts';
import { unitDistance, unitSees } from '../../src/rules/battle/world.ts';

/** A Strike Team (Pulse rifles 30", Pulse pistols 12") 42" from the Guardians; a Breacher Team 6" from them. */
function farObserver(): Game {
  return battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 3, y: 5 } },
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 5 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 47, y: 5 } },
  ], { phase: 'shooting', round: 1 });
}

const observers = (g: Game) => guidanceOptions(g, g.state.units.BT).map((o) => `${o.observer}>${o.spotted}`);

describe('For the Greater Good: the Observer is eligible to shoot, whatever the range', () => {
  it('a Strike Team with no target in range, in sight of the Guardians, is offered as the Observer', () => {
    const g = farObserver();
    const s = g.state;
    expect(unitDistance(s, s.units.ST, s.units.GD)).toBeGreaterThan(30);
    expect(unitSees(s, s.units.ST, s.units.GD)).toBe(true);
    // it could not be selected to shoot (no target within range), yet it is eligible to shoot
    expect(canShoot(g, s.units.ST)).toBe(false);
    expect(eligibleToShoot(g, s.units.ST)).toBe(true);
    expect(observers(g)).toEqual(['ST>GD']);
  });

  it('not once it has shot this phase, nor after Falling Back, nor after Advancing (no ASSAULT weapon)', () => {
    const shot = farObserver();
    shot.emit({ type: 'unit-flag', unit: 'ST', flag: 'shot', value: true });
    expect(eligibleToShoot(shot, shot.state.units.ST)).toBe(false);
    expect(observers(shot)).toEqual([]);
    for (const mode of ['fall-back', 'advance'] as const) {
      const g = farObserver();
      g.emit({ type: 'unit-moved', unit: 'ST', mode, ...(mode === 'advance' ? { advanceRoll: 3 } : {}) });
      expect(eligibleToShoot(g, g.state.units.ST)).toBe(false);
      expect(observers(g)).toEqual([]);
    }
  });

  it('within Engagement Range a unit with Pistols is still eligible; its Pulse rifles are not what makes it so', () => {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 3, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 4.5, y: 5 } },
    ], { phase: 'shooting', round: 1 });
    const st = g.state.units.ST;
    expect(eligibleToShoot(g, st)).toBe(true);
    // without its Pulse pistol it has no ranged weapon it may fire while engaged
    st.models[0].weapons = st.models[0].weapons.filter((w) => w !== 'Pulse pistol');
    expect(eligibleToShoot(g, st)).toBe(false);
  });
});
