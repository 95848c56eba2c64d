/**
 * Movement phase. Move Units step: the active player selects units one at a time and says what each
 * does, as an intent: Remain Stationary, a Normal move (M") or an Advance (M + D6") toward a point, or a
 * Fall Back (M") for a unit in Engagement Range; embarked units may disembark. The planner turns the
 * intent into legal positions. Reinforcements step: units in Reserves arrive by Deep Strike or from
 * Strategic Reserves (not in battle round 1).
 */
import type { Game } from '../../core/game.ts';
import { opponent, type GameState, type ModelState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { pathOverlapsBase } from '../../geometry/pathing.ts';
import { polygonCentroid } from '../../geometry/polygon.ts';
import type { PlannedMove } from '../../geometry/planner.ts';
import { afterRoll, rollDice } from '../roll-window.ts';
import { abilityRulesWith, anyUnitHas, effectsWith, escortUnits, forEachActiveRule, getRule, playerRulesWith, type Rule } from '../../core/rules-registry.ts';
import { openWindow } from '../windows.ts';
import { destroyModel, selectCasualty, splitAttachedUnits } from '../damage.ts';
import { endPhase, startPhase } from './phase.ts';
import { applyPlan, planUnit } from './placement.ts';
import type { PlanResult } from '../../geometry/planner.ts';
import { hasKeyword, modelHasKeyword, onBattlefield, rollHalved, rollModifier, survivingPart, unitMove, unitsOnBattlefield } from './units.ts';
import { isEngaged, modelBase, modelBody, unitCentre, unitsInEngagement } from './world.ts';
import { embarkOptions, embark, disembark, disembarkPlan, canDisembark } from './transports.ts';
import { reinforcements } from './reserves.ts';
import { hatchwayStep } from './hatchways.ts';

const NO_RULES: readonly Rule[] = [];

export type MoveChoice =
  | { mode: 'stationary' }
  | { mode: 'normal' | 'advance' | 'fall-back'; to: { x: number; y: number }; toward: string }
  | { mode: 'disembark' }
  | { mode: 'stay-embarked' };

export function movementPhase(g: Game, player: PlayerIndex): void {
  startPhase(g, player, 'movement');
  movementBody(g, player);
  endPhase(g, player, 'movement');
}

/** The phase between its start and its end; re-entrant between two units' moves (lookahead resumes it). */
export function movementBody(g: Game, player: PlayerIndex): void {
  moveUnitsStep(g, player);
  if (!g.state.result) reinforcements(g, player);
}

/**
 * The units that may be selected to move. `noRoom`: embarked units found to have no room to get out, with
 * the geometry version it was found in; they are left out until something moves.
 */
function movable(g: Game, player: PlayerIndex, noRoom: ReadonlyMap<string, number>): UnitState[] {
  const s = g.state;
  const out: UnitState[] = [];
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player !== player || u.flags.moved !== null) continue;
    if (u.location === 'battlefield' && u.models.some((m) => m.alive)) out.push(u);
    else if (u.location === 'embarked' && canDisembark(g, u) && noRoom.get(u.id) !== s.geometryVersion) out.push(u);
  }
  return out;
}

function moveUnitsStep(g: Game, player: PlayerIndex): void {
  const noRoom = new Map<string, number>();
  for (;;) {
    if (g.state.result) return;
    const units = movable(g, player, noRoom);
    if (units.length === 0) return;
    const options: ({ done: true } | { unit: string })[] = [{ done: true }, ...units.map((u) => ({ unit: u.id }))];
    const { option } = g.decide({ kind: 'select-unit-to-move', player, prompt: 'select a unit to move (or end: the others Remain Stationary)', options });
    if ('done' in option) {
      for (const u of units) if (u.location === 'battlefield') g.emit({ type: 'unit-moved', unit: u.id, mode: 'stationary' });
      return;
    }
    const u = g.state.units[option.unit];
    // An embarked unit with nowhere to be set up cannot get out: it has not moved (it may get out later in
    // the phase, once its transport has moved), and it is not offered again until something moves. Room is
    // checked here rather than for every embarked unit at every selection (the planner's cost).
    if (u.location === 'embarked' && !disembarkPlan(g.state, u)) {
      noRoom.set(u.id, g.state.geometryVersion);
      continue;
    }
    moveUnit(g, u);
  }
}

/**
 * Where a unit may head: every objective, every enemy unit, its own deployment zone, and the friendly units
 * its abilities want it near (escortUnits: the Spiritseer's Wraiths).
 */
export function destinations(s: GameState, u: UnitState): { to: { x: number; y: number }; toward: string }[] {
  const out: { to: { x: number; y: number }; toward: string }[] = [];
  for (const o of s.objectives) out.push({ to: { ...o.pos }, toward: `objective ${o.id}` });
  for (const e of unitsOnBattlefield(s, opponent(u.player))) out.push({ to: unitCentre(e), toward: `enemy ${e.id}` });
  const zone = s.board.deploymentZones.find((z) => z.player === u.player);
  if (zone) out.push({ to: polygonCentroid(zone.polygon), toward: 'own deployment zone' });
  for (const f of escortUnits(s, u)) out.push({ to: unitCentre(f), toward: `friend ${f.id}` });
  return out;
}

/** The moves a unit is offered when selected (agents read them too, e.g. to price a stratagem that changes them). */
export function moveOptions(s: GameState, u: UnitState): MoveChoice[] {
  // getting out is offered only where the unit can be set up (the planner finds room for it)
  if (u.location === 'embarked') return disembarkPlan(s, u) ? [{ mode: 'stay-embarked' }, { mode: 'disembark' }] : [{ mode: 'stay-embarked' }];
  const dests = destinations(s, u);
  if (isEngaged(s, u)) {
    return [{ mode: 'stationary' }, ...dests.map((d) => ({ mode: 'fall-back' as const, ...d }))];
  }
  const out: MoveChoice[] = [{ mode: 'stationary' }];
  if (unitMove(s, u) > 0) {
    for (const d of dests) out.push({ mode: 'normal', ...d });
    for (const d of dests) out.push({ mode: 'advance', ...d });
  }
  return out;
}

/**
 * A Normal move, Advance or Fall Back toward `to` of at most `maxDistance`, as executeMove plans it (and
 * replans a Fall Back after Desperate Escape): the path around terrain and where the unit stops, which
 * agents read to judge where a move ends. A Fall Back's path may cross enemy models; its end must be more
 * than 1" from every one.
 */
export function planMove(s: GameState, u: UnitState, mode: 'normal' | 'advance' | 'fall-back', to: { x: number; y: number }, maxDistance: number, movedOver = false): PlanResult {
  return planUnit(s, u, mode === 'fall-back' ? 'fallBack' : mode, movedOver ? { maxDistance, destination: to, movedOver } : { maxDistance, destination: to });
}

/**
 * Could the unit Fall Back toward `to`? Where it cannot, executeMove has it Remain Stationary. For agents
 * choosing among Fall Back options.
 */
export function canFallBack(s: GameState, u: UnitState, to: { x: number; y: number }): boolean {
  return planMove(s, u, 'fall-back', to, unitMove(s, u)).ok;
}

export function moveUnit(g: Game, u: UnitState): void {
  const player = u.player;
  openWindow(g, { name: 'movement/unit-selected', unit: u.id, targets: [] });
  // Boarding Actions: hatchways within 1" may be opened or closed before the unit moves; the opponent's answer
  // (RAPID AMBUSH's mortal wounds) may destroy the unit, which then moves no more, or its Bodyguard part, whose
  // Leader left moves on
  if (u.location === 'battlefield') {
    const parts = u.components.map((c) => c.unit);
    hatchwayStep(g, u);
    const left = survivingPart(g.state, parts);
    if (!left) return;
    u = left;
  }
  const options = moveOptions(g.state, u);
  const { option } = g.decide({ kind: 'move', player, prompt: `${u.name}: how does it move?`, options, context: { unit: u.id } });
  switch (option.mode) {
    case 'stay-embarked':
      g.emit({ type: 'unit-moved', unit: u.id, mode: 'stationary' });
      return;
    case 'disembark': {
      // moveOptions offered it because the planner found room (the same planner, the same state: the same room)
      if (!disembark(g, u)) throw new Error(`${u.name} was offered to disembark but there is no room within 3" of its transport`);
      // disembarking before the transport moved: the unit then moves as usual (it cannot Remain Stationary)
      const after = g.state.units[u.id];
      if (after.flags.moved === null) {
        const again = moveOptions(g.state, after).filter((o) => o.mode !== 'stationary');
        if (again.length === 0) { g.emit({ type: 'unit-moved', unit: u.id, mode: 'normal' }); return; }
        const { option: o2 } = g.decide({ kind: 'move', player, prompt: `${u.name}: move after disembarking`, options: again, context: { unit: u.id } });
        executeMove(g, after, o2);
        return;
      }
      // after its transport moved the unit is set up and moves no further: the opponent may react to a unit
      // set up (Fire Overwatch), as to an arrival from Reserves
      afterMove(g, after);
      return;
    }
    default:
      executeMove(g, u, option);
  }
}

export function executeMove(g: Game, u: UnitState, option: MoveChoice): void {
  const s = g.state;
  if (option.mode === 'stationary' || option.mode === 'disembark' || option.mode === 'stay-embarked') {
    g.emit({ type: 'unit-moved', unit: u.id, mode: 'stationary' });
    return;
  }
  // the opponent's stratagems that answer a unit selected to Fall Back (KHAINE'S VENGEANCE), before the move
  if (option.mode === 'fall-back') openWindow(g, { name: 'movement/fall-back-selected', unit: u.id, targets: [] });
  // abilities that act just before the move is made, its Move not read yet (Nova Burst: Move 18"; Flickerjump: 24")
  for (const r of abilityRulesWith(u, 'beforeMove')) r.beforeMove!(g, g.state.units[u.id], option.mode, option.to);
  // the opponent may react as the move starts (Fire Overwatch), which may destroy the unit or split it: a Leader
  // left by its destroyed Bodyguard makes the move
  const parts = u.components.map((c) => c.unit);
  openWindow(g, { name: 'movement/enemy-move-started', unit: u.id, targets: [], data: { mode: option.mode, to: option.to } });
  const left = survivingPart(g.state, parts);
  if (!left) return;
  u = left;
  let distance = unitMove(s, u);
  let advanceRoll = 0;
  if (option.mode === 'advance') {
    advanceRoll = advanceDistance(g, u);
    distance += advanceRoll;
  }
  // a rule of the army may make part of the move now (Unerring Strike: up to a hatchway it opens on the way);
  // the paths the abilities below read are then the rest's
  for (const r of playerRulesWith(g.state, u.player, 'moveUnderway')) {
    distance = Math.max(0, distance - r.moveUnderway!(g, g.state.units[u.id], option.mode, option.to, distance));
    // the opponent's reactions to what the rule did (a hatchway opened) may have destroyed the unit, or its Bodyguard
    const rest = survivingPart(g.state, parts);
    if (!rest) return;
    u = rest;
  }
  const watchers = moveWatchers(u, option.mode);
  const plan = planMove(s, u, option.mode, option.to, distance, watchers.length > 0);
  if (!plan.ok) {
    // A Fall Back must end outside Engagement Range: with no legal path to the chosen place the unit cannot
    // Fall Back there, so it Remains Stationary (not flagged Fell Back, no Desperate Escape tests). A Normal
    // move or Advance with nowhere legal to go is a move of 0" (the Advance roll was made; it still Advanced).
    if (option.mode === 'fall-back') g.emit({ type: 'unit-moved', unit: u.id, mode: 'stationary' });
    else g.emit({ type: 'unit-moved', unit: u.id, mode: option.mode, advanceRoll });
    return;
  }
  if (option.mode === 'fall-back') {
    const made = completeFallBack(g, u, plan, option.to, distance);
    if (made === 'destroyed') return;
    if (made === 'stuck') {
      // as with no path at all, the unit cannot Fall Back and Remains Stationary
      g.emit({ type: 'unit-moved', unit: u.id, mode: 'stationary' });
      return;
    }
  } else {
    applyPlan(g, u, plan, option.mode);
  }
  g.emit({ type: 'unit-moved', unit: u.id, mode: option.mode, advanceRoll });
  moveMade(g, u, plan, option.mode, watchers);
  for (const part of partsThatMoved(g, u)) {
    // Boarding Actions: and again just after it ends its move
    hatchwayStep(g, part);
    if (onBattlefield(g.state.units[part.id])) afterMove(g, g.state.units[part.id]);
  }
}

/** Abilities told which enemy units a Normal move (or an Advance, for some) passed over (Rule.movedOver: Lightning Assault). */
function moveWatchers(u: UnitState, mode: 'normal' | 'advance' | 'fall-back'): readonly Rule[] {
  return mode === 'normal' ? abilityRulesWith(u, 'movedOver')
    : mode === 'advance' ? abilityRulesWith(u, 'movedOver').filter((r) => r.movedOverOnAdvance) : NO_RULES;
}

/**
 * A move just made (placed): the unit's abilities that act on the way its models went (Rule.movedAlong) and
 * on the enemy units a Normal move passed over (Rule.movedOver, `watchers`, planned with movedOver).
 */
function moveMade(g: Game, u: UnitState, plan: PlannedMove, mode: 'normal' | 'advance' | 'fall-back', watchers: readonly Rule[]): void {
  movedAlong(g, u, plan, mode);
  if (watchers.length > 0 && plan.crossedEnemyModelIds.length > 0) {
    const crossed = new Set(plan.crossedEnemyModelIds);
    const enemies = g.state.unitOrder.filter((id) => g.state.units[id].player !== u.player && g.state.units[id].models.some((m) => crossed.has(m.id)));
    for (const r of watchers) r.movedOver!(g, g.state.units[u.id], enemies);
  }
}

/**
 * A Normal move (or a Fall Back) a rule gives outside the Movement phase's own (Tactical Acumen, The Torchstar
 * Gambit, the reactive moves, Fire and Fade): planned as the phase's, and heard by the same abilities
 * (Internal Grenade Racks, Pulse Bombs, Titanic Strides), for every such move is one. A Fall Back takes its
 * Desperate Escape tests. Like any Normal or Fall Back move it may end with the unit embarking (core rules,
 * Embark, in any phase), unless the rule says it cannot (`embark` false: FIRE AND FADE); before that, the
 * opponent's rules that act when an enemy unit ends such a move hear it (ruleMoveEnded; `reaction`: the move
 * answers another, Trail Finding's). True when the unit was placed.
 */
export function ruleMove(g: Game, u: UnitState, mode: 'normal' | 'fall-back', to: { x: number; y: number }, distance: number, embark = true, reaction = false): boolean {
  const watchers = moveWatchers(u, mode);
  const plan = planMove(g.state, u, mode, to, distance, watchers.length > 0);
  if (!plan.ok) return false;
  if (mode === 'fall-back') {
    if (completeFallBack(g, u, plan, to, distance) !== 'moved') return false;
  } else if (!applyPlan(g, u, plan, 'normal')) return false;
  moveMade(g, u, plan, mode, watchers);
  ruleMoveEnded(g, u, mode, reaction);
  const moved = g.state.units[u.id];
  if (embark && moved.location === 'battlefield') offerEmbark(g, moved);
  return true;
}

/**
 * The unit's abilities that act on the way its models went (Rule.movedAlong: Titanic Strides). `u` is the
 * unit as it was planned (the plan's paths are its living models', in order); a Fall Back replanned after
 * Desperate Escape losses is read from its first plan, for the models left (TITANIC models take those
 * tests only when Battle-shocked, and the one-model walkers are then gone or moved as planned).
 */
function movedAlong(g: Game, u: UnitState, plan: PlannedMove, mode: 'normal' | 'advance' | 'fall-back'): void {
  const rules = abilityRulesWith(u, 'movedAlong');
  if (rules.length === 0) return;
  const moves = u.models.filter((m) => m.alive).map((m, i) => ({ model: m.id, path: plan.paths[i] }));
  for (const r of rules) {
    const fresh = g.state.units[u.id];
    if (fresh.location !== 'battlefield') return;
    r.movedAlong!(g, fresh, moves.filter((mv) => fresh.models.some((m) => m.id === mv.model && m.alive)), mode);
  }
}

/**
 * A Fall Back along a legal `plan` (toward `to`, at most `distance`): the Desperate Escape tests, then the
 * models left placed ('moved'); 'destroyed' when the tests left none; 'stuck' when the planner finds no
 * legal end for the models left (the tests stand, as the rules take them before any model moves). No
 * unit-moved event: the Movement phase records the move, a rule's Fall Back elsewhere (Raid and Run) need not.
 */
export function completeFallBack(g: Game, u: UnitState, plan: PlannedMove, to: { x: number; y: number }, distance: number): 'moved' | 'destroyed' | 'stuck' {
  desperateEscape(g, u, plan);
  if (!u.models.some((m) => m.alive)) return 'destroyed';
  // the planner planned every model that was alive; Desperate Escape may have removed some
  const alive = u.models.filter((m) => m.alive);
  if (alive.length === plan.positions.length) {
    applyPlan(g, u, plan, 'fall-back');
    return 'moved';
  }
  const replanned = planMove(g.state, u, 'fall-back', to, distance);
  if (!replanned.ok) return 'stuck';
  applyPlan(g, u, replanned, 'fall-back');
  return 'moved';
}

/**
 * The units that end the move: the unit itself, or, when Desperate Escape destroyed the whole Leader or
 * Bodyguard part of an Attached unit, each part left, split now so that the after-move rules, Fire
 * Overwatch and embarking are offered for the unit that is still on the battlefield.
 */
function partsThatMoved(g: Game, u: UnitState): UnitState[] {
  const before = g.state.units[u.id];
  if (!before.components.some((c) => c.destroyed)) return [before];
  const ids = before.components.map((c) => c.unit);
  splitAttachedUnits(g);
  const out: UnitState[] = [];
  for (const id of ids) {
    const part = g.state.units[id];
    if (part.location === 'battlefield' && part.models.some((m) => m.alive)) out.push(part);
  }
  return out;
}

/**
 * The Advance roll (D6, with its modifiers), unless a rule replaces it with a fixed distance
 * (Aggressive Mobility). Rules may let the player re-roll it (Skilled Crews): the player decides.
 */
export function advanceDistance(g: Game, u: UnitState): number {
  const s = g.state;
  let fixed: number | null = null;
  let reroll = false;
  forEachActiveRule(s, u, 'self', (r, src) => {
    const f = r.fixedAdvance?.({ state: s, unit: u }, src);
    if (f !== undefined && f !== null) fixed = Math.max(fixed ?? 0, f);
    if (r.rerollAdvance?.({ state: s, unit: u }, src)) reroll = true;
  });
  if (fixed !== null) return fixed;
  let roll: readonly number[] = rollDice(g, 1, 6, 'advance', u.player, u.id, u.name);
  let rerolled: number[] = [];
  // (a Fate die put in the roll's place cannot be re-rolled: nothing to ask)
  if (reroll && !g.dice.isFixed(roll, 0)) {
    const { option } = g.decide({ kind: 'reroll-advance', player: u.player, prompt: `${u.name}: Advance roll ${roll[0]}, re-roll it?`, options: ['keep', 're-roll'], context: { unit: u.id, roll: roll[0] } });
    if (option === 're-roll') { roll = g.dice.reroll(roll, [0], 6, 'advance', u.player, u.id, 'Advance re-roll'); rerolled = [0]; }
  }
  roll = afterRoll(g, { purpose: 'advance', player: u.player, unit: u.id, sides: 6, values: roll, test: null, rerolled });
  return Math.max(0, rollHalved(s, u, 'advance', roll[0]) + rollModifier(s, u, 'advance'));
}

/**
 * The opponent's abilities that react to a unit ending a Normal, Advance or Fall Back move (not an arrival
 * from Reserves): Trail Finding, Path of the Outcast... The reactive moves they make do not call this in
 * turn, so one reaction does not set off another.
 */
function enemyMoveEnded(g: Game, mover: UnitState): void {
  const moved = mover.flags.moved;
  if (mover.location !== 'battlefield' || (moved !== 'normal' && moved !== 'advance' && moved !== 'fall-back')) return;
  moveEnded(g, mover, moved, false);
}

/**
 * A Normal or Fall Back move a rule gave has ended (Duty's Echo, FIRE AND FADE, Fade Back, Lethal Intent...): the
 * rules that act when a unit ends such a move hear it as they hear the Movement phase's, for their texts name no
 * phase (Trail Finding, Aerial Disengagement: "when an enemy unit ends a Normal, Advance or Fall Back move"). A
 * `reaction` (the reactive move such an ability gives) is heard by the army rules (Relentless Raiders) and the
 * effects on the unit (Monofilament Snare) only: a reactive move does not set off another.
 */
function ruleMoveEnded(g: Game, mover: UnitState, mode: 'normal' | 'fall-back', reaction: boolean): void {
  const u = g.state.units[mover.id];
  if (u.location === 'battlefield') moveEnded(g, u, mode, reaction);
}

function moveEnded(g: Game, mover: UnitState, mode: 'normal' | 'advance' | 'fall-back', reaction: boolean): void {
  // effects on the unit that act when it moves (Monofilament Snare)
  for (const e of effectsWith(g.state, mover.id, 'markedUnitMoved')) {
    if (g.state.units[mover.id].location === 'battlefield') getRule(e.kind)!.markedUnitMoved!(g, g.state.units[mover.id], e);
  }
  if (g.state.units[mover.id].location !== 'battlefield') return;
  armyEnemyMoveEnded(g, g.state.units[mover.id], mode);
  if (reaction || g.state.units[mover.id].location !== 'battlefield' || !anyUnitHas(g.state, 'enemyMoveEnded')) return;
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    if (u.player === mover.player || u.location !== 'battlefield') continue;
    for (const r of abilityRulesWith(u, 'enemyMoveEnded')) r.enemyMoveEnded!(g, g.state.units[id], g.state.units[mover.id]);
  }
}

/** The army and detachment rules of the mover's opponent that act when an enemy unit ends a move (Relentless Raiders). */
export function armyEnemyMoveEnded(g: Game, mover: UnitState, mode: 'normal' | 'advance' | 'fall-back' | 'charge'): void {
  const owner = opponent(mover.player);
  for (const r of playerRulesWith(g.state, owner, 'armyEnemyMoveEnded')) {
    const fresh = g.state.units[mover.id];
    if (fresh.location !== 'battlefield') return;
    r.armyEnemyMoveEnded!(g, owner, fresh, mode);
  }
}

/**
 * The moves after which a unit may embark (core rules, Embark): not a set-up (an arrival from Reserves, by RAPID
 * INGRESS too, or UNSHROUDED TRUTH's), which also calls afterMove.
 */
const EMBARKING_MOVES: ReadonlySet<UnitState['flags']['moved']> = new Set(['normal', 'advance', 'fall-back'] as const);

/** After a unit ends a move or is set up: the opponent may react (Fire Overwatch); after a move it may embark. */
export function afterMove(g: Game, u: UnitState): void {
  // abilities used when the unit is set up or ends a move (Grenade Pack Flyover)
  const moved = g.state.units[u.id];
  if (moved.location === 'battlefield') for (const name of moved.abilities) getRule(name)?.afterMove?.(g, moved);
  openWindow(g, { name: 'movement/after-own-move', unit: u.id, targets: [] });
  openWindow(g, { name: 'movement/after-enemy-move', unit: u.id, targets: [] });
  enemyMoveEnded(g, g.state.units[u.id]);
  const fresh = g.state.units[u.id];
  if (fresh.location !== 'battlefield' || !EMBARKING_MOVES.has(fresh.flags.moved)) return;
  offerEmbark(g, fresh);
}

/** Embark (core rules): the unit just ended a Normal, Advance or Fall Back move; it may embark within a transport it is within 3" of and fits in. */
function offerEmbark(g: Game, u: UnitState): void {
  const transports = embarkOptions(g, u);
  if (transports.length === 0) return;
  const { option } = g.decide({ kind: 'embark', player: u.player, prompt: `${u.name}: embark within a transport?`, options: [{ stay: true }, ...transports.map((t) => ({ transport: t.id }))], context: { unit: u.id } });
  if ('transport' in option) embark(g, u, g.state.units[option.transport]);
}

/** What the rules in force change in the unit's Desperate Escape tests (Rule.desperateEscape: KHAINE'S VENGEANCE makes every model take one, at -1 if Battle-shocked). */
export function desperateEscapeRules(s: GameState, u: UnitState): { allModels: boolean; modifier: number } {
  let allModels = false;
  let modifier = 0;
  forEachActiveRule(s, u, 'self', (r, src) => {
    const x = r.desperateEscape?.({ state: s, unit: u }, src);
    if (x) { allModels ||= x.allModels; modifier += x.modifier; }
  });
  // the abilities of the enemy units it is leaving (Mask of Secrets), asked before it moves; each ability once,
  // however many of those units have it ("within Engagement Range of one or more units with this ability": No
  // Escape's -1 does not stack), at its most severe
  if (anyUnitHas(s, 'enemyDesperateEscape')) {
    const byRule = new Map<string, number>();
    for (const e of unitsOnBattlefield(s, opponent(u.player))) {
      for (const r of abilityRulesWith(e, 'enemyDesperateEscape')) {
        if (!unitsInEngagement(s, e, u)) continue;
        const x = r.enemyDesperateEscape!({ state: s, unit: e, fleeing: u }, { role: 'self', player: e.player, effect: null, unit: e });
        if (!x) continue;
        allModels ||= x.allModels;
        byRule.set(r.name, Math.min(byRule.get(r.name) ?? 0, x.modifier));
      }
    }
    for (const m of byRule.values()) modifier += m;
  }
  return { allModels, modifier };
}

/**
 * Desperate Escape: a test (D6, 1-2 fails) for each model that moves over enemy models (not FLY or
 * TITANIC), or for every model when the unit is Battle-shocked or a rule says so (Rule.desperateEscape, which
 * may also add a modifier to the tests); each failure destroys a model. Made before the unit is placed.
 */
function desperateEscape(g: Game, u: UnitState, plan: PlannedMove): void {
  const s = g.state;
  let tests = 0;
  const { allModels: forced, modifier } = desperateEscapeRules(s, u);
  const allModels = u.battleShocked || forced;
  if (allModels) {
    tests = u.models.filter((m) => m.alive).length;
  } else if (!hasKeyword(u, 'TITANIC') && plan.crossedEnemyModelIds.length > 0) {
    const crossed = new Set(plan.crossedEnemyModelIds);
    const enemies: ModelState[] = [];
    for (const id of s.unitOrder) {
      const e = s.units[id];
      if (e.player === u.player || e.location !== 'battlefield') continue;
      for (const m of e.models) if (m.alive && m.pos && crossed.has(m.id)) enemies.push(m);
    }
    const alive = u.models.filter((m) => m.alive);
    alive.forEach((m, i) => {
      // models that can FLY take no test, model by model (an Ethereal's Hover Drone in a Strike Team)
      if (modelHasKeyword(s, m, 'FLY')) return;
      // the model's own base swept along its path over the enemy model's (exact for ovals and hulls too)
      const path = plan.paths[i];
      const base = modelBase(s, m);
      if (enemies.some((e) => pathOverlapsBase(base, path, modelBody(s, e)))) tests++;
    });
  }
  if (tests === 0) return;
  let rolls = g.dice.d6(tests, 'desperate-escape', u.player, u.id, u.name);
  rolls = afterRoll(g, { purpose: 'desperate-escape', player: u.player, unit: u.id, sides: 6, values: rolls, test: { needed: 3, modifier, criticalOn: 7 }, rerolled: [] }) as number[];
  for (const v of rolls) {
    if (v + modifier > 2) continue;
    // one model of the unit, selected by its controlling player (not necessarily one that was tested)
    const victim = selectCasualty(g, u, 'Desperate Escape');
    if (victim) destroyModel(g, u, victim, null, 'Desperate Escape');
  }
}
