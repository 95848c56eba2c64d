/**
 * The random agent: picks uniformly among the legal options, from its own seeded stream. A baseline,
 * and the engine's fuzzer: every legal path gets played.
 */
import type { AgentFactory } from '../src/core/agent.ts';
import { checkAgentParams } from '../src/core/agent-params.ts';

const random: AgentFactory = (ctx) => {
  checkAgentParams('random', ctx.params, {});
  return {
    name: 'random',
    decide: (_view, request) => ({ option: ctx.random.int(request.options.length) }),
  };
};

export default random;
