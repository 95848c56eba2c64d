/**
 * The browser viewer: the file itself (self-contained, escaped, compact), then the page in a real
 * headless Chromium (Debian's `chromium` package at /usr/bin/chromium, driven by playwright-core).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/core/events.ts';
import { buildViewerHtml } from '../../src/replay/html.ts';
import { Replay } from '../../src/replay/replay.ts';
import { loggedGame } from './helpers.ts';

const EVIL = '<img src=x onerror=alert(1)>';
/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`[replay viewer] ${CHROMIUM} not found: the headless Chromium tests are skipped (install it with: apt-get install -y chromium)`);
}

/** The mini game with a malicious player name, agent name and unit name. */
async function evilGame(): Promise<{ events: GameEvent[]; html: string; replay: Replay }> {
  const g = await loggedGame('1');
  const events = g.events.map((e) => JSON.parse(JSON.stringify(e)) as GameEvent);
  for (const e of events) {
    if (e.type === 'game-started') { e.players[0].name = `P1 ${EVIL}`; e.players[1].agent = EVIL; }
    if (e.type === 'unit-created' && e.unit.id === 'p1-u1') e.unit.name = `${EVIL} Team`;
    if (e.type === 'decision' && e.player === 1) e.agent = EVIL;
  }
  const replay = Replay.fromEvents(events);
  return { events, html: buildViewerHtml(replay), replay };
}

describe('the HTML viewer file', () => {
  it('is self-contained, names no URL, and escapes every name from the log', async () => {
    const { html, events } = await evilGame();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(?:link|script|img|iframe)[^>]+(?:src|href)=["']?(?!data:)[a-z]/i);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toContain('<img');
    // the data block cannot close its script element
    const data = html.slice(html.indexOf('id="replay-data">'), html.indexOf('</script>'));
    expect(data).not.toMatch(/<\/|<!--/);
    // compact: well under the raw log (which carries every datasheet)
    const raw = events.map((e) => JSON.stringify(e)).join('\n').length;
    expect(html.length).toBeLessThan(raw * 1.5);
    expect(html.length).toBeLessThan(400_000);
  });
});

describe.skipIf(!hasChromium)('the HTML viewer in headless Chromium', () => {
  // playwright-core is loaded only when Chromium is there
  let browser: import('playwright-core').Browser;
  let url: string;
  let game: Awaited<ReturnType<typeof evilGame>>;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    game = await evilGame();
    const dir = mkdtempSync(join(tmpdir(), 'viewer-'));
    const file = join(dir, 'game.html');
    writeFileSync(file, game.html);
    url = pathToFileURL(file).href;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('loads without errors, steps, and ends on the logged result', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`request: ${r.url()}`); });
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { strategiumReplay?: unknown }).strategiumReplay !== undefined);

    const N = game.replay.length;
    expect(await page.textContent('#pos')).toBe(`1 / ${N}`);
    const visibleModels = () => page.locator('#rp-models [data-model]:visible').count();
    const boardPicture = () => page.evaluate(() => document.getElementById('rp-models')!.innerHTML);
    expect(await visibleModels()).toBe(0);

    // step with the buttons through the deployment until models stand on the board
    const firstPlaced = game.events.findIndex((e) => e.type === 'models-placed') + 1;
    await page.evaluate((p) => (window as unknown as { strategiumReplay: { seek(n: number): void } }).strategiumReplay.seek(p), firstPlaced - 1);
    const before = await boardPicture();
    await page.click('#next');
    expect(await page.textContent('#pos')).toBe(`${firstPlaced} / ${N}`);
    expect(await visibleModels()).toBeGreaterThan(0);
    expect(await boardPicture()).not.toBe(before);
    await page.click('#prev');
    expect(await visibleModels()).toBe(0);

    // the slider and the phase buttons move too
    await page.click('#nextphase');
    const pos = Number((await page.textContent('#pos'))!.split(' / ')[0]);
    expect(game.events[pos - 1].type).toBe('phase-started');
    await page.click('#prevphase');
    await page.$eval('#slider', (el, v) => { (el as HTMLInputElement).value = String(v); el.dispatchEvent(new Event('input')); }, 200);
    expect(await page.textContent('#pos')).toBe(`200 / ${N}`);
    expect(await page.locator('.ev.cur').getAttribute('data-i')).toBe('200');

    // hover a unit: its details
    await page.locator('#rp-models [data-model]:visible').first().hover();
    expect(await page.textContent('#details h3')).not.toBe('');
    expect(await page.locator('#details table').count()).toBeGreaterThan(0);

    // the end: the VP shown are the log's result
    await page.click('#last');
    const result = game.replay.recordedResult!;
    expect(await page.textContent('[data-testid=vp0]')).toBe(String(result.vp[0]));
    expect(await page.textContent('[data-testid=vp1]')).toBe(String(result.vp[1]));
    expect(await page.textContent('#result')).toContain(`${result.vp[0]}-${result.vp[1]}`);

    // play runs on its own
    await page.click('#first');
    await page.selectOption('#speed', '150');
    await page.click('#play');
    await page.waitForFunction(() => Number(document.getElementById('pos')!.textContent!.split(' / ')[0]) > 20);
    await page.click('#play');

    // malicious names are text, never markup
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.textContent('#pname0')).toBe(`P1 ${EVIL}`);
    expect(await page.textContent('#agent1')).toBe(EVIL);
    expect(await page.locator('#roster').textContent()).toContain(`${EVIL} Team`);
    expect(await page.locator('#events').textContent()).toContain(`[${EVIL}]`);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens at the event the address names, and the address follows the position', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const N = game.replay.length;
    await page.goto(`${url}#150`);
    await page.waitForFunction(() => (window as unknown as { strategiumReplay?: unknown }).strategiumReplay !== undefined);
    expect(await page.textContent('#pos')).toBe(`150 / ${N}`);
    expect(await page.locator('.ev.cur').getAttribute('data-i')).toBe('150');
    // a step writes the new position into the address, without a history entry per step
    const entries = await page.evaluate(() => history.length);
    await page.click('#next');
    expect(await page.evaluate(() => location.hash)).toBe('#151');
    expect(await page.evaluate(() => history.length)).toBe(entries);
    // an address edited by hand moves the viewer; one past the end is the end
    await page.evaluate(() => { location.hash = '#42'; });
    await page.waitForFunction(() => document.getElementById('pos')!.textContent!.startsWith('42 /'));
    await page.evaluate((n) => { location.hash = `#${n + 100}`; }, N);
    await page.waitForFunction((n) => document.getElementById('pos')!.textContent === `${n} / ${n}`, N);
    // playing leaves the address alone until it stops
    await page.click('#first');
    await page.selectOption('#speed', '150');
    await page.click('#play');
    await page.waitForFunction(() => Number(document.getElementById('pos')!.textContent!.split(' / ')[0]) > 20);
    expect(await page.evaluate(() => location.hash)).toBe('#1');
    await page.click('#play');
    const stopped = (await page.textContent('#pos'))!.split(' / ')[0];
    expect(await page.evaluate(() => location.hash)).toBe(`#${stopped}`);
    expect(problems).toEqual([]);
    await page.close();
  });
});
