/** Shared by the commands that play games: loading a scenario and choosing agents, with CLI errors. */
import { CliError } from '../cli-error.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { resolve } from 'node:path';
import { DEFAULT_SCENARIO, loadScenario } from '../data/scenario.ts';
import { parseArmies, parseWithoutStratagems, scenarioVariant, type ScenarioChanges } from './variants.ts';
import { defaultWorkers } from './batch-pool.ts';
import type { Agent, AgentFactory } from '../core/agent.ts';
import { loadAgentFactory, makeSeatAgent, seatedScenario } from '../core/agent-loader.ts';

export interface CliScenarioChanges {
  /** `--armies a,b` as typed (see parseArmies) */
  armies?: string;
  detachments?: ScenarioChanges['detachments'];
  /** `--fit-wargear` */
  fitWargear?: boolean;
  /** `--without-stratagem 1:NAME` entries as typed (see parseWithoutStratagems) */
  withoutStratagem?: string[];
}

/**
 * The scenario file (default: the bundled one), with `--armies` (see parseArmies), `--fit-wargear` and
 * detachments when given; its warnings (points that do not match the data...) are printed on stderr.
 */
export function loadScenarioForCli(file: string | undefined, changes: CliScenarioChanges = {}): ResolvedScenario {
  let sc: ResolvedScenario;
  try {
    const path = file ?? DEFAULT_SCENARIO;
    const armies = changes.armies === undefined ? undefined : parseArmies(changes.armies);
    const { detachments, fitWargear } = changes;
    const withoutStratagems = changes.withoutStratagem?.length ? parseWithoutStratagems(changes.withoutStratagem) : undefined;
    sc = armies || detachments || fitWargear || withoutStratagems ? scenarioVariant(path, { armies, detachments, fitWargear, withoutStratagems }) : loadScenario(path);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  for (const w of sc.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
  return sc;
}

/** `--armies a,b` as the batch spec records it: absolute paths, null for the scenario's. */
export function armiesForSpec(armiesOpt: string | undefined): [string | null, string | null] | undefined {
  if (armiesOpt === undefined) return undefined;
  const [a, b] = parseArmies(armiesOpt);
  return [a === undefined ? null : resolve(a), b === undefined ? null : resolve(b)];
}

/** Where each seat's agent was named, for an error about it: `--agents`, or the scenario's `players[i].agent`. */
export function agentOrigins(opt: string | undefined, sc: ResolvedScenario): [string, string] {
  return opt ? ['--agents', '--agents'] : [`${sc.file}: players[0].agent`, `${sc.file}: players[1].agent`];
}

/** `--agents a,b` (or one name for both), else the scenario's agents. */
export function agentSpecs(opt: string | undefined, sc: ResolvedScenario): [string, string] {
  if (!opt) return [sc.players[0].agent, sc.players[1].agent];
  const parts = opt.split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 1) return [parts[0], parts[0]];
  if (parts.length !== 2) throw new CliError(`--agents: expected one or two agents separated by a comma, got "${opt}"`);
  return [parts[0], parts[1]];
}

/**
 * `--workers` (batch, matrix, tournament): 0 (play in this thread) up to four threads a core; default one a
 * core. Each thread loads the engine and plays its own games: beyond the cores they only take turns on them,
 * and a thousand of them would take minutes to start.
 */
export function workersOption(v: string | undefined): number {
  const cores = defaultWorkers();
  if (v === undefined) return cores;
  const n = Number(v);
  const most = 4 * cores;
  if (!Number.isInteger(n) || n < 0 || n > most) throw new CliError(`--workers: expected a whole number from 0 to ${most} (four threads for each of this machine's ${cores} cores; more only take turns on them), got "${v}"`);
  return n;
}

/**
 * The agents of a game of `sc` (`play`), one per seat from the seed. The scenario is updated to name the
 * agents that play, as its game-started event records them (fork replays them): the scenario's agentParams
 * of a seat whose agent is replaced are dropped, as they were written for the agent it named.
 */
export async function seatAgents(sc: ResolvedScenario, specs: [string, string], seed: string, origins: [string, string] = ['--agents', '--agents']): Promise<[Agent, Agent]> {
  const factories: AgentFactory[] = [];
  for (const [i, spec] of specs.entries()) {
    try {
      factories.push(await loadAgentFactory(spec));
    } catch (err) {
      throw new CliError(`${origins[i]}: ${(err as Error).message}`);
    }
  }
  sc.players = seatedScenario(sc, specs).players;
  try {
    return [makeSeatAgent(factories[0], specs[0], sc, 0, seed), makeSeatAgent(factories[1], specs[1], sc, 1, seed)];
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}
