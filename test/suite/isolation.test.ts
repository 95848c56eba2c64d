/**
 * The suite's test files share a module graph per worker (vitest.config.ts, `isolate: false`), where a
 * vi.mock cannot replace a module another file has loaded: every file that mocks a module must be in the
 * config's isolated project, or it passes or fails by the order the files run in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';
import { root } from '../helpers/cli.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []);
}

describe('the test files\' isolation', () => {
  const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[]; exclude?: string[]; isolate?: boolean } }[];
  const shared = projects.find((p) => p.test.name === 'shared')!.test;
  const isolated = projects.find((p) => p.test.name === 'isolated')!.test;

  it('every file that calls vi.mock runs in the isolated project, and only there', () => {
    const mocking = testFiles(join(root, 'test')).filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f)).sort();
    expect(mocking.length).toBeGreaterThan(0);
    expect([...isolated.include].sort()).toEqual(mocking);
    expect([...(shared.exclude ?? [])].sort()).toEqual(mocking);
    expect(shared.isolate).toBe(false);
    expect(isolated.isolate).not.toBe(false);
  });
});
