/**
 * The Spotted unit of For the Greater Good is an Attached unit whose Bodyguard part the Guided unit destroys: the
 * Leader left alone is still the Spotted unit for the rest of the phase (a rule's selection follows the parts of a
 * split Attached unit, as Bounty Hunters and PINPOINT COUNTER-OFFENSIVE read theirs; the core rules say only that
 * the Leader "becomes a separate unit").
 * - the Guided unit: BS improved by 1 against the Spotted unit, worsened by 1 against other units;
 * - COORDINATE TO ENGAGE (Kauyon): the Observer's BS improved by 1 against the Spotted unit;
 * - Patient Hunter (Kauyon, round 3+): SUSTAINED HITS 2 against the unit's Spotted unit, 1 otherwise.
 * The other rules that select an enemy unit for later attacks read it the same way (`isUnitOrItsPart`): Piratical
 * Raiders' unit, picked at the start of the battle, keeps its LETHAL HITS and PRECISION against the Leader left.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { GUIDED, OBSERVER } from '../../src/factions/tau/army-rule.ts';
import { destroyModel, splitAttachedUnits } from '../../src/rules/damage.ts';

describe('the Spotted unit follows the Leader left when its Bodyguard part is destroyed', () => {
  it('Guided and Observer units keep their bonuses against the Farseer left of the Spotted Guardian Defenders; another unit is not Spotted', () => {
    const g = battleSandbox([
      { id: 'ST1', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 10 } },
      { id: 'ST2', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 30 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', counts: [1, 0], at: { x: 30, y: 20 } },
      { id: 'FS', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 30, y: 21.5 } },
      { id: 'GD2', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 30 } },
    ], { phase: 'shooting', turn: 0, round: 3, cp: [3, 3], detachments: ['Kauyon', null] });
    g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'GD' });
    const until = g.untilEndOfPhase();
    g.addEffect(GUIDED, 0, 'ST1', until, { observer: 'ST2', spotted: 'GD' });
    g.addEffect(OBSERVER, 0, 'ST2', until, { guided: 'ST1', spotted: 'GD' });
    g.addEffect('Coordinate to Engage', 0, 'ST2', until, { spotted: 'GD' });
    const bs = (unit: string, target: string) => { const p = planFor(g, unit, target, 'Pulse rifle'); return [p.skill, p.sustainedHits]; };
    const guided = bs('ST1', 'GD');
    const observer = bs('ST2', 'GD');
    const other = bs('ST2', 'GD2');
    // Pulse rifle BS 4+: Guided 3+, Observer with COORDINATE TO ENGAGE 3+, both SUSTAINED HITS 2; another unit 4+, SUSTAINED HITS 1
    expect(guided).toEqual([3, 2]);
    expect(observer).toEqual([3, 2]);
    expect(other).toEqual([4, 1]);
    const gd = g.state.units.GD;
    destroyModel(g, gd, gd.models.find((m) => m.origin === 'GD')!, 'ST1', 'damage');
    splitAttachedUnits(g);
    expect(g.state.units.FS.location).toBe('battlefield');
    expect(g.state.units.GD.location).toBe('destroyed');
    expect(bs('ST1', 'FS')).toEqual(guided);
    expect(bs('ST2', 'FS')).toEqual(observer);
    expect(bs('ST2', 'GD2')).toEqual(other);
    // the Guided unit's attacks against another unit are still worsened
    expect(bs('ST1', 'GD2')).toEqual([5, 1]);
  });

  it('Piratical Raiders: the Cadre Fireblade left of the picked Attached unit is still that unit; another unit is not', () => {
    const g = battleSandbox([
      { id: 'VS', player: 0, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 10, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 0], at: { x: 30, y: 5 } },
      { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 6.5 } },
      { id: 'ST2', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 22 } },
    ], { agents: [{ name: 'picks ST', decide: (_v, r) => ({ option: (r.options as string[]).indexOf('ST') }) }, { name: 'tau', decide: () => ({ option: 0 }) }] });
    g.emit({ type: 'unit-attached', leader: 'CF', bodyguard: 'ST' });
    getRule('Piratical Raiders')!.battleStart!(g, g.state.units.VS);
    const lethal = (target: string) => { const p = planFor(g, 'VS', target, 'Shuriken pistol'); return [p.lethalHits, p.precision]; };
    expect(lethal('ST')).toEqual([true, true]);
    expect(lethal('ST2')).toEqual([false, false]);
    const st = g.state.units.ST;
    destroyModel(g, st, st.models.find((m) => m.origin === 'ST')!, 'VS', 'damage');
    splitAttachedUnits(g);
    expect(g.state.units.CF.location).toBe('battlefield');
    expect(lethal('CF')).toEqual([true, true]);
    expect(lethal('ST2')).toEqual([false, false]);
  });
});
