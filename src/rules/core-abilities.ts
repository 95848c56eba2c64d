/**
 * Core abilities (datasheet abilities shared by many units), one registry entry each. Those read by the
 * phases directly (Deep Strike, Scouts, Infiltrators, Leader, Firing Deck...) are registered without
 * hooks so the engine and the coverage report know they are played; the comment of each says where.
 */
import { everyModelHas, registerRule } from '../core/rules-registry.ts';
import type { AttackPlan } from './attack-plan.ts';
import type { AttackContext } from './attack-context.ts';

// Ranged attacks against this unit: subtract 1 from the Hit roll, when every model in the unit has it (an
// Attached unit whose Leader lacks it, or whose Bodyguard does, has not).
registerRule({
  name: 'Stealth', kind: 'core-ability',
  attack: (plan, ctx, src) => { if (src.role === 'defender' && !ctx.melee && everyModelHas(ctx.target, 'Stealth')) plan.hitModifier -= 1; },
});

/**
 * Stealth given by an effect (SMOKESCREEN, Hallucinogen Grenades, CLOAK AND SHADOW): the ability's -1 to the
 * Hit roll of ranged attacks at the unit, not a second time when the unit has Stealth of its own.
 */
export function grantedStealth(plan: AttackPlan, ctx: AttackContext): void {
  if (!ctx.melee && !everyModelHas(ctx.target, 'Stealth')) plan.hitModifier -= 1;
}

// Read by the damage step (src/rules/damage.ts feelNoPainOf).
registerRule({ name: 'Feel No Pain', kind: 'core-ability' });

// Set up from Reserves more than 9" from enemy models, from battle round 2 (src/rules/battle/reserves.ts).
registerRule({ name: 'Deep Strike', kind: 'core-ability' });

// Attached to a Bodyguard unit in Declare Battle Formations (src/rules/battle/setup.ts, the reducer's
// unit-attached), with the allocation and Starting Strength rules of Attached units.
registerRule({ name: 'Leader', kind: 'core-ability' });

// On a 6 when the model is destroyed, mortal wounds to every unit within 6" (src/rules/battle/transports.ts).
registerRule({ name: 'Deadly Demise', kind: 'core-ability' });

// A transport fires ranged weapons of its passengers (src/rules/battle/shooting.ts weaponGroups).
registerRule({ name: 'Firing Deck', kind: 'core-ability' });

// Fights in the Fights First step when every model in the unit has it (src/rules/battle/charge.ts fightsFirst).
registerRule({ name: 'Fights First', kind: 'core-ability' });

// Can only be targeted by ranged attacks within 12" (src/rules/battle/shooting.ts canTarget).
registerRule({ name: 'Lone Operative', kind: 'core-ability' });

// A Normal move of up to x" before the first turn (src/rules/battle/pre-battle.ts scoutMoves).
registerRule({ name: 'Scouts', kind: 'core-ability' });

// Set up anywhere more than 9" from the enemy deployment zone and models (src/rules/battle/pre-battle.ts).
registerRule({ name: 'Infiltrators', kind: 'core-ability' });

/**
 * The core rules for AIRCRAFT models, listed so that the coverage report and a game's notes say what of them is
 * not played (no bundled army has an AIRCRAFT unit). Played: an AIRCRAFT unit declares no charge and no unit
 * may charge it (src/rules/battle/charge.ts); ruins block no sight to or from it (src/geometry/visibility.ts).
 */
registerRule({
  name: 'AIRCRAFT', kind: 'keyword-rules',
  missing: 'they start on the battlefield and move as other FLY models do (no Reserves at the start, no 20" minimum straight move and pivot, no leaving into Strategic Reserves off the edge; they may Advance, Fall Back and Remain Stationary), and FLY units may not charge them either',
});

// AIRCRAFT that may start in Hover mode: no bundled army has one.
registerRule({ name: 'Hover', kind: 'core-ability', missing: 'Hover mode is never offered (the engine does not play AIRCRAFT rules)' });
