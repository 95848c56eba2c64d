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
 *
 * The commentary resolves fighting on death before any other rule the model's destruction triggers (Deadly
 * Demise): its D6 is the first listener of a model's destruction, and for a model a melee attack destroyed
 * (which fights as soon as the attacking unit is done) its Deadly Demise and a transport's passengers wait
 * until it has fought (`awaitsItsFight`, then `resolveDestroyedModel` in ./transports.ts from where it then
 * stands). A model destroyed otherwise in the Fight phase (mortal wounds) may fight only after some later
 * unit's attacks, or not at all: its Deadly Demise is not kept waiting for that.
 */
import type { Game } from '../../core/game.ts';
import { forEachActiveRule, registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import { onModelDestroyed, type DestroyOptions } from '../damage.ts';

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
  // destroyed by a melee attack, it fights as soon as the attacking unit is done: its Deadly Demise and its
  // passengers' disembarking wait until then (noted only for a model that has them)
  const ds = s.datasheets[m.datasheet];
  const waiting = opts.melee === true && (!!ds.transport || ds.coreAbilities.some((a) => a.name === 'Deadly Demise'));
  const waits = waiting ? { waits: 1, ...(opts.deadlyDemiseOn !== undefined ? { deadlyDemiseOn: opts.deadlyDemiseOn } : {}) } : {};
  g.addEffect(FALLEN_WARRIOR, unit.player, unit.id, g.untilEndOfPhase(), { model: m.id, x: m.pos.x, y: m.pos.y, z: m.pos.z, ...waits });
}, 'fight-on-death');

/** Does this model, being destroyed, fight on death before the other rules its destruction triggers (Deadly Demise)? */
export function awaitsItsFight(state: GameState, unit: UnitState, m: ModelState): boolean {
  return state.effects.some((e) => e.kind === FALLEN_WARRIOR && e.unit === unit.id && e.params.model === m.id && e.params.waits === 1);
}

/** A fallen model and, when its other destruction rules wait until it has fought, their options. */
export interface FallenWarrior {
  /** the stand-in where it fell */
  model: ModelState;
  /** null: nothing waits (its Deadly Demise was rolled when it was destroyed) */
  waiting: DestroyOptions | null;
}

/** The fallen models waiting to fight, by unit in unit order, their effects removed: stand-ins where each stood. */
export function takeFallenWarriors(g: Game): { unit: UnitState; fallen: FallenWarrior[] }[] {
  const s = g.state;
  const mine = s.effects.filter((e) => e.kind === FALLEN_WARRIOR);
  if (mine.length === 0) return [];
  // the unit that holds each fallen model now: the one it fell in, or, when that Attached unit has split
  // since (its other part destroyed by the same attacks), the unit the model left with
  const holds = (id: string, model: unknown) => s.units[id].models.some((x) => x.id === model);
  const holder = new Map(mine.map((e) => [e, e.unit !== null && holds(e.unit, e.params.model) ? e.unit : (s.unitOrder.find((id) => s.units[id].player === e.player && holds(id, e.params.model)) ?? null)]));
  const out: { unit: UnitState; fallen: FallenWarrior[] }[] = [];
  for (const id of s.unitOrder) {
    const effects = mine.filter((e) => holder.get(e) === id);
    if (effects.length === 0) continue;
    const unit = s.units[id];
    const fallen: FallenWarrior[] = [];
    for (const e of effects) {
      const m = unit.models.find((x) => x.id === e.params.model);
      const p = e.params as { x: number; y: number; z: number; waits?: number; deadlyDemiseOn?: number };
      const waiting = p.waits === 1 ? { melee: true, ...(p.deadlyDemiseOn !== undefined ? { deadlyDemiseOn: p.deadlyDemiseOn } : {}) } : null;
      if (m) fallen.push({ model: { ...m, alive: true, wounds: 1, pos: { x: p.x, y: p.y, z: p.z } }, waiting });
    }
    out.push({ unit, fallen });
  }
  for (const e of mine) g.removeEffect(e.id);
  return out;
}
