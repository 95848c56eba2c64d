import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { weapon } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';

describe('LAYERED WARDS (Armoured Warhost)', () => {
  it('answers the mortal wounds of DEVASTATING WOUNDS: offered as the first is allocated, Feel No Pain 5+ against every one', () => {
    const offers: string[] = [];
    const ae = scriptedAgent('ae', (r: DecisionRequest) => {
      if (r.kind !== 'stratagem') return 0;
      const i = (r.options as { stratagem?: string }[]).findIndex((o) => o.stratagem === 'LAYERED WARDS');
      if (i >= 0) offers.push('LAYERED WARDS');
      return Math.max(0, i);
    });
    // a Critical Wound (6) of a DEVASTATING WOUNDS gun with Damage 3: three mortal wounds; the stratagem is used
    // as the first is allocated, before it is resolved (allocation comes before Feel No Pain), so Feel No Pain 5+
    // rolls for all three: 5 (ignored), 2 and 6 (ignored)
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 10 } },
    ], { phase: 'shooting', cp: [0, 3], detachments: [null, 'Armoured Warhost'], stream: scriptedStream([6, 5, 2, 6]), agents: [scriptedAgent('tau'), ae] });
    const gun = weapon({ attacks: '1', skill: 2, strength: 4, ap: 0, damage: '3', abilities: ['TORRENT', 'DEVASTATING WOUNDS'] });
    const A = g.state.units.ST;
    const tally = resolveAttacks(g, A, [{ weapon: gun, profile: gun.profiles[0], models: [A.models[0]], target: 'WS', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
    expect(offers).toEqual(['LAYERED WARDS']);
    expect(g.state.players[1].cp).toBe(2);
    expect(tally.woundsLost).toBe(1);
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'feel-no-pain').map((e) => e.type === 'dice' && e.values)).toEqual([[5, 2, 6]]);
  });
});
