/**
 * End of a turn: a unit out of Unit Coherency loses models, one at a time, until a single coherent group
 * is left. Its controlling player picks each model (decision `coherency-removal`); the removed models
 * count as destroyed but trigger no rule that applies when a model is destroyed (no Deadly Demise, no
 * "just after a unit was destroyed" window).
 */
import type { Game } from '../../core/game.ts';
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import type { Body } from '../../geometry/types.ts';
import { coherencyGraph, outOfCoherency, unitCoherency } from '../../geometry/ranges.ts';
import { destroyModel, splitAttachedUnits } from '../damage.ts';
import { isLeaderModel } from '../allocation.ts';
import { onBattlefield } from './units.ts';
import { modelBody } from './world.ts';

export function removeOutOfCoherency(g: Game): void {
  const s = g.state;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (!onBattlefield(u)) continue;
    for (;;) {
      const alive = u.models.filter((m) => m.alive && m.pos);
      const bodies = alive.map((m) => modelBody(s, m));
      if (unitCoherency(bodies).ok) break;
      const options = removalOrder(s, u, alive, bodies).map((m) => ({ model: m.id }));
      const { option } = g.decide({
        kind: 'coherency-removal', player: u.player, prompt: `${u.name} is out of Unit Coherency: remove which model?`,
        options, context: { unit: u.id },
      });
      destroyModel(g, u, alive.find((m) => m.id === option.model)!, null, 'out of Unit Coherency', { triggers: false });
    }
  }
  // a Leader or Bodyguard part removed whole: the Attached unit splits now, before the next Battle-shock tests
  splitAttachedUnits(g);
}

/** What a model is worth when it is removed: its part's points shared among that part's models. */
function modelValue(s: GameState, u: UnitState, m: ModelState): number {
  const part = u.components.find((c) => c.unit === m.origin);
  const points = s.units[m.origin]?.points ?? u.points;
  return points / Math.max(1, part?.startingStrength ?? u.startingStrength);
}

/**
 * The unit's models, the one the owner would remove first leading (the engine's suggestion; a player may
 * pick any). The plan chooses the models to keep: a coherent set worth the most points, found among the
 * set left by removing, one at a time, the model whose removal leaves the fewest models out of coherency
 * (a Bodyguard model before a Leader, then the cheapest), and the connected sets of six models or fewer
 * (a unit of fewer than seven needs one neighbour per model, not two: losing three Guardians can be
 * cheaper than losing the Farseer that stands apart). Models outside the kept set lead, then the rest;
 * each part in that order: a Bodyguard model before a Leader, the fewest points, the fewest wounds left,
 * the last in the unit's order.
 */
function removalOrder(s: GameState, u: UnitState, alive: ModelState[], bodies: Body[]): ModelState[] {
  const n = alive.length;
  const near = coherencyGraph(bodies);
  const value = alive.map((m) => modelValue(s, u, m));
  const leader = alive.map((m) => (isLeaderModel(u, m) ? 1 : 0));
  // removal preference among equals: Bodyguard before Leader, cheapest, fewest wounds left, last in order
  const before = (a: number, b: number): number => leader[a] - leader[b] || value[a] - value[b] || alive[a].wounds - alive[b].wounds || b - a;
  const worth = (keep: boolean[]) => keep.reduce((t, k, i) => (k ? t + value[i] : t), 0);
  const size = (keep: boolean[]) => keep.filter(Boolean).length;

  const candidates: boolean[][] = [];
  // one at a time: the removal that leaves the fewest models out of coherency
  const greedy = new Array<boolean>(n).fill(true);
  while (outOfCoherency(near, greedy) > 0) {
    let best = -1;
    let bestLeft = Infinity;
    for (let i = 0; i < n; i++) {
      if (!greedy[i]) continue;
      greedy[i] = false;
      const left = outOfCoherency(near, greedy);
      greedy[i] = true;
      if (left < bestLeft || (left === bestLeft && before(i, best) < 0)) { best = i; bestLeft = left; }
    }
    greedy[best] = false;
  }
  candidates.push(greedy);
  // connected sets of up to six grown from each model, the most valuable neighbour first
  const small = Math.min(6, n - 1);
  for (let seed = 0; seed < n && small >= 1; seed++) {
    const keep = new Array<boolean>(n).fill(false);
    keep[seed] = true;
    for (let k = 1; k < small; k++) {
      let add = -1;
      for (let j = 0; j < n; j++) {
        if (keep[j] || !alive.some((_, i) => keep[i] && near[i][j])) continue;
        if (add < 0 || value[j] > value[add] || (value[j] === value[add] && before(j, add) > 0)) add = j;
      }
      if (add < 0) break;
      keep[add] = true;
    }
    candidates.push(keep);
  }
  // the most points kept, then the most models; the first found among equals
  let kept = candidates[0];
  for (const c of candidates) {
    const dw = worth(c) - worth(kept);
    if (dw > 1e-9 || (Math.abs(dw) <= 1e-9 && size(c) > size(kept))) kept = c;
  }
  const order = alive.map((_, i) => i);
  order.sort((a, b) => Number(kept[a]) - Number(kept[b]) || before(a, b));
  return order.map((i) => alive[i]);
}
