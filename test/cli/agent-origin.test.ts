// An agent a scenario file names that does not exist: the error blamed --agents, which the user never typed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, root } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'agent-origin-'));
const file = join(dir, 'misspelt-agent.json');
const s = JSON.parse(readFileSync(join(root, 'scenarios', 'default.json'), 'utf8'));
for (const p of s.players) p.army = join(root, 'scenarios', p.army);
s.players[1].agent = 'heurstic';
delete s.players[1].agentParams;
writeFileSync(file, JSON.stringify(s));

describe('an unknown agent named by a scenario file', () => {
  it('play names the file and the field', () => {
    const r = cli(['play', file, '--seed', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: players\\[1\\]\\.agent: unknown agent "heurstic"`));
  });

  it('batch names the file and the field; --agents still names the option', () => {
    const r = cli(['batch', file, '--games', '2', '--workers', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/: players\[1\]\.agent: unknown agent "heurstic"/);
    const o = cli(['batch', file, '--games', '2', '--workers', '0', '--agents', 'random,nosuch']);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/^error: --agents: unknown agent "nosuch"/);
  });
});
