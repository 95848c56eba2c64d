/**
 * Guardian Battlehost, an Aeldari detachment of the data export (not in RULES.md), in the engine's words:
 * its rule Defend at All Costs, its six stratagems and its four Enhancements. Each is one
 * registry entry; the stratagems' effects are entries of kind 'effect'.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, PlayerIndex, UnitState } from '../../core/state.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { FIRE_OVERWATCH_EFFECT } from '../../rules/stratagems/core.ts';
import { targetedInOpponentsShootingOrFight, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { canShoot, shootWithUnit } from '../../rules/battle/shooting.ts';
import { isEngaged } from '../../rules/battle/world.ts';
import { bearerComponent, bearerLeads, intoReservesRestored, selectUpTo, withinObjectiveRange, withinRangeOfMarker } from '../helpers.ts';

export const GUARDIAN_BATTLEHOST = 'Guardian Battlehost';

/** The datasheet keywords of the models Defend at All Costs helps. */
const DEFENDERS = ['DIRE AVENGERS', 'GUARDIANS', 'SUPPORT WEAPON', 'WAR WALKERS'];

const defenderModels = (state: GameState, models: readonly ModelState[]) =>
  models.length > 0 && models.every((m) => DEFENDERS.some((k) => state.datasheets[m.datasheet].keywords.includes(k)));

/** A Dire Avengers or Guardians unit (most of the detachment's stratagems' targets). */
const avengersOrGuardians = (u: UnitState) => hasKeyword(u, 'DIRE AVENGERS') || hasKeyword(u, 'GUARDIANS');

/**
 * Defend at All Costs: an attack by a Dire Avenger, Guardian, Support Weapon or War Walker model gets +1 to
 * hit while its unit or the target unit is within range of an objective marker.
 */
registerRule({
  name: 'Defend at All Costs', kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !defenderModels(ctx.state, ctx.attackers)) return;
    if (withinObjectiveRange(ctx.state, ctx.attacker) || withinObjectiveRange(ctx.state, ctx.target)) plan.hitModifier += 1;
  },
});

// --- Stratagems ------------------------------------------------------------------------------

/** SHIELD NODES' effect: attacks that target the unit get -1 to wound this phase. */
registerRule({
  name: 'Shield Nodes', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.woundModifier -= 1; },
});

registerStratagem({
  name: 'SHIELD NODES', cp: 1, category: 'Battle Tactic', source: GUARDIAN_BATTLEHOST, turn: 'either',
  windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  // the opponent's Shooting phase or either Fight phase: a targeted Dire Avengers or Guardians unit within
  // range of an objective marker (the condition is read when the stratagem is used)
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => avengersOrGuardians(u) && withinObjectiveRange(g.state, u)),
  use(g, _w, p, u) { g.addEffect('Shield Nodes', p, u.id, g.untilEndOfPhase()); },
});

/** WARDING SALVOES' effect: the unit's attacks at a unit within range of an objective marker may re-roll the Wound roll. */
registerRule({
  name: 'Warding Salvoes', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && withinObjectiveRange(ctx.state, ctx.target)) plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
  },
});

registerStratagem({
  name: 'WARDING SALVOES', cp: 1, category: 'Battle Tactic', source: GUARDIAN_BATTLEHOST, turn: 'either',
  // its player's Shooting phase (a unit of theirs selected to shoot), or either Fight phase
  windows: ['shooting/unit-selected', 'fight/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && avengersOrGuardians(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Warding Salvoes', p, u.id, g.untilEndOfPhase()); },
});

/**
 * TIME TO STRIKE's effect until the end of the turn: an Advance adds 6" (no roll), and the unit may still
 * shoot (its ranged weapons count as ASSAULT, the engine's test for shooting after an Advance) and charge.
 */
registerRule({
  name: 'Time to Strike', kind: 'effect',
  fixedAdvance: () => 6,
  allows: (perm) => perm === 'charge-after-advance',
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee',
});

registerStratagem({
  name: 'TIME TO STRIKE', cp: 1, category: 'Strategic Ploy', source: GUARDIAN_BATTLEHOST, turn: 'own', windows: ['movement/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && u.location === 'battlefield' && hasKeyword(u, 'STORM GUARDIANS') ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Time to Strike', p, u.id, g.untilEndOfTurn()); },
});

/** The GUARDIANS models of the unit that were destroyed (COST OF VICTORY returns them). */
export function destroyedGuardians(state: GameState, u: UnitState): ModelState[] {
  return u.models.filter((m) => !m.alive && state.datasheets[m.datasheet].keywords.includes('GUARDIANS'));
}

registerStratagem({
  name: 'COST OF VICTORY', cp: 1, category: 'Strategic Ploy', source: GUARDIAN_BATTLEHOST, turn: 'opponent', windows: ['phase/end'],
  // at the end of the opponent's Fight phase: a Guardians unit not within Engagement Range
  targets: (g, w, p) => (w.data?.phase !== 'fight' ? [] : unitsOnBattlefield(g.state, p).filter((u) => hasKeyword(u, 'GUARDIANS') && !isEngaged(g.state, u))),
  // into Strategic Reserves, every destroyed GUARDIANS model back with its full wounds
  use(g, _w, _p, u) { intoReservesRestored(g, u, destroyedGuardians); },
});

/** Did the attacks of the window's enemy unit destroy a Dire Avengers or Guardians unit (or Attached-unit part) of `player`? */
function avengersOrGuardiansDestroyed(state: GameState, destroyed: readonly string[], player: PlayerIndex): boolean {
  for (const id of destroyed) {
    for (const uid of state.unitOrder) {
      const u = state.units[uid];
      if (u.player !== player) continue;
      const c = u.components.find((x) => x.unit === id);
      if (!c) continue;
      const kw = state.datasheets[c.datasheet].keywords;
      if (kw.includes('DIRE AVENGERS') || kw.includes('GUARDIANS')) return true;
    }
  }
  return false;
}

/**
 * VAUL'S VENGEANCE, once per battle round: when an enemy unit's attacks (in the opponent's Shooting phase or
 * either Fight phase) destroyed a Dire Avengers or Guardians unit, a War Walkers unit shoots that enemy unit
 * alone once it has finished its attacks, as in its own Shooting phase. The stratagem is used at that
 * moment, the attacks' end, which is when its effect comes: the windows that follow an enemy unit's attacks.
 */
registerStratagem({
  name: "VAUL'S VENGEANCE", cp: 1, category: 'Battle Tactic', source: GUARDIAN_BATTLEHOST, turn: 'either',
  windows: ['shooting/after-enemy-shot', 'fight/after-enemy-fought'],
  targets(g, w, p) {
    const s = g.state;
    const e = w.unit ? s.units[w.unit] : null;
    if (!e || e.player === p || !onBattlefield(e) || (w.name === 'shooting/after-enemy-shot' && s.turn === p)) return [];
    if (s.players[p].stratagemsUsed.some((x) => x.name === "VAUL'S VENGEANCE" && x.round === s.round)) return [];
    if (!avengersOrGuardiansDestroyed(s, (w.data?.destroyed as string[] | undefined) ?? [], p)) return [];
    return unitsOnBattlefield(s, p).filter((u) => hasKeyword(u, 'WAR WALKERS') && canShoot(g, u, e.id));
  },
  use(g, w, _p, u) { shootWithUnit(g, u, { onlyTarget: w.unit! }); },
});

/** BLADES OF ASURYAN's effect: the unit's ranged weapons have PISTOL this phase (the engine reads it in combat). */
registerRule({
  name: 'Blades of Asuryan', kind: 'effect',
  weaponAbility: (ability, ctx) => ability === 'PISTOL' && ctx.profile.range !== 'Melee',
});

registerStratagem({
  name: 'BLADES OF ASURYAN', cp: 1, category: 'Battle Tactic', source: GUARDIAN_BATTLEHOST, turn: 'own', windows: ['phase/start'],
  // at the start of the player's Shooting phase, before any unit is selected to shoot: a Dire Avengers or
  // Guardians unit within Engagement Range (the only place where PISTOL changes what it may shoot)
  targets: (g, w, p) => (w.data?.phase !== 'shooting' ? [] : unitsOnBattlefield(g.state, p).filter((u) => avengersOrGuardians(u) && !u.flags.shot && isEngaged(g.state, u))),
  use(g, _w, p, u) { g.addEffect('Blades of Asuryan', p, u.id, g.untilEndOfPhase()); },
});

// --- Enhancements ----------------------------------------------------------------------------

const CRAFTWORLDS_CHAMPION = "Craftworld's Champion";

/**
 * Craftworld's Champion: the bearer has an Objective Control characteristic of 5: a rule that sets it, so that
 * Battle-shock's OC 0 is ordered with it as with the other such rules (stagedCharacteristic), not overwritten.
 */
registerRule({
  name: CRAFTWORLDS_CHAMPION, kind: 'enhancement',
  characteristicStage: { OC: 'set' },
  characteristic(which, value, ctx) {
    if (which !== 'OC') return value;
    const c = bearerComponent(ctx.unit, CRAFTWORLDS_CHAMPION);
    return c && ctx.model.origin === c.unit ? 5 : value;
  },
});

const BREATH_OF_VAUL = 'Breath of Vaul';

/**
 * Breath of Vaul: while the bearer leads Storm Guardians, their flamers re-roll the number of attacks and
 * their fusion guns the Damage roll (both below their average: the engine's way for "you can re-roll").
 */
registerRule({
  name: BREATH_OF_VAUL, kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !hasKeyword(ctx.attacker, 'STORM GUARDIANS') || !bearerLeads(ctx.attacker, BREATH_OF_VAUL)) return;
    if (ctx.weapon.name === 'Flamer') plan.rerollAttacks = true;
    if (ctx.weapon.name === 'Fusion gun') plan.rerollDamage = true;
  },
});

const PROTECTOR_OF_THE_PATHS = 'Protector of the Paths';
const FIRE_OVERWATCH = 'FIRE OVERWATCH';

/** Does the bearer of Protector of the Paths lead this (Dire Avengers or Guardians) unit? */
const protects = (u: UnitState) => avengersOrGuardians(u) && bearerLeads(u, PROTECTOR_OF_THE_PATHS);

/**
 * Protector of the Paths: while the bearer leads Dire Avengers or Guardians, once per battle round FIRE
 * OVERWATCH on its unit may cost 0CP (the use kept in the player's rule state), and the unit's Overwatch
 * hits on an unmodified 5+, or 4+ while it is within range of an objective marker its player controls.
 */
registerRule({
  name: PROTECTOR_OF_THE_PATHS, kind: 'enhancement',
  stratagemDiscount(ctx) {
    if (ctx.stratagem !== FIRE_OVERWATCH || !protects(ctx.unit)) return 0;
    return ctx.state.players[ctx.unit.player].ruleState[PROTECTOR_OF_THE_PATHS] === ctx.state.round ? 0 : 1;
  },
  stratagemDiscountUsed(g, unit) {
    g.emit({ type: 'rule-state', player: unit.player, key: PROTECTOR_OF_THE_PATHS, value: g.state.round });
  },
  attack(plan, ctx, src) {
    const s = ctx.state;
    if (src.role !== 'attacker' || ctx.melee || !protects(ctx.attacker)) return;
    if (!s.effects.some((e) => e.kind === FIRE_OVERWATCH_EFFECT && e.unit === ctx.attacker.id)) return;
    // control as it stands since the last phase or turn ended (it changes only then), not the Levels of
    // Control of the models where they stand mid-move
    const held = s.objectives.some((o) => o.controller === ctx.attacker.player && withinRangeOfMarker(s, ctx.attacker, o));
    plan.unmodifiedHitOn = held ? 4 : 5;
  },
});

const ETHEREAL_PATHWAY = 'Ethereal Pathway';

/**
 * Every part of the unit is a Guardians unit: an Attached unit sets up as Infiltrators only if all its
 * models have the ability, so one led by another datasheet (a Farseer) gains nothing from the selection.
 */
const allGuardians = (state: GameState, u: UnitState) => u.components.every((c) => state.datasheets[c.datasheet].keywords.includes('GUARDIANS'));

/**
 * Ethereal Pathway: in the Deploy Armies step, before any unit is set up, the bearer's player selects up to
 * two Guardians units of the army (one decision each, or stop; not one a Leader of another datasheet leads);
 * their models have Infiltrators for the battle. The entry is also the effect on each selected unit (the
 * Permission 'infiltrate').
 */
registerRule({
  name: ETHEREAL_PATHWAY, kind: 'enhancement',
  deployArmiesStart(g, unit) {
    if (!bearerComponent(unit, ETHEREAL_PATHWAY)) return;
    selectUpTo(
      2,
      (chosen) => g.state.unitOrder.map((id) => g.state.units[id]).filter((u) =>
        u.player === unit.player && u.location !== 'attached' && !chosen.includes(u.id) && allGuardians(g.state, u)),
      (options) => g.decide({
        kind: 'ethereal-pathway', player: unit.player, prompt: `${unit.name}: Ethereal Pathway: give a Guardians unit Infiltrators? (or stop)`, options, context: { unit: unit.id },
      }).option,
      (id) => g.addEffect(ETHEREAL_PATHWAY, unit.player, id, { at: 'end-of-battle' }),
    );
  },
  allows: (perm, _ctx, src) => perm === 'infiltrate' && src.effect !== null,
});

export const GUARDIAN_BATTLEHOST_RULES = ['Defend at All Costs'];
