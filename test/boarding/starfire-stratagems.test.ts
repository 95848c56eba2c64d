/**
 * The Starfire Cadre's stratagems (Boarding Actions; from the export): RESPONSIVE VOLLEY, RETREATING FIRE
 * and FIRING LINE, each against the same situation without it. PULSE BARRAGE is not played (no Overwatch
 * in this engine's Boarding Actions games).
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import type { Agent, DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { HatchwayState, PhaseName } from '../../src/core/state.ts';
import { openWindow, usableStratagems, type Window } from '../../src/rules/windows.ts';
import { hatchwaySide, hatchwayStep, modelHatchwaySide, modelsAcrossHatchway } from '../../src/rules/battle/hatchways.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { modelBody, unitDistance } from '../../src/rules/battle/world.ts';
import { createStream } from '../../src/core/rng.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';

const WALL = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];
const HATCH: HatchwayState = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };

/** An agent that uses the named stratagem whenever it is offered (else the first option). */
function using(name: string | null, then: (r: DecisionRequest) => number = () => 0): Agent {
  return scriptedAgent(`uses ${name}`, (r) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === name)) : then(r)));
}

function ship(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: 0 | 1; tau?: Agent; stream?: ReturnType<typeof createStream> } = {}): Game {
  return battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, terrain: WALL, hatchways: [HATCH], phase: opts.phase ?? 'movement', turn: opts.turn ?? 0,
    round: 2, cp: [3, 3], detachments: ['Starfire Cadre', null], agents: [opts.tau ?? using(null), scriptedAgent('ae')], ...(opts.stream ? { stream: opts.stream } : {}),
  });
}

const offered = (g: Game, w: Window, p: 0 | 1) => usableStratagems(g, w, p).map((x) => `${x.s.name}>${x.unit.id}`).filter((x) => /RESPONSIVE|RETREATING|FIRING LINE/.test(x));

describe('hatchway sides', () => {
  it('the wall runs along the hatchway\'s longer side: west and east of a 2" x 3" hatchway in a north-south wall are its two sides', () => {
    expect(hatchwaySide(HATCH.polygon, { x: 16, y: 5 })).toBe(-hatchwaySide(HATCH.polygon, { x: 28, y: 25 }));
    expect(hatchwaySide(HATCH.polygon, { x: 21, y: 2 })).toBe(0);
  });

  it('a model is on a side when its whole base is: a Fire Warrior whose base crosses the hatchway\'s line (x = 21) is on neither, so its unit is not wholly across', () => {
    const g = ship([
      { id: 'W', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 16, y: 5 }, spacing: 1 },
      { id: 'E', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 28, y: 14 } },
    ]);
    const w = g.state.units.W.models, e = g.state.units.E.models[0];
    const r = (m: typeof e) => (modelBody(g.state, m).base as { r: number }).r;
    const place = (unit: string, model: string, x: number, y: number) => g.emit({ type: 'models-placed', unit, mode: 'test', positions: [{ model, pos: { x, y, z: 0 } }] });
    const across = () => modelsAcrossHatchway(g.state, HATCH.polygon, g.state.units.W.models, g.state.units.E.models);
    expect(across()).toBe(true);
    place('W', w[0].id, 21 - r(w[0]) - 0.05, 14.5);
    expect(modelHatchwaySide(g.state, HATCH.polygon, g.state.units.W.models[0])).toBe(hatchwaySide(HATCH.polygon, { x: 16, y: 5 }));
    expect(across()).toBe(true);
    place('W', w[0].id, 21 - r(w[0]) + 0.05, 14.5);
    expect(modelHatchwaySide(g.state, HATCH.polygon, g.state.units.W.models[0])).toBe(0);
    expect(across()).toBe(false);
    // the Autarch's base crossing the line from the east side: on neither side either
    place('W', w[0].id, 17, 14.5);
    place('E', e.id, 21 + r(e) - 0.05, 14.5);
    expect(across()).toBe(false);
    place('E', e.id, 21 + r(e) + 0.05, 14.5);
    expect(across()).toBe(true);
  });
});

describe('RESPONSIVE VOLLEY (Starfire Cadre)', () => {
  function volley(opener: 'Strike Team' | 'Cadre Fireblade', tau: Agent) {
    return ship([
      { id: 'O', player: 0, faction: 'tau', name: opener, counts: opener === 'Strike Team' ? [1, 4] : undefined, at: { x: 19, y: 12.5 }, spacing: 1 },
      { id: 'A', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 28, y: 14.5 } },
      { id: 'W', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 12, y: 25 } },
    ], { tau });
  }

  it('offered just after a FIRE WARRIOR unit opens a hatchway in its Movement phase; not after a Cadre Fireblade opens one', () => {
    const seen: string[][] = [];
    const record = (name: string | null): Agent => ({ name: 'rec', decide: (v, r) => { if (r.kind === 'stratagem') seen.push((r.options as { stratagem?: string }[]).flatMap((o) => (o.stratagem ? [o.stratagem] : []))); return using(name).decide(v, r); } });
    const g = volley('Strike Team', record(null));
    hatchwayStep(g, g.state.units.O);
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(seen).toEqual([['RESPONSIVE VOLLEY']]);
    seen.length = 0;
    const f = volley('Cadre Fireblade', record(null));
    hatchwayStep(f, f.state.units.O);
    expect(f.state.openHatchways).toEqual(['h1']);
    expect(seen).toEqual([]);
  });

  it('until the end of the turn, Critical Hits on 5+ against a unit wholly across that hatchway, not against one on the unit\'s side', () => {
    const g = volley('Strike Team', using('RESPONSIVE VOLLEY'));
    expect(planFor(g, 'O', 'A', 'Pulse rifle').criticalHitOn).toBe(6);
    hatchwayStep(g, g.state.units.O);
    expect(planFor(g, 'O', 'A', 'Pulse rifle').criticalHitOn).toBe(5);
    expect(planFor(g, 'O', 'W', 'Pulse rifle').criticalHitOn).toBe(6);
    expect(g.state.players[0].cp).toBe(2);
  });
});

describe('RETREATING FIRE (Starfire Cadre)', () => {
  const start: Window = { name: 'phase/start', unit: null, targets: [], data: { phase: 'shooting' } };
  it('at the start of its Shooting phase, a FIRE WARRIOR unit that Fell Back may shoot', () => {
    const g = ship([
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 5 }, spacing: 1 },
      { id: 'S2', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 10, y: 20 }, spacing: 1 },
      { id: 'W', player: 1, faction: 'aeldari', name: 'Autarch', at: { x: 16, y: 12 } },
    ], { phase: 'shooting', tau: using('RETREATING FIRE') });
    g.emit({ type: 'unit-moved', unit: 'ST', mode: 'fall-back' });
    expect(canShoot(g, g.state.units.ST)).toBe(false);
    // only the unit that Fell Back is offered
    expect(offered(g, start, 0)).toEqual(['RETREATING FIRE>ST']);
    expect(openWindow(g, start)).toEqual(['RETREATING FIRE']);
    expect(canShoot(g, g.state.units.ST)).toBe(true);
  });
});

describe('FIRING LINE (Starfire Cadre)', () => {
  it('after an enemy unit that destroyed a T\'AU EMPIRE unit has fought: a FIRE WARRIOR unit within 9" shoots it, hitting only on unmodified 5+', () => {
    // Howling Banshees engaged with a Cadre Fireblade left with 1 wound; a Strike Team 6" off sees them
    const g = ship([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 8 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 18 }, spacing: 1 },
      { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 4], at: { x: 11.6, y: 8 }, spacing: 0.9 },
    ], { phase: 'fight', turn: 1, tau: using('FIRING LINE'), stream: createStream('firing-line') });
    const f = g.state.units.F.models[0];
    g.emit({ type: 'model-damaged', unit: 'F', model: f.id, wounds: f.wounds - 1, by: null, mortal: false });
    expect(unitDistance(g.state, g.state.units.ST, g.state.units.HB)).toBeLessThanOrEqual(9);
    // the plan it will use: BS 4+ improved by Markerlight Precision to 3+, then "unmodified 5+" over all of it
    expect(planFor(g, 'ST', 'HB', 'Pulse rifle').skill).toBe(3);
    fight(g, g.state.units.HB);
    expect(g.state.units.F.location).toBe('destroyed');
    const used = (g.log ?? []).filter((e) => e.type === 'stratagem-used').map((e) => (e as { name: string }).name);
    expect(used).toEqual(['FIRING LINE']);
    expect(g.state.units.ST.flags.shot).toBe(true);
    expect([planFor(g, 'ST', 'HB', 'Pulse rifle').skill, planFor(g, 'ST', 'HB', 'Pulse rifle').hitModifier]).toEqual([5, 0]);
  });

  it('not when the enemy unit destroyed nothing, nor for a unit more than 9" away', () => {
    const w = (destroyed: string[]): Window => ({ name: 'fight/after-enemy-fought', unit: 'HB', targets: [], data: { destroyed } });
    const g = ship([
      { id: 'F', player: 0, faction: 'tau', name: 'Cadre Fireblade', at: { x: 10, y: 8 } },
      { id: 'ST', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 18 }, spacing: 1 },
      { id: 'FAR', player: 0, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 4, y: 2 }, spacing: 1 },
      { id: 'HB', player: 1, faction: 'aeldari', name: 'Howling Banshees', counts: [1, 4], at: { x: 11, y: 20 }, spacing: 0.9 },
    ], { phase: 'fight', turn: 1 });
    expect(unitDistance(g.state, g.state.units.FAR, g.state.units.HB)).toBeGreaterThan(9);
    expect(offered(g, w([]), 0)).toEqual([]);
    expect(offered(g, w(['F']), 0)).toEqual(['FIRING LINE>ST']);
  });

  it('PULSE BARRAGE is not registered (it changes Overwatch, which Boarding Actions games here do not have)', () => {
    const starfire = allStratagems().filter((s) => s.source === 'Starfire Cadre').map((s) => s.name).sort();
    expect(starfire).toEqual(['FIRING LINE', 'RESPONSIVE VOLLEY', 'RETREATING FIRE']);
  });
});
