/**
 * The Kroot Hunting Pack (src/factions/tau/kroot-hunting-pack.ts): Hunter's Instincts, Skirmish Fighters, its
 * six stratagems and its four Enhancements. Each test fails if the rule is played wrong or not at all.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { usingStratagem as using, offeredUnits as offered } from '../helpers/stratagems.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import type { Stream } from '../../src/core/rng.ts';
import { allows, targetableFrom, weaponHas } from '../../src/core/rules-registry.ts';
import { openWindow, type Window } from '../../src/rules/windows.ts';
import { destroyModel, inflictMortalWounds } from '../../src/rules/damage.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { battleShockStep } from '../../src/rules/battle/command.ts';
import { arrivalExclusions } from '../../src/rules/battle/reserves.ts';
import { unitMove } from '../../src/rules/battle/units.ts';
import { pointInPolygon } from '../../src/geometry/polygon.ts';
import { unitRecords } from '../../src/sim/batch-game.ts';

const KHP = 'Kroot Hunting Pack';

/** Player 0 (T'au) answers with `pick`; player 1 (Aeldari) always with the first option. */
function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null } = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  return battleSandbox(units, {
    phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [4, 3], detachments: [opts.detachment === undefined ? KHP : opts.detachment, null],
    agents: [scriptedAgent('tau', pick), scriptedAgent('ae')], ...(opts.stream ? { stream: opts.stream } : {}),
  });
}

/** Use `name` whenever offered, and answer its own request `kind` with option `choice`. */
const kill = (g: Game, id: string, n: number) => { for (const m of g.state.units[id].models.filter((x) => x.alive).slice(0, n)) destroyModel(g, g.state.units[id], m, null, 'test'); };

const KC: PlacedUnit = { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 5 }, spacing: 0.9 };
const KC2: PlacedUnit = { id: 'KC2', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 10, y: 20 }, spacing: 0.9 };
const ST: PlacedUnit = { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 32 }, spacing: 0.9 };
const GD: PlacedUnit = { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 5 }, spacing: 0.9 };
const DA: PlacedUnit = { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 30 }, spacing: 0.9 };

describe('Kroot Hunting Pack rules', () => {
  it("Hunter's Instincts: +1 to hit a unit below its Starting Strength, +1 to wound as well Below Half-strength; KROOT attacks only", () => {
    const g = sandbox([KC, ST, GD]);
    const none = sandbox([KC, ST, GD], { detachment: null });
    const mods = (x: Game, a: string, w: string) => { const p = planFor(x, a, 'GD', w); return [p.hitModifier, p.woundModifier]; };
    expect(mods(g, 'KC', 'Kroot rifle')).toEqual(mods(none, 'KC', 'Kroot rifle'));
    const [h0, w0] = mods(g, 'KC', 'Kroot rifle');
    kill(g, 'GD', 1);
    kill(none, 'GD', 1);
    expect(mods(g, 'KC', 'Kroot rifle')).toEqual([h0 + 1, w0]);
    expect(mods(g, 'KC', 'Close combat weapon')).toEqual([h0 + 1, w0]);
    // 11 models: 5 left is Below Half-strength
    kill(g, 'GD', 5);
    kill(none, 'GD', 5);
    expect(mods(g, 'KC', 'Kroot rifle')).toEqual([h0 + 1, w0 + 1]);
    // not a T'au Strike Team's attacks, not without the detachment
    expect(mods(g, 'ST', 'Pulse rifle')).toEqual(mods(none, 'ST', 'Pulse rifle'));
    expect(mods(none, 'KC', 'Kroot rifle')).toEqual([h0, w0]);
  });

  it('Skirmish Fighters: KROOT models have a 5+ invulnerable save against ranged attacks, 6+ against melee; not other units', () => {
    const g = sandbox([KC, ST, GD]);
    const none = sandbox([KC, ST, GD], { detachment: null });
    expect(planFor(g, 'GD', 'KC', 'Shuriken catapult').invulnerable).toBe(5);
    expect(planFor(g, 'GD', 'KC', 'Close combat weapon').invulnerable).toBe(6);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').invulnerable).toBe(null);
    expect(planFor(none, 'GD', 'KC', 'Shuriken catapult').invulnerable).toBe(null);
  });
});

describe('Kroot Hunting Pack stratagems', () => {
  it('JOIN THE HUNT: a destroyed KROOT INFANTRY unit comes back whole in Strategic Reserves, for 2CP, once a battle', () => {
    const g = sandbox([KC, KC2, GD], {}, using('JOIN THE HUNT'));
    const cp = g.state.players[0].cp;
    inflictMortalWounds(g, g.state.units.KC, 30, null);
    expect(g.state.units.KC.location).toBe('destroyed');
    const back = g.state.units['KC-hunt'];
    expect(back.location).toBe('strategic-reserves');
    expect(back.player).toBe(0);
    expect(back.name).toBe('Kroot Carnivores');
    expect(back.startingStrength).toBe(g.state.units.KC.startingStrength);
    expect(back.models.map((m) => [m.alive, m.wounds, m.weapons])).toEqual(g.state.units.KC.models.map((m) => [true, 1, m.weapons]));
    expect(g.state.players[0].cp).toBe(cp - 2);
    // once a battle: the second unit destroyed stays destroyed
    inflictMortalWounds(g, g.state.units.KC2, 30, null);
    expect(g.state.units['KC2-hunt']).toBeUndefined();
    expect(g.state.players[0].cp).toBe(cp - 2);
  });

  it("JOIN THE HUNT: the batch's per-unit line of the destroyed unit counts the unit that came back (wounds taken, survival)", () => {
    // army unit ids as a battle names them (p1-<army id>), so that the batch's records find them
    const g = sandbox([{ ...KC, id: 'p1-KC' }, { ...KC2, id: 'p1-KC2' }, GD], {}, using('JOIN THE HUNT'));
    const taken = g.state.units['p1-KC'].models.reduce((n, m) => n + m.wounds, 0);
    inflictMortalWounds(g, g.state.units['p1-KC'], 30, null);
    const back = g.state.units['p1-KC-hunt'];
    expect(back.returnOf).toBe('p1-KC');
    expect(unitRecords(g.state, 0, ['KC', 'KC2'])).toEqual([[0, taken, 0, 1], [0, 0, 0, 1]]);
    // the unit that came back loses two models: its wounds taken join the line; then it is destroyed too
    inflictMortalWounds(g, back, 2, null);
    expect(unitRecords(g.state, 0, ['KC'])).toEqual([[0, taken + 2, 0, 1]]);
    inflictMortalWounds(g, back, 30, null);
    expect(unitRecords(g.state, 0, ['KC'])).toEqual([[0, taken + back.startingStrength, 0, 0]]);
  });

  it('JOIN THE HUNT: KROOT HOUNDS too, not a MOUNTED Krootox unit, not an enemy unit', () => {
    const w = (id: string): Window => ({ name: 'unit/destroyed', unit: id, targets: [], data: { by: null } });
    const g = sandbox([
      { id: 'KH', player: 0, faction: 'tau', name: 'Kroot Hounds', at: { x: 10, y: 5 } },
      { id: 'KR', player: 0, faction: 'tau', name: 'Krootox Rampagers', at: { x: 10, y: 25 }, spacing: 3 },
      GD,
    ]);
    for (const id of ['KH', 'KR', 'GD']) kill(g, id, 99);
    expect(offered(g, w('KH'), 0, 'JOIN THE HUNT')).toEqual(['KH']);
    expect(offered(g, w('KR'), 0, 'JOIN THE HUNT')).toEqual([]);
    expect(offered(g, w('GD'), 0, 'JOIN THE HUNT')).toEqual([]);
  });

  it('A TRAP WELL LAID: after the unit shot, KROOT attacks at an enemy unit it hit have +1 AP this phase (not a Battle-shocked unit\'s, not other units\')', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([KC, KC2, ST, GD, DA], { stream: scriptedStream([...Array(10).fill(6), ...Array(10).fill(1), ...Array(10).fill(6)]) }, (r) => {
      if (r.kind === 'a-trap-well-laid') asked.push(r);
      return using('A TRAP WELL LAID')(r);
    });
    const ap = (x: string, w: string, t: string) => planFor(g, x, t, w).ap;
    const before = [ap('KC2', 'Kroot rifle', 'GD'), ap('ST', 'Pulse rifle', 'GD'), ap('KC2', 'Kroot rifle', 'DA')];
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'KC', targets: [] })).toEqual(['A TRAP WELL LAID']);
    // ten Kroot rifle shots at the Guardians, all hits (6s), no wounds (1s)
    shootWithUnit(g, g.state.units.KC, { onlyTarget: 'GD' });
    expect(asked.map((r) => r.options)).toEqual([['GD']]);
    expect([ap('KC2', 'Kroot rifle', 'GD'), ap('ST', 'Pulse rifle', 'GD'), ap('KC2', 'Kroot rifle', 'DA')]).toEqual([before[0] - 1, before[1], before[2]]);
    g.emit({ type: 'battle-shock', unit: 'KC2', value: true });
    expect(ap('KC2', 'Kroot rifle', 'GD')).toBe(before[0]);
  });

  it('A TRAP WELL LAID: in the player\'s own Shooting phase, or either Fight phase', () => {
    const sel = (phase: PhaseName, turn: PlayerIndex) => offered(sandbox([KC, GD], { phase, turn }), { name: phase === 'fight' ? 'fight/unit-selected' : 'shooting/unit-selected', unit: 'KC', targets: [] }, 0, 'A TRAP WELL LAID');
    expect(sel('shooting', 0)).toEqual(['KC']);
    expect(sel('shooting', 1)).toEqual([]);
    expect(sel('fight', 1)).toEqual(['KC']);
  });

  it('THE GRISLY FEAST: after a KROOT unit destroyed an enemy unit in a fight, enemy units within 6" test in their next Command phase (-1 Below Half-strength), once', () => {
    // GD 3" from the Kroot, Below Half-strength; DA 5" away at full strength; a second Dire Avengers unit far off
    const g = sandbox([KC, { ...GD, at: { x: 13.5, y: 5 } }, { ...DA, at: { x: 15.5, y: 5 } }, { ...DA, id: 'FAR', at: { x: 40, y: 30 } }], { phase: 'fight' }, using('THE GRISLY FEAST'));
    expect(openWindow(g, { name: 'fight/after-enemy-fought', unit: 'KC', targets: [], data: { destroyed: [] } })).toEqual([]);
    expect(openWindow(g, { name: 'fight/after-enemy-fought', unit: 'KC', targets: [], data: { destroyed: ['X'] } })).toEqual(['THE GRISLY FEAST']);
    kill(g, 'GD', 6);
    // the T'au player's own Command phase: nothing
    battleShockStep(g, 0);
    const tests = () => (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'battle-shock').map((e) => (e as { unit: string }).unit);
    expect(tests()).toEqual([]);
    // the opponent's: GD and DA test, GD only once though it is Below Half-strength too
    battleShockStep(g, 1);
    expect(tests().sort()).toEqual(['DA', 'GD']);
    // and only in that one Command phase
    battleShockStep(g, 1);
    expect(tests().filter((u) => u === 'DA')).toHaveLength(1);
  });

  it('THE GRISLY FEAST: the -1 for a unit Below Half-strength', () => {
    // Guardians (Leadership 7+) Below Half-strength: 2D6 of 4 + 3 = 7 passes without the -1, fails with it
    const g = sandbox([KC, { ...GD, at: { x: 13.5, y: 5 } }], { phase: 'fight', stream: scriptedStream([4, 3]) }, using('THE GRISLY FEAST'));
    openWindow(g, { name: 'fight/after-enemy-fought', unit: 'KC', targets: [], data: { destroyed: ['X'] } });
    kill(g, 'GD', 6);
    battleShockStep(g, 1);
    expect(g.state.units.GD.battleShocked).toBe(true);
  });

  it('GUERRILLA WARRIORS: a KROOT unit that Fell Back may shoot and declare a charge this turn', () => {
    const g = sandbox([KC, ST, GD], { phase: 'movement' }, using('GUERRILLA WARRIORS'));
    const w = (id: string): Window => ({ name: 'movement/after-own-move', unit: id, targets: [] });
    expect(offered(g, w('KC'), 0, 'GUERRILLA WARRIORS')).toEqual([]);
    g.emit({ type: 'unit-moved', unit: 'KC', mode: 'fall-back' });
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'fall-back' });
    expect(offered(g, w('ST'), 0, 'GUERRILLA WARRIORS')).toEqual([]);
    expect(allows(g.state, g.state.units.KC, 'shoot-after-fall-back')).toBe(false);
    expect(openWindow(g, w('KC'))).toEqual(['GUERRILLA WARRIORS']);
    expect(allows(g.state, g.state.units.KC, 'shoot-after-fall-back')).toBe(true);
    expect(allows(g.state, g.state.units.KC, 'charge-after-fall-back')).toBe(true);
  });

  it('HIDDEN HUNTERS: a targeted KROOT unit can be shot only from within 18" this phase; in the opponent\'s Shooting phase only', () => {
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'GD', targets: ['KC'] };
    const g = sandbox([KC, GD], { turn: 1 }, using('HIDDEN HUNTERS'));
    expect(targetableFrom(g.state, g.state.units.KC, 20)).toBe(true);
    expect(openWindow(g, w)).toEqual(['HIDDEN HUNTERS']);
    expect(targetableFrom(g.state, g.state.units.KC, 20)).toBe(false);
    expect(targetableFrom(g.state, g.state.units.KC, 18)).toBe(true);
    // Fire Overwatch in the T'au player's own Movement phase, or in the Aeldari player's Charge phase
    expect(offered(sandbox([KC, GD], { turn: 0, phase: 'movement' }), w, 0, 'HIDDEN HUNTERS')).toEqual([]);
    expect(offered(sandbox([KC, GD], { turn: 1, phase: 'charge' }), w, 0, 'HIDDEN HUNTERS')).toEqual([]);
  });

  it('EMP GRENADES: a KROOT GRENADES unit within 8" of an enemy VEHICLE that selected its targets worsens its weapons\' skill by 1 this phase', () => {
    const WS: PlacedUnit = { id: 'WS', player: 1, faction: 'aeldari', name: 'Wave Serpent', at: { x: 17, y: 8 } };
    const w: Window = { name: 'shooting/after-enemy-targets', unit: 'WS', targets: ['ST'] };
    const g = sandbox([KC, { ...KC2, at: { x: 10, y: 30 } }, ST, WS, GD], { turn: 1 }, using('EMP GRENADES'));
    expect(offered(g, w, 0, 'EMP GRENADES')).toEqual(['KC']);
    expect(offered(g, { ...w, unit: 'GD' }, 0, 'EMP GRENADES')).toEqual([]);
    const skill = planFor(g, 'WS', 'ST', 'Twin shuriken cannon').skill;
    expect(openWindow(g, w)).toEqual(['EMP GRENADES']);
    expect(planFor(g, 'WS', 'ST', 'Twin shuriken cannon').skill).toBe(skill + 1);
    expect(planFor(g, 'WS', 'ST', 'Wraithbone hull').skill).toBe(planFor(sandbox([KC, ST, WS], { turn: 1 }), 'WS', 'ST', 'Wraithbone hull').skill + 1);
    expect(planFor(g, 'GD', 'ST', 'Shuriken catapult').skill).toBe(planFor(sandbox([KC, ST, GD], { turn: 1 }), 'GD', 'ST', 'Shuriken catapult').skill);
    // not in the player's own turn's shooting (Fire Overwatch); in the Fight phase yes
    expect(offered(sandbox([KC, ST, WS], { turn: 0 }), w, 0, 'EMP GRENADES')).toEqual([]);
    expect(offered(sandbox([KC, ST, WS], { turn: 0, phase: 'fight' }), { ...w, name: 'fight/after-enemy-targets' }, 0, 'EMP GRENADES')).toEqual(['KC']);
  });
});

describe('Kroot Hunting Pack Enhancements', () => {
  /** A Shaper (LD) with `enhancement`, leading Kroot Carnivores (KC) when `attached`. */
  const shaper = (name: string, enhancement: string, attached = true) => {
    const g = sandbox([KC, { id: 'LD', player: 0, faction: 'tau', name, at: { x: 12, y: 5 }, enhancement }, GD, ST]);
    if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'KC' });
    return g;
  };

  it('Borthrod Gland: while the Flesh Shaper leads the unit, its melee attacks score Critical Hits on a 5+', () => {
    expect(planFor(shaper('Kroot Flesh Shaper', 'Borthrod Gland'), 'KC', 'GD', 'Close combat weapon').criticalHitOn).toBe(5);
    expect(planFor(shaper('Kroot Flesh Shaper', 'Borthrod Gland'), 'KC', 'GD', 'Kroot rifle').criticalHitOn).toBe(6);
    expect(planFor(shaper('Kroot Flesh Shaper', 'Borthrod Gland', false), 'LD', 'GD', 'Twin ritualistic blades').criticalHitOn).toBe(6);
  });

  it('Kroothawk Flock: the unit\'s ranged weapons IGNORE COVER; enemy Reinforcements not within 12" of the bearer', () => {
    const g = shaper('Kroot Trail Shaper', 'Kroothawk Flock');
    expect(planFor(g, 'KC', 'GD', 'Kroot rifle', { cover: true }).cover).toBe(false);
    expect(planFor(g, 'KC', 'GD', 'Close combat weapon').ignoresCover).toBe(false);
    const plain = sandbox([KC, GD]);
    expect(planFor(plain, 'KC', 'GD', 'Kroot rifle', { cover: true }).cover).toBe(true);
    const zones = arrivalExclusions(g.state, g.state.units.GD);
    expect(zones).toHaveLength(1);
    const bearer = g.state.units.KC.models.find((m) => m.origin === 'LD')!.pos!;
    // a point 12.5" from the bearer's centre is inside (12" beyond a base), one 14" away is not
    expect(pointInPolygon({ x: bearer.x + 12.5, y: bearer.y }, zones[0])).toBe(true);
    expect(pointInPolygon({ x: bearer.x + 14, y: bearer.y }, zones[0])).toBe(false);
    expect(arrivalExclusions(plain.state, plain.state.units.GD)).toEqual([]);
  });

  it('Nomadic Hunter: while the Trail Shaper leads the unit, +3" Move and ASSAULT ranged weapons', () => {
    const g = shaper('Kroot Trail Shaper', 'Nomadic Hunter');
    const alone = shaper('Kroot Trail Shaper', 'Nomadic Hunter', false);
    expect(unitMove(g.state, g.state.units.KC)).toBe(unitMove(alone.state, alone.state.units.KC) + 3);
    const rifle = g.state.datasheets[g.state.units.KC.models[0].datasheet].weapons.find((w) => w.name === 'Kroot rifle')!.profiles[0];
    expect(weaponHas(g.state, g.state.units.KC, rifle, 'ASSAULT')).toBe(true);
    expect(weaponHas(alone.state, alone.state.units.KC, rifle, 'ASSAULT')).toBe(false);
  });

  it('Root-carved Weapons: the War Shaper\'s own attacks have PRECISION and DEVASTATING WOUNDS, not his unit\'s', () => {
    const g = shaper('Kroot War Shaper', 'Root-carved Weapons');
    const own = planFor(g, 'KC', 'GD', "Shaper's blade");
    expect([own.precision, own.devastatingWounds]).toEqual([true, true]);
    const theirs = planFor(g, 'KC', 'GD', 'Kroot rifle');
    expect([theirs.precision, theirs.devastatingWounds]).toEqual([false, false]);
  });
});
