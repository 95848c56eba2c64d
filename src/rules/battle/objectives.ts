/**
 * Objective control: Level of Control per player per marker (sum of the OC of models within range,
 * Battle-shocked models count 0), updated at the end of each phase and each turn; control changes are
 * events. A tie is contested: nobody controls the marker. Effects can keep a marker under a player's
 * control without models in range (Fieldcraft).
 */
import type { Game } from '../../core/game.ts';
import type { GameState, PlayerIndex } from '../../core/state.ts';
import { objectiveControl, type ControlModel } from '../../geometry/ranges.ts';
import { getRule } from '../../core/rules-registry.ts';
import { characteristic } from './units.ts';
import { modelBody } from './world.ts';

export function controlModels(state: GameState): ControlModel[] {
  const out: ControlModel[] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.location !== 'battlefield') continue;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      out.push({ player: String(u.player), oc: characteristic(state, u, m, 'OC'), body: modelBody(state, m) });
    }
  }
  return out;
}

/** Who has the greater Level of Control over each marker right now (no rule that keeps a marker counted). */
export function controlByLevel(state: GameState): (PlayerIndex | null)[] {
  const res = objectiveControl(state.objectives.map((o) => ({ id: o.id, pos: o.pos })), controlModels(state));
  return res.map((r) => (r.controller === null ? null : (Number(r.controller) as PlayerIndex)));
}

/**
 * The moment control is determined: the end of a phase (also every estimate made within one: control is next
 * determined at its end), or the end of a turn, which comes after the end of its last phase and where a marker
 * hold worded "greater than yours at the end of a phase" does not give way (registerMarkerHold).
 */
export type ControlMoment = 'phase-end' | 'turn-end';

/** Who controls each marker right now (not yet recorded): the Levels of Control, then rules that keep a marker (Rule.objectiveControl). */
export function currentControl(state: GameState, moment: ControlMoment = 'phase-end'): (PlayerIndex | null)[] {
  return keptControl(state, controlByLevel(state), moment);
}

/**
 * Who controls each marker once the rules that keep a marker under a player's control (the effects with
 * Rule.objectiveControl: Fieldcraft) have their say, from who would by the Levels of Control (`byLevel`,
 * markers in the state's order; a new array).
 */
export function keptControl(state: GameState, byLevel: readonly (PlayerIndex | null)[], moment: ControlMoment = 'phase-end'): (PlayerIndex | null)[] {
  const out = byLevel.slice();
  for (const e of state.effects) {
    const keep = getRule(e.kind)?.objectiveControl;
    if (keep) state.objectives.forEach((o, i) => { out[i] = keep(state, o.id, out[i], e, moment); });
  }
  return out;
}

/** Control determined (and recorded as events where it changed) at a phase's end, or at a turn's (`moment`). */
export function updateObjectiveControl(g: Game, moment: ControlMoment = 'phase-end'): void {
  const now = currentControl(g.state, moment);
  g.state.objectives.forEach((o, i) => {
    if (o.controller !== now[i]) g.emit({ type: 'objective-control', objective: o.id, controller: now[i] });
  });
}

export function objectivesControlledBy(state: GameState, player: PlayerIndex): number {
  return state.objectives.filter((o) => o.controller === player).length;
}
