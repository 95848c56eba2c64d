/**
 * T'au Empire datasheet abilities of the bundled armies: one test (or more) each, in a seeded
 * situation, with scripted dice or exact values, that fails if the ability is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { getRule, registerRule } from '../../src/core/rules-registry.ts';
import { createStream } from '../../src/core/rng.ts';
import { GUIDED, OBSERVER } from '../../src/factions/tau/army-rule.ts';
import { SUPPRESSED } from '../../src/factions/tau/datasheets.ts';
import { feelNoPainOf, inflictMortalWounds } from '../../src/rules/damage.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { canShoot, modelWeapons, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { canDisembark } from '../../src/rules/battle/transports.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';

type Pick = (r: DecisionRequest) => number;

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { phase: 'shooting', ...opts });
}

function agents(pick: Pick): [ReturnType<typeof scriptedAgent>, ReturnType<typeof scriptedAgent>] {
  return [scriptedAgent('tau', pick), scriptedAgent('ae')];
}

function effects(g: Game, kind: string) {
  return g.state.effects.filter((e) => e.kind === kind);
}

describe('Cadre Fireblade', () => {
  function fireblade(attached: boolean): Game {
    const g = sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'FB', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 11, y: 4 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ]);
    if (attached) g.emit({ type: 'unit-attached', leader: 'FB', bodyguard: 'ST' });
    return g;
  }

  it('Volley Fire: +1 Attack to the ranged weapons of the unit he leads, not in melee, not when alone', () => {
    const g = fireblade(true);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').attacksBonus).toBe(1);
    expect(planFor(g, 'ST', 'GD', 'Fireblade pulse rifle').attacksBonus).toBe(1);
    expect(planFor(g, 'ST', 'GD', 'Close combat weapon').attacksBonus).toBe(0);
    expect(planFor(fireblade(false), 'FB', 'GD', 'Fireblade pulse rifle').attacksBonus).toBe(0);
  });

  it('Crack Shot: his own ranged attacks get AP -3 on a Critical Wound; the Fire Warriors\' do not', () => {
    const g = fireblade(true);
    expect(planFor(g, 'ST', 'GD', 'Fireblade pulse rifle').criticalWoundAp).toBe(3); // AP 0 -> -3
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').criticalWoundAp).toBe(0);
    // one attack: hit 5, wound 6 (Critical), save 5 against the Guardians' 4+: AP -3 makes it fail
    const d = sandbox([
      { id: 'FB', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    ], { stream: scriptedStream([5, 6, 5]) });
    const FB = d.state.units.FB;
    const w = d.state.datasheets[FB.models[0].datasheet].weapons.find((x) => x.name === 'Fireblade pulse rifle')!;
    const t = resolveAttacks(d, FB, [{ weapon: w, profile: w.profiles[0], models: FB.models, target: 'GD', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 11 }], false);
    expect(t.unsaved).toBe(1);
  });
});

describe('Strike Team', () => {
  function team(opts: Parameters<typeof battleSandbox>[1] = {}): Game {
    return sandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 30 } },
    ], opts);
  }

  it('Suppression Volley: after it shot, an INFANTRY unit it hit gets -1 to hit until the start of the T\'au player\'s next turn', () => {
    const asked: unknown[][] = [];
    const g = team({ stream: createStream('volley'), agents: agents((r) => { if (r.kind === 'suppression-volley') asked.push(r.options); return 0; }) });
    const before = planFor(g, 'GD', 'ST', 'Shuriken catapult').hitModifier;
    shootWithUnit(g, g.state.units.ST);
    expect(asked).toEqual([['GD']]);
    expect(effects(g, SUPPRESSED).map((e) => e.unit)).toEqual(['GD']);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(before - 1);
    // the Aeldari turn goes by; the suppression ends when the T'au player's next turn starts
    expireEffects(g, { at: 'start-of-command', round: 1, player: 1 });
    expect(effects(g, SUPPRESSED)).toHaveLength(1);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(effects(g, SUPPRESSED)).toHaveLength(0);
  });

  it('Suppression Volley: never a non-INFANTRY unit; only while the Strike Team is on the battlefield; not cumulative', () => {
    const g = team({ agents: agents(() => 0) });
    getRule('Suppression Volley')!.afterShooting!(g, g.state.units.ST, ['WS']);
    expect(effects(g, SUPPRESSED)).toHaveLength(0);
    getRule('Suppression Volley')!.afterShooting!(g, g.state.units.ST, ['GD']);
    getRule('Suppression Volley')!.afterShooting!(g, g.state.units.ST, ['GD']);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').hitModifier).toBe(-1);
    g.emit({ type: 'unit-location', unit: 'ST', location: 'reserves', embarkedIn: null });
    expect(planFor(g, 'GD', 'WS', 'Shuriken catapult').hitModifier).toBe(0);
  });

  it('DS8 Support Turret: Remaining Stationary gives the Shas\'ui the support turret, which it may fire', () => {
    const g = team({ phase: 'movement' });
    const ST = g.state.units.ST;
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'stationary' });
    endPhase(g, 0, 'movement');
    expect(effects(g, 'DS8 Support Turret').map((e) => e.unit)).toEqual(['ST']);
    const shasui = ST.models.find((m) => m.name === "Fire Warrior Shas'ui")!;
    expect(modelWeapons(g.state, ST, shasui)).toContain('Support turret');
    expect(modelWeapons(g.state, ST, ST.models.find((m) => m !== shasui)!)).not.toContain('Support turret');
    // in the Shooting phase the turret is one of the weapons to assign
    const prompts: string[] = [];
    g.agents = agents((r) => { if (r.kind === 'shoot-target') prompts.push(r.prompt); return 0; });
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    shootWithUnit(g, g.state.units.ST);
    expect(prompts.some((p) => p.includes('Support turret'))).toBe(true);
  });

  it('DS8 Support Turret: not after a move', () => {
    const g = team({ phase: 'movement' });
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'normal' });
    endPhase(g, 0, 'movement');
    expect(effects(g, 'DS8 Support Turret')).toHaveLength(0);
  });
});

describe('Breacher Team', () => {
  it('Breach and Clear: re-roll the Wound roll against a unit within range of an objective marker', () => {
    const g = sandbox([
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 22, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 30, y: 21 } }, // on the marker at (30, 22)
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 2 } },
    ]);
    expect(planFor(g, 'BT', 'GD', 'Pulse blaster').rerollWounds).toBe('failed');
    expect(planFor(g, 'BT', 'DA', 'Pulse blaster').rerollWounds).toBe('none');
  });
});

describe('Devilfish', () => {
  it('Rapid Deployment: passengers may disembark after it Advanced (not from a Wave Serpent)', () => {
    const g = sandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 10, y: 10 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 20, y: 5 } },
      { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 10, y: 30 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 25 } },
    ], { phase: 'movement' });
    g.emit({ type: 'unit-location', unit: 'BT', location: 'embarked', embarkedIn: 'DF' });
    g.emit({ type: 'unit-location', unit: 'GD', location: 'embarked', embarkedIn: 'WS' });
    g.emit({ type: 'unit-moved', unit: 'DF', mode: 'advance', advanceRoll: 4 });
    g.emit({ type: 'unit-moved', unit: 'WS', mode: 'advance', advanceRoll: 4 });
    expect(canDisembark(g, g.state.units.BT)).toBe(true);
    expect(canDisembark(g, g.state.units.GD)).toBe(false);
  });
});

describe('Pathfinder Team and Stealth Battlesuits', () => {
  function pathfinders(pick: Pick = () => 0, stream = createStream('pf')): Game {
    return sandbox([
      { id: 'PF', player: 0, faction: 'tau', name: 'Pathfinder Team', at: { x: 10, y: 5 } },
      { id: 'SB', player: 0, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 12, y: 5 } },
      { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 14, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 22, y: 25 } },
    ], { agents: agents(pick), stream });
  }

  it('Target Uploaded: BS +1 and IGNORES COVER against their Spotted unit, on top of For the Greater Good', () => {
    const g = pathfinders();
    const bs = planFor(g, 'PF', 'GD', 'Pulse carbine').skill;
    g.addEffect(GUIDED, 0, 'PF', g.untilEndOfPhase(), { observer: 'SB', spotted: 'GD' });
    const plan = planFor(g, 'PF', 'GD', 'Pulse carbine', { cover: true });
    expect(plan.skill).toBe(bs - 2);
    expect(plan.ignoresCover).toBe(true);
    expect(planFor(g, 'PF', 'DA', 'Pulse carbine').skill).toBe(bs + 1); // not Spotted: only the Guided penalty
    // as the Observer too (its Spotted unit is the pair's)
    const h = pathfinders();
    h.addEffect(OBSERVER, 0, 'PF', h.untilEndOfPhase(), { guided: 'BT', spotted: 'GD' });
    expect(planFor(h, 'PF', 'GD', 'Pulse carbine').skill).toBe(bs - 1);
  });

  it('Forward Observers: with the Stealth Battlesuits as Observer, the Guided unit re-rolls 1s to hit and to wound against the Spotted unit', () => {
    const pick: Pick = (r) => (r.kind === 'for-the-greater-good' ? r.options.findIndex((o) => (o as { observer?: string }).observer === 'SB' && (o as { spotted?: string }).spotted === 'GD') : 0);
    const g = pathfinders(pick);
    shootWithUnit(g, g.state.units.BT);
    expect(effects(g, 'Forward Observers').map((e) => [e.unit, e.params.spotted])).toEqual([['BT', 'GD']]);
    g.emit({ type: 'unit-flag', unit: 'BT', flag: 'shot', value: false });
    const plan = planFor(g, 'BT', 'GD', 'Pulse blaster');
    expect([plan.rerollHits, plan.rerollWounds]).toEqual(['ones', 'ones']);
    expect(planFor(g, 'BT', 'DA', 'Pulse blaster').rerollHits).toBe('none');
    // another Observer (the Pathfinders) gives no such re-roll
    const h = pathfinders((r) => (r.kind === 'for-the-greater-good' ? r.options.findIndex((o) => (o as { observer?: string }).observer === 'PF') : 0));
    shootWithUnit(h, h.state.units.BT);
    expect(effects(h, 'Forward Observers')).toHaveLength(0);
  });
});

describe('Crisis Battlesuits', () => {
  function crisis(): Game {
    return sandbox([
      { id: 'SC', player: 0, faction: 'tau', name: 'Crisis Starscythe Battlesuits', at: { x: 10, y: 5 } },
      { id: 'SF', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', at: { x: 10, y: 15 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 5 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 20, y: 5 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 30 } },
    ]);
  }

  it('Starscythe: AP +1 against units that are neither MONSTER nor VEHICLE', () => {
    const g = crisis();
    expect(planFor(g, 'SC', 'GD', 'Burst cannon').ap).toBe(-1);
    expect(planFor(g, 'SC', 'WS', 'Burst cannon').ap).toBe(0);
  });

  it('Battlesuit Support System: the Starscythes may shoot after Falling Back; a Strike Team may not', () => {
    const g = crisis();
    g.emit({ type: 'unit-moved', unit: 'SC', mode: 'fall-back' });
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'fall-back' });
    expect(canShoot(g, g.state.units.SC)).toBe(true);
    expect(canShoot(g, g.state.units.ST)).toBe(false);
  });

  it('Sunforge: re-roll the Wound and the Damage roll against a MONSTER or VEHICLE only', () => {
    const g = crisis();
    const v = planFor(g, 'SF', 'WS', 'Fusion blaster');
    expect([v.rerollWounds, v.rerollDamage]).toEqual(['failed', true]);
    const i = planFor(g, 'SF', 'GD', 'Fusion blaster');
    expect([i.rerollWounds, i.rerollDamage]).toEqual(['none', false]);
  });

  it('Sunforge in the dice: a Damage roll below average is re-rolled, one above is kept', () => {
    // one fusion blaster shot (the Shas'vre's first): hit 4, wound 5, save 1 (fails), damage 2 -> re-rolled 6; MELTA not in half range
    const g = sandbox([
      { id: 'SF', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', counts: [1, 0], at: { x: 10, y: 5 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 30 } },
    ], { stream: scriptedStream([4, 5, 1, 2, 6]) });
    const SF = g.state.units.SF;
    const w = g.state.datasheets[SF.models[0].datasheet].weapons.find((x) => x.name === 'Fusion blaster')!;
    const t = resolveAttacks(g, SF, [{ weapon: w, profile: w.profiles[0], models: SF.models, target: 'WS', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
    expect(t.woundsLost).toBe(6);
    const rr = (g.log ?? []).filter((e) => e.type === 'reroll' && e.purpose === 'damage');
    expect(rr).toHaveLength(1);
  });

  it('Sunforge keeps a low Damage roll that already destroys the model (the re-roll is a "can"): a Hammerhead on 4 wounds, 2 + MELTA 2', () => {
    // one fusion blaster shot in half range: hit 5, wound 5 (AP -4: no save against 3+), damage 2 (+2 MELTA), then
    // a 1 for a re-roll; with 5 wounds left the 4 does not destroy it, and the 2 is re-rolled
    for (const wounds of [4, 5]) {
      const g = sandbox([
        { id: 'SF', player: 0, faction: 'tau', name: 'Crisis Sunforge Battlesuits', counts: [1, 0], at: { x: 10, y: 5 } },
        { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 16, y: 5 } },
      ], { stream: scriptedStream([5, 5, 2, 1, 1, 1]) });
      const hh = g.state.units.HH.models[0];
      g.emit({ type: 'model-damaged', unit: 'HH', model: hh.id, wounds: hh.wounds - wounds, by: null, mortal: false });
      const SF = g.state.units.SF;
      const w = g.state.datasheets[SF.models[0].datasheet].weapons.find((x) => x.name === 'Fusion blaster')!;
      resolveAttacks(g, SF, [{ weapon: w, profile: w.profiles[0], models: SF.models, target: 'HH', halfRange: true, targetVisible: true, targetInCover: false, targetModels: 1 }], false);
      const rr = (g.log ?? []).filter((e) => e.type === 'reroll' && e.purpose === 'damage');
      if (wounds === 4) {
        expect(rr).toHaveLength(0);
        expect(g.state.units.HH.models[0].alive).toBe(false);
      } else {
        // re-rolled to 1: 1 + 2 = 3 damage, 2 wounds left
        expect(rr).toHaveLength(1);
        expect(g.state.units.HH.models[0].wounds).toBe(2);
      }
    }
  });
});

describe('Hammerhead Gunship', () => {
  function hammerhead(pick: Pick = () => 0): Game {
    return sandbox([
      { id: 'HH', player: 0, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
      { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 30, y: 30 } },
    ], { agents: agents(pick), stream: createStream('hh') });
  }

  it('Armour Hunter: +1 to hit against a MONSTER or VEHICLE', () => {
    const g = hammerhead();
    expect(planFor(g, 'HH', 'WS', 'Railgun').hitModifier).toBe(1);
    expect(planFor(g, 'HH', 'GD', 'Railgun').hitModifier).toBe(0);
  });

  it('Targeting Array: each time it is selected to shoot, the player picks one Hit roll or one Wound roll to re-roll', () => {
    const g = hammerhead((r) => (r.kind === 'targeting-array' ? 1 : 0));
    getRule('Targeting Array')!.selectedToShoot!(g, g.state.units.HH);
    expect(effects(g, 'Targeting Array').map((e) => e.params.roll)).toEqual(['wound']);
    expect(planFor(g, 'HH', 'WS', 'Railgun').rerollOne).toEqual({ hit: 0, wound: 1, damage: 0 });
    const h = hammerhead((r) => (r.kind === 'targeting-array' ? 0 : 0));
    expect(planFor(h, 'HH', 'WS', 'Railgun').rerollOne).toEqual({ hit: 0, wound: 0, damage: 0 });
    shootWithUnit(h, h.state.units.HH);
    expect(effects(h, 'Targeting Array').map((e) => e.params.roll)).toEqual(['hit']);
  });
});

describe('Broadside Battlesuits', () => {
  it('Advanced Armour: Feel No Pain 4+ against mortal wounds only', () => {
    const g = sandbox([{ id: 'BS', player: 0, faction: 'tau', name: 'Broadside Battlesuits', at: { x: 10, y: 10 } }], { stream: scriptedStream([4, 3]) });
    const BS = g.state.units.BS;
    expect(feelNoPainOf(g.state, BS, BS.models[0], null, true)).toBe(4);
    expect(feelNoPainOf(g.state, BS, BS.models[0], null, false)).toBe(null);
    // two mortal wounds: the 4 is ignored, the 3 is lost
    expect(inflictMortalWounds(g, BS, 2, null)).toBe(1);
  });
});

describe('Riptide Battlesuit', () => {
  function riptide(pick: Pick = () => 0): Game {
    return sandbox([
      { id: 'RT', player: 0, faction: 'tau', name: 'Riptide Battlesuit', at: { x: 10, y: 10 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 5 } },
      { id: 'SB', player: 1, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 30, y: 5 } },
    ], { agents: agents(pick), stream: createStream('rt') });
  }

  it('Weapon Support System: ignores the Hit roll penalties (Stealth), keeps the bonuses', () => {
    const g = riptide();
    expect(planFor(g, 'ST', 'SB', 'Pulse rifle').hitModifier).toBe(-1);
    expect(planFor(g, 'RT', 'SB', 'Heavy burst cannon').hitModifier).toBe(0);
    registerRule({ name: 'Test: +1 to hit', kind: 'effect', attack: (p, _c, src) => { if (src.role === 'attacker') p.hitModifier += 1; } });
    g.addEffect('Test: +1 to hit', 0, 'RT', g.untilEndOfPhase());
    expect(planFor(g, 'RT', 'SB', 'Heavy burst cannon').hitModifier).toBe(1);
  });

  it('Battlesuit Support System: it may shoot after Falling Back', () => {
    const g = riptide();
    g.emit({ type: 'unit-moved', unit: 'RT', mode: 'fall-back' });
    expect(canShoot(g, g.state.units.RT)).toBe(true);
  });

  it('Nova Charge: once per battle, the chosen weapon has DEVASTATING WOUNDS until the end of the phase', () => {
    let offered = 0;
    const g = riptide((r) => { if (r.kind === 'nova-charge') { offered++; return r.options.findIndex((o) => (o as { weapon?: string }).weapon === 'Twin plasma rifle'); } return 0; });
    expect(planFor(g, 'RT', 'SB', 'Twin plasma rifle').devastatingWounds).toBe(false);
    shootWithUnit(g, g.state.units.RT);
    expect(offered).toBe(1);
    expect(planFor(g, 'RT', 'SB', 'Twin plasma rifle').devastatingWounds).toBe(true);
    expect(planFor(g, 'RT', 'SB', 'Heavy burst cannon').devastatingWounds).toBe(false);
    endPhase(g, 0, 'shooting');
    expect(planFor(g, 'RT', 'SB', 'Twin plasma rifle').devastatingWounds).toBe(false);
    // not again in the battle
    g.emit({ type: 'turn-started', round: 2, player: 0 });
    g.emit({ type: 'phase-started', round: 2, player: 0, phase: 'shooting' });
    shootWithUnit(g, g.state.units.RT);
    expect(offered).toBe(1);
  });
});

describe('Piranhas', () => {
  it('Drone Harassment Tactics: at the end of its Movement phase, an enemy unit within 12" takes a Battle-shock test', () => {
    const g = battleSandbox([
      { id: 'PI', player: 0, faction: 'tau', name: 'Piranhas', at: { x: 10, y: 10 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 18, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 5 } },
    ], { phase: 'movement', stream: scriptedStream([1, 2]), agents: agents((r) => { if (r.kind === 'drone-harassment') expect(r.options).toEqual(['GD']); return 0; }) });
    endPhase(g, 0, 'movement');
    expect(g.state.units.GD.battleShocked).toBe(true); // 3 < Ld 7
    expect(g.state.units.DA.battleShocked).toBe(false);
  });
});
