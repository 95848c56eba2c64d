/**
 * The random agent: picks uniformly among the legal options, from its own seeded stream. A baseline,
 * and the engine's fuzzer: every legal path gets played.
 */
import type { AgentFactory } from '../src/core/agent.ts';

const random: AgentFactory = (ctx) => ({
  name: 'random',
  decide: (_view, request) => ({ option: ctx.random.int(request.options.length) }),
});

export default random;
