import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type BattleSandboxOptions, type PlacedUnit } from '../helpers/battle.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import { createHeuristic } from '../../agents/heuristic.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { weapon } from '../helpers/attack.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { modelBody, modelsSee } from '../../src/rules/battle/world.ts';

/** A ruin between the Guardians (x 10) and the Fireblade (x 30) at y 28-32. */
const RUIN = [{ id: 'r', kind: 'ruin' as const, height: 5, polygon: [{ x: 20, y: 28 }, { x: 24, y: 28 }, { x: 24, y: 32 }, { x: 20, y: 32 }] }];
/** One PRECISION shot that hits, wounds and gets through a 4+ save (AP -3) on 6s. */
const precisionGun = () => weapon({ attacks: '1', skill: 3, strength: 4, ap: -3, damage: '1', abilities: ['PRECISION'] });

/**
 * A Strike Team (ST) led by a Cadre Fireblade (FB), and by an Ethereal (ET) at `ethereal` when given, in the
 * Guardians' (GD) Shooting phase with these dice; `ruin`: RUIN on the table. `fire(models)` resolves one
 * PRECISION shot from each of those Guardians (the first by default) at the Strike Team.
 */
function ledStrikeTeam(opts: { dice: number[]; ruin?: boolean; ethereal?: { x: number; y: number }; agents?: BattleSandboxOptions['agents'] }) {
  const units: PlacedUnit[] = [
    { id: 'FB', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 30 } },
    ...(opts.ethereal ? [{ id: 'ET', player: 0, faction: 'tau', name: 'Ethereal', at: opts.ethereal } as PlacedUnit] : []),
    { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 31.5, y: 30 }, spacing: -1.6 },
    { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 30 } },
  ];
  const g = battleSandbox(units, { phase: 'shooting', turn: 1, stream: scriptedStream(opts.dice), terrain: opts.ruin ? RUIN : [], ...(opts.agents ? { agents: opts.agents } : {}) });
  g.emit({ type: 'unit-attached', leader: 'FB', bodyguard: 'ST' });
  if (opts.ethereal) g.emit({ type: 'unit-attached', leader: 'ET', bodyguard: 'ST' });
  const target = g.state.units.ST;
  const gun = precisionGun();
  const fire = (models = [g.state.units.GD.models[0]]) => resolveAttacks(g, g.state.units.GD, [{ weapon: gun, profile: gun.profiles[0], models, target: 'ST', halfRange: false, targetVisible: true, targetInCover: false, targetModels: target.models.length }], false);
  const leader = (origin: string) => target.models.find((m) => m.origin === origin)!;
  return { g, target, fire, leader };
}

/**
 * A Strike Team led by a Cadre Fireblade, shot by one Guardian with a PRECISION gun (one attack that
 * hits, wounds and gets through: AP -3 against a 4+ save). With `ruin`, a ruin stands between the
 * Guardian and the Fireblade, the Strike Team in plain sight.
 */
function shot(ruin: boolean) {
  const { g, target, fire, leader } = ledStrikeTeam({ dice: [6, 6], ruin });
  const shooter = g.state.units.GD.models[0];
  const fireblade = leader('FB');
  const bodyguards = target.models.filter((m) => m.origin === 'ST');
  const sees = (m: typeof shooter) => modelsSee(g.state, modelBody(g.state, shooter), shooter.id, modelBody(g.state, m), m.id);
  const sight = { fireblade: sees(fireblade), bodyguard: bodyguards.some(sees) };
  fire();
  return { sight, fireblade: fireblade.wounds, bodyguardsLeft: bodyguards.filter((m) => m.alive).length, bodyguards: bodyguards.length };
}

describe('PRECISION picks a CHARACTER the attacking model can see', () => {
  it('in plain sight, the Fireblade takes the attack', () => {
    const r = shot(false);
    expect(r.sight).toEqual({ fireblade: true, bodyguard: true });
    expect(r.fireblade).toBe(2);
    expect(r.bodyguardsLeft).toBe(r.bodyguards);
  });

  it('with the Fireblade hidden behind a ruin, a Bodyguard model takes it', () => {
    const r = shot(true);
    expect(r.sight).toEqual({ fireblade: false, bodyguard: true });
    expect(r.fireblade).toBe(3);
    expect(r.bodyguardsLeft).toBe(r.bodyguards - 1);
  });

  it('each attacking model: of two Guardians, only the one that sees the Fireblade may send its attack to him', () => {
    // Guardian A in the open to the side, Guardian B behind the ruin; both shots hit, wound and get through
    const { g, fire, leader } = ledStrikeTeam({ dice: [6, 6, 6, 6], ruin: true });
    const [a, b] = g.state.units.GD.models;
    g.emit({ type: 'models-placed', unit: 'GD', mode: 'test', positions: [{ model: a.id, pos: { x: 10, y: 20, z: 0 } }, { model: b.id, pos: { x: 10, y: 30, z: 0 } }] });
    const fireblade = leader('FB');
    const seesFireblade = (id: string) => {
      const m = g.state.units.GD.models.find((x) => x.id === id)!;
      return modelsSee(g.state, modelBody(g.state, m), m.id, modelBody(g.state, fireblade), fireblade.id);
    };
    expect([seesFireblade(a.id), seesFireblade(b.id)]).toEqual([true, false]);
    const wounds = fireblade.wounds;
    const tally = fire(g.state.units.GD.models.slice(0, 2));
    expect(tally.unsaved).toBe(2);
    const after = g.state.units.ST;
    expect(after.models.find((m) => m.id === fireblade.id)!.wounds).toBe(wounds - 1);
    expect(after.models.filter((m) => m.origin === 'ST' && !m.alive)).toHaveLength(1);
  });

  it('with two Leaders, one hidden behind a ruin and one in sight, the one in sight takes it (never the hidden one)', () => {
    // the Fireblade behind the ruin as above, an Ethereal in the open to the side; the Fireblade comes
    // first in the unit, so an allocation that ignored sight would pick it. Hit 6, wound 6, the
    // Ethereal's invulnerable save fails on a 1, and so does the Feel No Pain 5+ he gives the unit he leads
    const { g, target, fire, leader } = ledStrikeTeam({ dice: [6, 6, 1, 1], ruin: true, ethereal: { x: 31, y: 37 } });
    const shooter = g.state.units.GD.models[0];
    const fireblade = leader('FB');
    const ethereal = leader('ET');
    const sees = (m: typeof shooter) => modelsSee(g.state, modelBody(g.state, shooter), shooter.id, modelBody(g.state, m), m.id);
    expect([sees(fireblade), sees(ethereal)]).toEqual([false, true]);
    expect(target.models.indexOf(fireblade)).toBeLessThan(target.models.indexOf(ethereal));
    const etherealWounds = ethereal.wounds;
    const bodyguards = target.models.filter((m) => m.origin === 'ST').length;
    fire();
    expect(fireblade.wounds).toBe(3);
    expect(ethereal.wounds).toBe(etherealWounds - 1);
    expect(target.models.filter((m) => m.origin === 'ST' && m.alive)).toHaveLength(bodyguards);
  });
});

describe('PRECISION with two CHARACTERs in sight: the attacking player picks the one that takes the attacks', () => {
  /** A Strike Team led by a Cadre Fireblade and an Ethereal, both in plain sight of one Guardian; its player answers `pick`. */
  function twoLeaders(pick: (options: { model: string; name: string }[]) => number, dice: number[]) {
    const asked: { model: string; name: string }[][] = [];
    const guardian = scriptedAgent('ae', (r: DecisionRequest) => {
      if (r.kind !== 'precision-target') return 0;
      const options = r.options as { model: string; name: string }[];
      asked.push(options);
      return pick(options);
    });
    const { g, fire, leader } = ledStrikeTeam({ dice, ethereal: { x: 30, y: 32 }, agents: [scriptedAgent('tau'), guardian] });
    const fireblade = leader('FB');
    const ethereal = leader('ET');
    const before = { fireblade: fireblade.wounds, ethereal: ethereal.wounds };
    return { g, asked, fireblade, ethereal, before, fire: () => fire() };
  }

  it('offers both, in the unit\'s order; picking the Ethereal (the second) sends the attack to it', () => {
    // hit 6, wound 6, the Ethereal's invulnerable save fails on a 1, then the unit's Feel No Pain 5+ (Ethereal) on a 1
    const t = twoLeaders((o) => o.findIndex((x) => x.name === 'Ethereal'), [6, 6, 1, 1]);
    t.fire();
    expect(t.asked).toHaveLength(1);
    expect(t.asked[0].map((o) => o.model)).toEqual([t.fireblade.id, t.ethereal.id]);
    expect(t.ethereal.wounds).toBe(t.before.ethereal - 1);
    expect(t.fireblade.wounds).toBe(t.before.fireblade);
  });

  it('picking the Fireblade sends it to the Fireblade', () => {
    // hit 6, wound 6, no save, the unit's Feel No Pain 5+ (Ethereal) fails on a 1
    const t = twoLeaders((o) => o.findIndex((x) => x.name === 'Cadre Fireblade'), [6, 6, 1]);
    t.fire();
    expect(t.fireblade.wounds).toBe(t.before.fireblade - 1);
    expect(t.ethereal.wounds).toBe(t.before.ethereal);
  });

  it('the heuristic agent picks the CHARACTER already wounded, else the first offered', () => {
    const answer = (wounded: boolean) => {
      const t = twoLeaders(() => 0, [6, 6]);
      if (wounded) t.g.emit({ type: 'model-damaged', unit: 'ST', model: t.ethereal.id, wounds: 1, by: null, mortal: false });
      const req: DecisionRequest = { kind: 'precision-target', player: 1, prompt: '', options: [{ model: t.fireblade.id, name: 'Cadre Fireblade' }, { model: t.ethereal.id, name: 'Ethereal' }], context: { unit: 'GD', target: 'ST' } };
      return createHeuristic().decide({ state: t.g.state, player: 1 } as never, req).option;
    };
    expect(answer(true)).toBe(1);
    expect(answer(false)).toBe(0);
  });
});
