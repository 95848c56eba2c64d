/**
 * A picture of the board as SVG: deployment zones tinted per player, terrain, objective markers with
 * their 3" range, models on their real bases coloured by player, one label per unit. Pure: returns a
 * string. Every name is XML-escaped.
 */
import type { Board, Body, ObjectiveMarker, Vec2 } from './types.ts';
import { OBJECTIVE_MARKER_RADIUS } from './types.ts';
import { OBJECTIVE_RANGE_HORIZONTAL } from './ranges.ts';
import { baseHalfExtents } from './shape.ts';

export interface PictureModel {
  id: string;
  unitId: string;
  unitName?: string;
  player: string;
  body: Body;
  destroyed?: boolean;
}

export interface BoardPicture {
  board: Board;
  title?: string;
  deploymentZones?: { player: string; polygon: Vec2[]; name?: string }[];
  objectives?: ObjectiveMarker[];
  models: PictureModel[];
  /** Boarding Actions hatchways (doors in the walls): drawn closed like a wall, or open as an outlined gap */
  hatchways?: { id: string; polygon: Vec2[]; open: boolean }[];
  highlights?: {
    /** models to ring */
    modelIds?: string[];
    /** paths to draw (e.g. planned moves) */
    paths?: Vec2[][];
    /** points to mark */
    points?: Vec2[];
    color?: string;
  };
  /** pixels per inch (default 12) */
  scale?: number;
}

const PLAYER_COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea'];
const ZONE_COLOURS = ['#93c5fd', '#fca5a5', '#86efac', '#d8b4fe'];
const TERRAIN_STYLE: Record<string, { fill: string; stroke: string; opacity: number }> = {
  ruin: { fill: '#78716c', stroke: '#44403c', opacity: 0.55 },
  area: { fill: '#65a30d', stroke: '#3f6212', opacity: 0.35 },
  wall: { fill: '#1f2937', stroke: '#111827', opacity: 0.9 },
  impassable: { fill: '#0f172a', stroke: '#020617', opacity: 0.7 },
};

/** How a hatchway looks closed and open (the replay viewer switches between them: keep it in step). */
export const HATCHWAY_STYLE = { closed: { opacity: 0.9, dash: 'none' }, open: { opacity: 0.12, dash: '0.3 0.2' } } as const;

/** Escapes text for use in SVG/XML content and attribute values. */
export function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

function num(v: number): string {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
}

function points(poly: Vec2[]): string {
  return poly.map((p) => `${num(p.x)},${num(p.y)}`).join(' ');
}

/** A hatchway: closed, a door in the wall (as solid as one); open, the gap outlined. */
function hatchwaySvg(h: NonNullable<BoardPicture['hatchways']>[number], i: number): string {
  const look = h.open ? HATCHWAY_STYLE.open : HATCHWAY_STYLE.closed;
  return `<polygon points="${points(h.polygon)}" class="hatchway" data-hatchway="${i}" fill="#92400e" fill-opacity="${look.opacity}" stroke="#451a03" stroke-width="0.08" stroke-dasharray="${look.dash}"><title>${xmlEscape(`hatchway ${h.id} (${h.open ? 'open' : 'closed'})`)}</title></polygon>`;
}

/** Renders the picture. Coordinates in the SVG are inches (scaled by a viewBox), y down like the board. */
export function renderBoardSvg(picture: BoardPicture): string {
  const { board } = picture;
  const scale = picture.scale ?? 12;
  const W = board.width;
  const H = board.height;
  // players in order of first appearance in zones, then models: a stable colour each
  const players: string[] = [];
  const addPlayer = (p: string) => {
    if (!players.includes(p)) players.push(p);
  };
  for (const z of picture.deploymentZones ?? []) addPlayer(z.player);
  for (const m of picture.models) addPlayer(m.player);
  const colour = (p: string) => PLAYER_COLOURS[players.indexOf(p) % PLAYER_COLOURS.length];
  const zoneColour = (p: string) => ZONE_COLOURS[players.indexOf(p) % ZONE_COLOURS.length];
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(W * scale)}" height="${num(H * scale)}" viewBox="0 0 ${num(W)} ${num(H)}" font-family="sans-serif">`,
  );
  if (picture.title) out.push(`<title>${xmlEscape(picture.title)}</title>`);
  out.push(`<rect x="0" y="0" width="${num(W)}" height="${num(H)}" fill="#f5f5dc" stroke="#333" stroke-width="0.1"/>`);
  // 6" grid lines, faint
  for (let x = 6; x < W; x += 6) out.push(`<line x1="${x}" y1="0" x2="${x}" y2="${num(H)}" stroke="#ddd" stroke-width="0.03"/>`);
  for (let y = 6; y < H; y += 6) out.push(`<line x1="0" y1="${y}" x2="${num(W)}" y2="${y}" stroke="#ddd" stroke-width="0.03"/>`);
  out.push('<g id="zones">');
  for (const z of picture.deploymentZones ?? []) {
    const label = z.name ?? z.player;
    out.push(
      `<polygon points="${points(z.polygon)}" fill="${zoneColour(z.player)}" fill-opacity="0.35" stroke="${colour(z.player)}" stroke-width="0.08"><title>${xmlEscape(label)}</title></polygon>`,
    );
  }
  out.push('</g><g id="terrain">');
  for (const t of board.terrain) {
    const st = TERRAIN_STYLE[t.kind] ?? TERRAIN_STYLE.ruin;
    out.push(
      `<polygon points="${points(t.polygon)}" fill="${st.fill}" fill-opacity="${st.opacity}" stroke="${st.stroke}" stroke-width="0.08"><title>${xmlEscape(`${t.id} (${t.kind}, ${t.height}")`)}</title></polygon>`,
    );
  }
  // hatchways stand in the terrain: `data-hatchway` numbers them for the replay viewer, which opens and closes them
  (picture.hatchways ?? []).forEach((h, i) => out.push(hatchwaySvg(h, i)));
  out.push('</g><g id="objectives">');
  for (const o of picture.objectives ?? []) {
    const R = OBJECTIVE_MARKER_RADIUS;
    out.push(
      `<circle cx="${num(o.pos.x)}" cy="${num(o.pos.y)}" r="${num(R + OBJECTIVE_RANGE_HORIZONTAL)}" fill="none" stroke="#b45309" stroke-width="0.06" stroke-dasharray="0.4 0.3"/>`,
      `<circle cx="${num(o.pos.x)}" cy="${num(o.pos.y)}" r="${num(R)}" fill="#f59e0b" stroke="#78350f" stroke-width="0.06"><title>${xmlEscape(o.id)}</title></circle>`,
      `<text x="${num(o.pos.x)}" y="${num(o.pos.y + 0.25)}" font-size="0.7" text-anchor="middle" fill="#451a03">${xmlEscape(o.id)}</text>`,
    );
  }
  out.push('</g><g id="models">');
  const ring = new Set(picture.highlights?.modelIds ?? []);
  const hl = xmlEscape(picture.highlights?.color ?? '#f97316');
  for (const m of picture.models) {
    const fill = m.destroyed ? '#9ca3af' : colour(m.player);
    const opacity = m.destroyed ? 0.4 : 0.85;
    const stroke = ring.has(m.id) ? hl : '#111';
    const sw = ring.has(m.id) ? 0.12 : 0.04;
    const title = `<title>${xmlEscape(`${m.unitName ?? m.unitId} / ${m.id}`)}</title>`;
    const { pos, base } = m.body;
    const common = `fill="${fill}" fill-opacity="${opacity}" stroke="${stroke}" stroke-width="${sw}"`;
    if (base.kind === 'circle') {
      out.push(`<circle cx="${num(pos.x)}" cy="${num(pos.y)}" r="${num(base.r)}" ${common}>${title}</circle>`);
    } else if (base.kind === 'oval') {
      out.push(
        `<ellipse cx="0" cy="0" rx="${num(base.rx)}" ry="${num(base.ry)}" transform="translate(${num(pos.x)} ${num(pos.y)}) rotate(${num((base.angle * 180) / Math.PI)})" ${common}>${title}</ellipse>`,
      );
    } else {
      out.push(
        `<rect x="${num(-base.l / 2)}" y="${num(-base.w / 2)}" width="${num(base.l)}" height="${num(base.w)}" transform="translate(${num(pos.x)} ${num(pos.y)}) rotate(${num((base.angle * 180) / Math.PI)})" ${common}>${title}</rect>`,
      );
    }
  }
  out.push('</g><g id="labels">');
  // one label per unit, centred above its models still on the table, in order of first appearance
  const units: { unitId: string; name: string; player: string; xs: number; top: number; n: number }[] = [];
  for (const m of picture.models) {
    if (m.destroyed) continue;
    let u = units.find((v) => v.unitId === m.unitId);
    if (!u) {
      u = { unitId: m.unitId, name: m.unitName ?? m.unitId, player: m.player, xs: 0, top: Infinity, n: 0 };
      units.push(u);
    }
    u.xs += m.body.pos.x;
    u.top = Math.min(u.top, m.body.pos.y - baseHalfExtents(m.body.base).y);
    u.n++;
  }
  for (const u of units) {
    const x = u.xs / u.n;
    const y = Math.max(0.8, u.top - 0.3);
    out.push(
      `<text x="${num(x)}" y="${num(y)}" font-size="0.8" text-anchor="middle" fill="${colour(u.player)}" stroke="#fff" stroke-width="0.15" paint-order="stroke">${xmlEscape(u.name)}</text>`,
    );
  }
  out.push('</g>');
  if (picture.highlights?.paths || picture.highlights?.points) {
    out.push('<g id="highlights">');
    for (const path of picture.highlights.paths ?? []) {
      if (path.length < 2) continue;
      out.push(`<polyline points="${points(path)}" fill="none" stroke="${hl}" stroke-width="0.08"/>`);
    }
    for (const p of picture.highlights.points ?? []) {
      out.push(`<circle cx="${num(p.x)}" cy="${num(p.y)}" r="0.25" fill="${hl}"/>`);
    }
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
