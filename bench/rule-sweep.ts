/**
 * A long run of the rule checks the invariants test makes (test/helpers/rule-checks.ts): many seeded
 * games of each scenario, every event checked, the broken rules counted by kind.
 *
 *   npx tsx bench/rule-sweep.ts [--agent random|heuristic|lookahead] [--games N] [--first K] [scenario files...]
 *
 * Defaults: random agents, 40 games of every bundled scenario, seeds sweep-0 onwards (`--first K`: from
 * sweep-K, so that a later sweep plays games an earlier one did not). Exits 1 when a rule was broken, so that
 * a sweep can gate a change; each broken rule names its scenario, seed and event, which `play --seed`
 * and the replay viewer reproduce.
 */
import { parseArgs } from 'node:util';
import { loadAgentFactory } from '../src/core/agent-loader.ts';
import { bundledScenarios, loadScenario } from '../src/data/scenario.ts';
import { SweepTally } from './sweep-tally.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { agent: { type: 'string', default: 'random' }, games: { type: 'string', default: '40' }, first: { type: 'string', default: '0' } },
});
const games = Number(values.games);
if (!Number.isInteger(games) || games < 1) throw new Error(`--games: expected a positive whole number, got "${values.games}"`);
const first = Number(values.first);
if (!Number.isInteger(first) || first < 0) throw new Error(`--first: expected a whole number (the first seed's number), got "${values.first}"`);

const tally = new SweepTally(await loadAgentFactory(values.agent!));
const files = positionals.length ? positionals : bundledScenarios({ nested: true });
for (const file of files) {
  const sc = loadScenario(file);
  for (let i = 0; i < games; i++) {
    const seed = `sweep-${first + i}`;
    tally.play(sc, seed, `${file} seed ${seed}`);
  }
}
tally.report(`${values.agent} agents, ${files.length} scenarios`);
