/**
 * A test agent: picks options from its own seeded stream like the random agent, explains every
 * decision (`why`: its top candidates with scores) and answers re-roll questions (only 1s).
 */
import type { AgentFactory } from '../../../src/core/agent.ts';

const careful: AgentFactory = (ctx) => ({
  name: 'careful',
  decide: (_view, request) => {
    const n = request.options.length;
    const option = ctx.random.int(n);
    const candidates = [option, (option + 1) % n].slice(0, Math.min(2, n)).map((o, k) => ({ option: o, score: k === 0 ? 0.75 : 0.25 }));
    return { option, why: { candidates } };
  },
  rerollPolicy: () => 'ones',
});

export default careful;
