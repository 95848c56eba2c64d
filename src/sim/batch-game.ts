/**
 * One game of a batch, played in batch mode (no log) and boiled down to a compact record by army.
 * Used by the worker threads and by the in-process runner alike, so both give the same records.
 */
// play.ts first: it loads the rules registry (src/rules/index.ts) before any single rules module
import { playGame } from './play.ts';
import { IllegalDecisionError, type Agent, type AgentFactory } from '../core/agent.ts';
import { loadAgentFactory, makeSeatAgent, seatedScenario } from '../core/agent-loader.ts';
import { gameSeed } from '../core/rng.ts';
import type { GameState, PlayerIndex } from '../core/state.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { createGame, gameUnitId } from '../rules/battle/setup.ts';
import { DataError } from '../data/errors.ts';
import type { GameRecord, UnitRecord } from './batch-types.ts';
import { seatOf, swapSides } from './swap.ts';
import { watchStratagemOffers } from './stratagem-offers.ts';

/** What a worker needs to play a batch's games: the scenario (player 1 army first) and each army's agent. */
export interface Variant {
  scenario: ResolvedScenario;
  agents: [string, string];
}

export interface PreparedVariant {
  /** the scenario as given and with its armies' sides swapped */
  scenarios: { normal: ResolvedScenario; swapped: ResolvedScenario };
  /** the same, each seat naming the agent that plays it (seatedScenario): the scenarios the games play */
  seated: { normal: ResolvedScenario; swapped: ResolvedScenario };
  factories: [AgentFactory, AgentFactory];
  /** each army's agent spec (its factory's) */
  agents: [string, string];
  /** army-list unit ids of each army */
  unitIds: [string[], string[]];
}

export async function prepareVariant(v: Variant): Promise<PreparedVariant> {
  const factories: [AgentFactory, AgentFactory] = [await loadAgentFactory(v.agents[0]), await loadAgentFactory(v.agents[1])];
  const swapped = swapSides(v.scenario);
  return {
    scenarios: { normal: v.scenario, swapped },
    seated: { normal: seatedScenario(v.scenario, v.agents), swapped: seatedScenario(swapped, [v.agents[1], v.agents[0]]) },
    factories,
    agents: v.agents,
    unitIds: [v.scenario.players[0].army.units.map((u) => u.id), v.scenario.players[1].army.units.map((u) => u.id)],
  };
}

/** The seed of game `index` and whether its sides are swapped. */
export function gameIdentity(batchSeed: string, index: number, swap: boolean): { seed: string; swapped: boolean } {
  if (!swap) return { seed: gameSeed(batchSeed, index), swapped: false };
  return { seed: gameSeed(batchSeed, index - (index % 2)), swapped: index % 2 === 1 };
}

export function emptyRecord(index: number, seed: string, swapped: boolean, error: string): GameRecord {
  return {
    index, seed, swapped, winner: null, vp: [0, 0], vpByRound: [[], []], rounds: 0, endedBy: 'error', first: null,
    cpGained: [0, 0], cpSpent: [0, 0], stratagems: [{}, {}], units: [[], []], events: 0, error,
  };
}

/**
 * A batch game as it is played, from its identity (gameIdentity: seed, sides swapped or not): the
 * scenario (seats as played, each naming its agent) and an agent for each seat, made exactly as `play` makes
 * them (makeSeatAgent per seat, with the scenario's agentParams for the agent it names), so that
 * `play --seed --agents` regenerates the game, and its log.
 */
function seatedGame(p: PreparedVariant, { seed, swapped }: { seed: string; swapped: boolean }) {
  const sc = swapped ? p.seated.swapped : p.seated.normal;
  const f = swapped ? [p.factories[1], p.factories[0]] : p.factories;
  const specs = swapped ? [p.agents[1], p.agents[0]] : p.agents;
  const agents = [makeSeatAgent(f[0], specs[0], sc, 0, seed), makeSeatAgent(f[1], specs[1], sc, 1, seed)] as [Agent, Agent];
  return { sc, agents };
}

/**
 * Set up the batch's first game (and its side-swapped twin) before any game is played: a scenario whose
 * armies cannot be set up is bad input, reported once as its DataError, not as every game failed. Any
 * other error is left to the game that meets it (recorded as a failed game).
 */
export async function checkSetsUp(v: Variant, batchSeed: string, swap: boolean): Promise<void> {
  const p = await prepareVariant(v);
  for (const index of swap ? [0, 1] : [0]) {
    const id = gameIdentity(batchSeed, index, swap);
    const { sc, agents } = seatedGame(p, id);
    try {
      createGame(sc, { seed: id.seed, agents });
    } catch (err) {
      if (err instanceof DataError) throw err;
      return;
    }
  }
}

/**
 * A game of a batch set up again as the batch played it (`batch-game`, `replay --from-batch`): the scenario as
 * seated and the agents, made as the batch runner makes them, so that playing them with logging writes the
 * log `play --seed <seed> --agents <the batch's>` writes on that scenario. Throws when an agent cannot be
 * loaded or refuses its agentParams.
 */
export async function seatBatchGame(v: Variant, id: { seed: string; swapped: boolean }): Promise<{ sc: ResolvedScenario; agents: [Agent, Agent] }> {
  return seatedGame(await prepareVariant(v), id);
}

/** Play game `index` of a batch. Never throws: a game that throws comes back as a record with `error`. */
export function playBatchGame(p: PreparedVariant, batchSeed: string, index: number, swap: boolean): GameRecord {
  const { seed, swapped } = gameIdentity(batchSeed, index, swap);
  try {
    const { sc, agents } = seatedGame(p, { seed, swapped });
    const watched = [watchStratagemOffers(agents[0]), watchStratagemOffers(agents[1])] as const;
    const { game, result } = playGame(sc, { seed, agents: [watched[0].agent, watched[1].agent] });
    const offered = [[...watched[0].offered].sort(), [...watched[1].offered].sort()];
    return recordOf(game.state, index, seed, swapped, result.winner, result.rounds, result.endedBy, p.unitIds, offered);
  } catch (err) {
    const e = err as Error;
    const rec = emptyRecord(index, seed, swapped, `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}`);
    // an agent's error: its own stack (where in the agent it threw), not the engine's call to it
    const thrown = e instanceof IllegalDecisionError && e.cause instanceof Error ? e.cause : e;
    if (typeof thrown?.stack === 'string') rec.stack = thrown.stack.split('\n').slice(0, 8).join('\n');
    return rec;
  }
}

/**
 * Each army unit's line of a game: wounds dealt and taken, models killed, and 1 when it survived (models it
 * was mustered with alive; a Leader's models live in its Bodyguard unit). A unit that came back as a new
 * unit (UnitState.returnOf: JOIN THE HUNT) is counted as the army unit it stands for, and the line survives
 * when either is alive at the end. `seen` (survivorsOf) is worked out once a game for both armies.
 */
export function unitRecords(s: GameState, seat: PlayerIndex, unitIds: readonly string[], seen = survivorsOf(s)): UnitRecord[] {
  const { alive, returned } = seen;
  return unitIds.map((uid): UnitRecord => {
    const gid = gameUnitId(seat, uid);
    if (!s.units[gid]) return [0, 0, 0, 0];
    const rec: UnitRecord = [0, 0, 0, 0];
    for (const id of [gid, ...(returned.get(gid) ?? [])]) {
      const { stats } = s.units[id];
      rec[0] += stats.woundsDealt;
      rec[1] += stats.woundsTaken;
      rec[2] += stats.modelsKilled;
      if (alive.has(id)) rec[3] = 1;
    }
    return rec;
  });
}

/** The units whose mustered models are alive (by model origin), and the units that came back for each army unit. */
function survivorsOf(s: GameState): { alive: Set<string>; returned: Map<string, string[]> } {
  const alive = new Set<string>();
  const returned = new Map<string, string[]>();
  for (const id of s.unitOrder) {
    const u = s.units[id];
    for (const m of u.models) if (m.alive) alive.add(m.origin);
    if (u.returnOf) returned.set(u.returnOf, [...(returned.get(u.returnOf) ?? []), id]);
  }
  return { alive, returned };
}

/** `offered`: by seat, the stratagems offered in the game (sorted). */
function recordOf(s: GameState, index: number, seed: string, swapped: boolean, winnerSeat: PlayerIndex | null, rounds: number, endedBy: string, unitIds: [string[], string[]], offered: string[][]): GameRecord {
  const byArmy = <T>(f: (seat: PlayerIndex) => T): [T, T] => [f(seatOf(0, swapped)), f(seatOf(1, swapped))];
  const seen = survivorsOf(s);
  const units = byArmy((seat) => unitRecords(s, seat, unitIds[seatOf(seat, swapped)], seen));
  const stratagems = byArmy((seat) => {
    const out: Record<string, [number, number]> = {};
    for (const st of s.players[seat].stratagemsUsed) {
      const e = out[st.name] ?? (out[st.name] = [0, 0]);
      e[0] += 1;
      e[1] += st.cp;
    }
    return out;
  });
  return {
    index, seed, swapped,
    winner: winnerSeat === null ? null : seatOf(winnerSeat, swapped),
    vp: byArmy((seat) => s.players[seat].vp),
    vpByRound: byArmy((seat) => s.players[seat].vpByRound.slice()),
    rounds, endedBy,
    first: seatOf(s.firstPlayer, swapped),
    cpGained: byArmy((seat) => s.players[seat].cpGained),
    cpSpent: byArmy((seat) => s.players[seat].cpSpent),
    stratagems,
    offered: byArmy((seat) => offered[seat]),
    units,
    events: s.eventCount,
  };
}
