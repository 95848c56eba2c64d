/**
 * T'au Empire datasheet abilities of characters and infantry, one registry entry each (by the
 * ability's name on the datasheet). Battlesuits and vehicles: ./battlesuits.ts.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, PlayerIndex, UnitState } from '../../core/state.ts';
import { isUnitOrItsPart } from '../../rules/battle/units.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { attackersAre, hitEnemies, leadingModel, untilStartOfNextTurn, withinObjectiveRange } from '../helpers.ts';
import { GUIDED, OBSERVER, onObserverSelected, spottedBy } from './army-rule.ts';
import { SUPPRESSED } from '../suppressed.ts';

export { SUPPRESSED };

/** Aun'Shi: while leading a unit, +1 OC for the models of that unit. */
registerRule({
  name: 'Inspirational Defiance', kind: 'datasheet-ability', leaderAbility: true,
  characteristic(which, v, ctx) {
    if (which !== 'OC') return v;
    return leadingModel(ctx.state, ctx.unit, "AUN'SHI") ? v + 1 : v;
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
    // each selection picks the stance for that fight: one chosen earlier in the phase (a unit that fights twice) ends
    for (const e of g.state.effects.filter((x) => x.kind === 'Martial Warrior stance' && x.unit === unit.id)) g.removeEffect(e.id);
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

// --- Cadre Fireblade -------------------------------------------------------------------------

/** Volley Fire: while the Fireblade leads a unit, its models' ranged weapons get +1 Attack. */
registerRule({
  name: 'Volley Fire', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !leadingModel(ctx.state, ctx.attacker, 'CADRE FIREBLADE')) return;
    plan.attacksBonus += 1;
  },
});

/** Crack Shot: the Fireblade's own ranged attacks have AP -3 on a Critical Wound. */
registerRule({
  name: 'Crack Shot', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !attackersAre(ctx.state, ctx.attackers, 'CADRE FIREBLADE')) return;
    // criticalWoundAp is an improvement over the profile's AP: from AP 0 to AP -3 is 3
    const improvement = 3 + ctx.profile.ap;
    if (improvement > plan.criticalWoundAp) plan.criticalWoundAp = improvement;
  },
});

// --- Strike Team, Breacher Team ----------------------------------------------------------------

/**
 * Suppression Volley: after the team shot in its Shooting phase, one enemy INFANTRY unit it hit is
 * suppressed until the start of the player's next turn, while the team is on the battlefield.
 */
registerRule({
  name: 'Suppression Volley', kind: 'datasheet-ability',
  afterShooting(g, unit, hit) {
    const options = hitEnemies(g, unit, hit, (e) => e.keywords.includes('INFANTRY')).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'suppression-volley', player: unit.player, prompt: `${unit.name}: Suppression Volley: which enemy unit is suppressed?`, options, context: { unit: unit.id } });
    g.addEffect(SUPPRESSED, unit.player, option, untilStartOfNextTurn(g, unit.player), { by: unit.id, whileOnBattlefield: true });
  },
});

const NO_WEAPONS: readonly string[] = [];
const SUPPORT_TURRET = 'Support turret';

/**
 * DS8 Support Turret: when the team Remains Stationary in its Movement phase, its Shas'ui carries the
 * support turret until the start of the player's next turn (the next Movement phase, in effect: nothing
 * shoots in a Command phase). The ability's entry is also the effect's: it gives the weapon only
 * through the effect.
 */
registerRule({
  name: 'DS8 Support Turret', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    if (phase !== 'movement' || g.state.turn !== unit.player || unit.flags.moved !== 'stationary') return;
    if (g.state.effects.some((e) => e.kind === 'DS8 Support Turret' && e.unit === unit.id)) return;
    g.addEffect('DS8 Support Turret', unit.player, unit.id, untilStartOfNextTurn(g, unit.player));
  },
  extraWeapons(ctx, src) {
    if (!src.effect) return NO_WEAPONS;
    const ds = ctx.state.datasheets[ctx.model.datasheet];
    if (!ds.abilities.includes('DS8 Support Turret') || !ds.weapons.some((w) => w.name === SUPPORT_TURRET)) return NO_WEAPONS;
    // the team's Shas'ui: the composition line that names one
    const shasui = ds.composition.find((c) => /shas['’]ui/i.test(c.profile));
    if (!shasui || norm(ctx.model.name) !== norm(shasui.profile) || ctx.model.weapons.includes(SUPPORT_TURRET)) return NO_WEAPONS;
    return [SUPPORT_TURRET];
  },
});

function norm(s: string): string {
  return s.toLowerCase().replace(/[’]/g, "'");
}

/** Breach and Clear: ranged attacks against a unit within range of an objective marker may re-roll the Wound roll. */
registerRule({
  name: 'Breach and Clear', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !withinObjectiveRange(ctx.state, ctx.target)) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
  },
});

// --- Pathfinder Team, Stealth Battlesuits -----------------------------------------------------

/** Target Uploaded: attacks against the unit's Spotted unit get BS +1 and IGNORES COVER. */
registerRule({
  name: 'Target Uploaded', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !isUnitOrItsPart(ctx.target, spottedBy(ctx.state, ctx.attacker.id))) return;
    plan.skill -= 1;
    plan.ignoresCover = true;
  },
});

/**
 * Forward Observers: when the unit becomes an Observer, until the end of the phase its Guided unit's
 * ranged attacks against their Spotted unit re-roll Hit rolls of 1 and Wound rolls of 1. The entry
 * is also the effect put on the Guided unit (params.spotted).
 */
registerRule({
  name: 'Forward Observers', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.melee || !isUnitOrItsPart(ctx.target, src.effect.params.spotted)) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones');
  },
});

onObserverSelected((g, observer, guided, spotted) => {
  if (observer.abilities.includes('Forward Observers')) g.addEffect('Forward Observers', observer.player, guided.id, g.untilEndOfPhase(), { spotted });
});

// --- Firesight Team ---------------------------------------------------------------------------

/**
 * Precise Targeting: the team's attacks against a Spotted unit (the Spotted unit of any Guided and
 * Observer pair of its player this phase, not only its own) may re-roll the Hit roll.
 */
registerRule({
  name: 'Precise Targeting', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !isSpotted(ctx.state, ctx.attacker.player, ctx.target)) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});

/** Is the unit the Spotted unit of a Guided or Observer unit of this player? */
function isSpotted(state: GameState, player: PlayerIndex, unit: UnitState): boolean {
  for (const e of state.effects) {
    if ((e.kind === GUIDED || e.kind === OBSERVER) && e.player === player && isUnitOrItsPart(unit, e.params.spotted)) return true;
  }
  return false;
}
