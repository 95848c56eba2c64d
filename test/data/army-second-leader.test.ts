// An army file attaching two Leaders to one Bodyguard unit: the scenario loader refuses the pair (a Bodyguard
// unit takes one Leader, two of different datasheets only for a 20-model BODYGUARD unit), and the `army`
// command, which checks the same file, said nothing about it.
import { describe, expect, it } from 'vitest';
import { checkArmyAgainstCatalog, validateArmy, type ArmyFile } from '../../src/data/army.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { SCENARIOS_DIR } from '../../src/data/scenario.ts';

function army(): ArmyFile {
  const tau = loadFactionCatalog('tau');
  const ds = (name: string) => tau.byName(name)!.id;
  return validateArmy({
    name: 'Two Leaders', faction: 'TAU', detachment: 'Kauyon', battleSize: { name: 'Incursion', pointsLimit: 1000 }, points: 0,
    units: [
      { id: 'u1', datasheetId: ds("Aun'shi"), name: "Aun'shi", points: 0, warlord: true, models: [{ profile: "Aun'Shi", count: 1, weapons: ['Fidelity'] }] },
      { id: 'u2', datasheetId: ds('Cadre Fireblade'), name: 'Cadre Fireblade', points: 0, models: [{ profile: 'Cadre Fireblade', count: 1, weapons: ['Fireblade pulse rifle', 'Close combat weapon'] }] },
      { id: 'u3', datasheetId: ds('Strike Team'), name: 'Strike Team', points: 0, models: [{ profile: 'Fire Warriors', count: 10, weapons: ['Pulse rifle', 'Close combat weapon'] }] },
    ],
  });
}
const leaderWarnings = (a: ArmyFile) => checkArmyAgainstCatalog(a, loadFactionCatalog('tau'), 'a.json').filter((w) => /already has a Leader/.test(w));

describe('two Leaders attached to one unit in an army file', () => {
  it('one Leader: no warning', () => {
    const a = army();
    a.units[0].attachedTo = 'u3';
    expect(leaderWarnings(a)).toEqual([]);
  });

  it('a second Leader on a 10-model Strike Team is warned about, naming the field, the unit and the first Leader', () => {
    const a = army();
    a.units[0].attachedTo = 'u3';
    a.units[1].attachedTo = 'u3';
    expect(leaderWarnings(a)).toEqual([
      "units[1].attachedTo: Strike Team (u3) already has a Leader (Aun'shi (u1)); a Bodyguard unit takes one Leader (two of different datasheets for a BODYGUARD unit of 20 models, or where a Leader's text lets it join beside the other), so a game refuses the army until one is detached",
    ]);
  });

  it('each Leader on its own unit: no warning', () => {
    const a = army();
    a.units.push({ ...a.units[2], id: 'u4' });
    a.units[0].attachedTo = 'u3';
    a.units[1].attachedTo = 'u4';
    expect(leaderWarnings(a)).toEqual([]);
  });
});

describe('two Leaders of different datasheets on a 20-model BODYGUARD unit (Kroot Carnivores)', () => {
  const kroot = () => JSON.parse(readFileSync(join(SCENARIOS_DIR, 'armies', 'tau-kroot-hunting-pack.json'), 'utf8')) as ArmyFile;
  it('War Shaper and Trail Shaper on the 20 Carnivores: allowed; on the 10 Carnivores: warned', () => {
    const a = kroot();
    const byName = (n: string) => a.units.find((u) => u.name === n)!;
    const size = (u: ArmyFile['units'][number]) => u.models.reduce((n, m) => n + m.count, 0);
    const twenty = a.units.find((u) => u.name === 'Kroot Carnivores' && size(u) === 20)!;
    const ten = a.units.find((u) => u.name === 'Kroot Carnivores' && size(u) === 10)!;
    byName('Kroot War Shaper').attachedTo = twenty.id;
    byName('Kroot Trail Shaper').attachedTo = twenty.id;
    expect(leaderWarnings(validateArmy(a))).toEqual([]);
    byName('Kroot War Shaper').attachedTo = ten.id;
    byName('Kroot Trail Shaper').attachedTo = ten.id;
    expect(leaderWarnings(validateArmy(a))).toEqual([expect.stringMatching(/^units\[1\]\.attachedTo: Kroot Carnivores \(u8\) already has a Leader \(Kroot War Shaper \(u1\)\)/)]);
  });
});
