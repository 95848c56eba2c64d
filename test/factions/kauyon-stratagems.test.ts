/**
 * Kauyon's two stratagems from the export (not in RULES.md): PHOTON GRENADES and WALL OF MIRRORS, with
 * exact dice, their restrictions, and the heuristic's choice of when to use WALL OF MIRRORS.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { rolls } from '../helpers/attack.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PhaseName, PlayerIndex } from '../../src/core/state.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { unitsInEngagement } from '../../src/rules/battle/world.ts';
import { rollModifier } from '../../src/rules/battle/units.ts';
import { arrivalOptions } from '../../src/rules/battle/reserves.ts';
import { createHeuristic } from '../../agents/heuristic.ts';

/** A T'au agent that uses the named stratagem whenever it is offered (else the first option). */
function using(name: string | null): Agent {
  return scriptedAgent(`uses ${name}`, (r: DecisionRequest) => {
    if (r.kind !== 'stratagem' || name === null) return 0;
    return Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name));
  });
}

const offered = (g: Game, w: Window, p: PlayerIndex) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`).filter((x) => !x.startsWith('FIRE OVERWATCH') && !x.startsWith('HEROIC') && !x.startsWith('COMBAT EMBARKATION'));


describe('PHOTON GRENADES (Kauyon)', () => {
  /** Howling Banshees 8" from a Strike Team (GRENADES) beside a Devilfish (not GRENADES); the Banshees charge the Strike Team. */
  function charge(tau: Agent, dice: number[]) {
    const ae = scriptedAgent('ae', (r: DecisionRequest) => (r.kind === 'charge-targets' ? Math.max(0, (r.options as { targets: string[] }[]).findIndex((o) => o.targets.join('+') === 'ST')) : 0));
    const g = battleSandbox([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 24, y: 18 }, spacing: 0.9 },
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 16, y: 30 } },
      { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 4], at: { x: 36, y: 18 }, spacing: 0.9 },
    ], { phase: 'charge', turn: 1, round: 2, cp: [2, 0], detachments: ['Kauyon', null], agents: [tau, ae], stream: scriptedStream(dice) });
    setGap(g, 'HB', 'ST', 8);
    return g;
  }

  it('offered to a GRENADES unit among the charge\'s targets only, in the opponent\'s Charge phase', () => {
    const g = charge(using(null), []);
    const w: Window = { name: 'charge/after-enemy-charge-declared', unit: 'HB', targets: ['ST', 'DF'] };
    expect(offered(g, w, 0)).toEqual(['PHOTON GRENADES>ST']);
    expect(offered(g, { ...w, targets: ['DF'] }, 0)).toEqual([]);
  });

  it('the charging unit takes a Battle-shock test at once (2 and 1: failed) and its Charge roll is 2 lower: 8 becomes 6, short of 8"', () => {
    const g = charge(using('PHOTON GRENADES'), [2, 1, 4, 4]);
    expect(declareCharge(g, g.state.units.HB)).toBe(false);
    expect(rolls(g, 'battle-shock')).toEqual([[2, 1]]);
    expect(g.state.units.HB.battleShocked).toBe(true);
    expect(rolls(g, 'charge')).toEqual([[4, 4]]);
    expect(rollModifier(g.state, g.state.units.HB, 'charge')).toBe(-2);
    expect(g.state.units.HB.flags.charged).toBe(false);
    expect(g.state.players[0].cp).toBe(1);
  });

  it('without it the same 8 reaches the Strike Team, and no test is taken', () => {
    const g = charge(using(null), [4, 4]);
    expect(declareCharge(g, g.state.units.HB)).toBe(true);
    expect(rolls(g, 'battle-shock')).toEqual([]);
    expect(g.state.units.HB.flags.charged).toBe(true);
    expect(unitsInEngagement(g.state, g.state.units.HB, g.state.units.ST)).toBe(true);
  });
});

describe('WALL OF MIRRORS (Kauyon)', () => {
  const end = (phase: PhaseName): Window => ({ name: 'phase/end', unit: null, targets: [], data: { phase } });
  function mirrors(tau: Agent, opts: { round?: number; stealthAt?: { x: number; y: number }; objectives?: { id: string; pos: { x: number; y: number } }[]; engaged?: boolean } = {}) {
    const units: PlacedUnit[] = [
      { id: 'SB', player: 0, faction: 'tau', name: 'Stealth Battlesuits', at: opts.stealthAt ?? { x: 10, y: 30 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 10 }, spacing: 0.9 },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 22 } },
    ];
    const g = battleSandbox(units, { phase: 'fight', turn: 1, round: opts.round ?? 2, cp: [2, 0], detachments: ['Kauyon', null], agents: [tau, scriptedAgent('ae')], objectives: opts.objectives });
    if (opts.engaged) setGap(g, 'DA', 'SB', 0.5);
    return g;
  }

  it('at the end of the opponent\'s Fight phase only, for a Stealth unit, not one within Engagement Range', () => {
    const g = mirrors(using(null));
    expect(offered(g, end('fight'), 0)).toEqual(['WALL OF MIRRORS>SB']);
    expect(offered(g, end('shooting'), 0)).toEqual([]);
    expect(offered(mirrors(using(null), { engaged: true }), end('fight'), 0)).toEqual([]);
    // not in its own turn
    const own = mirrors(using(null));
    own.emit({ type: 'turn-started', round: 3, player: 0 });
    own.emit({ type: 'phase-started', round: 3, player: 0, phase: 'fight' });
    expect(offered(own, end('fight'), 0)).toEqual([]);
  });

  it('the unit leaves the battlefield for Strategic Reserves, from where it arrives along the battlefield edges', () => {
    const g = mirrors(using('WALL OF MIRRORS'));
    expect(openWindow(g, end('fight'))).toEqual(['WALL OF MIRRORS']);
    const sb = g.state.units.SB;
    expect(sb.location).toBe('strategic-reserves');
    expect(sb.models.every((m) => m.pos === null)).toBe(true);
    const arrivals = arrivalOptions(g, sb);
    expect(arrivals.length).toBeGreaterThan(0);
    expect(arrivals.every((o) => o.how === 'strategic-reserves' && (o.x <= 3 || o.y <= 3 || o.x >= 57 || o.y >= 41))).toBe(true);
    expect(g.state.players[0].cp).toBe(1);
  });

  describe('the heuristic', () => {
    const far = { id: 'o1', pos: { x: 50, y: 4 } };
    it('takes a unit stranded far from the only marker to arrive beside it next turn', () => {
      const g = mirrors(createHeuristic(), { stealthAt: { x: 4, y: 40 }, objectives: [far] });
      openWindow(g, end('fight'));
      expect(g.state.units.SB.location).toBe('strategic-reserves');
    });
    it('not a unit on the marker, nor when it could not arrive before the battle ends (battle round 5, first player)', () => {
      const on = mirrors(createHeuristic(), { stealthAt: { x: 48, y: 6 }, objectives: [far] });
      openWindow(on, end('fight'));
      expect(on.state.units.SB.location).toBe('battlefield');
      const last = mirrors(createHeuristic(), { round: 5, stealthAt: { x: 4, y: 40 }, objectives: [far] });
      openWindow(last, end('fight'));
      expect(last.state.units.SB.location).toBe('battlefield');
    });
  });
});
