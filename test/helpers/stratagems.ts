import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PlayerIndex } from '../../src/core/state.ts';
import { usableStratagems, type Window } from '../../src/rules/windows.ts';

/**
 * An agent's answers that use the stratagem `name` whenever it is offered and answer its own request `kind`
 * with option `choice` (-1: the last option; a function: the index it picks among the options); the first
 * option for anything else.
 */
export function usingStratagem(name: string, kind = '', choice: number | ((options: unknown[]) => number) = 0): (r: DecisionRequest) => number {
  return (r) => {
    if (r.kind === 'stratagem') return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name));
    if (r.kind !== kind) return 0;
    if (typeof choice === 'function') return choice(r.options as unknown[]);
    return choice < 0 ? r.options.length - 1 : choice;
  };
}

/** The ids of the units the player may use the stratagem `name` on in window `w` now. */
export function offeredUnits(g: Game, w: Window, p: PlayerIndex, name: string): string[] {
  return usableStratagems(g, w, p).filter((x) => x.s.name === name).map((x) => x.unit.id);
}
