/**
 * What each stratagem is worth to an army: a baseline batch, then one batch per stratagem with that
 * stratagem taken away from the army (the scenario's `withoutStratagems`), all on the same batch seed, and
 * each compared with the baseline seed by seed (src/sim/compare.ts). A stratagem's worth is the army's win
 * rate (and VP margin) in the baseline less without it: positive when having it helps. By default the
 * stratagems measured are those the army used in the baseline (one it never used is worth nothing there).
 * With an output folder each batch is a complete batch folder (baseline/, without-<name>/), so its games can
 * be regenerated, and a run that was stopped continues where it was.
 *
 * A game the army did not use the stratagem in is, for agents that decline without trace (the heuristic:
 * Agent.declinesWithoutTrace), the same game without it: the same record but for the stratagem no longer
 * offered. Those games are copied from the baseline rather than played again (13,200 games of the default
 * scenario's worth runs, 7,296 of them such, matched their copies byte for byte), which makes a batch
 * without a stratagem used in a game in ten about ten times faster. The first few are played all the same
 * and compared with their copies; should one differ, every game of that batch is played.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAgentFactory, makeAgent } from '../core/agent-loader.ts';
import { makeDirs } from '../data/make-dirs.ts';
import type { ResolvedScenario } from '../data/scenario-types.ts';
import { FILES, readRecords, variantOf, type BatchOutcome, type Progress } from './batch.ts';
import { createGamePool, defaultWorkers, type GamePool } from './batch-pool.ts';
import type { BatchSpec, GameRecord } from './batch-types.ts';
import { batchJson, csvCell, pairDifferenceText, pct, table, writeWhole, type BatchJson } from './batch-report.ts';
import { COLORS, escapeHtml, renderPage, type ChartSpec } from './report-html.ts';
import { OutcomeLog, pairedComparison, playLogged, vpText, type PairedComparison } from './compare.ts';
import { slug } from './matrix.ts';
import type { Rate } from './stats.ts';

export const WORTH_FORMAT = 'strategium-worth/1';

export interface WorthOptions {
  /** the baseline: the army with every stratagem it has */
  scenario: ResolvedScenario;
  /** the army measured: 0 = the scenario's player 1 army */
  army: 0 | 1;
  /** the baseline scenario with `name` taken away from the army */
  without: (names: string[]) => ResolvedScenario;
  /** a batch's spec around its scenario (seed, games, agents: the same for every batch) */
  specFor: (scenario: ResolvedScenario, without: string[] | null) => BatchSpec;
  /** the stratagems to measure; default: those the army used in the baseline */
  stratagems?: string[];
  /** also measure the whole detachment: the batch of the army under no detachment (its spec) */
  withoutDetachment?: BatchSpec;
  /** also measure the detachment's stratagems together (these names): one batch without all of them, the rule kept */
  detachmentStratagems?: string[];
  workers?: number;
  outDir?: string | null;
  /** play every game without each stratagem, those the army did not use it in too (default: copy them when the agents allow) */
  playAll?: boolean;
  onBatchStart?: (label: string, i: number, of: number | null) => void;
  onProgress?: (p: Progress) => void;
  onBatchDone?: (label: string, outcome: BatchOutcome) => void;
}

export interface StratagemWorth {
  name: string;
  /** in the baseline: the army's uses a game, CP spent on it a game, and the games it was used in */
  usesPerGame: number;
  cpPerGame: number;
  games: Rate | null;
  /** the batch's folder, relative to the output folder */
  dir: string | null;
  /** the army's win rate without it */
  winRateWithout: number;
  /** games of the batch without it copied from the baseline (the army did not use it there), not played */
  copied: number;
  /** why none was copied where the agents allow it: the game the check found played otherwise */
  copyRefused?: string;
  /** the baseline less the batch without it, seed by seed; null when no game was played in both */
  worth: PairedComparison | null;
}

export interface WorthResult {
  format: typeof WORTH_FORMAT;
  scenario: string;
  /** the army measured (1 or 2, as the CLI's --army) and its opponent, with their detachments */
  army: { index: 1 | 2; name: string; detachment: string | null };
  opponent: { name: string; detachment: string | null };
  agents: [string, string];
  batchSeed: string;
  games: number;
  swap: boolean;
  baseline: BatchJson & { dir: string | null };
  /** the most worth first */
  stratagems: StratagemWorth[];
  /** the whole detachment (its rule and stratagems): the baseline less the army under no detachment; null unless asked */
  detachment: { name: string; dir: string | null; winRateWithout: number; worth: PairedComparison | null } | null;
  /** the detachment's stratagems together (its rule kept): the baseline less without all of them; null unless asked */
  detachmentStratagems: { names: string[]; dir: string | null; winRateWithout: number; worth: PairedComparison | null; copied: number; copyRefused?: string } | null;
  elapsedSeconds: number;
}

export async function runWorth(o: WorthOptions): Promise<WorthResult> {
  const started = performance.now();
  const out = o.outDir ? resolve(o.outDir) : null;
  if (out) makeDirs(out);
  const a = o.army;
  const baseSpec = o.specFor(o.scenario, null);
  const blocks = Math.ceil(baseSpec.games / baseSpec.blockSize);
  const threads = Math.min(o.workers ?? defaultWorkers(), blocks);

  // the baseline first: which stratagems the army uses is known from it
  o.onBatchStart?.('baseline', 0, o.stratagems ? o.stratagems.length + 1 : null);
  const basePool = createGamePool(threads, { baseline: variantOf(baseSpec) });
  let base: { outcome: BatchOutcome; log: OutcomeLog };
  // the baseline's records, to copy the games a stratagem was not used in (~1.4 KB a game of the default scenario)
  const copyable = !o.playAll && (await declineWithoutTrace(baseSpec.agents));
  const baseRecords: string[] = [];
  try {
    base = await playLogged(basePool, 'baseline', baseSpec, out ? join(out, 'baseline') : null, o.onProgress, {
      onRecord: copyable ? (r) => { if (r.error === undefined) baseRecords[r.index] = JSON.stringify(r); } : undefined,
    });
  } finally {
    await basePool.destroy();
  }
  o.onBatchDone?.('baseline', base.outcome);
  const used = base.outcome.stats.armies[a].stratagems;
  const names = o.stratagems ?? used.filter((s) => s.uses > 0).map((s) => s.name);

  const { prefix } = worthNames(a);
  // each batch takes away `names` (none: the whole detachment, its spec given)
  type Batch = { kind: 'stratagem' | 'stratagems' | 'detachment'; names: string[]; key: string; spec: BatchSpec; dir: string };
  const batches: Batch[] = names.map((name, i) => ({ kind: 'stratagem', names: [name], key: `w${i}`, spec: o.specFor(o.without([name]), [name]), dir: `${prefix}without-${slug(name)}` }));
  const det = o.scenario.players[a].detachment;
  // the detachment's stratagems together, then the whole detachment, last, as more batches of the same pool
  const together = o.detachmentStratagems ?? [];
  const all: Batch[] = [
    ...batches,
    ...(together.length ? [{ kind: 'stratagems' as const, names: together, key: 'stratagems', spec: o.specFor(o.without(together), together), dir: `${prefix}without-detachment-stratagems` }] : []),
    ...(o.withoutDetachment && det !== null ? [{ kind: 'detachment' as const, names: [], key: 'detachment', spec: o.withoutDetachment, dir: `${prefix}without-detachment` }] : []),
  ];
  const rows: StratagemWorth[] = [];
  let detachment: WorthResult['detachment'] = null;
  let detachmentStratagems: WorthResult['detachmentStratagems'] = null;
  if (all.length) {
    const pool = createGamePool(threads, Object.fromEntries(all.map((b) => [b.key, variantOf(b.spec)])));
    try {
      for (let i = 0; i < all.length; i++) {
        const b = all[i];
        const label = b.kind === 'detachment' ? `without the detachment (${det})` : b.kind === 'stratagems' ? `without the detachment's stratagems (${det})` : `without ${b.names[0]}`;
        o.onBatchStart?.(label, i + 1, all.length + 1);
        const folder = out ? join(out, b.dir) : null;
        // the games an earlier run into this folder copied (a copy is its played game to the byte: only the list tells)
        const copiedFile = folder ? join(folder, COPIED_FILE) : null;
        const earlier = copiedFile ? copiedBefore(copiedFile) : new Set<number>();
        if (o.playAll && earlier.size) throw new Error(`${folder}: ${earlier.size} of its games were copied from the baseline by an earlier run (${COPIED_FILE}); --play-all plays every game: remove the folder or choose another --out`);
        const copies = copyable && b.kind !== 'detachment' ? await checkedCopies(pool, b.key, b.spec, folder, b.names, a, baseRecords) : null;
        const copiedNow = new Set<number>();
        // copies made by this run (the checked games were played), listed in the folder as they are made
        const known = copies?.refused === null ? (i: number) => {
          const k = copies.known(i);
          if (k && !copies.checked.includes(i) && !earlier.has(i)) {
            copiedNow.add(i);
            if (copiedFile) appendFileSync(copiedFile, `${i}\n`);
          }
          return k;
        } : undefined;
        // the check games were played (outside the batch's pool run): its report counts them as played
        const r = await playLogged(pool, b.key, b.spec, folder, o.onProgress, { known, knownPlayed: (i) => copies?.checked.includes(i) ?? false });
        o.onBatchDone?.(label, r.outcome);
        const worth = pairedComparison(base.log, r.log, a, baseSpec.swap);
        const winRateWithout = r.outcome.stats.armies[a].wins.rate;
        const copied = earlier.size + copiedNow.size;
        const copiedFields = { copied, ...(copies?.refused ? { copyRefused: copies.refused } : {}) };
        if (b.kind === 'detachment') {
          detachment = { name: det!, dir: out ? b.dir : null, winRateWithout, worth };
          continue;
        }
        if (b.kind === 'stratagems') {
          detachmentStratagems = { names: b.names, dir: out ? b.dir : null, winRateWithout, worth, ...copiedFields };
          continue;
        }
        const s = used.find((x) => x.name === b.names[0]);
        rows.push({
          name: b.names[0], usesPerGame: s?.usesPerGame ?? 0, cpPerGame: s?.cpPerGame ?? 0, games: s?.games ?? null, dir: out ? b.dir : null, winRateWithout, worth,
          ...copiedFields,
        });
      }
    } finally {
      await pool.destroy();
    }
  }
  // the most worth first (in win rate, then VP margin); ties by name, so the order is the same every run
  const key = (w: StratagemWorth) => [w.worth?.winRate.difference.mean ?? 0, w.worth?.vpMargin.difference.mean ?? 0];
  rows.sort((x, y) => key(y)[0] - key(x)[0] || key(y)[1] - key(x)[1] || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const sc = o.scenario;
  const result: WorthResult = {
    format: WORTH_FORMAT,
    scenario: sc.name,
    army: { index: (a + 1) as 1 | 2, name: sc.players[a].name, detachment: sc.players[a].detachment },
    opponent: { name: sc.players[1 - a].name, detachment: sc.players[1 - a].detachment },
    agents: baseSpec.agents,
    batchSeed: baseSpec.batchSeed,
    games: baseSpec.games,
    swap: baseSpec.swap,
    baseline: { ...batchJson(base.outcome), dir: out ? 'baseline' : null },
    stratagems: rows,
    detachment,
    detachmentStratagems,
    elapsedSeconds: Math.round((performance.now() - started) / 10) / 100,
  };
  if (out) writeWorthFiles(out, result);
  return result;
}

/** Both agents decline without trace (Agent.declinesWithoutTrace): a game where an option was not taken plays the same without it. */
async function declineWithoutTrace(agents: readonly string[]): Promise<boolean> {
  for (const [seat, spec] of agents.entries()) {
    let says = false;
    try {
      says = makeAgent(await loadAgentFactory(spec), 'worth', seat === 0 ? 0 : 1).declinesWithoutTrace === true;
    } catch {
      // an agent that cannot be made here (its parameters come with the scenario): the games are played
    }
    if (!says) return false;
  }
  return true;
}

/** A worth batch folder's list of the games copied from the baseline (a game number a line), as they were copied. */
export const COPIED_FILE = 'copied.txt';

/** The game numbers a folder's copied.txt lists (a last line cut short by a kill is left out). */
function copiedBefore(file: string): Set<number> {
  if (!existsSync(file)) return new Set();
  // only whole lines (a line ends with its newline): "1" of a "12" cut short is no game 1
  return new Set(readFileSync(file, 'utf8').split('\n').slice(0, -1).filter((l) => /^\d+$/.test(l)).map(Number));
}

/** Games played to check the copies of a batch without a stratagem (or several) before the rest are copied. */
export const COPIES_CHECKED = 4;

/**
 * The games of the batch without `names` known from the baseline: each game the army used none of them in, as
 * the baseline recorded it but for `names` no longer offered to the army. The first COPIES_CHECKED of them
 * are played (or read from the batch's folder, when an earlier run left them) and compared with their
 * copies first; `refused` names the first that differs, and then nothing is copied.
 */
async function checkedCopies(pool: GamePool, key: string, spec: BatchSpec, folder: string | null, names: readonly string[], army: 0 | 1, baseline: readonly string[]): Promise<{ known: (i: number) => GameRecord | null; checked: number[]; refused: string | null }> {
  const copy = (i: number): GameRecord | null => {
    const json = baseline[i];
    if (json === undefined) return null;
    const r = JSON.parse(json) as GameRecord;
    if (names.some((name) => (r.stratagems[army][name]?.[0] ?? 0) > 0)) return null;
    if (r.offered) r.offered[army] = r.offered[army].filter((x) => !names.includes(x));
    return r;
  };
  const checked: number[] = [];
  for (let i = 0; i < spec.games && checked.length < COPIES_CHECKED; i++) if (copy(i) !== null) checked.push(i);
  const seen = new Map<number, GameRecord>();
  if (folder !== null && existsSync(join(folder, FILES.spec))) for (const r of readRecords(folder)) if (checked.includes(r.index)) seen.set(r.index, r);
  const toPlay = checked.filter((i) => !seen.has(i));
  try {
    // a game a thread at once, so that every worker checks
    const threads = Math.max(1, pool.workers);
    await Promise.all(Array.from({ length: threads }, (_, t) => toPlay.filter((_, k) => k % threads === t)).filter((x) => x.length).map((part) => pool.run(key, spec.batchSeed, spec.swap, part, (r) => seen.set(r.index, r))));
  } catch (err) {
    // the batch itself replays what a dead worker left (runBatch): here, only copy nothing
    return { known: () => null, checked, refused: `the games checking the copies were not all played (${(err as Error).message})` };
  }
  for (const i of checked) {
    if (JSON.stringify(seen.get(i)) !== JSON.stringify(copy(i))) {
      return { known: () => null, checked, refused: `game ${i} was played otherwise without ${names.join(', ')} than the baseline played it (does an agent decline with a trace?)` };
    }
  }
  return { known: (i) => seen.get(i) ?? copy(i), checked, refused: null };
}

/**
 * The names of an army's batch folders and result files in the output folder: army 2's apart from army 1's
 * (`army-2-without-<name>/`, `worth-army-2.json`), so that one folder serves both and their common baseline
 * is played once.
 */
export function worthNames(army: 0 | 1): { prefix: string; files: string } {
  return army === 0 ? { prefix: '', files: 'worth' } : { prefix: 'army-2-', files: 'worth-army-2' };
}

/** worth.json, worth.csv (a row per stratagem) and worth.html (the table and a chart of the worths); army 2's worth-army-2.*. */
export function writeWorthFiles(dir: string, r: WorthResult): void {
  const { files } = worthNames(r.army.index === 1 ? 0 : 1);
  writeWhole(dir, `${files}.json`, JSON.stringify(r, null, 1) + '\n');
  const lines = [['stratagem', 'uses_per_game', 'cp_per_game', 'games_used', 'win_rate_without', 'pairs', 'worth_win_rate', 'worth_win_rate_ci95_low', 'worth_win_rate_ci95_high', 'worth_win_rate_z', 'worth_vp_margin', 'worth_vp_margin_ci95_low', 'worth_vp_margin_ci95_high', 'worth_vp_margin_z', 'dir', 'games_copied'].join(',')];
  for (const s of r.stratagems) {
    const w = s.worth;
    lines.push([s.name, s.usesPerGame, s.cpPerGame, s.games?.rate ?? '', s.winRateWithout, w?.units ?? '', w?.winRate.difference.mean ?? '', w?.winRate.difference.ci95[0] ?? '', w?.winRate.difference.ci95[1] ?? '', w?.winRate.difference.z ?? '',
      w?.vpMargin.difference.mean ?? '', w?.vpMargin.difference.ci95[0] ?? '', w?.vpMargin.difference.ci95[1] ?? '', w?.vpMargin.difference.z ?? '', s.dir ?? '', s.copied].map(csvCell).join(','));
  }
  writeWhole(dir, `${files}.csv`, lines.join('\n') + '\n');
  writeWhole(dir, `${files}.html`, renderWorthHtml(r));
}

function renderWorthHtml(r: WorthResult): string {
  const det = (d: string | null) => d ?? 'no detachment';
  const title = `What each stratagem is worth to ${r.army.name}`;
  const h: string[] = [];
  h.push(`<h1>${escapeHtml(title)}</h1>`);
  const w = r.baseline.winRate[r.army.index - 1];
  const ci = r.baseline.ci95[r.army.index - 1];
  const detachment = detachmentText(r);
  h.push(`<p class="sub">${escapeHtml(r.army.name)} [${escapeHtml(det(r.army.detachment))}] (army ${r.army.index}) against ${escapeHtml(r.opponent.name)} [${escapeHtml(det(r.opponent.detachment))}], ${escapeHtml(r.scenario)}: ${r.games} games a batch, batch seed <code>${escapeHtml(r.batchSeed)}</code>, agents ${escapeHtml(r.agents.join(' vs '))}, ${r.swap ? 'sides swapped in pairs' : 'sides fixed'}. Baseline: won ${pct(w)} [${pct(ci[0])}, ${pct(ci[1])}].${detachment ? detachment.split('\n').map((line) => ` ${escapeHtml(line)}.`).join('') : ''}</p>`);
  const charts: ChartSpec[] = [];
  const measured = r.stratagems.filter((s) => s.worth);
  if (measured.length) {
    h.push(`<div class="chart" style="height:${Math.max(160, 34 * measured.length + 80)}px"><canvas id="worth"></canvas></div>`);
    charts.push({
      id: 'worth', percent: true, valueAxis: 'x',
      config: {
        type: 'bar',
        data: {
          labels: measured.map((s) => s.name),
          datasets: [
            { label: 'worth in win rate', data: measured.map((s) => s.worth!.winRate.difference.mean), backgroundColor: measured.map((s) => (s.worth!.winRate.difference.mean >= 0 ? COLORS[0] : COLORS[1])), grouped: false, order: 2 },
            { label: '95% interval', data: measured.map((s) => s.worth!.winRate.difference.ci95), backgroundColor: 'rgba(0,0,0,0.75)', grouped: false, barPercentage: 0.15, categoryPercentage: 1, order: 1 },
          ],
        },
        options: { indexAxis: 'y', maintainAspectRatio: false, animation: false, plugins: { title: { display: true, text: 'the army\'s win rate with the stratagem less without it (points, 95% interval)' }, legend: { display: false } } },
      },
    });
  }
  h.push('<table><tr><th>stratagem</th><th>uses a game</th><th>CP a game</th><th>games used</th><th>win rate without</th><th>worth in win rate</th><th>worth in VP margin</th></tr>');
  for (const s of r.stratagems) {
    h.push(`<tr><td style="text-align:left">${escapeHtml(s.name)}</td><td>${s.usesPerGame.toFixed(2)}</td><td>${s.cpPerGame.toFixed(2)}</td><td>${s.games ? pct(s.games.rate) : '-'}</td><td>${pct(s.winRateWithout)}</td><td>${s.worth ? escapeHtml(pairDifferenceText(s.worth.winRate.difference)) : '-'}</td><td>${s.worth ? escapeHtml(vpText(s.worth.vpMargin.difference)) : '-'}</td></tr>`);
  }
  h.push('</table>');
  h.push(`<p>Worth: the army's result in the baseline less in a batch of the same seeds without the stratagem, seed by seed (side-swapped pairs); positive when having it helps, as the agent plays it. One 95% interval in twenty misses its true value: of ${r.stratagems.length}, a surprising one is worth playing again with another seed. Each batch's folder (<code>baseline/</code>, <code>${worthNames(r.army.index === 2 ? 1 : 0).prefix}without-…/</code>) holds its own report.</p>`);
  for (const line of copyLines(r)) h.push(`<p>${escapeHtml(line)}</p>`);
  return renderPage(title, h.join('\n'), charts);
}

/** The whole detachment's worth, and its stratagems' together, as lines of the reports; null when neither was measured. */
function detachmentText(r: WorthResult): string | null {
  const worth = (w: PairedComparison | null) => (w ? `${pairDifferenceText(w.winRate.difference)} in win rate, ${vpText(w.vpMargin.difference)} in VP margin` : '-');
  const lines: string[] = [];
  const d = r.detachment;
  if (d) lines.push(`The whole detachment (${d.name}'s rule and stratagems; ${pct(d.winRateWithout)} won under no detachment): ${worth(d.worth)}`);
  const t = r.detachmentStratagems;
  if (t) lines.push(`The detachment's stratagems together (${t.names.join(', ')}; its rule kept; ${pct(t.winRateWithout)} won without them): ${worth(t.worth)}`);
  return lines.length ? lines.join('\n') : null;
}

/** The terminal report: the baseline, then each stratagem's worth, the most first. */
export function formatWorth(r: WorthResult): string {
  const det = (d: string | null) => d ?? 'no detachment';
  const out: string[] = [];
  out.push(`What each stratagem is worth to ${r.army.name} [${det(r.army.detachment)}] (army ${r.army.index}) against ${r.opponent.name} [${det(r.opponent.detachment)}]`);
  out.push(`${r.scenario}: ${r.games} games a batch (the baseline, and one without each stratagem), batch seed ${r.batchSeed}, agents ${r.agents.join(' vs ')}, ${r.swap ? 'sides swapped in pairs' : 'sides fixed'}; ${r.elapsedSeconds.toFixed(0)} s`);
  const w = r.baseline.winRate[r.army.index - 1];
  const ci = r.baseline.ci95[r.army.index - 1];
  out.push(`baseline: ${r.army.name} won ${pct(w)} [${pct(ci[0])}, ${pct(ci[1])}]`);
  const d = detachmentText(r);
  if (d) out.push(d);
  out.push('');
  if (!r.stratagems.length) {
    out.push(`${r.army.name} used no stratagem in the baseline: nothing to take away.`);
    return out.join('\n') + '\n';
  }
  const rows = [['stratagem', 'uses/game', 'CP/game', 'win rate without', 'worth in win rate (95% CI)', 'worth in VP margin (95% CI)']];
  for (const s of r.stratagems) {
    rows.push([s.name, s.usesPerGame.toFixed(2), s.cpPerGame.toFixed(2), pct(s.winRateWithout), s.worth ? pairDifferenceText(s.worth.winRate.difference) : '-', s.worth ? vpText(s.worth.vpMargin.difference) : '-']);
  }
  out.push(...table(rows, ['l', 'r', 'r', 'r', 'r', 'r']));
  out.push('');
  out.push('Worth: the army\'s result in the baseline less without the stratagem, seed by seed (the same seeds in every batch); positive when having it helps, as the agent plays it.');
  // one interval in twenty misses: among many stratagems, a z of 2 or 3 may be chance
  if (r.stratagems.length >= 5) out.push(`Of ${r.stratagems.length} intervals about ${(r.stratagems.length / 20).toFixed(1)} miss their true worth by chance: play a surprising one again with another --seed (--stratagems names it alone).`);
  out.push(...copyLines(r));
  return out.join('\n') + '\n';
}

/** What was copied from the baseline rather than played, and where the check refused it. */
function copyLines(r: WorthResult): string[] {
  const out: string[] = [];
  const batches = [...r.stratagems, ...(r.detachmentStratagems ? [{ ...r.detachmentStratagems, name: "the detachment's stratagems" }] : [])];
  const copied = batches.reduce((t, s) => t + s.copied, 0);
  if (copied > 0) out.push(`${copied} of the ${batches.length * r.games} games without a stratagem were copied from the baseline, not played: the army did not use the stratagem in them, and both agents decline without trace, so they play the same (--play-all plays them).`);
  for (const s of batches) if (s.copyRefused) out.push(`${s.name}: every game played, none copied: ${s.copyRefused}.`);
  return out;
}
