/**
 * A batch's reports: the terminal summary, the `--json` line, results.json, games.csv rows and (through
 * report-html.ts) report.html.
 */
import { writeFilesWhole } from '../data/write-whole.ts';
import { join } from 'node:path';
import type { BatchOutcome } from './batch.ts';
import type { BatchSpec, GameRecord } from './batch-types.ts';
import type { ArmyStats, PairStats } from './aggregate.ts';
import type { Interval, Rate } from './stats.ts';
import { binWidth, renderBatchHtml } from './report-html.ts';
import { bin, halfWidth } from './stats.ts';

export const RESULTS_FORMAT = 'strategium-batch-results/1';

/** The line `batch --json` prints (p1/p2: the scenario's player 1 and player 2 armies). */
export interface BatchJson {
  games: number;
  wins: [number, number];
  draws: number;
  /** null when no game finished (every game failed): nothing was measured */
  winRate: [number, number] | [null, null];
  ci95: [Interval, Interval];
  /** null when no game finished */
  meanVp: [number, number] | [null, null];
  failed: number;
  gamesPerSecond: number;
}

export function batchJson(o: BatchOutcome): BatchJson {
  const a = o.stats.armies;
  return {
    games: o.stats.games,
    wins: [a[0].wins.count, a[1].wins.count],
    draws: o.stats.draws.count,
    winRate: o.stats.games ? [a[0].wins.rate, a[1].wins.rate] : [null, null],
    ci95: [a[0].wins.ci95, a[1].wins.ci95],
    meanVp: o.stats.games ? [a[0].vp.mean, a[1].vp.mean] : [null, null],
    failed: o.stats.failed.length,
    gamesPerSecond: round(o.gamesPerSecond, 2),
  };
}

/** How to regenerate one game of the batch (its log), for the report and the list of failed games. */
export function replayCommand(spec: BatchSpec, dir: string | null, index: number): string {
  if (dir) return `npx tsx src/cli.ts batch-game ${shellQuote(dir)} ${index} --log game-${index}.jsonl`;
  return '';
}

/** The `play` command that plays the same game, when there is one (an unswapped game of a scenario file, its detachments unchanged). */
export function playCommand(spec: BatchSpec, seed: string, swapped: boolean): string | null {
  if (swapped || !spec.scenarioFile || spec.detachments) return null;
  const armies = spec.armies ? ` --armies ${shellQuote(spec.armies.map((a) => a ?? '-').join(','))}${spec.fitWargear ? ' --fit-wargear' : ''}` : '';
  const without = (spec.withoutStratagems ?? [[], []]).flatMap((names, i) => names.map((n) => ` --without-stratagem ${shellQuote(`${i + 1}:${n}`)}`)).join('');
  return `npx tsx src/cli.ts play ${shellQuote(spec.scenarioFile)} --seed ${shellQuote(seed)} --agents ${shellQuote(spec.agents.join(','))}${armies}${without}`;
}

/** A word the shell reads as itself: quoted unless plain (a leading # would start a comment). */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:,=+-][A-Za-z0-9_./:#,=+-]*$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function buildResults(o: BatchOutcome): Record<string, unknown> {
  const dir = o.outDir;
  return {
    format: RESULTS_FORMAT,
    complete: o.complete,
    stoppedAt: o.stoppedAt,
    slice: o.slice,
    summary: { ...batchJson(o), gamesPerSecond: undefined },
    stats: {
      ...o.stats,
      failed: o.stats.failed.map((f) => ({ ...f, replay: replayCommand(o.spec, dir, f.index), play: playCommand(o.spec, f.seed, f.swapped) })),
    },
    regenerate: {
      seeds: o.spec.swap
        ? 'game i is seeded gameSeed(batchSeed, i - i % 2) = `${batchSeed}#${i - i % 2}`; odd games have the sides swapped (swapped: true in games.jsonl/games.csv)'
        : 'game i is seeded gameSeed(batchSeed, i) = `${batchSeed}#${i}`; no game has its sides swapped',
      command: 'npx tsx src/cli.ts batch-game DIR I [--log FILE]  (or: replay --from-batch DIR --game I)',
      swappedSides: 'the scenario\'s players exchanged, each keeping its army, detachment and agent; each seat keeps its zone and role',
    },
    // the only part that depends on the machine and the timing
    run: { workers: o.workers, played: o.played, elapsedSeconds: round(o.elapsedMs / 1000, 3), gamesPerSecond: round(o.gamesPerSecond, 2) },
    spec: o.spec,
  };
}

/** Write a report file whole or not at all (to `<name>.partial`, then renamed: ../data/write-whole.ts). */
export function writeWhole(dir: string, name: string, text: string): void {
  writeFilesWhole([{ path: join(dir, name), text }]);
}

export function writeReports(dir: string, o: BatchOutcome): void {
  writeWhole(dir, 'results.json', JSON.stringify(buildResults(o), null, 1) + '\n');
  writeWhole(dir, 'report.html', renderBatchHtml(o));
}

// ---------------------------------------------------------------------------------------------------
// games.csv

const CSV_COLUMNS = ['index', 'seed', 'swapped', 'winner', 'winner_army', 'vp_p1', 'vp_p2', 'rounds', 'ended_by', 'first_turn_army', 'cp_spent_p1', 'cp_spent_p2', 'events', 'error'];

export function csvHeader(_spec: BatchSpec): string {
  return CSV_COLUMNS.join(',') + '\n';
}

export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(spec: BatchSpec, r: GameRecord): string {
  const failed = r.error !== undefined;
  const winner = failed ? '' : r.winner === null ? 'draw' : spec.scenario.players[r.winner].name;
  const cells = [
    r.index, r.seed, r.swapped, winner, failed || r.winner === null ? '' : r.winner + 1,
    failed ? '' : r.vp[0], failed ? '' : r.vp[1], failed ? '' : r.rounds, r.endedBy,
    r.first === null ? '' : r.first + 1, failed ? '' : r.cpSpent[0], failed ? '' : r.cpSpent[1], failed ? '' : r.events, r.error ?? '',
  ];
  return cells.map(csvCell).join(',') + '\n';
}

// ---------------------------------------------------------------------------------------------------
// terminal

export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A proportion as a percentage; '-' for none (no game finished). */
export function pct(x: number | null, digits = 1): string {
  return x === null ? '-' : `${(100 * x).toFixed(digits)}%`;
}

/** An interval of a mean to one decimal, or what stands for none (fewer than two values). */
export function meanCiText(ci: Interval | null): string {
  return ci ? `[${f1(ci[0])}, ${f1(ci[1])}]` : '[no interval from one game]';
}

export function rateText(r: Rate): string {
  return `${pct(r.rate)} [${pct(r.ci95[0])}, ${pct(r.ci95[1])}]`;
}

function armyLabel(a: Pick<ArmyStats, 'name' | 'detachment'>): string {
  const d = a.detachment ?? 'no detachment';
  return a.name.toLowerCase().includes(d.toLowerCase()) ? a.name : `${a.name} [${d}]`;
}

/** Lines of a text table, each column aligned left ('l') or right ('r'), `gap` spaces between columns. */
export function table(rows: string[][], align: ('l' | 'r')[], gap = 2): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (align[c] === 'r' ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join(' '.repeat(gap)).trimEnd());
}

const f1 = (x: number) => x.toFixed(1);
/** a quantile: at most two decimals, no trailing zeros */
const q = (x: number) => String(Number(x.toFixed(2)));
const f2 = (x: number) => x.toFixed(2);

/** The two armies' VP distributions side by side, as shares of games with bars. */
function vpDistribution(armies: [ArmyStats, ArmyStats]): string[] {
  const { width, exact } = binWidth([armies[0].vp.histogram, armies[1].vp.histogram]);
  const binned = armies.map((a) => new Map(bin(a.vp.histogram, width).map(([v, c]) => [v, a.vp.n ? c / a.vp.n : 0])));
  const keys = [...new Set([...binned[0].keys(), ...binned[1].keys()])].sort((x, y) => x - y);
  if (!keys.length) return [];
  const label = (k: number) => (exact ? String(k) : `${k}-${k + width - 1}`);
  const bar = (share: number) => `${pct(share).padStart(6)} ${'#'.repeat(Math.round(share * 40))}`;
  const rows = [['VP', armies[0].name, armies[1].name]];
  for (let k = keys[0]; k <= keys[keys.length - 1]; k += width) rows.push([label(k), bar(binned[0].get(k) ?? 0), bar(binned[1].get(k) ?? 0)]);
  return ['VP distribution (share of games):', ...table(rows, ['r', 'l', 'l']).map((l) => `  ${l}`)];
}

/** What the scenario forbids each army ("T'au (Kauyon) without A TEMPTING TRAP"), or null when nothing. */
export function withoutStratagemsText(scenario: BatchSpec['scenario']): string | null {
  const parts = scenario.players.filter((p) => p.withoutStratagems?.length).map((p) => `${p.name} without ${p.withoutStratagems!.join(', ')}`);
  return parts.length ? `stratagems forbidden: ${parts.join('; ')}` : null;
}

/** What this run did: merged shards, found every game already played, or played some (how fast, on what). */
export function runText(o: BatchOutcome): string {
  if (o.mergedShards !== undefined) return `merged from ${o.mergedShards} shard folder${o.mergedShards === 1 ? '' : 's'}`;
  if (o.played === 0) return 'every game was already in the folder: none played';
  return `${o.played} played in ${f1(o.elapsedMs / 1000)} s (${f1(o.gamesPerSecond)} games/s, ${o.workers ? `${o.workers} worker thread${o.workers === 1 ? '' : 's'}` : 'in the main thread'})`;
}

export function formatBatchSummary(o: BatchOutcome): string {
  const s = o.stats;
  const spec = o.spec;
  const [a, b] = s.armies;
  const out: string[] = [];
  const shard = spec.shard ? `, shard ${spec.shard.k}/${spec.shard.n} (games ${o.slice.from}-${o.slice.to - 1})` : '';
  out.push(`${spec.scenario.name}: ${armyLabel(a)} vs ${armyLabel(b)}`);
  out.push(`${s.games} games${s.failed.length ? ` (+${s.failed.length} failed)` : ''}, batch seed ${spec.batchSeed}, agents ${spec.agents.join(' vs ')}, ${spec.swap ? 'sides swapped in pairs' : 'sides fixed'}${shard}`);
  const without = withoutStratagemsText(spec.scenario);
  if (without) out.push(without);
  if (o.stoppedAt !== null) out.push(`stopped at game ${o.stoppedAt}: army 1's win-rate 95% interval half-width reached ${spec.untilCi}`);
  else if (spec.untilCi !== null && o.complete) out.push(untilCiMissed(o));
  out.push(runText(o));
  out.push('');
  if (s.games === 0) {
    out.push('no game finished: every game failed, so there is nothing to report but the failures');
    out.push(...failedGamesLines(o));
    return out.join('\n') + '\n';
  }
  const col = (f: (x: ArmyStats) => string) => [f(a), f(b)];
  const rows: string[][] = [
    ['', a.name, b.name],
    ['detachment', ...col((x) => x.detachment ?? 'none')],
    ['wins (95% CI)', ...col((x) => `${x.wins.count}  ${rateText(x.wins)}`)],
    ['VP mean ± sd', ...col((x) => `${f1(x.vp.mean)} ± ${f1(x.vp.sd)}`)],
    ['VP median [p5, p95]', ...col((x) => `${q(x.vp.quantiles.p50)} [${q(x.vp.quantiles.p5)}, ${q(x.vp.quantiles.p95)}]`)],
    ...Array.from({ length: Math.max(a.vpByRound.length, b.vpByRound.length) }, (_, k) => [`VP round ${k + 1}`, ...col((x) => f2(x.vpByRound[k] ?? 0))]),
    ['CP gained / spent', ...col((x) => `${f2(x.cpGained)} / ${f2(x.cpSpent)}`)],
    ['wins going first', ...col((x) => (x.firstTurn.games ? `${rateText(x.firstTurn.wins)} of ${x.firstTurn.games}` : '-'))],
  ];
  out.push(...table(rows, ['l', 'r', 'r']));
  out.push('');
  out.push(...vpDistribution(s.armies));
  out.push('');
  out.push(`draws: ${s.draws.count}  ${rateText(s.draws)}`);
  const m = s.margin;
  out.push(`VP margin (${a.name} - ${b.name}): mean ${f1(m.mean)} ${meanCiText(m.meanCi95)}, sd ${f1(m.sd)}, median ${q(m.quantiles.p50)}, quartiles [${q(m.quantiles.p25)}, ${q(m.quantiles.p75)}], p5-p95 [${q(m.quantiles.p5)}, ${q(m.quantiles.p95)}]`);
  out.push(`player 1's side won ${rateText(s.seat1Wins)}${spec.swap ? '' : ' (the armies never changed sides)'}; the army taking the first turn won ${rateText(s.firstTurnWins)}`);
  if (s.pairs && s.pairs.pairs) {
    const p = s.pairs;
    out.push(`side-swapped pairs: ${p.pairs}; ${a.name} won both ${p.army1Both}, ${b.name} won both ${p.army2Both}, split ${p.split}, with a draw ${p.withDraw}`);
    if (p.winRateDifference) out.push(`win rate of ${a.name} less ${b.name}, pair by pair: ${pairDifferenceText(p.winRateDifference)}`);
  }
  out.push(`ended by: ${Object.entries(s.endedBy).map(([k, v]) => `${k} ${v}`).join(', ') || '-'}; mean rounds ${f2(s.meanRounds)}, mean events ${Math.round(s.meanEvents)} (decisions left out)`);
  for (const army of s.armies) {
    out.push('');
    out.push(`units of ${armyLabel(army)} (per game; an Attached unit's damage counts on its Bodyguard unit):`);
    const urows = [['unit', 'pts', 'dealt', 'taken', 'killed', 'dealt/100pts', 'survived']];
    for (const u of army.units) {
      const name = u.attachedTo ? `  ${u.name} (${u.id}, leads ${u.attachedTo})` : `${u.name} (${u.id})`;
      urows.push([name, String(u.points), f2(u.woundsDealt), f2(u.woundsTaken), f2(u.modelsKilled), f2(u.woundsDealtPer100Points), rateText(u.survival)]);
    }
    out.push(...table(urows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']).map((l) => `  ${l}`));
    if (army.stratagems.length) {
      const withOffers = army.stratagems.some((st) => st.offered);
      out.push(`stratagems of ${army.name} (CP spent per game ${f2(army.cpSpent)}${withOffers ? '; offered: games where a window for it came up' : ''}):`);
      const srows = [['stratagem', 'uses/game', 'games used', ...(withOffers ? ['games offered'] : []), 'CP/game']];
      for (const st of army.stratagems) srows.push([st.name, f2(st.usesPerGame), rateText(st.games), ...(withOffers ? [st.offered ? rateText(st.offered) : '-'] : []), f2(st.cpPerGame)]);
      out.push(...table(srows, ['l', 'r', 'r', ...(withOffers ? ['r' as const] : []), 'r']).map((l) => `  ${l}`));
      if (army.stratagems.some((st) => st.cpPerGame < st.usesPerGame - 1e-9)) out.push(`  (CP/game below uses/game: some uses cost less, e.g. free or discounted by a rule)`);
      if (!army.stratagems.some((st) => st.uses > 0)) out.push('  (none used)');
    } else out.push(`stratagems of ${army.name}: none used`);
  }
  out.push(...failedGamesLines(o));
  return out.join('\n') + '\n';
}

/** The summary's end: the failed games, each with how to replay it, and where the report is. */
function failedGamesLines(o: BatchOutcome): string[] {
  const s = o.stats;
  const out: string[] = [];
  if (s.failed.length) {
    out.push('');
    out.push(`${s.failed.length} failed game${s.failed.length === 1 ? '' : 's'}${s.games ? ' (not counted above)' : ''}:`);
    for (const f of s.failed.slice(0, 20)) {
      out.push(`  game ${f.index} (seed ${f.seed}${f.swapped ? ', sides swapped' : ''}): ${f.error}`);
      const replay = replayCommand(o.spec, o.outDir, f.index);
      const play = playCommand(o.spec, f.seed, f.swapped);
      if (replay) out.push(`    replay: ${replay}`);
      if (play) out.push(`    or:     ${play} --log game-${f.index}.jsonl`);
    }
    if (s.failed.length > 20) out.push(`  ... and ${s.failed.length - 20} more (results.json lists them all)`);
  }
  if (o.outDir) {
    out.push('');
    out.push(`report: ${join(o.outDir, 'report.html')} (results.json, games.csv, games.jsonl beside it)`);
  }
  return out;
}

/**
 * A batch none of whose games finished measured nothing: said on stderr and exit code 1 (the engine failed, as a
 * fork the engine cannot play), so that a script does not take its empty numbers for results.
 */
export function everyGameFailed(o: BatchOutcome): void {
  if (o.stats.games > 0 || o.stats.failed.length === 0) return;
  process.stderr.write(`error: every game of the batch failed (${o.stats.failed.length}): nothing was measured${o.outDir ? ` (the failures are in ${join(o.outDir, 'results.json')})` : ''}\n`);
  process.exitCode = 1;
}

/** A batch with --until-ci that played every game without its interval narrowing that far: said, not left to guess. */
export function untilCiMissed(o: BatchOutcome): string {
  return `--until-ci ${o.spec.untilCi}: not reached in ${o.stats.games} games (army 1's win-rate 95% interval half-width is ${halfWidth(o.stats.armies[0].wins.ci95).toFixed(3)}); play more games for it`;
}

/** "+2.5 points [0.9, 4.1], z 3.1": a win-rate difference in points of win rate, signed. */
export function pairDifferenceText(d: NonNullable<PairStats['winRateDifference']>): string {
  const pts = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
  return `${pts(d.mean)} points [${pts(d.ci95[0])}, ${pts(d.ci95[1])}]${d.z === null ? '' : `, z ${d.z.toFixed(1)}`}`;
}
