/**
 * Fight phase. Fights First step, then Remaining Combats: in each, players alternate selecting an
 * eligible unit (within Engagement Range of an enemy unit, or that made a Charge move this turn),
 * starting with the player whose turn it is not; a player with no eligible unit left lets the other
 * fight with theirs. A selected unit piles in (3" toward the closest enemy), attacks with its melee
 * weapons, then consolidates (3").
 */
import type { Game } from '../../core/game.ts';
import { afterAttacks, allows, consolidationMove, effectsWith, getRule, pileInMove, type PileInMove } from '../../core/rules-registry.ts';
import { opponent, type GameState, type ModelState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { profileHas, type Weapon, type WeaponProfile } from '../../data/datasheet.ts';
import { inBaseContact } from '../../geometry/distance.ts';
import { ENGAGEMENT_RANGE_HORIZONTAL, inEngagementRange, isCoherent } from '../../geometry/ranges.ts';
import type { PlannedMove } from '../../geometry/planner.ts';
import { resolveAttacks, type AttackGroup } from '../attack-sequence.ts';
import { attackGroupKey, splitBySource } from '../attack-context.ts';
import { enemyAttacking, openWindow } from '../windows.ts';
import { fightsFirst } from './charge.ts';
import { takeFallenWarriors } from './fight-on-death.ts';
import { endPhase, hooksOf, startPhase } from './phase.ts';
import { applyPlan, planUnit } from './placement.ts';
import { resolveDestroyedModel } from './transports.ts';
import { destroyedParts, onBattlefield, unitsOnBattlefield } from './units.ts';
import { engagedEnemies, isEngaged, modelBody, unitDistance } from './world.ts';
import { moveOptions, type MoveChoice } from './movement.ts';

/** Effect kind: this unit fights next (Counter-offensive). */
export const FIGHTS_NEXT = 'Fights next';

export function fightPhase(g: Game, player: PlayerIndex): void {
  startPhase(g, player, 'fight');
  fightStep(g, true);
  fightStep(g, false);
  endPhase(g, player, 'fight');
}

/**
 * Record every unit on the battlefield now eligible to fight, either player's (TurnFlags.eligibleToFight; read
 * by wasEligibleToFight): asked before each selection, the first of them as the phase begins.
 */
function recordEligibleToFight(g: Game): void {
  const s = g.state;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (!u.flags.eligibleToFight && onBattlefield(u) && (u.flags.charged || isEngaged(s, u))) g.emit({ type: 'unit-flag', unit: id, flag: 'eligibleToFight', value: true });
  }
}

function eligible(g: Game, p: PlayerIndex, first: boolean): UnitState[] {
  const s = g.state;
  const out: UnitState[] = [];
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player !== p || !onBattlefield(u) || u.flags.fought) continue;
    if (first && !fightsFirst(g, u)) continue;
    if (isEngaged(s, u) || u.flags.charged) out.push(u);
  }
  return out;
}

function fightStep(g: Game, first: boolean): void {
  let current = opponent(g.state.turn);
  for (;;) {
    if (g.state.result) return;
    recordEligibleToFight(g);
    let units = eligible(g, current, first);
    if (units.length === 0) {
      current = opponent(current);
      units = eligible(g, current, first);
      if (units.length === 0) return;
    }
    const options = units.map((u) => ({ unit: u.id }));
    const { option } = g.decide({ kind: 'select-unit-to-fight', player: current, prompt: `${first ? 'Fights First' : 'Remaining Combats'}: select a unit to fight`, options });
    fight(g, g.state.units[option.unit]);
    // a unit chosen to fight next (Counter-offensive) fights before the alternation goes on
    for (;;) {
      const next = g.state.effects.find((e) => e.kind === FIGHTS_NEXT);
      if (!next) break;
      g.removeEffect(next.id);
      const u = next.unit ? g.state.units[next.unit] : null;
      if (u && onBattlefield(u) && !u.flags.fought) fight(g, u);
    }
    current = opponent(current);
  }
}

interface Fighter {
  model: ModelState;
  /** enemy units it can attack */
  targets: Set<string>;
}

/**
 * Models that can fight, and whom: within Engagement Range of an enemy, or in base contact with a friend who
 * is in base contact with one. `standIns`: only these models fight (fallen models where they stood, see
 * fight-on-death.ts), the unit's models alive still count as friends in base contact.
 */
function fighters(g: Game, u: UnitState, standIns: readonly ModelState[] | null = null): Fighter[] {
  const s = g.state;
  const enemies: { unit: string; model: ModelState }[] = [];
  for (const id of s.unitOrder) {
    const e = s.units[id];
    if (e.player === u.player || e.location !== 'battlefield') continue;
    for (const m of e.models) if (m.alive && m.pos) enemies.push({ unit: e.id, model: m });
  }
  const alive = u.models.filter((m) => m.alive && m.pos);
  const own = standIns ? [...alive, ...standIns] : alive;
  const direct = new Map<ModelState, Set<string>>();
  const contact = new Map<ModelState, Set<string>>();
  for (const m of own) {
    const b = modelBody(s, m);
    const t = new Set<string>();
    const c = new Set<string>();
    for (const e of enemies) {
      const eb = modelBody(s, e.model);
      if (inEngagementRange(b, eb)) t.add(e.unit);
      if (inBaseContact(b, eb)) c.add(e.unit);
    }
    direct.set(m, t);
    contact.set(m, c);
  }
  const out: Fighter[] = [];
  for (const m of standIns ?? own) {
    const targets = new Set(direct.get(m));
    const b = modelBody(s, m);
    for (const f of own) {
      if (f === m || (contact.get(f)?.size ?? 0) === 0) continue;
      if (inBaseContact(b, modelBody(s, f))) for (const t of contact.get(f)!) targets.add(t);
    }
    if (targets.size > 0) out.push({ model: m, targets });
  }
  return out;
}

function isMelee(p: WeaponProfile): boolean {
  return p.range === 'Melee';
}

function extraAttacks(w: Weapon): boolean {
  return w.profiles.some((p) => isMelee(p) && profileHas(p, 'EXTRA ATTACKS'));
}

export function fight(g: Game, u: UnitState): void {
  const s = g.state;
  const player = u.player;
  for (const name of u.abilities) getRule(name)?.selectedToFight?.(g, u);
  for (const h of hooksOf(g, player)) h.unitSelectedToFight?.(g, u, player);
  openWindow(g, { name: 'fight/unit-selected', unit: u.id, targets: [] });
  pileIn(g, u);
  const fresh = s.units[u.id];
  // its parts: a Deadly Demise may destroy its Bodyguard or Leader part mid-activation, and the part left (a
  // unit of its own then) has fought all the same
  const parts = fresh.components.map((c) => c.unit);
  const attackGroups = meleeAttackGroups(g, fresh, fighters(g, fresh));
  // the enemy units (or parts) its attacks destroy, for the window after it has fought (FIRING LINE)
  let destroyed: string[] = [];
  if (attackGroups.length) {
    destroyed = makeMeleeAttacks(g, fresh, attackGroups);
    fallenWarriorsFight(g, fresh);
  }
  // a unit its own target's Deadly Demise destroyed is gone: nothing of it is left to consolidate or be marked (as in shooting)
  for (const id of parts) {
    const after = s.units[id];
    if (!onBattlefield(after)) continue;
    consolidate(g, after);
    // marked once: already so when fallen models fought it (fallenWarriorsFight)
    if (!s.units[id].flags.fought) g.emit({ type: 'unit-flag', unit: id, flag: 'fought', value: true });
  }
  openWindow(g, { name: 'fight/after-enemy-fought', unit: u.id, targets: [], data: { destroyed } });
}

/**
 * The fight sequence once the unit's attack groups (and so its targets) are chosen: the defender's answers to
 * the targets (the stratagem window, its units' abilities), the attacks, the rules acting after them. Returns
 * the enemy units (or parts) the attacks destroyed, for the window after the unit has fought (FIRING LINE).
 */
function makeMeleeAttacks(g: Game, u: UnitState, groups: AttackGroup[]): string[] {
  const s = g.state;
  const targets = [...new Set(groups.map((a) => a.target))];
  openWindow(g, { name: 'fight/after-enemy-targets', unit: u.id, targets });
  enemyAttacking(g, s.units[u.id], targets, true);
  const before = destroyedParts(s, opponent(u.player));
  const tally = resolveAttacks(g, s.units[u.id], groups, true);
  const destroyed = [...destroyedParts(s, opponent(u.player))].filter((id) => !before.has(id));
  afterAttacks(g, s.units[u.id], tally.hitTargets, true);
  return destroyed;
}

/** The attacks of the fighting models: each model's melee weapon (a decision when it has several) and each weapon's target. */
function meleeAttackGroups(g: Game, fresh: UnitState, fs: Fighter[], fallen = false): AttackGroup[] {
  const s = g.state;
  const player = fresh.player;
  const groups = new Map<string, { weapon: Weapon; models: Fighter[] }>();
  for (const f of fs) {
    const ds = s.datasheets[f.model.datasheet];
    const weapons = f.model.weapons.map((n) => ds.weapons.find((w) => w.name === n)).filter((w): w is Weapon => !!w && w.profiles.some(isMelee));
    const extra = weapons.filter(extraAttacks);
    const main = [...new Map(weapons.filter((w) => !extraAttacks(w)).map((w) => [w.name, w])).values()];
    let chosen: Weapon | undefined = main[0];
    if (main.length > 1) {
      const { option } = g.decide({ kind: 'fight-weapon', player, prompt: `${f.model.name}: fight with which weapon?`, options: main.map((w) => w.name), context: { model: f.model.id } });
      chosen = main.find((w) => w.name === option);
    }
    // a weapon carried twice is used once per copy (the data repeats it)
    const used = chosen ? [...weapons.filter((w) => w.name === chosen!.name), ...extra] : extra;
    for (const w of used) {
      const key = attackGroupKey(f.model, w.name);
      let gr = groups.get(key);
      if (!gr) groups.set(key, (gr = { weapon: w, models: [] }));
      gr.models.push(f);
    }
  }
  // split by the effects that give some models of a group a bonus of their own (EPIC CHALLENGE's model)
  const splitters = effectsWith(s, fresh.id, 'splitAttackers');
  const split = splitters.length === 0 ? [...groups.values()] : [...groups.values()].flatMap((gr) =>
    splitBySource(s, fresh, gr.weapon, gr.models.map((f) => f.model), splitters).map((ms) => ({ weapon: gr.weapon, models: gr.models.filter((f) => ms.includes(f.model)) })));
  const attackGroups: AttackGroup[] = [];
  for (const gr of split) {
    // each model attacks a unit it can reach: the models the chosen target is out of reach of are asked
    // again, among the units they can reach (against two enemy units, each end of a line fights its own)
    let left = gr.models;
    while (left.length > 0) {
      const options: { profile: number; target: string }[] = [];
      gr.weapon.profiles.forEach((p, pi) => {
        if (!isMelee(p)) return;
        const reach = new Set<string>();
        for (const f of left) for (const t of f.targets) reach.add(t);
        for (const t of reach) options.push({ profile: pi, target: t });
      });
      if (options.length === 0) break;
      const { option } = g.decide({ kind: 'fight-target', player, prompt: `${fresh.name}: target for ${gr.weapon.name}`, options, context: { unit: fresh.id } });
      const target = s.units[option.target];
      const models = left.filter((f) => f.targets.has(option.target)).map((f) => f.model);
      left = left.filter((f) => !f.targets.has(option.target));
      attackGroups.push({
        weapon: gr.weapon, profile: gr.weapon.profiles[option.profile], models, target: target.id, halfRange: false,
        targetVisible: true, targetInCover: false, targetModels: target.models.filter((m) => m.alive).length,
        ...(fallen ? { fallen: true } : {}),
      });
    }
  }
  return attackGroups;
}

/**
 * The fallen models of any unit (fight-on-death.ts) fight, unit by unit, once the attacking unit has
 * finished its attacks; their attacks may make more (the enemy's own fallen), who fight in turn. Each unit's
 * fallen follow the fight sequence as the Rules Commentary's "Fight on Death" has them: they select their
 * targets (after a Pile-in move, pileInFallen), the defender may answer (the window after an enemy unit's
 * targets, its units' abilities), their attacks resolve and the rules acting after a unit's attacks act.
 */
function fallenWarriorsFight(g: Game, attacker: UnitState): void {
  let batch = takeFallenWarriors(g);
  if (batch.length === 0) return;
  // the attacking unit has made its attacks, so it has fought: its models the fallen destroy do not fight on death
  if (onBattlefield(g.state.units[attacker.id])) g.emit({ type: 'unit-flag', unit: attacker.id, flag: 'fought', value: true });
  for (; batch.length > 0; batch = takeFallenWarriors(g)) {
    for (const { unit, fallen } of batch) {
      if (g.state.result) return;
      const standing = pileInFallen(g, unit, fallen.map((f) => f.model));
      const groups = meleeAttackGroups(g, unit, fighters(g, unit, standing), true);
      if (groups.length) makeMeleeAttacks(g, unit, groups);
      // then the rules their destruction triggered that waited for their fight (Deadly Demise, passengers)
      fallen.forEach((f, i) => { if (f.waiting && !g.state.result) resolveDestroyedModel(g, g.state.units[unit.id], standing[i], f.waiting); });
    }
  }
}

/**
 * The fallen models' Pile-in (the Rules Commentary: they may Pile In, keeping Unit Coherency): planned as the
 * unit's own Pile-in is, for the fallen alone (the unit's living models stay where they are, friendly models
 * the fallen may not end on), and kept only when the unit's living models and the fallen are in Unit Coherency
 * at its end. Recorded as a 'fallen-piled-in' event; returns the stand-ins where they now stand.
 */
function pileInFallen(g: Game, unit: UnitState, standIns: ModelState[]): ModelState[] {
  const s = g.state;
  const fallen: UnitState = { ...s.units[unit.id], models: standIns };
  if (allInBaseContact(g, fallen)) return standIns;
  // planned under an id of its own, so that the unit's living models are on the table for the planner
  const plan = planPileIn(g, fallen, 'pileIn', { ...fallen, id: `${unit.id}/fallen` });
  if (!plan) return standIns;
  const moved = standIns.map((m, i) => ({ ...m, pos: { x: plan.positions[i].x, y: plan.positions[i].y, z: plan.positions[i].z } }));
  const living = s.units[unit.id].models.filter((m) => m.alive && m.pos);
  if (!isCoherent([...living, ...moved].map((m) => modelBody(s, m)))) return standIns;
  g.emit({ type: 'fallen-piled-in', unit: unit.id, positions: moved.map((m) => ({ model: m.id, pos: m.pos })) });
  return moved;
}

/** Pile in: up to 3" (or what the unit's abilities allow) toward the closest enemy model (the planner keeps every rule). */
function pileIn(g: Game, u: UnitState): void {
  if (allInBaseContact(g, u)) return;
  const plan = planPileIn(g, u, 'pileIn');
  if (plan) applyPlan(g, u, plan, 'pile-in');
}

/**
 * Consolidate: up to 3" (or what the unit's rules allow) toward the closest enemy model, or, when the unit
 * cannot end within Engagement Range, toward the closest objective marker (the planner). A unit a rule lets
 * consolidate in any direction then (SERPENT STRIKE) may instead go where its player picks.
 */
function consolidate(g: Game, u: UnitState): void {
  if (allInBaseContact(g, u)) return;
  const move = consolidationMove(g, u);
  if (allows(g.state, u, 'consolidate-any-direction') && !enemyWithin(g.state, u, move.distance + ENGAGEMENT_RANGE_HORIZONTAL) && consolidateAnyDirection(g, u, move.distance)) return;
  const plan = planPileIn(g, u, 'consolidate', u, move);
  if (plan) applyPlan(g, u, plan, 'consolidate');
}

/** Is an enemy model within `inches` of a model of the unit (so that a move of `inches` less 1" could end within its Engagement Range)? */
function enemyWithin(s: GameState, u: UnitState, inches: number): boolean {
  return unitsOnBattlefield(s, opponent(u.player)).some((e) => unitDistance(s, u, e) <= inches + 1e-6);
}

/**
 * The Consolidation move in any direction (SERPENT STRIKE): decision 'consolidate-any-direction', first the
 * core rules' move (toward an objective marker), then the unit's Normal move destinations; the unit moves up to
 * `reach` toward the one picked, planned as a Normal move (it cannot end within Engagement Range anyway).
 * False when the player keeps the core rules' move, or no such move can be made.
 */
function consolidateAnyDirection(g: Game, u: UnitState, reach: number): boolean {
  const dests = moveOptions(g.state, u).filter((o): o is Extract<MoveChoice, { to: unknown }> => o.mode === 'normal');
  if (dests.length === 0) return false;
  const { option } = g.decide<{ none: true } | Extract<MoveChoice, { to: unknown }>>({
    kind: 'consolidate-any-direction', player: u.player, prompt: `${u.name}: consolidate up to ${reach}" in any direction, toward? (first: toward an objective marker)`,
    options: [{ none: true }, ...dests], context: { unit: u.id, reach },
  });
  if ('none' in option) return false;
  return applyPlan(g, u, planUnit(g.state, u, 'normal', { maxDistance: reach, destination: option.to }), 'consolidate-any-direction');
}

/**
 * The unit's Pile-in or Consolidation move as the planner finds it, or null when no model moves. `planned`:
 * the unit as the planner sees it (the fallen's stand-ins under an id of their own), `u` the unit whose rules
 * give the move its reach; `given`, the move when already worked out (a Consolidation's rolled reach). Its
 * callers first ask allInBaseContact: a model already in base contact with an enemy model cannot end any
 * closer, so when every model is there is nothing to plan (and no reach to roll).
 */
function planPileIn(g: Game, u: UnitState, mode: 'pileIn' | 'consolidate', planned: UnitState = u, given?: PileInMove): PlannedMove | null {
  const move = given ?? (mode === 'consolidate' ? consolidationMove(g, u) : pileInMove(g.state, u));
  // the core rules' Pile-in is made only if it ends within Engagement Range of an enemy unit
  const opts = { maxDistance: move.distance, ...(move.closestUnitContact ? { closestUnitContact: true } : {}), ...(mode === 'pileIn' ? { endEngaged: true } : {}) };
  const plan = planUnit(g.state, planned, mode, opts);
  return plan.ok && plan.pathLengths.some((l) => l > 1e-6) ? plan : null;
}

function allInBaseContact(g: Game, u: UnitState): boolean {
  const s = g.state;
  const enemies = engagedEnemies(s, u);
  if (enemies.length === 0) return false;
  for (const m of u.models) {
    if (!m.alive || !m.pos) continue;
    const b = modelBody(s, m);
    let touching = false;
    for (const e of enemies) {
      for (const em of e.models) if (em.alive && em.pos && inBaseContact(b, modelBody(s, em))) { touching = true; break; }
      if (touching) break;
    }
    if (!touching) return false;
  }
  return true;
}
