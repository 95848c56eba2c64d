/**
 * Bad input made on purpose, for the input fuzz (bench/input-fuzz.ts, test/data/input-fuzz.test.ts): a
 * bundled file's JSON with one field changed (deleted, or set to a value of another kind or size), or an
 * army-list text export with lines cut, doubled or given stray characters, all drawn from a seed; fed to the
 * scenario loader, the army-list parser, the calculator, the commands that read batch folders, and replay and
 * fork. Whatever they make of it, they must take the input or refuse it as bad input naming where (a
 * DataError, the calculator's field error, an error naming the batch folder's file, a ForkError): never a
 * TypeError, a stack trace, or a run out of memory.
 */
// play.ts first: it loads the rules registry before any single rules module
import { playGame } from '../../src/sim/play.ts';
import seedrandom from 'seedrandom';
import { EXPORT_DIR, HAVE_EXPORT, HAVE_LISTS, LISTS_DIR } from '../data/paths.ts';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadScenario } from '../../src/data/scenario.ts';
import { DataError } from '../../src/data/errors.ts';
import { parseArmyList } from '../../src/data/army-build.ts';
import { bundledSource, exportSource, type CatalogSource } from '../../src/data/catalog.ts';
import { parseCalcInput } from '../../src/calc/input.ts';
import { buildScene, exactForInput, simulate } from '../../src/calc/simulate.ts';
import { loadAgents, seatedScenario } from '../../src/core/agent-loader.ts';
import { batchGame, mergeBatches, runBatch } from '../../src/sim/batch.ts';
import { compareBatches } from '../../src/sim/compare.ts';
import { BatchError, regenerateBatchGame } from '../../src/replay/batch.ts';
import { forkGame, ForkError } from '../../src/replay/fork.ts';
import { Replay } from '../../src/replay/replay.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { makeSpec } from '../../src/sim/variants.ts';
import { miniScenario } from './mini-scenario.ts';

/** Values a field is set to: other kinds, empty ones, huge and negative numbers, dice and ids. */
export const ODD_VALUES: readonly unknown[] = [null, -1, 0, 1, 2, 3, 100, 1e9, 1.5, -0.5, '', 'x', 'u1', 'u99', 'D6', '2D6',
  'deep-strike', 'strategic', 'agent', [], {}, true, [1, 2], [[0, 0], [1, 1]], { a: 1 }];

type Path = (string | number)[];

function paths(o: unknown, pre: Path = [], out: Path[] = []): Path[] {
  out.push(pre);
  if (o && typeof o === 'object') for (const k of Object.keys(o)) paths((o as Record<string, unknown>)[k], [...pre, Array.isArray(o) ? Number(k) : k], out);
  return out;
}

/** `json` (left as it is) with one field changed, drawn from `seed`; `what` says which. */
export function mutateJson<T>(json: T, seed: string): { json: T; what: string } {
  const rng = seedrandom(seed);
  const root = structuredClone(json);
  const all = paths(root).filter((p) => p.length > 0);
  const p = all[Math.floor(rng() * all.length)];
  let o = root as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = p[p.length - 1];
  if (rng() < 0.25 && !Array.isArray(o)) {
    delete o[last];
    return { json: root, what: `${p.join('.')} deleted` };
  }
  const v = ODD_VALUES[Math.floor(rng() * ODD_VALUES.length)];
  o[last] = structuredClone(v);
  return { json: root, what: `${p.join('.')} = ${JSON.stringify(v)}` };
}

const STRAY = ['', '•', '  ', '99999x', '999999999x ', '0x ', '[', ']', '(', ')', ':', '\t', 'pts', '#', '1x Pulse rifle', 'Enhancement: ', 'Warlord', '\u00a0', '’', '[100 pts]'];

/** An army-list text with one to three lines cut, doubled or given stray characters, drawn from `seed`. */
export function mutateListText(text: string, seed: string): { text: string; what: string } {
  const rng = seedrandom(seed);
  const lines = text.split('\n');
  const what: string[] = [];
  for (let j = 1 + Math.floor(rng() * 3); j > 0; j--) {
    const n = Math.floor(rng() * lines.length);
    const r = rng();
    if (r < 0.25) { lines.splice(n, 1); what.push(`line ${n + 1} cut`); }
    else if (r < 0.4) { const from = Math.floor(rng() * lines.length); lines.splice(n, 0, lines[from]); what.push(`line ${from + 1} doubled at ${n + 1}`); }
    else if (r < 0.75) {
      const pos = Math.floor(rng() * (lines[n].length + 1));
      const t = STRAY[Math.floor(rng() * STRAY.length)];
      lines[n] = lines[n].slice(0, pos) + t + lines[n].slice(pos);
      what.push(`line ${n + 1}: ${JSON.stringify(t)} at ${pos}`);
    } else {
      const pos = Math.floor(rng() * lines[n].length);
      const len = 1 + Math.floor(rng() * 6);
      lines[n] = lines[n].slice(0, pos) + lines[n].slice(pos + len);
      what.push(`line ${n + 1}: ${len} characters cut at ${pos}`);
    }
  }
  return { text: lines.join('\n'), what: what.join('; ') };
}

// ---------------------------------------------------------------------------------------------
// the fuzz runners: each case's input loaded (and with `agent`, its game played); what is neither taken nor
// refused as bad input is returned, one line a case

const ROOT = join(import.meta.dirname, '..', '..');

const outcome = (err: unknown) => `${(err as Error)?.name ?? 'Error'}: ${String((err as Error)?.message ?? err).slice(0, 200)}`;

/**
 * `cases` mutations of a bundled scenario (relative to scenarios/) or of a file it reads (its armies, its
 * terrain layout), each in a copy of scenarios/ (the rest as bundled); with `agent`, each scenario taken is
 * played once.
 */
export async function fuzzScenarios(scenario: string, cases: number, first = 0, agent?: string): Promise<{ problems: string[]; refused: number; taken: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'strategium-input-fuzz-'));
  try {
    cpSync(join(ROOT, 'scenarios'), dir, { recursive: true });
    const file = join(dir, scenario);
    const sc = JSON.parse(readFileSync(file, 'utf8')) as { terrain?: unknown; players: { army: unknown }[] };
    const files = [file, ...sc.players.map((p) => (typeof p.army === 'string' ? resolve(dirname(file), p.army) : null)).filter((f): f is string => f !== null)];
    if (typeof sc.terrain === 'string' && !sc.terrain.endsWith('.json')) files.push(join(dir, 'terrain', `${sc.terrain}.json`));
    const originals = files.map((f) => readFileSync(f, 'utf8'));
    const problems: string[] = [];
    let refused = 0;
    let taken = 0;
    for (let i = first; i < first + cases; i++) {
      const seed = `input-fuzz-${scenario}-${i}`;
      const k = Math.floor(seedrandom(seed)() * files.length);
      const { json, what } = mutateJson(JSON.parse(originals[k]), seed);
      files.forEach((f, j) => writeFileSync(f, j === k ? JSON.stringify(json) : originals[j]));
      const where = `case ${i}: ${files[k].slice(dir.length + 1)} ${what}`;
      try {
        const r = loadScenario(file);
        if (agent) playGame(r, { seed, agents: await loadAgents([agent, agent], seed) });
        taken++;
      } catch (err) {
        if (err instanceof DataError) refused++;
        else problems.push(`${where}: ${outcome(err)}`);
      }
    }
    return { problems, refused, taken };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bundled army-list exports (../shared/data/army-lists), each with the catalog sources that read it. */
export function listExports(): { name: string; text: string; sources: CatalogSource[] }[] {
  if (!HAVE_LISTS) return [];
  const withExport = HAVE_EXPORT ? [bundledSource(), exportSource(EXPORT_DIR)] : null;
  return readdirSync(LISTS_DIR).filter((f) => f.endsWith('.txt')).sort()
    .map((f) => ({ name: f, text: readFileSync(join(LISTS_DIR, f), 'utf8'), sources: withExport && f.includes('official') ? withExport : [bundledSource()] }));
}

/** `cases` mutated army-list exports, each parsed (and fitted, as --fit-wargear does, every other case). */
export function fuzzLists(cases: number, first = 0): { problems: string[]; refused: number; taken: number } {
  const lists = listExports();
  const problems: string[] = [];
  let refused = 0;
  let taken = 0;
  for (let i = first; i < first + cases && lists.length; i++) {
    const l = lists[i % lists.length];
    const { text, what } = mutateListText(l.text, `input-fuzz-list-${i}`);
    try {
      parseArmyList(text, { file: l.name, sources: l.sources, fitWargear: i % 2 === 1 });
      taken++;
    } catch (err) {
      if (err instanceof DataError) refused++;
      else problems.push(`case ${i}: ${l.name} ${what}: ${outcome(err)}`);
    }
  }
  return { problems, refused, taken };
}

/** `cases` mutated calculator inputs (scenarios/calc/): refused naming the file and field, or calculated and simulated. */
export function fuzzCalc(cases: number, first = 0): { problems: string[]; refused: number; taken: number } {
  const dir = join(ROOT, 'scenarios', 'calc');
  const inputs = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ f, json: JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown }));
  const problems: string[] = [];
  let refused = 0;
  let taken = 0;
  for (let i = first; i < first + cases; i++) {
    const c = inputs[i % inputs.length];
    const { json, what } = mutateJson(c.json, `input-fuzz-calc-${i}`);
    let input;
    try {
      input = parseCalcInput(json, c.f);
    } catch (err) {
      // the calculator's own refusal names the file and the field
      if (String((err as Error).message).startsWith(`${c.f}: `)) refused++;
      else problems.push(`case ${i}: ${c.f} ${what}: ${outcome(err)}`);
      continue;
    }
    try {
      const scene = buildScene(input, 'fuzz');
      exactForInput(input, scene);
      simulate(input, 50, 'fuzz', scene);
      taken++;
    } catch (err) {
      problems.push(`case ${i}: ${c.f} ${what}: taken, then ${outcome(err)}`);
    }
  }
  return { problems, refused, taken };
}

/**
 * `cases` copies of a small batch's folder, each with batch.json or one games.jsonl record mutated, read by
 * merge, compare (against the intact folder), batch-game, resume and replay --from-batch: each must take it or refuse it with an
 * error naming the folder's file.
 */
export async function fuzzBatchFolders(cases: number, first = 0): Promise<{ problems: string[]; refused: number; taken: number }> {
  const root = mkdtempSync(join(tmpdir(), 'strategium-batch-fuzz-'));
  try {
    const good = join(root, 'good');
    const scenario = miniScenario({ rounds: 3, tau: ['Strike Team', 'Cadre Fireblade'], aeldari: ['Guardian Defenders', 'Autarch'] });
    await runBatch(makeSpec({ scenario, scenarioFile: null, agents: ['random', 'random'], batchSeed: 'F', games: 4, blockSize: 2 }), { workers: 0, outDir: good });
    const lines = readFileSync(join(good, 'games.jsonl'), 'utf8').trim().split('\n');
    const spec = JSON.parse(readFileSync(join(good, 'batch.json'), 'utf8')) as unknown;
    const problems: string[] = [];
    let refused = 0;
    let taken = 0;
    for (let i = first; i < first + cases; i++) {
      const dir = join(root, `case-${i}`);
      cpSync(good, dir, { recursive: true });
      let what: string;
      if (i % 3 === 0) {
        const m = mutateJson(spec, `input-fuzz-batch-spec-${i}`);
        writeFileSync(join(dir, 'batch.json'), JSON.stringify(m.json));
        what = `batch.json ${m.what}`;
      } else {
        const k = i % lines.length;
        const m = mutateJson(JSON.parse(lines[k]) as unknown, `input-fuzz-batch-record-${i}`);
        writeFileSync(join(dir, 'games.jsonl'), [...lines.slice(0, k), JSON.stringify(m.json), ...lines.slice(k + 1)].join('\n') + '\n');
        what = `games.jsonl line ${k + 1} ${m.what}`;
      }
      const reads: [string, () => unknown][] = [
        ['merge', () => mergeBatches([dir], join(root, `merged-${i}`))],
        ['compare', () => compareBatches(dir, good, 0)],
        ['batch-game', () => batchGame(dir, 1)],
        ['resume', () => runBatch(null, { resume: true, outDir: dir, workers: 0 })],
        ['replay --from-batch', () => regenerateBatchGame(dir, 1)],
      ];
      for (const [op, read] of reads) {
        try {
          await read();
          taken++;
        } catch (err) {
          // refused naming the folder's file: as bad input (CliError, exit code 2), or a BatchError
          if (err instanceof Error && (err.name === 'Error' || err.name === 'CliError' || err instanceof BatchError) && err.message.includes(dir)) refused++;
          else problems.push(`case ${i}: ${what}: ${op}: ${outcome(err)}`);
        }
      }
    }
    return { problems, refused, taken };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * `cases` copies of a logged game (the bundled Boarding Actions scenario, random agents) with one event (not the
 * first) mutated: replayed (which reports a damaged line and goes on up to it, never throws) and forked a
 * little after that event (taken, or refused with a ForkError).
 */
export async function fuzzLogs(cases: number, first = 0): Promise<{ problems: string[]; refused: number; taken: number }> {
  const events: GameEvent[] = [];
  // seated as `play --agents random,random` seats it: the log names the random agents, which a fork then plays on with
  // (and shows the prefix to), not the scenario's heuristic
  const sc = seatedScenario(loadScenario(join(ROOT, 'scenarios', 'boarding-actions', 'starfire-vs-aeldari.json')), ['random', 'random']);
  playGame(sc, { seed: 'log-fuzz', agents: await loadAgents(['random', 'random'], 'log-fuzz'), onEvent: (e) => events.push(e) });
  const problems: string[] = [];
  let refused = 0;
  let taken = 0;
  for (let i = first; i < first + cases; i++) {
    const seed = `input-fuzz-log-${i}`;
    const rng = seedrandom(seed);
    const k = 1 + Math.floor(rng() * (events.length - 1));
    const { json, what } = mutateJson(events[k], seed);
    const damaged = events.slice();
    damaged[k] = json as GameEvent;
    const where = `case ${i}: event ${k + 1} (${events[k].type}) ${what}`;
    try {
      Replay.fromEvents(damaged).verify();
    } catch (err) {
      problems.push(`${where}: replay: ${outcome(err)}`);
    }
    try {
      await forkGame(damaged, { at: Math.min(damaged.length, k + 1 + Math.floor(rng() * 50)) });
      taken++;
    } catch (err) {
      if (err instanceof ForkError) refused++;
      else problems.push(`${where}: fork: ${outcome(err)}`);
    }
  }
  return { problems, refused, taken };
}
