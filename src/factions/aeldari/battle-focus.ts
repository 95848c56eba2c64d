/**
 * Battle Focus, the Asuryani army rule of the export (beside Strands of Fate, ./army-rule.ts), in the
 * engine's words. At the start of each battle round the player gets Battle Focus tokens, more in bigger
 * battles; those not spent are gone at the end of the round. When one of the moments below comes, the player
 * may spend a token so that one eligible unit (one with the Battle Focus ability that has not yet made an
 * Agile Manoeuvre this phase) makes the Agile Manoeuvre that moment allows. A manoeuvre is made at most once a
 * phase, but Swift as the Wind may be made by several units (each once).
 *
 * The manoeuvres are a small registry (MANOEUVRES below): the moments that set each off, the units it may be
 * made by, and what it does. The engine's moments are the Battle Focus ability's hooks (a unit selected to
 * move, set up, declaring a charge, selected to fight) and the army rule's (an enemy unit ending a Fall Back
 * move, an enemy unit having shot in the Shooting phase). Tokens and the manoeuvres made this phase are the
 * player's rule state (events); each manoeuvre's lasting part is an effect.
 *
 * Rules that change Battle Focus for some units are played here too: Fleet of Foot (Guardian Defenders) and
 * Adrenal Infusions (an Eldritch Raiders Enhancement) make Fade Back free, Indomitable Strength of Will
 * (Autarch Wayleaper) and Pirate Prince (Eldritch Raiders) may give back a spent token, Superlative Strategist
 * (Autarch) re-rolls a manoeuvre's move roll.
 *
 * Limits: "set up on the battlefield" is an arrival from Reserves or a disembarkation after the transport moved
 * (where the enemy may FIRE OVERWATCH at the set-up); which units began a phase within Engagement
 * Range of which enemy units (Opportunity Seized) is noted at the start of the opponent's phases only, where
 * enemy Fall Backs happen; one unit performs a manoeuvre per moment, a free Fade Back included. The army rule
 * applies to any Aeldari army (the export says Asuryani; the engine has one Aeldari faction).
 *
 * Units without the ability may have it while a condition holds (Spirit Guides, ./spirit-conclave.ts): such an
 * ability is registered with `registerBattleFocusGrant`, which gives it the ability's unit hooks, and
 * eligibility asks `hasBattleFocus` at the moment of the manoeuvre.
 */
import '../core-first.ts';
import { getRule, registerRule, type PileInMove, type Rule } from '../../core/rules-registry.ts';
import type { Game } from '../../core/game.ts';
import { type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { hasKeyword, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { unitsInEngagement } from '../../rules/battle/world.ts';
import { bearerPartStands, leadingModel, moveOrFallBack, normalMoveChoices, phaseKey, type Destination } from '../helpers.ts';
import { lentLeaderModel } from '../../rules/lent-leaders.ts';

import {
  BATTLE_FOCUS, BATTLE_FOCUS_TOKENS, FADE_BACK, FLITTING_SHADOWS, OPPORTUNITY_SEIZED, STAR_ENGINES, SUDDEN_STRIKE, SWIFT_AS_THE_WIND,
  type BattleFocusOption,
} from './battle-focus-names.ts';
// what other rules add to tokens, manoeuvre rolls and Swift as the Wind (the Warhost's Martial Grace, Timeless Strategist)
import { battleFocusTokenBonus, manoeuvreRollBonus, swiftAsTheWindBonus } from './battle-focus-bonuses.ts';

export {
  BATTLE_FOCUS, BATTLE_FOCUS_TOKENS, FADE_BACK, FLITTING_SHADOWS, OPPORTUNITY_SEIZED, STAR_ENGINES, SUDDEN_STRIKE, SWIFT_AS_THE_WIND,
  type BattleFocusOption,
};
export const FLEET_OF_FOOT = 'Fleet of Foot';
export const ADRENAL_INFUSIONS = 'Adrenal Infusions';
export const INDOMITABLE_STRENGTH_OF_WILL = 'Indomitable Strength of Will';
export const PIRATE_PRINCE = 'Pirate Prince';
const SUPERLATIVE_STRATEGIST = 'Superlative Strategist';

/** The player's rule state: tokens held in a battle round, and what was done in a phase. */
const TOKENS = 'battleFocusTokens';
const USED = 'battleFocusUsed';
const ENGAGED = 'battleFocusEngaged';

interface Tokens { round: number; tokens: number }
interface Used { phase: string; units: string[]; manoeuvres: string[] }
interface Engaged { phase: string; pairs: string[] }

/** The Battle Focus tokens the player holds now (none once the battle round they came with is over). */
export function battleFocusTokens(state: GameState, player: PlayerIndex): number {
  const t = state.players[player].ruleState[TOKENS] as Tokens | undefined;
  return t && t.round === state.round ? t.tokens : 0;
}

/** Set the tokens the player holds this battle round (an event). */
export function setBattleFocusTokens(g: Game, player: PlayerIndex, tokens: number): void {
  g.emit({ type: 'rule-state', player, key: TOKENS, value: { round: g.state.round, tokens } });
}

function usedThisPhase(state: GameState, player: PlayerIndex): Used {
  const u = state.players[player].ruleState[USED] as Used | undefined;
  return u && u.phase === phaseKey(state) ? u : { phase: phaseKey(state), units: [], manoeuvres: [] };
}

/** What sets a manoeuvre off: the unit concerned (the player's own), or the enemy unit that acted. */
export type ManoeuvreTrigger =
  | { kind: 'selected-to-move'; unit: string; mode: 'normal' | 'advance' | 'fall-back'; to: { x: number; y: number } }
  | { kind: 'set-up'; unit: string }
  | { kind: 'charge-declared'; unit: string; targets: readonly string[] }
  | { kind: 'selected-to-fight'; unit: string }
  | { kind: 'enemy-fell-back'; enemy: string }
  | { kind: 'enemy-shot'; enemy: string; hit: readonly string[] };

export interface AgileManoeuvre {
  name: string;
  triggers: readonly ManoeuvreTrigger['kind'][];
  /** may be made more than once a phase, by a different unit each time (Swift as the Wind) */
  repeatable?: boolean;
  /** the player's units this moment lets make it, before the general eligibility (Battle Focus, not yet this phase) */
  candidates(g: Game, player: PlayerIndex, t: ManoeuvreTrigger): UnitState[];
  /** what it does; `pay` spends the token (or records a free use) once the player is committed to it */
  perform(g: Game, unit: UnitState, t: ManoeuvreTrigger, pay: () => void): void;
}

/** The trigger's own unit, when it is the player's and on the battlefield. */
function ownUnit(g: Game, player: PlayerIndex, t: ManoeuvreTrigger): UnitState[] {
  if (!('unit' in t)) return [];
  const u = g.state.units[t.unit];
  return u && u.player === player && u.location === 'battlefield' ? [u] : [];
}

/** A manoeuvre that puts an effect on the unit until `until` ends. */
function effectManoeuvre(g: Game, unit: UnitState, kind: string, until: 'phase' | 'turn', pay: () => void): void {
  pay();
  g.addEffect(kind, unit.player, unit.id, until === 'phase' ? g.untilEndOfPhase() : g.untilEndOfTurn());
}

/**
 * Opportunity Seized and Fade Back: a Normal move of up to D6+1", toward a destination the player picks
 * (decision 'battle-focus-move', none first); the token is spent only once one is picked.
 */
function manoeuvreMove(g: Game, unit: UnitState, name: string, pay: () => void): void {
  const options = normalMoveChoices(g.state, unit);
  if (options.length === 0) return;
  const { option } = g.decide<{ none: true } | Destination>({
    kind: 'battle-focus-move', player: unit.player, prompt: `${unit.name}: ${name}: a Normal move of up to D6+1" toward?`,
    options, context: { unit: unit.id, manoeuvre: name },
  });
  if ('none' in option) return;
  pay();
  moveOrFallBack(g, g.state.units[unit.id], option, false, () => manoeuvreRoll(g, g.state.units[unit.id], name) + 1);
}

/**
 * The D6 of such a move. Superlative Strategist: while an Autarch leads the unit, a roll made for it as it
 * performs an Agile Manoeuvre may be re-rolled (decision 'battle-focus-reroll'); its other half, Advance
 * re-rolls, is ./datasheets.ts's.
 */
function manoeuvreRoll(g: Game, unit: UnitState, name: string): number {
  let roll = g.dice.d6(1, 'other', unit.player, unit.id, name);
  if (unit.abilities.includes(SUPERLATIVE_STRATEGIST) && leadingModel(g.state, unit, 'AUTARCH') !== null) {
    const { option } = g.decide({
      kind: 'battle-focus-reroll', player: unit.player, prompt: `${unit.name}: ${name} roll ${roll[0]}, re-roll it (Superlative Strategist)?`,
      options: ['keep', 're-roll'], context: { unit: unit.id, manoeuvre: name, roll: roll[0] },
    });
    if (option === 're-roll') roll = g.dice.reroll(roll, [0], 6, 'other', unit.player, unit.id, name);
  }
  // what other rules add to the D6 (Martial Grace), after any re-roll
  return roll[0] + manoeuvreRollBonus(g.state, unit, name);
}

/**
 * Abilities that give a unit Battle Focus while a condition holds (Spirit Guides: near an ASURYANI PSYKER
 * model): the ability's name and the condition, asked when a manoeuvre is offered.
 */
const GRANTS: { ability: string; holds(state: GameState, unit: UnitState): boolean }[] = [];


/** Could the unit ever have Battle Focus: its own ability, or one that gives it under a condition? */
function mayHaveBattleFocus(u: UnitState): boolean {
  return u.abilities.includes(BATTLE_FOCUS) || GRANTS.some((x) => u.abilities.includes(x.ability));
}

/** Does the unit have the Battle Focus ability now: its own, or given by another ability whose condition holds? */
export function hasBattleFocus(state: GameState, u: UnitState): boolean {
  if (u.abilities.includes(BATTLE_FOCUS)) return true;
  for (const x of GRANTS) if (u.abilities.includes(x.ability) && x.holds(state, u)) return true;
  return false;
}

/** Units that may make a Normal move now (not within Engagement Range, with somewhere to go), not TITANIC. */
function mayMakeNormalMove(state: GameState, u: UnitState): boolean {
  return u.location === 'battlefield' && !hasKeyword(u, 'TITANIC') && normalMoveChoices(state, u).length > 0;
}

export const MANOEUVRES: readonly AgileManoeuvre[] = [
  {
    // selected to make a Normal, Advance or Fall Back move: +2" Move until the end of the phase
    name: SWIFT_AS_THE_WIND, triggers: ['selected-to-move'], repeatable: true,
    candidates: ownUnit,
    perform: (g, unit, _t, pay) => effectManoeuvre(g, unit, SWIFT_AS_THE_WIND, 'phase', pay),
  },
  {
    // selected to move, set up, or declaring a charge: no Fire Overwatch at it until the end of the turn
    name: FLITTING_SHADOWS, triggers: ['selected-to-move', 'set-up', 'charge-declared'],
    candidates: ownUnit,
    perform: (g, unit, _t, pay) => effectManoeuvre(g, unit, FLITTING_SHADOWS, 'turn', pay),
  },
  {
    // a VEHICLE selected to Advance: its ranged weapons have ASSAULT until the end of the turn
    name: STAR_ENGINES, triggers: ['selected-to-move'],
    candidates: (g, p, t) => (t.kind === 'selected-to-move' && t.mode === 'advance' ? ownUnit(g, p, t).filter((u) => hasKeyword(u, 'VEHICLE')) : []),
    perform: (g, unit, _t, pay) => effectManoeuvre(g, unit, STAR_ENGINES, 'turn', pay),
  },
  {
    // selected to fight: Pile-in and Consolidation moves of up to 6" this phase
    name: SUDDEN_STRIKE, triggers: ['selected-to-fight'],
    candidates: ownUnit,
    perform: (g, unit, _t, pay) => effectManoeuvre(g, unit, SUDDEN_STRIKE, 'phase', pay),
  },
  {
    // an enemy unit ended a Fall Back move: a unit that began the phase within Engagement Range of it moves D6+1"
    name: OPPORTUNITY_SEIZED, triggers: ['enemy-fell-back'],
    candidates: (g, p, t) => {
      if (t.kind !== 'enemy-fell-back') return [];
      const e = g.state.players[p].ruleState[ENGAGED] as Engaged | undefined;
      if (!e || e.phase !== phaseKey(g.state)) return [];
      return unitsOnBattlefield(g.state, p).filter((u) => e.pairs.includes(`${u.id}>${t.enemy}`) && mayMakeNormalMove(g.state, u));
    },
    perform: (g, unit, _t, pay) => manoeuvreMove(g, unit, OPPORTUNITY_SEIZED, pay),
  },
  {
    // the opponent's Shooting phase, an enemy unit has shot: a unit its attacks hit moves D6+1"
    name: FADE_BACK, triggers: ['enemy-shot'],
    candidates: (g, p, t) => (t.kind === 'enemy-shot' ? t.hit.map((id) => g.state.units[id]).filter((u) => u && u.player === p && mayMakeNormalMove(g.state, u)) : []),
    perform: (g, unit, t, pay) => {
      if (t.kind === 'enemy-shot' && fadeBackInstead(g, unit, t.enemy, pay)) return;
      manoeuvreMove(g, unit, FADE_BACK, pay);
    },
  },
];

/**
 * A move a rule lets a unit make instead of Fade Back's Normal move (Lethal Surge, Devoted of Ynnead): asked as
 * the manoeuvre is made; `move` returns true when it took the move over (and called `pay`), false to leave the
 * Normal move to Fade Back. `roll` is the manoeuvre's D6 (Superlative Strategist's re-roll included).
 */
export interface FadeBackAlternative {
  rule: string;
  move(g: Game, unit: UnitState, enemy: string, pay: () => void, roll: () => number): boolean;
}
const FADE_BACK_ALTERNATIVES: FadeBackAlternative[] = [];

export function registerFadeBackAlternative(a: FadeBackAlternative): void {
  FADE_BACK_ALTERNATIVES.push(a);
}

function fadeBackInstead(g: Game, unit: UnitState, enemy: string, pay: () => void): boolean {
  for (const a of FADE_BACK_ALTERNATIVES) {
    if (a.move(g, unit, enemy, pay, () => manoeuvreRoll(g, g.state.units[unit.id], FADE_BACK))) return true;
  }
  return false;
}

/**
 * Rules that let a unit make a manoeuvre without a token, even if another unit made it this phase, and
 * without keeping other units from making it (Fleet of Foot; Adrenal Infusions, the bearer's unit).
 */
const FREE_MANOEUVRES: readonly { rule: string; manoeuvre: string; applies: (u: UnitState) => boolean }[] = [
  { rule: FLEET_OF_FOOT, manoeuvre: FADE_BACK, applies: (u) => u.abilities.includes(FLEET_OF_FOOT) },
  { rule: ADRENAL_INFUSIONS, manoeuvre: FADE_BACK, applies: (u) => bearerPartStands(u, ADRENAL_INFUSIONS) },
];

/** Rules that give back the token spent for a unit on a D6 of 3+ (Indomitable Strength of Will while the Wayleaper leads it; Pirate Prince). */
const TOKEN_REFUNDS: readonly { rule: string; applies: (s: GameState, u: UnitState) => boolean }[] = [
  {
    rule: INDOMITABLE_STRENGTH_OF_WILL,
    applies: (s, u) => (u.abilities.includes(INDOMITABLE_STRENGTH_OF_WILL) && leadingModel(s, u, 'AUTARCH WAYLEAPER') !== null) || lentLeaderModel(s, u, INDOMITABLE_STRENGTH_OF_WILL, 'AUTARCH WAYLEAPER') !== null,
  },
  { rule: PIRATE_PRINCE, applies: (_s, u) => bearerPartStands(u, PIRATE_PRINCE) },
];

function freeFor(unit: UnitState, manoeuvre: string): string | null {
  for (const f of FREE_MANOEUVRES) if (f.manoeuvre === manoeuvre && f.applies(unit)) return f.rule;
  return null;
}


/** The manoeuvres (and units) the player may make at this moment; only `{ none }` when none. */
export function manoeuvreOptions(g: Game, player: PlayerIndex, t: ManoeuvreTrigger): BattleFocusOption[] {
  const s = g.state;
  const out: BattleFocusOption[] = [{ none: true }];
  if (!s.players[player].rules.includes(BATTLE_FOCUS) || s.result !== null) return out;
  const tokens = battleFocusTokens(s, player);
  // without a token only a free Fade Back is left: the usual case costs nothing more
  if (tokens === 0 && t.kind !== 'enemy-shot') return out;
  const used = usedThisPhase(s, player);
  for (const m of MANOEUVRES) {
    if (!m.triggers.includes(t.kind)) continue;
    const taken = !m.repeatable && used.manoeuvres.includes(m.name);
    for (const u of m.candidates(g, player, t)) {
      if (used.units.includes(u.id) || !u.models.some((x) => x.alive) || !hasBattleFocus(s, u)) continue;
      const free = freeFor(u, m.name);
      if (free !== null) out.push({ manoeuvre: m.name, unit: u.id, free });
      else if (tokens > 0 && !taken) out.push({ manoeuvre: m.name, unit: u.id });
    }
  }
  return out;
}

/** A moment that may set off an Agile Manoeuvre: the player's choice (decision 'battle-focus'), then the manoeuvre. */
export function offerManoeuvres(g: Game, player: PlayerIndex, t: ManoeuvreTrigger): void {
  const options = manoeuvreOptions(g, player, t);
  if (options.length === 1) return;
  const { option } = g.decide<BattleFocusOption>({
    kind: 'battle-focus', player, prompt: `Battle Focus (${battleFocusTokens(g.state, player)} tokens): an Agile Manoeuvre (${t.kind})?`,
    options, context: { ...t, tokens: battleFocusTokens(g.state, player) },
  });
  if ('none' in option) return;
  const m = MANOEUVRES.find((x) => x.name === option.manoeuvre)!;
  const unit = g.state.units[option.unit];
  const pay = (): void => {
    const s = g.state;
    const used = usedThisPhase(s, player);
    // a free use does not count against the manoeuvre's once per phase
    g.emit({ type: 'rule-state', player, key: USED, value: {
      phase: used.phase, units: [...used.units, unit.id], manoeuvres: option.free ? used.manoeuvres : [...used.manoeuvres, m.name],
    } });
    if (option.free) {
      g.emit({ type: 'note', text: `${unit.name}: ${m.name} (${option.free}, no token)` });
      return;
    }
    setBattleFocusTokens(g, player, battleFocusTokens(s, player) - 1);
    g.emit({ type: 'note', text: `${unit.name}: ${m.name} (Battle Focus token spent)` });
    for (const r of TOKEN_REFUNDS) {
      if (!r.applies(g.state, g.state.units[unit.id])) continue;
      if (g.dice.d6(1, 'other', player, unit.id, r.rule)[0] >= 3) setBattleFocusTokens(g, player, battleFocusTokens(g.state, player) + 1);
    }
  };
  m.perform(g, unit, t, pay);
}

function hasEffectOn(state: GameState, kind: string, unit: string): boolean {
  for (const e of state.effects) if (e.kind === kind && e.unit === unit) return true;
  return false;
}

const SUDDEN_STRIKE_MOVE: PileInMove = { distance: 6, closestUnitContact: false };

/** The ability's hooks on a unit: the moments of the player's own units. */
const UNIT_HOOKS: Pick<Rule, 'beforeMove' | 'afterMove' | 'chargeDeclared' | 'selectedToFight' | 'pileInMove'> = {
  beforeMove(g, unit, mode, to) { offerManoeuvres(g, unit.player, { kind: 'selected-to-move', unit: unit.id, mode, to }); },
  // set up on the battlefield: arriving from Reserves, or disembarking (a set-up too, core rules), before the
  // enemy's FIRE OVERWATCH window at it (a unit that moved was offered its manoeuvre when selected)
  afterMove(g, unit) { if (unit.flags.moved === 'arrived' || unit.flags.moved === 'disembarked') offerManoeuvres(g, unit.player, { kind: 'set-up', unit: unit.id }); },
  chargeDeclared(g, unit, targets) { offerManoeuvres(g, unit.player, { kind: 'charge-declared', unit: unit.id, targets }); },
  selectedToFight(g, unit) { offerManoeuvres(g, unit.player, { kind: 'selected-to-fight', unit: unit.id }); },
  pileInMove(ctx) { return hasEffectOn(ctx.state, SUDDEN_STRIKE, ctx.unit.id) ? SUDDEN_STRIKE_MOVE : null; },
};

/**
 * The rule: the unit ability (the moments of the player's own units) and the army rule (tokens, and the
 * moments the enemy sets off) under one name; an Aeldari player's rules list it, as its units' abilities do.
 */
registerRule({
  name: BATTLE_FOCUS, kind: 'army-rule',
  ...UNIT_HOOKS,
  armyEnemyMoveEnded(g, owner, mover, mode) { if (mode === 'fall-back') offerManoeuvres(g, owner, { kind: 'enemy-fell-back', enemy: mover.id }); },
});

registerArmyRuleHooks({
  name: BATTLE_FOCUS,
  start(g, phase, player, owner) {
    const s = g.state;
    // the start of the battle round: the first player's Command phase
    if (phase === 'command' && player === s.firstPlayer) setBattleFocusTokens(g, owner, BATTLE_FOCUS_TOKENS[s.mission.mode] + battleFocusTokenBonus(s, owner));
    // the opponent's phases: which units begin it within Engagement Range of which enemy units (Opportunity Seized)
    if (player !== owner && battleFocusTokens(s, owner) > 0) {
      const pairs: string[] = [];
      const enemies = unitsOnBattlefield(s, player);
      for (const u of unitsOnBattlefield(s, owner)) {
        if (!mayHaveBattleFocus(u) || hasKeyword(u, 'TITANIC')) continue;
        for (const e of enemies) if (unitsInEngagement(s, u, e)) pairs.push(`${u.id}>${e.id}`);
      }
      if (pairs.length > 0) g.emit({ type: 'rule-state', player: owner, key: ENGAGED, value: { phase: phaseKey(s), pairs } });
    }
  },
  // the end of the battle round: the tokens left are lost
  end(g, phase, player, owner) {
    if (phase === 'fight' && player !== g.state.firstPlayer && battleFocusTokens(g.state, owner) > 0) setBattleFocusTokens(g, owner, 0);
  },
  enemyUnitShot(g, shooter, hitTargets, owner) {
    if (hitTargets.length > 0) offerManoeuvres(g, owner, { kind: 'enemy-shot', enemy: shooter.id, hit: hitTargets });
  },
});

/**
 * Register an ability that gives its unit Battle Focus while `holds` (Spirit Guides): a rule with the
 * ability's unit hooks, which stand aside when the unit has Battle Focus of its own (a Leader's), so that no
 * moment is offered twice.
 */
export function registerBattleFocusGrant(rule: Pick<Rule, 'name' | 'kind' | 'missing'>, holds: (state: GameState, unit: UnitState) => boolean): void {
  GRANTS.push({ ability: rule.name, holds });
  const own = (u: UnitState) => u.abilities.includes(BATTLE_FOCUS);
  registerRule({
    ...rule,
    beforeMove(g, unit, mode, to) { if (!own(unit)) UNIT_HOOKS.beforeMove!(g, unit, mode, to); },
    afterMove(g, unit) { if (!own(unit)) UNIT_HOOKS.afterMove!(g, unit); },
    chargeDeclared(g, unit, targets) { if (!own(unit)) UNIT_HOOKS.chargeDeclared!(g, unit, targets); },
    selectedToFight(g, unit) { if (!own(unit)) UNIT_HOOKS.selectedToFight!(g, unit); },
    pileInMove(ctx, src) { return own(ctx.unit) ? null : UNIT_HOOKS.pileInMove!(ctx, src); },
  });
}

// The manoeuvres' lasting effects.
registerRule({
  name: SWIFT_AS_THE_WIND, kind: 'effect',
  characteristic: (which, value, ctx) => (which === 'M' ? value + 2 + swiftAsTheWindBonus(ctx.state, ctx.unit) : value),
});
registerRule({ name: FLITTING_SHADOWS, kind: 'effect', forbids: (permission) => permission === 'fire-overwatch-at' });
registerRule({ name: STAR_ENGINES, kind: 'effect', weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee' });
/** Read by the Battle Focus ability's pileInMove above. */
registerRule({ name: SUDDEN_STRIKE, kind: 'effect' });
// Every manoeuvre has a registry entry of its name, which the coverage report reads for the export's "Army
// Rules" stratagems: the four above are effects; the two moves are entries of the army rule's own.
for (const m of MANOEUVRES) if (!getRule(m.name)) registerRule({ name: m.name, kind: 'army-rule' });

// Rules of some units that change Battle Focus for them (FREE_MANOEUVRES, TOKEN_REFUNDS above).
/** Guardian Defenders: Fade Back without a token, whoever else made it this phase. */
registerRule({ name: FLEET_OF_FOOT, kind: 'datasheet-ability' });
/** Eldritch Raiders Enhancement (ANHRATHE INFANTRY): the bearer's unit makes Fade Back as Fleet of Foot does. */
registerRule({ name: ADRENAL_INFUSIONS, kind: 'enhancement' });
/** Autarch Wayleaper: while it leads a unit, a token spent for that unit comes back on a D6 of 3+. */
registerRule({ name: INDOMITABLE_STRENGTH_OF_WILL, kind: 'datasheet-ability', leaderAbility: true, lentByName: true });
/** Eldritch Raiders Enhancement (Prince Yriel): a token spent for the bearer's unit comes back on a D6 of 3+. */
registerRule({ name: PIRATE_PRINCE, kind: 'enhancement' });
