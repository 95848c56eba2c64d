import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');

/** Run the CLI as a user would (through tsx), capturing output and exit code. */
export function cli(args: string[], opts: { input?: string; timeout?: number; cwd?: string } = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli.ts'), ...args], {
    cwd: opts.cwd ?? root, encoding: 'utf8', input: opts.input, timeout: opts.timeout ?? 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
