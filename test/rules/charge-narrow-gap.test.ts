/**
 * A charge that has a legal end only in a narrow gap between other models: the planner tried base-contact spots
 * 15 degrees apart around each target model and failed the charge though the rules' conditions could be met
 * (audit 16: a one-model Crisis Starscythe unit rolling 8 against a Strike Team among Devilfish and other
 * models; 78 end positions passed the planner's own validator). The positions are that game's (Mont'ka mirror,
 * seed 2, heuristic agents, event 2283 at 2d5d8e2), the units within 12" of the charger, Leaders as units of their own.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { planUnit } from '../../src/rules/battle/placement.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';

const UNITS: { id: string; player: 0 | 1; name: string; counts: number[]; pos: number[][] }[] = [
  { id: "p1-u3", player: 0, name: "Hammerhead Gunship", counts: [1], pos: [[35.555,32.497]] },
  { id: "p1-u4", player: 0, name: "Breacher Team", counts: [1, 3], pos: [[33.68,26.686],[33.981,25.615],[35.137,25.345],[32.646,26.686]] },
  { id: "p1-u1", player: 0, name: "Aun'shi", counts: [1], pos: [[36.59,24.762]] },
  { id: "p1-u5", player: 0, name: "Breacher Team", counts: [1, 1], pos: [[31.698,26.095],[32.881,25.361]] },
  { id: "p1-u2", player: 0, name: "Cadre Fireblade", counts: [1], pos: [[31.676,27.135]] },
  { id: "p1-u6", player: 0, name: "Strike Team", counts: [1, 3], pos: [[32.122,23.589],[34.156,23.284],[33.205,23.782],[34.611,22.304]] },
  { id: "p1-u7", player: 0, name: "Strike Team", counts: [1, 9], pos: [[40.52,31.634],[43.159,33.449],[39.906,30.74],[42.097,34.521],[42.076,33.397],[41.2,32.46],[39.816,32.458],[41.637,31.468],[42.433,30.731],[41.172,30.488]] },
  { id: "p1-u8", player: 0, name: "Devilfish", counts: [1], pos: [[38.279,31.333]] },
  { id: "p1-u10", player: 0, name: "Crisis Starscythe Battlesuits", counts: [1, 0], pos: [[36.358,26.272]] },
  { id: "p1-u11", player: 0, name: "Crisis Starscythe Battlesuits", counts: [1, 0], pos: [[35.846,34.831]] },
  { id: "p1-u12", player: 0, name: "Piranhas", counts: [1], pos: [[27.728,25.688]] },
  { id: "p1-u13", player: 0, name: "Hammerhead Gunship", counts: [1], pos: [[32.408,19.819]] },
  { id: "p1-u14", player: 0, name: "Stealth Battlesuits", counts: [1, 1], pos: [[34.273,20.889],[34.172,19.317]] },
  { id: "p1-u17", player: 0, name: "Riptide Battlesuit", counts: [1], pos: [[37.491,21.124]] },
  { id: "p2-u6", player: 1, name: "Strike Team", counts: [1, 3], pos: [[29.048,26.724],[29.403,25.792],[31.296,24.133],[28.004,27.344]] },
  { id: "p2-u8", player: 1, name: "Devilfish", counts: [1], pos: [[29.135,23.785]] },
  { id: "p2-u9", player: 1, name: "Devilfish", counts: [1], pos: [[32.942,22.125]] },
  { id: "p2-u10", player: 1, name: "Crisis Starscythe Battlesuits", counts: [1, 0], pos: [[30.966,18.197]] },
  { id: "p2-u12", player: 1, name: "Piranhas", counts: [2], pos: [[40.506,33.988],[37.642,33.613]] },
  { id: "p2-u16", player: 1, name: "Riptide Battlesuit", counts: [1], pos: [[26.245,29.256]] },
];
const RUINS = [
  { id: 'r0', kind: 'ruin' as const, height: 6, polygon: [[35.5,34],[32,34],[32,27],[34,27],[34,30.5],[35.5,30.5]] },
  { id: 'r1', kind: 'ruin' as const, height: 4, polygon: [[43,31],[40,31],[40,28],[46,28],[46,29.5],[43,29.5]] },
  { id: 'r2', kind: 'ruin' as const, height: 4, polygon: [[43,22],[38,22],[38,17],[43,17]] },
];

describe('a charge into a narrow gap', () => {
  it('an 8" charge whose only legal ends lie between other models succeeds, ending within Engagement Range of its target only', () => {
    const g = battleSandbox(UNITS.map((u) => ({ id: u.id, player: u.player, faction: 'tau', name: u.name, counts: u.counts, at: { x: 5 + 2 * UNITS.indexOf(u), y: 2 } })),
      { phase: 'charge', turn: 0, round: 3, objectives: [], terrain: RUINS.map((r) => ({ ...r, polygon: r.polygon.map(([x, y]) => ({ x, y })) })) });
    const s = g.state;
    for (const u of UNITS) g.emit({ type: 'models-placed', unit: u.id, mode: 'test', positions: s.units[u.id].models.map((m, i) => ({ model: m.id, pos: { x: u.pos[i][0], y: u.pos[i][1], z: 0 } })) });
    const plan = planUnit(s, s.units['p1-u10'], 'charge', { maxDistance: 8, targetUnitIds: ['p2-u6'] });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const end = { ...modelBody(s, s.units['p1-u10'].models[0]), pos: plan.positions[0] };
    const gap = (id: string) => Math.min(...s.units[id].models.map((m) => horizontalDistance(end, modelBody(s, m))));
    expect(gap('p2-u6')).toBeLessThanOrEqual(1 + 1e-6);
    for (const u of UNITS) if (u.player === 1 && u.id !== 'p2-u6') expect(gap(u.id), u.id).toBeGreaterThan(1);
    expect(plan.pathLengths[0]).toBeLessThanOrEqual(8 + 1e-6);
  });
});
