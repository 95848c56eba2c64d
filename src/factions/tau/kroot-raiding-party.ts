/**
 * Kroot Raiding Party, a T'au Empire Boarding Actions detachment (from the data export), in the engine's words:
 * its rule Guerrilla Ambushers, its four stratagems and its two Enhancements. Allowed only in Boarding Actions
 * games (the export types it so; src/data/scenario.ts checks). Each is one registry entry; the stratagems'
 * effects are entries of kind 'effect'.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type Expiry, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import type { Game } from '../../core/game.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { windowOwnUnit, windowOwnUnitWith } from '../../rules/stratagems/targets.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { unitDistance, unitSees } from '../../rules/battle/world.ts';
import { enemiesBeyondHatchway, hatchwayById, modelSeesHatchway } from '../../rules/battle/hatchways.ts';
import { NO_OVERWATCH } from '../../rules/battle/boarding.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { attackersAre, bearerComponent, originOnBattlefield } from '../helpers.ts';

export const KROOT_RAIDING_PARTY = 'Kroot Raiding Party';

const kroot = (u: UnitState) => hasKeyword(u, 'KROOT');

// --- Detachment rule ---------------------------------------------------------------------------

/** Guerrilla Ambushers: a D6 of 4+ stops an enemy unit selected to fire Overwatch from shooting KROOT units that turn. */
registerRule({ name: 'Guerrilla Ambushers', kind: 'detachment-rule', missing: NO_OVERWATCH });

export const KROOT_RAIDING_PARTY_RULES = ['Guerrilla Ambushers'];

// --- Stratagems ----------------------------------------------------------------------------------

/** BOARDING BLADES' effect: the unit's melee attacks have +1 AP this phase, and one more on a Critical Wound. */
registerRule({
  name: 'Boarding Blades', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee) return;
    plan.ap -= 1;
    plan.criticalWoundAp += 1;
  },
});

registerStratagem({
  name: 'BOARDING BLADES', cp: 1, category: 'Battle Tactic', source: KROOT_RAIDING_PARTY, turn: 'either', windows: ['fight/unit-selected'],
  // offered as the unit is selected to fight, before it piles in or makes any attack
  targets: windowOwnUnitWith('KROOT'),
  use(g, _w, p, u) { g.addEffect('Boarding Blades', p, u.id, g.untilEndOfPhase()); },
});

/**
 * SWEEPING AMBUSH's effect: the unit's Pile-in and Consolidation moves reach 6" this phase. The rest of the
 * stratagem (a Consolidation may end within Engagement Range of the closest enemy unit its unit did not see
 * as it started) is what the engine allows every unit: its Consolidation moves toward the closest enemy
 * model, seen or not.
 */
registerRule({
  name: 'Sweeping Ambush', kind: 'effect',
  pileInMove: () => ({ distance: 6, closestUnitContact: false }),
});

registerStratagem({
  name: 'SWEEPING AMBUSH', cp: 1, category: 'Strategic Ploy', source: KROOT_RAIDING_PARTY, turn: 'either', windows: ['fight/unit-selected'],
  targets: windowOwnUnitWith('KROOT'),
  use(g, _w, p, u) { g.addEffect('Sweeping Ambush', p, u.id, g.untilEndOfPhase()); },
});

const TANGLEBOMB_BOLAS = 'Tanglebomb Bolas';
/** How far (and seen) an enemy unit may be from the KROOT unit for TANGLEBOMB BOLAS. */
export const TANGLEBOMB_RANGE = 9;

/**
 * TANGLEBOMB BOLAS' effect on the enemy unit: its models' Move characteristic is halved (a 'divide' stage:
 * after any rule that sets it, before any that adds, the fraction rounded up at the end as the Rules
 * Commentary says: M7" becomes 4", and 6" with Swift as the Wind's +2"), and its Advance and Charge rolls are
 * halved (rounded up, before modifiers).
 */
registerRule({
  name: TANGLEBOMB_BOLAS, kind: 'effect',
  characteristic: (which, v) => (which === 'M' ? v / 2 : v),
  characteristicStage: { M: 'divide' },
  halvesRoll: () => true,
});

/** The enemy units within 9" of the KROOT unit that it sees (TANGLEBOMB BOLAS' choices), in unit order. */
export function tanglebombTargets(s: GameState, u: UnitState): UnitState[] {
  return unitsOnBattlefield(s, opponent(u.player)).filter((e) => unitDistance(s, u, e) <= TANGLEBOMB_RANGE + 1e-6 && unitSees(s, u, e));
}

/** "Until the start of your next Shooting phase", said in `player`'s Shooting phase: the end of their next Movement phase. */
function untilStartOfNextShootingPhase(g: Game, player: PlayerIndex): Expiry {
  return { at: 'end-of-phase', round: g.state.round + 1, turn: player, phase: 'movement' };
}

registerStratagem({
  // offered at the start of the player's Shooting phase to the KROOT units that have an enemy unit in reach
  name: 'TANGLEBOMB BOLAS', cp: 1, category: 'Wargear', source: KROOT_RAIDING_PARTY, turn: 'own', windows: ['phase/start'],
  targets: (g, w, p) => (w.data?.phase !== 'shooting' ? [] : unitsOnBattlefield(g.state, p).filter((u) => kroot(u) && tanglebombTargets(g.state, u).length > 0)),
  use(g, _w, p, u) {
    const options = tanglebombTargets(g.state, u).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'tanglebomb-bolas', player: p, prompt: `${u.name}: Tanglebomb Bolas: which enemy unit?`, options, context: { unit: u.id } });
    const [roll] = g.dice.d6(1, 'other', p, u.id, 'Tanglebomb Bolas');
    if (roll >= 2) g.addEffect(TANGLEBOMB_BOLAS, p, option, untilStartOfNextShootingPhase(g, p));
  },
});

/**
 * The enemy units BRUTE FORCE strikes after the unit `u` opened the hatchway `hatchway` (its id): within 3" of
 * it, wholly on the other side from `u`, and seeing it (some model of the unit does), in unit order.
 */
export function bruteForceVictims(s: GameState, hatchway: unknown, u: UnitState): UnitState[] {
  const h = hatchwayById(s, hatchway);
  if (!h) return [];
  return enemiesBeyondHatchway(s, u, h, 3).filter((e) => e.models.some((m) => modelSeesHatchway(s, m, h, Infinity)));
}

/**
 * BRUTE FORCE: just after a KROOTOX RIDERS unit opened a hatchway in the player's Movement phase, a D6 for each
 * enemy unit within 3" of that hatchway, wholly on the other side of it and seeing it: 2-4 one mortal wound,
 * 5+ two. Offered only when there is such a unit (it would do nothing otherwise).
 */
registerStratagem({
  name: 'BRUTE FORCE', cp: 1, category: 'Strategic Ploy', source: KROOT_RAIDING_PARTY, turn: 'own', windows: ['movement/hatchway-opened'],
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && hasKeyword(u, 'KROOTOX RIDERS') && bruteForceVictims(g.state, w.data?.hatchway, u).length > 0 ? [u] : [];
  },
  use(g, w, p, u) {
    for (const e of bruteForceVictims(g.state, w.data?.hatchway, u)) {
      const [roll] = g.dice.d6(1, 'other', p, e.id, 'Brute Force');
      const n = roll >= 5 ? 2 : roll >= 2 ? 1 : 0;
      const fresh = g.state.units[e.id];
      if (n > 0 && onBattlefield(fresh)) inflictMortalWounds(g, fresh, n, u.id);
    }
  },
});

// --- Enhancements ----------------------------------------------------------------------------------

const EXPERIENCED_LEADER = 'Experienced Leader';

/**
 * Experienced Leader: at the start of the first battle round the bearer's player picks an enemy unit on the
 * battlefield (decision `experienced-leader`); for the rest of the battle, while the bearer is on the
 * battlefield, KROOT models of the army may re-roll the Wound roll of their attacks at it. The entry is also
 * the effect on the army (params.units: the picked unit and its parts, kept if an Attached unit splits;
 * params.bearer: the bearer's own unit id).
 */
registerRule({
  name: EXPERIENCED_LEADER, kind: 'enhancement',
  battleStart(g, unit) {
    const c = bearerComponent(unit, EXPERIENCED_LEADER);
    if (!c) return;
    const options = unitsOnBattlefield(g.state, opponent(unit.player)).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({
      kind: 'experienced-leader', player: unit.player, prompt: `${unit.name}: Experienced Leader: which enemy unit?`, options, context: { unit: unit.id },
    });
    const prey = g.state.units[option];
    const units = [prey.id, ...prey.components.map((x) => x.unit).filter((id) => id !== prey.id)];
    g.addEffect(EXPERIENCED_LEADER, unit.player, null, { at: 'end-of-battle' }, { units, bearer: c.unit });
  },
  attack(plan, ctx, src) {
    const e = src.effect;
    if (!e || src.role !== 'attacker' || !(e.params.units as readonly string[]).includes(ctx.target.id)) return;
    if (!attackersAre(ctx.state, ctx.attackers, 'KROOT') || !originOnBattlefield(ctx.state, String(e.params.bearer))) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
  },
});

registerRule({
  name: 'Quill Marker', kind: 'enhancement',
  missing: "it lets KROOT units charge an enemy unit they cannot see; the engine's charges (Boarding Actions too) may target any enemy unit within 12\", seen or not, so its pick is not made",
});
