/**
 * Which bundled scenarios' games a change moves: the first games of each scenario's batch (the seeds and
 * side-swapped pairs `batch` plays, batch seed 1 unless told), each game's event log hashed, one line per
 * scenario. Save the lines before a change and compare after it: a scenario whose hash moved has README rows
 * (docs/agent-measurements.md) to play again; one whose hash held plays those games alike (more games, more
 * certainty: a rule that acts once in fifty games needs `--games 50` to show; the fallen's Pile-in of 917dac0
 * moved one game of the Aspect Host's 200 and none of its first 10, the two-Leader Starting Strength of 86d6b9a
 * the Kroot Hunting Pack's first 10).
 *
 *   npx tsx bench/scenario-hashes.ts [--agent heuristic] [--games 10] [--seed 1] [--save FILE] [--compare FILE] [scenario files...]
 *
 * Defaults: the heuristic on both sides, 10 games (five pairs) of every bundled scenario, about 90 s in one
 * process. `--compare FILE` prints the scenarios whose hash differs from the saved one and exits 1 when any does.
 * The first event (`game-started`) is left out: it embeds the scenario with its datasheets, whose fields change
 * with the importer (a new muster check's field) without any game changing; what the game does is the rest.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeAgent } from '../src/core/agent-loader.ts';
import { bundledScenarios, loadScenario, SCENARIOS_DIR } from '../src/data/scenario.ts';
import { gameIdentity, prepareVariant } from '../src/sim/batch-game.ts';
import { playGame } from '../src/sim/play.ts';
import { relative } from 'node:path';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    agent: { type: 'string', default: 'heuristic' }, games: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' },
    save: { type: 'string' }, compare: { type: 'string' },
  },
});
const games = Number(values.games);
if (!Number.isInteger(games) || games < 1) throw new Error(`--games: expected a positive whole number, got "${values.games}"`);

/** The saved lines of an earlier run: scenario -> hash. */
function readSaved(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\S+) ([0-9a-f]{16})/.exec(line);
    if (m) out.set(m[1], m[2]);
  }
  if (out.size === 0) throw new Error(`${values.compare}: expected lines "<scenario> <hash>" as --save writes them, found none`);
  return out;
}
const saved = values.compare ? readSaved(values.compare) : null;

const files = positionals.length ? positionals : bundledScenarios({ nested: true });
const lines: string[] = [];
const moved: string[] = [];
for (const file of files) {
  const sc = loadScenario(file);
  const p = await prepareVariant({ scenario: sc, agents: [values.agent!, values.agent!] });
  const hash = createHash('sha256');
  for (let i = 0; i < games; i++) {
    // as a batch seats game i (playBatchGame): its seed, and the armies' sides swapped in odd games
    const { seed, swapped } = gameIdentity(values.seed!, i, true);
    const scenario = swapped ? p.scenarios.swapped : p.scenarios.normal;
    const f = swapped ? [p.factories[1], p.factories[0]] : p.factories;
    try {
      playGame(scenario, { seed, agents: [makeAgent(f[0], seed, 0), makeAgent(f[1], seed, 1)], onEvent: (e) => { if (e.type !== 'game-started') hash.update(JSON.stringify(e) + '\n'); } });
    } catch (err) {
      hash.update(`threw: ${(err as Error).message}\n`);
    }
  }
  const name = relative(SCENARIOS_DIR, file).replace(/\\/g, '/');
  const h = hash.digest('hex').slice(0, 16);
  const before = saved?.get(name);
  const line = `${name} ${h}${saved ? (before === undefined ? '  (not in the saved run)' : before === h ? '' : `  MOVED (was ${before})`) : ''}`;
  if (saved && before !== h) moved.push(name);
  lines.push(line);
  console.log(line);
}
if (values.save) writeFileSync(values.save, lines.map((l) => l.split('  ')[0]).join('\n') + '\n');
if (saved) {
  console.log(moved.length ? `\n${moved.length} of ${files.length} scenarios play other games: ${moved.join(', ')}` : `\nall ${files.length} scenarios play the same games`);
  process.exitCode = moved.length ? 1 : 0;
}
