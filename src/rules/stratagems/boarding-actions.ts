/**
 * The Boarding Actions Stratagems: in a Boarding Actions game (`mission.mode === 'boarding-actions'`)
 * each player has these instead of the ten Core Stratagems (`coreSource`, ./registry.ts). One registry
 * entry each, in the engine's own words:
 *
 * - BATTLEFIELD COMMAND (1 CP, Strategic Ploy), at the start or end of any phase: one of your Leader
 *   units that is not attached, and one friendly Bodyguard unit within 6" of it that it could lead (its
 *   datasheet lists it and it has no Leader of its own). The player picks one of the Leader unit's
 *   Leader abilities; until the start of their next Command phase the Bodyguard unit is treated as led
 *   by the Leader unit for that ability. Neither unit can be targeted again before then.
 * - COMMAND RE-ROLL (1 CP, Epic Deed), just after a Hit, Wound, Damage, Advance, Charge, Desperate
 *   Escape or Hazardous roll, a saving throw, or the roll for the number of attacks, made for your unit:
 *   re-roll it (as the Core one, ./core.ts).
 * - INSANE BRAVERY (1 CP, Epic Deed), in the Battle-shock step of your Command phase, just after a unit
 *   of yours failed its Battle-shock test: it passed instead (usable on that unit although it failed;
 *   no once-per-battle limit, unlike the Core one).
 * - EXPLOSIVE CLEARANCE (1 CP, Battle Tactic), your Shooting phase, when a unit of yours is selected to
 *   shoot (before it picks targets): pick one of its models and a [BLAST] weapon it carries; until the
 *   end of the phase that weapon is free of close quarters (../battle/boarding.ts): Blast counts every
 *   model of the target, and its attacks can be allocated to models the firing model does not see.
 * - COUNTER-OFFENSIVE (2 CP, Strategic Ploy), Fight phase, just after an enemy unit has fought: one of
 *   your units within Engagement Range of an enemy unit that has not been selected to fight this phase
 *   fights next.
 */
import type { Game } from '../../core/game.ts';
import { profileHas } from '../../data/datasheet.ts';
import { getRule, registerRule, type Rule, type RuleSource } from '../../core/rules-registry.ts';
import type { Effect, Expiry, GameState, PlayerIndex, UnitState } from '../../core/state.ts';
import type { Window } from '../windows.ts';
import { registerRollReaction } from '../roll-window.ts';
import { registerStratagem } from './registry.ts';
import { commandRerollReaction, REROLLABLE } from './core.ts';
import { PASSES_BATTLE_SHOCK } from '../battle/command.ts';
import { FIGHTS_NEXT } from '../battle/fight.ts';
import { EXPLOSIVE_CLEARANCE } from '../battle/boarding.ts';
import { firableWeapons } from '../battle/shooting.ts';
import { unitsOnBattlefield } from '../battle/units.ts';
import { mayLead } from '../../data/leader-stand-ins.ts';
import { isEngaged, unitDistance } from '../battle/world.ts';
import { BATTLEFIELD_COMMAND, withLentLeader } from '../lent-leaders.ts';

export const BOARDING_ACTIONS = 'Boarding Actions';

function own(g: Game, w: Window, player: PlayerIndex): UnitState | null {
  const u = w.unit ? g.state.units[w.unit] : null;
  return u && u.player === player ? u : null;
}

// --- BATTLEFIELD COMMAND -----------------------------------------------------------------------

/** The Leader abilities (rules marked `leaderAbility`) a unit has. */
export function leaderAbilities(u: UnitState): string[] {
  return u.abilities.filter((a) => { const r = getRule(a); return r?.leaderAbility === true && lendable(r); });
}

/**
 * Can the BATTLEFIELD COMMAND effect play this ability for a unit it is lent to: it has one of the hooks the
 * effect's entry (below) answers, or is read by its name (Rule.lentByName). An ability played only through others
 * (a weapon's Range: Burning Lance; moments of the unit's own: Tactical Acumen, Word of the Phoenix, Harvester of
 * Souls) would do nothing lent, so it is not offered.
 */
function lendable(r: Rule): boolean {
  if (r.lentByName === true) return true;
  const lending = getRule(BATTLEFIELD_COMMAND) as unknown as Record<string, unknown>;
  return Object.entries(r).some(([k, v]) => typeof v === 'function' && typeof lending[k] === 'function');
}

/** Targeted by this player's Battlefield Command since their last Command phase (as Leader or Bodyguard)? */
function commanded(s: GameState, player: PlayerIndex, u: UnitState): boolean {
  for (const e of s.effects) {
    if (e.kind === BATTLEFIELD_COMMAND && e.player === player && (e.unit === u.id || e.params.leader === u.id)) return true;
  }
  return false;
}

/** A Leader unit on its own (not part of an Attached unit) that has a Leader ability. */
function freeLeader(u: UnitState): boolean {
  return u.components.length === 1 && u.attachedTo === null && leaderAbilities(u).length > 0;
}

/**
 * The friendly Bodyguard units within 6" that this Leader unit could normally be attached to. The Bodyguard unit
 * is the stratagem's second target, so not a Battle-shocked one (no Stratagem affects its player's
 * Battle-shocked unit; the windows check only the Leader, the first target).
 */
export function battlefieldCommandBodyguards(s: GameState, player: PlayerIndex, leader: UnitState): UnitState[] {
  const lds = s.datasheets[leader.datasheet];
  if ((lds.leads ?? []).length === 0) return [];
  return unitsOnBattlefield(s, player).filter((b) =>
    b.id !== leader.id && b.components.length === 1 && !b.battleShocked && mayLead(lds, s.datasheets[b.datasheet]) && !commanded(s, player, b) && unitDistance(s, leader, b) <= 6 + 1e-6);
}

/** "Until the start of your next Command phase", from now (this round's, when it is still to come). */
export function untilYourNextCommandPhase(g: Game, player: PlayerIndex): Expiry {
  const s = g.state;
  const stillToCome = s.turn !== player && s.firstPlayer !== player;
  return { at: 'start-of-command', player, afterRound: stillToCome ? s.round - 1 : s.round };
}

registerStratagem({
  name: 'BATTLEFIELD COMMAND', cp: 1, category: 'Strategic Ploy', source: BOARDING_ACTIONS, turn: 'either',
  windows: ['phase/start', 'phase/end'],
  targets: (g, _w, p) => unitsOnBattlefield(g.state, p).filter((u) => freeLeader(u) && !commanded(g.state, p, u) && battlefieldCommandBodyguards(g.state, p, u).length > 0),
  use(g, _w, p, leader) {
    const bodyguards = battlefieldCommandBodyguards(g.state, p, leader).map((u) => u.id);
    const { option: bodyguard } = g.decide({
      kind: 'battlefield-command-bodyguard', player: p, prompt: `Battlefield Command: which unit does ${leader.name} command?`, options: bodyguards, context: { unit: leader.id },
    });
    const { option: ability } = g.decide({
      kind: 'battlefield-command-ability', player: p, prompt: `Battlefield Command: which Leader ability of ${leader.name}?`, options: leaderAbilities(leader), context: { unit: leader.id, bodyguard },
    });
    g.addEffect(BATTLEFIELD_COMMAND, p, bodyguard, untilYourNextCommandPhase(g, p), { leader: leader.id, ability });
  },
});

/** The lent ability, when the effect is on its Bodyguard unit; played with its Leader leading. */
function lent(src: RuleSource): { rule: Rule; bodyguard: string; leader: string; src: RuleSource } | null {
  return lentBy(src.effect, src);
}

function lentBy(e: Effect | null, src: RuleSource): { rule: Rule; bodyguard: string; leader: string; src: RuleSource } | null {
  if (!e || e.unit === null) return null;
  const rule = getRule(e.params.ability as string);
  if (!rule) return null;
  return { rule, bodyguard: e.unit, leader: e.params.leader as string, src: { ...src, effect: null } };
}

/**
 * The effect on the Bodyguard unit: it answers the hooks of the lent Leader ability (attacks,
 * characteristics, roll modifiers, permissions, weapon abilities, Advance, targets, Deep Strike, Feel
 * No Pain, extra weapons, Pile-in, who may shoot it from where, range bands, Fights First) as if the Leader
 * led the unit. Abilities that act at moments of the unit's own (start or end of a phase, selected to shoot
 * or fight) or change a weapon's Range are not lent, nor offered (leaderAbilities).
 */
registerRule({
  name: BATTLEFIELD_COMMAND, kind: 'effect',
  attack(plan, ctx, src) {
    const l = lent(src);
    if (l?.rule.attack) withLentLeader(l.bodyguard, l.leader, () => l.rule.attack!(plan, ctx, l.src));
  },
  characteristic(which, v, ctx, src) {
    const l = lent(src);
    return l?.rule.characteristic ? withLentLeader(l.bodyguard, l.leader, () => l.rule.characteristic!(which, v, ctx, l.src)) : v;
  },
  rollModifier(purpose, ctx, src) {
    const l = lent(src);
    return l?.rule.rollModifier ? withLentLeader(l.bodyguard, l.leader, () => l.rule.rollModifier!(purpose, ctx, l.src)) : 0;
  },
  allows(permission, ctx, src) {
    const l = lent(src);
    return l?.rule.allows ? withLentLeader(l.bodyguard, l.leader, () => l.rule.allows!(permission, ctx, l.src)) : false;
  },
  forbids(permission, ctx, src) {
    const l = lent(src);
    return l?.rule.forbids ? withLentLeader(l.bodyguard, l.leader, () => l.rule.forbids!(permission, ctx, l.src)) : false;
  },
  weaponAbility(ability, ctx, src) {
    const l = lent(src);
    return l?.rule.weaponAbility ? withLentLeader(l.bodyguard, l.leader, () => l.rule.weaponAbility!(ability, ctx, l.src)) : false;
  },
  fixedAdvance(ctx, src) {
    const l = lent(src);
    return l?.rule.fixedAdvance ? withLentLeader(l.bodyguard, l.leader, () => l.rule.fixedAdvance!(ctx, l.src)) : null;
  },
  rerollAdvance(ctx, src) {
    const l = lent(src);
    return l?.rule.rerollAdvance ? withLentLeader(l.bodyguard, l.leader, () => l.rule.rerollAdvance!(ctx, l.src)) : false;
  },
  mayTarget(ctx, src) {
    const l = lent(src);
    return l?.rule.mayTarget ? withLentLeader(l.bodyguard, l.leader, () => l.rule.mayTarget!(ctx, l.src)) : true;
  },
  deepStrikeDistance(ctx, src) {
    const l = lent(src);
    return l?.rule.deepStrikeDistance ? withLentLeader(l.bodyguard, l.leader, () => l.rule.deepStrikeDistance!(ctx, l.src)) : null;
  },
  feelNoPain(ctx, src) {
    const l = lent(src);
    return l?.rule.feelNoPain ? withLentLeader(l.bodyguard, l.leader, () => l.rule.feelNoPain!(ctx, l.src)) : null;
  },
  extraWeapons(ctx, src) {
    const l = lent(src);
    return l?.rule.extraWeapons ? withLentLeader(l.bodyguard, l.leader, () => l.rule.extraWeapons!(ctx, l.src)) : [];
  },
  pileInMove(ctx, src) {
    const l = lent(src);
    return l?.rule.pileInMove ? withLentLeader(l.bodyguard, l.leader, () => l.rule.pileInMove!(ctx, l.src)) : null;
  },
  targetableFrom(ctx, effect) {
    const l = lentBy(effect, { role: 'defender', player: ctx.unit.player, effect, unit: ctx.unit });
    return l?.rule.targetableFrom ? withLentLeader(l.bodyguard, l.leader, () => l.rule.targetableFrom!(ctx, null)) : true;
  },
  attackRangeBands(ctx, src) {
    const l = lent(src);
    return l?.rule.attackRangeBands ? withLentLeader(l.bodyguard, l.leader, () => l.rule.attackRangeBands!(ctx, l.src)) : NO_BANDS;
  },
  fightsFirst(ctx, src) {
    const l = lent(src);
    return l?.rule.fightsFirst ? withLentLeader(l.bodyguard, l.leader, () => l.rule.fightsFirst!(ctx, l.src)) : false;
  },
});

const NO_BANDS: readonly number[] = [];

// --- COMMAND RE-ROLL ---------------------------------------------------------------------------

const commandReroll = registerStratagem({
  name: 'COMMAND RE-ROLL', cp: 1, category: 'Epic Deed', source: BOARDING_ACTIONS, turn: 'either',
  // played as a roll reaction (below), not in a window
  windows: [],
  targets: () => [],
  use: () => {},
});

registerRollReaction({ name: `${BOARDING_ACTIONS}::COMMAND RE-ROLL`, react: commandRerollReaction(commandReroll.name, BOARDING_ACTIONS, REROLLABLE) });

// --- INSANE BRAVERY ----------------------------------------------------------------------------

registerStratagem({
  name: 'INSANE BRAVERY', cp: 1, category: 'Epic Deed', source: BOARDING_ACTIONS, turn: 'own', allowBattleShocked: true,
  windows: ['command/after-battle-shock-failed'],
  // only in the Battle-shock step of your Command phase: not a test another rule forces later in the phase or
  // in another phase
  targets: (g, w, p) => { const u = own(g, w, p); return u && w.data?.battleShockStep === true ? [u] : []; },
  // the test counts as passed: the Battle-shock step checks this effect just after the window
  use: (g, _w, p, u) => { g.addEffect(PASSES_BATTLE_SHOCK, p, u.id, g.untilEndOfPhase()); },
});

// --- EXPLOSIVE CLEARANCE -----------------------------------------------------------------------

/**
 * The (model, Blast weapon) pairs of a unit: the ranged weapons with [BLAST] its models may fire now (not one
 * without ASSAULT after an Advance: the stratagem would be paid for a weapon that cannot shoot).
 */
export function blastWeapons(s: GameState, u: UnitState): { model: string; weapon: string }[] {
  const out: { model: string; weapon: string }[] = [];
  for (const { model, weapon: name } of firableWeapons(s, u)) {
    const m = u.models.find((x) => x.id === model)!;
    const w = s.datasheets[m.datasheet].weapons.find((x) => x.name === name);
    if (!w || !w.profiles.some((p) => p.range !== 'Melee' && profileHas(p, 'BLAST'))) continue;
    if (!out.some((o) => o.model === model && o.weapon === name)) out.push({ model, weapon: name });
  }
  return out;
}

registerRule({ name: EXPLOSIVE_CLEARANCE, kind: 'effect' });

registerStratagem({
  name: 'EXPLOSIVE CLEARANCE', cp: 1, category: 'Battle Tactic', source: BOARDING_ACTIONS, turn: 'own',
  windows: ['shooting/unit-selected'], phases: ['shooting'],
  targets: (g, w, p) => {
    const u = own(g, w, p);
    return u && !u.flags.shot && blastWeapons(g.state, u).length > 0 ? [u] : [];
  },
  use(g, _w, p, u) {
    const { option } = g.decide({
      kind: 'explosive-clearance', player: p, prompt: `Explosive Clearance: which model of ${u.name} and which Blast weapon?`, options: blastWeapons(g.state, u), context: { unit: u.id },
    });
    g.addEffect(EXPLOSIVE_CLEARANCE, p, u.id, g.untilEndOfPhase(), { model: option.model, weapon: option.weapon });
  },
});

// --- COUNTER-OFFENSIVE -------------------------------------------------------------------------

registerStratagem({
  name: 'COUNTER-OFFENSIVE', cp: 2, category: 'Strategic Ploy', source: BOARDING_ACTIONS, turn: 'either',
  windows: ['fight/after-enemy-fought'],
  targets: (g, w, p) => {
    const e = w.unit ? g.state.units[w.unit] : null;
    if (!e || e.player === p) return [];
    return unitsOnBattlefield(g.state, p).filter((u) => !u.flags.fought && isEngaged(g.state, u));
  },
  use: (g, _w, p, u) => { g.addEffect(FIGHTS_NEXT, p, u.id, g.untilEndOfPhase()); },
});
