/**
 * Kroot Hunting Pack, a T'au Empire detachment of the data export (not in RULES.md), in the engine's words:
 * its rules Hunter's Instincts and Skirmish Fighters, its six stratagems and its four Enhancements. Each is
 * one registry entry; the stratagems' effects are entries of kind 'effect'. Its third rule (Kroot Carnivores
 * are BATTLELINE) changes only how many of them an army may take: src/data/muster-checks.ts reads it.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { UnitState } from '../../core/state.ts';
import { createUnitState, type ModelGroupSpec } from '../../rules/muster.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { destroyedPart, targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { belowHalfStrength, belowStartingStrength, hasKeyword, isUnitOrItsPart, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { unitDistance } from '../../rules/battle/world.ts';
import { arrivalExclusionAround, attackersAre, attackersAreBearer, bearerLeads, bearerModel, hitEnemies } from '../helpers.ts';

export const KROOT_HUNTING_PACK = 'Kroot Hunting Pack';

const kroot = (u: UnitState) => hasKeyword(u, 'KROOT');

// --- Detachment rules --------------------------------------------------------------------------

/**
 * Hunter's Instincts: a KROOT model's attack has +1 to hit a unit below its Starting Strength, and +1 to wound
 * one Below Half-strength (read when the attacks are planned, as the engine's other such rules). The two are
 * apart: a one-model unit is never below its Starting Strength (models counted) but is Below Half-strength
 * with less than half its wounds left.
 */
registerRule({
  name: "Hunter's Instincts", kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !attackersAre(ctx.state, ctx.attackers, 'KROOT')) return;
    if (belowStartingStrength(ctx.target)) plan.hitModifier += 1;
    if (belowHalfStrength(ctx.state, ctx.target)) plan.woundModifier += 1;
  },
});

/** Skirmish Fighters: KROOT models have a 5+ invulnerable save against ranged attacks, 6+ against melee ones. */
registerRule({
  name: 'Skirmish Fighters', kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'defender' || !kroot(ctx.target)) return;
    const inv = ctx.melee ? 6 : 5;
    plan.invulnerable = plan.invulnerable === null ? inv : Math.min(plan.invulnerable, inv);
  },
});

export const KROOT_HUNTING_PACK_RULES = ["Hunter's Instincts", 'Skirmish Fighters'];

// --- Stratagems ----------------------------------------------------------------------------------

/**
 * JOIN THE HUNT (once a battle): a KROOT INFANTRY or KROOT HOUNDS unit just destroyed comes back as a new,
 * identical unit in Strategic Reserves at its Starting Strength. A part of an Attached unit comes back as
 * its own unit (never attached again, as the restriction on CHARACTER units asks); it comes back without an
 * Enhancement (read as the unit's datasheet, models and wargear: an Enhancement is taken once per army).
 */
registerStratagem({
  name: 'JOIN THE HUNT', cp: 2, category: 'Battle Tactic', source: KROOT_HUNTING_PACK, turn: 'either', windows: ['unit/destroyed'],
  oncePerBattle: true,
  targets(g, w, p) {
    const part = destroyedPart(g, w);
    if (!part || part.unit.player !== p) return [];
    const kw = part.component.keywords;
    if (!kw.includes('KROOT') || !(kw.includes('INFANTRY') || kw.includes('HOUNDS'))) return [];
    return [g.state.units[w.unit!]];
  },
  use(g, w, p) {
    const { component, unit } = destroyedPart(g, w)!;
    // mustered afresh from its datasheet, with the models (profile, weapons, wargear) it was destroyed with
    const models: ModelGroupSpec[] = [];
    for (const m of unit.models) {
      if (m.origin !== component.unit) continue;
      const last = models[models.length - 1];
      const wargear = m.wargear ?? [];
      if (last && last.profile === m.name && String(last.weapons) === String(m.weapons) && String(last.wargear) === String(wargear)) last.count++;
      else models.push({ profile: m.name, count: 1, weapons: m.weapons.slice(), wargear: wargear.slice() });
    }
    // its points are the destroyed unit's (the agents value units by them)
    const fresh = createUnitState({ id: `${component.unit}-hunt`, player: p, datasheet: g.state.datasheets[component.datasheet], models, points: g.state.units[component.unit]?.points ?? 0, returnOf: component.unit });
    g.emit({ type: 'unit-created', unit: fresh });
    g.emit({ type: 'unit-location', unit: fresh.id, location: 'strategic-reserves', embarkedIn: null });
  },
});

const TRAP_SET = 'A Trap Well Laid (set)';
const TRAP = 'A Trap Well Laid';

/** A TRAP WELL LAID's effect on the army: KROOT attacks at the chosen enemy unit have +1 AP unless their unit is Battle-shocked. */
registerRule({
  name: TRAP, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !isUnitOrItsPart(ctx.target, src.effect?.params.enemy) || ctx.attacker.battleShocked || !attackersAre(ctx.state, ctx.attackers, 'KROOT')) return;
    plan.ap -= 1;
  },
});

/** Once the KROOT unit has resolved its attacks this phase, its player picks one enemy unit they hit. */
registerRule({
  name: TRAP_SET, kind: 'effect',
  afterAttacks(g, unit, hitTargets, _melee, effect) {
    if (!effect) return;
    g.removeEffect(effect.id);
    const options = hitEnemies(g, unit, hitTargets).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'a-trap-well-laid', player: unit.player, prompt: `${unit.name}: A Trap Well Laid: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(TRAP, unit.player, null, g.untilEndOfPhase(), { enemy: option });
  },
});

registerStratagem({
  name: 'A TRAP WELL LAID', cp: 1, category: 'Battle Tactic', source: KROOT_HUNTING_PACK, turn: 'either', windows: ['shooting/unit-selected', 'fight/unit-selected'],
  targets(g, w, p) {
    // the player's own Shooting phase, or either player's Fight phase
    if (w.name === 'shooting/unit-selected' && g.state.turn !== p) return [];
    const u = windowOwnUnit(g, w, p);
    return u && kroot(u) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect(TRAP_SET, p, u.id, g.untilEndOfPhase()); },
});

const GRISLY_FEAST = 'The Grisly Feast';

/**
 * THE GRISLY FEAST's effect on the KROOT unit: in the opponent's next Command phase, each of their units
 * within 6" of it takes a Battle-shock test, -1 for a unit Below Half-strength (and no other test then).
 */
registerRule({
  name: GRISLY_FEAST, kind: 'effect',
  battleShockStepTests(state, player, effect) {
    if (player === effect.player) return null;
    const feaster = effect.unit ? state.units[effect.unit] : null;
    if (!feaster || !onBattlefield(feaster)) return [];
    const out: { unit: string; modifier: number }[] = [];
    for (const e of unitsOnBattlefield(state, player)) {
      if (unitDistance(state, e, feaster) <= 6 + 1e-6) out.push({ unit: e.id, modifier: belowHalfStrength(state, e) ? -1 : 0 });
    }
    return out;
  },
});

registerStratagem({
  // the window opened just after a unit has fought (named for its opponent): data.destroyed, the enemy units it destroyed
  name: 'THE GRISLY FEAST', cp: 1, category: 'Strategic Ploy', source: KROOT_HUNTING_PACK, turn: 'either', windows: ['fight/after-enemy-fought'],
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    const destroyed = (w.data?.destroyed as string[] | undefined) ?? [];
    return u && kroot(u) && destroyed.length > 0 ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect(GRISLY_FEAST, p, u.id, { at: 'end-of-battle' }); },
});

/** GUERRILLA WARRIORS: the KROOT unit may shoot and declare a charge this turn although it Fell Back. */
registerRule({
  name: 'Guerrilla Warriors', kind: 'effect',
  allows: (perm) => perm === 'shoot-after-fall-back' || perm === 'charge-after-fall-back',
});

registerStratagem({
  name: 'GUERRILLA WARRIORS', cp: 1, category: 'Strategic Ploy', source: KROOT_HUNTING_PACK, turn: 'own', windows: ['movement/after-own-move'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && kroot(u) && u.flags.fellBack ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Guerrilla Warriors', p, u.id, g.untilEndOfTurn()); },
});

/** HIDDEN HUNTERS: until the end of the phase the KROOT unit can be targeted by ranged attacks only from within 18". */
registerRule({ name: 'Hidden Hunters', kind: 'effect', targetableFrom: (ctx) => ctx.distance <= 18 + 1e-6 });

registerStratagem({
  name: 'HIDDEN HUNTERS', cp: 1, category: 'Strategic Ploy', source: KROOT_HUNTING_PACK, turn: 'opponent', windows: ['shooting/after-enemy-targets'],
  // the opponent's Shooting phase only: not Fire Overwatch in the player's own turn ('opponent' above), nor
  // Overwatch in the opponent's Charge phase
  phases: ['shooting'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter(kroot),
  use(g, _w, p, u) { g.addEffect('Hidden Hunters', p, u.id, g.untilEndOfPhase()); },
});

const EMP = 'EMP Grenades';

/** EMP GRENADES' effect on the enemy VEHICLE unit: its weapons' Ballistic and Weapon Skill are worsened by 1 this phase. */
registerRule({
  name: EMP, kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.skill += 1; },
});

registerStratagem({
  // "just after an enemy VEHICLE unit is selected to shoot or fight": the engine opens its window once that unit
  // has selected its targets, before any of its attacks, so the effect is the same
  name: 'EMP GRENADES', cp: 1, category: 'Wargear', source: KROOT_HUNTING_PACK, turn: 'either', windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  targets(g, w, p) {
    const e = w.unit ? g.state.units[w.unit] : null;
    if (!e || e.player === p || !onBattlefield(e) || !hasKeyword(e, 'VEHICLE')) return [];
    // the opponent's Shooting phase (not Fire Overwatch in the player's own turn) or either Fight phase
    if (w.name === 'shooting/after-enemy-targets' && (g.state.turn === p || g.state.phase !== 'shooting')) return [];
    return unitsOnBattlefield(g.state, p).filter((u) => kroot(u) && hasKeyword(u, 'GRENADES') && unitDistance(g.state, u, e) <= 8 + 1e-6);
  },
  use(g, w, p) { g.addEffect(EMP, p, w.unit!, g.untilEndOfPhase()); },
});

// --- Enhancements ----------------------------------------------------------------------------------

/** Borthrod Gland: while the bearer (a Flesh Shaper) leads a unit, its models' melee attacks score a Critical Hit on an unmodified 5+. */
registerRule({
  name: 'Borthrod Gland', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !bearerLeads(ctx.attacker, 'Borthrod Gland')) return;
    plan.criticalHitOn = Math.min(plan.criticalHitOn, 5);
  },
});

/** Kroothawk Flock: the bearer's unit's ranged weapons IGNORE COVER, and enemy units arriving from Reserves keep more than 12" from the bearer. */
registerRule({
  name: 'Kroothawk Flock', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !bearerModel(ctx.attacker, 'Kroothawk Flock')) return;
    plan.ignoresCover = true;
  },
  enemyArrivalExclusion(state, unit) {
    const m = bearerModel(unit, 'Kroothawk Flock');
    return m ? arrivalExclusionAround(state, m, 12) : [];
  },
});

/** Nomadic Hunter: while the bearer (a Trail Shaper) leads a unit, its models have +3" Move and its ranged weapons ASSAULT. */
registerRule({
  name: 'Nomadic Hunter', kind: 'enhancement',
  characteristic: (which, v, ctx) => (which === 'M' && bearerLeads(ctx.unit, 'Nomadic Hunter') ? v + 3 : v),
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee' && bearerLeads(ctx.unit, 'Nomadic Hunter'),
});

/** Root-carved Weapons: the bearer's (a War Shaper's) weapons have PRECISION and DEVASTATING WOUNDS. */
registerRule({
  name: 'Root-carved Weapons', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !attackersAreBearer(ctx.attacker, ctx.attackers, 'Root-carved Weapons')) return;
    plan.precision = true;
    plan.devastatingWounds = true;
  },
});
