import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { Replay } from '../../src/replay/replay.ts';

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

  it('draws a logged game after event N (its end by default), one label per unit then on the table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-'));
    const log = join(dir, 'g.jsonl');
    expect(cli(['play', 'scenarios/default.json', '--agents', 'random,random', '--seed', '6', '--log', log]).code).toBe(0);
    const r = Replay.fromFile(log);
    const deployed = r.marks.find((m) => m.kind === 'round')!.position;
    const onTable = (n: number) => { const s = r.at(n); return s.unitOrder.filter((id) => s.units[id].location === 'battlefield' && s.units[id].models.some((m) => m.alive && m.pos)).length; };
    // (two moments with different units on the table: reserves arrive, units die)
    expect(onTable(deployed)).not.toBe(onTable(r.length));
    for (const [args, n] of [[[], r.length], [['--at', String(deployed)], deployed], [['--at', 'end'], r.length]] as const) {
      const b = cli(['board', log, ...args]);
      expect(b.code).toBe(0);
      expect(b.stdout).toContain(`after event ${n} of ${r.length}`);
      expect(b.stdout.match(/<text[^>]*font-size="0.8"/g)?.length ?? 0).toBe(onTable(n));
    }
    const bad = cli(['board', log, '--at', String(r.length + 1)]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--at: expected an event number from 0 to ${r.length}`);
    expect(cli(['board', 'scenarios/default.json', '--at', '3']).stderr).toContain('--at goes with a logged game');
  });
});
