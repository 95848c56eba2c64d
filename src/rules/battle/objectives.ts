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

/** Who controls each marker right now (not yet recorded): the Levels of Control, then rules that keep a marker (Rule.objectiveControl). */
export function currentControl(state: GameState): (PlayerIndex | null)[] {
  return keptControl(state, controlByLevel(state));
}

/**
 * Who controls each marker once the rules that keep a marker under a player's control (the effects with
 * Rule.objectiveControl: Fieldcraft) have their say, from who would by the Levels of Control (`byLevel`,
 * markers in the state's order; a new array).
 */
export function keptControl(state: GameState, byLevel: readonly (PlayerIndex | null)[]): (PlayerIndex | null)[] {
  const out = byLevel.slice();
  for (const e of state.effects) {
    const keep = getRule(e.kind)?.objectiveControl;
    if (keep) state.objectives.forEach((o, i) => { out[i] = keep(state, o.id, out[i], e); });
  }
  return out;
}

export function updateObjectiveControl(g: Game): void {
  const now = currentControl(g.state);
  g.state.objectives.forEach((o, i) => {
    if (o.controller !== now[i]) g.emit({ type: 'objective-control', objective: o.id, controller: now[i] });
  });
}

export function objectivesControlledBy(state: GameState, player: PlayerIndex): number {
  return state.objectives.filter((o) => o.controller === player).length;
}
