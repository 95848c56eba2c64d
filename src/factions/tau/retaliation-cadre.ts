/**
 * Retaliation Cadre, a T'au Empire detachment of the data export (not in RULES.md), in the engine's words:
 * its rule Bonded Heroes, its six stratagems and its four Enhancements (Internal Grenade Racks in part). Each is one registry entry; the
 * stratagems' effects are entries of kind 'effect'.
 */
import '../core-first.ts';
import { allows, everyModelHas, registerRule } from '../../core/rules-registry.ts';
import { opponent, type UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedInOpponentsShootingOrFight, targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, unitMove, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, modelBase, modelBody } from '../../rules/battle/world.ts';
import { pathOverlapsBase } from '../../geometry/pathing.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { inReserves } from '../../rules/battle/reserves.ts';
import { gainExtraCp } from '../../rules/battle/command-points.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { forEachUnitNearModel } from '../../rules/battle/transports.ts';
import { attackersAre, attackersAreBearer, bearerComponent, bearerPartStands, intoReservesAtTurnEnd, movedOverMortalWounds, normalMoveAfterShooting, normalMoveChoices } from '../helpers.ts';

export const RETALIATION_CADRE = 'Retaliation Cadre';

const battlesuit = (u: UnitState) => hasKeyword(u, 'BATTLESUIT');

// --- Bonded Heroes ---------------------------------------------------------------------------

const BONDED_BANDS: readonly number[] = [9, 12];
const NO_BAND: readonly number[] = [];

/**
 * Bonded Heroes: a BATTLESUIT model's ranged attack at a unit within 12" has +1 Strength, and within 9" also
 * +1 AP. A BATTLESUIT unit's ranged attack groups split at 9" and 12" (Rule.attackRangeBands), so each
 * model's attacks are measured from that model.
 */
registerRule({
  name: 'Bonded Heroes', kind: 'detachment-rule',
  attackRangeBands: (ctx) => (battlesuit(ctx.unit) ? BONDED_BANDS : NO_BAND),
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || ctx.distance > 12 + 1e-6 || !attackersAre(ctx.state, ctx.attackers, 'BATTLESUIT')) return;
    plan.strength += 1;
    if (ctx.distance <= 9 + 1e-6) plan.ap -= 1;
  },
});

// --- Stratagems ------------------------------------------------------------------------------

/** THE ARRO'KON PROTOCOL's effect: SUSTAINED HITS 1 against a unit of 6+ models, 2 against 11+ (counted as each weapon's attacks are made). */
registerRule({
  name: "The Arro'kon Protocol", kind: 'effect',
  attack(plan, ctx, src) {
    const n = ctx.liveTargetModels ?? ctx.targetModels;
    if (src.role !== 'attacker' || n < 6) return;
    plan.sustainedHits = Math.max(plan.sustainedHits, n >= 11 ? 2 : 1);
  },
});

registerStratagem({
  name: "THE ARRO'KON PROTOCOL", cp: 1, category: 'Battle Tactic', source: RETALIATION_CADRE, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && battlesuit(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect("The Arro'kon Protocol", p, u.id, g.untilEndOfPhase()); },
});

/**
 * FAIL-SAFE DETONATOR's effect on the destroyed model's unit: that model's Deadly Demise is not rolled, the
 * player's choice (params.roll) stands for the roll (Rule.deadlyDemiseRoll).
 */
registerRule({
  name: 'Fail-safe Detonator', kind: 'effect',
  deadlyDemiseRoll: (ctx, src) => (src.effect?.params.model === ctx.model.id ? Number(src.effect.params.roll) : null),
});

/** FAIL-SAFE DETONATOR without Deadly Demise: a D6 for each unit within 6", each 4+ is D3 mortal wounds. */
export const FAIL_SAFE_RANGE = 6;

registerStratagem({
  name: 'FAIL-SAFE DETONATOR', cp: 2, category: 'Epic Deed', source: RETALIATION_CADRE, turn: 'either', windows: ['model/destroyed'],
  // just after a BATTLESUIT model of the player's army is destroyed (before it is removed): its unit
  targets(g, w, p) {
    const u = w.unit ? g.state.units[w.unit] : null;
    const m = u?.models.find((x) => x.id === w.data?.model);
    return u && m && u.player === p && m.pos && g.state.datasheets[m.datasheet].keywords.includes('BATTLESUIT') ? [u] : [];
  },
  use(g, w, p, u) {
    const s = g.state;
    const m = u.models.find((x) => x.id === w.data?.model)!;
    if (s.datasheets[m.datasheet].coreAbilities.some((a) => a.name === 'Deadly Demise')) {
      const { option } = g.decide({
        kind: 'fail-safe-detonator', player: p, prompt: `${u.name}: Fail-safe Detonator: its Deadly Demise roll counts as a 1 or a 6?`,
        options: [6, 1], context: { unit: u.id, model: m.id },
      });
      g.addEffect('Fail-safe Detonator', p, u.id, g.untilEndOfPhase(), { model: m.id, roll: option });
      return;
    }
    forEachUnitNearModel(g, m, FAIL_SAFE_RANGE, (other) => {
      const [roll] = g.dice.d6(1, 'other', p, u.id, `FAIL-SAFE DETONATOR -> ${other.name}`);
      if (roll < 4) return;
      const [d3] = g.dice.roll(1, 3, 'mortal-wounds', p, u.id, `FAIL-SAFE DETONATOR -> ${other.name}`);
      inflictMortalWounds(g, other, d3, u.id);
    });
  },
});

/** THE SHORTENED BLADE's effect: the unit Deep Strikes more than 6" (not 9") from enemy models, and cannot charge this turn. */
registerRule({
  name: 'The Shortened Blade', kind: 'effect',
  deepStrikeDistance: () => 6,
  forbids: (perm) => perm === 'charge',
});

registerStratagem({
  name: 'THE SHORTENED BLADE', cp: 2, category: 'Strategic Ploy', source: RETALIATION_CADRE, turn: 'own', windows: ['movement/reinforcements-start'],
  // a BATTLESUIT unit waiting in Reserves that can arrive by Deep Strike this phase (from Strategic Reserves
  // too: a unit with Deep Strike may arrive from there by it)
  targets: (g, _w, p) => g.state.unitOrder.map((id) => g.state.units[id]).filter((u) =>
    u.player === p && inReserves(u) && !u.flags.arrived && battlesuit(u) && (everyModelHas(u, 'Deep Strike') || allows(g.state, u, 'deep-strike'))),
  use(g, _w, p, u) { g.addEffect('The Shortened Blade', p, u.id, g.untilEndOfTurn()); },
});

/** THE TORCHSTAR GAMBIT's mark: the unit moved after shooting and cannot declare a charge this turn. */
const TORCHSTAR_MOVED = 'The Torchstar Gambit';
registerRule({ name: TORCHSTAR_MOVED, kind: 'effect', forbids: (perm) => perm === 'charge' });

registerStratagem({
  name: 'THE TORCHSTAR GAMBIT', cp: 1, category: 'Strategic Ploy', source: RETALIATION_CADRE, turn: 'own', windows: ['shooting/after-own-shot'],
  // a BATTLESUIT unit that can FLY, just after it shot, not within Engagement Range, with somewhere to go
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && battlesuit(u) && hasKeyword(u, 'FLY') && !isEngaged(g.state, u) && normalMoveChoices(g.state, u).length > 0 ? [u] : [];
  },
  use(g, _w, p, u) {
    const options = normalMoveChoices(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'torchstar-gambit', player: p, prompt: `The Torchstar Gambit: where does ${u.name} move?`, options, context: { unit: u.id } });
    normalMoveAfterShooting(g, u, option, () => unitMove(g.state, u), TORCHSTAR_MOVED);
  },
});

registerStratagem({
  name: 'GRAV-INHIBITOR FIELD', cp: 1, category: 'Strategic Ploy', source: RETALIATION_CADRE, turn: 'opponent', windows: ['charge/after-enemy-charge-declared'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter(battlesuit),
  // the charging unit takes a Battle-shock test, then a D6 for each of its models: each 6 is a mortal wound
  use(g, w, p, u) {
    const e = w.unit ? g.state.units[w.unit] : null;
    if (!e || e.location !== 'battlefield') return;
    battleShockTest(g, e.player, e.id);
    const models = g.state.units[e.id].models.filter((m) => m.alive).length;
    const sixes = g.dice.d6(models, 'other', p, e.id, 'GRAV-INHIBITOR FIELD').filter((v) => v === 6).length;
    if (sixes > 0) inflictMortalWounds(g, g.state.units[e.id], sixes, u.id);
  },
});

/** STIMM INJECTORS' effect: Feel No Pain 6+ this phase. */
registerRule({ name: 'Stimm Injectors', kind: 'effect', feelNoPain: () => 6 });

registerStratagem({
  name: 'STIMM INJECTORS', cp: 1, category: 'Wargear', source: RETALIATION_CADRE, turn: 'either',
  windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  // the opponent's Shooting phase, or either Fight phase: a BATTLESUIT unit the attacking unit targets
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter(battlesuit),
  use(g, _w, p, u) { g.addEffect('Stimm Injectors', p, u.id, g.untilEndOfPhase()); },
});

// --- Enhancements ----------------------------------------------------------------------------

const PROTOTYPE_WEAPON_SYSTEM = 'Prototype Weapon System';
/** Prototype Weapon System's choices. */
export const PROTOTYPE_WEAPON_CHOICES = ['LETHAL HITS', 'SUSTAINED HITS 1'] as const;

/**
 * Prototype Weapon System: each time the bearer's unit is selected to shoot, its player picks LETHAL HITS or
 * SUSTAINED HITS 1 for the bearer's ranged weapons, until the end of the phase (its attacks are over by then).
 */
registerRule({
  name: PROTOTYPE_WEAPON_SYSTEM, kind: 'enhancement',
  selectedToShoot(g, unit) {
    if (!bearerPartStands(unit, PROTOTYPE_WEAPON_SYSTEM)) return;
    const { option } = g.decide({
      kind: 'prototype-weapon-system', player: unit.player, prompt: `${unit.name}: Prototype Weapon System: which ability?`,
      options: [...PROTOTYPE_WEAPON_CHOICES], context: { unit: unit.id },
    });
    g.addEffect(`${PROTOTYPE_WEAPON_SYSTEM} (chosen)`, unit.player, unit.id, g.untilEndOfPhase(), { choice: option });
  },
});

registerRule({
  name: `${PROTOTYPE_WEAPON_SYSTEM} (chosen)`, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !attackersAreBearer(ctx.attacker, ctx.attackers, PROTOTYPE_WEAPON_SYSTEM)) return;
    if (src.effect?.params.choice === 'LETHAL HITS') plan.lethalHits = true;
    else plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

const PURETIDE_ENGRAM = 'Puretide Engram Neurochip';

/** Puretide Engram Neurochip: each time a stratagem targets the bearer's unit, a D6: on a 4+ its player gains 1CP (within the CP cap). */
registerRule({
  name: PURETIDE_ENGRAM, kind: 'enhancement',
  stratagemTargeted(g, unit) {
    if (!bearerPartStands(unit, PURETIDE_ENGRAM)) return;
    const [roll] = g.dice.d6(1, 'other', unit.player, unit.id, PURETIDE_ENGRAM);
    if (roll >= 4) gainExtraCp(g, unit.player, PURETIDE_ENGRAM);
  },
});

/** Starflare Ignition System: at the end of the opponent's turn the bearer's unit, not within Engagement Range, may go into Strategic Reserves. */
registerRule({
  name: 'Starflare Ignition System', kind: 'enhancement',
  turnEnd: intoReservesAtTurnEnd('Starflare Ignition System', 'starflare-ignition', (_g, unit) => {
    const c = bearerComponent(unit, 'Starflare Ignition System');
    return c !== null && !c.destroyed;
  }),
});

const grenadeRacks = movedOverMortalWounds('Internal Grenade Racks', (g, unit, options) => g.decide({
  kind: 'internal-grenade-racks', player: unit.player, prompt: `${unit.name}: Internal Grenade Racks on a unit its bearer moved over?`, options, context: { unit: unit.id },
}).option);

/**
 * Internal Grenade Racks: the bearer has GRENADES, so its unit has (a unit has every keyword of its models, the
 * core rules' Keywords; the rules that read GRENADES select units), and after a Normal move its player may pick
 * one enemy unit the bearer moved over (its own path, Rule.movedAlong) and roll six D6, each 4+ a mortal wound
 * (as Pulse Bombs).
 */
registerRule({
  name: 'Internal Grenade Racks', kind: 'enhancement', grantsKeywords: ['GRENADES'],
  movedAlong(g, unit, moves, mode) {
    if (mode !== 'normal') return;
    const s = g.state;
    const bearer = bearerComponent(unit, 'Internal Grenade Racks');
    const paths = moves.filter((mv) => unit.models.some((m) => m.id === mv.model && m.origin === bearer?.unit));
    const crossed = unitsOnBattlefield(s, opponent(unit.player)).filter((e) => paths.some((mv) => {
      const base = modelBase(s, unit.models.find((m) => m.id === mv.model)!);
      return e.models.some((em) => em.alive && em.pos && pathOverlapsBase(base, mv.path, modelBody(s, em)));
    }));
    grenadeRacks(g, unit, crossed.map((e) => e.id));
  },
});

export const RETALIATION_CADRE_RULES = ['Bonded Heroes'];
