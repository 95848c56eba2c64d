/**
 * T'au Empire datasheet abilities of the Commanders and Crisis Fireknife Battlesuits that the real army
 * lists field (../shared/data/army-lists, played with `--armies ... --fit-wargear`), one registry entry
 * each. Not in RULES.md: written from the datasheets of the data export, in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { leadingModel, oncePerRoundDiscount, withinAuraOf } from '../helpers.ts';
import { belowStartingStrength } from '../../rules/battle/units.ts';

/**
 * Coldstar Commander: while he leads a unit, its models have Move 12" (a rule that sets it: before any that
 * halves it, stagedCharacteristic) and its ranged weapons ASSAULT.
 */
registerRule({
  name: 'Coldstar Commander', kind: 'datasheet-ability', leaderAbility: true,
  characteristicStage: { M: 'set' },
  characteristic(which, v, ctx) {
    if (which !== 'M' || !leadingModel(ctx.state, ctx.unit, 'COMMANDER IN COLDSTAR BATTLESUIT')) return v;
    return 12;
  },
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee' && leadingModel(ctx.state, ctx.unit, 'COMMANDER IN COLDSTAR BATTLESUIT') !== null,
});

/**
 * Enforcer Commander: while he leads a unit, ranged attacks that target it have their AP worsened by 1
 * (never past AP 0). The defender's rules run after the attacker's, so an improvement from the attacking
 * side is already in `plan.ap`.
 */
registerRule({
  name: 'Enforcer Commander', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'defender' || ctx.melee || !leadingModel(ctx.state, ctx.target, 'COMMANDER IN ENFORCER BATTLESUIT')) return;
    plan.ap = Math.min(0, plan.ap + 1);
  },
});

const SHORT_BLADE_BAND: readonly number[] = [9];
const NO_BAND: readonly number[] = [];

/**
 * Way of the Short Blade: while Farsight leads a unit, each of its models' attacks against an enemy unit
 * within 9" of it gets +1 to wound. The unit's ranged attack groups split at 9" (attackRangeBands), so a
 * group's distance, from its closest model, is each model's side of 9"; melee attacks are always within.
 */
registerRule({
  name: 'Way of the Short Blade', kind: 'datasheet-ability', leaderAbility: true,
  attackRangeBands: (ctx) => (leadingModel(ctx.state, ctx.unit, 'COMMANDER FARSIGHT') ? SHORT_BLADE_BAND : NO_BAND),
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.distance > 9 + 1e-6 || !leadingModel(ctx.state, ctx.attacker, 'COMMANDER FARSIGHT')) return;
    plan.woundModifier += 1;
  },
});

/** Puretide's Teachings: once per battle round, a stratagem that targets Farsight's unit may cost 1 CP less. */
registerRule({ name: "Puretide's Teachings", kind: 'datasheet-ability', ...oncePerRoundDiscount("Puretide's Teachings") });

const HERO_OF_THE_EMPIRE = 'Hero of the Empire (Aura)';

/**
 * Hero of the Empire (Aura): the ranged attacks of a friendly T'AU EMPIRE unit within 6" of Shadowsun
 * re-roll Hit rolls of 1. Walked for every unit of her army (Rule.aura), her own included.
 */
registerRule({
  name: HERO_OF_THE_EMPIRE, kind: 'datasheet-ability', aura: true,
  attack(plan, ctx, src) {
    // as her unit's own ability the army-wide walk already covers her unit
    if (src.role !== 'attacker' || src.unit !== null || ctx.melee || !ctx.attacker.keywords.includes("T'AU EMPIRE")) return;
    if (withinAuraOf(ctx.state, ctx.attacker, HERO_OF_THE_EMPIRE, 'COMMANDER SHADOWSUN', 6)) plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
  },
});

/** Agile Combatant: Shadowsun (who leads no unit) may shoot in a turn in which she Fell Back. */
registerRule({
  name: 'Agile Combatant', kind: 'datasheet-ability',
  allows: (perm) => perm === 'shoot-after-fall-back',
});

/**
 * Fireknife: the unit's ranged attacks re-roll Hit rolls of 1, and against a unit at its Starting
 * Strength may re-roll the Hit roll (the failed ones are re-rolled).
 */
registerRule({
  name: 'Fireknife', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    plan.rerollHits = widerReroll(plan.rerollHits, belowStartingStrength(ctx.target) ? 'ones' : 'failed');
  },
});
