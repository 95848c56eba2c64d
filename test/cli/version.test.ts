import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';

describe('strategium --version', () => {
  it("prints package.json's version (what a bug report quotes)", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const r = cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
