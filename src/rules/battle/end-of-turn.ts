/**
 * End of a turn: models out of Unit Coherency are removed until every unit is coherent (the owner picks
 * them: the ones that break coherency, last in the unit's order first); objective control is checked.
 */
import type { Game } from '../../core/game.ts';
import { unitCoherency } from '../../geometry/ranges.ts';
import { destroyModel } from '../damage.ts';
import { onBattlefield } from './units.ts';
import { modelBody } from './world.ts';

export function removeOutOfCoherency(g: Game): void {
  const s = g.state;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (!onBattlefield(u)) continue;
    for (;;) {
      const alive = u.models.filter((m) => m.alive && m.pos);
      const res = unitCoherency(alive.map((m) => modelBody(s, m)));
      if (res.ok) break;
      // removing one model can restore the rest: take the last breaking model, then check again
      const victim = alive[res.breaking[res.breaking.length - 1]];
      destroyModel(g, u, victim, null, 'out of Unit Coherency');
    }
  }
}
