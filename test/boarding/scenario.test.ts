/**
 * The bundled Boarding Actions scenario: its content (board, symmetric ship interior, armies), complete
 * games with the random and heuristic agents, a batch, and a replay of a batch game's log.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/rules/index.ts';
import '../../src/factions/index.ts';
import { cli } from '../helpers/cli.ts';
import { expectBundledArmy } from '../helpers/bundled-army.ts';
import { loadAgents } from '../../src/core/agent-loader.ts';
import { foldEvents } from '../../src/core/reducer.ts';
import { SCENARIOS_DIR, loadScenario } from '../../src/data/scenario.ts';
import { parseLog } from '../../src/replay/log.ts';
import { Replay } from '../../src/replay/replay.ts';
import { playGame } from '../../src/sim/play.ts';

const FILE = join(SCENARIOS_DIR, 'boarding-actions', 'starfire-vs-aeldari.json');
const tmp = mkdtempSync(join(tmpdir(), 'strategium-ba-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type P = { x: number; y: number };
/** The same polygon up to the starting vertex and the winding. */
function samePolygon(a: P[], b: P[]): boolean {
  if (a.length !== b.length) return false;
  const eq = (p: P, q: P) => Math.abs(p.x - q.x) < 1e-9 && Math.abs(p.y - q.y) < 1e-9;
  for (const seq of [b, [...b].reverse()]) {
    for (let s = 0; s < seq.length; s++) if (a.every((p, i) => eq(p, seq[(i + s) % seq.length]))) return true;
  }
  return false;
}
const mirror = (poly: P[]) => poly.map((p) => ({ x: 44 - p.x, y: p.y }));

describe('scenarios/boarding-actions/starfire-vs-aeldari.json', () => {
  const sc = loadScenario(FILE);

  it('is a Boarding Actions game on a 44" x 30" ship interior of walls and hatchways, 5 rounds of Take and Hold', () => {
    expect(sc.mission).toMatchObject({ mode: 'boarding-actions', rounds: 5, primary: 'take-and-hold' });
    expect(sc.board).toMatchObject({ width: 44, height: 30 });
    expect(sc.pointsLimit).toBe(500);
    expect(sc.board.terrain.every((t) => t.kind === 'wall')).toBe(true);
    expect(sc.board.terrain.length).toBeGreaterThanOrEqual(10);
    expect(sc.board.hatchways!.length).toBeGreaterThanOrEqual(6);
    // Boarding Actions hatchways start closed
    expect(sc.board.hatchways!.some((h) => h.startsOpen)).toBe(false);
    expect(sc.players.map((p) => p.detachment)).toEqual(['Starfire Cadre', 'Battle Host']);
  });

  it('is symmetric: walls, hatchways, zones and objectives mirror across the middle of the board', () => {
    for (const list of [sc.board.terrain, sc.board.hatchways!]) {
      for (const t of list) expect(list.some((u) => samePolygon(u.polygon, mirror(t.polygon))), t.id).toBe(true);
    }
    const [a, d] = sc.board.deploymentZones;
    expect(samePolygon(a.polygon, mirror(d.polygon))).toBe(true);
    for (const o of sc.objectives) expect(sc.objectives.some((q) => Math.abs(q.pos.x - (44 - o.pos.x)) < 1e-9 && q.pos.y === o.pos.y)).toBe(true);
  });

  it('objectives are clear of the walls, and every hatchway fills a gap in a wall', () => {
    const inside = (p: P, poly: P[]) => {
      const xs = poly.map((q) => q.x), ys = poly.map((q) => q.y);
      return p.x > Math.min(...xs) && p.x < Math.max(...xs) && p.y > Math.min(...ys) && p.y < Math.max(...ys);
    };
    for (const o of sc.objectives) for (const t of sc.board.terrain) expect(inside(o.pos, t.polygon)).toBe(false);
    for (const h of sc.board.hatchways!) {
      const touching = sc.board.terrain.filter((t) => t.polygon.some((p) => h.polygon.some((q) => p.x === q.x && p.y === q.y)));
      expect(touching.length, h.id).toBe(2);
    }
  });

  it.each([
    ['tau-starfire-cadre.json', 'tau', 'Starfire Cadre'],
    ['aeldari-boarding-host.json', 'aeldari', 'Battle Host'],
  ] as const)('%s is valid against the data, priced as the data says, at most 500 points', (file, faction, detachment) => {
    expectBundledArmy(file, faction, detachment, { name: 'Boarding Actions', pointsLimit: 500 }, 450);
  });

  it('the T\'au army has MARKERLIGHT units for Markerlight Precision and a free Leader for Battlefield Command', () => {
    const tau = sc.players[0];
    const kw = (id: string) => tau.datasheets[tau.army.units.find((u) => u.id === id)!.datasheetId].keywords;
    expect(tau.army.units.filter((u) => kw(u.id).includes('MARKERLIGHT')).length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(tau.leaders)).toHaveLength(1);
  });

  it.each([['random'], ['heuristic']] as const)('plays to the end with %s agents, hatchways opening as events, and its log folds to the final state', async (agent) => {
    const { game, result } = playGame(loadScenario(FILE), { seed: `ba-${agent}`, agents: await loadAgents([agent, agent], `ba-${agent}`), log: true });
    expect(game.state.stage).toBe('ended');
    expect(result.endedBy === 'rounds' ? result.rounds : 5).toBe(5);
    const log = game.log!;
    expect(log.some((e) => e.type === 'hatchway' && e.open)).toBe(true);
    // the Boarding Actions stratagems are the only core ones used
    const core = new Set(['GO TO GROUND', 'SMOKESCREEN', 'FIRE OVERWATCH', 'TANK SHOCK', 'HEROIC INTERVENTION', 'EPIC CHALLENGE', 'RAPID INGRESS']);
    expect(game.state.players.flatMap((p) => p.stratagemsUsed.map((u) => u.name)).filter((n) => core.has(n))).toEqual([]);
    expect(foldEvents(log)).toEqual(game.state);
  });
});

describe('batch and replay of the Boarding Actions scenario', () => {
  it('a batch of 2 games in this thread, then game 1 regenerated and replayed from its log to the recorded result', () => {
    const out = join(tmp, 'batch');
    const r = cli(['batch', FILE, '--games', '2', '--workers', '0', '--seed', 'ba', '--out', out, '--json', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.games).toBe(2);
    expect(summary.failed).toBe(0);
    const records = readFileSync(join(out, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((x) => x.index)).toEqual([0, 1]);
    const logFile = join(tmp, 'game-1.jsonl');
    const g = cli(['batch-game', out, '1', '--json', '--log', logFile]);
    expect(g.code, g.stderr).toBe(0);
    const parsed = parseLog(readFileSync(logFile, 'utf8'));
    expect(parsed.error).toBeNull();
    expect(parsed.events.some((e) => e.type === 'hatchway')).toBe(true);
    const replay = new Replay(parsed);
    const last = replay.snapshots[replay.snapshots.length - 1];
    expect(last.stage).toBe('ended');
    expect(last.mission.mode).toBe('boarding-actions');
    // game 1 is game 0's side-swapped twin: the record is by army, the state by seat
    const rec = records[1] as { swapped: boolean; vp: [number, number] };
    expect(rec.swapped).toBe(true);
    expect(last.result!.vp).toEqual([rec.vp[1], rec.vp[0]]);
    // the immutable replay path and the mutable fold agree on the final state
    expect(foldEvents(parsed.events)).toEqual(JSON.parse(JSON.stringify(last)));
  });
});
