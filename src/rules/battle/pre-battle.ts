/**
 * Core abilities played before the first battle round: Infiltrators (set up anywhere more than 9"
 * from the enemy deployment zone and every enemy model) and Scouts x" (a Normal move of up to x" after
 * both armies are deployed, the player who takes the first turn first, ending more than 9" from every
 * enemy model). A unit has such an ability when every datasheet it is made of has it (a Leader must
 * have it too).
 */
import type { Game } from '../../core/game.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { horizontalDistance, horizontalDistanceToPolygon } from '../../geometry/distance.ts';
import { distanceToPolygon, offsetPolygonVertices, pointInPolygon } from '../../geometry/polygon.ts';
import type { PlanResult } from '../../geometry/planner.ts';
import type { Body } from '../../geometry/types.ts';
import { allows, forEachActiveRule, getRule, partHas } from '../../core/rules-registry.ts';
import { destinations } from './movement.ts';
import { applyPlan, planUnit } from './placement.ts';
import { unitsOnBattlefield } from './units.ts';
import { bodyAt, modelBody } from './world.ts';

/**
 * Scouts x" of a unit: the smallest x among its datasheets, 0 when one of them lacks it; or more when an
 * active rule gives all its models Scouts (Strike Swiftly), or when it is a DEDICATED TRANSPORT whose
 * passengers all have Scouts.
 */
export function scoutsDistance(state: GameState, u: UnitState): number {
  let granted = 0;
  forEachActiveRule(state, u, 'self', (r, src) => { granted = Math.max(granted, r.scouts?.({ state, unit: u }, src) ?? 0); });
  return Math.max(granted, ownScouts(state, u), passengersScouts(state, u));
}

/**
 * A DEDICATED TRANSPORT makes the Scout move of the units embarked within it when every one of them has Scouts
 * (core rules, Scouts; the seeds are silent): the least of their distances, 0 when empty or one lacks it.
 */
function passengersScouts(state: GameState, u: UnitState): number {
  if (!u.keywords.includes('DEDICATED TRANSPORT')) return 0;
  let x = Infinity;
  for (const id of state.unitOrder) {
    const p = state.units[id];
    if (p.location !== 'embarked' || p.embarkedIn !== u.id) continue;
    x = Math.min(x, scoutsDistance(state, p));
    if (x === 0) return 0;
  }
  return x === Infinity ? 0 : x;
}

function ownScouts(state: GameState, u: UnitState): number {
  let x = Infinity;
  for (const c of u.components) {
    if (c.destroyed) continue;
    const a = state.datasheets[c.datasheet].coreAbilities.find((k) => k.name === 'Scouts');
    if (!a) {
      // a Leader that shares its Bodyguard's Scouts (Aspect Training) moves as far as they do
      if (c.isLeader && partHas(u, c, 'Scouts')) continue;
      return 0;
    }
    x = Math.min(x, a.x ?? 0);
  }
  return x === Infinity ? 0 : x;
}

/** "At the start of the battle, before Scouts moves": the abilities of every unit that act then (Strike Swiftly). */
export function beforeScoutMoves(g: Game): void {
  const s = g.state;
  for (const id of s.unitOrder) {
    if (s.units[id].location === 'attached') continue;
    for (const name of s.units[id].abilities) getRule(name)?.beforeScoutMoves?.(g, s.units[id]);
  }
}

/** Does every datasheet of the unit have Infiltrators (a Leader may share its Bodyguard's), or does a rule give the whole unit the ability (Ethereal Pathway)? */
export function canInfiltrate(state: GameState, u: UnitState): boolean {
  // the component's abilities: its datasheet's core abilities and those its wargear gives (a Recon Drone)
  return u.components.every((c) => partHas(u, c, 'Infiltrators')) || allows(state, u, 'infiltrate');
}

/** "In the Deploy Armies step", before any unit is set up: the abilities of every unit that act then (Ethereal Pathway). */
export function deployArmiesStart(g: Game): void {
  const s = g.state;
  for (const id of s.unitOrder) {
    if (s.units[id].location === 'attached') continue;
    for (const name of s.units[id].abilities) getRule(name)?.deployArmiesStart?.(g, s.units[id]);
  }
}

function enemyZone(state: GameState, player: PlayerIndex): { x: number; y: number }[] | null {
  return state.board.deploymentZones.find((z) => z.player === opponent(player))?.polygon ?? null;
}

/** Points outside both deployment zones, more than 9" (plus a margin) from the enemy zone, where an Infiltrator may be set up. */
export function infiltrationAnchors(state: GameState, player: PlayerIndex): { x: number; y: number }[] {
  const enemy = enemyZone(state, player);
  const own = state.board.deploymentZones.find((z) => z.player === player)?.polygon;
  if (!enemy) return [];
  const out: { x: number; y: number }[] = [];
  for (let x = 3; x <= state.board.width - 3; x += 6) {
    for (let y = 3; y <= state.board.height - 3; y += 6) {
      const p = { x, y };
      if (own && pointInPolygon(p, own)) continue;
      if (distanceToPolygon(p, enemy) > 11) out.push(p);
    }
  }
  return out;
}

/** Every model more than `d` horizontally from the polygon and from every enemy model. */
function farEnough(g: Game, u: UnitState, plan: PlanResult, d: number, zone: { x: number; y: number }[] | null): boolean {
  if (!plan.ok) return false;
  const s = g.state;
  const alive = u.models.filter((m) => m.alive);
  const enemies: Body[] = [];
  for (const id of s.unitOrder) {
    const e = s.units[id];
    if (e.player === u.player || e.location !== 'battlefield') continue;
    for (const m of e.models) if (m.alive && m.pos) enemies.push(modelBody(s, m));
  }
  return alive.every((m, i) => {
    const body = bodyAt(s, m, plan.positions[i]);
    if (zone && horizontalDistanceToPolygon(body, zone) <= d + 1e-6) return false;
    return enemies.every((e) => horizontalDistance(body, e) > d + 1e-6);
  });
}

/**
 * Set up an Infiltrators unit near a point outside its deployment zone. Tries the point, then the other
 * infiltration points nearest first; false when none works (the caller deploys it in its zone).
 */
export function placeInfiltrator(g: Game, u: UnitState, point: { x: number; y: number }): boolean {
  const s = g.state;
  const zone = enemyZone(s, u.player);
  const forbidden = zone ? [offsetPolygonVertices(zone, 9)] : [];
  const anchors = [point, ...infiltrationAnchors(s, u.player).sort((a, b) => dist2(a, point) - dist2(b, point)).slice(0, 8)];
  for (const a of anchors) {
    const plan = planUnit(s, u, 'deepStrike', { destination: a, minEnemyDistance: 9, forbiddenZones: forbidden });
    if (!farEnough(g, u, plan, 9, zone)) continue;
    g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
    applyPlan(g, u, plan, 'infiltrate');
    return true;
  }
  return false;
}

/**
 * Scout moves, after deployment and before the first battle round: the player taking the first turn
 * moves all the Scouts units they want, then the other player. Each move is a Normal move toward a
 * point the player picks, of up to x"; it is shortened until every model ends more than 9" from every
 * enemy model (and not made at all when that is impossible).
 */
export function scoutMoves(g: Game): void {
  const first = g.state.firstPlayer;
  for (const player of [first, opponent(first)] as PlayerIndex[]) {
    const done = new Set<string>();
    for (;;) {
      if (g.state.result) return;
      const units = unitsOnBattlefield(g.state, player).filter((u) => !done.has(u.id) && scoutsDistance(g.state, u) > 0);
      if (units.length === 0) break;
      const options: ({ done: true } | { unit: string; to: { x: number; y: number }; toward: string })[] = [{ done: true }];
      for (const u of units) for (const d of destinations(g.state, u)) options.push({ unit: u.id, ...d });
      const { option } = g.decide({ kind: 'scout-move', player, prompt: 'Scouts: make a Scout move with a unit? (or end the Scout moves)', options });
      if ('done' in option) break;
      done.add(option.unit);
      scoutMove(g, g.state.units[option.unit], option.to);
    }
  }
}

export function scoutMove(g: Game, u: UnitState, to: { x: number; y: number }): boolean {
  const x = scoutsDistance(g.state, u);
  for (let d = x; d > 0; d -= 1) {
    const plan = planUnit(g.state, u, 'normal', { maxDistance: d, destination: to });
    if (!plan.ok || !farEnough(g, u, plan, 9, null)) continue;
    if (!plan.pathLengths.some((l) => l > 1e-6)) return false;
    applyPlan(g, u, plan, 'scout');
    return true;
  }
  g.emit({ type: 'note', text: `${u.name} could not make a Scout move toward (${to.x}, ${to.y})` });
  return false;
}

function dist2(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return (a.x - b.x) ** 2 + (a.y - b.y) ** 2;
}
