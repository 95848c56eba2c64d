import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';
import { EXPORT_DIR, HAVE_EXPORT } from './paths.ts';

describe.skipIf(!HAVE_EXPORT)('strategium import wahapedia (CLI)', () => {
  it('prints the unparsed summary and writes one file per faction, identical to the bundled one', () => {
    const out = mkdtempSync(join(tmpdir(), 'import-'));
    const r = cli(['import', 'wahapedia', EXPORT_DIR, '--factions', 'TAU', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Unknown weapon ability words \(\d+\): /);
    expect(r.stdout).toMatch(/Unparsed wargear options \(\d+\)/);
    expect(r.stdout).toMatch(/Unknown base sizes \(0\)/);
    expect(r.stdout).toMatch(/wrote .*tau\/units\.json: T'au Empire, 63 datasheets/);
    expect(readFileSync(join(out, 'tau', 'units.json'), 'utf8')).toBe(readFileSync(join(root, 'src', 'factions', 'tau', 'units.json'), 'utf8'));
  });

  it('bad input is a one-line error with exit code 2 and writes nothing', () => {
    const out = mkdtempSync(join(tmpdir(), 'import-'));
    const r = cli(['import', 'wahapedia', join(tmpdir(), 'no-such-export'), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*no-such-export: export directory not found/);
    expect(existsSync(join(out, 'tau'))).toBe(false);
  });
});
