/**
 * Aeldari datasheet abilities, one registry entry each (by the ability's name on the datasheet). Battle
 * Focus, Disparate Paths and Fleet of Foot belong to the newer codex's army rule, which the engine
 * replaces with Strands of Fate (see ./army-rule.ts).
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type ModelState, type UnitState } from '../../core/state.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { grantRerollOne, widerReroll } from '../../rules/attack-plan.ts';
import { destroyModel, inflictMortalWounds } from '../../rules/damage.ts';
import { registerRollReaction } from '../../rules/roll-window.ts';
import { lentLeaderModel } from '../../rules/lent-leaders.ts';
import { DISEMBARKED_FROM } from '../../rules/battle/transports.ts';
import { unitsOnBattlefield } from '../../rules/battle/units.ts';
import { modelBody, modelsSee, unitDistance, unitSees } from '../../rules/battle/world.ts';
import { embarkAtEndOfFight, hitEnemies, isMonsterOrVehicle, leadingModel, modelWith, oncePerRoundDiscount, phaseKey } from '../helpers.ts';

/**
 * Starweaver's Rapid Embarkation: at the end of the Fight phase, if nothing is embarked within it, a
 * friendly HARLEQUINS INFANTRY unit of 6 or fewer models wholly within 6" of it, not within Engagement
 * Range, can embark.
 */
registerRule({
  name: 'Rapid Embarkation', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    if (phase === 'fight') embarkAtEndOfFight(g, unit, 'rapid-embarkation', 'Rapid Embarkation', (u) => u.keywords.includes('HARLEQUINS') && u.keywords.includes('INFANTRY'));
  },
});


// --- Farseer -----------------------------------------------------------------------------------

const BRANCHING_FATES = 'Branching Fates (Psychic)';

/** Heavy Weapon Platforms are the Support Weapon models Branching Fates leaves out. */
function isSupportWeapon(state: GameState, m: ModelState): boolean {
  return /platform/i.test(state.datasheets[m.datasheet].models[m.profile].name);
}

/**
 * Branching Fates: while the Farseer leads a unit, once per phase its player may change one Hit, Wound
 * or Damage roll (a D6) made for a model of that unit, not a Heavy Weapon Platform, into an unmodified 6.
 * Played just after the roll; the player picks which die, by its value.
 */
registerRule({ name: BRANCHING_FATES, kind: 'datasheet-ability', leaderAbility: true, lentByName: true });

registerRollReaction({
  name: 'Branching Fates',
  react(g, roll) {
    if ((roll.purpose !== 'hit' && roll.purpose !== 'wound' && roll.purpose !== 'damage') || roll.unit === null || roll.sides !== 6) return null;
    const s = g.state;
    const unit = s.units[roll.unit];
    if (!unit || unit.player !== roll.player) return null;
    // the Farseer leading the unit, or lending it the ability (Battlefield Command)
    const farseer = unit.abilities.includes(BRANCHING_FATES) ? leadingModel(s, unit, 'FARSEER') : lentLeaderModel(s, unit, BRANCHING_FATES, 'FARSEER');
    if (!farseer) return null;
    const key = `${BRANCHING_FATES}:${farseer.id}`;
    if (s.players[roll.player].ruleState[key] === phaseKey(s)) return null;
    const models = (roll.models ?? []).map((id) => unit.models.find((m) => m.id === id)).filter((m): m is ModelState => !!m);
    if (models.length > 0 && models.every((m) => isSupportWeapon(s, m))) return null;
    // (a die a Fate die stands for cannot be changed: Strands of Fate)
    const changeable = (i: number) => roll.values[i] < 6 && !g.dice.isFixed(roll.values, i);
    const values: number[] = [];
    for (let i = 0; i < roll.values.length; i++) if (changeable(i) && !values.includes(roll.values[i])) values.push(roll.values[i]);
    if (values.length === 0) return null;
    values.sort((a, b) => a - b);
    const { option } = g.decide<{ none: true } | { die: number }>({
      kind: 'branching-fates', player: roll.player, prompt: `Branching Fates: change one ${roll.purpose} roll to an unmodified 6? Rolled [${roll.values.join(', ')}]`,
      options: [{ none: true }, ...values.map((v) => ({ die: v }))], context: { unit: unit.id, purpose: roll.purpose, values: [...roll.values] },
    });
    if ('none' in option) return null;
    g.emit({ type: 'rule-state', player: roll.player, key, value: phaseKey(s) });
    const index = roll.values.findIndex((v, i) => v === option.die && changeable(i));
    return { values: g.dice.substitute(roll.values, index, 6, roll.purpose, roll.player, unit.id, 'Branching Fates'), rerolled: [...roll.rerolled] };
  },
});

const GUIDE = 'Guide (Psychic)';

/**
 * Guide: at the end of its Movement phase the Farseer picks an enemy unit within 18" of and visible to
 * it (not one already picked this turn); until the start of the player's next Command phase, friendly
 * AELDARI attacks against that unit get +1 to hit. The entry is also the effect, on the enemy unit.
 */
registerRule({
  name: GUIDE, kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    if (phase !== 'movement' || s.turn !== unit.player) return;
    const farseer = modelWith(s, unit, 'FARSEER');
    if (!farseer || !farseer.pos) return;
    const body = modelBody(s, farseer);
    const options: string[] = [];
    for (const e of unitsOnBattlefield(s, opponent(unit.player))) {
      if (s.effects.some((x) => x.kind === GUIDE && x.unit === e.id && x.params.round === s.round && x.params.turn === s.turn)) continue;
      const seen = e.models.some((m) => {
        if (!m.alive || !m.pos) return false;
        const mb = modelBody(s, m);
        return horizontalDistance(body, mb) <= 18 + 1e-6 && modelsSee(s, body, farseer.id, mb, m.id);
      });
      if (seen) options.push(e.id);
    }
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'guide', player: unit.player, prompt: `${unit.name}: Guide: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(GUIDE, unit.player, option, { at: 'start-of-command', player: unit.player, afterRound: s.round }, { round: s.round, turn: s.turn });
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'defender' || ctx.attacker.player !== src.effect.player || !ctx.attacker.keywords.includes('AELDARI')) return;
    plan.hitModifier += 1;
  },
});

// --- Autarch -------------------------------------------------------------------------------------

/**
 * Superlative Strategist: while the Autarch leads a unit, it may re-roll its Advance rolls, and the rolls made
 * for it as it performs an Agile Manoeuvre (./battle-focus.ts).
 */
registerRule({
  name: 'Superlative Strategist', kind: 'datasheet-ability', leaderAbility: true,
  rerollAdvance: (ctx) => leadingModel(ctx.state, ctx.unit, 'AUTARCH') !== null,
});

const PATH_OF_COMMAND = 'Path of Command';

/** Path of Command: once per battle round, a stratagem that targets the Autarch's unit may cost 1 CP less. */
registerRule({ name: PATH_OF_COMMAND, kind: 'datasheet-ability', ...oncePerRoundDiscount(PATH_OF_COMMAND) });

/**
 * Aspect Training: leading Howling Banshees the Autarch has Fights First, leading Striking Scorpions
 * Infiltrators, Scouts 7" and Stealth: those its Bodyguard has, so that the rules asking every model of the
 * Attached unit (Fights First, Stealth, Infiltrators, Scouts) find them on him too (partHas).
 */
registerRule({ name: 'ASPECT TRAINING', kind: 'datasheet-ability', bodyguardAbilities: ['Fights First', 'Infiltrators', 'Scouts', 'Stealth'] });

// --- Guardian Defenders ------------------------------------------------------------------------

/** Crewed Platform: when the unit's last Guardian Defender dies, its Heavy Weapon Platforms are destroyed too. */
registerRule({
  name: 'Crewed Platform', kind: 'datasheet-ability',
  modelDestroyed(g, unit, model) {
    const s = g.state;
    if (!s.datasheets[model.datasheet].abilities.includes('Crewed Platform') || isSupportWeapon(s, model)) return;
    // its own datasheet's models: a Support Weapon joined to the unit (SUPPORT ARTILLERY) is no Heavy Weapon Platform
    const crew = unit.models.filter((m) => m.alive && m.origin === model.origin && m.datasheet === model.datasheet);
    if (crew.some((m) => !isSupportWeapon(s, m))) return;
    for (const m of crew) destroyModel(g, unit, m, null, 'Crewed Platform');
  },
});

// Fleet of Foot, a change to Battle Focus's Fade Back, is played by ./battle-focus.ts.

// --- Troupe --------------------------------------------------------------------------------------

export const DANCE_OF_DEATH = ["Hero's Prowess", "Villain's Doom", "Trickster's Grace"] as const;

/**
 * Dance of Death: at the start of every Fight phase the Troupe picks one until the end of the phase:
 * re-roll Hit rolls of 1 (Hero's Prowess), +1 to wound (Villain's Doom), or -1 to be hit (Trickster's
 * Grace). The entry is also the effect (params.choice).
 */
registerRule({
  name: 'Dance of Death', kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    if (phase !== 'fight') return;
    const { option } = g.decide({ kind: 'dance-of-death', player: unit.player, prompt: `${unit.name}: Dance of Death`, options: [...DANCE_OF_DEATH], context: { unit: unit.id } });
    g.addEffect('Dance of Death', unit.player, unit.id, g.untilEndOfPhase(), { choice: option });
  },
  attack(plan, _ctx, src) {
    if (!src.effect) return;
    const choice = src.effect.params.choice;
    if (src.role === 'attacker' && choice === DANCE_OF_DEATH[0]) plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
    else if (src.role === 'attacker' && choice === DANCE_OF_DEATH[1]) plan.woundModifier += 1;
    else if (src.role === 'defender' && choice === DANCE_OF_DEATH[2]) plan.hitModifier -= 1;
  },
});

/**
 * More Dance of Death abilities for the unit this phase, up to `count` in all (FANGS OF THE BROOD: three
 * instead of one): the ones it has not taken yet, in the ability's order. With three of the three to take
 * there is nothing to choose, so no decision is asked.
 */
export function takeMoreDances(g: Game, unit: UnitState, count: number): void {
  const taken = g.state.effects.filter((e) => e.kind === 'Dance of Death' && e.unit === unit.id).map((e) => e.params.choice);
  for (const choice of DANCE_OF_DEATH) {
    if (taken.length >= count) break;
    if (taken.includes(choice)) continue;
    taken.push(choice);
    g.addEffect('Dance of Death', unit.player, unit.id, g.untilEndOfPhase(), { choice });
  }
}

/** Flip Belt: vertical distance is not counted in its bearer's moves. Every model stands on the ground in this engine, so moves never count any. */
registerRule({ name: 'Flip Belt', kind: 'wargear-ability' });

// --- Wave Serpent, Falcon, Fire Prism, War Walkers -----------------------------------------------

/** Wave Serpent Shield: -1 to wound for ranged attacks whose Strength is greater than its Toughness. */
registerRule({
  name: 'Wave Serpent Shield', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'defender' && !ctx.melee && plan.strength > plan.toughness) plan.woundModifier -= 1;
  },
});

/**
 * Falcon's Fire Support: after it shot in its Shooting phase, it picks an enemy unit it hit; until the
 * end of the turn, attacks against that unit by models that disembarked from this Falcon this turn may
 * re-roll the Wound roll. The entry is also the effect, on the enemy unit (params.transport).
 */
registerRule({
  name: 'Fire Support', kind: 'datasheet-ability',
  afterShooting(g, unit, hit) {
    const options = hitEnemies(g, unit, hit).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'fire-support', player: unit.player, prompt: `${unit.name}: Fire Support: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect('Fire Support', unit.player, option, g.untilEndOfTurn(), { transport: unit.id });
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'defender' || ctx.attacker.player !== src.effect.player) return;
    const transport = src.effect.params.transport;
    // the attacking unit disembarked from that Falcon this turn (the effect is on the unit that did)
    if (ctx.state.effects.some((e) => e.kind === DISEMBARKED_FROM && e.unit === ctx.attacker.id && e.params.transport === transport)) {
      plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
    }
  },
});

/** Fire Prism's Crystal Matrix: each time it shoots, re-roll one Hit roll and one Wound roll. */
registerRule({
  name: 'Crystal Matrix', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee) grantRerollOne(plan, { hit: 1, wound: 1 });
  },
});

/**
 * War Walkers' Crystalline Targeting: after they shot in their Shooting phase, they pick an enemy unit
 * they hit (not one picked already this turn); until the end of the phase, friendly AELDARI attacks
 * against it improve AP by 1. The entry is also the effect, on the enemy unit.
 */
registerRule({
  name: 'Crystalline Targeting', kind: 'datasheet-ability',
  afterShooting(g, unit, hit) {
    const s = g.state;
    const options = hitEnemies(g, unit, hit, (e) => !s.effects.some((x) => x.kind === 'Crystalline Targeting' && x.unit === e.id)).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'crystalline-targeting', player: unit.player, prompt: `${unit.name}: Crystalline Targeting: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect('Crystalline Targeting', unit.player, option, g.untilEndOfPhase());
  },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'defender' && ctx.attacker.player === src.effect.player && ctx.attacker.keywords.includes('AELDARI')) plan.ap -= 1;
  },
});

// --- Aspect Warriors -------------------------------------------------------------------------------

/** Dire Avengers' Bladestorm: ranged weapons have SUSTAINED HITS 1 against a target within half range. */
registerRule({
  name: 'Bladestorm', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && ctx.halfRange) plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

/** Howling Banshees' Acrobatic: the unit may declare a charge after it Advanced or Fell Back. */
registerRule({
  name: 'Acrobatic', kind: 'datasheet-ability',
  allows: (perm) => perm === 'charge-after-advance' || perm === 'charge-after-fall-back',
});

/** Fire Dragons' Assured Destruction: in their Shooting phase, ranged attacks against a MONSTER or VEHICLE may re-roll the Hit, Wound and Damage rolls. */
registerRule({
  name: 'Assured Destruction', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    const s = ctx.state;
    if (src.role !== 'attacker' || ctx.melee || s.phase !== 'shooting' || s.turn !== ctx.attacker.player || !isMonsterOrVehicle(ctx.target)) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
    plan.rerollDamage = true;
  },
});

const FLYOVER_USED = 'Grenade Pack Flyover used';

/**
 * Swooping Hawks' Grenade Pack Flyover: once per turn, in its Movement phase, when the unit is set up
 * or ends a Normal, Advance or Fall Back move, it may pick an enemy unit within 8" and visible: one D6
 * per Swooping Hawks model, each 4+ is a mortal wound (at most 6).
 */
registerRule({
  name: 'Grenade Pack Flyover', kind: 'datasheet-ability',
  afterMove(g, unit) {
    const s = g.state;
    if (s.phase !== 'movement' || s.turn !== unit.player) return;
    if (s.effects.some((e) => e.kind === FLYOVER_USED && e.unit === unit.id)) return;
    const options = unitsOnBattlefield(s, opponent(unit.player)).filter((e) => unitDistance(s, unit, e) <= 8 + 1e-6 && unitSees(s, unit, e)).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide<{ none: true } | { target: string }>({
      kind: 'grenade-pack-flyover', player: unit.player, prompt: `${unit.name}: Grenade Pack Flyover?`,
      options: [{ none: true }, ...options.map((id) => ({ target: id }))], context: { unit: unit.id },
    });
    if ('none' in option) return;
    g.addEffect(FLYOVER_USED, unit.player, unit.id, g.untilEndOfTurn());
    const hawks = unit.models.filter((m) => m.alive && s.datasheets[m.datasheet].keywords.includes('SWOOPING HAWKS')).length;
    const rolls = g.dice.d6(hawks, 'mortal-wounds', unit.player, unit.id, 'Grenade Pack Flyover');
    const wounds = Math.min(6, rolls.filter((v) => v >= 4).length);
    if (wounds > 0) inflictMortalWounds(g, s.units[option.target], wounds, unit.id);
  },
});
