/**
 * Values computed from one version of one state, for the agents' evaluations. A state changes only through
 * events, so what was computed since the last event still holds; the next event (or another state: a
 * copy the lookahead plays a future in) empties the memo. Dice events and records of decisions do not
 * count (the state's contentVersion): they change nothing an evaluation reads. Keys name what they hold ("reach", "uc|<unit>").
 */
import type { GameState } from '../core/state.ts';

let memoState: GameState | null = null;
let memoVersion = -1;
const memo = new Map<string, unknown>();

export function perVersion<T>(state: GameState, key: string, compute: () => T): T {
  if (memoState !== state || memoVersion !== state.contentVersion) {
    memo.clear();
    memoState = state;
    memoVersion = state.contentVersion;
  }
  if (memo.has(key)) return memo.get(key) as T;
  const v = compute();
  memo.set(key, v);
  return v;
}
