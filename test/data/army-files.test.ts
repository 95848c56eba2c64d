/**
 * The `army` command on army files (JSON) and on paths that are neither file kind: the file's points checked
 * against the data and its battle size, warnings kept on stderr with --json, a byte-order mark and an upper-case
 * extension taken, a folder refused in one line naming it (by `army` and by `--armies`).
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli-error.ts';
import { runArmy } from '../../src/data/army-command.ts';
import { DataError } from '../../src/data/errors.ts';
import { SCENARIOS_DIR, DEFAULT_SCENARIO } from '../../src/data/scenario.ts';
import { scenarioVariant } from '../../src/sim/variants.ts';

const dir = mkdtempSync(join(tmpdir(), 'army-files-'));
const KAUYON = join(SCENARIOS_DIR, 'armies', 'tau-kauyon.json');
const kauyon = () => JSON.parse(readFileSync(KAUYON, 'utf8'));

/** What `army FILE` prints on stdout and stderr. */
async function army(file: string, opts: Parameters<typeof runArmy>[1] = {}): Promise<{ out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [w1, w2] = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((t: string) => { out.push(t); return true; }) as typeof process.stdout.write;
  process.stderr.write = ((t: string) => { err.push(t); return true; }) as typeof process.stderr.write;
  try {
    await runArmy(file, opts);
  } finally {
    [process.stdout.write, process.stderr.write] = [w1, w2];
  }
  return { out: out.join(''), err: err.join('') };
}

describe('army on an army file', () => {
  it('checks its points against the data and its battle size, as a game does', async () => {
    const a = kauyon();
    const i = a.units.findIndex((u: { name: string }) => u.name === 'Aun\'shi');
    a.units[i].points = 10; // the data says 50
    a.battleSize = { name: 'Incursion', pointsLimit: 1000 };
    const file = join(dir, 'mispriced.json');
    writeFileSync(file, JSON.stringify(a));
    const { out } = await army(file);
    const total = a.units.reduce((s: number, u: { points: number }) => s + u.points, 0);
    expect(out).toContain(`  Aun'shi (${a.units[i].id}) is priced 10 points; the data says 50\n`);
    expect(out).toContain(`  the army file says ${a.points} points; its units total ${total}\n`);
    expect(out).toContain(`  ${total} points is over the Incursion limit of 1000\n`);
    // the bundled file as it is: none of them
    expect((await army(KAUYON)).out).not.toMatch(/priced|its units total|over the/);
  });

  it('--json prints the file on stdout and the muster warnings on stderr (the file keeps none of them)', async () => {
    const a = kauyon();
    const shi = a.units.find((u: { name: string }) => u.name === 'Aun\'shi');
    a.units.push({ ...shi, id: 'u99', warlord: undefined });
    a.points += shi.points;
    const file = join(dir, 'two-epic-heroes.json');
    writeFileSync(file, JSON.stringify(a));
    const { out, err } = await army(file, { json: true });
    expect(JSON.parse(out).units).toHaveLength(a.units.length);
    expect(err).toContain("warning: 2 Aun'shi units: an EPIC HERO can be included once\n");
  });

  it('reads a file with a byte-order mark, and one whose extension is upper case, as an army file', async () => {
    const text = readFileSync(KAUYON, 'utf8');
    const bom = join(dir, 'bom.json');
    writeFileSync(bom, `\ufeff${text}`);
    const upper = join(dir, 'TAU.JSON');
    writeFileSync(upper, text);
    const plain = (await army(KAUYON)).out;
    expect((await army(bom)).out).toBe(plain);
    expect((await army(upper)).out).toBe(plain);
  });

  it('refuses a folder in one line naming it: army, and --armies', async () => {
    const folder = join(dir, 'lists');
    mkdirSync(folder);
    const said = `${folder}: expected an army list export (.txt) or an army file (.json), found a folder`;
    await expect(army(folder)).rejects.toThrow(CliError);
    await expect(army(folder)).rejects.toThrow(said);
    expect(() => scenarioVariant(DEFAULT_SCENARIO, { armies: [folder, undefined] })).toThrow(DataError);
    expect(() => scenarioVariant(DEFAULT_SCENARIO, { armies: [folder, undefined] })).toThrow(said);
  });
});
