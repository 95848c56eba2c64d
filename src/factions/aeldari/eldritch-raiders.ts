/**
 * Eldritch Raiders, an Aeldari (Corsair) detachment of the data export (not in RULES.md), in the engine's
 * words: its rule Yriel's Own, its six stratagems and its Enhancements. Each is one registry entry; the
 * stratagems' effects are entries of kind 'effect'. Veterans of the Void (ANHRATHE units may take a Corsair
 * Enhancement) changes only how an army is built: src/data/muster-checks.ts reads it, as for the Corsair
 * Coterie. Pirate Prince and Adrenal Infusions change the Battle Focus army rule: ./battle-focus.ts plays them.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { profileHas } from '../../data/datasheet.ts';
import { opponent, type GameState, type ModelState, type UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { untilYourNextCommandPhase } from '../../rules/stratagems/boarding-actions.ts';
import { targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { characteristic, hasKeyword, unitsOnBattlefield, modelHasKeyword } from '../../rules/battle/units.ts';
import { isEngaged, unitDistance, unitSees } from '../../rules/battle/world.ts';
import { getWeaponAbility } from '../../rules/weapon-abilities.ts';
import { bearerPartStands, intoReservesRestored } from '../helpers.ts';

export const ELDRITCH_RAIDERS = 'Eldritch Raiders';
const YRIELS_OWN = "Yriel's Own";

export const ELDRITCH_RAIDERS_RULES = [YRIELS_OWN];

const anhrathe = (u: UnitState) => hasKeyword(u, 'ANHRATHE');
/** ANHRATHE, RANGERS or SHROUD RUNNERS: the units Yriel's Own and NO PREY TOO BIG name. */
const raiderOrOutcast = (u: UnitState) => anhrathe(u) || hasKeyword(u, 'RANGERS') || hasKeyword(u, 'SHROUD RUNNERS');

/**
 * Yriel's Own: every AELDARI unit of the army may declare a charge in a turn it Advanced; ANHRATHE, RANGERS
 * and SHROUD RUNNERS units may re-roll their Advance rolls.
 */
registerRule({
  name: YRIELS_OWN, kind: 'detachment-rule',
  allows: (perm, ctx) => perm === 'charge-after-advance' && hasKeyword(ctx.unit, 'AELDARI'),
  rerollAdvance: (ctx) => raiderOrOutcast(ctx.unit),
});

// --- Stratagems ----------------------------------------------------------------------------------

/** The highest Toughness among the unit's models alive. */
function highestToughness(state: GameState, u: UnitState): number {
  let t = 0;
  for (const m of u.models) if (m.alive) t = Math.max(t, characteristic(state, u, m, 'T'));
  return t;
}

/**
 * NO PREY TOO BIG's effect this phase: +1 to the Wound roll of an attack whose Strength is below the highest
 * Toughness in the target unit. The Strength is the plan's when the effect is asked (a Strength change another
 * rule makes after it is not counted; no rule of these armies makes one).
 */
registerRule({
  name: 'No Prey Too Big', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && plan.strength < highestToughness(ctx.state, ctx.target)) plan.woundModifier += 1;
  },
});

registerStratagem({
  name: 'NO PREY TOO BIG', cp: 1, category: 'Battle Tactic', source: ELDRITCH_RAIDERS, turn: 'own', windows: ['shooting/unit-selected'],
  phases: ['shooting'],
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && !u.flags.shot && raiderOrOutcast(u) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('No Prey Too Big', p, u.id, g.untilEndOfPhase()); },
});

/** YRIEL'S EXAMPLE's effect this phase: Feel No Pain 5+. */
registerRule({ name: "Yriel's Example", kind: 'effect', feelNoPain: () => 5 });

registerStratagem({
  name: "YRIEL'S EXAMPLE", cp: 1, category: 'Epic Deed', source: ELDRITCH_RAIDERS, turn: 'either', windows: ['fight/after-enemy-targets'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter((u) => hasKeyword(u, 'AELDARI') && hasKeyword(u, 'INFANTRY') && !hasKeyword(u, 'WRAITH CONSTRUCT')),
  use(g, _w, p, u) { g.addEffect("Yriel's Example", p, u.id, g.untilEndOfPhase()); },
});

/** The destroyed models WITHDRAW AND REINFORCE returns (every one but CHARACTER models). */
export function withdrawnModelsBack(state: GameState, u: UnitState): ModelState[] {
  return u.models.filter((m) => !m.alive && !modelHasKeyword(state, m, 'CHARACTER'));
}

registerStratagem({
  name: 'WITHDRAW AND REINFORCE', cp: 1, category: 'Strategic Ploy', source: ELDRITCH_RAIDERS, turn: 'opponent', windows: ['phase/end'],
  // at the end of the opponent's Fight phase: an ANHRATHE unit not within Engagement Range
  targets: (g, w, p) => (w.data?.phase !== 'fight' ? [] : unitsOnBattlefield(g.state, p).filter((u) => anhrathe(u) && !isEngaged(g.state, u))),
  // into Strategic Reserves, its destroyed models (not CHARACTERS) back with their full wounds (as COST OF VICTORY)
  use(g, _w, _p, u) { intoReservesRestored(g, u, withdrawnModelsBack); },
});

/** RUTHLESS KILLERS' effect this phase: +1 Damage to the unit's attacks. */
registerRule({
  name: 'Ruthless Killers', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.damageBonus += 1; },
});

registerStratagem({
  name: 'RUTHLESS KILLERS', cp: 1, category: 'Strategic Ploy', source: ELDRITCH_RAIDERS, turn: 'either', windows: ['shooting/unit-selected', 'fight/unit-selected'],
  // the player's own Shooting phase (not Fire Overwatch) or either Fight phase, as the unit is selected
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    const s = g.state;
    if (!u || !hasKeyword(u, 'CORSAIR VOIDSCARRED')) return [];
    if (s.phase === 'shooting') return s.turn === p && !u.flags.shot ? [u] : [];
    return s.phase === 'fight' && !u.flags.fought ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Ruthless Killers', p, u.id, g.untilEndOfPhase()); },
});

/** RAIDERS' SPOILS' effect until the start of the next Command phase: +1 OC. */
registerRule({
  name: "Raiders' Spoils", kind: 'effect',
  characteristic: (which, value) => (which === 'OC' ? value + 1 : value),
});

registerStratagem({
  name: "RAIDERS' SPOILS", cp: 1, category: 'Strategic Ploy', source: ELDRITCH_RAIDERS, turn: 'either', windows: ['phase/start'],
  // in a Command phase (either player's): an ANHRATHE unit within Engagement Range of an enemy unit
  targets: (g, w, p) => (w.data?.phase !== 'command' ? [] : unitsOnBattlefield(g.state, p).filter((u) => anhrathe(u) && isEngaged(g.state, u))),
  use(g, _w, p, u) { g.addEffect("Raiders' Spoils", p, u.id, untilYourNextCommandPhase(g, opponent(g.state.turn))); },
});

/** IMPEDING FIRE's effect on the enemy unit this phase: -2 to its Charge rolls, not added to other penalties. */
registerRule({ name: 'Impeding Fire', kind: 'effect', chargeRollPenalty: -2 });

/** The enemy units (not TITANIC) visible to the unit and within 36" of it: IMPEDING FIRE's choices. */
export function impedingFireTargets(state: GameState, u: UnitState): UnitState[] {
  return unitsOnBattlefield(state, opponent(u.player)).filter((e) => !hasKeyword(e, 'TITANIC') && unitDistance(state, u, e) <= 36 + 1e-6 && unitSees(state, u, e));
}

registerStratagem({
  name: 'IMPEDING FIRE', cp: 1, category: 'Wargear', source: ELDRITCH_RAIDERS, turn: 'opponent', windows: ['phase/start'],
  targets(g, w, p) {
    if (w.data?.phase !== 'charge') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => (hasKeyword(u, 'RANGERS') || hasKeyword(u, 'SHROUD RUNNERS') || hasKeyword(u, 'STARFANGS'))
      && impedingFireTargets(g.state, u).length > 0);
  },
  use(g, _w, p, u) {
    const options = impedingFireTargets(g.state, u).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'impeding-fire', player: p, prompt: `Impeding Fire: which enemy unit has -2 to its Charge rolls this phase?`, options, context: { unit: u.id } });
    g.addEffect('Impeding Fire', p, option, g.untilEndOfPhase());
  },
});

// --- Enhancements ----------------------------------------------------------------------------------

/**
 * Alacritous Assault: the melee weapons of the models in the bearer's unit have LANCE; led by a Leader, that
 * unit is the Attached unit (the Leader's weapons too), while the bearer's part is in it.
 */
registerRule({
  name: 'Alacritous Assault', kind: 'enhancement',
  weaponAbility: (ability, ctx) => ability === 'LANCE' && ctx.profile.range === 'Melee' && bearerPartStands(ctx.unit, 'Alacritous Assault'),
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || profileHas(ctx.profile, 'LANCE') || !bearerPartStands(ctx.attacker, 'Alacritous Assault')) return;
    getWeaponAbility('LANCE')!.compile(plan, { name: 'LANCE' }, ctx);
  },
});

const ANTI_MONSTER = { name: 'ANTI', keyword: 'MONSTER', threshold: 5 };
const ANTI_VEHICLE = { name: 'ANTI', keyword: 'VEHICLE', threshold: 5 };

/** Exotic Munitions: the ranged weapons of the models in the bearer's unit (an Attached unit: all of it) have ANTI-MONSTER 5+ and ANTI-VEHICLE 5+. */
registerRule({
  name: 'Exotic Munitions', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !bearerPartStands(ctx.attacker, 'Exotic Munitions')) return;
    const anti = getWeaponAbility('ANTI')!;
    anti.compile(plan, ANTI_MONSTER, ctx);
    anti.compile(plan, ANTI_VEHICLE, ctx);
  },
});

