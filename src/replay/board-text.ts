/**
 * The board as text for the terminal: one character per inch across and per two inches down (a
 * terminal cell is about twice as tall as wide), so a 60" x 44" board is 60 x 22 characters.
 * Terrain, deployment zones, objectives with their range, and the models of each unit shown by the
 * unit's letter (player 1 upper case, player 2 lower case); a legend says which letter is which unit.
 */
import type { GameState, PlayerIndex, UnitState } from '../core/state.ts';

export interface TextBoardOptions {
  /** plain ASCII instead of Unicode block characters */
  ascii?: boolean;
  /** ANSI colours (player colours, terrain, highlighted units) */
  color?: boolean;
  /** units to show in reverse video (the units of the current event) */
  highlight?: ReadonlySet<string>;
}

const OBJECTIVE_REACH = 3 + 20 / 25.4; // 3" from a 40 mm marker

const ANSI = {
  reset: '\x1b[0m', dim: '\x1b[2m', bold: '\x1b[1m', inverse: '\x1b[7m',
  p: ['\x1b[1;34m', '\x1b[1;31m'], zone: ['\x1b[34m', '\x1b[31m'], obj: '\x1b[1;33m', terrain: '\x1b[90m', grey: '\x1b[90m',
};

const GREEK_UPPER = 'ΓΔΘΛΞΠΣΦΨΩ';
const GREEK_LOWER = 'αβγδεζηθλμξπσφψω';

/** A stable letter per unit (order of creation, per player). */
export function unitLetters(s: GameState, ascii = false): Map<string, string> {
  const out = new Map<string, string>();
  const count = [0, 0];
  for (const id of s.unitOrder) {
    const u = s.units[id];
    const k = count[u.player]++;
    const base = u.player === 0 ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' : 'abcdefghijklmnopqrstuvwxyz';
    const extra = ascii ? '' : u.player === 0 ? GREEK_UPPER : GREEK_LOWER;
    out.set(id, k < 26 ? base[k] : extra[k - 26] ?? (u.player === 0 ? '@' : '&'));
  }
  return out;
}

function insidePolygon(x: number, y: number, poly: readonly { x: number; y: number }[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i], b = poly[j];
    if ((a.y > y) !== (b.y > y) && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

interface Cell { ch: string; style: string }

/** The board, framed, as lines of text. */
export function renderBoardText(s: GameState, opts: TextBoardOptions = {}): string[] {
  const W = Math.max(1, Math.round(s.board.width));
  const H = Math.max(1, Math.ceil(s.board.height / 2));
  const ascii = opts.ascii ?? false;
  const color = opts.color ?? false;
  const grid: Cell[][] = [];
  for (let r = 0; r < H; r++) {
    const row: Cell[] = [];
    for (let c = 0; c < W; c++) {
      const x = c + 0.5, y = 2 * r + 1;
      let cell: Cell = { ch: ascii ? '.' : '·', style: ANSI.grey };
      for (const z of s.board.deploymentZones) if (insidePolygon(x, y, z.polygon)) cell = { ch: ':', style: ANSI.zone[z.player] ?? '' };
      for (const t of s.board.terrain) {
        if (!insidePolygon(x, y, t.polygon)) continue;
        const ch = t.kind === 'ruin' ? (ascii ? '#' : '▓') : t.kind === 'area' ? (ascii ? '%' : '░') : ascii ? 'X' : '█';
        cell = { ch, style: ANSI.terrain };
      }
      // Boarding Actions hatchways: drawn while closed (open ones are gaps in the wall)
      for (const h of s.board.hatchways ?? []) {
        if (insidePolygon(x, y, h.polygon) && !(s.openHatchways ?? []).includes(h.id)) cell = { ch: ascii ? 'H' : '▒', style: ANSI.terrain };
      }
      for (const o of s.objectives) {
        if (Math.hypot(x - o.pos.x, y - o.pos.y) <= OBJECTIVE_REACH && cell.ch !== '#' && cell.ch !== '▓') cell = { ch: '+', style: ANSI.obj };
      }
      row.push(cell);
    }
    grid.push(row);
  }
  for (const o of s.objectives) {
    const c = Math.min(W - 1, Math.max(0, Math.floor(o.pos.x)));
    const r = Math.min(H - 1, Math.max(0, Math.floor(o.pos.y / 2)));
    const style = o.controller === null ? ANSI.obj : `${ANSI.p[o.controller]}${ANSI.inverse}`;
    grid[r][c] = { ch: ascii ? 'O' : '◎', style };
  }
  const letters = unitLetters(s, ascii);
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.location !== 'battlefield') continue;
    const hl = opts.highlight?.has(id) ?? false;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      const c = Math.min(W - 1, Math.max(0, Math.floor(m.pos.x)));
      const r = Math.min(H - 1, Math.max(0, Math.floor(m.pos.y / 2)));
      grid[r][c] = { ch: letters.get(id) ?? '?', style: `${ANSI.p[u.player]}${hl ? ANSI.inverse : ''}` };
    }
  }
  const h = ascii ? '-' : '─';
  const v = ascii ? '|' : '│';
  const [tl, tr, bl, br] = ascii ? ['+', '+', '+', '+'] : ['┌', '┐', '└', '┘'];
  const lines = [`${tl}${h.repeat(W)}${tr}`];
  for (const row of grid) {
    let line = v;
    let cur = '';
    for (const cell of row) {
      if (color && cell.style !== cur) {
        line += ANSI.reset + cell.style;
        cur = cell.style;
      }
      line += cell.ch;
    }
    if (color) line += ANSI.reset;
    lines.push(line + v);
  }
  lines.push(`${bl}${h.repeat(W)}${br}`);
  return lines;
}

function status(u: UnitState): string {
  if (u.location === 'destroyed') return 'destroyed';
  if (u.location === 'reserves') return 'reserves';
  if (u.location === 'strategic-reserves') return 'strat. reserves';
  if (u.location === 'embarked') return 'embarked';
  if (u.location === 'unplaced') return 'not deployed';
  return '';
}

/**
 * Which letter is which unit: models alive / Starting Strength, where it is when not on
 * the battlefield, Battle-shocked. Units led by a Leader show both names. Attached Leaders are not
 * listed on their own.
 */
export function renderLegend(s: GameState, opts: TextBoardOptions & { width?: number } = {}): string[] {
  const width = opts.width ?? 80;
  const color = opts.color ?? false;
  const letters = unitLetters(s, opts.ascii);
  const entries: { text: string; player: PlayerIndex; hl: boolean; gone: boolean }[] = [];
  for (const p of [0, 1] as PlayerIndex[]) {
    for (const id of s.unitOrder) {
      const u = s.units[id];
      if (u.player !== p || u.location === 'attached') continue;
      const alive = u.models.filter((m) => m.alive);
      const st = status(u);
      const name = u.components.length > 1 ? u.components.map((c) => c.name).join('+') : u.name;
      const flags = [st, u.battleShocked && u.location !== 'destroyed' ? 'shocked' : ''].filter(Boolean).join(',');
      const text = `${letters.get(id)} ${alive.length}/${u.startingStrength} ${name}${flags ? ` (${flags})` : ''}`;
      entries.push({ text, player: p, hl: opts.highlight?.has(id) ?? false, gone: u.location === 'destroyed' });
    }
  }
  const perRow = Math.max(1, Math.min(3, Math.floor(width / 26)));
  const colW = Math.max(26, Math.floor(width / perRow));
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i += perRow) {
    let line = '';
    for (const e of entries.slice(i, i + perRow)) {
      let t = e.text.length > colW - 1 ? `${e.text.slice(0, colW - 2)}…` : e.text;
      t = t.padEnd(colW);
      if (color) {
        const st = e.gone ? ANSI.grey : `${ANSI.zone[e.player]}${e.hl ? ANSI.inverse : ''}`;
        line += `${st}${t.trimEnd()}${ANSI.reset}${' '.repeat(t.length - t.trimEnd().length)}`;
      } else line += t;
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** Units an event is about (to highlight on the board). */
export function unitsOfEvent(e: { type: string } & Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const k of ['unit', 'leader', 'bodyguard', 'by', 'component']) {
    const v = e[k];
    if (typeof v === 'string') out.add(v);
  }
  if (e.type === 'decision' && typeof e.choice === 'object' && e.choice !== null) {
    const c = e.choice as Record<string, unknown>;
    for (const k of ['unit', 'target']) if (typeof c[k] === 'string') out.add(c[k] as string);
    if (Array.isArray(c.targets)) for (const t of c.targets) if (typeof t === 'string') out.add(t);
  }
  if (e.type === 'effect-added' && typeof e.effect === 'object' && e.effect !== null) {
    const u = (e.effect as Record<string, unknown>).unit;
    if (typeof u === 'string') out.add(u);
  }
  return out;
}
