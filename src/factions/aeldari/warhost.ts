/**
 * Warhost, the Asuryani detachment of the data export (not in RULES.md), in the engine's words: its rule
 * Martial Grace, its six stratagems and its four Enhancements. Each is one registry entry; the stratagems'
 * effects are entries of kind 'effect'. Martial Grace and Timeless Strategist change the Battle Focus army
 * rule (./battle-focus.ts) through its bonuses (./battle-focus-bonuses.ts). Three stratagems share their
 * names with the Battle Host's (./detachments.ts) and SKYBORNE SANCTUARY with the Aspect Host's
 * (./aspect-host.ts): the Warhost's differ in cost or target, and reuse those effects where they are the same.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, PlayerIndex, UnitState } from '../../core/state.ts';
import { profileHas } from '../../data/datasheet.ts';
import { BOARD_EDGES, isWhollyWithinOfEdge } from '../../geometry/distance.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedInOpponentsShootingOrFight, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, modelBody } from '../../rules/battle/world.ts';
import { attackersAreBearer, bearerComponent, bearerPartStands, moveOrFallBack, normalMoveChoices, registerFirstDeathReturn, type Destination } from '../helpers.ts';
import { registerBattleFocusBonus } from './battle-focus-bonuses.ts';
import { SKYBORNE_SANCTUARY_PLAY } from './aspect-host.ts';

export const WARHOST = 'Warhost';
const MARTIAL_GRACE = 'Martial Grace';

export const WARHOST_RULES = [MARTIAL_GRACE];

const asuryani = (u: UnitState) => hasKeyword(u, 'ASURYANI');

/** Does the player play this detachment? */
function playsWarhost(state: GameState, p: PlayerIndex): boolean {
  return state.players[p].rules.includes(MARTIAL_GRACE);
}

/**
 * Martial Grace: one Battle Focus token more at the start of each battle round; Swift as the Wind gives 1"
 * more Move (3" in all) until the end of the phase; the D6 of an Agile Manoeuvre that rolls one (Fade Back,
 * Opportunity Seized: D6+1") gets +1, after any re-roll of it.
 */
registerRule({ name: MARTIAL_GRACE, kind: 'detachment-rule' });
registerBattleFocusBonus({
  rule: MARTIAL_GRACE,
  tokens: (s, p) => (playsWarhost(s, p) ? 1 : 0),
  manoeuvreRoll: (s, u) => (playsWarhost(s, u.player) ? 1 : 0),
  swiftAsTheWind: (s, u) => (playsWarhost(s, u.player) ? 1 : 0),
});

// --- Stratagems ----------------------------------------------------------------------------------

registerStratagem({
  name: 'LIGHTNING-FAST REACTIONS', cp: 1, category: 'Battle Tactic', source: WARHOST, turn: 'either',
  windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  // an ASURYANI unit (not WRAITH CONSTRUCT) the enemy targets in its Shooting phase or either Fight phase: -1 to the Hit rolls of attacks on it (Battle Host's effect)
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => asuryani(u) && !hasKeyword(u, 'WRAITH CONSTRUCT')),
  use(g, _w, p, u) { g.addEffect('Lightning-Fast Reactions', p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'FEIGNED RETREAT', cp: 1, category: 'Strategic Ploy', source: WARHOST, turn: 'own', windows: ['movement/after-own-move'],
  // an ASURYANI unit that just Fell Back may shoot and declare a charge this turn (Battle Host's effect)
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && u.flags.fellBack && asuryani(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Feigned Retreat', p, u.id, g.untilEndOfTurn()); },
});

/** FIRE AND FADE's restriction (the Warhost's): until the end of the turn the unit may not declare a charge nor embark. */
const FIRE_AND_FADE_RESTRICTIONS = 'Fire and Fade (Warhost)';
registerRule({ name: FIRE_AND_FADE_RESTRICTIONS, kind: 'effect', forbids: (perm) => perm === 'charge' || perm === 'embark' });

/** The units FIRE AND FADE may target: ASURYANI INFANTRY, not AIRCRAFT, ASURMEN or WRAITH CONSTRUCT. */
const fadingInfantry = (u: UnitState) => asuryani(u) && hasKeyword(u, 'INFANTRY') && !['AIRCRAFT', 'ASURMEN', 'WRAITH CONSTRUCT'].some((k) => hasKeyword(u, k));

registerStratagem({
  name: 'FIRE AND FADE', cp: 1, category: 'Strategic Ploy', source: WARHOST, turn: 'own', windows: ['shooting/after-own-shot'],
  phases: ['shooting'],
  // in the player's Shooting phase, the unit that has just shot, with somewhere to go
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    if (!u || !fadingInfantry(u)) return [];
    return normalMoveChoices(g.state, u).length > 1 ? [u] : [];
  },
  // a Normal move of up to D6+1" toward a point the player picks (decision fire-and-fade-move; the D6 is rolled once it is chosen)
  use(g, _w, p, u) {
    g.addEffect(FIRE_AND_FADE_RESTRICTIONS, p, u.id, g.untilEndOfTurn());
    const options = normalMoveChoices(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide<{ none: true } | Destination>({
      kind: 'fire-and-fade-move', player: p, prompt: `Fire and Fade: where does ${u.name} move (D6+1")?`, options, context: { unit: u.id },
    });
    moveOrFallBack(g, g.state.units[u.id], option, false, () => 1 + g.dice.d6(1, 'other', p, u.id, 'Fire and Fade (D6+1")')[0]);
  },
});

/**
 * BLITZING FIREPOWER's effect this phase: the unit's ranged attacks at an enemy unit within 12" have SUSTAINED
 * HITS 1; a weapon that has SUSTAINED HITS already (printed or given by another rule) scores a Critical Hit on
 * an unmodified 5+ instead. The range
 * is each model's: a weapon "equipped by models in your unit" targets the unit, so the unit's ranged attack
 * groups split at 12" (attackRangeBands) and a group's distance, from its closest model, is each of its
 * models' side of 12".
 */
registerRule({
  name: 'Blitzing Firepower', kind: 'effect',
  attackRangeBands: () => BLITZING_BAND,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.distance > 12 + 1e-6) return;
    // "already has that ability": printed, or given by another rule (Dire Avengers' Bladestorm within half range:
    // the unit's abilities, and effects created before this one, have set the plan's SUSTAINED HITS by now)
    if (profileHas(ctx.profile, 'SUSTAINED HITS') || plan.sustainedHits > 0) plan.criticalHitOn = Math.min(plan.criticalHitOn, 5);
    else plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

const BLITZING_BAND: readonly number[] = [12];

registerStratagem({
  name: 'BLITZING FIREPOWER', cp: 1, category: 'Battle Tactic', source: WARHOST, turn: 'own', windows: ['shooting/unit-selected'],
  phases: ['shooting'],
  // as an ASURYANI unit is selected to shoot in the player's own Shooting phase
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && !u.flags.shot && asuryani(u) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Blitzing Firepower', p, u.id, g.untilEndOfPhase()); },
});

/** SKYBORNE SANCTUARY: as the Aspect Host's (same cost, target and effect). */
registerStratagem({
  name: 'SKYBORNE SANCTUARY', cp: 1, category: 'Strategic Ploy', source: WARHOST, turn: 'either', windows: ['phase/end'], ...SKYBORNE_SANCTUARY_PLAY,
});

/** Every alive model of the unit is wholly within `inches` of a battlefield edge (any edge, each its own). */
export function whollyWithinOfEdges(state: GameState, u: UnitState, inches: number): boolean {
  const board = state.board;
  return u.models.every((m) => !m.alive || (m.pos !== null && BOARD_EDGES.some((e) => isWhollyWithinOfEdge(modelBody(state, m), e, inches, board))));
}

/**
 * WEBWAY TUNNEL, at the end of the opponent's Fight phase: an ASURYANI INFANTRY unit wholly within 9" of the
 * battlefield edges, not within Engagement Range of an enemy unit, goes into Strategic Reserves (it arrives as
 * any unit there; still there at the end of the battle, it counts as destroyed: core rules).
 */
registerStratagem({
  name: 'WEBWAY TUNNEL', cp: 1, category: 'Strategic Ploy', source: WARHOST, turn: 'opponent', windows: ['phase/end'],
  targets(g, w, p) {
    if (w.data?.phase !== 'fight') return [];
    const s = g.state;
    return unitsOnBattlefield(s, p).filter((u) => asuryani(u) && hasKeyword(u, 'INFANTRY') && !isEngaged(s, u) && whollyWithinOfEdges(s, u, 9));
  },
  use(g, _w, _p, u) { g.emit({ type: 'unit-location', unit: u.id, location: 'strategic-reserves', embarkedIn: null }); },
});

// --- Enhancements ----------------------------------------------------------------------------------

const PHOENIX_GEM = 'Phoenix Gem';
/** Effect (army-wide, params: model, leader, bodyguard, x, y): the Phoenix Gem's bearer fell this phase (as Unquenchable Resolve's). */
export const PHOENIX_GEM_PENDING = 'Phoenix Gem (fallen)';

/**
 * Phoenix Gem: the first time the bearer is destroyed (on the battlefield, or in a destroyed transport with no
 * room to disembark: where the transport stood), at the end of that phase a D6 is
 * rolled; on a 2+ it is set back up with its full wounds as near as the planner can to where it fell, not
 * within Engagement Range of an enemy unit (a Leader rejoins the Bodyguard unit he led if it is still there),
 * as Fuegan's Unquenchable Resolve (registerFirstDeathReturn).
 */
registerFirstDeathReturn({ name: PHOENIX_GEM, kind: 'enhancement' }, PHOENIX_GEM_PENDING, (unit, model) => bearerComponent(unit, PHOENIX_GEM)?.unit === model.origin);

const TIMELESS_STRATEGIST = 'Timeless Strategist';

/** The player's unit holding the living bearer of the Enhancement, on the battlefield or in a TRANSPORT that is. */
function bearerOnBattlefield(state: GameState, p: PlayerIndex, enhancement: string): boolean {
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.player !== p) continue;
    const c = bearerComponent(u, enhancement);
    if (!c || !u.models.some((m) => m.alive && m.origin === c.unit)) continue;
    if (u.location === 'battlefield') return true;
    const t = u.location === 'embarked' && u.embarkedIn ? state.units[u.embarkedIn] : null;
    if (t && t.location === 'battlefield') return true;
  }
  return false;
}

/** Timeless Strategist: one Battle Focus token more at the start of the battle round while the bearer is on the battlefield (or in a TRANSPORT there). */
registerRule({ name: TIMELESS_STRATEGIST, kind: 'enhancement' });
registerBattleFocusBonus({ rule: TIMELESS_STRATEGIST, tokens: (s, p) => (bearerOnBattlefield(s, p, TIMELESS_STRATEGIST) ? 1 : 0) });

const GIFT_OF_FORESIGHT = 'Gift of Foresight';

/** Gift of Foresight: once per battle round, COMMAND RE-ROLL on the bearer's unit costs 0CP (the use is kept in the player's rule state). */
registerRule({
  name: GIFT_OF_FORESIGHT, kind: 'enhancement',
  freeCommandReroll: (ctx) => bearerPartStands(ctx.unit, GIFT_OF_FORESIGHT) && ctx.state.players[ctx.unit.player].ruleState[GIFT_OF_FORESIGHT] !== ctx.state.round,
  freeCommandRerollUsed(g: Game, unit) { g.emit({ type: 'rule-state', player: unit.player, key: GIFT_OF_FORESIGHT, value: g.state.round }); },
});

const PSYCHIC_DESTROYER = 'Psychic Destroyer';

/** Psychic Destroyer: +1 Damage to the bearer's ranged PSYCHIC weapons. */
registerRule({
  name: PSYCHIC_DESTROYER, kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !profileHas(ctx.profile, 'PSYCHIC') || !attackersAreBearer(ctx.attacker, ctx.attackers, PSYCHIC_DESTROYER)) return;
    plan.damageBonus += 1;
  },
});
