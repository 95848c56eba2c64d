/**
 * Bad input on purpose (test/helpers/input-mutations.ts): mutated scenarios and the files they read, army-list
 * exports, calculator inputs, batch folders (batch.json or a games.jsonl record; a tenth as many cases) and
 * logged games (an event changed: replayed and forked), each either taken or refused as bad input (a DataError naming the file and
 * field, the calculator's error naming the field); anything else (a TypeError, a stack trace) is listed with
 * its case, and the exit code is 1.
 *
 *   npx tsx bench/input-fuzz.ts [--kind scenario|list|calc|batch|log|all] [--cases N] [--first K] [--scenario FILE] [--play AGENT]
 *
 * Defaults: all kinds, 300 cases each, from case 0, the default scenario (relative to scenarios/); `--play`
 * plays each scenario taken once with that agent (slower: a game a case).
 */
import { parseArgs } from 'node:util';
import { fuzzBatchFolders, fuzzCalc, fuzzLists, fuzzLogs, fuzzScenarios } from '../test/helpers/input-mutations.ts';

const { values } = parseArgs({
  options: { kind: { type: 'string', default: 'all' }, cases: { type: 'string', default: '300' }, first: { type: 'string', default: '0' }, scenario: { type: 'string', default: 'default.json' }, play: { type: 'string' } },
});
const cases = Number(values.cases);
if (!Number.isInteger(cases) || cases < 1) throw new Error(`--cases: expected a positive whole number, got "${values.cases}"`);
const first = Number(values.first);
if (!Number.isInteger(first) || first < 0) throw new Error(`--first: expected a whole number, got "${values.first}"`);
if (!['scenario', 'list', 'calc', 'batch', 'log', 'all'].includes(values.kind!)) throw new Error(`--kind: expected scenario, list, calc, batch, log or all, got "${values.kind}"`);

let problems = 0;
const show = (kind: string, r: { problems: string[]; refused: number; taken: number }) => {
  for (const p of r.problems) console.log(`${kind} ${p}`);
  console.log(`${kind}: ${r.taken} taken, ${r.refused} refused as bad input, ${r.problems.length} neither`);
  problems += r.problems.length;
};
if (values.kind === 'scenario' || values.kind === 'all') show(`scenario ${values.scenario}`, await fuzzScenarios(values.scenario!, cases, first, values.play));
if (values.kind === 'list' || values.kind === 'all') show('list', fuzzLists(cases, first));
if (values.kind === 'calc' || values.kind === 'all') show('calc', fuzzCalc(cases, first));
// four reads a folder (merge, compare, batch-game, resume): a tenth of the cases
if (values.kind === 'batch' || values.kind === 'all') show('batch folder', await fuzzBatchFolders(Math.max(1, Math.round(cases / 10)), first));
if (values.kind === 'log' || values.kind === 'all') show('log', await fuzzLogs(cases, first));
process.exitCode = problems ? 1 : 0;
