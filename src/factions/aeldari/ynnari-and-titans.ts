/**
 * Datasheet abilities of Aeldari units outside the bundled armies, one registry entry each, written from the
 * data export's datasheets in the engine's words: the Ynnari (the Visarch, Yvraine's Herald of Ynnead, the
 * Succubus, Kabalite Warriors, Wyches, Incubi), the Phantom and Revenant Titans, the Bonesinger, the D-cannon
 * Platform's Structural Collapse, the Legendary Prince Yriel's Hero of Iyanden, the Ynnari Reavers' Eviscerating
 * Fly-by, the Archon's Reborn Mastermind, the Nightwing's Interceptor and the Yncarne's Ethereal Form.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { belowStartingStrength, characteristic, hasKeyword, isMonsterOrVehicle, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { onUnitDestroyed } from '../../rules/damage.ts';
import { engagedEnemies, modelBody, unitsInEngagement } from '../../rules/battle/world.ts';
import { isWithin } from '../../geometry/distance.ts';
import { inEngagementRange } from '../../geometry/ranges.ts';
import { opponent, type UnitState } from '../../core/state.ts';
import { WALKER, holdMarkersAtCommandEnd, leadingModel, modelWith, modelWithinRangeOf, movedOverMortalWounds, oncePerRoundDiscount, regainD3Wounds, registerMarkerHold, returnDestroyedModel, strikeAround, strikeDamage, wargearBearers, whileLeading } from '../helpers.ts';

const CLUSTER_CALTROPS = 'Cluster Caltrops';

/** The core rules' effect that makes a unit fight in the Fights First step (read by fightsFirst, charge.ts). */
const FIGHTS_FIRST = 'Fights First';

// --- The Visarch, Yvraine ---------------------------------------------------------------------------

/** Way of the Blade: while the Visarch leads a unit, it has Fights First (Rule.fightsFirst). */
registerRule({
  name: 'Way of the Blade', kind: 'datasheet-ability', leaderAbility: true,
  fightsFirst: (ctx) => leadingModel(ctx.state, ctx.unit, 'THE VISARCH') !== null,
});

/** Yvraine's Champion: while the Visarch leads a unit, the other CHARACTER models attached to it have Feel No Pain 4+. */
registerRule({
  name: "Yvraine's Champion", kind: 'datasheet-ability', leaderAbility: true,
  feelNoPain(ctx) {
    const kw = ctx.state.datasheets[ctx.model.datasheet].keywords;
    return kw.includes('CHARACTER') && !kw.includes('THE VISARCH') && leadingModel(ctx.state, ctx.unit, 'THE VISARCH') ? 4 : null;
  },
});

/** Herald of Ynnead's mark on an enemy unit this phase: friendly AELDARI attacks on it re-roll Wound rolls of 1 (params.player: Yvraine's). */
const HERALD_MARK = 'Herald of Ynnead (marked)';
registerRule({
  name: HERALD_MARK, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'defender' && src.effect && ctx.attacker.player === src.effect.player && hasKeyword(ctx.attacker, 'AELDARI')) plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones');
  },
});

/**
 * Herald of Ynnead: at the start of the Fight phase, one enemy unit within Engagement Range of Yvraine is marked
 * (decision `herald-of-ynnead`, no pass); until the end of the phase friendly AELDARI attacks on it re-roll
 * Wound rolls of 1.
 */
registerRule({
  name: 'Herald of Ynnead', kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    if (phase !== 'fight') return;
    const s = g.state;
    const yvraine = unit.models.filter((m) => m.alive && m.pos && s.datasheets[m.datasheet].keywords.includes('YVRAINE'));
    const options = engagedEnemies(s, unit).filter((e) => yvraine.some((m) => e.models.some((x) => x.alive && x.pos && inEngagementRange(modelBody(s, m), modelBody(s, x))))).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'herald-of-ynnead', player: unit.player, prompt: `${unit.name}: Herald of Ynnead: which enemy unit do the Aeldari re-roll Wound rolls of 1 against?`, options, context: { unit: unit.id } });
    g.addEffect(HERALD_MARK, unit.player, option, g.untilEndOfPhase());
  },
});

/**
 * Word of the Phoenix: in its player's Command phase, while Yvraine leads a unit with destroyed Bodyguard models
 * (not Support Weapons), a D6: on 2+, D3+1 of them are returned with their full wounds (returnDestroyedModel: in
 * Unit Coherency, out of Engagement Range; fewer when there is no room).
 */
registerRule({
  name: 'Word of the Phoenix (Psychic)', kind: 'datasheet-ability', leaderAbility: true,
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player || !leadingModel(s, unit, 'YVRAINE')) return;
    const bodyguard = new Set(unit.components.filter((c) => !c.isLeader).map((c) => c.unit));
    const fallen = () => g.state.units[unit.id].models.filter((m) => !m.alive && bodyguard.has(m.origin) && !g.state.datasheets[m.datasheet].keywords.includes('SUPPORT WEAPON'));
    if (fallen().length === 0) return;
    const [d6] = g.dice.d6(1, 'other', unit.player, unit.id, 'Word of the Phoenix (2+)');
    if (d6 < 2) return;
    const [d3] = g.dice.roll(1, 3, 'other', unit.player, unit.id, 'Word of the Phoenix (D3+1 models)');
    for (let i = 0; i < d3 + 1; i++) {
      const m = fallen()[0];
      const u = g.state.units[unit.id];
      if (!m || !returnDestroyedModel(g, u, m.id, 'Word of the Phoenix')) break;
    }
  },
});

// --- Succubus, Kabalite Warriors, Wyches, Incubi -------------------------------------------------

/** Storm of Blades: while the Succubus leads a unit, its models' melee weapons have SUSTAINED HITS 1. */
registerRule({
  name: 'Storm of Blades', kind: 'datasheet-ability', leaderAbility: true,
  attack: whileLeading('SUCCUBUS', (plan) => { if (plan.melee) plan.sustainedHits = Math.max(plan.sustainedHits, 1); }),
});

/** Empowered by Death: at the start of the Fight phase, the Succubus' unit below its Starting Strength has Fights First this phase. */
registerRule({
  name: 'Empowered by Death', kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    if (phase === 'fight' && belowStartingStrength(unit)) g.addEffect(FIGHTS_FIRST, unit.player, unit.id, g.untilEndOfPhase());
  },
});

/** The hold Sadistic Raiders leaves on a marker (params.objective), army-wide for its player. */
const SADISTIC_HOLD = 'Sadistic Raiders (held)';

/**
 * Sadistic Raiders (the Ynnari Kabalite Warriors'): at the end of its player's Command phase, a marker the unit is
 * within range of and its player controls stays theirs until the opponent's Level of Control is the greater at
 * the end of a phase (as Stormblades); from inside a Transport, a marker the Transport is within range of.
 */
registerRule({
  name: 'Sadistic Raiders', kind: 'datasheet-ability', phaseHooksWhileEmbarked: true,
  phaseEnd: (g, unit, phase) => holdMarkersAtCommandEnd(g, unit, phase, SADISTIC_HOLD),
});
registerMarkerHold(SADISTIC_HOLD);

/**
 * No Escape: an enemy unit (not a MONSTER or VEHICLE) that Falls Back from Engagement Range of the Wyches tests
 * Desperate Escape for all its models, at -1 when it is Battle-shocked (Rule.enemyDesperateEscape, movement.ts).
 */
registerRule({
  name: 'No Escape', kind: 'datasheet-ability',
  enemyDesperateEscape: (ctx) => (isMonsterOrVehicle(ctx.fleeing) ? null : { allModels: true, modifier: ctx.fleeing.battleShocked ? -1 : 0 }),
});

/**
 * Tormentors (the Ynnari Incubi's): at the start of the Fight phase, each enemy unit within Engagement Range
 * of one or more units with the ability takes a Battle-shock test: one test, asked by the first of those units in
 * the army's order. (The Drukhari Incubi's adds +1 to hit a Battle-shocked unit; the Ynnari datasheet's does not.)
 */
registerRule({
  name: 'Tormentors', kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    if (phase !== 'fight') return;
    const tormentors = unitsOnBattlefield(g.state, unit.player).filter((u) => u.abilities.includes('Tormentors'));
    for (const e of unitsOnBattlefield(g.state, opponent(unit.player))) {
      if (tormentors.find((u) => unitsInEngagement(g.state, u, e))?.id === unit.id) battleShockTest(g, e.player, e.id);
    }
  },
});

/**
 * Eviscerating Fly-by (the Ynnari Reavers'): after a Normal move (not an Advance: that is the Drukhari Reavers'
 * wording), one enemy unit (not a MONSTER or VEHICLE) the Reavers moved over takes a D6 per Reaver model, a
 * mortal wound for each 4+ (decision `eviscerating-fly-by`); the models with Cluster Caltrops each let one of
 * those dice be re-rolled (a failed one).
 */
registerRule({
  name: 'Eviscerating Fly-by', kind: 'datasheet-ability',
  movedOver: movedOverMortalWounds('Eviscerating Fly-by', (g, unit, options) => g.decide({
    kind: 'eviscerating-fly-by', player: unit.player, prompt: `${unit.name}: Eviscerating Fly-by on a unit it moved over?`, options, context: { unit: unit.id },
  }).option, (e) => !isMonsterOrVehicle(e), (u) => u.models.filter((m) => m.alive).length, (u) => wargearBearers(u, CLUSTER_CALTROPS).length),
});

/** Reborn Mastermind: once per battle round, a stratagem on the Archon's unit may cost 1CP less (one Archon of the army a round). */
registerRule({ name: 'Reborn Mastermind', kind: 'datasheet-ability', ...oncePerRoundDiscount('Reborn Mastermind') });

/**
 * Overlord (Ynnari Archon): the attacks of the unit it leads re-roll Wound rolls of 1, and the failed ones
 * while that unit is below its Starting Strength ("can re-roll the Wound roll": the failed ones, as a player
 * would, as the other such rules here).
 */
registerRule({
  name: 'Overlord', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !leadingModel(ctx.state, ctx.attacker, 'ARCHON')) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, belowStartingStrength(ctx.attacker) ? 'failed' : 'ones');
  },
});

/** Aethersails (Ynnari Raider): it Advances without a roll, 6" added to its Move instead (as a fixed Advance of 6"). */
registerRule({ name: 'Aethersails', kind: 'datasheet-ability', fixedAdvance: () => 6 });

/** Interceptor: the Nightwing's ranged attacks at a unit that can FLY have +1 to hit. */
registerRule({
  name: 'Interceptor', kind: 'datasheet-ability',
  attack(plan, ctx, src) { if (src.role === 'attacker' && !ctx.melee && hasKeyword(ctx.target, 'FLY')) plan.hitModifier += 1; },
});

/**
 * Ethereal Form: each time the Yncarne destroys an enemy unit (its attacks or abilities remove the unit's last
 * model), it regains up to D3 lost wounds. The listener hears each part of an Attached unit as it is destroyed,
 * and a part counts as a unit destroyed (core rules, Attached Units), so the Leader's survival does not matter.
 */
registerRule({ name: 'Ethereal Form', kind: 'datasheet-ability' });

onUnitDestroyed((g, unit, _component, by) => {
  const y = by ? g.state.units[by] : null;
  if (!y || y.player === unit.player || !onBattlefield(y) || !y.abilities.includes('Ethereal Form')) return;
  const m = y.models.find((x) => x.alive && g.state.datasheets[x.datasheet].abilities.includes('Ethereal Form'));
  if (!m) return;
  const lost = characteristic(g.state, y, m, 'W') - m.wounds;
  if (lost <= 0) return;
  regainD3Wounds(g, y, y, m, 'Ethereal Form (D3 wounds)');
});

// --- Phantom Titan, Revenant Titan ---------------------------------------------------------------

/** Titanic Advance: the Titans' Normal, Advance and Fall Back moves pass over models other than TITANIC ones and terrain up to 4" high (Rule.movesOver). */
registerRule({ name: 'Titanic Advance', kind: 'datasheet-ability', movesOver: WALKER });

/**
 * Towering Wraith Construct: a stratagem its player uses on the Titan costs twice its stated CP (the Revenant
 * Titan's), three times (the Phantom Titan's: the two datasheets word the ability of that name differently).
 */
registerRule({
  name: 'Towering Wraith Construct', kind: 'datasheet-ability',
  targetedStratagemSurcharge: (ctx) => (modelWith(ctx.state, ctx.unit, 'PHANTOM TITAN') ? 2 * ctx.cp : ctx.cp),
});

/** Flawless Poise: the Phantom Titan may shoot and declare a charge in a turn in which it Fell Back. */
registerRule({ name: 'Flawless Poise', kind: 'datasheet-ability', allows: (perm) => perm === 'shoot-after-fall-back' || perm === 'charge-after-fall-back' });

/** Revenant Jet Pack: an Advance is not rolled: +8" instead. */
registerRule({ name: 'Revenant Jet Pack', kind: 'datasheet-ability', fixedAdvance: () => 8 });

/** Into the Foe's effect on a unit that got out of the Vampire Raider before it moved: it may charge this turn though it Advanced. */
const INTO_THE_FOE = 'Into the Foe (disembarked)';
registerRule({ name: INTO_THE_FOE, kind: 'effect', allows: (perm) => perm === 'charge-after-advance' });

/** Into the Foe: a unit that disembarks from the Vampire Raider before it moves may declare a charge this turn although it Advanced. */
registerRule({
  name: 'Into the Foe', kind: 'datasheet-ability',
  passengerDisembarked(g, _transport, passenger, before) { if (before) g.addEffect(INTO_THE_FOE, passenger.player, passenger.id, g.untilEndOfTurn()); },
});

// --- Cobra ------------------------------------------------------------------------------------------

/** D-rift's mark on the Cobra this phase (params.struck: the units struck, who suffer D3 mortal wounds once it has shot). */
const D_RIFT_STRUCK = 'D-rift (struck)';
registerRule({ name: D_RIFT_STRUCK, kind: 'effect' });

/**
 * D-rift: in its Shooting phase, once the Cobra has selected its targets, a D6 for its D-impaler's target and for
 * every other unit within 3" of it (the rule says every unit: friendly ones too, the Cobra itself among them);
 * each 5+ is struck and suffers D3 mortal wounds once the Cobra has made its attacks.
 */
registerRule({
  name: 'D-rift', kind: 'datasheet-ability',
  targetsSelected(g, unit, _targets, assigned) {
    const s = g.state;
    const aim = assigned?.find((a) => a.weapon === 'D-impaler');
    if (s.phase !== 'shooting' || s.turn !== unit.player || !aim) return;
    strikeAround(g, unit, s.units[aim.target], false, D_RIFT_STRUCK, 'D-rift (5+: struck)');
  },
  afterShooting(g, unit) { strikeDamage(g, unit, D_RIFT_STRUCK, 'D-rift'); },
});

// --- Bonesinger, D-cannon Platform, Prince Yriel (Legendary) ----------------------------------------

/** Way of the Shaper: while the Bonesinger leads a unit, its WRAITH CONSTRUCT models have Feel No Pain 6+. */
registerRule({
  name: 'Way of the Shaper (Psychic)', kind: 'datasheet-ability', leaderAbility: true,
  feelNoPain: (ctx) => (ctx.state.datasheets[ctx.model.datasheet].keywords.includes('WRAITH CONSTRUCT') && leadingModel(ctx.state, ctx.unit, 'BONESINGER') ? 6 : null),
});

const bonesingerEscort = (f: UnitState) => hasKeyword(f, 'WRAITH CONSTRUCT') || (hasKeyword(f, 'ASURYANI') && hasKeyword(f, 'VEHICLE'));

/** Bonesinger: within 3" of a friendly WRAITH CONSTRUCT or ASURYANI VEHICLE unit, and leading no unit, it has Lone Operative. */
registerRule({
  name: 'Bonesinger', kind: 'datasheet-ability',
  loneOperative({ state, unit }) {
    if (unit.components.length > 1) return false;
    const me = unit.models.filter((m) => m.alive && m.pos);
    return unitsOnBattlefield(state, unit.player).some((f) => f.id !== unit.id && bonesingerEscort(f) && me.some((m) => modelWithinRangeOf(state, m, f, 3)));
  },
  escortedBy: (f, unit) => unit.components.length === 1 && bonesingerEscort(f),
});

/**
 * Psytronome Shaper: in its player's Command phase, one friendly WRAITH CONSTRUCT or ASURYANI VEHICLE model within
 * 3" of the Bonesinger that lost wounds regains up to D3 (decision `psytronome-shaper`, the most hurt first).
 */
registerRule({
  name: 'Psytronome Shaper', kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const shapers = unit.models.filter((m) => m.alive && m.pos && s.datasheets[m.datasheet].keywords.includes('BONESINGER'));
    const hurt: { unit: string; model: string; lost: number }[] = [];
    for (const f of unitsOnBattlefield(s, unit.player)) {
      for (const m of f.models) {
        if (!m.alive || !m.pos) continue;
        const kw = s.datasheets[m.datasheet].keywords;
        const fk = s.datasheets[m.datasheet].factionKeywords ?? [];
        if (!kw.includes('WRAITH CONSTRUCT') && !(kw.includes('VEHICLE') && fk.includes('ASURYANI'))) continue;
        const lost = characteristic(s, f, m, 'W') - m.wounds;
        if (lost > 0 && shapers.some((b) => isWithin(modelBody(s, b), modelBody(s, m), 3))) hurt.push({ unit: f.id, model: m.id, lost });
      }
    }
    if (hurt.length === 0) return;
    hurt.sort((a, b) => b.lost - a.lost);
    const { option } = g.decide({ kind: 'psytronome-shaper', player: unit.player, prompt: `${unit.name}: Psytronome Shaper: which model regains up to D3 wounds?`, options: hurt.map((h) => h.model), context: { unit: unit.id } });
    const chosen = hurt.find((h) => h.model === option)!;
    const healed = s.units[chosen.unit];
    regainD3Wounds(g, unit, healed, healed.models.find((m) => m.id === chosen.model)!, 'Psytronome Shaper (D3 wounds)');
  },
});

/** Structural Collapse: the D-cannon re-rolls Damage rolls of 1, any Damage roll against a TITANIC unit. */
registerRule({
  name: 'Structural Collapse', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.weapon.name !== 'D-cannon') return;
    if (hasKeyword(ctx.target, 'TITANIC')) plan.rerollDamage = true;
    else plan.rerollDamageOnes = true;
  },
});

/** Hero of Iyanden: while the Legendary Prince Yriel leads a unit, its models have +1 OC. */
registerRule({
  name: 'Hero of Iyanden', kind: 'datasheet-ability', leaderAbility: true,
  characteristic: (which, value, ctx) => (which === 'OC' && leadingModel(ctx.state, ctx.unit, 'PRINCE YRIEL') ? value + 1 : value),
});
