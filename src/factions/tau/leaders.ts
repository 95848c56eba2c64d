/**
 * T'au Empire datasheet abilities of characters that no bundled army fields (the Ethereal, Darkstrider,
 * the Commander in Crisis Battlesuit, Shas'o R'alai, Aun'va), one registry entry each. Written from the datasheets of the data
 * export, in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { gainExtraCp } from '../../rules/battle/command-points.ts';
import { arrivalExclusionAround, attackersAre, leadingModel, minusOneToHitAndWound, modelWith, withinAuraOf } from '../helpers.ts';

/** Ethereal's Failure Is Not an Option: the models of the unit he leads have Feel No Pain 5+. */
registerRule({
  name: 'Failure Is Not an Option', kind: 'datasheet-ability', leaderAbility: true,
  feelNoPain: (ctx) => (leadingModel(ctx.state, ctx.unit, 'ETHEREAL') ? 5 : null),
});

/** Ethereal's Coordinated Leadership: at the end of its player's Command phase, a D6 of 4+ gains 1CP. */
registerRule({
  name: 'Coordinated Leadership', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    if (phase !== 'command' || g.state.turn !== unit.player || !modelWith(g.state, unit, 'ETHEREAL')) return;
    const [d6] = g.dice.roll(1, 6, 'other', unit.player, unit.id, 'Coordinated Leadership (4+: 1CP)');
    if (d6 >= 4) gainExtraCp(g, unit.player, 'Coordinated Leadership');
  },
});

/** Darkstrider's Structural Analyser: ranged attacks of the unit he leads add 1 to the Wound roll. */
registerRule({
  name: 'Structural Analyser', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !leadingModel(ctx.state, ctx.attacker, 'DARKSTRIDER')) return;
    plan.woundModifier += 1;
  },
});

/** Darkstrider's Jammer Array: enemy units set up from Reserves may not be set up within 12" of him. */
registerRule({
  name: 'Jammer Array', kind: 'datasheet-ability',
  enemyArrivalExclusion(state, unit) {
    const m = modelWith(state, unit, 'DARKSTRIDER');
    return m ? arrivalExclusionAround(state, m, 12) : [];
  },
});

/** Crisis Commander: ranged attacks of the unit the Commander leads re-roll Hit rolls of 1. */
registerRule({
  name: 'Crisis Commander', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !leadingModel(ctx.state, ctx.attacker, 'COMMANDER IN CRISIS BATTLESUIT')) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
  },
});

/** Shas'o R'alai's Eclipse Field Generator: the models of the unit he leads (his own too) have a 5+ invulnerable save. */
registerRule({
  name: 'Eclipse Field Generator', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'defender' || !leadingModel(ctx.state, ctx.target, "SHAS'O R'ALAI")) return;
    plan.invulnerable = plan.invulnerable === null ? 5 : Math.min(plan.invulnerable, 5);
  },
});

/** Shas'o R'alai's Assassin: his attacks against a CHARACTER unit may re-roll the Hit roll (the failed ones are). */
registerRule({
  name: 'Assassin', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.target.keywords.includes('CHARACTER') || !attackersAre(ctx.state, ctx.attackers, "SHAS'O R'ALAI")) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});

/** Aun'va's Paradox of Duality: attacks that target his unit subtract 1 from the Hit roll and 1 from the Wound roll. */
registerRule({
  name: 'Paradox of Duality', kind: 'datasheet-ability', attack: minusOneToHitAndWound,
});

const DUALITY_USED = 'Duality Shield used';

/**
 * Aun'va's Duality Shield: once per battle, when an attack (ranged or melee) targets his unit, its models
 * have a 2+ invulnerable save until the end of the phase (his player chooses when). The entry is also the
 * effect.
 */
registerRule({
  name: 'Duality Shield', kind: 'datasheet-ability',
  enemyTargeted(g, unit, attacker, targets) {
    if (!targets.includes(unit.id)) return;
    if (g.state.effects.some((e) => e.kind === DUALITY_USED && e.unit === unit.id)) return;
    const { option } = g.decide({ kind: 'duality-shield', player: unit.player, prompt: `${unit.name}: Duality Shield (once per battle: 2+ invulnerable save this phase) against ${attacker.name}?`, options: ['keep', 'use'], context: { unit: unit.id, attacker: attacker.id } });
    if (option !== 'use') return;
    g.addEffect(DUALITY_USED, unit.player, unit.id, { at: 'end-of-battle' });
    g.addEffect('Duality Shield', unit.player, unit.id, g.untilEndOfPhase());
  },
  attack(plan, _ctx, src) {
    if (src.effect && src.role === 'defender') plan.invulnerable = plan.invulnerable === null ? 2 : Math.min(plan.invulnerable, 2);
  },
});

const SUPREME_LOYALTY = 'Supreme Loyalty (Aura)';

/**
 * Aun'va's Supreme Loyalty (Aura): a friendly T'AU EMPIRE unit within 6" of his unit adds 1 to its
 * Battle-shock tests. Walked for every unit of his army (Rule.aura), his own included.
 */
registerRule({
  name: SUPREME_LOYALTY, kind: 'datasheet-ability', aura: true,
  missing: 'Leadership tests other than Battle-shock tests (the engine makes none)',
  rollModifier(purpose, ctx, src) {
    // as his unit's own ability the army-wide walk already covers his unit
    if (purpose !== 'battle-shock' || src.unit !== null || !ctx.unit.keywords.includes("T'AU EMPIRE")) return 0;
    return withinAuraOf(ctx.state, ctx.unit, SUPREME_LOYALTY, 'INFANTRY', 6) ? 1 : 0;
  },
});
