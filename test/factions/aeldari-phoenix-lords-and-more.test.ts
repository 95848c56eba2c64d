/**
 * Aeldari datasheet abilities of the Phoenix Lords (src/factions/aeldari/phoenix-lords.ts) and of other
 * characters, vehicles and Corsairs (src/factions/aeldari/seers-and-corsairs.ts): one test (or more)
 * each, comparing the situation with and without the ability, that fails if it is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { addHitModifier, criticalHitThreshold } from '../../src/rules/attack-plan.ts';
import { aeldariSandbox, battleSandbox, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { forbids, getRule, targetableFrom, weaponRange } from '../../src/core/rules-registry.ts';
import { advanceDistance } from '../../src/rules/battle/movement.ts';
import { deepStrikeDistance } from '../../src/rules/battle/reserves.ts';
import { ACUMEN_MOVED } from '../../src/factions/aeldari/phoenix-lords.ts';
import { gainExtraCp } from '../../src/rules/battle/command-points.ts';

type Pick = (r: DecisionRequest) => number;

const asked: string[] = [];
const sandbox = (units: PlacedUnit[], opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game => aeldariSandbox(units, asked, opts, pick);

/** `bodyguard` (BG) with `leader` (LD) 3" off, attached when `attached`; a Strike Team (ST) 20" away. */
function led(leader: string, bodyguard: string, attached: boolean, opts: Parameters<typeof battleSandbox>[1] = {}, pick: Pick = () => 0): Game {
  const g = sandbox([
    { id: 'BG', player: 0, faction: 'aeldari', name: bodyguard, at: { x: 10, y: 5 } },
    { id: 'LD', player: 0, faction: 'aeldari', name: leader, at: { x: 13, y: 5 } },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 }, spacing: 0.9 },
  ], opts, pick);
  if (attached) g.emit({ type: 'unit-attached', leader: 'LD', bodyguard: 'BG' });
  return g;
}

const rule = (name: string) => getRule(name)!;
const effects = (g: Game, kind: string) => g.state.effects.filter((e) => e.kind === kind);
const setPhase = (g: Game, phase: PhaseName, turn: PlayerIndex = 0) => g.emit({ type: 'phase-started', round: 1, player: turn, phase });

describe('Asurmen', () => {
  it('Tactical Acumen: after the unit he leads has shot, a Normal move of up to 6" and no charge; not when he leads no unit', () => {
    const g = led('Asurmen', 'Dire Avengers', true, {}, (r) => (r.kind === 'tactical-acumen' ? 1 : 0));
    const before = { ...g.state.units.BG.models[0].pos! };
    rule('Tactical Acumen').afterShooting!(g, g.state.units.BG, []);
    expect(asked).toEqual(['tactical-acumen']);
    const after = g.state.units.BG.models[0].pos!;
    const moved = Math.hypot(after.x - before.x, after.y - before.y);
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThanOrEqual(6 + 1e-6);
    expect(effects(g, ACUMEN_MOVED)).toHaveLength(1);
    expect(forbids(g.state, g.state.units.BG, 'charge')).toBe(true);
    const alone = led('Asurmen', 'Dire Avengers', false, {}, () => 1);
    rule('Tactical Acumen').afterShooting!(alone, alone.state.units.LD, []);
    expect(asked).toEqual([]);
    expect(forbids(alone.state, alone.state.units.LD, 'charge')).toBe(false);
  });

  it('Hand of Asuryan: once per battle, his Bloody Twins get Damage 3, ANTI-INFANTRY 5+ and DEVASTATING WOUNDS for the phase', () => {
    const g = led('Asurmen', 'Dire Avengers', false);
    const before = planFor(g, 'LD', 'ST', 'Bloody Twins');
    expect(before.damage).toEqual({ n: 0, sides: 0, plus: 2 });
    expect(before.devastatingWounds).toBe(false);
    expect(before.criticalWoundOn).toBe(6);
    rule('Hand of Asuryan').selectedToShoot!(g, g.state.units.LD);
    expect(asked).toEqual(['hand-of-asuryan']);
    const after = planFor(g, 'LD', 'ST', 'Bloody Twins');
    expect(after.damage).toEqual({ n: 0, sides: 0, plus: 3 });
    expect(after.devastatingWounds).toBe(true);
    expect(after.criticalWoundOn).toBe(5);
    // his sword is unchanged
    expect(planFor(g, 'LD', 'ST', 'Sword of Asur').damage).toEqual({ n: 0, sides: 0, plus: 3 });
    // used: never offered again
    rule('Hand of Asuryan').selectedToShoot!(g, g.state.units.LD);
    expect(asked).toEqual(['hand-of-asuryan']);
    // kept: no change
    const kept = led('Asurmen', 'Dire Avengers', false, {}, () => 1);
    rule('Hand of Asuryan').selectedToShoot!(kept, kept.state.units.LD);
    expect(planFor(kept, 'LD', 'ST', 'Bloody Twins').damage).toEqual({ n: 0, sides: 0, plus: 2 });
  });
});

describe('Jain Zar', () => {
  it('Whirling Death: the unit she leads Advances 6" without a roll; not when she leads no unit', () => {
    const stream = scriptedStream([2]);
    const g = led('Jain Zar', 'Howling Banshees', true, { phase: 'movement', stream });
    expect(advanceDistance(g, g.state.units.BG)).toBe(6);
    expect(stream.remaining()).toBe(1);
    const s2 = scriptedStream([2]);
    const alone = led('Jain Zar', 'Howling Banshees', false, { phase: 'movement', stream: s2 });
    expect(advanceDistance(alone, alone.state.units.LD)).toBe(2);
  });

  it('Storm of Silence: her attacks against a CHARACTER unit re-roll the Wound roll; not against others, not her unit\'s others', () => {
    const g = sandbox([
      { id: 'LD', player: 0, faction: 'aeldari', name: 'Jain Zar', at: { x: 10, y: 5 } },
      { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 10, y: 20 } },
      { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 20, y: 5 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    ]);
    expect(planFor(g, 'LD', 'CF', 'Blade of Destruction').rerollWounds).toBe('failed');
    expect(planFor(g, 'LD', 'CF', 'Silent Death').rerollWounds).toBe('failed');
    expect(planFor(g, 'LD', 'ST', 'Blade of Destruction').rerollWounds).toBe('none');
    expect(planFor(g, 'HB', 'CF', 'Banshee blade').rerollWounds).toBe('none');
  });
});

describe('Karandras', () => {
  it('Shadow Hunter: attacks of the unit he leads add 1 to the Hit roll; not when he leads no unit', () => {
    const g = led('Karandras', 'Striking Scorpions', true);
    expect(planFor(g, 'BG', 'ST', 'Shuriken pistol').hitModifier).toBe(1);
    expect(planFor(g, 'BG', 'ST', 'Scorpion chainsword').hitModifier).toBe(1);
    const alone = led('Karandras', 'Striking Scorpions', false);
    expect(planFor(alone, 'BG', 'ST', 'Shuriken pistol').hitModifier).toBe(0);
    expect(planFor(alone, 'LD', 'ST', "Arhra's Bane").hitModifier).toBe(0);
  });

  it('Sustained Assault: his melee attacks after a Charge move score Critical Hits on an unmodified 4+', () => {
    const g = led('Karandras', 'Striking Scorpions', false, { phase: 'fight' });
    expect(planFor(g, 'LD', 'ST', 'Isirmathil').criticalHitOn).toBe(6);
    g.emit({ type: 'unit-flag', unit: 'LD', flag: 'charged', value: true });
    expect(planFor(g, 'LD', 'ST', 'Isirmathil').criticalHitOn).toBe(4);
    // not his ranged attacks (the first profile of Arhra's Bane is the pistol)
    expect(planFor(g, 'LD', 'ST', "Arhra's Bane").criticalHitOn).toBe(6);
  });

  it("The Scorpion's Bite: his melee weapons have DEVASTATING WOUNDS, not against TITANIC units; not his pistol, not his unit's others", () => {
    const g = led('Karandras', 'Striking Scorpions', true, { phase: 'fight' });
    expect(planFor(g, 'BG', 'ST', 'Isirmathil').devastatingWounds).toBe(true);
    expect(planFor(g, 'BG', 'ST', "Arhra's Bane").devastatingWounds).toBe(false);
    expect(planFor(g, 'BG', 'ST', 'Scorpion chainsword').devastatingWounds).toBe(false);
    const titan = sandbox([
      { id: 'LD', player: 0, faction: 'aeldari', name: 'Karandras', at: { x: 10, y: 5 } },
      { id: 'SS', player: 1, faction: 'tau', name: 'Stormsurge', at: { x: 30, y: 5 } },
    ], { phase: 'fight' });
    expect(planFor(titan, 'LD', 'SS', 'Isirmathil').devastatingWounds).toBe(false);
  });
});

describe('Fuegan', () => {
  it('Burning Lance: MELTA weapons of the unit he leads have 6" more Range; not other weapons, not when he leads no unit', () => {
    const g = led('Fuegan', 'Fire Dragons', true);
    const s = g.state;
    const ds = (name: string) => Object.values(s.datasheets).find((d) => d.name === name)!;
    const fusion = ds('Fire Dragons').weapons.find((w) => w.name === 'Dragon fusion gun')!.profiles[0];
    expect(weaponRange(s, s.units.BG, fusion)).toBe(18);
    const alone = led('Fuegan', 'Fire Dragons', false);
    expect(weaponRange(alone.state, alone.state.units.BG, fusion)).toBe(12);
    expect(weaponRange(alone.state, alone.state.units.LD, ds('Fuegan').weapons[0].profiles[0])).toBe(12);
    const pulse = Object.values(s.datasheets).find((d) => d.name === 'Strike Team')!.weapons.find((w) => w.name === 'Pulse rifle')!.profiles[0];
    expect(weaponRange(s, s.units.BG, pulse)).toBe(30);
  });
});

describe('Baharroth', () => {
  it('Cloudstrider: the unit he leads Deep Strikes more than 6" away in its Movement phase, and may go into Strategic Reserves at the end of the opponent\'s turn', () => {
    const g = led('Baharroth', 'Swooping Hawks', true, { phase: 'movement' }, (r) => (r.kind === 'cloudstrider' ? 1 : 0));
    expect(deepStrikeDistance(g.state, g.state.units.BG)).toBe(6);
    const alone = led('Baharroth', 'Swooping Hawks', false, { phase: 'movement' });
    expect(deepStrikeDistance(alone.state, alone.state.units.LD)).toBe(9);
    // own turn's end: nothing; the opponent's: into Strategic Reserves
    rule('Cloudstrider').turnEnd!(g, g.state.units.BG, 0);
    expect(asked).toEqual([]);
    rule('Cloudstrider').turnEnd!(g, g.state.units.BG, 1);
    expect(asked).toEqual(['cloudstrider']);
    expect(g.state.units.BG.location).toBe('strategic-reserves');
  });

  it('Cry of the Wind: in a turn he was set up, each of his ranged hits is a Critical Hit, with the modifiers known as the dice are rolled', () => {
    const g = led('Baharroth', 'Swooping Hawks', false);
    expect(criticalHitThreshold(planFor(g, 'LD', 'ST', 'Fury of the Tempest'))).toBe(6);
    g.emit({ type: 'unit-moved', unit: 'LD', mode: 'arrived' });
    const plan = planFor(g, 'LD', 'ST', 'Fury of the Tempest');
    expect(plan.skill).toBe(2);
    expect(criticalHitThreshold(plan)).toBe(2);
    // a -1 to hit added once the plan is built (as Big Guns Never Tire's is): a 2 no longer hits, so it is no
    // Critical Hit either; the 3 that hits is
    addHitModifier(plan, -1);
    expect(criticalHitThreshold(plan)).toBe(3);
    // not in melee
    expect(criticalHitThreshold(planFor(g, 'LD', 'ST', 'Shining Blade'))).toBe(6);
  });
});

describe('Maugan Ra', () => {
  it('Face of Death: an enemy unit he hit takes a Battle-shock test, subtracting 1 from the result', () => {
    // 4 + 3 = 7 would pass the Strike Team's Leadership 7+; with -1 it fails
    const g = led('Maugan Ra', 'Dark Reapers', false, { stream: scriptedStream([4, 3]) });
    rule('Face of Death').afterShooting!(g, g.state.units.LD, ['ST'], [{ weapon: 'Maugetar', target: 'ST' }]);
    expect(asked).toEqual(['face-of-death']);
    expect(g.state.units.ST.battleShocked).toBe(true);
    // not for a unit hit only by other weapons
    const other = led('Maugan Ra', 'Dark Reapers', false, { stream: scriptedStream([1, 1]) });
    rule('Face of Death').afterShooting!(other, other.state.units.LD, ['ST'], [{ weapon: 'Reaper launcher', target: 'ST' }]);
    expect(asked).toEqual([]);
    expect(other.state.units.ST.battleShocked).toBe(false);
  });
});

describe('Skyrunners and Eldrad Ulthran', () => {
  it('Ride the Wind: the unit the Autarch Skyrunner leads Advances 6" without a roll; not when he leads no unit', () => {
    const stream = scriptedStream([3]);
    const g = led('Autarch Skyrunner', 'Windriders', true, { phase: 'movement', stream });
    expect(advanceDistance(g, g.state.units.BG)).toBe(6);
    expect(stream.remaining()).toBe(1);
    const alone = led('Autarch Skyrunner', 'Windriders', false, { phase: 'movement', stream: scriptedStream([3]) });
    expect(advanceDistance(alone, alone.state.units.LD)).toBe(3);
  });

  it('Misfortune: an enemy unit within 18" and visible subtracts 1 from its Wound rolls; not one farther away', () => {
    const g = led('Farseer Skyrunner', 'Windriders', false, { phase: 'movement' });
    setGap(g, 'ST', 'LD', 17);
    rule('Misfortune (Psychic)').phaseEnd!(g, g.state.units.LD, 'movement');
    expect(asked).toEqual(['misfortune']);
    expect(planFor(g, 'ST', 'BG', 'Pulse rifle').woundModifier).toBe(-1);
    // its targets' attacks are not changed
    expect(planFor(g, 'BG', 'ST', 'Twin shuriken catapult').woundModifier).toBe(0);
    // a second pick this turn cannot take the same unit
    rule('Misfortune (Psychic)').phaseEnd!(g, g.state.units.LD, 'movement');
    expect(asked).toEqual(['misfortune']);
    const far = led('Farseer Skyrunner', 'Windriders', false, { phase: 'movement' });
    setGap(far, 'ST', 'LD', 19);
    rule('Misfortune (Psychic)').phaseEnd!(far, far.state.units.LD, 'movement');
    expect(asked).toEqual([]);
    expect(planFor(far, 'ST', 'BG', 'Pulse rifle').woundModifier).toBe(0);
  });

  it('Doom: friendly AELDARI attacks against the enemy unit Eldrad picks add 1 to the Wound roll; not beyond 18"', () => {
    const g = led('Eldrad Ulthran', 'Guardian Defenders', false, { phase: 'movement' });
    setGap(g, 'ST', 'LD', 17);
    expect(planFor(g, 'BG', 'ST', 'Shuriken catapult').woundModifier).toBe(0);
    rule('Doom (Psychic)').phaseEnd!(g, g.state.units.LD, 'movement');
    expect(asked).toEqual(['doom']);
    expect(planFor(g, 'BG', 'ST', 'Shuriken catapult').woundModifier).toBe(1);
    expect(planFor(g, 'ST', 'BG', 'Pulse rifle').woundModifier).toBe(0);
    const far = led('Eldrad Ulthran', 'Guardian Defenders', false, { phase: 'movement' });
    setGap(far, 'ST', 'LD', 19);
    rule('Doom (Psychic)').phaseEnd!(far, far.state.units.LD, 'movement');
    expect(asked).toEqual([]);
  });

  it('Diviner of Futures: 1CP at the start of its player\'s Command phase; not the opponent\'s', () => {
    const g = led('Eldrad Ulthran', 'Guardian Defenders', false, { phase: 'command' });
    const cp = g.state.players[0].cp;
    rule('Diviner of Futures').phaseStart!(g, g.state.units.LD, 'command');
    expect(g.state.players[0].cp).toBe(cp + 1);
    g.emit({ type: 'turn-started', round: 1, player: 1 });
    setPhase(g, 'command', 1);
    rule('Diviner of Futures').phaseStart!(g, g.state.units.LD, 'command');
    expect(g.state.players[0].cp).toBe(cp + 1);
  });

  it('the core rules\' cap: one CP a battle round beyond the Command phase\'s, whatever gives it; the next round another', () => {
    const g = led('Eldrad Ulthran', 'Guardian Defenders', false, { phase: 'command' });
    const cp = g.state.players[0].cp;
    expect(gainExtraCp(g, 0, 'a test rule')).toBe(true);
    rule('Diviner of Futures').phaseStart!(g, g.state.units.LD, 'command');
    expect(g.state.players[0].cp).toBe(cp + 1);
    expect(g.log?.at(-1)).toEqual({ type: 'note', text: "Diviner of Futures: no CP gained (only 1CP a battle round beyond the Command phase's)" });
    // the opponent's cap is their own; the Command phase's CP does not count against it
    g.emit({ type: 'cp', player: 1, delta: 1, reason: 'Command phase' });
    expect(gainExtraCp(g, 1, 'a test rule')).toBe(true);
    g.emit({ type: 'round-started', round: g.state.round + 1 });
    rule('Diviner of Futures').phaseStart!(g, g.state.units.LD, 'command');
    expect(g.state.players[0].cp).toBe(cp + 2);
  });
});

describe('Illic Nightspear', () => {
  it('Bringer of the True Death: attacks of the unit he leads re-roll the Wound roll; not when he leads no unit', () => {
    const g = led('Illic Nightspear', 'Rangers', true);
    expect(planFor(g, 'BG', 'ST', 'Long rifle').rerollWounds).toBe('failed');
    const alone = led('Illic Nightspear', 'Rangers', false);
    expect(planFor(alone, 'BG', 'ST', 'Long rifle').rerollWounds).toBe('none');
    expect(planFor(alone, 'LD', 'ST', 'Voidbringer').rerollWounds).toBe('none');
  });

  it('Hunter Unseen: his unit can be shot only from within 12"; other units from anywhere', () => {
    const g = led('Illic Nightspear', 'Rangers', true);
    expect(targetableFrom(g.state, g.state.units.BG, 12)).toBe(true);
    expect(targetableFrom(g.state, g.state.units.BG, 13)).toBe(false);
    const alone = led('Illic Nightspear', 'Rangers', false);
    expect(targetableFrom(alone.state, alone.state.units.LD, 13)).toBe(false);
    expect(targetableFrom(alone.state, alone.state.units.BG, 13)).toBe(true);
  });
});

describe('Irillyth and Lhykhis', () => {
  it('Reaper of Souls: attacks of the unit Irillyth leads add 1 to the Hit roll; not when he leads no unit', () => {
    const g = led('Irillyth', 'Shadow Spectres', true);
    expect(planFor(g, 'BG', 'ST', 'Prism rifle').hitModifier).toBe(1);
    const alone = led('Irillyth', 'Shadow Spectres', false);
    expect(planFor(alone, 'BG', 'ST', 'Prism rifle').hitModifier).toBe(0);
  });

  it('Whispering Web: friendly AELDARI attacks against an enemy unit Lhykhis\'s unit hit score Critical Hits on a 5+ this turn', () => {
    const g = led('Lhykhis', 'Warp Spiders', false);
    expect(planFor(g, 'BG', 'ST', 'Death spinner').criticalHitOn).toBe(6);
    rule('Whispering Web').afterShooting!(g, g.state.units.LD, ['ST'], [{ weapon: 'Brood Twain', target: 'ST' }]);
    expect(asked).toEqual(['whispering-web']);
    expect(planFor(g, 'BG', 'ST', 'Death spinner').criticalHitOn).toBe(5);
    expect(planFor(g, 'ST', 'BG', 'Pulse rifle').criticalHitOn).toBe(6);
    const none = led('Lhykhis', 'Warp Spiders', false);
    // a unit hit only by another model's weapons is not offered
    rule('Whispering Web').afterShooting!(none, none.state.units.LD, ['ST'], [{ weapon: 'Death spinner', target: 'ST' }]);
    expect(asked).toEqual([]);
  });
});

describe('Vehicles, mounted units and Corsairs', () => {
  it('Extreme Mobility is registered (played trivially: no model climbs in this engine)', () => {
    expect(getRule('Extreme Mobility')?.kind).toBe('datasheet-ability');
  });

  it('Strafing Run: the Phoenix\'s ranged attacks against a unit that cannot FLY add 1 to the Hit roll', () => {
    const g = sandbox([
      { id: 'PX', player: 0, faction: 'aeldari', name: 'Phoenix', at: { x: 10, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
      { id: 'CB', player: 1, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 30, y: 30 } },
    ]);
    expect(planFor(g, 'PX', 'ST', 'Phoenix pulse laser').hitModifier).toBe(1);
    expect(planFor(g, 'PX', 'CB', 'Phoenix pulse laser').hitModifier).toBe(0);
  });

  it('Acrobatic Grace: attacks that target the Skyweavers subtract 1 from the Hit roll', () => {
    const g = sandbox([
      { id: 'SW', player: 0, faction: 'aeldari', name: 'Skyweavers', at: { x: 10, y: 10 } },
      { id: 'WR', player: 0, faction: 'aeldari', name: 'Windriders', at: { x: 10, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    ]);
    expect(planFor(g, 'ST', 'SW', 'Pulse rifle').hitModifier).toBe(-1);
    expect(planFor(g, 'ST', 'SW', 'Close combat weapon').hitModifier).toBe(-1);
    expect(planFor(g, 'ST', 'WR', 'Pulse rifle').hitModifier).toBe(0);
  });

  it('Hallucinogen Grenades: at the start of the opponent\'s Shooting phase, a friendly AELDARI INFANTRY unit gets Stealth', () => {
    const g = sandbox([
      { id: 'SF', player: 0, faction: 'aeldari', name: 'Starfangs', at: { x: 10, y: 10 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    ], { turn: 1 });
    rule('Hallucinogen Grenades').phaseStart!(g, g.state.units.SF, 'shooting');
    expect(asked).toEqual(['hallucinogen-grenades']);
    expect(planFor(g, 'ST', 'GD', 'Pulse rifle').hitModifier).toBe(-1);
    expect(planFor(g, 'ST', 'GD', 'Close combat weapon').hitModifier).toBe(0);
    // not in its own turn
    const own = sandbox([
      { id: 'SF', player: 0, faction: 'aeldari', name: 'Starfangs', at: { x: 10, y: 10 } },
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 20 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    ]);
    rule('Hallucinogen Grenades').phaseStart!(own, own.state.units.SF, 'shooting');
    expect(asked).toEqual([]);
    expect(planFor(own, 'ST', 'GD', 'Pulse rifle').hitModifier).toBe(0);
  });

  it('Reavers of the Void: re-roll Hit rolls of 1; any failed Hit roll against a target within range of an objective marker', () => {
    const g = sandbox([
      { id: 'VR', player: 0, faction: 'aeldari', name: 'Corsair Voidreavers', at: { x: 10, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 45, y: 5 } },
      { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 22 } },
    ]);
    expect(planFor(g, 'VR', 'ST', 'Shuriken pistol').rerollHits).toBe('ones');
    expect(planFor(g, 'VR', 'CF', 'Shuriken pistol').rerollHits).toBe('failed');
    expect(planFor(g, 'ST', 'VR', 'Pulse rifle').rerollHits).toBe('none');
  });

  it('Piratical Raiders: LETHAL HITS and PRECISION against the enemy unit picked at the start of the battle only', () => {
    const g = sandbox([
      { id: 'VS', player: 0, faction: 'aeldari', name: 'Corsair Voidscarred', at: { x: 10, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
      { id: 'CF', player: 1, faction: 'tau', name: 'Cadre Fireblade', at: { x: 30, y: 22 } },
    ], {}, (r) => (r.options as string[]).indexOf('CF'));
    expect(planFor(g, 'VS', 'CF', 'Shuriken pistol').lethalHits).toBe(false);
    rule('Piratical Raiders').battleStart!(g, g.state.units.VS);
    expect(asked).toEqual(['piratical-raiders']);
    const p = planFor(g, 'VS', 'CF', 'Shuriken pistol');
    expect([p.lethalHits, p.precision]).toEqual([true, true]);
    const q = planFor(g, 'VS', 'ST', 'Shuriken pistol');
    expect([q.lethalHits, q.precision]).toEqual([false, false]);
  });

  it('Skyleap: at the end of the opponent\'s turn, into Strategic Reserves; not within Engagement Range, not at the end of its own turn', () => {
    const g = sandbox([
      { id: 'SR', player: 0, faction: 'aeldari', name: 'Corsair Skyreaver Band', at: { x: 10, y: 10 } },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 5 } },
    ], {}, () => 1);
    rule('Skyleap').turnEnd!(g, g.state.units.SR, 0);
    expect(asked).toEqual([]);
    setGap(g, 'ST', 'SR', 0.5);
    rule('Skyleap').turnEnd!(g, g.state.units.SR, 1);
    expect(asked).toEqual([]);
    setGap(g, 'ST', 'SR', 5);
    rule('Skyleap').turnEnd!(g, g.state.units.SR, 1);
    expect(asked).toEqual(['skyleap']);
    expect(g.state.units.SR.location).toBe('strategic-reserves');
  });
});
