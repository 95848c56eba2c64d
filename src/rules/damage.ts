/**
 * Wounds lost, models destroyed, mortal wounds, Feel No Pain, units destroyed and Attached units that
 * split when one of their parts is destroyed.
 */
import type { Game } from '../core/game.ts';
import type { GameState, ModelState, Position, UnitState } from '../core/state.ts';
import type { ModelProfile } from '../data/datasheet.ts';
import { allocatable, allocationTarget, isLeaderModel } from './allocation.ts';
import { abilityRules, abilityRulesWith, anyUnitHas, getRule } from '../core/rules-registry.ts';

/**
 * Listeners for "each time a model is destroyed" (Deadly Demise, a destroyed Transport's passengers).
 * They run just before the model is removed, while it still stands on the battlefield.
 */
export type ModelDestroyedListener = (g: Game, unit: UnitState, model: ModelState, by: string | null, opts: DestroyOptions) => void;

export interface DestroyOptions {
  /** false: removed models that count as destroyed but set off no rule (Unit Coherency at the end of a turn) */
  triggers?: boolean;
  /** the D6 roll (or more) its Deadly Demise needs, when the attack that destroyed it changes it (Lanced Obliteration: 4) */
  deadlyDemiseOn?: number;
  /** a melee attack destroyed it (Faolchú's Last Flight) */
  melee?: boolean;
  /**
   * where a model off the battlefield is destroyed, for the rules that set it back up near there (a passenger
   * with no room to disembark from its destroyed transport: where the transport stood)
   */
  at?: Position;
}
/**
 * The order the listeners run in, whatever order their modules load in: fighting on death first (the Rules
 * Commentary resolves it before any other rule the model's destruction triggers), then the model/destroyed
 * window (before Deadly Demise is rolled), then the others (Deadly Demise, a transport's passengers).
 */
export type ModelDestroyedStage = 'fight-on-death' | 'window' | 'other';
const STAGES: readonly ModelDestroyedStage[] = ['fight-on-death', 'window', 'other'];
const modelDestroyedListeners: { fn: ModelDestroyedListener; stage: number }[] = [];
export function onModelDestroyed(fn: ModelDestroyedListener, stage: ModelDestroyedStage = 'other'): void {
  const at = STAGES.indexOf(stage);
  // after the listeners of its stage and the earlier ones
  const i = modelDestroyedListeners.findIndex((l) => l.stage > at);
  modelDestroyedListeners.splice(i < 0 ? modelDestroyedListeners.length : i, 0, { fn, stage: at });
}

/**
 * Listeners for "just after a unit was destroyed" (the unit/destroyed window); `at`: where its last model was
 * when destroyed (null off the battlefield), for the rules that set something up there (Inevitable Death).
 */
export type UnitDestroyedListener = (g: Game, unit: UnitState, component: string, by: string | null, at: Position | null) => void;
const unitDestroyedListeners: UnitDestroyedListener[] = [];
export function onUnitDestroyed(fn: UnitDestroyedListener): void {
  unitDestroyedListeners.push(fn);
}

/** Effect kind: Feel No Pain against mortal wounds only (params.x), e.g. Layered Wards. */
export const FEEL_NO_PAIN_MORTAL = 'Feel No Pain against mortal wounds';

/**
 * The best Feel No Pain a model has: its datasheet's, one its unit's abilities give, one granted by the
 * attack's rules, or one an effect on its unit gives (against mortal wounds only, or through the effect's
 * own rule). Lower is better; only one applies.
 */
export function feelNoPainOf(state: GameState, unit: UnitState, m: ModelState, granted: number | null, mortal = false): number | null {
  let best = granted;
  for (const a of state.datasheets[m.datasheet].coreAbilities) {
    if (a.name === 'Feel No Pain' && a.x !== undefined && (best === null || a.x < best)) best = a.x;
  }
  // abilities of the unit that give a Feel No Pain (Advanced Armour: against mortal wounds)
  for (const name of unit.abilities) {
    const r = getRule(name);
    if (!r?.feelNoPain) continue;
    const x = r.feelNoPain({ state, unit, model: m, mortal }, { role: 'defender', player: unit.player, effect: null, unit });
    if (x !== null && (best === null || x < best)) best = x;
  }
  for (const e of state.effects) {
    if (e.unit !== unit.id) continue;
    let x: number | null = null;
    if (e.kind === FEEL_NO_PAIN_MORTAL) x = mortal ? Number(e.params.x) : null;
    // an effect that answers like an ability (a Leader ability lent by BATTLEFIELD COMMAND)
    else x = getRule(e.kind)?.feelNoPain?.({ state, unit, model: m, mortal }, { role: 'defender', player: e.player, effect: e, unit }) ?? null;
    if (x !== null && (best === null || x < best)) best = x;
  }
  return best;
}

/**
 * The model's invulnerable save against a ranged or (`melee`) a melee attack: its profile's, or a better one its
 * unit's abilities give it (wargear such as a Shield Generator); none when an ability took it away (a Shadow
 * Field that failed).
 */
export function invulnerableOf(state: GameState, unit: UnitState, m: ModelState, melee = false): number | null {
  let best = profileInvulnerable(state.datasheets[m.datasheet].models[m.profile], melee);
  // asked for every model at every saving throw: nothing more to read in the (usual) game without such abilities
  if (!anyUnitHas(state, 'invulnerableSave') && !anyUnitHas(state, 'invulnerableRestriction')) return best;
  for (const r of abilityRulesWith(unit, 'invulnerableRestriction')) {
    if (r.invulnerableRestriction!({ state, unit, model: m }, { role: 'defender', player: unit.player, effect: null, unit }) === 'lost') return null;
  }
  for (const r of abilityRulesWith(unit, 'invulnerableSave')) {
    const x = r.invulnerableSave!({ state, unit, model: m }, { role: 'defender', player: unit.player, effect: null, unit });
    if (x !== null && (best === null || x < best)) best = x;
  }
  return best;
}

/**
 * The profile's own invulnerable save against this kind of attack: one "against ranged attacks only" (Rangers)
 * is none in melee; one "improved to 4+ against melee attacks" (Howling Banshees) is that in melee.
 */
function profileInvulnerable(p: ModelProfile, melee: boolean): number | null {
  if (!melee) return p.invulnerable;
  const base = p.invulnerableRangedOnly ? null : p.invulnerable;
  return p.invulnerableMelee !== undefined && (base === null || p.invulnerableMelee < base) ? p.invulnerableMelee : base;
}

/** Its invulnerable saving throws cannot be re-rolled (Shadow Field). */
export function invulnerableRerollForbidden(state: GameState, unit: UnitState, m: ModelState): boolean {
  for (const r of abilityRules(unit)) {
    if (r.invulnerableRestriction?.({ state, unit, model: m }, { role: 'defender', player: unit.player, effect: null, unit }) === 'no-reroll') return true;
  }
  return false;
}

/** Listeners for "just after a mortal wound is allocated to a unit" (Layered Wards). */
export type MortalWoundListener = (g: Game, unit: UnitState) => void;
const mortalWoundListeners: MortalWoundListener[] = [];
export function onMortalWoundAllocated(fn: MortalWoundListener): void {
  mortalWoundListeners.push(fn);
}

/** Whether any rule listens for mortal wounds being allocated (then its window opens before the first is resolved). */
export function mortalWoundsWatched(): boolean {
  return mortalWoundListeners.length > 0;
}

/** "Just after a mortal wound is allocated" to the unit. */
export function mortalWoundAllocated(g: Game, unit: UnitState): void {
  for (const fn of mortalWoundListeners) fn(g, unit);
}

export function destroyModel(g: Game, unit: UnitState, m: ModelState, by: string | null, reason: string, opts: DestroyOptions = {}): void {
  if (!m.alive) return;
  const triggers = opts.triggers ?? true;
  if (triggers) for (const l of modelDestroyedListeners) l.fn(g, unit, m, by, opts);
  if (!m.alive) return;
  // where it stood, for the abilities told of its loss (Unquenchable Resolve sets it back up near there)
  const at = m.pos ?? opts.at ?? null;
  g.emit({ type: 'model-destroyed', unit: unit.id, model: m.id, by, reason });
  // The datasheet unit this model belonged to is destroyed when its last model is.
  const origin = m.origin;
  for (const c of unit.components) {
    if (c.unit !== origin || c.destroyed) continue;
    if (!unit.models.some((x) => x.alive && x.origin === origin)) {
      g.emit({ type: 'unit-destroyed', unit: unit.id, component: origin, by, player: unit.player });
      if (triggers) for (const fn of unitDestroyedListeners) fn(g, unit, origin, by, at);
    }
  }
  // abilities of the unit that act when one of its models is destroyed (Crewed Platform)
  if (triggers) for (const name of unit.abilities) getRule(name)?.modelDestroyed?.(g, g.state.units[unit.id], m, at);
}

/**
 * A model of the unit destroyed by a rule that lets its controlling player select it (a failed Desperate
 * Escape test, a 1 when disembarking from a destroyed transport): decision `select-casualty`, every model
 * still alive offered. The engine offers first the model that would take an attack: a Bodyguard model
 * before its Leader, a wounded one first, then the one whose loss leaves the unit closest to coherency.
 */
export function selectCasualty(g: Game, unit: UnitState, cause: string): ModelState | null {
  const alive = unit.models.filter((m) => m.alive);
  if (alive.length <= 1) return alive[0] ?? null;
  const first = allocationTarget(g.state, unit, false) ?? alive[alive.length - 1];
  const options = [first, ...alive.filter((m) => m !== first)].map((m) => ({ model: m.id }));
  const { option } = g.decide({
    kind: 'select-casualty', player: unit.player, prompt: `${unit.name}: ${cause}, which model is destroyed?`,
    options, context: { unit: unit.id, cause },
  });
  return alive.find((m) => m.id === option.model)!;
}

export interface MortalWoundOptions {
  /** Devastating Wounds and Hazardous: damage beyond the model's wounds is lost */
  excessLost?: boolean;
  /** all mortal wounds go to this model (Hazardous) */
  model?: ModelState;
  /** Feel No Pain granted by effects */
  feelNoPain?: number | null;
}

/**
 * Mortal wounds: one wound each, no saving throw. Allocated like attacks; the excess carries over to the
 * next model unless `excessLost`. Feel No Pain is rolled for each wound.
 */
export function inflictMortalWounds(g: Game, unit: UnitState, n: number, by: string | null, opts: MortalWoundOptions = {}): number {
  let lostTotal = 0;
  let remaining = n;
  let first = true;
  while (remaining > 0) {
    const m = opts.model ?? allocationTarget(g.state, unit, false);
    if (m === null || !allocatable(m)) break;
    if (first) {
      // rules used "just after a mortal wound is allocated" (LAYERED WARDS) come before the first is resolved:
      // a Feel No Pain they give applies to it
      first = false;
      mortalWoundAllocated(g, unit);
      if (!allocatable(m)) break;
    }
    const fnp = feelNoPainOf(g.state, unit, m, opts.feelNoPain ?? null, true);
    // with the excess lost, every remaining mortal wound is aimed at this one model
    const chunk = opts.excessLost ? remaining : Math.min(remaining, m.wounds);
    remaining -= chunk;
    let lost = chunk;
    if (fnp !== null) {
      const saves = g.dice.d6(chunk, 'feel-no-pain', unit.player, unit.id);
      for (const v of saves) if (v >= fnp) lost--;
    }
    if (lost > m.wounds) lost = m.wounds;
    if (lost > 0) {
      g.emit({ type: 'model-damaged', unit: unit.id, model: m.id, wounds: lost, by, mortal: true });
      lostTotal += lost;
      if (m.wounds <= 0) destroyModel(g, unit, m, by, 'mortal wounds');
    }
    if (opts.excessLost) break;
  }
  return lostTotal;
}

/** An Attached unit whose Bodyguard or Leader part is destroyed splits back into separate units. */
export function splitAttachedUnits(g: Game): void {
  const s = g.state;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    // runs as every window closes: nothing is copied for the (usual) Attached unit with no part destroyed
    if (u.components.length < 2 || u.location === 'destroyed' || !u.components.some((c) => c.destroyed)) continue;
    const bodyguardDestroyed = u.components.some((c) => !c.isLeader && c.destroyed);
    for (const c of u.components.slice()) {
      if (!c.isLeader) continue;
      if (!bodyguardDestroyed && !c.destroyed) continue;
      g.emit({ type: 'unit-detached', leader: c.unit, bodyguard: u.id });
      // the effects the Leader keeps with the flags it takes over (a HEROIC INTERVENTION's No Charge Bonus)
      if (bodyguardDestroyed && !c.destroyed) {
        for (const e of [...s.effects]) if (e.unit === u.id && getRule(e.kind)?.followsLeaderOnSplit) g.addEffect(e.kind, e.player, c.unit, e.expires, e.params);
      }
    }
  }
}

export { isLeaderModel };
