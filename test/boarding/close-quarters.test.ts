import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import type { Agent } from '../../src/core/agent.ts';
import type { GameEvent } from '../../src/core/events.ts';
import type { Game } from '../../src/core/game.ts';
import { createStream } from '../../src/core/rng.ts';
import { modelBody, modelsSee } from '../../src/rules/battle/world.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { closeQuartersGroups, EXPLOSIVE_CLEARANCE } from '../../src/rules/battle/boarding.ts';
import { usableStratagems } from '../../src/rules/windows.ts';
import type { AttackGroup } from '../../src/rules/attack-sequence.ts';
import { pointsPerWound, weaponEstimate, weaponUses } from '../../src/ai/evaluate.ts';
import { createHeuristic, lastOptionScores } from '../../agents/heuristic.ts';

/**
 * A Farseer (Eldritch Storm: D6 attacks, [BLAST]) at (5, 5) and ten Fire Warriors in a column at x 20,
 * y 5 to 19.4; a wall at x 12-14 from y 8 down hides the lower part of the column from the Farseer.
 */
const WALL = [{ id: 'w', kind: 'wall' as const, polygon: [{ x: 12, y: 8 }, { x: 14, y: 8 }, { x: 14, y: 30 }, { x: 12, y: 30 }], height: 5 }];

function setup(opts: { ba?: boolean; seed?: string; agents?: [Agent, Agent]; wall?: boolean; cp?: number } = {}): Game {
  return battleSandbox([
    { id: 'S', player: 0, faction: 'tau', name: 'Strike Team', at: { x: 20, y: 5 } },
    { id: 'F', player: 1, faction: 'aeldari', name: 'Farseer', at: { x: 5, y: 5 } },
  ], {
    ...(opts.ba === false ? {} : { mode: 'boarding-actions' as const }), size: { width: 44, height: 30 }, terrain: opts.wall === false ? [] : WALL,
    phase: 'shooting', turn: 1, cp: [0, opts.cp ?? 3], stream: createStream(opts.seed ?? 'cq'), agents: opts.agents,
  });
}

/** Ids of the Fire Warriors the Farseer sees. */
function seen(g: Game): string[] {
  const s = g.state;
  const f = s.units.F.models[0];
  return s.units.S.models.filter((m) => m.alive && modelsSee(s, modelBody(s, f), f.id, modelBody(s, m), m.id)).map((m) => m.id);
}

function stormGroup(g: Game): AttackGroup {
  const s = g.state;
  const f = s.units.F.models[0];
  const weapon = s.datasheets[f.datasheet].weapons.find((w) => w.name === 'Eldritch Storm')!;
  return {
    weapon, profile: weapon.profiles[0], models: [f], target: 'S', halfRange: false, targetVisible: true, targetInCover: false,
    targetModels: s.units.S.models.filter((m) => m.alive).length,
  };
}

/** Number of attacks rolled for the Storm, and the number of Hit rolls made, from the log. */
function stormAttacks(events: GameEvent[]): { rolled: number; hits: number } {
  const rolled = events.find((e) => e.type === 'dice' && e.purpose === 'attacks' && e.label?.startsWith('Eldritch Storm'));
  const hits = events.find((e) => e.type === 'dice' && e.purpose === 'hit' && e.label?.startsWith('Eldritch Storm'));
  return { rolled: rolled?.type === 'dice' ? rolled.values[0] : NaN, hits: hits?.type === 'dice' ? hits.values.length : NaN };
}

/** Models of the Strike Team that were allocated attacks or destroyed. */
function struck(events: GameEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) if ((e.type === 'attack-allocated' || e.type === 'model-destroyed' || e.type === 'model-damaged') && e.unit === 'S') out.add(e.model);
  return out;
}

describe('close quarters (Boarding Actions): Blast and allocation see only what the attacker sees', () => {
  it('the setting: the Farseer sees some of the ten, fewer than five', () => {
    const v = seen(setup());
    expect(v.length).toBeGreaterThan(0);
    expect(v.length).toBeLessThan(5);
  });

  it('the attack group carries the visible models: Blast counts them, allocation is limited to them', () => {
    const g = setup();
    const groups = closeQuartersGroups(g.state, g.state.units.F, stormGroup(g), (m) => modelBody(g.state, m));
    expect(groups).toHaveLength(1);
    expect(groups[0].targetModels).toBe(seen(g).length);
    expect([...groups[0].allocatable!]).toEqual(seen(g));
  });

  it('in play: no Blast bonus from hidden models, and only visible models take the attacks', () => {
    const visible = new Set(seen(setup()));
    let hitAny = 0;
    for (let i = 0; i < 12; i++) {
      const g = setup({ seed: `cq-${i}` });
      shootWithUnit(g, g.state.units.F);
      const { rolled, hits } = stormAttacks(g.log!);
      expect(hits).toBe(rolled + Math.floor(visible.size / 5));
      for (const id of struck(g.log!)) expect(visible.has(id)).toBe(true);
      hitAny += struck(g.log!).size;
    }
    expect(hitAny).toBeGreaterThan(0);
  });

  it('in Strike Force: Blast counts all ten, and hidden models can be allocated attacks', () => {
    const visible = new Set(seen(setup({ ba: false })));
    let hidden = 0;
    for (let i = 0; i < 12; i++) {
      const g = setup({ ba: false, seed: `cq-${i}` });
      shootWithUnit(g, g.state.units.F);
      const { rolled, hits } = stormAttacks(g.log!);
      expect(hits).toBe(rolled + 2);
      for (const id of struck(g.log!)) if (!visible.has(id)) hidden++;
    }
    expect(hidden).toBeGreaterThan(0);
  });
});

describe('EXPLOSIVE CLEARANCE', () => {
  const useIt: Agent = scriptedAgent('ae', (r) => {
    if (r.kind !== 'stratagem') return 0;
    const i = r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'EXPLOSIVE CLEARANCE');
    return i < 0 ? 0 : i;
  });

  it('is offered when a unit with a Blast weapon is selected to shoot, and names the model and weapon', () => {
    const g = setup();
    const w = { name: 'shooting/unit-selected' as const, unit: 'F', targets: [] };
    expect(usableStratagems(g, w, 1).map((x) => x.s.name)).toEqual(['EXPLOSIVE CLEARANCE']);
    // not for a unit without a Blast weapon
    expect(usableStratagems(g, { ...w, unit: 'S' }, 0)).toEqual([]);
    // and not in a Strike Force game
    expect(usableStratagems(setup({ ba: false }), w, 1)).toEqual([]);
  });

  it('not for a unit that Advanced: the Farseer\'s Eldritch Storm has no ASSAULT and cannot be fired', () => {
    const g = setup();
    g.emit({ type: 'unit-moved', unit: 'F', mode: 'advance' });
    expect(g.state.units.F.flags.advanced).toBe(true);
    expect(usableStratagems(g, { name: 'shooting/unit-selected', unit: 'F', targets: [] }, 1)).toEqual([]);
  });

  it('for the chosen weapon, Blast counts the hidden models and attacks can be allocated to them', () => {
    const visible = new Set(seen(setup()));
    let hidden = 0;
    for (let i = 0; i < 12; i++) {
      const g = setup({ seed: `cq-${i}`, agents: [scriptedAgent('tau'), useIt] });
      shootWithUnit(g, g.state.units.F);
      expect(g.state.players[1].stratagemsUsed.map((u) => u.name)).toEqual(['EXPLOSIVE CLEARANCE']);
      expect(g.state.effects.filter((e) => e.kind === EXPLOSIVE_CLEARANCE).map((e) => e.params)).toEqual([{ model: g.state.units.F.models[0].id, weapon: 'Eldritch Storm' }]);
      const { rolled, hits } = stormAttacks(g.log!);
      expect(hits).toBe(rolled + 2);
      for (const id of struck(g.log!)) if (!visible.has(id)) hidden++;
    }
    expect(hidden).toBeGreaterThan(0);
  });

  it('only for that model\'s weapon: another model of the unit keeps to what it sees', () => {
    const g = setup();
    g.addEffect(EXPLOSIVE_CLEARANCE, 1, 'F', g.untilEndOfPhase(), { model: 'someone-else', weapon: 'Eldritch Storm' });
    const groups = closeQuartersGroups(g.state, g.state.units.F, stormGroup(g), (m) => modelBody(g.state, m));
    expect(groups[0].allocatable).toBeDefined();
    g.addEffect(EXPLOSIVE_CLEARANCE, 1, 'F', g.untilEndOfPhase(), { model: g.state.units.F.models[0].id, weapon: 'Eldritch Storm' });
    const freed = closeQuartersGroups(g.state, g.state.units.F, stormGroup(g), (m) => modelBody(g.state, m));
    expect(freed[0].allocatable).toBeUndefined();
    expect(freed[0].targetModels).toBe(10);
  });
});

describe('the heuristic prices EXPLOSIVE CLEARANCE by what close quarters take from the Blast weapon', () => {
  const selected = { name: 'shooting/unit-selected', unit: 'F', targets: [] };
  const score = (g: Game) => {
    createHeuristic().decide({ state: g.state, player: 1 }, {
      kind: 'stratagem', player: 1, prompt: 'stratagem?', options: [{ pass: true }, { stratagem: 'EXPLOSIVE CLEARANCE', unit: 'F', cp: 1 }], context: { window: selected },
    });
    return lastOptionScores()[1];
  };

  it('in the open (every model seen) it gains nothing; behind the wall, the Blast attacks and the wounds of the hidden models', () => {
    const open = setup({ wall: false });
    expect(seen(open)).toHaveLength(10);
    const price = -score(open);
    expect(price).toBeGreaterThan(0);
    const g = setup();
    const s = g.state;
    const f = s.units.F.models[0];
    const storm = weaponUses(s, s.units.F, false).find((u) => u.weapon.name === 'Eldritch Storm')!;
    const free = weaponEstimate(s, s.units.F, { ...storm, models: [f] }, s.units.S, { inRangeOnly: true }).value;
    // fewer than five seen: Blast adds nothing instead of 2 attacks, and no more than the seen models' worth is lost
    const fewer = weaponEstimate(s, s.units.F, { ...storm, models: [f] }, s.units.S, { inRangeOnly: true, tweak: (p) => { p.attacksBonus -= 2; } }).value;
    const close = Math.min(seen(g).length * pointsPerWound(s, s.units.S), fewer);
    expect(free - close).toBeGreaterThan(0);
    expect(score(g) + price).toBeCloseTo(free - close, 9);
  });

  it('used when that is worth the CP, on the Farseer\'s Storm', () => {
    const g = setup({ cp: 12, agents: [scriptedAgent('tau'), createHeuristic()] });
    g.state.round = 5;
    g.state.units.S.points = 400;
    shootWithUnit(g, g.state.units.F);
    // (a COMMAND RE-ROLL may follow, at the shooting's rolls)
    expect(g.state.players[1].stratagemsUsed[0].name).toBe('EXPLOSIVE CLEARANCE');
    expect(g.state.effects.filter((e) => e.kind === EXPLOSIVE_CLEARANCE).map((e) => e.params)).toEqual([{ model: g.state.units.F.models[0].id, weapon: 'Eldritch Storm' }]);
    // and not where nothing is hidden
    const open = setup({ wall: false, cp: 12, agents: [scriptedAgent('tau'), createHeuristic()] });
    open.state.round = 5;
    open.state.units.S.points = 400;
    shootWithUnit(open, open.state.units.F);
    expect(open.state.players[1].stratagemsUsed.map((u) => u.name)).not.toContain('EXPLOSIVE CLEARANCE');
  });
});
