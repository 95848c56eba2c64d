/**
 * Battle Focus, the Asuryani army rule (src/factions/aeldari/battle-focus.ts): tokens by battle size, lost at
 * the end of the battle round; the eligibility of units and manoeuvres; each Agile Manoeuvre played at its
 * moment; Fleet of Foot's free Fade Back; the tokens Indomitable Strength of Will and Pirate Prince give back.
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent, setGap, type BattleSandboxOptions, type PlacedUnit } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { Game } from '../../src/core/game.ts';
import type { MissionState, PlayerIndex } from '../../src/core/state.ts';
import { pileInMove, weaponHas } from '../../src/core/rules-registry.ts';
import { endPhase, startPhase } from '../../src/rules/battle/phase.ts';
import { afterMove, executeMove, moveUnit } from '../../src/rules/battle/movement.ts';
import { declareCharge } from '../../src/rules/battle/charge.ts';
import { fight } from '../../src/rules/battle/fight.ts';
import { canShoot, shootWithUnit } from '../../src/rules/battle/shooting.ts';
import { unitDistance } from '../../src/rules/battle/world.ts';
import {
  battleFocusTokens, manoeuvreOptions, offerManoeuvres, setBattleFocusTokens, type BattleFocusOption,
  FADE_BACK, FLITTING_SHADOWS, OPPORTUNITY_SEIZED, STAR_ENGINES, SUDDEN_STRIKE, SWIFT_AS_THE_WIND,
} from '../../src/factions/aeldari/battle-focus.ts';

type Pick = (r: DecisionRequest) => number;

/** The option of a 'battle-focus' request for this manoeuvre (and unit, when given); 0 (none) when not offered. */
function choose(manoeuvre: string, unit?: string): Pick {
  return (r) => {
    if (r.kind === 'battle-focus') {
      const i = (r.options as BattleFocusOption[]).findIndex((o) => 'manoeuvre' in o && o.manoeuvre === manoeuvre && (unit === undefined || o.unit === unit));
      return Math.max(0, i);
    }
    // a move's destination: the last one offered (the own deployment zone, away from the enemy)
    if (r.kind === 'battle-focus-move') return r.options.length - 1;
    return 0;
  };
}

/** The Aeldari are player 0 and answer with `pick`, recording every request; the T'au (player 1) always take the first option. */
function sandbox(units: PlacedUnit[], asked: DecisionRequest[], pick: Pick, opts: BattleSandboxOptions = {}): Game {
  const ae = scriptedAgent('ae', (r) => { asked.push(r); return pick(r); });
  const tau = scriptedAgent('tau', (r) => { asked.push({ ...r, prompt: `tau: ${r.prompt}` }); return 0; });
  return battleSandbox(units, { factions: ['AE', 'TAU'], agents: [ae, tau], round: 1, ...opts });
}

const offered = (asked: DecisionRequest[]) => asked.filter((r) => r.kind === 'battle-focus');
const names = (opts: BattleFocusOption[]) => opts.map((o) => ('none' in o ? 'none' : `${o.manoeuvre}:${o.unit}${o.free ? ' (free)' : ''}`));
const hasEffect = (g: Game, kind: string, unit: string) => g.state.effects.some((e) => e.kind === kind && e.unit === unit);

const GD: PlacedUnit = { id: 'GD', player: 0, faction: 'aeldari', name: 'Guardian Defenders', at: { x: 10, y: 10 } };
const DA: PlacedUnit = { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 30 } };
const ST: PlacedUnit = { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 40, y: 10 } };

describe('Battle Focus tokens', () => {
  const sizes: [MissionState['mode'], number][] = [['incursion', 2], ['strike-force', 4], ['onslaught', 6], ['boarding-actions', 2]];
  for (const [mode, tokens] of sizes) {
    it(`${mode}: ${tokens} tokens at the start of the battle round, the T'au none`, () => {
      const g = sandbox([GD, ST], [], () => 0, { mode, phase: 'command', turn: 0 });
      expect(battleFocusTokens(g.state, 0)).toBe(0);
      startPhase(g, g.state.firstPlayer, 'command');
      expect(battleFocusTokens(g.state, 0)).toBe(tokens);
      expect(battleFocusTokens(g.state, 1)).toBe(0);
      // an event the log shows
      expect(g.log!.some((e) => e.type === 'rule-state' && e.key === 'battleFocusTokens' && e.player === 0)).toBe(true);
    });
  }

  it('not given again at the start of the second player\'s turn; lost at the end of the battle round', () => {
    const g = sandbox([GD, ST], [], () => 0, { phase: 'command' });
    const first = g.state.firstPlayer;
    const second = (1 - first) as PlayerIndex;
    startPhase(g, first, 'command');
    setBattleFocusTokens(g, 0, 1);
    startPhase(g, second, 'command');
    expect(battleFocusTokens(g.state, 0)).toBe(1);
    endPhase(g, first, 'fight');
    expect(battleFocusTokens(g.state, 0)).toBe(1);
    endPhase(g, second, 'fight');
    expect(battleFocusTokens(g.state, 0)).toBe(0);
  });

  it('no token, no decision (and no Battle Focus for the T\'au)', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([GD, ST], asked, choose(SWIFT_AS_THE_WIND), { phase: 'movement', turn: 0 });
    executeMove(g, g.state.units.GD, { mode: 'normal', to: { x: 40, y: 10 }, toward: 'enemy ST' });
    expect(offered(asked)).toHaveLength(0);
    expect(manoeuvreOptions(g, 1, { kind: 'selected-to-fight', unit: 'ST' })).toEqual([{ none: true }]);
  });
});

describe('Swift as the Wind', () => {
  function moved(swift: boolean): { g: Game; inches: number; asked: DecisionRequest[] } {
    const asked: DecisionRequest[] = [];
    const g = sandbox([GD, ST], asked, swift ? choose(SWIFT_AS_THE_WIND) : () => 0, { phase: 'movement', turn: 0 });
    setBattleFocusTokens(g, 0, 4);
    const from = { ...g.state.units.GD.models[0].pos! };
    executeMove(g, g.state.units.GD, { mode: 'normal', to: { x: 30, y: 10 }, toward: 'objective' });
    const to = g.state.units.GD.models[0].pos!;
    return { g, inches: Math.hypot(to.x - from.x, to.y - from.y), asked };
  }

  it('selected to make a Normal move: +2" Move until the end of the phase, one token spent', () => {
    const { g, inches, asked } = moved(true);
    expect(inches).toBeGreaterThan(8.5);
    expect(inches).toBeLessThanOrEqual(9 + 1e-6);
    expect(battleFocusTokens(g.state, 0)).toBe(3);
    expect(names(offered(asked)[0].options as BattleFocusOption[])).toEqual(['none', `${SWIFT_AS_THE_WIND}:GD`, `${FLITTING_SHADOWS}:GD`]);
    expect(hasEffect(g, SWIFT_AS_THE_WIND, 'GD')).toBe(true);
    endPhase(g, 0, 'movement');
    expect(hasEffect(g, SWIFT_AS_THE_WIND, 'GD')).toBe(false);
  });

  it('without it the unit moves its 7"', () => {
    const { g, inches } = moved(false);
    expect(inches).toBeGreaterThan(6.5);
    expect(inches).toBeLessThanOrEqual(7 + 1e-6);
    expect(battleFocusTokens(g.state, 0)).toBe(4);
  });
});

describe('eligibility', () => {
  it('one manoeuvre per unit per phase; each manoeuvre once per phase but Swift as the Wind, once per unit', () => {
    const WS: PlacedUnit = { id: 'WS', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 20, y: 30 } };
    const asked: DecisionRequest[] = [];
    const g = sandbox([GD, DA, WS, ST], asked, () => 0, { phase: 'movement', turn: 0 });
    setBattleFocusTokens(g, 0, 4);
    const move = (unit: string) => ({ kind: 'selected-to-move' as const, unit, mode: 'normal' as const, to: { x: 30, y: 22 } });
    // GD: Swift as the Wind
    const perform = (unit: string, manoeuvre: string) => {
      const again = sandboxPick(g, choose(manoeuvre, unit));
      offerManoeuvres(g, 0, move(unit));
      again();
    };
    perform('GD', SWIFT_AS_THE_WIND);
    expect(hasEffect(g, SWIFT_AS_THE_WIND, 'GD')).toBe(true);
    // GD has made one this phase: nothing more for it
    expect(manoeuvreOptions(g, 0, move('GD'))).toEqual([{ none: true }]);
    // DA may still make Swift as the Wind (another unit) and Flitting Shadows
    expect(names(manoeuvreOptions(g, 0, move('DA')))).toEqual(['none', `${SWIFT_AS_THE_WIND}:DA`, `${FLITTING_SHADOWS}:DA`]);
    perform('DA', FLITTING_SHADOWS);
    expect(hasEffect(g, FLITTING_SHADOWS, 'DA')).toBe(true);
    // Flitting Shadows is made: WS is offered Swift as the Wind only
    expect(names(manoeuvreOptions(g, 0, move('WS')))).toEqual(['none', `${SWIFT_AS_THE_WIND}:WS`]);
    expect(battleFocusTokens(g.state, 0)).toBe(2);
    // a new phase: GD and Flitting Shadows again
    g.emit({ type: 'phase-started', round: g.state.round, player: 0, phase: 'shooting' });
    expect(names(manoeuvreOptions(g, 0, move('GD')))).toEqual(['none', `${SWIFT_AS_THE_WIND}:GD`, `${FLITTING_SHADOWS}:GD`]);
  });
});

/** Answer the Aeldari's decisions with `pick` until the returned function is called (then back to the first option). */
function sandboxPick(g: Game, pick: Pick): () => void {
  const agents = g.agents!;
  const before = agents[0];
  agents[0] = scriptedAgent('ae', pick);
  return () => { agents[0] = before; };
}

describe('Flitting Shadows', () => {
  function charge(shadows: boolean): { g: Game; asked: DecisionRequest[] } {
    const asked: DecisionRequest[] = [];
    const g = sandbox([GD, { ...ST, at: { x: 18, y: 10 } }], asked, shadows ? choose(FLITTING_SHADOWS) : () => 0, { phase: 'charge', turn: 0, cp: [0, 3], stream: scriptedStream([1, 1]) });
    setGap(g, 'ST', 'GD', 6);
    setBattleFocusTokens(g, 0, 4);
    declareCharge(g, g.state.units.GD, { targets: ['ST'] });
    return { g, asked };
  }
  const overwatch = (asked: DecisionRequest[]) => asked.some((r) => r.kind === 'stratagem' && JSON.stringify(r.options).includes('FIRE OVERWATCH'));

  it('declaring a charge: the enemy cannot Fire Overwatch at the unit this turn', () => {
    const { g, asked } = charge(true);
    expect(names(offered(asked)[0].options as BattleFocusOption[])).toEqual(['none', `${FLITTING_SHADOWS}:GD`]);
    expect(hasEffect(g, FLITTING_SHADOWS, 'GD')).toBe(true);
    expect(overwatch(asked)).toBe(false);
    // until the end of the turn, not of the phase (Fire Overwatch in a later phase of this turn: audit 19 mutant BF13)
    expect(g.state.effects.find((e) => e.kind === FLITTING_SHADOWS && e.unit === 'GD')!.expires).toEqual({ at: 'end-of-turn', round: g.state.round, turn: 0 });
  });

  it('without it, Fire Overwatch is offered', () => {
    const { asked } = charge(false);
    expect(overwatch(asked)).toBe(true);
  });
});

describe('Flitting Shadows when set up', () => {
  it('a unit arriving from Reserves may make it (and no other manoeuvre), before the enemy may Fire Overwatch', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([GD, { ...ST, at: { x: 30, y: 10 } }], asked, choose(FLITTING_SHADOWS), { phase: 'movement', turn: 0, cp: [0, 3] });
    setBattleFocusTokens(g, 0, 4);
    g.emit({ type: 'unit-moved', unit: 'GD', mode: 'arrived' });
    afterMove(g, g.state.units.GD);
    expect(names(offered(asked)[0].options as BattleFocusOption[])).toEqual(['none', `${FLITTING_SHADOWS}:GD`]);
    expect(hasEffect(g, FLITTING_SHADOWS, 'GD')).toBe(true);
    expect(asked.some((r) => r.kind === 'stratagem' && JSON.stringify(r.options).includes('FIRE OVERWATCH'))).toBe(false);
    expect(battleFocusTokens(g.state, 0)).toBe(3);
  });

  it('a unit disembarking from a transport that moved (a set-up) may make it, before the enemy may Fire Overwatch (audit 16)', () => {
    const asked: DecisionRequest[] = [];
    const pick: Pick = (r) => (r.kind === 'move' && r.context?.unit === 'GD' ? Math.max(0, (r.options as { mode: string }[]).findIndex((o) => o.mode === 'disembark')) : choose(FLITTING_SHADOWS)(r));
    const g = sandbox([{ id: 'WS', player: 0, faction: 'aeldari', name: 'Wave Serpent', at: { x: 20, y: 20 } }, GD, { ...ST, at: { x: 34, y: 20 } }], asked, pick, { phase: 'movement', turn: 0, round: 2, cp: [0, 3] });
    g.emit({ type: 'unit-location', unit: 'GD', location: 'embarked', embarkedIn: 'WS' });
    g.emit({ type: 'unit-moved', unit: 'WS', mode: 'normal' });
    setBattleFocusTokens(g, 0, 4);
    moveUnit(g, g.state.units.GD);
    expect(g.state.units.GD.flags.moved).toBe('disembarked');
    expect(offered(asked).map((r) => names(r.options as BattleFocusOption[]))).toEqual([['none', `${FLITTING_SHADOWS}:GD`]]);
    expect(hasEffect(g, FLITTING_SHADOWS, 'GD')).toBe(true);
    expect(asked.some((r) => r.kind === 'stratagem' && JSON.stringify(r.options).includes('FIRE OVERWATCH'))).toBe(false);
    expect(battleFocusTokens(g.state, 0)).toBe(3);
  });
});

describe('Star Engines', () => {
  const FA: PlacedUnit = { id: 'FA', player: 0, faction: 'aeldari', name: 'Falcon', at: { x: 10, y: 22 } };

  function advance(engines: boolean): { g: Game; asked: DecisionRequest[] } {
    const asked: DecisionRequest[] = [];
    const g = sandbox([FA, { ...ST, at: { x: 40, y: 22 } }], asked, engines ? choose(STAR_ENGINES) : () => 0, { phase: 'movement', turn: 0, stream: scriptedStream([3]) });
    setBattleFocusTokens(g, 0, 4);
    executeMove(g, g.state.units.FA, { mode: 'advance', to: { x: 30, y: 22 }, toward: 'objective' });
    g.emit({ type: 'phase-started', round: g.state.round, player: 0, phase: 'shooting' });
    return { g, asked };
  }

  it('a VEHICLE Advancing: its ranged weapons have ASSAULT until the end of the turn, so it may shoot', () => {
    const { g, asked } = advance(true);
    expect(names(offered(asked)[0].options as BattleFocusOption[])).toEqual(['none', `${SWIFT_AS_THE_WIND}:FA`, `${FLITTING_SHADOWS}:FA`, `${STAR_ENGINES}:FA`]);
    const fa = g.state.units.FA;
    expect(fa.flags.advanced).toBe(true);
    const ranged = g.state.datasheets[fa.models[0].datasheet].weapons.flatMap((w) => w.profiles).filter((p) => p.range !== 'Melee');
    expect(ranged.every((p) => weaponHas(g.state, fa, p, 'ASSAULT'))).toBe(true);
    expect(canShoot(g, fa)).toBe(true);
  });

  it('without it only its own ASSAULT weapons (the catapults) may shoot; not offered for a Normal move', () => {
    const { g } = advance(false);
    const fa = g.state.units.FA;
    const pulse = g.state.datasheets[fa.models[0].datasheet].weapons.find((w) => w.name === 'Pulse laser')!.profiles[0];
    expect(weaponHas(g.state, fa, pulse, 'ASSAULT')).toBe(false);
    const options = manoeuvreOptions(g, 0, { kind: 'selected-to-move', unit: 'FA', mode: 'normal', to: { x: 30, y: 22 } });
    expect(names(options)).not.toContain(`${STAR_ENGINES}:FA`);
  });
});

describe('Sudden Strike', () => {
  const HB: PlacedUnit = { id: 'HB', player: 0, faction: 'aeldari', name: 'Howling Banshees', at: { x: 20, y: 22 } };

  function fightAt5(strike: boolean): { g: Game; gap: number } {
    const g = sandbox([HB, { ...ST, at: { x: 30, y: 22 } }], [], strike ? choose(SUDDEN_STRIKE) : () => 0, { phase: 'fight', turn: 0 });
    setGap(g, 'ST', 'HB', 5);
    setBattleFocusTokens(g, 0, 4);
    let gap = Infinity;
    // the distance once the Pile-in is made (before the attacks and the Consolidation)
    const emit = g.emit.bind(g);
    g.emit = (e) => { const r = emit(e); if (e.type === 'models-placed' && e.mode === 'pile-in') gap = unitDistance(g.state, g.state.units.HB, g.state.units.ST); return r; };
    fight(g, g.state.units.HB);
    return { g, gap };
  }

  it('selected to fight: Pile-in (and Consolidation) moves of up to 6"', () => {
    const { g, gap } = fightAt5(true);
    expect(gap).toBeLessThanOrEqual(1 + 1e-6);
    expect(pileInMove(g.state, g.state.units.HB).distance).toBe(6);
    endPhase(g, 0, 'fight');
    expect(pileInMove(g.state, g.state.units.HB).distance).toBe(3);
  });

  it('without it the Pile-in is 3"', () => {
    const { gap } = fightAt5(false);
    expect(gap).toBeGreaterThan(1.9);
  });
});

describe('Opportunity Seized', () => {
  function fallBack(seize: boolean, dice: number[], engagedAtStart = true): { g: Game; asked: DecisionRequest[]; from: { x: number; y: number } } {
    const asked: DecisionRequest[] = [];
    const g = sandbox([{ ...GD, at: { x: 20, y: 22 } }, DA, { ...ST, at: { x: 30, y: 22 } }], asked, seize ? choose(OPPORTUNITY_SEIZED) : () => 0, { phase: 'command', turn: 1, stream: scriptedStream(dice) });
    setBattleFocusTokens(g, 0, 4);
    if (engagedAtStart) setGap(g, 'ST', 'GD', 0.5);
    startPhase(g, 1, 'movement');
    if (!engagedAtStart) setGap(g, 'ST', 'GD', 0.5);
    const from = { ...g.state.units.GD.models[0].pos! };
    executeMove(g, g.state.units.ST, { mode: 'fall-back', to: { x: 55, y: 22 }, toward: 'own deployment zone' });
    return { g, asked, from };
  }

  it('an enemy unit ends a Fall Back move: a unit that began the phase in Engagement Range of it moves up to D6+1"', () => {
    const { g, asked, from } = fallBack(true, [3]);
    expect(names(offered(asked)[0].options as BattleFocusOption[])).toEqual(['none', `${OPPORTUNITY_SEIZED}:GD`]);
    const to = g.state.units.GD.models[0].pos!;
    const inches = Math.hypot(to.x - from.x, to.y - from.y);
    expect(inches).toBeGreaterThan(3);
    expect(inches).toBeLessThanOrEqual(4 + 1e-6);
    expect(battleFocusTokens(g.state, 0)).toBe(3);
  });

  it('not offered for a unit that was not engaged with it at the start of the phase', () => {
    const { asked } = fallBack(true, [], false);
    expect(offered(asked)).toHaveLength(0);
  });
});

describe('Fade Back and Fleet of Foot', () => {
  function shot(tokens: number, pick: Pick, hit: string[]): { g: Game; asked: DecisionRequest[] } {
    const asked: DecisionRequest[] = [];
    const g = sandbox([GD, DA, { ...ST, at: { x: 30, y: 20 } }], asked, pick, { phase: 'shooting', turn: 1, stream: scriptedStream([4]) });
    setBattleFocusTokens(g, 0, tokens);
    offerManoeuvres(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit });
    return { g, asked };
  }

  it('not for a TITANIC unit: a Wraithknight hit is offered no Fade Back, the Dire Avengers are (audit 19 mutant BF12)', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([DA, { id: 'WK', player: 0, faction: 'aeldari', name: 'Wraithknight', at: { x: 14, y: 10 } }, { ...ST, at: { x: 40, y: 20 } }], asked, () => 0, { phase: 'shooting', turn: 1 });
    setBattleFocusTokens(g, 0, 2);
    expect(g.state.units.WK.keywords).toContain('TITANIC');
    expect(names(manoeuvreOptions(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['WK'] }))).toEqual(['none']);
    expect(names(manoeuvreOptions(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['WK', 'DA'] }))).toEqual(['none', `${FADE_BACK}:DA`]);
  });

  it('a unit hit by an enemy unit that shot makes a Normal move of up to D6+1", for a token', () => {
    const { g, asked } = shot(2, choose(FADE_BACK, 'DA'), ['GD', 'DA']);
    expect(names(offered(asked)[0].options as BattleFocusOption[])).toEqual(['none', `${FADE_BACK}:GD (free)`, `${FADE_BACK}:DA`]);
    expect(battleFocusTokens(g.state, 0)).toBe(1);
    expect(g.log!.some((e) => e.type === 'models-placed' && e.unit === 'DA' && e.mode === 'normal')).toBe(true);
    // made once this phase: DA cannot again, nor another unit for a token; the Guardians still may, for free
    expect(names(manoeuvreOptions(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['GD', 'DA'] }))).toEqual(['none', `${FADE_BACK}:GD (free)`]);
  });

  it('Fleet of Foot: without a token, and without using up the manoeuvre', () => {
    const { g } = shot(0, choose(FADE_BACK, 'GD'), ['GD', 'DA']);
    expect(g.log!.some((e) => e.type === 'models-placed' && e.unit === 'GD' && e.mode === 'normal')).toBe(true);
    expect(battleFocusTokens(g.state, 0)).toBe(0);
    setBattleFocusTokens(g, 0, 1);
    expect(names(manoeuvreOptions(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['DA'] }))).toEqual(['none', `${FADE_BACK}:DA`]);
  });

  it('Dire Avengers without a token: nothing offered', () => {
    const { asked } = shot(0, () => 0, ['DA']);
    expect(offered(asked)).toHaveLength(0);
  });

  it('offered just after an enemy unit has shot in its Shooting phase, for the units it hit', () => {
    const asked: DecisionRequest[] = [];
    const g = sandbox([{ ...GD, at: { x: 20, y: 22 } }, { ...ST, at: { x: 30, y: 22 } }], asked, () => 0, { phase: 'shooting', turn: 1 });
    setGap(g, 'ST', 'GD', 8);
    shootWithUnit(g, g.state.units.ST);
    const hitGD = g.log!.some((e) => e.type === 'dice' && e.purpose === 'wound' && e.player === 1);
    expect(hitGD).toBe(true);
    const req = offered(asked)[0];
    expect(req.context).toMatchObject({ kind: 'enemy-shot', enemy: 'ST', hit: ['GD'] });
    expect(names(req.options as BattleFocusOption[])).toEqual(['none', `${FADE_BACK}:GD (free)`]);
  });
});

describe('Superlative Strategist', () => {
  it('while the Autarch leads the unit, the D6 of its Fade Back may be re-rolled', () => {
    for (const lead of [true, false]) {
      const asked: DecisionRequest[] = [];
      const pick: Pick = (r) => (r.kind === 'battle-focus-reroll' ? 1 : choose(FADE_BACK, 'DA')(r));
      const g = sandbox([DA, { id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 11.5, y: 30 } }, { ...ST, at: { x: 30, y: 30 } }], asked, pick, { phase: 'shooting', turn: 1, stream: scriptedStream(lead ? [1, 5] : [1]) });
      if (lead) g.emit({ type: 'unit-attached', leader: 'AU', bodyguard: 'DA' });
      setBattleFocusTokens(g, 0, 1);
      const from = { ...g.state.units.DA.models[0].pos! };
      offerManoeuvres(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['DA'] });
      const to = g.state.units.DA.models[0].pos!;
      const inches = Math.hypot(to.x - from.x, to.y - from.y);
      expect(asked.filter((r) => r.kind === 'battle-focus-reroll')).toHaveLength(lead ? 1 : 0);
      // re-rolled 1 -> 5: up to 6"; kept: up to 2"
      if (lead) { expect(inches).toBeGreaterThan(5); expect(inches).toBeLessThanOrEqual(6 + 1e-6); }
      else expect(inches).toBeLessThanOrEqual(2 + 1e-6);
    }
  });
});

describe('"While this model is leading a unit": not for the Autarch alone (audit 19 mutants BF17, BF18)', () => {
  it('Superlative Strategist: a lone Autarch hit makes its Fade Back with the D6 it rolled, not re-rolled', () => {
    const asked: DecisionRequest[] = [];
    const pick: Pick = (r) => (r.kind === 'battle-focus-reroll' ? 1 : choose(FADE_BACK, 'AU')(r));
    const g = sandbox([{ id: 'AU', player: 0, faction: 'aeldari', name: 'Autarch', at: { x: 11.5, y: 30 } }, { ...ST, at: { x: 30, y: 30 } }], asked, pick, { phase: 'shooting', turn: 1, stream: scriptedStream([1]) });
    setBattleFocusTokens(g, 0, 1);
    const from = { ...g.state.units.AU.models[0].pos! };
    offerManoeuvres(g, 0, { kind: 'enemy-shot', enemy: 'ST', hit: ['AU'] });
    const to = g.state.units.AU.models[0].pos!;
    expect(asked.filter((r) => r.kind === 'battle-focus-reroll')).toHaveLength(0);
    expect(Math.hypot(to.x - from.x, to.y - from.y)).toBeLessThanOrEqual(2 + 1e-6);
    expect(Math.hypot(to.x - from.x, to.y - from.y)).toBeGreaterThan(0);
  });

  it('Indomitable Strength of Will: a lone Wayleaper spending a token for Swift as the Wind gets none back (no D6 rolled)', () => {
    const stream = scriptedStream([6]);
    const g = sandbox([{ id: 'AW', player: 0, faction: 'aeldari', name: 'Autarch Wayleaper', at: { x: 11.5, y: 22 } }, ST], [], choose(SWIFT_AS_THE_WIND), { phase: 'movement', turn: 0, stream });
    setBattleFocusTokens(g, 0, 4);
    executeMove(g, g.state.units.AW, { mode: 'normal', to: { x: 30, y: 22 }, toward: 'objective' });
    expect(battleFocusTokens(g.state, 0)).toBe(3);
    expect(stream.remaining(), 'no D6 rolled for the token').toBe(1);
  });
});

describe('tokens given back', () => {
  it('Pirate Prince: a token spent for Yriel\'s unit comes back on a D6 of 3+', () => {
    for (const [die, left] of [[3, 4], [2, 3]] as const) {
      const asked: DecisionRequest[] = [];
      const g = sandbox([{ id: 'PY', player: 0, faction: 'aeldari', name: 'Prince Yriel', at: { x: 10, y: 22 }, enhancement: 'Pirate Prince' }, ST], asked, choose(SWIFT_AS_THE_WIND), { phase: 'movement', turn: 0, stream: scriptedStream([die]) });
      setBattleFocusTokens(g, 0, 4);
      executeMove(g, g.state.units.PY, { mode: 'normal', to: { x: 30, y: 22 }, toward: 'objective' });
      expect(battleFocusTokens(g.state, 0)).toBe(left);
    }
  });

  it('Indomitable Strength of Will: only while the Wayleaper leads the unit', () => {
    for (const [lead, left] of [[true, 4], [false, 3]] as const) {
      const g = sandbox([
        { id: 'DA', player: 0, faction: 'aeldari', name: 'Dire Avengers', at: { x: 10, y: 22 } },
        { id: 'AW', player: 0, faction: 'aeldari', name: 'Autarch Wayleaper', at: { x: 11.5, y: 22 } },
        ST,
      ], [], choose(SWIFT_AS_THE_WIND), { phase: 'movement', turn: 0, stream: scriptedStream([5]) });
      if (lead) g.emit({ type: 'unit-attached', leader: 'AW', bodyguard: 'DA' });
      setBattleFocusTokens(g, 0, 4);
      executeMove(g, g.state.units.DA, { mode: 'normal', to: { x: 30, y: 22 }, toward: 'objective' });
      expect(battleFocusTokens(g.state, 0)).toBe(left);
    }
  });
});
