/**
 * CRITICAL CAPTURE, WHEN: "Your Command phase." The engine offered it only in the phase/start window, which opens
 * before the Command step gives each player 1 CP: a player who started the Command phase with 0 CP could never use
 * it, although after the CP gain (still in their Command phase) they have the 1 CP it costs.
 */
import { expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { commandPhase } from '../../src/rules/battle/command.ts';

it('CRITICAL CAPTURE can be used in the Command phase with the CP gained in it', () => {
  const offers: string[] = [];
  const pick = (r: DecisionRequest) => {
    if (r.kind !== 'stratagem') return 0;
    const i = r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'CRITICAL CAPTURE');
    if (i >= 0) offers.push('CRITICAL CAPTURE');
    return Math.max(0, i);
  };
  const g = battleSandbox([
    { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 22, y: 14 }, spacing: 0.8 },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 30, y: 5 }, spacing: 1 },
  ], {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'command', turn: 0, round: 2, cp: [0, 3],
    detachments: ["Khaine's Arrow", null], factions: ['AE', 'TAU'],
    agents: [scriptedAgent('ae', pick), scriptedAgent('tau')],
  });
  commandPhase(g, 0);
  const used = (g.log ?? []).filter((e) => e.type === 'stratagem-used').map((e) => (e as { name: string }).name);
  expect(used).toContain('CRITICAL CAPTURE');
});
