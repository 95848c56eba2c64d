/**
 * Scenario files: two armies, a mission, a deployment map and a terrain layout, checked and resolved
 * into a ResolvedScenario (src/data/scenario-types.ts) that the battle engine sets a game up from.
 *
 * ## The scenario file (JSON)
 *
 * ```jsonc
 * {
 *   "name": "Kauyon vs Battle Host",          // required
 *   "seed": "42",                              // optional, string or number (kept as a string)
 *   "mode": "strike-force",                    // "strike-force" (60" x 44", 2000 pts; default) or
 *                                              // "boarding-actions" (44" x 30", 500 pts, the Boarding Actions
 *                                              // stratagems and rules: src/rules/stratagems/boarding-actions.ts)
 *   "mission": {
 *     "name": "Take and Hold",                 // optional display name
 *     "deployment": "hammer-and-anvil",        // id of a bundled deployment (scenarios/missions/deployments.json),
 *                                              // or inline: { "name"?: "...", "zones": [attackerPolygon, defenderPolygon],
 *                                              //   "objectives": [point, ...] }, points as {"x":1,"y":2} or [1, 2]
 *                                              // (objective ids are "1", "2"... in the order given)
 *     "primary": "take-and-hold",              // registry name of the primary mission (default "take-and-hold")
 *     "rounds": 5,                             // battle rounds (default 5)
 *     "params": { "vpPerObjective": 5 }        // the primary mission's parameters, checked against those it reads
 *                                              // (take-and-hold: vpPerObjective, maxPerTurn, fromRound, maxTotal; default {})
 *   },
 *   "terrain": "tournament-a",                 // a bundled layout (scenarios/terrain/<name>.json), a path to a
 *                                              // layout file (ending in .json, relative to this file), or an inline list
 *                                              // of pieces { "id", "kind": "ruin"|"area"|"wall"|"impassable",
 *                                              // "polygon": [point, ...], "height" }; default: no terrain.
 *                                              // A layout file may also list "hatchways" (below)
 *   "hatchways": [                             // optional: doors in the walls (Boarding Actions), on top of the
 *     { "id": "h1", "polygon": [...], "open": false }  // layout's; closed ones block movement and sight like walls,
 *   ],                                         // open ones are gaps; they start closed unless "open": true
 *   "players": [                               // exactly two
 *     {
 *       "name": "T'au (Kauyon)",               // optional, default: the army's name
 *       "army": "armies/tau-kauyon.json",      // army file path relative to this file, or an inline army object
 *                                              // (the army file format of src/data/army.ts)
 *       "detachment": "Kauyon",                // optional: overrides the army's; null = "no detachment" baseline
 *       "agent": "random",                     // optional, default "random"
 *       "agentParams": {},                     // optional: the agent's parameters (it checks them; dropped if --agents replaces it)
 *       "zone": "attacker",                    // optional: player 1 defaults to attacker, player 2 to defender
 *       "leaders": { "u1": "u4" },             // Declare Battle Formations: Leader unit id -> Bodyguard unit id
 *                                              // (adds to / overrides the army file's `attachedTo`; null detaches)
 *       "transports": { "u7": "u8" },          // unit id -> id of the TRANSPORT it starts embarked within
 *       "reserves": { "u11": "deep-strike" },  // unit id -> "deep-strike" | "strategic"
 *       "formations": "scenario",              // or "agent": the agent attaches Leaders, picks Reserves and, with no "transports", fills the TRANSPORTs
 *       "withoutStratagems": ["A TEMPTING TRAP"]  // optional: stratagems this player is never offered (of its mode's core set,
 *                                              // its detachment's, or granted by an ability); what one is worth: `worth`,
 *                                              // or `compare` a batch with it and one without (`batch --without-stratagem`)
 *     },
 *     { ... }
 *   ]
 * }
 * ```
 *
 * ## What is checked (every error names the file, the field path and what was expected)
 * - the shape of the file (zod), and every unit id it names exists in that player's army;
 * - armies: the army file schema, the datasheets of the bundled faction (`checkArmyAgainstCatalog`);
 * - detachment: one of the faction's detachments in the data, plus the ones the engine implements that the
 *   export lacks (Aeldari "Battle Host"); Boarding Actions detachments only in Boarding Actions games;
 * - Warlord: exactly one, a CHARACTER; when the army marks none, the first CHARACTER is made Warlord (a warning);
 * - Leaders: the Leader's datasheet has the Leader ability and lists the Bodyguard's datasheet in its `leads`;
 *   a Bodyguard has one Leader (two of different datasheets for a BODYGUARD unit of 20 models: ./bodyguard.ts);
 *   a Leader is not itself led. Leader and Bodyguard are one unit from then on:
 *   embarking or going into Reserves with either of them takes both (the resolved `transports` and `reserves`
 *   name an Attached unit by its Bodyguard's id, as the engine merges the Leader into the Bodyguard unit);
 * - Transports: the transport has a capacity; the embarked unit has every keyword of `transport.keywords`
 *   (unit or faction keywords) and none of `excludedKeywords` (or is named in `transport.units`); the models
 *   embarked fit the capacity (`modelSpace` counted); a unit is not both embarked and in Reserves (a transport
 *   in Reserves carries its passengers along, which is allowed);
 * - Reserves: "deep-strike" needs every model (Leader included) to have Deep Strike; FORTIFICATIONS cannot go
 *   into Strategic Reserves. Points limits, as implemented:
 *     Strategic Reserves (10th edition core rules): the units placed into Strategic Reserves, with the units
 *       embarked in them, total at most 25% of the battle size's points limit (500 of 2000);
 *     all Reserves (the matched-play mission rule): the units in Reserves of any kind (Deep Strike and
 *       Strategic Reserves), with the units embarked in them, total at most 50% of the points limit.
 *   The matched-play cap on the number of units in Reserves is not checked.
 * - Points that do not match the data, an army over the mode's points limit: warnings
 *   (`ResolvedScenario.warnings`), not errors. An enhancement of another detachment than the one played (or of
 *   any, when none is) is not played, with a warning.
 *
 * Nothing is half-loaded: the loader either returns a complete ResolvedScenario or throws a DataError.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { BoardState, HatchwayState, MissionState, PlayerIndex, TerrainState } from '../core/state.ts';
import { defaultWarlord } from './muster-checks.ts';
import { armyPointsWarnings, checkArmyAgainstCatalog, closestWeapons, dataWeaponName, fieldPath, loadArmyFile, validateArmy, type ArmyFile, type ArmyUnit } from './army.ts';
import { knownDetachments, loadFactionCatalog, type FactionCatalog } from './catalog.ts';
import { unitOfHasKeyword, type Datasheet } from './datasheet.ts';
import { DataError } from './errors.ts';
import { unknownFieldMessage } from './unknown-field.ts';
import { mayJoinAsLeader, ONE_LEADER_RULE } from './bodyguard.ts';
import { mayLead } from './leader-stand-ins.ts';
import { deploymentsFromJson } from '../geometry/deployments.ts';
import { pointInPolygon, polygonsOverlap } from '../geometry/polygon.ts';
import { closestNames } from './fuzzy.ts';
import type { ReserveKind, ResolvedPlayer, ResolvedScenario } from './scenario-types.ts';
import { lookupKey } from './text.ts';
import { findPrimaryMission, primaryMissionNames } from '../rules/battle/missions.ts';
import { deepStrikeGrantFor, enhancementGivesDeepStrike, uncappedReserves } from './deep-strike-grants.ts';
import { namedByTransport, transportRefusal, transportSpace, type TransportCapacity } from './transport-capacity.ts';
import { bundledNamesake } from './project-path.ts';
// the stratagems a scenario may forbid are those the engine registers: every faction's, loaded here
import '../factions/index.ts';
import { coreSource, stratagemNamesFor } from '../rules/stratagems/registry.ts';

/** The bundled scenarios folder (scenarios/ at the project root). */
export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/**
 * The scenario a command given none plays (`npm start` names its copy), as a path from the working folder:
 * "scenarios/kauyon-vs-battle-host.json" at the project root, found from any other folder too (`npx strategium`).
 */
export const DEFAULT_SCENARIO = path.relative(process.cwd(), path.join(SCENARIOS_DIR, 'kauyon-vs-battle-host.json')).split(path.sep).join('/');
const DEPLOYMENTS_FILE = path.join(SCENARIOS_DIR, 'missions', 'deployments.json');
const TERRAIN_DIR = path.join(SCENARIOS_DIR, 'terrain');

export type GameMode = 'strike-force' | 'boarding-actions';

/** Board size and points limit of each game mode. */
export const MODES: Record<GameMode, { width: number; height: number; pointsLimit: number; label: string }> = {
  'strike-force': { width: 60, height: 44, pointsLimit: 2000, label: 'Strike Force' },
  'boarding-actions': { width: 44, height: 30, pointsLimit: 500, label: 'Boarding Actions' },
};

// ---------------------------------------------------------------------------------------------------
// schema

const nonEmpty = z.string().min(1, 'expected a non-empty string');
const unitId = z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected a unit id of the army (e.g. "u1")');

const pointSchema = z.union([
  z.strictObject({ x: z.number(), y: z.number() }),
  z.tuple([z.number(), z.number()]),
], { error: 'expected a point {"x": number, "y": number} or [x, y]' })
  .transform((p) => (Array.isArray(p) ? { x: p[0], y: p[1] } : { x: p.x, y: p.y }));

const polygonSchema = z.array(pointSchema).min(3, 'expected a polygon of at least 3 points');

const terrainPieceSchema = z.strictObject({
  id: nonEmpty,
  kind: z.enum(['ruin', 'area', 'wall', 'impassable']),
  polygon: polygonSchema,
  height: z.number().nonnegative('expected a height of 0 or more (inches)'),
});

const hatchwaySchema = z.strictObject({
  id: nonEmpty,
  polygon: polygonSchema,
  open: z.boolean().optional(),
});

const terrainLayoutSchema = z.strictObject({
  name: nonEmpty,
  credit: z.string().optional(),
  pieces: z.array(terrainPieceSchema),
  hatchways: z.array(hatchwaySchema).optional(),
});

const inlineDeploymentSchema = z.strictObject({
  name: nonEmpty.optional(),
  zones: z.tuple([polygonSchema, polygonSchema], { error: 'expected two zones: [attacker polygon, defender polygon]' }),
  objectives: z.array(pointSchema).min(1, 'expected at least one objective marker'),
});

const playerSchema = z.strictObject({
  name: nonEmpty.optional(),
  army: z.union([nonEmpty, z.record(z.string(), z.unknown())], { error: 'expected an army file path (string) or an inline army object' }),
  detachment: z.string().nullable().optional(),
  agent: nonEmpty.default('random'),
  agentParams: z.record(z.string(), z.unknown()).optional(),
  zone: z.enum(['attacker', 'defender']).optional(),
  leaders: z.record(unitId, unitId.nullable()).default({}),
  transports: z.record(unitId, unitId).default({}),
  reserves: z.record(unitId, z.enum(['deep-strike', 'strategic'])).default({}),
  /** who declares the Leaders and Reserves: the scenario (the fields above) or the player's agent */
  formations: z.enum(['scenario', 'agent']).default('scenario'),
  /** stratagems the player may not use (what one is worth: a batch with it against one without) */
  withoutStratagems: z.array(nonEmpty).optional(),
});

export const scenarioFileSchema = z.strictObject({
  name: nonEmpty,
  /** free text for the reader (what the scenario is for) */
  description: z.string().optional(),
  // refused empty, as --seed is (src/sim/cli-options.ts seedArg)
  seed: z.union([z.string().refine((x) => x.trim() !== '', 'expected a seed (non-empty text or a number)'), z.number()], { error: 'expected a seed (non-empty text or a number)' }).optional(),
  mode: z.enum(['strike-force', 'boarding-actions']).default('strike-force'),
  mission: z.strictObject({
    name: nonEmpty.optional(),
    deployment: z.union([nonEmpty, inlineDeploymentSchema], { error: 'expected a deployment id (string) or {zones, objectives}' }),
    primary: nonEmpty.default('take-and-hold'),
    rounds: z.number().int().min(1).max(10).default(5),
    params: z.record(z.string(), z.unknown()).default({}),
  }),
  terrain: z.union([nonEmpty, z.array(terrainPieceSchema)], { error: 'expected a terrain layout name (string) or a list of pieces' }).optional(),
  hatchways: z.array(hatchwaySchema).optional(),
  players: z.array(playerSchema).length(2, 'expected exactly two players'),
});

export type ScenarioFile = z.input<typeof scenarioFileSchema>;
type ParsedScenario = z.output<typeof scenarioFileSchema>;
type ParsedPlayer = z.output<typeof playerSchema>;
type Point = { x: number; y: number };

// ---------------------------------------------------------------------------------------------------
// errors

type FieldPath = (string | number)[];

/** Collects problems with their field paths; `throwIfAny` throws one DataError naming the file. */
class Problems {
  readonly list: string[] = [];
  constructor(readonly file: string) {}
  add(p: FieldPath, msg: string): void { this.list.push(`${fieldPath(p)}: ${msg}`); }
  throwIfAny(): void {
    if (!this.list.length) return;
    const shown = this.list.slice(0, 10).join('; ');
    throw new DataError(`${this.file}: ${shown}${this.list.length > 10 ? `; and ${this.list.length - 10} more` : ''}`, this.file);
  }
}

interface ZodIssueLike { code?: string; path: PropertyKey[]; message: string; errors?: ZodIssueLike[][]; keys?: string[] }

/**
 * Add zod issues to `probs`. A union that failed (a point, an army path or object, a deployment id or
 * object...) reports the issues of the branch whose type the value had, when there is one, so that an
 * inline terrain piece with a bad `kind` is named as such rather than as "expected a name or a list".
 */
function addZodIssues(probs: Problems, schema: unknown, issues: readonly ZodIssueLike[], prefix: FieldPath = []): void {
  for (const i of issues) {
    const at = [...prefix, ...(i.path as FieldPath)];
    if (i.code === 'invalid_union' && i.errors) {
      const typed = i.errors.filter((branch) => !(branch.length === 1 && branch[0].code === 'invalid_type' && branch[0].path.length === 0));
      if (typed.length === 1) { addZodIssues(probs, schema, typed[0], at); continue; }
    }
    // a misspelt field: the fields expected there, and the likely one
    if (i.code === 'unrecognized_keys' && i.keys) probs.add(at, unknownFieldMessage(schema, { path: at, keys: i.keys }));
    else probs.add(at, i.message);
  }
}

function fail(file: string, p: FieldPath, msg: string): never {
  throw new DataError(`${file}: ${fieldPath(p)}: ${msg}`, file);
}

function readJson(file: string, what: string): unknown {
  if (!existsSync(file)) throw new DataError(`${file}: ${what} not found${bundledNamesake(file)}`, file);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new DataError(`${file}: not valid JSON (${(e as Error).message})`, file);
  }
}

// ---------------------------------------------------------------------------------------------------
// deployments and terrain

/** A deployment map with its zones by side (absolute polygons). */
export interface DeploymentMap {
  id: string;
  name: string;
  zones: { attacker: Point[]; defender: Point[] };
  territories?: { attacker: Point[]; defender: Point[] };
  /** objective markers; the bundled maps number them "1".."5" in the file's order */
  objectives: { id: string; pos: Point }[];
}

let deploymentsCache: DeploymentMap[] | null = null;

/**
 * The bundled deployment maps (scenarios/missions/deployments.json: the deployment-patterns format, converted
 * by src/geometry/deployments.ts). The zones and objective positions are from wn-mitch/40kdc-data
 * (https://github.com/wn-mitch/40kdc-data), CC-BY-4.0.
 */
export function bundledDeployments(): DeploymentMap[] {
  if (deploymentsCache) return deploymentsCache;
  const json = readJson(DEPLOYMENTS_FILE, 'deployments file') as { deployments?: unknown };
  if (!Array.isArray(json?.deployments)) throw new DataError(`${DEPLOYMENTS_FILE}: expected {"deployments": [...]}`, DEPLOYMENTS_FILE);
  let maps: ReturnType<typeof deploymentsFromJson>;
  try {
    maps = deploymentsFromJson(json.deployments);
  } catch (e) {
    throw new DataError(`${DEPLOYMENTS_FILE}: ${(e as Error).message}`, DEPLOYMENTS_FILE);
  }
  const bySide = (list: { player: string; polygon: Point[] }[]) => {
    const a = list.find((z) => z.player === 'attacker');
    const d = list.find((z) => z.player === 'defender');
    return a && d ? { attacker: a.polygon, defender: d.polygon } : undefined;
  };
  deploymentsCache = maps.map((d) => {
    const zones = bySide(d.zones);
    if (!zones) throw new DataError(`${DEPLOYMENTS_FILE}: deployment ${d.id}: expected an attacker and a defender zone`, DEPLOYMENTS_FILE);
    return { id: d.id, name: d.name, zones, territories: bySide(d.territories), objectives: d.objectives.map((o) => ({ id: o.id, pos: { x: o.pos.x, y: o.pos.y } })) };
  });
  return deploymentsCache;
}

/** Names of the bundled terrain layouts (scenarios/terrain/*.json). */
export function bundledTerrainLayouts(): string[] {
  if (!existsSync(TERRAIN_DIR)) return [];
  return readdirSync(TERRAIN_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

/** Read and check a terrain layout file ({ name, pieces, hatchways? }). */
export function loadTerrainLayout(file: string): { name: string; pieces: TerrainState[]; hatchways?: HatchwayState[] } {
  const r = terrainLayoutSchema.safeParse(readJson(file, 'terrain layout'));
  if (!r.success) {
    const probs = new Problems(file);
    addZodIssues(probs, terrainLayoutSchema, r.error.issues as ZodIssueLike[]);
    probs.throwIfAny();
  }
  const layout = r.data!;
  const out: { name: string; pieces: TerrainState[]; hatchways?: HatchwayState[] } = {
    name: layout.name, pieces: layout.pieces.map((p) => ({ id: p.id, kind: p.kind, polygon: p.polygon, height: p.height })),
  };
  if (layout.hatchways) out.hatchways = layout.hatchways.map(hatchwayState);
  return out;
}

function hatchwayState(h: { id: string; polygon: Point[]; open?: boolean }): HatchwayState {
  return h.open ? { id: h.id, polygon: h.polygon, startsOpen: true } : { id: h.id, polygon: h.polygon };
}

function polygonArea(poly: Point[]): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i], q = poly[(i + 1) % poly.length];
    a += p.x * q.y - q.x * p.y;
  }
  return Math.abs(a) / 2;
}

const EDGE_TOLERANCE = 1e-6;
function onBoard(p: Point, board: { width: number; height: number }): boolean {
  return p.x >= -EDGE_TOLERANCE && p.y >= -EDGE_TOLERANCE && p.x <= board.width + EDGE_TOLERANCE && p.y <= board.height + EDGE_TOLERANCE;
}

function checkPolygon(probs: Problems, at: FieldPath, poly: Point[], board: { width: number; height: number }, what: string): void {
  if (polygonArea(poly) < 1e-9) probs.add(at, `expected ${what} with a non-zero area`);
  const off = poly.findIndex((p) => !onBoard(p, board));
  if (off >= 0) probs.add([...at, off], `expected a point on the ${board.width}" x ${board.height}" board, found (${poly[off].x}, ${poly[off].y})`);
}

// ---------------------------------------------------------------------------------------------------
// armies

function models(u: ArmyUnit): number {
  return u.models.reduce((s, m) => s + m.count, 0);
}


function hasCore(ds: Datasheet, name: string): boolean {
  return ds.coreAbilities.some((a) => lookupKey(a.name) === lookupKey(name));
}

/** The unit has the keyword (one of its models' only, too: Aun'Va is a CHARACTER Warlord). */
function hasKw(ds: Datasheet, kw: string): boolean {
  return unitOfHasKeyword(ds, kw);
}

/**
 * May a unit of datasheet `ds` embark within `transport`? null when it may, else why not. The export's
 * `excludedExceptions` follow the last excluded keyword ("cannot transport JUMP PACK models or YNNARI
 * models (excluding ASURYANI, YVRAINE and THE VISARCH models)"), so they exempt from that keyword only.
 */
export function embarkProblem(ds: Datasheet, transport: TransportCapacity): string | null {
  return namedByTransport(transport, ds.name) ? null : transportRefusal(transport, (k) => hasKw(ds, k));
}

/** Transport space the unit's models take ("each WRAITH CONSTRUCT model takes the space of 2 models"). */
function spaceTaken(u: ArmyUnit, ds: Datasheet, transport: TransportCapacity): number {
  return models(u) * transportSpace(transport, (k) => hasKw(ds, k));
}

interface PlayerContext {
  idx: number;
  army: ArmyFile;
  catalog: FactionCatalog;
  ds: (id: string) => Datasheet;
  unit: Map<string, ArmyUnit>;
}

function loadPlayerArmy(file: string, p: ParsedPlayer, idx: number, warnings: string[]): PlayerContext {
  const at: FieldPath = ['players', idx, 'army'];
  // an army file's messages start with its path; an inline army's with a label dropped from the message
  const inline = typeof p.army !== 'string';
  const label = typeof p.army === 'string' ? path.resolve(path.dirname(file), p.army) : 'inline army';
  const rethrow: (e: unknown, where?: FieldPath) => never = (e, where = at) => {
    const msg = (e as Error).message;
    fail(file, where, inline && msg.startsWith(`${label}: `) ? msg.slice(label.length + 2) : msg);
  };
  let army: ArmyFile;
  try {
    army = typeof p.army === 'string' ? loadArmyFile(label) : validateArmy(p.army, label);
  } catch (e) {
    rethrow(e);
  }
  let catalog: FactionCatalog;
  try {
    catalog = loadFactionCatalog(army.faction);
  } catch (e) {
    rethrow(e, inline ? [...at, 'faction'] : at);
  }
  try {
    for (const w of checkArmyAgainstCatalog(army, catalog, label)) warnings.push(`player ${idx + 1} (${army.name}): ${w}`);
  } catch (e) {
    rethrow(e);
  }
  const unit = new Map(army.units.map((u) => [u.id, u]));
  return { idx, army, catalog, unit, ds: (id) => catalog.byId(unit.get(id)!.datasheetId)! };
}

/**
 * Enhancements come from the army's Detachment (10th edition core rules, Muster Your Army): an Enhancement of
 * another detachment, or any when the army plays none (`--detachments none`, a matrix cell, `worth`), is not
 * played. It is taken off its unit, with its points off the unit's and the army's, and said in a warning.
 */
function dropOtherDetachmentsEnhancements(ctx: PlayerContext, detachment: string | null, warn: (w: string) => void): void {
  for (const u of ctx.army.units) {
    if (!u.enhancement) continue;
    const e = ctx.catalog.enhancement(u.enhancement, detachment ?? undefined);
    if (!e || lookupKey(e.detachment) === lookupKey(detachment ?? '')) continue;
    warn(`${unitLabel(u)} has ${e.name}, an enhancement of ${e.detachment}, while playing ${detachment ?? 'no detachment'}: not played (its ${e.cost} points are taken off)`);
    delete u.enhancement;
    u.points -= e.cost;
    ctx.army.points -= e.cost;
  }
}

function unitLabel(u: ArmyUnit): string {
  return `${u.name} (${u.id})`;
}

function resolveDetachment(
  file: string, probs: Problems, ctx: PlayerContext, p: ParsedPlayer, mode: GameMode, warnings: string[],
): string | null {
  const at: FieldPath = ['players', ctx.idx, p.detachment === undefined ? 'army' : 'detachment'];
  const asked = p.detachment === undefined ? (ctx.army.detachment || null) : p.detachment;
  if (asked === null || asked.trim() === '') return null;
  const known = knownDetachments(ctx.catalog);
  const hit = known.find((d) => lookupKey(d.name) === lookupKey(asked));
  if (!hit) {
    const field = p.detachment === undefined ? [...at, 'detachment'] : at;
    probs.add(field, `expected ${/^[AEIOU]/i.test(ctx.catalog.faction.name) ? 'an' : 'a'} ${ctx.catalog.faction.name} detachment, found ${JSON.stringify(asked)}; closest: ${closestNames(asked, known.map((d) => d.name)).join(', ')} (null plays without a detachment)`);
    return null;
  }
  const boarding = hit.type === 'Boarding Actions';
  if (boarding && mode !== 'boarding-actions') {
    probs.add(at, `${hit.name} is a Boarding Actions detachment; expected "mode": "boarding-actions" or a matched-play detachment`);
  } else if (!boarding && mode === 'boarding-actions') {
    warnings.push(`player ${ctx.idx + 1} (${ctx.army.name}): ${hit.name} is not a Boarding Actions detachment`);
  }
  void file;
  return hit.name;
}

// ---------------------------------------------------------------------------------------------------
// Declare Battle Formations

interface Formations {
  leaders: Record<string, string>;
  transports: Record<string, string>;
  reserves: Record<string, ReserveKind>;
}

function checkUnitId(probs: Problems, ctx: PlayerContext, at: FieldPath, id: string): boolean {
  if (ctx.unit.has(id)) return true;
  const ids = [...ctx.unit.keys()];
  const near = closestNames(id, ids, 3).map((x) => `${x} (${ctx.unit.get(x)!.name})`);
  probs.add(at, `expected a unit id of ${ctx.army.name}, found ${JSON.stringify(id)}; closest: ${near.join(', ')}`);
  return false;
}

function resolveFormations(probs: Problems, ctx: PlayerContext, p: ParsedPlayer, pointsLimit: number, detachment: string | null): Formations {
  const base: FieldPath = ['players', ctx.idx];

  // --- leaders: the army's attachedTo, then the scenario's entries (null detaches); none when the
  // agent declares them (the army's attachments are then ignored)
  const byAgent = p.formations === 'agent';
  if (byAgent) {
    for (const field of ['leaders', 'reserves'] as const) {
      if (Object.keys(p[field]).length) probs.add([...base, field], `with "formations": "agent" the agent declares the ${field === 'leaders' ? 'Leaders' : 'Reserves'}; expected no "${field}" entries`);
    }
  }
  const leaders: Record<string, string> = {};
  if (!byAgent) for (const u of ctx.army.units) if (u.attachedTo) leaders[u.id] = u.attachedTo;
  for (const [leader, bodyguard] of Object.entries(p.leaders)) {
    const at = [...base, 'leaders', leader];
    if (!checkUnitId(probs, ctx, at, leader)) continue;
    if (bodyguard === null) { delete leaders[leader]; continue; }
    if (!checkUnitId(probs, ctx, at, bodyguard)) continue;
    leaders[leader] = bodyguard;
  }
  const ledBy = new Map<string, string[]>();
  for (const [leader, bodyguard] of Object.entries(leaders)) {
    const at = [...base, 'leaders', leader];
    const lu = ctx.unit.get(leader)!, bu = ctx.unit.get(bodyguard)!;
    const lds = ctx.ds(leader), bds = ctx.ds(bodyguard);
    if (leader === bodyguard) { probs.add(at, `a unit cannot lead itself`); continue; }
    if (!hasCore(lds, 'Leader')) { probs.add(at, `${unitLabel(lu)} does not have the Leader ability`); continue; }
    if (!mayLead(lds, bds)) {
      const can = lds.leads.map((id) => ctx.catalog.byId(id)?.name ?? id);
      probs.add(at, `${unitLabel(lu)} cannot lead ${unitLabel(bu)}; expected a unit it can lead: ${can.length ? can.join(', ') : 'none in the data'}`);
      continue;
    }
    const already = ledBy.get(bodyguard) ?? [];
    if (already.length > 0 && !mayJoinAsLeader(bds, models(bu), already.map((l) => ctx.ds(l)), lds)) {
      probs.add(at, `${unitLabel(bu)} already has a Leader (${already.join(', ')}); ${ONE_LEADER_RULE}`);
      continue;
    }
    if (leaders[bodyguard]) { probs.add(at, `${unitLabel(bu)} is itself attached as a Leader; expected a Bodyguard unit`); continue; }
    ledBy.set(bodyguard, [...already, leader]);
  }
  const validLeaders: Record<string, string> = {};
  for (const [bodyguard, ls] of ledBy) for (const leader of ls) validLeaders[leader] = bodyguard;

  // --- transports and reserves. An Attached unit is one unit: it embarks and goes into Reserves as one,
  // under its Bodyguard's id (the engine moves the Leader's models into the Bodyguard unit); an entry for
  // the Leader is taken as one for the Attached unit.
  const canonical = (id: string) => (ledBy.has(id) ? id : validLeaders[id] ?? id);
  const members = (id: string) => (ledBy.has(id) ? [...ledBy.get(id)!, id] : [id]);
  const describe = (id: string) => members(id).map((m) => unitLabel(ctx.unit.get(m)!)).join(' + ');
  const modelsOf = (id: string) => members(id).reduce((s, m) => s + models(ctx.unit.get(m)!), 0);
  const pointsOf = (id: string) => members(id).reduce((s, m) => s + ctx.unit.get(m)!.points, 0);

  const transports: Record<string, string> = {};
  const transportField: Record<string, FieldPath> = {};
  for (const [unit, transport] of Object.entries(p.transports)) {
    const at = [...base, 'transports', unit];
    if (!checkUnitId(probs, ctx, at, unit) || !checkUnitId(probs, ctx, at, transport)) continue;
    const id = canonical(unit);
    if (transports[id] !== undefined && transports[id] !== transport) {
      probs.add(at, `${describe(id)} form one Attached unit and must embark within the same transport`);
      continue;
    }
    transports[id] = transport;
    transportField[id] = at;
  }
  const load = new Map<string, { space: number; units: string[] }>();
  for (const [unit, transport] of Object.entries(transports)) {
    const at = transportField[unit];
    const tu = ctx.unit.get(transport)!, tds = ctx.ds(transport);
    if (members(unit).includes(transport)) { probs.add(at, 'a unit cannot embark within itself'); continue; }
    if (!tds.transport) { probs.add(at, `${unitLabel(tu)} is not a TRANSPORT`); continue; }
    if (transports[canonical(transport)] !== undefined) { probs.add(at, `${unitLabel(tu)} is itself embarked; a TRANSPORT cannot carry units while embarked`); continue; }
    let space = 0, ok = true;
    for (const m of members(unit)) {
      const why = embarkProblem(ctx.ds(m), tds.transport);
      if (why) { probs.add(at, `${unitLabel(ctx.unit.get(m)!)} cannot embark within ${unitLabel(tu)}: ${why}`); ok = false; }
      space += spaceTaken(ctx.unit.get(m)!, ctx.ds(m), tds.transport);
    }
    if (!ok) continue;
    const l = load.get(transport) ?? { space: 0, units: [] };
    l.space += space;
    l.units.push(unit);
    load.set(transport, l);
  }
  for (const [transport, l] of load) {
    const cap = ctx.ds(transport).transport!.capacity;
    if (l.space > cap) {
      const list = l.units.map((u) => `${describe(u)}: ${modelsOf(u)}`).join(', ');
      probs.add(transportField[l.units[l.units.length - 1]], `${unitLabel(ctx.unit.get(transport)!)} has a transport capacity of ${cap} models; the units embarked within it take ${l.space} (${list})`);
    }
  }

  const reserves: Record<string, ReserveKind> = {};
  const reserveField: Record<string, FieldPath> = {};
  for (const [unit, kind] of Object.entries(p.reserves)) {
    const at = [...base, 'reserves', unit];
    if (!checkUnitId(probs, ctx, at, unit)) continue;
    const id = canonical(unit);
    if (reserves[id] !== undefined && reserves[id] !== kind) {
      probs.add(at, `${describe(id)} form one Attached unit and must go into the same kind of Reserves`);
      continue;
    }
    reserves[id] = kind;
    reserveField[id] = at;
  }
  const passengersOf = (transport: string) => Object.keys(transports).filter((u) => transports[u] === transport);
  // units an Enhancement gives Deep Strike in this step (Student of Kauyon), by Enhancement: the ones taken so far
  const enhancements = ctx.army.units.flatMap((u) => (u.enhancement ? [u.enhancement] : []));
  const granted = new Map<string, number>();
  let strategicPoints = 0, reservePoints = 0;
  for (const [unit, kind] of Object.entries(reserves)) {
    const at = reserveField[unit];
    if (transports[unit] !== undefined) {
      probs.add(at, `${describe(unit)} starts embarked within ${unitLabel(ctx.unit.get(transports[unit])!)}; a unit starts either embarked or in Reserves (put its transport into Reserves to bring it along)`);
      continue;
    }
    if (kind === 'deep-strike') {
      // an Enhancement of one of its members may give the whole unit Deep Strike (Webway Pathstone)
      const given = enhancementGivesDeepStrike(members(unit).map((m) => ctx.unit.get(m)!.enhancement));
      const without = given ? [] : members(unit).filter((m) => !hasCore(ctx.ds(m), 'Deep Strike'));
      const grant = without.length ? deepStrikeGrantFor(enhancements, ctx.ds(unit)) : null;
      if (grant) {
        const n = (granted.get(grant.enhancement) ?? 0) + 1;
        granted.set(grant.enhancement, n);
        if (n > grant.units) {
          probs.add(at, `${describe(unit)} does not have the Deep Strike ability, and ${grant.enhancement} gives it to at most ${grant.units} units (this is the ${n}th); expected "strategic" or a unit whose every model has Deep Strike`);
          continue;
        }
      } else if (without.length) {
        probs.add(at, `${without.map((m) => unitLabel(ctx.unit.get(m)!)).join(' and ')} ${without.length > 1 ? 'do' : 'does'} not have the Deep Strike ability; expected "strategic" or a unit whose every model has Deep Strike`);
        continue;
      }
    }
    if (kind === 'strategic' && members(unit).some((m) => hasKw(ctx.ds(m), 'FORTIFICATION'))) {
      probs.add(at, `${describe(unit)} is a FORTIFICATION and cannot be placed into Strategic Reserves`);
      continue;
    }
    const pts = pointsOf(unit) + passengersOf(unit).reduce((s, u) => s + pointsOf(u), 0);
    reservePoints += pts;
    // a rider of Ride the Wind waits outside the Strategic Reserves quarter (as the agents' formations let it)
    if (kind === 'strategic' && !members(unit).every((m) => uncappedReserves(detachment, (k) => hasKw(ctx.ds(m), k)))) strategicPoints += pts;
  }
  if (strategicPoints > pointsLimit * 0.25) {
    probs.add([...base, 'reserves'], `the units in Strategic Reserves (with the units embarked within them) total ${strategicPoints} points; expected at most 25% of the ${pointsLimit}-point limit (${pointsLimit * 0.25})`);
  }
  if (reservePoints > pointsLimit * 0.5) {
    probs.add([...base, 'reserves'], `the units in Reserves (Deep Strike and Strategic Reserves, with the units embarked within them) total ${reservePoints} points; expected at most half the ${pointsLimit}-point limit (${pointsLimit * 0.5})`);
  }
  return { leaders: validLeaders, transports, reserves };
}

// ---------------------------------------------------------------------------------------------------
// the loader

function resolvePlayer(
  file: string, probs: Problems, p: ParsedPlayer, idx: number, mode: GameMode, role: 'attacker' | 'defender', warnings: string[],
): ResolvedPlayer {
  const ctx = loadPlayerArmy(file, p, idx, warnings);
  const { pointsLimit, label } = MODES[mode];
  const who = `player ${idx + 1} (${ctx.army.name})`;
  const detachment = resolveDetachment(file, probs, ctx, p, mode, warnings);
  dropOtherDetachmentsEnhancements(ctx, detachment, (w) => warnings.push(`${who}: ${w}`));
  const formations = resolveFormations(probs, ctx, p, pointsLimit, detachment);

  // a copy of the army, with the Warlord and the Attached units as played
  const army: ArmyFile = structuredClone(ctx.army);
  for (const u of army.units) {
    delete u.attachedTo;
    const bodyguard = formations.leaders[u.id];
    if (bodyguard) u.attachedTo = bodyguard;
  }
  // weapons by their names in the data (the army file may differ in case or punctuation); a weapon the
  // datasheet does not have cannot be played (the army command only warns: a list export may need editing)
  army.units.forEach((u, i) => {
    const ds = ctx.ds(u.id);
    u.models.forEach((m, j) => {
      m.weapons = m.weapons.map((w, k) => {
        const name = dataWeaponName(ds, w);
        if (name === undefined) {
          probs.add(['players', idx, 'army', 'units', i, 'models', j, 'weapons', k], `${unitLabel(u)}: ${JSON.stringify(w)} is not a weapon of ${ds.name} in the data; closest: ${closestWeapons(ds, w)}`);
        }
        return name ?? w;
      });
    });
  });
  const warlords = army.units.filter((u) => u.warlord);
  if (warlords.length === 1) {
    const w = warlords[0];
    if (!hasKw(ctx.ds(w.id), 'CHARACTER')) probs.add(['players', idx, 'army'], `the Warlord ${unitLabel(w)} is not a CHARACTER`);
  } else if (warlords.length === 0) {
    const stand = defaultWarlord(army.units, (u) => ctx.ds(u.id), detachment);
    if (!stand) probs.add(['players', idx, 'army'], 'no Warlord is marked and the army has no CHARACTER to be one');
    else stand.unit.warlord = true; // the army's muster checks have warned of it (checkArmyAgainstCatalog)
  }

  // points: warnings only (as `army` gives them for the file, with the game's detachment and limit)
  for (const w of armyPointsWarnings(army, ctx.catalog, detachment, { name: label, pointsLimit })) warnings.push(`${who}: ${w}`);

  const datasheets: Record<string, Datasheet> = {};
  for (const u of army.units) datasheets[u.datasheetId] = ctx.catalog.byId(u.datasheetId)!;

  const player: ResolvedPlayer = {
    name: p.name ?? ctx.army.name,
    faction: ctx.catalog.faction.id,
    detachment,
    agent: p.agent,
    army,
    datasheets,
    leaders: formations.leaders,
    transports: formations.transports,
    reserves: formations.reserves,
    zone: idx,
    role,
  };
  if (p.agentParams) player.agentParams = p.agentParams;
  if (p.formations === 'agent') player.formations = 'agent';
  const without = resolveWithoutStratagems(probs, ctx, p, mode, detachment);
  if (without.length) player.withoutStratagems = without;
  return player;
}

/**
 * The stratagems the player may not use, as the engine names them (matched ignoring case and punctuation),
 * each once: a name the player could not use anyway (another detachment's, a misspelling) is an error
 * naming the closest ones, since forbidding it would change nothing and the batch would measure nothing.
 */
function resolveWithoutStratagems(probs: Problems, ctx: PlayerContext, p: ParsedPlayer, mode: GameMode, detachment: string | null): string[] {
  const out: string[] = [];
  if (!p.withoutStratagems) return out;
  const known = stratagemNamesFor(mode, detachment);
  p.withoutStratagems.forEach((asked, k) => {
    const at: FieldPath = ['players', ctx.idx, 'withoutStratagems', k];
    const hit = known.find((n) => lookupKey(n) === lookupKey(asked));
    if (!hit) {
      probs.add(at, `expected a stratagem of ${coreSource(mode)}${detachment ? ` or ${detachment}` : ''} (or one an ability grants), found ${JSON.stringify(asked)}; closest: ${closestNames(asked, known).join(', ')}`);
    } else if (out.includes(hit)) {
      probs.add(at, `${hit} is listed twice`);
    } else out.push(hit);
  });
  return out;
}

/** Resolve parsed scenario JSON (`file` names it in messages and anchors relative paths). */
export function resolveScenario(value: unknown, file: string): ResolvedScenario {
  const parsed = scenarioFileSchema.safeParse(value);
  if (!parsed.success) {
    const probs = new Problems(file);
    addZodIssues(probs, scenarioFileSchema, parsed.error.issues as ZodIssueLike[]);
    probs.throwIfAny();
  }
  const s: ParsedScenario = parsed.data!;
  const probs = new Problems(file);
  const warnings: string[] = [];
  const mode = s.mode as GameMode;
  const size = { width: MODES[mode].width, height: MODES[mode].height };

  // the primary mission: a name in the missions registry (a game would otherwise stop at its set-up)
  const primary = findPrimaryMission(s.mission.primary);
  if (!primary) fail(file, ['mission', 'primary'], `expected a primary mission (${primaryMissionNames().join(', ')}), found ${JSON.stringify(s.mission.primary)}`);
  // and the parameters it reads (a mission that reads none takes none)
  const params = (primary.params ?? z.strictObject({})).safeParse(s.mission.params);
  if (!params.success) {
    const issue = params.error.issues[0];
    const message = issue.code === 'unrecognized_keys' ? unknownFieldMessage(primary.params ?? z.strictObject({}), issue) : issue.message;
    fail(file, ['mission', 'params', ...issue.path.map((k) => (typeof k === 'number' ? k : String(k)))], `${message} (${s.mission.primary})`);
  }

  // deployment
  let deployment: DeploymentMap;
  if (typeof s.mission.deployment === 'string') {
    const all = bundledDeployments();
    const hit = all.find((d) => d.id === s.mission.deployment || lookupKey(d.name) === lookupKey(s.mission.deployment as string));
    if (!hit) fail(file, ['mission', 'deployment'], `expected a bundled deployment (${all.map((d) => d.id).join(', ')}), found ${JSON.stringify(s.mission.deployment)}; closest: ${closestNames(s.mission.deployment, all.map((d) => d.id)).join(', ')}`);
    deployment = hit;
  } else {
    const d = s.mission.deployment;
    deployment = {
      id: 'inline', name: d.name ?? 'Custom deployment', zones: { attacker: d.zones[0], defender: d.zones[1] },
      objectives: d.objectives.map((pos, i) => ({ id: String(i + 1), pos })),
    };
  }
  checkPolygon(probs, ['mission', 'deployment', 'zones', 0], deployment.zones.attacker, size, 'a deployment zone');
  checkPolygon(probs, ['mission', 'deployment', 'zones', 1], deployment.zones.defender, size, 'a deployment zone');
  // each player sets up wholly within their own zone: two zones that share ground leave no side to each
  if (polygonsOverlap(deployment.zones.attacker, deployment.zones.defender)) {
    probs.add(['mission', 'deployment', 'zones'], 'expected two deployment zones apart; the attacker\'s and the defender\'s overlap');
  }
  deployment.objectives.forEach(({ pos: o }, i) => {
    if (!onBoard(o, size)) probs.add(['mission', 'deployment', 'objectives', i], `expected an objective marker on the ${size.width}" x ${size.height}" board, found (${o.x}, ${o.y})`);
  });

  // terrain
  let terrain: TerrainState[] = [];
  let layoutHatchways: HatchwayState[] = [];
  let terrainLayout: string | undefined;
  if (typeof s.terrain === 'string') {
    const name = s.terrain;
    let layoutFile: string;
    if (name.endsWith('.json')) layoutFile = path.resolve(path.dirname(file), name);
    else {
      const known = bundledTerrainLayouts();
      if (!known.includes(name)) fail(file, ['terrain'], `expected a bundled terrain layout (${known.join(', ')}) or a path to a .json layout, found ${JSON.stringify(name)}; closest: ${closestNames(name, known).join(', ')}`);
      layoutFile = path.join(TERRAIN_DIR, `${name}.json`);
    }
    let layout: { name: string; pieces: TerrainState[]; hatchways?: HatchwayState[] };
    try {
      layout = loadTerrainLayout(layoutFile);
    } catch (e) {
      fail(file, ['terrain'], (e as Error).message);
    }
    terrain = layout.pieces;
    layoutHatchways = layout.hatchways ?? [];
    terrainLayout = name;
  } else if (s.terrain) {
    terrain = s.terrain.map((p) => ({ id: p.id, kind: p.kind, polygon: p.polygon, height: p.height }));
    terrainLayout = 'inline';
  }
  const pieceIds = new Set<string>();
  terrain.forEach((piece, i) => {
    const at: FieldPath = typeof s.terrain === 'string' ? ['terrain', `(${piece.id})`, 'polygon'] : ['terrain', i, 'polygon'];
    if (pieceIds.has(piece.id)) probs.add(typeof s.terrain === 'string' ? ['terrain'] : ['terrain', i, 'id'], `duplicate terrain piece id ${JSON.stringify(piece.id)}`);
    pieceIds.add(piece.id);
    checkPolygon(probs, at, piece.polygon, size, 'a terrain footprint');
  });
  // a marker no model can stand by: in the middle of impassable terrain
  deployment.objectives.forEach(({ pos: o }, k) => {
    const inside = terrain.find((piece) => piece.kind === 'impassable' && pointInPolygon(o, piece.polygon));
    if (inside) probs.add(['mission', 'deployment', 'objectives', k], `the objective marker at (${o.x}, ${o.y}) is inside impassable terrain ${JSON.stringify(inside.id)}; expected a marker models can reach`);
  });
  // hatchways: the layout's, then the scenario's own
  const hatchways: HatchwayState[] = [...layoutHatchways, ...(s.hatchways ?? []).map(hatchwayState)];
  hatchways.forEach((h, i) => {
    const own = i >= layoutHatchways.length;
    const at: FieldPath = own ? ['hatchways', i - layoutHatchways.length] : ['terrain', `(hatchway ${h.id})`];
    if (pieceIds.has(h.id)) probs.add(own ? [...at, 'id'] : at, `duplicate terrain piece or hatchway id ${JSON.stringify(h.id)}`);
    pieceIds.add(h.id);
    checkPolygon(probs, [...at, 'polygon'], h.polygon, size, 'a hatchway footprint');
  });

  // zones
  // zones: as given; one player's given zone decides the other's; otherwise player 1 attacks
  const other = (z: 'attacker' | 'defender') => (z === 'attacker' ? 'defender' : 'attacker');
  const given = s.players.map((p) => p.zone);
  const zones = given.map((z, i) => z ?? (given[1 - i] ? other(given[1 - i]!) : i === 0 ? 'attacker' : 'defender'));
  if (zones[0] === zones[1]) probs.add(['players', 1, 'zone'], `both players have the ${zones[0]} zone; expected one attacker and one defender`);
  probs.throwIfAny();

  const players = s.players.map((p, i) => resolvePlayer(file, probs, p, i, mode, zones[i], warnings)) as [ResolvedPlayer, ResolvedPlayer];
  probs.throwIfAny();

  const board: BoardState = {
    width: size.width,
    height: size.height,
    terrain,
    deploymentZones: ([0, 1] as PlayerIndex[]).map((player) => ({ player, polygon: deployment.zones[zones[player]].map((q) => ({ x: q.x, y: q.y })) })),
  };
  if (hatchways.length) board.hatchways = hatchways;
  const mission: MissionState = {
    name: s.mission.name ?? `${s.mission.primary} (${deployment.name})`,
    mode,
    rounds: s.mission.rounds,
    primary: s.mission.primary,
    params: s.mission.params,
  };
  const out: ResolvedScenario = {
    file,
    name: s.name,
    seed: s.seed === undefined ? null : String(s.seed),
    board,
    objectives: deployment.objectives.map((o) => ({ id: o.id, pos: { x: o.pos.x, y: o.pos.y } })),
    mission,
    players,
    deployment: { id: deployment.id, name: deployment.name },
    pointsLimit: MODES[mode].pointsLimit,
    warnings,
  };
  if (terrainLayout) out.terrainLayout = terrainLayout;
  if (deployment.territories) {
    const t = deployment.territories;
    out.territories = ([0, 1] as PlayerIndex[]).map((player) => ({ player, polygon: t[zones[player]].map((q) => ({ x: q.x, y: q.y })) }));
  }
  return out;
}

/** Read, check and resolve a scenario file. Throws DataError naming the file, the field and what was expected. */
export function loadScenario(file: string): ResolvedScenario {
  return resolveScenario(readJson(file, 'scenario file'), file);
}

/** Folders under scenarios/ that hold data other files refer to, not scenarios to play. */
const DATA_FOLDERS = new Set(['armies', 'terrain', 'calc', 'missions']);

/**
 * The bundled scenario files (scenarios/*.json), sorted; with `nested`, also those in its subfolders
 * (mirror/, boarding-actions/), the data folders excepted.
 */
export function bundledScenarios(opts: { nested?: boolean } = {}): string[] {
  if (!existsSync(SCENARIOS_DIR)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (opts.nested && !DATA_FOLDERS.has(e.name)) walk(file);
      } else if (e.name.endsWith('.json')) out.push(file);
    }
  };
  walk(SCENARIOS_DIR);
  return out;
}
