/**
 * Protector Host, an Aeldari Boarding Actions detachment (from the data export), in the engine's words: its
 * rule Determined Defence, its four stratagems and its two Enhancements. It is allowed only in Boarding
 * Actions games (the export types it so; src/data/scenario.ts checks).
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { PlayerIndex, UnitState } from '../../core/state.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { windowOwnUnit } from '../../rules/stratagems/targets.ts';
import type { Window } from '../../rules/windows.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield, unitsToSetUp } from '../../rules/battle/units.ts';
import { deploymentAnchors, placeForDeployment } from '../../rules/battle/placement.ts';
import { modelWeapons } from '../../rules/battle/shooting.ts';
import { hatchwayById, modelsAcrossHatchway } from '../../rules/battle/hatchways.ts';
import { unitDistance, unitSees } from '../../rules/battle/world.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { attackersAreBearer, bearerPartStands, moveOrFallBack, normalMoveChoices, withinObjectiveRange } from '../helpers.ts';
import { NO_OVERWATCH, registerVoidGhosts } from './boarding-shared.ts';

export const PROTECTOR_HOST = 'Protector Host';
export const PROTECTOR_HOST_RULES = ['Determined Defence'];

const RALLYING_CRY = 'Rallying Cry';
/** A GUARDIANS or DIRE AVENGERS unit (the rule's and most stratagems' units). */
const avengersOrGuardians = (u: UnitState) => hasKeyword(u, 'DIRE AVENGERS') || hasKeyword(u, 'GUARDIANS');

/**
 * Determined Defence: an attack that targets a GUARDIANS or DIRE AVENGERS unit of the army while that unit is
 * within range of an objective marker gets +1 to the armour save made against it (not the invulnerable one;
 * the attack sequence caps the improvement at +1 with cover).
 */
registerRule({
  name: 'Determined Defence', kind: 'detachment-rule',
  attack(plan, ctx, src) {
    if (src.role !== 'defender' || !avengersOrGuardians(ctx.target)) return;
    if (withinObjectiveRange(ctx.state, ctx.target)) plan.saveModifier += 1;
  },
});

// --- Stratagems ------------------------------------------------------------------------------

registerVoidGhosts(PROTECTOR_HOST);

/** The weapons SHURIKEN STORM names (the twin weapons and the Shuriken rifle are other weapons). */
export const SHURIKEN_STORM_WEAPONS: readonly string[] = ['Avenger shuriken catapult', 'Shuriken catapult', 'Shuriken pistol', 'Shuriken cannon'];

/** SHURIKEN STORM's effect: +1 Strength for those weapons of the unit this phase. */
registerRule({
  name: 'Shuriken Storm', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && SHURIKEN_STORM_WEAPONS.includes(ctx.weapon.name)) plan.strength += 1;
  },
});

registerStratagem({
  name: 'SHURIKEN STORM', cp: 1, category: 'Battle Tactic', source: PROTECTOR_HOST, turn: 'own', windows: ['shooting/unit-selected'],
  // offered as the unit is selected to shoot, when it carries one of the named weapons
  targets(g, w, p) {
    const u = windowOwnUnit(g, w, p);
    if (!u || !hasKeyword(u, 'AELDARI')) return [];
    return u.models.some((m) => m.alive && modelWeapons(g.state, u, m).some((n) => SHURIKEN_STORM_WEAPONS.includes(n))) ? [u] : [];
  },
  use(g, _w, p, u) { g.addEffect('Shuriken Storm', p, u.id, g.untilEndOfPhase()); },
});

/** The enemy unit that just opened the window's hatchway, and that hatchway's polygon, or null. */
function enemyAtHatchway(g: Game, w: Window, p: PlayerIndex): { enemy: UnitState; polygon: { x: number; y: number }[] } | null {
  const s = g.state;
  const enemy = w.unit ? s.units[w.unit] : null;
  const h = hatchwayById(s, w.data?.hatchway);
  if (!enemy || enemy.player === p || !onBattlefield(enemy) || !h) return null;
  return { enemy, polygon: h.polygon };
}

/**
 * RAPID AMBUSH: in the opponent's Movement phase, just after an enemy unit opened a hatchway, a DIRE AVENGERS
 * or GUARDIANS unit wholly on the other side of it from that unit: if the enemy unit is within 9" of it and
 * visible, a D6: 2-5 one mortal wound, 6 two; if it suffered any, the unit may make a Normal move of up to D6"
 * (the decision `rapid-ambush`). The engine offers it only where the enemy unit is within 9" and visible (it
 * would do nothing otherwise). It has no Overwatch to forbid (NO_OVERWATCH).
 */
registerStratagem({
  name: 'RAPID AMBUSH', cp: 1, category: 'Strategic Ploy', source: PROTECTOR_HOST, turn: 'opponent', windows: ['movement/hatchway-opened'],
  targets(g, w, p) {
    const at = enemyAtHatchway(g, w, p);
    if (!at) return [];
    return unitsOnBattlefield(g.state, p).filter((u) => avengersOrGuardians(u) && modelsAcrossHatchway(g.state, at.polygon, at.enemy.models, u.models)
      && unitDistance(g.state, u, at.enemy) <= 9 + 1e-6 && unitSees(g.state, u, at.enemy));
  },
  use(g, w, p, u) {
    const enemy = g.state.units[w.unit!];
    const [roll] = g.dice.d6(1, 'other', p, u.id, 'Rapid Ambush');
    const n = roll >= 6 ? 2 : roll >= 2 ? 1 : 0;
    if (n === 0) return;
    inflictMortalWounds(g, enemy, n, u.id);
    const options = normalMoveChoices(g.state, g.state.units[u.id]);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'rapid-ambush', player: p, prompt: `Rapid Ambush: where does ${u.name} move (up to D6")?`, options, context: { unit: u.id } });
    moveOrFallBack(g, g.state.units[u.id], option, false, () => g.dice.d6(1, 'other', p, u.id, 'Rapid Ambush move')[0]);
  },
});

registerStratagem({
  name: 'SHIELD OF BLADES', cp: 1, category: 'Strategic Ploy', source: PROTECTOR_HOST, turn: 'opponent', windows: [],
  missing: NO_OVERWATCH,
  targets: () => [],
  use: () => {},
});

// --- Enhancements ----------------------------------------------------------------------------

/** Grace of Khaine: the bearer's attacks re-roll Hit rolls of 1, Wound rolls of 1 and Damage rolls of 1. */
registerRule({
  name: 'Grace of Khaine', kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !attackersAreBearer(ctx.attacker, ctx.attackers, 'Grace of Khaine')) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones');
    plan.rerollDamageOnes = true;
  },
});

/**
 * Rallying Cry: when the bearer is set up in its zone in the Deploy Armies step, its player may set up two
 * friendly GUARDIANS units in that zone at once, before the other player sets up a unit (decision
 * 'rallying-cry', asked twice: `{ done: true }` first, then a set-up point for each such unit not yet set up,
 * as the `deploy` decision offers them). The engine's Boarding Actions zones are its Entry Zones.
 */
registerRule({
  name: RALLYING_CRY, kind: 'enhancement',
  unitDeployed(g, unit, zone) {
    if (!bearerPartStands(unit, RALLYING_CRY)) return;
    const anchors = deploymentAnchors(g.state, zone);
    for (let k = 0; k < 2; k++) {
      const guardians = unitsToSetUp(g.state, unit.player).filter((u) => hasKeyword(u, 'GUARDIANS'));
      if (guardians.length === 0) return;
      const options: ({ done: true } | { unit: string; x: number; y: number })[] = [{ done: true }];
      for (const u of guardians) for (const a of anchors) options.push({ unit: u.id, x: a.x, y: a.y });
      const { option } = g.decide({ kind: 'rallying-cry', player: unit.player, prompt: `${unit.name}: Rallying Cry: set up a GUARDIANS unit now? (or stop)`, options, context: { unit: unit.id } });
      if ('done' in option) return;
      placeForDeployment(g, g.state.units[option.unit], { x: option.x, y: option.y }, zone);
    }
  },
});
