/**
 * Aspect Host, an Aeldari detachment of the data export (not in RULES.md), in the engine's words: its rule
 * Path of the Warrior, the stratagems the engine plays and its four Enhancements. Each is one registry
 * entry; the stratagems' effects are entries of kind 'effect'.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { PlayerIndex, UnitState } from '../../core/state.ts';
import type { AttackPlan } from '../../rules/attack-plan.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { hasKeyword, isMonsterOrVehicle, onBattlefield, unitsOnBattlefield, wasEligibleToFight } from '../../rules/battle/units.ts';
import { embark, fitsIn } from '../../rules/battle/transports.ts';
import { isEngaged, unitsInEngagement } from '../../rules/battle/world.ts';
import { registerStratagem, type Stratagem } from '../../rules/stratagems/registry.ts';
import { targetedOwnUnits, windowOwnUnit, windowOwnUnitWith } from '../../rules/stratagems/targets.ts';
import { attackersAreBearer, bearerLeads, unitWhollyWithin } from '../helpers.ts';
import { removeShrineTokenFor } from './aspect-shrine.ts';

export const ASPECT_HOST = 'Aspect Host';

const PATH_OF_THE_WARRIOR = 'Path of the Warrior';
/** The effect of Path of the Warrior's choice on a unit until the end of the phase (params.choice). */
export const PATH_OF_THE_WARRIOR_CHOSEN = `${PATH_OF_THE_WARRIOR} (chosen)`;
/** Path of the Warrior's two abilities, in the rule's order: re-roll Hit rolls of 1, re-roll Wound rolls of 1. */
export const PATH_OF_THE_WARRIOR_CHOICES = ['hit-ones', 'wound-ones'] as const;
export type PathOfTheWarriorChoice = (typeof PATH_OF_THE_WARRIOR_CHOICES)[number] | 'both';

const MANTLE_OF_WISDOM = 'Mantle of Wisdom';

/** An Aspect Warriors or Avatar of Khaine unit (Path of the Warrior's units and most stratagems' targets). */
const aspectOrAvatar = (u: UnitState) => hasKeyword(u, 'ASPECT WARRIORS') || hasKeyword(u, 'AVATAR OF KHAINE');

/** The Avatar's Wailing Doom, whose ranged profile DOOM INESCAPABLE changes. */
const WAILING_DOOM = 'The Wailing Doom';
const DOOM_INESCAPABLE_EFFECT = 'Doom Inescapable';
const DOOM_RANGE = 18;
const DOOM_DAMAGE = 8;

/**
 * Path of the Warrior, as the unit of the player is selected to shoot or fight: an Aspect Warriors or Avatar
 * of Khaine unit gets re-rolls of Hit rolls of 1 or of Wound rolls of 1 (its player picks) until the end
 * of the phase; a unit led by the bearer of Mantle of Wisdom (an Aspect Warriors unit) gets both, and no
 * choice is asked. As for the engine's other "selected to shoot" rules, a unit shooting at one unit only
 * (Fire Overwatch) is not asked.
 */
function pathOfTheWarrior(g: Game, unit: UnitState, owner: PlayerIndex): void {
  if (unit.player !== owner || !aspectOrAvatar(unit)) return;
  let choice: PathOfTheWarriorChoice = 'both';
  if (!(hasKeyword(unit, 'ASPECT WARRIORS') && bearerLeads(unit, MANTLE_OF_WISDOM))) {
    choice = g.decide({
      kind: 'path-of-the-warrior', player: owner, prompt: `${unit.name}: Path of the Warrior: re-roll Hit rolls of 1 or Wound rolls of 1?`,
      options: [...PATH_OF_THE_WARRIOR_CHOICES], context: { unit: unit.id },
    }).option;
  }
  g.addEffect(PATH_OF_THE_WARRIOR_CHOSEN, owner, unit.id, g.untilEndOfPhase(), { choice });
}

// The detachment rule's moments: a unit of its player selected to shoot or to fight (phase.ts's hooks,
// which the shooting and fight sequences ask of every rule the player plays).
registerArmyRuleHooks({ name: PATH_OF_THE_WARRIOR, unitSelectedToShoot: pathOfTheWarrior, unitSelectedToFight: pathOfTheWarrior });

/** Path of the Warrior's choice applied to a plan (the effect, and the heuristic's pricing of it). */
export function pathOfTheWarriorPlan(plan: AttackPlan, choice: PathOfTheWarriorChoice): void {
  if (choice !== 'wound-ones') plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
  if (choice !== 'hit-ones') plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones');
}

/**
 * The detachment rule's entry. Its effect is the hooks above; the entry also carries DOOM INESCAPABLE's
 * Range (a Range is read from the player's rules and the unit's abilities only, see weaponRange): the
 * Wailing Doom's ranged profile reaches 18" while the stratagem's effect is on the Avatar's unit.
 */
registerRule({
  name: PATH_OF_THE_WARRIOR, kind: 'detachment-rule',
  weaponRangeBonus(ctx) {
    const { state, unit, profile } = ctx;
    if (profile.name !== WAILING_DOOM || typeof profile.range !== 'number') return 0;
    return state.effects.some((e) => e.kind === DOOM_INESCAPABLE_EFFECT && e.unit === unit.id) ? DOOM_RANGE - profile.range : 0;
  },
});

registerRule({
  name: PATH_OF_THE_WARRIOR_CHOSEN, kind: 'effect',
  attack(plan, _ctx, src) {
    if (src.role === 'attacker' && src.effect) pathOfTheWarriorPlan(plan, src.effect.params.choice as PathOfTheWarriorChoice);
  },
});

// --- Stratagems ------------------------------------------------------------------------------

/**
 * WARRIOR FOCUS's effect: the unit's attacks ignore the modifiers that hurt them, to the Hit roll and to the
 * BS/WS, Strength, AP and Damage characteristics (the plan builder keeps those that help: "any or all").
 */
registerRule({
  name: 'Warrior Focus', kind: 'effect',
  attack(plan, _ctx, src) {
    if (src.role !== 'attacker') return;
    plan.ignoreHitModifiers = true;
    plan.ignoreCharacteristicModifiers = true;
  },
});

registerStratagem({
  name: 'WARRIOR FOCUS', cp: 1, category: 'Battle Tactic', source: ASPECT_HOST, turn: 'either',
  // its player's Shooting phase (a unit of theirs selected to shoot) or either Fight phase; the windows
  // open as the unit is selected, before it makes any attack
  windows: ['shooting/unit-selected', 'fight/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && aspectOrAvatar(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Warrior Focus', p, u.id, g.untilEndOfPhase()); },
});

/**
 * TO THEIR FINAL BREATH's effect: this phase, its models destroyed before they have fought may fight before
 * they are removed, on a D6 of 4+, +1 when an Aspect Shrine token was removed for it (params.bonus;
 * src/rules/battle/fight-on-death.ts).
 */
registerRule({ name: 'To Their Final Breath', kind: 'effect', fightOnDeath: (_ctx, src) => Number(src.effect?.params.bonus ?? 0) });

registerStratagem({
  name: 'TO THEIR FINAL BREATH', cp: 1, category: 'Strategic Ploy', source: ASPECT_HOST, turn: 'either', windows: ['fight/after-enemy-targets'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter(aspectOrAvatar),
  use(g, _w, p, u) {
    const bonus = removeShrineTokenFor(g, u, 'TO THEIR FINAL BREATH', '+1 to each D6') ? 1 : 0;
    g.addEffect('To Their Final Breath', p, u.id, g.untilEndOfPhase(), { bonus });
  },
});

/** DOOM INESCAPABLE's effect: the Wailing Doom's ranged attacks have Damage 8 (its Range of 18" is read from Path of the Warrior's entry). */
registerRule({
  name: DOOM_INESCAPABLE_EFFECT, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && ctx.weapon.name === WAILING_DOOM) plan.damage = { n: 0, sides: 0, plus: DOOM_DAMAGE };
  },
});

registerStratagem({
  name: 'DOOM INESCAPABLE', cp: 1, category: 'Battle Tactic', source: ASPECT_HOST, turn: 'own', windows: ['shooting/unit-selected'],
  targets: windowOwnUnitWith('AVATAR OF KHAINE'),
  use(g, _w, p, u) { g.addEffect(DOOM_INESCAPABLE_EFFECT, p, u.id, g.untilEndOfPhase()); },
});

/** PRETERNATURAL PRECISION's abilities, in the stratagem's order. */
export const PRETERNATURAL_PRECISION_CHOICES = ['IGNORES COVER', 'LETHAL HITS', 'SUSTAINED HITS 1'] as const;

/** PRETERNATURAL PRECISION's effect: the unit's ranged weapons have the chosen ability (params.choice), and a second one when a token was removed (params.also), this phase. */
registerRule({
  name: 'Preternatural Precision', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !src.effect) return;
    preternaturalPlan(plan, src.effect.params.choice as string);
    if (src.effect.params.also) preternaturalPlan(plan, src.effect.params.also as string);
  },
});

/** One PRETERNATURAL PRECISION ability applied to a plan (the effect, and the heuristic's pricing of it). */
export function preternaturalPlan(plan: AttackPlan, choice: string): void {
  if (choice === 'IGNORES COVER') plan.ignoresCover = true;
  else if (choice === 'LETHAL HITS') plan.lethalHits = true;
  else plan.sustainedHits = Math.max(plan.sustainedHits, 1);
}

registerStratagem({
  name: 'PRETERNATURAL PRECISION', cp: 1, category: 'Battle Tactic', source: ASPECT_HOST, turn: 'own', windows: ['shooting/unit-selected'],
  targets: windowOwnUnitWith('ASPECT WARRIORS'),
  // an Aspect Shrine token removed: a second ability, of the two left
  use(g, _w, p, u) {
    const pick = (options: string[]) => g.decide({
      kind: 'preternatural-precision', player: p, prompt: `${u.name}: PRETERNATURAL PRECISION: which ability for its ranged weapons?`,
      options, context: { unit: u.id },
    }).option;
    const choice = pick([...PRETERNATURAL_PRECISION_CHOICES]);
    const also = removeShrineTokenFor(g, u, 'PRETERNATURAL PRECISION', 'a second ability') ? pick(PRETERNATURAL_PRECISION_CHOICES.filter((x) => x !== choice)) : null;
    g.addEffect('Preternatural Precision', p, u.id, g.untilEndOfPhase(), also ? { choice, also } : { choice });
  },
});

const KHAINES_VENGEANCE = "Khaine's Vengeance";

/**
 * KHAINE'S VENGEANCE's effect on the enemy unit that Falls Back: every one of its models takes a Desperate
 * Escape test, each 1 worse while the unit is Battle-shocked (Rule.desperateEscape, read by movement.ts).
 */
registerRule({
  name: KHAINES_VENGEANCE, kind: 'effect',
  desperateEscape: (ctx) => ({ allModels: true, modifier: ctx.unit.battleShocked ? -1 : 0 }),
});

registerStratagem({
  name: "KHAINE'S VENGEANCE", cp: 1, category: 'Strategic Ploy', source: ASPECT_HOST, turn: 'opponent', windows: ['movement/fall-back-selected'],
  // the opponent's Movement phase, an enemy unit (not a MONSTER or VEHICLE) just selected to Fall Back: an
  // Aspect Warriors or Avatar of Khaine unit within Engagement Range of it
  targets(g, w, p) {
    const e = w.unit ? g.state.units[w.unit] : null;
    if (!e || e.player === p || g.state.phase !== 'movement' || !onBattlefield(e) || isMonsterOrVehicle(e)) return [];
    return unitsOnBattlefield(g.state, p).filter((u) => aspectOrAvatar(u) && unitsInEngagement(g.state, u, e));
  },
  use(g, w, p) { g.addEffect(KHAINES_VENGEANCE, p, w.unit!, g.untilEndOfPhase()); },
});

/**
 * The player's TRANSPORTs on the battlefield the unit could embark within at SKYBORNE SANCTUARY: it fits, and
 * it is wholly within 6" of it; not a Battle-shocked one (the transport is a target of the stratagem too).
 */
export function sanctuaries(g: Game, u: UnitState): UnitState[] {
  return unitsOnBattlefield(g.state, u.player).filter((t) => !t.battleShocked && fitsIn(g, u, t) && unitWhollyWithin(g.state, u, t, 6));
}

/**
 * SKYBORNE SANCTUARY, at the end of either player's Fight phase: an ASURYANI unit of the player that was
 * eligible to fight this phase (wasEligibleToFight), not within Engagement Range of an enemy unit, embarks
 * within a friendly TRANSPORT it fits in and is wholly within 6" of (its player picks which, new decision
 * skyborne-sanctuary). The core rules forbid embarking only
 * in the phase a unit disembarked, so a unit that disembarked in its Movement phase may; one set up from a
 * transport destroyed in this same Fight phase may not (fitsIn reads DISEMBARKED_THIS_PHASE).
 */
export const SKYBORNE_SANCTUARY_PLAY: Pick<Stratagem, 'targets' | 'use'> = {
  targets(g, w, p) {
    if (w.data?.phase !== 'fight') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => hasKeyword(u, 'ASURYANI') && wasEligibleToFight(u) && !isEngaged(g.state, u) && sanctuaries(g, u).length > 0);
  },
  use(g, _w, p, u) {
    const options = sanctuaries(g, u).map((t) => t.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'skyborne-sanctuary', player: p, prompt: `${u.name}: SKYBORNE SANCTUARY: embark within which transport?`, options, context: { unit: u.id } });
    embark(g, u, g.state.units[option]);
  },
};

/** The Warhost has the same stratagem (./warhost.ts), played by the same entries. */
registerStratagem({
  name: 'SKYBORNE SANCTUARY', cp: 1, category: 'Strategic Ploy', source: ASPECT_HOST, turn: 'either', windows: ['phase/end'], ...SKYBORNE_SANCTUARY_PLAY,
});

// --- Enhancements ----------------------------------------------------------------------------

const ASPECT_OF_MURDER = 'Aspect of Murder';

/** Aspect of Murder: the bearer's melee weapons have +1 Damage and PRECISION. */
registerRule({
  name: ASPECT_OF_MURDER, kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !attackersAreBearer(ctx.attacker, ctx.attackers, ASPECT_OF_MURDER)) return;
    plan.damageBonus += 1;
    plan.precision = true;
  },
});

/** Mantle of Wisdom: played by Path of the Warrior's hooks above (the Aspect Warriors unit the bearer leads gets both abilities). */
registerRule({ name: MANTLE_OF_WISDOM, kind: 'enhancement' });

const SHIMMERSTONE = 'Shimmerstone';

/** "While the bearer is leading an Aspect Warriors unit". */
const bearerLeadsAspect = (u: UnitState, enhancement: string) => hasKeyword(u, 'ASPECT WARRIORS') && bearerLeads(u, enhancement);

/** Shimmerstone: ranged attacks that target the Aspect Warriors unit the bearer leads get -1 to wound. */
registerRule({
  name: SHIMMERSTONE, kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role === 'defender' && !ctx.melee && bearerLeadsAspect(ctx.target, SHIMMERSTONE)) plan.woundModifier -= 1;
  },
});

const STRATEGIC_SAVANT = 'Strategic Savant';

/** Strategic Savant: the models of the Aspect Warriors unit the bearer leads (the bearer too) have +1 OC. */
registerRule({
  name: STRATEGIC_SAVANT, kind: 'enhancement',
  characteristic: (which, value, ctx) => (which === 'OC' && bearerLeadsAspect(ctx.unit, STRATEGIC_SAVANT) ? value + 1 : value),
});

export const ASPECT_HOST_RULES = [PATH_OF_THE_WARRIOR];
