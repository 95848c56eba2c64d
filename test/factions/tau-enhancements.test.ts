/**
 * Enhancements that change one of their bearer's weapons (src/rules/enhanced-weapons.ts, the
 * Experimental Prototype Cadre's in src/factions/tau/enhancements.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../src/factions/index.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import type { ResolvedPlayer } from '../../src/data/scenario-types.ts';
import { withEnhancedWeapons } from '../../src/rules/enhanced-weapons.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { loadAgents } from '../../src/core/agent-loader.ts';
import { scenarioVariant } from '../../src/sim/variants.ts';
import { planFor } from '../helpers/plan.ts';
import { HAVE_LISTS, LISTS_DIR } from '../data/paths.ts';

const tau = loadFactionCatalog('TAU');

/** A player whose army is one Commander in Coldstar Battlesuit with `weapons` and `enhancement`. */
function coldstar(weapons: string[], enhancement: string, count = 1): ResolvedPlayer {
  const ds = tau.byName('Commander In Coldstar Battlesuit')!;
  return {
    datasheets: { [ds.id]: ds },
    army: { name: 'x', faction: 'TAU', detachment: '', battleSize: { name: 'Strike Force', pointsLimit: 2000 }, points: 0,
      units: [{ id: 'u1', datasheetId: ds.id, name: ds.name, points: 0, enhancement, models: [{ profile: ds.composition[0].profile, count, weapons }] }] },
  } as unknown as ResolvedPlayer;
}

describe('Enhancements that change a weapon', () => {
  it('Plasma Accelerator Rifle: the bearer\'s plasma rifle becomes a weapon of its own with S+2, A+1, AP and D improved by 1', () => {
    const p = coldstar(['Plasma rifle', 'Battlesuit fists'], 'Plasma Accelerator Rifle');
    const out = withEnhancedWeapons(p);
    expect(out.army.units[0].models[0].weapons).toEqual(['Plasma rifle (Plasma Accelerator Rifle)', 'Battlesuit fists']);
    const ds = Object.values(out.datasheets)[0];
    const base = ds.weapons.find((w) => w.name === 'Plasma rifle')!.profiles[0];
    const better = ds.weapons.find((w) => w.name === 'Plasma rifle (Plasma Accelerator Rifle)')!.profiles[0];
    expect([better.strength, better.attacks.plus, better.ap, better.damage.plus]).toEqual([base.strength + 2, base.attacks.plus + 1, base.ap - 1, base.damage.plus + 1]);
    expect([better.range, better.skill, better.abilities]).toEqual([base.range, base.skill, base.abilities]);
    // the catalog's datasheet is not changed
    expect(tau.byName('Commander In Coldstar Battlesuit')!.weapons.some((w) => w.name.includes('Accelerator'))).toBe(false);
  });

  it('Fusion Blades: one of four fusion blasters, with A+1, S+3 and MELTA 4 (not MELTA 2 as well)', () => {
    const out = withEnhancedWeapons(coldstar(['Fusion blaster', 'Fusion blaster', 'Fusion blaster', 'Fusion blaster', 'Battlesuit fists'], 'Fusion Blades'));
    expect(out.army.units[0].models[0].weapons.filter((w) => w === 'Fusion blaster (Fusion Blades)')).toHaveLength(1);
    expect(out.army.units[0].models[0].weapons.filter((w) => w === 'Fusion blaster')).toHaveLength(3);
    const ds = Object.values(out.datasheets)[0];
    const base = ds.weapons.find((w) => w.name === 'Fusion blaster')!.profiles[0];
    const better = ds.weapons.find((w) => w.name === 'Fusion blaster (Fusion Blades)')!.profiles[0];
    expect([better.attacks.plus, better.strength]).toEqual([base.attacks.plus + 1, base.strength + 3]);
    expect(better.abilities.filter((a) => a.name === 'MELTA')).toEqual([{ name: 'MELTA', x: 4 }]);
  });

  it("Supernova Launcher: the bearer's airbursting fragmentation projector with S+3, AP and Damage improved by 1 (audit 19 mutant E04)", () => {
    const out = withEnhancedWeapons(coldstar(['Airbursting fragmentation projector', 'Battlesuit fists'], 'Supernova Launcher'));
    expect(out.army.units[0].models[0].weapons).toContain('Airbursting fragmentation projector (Supernova Launcher)');
    const ds = Object.values(out.datasheets)[0];
    const base = ds.weapons.find((w) => w.name === 'Airbursting fragmentation projector')!.profiles[0];
    const better = ds.weapons.find((w) => w.name === 'Airbursting fragmentation projector (Supernova Launcher)')!.profiles[0];
    expect([better.strength, better.ap, better.damage.plus]).toEqual([base.strength + 3, base.ap - 1, base.damage.plus + 1]);
  });

  it('a bearer without the weapon, or an Enhancement that changes none: the player as it was', () => {
    const none = coldstar(['Battlesuit fists'], 'Plasma Accelerator Rifle');
    expect(withEnhancedWeapons(none)).toBe(none);
    const other = coldstar(['Plasma rifle'], 'Exemplar of the Kauyon');
    expect(withEnhancedWeapons(other)).toBe(other);
  });

  it.runIf(HAVE_LISTS)('in a game of the real list: the Enhancements\' weapons are played, the log keeps the list as given', async () => {
    const list = join(LISTS_DIR, 'listgrok_nr_nr1.txt');
    const sc = scenarioVariant(join(import.meta.dirname, '..', '..', 'scenarios', 'default.json'), { armies: [list, undefined], fitWargear: true });
    const g = createGame(sc, { seed: 'enh', agents: await loadAgents(['random', 'random'], 'enh'), log: true });
    const units = Object.values(g.state.units).filter((u) => u.player === 0);
    const carried = units.flatMap((u) => u.models.flatMap((m) => m.weapons)).filter((w) => w.includes('('));
    expect(carried.sort()).toEqual(['Fusion blaster (Fusion Blades)', 'Plasma rifle (Plasma Accelerator Rifle)', "T'au flamer (Thermoneutronic Projector)"]);
    const bearer = units.find((u) => u.models.some((m) => m.weapons.includes('Plasma rifle (Plasma Accelerator Rifle)')))!;
    const enemy = Object.values(g.state.units).find((u) => u.player === 1 && u.models.length > 0)!;
    const base = tau.byName('Commander In Coldstar Battlesuit')!.weapons.find((w) => w.name === 'Plasma rifle')!.profiles[0];
    expect(planFor(g, bearer.id, enemy.id, 'Plasma rifle (Plasma Accelerator Rifle)').strength).toBe(base.strength + 2);
    const started = g.log![0] as { scenario: { players: { army: { units: { models: { weapons: string[] }[] }[] } }[] } };
    expect(started.scenario.players[0].army.units.flatMap((u) => u.models.flatMap((m) => m.weapons)).some((w) => w.includes('('))).toBe(false);
  });
});
