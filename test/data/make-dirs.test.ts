/**
 * Output folders are made without Node's recursive mkdir, which spins forever on a path under /proc or
 * through a dangling symbolic link: such an --out fails at once, naming the folder.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDirs } from '../../src/data/make-dirs.ts';
import { cli } from '../helpers/cli.ts';

describe('makeDirs', () => {
  it('makes the missing folders of a path, and leaves an existing one as it is', () => {
    const base = mkdtempSync(join(tmpdir(), 'strategium-dirs-'));
    try {
      makeDirs(join(base, 'a', 'b', 'c'));
      expect(statSync(join(base, 'a', 'b', 'c')).isDirectory()).toBe(true);
      makeDirs(join(base, 'a', 'b'));
      writeFileSync(join(base, 'file'), '');
      expect(() => makeDirs(join(base, 'file', 'x'))).toThrow(/cannot create the folder .*file[/\\]x: ENOTDIR/);
      symlinkSync(join(base, 'nowhere'), join(base, 'link'));
      expect(() => makeDirs(join(base, 'link', 'x'))).toThrow(/link is a symbolic link to nothing/);
      expect(existsSync(join(base, 'nowhere'))).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  // in a child process with a time limit: Node's own recursive mkdir would spin there, blocking this process
  it.skipIf(!existsSync('/proc'))('batch --out under /proc or through a dangling link fails at once (Node\'s recursive mkdir spins)', () => {
    const base = mkdtempSync(join(tmpdir(), 'strategium-dirs-'));
    try {
      symlinkSync(join(base, 'nowhere'), join(base, 'link'));
      for (const out of ['/proc/strategium-out', join(base, 'link', 'out')]) {
        const r = cli(['batch', 'scenarios/default.json', '--games', '2', '--agents', 'random,random', '--workers', '0', '--out', out], { timeout: 30_000 });
        expect(r.code).toBe(2); // an --out that cannot be made is bad input: a CliError from makeDirs
        expect(r.stderr).toMatch(/cannot create the folder/);
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync('/proc'))('army --out that cannot be written is a one-line error, exit 2 (it was a stack trace)', () => {
    const r = cli(['army', 'scenarios/armies/tau-kauyon.json', '--out', '/proc/strategium-army.json'], { timeout: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: /proc/strategium-army.json: cannot write (ENOENT)');
  });
});
