import { loadFactionCatalog } from '../../src/data/catalog.ts';
import type { ArmyFile, ArmyUnit } from '../../src/data/army.ts';
import type { Datasheet } from '../../src/data/datasheet.ts';
import type { ResolvedScenario, ResolvedPlayer } from '../../src/data/scenario-types.ts';

/** A small two-army scenario built from the bundled catalogs, for engine tests. */
export function miniScenario(opts: { tau?: string[]; aeldari?: string[]; terrain?: boolean; rounds?: number } = {}): ResolvedScenario {
  const sides: [string, string[]][] = [
    ['tau', opts.tau ?? ['Strike Team', 'Strike Team', 'Crisis Sunforge Battlesuits']],
    ['aeldari', opts.aeldari ?? ['Guardian Defenders', 'Dire Avengers', 'Windriders']],
  ];
  const players = sides.map(([faction, names], i): ResolvedPlayer => {
    const cat = loadFactionCatalog(faction);
    const datasheets: Record<string, Datasheet> = {};
    const units: ArmyUnit[] = names.map((n, k) => {
      const ds = cat.byName(n);
      if (!ds) throw new Error(`no datasheet ${n}`);
      datasheets[ds.id] = ds;
      return {
        id: `u${k + 1}`, datasheetId: ds.id, name: ds.name, points: ds.sizes[0].points,
        models: ds.composition.map((c) => ({ profile: c.profile, count: c.min, weapons: (ds.defaultLoadout[c.profile] ?? []).filter((w) => ds.weapons.some((x) => x.name === w)) })),
      };
    });
    const army: ArmyFile = { name: faction, faction: cat.faction.id, detachment: '', battleSize: { name: 'Strike Force', pointsLimit: 2000 }, points: 0, units };
    return { name: faction, faction: cat.faction.id, detachment: null, agent: 'random', army, datasheets, leaders: {}, transports: {}, reserves: {}, zone: i };
  }) as [ResolvedPlayer, ResolvedPlayer];
  return {
    file: 'mini', name: 'mini', seed: null,
    board: {
      width: 60, height: 44,
      terrain: opts.terrain === false ? [] : [
        { id: 'r1', kind: 'ruin', polygon: [{ x: 24, y: 10 }, { x: 30, y: 10 }, { x: 30, y: 16 }, { x: 24, y: 16 }], height: 5 },
        { id: 'r2', kind: 'ruin', polygon: [{ x: 30, y: 28 }, { x: 36, y: 28 }, { x: 36, y: 34 }, { x: 30, y: 34 }], height: 5 },
      ],
      deploymentZones: [
        { player: 0, polygon: [{ x: 0, y: 0 }, { x: 18, y: 0 }, { x: 18, y: 44 }, { x: 0, y: 44 }] },
        { player: 1, polygon: [{ x: 42, y: 0 }, { x: 60, y: 0 }, { x: 60, y: 44 }, { x: 42, y: 44 }] },
      ],
    },
    objectives: [{ id: 'o1', pos: { x: 30, y: 22 } }, { id: 'o2', pos: { x: 10, y: 22 } }, { id: 'o3', pos: { x: 50, y: 22 } }, { id: 'o4', pos: { x: 30, y: 6 } }, { id: 'o5', pos: { x: 30, y: 38 } }],
    mission: { name: 'mini', mode: 'strike-force', rounds: opts.rounds ?? 5, primary: 'take-and-hold', params: {} },
    players,
  };
}
