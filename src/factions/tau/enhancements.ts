/**
 * T'au Empire Enhancements the engine plays: the Experimental Prototype Cadre's four, each a change to
 * one weapon of its bearer (Rule.enhancedWeapon, src/rules/enhanced-weapons.ts), and Kauyon's and Mont'ka's
 * eight. Not in RULES.md: written from the data export's Enhancements, in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { UnitState } from '../../core/state.ts';
import type { DiceExpr, WeaponProfile } from '../../data/datasheet.ts';
import { inObjectiveRange } from '../../geometry/ranges.ts';
import { modelBody } from '../../rules/battle/world.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { isUnitOrItsPart, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { scoutsDistance } from '../../rules/battle/pre-battle.ts';
import { attackersAreBearer, bearerComponent, bearerLeads, enhancementBearers, originOnBattlefield, selectUpTo } from '../helpers.ts';
import { onObserverSelected } from './army-rule.ts';
import { killingBlow, patientHunter } from './detachments.ts';

const plus = (d: DiceExpr, n: number): DiceExpr => ({ ...d, plus: d.plus + n });

/** A weapon ability set to `x` (replacing the profile's own of that name). */
function withAbility(p: WeaponProfile, name: string, x: number): WeaponProfile['abilities'] {
  return [...p.abilities.filter((a) => a.name !== name), { name, x }];
}

/** Supernova Launcher: one airbursting fragmentation projector: Strength +3, AP and Damage improved by 1. */
registerRule({
  name: 'Supernova Launcher', kind: 'enhancement',
  enhancedWeapon: { weapon: 'Airbursting fragmentation projector', change: (p) => ({ ...p, strength: p.strength + 3, ap: p.ap - 1, damage: plus(p.damage, 1) }) },
});

/** Thermoneutronic Projector: one T'au flamer: Strength +2, AP and Damage improved by 1. */
registerRule({
  name: 'Thermoneutronic Projector', kind: 'enhancement',
  enhancedWeapon: { weapon: "T'au flamer", change: (p) => ({ ...p, strength: p.strength + 2, ap: p.ap - 1, damage: plus(p.damage, 1) }) },
});

/** Plasma Accelerator Rifle: one plasma rifle: Strength +2, Attacks, AP and Damage improved by 1. */
registerRule({
  name: 'Plasma Accelerator Rifle', kind: 'enhancement',
  enhancedWeapon: { weapon: 'Plasma rifle', change: (p) => ({ ...p, strength: p.strength + 2, attacks: plus(p.attacks, 1), ap: p.ap - 1, damage: plus(p.damage, 1) }) },
});

/** Fusion Blades: one fusion blaster: Attacks +1, Strength +3, and MELTA 4. */
registerRule({
  name: 'Fusion Blades', kind: 'enhancement',
  enhancedWeapon: { weapon: 'Fusion blaster', change: (p) => ({ ...p, attacks: plus(p.attacks, 1), strength: p.strength + 3, abilities: withAbility(p, 'MELTA', 4) }) },
});

// --- Kauyon ------------------------------------------------------------------------------------

/** Exemplar of the Kauyon: while the bearer leads a unit, Patient Hunter applies to it from battle round 2. */
registerRule({
  name: 'Exemplar of the Kauyon', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.state.round !== 2 || !bearerLeads(ctx.attacker, 'Exemplar of the Kauyon')) return;
    patientHunter(plan, ctx);
  },
});

/** Precision of the Patient Hunter: the bearer's ranged attacks get +1 to hit, and +1 to wound from battle round 3. */
registerRule({
  name: 'Precision of the Patient Hunter', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !attackersAreBearer(ctx.attacker, ctx.attackers, 'Precision of the Patient Hunter')) return;
    plan.hitModifier += 1;
    if (ctx.state.round >= 3) plan.woundModifier += 1;
  },
});

/**
 * Through Unity, Devastation: while the bearer leads a unit, each time that unit is an Observer unit its
 * Guided unit's ranged weapons have LETHAL HITS against their Spotted unit until the end of the phase.
 * The entry is also the effect put on the Guided unit (params.spotted), as Forward Observers.
 */
registerRule({
  name: 'Through Unity, Devastation', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.melee || !isUnitOrItsPart(ctx.target, src.effect.params.spotted)) return;
    plan.lethalHits = true;
  },
});

// --- Mont'ka -----------------------------------------------------------------------------------

/** Exemplar of the Mont'ka: while the bearer leads a unit, Killing Blow applies to it in battle round 4 as well. */
registerRule({
  name: "Exemplar of the Mont'ka", kind: 'enhancement',
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.state.round === 4 && ctx.profile.range !== 'Melee' && bearerLeads(ctx.unit, "Exemplar of the Mont'ka"),
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.state.round !== 4 || !bearerLeads(ctx.attacker, "Exemplar of the Mont'ka")) return;
    killingBlow(plan, ctx);
  },
});

/** Coordinated Exploitation: as Through Unity, Devastation, with SUSTAINED HITS 1 instead of LETHAL HITS. */
registerRule({
  name: 'Coordinated Exploitation', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.melee || !isUnitOrItsPart(ctx.target, src.effect.params.spotted)) return;
    plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

// the Observer unit led by the bearer of either gives its Guided unit the effect
for (const name of ['Through Unity, Devastation', 'Coordinated Exploitation']) {
  onObserverSelected((g, observer, guided, spotted) => {
    if (bearerLeads(observer, name)) g.addEffect(name, observer.player, guided.id, g.untilEndOfPhase(), { spotted });
  });
}

/**
 * Strategic Conqueror: at the start of the first battle round the bearer's player selects an objective
 * marker; while the bearer is on the battlefield, friendly T'AU EMPIRE models within range of that marker
 * have +1 Objective Control. The effect on the army (params objective, bearer) adds it.
 */
const STRATEGIC_CONQUEROR = 'Strategic Conqueror';
registerRule({
  name: STRATEGIC_CONQUEROR, kind: 'enhancement',
  battleStart(g, unit) {
    const c = bearerComponent(unit, STRATEGIC_CONQUEROR);
    if (!c || g.state.objectives.length === 0) return;
    const { option } = g.decide({
      kind: 'strategic-conqueror', player: unit.player, prompt: `${unit.name}: Strategic Conqueror: which objective marker?`,
      options: g.state.objectives.map((o) => o.id), context: { unit: unit.id },
    });
    g.addEffect(STRATEGIC_CONQUEROR, unit.player, null, { at: 'end-of-battle' }, { objective: option, bearer: c.unit });
  },
  characteristic(which, value, ctx, src) {
    const e = src.effect;
    if (!e || which !== 'OC' || !ctx.unit.keywords.includes("T'AU EMPIRE") || !ctx.model.pos) return value;
    const marker = ctx.state.objectives.find((o) => o.id === e.params.objective);
    if (!marker || !inObjectiveRange(modelBody(ctx.state, ctx.model), { id: marker.id, pos: marker.pos })) return value;
    return originOnBattlefield(ctx.state, String(e.params.bearer)) ? value + 1 : value;
  },
});

/**
 * Strike Swiftly: at the start of the battle, before any Scouts move, the bearer's player may select up to
 * two friendly T'AU EMPIRE units on the battlefield within 6" of the bearer that do not have Scouts (the
 * bearer's own unit among them); their models have Scouts 6" for the battle. The entry is also the effect
 * on each selected unit.
 */
const STRIKE_SWIFTLY = 'Strike Swiftly';
registerRule({
  name: STRIKE_SWIFTLY, kind: 'enhancement',
  beforeScoutMoves(g, unit) {
    const s = g.state;
    if (unit.location !== 'battlefield') return;
    const from = enhancementBearers(unit, STRIKE_SWIFTLY).map((m) => modelBody(s, m));
    const within = (u: UnitState) => u.models.some((m) => m.alive && m.pos && from.some((b) => horizontalDistance(b, modelBody(s, m)) <= 6 + 1e-6));
    selectUpTo(
      2,
      (chosen) => unitsOnBattlefield(s, unit.player).filter((u) => !chosen.includes(u.id) && u.keywords.includes("T'AU EMPIRE") && scoutsDistance(s, u) === 0 && within(u)),
      (options) => g.decide({
        kind: 'strike-swiftly', player: unit.player, prompt: `${unit.name}: Strike Swiftly: give a unit Scouts 6"? (or stop)`, options, context: { unit: unit.id },
      }).option,
      (id) => g.addEffect(STRIKE_SWIFTLY, unit.player, id, { at: 'end-of-battle' }),
    );
  },
  scouts: (_ctx, src) => (src.effect ? 6 : null),
});

/**
 * Solid-image Projection Unit: after both armies are deployed, up to three T'AU EMPIRE units of the army are
 * set up again, or placed in Strategic Reserves whatever is there already (src/rules/battle/redeploy.ts).
 */
registerRule({
  name: 'Solid-image Projection Unit', kind: 'enhancement',
  redeploy: { max: 3, eligible: (_bearer, u) => u.keywords.includes("T'AU EMPIRE") },
});
