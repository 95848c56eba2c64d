/**
 * The Harlequins' datasheet abilities (Troupe Master, Shadowseer, Death Jester, Solitaire, Voidweaver) and
 * the Serpent's Brood Enhancement Fanged Leer, which changes the Death Jester's Cruel Amusement. Written from
 * the data export's datasheets in the engine's words. The army-building abilities (TRAVELLING PLAYERS,
 * PATH OF DAMNATION) are muster checks in src/data/muster-checks.ts.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { UnitState } from '../../core/state.ts';
import type { Game } from '../../core/game.ts';
import { widerReroll, type AttackPlan } from '../../rules/attack-plan.ts';
import { attackersAre, bearerModel, isMonsterOrVehicle, leadingModel, modelWith, shockOneHitEnemy } from '../helpers.ts';

// --- Troupe Master ---------------------------------------------------------------------------------

/**
 * Choreographer of War: while the Troupe Master leads a unit, its Pile-in and Consolidation moves reach 6",
 * and a model may end in base contact with any model of the closest enemy unit without ending closer to its
 * closest enemy model (Rule.pileInMove, read by the Fight phase and the planner).
 */
registerRule({
  name: 'Choreographer of War', kind: 'datasheet-ability', leaderAbility: true,
  pileInMove: (ctx) => (leadingModel(ctx.state, ctx.unit, 'TROUPE MASTER') ? { distance: 6, closestUnitContact: true } : null),
});

/** Cegorach's Favour: the Troupe Master's own melee attacks re-roll a Hit roll of 1 and add 1 to the Wound roll. */
registerRule({
  name: "Cegorach's Favour", kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !attackersAre(ctx.state, ctx.attackers, 'TROUPE MASTER')) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
    plan.woundModifier += 1;
  },
});

// --- Shadowseer, Voidweaver ------------------------------------------------------------------------

/** Ranged attacks reach these units only from this close (Fog of Dreams, Polychromatic Camouflage). */
export const VEILED_RANGE = 18;

/** Fog of Dreams: the unit the Shadowseer leads can be shot only by models within 18" of it. */
registerRule({
  name: 'Fog of Dreams (Psychic)', kind: 'datasheet-ability', leaderAbility: true,
  targetableFrom: (ctx) => ctx.distance <= VEILED_RANGE + 1e-6 || !leadingModel(ctx.state, ctx.unit, 'SHADOWSEER'),
});

/** Polychromatic Camouflage: the Voidweaver can be shot only by models within 18" of it. */
registerRule({
  name: 'Polychromatic Camouflage', kind: 'datasheet-ability',
  targetableFrom: (ctx) => ctx.distance <= VEILED_RANGE + 1e-6,
});

/**
 * Treacherous Illusion: enemy melee attacks at the Shadowseer's unit (it leading one or not) are HAZARDOUS:
 * the attacking models take Hazardous tests after them.
 */
registerRule({
  name: 'Treacherous Illusion (Psychic)', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'defender' && ctx.melee && modelWith(ctx.state, ctx.target, 'SHADOWSEER')) plan.hazardous = true;
  },
});

// --- Death Jester ----------------------------------------------------------------------------------

/** Alive models of each enemy unit when the Death Jester was selected to shoot (params.alive), for Death is Not Enough. */
const JESTER_TALLY = 'Death is Not Enough (before shooting)';
registerRule({ name: JESTER_TALLY, kind: 'effect' });

function aliveCount(u: UnitState): number {
  let n = 0;
  for (const m of u.models) if (m.alive) n++;
  return n;
}

/**
 * Death is Not Enough: after the Death Jester shot in its Shooting phase, one enemy unit it hit (not a
 * MONSTER or VEHICLE) takes a Battle-shock test, at -1 when those attacks destroyed one of its models. The
 * models each enemy unit had are counted when the Death Jester is selected to shoot (the effect above).
 */
registerRule({
  name: 'Death is Not Enough', kind: 'datasheet-ability',
  selectedToShoot(g, unit) {
    const s = g.state;
    if (s.phase !== 'shooting' || s.turn !== unit.player || !modelWith(s, unit, 'DEATH JESTER')) return;
    const alive: Record<string, number> = {};
    for (const id of s.unitOrder) {
      const e = s.units[id];
      if (e.player !== unit.player && e.location === 'battlefield') alive[id] = aliveCount(e);
    }
    for (const e of s.effects.filter((x) => x.kind === JESTER_TALLY && x.unit === unit.id)) g.removeEffect(e.id);
    g.addEffect(JESTER_TALLY, unit.player, unit.id, g.untilEndOfPhase(), { alive });
  },
  afterShooting(g, unit, _hit, hitWith) {
    const s = g.state;
    if (s.phase !== 'shooting' || s.turn !== unit.player || !modelWith(s, unit, 'DEATH JESTER')) return;
    const tally = s.effects.find((x) => x.kind === JESTER_TALLY && x.unit === unit.id);
    const before = (tally?.params.alive ?? {}) as Record<string, number>;
    if (tally) g.removeEffect(tally.id);
    shockOneHitEnemy(
      g, unit, hitWith, 'DEATH JESTER',
      (options) => g.decide({ kind: 'death-is-not-enough', player: unit.player, prompt: `${unit.name}: Death is Not Enough: which enemy unit takes a Battle-shock test?`, options, context: { unit: unit.id } }).option,
      // -1 when those attacks destroyed one of its models
      (target) => ((before[target.id] ?? 0) > aliveCount(target) ? -1 : 0),
      (e) => !isMonsterOrVehicle(e),
    );
  },
});

/** The abilities Cruel Amusement gives the shrieker cannon, one of them (two with Fanged Leer). */
export const CRUEL_AMUSEMENT_CHOICES = ['SUSTAINED HITS 3', 'PRECISION', 'IGNORES COVER'] as const;
export type CruelAmusementChoice = (typeof CRUEL_AMUSEMENT_CHOICES)[number];
const SHRIEKER = 'Shrieker cannon';
/** The effect on the Death Jester's unit until the end of the phase: params.abilities, what its shrieker cannon has. */
export const CRUEL_AMUSEMENT_EFFECT = 'Cruel Amusement (shrieker cannon)';
export const FANGED_LEER = 'Fanged Leer';

/** Fold Cruel Amusement's abilities into a plan of the shrieker cannon (the effect's hook and the heuristic's weighing). */
export function cruelAmusementTweak(plan: AttackPlan, abilities: readonly string[]): void {
  if (abilities.includes('SUSTAINED HITS 3')) plan.sustainedHits = Math.max(plan.sustainedHits, 3);
  if (abilities.includes('PRECISION')) plan.precision = true;
  if (abilities.includes('IGNORES COVER')) plan.ignoresCover = true;
}

/** The options of Cruel Amusement: each ability alone, or each pair of them when the bearer of Fanged Leer shoots. */
export function cruelAmusementOptions(twoOf: boolean): CruelAmusementChoice[][] {
  const c = CRUEL_AMUSEMENT_CHOICES;
  return twoOf ? [[c[0], c[1]], [c[0], c[2]], [c[1], c[2]]] : c.map((x) => [x]);
}

/**
 * Cruel Amusement: each time the Death Jester is selected to shoot in its Shooting phase, its player picks
 * IGNORES COVER, PRECISION or SUSTAINED HITS 3 for its shrieker cannon until the end of the phase (a
 * decision); with Fanged Leer two of them.
 */
registerRule({
  name: 'Cruel Amusement', kind: 'datasheet-ability',
  selectedToShoot(g, unit) {
    const s = g.state;
    if (s.phase !== 'shooting' || s.turn !== unit.player) return;
    const jester = modelWith(s, unit, 'DEATH JESTER');
    if (!jester || !jester.weapons.includes(SHRIEKER)) return;
    const leer = bearerModel(unit, FANGED_LEER) === jester;
    const options = cruelAmusementOptions(leer);
    const { option } = g.decide({
      kind: 'cruel-amusement', player: unit.player, prompt: `${unit.name}: Cruel Amusement: which ${leer ? 'two abilities' : 'ability'} for the shrieker cannon?`, options, context: { unit: unit.id },
    });
    // selected to shoot again: the new choice replaces the last
    for (const e of s.effects.filter((x) => x.kind === CRUEL_AMUSEMENT_EFFECT && x.unit === unit.id)) g.removeEffect(e.id);
    g.addEffect(CRUEL_AMUSEMENT_EFFECT, unit.player, unit.id, g.untilEndOfPhase(), { abilities: [...option] });
  },
});

registerRule({
  name: CRUEL_AMUSEMENT_EFFECT, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && src.effect && ctx.weapon.name === SHRIEKER) cruelAmusementTweak(plan, src.effect.params.abilities as string[]);
  },
});

/** Fanged Leer (Serpent's Brood, Death Jester only): Cruel Amusement picks two abilities, not one (read by Cruel Amusement). */
registerRule({ name: FANGED_LEER, kind: 'enhancement' });

// --- Solitaire -------------------------------------------------------------------------------------

/** The Solitaire's Blitz this turn: params.inches (the 2D6 added to its Move), +3 Attacks to its Solitaire weapons. */
export const BLITZING = 'Blitz (this turn)';
/** Blitz was used: once per battle. */
const BLITZ_USED = 'Blitz (used)';
registerRule({ name: BLITZ_USED, kind: 'effect' });

function blitzUsed(g: Game, unit: UnitState): boolean {
  return g.state.effects.some((e) => e.kind === BLITZ_USED && e.unit === unit.id);
}

/**
 * Blitz: once per battle, in its Movement phase, just before the Solitaire makes a Normal move, its player
 * may use it (a decision): 2D6 are rolled and added to its Move until the end of the turn, and its Solitaire
 * weapons have 3 more Attacks until then.
 */
registerRule({
  name: 'Blitz', kind: 'datasheet-ability',
  beforeMove(g, unit, mode, to) {
    const s = g.state;
    if (mode !== 'normal' || s.phase !== 'movement' || s.turn !== unit.player || !modelWith(s, unit, 'SOLITAIRE') || blitzUsed(g, unit)) return;
    const { option } = g.decide({
      kind: 'blitz', player: unit.player, prompt: `${unit.name}: Blitz (once per battle: +2D6" Move and +3 Attacks to its Solitaire weapons this turn)?`,
      options: ['keep', 'use'], context: { unit: unit.id, to: { ...to } },
    });
    if (option !== 'use') return;
    g.addEffect(BLITZ_USED, unit.player, unit.id, { at: 'end-of-battle' });
    const inches = g.dice.d6(2, 'other', unit.player, unit.id, 'Blitz (2D6" Move)').reduce((a, b) => a + b, 0);
    g.addEffect(BLITZING, unit.player, unit.id, g.untilEndOfTurn(), { inches });
  },
});

registerRule({
  name: BLITZING, kind: 'effect',
  characteristic: (which, value, _ctx, src) => (which === 'M' && src.effect ? value + Number(src.effect.params.inches) : value),
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && src.effect && ctx.weapon.name === 'Solitaire weapons') plan.attacksBonus += 3;
  },
});

/** Blur of Movement: the Solitaire may declare a charge in a turn in which it Advanced. */
registerRule({
  name: 'Blur of Movement', kind: 'datasheet-ability',
  allows: (perm) => perm === 'charge-after-advance',
});
