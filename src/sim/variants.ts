/**
 * Building a batch's spec from a scenario: other detachments for the armies (the matrix, `--detachments`),
 * other armies (`--armies`),
 * agents resolved so that every worker (and a later `batch-game`) finds them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { loadAgentFactory } from '../core/agent-loader.ts';
import { CliError } from '../cli-error.ts';
import { isArmyFile, readListFile, type ArmyFile } from '../data/army.ts';
import { parseArmyList } from '../data/army-build.ts';
import { loadScenario } from '../data/scenario.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { BATCH_FORMAT, type BatchSpec } from './batch-types.ts';
import { bundledNamesake } from '../data/project-path.ts';
import { lookupKey } from '../data/text.ts';

/** "Kauyon, Mont'ka, none" -> ['Kauyon', "Mont'ka", null] ("none" or "null" = the no-detachment baseline). */
export function parseDetachments(list: string): (string | null)[] {
  const out = list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => (/^(none|null)$/i.test(s) ? null : s));
  if (!out.length) throw new Error(`expected detachment names separated by commas ("none" for no detachment), got "${list}"`);
  return out;
}

/**
 * `--armies a,b`: player 1's and player 2's army, each an army file (.json) or an army-list text export
 * (Warhammer 40,000 app or New Recruit), "-" keeping the scenario's.
 */
export function parseArmies(list: string): [string | undefined, string | undefined] {
  const parts = list.split(',').map((s) => s.trim());
  if (parts.length !== 2 || parts.some((s) => !s)) {
    throw new Error(`--armies: expected two armies separated by a comma (player 1's, player 2's; "-" keeps the scenario's), got "${list}"`);
  }
  const out = parts.map((s) => (s === '-' ? undefined : s));
  if (out.every((s) => s === undefined)) throw new Error(`--armies: "${list}" replaces neither army`);
  return [out[0], out[1]];
}

/**
 * `--without-stratagem 1:NAME` (repeatable): the stratagems each army may not use, [player 1's, player 2's].
 * The names are checked by the scenario loader (against the stratagems the army could use).
 */
export function parseWithoutStratagems(entries: readonly string[]): [string[], string[]] {
  const out: [string[], string[]] = [[], []];
  for (const e of entries) {
    const m = /^\s*([12])\s*:\s*(\S.*?)\s*$/.exec(e);
    if (!m) throw new Error(`--without-stratagem: expected <army>:<stratagem>, the army 1 or 2 (e.g. "1:A TEMPTING TRAP"), got "${e}"`);
    out[Number(m[1]) - 1].push(m[2]);
  }
  return out;
}

/** An army's name without the detachment it ends with ("T'au (Kauyon)": "T'au"); null when it does not end with it. */
export function nameStem(name: string, detachment: string | null): string | null {
  const suffix = ` (${detachment ?? 'no detachment'})`;
  return name.length > suffix.length && name.endsWith(suffix) ? name.slice(0, -suffix.length) : null;
}

export interface ScenarioChanges {
  /** per player: a detachment name, null for no detachment, undefined to keep the scenario's */
  detachments?: [string | null | undefined, string | null | undefined];
  /** per player: an army file or army-list export replacing the scenario's army, undefined to keep it */
  armies?: [string | undefined, string | undefined];
  /** fit the army-list exports among `armies` to the datasheets (see ParseArmyOptions.fitWargear) */
  fitWargear?: boolean;
  /** per player: stratagems it may not use, added to the scenario's `withoutStratagems` */
  withoutStratagems?: [string[], string[]];
  /** the option that named them, for an error about one ('--without-stratagem' unless said) */
  withoutStratagemsOption?: string;
  /** per player, the option that named its detachment, for an error about it ('--detachments' unless said) */
  detachmentsOption?: [string, string];
}

/**
 * The name of a scenario whose armies the command line replaced: with both replaced only its mission and
 * terrain remain, so its name (which names its armies' detachments) must not read as the matchup played.
 */
function variantName(name: string, armies: readonly (string | undefined)[]): string {
  const replaced = armies.flatMap((a, i) => (a === undefined ? [] : [i + 1]));
  if (replaced.length >= 2) return `the mission and terrain of ${name}, armies from the command line`;
  return `${name}, player ${replaced[0]}'s army from the command line`;
}

/**
 * The scenario file with other detachments or armies for its players, checked by the scenario loader
 * like any scenario file: an unknown detachment is an error naming the closest ones. An army given here
 * plays its own detachment (unless one is given too) and its agent declares its battle formations
 * (Leaders, passengers, Reserves): the scenario's formations name the units of the army it replaces.
 */
export function scenarioVariant(file: string, changes: ScenarioChanges): ResolvedScenario {
  if (changes.fitWargear) checkFitWargear(changes.armies);
  const abs = resolve(file);
  // the lists' own warnings (points, fitted weapons), which the scenario loader does not see
  const listWarnings: string[] = [];
  const raw = JSON.parse(readFileSync(abs, 'utf8')) as { name?: unknown; terrain?: unknown; players?: Record<string, unknown>[] };
  const base = dirname(abs);
  // the paths in the file are relative to it: make them absolute, as the copy is read from elsewhere
  if (typeof raw.terrain === 'string' && raw.terrain.endsWith('.json') && !isAbsolute(raw.terrain)) raw.terrain = resolve(base, raw.terrain);
  const renamed: (string | undefined)[] = [];
  (raw.players ?? []).forEach((p, i) => {
    if (typeof p.army === 'string' && !isAbsolute(p.army)) p.army = resolve(base, p.army);
    const a = changes.armies?.[i];
    if (a !== undefined) {
      const army = armyFor(a, changes.fitWargear ?? false);
      p.army = army.army;
      // what the fit changed (the first few), and how many other warnings the list has: the scenario
      // loader repeats some of them (wargear, unit sizes, the points limit), the army command lists all
      const shown = army.fitted.slice(0, army.fitted.length > LIST_WARNINGS_SHOWN + 1 ? LIST_WARNINGS_SHOWN : undefined);
      for (const w of shown) listWarnings.push(`player ${i + 1} (--armies ${a}): ${w}`);
      const more = army.warnings.length - shown.length;
      if (more) listWarnings.push(`player ${i + 1} (--armies ${a}): ${more} ${shown.length ? 'more ' : ''}warning${more === 1 ? '' : 's'} about the list (\`army ${a}${changes.fitWargear ? ' --fit-wargear' : ''}\` lists ${more === 1 ? 'it' : 'them all'})`);
      for (const k of ['name', 'detachment', 'leaders', 'transports', 'reserves']) delete p[k];
      p.formations = 'agent';
    }
    const d = changes.detachments?.[i];
    if (d !== undefined) {
      // a name that carries the detachment it replaces ("T'au (Kauyon)") would misname the army played:
      // its stem, named again once the loader has spelled the new detachment
      const stem = typeof p.name === 'string' && typeof p.detachment === 'string' ? nameStem(p.name, p.detachment) : null;
      if (stem !== null) renamed[i] = stem;
      p.detachment = d;
    }
    const without = changes.withoutStratagems?.[i] ?? [];
    if (without.length) {
      const listed = Array.isArray(p.withoutStratagems) ? (p.withoutStratagems as unknown[]) : [];
      // one the scenario names already is not named twice (matched as the loader matches names)
      const had = new Set(listed.map((x) => lookupKey(String(x))));
      p.withoutStratagems = [...listed, ...without.filter((x) => !had.has(lookupKey(x)))];
    }
  });
  if (changes.armies && typeof raw.name === 'string') raw.name = variantName(raw.name, changes.armies);
  const dir = mkdtempSync(join(tmpdir(), 'strategium-variant-'));
  const tmp = join(dir, 'scenario.json');
  try {
    writeFileSync(tmp, JSON.stringify(raw));
    const sc = loadScenario(tmp);
    sc.file = file;
    renamed.forEach((stem, i) => {
      if (stem !== undefined) sc.players[i].name = `${stem} (${sc.players[i].detachment ?? 'no detachment'})`;
    });
    if (listWarnings.length) sc.warnings = [...listWarnings, ...(sc.warnings ?? [])];
    return sc;
  } catch (err) {
    const e = err as Error;
    e.message = e.message.split(tmp).join(file);
    changes.withoutStratagems?.forEach((w, i) => {
      if (w.length && e.message.includes(`players[${i}].withoutStratagems`)) e.message += ` (${changes.withoutStratagemsOption ?? '--without-stratagem'} adds to players[${i}].withoutStratagems)`;
    });
    // a detachment typed on the command line, not the scenario's field the error's path names
    changes.detachments?.forEach((d, i) => {
      if (d === undefined || d === null || !e.message.includes(`players[${i}].detachment`)) return;
      e.message += ` (players[${i}].detachment is "${d}" from ${changes.detachmentsOption?.[i] ?? '--detachments'}, where none plays without a detachment)`;
    });
    // name the file of an army given on the command line, which the scenario's field paths do not
    changes.armies?.forEach((a, i) => {
      if (a === undefined || !e.message.includes(`players[${i}].army`)) return;
      e.message += ` (players[${i}].army is ${a} (--armies))`;
      // a list from another data version: the army command can fit its loadouts
      if (!isArmyFile(a) && e.message.includes('is not a weapon of')) e.message += `; add --fit-wargear to drop the weapons the datasheets do not have (or convert it once: \`army ${a} --fit-wargear --out army.json\`, then give --armies army.json)`;
    });
    throw e;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The warnings of an army-list export shown before a game or batch (the rest are counted). */
const LIST_WARNINGS_SHOWN = 5;

/**
 * An army for a scenario: an army file's absolute path, or the army parsed from a list export (inline)
 * with the list's warnings (all, and those saying what --fit-wargear changed).
 */
function armyFor(file: string, fitWargear: boolean): { army: string | ArmyFile; warnings: string[]; fitted: string[] } {
  if (!existsSync(file)) throw new Error(`--armies: ${file}: file not found${bundledNamesake(file)}`);
  if (isArmyFile(file)) return { army: resolve(file), warnings: [], fitted: [] };
  const { army, warnings, fitted } = parseArmyList(readListFile(file), { file, fitWargear });
  return { army, warnings, fitted };
}

/** `--fit-wargear` fits army-list exports as they are read: it needs at least one among `--armies`. */
function checkFitWargear(armies: ScenarioChanges['armies']): void {
  const given: string[] = [];
  for (const a of armies ?? []) if (a !== undefined) given.push(a);
  if (!given.length) throw new Error('--fit-wargear: fits the army-list exports given with --armies; expected --armies');
  if (given.every(isArmyFile)) {
    throw new Error(`--fit-wargear: fits army-list exports (.txt) as they are read; ${given.join(' and ')} ${given.length === 1 ? 'is an army file' : 'are army files'}, whose weapons are edited in the file`);
  }
}

/** An agent spec that works from any folder and thread: paths made absolute, names kept. */
export function resolveAgentSpec(spec: string): string {
  const isPath = spec.includes('/') || spec.endsWith('.ts') || spec.endsWith('.js');
  return isPath && !isAbsolute(spec) ? resolve(process.cwd(), spec) : spec;
}

/**
 * Load the agents once here, so that a bad name fails before any worker starts: as bad input (exit code 2)
 * naming the --agents option, or the scenario's field that named the agent (`origins`), as `play` says it.
 */
export async function checkAgents(agents: readonly string[], origins: readonly string[] = agents.map(() => '--agents')): Promise<void> {
  for (const [i, a] of agents.entries()) {
    try {
      await loadAgentFactory(a);
    } catch (err) {
      throw new CliError(`${origins[i] ?? '--agents'}: ${(err as Error).message}`);
    }
  }
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
  armies?: [string | null, string | null];
  fitWargear?: boolean;
  withoutStratagems?: [string[], string[]];
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
  if (o.armies) spec.armies = o.armies;
  if (o.fitWargear) spec.fitWargear = true;
  if (o.withoutStratagems && (o.withoutStratagems[0].length || o.withoutStratagems[1].length)) spec.withoutStratagems = o.withoutStratagems;
  if (o.label !== undefined) spec.label = o.label;
  return spec;
}
