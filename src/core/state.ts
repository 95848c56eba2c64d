/**
 * The game state: plain JSON (no classes, Maps or functions), so it can be logged, diffed, cloned,
 * sent to workers and wrapped by immer. Only reducers (src/core/reducer.ts) change it.
 */
import type { Datasheet } from '../data/datasheet.ts';

export type PlayerIndex = 0 | 1;

export type PhaseName = 'command' | 'movement' | 'shooting' | 'charge' | 'fight';
export const PHASES: readonly PhaseName[] = ['command', 'movement', 'shooting', 'charge', 'fight'];

/** Where the battle is: before the first battle round (setup) or inside a turn. */
export type Stage = 'setup' | 'battle' | 'ended';

export interface Position {
  x: number;
  y: number;
  /** height above the battlefield (ruin floors) */
  z: number;
}

export interface ModelState {
  /** unique in the game, e.g. "p1-u3-m2" */
  id: string;
  /** the unit this model was mustered in (its own datasheet unit), even while part of an Attached unit */
  origin: string;
  /** datasheet id and index of the model profile on it */
  datasheet: string;
  profile: number;
  name: string;
  /** wounds remaining */
  wounds: number;
  pos: Position | null;
  /** weapon names (keys into the datasheet's weapons) this model is equipped with */
  weapons: string[];
  /** the wargear abilities of the wargear it carries, by their datasheet names (absent: none) */
  wargear?: string[];
  alive: boolean;
  /** an attack was allocated to this model this phase (it must take the next ones) */
  allocated: boolean;
}

export type UnitLocation = 'battlefield' | 'reserves' | 'strategic-reserves' | 'embarked' | 'attached' | 'destroyed' | 'unplaced';

/** What a unit did this turn: reset at the start of every turn. */
export interface TurnFlags {
  /** 'stationary' | 'normal' | 'advance' | 'fall-back' | 'arrived' (Reinforcements) | 'disembarked' | null (not yet moved) */
  moved: null | 'stationary' | 'normal' | 'advance' | 'fall-back' | 'arrived' | 'disembarked';
  advanced: boolean;
  fellBack: boolean;
  /** Advance roll of this turn, when it advanced */
  advanceRoll: number;
  shot: boolean;
  /** selected to fight this phase */
  fought: boolean;
  declaredCharge: boolean;
  /** made a Charge move this turn */
  charged: boolean;
  /**
   * eligible to fight at some moment of this turn's Fight phase (within Engagement Range of an enemy unit,
   * or having charged, when the phase began or a unit was about to be selected to fight), so that "was
   * eligible to fight this phase" holds for a unit whose enemies all fell before it was selected
   */
  eligibleToFight: boolean;
  /** disembarked this turn after its transport moved (counts as a Normal move; cannot charge) */
  disembarkedAfterTransportMoved: boolean;
  /** disembarked from a transport this turn */
  disembarked: boolean;
  /** the unit was set up from Reserves this turn */
  arrived: boolean;
}

/** One of the datasheet units an Attached unit is made of. */
export interface UnitComponent {
  unit: string;
  datasheet: string;
  name: string;
  startingStrength: number;
  isLeader: boolean;
  destroyed: boolean;
  /** this part's own keywords and abilities, so an Attached unit that splits gives each part back its own */
  keywords: string[];
  abilities: string[];
}

export interface UnitState {
  id: string;
  player: PlayerIndex;
  datasheet: string;
  name: string;
  /** the unit's models; for an Attached unit, the Bodyguard models followed by the Leader models */
  models: ModelState[];
  /** Starting Strength (combined for an Attached unit) */
  startingStrength: number;
  /** datasheet units that make up this unit: one entry, or several for an Attached unit */
  components: UnitComponent[];
  /** for a Leader unit merged into a Bodyguard unit: the Bodyguard unit's id */
  attachedTo: string | null;
  /**
   * for a Leader unit left alone when the Attached unit it was part of split: that unit's id (a rule that
   * selected the Attached unit, as the Spotted unit, still has it selected: `isUnitOrItsPart`)
   */
  detachedFrom?: string;
  location: UnitLocation;
  /** transport this unit is embarked within */
  embarkedIn: string | null;
  /** union of the keywords of every component (upper case) */
  keywords: string[];
  /** rule names this unit plays (core, datasheet, enhancement), resolved through the rule registry */
  abilities: string[];
  battleShocked: boolean;
  flags: TurnFlags;
  warlord: boolean;
  enhancement: string | null;
  points: number;
  /** counters used by reports: damage dealt/taken in wounds (dealt and killed: to enemy units only) */
  stats: { woundsDealt: number; woundsTaken: number; modelsKilled: number };
  /**
   * for a new unit that a rule brings back in place of a destroyed one (JOIN THE HUNT): the army unit it
   * stands for, whose line in the batch's per-unit table counts it
   */
  returnOf?: string;
}

export interface StratagemUse {
  name: string;
  round: number;
  turn: PlayerIndex;
  phase: PhaseName | 'setup';
  unit: string | null;
  cp: number;
}

export interface PlayerState {
  name: string;
  faction: string;
  detachment: string | null;
  agent: string;
  cp: number;
  cpGained: number;
  cpSpent: number;
  /** the battle round in which this player last gained a CP beyond the Command phase's (0: never) */
  extraCpRound: number;
  vp: number;
  /** primary VP scored in each battle round (index 0 = round 1) */
  vpByRound: number[];
  stratagemsUsed: StratagemUse[];
  /** army-wide rules in play (army rule, detachment rule), by registry name */
  rules: string[];
  /** stratagems this player may not use in this game (the scenario's withoutStratagems); absent when none */
  withoutStratagems?: string[];
  /** free-form state of army rules (e.g. the Fate dice pool), plain JSON */
  ruleState: Record<string, unknown>;
}

/** When an effect ends. */
export type Expiry =
  | { at: 'end-of-phase'; round: number; turn: PlayerIndex; phase: PhaseName }
  | { at: 'end-of-turn'; round: number; turn: PlayerIndex }
  | { at: 'end-of-round'; round: number }
  /** the start of this player's next Command phase */
  | { at: 'start-of-command'; player: PlayerIndex; afterRound: number }
  | { at: 'end-of-battle' };

export interface Effect {
  id: number;
  /** rule registry name of the effect (its hooks live there) */
  kind: string;
  /** player who created it */
  player: PlayerIndex;
  /** unit it applies to, when any */
  unit: string | null;
  /** any parameters of the effect: plain JSON */
  params: Record<string, unknown>;
  expires: Expiry;
}

export interface TerrainState {
  id: string;
  kind: 'ruin' | 'area' | 'wall' | 'impassable';
  polygon: { x: number; y: number }[];
  height: number;
}

export interface ObjectiveState {
  id: string;
  pos: { x: number; y: number };
  /** player in control, null when nobody (contested or never controlled) */
  controller: PlayerIndex | null;
}

/**
 * A hatchway of a Boarding Actions board: a door in a wall. Its footprint is the gap it fills; while
 * closed it is a wall (blocks movement and sight), while open it is a gap. Whether it is open now is
 * `GameState.openHatchways` (it changes during the battle, by 'hatchway' events).
 */
export interface HatchwayState {
  id: string;
  polygon: { x: number; y: number }[];
  /** open at the start of the battle (Boarding Actions hatchways start closed) */
  startsOpen?: boolean;
}

export interface BoardState {
  width: number;
  height: number;
  terrain: TerrainState[];
  deploymentZones: { player: PlayerIndex; polygon: { x: number; y: number }[] }[];
  /** hatchways (Boarding Actions), absent on boards without any */
  hatchways?: HatchwayState[];
}

export interface MissionState {
  name: string;
  /** game mode: matched play or Boarding Actions */
  mode: 'strike-force' | 'boarding-actions' | 'incursion' | 'onslaught';
  rounds: number;
  /** registry name of the primary mission scoring rule */
  primary: string;
  params: Record<string, unknown>;
}

export interface GameResult {
  winner: PlayerIndex | null;
  vp: [number, number];
  rounds: number;
  endedBy: 'rounds' | 'army-destroyed' | 'error';
}

export interface GameState {
  /** bumped when the state's shape changes, so old logs are recognised */
  version: 1;
  seed: string;
  /** PRNG state of the dice stream (seedrandom alea), after the last roll */
  rng: { c: number; s0: number; s1: number; s2: number } | null;
  stage: Stage;
  round: number;
  /** player whose turn it is */
  turn: PlayerIndex;
  firstPlayer: PlayerIndex;
  phase: PhaseName | 'setup';
  players: [PlayerState, PlayerState];
  units: Record<string, UnitState>;
  /** unit ids in creation order (iterate this, never Object.keys of a changing record) */
  unitOrder: string[];
  datasheets: Record<string, Datasheet>;
  effects: Effect[];
  nextEffectId: number;
  board: BoardState;
  objectives: ObjectiveState[];
  mission: MissionState;
  result: GameResult | null;
  /** events applied so far (the index of the next event) */
  eventCount: number;
  /**
   * Bumped by every event that changes what the game says (not by those that only advance the dice
   * stream or record a decision or a note): the agents' caches of evaluations hold while it stands,
   * across the many dice events of one attack.
   */
  contentVersion: number;
  /**
   * Bumped by every event that moves, places, removes or regroups models: caches of distances,
   * engagement and visibility hold as long as it does not change.
   */
  geometryVersion: number;
  /**
   * Ids of the hatchways open now, in the board's order. Replaced (never mutated) by each 'hatchway'
   * event, so caches of the geometry can key on it.
   */
  openHatchways: string[];
}

export function emptyTurnFlags(): TurnFlags {
  return {
    moved: null, advanced: false, fellBack: false, advanceRoll: 0, shot: false, fought: false,
    declaredCharge: false, charged: false, eligibleToFight: false, disembarkedAfterTransportMoved: false, disembarked: false, arrived: false,
  };
}

export function emptyGameState(): GameState {
  return {
    version: 1,
    seed: '',
    rng: null,
    stage: 'setup',
    round: 0,
    turn: 0,
    firstPlayer: 0,
    phase: 'setup',
    players: [emptyPlayer(), emptyPlayer()],
    units: {},
    unitOrder: [],
    datasheets: {},
    effects: [],
    nextEffectId: 1,
    board: { width: 60, height: 44, terrain: [], deploymentZones: [] },
    objectives: [],
    mission: { name: '', mode: 'strike-force', rounds: 5, primary: '', params: {} },
    result: null,
    eventCount: 0,
    contentVersion: 0,
    geometryVersion: 0,
    openHatchways: [],
  };
}

function emptyPlayer(): PlayerState {
  return {
    name: '', faction: '', detachment: null, agent: '', cp: 0, cpGained: 0, cpSpent: 0, extraCpRound: 0, vp: 0,
    vpByRound: [], stratagemsUsed: [], rules: [], ruleState: {},
  };
}

export function opponent(p: PlayerIndex): PlayerIndex {
  return p === 0 ? 1 : 0;
}

export function aliveModels(u: UnitState): ModelState[] {
  return u.models.filter((m) => m.alive);
}

export function findModel(u: UnitState, modelId: string): ModelState {
  const models = u.models;
  for (let i = 0; i < models.length; i++) if (models[i].id === modelId) return models[i];
  throw new Error(`model ${modelId} is not in unit ${u.id}`);
}
