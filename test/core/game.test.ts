import { describe, expect, it } from 'vitest';
import { Game, MAX_EVENTS } from '../../src/core/game.ts';
import { emptyGameState } from '../../src/core/state.ts';
import { createStream } from '../../src/core/rng.ts';

describe('Game', () => {
  it('stops a game whose rules loop: past MAX_EVENTS events, emit throws naming the seed, and applies nothing', () => {
    const s = emptyGameState();
    s.seed = 'loop';
    s.eventCount = MAX_EVENTS - 1;
    const g = new Game(s, {}, createStream('x'));
    g.emit({ type: 'note', text: 'the last one allowed' });
    expect(g.state.eventCount).toBe(MAX_EVENTS);
    expect(() => g.emit({ type: 'note', text: 'one too many' })).toThrow(/game seed "loop": more than 2000000 events .*a rule is looping \(last event: note\)/);
    expect(g.state.eventCount).toBe(MAX_EVENTS);
  });
});
