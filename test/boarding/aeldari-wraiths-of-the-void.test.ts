/**
 * Wraiths of the Void (Aeldari, Boarding Actions): Wraith-Marked (a Leadership test, then the marker is
 * Secured), WRAITHSIGHT, GUARDIAN CONSTRUCTS, Direct Guidance and Song of Renewal; D-STRIKE and UNFLINCHING FIRE
 * registered as not played.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, type PlacedUnit } from '../helpers/battle.ts';
import { planFor } from '../helpers/plan.ts';
import { weapon } from '../helpers/attack.ts';
import { resolveAttacks } from '../../src/rules/attack-sequence.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { HatchwayState, PhaseName } from '../../src/core/state.ts';
import { createStream, type Stream } from '../../src/core/rng.ts';
import { allows, forbids } from '../../src/core/rules-registry.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { currentControl, updateObjectiveControl } from '../../src/rules/battle/objectives.ts';
import { commandPhase } from '../../src/rules/battle/command.ts';
import { destroyModel } from '../../src/rules/damage.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { openWindow, usableStratagems } from '../../src/rules/windows.ts';
import { WRAITH_MARKED_HOLD, dStrikeHatchways } from '../../src/factions/aeldari/boarding-wraiths-of-the-void.ts';
import { canShoot } from '../../src/rules/battle/shooting.ts';
import { hatchwayOptions } from '../../src/rules/battle/hatchways.ts';

const HATCH: HatchwayState = { id: 'h1', polygon: [{ x: 20, y: 13 }, { x: 22, y: 13 }, { x: 22, y: 16 }, { x: 20, y: 16 }] };
const WALLS = [
  { id: 'wall-n', kind: 'wall' as const, polygon: [{ x: 20, y: 0 }, { x: 22, y: 0 }, { x: 22, y: 13 }, { x: 20, y: 13 }], height: 5 },
  { id: 'wall-s', kind: 'wall' as const, polygon: [{ x: 20, y: 16 }, { x: 22, y: 16 }, { x: 22, y: 30 }, { x: 20, y: 30 }], height: 5 },
];

function sandbox(units: PlacedUnit[], opts: { phase?: PhaseName; turn?: 0 | 1; detachment?: string | null; pick?: (r: DecisionRequest) => number; asked?: string[]; stream?: Stream; walls?: boolean; objectives?: { id: string; pos: { x: number; y: number } }[] } = {}): Game {
  const asked = opts.asked ?? [];
  const g = battleSandbox(units, {
    mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: opts.phase ?? 'command', turn: opts.turn ?? 0, round: 2, cp: [3, 3],
    detachments: [opts.detachment === undefined ? 'Wraiths of the Void' : opts.detachment, null], factions: ['AE', 'TAU'],
    stream: opts.stream ?? createStream('wraiths'), agents: [scriptedAgent('ae', (r) => { asked.push(r.kind); return (opts.pick ?? (() => 0))(r); }), scriptedAgent('tau')],
    ...(opts.walls ? { terrain: WALLS, hatchways: [HATCH] } : {}),
    ...(opts.objectives ? { objectives: opts.objectives } : {}),
  });
  // control as determined at the end of the previous turn (Wraith-Marked reads it)
  if (opts.objectives) updateObjectiveControl(g);
  return g;
}

const pickKind = (kind: string, i: number) => (r: DecisionRequest) => (r.kind === kind ? i : 0);

describe('Wraith-Marked (Wraiths of the Void)', () => {
  // the one objective marker at (22, 15); Wraithguard (Leadership 8+) on it, Guardian Defenders (7+) on another
  const objectives = [{ id: 'o1', pos: { x: 22, y: 15 } }, { id: 'o2', pos: { x: 10, y: 5 } }];
  const units: PlacedUnit[] = [
    { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 22, y: 13 }, spacing: 1.1 },
    { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 3 }, spacing: 0.4 },
  ];
  const markedOf = (g: Game) => g.state.effects.filter((e) => e.kind === WRAITH_MARKED_HOLD).map((e) => e.params.objective);

  it('at the start of its Command phase: a WRAITH CONSTRUCT unit on a marker the player controls tests at -2; 10 on 2D6 passes its 8+, and the marker is Secured', () => {
    const asked: string[] = [];
    const g = sandbox(units, { objectives, pick: pickKind('wraith-marked', 1), asked, stream: scriptedStream([6, 4]) });
    startPhase(g, 0, 'command');
    expect(asked).toContain('wraith-marked');
    expect(markedOf(g)).toEqual(['o1']);
    // the Wraithguard leave: the marker stays the player's
    g.emit({ type: 'models-placed', unit: 'WG', mode: 'test', positions: g.state.units.WG.models.map((m, i) => ({ model: m.id, pos: { x: 30, y: 3 + i * 1.1, z: 0 } })) });
    expect(currentControl(g.state)[0]).toBe(0);
  });

  it('an enemy\'s Shadow of Death (Irillyth within 6") subtracts 1 from the Leadership test: 10 - 2 - 1 fails the Wraithguard\'s 8+', () => {
    const g = sandbox([...units, { id: 'IR', player: 1, faction: 'aeldari', name: 'Irillyth', at: { x: 26, y: 13 } }], { objectives, pick: pickKind('wraith-marked', 1), stream: scriptedStream([6, 4]) });
    startPhase(g, 0, 'command');
    expect(markedOf(g)).toEqual([]);
  });

  it('9 fails for the Wraithguard (9 - 2 < 8); 7 passes for Guardian Defenders (7+, no -2)', () => {
    const g = sandbox(units, { objectives, pick: pickKind('wraith-marked', 1), stream: scriptedStream([5, 4]) });
    startPhase(g, 0, 'command');
    expect(markedOf(g)).toEqual([]);
    const gd = sandbox(units, { objectives, pick: pickKind('wraith-marked', 2), stream: scriptedStream([3, 4]) });
    startPhase(gd, 0, 'command');
    expect(markedOf(gd)).toEqual(['o2']);
  });

  it('not in the opponent\'s Command phase, nor without the detachment; a marker already Secured is not offered again', () => {
    const asked: string[] = [];
    startPhase(sandbox(units, { objectives, turn: 1, asked }), 1, 'command');
    startPhase(sandbox(units, { objectives, detachment: null, asked }), 0, 'command');
    expect(asked).not.toContain('wraith-marked');
    const offered: unknown[][] = [];
    const g = sandbox(units, { objectives, pick: (r) => { if (r.kind === 'wraith-marked') offered.push(r.options); return r.kind === 'wraith-marked' ? 1 : 0; }, stream: scriptedStream([6, 4, 1, 1]) });
    startPhase(g, 0, 'command');
    startPhase(g, 0, 'command');
    expect(offered[0]).toEqual([{ none: true }, { unit: 'WG', objective: 'o1' }, { unit: 'GD', objective: 'o2' }]);
    expect(offered[1]).toEqual([{ none: true }, { unit: 'GD', objective: 'o2' }]);
  });
});

describe('Wraith-Marked reads the control last determined', () => {
  it('Guardian Defenders Battle-shocked alone on a contested marker recover at the start of the Command phase: the marker is not offered (they did not control it), and no VP come of it when they fail the test again', () => {
    const offered: unknown[][] = [];
    const g = battleSandbox([
      { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 22, y: 12 }, spacing: 0.9 },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 38, y: 3 }, spacing: 1.3 },
    ], {
      mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'fight', turn: 1, round: 2, cp: [3, 3],
      detachments: ['Wraiths of the Void', null], factions: ['AE', 'TAU'], objectives: [{ id: 'o1', pos: { x: 22, y: 15 } }],
      agents: [scriptedAgent('ae', (r) => {
        if (r.kind !== 'wraith-marked') return 0;
        offered.push(r.options as unknown[]);
        return Math.max(0, (r.options as { objective?: string }[]).findIndex((o) => o.objective === 'o1'));
      }), scriptedAgent('tau')],
      // the Battle-shock test 1+1 (a Wraith-Marked test, were it offered, would take these first)
      stream: scriptedStream([1, 1, 1, 1]),
    });
    const gd = g.state.units.GD;
    for (const m of gd.models.slice(5)) destroyModel(g, gd, m, null, 'test');
    g.emit({ type: 'battle-shock', unit: 'GD', value: true });
    updateObjectiveControl(g);
    expect(g.state.objectives[0].controller).toBe(null);
    g.emit({ type: 'turn-started', round: 3, player: 0 });
    commandPhase(g, 0);
    expect(offered).toEqual([]);
    expect(g.state.effects.filter((e) => e.kind === WRAITH_MARKED_HOLD)).toEqual([]);
    expect([g.state.units.GD.battleShocked, g.state.objectives[0].controller, g.state.players[0].vp]).toEqual([true, null, 0]);
  });
});

describe('WRAITHSIGHT and GUARDIAN CONSTRUCTS (Wraiths of the Void)', () => {
  it('WRAITHSIGHT: as an AELDARI unit is selected to shoot, its ranged attacks ignore cover and the Hit roll and BS modifiers that hurt', () => {
    const g = sandbox([
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 10, y: 5 }, spacing: 1.1 },
      { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', counts: [1, 4], at: { x: 16, y: 5 }, spacing: 1 },
    ], { phase: 'shooting', pick: (r) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'WRAITHSIGHT')) : 0) });
    const before = planFor(g, 'WG', 'ST', 'Wraithcannon');
    expect([before.ignoresCover, before.ignoreHitModifiers, before.ignoreSkillModifiers]).toEqual([false, false, false]);
    expect(openWindow(g, { name: 'shooting/unit-selected', unit: 'WG', targets: [] })).toEqual(['WRAITHSIGHT']);
    const after = planFor(g, 'WG', 'ST', 'Wraithcannon', { cover: true });
    expect([after.ignoresCover, after.cover, after.ignoreHitModifiers, after.ignoreSkillModifiers]).toEqual([true, false, true, true]);
  });

  it('GUARDIAN CONSTRUCTS: in the Fight phase, -1 to wound a targeted WRAITH CONSTRUCT unit for attackers wholly across a hatchway; not from its own side', () => {
    const units: PlacedUnit[] = [
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 23, y: 12.5 }, spacing: 1.1 },
      { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 19, y: 13.5 }, spacing: 0.8, counts: [10, 0] },
      { id: 'K2', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 25, y: 9 }, spacing: 0.8, counts: [10, 0] },
    ];
    const g = sandbox(units, { phase: 'fight', turn: 1, walls: true, pick: (r) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'GUARDIAN CONSTRUCTS')) : 0) });
    g.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: 'KC' });
    const w = { name: 'fight/after-enemy-targets' as const, unit: 'KC', targets: ['WG'] };
    expect(usableStratagems(g, w, 0).filter((x) => x.s.name === 'GUARDIAN CONSTRUCTS').map((x) => x.unit.id)).toEqual(['WG']);
    expect(planFor(g, 'KC', 'WG', 'Close combat weapon').woundModifier).toBe(0);
    expect(openWindow(g, w)).toEqual(['GUARDIAN CONSTRUCTS']);
    expect(planFor(g, 'KC', 'WG', 'Close combat weapon').woundModifier).toBe(-1);
    expect(planFor(g, 'K2', 'WG', 'Close combat weapon').woundModifier).toBe(0);
  });

  it('GUARDIAN CONSTRUCTS judges each attacking model: of one group, the Kroot wholly across the doorway wound at -1, the Kroot on the Wraithguard\'s side do not', () => {
    const g = battleSandbox([
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 23.6, y: 12.0 }, spacing: 1.7 },
      { id: 'KC', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 19, y: 13.5 }, spacing: 0.8, counts: [10, 0] },
    ], { mode: 'boarding-actions', size: { width: 44, height: 30 }, phase: 'fight', turn: 1, round: 2, cp: [3, 3], factions: ['AE', 'TAU'],
      detachments: ['Wraiths of the Void', null], terrain: WALLS, hatchways: [HATCH], stream: scriptedStream(Array(12).fill(4)),
      agents: [scriptedAgent('ae'), scriptedAgent('tau')] });
    g.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: 'KC' });
    const kc = g.state.units.KC.models;
    // the first Kroot wholly west of the doorway's line (x = 21), the second in the doorway on the Wraithguard's side
    g.emit({ type: 'models-placed', unit: 'WG', mode: 'test', positions: [{ model: g.state.units.WG.models[0].id, pos: { x: 21.9, y: 13.85, z: 0 } }] });
    g.emit({ type: 'models-placed', unit: 'KC', mode: 'test', positions: [
      { model: kc[0].id, pos: { x: 20.4, y: 14.0, z: 0 } }, { model: kc[1].id, pos: { x: 21.6, y: 15.4, z: 0 } },
      ...kc.slice(2).map((m, i) => ({ model: m.id, pos: { x: 18.8 - 0.9 * (i % 4), y: 13.4 + 0.9 * Math.floor(i / 4), z: 0 } })),
    ] });
    g.addEffect('Guardian Constructs', 0, 'WG', g.untilEndOfPhase());
    // Strength 6 against Toughness 6 wounds on 4+, so every die a 4: the -1 turns the across Kroot's wounds into fails
    const w = weapon({ name: 'Test blade', range: 'Melee', attacks: '2', skill: 3, strength: 6 });
    const models = [g.state.units.KC.models[0], g.state.units.KC.models[1]];
    const tally = resolveAttacks(g, g.state.units.KC, [{ weapon: w, profile: w.profiles[0], models, target: 'WG', halfRange: false, targetVisible: true, targetInCover: false, targetModels: 5 }], true);
    expect([tally.attacks, tally.hits, tally.wounds]).toEqual([4, 4, 2]);
    // the wound rolls: the across Kroot's two first (its part), then the other's
    const wounds = g.log!.filter((e) => e.type === 'dice' && e.purpose.startsWith('wound'));
    expect(wounds.map((e) => (e as { values: number[] }).values.length)).toEqual([2, 2]);
  });

  it('D-STRIKE: at the start of its Shooting phase a WRAITH CONSTRUCT unit blasts open a closed hatchway it sees and reaches; it stays open, the enemy units within 3" beyond it are stunned, and the unit does not shoot', () => {
    const asked: string[] = [];
    const units: PlacedUnit[] = [
      { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 15, y: 12.5 }, spacing: 1.1 },
      { id: 'K1', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 24, y: 12 }, spacing: 0.8, counts: [10, 0] },
      { id: 'K2', player: 1, faction: 'tau', name: 'Kroot Carnivores', at: { x: 36, y: 3 }, spacing: 0.8, counts: [10, 0] },
    ];
    const g = sandbox(units, { phase: 'shooting', walls: true, asked, pick: (r) => (r.kind === 'stratagem' ? Math.max(0, r.options.findIndex((o) => (o as { stratagem?: string }).stratagem === 'D-STRIKE')) : 0) });
    const start = { name: 'phase/start' as const, unit: null, targets: [], data: { phase: 'shooting' } };
    expect(dStrikeHatchways(g.state, g.state.units.WG)).toEqual(['h1']);
    expect(canShoot(g, g.state.units.WG)).toBe(false);
    expect(openWindow(g, start)).toEqual(['D-STRIKE']);
    expect(asked).toContain('d-strike');
    expect(g.state.openHatchways).toEqual(['h1']);
    expect(planFor(g, 'K1', 'WG', 'Kroot rifle').hitModifier).toBe(-1);
    expect(planFor(g, 'K2', 'WG', 'Kroot rifle').hitModifier).toBe(0);
    // the hatchway open now, the Wraithguard would see the Kroot, but may not shoot this phase
    expect(forbids(g.state, g.state.units.WG, 'shoot')).toBe(true);
    // it cannot be closed again
    g.emit({ type: 'models-placed', unit: 'WG', mode: 'test', positions: g.state.units.WG.models.map((m, i) => ({ model: m.id, pos: { x: 18.5, y: 12 + i * 1.1, z: 0 } })) });
    expect(hatchwayOptions(g.state, g.state.units.WG)).toEqual([]);
  });

  it('D-STRIKE: not for a hatchway out of sight (along the wall, within range), out of range (every base 18.2" from its near face, the Wraithcannon 18"), or already open', () => {
    const at = (x: number, y: number) => sandbox([{ id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x, y }, spacing: 1.1 }], { phase: 'shooting', walls: true });
    const seen = (g: Game) => dStrikeHatchways(g.state, g.state.units.WG);
    expect(seen(at(15, 12.5))).toEqual(['h1']);
    expect(seen(at(19, 2))).toEqual([]);
    // range is measured to the hatchway's closest point: the models in a column at x 1 (40mm bases: 0.79"), 19"
    // from its face at x 20, are out of range; a column at x 1.5 (18.7" less the base) is within it
    const column = (x: number) => {
      const g = at(2, 14);
      g.emit({ type: 'models-placed', unit: 'WG', mode: 'test', positions: g.state.units.WG.models.map((m, i) => ({ model: m.id, pos: { x, y: 10.5 + 1.7 * i, z: 0 } })) });
      return g;
    };
    expect(seen(column(1))).toEqual([]);
    expect(seen(column(1.5))).toEqual(['h1']);
    const open = at(15, 12.5);
    open.emit({ type: 'hatchway', hatchway: 'h1', open: true, unit: null });
    expect(seen(open)).toEqual([]);
  });

  it('UNFLINCHING FIRE is registered as not played (Overwatch), with no window', () => {
    const mine = allStratagems().filter((s) => s.source === 'Wraiths of the Void');
    expect(mine.map((s) => s.name).sort()).toEqual(['D-STRIKE', 'GUARDIAN CONSTRUCTS', 'UNFLINCHING FIRE', 'WRAITHSIGHT']);
    const s = mine.find((x) => x.name === 'UNFLINCHING FIRE')!;
    expect(s.windows).toEqual([]);
    expect(s.missing).toMatch(/Overwatch/);
  });
});

describe('Wraiths of the Void Enhancements', () => {
  const seer = (enhancement: string | null, at = { x: 10, y: 12 }): PlacedUnit => ({ id: 'SS', player: 0, faction: 'aeldari', name: 'Spiritseer', at, ...(enhancement ? { enhancement } : {}) });
  const WG: PlacedUnit = { id: 'WG', player: 0, faction: 'aeldari', name: 'Wraithguard', at: { x: 13, y: 10 }, spacing: 1.1 };

  it('Direct Guidance: at the end of its Movement phase a WRAITH CONSTRUCT unit within 6" of the bearer may shoot and charge although it Fell Back', () => {
    const asked: string[] = [];
    const g = sandbox([seer('Direct Guidance'), WG], { phase: 'movement', asked });
    g.emit({ type: 'unit-moved', unit: 'WG', mode: 'fall-back' });
    // (Wraithguard may shoot after Falling Back anyway: War Construct)
    expect(allows(g.state, g.state.units.WG, 'charge-after-fall-back')).toBe(false);
    endPhase(g, 0, 'movement');
    expect(asked).toContain('direct-guidance');
    expect(allows(g.state, g.state.units.WG, 'charge-after-fall-back')).toBe(true);
    expect(g.state.effects.some((e) => e.kind === 'Direct Guidance (guided)' && e.unit === 'WG')).toBe(true);
    // the bearer more than 6" away: not asked
    const far = sandbox([seer('Direct Guidance', { x: 30, y: 25 }), WG], { phase: 'movement', asked: (asked.length = 0, asked) });
    endPhase(far, 0, 'movement');
    expect(asked).not.toContain('direct-guidance');
  });

  it('Song of Renewal: at the start of its Command phase, a destroyed model returns to a WRAITH CONSTRUCT unit near the bearer with its full wounds, twice a battle', () => {
    // the Spiritseer's own Tears of Isha returns one too, once a turn (the phases below are of one turn)
    const run = (enhancement: string | null) => {
      const asked: string[] = [];
      const g = sandbox([seer(enhancement), WG], { pick: pickKind('song-of-renewal', 1), asked });
      for (let i = 0; i < 4; i++) destroyModel(g, g.state.units.WG, g.state.units.WG.models.filter((m) => m.alive)[0], null, 'test');
      const alive: number[] = [];
      for (let i = 0; i < 3; i++) {
        startPhase(g, 0, 'command');
        alive.push(g.state.units.WG.models.filter((m) => m.alive).length);
      }
      return { g, alive, asked: asked.filter((k) => k === 'song-of-renewal').length };
    };
    const song = run('Song of Renewal');
    expect(song.alive).toEqual([3, 4, 4]);
    expect(song.asked).toBe(2);
    expect(song.g.state.units.WG.models.filter((m) => m.alive).every((m) => m.wounds === 3)).toBe(true);
    const none = run(null);
    expect(none.alive).toEqual([2, 2, 2]);
    expect(none.asked).toBe(0);
  });
});
