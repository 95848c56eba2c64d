/**
 * A small scenario for batch tests, in memory and as a scenario file (for the CLI): three units a side
 * (a CHARACTER each, so the loader finds a Warlord) and three battle rounds, so a game takes a few ms.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { miniScenario } from '../helpers/mini-scenario.ts';
import type { ResolvedScenario } from '../../src/data/scenario-types.ts';
import { makeSpec } from '../../src/sim/variants.ts';
import type { BatchSpec } from '../../src/sim/batch-types.ts';

export const FAULTY_AGENT = join(import.meta.dirname, 'fixtures', 'faulty-agent.ts');

export function batchScenario(): ResolvedScenario {
  return miniScenario({
    rounds: 3,
    tau: ['Strike Team', 'Crisis Sunforge Battlesuits', 'Cadre Fireblade'],
    aeldari: ['Guardian Defenders', 'Windriders', 'Autarch'],
  });
}

/** The same scenario as a scenario file with its two army files, in `dir`; returns the scenario file's path. */
export function writeBatchScenarioFile(dir: string): string {
  const sc = batchScenario();
  mkdirSync(dir, { recursive: true });
  // army files that load without warnings (the CLI prints a scenario's warnings): their points totalled,
  // their CHARACTER (the one the loader would pick) marked Warlord
  sc.players.forEach((p, i) => {
    const army = { ...p.army, points: p.army.units.reduce((t, u) => t + u.points, 0), units: p.army.units.map((u) => ({ ...u })) };
    const character = army.units.find((u) => p.datasheets[u.datasheetId].keywords.includes('CHARACTER'));
    if (character && !army.units.some((u) => u.warlord)) character.warlord = true;
    writeFileSync(join(dir, `army${i + 1}.json`), JSON.stringify(army, null, 1));
  });
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify({
    name: 'mini batch',
    mission: { deployment: { zones: sc.board.deploymentZones.map((z) => z.polygon), objectives: sc.objectives.map((o) => o.pos) }, primary: 'take-and-hold', rounds: 3 },
    terrain: sc.board.terrain,
    players: sc.players.map((p, i) => ({ name: p.name, army: `army${i + 1}.json`, detachment: null })),
  }, null, 1));
  return file;
}

export function batchSpec(over: Partial<Parameters<typeof makeSpec>[0]> = {}): BatchSpec {
  return makeSpec({ scenario: batchScenario(), scenarioFile: null, agents: ['random', 'random'], batchSeed: 'T', games: 24, blockSize: 4, ...over });
}

/** results.json without the part that depends on the machine and the timing. */
export function stable(results: Record<string, unknown>): Record<string, unknown> {
  const { run: _run, ...rest } = results;
  return rest;
}

/** The batch of the runner tests: 16 games in blocks of 4, the faulty agent (random unless told to fail) for army 1. */
export const TEST_GAMES = 16;
export function testSpec(over: Partial<Parameters<typeof makeSpec>[0]> = {}): BatchSpec {
  return batchSpec({ agents: [FAULTY_AGENT, 'random'], games: TEST_GAMES, blockSize: 4, ...over });
}
