/**
 * T'au Empire datasheet abilities of Kroot units (the Kroot Flesh Shaper, Kroot Hounds), one registry
 * entry each. Written from the datasheets of the data export, in the engine's words.
 */
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, UnitState } from '../../core/state.ts';
import { isWithin } from '../../geometry/distance.ts';
import { FEEL_NO_PAIN_MORTAL, onUnitDestroyed } from '../../rules/damage.ts';
import { unitsOnBattlefield } from '../../rules/battle/units.ts';
import { modelBody, unitDistance } from '../../rules/battle/world.ts';
import { leadingModel } from '../helpers.ts';

// --- Kroot Flesh Shaper ------------------------------------------------------------------------

/** Ritual Butchery: while the Flesh Shaper leads a unit, its models' melee weapons have SUSTAINED HITS 1. */
registerRule({
  name: 'Ritual Butchery', kind: 'datasheet-ability', leaderAbility: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !leadingModel(ctx.state, ctx.attacker, 'FLESH SHAPER')) return;
    plan.sustainedHits = Math.max(plan.sustainedHits, 1);
  },
});

const RITES = 'Rites of Feasting';
/** Effect on the unit once it has feasted: its models have Feel No Pain 5+ for the rest of the battle. */
const FEASTED = 'Rites of Feasting (feasted)';

/**
 * Rites of Feasting: while the Flesh Shaper leads a unit, its models have Feel No Pain 5+ once the unit
 * has destroyed an enemy unit in a Fight phase (while he led it), else 6+. The 5+ is the unit's until
 * the end of the battle, read as outliving the Flesh Shaper: the FEASTED effect gives it against attacks
 * (the plan's Feel No Pain) and the core Feel No Pain against mortal wounds effect against the others.
 */
registerRule({
  name: RITES, kind: 'datasheet-ability', leaderAbility: true,
  feelNoPain(ctx) {
    if (!leadingModel(ctx.state, ctx.unit, 'FLESH SHAPER')) return null;
    return feasted(ctx.state, ctx.unit) ? 5 : 6;
  },
});

registerRule({
  name: FEASTED, kind: 'effect',
  attack(plan, _ctx, src) {
    if (src.role === 'defender' && src.effect) plan.feelNoPain = plan.feelNoPain === null ? 5 : Math.min(plan.feelNoPain, 5);
  },
});

function feasted(state: GameState, unit: UnitState): boolean {
  for (const e of state.effects) if (e.kind === FEASTED && e.unit === unit.id) return true;
  return false;
}

// a unit (or one part of an Attached unit) destroyed by the attacks of a unit the Flesh Shaper leads, in a Fight phase
onUnitDestroyed((g, unit, _component, by) => {
  const s = g.state;
  if (by === null || s.phase !== 'fight') return;
  const killer = s.units[by];
  if (!killer || killer.player === unit.player || !killer.abilities.includes(RITES) || feasted(s, killer)) return;
  if (!leadingModel(s, killer, 'FLESH SHAPER')) return;
  g.addEffect(FEASTED, killer.player, killer.id, { at: 'end-of-battle' });
  g.addEffect(FEEL_NO_PAIN_MORTAL, killer.player, killer.id, { at: 'end-of-battle' }, { x: 5 });
});

// --- Kroot Hounds ------------------------------------------------------------------------------

/** Hunting Hounds: while the unit is within 12" of a friendly KROOT CHARACTER model, its models have OC 1. */
registerRule({
  name: 'Hunting Hounds', kind: 'datasheet-ability',
  characteristic(which, v, ctx) {
    if (which !== 'OC' || !nearKrootCharacter(ctx.state, ctx.unit, 12)) return v;
    return 1;
  },
});

/** Is a model of the unit within `range` of an alive KROOT CHARACTER model of a friendly unit on the battlefield? */
function nearKrootCharacter(state: GameState, unit: UnitState, range: number): boolean {
  for (const other of unitsOnBattlefield(state, unit.player)) {
    for (const k of other.models) {
      if (!k.alive || !k.pos) continue;
      const kw = state.datasheets[k.datasheet].keywords;
      if (!kw.includes('KROOT') || !kw.includes('CHARACTER')) continue;
      const body = modelBody(state, k);
      for (const m of unit.models) if (m.alive && m.pos && isWithin(body, modelBody(state, m), range)) return true;
    }
  }
  return false;
}

const LOPING_POUNCE = 'Loping Pounce';

/**
 * Loping Pounce: at the start of its player's Command phase, a unit within 6" of a friendly KROOT
 * INFANTRY unit may declare a charge after Advancing until the end of the turn. The entry is also the
 * effect that allows it.
 */
registerRule({
  name: LOPING_POUNCE, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const near = unitsOnBattlefield(s, unit.player).some((u) =>
      u.id !== unit.id && u.keywords.includes('KROOT') && u.keywords.includes('INFANTRY') && unitDistance(s, unit, u) <= 6 + 1e-6);
    if (near) g.addEffect(LOPING_POUNCE, unit.player, unit.id, g.untilEndOfTurn());
  },
  allows: (perm, _ctx, src) => perm === 'charge-after-advance' && src.effect !== null,
});

// --- Kroot Trail Shaper ------------------------------------------------------------------------

/**
 * Kroot Ambush: after both armies are deployed, the Trail Shaper's unit and one other friendly KROOT unit
 * may be set up again, or placed in Strategic Reserves whatever is there already (src/rules/battle/redeploy.ts).
 */
registerRule({
  name: 'Kroot Ambush', kind: 'datasheet-ability',
  redeploy: {
    max: 2,
    eligible: (bearer, u, chosen) => u.id === bearer.id || (u.keywords.includes('KROOT') && chosen.every((c) => c.id === bearer.id)),
  },
});
