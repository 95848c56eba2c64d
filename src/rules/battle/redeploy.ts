/**
 * The Redeploy Units step, after both armies are deployed and before the first turn is decided (a rule whose text
 * says after it, once it is decided): rules that
 * let a player pick up some of their deployed units and set them up again, in their deployment zone (or as
 * Infiltrators may), or place them in Strategic Reserves whatever is there already (Solid-image Projection
 * Unit, Guileful Strategist, Kroot Ambush). The players resolve theirs in the order they deployed; each rule
 * in its bearer's unit order, one unit at a time, until its player stops or none is left.
 */
import type { Game } from '../../core/game.ts';
import { getRule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { deploymentAnchors, placeForDeployment } from './placement.ts';
import { canInfiltrate, infiltrationAnchors, placeInfiltrator } from './pre-battle.ts';
import { hasKeyword, unitsOnBattlefield } from './units.ts';

/** A rule's redeployment: how many units, and which (`chosen`: those already picked for it). */
export interface Redeployment {
  max: number;
  eligible(bearer: UnitState, candidate: UnitState, chosen: readonly UnitState[]): boolean;
  /** the rule acts only when its bearer's unit passes this as the step reaches it (Prince of Corsairs: on the battlefield, or in a Transport that is); absent: always */
  bearerQualifies?(state: GameState, bearer: UnitState): boolean;
  /**
   * resolved once the first turn is decided, as its text says ("after both players have deployed their armies and
   * determined who has the first turn": The Path Least Travelled): a second pass of the step, the first-turn
   * player's rules first (they resolve pre-battle rules first)
   */
  afterFirstTurn?: true;
}

export type RedeployOption = { done: true } | { unit: string };
export type RedeployWhere = { reserves: true } | { x: number; y: number; infiltrate?: true };

/**
 * `afterFirstTurn`: the pass for the rules resolved once the first turn is decided (`Redeployment.afterFirstTurn`),
 * with `first` the first-turn player; otherwise the step itself, `first` the player who deployed first.
 */
export function redeployUnits(g: Game, first: PlayerIndex, zones: readonly [number, number], afterFirstTurn = false): void {
  for (const player of [first, opponent(first)] as PlayerIndex[]) {
    for (const id of g.state.unitOrder) {
      const bearer = g.state.units[id];
      if (bearer.player !== player || bearer.location === 'attached') continue;
      for (const name of bearer.abilities) {
        const r = getRule(name)?.redeploy;
        if (r && (r.afterFirstTurn ?? false) === afterFirstTurn) redeployFor(g, bearer, name, r, zones[player]);
      }
    }
  }
}

function redeployFor(g: Game, bearer: UnitState, rule: string, r: Redeployment, zone: number): void {
  const player = bearer.player;
  if (r.bearerQualifies && !r.bearerQualifies(g.state, bearer)) return;
  const chosen: UnitState[] = [];
  while (chosen.length < r.max) {
    const eligible = unitsOnBattlefield(g.state, player).filter((u) => !chosen.some((c) => c.id === u.id) && !hasKeyword(u, 'FORTIFICATION') && r.eligible(bearer, u, chosen));
    if (eligible.length === 0) return;
    const { option } = g.decide<RedeployOption>({
      kind: 'redeploy', player, prompt: `${rule}: redeploy a unit? (or stop)`, options: [{ done: true }, ...eligible.map((u) => ({ unit: u.id }))], context: { unit: bearer.id, zone },
    });
    if ('done' in option) return;
    const u = g.state.units[option.unit];
    chosen.push(u);
    const where: RedeployWhere[] = [{ reserves: true }, ...deploymentAnchors(g.state, zone).map((a) => ({ x: a.x, y: a.y }))];
    if (canInfiltrate(g.state, u)) for (const a of infiltrationAnchors(g.state, player)) where.push({ x: a.x, y: a.y, infiltrate: true });
    const { option: to } = g.decide<RedeployWhere>({ kind: 'redeploy-where', player, prompt: `${u.name}: set it up again where (or Strategic Reserves)?`, options: where, context: { unit: u.id } });
    // picked up first, so its own models do not stand in the way
    g.emit({ type: 'unit-location', unit: u.id, location: 'unplaced', embarkedIn: null });
    const placed = g.state.units[u.id];
    if ('reserves' in to) g.emit({ type: 'unit-location', unit: u.id, location: 'strategic-reserves', embarkedIn: null });
    else if (!to.infiltrate || !placeInfiltrator(g, placed, { x: to.x, y: to.y })) placeForDeployment(g, placed, { x: to.x, y: to.y }, zone);
  }
}
