/**
 * Invariants of complete games between random agents: whatever the agents choose, the engine keeps
 * the rules. Random agents are the engine's fuzzer: they take every legal path.
 */
import { describe, expect, it } from 'vitest';
import { miniScenario } from '../helpers/mini-scenario.ts';
import { playGame } from '../../src/sim/play.ts';
import { loadAgents } from '../../src/core/agent-loader.ts';
import { apply, foldEvents } from '../../src/core/reducer.ts';
import { emptyGameState, type GameState, type ModelState, type UnitState } from '../../src/core/state.ts';
import type { GameEvent } from '../../src/core/events.ts';
import { bundledScenarios, loadScenario } from '../../src/data/scenario.ts';
import { ruleChecker } from '../helpers/rule-checks.ts';
import { characteristic } from '../../src/rules/battle/units.ts';
import { isLoneOperative } from '../../src/core/rules-registry.ts';
import { modelBody } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { randomArmiesScenario, sweptDetachments, type Mode } from '../helpers/random-armies.ts';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { shootingBody } from '../../src/rules/battle/shooting.ts';
import { allocationTarget } from '../../src/rules/allocation.ts';

const GAMES = Number(process.env.INVARIANT_GAMES ?? 500);

interface Violation { seed: string; event: number; what: string }

/** Play a game, checking the invariants after every event. */
async function play(sc: ReturnType<typeof miniScenario>, seed: string, log: boolean, agent = 'random'): Promise<{ violations: Violation[]; final: GameState; events: GameEvent[]; checked: Map<string, number> }> {
  const violations: Violation[] = [];
  const agents = await loadAgents([agent, agent], seed);
  const rules = ruleChecker();
  let n = 0;
  const events: GameEvent[] = [];
  const bad = (what: string) => violations.push({ seed, event: n, what });
  const onEvent = (e: GameEvent, s: GameState) => {
    n++;
    rules.onEvent(e, s);
    if (log) events.push(e);
    if ((e.type === 'unit-moved' || e.type === 'unit-flag') && !s.units[e.unit].models.some((m) => m.alive)) {
      bad(`destroyed unit ${e.unit} acted (${e.type})`);
    }
    if (e.type === 'model-damaged') {
      const m = s.units[e.unit].models.find((x) => x.id === e.model)!;
      const max = s.datasheets[m.datasheet].models[m.profile].wounds;
      if (m.wounds < 0 || m.wounds > max) bad(`model ${m.id} has ${m.wounds} wounds (max ${max})`);
    }
    // a part destroyed in an attack splits the unit as the attack sequence ends, outside one as the next window closes
    if (e.type === 'phase-ended') {
      for (const id of s.unitOrder) {
        const u = s.units[id];
        if (u.location === 'battlefield' && u.components.length > 1 && u.components.some((c) => c.destroyed)) bad(`Attached unit ${u.id} still holds a destroyed part at the end of the ${e.phase} phase`);
      }
    }
    if (e.type === 'vp') {
      const p = s.players[e.player];
      if (p.vp > 50) bad(`player ${e.player + 1} has ${p.vp} VP, above the mission's 50`);
      if ((p.vpByRound[e.round - 1] ?? 0) > 15 * 2) bad(`player ${e.player + 1} scored more than two turns' cap in round ${e.round}`);
    }
  };
  const { game } = playGame(sc, { seed, agents, onEvent });
  for (const what of rules.violations) violations.push({ seed, event: Number(/^event (\d+)/.exec(what)![1]), what });
  return { violations, final: game.state, events, checked: rules.checked };
}

/**
 * A game of the datasheet sweep (bench/datasheet-sweep.ts: random armies, test/helpers/random-armies.ts) with
 * the rule checks; `watch` sees each event after them (to confirm the game still has the case a test is about).
 */
async function sweepGame(seed: string, detachment: string, side: 0 | 1, agent: string, watch: (e: GameEvent, s: GameState) => void, mode: Mode = 'strike-force', enhancements = false): Promise<string[]> {
  const rules = ruleChecker();
  const agents = await loadAgents([agent, agent], seed);
  playGame(randomArmiesScenario(seed, detachment, side, mode, 4, enhancements), { seed, agents, onEvent: (e, st) => { rules.onEvent(e, st); watch(e, st); } });
  return rules.violations;
}

/** For a unit just placed: each model and how far it is from where it was last placed (models placed before). */
function displacements(): (u: UnitState) => [ModelState, number][] {
  const last = new Map<string, { x: number; y: number }>();
  return (u) => {
    const out: [ModelState, number][] = [];
    for (const m of u.models) {
      if (!m.pos) continue;
      const from = last.get(m.id);
      if (from) out.push([m, Math.hypot(m.pos.x - from.x, m.pos.y - from.y)]);
      last.set(m.id, { x: m.pos.x, y: m.pos.y });
    }
    return out;
  };
}

describe('invariants over many random games', () => {
  it(`${GAMES} games on a small scenario: no rule broken`, async () => {
    const sc = miniScenario();
    const all: Violation[] = [];
    let results = 0;
    for (let i = 0; i < GAMES; i++) {
      const { violations, final } = await play(sc, `inv-${i}`, false);
      all.push(...violations);
      if (final.result) results++;
    }
    expect(all.slice(0, 5)).toEqual([]);
    expect(results).toBe(GAMES);
  }, 600_000);

  it('40 games of a Strike Force scenario with Leaders and transports: no rule broken', async () => {
    // the small scenario has no Attached units, transports or Fall Backs through enemy models to speak of
    const sc = loadScenario('scenarios/mirror/armoured-warhost-vs-none-crucible.json');
    const all: Violation[] = [];
    for (let i = 0; i < 40; i++) all.push(...(await play(sc, `inv-led-${i}`, false)).violations);
    expect(all.slice(0, 5)).toEqual([]);
  }, 600_000);

  it('a Fall Back whose models left after Desperate Escape have no legal end is not made: the unit Remains Stationary', async () => {
    // a seeded game that meets it (found by scanning random games): a unit Falls Back through enemy models,
    // loses models to Desperate Escape, and the planner finds no legal end for the rest
    const { violations, events } = await play(loadScenario('scenarios/mirror/auxiliary-cadre-vs-none.json'), 'sweep-175', true);
    expect(violations).toEqual([]);
    let escaped = -1;
    events.forEach((e, i) => { if (e.type === 'model-destroyed' && e.unit === 'p1-u20' && e.reason === 'Desperate Escape') escaped = i; });
    // if the game changes and no longer meets the case, find another seed (random games, the event pair below)
    expect(escaped, 'the seeded game no longer has this Desperate Escape').toBeGreaterThan(0);
    expect(events[escaped + 1]).toEqual({ type: 'unit-moved', unit: 'p1-u20', mode: 'stationary' });
  }, 60_000);

  it('every bundled scenario, random and heuristic agents: moves, set-ups, shooting, charges, fights and stratagems within the rules', async () => {
    // placements on the board, apart, coherent and within their distances; charges reaching only their
    // targets; pile-ins and consolidations closer to the enemy (or onto a marker); shooting, charge and fight
    // eligibility; each unit selected once a phase; Unit Coherency at each turn's start; a Stratagem once a
    // phase and never on a Battle-shocked unit; objective control and Take and Hold's VP counted afresh;
    // the Battle-shock step's tests; Desperate Escape; attacks allocated to the model already hit
    // and to Bodyguard models first
    // (test/helpers/rule-checks.ts)
    const files = bundledScenarios({ nested: true });
    expect(files.length).toBeGreaterThanOrEqual(14);
    const all: Violation[] = [];
    const checked = new Map<string, number>();
    for (const file of files) {
      const sc = loadScenario(file);
      for (const [agent, seeds] of [['random', 2], ['heuristic', 1]] as const) {
        for (let i = 0; i < seeds; i++) {
          const r = await play(sc, `checks-${agent}-${i}`, false, agent);
          all.push(...r.violations.map((v) => ({ ...v, what: `${file.split('/').slice(-2).join('/')} ${agent}: ${v.what}` })));
          for (const [k, v] of r.checked) checked.set(k, (checked.get(k) ?? 0) + v);
        }
      }
    }
    expect(all.slice(0, 5)).toEqual([]);
    // the checks looked at every kind of move and decision they know
    for (const kind of ['deploy', 'scout', 'infiltrate', 'normal', 'advance', 'fall-back', 'charge', 'pile-in', 'consolidate', 'deep-strike', 'strategic-reserves', 'disembark', 'shooting attack', 'charge declared', 'fight target', 'objective control', 'vp scored', 'battle-shock test', 'desperate escape', 'fell back', 'allocation']) {
      expect(checked.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  }, 600_000);

  it('armies no scenario has (four datasheets a side drawn from both factions\' data) under every detachment: within the rules', async () => {
    // the sample of bench/datasheet-sweep.ts the suite plays: two random games and one heuristic game a
    // detachment (seeds ds-<detachment>-0 onwards, as the bench's), armies drawn from the seed alone
    const detachments = sweptDetachments();
    expect(detachments.filter((d) => d.mode === 'strike-force').length).toBeGreaterThanOrEqual(19);
    expect(detachments.filter((d) => d.mode === 'boarding-actions').length).toBeGreaterThanOrEqual(6);
    const all: Violation[] = [];
    const checked = new Map<string, number>();
    for (const { detachment, side, mode } of detachments) {
      for (const [agent, seeds] of [['random', 2], ['heuristic', 1]] as const) {
        for (let i = 0; i < seeds; i++) {
          const r = await play(randomArmiesScenario(`ds-${detachment}-${i}`, detachment, side, mode), `ds-${detachment}-${i}`, false, agent);
          all.push(...r.violations.map((v) => ({ ...v, what: `${detachment} ${agent}: ${v.what}` })));
          for (const [k, v] of r.checked) checked.set(k, (checked.get(k) ?? 0) + v);
        }
      }
    }
    expect(all.slice(0, 5)).toEqual([]);
    for (const kind of ['deploy', 'normal', 'advance', 'charge', 'shooting attack', 'fight target', 'battle-shock test', 'allocation']) {
      expect(checked.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  }, 600_000);

  it('random armies with the data\'s wargear options taken at random (datasheet-sweep --wargear): within the rules, and the options are taken', async () => {
    const all: Violation[] = [];
    let changed = 0;
    let units = 0;
    for (const { detachment, side, mode } of sweptDetachments().filter((d) => d.mode === 'strike-force').slice(0, 6)) {
      const seed = `dsw-${detachment}-0`;
      const sc = randomArmiesScenario(seed, detachment, side, mode, 4, false, true);
      const plain = randomArmiesScenario(seed, detachment, side, mode, 4, false, false);
      sc.players.forEach((p, i) => p.army.units.forEach((u, j) => {
        units++;
        if (JSON.stringify(u.models) !== JSON.stringify(plain.players[i].army.units[j].models)) changed++;
      }));
      const r = await play(sc, seed, false);
      all.push(...r.violations.map((v) => ({ ...v, what: `${detachment}: ${v.what}` })));
    }
    expect(all.slice(0, 5)).toEqual([]);
    // the same armies as without the options (drawn first from the seed), a share of them with other loadouts
    expect(changed).toBeGreaterThan(units / 10);
    expect(changed).toBeLessThan(units);
  }, 600_000);

  it('a Normal move of up to a fixed 6" goes its 6" whatever the Move (Tactical Acumen, INTERLOCKING MANOUEVRES), and the checks know it', async () => {
    // a game of the datasheet sweep where a unit whose Move is below 6" makes such a move: Dire Avengers led by
    // Asurmen under Photon Casters' -2" (Tactical Acumen). The Auxiliary Cadre's game with a Tidewall Gunrig's
    // (M 4") INTERLOCKING MANOUEVRES (ds-Auxiliary Cadre-6, heuristic) lost its move when the ruins' visibility
    // changed (sixtieth session), and no other was found in some hundreds of heuristic and random games of it;
    // the rule's 6" is tested in test/factions/auxiliary-cadre.test.ts, and the checks read both from FIXED_MOVES
    for (const [detachment, side, seed, agent, request] of [
      ['Armoured Warhost', 1, 'ds-Armoured Warhost-5638', 'random', 'tactical-acumen'],
    ] as const) {
      let chosen = false;
      // how far beyond its Move a model went in such a move, the farthest
      let beyond = -Infinity;
      const moved = displacements();
      const violations = await sweepGame(seed, detachment, side, agent, (e, st) => {
        // (other decisions may come between the choice and the placement: FIRE OVERWATCH offered as the move starts)
        if (e.type === 'decision' && e.request === request) chosen = (e.choice as { mode?: string }).mode === 'normal';
        if (e.type !== 'models-placed') return;
        const u = st.units[e.unit];
        for (const [m, d] of moved(u)) if (chosen) beyond = Math.max(beyond, d - characteristic(st, u, m, 'M'));
        chosen = false;
      });
      // a model went farther than its Move, up to the rule's 6" (if the game changes and no longer has such a
      // move, find another seed with bench/datasheet-sweep.ts)
      expect(beyond, `${seed}: no model's ${request} move went beyond its Move`).toBeGreaterThan(0.01);
      expect(beyond).toBeLessThanOrEqual(2 + 1e-9);
      expect(violations).toEqual([]);
    }
  }, 120_000);

  it('a Leader\'s weapon that shares its Bodyguard\'s weapon\'s name reaches as its own profile says, and the checks know it', async () => {
    // a game of the sweep with wargear (bench/datasheet-sweep.ts --wargear --units 8) where a Commander in Crisis
    // Battlesuit leads Crisis Fireknife Battlesuits: its Plasma rifle (24") fires at a unit beyond the Fireknives'
    // Plasma rifles (18"), which the checks read as out of range while they took the first datasheet's profile
    const seed = 'dsw8-Kroot Hunting Pack-15';
    const rules = ruleChecker();
    let beyondBodyguards = 0;
    let shooter: string | null = null;
    playGame(randomArmiesScenario(seed, 'Kroot Hunting Pack', 0, 'strike-force', 8, false, true), {
      seed, agents: await loadAgents(['random', 'random'], seed),
      onEvent: (e, st) => {
        rules.onEvent(e, st);
        if (e.type !== 'decision') return;
        if (e.request === 'select-unit-to-shoot') shooter = (e.choice as { unit?: string }).unit ?? null;
        const c = e.choice as { weapon?: string; target?: string };
        if (e.request !== 'shoot-target' || c.weapon !== 'Plasma rifle' || !shooter || !c.target) return;
        const u = st.units[shooter];
        const names = new Set(u.models.map((m) => st.datasheets[m.datasheet].name));
        if (!names.has('Commander In Crisis Battlesuit') || !names.has('Crisis Fireknife Battlesuits')) return;
        const t = st.units[c.target];
        const gap = (m: ModelState) => Math.min(...t.models.filter((x) => x.alive && x.pos).map((x) => horizontalDistance(modelBody(st, m), modelBody(st, x))));
        if (u.models.every((m) => !m.alive || !m.pos || st.datasheets[m.datasheet].name !== 'Crisis Fireknife Battlesuits' || gap(m) > 18)) beyondBodyguards++;
      },
    });
    // (if the game changes and no longer has such a shot, find another seed with the sweep)
    expect(beyondBodyguards, `${seed}: no Plasma rifle shot beyond the Fireknives' 18"`).toBeGreaterThan(0);
    expect(rules.violations).toEqual([]);
  }, 120_000);

  it('Scouts an Enhancement gives (Strike Swiftly, Firstdrawn Blade, Key of Ghosts) move a unit without Scouts of its own, and the checks know it', async () => {
    // games of the datasheet sweep with Enhancements (bench/datasheet-sweep.ts --enhancements) where such a unit scouts
    for (const [detachment, side, seed, bearer] of [
      ["Mont'ka", 0, "dse-Mont'ka-93", 'Strike Swiftly'],
      ['Windrider Host', 1, 'dse-Windrider Host-132', 'Firstdrawn Blade'],
      ["Serpent's Brood", 1, "dse-Serpent's Brood-146", 'Key of Ghosts'],
    ] as const) {
      let farthest = 0;
      const moved = displacements();
      const violations = await sweepGame(seed, detachment, side, 'random', (e, st) => {
        if (e.type !== 'models-placed') return;
        const u = st.units[e.unit];
        const steps = moved(u);
        const own = u.models.every((m) => st.datasheets[m.datasheet].coreAbilities.some((a) => a.name === 'Scouts'));
        if (e.mode === 'scout' && !own) for (const [, d] of steps) farthest = Math.max(farthest, d);
      }, 'strike-force', true);
      // (if the game changes and no longer has such a move, find another among the seeds of bench/datasheet-sweep.ts --enhancements)
      expect(farthest, `${seed}: no unit without Scouts of its own made a Scout move (${bearer})`).toBeGreaterThan(0.01);
      expect(violations, seed).toEqual([]);
    }
  }, 120_000);

  it("a unit's own Hazardous mortal wounds can leave two models that must take attacks: either may take the next", () => {
    // Crisis Battlesuits (three W4 models): an enemy attack was allocated to one (saved), then the unit's own
    // Hazardous test put 3 mortal wounds on another; the next attack may go to either of the two (the engine
    // picks one of them), never to the third. (Built event by event: the sweep's games that had it, a Remora
    // Stealth Drone in ds-Serpent's Brood-529, no longer do.)
    for (const to of ['engine', 'allocated', 'wounded', 'fresh'] as const) {
      const g = battleSandbox([
        { id: 'CB', player: 0, faction: 'tau', name: 'Crisis Battlesuits', at: { x: 10, y: 10 } },
        { id: 'GD', player: 1, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 30, y: 10 } },
      ], { phase: 'shooting', turn: 1 });
      const rules = ruleChecker();
      const feed = () => rules.onEvent(g.log!.at(-1)!, g.state);
      const [fresh, wounded, allocated] = g.state.units.CB.models;
      g.emit({ type: 'attack-allocated', unit: 'CB', model: allocated.id }); feed();
      g.dice.roll(1, 6, 'hazardous', 0, 'CB'); feed();
      g.emit({ type: 'model-damaged', unit: 'CB', model: wounded.id, wounds: 3, by: null, mortal: true }); feed();
      g.dice.roll(1, 6, 'hit', 1, 'GD', 'Shuriken catapult -> Crisis Battlesuits'); feed();
      const pick = allocationTarget(g.state, g.state.units.CB, false)!;
      expect([allocated.id, wounded.id]).toContain(pick.id);
      const model = to === 'engine' ? pick.id : to === 'allocated' ? allocated.id : to === 'wounded' ? wounded.id : fresh.id;
      g.emit({ type: 'model-damaged', unit: 'CB', model, wounds: 1, by: 'GD', mortal: false }); feed();
      if (to === 'fresh') expect(rules.violations, to).toEqual([expect.stringMatching(/damage to .* of Crisis Battlesuits while .* had lost wounds or taken an allocated attack/)]);
      else expect(rules.violations, to).toEqual([]);
    }
  });

  it('LINKED FIRE measures range and Lone Operative\'s 12" from the other Fire Prism, and the checks know it', () => {
    // Built in a sandbox (the datasheet sweep's game that had it, ds-Ghosts of the Webway-525, lost it once
    // split fire came): Fire Prism P, 29.7" from a Kroot Lone-Spear (a Lone Operative), aims its prism cannon
    // through Fire Prism Q, which stands 11.7" from it. Every die is a 1, so the target stays whole.
    const g = battleSandbox([
      { id: 'LS', player: 0, faction: 'tau', name: 'Kroot Lone-Spear', at: { x: 30, y: 36 } },
      { id: 'P', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 50, y: 14 } },
      { id: 'Q', player: 1, faction: 'aeldari', name: 'Fire Prism', at: { x: 40, y: 30 } },
    ], {
      phase: 'shooting', turn: 1, stream: scriptedStream(new Array(20).fill(1)),
      agents: [scriptedAgent('p1'), scriptedAgent('p2', (r) => {
        // P shoots (through Q), then the phase ends
        if (r.kind === 'select-unit-to-shoot') return Math.max(0, (r.options as { unit?: string }[]).findIndex((o) => o.unit === 'P'));
        return r.kind === 'shoot-target' ? Math.max(0, (r.options as { linked?: number }[]).findIndex((o) => (o.linked ?? 0) > 0)) : 0;
      })],
    });
    const lone = g.state.units.LS;
    expect(isLoneOperative(g.state, lone)).toBe(true);
    const p = modelBody(g.state, g.state.units.P.models[0]);
    const q = modelBody(g.state, g.state.units.Q.models[0]);
    const ls = modelBody(g.state, lone.models[0]);
    expect(horizontalDistance(p, ls)).toBeGreaterThan(12);
    expect(horizontalDistance(q, ls)).toBeLessThanOrEqual(12);
    shootingBody(g, 1);
    const shot = g.log!.filter((e): e is Extract<GameEvent, { type: 'decision' }> => e.type === 'decision' && e.request === 'shoot-target');
    expect(shot.map((e) => e.choice)).toEqual([expect.objectContaining({ weapon: 'Prism cannon', target: 'LS', linked: 1 })]);
    // the checks, fed the log event by event, find nothing; told the shot was not linked, they find the 12"
    const check = (events: GameEvent[]) => {
      const rules = ruleChecker();
      const s = emptyGameState();
      for (const e of events) { apply(s, e); rules.onEvent(e, s); }
      return rules.violations;
    };
    expect(check(g.log!)).toEqual([]);
    const unlinked = g.log!.map((e) => (e.type === 'decision' && e.request === 'shoot-target' ? { ...e, choice: { ...(e.choice as object), linked: 0 } } : e));
    expect(check(unlinked)).toEqual([expect.stringMatching(/shot Lone Operative Kroot Lone-Spear from beyond 12"/)]);
  });

  it('the log folded by the reducer equals the engine\'s final state; the same seed gives the same log', async () => {
    const sc = loadScenario('scenarios/kauyon-vs-battle-host.json');
    for (const seed of ['fold-1', 'fold-2']) {
      const a = await play(sc, seed, true);
      expect(a.violations).toEqual([]);
      expect(foldEvents(a.events, emptyGameState())).toEqual(a.final);
      const b = await play(sc, seed, true);
      expect(b.events.map((e) => JSON.stringify(e)).join('\n')).toBe(a.events.map((e) => JSON.stringify(e)).join('\n'));
    }
  }, 600_000);
});
