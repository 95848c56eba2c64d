/**
 * Aeldari rules at the edges audit 19's mutation testing found no test at (tmp/audit19-mutation-aeldari/
 * FINDINGS.md): a Fate die of 5 or 1 for a D3, LAYERED WARDS' Feel No Pain 5+ against a roll of 4, the units
 * LIGHTNING-FAST REACTIONS and ANTI-GRAV REPULSION leave out, Defend at All Costs for War Walkers, BLOODY DANCE's
 * 6". Each test fails on the mutant that played the rule wrong.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { fatePool } from '../../src/factions/aeldari/army-rule.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { rollDice } from '../../src/rules/roll-window.ts';
import { weapon } from '../helpers/attack.ts';
import { planFor } from '../helpers/plan.ts';
import { offeredUnits } from '../helpers/stratagems.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { PlacedUnit } from '../helpers/battle.ts';
import { battleSandbox, scriptedAgent, setGap } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';

describe('Strands of Fate: a Fate die for a D3 is a D6 halved, rounding up', () => {
  it('a Fate die of 5 gives 3, of 1 gives 1 (not 2 and 0)', () => {
    for (const [fate, d3] of [[5, 3], [1, 1], [4, 2]] as const) {
      const g = battleSandbox([
        { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
        { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
      ], { factions: ['AE', 'TAU'], phase: 'shooting', stream: scriptedStream([1]), agents: [scriptedAgent('ae', (r: DecisionRequest) => (r.kind === 'fate-die' ? r.options.findIndex((o) => (o as { fate?: number }).fate === fate) : 0)), scriptedAgent('tau')] });
      g.emit({ type: 'rule-state', player: 0, key: 'fate', value: [fate] });
      const values = rollDice(g, 1, 3, 'damage', 0, 'GD', 'Test D3 weapon');
      expect(fatePool(g, 0), `Fate die ${fate} used`).toEqual([]);
      expect(values[0], `Fate die ${fate}`).toBe(d3);
    }
  });
});

describe('LAYERED WARDS (Armoured Warhost)', () => {
  it('Feel No Pain 5+: of the rolls 5, 4 and 6 against three mortal wounds, the 4 fails (one wound lost)', () => {
    const ae = scriptedAgent('ae', (r: DecisionRequest) => (r.kind === 'stratagem' ? Math.max(0, (r.options as { stratagem?: string }[]).findIndex((o) => o.stratagem === 'LAYERED WARDS')) : 0));
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 10 } },
    ], { phase: 'shooting', cp: [0, 3], detachments: [null, 'Armoured Warhost'], stream: scriptedStream([6, 5, 4, 6]), agents: [scriptedAgent('tau'), ae] });
    const gun = weapon({ attacks: '1', skill: 2, strength: 4, ap: 0, damage: '3', abilities: ['TORRENT', 'DEVASTATING WOUNDS'] });
    const A = g.state.units.ST;
    const tally = resolveAttacks(g, A, [{ weapon: gun, profile: gun.profiles[0], models: [A.models[0]], target: 'WS', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
    expect(g.state.players[1].cp).toBe(2);
    expect(g.log!.filter((e) => e.type === 'dice' && e.purpose === 'feel-no-pain').map((e) => e.type === 'dice' && e.values)).toEqual([[5, 4, 6]]);
    expect(tally.woundsLost).toBe(1);
  });
});

/** Player 0 (Aeldari, `detachment`) against player 1 (T'au); both answer with the first option. */
function aeldari(units: PlacedUnit[], detachment: string, opts: { phase?: PhaseName; turn?: PlayerIndex; objectives?: { id: string; pos: { x: number; y: number } }[] } = {}): Game {
  return battleSandbox(units, {
    factions: ['AE', 'TAU'], detachments: [detachment, null], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 1, cp: [3, 3],
    ...(opts.objectives ? { objectives: opts.objectives } : {}),
  });
}
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 };

describe('stratagem targets the text leaves out', () => {
  it('LIGHTNING-FAST REACTIONS (Battle Host) excludes WRAITH CONSTRUCT units: targeted Wraithguard are not offered it, Guardians are', () => {
    const g = aeldari([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 5 } },
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 10, y: 25 } },
      ST,
    ], 'Battle Host');
    expect(g.state.units.WG.keywords).toContain('WRAITH CONSTRUCT');
    expect(offeredUnits(g, { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['GD', 'WG'] }, 0, 'LIGHTNING-FAST REACTIONS')).toEqual(['GD']);
  });

  it('ANTI-GRAV REPULSION (Armoured Warhost) is for a VEHICLE that can FLY: War Walkers (VEHICLE, no FLY) charged are not offered it', () => {
    const g = aeldari([
      { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', at: { x: 20, y: 5 } },
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 25 } },
      ST,
    ], 'Armoured Warhost', { phase: 'charge' });
    expect(g.state.units.WW.keywords).toContain('VEHICLE');
    expect(g.state.units.WW.keywords).not.toContain('FLY');
    expect(offeredUnits(g, { name: 'charge/after-enemy-charge-declared', unit: 'ST', targets: ['WW', 'WS'] }, 0, 'ANTI-GRAV REPULSION')).toEqual(['WS']);
  });
});

describe('Defend at All Costs (Guardian Battlehost)', () => {
  it('War Walkers on an objective marker: +1 to the Hit roll; off it, none', () => {
    const marker = { x: 22, y: 30 };
    const at = (x: number, y: number) => aeldari([{ id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', at: { x, y } }, ST], 'Guardian Battlehost', { turn: 0, objectives: [{ id: 'o1', pos: marker }] });
    const on = at(marker.x, marker.y - 1);
    const weapon = on.state.units.WW.models[0].weapons.find((w) => w !== 'War Walker feet' && !/close combat/i.test(w))!;
    expect(planFor(on, 'WW', 'ST', weapon).hitModifier).toBe(1);
    expect(planFor(at(5, 5), 'WW', 'ST', weapon).hitModifier).toBe(0);
  });
});

describe('BLOODY DANCE (Ghosts of the Webway)', () => {
  it('a Troupe 8" from the only enemy unit at the end of the opponent\'s Charge phase is not offered it; at 5.5" it is', () => {
    const chargeEnd = { name: 'phase/end' as const, unit: null, targets: [], data: { phase: 'charge' } };
    for (const [gap, offered] of [[5.5, ['TR']], [8, []]] as const) {
      const g = aeldari([{ id: 'TR', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 18 }, spacing: 1.2 }, { ...ST, at: { x: 30, y: 18 } }], 'Ghosts of the Webway', { phase: 'charge' });
      setGap(g, 'TR', 'ST', gap);
      expect(unitDistance(g.state, g.state.units.TR, g.state.units.ST)).toBeCloseTo(gap, 2);
      expect(offeredUnits(g, chargeEnd, 0, 'BLOODY DANCE'), `${gap}"`).toEqual(offered);
    }
  });
});

describe('Guiding Presence', () => {
  it('a War Walker 8" from the bearer is chosen (the range is 9"); at 10" none is', () => {
    for (const [gap, chosen] of [[8, true], [10, false]] as const) {
      const g = battleSandbox([
        { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 20, y: 20 }, enhancement: 'Guiding Presence' },
        { id: 'WW', player: 0, faction: 'aeldari', name: 'War Walkers', counts: [1], at: { x: 34, y: 20 } },
        ST,
      ], { factions: ['AE', 'TAU'], detachments: ['Armoured Warhost', null], phase: 'shooting', turn: 0 });
      setGap(g, 'WW', 'FS', gap);
      expect(unitDistance(g.state, g.state.units.WW, g.state.units.FS)).toBeCloseTo(gap, 2);
      getRule('Guiding Presence')!.phaseStart!(g, g.state.units.FS, 'shooting');
      expect(g.state.effects.some((e) => e.kind === 'Guiding Presence' && e.unit === 'WW'), `${gap}"`).toBe(chosen);
    }
  });
});
