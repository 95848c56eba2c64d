/**
 * Aeldari Enhancements the engine plays: the Armoured Warhost's four. Not in RULES.md: written from the
 * data export's Enhancements, in the engine's words. Each acts from its bearer's models (the component of
 * the unit that carries it), so they work whether the bearer leads a unit or not.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, UnitState } from '../../core/state.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { inObjectiveRange } from '../../geometry/ranges.ts';
import { characteristic, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { modelBody } from '../../rules/battle/world.ts';
import { gainExtraCp } from '../../rules/battle/command-points.ts';
import { transportOf } from '../../rules/battle/transports.ts';
import { enhancementBearers as bearers, regainD3Wounds } from '../helpers.ts';
import { splitOffModel } from '../../rules/attack-context.ts';

/** Friendly AELDARI VEHICLE models within `range` inches of a bearer model (horizontally, base to base). */
function vehicleModelsNear(state: GameState, unit: UnitState, from: readonly ModelState[], range: number): { unit: UnitState; model: ModelState }[] {
  const out: { unit: UnitState; model: ModelState }[] = [];
  for (const u of unitsOnBattlefield(state, unit.player)) {
    if (!u.keywords.includes('VEHICLE') || !u.keywords.includes('AELDARI')) continue;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      const b = modelBody(state, m);
      if (from.some((x) => horizontalDistance(modelBody(state, x), b) <= range + 1e-6)) out.push({ unit: u, model: m });
    }
  }
  return out;
}

/**
 * Guiding Presence (PSYKER bearer): at the start of its player's Shooting phase, one friendly AELDARI
 * VEHICLE model within 9" of the bearer adds 1 to its Hit rolls until the end of the phase. The entry is
 * also the effect on that model's unit (params.model).
 */
registerRule({
  name: 'Guiding Presence', kind: 'enhancement',
  phaseStart(g, unit, phase) {
    if (phase !== 'shooting' || g.state.turn !== unit.player) return;
    const near = vehicleModelsNear(g.state, unit, bearers(unit, 'Guiding Presence'), 9);
    if (near.length === 0) return;
    const { option } = g.decide({
      kind: 'guiding-presence', player: unit.player, prompt: `${unit.name}: Guiding Presence: which VEHICLE model adds 1 to its Hit rolls?`,
      options: near.map((x) => x.model.id), context: { unit: unit.id },
    });
    const chosen = near.find((x) => x.model.id === option)!;
    g.addEffect('Guiding Presence', unit.player, chosen.unit.id, g.untilEndOfPhase(), { model: option });
  },
  // the chosen model attacks apart from the rest of its unit (War Walkers, Vypers), so its +1 is played
  splitAttackers: (_s, _u, _weapon, models, src) => splitOffModel(models, src.effect?.params.model),
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker') return;
    const model = src.effect.params.model;
    if (ctx.attackers.length > 0 && ctx.attackers.every((m) => m.id === model)) plan.hitModifier += 1;
  },
});

/**
 * Harmonisation Matrix: in its player's Command phase, a bearer (or the Transport it is embarked within)
 * within range of an objective marker that player controls rolls a D6: on a 3+ they gain 1CP.
 */
registerRule({
  name: 'Harmonisation Matrix', kind: 'enhancement', phaseHooksWhileEmbarked: true,
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const transport = unit.location === 'embarked' ? transportOf(s, unit) : null;
    if (unit.location === 'embarked' && transport?.location !== 'battlefield') return;
    const from = transport ? transport.models.filter((m) => m.alive && m.pos) : bearers(unit, 'Harmonisation Matrix');
    const held = s.objectives.some((o) => o.controller === unit.player && from.some((m) => inObjectiveRange(modelBody(s, m), { id: o.id, pos: o.pos })));
    if (!held) return;
    const [d6] = g.dice.roll(1, 6, 'other', unit.player, unit.id, 'Harmonisation Matrix (3+: 1CP)');
    if (d6 >= 3) gainExtraCp(g, unit.player, 'Harmonisation Matrix');
  },
});

/**
 * Spirit Stone of Raelyth (PSYKER bearer): in its player's Command phase, one friendly AELDARI VEHICLE model
 * within 3" of the bearer regains up to D3 lost wounds; while the bearer is within 3" of such a vehicle it has
 * Lone Operative (not while it leads a unit: an Attached unit's models have no Lone Operative).
 */
registerRule({
  name: 'Spirit Stone of Raelyth', kind: 'enhancement',
  loneOperative({ state, unit }) {
    return unit.components.length === 1 && vehicleModelsNear(state, unit, bearers(unit, 'Spirit Stone of Raelyth'), 3).length > 0;
  },
  escortedBy: (f, unit) => unit.components.length === 1 && f.keywords.includes('VEHICLE') && f.keywords.includes('AELDARI'),
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const lost = (x: { unit: UnitState; model: ModelState }) => characteristic(s, x.unit, x.model, 'W') - x.model.wounds;
    // the models that lost wounds, the most lost first
    const near = vehicleModelsNear(s, unit, bearers(unit, 'Spirit Stone of Raelyth'), 3).filter((x) => lost(x) > 0).sort((a, b) => lost(b) - lost(a));
    if (near.length === 0) return;
    const { option } = g.decide({
      kind: 'spirit-stone', player: unit.player, prompt: `${unit.name}: Spirit Stone of Raelyth: which VEHICLE model regains wounds?`,
      options: near.map((x) => x.model.id), context: { unit: unit.id },
    });
    const chosen = near.find((x) => x.model.id === option)!;
    regainD3Wounds(g, unit, chosen.unit, chosen.model, 'Spirit Stone of Raelyth (D3 wounds)');
  },
});

/**
 * Guileful Strategist: after both armies are deployed, up to three AELDARI VEHICLE units of the army are set
 * up again, or placed in Strategic Reserves whatever is there already (src/rules/battle/redeploy.ts).
 */
registerRule({
  name: 'Guileful Strategist', kind: 'enhancement',
  redeploy: { max: 3, eligible: (_bearer, u) => u.keywords.includes('AELDARI') && u.keywords.includes('VEHICLE') },
});
