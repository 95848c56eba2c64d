/**
 * Devoted of Ynnead, the Ynnari detachment of the data export (not in RULES.md), in the engine's words: its
 * rule Strength from Death (Lethal Intent, Lethal Surge, Lethal Reprisal), the army-building rule Servants of
 * the Whispering God, its six stratagems and its four Enhancements. Each is one registry entry; the
 * stratagems' effects are entries of kind 'effect'.
 *
 * What the army lost is the player's rule state (`ynnariLosses`, an event each time a YNNARI model falls):
 * the units that lost models this phase (DEATH ANSWERS DEATH) and where the last model of each destroyed unit
 * stood (Lethal Intent, PALL OF DREAD).
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, ObjectiveState, PlayerIndex, UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedInOpponentsShootingOrFight, targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { belowStartingStrength, hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { applyPlan, planUnit } from '../../rules/battle/placement.ts';
import { modelBody } from '../../rules/battle/world.ts';
import { canShoot, shootWithUnit } from '../../rules/battle/shooting.ts';
import { onModelDestroyed } from '../../rules/damage.ts';
import { getWeaponAbility } from '../../rules/weapon-abilities.ts';
import { inObjectiveRange } from '../../geometry/ranges.ts';
import {
  attackersAreBearer, bearerComponent, modelWithinRangeOf, moveOrFallBack, normalMoveChoices, phaseKey, registerMarkerHold, shockOneHitEnemy,
  type Destination, type UnitOrNone,
} from '../helpers.ts';
import { registerFadeBackAlternative } from './battle-focus.ts';

export const DEVOTED_OF_YNNEAD = 'Devoted of Ynnead';
export const STRENGTH_FROM_DEATH = 'Strength from Death';
export const SERVANTS_OF_THE_WHISPERING_GOD = 'Servants of the Whispering God';

export const DEVOTED_OF_YNNEAD_RULES = [STRENGTH_FROM_DEATH, SERVANTS_OF_THE_WHISPERING_GOD];

const YNNARI = 'YNNARI';
const ynnari = (u: UnitState) => hasKeyword(u, YNNARI);
const infantryOrMounted = (u: UnitState) => hasKeyword(u, 'INFANTRY') || hasKeyword(u, 'MOUNTED');

/** Does the player play this detachment? */
function playsDevoted(state: GameState, p: PlayerIndex): boolean {
  return state.players[p].rules.includes(STRENGTH_FROM_DEATH);
}

// --- What the army lost this phase -------------------------------------------------------------------

const LOSSES = 'ynnariLosses';

/** A destroyed unit (or Attached-unit part): its last model, the unit that held it (an Attached unit's), and where it stood. */
interface Fallen { unit: string; holder: string; model: string; x: number; y: number; z: number }
interface Losses { phase: string; lost: string[]; fallen: Fallen[] }

/** The player's YNNARI losses this phase (none once the phase is over). */
export function ynnariLosses(state: GameState, p: PlayerIndex): Losses {
  const l = state.players[p].ruleState[LOSSES] as Losses | undefined;
  return l && l.phase === phaseKey(state) ? l : { phase: phaseKey(state), lost: [], fallen: [] };
}

// before the model is removed: where it stood is still known
onModelDestroyed((g, unit, m) => {
  const s = g.state;
  if (!playsDevoted(s, unit.player) || !ynnari(unit)) return;
  const l = ynnariLosses(s, unit.player);
  // a destroyed part is YNNARI by its own keywords, not those of the unit it was attached to (Leader): an EPIC
  // HERO leading YNNARI Guardians is not a fallen YNNARI unit
  const part = unit.components.find((c) => c.unit === m.origin);
  const last = m.pos !== null && (part?.keywords ?? unit.keywords).includes(YNNARI)
    && !unit.models.some((x) => x.alive && x.id !== m.id && x.origin === m.origin);
  const fallen = last ? [...l.fallen, { unit: m.origin, holder: unit.id, model: m.id, x: m.pos!.x, y: m.pos!.y, z: m.pos!.z }] : l.fallen;
  const lost = l.lost.includes(unit.id) ? l.lost : [...l.lost, unit.id];
  g.emit({ type: 'rule-state', player: unit.player, key: LOSSES, value: { phase: l.phase, lost, fallen } });
});

/** The fallen model as it stood (a stand-in, never written to the state). */
function standIn(state: GameState, f: Fallen): ModelState | null {
  // where it was when destroyed, or back in its own unit once an Attached unit split
  const m = state.units[f.holder]?.models.find((x) => x.id === f.model) ?? state.units[f.unit]?.models.find((x) => x.id === f.model);
  return m ? { ...m, alive: true, pos: { x: f.x, y: f.y, z: f.z } } : null;
}

// --- Strength from Death ---------------------------------------------------------------------------

/**
 * The units Lethal Intent may move: YNNARI INFANTRY or MOUNTED units within 6" of where a destroyed YNNARI
 * unit's last model stood, measured at the end of the phase (a unit that moved in between, by Fade Back, is
 * measured where it is then).
 */
export function lethalIntentUnits(state: GameState, p: PlayerIndex): UnitState[] {
  const fallen = ynnariLosses(state, p).fallen.map((f) => standIn(state, f)).filter((m): m is ModelState => m !== null);
  if (fallen.length === 0) return [];
  return unitsOnBattlefield(state, p).filter((u) => ynnari(u) && infantryOrMounted(u)
    && fallen.some((m) => modelWithinRangeOf(state, m, u, 6)) && normalMoveChoices(state, u).length > 0);
}

/**
 * Lethal Intent: at the end of the opponent's Shooting phase, if YNNARI units of the army were destroyed in it,
 * one YNNARI INFANTRY or MOUNTED unit within 6" of one of them (decision 'lethal-intent', none first) may make
 * a Normal move of up to D6+1" (decision 'lethal-intent-move', none first; the D6 is rolled after the choice).
 */
function lethalIntent(g: Game, p: PlayerIndex): void {
  const units = lethalIntentUnits(g.state, p);
  if (units.length === 0) return;
  const { option } = g.decide<UnitOrNone>({
    kind: 'lethal-intent', player: p, prompt: 'Lethal Intent: which YNNARI unit makes a Normal move of up to D6+1"?',
    options: [{ none: true }, ...units.map((u) => ({ unit: u.id }))], context: {},
  });
  if ('none' in option) return;
  const unit = g.state.units[option.unit];
  const moves = normalMoveChoices(g.state, unit);
  if (moves.length === 0) return;
  const { option: to } = g.decide<{ none: true } | Destination>({
    kind: 'lethal-intent-move', player: p, prompt: `${unit.name}: Lethal Intent: a Normal move of up to D6+1" toward?`, options: moves, context: { unit: unit.id },
  });
  moveOrFallBack(g, unit, to, false, () => g.dice.d6(1, 'other', p, unit.id, 'Lethal Intent')[0] + 1);
}

/** The units Lethal Reprisal may pick: YNNARI units (not TITANIC) below their Starting Strength. */
export function lethalReprisalUnits(state: GameState, p: PlayerIndex): UnitState[] {
  return unitsOnBattlefield(state, p).filter((u) => ynnari(u) && !hasKeyword(u, 'TITANIC') && belowStartingStrength(u));
}

/** The core rules' effect read by fightsFirst (src/rules/battle/charge.ts). */
const FIGHTS_FIRST = 'Fights First';

/** Lethal Reprisal: at the start of each Fight phase, one such unit (decision 'lethal-reprisal', no pass) has Fights First until its end. */
function lethalReprisal(g: Game, p: PlayerIndex): void {
  const options = lethalReprisalUnits(g.state, p).map((u) => u.id);
  if (options.length === 0) return;
  const { option } = g.decide({ kind: 'lethal-reprisal', player: p, prompt: 'Lethal Reprisal: which YNNARI unit below its Starting Strength has Fights First?', options, context: {} });
  g.addEffect(FIGHTS_FIRST, p, option, g.untilEndOfPhase());
}

/**
 * Strength from Death: Lethal Intent and Lethal Reprisal above (the player's phase hooks), and Lethal Surge
 * (a Fade Back alternative, below).
 */
registerRule({ name: STRENGTH_FROM_DEATH, kind: 'detachment-rule' });

registerArmyRuleHooks({
  name: STRENGTH_FROM_DEATH,
  start(g, phase, _player, owner) { if (phase === 'fight') lethalReprisal(g, owner); },
  end(g, phase, player, owner) { if (phase === 'shooting' && player !== owner) lethalIntent(g, owner); },
});

/** Lethal Surge's once per turn (army-wide, on the player). */
const LETHAL_SURGE_USED = 'Lethal Surge (used this turn)';
registerRule({ name: LETHAL_SURGE_USED, kind: 'effect' });

/**
 * Lethal Surge: once per turn, a YNNARI unit making Fade Back may instead be moved up to D6+1" and end within
 * Engagement Range of the enemy unit that shot it (decision 'lethal-surge': 'fade-back' first, or 'surge').
 * The move is planned as a charge move at that unit (every model as close as it can be); when the roll does
 * not reach it, the unit makes the Normal move toward it instead.
 */
registerFadeBackAlternative({
  rule: STRENGTH_FROM_DEATH,
  move(g, unit, enemy, pay, roll) {
    const s = g.state;
    const e = s.units[enemy];
    if (!playsDevoted(s, unit.player) || !ynnari(unit) || !e || !onBattlefield(e)) return false;
    if (s.effects.some((x) => x.kind === LETHAL_SURGE_USED && x.player === unit.player)) return false;
    const { option } = g.decide({
      kind: 'lethal-surge', player: unit.player, prompt: `${unit.name}: Fade Back, or a Lethal Surge of up to D6+1" into ${e.name}?`,
      options: ['fade-back', 'surge'], context: { unit: unit.id, enemy },
    });
    if (option !== 'surge') return false;
    pay();
    g.addEffect(LETHAL_SURGE_USED, unit.player, null, g.untilEndOfTurn());
    const n = roll() + 1;
    const fresh = g.state.units[unit.id];
    let plan = planUnit(g.state, fresh, 'charge', { maxDistance: n, targetUnitIds: [enemy] });
    if (!plan.ok) {
      const to = e.models.find((m) => m.alive && m.pos)?.pos;
      if (!to) return true;
      plan = planUnit(g.state, fresh, 'normal', { maxDistance: n, destination: { x: to.x, y: to.y } });
    }
    // its own move mode: unlike a Normal move it may end within Engagement Range (test/helpers/rule-checks.ts)
    // not a Normal move: the opponent's rules that answer one (Relentless Raiders) are not told
    if (applyPlan(g, fresh, plan, 'lethal-surge')) g.emit({ type: 'note', text: `${unit.name}: Lethal Surge (${n}")` });
    return true;
  },
});

/**
 * Servants of the Whispering God: ASURYANI units of the army that are not EPIC HEROES gain the YNNARI keyword
 * (at muster). Its other two parts are army building: Ynnari units without ASURYANI may be taken (the engine
 * asks nothing of an Aeldari unit's faction keywords), and the army must include Yvraine or the Yncarne, one of
 * them its Warlord (src/data/muster-checks.ts).
 */
registerRule({
  name: SERVANTS_OF_THE_WHISPERING_GOD, kind: 'detachment-rule',
  musterGrants: (keywords) => (keywords.includes('ASURYANI') && !keywords.includes('EPIC HERO') ? { keywords: [YNNARI] } : null),
});

// --- Stratagems ----------------------------------------------------------------------------------

/** EMISSARIES OF YNNEAD's effect this phase: re-roll Hit rolls of 1, every failed Hit roll while the unit is below its Starting Strength. */
registerRule({
  name: 'Emissaries of Ynnead', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker') plan.rerollHits = widerReroll(plan.rerollHits, belowStartingStrength(ctx.attacker) ? 'failed' : 'ones');
  },
});

registerStratagem({
  name: 'EMISSARIES OF YNNEAD', cp: 1, category: 'Battle Tactic', source: DEVOTED_OF_YNNEAD, turn: 'either', windows: ['fight/unit-selected'],
  // as the YNNARI INFANTRY unit is selected to fight (the engine's moment before its targets)
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && g.state.phase === 'fight' && !u.flags.fought && ynnari(u) && hasKeyword(u, 'INFANTRY') ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Emissaries of Ynnead', p, u.id, g.untilEndOfPhase()); },
});

/** SOULSIGHT's (Devoted of Ynnead's) effect this phase: the unit's ranged weapons have LETHAL HITS and IGNORES COVER. */
const SOULSIGHT_YNNEAD = 'Soulsight (Devoted of Ynnead)';
registerRule({
  name: SOULSIGHT_YNNEAD, kind: 'effect',
  weaponAbility: (ability, ctx) => (ability === 'LETHAL HITS' || ability === 'IGNORES COVER') && ctx.profile.range !== 'Melee',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    getWeaponAbility('LETHAL HITS')!.compile(plan, { name: 'LETHAL HITS' }, ctx);
    getWeaponAbility('IGNORES COVER')!.compile(plan, { name: 'IGNORES COVER' }, ctx);
  },
});

registerStratagem({
  name: 'SOULSIGHT', cp: 1, category: 'Battle Tactic', source: DEVOTED_OF_YNNEAD, turn: 'own', windows: ['shooting/unit-selected'],
  phases: ['shooting'],
  // the player's own Shooting phase, a YNNARI unit that has not shot (not Fire Overwatch)
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && !u.flags.shot && ynnari(u) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect(SOULSIGHT_YNNEAD, p, u.id, g.untilEndOfPhase()); },
});

/** MACABRE RESILIENCE's effect this phase: -1 to the Wound roll of attacks on the unit. */
registerRule({
  name: 'Macabre Resilience', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.woundModifier -= 1; },
});

registerStratagem({
  name: 'MACABRE RESILIENCE', cp: 1, category: 'Battle Tactic', source: DEVOTED_OF_YNNEAD, turn: 'either', windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => ynnari(u) && infantryOrMounted(u) && !hasKeyword(u, 'WRAITH CONSTRUCT')),
  use(g, _w, p, u) { g.addEffect('Macabre Resilience', p, u.id, g.untilEndOfPhase()); },
});

/** PARTING THE VEIL's effect this phase: a model of the unit destroyed before it fought fights before it is removed (no roll: src/rules/battle/fight-on-death.ts). */
registerRule({ name: 'Parting the Veil', kind: 'effect', fightOnDeath: () => 3 });

registerStratagem({
  name: 'PARTING THE VEIL', cp: 2, category: 'Strategic Ploy', source: DEVOTED_OF_YNNEAD, turn: 'either', windows: ['fight/after-enemy-targets'],
  targets: (g, w, p) => (g.state.phase === 'fight' ? targetedOwnUnits(g, w, p).filter((u) => ynnari(u) && !u.flags.fought) : []),
  use(g, _w, p, u) { g.addEffect('Parting the Veil', p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'DEATH ANSWERS DEATH', cp: 1, category: 'Strategic Ploy', source: DEVOTED_OF_YNNEAD, turn: 'opponent', windows: ['phase/end'],
  // the end of the opponent's Shooting phase: a YNNARI unit (not a WRAITH CONSTRUCT) that lost models in it
  targets(g, w, p) {
    const s = g.state;
    if (w.data?.phase !== 'shooting' || s.turn === p) return [];
    const lost = ynnariLosses(s, p).lost;
    return unitsOnBattlefield(s, p).filter((u) => lost.includes(u.id) && ynnari(u) && !hasKeyword(u, 'WRAITH CONSTRUCT') && canShoot(g, u));
  },
  // it shoots as if it were the player's Shooting phase
  use(g, _w, _p, u) { shootWithUnit(g, u); },
});

/** PALL OF DREAD's hold on a marker (params.objective), army-wide for its player. */
export const PALL_OF_DREAD_HOLD = 'Pall of Dread (held)';
registerMarkerHold(PALL_OF_DREAD_HOLD);

/**
 * The markers PALL OF DREAD may hold for the destroyed unit (its id, or an Attached-unit part's): those the
 * player controlled at the end of the previous phase (the recorded control) that its last model was within
 * range of, and no Pall of Dread holds yet.
 */
export function pallOfDreadMarkers(state: GameState, p: PlayerIndex, unit: string): ObjectiveState[] {
  const f = ynnariLosses(state, p).fallen.find((x) => x.unit === unit);
  const m = f ? standIn(state, f) : null;
  if (!m) return [];
  const body = modelBody(state, m);
  return state.objectives.filter((o) => o.controller === p && inObjectiveRange(body, { id: o.id, pos: o.pos })
    && !state.effects.some((e) => e.kind === PALL_OF_DREAD_HOLD && e.player === p && e.params.objective === o.id));
}

registerStratagem({
  name: 'PALL OF DREAD', cp: 1, category: 'Strategic Ploy', source: DEVOTED_OF_YNNEAD, turn: 'either', windows: ['unit/destroyed'],
  // the YNNARI unit just destroyed (it can be the target although it was destroyed)
  targets(g, w, p) {
    const dead = w.unit ? g.state.units[w.unit] : null;
    return dead && dead.player === p && ynnari(dead) && pallOfDreadMarkers(g.state, p, dead.id).length > 0 ? [dead] : [];
  },
  // the marker stays the player's until the end of a phase at which the opponent's Level of Control over it is the greater
  use(g, _w, p, u) {
    const options = pallOfDreadMarkers(g.state, p, u.id).map((o) => o.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'pall-of-dread', player: p, prompt: `Pall of Dread: which objective marker stays yours after ${u.name}?`, options, context: { unit: u.id } });
    g.addEffect(PALL_OF_DREAD_HOLD, p, null, { at: 'end-of-battle' }, { objective: option });
  },
});

// --- Enhancements ----------------------------------------------------------------------------------

/** Gaze of Ynnead (Farseer): the bearer's Eldritch Storm has DEVASTATING WOUNDS. */
registerRule({
  name: 'Gaze of Ynnead', kind: 'enhancement',
  weaponAbility: (ability, ctx) => ability === 'DEVASTATING WOUNDS' && ctx.profile.name.startsWith('Eldritch Storm') && bearerComponent(ctx.unit, 'Gaze of Ynnead') !== null,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.weapon.name !== 'Eldritch Storm' || !attackersAreBearer(ctx.attacker, ctx.attackers, 'Gaze of Ynnead')) return;
    getWeaponAbility('DEVASTATING WOUNDS')!.compile(plan, { name: 'DEVASTATING WOUNDS' }, ctx);
  },
});

/** Storm of Whispers (Warlock): after the bearer shot in its Shooting phase, one enemy unit it hit takes a Battle-shock test (decision 'storm-of-whispers'). */
registerRule({
  name: 'Storm of Whispers', kind: 'enhancement',
  afterShooting(g, unit, _hit, hitWith) {
    shockOneHitEnemy(g, unit, hitWith, 'WARLOCK', (options) => g.decide({
      kind: 'storm-of-whispers', player: unit.player, prompt: `${unit.name}: Storm of Whispers: which enemy unit takes a Battle-shock test?`, options, context: { unit: unit.id },
    }).option);
  },
});

/** Borrowed Vigour (Archon): +2 Attacks to the bearer's melee weapons. */
registerRule({
  name: 'Borrowed Vigour', kind: 'enhancement',
  attack(plan, ctx, src) { if (src.role === 'attacker' && ctx.melee && attackersAreBearer(ctx.attacker, ctx.attackers, 'Borrowed Vigour')) plan.attacksBonus += 2; },
});

/** Morbid Might (Succubus): the bearer's melee attacks re-roll the Wound roll (the failed ones, as a player would). */
registerRule({
  name: 'Morbid Might', kind: 'enhancement',
  attack(plan, ctx, src) { if (src.role === 'attacker' && ctx.melee && attackersAreBearer(ctx.attacker, ctx.attackers, 'Morbid Might')) plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed'); },
});
