/**
 * The detachment matrix: the scenario's player 1 army under each detachment of a list against its player 2
 * army under each detachment of another (null = the "no detachment" baseline), a batch per cell, all on
 * one pool of workers. Every cell uses the same batch seed (common random numbers: cells differ by their
 * detachments, not by luck of the draw). With an output folder each cell is a complete batch folder
 * (cells/<row>-<col>/), so its games can be regenerated and an interrupted matrix continues where it was.
 */
import { makeDirs } from '../data/make-dirs.ts';
import { join, resolve } from 'node:path';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { variantOf, type Progress } from './batch.ts';
import { createGamePool, defaultWorkers } from './batch-pool.ts';
import type { BatchSpec } from './batch-types.ts';
import { batchJson, csvCell, pairDifferenceText, pct, table, writeWhole, type BatchJson } from './batch-report.ts';
import type { PairStats } from './aggregate.ts';
import { pairedComparison, playLogged, vpText, type OutcomeLog, type PairedComparison } from './compare.ts';
import { escapeHtml, rateBars, renderPage, type ChartSpec } from './report-html.ts';
import type { Interval } from './stats.ts';
import { nameStem } from './variants.ts';

export const MATRIX_FORMAT = 'strategium-matrix/1';

export interface MatrixOptions {
  /** the cell's scenario: player 1 army under `row`, player 2 army under `col` */
  scenarioFor: (row: string | null, col: string | null) => ResolvedScenario;
  /** the cell's spec around its scenario (seed, games, agents... the same for every cell) */
  specFor: (scenario: ResolvedScenario, row: string | null, col: string | null) => BatchSpec;
  rows: (string | null)[];
  cols: (string | null)[];
  /** the row and the column the others are compared with (indices; default: defaultBaseline of each list) */
  baseline?: { row: number; col: number };
  workers?: number;
  outDir?: string | null;
  onCellStart?: (row: string | null, col: string | null, i: number, of: number) => void;
  onProgress?: (p: Progress) => void;
  onCellDone?: (cell: MatrixCell) => void;
}

export interface MatrixCell extends BatchJson {
  row: string | null;
  col: string | null;
  /** the cell's batch folder, relative to the matrix folder */
  dir: string | null;
  /** player 1 army's draws and losses are in `draws` and `wins[1]` */
  drawRate: number;
  drawCi95: Interval;
  /** player 1 army's win rate less player 2 army's, pair by pair (null without side-swapped pairs) */
  winRateDifference: PairStats['winRateDifference'];
}

export interface MatrixResult {
  format: typeof MATRIX_FORMAT;
  scenario: string;
  armies: [string, string];
  agents: [string, string];
  batchSeed: string;
  games: number;
  swap: boolean;
  rows: (string | null)[];
  cols: (string | null)[];
  /** cells[i][j]: player 1 army under rows[i] vs player 2 army under cols[j] */
  cells: MatrixCell[][];
  /** the row and the column (indices) the others are compared with; null for a list of one */
  baseline: { row: number | null; col: number | null };
  /**
   * rowVsBaseline[i][j]: player 1 army under rows[i] less under the baseline row, both against cols[j],
   * seed by seed (src/sim/compare.ts); null on the baseline row. null with a single row.
   */
  rowVsBaseline: (PairedComparison | null)[][] | null;
  /** colVsBaseline[i][j]: player 2 army under cols[j] less under the baseline column, both against rows[i]; null with a single column */
  colVsBaseline: (PairedComparison | null)[][] | null;
  elapsedSeconds: number;
}

export function slug(d: string | null): string {
  return (d ?? 'none').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'x';
}

/** The detachment the others of a list are compared with: the "no detachment" baseline when listed, else the first. */
export function defaultBaseline(list: readonly (string | null)[]): number {
  const none = list.indexOf(null);
  return none >= 0 ? none : 0;
}

export async function runMatrix(o: MatrixOptions): Promise<MatrixResult> {
  const started = performance.now();
  const cells: { row: string | null; col: string | null; key: string; spec: BatchSpec; dir: string | null }[] = [];
  o.rows.forEach((row, i) => o.cols.forEach((col, j) => {
    const spec = o.specFor(o.scenarioFor(row, col), row, col);
    spec.label = `${row ?? 'none'} vs ${col ?? 'none'}`;
    cells.push({ row, col, key: `r${i}c${j}`, spec, dir: o.outDir ? join('cells', `${i + 1}-${slug(row)}--${j + 1}-${slug(col)}`) : null });
  }));
  const out = o.outDir ? resolve(o.outDir) : null;
  if (out) makeDirs(out);
  // the cells are played one after the other: no more threads than a cell has blocks
  const blocks = Math.ceil(cells[0].spec.games / cells[0].spec.blockSize);
  const pool = createGamePool(Math.min(o.workers ?? defaultWorkers(), blocks), Object.fromEntries(cells.map((c) => [c.key, variantOf(c.spec)])));
  const grid: MatrixCell[][] = o.rows.map(() => []);
  // each cell's outcomes by game number, for the comparisons with the baseline row and column
  const logs: OutcomeLog[][] = o.rows.map(() => []);
  try {
    for (let k = 0; k < cells.length; k++) {
      const c = cells[k];
      o.onCellStart?.(c.row, c.col, k, cells.length);
      // a cell folder left by an earlier run of the same matrix is continued, not played again
      const { outcome, log } = await playLogged(pool, c.key, c.spec, out && c.dir ? join(out, c.dir) : null, o.onProgress);
      logs[Math.floor(k / o.cols.length)].push(log);
      const cell: MatrixCell = {
        row: c.row, col: c.col, dir: c.dir, ...batchJson(outcome),
        drawRate: outcome.stats.draws.rate, drawCi95: outcome.stats.draws.ci95,
        winRateDifference: outcome.stats.pairs?.winRateDifference ?? null,
      };
      grid[Math.floor(k / o.cols.length)].push(cell);
      o.onCellDone?.(cell);
    }
  } finally {
    await pool.destroy();
  }
  const first = cells[0].spec;
  const baseRow = o.rows.length > 1 ? (o.baseline?.row ?? defaultBaseline(o.rows)) : null;
  const baseCol = o.cols.length > 1 ? (o.baseline?.col ?? defaultBaseline(o.cols)) : null;
  const result: MatrixResult = {
    format: MATRIX_FORMAT,
    scenario: first.scenario.name,
    // each army plays several detachments here: named without the one of the first cell
    armies: [0, 1].map((i) => { const p = first.scenario.players[i]; return nameStem(p.name, p.detachment) ?? p.name; }) as [string, string],
    agents: first.agents,
    batchSeed: first.batchSeed,
    games: first.games,
    swap: first.swap,
    rows: o.rows,
    cols: o.cols,
    cells: grid,
    baseline: { row: baseRow, col: baseCol },
    rowVsBaseline: baseRow === null ? null
      : logs.map((row, i) => row.map((log, j) => (i === baseRow ? null : pairedComparison(log, logs[baseRow][j], 0, first.swap)))),
    colVsBaseline: baseCol === null ? null
      : logs.map((row) => row.map((log, j) => (j === baseCol ? null : pairedComparison(log, row[baseCol], 1, first.swap)))),
    elapsedSeconds: Math.round((performance.now() - started) / 10) / 100,
  };
  if (out) writeMatrixFiles(out, result);
  return result;
}

const dname = (d: string | null) => d ?? 'none';

/** Lines of a matrix's text table: the first column (names) left-aligned, the others right-aligned. */
function textTable(rows: string[][]): string[] {
  return table(rows, rows[0].map((_, c) => (c === 0 ? 'l' : 'r')), 3);
}

const comparisonText = (c: PairedComparison | null) => (c ? pairDifferenceText(c.winRate.difference) : '-');

/** How the comparisons with a baseline are measured, for the reports. */
function seedBySeed(m: MatrixResult): string {
  return m.swap ? 'seed by seed: the same side-swapped pairs of seeds in both cells' : 'seed by seed: the same seeds in both cells';
}

export function formatMatrix(m: MatrixResult): string {
  const lines: string[] = [];
  lines.push(`${m.scenario}: ${m.armies[0]} win rate [95% CI] by detachment (rows: ${m.armies[0]}; columns: ${m.armies[1]})`);
  lines.push(`${m.games} games per cell, batch seed ${m.batchSeed}, agents ${m.agents.join(' vs ')}, ${m.swap ? 'sides swapped in pairs' : 'sides fixed'}`);
  lines.push('');
  const cellText = (c: MatrixCell) => `${pct(c.winRate[0])} [${pct(c.ci95[0][0], 0)}, ${pct(c.ci95[0][1], 0)}]${c.failed ? ` (${c.failed} failed)` : ''}`;
  lines.push(...textTable([['', ...m.cols.map(dname)], ...m.rows.map((r, i) => [dname(r), ...m.cells[i].map(cellText)])]));
  if (m.cells.flat().some((c) => c.winRateDifference)) {
    lines.push('');
    lines.push(`${m.armies[0]}'s win rate less ${m.armies[1]}'s, pair by pair (side-swapped pairs; points of win rate, 95% interval):`);
    const diffText = (c: MatrixCell) => (c.winRateDifference ? pairDifferenceText(c.winRateDifference) : '-');
    lines.push(...textTable([['', ...m.cols.map(dname)], ...m.rows.map((r, i) => [dname(r), ...m.cells[i].map(diffText)])]));
  }
  const { row: br, col: bc } = m.baseline;
  if (br !== null && m.rowVsBaseline) {
    lines.push('');
    lines.push(`${m.armies[0]}: each detachment against ${dname(m.rows[br])}, its win rate less with ${dname(m.rows[br])} against the same opponent (${seedBySeed(m)}; points, 95% interval):`);
    const vs = m.rowVsBaseline;
    lines.push(...textTable([['', ...m.cols.map((c) => `vs ${dname(c)}`)], ...m.rows.flatMap((r, i) => (i === br ? [] : [[dname(r), ...vs[i].map(comparisonText)]]))]));
  }
  if (bc !== null && m.colVsBaseline) {
    lines.push('');
    lines.push(`${m.armies[1]}: each detachment against ${dname(m.cols[bc])}, its win rate less with ${dname(m.cols[bc])} against the same opponent (${seedBySeed(m)}; points, 95% interval):`);
    const vs = m.colVsBaseline;
    const others = m.cols.map((_, j) => j).filter((j) => j !== bc);
    lines.push(...textTable([['', ...m.rows.map((r) => `vs ${dname(r)}`)], ...others.map((j) => [dname(m.cols[j]), ...m.rows.map((_, i) => comparisonText(vs[i][j]))])]));
  }
  lines.push('');
  lines.push(`draws: ${m.cells.flat().map((c) => `${dname(c.row)} vs ${dname(c.col)} ${pct(c.drawRate)}`).join('; ')}`);
  return lines.join('\n') + '\n';
}

export function writeMatrixFiles(dir: string, m: MatrixResult): void {
  writeWhole(dir, 'matrix.json', JSON.stringify(m, null, 1) + '\n');
  const header = ['row_detachment', 'col_detachment', 'games', 'wins_p1', 'wins_p2', 'draws', 'win_rate_p1', 'ci95_low_p1', 'ci95_high_p1', 'win_rate_p2', 'mean_vp_p1', 'mean_vp_p2', 'failed', 'dir', 'pair_difference', 'pair_difference_ci95_low', 'pair_difference_ci95_high', 'pair_difference_z',
    ...comparisonHeader('p1_vs_row_baseline'), ...comparisonHeader('p2_vs_col_baseline')];
  const lines = [header.join(',')];
  m.cells.forEach((row, i) => row.forEach((c, j) => {
    lines.push([dname(c.row), dname(c.col), c.games, c.wins[0], c.wins[1], c.draws, c.winRate[0], c.ci95[0][0], c.ci95[0][1], c.winRate[1], c.meanVp[0], c.meanVp[1], c.failed, c.dir ?? '',
      c.winRateDifference?.mean ?? '', c.winRateDifference?.ci95[0] ?? '', c.winRateDifference?.ci95[1] ?? '', c.winRateDifference?.z ?? '',
      ...comparisonCells(m.rowVsBaseline?.[i][j] ?? null, m.baseline.row === null ? null : m.rows[m.baseline.row]),
      ...comparisonCells(m.colVsBaseline?.[i][j] ?? null, m.baseline.col === null ? null : m.cols[m.baseline.col])].map(csvCell).join(','));
  }));
  writeWhole(dir, 'matrix.csv', lines.join('\n') + '\n');
  writeWhole(dir, 'matrix.html', renderMatrixHtml(m));
}

/** CSV columns of a comparison with a baseline: the baseline, the units compared, win-rate and VP-margin differences. */
function comparisonHeader(p: string): string[] {
  return [`${p}`, `${p}_units`, `${p}_win_rate_difference`, `${p}_win_rate_ci95_low`, `${p}_win_rate_ci95_high`, `${p}_win_rate_z`,
    `${p}_vp_margin_difference`, `${p}_vp_margin_ci95_low`, `${p}_vp_margin_ci95_high`, `${p}_vp_margin_z`];
}

function comparisonCells(c: PairedComparison | null, baseline: string | null): (string | number)[] {
  if (!c) return Array(10).fill('');
  const w = c.winRate.difference;
  const v = c.vpMargin.difference;
  return [dname(baseline), c.units, w.mean, w.ci95[0], w.ci95[1], w.z ?? '', v.mean, v.ci95[0], v.ci95[1], v.z ?? ''];
}

/** Red (player 2 army wins) through white (even) to blue (player 1 army wins). */
function heat(rate: number): string {
  const t = Math.max(-1, Math.min(1, (rate - 0.5) * 2.5));
  const c = (a: number, b: number) => Math.round(a + (b - a) * Math.abs(t));
  return t >= 0 ? `rgb(${c(255, 90)},${c(255, 150)},${c(255, 220)})` : `rgb(${c(255, 230)},${c(255, 100)},${c(255, 100)})`;
}

export function renderMatrixHtml(m: MatrixResult): string {
  const h: string[] = [];
  const title = `${m.scenario}: detachment matrix`;
  h.push(`<h1>${escapeHtml(title)}</h1>`);
  h.push(`<p class="sub">Win rate of ${escapeHtml(m.armies[0])} (rows: its detachment) against ${escapeHtml(m.armies[1])} (columns: its detachment), with 95% Wilson intervals. ${m.games} games per cell, batch seed <code>${escapeHtml(m.batchSeed)}</code>, agents ${escapeHtml(m.agents.join(' vs '))}, ${m.swap ? 'sides swapped in pairs' : 'sides fixed'}.</p>`);
  h.push('<table><tr><th></th>' + m.cols.map((c) => `<th>${escapeHtml(dname(c))}</th>`).join('') + '</tr>');
  m.rows.forEach((r, i) => {
    h.push(`<tr><th>${escapeHtml(dname(r))}</th>` + m.cells[i].map((c) => {
      const link = c.dir ? ` <a href="${escapeHtml(c.dir.split('\\').join('/'))}/report.html">report</a>` : '';
      return `<td style="background:${c.winRate[0] === null ? 'transparent' : heat(c.winRate[0])}">${pct(c.winRate[0])} <span class="muted">[${pct(c.ci95[0][0])}, ${pct(c.ci95[0][1])}]</span>${c.winRateDifference ? `<br><span class="muted">pairs ${escapeHtml(pairDifferenceText(c.winRateDifference))}</span>` : ''}<br><span class="muted">draws ${pct(c.drawRate)}, VP ${c.meanVp[0] === null ? '-' : `${c.meanVp[0].toFixed(1)}–${c.meanVp[1]!.toFixed(1)}`}${c.failed ? `, ${c.failed} failed` : ''}</span>${link}</td>`;
    }).join('') + '</tr>');
  });
  h.push('</table>');
  const cmpCell = (c: PairedComparison | null) => (c
    ? `<td>${escapeHtml(pairDifferenceText(c.winRate.difference))}<br><span class="muted">VP margin ${escapeHtml(vpText(c.vpMargin.difference))}; ${c.units} ${c.unitGames === 2 ? 'pairs' : 'games'}${c.leftOut ? `, ${c.leftOut} left out` : ''}</span></td>`
    : '<td>-</td>');
  const { row: br, col: bc } = m.baseline;
  if (br !== null && m.rowVsBaseline) {
    const vs = m.rowVsBaseline;
    h.push(`<h2>${escapeHtml(m.armies[0])}: each detachment against ${escapeHtml(dname(m.rows[br]))}</h2>`);
    h.push(`<p class="sub">Its win rate (and VP margin) less with ${escapeHtml(dname(m.rows[br]))}, against the same opponent detachment, ${escapeHtml(seedBySeed(m))}; 95% intervals of the difference.</p>`);
    h.push('<table><tr><th></th>' + m.cols.map((c) => `<th>vs ${escapeHtml(dname(c))}</th>`).join('') + '</tr>');
    m.rows.forEach((r, i) => { if (i !== br) h.push(`<tr><th>${escapeHtml(dname(r))}</th>${vs[i].map(cmpCell).join('')}</tr>`); });
    h.push('</table>');
  }
  if (bc !== null && m.colVsBaseline) {
    const vs = m.colVsBaseline;
    h.push(`<h2>${escapeHtml(m.armies[1])}: each detachment against ${escapeHtml(dname(m.cols[bc]))}</h2>`);
    h.push(`<p class="sub">Its win rate (and VP margin) less with ${escapeHtml(dname(m.cols[bc]))}, against the same opponent detachment, ${escapeHtml(seedBySeed(m))}; 95% intervals of the difference.</p>`);
    h.push('<table><tr><th></th>' + m.rows.map((r) => `<th>vs ${escapeHtml(dname(r))}</th>`).join('') + '</tr>');
    m.cols.forEach((c, j) => { if (j !== bc) h.push(`<tr><th>${escapeHtml(dname(c))}</th>${m.rows.map((_, i) => cmpCell(vs[i][j])).join('')}</tr>`); });
    h.push('</table>');
  }
  const charts: ChartSpec[] = [];
  m.rows.forEach((r, i) => {
    h.push(`<div class="chart"><canvas id="m-${i}"></canvas></div>`);
    const cells = m.cells[i];
    charts.push(rateBars(`m-${i}`, cells.map((c) => `vs ${dname(c.col)}`), cells.map((c) => ({ count: c.wins[0], n: c.games, rate: c.winRate[0] ?? 0, ci95: c.ci95[0] })), cells.map(() => 'rgba(31,119,180,0.55)'), `${m.armies[0]} (${dname(r)}): win rate with 95% intervals`));
  });
  return renderPage(title, h.join('\n'), charts);
}
