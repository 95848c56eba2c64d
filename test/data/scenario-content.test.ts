/**
 * The bundled content of scenarios/: terrain layouts (point symmetry, objective clearance, no overlaps),
 * deployment maps (faithful to the source), armies (valid against the data, points add up, at most 2000).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArmyFile } from '../../src/data/army.ts';
import { loadFactionCatalog } from '../../src/data/catalog.ts';
import { SCENARIOS_DIR, bundledDeployments, bundledTerrainLayouts, loadTerrainLayout } from '../../src/data/scenario.ts';
import { SHARED_DATA } from './paths.ts';
import { expectBundledArmy } from '../helpers/bundled-army.ts';

type P = { x: number; y: number };
const W = 60, H = 44;

function segmentDistance(p: P, a: P, b: P): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

function inside(p: P, poly: P[]): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i], b = poly[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) c = !c;
  }
  return c;
}

/** Distance from a point to a polygon's footprint (0 inside). */
function distanceToPolygon(p: P, poly: P[]): number {
  if (inside(p, poly)) return 0;
  return Math.min(...poly.map((a, i) => segmentDistance(p, a, poly[(i + 1) % poly.length])));
}

function segmentsCross(a: P, b: P, c: P, d: P): boolean {
  const o = (p: P, q: P, r: P) => Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  return o(a, b, c) * o(a, b, d) < 0 && o(c, d, a) * o(c, d, b) < 0;
}

function overlap(p: P[], q: P[]): boolean {
  const centre = (poly: P[]) => ({ x: poly.reduce((s, v) => s + v.x, 0) / poly.length, y: poly.reduce((s, v) => s + v.y, 0) / poly.length });
  if (inside(centre(p), q) || inside(centre(q), p)) return true;
  return p.some((a, i) => q.some((c, j) => segmentsCross(a, p[(i + 1) % p.length], c, q[(j + 1) % q.length])));
}

/** The same polygon up to the starting vertex and the winding. */
function samePolygon(a: P[], b: P[]): boolean {
  if (a.length !== b.length) return false;
  const eq = (p: P, q: P) => Math.abs(p.x - q.x) < 1e-9 && Math.abs(p.y - q.y) < 1e-9;
  for (const seq of [b, [...b].reverse()]) {
    for (let s = 0; s < seq.length; s++) if (a.every((p, i) => eq(p, seq[(i + s) % seq.length]))) return true;
  }
  return false;
}

const area = (poly: P[]) => Math.abs(poly.reduce((s, p, i) => s + p.x * poly[(i + 1) % poly.length].y - poly[(i + 1) % poly.length].x * p.y, 0)) / 2;

describe('terrain layouts', () => {
  const names = bundledTerrainLayouts();
  const objectives = bundledDeployments().flatMap((d) => d.objectives.map((o) => ({ ...o.pos, deployment: d.id })));

  it('there are at least two', () => {
    expect(names).toEqual(expect.arrayContaining(['tournament-a', 'tournament-b']));
  });

  describe.each(names)('%s', (name) => {
    const layout = loadTerrainLayout(join(SCENARIOS_DIR, 'terrain', `${name}.json`));

    it('has about ten ruins, 3" to 6" tall, on the board, with unique ids', () => {
      expect(layout.pieces.length).toBeGreaterThanOrEqual(8);
      expect(layout.pieces.length).toBeLessThanOrEqual(14);
      expect(new Set(layout.pieces.map((p) => p.id)).size).toBe(layout.pieces.length);
      for (const p of layout.pieces) {
        expect(p.kind).toBe('ruin');
        expect(p.height).toBeGreaterThanOrEqual(3);
        expect(p.height).toBeLessThanOrEqual(6);
        expect(area(p.polygon)).toBeGreaterThan(0);
        for (const v of p.polygon) {
          expect(v.x).toBeGreaterThanOrEqual(0);
          expect(v.x).toBeLessThanOrEqual(W);
          expect(v.y).toBeGreaterThanOrEqual(0);
          expect(v.y).toBeLessThanOrEqual(H);
        }
      }
    });

    it('is point-symmetric about the board centre (30, 22)', () => {
      for (const p of layout.pieces) {
        const mirrored = p.polygon.map((v) => ({ x: W - v.x, y: H - v.y }));
        const twin = layout.pieces.find((q) => samePolygon(q.polygon, mirrored));
        expect(twin, `${p.id} has no mirror image`).toBeDefined();
        expect([twin!.kind, twin!.height]).toEqual([p.kind, p.height]);
      }
    });

    it('keeps every ruin at least 2" from every objective marker of the bundled deployments', () => {
      for (const p of layout.pieces) {
        for (const o of objectives) {
          const d = distanceToPolygon(o, p.polygon);
          expect(d, `${p.id} is ${d.toFixed(2)}" from the objective at (${o.x}, ${o.y}) of ${o.deployment}`).toBeGreaterThanOrEqual(2);
        }
      }
    });

    it('has no overlapping ruins', () => {
      for (const [i, p] of layout.pieces.entries()) {
        for (const q of layout.pieces.slice(i + 1)) expect(overlap(p.polygon, q.polygon), `${p.id} overlaps ${q.id}`).toBe(false);
      }
    });
  });
});

describe('deployment maps', () => {
  it('are the six Leviathan deployments, with zones inside the board and five objectives each', () => {
    const maps = bundledDeployments();
    expect(maps.map((d) => d.id)).toEqual(['tipping-point', 'hammer-and-anvil', 'sweeping-engagement', 'dawn-of-war', 'crucible-of-battle', 'search-and-destroy']);
    for (const d of maps) {
      expect(d.objectives).toHaveLength(5);
      for (const zone of [d.zones.attacker, d.zones.defender]) {
        expect(area(zone)).toBeGreaterThan(0);
        for (const v of zone) expect(v.x >= 0 && v.x <= W && v.y >= 0 && v.y <= H).toBe(true);
      }
      // the two zones mirror each other through the centre, as the objectives do
      expect(samePolygon(d.zones.attacker.map((v) => ({ x: W - v.x, y: H - v.y })), d.zones.defender)).toBe(true);
    }
    const credit = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'missions', 'deployments.json'), 'utf8')).credit;
    expect(credit).toMatch(/wn-mitch\/40kdc-data.*CC-BY-4\.0/);
  });

  it('Sweeping Engagement\'s attacker zone (points relative to the bottom edge) is the bottom strip', () => {
    const d = bundledDeployments().find((x) => x.id === 'sweeping-engagement')!;
    expect(d.zones.attacker).toEqual([{ x: 0, y: 44 }, { x: 60, y: 44 }, { x: 60, y: 36 }, { x: 30, y: 36 }, { x: 30, y: 30 }, { x: 0, y: 30 }]);
  });

  const source = join(SHARED_DATA, 'missions', 'deployment-patterns.json');
  it.skipIf(!existsSync(source))('copy the source\'s coordinates exactly', () => {
    const src = JSON.parse(readFileSync(source, 'utf8'));
    const ours = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'missions', 'deployments.json'), 'utf8')).deployments;
    expect(ours.map((d: any) => ({ id: d.id, name: d.name, objectives: d.objectives, zones: d.zones.map((z: any) => [z.player, z.shape, z.position]) })))
      .toEqual(src.map((d: any) => ({ id: d.id, name: d.name, objectives: d.objectives, zones: d.zones.map((z: any) => [z.player, z.shape, z.position]) })));
  });
});

describe('bundled armies', () => {
  const armies = [
    ['tau-kauyon.json', 'tau', 'Kauyon'],
    ['tau-montka.json', 'tau', "Mont'ka"],
    ['aeldari-battle-host.json', 'aeldari', 'Battle Host'],
    ['aeldari-armoured-warhost.json', 'aeldari', 'Armoured Warhost'],
  ] as const;

  it.each(armies)('%s is valid against the data, priced as the data says, at most 2000 points', (file, faction, detachment) => {
    const army = expectBundledArmy(file, faction, detachment, { name: 'Strike Force', pointsLimit: 2000 }, 1950);
    const catalog = loadFactionCatalog(faction);
    const warlords = army.units.filter((u) => u.warlord);
    expect(warlords).toHaveLength(1);
    expect(catalog.byId(warlords[0].datasheetId)!.keywords).toContain('CHARACTER');
  });

  it('have the units the seed matchups need', () => {
    const names = (file: string) => loadArmyFile(join(SCENARIOS_DIR, 'armies', file)).units.map((u) => u.name);
    for (const f of ['tau-kauyon.json', 'tau-montka.json']) expect(names(f)).toEqual(expect.arrayContaining(["Aun'shi", 'Strike Team', 'Breacher Team', 'Devilfish', 'Hammerhead Gunship', 'Stealth Battlesuits']));
    for (const f of ['aeldari-battle-host.json', 'aeldari-armoured-warhost.json']) expect(names(f)).toEqual(expect.arrayContaining(['Troupe', 'Starweaver', 'Guardian Defenders', 'Dire Avengers', 'Farseer', 'Autarch']));
    expect(names('aeldari-armoured-warhost.json')).toEqual(expect.arrayContaining(['Wave Serpent', 'Falcon', 'Fire Prism', 'War Walkers']));
  });
});
