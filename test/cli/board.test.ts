import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';

describe('strategium board', () => {
  it('draws a scenario as deployed, and a game state', () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-'));
    const out = join(dir, 'deploy.svg');
    const r = cli(['board', 'scenarios/default.json', '--svg', out, '--seed', '3']);
    expect(r.code).toBe(0);
    const svg = readFileSync(out, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Strike Team');
    expect(svg).toContain('Guardian Defenders');
    // a state: the same picture of a state file with one unit
    const state = {
      board: { width: 60, height: 44, terrain: [], deploymentZones: [] }, objectives: [], unitOrder: ['u'],
      datasheets: { d: { id: 'd', keywords: [], models: [{ base: { shape: 'round', diameterMm: 32 } }] } },
      units: { u: { id: 'u', name: 'Lonely <Unit>', player: 0, location: 'battlefield', models: [{ id: 'm', alive: true, datasheet: 'd', profile: 0, pos: { x: 10, y: 10, z: 0 } }] } },
    };
    const sf = join(dir, 'state.json');
    writeFileSync(sf, JSON.stringify(state));
    const r2 = cli(['board', sf]);
    expect(r2.code).toBe(0);
    expect(r2.stdout).toContain('Lonely &lt;Unit&gt;');
  });
});
