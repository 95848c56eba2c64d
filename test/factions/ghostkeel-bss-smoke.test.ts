/**
 * Ghostkeel Battlesuit's Battlesuit Support System (wargear): "The bearer is eligible to shoot in a turn in
 * which it Fell Back but it loses the SMOKE keyword." The engine played the Crisis wording (shoot after Falling
 * Back) and kept SMOKE, so SMOKESCREEN could still target it. Read as the wargear trading SMOKE away (Rule.removesKeywords
 * at muster); the second test holds under the narrowest reading too (it loses SMOKE once it has Fallen Back and shot).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { allows } from '../../src/core/rules-registry.ts';
import { hasKeyword } from '../../src/rules/battle/units.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

function ghostkeel() {
  return battleSandbox([
    { id: 'GK', player: 0, faction: 'tau', name: 'Ghostkeel Battlesuit', at: { x: 10, y: 5 }, wargear: [['Battlesuit Support System']] },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 25, y: 5 } },
  ], { factions: ['TAU', 'AE'], phase: 'shooting', turn: 0 });
}

describe('Ghostkeel: Battlesuit Support System', () => {
  it('a Ghostkeel with the BSS may shoot after Falling Back but has lost SMOKE', () => {
    const g = ghostkeel();
    const gk = g.state.units.GK;
    expect(gk.models[0].wargear).toContain('Battlesuit Support System');
    expect(allows(g.state, gk, 'shoot-after-fall-back')).toBe(true);
    expect(hasKeyword(gk, 'SMOKE')).toBe(false);
  });

  it('narrowest reading: once it has Fallen Back and shot, it has lost SMOKE', () => {
    const g = ghostkeel();
    g.emit({ type: 'unit-moved', unit: 'GK', mode: 'fall-back' });
    shootWithUnit(g, g.state.units.GK);
    expect(g.state.units.GK.flags.shot).toBe(true);
    expect(hasKeyword(g.state.units.GK, 'SMOKE')).toBe(false);
  });
});
