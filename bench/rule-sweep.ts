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
import { loadAgentFactory, makeAgent } from '../src/core/agent-loader.ts';
import { bundledScenarios, loadScenario } from '../src/data/scenario.ts';
import { playGame } from '../src/sim/play.ts';
import { ruleChecker } from '../test/helpers/rule-checks.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { agent: { type: 'string', default: 'random' }, games: { type: 'string', default: '40' }, first: { type: 'string', default: '0' } },
});
const games = Number(values.games);
if (!Number.isInteger(games) || games < 1) throw new Error(`--games: expected a positive whole number, got "${values.games}"`);
const first = Number(values.first);
if (!Number.isInteger(first) || first < 0) throw new Error(`--first: expected a whole number (the first seed's number), got "${values.first}"`);

const factory = await loadAgentFactory(values.agent!);
const files = positionals.length ? positionals : bundledScenarios({ nested: true });
const broken = new Map<string, number>();
const checked = new Map<string, number>();
let played = 0;
for (const file of files) {
  const sc = loadScenario(file);
  for (let i = 0; i < games; i++) {
    const seed = `sweep-${first + i}`;
    const rules = ruleChecker();
    try {
      playGame(sc, { seed, agents: [makeAgent(factory, seed, 0), makeAgent(factory, seed, 1)], onEvent: rules.onEvent });
    } catch (err) {
      rules.violations.push(`the game threw: ${(err as Error).message}`);
    }
    played++;
    for (const [k, v] of rules.checked) checked.set(k, (checked.get(k) ?? 0) + v);
    for (const v of rules.violations) {
      console.log(`${file} seed ${seed}: ${v}`);
      // by kind: without the event number, model ids and distances
      const kind = v.replace(/^event \d+: /, '').replace(/p\d-u\d+(-m\d+)?/g, '…').replace(/[\d.]+"/g, '…"');
      broken.set(kind, (broken.get(kind) ?? 0) + 1);
    }
  }
}
console.log(`\n${played} games (${values.agent} agents, ${files.length} scenarios); checked:`);
for (const [k, v] of checked) console.log(`  ${k.padEnd(26)} ${v}`);
console.log(broken.size ? '\nbroken rules by kind:' : '\nno rule broken');
for (const [k, v] of [...broken].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(6)}  ${k}`);
process.exitCode = broken.size ? 1 : 0;
