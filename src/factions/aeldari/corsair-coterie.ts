/**
 * Corsair Coterie, an Aeldari detachment of the data export (not in RULES.md), in the engine's words: its rule
 * Relentless Raiders (with the ANHRATHE units' Void Thieves), its six stratagems and its four Enhancements.
 * Each is one registry entry; the stratagems' effects are entries of kind 'effect'. Veterans of the Void (which
 * units may take a Corsair Enhancement) changes only how an army is built: src/data/muster-checks.ts reads it.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedOwnUnits, windowOwnUnit, windowOwnUnitWith } from '../../rules/stratagems/targets.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { engagedEnemies, isEngaged, modelBody, unitDistance } from '../../rules/battle/world.ts';
import { inflictMortalWounds, onUnitDestroyed } from '../../rules/damage.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { applyPlan, planUnit } from '../../rules/battle/placement.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { bearerComponent, bearerModel, intoReservesAtTurnEnd, moveOrFallBack, normalMoveChoices, registerMarkerHold, unheldMarkers, withinObjectiveRange, withinRangeOfMarker } from '../helpers.ts';
import { grantedStealth } from '../../rules/core-abilities.ts';

export const CORSAIR_COTERIE = 'Corsair Coterie';
const RELENTLESS_RAIDERS = 'Relentless Raiders';

export const CORSAIR_COTERIE_RULES = [RELENTLESS_RAIDERS];

const anhrathe = (u: UnitState) => hasKeyword(u, 'ANHRATHE');
const aeldariInfantry = (u: UnitState) => hasKeyword(u, 'AELDARI') && hasKeyword(u, 'INFANTRY');

/** Does the player play this detachment? */
function playsCoterie(g: Game, p: PlayerIndex): boolean {
  return g.state.players[p].rules.includes(RELENTLESS_RAIDERS);
}

/** Is the unit within range of a marker its player controls? */
function onOwnMarker(g: Game, u: UnitState): boolean {
  return g.state.objectives.some((o) => o.controller === u.player && withinRangeOfMarker(g.state, u, o));
}

/**
 * Relentless Raiders: each time an enemy unit ends a Normal, Advance, Fall Back or Charge move within range of
 * a marker the player controls, a D6 for each such marker: on a 2+ the enemy unit suffers D3 mortal wounds.
 */
registerRule({
  name: RELENTLESS_RAIDERS, kind: 'detachment-rule',
  armyEnemyMoveEnded(g, owner, mover) {
    for (const o of g.state.objectives) {
      const u = g.state.units[mover.id];
      if (!onBattlefield(u)) return;
      if (o.controller !== owner || !withinRangeOfMarker(g.state, u, o)) continue;
      const [roll] = g.dice.d6(1, 'other', owner, u.id, 'Relentless Raiders');
      if (roll < 2) continue;
      const [n] = g.dice.roll(1, 3, 'mortal-wounds', owner, u.id, 'Relentless Raiders (D3 mortal wounds)');
      inflictMortalWounds(g, u, n, null);
    }
  },
});

/** Void Thieves' hold on a marker (params.objective), army-wide for its player. */
export const VOID_THIEVES_HOLD = 'Void Thieves (held)';

/**
 * Void Thieves (holdMarkers, below): at the end of every phase, each marker the player controls with an ANHRATHE unit within range
 * of it stays theirs (without models in range too) until the end of a phase at which the opponent's Level of
 * Control over it is the greater. The ANHRATHE units' ability is played by the detachment's rule.
 */
function holdMarkers(g: Game, owner: PlayerIndex): void {
  const s = g.state;
  for (const o of unheldMarkers(s, owner, VOID_THIEVES_HOLD)) {
    if (unitsOnBattlefield(s, owner).some((u) => anhrathe(u) && withinRangeOfMarker(s, u, o))) {
      g.addEffect(VOID_THIEVES_HOLD, owner, null, { at: 'end-of-battle' }, { objective: o.id });
    }
  }
}

/** The hold (registerMarkerHold, shared with the Stormblades'). */
registerMarkerHold(VOID_THIEVES_HOLD);

// --- Stratagems ----------------------------------------------------------------------------------

/** PIRATES' DUE's effect: re-roll Wound rolls of 1; an ANHRATHE unit re-rolls any Wound roll against a unit within range of a marker. */
registerRule({
  name: "Pirates' Due", kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker') return;
    const full = anhrathe(ctx.attacker) && withinObjectiveRange(ctx.state, ctx.target);
    plan.rerollWounds = widerReroll(plan.rerollWounds, full ? 'failed' : 'ones');
  },
});

registerStratagem({
  name: "PIRATES' DUE", cp: 1, category: 'Battle Tactic', source: CORSAIR_COTERIE, turn: 'either', windows: ['fight/unit-selected'],
  // the unit as it is selected to fight (before it piles in and attacks)
  targets: windowOwnUnitWith('AELDARI'),
  use(g, _w, p, u) { g.addEffect("Pirates' Due", p, u.id, g.untilEndOfPhase()); },
});

/** Mark on an ANHRATHE unit of a Corsair Coterie army: its attacks destroyed an enemy unit in its own Shooting phase. */
const DESTROYED_A_UNIT = 'Into the Breach (destroyed an enemy unit)';
registerRule({ name: DESTROYED_A_UNIT, kind: 'effect' });

onUnitDestroyed((g, unit, _component, by) => {
  const u = by ? g.state.units[by] : null;
  if (!u || u.player === unit.player || g.state.phase !== 'shooting' || g.state.turn !== u.player || !anhrathe(u) || !playsCoterie(g, u.player)) return;
  if (g.state.effects.some((e) => e.kind === DESTROYED_A_UNIT && e.unit === u.id)) return;
  g.addEffect(DESTROYED_A_UNIT, u.player, u.id, g.untilEndOfPhase());
});

registerStratagem({
  name: 'INTO THE BREACH', cp: 1, category: 'Strategic Ploy', source: CORSAIR_COTERIE, turn: 'own', windows: ['shooting/after-own-shot'],
  // the ANHRATHE unit that has just shot and destroyed an enemy unit, with somewhere to go
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    if (!u || !anhrathe(u) || isEngaged(g.state, u) || !g.state.effects.some((e) => e.kind === DESTROYED_A_UNIT && e.unit === u.id)) return [];
    return normalMoveChoices(g.state, u).length > 1 ? [u] : [];
  },
  use(g, _w, p, u) {
    // a Normal move of up to D6+1", toward a point the player picks (the D6 is rolled once it is chosen)
    const options = normalMoveChoices(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'into-the-breach', player: p, prompt: `Into the Breach: where does ${u.name} move (D6+1")?`, options, context: { unit: u.id } });
    moveOrFallBack(g, u, option, false, () => 1 + g.dice.d6(1, 'other', p, u.id, 'Into the Breach (D6+1")')[0]);
  },
});

/** Mark on a unit of a Corsair Coterie army at the start of its Movement phase: the enemy units it was within Engagement Range of (params.enemies). */
export const LETHAL_RUSE_ENGAGED = 'Lethal Ruse (engaged at the start of the phase)';
registerRule({ name: LETHAL_RUSE_ENGAGED, kind: 'effect' });

/** At the start of the player's Movement phase: which enemy units each ANHRATHE unit is within Engagement Range of (LETHAL RUSE). */
function markEngaged(g: Game, owner: PlayerIndex): void {
  for (const u of unitsOnBattlefield(g.state, owner)) {
    if (!anhrathe(u)) continue;
    const enemies = engagedEnemies(g.state, u).map((e) => e.id);
    if (enemies.length > 0) g.addEffect(LETHAL_RUSE_ENGAGED, owner, u.id, g.untilEndOfPhase(), { enemies });
  }
}

/** LETHAL RUSE's effect until the end of the turn: the unit may declare a charge although it Fell Back. */
registerRule({ name: 'Lethal Ruse', kind: 'effect', allows: (perm) => perm === 'charge-after-fall-back' });

registerStratagem({
  name: 'LETHAL RUSE', cp: 1, category: 'Strategic Ploy', source: CORSAIR_COTERIE, turn: 'own', windows: ['movement/after-own-move'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && u.flags.fellBack && hasKeyword(u, 'AELDARI') ? [u] : []; },
  use(g, _w, p, u) {
    g.addEffect('Lethal Ruse', p, u.id, g.untilEndOfTurn());
    if (!anhrathe(u)) return;
    // an ANHRATHE unit: six D6 against one enemy unit it was within Engagement Range of at the start of the phase, a mortal wound per 4+
    const mark = g.state.effects.find((e) => e.kind === LETHAL_RUSE_ENGAGED && e.unit === u.id);
    const enemies = ((mark?.params.enemies as string[] | undefined) ?? []).filter((id) => onBattlefield(g.state.units[id]));
    if (enemies.length === 0) return;
    const target = enemies.length === 1 ? enemies[0]
      : g.decide({ kind: 'lethal-ruse', player: p, prompt: `Lethal Ruse: which enemy unit suffers the mortal wounds?`, options: enemies, context: { unit: u.id } }).option;
    const rolls = g.dice.d6(6, 'mortal-wounds', p, u.id, 'Lethal Ruse (a mortal wound per 4+)');
    const n = rolls.filter((r) => r >= 4).length;
    if (n > 0) inflictMortalWounds(g, g.state.units[target], n, u.id);
  },
});

/** OUTCAST AMBUSH's effect this phase: the unit's ranged weapons have IGNORES COVER and RAPID FIRE 1, and +1 AP. */
registerRule({
  name: 'Outcast Ambush', kind: 'effect',
  weaponAbility: (ability, ctx) => ability === 'IGNORES COVER' && ctx.profile.range !== 'Melee',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    plan.ignoresCover = true;
    plan.ap -= 1;
    // RAPID FIRE 1, unless the weapon has RAPID FIRE already (a weapon has an ability once)
    if (ctx.halfRange && !ctx.profile.abilities.some((a) => a.name === 'RAPID FIRE')) plan.attacksBonus += 1;
  },
});

registerStratagem({
  name: 'OUTCAST AMBUSH', cp: 1, category: 'Strategic Ploy', source: CORSAIR_COTERIE, turn: 'own', windows: ['shooting/unit-selected'],
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    return u && g.state.phase === 'shooting' && !u.flags.shot && (hasKeyword(u, 'RANGERS') || hasKeyword(u, 'SHROUD RUNNERS')) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Outcast Ambush', p, u.id, g.untilEndOfPhase()); },
});

/** CLOAK AND SHADOW's effect this phase: Stealth (unless the unit has it already), and ranged attacks at it only from within 18". */
registerRule({
  name: 'Cloak and Shadow', kind: 'effect',
  attack(plan, ctx, src) { if (src.role === 'defender') grantedStealth(plan, ctx); },
  targetableFrom: (ctx) => ctx.distance <= 18 + 1e-6,
});

registerStratagem({
  name: 'CLOAK AND SHADOW', cp: 1, category: 'Strategic Ploy', source: CORSAIR_COTERIE, turn: 'opponent', windows: ['shooting/after-enemy-targets'],
  // the opponent's Shooting phase only (not Fire Overwatch in their Charge phase)
  targets: (g, w, p) => (g.state.phase === 'shooting' ? targetedOwnUnits(g, w, p).filter((u) => aeldariInfantry(u) && onOwnMarker(g, u)) : []),
  use(g, _w, p, u) { g.addEffect('Cloak and Shadow', p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'VENGEFUL SORROW', cp: 1, missing: 'the Surge move leaves AIRCRAFT out of the closest enemy unit', category: 'Strategic Ploy', source: CORSAIR_COTERIE, turn: 'opponent', windows: ['shooting/after-enemy-shot'],
  // the opponent's Shooting phase: an AELDARI INFANTRY unit that lost models to the attacks just made, not
  // Battle-shocked (the registry's check) nor within Engagement Range
  targets(g, w, p) {
    if (g.state.phase !== 'shooting') return [];
    const lost = (w.data?.lostModels as string[] | undefined) ?? [];
    return lost.map((id) => g.state.units[id]).filter((u) => u && u.player === p && onBattlefield(u) && aeldariInfantry(u) && !isEngaged(g.state, u));
  },
  use(g, _w, p, u) { surgeMove(g, u, 1 + g.dice.d6(1, 'other', p, u.id, 'Vengeful Sorrow (D6+1")')[0]); },
});

/**
 * A Surge move of up to `inches`: the unit ends as close as it can to the closest enemy unit and may end within
 * its Engagement Range, and only its (as Lethal Surge, planned as a Charge move at that unit: no model ends in
 * Engagement Range of another enemy unit). Out of reach of its Engagement Range, a Normal move toward it.
 * AIRCRAFT are not set apart.
 */
export function surgeMove(g: Game, u: UnitState, inches: number): boolean {
  const s = g.state;
  let closest: UnitState | null = null;
  let best = Infinity;
  for (const e of unitsOnBattlefield(s, opponent(u.player))) {
    const d = unitDistance(s, u, e);
    if (d < best - 1e-9) { best = d; closest = e; }
  }
  if (!closest) return false;
  let plan = planUnit(s, u, 'charge', { maxDistance: inches, targetUnitIds: [closest.id] });
  if (!plan.ok) {
    const to = closest.models.find((m) => m.alive && m.pos)?.pos;
    if (!to) return false;
    plan = planUnit(s, u, 'normal', { maxDistance: inches, destination: { x: to.x, y: to.y } });
  }
  return plan.ok && plan.pathLengths.some((l) => l > 1e-6) && applyPlan(g, u, plan, 'surge');
}

// --- Enhancements ----------------------------------------------------------------------------------

const INFAMY = 'Infamy (Aura)';
const WEBWAY_PATHSTONE = 'Webway Pathstone';
const ARCHRAIDER = 'Archraider';
const VOIDSTONE = 'Voidstone';

/** The unit (Attached or not) on the battlefield that holds the component `origin`, or null. */
function unitHolding(state: GameState, origin: string): UnitState | null {
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (onBattlefield(u) && u.components.some((c) => c.unit === origin && !c.destroyed)) return u;
  }
  return null;
}

/**
 * Infamy (Aura): enemy models within 3" of the bearer's unit have -1 OC (not below 1). Played by an army-wide
 * effect on the opponent's side (params.bearer), added at the start of the battle (the bearer's unit id stays
 * its component's id once it is in an Attached unit).
 */
registerRule({
  name: INFAMY, kind: 'enhancement',
  battleStart(g, unit) {
    const c = bearerComponent(unit, INFAMY);
    if (c) g.addEffect(INFAMY_AURA, opponent(unit.player), null, { at: 'end-of-battle' }, { bearer: c.unit });
  },
});

const INFAMY_AURA = 'Infamy (Aura) (on the enemy)';
registerRule({
  name: INFAMY_AURA, kind: 'effect',
  characteristic(which, value, ctx, src) {
    if (which !== 'OC' || value <= 1 || !src.effect) return value;
    const bearer = unitHolding(ctx.state, String(src.effect.params.bearer));
    return bearer && bearer.player !== ctx.unit.player && unitDistance(ctx.state, bearer, ctx.unit) <= 3 + 1e-6 ? value - 1 : value;
  },
});

/**
 * Webway Pathstone: the unit has Deep Strike; once per battle, at the end of the opponent's turn, not within
 * Engagement Range, it may go into Strategic Reserves.
 */
const PATHSTONE_USED = 'Webway Pathstone (used)';
registerRule({ name: PATHSTONE_USED, kind: 'effect' });

registerRule({
  name: WEBWAY_PATHSTONE, kind: 'enhancement', grantsAbilities: ['Deep Strike'],
  turnEnd: intoReservesAtTurnEnd(
    'Webway Pathstone (once per battle)', 'webway-pathstone',
    (g, unit) => !!bearerComponent(unit, WEBWAY_PATHSTONE) && !g.state.effects.some((e) => e.kind === PATHSTONE_USED && e.player === unit.player),
    (g, unit) => { g.addEffect(PATHSTONE_USED, unit.player, null, { at: 'end-of-battle' }); },
  ),
});

/**
 * Archraider: the bearer has Lord of Deceit (Aura): a stratagem the opponent uses on one of their units within
 * 12" of the bearer costs 1CP more.
 */
registerRule({
  name: ARCHRAIDER, kind: 'enhancement',
  enemyStratagemSurcharge(ctx) {
    const m = bearerModel(ctx.unit, ARCHRAIDER);
    if (!m || !onBattlefield(ctx.target)) return 0;
    const body = modelBody(ctx.state, m);
    return ctx.target.models.some((x) => x.alive && x.pos && horizontalDistance(body, modelBody(ctx.state, x)) <= 12 + 1e-6) ? 1 : 0;
  },
});

/** Voidstone: the models of the bearer's unit have a 5+ invulnerable save. */
registerRule({
  name: VOIDSTONE, kind: 'enhancement',
  invulnerableSave: (ctx) => { const c = bearerComponent(ctx.unit, VOIDSTONE); return c && ctx.model.origin === c.unit ? 5 : null; },
});

/** The moments the detachment acts on: Void Thieves at the end of each phase, LETHAL RUSE's mark. */
registerArmyRuleHooks({
  name: RELENTLESS_RAIDERS,
  start(g, phase, player, owner) { if (phase === 'movement' && player === owner) markEngaged(g, owner); },
  end(g, _phase, _player, owner) { holdMarkers(g, owner); },
});
