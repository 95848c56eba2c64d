/**
 * Writing a game's event log (JSONL) for the commands that play or regenerate games: through a temporary
 * file renamed at the end (src/data/write-whole.ts), so that a log is never half-written; a file that cannot
 * be opened is a CLI error. A missing folder is made, as every other writer does (and removed again when
 * the game fails, so a failed command leaves nothing behind).
 */
import { closeSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirs, removeFolders } from '../data/make-dirs.ts';
import { commitPartial, discardPartial, openPartial, refuseFolderTarget } from '../data/write-whole.ts';
import type { GameEvent } from '../core/events.ts';

/**
 * Write a log as JSONL through a temporary file renamed at the end: never half-written. `write` returns the
 * event's line (for a hash of the log), written or not.
 */
export function logWriter(file: string | undefined): { write: (e: GameEvent) => string; done: () => void; fail: () => void; count: () => number } {
  let n = 0;
  if (!file) return { write: (e) => { n++; return JSON.stringify(e) + '\n'; }, done: () => {}, fail: () => {}, count: () => n };
  // a folder named as the log is refused before the game is played, not after
  refuseFolderTarget(file);
  const made = makeDirs(dirname(file));
  let fd: number | null;
  try {
    fd = openPartial(file);
  } catch (err) {
    removeFolders(made);
    throw err;
  }
  return {
    write: (e) => { const line = JSON.stringify(e) + '\n'; writeSync(fd!, line); n++; return line; },
    done: () => { if (fd !== null) closeSync(fd); fd = null; commitPartial(file); },
    fail: () => { if (fd !== null) closeSync(fd); fd = null; discardPartial(file); removeFolders(made); },
    count: () => n,
  };
}
