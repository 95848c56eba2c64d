/**
 * Every detachment stratagem the engine plays has the CP cost and category of the imported data (the
 * Wahapedia export, as derived into src/factions/<faction>/units.json). Battle Host is not in the export
 * (the seed pages are its source), so only the stratagems found there are compared.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import '../../src/rules/index.ts';
import '../../src/factions/index.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';

interface DataStratagem { name: string; cp: number; type: string; detachment: string }

describe('detachment stratagems match the imported data', () => {
  for (const faction of ['tau', 'aeldari']) {
    it(faction, () => {
      const data = JSON.parse(readFileSync(new URL(`../../src/factions/${faction}/units.json`, import.meta.url), 'utf8')) as { stratagems: DataStratagem[] };
      let compared = 0;
      for (const s of allStratagems()) {
        const row = data.stratagems.find((d) => d.name.toUpperCase() === s.name.toUpperCase() && d.detachment === s.source);
        if (!row) continue;
        compared++;
        // the export gives some detachments' stratagems no category (Serpent's Brood): their cost is compared
        const type = row.type.replace(/ Stratagem$/, '');
        expect(`${s.name}: ${s.cp} CP, ${type ? s.category : ''}`).toBe(`${s.name}: ${row.cp} CP, ${type}`);
      }
      // each faction has at least one detachment of six stratagems in the export
      expect(compared).toBeGreaterThanOrEqual(6);
    });
  }
});
