import type { Stream } from '../../src/core/rng.ts';

/**
 * A dice stream that returns the given values in order, so a test can play exact situations
 * ("the Hit rolls are 6 and 3"). Running out of values or a value above the die's sides fails loudly.
 */
export function scriptedStream(values: number[]): Stream & { remaining(): number } {
  let i = 0;
  const draw = (sides: number) => {
    if (i >= values.length) throw new Error(`scripted dice exhausted after ${values.length} rolls`);
    const v = values[i++];
    if (v < 1 || v > sides) throw new Error(`scripted die #${i} is ${v}, not a D${sides} result`);
    return v;
  };
  return {
    next: () => (draw(6) - 1) / 6,
    die: draw,
    int: (n) => draw(n) - 1,
    state: () => ({ c: i, s0: 0, s1: 0, s2: 0 }),
    remaining: () => values.length - i,
  };
}
