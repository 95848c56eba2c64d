/**
 * Auxiliary Cadre, a T'au Empire detachment of the data export (not in RULES.md), in the engine's words:
 * its rule Integrated Command Structure (the two auras it gives), its six stratagems and its Enhancements.
 * Each is one registry entry; the stratagems' effects are entries of kind 'effect'.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, PlayerIndex, UnitState } from '../../core/state.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { allUnits, hasKeyword, onBattlefield, unitMove, unitsOnBattlefield, wasEligibleToFight } from '../../rules/battle/units.ts';
import { boardOf, unitDistance, unitGapLowerBound, unitSees } from '../../rules/battle/world.ts';
import { bearerModel, bearerPartStands, modelWithinRangeOf, moveOrFallBack, moveOrFallBackChoices, selectUpTo, unitWhollyWithin, untilStartOfNextTurn } from '../helpers.ts';
import { FOR_THE_GREATER_GOOD } from './army-rule.ts';
import { DEEP_STRIKE_GRANTS } from '../../data/deep-strike-grants.ts';
import { disembarkedThisTurn } from '../../rules/battle/transports.ts';

export const AUXILIARY_CADRE = 'Auxiliary Cadre';
export const INTEGRATED_COMMAND_STRUCTURE = 'Integrated Command Structure';

/** A KROOT or VESPID STINGWINGS unit: the cadre's auxiliaries. */
export function auxiliary(u: UnitState): boolean {
  return hasKeyword(u, 'KROOT') || hasKeyword(u, 'VESPID STINGWINGS');
}

/** A T'AU EMPIRE unit that is no auxiliary (the units that give Localised Stealth Projectors, and GUIDED FIRE's). */
function tauProper(u: UnitState): boolean {
  return hasKeyword(u, "T'AU EMPIRE") && !auxiliary(u);
}

// --- Integrated Command Structure ---------------------------------------------------------------

/**
 * The answers of the two auras, kept while the state's geometry (positions, models alive, the board) stays
 * the same: the shooting phase asks them for every attack group and every shooter.
 */
const auraCache = new WeakMap<GameState, { version: number; board: object; answers: Map<string, boolean> }>();

function cached(state: GameState, key: string, compute: () => boolean): boolean {
  const board = boardOf(state);
  let c = auraCache.get(state);
  if (!c || c.version !== state.geometryVersion || c.board !== board) auraCache.set(state, (c = { version: state.geometryVersion, board, answers: new Map() }));
  let v = c.answers.get(key);
  if (v === undefined) c.answers.set(key, (v = compute()));
  return v;
}

/** Targeting Triangulation's range. */
export const TRIANGULATION_RANGE = 9;

/** Is the enemy unit within 9" of and visible to an auxiliary unit of `player` on the battlefield? */
export function triangulated(state: GameState, player: PlayerIndex, enemy: UnitState): boolean {
  return cached(state, `t|${player}|${enemy.id}`, () => {
    for (const k of unitsOnBattlefield(state, player)) {
      if (!auxiliary(k) || unitGapLowerBound(state, k, enemy) > TRIANGULATION_RANGE + 1e-6) continue;
      if (unitDistance(state, k, enemy) <= TRIANGULATION_RANGE + 1e-6 && unitSees(state, k, enemy)) return true;
    }
    return false;
  });
}

/** Localised Stealth Projectors: how close a shooter must be, and how near the cover unit is. */
export const PROJECTORS_RANGE = 18;
export const PROJECTORS_AURA = 6;

/** Is the auxiliary unit wholly within 6" of, and visible to, a T'AU EMPIRE unit of its army that is no auxiliary? */
export function projected(state: GameState, unit: UnitState): boolean {
  return cached(state, `p|${unit.id}`, () => {
    if (!onBattlefield(unit)) return false;
    for (const t of unitsOnBattlefield(state, unit.player)) {
      if (!tauProper(t) || unitGapLowerBound(state, t, unit) > PROJECTORS_AURA + 1e-6) continue;
      if (unitWhollyWithin(state, unit, t, PROJECTORS_AURA) && unitSees(state, t, unit)) return true;
    }
    return false;
  });
}

/**
 * Integrated Command Structure, the two auras it gives, played as one rule of the player:
 * - Targeting Triangulation (each KROOT and VESPID STINGWINGS unit): a ranged attack of a friendly T'AU
 *   EMPIRE unit that is no auxiliary and not TITANIC, at an enemy unit within 9" of and visible to one of
 *   those units, has its AP improved by 1 (once, however many of them see it: auras do not stack).
 * - Localised Stealth Projectors (each other T'AU EMPIRE unit): an auxiliary unit wholly within 6" of and
 *   visible to such a unit can be the target of a ranged attack only from a model within 18"
 *   (Rule.targetableFrom, asked of the target's player's rules).
 * Keywords are read per unit: a Kroot Shaper only leads Kroot units, so no unit mixes the two kinds.
 */
registerRule({
  name: INTEGRATED_COMMAND_STRUCTURE, kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    const a = ctx.attacker;
    if (!tauProper(a) || hasKeyword(a, 'TITANIC')) return;
    if (triangulated(ctx.state, a.player, ctx.target)) plan.ap -= 1;
  },
  targetableFrom: (ctx) => ctx.distance <= PROJECTORS_RANGE + 1e-6 || !auxiliary(ctx.unit) || !projected(ctx.state, ctx.unit),
});

// --- Stratagems ------------------------------------------------------------------------------

/** MULTISENSORY SCANNING's effect: the unit's attacks re-roll Wound rolls of 1; an auxiliary unit's re-roll the Wound roll. */
registerRule({
  name: 'Multisensory Scanning', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !src.effect) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, auxiliary(ctx.attacker) ? 'failed' : 'ones');
  },
});

registerStratagem({
  name: 'MULTISENSORY SCANNING', cp: 1, category: 'Battle Tactic', source: AUXILIARY_CADRE, turn: 'either',
  // its player's Shooting phase (a unit of theirs selected to shoot), or either Fight phase
  windows: ['shooting/unit-selected', 'fight/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && hasKeyword(u, "T'AU EMPIRE") ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Multisensory Scanning', p, u.id, g.untilEndOfPhase()); },
});

/**
 * ALIEN EXPERTISE's effect until the end of the turn: the unit may shoot after an Advance (its ranged
 * weapons count as ASSAULT, the engine's test for shooting after an Advance, as TIME TO STRIKE's), and an
 * auxiliary unit may also declare a charge after it.
 */
registerRule({
  name: 'Alien Expertise', kind: 'effect',
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee',
  allows: (perm, ctx) => perm === 'charge-after-advance' && auxiliary(ctx.unit),
});

registerStratagem({
  name: 'ALIEN EXPERTISE', cp: 1, category: 'Battle Tactic', source: AUXILIARY_CADRE, turn: 'own', windows: ['movement/unit-selected'],
  // used as the unit is selected to move, so that it can Advance with it
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && hasKeyword(u, "T'AU EMPIRE") ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Alien Expertise', p, u.id, g.untilEndOfTurn()); },
});

/** GUIDED FIRE's range: the unit wholly within 9" of an auxiliary unit gets +2 Strength rather than +1. */
export const GUIDED_FIRE_RANGE = 9;

/** GUIDED FIRE's Strength bonus for the unit now: 2 when wholly within 9" of an auxiliary unit of its army, else 1. */
export function guidedFireBonus(state: GameState, u: UnitState): number {
  for (const k of unitsOnBattlefield(state, u.player)) if (auxiliary(k) && unitWhollyWithin(state, u, k, GUIDED_FIRE_RANGE)) return 2;
  return 1;
}

/**
 * GUIDED FIRE's effect: +params.strength to the Strength of the unit's ranged attacks. Whether the unit is
 * wholly within 9" of an auxiliary unit is read when the stratagem is used (its shooters do not move in the phase).
 */
registerRule({
  name: 'Guided Fire', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !src.effect) return;
    plan.strength += Number(src.effect.params.strength);
  },
});

registerStratagem({
  name: 'GUIDED FIRE', cp: 1, category: 'Battle Tactic', source: AUXILIARY_CADRE, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && tauProper(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Guided Fire', p, u.id, g.untilEndOfPhase(), { strength: guidedFireBonus(g.state, u) }); },
});

/** INTERLOCKING MANOUEVRES' Normal move (a Fall Back is the unit's Move, as the core rules have it). */
export const INTERLOCKING_MOVE = 6;

/**
 * INTERLOCKING MANOUEVRES, at the end of a Fight phase (either player's): a T'AU EMPIRE unit that was
 * eligible to fight in it (wasEligibleToFight: also one whose enemies fell before it was selected) makes a
 * Normal move of up to 6" when no enemy unit is within Engagement Range of it, else a Fall Back move (with its
 * Desperate Escape tests). It cannot embark at the end of that move if it disembarked this turn.
 */
registerStratagem({
  name: 'INTERLOCKING MANOUEVRES', cp: 1, category: 'Strategic Ploy', source: AUXILIARY_CADRE, turn: 'either', windows: ['phase/end'],
  targets(g, w, p) {
    if (w.data?.phase !== 'fight') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => hasKeyword(u, "T'AU EMPIRE") && wasEligibleToFight(u) && moveOrFallBackChoices(g.state, u).options.length > 0);
  },
  use(g, _w, p, u) {
    const { fallBack, options } = moveOrFallBackChoices(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide({
      kind: 'interlocking-manoeuvres', player: p, prompt: `Interlocking Manouevres: ${fallBack ? 'a Fall Back' : 'a Normal move of up to 6"'} for ${u.name}?`,
      options, context: { unit: u.id },
    });
    moveOrFallBack(g, u, option, fallBack, () => (fallBack ? unitMove(g.state, u) : INTERLOCKING_MOVE), !disembarkedThisTurn(u));
  },
});

/** PHEROMONE WAYPOINTS' effect: an Advance is not rolled: +6" instead (as AGGRESSIVE MOBILITY). */
registerRule({ name: 'Pheromone Waypoints', kind: 'effect', fixedAdvance: () => 6 });

registerStratagem({
  name: 'PHEROMONE WAYPOINTS', cp: 1, category: 'Strategic Ploy', source: AUXILIARY_CADRE, turn: 'own', windows: ['movement/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && auxiliary(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Pheromone Waypoints', p, u.id, g.untilEndOfPhase()); },
});

/** EXPERIMENTAL MODIFICATIONS' effect: the AP of the unit's attacks (ranged and melee) improved by 1. */
registerRule({
  name: 'Experimental Modifications', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker' && src.effect) plan.ap -= 1; },
});

registerStratagem({
  name: 'EXPERIMENTAL MODIFICATIONS', cp: 1, category: 'Strategic Ploy', source: AUXILIARY_CADRE, turn: 'either',
  windows: ['shooting/unit-selected', 'fight/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && auxiliary(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Experimental Modifications', p, u.id, g.untilEndOfPhase()); },
});

// --- Enhancements ----------------------------------------------------------------------------

/** Fanatical Convert: the bearer's unit has For the Greater Good (given at muster, Rule.grantsAbilities). */
registerRule({ name: 'Fanatical Convert', kind: 'enhancement', grantsAbilities: [FOR_THE_GREATER_GOOD] });

const ADMIRED_LEADER = 'Admired Leader';
/** Admired Leader's range from the bearer. */
export const ADMIRED_LEADER_RANGE = 12;
/** The effect on the unit the bearer's player selected. */
export const ADMIRED = 'Admired Leader (selected)';

/** The auxiliary units of the army on the battlefield within 12" of the bearer's model (Admired Leader's options). */
export function admiredLeaderOptions(state: GameState, unit: UnitState): UnitState[] {
  const bearer = bearerModel(unit, ADMIRED_LEADER);
  if (!bearer) return [];
  return unitsOnBattlefield(state, unit.player).filter((u) => auxiliary(u) && modelWithinRangeOf(state, bearer, u, ADMIRED_LEADER_RANGE));
}

/**
 * Admired Leader: in its player's Command phase (at its start), the player may select a KROOT or VESPID
 * STINGWINGS unit within 12" of the bearer; until the start of their next Command phase its models' Leadership
 * is improved by 1, and while it is not Battle-shocked their Objective Control is 1 higher.
 */
registerRule({
  name: ADMIRED_LEADER, kind: 'enhancement',
  phaseStart(g, unit, phase) {
    if (phase !== 'command' || g.state.turn !== unit.player) return;
    const units = admiredLeaderOptions(g.state, unit);
    if (units.length === 0) return;
    const { option } = g.decide<{ none: true } | { unit: string }>({
      kind: 'admired-leader', player: unit.player, prompt: `${unit.name}: Admired Leader: which KROOT or VESPID STINGWINGS unit?`,
      options: [{ none: true }, ...units.map((u) => ({ unit: u.id }))], context: { unit: unit.id },
    });
    if ('unit' in option) g.addEffect(ADMIRED, unit.player, option.unit, untilStartOfNextTurn(g, unit.player));
  },
});

registerRule({
  name: ADMIRED, kind: 'effect',
  characteristic(which, value, ctx, src) {
    if (!src.effect) return value;
    if (which === 'Ld') return value - 1;
    if (which === 'OC' && !ctx.unit.battleShocked) return value + 1;
    return value;
  },
});

const TRANSPONDER_LOCK_MODULE = 'Transponder Lock Module';
/** Transponder Lock Module: in battle round 1, within 12" of a friendly auxiliary unit. */
const TRANSPONDER_LEAVE = { range: 12, near: auxiliary };

/**
 * Transponder Lock Module: the bearer's unit may also arrive by Deep Strike in its player's first Movement
 * phase (battle round 1, when the core rules let no unit arrive), then set up within 12" of a friendly KROOT or
 * VESPID STINGWINGS unit (and more than 9" from enemy models, as any Deep Strike): Rule.firstRoundDeepStrike.
 * From battle round 2 it arrives as any unit with Deep Strike (the engine keeps no mission rule that would
 * forbid its second or third Movement phase).
 */
registerRule({
  name: TRANSPONDER_LOCK_MODULE, kind: 'enhancement',
  firstRoundDeepStrike: (ctx) => (bearerPartStands(ctx.unit, TRANSPONDER_LOCK_MODULE) ? TRANSPONDER_LEAVE : null),
});

const STUDENT_OF_KAUYON = 'Student of Kauyon';
/** The effect on each unit the bearer's player selected: its models have Deep Strike. */
export const STUDENT_SELECTED = 'Student of Kauyon (selected)';
const STUDENT = DEEP_STRIKE_GRANTS.find((x) => x.enhancement === STUDENT_OF_KAUYON)!;
/** How many units Student of Kauyon gives Deep Strike. */
export const STUDENT_UNITS = STUDENT.units;

/**
 * Student of Kauyon: in the Declare Battle Formations step the bearer's player may select up to three KROOT
 * CARNIVORES or KROOT FARSTALKERS units of the army; their models have Deep Strike for the battle (the effect
 * allows 'deep-strike': they may then be set up in Deep Strike Reserves and arrive as such units do). When the
 * scenario declares the formations, the units it names in Deep Strike Reserves are the ones selected (its
 * loader let in only those the Enhancement can select: src/data/deep-strike-grants.ts).
 */
registerRule({
  name: STUDENT_OF_KAUYON, kind: 'enhancement',
  declareBattleFormations(g, unit, deepStrike) {
    if (!bearerPartStands(unit, STUDENT_OF_KAUYON)) return;
    const s = g.state;
    const selectable = (u: UnitState) => u.location !== 'attached' && u.location !== 'destroyed' &&
      STUDENT.keywords.some((k) => hasKeyword(u, k)) && !u.abilities.includes('Deep Strike');
    if (deepStrike) {
      const named = allUnits(s, unit.player).filter((u) => deepStrike.includes(u.id) && selectable(u)).slice(0, STUDENT_UNITS);
      for (const u of named) g.addEffect(STUDENT_SELECTED, unit.player, u.id, { at: 'end-of-battle' });
      return;
    }
    selectUpTo(
      STUDENT_UNITS,
      (chosen) => allUnits(s, unit.player).filter((u) => !chosen.includes(u.id) && selectable(u)),
      (options) => g.decide({
        kind: 'student-of-kauyon', player: unit.player, prompt: `${unit.name}: Student of Kauyon: give a unit Deep Strike? (or stop)`, options, context: { unit: unit.id },
      }).option,
      (id) => g.addEffect(STUDENT_SELECTED, unit.player, id, { at: 'end-of-battle' }),
    );
  },
});

registerRule({ name: STUDENT_SELECTED, kind: 'effect', allows: (perm) => perm === 'deep-strike' });

export const AUXILIARY_CADRE_RULES = [INTEGRATED_COMMAND_STRUCTURE];
