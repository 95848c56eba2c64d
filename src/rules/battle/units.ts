/**
 * Questions the rules ask about units and models: who is on the battlefield, Starting Strength and
 * Below Half-strength, keywords, and characteristics after every rule that changes them.
 */
import { forEachActiveRule, getRule, type Characteristic, type CharacteristicContext, type CharacteristicStage } from '../../core/rules-registry.ts';
import type { GameState, ModelState, PlayerIndex, UnitState } from '../../core/state.ts';
import type { DamagedProfile, ModelProfile } from '../../data/datasheet.ts';

export function profileOf(state: GameState, m: ModelState): ModelProfile {
  return state.datasheets[m.datasheet].models[m.profile];
}

export function isAlive(u: UnitState): boolean {
  return u.location !== 'destroyed' && u.location !== 'attached' && u.models.some((m) => m.alive);
}

/** Has the player no unit left alive (on the battlefield, embarked or in Reserves)? */
export function armyDestroyedOf(s: GameState, p: PlayerIndex): boolean {
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player === p && isAlive(u)) return false;
  }
  return true;
}

export function onBattlefield(u: UnitState): boolean {
  return u.location === 'battlefield' && u.models.some((m) => m.alive);
}

/** Units of a player on the battlefield, in creation order. */
export function unitsOnBattlefield(state: GameState, player: PlayerIndex): UnitState[] {
  const out: UnitState[] = [];
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.player === player && onBattlefield(u)) out.push(u);
  }
  return out;
}

export function allUnits(state: GameState, player: PlayerIndex): UnitState[] {
  return state.unitOrder.map((id) => state.units[id]).filter((u) => u.player === player);
}

/** The player's units still to be set up on the battlefield in the Deploy Armies step, in army order. */
export function unitsToSetUp(state: GameState, player: PlayerIndex): UnitState[] {
  return allUnits(state, player).filter((u) => u.location === 'unplaced');
}

export function hasKeyword(u: UnitState, kw: string): boolean {
  return u.keywords.includes(kw);
}

/** The unit has the MONSTER or VEHICLE keyword (Big Guns Never Tire, and many rules' targets). */
export function isMonsterOrVehicle(u: UnitState): boolean {
  return u.keywords.includes('MONSTER') || u.keywords.includes('VEHICLE');
}

/** Every model of the unit has the keyword on its own datasheet (FLY, for moving over models). */
export function allModelsHave(state: GameState, u: UnitState, kw: string): boolean {
  return u.models.every((m) => !m.alive || modelHasKeyword(state, m, kw));
}

/**
 * The model's keywords: its datasheet's, those of its profile only (Aun'Va's CHARACTER, a Way Seeker's
 * PSYKER), and those its wargear gives its bearer (a Hover Drone: FLY).
 */
export function modelHasKeyword(state: GameState, m: ModelState, kw: string): boolean {
  const ds = state.datasheets[m.datasheet];
  if (ds.keywords.includes(kw)) return true;
  if (ds.modelKeywords !== undefined && ds.modelKeywords[m.name]?.includes(kw)) return true;
  if (!m.wargear) return false;
  for (const w of m.wargear) if (getRule(w)?.grantsKeywords?.includes(kw)) return true;
  return false;
}

/**
 * Below its Starting Strength: fewer models remain than it started the battle with (an Attached unit's
 * combined Starting Strength). Read by the model count alone, as the core rules define it.
 */
export function belowStartingStrength(u: UnitState): boolean {
  let alive = 0;
  for (const m of u.models) if (m.alive) alive++;
  return alive < u.startingStrength;
}

/**
 * Below Half-strength: fewer than half the Starting Strength models remain; a unit with a Starting
 * Strength of 1 is Below Half-strength when its model has fewer than half its Wounds left.
 */
export function belowHalfStrength(state: GameState, u: UnitState): boolean {
  const alive = u.models.filter((m) => m.alive);
  if (u.startingStrength === 1 && alive.length === 1) {
    return alive[0].wounds * 2 < profileOf(state, alive[0]).wounds;
  }
  return alive.length * 2 < u.startingStrength;
}

/**
 * The damaged profile the model is in now (its datasheet's "while this model has 1-5 wounds remaining ..."), or
 * null: read by the attack plan (its Hit rolls) and by its Objective Control.
 */
export function damagedProfileOf(state: GameState, m: ModelState): DamagedProfile | null {
  const d = state.datasheets[m.datasheet].damaged;
  return d && m.alive && m.wounds >= d.from && m.wounds <= d.to ? d : null;
}

/** A model's characteristic after every active rule (unit abilities, army rules, effects). */
export function characteristic(state: GameState, u: UnitState, m: ModelState, which: Characteristic): number {
  const p = profileOf(state, m);
  // Battle-shocked: the models' Objective Control is set to 0 before anything adds to it. The Rules Commentary
  // applies the rules that set a characteristic before those that add or subtract, so a +1 OC still counts (the
  // rules that should not, Admired Leader's, say "while not Battle-shocked"); see stagedCharacteristic for
  // another rule that sets OC (Hunting Hounds).
  const shocked = which === 'OC' && u.battleShocked;
  let v = shocked ? 0 : baseCharacteristic(p, which);
  const ctx = { state, unit: u, model: m };
  // the common case in one walk: every rule in force adds or subtracts
  let staged = false;
  forEachActiveRule(state, u, 'self', (rule, src) => {
    if (!rule.characteristic) return;
    if (rule.characteristicStage?.[which] !== undefined) staged = true;
    else if (!staged) v = rule.characteristic(which, v, ctx, src);
  });
  if (staged) v = stagedCharacteristic(state, u, which, ctx, baseCharacteristic(p, which), shocked);
  // a damaged profile's "subtract X from the Objective Control characteristic" (Wraithknight: 5): a modifier, never below 0
  if (which === 'OC') {
    const d = damagedProfileOf(state, m);
    if (d?.ocModifier) v = Math.max(0, v + d.ocModifier);
  }
  return v;
}

function baseCharacteristic(p: ModelProfile, which: Characteristic): number {
  return which === 'M' ? p.move : which === 'T' ? p.toughness : which === 'Sv' ? p.save : which === 'W' ? p.wounds : which === 'Ld' ? p.leadership : p.oc;
}

const STAGES: readonly (CharacteristicStage | undefined)[] = ['set', 'divide', undefined];

/**
 * A characteristic that a rule sets or divides: the Rules Commentary's order, every rule that sets it first,
 * then those that divide it, then those that add or subtract (each group in rule order), fractions rounded
 * up once at the end (M7" halved and then +2" is 6", not 5"). `shocked`: Battle-shock sets the OC to 0 too;
 * when two rules set a characteristic the active player orders them, so each player's choice is taken: in the
 * unit's own turn Battle-shock first (the other rule's value stands), in the opponent's turn last (0).
 */
function stagedCharacteristic(state: GameState, u: UnitState, which: Characteristic, ctx: CharacteristicContext, base: number, shocked: boolean): number {
  const shockFirst = shocked && state.turn === u.player;
  let v = shockFirst ? 0 : base;
  for (const stage of STAGES) {
    forEachActiveRule(state, u, 'self', (rule, src) => {
      if (rule.characteristic && rule.characteristicStage?.[which] === stage) v = rule.characteristic(which, v, ctx, src);
    });
    if (stage === 'set' && shocked && !shockFirst) v = 0;
  }
  // + 0: a 0 rounded up from just below is -0
  return Math.ceil(v - 1e-9) + 0;
}

/** The unit's Leadership for a Battle-shock test: the best (lowest) among its models. */
export function bestLeadership(state: GameState, u: UnitState): number {
  let best = 99;
  for (const m of u.models) if (m.alive) best = Math.min(best, characteristic(state, u, m, 'Ld'));
  return best;
}

export function unitMove(state: GameState, u: UnitState): number {
  let mv = 99;
  for (const m of u.models) if (m.alive) mv = Math.min(mv, characteristic(state, u, m, 'M'));
  return mv === 99 ? 0 : mv;
}

/** Sum of the modifiers active rules apply to a roll made for this unit. */
export function rollModifier(state: GameState, u: UnitState, purpose: 'advance' | 'charge' | 'battle-shock'): number {
  let total = 0;
  const ctx = { state, unit: u };
  forEachActiveRule(state, u, 'self', (rule, src) => {
    if (rule.rollModifier) total += rule.rollModifier(purpose, ctx, src);
  });
  return total;
}

/**
 * A roll made for the unit as the rules in force make it before modifiers: halved, rounded up, when a rule
 * halves it (Rule.halvesRoll: TANGLEBOMB BOLAS), else as rolled.
 */
export function rollHalved(state: GameState, u: UnitState, purpose: 'advance' | 'charge', roll: number): number {
  return rollsHalved(state, u, purpose) ? Math.ceil(roll / 2) : roll;
}

/** Does a rule in force halve the unit's Advance or Charge rolls (Rule.halvesRoll)? The agents ask it too. */
export function rollsHalved(state: GameState, u: UnitState, purpose: 'advance' | 'charge'): boolean {
  let halved = false;
  const ctx = { state, unit: u };
  forEachActiveRule(state, u, 'self', (rule, src) => {
    if (!halved && rule.halvesRoll?.(purpose, ctx, src)) halved = true;
  });
  return halved;
}

/** The ids of `player`'s units and Attached-unit parts destroyed so far (what an enemy unit's attacks destroyed: the ones added meanwhile). */
/**
 * Is `unit` the unit a rule selected as `selected`, or a Leader left of it after that Attached unit split? (A
 * rule's selection follows the parts of a split Attached unit, as Bounty Hunters and PINPOINT COUNTER-OFFENSIVE
 * read theirs: the Spotted unit whose Bodyguard is destroyed is still Spotted in its Leader.)
 */
export function isUnitOrItsPart(unit: UnitState, selected: unknown): boolean {
  return unit.id === selected || (unit.detachedFrom !== undefined && unit.detachedFrom === selected);
}

/**
 * The part of a unit still on the battlefield, of its components' units (`parts`, read before an action): an
 * Attached unit whose Bodyguard part is destroyed mid-action (FIRE OVERWATCH at a charge or a move, mortal wounds
 * as a move ends) leaves its Leader a unit of its own, which carries the action on as the unit that began it (as a
 * part left mid-shooting has shot, or a Leader left by Desperate Escape ends the Fall Back). With two Leaders left
 * (no Bodyguard model) the first carries it on. Null: nothing of it is left.
 */
export function survivingPart(state: GameState, parts: readonly string[]): UnitState | null {
  for (const id of parts) {
    const p = state.units[id];
    if (p && p.location === 'battlefield' && p.models.some((m) => m.alive)) return p;
  }
  return null;
}

export function destroyedParts(s: GameState, player: PlayerIndex): Set<string> {
  const out = new Set<string>();
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player !== player) continue;
    for (const c of u.components) if (c.destroyed) out.add(c.unit);
    if (u.location === 'destroyed') out.add(u.id);
  }
  return out;
}

/**
 * Was the unit eligible to fight at some moment of this Fight phase (the words of end-of-phase rules such as
 * INTERLOCKING MANOUEVRES or Raid and Run)? True for a unit that was within Engagement Range or had charged
 * when the phase began or a unit was about to be selected (fight.ts records it), even if its enemies all
 * fell before its turn came.
 */
export function wasEligibleToFight(u: UnitState): boolean {
  return u.flags.eligibleToFight || u.flags.fought;
}
