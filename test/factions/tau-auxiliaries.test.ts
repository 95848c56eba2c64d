/**
 * T'au Empire datasheet abilities of the Kroot and Vespid auxiliaries of the real army lists
 * (src/factions/tau/auxiliaries.ts): one test (or more) each, that fails if the ability is played wrong.
 */
import { describe, expect, it } from 'vitest';
import { createHeuristic } from '../../agents/heuristic.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { Game } from '../../src/core/game.ts';
import { FIELDCRAFT_HOLD } from '../../src/factions/tau/auxiliaries.ts';
import { getRule } from '../../src/core/rules-registry.ts';
import { heldCount, objectiveSnapshot } from '../../src/ai/tactics.ts';
import { endPhase } from '../../src/rules/battle/phase.ts';
import { endTurn } from '../../src/rules/battle/battle.ts';
import { updateObjectiveControl } from '../../src/rules/battle/objectives.ts';
import { arrivalOptions } from '../../src/rules/battle/reserves.ts';
import { isEngaged } from '../../src/rules/battle/world.ts';

/** Move every model of a unit to two columns from (x, y), 1.2" apart (in Unit Coherency at the end of a turn). */
function moveTo(g: Game, unit: string, x: number, y: number): void {
  const u = g.state.units[unit];
  g.emit({ type: 'models-placed', unit, mode: 'test', positions: u.models.map((m, i) => ({ model: m.id, pos: { x: x + (i % 2) * 1.2, y: y + Math.floor(i / 2) * 1.2, z: 0 } })) });
  updateObjectiveControl(g);
}

describe('Kroot Carnivores', () => {
  function kroot(): Game {
    // the marker o1 at the centre (30, 22); the Kroot's first models are on it, the Dire Avengers far away
    const g = battleSandbox([
      { id: 'KC', player: 0, faction: 'tau', name: 'Kroot Carnivores', at: { x: 30, y: 21 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 55, y: 2 } },
    ], { phase: 'command' });
    updateObjectiveControl(g);
    return g;
  }
  const controller = (g: Game) => g.state.objectives[0].controller;
  const holds = (g: Game) => g.state.effects.filter((e) => e.kind === FIELDCRAFT_HOLD);

  it('Fieldcraft: at the end of its Command phase a marker it controls stays controlled after it leaves, until the enemy controls it', () => {
    const g = kroot();
    expect(controller(g)).toBe(0);
    endPhase(g, 0, 'command');
    expect(holds(g).map((e) => [e.player, e.params.objective])).toEqual([[0, 'o1']]);
    moveTo(g, 'KC', 5, 2);
    expect(controller(g)).toBe(0);
    // the Dire Avengers stand on it within the turn: still held ("until your opponent controls it at the start or
    // end of any turn", audit 16: it used to pass to them at once), and after they leave
    moveTo(g, 'DA', 30, 21);
    expect(controller(g)).toBe(0);
    moveTo(g, 'DA', 55, 2);
    expect(controller(g)).toBe(0);
    // the end of a turn in which the opponent does not control it keeps the hold
    endTurn(g, 0);
    expect(holds(g)).toHaveLength(1);
    expect(controller(g)).toBe(0);
  });

  it('Fieldcraft: a contested marker stays held, and one the opponent leads on within the turn; another marker is not', () => {
    const g = kroot();
    endPhase(g, 0, 'command');
    const hold = holds(g)[0];
    const keep = getRule(FIELDCRAFT_HOLD)!.objectiveControl!;
    expect(keep(g.state, 'o1', null, hold, 'phase-end')).toBe(0);
    expect(keep(g.state, 'o1', 1, hold, 'phase-end')).toBe(0);
    expect(keep(g.state, 'o2', null, hold, 'phase-end')).toBeNull();
  });

  it('Fieldcraft: the hold ends when the opponent controls the marker at the end of a turn', () => {
    const g = kroot();
    endPhase(g, 0, 'command');
    moveTo(g, 'KC', 5, 2);
    moveTo(g, 'DA', 30, 21);
    expect(controller(g)).toBe(0);
    endTurn(g, 0);
    expect(holds(g)).toHaveLength(0);
    expect(controller(g)).toBe(1);
    moveTo(g, 'DA', 55, 2);
    expect(controller(g)).toBeNull();
  });

  it('Fieldcraft in the agents\' objective view: a held marker is its player\'s on a tie, the enemy\'s when it has more', () => {
    const g = kroot();
    endPhase(g, 0, 'command');
    moveTo(g, 'KC', 5, 2);
    // no models on it: held (half a point of Level of Control)
    expect(objectiveSnapshot(g.state).level).toEqual([[0.5], [0]]);
    expect(heldCount(objectiveSnapshot(g.state).level, 0)).toBe(1);
    // the Dire Avengers on it: theirs, with their own Level
    moveTo(g, 'DA', 30, 21);
    expect(objectiveSnapshot(g.state).level).toEqual([[0], [5]]);
  });

  it('Fieldcraft: nothing is held outside its own Command phase, or for a marker it does not control', () => {
    const g = kroot();
    endPhase(g, 0, 'movement');
    expect(holds(g)).toHaveLength(0);
    const h = kroot();
    // two Kroot in range (Level 2) against five Dire Avengers (Level 5)
    moveTo(h, 'DA', 31, 20);
    moveTo(h, 'KC', 27, 14);
    expect(objectiveSnapshot(h.state).level).toEqual([[2], [5]]);
    expect(controller(h)).toBe(1);
    endPhase(h, 0, 'command');
    expect(holds(h)).toHaveLength(0);
  });
});

describe('Vespid Stingwings', () => {
  function vespids(pick: 'stay' | 'strategic-reserves', daAt = { x: 50, y: 5 }): { g: Game; asked: string[] } {
    const asked: string[] = [];
    const agent = scriptedAgent('tau', (r) => {
      if (r.kind !== 'airborne-agility') return 0;
      asked.push((r.context as { unit: string }).unit);
      return (r.options as string[]).indexOf(pick);
    });
    const g = battleSandbox([
      { id: 'VS', player: 0, faction: 'tau', name: 'Vespid Stingwings', at: { x: 20, y: 5 } },
      { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: daAt },
    ], { phase: 'fight', turn: 1, agents: [agent, scriptedAgent('ae')] });
    return { g, asked };
  }

  it('Airborne Agility: at the end of the opponent\'s turn it may go into Strategic Reserves, and arrive from there later', () => {
    const { g, asked } = vespids('strategic-reserves');
    endTurn(g, 1);
    expect(asked).toEqual(['VS']);
    const VS = g.state.units.VS;
    expect(VS.location).toBe('strategic-reserves');
    expect(VS.models.every((m) => m.alive && m.pos === null)).toBe(true);
    expect(arrivalOptions(g, VS).some((o) => o.how === 'strategic-reserves')).toBe(true);
    // declined, it stays
    const stay = vespids('stay');
    endTurn(stay.g, 1);
    expect(stay.asked).toEqual(['VS']);
    expect(stay.g.state.units.VS.location).toBe('battlefield');
  });

  it('the heuristic takes Vespids stranded far from the only marker off to arrive beside it; not Vespids on it', () => {
    const play = (at: { x: number; y: number }) => {
      const g = battleSandbox([
        { id: 'VS', player: 0, faction: 'tau', name: 'Vespid Stingwings', at },
        { id: 'DA', player: 1, faction: 'aeldari', name: 'Dire Avengers', at: { x: 40, y: 22 } },
      ], { phase: 'fight', turn: 1, round: 2, objectives: [{ id: 'o1', pos: { x: 50, y: 4 } }], agents: [createHeuristic(), scriptedAgent('ae')] });
      endTurn(g, 1);
      return g.state.units.VS.location;
    };
    expect(play({ x: 4, y: 38 })).toBe('strategic-reserves');
    expect(play({ x: 49, y: 3 })).toBe('battlefield');
  });

  it('Airborne Agility: not at the end of its own turn, nor within Engagement Range of an enemy unit', () => {
    const own = vespids('strategic-reserves');
    endTurn(own.g, 0);
    expect(own.asked).toEqual([]);
    expect(own.g.state.units.VS.location).toBe('battlefield');
    // the Dire Avengers in base contact with the Vespids' first model
    const engaged = vespids('strategic-reserves', { x: 21.5, y: 5 });
    expect(isEngaged(engaged.g.state, engaged.g.state.units.VS)).toBe(true);
    endTurn(engaged.g, 1);
    expect(engaged.asked).toEqual([]);
    expect(engaged.g.state.units.VS.location).toBe('battlefield');
  });
});
