import { describe, expect, it } from 'vitest';
import { attachLeader, duel, rolls, weapon } from '../helpers/attack.ts';
import { rerollAllowed, resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { widerReroll } from '../../src/rules/attack-plan.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { registerRule } from '../../src/core/rules-registry.ts';
import { inflictMortalWounds } from '../../src/rules/damage.ts';

// A test-only effect: adds params.hit to Hit rolls of the unit it is on.
registerRule({
  name: 'test: hit modifier', kind: 'effect',
  attack: (plan, _ctx, src) => { if (src.role === 'attacker') plan.hitModifier += Number(src.effect?.params.hit ?? 0); },
});

// A test-only effect: every Hit roll that hits scores a Critical Hit (as Cry of the Wind and Murder's Jest).
registerRule({
  name: 'test: every hit critical', kind: 'effect',
  attack: (plan, _ctx, src) => { if (src.role === 'attacker') plan.everyHitCritical = true; },
});

const noSave = { name: 'Targets', models: 10, profile: { toughness: 4, save: 7, wounds: 1 } };

describe('Hit roll', () => {
  it('an unmodified 6 is a Critical Hit and always hits; an unmodified 1 always fails', () => {
    // BS 6+ with -1: a 6 still hits (critical), a 1 fails even with +1 (capped).
    const s = scriptedStream([6, 5, 1, /* wound */ 4]);
    const d = duel({ models: 1, weapon: { attacks: '3', skill: 6 } }, noSave, s);
    d.game.addEffect('test: hit modifier', 0, 'A', { at: 'end-of-battle' }, { hit: -1 });
    const t = d.run();
    expect(t.hits).toBe(1);
    expect(s.remaining()).toBe(0);
  });

  it('every Hit roll that hits is a Critical Hit: the roll that hits is read with the modifiers a later rule adds', () => {
    // BS 3+ with SUSTAINED HITS 1; the rule comes first, a -1 to hit after it: a 3 misses, the 4 hits and is
    // a Critical Hit (2 hits). Read when the rule was asked (BS 3), the 3 would be a Critical Hit too (4 hits);
    // without the rule the 4 is a plain hit (1).
    const s = scriptedStream([3, 4, /* wounds */ 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '2', skill: 3, abilities: ['SUSTAINED HITS 1'] } }, noSave, s);
    d.game.addEffect('test: every hit critical', 0, 'A', { at: 'end-of-battle' });
    d.game.addEffect('test: hit modifier', 0, 'A', { at: 'end-of-battle' }, { hit: -1 });
    const t = d.run();
    expect(t.hits).toBe(2);
    expect(s.remaining()).toBe(0);
  });

  it('modifiers are capped at +1: two +1 modifiers turn a 2 into a 3, not a 4', () => {
    const s = scriptedStream([2, 3, /* wound */ 1]);
    const d = duel({ models: 1, weapon: { attacks: '2', skill: 4 } }, noSave, s);
    d.game.addEffect('test: hit modifier', 0, 'A', { at: 'end-of-battle' }, { hit: 1 });
    d.game.addEffect('test: hit modifier', 0, 'A', { at: 'end-of-battle' }, { hit: 1 });
    const t = d.run();
    // 2+1 = 3 < 4 misses; 3+1 = 4 hits. Uncapped (+2) both would hit.
    expect(t.hits).toBe(1);
  });

  it('Stealth: -1 to hit ranged attacks only', () => {
    const s1 = scriptedStream([4, 5, /* wound */ 4]);
    const ranged = duel({ models: 1, weapon: { attacks: '2', skill: 4 } }, { ...noSave, coreAbilities: [{ name: 'Stealth' }] }, s1);
    expect(ranged.run().hits).toBe(1);
    const s2 = scriptedStream([4, 5, /* wounds */ 4, 4]);
    const melee = duel({ models: 1, weapon: { attacks: '2', skill: 4, range: 'Melee' } }, { ...noSave, coreAbilities: [{ name: 'Stealth' }] }, s2);
    expect(melee.run().hits).toBe(2);
  });

  it('TORRENT hits automatically: no Hit roll at all', () => {
    const s = scriptedStream([4, 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '3', abilities: ['TORRENT'] } }, noSave, s);
    expect(d.run().hits).toBe(3);
    expect(rolls(d.game, 'hit')).toEqual([]);
  });

  it('HEAVY: +1 to hit only when the unit Remained Stationary', () => {
    const s = scriptedStream([3, 4]);
    const d = duel({ models: 1, weapon: { attacks: '1', skill: 4, abilities: ['HEAVY'] } }, noSave, s);
    d.game.emit({ type: 'unit-moved', unit: 'A', mode: 'stationary' });
    expect(d.run().hits).toBe(1);
    const s2 = scriptedStream([3]);
    const moved = duel({ models: 1, weapon: { attacks: '1', skill: 4, abilities: ['HEAVY'] } }, noSave, s2);
    moved.game.emit({ type: 'unit-moved', unit: 'A', mode: 'normal' });
    expect(moved.run().hits).toBe(0);
  });
});

describe('Sustained Hits and Lethal Hits', () => {
  it('the extra hits of SUSTAINED HITS are not Critical Hits: only the Critical Hit itself auto-wounds', () => {
    // Hits: 6 (critical) and 2 (miss). SUSTAINED HITS 1 adds one normal hit. LETHAL HITS: the 6 wounds
    // automatically, so exactly one Wound roll is made (for the extra hit).
    const s = scriptedStream([6, 2, /* wound roll */ 4]);
    const d = duel({ models: 1, weapon: { attacks: '2', skill: 4, abilities: ['SUSTAINED HITS 1', 'LETHAL HITS'] } }, noSave, s);
    const t = d.run();
    expect(t.hits).toBe(2);
    expect(rolls(d.game, 'wound')).toEqual([[4]]);
    expect(t.wounds).toBe(2);
    expect(t.modelsDestroyed).toBe(2);
    expect(s.remaining()).toBe(0);
  });

  it('a Lethal Hits auto-wound is not a Critical Wound: no Devastating Wounds from it', () => {
    // One attack: Hit 6 -> auto-wound; the target has a 4+ save, so a save is rolled (a Devastating Wound would skip it).
    const s = scriptedStream([6, /* save */ 5]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['LETHAL HITS', 'DEVASTATING WOUNDS'] } }, { ...noSave, profile: { save: 4, toughness: 4 } }, s);
    const t = d.run();
    expect(rolls(d.game, 'save')).toEqual([[5]]);
    expect(t.unsaved).toBe(0);
  });
});

describe('Wound roll', () => {
  it('TWIN-LINKED re-rolls a failed Wound roll, once', () => {
    const s = scriptedStream([4, /* wound */ 2, /* re-roll */ 5]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['TWIN-LINKED'] } }, noSave, s);
    expect(d.run().wounds).toBe(1);
    const rr = (d.game.log ?? []).filter((e) => e.type === 'reroll');
    expect(rr).toHaveLength(1);
  });

  it('ANTI-INFANTRY 4+ makes a 4 a Critical Wound, which DEVASTATING WOUNDS turns into mortal wounds', () => {
    // S3 vs T6 needs a 6; the 4 wounds anyway as a Critical Wound; no save for it.
    const s = scriptedStream([5, /* wound */ 4]);
    const d = duel(
      { models: 1, weapon: { attacks: '1', strength: 3, damage: '2', abilities: ['ANTI-INFANTRY 4+', 'DEVASTATING WOUNDS'] } },
      { name: 'Infantry', models: 2, keywords: ['INFANTRY'], profile: { toughness: 6, save: 2, invulnerable: 4, wounds: 3 } }, s,
    );
    const t = d.run();
    expect(t.wounds).toBe(1);
    expect(rolls(d.game, 'save')).toEqual([]);
    expect(t.woundsLost).toBe(2);
  });

  it('ANTI-X does nothing against a target without the keyword', () => {
    const s = scriptedStream([5, /* wound */ 4]);
    const d = duel({ models: 1, weapon: { attacks: '1', strength: 3, abilities: ['ANTI-INFANTRY 4+'] } },
      { name: 'Tank', models: 1, keywords: ['VEHICLE'], profile: { toughness: 6, save: 7, wounds: 3 } }, s);
    expect(d.run().wounds).toBe(0);
  });

  it('LANCE: +1 to wound after the unit charged', () => {
    const s = scriptedStream([4, /* wound 3+1 = 4 */ 3]);
    const d = duel({ models: 1, weapon: { attacks: '1', range: 'Melee', abilities: ['LANCE'] } }, noSave, s);
    d.game.emit({ type: 'unit-flag', unit: 'A', flag: 'charged', value: true });
    expect(d.run().wounds).toBe(1);
  });
});

describe('Devastating Wounds', () => {
  it('resolves after the normal attacks and loses the excess damage', () => {
    // Two hits; wounds 6 (critical, devastating) and 4. Damage 3 against W2 models with Sv 2+.
    // Normal attack first: save 1 fails, 3 damage destroys model #1 (2 wounds lost, 1 excess lost).
    // Then the devastating wound: 3 mortal wounds to the next model, which has 2 wounds: 1 lost in excess.
    const s = scriptedStream([3, 3, /* wounds */ 6, 4, /* save */ 1]);
    const d = duel({ models: 1, weapon: { attacks: '2', skill: 3, damage: '3', abilities: ['DEVASTATING WOUNDS'] } },
      { name: 'Elites', models: 3, profile: { toughness: 4, save: 2, wounds: 2 } }, s);
    const t = d.run();
    expect(rolls(d.game, 'save')).toEqual([[1]]);
    expect(t.woundsLost).toBe(4);
    expect(t.modelsDestroyed).toBe(2);
    expect(t.unsaved).toBe(2);
    const damaged = (d.game.log ?? []).filter((e) => e.type === 'model-damaged');
    // the 3 mortal wounds go to one model (W2): 2 lost, the excess lost with them
    expect(damaged.map((e) => [(e as { mortal: boolean }).mortal, (e as { wounds: number }).wounds])).toEqual([[false, 2], [true, 2]]);
  });
});

describe('Saving throw', () => {
  it('the invulnerable save is used when better, never modified by AP', () => {
    // AP -3 against Sv 3+ / 4++: armour would need 6, invulnerable needs 4; a 4 saves.
    const s = scriptedStream([4, /* wound */ 4, /* save */ 4]);
    const d = duel({ models: 1, weapon: { attacks: '1', ap: -3 } }, { name: 'Warden', models: 1, profile: { toughness: 4, save: 3, invulnerable: 4, wounds: 2 } }, s);
    expect(d.run().unsaved).toBe(0);
  });

  it('Benefit of Cover gives +1 to the armour save, but not to a 3+ save against AP 0', () => {
    const s = scriptedStream([4, 4, /* save */ 3]);
    const d = duel({ models: 1, weapon: { attacks: '1' } }, { name: 'Guard', models: 1, profile: { toughness: 4, save: 4, wounds: 1 } }, s);
    expect(d.run({ targetInCover: true }).unsaved).toBe(0); // 3 + 1 = 4 saves
    const s2 = scriptedStream([4, 4, /* save */ 2]);
    const d2 = duel({ models: 1, weapon: { attacks: '1' } }, { name: 'Marine', models: 1, profile: { toughness: 4, save: 3, wounds: 1 } }, s2);
    expect(d2.run({ targetInCover: true }).unsaved).toBe(1); // 3+ vs AP 0: no cover, 2 fails
    const s3 = scriptedStream([4, 4, /* save */ 2]);
    const d3 = duel({ models: 1, weapon: { attacks: '1', range: 'Melee' } }, { name: 'Guard', models: 1, profile: { toughness: 4, save: 3, wounds: 1 } }, s3);
    expect(d3.run({ targetInCover: true }).unsaved).toBe(1); // cover never helps against melee
  });

  it('IGNORES COVER removes the Benefit of Cover', () => {
    const s = scriptedStream([4, 4, /* save */ 3]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['IGNORES COVER'] } }, { name: 'Guard', models: 1, profile: { toughness: 4, save: 4, wounds: 1 } }, s);
    expect(d.run({ targetInCover: true }).unsaved).toBe(1);
  });
});

describe('Damage and allocation', () => {
  it('excess damage of an attack is lost; a wounded model takes the next attack', () => {
    // Damage 2 against W3 models, three unsaved: model #3 takes 2, then 2 more (1 lost in excess, destroyed), then model #2 takes 2.
    const s = scriptedStream([4, 4, 4, 4, 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '3', damage: '2' } }, { name: 'Brutes', models: 3, profile: { toughness: 4, save: 7, wounds: 3 } }, s);
    const t = d.run();
    expect(t.woundsLost).toBe(5);
    expect(t.modelsDestroyed).toBe(1);
    const D = d.game.state.units.D;
    expect(D.models.map((m) => m.wounds)).toEqual([3, 1, 0]);
  });

  it('Feel No Pain: each wound that would be lost is ignored on a roll at or above the value', () => {
    // D2 damage, FNP 5+: rolls 5 and 2 -> one wound lost.
    const s = scriptedStream([4, 4, /* fnp */ 5, 2]);
    const d = duel({ models: 1, weapon: { attacks: '1', damage: '2' } }, { name: 'Orks', models: 1, profile: { toughness: 4, save: 7, wounds: 3 }, coreAbilities: [{ name: 'Feel No Pain', x: 5 }] }, s);
    expect(d.run().woundsLost).toBe(1);
  });

  it('MELTA 2 adds 2 damage within half range only', () => {
    const s = scriptedStream([4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '1', damage: '1', abilities: ['MELTA 2'] } }, { name: 'Tank', models: 1, profile: { toughness: 4, save: 7, wounds: 10 } }, s);
    expect(d.run({ halfRange: true }).woundsLost).toBe(3);
  });

  it('RAPID FIRE 1 adds an attack within half range; BLAST adds one per five target models', () => {
    const s = scriptedStream([1, 1, 1, 1, 1]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['RAPID FIRE 1', 'BLAST'] } }, { ...noSave, models: 15 }, s);
    expect(d.run({ halfRange: true }).attacks).toBe(1 + 1 + 3);
  });

  it("BLAST counts the models the target had when it was selected, not those left after the unit's first weapon destroyed some", () => {
    // 10 targets. The first weapon (TORRENT, 1 attack, wound 4) destroys one: the BLAST gun then attacks a unit of
    // 9 models with 1 + 2 attacks (the seed: every five models in the unit when it was selected as the target;
    // counted as the attacks are made, 9 models, it would be 1 + 1)
    const s = scriptedStream([4, 1, 1, 1]);
    const d = duel({ models: 2, weapon: { attacks: '1', damage: '1', abilities: ['TORRENT'] } }, { ...noSave, models: 10 }, s);
    const A = d.game.state.units.A;
    const blast = weapon({ name: 'Blast gun', attacks: '1', damage: '1', abilities: ['BLAST'] });
    const group = (w: typeof blast, m: number) => ({ weapon: w, profile: w.profiles[0], models: [A.models[m]], target: 'D', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 10 });
    resolveAttacks(d.game, A, [group(d.weapon, 0), group(blast, 1)], false);
    expect(d.game.state.units.D.models.filter((m) => m.alive)).toHaveLength(9);
    expect(rolls(d.game, 'hit')).toEqual([[1, 1, 1]]);
    expect(s.remaining()).toBe(0);
  });

  it('CHARACTER models in an Attached unit cannot be allocated attacks while Bodyguard models remain, unless PRECISION', () => {
    for (const precision of [false, true]) {
      const s = scriptedStream([4, 4]);
      const d = duel({ models: 1, weapon: { attacks: '1', damage: '1', abilities: precision ? ['PRECISION'] : [] } },
        { name: 'Bodyguard', models: 2, profile: { toughness: 3, save: 7, wounds: 1 } }, s);
      attachLeader(d, { profile: { toughness: 3, save: 7, wounds: 4 }, keywords: ['CHARACTER', 'INFANTRY'] });
      d.run();
      const D = d.game.state.units.D;
      const leader = D.models.find((m) => m.origin === 'L')!;
      expect(leader.wounds).toBe(precision ? 3 : 4);
      expect(D.models.filter((m) => m.origin === 'D' && m.alive)).toHaveLength(precision ? 2 : 1);
    }
  });

  it('an Attached unit keeps its Bodyguard\'s Toughness until the attacking unit has resolved all its attacks', () => {
    // Bodyguard T3 (two W1 models), Leader T5. The first weapon (TORRENT, Critical Wounds 6 and 6) destroys
    // both Bodyguard models; the second weapon's S4 attack still wounds on a 3 (T3: 3+, not T5: 5+)
    const s = scriptedStream([6, 6, 3]);
    const d = duel({ models: 2, weapon: { attacks: '2', strength: 4, damage: '1', abilities: ['TORRENT'] } },
      { name: 'Bodyguard', models: 2, profile: { toughness: 3, save: 7, wounds: 1 } }, s);
    attachLeader(d, { profile: { toughness: 5, save: 7, wounds: 4 } });
    const A = d.game.state.units.A;
    const second = weapon({ name: 'Second gun', attacks: '1', strength: 4, damage: '1', abilities: ['TORRENT'] });
    const group = (w: typeof second, m: number) => ({ weapon: w, profile: w.profiles[0], models: [A.models[m]], target: 'D', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 3 });
    resolveAttacks(d.game, A, [group(d.weapon, 0), group(second, 1)], false);
    expect(rolls(d.game, 'wound')).toEqual([[6, 6], [3]]);
    expect(d.game.state.units.L.models[0].wounds).toBe(3);
  });

  it('an Attached unit splits when its Bodyguard part is destroyed, after the attacks', () => {
    const s = scriptedStream([4, 4, 4, 4, 4, 4]);
    const d = duel({ models: 1, weapon: { attacks: '3', damage: '1' } }, { name: 'Bodyguard', models: 2, profile: { toughness: 3, save: 7, wounds: 1 } }, s);
    attachLeader(d, { profile: { toughness: 3, save: 7, wounds: 4 } });
    expect(d.game.state.units.D.startingStrength).toBe(3);
    d.run();
    const st = d.game.state;
    // two bodyguards die; the third attack goes to the Leader once no Bodyguard remains
    expect(st.units.D.location).toBe('destroyed');
    expect(st.units.L.location).toBe('battlefield');
    expect(st.units.L.models[0].wounds).toBe(3);
    expect(st.units.L.startingStrength).toBe(1);
    const destroyed = (d.game.log ?? []).filter((e) => e.type === 'unit-destroyed');
    expect(destroyed).toHaveLength(1);
  });

  it('mortal wounds carry over to the next model unless their excess is lost', () => {
    const d = duel({ models: 1, weapon: { attacks: '1' } }, { name: 'Brutes', models: 3, profile: { toughness: 4, save: 7, wounds: 2 } }, scriptedStream([]));
    const D = d.game.state.units.D;
    expect(inflictMortalWounds(d.game, D, 3, null)).toBe(3);
    expect(D.models.map((m) => m.wounds)).toEqual([2, 1, 0]);
    expect(inflictMortalWounds(d.game, D, 3, null, { excessLost: true })).toBe(1);
    expect(D.models.map((m) => m.wounds)).toEqual([2, 0, 0]);
  });

  it('HAZARDOUS: after the attacks, each 1 inflicts 3 mortal wounds on a model with the weapon', () => {
    const s = scriptedStream([2, 2, /* hazardous */ 1, 3]);
    const d = duel({ models: 2, profile: { wounds: 3 }, weapon: { attacks: '1', abilities: ['HAZARDOUS'] } }, noSave, s);
    d.run();
    const A = d.game.state.units.A;
    expect(A.models.filter((m) => m.alive)).toHaveLength(1);
    expect(s.remaining()).toBe(0);
  });
});

const ONES_GRANT = 'test: re-roll a Wound roll of 1';
registerRule({ name: ONES_GRANT, kind: 'effect', attack(plan, _ctx, src) { if (src.role === 'attacker') plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones'); } });

describe('re-rolls are the owning player\'s decision', () => {
  const agent = (policy: string) => ({ name: `rerolls-${policy}`, decide: () => ({ option: 0 }), rerollPolicy: () => policy as never });

  it('by default failed rolls are re-rolled; an agent may choose not to', () => {
    const s = scriptedStream([4, /* wound */ 2]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['TWIN-LINKED'] } }, noSave, s);
    d.game.agents = [agent('none'), agent('none')];
    expect(d.run().wounds).toBe(0);
    expect((d.game.log ?? []).filter((e) => e.type === 'reroll')).toHaveLength(0);
  });

  it('"you can re-roll the Wound roll" (TWIN-LINKED) lets the player re-roll a successful one to fish for a Critical Wound', () => {
    // hit 4, wound 4 (S4 against T4: a success, not a Critical), re-rolled: 6, a Critical Wound (DEVASTATING WOUNDS: 1 mortal wound)
    const s = scriptedStream([4, /* wound */ 4, /* re-rolled */ 6]);
    const d = duel({ models: 1, weapon: { attacks: '1', abilities: ['TWIN-LINKED', 'DEVASTATING WOUNDS'] } }, noSave, s);
    d.game.agents = [agent('non-critical'), agent('none')];
    expect(d.run().wounds).toBe(1);
    expect((d.game.log ?? []).filter((e) => e.type === 'reroll')).toHaveLength(1);
    expect(s.remaining()).toBe(0);
    // by default (failures only) the 4 stands: no re-roll, no die left unread
    const t = scriptedStream([4, 4, 1]);
    const e = duel({ models: 1, weapon: { attacks: '1', abilities: ['TWIN-LINKED', 'DEVASTATING WOUNDS'] } }, noSave, t);
    expect(e.run().wounds).toBe(1);
    expect((e.game.log ?? []).filter((x) => x.type === 'reroll')).toHaveLength(0);
  });

  it('an agent asking for more re-rolls than granted is an illegal decision naming the agent and the seed: "re-roll a Wound roll of 1" allows no more', () => {
    expect([rerollAllowed('ones', 'failed'), rerollAllowed('ones', 'non-critical'), rerollAllowed('ones', 'ones'), rerollAllowed('failed', 'non-critical')]).toEqual([false, false, true, true]);
    const s = scriptedStream([4, /* wound */ 2]);
    const d = duel({ models: 1, weapon: { attacks: '1' } }, noSave, s);
    d.game.addEffect(ONES_GRANT, 0, 'A', { at: 'end-of-battle' });
    d.game.agents = [agent('failed'), agent('none')];
    expect(() => d.run()).toThrow(/agent "rerolls-failed".*seed "sandbox"/);
  });
});
