/**
 * The views of a game against what they may meet: the HTML viewer of a Boarding Actions game (hatchways
 * drawn, opening and closing with the events; `board` draws them as doors too), the full-screen terminal on a terminal reporting no size,
 * a typed event number beyond the log, `board` on a log of one event and on a damaged game state, `replay --html` with options it refuses.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/core/agent-loader.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { loadScenario, SCENARIOS_DIR } from '../../src/data/scenario.ts';
import { renderBoardSvg } from '../../src/geometry/svg.ts';
import { pictureOfState } from '../../src/rules/battle/picture.ts';
import { buildViewerData } from '../../src/replay/frames.ts';
import { buildViewerHtml } from '../../src/replay/html.ts';
import { Replay } from '../../src/replay/replay.ts';
import { parseLog } from '../../src/replay/log.ts';
import { eventText, renderScreen, runKeys } from '../../src/replay/terminal.ts';
import { playGame } from '../../src/sim/play.ts';
import { cli } from '../helpers/cli.ts';
import { loggedGame } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'views-'));
const text = (events: readonly GameEvent[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the HTML viewer of a Boarding Actions game', () => {
  let replay: Replay;
  let html: string;
  /** the position after the first hatchway opens, and its board index */
  let opened: { position: number; index: number };

  beforeAll(async () => {
    const sc = loadScenario(join(SCENARIOS_DIR, 'boarding-actions', 'starfire-vs-aeldari.json'));
    const { game } = playGame(sc, { seed: '7', agents: await loadAgents(['random', 'random'], '7'), log: true });
    replay = Replay.fromEvents(game.log!);
    html = buildViewerHtml(replay);
    const k = game.log!.findIndex((e) => e.type === 'hatchway' && e.open);
    const id = (game.log![k] as Extract<GameEvent, { type: 'hatchway' }>).hatchway;
    opened = { position: k + 1, index: (sc.board.hatchways ?? []).findIndex((h) => h.id === id) };
  });

  it('draws every hatchway in the terrain, closed at the start, and its frames say when they open', () => {
    const hatchways = replay.at(1).board.hatchways ?? [];
    expect(hatchways.length).toBeGreaterThan(0);
    const i = html.indexOf('<g id="terrain">');
    const terrain = html.slice(i, html.indexOf('</g>', i));
    expect(terrain.match(/data-hatchway="\d+"/g)).toHaveLength(hatchways.length);
    expect(terrain).toContain(`<title>hatchway ${hatchways[0].id} (closed)</title>`);
    const data = buildViewerData(replay);
    expect(data.hatchways).toEqual(hatchways.map((h) => h.id));
    // the open hatchways as each frame leaves them
    let open: number[] = [];
    data.frames.forEach(([, , d], k) => {
      if (d.a) open = d.a;
      if (k + 1 === opened.position) expect(open).toContain(opened.index);
      if (k + 1 === opened.position - 1) expect(open).not.toContain(opened.index);
    });
  });

  it('board draws the hatchways as doors, open or closed as they stand (a closed one is not a plain wall)', () => {
    const before = pictureOfState(replay.at(opened.position - 1));
    const after = pictureOfState(replay.at(opened.position));
    const id = replay.at(1).board.hatchways![opened.index].id;
    // the terrain is the board's own; the hatchways are drawn on their own, each with its state
    expect(before.board.terrain.map((t) => t.id)).toEqual(replay.at(1).board.terrain.map((t) => t.id));
    expect(before.hatchways?.find((h) => h.id === id)?.open).toBe(false);
    expect(after.hatchways?.find((h) => h.id === id)?.open).toBe(true);
    expect(renderBoardSvg(before)).toContain(`<title>hatchway ${id} (closed)</title>`);
    expect(renderBoardSvg(after)).toContain(`<title>hatchway ${id} (open)</title>`);
  });

  it.skipIf(!existsSync(CHROMIUM))('shows a hatchway open once it opened, closed before (headless Chromium)', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const file = join(dir, 'ba.html');
      writeFileSync(file, html);
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => (window as unknown as { strategiumReplay?: unknown }).strategiumReplay !== undefined);
      const look = async (p: number) => {
        await page.evaluate((n) => (window as unknown as { strategiumReplay: { seek(n: number): void } }).strategiumReplay.seek(n), p);
        return page.$eval(`[data-hatchway="${opened.index}"]`, (e) => [e.getAttribute('fill-opacity'), e.querySelector('title')!.textContent]);
      };
      const [closedOpacity, closedTitle] = await look(opened.position - 1);
      const [openOpacity, openTitle] = await look(opened.position);
      expect(closedTitle).toMatch(/\(closed\)$/);
      expect(openTitle).toMatch(/\(open\)$/);
      expect(Number(openOpacity)).toBeLessThan(Number(closedOpacity));
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('the full-screen terminal replay', () => {
  it('lays out on a terminal that reports 0 columns and rows (a pty without a size)', async () => {
    const r = Replay.fromEvents((await loggedGame('41')).events);
    r.goto(40);
    expect(() => renderScreen(r, { width: 0, height: -1 })).not.toThrow();
    expect(renderScreen(r, { width: 0, height: 0 })).toBe(renderScreen(r, { width: 100, height: 50 }));
  });

  it('says so when a typed event number is beyond the log, and stays where it was (keys 9 9 9 9 9 g)', async () => {
    const r = Replay.fromEvents((await loggedGame('41')).events);
    r.goto(40);
    const input = new PassThrough() as unknown as NodeJS.ReadStream;
    let screen = '';
    const output = Object.assign(new EventEmitter(), { columns: 100, rows: 50, write: (t: string) => { screen = t; return true; } }) as unknown as NodeJS.WriteStream;
    const done = runKeys(r, input, output);
    for (const k of ['9', '9', '9', '9', '9']) input.emit('keypress', k, { name: k });
    input.emit('keypress', 'g', { name: 'g' });
    expect(r.position).toBe(40);
    expect(screen).toContain(`no event 99999: the log has events 1..${r.length}`);
    input.emit('keypress', '7', { name: '7' });
    input.emit('keypress', 'g', { name: 'g' });
    expect(r.position).toBe(7);
    input.emit('keypress', 'q', { name: 'q' });
    await done;
  });

  it('wraps the current event to the width without losing a character', async () => {
    const g = await loggedGame('41');
    const r = Replay.fromEvents(g.events);
    // the event of the first 300 with the longest text
    let k = 0;
    for (let i = 1; i < 300; i++) if (eventText(r, i + 1, 2000).length > eventText(r, k + 1, 2000).length) k = i;
    expect(eventText(r, k + 1, 2000).length).toBeGreaterThan(100);
    r.goto(k + 1);
    const lines = renderScreen(r, { width: 30, height: 2000 }).split('\n');
    const first = lines.findIndex((l) => l.startsWith(`>${String(k + 1).padStart(5)}`));
    const wrapped = lines.slice(first, lines.length - 2);
    expect(wrapped.every((l) => l.length <= 30)).toBe(true);
    expect(wrapped.map((l, i) => (i === 0 ? l : l.slice(7))).join('')).toBe(`>${String(k + 1).padStart(5)}  ${eventText(r, k + 1, 2000)}`);
  });
});

describe('board', () => {
  it('draws a log of one event as a log', async () => {
    const f = join(dir, 'one-event.jsonl');
    writeFileSync(f, text((await loggedGame('42')).events.slice(0, 1)));
    const r = cli(['board', f, '--at', '1', '--svg', join(dir, 'one.svg')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'one.svg'))).toBe(true);
  });

  it('refuses a damaged game state in one line naming the file and the field: exit 2', async () => {
    const g = await loggedGame('43');
    const state = JSON.parse(JSON.stringify(Replay.fromEvents(g.events).at(60))) as Record<string, any>;
    const f1 = join(dir, 'no-datasheets.json');
    writeFileSync(f1, JSON.stringify({ ...state, datasheets: undefined }));
    const r1 = cli(['board', f1, '--svg', join(dir, 's1.svg')]);
    expect(r1.stderr).toMatch(new RegExp(`^error: ${f1}: not a game state that can be drawn: datasheets: .*\\n$`));
    expect(r1.code).toBe(2);
    const id = (state.unitOrder as string[]).find((u) => state.units[u].location === 'battlefield')!;
    state.units[id].models[0].pos = 'x';
    const f2 = join(dir, 'bad-pos.json');
    writeFileSync(f2, JSON.stringify(state));
    const out = join(dir, 's2.svg');
    const r2 = cli(['board', f2, '--svg', out]);
    expect(r2.stderr).toMatch(new RegExp(`^error: ${f2}: not a game state that can be drawn: units\\.${id}\\.models\\[0\\]\\.pos: .*\\n$`));
    expect(r2.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });
});

describe('replay --html with options it refuses', () => {
  it('writes no viewer: --to beyond the end, --json without --to', async () => {
    const f = join(dir, 'html-bad.jsonl');
    writeFileSync(f, (await loggedGame('44')).text);
    const out = join(dir, 'html-bad.html');
    const r1 = cli(['replay', f, '--html', out, '--to', '999999']);
    expect(r1.stderr).toMatch(/^error: --to 999999: the log has \d+ events\n$/);
    expect(r1.code).toBe(2);
    const r2 = cli(['replay', f, '--html', out, '--json']);
    expect(r2.stderr).toBe('error: --json goes with --to N\n');
    expect(r2.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(cli(['replay', f, '--html', out, '--to', 'end']).code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});

describe('a log whose game-started event is damaged', () => {
  // the reducer and the viewers build on game-started's board, objectives and mission: each damaged field is
  // refused in one line naming the file, the line and the field (they crashed with a TypeError: --html on a
  // terrain polygon, --to on an objective's position), and no viewer or picture is written
  const damaged: [string, (e: Record<string, any>) => void, string][] = [
    ['a terrain polygon', (e) => { e.board.terrain[0].polygon = 'oops'; }, 'board.terrain[0].polygon: Invalid input: expected array, received string'],
    ["an objective's position", (e) => { e.objectives[0].pos = null; }, 'objectives[0].pos: Invalid input: expected object, received null'],
    ["the board's width", (e) => { e.board.width = 'wide'; }, 'board.width: Invalid input: expected number, received string'],
    ["the mission's rounds", (e) => { e.mission.rounds = 0; }, 'mission.rounds: Too small: expected number to be >=1'],
    ["a player's rules", (e) => { delete e.players[1].rules; }, 'players[1].rules: Invalid input: expected array, received undefined'],
  ];
  const damagedLog = async (damage: (e: Record<string, any>) => void) => {
    const g = await loggedGame('45');
    const first = JSON.parse(JSON.stringify(g.events[0])) as Record<string, any>;
    damage(first);
    return text([first as GameEvent, ...g.events.slice(1)]);
  };
  it.each(damaged)('%s: the log reader names the field', async (_, damage, field) => {
    const r = parseLog(await damagedLog(damage));
    expect(r.events).toEqual([]);
    expect(r.error).toEqual({ line: 1, message: `game-started event: ${field}` });
  });
  it('replay --to, replay --html and board refuse it in one line, writing nothing: exit 2', async () => {
    const [, damage, field] = damaged[0];
    const f = join(dir, 'damaged-start.jsonl');
    writeFileSync(f, await damagedLog(damage));
    const out = join(dir, 'damaged-start.html');
    for (const args of [['--to', 'end'], ['--html', out]]) {
      const r = cli(['replay', f, ...args]);
      expect(r.stderr).toBe(`error: ${f} line 1: game-started event: ${field}\n`);
      expect(r.code).toBe(2);
    }
    expect(existsSync(out)).toBe(false);
    // board has nothing to draw without the game-started event (it drew an empty board and exited 0)
    const svg = join(dir, 'damaged-start.svg');
    const b = cli(['board', f, '--svg', svg]);
    expect([b.code, b.stderr]).toEqual([2, `error: ${f} line 1: game-started event: ${field}\n`]);
    expect(existsSync(svg)).toBe(false);
  });
});
