/**
 * Khaine's Arrow, an Aeldari Boarding Actions detachment (from the data export), in the engine's words: its
 * rule Unerring Strike, its four stratagems and its two Enhancements. Allowed only in
 * Boarding Actions games.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type UnitState } from '../../core/state.ts';
import type { PlannedMove } from '../../geometry/planner.ts';
import { isWithinOfPolygon } from '../../geometry/distance.ts';
import { applyPlan, planUnit } from '../../rules/battle/placement.ts';
import { HATCHWAY_REACH, OPERATES_NO_HATCHWAY, hatchwayApproach, hatchways, isHatchwayOpen, mayCloseHatchway, mayOperateHatchways, openHatchwayBy, setHatchway, unitNearHatchway } from '../../rules/battle/hatchways.ts';
import { pointInPolygon, segmentsIntersect } from '../../geometry/polygon.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { untilYourNextCommandPhase } from '../../rules/stratagems/boarding-actions.ts';
import { hasKeyword, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { modelBody, unitCentre } from '../../rules/battle/world.ts';
import { modelSeesUnit, bearerModel, modelWithinRangeOf, registerMarkerHold, unheldMarkers, withinRangeOfMarker } from '../helpers.ts';
import { registerVoidGhosts } from './boarding-shared.ts';

export const KHAINES_ARROW = "Khaine's Arrow";
const UNERRING_STRIKE = 'Unerring Strike';
export const KHAINES_ARROW_RULES = [UNERRING_STRIKE];

/** A closed hatchway a unit may open in the middle of its Normal move, and its move up to it. */
export interface UnerringHatchway { hatchway: string; plan: PlannedMove }
/** An option of the `unerring-strike` decision: the hatchway, and the way there (inches, its longest model path). */
export interface UnerringOption { hatchway: string; way: number }

/**
 * The closed hatchways the unit could open with Unerring Strike on a Normal move of `distance`: none within 1" of
 * an enemy unit, and one it reaches within 1" of with a move 2" shorter (toward its face, hatchwayApproach).
 * A hatchway it is within 1" of already is left out: it may open that one before it moves, as every unit may.
 */
export function unerringHatchways(state: GameState, unit: UnitState, distance: number): UnerringHatchway[] {
  const reach = distance - 2;
  const out: UnerringHatchway[] = [];
  if (reach <= 0) return out;
  const from = unitCentre(unit);
  for (const h of hatchways(state)) {
    if (isHatchwayOpen(state, h.id) || unitNearHatchway(state, unit, h)) continue;
    if (unitsOnBattlefield(state, opponent(unit.player)).some((e) => unitNearHatchway(state, e, h))) continue;
    // too far to come within 1" of it even in a straight line
    if (!unit.models.some((m) => m.alive && m.pos && isWithinOfPolygon(modelBody(state, m), h.polygon, reach + 1))) continue;
    const plan = planUnit(state, unit, 'normal', { maxDistance: reach, destination: hatchwayApproach(h, from) });
    if (!plan.ok) continue;
    const alive = unit.models.filter((m) => m.alive);
    const near = alive.some((m, i) => isWithinOfPolygon(modelBody(state, { ...m, pos: plan.positions[i] }), h.polygon, HATCHWAY_REACH));
    if (near) out.push({ hatchway: h.id, plan });
  }
  return out;
}

/**
 * May a Normal move of the unit open a hatchway on its way now (Unerring Strike): its player has the rule, it is
 * AELDARI, it is its player's Movement phase, there are hatchways and the unit may still operate them this turn.
 * The engine asks it as the move starts; the agents as they weigh where to move.
 */
export function mayUnerringStrike(s: GameState, unit: UnitState): boolean {
  return s.phase === 'movement' && s.turn === unit.player && hasKeyword(unit, 'AELDARI') && s.players[unit.player].rules.includes(UNERRING_STRIKE)
    && hatchways(s).length > 0 && mayOperateHatchways(s, unit);
}

/**
 * Unerring Strike: in the player's Movement phase, an AELDARI unit making a Normal move may open a closed hatchway
 * on its way (decision `unerring-strike`, the hatchways unerringHatchways finds). The unit moves up to it (within
 * 1" of it, its move 2" shorter), opens it, and makes the rest of its move from there; it operates no hatchway
 * again this turn (OPERATES_NO_HATCHWAY: no hatchway step after the move; Shieldmaster may still close one). The distance the rest
 * may take: the move less 2" and less the longest path a model took to the hatchway (each model moves at most
 * the move less 2" in all). The rule's "this phase" is read as this move: no other move of the phase is shortened.
 */
registerRule({
  name: UNERRING_STRIKE, kind: 'detachment-rule',
  moveUnderway(g, unit, mode, to, distance) {
    const s = g.state;
    if (mode !== 'normal' || !mayUnerringStrike(s, unit)) return 0;
    const choices = unerringHatchways(s, unit, distance);
    if (choices.length === 0) return 0;
    // `way`: the longest path a model takes to the hatchway, for agents weighing what is left of the move
    const options: ({ keep: true } | UnerringOption)[] = [{ keep: true }, ...choices.map((c) => ({ hatchway: c.hatchway, way: Math.round(Math.max(0, ...c.plan.pathLengths) * 100) / 100 }))];
    const { option } = g.decide({
      kind: 'unerring-strike', player: unit.player, prompt: `${unit.name}: Unerring Strike: open a hatchway on the way (the move 2" shorter)?`, options, context: { unit: unit.id, to },
    });
    if ('keep' in option) return 0;
    const chosen = choices.find((c) => c.hatchway === option.hatchway)!;
    applyPlan(g, unit, chosen.plan, 'normal');
    openHatchwayBy(g, g.state.units[unit.id], chosen.hatchway);
    g.addEffect(OPERATES_NO_HATCHWAY, unit.player, unit.id, g.untilEndOfTurn());
    return 2 + Math.max(0, ...chosen.plan.pathLengths);
  },
});

// --- Stratagems ------------------------------------------------------------------------------

registerVoidGhosts(KHAINES_ARROW);

/** FOCUSED FUSILLADE's units. */
const FUSILLADE_UNITS = ['DIRE AVENGERS', 'FIRE DRAGONS', 'SWOOPING HAWKS', 'WARP SPIDERS'];

/** FOCUSED FUSILLADE's effect: +1 to the Wound roll of the unit's attacks this phase. */
registerRule({
  name: 'Focused Fusillade', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.woundModifier += 1; },
});

registerStratagem({
  name: 'FOCUSED FUSILLADE', cp: 1, category: 'Battle Tactic', source: KHAINES_ARROW, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && FUSILLADE_UNITS.some((k) => hasKeyword(u, k)) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Focused Fusillade', p, u.id, g.untilEndOfPhase()); },
});

/** BLADEFOCUS' effect: the unit's attacks re-roll the Hit roll this phase, if it made a Charge move this turn. */
registerRule({
  name: 'Bladefocus', kind: 'effect',
  attack(plan, ctx, src) { if (src.role === 'attacker' && ctx.attacker.flags.charged) plan.rerollHits = widerReroll(plan.rerollHits, 'failed'); },
});

registerStratagem({
  name: 'BLADEFOCUS', cp: 1, category: 'Battle Tactic', source: KHAINES_ARROW, turn: 'either', windows: ['fight/unit-selected'],
  // offered as a HOWLING BANSHEES or STRIKING SCORPIONS unit is selected to fight, when it charged this turn
  // (the re-roll needs it)
  targets: (g, w, p) => {
    const u = windowOwnUnit(g, w, p);
    return u && (hasKeyword(u, 'HOWLING BANSHEES') || hasKeyword(u, 'STRIKING SCORPIONS')) && u.flags.charged ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Bladefocus', p, u.id, g.untilEndOfPhase()); },
});

/** CRITICAL CAPTURE's effect until the player's next Command phase: +1 OC for the unit's models. */
registerRule({
  name: 'Critical Capture', kind: 'effect',
  characteristic: (which, v) => (which === 'OC' ? v + 1 : v),
});

/** The hold CRITICAL CAPTURE leaves on a marker (params.objective): Secured by the army. */
export const CRITICAL_CAPTURE_HOLD = 'Critical Capture (Secured)';
registerMarkerHold(CRITICAL_CAPTURE_HOLD);

/**
 * CRITICAL CAPTURE's second part, on the unit until the end of the turn: at the end of the player's turn a
 * marker they control that the unit is within range of is Secured by the army (the first of them in the
 * mission's order when there are several; the engine does not ask).
 */
registerRule({
  name: 'Critical Capture (end of turn)', kind: 'effect',
  effectTurnEnd(g, effect, player) {
    if (player !== effect.player || effect.unit === null) return;
    const s = g.state;
    const u = s.units[effect.unit];
    if (!u || u.location !== 'battlefield') return;
    const o = unheldMarkers(s, player, CRITICAL_CAPTURE_HOLD).find((x) => withinRangeOfMarker(s, u, x));
    if (o) g.addEffect(CRITICAL_CAPTURE_HOLD, player, null, { at: 'end-of-battle' }, { objective: o.id });
  },
});

registerStratagem({
  name: 'CRITICAL CAPTURE', cp: 1, category: 'Strategic Ploy', source: KHAINES_ARROW, turn: 'own', windows: ['command/after-battle-shock-step'],
  // offered in the player's Command phase once the CP it gains are in hand (after the Battle-shock step, before
  // the mission scores), for an AELDARI unit that is not a CHARACTER
  targets: (g, _w, p) => (g.state.phase !== 'command' ? [] : unitsOnBattlefield(g.state, p).filter((u) => hasKeyword(u, 'AELDARI') && !hasKeyword(u, 'CHARACTER'))),
  use(g, _w, p, u) {
    g.addEffect('Critical Capture', p, u.id, untilYourNextCommandPhase(g, p));
    g.addEffect('Critical Capture (end of turn)', p, u.id, g.untilEndOfTurn());
  },
});

// --- Enhancements ----------------------------------------------------------------------------

const RUNES_OF_SANCTUARY = 'Runes of Sanctuary (Psychic)';
/** Runes of Sanctuary used this turn (once per turn): on the bearer's unit. */
const RUNES_USED = 'Runes of Sanctuary (used)';
/** Runes of Sanctuary's effect on the friendly unit this phase: -1 to the AP of attacks that target it. */
const RUNES_WARD = 'Runes of Sanctuary (warded)';

registerRule({ name: RUNES_USED, kind: 'effect' });
registerRule({
  name: RUNES_WARD, kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.ap = Math.min(0, plan.ap + 1); },
});

/**
 * Runes of Sanctuary (Psychic): once per turn, in the opponent's Shooting phase, when a friendly AELDARI unit
 * within 9" of the PSYKER bearer and visible to it is selected as the target of ranged attacks, the player may
 * use it (decision `runes-of-sanctuary`): until the end of the phase, attacks that target that unit have their
 * AP worsened by 1.
 */
registerRule({
  name: RUNES_OF_SANCTUARY, kind: 'enhancement',
  enemyTargeted(g, unit, attacker, targets, melee) {
    const s = g.state;
    if (melee || s.phase !== 'shooting' || s.turn === unit.player) return;
    if (s.effects.some((e) => e.kind === RUNES_USED && e.unit === unit.id)) return;
    const bearer = bearerModel(unit, RUNES_OF_SANCTUARY);
    if (!bearer || !bearer.pos || !s.datasheets[bearer.datasheet].keywords.includes('PSYKER')) return;
    const body = modelBody(s, bearer);
    for (const id of targets) {
      const t = s.units[id];
      if (!t || t.player !== unit.player || !hasKeyword(t, 'AELDARI') || !modelWithinRangeOf(s, bearer, t, 9)) continue;
      if (!modelSeesUnit(s, bearer, t, body)) continue;
      const { option } = g.decide({ kind: 'runes-of-sanctuary', player: unit.player, prompt: `${unit.name}: Runes of Sanctuary (once per turn: -1 AP against ${t.name} this phase) against ${attacker.name}?`, options: ['keep', 'use'], context: { unit: t.id, attacker: attacker.id } });
      if (option !== 'use') continue;
      g.addEffect(RUNES_USED, unit.player, unit.id, g.untilEndOfTurn());
      g.addEffect(RUNES_WARD, unit.player, t.id, g.untilEndOfPhase());
      return;
    }
  },
});

const SHIELDMASTER = 'Shieldmaster';
/** Where the models of the bearer's unit stood as its move began (params.from: model id -> [x, y]), this phase. */
const SHIELDMASTER_MOVING = 'Shieldmaster (moving)';
/** Shieldmaster used this turn (once per turn): on the bearer's unit. */
const SHIELDMASTER_USED = 'Shieldmaster (used)';
registerRule({ name: SHIELDMASTER_MOVING, kind: 'effect' });
registerRule({ name: SHIELDMASTER_USED, kind: 'effect' });

/**
 * The open hatchways the unit moved through between `from` (where its models stood) and now, that may be
 * closed (no model on them, not held open): a model went through one when the straight line from where it
 * stood to where it stands crosses the hatchway's footprint (a path bent round a wall is not followed).
 */
export function hatchwaysMovedThrough(state: GameState, unit: UnitState, from: Record<string, [number, number]>): string[] {
  return hatchways(state).filter((h) => {
    if (!mayCloseHatchway(state, h)) return false;
    return unit.models.some((m) => {
      const a = from[m.id];
      if (!m.alive || !m.pos || !a) return false;
      const p = { x: a[0], y: a[1] };
      if (pointInPolygon(p, h.polygon) || pointInPolygon(m.pos, h.polygon)) return true;
      return h.polygon.some((q, i) => segmentsIntersect(p, m.pos!, q, h.polygon[(i + 1) % h.polygon.length]));
    });
  }).map((h) => h.id);
}

/**
 * Shieldmaster: once per turn, in the player's Movement phase, after the bearer's unit has moved, the player may
 * close one open hatchway it moved through this phase (decision `shieldmaster`; besides the hatchways the unit
 * may operate within 1" after its move). Read from where its models stood as the move began
 * (hatchwaysMovedThrough).
 */
registerRule({
  name: SHIELDMASTER, kind: 'enhancement',
  beforeMove(g, unit) {
    if (g.state.phase !== 'movement' || g.state.turn !== unit.player || !bearerModel(unit, SHIELDMASTER)) return;
    for (const e of g.state.effects.filter((x) => x.kind === SHIELDMASTER_MOVING && x.unit === unit.id)) g.removeEffect(e.id);
    const from: Record<string, [number, number]> = {};
    for (const m of unit.models) if (m.alive && m.pos) from[m.id] = [m.pos.x, m.pos.y];
    g.addEffect(SHIELDMASTER_MOVING, unit.player, unit.id, g.untilEndOfPhase(), { from });
  },
  afterMove(g, unit) {
    const s = g.state;
    const moving = s.effects.find((e) => e.kind === SHIELDMASTER_MOVING && e.unit === unit.id);
    if (!moving) return;
    g.removeEffect(moving.id);
    // once per turn; also after the unit opened a hatchway with Unerring Strike (the Enhancement says "in addition")
    if (s.effects.some((e) => e.kind === SHIELDMASTER_USED && e.unit === unit.id)) return;
    const through = hatchwaysMovedThrough(g.state, g.state.units[unit.id], moving.params.from as Record<string, [number, number]>);
    if (through.length === 0) return;
    const options: ({ keep: true } | string)[] = [{ keep: true }, ...through];
    const { option } = g.decide({ kind: 'shieldmaster', player: unit.player, prompt: `${unit.name}: Shieldmaster: close a hatchway it moved through?`, options, context: { unit: unit.id } });
    if (typeof option !== 'string') return;
    g.addEffect(SHIELDMASTER_USED, unit.player, unit.id, g.untilEndOfTurn());
    setHatchway(g, option, false, unit.id);
  },
});
