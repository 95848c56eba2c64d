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

  /** The formations scenario with no transports named (as an army given with --armies): the agents fill the TRANSPORTs. */
  async function withoutTransports(agent: string, seed: string) {
    const dir = mkdtempSync(join(tmpdir(), 'strategium-formations-'));
    try {
      const raw = JSON.parse(readFileSync(FILE, 'utf8'));
      for (const p of raw.players) { p.army = join(SCENARIOS_DIR, p.army); delete p.transports; }
      const file = join(dir, 'no-transports.json');
      writeFileSync(file, JSON.stringify(raw));
      const sc = loadScenario(file);
      const f = await loadAgentFactory(agent);
      const offered: { transport: string; unit: string | null }[][] = [];
      const agents = [0, 1].map((i) => {
        const a = makeAgent(f, seed, i as PlayerIndex);
        return { ...a, decide: (v, r) => { if (r.kind === 'start-embarked') offered.push(r.options as never); return a.decide(v, r); } } as Agent;
      }) as [Agent, Agent];
      const g = createGame(sc, { seed, agents } as never);
      return { g, offered };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('with no transports named, random agents fill the TRANSPORTs with units that fit only (capacity, keywords; 20 seeds)', async () => {
    let embarked = 0;
    for (let i = 0; i < 20; i++) {
      const { g, offered } = await withoutTransports('random', `transports-${i}`);
      const s = g.state;
      expect(offered.length).toBeGreaterThan(0);
      for (const id of s.unitOrder) {
        const t = s.units[id];
        const cap = s.datasheets[t.datasheet].transport;
        const inside = s.unitOrder.map((q) => s.units[q]).filter((u) => u.location === 'embarked' && u.embarkedIn === id);
        if (!cap) { expect(inside).toEqual([]); continue; }
        embarked += inside.length;
        expect(inside.reduce((n, u) => n + u.models.filter((m) => m.alive).length, 0)).toBeLessThanOrEqual(cap.capacity);
        for (const u of inside) {
          for (const kw of cap.keywords) expect(u.keywords).toContain(kw);
          for (const kw of cap.excludedKeywords) expect(u.keywords).not.toContain(kw);
        }
      }
    }
    expect(embarked).toBeGreaterThan(0);
  }, 120_000);

  it('a Starweaver is offered its HARLEQUIN units only, with "no more" first', async () => {
    const { g, offered } = await withoutTransports('random', 'transports-offers');
    const s = g.state;
    const starweaver = offered.find((o) => s.units[o[0].transport].name === 'Starweaver')!;
    expect(starweaver[0].unit).toBeNull();
    const names = starweaver.slice(1).map((o) => s.units[o.unit!].name);
    expect(names.length).toBeGreaterThan(0);
    for (const o of starweaver.slice(1)) expect(s.units[o.unit!].keywords).toContain('HARLEQUINS');
  }, 60_000);

  it('the heuristic starts embarked the unit that most needs carrying: short guns and melee, by worth; not the long guns', async () => {
    const { g } = await withoutTransports('heuristic', 'transports-h');
    const s = g.state;
    const where = (id: string) => (s.units[id].location === 'embarked' ? s.units[s.units[id].embarkedIn!].name : s.units[id].location);
    // T'au: the Breacher Team (10" pulse blasters) in the Devilfish; the Strike Team no Leader joined
    // (30" pulse rifles) on the battlefield
    expect(where('p1-u7')).toBe('Devilfish');
    expect(where('p1-u6')).toBe('battlefield');
    // Aeldari: a Troupe in each Starweaver (HARLEQUINS only); the Wave Serpent takes the Dire Avengers the
    // Autarch leads (18" catapults, 235 points), not the Fire Dragons (120) nor the Howling Banshees (95)
    expect([where('p2-u9'), where('p2-u10')]).toEqual(['Starweaver', 'Starweaver']);
    expect(s.units['p2-u11'].components.map((c) => s.units[c.unit].name).sort()).toEqual(['Autarch', 'Dire Avengers']);
    expect(where('p2-u11')).toBe('Wave Serpent');
    expect(where('p2-u14')).toBe('battlefield');
    // four units start embarked, one in each TRANSPORT
    expect(s.unitOrder.filter((id) => s.units[id].location === 'embarked')).toHaveLength(4);
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
