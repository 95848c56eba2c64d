/**
 * The batch progress bar (cli-progress, on stderr): games done, games per second, time left and the
 * running win rate of each army with its 95% interval half-width.
 */
import cliProgress from 'cli-progress';
import type { Progress } from './batch.ts';
import { halfWidth, wilson } from './stats.ts';

export interface ProgressDisplay {
  update(p: Progress): void;
  stop(): void;
}

function clock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A bar on stderr when it is a terminal (or when forced); otherwise nothing. */
export function progressBar(names: [string, string], opts: { force?: boolean; prefix?: string } = {}): ProgressDisplay {
  if (!process.stderr.isTTY && !opts.force) return { update() {}, stop() {} };
  const short = names.map((n) => (n.length > 16 ? `${n.slice(0, 15)}…` : n));
  const bar = new cliProgress.SingleBar({
    stream: process.stderr,
    format: `${opts.prefix ?? ''}{bar} {value}/{total} games | {gps} games/s | left {left} | {wr}`,
    barsize: 24,
    hideCursor: true,
    clearOnComplete: false,
    fps: 5,
    noTTYOutput: opts.force === true,
    notTTYSchedule: 2000,
  }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    update(p) {
      const secs = p.elapsedMs / 1000;
      const gps = secs > 0 ? p.played / secs : 0;
      const left = gps > 0 ? (p.total - p.done) / gps : Infinity;
      const n = p.done - p.failed;
      const wr = n > 0
        ? [0, 1].map((a) => `${short[a]} ${((100 * p.wins[a]) / n).toFixed(1)}% ±${(100 * halfWidth(wilson(p.wins[a], n))).toFixed(1)}`).join(' | ') + (p.failed ? ` | ${p.failed} failed` : '')
        : '';
      const payload = { gps: gps.toFixed(1), left: clock(left), wr };
      if (!started) {
        bar.start(p.total, p.done, payload);
        started = true;
      } else bar.update(p.done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
