/**
 * Transports: capacity and who may embark, embarking at the end of a move (every model within 3"),
 * disembarking (wholly within 3", not in Engagement Range; after the transport moved it counts as a
 * Normal move and the unit cannot charge; never after it Advanced or Fell Back), Deadly Demise, and
 * the passengers of a destroyed transport.
 */
import type { Game } from '../../core/game.ts';
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import { abilityRulesWith, allows, forbids, forEachActiveRule, registerRule } from '../../core/rules-registry.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { destroyModel, inflictMortalWounds, onModelDestroyed, selectCasualty, type DestroyOptions } from '../damage.ts';
import { awaitsItsFight } from './fight-on-death.ts';
import { applyPlan, planUnit } from './placement.ts';
import { modelBody } from './world.ts';
import { namedByTransport, transportRefusal, transportSpace, type TransportCapacity } from '../../data/transport-capacity.ts';

/** Effect kind on a unit that disembarked this turn: params.transport is the transport it left (Fire Support). */
export const DISEMBARKED_FROM = 'Disembarked from';

/** An Emergency Disembarkation sets the unit up wholly within this of its destroyed transport (3" when there is room). */
const EMERGENCY_DISEMBARK_RANGE = 6;

/** Effect kind on a unit that disembarked (or was set up around its destroyed transport) in this phase: it cannot embark in it. */
export const DISEMBARKED_THIS_PHASE = 'Disembarked this phase';
// "cannot embark if it has already disembarked in the same phase": every embarkation (the core Embark, Rapid
// Embarkation, SKYBORNE SANCTUARY, COMBAT EMBARKATION) asks fitsIn, which reads this
registerRule({ name: DISEMBARKED_THIS_PHASE, kind: 'effect', forbids: (perm) => perm === 'embark' });

export function transportOf(s: GameState, u: UnitState): UnitState | null {
  return u.embarkedIn ? s.units[u.embarkedIn] ?? null : null;
}

/** Units embarked within a transport. */
export function passengers(g: Game, t: UnitState): UnitState[] {
  const s = g.state;
  return s.unitOrder.map((id) => s.units[id]).filter((u) => u.location === 'embarked' && u.embarkedIn === t.id);
}

/**
 * The transport space the unit's alive models take (transportSpace), each read from its own datasheet (a
 * Spiritseer leading Wraithguard takes one), as the scenario loader counts a starting load.
 */
function spaceTaken(s: GameState, u: UnitState, cap: TransportCapacity): number {
  let n = 0;
  for (const m of u.models) {
    if (!m.alive) continue;
    const kw = s.datasheets[m.datasheet].keywords;
    n += transportSpace(cap, (k) => kw.includes(k));
  }
  return n;
}

/**
 * May the unit ride in a transport of this kind, by who it is? Every part of it standing is named by the
 * transport or passes on its own keywords (transportRefusal; a keyword gained at muster counts). A transport
 * names the models it carries, so an Attached unit's joined keywords do not count: a Bonesinger's INFANTRY
 * does not make the Wraithlord it leads an INFANTRY model, nor Yvraine's exception excuse her Ynnari Wyches.
 */
function mayRideIn(u: UnitState, cap: TransportCapacity): boolean {
  return u.components.every((c) => c.destroyed || namedByTransport(cap, c.name)
    || transportRefusal(cap, (k) => c.keywords.includes(k)) === null);
}

/** Can this unit embark within this transport (capacity, and who it may carry)? */
export function fitsIn(g: Game, u: UnitState, t: UnitState): boolean {
  const cap = g.state.datasheets[t.datasheet].transport;
  if (!cap || t.player !== u.player || t.id === u.id) return false;
  const used = passengers(g, t).reduce((n, p) => n + spaceTaken(g.state, p, cap), 0);
  if (used + spaceTaken(g.state, u, cap) > cap.capacity) return false;
  if (!mayRideIn(u, cap)) return false;
  return !forbids(g.state, u, 'embark');
}

/** Transports this unit can embark within now: every model within 3" of it, and it fits. */
export function embarkOptions(g: Game, u: UnitState): UnitState[] {
  const s = g.state;
  // a unit cannot disembark and embark in the same phase (in a later one it may: COMBAT EMBARKATION in the
  // Charge phase after its transport was destroyed in the Shooting phase)
  if (s.effects.some((e) => e.kind === DISEMBARKED_THIS_PHASE && e.unit === u.id)) return [];
  const out: UnitState[] = [];
  for (const id of s.unitOrder) {
    const t = s.units[id];
    if (t.location !== 'battlefield' || !s.datasheets[t.datasheet].transport || !fitsIn(g, u, t)) continue;
    const hull = t.models.find((m) => m.alive && m.pos);
    if (!hull) continue;
    const hb = modelBody(s, hull);
    if (u.models.every((m) => !m.alive || (m.pos !== null && horizontalDistance(modelBody(s, m), hb) <= 3 + 1e-6))) out.push(t);
  }
  return out;
}

export function embark(g: Game, u: UnitState, t: UnitState): void {
  g.emit({ type: 'unit-location', unit: u.id, location: 'embarked', embarkedIn: t.id });
}

/** An embarked unit may disembark unless its transport Advanced or Fell Back this turn (room aside: disembarkPlan). */
export function canDisembark(g: Game, u: UnitState): boolean {
  const t = transportOf(g.state, u);
  if (!t || t.location !== 'battlefield' || !t.models.some((m) => m.alive)) return false;
  if (t.flags.fellBack) return false;
  return !t.flags.advanced || allows(g.state, t, 'disembark-after-advance');
}

type DisembarkPlan = Extract<ReturnType<typeof planUnit>, { ok: true }>;

/**
 * Where the unit would be set up getting out of its transport now (wholly within 3" of it, not in
 * Engagement Range), or null when there is no room: the move is then not offered at all.
 */
export function disembarkPlan(s: GameState, u: UnitState): DisembarkPlan | null {
  const t = transportOf(s, u);
  const hull = t?.models.find((m) => m.alive && m.pos);
  if (!t || !hull) return null;
  const plan = planUnit(s, u, 'disembark', { transportId: hull.id, minEnemyDistance: disembarkDistance(s, t) ?? undefined });
  return plan.ok ? plan : null;
}

/** A move of a transport an agent is weighing: as the engine would plan it (executeMove), with a move distance it expects. */
export interface TransportMove {
  mode: 'normal' | 'advance';
  destination: { x: number; y: number };
  maxDistance: number;
}

/**
 * Would the unit have room to get out after its transport made `move` (an agent weighing where to drive a
 * loaded transport; null: it stays where it is)? The transport's move is planned as the engine plans it
 * (paths around terrain, stopping short of enemy units; where no move is legal it stays), then the
 * disembark on a copy of the state with the transport's models there (the copy shares everything else; the
 * geometry caches key on the objects, so nothing of it is kept for the real state).
 */
export function roomToDisembarkAfterMove(s: GameState, u: UnitState, move: TransportMove | null): boolean {
  const t = transportOf(s, u);
  if (!t) return false;
  if (!move) return disembarkPlan(s, u) !== null;
  const plan = planUnit(s, t, move.mode, { maxDistance: move.maxDistance, destination: move.destination });
  if (!plan.ok) return disembarkPlan(s, u) !== null;
  // the planner plans the living models, in order (as applyPlan places them)
  let i = 0;
  const models = t.models.map((m) => (m.alive ? { ...m, pos: { ...plan.positions[i++] } } : m));
  return disembarkPlan({ ...s, units: { ...s.units, [t.id]: { ...t, models } } }, u) !== null;
}

/** How far from enemy units a rule of the transport holds the units getting out of it (Cloudstrike), if any. */
function disembarkDistance(s: GameState, t: UnitState): number | null {
  let d: number | null = null;
  forEachActiveRule(s, t, 'self', (r, src) => {
    const x = r.disembarkDistance?.({ state: s, unit: t }, src);
    if (x !== undefined && x !== null) d = Math.max(d ?? 0, x);
  });
  return d;
}

/**
 * Disembarked from a TRANSPORT this turn: by choice (disembarked), or set up around its destroyed transport,
 * which sets only disembarkedAfterTransportMoved (COMBAT DEBARKATION, Boons of the Brood, INTERLOCKING MANOUEVRES).
 */
export function disembarkedThisTurn(u: UnitState): boolean {
  return u.flags.disembarked || u.flags.disembarkedAfterTransportMoved;
}

/** Not eligible to declare a charge this turn (units out of a Cloudstrike transport). */
export const NO_CHARGE_THIS_TURN = 'Not eligible to charge';
registerRule({ name: NO_CHARGE_THIS_TURN, kind: 'effect', forbids: (perm) => perm === 'charge' });

/** Has the transport moved this turn (a Normal move, Advance or Fall Back; not Remained Stationary)? Its passengers getting out then count as having made a Normal move. */
function transportMoved(t: UnitState): boolean {
  return t.flags.moved !== null && t.flags.moved !== 'stationary' && t.flags.moved !== 'disembarked';
}

/** Set the unit up wholly within 3" of its transport. Returns false when there is no room. */
export function disembark(g: Game, u: UnitState): boolean {
  const t = transportOf(g.state, u);
  const plan = disembarkPlan(g.state, u);
  if (!t || !plan) return false;
  g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
  applyPlan(g, u, plan, 'disembark');
  g.emit({ type: 'unit-flag', unit: u.id, flag: 'disembarked', value: true });
  g.addEffect(DISEMBARKED_FROM, u.player, u.id, g.untilEndOfTurn(), { transport: t.id });
  g.addEffect(DISEMBARKED_THIS_PHASE, u.player, u.id, g.untilEndOfPhase());
  if (disembarkDistance(g.state, t) !== null) g.addEffect(NO_CHARGE_THIS_TURN, u.player, u.id, g.untilEndOfTurn());
  if (transportMoved(t)) {
    // after its transport moved: counts as a Normal move, and the unit cannot charge this turn
    g.emit({ type: 'unit-moved', unit: u.id, mode: 'disembarked' });
    g.emit({ type: 'unit-flag', unit: u.id, flag: 'disembarkedAfterTransportMoved', value: true });
  }
  // the transport's abilities that act on a unit getting out (Into the Foe)
  const before = !transportMoved(t);
  for (const r of abilityRulesWith(t, 'passengerDisembarked')) r.passengerDisembarked!(g, g.state.units[t.id], g.state.units[u.id], before);
  return true;
}

onModelDestroyed((g, unit, model, _by, opts) => {
  // a model that fights on death first: once it has fought (./fight-on-death.ts, ./fight.ts)
  if (awaitsItsFight(g.state, unit, model)) return;
  resolveDestroyedModel(g, unit, model, opts);
});

/**
 * Deadly Demise X: when the model is destroyed, roll a D6 before removing it; on a 6 (on a 4+ when a
 * Lanced Obliteration attack destroyed it: AttackPlan.deadlyDemiseOn) every unit within 6" suffers X mortal wounds (a random X rolled for each unit). Then a destroyed transport's passengers
 * disembark (wholly within 3"); each of their models rolls a D6 and every 1 destroys one of them.
 * `model` is the model being destroyed, or the stand-in of one that fought on death first, where it stands.
 */
export function resolveDestroyedModel(g: Game, unit: UnitState, model: ModelState, opts: DestroyOptions): void {
  const s = g.state;
  const ds = s.datasheets[model.datasheet];
  const dd = ds.coreAbilities.find((a) => a.name === 'Deadly Demise');
  if (dd && model.pos) {
    const fixed = deadlyDemiseRoll(s, unit, model);
    const roll = fixed ?? g.dice.d6(1, 'deadly-demise', unit.player, unit.id, ds.name)[0];
    if (roll >= (opts.deadlyDemiseOn ?? 6)) {
      // a random number of mortal wounds is rolled for each unit within 6" separately
      forEachUnitNearModel(g, model, 6, (other) => {
        let amount = dd.x ?? 0;
        if (dd.dice) {
          const d = dd.dice;
          amount = d.plus + g.dice.roll(d.n, d.sides, 'mortal-wounds', unit.player, unit.id, `Deadly Demise -> ${other.name}`).reduce((a, b) => a + b, 0);
        }
        if (amount > 0) inflictMortalWounds(g, other, amount, unit.id);
      });
    }
  }
  if (!ds.transport) return;
  const othersAlive = g.state.units[unit.id].models.some((m) => m.alive && m.id !== model.id);
  if (othersAlive) return;
  for (const p of passengers(g, unit)) emergencyDisembark(g, p, model);
}

/**
 * Each unit on the battlefield with a model within `inches` of this (destroyed) model, in turn: its own unit
 * too, when others of it are near; not models being destroyed, at 0 wounds, like a vehicle whose explosion
 * set this one off (Deadly Demise, FAIL-SAFE DETONATOR). The units are those near it as it is destroyed (not a
 * transport's passengers set up around it after a chained explosion); each is checked again when its turn
 * comes, so one emptied by an explosion set off before it is passed over.
 */
export function forEachUnitNearModel(g: Game, model: ModelState, inches: number, fn: (other: UnitState) => void): void {
  if (!model.pos) return;
  const body = modelBody(g.state, model);
  const near = g.state.unitOrder.filter((id) => unitNearModel(g.state, g.state.units[id], model, inches, body));
  for (const id of near) {
    const other = g.state.units[id];
    if (unitNearModel(g.state, other, model, inches, body)) fn(other);
  }
}

/**
 * Is the unit on the battlefield with a model, not itself being destroyed, within `inches` of this model?
 * `body`: the model's, when the caller asks for many units.
 */
export function unitNearModel(s: GameState, other: UnitState, model: ModelState, inches: number, body = model.pos ? modelBody(s, model) : null): boolean {
  if (other.location !== 'battlefield' || !body) return false;
  return other.models.some((m) => m.alive && m.wounds > 0 && m.id !== model.id && m.pos && horizontalDistance(modelBody(s, m), body) <= inches + 1e-6);
}

/** The result a rule makes the model's Deadly Demise roll count as (Rule.deadlyDemiseRoll), or null to roll it. */
function deadlyDemiseRoll(s: GameState, unit: UnitState, model: ModelState): number | null {
  let fixed: number | null = null;
  forEachActiveRule(s, unit, 'self', (r, src) => { fixed ??= r.deadlyDemiseRoll?.({ state: s, unit, model }, src) ?? null; });
  return fixed;
}

/**
 * The passengers of a destroyed transport get out (`hull`: the transport's model being destroyed; a stand-in, not
 * in the state, when it fought on death first): set up wholly within 3" of it, or, with no room there, an
 * Emergency Disembarkation wholly within 6"; then a D6 for each model set up, and the unit suffers a mortal
 * wound for each 1 (each 1-3 after an Emergency Disembarkation); the survivors are Battle-shocked. A model that still cannot be set up is destroyed
 * (core rules): with no room within 6" for the whole unit, its player selects models to destroy one at a time
 * until the rest fit (the planner places a whole unit or none), and with no room for one the unit is destroyed.
 */
function emergencyDisembark(g: Game, u: UnitState, hull: ModelState): void {
  const s = g.state;
  const t = transportOf(s, u)!;
  // a stand-in is put on the table for the planner: the passengers get out around it
  const standIn = t.models.some((m) => m.id === hull.id && m.alive) || !hull.pos ? [] : [{ id: hull.id, unitId: t.id, player: String(t.player), body: modelBody(s, hull) }];
  // a rule of the transport that holds the units getting out of it away from the enemy holds these too (CLOUDSTRIKE:
  // "each unit that disembarks from it this turn")
  const minEnemyDistance = disembarkDistance(s, t) ?? undefined;
  let plan = hull.pos ? planUnit(s, u, 'disembark', { transportId: hull.id, minEnemyDistance }, standIn) : null;
  let emergency = false;
  if (hull.pos && (!plan || !plan.ok)) {
    const emergencyPlan = () => planUnit(g.state, g.state.units[u.id], 'disembark', { transportId: hull.id, transportRange: EMERGENCY_DISEMBARK_RANGE, minEnemyDistance }, standIn);
    plan = emergencyPlan();
    emergency = true;
    while (!plan.ok && g.state.units[u.id].models.filter((m) => m.alive).length > 1) {
      const fresh = g.state.units[u.id];
      const m = selectCasualty(g, fresh, 'no room to set it up (Emergency Disembarkation)');
      if (!m) break;
      destroyModel(g, fresh, m, null, 'could not disembark from a destroyed transport', { at: hull.pos });
      plan = emergencyPlan();
    }
  }
  if (!plan || !plan.ok) {
    // no room to set it up: the unit is destroyed, where its transport stood (Unquenchable Resolve returns there)
    const at = hull.pos ? { at: hull.pos } : {};
    for (const m of u.models) if (m.alive) destroyModel(g, u, m, null, 'could not disembark from a destroyed transport', at);
    return;
  }
  g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
  applyPlan(g, u, plan, emergency ? 'emergency-disembarkation' : 'emergency-disembark');
  g.addEffect(DISEMBARKED_THIS_PHASE, u.player, u.id, g.untilEndOfPhase());
  const rolls = g.dice.d6(u.models.filter((m) => m.alive).length, 'other', u.player, u.id, emergency ? 'Emergency Disembarkation' : 'destroyed transport');
  const wounds = rolls.filter((v) => v <= (emergency ? 3 : 1)).length;
  if (wounds > 0) inflictMortalWounds(g, u, wounds, null);
  // they disembarked after their transport "moved": they cannot charge this turn (if any survived the 1s)
  if (!g.state.units[u.id].models.some((m) => m.alive)) return;
  g.emit({ type: 'unit-flag', unit: u.id, flag: 'disembarkedAfterTransportMoved', value: true });
  // the survivors are Battle-shocked until the start of their player's next Command phase (10th edition core
  // rules, Destroyed Transport; RULES.md and the seeds are silent), where Battle-shock ends as for a failed test
  if (!g.state.units[u.id].battleShocked) g.emit({ type: 'battle-shock', unit: u.id, value: true });
  // in their own turn, a unit that disembarks cannot Remain Stationary, and after its transport's move it counts
  // as having made a Normal move (it cannot move further this phase): Overwatch destroying a transport at the
  // end of its move leaves passengers that do not move again. Only in the Movement phase, before the transport
  // moved, may they still move (a disembark before the transport moves).
  if (g.state.turn === u.player && (transportMoved(t) || g.state.phase !== 'movement')) g.emit({ type: 'unit-moved', unit: u.id, mode: 'disembarked' });
}
