/**
 * A cheap copy of a game state for search and trials: the parts the reducers change (units, models,
 * players, effects, objectives) are copied; the parts they never change after the game starts
 * (datasheets, board, mission) are shared. Positions and PRNG states are replaced, never mutated, so
 * they are shared too.
 */
import type { GameState, ModelState, PlayerState, UnitState } from './state.ts';

function cloneModel(m: ModelState): ModelState {
  return { ...m, weapons: m.weapons };
}

export function cloneUnit(u: UnitState): UnitState {
  return {
    ...u,
    models: u.models.map(cloneModel),
    components: u.components.map((c) => ({ ...c })),
    keywords: u.keywords.slice(),
    abilities: u.abilities.slice(),
    flags: { ...u.flags },
    stats: { ...u.stats },
  };
}

function clonePlayer(p: PlayerState): PlayerState {
  return {
    ...p,
    vpByRound: p.vpByRound.slice(),
    stratagemsUsed: p.stratagemsUsed.slice(),
    rules: p.rules.slice(),
    ruleState: isEmpty(p.ruleState) ? {} : structuredClone(p.ruleState),
  };
}

export function cloneState(s: GameState): GameState {
  const units: Record<string, UnitState> = {};
  for (const id of s.unitOrder) units[id] = cloneUnit(s.units[id]);
  return {
    ...s,
    players: [clonePlayer(s.players[0]), clonePlayer(s.players[1])],
    units,
    unitOrder: s.unitOrder.slice(),
    effects: s.effects.map((e) => ({ ...e })),
    objectives: s.objectives.map((o) => ({ ...o })),
    result: s.result ? { ...s.result, vp: [s.result.vp[0], s.result.vp[1]] } : null,
  };
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}
