import { describe, expect, it } from 'vitest';
import { Game } from '../../src/core/game.ts';
import { expireEffects } from '../../src/core/effects.ts';
import { emptyGameState } from '../../src/core/state.ts';

function game(): Game {
  const s = emptyGameState();
  s.seed = 'effects';
  return new Game(s, { log: true });
}

describe('effects with expiries', () => {
  it('"until the end of the phase" ends at the end of that phase, not of another', () => {
    const g = game();
    g.addEffect('x', 0, null, { at: 'end-of-phase', round: 2, turn: 0, phase: 'shooting' });
    expireEffects(g, { at: 'end-of-phase', round: 2, turn: 0, phase: 'movement' });
    expect(g.state.effects).toHaveLength(1);
    expireEffects(g, { at: 'end-of-phase', round: 2, turn: 0, phase: 'shooting' });
    expect(g.state.effects).toHaveLength(0);
    expect(g.log!.map((e) => e.type)).toEqual(['effect-added', 'effect-removed']);
  });

  it('"until the end of the turn" survives the phases and ends with the turn', () => {
    const g = game();
    g.addEffect('x', 1, 'u1', { at: 'end-of-turn', round: 1, turn: 1 });
    expireEffects(g, { at: 'end-of-phase', round: 1, turn: 1, phase: 'fight' });
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 0 });
    expect(g.state.effects).toHaveLength(1);
    expireEffects(g, { at: 'end-of-turn', round: 1, turn: 1 });
    expect(g.state.effects).toHaveLength(0);
  });

  it('"until the start of your next Command phase" ends at that player\'s next Command phase only', () => {
    const g = game();
    g.addEffect('battle-shock-like', 0, 'u1', { at: 'start-of-command', player: 0, afterRound: 1 });
    expireEffects(g, { at: 'start-of-command', round: 1, player: 0 });
    expireEffects(g, { at: 'start-of-command', round: 2, player: 1 });
    expect(g.state.effects).toHaveLength(1);
    expireEffects(g, { at: 'start-of-command', round: 2, player: 0 });
    expect(g.state.effects).toHaveLength(0);
  });

  it('battle-long effects never expire; end of round clears round effects', () => {
    const g = game();
    g.addEffect('forever', 0, null, { at: 'end-of-battle' });
    g.addEffect('round', 0, null, { at: 'end-of-round', round: 3 });
    expireEffects(g, { at: 'end-of-round', round: 2 });
    expect(g.state.effects.map((e) => e.kind)).toEqual(['forever', 'round']);
    expireEffects(g, { at: 'end-of-round', round: 3 });
    expect(g.state.effects.map((e) => e.kind)).toEqual(['forever']);
    expect(g.state.effects[0].id).toBe(1);
  });
});
