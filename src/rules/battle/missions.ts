/**
 * Primary missions: one registry entry each, scoring at the moments the mission names.
 */
import { z } from 'zod';
import type { Game } from '../../core/game.ts';
import type { PlayerIndex } from '../../core/state.ts';
import { objectivesControlledBy, updateObjectiveControl, type ControlMoment } from './objectives.ts';

export interface PrimaryMission {
  name: string;
  /** the scenario's mission.params this mission reads, checked as the scenario is read */
  params?: z.ZodType;
  /** end of a player's Command phase */
  endOfCommandPhase?(g: Game, player: PlayerIndex): void;
  /** end of a player's turn */
  endOfTurn?(g: Game, player: PlayerIndex): void;
}

const registry = new Map<string, PrimaryMission>();

export function registerPrimaryMission(m: PrimaryMission): void {
  if (registry.has(m.name)) throw new Error(`primary mission "${m.name}" registered twice`);
  registry.set(m.name, m);
}

export function primaryMission(name: string): PrimaryMission {
  const m = registry.get(name);
  if (!m) throw new Error(`unknown primary mission "${name}" (known: ${[...registry.keys()].join(', ')})`);
  return m;
}

export function primaryMissionNames(): string[] {
  return [...registry.keys()];
}

/** The primary mission registered under `name`, or undefined (for checking a scenario). */
export function findPrimaryMission(name: string): PrimaryMission | undefined {
  return registry.get(name);
}

/** A parameter counted in VP. */
const vp = z.number().int('expected a whole number of VP').nonnegative('expected a whole number of VP, 0 or more');

/** Take and Hold's parameters, as a scenario may give them (checked as it is read); the defaults below. */
const TAKE_AND_HOLD_PARAMS = z.strictObject({
  vpPerObjective: vp.optional(),
  maxPerTurn: vp.optional(),
  fromRound: z.number().int('expected a battle round (1-10)').min(1, 'expected a battle round (1-10)').max(10, 'expected a battle round (1-10)').optional(),
  maxTotal: vp.optional(),
});

type TakeAndHoldParams = Required<z.infer<typeof TAKE_AND_HOLD_PARAMS>>;

function params(g: Game): TakeAndHoldParams {
  const p = g.state.mission.params as Partial<TakeAndHoldParams>;
  return { vpPerObjective: p.vpPerObjective ?? 5, maxPerTurn: p.maxPerTurn ?? 15, fromRound: p.fromRound ?? 2, maxTotal: p.maxTotal ?? 50 };
}

function score(g: Game, player: PlayerIndex, reason: string, moment: ControlMoment): void {
  const p = params(g);
  updateObjectiveControl(g, moment);
  const held = objectivesControlledBy(g.state, player);
  const room = p.maxTotal - g.state.players[player].vp;
  const amount = Math.max(0, Math.min(held * p.vpPerObjective, p.maxPerTurn, room));
  if (amount > 0) g.emit({ type: 'vp', player, amount, round: g.state.round, reason });
}

/** In the last battle round the player with the second turn scores at the end of that turn instead. */
function secondPlayerLastRound(g: Game, player: PlayerIndex): boolean {
  return g.state.round === g.state.mission.rounds && player !== g.state.firstPlayer;
}

/**
 * Take and Hold: at the end of your Command phase from battle round 2, VP for each objective you
 * control, capped per turn and in total. In the last battle round, the player who has the second turn
 * scores at the end of their turn instead (as the Leviathan missions do).
 */
registerPrimaryMission({
  name: 'take-and-hold',
  params: TAKE_AND_HOLD_PARAMS,
  endOfCommandPhase(g, player) {
    if (g.state.round >= params(g).fromRound && !secondPlayerLastRound(g, player)) score(g, player, 'take-and-hold', 'phase-end');
  },
  endOfTurn(g, player) {
    if (secondPlayerLastRound(g, player)) score(g, player, 'take-and-hold (end of the battle)', 'turn-end');
  },
});

/** A mission with no primary scoring (sandbox games, tests). */
registerPrimaryMission({ name: 'none' });
