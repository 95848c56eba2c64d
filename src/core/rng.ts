/**
 * Seeded pseudo-random streams on seedrandom's alea (fast, and its small state can live in the game
 * state). The dice of a game and each agent get their own stream, derived from the game seed, so an
 * agent drawing more or fewer numbers never changes the dice.
 */
import seedrandom from 'seedrandom';
import type { RngState } from './events.ts';

export interface Stream {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform integer in [1, sides] */
  die(sides: number): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
  state(): RngState;
}

function wrap(prng: seedrandom.StatefulPRNG<seedrandom.State.Alea>): Stream {
  return {
    next: () => prng(),
    die: (sides) => ((prng() * sides) | 0) + 1,
    int: (n) => (prng() * n) | 0,
    state: () => prng.state() as RngState,
  };
}

export function createStream(seed: string): Stream {
  return wrap(seedrandom.alea(seed, { state: true }));
}

export function streamFromState(state: RngState): Stream {
  return wrap(seedrandom.alea('', { state: { ...state } }));
}

/** A named sub-stream of a seed: the dice use "dice", agents "agent:0", "agent:1". */
export function subSeed(seed: string, name: string): string {
  return `${seed}/${name}`;
}

/**
 * Seed of game `index` of a batch: a function of the batch seed and the index alone, so results do not
 * depend on how games are spread over workers or the order they finish.
 */
export function gameSeed(batchSeed: string, index: number): string {
  return `${batchSeed}#${index}`;
}
