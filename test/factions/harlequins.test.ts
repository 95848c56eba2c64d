/**
 * The Harlequins' datasheet abilities (src/factions/aeldari/harlequins.ts) and their army-building rules
 * (src/data/muster-checks.ts, the scenario loader's Warlord): one test (or more) each, comparing the
 * situation with and without the ability, that fails if it is played wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aeldariSandbox, battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { allows, getRule, pileInMove, targetableFrom } from '../../src/core/rules-registry.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { canCharge } from '../../src/rules/battle/charge.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { executeMove } from '../../src/rules/battle/movement.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { planModels, planUnit, worldOf } from '../../src/rules/battle/placement.ts';
import { validatePlacement } from '../../src/geometry/planner.ts';
import { loadArmyFile, type ArmyFile } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { musterWarnings } from '../../src/data/muster-checks.ts';
import { scenarioVariant } from '../../src/sim/variants.ts';
import { ruleCoverage } from '../../src/factions/coverage.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { BLITZING, CRUEL_AMUSEMENT_EFFECT } from '../../src/factions/aeldari/harlequins.ts';

type Pick = (r: DecisionRequest) => number;

const asked: string[] = [];
const sandbox = (units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game => aeldariSandbox(units, asked, opts, pick);
const rule = (name: string) => getRule(name)!;
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 };

/** A Troupe (BG, 5 models) with `leader` (LD) 3" off, attached when `attached`; a Strike Team 20" away. */
function led(leader: string, attached: boolean, opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game {
  const g = sandbox([
    { id: 'BG', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 5 } },
    { id: 'LD', player: 0, faction: 'aeldari', name: leader, at: { x: 12, y: 5 } },
    ST,
  ], opts, pick);
  if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
  return g;
}

describe('Troupe Master', () => {
  it('Choreographer of War: the unit he leads piles in up to 6"; 3" when he leads no unit', () => {
    const g = led('Troupe Master', true);
    expect(pileInMove(g.state, g.state.units.BG)).toEqual({ distance: 6, closestUnitContact: true });
    const alone = led('Troupe Master', false);
    expect(pileInMove(alone.state, alone.state.units.LD)).toEqual({ distance: 3, closestUnitContact: false });
    expect(pileInMove(alone.state, alone.state.units.BG)).toEqual({ distance: 3, closestUnitContact: false });
    // in play: a Cadre Fireblade 5" from the unit; the pile-in of the led unit reaches it, the lone Troupe's does not
    const pileIn = (attached: boolean): number => {
      const g = sandbox([
        { id: 'BG', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 20, y: 20 }, counts: [1, 4], spacing: 1.2 },
        { id: 'LD', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 21.2, y: 20 } },
        { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 40, y: 22 } },
      ], { phase: 'fight', stream: scriptedStream(new Array(60).fill(1)) });
      if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
      setGap(g, 'CF', 'BG', 5);
      const before = new Map(g.state.units.BG.models.map((m) => [m.id, { ...m.pos! }]));
      const from = g.log!.length;
      fight(g, g.state.units.BG);
      const move = g.log!.slice(from).find((e) => e.type === 'models-placed' && e.unit === 'BG' && e.mode === 'pile-in') as { positions: { model: string; pos: { x: number; y: number } }[] } | undefined;
      if (!move) return 0;
      return Math.max(...move.positions.map((p) => { const b = before.get(p.model)!; return Math.hypot(p.pos.x - b.x, p.pos.y - b.y); }));
    };
    const far = pileIn(true);
    expect(far).toBeGreaterThan(3 + 1e-3);
    expect(far).toBeLessThanOrEqual(6 + 1e-6);
    expect(pileIn(false)).toBeLessThanOrEqual(3 + 1e-6);
  });

  it('Choreographer of War: a model may pile in to base contact with another model of the closest enemy unit, not closer to its closest model', () => {
    // the Troupe Master 2" from a Fire Warrior (A) behind a long wall, 4" from another (B) on its side of it:
    // only B can be reached; ending against B takes it farther from A
    const g = sandbox([
      { id: 'LD', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 10, y: 10 } },
      { ...ST, at: { x: 40, y: 30 }, counts: [1, 4] },
    ], { phase: 'fight', terrain: [{ id: 'w1', kind: 'impassable', polygon: [{ x: 11.3, y: 0 }, { x: 11.7, y: 0 }, { x: 11.7, y: 19 }, { x: 11.3, y: 19 }], height: 5 }] });
    const st = g.state.units.ST.models;
    const at = [{ x: 12.98, y: 10 }, { x: 10, y: 14.98 }, { x: 14, y: 22 }, { x: 15, y: 22 }, { x: 16, y: 22 }];
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: st.map((m, i) => ({ model: m.id, pos: { ...at[i], z: 0 } })) });
    const touchesB = (closestUnitContact: boolean) => {
      const plan = planUnit(g.state, g.state.units.LD, 'pileIn', closestUnitContact ? { maxDistance: 6, closestUnitContact } : { maxDistance: 6 });
      if (!plan.ok) return false;
      const p = plan.positions[0];
      return Math.hypot(p.x - at[1].x, p.y - at[1].y) <= 0.98 + 0.02;
    };
    expect(touchesB(true)).toBe(true);
    expect(touchesB(false)).toBe(false);
    // the placement check agrees: against B is legal only when base contact with the closest unit is enough
    const planned = planUnit(g.state, g.state.units.LD, 'pileIn', { maxDistance: 6, closestUnitContact: true });
    if (!planned.ok) throw new Error(planned.reason);
    const check = (closestUnitContact: boolean) => validatePlacement({
      mode: 'pileIn', player: '0', unitId: 'LD', models: planModels(g.state, g.state.units.LD), maxDistance: 6, ...(closestUnitContact ? { closestUnitContact } : {}),
    }, worldOf(g.state, 'LD'), planned.positions).ok;
    expect(check(true)).toBe(true);
    expect(check(false)).toBe(false);
  });

  it('Cegorach\'s Favour: his melee attacks re-roll a Hit roll of 1 and add 1 to the Wound roll; not his pistol, not the Troupe\'s', () => {
    const g = led('Troupe Master', true);
    const blade = planFor(g, 'BG', 'ST', "Troupe Master's blade");
    expect([blade.rerollHits, blade.woundModifier]).toEqual(['ones', 1]);
    const pistol = planFor(g, 'BG', 'ST', 'Shuriken pistol');
    expect([pistol.rerollHits, pistol.woundModifier]).toEqual(['none', 0]);
    const troupe = planFor(g, 'BG', 'ST', "Harlequin's blade");
    expect([troupe.rerollHits, troupe.woundModifier]).toEqual(['none', 0]);
  });
});

describe('Shadowseer and Voidweaver', () => {
  it('Fog of Dreams: the unit the Shadowseer leads is a ranged target only from within 18"; not when she leads no unit', () => {
    const g = led('Shadowseer', true);
    expect(targetableFrom(g.state, g.state.units.BG, 18)).toBe(true);
    expect(targetableFrom(g.state, g.state.units.BG, 18.5)).toBe(false);
    const alone = led('Shadowseer', false);
    expect(targetableFrom(alone.state, alone.state.units.LD, 18.5)).toBe(true);
    expect(targetableFrom(alone.state, alone.state.units.BG, 18.5)).toBe(true);
  });

  it('Fog of Dreams in play: a Strike Team 20" away cannot shoot the led unit, one 15" away can', () => {
    const shotAt = (gap: number): boolean => {
      const g = battleSandbox([
        { id: 'BG', player: 1, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 5 } },
        { id: 'LD', player: 1, faction: 'aeldari', name: 'Shadowseer', at: { x: 12, y: 5 } },
        { ...ST, player: 0 },
      ], { phase: 'shooting', factions: ['TAU', 'AE'] });
      g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
      setGap(g, 'ST', 'BG', gap);
      const from = g.log!.length;
      shootWithUnit(g, g.state.units.ST);
      return g.log!.slice(from).some((e) => e.type === 'decision' && e.request === 'shoot-target');
    };
    expect(shotAt(15)).toBe(true);
    expect(shotAt(20)).toBe(false);
  });

  it('Polychromatic Camouflage: the Voidweaver is a ranged target only from within 18"', () => {
    const g = sandbox([{ id: 'VW', player: 0, faction: 'aeldari', name: 'Voidweaver', at: { x: 10, y: 5 } }, ST]);
    expect(targetableFrom(g.state, g.state.units.VW, 17.9)).toBe(true);
    expect(targetableFrom(g.state, g.state.units.VW, 18.1)).toBe(false);
  });

  it('Treacherous Illusion: enemy melee attacks at the Shadowseer\'s unit are HAZARDOUS; not at other units, not ranged ones', () => {
    const g = sandbox([
      { id: 'BG', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 5 } },
      { id: 'LD', player: 0, faction: 'aeldari', name: 'Shadowseer', at: { x: 12, y: 5 } },
      { id: 'T2', player: 0, faction: 'aeldari', name: 'Troupe', at: { x: 10, y: 25 } },
      ST,
    ], { phase: 'fight' });
    g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
    expect(planFor(g, 'ST', 'BG', 'Close combat weapon').hazardous).toBe(true);
    expect(planFor(g, 'ST', 'BG', 'Pulse rifle').hazardous).toBe(false);
    expect(planFor(g, 'ST', 'T2', 'Close combat weapon').hazardous).toBe(false);
    // her own unit's attacks are not
    expect(planFor(g, 'BG', 'ST', "Harlequin's blade").hazardous).toBe(false);
  });
});

describe('Death Jester', () => {
  const jester = (dice: number[], pick: Pick = () => 0, extra: PlacedUnit[] = []) => sandbox([
    { id: 'DJ', player: 0, faction: 'aeldari', name: 'Death Jester', at: { x: 10, y: 5 } },
    ST, ...extra,
  ], { stream: scriptedStream(dice) }, pick);

  it('Death is Not Enough: an enemy unit it hit takes a Battle-shock test, at -1 when those attacks destroyed one of its models', () => {
    // 4 + 3 = 7 passes the Strike Team's Leadership 7+; at -1 it fails
    const g = jester([4, 3]);
    rule('Death is Not Enough').selectedToShoot!(g, g.state.units.DJ);
    rule('Death is Not Enough').afterShooting!(g, g.state.units.DJ, ['ST'], [{ weapon: 'Shrieker cannon', target: 'ST' }]);
    expect(asked).toEqual(['death-is-not-enough']);
    expect(g.state.units.ST.battleShocked).toBe(false);
    const k = jester([4, 3]);
    rule('Death is Not Enough').selectedToShoot!(k, k.state.units.DJ);
    k.emit({ type: 'model-destroyed', unit: 'ST', model: k.state.units.ST.models[4].id, by: 'DJ', reason: 'test' });
    rule('Death is Not Enough').afterShooting!(k, k.state.units.DJ, ['ST'], [{ weapon: 'Shrieker cannon', target: 'ST' }]);
    expect(k.state.units.ST.battleShocked).toBe(true);
  });

  it('Death is Not Enough: not a VEHICLE, not in the opponent\'s turn', () => {
    const g = jester([1, 1], () => 0, [{ id: 'DF', player: 1, faction: 'tau', name: 'Devilfish', at: { x: 30, y: 25 } }]);
    rule('Death is Not Enough').afterShooting!(g, g.state.units.DJ, ['DF'], [{ weapon: 'Shrieker cannon', target: 'DF' }]);
    expect(asked).toEqual([]);
    expect(g.state.units.DF.battleShocked).toBe(false);
    const theirs = sandbox([{ id: 'DJ', player: 0, faction: 'aeldari', name: 'Death Jester', at: { x: 10, y: 5 } }, ST], { turn: 1, stream: scriptedStream([1, 1]) });
    rule('Death is Not Enough').afterShooting!(theirs, theirs.state.units.DJ, ['ST'], [{ weapon: 'Shrieker cannon', target: 'ST' }]);
    expect(asked).toEqual([]);
    expect(theirs.state.units.ST.battleShocked).toBe(false);
  });

  it('Cruel Amusement: the chosen ability is the shrieker cannon\'s for the phase, not the blade\'s', () => {
    const chosen = (i: number) => {
      const g = jester([], (r) => (r.kind === 'cruel-amusement' ? i : 0));
      const before = planFor(g, 'DJ', 'ST', 'Shrieker cannon');
      expect([before.sustainedHits, before.precision, before.ignoresCover]).toEqual([0, false, false]);
      rule('Cruel Amusement').selectedToShoot!(g, g.state.units.DJ);
      expect(asked).toEqual(['cruel-amusement']);
      expect(g.state.effects.find((e) => e.kind === CRUEL_AMUSEMENT_EFFECT)!.expires).toEqual(g.untilEndOfPhase());
      const p = planFor(g, 'DJ', 'ST', 'Shrieker cannon');
      const blade = planFor(g, 'DJ', 'ST', "Jester's blade");
      expect([blade.sustainedHits, blade.precision, blade.ignoresCover]).toEqual([0, false, false]);
      return [p.sustainedHits, p.precision, p.ignoresCover];
    };
    expect(chosen(0)).toEqual([3, false, false]);
    expect(chosen(1)).toEqual([0, true, false]);
    expect(chosen(2)).toEqual([0, false, true]);
  });

  it('Fanged Leer: the bearer\'s Cruel Amusement gives two of the abilities', () => {
    const requests: DecisionRequest[] = [];
    const g = sandbox([{ id: 'DJ', player: 0, faction: 'aeldari', name: 'Death Jester', at: { x: 10, y: 5 }, enhancement: 'Fanged Leer' }, ST], {}, (r) => {
      requests.push(r);
      return r.kind === 'cruel-amusement' ? 2 : 0;
    });
    rule('Cruel Amusement').selectedToShoot!(g, g.state.units.DJ);
    expect(requests[0].options).toEqual([['SUSTAINED HITS 3', 'PRECISION'], ['SUSTAINED HITS 3', 'IGNORES COVER'], ['PRECISION', 'IGNORES COVER']]);
    const p = planFor(g, 'DJ', 'ST', 'Shrieker cannon');
    expect([p.sustainedHits, p.precision, p.ignoresCover]).toEqual([0, true, true]);
    expect(getRule('Fanged Leer')?.kind).toBe('enhancement');
  });

  it('Cruel Amusement: the heuristic takes SUSTAINED HITS 3 against a lone unit, PRECISION against one a valuable CHARACTER leads', () => {
    const picked = (leaderPoints: number | null) => {
      const g = battleSandbox([
        { id: 'DJ', player: 0, faction: 'aeldari', name: 'Death Jester', at: { x: 10, y: 20 } },
        { ...ST, at: { x: 25, y: 18 }, points: 75 },
        ...(leaderPoints === null ? [] : [{ id: 'CF', player: 1 as const, faction: 'tau' as const, name: 'Cadre Fireblade', at: { x: 26, y: 18 }, points: leaderPoints }]),
      ], { phase: 'shooting', factions: ['AE', 'TAU'], agents: [createHeuristic(), scriptedAgent('tau')] });
      if (leaderPoints !== null) g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
      rule('Cruel Amusement').selectedToShoot!(g, g.state.units.DJ);
      return g.state.effects.find((e) => e.kind === CRUEL_AMUSEMENT_EFFECT)!.params.abilities;
    };
    expect(picked(null)).toEqual(['SUSTAINED HITS 3']);
    expect(picked(120)).toEqual(['PRECISION']);
    // a cheap Leader is not worth it
    expect(picked(20)).toEqual(['SUSTAINED HITS 3']);
  });
});

describe('Solitaire', () => {
  const solitaire = (dice: number[], pick: Pick) => sandbox([
    { id: 'SO', player: 0, faction: 'aeldari', name: 'Solitaire', at: { x: 10, y: 5 } },
    ST,
  ], { phase: 'movement', stream: scriptedStream(dice) }, pick);

  it('Blitz: once per battle, before a Normal move: +2D6" Move and +3 Attacks to its Solitaire weapons until the end of the turn', () => {
    const g = solitaire([3, 4], (r) => (r.kind === 'blitz' ? 1 : 0));
    const so = () => g.state.units.SO;
    expect(characteristic(g.state, so(), so().models[0], 'M')).toBe(12);
    expect(planFor(g, 'SO', 'ST', 'Solitaire weapons').attacksBonus).toBe(0);
    // not before an Advance
    rule('Blitz').beforeMove!(g, so(), 'advance', { x: 30, y: 5 });
    expect(asked).toEqual([]);
    rule('Blitz').beforeMove!(g, so(), 'normal', { x: 30, y: 5 });
    expect(asked).toEqual(['blitz']);
    expect(characteristic(g.state, so(), so().models[0], 'M')).toBe(19);
    expect(planFor(g, 'SO', 'ST', 'Solitaire weapons').attacksBonus).toBe(3);
    expect(g.state.effects.find((e) => e.kind === BLITZING)!.expires).toEqual(g.untilEndOfTurn());
    // once per battle: not offered again
    rule('Blitz').beforeMove!(g, so(), 'normal', { x: 30, y: 5 });
    expect(asked).toEqual(['blitz']);
    // kept: nothing changes, and it stays available
    const kept = solitaire([3, 4], () => 0);
    rule('Blitz').beforeMove!(kept, kept.state.units.SO, 'normal', { x: 30, y: 5 });
    expect(characteristic(kept.state, kept.state.units.SO, kept.state.units.SO.models[0], 'M')).toBe(12);
    rule('Blitz').beforeMove!(kept, kept.state.units.SO, 'normal', { x: 30, y: 5 });
    expect(asked).toEqual(['blitz', 'blitz']);
  });

  it('Blitz in play: the Normal move goes 12" + 2D6"; the heuristic blitzes toward a far destination, not a near one with no enemy near', () => {
    const moved = (toX: number, enemyAt: { x: number; y: number }) => {
      const g = battleSandbox([
        { id: 'SO', player: 0, faction: 'aeldari', name: 'Solitaire', at: { x: 6, y: 5 } },
        { ...ST, at: enemyAt },
      ], { phase: 'movement', factions: ['AE', 'TAU'], stream: scriptedStream([5, 6]), agents: [createHeuristic(), scriptedAgent('tau')] });
      executeMove(g, g.state.units.SO, { mode: 'normal', to: { x: toX, y: 5 }, toward: 'test' });
      return g.state.units.SO.models[0].pos!.x - 6;
    };
    expect(moved(50, { x: 55, y: 40 })).toBeCloseTo(23, 3);
    expect(moved(12, { x: 55, y: 40 })).toBeCloseTo(6, 3);
  });

  it('Blur of Movement: it may charge after Advancing; a Troupe Master may not', () => {
    const g = sandbox([
      { id: 'SO', player: 0, faction: 'aeldari', name: 'Solitaire', at: { x: 10, y: 5 } },
      { id: 'TM', player: 0, faction: 'aeldari', name: 'Troupe Master', at: { x: 10, y: 15 } },
      { ...ST, at: { x: 17, y: 5 } },
    ], { phase: 'charge' });
    for (const id of ['SO', 'TM']) g.emit({ type: 'unit-moved', unit: id, mode: 'advance' });
    expect(allows(g.state, g.state.units.SO, 'charge-after-advance')).toBe(true);
    expect(canCharge(g, g.state.units.SO)).toBe(true);
    expect(canCharge(g, g.state.units.TM)).toBe(false);
  });
});

describe('Harlequin army building', () => {
  const root = join(import.meta.dirname, '..', '..');
  const ae = loadFactionCatalog('AE');
  const base = (): ArmyFile => loadArmyFile(join(root, 'scenarios', 'armies', 'aeldari-harlequins.json'));
  const warn = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id));
  /** The army with `n` more copies of its first unit named `name` (new ids, not the Warlord). */
  const more = (a: ArmyFile, name: string, n: number): ArmyFile => {
    const u = a.units.find((x) => x.name === name)!;
    const extra = Array.from({ length: n }, (_, i) => ({ ...structuredClone(u), id: `x${i + 1}`, warlord: undefined }));
    return { ...a, units: [...a.units, ...extra] };
  };

  it('the bundled army breaks none of them', () => {
    expect(warn(base())).toEqual([]);
    expect(warn({ ...base(), detachment: '' })).toEqual([]);
  });

  it('TRAVELLING PLAYERS: one of each of those datasheets, three in Ghosts of the Webway and Serpent\'s Brood', () => {
    const two = (detachment: string) => warn({ ...more(base(), 'Death Jester', 1), detachment });
    expect(two('')).toEqual(['2 Death Jester units: at most 1 (TRAVELLING PLAYERS)']);
    expect(two('Ghosts of the Webway')).toEqual([]);
    expect(two("Serpent's Brood")).toEqual([]);
    expect(warn({ ...more(base(), 'Shadowseer', 3), detachment: 'Ghosts of the Webway' })).toEqual(['4 Shadowseer units: at most 3 of a datasheet', '4 Shadowseer units: at most 3 (TRAVELLING PLAYERS)']);
    // the Solitaire is not a Travelling Player (it is an EPIC HERO: once)
    expect(ruleCoverage('TRAVELLING PLAYERS').status).toBe('played');
  });

  it("an Enhancement goes on the models its keywords name (the data's list): Key of Ghosts on a Harlequin, not a Farseer", () => {
    const withKey = (name: string): ArmyFile => {
      const a = { ...base(), detachment: "Serpent's Brood" };
      a.units = a.units.map((u) => (u.name === name ? { ...u, enhancement: 'Key of Ghosts' } : u));
      return a;
    };
    const check = (a: ArmyFile) => musterWarnings(a, (id) => ae.byId(id), (e) => ae.enhancement(e));
    expect(check(withKey('Troupe Master'))).toEqual([]);
    // a Farseer in the army, given it: refused with the datasheets that may take it (CHARACTERs, not EPIC HEROes)
    const farseer = ae.byName('Farseer')!;
    const a = withKey('Troupe Master');
    a.units = [...a.units.map((u) => ({ ...u, enhancement: undefined })), { id: 'f1', datasheetId: farseer.id, name: 'Farseer', points: 70, models: [{ profile: farseer.name, count: 1, weapons: [] }], enhancement: 'Key of Ghosts' }];
    expect(check(a).filter((w) => w.includes('Key of Ghosts'))).toEqual(['Farseer (f1) has Key of Ghosts: it goes on Death Jester, Shadowseer, Troupe Master (the models its keywords name)']);
    // without the data's list only the general rule is known: a CHARACTER, not an EPIC HERO
    expect(warn(a).filter((w) => w.includes('Key of Ghosts'))).toEqual([]);
  });

  it('Troupes are BATTLELINE in the Harlequin detachments: six may be taken there, three elsewhere', () => {
    const six = more(base(), 'Troupe', 3);
    expect(warn({ ...six, detachment: 'Ghosts of the Webway' })).toEqual([]);
    expect(warn({ ...six, detachment: "Serpent's Brood" })).toEqual([]);
    expect(warn({ ...six, detachment: '' })).toEqual(['6 Troupe units: at most 3 of a datasheet']);
    expect(warn({ ...more(base(), 'Troupe', 4), detachment: 'Ghosts of the Webway' })).toEqual(['7 Troupe units: at most 6 of a datasheet']);
  });

  it('PATH OF DAMNATION: the Solitaire cannot be the Warlord; with none marked the scenario loader passes it over', () => {
    const a = base();
    a.units[0].warlord = undefined;
    const so = a.units.find((u) => u.name === 'Solitaire')!;
    so.warlord = true;
    expect(warn(a)).toEqual(['Solitaire (u4) cannot be the Warlord (PATH OF DAMNATION)']);
    // none marked, the Solitaire first of the CHARACTERS: the next one is the Warlord
    const none = base();
    none.units[0].warlord = undefined;
    none.units = [none.units[3], ...none.units.filter((_, i) => i !== 3)];
    expect(none.units[0].name).toBe('Solitaire');
    const dir = mkdtempSync(join(tmpdir(), 'strategium-harlequins-'));
    try {
      const file = join(dir, 'army.json');
      writeFileSync(file, JSON.stringify(none));
      const sc = scenarioVariant(join(root, 'scenarios', 'mirror', 'windrider-host-vs-none.json'), { armies: [file, file] });
      expect(sc.players[0].army.units.filter((u) => u.warlord).map((u) => u.name)).toEqual(['Troupe Master']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(ruleCoverage('PATH OF DAMNATION').status).toBe('played');
  });
});
