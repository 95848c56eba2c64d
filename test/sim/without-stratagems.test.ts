/**
 * A scenario's `withoutStratagems` (and `--without-stratagem army:NAME`): the stratagems an army is never
 * offered, for measuring what one is worth (a batch with it against one without, compared seed by seed).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import { loadAgentFactory, makeAgent } from '../../src/core/agent-loader.ts';
import type { GameEvent } from '../../src/core/events.ts';
import type { PlayerIndex } from '../../src/core/state.ts';
import { DEFAULT_SCENARIO, loadScenario } from '../../src/data/scenario.ts';
import { playGame, scenarioFromStart } from '../../src/sim/play.ts';
import { parseWithoutStratagems, scenarioVariant } from '../../src/sim/variants.ts';
import { playCommand } from '../../src/sim/batch-report.ts';
import { readSpec } from '../../src/sim/batch.ts';
import { cli } from '../helpers/cli.ts';
import { writeBatchScenarioFile } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'strategium-without-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const random = await loadAgentFactory('random');

/** Random agents that note every stratagem offered to their player. */
function recordingAgents(seed: string, offered: [Set<string>, Set<string>]): [Agent, Agent] {
  return [0, 1].map((p) => {
    const inner = makeAgent(random, seed, p as PlayerIndex);
    return {
      ...inner,
      decide(view: Parameters<Agent['decide']>[0], r: DecisionRequest) {
        if (r.kind === 'stratagem') for (const o of r.options as { stratagem?: string }[]) if (o.stratagem) offered[p].add(o.stratagem);
        return inner.decide(view, r);
      },
    };
  }) as [Agent, Agent];
}

function play(sc: ReturnType<typeof loadScenario>, seed: string) {
  const offered: [Set<string>, Set<string>] = [new Set(), new Set()];
  const events: GameEvent[] = [];
  playGame(sc, { seed, agents: recordingAgents(seed, offered), onEvent: (e) => { events.push(e); } });
  const used = (p: number, name: string) => events.filter((e) => e.type === 'stratagem-used' && e.player === p && e.name === name).length;
  return { offered, events, used };
}

describe('withoutStratagems', () => {
  it('names are matched as the engine spells them; another detachment\'s stratagem, a misspelling or a repeat is an error naming the field', () => {
    const sc = scenarioVariant(DEFAULT_SCENARIO, { withoutStratagems: [['fire overwatch', 'A Tempting Trap'], []] });
    expect(sc.players[0].withoutStratagems).toEqual(['FIRE OVERWATCH', 'A TEMPTING TRAP']);
    expect(sc.players[1].withoutStratagems).toBeUndefined();
    // FEIGNED RETREAT is the Battle Host's, not Kauyon's
    expect(() => scenarioVariant(DEFAULT_SCENARIO, { withoutStratagems: [['FEIGNED RETREAT'], []] }))
      .toThrow(/players\[0\]\.withoutStratagems\[0\]: expected a stratagem of Core or Kauyon \(or one an ability grants\), found "FEIGNED RETREAT"; closest: .*\(--without-stratagem adds to players\[0\]\.withoutStratagems\)/);
    // worth's --stratagems names them too: the error names the option the user typed
    expect(() => scenarioVariant(DEFAULT_SCENARIO, { withoutStratagems: [['NOPE'], []], withoutStratagemsOption: '--stratagems' }))
      .toThrow(/found "NOPE"; closest: .*\(--stratagems adds to players\[0\]\.withoutStratagems\)$/);
    expect(() => scenarioVariant(DEFAULT_SCENARIO, { withoutStratagems: [[], ['FIRE OVERWATCH', 'Fire Overwatch!']] }))
      .toThrow(/players\[1\]\.withoutStratagems\[1\]: FIRE OVERWATCH is listed twice/);
  });

  it('--without-stratagem: army 1 or 2, then the name', () => {
    expect(parseWithoutStratagems(['1:A TEMPTING TRAP', ' 2 : FIRE OVERWATCH ', '1:COMMAND RE-ROLL'])).toEqual([['A TEMPTING TRAP', 'COMMAND RE-ROLL'], ['FIRE OVERWATCH']]);
    expect(() => parseWithoutStratagems(['3:FIRE OVERWATCH'])).toThrow(/--without-stratagem: expected <army>:<stratagem>, the army 1 or 2/);
    expect(() => parseWithoutStratagems(['FIRE OVERWATCH'])).toThrow(/expected <army>:<stratagem>/);
  });

  it('a forbidden stratagem is never offered to that army (in a window, and COMMAND RE-ROLL after a roll); the other army still gets it', () => {
    const seed = 'without-1';
    const base = play(loadScenario(DEFAULT_SCENARIO), seed);
    // the game without the ban offers both to both armies (else the test would show nothing)
    for (const p of [0, 1]) for (const n of ['FIRE OVERWATCH', 'COMMAND RE-ROLL']) expect(base.offered[p].has(n), `${n} to player ${p + 1}`).toBe(true);
    const sc = scenarioVariant(DEFAULT_SCENARIO, { withoutStratagems: [['FIRE OVERWATCH', 'COMMAND RE-ROLL'], []] });
    const banned = play(sc, seed);
    expect(banned.offered[0].has('FIRE OVERWATCH')).toBe(false);
    expect(banned.offered[0].has('COMMAND RE-ROLL')).toBe(false);
    expect(banned.used(0, 'FIRE OVERWATCH') + banned.used(0, 'COMMAND RE-ROLL')).toBe(0);
    // the army's other stratagems are still offered, and the other army's are untouched
    expect(banned.offered[0].has('INSANE BRAVERY')).toBe(true);
    expect(banned.offered[1].has('FIRE OVERWATCH')).toBe(true);
    expect(banned.offered[1].has('COMMAND RE-ROLL')).toBe(true);
  });

  it('the log records it, so the logged game is played again the same; a game without any has no such field', () => {
    const seed = 'without-1';
    const sc = scenarioVariant(DEFAULT_SCENARIO, { withoutStratagems: [[], ['FIRE OVERWATCH']] });
    const first = play(sc, seed);
    const start = first.events[0];
    expect(start.type === 'game-started' && start.players.map((p) => p.withoutStratagems)).toEqual([undefined, ['FIRE OVERWATCH']]);
    const again = play(scenarioFromStart(start), seed);
    expect(JSON.stringify(again.events)).toBe(JSON.stringify(first.events));
    const plain = play(loadScenario(DEFAULT_SCENARIO), seed).events[0];
    expect(plain.type === 'game-started' && plain.players.every((p) => !('withoutStratagems' in p))).toBe(true);
  });
});

describe('--without-stratagem on the command line', () => {
  const scenario = writeBatchScenarioFile(join(tmp, 'scenario'));

  it('batch: the forbidden stratagem is never used by that army, the summary says so, the spec keeps it for replaying a game', () => {
    const out = join(tmp, 'batch');
    const r = cli(['batch', scenario, '--games', '4', '--workers', '0', '--agents', 'random,random', '--without-stratagem', '1:fire overwatch', '--out', out, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/stratagems forbidden: [^\n]* without FIRE OVERWATCH/);
    const spec = readSpec(out);
    expect(spec.withoutStratagems).toEqual([['fire overwatch'], []]);
    expect(spec.scenario.players[0].withoutStratagems).toEqual(['FIRE OVERWATCH']);
    // the army's stratagem counts, game by game: never FIRE OVERWATCH for army 1 (either side it sat on)
    const records = readFileSync(join(out, 'games.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { stratagems: Record<string, unknown>[] });
    expect(records).toHaveLength(4);
    for (const rec of records) expect(rec.stratagems[0]['FIRE OVERWATCH']).toBeUndefined();
    expect(playCommand(spec, 'x#0', false)).toMatch(/ --without-stratagem '1:fire overwatch'$/);
  });

  it('bad input: the form, a stratagem the army cannot use, --resume', () => {
    expect(cli(['play', scenario, '--without-stratagem', 'FIRE OVERWATCH']).stderr).toMatch(/--without-stratagem: expected <army>:<stratagem>/);
    const other = cli(['play', scenario, '--without-stratagem', '2:A TEMPTING TRAP']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/players\[1\]\.withoutStratagems\[0\]: expected a stratagem of Core \(or one an ability grants\), found "A TEMPTING TRAP"/);
    const out = join(tmp, 'resume');
    expect(cli(['batch', scenario, '--games', '2', '--workers', '0', '--out', out, '--no-progress']).code).toBe(0);
    expect(cli(['batch', '--resume', out, '--without-stratagem', '1:FIRE OVERWATCH']).stderr).toMatch(/leave out --without-stratagem/);
  });
});
