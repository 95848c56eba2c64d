/**
 * Game events: the only way the state changes. Every event is plain JSON; the log of a game is the
 * list of its events, one per line (JSONL). `type` discriminates the union.
 */
import type { Datasheet } from '../data/datasheet.ts';
import type {
  BoardState, Effect, GameResult, MissionState, ObjectiveState, PhaseName, PlayerIndex, Position, UnitState,
} from './state.ts';

export type RngState = { c: number; s0: number; s1: number; s2: number };

/** What a roll was for: the game's own words. */
export type RollPurpose =
  | 'attacks' | 'hit' | 'wound' | 'save' | 'damage' | 'feel-no-pain' | 'hazardous' | 'mortal-wounds'
  | 'advance' | 'charge' | 'battle-shock' | 'desperate-escape' | 'deadly-demise' | 'first-turn'
  | 'sustained-hits' | 'fate' | 'other';

export interface GameStartedEvent {
  type: 'game-started';
  seed: string;
  rng: RngState;
  /** `withoutStratagems`: present only when the scenario forbids the player some stratagems */
  players: { name: string; faction: string; detachment: string | null; agent: string; rules: string[]; withoutStratagems?: string[] }[];
  board: BoardState;
  objectives: ObjectiveState[];
  mission: MissionState;
  datasheets: Record<string, Datasheet>;
  /**
   * The scenario the game was set up from (its players' datasheets left out: they are in `datasheets`),
   * so a log can be played again from the start (fork, regenerated batch games).
   */
  scenario?: unknown;
}

export interface UnitCreatedEvent {
  type: 'unit-created';
  unit: UnitState;
}

/** Dice rolled (fast dice rolling: one event may carry many dice of the same roll). */
export interface DiceRolledEvent {
  type: 'dice';
  purpose: RollPurpose;
  player: PlayerIndex;
  unit: string | null;
  sides: number;
  values: number[];
  rng: RngState;
  /** optional label: weapon profile, target... for the replay's text */
  label?: string;
}

/** Some dice of the previous roll re-rolled: `indices` into that roll's values, `values` the new results. */
export interface RerollEvent {
  type: 'reroll';
  purpose: RollPurpose;
  player: PlayerIndex;
  unit: string | null;
  indices: number[];
  old: number[];
  values: number[];
  rng: RngState;
  /** why it was re-rolled (ability or stratagem name) */
  source: string;
}

/** One die of a roll replaced by another value (e.g. a Fate die), counting as an unmodified roll. */
export interface DiceSubstitutedEvent {
  type: 'dice-substituted';
  purpose: RollPurpose;
  player: PlayerIndex;
  unit: string | null;
  index: number;
  old: number;
  value: number;
  source: string;
}

export interface RoundStartedEvent { type: 'round-started'; round: number }
export interface TurnStartedEvent { type: 'turn-started'; round: number; player: PlayerIndex }
export interface PhaseStartedEvent { type: 'phase-started'; round: number; player: PlayerIndex; phase: PhaseName }
export interface PhaseEndedEvent { type: 'phase-ended'; round: number; player: PlayerIndex; phase: PhaseName }
export interface FirstTurnEvent { type: 'first-turn'; player: PlayerIndex }

/** `extra`: a CP gained beyond the Command phase's 1CP (the core rules allow one such CP per player per battle round). */
export interface CpChangedEvent { type: 'cp'; player: PlayerIndex; delta: number; reason: string; extra?: true }
export interface VpScoredEvent { type: 'vp'; player: PlayerIndex; amount: number; round: number; reason: string }

export interface ModelsPlacedEvent {
  type: 'models-placed';
  unit: string;
  /** why: 'deploy', 'normal', 'advance', 'fall-back', 'charge', 'pile-in', 'consolidate', 'deep-strike', 'strategic-reserves', 'disembark' ... */
  mode: string;
  positions: { model: string; pos: Position }[];
}

export interface UnitMovedEvent {
  type: 'unit-moved';
  unit: string;
  mode: 'stationary' | 'normal' | 'advance' | 'fall-back' | 'arrived' | 'disembarked';
  advanceRoll?: number;
}

export interface UnitFlagEvent {
  type: 'unit-flag';
  unit: string;
  flag: 'shot' | 'fought' | 'declaredCharge' | 'charged' | 'eligibleToFight' | 'disembarkedAfterTransportMoved' | 'disembarked';
  value: boolean;
}

export interface UnitLocationEvent {
  type: 'unit-location';
  unit: string;
  location: UnitState['location'];
  embarkedIn: string | null;
}

export interface UnitAttachedEvent { type: 'unit-attached'; leader: string; bodyguard: string }
/** An Attached unit splits back into its parts (one part was destroyed). */
export interface UnitDetachedEvent { type: 'unit-detached'; leader: string; bodyguard: string }
/**
 * A unit's models become part of another unit for the rest of the battle (SUPPORT ARTILLERY: a Support Weapon
 * joins Guardian Defenders): they count as that unit's own models (its Starting Strength, keywords,
 * abilities and points grow), and the joined unit is left empty, 'attached' to it for good.
 */
export interface UnitJoinedEvent { type: 'unit-joined'; unit: string; into: string }

export interface AttackAllocatedEvent { type: 'attack-allocated'; unit: string; model: string }
export interface ModelDamagedEvent {
  type: 'model-damaged';
  unit: string;
  model: string;
  /** wounds lost */
  wounds: number;
  /** attacking unit, when damage came from an attack */
  by: string | null;
  mortal: boolean;
}
/** A model regains lost wounds (AUTOMATED REPAIR DRONES); never above its Wounds characteristic. */
export interface ModelHealedEvent { type: 'model-healed'; unit: string; model: string; wounds: number }
/**
 * A destroyed model is set back up with `wounds` wounds (Unquenchable Resolve): alive again, its datasheet
 * unit no longer destroyed; its position follows in a models-placed event.
 */
export interface ModelReturnedEvent { type: 'model-returned'; unit: string; model: string; wounds: number }
export interface ModelDestroyedEvent { type: 'model-destroyed'; unit: string; model: string; by: string | null; reason: string }
/** A datasheet unit (or a part of an Attached unit) is destroyed. */
export interface UnitDestroyedEvent { type: 'unit-destroyed'; unit: string; component: string; by: string | null; player: PlayerIndex }

export interface BattleShockEvent { type: 'battle-shock'; unit: string; value: boolean }

export interface EffectAddedEvent { type: 'effect-added'; effect: Effect }
export interface EffectRemovedEvent { type: 'effect-removed'; id: number }

export interface StratagemUsedEvent {
  type: 'stratagem-used';
  player: PlayerIndex;
  name: string;
  cp: number;
  unit: string | null;
  round: number;
  turn: PlayerIndex;
  phase: PhaseName | 'setup';
}

/** A hatchway opened or closed (Boarding Actions); `unit`: the unit that did it, null when no unit did. */
export interface HatchwayEvent { type: 'hatchway'; hatchway: string; open: boolean; unit: string | null }
/**
 * Fallen models (fighting on death, src/rules/battle/fight-on-death.ts) piled in before they fight: where each
 * now stands. They are off the battlefield already, so the state does not change; the record is for the
 * replay and the rule checks.
 */
export interface FallenPiledInEvent { type: 'fallen-piled-in'; unit: string; positions: { model: string; pos: Position }[] }

export interface ObjectiveControlEvent { type: 'objective-control'; objective: string; controller: PlayerIndex | null }

export interface RuleStateEvent { type: 'rule-state'; player: PlayerIndex; key: string; value: unknown }

/** An agent's decision, recorded for replay ("what each agent decided and why"). No state change. */
export interface DecisionEvent {
  type: 'decision';
  player: PlayerIndex;
  agent: string;
  request: string;
  /** index of the chosen option (-1 for answers that are not options, such as a re-roll policy) */
  option: number;
  choice: unknown;
  /** the agent's own explanation: top candidates and scores, when it reports them */
  why?: unknown;
}

/** A message for the reader of the log (warnings such as unplayed abilities). No state change. */
export interface NoteEvent { type: 'note'; text: string }

/**
 * A fork (src/replay/fork.ts) took the game over here, after the first `at` events of the log it forked:
 * from here on the dice come from `seed` (when given) and the `agents` of players 1 and 2 play (when given).
 * No state change; a fork of this log replays it to reseed its dice at the same point.
 */
export interface ForkPointEvent { type: 'fork-point'; at: number; seed?: string; agents?: [string, string] }

export interface GameEndedEvent { type: 'game-ended'; result: GameResult }

export type GameEvent =
  | GameStartedEvent | UnitCreatedEvent
  | DiceRolledEvent | RerollEvent | DiceSubstitutedEvent
  | RoundStartedEvent | TurnStartedEvent | PhaseStartedEvent | PhaseEndedEvent | FirstTurnEvent
  | CpChangedEvent | VpScoredEvent
  | ModelsPlacedEvent | UnitMovedEvent | UnitFlagEvent | UnitLocationEvent | UnitAttachedEvent | UnitDetachedEvent | UnitJoinedEvent
  | AttackAllocatedEvent | ModelDamagedEvent | ModelHealedEvent | ModelReturnedEvent | ModelDestroyedEvent | UnitDestroyedEvent
  | BattleShockEvent | EffectAddedEvent | EffectRemovedEvent | StratagemUsedEvent
  | ObjectiveControlEvent | HatchwayEvent | FallenPiledInEvent | RuleStateEvent | DecisionEvent | NoteEvent | ForkPointEvent | GameEndedEvent;

export type EventType = GameEvent['type'];
export type EventOf<T extends EventType> = Extract<GameEvent, { type: T }>;
