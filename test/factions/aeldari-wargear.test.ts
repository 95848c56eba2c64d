/**
 * Aeldari wargear abilities played for their bearers: invulnerable saves, Damage taken off, Damage 0 after a
 * failed save, weapon abilities, keywords, and the Shadow Field that fails once.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit, type BattleSandboxOptions } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import { weapon } from '../helpers/attack.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { invulnerableOf } from '../../src/rules/damage.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';

const enemy: PlacedUnit = { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } };

function sandbox(units: PlacedUnit[], opts: BattleSandboxOptions = {}): Game {
  return battleSandbox([enemy, ...units], { phase: 'shooting', ...opts });
}

const inv = (g: Game, unit: string, i: number) => invulnerableOf(g.state, g.state.units[unit], g.state.units[unit].models[i]);

/** The Strike Team fires `gun` (TORRENT, so no Hit roll) at the target with one model. */
function shoot(g: Game, target: string, gun: ReturnType<typeof weapon>) {
  const A = g.state.units.ST;
  return resolveAttacks(g, A, [{ weapon: gun, profile: gun.profiles[0], models: [A.models[0]], target, halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
}

describe('invulnerable saves from wargear', () => {
  it('Serpent Shield: every model of the Storm Guardians has a 5+ while the Serpent\'s Scale Platform lives', () => {
    const g = sandbox([{ id: 'SG', player: 1, faction: 'aeldari', name: 'Storm Guardians', at: { x: 40, y: 10 } }]);
    const SG = g.state.units.SG;
    const platform = SG.models.find((m) => m.name === "Serpent's Scale Platform")!;
    expect(platform.wargear).toEqual(['Serpent Shield']);
    expect(inv(g, 'SG', 0)).toBe(5);
    expect(invulnerableOf(g.state, SG, platform)).toBe(5);
    platform.alive = false;
    expect(inv(g, 'SG', 0)).toBeNull();
  });

  it('Shimmershield, Forceshield, Mistshield: the bearer has a 4+, the others of its unit keep their own', () => {
    const g = sandbox([
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 10 }, wargear: [['Shimmershield'], []] },
      { id: 'WB', player: 1, faction: 'aeldari', name: 'Wraithblades', at: { x: 45, y: 10 }, wargear: [['Ghostaxe', 'Forceshield']] },
      { id: 'VR', player: 1, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 50, y: 10 }, wargear: [['Mistshield'], []] },
      { id: 'NW', player: 1, faction: 'aeldari', name: 'Wraithblades', at: { x: 55, y: 10 } },
    ]);
    // Dire Avengers: the Exarch (first line) carries it; the others' profile gives 5+
    expect([inv(g, 'DA', 0), inv(g, 'DA', 1)]).toEqual([4, 5]);
    expect(inv(g, 'WB', 0)).toBe(4);
    expect([inv(g, 'VR', 0), inv(g, 'VR', 1)]).toEqual([4, null]);
    expect(inv(g, 'NW', 0)).toBeNull();
  });
});

describe('Scattershield', () => {
  // AP -4 against Sv 2+: the 4+ invulnerable save is made; Wound roll 6, save 1 (failed), Damage 3
  const gun = weapon({ attacks: '1', strength: 12, ap: -4, damage: '3', abilities: ['TORRENT'] });

  it('a Wraithknight\'s: a 4+ invulnerable save, and an attack allocated to it loses 1 Damage', () => {
    const g = sandbox([{ id: 'WK', player: 1, faction: 'aeldari', name: 'Wraithknight', at: { x: 40, y: 20 } }], { stream: scriptedStream([6, 1]) });
    expect(inv(g, 'WK', 0)).toBe(4);
    expect(shoot(g, 'WK', gun).woundsLost).toBe(2);
  });

  it('never below 1 Damage', () => {
    const g = sandbox([{ id: 'WK', player: 1, faction: 'aeldari', name: 'Wraithknight with Ghostglaive', at: { x: 40, y: 20 } }], { stream: scriptedStream([6, 1]) });
    expect(shoot(g, 'WK', weapon({ attacks: '1', strength: 12, ap: -4, damage: '1', abilities: ['TORRENT'] })).woundsLost).toBe(1);
  });

  it('a Skathach Wraithknight\'s gives only the save', () => {
    const g = sandbox([{ id: 'WK', player: 1, faction: 'aeldari', name: 'Skathach Wraithknight', at: { x: 40, y: 20 } }], { stream: scriptedStream([6, 1]) });
    expect(inv(g, 'WK', 0)).toBe(4);
    expect(shoot(g, 'WK', gun).woundsLost).toBe(3);
  });
});

describe('Faolchú', () => {
  it('while its bearer lives, the ranged weapons of its unit have IGNORES COVER', () => {
    const g = sandbox([
      { id: 'VS', player: 1, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 40, y: 10 }, wargear: [[], ['Faolchú'], [], [], []] },
      { id: 'NV', player: 1, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 45, y: 10 } },
    ]);
    expect(g.state.units.VS.models[1].wargear).toEqual(['Faolchú']);
    // the Felarch (first model) fires: not the bearer, but of its unit
    const covered = planFor(g, 'VS', 'ST', 'Shuriken pistol', { cover: true });
    expect([covered.ignoresCover, covered.cover]).toEqual([true, false]);
    expect(planFor(g, 'NV', 'ST', 'Shuriken pistol', { cover: true }).cover).toBe(true);
    for (const m of g.state.units.VS.models) if (m.wargear) m.alive = false;
    expect(planFor(g, 'VS', 'ST', 'Shuriken pistol', { cover: true }).cover).toBe(true);
  });
});

describe('Grav-talon (Ynnari Reavers)', () => {
  it('the bearer\'s melee weapons have LANCE: +1 to wound after its unit charged', () => {
    const g = sandbox([
      { id: 'RB', player: 1, faction: 'aeldari', name: 'Ynnari Reavers', at: { x: 40, y: 10 }, wargear: [['Grav-talon'], []] },
      { id: 'RN', player: 1, faction: 'aeldari', name: 'Ynnari Reavers', at: { x: 45, y: 10 }, wargear: [[], ['Grav-talon']] },
    ]);
    expect(planFor(g, 'RB', 'ST', 'Bladevanes').woundModifier).toBe(0);
    g.state.units.RB.flags.charged = true;
    g.state.units.RN.flags.charged = true;
    // the Arena Champion (first model) carries one in RB, not in RN
    expect(planFor(g, 'RB', 'ST', 'Bladevanes').woundModifier).toBe(1);
    expect(planFor(g, 'RN', 'ST', 'Bladevanes').woundModifier).toBe(0);
    // not its ranged weapons
    expect(planFor(g, 'RB', 'ST', 'Splinter rifle').woundModifier).toBe(0);
  });
});

describe('Phantasm Grenade Launcher (Ynnari Kabalite Warriors)', () => {
  it('the bearer\'s unit has the GRENADES keyword', () => {
    const g = sandbox([
      { id: 'KW', player: 1, faction: 'aeldari', name: 'Ynnari Kabalite Warriors', at: { x: 40, y: 10 }, wargear: [['Phantasm Grenade Launcher'], []] },
      { id: 'NK', player: 1, faction: 'aeldari', name: 'Ynnari Kabalite Warriors', at: { x: 45, y: 10 } },
    ]);
    expect(g.state.units.KW.keywords).toContain('GRENADES');
    expect(g.state.units.NK.keywords).not.toContain('GRENADES');
  });
});

describe('Channeller Stones', () => {
  // three Damage 1 attacks, AP 0 against Sv 4+: Wound rolls 6, 6, 6, saves 1, 1, 1 (one at a time)
  const gun = weapon({ attacks: '3', strength: 4, ap: 0, damage: '1', abilities: ['TORRENT'] });
  const units = (wargear?: string[][]): PlacedUnit[] => [
    { id: 'VS', player: 1, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 40, y: 10 }, counts: [1, 4, 0, 1, 0], ...(wargear ? { wargear } : {}) },
  ];

  it('once per turn the first failed save of the bearer\'s unit does no damage', () => {
    const g = sandbox(units(), { stream: scriptedStream([6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1]) });
    const bearer = g.state.units.VS.models.find((m) => m.name === 'Soul Weaver')!;
    expect(bearer.wargear).toEqual(['Channeller Stones']);
    expect(shoot(g, 'VS', gun).woundsLost).toBe(2);
    // the same turn: no more
    expect(shoot(g, 'VS', gun).woundsLost).toBe(3);
  });

  it('again the next turn; not once its bearer is dead', () => {
    const g = sandbox(units(), { stream: scriptedStream([6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1]) });
    const VS = g.state.units.VS;
    g.emit({ type: 'rule-state', player: 1, key: `Channeller Stones:VS`, value: `${g.state.round}:${g.state.turn}` });
    g.state.turn = 1;
    expect(shoot(g, 'VS', gun).woundsLost).toBe(2);
    g.state.round++;
    VS.models.find((m) => m.name === 'Soul Weaver')!.alive = false;
    expect(shoot(g, 'VS', gun).woundsLost).toBe(3);
  });
});

describe('Shadow Field (Ynnari Archon)', () => {
  const gun = weapon({ attacks: '3', strength: 4, ap: -3, damage: '1', abilities: ['TORRENT'] });

  it('after its first failed invulnerable save the bearer has none for the rest of the battle', () => {
    // Wound rolls 6, 6, 6; the 2+ invulnerable save fails (1); then Sv 4+ with AP -3 cannot be passed
    const g = sandbox([{ id: 'AR', player: 1, faction: 'aeldari', name: 'Ynnari Archon', at: { x: 40, y: 10 } }], { stream: scriptedStream([6, 6, 6, 1, 6, 6]) });
    expect(inv(g, 'AR', 0)).toBe(2);
    expect(shoot(g, 'AR', gun).woundsLost).toBe(3);
    expect(inv(g, 'AR', 0)).toBeNull();
  });

  it('its invulnerable saving throws cannot be re-rolled (no COMMAND RE-ROLL offered)', () => {
    const offered: string[] = [];
    const ae = scriptedAgent('ae', (r: DecisionRequest) => {
      if (r.kind === 'stratagem' && (r.options as { stratagem?: string }[]).some((o) => o.stratagem === 'COMMAND RE-ROLL')) offered.push(r.prompt);
      return 0;
    });
    // the invulnerable save passes (6), fails (1), then no save is possible
    const g = sandbox([{ id: 'AR', player: 1, faction: 'aeldari', name: 'Ynnari Archon', at: { x: 40, y: 10 } }], {
      stream: scriptedStream([6, 6, 6, 6, 1]), cp: [0, 3], agents: [scriptedAgent('tau'), ae],
    });
    expect(shoot(g, 'AR', gun).woundsLost).toBe(2);
    expect(offered).toEqual([]);
  });
});
