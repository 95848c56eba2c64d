/**
 * Agents by name (a file in agents/) or by path (any module whose default export is an AgentFactory).
 * Each agent gets its own seeded stream, derived from the game seed and its seat.
 */
import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import type { Agent, AgentFactory } from './agent.ts';
import { createStream, subSeed } from './rng.ts';
import type { PlayerIndex } from './state.ts';
import type { ResolvedPlayer, ResolvedScenario } from '../data/scenario-types.ts';
import { DataError } from '../data/errors.ts';
import { closestNames, editDistance } from '../data/fuzzy.ts';

const agentsDir = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'agents');

const cache = new Map<string, AgentFactory>();

/** The agents loaded by name: the `.ts` files directly in agents/ (a contributor's own among them), sorted. */
export function builtInAgents(): string[] {
  if (!existsSync(agentsDir)) return [];
  return readdirSync(agentsDir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => e.name.slice(0, -3)).sort();
}

/** The module file of an agent spec: a built-in agent's file in agents/, or the path given (from the working folder). */
export function agentModuleFile(spec: string): string {
  const isPath = spec.includes('/') || spec.endsWith('.ts') || spec.endsWith('.js');
  const file = isPath ? (isAbsolute(spec) ? spec : resolve(process.cwd(), spec)) : join(agentsDir, `${spec}.ts`);
  if (!existsSync(file)) {
    // a path: the file it was looked for at; a name: the agents there are, the closest first
    if (isPath) throw new Error(`agent file not found: ${file} (expected a module exporting an agent factory, or an agent's name: ${builtInAgents().join(', ')})`);
    const known = builtInAgents();
    const near = closestNames(spec, known, 1).filter((n) => editDistance(n.toLowerCase(), spec.toLowerCase()) <= Math.max(2, Math.floor(n.length / 3)));
    throw new Error(`unknown agent "${spec}" (in agents/: ${known.join(', ')}${near.length ? `; did you mean "${near[0]}"?` : ''}; or give a path to a module exporting an agent factory)`);
  }
  return file;
}

/** Resolve an agent spec ("random", "./my-agent.ts") to its factory. */
export async function loadAgentFactory(spec: string): Promise<AgentFactory> {
  const hit = cache.get(spec);
  if (hit) return hit;
  const file = agentModuleFile(spec);
  const mod = (await import(pathToFileURL(file).href)) as { default?: AgentFactory };
  if (typeof mod.default !== 'function') throw new Error(`agent module ${file} has no default export (expected an AgentFactory function)`);
  cache.set(spec, mod.default);
  return mod.default;
}

/** Create the agent for a seat, with its own stream derived from the game seed. */
export function makeAgent(factory: AgentFactory, seed: string, player: PlayerIndex, params?: Record<string, unknown>): Agent {
  return factory({ player, random: createStream(subSeed(seed, `agent:${player}`)), params });
}

export async function loadAgents(specs: [string, string], seed: string): Promise<[Agent, Agent]> {
  const f0 = await loadAgentFactory(specs[0]);
  const f1 = await loadAgentFactory(specs[1]);
  return [makeAgent(f0, seed, 0), makeAgent(f1, seed, 1)];
}

/** The two specs name the same agent module (a built-in name and its file's path are the same agent). */
export function sameAgent(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return agentModuleFile(a) === agentModuleFile(b);
  } catch {
    return false;
  }
}

/**
 * The agent of a seat in a game of `sc` (the scenario as seated): `spec` is the agent that plays it, made
 * from the game seed as `makeAgent` does. The scenario's `agentParams` for the seat go to it only when it is
 * the agent the scenario names: they were written for that agent, and another one (given on the command
 * line) plays with its own defaults. Parameters the agent refuses are bad input, named by file and field.
 */
export function makeSeatAgent(factory: AgentFactory, spec: string, sc: Pick<ResolvedScenario, 'file' | 'players'>, seat: PlayerIndex, seed: string): Agent {
  const p = sc.players[seat];
  const params = p.agentParams && Object.keys(p.agentParams).length > 0 && sameAgent(spec, p.agent) ? p.agentParams : undefined;
  try {
    return makeAgent(factory, seed, seat, params);
  } catch (err) {
    if (params) throw new DataError(`${sc.file}: agentParams of ${p.name}: ${(err as Error).message}`, sc.file);
    throw err;
  }
}

/**
 * The scenario as `specs` play it (by seat): each seat names the agent that plays it, as the game-started
 * event then records it (fork plays the game again from there), and the scenario's agentParams of a seat
 * whose agent is replaced are dropped (they were written for the agent it named). `play --agents`, the batch
 * runner, `batch-game` and `replay --from-batch` all play this scenario, so their logs are the same.
 */
export function seatedScenario(sc: ResolvedScenario, specs: readonly [string, string]): ResolvedScenario {
  const seat = (p: ResolvedPlayer, spec: string): ResolvedPlayer => {
    if (p.agent === spec) return p;
    if (sameAgent(spec, p.agent)) return { ...p, agent: spec };
    const { agentParams: _replaced, ...rest } = p;
    return { ...rest, agent: spec };
  };
  return { ...sc, players: [seat(sc.players[0], specs[0]), seat(sc.players[1], specs[1])] };
}
