/**
 * Declare Battle Formations made by the agents ("formations": "agent"): every choice the engine offers is
 * legal (a Leader joins a unit it can lead, one Leader per Bodyguard unit, Deep Strike only for Deep
 * Strike units, Strategic Reserves at most 25% of the points limit and all Reserves at most half), and
 * the heuristic makes sensible ones. The scenario loader refuses Leaders or Reserves given by hand then.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenario, SCENARIOS_DIR } from '../../src/data/scenario.ts';
import { createGame } from '../../src/rules/battle/setup.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import type { Agent } from '../../src/core/agent.ts';
import type { GameState, PlayerIndex } from '../../src/core/state.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { DataError } from '../../src/data/errors.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const FILE = join(SCENARIOS_DIR, 'agent-formations.json');

async function setUp(agent: string, seed: string) {
  const sc = loadScenario(FILE);
  const f = await loadAgentFactory(agent);
  const agents: [Agent, Agent] = [makeAgent(f, seed, 0), makeAgent(f, seed, 1)];
  const events: GameEvent[] = [];
  const g = createGame(sc, { seed, agents, onEvent: (e: GameEvent) => { events.push(e); } } as never);
  return { g, sc, events };
}

/** Points in Reserves (all, strategic) of a player at the start of the battle, passengers counted with their transport. */
function reservePoints(s: GameState, player: PlayerIndex): { all: number; strategic: number } {
  let all = 0, strategic = 0;
  const pts = (id: string) => s.units[id].components.reduce((n, c) => n + s.units[c.unit].points, 0);
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player !== player || (u.location !== 'reserves' && u.location !== 'strategic-reserves')) continue;
    let p = pts(id);
    for (const q of s.unitOrder) if (s.units[q].location === 'embarked' && s.units[q].embarkedIn === id) p += pts(q);
    all += p;
    if (u.location === 'strategic-reserves') strategic += p;
  }
  return { all, strategic };
}

describe('Battle Formations declared by the agents', () => {
  it('random agents only ever make legal formations (30 seeds)', async () => {
    let attached = 0, deepStruck = 0, strategic = 0;
    for (let i = 0; i < 30; i++) {
      const { g } = await setUp('random', `formations-${i}`);
      const s = g.state;
      for (const player of [0, 1] as const) {
        const ledBy = new Map<string, string>();
        for (const id of s.unitOrder) {
          const u = s.units[id];
          if (u.player !== player || u.location !== 'attached') continue;
          attached++;
          const b = s.units[u.attachedTo!];
          expect(s.datasheets[u.datasheet].leads).toContain(b.datasheet);
          expect(ledBy.has(b.id)).toBe(false);
          ledBy.set(b.id, u.id);
          expect(b.components.filter((c) => c.isLeader)).toHaveLength(1);
        }
        for (const id of s.unitOrder) {
          const u = s.units[id];
          if (u.player !== player) continue;
          if (u.location === 'reserves') {
            deepStruck++;
            for (const c of u.components) expect(s.datasheets[s.units[c.unit].datasheet].coreAbilities.some((a) => a.name === 'Deep Strike')).toBe(true);
          }
          if (u.location === 'strategic-reserves') { strategic++; expect(u.keywords).not.toContain('FORTIFICATION'); }
        }
        const r = reservePoints(s, player);
        expect(r.strategic).toBeLessThanOrEqual(2000 * 0.25);
        expect(r.all).toBeLessThanOrEqual(2000 * 0.5);
      }
    }
    // the random choices covered every kind of formation
    expect(attached).toBeGreaterThan(0);
    expect(deepStruck).toBeGreaterThan(0);
    expect(strategic).toBeGreaterThan(0);
  }, 120_000);

  it('the heuristic attaches every Leader it can and Deep Strikes the short-ranged Deep Strike units only', async () => {
    const { g } = await setUp('heuristic', 'formations-h');
    const s = g.state;
    for (const id of s.unitOrder) {
      const u = s.units[id];
      if (!u.abilities.includes('Leader') && !s.datasheets[u.datasheet].coreAbilities.some((a) => a.name === 'Leader')) continue;
      if (s.datasheets[u.datasheet].leads.length === 0) continue;
      expect(u.location, `${u.name} (${id})`).toBe('attached');
    }
    // T'au: the Crisis Sunforge (fusion, 12") and Starscythe (flamers) Battlesuits arrive by Deep Strike;
    // the Riptides (long guns, Deep Strike too) stay on the table; nothing goes into Strategic Reserves
    const byName = (p: PlayerIndex, name: string) => s.unitOrder.map((i) => s.units[i]).filter((u) => u.player === p && u.name === name);
    for (const u of byName(0, 'Crisis Sunforge Battlesuits')) expect(u.location).toBe('reserves');
    for (const u of byName(0, 'Crisis Starscythe Battlesuits')) expect(u.location).toBe('reserves');
    for (const u of byName(0, 'Riptide Battlesuit')) expect(u.location).not.toBe('reserves');
    expect(s.unitOrder.some((i) => s.units[i].location === 'strategic-reserves')).toBe(false);
  }, 60_000);

  it('the scenario loader refuses Leaders or Reserves given by hand with "formations": "agent"', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategium-formations-'));
    try {
      const sc = JSON.parse(readFileSync(FILE, 'utf8'));
      for (const p of sc.players) p.army = join(SCENARIOS_DIR, p.army);
      sc.players[0].leaders = { u1: 'u4' };
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify(sc));
      expect(() => loadScenario(file)).toThrow(DataError);
      expect(() => loadScenario(file)).toThrow(/players\[0\]\.leaders: with "formations": "agent" the agent declares the Leaders; expected no "leaders" entries/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
