/**
 * T'au Empire datasheet abilities of Kroot units (Farstalkers, War Shaper, Krootox Rampagers, Knarloc
 * Riders, Great Knarloc, Lone-Spear: src/factions/tau/kroot.ts), of Shas'o R'alai, Aun'va and Darkstrider's
 * Jammer Array (leaders.ts) and of the Stormsurge (battlesuits.ts): one test (or more) each, with the
 * rule's condition met and not met, so that it fails if the ability is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { planFor } from '../helpers/plan.ts';
import type { Game } from '../../src/core/game.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { stratagemDiscount } from '../../src/rules/windows.ts';
import { startPhase } from '../../src/rules/battle/phase.ts';
import { advanceDistance, planMove } from '../../src/rules/battle/movement.ts';
import { rollModifier } from '../../src/rules/battle/units.ts';
import { battleShockTest } from '../../src/rules/battle/command.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { hookedChargeBonus } from '../../src/rules/battle/hooked.ts';
import { unitDistance, unitsInEngagement } from '../../src/rules/battle/world.ts';
import { arrive } from '../../src/rules/battle/reserves.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { bodyguardCandidates } from '../../src/rules/battle/formations.ts';
import { createStream } from '../../src/core/rng.ts';

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { phase: 'shooting', ...opts });
}

const events = (g: Game): GameEvent[] => (g.log ?? []) as GameEvent[];

describe('Kroot Farstalkers', () => {
  function farstalkers(quarry: string, asked: DecisionRequest[] = []): Game {
    const pick = (r: DecisionRequest) => {
      asked.push(r);
      return r.kind === 'bounty-hunters' ? (r.options as string[]).indexOf(quarry) : 0;
    };
    return sandbox([
      { id: 'FS', player: 0, faction: 'tau', name: 'Kroot Farstalkers', at: { x: 10, y: 5 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 30 } },
    ], { agents: [scriptedAgent('p0', pick), scriptedAgent('p1')] });
  }

  it('Bounty Hunters: at the start of the battle one enemy unit is picked; the unit\'s attacks against it (only) have LETHAL HITS and PRECISION', () => {
    const asked: DecisionRequest[] = [];
    const g = farstalkers('DA', asked);
    // before the pick: nothing
    expect(planFor(g, 'FS', 'DA', 'Farstalker firearm').lethalHits).toBe(false);
    getRule('Bounty Hunters')!.battleStart!(g, g.state.units.FS);
    expect(asked.map((r) => r.kind)).toEqual(['bounty-hunters']);
    expect(asked[0].options).toEqual(['GD', 'DA']);
    for (const w of ['Farstalker firearm', 'Close combat weapon']) {
      const p = planFor(g, 'FS', 'DA', w);
      expect([p.lethalHits, p.precision]).toEqual([true, true]);
      const other = planFor(g, 'FS', 'GD', w);
      expect([other.lethalHits, other.precision]).toEqual([false, false]);
    }
    // another unit of the army against the quarry: nothing
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').lethalHits).toBe(false);
  });

  it("Pech'ra: while its bearer lives, the unit's ranged attacks ignore cover (not its melee attacks, not without the Pech'ra)", () => {
    const g = sandbox([
      { id: 'FS', player: 0, faction: 'tau', name: 'Kroot Farstalkers', at: { x: 10, y: 5 }, wargear: [[], ["Pech'ra"]] },
      { id: 'F2', player: 0, faction: 'tau', name: 'Kroot Farstalkers', at: { x: 14, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ]);
    // planFor's attacker is the first model with the weapon, the Kill-broker, who does not carry it
    const withCover = (a: string, w: string) => planFor(g, a, 'GD', w, { cover: true });
    expect([withCover('FS', 'Farstalker firearm').cover, withCover('FS', 'Kroot pistol').cover]).toEqual([false, false]);
    expect(withCover('F2', 'Farstalker firearm').cover).toBe(true);
    const fs = g.state.units.FS;
    // the bearer dies: cover counts again
    for (const m of fs.models) if (m.wargear?.includes("Pech'ra")) m.alive = false;
    expect(withCover('FS', 'Farstalker firearm').cover).toBe(true);
  });
});

describe('Kroot War Shaper', () => {
  it('War Leader: once per battle round a stratagem on his unit may cost 1CP less; not on another unit', () => {
    const g = sandbox([
      { id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 10, y: 5 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 20 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ]);
    const overwatch = allStratagems().find((s) => s.name === 'FIRE OVERWATCH')!;
    const d = stratagemDiscount(g, g.state.units.WS, overwatch);
    expect([d?.rule.name, d?.amount]).toEqual(['War Leader', 1]);
    expect(stratagemDiscount(g, g.state.units.KC, overwatch)).toBeNull();
    d!.rule.stratagemDiscountUsed!(g, g.state.units.WS, d!.src);
    expect(stratagemDiscount(g, g.state.units.WS, overwatch)).toBeNull();
    g.emit({ type: 'round-started', round: 2 });
    expect(stratagemDiscount(g, g.state.units.WS, overwatch)?.amount).toBe(1);
  });

  /** The War Shaper at (10, 5); Carnivores NEAR 3" off, Carnivores FAR 25" off, a Strike Team ST 3" off: all Battle-shocked. */
  function rooted(pickUnit: string | null, asked: DecisionRequest[]): Game {
    const pick = (r: DecisionRequest) => {
      if (r.kind !== 'root-of-honour') return 0;
      asked.push(r);
      const opts = r.options as ({ unit: string } | { none: true })[];
      return opts.findIndex((o) => (pickUnit === null ? 'none' in o : 'unit' in o && o.unit === pickUnit));
    };
    const g = sandbox([
      { id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 10, y: 5 } },
      { id: 'NEAR', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 13, y: 5 } },
      { id: 'FAR', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 40, y: 30 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 7, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 5 } },
    ], { phase: 'command', agents: [scriptedAgent('p0', pick), scriptedAgent('p1')] });
    for (const u of ['NEAR', 'FAR', 'ST']) g.emit({ type: 'battle-shock', unit: u, value: true });
    return g;
  }

  it('Root of Honour: at the start of a phase a Battle-shocked KROOT unit within 12" stops being Battle-shocked; once per battle', () => {
    const asked: DecisionRequest[] = [];
    const g = rooted('NEAR', asked);
    startPhase(g, 0, 'movement');
    expect(asked).toHaveLength(1);
    // neither the far Kroot unit nor the near non-Kroot unit is offered
    expect(asked[0].options).toEqual([{ unit: 'NEAR' }, { none: true }]);
    expect(g.state.units.NEAR.battleShocked).toBe(false);
    expect(g.state.units.FAR.battleShocked).toBe(true);
    expect(g.state.units.ST.battleShocked).toBe(true);
    // used: never offered again
    g.emit({ type: 'battle-shock', unit: 'NEAR', value: true });
    startPhase(g, 0, 'shooting');
    expect(asked).toHaveLength(1);
    expect(g.state.units.NEAR.battleShocked).toBe(true);
  });

  it('Root of Honour: kept when declined (offered again next phase); not offered at the start of his own Command phase', () => {
    const asked: DecisionRequest[] = [];
    const g = rooted(null, asked);
    startPhase(g, 0, 'command');
    expect(asked).toHaveLength(0);
    startPhase(g, 0, 'movement');
    expect(asked).toHaveLength(1);
    expect(g.state.units.NEAR.battleShocked).toBe(true);
    startPhase(g, 0, 'shooting');
    expect(asked).toHaveLength(2);
  });
});

describe('Krootox Rampagers', () => {
  /** Rampagers (3 models, `spacing` apart along y) 0.5" from `enemy` (edge to edge, first models). */
  function rampagers(enemy: string, dice: number[], spacing = 1.6): Game {
    const g = sandbox([
      { id: 'RA', player: 0, faction: 'tau', name: 'Krootox Rampagers', at: { x: 20, y: 10 }, spacing },
      { id: 'EN', player: 1, faction: 'aeldari', name: enemy, at: { x: 30, y: 10 } },
    ], { phase: 'charge', stream: scriptedStream(dice) });
    setGap(g, 'RA', 'EN', 0.5);
    return g;
  }
  const linebreakers = (g: Game) => getRule('Kroot Linebreakers')!.afterChargeMove!(g, g.state.units.RA);
  const alive = (g: Game, u: string) => g.state.units[u].models.filter((m) => m.alive).length;

  it('Kroot Linebreakers: a D6 per model in Engagement Range, D3 mortal wounds for each 4+; a model destroyed: Battle-shock test', () => {
    // three D6 (4, 3, 6: two succeed), two D3 (2, 3), then the Battle-shock test's 2D6
    const g = rampagers('Guardian Defenders', [4, 3, 6, 2, 3, 6, 6]);
    const before = alive(g, 'EN');
    linebreakers(g);
    let wounds = 0;
    for (const e of events(g)) if (e.type === 'model-damaged' && e.mortal && e.by === 'RA') wounds += e.wounds;
    expect(wounds).toBe(5);
    expect(alive(g, 'EN')).toBeLessThan(before);
    const shock = events(g).filter((e) => e.type === 'dice' && e.purpose === 'battle-shock');
    expect(shock).toHaveLength(1);
    expect(g.state.units.EN.battleShocked).toBe(false);
  });

  it('Kroot Linebreakers: no 4+, no mortal wounds and no Battle-shock test (the script has no more dice)', () => {
    const g = rampagers('Guardian Defenders', [1, 3, 2]);
    const before = alive(g, 'EN');
    linebreakers(g);
    expect(alive(g, 'EN')).toBe(before);
  });

  it('Kroot Linebreakers: only the models within Engagement Range roll; mortal wounds that kill no model: no Battle-shock test', () => {
    // 4" apart along y: only the first Rampager is in Engagement Range of the Autarch: one D6, one D3
    const g = rampagers('Autarch', [5, 2], 4);
    const w = g.state.units.EN.models[0].wounds;
    linebreakers(g);
    expect(g.state.units.EN.models[0].wounds).toBe(w - 2);
    expect(events(g).some((e) => e.type === 'dice' && e.purpose === 'battle-shock')).toBe(false);
  });

  it('Kroot Linebreakers is rolled when the unit ends a Charge move (declareCharge), not when the charge fails', () => {
    const run = (gap: number) => {
      const g = sandbox([
        { id: 'RA', player: 0, faction: 'tau', name: 'Krootox Rampagers', at: { x: 20, y: 10 } },
        { id: 'EN', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 10 } },
      ], { phase: 'charge', stream: createStream('linebreakers') });
      setGap(g, 'RA', 'EN', gap);
      const ok = declareCharge(g, g.state.units.RA, { targets: ['EN'] });
      return { ok, rolled: events(g).some((e) => e.type === 'dice' && (e.label ?? '').startsWith('Kroot Linebreakers')), g };
    };
    const near = run(1.5);
    expect(near.ok).toBe(true);
    expect(unitsInEngagement(near.g.state, near.g.state.units.RA, near.g.state.units.EN)).toBe(true);
    expect(near.rolled).toBe(true);
    const far = run(13);
    expect(far.ok).toBe(false);
    expect(far.rolled).toBe(false);
  });
});

describe('Knarloc Riders and Great Knarloc', () => {
  it('Thunderous Pounce: after a Charge move this turn the Knarloc beak and talons have LANCE (+1 to wound); not the Kroot rifles, not without the charge', () => {
    const g = sandbox([
      { id: 'KR', player: 0, faction: 'tau', name: 'Knarloc Riders', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ]);
    expect(planFor(g, 'KR', 'GD', 'Knarloc beak and talons').woundModifier).toBe(0);
    g.emit({ type: 'unit-flag', unit: 'KR', flag: 'charged', value: true });
    expect(planFor(g, 'KR', 'GD', 'Knarloc beak and talons').woundModifier).toBe(1);
    expect(planFor(g, 'KR', 'GD', 'Kroot rifle').woundModifier).toBe(0);
  });

  it('Loping Stride: the Great Knarloc\'s Advance is not rolled and adds 6"; the Knarloc Riders roll theirs', () => {
    const g = sandbox([
      { id: 'GK', player: 0, faction: 'tau', name: 'Great Knarloc', at: { x: 10, y: 5 } },
      { id: 'KR', player: 0, faction: 'tau', name: 'Knarloc Riders', at: { x: 10, y: 20 } },
    ], { phase: 'movement', stream: scriptedStream([2]) });
    expect(advanceDistance(g, g.state.units.GK)).toBe(6);
    expect(advanceDistance(g, g.state.units.KR)).toBe(2);
  });

  describe('HOOKED (the Kroot bolt thrower)', () => {
    /** A Great Knarloc with a Kroot bolt thrower 8" from a Falcon (a VEHICLE) and Guardian Defenders; the Aeldari player records the stratagems offered. */
    function knarloc(dice: number[], offered: string[] = []): Game {
      const g = sandbox([
        { id: 'GK', player: 0, faction: 'tau', name: 'Great Knarloc', at: { x: 10, y: 10 } },
        { id: 'FA', player: 1, faction: 'aeldari', name: 'Falcon', at: { x: 20, y: 10 } },
        { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 19 } },
      ], {
        phase: 'shooting', cp: [3, 3], stream: scriptedStream(dice),
        agents: [scriptedAgent('tau'), scriptedAgent('ae', (r) => {
          if (r.kind === 'stratagem') for (const o of r.options as { stratagem?: string }[]) if (o.stratagem) offered.push(o.stratagem);
          return 0;
        })],
      });
      g.state.units.GK.models[0].weapons = ['Kroot bolt thrower'];
      return g;
    }
    const hooked = (g: Game) => g.state.effects.filter((e) => e.kind === 'Hooked').map((e) => e.params.target);

    it('a hit on a VEHICLE or MONSTER unit hooks it until the end of the turn; a miss or another unit does not', () => {
      const hit = knarloc([5, 6, 1]);
      shootWithUnit(hit, hit.state.units.GK, { onlyTarget: 'FA' });
      expect(hooked(hit)).toEqual(['FA']);
      expireEffects(hit, { at: 'end-of-turn', round: 1, turn: 0 });
      expect(hooked(hit)).toEqual([]);
      const miss = knarloc([3]);
      shootWithUnit(miss, miss.state.units.GK, { onlyTarget: 'FA' });
      expect(hooked(miss)).toEqual([]);
      const infantry = knarloc([6, 6, 1]);
      shootWithUnit(infantry, infantry.state.units.GK, { onlyTarget: 'GD' });
      expect(hooked(infantry)).toEqual([]);
    });

    it('charging the hooked unit: +2 to the Charge roll and no FIRE OVERWATCH at the Knarloc; charging another unit: neither', () => {
      const run = (target: string) => {
        const offered: string[] = [];
        const g = knarloc([5, 6, 1, 3, 2], offered);
        shootWithUnit(g, g.state.units.GK, { onlyTarget: 'FA' });
        g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'charge' });
        // before the charge is declared, the agents reckon with the +2 at the hooked unit only
        expect(hookedChargeBonus(g.state, g.state.units.GK, [target])).toBe(target === 'FA' ? 2 : 0);
        declareCharge(g, g.state.units.GK, { targets: [target] });
        // once declared, the Charge roll's modifier carries it: not counted twice
        expect(hookedChargeBonus(g.state, g.state.units.GK, [target])).toBe(0);
        const roll = g.log!.filter((e) => e.type === 'dice' && e.purpose === 'charge');
        return { offered, modifier: rollModifier(g.state, g.state.units.GK, 'charge'), roll: roll.length };
      };
      const atFalcon = run('FA');
      expect(atFalcon.roll).toBe(1);
      expect(atFalcon.modifier).toBe(2);
      expect(atFalcon.offered).not.toContain('FIRE OVERWATCH');
      const atGuardians = run('GD');
      expect(atGuardians.modifier).toBe(0);
      expect(atGuardians.offered).toContain('FIRE OVERWATCH');
    });
  });
});

describe('Kroot Lone-Spear', () => {
  it('Advanced Scouting: once it has hit an enemy unit, other KROOT units re-roll the Hit roll against it until the end of the turn', () => {
    const g = sandbox([
      { id: 'LS', player: 0, faction: 'tau', name: 'Kroot Lone-Spear', at: { x: 10, y: 5 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 10 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 5, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 30 } },
    ]);
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('none');
    // a melee hit does not count
    getRule('Advanced Scouting')!.afterAttacks!(g, g.state.units.LS, ['GD'], true, null);
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('none');
    getRule('Advanced Scouting')!.afterAttacks!(g, g.state.units.LS, ['GD'], false, null);
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('failed');
    expect(planFor(g, 'KC', 'GD', 'Close combat weapon').rerollHits).toBe('failed');
    // another target, a non-Kroot unit, the Lone-Spear itself: no
    expect(planFor(g, 'KC', 'DA', 'Kroot rifle').rerollHits).toBe('none');
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').rerollHits).toBe('none');
    expect(planFor(g, 'LS', 'GD', 'Kroot long gun').rerollHits).toBe('none');
    // until the end of the turn
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 0 });
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('none');
  });
});

describe('Kroot Lone-Spear out of its Shooting phase', () => {
  it('Advanced Scouting: a hit made shooting in the opponent\'s turn (Fire Overwatch) counts too', () => {
    // the Lone-Spear's long gun shoots at the Guardians in the Aeldari player's Movement phase: a 6 hits,
    // then the Wound roll (a 1) and nothing more
    const g = sandbox([
      { id: 'LS', player: 0, faction: 'tau', name: 'Kroot Lone-Spear', at: { x: 10, y: 5 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { phase: 'movement', turn: 1, stream: scriptedStream([6, 1]) });
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('none');
    shootWithUnit(g, g.state.units.LS, { onlyTarget: 'GD' });
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle').rerollHits).toBe('failed');
  });
});

describe("Shas'o R'alai", () => {
  function ralai(attached: boolean): Game {
    const g = sandbox([
      { id: 'BG', player: 0, faction: 'tau', name: 'Xv9 Hazard Battlesuits', at: { x: 10, y: 5 } },
      { id: 'LD', player: 0, faction: 'tau', name: "Shas'o R'alai", at: { x: 13, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'AU', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 30, y: 30 } },
    ]);
    if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    return g;
  }

  it('Eclipse Field Generator: the models of the unit he leads have a 5+ invulnerable save; not when he leads no unit', () => {
    expect(planFor(ralai(true), 'GD', 'BG', 'Shuriken catapult').invulnerable).toBe(5);
    const alone = ralai(false);
    expect(planFor(alone, 'GD', 'BG', 'Shuriken catapult').invulnerable).toBeNull();
    expect(planFor(alone, 'GD', 'LD', 'Shuriken catapult').invulnerable).toBeNull();
  });

  it('Assassin: his attacks against a CHARACTER unit re-roll the Hit roll; not against others, not his Bodyguard\'s', () => {
    const g = ralai(true);
    expect(planFor(g, 'BG', 'AU', 'Experimental pulse submunitions rifle').rerollHits).toBe('failed');
    expect(planFor(g, 'BG', 'GD', 'Experimental pulse submunitions rifle').rerollHits).toBe('none');
    const hazard = g.state.units.BG.models.find((m) => m.origin === 'BG')!;
    const weapon = hazard.weapons.find((w) => w !== 'Battlesuit fists')!;
    expect(planFor(g, 'BG', 'AU', weapon).rerollHits).toBe('none');
  });
});

describe("Aun'va", () => {
  function aunva(dice: number[] = []): Game {
    return sandbox([
      { id: 'AV', player: 0, faction: 'tau', name: "Aun'va", at: { x: 10, y: 5 } },
      { id: 'NEAR', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 5 } },
      { id: 'FAR', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 13, y: 12 } },
      // a friendly unit that is not T'AU EMPIRE, within 6"
      { id: 'AL', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 7, y: 5 } },
    ], { phase: 'command', stream: scriptedStream(dice) });
  }

  it('Paradox of Duality: attacks that target his unit subtract 1 from the Hit and the Wound roll; not attacks on another unit', () => {
    const g = aunva();
    const p = planFor(g, 'GD', 'AV', 'Shuriken catapult');
    expect([p.hitModifier, p.woundModifier]).toEqual([-1, -1]);
    const q = planFor(g, 'GD', 'NEAR', 'Shuriken catapult');
    expect([q.hitModifier, q.woundModifier]).toEqual([0, 0]);
    // his unit's own attacks: no
    const r = planFor(g, 'AV', 'DA', 'Supreme honour blade');
    expect([r.hitModifier, r.woundModifier]).toEqual([0, 0]);
  });

  it('Supreme Loyalty (Aura): +1 to Battle-shock tests of friendly T\'AU EMPIRE units within 6" (his own once); not far units nor enemies', () => {
    const g = aunva();
    const s = g.state;
    expect(rollModifier(s, s.units.NEAR, 'battle-shock')).toBe(1);
    expect(rollModifier(s, s.units.AV, 'battle-shock')).toBe(1);
    expect(rollModifier(s, s.units.FAR, 'battle-shock')).toBe(0);
    expect(rollModifier(s, s.units.DA, 'battle-shock')).toBe(0);
    expect(rollModifier(s, s.units.AL, 'battle-shock')).toBe(0);
    expect(rollModifier(s, s.units.NEAR, 'charge')).toBe(0);
  });

  it('Supreme Loyalty (Aura): a Battle-shock test one short of the Leadership passes within 6", fails out of it', () => {
    const g = aunva([3, 3, 3, 3]);
    const ld = 7; // Strike Team: Leadership 7+
    expect(g.state.datasheets[g.state.units.NEAR.models[0].datasheet].models[g.state.units.NEAR.models[0].profile].leadership).toBe(ld);
    expect(battleShockTest(g, 0, 'NEAR')).toBe(true);
    expect(battleShockTest(g, 0, 'FAR')).toBe(false);
  });
});

describe('Stormsurge', () => {
  function stormsurges(): Game {
    return sandbox([
      { id: 'SS', player: 0, faction: 'tau', name: 'Stormsurge', at: { x: 10, y: 10 } },
      { id: 'EN', player: 1, faction: 'tau', name: 'Stormsurge', at: { x: 40, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 40, y: 30 } },
    ]);
  }

  it('Titan-killer: its ranged attacks against a TITANIC or TOWERING unit re-roll the Hit roll; not against others', () => {
    const g = stormsurges();
    expect(planFor(g, 'SS', 'EN', 'Destroyer missiles').rerollHits).toBe('failed');
    expect(planFor(g, 'SS', 'GD', 'Destroyer missiles').rerollHits).toBe('none');
    expect(planFor(g, 'SS', 'EN', 'Thunderous footfalls').rerollHits).toBe('none');
  });

  it('Heavy Walker: its Normal move passes over a line of enemy models across the board; a Wraithlord (no such rule) cannot', () => {
    const across = (name: string, faction: 'tau' | 'aeldari') => {
      // four Guardian Defenders units in a line at x 20, y 0 to 44: no way around
      const wall: PlacedUnit[] = [0, 1, 2, 3].map((k) => ({ id: `W${k}`, player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [10, 1], at: { x: 20, y: 0.6 + 11 * k }, spacing: 1.05 }));
      // no objective marker in the way (the sandbox's central one would stop the Stormsurge's base short)
      const g = sandbox([{ id: 'U', player: 0, faction, name, at: { x: 8, y: 22 } }, ...wall], { objectives: [] });
      const plan = planMove(g.state, g.state.units.U, 'normal', { x: 34, y: 22 }, 26);
      return plan.ok ? Math.max(...plan.positions.map((p) => p.x)) : null;
    };
    expect(across('Stormsurge', 'tau')).toBeCloseTo(34, 6);
    const blocked = across('Wraithlord', 'aeldari');
    expect(blocked === null || blocked < 20).toBe(true);
  });

  it('Support System: its ranged attacks ignore Hit roll modifiers; its melee attacks do not', () => {
    const g = stormsurges();
    expect(planFor(g, 'SS', 'GD', 'Destroyer missiles').ignoreHitModifiers).toBe(true);
    expect(planFor(g, 'SS', 'GD', 'Thunderous footfalls').ignoreHitModifiers).toBe(false);
    expect(planFor(g, 'GD', 'SS', 'Shuriken catapult').ignoreHitModifiers).toBe(false);
  });
});

describe('Darkstrider', () => {
  /** A Crisis Battlesuits unit of player 0 in Reserves (Deep Strike or Strategic), in battle round 2; `enemy` of player 1 at (30, 22) or (16, 22). */
  function reserves(enemy: string, how: 'deep-strike' | 'strategic-reserves'): { g: Game; ok: boolean; gap: number } {
    const at = how === 'deep-strike' ? { x: 30, y: 22 } : { x: 16, y: 22 };
    const g = sandbox([
      { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 5, y: 5 } },
      { id: 'EN', player: 1, faction: 'tau', name: enemy, at },
    ], { phase: 'movement', round: 2 });
    g.emit({ type: 'unit-location', unit: 'CB', location: how === 'deep-strike' ? 'reserves' : 'strategic-reserves', embarkedIn: null });
    const ok = arrive(g, g.state.units.CB, { unit: 'CB', how, x: how === 'deep-strike' ? 40.5 : 3, y: 22 });
    return { g, ok, gap: ok ? unitDistance(g.state, g.state.units.CB, g.state.units.EN) : Infinity };
  }

  it('Jammer Array: an enemy unit Deep Striking is set up more than 12" from him (not just 9"); near a Cadre Fireblade it lands within 12"', () => {
    const fireblade = reserves('Cadre Fireblade', 'deep-strike');
    expect(fireblade.ok).toBe(true);
    expect(fireblade.gap).toBeGreaterThan(9);
    expect(fireblade.gap).toBeLessThan(12);
    const jammed = reserves('Darkstrider', 'deep-strike');
    expect(jammed.gap).toBeGreaterThan(12);
  });

  it('Jammer Array: the same for a unit arriving from Strategic Reserves', () => {
    const fireblade = reserves('Cadre Fireblade', 'strategic-reserves');
    expect(fireblade.ok).toBe(true);
    expect(fireblade.gap).toBeLessThan(12);
    const jammed = reserves('Darkstrider', 'strategic-reserves');
    expect(jammed.gap).toBeGreaterThan(12);
  });
});

describe('Kroot Carnivores: BODYGUARD', () => {
  it('the agent\'s Declare Battle Formations offers 20 Carnivores led by a Trail Shaper to a War Shaper, not to a second Trail Shaper; 10 Carnivores to no second Leader', () => {
    const g = sandbox([
      { id: 'K20', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1, 19], at: { x: 5, y: 5 }, spacing: 1 },
      { id: 'K10', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1, 9], at: { x: 5, y: 25 }, spacing: 1 },
      { id: 'TS', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 8, y: 5 } },
      { id: 'T2', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 8, y: 8 } },
      { id: 'WS', player: 0, faction: 'tau', name: 'Kroot War Shaper', at: { x: 8, y: 11 } },
    ]);
    // Declare Battle Formations comes before deployment: the units are not placed yet
    for (const id of ['K20', 'K10', 'TS', 'T2', 'WS']) g.emit({ type: 'unit-location', unit: id, location: 'unplaced', embarkedIn: null });
    const ids = (leader: string) => bodyguardCandidates(g, g.state.units[leader]).map((u) => u.id);
    expect(ids('WS')).toEqual(['K20', 'K10']);
    g.emit({ type: 'unit-attached', leader: 'TS', bodyguard: 'K20' });
    g.emit({ type: 'unit-attached', leader: 'T2', bodyguard: 'K10' });
    expect(ids('WS')).toEqual(['K20']);
    g.emit({ type: 'unit-attached', leader: 'WS', bodyguard: 'K20' });
    expect(g.state.units.K20.components.map((c) => c.unit)).toEqual(['K20', 'TS', 'WS']);
  });

  it('a second Leader of the same datasheet is not offered', () => {
    const g = sandbox([
      { id: 'K20', player: 0, faction: 'tau', name: 'Kroot Carnivores', counts: [1, 19], at: { x: 5, y: 5 }, spacing: 1 },
      { id: 'TS', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 8, y: 5 } },
      { id: 'T2', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 8, y: 8 } },
    ]);
    for (const id of ['K20', 'TS', 'T2']) g.emit({ type: 'unit-location', unit: id, location: 'unplaced', embarkedIn: null });
    g.emit({ type: 'unit-attached', leader: 'TS', bodyguard: 'K20' });
    expect(bodyguardCandidates(g, g.state.units.T2).map((u) => u.id)).toEqual([]);
  });
});
