import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/core/reducer.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { parseLog } from '../../src/replay/log.ts';
import { Replay } from '../../src/replay/replay.ts';
import { describeEvent, whyText } from '../../src/replay/format.ts';
import { renderBoardText, renderLegend, unitLetters } from '../../src/replay/board-text.ts';
import { runCommand } from '../../src/replay/terminal.ts';
import { CAREFUL, loggedGame } from './helpers.ts';

/** Plain JSON copy (drops immer's freezing, keeps values). */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe('replaying a log', () => {
  it.each(['1', '2', '3'])('reproduces the engine\'s final state (seed %s)', async (seed) => {
    const g = await loggedGame(seed);
    const r = Replay.fromText(g.text);
    expect(r.error).toBeNull();
    expect(r.length).toBe(g.events.length);
    expect(r.snapshots).toHaveLength(g.events.length + 1);
    expect(plain(r.snapshots[r.length])).toEqual(plain(g.state));
    const v = r.verify();
    expect(v.problems).toEqual([]);
    expect(v.ok && v.complete).toBe(true);
    expect(r.recordedResult).toEqual(g.result);
  });

  it('stepping back and forth returns the very same snapshot objects (immer, frozen, shared)', async () => {
    const g = await loggedGame('1');
    const r = Replay.fromText(g.text);
    const at200 = r.goto(200);
    const at150 = r.prev(50);
    expect(r.position).toBe(150);
    expect(r.next(50)).toBe(at200);
    expect(r.prev(50)).toBe(at150);
    r.end();
    r.start();
    expect(r.goto(200)).toBe(at200);
    expect(Object.isFrozen(at200)).toBe(true);
    expect(Object.isFrozen(at200.units)).toBe(true);
    // structural sharing: a roll of the dice changes no unit
    const i = g.events.findIndex((e) => e.type === 'dice');
    expect(r.snapshots[i + 1].units).toBe(r.snapshots[i].units);
    // the same object every time, and equal to folding the prefix on a mutable state
    expect(plain(r.at(200))).toEqual(plain(foldEvents(parseLog(g.text).events.slice(0, 200))));
  });

  it('jumps phase by phase and to a battle round', async () => {
    const g = await loggedGame('2');
    const r = Replay.fromText(g.text);
    r.start();
    r.nextPhase();
    expect(r.event?.type).toBe('phase-started');
    const first = r.position;
    r.nextPhase();
    expect(r.event?.type).toBe('phase-started');
    expect(r.position).toBeGreaterThan(first);
    r.prevPhase();
    expect(r.position).toBe(first);
    r.toRound(3);
    expect(r.event).toEqual({ type: 'round-started', round: 3 });
    expect(r.state.round).toBe(3);
    expect(() => r.toRound(9)).toThrow(/no battle round 9/);
    r.end();
    r.nextPhase();
    expect(r.position).toBe(r.length);
  });

  it('a log cut in the middle of a line: the error names the line, everything before it replays', async () => {
    const g = await loggedGame('1');
    const lines = g.text.split('\n');
    const k = 300; // cut inside line 300
    const cut = lines.slice(0, k - 1).join('\n') + '\n' + lines[k - 1].slice(0, Math.floor(lines[k - 1].length / 2));
    const parsed = parseLog(cut);
    expect(parsed.error?.line).toBe(k);
    expect(parsed.error?.message).toMatch(/truncated/);
    const r = new Replay(parsed);
    expect(r.length).toBe(k - 1);
    expect(plain(r.snapshots[k - 1])).toEqual(plain(foldEvents(g.events.slice(0, k - 1).map(plain))));
    const v = r.verify();
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatch(/^line 300: /);
  });

  it('corrupted lines: bad JSON, unknown type, missing field, an event the reducer cannot apply', async () => {
    const g = await loggedGame('1');
    const lines = g.text.trimEnd().split('\n');
    const withLine = (k: number, text: string) => [...lines.slice(0, k - 1), text, ...lines.slice(k)].join('\n') + '\n';
    const cases: [string, RegExp][] = [
      ['{"type":"dice",,}', /invalid JSON/],
      ['{"type":"teleport","unit":"p1-u1"}', /unknown event type "teleport"/],
      ['{"type":"cp","player":0,"reason":"x"}', /cp event without "delta"/],
      ['{"type":"cp","player":2,"delta":1,"reason":"x"}', /"player" should be 0 or 1/],
      ['[1,2]', /not a JSON object/],
    ];
    for (const [text, msg] of cases) {
      const p = parseLog(withLine(40, text));
      expect(p.error?.line).toBe(40);
      expect(p.error?.message).toMatch(msg);
      expect(p.events).toHaveLength(39);
    }
    // well-formed but inconsistent: damage to a unit that does not exist
    const r = Replay.fromText(withLine(60, '{"type":"model-damaged","unit":"p9-u1","model":"p9-u1-m1","wounds":1,"by":null,"mortal":false}'));
    expect(r.error?.line).toBe(60);
    expect(r.error?.message).toBe('model-damaged event cannot be applied: "unit" names unit "p9-u1", which no earlier event created');
    expect(r.length).toBe(59);
    // every field the reducer reads a unit through is checked: here the attacker
    const unit = (JSON.parse(lines.find((l) => l.includes('"unit-created"'))!) as { unit: { id: string; models: { id: string }[] } }).unit;
    const byGhost = Replay.fromText(withLine(60, JSON.stringify({ type: 'model-destroyed', unit: unit.id, model: unit.models[0].id, by: 'ghost', reason: 'x' })));
    expect(byGhost.error).toEqual({ line: 60, message: 'model-destroyed event cannot be applied: "by" names unit "ghost", which no earlier event created' });
    const joinGhost = Replay.fromText(withLine(60, JSON.stringify({ type: 'unit-joined', unit: unit.id, into: '' })));
    expect(joinGhost.error?.message).toMatch(/"into" names unit "", which no earlier event created/);
    expect(parseLog('').error?.message).toMatch(/empty/);
    expect(parseLog(lines.slice(1).join('\n')).error).toEqual({ line: 1, message: expect.stringMatching(/first event must be game-started/) });
    expect(parseLog(`${lines.join('\n')}\n${lines[3]}\n`).error?.message).toMatch(/after game-ended/);
    expect(parseLog(`${lines[0]}\n\n${lines[1]}\n`).error).toEqual({ line: 2, message: 'empty line inside the log' });
    expect(parseLog(`${lines.join('\n')}\n\n\n`).error).toBeNull();
  });

  it('verification catches a recorded result that the events do not add up to', async () => {
    const g = await loggedGame('3');
    const events = g.events.map(plain);
    const end = events[events.length - 1] as Extract<GameEvent, { type: 'game-ended' }>;
    end.result.vp = [end.result.vp[0] + 5, end.result.vp[1]];
    const v = Replay.fromEvents(events).verify();
    expect(v.ok).toBe(false);
    expect(v.problems.join(' ')).toMatch(/recorded VP/);
    const unfinished = Replay.fromEvents(g.events.slice(0, 100).map(plain)).verify();
    expect(unfinished.complete).toBe(false);
    expect(unfinished.problems[0]).toMatch(/ends before the game-ended event/);
  });
});

describe('events in words and the board as text', () => {
  it('every event has a text; dice show their purpose and values; decisions show the agent\'s reasons', async () => {
    const g = await loggedGame('1', [CAREFUL, CAREFUL]);
    const r = Replay.fromText(g.text);
    const texts = r.events.map((e, i) => describeEvent(e, r.snapshots[i], r.snapshots[i + 1]));
    expect(texts.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
    const di = r.events.findIndex((e) => e.type === 'dice' && e.purpose === 'hit');
    const dice = r.events[di] as Extract<GameEvent, { type: 'dice' }>;
    expect(texts[di]).toContain('Hit roll');
    expect(texts[di]).toContain(dice.values.join(' '));
    const ci = r.events.findIndex((e) => e.type === 'decision' && e.request === 'select-unit-to-shoot' && typeof e.choice === 'object' && e.choice !== null && 'unit' in e.choice);
    const unitId = ((r.events[ci] as Extract<GameEvent, { type: 'decision' }>).choice as { unit: string }).unit;
    expect(texts[ci]).toContain(`${r.snapshots[ci + 1].units[unitId].name} (${unitId})`);
    expect(texts[ci]).toMatch(/why: top: #\d+ \(0\.75\); #\d+ \(0\.25\)/);
    const rr = r.events.findIndex((e) => e.type === 'decision' && e.request === 'reroll-policy');
    expect(texts[rr]).toMatch(/reroll-policy -> ones/);
    // the turn flags in words (the Fight phase's record of who may fight)
    const ei = r.events.findIndex((e) => e.type === 'unit-flag' && e.flag === 'eligibleToFight');
    expect(texts[ei]).toMatch(/ is eligible to fight this phase$/);
    const si = r.events.findIndex((e) => e.type === 'unit-flag' && e.flag === 'shot');
    expect(texts[si]).toMatch(/ has shot$/);
    const mi = r.events.findIndex((e) => e.type === 'model-destroyed');
    expect(texts[mi]).toMatch(/destroyed/);
    expect(texts[texts.length - 1]).toMatch(/^Game over: /);
    expect(whyText(r.state, 'plain reason')).toBe('plain reason');
  });

  it('draws the 60" x 44" board at one character per inch across and two down, with a legend', async () => {
    const g = await loggedGame('2');
    const r = Replay.fromText(g.text);
    const deployed = r.events.findIndex((e) => e.type === 'round-started');
    r.goto(deployed + 1);
    const lines = renderBoardText(r.state, { ascii: true });
    expect(lines).toHaveLength(22 + 2);
    expect(lines.every((l) => l.length === 62)).toBe(true);
    const board = lines.join('\n');
    const letters = unitLetters(r.state, true);
    for (const id of r.state.unitOrder) {
      const u = r.state.units[id];
      if (u.location === 'battlefield' && u.models.some((m) => m.alive)) expect(board).toContain(letters.get(id));
    }
    expect(board).toContain('#'); // ruins
    expect(board).toContain('O'); // objectives
    const legend = renderLegend(r.state, { ascii: true, width: 80 }).join('\n');
    expect(legend).toContain('Strike Team');
    expect(renderBoardText(r.state).join('\n')).toContain('▓');
  });

  it('line commands step, jump and report', async () => {
    const g = await loggedGame('2');
    const r = Replay.fromText(g.text);
    r.start();
    expect(runCommand(r, 'n').out.join('\n')).toMatch(/^\[2\/\d+\]/);
    expect(r.position).toBe(2);
    runCommand(r, 'n 10');
    expect(r.position).toBe(12);
    runCommand(r, 'p 2');
    expect(r.position).toBe(10);
    runCommand(r, 'r 2');
    expect(r.event).toEqual({ type: 'round-started', round: 2 });
    const out = runCommand(r, 'np').out.join('\n');
    expect(out).toContain('Command phase');
    expect(runCommand(r, 'g 5').out.join('\n')).toMatch(/^\[5\//);
    expect(runCommand(r, 'r 42').out[0]).toMatch(/no battle round 42/);
    // an event the log does not have is refused, not clamped to the nearest end (the position stays)
    for (const cmd of ['g -5', 'g 0', `g ${r.length + 1}`, `${r.length + 1}`]) {
      expect(runCommand(r, cmd).out).toEqual([`? no event ${cmd.replace('g ', '')}: the log has events 1..${r.length}`]);
      expect(r.position).toBe(5);
    }
    expect(runCommand(r, `g ${r.length}`).out.join('\n')).toMatch(new RegExp(`^\\[${r.length}/`));
    runCommand(r, 'g 5');
    // stepping back stops at event 1, as `start` and `g` do (position 0, before the game started, is not shown)
    expect(runCommand(r, 'p 9').out.join('\n')).toMatch(/^\[1\//);
    expect(r.position).toBe(1);
    runCommand(r, 'g 5');
    expect(runCommand(r, 'fly').out[0]).toMatch(/unknown command/);
    expect(runCommand(r, 'q').quit).toBe(true);
    runCommand(r, 'end');
    expect(r.position).toBe(r.length);
  });
});
