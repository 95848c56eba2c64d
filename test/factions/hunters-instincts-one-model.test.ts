/**
 * Hunter's Instincts: "add 1 to the Hit roll if the target of that attack is below its Starting Strength, and add 1
 * to the Wound roll as well if the target of that attack is Below Half-strength". A Wraithlord (Starting
 * Strength 1) with fewer than half its wounds left is Below Half-strength (core rules), so a KROOT attack at it
 * gets +1 to wound (whatever one reads of "below its Starting Strength" for a one-model unit).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { belowHalfStrength } from '../../src/rules/battle/units.ts';

describe("Hunter's Instincts against a one-model unit Below Half-strength", () => {
  it('+1 to wound', () => {
    const mk = (det: string | null) => battleSandbox([
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 5 }, spacing: 0.9 },
      { id: 'WL', player: 1, faction: 'aeldari', name: 'Wraithlord', at: { x: 30, y: 5 } },
    ], { phase: 'shooting', turn: 0, cp: [4, 3], detachments: [det, null], agents: [scriptedAgent('tau'), scriptedAgent('ae')] });
    const g = mk('Kroot Hunting Pack');
    const none = mk(null);
    for (const x of [g, none]) {
      const m = x.state.units.WL.models[0];
      // leave it 2 wounds of its 10 (damage without destroying it)
      x.emit({ type: 'model-damaged', unit: 'WL', model: m.id, wounds: m.wounds - 2, by: null, mortal: true });
    }
    expect(belowHalfStrength(g.state, g.state.units.WL)).toBe(true);
    const p = planFor(g, 'KC', 'WL', 'Kroot rifle');
    const q = planFor(none, 'KC', 'WL', 'Kroot rifle');
    expect(p.woundModifier).toBe(q.woundModifier + 1);
    // a unit of one model is never below its Starting Strength (models counted): no +1 to hit
    expect(p.hitModifier).toBe(q.hitModifier);
  });
});
