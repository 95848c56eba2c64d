import { describe, expect, it } from 'vitest';
import { duel } from '../helpers/attack.ts';
import { createStream } from '../../src/core/rng.ts';
import { apply, applyImmutable, foldEvents } from '../../src/core/reducer.ts';
import type { GameState } from '../../src/core/state.ts';
import type { GameEvent } from '../../src/core/events.ts';

/** A long event log: many rounds of shooting between two sandbox units, with effects coming and going. */
function longLog(): { log: GameEvent[]; final: GameState; initial: GameState } {
  const d = duel({ models: 3, weapon: { attacks: 'D3', skill: 3, strength: 5, ap: -1, damage: 'D3', abilities: ['SUSTAINED HITS 1', 'DEVASTATING WOUNDS'] } },
    { name: 'Brutes', models: 30, profile: { toughness: 4, save: 4, wounds: 3 }, coreAbilities: [{ name: 'Feel No Pain', x: 6 }] },
    createStream('long-log'));
  for (let round = 0; round < 40; round++) {
    const e = d.game.addEffect('Stealth', 1, 'D', { at: 'end-of-battle' });
    d.run({ targetInCover: round % 2 === 0 });
    d.game.removeEffect(e.id);
    d.game.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
    if (!d.game.state.units.D.models.some((m) => m.alive)) break;
  }
  return { log: d.game.log!, final: d.game.state, initial: d.initial };
}

describe('reducer', () => {
  const { log, final, initial } = longLog();

  it('the log is long enough to mean something', () => {
    expect(log.length).toBeGreaterThan(200);
  });

  it('folding the log on a mutable state gives the engine final state', () => {
    expect(foldEvents(log, structuredClone(initial))).toEqual(final);
  });

  it('immer snapshots (produce) and the mutable path end in deep-equal states', () => {
    let snap = structuredClone(initial);
    const snapshots: GameState[] = [];
    for (const e of log) {
      snap = applyImmutable(snap, e);
      snapshots.push(snap);
    }
    const mutable = structuredClone(initial);
    for (const e of log) apply(mutable, e);
    expect(snap).toEqual(mutable);
    expect(Object.isFrozen(snap)).toBe(true);
    // structural sharing: a dice event changes the PRNG state only, the units are the same objects
    const i = log.findIndex((e, k) => k > 10 && e.type === 'dice');
    expect(snapshots[i].units).toBe(snapshots[i - 1].units);
    expect(snapshots[i].rng).not.toBe(snapshots[i - 1].rng);
  });

  it('contentVersion moves with every event that changes the state other than the dice stream, and not with dice', () => {
    // the agents' caches key on it: an event that changed the state without it would serve stale values
    const s = structuredClone(initial);
    const content = (x: GameState) => JSON.stringify({ ...x, rng: null, eventCount: 0, contentVersion: 0 });
    let diceSeen = 0, changes = 0;
    for (const e of log) {
      const before = content(s);
      const v = s.contentVersion;
      apply(s, e);
      if (content(s) !== before) {
        changes++;
        expect(s.contentVersion, `event ${e.type}`).toBe(v + 1);
      }
      if (e.type === 'dice' || e.type === 'reroll') {
        diceSeen++;
        expect(s.contentVersion, 'a dice event').toBe(v);
      }
    }
    expect(diceSeen).toBeGreaterThan(50);
    expect(changes).toBeGreaterThan(50);
  });

  it('the state never aliases a logged event: replaying the log twice gives the same result', () => {
    const a = JSON.stringify(foldEvents(log, structuredClone(initial)));
    const b = JSON.stringify(foldEvents(log, structuredClone(initial)));
    expect(a).toBe(b);
    expect(a).toBe(JSON.stringify(final));
  });
});

describe('dice', () => {
  it('the same seed gives the same dice; the PRNG state is kept in the game state', () => {
    const a = longLog();
    const b = longLog();
    expect(JSON.stringify(a.log)).toBe(JSON.stringify(b.log));
    const lastDice = [...a.log].reverse().find((e) => e.type === 'dice') as { rng: unknown };
    expect(a.final.rng).toEqual(lastDice.rng);
  });

  it('D6 results are uniform (chi-square, 6000 rolls, fixed seed)', () => {
    const s = createStream('uniformity');
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[s.die(6) - 1]++;
    const chi = counts.reduce((acc, c) => acc + (c - 1000) ** 2 / 1000, 0);
    // 5 degrees of freedom: P(chi2 > 20.5) = 0.001
    expect(chi).toBeLessThan(20.5);
  });
});

describe('the units\' counters the batch reports read', () => {
  it('count wounds dealt and models killed against enemy units only: a unit\'s Deadly Demise on its own army is no damage it dealt', async () => {
    const { battleSandbox } = await import('../helpers/battle.ts');
    const g = battleSandbox([
      { id: 'DF', player: 0, faction: 'tau', name: 'Devilfish', at: { x: 10, y: 10 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 10, y: 16 } },
      { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 16, y: 10 } },
    ]);
    const s = g.state;
    // the Devilfish's Deadly Demise: a mortal wound destroying a Fire Warrior of its own army, then one destroying a Guardian
    g.emit({ type: 'model-damaged', unit: 'ST', model: s.units.ST.models[0].id, wounds: 1, by: 'DF', mortal: true });
    g.emit({ type: 'model-destroyed', unit: 'ST', model: s.units.ST.models[0].id, by: 'DF', reason: 'Deadly Demise' });
    g.emit({ type: 'model-damaged', unit: 'GD', model: s.units.GD.models[0].id, wounds: 1, by: 'DF', mortal: true });
    g.emit({ type: 'model-destroyed', unit: 'GD', model: s.units.GD.models[0].id, by: 'DF', reason: 'Deadly Demise' });
    expect(g.state.units.DF.stats).toEqual({ woundsDealt: 1, woundsTaken: 0, modelsKilled: 1 });
    // the wounds its own unit lost are wounds taken all the same
    expect(g.state.units.ST.stats.woundsTaken).toBe(1);
    expect(g.state.units.GD.stats.woundsTaken).toBe(1);
  });
});
