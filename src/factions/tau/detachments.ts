/**
 * T'au Empire detachments: Kauyon (Patient Hunter; its stratagems of RULES.md and, from the export, PHOTON
 * GRENADES and WALL OF MIRRORS), Mont'ka (Killing Blow) and the Boarding Actions
 * Starfire Cadre (Markerlight Precision), with their stratagems; the Experimental Prototype Cadre's rule
 * (Superior Craftsmanship) and its six stratagems; its Enhancements are in ./enhancements.ts. The
 * Retaliation Cadre is in ./retaliation-cadre.ts, the Kroot Hunting Pack in ./kroot-hunting-pack.ts, the
 * Boarding Actions Kroot Raiding Party in ./kroot-raiding-party.ts.
 */
import '../core-first.ts';
import { registerRule, type Rule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type ModelState, type UnitState } from '../../core/state.ts';
import { widerReroll, type AttackPlan } from '../../rules/attack-plan.ts';
import type { AttackContext } from '../../rules/attack-context.ts';
import { registerStratagem, type Stratagem } from '../../rules/stratagems/registry.ts';
import { destroyedPart, targetedInOpponentsShootingOrFight, targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { characteristic, hasKeyword, isMonsterOrVehicle, isUnitOrItsPart, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, unitDistance, unitSees, modelBody } from '../../rules/battle/world.ts';
import { disembarkedThisTurn, embark, fitsIn, embarkOptions } from '../../rules/battle/transports.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { canShoot, shootWithUnit } from '../../rules/battle/shooting.ts';
import { attackAcrossHatchway, hatchwayById } from '../../rules/battle/hatchways.ts';
import { inObjectiveRange } from '../../geometry/ranges.ts';
import { pointInPolygon } from '../../geometry/polygon.ts';
import { guidedInfo, spottedBy } from './army-rule.ts';
import { RETALIATION_CADRE, RETALIATION_CADRE_RULES } from './retaliation-cadre.ts';
import { KROOT_HUNTING_PACK, KROOT_HUNTING_PACK_RULES } from './kroot-hunting-pack.ts';
import { KROOT_RAIDING_PARTY, KROOT_RAIDING_PARTY_RULES } from './kroot-raiding-party.ts';
import { AUXILIARY_CADRE, AUXILIARY_CADRE_RULES } from './auxiliary-cadre.ts';
import { bearerModel, modelWithinRangeOf, normalMoveChoices, regainD3Wounds, untilEndOfOpponentsNextTurn } from '../helpers.ts';
import { ruleMove } from '../../rules/battle/movement.ts';

const KAUYON = 'Kauyon';
const MONTKA = "Mont'ka";
const STARFIRE = 'Starfire Cadre';


// --- Kauyon ----------------------------------------------------------------------------------

/** Patient Hunter's effect on ranged attacks: SUSTAINED HITS 1, or 2 against the unit's Spotted unit. */
export function patientHunter(plan: AttackPlan, ctx: AttackContext): void {
  const spotted = spottedBy(ctx.state, ctx.attacker.id);
  plan.sustainedHits = Math.max(plan.sustainedHits, isUnitOrItsPart(ctx.target, spotted) ? 2 : 1);
}

/** Patient Hunter: from battle round 3, ranged weapons have SUSTAINED HITS 1, or 2 against their unit's Spotted unit. */
registerRule({
  name: 'Patient Hunter', kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.state.round < 3) return;
    patientHunter(plan, ctx);
  },
});

/** A Tempting Trap's effect: +1 to wound against units within range of the Trap objective marker. */
registerRule({
  name: 'A Tempting Trap', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    const trap = ctx.state.players[src.player].ruleState.trapObjective as string | undefined;
    const marker = ctx.state.objectives.find((o) => o.id === trap);
    if (!marker) return;
    const s = ctx.state;
    if (ctx.target.models.some((m) => m.alive && m.pos && inObjectiveRange(modelBody(s, m), { id: marker.id, pos: marker.pos }))) plan.woundModifier += 1;
  },
});

registerStratagem({
  name: 'A TEMPTING TRAP', cp: 1, category: 'Battle Tactic', source: KAUYON, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && g.state.round >= 3 ? [u] : []; },
  use(g, _w, p, u) {
    const s = g.state;
    if (s.players[p].ruleState.trapObjective === undefined) {
      // the first time: a Trap objective marker that is not in the opponent's deployment zone, for the battle
      const enemyZone = s.board.deploymentZones.find((z) => z.player === opponent(p))?.polygon ?? [];
      const options = s.objectives.filter((o) => !pointInPolygon(o.pos, enemyZone)).map((o) => o.id);
      if (options.length === 0) return;
      const { option } = g.decide({ kind: 'trap-objective', player: p, prompt: 'A Tempting Trap: choose your Trap objective marker', options });
      g.emit({ type: 'rule-state', player: p, key: 'trapObjective', value: option });
    }
    g.addEffect('A Tempting Trap', p, u.id, g.untilEndOfPhase());
  },
});

/** Coordinate to Engage: the Observer's own attacks against the Spotted unit get BS +1 (and IGNORES COVER with MARKERLIGHT). */
registerRule({
  name: 'Coordinate to Engage', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !isUnitOrItsPart(ctx.target, src.effect?.params.spotted)) return;
    plan.skill -= 1;
    if (ctx.attacker.keywords.includes('MARKERLIGHT')) plan.ignoresCover = true;
  },
});

registerStratagem({
  name: 'COORDINATE TO ENGAGE', cp: 1, category: 'Battle Tactic', source: KAUYON, turn: 'own', windows: ['shooting/observer-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u ? [u] : []; },
  use(g, w, p, u) { g.addEffect('Coordinate to Engage', p, u.id, g.untilEndOfPhase(), { spotted: w.targets[0] }); },
});

/**
 * Point-Blank Ambush: "each time a model in your unit makes a ranged attack that targets an enemy unit within
 * 9"", AP improves by 1. Measured model by model: the unit's ranged attack groups split at 9" (attackRangeBands),
 * so a group's distance, from its closest model, is each of its models' side of 9".
 */
registerRule({
  name: 'Point-Blank Ambush', kind: 'effect',
  attackRangeBands: () => POINT_BLANK_BAND,
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && ctx.distance <= 9 + 1e-6) plan.ap -= 1;
  },
});

const POINT_BLANK_BAND: readonly number[] = [9];

registerStratagem({
  name: 'POINT-BLANK AMBUSH', cp: 1, category: 'Battle Tactic', source: KAUYON, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && g.state.round >= 3 ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Point-Blank Ambush', p, u.id, g.untilEndOfPhase()); },
});

/**
 * Combat Embarkation: an INFANTRY unit targeted by a charge, every model within 3" of a friendly
 * TRANSPORT with room, embarks within it (the charging player can then select new targets for the charge,
 * or keep the others it declared: declareCharge).
 */
registerStratagem({
  name: 'COMBAT EMBARKATION', cp: 1, category: 'Wargear', source: KAUYON, turn: 'opponent', windows: ['charge/after-enemy-charge-declared'],
  // (the TRANSPORT is a target of the stratagem too: never a Battle-shocked one)
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter((u) => hasKeyword(u, 'INFANTRY') && embarkOptions(g, u).some((t) => !t.battleShocked)),
  use(g, _w, p, u) {
    const transports = embarkOptions(g, u).filter((t) => !t.battleShocked && fitsIn(g, u, t));
    if (transports.length === 0) return;
    const { option } = g.decide({ kind: 'combat-embarkation', player: p, prompt: `${u.name}: embark within which transport?`, options: transports.map((t) => t.id), context: { unit: u.id } });
    embark(g, u, g.state.units[option]);
  },
});

/** Photon Grenades: -2 to the charging unit's Charge rolls this phase. */
registerRule({ name: 'Photon Grenades', kind: 'effect', rollModifier: (purpose) => (purpose === 'charge' ? -2 : 0) });

/**
 * PHOTON GRENADES (Kauyon, from the export's stratagems): just after an enemy unit declared a charge, a
 * GRENADES unit among its targets makes it take a Battle-shock test at once, and its Charge roll is 2 lower.
 */
registerStratagem({
  name: 'PHOTON GRENADES', cp: 1, category: 'Wargear', source: KAUYON, turn: 'opponent', windows: ['charge/after-enemy-charge-declared'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter((u) => hasKeyword(u, 'GRENADES')),
  use(g, w, p) {
    const enemy = g.state.units[w.unit!];
    battleShockTest(g, enemy.player, enemy.id);
    g.addEffect('Photon Grenades', p, enemy.id, g.untilEndOfPhase());
  },
});

/** The units WALL OF MIRRORS may take off the battlefield (its TARGET line, by their keywords). */
const WALL_OF_MIRRORS_KEYWORDS = ['STEALTH', 'GHOSTKEEL', 'COMMANDER SHADOWSUN'];

/**
 * WALL OF MIRRORS (Kauyon, from the export's stratagems): at the end of the opponent's Fight phase, a
 * Stealth, Ghostkeel or Commander Shadowsun unit not within Engagement Range of an enemy unit leaves the
 * battlefield for Strategic Reserves; it arrives as any unit there (not in battle round 1; still there at
 * the end of the battle, it counts as destroyed: core rules).
 */
registerStratagem({
  name: 'WALL OF MIRRORS', cp: 1, category: 'Battle Tactic', source: KAUYON, turn: 'opponent', windows: ['phase/end'],
  targets: (g, w, p) => {
    if (w.data?.phase !== 'fight') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => WALL_OF_MIRRORS_KEYWORDS.some((k) => hasKeyword(u, k)) && !isEngaged(g.state, u));
  },
  use(g, _w, _p, u) { g.emit({ type: 'unit-location', unit: u.id, location: 'strategic-reserves', embarkedIn: null }); },
});

// --- Mont'ka ---------------------------------------------------------------------------------

/** Killing Blow's effect on ranged attacks: LETHAL HITS while the unit is Guided. */
export function killingBlow(plan: AttackPlan, ctx: AttackContext): void {
  if (guidedInfo(ctx.state, ctx.attacker.id)) plan.lethalHits = true;
}

/** Killing Blow: in battle rounds 1-3, ranged weapons have ASSAULT, and LETHAL HITS while the unit is Guided. */
registerRule({
  name: 'Killing Blow', kind: 'detachment-rule',
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.state.round <= 3 && ctx.profile.range !== 'Melee',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.state.round > 3) return;
    killingBlow(plan, ctx);
  },
});

/**
 * Pinpoint Counter-offensive: re-roll Hit rolls of non-KROOT units against the enemy unit that destroyed one of
 * yours (params.enemies: its id and, for an Attached unit, its parts' ids, so that a Leader left alone when its
 * Bodyguard is destroyed is still that unit, as Bounty Hunters reads it; params.enemy in older logs).
 */
registerRule({
  name: 'Pinpoint Counter-offensive', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !src.effect || ctx.attacker.keywords.includes('KROOT')) return;
    const enemies = (src.effect.params.enemies as string[] | undefined) ?? [src.effect.params.enemy as string];
    if (!enemies.includes(ctx.target.id)) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});

registerStratagem({
  // the destroyed unit is its target: not one that was Battle-shocked, as JOIN THE HUNT, PALL OF DREAD and STAGED
  // DEATH read the same words ("even though it was just destroyed")
  name: 'PINPOINT COUNTER-OFFENSIVE', cp: 1, category: 'Battle Tactic', source: MONTKA, turn: 'either', windows: ['unit/destroyed'],
  targets(g, w, p) {
    // the destroyed part's own keywords: a KROOT Leader's do not make its Bodyguard part a KROOT unit (Leader)
    const part = destroyedPart(g, w);
    const by = w.data?.by as string | null | undefined;
    if (!part || part.unit.player !== p || part.component.keywords.includes('KROOT') || !by || g.state.units[by]?.player === p) return [];
    return [g.state.units[w.unit!]];
  },
  use(g, w, p) {
    // the enemy unit and its parts; the effect lasts until the end of the battle, for the whole army
    const enemies = g.state.units[w.data!.by as string].components.map((c) => c.unit);
    g.addEffect('Pinpoint Counter-offensive', p, null, { at: 'end-of-battle' }, { enemies });
  },
});

/** Aggressive Mobility: an Advance is not rolled: +6" instead. */
registerRule({ name: 'Aggressive Mobility', kind: 'effect', fixedAdvance: () => 6 });

registerStratagem({
  name: 'AGGRESSIVE MOBILITY', cp: 1, category: 'Battle Tactic', source: MONTKA, turn: 'own', windows: ['movement/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Aggressive Mobility', p, u.id, g.untilEndOfPhase()); },
});

/** Combat Debarkation: re-roll the Wound roll of attacks against the closest enemy unit. */
registerRule({
  name: 'Combat Debarkation', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker') return;
    const s = ctx.state;
    let closest: string | null = null;
    let best = Infinity;
    for (const e of unitsOnBattlefield(s, opponent(ctx.attacker.player))) {
      const d = unitDistance(s, ctx.attacker, e);
      if (d < best) { best = d; closest = e.id; }
    }
    if (closest === ctx.target.id) plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
  },
});

registerStratagem({
  name: 'COMBAT DEBARKATION', cp: 1, category: 'Battle Tactic', source: MONTKA, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && hasKeyword(u, 'INFANTRY') && disembarkedThisTurn(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Combat Debarkation', p, u.id, g.untilEndOfPhase()); },
});

/** Focused Fire: the two units can only target that enemy unit, and improve AP by 1 against it. */
registerRule({
  name: 'Focused Fire', kind: 'effect',
  mayTarget: (ctx, src) => isUnitOrItsPart(ctx.target, src.effect?.params.enemy),
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && isUnitOrItsPart(ctx.target, src.effect?.params.enemy)) plan.ap -= 1;
  },
});

registerStratagem({
  name: 'FOCUSED FIRE', cp: 1, category: 'Battle Tactic', source: MONTKA, turn: 'own', windows: ['phase/start'],
  targets(g, w, p) {
    if (w.data?.phase !== 'shooting' || g.state.round >= 4) return [];
    // both units are the stratagem's targets: neither may be Battle-shocked
    const own = unitsOnBattlefield(g.state, p).filter((u) => !u.flags.shot && !u.battleShocked);
    return own.length >= 2 && unitsOnBattlefield(g.state, opponent(p)).length > 0 ? own : [];
  },
  use(g, _w, p, u) {
    const s = g.state;
    const second = unitsOnBattlefield(s, p).filter((x) => x.id !== u.id && !x.flags.shot && !x.battleShocked);
    const enemies = unitsOnBattlefield(s, opponent(p));
    const { option } = g.decide({
      kind: 'focused-fire', player: p, prompt: `Focused Fire: the second unit and the enemy unit (with ${u.name})`,
      options: second.flatMap((x) => enemies.map((e) => ({ unit: x.id, enemy: e.id }))), context: { unit: u.id },
    });
    for (const id of [u.id, option.unit]) g.addEffect('Focused Fire', p, id, g.untilEndOfPhase(), { enemy: option.enemy });
  },
});

/** -2" Move, -2 to Advance and Charge rolls: the hooks of Shaken (below) and of Photon Casters' stunned (./more-abilities.ts). */
export const SLOWED_BY_TWO: Pick<Rule, 'characteristic' | 'rollModifier'> = {
  characteristic: (which, v) => (which === 'M' ? Math.max(0, v - 2) : v),
  rollModifier: (purpose) => (purpose === 'advance' || purpose === 'charge' ? -2 : 0),
};

/** Shaken: -2" Move, -2 to Advance and Charge rolls, until the end of the opponent's next turn. */
registerRule({ name: 'Shaken', kind: 'effect', ...SLOWED_BY_TWO });

registerStratagem({
  name: 'PULSE ONSLAUGHT', cp: 2, category: 'Strategic Ploy', source: MONTKA, turn: 'own', windows: ['shooting/after-own-shot'],
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    const hit = (w.data?.hitTargets as string[] | undefined) ?? [];
    if (!u || !hasKeyword(u, 'INFANTRY') || hasKeyword(u, 'KROOT')) return [];
    return hit.some((id) => { const e = g.state.units[id]; return e && onBattlefield(e) && !isMonsterOrVehicle(e); }) ? [u] : [];
  },
  use(g, w, p) {
    const s = g.state;
    const options = ((w.data?.hitTargets as string[]) ?? []).filter((id) => { const e = s.units[id]; return e && onBattlefield(e) && !isMonsterOrVehicle(e); });
    const { option } = g.decide({ kind: 'pulse-onslaught', player: p, prompt: 'Pulse Onslaught: which enemy unit is shaken?', options, context: { unit: w.unit } });
    g.addEffect('Shaken', p, option, untilEndOfOpponentsNextTurn(g, p));
  },
});

/** Counterfire Defence Systems: -1 Damage to attacks allocated to the unit (never below 1). */
registerRule({
  name: 'Counterfire Defence Systems', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.damageReduction += 1; },
});

registerStratagem({
  name: 'COUNTERFIRE DEFENCE SYSTEMS', cp: 2, category: 'Wargear', source: MONTKA, turn: 'opponent', windows: ['shooting/after-enemy-targets'],
  phases: ['shooting'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p),
  use(g, _w, p, u) { g.addEffect('Counterfire Defence Systems', p, u.id, g.untilEndOfPhase()); },
});

// --- Starfire Cadre (Boarding Actions) -------------------------------------------------------

/**
 * Markerlight Precision: ranged attacks of non-KROOT units get BS +1 and SUSTAINED HITS 1 against an
 * enemy unit visible to a friendly MARKERLIGHT unit that is not within Engagement Range of enemies.
 */
registerRule({
  name: 'Markerlight Precision', kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.attacker.keywords.includes('KROOT')) return;
    const s = ctx.state;
    const spotter = unitsOnBattlefield(s, ctx.attacker.player).some((u) =>
      u.keywords.includes('MARKERLIGHT') && !isEngaged(s, u) && unitSees(s, u, ctx.target));
    if (!spotter) return;
    plan.skill -= 1;
    plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

// The Starfire Cadre's stratagems (from the export; not in RULES.md). PULSE BARRAGE is not played: it
// changes firing Overwatch, which this engine's Boarding Actions games do not have (no FIRE OVERWATCH among
// their stratagems); for the same reason "has not fired Overwatch" is always true below.

/** A FIRE WARRIOR or PATHFINDER TEAM unit (the Starfire Cadre stratagems' targets). */
const fireWarriorOrPathfinders = (u: UnitState) => hasKeyword(u, 'FIRE WARRIOR') || hasKeyword(u, 'PATHFINDER TEAM');

/**
 * Duty's Echo (Starfire Cadre Enhancement, ETHEREAL): at the end of its player's Shooting phase, one friendly
 * FIRE WARRIOR or PATHFINDER TEAM unit within 6" of the bearer may make a Normal move of up to 3". The Set
 * Overwatch it then counts as having performed is not played (no Overwatch in these games, as above).
 */
export const DUTYS_ECHO = "Duty's Echo";
registerRule({
  name: DUTYS_ECHO, kind: 'enhancement',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    if (phase !== 'shooting' || s.turn !== unit.player) return;
    const bearer = bearerModel(unit, DUTYS_ECHO);
    if (!bearer) return;
    // each unit's Normal move destinations, made once (the planner's work): offered, and then the move's options
    const moves = new Map<string, ReturnType<typeof normalMoveChoices>>();
    for (const u of unitsOnBattlefield(s, unit.player)) {
      if (!fireWarriorOrPathfinders(u) || !modelWithinRangeOf(s, bearer, u, 6)) continue;
      const choices = normalMoveChoices(s, u);
      if (choices.length > 0) moves.set(u.id, choices);
    }
    if (moves.size === 0) return;
    const { option } = g.decide<{ none: true } | { unit: string }>({
      kind: 'dutys-echo', player: unit.player, prompt: `${unit.name}: Duty's Echo: which unit makes a Normal move of up to 3"?`,
      options: [{ none: true }, ...[...moves.keys()].map((id) => ({ unit: id }))], context: { unit: unit.id },
    });
    if ('none' in option) return;
    const mover = s.units[option.unit];
    const { option: to } = g.decide({ kind: 'dutys-echo-move', player: unit.player, prompt: `${mover.name}: Duty's Echo: a Normal move of up to 3"`, options: moves.get(mover.id)!, context: { unit: mover.id } });
    if ('none' in to) return;
    ruleMove(g, mover, 'normal', to.to, 3);
  },
});

/** Retreating Fire: the unit may shoot this phase though it Fell Back. */
registerRule({ name: 'Retreating Fire', kind: 'effect', allows: (perm) => perm === 'shoot-after-fall-back' });

registerStratagem({
  name: 'RETREATING FIRE', cp: 1, category: 'Strategic Ploy', source: STARFIRE, turn: 'own', windows: ['phase/start'],
  // offered at the start of the Shooting phase, to the units it helps: those that Fell Back and have not shot
  targets: (g, w, p) => (w.data?.phase !== 'shooting' ? [] : unitsOnBattlefield(g.state, p).filter((u) => fireWarriorOrPathfinders(u) && u.flags.fellBack && !u.flags.shot)),
  use(g, _w, p, u) { g.addEffect('Retreating Fire', p, u.id, g.untilEndOfPhase()); },
});

/** Firing Line: the unit's ranged attacks hit only on an unmodified Hit roll of 5+. */
registerRule({
  name: 'Firing Line', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee) plan.unmodifiedHitOn = 5;
  },
});

/**
 * FIRING LINE: in a Fight phase, after an enemy unit destroyed a T'AU EMPIRE unit, a FIRE WARRIOR or
 * PATHFINDER TEAM unit not in Engagement Range and within 9" of that enemy unit shoots it, as in its
 * Shooting phase (even if it has shot this turn), hitting only on unmodified 5+. The rule says "just after
 * ... destroys"; the engine offers it once that enemy unit has fought (its attacks and consolidation), as it
 * resolves no attacks in the middle of another unit's.
 */
registerStratagem({
  name: 'FIRING LINE', cp: 1, category: 'Strategic Ploy', source: STARFIRE, turn: 'either', windows: ['fight/after-enemy-fought'],
  targets(g, w, p) {
    const s = g.state;
    const e = w.unit ? s.units[w.unit] : null;
    const destroyed = (w.data?.destroyed as string[] | undefined) ?? [];
    if (!e || e.player === p || !onBattlefield(e) || !destroyed.some((id) => s.units[id]?.player === p && s.units[id].keywords.includes("T'AU EMPIRE"))) return [];
    return unitsOnBattlefield(s, p).filter((u) => fireWarriorOrPathfinders(u) && !isEngaged(s, u) && unitDistance(s, u, e) <= 9 + 1e-6 && canShoot(g, u, e.id, true));
  },
  use(g, w, p, u) {
    g.addEffect('Firing Line', p, u.id, g.untilEndOfPhase());
    shootWithUnit(g, u, { onlyTarget: w.unit! });
  },
});

/**
 * Responsive Volley: until the end of the turn, the unit's ranged attacks score Critical Hits on 5+
 * against a unit wholly on the other side of the hatchway it opened (params.hatchway) from the attackers.
 */
registerRule({
  name: 'Responsive Volley', kind: 'effect',
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.melee) return;
    const h = hatchwayById(ctx.state, src.effect.params.hatchway);
    if (h && attackAcrossHatchway(ctx.state, h, ctx.attackers, ctx.target)) plan.criticalHitOn = Math.min(plan.criticalHitOn, 5);
  },
});

registerStratagem({
  name: 'RESPONSIVE VOLLEY', cp: 1, category: 'Battle Tactic', source: STARFIRE, turn: 'own', windows: ['movement/hatchway-opened'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && fireWarriorOrPathfinders(u) ? [u] : []; },
  use(g, w, p, u) { g.addEffect('Responsive Volley', p, u.id, g.untilEndOfTurn(), { hatchway: String(w.data!.hatchway) }); },
});

// --- Experimental Prototype Cadre (the real army lists' detachment; not in RULES.md) ---------------

const EXPERIMENTAL_PROTOTYPE_CADRE = 'Experimental Prototype Cadre';

/** Superior Craftsmanship: the ranged weapons of T'AU EMPIRE models of the army have 6" more Range. */
registerRule({
  name: 'Superior Craftsmanship', kind: 'detachment-rule',
  weaponRangeBonus: (ctx) => (ctx.unit.keywords.includes("T'AU EMPIRE") ? 6 : 0),
});

/** EXPERIMENTAL WEAPONRY's effect: the unit's random Attacks characteristics are re-rolled (below their mean). */
registerRule({
  name: 'Experimental Weaponry', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee) plan.rerollAttacks = true;
  },
});

const tauUnitSelected: Stratagem['targets'] = (g, w, p) => {
  const u = windowOwnUnit(g, w, p);
  return u && u.keywords.includes("T'AU EMPIRE") ? [u] : [];
};

registerStratagem({
  name: 'EXPERIMENTAL WEAPONRY', cp: 1, category: 'Battle Tactic', source: EXPERIMENTAL_PROTOTYPE_CADRE, turn: 'own', windows: ['shooting/unit-selected'],
  targets: tauUnitSelected,
  use(g, _w, p, u) { g.addEffect('Experimental Weaponry', p, u.id, g.untilEndOfPhase()); },
});

/** THREAT ASSESSMENT ANALYSER's choices: the abilities its unit's ranged weapons get this phase. */
export const THREAT_ASSESSMENT_CHOICES = ['SUSTAINED HITS 1', 'LETHAL HITS', 'SUSTAINED HITS 1, LETHAL HITS and HAZARDOUS'] as const;
/** EXPERIMENTAL AMMUNITION's choices. */
export const EXPERIMENTAL_AMMUNITION_CHOICES = ['Strength +1', 'Strength +1, AP +1 and HAZARDOUS'] as const;

registerRule({
  name: 'Threat Assessment Analyser', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    const choice = src.effect?.params.choice as string;
    if (choice !== 'LETHAL HITS') plan.sustainedHits = Math.max(plan.sustainedHits, 1);
    if (choice !== 'SUSTAINED HITS 1') plan.lethalHits = true;
    if (choice === THREAT_ASSESSMENT_CHOICES[2]) plan.hazardous = true;
  },
});

registerRule({
  name: 'Experimental Ammunition', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    plan.strength += 1;
    if (src.effect?.params.choice === EXPERIMENTAL_AMMUNITION_CHOICES[1]) { plan.ap -= 1; plan.hazardous = true; }
  },
});

/** The two Wargear stratagems that cannot both target one unit in a phase: a unit with either effect is not a target of the other. */
const ammunitionOrAnalyser: Stratagem['targets'] = (g, w, p) =>
  tauUnitSelected(g, w, p).filter((u) => !g.state.effects.some((e) => e.unit === u.id && (e.kind === 'Threat Assessment Analyser' || e.kind === 'Experimental Ammunition')));

registerStratagem({
  name: 'THREAT ASSESSMENT ANALYSER', cp: 1, category: 'Wargear', source: EXPERIMENTAL_PROTOTYPE_CADRE, turn: 'own', windows: ['shooting/unit-selected'],
  targets: ammunitionOrAnalyser,
  use(g, _w, p, u) {
    const { option } = g.decide({ kind: 'threat-assessment', player: p, prompt: `${u.name}: Threat Assessment Analyser: which abilities?`, options: [...THREAT_ASSESSMENT_CHOICES], context: { unit: u.id } });
    g.addEffect('Threat Assessment Analyser', p, u.id, g.untilEndOfPhase(), { choice: option });
  },
});

registerStratagem({
  name: 'EXPERIMENTAL AMMUNITION', cp: 1, category: 'Wargear', source: EXPERIMENTAL_PROTOTYPE_CADRE, turn: 'own', windows: ['shooting/unit-selected'],
  targets: ammunitionOrAnalyser,
  use(g, _w, p, u) {
    const { option } = g.decide({ kind: 'experimental-ammunition', player: p, prompt: `${u.name}: Experimental Ammunition: which?`, options: [...EXPERIMENTAL_AMMUNITION_CHOICES], context: { unit: u.id } });
    g.addEffect('Experimental Ammunition', p, u.id, g.untilEndOfPhase(), { choice: option });
  },
});

/** REACTIVE IMPACT DAMPENERS' effect: attacks whose Strength is above the unit's Toughness get -1 to wound. */
registerRule({
  name: 'Reactive Impact Dampeners', kind: 'effect',
  attack(plan, _ctx, src) {
    if (src.role === 'defender' && plan.strength > plan.toughness) plan.woundModifier -= 1;
  },
});

registerStratagem({
  name: 'REACTIVE IMPACT DAMPENERS', cp: 1, category: 'Battle Tactic', source: EXPERIMENTAL_PROTOTYPE_CADRE, turn: 'either',
  windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  // the opponent's Shooting phase, or either Fight phase; a BATTLESUIT unit the attacking unit targets
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => u.keywords.includes('BATTLESUIT')),
  use(g, _w, p, u) { g.addEffect('Reactive Impact Dampeners', p, u.id, g.untilEndOfPhase()); },
});

/** NEUROWEB SYSTEM JAMMER's effect: only models within 18" can make ranged attacks at the unit this phase. */
export const NEUROWEB_RANGE = 18;
registerRule({
  name: 'Neuroweb System Jammer', kind: 'effect',
  targetableFrom: (ctx) => ctx.distance <= NEUROWEB_RANGE + 1e-6,
});

registerStratagem({
  name: 'NEUROWEB SYSTEM JAMMER', cp: 1, category: 'Wargear', source: EXPERIMENTAL_PROTOTYPE_CADRE, turn: 'opponent', windows: ['shooting/after-enemy-targets'],
  phases: ['shooting'],
  // a CRISIS unit the attacking unit targets; the attacks of its models beyond 18" are lost (shooting.ts)
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter((u) => u.keywords.includes('CRISIS')),
  use(g, _w, p, u) { g.addEffect('Neuroweb System Jammer', p, u.id, g.untilEndOfPhase()); },
});

/** The BATTLESUIT models of a unit that have lost wounds, the most wounds lost first (AUTOMATED REPAIR DRONES). */
export function woundedBattlesuits(state: GameState, u: UnitState): ModelState[] {
  const lost = (m: ModelState) => characteristic(state, u, m, 'W') - m.wounds;
  return u.models.filter((m) => m.alive && state.datasheets[m.datasheet].keywords.includes('BATTLESUIT') && lost(m) > 0)
    .sort((a, b) => lost(b) - lost(a));
}

registerStratagem({
  name: 'AUTOMATED REPAIR DRONES', cp: 1, category: 'Strategic Ploy', source: EXPERIMENTAL_PROTOTYPE_CADRE, turn: 'either', windows: ['phase/start', 'phase/end'],
  // in a Command phase (either player's), at its start (before the Battle-shock step, where healing may lift a
  // unit out of Below Half-strength) or its end: a BATTLESUIT unit with a BATTLESUIT model that lost wounds
  targets: (g, w, p) => (w.data?.phase !== 'command' ? [] : unitsOnBattlefield(g.state, p).filter((u) => u.keywords.includes('BATTLESUIT') && woundedBattlesuits(g.state, u).length > 0)),
  use(g, _w, p, u) {
    const models = woundedBattlesuits(g.state, u);
    if (!models.length) return;
    const { option } = g.decide({
      kind: 'repair-drones', player: p, prompt: `${u.name}: Automated Repair Drones: which model regains wounds?`,
      options: models.map((m) => m.id), context: { unit: u.id },
    });
    const m = models.find((x) => x.id === option)!;
    regainD3Wounds(g, u, u, m, 'AUTOMATED REPAIR DRONES (D3+1 wounds)', 1);
  },
});

export const TAU_DETACHMENTS = {
  [KAUYON]: ['Patient Hunter'], [MONTKA]: ['Killing Blow'], [STARFIRE]: ['Markerlight Precision'],
  [EXPERIMENTAL_PROTOTYPE_CADRE]: ['Superior Craftsmanship'], [RETALIATION_CADRE]: RETALIATION_CADRE_RULES,
  [KROOT_HUNTING_PACK]: KROOT_HUNTING_PACK_RULES,
  [KROOT_RAIDING_PARTY]: KROOT_RAIDING_PARTY_RULES,
  [AUXILIARY_CADRE]: AUXILIARY_CADRE_RULES,
};
