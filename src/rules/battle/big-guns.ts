/**
 * Big Guns Never Tire (core rules): MONSTER and VEHICLE units may shoot while within Engagement Range of
 * enemy units (at those units or at others), and enemy MONSTER and VEHICLE units may be shot while within
 * Engagement Range of units of the attacking army, which no other unit may be. Either way each ranged
 * attack, unless it is made with a Pistol, takes -1 to its Hit roll: by a MONSTER or VEHICLE whose unit is
 * engaged, or against a MONSTER or VEHICLE engaged with the attacker's army. The shooting phase asks here
 * who may shoot and be shot; the agents' damage estimates ask for the same penalty.
 */
import type { GameState, PlayerIndex, UnitState } from '../../core/state.ts';
import { profileHas, type WeaponProfile } from '../../data/datasheet.ts';
import { isMonsterOrVehicle } from './units.ts';
import { engagedEnemies, isEngaged } from './world.ts';

/** Is the unit within Engagement Range of one or more units of `player`'s army? */
export function engagedWithArmyOf(s: GameState, u: UnitState, player: PlayerIndex): boolean {
  for (const e of engagedEnemies(s, u)) if (e.player === player) return true;
  return false;
}

/**
 * May `player`'s units shoot at `target`, as far as combats go? Not while it is within Engagement Range of
 * their army (the shooter's own combat is the shooting phase's to judge), unless it is a MONSTER or VEHICLE.
 */
export function targetableInCombat(s: GameState, target: UnitState, player: PlayerIndex): boolean {
  return isMonsterOrVehicle(target) || !engagedWithArmyOf(s, target, player);
}

/** Big Guns Never Tire's Hit roll modifier for a ranged attack by `attacker` at `target` with profile `p`: -1 or 0. */
export function bigGunsHitModifier(s: GameState, attacker: UnitState, target: UnitState, p: WeaponProfile): number {
  if (p.range === 'Melee' || profileHas(p, 'PISTOL')) return 0;
  if (isMonsterOrVehicle(attacker) && isEngaged(s, attacker)) return -1;
  if (isMonsterOrVehicle(target) && engagedWithArmyOf(s, target, attacker.player)) return -1;
  return 0;
}
