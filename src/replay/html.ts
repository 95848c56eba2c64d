/**
 * The browser viewer: one self-contained HTML file (no server, no network: a Content Security Policy
 * forbids every external load). The static board (terrain, deployment zones, objectives) is SVG from
 * src/geometry/svg.ts (Boarding Actions hatchways numbered, for the script to open and close them); the game is a JSON block of compact per-event frames (frames.ts) that the
 * inlined script (viewer.js) turns into positions, with a timeline, play/pause, step buttons, phase
 * markers, the event list with its dice, and unit details on hover.
 *
 * Names from the log never reach the markup unescaped: the title is XML-escaped, the SVG escapes
 * its own text, the JSON block escapes `<`, `>` and `&`, and the script writes text with textContent.
 */
import { readFileSync } from 'node:fs';
import { renderBoardSvg, xmlEscape } from '../geometry/svg.ts';
import type { Replay } from './replay.ts';
import { buildViewerData, type ViewerData } from './frames.ts';

const asset = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

/** JSON safe inside a <script> element: no "</script>", no "<!--", no HTML entities. */
export function jsonForScript(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function staticBoard(r: Replay): string {
  const s = r.snapshots[Math.min(1, r.length)];
  const svg = renderBoardSvg({
    board: { width: s.board.width, height: s.board.height, terrain: s.board.terrain },
    deploymentZones: s.board.deploymentZones.map((z) => ({ player: String(z.player), polygon: z.polygon, name: `${s.players[z.player]?.name ?? `player ${z.player + 1}`} deployment zone` })),
    objectives: s.objectives.map((o) => ({ id: o.id, pos: o.pos })),
    models: [],
    // as they stand at the start; the viewer opens and closes them with the events
    hatchways: (s.board.hatchways ?? []).map((h) => ({ id: h.id, polygon: h.polygon, open: (s.openHatchways ?? []).includes(h.id) })),
    scale: 12,
  });
  // inline SVG in HTML needs no namespace declaration: the file then names no URL at all
  return svg.replace(/ xmlns="[^"]*"/, '');
}

export interface HtmlOptions {
  title?: string;
}

export function buildViewerHtml(r: Replay, opts: HtmlOptions = {}): string {
  const data: ViewerData = buildViewerData(r, opts.title);
  const title = xmlEscape(`${data.title} - Strategium replay`);
  const player = (i: number) =>
    `<span class="pl p${i}"><span class="pn" id="pname${i}"></span> [<span id="agent${i}"></span>] CP <b id="cp${i}">0</b> VP <b id="vp${i}" data-testid="vp${i}">0</b></span>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>
${asset('viewer.css')}
</style>
</head>
<body>
<header>
<h1 id="title"></h1>
<span id="where"></span>
${player(0)}
${player(1)}
<span id="result" style="display:none"></span>
<span id="problems" style="display:none"></span>
</header>
<main>
<section>
<div id="board">
${staticBoard(r)}
</div>
<div id="controls">
<button id="first" title="first event (Home)" aria-label="first event">|◀</button>
<button id="prevphase" title="previous phase (↑)" aria-label="previous phase">◀◀</button>
<button id="prev" title="previous event (←)" aria-label="previous event">◀</button>
<button id="play" title="play / pause (space)" aria-label="play">Play</button>
<button id="next" title="next event (→)" aria-label="next event">▶</button>
<button id="nextphase" title="next phase (↓)" aria-label="next phase">▶▶</button>
<button id="last" title="last event (End)" aria-label="last event">▶|</button>
<input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="timeline">
<span id="pos"></span>
<select id="speed" title="events per second" aria-label="speed"><option value="4">4/s</option><option value="12" selected>12/s</option><option value="40">40/s</option><option value="150">150/s</option></select>
</div>
<div id="marks" title="battle rounds and phases"></div>
<div id="filters">show: <label><input type="checkbox" id="show-dice" checked> dice</label> <label><input type="checkbox" id="show-decision" checked> decisions</label> <label><input type="checkbox" id="show-other" checked> moves and bookkeeping</label></div>
<div id="events"></div>
</section>
<section id="side">
<div id="details"></div>
<div id="roster"></div>
</section>
</main>
<script type="application/json" id="replay-data">${jsonForScript(data)}</script>
<script>
${asset('viewer.js')}
</script>
</body>
</html>
`;
}
