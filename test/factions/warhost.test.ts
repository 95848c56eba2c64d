/**
 * Warhost (src/factions/aeldari/warhost.ts): Martial Grace (Battle Focus tokens, Swift as the Wind's 3", +1 to
 * the D6 of Fade Back and Opportunity Seized), its six stratagems, its four Enhancements, and its mirror
 * scenario. Each test fails if the rule is played wrong or not at all.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelBase } from '../../src/rules/battle/world.ts';
import { aeldariDetachmentSandbox, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { offeredUnits, usingStratagem as using } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { forbids } from '../../src/core/rules-registry.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { embark } from '../../src/rules/battle/transports.ts';
import { commandRerollReaction, REROLLABLE } from '../../src/rules/stratagems/core.ts';
import { loadArmyFile, type ArmyFile, type ArmyUnit } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { loadScenario } from '../../src/data/scenario.ts';
import { battleFocusTokens, offerManoeuvres, setBattleFocusTokens, FADE_BACK, SWIFT_AS_THE_WIND, type BattleFocusOption } from '../../src/factions/aeldari/battle-focus.ts';
import { PHOENIX_GEM_PENDING } from '../../src/factions/aeldari/warhost.ts';

const WH = 'Warhost';
const root = join(import.meta.dirname, '..', '..');

type Pick = (r: DecisionRequest) => number;

const sandbox = aeldariDetachmentSandbox(WH);

const offered = (g: Game, w: Window, name: string) => offeredUnits(g, w, 0, name);
const moved = (g: Game, id: string, from: { x: number; y: number }) => {
  const to = g.state.units[id].models[0].pos!;
  return Math.hypot(to.x - from.x, to.y - from.y);
};

const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 10 } };
const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 30 } };
const WG: PlacedUnit = { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 10, y: 20 } };
const WS: PlacedUnit = { id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 10, y: 23 } };
const AU: PlacedUnit = { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 20, y: 38 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 10 }, spacing: 0.9 };

describe('Martial Grace', () => {
  it('one Battle Focus token more at the start of the battle round (5 in a Strike Force battle), not without the detachment', () => {
    for (const [detachment, tokens] of [[WH, 5], [null, 4]] as const) {
      const g = sandbox([GD, ST], { phase: 'command', detachment });
      startPhase(g, g.state.firstPlayer, 'command');
      expect(battleFocusTokens(g.state, 0)).toBe(tokens);
    }
  });

  it('Swift as the Wind adds 3" to the Move until the end of the phase (2" without the detachment)', () => {
    for (const [detachment, bonus] of [[WH, 3], [null, 2]] as const) {
      const g = sandbox([DA, ST], { phase: 'movement', detachment }, (r) => {
        if (r.kind !== 'battle-focus') return 0;
        return Math.max(0, (r.options as BattleFocusOption[]).findIndex((o) => 'manoeuvre' in o && o.manoeuvre === SWIFT_AS_THE_WIND));
      });
      const m = g.state.units.DA.models[0];
      const before = characteristic(g.state, g.state.units.DA, m, 'M');
      setBattleFocusTokens(g, 0, 1);
      offerManoeuvres(g, 0, { kind: 'selected-to-move', unit: 'DA', mode: 'normal', to: { x: 30, y: 30 } });
      expect(characteristic(g.state, g.state.units.DA, m, 'M')).toBe(before + bonus);
      expireEffects(g, { at: 'end-of-phase', round: 1, turn: 0, phase: 'movement' });
      expect(characteristic(g.state, g.state.units.DA, m, 'M')).toBe(before);
    }
  });

  it('Fade Back: +1 to its D6, a roll of 1 moves the unit up to 3" (2" without the detachment)', () => {
    for (const detachment of [WH, null]) {
      const pick: Pick = (r) => {
        if (r.kind === 'battle-focus') return Math.max(0, (r.options as BattleFocusOption[]).findIndex((o) => 'manoeuvre' in o && o.manoeuvre === FADE_BACK));
        // the last destination offered: away from the enemy, far enough for any roll
        return r.kind === 'battle-focus-move' ? r.options.length - 1 : 0;
      };
      const g = sandbox([DA, { ...ST, at: { x: 30, y: 30 } }], { phase: 'shooting', turn: 1, detachment, stream: scriptedStream([1]) }, pick);
      setBattleFocusTokens(g, 0, 1);
      const from = { ...g.state.units.DA.models[0].pos! };
      offerManoeuvres(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['DA'] });
      const inches = moved(g, 'DA', from);
      if (detachment) { expect(inches).toBeGreaterThan(2.5); expect(inches).toBeLessThanOrEqual(3 + 1e-6); }
      else { expect(inches).toBeGreaterThan(1.5); expect(inches).toBeLessThanOrEqual(2 + 1e-6); }
    }
  });
});

describe('Warhost stratagems', () => {
  it('LIGHTNING-FAST REACTIONS (1CP): an ASURYANI unit the enemy targets gets -1 to be hit this phase; not a WRAITH CONSTRUCT unit', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'ST', targets: ['DA', 'WG'] };
    const g = sandbox([DA, WG, ST], { turn: 1 }, using('LIGHTNING-FAST REACTIONS'));
    expect(usableStratagems(g, w, 0).filter((x) => x.s.name === 'LIGHTNING-FAST REACTIONS').map((x) => [x.unit.id, x.cp, x.s.source])).toEqual([['DA', 1, WH]]);
    const before = planFor(g, 'ST', 'DA', 'Pulse rifle').hitModifier;
    expect(openWindow(g, w)).toEqual(['LIGHTNING-FAST REACTIONS']);
    expect(planFor(g, 'ST', 'DA', 'Pulse rifle').hitModifier).toBe(before - 1);
  });

  it('FEIGNED RETREAT: an ASURYANI unit that just Fell Back may shoot and charge this turn', () => {
    const w: Window = { name: 'movement/after-own-move', unit: 'DA', targets: [] };
    const g = sandbox([DA, ST], { phase: 'movement' }, using('FEIGNED RETREAT'));
    expect(offered(g, w, 'FEIGNED RETREAT')).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'DA', mode: 'fall-back' });
    expect(offered(g, w, 'FEIGNED RETREAT')).toEqual(['DA']);
    expect(openWindow(g, w)).toEqual(['FEIGNED RETREAT']);
    expect(g.state.effects.some((e) => e.kind === 'Feigned Retreat' && e.unit === 'DA')).toBe(true);
  });

  it('FIRE AND FADE (1CP): just after an ASURYANI INFANTRY unit shot, a Normal move of up to D6+1"; then no charge and no embarking this turn', () => {
    const w: Window = { name: 'shooting/after-own-shot', unit: 'DA', targets: ['ST'] };
    const g = sandbox([DA, WG, WS, ST], { stream: scriptedStream([2]) }, using('FIRE AND FADE', 'fire-and-fade-move', (o) => o.length - 1));
    expect(usableStratagems(g, w, 0).filter((x) => x.s.name === 'FIRE AND FADE').map((x) => [x.unit.id, x.cp])).toEqual([['DA', 1]]);
    // not a WRAITH CONSTRUCT unit, not a VEHICLE
    expect(offered(g, { ...w, unit: 'WG' }, 'FIRE AND FADE')).toEqual([]);
    expect(offered(g, { ...w, unit: 'WS' }, 'FIRE AND FADE')).toEqual([]);
    const from = { ...g.state.units.DA.models[0].pos! };
    expect(openWindow(g, w)).toEqual(['FIRE AND FADE']);
    const inches = moved(g, 'DA', from);
    // a roll of 2: up to 3"
    expect(inches).toBeGreaterThan(2.5);
    expect(inches).toBeLessThanOrEqual(3 + 1e-6);
    expect([forbids(g.state, g.state.units.DA, 'charge'), forbids(g.state, g.state.units.DA, 'embark')]).toEqual([true, true]);
    expect([forbids(g.state, g.state.units.WG, 'charge'), forbids(g.state, g.state.units.WG, 'embark')]).toEqual([false, false]);
  });

  it('BLITZING FIREPOWER: SUSTAINED HITS 1 against a unit within 12"; a weapon that has SUSTAINED HITS scores Critical Hits on 5+', () => {
    const w: Window = { name: 'shooting/unit-selected', unit: 'GD', targets: [] };
    const FU: PlacedUnit = { id: 'FU', player: 0, faction: 'aeldari', name: 'Fuegan', at: { x: 20, y: 20 } };
    const g = sandbox([GD, FU, ST], {}, using('BLITZING FIREPOWER'));
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult', { distance: 10 }).sustainedHits).toBe(0);
    expect(openWindow(g, w)).toEqual(['BLITZING FIREPOWER']);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult', { distance: 10 }).sustainedHits).toBe(1);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult', { distance: 15 }).sustainedHits).toBe(0);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult', { distance: 10 }).criticalHitOn).toBe(6);
    // Fuegan's beam has SUSTAINED HITS 2 already (once per phase: another game)
    const f = sandbox([GD, FU, ST], {}, using('BLITZING FIREPOWER'));
    const beam = (distance: number) => planFor(f, 'FU', 'ST', 'Searsong', { distance });
    expect([beam(10).sustainedHits, beam(10).criticalHitOn]).toEqual([2, 6]);
    expect(openWindow(f, { ...w, unit: 'FU' })).toEqual(['BLITZING FIREPOWER']);
    expect([beam(10).sustainedHits, beam(10).criticalHitOn]).toEqual([2, 5]);
    expect(beam(13).criticalHitOn).toBe(6);
    // not a unit that has shot
    g.emit({ type: 'unit-flag', unit: 'GD', flag: 'shot', value: true });
    expect(offered(g, w, 'BLITZING FIREPOWER')).toEqual([]);
  });

  it('SKYBORNE SANCTUARY: at the end of a Fight phase an ASURYANI unit that fought embarks within a TRANSPORT it is wholly within 6" of', () => {
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    const g = sandbox([DA, { ...WS, at: { x: 10, y: 36 } }, { ...ST, at: { x: 40, y: 40 } }], { phase: 'fight', turn: 1 }, using('SKYBORNE SANCTUARY'));
    expect(offered(g, end, 'SKYBORNE SANCTUARY')).toEqual([]);
    g.emit({ type: 'unit-flag', unit: 'DA', flag: 'fought', value: true });
    expect(usableStratagems(g, end, 0).filter((x) => x.s.name === 'SKYBORNE SANCTUARY').map((x) => x.s.source)).toEqual([WH]);
    expect(openWindow(g, end)).toContain('SKYBORNE SANCTUARY');
    expect([g.state.units.DA.location, g.state.units.DA.embarkedIn]).toEqual(['embarked', 'WS']);
  });

  it('WEBWAY TUNNEL: at the end of the opponent\'s Fight phase an ASURYANI INFANTRY unit wholly within 9" of an edge goes into Strategic Reserves', () => {
    const end: Window = { name: 'phase/end', unit: null, targets: [], data: { phase: 'fight' } };
    const near = { ...DA, at: { x: 5, y: 22 } };
    const g = sandbox([near, { ...GD, at: { x: 30, y: 22 } }, WS, { ...ST, at: { x: 40, y: 40 } }], { phase: 'fight', turn: 1 }, using('WEBWAY TUNNEL'));
    // the Guardians stand in the middle of the board, the Wave Serpent is no INFANTRY
    expect(offered(g, end, 'WEBWAY TUNNEL')).toEqual(['DA']);
    // not at the end of the player's own Fight phase, nor of another phase
    expect(offered(sandbox([near, ST], { phase: 'fight', turn: 0 }), end, 'WEBWAY TUNNEL')).toEqual([]);
    expect(offered(sandbox([near, ST], { phase: 'shooting', turn: 1 }), { ...end, data: { phase: 'shooting' } }, 'WEBWAY TUNNEL')).toEqual([]);
    // not within Engagement Range
    const engaged = sandbox([near, { ...ST, at: { x: 12, y: 22 } }], { phase: 'fight', turn: 1 });
    setGap(engaged, 'ST', 'DA', 0.5);
    expect(offered(engaged, end, 'WEBWAY TUNNEL')).toEqual([]);
    expect(openWindow(g, end)).toEqual(['WEBWAY TUNNEL']);
    expect(g.state.units.DA.location).toBe('strategic-reserves');
    // wholly within 11" of the west edge, not within 9": not offered (audit 19 mutant D18)
    const farther = sandbox([{ ...DA, at: { x: 10, y: 22 } }, { ...ST, at: { x: 40, y: 40 } }], { phase: 'fight', turn: 1 });
    const reach = Math.max(...farther.state.units.DA.models.map((m) => m.pos!.x + (modelBase(farther.state, m) as { r: number }).r));
    expect(reach).toBeGreaterThan(9);
    expect(reach).toBeLessThan(11);
    expect(offered(farther, end, 'WEBWAY TUNNEL')).toEqual([]);
  });
});

describe('Warhost Enhancements', () => {
  it('Phoenix Gem: the first time the bearer is destroyed, on a 2+ at the end of the phase it stands again with full wounds; only once', () => {
    const g = sandbox([{ ...AU, enhancement: 'Phoenix Gem' }, ST], { stream: scriptedStream([2]) });
    const au = () => g.state.units.AU.models[0];
    const where = { ...au().pos! };
    destroyModel(g, g.state.units.AU, au(), 'ST', 'test');
    expect(g.state.units.AU.location).toBe('destroyed');
    expect(g.state.effects.filter((e) => e.kind === PHOENIX_GEM_PENDING)).toHaveLength(1);
    endPhase(g, 0, 'shooting');
    expect([au().alive, au().wounds, g.state.units.AU.location]).toEqual([true, g.state.datasheets[au().datasheet].models[au().profile].wounds, 'battlefield']);
    expect(Math.hypot(au().pos!.x - where.x, au().pos!.y - where.y)).toBeLessThanOrEqual(1 + 1e-6);
    // the second time it stays destroyed (no die left in the stream: none is rolled)
    destroyModel(g, g.state.units.AU, au(), 'ST', 'test');
    endPhase(g, 0, 'shooting');
    expect(g.state.units.AU.location).toBe('destroyed');
  });

  it('Phoenix Gem: a 1 keeps the bearer destroyed; an Autarch without it stays destroyed', () => {
    const fail = sandbox([{ ...AU, enhancement: 'Phoenix Gem' }, ST], { stream: scriptedStream([1]) });
    destroyModel(fail, fail.state.units.AU, fail.state.units.AU.models[0], 'ST', 'test');
    endPhase(fail, 0, 'shooting');
    expect(fail.state.units.AU.location).toBe('destroyed');
    const none = sandbox([AU, ST]);
    destroyModel(none, none.state.units.AU, none.state.units.AU.models[0], 'ST', 'test');
    expect(none.state.effects.filter((e) => e.kind === PHOENIX_GEM_PENDING)).toHaveLength(0);
  });

  it('Timeless Strategist: one token more while the bearer is on the battlefield or in a TRANSPORT there; none while it is in Reserves', () => {
    const tokens = (where: 'battlefield' | 'embarked' | 'reserves', enhancement?: string) => {
      const g = sandbox([{ ...AU, at: { x: 10, y: 30 }, ...(enhancement ? { enhancement } : {}) }, { ...WS, at: { x: 10, y: 34 } }, ST], { phase: 'command' });
      if (where === 'embarked') embark(g, g.state.units.AU, g.state.units.WS);
      if (where === 'reserves') g.emit({ type: 'unit-location', unit: 'AU', location: 'strategic-reserves', embarkedIn: null });
      startPhase(g, g.state.firstPlayer, 'command');
      return battleFocusTokens(g.state, 0);
    };
    expect(tokens('battlefield')).toBe(5);
    expect(tokens('battlefield', 'Timeless Strategist')).toBe(6);
    expect(tokens('embarked', 'Timeless Strategist')).toBe(6);
    expect(tokens('reserves', 'Timeless Strategist')).toBe(5);
  });

  it('Gift of Foresight: COMMAND RE-ROLL on the bearer\'s unit for 0CP once per battle round', () => {
    const hit = (unit: string) => ({ purpose: 'hit' as const, player: 0 as PlayerIndex, unit, sides: 6, values: [1], test: { needed: 3, modifier: 0, criticalOn: 6 }, rerolled: [] });
    const react = commandRerollReaction('COMMAND RE-ROLL', 'Core', REROLLABLE);
    const phase = (g: Game, round: number, p: PhaseName) => {
      if (round !== g.state.round) g.emit({ type: 'round-started', round });
      g.emit({ type: 'phase-started', round, player: 0, phase: p });
    };
    const g = sandbox([{ ...AU, enhancement: 'Gift of Foresight' }, { ...GD, at: { x: 30, y: 38 } }, ST], { cp: 0, stream: scriptedStream([5, 4, 6]) }, (r) => (r.kind === 'stratagem' ? 1 : 0));
    // without CP: the bearer's unit re-rolls for nothing, another unit cannot
    expect(react(g, hit('GD'))).toBeNull();
    expect(react(g, hit('AU'))?.values).toEqual([5]);
    expect(g.state.players[0].cp).toBe(0);
    // once per battle round: not in the next phase of the same round, again in the next round
    phase(g, 1, 'fight');
    expect(react(g, hit('AU'))).toBeNull();
    phase(g, 2, 'shooting');
    expect(react(g, hit('AU'))?.values).toEqual([4]);
    // with CP, used up this round: it costs 1CP again
    const paid = sandbox([{ ...AU, enhancement: 'Gift of Foresight' }, ST], { cp: 2, stream: scriptedStream([5, 6]) }, (r) => (r.kind === 'stratagem' ? 1 : 0));
    expect(react(paid, hit('AU'))?.values).toEqual([5]);
    expect(paid.state.players[0].cp).toBe(2);
    phase(paid, 1, 'fight');
    expect(react(paid, hit('AU'))?.values).toEqual([6]);
    expect(paid.state.players[0].cp).toBe(1);
  });

  it('Psychic Destroyer: +1 Damage to the bearer\'s ranged PSYCHIC weapons; not its pistol nor its melee weapon', () => {
    const FS: PlacedUnit = { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 20, y: 20 } };
    const g = sandbox([{ ...FS, enhancement: 'Psychic Destroyer' }, ST]);
    const plain = sandbox([FS, ST]);
    expect(planFor(g, 'FS', 'ST', 'Eldritch Storm').damageBonus).toBe(planFor(plain, 'FS', 'ST', 'Eldritch Storm').damageBonus + 1);
    expect(planFor(g, 'FS', 'ST', 'Shuriken pistol').damageBonus).toBe(planFor(plain, 'FS', 'ST', 'Shuriken pistol').damageBonus);
    expect(planFor(g, 'FS', 'ST', 'Witchblade').damageBonus).toBe(planFor(plain, 'FS', 'ST', 'Witchblade').damageBonus);
  });
});

describe('Warhost muster, and the mirror', () => {
  const ae = loadFactionCatalog('AE');
  const army = loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-battle-host.json'));
  const warn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));
  const withEnhancement = (name: string, e: string): ArmyFile => {
    const units = army.units.map((u): ArmyUnit => ({ ...u }));
    units.find((u) => u.name === name)!.enhancement = e;
    return { ...army, detachment: WH, units };
  };

  it('Psychic Destroyer goes on an ASURYANI PSYKER CHARACTER: the Farseer, not the Autarch', () => {
    expect(warn(withEnhancement('Farseer', 'Psychic Destroyer'))).toEqual([]);
    expect(warn(withEnhancement('Autarch', 'Psychic Destroyer'))).toHaveLength(1);
    expect(warn(withEnhancement('Autarch', 'Phoenix Gem'))).toEqual([]);
  });

  it('the mirror scenario plays the Battle Host army with the Warhost against none', () => {
    const sc = loadScenario(join(root, 'scenarios', 'mirror', 'warhost-vs-none.json'));
    expect(sc.players.map((p) => p.detachment)).toEqual([WH, null]);
    expect(sc.warnings).toEqual([]);
  });
});
