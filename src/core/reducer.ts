/**
 * The reducer: `apply(draft, event)` does bookkeeping only (no rules, no dice). It is written as an
 * immer recipe and used two ways:
 *  - `applyImmutable(state, event)` wraps it in immer's `produce`: frozen snapshots with structural
 *    sharing, for replay and time travel;
 *  - `apply(state, event)` mutates a private state directly: the batch path, no proxies.
 * One reducer entry per event type, in a table (no switch spread through the core).
 */
import { produce } from 'immer';
import type { EventOf, EventType, GameEvent } from './events.ts';
import { emptyGameState, emptyTurnFlags, findModel, type GameState, type UnitState } from './state.ts';

type Reducer<T extends EventType> = (s: GameState, e: EventOf<T>) => void;
type ReducerTable = { [T in EventType]: Reducer<T> };

const reducers: ReducerTable = {
  'game-started': (s, e) => {
    s.seed = e.seed;
    s.rng = e.rng;
    s.stage = 'setup';
    for (let i = 0; i < 2; i++) {
      const p = s.players[i];
      const q = e.players[i];
      p.name = q.name; p.faction = q.faction; p.detachment = q.detachment; p.agent = q.agent; p.rules = q.rules.slice();
      if (q.withoutStratagems) p.withoutStratagems = q.withoutStratagems.slice();
    }
    s.board = e.board;
    s.openHatchways = (e.board.hatchways ?? []).filter((h) => h.startsOpen).map((h) => h.id);
    s.objectives = e.objectives.map((o) => ({ ...o, pos: { ...o.pos } }));
    s.mission = e.mission;
    s.datasheets = e.datasheets;
  },
  'unit-created': (s, e) => {
    // copied: the state must never alias an object owned by a logged event
    s.units[e.unit.id] = structuredClone(e.unit);
    s.unitOrder.push(e.unit.id);
  },
  dice: (s, e) => { s.rng = e.rng; },
  reroll: (s, e) => { s.rng = e.rng; },
  'dice-substituted': () => {},
  'round-started': (s, e) => {
    s.round = e.round;
    s.stage = 'battle';
    s.players[0].vpByRound.push(0);
    s.players[1].vpByRound.push(0);
  },
  'turn-started': (s, e) => {
    s.turn = e.player;
    for (const id of s.unitOrder) s.units[id].flags = emptyTurnFlags();
  },
  'phase-started': (s, e) => {
    s.phase = e.phase;
    // "already had attacks allocated this phase" and "fought this phase" are per phase
    for (const id of s.unitOrder) {
      const u = s.units[id];
      u.flags.fought = false;
      for (const m of u.models) if (m.allocated) m.allocated = false;
    }
  },
  'phase-ended': () => {},
  'first-turn': (s, e) => { s.firstPlayer = e.player; },
  cp: (s, e) => {
    const p = s.players[e.player];
    p.cp += e.delta;
    if (e.delta > 0) p.cpGained += e.delta;
    else p.cpSpent -= e.delta;
    if (e.extra) p.extraCpRound = s.round;
  },
  vp: (s, e) => {
    const p = s.players[e.player];
    p.vp += e.amount;
    const i = e.round - 1;
    if (i >= 0) {
      while (p.vpByRound.length <= i) p.vpByRound.push(0);
      p.vpByRound[i] += e.amount;
    }
  },
  'models-placed': (s, e) => {
    const u = s.units[e.unit];
    for (const { model, pos } of e.positions) findModel(u, model).pos = pos;
    s.geometryVersion++;
  },
  'unit-moved': (s, e) => {
    const f = s.units[e.unit].flags;
    f.moved = e.mode;
    if (e.mode === 'advance') { f.advanced = true; f.advanceRoll = e.advanceRoll ?? 0; }
    if (e.mode === 'fall-back') f.fellBack = true;
    if (e.mode === 'arrived') f.arrived = true;
  },
  'unit-flag': (s, e) => { s.units[e.unit].flags[e.flag] = e.value; },
  'unit-location': (s, e) => {
    const u = s.units[e.unit];
    s.geometryVersion++;
    u.location = e.location;
    u.embarkedIn = e.embarkedIn;
    if (e.location !== 'battlefield') for (const m of u.models) m.pos = null;
  },
  'unit-attached': (s, e) => {
    s.geometryVersion++;
    const leader = s.units[e.leader];
    const bodyguard = s.units[e.bodyguard];
    for (const m of leader.models) bodyguard.models.push(m);
    leader.models = [];
    leader.attachedTo = bodyguard.id;
    leader.location = 'attached';
    for (const c of leader.components) bodyguard.components.push({ ...c, isLeader: true });
    bodyguard.startingStrength += leader.startingStrength;
    recomputeTraits(bodyguard);
    if (leader.warlord) bodyguard.warlord = true;
  },
  'unit-detached': (s, e) => {
    s.geometryVersion++;
    const leader = s.units[e.leader];
    const bodyguard = s.units[e.bodyguard];
    leader.models = bodyguard.models.filter((m) => m.origin === leader.id);
    bodyguard.models = bodyguard.models.filter((m) => m.origin !== leader.id);
    leader.attachedTo = null;
    leader.detachedFrom = bodyguard.id;
    leader.location = leader.models.some((m) => m.alive) ? bodyguard.location === 'destroyed' ? 'battlefield' : bodyguard.location : 'destroyed';
    leader.components = bodyguard.components.filter((c) => c.unit === leader.id);
    bodyguard.components = bodyguard.components.filter((c) => c.unit !== leader.id);
    // each part takes back its original Starting Strength, keywords and abilities; a Bodyguard unit that
    // keeps a second Leader stays an Attached unit, with the two parts' combined Starting Strength
    leader.startingStrength = leader.components[0]?.startingStrength ?? leader.startingStrength;
    if (bodyguard.components.length) bodyguard.startingStrength = bodyguard.components.reduce((n, c) => n + c.startingStrength, 0);
    recomputeTraits(leader);
    recomputeTraits(bodyguard);
    leader.flags = { ...bodyguard.flags };
    leader.battleShocked = bodyguard.battleShocked;
    if (!bodyguard.models.some((m) => m.alive)) bodyguard.location = 'destroyed';
  },
  'unit-joined': (s, e) => {
    s.geometryVersion++;
    const joined = s.units[e.unit];
    const into = s.units[e.into];
    // the models count as the unit's own from now on: after its own models, before any Leader's
    let at = 0;
    while (at < into.models.length && into.models[at].origin === into.id) at++;
    const moved = joined.models.map((m) => ({ ...m, origin: into.id }));
    into.models.splice(at, 0, ...moved);
    joined.models = [];
    joined.attachedTo = into.id;
    joined.location = 'attached';
    const own = into.components.find((c) => c.unit === into.id)!;
    own.startingStrength += joined.startingStrength;
    for (const c of joined.components) {
      for (const k of c.keywords) if (!own.keywords.includes(k)) own.keywords.push(k);
      for (const a of c.abilities) if (!own.abilities.includes(a)) own.abilities.push(a);
    }
    into.startingStrength += joined.startingStrength;
    into.points += joined.points;
    joined.points = 0;
    recomputeTraits(into);
  },
  'attack-allocated': (s, e) => { findModel(s.units[e.unit], e.model).allocated = true; },
  'model-damaged': (s, e) => {
    const u = s.units[e.unit];
    const m = findModel(u, e.model);
    m.wounds -= e.wounds;
    u.stats.woundsTaken += e.wounds;
    // dealt to the enemy only: a unit's Deadly Demise or Hazardous wounds on its own army are no damage it dealt
    if (e.by !== null && s.units[e.by].player !== u.player) s.units[e.by].stats.woundsDealt += e.wounds;
  },
  'model-healed': (s, e) => { findModel(s.units[e.unit], e.model).wounds += e.wounds; },
  'model-returned': (s, e) => {
    s.geometryVersion++;
    const u = s.units[e.unit];
    const m = findModel(u, e.model);
    m.alive = true;
    m.wounds = e.wounds;
    m.allocated = false;
    for (const c of u.components) if (c.unit === m.origin) c.destroyed = false;
    if (u.location === 'destroyed') u.location = 'battlefield';
  },
  'model-destroyed': (s, e) => {
    s.geometryVersion++;
    const u = s.units[e.unit];
    const m = findModel(u, e.model);
    m.alive = false;
    m.wounds = 0;
    m.pos = null;
    if (e.by !== null && s.units[e.by].player !== u.player) s.units[e.by].stats.modelsKilled += 1;
  },
  'unit-destroyed': (s, e) => {
    s.geometryVersion++;
    const u = s.units[e.unit];
    for (const c of u.components) if (c.unit === e.component) c.destroyed = true;
    if (u.components.every((c) => c.destroyed)) {
      u.location = 'destroyed';
      u.embarkedIn = null;
    }
  },
  'battle-shock': (s, e) => { s.units[e.unit].battleShocked = e.value; },
  'effect-added': (s, e) => {
    s.effects.push({ ...e.effect, params: structuredClone(e.effect.params) });
    if (e.effect.id >= s.nextEffectId) s.nextEffectId = e.effect.id + 1;
  },
  'effect-removed': (s, e) => {
    const i = s.effects.findIndex((x) => x.id === e.id);
    if (i >= 0) s.effects.splice(i, 1);
  },
  'stratagem-used': (s, e) => {
    s.players[e.player].stratagemsUsed.push({ name: e.name, round: e.round, turn: e.turn, phase: e.phase, unit: e.unit, cp: e.cp });
  },
  'objective-control': (s, e) => {
    const o = s.objectives.find((x) => x.id === e.objective);
    if (o) o.controller = e.controller;
  },
  // the fallen are off the battlefield: their Pile-in changes nothing of the state (see the event)
  'fallen-piled-in': () => {},
  hatchway: (s, e) => {
    // a new array in the board's order (never mutated: caches of the geometry key on it)
    const open = s.openHatchways;
    if (open.includes(e.hatchway) === e.open) return;
    s.openHatchways = (s.board.hatchways ?? []).filter((h) => (h.id === e.hatchway ? e.open : open.includes(h.id))).map((h) => h.id);
    // sight lines and paths change with it
    s.geometryVersion++;
  },
  'rule-state': (s, e) => { s.players[e.player].ruleState[e.key] = structuredClone(e.value); },
  decision: () => {},
  note: () => {},
  'fork-point': () => {},
  'game-ended': (s, e) => {
    s.result = { ...e.result, vp: [e.result.vp[0], e.result.vp[1]] };
    s.stage = 'ended';
  },
};

/** An Attached unit has the keywords and abilities of all its parts. */
function recomputeTraits(u: UnitState): void {
  const kw: string[] = [];
  const ab: string[] = [];
  for (const c of u.components) {
    for (const k of c.keywords) if (!kw.includes(k)) kw.push(k);
    for (const a of c.abilities) if (!ab.includes(a)) ab.push(a);
  }
  u.keywords = kw;
  u.abilities = ab;
}

/** Apply one event to a mutable state (batch path) or an immer draft (inside produce). */
export function apply(state: GameState, event: GameEvent): void {
  (reducers[event.type] as Reducer<EventType>)(state, event as never);
  state.eventCount++;
  if (!CONTENT_UNCHANGED.has(event.type)) state.contentVersion++;
}

/** Events that change nothing an agent may read: the dice stream's position (agents have their own), records of decisions, notes and fork points. */
const CONTENT_UNCHANGED: ReadonlySet<EventType> = new Set<EventType>(['dice', 'reroll', 'dice-substituted', 'decision', 'note', 'fork-point', 'phase-ended']);

/** Apply one event through immer: returns a new frozen snapshot sharing unchanged parts. */
export const applyImmutable = produce((draft: GameState, event: GameEvent) => {
  apply(draft, event);
});

/** Fold a whole log: `state = events.reduce(apply, initial)`, on a private mutable state. */
export function foldEvents(events: readonly GameEvent[], initial: GameState = emptyGameState()): GameState {
  const s = initial;
  for (const e of events) apply(s, e);
  return s;
}
