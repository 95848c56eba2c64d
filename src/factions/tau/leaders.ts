/**
 * T'au Empire datasheet abilities of Leaders that no bundled army fields (the Ethereal, Darkstrider,
 * the Commander in Crisis Battlesuit), one registry entry each. Written from the datasheets of the data
 * export, in the engine's words.
 */
import { registerRule } from '../../core/rules-registry.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { leadingModel, modelWith } from '../helpers.ts';

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
    if (d6 >= 4) g.emit({ type: 'cp', player: unit.player, delta: 1, reason: 'Coordinated Leadership' });
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

/** Crisis Commander: ranged attacks of the unit the Commander leads re-roll Hit rolls of 1. */
registerRule({
  name: 'Crisis Commander', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !leadingModel(ctx.state, ctx.attacker, 'COMMANDER IN CRISIS BATTLESUIT')) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
  },
});
