/**
 * Storm of Whispers: "after the BEARER has shot, select one enemy unit hit by one or more of THOSE attacks".
 * A Warlock (bearer) leads Storm Guardians. The Warlock fires its Destructor at Strike Team A (hits); the
 * Guardians fire their shuriken pistols at a Devilfish B (hits, no wounds on 4s). Only A was hit by the bearer's attacks; the
 * engine credited the Guardians' same-named "Shuriken pistol" hits to the Warlock and offered B too.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

describe('Storm of Whispers (the bearer\'s attacks only)', () => {
  it('offers only the unit the Warlock itself hit', () => {
    const asked: unknown[][] = [];
    const shots: string[] = [];
    const pick = (r: DecisionRequest) => {
      if (r.kind === 'shoot-target') {
        const o = r.options as { weapon?: string; target?: string }[];
        const want = (x: { weapon?: string; target?: string }) => x.target === (x.weapon === 'Destructor' ? 'A' : 'B');
        const i = o.findIndex(want);
        shots.push(JSON.stringify(o));
        return Math.max(0, i);
      }
      if (r.kind === 'storm-of-whispers') asked.push(r.options);
      return 0;
    };
    const g = battleSandbox([
      { id: 'WL', player: 0, faction: 'aeldari', name: 'Warlock', at: { x: 10, y: 10 }, enhancement: 'Storm of Whispers' },
      { id: 'SG', player: 0, faction: 'aeldari', name: 'Storm Guardians', at: { x: 10, y: 12 }, spacing: 0.9 },
      { id: 'A', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 18, y: 4 }, spacing: 0.9 },
      { id: 'B', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
    ], { factions: ['AE', 'TAU'], phase: 'shooting', turn: 0, detachments: ['Devoted of Ynnead', null], agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], stream: scriptedStream(new Array(600).fill(4)) });
    g.emit({ type: 'unit-attached', leader: 'WL', bodyguard: 'SG' });
    const wl = g.state.units.SG.models.find((m) => g.state.datasheets[m.datasheet].name === 'Warlock')!;
    expect(wl.weapons).toContain('Shuriken pistol');
    shootWithUnit(g, g.state.units.SG);
    // the Guardians' pistols rolled to hit the Devilfish B (the Warlock's Destructor, TORRENT, rolls none at A)
    const labels = (g.log ?? []).filter((e) => e.type === 'dice' && (e as { purpose?: string }).purpose === 'hit').map((e) => (e as { label?: string }).label ?? '');
    expect(labels).toEqual(['Shuriken pistol -> Devilfish']);
    expect(asked).toEqual([['A']]);
  });
});
