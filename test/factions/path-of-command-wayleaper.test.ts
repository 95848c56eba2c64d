/**
 * Autarch Wayleaper - Path of Command (datasheet 000002759): "Once per battle round, one model from your army with
 * this ability can use it when its unit is targeted with a Stratagem. If it does, reduce the CP cost ... by 1CP."
 * The engine's entry asked for a model with the AUTARCH keyword, which the Wayleaper does not have (its keywords:
 * AUTARCH WAYLEAPER, ...), so it never applied; it now asks for a model whose datasheet has the ability.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { usableStratagems } from '../../src/rules/windows.ts';

function offered(name: string) {
  const g = battleSandbox([
    { id: 'AW', player: 0, faction: 'aeldari', name, at: { x: 20, y: 20 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 20 }, spacing: 0.9 },
  ], { phase: 'shooting', turn: 1, cp: [1, 0] });
  const w = { name: 'shooting/after-enemy-targets' as const, unit: 'ST', targets: ['AW'] };
  return usableStratagems(g, w, 0).filter((x) => x.s.name === 'GO TO GROUND').map((x) => [x.cp, x.discount ?? null]);
}

describe('Path of Command', () => {
  it('Autarch: GO TO GROUND offered at 1CP and at 0CP with Path of Command', () => {
    expect(offered('Autarch')).toEqual([[1, null], [0, 'Path of Command']]);
  });
  it('Autarch Wayleaper: the same reduction is offered', () => {
    expect(offered('Autarch Wayleaper')).toEqual([[1, null], [0, 'Path of Command']]);
  });
});
