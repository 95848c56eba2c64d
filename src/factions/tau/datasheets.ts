/**
 * T'au Empire datasheet abilities, one registry entry each (by the ability's name on the datasheet).
 */
import { registerRule } from '../../core/rules-registry.ts';

/** Aun'Shi: while leading a unit, +1 OC for the models of that unit. */
registerRule({
  name: 'Inspirational Defiance', kind: 'datasheet-ability',
  characteristic(which, v, ctx) {
    if (which !== 'OC' || ctx.unit.components.length < 2) return v;
    const leading = ctx.unit.models.some((m) => m.alive && ctx.state.datasheets[m.datasheet].keywords.includes("AUN'SHI"));
    return leading ? v + 1 : v;
  },
});

export const MARTIAL_WARRIOR_STANCES = ['Direct Grace', 'Forceful Strike', 'Whirling Stance'] as const;

/**
 * Aun'Shi's Martial Warrior: each time he is selected to fight, his player picks one: Fidelity gets
 * PRECISION (Direct Grace), DEVASTATING WOUNDS (Forceful Strike) or SUSTAINED HITS 2 (Whirling Stance).
 */
registerRule({
  name: 'Martial Warrior', kind: 'datasheet-ability',
  selectedToFight(g, unit) {
    const { option } = g.decide({
      kind: 'martial-warrior', player: unit.player, prompt: "Aun'Shi's Martial Warrior: which stance?",
      options: [...MARTIAL_WARRIOR_STANCES], context: { unit: unit.id },
    });
    g.addEffect('Martial Warrior stance', unit.player, unit.id, g.untilEndOfPhase(), { stance: option });
  },
});

registerRule({
  name: 'Martial Warrior stance', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.weapon.name !== 'Fidelity') return;
    const stance = src.effect?.params.stance;
    if (stance === 'Direct Grace') plan.precision = true;
    else if (stance === 'Forceful Strike') plan.devastatingWounds = true;
    else if (stance === 'Whirling Stance') plan.sustainedHits = 2;
  },
});
