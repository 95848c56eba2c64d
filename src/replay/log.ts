/**
 * Reading a game's event log (JSONL: one event per line). Every line is checked: it must be JSON, an
 * object, a known event type with the fields that type needs. The first problem stops the reading
 * with an error naming the line; every event before it is kept, so a truncated or corrupted log
 * still replays up to that line.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { EventType, GameEvent } from '../core/events.ts';
import { fieldPath } from '../data/army.ts';
import { boardSchema, missionSchema, objectiveSchema, seat } from '../data/board-schema.ts';

export interface LogError {
  /** 1-based line of the file */
  line: number;
  message: string;
}

export interface ParsedLog {
  events: GameEvent[];
  /** line of the file each event came from (1-based), parallel to `events` */
  lines: number[];
  /** the first problem found, or null when the whole file was read */
  error: LogError | null;
}

type Check = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'player' | 'string|null' | 'player|null' | 'number[]' | 'phase' | 'any';

const PURPOSE = 'string';
const UNIT = 'string|null';

/** Fields each event type must have, and their kinds. */
const FIELDS: { [T in EventType]: Record<string, Check> } = {
  'game-started': { seed: 'string', rng: 'object', players: 'array', board: 'object', objectives: 'array', mission: 'object', datasheets: 'object' },
  'unit-created': { unit: 'object' },
  dice: { purpose: PURPOSE, player: 'player', unit: UNIT, sides: 'number', values: 'number[]', rng: 'object' },
  reroll: { purpose: PURPOSE, player: 'player', unit: UNIT, indices: 'number[]', old: 'number[]', values: 'number[]', rng: 'object', source: 'string' },
  'dice-substituted': { purpose: PURPOSE, player: 'player', unit: UNIT, index: 'number', old: 'number', value: 'number', source: 'string' },
  'round-started': { round: 'number' },
  'turn-started': { round: 'number', player: 'player' },
  'phase-started': { round: 'number', player: 'player', phase: 'phase' },
  'phase-ended': { round: 'number', player: 'player', phase: 'phase' },
  'first-turn': { player: 'player' },
  cp: { player: 'player', delta: 'number', reason: 'string' },
  vp: { player: 'player', amount: 'number', round: 'number', reason: 'string' },
  'models-placed': { unit: 'string', mode: 'string', positions: 'array' },
  'unit-moved': { unit: 'string', mode: 'string' },
  'unit-flag': { unit: 'string', flag: 'string', value: 'boolean' },
  'unit-location': { unit: 'string', location: 'string', embarkedIn: 'string|null' },
  'unit-attached': { leader: 'string', bodyguard: 'string' },
  'unit-detached': { leader: 'string', bodyguard: 'string' },
  'unit-joined': { unit: 'string', into: 'string' },
  'attack-allocated': { unit: 'string', model: 'string' },
  'model-damaged': { unit: 'string', model: 'string', wounds: 'number', by: 'string|null', mortal: 'boolean' },
  'model-healed': { unit: 'string', model: 'string', wounds: 'number' },
  'model-returned': { unit: 'string', model: 'string', wounds: 'number' },
  'model-destroyed': { unit: 'string', model: 'string', by: 'string|null', reason: 'string' },
  'unit-destroyed': { unit: 'string', component: 'string', by: 'string|null', player: 'player' },
  'battle-shock': { unit: 'string', value: 'boolean' },
  'effect-added': { effect: 'object' },
  'effect-removed': { id: 'number' },
  'stratagem-used': { player: 'player', name: 'string', cp: 'number', unit: 'string|null', round: 'number', turn: 'player', phase: 'string' },
  'objective-control': { objective: 'string', controller: 'player|null' },
  hatchway: { hatchway: 'string', open: 'boolean', unit: 'string|null' },
  'fallen-piled-in': { unit: 'string', positions: 'array' },
  'rule-state': { player: 'player', key: 'string', value: 'any' },
  decision: { player: 'player', agent: 'string', request: 'string', option: 'number' },
  note: { text: 'string' },
  'fork-point': { at: 'number' },
  'game-ended': { result: 'object' },
};

const PHASE_NAMES = new Set(['command', 'movement', 'shooting', 'charge', 'fight']);

function kindOk(v: unknown, c: Check): boolean {
  switch (c) {
    case 'any': return true;
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'boolean': return typeof v === 'boolean';
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'player': return v === 0 || v === 1;
    case 'string|null': return v === null || typeof v === 'string';
    case 'player|null': return v === null || v === 0 || v === 1;
    case 'number[]': return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
    case 'phase': return typeof v === 'string' && PHASE_NAMES.has(v);
  }
}

const DESCRIBE: Record<Check, string> = {
  any: 'a value', string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'an array',
  player: '0 or 1', 'string|null': 'a string or null', 'player|null': '0, 1 or null', 'number[]': 'an array of numbers',
  phase: 'a phase name (command, movement, shooting, charge, fight)',
};

function isPos(p: unknown): boolean {
  if (typeof p !== 'object' || p === null) return false;
  const q = p as Record<string, unknown>;
  return typeof q.x === 'number' && typeof q.y === 'number' && Number.isFinite(q.x) && Number.isFinite(q.y);
}

/** Why this value is not a valid event, or null when it is. */
export function checkEvent(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (typeof o.type !== 'string') return 'no "type" field';
  const fields = (FIELDS as Record<string, Record<string, Check>>)[o.type];
  if (!fields) return `unknown event type "${o.type}"`;
  for (const [k, c] of Object.entries(fields)) {
    if (!(k in o)) return `${o.type} event without "${k}"`;
    if (!kindOk(o[k], c)) return `${o.type} event: "${k}" should be ${DESCRIBE[c]}, got ${JSON.stringify(o[k])?.slice(0, 60)}`;
  }
  // nested shapes the reducer and the viewers rely on
  if (o.type === 'models-placed') {
    for (const p of o.positions as unknown[]) {
      const q = p as Record<string, unknown>;
      if (typeof q !== 'object' || q === null || typeof q.model !== 'string' || !isPos(q.pos)) return 'models-placed event: each position needs "model" and "pos" {x, y}';
    }
  } else if (o.type === 'unit-created') {
    const u = o.unit as Record<string, unknown>;
    if (typeof u.id !== 'string' || typeof u.name !== 'string' || !Array.isArray(u.models) || (u.player !== 0 && u.player !== 1)) return 'unit-created event: the unit needs "id", "name", "player" and "models"';
  } else if (o.type === 'game-ended') {
    const r = o.result as Record<string, unknown>;
    if (!Array.isArray(r.vp) || r.vp.length !== 2 || !r.vp.every((x) => typeof x === 'number')) return 'game-ended event: "result.vp" should be two numbers';
    if (r.winner !== null && r.winner !== 0 && r.winner !== 1) return 'game-ended event: "result.winner" should be 0, 1 or null';
    if (typeof r.rounds !== 'number' || typeof r.endedBy !== 'string') return 'game-ended event: "result" needs "rounds" and "endedBy"';
  } else if (o.type === 'game-started') {
    return gameStartedProblem(o);
  } else if (o.type === 'fork-point') {
    if (!Number.isInteger(o.at) || (o.at as number) < 1) return 'fork-point event: "at" should be an event number';
    if (o.seed !== undefined && typeof o.seed !== 'string') return 'fork-point event: "seed" should be a string';
    if (o.agents !== undefined && !(Array.isArray(o.agents) && o.agents.length === 2 && o.agents.every((a) => typeof a === 'string' && a !== ''))) return 'fork-point event: "agents" should be two agent names';
  } else if (o.type === 'effect-added') {
    const e = o.effect as Record<string, unknown>;
    if (typeof e.id !== 'number' || typeof e.kind !== 'string') return 'effect-added event: the effect needs "id" and "kind"';
  }
  return null;
}

const startedPlayer = z.object({ name: z.string(), faction: z.string(), detachment: z.string().nullable(), agent: z.string(), rules: z.array(z.string()) }).loose();
const startedShape = z.object({
  players: z.tuple([startedPlayer, startedPlayer], { error: 'expected two players' }),
  board: boardSchema,
  objectives: z.array(objectiveSchema.extend({ controller: seat.nullable() })),
  mission: missionSchema,
}).loose();

/**
 * What the reducer and the viewers read of game-started: its players, board, objectives and mission, in
 * full (a replay draws the board from them). Its "scenario" is not read here: a replay does without it,
 * and fork checks it in full (src/sim/embedded-scenario.ts).
 */
function gameStartedProblem(o: Record<string, unknown>): string | null {
  const r = startedShape.safeParse(o);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return `game-started event: ${fieldPath(issue.path)}: ${issue.message}`;
}

/**
 * Parse a log's text. Blank lines are allowed only at the end. The first event must be
 * `game-started`; nothing may follow `game-ended`.
 */
export function parseLog(text: string): ParsedLog {
  const events: GameEvent[] = [];
  const lines: number[] = [];
  const rows = text.split('\n');
  // a final newline leaves one empty row: not a line
  if (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  const endsWithNewline = text.endsWith('\n');
  let ended = false;
  for (let i = 0; i < rows.length; i++) {
    const line = i + 1;
    const raw = rows[i].endsWith('\r') ? rows[i].slice(0, -1) : rows[i];
    const fail = (message: string): ParsedLog => ({ events, lines, error: { line, message } });
    if (raw.trim() === '') {
      if (rows.slice(i).every((r) => r.trim() === '')) break;
      return fail('empty line inside the log');
    }
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (err) {
      const last = i === rows.length - 1 && !endsWithNewline;
      return fail(`${last ? 'truncated or invalid JSON (the last line is cut short?)' : 'invalid JSON'}: ${(err as Error).message}`);
    }
    const why = checkEvent(v);
    if (why) return fail(why);
    const e = v as GameEvent;
    if (events.length === 0 && e.type !== 'game-started') return fail(`the first event must be game-started, found ${e.type}`);
    if (events.length > 0 && e.type === 'game-started') return fail('a second game-started event');
    if (ended) return fail(`${e.type} event after game-ended`);
    if (e.type === 'game-ended') ended = true;
    events.push(e);
    lines.push(line);
  }
  if (events.length === 0 && rows.length === 0) return { events, lines, error: { line: 1, message: 'the log is empty' } };
  return { events, lines, error: null };
}

export function readLogFile(path: string): ParsedLog {
  return parseLog(readFileSync(path, 'utf8'));
}

/** "file.jsonl line 12: ..." */
export function formatLogError(err: LogError, file?: string): string {
  return `${file ? `${file} ` : ''}line ${err.line}: ${err.message}`;
}
