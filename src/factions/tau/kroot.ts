/**
 * T'au Empire datasheet abilities of Kroot units (the Kroot Flesh Shaper, Kroot Hounds, Farstalkers, War
 * Shaper, Krootox Rampagers, Knarloc Riders, Great Knarloc, Lone-Spear), one registry entry each. Written
 * from the datasheets of the data export, in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { BODYGUARD } from '../../data/bodyguard.ts';
import { opponent, type GameState, type UnitState } from '../../core/state.ts';
import { isWithin } from '../../geometry/distance.ts';
import { inEngagementRange } from '../../geometry/ranges.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { FEEL_NO_PAIN_MORTAL, inflictMortalWounds, onUnitDestroyed } from '../../rules/damage.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { isUnitOrItsPart, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, modelBody, unitDistance, unitsInEngagement } from '../../rules/battle/world.ts';
import { attackersAre, leadingModel, modelWith, normalMoveAfterShooting, normalMoveChoices, oncePerRoundDiscount, returnFireHooks, wargearBearers } from '../helpers.ts';
import { lentLeaderModel } from '../../rules/lent-leaders.ts';

// --- Kroot Flesh Shaper ------------------------------------------------------------------------

/** Ritual Butchery: while the Flesh Shaper leads a unit, its models' melee weapons have SUSTAINED HITS 1. */
registerRule({
  name: 'Ritual Butchery', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !leadingModel(ctx.state, ctx.attacker, 'FLESH SHAPER')) return;
    plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

const RITES = 'Rites of Feasting';
/** Effect on the unit once it has feasted: its models have Feel No Pain 5+ for the rest of the battle. */
const FEASTED = 'Rites of Feasting (feasted)';

/**
 * Rites of Feasting: while the Flesh Shaper leads a unit, its models have Feel No Pain 5+ once the unit
 * has destroyed an enemy unit in a Fight phase (while he led it), else 6+. The 5+ is the unit's until
 * the end of the battle, read as outliving the Flesh Shaper: the FEASTED effect gives it against attacks
 * (the plan's Feel No Pain) and the core Feel No Pain against mortal wounds effect against the others.
 */
registerRule({
  name: RITES, kind: 'datasheet-ability', leaderAbility: true,
  feelNoPain(ctx) {
    if (!leadingModel(ctx.state, ctx.unit, 'FLESH SHAPER')) return null;
    return feasted(ctx.state, ctx.unit) ? 5 : 6;
  },
});

registerRule({
  name: FEASTED, kind: 'effect',
  attack(plan, _ctx, src) {
    if (src.role === 'defender' && src.effect) plan.feelNoPain = plan.feelNoPain === null ? 5 : Math.min(plan.feelNoPain, 5);
  },
});

function feasted(state: GameState, unit: UnitState): boolean {
  for (const e of state.effects) if (e.kind === FEASTED && e.unit === unit.id) return true;
  return false;
}

// a unit (or one part of an Attached unit) destroyed by the attacks of a unit the Flesh Shaper leads, in a Fight phase
onUnitDestroyed((g, unit, _component, by) => {
  const s = g.state;
  if (by === null || s.phase !== 'fight') return;
  const killer = s.units[by];
  if (!killer || killer.player === unit.player || feasted(s, killer)) return;
  // led by the Flesh Shaper, or lent the ability by BATTLEFIELD COMMAND ("as if led" for it)
  const led = killer.abilities.includes(RITES) && leadingModel(s, killer, 'FLESH SHAPER') !== null;
  if (!led && !lentLeaderModel(s, killer, RITES, 'FLESH SHAPER')) return;
  g.addEffect(FEASTED, killer.player, killer.id, { at: 'end-of-battle' });
  g.addEffect(FEEL_NO_PAIN_MORTAL, killer.player, killer.id, { at: 'end-of-battle' }, { x: 5 });
});

// --- Kroot Hounds ------------------------------------------------------------------------------

/**
 * Hunting Hounds: while the unit is within 12" of a friendly KROOT CHARACTER model, its models' OC is 1 (a rule
 * that sets it: with Battle-shock, the active player orders the two, see stagedCharacteristic).
 */
registerRule({
  name: 'Hunting Hounds', kind: 'datasheet-ability',
  characteristicStage: { OC: 'set' },
  characteristic(which, v, ctx) {
    if (which !== 'OC' || !nearKrootCharacter(ctx.state, ctx.unit, 12)) return v;
    return 1;
  },
});

/** Is a model of the unit within `range` of an alive KROOT CHARACTER model of a friendly unit on the battlefield? */
function nearKrootCharacter(state: GameState, unit: UnitState, range: number): boolean {
  for (const other of unitsOnBattlefield(state, unit.player)) {
    for (const k of other.models) {
      if (!k.alive || !k.pos) continue;
      const kw = state.datasheets[k.datasheet].keywords;
      if (!kw.includes('KROOT') || !kw.includes('CHARACTER')) continue;
      const body = modelBody(state, k);
      for (const m of unit.models) if (m.alive && m.pos && isWithin(body, modelBody(state, m), range)) return true;
    }
  }
  return false;
}

const LOPING_POUNCE = 'Loping Pounce';

/**
 * Loping Pounce: at the start of its player's Command phase, a unit within 6" of a friendly KROOT
 * INFANTRY unit may declare a charge after Advancing until the end of the turn. The entry is also the
 * effect that allows it.
 */
registerRule({
  name: LOPING_POUNCE, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const near = unitsOnBattlefield(s, unit.player).some((u) =>
      u.id !== unit.id && u.keywords.includes('KROOT') && u.keywords.includes('INFANTRY') && unitDistance(s, unit, u) <= 6 + 1e-6);
    if (near) g.addEffect(LOPING_POUNCE, unit.player, unit.id, g.untilEndOfTurn());
  },
  allows: (perm, _ctx, src) => perm === 'charge-after-advance' && src.effect !== null,
});

// --- Kroot Trail Shaper ------------------------------------------------------------------------

/**
 * Kroot Ambush: after both armies are deployed, the Trail Shaper's unit and one other friendly KROOT unit
 * may be set up again, or placed in Strategic Reserves whatever is there already (src/rules/battle/redeploy.ts).
 */
registerRule({
  name: 'Kroot Ambush', kind: 'datasheet-ability',
  redeploy: {
    max: 2,
    eligible: (bearer, u, chosen) => u.id === bearer.id || (u.keywords.includes('KROOT') && chosen.every((c) => c.id === bearer.id)),
  },
});

// --- Kroot Farstalkers -------------------------------------------------------------------------

const BOUNTY_HUNTERS = 'Bounty Hunters';

/**
 * Bounty Hunters: at the start of the battle the Farstalkers' player picks one unit of the opposing army;
 * the unit's attacks against it have LETHAL HITS and PRECISION. The entry is also the effect on the
 * Farstalkers' unit (params.units: the picked unit's id and the ids of its parts, so that it is still
 * known if an Attached unit splits).
 */
registerRule({
  name: BOUNTY_HUNTERS, kind: 'datasheet-ability',
  battleStart(g, unit) {
    const s = g.state;
    const options = s.unitOrder.filter((id) => {
      const e = s.units[id];
      return e.player === opponent(unit.player) && e.location !== 'attached' && e.location !== 'destroyed';
    });
    if (options.length === 0) return;
    const { option } = g.decide({
      kind: 'bounty-hunters', player: unit.player, prompt: `${unit.name}: Bounty Hunters: which enemy unit is the quarry?`,
      options, context: { unit: unit.id },
    });
    const quarry = s.units[option];
    const units = [quarry.id, ...quarry.components.map((c) => c.unit).filter((id) => id !== quarry.id)];
    g.addEffect(BOUNTY_HUNTERS, unit.player, unit.id, { at: 'end-of-battle' }, { units });
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker') return;
    const units = src.effect.params.units as readonly string[];
    if (!units.includes(ctx.target.id)) return;
    plan.lethalHits = true;
    plan.precision = true;
  },
});

/**
 * Pech'ra (wargear of one Farstalker): while its bearer is alive in the unit, the unit's ranged weapons
 * have IGNORES COVER.
 */
registerRule({
  name: "Pech'ra", kind: 'wargear-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && wargearBearers(ctx.attacker, "Pech'ra").length > 0) plan.ignoresCover = true;
  },
});

// --- Kroot War Shaper --------------------------------------------------------------------------

/** War Leader: once per battle round (for the whole army), a Stratagem that targets the War Shaper's unit costs 1CP less. */
registerRule({ name: 'War Leader', kind: 'datasheet-ability', ...oncePerRoundDiscount('War Leader') });

const ROOT_OF_HONOUR = 'Root of Honour';

/**
 * Root of Honour: once per battle, at the start of a phase, the War Shaper's player may pick one friendly
 * Battle-shocked KROOT unit within 12" of him: it stops being Battle-shocked. Not offered at the start of
 * its player's own Command phase (Battle-shock ends then anyway). Once per battle for each War Shaper (unlike
 * War Leader, the text does not say "one unit from your army with this ability"): its use is kept in the
 * player's rule state under the War Shaper's unit.
 */
registerRule({
  name: ROOT_OF_HONOUR, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase === 'command' && s.turn === unit.player) return;
    const shaper = modelWith(s, unit, 'WAR SHAPER');
    if (!shaper || !shaper.pos) return;
    const key = `${ROOT_OF_HONOUR} (${shaper.origin})`;
    if (s.players[unit.player].ruleState[key]) return;
    const body = modelBody(s, shaper);
    const shocked = unitsOnBattlefield(s, unit.player).filter((u) =>
      u.battleShocked && u.keywords.includes('KROOT') && u.models.some((m) => m.alive && m.pos && isWithin(body, modelBody(s, m), 12)));
    if (shocked.length === 0) return;
    // using it is the first option; keeping it for later the last
    const { option } = g.decide<{ unit: string } | { none: true }>({
      kind: 'root-of-honour', player: unit.player, prompt: `${unit.name}: Root of Honour (once per battle): which unit stops being Battle-shocked?`,
      options: [...shocked.map((u) => ({ unit: u.id })), { none: true }], context: { unit: unit.id },
    });
    if ('none' in option) return;
    g.emit({ type: 'rule-state', player: unit.player, key, value: true });
    g.emit({ type: 'battle-shock', unit: option.unit, value: false });
  },
});

// --- Krootox Rampagers -------------------------------------------------------------------------

/**
 * Kroot Linebreakers: each time the unit ends a Charge move, its player picks one enemy unit within
 * Engagement Range of it (those with more Rampager models in reach offered first); a D6 for each model
 * of the unit within Engagement Range of that unit, and D3 mortal wounds to it for each 4+. If that kills
 * one of its models, it takes a Battle-shock test.
 */
registerRule({
  name: 'Kroot Linebreakers', kind: 'datasheet-ability',
  afterChargeMove(g, unit) {
    const s = g.state;
    const reach = (e: UnitState) => unit.models.filter((m) => m.alive && m.pos && e.models.some((v) => v.alive && v.pos && inEngagementRange(modelBody(s, m), modelBody(s, v)))).length;
    const engaged = unitsOnBattlefield(s, opponent(unit.player)).filter((e) => unitsInEngagement(s, unit, e));
    if (engaged.length === 0) return;
    const counts = new Map(engaged.map((e) => [e.id, reach(e)]));
    // stable sort: the unit order breaks ties
    const options = engaged.map((e) => e.id).sort((a, b) => counts.get(b)! - counts.get(a)!);
    const { option } = g.decide({
      kind: 'kroot-linebreakers', player: unit.player, prompt: `${unit.name}: Kroot Linebreakers: which enemy unit?`,
      options, context: { unit: unit.id },
    });
    const n = counts.get(option)!;
    if (n === 0) return;
    const hits = g.dice.d6(n, 'mortal-wounds', unit.player, unit.id, 'Kroot Linebreakers (4+)').filter((v) => v >= 4).length;
    if (hits === 0) return;
    let mortal = 0;
    for (const v of g.dice.roll(hits, 3, 'mortal-wounds', unit.player, unit.id, 'Kroot Linebreakers (D3 each)')) mortal += v;
    const victim = s.units[option];
    const aliveBefore = victim.models.filter((m) => m.alive).map((m) => m.id);
    inflictMortalWounds(g, victim, mortal, unit.id);
    const after = g.state.units[option];
    const died = aliveBefore.some((id) => !after.models.find((m) => m.id === id)?.alive);
    if (died && after.location === 'battlefield' && after.models.some((m) => m.alive)) battleShockTest(g, after.player, after.id);
  },
});

// --- Knarloc Riders, Great Knarloc -------------------------------------------------------------

/**
 * Thunderous Pounce: once the unit has ended a Charge move this turn, its Knarloc beak and talons have
 * LANCE (+1 to the Wound roll; the flag LANCE reads is the same, so it lasts until the end of the turn).
 */
registerRule({
  name: 'Thunderous Pounce', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || ctx.weapon.name !== 'Knarloc beak and talons' || !ctx.attacker.flags.charged) return;
    if (ctx.profile.abilities.some((a) => a.name === 'LANCE')) return;
    plan.woundModifier += 1;
  },
});

/** Great Knarloc's Loping Stride: an Advance is not rolled; the model moves 6" more instead. */
registerRule({
  name: 'Loping Stride', kind: 'datasheet-ability',
  fixedAdvance: () => 6,
});

// --- Kroot Lone-Spear --------------------------------------------------------------------------

const ADVANCED_SCOUTING = 'Advanced Scouting';

/**
 * Advanced Scouting: once the Lone-Spear's ranged attacks have hit an enemy unit (in any phase: Fire Overwatch
 * too), until the end of the turn the attacks of other KROOT models of its army against that unit may
 * re-roll the Hit roll. The entry is also the army-wide effect (params.target, params.spotter: the
 * Lone-Spear's unit).
 */
registerRule({
  name: ADVANCED_SCOUTING, kind: 'datasheet-ability',
  afterAttacks(g, unit, hitTargets, melee, effect) {
    if (melee || effect) return;
    for (const id of hitTargets) {
      const e = g.state.units[id];
      if (!e || e.player === unit.player) continue;
      if (g.state.effects.some((x) => x.kind === ADVANCED_SCOUTING && x.player === unit.player && x.params.target === id && x.params.spotter === unit.id)) continue;
      g.addEffect(ADVANCED_SCOUTING, unit.player, null, g.untilEndOfTurn(), { target: id, spotter: unit.id });
    }
  },
  attack(plan, ctx, src) {
    const e = src.effect;
    if (!e || src.role !== 'attacker' || !isUnitOrItsPart(ctx.target, e.params.target) || ctx.attacker.id === e.params.spotter) return;
    if (!attackersAre(ctx.state, ctx.attackers, 'KROOT')) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});

/** After its Fire and Fade move the Lone-Spear cannot declare a charge this turn. */
export const LONE_SPEAR_FADED = 'Fire and Fade (Lone-Spear moved)';
registerRule({ name: LONE_SPEAR_FADED, kind: 'effect', forbids: (perm) => perm === 'charge' });

/**
 * The Lone-Spear's Fire and Fade: in its Shooting phase, after it has shot, if it is not within Engagement
 * Range, it may make a Normal move of up to 6" (toward a destination its player picks); if it does, it cannot
 * declare a charge this turn. (The Aeldari stratagem of that name registers its effect under another name.)
 */
registerRule({
  name: 'Fire and Fade', kind: 'datasheet-ability',
  afterShooting(g, unit) {
    const s = g.state;
    if (isEngaged(s, unit)) return;
    const options = normalMoveChoices(s, unit);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'lone-spear-fire-and-fade', player: unit.player, prompt: `${unit.name}: Fire and Fade: a Normal move of up to 6"?`, options, context: { unit: unit.id } });
    normalMoveAfterShooting(g, unit, option, () => 6, LONE_SPEAR_FADED);
  },
});

const PACKMATES = 'Kroot Packmates';
const PACKMATES_USED = 'Kroot Packmates used';

/**
 * Krootox Riders' Kroot Packmates: once per turn (for the army), in the opponent's Shooting phase, when a
 * friendly KROOT INFANTRY unit within 6" of a unit with this ability is selected as the target of ranged
 * attacks, that unit may answer: once the enemy unit has finished its attacks, it shoots at that unit alone
 * (if it is an eligible target). The entry is also the effect that waits for the enemy to finish (params.enemy).
 */
registerRule({
  name: PACKMATES, kind: 'datasheet-ability',
  ...returnFireHooks(PACKMATES, PACKMATES_USED, (t) => t.keywords.includes('KROOT') && t.keywords.includes('INFANTRY'), (g, unit, attacker) => g.decide({
    kind: 'kroot-packmates', player: unit.player, prompt: `${unit.name}: Kroot Packmates: shoot ${attacker.name} once it has shot (once per turn)?`,
    options: ['keep', 'use'] as const, context: { unit: unit.id, attacker: attacker.id },
  }).option),
});

/**
 * Kroot Carnivores' BODYGUARD: with a Starting Strength of 20 the unit takes two Leader units of different
 * datasheets. A fact of Declare Battle Formations, read from the datasheet by the scenario loader and the
 * agent's formations (src/data/bodyguard.ts); when the unit is destroyed each Leader becomes a unit again
 * with its own Starting Strength (splitAttachedUnits detaches every Leader part). No hook here.
 */
registerRule({ name: BODYGUARD, kind: 'datasheet-ability' });
