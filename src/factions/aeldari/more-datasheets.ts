/**
 * More Aeldari datasheet abilities (units outside the bundled armies), one registry entry each, written
 * from the data export's datasheets in the engine's words: the Avatar of Khaine, Striking Scorpions,
 * Lynx, Scorpion, Dark Reapers, Night Spinner, Shroud Runners, Storm Guardians, Shadow Spectres, the Hemlock
 * Wraithfighter, Amallyn Shadowguide, Lhykhis, the Shadow Weaver Platform and the Vibro Cannon Platform.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { isEngaged } from '../../rules/battle/world.ts';
import { isMonsterOrVehicle } from '../../rules/battle/units.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { hitByWeapons, hitEnemies, holdMarkersAtCommandEnd, leadingModel, modelWithinRangeOf, registerMarkerHold, movedOverMortalWounds, normalMoveAfterShooting, normalMoveChoices, untilStartOfNextTurn, withinAuraOf } from '../helpers.ts';

// --- Avatar of Khaine ------------------------------------------------------------------------------

/** Molten Form: the Damage characteristic of an attack allocated to the Avatar is halved (rounded up). */
registerRule({
  name: 'Molten Form', kind: 'datasheet-ability',
  attack(plan, _ctx, src) {
    if (src.role === 'defender') plan.halveDamage = true;
  },
});

const BLOODY_HANDED = 'The Bloody-Handed (Aura)';

/**
 * The Bloody-Handed (Aura): a friendly AELDARI unit within 6" of the Avatar adds 1 to its Advance and
 * Charge rolls (the Avatar's own unit too). Walked for every unit of its army (Rule.aura).
 */
registerRule({
  name: BLOODY_HANDED, kind: 'datasheet-ability', aura: true,
  rollModifier(purpose, ctx, src) {
    // as the Avatar's own ability the army-wide walk already covers its unit
    if ((purpose !== 'advance' && purpose !== 'charge') || src.unit !== null || !ctx.unit.keywords.includes('AELDARI')) return 0;
    return withinAuraOf(ctx.state, ctx.unit, BLOODY_HANDED, 'AVATAR OF KHAINE', 6) ? 1 : 0;
  },
});

// --- Striking Scorpions ----------------------------------------------------------------------------

/** Mandiblasters: melee attacks of a unit that made a Charge move this turn score Critical Hits on an unmodified 5+. */
registerRule({
  name: 'Mandiblasters', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && ctx.melee && ctx.attacker.flags.charged) plan.criticalHitOn = Math.min(plan.criticalHitOn, 5);
  },
});

// --- Lynx ------------------------------------------------------------------------------------------

/** Speed of Vaul: the Lynx's Advance is not rolled: it moves 9" more. */
registerRule({ name: 'Speed of Vaul', kind: 'datasheet-ability', fixedAdvance: () => 9 });

// --- Scorpion --------------------------------------------------------------------------------------

/**
 * Lanced Obliteration: a model with Deadly Demise destroyed by an attack of the Scorpion's twin Scorpion
 * pulsar sets off its mortal wounds on a 4+ rather than a 6 (AttackPlan.deadlyDemiseOn, read by Deadly Demise).
 */
registerRule({
  name: 'Lanced Obliteration', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && ctx.weapon.name === 'Twin Scorpion pulsar') plan.deadlyDemiseOn = Math.min(plan.deadlyDemiseOn, 4);
  },
});

// --- Hornet -----------------------------------------------------------------------------------------

/**
 * Lightning Assault: each time the Hornet ends a Normal move, its player may select one enemy unit it moved
 * over (not MONSTER or VEHICLE) and roll six D6: each 4+ inflicts 1 mortal wound on it.
 */
registerRule({
  name: 'Lightning Assault', kind: 'datasheet-ability',
  movedOver: movedOverMortalWounds('Lightning Assault', (g, unit, options) => g.decide({
    kind: 'lightning-assault', player: unit.player, prompt: `${unit.name}: Lightning Assault on a unit it moved over?`, options, context: { unit: unit.id },
  }).option, (e) => !isMonsterOrVehicle(e)),
});

// --- Dark Reapers ----------------------------------------------------------------------------------

/**
 * Inescapable Accuracy: the unit's ranged attacks may ignore modifiers to their Ballistic Skill and to
 * the Hit roll; the plan builder drops the Hit roll penalties and restores a worsened BS
 * (AttackPlan.ignoreHitModifiers, ignoreSkillModifiers).
 */
registerRule({
  name: 'Inescapable Accuracy', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee) { plan.ignoreHitModifiers = true; plan.ignoreSkillModifiers = true; }
  },
});

// --- Night Spinner ---------------------------------------------------------------------------------

const PINNED = 'Monofilament Web (pinned)';

/**
 * Monofilament Web: after the Night Spinner shot in its Shooting phase, each enemy unit its doomweaver
 * hit is pinned until the start of its player's next turn (the effect below).
 */
registerRule({
  name: 'Monofilament Web', kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    for (const e of hitEnemies(g, unit, hitByWeapons(hitWith, new Set(['doomweaver'])))) {
      // pinned once: a second web does not pin it twice
      if (g.state.effects.some((x) => x.kind === PINNED && x.unit === e.id && x.player === unit.player)) continue;
      g.addEffect(PINNED, unit.player, e.id, untilStartOfNextTurn(g, unit.player));
    }
  },
});

/** Pinned: -2" to the unit's Move characteristic and -2 to its Charge rolls. */
registerRule({
  name: PINNED, kind: 'effect',
  characteristic: (which, value) => (which === 'M' ? Math.max(0, value - 2) : value),
  rollModifier: (purpose) => (purpose === 'charge' ? -2 : 0),
});

// --- Shroud Runners --------------------------------------------------------------------------------

const TARGET_ACQUISITION = 'Target Acquisition';

/**
 * Target Acquisition: after the unit shot in its Shooting phase, it picks one enemy unit its long rifles
 * hit; until the end of the phase that unit cannot have the Benefit of Cover. The entry is also the
 * effect, on the enemy unit.
 */
registerRule({
  name: TARGET_ACQUISITION, kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    const options = hitEnemies(g, unit, hitByWeapons(hitWith, new Set(['long rifle']))).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'target-acquisition', player: unit.player, prompt: `${unit.name}: Target Acquisition: which enemy unit?`, options, context: { unit: unit.id } });
    g.addEffect(TARGET_ACQUISITION, unit.player, option, g.untilEndOfPhase());
  },
  attack(plan, ctx, src) {
    // IGNORES COVER also takes away the cover of the models that have it one by one
    if (src.effect && src.role === 'defender' && !ctx.melee) plan.ignoresCover = true;
  },
});

// --- Storm Guardians -------------------------------------------------------------------------------

/** The effect Stormblades leaves on a marker (params.objective), army-wide for its player. */
export const STORMBLADES_HOLD = 'Stormblades (held)';

/**
 * Stormblades: at the end of its player's Command phase, each marker the unit is within range of and its
 * player controls stays under that player's control (without models in range too, and after the unit is
 * gone) until the end of a phase at which the opponent's Level of Control over it is the greater.
 */
registerRule({
  name: 'Stormblades', kind: 'datasheet-ability',
  phaseEnd: (g, unit, phase) => holdMarkersAtCommandEnd(g, unit, phase, STORMBLADES_HOLD),
});

/** The hold (registerMarkerHold, shared with the Corsair Coterie's Void Thieves). */
registerMarkerHold(STORMBLADES_HOLD);

// --- Shadow Spectres -------------------------------------------------------------------------------

/** After a Shade of Twilight move the unit cannot declare a charge this turn. */
export const SHADE_MOVED = 'Shade of Twilight (moved)';
registerRule({ name: SHADE_MOVED, kind: 'effect', forbids: (perm) => perm === 'charge' });

/**
 * Shade of Twilight: after the unit shot in its Shooting phase, not within Engagement Range, it may make
 * a Normal move of up to D6" (as FIRE AND FADE moves: toward a destination the player picks, then the
 * D6 is rolled); if it does, it cannot declare a charge this turn.
 */
registerRule({
  name: 'Shade of Twilight', kind: 'datasheet-ability',
  afterShooting(g, unit) {
    if (isEngaged(g.state, unit)) return;
    const options = normalMoveChoices(g.state, unit);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'shade-of-twilight', player: unit.player, prompt: `${unit.name}: Shade of Twilight: a Normal move of up to D6"?`, options, context: { unit: unit.id } });
    normalMoveAfterShooting(g, unit, option, () => g.dice.d6(1, 'other', unit.player, unit.id, 'Shade of Twilight')[0], SHADE_MOVED);
  },
});

// --- Hemlock Wraithfighter -------------------------------------------------------------------------

/**
 * Mindshock Pod (Aura): an enemy unit within 9" of the Hemlock Wraithfighter takes its Battle-shock tests
 * and Leadership tests (Wraith-Marked's) at -1 (Rule.enemyBattleShockModifier, as Shadow of Death; two Hemlocks, -1).
 */
registerRule({
  name: 'Mindshock Pod (Aura, Psychic)', kind: 'datasheet-ability',
  enemyBattleShockModifier: (ctx) => (ctx.unit.models.some((m) => m.alive && m.pos && modelWithinRangeOf(ctx.state, m, ctx.tested, 9)) ? -1 : 0),
});

// --- Amallyn Shadowguide, Lhykhis ------------------------------------------------------------------

/**
 * The Path Least Travelled: after both armies are deployed and the first turn is decided, one Rangers or Shroud
 * Runners unit of the army may be set up again, or placed in Strategic Reserves whatever is there already (the
 * Redeploy Units step's pass after the first turn, src/rules/battle/redeploy.ts).
 */
registerRule({
  name: 'The Path Least Travelled', kind: 'datasheet-ability',
  redeploy: { max: 1, afterFirstTurn: true, eligible: (_bearer, u) => u.keywords.includes('RANGERS') || u.keywords.includes('SHROUD RUNNERS') },
});

/** Empyric Ambush: while Lhykhis leads a unit, it may declare a charge in a turn it used its Flickerjump. */
registerRule({
  name: 'Empyric Ambush', kind: 'datasheet-ability', leaderAbility: true,
  allows: (perm, ctx) => perm === 'charge-after-flickerjump' && leadingModel(ctx.state, ctx.unit, 'LHYKHIS') !== null,
});

// --- Shadow Weaver Platform --------------------------------------------------------------------------

const SHADOW_WEAVER: ReadonlySet<string> = new Set(['shadow weaver']);

/** The snare on an enemy unit (Monofilament Snare): each Normal, Advance or Fall Back move it makes, a D6 per model, each 1 a mortal wound. */
const SNARED = 'Monofilament Snare (snared)';
registerRule({
  name: SNARED, kind: 'effect',
  markedUnitMoved(g, unit, effect) {
    const models = unit.models.filter((m) => m.alive).length;
    if (models === 0) return;
    const ones = g.dice.d6(models, 'mortal-wounds', effect.player, unit.id, 'Monofilament Snare (each 1: 1 mortal wound)').filter((v) => v === 1).length;
    if (ones > 0) inflictMortalWounds(g, unit, ones, null);
  },
});

/**
 * Monofilament Snare: after the platform shot in its Shooting phase, one enemy unit its shadow weaver hit is
 * snared until the start of its player's next turn (decision `monofilament-snare`; no pass).
 */
registerRule({
  name: 'Monofilament Snare', kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    const options = hitEnemies(g, unit, hitByWeapons(hitWith, SHADOW_WEAVER)).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'monofilament-snare', player: unit.player, prompt: `${unit.name}: Monofilament Snare: which enemy unit is snared?`, options, context: { unit: unit.id } });
    g.addEffect(SNARED, unit.player, option, untilStartOfNextTurn(g, unit.player));
  },
});

// --- Vibro Cannon Platform ---------------------------------------------------------------------------

/** Mark on an enemy unit a Vibro Cannon Platform aimed its vibro cannon at this phase (params.by: the platform's unit). */
const VIBRO_TARGETED = 'Sonic Destruction (targeted)';
registerRule({ name: VIBRO_TARGETED, kind: 'effect' });

/**
 * Sonic Destruction: in its Shooting phase, each attack of the platform's vibro cannon has +1 Strength, +1 AP and
 * +1 Damage for each other friendly Vibro Cannon Platform that attacked the same enemy unit with its vibro cannon
 * this phase (counted when each selects its targets, so the first to shoot gets none).
 */
registerRule({
  name: 'Sonic Destruction', kind: 'datasheet-ability',
  targetsSelected(g, unit, _targets, assigned) {
    if (g.state.phase !== 'shooting' || g.state.turn !== unit.player) return;
    for (const a of assigned ?? []) if (a.weapon === 'Vibro cannon') g.addEffect(VIBRO_TARGETED, unit.player, a.target, g.untilEndOfPhase(), { by: unit.id });
  },
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.weapon.name !== 'Vibro cannon' || ctx.state.phase !== 'shooting') return;
    let n = 0;
    for (const e of ctx.state.effects) if (e.kind === VIBRO_TARGETED && e.unit === ctx.target.id && e.player === ctx.attacker.player && e.params.by !== ctx.attacker.id) n++;
    if (n === 0) return;
    plan.strength += n;
    plan.ap -= n;
    plan.damageBonus += n;
  },
});
