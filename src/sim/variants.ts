/**
 * Building a batch's spec from a scenario: other detachments for the armies (the matrix, `--detachments`),
 * agents resolved so that every worker (and a later `batch-game`) finds them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { loadAgentFactory } from '../core/agent-loader.ts';
import { loadScenario } from '../data/scenario.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { BATCH_FORMAT, type BatchSpec } from './batch-types.ts';

/** "Kauyon, Mont'ka, none" -> ['Kauyon', "Mont'ka", null] ("none" or "null" = the no-detachment baseline). */
export function parseDetachments(list: string): (string | null)[] {
  const out = list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => (/^(none|null)$/i.test(s) ? null : s));
  if (!out.length) throw new Error(`expected detachment names separated by commas ("none" for no detachment), got "${list}"`);
  return out;
}

/**
 * The scenario file with other detachments for its players (undefined keeps the file's), checked by the
 * scenario loader like any scenario file: an unknown detachment is an error naming the closest ones.
 */
export function scenarioWithDetachments(file: string, detachments: [string | null | undefined, string | null | undefined]): ResolvedScenario {
  const abs = resolve(file);
  const raw = JSON.parse(readFileSync(abs, 'utf8')) as { terrain?: unknown; players?: { army?: unknown; detachment?: unknown }[] };
  const base = dirname(abs);
  // the paths in the file are relative to it: make them absolute, as the copy is read from elsewhere
  if (typeof raw.terrain === 'string' && raw.terrain.endsWith('.json') && !isAbsolute(raw.terrain)) raw.terrain = resolve(base, raw.terrain);
  (raw.players ?? []).forEach((p, i) => {
    if (typeof p.army === 'string' && !isAbsolute(p.army)) p.army = resolve(base, p.army);
    const d = detachments[i];
    if (d !== undefined) p.detachment = d;
  });
  const dir = mkdtempSync(join(tmpdir(), 'strategium-variant-'));
  const tmp = join(dir, 'scenario.json');
  try {
    writeFileSync(tmp, JSON.stringify(raw));
    const sc = loadScenario(tmp);
    sc.file = file;
    return sc;
  } catch (err) {
    const e = err as Error;
    e.message = e.message.split(tmp).join(file);
    throw e;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same scenario with other detachments, set directly (for scenarios that are not files, e.g. tests). */
export function withDetachments(sc: ResolvedScenario, detachments: [string | null | undefined, string | null | undefined]): ResolvedScenario {
  return {
    ...sc,
    players: sc.players.map((p, i) => (detachments[i] === undefined ? p : { ...p, detachment: detachments[i] ?? null })) as ResolvedScenario['players'],
  };
}

/** An agent spec that works from any folder and thread: paths made absolute, names kept. */
export function resolveAgentSpec(spec: string): string {
  const isPath = spec.includes('/') || spec.endsWith('.ts') || spec.endsWith('.js');
  return isPath && !isAbsolute(spec) ? resolve(process.cwd(), spec) : spec;
}

/** Load the agents once here, so that a bad name fails before any worker starts. */
export async function checkAgents(agents: [string, string]): Promise<void> {
  for (const a of agents) await loadAgentFactory(a);
}

export interface SpecOptions {
  scenario: ResolvedScenario;
  scenarioFile: string | null;
  agents: [string, string];
  batchSeed: string;
  games: number;
  swap?: boolean;
  blockSize?: number;
  untilCi?: number | null;
  shard?: { k: number; n: number } | null;
  detachments?: [string | null, string | null];
  label?: string;
}

export const DEFAULT_BLOCK = 10;

export function makeSpec(o: SpecOptions): BatchSpec {
  const spec: BatchSpec = {
    format: BATCH_FORMAT,
    scenarioFile: o.scenarioFile ? resolve(o.scenarioFile) : null,
    scenario: o.scenario,
    agents: [resolveAgentSpec(o.agents[0]), resolveAgentSpec(o.agents[1])],
    batchSeed: o.batchSeed,
    games: o.games,
    swap: o.swap ?? true,
    blockSize: o.blockSize ?? DEFAULT_BLOCK,
    untilCi: o.untilCi ?? null,
    shard: o.shard ?? null,
  };
  if (o.detachments) spec.detachments = o.detachments;
  if (o.label !== undefined) spec.label = o.label;
  return spec;
}
