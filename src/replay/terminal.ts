/**
 * The terminal replay. With a terminal on standard input it is a full-screen viewer driven by keys;
 * otherwise it reads one command per line (so it can be scripted or tested by piping commands) and
 * prints what each command shows.
 *
 * Keys: → n space next event, ← p previous, ↓ ] next phase, ↑ [ previous phase, d / D next / previous
 * decision, Home g start, End G end, a number then r: that battle round, a number then g: that event,
 * a number then → or ←: that many events, ? help, q quit.
 *
 * Line commands: n [k], p [k], np, pp, r N, g N (or just N), start, end, d, D, board, status, help, quit.
 */
import { createInterface } from 'node:readline';
import { emitKeypressEvents } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { describeEvent, playerName, whereText } from './format.ts';
import { renderBoardText, renderLegend, unitsOfEvent } from './board-text.ts';
import type { Replay } from './replay.ts';

export interface ViewOptions {
  ascii?: boolean;
  color?: boolean;
  /** terminal width (legend layout) */
  width?: number;
  /** terminal height (full-screen layout) */
  height?: number;
}

const HELP_KEYS = 'keys: →/n next  ←/p prev  ↓/] next phase  ↑/[ prev phase  d/D next/prev decision  <N>r round N  <N>g event N  g/G start/end  ? help  q quit';
const HELP_LINES = [
  'commands (one per line):',
  '  n [k] | next [k]        forward one (or k) events; an empty line is "n"',
  '  p [k] | prev [k]        back one (or k) events',
  '  np | next-phase | ]     to the start of the next phase',
  '  pp | prev-phase | [     to the start of the previous phase',
  '  r N | round N           to the start of battle round N',
  '  g N | goto N | N        to event N (the state after it)',
  '  start | end             to the first / last event',
  '  d | D                   next / previous decision of an agent',
  '  b | board               show the board',
  '  s | status              show where the game is, CP and VP',
  '  h | help                this help',
  '  q | quit                leave',
];

/** Text of event n (1-based), as the replay's position n shows it. */
export function eventText(r: Replay, n: number, whyMax = 400): string {
  if (n < 1 || n > r.length) return '';
  return describeEvent(r.events[n - 1], r.snapshots[n - 1], r.snapshots[n], { whyMax });
}

/** "[523/1817] round 2, T'au's turn, Shooting phase" and a line of CP/VP. */
export function headerLines(r: Replay): string[] {
  const s = r.state;
  const p = (i: 0 | 1) => `P${i + 1} ${playerName(s, i)} [${s.players[i].agent || '?'}]  CP ${s.players[i].cp}  VP ${s.players[i].vp}`;
  const e = r.event;
  const where = e?.type === 'round-started' ? `battle round ${e.round} begins`
    : e?.type === 'turn-started' ? `round ${e.round}, ${playerName(s, e.player)}'s turn begins` : whereText(s);
  return [`[${r.position}/${r.length}] ${where}`, `${p(0)}   |   ${p(1)}`];
}

function highlightOf(r: Replay): Set<string> {
  const e = r.event;
  return e ? unitsOfEvent(e as never) : new Set();
}

export function boardLines(r: Replay, o: ViewOptions): string[] {
  const hl = highlightOf(r);
  return [...renderBoardText(r.state, { ascii: o.ascii, color: o.color, highlight: hl }), ...renderLegend(r.state, { ascii: o.ascii, color: o.color, highlight: hl, width: o.width })];
}

function eventLine(r: Replay, n: number, current: boolean, width: number): string {
  const t = `${current ? '>' : ' '}${String(n).padStart(5)}  ${eventText(r, n)}`;
  return t.length > width ? `${t.slice(0, width - 1)}…` : t;
}

/**
 * The smallest screen the full-screen viewer lays out for (a terminal reporting a size of 0, as a pty
 * without one does, is taken as unknown: 100 x 50).
 */
const MIN_SCREEN = { width: 20, height: 10 };

/** A terminal's size as reported (0 or nothing: unknown), at least the smallest the viewer lays out for. */
function screenSize(reported: number | undefined, unknown: number, min: number): number {
  return Math.max(min, Math.floor(reported || unknown));
}

/** The whole screen of the full-screen viewer. */
export function renderScreen(r: Replay, o: ViewOptions & { help?: boolean; message?: string }): string {
  const width = screenSize(o.width, 100, MIN_SCREEN.width);
  const height = screenSize(o.height, 50, MIN_SCREEN.height);
  const head = headerLines(r);
  const board = renderBoardText(r.state, { ascii: o.ascii, color: o.color, highlight: highlightOf(r) });
  let legend = renderLegend(r.state, { ascii: o.ascii, color: o.color, highlight: highlightOf(r), width });
  const foot = [o.message ?? '', o.help ? HELP_KEYS : 'press ? for keys, q to quit'];
  let room = height - head.length - board.length - legend.length - foot.length;
  if (room < 6) {
    legend = legend.slice(0, Math.max(0, legend.length - (6 - room)));
    room = height - head.length - board.length - legend.length - foot.length;
  }
  const n = Math.max(1, room);
  const lines: string[] = [];
  // the current event last, preceded by the ones before it; the current one shows in full (why)
  const first = Math.max(1, r.position - n + 1);
  for (let i = first; i < r.position; i++) lines.push(eventLine(r, i, false, width));
  if (r.position >= 1) {
    const cur = `>${String(r.position).padStart(5)}  ${eventText(r, r.position, 2000)}`;
    lines.push(...wrap(cur, width).slice(0, Math.max(1, n - lines.length)));
  }
  return [...head, ...board, ...legend, ...lines, ...foot].join('\n');
}

/** Lines of at most `width` characters, the later ones indented under the event's number when there is room. */
function wrap(t: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  const indent = w > 14 ? '       ' : '';
  const out = [t.slice(0, w)];
  for (let i = w; i < t.length; i += w - indent.length) out.push(indent + t.slice(i, i + w - indent.length));
  return out;
}

/** Result of one line command. */
export interface CommandResult {
  quit?: boolean;
  /** text to print */
  out: string[];
}

/** Run one line command on the replay. */
/**
 * Back `k` events, no further than event 1, where `start` goes and `g` begins: position 0 is the state before
 * the game started, with no armies to show.
 */
function stepBack(r: Replay, k: number): void {
  r.goto(Math.max(Math.min(1, r.length), r.position - k));
}

export function runCommand(r: Replay, line: string, o: ViewOptions = {}): CommandResult {
  const [cmd = 'n', arg] = line.trim().split(/\s+/).filter(Boolean);
  const num = (d: number | null): number | null => {
    if (arg === undefined) return d;
    const v = Number(arg);
    return Number.isInteger(v) ? v : NaN;
  };
  const from = r.position;
  const moved = (showBoard: boolean): CommandResult => {
    const out: string[] = [];
    // stepping forward a little: every event passed, in order
    if (!showBoard && r.position > from && r.position - from <= 50) {
      out.push(...headerLines(r).slice(0, 1));
      for (let i = from + 1; i <= r.position; i++) out.push(`${String(i).padStart(6)}  ${eventText(r, i)}`);
      return { out };
    }
    out.push(...headerLines(r));
    if (showBoard) out.push(...boardLines(r, o));
    if (r.position >= 1) out.push(`${String(r.position).padStart(6)}  ${eventText(r, r.position)}`);
    return { out };
  };
  const bad = (msg: string): CommandResult => ({ out: [`? ${msg}`] });
  switch (cmd) {
    case 'n': case 'next': case '+': {
      const k = num(1);
      if (k === null || !Number.isInteger(k) || k < 0) return bad(`"${line.trim()}": expected a number of events`);
      if (r.position >= r.length) return { out: [`(at the last event, ${r.length})`] };
      r.next(k);
      return moved(false);
    }
    case 'p': case 'prev': case 'back': case '-': {
      const k = num(1);
      if (k === null || !Number.isInteger(k) || k < 0) return bad(`"${line.trim()}": expected a number of events`);
      stepBack(r, k);
      return moved(false);
    }
    case 'np': case 'next-phase': case ']': r.nextPhase(); return moved(true);
    case 'pp': case 'prev-phase': case '[': r.prevPhase(); return moved(true);
    case 'r': case 'round': {
      const k = num(null);
      if (k === null || !Number.isInteger(k)) return bad('round: which battle round? (r 2)');
      try {
        r.toRound(k);
      } catch (err) {
        return bad((err as Error).message);
      }
      return moved(true);
    }
    case 'g': case 'goto': {
      const k = num(null);
      if (k === null || !Number.isInteger(k)) return bad(`goto: which event? (g 100; 1..${r.length})`);
      if (noSuchEvent(r, k)) return bad(noSuchEvent(r, k)!);
      r.goto(k);
      return moved(true);
    }
    case 'start': r.start(); return moved(true);
    case 'end': r.end(); return moved(true);
    case 'd': case 'next-decision': r.nextOfType('decision'); return moved(false);
    case 'D': case 'prev-decision': r.prevOfType('decision'); return moved(false);
    case 'b': case 'board': return { out: [...headerLines(r), ...boardLines(r, o)] };
    case 's': case 'status': return { out: headerLines(r) };
    case 'h': case 'help': case '?': return { out: HELP_LINES };
    case 'q': case 'quit': case 'exit': return { quit: true, out: [] };
    default:
      if (/^\d+$/.test(cmd)) {
        if (noSuchEvent(r, Number(cmd))) return bad(noSuchEvent(r, Number(cmd))!);
        r.goto(Number(cmd));
        return moved(true);
      }
      return bad(`unknown command "${cmd}" (help lists them)`);
  }
}

/** Why event k cannot be gone to (as `r 42` refuses a round the game never reached), or undefined. */
function noSuchEvent(r: Replay, k: number): string | undefined {
  if (k >= 1 && k <= r.length) return undefined;
  return `no event ${k}: the log has events 1..${r.length}`;
}

/** Line mode: read commands until quit or the end of the input. */
export async function runLines(r: Replay, input: Readable, output: Writable, o: ViewOptions = {}): Promise<void> {
  output.write([...headerLines(r), ...boardLines(r, o), `${String(r.position).padStart(6)}  ${eventText(r, r.position)}`, 'commands: n p np pp r N g N start end d D board status help quit'].join('\n') + '\n');
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  for await (const line of rl) {
    const res = runCommand(r, line, o);
    if (res.out.length) output.write(res.out.join('\n') + '\n');
    if (res.quit) break;
  }
  rl.close();
}

interface Key { name?: string; ctrl?: boolean; sequence?: string }

/** Full-screen mode on a terminal: keys, redraw on every move and on resize. */
export function runKeys(r: Replay, input: NodeJS.ReadStream, output: NodeJS.WriteStream, o: ViewOptions = {}): Promise<void> {
  return new Promise((resolve) => {
    let help = false;
    let count = '';
    let message = '';
    const draw = () => {
      const screen = renderScreen(r, { ...o, width: output.columns || 100, height: (output.rows || 50) - 1, help, message: count ? `count: ${count}` : message });
      output.write(`\x1b[H\x1b[2J${screen}`);
      message = '';
    };
    const finish = () => {
      input.off('keypress', onKey);
      output.off('resize', draw);
      if (input.isTTY) input.setRawMode(false);
      input.pause();
      output.write('\x1b[?25h\x1b[?1049l');
      resolve();
    };
    const onKey = (str: string | undefined, key: Key = {}) => {
      const n = count ? Number(count) : null;
      const take = () => { count = ''; return n; };
      if ((key.ctrl && key.name === 'c') || str === 'q' || key.name === 'escape') return finish();
      if (str && /^[0-9]$/.test(str)) {
        count += str;
        return draw();
      }
      try {
        if (key.name === 'right' || str === 'n' || str === 'l' || str === ' ' || key.name === 'return') r.next(take() ?? 1);
        else if (key.name === 'left' || str === 'p' || str === 'h' || key.name === 'backspace') stepBack(r, take() ?? 1);
        else if (key.name === 'down' || str === ']' || str === 'j') { take(); r.nextPhase(); }
        else if (key.name === 'up' || str === '[' || str === 'k') { take(); r.prevPhase(); }
        else if (str === 'r') {
          const k = take();
          if (k === null) message = 'type the round number first, then r (e.g. 2r)';
          else r.toRound(k);
        } else if (str === 'g') {
          const k = take();
          if (k === null) r.start();
          else if (noSuchEvent(r, k)) message = noSuchEvent(r, k)!;
          else r.goto(k);
        } else if (str === 'G' || key.name === 'end') { take(); r.end(); }
        else if (key.name === 'home') { take(); r.start(); }
        else if (str === 'd') { take(); r.nextOfType('decision'); }
        else if (str === 'D') { take(); r.prevOfType('decision'); }
        else if (str === '?') { take(); help = !help; }
        else take();
      } catch (err) {
        message = (err as Error).message;
      }
      draw();
    };
    emitKeypressEvents(input);
    if (input.isTTY) input.setRawMode(true);
    input.resume();
    output.write('\x1b[?1049h\x1b[?25l');
    input.on('keypress', onKey);
    output.on('resize', draw);
    draw();
  });
}
