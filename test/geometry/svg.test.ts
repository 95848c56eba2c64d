import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { renderBoardSvg, xmlEscape, type BoardPicture } from '../../src/geometry/svg.ts';
import { register } from '../../src/geometry/commands.ts';
import { CliError } from '../../src/cli-error.ts';
import { body, circle, oval, rect, square } from './helpers.ts';

const picture: BoardPicture = {
  board: { width: 60, height: 44, terrain: [{ id: 'ruin "A"', kind: 'ruin', polygon: square(10, 10, 6, 4), height: 4 }] },
  deploymentZones: [
    { player: 'tau', polygon: square(0, 0, 60, 12) },
    { player: 'aeldari', polygon: square(0, 32, 60, 12) },
  ],
  objectives: [{ id: '1', pos: { x: 30, y: 22 } }],
  models: [
    { id: 'm1', unitId: 'u1', unitName: 'Strike Team <Kauyon> & "friends"', player: 'tau', body: body(20, 6) },
    { id: 'm2', unitId: 'u1', unitName: 'Strike Team <Kauyon> & "friends"', player: 'tau', body: body(22, 6) },
    { id: 'm3', unitId: 'u2', unitName: 'Wave Serpent', player: 'aeldari', body: body(30, 38, oval(2, 1.2, 0.4)) },
    { id: 'm4', unitId: 'u3', unitName: 'Falcon', player: 'aeldari', body: body(40, 38, rect(5, 3)) },
    { id: 'm5', unitId: 'u4', unitName: 'Gone', player: 'aeldari', body: body(45, 38, circle(0.5)), destroyed: true },
  ],
};

describe('board picture', () => {
  it('escapes text for XML', () => {
    expect(xmlEscape(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
  it('draws zones, terrain, objectives with their range, models by base shape, one escaped label per unit', () => {
    const svg = renderBoardSvg(picture);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('viewBox="0 0 60 44"');
    expect(svg.match(/<polygon/g)).toHaveLength(3); // 2 zones + 1 ruin
    expect(svg).toContain('<ellipse');
    expect(svg).toContain('<rect x="-2.5" y="-1.5" width="5" height="3"');
    // marker disc (20 mm) and its 3" range from the edge
    expect(svg).toContain('r="0.787"');
    expect(svg).toContain('r="3.787"');
    expect(svg).toContain('Strike Team &lt;Kauyon&gt; &amp; &quot;friends&quot;');
    expect(svg).not.toContain('<Kauyon>');
    expect(svg).toContain('ruin &quot;A&quot;');
    // one label per unit still on the table (destroyed units get none)
    expect(svg.match(/<text[^>]*font-size="0.8"/g)).toHaveLength(3);
    // players coloured differently
    expect(svg).toContain('#2563eb');
    expect(svg).toContain('#dc2626');
  });
});

describe('CLI: board <file> --svg <out>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strategium-board-'));
  const run = async (...args: string[]) => {
    const program = new Command();
    program.exitOverride();
    register(program);
    await program.parseAsync(['node', 'strategium', ...args]);
  };
  it('writes the SVG', async () => {
    const file = join(dir, 'ok.json');
    const out = join(dir, 'ok.svg');
    writeFileSync(file, JSON.stringify(picture));
    await run('board', file, '--svg', out);
    expect(readFileSync(out, 'utf8')).toContain('Wave Serpent');
  });
  it('names the file and the field on bad input', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...picture, models: [{ ...picture.models[0], body: { pos: { x: 1, y: 2 }, base: { kind: 'circle', r: 'big' } } }] }));
    const err = await run('board', file, '--svg', join(dir, 'bad.svg')).catch((e) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err.message).toBe(`${file}: models[0].body.base.r: Invalid input: expected number, received string`);
    expect(err.exitCode).toBe(2);
  });
  it('reports unreadable files and invalid JSON', async () => {
    const missing = join(dir, 'missing.json');
    await expect(run('board', missing)).rejects.toThrow(`${missing}: cannot read file (ENOENT)`);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{nope');
    await expect(run('board', junk)).rejects.toThrow(/junk.json: not valid JSON/);
  });
});
