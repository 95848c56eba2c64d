/**
 * A transport names the models it may carry (Wave Serpent: Aeldari INFANTRY models, no Ynnari models other
 * than Asuryani, Yvraine and the Visarch), so an Attached unit embarks only when every part of it may ride on
 * its own keywords: a Leader's keywords joined into the unit neither qualify nor excuse the Bodyguard models.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { fitsIn } from '../../src/rules/battle/transports.ts';

function fits(leader: string, bodyguard: string): { alone: boolean; led: boolean } {
  const g = battleSandbox([
    { id: 'L', player: 0, faction: 'aeldari', name: leader, at: { x: 20, y: 20 } },
    { id: 'B', player: 0, faction: 'aeldari', name: bodyguard, at: { x: 22, y: 20 } },
    { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 20 } },
    { id: 'E', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 40 } },
  ], { phase: 'movement', turn: 0 });
  const alone = fitsIn(g, g.state.units.B, g.state.units.WS);
  g.emit({ type: 'unit-attached', leader: 'L', bodyguard: 'B' });
  expect(g.state.units.B.components).toHaveLength(2);
  return { alone, led: fitsIn(g, g.state.units.B, g.state.units.WS) };
}

describe('an Attached unit rides in a transport only if each part may', () => {
  it("a Bonesinger's INFANTRY does not let the Wraithlord it leads into a Wave Serpent", () => {
    expect(fits('Bonesinger', 'Wraithlord')).toEqual({ alone: false, led: false });
  });

  it("Yvraine's exception does not excuse the Ynnari Wyches she leads", () => {
    expect(fits('Yvraine', 'Ynnari Wyches')).toEqual({ alone: false, led: false });
  });

  it('a Farseer leading Guardian Defenders still fits', () => {
    expect(fits('Farseer', 'Guardian Defenders')).toEqual({ alone: true, led: true });
  });
});
