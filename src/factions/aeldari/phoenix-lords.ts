/**
 * The Phoenix Lords' datasheet abilities (Asurmen, Jain Zar, Karandras, Fuegan, Baharroth, Maugan Ra),
 * one registry entry each, written from the data export's datasheets in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { profileHas } from '../../data/datasheet.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { isEngaged } from '../../rules/battle/world.ts';
import { attackersAre, attackersCarry, intoReservesAtTurnEnd, registerFirstDeathReturn, leadingModel, modelWith, normalMoveAfterShooting, normalMoveChoices, shockOneHitEnemy, strikeAround, strikeDamage, whileLeading } from '../helpers.ts';

// --- Asurmen ---------------------------------------------------------------------------------------

/** After a Tactical Acumen move the unit cannot declare a charge this turn. */
export const ACUMEN_MOVED = 'Tactical Acumen (moved)';
registerRule({ name: ACUMEN_MOVED, kind: 'effect', forbids: (perm) => perm === 'charge' });

/**
 * Tactical Acumen: after the unit Asurmen leads has shot in its Shooting phase, it may make a Normal move
 * of up to 6" (toward a destination its player picks); if it does, it cannot declare a charge this turn.
 */
registerRule({
  name: 'Tactical Acumen', kind: 'datasheet-ability', leaderAbility: true,
  afterShooting(g, unit) {
    const s = g.state;
    if (s.turn !== unit.player || !leadingModel(s, unit, 'ASURMEN') || isEngaged(s, unit)) return;
    const options = normalMoveChoices(s, unit);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'tactical-acumen', player: unit.player, prompt: `${unit.name}: Tactical Acumen: a Normal move of up to 6"?`, options, context: { unit: unit.id } });
    normalMoveAfterShooting(g, unit, option, () => 6, ACUMEN_MOVED);
  },
});

const HAND_OF_ASURYAN = 'Hand of Asuryan';

/**
 * Hand of Asuryan: once per battle, when Asurmen's unit is selected to shoot, its player may use it: until
 * the end of the phase his Bloody Twins have Damage 3, ANTI-INFANTRY 5+ and DEVASTATING WOUNDS. The use is
 * kept in the player's rule state; the entry is also the effect, on the unit.
 */
registerRule({
  name: HAND_OF_ASURYAN, kind: 'datasheet-ability',
  selectedToShoot(g, unit) {
    const s = g.state;
    if (s.players[unit.player].ruleState[HAND_OF_ASURYAN] !== undefined || !modelWith(s, unit, 'ASURMEN')) return;
    const { option } = g.decide({
      kind: 'hand-of-asuryan', player: unit.player, prompt: `${unit.name}: use Hand of Asuryan (once per battle)?`,
      options: ['use', 'keep'], context: { unit: unit.id },
    });
    if (option !== 'use') return;
    g.emit({ type: 'rule-state', player: unit.player, key: HAND_OF_ASURYAN, value: s.round });
    g.addEffect(HAND_OF_ASURYAN, unit.player, unit.id, g.untilEndOfPhase());
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.weapon.name !== 'Bloody Twins') return;
    plan.damage = { n: 0, sides: 0, plus: 3 };
    plan.devastatingWounds = true;
    if (ctx.target.keywords.includes('INFANTRY')) plan.criticalWoundOn = Math.min(plan.criticalWoundOn, 5);
  },
});

// --- Jain Zar --------------------------------------------------------------------------------------

/**
 * Whirling Death: the unit Jain Zar leads does not roll to Advance: it moves 6" more. (Vertical distance
 * is ignored trivially: every model stands on the ground in this engine.)
 */
registerRule({
  name: 'Whirling Death', kind: 'datasheet-ability', leaderAbility: true,
  fixedAdvance: (ctx) => (leadingModel(ctx.state, ctx.unit, 'JAIN ZAR') ? 6 : null),
});

/** Storm of Silence: Jain Zar's own attacks against a CHARACTER unit re-roll the Wound roll. */
registerRule({
  name: 'Storm of Silence', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.target.keywords.includes('CHARACTER') || !attackersAre(ctx.state, ctx.attackers, 'JAIN ZAR')) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
  },
});

// --- Karandras -------------------------------------------------------------------------------------

/** Shadow Hunter: attacks of the unit Karandras leads add 1 to the Hit roll. */
registerRule({
  name: 'Shadow Hunter', kind: 'datasheet-ability', leaderAbility: true,
  attack: whileLeading('KARANDRAS', (plan) => { plan.hitModifier += 1; }),
});

/** Sustained Assault: Karandras's melee attacks, when he made a Charge move this turn, score Critical Hits on an unmodified 4+. */
registerRule({
  name: 'Sustained Assault', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !ctx.attacker.flags.charged || !attackersAre(ctx.state, ctx.attackers, 'KARANDRAS')) return;
    plan.criticalHitOn = Math.min(plan.criticalHitOn, 4);
  },
});

/**
 * The Scorpion's Bite (Karandras's wargear): the bearer's melee weapons have DEVASTATING WOUNDS when they
 * target a unit without the TITANIC keyword.
 */
registerRule({
  name: "The Scorpion's Bite", kind: 'wargear-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || ctx.target.keywords.includes('TITANIC') || !attackersCarry(ctx.attackers, "The Scorpion's Bite")) return;
    plan.devastatingWounds = true;
  },
});

// --- Fuegan ----------------------------------------------------------------------------------------

/** Burning Lance: MELTA weapons of the unit Fuegan leads (his own too) have 6" more Range. */
registerRule({
  name: 'Burning Lance', kind: 'datasheet-ability', leaderAbility: true,
  weaponRangeBonus: (ctx) => (profileHas(ctx.profile, 'MELTA') && leadingModel(ctx.state, ctx.unit, 'FUEGAN') ? 6 : 0),
});

const UNQUENCHABLE_RESOLVE = 'Unquenchable Resolve';

/**
 * Effect (army-wide, params: model, leader, bodyguard, x, y): Fuegan fell for the first time this phase;
 * at its end a D6 says whether he stands again. His own unit id is `leader`; `bodyguard` is the unit he
 * led then, null when he led none; (x, y) is where he fell.
 */
export const RESOLVE_PENDING = 'Unquenchable Resolve (fallen)';

/**
 * Unquenchable Resolve: the first time Fuegan is destroyed (on the battlefield, or in a destroyed transport with
 * no room to disembark: where the transport stood, DestroyOptions.at), at the end of that phase a
 * D6 is rolled; on a 2+ he is set back up, with all his wounds, as near as the planner can to where he fell
 * (a 1" grid of spots, nearest first) and not within Engagement Range of an enemy unit. The Rules
 * Commentary has a Leader returned to the battlefield rejoin the Bodyguard unit he led if it is still there
 * (in Unit Coherency with it, as near as he can to where he fell), else he returns as a unit of his own
 * (registerFirstDeathReturn).
 */
registerFirstDeathReturn({ name: UNQUENCHABLE_RESOLVE, kind: 'datasheet-ability' }, RESOLVE_PENDING, (_unit, model, s) => s.datasheets[model.datasheet].keywords.includes('FUEGAN'));

// --- Baharroth -------------------------------------------------------------------------------------

/**
 * Cloudstrider: at the end of the opponent's turn, the unit Baharroth leads, not within Engagement Range,
 * may go into Strategic Reserves; and when it Deep Strikes in its own Movement phase it may be set up more
 * than 6" (not 9") from enemy models, and then cannot declare a charge this turn (the Deep Strike step
 * forbids the charge when it was set up within 9", as for Cloudstrike: only then does using it matter).
 */
registerRule({
  name: 'Cloudstrider', kind: 'datasheet-ability', leaderAbility: true,
  turnEnd: intoReservesAtTurnEnd('Cloudstrider', 'cloudstrider', (g, unit) => leadingModel(g.state, unit, 'BAHARROTH') !== null),
  deepStrikeDistance(ctx) {
    const s = ctx.state;
    return s.phase === 'movement' && s.turn === ctx.unit.player && leadingModel(s, ctx.unit, 'BAHARROTH') ? 6 : null;
  },
});

/**
 * Cry of the Wind: in a turn Baharroth was set up on the battlefield (from Reserves), each of his ranged
 * attacks that hits scores a Critical Hit (AttackPlan.everyHitCritical: the roll that hits is read as the
 * dice are rolled, every modifier counted).
 */
registerRule({
  name: 'Cry of the Wind', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !ctx.attacker.flags.arrived || !attackersAre(ctx.state, ctx.attackers, 'BAHARROTH')) return;
    plan.everyHitCritical = true;
  },
});

// --- Maugan Ra -------------------------------------------------------------------------------------

/**
 * Effect on the unit Maugan Ra leads (params.struck: unit ids), for its Shooting phase: the units struck by
 * explosive debris, who suffer D3 mortal wounds each once its attacks are resolved.
 */
export const EXPLOSIVE_DEBRIS = 'Harvester of Souls (explosive debris)';
registerRule({ name: EXPLOSIVE_DEBRIS, kind: 'effect' });

/**
 * Harvester of Souls: in its Shooting phase, once the unit Maugan Ra leads has selected targets, if every
 * attack goes to one unit, a D6 is rolled for that unit and for each other enemy unit within 3" of it
 * (in unit order); each 5+ is struck by explosive debris and, after the unit's attacks are resolved,
 * suffers D3 mortal wounds (a unit its attacks destroyed suffers none).
 */
registerRule({
  name: 'Harvester of Souls', kind: 'datasheet-ability', leaderAbility: true,
  targetsSelected(g, unit, targets) {
    const s = g.state;
    if (s.phase !== 'shooting' || s.turn !== unit.player || targets.length !== 1 || !leadingModel(s, unit, 'MAUGAN RA')) return;
    strikeAround(g, unit, s.units[targets[0]], true, EXPLOSIVE_DEBRIS, 'Harvester of Souls (5+: explosive debris)');
  },
  afterShooting(g, unit) { strikeDamage(g, unit, EXPLOSIVE_DEBRIS, 'Harvester of Souls'); },
});

/**
 * Face of Death: after Maugan Ra's unit has shot in its Shooting phase, its player picks one enemy unit
 * his attacks hit; it takes a Battle-shock test, subtracting 1 from the result.
 */
registerRule({
  name: 'Face of Death', kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    shockOneHitEnemy(g, unit, hitWith, 'MAUGAN RA', (options) => g.decide({
      kind: 'face-of-death', player: unit.player, prompt: `${unit.name}: Face of Death: which enemy unit takes a Battle-shock test (-1)?`, options, context: { unit: unit.id },
    }).option, -1);
  },
});
