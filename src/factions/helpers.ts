/**
 * Small questions datasheet abilities of several factions ask: is this model leading the unit, which
 * enemy units did an attack hit, when does "until the start of your next turn" end.
 */
import type { Game } from '../core/game.ts';
import { opponent, type Effect, type Expiry, type GameState, type ModelState, type ObjectiveState, type PlayerIndex, type Position, type UnitState } from '../core/state.ts';
import { registerRule, type Rule } from '../core/rules-registry.ts';
import type { AttackPlan } from '../rules/attack-plan.ts';
import { isLeaderModel } from '../rules/allocation.ts';
import { lendingLeader } from '../rules/lent-leaders.ts';
import { characteristic, onBattlefield, unitsOnBattlefield, modelHasKeyword } from '../rules/battle/units.ts';
import { isEngaged, modelBase, modelBody, modelsSee, unitDistance } from '../rules/battle/world.ts';
import { inObjectiveRange, unitCoherency } from '../geometry/ranges.ts';
import { controlByLevel, currentControl } from '../rules/battle/objectives.ts';
import { moveOptions, ruleMove, type MoveChoice } from '../rules/battle/movement.ts';
import { applyPlan, planModels, planUnit, worldOf } from '../rules/battle/placement.ts';
import { validatePlacement, type WalksOver } from '../geometry/planner.ts';
import { isWhollyWithinOfBody, isWithin } from '../geometry/distance.ts';
import { baseBoundingRadius } from '../geometry/shape.ts';
import { inflictMortalWounds } from '../rules/damage.ts';
import { SET_UP_WITHIN_9 } from '../rules/battle/reserves.ts';
import { canShoot, shootWithUnit } from '../rules/battle/shooting.ts';
import { battleShockTest } from '../rules/battle/command.ts';
import { embark, fitsIn, passengers, transportOf } from '../rules/battle/transports.ts';

/**
 * The alive Leader model with this datasheet keyword when the unit is an Attached unit it leads, else
 * null ("while this model is leading a unit"). While a Leader ability lent by BATTLEFIELD COMMAND is
 * played for a Bodyguard unit (src/rules/lent-leaders.ts), the lending Leader unit's model counts.
 */
export function leadingModel(state: GameState, unit: UnitState, keyword: string): ModelState | null {
  const lent = lendingLeader(state, unit);
  if (lent !== null && lent.location === 'battlefield') {
    for (const m of lent.models) if (m.alive && modelHasKeyword(state, m, keyword)) return m;
  }
  if (unit.components.length < 2) return null;
  for (const m of unit.models) {
    if (m.alive && isLeaderModel(unit, m) && modelHasKeyword(state, m, keyword)) return m;
  }
  return null;
}

/** The attack hook of "attacks of the unit this model leads ...": `change` for the attacks of a unit the `keyword` model leads. */
export function whileLeading(keyword: string, change: (plan: AttackPlan) => void): NonNullable<Rule['attack']> {
  return (plan, ctx, src) => { if (src.role === 'attacker' && leadingModel(ctx.state, ctx.attacker, keyword)) change(plan); };
}

/**
 * The component of the unit that carries this Enhancement (its own unit id, and whether it is a Leader),
 * else null.
 */
export function bearerComponent(unit: UnitState, enhancement: string): UnitState['components'][number] | null {
  for (const c of unit.components) if (c.abilities.includes(enhancement)) return c;
  return null;
}

/** The unit holds the Enhancement's bearer unit and that part is not destroyed ("the bearer's unit" abilities). */
export function bearerPartStands(unit: UnitState, enhancement: string): boolean {
  const c = bearerComponent(unit, enhancement);
  return c !== null && !c.destroyed;
}

/** The unit's alive models on the battlefield that carry the Enhancement (its bearer, when alive). */
export function enhancementBearers(unit: UnitState, enhancement: string): ModelState[] {
  const c = bearerComponent(unit, enhancement);
  return c ? unit.models.filter((m) => m.alive && m.pos && m.origin === c.unit) : [];
}

/** The Enhancement's bearer model, alive on the battlefield, or null. */
export function bearerModel(unit: UnitState, enhancement: string): ModelState | null {
  return enhancementBearers(unit, enhancement)[0] ?? null;
}

/** "While the bearer is leading a unit": the unit is an Attached unit whose alive Leader carries the Enhancement. */
export function bearerLeads(unit: UnitState, enhancement: string): boolean {
  if (unit.components.length < 2) return false;
  const c = bearerComponent(unit, enhancement);
  if (!c || !c.isLeader || c.destroyed) return false;
  for (const m of unit.models) if (m.alive && m.origin === c.unit) return true;
  return false;
}

/** Every model making these attacks is the Enhancement's bearer ("each time the bearer makes an attack"). */
export function attackersAreBearer(unit: UnitState, models: readonly ModelState[], enhancement: string): boolean {
  const c = bearerComponent(unit, enhancement);
  return c !== null && models.length > 0 && models.every((m) => m.origin === c.unit);
}

/** A part of the unit has this ability on its datasheet (not from wargear): "this unit" means the whole Attached unit. */
export function datasheetHas(state: GameState, unit: UnitState, ability: string): boolean {
  return unit.components.some((c) => !c.destroyed && state.datasheets[c.datasheet].abilities.includes(ability));
}

/** The model carries this wargear (by its ability's datasheet name, "Command-link Drone (Aura)"). */
export function carries(m: ModelState, wargear: string): boolean {
  return m.wargear !== undefined && m.wargear.includes(wargear);
}

/** The alive models of the unit that carry this wargear. */
export function wargearBearers(unit: UnitState, wargear: string): ModelState[] {
  return unit.models.filter((m) => m.alive && carries(m, wargear));
}

/** Every model making these attacks carries this wargear ("each time the bearer makes a ranged attack"). */
export function attackersCarry(models: readonly ModelState[], wargear: string): boolean {
  return models.length > 0 && models.every((m) => carries(m, wargear));
}

/** "The bearer has an X+ invulnerable save" (Shield Generator, Shimmershield): the Rule.invulnerableSave hook of such wargear. */
export function bearerInvulnerable(wargear: string, save: number): NonNullable<Rule['invulnerableSave']> {
  return (ctx) => (carries(ctx.model, wargear) ? save : null);
}

/** An alive model of the unit whose datasheet has the keyword (the ability's own model), else null. */
export function modelWith(state: GameState, unit: UnitState, keyword: string): ModelState | null {
  for (const m of unit.models) if (m.alive && modelHasKeyword(state, m, keyword)) return m;
  return null;
}

/** Every model making these attacks comes from a datasheet with the keyword ("each time this model makes an attack"). */
export function attackersAre(state: GameState, models: readonly ModelState[], keyword: string): boolean {
  return models.length > 0 && models.every((m) => modelHasKeyword(state, m, keyword));
}

/** The walkers' rules (Heavy Walker, Titanic Advance, Agile...): their moves pass over models other than TITANIC ones and terrain up to 4" high. */
export const WALKER: WalksOver = { titanicModels: false, terrainHeight: 4 };

/** "Each time an attack targets this unit, subtract 1 from the Hit roll and 1 from the Wound roll" (Paradox of Duality, FOREWARNED). */
export const minusOneToHitAndWound: NonNullable<Rule['attack']> = (plan, _ctx, src) => {
  if (src.role !== 'defender') return;
  plan.hitModifier -= 1;
  plan.woundModifier -= 1;
};

/**
 * "That model regains up to D3 lost wounds" (+`plus`: AUTOMATED REPAIR DRONES' D3+1): a D3 rolled by `by`'s player
 * for `by`, no more than the model lost (Spirit Stone of Raelyth, Tears of Isha, Psytronome Shaper, Ethereal Form).
 */
export function regainD3Wounds(g: Game, by: UnitState, unit: UnitState, m: ModelState, label: string, plus = 0): void {
  const [d3] = g.dice.roll(1, 3, 'other', by.player, by.id, label);
  const regained = Math.min(d3 + plus, characteristic(g.state, unit, m, 'W') - m.wounds);
  if (regained > 0) g.emit({ type: 'model-healed', unit: unit.id, model: m.id, wounds: regained });
}

/** Model `m` can see the unit: one of its models alive on the battlefield is visible to it (itself counts). */
export function modelSeesUnit(state: GameState, m: ModelState, unit: UnitState, body = modelBody(state, m)): boolean {
  for (const t of unit.models) if (t.alive && t.pos && (t.id === m.id || modelsSee(state, body, m.id, modelBody(state, t), t.id))) return true;
  return false;
}

/**
 * The units of `player`'s opponent (in unit order) one of `seers` can see, and is within `range` of when given
 * ("an enemy unit visible to (and within 18" of) this model": SEER'S EYE, Spirit Mark, PRESENTIMENT OF DREAD).
 */
export function enemiesSeenBy(state: GameState, player: PlayerIndex, seers: readonly ModelState[], range?: number): UnitState[] {
  if (seers.length === 0) return [];
  const bodies = seers.map((m) => modelBody(state, m));
  return unitsOnBattlefield(state, opponent(player)).filter((e) => seers.some((m, i) => (range === undefined || modelWithinRangeOf(state, m, e, range)) && modelSeesUnit(state, m, e, bodies[i])));
}

/** "Until the start of your next turn": the start of that player's next Command phase. */
export function untilStartOfNextTurn(g: Game, player: PlayerIndex): Expiry {
  return { at: 'start-of-command', player, afterRound: g.state.round };
}

/**
 * "Until the end of your opponent's next turn", said in `player`'s turn: the end of the opponent's turn of
 * this battle round when `player` went first, else of the next one (Pulse Onslaught, Photon Casters).
 */
export function untilEndOfOpponentsNextTurn(g: Game, player: PlayerIndex): Expiry {
  const s = g.state;
  return { at: 'end-of-turn', round: s.firstPlayer === player ? s.round : s.round + 1, turn: opponent(player) };
}

/** Is a model of the unit within range of an objective marker? */
export function withinObjectiveRange(state: GameState, unit: UnitState): boolean {
  return state.objectives.some((o) => withinRangeOfMarker(state, unit, o));
}

/** Is a model of the unit within range of this objective marker? */
export function withinRangeOfMarker(state: GameState, unit: UnitState, o: { id: string; pos: { x: number; y: number } }): boolean {
  const marker = { id: o.id, pos: o.pos };
  for (const m of unit.models) if (m.alive && m.pos && inObjectiveRange(modelBody(state, m), marker)) return true;
  return false;
}

/** Is an alive model of `unit` within `range` of the model `m` (on the battlefield)? ("while a unit is within 6" of this model") */
export function modelWithinRangeOf(state: GameState, m: ModelState, unit: UnitState, range: number): boolean {
  if (!m.pos) return false;
  const body = modelBody(state, m);
  for (const x of unit.models) if (x.alive && x.pos && isWithin(body, modelBody(state, x), range)) return true;
  return false;
}

/**
 * Is the unit `a` wholly within `range` of the unit `b` (GUIDED FIRE, Localised Stealth Projectors)? Read
 * model by model: every alive model of `a` on the battlefield wholly within `range` of one alive model of
 * `b`. (A base reaching past every single model of `b` but within range of their union does not count: a
 * rare shortfall, on the strict side.) False when either unit has no model on the battlefield.
 */
export function unitWhollyWithin(state: GameState, a: UnitState, b: UnitState, range: number): boolean {
  const bodies: ReturnType<typeof modelBody>[] = [];
  for (const m of b.models) if (m.alive && m.pos) bodies.push(modelBody(state, m));
  if (bodies.length === 0) return false;
  let any = false;
  for (const m of a.models) {
    if (!m.alive || !m.pos) continue;
    any = true;
    const body = modelBody(state, m);
    if (!bodies.some((x) => isWhollyWithinOfBody(body, x, range))) return false;
  }
  return any;
}

/**
 * Is a model of `unit` within `range` of an alive model of a friendly unit on the battlefield that has the
 * Aura ability `aura` (the unit itself included)? The aura spreads from the models with the datasheet
 * keyword `from`, or those `from` accepts (a wargear aura's bearers).
 */
export function withinAuraOf(state: GameState, unit: UnitState, aura: string, from: string | ((m: ModelState) => boolean), range: number): boolean {
  for (const id of state.unitOrder) {
    const source = state.units[id];
    if (source.player !== unit.player || source.location !== 'battlefield' || !source.abilities.includes(aura)) continue;
    for (const m of source.models) {
      if (!m.alive || !m.pos || !(typeof from === 'string' ? modelHasKeyword(state, m, from) : from(m))) continue;
      if (modelWithinRangeOf(state, m, unit, range)) return true;
    }
  }
  return false;
}

/**
 * "At the end of your Command phase, each objective marker you control within range of this unit stays
 * yours" (Fieldcraft, Stormblades): an army-wide `holdKind` effect (params.objective) for each such marker
 * not held already; the effect's own rule says how long the hold lasts. A unit embarked within a Transport
 * (asked only by rules with Rule.phaseHooksWhileEmbarked: Sadistic Raiders) is measured from its Transport.
 */
export function holdMarkersAtCommandEnd(g: Game, unit: UnitState, phase: string, holdKind: string): void {
  const s = g.state;
  if (phase !== 'command' || s.turn !== unit.player) return;
  const from = unit.location === 'embarked' ? transportOf(s, unit) : unit;
  if (!from || from.location !== 'battlefield') return;
  for (const o of unheldMarkers(s, unit.player, holdKind)) {
    if (withinRangeOfMarker(s, from, o)) g.addEffect(holdKind, unit.player, null, { at: 'end-of-battle' }, { objective: o.id });
  }
}

export type Destination = Extract<MoveChoice, { to: unknown }>;

/**
 * "After this unit has shot, it can make a Normal move" (Shade of Twilight, Tactical Acumen), in two parts
 * so that each rule asks its own decision: the options (none first, then the unit's Normal move
 * destinations; empty when it has none), then the move toward the chosen one, `inches` (a D6 is rolled only
 * then), after which the `noCharge` effect keeps it from declaring a charge this turn.
 */
export function normalMoveChoices(state: GameState, unit: UnitState): ({ none: true } | Destination)[] {
  const moves = moveOptions(state, unit).filter((o): o is Destination => o.mode === 'normal');
  return moves.length === 0 ? [] : [{ none: true }, ...moves];
}

/** The options of a rule's Fall Back move: none first, then the unit's Fall Back destinations (empty when not within Engagement Range). */
export function fallBackChoices(state: GameState, unit: UnitState): ({ none: true } | Destination)[] {
  const moves = moveOptions(state, unit).filter((o): o is Destination => o.mode === 'fall-back');
  return moves.length === 0 ? [] : [{ none: true }, ...moves];
}

/**
 * "If this unit is not within Engagement Range it can make a Normal move, otherwise a Fall Back move" (Raid
 * and Run, INTERLOCKING MANOUEVRES, at the end of a Fight phase): which of the two the unit makes now, and
 * its options (none first, then the destinations; empty when it has none).
 */
export function moveOrFallBackChoices(state: GameState, unit: UnitState): { fallBack: boolean; options: ({ none: true } | Destination)[] } {
  const fallBack = isEngaged(state, unit);
  return { fallBack, options: fallBack ? fallBackChoices(state, unit) : normalMoveChoices(state, unit) };
}

/**
 * That move toward the chosen destination, up to `inches` (rolled only now): a Fall Back with its Desperate
 * Escape tests. `embark`: false when the rule forbids embarking at the end of it (ruleMove).
 */
export function moveOrFallBack(g: Game, unit: UnitState, option: { none: true } | Destination, fallBack: boolean, inches: () => number, embark = true): void {
  if ('none' in option) return;
  const n = inches();
  ruleMove(g, unit, fallBack ? 'fall-back' : 'normal', option.to, n, embark);
}

export function normalMoveAfterShooting(g: Game, unit: UnitState, option: { none: true } | Destination, inches: () => number, noCharge: string): void {
  if ('none' in option) return;
  if (!ruleMove(g, unit, 'normal', option.to, inches())) return;
  g.addEffect(noCharge, unit.player, unit.id, g.untilEndOfTurn());
}

/**
 * "Once per turn, when an enemy unit ends a Normal, Advance or Fall Back move within 9" of this unit, if it
 * is not within Engagement Range of an enemy unit, it can make a Normal move of up to ..." (Trail Finding,
 * Aerial Disengagement, Path of the Outcast, Reaver Band): the options (none first, then the Normal move
 * destinations), empty when the unit cannot react now; `used` is the effect that marks this turn's use.
 */
export function reactiveMoveChoices(g: Game, unit: UnitState, mover: UnitState, used: string): ({ none: true } | Destination)[] {
  const s = g.state;
  if (mover.location !== 'battlefield' || isEngaged(s, unit)) return [];
  if (s.effects.some((e) => e.kind === used && (e.unit === unit.id || usedByModels(e, unit)))) return [];
  if (unitDistance(s, unit, mover) > 9 + 1e-6) return [];
  return normalMoveChoices(s, unit);
}

/** Was a use recorded (params.models) for one of the unit's models, under whatever unit they stood in then? */
function usedByModels(e: Effect, unit: UnitState): boolean {
  const models = e.params.models as readonly string[] | undefined;
  return !!models && unit.models.some((m) => models.includes(m.id));
}

/** The reactive move toward the chosen destination, `inches` long (rolled only now), marked `used` until the end of the turn. */
export function reactiveMove(g: Game, unit: UnitState, option: { none: true } | Destination, inches: () => number, used: string): void {
  if ('none' in option) return;
  // the use is the models' too: a Leader whose Bodyguard is destroyed later in the turn (Trail Finding's
  // Trail Shaper) is the same model with its once-per-turn spent
  g.addEffect(used, unit.player, unit.id, g.untilEndOfTurn(), { models: unit.models.filter((m) => m.alive).map((m) => m.id) });
  // a reactive move does not set off another (the army rules and effects on the unit hear it: ruleMoveEnded)
  ruleMove(g, unit, 'normal', option.to, inches(), true, true);
}

/**
 * The Rule.enemyMoveEnded hook of such a reactive move: the options, the player's choice (`ask`, which
 * makes the rule's own decision), then the move of `inches` (rolled once a destination is chosen).
 */
export function reactiveMoveHook(
  used: string,
  ask: (g: Game, unit: UnitState, mover: UnitState, options: ({ none: true } | Destination)[]) => { none: true } | Destination,
  inches: (g: Game, unit: UnitState) => number,
): NonNullable<Rule['enemyMoveEnded']> {
  return (g, unit, mover) => {
    const options = reactiveMoveChoices(g, unit, mover, used);
    if (options.length === 0) return;
    reactiveMove(g, unit, ask(g, unit, mover, options), () => inches(g, unit), used);
  };
}

/**
 * "At the end of your opponent's turn, if this unit is not within Engagement Range of one or more enemy units,
 * it can go into Strategic Reserves" (Airborne Agility, Skyleap, Cloudstrider, Starflare Ignition System): the
 * Rule.turnEnd hook asking decision `kind` ('stay' or 'strategic-reserves'); `also` narrows when (Cloudstrider:
 * while Baharroth leads the unit; Webway Pathstone: once per battle), `chosen` acts as the unit goes (it records
 * the once per battle). `label` names the ability in the prompt.
 */
export function intoReservesAtTurnEnd(
  label: string, kind: string, also?: (g: Game, unit: UnitState) => boolean, chosen?: (g: Game, unit: UnitState) => void,
): NonNullable<Rule['turnEnd']> {
  return (g, unit, player) => {
    if (player === unit.player || unit.location !== 'battlefield' || isEngaged(g.state, unit) || (also && !also(g, unit))) return;
    const { option } = g.decide({
      kind, player: unit.player, prompt: `${unit.name}: ${label}: into Strategic Reserves?`,
      options: ['stay', 'strategic-reserves'], context: { unit: unit.id },
    });
    if (option !== 'strategic-reserves') return;
    chosen?.(g, unit);
    g.emit({ type: 'unit-location', unit: unit.id, location: 'strategic-reserves', embarkedIn: null });
  };
}

/**
 * The unit goes into Strategic Reserves and the destroyed models `back` picks return to it with their full
 * wounds (COST OF VICTORY: its Guardians; WITHDRAW AND REINFORCE: all but CHARACTERS).
 */
export function intoReservesRestored(g: Game, u: UnitState, back: (state: GameState, u: UnitState) => ModelState[]): void {
  g.emit({ type: 'unit-location', unit: u.id, location: 'strategic-reserves', embarkedIn: null });
  const fresh = g.state.units[u.id];
  for (const m of back(g.state, fresh)) g.emit({ type: 'model-returned', unit: u.id, model: m.id, wounds: characteristic(g.state, fresh, m, 'W') });
}

/**
 * "Roll one D6 for the target unit and every other (enemy) unit within 3" of it: on a 5+ it is struck" (Harvester
 * of Souls: enemy units; D-rift: any unit): the struck unit ids are kept in effect `kind` on the shooting unit for
 * the phase, for strikeDamage once its attacks are resolved.
 */
export function strikeAround(g: Game, unit: UnitState, target: UnitState, enemiesOnly: boolean, kind: string, diceLabel: string): void {
  const s = g.state;
  if (!onBattlefield(target)) return;
  // in the state's unit order (the shooting unit itself too, for a rule that names "every other unit")
  const near = s.unitOrder.map((id) => s.units[id]).filter((e) => e.id !== target.id && onBattlefield(e)
    && (!enemiesOnly || e.player !== unit.player) && unitDistance(s, e, target) <= 3 + 1e-6);
  const rolledFor = [target, ...near];
  const rolls = g.dice.d6(rolledFor.length, 'other', unit.player, unit.id, diceLabel);
  const struck = rolledFor.filter((_, i) => rolls[i] >= 5).map((e) => e.id);
  if (struck.length > 0) g.addEffect(kind, unit.player, unit.id, g.untilEndOfPhase(), { struck });
}

/** The units strikeAround struck suffer D3 mortal wounds each (those still on the battlefield); the effect goes. */
export function strikeDamage(g: Game, unit: UnitState, kind: string, label: string): void {
  const mark = g.state.effects.find((e) => e.kind === kind && e.unit === unit.id);
  if (!mark) return;
  g.removeEffect(mark.id);
  for (const id of mark.params.struck as string[]) {
    const e = g.state.units[id];
    if (!onBattlefield(e)) continue;
    const [n] = g.dice.roll(1, 3, 'mortal-wounds', unit.player, unit.id, `${label} -> ${e.name}`);
    inflictMortalWounds(g, e, n, unit.id);
  }
}

/** The enemy units of `hit` still on the battlefield that pass `keep` (the options of "select one enemy unit hit by those attacks"). */
export function hitEnemies(g: Game, unit: UnitState, hit: readonly string[], keep: (e: UnitState) => boolean = () => true): UnitState[] {
  const out: UnitState[] = [];
  for (const id of hit) {
    const e = g.state.units[id];
    if (e && e.player !== unit.player && onBattlefield(e) && keep(e)) out.push(e);
  }
  return out;
}

/**
 * The enemy unit ids hit by the attacks of the unit's models with `keyword` ("select one enemy unit hit by this
 * model's attacks"), from the Shooting phase's `hitWith`, in the order they were hit: a group of attacks those
 * models were part of (another model's weapon of the same name, a Storm Guardian's pistol beside the
 * Warlock's, does not count when he did not fire his). Without the groups' models, by the weapons they carry.
 */
export function hitByModelsWith(state: GameState, unit: UnitState, hitWith: readonly { weapon: string; target: string; models?: readonly string[] }[] | undefined, keyword: string): string[] {
  const ids = new Set<string>();
  const weapons = new Set<string>();
  for (const m of unit.models) {
    if (!m.alive || !modelHasKeyword(state, m, keyword)) continue;
    ids.add(m.id);
    for (const w of m.weapons) weapons.add(w.toLowerCase());
  }
  const out: string[] = [];
  for (const x of hitWith ?? []) {
    const theirs = x.models ? x.models.some((id) => ids.has(id)) : weapons.has(x.weapon.toLowerCase());
    if (theirs && !out.includes(x.target)) out.push(x.target);
  }
  return out;
}

/** The enemy unit ids hit by any of `weapons` (lower-case names) in the Shooting phase's `hitWith`, in the order they were hit. */
export function hitByWeapons(hitWith: readonly { weapon: string; target: string }[] | undefined, weapons: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const x of hitWith ?? []) if (weapons.has(x.weapon.toLowerCase()) && !out.includes(x.target)) out.push(x.target);
  return out;
}

/**
 * "In your Shooting phase, after this model has shot, select one enemy unit hit by one or more of those
 * attacks: it must take a Battle-shock test" (Face of Death, Horrify, Devastating Assault, Death is Not
 * Enough): the Rule.afterShooting body of such an ability. The model is the unit's model with the datasheet
 * `keyword`; `ask` makes the rule's own decision among the enemy units its weapons hit that pass `keep`;
 * `modifier` (or its value for the selected unit) is added to the test's result.
 */
export function shockOneHitEnemy(
  g: Game, unit: UnitState, hitWith: readonly { weapon: string; target: string }[] | undefined, keyword: string, ask: (options: string[]) => string,
  modifier: number | ((target: UnitState) => number) = 0, keep: (e: UnitState) => boolean = () => true,
): void {
  const s = g.state;
  if (s.turn !== unit.player || s.phase !== 'shooting' || !modelWith(s, unit, keyword)) return;
  const options = hitEnemies(g, unit, hitByModelsWith(s, unit, hitWith, keyword), keep).map((e) => e.id);
  if (options.length === 0) return;
  const target = s.units[ask(options)];
  battleShockTest(g, target.player, target.id, typeof modifier === 'number' ? modifier : modifier(target));
}

export { isMonsterOrVehicle } from '../rules/battle/units.ts';

/** Key of the current phase, for "once per phase" limits kept in a player's rule state. */
export function phaseKey(state: GameState): string {
  return `${state.round}:${state.turn}:${state.phase}`;
}

/**
 * "Once per battle round, you can target this model's unit with a Stratagem for 1CP less" (Path of
 * Command, Puretide's Teachings): the two hooks of such an ability, its use kept in the player's rule
 * state under the ability's name. The unit must hold a model whose datasheet has the ability (an Autarch
 * Wayleaper has Path of Command though not the AUTARCH keyword).
 */
export function oncePerRoundDiscount(name: string): Pick<Rule, 'stratagemDiscount' | 'stratagemDiscountUsed'> {
  return {
    stratagemDiscount(ctx) {
      if (ctx.state.players[ctx.unit.player].ruleState[name] === ctx.state.round) return 0;
      return ctx.unit.models.some((m) => m.alive && ctx.state.datasheets[m.datasheet].abilities.includes(name)) ? 1 : 0;
    },
    stratagemDiscountUsed(g, unit) {
      g.emit({ type: 'rule-state', player: unit.player, key: name, value: g.state.round });
    },
  };
}

/** The options of a "select up to N units" rule, one decision at a time: stop first, then each unit. */
export type UnitOrDone = { done: true } | { unit: string };

/**
 * "Select up to `max` units" (Strike Swiftly, Ethereal Pathway), one decision at a time: `eligible` lists
 * the units still offered (those chosen so far left out), `ask` makes the rule's own decision among
 * `{ done: true }` and `{ unit }` for each, `chosen` plays the rule on each unit selected.
 */
export function selectUpTo(
  max: number,
  eligible: (chosen: readonly string[]) => UnitState[],
  ask: (options: UnitOrDone[]) => UnitOrDone,
  chosen: (unitId: string) => void,
): void {
  const picked: string[] = [];
  while (picked.length < max) {
    const units = eligible(picked);
    if (units.length === 0) break;
    const option = ask([{ done: true }, ...units.map((u) => ({ unit: u.id }))]);
    if ('done' in option) break;
    picked.push(option.unit);
    chosen(option.unit);
  }
}

/** The options of a rule that picks one enemy unit or none: none first, then each unit. */
export type UnitOrNone = { none: true } | { unit: string };

/**
 * "Each time this model ends a Normal move, you can select one enemy unit it moved over during that move
 * and roll six D6: for each 4+, that unit suffers 1 mortal wound" (Lightning Assault, Pulse Bombs): the
 * Rule.movedOver hook. The enemy units moved over that pass `keep` are offered through `ask` (which makes
 * the rule's own decision; none first, then each unit), and the dice are rolled for the one chosen: six, or
 * `count` (Eviscerating Fly-by: one per model), `rerolls` of the failed ones rolled again.
 */
export function movedOverMortalWounds(
  name: string,
  ask: (g: Game, unit: UnitState, options: UnitOrNone[]) => UnitOrNone,
  keep: (e: UnitState) => boolean = () => true,
  count: (unit: UnitState) => number = () => 6,
  rerolls: (unit: UnitState) => number = () => 0,
): NonNullable<Rule['movedOver']> {
  return (g, unit, enemies) => {
    const options = enemies.filter((id) => keep(g.state.units[id]) && onBattlefield(g.state.units[id]));
    if (options.length === 0) return;
    const option = ask(g, unit, [{ none: true }, ...options.map((id) => ({ unit: id }))]);
    if ('none' in option) return;
    let dice: readonly number[] = g.dice.d6(count(unit), 'other', unit.player, unit.id, `${name} (4+: 1 mortal wound)`);
    // dice the rule lets the player re-roll (Cluster Caltrops: one per bearer): the failed ones, as a player would
    const failed = dice.flatMap((d, i) => (d < 4 ? [i] : [])).slice(0, rerolls(unit));
    if (failed.length > 0) dice = g.dice.reroll(dice, failed, 6, 'other', unit.player, unit.id, `${name} re-roll`);
    const wounds = dice.filter((d) => d >= 4).length;
    if (wounds > 0) inflictMortalWounds(g, g.state.units[option.unit], wounds, unit.id);
  };
}

/**
 * "Once per turn, in your opponent's Shooting phase, when a friendly ... unit within 6" of this unit is
 * selected as the target of an attack, one unit from your army with this ability can use it: after that
 * enemy unit has finished making its attacks, the unit shoots as if it were your Shooting phase, at that
 * enemy unit only (if it is an eligible target)" (Kroot Packmates, Drone Escort): the enemyTargeted and
 * enemyShot hooks. `friend` says which targeted friendly units count (within 6" is checked here); `ask`
 * makes the rule's own decision ('keep' or 'use'). `name` is also the effect on the answering unit that
 * waits for the enemy to finish (params.enemy); `used` the army-wide effect that marks this turn's use.
 */
export function returnFireHooks(
  name: string,
  used: string,
  friend: (t: UnitState) => boolean,
  ask: (g: Game, unit: UnitState, attacker: UnitState) => 'keep' | 'use',
): Pick<Rule, 'enemyTargeted' | 'enemyShot'> {
  return {
    enemyTargeted(g, unit, attacker, targets, melee) {
      const s = g.state;
      if (melee || s.phase !== 'shooting' || s.turn !== attacker.player) return;
      if (s.effects.some((e) => e.kind === used && e.player === unit.player)) return;
      const near = targets.some((id) => {
        const t = s.units[id];
        return t.player === unit.player && friend(t) && unitDistance(s, unit, t) <= 6 + 1e-6;
      });
      // "as if it were your Shooting phase": a unit that shot earlier this turn (FIRE OVERWATCH in the Movement
      // phase) may shoot again; one that could not shoot the attacker now is not asked (the use would be spent)
      if (!near || !canShoot(g, unit, attacker.id, true) || ask(g, unit, attacker) !== 'use') return;
      g.addEffect(used, unit.player, null, g.untilEndOfTurn());
      g.addEffect(name, unit.player, unit.id, g.untilEndOfPhase(), { enemy: attacker.id });
    },
    enemyShot(g, unit, attacker) {
      const pending = g.state.effects.find((e) => e.kind === name && e.unit === unit.id && e.params.enemy === attacker.id);
      if (!pending) return;
      g.removeEffect(pending.id);
      if (onBattlefield(attacker) && canShoot(g, unit, attacker.id, true)) shootWithUnit(g, unit, { onlyTarget: attacker.id });
    },
  };
}

/**
 * "Enemy units set up as Reinforcements cannot be set up within X\" of this model" (Jammer Array, Kroothawk
 * Flock): no part of their bases may be over a circle X\" beyond the model's base (a 48-sided polygon drawn round
 * it, a hair wider): Rule.enemyArrivalExclusion's areas. None while the model is not on the battlefield.
 */
export function arrivalExclusionAround(state: GameState, m: ModelState, inches: number): { x: number; y: number }[][] {
  if (!m.alive || !m.pos) return [];
  const sides = 48;
  const r = (inches + baseBoundingRadius(modelBody(state, m).base)) / Math.cos(Math.PI / sides);
  const polygon: { x: number; y: number }[] = [];
  for (let i = 0; i < sides; i++) polygon.push({ x: m.pos.x + r * Math.cos((2 * Math.PI * i) / sides), y: m.pos.y + r * Math.sin((2 * Math.PI * i) / sides) });
  return [polygon];
}

/**
 * "Set up from Reserves anywhere more than X\" from enemy units; if within 9\" of them, it cannot declare a
 * charge this turn" (Cloudstrike, DARING RIDERS): the hooks of such an effect: Deep Strike this phase, its
 * distance, and the charge forbidden once the arrival put the unit within 9" (reserves.ts marks it).
 */
export function arriveCloser(inches: number): Pick<Rule, 'allows' | 'deepStrikeDistance' | 'forbids'> {
  return {
    allows: (perm) => perm === 'deep-strike',
    deepStrikeDistance: () => inches,
    forbids: (perm, ctx) => perm === 'charge' && ctx.state.effects.some((e) => e.unit === ctx.unit.id && e.kind === SET_UP_WITHIN_9),
  };
}

/**
 * A destroyed model set back up on the battlefield at the end of a phase (Unquenchable Resolve, STAGED
 * DEATH), from a pending effect's params: `model`, `leader` (its own unit's id), `bodyguard` (the unit it
 * led then, or null) and where it fell (`x`, `y`). It is set up as near as the planner can to that point and
 * not within Engagement Range of an enemy unit, with `wounds(model)` wounds. A Leader destroyed with the rest
 * of his Attached unit leaves it first; he rejoins the Bodyguard unit he led if it is still on the
 * battlefield (the Rules Commentary), set up in Unit Coherency with it as near as he can to where he fell;
 * when there is no such spot, or no Bodyguard unit, he returns as a unit of his own. False when it could not
 * be set up.
 */
export function setModelBackUp(g: Game, params: { params: Record<string, unknown> }, wounds: (m: ModelState) => number): boolean {
  const p = params.params;
  const own = g.state.units[String(p.leader)];
  const modelId = String(p.model);
  if (own.attachedTo !== null) g.emit({ type: 'unit-detached', leader: own.id, bodyguard: own.attachedTo });
  const s = g.state;
  const fallen = s.units[own.id];
  const m = fallen.models.find((x) => x.id === modelId);
  if (!m || m.alive) return false;
  const bodyguard = p.bodyguard === null || p.bodyguard === undefined ? null : s.units[String(p.bodyguard)];
  if (bodyguard && onBattlefield(bodyguard)) {
    const pos = coherentSpot(g, bodyguard, m, { x: Number(p.x), y: Number(p.y) });
    if (pos) {
      g.emit({ type: 'model-returned', unit: fallen.id, model: modelId, wounds: wounds(m) });
      g.emit({ type: 'models-placed', unit: fallen.id, mode: 'set-up', positions: [{ model: modelId, pos }] });
      g.emit({ type: 'unit-attached', leader: fallen.id, bodyguard: bodyguard.id });
      return true;
    }
    g.emit({ type: 'note', text: `${fallen.name}: no room in Unit Coherency with ${bodyguard.name}: set up as a unit of its own` });
  }
  // planned as if it stood already (the planner places the unit's alive models)
  const standing = { ...fallen, models: fallen.models.map((x) => (x.id === modelId ? { ...x, alive: true } : x)) };
  const W = s.board.width;
  const H = s.board.height;
  const board = [{ x: 0, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: 0, y: H }];
  const plan = planUnit(s, standing, 'setUp', { destination: { x: Number(p.x), y: Number(p.y) }, zone: board });
  if (!plan.ok) return false;
  g.emit({ type: 'model-returned', unit: fallen.id, model: modelId, wounds: wounds(m) });
  applyPlan(g, g.state.units[fallen.id], plan, 'set-up');
  return true;
}


/**
 * "The first time this model is destroyed, remove it; at the end of the phase, on a D6 of 2+, set it back up
 * with its full wounds" (Fuegan's Unquenchable Resolve, the Phoenix Gem): the rule (its `modelDestroyed`
 * hook) and its pending effect `pending` (army-wide, params as setModelBackUp reads them), one entry each. The
 * first time is kept in the player's rule state; `bears` says whether the destroyed model has the rule.
 */
export function registerFirstDeathReturn(rule: Pick<Rule, 'name' | 'kind'>, pending: string, bears: (unit: UnitState, model: ModelState, state: GameState) => boolean): void {
  registerRule({
    ...rule,
    modelDestroyed(g, unit, model, at) {
      const s = g.state;
      if (!at || !bears(unit, model, s)) return;
      const key = `${rule.name}:${model.id}`;
      if (s.players[unit.player].ruleState[key] !== undefined) return;
      g.emit({ type: 'rule-state', player: unit.player, key, value: s.round });
      // an Attached unit bears its Bodyguard unit's id
      const bodyguard = unit.id !== model.origin ? unit.id : null;
      g.addEffect(pending, unit.player, null, { at: 'end-of-battle' }, { model: model.id, leader: model.origin, bodyguard, x: at.x, y: at.y });
    },
  });
  registerRule({
    name: pending, kind: 'effect',
    effectPhaseEnd(g, effect) {
      g.removeEffect(effect.id);
      const own = g.state.units[String(effect.params.leader)];
      const [roll] = g.dice.d6(1, 'other', effect.player, own.id, `${rule.name} (2+)`);
      if (roll < 2) return;
      setModelBackUp(g, effect, (m) => g.state.datasheets[m.datasheet].models[m.profile].wounds);
    },
  });
}

/** How far apart (edge to edge, roughly) a returned model is tried from each model of its unit: within the 2" of Unit Coherency. */
const RETURN_GAPS = [0.4, 1.2];
const RETURN_ANGLES = 16;

/**
 * A destroyed model returned to its unit on the battlefield by `rule` (Tears of Isha): set up with its full wounds in
 * Unit Coherency, not within Engagement Range of an enemy model, on no other model nor impassable terrain,
 * the legal spot nearest the unit's centre among spots around each of its models (the models already there
 * stay where they are). Recorded as the model returned, then placed (mode 'returned'). False, and nothing
 * happens, when the unit has no model on the battlefield or no spot is legal (the log notes it).
 */
export function returnDestroyedModel(g: Game, unit: UnitState, modelId: string, rule: string): boolean {
  const s = g.state;
  const dead = unit.models.find((m) => m.id === modelId);
  if (!dead || dead.alive || !unit.models.some((m) => m.alive && m.pos) || unit.location !== 'battlefield') return false;
  const wounds = characteristic(s, unit, dead, 'W');
  // nearest the unit's centre
  const pos = coherentSpot(g, unit, dead, null);
  if (!pos) {
    g.emit({ type: 'note', text: `${unit.name}: ${rule}: no room to set the destroyed model up again` });
    return false;
  }
  g.emit({ type: 'model-returned', unit: unit.id, model: modelId, wounds });
  g.emit({ type: 'models-placed', unit: unit.id, mode: 'returned', positions: [{ model: modelId, pos }] });
  return true;
}

/**
 * Where the destroyed model `dead` can be set up in Unit Coherency with `unit`'s models on the battlefield (its
 * own unit's, or the Bodyguard unit a returning Leader rejoins), not within Engagement Range of an enemy model,
 * on no other model nor impassable terrain: the legal spot nearest `near` (null: the centre of the unit's
 * models) among spots around each of the unit's models (a stable sort: the order of the unit's models breaks
 * ties); they stay where they are. Null when no spot is legal.
 */
function coherentSpot(g: Game, unit: UnitState, dead: ModelState, nearArg: { x: number; y: number } | null): Position | null {
  const s = g.state;
  const standing = unit.models.filter((m) => m.alive && m.pos);
  if (standing.length === 0) return null;
  // the unit as if the model stood again, not yet placed: the planner's models, the returned one last
  const withIt = { ...unit, models: [...standing, { ...dead, alive: true, pos: null }] };
  const models = planModels(s, withIt);
  const world = worldOf(s, unit.id);
  const board = s.board;
  const request = { mode: 'setUp' as const, player: String(unit.player), unitId: unit.id, models, zone: [{ x: 0, y: 0 }, { x: board.width, y: 0 }, { x: board.width, y: board.height }, { x: 0, y: board.height }] };
  const at = standing.map((m) => m.pos!);
  const near = nearArg ?? { x: at.reduce((a, p) => a + p.x, 0) / at.length, y: at.reduce((a, p) => a + p.y, 0) / at.length };
  const before = new Set(unitCoherency(standing.map((m) => modelBody(s, m))).breaking.map((i) => standing[i].id));
  const rNew = baseBoundingRadius(modelBase(s, dead));
  const spots: { x: number; y: number }[] = [];
  for (const m of standing) {
    const r = baseBoundingRadius(modelBase(s, m)) + rNew;
    for (const gap of RETURN_GAPS) {
      for (let k = 0; k < RETURN_ANGLES; k++) {
        const a = (2 * Math.PI * k) / RETURN_ANGLES;
        spots.push({ x: m.pos!.x + (r + gap) * Math.cos(a), y: m.pos!.y + (r + gap) * Math.sin(a) });
      }
    }
  }
  const d2 = (p: { x: number; y: number }) => (p.x - near.x) ** 2 + (p.y - near.y) ** 2;
  spots.sort((a, b) => d2(a) - d2(b));
  for (const p of spots) {
    const pos = { x: Math.round(p.x * 1000) / 1000, y: Math.round(p.y * 1000) / 1000, z: 0 };
    const check = validatePlacement(request, world, [...at, pos]);
    // the models already there may stand in Engagement Range (or, rarely, out of coherency): only what the
    // returned model adds counts
    const fault = check.violations.some((v) => v.modelId === dead.id || (v.rule === 'coherency' && v.modelId !== null && !before.has(v.modelId)) || v.modelId === null);
    if (!fault) return pos;
  }
  return null;
}

/**
 * The markers `player` controls that the hold `holdKind` (registerMarkerHold) does not hold for them yet: what
 * each "this marker stays yours" rule may still secure. Control as it stands now (`'now'`: a rule acting at the
 * end of a phase, where control is determined), or as last determined (`'recorded'`: a rule acting at the start
 * of a phase, before anything there has changed who controls what; control changes only at a phase's end).
 */
export function unheldMarkers(state: GameState, player: PlayerIndex, holdKind: string, when: 'now' | 'recorded' = 'now'): ObjectiveState[] {
  const control = when === 'now' ? currentControl(state) : state.objectives.map((o) => o.controller);
  return state.objectives.filter((o, i) => control[i] === player
    && !state.effects.some((e) => e.kind === holdKind && e.player === player && e.params.objective === o.id));
}

/**
 * An effect that holds an objective marker (params.objective) for its player: they control it unless the
 * opponent's Level of Control is the greater at the end of a phase (a contested or empty marker stays held, and
 * so does one the opponent leads on only at the end of a turn); it ends at the end of a phase at which the
 * opponent's is (Stormblades, Void Thieves).
 */
export function registerMarkerHold(name: string): void {
  registerRule({
    name, kind: 'effect',
    // the opponent takes the marker when their Level is the greater at the end of a phase, not at the end of
    // a turn (which follows its last phase's end: a model removed for coherency there does not give it away)
    objectiveControl(_state, objective, controller, effect: Effect, moment) {
      if (effect.params.objective !== objective || (moment === 'phase-end' && controller === opponent(effect.player))) return controller;
      return effect.player;
    },
    effectPhaseEnd(g, effect) {
      const i = g.state.objectives.findIndex((o) => o.id === effect.params.objective);
      if (i >= 0 && controlByLevel(g.state)[i] === opponent(effect.player)) g.removeEffect(effect.id);
    },
  });
}

/**
 * An embarkation at the end of the Fight phase (Rapid Embarkation, Lithe Embarkation): if nothing is embarked
 * within the TRANSPORT, one friendly unit `eligible` accepts, of 6 or fewer models, wholly within 6" of it, not
 * within Engagement Range and fitting in it, may embark (decision `kind`, first option: none).
 */
export function embarkAtEndOfFight(g: Game, unit: UnitState, kind: string, rule: string, eligible: (u: UnitState) => boolean): void {
  const s = g.state;
  if (!onBattlefield(unit) || passengers(g, unit).length > 0) return;
  const hull = unit.models.find((m) => m.alive && m.pos);
  if (!hull) return;
  const hb = modelBody(s, hull);
  const candidates = unitsOnBattlefield(s, unit.player).filter((u) =>
    u.id !== unit.id && eligible(u) && u.models.filter((m) => m.alive).length <= 6 && !isEngaged(s, u) && fitsIn(g, u, unit) &&
    u.models.every((m) => !m.alive || (m.pos !== null && isWhollyWithinOfBody(modelBody(s, m), hb, 6))));
  if (candidates.length === 0) return;
  const { option } = g.decide<{ none: true } | { unit: string }>({
    kind, player: unit.player, prompt: `${unit.name}: ${rule}?`,
    options: [{ none: true }, ...candidates.map((u) => ({ unit: u.id }))], context: { transport: unit.id },
  });
  if ('unit' in option) embark(g, s.units[option.unit], unit);
}

/** Is the model of this (Leader or lone) unit id alive on the battlefield, in whichever unit it now is (an Enhancement's bearer: Strategic Conqueror, Experienced Leader)? */
export function originOnBattlefield(state: GameState, origin: string): boolean {
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield') continue;
    for (const m of u.models) if (m.origin === origin && m.alive && m.pos) return true;
  }
  return false;
}
