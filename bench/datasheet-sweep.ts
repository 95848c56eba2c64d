/**
 * The rule checks of the invariants test (test/helpers/rule-checks.ts) over armies no scenario has: for each
 * detachment of the bundled factions, games of four datasheets a side drawn at random from the whole of both
 * factions' data (test/helpers/random-armies.ts; INFANTRY only for the Boarding Actions detachments, on the
 * bundled Boarding Actions board), that army under the detachment against the other faction's under none.
 * Every datasheet turns up sooner or later, with the units, wargear and detachment rules the bundled armies
 * never bring together.
 *
 *   npx tsx bench/datasheet-sweep.ts [--agent random|heuristic] [--games N] [--first K] [--detachment NAME] [--units U] [--enhancements] [--wargear]
 *
 * Defaults: random agents, 20 games a detachment, four datasheets a side (`--units`), seeds `ds-<detachment>-K`
 * onwards (`ds<U>-...` for another size). `--enhancements` gives the detachment's army Enhancements of the
 * detachment for its CHARACTERs (drawn from the seed; seeds `dse...`); `--wargear` takes the data's wargear
 * options at random, each half the time (seeds `dsw...`, `dsew...` with both). Exits 1 when a rule was
 * broken, naming the detachment, seed, armies and event (the armies are drawn from the seed alone).
 */
import { parseArgs } from 'node:util';
import { loadAgentFactory } from '../src/core/agent-loader.ts';
import { randomArmiesScenario, sweptDetachments } from '../test/helpers/random-armies.ts';
import { SweepTally } from './sweep-tally.ts';

const { values } = parseArgs({
  options: { agent: { type: 'string', default: 'random' }, games: { type: 'string', default: '20' }, first: { type: 'string', default: '0' }, detachment: { type: 'string' }, units: { type: 'string', default: '4' }, enhancements: { type: 'boolean', default: false }, wargear: { type: 'boolean', default: false } },
});
const games = Number(values.games);
if (!Number.isInteger(games) || games < 1) throw new Error(`--games: expected a positive whole number, got "${values.games}"`);
const first = Number(values.first);
if (!Number.isInteger(first) || first < 0) throw new Error(`--first: expected a whole number (the first seed's number), got "${values.first}"`);

const units = Number(values.units);
if (!Number.isInteger(units) || units < 1) throw new Error(`--units: expected a positive whole number (datasheets a side), got "${values.units}"`);

const tally = new SweepTally(await loadAgentFactory(values.agent!));
let detachments = 0;
for (const { detachment: det, side, mode } of sweptDetachments()) {
  if (values.detachment && det !== values.detachment) continue;
  detachments++;
  for (let i = first; i < first + games; i++) {
    // the seeds of armies of another size are their own
    const seed = `${values.enhancements ? 'dse' : 'ds'}${values.wargear ? 'w' : ''}${units === 4 ? '' : units}-${det}-${i}`;
    const sc = randomArmiesScenario(seed, det, side, mode, units, values.enhancements, values.wargear);
    tally.play(sc, seed, `${det} seed ${seed} (${sc.players.map((p) => p.army.units.map((u) => u.name).join(' + ')).join(' vs ')})`);
  }
}
if (detachments === 0) throw new Error(`--detachment: no detachment of the bundled factions named "${values.detachment}"`);
tally.report(`${values.agent} agents, ${detachments} detachments, random armies of the bundled factions' datasheets`);
