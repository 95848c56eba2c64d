/**
 * `mkdir -p` that cannot hang. Node's own recursive mkdir (20 and later) spins forever when a parent exists
 * but cannot hold the child: a path under /proc or /sys, a dangling symlink (it reads ENOENT as "make the
 * parent first", and the parent is there). Here the missing folders are made one by one from the nearest
 * existing one, each with a plain mkdir, so such a path fails at once with the system's error.
 */
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); ) {
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]);
    } catch (err) {
      const broken = (err as NodeJS.ErrnoException).code === 'EEXIST' && lstatSync(missing[i]).isSymbolicLink();
      throw new Error(`cannot create the folder ${dir}: ${broken ? `${missing[i]} is a symbolic link to nothing` : (err as Error).message}`);
    }
  }
}
