import '../../src/rules/index.ts';
import '../../src/factions/index.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { Game } from '../../src/core/game.ts';
import { createStream, type Stream } from '../../src/core/rng.ts';
import { emptyGameState, type HatchwayState, type MissionState, type ModelState, type PhaseName, type PlayerIndex } from '../../src/core/state.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import type { Datasheet } from '../../src/data/datasheet.ts';
import type { Body } from '../../src/geometry/types.ts';
import { createUnitState, musterGrants } from '../../src/rules/muster.ts';
import { auraRules, playerRules } from '../../src/rules/factions.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';

export interface PlacedUnit {
  id: string;
  player: PlayerIndex;
  faction: 'tau' | 'aeldari';
  name: string;
  /** models of each composition line (default: the minimum) */
  counts?: number[];
  /** first model's centre; the others follow in a line along y */
  at: { x: number; y: number };
  spacing?: number;
  /** the unit's points (default 0) */
  points?: number;
  /** an Enhancement its model carries (played as the setup does: one more ability of the unit) */
  enhancement?: string;
  /** wargear the models of each composition line carry, as an army file names it (a Shield Generator) */
  wargear?: string[][];
}

/** An agent answering with a function of the request (default: the first option). */
export function scriptedAgent(name: string, pick: (req: DecisionRequest) => number = () => 0): Agent {
  return { name, decide: (_v, req) => ({ option: pick(req) }) };
}

export interface BattleSandboxOptions {
  stream?: Stream;
  agents?: [Agent, Agent];
  terrain?: { id: string; kind: 'ruin' | 'area' | 'wall' | 'impassable'; polygon: { x: number; y: number }[]; height: number }[];
  phase?: PhaseName;
  turn?: PlayerIndex;
  round?: number;
  cp?: [number, number];
  factions?: [string, string];
  detachments?: [string | null, string | null];
  /** game mode (default strike-force) */
  mode?: MissionState['mode'];
  /** board size (default 60 x 44) */
  size?: { width: number; height: number };
  /** hatchways (Boarding Actions) */
  hatchways?: HatchwayState[];
  /** objective markers (default: one, o1, at the centre of the board) */
  objectives?: { id: string; pos: { x: number; y: number } }[];
}

/** A battle in progress with units placed where a test wants them. */
/**
 * The sandbox of an Aeldari detachment's tests: player 0 (Aeldari, the detachment unless `opts.detachment` says
 * otherwise, 4 CP or `opts.cp`) answers with `pick`; player 1 (T'au, 3 CP) always with the first option. The
 * Shooting phase of battle round 1, player 0's turn, unless told otherwise.
 */
export function aeldariDetachmentSandbox(detachment: string) {
  return (units: PlacedUnit[], opts: { phase?: PhaseName; turn?: PlayerIndex; stream?: Stream; detachment?: string | null; round?: number; cp?: number } = {}, pick: (r: DecisionRequest) => number = () => 0): Game =>
    battleSandbox(units, {
      factions: ['AE', 'TAU'], phase: opts.phase ?? 'shooting', turn: opts.turn ?? 0, cp: [opts.cp ?? 4, 3], round: opts.round ?? 1,
      detachments: [opts.detachment === undefined ? detachment : opts.detachment, null],
      agents: [scriptedAgent('ae', pick), scriptedAgent('tau')], ...(opts.stream ? { stream: opts.stream } : {}),
    });
}

export function battleSandbox(units: PlacedUnit[], opts: BattleSandboxOptions = {}): Game {
  const stream = opts.stream ?? createStream('battle-sandbox');
  const g = new Game(emptyGameState(), { log: true, agents: opts.agents ?? [scriptedAgent('first'), scriptedAgent('first')] }, stream);
  const datasheets: Record<string, Datasheet> = {};
  const resolved = units.map((u) => {
    const ds = loadFactionCatalog(u.faction).byName(u.name);
    if (!ds) throw new Error(`no datasheet ${u.name}`);
    datasheets[ds.id] = ds;
    return { u, ds };
  });
  const factions = opts.factions ?? ['TAU', 'AE'];
  const W = opts.size?.width ?? 60;
  const H = opts.size?.height ?? 44;
  const dets = opts.detachments ?? [null, null];
  g.emit({
    type: 'game-started', seed: 'battle-sandbox', rng: stream.state(),
    players: [0, 1].map((i) => ({ name: `P${i + 1}`, faction: factions[i], detachment: dets[i], agent: 'scripted', rules: [...playerRules(factions[i], dets[i]), ...auraRules(resolved.filter((r) => r.u.player === i).map((r) => r.ds))] })),
    board: { width: W, height: H, terrain: opts.terrain ?? [], deploymentZones: [
      { player: 0, polygon: [{ x: 0, y: 0 }, { x: 12, y: 0 }, { x: 12, y: H }, { x: 0, y: H }] },
      { player: 1, polygon: [{ x: W - 12, y: 0 }, { x: W, y: 0 }, { x: W, y: H }, { x: W - 12, y: H }] },
    ], ...(opts.hatchways ? { hatchways: opts.hatchways } : {}) },
    objectives: (opts.objectives ?? [{ id: 'o1', pos: { x: W / 2, y: H / 2 } }]).map((o) => ({ ...o, controller: null })),
    mission: { name: 'sandbox', mode: opts.mode ?? 'strike-force', rounds: 5, primary: 'take-and-hold', params: {} },
    datasheets,
  });
  for (const { u, ds } of resolved) {
    // as a battle's muster does: what the army's rules give the unit (Rule.musterGrants), then its Enhancement
    const grants = musterGrants(playerRules(factions[u.player], dets[u.player]), ds);
    const unit = createUnitState({
      id: u.id, player: u.player, datasheet: ds, points: u.points,
      extraAbilities: [...(u.enhancement ? [u.enhancement] : []), ...grants.abilities], extraKeywords: grants.keywords,
      ...(u.enhancement ? { enhancement: u.enhancement } : {}),
      // the default loadout lists wargear too (a Flip Belt): keep the weapons
      models: ds.composition.map((c, i) => ({ profile: c.profile, count: u.counts?.[i] ?? c.min, weapons: (ds.defaultLoadout[c.profile] ?? []).filter((w) => ds.weapons.some((x) => x.name === w)), wargear: u.wargear?.[i] })).filter((m) => m.count > 0),
    });
    g.emit({ type: 'unit-created', unit });
    g.emit({ type: 'unit-location', unit: u.id, location: 'battlefield', embarkedIn: null });
    const spacing = u.spacing ?? 1.6;
    g.emit({ type: 'models-placed', unit: u.id, mode: 'test', positions: unit.models.map((m, i) => ({ model: m.id, pos: { x: u.at.x, y: u.at.y + i * spacing, z: 0 } })) });
  }
  g.emit({ type: 'first-turn', player: 0 });
  g.emit({ type: 'round-started', round: opts.round ?? 1 });
  g.emit({ type: 'turn-started', round: opts.round ?? 1, player: opts.turn ?? 0 });
  if (opts.cp) for (const p of [0, 1] as PlayerIndex[]) if (opts.cp[p]) g.emit({ type: 'cp', player: p, delta: opts.cp[p], reason: 'test' });
  g.emit({ type: 'phase-started', round: opts.round ?? 1, player: opts.turn ?? 0, phase: opts.phase ?? 'movement' });
  return g;
}

/**
 * Impassable walls 10" deep all round a pocket (x 28.7-31.3, y 20.7-23.3) that a Devilfish's hull at
 * (30, 22) barely fits: nowhere within 3" of it to set a model up.
 */
/**
 * A Commander in Crisis Battlesuit (a Plasma rifle, 24") with Crisis Fireknife Battlesuits (Plasma rifles, 18"):
 * the T'au player's units of a sandbox, to set beside its targets, and, once the game is made, the Commander
 * armed so and attached to them (two weapon groups of one name, each with its own Range).
 */
export const COMMANDER_AND_FIREKNIVES: PlacedUnit[] = [
  { id: 'CM', player: 0, faction: 'tau', name: 'Commander In Crisis Battlesuit', at: { x: 16, y: 10 } },
  { id: 'FK', player: 0, faction: 'tau', name: 'Crisis Fireknife Battlesuits', at: { x: 8, y: 6 } },
];
export function attachCommanderToFireknives(g: Game): { commander: ModelState; fireknives: ModelState[] } {
  g.state.units.CM.models[0].weapons = ['Plasma rifle', 'Battlesuit fists'];
  g.emit({ type: 'unit-attached', leader: 'CM', bodyguard: 'FK' });
  const s = g.state;
  const commander = s.units.FK.models.find((m) => s.datasheets[m.datasheet].name === 'Commander In Crisis Battlesuit')!;
  return { commander, fireknives: s.units.FK.models.filter((m) => m !== commander) };
}

export function pocketWalls() {
  const rect = (x0: number, y0: number, x1: number, y1: number) => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
  return [rect(18, 10, 28.7, 34), rect(31.3, 10, 42, 34), rect(28.7, 10, 31.3, 20.7), rect(28.7, 23.3, 31.3, 34)]
    .map((polygon, i) => ({ id: `w${i}`, kind: 'impassable' as const, polygon, height: 5 }));
}

/** The radius of a round base (placing models a set gap apart); throws for any other base. */
export function roundBaseRadius(b: Body): number {
  if (b.base.kind !== 'circle') throw new Error(`a round base was expected, not ${b.base.kind}`);
  return b.base.r;
}

/** Slide every model of `mover` along the line between the two units' first models, so that it ends exactly `gap` inches (edge to edge) from `other`. */
export function setGap(g: Game, mover: string, other: string, gap: number): void {
  for (let i = 0; i < 10; i++) {
    const s = g.state;
    const d = unitDistance(s, s.units[mover], s.units[other]);
    const a = s.units[mover].models[0].pos!;
    const b = s.units[other].models[0].pos!;
    const len = Math.hypot(a.x - b.x, a.y - b.y);
    const [ux, uy] = [(a.x - b.x) / len, (a.y - b.y) / len];
    g.emit({ type: 'models-placed', unit: mover, mode: 'test', positions: s.units[mover].models.filter((m) => m.alive && m.pos).map((m) => ({ model: m.id, pos: { ...m.pos!, x: m.pos!.x + ux * (gap - d), y: m.pos!.y + uy * (gap - d) } })) });
  }
  const d = unitDistance(g.state, g.state.units[mover], g.state.units[other]);
  if (Math.abs(d - gap) > 0.01) throw new Error(`setGap: ${mover} ended ${d}" from ${other}, not ${gap}"`);
}

/**
 * A sandbox with the Aeldari as player 0, whose agent answers with `pick` and records each request's kind
 * in `asked` (emptied first), against the T'au; in the Shooting phase unless `opts` says otherwise.
 */
export function aeldariSandbox(units: PlacedUnit[], asked: string[], opts: BattleSandboxOptions = {}, pick: (r: DecisionRequest) => number = () => 0): Game {
  asked.length = 0;
  const agent = scriptedAgent('ae', (r) => { asked.push(r.kind); return pick(r); });
  return battleSandbox(units, { factions: ['AE', 'TAU'], phase: 'shooting', agents: [agent, scriptedAgent('tau')], ...opts });
}
