/**
 * Windrider Host, an Aeldari detachment of the data export (not in RULES.md), in the engine's words: its rule
 * Ride the Wind, its six stratagems and its four Enhancements. Each is one registry entry; the stratagems'
 * effects are entries of kind 'effect'. Its keyword rule (Windriders are BATTLELINE) changes only how many of
 * them an army may take: src/data/muster-checks.ts reads it.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, modelBody } from '../../rules/battle/world.ts';
import { onUnitDestroyed } from '../../rules/damage.ts';
import { inReserves } from '../../rules/battle/reserves.ts';
import { gainExtraCp } from '../../rules/battle/command-points.ts';
import { isWithinOfPolygon } from '../../geometry/distance.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { arriveCloser, attackersAreBearer, bearerModel, bearerPartStands, isMonsterOrVehicle, moveOrFallBack, normalMoveChoices, selectUpTo } from '../helpers.ts';
import { uncappedReserves } from '../../data/deep-strike-grants.ts';

export const WINDRIDER_HOST = 'Windrider Host';
// named apart from the Autarch Skyrunner's own Ride the Wind (a datasheet ability of the same name)
const RIDE_THE_WIND = 'Ride the Wind (Windrider Host)';

/** An ASURYANI MOUNTED or VYPERS unit: the riders the detachment's rules name. */
export function rider(u: UnitState): boolean {
  return uncappedReserves(WINDRIDER_HOST, (k) => hasKeyword(u, k));
}

/** How many units Ride the Wind takes back into Strategic Reserves at the end of the opponent's turn, by battle size. */
const RIDE_BACK: Record<string, number> = { incursion: 1, 'strike-force': 2, onslaught: 3 };

/**
 * Ride the Wind: riders may wait in Reserves from Declare Battle Formations (as in Strategic Reserves, outside
 * their quarter of the points), and a rider set up from Reserves counts the battle round one higher (it may
 * arrive in the first battle round, and into the enemy deployment zone in the second). At the end of the
 * opponent's turn, up to two riders (Strike Force) not within Engagement Range go into Strategic Reserves.
 */
registerRule({
  name: RIDE_THE_WIND, kind: 'detachment-rule',
  allows: (perm, ctx) => perm === 'uncapped-strategic-reserves' && rider(ctx.unit),
  reservesRoundBonus: (ctx) => (rider(ctx.unit) ? 1 : 0),
  playerTurnEnd(g, owner, player) {
    if (player === owner) return;
    const s = g.state;
    selectUpTo(
      RIDE_BACK[s.mission.mode] ?? 2,
      (chosen) => unitsOnBattlefield(s, owner).filter((u) => rider(u) && !chosen.includes(u.id) && !isEngaged(s, u)),
      (options) => g.decide({ kind: 'ride-the-wind', player: owner, prompt: 'Ride the Wind: which unit goes into Strategic Reserves?', options }).option,
      (id) => g.emit({ type: 'unit-location', unit: id, location: 'strategic-reserves', embarkedIn: null }),
    );
  },
});

export const WINDRIDER_HOST_RULES = [RIDE_THE_WIND];

// --- Stratagems ----------------------------------------------------------------------------------

/** SPIRALLING EVASION's effect: the unit's models have a 4+ invulnerable save this phase. */
registerRule({
  name: 'Spiralling Evasion', kind: 'effect',
  attack(plan, _ctx, src) {
    if (src.role !== 'defender') return;
    plan.invulnerable = plan.invulnerable === null ? 4 : Math.min(plan.invulnerable, 4);
  },
});

registerStratagem({
  name: 'SPIRALLING EVASION', cp: 1, category: 'Battle Tactic', source: WINDRIDER_HOST, turn: 'opponent', windows: ['shooting/after-enemy-targets'],
  // the opponent's Shooting phase (not Fire Overwatch in their Charge phase)
  targets: (g, w, p) => (g.state.phase === 'shooting' ? targetedOwnUnits(g, w, p).filter(rider) : []),
  use(g, _w, p, u) { g.addEffect('Spiralling Evasion', p, u.id, g.untilEndOfPhase()); },
});

/** FOCUSED FIREPOWER's effect: the unit's attacks have +1 AP this phase. */
registerRule({ name: 'Focused Firepower', kind: 'effect', attack(plan, _ctx, src) { if (src.role === 'attacker') plan.ap -= 1; } });

registerStratagem({
  name: 'FOCUSED FIREPOWER', cp: 1, category: 'Battle Tactic', source: WINDRIDER_HOST, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && rider(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Focused Firepower', p, u.id, g.untilEndOfPhase()); },
});

/** DEATH FROM ON HIGH's effect: the unit's attacks may re-roll the Wound roll this phase. */
registerRule({
  name: 'Death from on High', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed'); },
});

registerStratagem({
  name: 'DEATH FROM ON HIGH', cp: 1, category: 'Battle Tactic', source: WINDRIDER_HOST, turn: 'either', windows: ['shooting/unit-selected', 'fight/unit-selected'],
  targets(g, w, p) {
    // the player's own Shooting phase, or either Fight phase; the unit was set up from Reserves this turn
    if (w.name === 'shooting/unit-selected' && g.state.turn !== p) return [];
    const u = windowOwnUnit(g, w, p);
    return u && rider(u) && u.flags.moved === 'arrived' ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Death from on High', p, u.id, g.untilEndOfPhase()); },
});

/** Effect on a MOUNTED unit of a Windrider Host army: it destroyed an enemy unit this phase (OVERFLIGHT's target). */
const DESTROYED_A_UNIT = 'Overflight (destroyed an enemy unit)';
registerRule({ name: DESTROYED_A_UNIT, kind: 'effect' });

// marked only in games where the destroyer's player has the detachment (the mark is an event)
onUnitDestroyed((g, unit, _component, by) => {
  const u = by ? g.state.units[by] : null;
  if (!u || u.player === unit.player || !g.state.players[u.player].rules.includes(RIDE_THE_WIND)) return;
  if (!hasKeyword(u, 'ASURYANI') || !hasKeyword(u, 'MOUNTED')) return;
  if (g.state.effects.some((e) => e.kind === DESTROYED_A_UNIT && e.unit === u.id)) return;
  g.addEffect(DESTROYED_A_UNIT, u.player, u.id, g.untilEndOfPhase());
});

registerStratagem({
  name: 'OVERFLIGHT', cp: 1, category: 'Strategic Ploy', source: WINDRIDER_HOST, turn: 'either', windows: ['phase/end'],
  targets(g, w, p) {
    // the end of the player's own Shooting phase, or of either Fight phase
    const phase = w.data?.phase;
    if (!(phase === 'fight' || (phase === 'shooting' && g.state.turn === p))) return [];
    return g.state.effects.filter((e) => e.kind === DESTROYED_A_UNIT && e.player === p && e.unit).map((e) => g.state.units[e.unit!])
      .filter((u) => onBattlefield(u) && !isEngaged(g.state, u));
  },
  use(g, _w, p, u) {
    // a Normal move of up to 7" (a unit within Engagement Range makes none)
    const options = normalMoveChoices(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'overflight', player: p, prompt: `${u.name}: Overflight: a Normal move of up to 7"?`, options, context: { unit: u.id } });
    moveOrFallBack(g, u, option, false, () => OVERFLIGHT_MOVE);
  },
});

/** OVERFLIGHT's move. */
export const OVERFLIGHT_MOVE = 7;

/** WIND OF BLADES' effect until the end of the turn: the unit may shoot and declare a charge after an Advance or a Fall Back. */
registerRule({
  name: 'Wind of Blades', kind: 'effect',
  allows: (perm) => perm === 'shoot-after-fall-back' || perm === 'charge-after-fall-back' || perm === 'charge-after-advance',
  // shooting after an Advance: its ranged weapons count as ASSAULT (the engine's test for it, as TIME TO STRIKE's)
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee',
});

registerStratagem({
  name: 'WIND OF BLADES', cp: 1, category: 'Strategic Ploy', source: WINDRIDER_HOST, turn: 'own', windows: ['movement/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && rider(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Wind of Blades', p, u.id, g.untilEndOfTurn()); },
});

/** DARING RIDERS' effect this phase: set up from Reserves anywhere more than 6" from enemy units; within 9" of them, no charge this turn. */
registerRule({ name: 'Daring Riders', kind: 'effect', ...arriveCloser(6) });

registerStratagem({
  name: 'DARING RIDERS', cp: 1, category: 'Strategic Ploy', source: WINDRIDER_HOST, turn: 'own', windows: ['movement/reinforcements-start'],
  targets: (g, _w, p) => g.state.unitOrder.map((id) => g.state.units[id]).filter((u) => u.player === p && inReserves(u) && rider(u)),
  // until the end of the turn: the mark that it arrived within 9" lasts the turn, and it arrives this phase or not at all
  use(g, _w, p, u) { g.addEffect('Daring Riders', p, u.id, g.untilEndOfTurn()); },
});

// --- Enhancements ----------------------------------------------------------------------------------

/** Firstdrawn Blade: models in the bearer's unit have Scouts 9". */
registerRule({
  name: 'Firstdrawn Blade', kind: 'enhancement',
  scouts: (ctx) => (bearerPartStands(ctx.unit, 'Firstdrawn Blade') ? 9 : 0),
});

/** Mirage Field: attacks that target the bearer's unit have -1 to hit. */
registerRule({
  name: 'Mirage Field', kind: 'enhancement',
  attack(plan, ctx, src) { if (src.role === 'defender' && bearerPartStands(ctx.target, 'Mirage Field')) plan.hitModifier -= 1; },
});

/** Seersight Strike: the bearer's Psychic weapons have ANTI-MONSTER 2+ and ANTI-VEHICLE 2+. */
registerRule({
  name: 'Seersight Strike', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !plan.tags.includes('PSYCHIC') || !isMonsterOrVehicle(ctx.target) || !attackersAreBearer(ctx.attacker, ctx.attackers, 'Seersight Strike')) return;
    plan.criticalWoundOn = Math.min(plan.criticalWoundOn, 2);
  },
});

/**
 * Echoes of Ulthanesh: in its player's Command phase, a D6, +1 with the bearer outside its own deployment zone
 * and +1 more inside the opponent's: on a 5+ its player gains 1CP (within the CP cap). The bearer's model is
 * read as outside a zone when no part of its base is in it (and inside when any part is).
 */
registerRule({
  name: 'Echoes of Ulthanesh', kind: 'enhancement',
  phaseStart(g, unit, phase) {
    const s = g.state;
    const bearer = bearerModel(unit, 'Echoes of Ulthanesh');
    if (phase !== 'command' || s.turn !== unit.player || !bearer) return;
    const body = modelBody(s, bearer);
    const zone = (pl: number) => s.board.deploymentZones.find((z) => z.player === pl)?.polygon;
    const own = zone(unit.player);
    const theirs = zone(opponent(unit.player));
    const bonus = (own && isWithinOfPolygon(body, own, 0) ? 0 : 1) + (theirs && isWithinOfPolygon(body, theirs, 0) ? 1 : 0);
    const [roll] = g.dice.d6(1, 'other', unit.player, unit.id, 'Echoes of Ulthanesh');
    if (roll + bonus >= 5) gainExtraCp(g, unit.player, 'Echoes of Ulthanesh');
  },
});
