/**
 * Spirit Conclave, an Aeldari detachment of the data export (not in RULES.md), in the engine's words: its rule
 * Shepherds of the Dead, its six stratagems and its four Enhancements (Spiritseer only). Each is one registry
 * entry; the stratagems' effects are entries of kind 'effect'. The detachment makes WRAITHBLADES and
 * WRAITHGUARD units BATTLELINE: that changes only how an army is built (src/data/muster-checks.ts). Its Spirit
 * Guides aura gives Wraith units Battle Focus (./battle-focus.ts) near the army's ASURYANI PSYKER models.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, PlayerIndex, UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedInOpponentsShootingOrFight, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, isUnitOrItsPart, modelHasKeyword, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { engagedEnemies } from '../../rules/battle/world.ts';
import { inflictMortalWounds, onModelDestroyed } from '../../rules/damage.ts';
import { getWeaponAbility } from '../../rules/weapon-abilities.ts';
import { enemiesSeenBy, attackersAre, enhancementBearers, modelWithinRangeOf, reactiveMoveHook, registerMarkerHold, unheldMarkers, untilStartOfNextTurn, withinRangeOfMarker } from '../helpers.ts';
import { SOUL_BRIDGE, soulBridged } from './wraiths-and-warlocks.ts';
import { BATTLE_FOCUS, registerBattleFocusGrant } from './battle-focus.ts';

export const SPIRIT_CONCLAVE = 'Spirit Conclave';
const SHEPHERDS_OF_THE_DEAD = 'Shepherds of the Dead';
export const SPIRIT_GUIDES = 'Spirit Guides';
/** The units Spirit Guides (and SOUL BRIDGE) speak of. */
const GUIDED_WRAITHS = ['WRAITHBLADES', 'WRAITHGUARD', 'WRAITHLORD'];

export const SPIRIT_CONCLAVE_RULES = [SHEPHERDS_OF_THE_DEAD];

const WRAITH_CONSTRUCT = 'WRAITH CONSTRUCT';
const wraith = (u: UnitState) => hasKeyword(u, WRAITH_CONSTRUCT);
const anyOf = (u: UnitState, keywords: readonly string[]) => keywords.some((k) => hasKeyword(u, k));

/** Does the player play this detachment? */
function playsConclave(g: Game, p: PlayerIndex): boolean {
  return g.state.players[p].rules.includes(SHEPHERDS_OF_THE_DEAD);
}

/** The model is an ASURYANI PSYKER (its own datasheet's keywords: a Farseer leading Guardians counts, not the Guardians). */
function asuryaniPsyker(state: GameState, m: ModelState): boolean {
  return modelHasKeyword(state, m, 'PSYKER') && state.datasheets[m.datasheet].factionKeywords.includes('ASURYANI');
}

/** A Vengeful Dead token on an enemy unit (the effect's player: the Spirit Conclave's); one is all the rule reads. */
export const VENGEFUL_DEAD = 'Vengeful Dead';
registerRule({ name: VENGEFUL_DEAD, kind: 'effect' });

/** Does the unit carry a Vengeful Dead token that `player`'s units read? */
export function hasVengefulDead(state: GameState, unit: UnitState, player: PlayerIndex): boolean {
  return state.effects.some((e) => e.kind === VENGEFUL_DEAD && e.unit === unit.id && e.player === player);
}

/**
 * Shepherds of the Dead: an enemy unit that destroys an ASURYANI PSYKER model of the army gains a Vengeful
 * Dead token (kept for the battle); the army's WRAITH CONSTRUCT models add 1 to their Hit and Wound rolls
 * against a unit with one. Its Spirit Guides aura is given at muster to the WRAITHBLADES, WRAITHGUARD and
 * WRAITHLORD units that lack Battle Focus, as the ability below (the aura's condition read from their side).
 */
registerRule({
  name: SHEPHERDS_OF_THE_DEAD, kind: 'detachment-rule',
  musterGrants: (keywords, abilities) => (GUIDED_WRAITHS.some((k) => keywords.includes(k)) && !abilities.includes(BATTLE_FOCUS) ? { abilities: [SPIRIT_GUIDES] } : null),
  attack(plan, ctx, src) {
    // the token first: most targets have none
    if (src.role !== 'attacker' || !hasVengefulDead(ctx.state, ctx.target, ctx.attacker.player) || !attackersAre(ctx.state, ctx.attackers, WRAITH_CONSTRUCT)) return;
    plan.hitModifier += 1;
    plan.woundModifier += 1;
  },
});

onModelDestroyed((g, unit, model, by, opts) => {
  if (opts.triggers === false || by === null) return;
  const killer = g.state.units[by];
  if (!killer || killer.player === unit.player || !playsConclave(g, unit.player) || !asuryaniPsyker(g.state, model)) return;
  if (hasVengefulDead(g.state, killer, unit.player)) return;
  g.addEffect(VENGEFUL_DEAD, unit.player, killer.id, { at: 'end-of-battle' });
});

// --- Stratagems ----------------------------------------------------------------------------------

/** CRUSHING STRIDES' dice: six for a WRAITHKNIGHT, four for a WRAITHLORD, else one per WRAITHBLADES model. */
export function crushingStridesDice(state: GameState, u: UnitState): number {
  if (hasKeyword(u, 'WRAITHKNIGHT')) return 6;
  if (hasKeyword(u, 'WRAITHLORD')) return 4;
  return u.models.filter((m) => m.alive && state.datasheets[m.datasheet].keywords.includes('WRAITHBLADES')).length;
}

registerStratagem({
  name: 'CRUSHING STRIDES', cp: 1, category: 'Battle Tactic', source: SPIRIT_CONCLAVE, turn: 'own', windows: ['charge/after-own-charge-move'],
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && anyOf(u, ['WRAITHBLADES', 'WRAITHLORD', 'WRAITHKNIGHT']) && engagedEnemies(g.state, u).length > 0 ? [u] : [];
  },
  // one enemy unit within Engagement Range: a mortal wound for each 3+
  use(g, _w, p, u) {
    const options = engagedEnemies(g.state, u).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'crushing-strides', player: p, prompt: `Crushing Strides: which enemy unit does ${u.name} trample?`, options, context: { unit: u.id } });
    const n = crushingStridesDice(g.state, u);
    if (n === 0) return;
    const rolls = g.dice.d6(n, 'mortal-wounds', p, u.id, 'Crushing Strides');
    const mortal = rolls.filter((v) => v >= 3).length;
    if (mortal > 0) inflictMortalWounds(g, g.state.units[option], mortal, u.id);
  },
});

/** WRAITHBONE ARMOUR's effect this phase: -1 to the Damage of attacks allocated to the unit's models. */
registerRule({
  name: 'Wraithbone Armour', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.damageReduction += 1; },
});

registerStratagem({
  name: 'WRAITHBONE ARMOUR', cp: 1, category: 'Battle Tactic', source: SPIRIT_CONCLAVE, turn: 'either', windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => wraith(u) && !hasKeyword(u, 'TITANIC')),
  use(g, _w, p, u) { g.addEffect('Wraithbone Armour', p, u.id, g.untilEndOfPhase()); },
});

/** BLADES FROM BEYOND's effect this phase: the unit's melee weapons have DEVASTATING WOUNDS. */
registerRule({
  name: 'Blades from Beyond', kind: 'effect',
  weaponAbility: (ability, ctx) => ability === 'DEVASTATING WOUNDS' && ctx.profile.range === 'Melee',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && ctx.melee) getWeaponAbility('DEVASTATING WOUNDS')!.compile(plan, { name: 'DEVASTATING WOUNDS' }, ctx);
  },
});

registerStratagem({
  name: 'BLADES FROM BEYOND', cp: 1, category: 'Battle Tactic', source: SPIRIT_CONCLAVE, turn: 'either', windows: ['fight/unit-selected'],
  // as the unit is selected to fight (before it piles in and attacks)
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && g.state.phase === 'fight' && !u.flags.fought && anyOf(u, ['WRAITHBLADES', 'WRAITHLORD', 'WRAITHKNIGHT']) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Blades from Beyond', p, u.id, g.untilEndOfPhase()); },
});

/**
 * The player's AELDARI PSYKER models alive on the battlefield within 12" of the unit (SEER'S EYE's seers); not
 * of a Battle-shocked unit (the PSYKER model is a target of the stratagem).
 */
function seersNear(state: GameState, u: UnitState): ModelState[] {
  const out: ModelState[] = [];
  for (const f of unitsOnBattlefield(state, u.player)) {
    if (!hasKeyword(f, 'AELDARI') || f.battleShocked) continue;
    for (const m of f.models) if (m.alive && m.pos && modelHasKeyword(state, m, 'PSYKER') && modelWithinRangeOf(state, m, u, 12)) out.push(m);
  }
  return out;
}

/** SEER'S EYE's choices for the Wraith unit: the enemy units a PSYKER model within 12" of it can see. */
export function seersEyeTargets(state: GameState, u: UnitState): UnitState[] {
  return enemiesSeenBy(state, u.player, seersNear(state, u));
}

/** SEER'S EYE's effect this phase (params.target): the unit's attacks on that enemy unit ignore modifiers to their AP and Damage. */
registerRule({
  name: "Seer's Eye", kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && src.effect && isUnitOrItsPart(ctx.target, src.effect.params.target)) plan.ignoreApDamageModifiers = true;
  },
});

registerStratagem({
  name: "SEER'S EYE", cp: 1, category: 'Battle Tactic', source: SPIRIT_CONCLAVE, turn: 'either', windows: ['shooting/unit-selected', 'fight/unit-selected'],
  // the player's own Shooting phase (not Fire Overwatch) or either Fight phase, as the Wraith unit is selected
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    const s = g.state;
    if (!u || !wraith(u)) return [];
    if (s.phase === 'shooting' ? s.turn !== p || u.flags.shot : s.phase !== 'fight' || u.flags.fought) return [];
    return seersEyeTargets(s, u).length > 0 ? [u] : [];
  },
  use(g, _w, p, u) {
    const options = seersEyeTargets(g.state, u).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'seers-eye', player: p, prompt: `Seer's Eye: against which enemy unit do ${u.name}'s attacks ignore AP and Damage modifiers?`, options, context: { unit: u.id } });
    g.addEffect("Seer's Eye", p, u.id, g.untilEndOfPhase(), { target: option });
  },
});

/** SPIRIT TOKEN's hold on a marker (params.objective), army-wide for its player. */
export const SPIRIT_TOKEN_HOLD = 'Spirit Token (held)';
registerMarkerHold(SPIRIT_TOKEN_HOLD);

/** The markers the player controls that the unit is within range of and no Spirit Token holds yet (their ids). */
export function spiritTokenMarkers(state: GameState, u: UnitState): string[] {
  return unheldMarkers(state, u.player, SPIRIT_TOKEN_HOLD).filter((o) => withinRangeOfMarker(state, u, o)).map((o) => o.id);
}

registerStratagem({
  name: 'SPIRIT TOKEN', cp: 1, category: 'Strategic Ploy', source: SPIRIT_CONCLAVE, turn: 'own', windows: ['phase/start'],
  // at the start of the player's Movement phase: a WRAITHBLADES or WRAITHGUARD unit within range of a marker they control
  targets(g, w, p) {
    if (w.data?.phase !== 'movement' || g.state.turn !== p) return [];
    return unitsOnBattlefield(g.state, p).filter((u) => anyOf(u, ['WRAITHBLADES', 'WRAITHGUARD']) && spiritTokenMarkers(g.state, u).length > 0);
  },
  // the marker stays the player's until the end of a phase at which the opponent's Level of Control over it is the greater
  use(g, _w, p, u) {
    const options = spiritTokenMarkers(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'spirit-token', player: p, prompt: `Spirit Token: which objective marker does ${u.name} hold?`, options, context: { unit: u.id } });
    g.addEffect(SPIRIT_TOKEN_HOLD, p, null, { at: 'end-of-battle' }, { objective: option });
  },
});

/**
 * Spirit Guides (Aura): a WRAITHBLADES, WRAITHGUARD or WRAITHLORD unit has Battle Focus while within 12" of an
 * ASURYANI PSYKER model of its army on the battlefield, or while SOUL BRIDGE ties it to one that stands.
 */
registerBattleFocusGrant({ name: SPIRIT_GUIDES, kind: 'detachment-rule' }, (state, u) =>
  asuryaniPsykers(state, u.player).some((m) => modelWithinRangeOf(state, m, u, 12)) || soulBridged(state, u));

/** SOUL BRIDGE's effect is read by Psychic Guidance (./wraiths-and-warlocks.ts) and Spirit Guides (above); the entry names it. */
registerRule({ name: SOUL_BRIDGE, kind: 'effect' });

/**
 * The player's ASURYANI PSYKER models alive on the battlefield, in unit order; `asTargets`: SOUL BRIDGE's
 * choices, where the model is a target of the stratagem, so not of a Battle-shocked unit.
 */
export function asuryaniPsykers(state: GameState, p: PlayerIndex, asTargets = false): ModelState[] {
  const out: ModelState[] = [];
  for (const f of unitsOnBattlefield(state, p)) {
    if (asTargets && f.battleShocked) continue;
    for (const m of f.models) if (m.alive && m.pos && asuryaniPsyker(state, m)) out.push(m);
  }
  return out;
}

registerStratagem({
  name: 'SOUL BRIDGE', cp: 1, category: 'Strategic Ploy', source: SPIRIT_CONCLAVE, turn: 'own', windows: ['phase/start'],
  // in the player's Command phase: a WRAITHBLADES, WRAITHGUARD or WRAITHLORD unit, while the army has an ASURYANI PSYKER model
  targets(g, w, p) {
    if (w.data?.phase !== 'command' || g.state.turn !== p || asuryaniPsykers(g.state, p, true).length === 0) return [];
    return unitsOnBattlefield(g.state, p).filter((u) => anyOf(u, GUIDED_WRAITHS) && !g.state.effects.some((e) => e.kind === SOUL_BRIDGE && e.unit === u.id));
  },
  // until the start of the player's next Command phase the unit counts as within 12" of the PSYKER model picked
  use(g, _w, p, u) {
    const options = asuryaniPsykers(g.state, p, true).map((m) => m.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'soul-bridge', player: p, prompt: `Soul Bridge: which PSYKER model guides ${u.name}?`, options, context: { unit: u.id } });
    g.addEffect(SOUL_BRIDGE, p, u.id, untilStartOfNextTurn(g, p), { psyker: option });
  },
});

// --- Enhancements (Spiritseer model only) ------------------------------------------------------------

/**
 * In the player's Command phase, the bearer's player selects one friendly WRAITH CONSTRUCT unit within 12" of
 * the bearer (`ask` makes the Enhancement's own decision; `keep` narrows the choices): the Enhancement's entry
 * is then the effect on that unit until the start of the player's next Command phase.
 */
function guideWraithUnit(g: Game, unit: UnitState, name: string, ask: (options: string[]) => string, keep: (w: UnitState) => boolean = () => true): void {
  const s = g.state;
  if (s.phase !== 'command' || s.turn !== unit.player) return;
  const bearers = enhancementBearers(unit, name);
  const options = unitsOnBattlefield(s, unit.player)
    .filter((w) => w.id !== unit.id && wraith(w) && keep(w) && bearers.some((m) => modelWithinRangeOf(s, m, w, 12))).map((w) => w.id);
  if (options.length === 0) return;
  g.addEffect(name, unit.player, ask(options), untilStartOfNextTurn(g, unit.player));
}

/** Light of Clarity: the selected unit's INFANTRY models get +1 OC, its MONSTER models +3. */
registerRule({
  name: 'Light of Clarity', kind: 'enhancement',
  phaseStart(g, unit, phase) { if (phase === 'command') guideWraithUnit(g, unit, 'Light of Clarity', (options) => g.decide({ kind: 'light-of-clarity', player: unit.player, prompt: `${unit.name}: Light of Clarity: which Wraith unit gains Objective Control?`, options, context: { unit: unit.id } }).option); },
  characteristic(which, value, ctx, src) {
    if (which !== 'OC' || !src.effect) return value;
    const kw = ctx.state.datasheets[ctx.model.datasheet].keywords;
    return value + (kw.includes('MONSTER') ? 3 : kw.includes('INFANTRY') ? 1 : 0);
  },
});

/** Stave of Kurnous: the selected unit's (not TITANIC) attacks have PRECISION on a Critical Wound (AttackPlan.criticalWoundPrecision). */
registerRule({
  name: 'Stave of Kurnous', kind: 'enhancement',
  phaseStart(g, unit, phase) {
    if (phase === 'command') guideWraithUnit(g, unit, 'Stave of Kurnous', (options) => g.decide({ kind: 'stave-of-kurnous', player: unit.player, prompt: `${unit.name}: Stave of Kurnous: which Wraith unit has PRECISION on Critical Wounds?`, options, context: { unit: unit.id } }).option, (w) => !hasKeyword(w, 'TITANIC'));
  },
  attack(plan, _ctx, src) { if (src.effect && src.role === 'attacker') plan.criticalWoundPrecision = true; },
});

const RUNE_BAND: readonly number[] = [18];
const NO_BAND: readonly number[] = [];

/**
 * Rune of Mists: ranged attacks on the selected unit from farther than 18" give it the Benefit of Cover, model
 * by model (attack groups at it split at 18", Rule.targetRangeBands).
 */
registerRule({
  name: 'Rune of Mists', kind: 'enhancement',
  targetRangeBands: (_ctx, src) => (src.effect ? RUNE_BAND : NO_BAND),
  phaseStart(g, unit, phase) { if (phase === 'command') guideWraithUnit(g, unit, 'Rune of Mists', (options) => g.decide({ kind: 'rune-of-mists', player: unit.player, prompt: `${unit.name}: Rune of Mists: which Wraith unit is veiled?`, options, context: { unit: unit.id } }).option); },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'defender' && !ctx.melee && ctx.distance > 18 + 1e-6) plan.cover = true;
  },
});

/** Higher Duty: once per turn, when an enemy unit ends a Normal, Advance or Fall Back move within 9" of the bearer, its unit may make a Normal move of up to 6". */
registerRule({
  name: 'Higher Duty', kind: 'enhancement',
  enemyMoveEnded: reactiveMoveHook('Higher Duty (used this turn)',
    (g, unit, mover, options) => g.decide({ kind: 'higher-duty', player: unit.player, prompt: `${unit.name}: Higher Duty (${mover.name} moved within 9"): a Normal move of up to 6"?`, options, context: { unit: unit.id, mover: mover.id } }).option,
    () => 6),
});
