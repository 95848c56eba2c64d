/**
 * Reactive moves (Trail Finding, Aerial Disengagement, Path of the Outcast, Reaver Band): once per turn,
 * when an enemy unit ends a Normal, Advance or Fall Back move within 9", a unit not in Engagement Range
 * may make a Normal move (src/factions/tau/reactive-moves.ts, src/factions/aeldari/reactive-moves.ts).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { PlayerIndex } from '../../src/core/state.ts';
import { afterMove, ruleMove } from '../../src/rules/battle/movement.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { destroyModel, splitAttachedUnits } from '../../src/rules/damage.ts';

/** The reacting unit R (player `reactor`) at x 10; the enemy unit M starts far away and is then moved. */
function sandbox(reactor: PlacedUnit, mover: PlacedUnit, dice: number[], asked: DecisionRequest[]): Game {
  const pick = (r: DecisionRequest) => {
    asked.push(r);
    // the reactive move: the destination farthest from the mover (its last option)
    return ['trail-finding', 'aerial-disengagement', 'path-of-the-outcast', 'reaver-band'].includes(r.kind) ? r.options.length - 1 : 0;
  };
  const agents = reactor.player === 0 ? [scriptedAgent('r', pick), scriptedAgent('m')] : [scriptedAgent('m'), scriptedAgent('r', pick)];
  return battleSandbox([reactor, mover], { phase: 'movement', turn: mover.player, round: 2, stream: scriptedStream(dice), agents: agents as [ReturnType<typeof scriptedAgent>, ReturnType<typeof scriptedAgent>] });
}

/** Set the mover's models `gap` inches (centre to centre, along x) from the reactor's first model and end its move `mode`. */
function endMove(g: Game, gap: number, mode: 'normal' | 'advance' | 'fall-back' | 'arrived' = 'normal'): void {
  const r = g.state.units.R.models[0].pos!;
  const m = g.state.units.M;
  g.emit({ type: 'models-placed', unit: 'M', mode: 'test', positions: m.models.map((x, i) => ({ model: x.id, pos: { x: r.x + gap, y: r.y + i * 1.2, z: 0 } })) });
  g.emit({ type: 'unit-moved', unit: 'M', mode });
  afterMove(g, g.state.units.M);
}

const reacted = (asked: DecisionRequest[], kind: string) => asked.filter((r) => r.kind === kind).length;
const at = (g: Game) => ({ ...g.state.units.R.models[0].pos! });

const cases: { kind: string; reactor: PlacedUnit; mover: PlacedUnit; reach: (die: number) => number }[] = [
  { kind: 'trail-finding', reactor: { id: 'R', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 20, y: 22 } }, mover: { id: 'M', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 22 } }, reach: (d) => d },
  { kind: 'aerial-disengagement', reactor: { id: 'R', player: 0, faction: 'tau', name: 'Remora Stealth Drones', at: { x: 20, y: 22 } }, mover: { id: 'M', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 50, y: 22 } }, reach: () => 6 },
  { kind: 'path-of-the-outcast', reactor: { id: 'R', player: 1, faction: 'aeldari', name: 'Rangers', at: { x: 20, y: 22 } }, mover: { id: 'M', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 22 } }, reach: (d) => d },
  { kind: 'reaver-band', reactor: { id: 'R', player: 1, faction: 'aeldari', name: 'Corsair Reaver Band', at: { x: 20, y: 22 } }, mover: { id: 'M', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 50, y: 22 } }, reach: (d) => d },
];

describe('reactive moves', () => {
  for (const { kind, reactor, mover, reach } of cases) {
    it(`${kind}: within 9" of an enemy Normal move the unit moves (once per turn); beyond 9", after an arrival or in Engagement Range it does not`, () => {
      const asked: DecisionRequest[] = [];
      const g = sandbox(reactor, mover, [3], asked);
      const from = at(g);
      endMove(g, 8);
      expect(reacted(asked, kind)).toBe(1);
      const to = at(g);
      const moved = Math.hypot(to.x - from.x, to.y - from.y);
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThanOrEqual(reach(3) + 1e-6);
      // once per turn: a second enemy move within 9" is not answered
      endMove(g, 8, 'advance');
      expect(reacted(asked, kind)).toBe(1);

      const far: DecisionRequest[] = [];
      endMove(sandbox(reactor, mover, [3], far), 12);
      expect(reacted(far, kind)).toBe(0);
      const arrival: DecisionRequest[] = [];
      endMove(sandbox(reactor, mover, [3], arrival), 8, 'arrived');
      expect(reacted(arrival, kind)).toBe(0);
      const engaged: DecisionRequest[] = [];
      // the mover ends its move within Engagement Range of the unit (bases under 1" apart)
      endMove(sandbox(reactor, mover, [3], engaged), 1.5);
      expect(reacted(engaged, kind)).toBe(0);
    });
  }
});

describe('reactive moves after a move a rule gives (audit 16)', () => {
  it('a Normal move a rule gives (FIRE AND FADE, Fade Back...) ending within 9" sets one off, as a Movement phase move does; a reactive move does not', () => {
    const { reactor, mover } = cases.find((c) => c.kind === 'aerial-disengagement')!;
    for (const reaction of [false, true]) {
      const asked: DecisionRequest[] = [];
      const g = sandbox(reactor, mover, [3], asked);
      g.emit({ type: 'phase-started', round: 2, player: 1, phase: 'shooting' });
      const r = at(g);
      expect(ruleMove(g, g.state.units.M, 'normal', { x: r.x + 8, y: r.y }, 30, true, reaction)).toBe(true);
      // the mover's unit ended about 8" (centre to centre) from where the drones stood
      const m = g.state.units.M.models.map((x) => x.pos!);
      expect(Math.min(...m.map((p) => Math.hypot(p.x - r.x, p.y - r.y)))).toBeLessThan(9);
      expect(reacted(asked, 'aerial-disengagement')).toBe(reaction ? 0 : 1);
      expect(at(g).x === r.x && at(g).y === r.y).toBe(reaction);
    }
  });
});

export type { PlayerIndex };

describe('a once-per-turn reactive move is the models\' use', () => {
  it('Trail Finding: the Kroot Trail Shaper left alone when his Carnivores are destroyed does not make a second move that turn', () => {
    const moves: string[] = [];
    const tau = (r: DecisionRequest) => {
      if (r.kind !== 'trail-finding') return 0;
      const i = (r.options as { none?: true }[]).findIndex((o) => !o.none);
      if (i >= 0) moves.push(String((r.context as { unit: string }).unit));
      return Math.max(0, i);
    };
    const g = battleSandbox([
      { id: 'TS', player: 0, faction: 'tau', name: 'Kroot Trail Shaper', at: { x: 20, y: 12 } },
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 20, y: 14 }, spacing: 1 },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 14 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 30, y: 30 } },
    ], { phase: 'movement', turn: 1, round: 2, agents: [scriptedAgent('tau', tau), scriptedAgent('ae')] });
    g.emit({ type: 'unit-attached', leader: 'TS', bodyguard: 'KC' });
    const trail = getRule('Trail Finding')!;
    trail.enemyMoveEnded!(g, g.state.units.KC, g.state.units.GD);
    expect(moves).toEqual(['KC']);
    const kc = g.state.units.KC;
    for (const m of kc.models.filter((x) => x.origin === 'KC' && x.alive)) destroyModel(g, kc, m, 'GD', 'damage');
    splitAttachedUnits(g);
    expect(g.state.units.TS.location).toBe('battlefield');
    // the Dire Avengers end a move 7" from him, later that turn
    const ts = g.state.units.TS.models[0].pos!;
    g.emit({ type: 'models-placed', unit: 'DA', mode: 'test', positions: g.state.units.DA.models.map((m, i) => ({ model: m.id, pos: { x: ts.x + 7, y: ts.y + i * 1.3, z: 0 } })) });
    trail.enemyMoveEnded!(g, g.state.units.TS, g.state.units.DA);
    expect(moves).toEqual(['KC']);
  });
});
