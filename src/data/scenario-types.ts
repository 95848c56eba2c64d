/**
 * A scenario after loading and validation: everything the engine needs to set up a game, with armies
 * resolved against the datasheets. The loader (src/data/scenario.ts) produces it from a scenario file.
 */
import type { ArmyFile } from './army.ts';
import type { Datasheet } from './datasheet.ts';
import type { BoardState, MissionState, PlayerIndex } from '../core/state.ts';

export type ReserveKind = 'deep-strike' | 'strategic';

export interface ResolvedPlayer {
  name: string;
  /** faction id of the data (TAU, AE) */
  faction: string;
  /** detachment played, or null for the "no detachment" baseline (army rule only) */
  detachment: string | null;
  /** agent name ('random', 'heuristic', ...) or a path to an agent module */
  agent: string;
  army: ArmyFile;
  /** the datasheets this army uses, by id */
  datasheets: Record<string, Datasheet>;
  /** Declare Battle Formations: Leader unit id -> Bodyguard unit id (army unit ids, e.g. "u3") */
  leaders: Record<string, string>;
  /** unit id -> id of the TRANSPORT it starts embarked within */
  transports: Record<string, string>;
  /** unit id -> how it is held back */
  reserves: Record<string, ReserveKind>;
  /** "agent": the player's agent attaches the Leaders and picks the Reserves (src/rules/battle/formations.ts) */
  formations?: 'agent';
  /** which deployment zone of the mission this player uses: index into board.deploymentZones */
  zone: number;
  /** Attacker or Defender of the mission (the Defender sets up first); default: player 1 attacks */
  role?: 'attacker' | 'defender';
  /** agent-specific parameters from the scenario (AgentContext.params) */
  agentParams?: Record<string, unknown>;
  /** stratagems this player may not use (names as the engine spells them); absent when none */
  withoutStratagems?: string[];
}

export interface ResolvedScenario {
  /** the file it came from (for messages) */
  file: string;
  name: string;
  /** seed from the file, when it names one */
  seed: string | null;
  /** board with terrain and both deployment zones (deploymentZones[i].player is the player index) */
  board: BoardState;
  objectives: { id: string; pos: { x: number; y: number } }[];
  mission: MissionState;
  players: [ResolvedPlayer, ResolvedPlayer];
  /** the deployment map played ('inline' when the scenario gives its own zones) */
  deployment?: { id: string; name: string };
  /** each player's territory (half of the board), when the deployment map defines them */
  territories?: { player: PlayerIndex; polygon: { x: number; y: number }[] }[];
  /** the terrain layout as the scenario names it ('tournament-a', a path to a layout file, or 'inline') */
  terrainLayout?: string;
  /** points limit of the game mode (Strike Force 2000) */
  pointsLimit?: number;
  /** what was accepted but may not be intended: points that differ from the data, a Warlord picked... */
  warnings?: string[];
}

export type { PlayerIndex };
