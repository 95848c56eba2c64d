/**
 * Internal Grenade Racks: "each time the bearer ends a Normal move, you can select one enemy unit it moved over".
 * THE TORCHSTAR GAMBIT: "it can make a Normal move". A bearer flying over Guardians with that Normal move should
 * be offered the racks.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { scriptedStream } from '../helpers/scripted.ts';

describe('Internal Grenade Racks after a Normal move a rule gives (THE TORCHSTAR GAMBIT), not only the Movement phase\'s', () => {
  it('is offered when the bearer moves over an enemy unit', () => {
    const asked: DecisionRequest[] = [];
    const pick = (r: DecisionRequest) => {
      asked.push(r);
      if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'THE TORCHSTAR GAMBIT'));
      if (r.kind === 'torchstar-gambit') {
        // the destination furthest east (beyond the Guardians' column at x 30)
        let best = 0; let bx = -1;
        r.options.forEach((o, i) => { const to = (o as { to?: { x: number; y: number } }).to; if (to && Math.abs(to.y - 8) < 3 && to.x > bx) { bx = to.x; best = i; } });
        return best;
      }
      if (r.kind === 'internal-grenade-racks') return 1;
      return 0;
    };
    const g = battleSandbox([
      { id: 'LD', player: 0, faction: 'tau', name: 'Commander In Coldstar Battlesuit', at: { x: 25, y: 8 }, enhancement: 'Internal Grenade Racks' },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 }, spacing: 0.9 },
    ], { phase: 'shooting', turn: 0, cp: [3, 3], detachments: ['Retaliation Cadre', 'Battle Host'], agents: [scriptedAgent('tau', pick), scriptedAgent('ae')], stream: scriptedStream([6, 6, 6, 6, 6, 6]) });
    const w: Window = { name: 'shooting/after-own-shot', unit: 'LD', targets: [], data: { hitTargets: [] } };
    const used = openWindow(g, w);
    expect(used).toContain('THE TORCHSTAR GAMBIT');
    expect(g.state.units.LD.models[0].pos!.x).toBeGreaterThan(31);
    // the bearer ended a Normal move having flown over the Guardians: the racks should be offered
    expect(asked.filter((r) => r.kind === 'internal-grenade-racks').length).toBe(1);
    // its six D6 (all 6s, each 4+ a mortal wound): six wounds lost by the Guardians
    const gd = g.state.units.GD;
    const lost = gd.models.reduce((t, m) => t + g.state.datasheets[m.datasheet].models[m.profile].wounds - (m.alive ? m.wounds : 0), 0);
    expect(lost).toBe(6);
  });
});
