/**
 * EPIC CHALLENGE: "TARGET: One CHARACTER model in your unit." With two CHARACTER models in the unit (Kroot
 * Carnivores x20 led by a Kroot War Shaper and a Kroot Flesh Shaper, BODYGUARD), the player picks which one
 * gets PRECISION. The engine took the first alive CHARACTER model and asked nothing.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { openWindow } from '../../src/rules/windows.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';
import { getRule, registerRule } from '../../src/core/rules-registry.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { createStream } from '../../src/core/rng.ts';

describe('EPIC CHALLENGE: the player selects the CHARACTER model', () => {
  it('the second Leader can be the challenger', () => {
    const asked: DecisionRequest[] = [];
    const tau = scriptedAgent('tau', (r) => {
      asked.push(r);
      if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'EPIC CHALLENGE'));
      return r.options.length - 1; // the last option of any further question (the second CHARACTER model)
    });
    const g = battleSandbox([
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [20], at: { x: 20, y: 5 }, spacing: 0.9 },
      { id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 21, y: 23.5 } },
      { id: 'FS', player: 0, faction: 'tau', name: 'Kroot Flesh Shaper', at: { x: 19, y: 23.5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 21.1, y: 5 }, spacing: 0.9 },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 22.2, y: 5 } },
    ], { phase: 'fight', turn: 0, round: 2, cp: [3, 3], agents: [tau, scriptedAgent('ae')] });
    g.emit({ type: 'unit-attached', leader: 'WS', bodyguard: 'KC' });
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'KC' });
    g.emit({ type: 'unit-attached', leader: 'FA', bodyguard: 'GD' });
    const s = g.state;
    expect(unitsInEngagement(s, s.units.KC, s.units.GD)).toBe(true);
    const chars = s.units.KC.models.filter((m) => s.datasheets[m.datasheet].keywords.includes('CHARACTER')).map((m) => m.id);
    expect(chars).toHaveLength(2);
    expect(openWindow(g, { name: 'fight/unit-selected', unit: 'KC', targets: [] })).toEqual(['EPIC CHALLENGE']);
    const eff = s.effects.find((e) => e.kind === 'Epic Challenge')!;
    // the player was asked which CHARACTER model, and its answer (the last, the Flesh Shaper) was kept
    expect(eff.params.model).toBe(chars[1]);
  });

  it('only the challenger\'s attacks have PRECISION: the Twin Lance\'s two CHARACTER models share the XV pulse pistol\'s melee profile, and Ri\'Locai\'s attacks are planned without it', () => {
    const seen: { attackers: string[]; precision: boolean }[] = [];
    const spy = 'test: Epic Challenge spy';
    if (!getRule(spy)) {
      // a defender-side effect: asked after every attacker-side rule, so it sees the plan's PRECISION as played
      registerRule({ name: spy, kind: 'effect', attack(plan, ctx, src) { if (src.role === 'defender') seen.push({ attackers: ctx.attackers.map((m) => m.id), precision: plan.precision }); } });
    }
    const g = battleSandbox([
      { id: 'TL', player: 0, faction: 'tau', name: 'The Twin Lance', at: { x: 20, y: 10 }, spacing: 3 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 0], at: { x: 22.5, y: 8 }, spacing: 1.3 },
      { id: 'FA', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 24.3, y: 10 } },
    ], { phase: 'fight', turn: 0, round: 2, stream: createStream('epic-challenge-model'), agents: [scriptedAgent('tau'), scriptedAgent('ae')] });
    g.emit({ type: 'unit-attached', leader: 'FA', bodyguard: 'GD' });
    const [lantar, locai] = g.state.units.TL.models;
    expect(unitsInEngagement(g.state, g.state.units.TL, g.state.units.GD)).toBe(true);
    g.addEffect('Epic Challenge', 0, 'TL', g.untilEndOfPhase(), { model: lantar.id });
    g.addEffect(spy, 1, 'GD', g.untilEndOfPhase(), {});
    fight(g, g.state.units.TL);
    // (a group's plan may be built more than once: each time alike)
    expect([...new Set(seen.filter((x) => x.attackers.includes(locai.id)).map((x) => x.precision))]).toEqual([false]);
    expect([...new Set(seen.filter((x) => x.attackers.includes(lantar.id)).map((x) => `${x.attackers.length} ${x.precision}`))]).toEqual(['1 true']);
  });
});

