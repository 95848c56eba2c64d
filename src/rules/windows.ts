/**
 * Timing windows: the moments the rules name ("just after an enemy unit has selected its targets",
 * "end of your opponent's Movement phase"...). The engine opens a window; every stratagem usable there
 * (enough CP, once per phase, valid target, not Battle-shocked unless allowed) is offered to the player
 * who may use it, as a decision. CP spent and stratagems used are events.
 */
import type { Game } from '../core/game.ts';
import { opponent, type PhaseName, type PlayerIndex, type UnitState } from '../core/state.ts';
import { hasFreeStratagem, stratagemsOf, type Stratagem } from './stratagems/registry.ts';
import { abilityRulesWith, anyUnitHas, forEachActiveRule, getRule, type Rule, type RuleSource } from '../core/rules-registry.ts';
import { splitAttachedUnits } from './damage.ts';

export type WindowName =
  /** your Command phase, Battle-shock step, just before a test (Insane Bravery) */
  | 'command/before-battle-shock-test'
  /** your Command phase, just after a failed Battle-shock test (Boarding Actions Insane Bravery) */
  | 'command/after-battle-shock-failed'
  /**
   * a Command phase (either player's), after the Battle-shock step and before the mission scores at the
   * phase's end: what a stratagem usable "in the Command phase" does here counts for that score
   */
  | 'command/after-battle-shock-step'
  /** start of a phase (the phase's player is the active player) */
  | 'phase/start'
  /** end of a phase */
  | 'phase/end'
  /** just after an enemy unit is set up or ends a Normal, Advance or Fall Back move */
  | 'movement/after-enemy-move'
  /** when an enemy unit (the window's unit) starts a Normal, Advance or Fall Back move, before it moves; data.mode, data.to: the move and where it heads */
  | 'movement/enemy-move-started'
  /** your opponent's Movement phase, just after an enemy unit (the window's unit) is selected to Fall Back, before its Desperate Escape tests (KHAINE'S VENGEANCE) */
  | 'movement/fall-back-selected'
  /** your Movement phase, a unit of yours has been selected to move (before it moves) */
  | 'movement/unit-selected'
  /** your Movement phase, just after a unit of yours ends a move */
  | 'movement/after-own-move'
  /** your Shooting phase, a unit of yours has been selected to shoot (before targets) */
  | 'shooting/unit-selected'
  /** just after an enemy unit has selected its targets */
  | 'shooting/after-enemy-targets'
  /** your Shooting phase, just after a unit of yours has shot */
  | 'shooting/after-own-shot'
  /** just after an enemy unit has shot (its attacks resolved); data.destroyed: the ids of your units (or Attached-unit parts) its attacks destroyed */
  | 'shooting/after-enemy-shot'
  /** just after an enemy unit has declared a charge */
  | 'charge/after-enemy-charge-declared'
  /** your Charge phase, just after a unit of yours ends a Charge move */
  | 'charge/after-own-charge-move'
  /** just after an enemy unit ends a Charge move */
  | 'charge/after-enemy-charge-move'
  /** your Charge phase, a unit of yours has been selected to charge (before the roll) */
  | 'charge/unit-selected'
  /** Fight phase, a unit of yours has been selected to fight */
  | 'fight/unit-selected'
  /** Fight phase, just after an enemy unit (`unit`) has fought; data.destroyed: the ids of your units (or Attached-unit parts) its attacks destroyed */
  | 'fight/after-enemy-fought'
  /** Fight phase, just after an enemy unit has selected its targets */
  | 'fight/after-enemy-targets'
  /** your Shooting phase, just after a unit of yours was selected as an Observer unit (For the Greater Good) */
  | 'shooting/observer-selected'
  /** any phase, just after a model was destroyed, before it is removed (`unit`: its unit, data.model: the model) */
  | 'model/destroyed'
  /** any phase, just after a unit was destroyed (`unit`: the destroyed unit, data.by: the unit that destroyed it) */
  | 'unit/destroyed'
  /** your Movement phase, just after a unit of yours (`unit`) opened a hatchway (data.hatchway) */
  | 'movement/hatchway-opened'
  /** start of the Reinforcements step of your Movement phase */
  | 'movement/reinforcements-start'
  /** any phase, just after a mortal wound was allocated to a unit (`unit`) */
  | 'damage/mortal-wound-allocated';

export interface Window {
  name: WindowName;
  /** the unit whose action opened the window (the enemy that selected targets, your unit selected...) */
  unit: string | null;
  /** the units it targeted (shooting targets, charge targets), when any */
  targets: string[];
  /** anything else the window's stratagems need (plain JSON) */
  data?: Record<string, unknown>;
}

export interface StratagemOption {
  stratagem: string;
  source: string;
  unit: string;
  /** what it costs this time (after any reduction) */
  cp: number;
  /** the rule that reduces its cost this time (Path of Command), when the player takes the reduction */
  discount?: string;
}

/** A usable stratagem on a target, at a cost (full, or reduced by a rule of the target unit). */
export interface UsableStratagem {
  s: Stratagem;
  unit: UnitState;
  cp: number;
  /** the rule reducing the cost, for the reduced option */
  discount?: string;
}

export type StratagemChoice = { pass: true } | StratagemOption;

/** Has this player used this stratagem already in the current phase (or turn / battle, when limited)? */
export function stratagemUsed(g: Game, player: PlayerIndex, s: Stratagem): boolean {
  const st = g.state;
  for (const u of st.players[player].stratagemsUsed) {
    if (u.name !== s.name) continue;
    if (s.oncePerBattle) return true;
    if (u.round === st.round && u.turn === st.turn && (s.oncePerTurn || u.phase === st.phase)) return true;
  }
  return false;
}

/**
 * An ability of the target unit, or a rule of its player (Strands of Fate of the Seer Council: a detachment
 * rule), that can reduce the stratagem's cost now (Path of Command): the first one found, with the reduction.
 */
export function stratagemDiscount(g: Game, unit: UnitState, s: Stratagem): { rule: Rule; amount: number; src: RuleSource } | null {
  // asked for every stratagem and unit a window offers: the two name lists are walked as they are
  return discountAmong(g, unit, s, unit.abilities) ?? discountAmong(g, unit, s, g.state.players[unit.player].rules);
}

function discountAmong(g: Game, unit: UnitState, s: Stratagem, names: readonly string[]): { rule: Rule; amount: number; src: RuleSource } | null {
  for (const name of names) {
    const r = getRule(name);
    if (!r?.stratagemDiscount) continue;
    const src: RuleSource = { role: 'self', player: unit.player, effect: null, unit };
    const amount = Math.min(s.cp, r.stratagemDiscount({ state: g.state, unit, stratagem: s.name }, src));
    if (amount > 0) return { rule: r, amount, src };
  }
  return null;
}

/**
 * CP by which the abilities of the target's enemies (Lord of Deceit) or its own (Towering Wraith Construct)
 * raise the cost of the stratagem on it, 0 in the usual game where no unit has such an ability.
 */
export function stratagemSurcharge(g: Game, unit: UnitState, s: Stratagem): number {
  let extra = 0;
  forEachSurcharge(g, unit, s, (_r, _e, n) => { extra += n; });
  // the target's own abilities (Towering Wraith Construct: twice the stated cost)
  for (const r of abilityRulesWith(unit, 'targetedStratagemSurcharge')) {
    extra += r.targetedStratagemSurcharge!({ state: g.state, unit, stratagem: s.name, cp: s.cp }, { role: 'self', player: unit.player, effect: null, unit });
  }
  return extra;
}

/** The cost was paid with the surcharges: each ability that added CP hears it (Torc of Morai-Heg: once per turn). */
export function stratagemSurchargePaid(g: Game, unit: UnitState, s: Stratagem): void {
  const paid: { r: Rule; e: string }[] = [];
  forEachSurcharge(g, unit, s, (r, e) => { if (r.enemyStratagemSurchargeUsed) paid.push({ r, e }); });
  for (const { r, e } of paid) r.enemyStratagemSurchargeUsed!(g, g.state.units[e]);
}

/** Each ability of the target's enemies on the battlefield that raises the stratagem's cost now, with its CP. */
function forEachSurcharge(g: Game, unit: UnitState, s: Stratagem, each: (r: Rule, enemy: string, cp: number) => void): void {
  const st = g.state;
  if (!anyUnitHas(st, 'enemyStratagemSurcharge')) return;
  for (const id of st.unitOrder) {
    const e = st.units[id];
    if (e.player === unit.player || e.location !== 'battlefield') continue;
    for (const r of abilityRulesWith(e, 'enemyStratagemSurcharge')) {
      const n = r.enemyStratagemSurcharge!({ state: st, unit: e, target: unit, stratagem: s.name }, { role: 'self', player: e.player, effect: null, unit: e });
      if (n > 0) each(r, id, n);
    }
  }
}

/**
 * May the player target this unit with the stratagem again this phase, having used it on a different unit
 * already (Reckless Abandon)? Only a stratagem limited to once per phase, never twice on the same unit.
 */
function againInPhase(g: Game, unit: UnitState, s: Stratagem): boolean {
  const st = g.state;
  if (s.oncePerBattle || s.oncePerTurn) return false;
  for (const u of st.players[unit.player].stratagemsUsed) {
    if (u.name === s.name && u.unit === unit.id && u.round === st.round && u.turn === st.turn && u.phase === st.phase) return false;
  }
  const src: RuleSource = { role: 'self', player: unit.player, effect: null, unit };
  for (const r of abilityRulesWith(unit, 'stratagemAgainInPhase')) if (r.stratagemAgainInPhase!({ state: st, unit, stratagem: s.name }, src)) return true;
  return false;
}

/** Does any unit of the player have a rule that lets a stratagem be used again in a phase (Reckless Abandon)? */
function mayRepeat(g: Game, player: PlayerIndex): boolean {
  return armyHasHook(g, player, 'stratagemAgainInPhase');
}

/** Does any unit, or a rule, of the player have a rule that can reduce stratagem costs (so 0 CP may be enough)? */
function mayDiscount(g: Game, player: PlayerIndex): boolean {
  return armyHasHook(g, player, 'stratagemDiscount') || g.state.players[player].rules.some((n) => getRule(n)?.stratagemDiscount !== undefined);
}

/** Does a unit of the player's army, not destroyed, have an ability with `hook`? */
function armyHasHook(g: Game, player: PlayerIndex, hook: keyof Rule): boolean {
  const st = g.state;
  if (!anyUnitHas(st, hook)) return false;
  for (const id of st.unitOrder) {
    const u = st.units[id];
    if (u.player === player && u.location !== 'destroyed' && abilityRulesWith(u, hook).length > 0) return true;
  }
  return false;
}

/**
 * The usable (stratagem, target) pairs for a player in a window, each at its full cost, and again at a
 * reduced cost when a rule of the target can reduce it (taking a reduction that is used up is the player's
 * choice; one that is not replaces the full cost).
 */
export function usableStratagems(g: Game, w: Window, player: PlayerIndex): UsableStratagem[] {
  const st = g.state;
  const cp = st.players[player].cp;
  // asked only when it matters: can a rule make a stratagem we cannot afford affordable? (or is one free:
  // a Homing Beacon's RAPID INGRESS)
  let discounts: boolean | null = null;
  // likewise: can a rule let a stratagem used already this phase be used again?
  let repeats: boolean | null = null;
  if (cp <= 0 && !(discounts = mayDiscount(g, player)) && !hasFreeStratagem(g, player)) return [];
  const out: UsableStratagem[] = [];
  const ownTurn = st.turn === player;
  for (const s of stratagemsOf(g, player)) {
    if (!s.windows.includes(w.name)) continue;
    if (s.cp > cp && !(discounts ??= mayDiscount(g, player))) continue;
    if ((s.turn === 'own' && !ownTurn) || (s.turn === 'opponent' && ownTurn)) continue;
    if (s.phases && !s.phases.includes(st.phase as PhaseName)) continue;
    const used = stratagemUsed(g, player, s);
    if (used && !(repeats ??= mayRepeat(g, player))) continue;
    for (const unit of s.targets(g, w, player)) {
      if (unit.battleShocked && !s.allowBattleShocked) continue;
      if (used && !againInPhase(g, unit, s)) continue;
      const d = stratagemDiscount(g, unit, s);
      // an enemy ability may raise the price (Lord of Deceit)
      const full = s.cp + stratagemSurcharge(g, unit, s);
      // the full price is offered beside a reduction only when taking the reduction uses it up (Path of
      // Command's once per round); one that is always there (Reckless Abandon) leaves nothing to save
      const reduced = d !== null && full - d.amount <= cp;
      if (full <= cp && !(reduced && !d.rule.stratagemDiscountUsed)) out.push({ s, unit, cp: full });
      if (reduced) out.push({ s, unit, cp: full - d.amount, discount: d.rule.name });
    }
  }
  return out;
}

/**
 * Open a window: offer the usable stratagems to each player (the active player first), one at a time,
 * until they pass or nothing is usable. Returns the names of the stratagems used.
 */
export function openWindow(g: Game, w: Window): string[] {
  const used = offerStratagems(g, w);
  // An Attached unit that lost its Leader or Bodyguard part outside an attack sequence (Desperate Escape,
  // TANK SHOCK, Grenade Pack Flyover) splits as a window closes, so the next rule that looks at it (a
  // Battle-shock test's Starting Strength, a target's keywords) sees two units. Not inside an attack
  // sequence or a mortal-wound loop: the rest of the attacks or wounds still go to the whole unit, and the
  // sequence splits it when it ends.
  if (!WITHIN_ATTACKS.has(w.name)) splitAttachedUnits(g);
  return used;
}

/** The windows that open while attacks or mortal wounds are still being allocated to a unit. */
const WITHIN_ATTACKS: ReadonlySet<WindowName> = new Set<WindowName>(['model/destroyed', 'unit/destroyed', 'damage/mortal-wound-allocated']);

function offerStratagems(g: Game, w: Window): string[] {
  const used: string[] = [];
  if (g.agents === null || g.state.result !== null) return used;
  const first = g.state.turn;
  for (const player of [first, opponent(first)] as PlayerIndex[]) {
    for (;;) {
      const usable = usableStratagems(g, w, player);
      if (usable.length === 0) break;
      const options: StratagemChoice[] = [{ pass: true }, ...usable.map(({ s, unit, cp, discount }) => ({
        stratagem: s.name, source: s.source, unit: unit.id, cp, ...(discount !== undefined ? { discount } : {}),
      }))];
      const { index } = g.decide({ kind: 'stratagem', player, prompt: `window ${w.name}: use a stratagem?`, options, context: { window: w } });
      if (index === 0) break;
      const { s, unit, discount } = usable[index - 1];
      useStratagem(g, w, player, s, unit, discount !== undefined);
      used.push(s.name);
    }
  }
  return used;
}

/**
 * The abilities of the defending player's units hear that `attacker` selected its targets (Rule.enemyTargeted)
 * or, `shot`, that it finished its ranged attacks (Rule.enemyShot).
 */
export function enemyAttacking(g: Game, attacker: UnitState, targets: readonly string[], melee: boolean, shot = false): void {
  if (targets.length === 0 || !anyUnitHas(g.state, shot ? 'enemyShot' : 'enemyTargeted')) return;
  const defender = g.state.units[targets[0]].player;
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    if (u.player !== defender || u.location !== 'battlefield') continue;
    if (shot) for (const r of abilityRulesWith(u, 'enemyShot')) r.enemyShot!(g, g.state.units[id], g.state.units[attacker.id]);
    else for (const r of abilityRulesWith(u, 'enemyTargeted')) r.enemyTargeted!(g, g.state.units[id], g.state.units[attacker.id], targets, melee);
  }
}

/** The rules active on a Stratagem's target hear that it was selected (Command-link Drone); COMMAND RE-ROLL calls it too. */
export function stratagemTargeted(g: Game, unit: UnitState, stratagem: string): void {
  const heard: { rule: Rule; src: RuleSource }[] = [];
  // collected first: a hook may roll dice and change the state the walk reads
  forEachActiveRule(g.state, unit, 'self', (rule, src) => { if (rule.stratagemTargeted) heard.push({ rule, src: { ...src } }); });
  for (const { rule, src } of heard) rule.stratagemTargeted!(g, g.state.units[unit.id], stratagem, src);
}

/** Use a stratagem: pay its CP (reduced when `discounted` and a rule of the target can reduce it), record it, resolve it. */
export function useStratagem(g: Game, w: Window, player: PlayerIndex, s: Stratagem, unit: UnitState, discounted = false): void {
  const st = g.state;
  let cp = s.cp + stratagemSurcharge(g, unit, s);
  if (discounted) {
    const d = stratagemDiscount(g, unit, s);
    if (d) {
      cp -= d.amount;
      d.rule.stratagemDiscountUsed?.(g, unit, d.src, s.name);
    }
  }
  stratagemSurchargePaid(g, unit, s);
  g.emit({ type: 'cp', player, delta: -cp, reason: s.name });
  g.emit({ type: 'stratagem-used', player, name: s.name, cp, unit: unit.id, round: st.round, turn: st.turn, phase: st.phase });
  stratagemTargeted(g, unit, s.name);
  s.use(g, w, player, unit);
}
