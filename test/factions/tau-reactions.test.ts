/**
 * Abilities that answer an enemy unit's choice of targets (Rule.enemyTargeted, Rule.enemyShot): Nova
 * Shielding (R'varna), Duality Shield (Aun'va) and Kroot Packmates (Krootox Riders).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

/** Player 0 (T'au) answers `kind` with `answer`; the Aeldari attack in their Shooting phase. */
function sandbox(units: PlacedUnit[], kind: string, answer: 'keep' | 'use', asked: DecisionRequest[]): Game {
  const pick = (r: DecisionRequest) => { asked.push(r); return r.kind === kind ? (r.options as string[]).indexOf(answer) : 0; };
  return battleSandbox(units, { phase: 'shooting', turn: 1, round: 2, agents: [scriptedAgent('tau', pick), scriptedAgent('ae')] });
}

const count = (asked: DecisionRequest[], kind: string) => asked.filter((r) => r.kind === kind).length;

describe('Nova Shielding', () => {
  const units: PlacedUnit[] = [
    { id: 'R', player: 0, faction: 'tau', name: "R'varna Battlesuit", at: { x: 10, y: 20 } },
    { id: 'WG', player: 1, faction: 'aeldari', name: 'Wraithguard', at: { x: 20, y: 20 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 30 } },
  ];

  it('once per battle, when targeted by ranged attacks: until the end of the phase, -1 to wound for attacks with Strength above its Toughness', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox(units, 'nova-shielding', 'use', asked);
    expect(planFor(g, 'WG', 'R', 'Wraithcannon').woundModifier).toBe(0);
    shootWithUnit(g, g.state.units.WG);
    expect(count(asked, 'nova-shielding')).toBe(1);
    expect(planFor(g, 'WG', 'R', 'Wraithcannon').woundModifier).toBe(-1);
    // Strength 4 against Toughness 10: unchanged
    expect(planFor(g, 'GD', 'R', 'Shuriken catapult').woundModifier).toBe(0);
    // used: not offered again
    shootWithUnit(g, g.state.units.GD);
    expect(count(asked, 'nova-shielding')).toBe(1);
  });

  it('kept: no change', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox(units, 'nova-shielding', 'keep', asked);
    shootWithUnit(g, g.state.units.WG);
    expect(count(asked, 'nova-shielding')).toBe(1);
    expect(planFor(g, 'WG', 'R', 'Wraithcannon').woundModifier).toBe(0);
  });
});

describe('Duality Shield', () => {
  it('once per battle, when his unit is targeted: a 2+ invulnerable save until the end of the phase', () => {
    const units: PlacedUnit[] = [
      { id: 'AV', player: 0, faction: 'tau', name: "Aun'va", at: { x: 10, y: 20 }, spacing: 1 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 20 } },
    ];
    const asked: DecisionRequest[] = [];
    const g = sandbox(units, 'duality-shield', 'use', asked);
    expect(planFor(g, 'GD', 'AV', 'Shuriken catapult').invulnerable).toBeNull();
    shootWithUnit(g, g.state.units.GD);
    expect(count(asked, 'duality-shield')).toBe(1);
    expect(planFor(g, 'GD', 'AV', 'Shuriken catapult').invulnerable).toBe(2);
    const kept: DecisionRequest[] = [];
    const k = sandbox(units, 'duality-shield', 'keep', kept);
    shootWithUnit(k, k.state.units.GD);
    expect(planFor(k, 'GD', 'AV', 'Shuriken catapult').invulnerable).toBeNull();
  });
});

describe('Kroot Packmates', () => {
  const units = (gap: number): PlacedUnit[] => [
    { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 20 }, spacing: 1 },
    { id: 'KR', player: 0, faction: 'tau', name: 'Krootox Riders', at: { x: 10 - gap, y: 20 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 20 }, spacing: 1 },
    { id: 'G2', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 32 }, spacing: 1 },
  ];
  const hitRollsBy = (g: Game, unit: string) => (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit' && (e as { unit: string }).unit === unit).length;

  it('when a KROOT INFANTRY unit within 6" is targeted, the Krootox Riders shoot the attacker once it has shot; once per turn', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox(units(4), 'kroot-packmates', 'use', asked);
    shootWithUnit(g, g.state.units.GD);
    expect(count(asked, 'kroot-packmates')).toBe(1);
    const log = g.log ?? [];
    const lastGd = log.map((e, i) => (e.type === 'dice' && (e as { unit: string }).unit === 'GD' && e.purpose === 'hit' ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
    const firstKr = log.findIndex((e) => e.type === 'dice' && (e as { unit: string }).unit === 'KR' && e.purpose === 'hit');
    expect(hitRollsBy(g, 'KR')).toBeGreaterThan(0);
    expect(firstKr).toBeGreaterThan(lastGd);
    // once per turn: the second attacker is not answered
    shootWithUnit(g, g.state.units.G2);
    expect(count(asked, 'kroot-packmates')).toBe(1);
  });

  it('not when the Kroot unit is more than 6" away, nor when the player keeps it', () => {
    const far: DecisionRequest[] = [];
    const g = sandbox(units(12), 'kroot-packmates', 'use', far);
    shootWithUnit(g, g.state.units.GD);
    expect(count(far, 'kroot-packmates')).toBe(0);
    expect(hitRollsBy(g, 'KR')).toBe(0);
    const kept: DecisionRequest[] = [];
    const k = sandbox(units(4), 'kroot-packmates', 'keep', kept);
    shootWithUnit(k, k.state.units.GD);
    expect(count(kept, 'kroot-packmates')).toBe(1);
    expect(hitRollsBy(k, 'KR')).toBe(0);
  });
});
