/**
 * Step-by-step replay of a logged game. Every state is rebuilt once with immer (`applyImmutable`):
 * `snapshots[i]` is the frozen state after the first i events, sharing unchanged parts with its
 * neighbours, so moving back and forth is an array lookup and returns the very same object.
 *
 * Replaying needs no dice and no rules: only the reducer. An event the reducer cannot apply (a unit
 * that does not exist...) ends the replay there with an error naming its line, like a corrupted line.
 */
import { applyImmutable } from '../core/reducer.ts';
import type { GameEvent } from '../core/events.ts';
import { emptyGameState, type GameResult, type GameState, type PhaseName, type PlayerIndex } from '../core/state.ts';
import { unknownUnitReference } from './references.ts';
import { formatLogError, parseLog, readLogFile, type LogError, type ParsedLog } from './log.ts';

/** A place worth jumping to: the start of the setup, of a phase, the end of the game. */
export interface Mark {
  /** position (number of events applied) just after the marking event */
  position: number;
  kind: 'setup' | 'round' | 'phase' | 'end';
  round: number;
  player: PlayerIndex | null;
  phase: PhaseName | null;
  label: string;
}

export interface Verification {
  /** the log ends with game-ended and every line was read */
  complete: boolean;
  /** the recorded result agrees with the folded state */
  ok: boolean;
  problems: string[];
}

export class Replay {
  readonly events: readonly GameEvent[];
  /** line of the file of each event (1-based) */
  readonly lines: readonly number[];
  /** snapshots[i]: state after the first i events; snapshots[0] is the empty state */
  readonly snapshots: readonly GameState[];
  /** the first problem of the log, when it is truncated or corrupted */
  readonly error: LogError | null;
  readonly marks: readonly Mark[];
  private pos: number;

  constructor(parsed: ParsedLog) {
    const snapshots: GameState[] = [Object.freeze(emptyGameState()) as GameState];
    let error = parsed.error;
    let n = parsed.events.length;
    let s = snapshots[0];
    for (let i = 0; i < parsed.events.length; i++) {
      try {
        const unknown = unknownUnitReference(s, parsed.events[i]);
        if (unknown) throw new Error(unknown);
        s = applyImmutable(s, parsed.events[i]);
      } catch (err) {
        // the reducer could not apply it: the log is inconsistent from this line on
        error = { line: parsed.lines[i], message: `${parsed.events[i].type} event cannot be applied: ${(err as Error).message}` };
        n = i;
        break;
      }
      snapshots.push(s);
    }
    this.events = n === parsed.events.length ? parsed.events : parsed.events.slice(0, n);
    this.lines = parsed.lines.slice(0, n);
    this.snapshots = snapshots;
    this.error = error;
    this.marks = computeMarks(this.events);
    this.pos = Math.min(1, this.events.length);
  }

  static fromText(text: string): Replay {
    return new Replay(parseLog(text));
  }

  static fromFile(path: string): Replay {
    return new Replay(readLogFile(path));
  }

  static fromEvents(events: readonly GameEvent[]): Replay {
    return new Replay({ events: events.slice(), lines: events.map((_, i) => i + 1), error: null });
  }

  /** number of events that replay */
  get length(): number {
    return this.events.length;
  }

  /** events applied so far (0..length) */
  get position(): number {
    return this.pos;
  }

  get state(): GameState {
    return this.snapshots[this.pos];
  }

  /** the last applied event (the one the position shows), or null at position 0 */
  get event(): GameEvent | null {
    return this.pos > 0 ? this.events[this.pos - 1] : null;
  }

  /** state after `n` events, without moving */
  at(n: number): GameState {
    return this.snapshots[clamp(n, 0, this.length)];
  }

  goto(n: number): GameState {
    this.pos = clamp(Math.trunc(n), 0, this.length);
    return this.state;
  }

  next(k = 1): GameState {
    return this.goto(this.pos + k);
  }

  prev(k = 1): GameState {
    return this.goto(this.pos - k);
  }

  start(): GameState {
    return this.goto(Math.min(1, this.length));
  }

  end(): GameState {
    return this.goto(this.length);
  }

  /** the next mark after the position (or the end) */
  nextPhase(): GameState {
    const m = this.marks.find((x) => x.position > this.pos && x.kind !== 'round');
    return this.goto(m ? m.position : this.length);
  }

  /** the previous mark before the position (or the start) */
  prevPhase(): GameState {
    let best: Mark | undefined;
    for (const m of this.marks) if (m.position < this.pos && m.kind !== 'round') best = m;
    return this.goto(best ? best.position : Math.min(1, this.length));
  }

  /** the start of battle round n; throws when the log has no such round */
  toRound(n: number): GameState {
    const m = this.marks.find((x) => x.kind === 'round' && x.round === n);
    if (!m) {
      const rounds = this.marks.filter((x) => x.kind === 'round').map((x) => x.round);
      throw new Error(`no battle round ${n} in this log${rounds.length ? ` (rounds ${rounds[0]}-${rounds[rounds.length - 1]})` : ' (it has no battle round)'}`);
    }
    return this.goto(m.position);
  }

  /** the next position whose event is of a type (e.g. 'decision'), or stays put */
  nextOfType(type: GameEvent['type']): GameState {
    for (let i = this.pos; i < this.length; i++) if (this.events[i].type === type) return this.goto(i + 1);
    return this.state;
  }

  prevOfType(type: GameEvent['type']): GameState {
    for (let i = this.pos - 2; i >= 0; i--) if (this.events[i].type === type) return this.goto(i + 1);
    return this.state;
  }

  /** the mark the position is in (the last one at or before it) */
  currentMark(): Mark | null {
    let best: Mark | null = null;
    for (const m of this.marks) if (m.position <= this.pos && m.kind !== 'round') best = m;
    return best;
  }

  /** the game-ended event's result, when the log has one */
  get recordedResult(): GameResult | null {
    const last = this.events[this.length - 1];
    return last && last.type === 'game-ended' ? last.result : null;
  }

  /** Check that the log's recorded result matches the state folded from its events. */
  verify(): Verification {
    const problems: string[] = [];
    if (this.error) problems.push(formatLogError(this.error));
    const r = this.recordedResult;
    const s = this.snapshots[this.length];
    if (!r) {
      problems.push(`the log ends before the game-ended event (${this.length} events replayed)`);
      return { complete: false, ok: false, problems };
    }
    const folded: [number, number] = [s.players[0].vp, s.players[1].vp];
    if (r.vp[0] !== folded[0] || r.vp[1] !== folded[1]) problems.push(`recorded VP ${r.vp[0]}-${r.vp[1]} but the events add up to ${folded[0]}-${folded[1]}`);
    if (r.rounds !== s.round) problems.push(`recorded ${r.rounds} battle rounds but the events reach round ${s.round}`);
    const alive = [0, 1].map((p) => s.unitOrder.some((id) => {
      const u = s.units[id];
      return u.player === p && u.location !== 'destroyed' && u.location !== 'attached' && u.models.some((m) => m.alive);
    }));
    let expected: PlayerIndex | null = folded[0] > folded[1] ? 0 : folded[1] > folded[0] ? 1 : null;
    if (r.endedBy === 'army-destroyed') {
      // as the engine decides it: the first player with no unit left loses
      const loser = !alive[0] ? 0 : !alive[1] ? 1 : null;
      if (loser === null) problems.push('recorded as ended by an army destroyed, but both armies have units left');
      else expected = loser === 0 ? 1 : 0;
    }
    if (r.endedBy !== 'error' && r.winner !== expected) {
      problems.push(`recorded winner ${r.winner === null ? 'none (draw)' : `player ${r.winner + 1}`} but the events give ${expected === null ? 'a draw' : `player ${expected + 1}`}`);
    }
    const complete = this.error === null;
    return { complete, ok: problems.length === 0, problems };
  }
}

function clamp(n: number, lo: number, hi: number): number {
  return n < lo ? lo : n > hi ? hi : n;
}

const PHASE_LABEL: Record<PhaseName, string> = { command: 'Command', movement: 'Movement', shooting: 'Shooting', charge: 'Charge', fight: 'Fight' };

function computeMarks(events: readonly GameEvent[]): Mark[] {
  const marks: Mark[] = [];
  if (events.length > 0) marks.push({ position: 1, kind: 'setup', round: 0, player: null, phase: null, label: 'setup' });
  events.forEach((e, i) => {
    if (e.type === 'round-started') marks.push({ position: i + 1, kind: 'round', round: e.round, player: null, phase: null, label: `round ${e.round}` });
    else if (e.type === 'phase-started') marks.push({ position: i + 1, kind: 'phase', round: e.round, player: e.player, phase: e.phase, label: `R${e.round} P${e.player + 1} ${PHASE_LABEL[e.phase]}` });
    else if (e.type === 'game-ended') marks.push({ position: i + 1, kind: 'end', round: e.result.rounds, player: null, phase: null, label: 'end' });
  });
  return marks;
}

export { formatLogError };
