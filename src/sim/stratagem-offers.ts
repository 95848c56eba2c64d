/**
 * The stratagems a player was offered in a game: the names in the `stratagem` requests its agent was asked
 * (a window where the player could have used them came up, with the CP to pay). A batch counts them beside
 * the uses, so that a stratagem that was there to be used and never was shows in the report, not only the
 * ones used. The watcher only reads the requests: the agent's answers, and so the game, are unchanged.
 */
import type { Agent } from '../core/agent.ts';

export function watchStratagemOffers(agent: Agent): { agent: Agent; offered: Set<string> } {
  const offered = new Set<string>();
  const watched: Agent = {
    name: agent.name,
    decide(view, request) {
      if (request.kind === 'stratagem') {
        for (const o of request.options as ({ stratagem?: unknown } | null)[]) if (typeof o?.stratagem === 'string') offered.add(o.stratagem);
      }
      return agent.decide(view, request);
    },
  };
  if (agent.rerollPolicy) watched.rerollPolicy = (view, roll) => agent.rerollPolicy!(view, roll);
  return { agent: watched, offered };
}
