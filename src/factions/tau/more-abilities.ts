/**
 * More T'au Empire datasheet abilities (Razorshark Strike Fighter, Ta'unar Supremacy Armour, Tetras, Y'vahra
 * Battlesuit, XV9 Hazard Battlesuits, Sun Shark Bomber, Heavy Gun Drones, Barracuda, Tx42 Piranha, The Twin Lance) and the Starfire Cadre's Target
 * Optimisation Microdrones Enhancement, one registry entry each. Written from the data export, in the
 * engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { opponent, type GameState, type UnitState } from '../../core/state.ts';
import { hasKeyword, isMonsterOrVehicle, isUnitOrItsPart, onBattlefield, unitMove, unitsOnBattlefield, wasEligibleToFight } from '../../rules/battle/units.ts';
import { isClosestEligibleTarget } from '../../rules/battle/shooting.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { unitDistance } from '../../rules/battle/world.ts';
import { WALKER, bearerComponent, hitEnemies, modelWithinRangeOf, moveOrFallBack, moveOrFallBackChoices, movedOverMortalWounds, returnFireHooks, untilEndOfOpponentsNextTurn } from '../helpers.ts';
import { guidedInfo, onObserverSelected } from './army-rule.ts';
import { SLOWED_BY_TWO } from './detachments.ts';

// --- Razorshark Strike Fighter -------------------------------------------------------------------

/** Ground Strike Fighter: +1 to the Hit roll of its ranged attacks against a unit that cannot FLY (no FLY keyword). */
registerRule({
  name: 'Ground Strike Fighter', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && !hasKeyword(ctx.target, 'FLY')) plan.hitModifier += 1;
  },
});

// --- Ta'unar Supremacy Armour ----------------------------------------------------------------------

/** Coordinated Strike: while the unit is a Guided unit, its attacks against its Spotted unit re-roll Hit rolls of 1. */
registerRule({
  name: 'Coordinated Strike', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker') return;
    if (!isUnitOrItsPart(ctx.target, guidedInfo(ctx.state, ctx.attacker.id)?.spotted)) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
  },
});

// --- Tetras ------------------------------------------------------------------------------------------

const HIGH_INTENSITY = 'High-intensity Markerlights';

/**
 * High-intensity Markerlights: each time the Tetras become an Observer unit, until the end of the phase
 * their Guided unit's attacks against their Spotted unit may re-roll the Hit roll. The entry is also the
 * effect put on the Guided unit (params.spotted), as Forward Observers; as the Tetras' own ability it does
 * nothing.
 */
registerRule({
  name: HIGH_INTENSITY, kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || !isUnitOrItsPart(ctx.target, src.effect.params.spotted)) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});

onObserverSelected((g, observer, guided, spotted) => {
  if (observer.abilities.includes(HIGH_INTENSITY)) g.addEffect(HIGH_INTENSITY, observer.player, guided.id, g.untilEndOfPhase(), { spotted });
});

// --- Y'vahra Battlesuit ------------------------------------------------------------------------------

const NOVA_BURST = 'Nova Burst';
const NOVA_BURST_USED = 'Nova Burst used';
/** Effect on the Y'vahra: its Move is 18" until the end of the phase (read by the ability's own entry). */
const NOVA_BURST_ACTIVE = 'Nova Burst (Move 18")';

/**
 * Nova Burst: once per battle, just before the Y'vahra makes a Normal, Advance or Fall Back move of its
 * Movement phase (its destination chosen), its player may use it: until the end of the phase its Move
 * characteristic is 18". The use is the end-of-battle NOVA_BURST_USED effect. The Move is set by the
 * ability's entry, not by the effect's: a unit's abilities are walked before the effects on it, so that
 * modifiers from effects (Monofilament Web's -2") still apply to the 18". Other Normal moves (a rule's move
 * out of the Movement phase) do not offer it: no rule of the engine gives the Y'vahra one.
 */
registerRule({
  name: NOVA_BURST, kind: 'datasheet-ability',
  beforeMove(g, unit, mode, to) {
    if (g.state.effects.some((e) => e.kind === NOVA_BURST_USED && e.unit === unit.id)) return;
    const { option } = g.decide({
      kind: 'nova-burst', player: unit.player, prompt: `${unit.name}: Nova Burst (once per battle): Move 18" for this ${mode} move?`,
      options: ['keep', 'use'], context: { unit: unit.id, mode, to },
    });
    if (option !== 'use') return;
    g.addEffect(NOVA_BURST_USED, unit.player, unit.id, { at: 'end-of-battle' });
    g.addEffect(NOVA_BURST_ACTIVE, unit.player, unit.id, g.untilEndOfPhase());
  },
  characteristic(which, v, ctx, src) {
    if (which !== 'M' || src.effect) return v;
    return ctx.state.effects.some((e) => e.kind === NOVA_BURST_ACTIVE && e.unit === ctx.unit.id) ? 18 : v;
  },
});

registerRule({ name: NOVA_BURST_ACTIVE, kind: 'effect' });

// --- XV9 Hazard Battlesuits --------------------------------------------------------------------------

const STUNNED = 'Photon Casters (stunned)';

/**
 * Photon Casters: after the unit has shot in its Shooting phase, each enemy INFANTRY unit it hit is stunned
 * until the end of the opponent's next turn (the STUNNED effect: -2" Move, -2 to Advance and Charge rolls).
 * A unit is stunned or not: one already stunned by this player is not stunned twice (the new stun would
 * end at the same moment anyway).
 */
registerRule({
  name: 'Photon Casters', kind: 'datasheet-ability',
  afterShooting(g, unit, hit) {
    for (const e of hitEnemies(g, unit, hit, (x) => hasKeyword(x, 'INFANTRY'))) {
      if (g.state.effects.some((x) => x.kind === STUNNED && x.unit === e.id && x.player === unit.player)) continue;
      g.addEffect(STUNNED, unit.player, e.id, untilEndOfOpponentsNextTurn(g, unit.player));
    }
  },
});

/** Stunned: -2" Move, -2 to Advance and Charge rolls (as Shaken). */
registerRule({ name: STUNNED, kind: 'effect', ...SLOWED_BY_TWO });

// --- Sun Shark Bomber --------------------------------------------------------------------------------

/**
 * Pulse Bombs: each time the Sun Shark ends a Normal move, its player may select one enemy unit it moved
 * over and roll six D6: each 4+ inflicts 1 mortal wound on it. The engine plays no AIRCRAFT rules: the
 * bomber moves as the engine moves it, and its Normal moves of the Movement phase are the ones that count.
 */
registerRule({
  name: 'Pulse Bombs', kind: 'datasheet-ability',
  movedOver: movedOverMortalWounds('Pulse Bombs', (g, unit, options) => g.decide({
    kind: 'pulse-bombs', player: unit.player, prompt: `${unit.name}: Pulse Bombs on a unit it moved over?`, options, context: { unit: unit.id },
  }).option),
});

// --- Heavy Gun Drones --------------------------------------------------------------------------------

/**
 * Drone Escort: once per turn (for the army), in the opponent's Shooting phase, when a friendly T'AU EMPIRE
 * unit within 6" of a unit with this ability is selected as the target of ranged attacks, that unit may
 * answer: once the enemy unit has finished its attacks, it shoots at that unit alone (if it is an eligible
 * target), as Kroot Packmates. The Drones themselves count as such a unit (a unit is within 6" of itself).
 */
registerRule({
  name: 'Drone Escort', kind: 'datasheet-ability',
  ...returnFireHooks('Drone Escort', 'Drone Escort used', (t) => hasKeyword(t, "T'AU EMPIRE"), (g, unit, attacker) => g.decide({
    kind: 'drone-escort', player: unit.player, prompt: `${unit.name}: Drone Escort: shoot ${attacker.name} once it has shot (once per turn)?`,
    options: ['keep', 'use'] as const, context: { unit: unit.id, attacker: attacker.id },
  }).option),
});

// --- Starfire Cadre: Target Optimisation Microdrones -------------------------------------------------

const MICRODRONES = 'Target Optimisation Microdrones';
/** The units Target Optimisation Microdrones can help (the heuristic reads the same list). */
export const MICRODRONE_UNITS = ['FIRE WARRIOR', 'PATHFINDER TEAM', 'CADRE FIREBLADE'] as const;
const MICRODRONES_USED = 'Target Optimisation Microdrones used';

/**
 * Target Optimisation Microdrones (a Cadre Fireblade's): once per turn, in its player's Shooting phase, when
 * a friendly FIRE WARRIOR, PATHFINDER TEAM or CADRE FIREBLADE unit within 6" of the bearer (its own unit
 * among them) is selected to shoot, the player may use it: until the end of the phase the ranged weapons
 * of that unit's models have their AP improved by 1. The entry is also the effect on that unit.
 */
registerRule({
  name: MICRODRONES, kind: 'enhancement',
  friendSelectedToShoot(g, unit, shooter) {
    const s = g.state;
    if (s.phase !== 'shooting' || s.turn !== unit.player || !onBattlefield(shooter)) return;
    if (!MICRODRONE_UNITS.some((k) => hasKeyword(shooter, k))) return;
    if (s.effects.some((e) => e.kind === MICRODRONES_USED && e.player === unit.player)) return;
    const c = bearerComponent(unit, MICRODRONES);
    if (!c || !unit.models.some((m) => m.alive && m.origin === c.unit && modelWithinRangeOf(s, m, shooter, 6))) return;
    const { option } = g.decide({
      kind: 'target-optimisation-microdrones', player: unit.player, prompt: `${shooter.name}: Target Optimisation Microdrones (once per turn): AP +1 this phase?`,
      options: ['keep', 'use'], context: { unit: shooter.id, bearer: unit.id },
    });
    if (option !== 'use') return;
    g.addEffect(MICRODRONES_USED, unit.player, null, g.untilEndOfTurn());
    g.addEffect(MICRODRONES, unit.player, shooter.id, g.untilEndOfPhase());
  },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'attacker' && !ctx.melee) plan.ap -= 1;
  },
});

// --- Barracuda, Ta'unar Supremacy Armour, Tx42 Piranha ---------------------------------------------

/** Agile Dogfighter: attacks that target the Barracuda subtract 1 from the Hit roll. */
registerRule({
  name: 'Agile Dogfighter', kind: 'datasheet-ability',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.hitModifier -= 1; },
});

/** Super-heavy Walker: its Normal, Advance and Fall Back moves pass over models other than TITANIC ones and terrain up to 4" high (as Heavy Walker). */
registerRule({ name: 'Super-heavy Walker', kind: 'datasheet-ability', movesOver: WALKER });

/** Outflank: arriving from Strategic Reserves, the unit may be set up within the enemy's deployment zone in battle round 2 too. */
registerRule({ name: 'Outflank', kind: 'datasheet-ability', allows: (perm) => perm === 'arrive-in-enemy-zone' });

// --- The Twin Lance ----------------------------------------------------------------------------------

/**
 * Exemplars of Mont'ka: its ranged attacks at the closest eligible target have SUSTAINED HITS 1 and IGNORES COVER,
 * judged for each model (the two models' groups are split by whether the target is their closest).
 */
registerRule({
  name: "Exemplars of Mont'ka", kind: 'datasheet-ability', splitByClosestTarget: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !isClosestEligibleTarget(ctx.state, ctx.attacker, ctx.attackers, ctx.profile, ctx.target)) return;
    plan.sustainedHits = Math.max(plan.sustainedHits, 1);
    plan.ignoresCover = true;
  },
});

const NEOCAPACITOR = 'Neocapacitor Shields';
/** Neocapacitor Shields' effect on the enemy unit until the end of the turn: -1 to its Charge rolls. */
const NEOCAPACITOR_SLOWED = 'Neocapacitor Shields (slowed)';
registerRule({ name: NEOCAPACITOR_SLOWED, kind: 'effect', rollModifier: (purpose) => (purpose === 'charge' ? -1 : 0) });

/** The enemy units (not MONSTER or VEHICLE) within 12" of the unit: Neocapacitor Shields' choices. */
export function neocapacitorTargets(state: GameState, unit: UnitState): UnitState[] {
  return unitsOnBattlefield(state, opponent(unit.player)).filter((e) => !isMonsterOrVehicle(e) && unitDistance(state, unit, e) <= 12 + 1e-6);
}

/**
 * Neocapacitor Shields: at the start of the opponent's Charge phase, one enemy unit (not MONSTER or VEHICLE)
 * within 12" takes a Battle-shock test and has -1 to its Charge rolls until the end of the turn (decision
 * `neocapacitor-shields`, no pass: it only hurts the enemy).
 */
registerRule({
  name: NEOCAPACITOR, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    if (phase !== 'charge' || g.state.turn === unit.player) return;
    const options = neocapacitorTargets(g.state, unit).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'neocapacitor-shields', player: unit.player, prompt: `${unit.name}: Neocapacitor Shields: which enemy unit takes a Battle-shock test (and -1 to its Charge rolls)?`, options, context: { unit: unit.id } });
    g.addEffect(NEOCAPACITOR_SLOWED, unit.player, option, g.untilEndOfTurn());
    battleShockTest(g, g.state.units[option].player, option);
  },
});

/** Retro-thrusters: at the end of a Fight phase in which it was eligible to fight, a Normal move of up to 6" or a Fall Back (decision `retro-thrusters`). */
registerRule({
  name: 'Retro-thrusters', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    if (phase !== 'fight' || !wasEligibleToFight(unit)) return;
    const { fallBack, options } = moveOrFallBackChoices(g.state, unit);
    if (options.length <= 1) return;
    const { option } = g.decide({
      kind: 'retro-thrusters', player: unit.player, prompt: `${unit.name}: Retro-thrusters: ${fallBack ? 'a Fall Back' : 'a Normal move of up to 6"'}?`,
      options, context: { unit: unit.id },
    });
    moveOrFallBack(g, unit, option, fallBack, () => (fallBack ? unitMove(g.state, unit) : 6));
  },
});
