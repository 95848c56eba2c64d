/**
 * Aeldari datasheet abilities of characters, vehicles and Corsairs outside the bundled armies (Autarch
 * and Farseer Skyrunners, Eldrad Ulthran, Illic Nightspear, Irillyth, Lhykhis, Shining Spears, Phoenix,
 * Skyweavers, Starfangs, Corsair Voidreavers, Voidscarred, Skyreaver Band, Cloud Dancer Band and Skyreavers), one registry entry each,
 * written from the data export's datasheets in the engine's words.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type ModelState, type UnitState } from '../../core/state.ts';
import { isWithin } from '../../geometry/distance.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { isUnitOrItsPart, unitsOnBattlefield, wasEligibleToFight } from '../../rules/battle/units.ts';
import { gainExtraCp } from '../../rules/battle/command-points.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { modelBody, modelsSee } from '../../rules/battle/world.ts';
import { hitByModelsWith, hitEnemies, intoReservesAtTurnEnd, leadingModel, modelWith, modelWithinRangeOf, moveOrFallBack, moveOrFallBackChoices, untilStartOfNextTurn, whileLeading, withinObjectiveRange } from '../helpers.ts';
import { grantedStealth } from '../../rules/core-abilities.ts';

const HEROIC_INTERVENTION = 'HEROIC INTERVENTION';

/** The enemy units within `range` of and visible to the model, in unit order ("within 18" of and visible to this model"). */
function enemiesInSight(g: Game, unit: UnitState, model: ModelState, range: number): UnitState[] {
  const s = g.state;
  if (!model.pos) return [];
  const body = modelBody(s, model);
  return unitsOnBattlefield(s, opponent(unit.player)).filter((e) => e.models.some((t) => {
    if (!t.alive || !t.pos) return false;
    const tb = modelBody(s, t);
    return isWithin(body, tb, range) && modelsSee(s, body, model.id, tb, t.id);
  }));
}

// --- Autarch Skyrunner -----------------------------------------------------------------------------

/** Ride the Wind: the unit the Autarch Skyrunner leads does not roll to Advance: it moves 6" more. */
registerRule({
  name: 'Ride the Wind', kind: 'datasheet-ability', leaderAbility: true,
  fixedAdvance: (ctx) => (leadingModel(ctx.state, ctx.unit, 'AUTARCH SKYRUNNER') ? 6 : null),
});

// --- Farseer Skyrunner and Eldrad Ulthran ----------------------------------------------------------

const MISFORTUNE = 'Misfortune (Psychic)';

/**
 * Misfortune: at the end of its player's Movement phase, the Farseer Skyrunner picks an enemy unit within
 * 18" of and visible to it; until the start of that player's next Command phase, attacks made by models of
 * that unit subtract 1 from the Wound roll. A unit is picked once a turn (not by a second Farseer either).
 * The entry is also the effect, on the enemy unit.
 */
registerRule({
  name: MISFORTUNE, kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    const seer = modelWith(s, unit, 'FARSEER SKYRUNNER');
    if (phase !== 'movement' || s.turn !== unit.player || !seer) return;
    // an effect of this player's Misfortune still on a unit was put there this turn
    const options = enemiesInSight(g, unit, seer, 18)
      .filter((e) => !s.effects.some((x) => x.kind === MISFORTUNE && x.unit === e.id && x.player === unit.player)).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'misfortune', player: unit.player, prompt: `${unit.name}: Misfortune: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(MISFORTUNE, unit.player, option, untilStartOfNextTurn(g, unit.player));
  },
  attack(plan, _ctx, src) {
    if (src.effect && src.role === 'attacker') plan.woundModifier -= 1;
  },
});

const DOOM = 'Doom (Psychic)';

/**
 * Doom: at the end of its player's Movement phase, Eldrad picks an enemy unit within 18" of and visible to
 * him; until the start of that player's next Command phase, attacks of friendly AELDARI models that target
 * it add 1 to the Wound roll. The entry is also the effect, on the enemy unit.
 */
registerRule({
  name: DOOM, kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    const eldrad = modelWith(s, unit, 'ELDRAD ULTHRAN');
    if (phase !== 'movement' || s.turn !== unit.player || !eldrad) return;
    const options = enemiesInSight(g, unit, eldrad, 18).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'doom', player: unit.player, prompt: `${unit.name}: Doom: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(DOOM, unit.player, option, untilStartOfNextTurn(g, unit.player));
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'defender' || ctx.attacker.player !== src.effect.player || !ctx.attacker.keywords.includes('AELDARI')) return;
    plan.woundModifier += 1;
  },
});

/** Diviner of Futures: at the start of its player's Command phase, with Eldrad on the battlefield, that player gains 1CP. */
registerRule({
  name: 'Diviner of Futures', kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    if (phase !== 'command' || g.state.turn !== unit.player || !modelWith(g.state, unit, 'ELDRAD ULTHRAN')) return;
    gainExtraCp(g, unit.player, 'Diviner of Futures');
  },
});

// --- Illic Nightspear ------------------------------------------------------------------------------

/** Bringer of the True Death: attacks of the unit Illic leads may re-roll the Wound roll. */
registerRule({
  name: 'Bringer of the True Death', kind: 'datasheet-ability', leaderAbility: true,
  attack: whileLeading('ILLIC NIGHTSPEAR', (plan) => { plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed'); }),
});

/** Hunter Unseen: Illic's unit (with him alive in it) can be the target of a ranged attack only from within 12". */
registerRule({
  name: 'Hunter Unseen', kind: 'datasheet-ability',
  targetableFrom: (ctx) => ctx.distance <= 12 + 1e-6 || !modelWith(ctx.state, ctx.unit, 'ILLIC NIGHTSPEAR'),
});

// --- Irillyth --------------------------------------------------------------------------------------

/** Reaper of Souls: attacks of the unit Irillyth leads add 1 to the Hit roll. */
registerRule({
  name: 'Reaper of Souls', kind: 'datasheet-ability', leaderAbility: true,
  attack: whileLeading('IRILLYTH', (plan) => { plan.hitModifier += 1; }),
});

/**
 * Shadow of Death: an enemy unit with a model within 6" of Irillyth subtracts 1 from its Battle-shock and
 * Leadership tests (Wraith-Marked's). Asked by each such test of an enemy unit.
 */
registerRule({
  name: 'Shadow of Death (Aura)', kind: 'datasheet-ability',
  enemyBattleShockModifier(ctx) {
    const m = modelWith(ctx.state, ctx.unit, 'IRILLYTH');
    return m && modelWithinRangeOf(ctx.state, m, ctx.tested, 6) ? -1 : 0;
  },
});

// --- Lhykhis ---------------------------------------------------------------------------------------

const WHISPERING_WEB = 'Whispering Web';

/**
 * Whispering Web: after Lhykhis's unit has shot in its Shooting phase, its player picks one enemy unit his
 * own attacks hit; until the end of the turn, attacks of friendly AELDARI models against it score Critical
 * Hits on an unmodified 5+. The entry is also the effect, on the enemy unit.
 */
registerRule({
  name: WHISPERING_WEB, kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    if (g.state.turn !== unit.player || !modelWith(g.state, unit, 'LHYKHIS')) return;
    const options = hitEnemies(g, unit, hitByModelsWith(g.state, unit, hitWith, 'LHYKHIS')).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'whispering-web', player: unit.player, prompt: `${unit.name}: Whispering Web: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(WHISPERING_WEB, unit.player, option, g.untilEndOfTurn());
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'defender' || ctx.attacker.player !== src.effect.player || !ctx.attacker.keywords.includes('AELDARI')) return;
    plan.criticalHitOn = Math.min(plan.criticalHitOn, 5);
  },
});

// --- Shining Spears --------------------------------------------------------------------------------

/**
 * Extreme Mobility: vertical distance is ignored in the unit's Normal, Advance, Fall Back and Charge moves.
 * Played trivially: every model stands on the ground in this engine, so no move climbs.
 */
registerRule({ name: 'Extreme Mobility', kind: 'datasheet-ability' });

// --- Phoenix ---------------------------------------------------------------------------------------

/**
 * Strafing Run names two rules in the data, told apart by the model: the Phoenix's ranged attacks against a unit
 * that cannot FLY add 1 to the Hit roll; the T'au Tiger Shark's, after it has shot in its Shooting phase, make
 * one enemy unit it hit that cannot FLY take a Battle-shock test (decision `strafing-run`, no pass).
 */
registerRule({
  name: 'Strafing Run', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.target.keywords.includes('FLY')) return;
    if (ctx.attackers.every((m) => ctx.state.datasheets[m.datasheet].keywords.includes('PHOENIX'))) plan.hitModifier += 1;
  },
  afterShooting(g, unit, hit) {
    if (!modelWith(g.state, unit, 'TIGER SHARK')) return;
    const options = hitEnemies(g, unit, hit, (e) => !e.keywords.includes('FLY')).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'strafing-run', player: unit.player, prompt: `${unit.name}: Strafing Run: which enemy unit takes a Battle-shock test?`, options, context: { unit: unit.id } });
    const e = g.state.units[option];
    battleShockTest(g, e.player, e.id);
  },
});

// --- Skyweavers ------------------------------------------------------------------------------------

/** Acrobatic Grace: attacks (ranged or melee) that target the unit subtract 1 from the Hit roll. */
registerRule({
  name: 'Acrobatic Grace', kind: 'datasheet-ability',
  attack(plan, _ctx, src) {
    if (src.role === 'defender') plan.hitModifier -= 1;
  },
});

// --- Starfangs -------------------------------------------------------------------------------------

const HALLUCINOGEN = 'Hallucinogen Grenades';

/**
 * Hallucinogen Grenades: at the start of the opponent's Shooting phase, the Starfangs may give one friendly
 * AELDARI INFANTRY unit within 36" of and visible to them the Stealth ability until the end of the phase
 * (ranged attacks against it subtract 1 from the Hit roll; nothing more for a unit that has Stealth).
 * The entry is also the effect, on the friendly unit.
 */
registerRule({
  name: HALLUCINOGEN, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'shooting' || s.turn === unit.player) return;
    const friends = unitsOnBattlefield(s, unit.player).filter((f) => f.keywords.includes('AELDARI') && f.keywords.includes('INFANTRY')
      && unit.models.some((m) => m.alive && m.pos && f.models.some((t) => {
        if (!t.alive || !t.pos) return false;
        const [a, b] = [modelBody(s, m), modelBody(s, t)];
        return isWithin(a, b, 36) && modelsSee(s, a, m.id, b, t.id);
      })));
    if (friends.length === 0) return;
    const { option } = g.decide<{ none: true } | { unit: string }>({
      kind: 'hallucinogen-grenades', player: unit.player, prompt: `${unit.name}: Hallucinogen Grenades: give a unit Stealth this phase?`,
      options: [...friends.map((f) => ({ unit: f.id })), { none: true }], context: { unit: unit.id },
    });
    if ('none' in option) return;
    g.addEffect(HALLUCINOGEN, unit.player, option.unit, g.untilEndOfPhase());
  },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'defender') grantedStealth(plan, ctx);
  },
});

// --- Corsairs --------------------------------------------------------------------------------------

/** Reavers of the Void: the unit re-rolls Hit rolls of 1; against a target within range of an objective marker, any failed Hit roll. */
registerRule({
  name: 'Reavers of the Void', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker') return;
    plan.rerollHits = widerReroll(plan.rerollHits, withinObjectiveRange(ctx.state, ctx.target) ? 'failed' : 'ones');
  },
});

const PIRATICAL_RAIDERS = 'Piratical Raiders';

/**
 * Piratical Raiders: at the start of the battle the player picks one unit of the opponent's army; the
 * unit's weapons have LETHAL HITS and PRECISION against it. The pick is an effect on the Voidscarred
 * unit (params.target).
 */
registerRule({
  name: PIRATICAL_RAIDERS, kind: 'datasheet-ability',
  battleStart(g, unit) {
    const s = g.state;
    const options = s.unitOrder.filter((id) => s.units[id].player === opponent(unit.player) && s.units[id].location !== 'attached' && s.units[id].location !== 'destroyed');
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'piratical-raiders', player: unit.player, prompt: `${unit.name}: Piratical Raiders: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(PIRATICAL_RAIDERS, unit.player, unit.id, { at: 'end-of-battle' }, { target: option });
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || !isUnitOrItsPart(ctx.target, src.effect.params.target)) return;
    plan.lethalHits = true;
    plan.precision = true;
  },
});

/**
 * Skyleap: at the end of the opponent's turn, the unit, not within Engagement Range of an enemy unit, may
 * go into Strategic Reserves (from where it arrives as any unit there).
 */
registerRule({
  name: 'Skyleap', kind: 'datasheet-ability',
  turnEnd: intoReservesAtTurnEnd('Skyleap', 'skyleap'),
});

/**
 * Reckless Abandon: the Cloud Dancer Band may be targeted with HEROIC INTERVENTION for 0CP (the reduction
 * is always there, so no use is recorded), even when its player used that Stratagem on another unit this phase.
 */
registerRule({
  name: 'Reckless Abandon', kind: 'datasheet-ability',
  stratagemDiscount: (ctx) => (ctx.stratagem === HEROIC_INTERVENTION ? 1 : 0),
  stratagemAgainInPhase: (ctx) => ctx.stratagem === HEROIC_INTERVENTION,
});

/**
 * Raid and Run: at the end of each Fight phase, if the Skyreavers were eligible to fight in it
 * (wasEligibleToFight), they may make a Normal move of up to D3+3" when no enemy unit is within Engagement
 * Range of them, else a Fall Back move of up to D3+3" (with its Desperate Escape tests). The D3 is rolled
 * once the destination is chosen.
 */
registerRule({
  name: 'Raid and Run', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    if (phase !== 'fight' || !wasEligibleToFight(unit)) return;
    const { fallBack, options } = moveOrFallBackChoices(s, unit);
    if (options.length === 0) return;
    const { option } = g.decide({
      kind: 'raid-and-run', player: unit.player, prompt: `${unit.name}: Raid and Run: ${fallBack ? 'a Fall Back' : 'a Normal move'} of up to D3+3"?`,
      options, context: { unit: unit.id },
    });
    moveOrFallBack(g, unit, option, fallBack, () => 3 + g.dice.roll(1, 3, 'other', unit.player, unit.id, 'Raid and Run (D3+3")')[0]);
  },
});
