/**
 * Seer Council, an Aeldari detachment of the data export (not in RULES.md), in the engine's words: its rule
 * (the newer codex's Strands of Fate, read here as CP discounts paid with Fate dice), its six stratagems and
 * its four Enhancements. Each is one registry entry; the stratagems' effects are entries of kind 'effect'.
 *
 * Most of its stratagems ask for an ASURYANI INFANTRY unit (not a WRAITH CONSTRUCT) within 9" of a friendly
 * ASURYANI PSYKER model, or for an ASURYANI PSYKER model itself: `warded` and `psykerUnit` below.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import { profileHas } from '../../data/datasheet.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { enemyJustMoved, targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield, modelHasKeyword } from '../../rules/battle/units.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { applyPlan, planUnit } from '../../rules/battle/placement.ts';
import { afterMove } from '../../rules/battle/movement.ts';
import { enemiesSeenBy, bearerModel, bearerPartStands, minusOneToHitAndWound, modelWithinRangeOf } from '../helpers.ts';
import { fatePool, registerFatePoolSize } from './army-rule.ts';

export const SEER_COUNCIL = 'Seer Council';
/** Named apart from the army rule of the same name (src/factions/aeldari/army-rule.ts), which it builds on. */
export const SEER_STRANDS_OF_FATE = 'Strands of Fate (Seer Council)';

export const FATE_INESCAPABLE = 'FATE INESCAPABLE';
export const ISHAS_FURY = 'ISHA\u2019S FURY';
export const PSYCHIC_SHIELD = 'PSYCHIC SHIELD';
export const UNSHROUDED_TRUTH = 'UNSHROUDED TRUTH';
export const PRESENTIMENT_OF_DREAD = 'PRESENTIMENT OF DREAD';
export const FOREWARNED = 'FOREWARNED';

/** The Fate die value each of the detachment's stratagems can be paid with (1CP less). */
export const FATE_DISCOUNT_VALUE: Readonly<Record<string, number>> = {
  [PRESENTIMENT_OF_DREAD]: 1, [FOREWARNED]: 2, [UNSHROUDED_TRUTH]: 3, [FATE_INESCAPABLE]: 4, [ISHAS_FURY]: 5, [PSYCHIC_SHIELD]: 6,
};

/** The range of "within 9" of one or more friendly ASURYANI PSYKER models". */
export const SEER_RANGE = 9;

/** An alive model on the battlefield that is ASURYANI and PSYKER (its datasheet's, or its own: a Way Seeker). */
function asuryaniPsyker(s: GameState, m: ModelState): boolean {
  if (!m.alive || !m.pos) return false;
  return modelHasKeyword(s, m, 'PSYKER') && (s.datasheets[m.datasheet].factionKeywords ?? []).includes('ASURYANI');
}

/** The unit's ASURYANI PSYKER models ("one ASURYANI PSYKER model from your army" is one of these units). */
export function psykerModels(s: GameState, u: UnitState): ModelState[] {
  return u.models.filter((m) => asuryaniPsyker(s, m));
}

/** An ASURYANI INFANTRY unit, not a WRAITH CONSTRUCT, within 9" of a friendly ASURYANI PSYKER model (its own count). */
export function warded(s: GameState, u: UnitState): boolean {
  if (!onBattlefield(u) || !hasKeyword(u, 'ASURYANI') || !hasKeyword(u, 'INFANTRY') || hasKeyword(u, 'WRAITH CONSTRUCT')) return false;
  return unitsOnBattlefield(s, u.player).some((f) => psykerModels(s, f).some((m) => modelWithinRangeOf(s, m, u, SEER_RANGE)));
}

// --- Detachment rule ----------------------------------------------------------------------------

/**
 * Strands of Fate (Seer Council): each time one of the six stratagems above is used, its player may discard a
 * Fate die of the value listed for it to pay 1CP less. The dice are the army rule's pool: the engine's
 * Aeldari armies always have that rule, which rolls the pool at the start of the battle; the detachment's own
 * roll is read as that one, with its number of dice (3, 6 or 9 by battle size: SEER_FATE_DICE below). The stratagem decision offers the use at full
 * cost and at 1CP less; taking the second discards the die.
 */
registerRule({
  name: SEER_STRANDS_OF_FATE, kind: 'detachment-rule',
  stratagemDiscount(ctx) {
    const v = FATE_DISCOUNT_VALUE[ctx.stratagem];
    if (v === undefined) return 0;
    const pool = (ctx.state.players[ctx.unit.player].ruleState.fate as number[] | undefined) ?? [];
    return pool.includes(v) ? 1 : 0;
  },
  stratagemDiscountUsed(g, unit, _src, stratagem) {
    const v = stratagem === undefined ? undefined : FATE_DISCOUNT_VALUE[stratagem];
    const rest = [...fatePool(g, unit.player)];
    const i = v === undefined ? -1 : rest.indexOf(v);
    if (i < 0) return;
    rest.splice(i, 1);
    g.emit({ type: 'rule-state', player: unit.player, key: 'fate', value: rest });
  },
});

export const SEER_COUNCIL_RULES = [SEER_STRANDS_OF_FATE];

/** The number of Fate dice the Seer Council's pool starts with, by battle size. */
export const SEER_FATE_DICE: Readonly<Record<string, number>> = { incursion: 3, 'strike-force': 6, onslaught: 9 };
registerFatePoolSize((g, player) => (g.state.players[player].rules.includes(SEER_STRANDS_OF_FATE) ? SEER_FATE_DICE[g.state.mission.mode] ?? null : null));

// --- Stratagems ----------------------------------------------------------------------------------

/** FATE INESCAPABLE's effect this phase: ranged weapons have IGNORES COVER; a Critical Wound improves the attack's AP by 1. */
registerRule({
  name: 'Fate Inescapable', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker') return;
    if (!ctx.melee) plan.ignoresCover = true;
    plan.criticalWoundAp = Math.max(plan.criticalWoundAp, 1);
  },
});

registerStratagem({
  name: FATE_INESCAPABLE, cp: 1, category: 'Battle Tactic', source: SEER_COUNCIL, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && warded(g.state, u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Fate Inescapable', p, u.id, g.untilEndOfPhase()); },
});

/** ISHA'S FURY: six D6, one mortal wound to the enemy unit for each 3+. */
export const ISHAS_FURY_DICE = 6;

registerStratagem({
  name: ISHAS_FURY, cp: 1, category: 'Epic Deed', source: SEER_COUNCIL, turn: 'opponent', windows: ['movement/after-enemy-move'],
  targets(g, w, p) {
    const s = g.state;
    const mover = enemyJustMoved(g, w, p);
    if (!mover) return [];
    return unitsOnBattlefield(s, p).filter((u) => psykerModels(s, u).some((m) => modelWithinRangeOf(s, m, mover, SEER_RANGE)));
  },
  use(g, w, p, u) {
    const dice = g.dice.d6(ISHAS_FURY_DICE, 'other', p, u.id, `${ISHAS_FURY} (3+: 1 mortal wound)`);
    const wounds = dice.filter((d) => d >= 3).length;
    if (wounds > 0) inflictMortalWounds(g, g.state.units[w.unit!], wounds, u.id);
  },
});

/** PSYCHIC SHIELD's effect this phase: the unit can be the target of a ranged attack only from a model within 18". */
export const PSYCHIC_SHIELD_RANGE = 18;
registerRule({ name: 'Psychic Shield', kind: 'effect', targetableFrom: (ctx) => ctx.distance <= PSYCHIC_SHIELD_RANGE + 1e-6 });

registerStratagem({
  name: PSYCHIC_SHIELD, cp: 1, category: 'Strategic Ploy', source: SEER_COUNCIL, turn: 'opponent', windows: ['shooting/after-enemy-targets'],
  // the opponent's Shooting phase (not Fire Overwatch in their Charge phase)
  targets: (g, w, p) => (g.state.phase === 'shooting' ? targetedOwnUnits(g, w, p).filter((u) => warded(g.state, u)) : []),
  use(g, _w, p, u) { g.addEffect('Psychic Shield', p, u.id, g.untilEndOfPhase()); },
});

/** FOREWARNED's effect this phase: attacks that target the unit have -1 to Hit and -1 to Wound. */
registerRule({
  name: 'Forewarned', kind: 'effect', attack: minusOneToHitAndWound,
});

registerStratagem({
  name: FOREWARNED, cp: 1, category: 'Strategic Ploy', source: SEER_COUNCIL, turn: 'either', windows: ['fight/after-enemy-targets'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter((u) => warded(g.state, u)),
  use(g, _w, p, u) { g.addEffect('Forewarned', p, u.id, g.untilEndOfPhase()); },
});

/** How far PRESENTIMENT OF DREAD reaches from the Psyker model, and the modifier of its Battle-shock test. */
export const PRESENTIMENT_RANGE = 18;
export const PRESENTIMENT_MODIFIER = -1;

/** Enemy units within 18" of and visible to one of the unit's ASURYANI PSYKER models. */
export function dreadTargets(s: GameState, u: UnitState): UnitState[] {
  return enemiesSeenBy(s, u.player, psykerModels(s, u), PRESENTIMENT_RANGE);
}

/**
 * PRESENTIMENT OF DREAD, in either Command phase: an enemy unit within 18" of and visible to the Psyker takes
 * a Battle-shock test with -1. Offered after that phase's Battle-shock step (so in the opponent's Command
 * phase the test is not one their own step would take anyway) and before the mission scores at the end of
 * the phase, so that a unit it shocks off a marker no longer counts for that score.
 * Decision `presentiment-of-dread`: which enemy unit (no pass: the stratagem is paid).
 */
registerStratagem({
  name: PRESENTIMENT_OF_DREAD, cp: 1, category: 'Strategic Ploy', source: SEER_COUNCIL, turn: 'either', windows: ['command/after-battle-shock-step'], battleShockTest: PRESENTIMENT_MODIFIER,
  targets(g, _w, p) {
    return unitsOnBattlefield(g.state, p).filter((u) => dreadTargets(g.state, u).some((e) => !e.battleShocked));
  },
  use(g, _w, p, u) {
    const options = dreadTargets(g.state, u).filter((e) => !e.battleShocked).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'presentiment-of-dread', player: p, prompt: `${PRESENTIMENT_OF_DREAD}: which enemy unit takes a Battle-shock test (-1)?`, options, context: { unit: u.id } });
    const e = g.state.units[option];
    battleShockTest(g, e.player, e.id, PRESENTIMENT_MODIFIER);
  },
});

/** Candidate points where UNSHROUDED TRUTH may set a unit up again: the objective markers and a 12" grid. */
export function truthPoints(s: GameState): { x: number; y: number }[] {
  const out = s.objectives.map((o) => ({ x: o.pos.x, y: o.pos.y }));
  for (let x = 6; x < s.board.width; x += 12) for (let y = 6; y < s.board.height; y += 12) out.push({ x, y });
  return out;
}

/**
 * UNSHROUDED TRUTH, in the player's Movement phase: the unit is removed and set up again anywhere more than 9"
 * horizontally from every enemy model (as a Deep Strike is), and it may not be selected to move this phase.
 * Offered at the start of the phase, when no unit has yet been selected to move or set up (a use later in
 * the phase is not offered). The unit counts as set up this phase ('arrived'), so it is not selected to move.
 * Decision `unshrouded-truth`: where (the points where the planner finds room; its old place when none).
 */
registerStratagem({
  name: UNSHROUDED_TRUTH, cp: 1, category: 'Strategic Ploy', source: SEER_COUNCIL, turn: 'own', windows: ['phase/start'],
  targets(g, w, p) {
    if (w.data?.phase !== 'movement') return [];
    // (within Engagement Range too: unlike the stratagems that say so, it does not forbid it)
    return unitsOnBattlefield(g.state, p).filter((u) => u.flags.moved === null && warded(g.state, u));
  },
  use(g, _w, p, u) {
    const old = u.models.filter((m) => m.alive && m.pos).map((m) => ({ model: m.id, pos: { ...m.pos! } }));
    // picked up first, so its own models do not stand in the way
    g.emit({ type: 'unit-location', unit: u.id, location: 'unplaced', embarkedIn: null });
    const lifted = g.state.units[u.id];
    const plans = truthPoints(g.state).map((to) => ({ to, plan: planUnit(g.state, lifted, 'deepStrike', { destination: to, minEnemyDistance: SEER_RANGE }) }))
      .filter((x) => x.plan.ok);
    g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
    if (plans.length === 0) {
      g.emit({ type: 'models-placed', unit: u.id, mode: 'put-back', positions: old });
    } else {
      const { index } = g.decide({ kind: 'unshrouded-truth', player: p, prompt: `${u.name}: ${UNSHROUDED_TRUTH}: set it up again where?`, options: plans.map((x) => x.to), context: { unit: u.id } });
      // its own mode: not an arrival from Reserves (the invariant checks hold it more than 9" from enemy models)
      applyPlan(g, g.state.units[u.id], plans[index].plan, 'set-up-again');
    }
    g.emit({ type: 'unit-moved', unit: u.id, mode: 'arrived' });
    afterMove(g, g.state.units[u.id]);
  },
});

// --- Enhancements ----------------------------------------------------------------------------------

/** Lucid Eye: in its player's Command phase, one Fate die of the pool goes up or down by 1 (1 to 6). */
export const LUCID_EYE = 'Lucid Eye';

/**
 * Decision `lucid-eye`: `{ none: true }` first, then `{ die, to }` for each value in the pool and each
 * value one higher or lower (the pool is kept sorted high to low, as the army rule keeps it).
 */
registerRule({
  name: LUCID_EYE, kind: 'enhancement',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player || !bearerModel(unit, LUCID_EYE)) return;
    const pool = fatePool(g, unit.player);
    const options: ({ none: true } | { die: number; to: number })[] = [{ none: true }];
    for (const v of [...new Set(pool)]) for (const to of [v + 1, v - 1]) if (to >= 1 && to <= 6) options.push({ die: v, to });
    if (options.length === 1) return;
    const { option } = g.decide({ kind: 'lucid-eye', player: unit.player, prompt: `${LUCID_EYE}: change a Fate die? Pool: [${pool.join(', ')}]`, options, context: { unit: unit.id, pool: [...pool] } });
    if ('none' in option) return;
    const rest = [...pool];
    rest[rest.indexOf(option.die)] = option.to;
    g.emit({ type: 'rule-state', player: unit.player, key: 'fate', value: rest.sort((a, b) => b - a) });
  },
});

/**
 * Runes of Warding: the bearer's unit has Feel No Pain 4+ against mortal wounds (which are how the engine
 * plays Devastating Wounds' Critical Wounds) and against Psychic Attacks (the attack's own Feel No Pain).
 */
export const RUNES_OF_WARDING = 'Runes of Warding';
registerRule({
  name: RUNES_OF_WARDING, kind: 'enhancement',
  feelNoPain: (ctx) => (ctx.mortal && bearerPartStands(ctx.unit, RUNES_OF_WARDING) ? 4 : null),
  attack(plan, ctx, src) {
    if (src.role !== 'defender' || !plan.tags.includes('PSYCHIC') || !bearerPartStands(ctx.target, RUNES_OF_WARDING)) return;
    plan.feelNoPain = plan.feelNoPain === null ? 4 : Math.min(plan.feelNoPain, 4);
  },
});

/** Stone of Eldritch Fury: +12" Range for the bearer's ranged PSYCHIC weapons. */
export const STONE_OF_ELDRITCH_FURY = 'Stone of Eldritch Fury';
export const ELDRITCH_FURY_RANGE = 12;
registerRule({
  name: STONE_OF_ELDRITCH_FURY, kind: 'enhancement',
  // the bearer's own weapons: a model firing (`ctx.model`) other than the bearer gets nothing, though it
  // carries a weapon of the same name (a Warlock's singing spear beside the Farseer's)
  weaponRangeBonus(ctx) {
    const m = bearerModel(ctx.unit, STONE_OF_ELDRITCH_FURY);
    if (!m || ctx.profile.range === 'Melee' || !profileHas(ctx.profile, 'PSYCHIC')) return 0;
    if (ctx.model && ctx.model.id !== m.id) return 0;
    return carriesProfile(m, ctx.profile.name) ? ELDRITCH_FURY_RANGE : 0;
  },
});

/** Does the model carry the weapon this profile belongs to ("Eldritch Storm" or "Eldritch Storm - focused")? */
function carriesProfile(m: ModelState, profile: string): boolean {
  const p = profile.toLowerCase();
  return m.weapons.some((w) => p === w.toLowerCase() || p.startsWith(`${w.toLowerCase()} `));
}

/**
 * Torc of Morai-Heg: once per turn, a stratagem the opponent uses on one of their units within 12" of the bearer
 * costs 1CP more. Its player is read as always using it on the first such stratagem of the turn (no decision);
 * the price the opponent is offered includes it, so a stratagem they cannot then pay is not offered.
 */
export const TORC_OF_MORAI_HEG = 'Torc of Morai-Heg';
export const TORC_RANGE = 12;
const turnKey = (s: GameState) => `${s.round}:${s.turn}`;
registerRule({
  name: TORC_OF_MORAI_HEG, kind: 'enhancement',
  enemyStratagemSurcharge(ctx) {
    const s = ctx.state;
    const m = bearerModel(ctx.unit, TORC_OF_MORAI_HEG);
    if (!m || !m.pos || !onBattlefield(ctx.target) || s.players[ctx.unit.player].ruleState[TORC_OF_MORAI_HEG] === turnKey(s)) return 0;
    return modelWithinRangeOf(s, m, ctx.target, TORC_RANGE) ? 1 : 0;
  },
  enemyStratagemSurchargeUsed(g, unit) {
    g.emit({ type: 'rule-state', player: unit.player, key: TORC_OF_MORAI_HEG, value: turnKey(g.state) });
  },
});
