/**
 * Moves the Aeldari rules offer outside the Movement phase: Fire and Fade, Shade of Twilight, the Battle
 * Focus manoeuvres.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { GameState, UnitState } from '../../src/core/state.ts';
import { weaponHas } from '../../src/core/rules-registry.ts';
import { weaponUses } from '../../src/ai/evaluate.ts';
import { expectedAdvance, type Point } from '../../src/ai/tactics.ts';
import { hasKeyword, unitMove } from '../../src/rules/battle/units.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import type { Body } from '../../src/geometry/types.ts';
import { centroidOf } from '../../src/geometry/planner.ts';
import { normalMoveChoices } from '../../src/factions/helpers.ts';
import { manoeuvreRollBonus } from '../../src/factions/aeldari/battle-focus-bonuses.ts';
import { FADE_BACK, FLITTING_SHADOWS, OPPORTUNITY_SEIZED, STAR_ENGINES, SUDDEN_STRIKE, SWIFT_AS_THE_WIND, type BattleFocusOption } from '../../src/factions/aeldari/battle-focus-names.ts';
import { type Ctx, argmax } from './context.ts';
import { objectiveView } from './objectives.ts';
import { type UnitCtx, positionScore, unitCtx } from './unit-context.ts';
import { type MoveOption, moveScore } from './moves.ts';
import { D6_PLUS_1_REACH } from './stratagem-prices.ts';
import { shortMoveEndScore } from './stratagems.ts';

export function decideFireAndFade(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as MoveOption[];
  // the unit is the one the stratagem was just used on (the last stratagem use of this player)
  const used = s.players[c.me].stratagemsUsed;
  const id = used.length ? used[used.length - 1].unit : null;
  const u = id ? s.units[id] : null;
  if (!u) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  return argmax(options, (o) => moveScore(c, ov, uc, o));
}

/** Inches a Shade of Twilight move is expected to cover (a D6). */
export const SHADE_REACH = 3.5;

/** What a Shade of Twilight move must gain over staying (in points) to be made. */
const SHADE_MARGIN = 1;

/**
 * Shade of Twilight after the unit shot: where a Normal move of a D6" toward each destination leaves the
 * unit (no charge this turn then) against staying where it is (its charge kept); a move only for a clear gain.
 * Reactive moves in the opponent's turn (Trail Finding...) cost no charge: `noCharge` false.
 */
export function decideShadeOfTwilight(c: Ctx, req: DecisionRequest, reach = SHADE_REACH, noCharge = true): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  if (!u) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const short: UnitCtx = { ...uc, move: reach };
  const flags = { advanced: u.flags.advanced, fellBack: u.flags.fellBack };
  const stay = positionScore(c, ov, uc, uc.from, flags) + SHADE_MARGIN;
  return argmax(req.options as ({ none: true } | MoveOption)[], (o) => ('none' in o ? stay : shortMoveEndScore(c, ov, short, o, { ...flags, noCharge })));
}

/** Duty's Echo: the first unit offered whose 3" Normal move Shade of Twilight's weighing would make (none when no unit's would). */
export function decideDutysEcho(c: Ctx, req: DecisionRequest): number {
  const options = req.options as ({ none: true } | { unit: string })[];
  for (let i = 0; i < options.length; i++) {
    const o = options[i];
    if ('none' in o) continue;
    const u = c.state.units[o.unit];
    if (!u) continue;
    const ask: DecisionRequest = { ...req, kind: 'dutys-echo-move', options: normalMoveChoices(c.state, u), context: { unit: u.id } };
    if (decideShadeOfTwilight(c, ask, 3, false) !== 0) return i;
  }
  return 0;
}

/** A D6+1" manoeuvre's average reach, with what other rules add to its D6 (Martial Grace). */
export function battleFocusReach(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  return D6_PLUS_1_REACH + (u ? manoeuvreRollBonus(c.state, u, String(req.context?.manoeuvre ?? '')) : 0);
}

/**
 * Battle Focus: which Agile Manoeuvre, if any, to spend a token on. A free Fade Back (Fleet of Foot) or a
 * paid one, and Opportunity Seized, when Shade of Twilight's weighing finds a move better than staying; Star
 * Engines for an Advancing VEHICLE with ranged weapons that lack ASSAULT; Swift as the Wind when the unit's
 * destination lies beyond its move; Sudden Strike when a 6" Pile-in brings models into the fight that a 3"
 * one would not; Flitting Shadows as a unit declares a charge while the opponent could still Fire Overwatch.
 * In its own turn the first player keeps one token for the opponent's turn of the same battle round.
 */
export function decideBattleFocus(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const ctx = req.context as { kind: string; unit?: string; mode?: string; to?: Point; tokens: number };
  const options = req.options as BattleFocusOption[];
  const ownTurn = s.turn === c.me;
  const keep = ownTurn && s.firstPlayer === c.me && ctx.tokens <= 1;
  return argmax(options, (o) => {
    if ('none' in o) return 0;
    const u = s.units[o.unit];
    if (!u) return -1;
    if (o.manoeuvre === FADE_BACK || o.manoeuvre === OPPORTUNITY_SEIZED) {
      const moves = normalMoveChoices(s, u);
      if (moves.length === 0) return -1;
      const ask = { kind: 'battle-focus-move', player: c.me, prompt: '', options: moves, context: { unit: u.id, manoeuvre: o.manoeuvre } };
      const moved = decideShadeOfTwilight(c, ask, battleFocusReach(c, ask), false) !== 0;
      return moved ? (o.free ? 3 : 2) : -1;
    }
    if (keep) return -1;
    switch (o.manoeuvre) {
      case STAR_ENGINES:
        // a ranged weapon its models carry without ASSAULT as the rules in force give it (the Armoured Warhost's Skilled Crews)
        return hasKeyword(u, 'VEHICLE') && weaponUses(s, u, false).some((use) => !weaponHas(s, u, use.profile, 'ASSAULT')) ? 1.5 : -1;
      case SWIFT_AS_THE_WIND: {
        if (!ctx.to) return -1;
        // an Advance as this unit makes it (a fixed 6" of TIME TO STRIKE, re-rolls, modifiers), not a bare D6
        const reach = unitMove(s, u) + (ctx.mode === 'advance' ? expectedAdvance(s, u) : 0);
        const from = centroidOf(u.models.filter((m) => m.alive && m.pos).map((m) => m.pos!));
        return Math.hypot(ctx.to.x - from.x, ctx.to.y - from.y) - 2 > reach ? 1 : -1;
      }
      case SUDDEN_STRIKE: return suddenStrikeReaches(s, u) ? 1 : -1;
      case FLITTING_SHADOWS: {
        if (ctx.kind !== 'charge-declared' || s.players[c.opp].cp < 1) return -1;
        const used = s.players[c.opp].stratagemsUsed.some((x) => x.name === 'FIRE OVERWATCH' && x.round === s.round && x.turn === s.turn);
        return used ? -1 : 1;
      }
      default: return -1;
    }
  });
}

/** Does a model of the unit stand between 4" and 7" of the closest enemy model (in the fight with a 6" Pile-in, not a 3" one)? */
function suddenStrikeReaches(s: GameState, u: UnitState): boolean {
  const enemies: Body[] = [];
  for (const id of s.unitOrder) {
    const e = s.units[id];
    if (e.player === u.player || e.location !== 'battlefield') continue;
    for (const m of e.models) if (m.alive && m.pos) enemies.push(modelBody(s, m));
  }
  for (const m of u.models) {
    if (!m.alive || !m.pos) continue;
    const b = modelBody(s, m);
    let d = Infinity;
    for (const e of enemies) d = Math.min(d, horizontalDistance(b, e));
    if (d > 4 && d <= 7) return true;
  }
  return false;
}
