/** Shared by the commands that play games: loading a scenario and choosing agents, with CLI errors. */
import { CliError } from '../cli-error.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { DEFAULT_SCENARIO, loadScenario } from '../data/scenario.ts';

export function loadScenarioForCli(file: string | undefined): ResolvedScenario {
  try {
    return loadScenario(file ?? DEFAULT_SCENARIO);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** `--agents a,b` (or one name for both), else the scenario's agents. */
export function agentSpecs(opt: string | undefined, sc: ResolvedScenario): [string, string] {
  if (!opt) return [sc.players[0].agent, sc.players[1].agent];
  const parts = opt.split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 1) return [parts[0], parts[0]];
  if (parts.length !== 2) throw new CliError(`--agents: expected one or two agents separated by a comma, got "${opt}"`);
  return [parts[0], parts[1]];
}
