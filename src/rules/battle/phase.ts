/**
 * Start and end of a phase: the events, the windows at the start and end of the phase, the effects
 * that expire, and objective control checked at the end of every phase.
 */
import type { Game } from '../../core/game.ts';
import { expireEffects } from '../../core/effects.ts';
import type { PhaseName, PlayerIndex, UnitState } from '../../core/state.ts';
import { openWindow } from '../windows.ts';
import { getRule } from '../../core/rules-registry.ts';
import { updateObjectiveControl } from './objectives.ts';

/**
 * Moments of the battle that army and detachment rules act on, by rule name: the start and end of a
 * phase, a unit selected to shoot or to fight, the start of the battle. A player's `rules` list says
 * which are active for them.
 */
export interface ArmyRuleHooks {
  name: string;
  /** once, after deployment and before the first battle round (Strands of Fate's pool) */
  battleStart?(g: Game, owner: PlayerIndex): void;
  start?(g: Game, phase: PhaseName, player: PlayerIndex, owner: PlayerIndex): void;
  end?(g: Game, phase: PhaseName, player: PlayerIndex, owner: PlayerIndex): void;
  /** a unit of the owner has been selected to shoot, before it selects targets (For the Greater Good) */
  unitSelectedToShoot?(g: Game, unit: UnitState, owner: PlayerIndex): void;
  /** a unit of the owner has been selected to fight */
  unitSelectedToFight?(g: Game, unit: UnitState, owner: PlayerIndex): void;
  /**
   * In the owner's opponent's Shooting phase, an enemy unit (`shooter`) has just shot, its attacks resolved
   * and the windows after them closed; `hitTargets`: the owner's units its attacks hit (Battle Focus: Fade Back).
   */
  enemyUnitShot?(g: Game, shooter: UnitState, hitTargets: readonly string[], owner: PlayerIndex): void;
}

const armyRuleHooks = new Map<string, ArmyRuleHooks>();

export function registerArmyRuleHooks(h: ArmyRuleHooks): void {
  if (armyRuleHooks.has(h.name)) throw new Error(`army rule hooks "${h.name}" registered twice`);
  armyRuleHooks.set(h.name, h);
}

/** The hooks of every rule a player plays. */
export function hooksOf(g: Game, owner: PlayerIndex): ArmyRuleHooks[] {
  const out: ArmyRuleHooks[] = [];
  for (const name of g.state.players[owner].rules) {
    const h = armyRuleHooks.get(name);
    if (h) out.push(h);
  }
  return out;
}

function runHooks(g: Game, phase: PhaseName, player: PlayerIndex, which: 'start' | 'end'): void {
  for (const owner of [0, 1] as PlayerIndex[]) for (const h of hooksOf(g, owner)) h[which]?.(g, phase, player, owner);
}

/**
 * Each unit's abilities' hook for the phase's start or end: units on the battlefield, and embarked units for
 * the rules that act from inside a Transport too (Rule.phaseHooksWhileEmbarked).
 */
function unitPhaseHooks(g: Game, phase: PhaseName, which: 'phaseStart' | 'phaseEnd'): void {
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    const embarked = u.location === 'embarked';
    if (u.location !== 'battlefield' && !embarked) continue;
    for (const name of u.abilities) {
      const r = getRule(name);
      if (r?.[which] && (!embarked || r.phaseHooksWhileEmbarked)) r[which]!(g, g.state.units[id], phase);
    }
  }
}

/** `first`: what the phase does before anything else (the Command phase's CP gain), before its start hooks and window. */
export function startPhase(g: Game, player: PlayerIndex, phase: PhaseName, first?: () => void): void {
  g.emit({ type: 'phase-started', round: g.state.round, player, phase });
  first?.();
  runHooks(g, phase, player, 'start');
  // unit abilities that act at the start of a phase (Dance of Death)
  unitPhaseHooks(g, phase, 'phaseStart');
  openWindow(g, { name: 'phase/start', unit: null, targets: [], data: { phase } });
}

export function endPhase(g: Game, player: PlayerIndex, phase: PhaseName): void {
  openWindow(g, { name: 'phase/end', unit: null, targets: [], data: { phase } });
  runHooks(g, phase, player, 'end');
  // unit abilities that act at the end of a phase (Rapid Embarkation)
  unitPhaseHooks(g, phase, 'phaseEnd');
  // effects that act at the end of any phase (Stormblades' hold, a model set back up by STAGED DEATH), before
  // objective control is updated: a model set back up on a marker at the end of the phase counts for it then
  for (const e of [...g.state.effects]) getRule(e.kind)?.effectPhaseEnd?.(g, e, phase);
  updateObjectiveControl(g);
  expireEffects(g, { at: 'end-of-phase', round: g.state.round, turn: player, phase });
  g.emit({ type: 'phase-ended', round: g.state.round, player, phase });
}

export function hasEffect(g: Game, kind: string, unit: string): boolean {
  for (const e of g.state.effects) if (e.kind === kind && e.unit === unit) return true;
  return false;
}
