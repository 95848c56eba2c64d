// An army file naming a detachment the data does not have: the `army` command said nothing about it (a
// list export was warned about), and the same file was then refused by `play --armies`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkArmyAgainstCatalog, loadArmyFile } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { SCENARIOS_DIR } from '../../src/data/scenario.ts';
import { cli } from '../helpers/cli.ts';

const tau = loadFactionCatalog('tau');
const army = () => loadArmyFile(join(SCENARIOS_DIR, 'armies', 'tau-kauyon.json'));
const detachmentWarnings = (a: ReturnType<typeof army>) => checkArmyAgainstCatalog(a, tau, 'a.json').filter((w) => /detachment/.test(w));

describe('an army file\'s detachment name is checked against the data', () => {
  it('a known detachment, or none: no warning', () => {
    expect(detachmentWarnings(army())).toEqual([]);
    expect(detachmentWarnings({ ...army(), detachment: '' })).toEqual([]);
  });

  it('a misspelt one is warned about, with the closest names and what a game does', () => {
    expect(detachmentWarnings({ ...army(), detachment: 'Kauyn' })).toEqual([
      expect.stringMatching(/^detachment "Kauyn" is not a T'au Empire detachment in the data; closest: Kauyon.*: a game refuses it unless its scenario names another$/),
    ]);
  });

  it('the army command prints the warning for a .json army file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'army-detachment-')), 'kauyn.json');
    writeFileSync(file, JSON.stringify({ ...army(), detachment: 'Kauyn' }));
    const r = cli(['army', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/detachment "Kauyn" is not a T'au Empire detachment in the data; closest: Kauyon/);
  });
});
