import type { Game } from '../../src/core/game.ts';
import { buildAttackPlan } from '../../src/rules/attack-context.ts';
import type { AttackPlan } from '../../src/rules/attack-plan.ts';

/** The Attack plan the engine would build now for `weapon` of the attacking unit against the target. */
export function planFor(g: Game, attacker: string, target: string, weapon: string, opts: { distance?: number; halfRange?: boolean; cover?: boolean } = {}): AttackPlan {
  const s = g.state;
  const A = s.units[attacker];
  const T = s.units[target];
  const m = A.models.find((x) => x.alive && x.weapons.includes(weapon));
  if (!m) throw new Error(`no model of ${attacker} carries ${weapon}`);
  const w = s.datasheets[m.datasheet].weapons.find((x) => x.name === weapon)!;
  const profile = w.profiles[0];
  return buildAttackPlan({
    state: s, attacker: A, attackers: [m], target: T, weapon: w, profile, melee: profile.range === 'Melee',
    halfRange: opts.halfRange ?? false, targetModels: T.models.filter((x) => x.alive).length, targetVisible: true,
    targetInCover: opts.cover ?? false, distance: opts.distance ?? 12,
  });
}
