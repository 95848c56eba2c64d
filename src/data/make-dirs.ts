/**
 * `mkdir -p` that cannot hang. Node's own recursive mkdir (20 and later) spins forever when a parent exists
 * but cannot hold the child: a path under /proc or /sys, a dangling symlink (it reads ENOENT as "make the
 * parent first", and the parent is there). Here the missing folders are made one by one from the nearest
 * existing one, each with a plain mkdir, so such a path fails at once with the system's error: a CliError
 * (one line, exit code 2), since the path is the user's.
 */
import { existsSync, lstatSync, mkdirSync, rmdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from '../cli-error.ts';

/** Make `dir` and its missing parents; returns the folders made, outermost first (for undoing a failed write). */
export function makeDirs(dir: string): string[] {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); ) {
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  const made: string[] = [];
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]);
      made.push(missing[i]);
    } catch (err) {
      const broken = (err as NodeJS.ErrnoException).code === 'EEXIST' && lstatSync(missing[i]).isSymbolicLink();
      removeFolders(made); // a failed call leaves no empty folders behind
      throw new CliError(`cannot create the folder ${dir}: ${broken ? `${missing[i]} is a symbolic link to nothing` : (err as Error).message}`);
    }
  }
  return made;
}

/** Remove folders made by makeDirs (outermost first), innermost first; one that is no longer empty stays. */
export function removeFolders(made: readonly string[]): void {
  for (let i = made.length - 1; i >= 0; i--) {
    try { rmdirSync(made[i]); } catch { /* not empty or already gone: leave it */ }
  }
}
