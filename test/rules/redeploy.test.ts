/**
 * The Redeploy Units step (src/rules/battle/redeploy.ts): Solid-image Projection Unit (Kauyon), Guileful
 * Strategist (Armoured Warhost) and the Kroot Trail Shaper's Kroot Ambush pick up deployed units and set
 * them up again or place them in Strategic Reserves.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { redeployUnits, type RedeployOption } from '../../src/rules/battle/redeploy.ts';
import { pointInPolygon } from '../../src/geometry/polygon.ts';

/** Redeploy with `player`'s agent picking `picks` in turn (unit ids, or 'done'), each sent to `where` ('reserves' or an anchor index). */
function redeploy(units: PlacedUnit[], player: 0 | 1, picks: string[], where: ('reserves' | number)[] = []) {
  const offered: string[][] = [];
  let w = 0;
  const agent = scriptedAgent('p', (r: DecisionRequest) => {
    if (r.kind === 'redeploy') {
      const ids = (r.options as RedeployOption[]).map((o) => ('done' in o ? 'done' : o.unit));
      offered.push(ids);
      return Math.max(0, ids.indexOf(picks[offered.length - 1] ?? 'done'));
    }
    if (r.kind === 'redeploy-where') {
      const want = where[w++] ?? 'reserves';
      return want === 'reserves' ? 0 : 1 + want;
    }
    return 0;
  });
  const g = battleSandbox(units, { agents: player === 0 ? [agent, scriptedAgent('q')] : [scriptedAgent('q'), agent], phase: 'movement' });
  redeployUnits(g, 0, [0, 1]);
  return { g, offered };
}

describe('Redeploy Units', () => {
  const tau: PlacedUnit[] = [
    { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 6, y: 6 }, enhancement: 'Solid-image Projection Unit' },
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 12 }, spacing: 1 },
    { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 6, y: 30 } },
    { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 9, y: 20 }, spacing: 1 },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 54, y: 20 } },
  ];

  it('Solid-image Projection Unit: up to three T\'AU EMPIRE units, to Strategic Reserves or set up again in the zone; no enemy offered', () => {
    const { g, offered } = redeploy(tau, 0, ['ST', 'HH', 'S2'], ['reserves', 0, 'reserves']);
    expect(offered).toEqual([['done', 'F', 'ST', 'HH', 'S2'], ['done', 'F', 'HH', 'S2'], ['done', 'F', 'S2']]);
    const s = g.state;
    expect([s.units.ST.location, s.units.HH.location, s.units.S2.location, s.units.F.location]).toEqual(['strategic-reserves', 'battlefield', 'strategic-reserves', 'battlefield']);
    expect(s.units.ST.models.every((m) => m.pos === null)).toBe(true);
    // set up again at the zone's first anchor, wholly within the zone
    const zone = s.board.deploymentZones[0].polygon;
    expect(s.units.HH.models.every((m) => m.pos && pointInPolygon(m.pos, zone))).toBe(true);
  });

  it('the player may stop at once (the heuristic does); without the Enhancement nothing is asked', () => {
    const none = redeploy(tau, 0, ['done']);
    expect(none.offered).toHaveLength(1);
    expect(none.g.state.units.ST.location).toBe('battlefield');
    const plain = redeploy(tau.map((u) => ({ ...u, enhancement: undefined })), 0, ['ST']);
    expect(plain.offered).toEqual([]);
  });

  it('Guileful Strategist: AELDARI VEHICLE units only', () => {
    const { offered } = redeploy([
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 54, y: 6 }, enhancement: 'Guileful Strategist' },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 54, y: 20 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 54, y: 34 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 4, y: 12 }, spacing: 1 },
    ], 1, ['done']);
    expect(offered).toEqual([['done', 'FA']]);
  });

  it('Guileful Strategist: up to three units, not a fourth (audit 19 mutant E03)', () => {
    const { offered } = redeploy([
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 54, y: 4 }, enhancement: 'Guileful Strategist' },
      { id: 'F1', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 48, y: 10 } },
      { id: 'F2', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 48, y: 20 } },
      { id: 'F3', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 48, y: 30 } },
      { id: 'F4', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 48, y: 40 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 4, y: 12 }, spacing: 1 },
    ], 1, ['F1', 'F2', 'F3', 'F4'], ['reserves', 'reserves', 'reserves', 'reserves']);
    // three picks, each offered the units left; no fourth question
    expect(offered).toEqual([['done', 'F1', 'F2', 'F3', 'F4'], ['done', 'F2', 'F3', 'F4'], ['done', 'F3', 'F4']]);
  });

  it('Kroot Ambush: the Trail Shaper\'s unit and one other KROOT unit, not two others', () => {
    const { offered, g } = redeploy([
      { id: 'TS', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 6, y: 6 } },
      { id: 'K1', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 3, y: 14 }, spacing: 1 },
      { id: 'K2', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 9, y: 14 }, spacing: 1 },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 6, y: 34 }, spacing: 1 },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 54, y: 20 } },
    ], 0, ['K1', 'TS'], ['reserves', 'reserves']);
    expect(offered).toEqual([['done', 'TS', 'K1', 'K2'], ['done', 'TS']]);
    expect([g.state.units.K1.location, g.state.units.TS.location, g.state.units.K2.location]).toEqual(['strategic-reserves', 'strategic-reserves', 'battlefield']);
  });
});
