/**
 * Attached units (a Leader with its Bodyguard) against rules that read every model of the unit: the
 * Leader's own saving throws once the Bodyguard is gone (fast dice rolling must not carry the Bodyguard's
 * save over to him), and the core abilities that act only "if every model in the unit has" them (Stealth,
 * Fights First). Exact dice, so each test fails if the rule is played the other way.
 */
import { describe, expect, it } from 'vitest';
import { attachLeader, duel, rolls } from '../helpers/attack.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { fightsFirst } from '../../src/rules/battle/charge.ts';
import { everyModelHas, isLoneOperative } from '../../src/core/rules-registry.ts';

function leaderModel(d: ReturnType<typeof duel>) {
  return Object.values(d.game.state.units).flatMap((u) => u.models).find((m) => m.origin === 'L')!;
}

describe('Saving throws of an Attached unit whose Leader has another save', () => {
  it('the Leader rolls his own invulnerable save once his one Bodyguard model is destroyed', () => {
    // 3 attacks hit (2, 3, 4 against BS 2+) and wound (3s against S8 vs T4: 3+). The Bodyguard model has no
    // save and W1: the first attack destroys it without a save roll. The other two are allocated to the Leader,
    // who has a 4+ invulnerable save: he rolls 6 and 6 (together, he is the only model left) and keeps his 3
    // wounds. Rolled together at the Bodyguard's save (none), both would have gone through with no roll.
    const s = scriptedStream([2, 3, 4, 3, 3, 3, 6, 6]);
    const d = duel({ models: 1, weapon: { attacks: '3', skill: 2, strength: 8, ap: 0, damage: '1' } },
      { name: 'Bodyguard', models: 1, profile: { toughness: 4, save: 7, wounds: 1 } }, s);
    attachLeader(d, { profile: { toughness: 4, save: 7, invulnerable: 4, wounds: 3 } });
    d.run();
    expect(rolls(d.game, 'save')).toEqual([[6, 6]]);
    expect(leaderModel(d).wounds).toBe(3);
    expect(s.remaining()).toBe(0);
  });

  it('saves rolled together stop at the Bodyguard\'s number of models; the rest are rolled at the Leader\'s save', () => {
    // 3 attacks hit and wound. Bodyguard: one model, Sv 6+, W1. Leader: Sv 2+, W3. Saves rolled together at 6+
    // only for as many attacks as the Bodyguard has models (1): it rolls 3 (fails) and dies. The two left are
    // the Leader's, at 2+: 3 and 3 both pass. Played as one batch at 6+, the two 3s would have wounded him twice.
    const s = scriptedStream([2, 3, 4, 3, 3, 3, 3, 3, 3]);
    const d = duel({ models: 1, weapon: { attacks: '3', skill: 2, strength: 8, ap: 0, damage: '1' } },
      { name: 'Bodyguard', models: 1, profile: { toughness: 4, save: 6, wounds: 1 } }, s);
    attachLeader(d, { profile: { toughness: 4, save: 2, wounds: 3 } });
    d.run();
    expect(rolls(d.game, 'save')).toEqual([[3], [3, 3]]);
    expect(leaderModel(d).wounds).toBe(3);
    expect(s.remaining()).toBe(0);
  });

  it('with the same save on both, the saves are still rolled together (fast dice rolling)', () => {
    const s = scriptedStream([2, 3, 4, 3, 3, 3, 3, 3, 3]);
    const d = duel({ models: 1, weapon: { attacks: '3', skill: 2, strength: 8, ap: 0, damage: '1' } },
      { name: 'Bodyguard', models: 1, profile: { toughness: 4, save: 6, wounds: 1 } }, s);
    attachLeader(d, { profile: { toughness: 4, save: 6, wounds: 3 } });
    d.run();
    // one roll of three dice, all failed: the Bodyguard model dies, the Leader loses 2 wounds
    expect(rolls(d.game, 'save')).toEqual([[3, 3, 3]]);
    expect(leaderModel(d).wounds).toBe(1);
  });
});

describe('Stealth: only when every model in the unit has it', () => {
  it('a Bodyguard with Stealth led by a Leader without it: no -1 to the Hit roll', () => {
    // BS 4+, Hit roll 4: a hit without Stealth, a miss with it
    const s = scriptedStream([4, 1]);
    const d = duel({ models: 1, weapon: { attacks: '1', skill: 4 } },
      { name: 'Bodyguard', models: 5, profile: { toughness: 4, save: 7, wounds: 1 }, coreAbilities: [{ name: 'Stealth' }] }, s);
    attachLeader(d, { profile: { toughness: 4, save: 7, wounds: 3 } });
    expect(d.run().hits).toBe(1);
  });

  it('with Stealth on the Leader too, the -1 applies', () => {
    const s = scriptedStream([4]);
    const d = duel({ models: 1, weapon: { attacks: '1', skill: 4 } },
      { name: 'Bodyguard', models: 5, profile: { toughness: 4, save: 7, wounds: 1 }, coreAbilities: [{ name: 'Stealth' }] }, s);
    attachLeader(d, { profile: { toughness: 4, save: 7, wounds: 3 }, coreAbilities: [{ name: 'Stealth' }] });
    expect(d.run().hits).toBe(0);
  });
});

describe('Fights First: only when every model in the unit has it', () => {
  // (the one bundled Leader with Fights First, Jain Zar, leads Howling Banshees, who have it too)
  function led(bodyguardHasIt: boolean) {
    const d = duel({ models: 1, weapon: { attacks: '1', range: 'Melee' } },
      { name: 'Bodyguard', models: 5, profile: { wounds: 1 }, coreAbilities: bodyguardHasIt ? [{ name: 'Fights First' }] : [] }, scriptedStream([]));
    attachLeader(d, { profile: { wounds: 3 }, coreAbilities: [{ name: 'Fights First' }] });
    return { g: d.game, unit: d.game.state.units.D };
  }

  it('a Leader with it leading a Bodyguard without it: the unit does not fight first', () => {
    const { g, unit } = led(false);
    expect(unit.abilities).toContain('Fights First');
    expect(everyModelHas(unit, 'Fights First')).toBe(false);
    expect(fightsFirst(g, unit)).toBe(false);
  });

  it('both parts with it: the unit fights first', () => {
    const { g, unit } = led(true);
    expect(fightsFirst(g, unit)).toBe(true);
  });
});

describe('Lone Operative: not while part of an Attached unit', () => {
  it('a Leader with Lone Operative is one alone, and not once attached to its Bodyguard', () => {
    const d = duel({ models: 1, weapon: { attacks: '1' } }, { name: 'Bodyguard', models: 5, profile: { wounds: 1 } }, scriptedStream([]));
    const ds = { name: 'Leader', models: 1, keywords: ['CHARACTER'], profile: { wounds: 3 }, coreAbilities: [{ name: 'Lone Operative' }] };
    attachLeader(d, ds);
    const s = d.game.state;
    expect(s.units.D.abilities).toContain('Lone Operative');
    expect(isLoneOperative(s, s.units.D)).toBe(false);
    // a unit of its own with the ability: a Lone Operative
    const alone = duel({ models: 1, weapon: { attacks: '1' } }, { name: 'Alone', models: 1, profile: { wounds: 3 }, coreAbilities: [{ name: 'Lone Operative' }] }, scriptedStream([]));
    expect(isLoneOperative(alone.game.state, alone.game.state.units.D)).toBe(true);
  });
});
