import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { GUIDED, OBSERVER, guidanceOptions } from '../../src/factions/tau/army-rule.ts';
import { shootWithUnit, canShoot } from '../../src/rules/battle/shooting.ts';
import { characteristic, unitMove } from '../../src/rules/battle/units.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { usableStratagems, openWindow } from '../../src/rules/windows.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import type { Game } from '../../src/core/game.ts';
import { getRule } from '../../src/core/rules-registry.ts';

/** Strike Team (MARKERLIGHT) and Breacher Team of T'au against two Aeldari units, 20" apart, no terrain. */
function tau(opts: { detachment?: string | null; round?: number; agents?: NonNullable<Parameters<typeof battleSandbox>[1]>['agents']; stream?: ReturnType<typeof scriptedStream>; cp?: [number, number]; phase?: 'shooting' | 'movement' | 'charge' | 'fight' } = {}): Game {
  return battleSandbox([
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
    { id: 'BT', player: 0, faction: 'tau', name: 'Breacher Team', at: { x: 12, y: 5 } },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 } },
    { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 32, y: 5 } },
  ], { phase: opts.phase ?? 'shooting', round: opts.round ?? 1, detachments: [opts.detachment ?? null, null], agents: opts.agents, stream: opts.stream, cp: opts.cp });
}

function guide(g: Game, unit: string, observer: string, spotted: string): void {
  g.addEffect(GUIDED, 0, unit, g.untilEndOfPhase(), { observer, spotted });
  g.addEffect(OBSERVER, 0, observer, g.untilEndOfPhase(), { guided: unit, spotted });
}

describe('For the Greater Good', () => {
  it('a Guided unit gets BS +1 against its Spotted unit and IGNORES COVER with a MARKERLIGHT Observer; -1 BS against others', () => {
    const g = tau();
    const bs = planFor(g, 'BT', 'GD', 'Pulse blaster').skill;
    guide(g, 'BT', 'ST', 'GD');
    const spotted = planFor(g, 'BT', 'GD', 'Pulse blaster', { cover: true });
    expect(spotted.skill).toBe(bs - 1);
    expect(spotted.ignoresCover).toBe(true);
    expect(spotted.cover).toBe(false);
    expect(planFor(g, 'BT', 'DA', 'Pulse blaster').skill).toBe(bs + 1);
    // the BS change is a characteristic change, not a Hit roll modifier (it is not capped)
    expect(spotted.hitModifier).toBe(0);
  });

  it('the Observer must be eligible to shoot and see the Spotted unit; the player chooses (or not) when a unit is selected to shoot', () => {
    const picks: string[] = [];
    const agent = scriptedAgent('tau', (r) => {
      if (r.kind === 'for-the-greater-good') { picks.push(JSON.stringify(r.options)); return 1; }
      return 0;
    });
    const g = tau({ agents: [agent, scriptedAgent('ae')] });
    expect(guidanceOptions(g, g.state.units.BT).map((o) => `${o.observer}>${o.spotted}`)).toEqual(['ST>GD', 'ST>DA']);
    shootWithUnit(g, g.state.units.BT);
    expect(picks).toHaveLength(1);
    expect(g.state.effects.filter((e) => e.kind === GUIDED).map((e) => e.params)).toEqual([{ observer: 'ST', spotted: 'GD' }]);
    // an Observer unit cannot itself become Guided
    expect(guidanceOptions(g, g.state.units.ST)).toEqual([]);
  });
});

describe('Kauyon: Patient Hunter', () => {
  it('no Sustained Hits before battle round 3', () => {
    const g = tau({ detachment: 'Kauyon', round: 2 });
    guide(g, 'BT', 'ST', 'GD');
    expect(planFor(g, 'BT', 'GD', 'Pulse blaster').sustainedHits).toBe(0);
  });
  it('from round 3: SUSTAINED HITS 2 against the Spotted unit only, SUSTAINED HITS 1 otherwise', () => {
    const g = tau({ detachment: 'Kauyon', round: 3 });
    guide(g, 'BT', 'ST', 'GD');
    expect(planFor(g, 'BT', 'GD', 'Pulse blaster').sustainedHits).toBe(2);
    expect(planFor(g, 'BT', 'DA', 'Pulse blaster').sustainedHits).toBe(1);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').sustainedHits).toBe(2); // the Observer shares the Spotted unit
    expect(planFor(g, 'BT', 'GD', 'Close combat weapon').sustainedHits).toBe(0); // ranged weapons only
  });
  it('not without the detachment (the "no detachment" baseline)', () => {
    const g = tau({ detachment: null, round: 3 });
    guide(g, 'BT', 'ST', 'GD');
    expect(planFor(g, 'BT', 'GD', 'Pulse blaster').sustainedHits).toBe(0);
  });
});

describe("Mont'ka: Killing Blow", () => {
  it('LETHAL HITS only for Guided units, only in battle rounds 1-3', () => {
    for (const round of [1, 3, 4]) {
      const g = tau({ detachment: "Mont'ka", round });
      expect(planFor(g, 'BT', 'GD', 'Pulse blaster').lethalHits).toBe(false);
      guide(g, 'BT', 'ST', 'GD');
      expect(planFor(g, 'BT', 'GD', 'Pulse blaster').lethalHits).toBe(round <= 3);
    }
  });
  it('ranged weapons are ASSAULT in rounds 1-3: a Strike Team that Advanced can shoot', () => {
    for (const [round, expected] of [[2, true], [4, false]] as const) {
      const g = tau({ detachment: "Mont'ka", round });
      g.emit({ type: 'unit-moved', unit: 'ST', mode: 'advance', advanceRoll: 2 });
      expect(canShoot(g, g.state.units.ST)).toBe(expected);
    }
  });
});

describe("Mont'ka stratagems", () => {
  it('COUNTERFIRE DEFENCE SYSTEMS: -1 Damage, never below 1', () => {
    const g = tau({ detachment: "Mont'ka" });
    g.addEffect('Counterfire Defence Systems', 0, 'BT', g.untilEndOfPhase());
    const plan = planFor(g, 'GD', 'BT', 'Shuriken catapult');
    expect(plan.damageReduction).toBe(1);
    // D1 shuriken catapult stays 1 (adjustDamage floors at 1)
    expect(Math.max(1, 1 - plan.damageReduction)).toBe(1);
  });

  it("COUNTERFIRE DEFENCE SYSTEMS and NEUROWEB SYSTEM JAMMER: in the opponent's Shooting phase only, not when a unit shoots in another phase", () => {
    for (const [detachment, name, unit] of [["Mont'ka", 'COUNTERFIRE DEFENCE SYSTEMS', 'BT'], ['Experimental Prototype Cadre', 'NEUROWEB SYSTEM JAMMER', 'CB']] as const) {
      for (const phase of ['shooting', 'fight'] as const) {
        const g = battleSandbox([
          { id: unit, player: 0, faction: 'tau', name: unit === 'CB' ? 'Crisis Sunforge Battlesuits' : 'Breacher Team', at: { x: 20, y: 18 } },
          { id: 'WW', player: 1, faction: 'aeldari', name: 'War Walkers', at: { x: 40, y: 20 } },
        ], { phase, turn: 1, round: 2, cp: [3, 0], detachments: [detachment, null] });
        const offered = usableStratagems(g, { name: 'shooting/after-enemy-targets', unit: 'WW', targets: [unit] }, 0).filter((x) => x.s.name === name).map((x) => x.unit.id);
        expect(offered, `${name} in the ${phase} phase`).toEqual(phase === 'shooting' ? [unit] : []);
      }
    }
  });

  it("PULSE ONSLAUGHT's Shaken: -2\" Move and -2 to Advance and Charge rolls", () => {
    const g = tau({ detachment: "Mont'ka", stream: scriptedStream([5, 4]), phase: 'charge' });
    const before = unitMove(g.state, g.state.units.GD);
    g.addEffect('Shaken', 0, 'GD', { at: 'end-of-turn', round: 1, turn: 1 });
    expect(unitMove(g.state, g.state.units.GD)).toBe(before - 2);
    // a 9" charge roll becomes 7: not enough for 18" anyway; the note says what was rolled
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    declareCharge(g, g.state.units.GD, { targets: ['ST'] });
    expect((g.log ?? []).some((e) => e.type === 'note' && /rolled 7/.test(e.text))).toBe(true);
  });

  it('FOCUSED FIRE: at the start of the Shooting phase (rounds 1-3), two units may only target the chosen enemy unit, with AP improved by 1 against it', () => {
    const agent = scriptedAgent('tau', (r) => {
      if (r.kind === 'stratagem') return r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'FOCUSED FIRE');
      if (r.kind === 'focused-fire') { asked.push(r.context); return r.options.findIndex((o) => (o as { enemy: string }).enemy === 'DA'); }
      return 0;
    });
    const asked: unknown[] = [];
    const g = tau({ detachment: "Mont'ka", cp: [3, 0], agents: [agent, scriptedAgent('ae')] });
    const apBefore = planFor(g, 'ST', 'DA', 'Pulse rifle').ap;
    expect(openWindow(g, { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } })).toEqual(['FOCUSED FIRE']);
    // the request for the second unit names the first (the stratagem's target)
    expect(asked).toEqual([{ unit: 'ST' }]);
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').ap).toBe(apBefore - 1);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').ap).toBe(apBefore);
    // both units are bound to the chosen unit: the Strike Team (30" rifles) may shoot it and not the
    // Guardians in front of it (the Breacher Team is out of range of both)
    expect(g.state.effects.filter((e) => e.kind === 'Focused Fire').map((e) => [e.unit, e.params.enemy])).toEqual([['ST', 'DA'], ['BT', 'DA']]);
    expect(canShoot(g, g.state.units.ST, 'DA')).toBe(true);
    expect(canShoot(g, g.state.units.ST, 'GD')).toBe(false);
    // not from battle round 4
    const late = tau({ detachment: "Mont'ka", cp: [3, 0], round: 4 });
    expect(usableStratagems(late, { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } }, 0).map((x) => x.s.name)).not.toContain('FOCUSED FIRE');
  });

  it('FOCUSED FIRE: both units are its targets, so neither may be Battle-shocked', () => {
    const g = tau({ detachment: "Mont'ka", cp: [3, 0] });
    const start = { name: 'phase/start' as const, unit: null, targets: [], data: { phase: 'shooting' } };
    expect(usableStratagems(g, start, 0).filter((x) => x.s.name === 'FOCUSED FIRE').map((x) => x.unit.id)).toEqual(['ST', 'BT']);
    // with the Breacher Team Battle-shocked, the Strike Team has no second unit to pair with
    g.emit({ type: 'battle-shock', unit: 'BT', value: true });
    expect(usableStratagems(g, start, 0).map((x) => x.s.name)).not.toContain('FOCUSED FIRE');
  });

  it('PULSE ONSLAUGHT is offered after an INFANTRY unit has shot, against a unit it hit', () => {
    const g = tau({ detachment: "Mont'ka", cp: [3, 0] });
    const w = { name: 'shooting/after-own-shot' as const, unit: 'ST', targets: ['GD'], data: { hitTargets: ['GD'] } };
    expect(usableStratagems(g, w, 0).map((x) => x.s.name)).toContain('PULSE ONSLAUGHT');
    expect(usableStratagems(g, { ...w, data: { hitTargets: [] } }, 0).map((x) => x.s.name)).not.toContain('PULSE ONSLAUGHT');
  });
});

describe("Aun'Shi", () => {
  function withAunShi(agents?: NonNullable<Parameters<typeof battleSandbox>[1]>['agents']): Game {
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 5 } },
      { id: 'AS', player: 0, faction: 'tau', name: "Aun'shi", at: { x: 11, y: 4 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 12.3, y: 5 } },
    ], { phase: 'fight', agents });
    g.emit({ type: 'unit-attached', leader: 'AS', bodyguard: 'ST' });
    return g;
  }

  it('Inspirational Defiance: +1 OC for the models of the unit he leads', () => {
    const g = withAunShi();
    const ST = g.state.units.ST;
    expect(characteristic(g.state, ST, ST.models[0], 'OC')).toBe(3);
  });

  it('Inspirational Defiance still counts while the unit is Battle-shocked: its OC is set to 0 first, then +1 (Rules Commentary)', () => {
    const g = withAunShi();
    g.emit({ type: 'battle-shock', unit: 'ST', value: true });
    const ST = g.state.units.ST;
    for (const m of ST.models) expect(characteristic(g.state, ST, m, 'OC')).toBe(1);
  });

  it('Martial Warrior: the player picks a stance each time he fights, and Fidelity gets it', () => {
    for (const [i, check] of [[0, 'precision'], [1, 'devastatingWounds'], [2, 'sustainedHits']] as const) {
      const g = withAunShi([scriptedAgent('tau', (r) => (r.kind === 'martial-warrior' ? i : 0)), scriptedAgent('ae')]);
      const chosen: unknown[] = [];
      g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'fight' });
      // stop right after the choice: inspect the plan the stance gives Fidelity
      fight(g, g.state.units.ST);
      const stance = (g.log ?? []).find((e) => e.type === 'effect-added' && e.effect.kind === 'Martial Warrior stance');
      chosen.push(stance && stance.type === 'effect-added' ? stance.effect.params.stance : null);
      expect(chosen[0]).toBe(['Direct Grace', 'Forceful Strike', 'Whirling Stance'][i]);
      g.addEffect('Martial Warrior stance', 0, 'ST', g.untilEndOfPhase(), { stance: chosen[0] });
      const plan = planFor(g, 'ST', 'GD', 'Fidelity');
      if (check === 'sustainedHits') expect(plan.sustainedHits).toBe(2);
      else expect(plan[check]).toBe(true);
    }
  });

  it('Martial Warrior, fighting twice in a phase: the second selection\'s stance replaces the first (Direct Grace, then Whirling Stance: no PRECISION left)', () => {
    const picks = [0, 2];
    const g = withAunShi([scriptedAgent('tau', (r) => (r.kind === 'martial-warrior' ? picks.shift()! : 0)), scriptedAgent('ae')]);
    g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'fight' });
    const rule = getRule('Martial Warrior')!;
    rule.selectedToFight!(g, g.state.units.ST);
    expect(planFor(g, 'ST', 'GD', 'Fidelity').precision).toBe(true);
    rule.selectedToFight!(g, g.state.units.ST);
    const plan = planFor(g, 'ST', 'GD', 'Fidelity');
    expect(plan.sustainedHits).toBe(2);
    expect(plan.precision).toBe(false);
    expect(g.state.effects.filter((e) => e.kind === 'Martial Warrior stance')).toHaveLength(1);
  });
});

describe('Kauyon stratagems', () => {
  it('COORDINATE TO ENGAGE is offered to the unit just selected as Observer', () => {
    const g = tau({ detachment: 'Kauyon', cp: [2, 0] });
    const offered = usableStratagems(g, { name: 'shooting/observer-selected', unit: 'ST', targets: ['GD'] }, 0).map((x) => x.s.name);
    expect(offered).toEqual(['COORDINATE TO ENGAGE']);
    expect(openWindow(g, { name: 'shooting/observer-selected', unit: 'ST', targets: ['GD'] })).toEqual([]); // the scripted agent passes
  });

  it('POINT-BLANK AMBUSH improves AP by 1 against targets within 9" only, from battle round 3', () => {
    const g = tau({ detachment: 'Kauyon', round: 3 });
    g.addEffect('Point-Blank Ambush', 0, 'ST', g.untilEndOfPhase());
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle', { distance: 8 }).ap).toBe(-1);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle', { distance: 10 }).ap).toBe(0);
    const early = tau({ detachment: 'Kauyon', round: 2, cp: [3, 0] });
    expect(usableStratagems(early, { name: 'shooting/unit-selected', unit: 'ST', targets: [] }, 0).map((x) => x.s.name)).not.toContain('POINT-BLANK AMBUSH');
  });
});
