/**
 * Fighting on death (TO THEIR FINAL BREATH, HEROES' FALL, PARTING THE VEIL: effects with `Rule.fightOnDeath`).
 * Each time a model of such a unit is destroyed in the Fight phase by an enemy unit, if it has not fought this
 * phase, its player rolls a D6 (plus the rule's modifier; none when the modifier is 3 or more): on 4+ the model
 * fights once the attacking unit has finished its attacks, then is removed.
 *
 * How the engine plays it: the model is destroyed at once (its model-destroyed event: whatever counts
 * destroyed models and units counts it then, and no later attack can be allocated to it); where it stood is
 * kept in a "Fallen warrior" effect. After the attacking unit's attacks (src/rules/battle/fight.ts), each such
 * model fights from there with its melee weapons, as a stand-in: a copy of the model, never written to the
 * state. It follows the fight sequence (the Rules Commentary's "Fight on Death"): it may Pile In, keeping
 * Unit Coherency (an event 'fallen-piled-in' records where it then stands), the defender may answer its choice
 * of targets (the stratagem window after an enemy unit's targets), and the rules acting after a unit's attacks
 * act. It makes no Consolidation move (the commentary: it is removed once it has fought) and takes no
 * Hazardous test (nothing of it is left to destroy).
 */
import type { Game } from '../../core/game.ts';
import { forEachActiveRule, registerRule } from '../../core/rules-registry.ts';
import type { ModelState, UnitState } from '../../core/state.ts';
import { onModelDestroyed } from '../damage.ts';

/** Effect kind: a destroyed model that fights before it is removed (params: model, x, y, z). */
export const FALLEN_WARRIOR = 'Fallen warrior';
registerRule({ name: FALLEN_WARRIOR, kind: 'effect' });

/** The best modifier the unit's rules give a destroyed model's D6 to fight on, or null when none lets it. */
export function fightOnDeathModifier(g: Game, unit: UnitState, melee = true): number | null {
  let best: number | null = null;
  forEachActiveRule(g.state, unit, 'defender', (r, src) => {
    const x = r.fightOnDeath?.({ state: g.state, unit, melee }, src) ?? null;
    if (x !== null && (best === null || x > best)) best = x;
  });
  return best;
}

onModelDestroyed((g, unit, m, by, opts) => {
  const s = g.state;
  if (opts.triggers === false || s.phase !== 'fight' || !m.pos) return;
  // destroyed by an enemy unit's attacks or abilities (not its own Hazardous test: its unit is fighting then)
  if (by === null || s.units[by]?.player === unit.player) return;
  // its unit has fought this phase, and so has the model
  if (unit.flags.fought) return;
  const modifier = fightOnDeathModifier(g, unit, opts.melee === true);
  if (modifier === null) return;
  // a modifier of 3 or more cannot fail (PARTING THE VEIL: the model fights, no roll): no die is rolled
  if (modifier < 3) {
    const [roll] = g.dice.d6(1, 'other', unit.player, unit.id, 'fight on death');
    if (roll + modifier < 4) return;
  }
  g.addEffect(FALLEN_WARRIOR, unit.player, unit.id, g.untilEndOfPhase(), { model: m.id, x: m.pos.x, y: m.pos.y, z: m.pos.z });
});

/** The fallen models waiting to fight, by unit in unit order, their effects removed: stand-ins where each stood. */
export function takeFallenWarriors(g: Game): { unit: UnitState; models: ModelState[] }[] {
  const s = g.state;
  const mine = s.effects.filter((e) => e.kind === FALLEN_WARRIOR);
  if (mine.length === 0) return [];
  const out: { unit: UnitState; models: ModelState[] }[] = [];
  for (const id of s.unitOrder) {
    const effects = mine.filter((e) => e.unit === id);
    if (effects.length === 0) continue;
    const unit = s.units[id];
    const models: ModelState[] = [];
    for (const e of effects) {
      const m = unit.models.find((x) => x.id === e.params.model);
      const p = e.params as { x: number; y: number; z: number };
      if (m) models.push({ ...m, alive: true, wounds: 1, pos: { x: p.x, y: p.y, z: p.z } });
    }
    out.push({ unit, models });
  }
  for (const e of mine) g.removeEffect(e.id);
  return out;
}
