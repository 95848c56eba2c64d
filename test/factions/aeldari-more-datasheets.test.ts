/**
 * Aeldari datasheet abilities outside the bundled armies (src/factions/aeldari/more-datasheets.ts): one
 * test (or more) each, comparing the situation with and without the ability, that fails if it is played
 * wrong.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { forbids, getRule, registerRule } from '../../src/core/rules-registry.ts';
import { adjustDamage } from '../../src/rules/attack-plan.ts';
import { newTally, resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { canCharge } from '../../src/rules/battle/charge.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { controlByLevel, updateObjectiveControl } from '../../src/rules/battle/objectives.ts';
import { endTurn } from '../../src/rules/battle/battle.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { rollModifier, unitMove } from '../../src/rules/battle/units.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';
import { SHADE_MOVED, STORMBLADES_HOLD } from '../../src/factions/aeldari/more-datasheets.ts';

type Pick = (r: DecisionRequest) => number;

const BS_BETTER = 'Inescapable Accuracy test: BS improved by 1';

function sandbox(units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}): Game {
  return battleSandbox(units, { factions: ['AE', 'TAU'], phase: 'shooting', ...opts });
}

function agents(pick: Pick): [ReturnType<typeof scriptedAgent>, ReturnType<typeof scriptedAgent>] {
  return [scriptedAgent('ae', pick), scriptedAgent('tau')];
}

function effects(g: Game, kind: string) {
  return g.state.effects.filter((e) => e.kind === kind);
}

/** Move every model of a unit to two columns from (x, y), 1.2" apart. */
function moveTo(g: Game, unit: string, x: number, y: number, gap = 1.2): void {
  const u = g.state.units[unit];
  g.emit({ type: 'models-placed', unit, mode: 'test', positions: u.models.map((m, i) => ({ model: m.id, pos: { x: x + (i % 2) * gap, y: y + Math.floor(i / 2) * gap, z: 0 } })) });
}

/** The centre of the unit's first alive model. */
function firstPos(g: Game, unit: string): { x: number; y: number } {
  const p = g.state.units[unit].models.find((m) => m.alive)!.pos!;
  return { x: p.x, y: p.y };
}

describe('Avatar of Khaine', () => {
  function avatar(opts: Parameters<typeof battleSandbox>[1] = {}, withAvatar = true): Game {
    return sandbox([
      ...(withAvatar ? [{ id: 'AV', player: 0 as const, faction: 'aeldari' as const, name: 'Avatar of Khaine', at: { x: 10, y: 10 } }] : []),
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 14, y: 10 } },
      { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 10, y: 30 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 14, y: 2 }, spacing: 0.9 },
      { id: 'HH', player: 1, faction: 'tau', name: 'Hammerhead Gunship', at: { x: 40, y: 20 } },
    ], opts);
  }

  it('Molten Form: attacks allocated to the Avatar have their Damage halved (rounded up); not against another unit', () => {
    const g = avatar();
    const railgun = planFor(g, 'HH', 'AV', 'Railgun');
    expect(railgun.halveDamage).toBe(true);
    expect(adjustDamage(5, railgun)).toBe(3);
    expect(planFor(g, 'HH', 'DA', 'Railgun').halveDamage).toBe(false);
    // its own attacks are not halved
    expect(planFor(g, 'AV', 'HH', 'The Wailing Doom').halveDamage).toBe(false);
  });

  it('The Bloody-Handed (Aura): +1 to Advance and Charge rolls of friendly AELDARI units within 6" of the Avatar, its own too', () => {
    const g = avatar();
    const s = g.state;
    expect(s.players[0].rules).toContain('The Bloody-Handed (Aura)');
    expect(rollModifier(s, s.units.DA, 'charge')).toBe(1);
    expect(rollModifier(s, s.units.DA, 'advance')).toBe(1);
    expect(rollModifier(s, s.units.AV, 'charge')).toBe(1); // once, though the unit has the ability itself
    expect(rollModifier(s, s.units.DA, 'battle-shock')).toBe(0);
    expect(rollModifier(s, s.units.HB, 'charge')).toBe(0); // 20" away
    expect(rollModifier(s, s.units.ST, 'charge')).toBe(0); // an enemy unit within 6"
    // the Advance roll: a 3 moves the Dire Avengers 4" more, the Banshees 3"
    const adv = avatar({ phase: 'movement', stream: scriptedStream([3, 3]) });
    expect(advanceDistance(adv, adv.state.units.DA)).toBe(4);
    expect(advanceDistance(adv, adv.state.units.HB)).toBe(3);
    // no Avatar in the army: no aura
    const none = avatar({}, false);
    expect(none.state.players[0].rules).not.toContain('The Bloody-Handed (Aura)');
    expect(rollModifier(none.state, none.state.units.DA, 'charge')).toBe(0);
  });
});

describe('Striking Scorpions', () => {
  it('Mandiblasters: after a Charge move this turn, their melee attacks score Critical Hits on an unmodified 5+', () => {
    const g = sandbox([
      { id: 'SS', player: 0, faction: 'aeldari', name: 'Striking Scorpions', at: { x: 10, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 11.5, y: 5 } },
    ], { phase: 'fight' });
    expect(planFor(g, 'SS', 'ST', 'Scorpion chainsword').criticalHitOn).toBe(6);
    g.emit({ type: 'unit-flag', unit: 'SS', flag: 'charged', value: true });
    expect(planFor(g, 'SS', 'ST', 'Scorpion chainsword').criticalHitOn).toBe(5);
    // not their ranged attacks
    expect(planFor(g, 'SS', 'ST', 'Shuriken pistol').criticalHitOn).toBe(6);
  });
});

describe('Lynx', () => {
  it('Speed of Vaul: its Advance is not rolled: 9" more', () => {
    const stream = scriptedStream([2]);
    const g = sandbox([
      { id: 'LY', player: 0, faction: 'aeldari', name: 'Lynx', at: { x: 10, y: 10 } },
      { id: 'NS', player: 0, faction: 'aeldari', name: 'Night Spinner', at: { x: 10, y: 30 } },
    ], { phase: 'movement', stream });
    expect(advanceDistance(g, g.state.units.LY)).toBe(9);
    expect(stream.remaining()).toBe(1); // no die rolled for it
    expect(advanceDistance(g, g.state.units.NS)).toBe(2);
  });
});

describe('Dark Reapers', () => {
  it('Inescapable Accuracy: their ranged attacks ignore Hit roll penalties (bonuses kept); not their melee attacks, nor other units\'', () => {
    const g = sandbox([
      { id: 'DR', player: 0, faction: 'aeldari', name: 'Dark Reapers', at: { x: 10, y: 5 } },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 12, y: 5 } },
      { id: 'SB', player: 1, faction: 'tau', name: 'Stealth Battlesuits', at: { x: 30, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 11, y: 25 } },
    ]);
    // Stealth: -1 to be hit by ranged attacks
    expect(planFor(g, 'DA', 'SB', 'Avenger shuriken catapult').hitModifier).toBe(-1);
    expect(planFor(g, 'DR', 'SB', 'Reaper launcher').hitModifier).toBe(0);
    // with Guide's +1 on top: the +1 is kept
    g.addEffect('Guide (Psychic)', 0, 'SB', { at: 'end-of-battle' }, { round: 1, turn: 0 });
    expect(planFor(g, 'DA', 'SB', 'Avenger shuriken catapult').hitModifier).toBe(0);
    expect(planFor(g, 'DR', 'SB', 'Reaper launcher').hitModifier).toBe(1);
    // a -1 to be hit in melee is not ignored
    g.addEffect('Lightning-Fast Reactions', 1, 'ST', g.untilEndOfPhase());
    expect(planFor(g, 'DR', 'ST', 'Close combat weapon').hitModifier).toBe(-1);
    expect(planFor(g, 'DR', 'ST', 'Reaper launcher').hitModifier).toBe(0);
  });

  it('Inescapable Accuracy: a worsened Ballistic Skill is restored for their ranged attacks, an improved one kept', () => {
    const g = sandbox([
      { id: 'DR', player: 0, faction: 'aeldari', name: 'Dark Reapers', at: { x: 10, y: 5 } },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 12, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    ]);
    const reaper = planFor(g, 'DR', 'ST', 'Reaper launcher').skill;
    const catapult = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').skill;
    // EMP GRENADES' effect worsens the BS and WS of the unit it is on by 1
    g.addEffect('EMP Grenades', 1, 'DR', g.untilEndOfPhase());
    g.addEffect('EMP Grenades', 1, 'DA', g.untilEndOfPhase());
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult').skill).toBe(catapult + 1);
    expect(planFor(g, 'DR', 'ST', 'Reaper launcher').skill).toBe(reaper);
    // not their melee attacks
    expect(planFor(g, 'DR', 'ST', 'Close combat weapon').skill).toBe(planFor(g, 'DA', 'ST', 'Close combat weapon').skill);
    // an improvement is kept (a BS-improving effect of this test's own)
    g.removeEffect(g.state.effects.find((e) => e.kind === 'EMP Grenades' && e.unit === 'DR')!.id);
    if (!getRule(BS_BETTER)) registerRule({ name: BS_BETTER, kind: 'effect', attack(plan, _ctx, src) { if (src.role === 'attacker') plan.skill -= 1; } });
    g.addEffect(BS_BETTER, 0, 'DR', g.untilEndOfPhase());
    expect(planFor(g, 'DR', 'ST', 'Reaper launcher').skill).toBe(reaper - 1);
  });
});

describe('Night Spinner', () => {
  function spinner(opts: Parameters<typeof battleSandbox>[1] = {}): Game {
    return sandbox([
      { id: 'NS', player: 0, faction: 'aeldari', name: 'Night Spinner', at: { x: 10, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
      { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 22, y: 25 } },
    ], opts);
  }
  const PINNED = 'Monofilament Web (pinned)';

  it('the attack tally says which weapon hit which unit, and which models made those attacks', () => {
    const g = spinner({ stream: scriptedStream(new Array(60).fill(4)) });
    const NS = g.state.units.NS;
    const m = NS.models[0];
    const weapon = (name: string) => g.state.datasheets[m.datasheet].weapons.find((w) => w.name === name)!;
    const group = (name: string, target: string) => ({ weapon: weapon(name), profile: weapon(name).profiles[0], models: [m], target, halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 });
    const tally = resolveAttacks(g, NS, [group('Doomweaver', 'ST'), group('Twin shuriken catapult', 'BT')], false, newTally());
    expect(tally.hitTargets).toEqual(['ST', 'BT']);
    expect(tally.hitWith).toEqual([{ weapon: 'Doomweaver', target: 'ST', models: [m.id] }, { weapon: 'Twin shuriken catapult', target: 'BT', models: [m.id] }]);
  });

  it('Monofilament Web: an enemy unit its doomweaver hit is pinned (-2" Move, -2 to Charge rolls) until the start of its next turn; one only its other guns hit is not', () => {
    const g = spinner();
    getRule('Monofilament Web')!.afterShooting!(g, g.state.units.NS, ['ST', 'BT'], [{ weapon: 'Doomweaver', target: 'ST' }, { weapon: 'Twin shuriken catapult', target: 'BT' }]);
    expect(effects(g, PINNED).map((e) => e.unit)).toEqual(['ST']);
    const s = g.state;
    expect(unitMove(s, s.units.ST)).toBe(4);
    expect(unitMove(s, s.units.BT)).toBe(6);
    expect(rollModifier(s, s.units.ST, 'charge')).toBe(-2);
    expect(rollModifier(s, s.units.ST, 'advance')).toBe(0);
    expect(rollModifier(s, s.units.BT, 'charge')).toBe(0);
    // a second web does not pin it twice
    getRule('Monofilament Web')!.afterShooting!(g, g.state.units.NS, ['ST'], [{ weapon: 'Doomweaver', target: 'ST' }]);
    expect(unitMove(s, s.units.ST)).toBe(4);
    // through the opponent's turn, until the start of the Aeldari player's next Command phase
    expireEffects(g, { at: 'start-of-command', round: 1, player: 1 });
    expect(effects(g, PINNED)).toHaveLength(1);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(effects(g, PINNED)).toHaveLength(0);
    expect(unitMove(g.state, g.state.units.ST)).toBe(6);
  });

  it('Monofilament Web in the Shooting phase: the doomweaver\'s target is pinned, the catapult\'s is not', () => {
    const g = spinner({
      stream: scriptedStream(new Array(200).fill(4)),
      agents: agents((r) => {
        if (r.kind !== 'shoot-target') return 0;
        const options = r.options as { weapon: string; target: string }[];
        return options.findIndex((o) => o.target === (o.weapon === 'Doomweaver' ? 'ST' : 'BT'));
      }),
    });
    shootWithUnit(g, g.state.units.NS);
    // both were hit (every Hit roll is a 4)
    const hits = (g.log ?? []).filter((e) => e.type === 'dice' && e.purpose === 'hit');
    expect(hits.length).toBeGreaterThanOrEqual(2);
    expect(effects(g, PINNED).map((e) => e.unit)).toEqual(['ST']);
  });
});

describe('Shroud Runners', () => {
  it('Target Acquisition: after they shot, one enemy unit their long rifles hit cannot have the Benefit of Cover until the end of the phase', () => {
    const asked: unknown[][] = [];
    const g = sandbox([
      { id: 'SR', player: 0, faction: 'aeldari', name: 'Shroud Runners', at: { x: 10, y: 10 }, spacing: 3 },
      { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 30 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 5 } },
      { id: 'BT', player: 1, faction: 'tau', name: 'Breacher Team', at: { x: 40, y: 25 } },
    ], { agents: agents((r) => { if (r.kind === 'target-acquisition') asked.push(r.options); return 0; }) });
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult', { cover: true }).cover).toBe(true);
    getRule('Target Acquisition')!.afterShooting!(g, g.state.units.SR, ['ST', 'BT'], [{ weapon: 'Long rifle', target: 'ST' }, { weapon: 'Scatter laser', target: 'BT' }]);
    expect(asked).toEqual([['ST']]); // the Breachers were hit by the scatter laser only
    const open = planFor(g, 'DA', 'ST', 'Avenger shuriken catapult', { cover: true });
    expect([open.cover, open.ignoresCover]).toEqual([false, true]);
    expect(planFor(g, 'DA', 'BT', 'Avenger shuriken catapult', { cover: true }).cover).toBe(true);
    endPhase(g, 0, 'shooting');
    expect(planFor(g, 'DA', 'ST', 'Avenger shuriken catapult', { cover: true }).cover).toBe(true);
    // nothing hit with a long rifle: nothing to pick
    getRule('Target Acquisition')!.afterShooting!(g, g.state.units.SR, ['BT'], [{ weapon: 'Scatter laser', target: 'BT' }]);
    expect(asked).toHaveLength(1);
  });
});

describe('Storm Guardians', () => {
  // the marker o1 at the centre (30, 22); the Storm Guardians (Level 20) on it, the Strike Team (OC 2 each) far away
  function guardians(name = 'Storm Guardians'): Game {
    const g = sandbox([
      { id: 'SG', player: 0, faction: 'aeldari', name, at: { x: 30, y: 21 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 55, y: 2 } },
    ], { phase: 'command' });
    moveTo(g, 'SG', 29.5, 20.5, 1.1);
    updateObjectiveControl(g);
    return g;
  }
  const controller = (g: Game) => g.state.objectives[0].controller;
  const holds = (g: Game) => effects(g, STORMBLADES_HOLD);
  const away = (g: Game, unit: string, x: number) => { moveTo(g, unit, x, 2); updateObjectiveControl(g); };

  it('Stormblades: at the end of its Command phase a marker it controls stays controlled after it leaves', () => {
    const g = guardians();
    expect(controller(g)).toBe(0);
    endPhase(g, 0, 'command');
    expect(holds(g).map((e) => [e.player, e.params.objective])).toEqual([[0, 'o1']]);
    away(g, 'SG', 5);
    expect(controller(g)).toBe(0);
    endPhase(g, 0, 'movement');
    expect(controller(g)).toBe(0);
    // Guardian Defenders have no such ability: the marker is lost with them
    const h = guardians('Guardian Defenders');
    expect(controller(h)).toBe(0);
    endPhase(h, 0, 'command');
    away(h, 'SG', 5);
    expect(controller(h)).toBeNull();
  });

  it('Stormblades: the hold ends at the end of a phase at which the opponent\'s Level of Control is the greater, not before', () => {
    const g = guardians();
    endPhase(g, 0, 'command');
    away(g, 'SG', 5);
    // the Strike Team on it, then off it again within the phase: the marker is still held
    moveTo(g, 'ST', 29.5, 20.5, 1.1);
    updateObjectiveControl(g);
    expect(controller(g)).toBe(1);
    away(g, 'ST', 55);
    expect(controller(g)).toBe(0);
    endPhase(g, 0, 'movement');
    expect(holds(g)).toHaveLength(1);
    // on it at the end of a phase: the hold ends, and the marker is not the Aeldari player's once they leave
    moveTo(g, 'ST', 29.5, 20.5, 1.1);
    endPhase(g, 0, 'shooting');
    expect(controller(g)).toBe(1);
    expect(holds(g)).toHaveLength(0);
    away(g, 'ST', 55);
    expect(controller(g)).toBeNull();
  });

  it('Stormblades\' hold gives way at the end of a phase the opponent leads at, not at the end of a turn: a Guardian removed for coherency there leaves the marker held, and the second player scores nothing for it in the last round', () => {
    const g = battleSandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 5, y: 5 }, spacing: 1.0 },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 50, y: 5 }, spacing: 1.0 },
    ], { factions: ['AE', 'TAU'], phase: 'fight', turn: 1, round: 5, objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }] });
    // one Guardian on o1 (OC 2), out of coherency with its unit; a Fire Warrior (OC 2) and the Drones 2.9" apart
    const stray = g.state.units.GD.models[0];
    g.emit({ type: 'models-placed', unit: 'GD', mode: 'test', positions: [{ model: stray.id, pos: { x: 28.5, y: 22, z: 0 } }] });
    g.emit({ type: 'models-placed', unit: 'ST', mode: 'test', positions: g.state.units.ST.models.map((m, i) => ({ model: m.id, pos: { x: 31.5 + i * 2.9, y: 22, z: 0 } })) });
    g.addEffect(STORMBLADES_HOLD, 0, null, { at: 'end-of-battle' }, { objective: 'o1' });
    endPhase(g, 1, 'fight');
    expect(g.state.objectives[0].controller).toBe(0);
    endTurn(g, 1);
    expect(g.state.units.GD.models.find((m) => m.id === stray.id)!.alive).toBe(false);
    expect(controlByLevel(g.state)[0]).toBe(1);
    expect([g.state.objectives[0].controller, g.state.players[1].vp]).toEqual([0, 0]);
  });

  it('Stormblades: a contested marker stays held; nothing is held outside its own Command phase', () => {
    const g = guardians();
    endPhase(g, 0, 'command');
    const keep = getRule(STORMBLADES_HOLD)!.objectiveControl!;
    expect(keep(g.state, 'o1', null, holds(g)[0], 'phase-end')).toBe(0);
    expect(keep(g.state, 'o1', 1, holds(g)[0], 'phase-end')).toBe(1);
    expect(keep(g.state, 'o2', null, holds(g)[0], 'phase-end')).toBeNull();
    // the opponent leading at the end of a turn (not of a phase) does not take it
    expect(keep(g.state, 'o1', 1, holds(g)[0], 'turn-end')).toBe(0);
    // equal Levels of Control at the end of a phase (contested): still held
    away(g, 'SG', 5);
    moveTo(g, 'SG', 29.5, 20.5, 1.1); // back on: 20
    moveTo(g, 'ST', 29.5, 20.5, 1.1); // 10 models of OC 2: 20
    endPhase(g, 0, 'movement');
    expect(holds(g)).toHaveLength(1);
    const h = guardians();
    endPhase(h, 0, 'movement');
    expect(holds(h)).toHaveLength(0);
  });
});

describe('Shadow Spectres', () => {
  function spectres(pick: Pick, stream = scriptedStream([2])): Game {
    return sandbox([
      { id: 'SP', player: 0, faction: 'aeldari', name: 'Shadow Spectres', at: { x: 10, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 21, y: 10 } },
    ], { agents: agents(pick), stream });
  }
  const moveToward = (toward: string): Pick => (r) => (r.kind === 'shade-of-twilight' ? r.options.findIndex((o) => (o as { toward?: string }).toward === toward) : 0);

  it('Shade of Twilight: after it shot, a Normal move of up to D6"; then it cannot declare a charge this turn', () => {
    const asked: DecisionRequest[] = [];
    const g = spectres((r) => { if (r.kind === 'shade-of-twilight') asked.push(r); return moveToward('objective o1')(r); });
    expect(canCharge(g, g.state.units.SP)).toBe(true);
    const before = firstPos(g, 'SP');
    getRule('Shade of Twilight')!.afterShooting!(g, g.state.units.SP, [], []);
    expect(asked[0].options[0]).toEqual({ none: true });
    const after = firstPos(g, 'SP');
    const moved = Math.hypot(after.x - before.x, after.y - before.y);
    expect(moved).toBeGreaterThan(0.5);
    expect(moved).toBeLessThanOrEqual(2 + 1e-6); // the D6 rolled a 2
    expect(effects(g, SHADE_MOVED).map((e) => e.unit)).toEqual(['SP']);
    expect(forbids(g.state, g.state.units.SP, 'charge')).toBe(true);
    expect(canCharge(g, g.state.units.SP)).toBe(false);
  });

  it('Shade of Twilight: no move, no die and its charge kept when the player declines; not offered within Engagement Range', () => {
    const stream = scriptedStream([2]);
    const g = spectres(() => 0, stream);
    const before = firstPos(g, 'SP');
    getRule('Shade of Twilight')!.afterShooting!(g, g.state.units.SP, [], []);
    expect(firstPos(g, 'SP')).toEqual(before);
    expect(stream.remaining()).toBe(1);
    expect(canCharge(g, g.state.units.SP)).toBe(true);
    let asked = 0;
    const h = spectres((r) => { if (r.kind === 'shade-of-twilight') asked++; return 0; });
    moveTo(h, 'ST', 11.6, 10);
    expect(isEngaged(h.state, h.state.units.SP)).toBe(true);
    getRule('Shade of Twilight')!.afterShooting!(h, h.state.units.SP, [], []);
    expect(asked).toBe(0);
  });
});
