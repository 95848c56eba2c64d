import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { embarkOptions } from '../../src/rules/battle/transports.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';
import { usableStratagems } from '../../src/rules/windows.ts';

/**
 * Howling Banshees charge T'au INFANTRY beside a Devilfish (a second Strike Team, S2, farther off with
 * `withS2`); the T'au player uses COMBAT EMBARKATION. The charger answers each charge-targets request with
 * `picks[i]` (a '+'-joined set); `asked` holds the sets offered each time, `embarking` the context of the
 * request for the transport.
 */
function embarkation(picks: string[], withS2 = false) {
  const asked: string[][] = [];
  const ae = scriptedAgent('ae', (r: DecisionRequest) => {
    if (r.kind !== 'charge-targets') return 0;
    const opts = (r.options as { targets: string[] }[]).map((o) => o.targets.join('+'));
    asked.push(opts);
    return opts.indexOf(picks[asked.length - 1]);
  });
  const embarking: unknown[] = [];
  const tau = scriptedAgent('tau', (r: DecisionRequest) => {
    if (r.kind === 'combat-embarkation') embarking.push(r.context);
    return r.kind === 'stratagem' ? Math.max(0, (r.options as { stratagem?: string }[]).findIndex((o) => o.stratagem === 'COMBAT EMBARKATION')) : 0;
  });
  const g = battleSandbox([
    { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 20, y: 20 } },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 23.5, y: 18.2 }, spacing: 0.9 },
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', counts: [1, 4], at: { x: 26, y: 30 }, spacing: 0.9 },
    ...(withS2 ? [{ id: 'S2', player: 0 as const, faction: 'tau' as const, name: 'Strike Team', counts: [1, 4], at: { x: 40, y: 20 }, spacing: 0.9 }] : []),
    { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 4], at: { x: 33, y: 22 }, spacing: 0.9 },
  ], { phase: 'charge', turn: 1, cp: [2, 0], detachments: ['Kauyon', null], agents: [tau, ae], stream: scriptedStream([6, 6]) });
  return { g, asked, embarking };
}

describe('COMBAT EMBARKATION (Kauyon)', () => {
  it('the charged Strike Team embarks; the charging unit then selects a new target and charges it', () => {
    const { g, asked, embarking } = embarkation(['ST', 'BT']);
    expect(embarkOptions(g, g.state.units.ST).map((t) => t.id)).toEqual(['DF']);
    expect(declareCharge(g, g.state.units.HB)).toBe(true);
    expect(g.state.units.ST.location).toBe('embarked');
    // the request for the transport names the unit that embarks
    expect(embarking).toEqual([{ unit: 'ST' }]);
    expect(g.state.players[0].cp).toBe(1);
    // first asked with both units in reach, then again with only the one left on the battlefield
    expect(asked.map((a) => a.filter((x) => x === 'ST' || x === 'BT').sort())).toEqual([['BT', 'ST'], ['BT']]);
    expect(g.state.units.HB.flags.charged).toBe(true);
  });

  it('not into a Battle-shocked TRANSPORT (it is one of the stratagem\'s targets): not offered, and the Strike Team stays', () => {
    const { g } = embarkation(['ST', 'BT']);
    g.emit({ type: 'battle-shock', unit: 'DF', value: true });
    expect(embarkOptions(g, g.state.units.ST).map((t) => t.id)).toEqual(['DF']);
    const offered = usableStratagems(g, { name: 'charge/after-enemy-charge-declared', unit: 'HB', targets: ['ST'] }, 0).map((x) => x.s.name);
    expect(offered).not.toContain('COMBAT EMBARKATION');
    declareCharge(g, g.state.units.HB);
    expect(g.state.units.ST.location).toBe('battlefield');
    expect(g.state.players[0].cp).toBe(2);
  });

  it('a charge against two units, one of which embarks: the charger keeps the other (offered first) or selects new targets', () => {
    const { g, asked } = embarkation(['ST+BT', 'S2'], true);
    expect(declareCharge(g, g.state.units.HB)).toBe(true);
    expect(g.state.units.ST.location).toBe('embarked');
    // asked again: the target left (Breacher Team) first, then every other set of the units in reach
    // (the Devilfish, the Breacher Team and the second Strike Team: 7 sets, each once)
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('ST+BT');
    expect(asked[1][0]).toBe('BT');
    expect(asked[1]).toHaveLength(7);
    expect(new Set(asked[1].map((k) => k.split('+').sort().join('+'))).size).toBe(7);
    expect(asked[1]).toContain('S2');
    expect(asked[1].some((k) => k.split('+').includes('ST'))).toBe(false);
    // it charged the new target, not the one it kept the option of
    const s = g.state;
    expect(unitsInEngagement(s, s.units.HB, s.units.S2)).toBe(true);
    expect(unitsInEngagement(s, s.units.HB, s.units.BT)).toBe(false);
  });
});
