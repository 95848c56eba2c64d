/**
 * Core abilities (datasheet abilities shared by many units), one registry entry each. Those read by the
 * phases directly (Deep Strike, Scouts, Infiltrators, Leader, Firing Deck...) are registered without
 * hooks so the engine and the coverage report know they are played.
 */
import { registerRule } from '../core/rules-registry.ts';

// Ranged attacks against this unit: subtract 1 from the Hit roll.
registerRule({
  name: 'Stealth', kind: 'core-ability',
  attack: (plan, ctx, src) => { if (src.role === 'defender' && !ctx.melee) plan.hitModifier -= 1; },
});

// Read by the damage step (src/rules/damage.ts feelNoPainOf).
registerRule({ name: 'Feel No Pain', kind: 'core-ability' });
