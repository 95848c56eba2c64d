import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';

describe('strategium --version', () => {
  it("prints package.json's version and the checkout's commit (what a bug report quotes)", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const r = cli(['--version']);
    expect(r.code).toBe(0);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    // in a git checkout (CI's clean clone too): its commit, as git names it; outside one, the number alone
    let commit: string;
    try {
      commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      expect(r.stdout.trim()).toBe(version);
      return;
    }
    const m = /^(.+) \(commit ([0-9a-f]{12})(-dirty)?\)$/.exec(r.stdout.trim());
    expect(m, r.stdout).not.toBeNull();
    expect(m![1]).toBe(version);
    expect(commit.startsWith(m![2])).toBe(true);
  });
});
