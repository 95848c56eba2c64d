// The CLI typed from another folder than the project's root (`npx strategium` in a project of one's own):
// a command given no scenario found the default one only from the root, and a scenario path typed from
// elsewhere went into the log as typed, so the same game wrote another log.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';

const elsewhere = join(root, 'test');
const sha = (args: string[], cwd?: string) => {
  const r = cli(['play', ...args, '--seed', '42', '--agents', 'random,random', '--json'], { cwd });
  expect(r.stderr.split('\n').filter((l) => /^error/.test(l))).toEqual([]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).logSha256 as string;
};

describe('the CLI from another working folder', () => {
  it('a command given no scenario plays the default one, writing the log it writes from the root', () => {
    expect(sha([], elsewhere)).toBe(sha([]));
  });

  it('a scenario typed as a path from the working folder is recorded from the project root: the same log', () => {
    expect(sha(['../scenarios/default.json'], elsewhere)).toBe(sha(['scenarios/default.json']));
  });
});
