import { join } from 'node:path';
import { expect } from 'vitest';
import { checkArmyAgainstCatalog, loadArmyFile, unitPointsFromData, type ArmyFile } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { SCENARIOS_DIR } from '../../src/data/scenario.ts';

/**
 * A bundled army file is valid against the data, plays `detachment` at `battleSize`, is priced unit by
 * unit as the data says, and its total is within [minPoints, the limit].
 */
export function expectBundledArmy(file: string, faction: string, detachment: string, battleSize: { name: string; pointsLimit: number }, minPoints: number): ArmyFile {
  const path = join(SCENARIOS_DIR, 'armies', file);
  const army = loadArmyFile(path);
  const catalog = loadFactionCatalog(faction);
  expect(checkArmyAgainstCatalog(army, catalog, path)).toEqual([]);
  expect(army.detachment).toBe(detachment);
  expect(army.battleSize).toEqual(battleSize);
  for (const u of army.units) expect(unitPointsFromData(u, catalog.byId(u.datasheetId)!, catalog), `${u.id} ${u.name}`).toBe(u.points);
  const total = army.units.reduce((s, u) => s + u.points, 0);
  expect(army.points).toBe(total);
  expect(total).toBeLessThanOrEqual(battleSize.pointsLimit);
  expect(total).toBeGreaterThanOrEqual(minPoints);
  return army;
}
