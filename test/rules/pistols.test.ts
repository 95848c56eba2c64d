/**
 * Pistols or other weapons: a model that is not a MONSTER or VEHICLE fires its Pistols or its other ranged
 * weapons, as its player chooses (one decision for the unit: which models fire their Pistols). Breacher
 * Fire Warriors carry a Pulse blaster (10", 2 attacks, BS 3+) and a Pulse pistol (12", 1 attack, BS 4+).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, roundBaseRadius as radius, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { canShoot, shootWithUnit, type TargetOption } from '../../src/rules/battle/shooting.ts';
import { isEngaged, modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

type PistolOption = { pistols: string[] };

/**
 * Breachers (one model a gap in `gaps`, edge to edge, from a lone Dire Avenger at (40, 20)), played by
 * `agent` (default: the scripted answers of `pick`); every request the Breachers' player is asked.
 */
function breachers(gaps: number[], opts: { pick?: (r: DecisionRequest) => number; agent?: Agent; dice?: number[] } = {}) {
  const asked: DecisionRequest[] = [];
  const inner = opts.agent ?? scriptedAgent('tau', opts.pick ?? (() => 0));
  const agent: Agent = { name: inner.name, decide(view, req) { asked.push(req); return inner.decide(view, req); } };
  const g = battleSandbox([
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', counts: [1, gaps.length - 1], at: { x: 10, y: 10 } },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', counts: [1, 0], at: { x: 40, y: 20 } },
  ], { phase: 'shooting', agents: [agent, scriptedAgent('ae')], ...(opts.dice ? { stream: scriptedStream(opts.dice) } : {}) });
  const target = modelBody(g.state, g.state.units.DA.models[0]);
  // each model on the target's row, spread 3" apart across it, at its gap from the Dire Avenger
  // (g.state is replaced by each event: read it afresh)
  g.state.units.BT.models.forEach((m, i) => {
    const y = 20 + (i - (gaps.length - 1) / 2) * 3;
    const r = radius(modelBody(g.state, m));
    const dy = y - 20;
    const centre = Math.sqrt((gaps[i] + r + radius(target)) ** 2 - dy * dy);
    g.emit({ type: 'models-placed', unit: 'BT', mode: 'test', positions: [{ model: m.id, pos: { x: 40 - centre, y, z: 0 } }] });
  });
  const s = g.state;
  s.units.BT.models.forEach((m, i) => expect(horizontalDistance(modelBody(s, m), target)).toBeCloseTo(gaps[i], 6));
  return { g, asked, ids: s.units.BT.models.map((m) => m.id) };
}

const pistolRequests = (asked: DecisionRequest[]) => asked.filter((r) => r.kind === 'pistols');
const targetRequests = (asked: DecisionRequest[]) => asked.filter((r) => r.kind === 'shoot-target').map((r) => (r.options as TargetOption[]).map((o) => `${o.weapon} x${o.models}`));

function shoot(g: Game): void {
  shootWithUnit(g, g.state.units.BT);
}

describe('Pistols or other weapons', () => {
  it('11" away only the Pulse pistol reaches: the unit may shoot, and firing the Pistol makes its attack', () => {
    // Pistol chosen (option 1): 1 attack, a Hit roll of 4 hits at BS 4+ and a Wound roll follows
    const chosen = breachers([11], { pick: (r) => (r.kind === 'pistols' ? 1 : 0), dice: [4, /* wound */ 1] });
    expect(canShoot(chosen.g, chosen.g.state.units.BT)).toBe(true);
    shoot(chosen.g);
    const [req] = pistolRequests(chosen.asked);
    expect(req.options).toEqual([{ pistols: [] }, { pistols: chosen.ids }]);
    expect(req.context).toEqual({ unit: 'BT' });
    expect(targetRequests(chosen.asked)).toEqual([['Pulse pistol x1']]);
    expect(rolls(chosen.g, 'hit')).toEqual([[4]]);
    expect(rolls(chosen.g, 'wound')).toEqual([[1]]);

    // the other weapons chosen (option 0): the Pulse blaster has no target, nothing is rolled
    const other = breachers([11], { dice: [] });
    shoot(other.g);
    expect(pistolRequests(other.asked)).toHaveLength(1);
    expect(targetRequests(other.asked)).toEqual([]);
    expect(rolls(other.g, 'hit')).toEqual([]);
  });

  it('a model fires its Pistol or its Pulse blaster, never both', () => {
    // 8": both reach. The other weapons: the blaster alone (2 attacks); the Pistols: the pistol alone (1).
    const other = breachers([8], { dice: [1, 1] });
    shoot(other.g);
    expect(targetRequests(other.asked)).toEqual([['Pulse blaster x1']]);
    expect(rolls(other.g, 'hit')).toEqual([[1, 1]]);
    const pistol = breachers([8], { pick: (r) => (r.kind === 'pistols' ? 1 : 0), dice: [1] });
    shoot(pistol.g);
    expect(targetRequests(pistol.asked)).toEqual([['Pulse pistol x1']]);
    expect(rolls(pistol.g, 'hit')).toEqual([[1]]);
  });

  it('the options: no Pistols, the models whose other weapons reach nothing, every model with both', () => {
    // the first model 11" away (only its pistol reaches), the second 8" (both reach)
    const { g, asked, ids } = breachers([11, 8], { pick: (r) => (r.kind === 'pistols' ? 1 : 0), dice: [1, 1, 1] });
    shoot(g);
    const [req] = pistolRequests(asked);
    expect((req.options as PistolOption[]).map((o) => o.pistols)).toEqual([[], [ids[0]], ids]);
    // option 1: the far model (first) fires its pistol, the near one its blaster
    expect(targetRequests(asked)).toEqual([['Pulse pistol x1'], ['Pulse blaster x1']]);
  });

  it('not asked when no Pistol has a target, nor when the unit is engaged (Pistols only)', () => {
    // 15": nothing reaches, the unit cannot shoot
    const far = breachers([15]);
    expect(canShoot(far.g, far.g.state.units.BT)).toBe(false);
    // engaged (0.5"): only the Pistol may fire, at the unit it is engaged with
    const engaged = breachers([0.5], { dice: [1] });
    expect(isEngaged(engaged.g.state, engaged.g.state.units.BT)).toBe(true);
    shoot(engaged.g);
    expect(pistolRequests(engaged.asked)).toEqual([]);
    expect(targetRequests(engaged.asked)).toEqual([['Pulse pistol x1']]);
  });

  it('the heuristic fires the Pistol where the blaster cannot reach, the blaster where both can', () => {
    const chosen = (gaps: number[]) => {
      let answer = -1;
      const h = createHeuristic();
      const agent: Agent = { name: 'heuristic', decide(view, req) { const d = h.decide(view, req); if (req.kind === 'pistols') answer = d.option; return d; } };
      const { g } = breachers(gaps, { agent });
      shoot(g);
      return answer;
    };
    expect(chosen([11])).toBe(1);
    expect(chosen([8])).toBe(0);
    // one far, one near: only the far one's pistol (option 1), not both (option 2)
    expect(chosen([11, 8])).toBe(1);
  });
});
