/**
 * Regenerate one game of a batch from its seed: read the batch folder, set the game up as the batch
 * did (seed, sides, agents) and play it with logging.
 *
 * The folder's description is DIR/batch.json (the batch runner's spec) when there is one, else
 * DIR/results.json; either is read defensively, with these fields:
 *  - the scenario: `scenario` (a resolved scenario, a path, or `{file|path}`), else `scenarioFile` /
 *    `scenarioPath`; a relative path is tried from the current directory, then from DIR;
 *  - the batch seed: `batchSeed`, else `seed`;
 *  - the agents of the two armies: `agents` ([a, b] or "a,b"), else the scenario's;
 *  - `swap: true`: side-swapped pairs (game 2k+1 replays game 2k's seed with the armies' sides swapped),
 *    as the batch runner numbers them (src/sim/batch-game.ts gameIdentity);
 *  - `games`: a count, or a list of per-game entries (`index`/`game`, `seed`, `swapped`, `agents`, `vp`).
 * The game's record in DIR/games.jsonl (`index`, `seed`, `swapped`, `vp` by army), or its entry in `games`,
 * overrides the seed and sides; its VP are checked against the regenerated game. Swapping sides is
 * src/sim/swap.ts's: the armies exchange seats, each seat keeps its side (zone, Attacker/Defender).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
// play.ts first: it loads the rules and faction registries before any single rules module
import { playGame } from '../sim/play.ts';
import type { GameEvent } from '../core/events.ts';
import type { GameResult } from '../core/state.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { loadScenario } from '../data/scenario.ts';
import { gameIdentity, seatBatchGame, type Variant } from '../sim/batch-game.ts';
import { swapSides } from '../sim/swap.ts';

export class BatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BatchError';
  }
}

export interface BatchGame {
  /** the scenario with the seats as played (swapped when the game was) */
  scenario: ResolvedScenario;
  seed: string;
  /** agent of each seat */
  agents: [string, string];
  swapped: boolean;
  /** where each value came from */
  source: string[];
  /** the VP the batch recorded for this game, by seat, when it did */
  recordedVp: [number, number] | null;
  /** the scenario and agents by army, as the batch plays them (player 1's army first) */
  variant: Variant;
}

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readJson(file: string): Json {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BatchError(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (err as Error).message}`);
  }
  if (!isObj(json)) throw new BatchError(`${file}: not a JSON object`);
  return json;
}

function scenarioFrom(v: unknown, dir: string): ResolvedScenario | null {
  const load = (p: string): ResolvedScenario => {
    const candidates = isAbsolute(p) ? [p] : [resolve(process.cwd(), p), join(dir, p)];
    const file = candidates.find((c) => existsSync(c));
    if (!file) throw new BatchError(`the batch names the scenario "${p}", which was found neither from the current directory nor from ${dir}`);
    try {
      return loadScenario(file);
    } catch (err) {
      throw new BatchError(`scenario ${file}: ${(err as Error).message}`);
    }
  };
  if (typeof v === 'string') return load(v);
  if (isObj(v)) {
    if (Array.isArray(v.players) && isObj(v.board) && isObj(v.mission)) {
      const sc = structuredClone(v) as unknown as ResolvedScenario;
      // a resolved scenario kept without its datasheets: load it from its file
      const missing = sc.players.some((p) => !p.datasheets || p.army.units.some((u) => !p.datasheets[u.datasheetId]));
      if (missing) {
        if (typeof sc.file !== 'string') throw new BatchError('the batch keeps a scenario without its datasheets and without its file');
        return load(sc.file);
      }
      return sc;
    }
    for (const k of ['file', 'path']) if (typeof v[k] === 'string') return load(v[k] as string);
  }
  return null;
}

function agentPair(v: unknown): [string, string] | null {
  if (typeof v === 'string') {
    const parts = v.split(',').map((s) => s.trim()).filter(Boolean);
    if (parts.length === 1) return [parts[0], parts[0]];
    if (parts.length === 2) return [parts[0], parts[1]];
  }
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string')) return [v[0], v[1]];
  return null;
}

function vpPair(v: unknown): [number, number] | null {
  return Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number') ? [v[0], v[1]] : null;
}

const seedOf = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** The record of game `index` in DIR/games.jsonl (one JSON object per line), if any. */
function gameRecord(dir: string, index: number): Json | null {
  const file = join(dir, 'games.jsonl');
  if (!existsSync(file)) return null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as unknown;
      if (isObj(r) && r.index === index) return r;
    } catch {
      // a line cut short by a killed batch: that game has no record
    }
  }
  return null;
}

/** Describe game I of the batch in DIR as the batch played it. */
export function readBatchGame(dir: string, index: number): BatchGame {
  if (!Number.isInteger(index) || index < 0) throw new BatchError(`--game ${index}: expected a game index from 0`);
  const file = ['batch.json', 'results.json'].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new BatchError(`${dir}: neither batch.json nor results.json (not a batch folder?)`);
  const json = readJson(file);
  const name = file.slice(dir.length).replace(/^[\\/]/, '');
  const source: string[] = [name];
  let scenario: ResolvedScenario | null = null;
  for (const k of ['scenario', 'resolvedScenario', 'scenarioFile', 'scenarioPath']) {
    if (json[k] === undefined || json[k] === null) continue;
    scenario = scenarioFrom(json[k], dir);
    if (scenario) { source.push(`scenario from "${k}"`); break; }
  }
  if (!scenario) throw new BatchError(`${file}: no scenario (expected "scenario": a resolved scenario or a path)`);
  // the game's entry: a listed game, else its record in games.jsonl
  const games = json.games;
  let entry: Json | null = null;
  if (Array.isArray(games)) {
    entry = (games.find((x) => isObj(x) && (x.index === index || x.game === index)) as Json | undefined) ?? (isObj(games[index]) ? (games[index] as Json) : null);
    if (!entry && games.length > 0) throw new BatchError(`${file}: the batch lists ${games.length} games; there is no game ${index}`);
  } else if (typeof games === 'number' && index >= games) {
    throw new BatchError(`${file}: the batch has games 0 to ${games - 1}; there is no game ${index}`);
  }
  const record = gameRecord(dir, index);
  const batchSeed = seedOf(json.batchSeed) ?? seedOf(json.seed);
  const identity = batchSeed !== null ? gameIdentity(batchSeed, index, json.swap === true) : null;
  const seed = seedOf(entry?.seed) ?? seedOf(record?.seed) ?? identity?.seed ?? null;
  if (seed === null) throw new BatchError(`${file}: no seed for game ${index} (neither games[${index}].seed, a games.jsonl record, nor a batch seed "batchSeed")`);
  source.push(entry?.seed !== undefined ? `seed from games[${index}]` : record?.seed !== undefined ? 'seed from games.jsonl' : `seed from batch seed "${batchSeed}"`);
  const swapped = typeof entry?.swapped === 'boolean' ? entry.swapped : typeof record?.swapped === 'boolean' ? record.swapped : identity?.swapped ?? false;
  const armyAgents = agentPair(entry?.agents) ?? agentPair(json.agents) ?? [scenario.players[0].agent, scenario.players[1].agent];
  // by army, as the batch records them; the regenerated game is by seat
  const byArmy = vpPair(isObj(entry?.result) ? (entry!.result as Json).vp : entry?.vp) ?? (record && record.error === undefined ? vpPair(record.vp) : null);
  let sc = scenario;
  let agents = armyAgents;
  let recordedVp = byArmy;
  if (swapped) {
    sc = swapSides(scenario);
    agents = [armyAgents[1], armyAgents[0]];
    recordedVp = byArmy && [byArmy[1], byArmy[0]];
    source.push('sides swapped');
  }
  return { scenario: sc, seed, agents, swapped, source, recordedVp, variant: { scenario, agents: armyAgents } };
}

/** Play the batch game again, with its log: seated as the batch runner seats it (src/sim/batch-game.ts). */
export async function regenerateBatchGame(dir: string, index: number, onEvent?: (e: GameEvent) => void): Promise<{ events: GameEvent[]; result: GameResult; game: BatchGame; mismatch: string | null }> {
  const bg = readBatchGame(dir, index);
  let seated;
  try {
    seated = await seatBatchGame(bg.variant, { seed: bg.seed, swapped: bg.swapped });
  } catch (err) {
    throw new BatchError(`${dir}: the agents ${bg.agents.join(' vs ')}: ${(err as Error).message}`);
  }
  const events: GameEvent[] = [];
  let result: GameResult;
  try {
    ({ result } = playGame(seated.sc, {
      seed: bg.seed,
      agents: seated.agents,
      onEvent: (e) => { events.push(e); onEvent?.(e); },
    }));
  } catch (err) {
    // as the batch records a game that throws: its error, named, not a stack trace
    throw new BatchError(`${dir}: game ${index} threw as it was played again (seed ${bg.seed}): ${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? err}`, { cause: err });
  }
  const r = bg.recordedVp;
  const mismatch = r && (r[0] !== result.vp[0] || r[1] !== result.vp[1])
    ? `the batch recorded VP ${r[0]}-${r[1]} (by seat) for game ${index} but the regenerated game ends ${result.vp[0]}-${result.vp[1]} (has the engine changed since?)`
    : null;
  return { events, result, game: bg, mismatch };
}
