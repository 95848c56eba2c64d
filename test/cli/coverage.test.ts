import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';

describe('strategium coverage', () => {
  it('--faction tau --armies --json: the T\'au datasheets of the bundled armies, all played', () => {
    const r = cli(['coverage', '--faction', 'tau', '--armies', '--json']);
    expect(r.code).toBe(0);
    const [tau] = JSON.parse(r.stdout);
    expect(tau.id).toBe('TAU');
    expect(tau.datasheets.length).toBeGreaterThanOrEqual(10);
    expect(tau.datasheets.filter((d: { status: string }) => d.status !== 'played')).toEqual([]);
    expect(tau.detachments.map((d: { name: string }) => d.name)).toContain('Kauyon');
  });

  it('an unknown faction is a one-line error', () => {
    const r = cli(['coverage', '--faction', 'orks']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not bundled/);
  });

  it('docs/coverage.md is what --markdown prints', () => {
    const r = cli(['coverage', '--markdown']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'docs', 'coverage.md'), 'utf8')).toBe(r.stdout);
  });
});
