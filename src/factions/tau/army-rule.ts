/**
 * For the Greater Good, the T'au Empire army rule. Each time a unit with the ability is selected to
 * shoot (and is not an Observer unit), it may become a Guided unit: another friendly unit with the
 * ability that is eligible to shoot (not FORTIFICATION, not Battle-shocked, not already an Observer)
 * becomes its Observer unit, and an enemy unit visible to both becomes their Spotted unit. Until the end
 * of the phase the Guided unit's attacks against the Spotted unit have their BS improved by 1 (and
 * IGNORES COVER when the Observer has MARKERLIGHT); its attacks against other units have their BS
 * worsened by 1.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { eligibleToShoot } from '../../rules/battle/shooting.ts';
import { hasKeyword, isUnitOrItsPart, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { unitSees } from '../../rules/battle/world.ts';
import { openWindow } from '../../rules/windows.ts';

export const FOR_THE_GREATER_GOOD = 'For the Greater Good';
/** Effect on the Guided unit: params { observer, spotted } */
export const GUIDED = 'Guided unit';
/** Effect on the Observer unit: params { guided, spotted } */
export const OBSERVER = 'Observer unit';

export interface GuidedInfo {
  observer: string;
  spotted: string;
}

/** The unit's Guided role this phase, if it has one. */
export function guidedInfo(state: GameState, unit: string): GuidedInfo | null {
  for (const e of state.effects) if (e.kind === GUIDED && e.unit === unit) return e.params as unknown as GuidedInfo;
  return null;
}

export function isObserver(state: GameState, unit: string): boolean {
  return state.effects.some((e) => e.kind === OBSERVER && e.unit === unit);
}

/** The Spotted unit of this unit's pair (as Guided or as Observer), if any. */
export function spottedBy(state: GameState, unit: string): string | null {
  for (const e of state.effects) {
    if ((e.kind === GUIDED || e.kind === OBSERVER) && e.unit === unit) return String(e.params.spotted);
  }
  return null;
}

/**
 * Listeners called when a unit has become an Observer unit, before the Observer window opens (Forward
 * Observers acts then).
 */
export type ObserverListener = (g: Game, observer: UnitState, guided: UnitState, spotted: string) => void;
const observerListeners: ObserverListener[] = [];
export function onObserverSelected(fn: ObserverListener): void {
  observerListeners.push(fn);
}

export interface GuidanceOption {
  none?: true;
  observer?: string;
  spotted?: string;
}

/** The (Observer, Spotted) pairs a unit selected to shoot can choose. */
export function guidanceOptions(g: Game, unit: UnitState): GuidanceOption[] {
  const s = g.state;
  if (!unit.abilities.includes(FOR_THE_GREATER_GOOD) || isObserver(s, unit.id)) return [];
  const out: GuidanceOption[] = [];
  const enemies = unitsOnBattlefield(s, opponent(unit.player));
  const seenByUnit = enemies.filter((e) => unitSees(s, unit, e));
  if (seenByUnit.length === 0) return [];
  for (const o of unitsOnBattlefield(s, unit.player)) {
    if (o.id === unit.id || !o.abilities.includes(FOR_THE_GREATER_GOOD)) continue;
    if (hasKeyword(o, 'FORTIFICATION') || o.battleShocked || isObserver(s, o.id) || guidedInfo(s, o.id)) continue;
    // eligible to shoot: no target in range is needed, only one visible to both units
    if (!eligibleToShoot(g, o)) continue;
    for (const e of seenByUnit) if (unitSees(s, o, e)) out.push({ observer: o.id, spotted: e.id });
  }
  return out;
}

registerArmyRuleHooks({
  name: FOR_THE_GREATER_GOOD,
  unitSelectedToShoot(g, unit, owner: PlayerIndex) {
    if (unit.player !== owner) return;
    const options = guidanceOptions(g, unit);
    if (options.length === 0) return;
    const { option } = g.decide<GuidanceOption>({
      kind: 'for-the-greater-good', player: owner, prompt: `${unit.name}: become a Guided unit? (Observer and Spotted unit)`,
      options: [{ none: true }, ...options], context: { unit: unit.id },
    });
    if (option.none) return;
    const until = g.untilEndOfPhase();
    g.addEffect(GUIDED, owner, unit.id, until, { observer: option.observer!, spotted: option.spotted! });
    g.addEffect(OBSERVER, owner, option.observer!, until, { guided: unit.id, spotted: option.spotted! });
    for (const fn of observerListeners) fn(g, g.state.units[option.observer!], g.state.units[unit.id], option.spotted!);
    openWindow(g, { name: 'shooting/observer-selected', unit: option.observer!, targets: [option.spotted!] });
  },
});

// The army rule itself: the rule entry is what a unit "has"; its effect lives in the hooks above and
// in the Guided effect below.
registerRule({ name: FOR_THE_GREATER_GOOD, kind: 'army-rule' });

registerRule({
  name: GUIDED, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !src.effect) return;
    const p = src.effect.params as unknown as GuidedInfo;
    if (isUnitOrItsPart(ctx.target, p.spotted)) {
      plan.skill -= 1; // improve the Ballistic Skill characteristic (not a Hit roll modifier)
      const observer = ctx.state.units[p.observer];
      if (observer && observer.keywords.includes('MARKERLIGHT')) plan.ignoresCover = true;
    } else {
      plan.skill += 1;
    }
  },
});

registerRule({ name: OBSERVER, kind: 'effect' });
