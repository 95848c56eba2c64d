/**
 * report.html: one self-contained page (it opens offline) with a batch's tables and Chart.js charts.
 * Chart.js's UMD build is inlined; the charts are plain JSON configurations read by a few lines of script.
 * Every name that goes into the HTML is escaped; the JSON goes in a `<script type="application/json">`
 * with `<` escaped, so no name can close it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BatchOutcome } from './batch.ts';
import type { ArmyStats } from './aggregate.ts';
import { bin, type Rate } from './stats.ts';
import { meanCiText, pairDifferenceText, pct, playCommand, replayCommand, runText, untilCiMissed, withoutStratagemsText } from './batch-report.ts';

let chartJs: string | null = null;

/** Chart.js's UMD build, to inline (without its source map comment). */
export function chartJsSource(): string {
  if (chartJs === null) {
    const require = createRequire(import.meta.url);
    // the package's exports do not list the UMD build: find it beside the main entry (dist/)
    chartJs = readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, '').replace(/<\/script/gi, '<\\/script');
  }
  return chartJs;
}

export function escapeHtml(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside a <script> element. */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface ChartSpec {
  id: string;
  /** format the value axis (and tooltips) as percentages */
  percent?: boolean;
  /** axis of the values ('x' for horizontal bars) */
  valueAxis?: 'x' | 'y';
  config: Record<string, unknown>;
}

export const COLORS = ['#1f77b4', '#d62728', '#7f7f7f', '#2ca02c', '#9467bd', '#ff7f0e'];
const FILL = ['rgba(31,119,180,0.55)', 'rgba(214,39,40,0.55)', 'rgba(127,127,127,0.5)'];

const CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 16px 24px 48px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.sub { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th { background: #f6f6f6; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px 24px; }
.chart { position: relative; height: 300px; }
code { background: #f3f3f3; padding: 1px 4px; border-radius: 3px; font-size: 12px; }
.muted { color: #777; }
`;

const GLUE = `
(function () {
  var specs = JSON.parse(document.getElementById('chart-data').textContent);
  var asPct = function (v) { return (v * 100).toFixed(Math.abs(v) < 0.1 && v !== 0 ? 1 : 0) + '%'; };
  specs.forEach(function (s) {
    var c = s.config;
    if (s.percent) {
      var axis = s.valueAxis || 'y';
      c.options = c.options || {}; c.options.scales = c.options.scales || {};
      c.options.scales[axis] = c.options.scales[axis] || {};
      c.options.scales[axis].ticks = Object.assign({}, c.options.scales[axis].ticks, { callback: asPct });
      c.options.plugins = c.options.plugins || {};
      c.options.plugins.tooltip = { callbacks: { label: function (ctx) {
        var v = ctx.raw; var f = function (x) { return (x * 100).toFixed(1) + '%'; };
        if (Array.isArray(v)) return ctx.dataset.label + ': ' + f(v[0]) + ' to ' + f(v[1]);
        if (v && typeof v === 'object') v = axis === 'x' ? v.x : v.y;
        return ctx.dataset.label + ': ' + f(v);
      } } };
    }
    new Chart(document.getElementById(s.id), c);
  });
})();
`;

/** The category axis of a horizontal bar chart: every bar named (Chart.js skips labels that would crowd; barsHeight makes the room). */
const NAME_EVERY_BAR = { ticks: { autoSkip: false } };

/** The style attribute giving a horizontal bar chart of `bars` bars room for every label (the 300px default fits ten). */
function barsHeight(bars: number): string {
  return bars > 10 ? ` style="height: ${60 + 26 * bars}px"` : '';
}

/** A bar chart with rates and their 95% intervals as thin floating bars drawn over them. */
export function rateBars(id: string, labels: string[], rates: Rate[], colors: string[], title: string, horizontal = false): ChartSpec {
  return {
    id, percent: true, valueAxis: horizontal ? 'x' : 'y',
    config: {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: 'rate', data: rates.map((r) => r.rate), backgroundColor: colors, grouped: false, maxBarThickness: 120, order: 2 },
          { label: '95% interval', data: rates.map((r) => r.ci95), backgroundColor: 'rgba(0,0,0,0.75)', grouped: false, barPercentage: 0.08, categoryPercentage: 1, maxBarThickness: 8, order: 1 },
        ],
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x', maintainAspectRatio: false, animation: false,
        plugins: { title: { display: true, text: title }, legend: { display: false } },
        scales: { [horizontal ? 'x' : 'y']: { min: 0, max: 1 }, ...(horizontal ? { y: NAME_EVERY_BAR } : {}) },
      },
    },
  };
}

/** A histogram chart; with `exact` every bar is one value (all values are multiples of the width). */
function hist(id: string, title: string, xLabel: string, series: { label: string; data: [number, number][]; color: string }[], { width, exact }: { width: number; exact: boolean }): ChartSpec {
  const starts = new Set<number>();
  const binned = series.map((s) => {
    const n = s.data.reduce((t, [, c]) => t + c, 0) || 1;
    const b = new Map(bin(s.data, width).map(([v, c]) => [v, c / n]));
    for (const k of b.keys()) starts.add(k);
    return b;
  });
  const keys = [...starts].sort((x, y) => x - y);
  const all: number[] = [];
  if (keys.length) for (let k = keys[0]; k <= keys[keys.length - 1]; k += width) all.push(k);
  return {
    id, percent: true,
    config: {
      type: 'bar',
      data: {
        labels: all.map((k) => (exact ? String(k) : `${k}–${k + width - 1}`)),
        datasets: series.map((s, i) => ({ label: s.label, data: all.map((k) => binned[i].get(k) ?? 0), backgroundColor: s.color })),
      },
      options: {
        maintainAspectRatio: false, animation: false,
        plugins: { title: { display: true, text: title } },
        scales: { x: { title: { display: true, text: xLabel } }, y: { title: { display: true, text: 'share of games' } } },
      },
    },
  };
}

const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));

/** Bars of one value each when there are few distinct values (VP often come in 5s), else bins of 5 or 10. */
export function binWidth(hs: [number, number][][]): { width: number; exact: boolean } {
  let lo = Infinity, hi = -Infinity, g = 0;
  for (const h of hs) for (const [v] of h) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
    if (Number.isInteger(v)) g = gcd(g, v);
  }
  if (!Number.isFinite(lo)) return { width: 1, exact: true };
  const step = Math.max(1, g);
  if ((hi - lo) / step <= 40) return { width: step, exact: true };
  return { width: hi - lo <= 150 ? 5 : 10, exact: false };
}

/** "T'au (Kauyon)", with the detachment added unless the name already says it. */
export function armyName(a: Pick<ArmyStats, 'name' | 'detachment'>): string {
  const d = a.detachment ?? 'no detachment';
  return a.name.toLowerCase().includes(d.toLowerCase()) ? a.name : `${a.name} (${d})`;
}

function rateCell(r: Rate): string {
  return `${pct(r.rate)} <span class="muted">[${pct(r.ci95[0])}, ${pct(r.ci95[1])}]</span>`;
}

export function renderPage(title: string, body: string, charts: ChartSpec[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head><body>
${body}
<script>${chartJsSource()}</script>
<script id="chart-data" type="application/json">${scriptJson(charts)}</script>
<script>${GLUE}</script>
</body></html>
`;
}

export function renderBatchHtml(o: BatchOutcome): string {
  const s = o.stats;
  const spec = o.spec;
  const [a, b] = s.armies;
  const charts: ChartSpec[] = [];
  const h: string[] = [];
  const title = `${spec.scenario.name}: ${armyName(a)} vs ${armyName(b)}`;
  h.push(`<h1>${escapeHtml(title)}</h1>`);
  const shard = spec.shard ? `, shard ${spec.shard.k}/${spec.shard.n} (games ${o.slice.from}–${o.slice.to - 1})` : '';
  h.push(`<p class="sub">${s.games} games${s.failed.length ? ` (+${s.failed.length} failed)` : ''}, batch seed <code>${escapeHtml(spec.batchSeed)}</code>, agents ${escapeHtml(spec.agents.join(' vs '))}, ${spec.swap ? 'sides swapped in pairs' : 'sides fixed'}${escapeHtml(shard)}${o.stoppedAt !== null ? `, stopped at game ${o.stoppedAt} (win-rate interval half-width ≤ ${spec.untilCi})` : ''}. Mission: ${escapeHtml(spec.scenario.mission.name)}.${withoutStratagemsText(spec.scenario) ? ` ${escapeHtml(withoutStratagemsText(spec.scenario)!)}.` : ''}</p>`);

  if (s.games === 0) h.push(`<p><strong>No game finished: every game failed (${s.failed.length}), so nothing was measured.</strong> The failures and how to replay them are listed below.</p>`);
  else if (spec.untilCi !== null && o.stoppedAt === null && o.complete) h.push(`<p>${escapeHtml(untilCiMissed(o))}.</p>`);

  // results
  h.push('<h2>Results</h2>');
  h.push('<table><tr><th></th><th>games</th><th>rate [95% CI]</th></tr>');
  h.push(`<tr><td>${escapeHtml(armyName(a))} wins</td><td>${a.wins.count}</td><td>${rateCell(a.wins)}</td></tr>`);
  h.push(`<tr><td>draws</td><td>${s.draws.count}</td><td>${rateCell(s.draws)}</td></tr>`);
  h.push(`<tr><td>${escapeHtml(armyName(b))} wins</td><td>${b.wins.count}</td><td>${rateCell(b.wins)}</td></tr>`);
  h.push(`<tr><td>player 1's side wins</td><td>${s.seat1Wins.count}</td><td>${rateCell(s.seat1Wins)}</td></tr>`);
  h.push(`<tr><td>wins of the army taking the first turn</td><td>${s.firstTurnWins.count}</td><td>${rateCell(s.firstTurnWins)}</td></tr>`);
  for (const x of s.armies) if (x.firstTurn.games) h.push(`<tr><td>${escapeHtml(x.name)} wins going first</td><td>${x.firstTurn.wins.count} / ${x.firstTurn.games}</td><td>${rateCell(x.firstTurn.wins)}</td></tr>`);
  h.push('</table>');
  if (s.pairs && s.pairs.pairs) {
    const p = s.pairs;
    h.push(`<p>Side-swapped pairs: ${p.pairs}. ${escapeHtml(a.name)} won both ${p.army1Both}, ${escapeHtml(b.name)} won both ${p.army2Both}, split ${p.split}, with a draw ${p.withDraw}.${p.winRateDifference ? ` Win rate of ${escapeHtml(a.name)} less ${escapeHtml(b.name)}, pair by pair (95% interval): ${escapeHtml(pairDifferenceText(p.winRateDifference))}.` : ''}</p>`);
  }
  h.push('<div class="grid"><div class="chart"><canvas id="c-wins"></canvas></div><div class="chart"><canvas id="c-running"></canvas></div></div>');
  charts.push(rateBars('c-wins', [`${a.name} wins`, 'draws', `${b.name} wins`], [a.wins, s.draws, b.wins], [FILL[0], FILL[2], FILL[1]], 'Win / draw / loss with 95% intervals'));
  charts.push({
    id: 'c-running', percent: true,
    config: {
      type: 'line',
      data: {
        datasets: [
          { label: '95% low', data: s.running.map(([n, , lo]) => ({ x: n, y: lo })), borderWidth: 0, pointRadius: 0, fill: false },
          { label: '95% high', data: s.running.map(([n, , , hi]) => ({ x: n, y: hi })), borderWidth: 0, pointRadius: 0, fill: '-1', backgroundColor: 'rgba(31,119,180,0.2)' },
          { label: `${a.name} win rate`, data: s.running.map(([n, r]) => ({ x: n, y: r })), borderColor: COLORS[0], pointRadius: 0, borderWidth: 2, fill: false },
        ],
      },
      options: {
        maintainAspectRatio: false, animation: false, parsing: true,
        plugins: { title: { display: true, text: `${a.name} win rate as games accumulate` }, legend: { display: false } },
        scales: { x: { type: 'linear', title: { display: true, text: 'games' } }, y: { min: 0, max: 1 } },
      },
    },
  });

  // VP
  h.push('<h2>Victory points</h2>');
  h.push('<table><tr><th></th><th>mean ± sd</th><th>mean 95% CI</th><th>median</th><th>quartiles</th><th>p5–p95</th><th>min–max</th></tr>');
  const q = (x: number) => String(Number(x.toFixed(2)));
  const distRow = (label: string, d: typeof a.vp) => `<tr><td>${escapeHtml(label)}</td><td>${d.mean.toFixed(1)} ± ${d.sd.toFixed(1)}</td><td>${escapeHtml(meanCiText(d.meanCi95))}</td><td>${q(d.quantiles.p50)}</td><td>${q(d.quantiles.p25)}–${q(d.quantiles.p75)}</td><td>${q(d.quantiles.p5)}–${q(d.quantiles.p95)}</td><td>${d.min}–${d.max}</td></tr>`;
  h.push(distRow(`${a.name} VP`, a.vp));
  h.push(distRow(`${b.name} VP`, b.vp));
  h.push(distRow(`margin (${a.name} − ${b.name})`, s.margin));
  h.push('</table>');
  h.push('<div class="grid"><div class="chart"><canvas id="c-vp"></canvas></div><div class="chart"><canvas id="c-margin"></canvas></div><div class="chart"><canvas id="c-rounds"></canvas></div></div>');
  const vw = binWidth([a.vp.histogram, b.vp.histogram]);
  charts.push(hist('c-vp', 'VP distribution', 'VP', [{ label: a.name, data: a.vp.histogram, color: FILL[0] }, { label: b.name, data: b.vp.histogram, color: FILL[1] }], vw));
  charts.push(hist('c-margin', `VP margin (${a.name} − ${b.name})`, 'margin', [{ label: 'games', data: s.margin.histogram, color: FILL[2] }], binWidth([s.margin.histogram])));
  const rounds = Math.max(a.vpByRound.length, b.vpByRound.length);
  charts.push({
    id: 'c-rounds',
    config: {
      type: 'bar',
      data: { labels: Array.from({ length: rounds }, (_, k) => `round ${k + 1}`), datasets: s.armies.map((x, i) => ({ label: x.name, data: x.vpByRound, backgroundColor: FILL[i] })) },
      options: { maintainAspectRatio: false, animation: false, plugins: { title: { display: true, text: 'Mean VP scored per battle round' } }, scales: { y: { title: { display: true, text: 'VP' } } } },
    },
  });

  // units
  h.push('<h2>Units</h2>');
  h.push('<p class="muted">Means per game. While a Leader is attached, the damage its unit deals and takes is counted on the Bodyguard unit. Survived: a model of the unit was alive at the end.</p>');
  s.armies.forEach((x, i) => {
    h.push(`<h3>${escapeHtml(armyName(x))}</h3>`);
    h.push('<table><tr><th>unit</th><th>points</th><th>wounds dealt</th><th>wounds taken</th><th>models killed</th><th>dealt / 100 pts</th><th>survived [95% CI]</th></tr>');
    for (const u of x.units) {
      const name = `${escapeHtml(u.name)} <span class="muted">(${escapeHtml(u.id)}${u.attachedTo ? `, leads ${escapeHtml(u.attachedTo)}` : ''})</span>`;
      h.push(`<tr><td>${name}</td><td>${u.points}</td><td>${u.woundsDealt.toFixed(2)}</td><td>${u.woundsTaken.toFixed(2)}</td><td>${u.modelsKilled.toFixed(2)}</td><td>${u.woundsDealtPer100Points.toFixed(2)}</td><td>${rateCell(u.survival)}</td></tr>`);
    }
    h.push('</table>');
    const tall = barsHeight(x.units.length);
    h.push(`<div class="grid"><div class="chart"${tall}><canvas id="c-value-${i}"></canvas></div><div class="chart"${tall}><canvas id="c-surv-${i}"></canvas></div></div>`);
    const labels = x.units.map((u) => `${u.name} (${u.id})`);
    charts.push({
      id: `c-value-${i}`, valueAxis: 'x',
      config: {
        type: 'bar',
        data: { labels, datasets: [{ label: 'wounds dealt per 100 points', data: x.units.map((u) => u.woundsDealtPer100Points), backgroundColor: FILL[i] }] },
        options: { indexAxis: 'y', maintainAspectRatio: false, animation: false, plugins: { title: { display: true, text: `${x.name}: wounds dealt per 100 points per game` }, legend: { display: false } }, scales: { y: NAME_EVERY_BAR } },
      },
    });
    charts.push(rateBars(`c-surv-${i}`, labels, x.units.map((u) => u.survival), x.units.map(() => FILL[i]), `${x.name}: survival with 95% intervals`, true));
  });

  // stratagems
  h.push('<h2>Stratagems and CP</h2>');
  h.push('<table><tr><th></th><th>CP gained / game</th><th>CP spent / game</th></tr>');
  for (const x of s.armies) h.push(`<tr><td>${escapeHtml(x.name)}</td><td>${x.cpGained.toFixed(2)}</td><td>${x.cpSpent.toFixed(2)}</td></tr>`);
  h.push('</table>');
  s.armies.forEach((x, i) => {
    h.push(`<h3>${escapeHtml(armyName(x))}</h3>`);
    if (!x.stratagems.length) {
      h.push('<p class="muted">No stratagem used.</p>');
      return;
    }
    const withOffers = x.stratagems.some((st) => st.offered);
    h.push(`<table><tr><th>stratagem</th><th>uses / game</th><th>games used [95% CI]</th>${withOffers ? '<th>games offered [95% CI]</th>' : ''}<th>CP / game</th></tr>`);
    for (const st of x.stratagems) h.push(`<tr><td>${escapeHtml(st.name)}</td><td>${st.usesPerGame.toFixed(2)}</td><td>${rateCell(st.games)}</td>${withOffers ? `<td>${st.offered ? rateCell(st.offered) : '-'}</td>` : ''}<td>${st.cpPerGame.toFixed(2)}</td></tr>`);
    h.push('</table>');
    if (withOffers) h.push('<p class="muted">Games offered: the games in which a window for the stratagem came up with the CP to pay, used or not.</p>');
    if (x.stratagems.some((st) => st.cpPerGame < st.usesPerGame - 1e-9)) h.push('<p class="muted">CP / game below uses / game: some uses cost less (free or discounted by a rule).</p>');
    h.push(`<div class="chart"${barsHeight(x.stratagems.length)}><canvas id="c-strat-${i}"></canvas></div>`);
    charts.push({
      id: `c-strat-${i}`, valueAxis: 'x',
      config: {
        type: 'bar',
        data: { labels: x.stratagems.map((st) => st.name), datasets: [{ label: 'uses per game', data: x.stratagems.map((st) => st.usesPerGame), backgroundColor: FILL[i] }] },
        options: { indexAxis: 'y', maintainAspectRatio: false, animation: false, plugins: { title: { display: true, text: `${x.name}: stratagem uses per game` }, legend: { display: false } }, scales: { y: NAME_EVERY_BAR } },
      },
    });
  });

  // the rest
  h.push('<h2>Games</h2>');
  h.push(`<p>Ended by: ${escapeHtml(Object.entries(s.endedBy).map(([k, v]) => `${k} ${v}`).join(', ') || '-')}. Mean battle rounds ${s.meanRounds.toFixed(2)}, mean events per game ${Math.round(s.meanEvents)}.</p>`);
  h.push(`<p>Every game can be regenerated from its number: ${spec.swap ? 'game <i>i</i> is seeded <code>batchSeed#(i − i mod 2)</code> and odd games have the sides swapped' : 'game <i>i</i> is seeded <code>batchSeed#i</code>'}; <code>npx tsx src/cli.ts batch-game DIR I --log FILE</code> replays it with its log.</p>`);
  if (s.failed.length) {
    h.push(`<h3>Failed games (${s.failed.length}, not counted above)</h3>`);
    h.push('<table><tr><th>game</th><th>seed</th><th>swapped</th><th>error</th><th>replay</th></tr>');
    for (const f of s.failed.slice(0, 500)) {
      const cmds = [replayCommand(spec, o.outDir, f.index), playCommand(spec, f.seed, f.swapped)].filter(Boolean);
      h.push(`<tr><td>${f.index}</td><td><code>${escapeHtml(f.seed)}</code></td><td>${f.swapped ? 'yes' : 'no'}</td><td style="text-align:left;white-space:normal">${escapeHtml(f.error)}</td><td style="text-align:left">${cmds.map((c) => `<code>${escapeHtml(c)}</code>`).join('<br>')}</td></tr>`);
    }
    h.push('</table>');
  }
  h.push(`<p class="muted">Scenario ${escapeHtml(spec.scenarioFile ?? spec.scenario.file)}; this run: ${escapeHtml(runText(o))}.</p>`);
  return renderPage(title, h.join('\n'), charts);
}
