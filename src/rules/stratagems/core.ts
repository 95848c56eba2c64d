/**
 * The ten Core Stratagems. Each is one registry entry: cost, category, window, targets, effect.
 * Effects that last are effects in the state (with their rule entry below); the rest act at once.
 */
import type { Game } from '../../core/game.ts';
import { abilityRulesWith, anyUnitHas, forbids, registerRule, type Rule } from '../../core/rules-registry.ts';
import { opponent, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { horizontalDistance } from '../../geometry/distance.ts';
import { inflictMortalWounds } from '../damage.ts';
import { registerRollReaction, type RollInfo } from '../roll-window.ts';
import { rollOutcome } from '../attack-plan.ts';
import { registerStratagem, stratagemsOf } from './registry.ts';
import { stratagemSurcharge, stratagemSurchargePaid, stratagemTargeted, stratagemUsed, type Window } from '../windows.ts';
import { PASSES_BATTLE_SHOCK } from '../battle/command.ts';
import { arrive, canArriveAt, inReserves, reinforcementOptions } from '../battle/reserves.ts';
import { canShoot, shootWithUnit } from '../battle/shooting.ts';
import { canCharge, declareCharge } from '../battle/charge.ts';
import { FIGHTS_NEXT } from '../battle/fight.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield, modelHasKeyword } from '../battle/units.ts';
import { isEngaged, modelBody, unitDistance, unitSees, unitsInEngagement } from '../battle/world.ts';
import { grantedStealth } from '../core-abilities.ts';
import { FIRE_OVERWATCH_EFFECT } from '../hazardous.ts';
import { splitOffModel } from '../attack-context.ts';

export { FIRE_OVERWATCH_EFFECT };

const CORE = 'Core';

function own(g: Game, w: Window, player: PlayerIndex): UnitState | null {
  const u = w.unit ? g.state.units[w.unit] : null;
  return u && u.player === player ? u : null;
}

function enemy(g: Game, w: Window, player: PlayerIndex): UnitState | null {
  const u = w.unit ? g.state.units[w.unit] : null;
  return u && u.player !== player ? u : null;
}

/**
 * The player's units an enemy unit just selected as targets (GO TO GROUND, SMOKESCREEN: in the opponent's
 * Shooting phase only, `phases`, not when a rule has it shoot in another phase: FIRING LINE in the Fight phase).
 */
function shotAt(g: Game, w: Window, player: PlayerIndex): UnitState[] {
  if (!enemy(g, w, player)) return [];
  return w.targets.map((id) => g.state.units[id]).filter((u) => u.player === player);
}

// --- effects the stratagems leave in the state ------------------------------------------------

registerRule({
  name: 'Go to Ground', kind: 'effect',
  attack: (plan, ctx, src) => {
    if (src.role !== 'defender' || ctx.melee) return;
    plan.cover = true;
    plan.invulnerable = plan.invulnerable === null ? 6 : Math.min(plan.invulnerable, 6);
  },
});

registerRule({
  name: 'Smokescreen', kind: 'effect',
  attack: (plan, ctx, src) => {
    if (src.role !== 'defender' || ctx.melee) return;
    plan.cover = true;
    grantedStealth(plan, ctx);
  },
});

/** Fire Overwatch's effect on the shooting unit: only an unmodified Hit roll of 6 hits, whatever the BS or modifiers. */
registerRule({
  name: FIRE_OVERWATCH_EFFECT, kind: 'effect',
  attack: (plan, ctx, src) => {
    if (src.role !== 'attacker' || ctx.melee) return;
    // the plan builder folds it in last: a rule that restores or improves the BS (Inescapable Accuracy) cannot
    // undo it; a rule that sets another roll for Overwatch (Protector of the Paths: 5+) is kept
    if (plan.unmodifiedHitOn === null) plan.unmodifiedHitOn = 6;
  },
});

/**
 * Epic Challenge: the CHARACTER model's melee attacks have PRECISION; that model's attacks form their own group
 * (another model of its unit with the same weapon, a second CHARACTER, gets nothing).
 */
registerRule({
  name: 'Epic Challenge', kind: 'effect',
  splitAttackers: (_s, _u, _w, models, src) => splitOffModel(models, src.effect?.params.model),
  attack: (plan, ctx, src) => {
    if (src.role !== 'attacker' || !ctx.melee) return;
    if (ctx.attackers.length > 0 && ctx.attackers.every((m) => m.id === src.effect?.params.model)) plan.precision = true;
  },
});

// --- the stratagems --------------------------------------------------------------------------

registerStratagem({
  name: 'INSANE BRAVERY', cp: 1, category: 'Epic Deed', source: CORE, turn: 'own', oncePerBattle: true, allowBattleShocked: true,
  windows: ['command/before-battle-shock-test'],
  // only in the Battle-shock step of your Command phase: not a test another rule forces later in the phase
  // (PRESENTIMENT OF DREAD) or in another phase (Tormentors)
  targets: (g, w, p) => { const u = own(g, w, p); return u && w.data?.battleShockStep === true ? [u] : []; },
  use: (g, _w, p, u) => { g.addEffect(PASSES_BATTLE_SHOCK, p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'RAPID INGRESS', cp: 1, category: 'Strategic Ploy', source: CORE, turn: 'opponent',
  windows: ['phase/end'],
  targets: (g, w, p) => {
    // end of the opponent's Movement phase, and never in a battle round the unit could not normally arrive in (in
    // battle round 1 only a unit a rule lets arrive then: Ride the Wind, Transponder Lock Module)
    if (w.data?.phase !== 'movement') return [];
    // only a unit with somewhere it can be set up: the CP is not spent on an arrival that cannot happen
    return g.state.unitOrder.map((id) => g.state.units[id]).filter((u) => u.player === p && inReserves(u) && !u.flags.arrived && reinforcementOptions(g, u).some((o) => canArriveAt(g.state, u, o)));
  },
  use: (g, _w, p, u) => {
    const options = reinforcementOptions(g, u).filter((o) => canArriveAt(g.state, u, o));
    const { option } = g.decide({ kind: 'rapid-ingress', player: p, prompt: `Rapid Ingress: where does ${u.name} arrive?`, options });
    arrive(g, u, option);
  },
});

registerStratagem({
  name: 'GO TO GROUND', cp: 1, category: 'Battle Tactic', source: CORE, turn: 'opponent',
  windows: ['shooting/after-enemy-targets'], phases: ['shooting'],
  targets: (g, w, p) => shotAt(g, w, p).filter((u) => hasKeyword(u, 'INFANTRY')),
  use: (g, _w, p, u) => { g.addEffect('Go to Ground', p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'SMOKESCREEN', cp: 1, category: 'Wargear', source: CORE, turn: 'opponent',
  windows: ['shooting/after-enemy-targets'], phases: ['shooting'],
  targets: (g, w, p) => shotAt(g, w, p).filter((u) => hasKeyword(u, 'SMOKE')),
  use: (g, _w, p, u) => { g.addEffect('Smokescreen', p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'FIRE OVERWATCH', cp: 1, category: 'Strategic Ploy', source: CORE, turn: 'opponent', oncePerTurn: true,
  // an enemy unit set up, starting or ending a Normal, Advance or Fall Back move, or declaring a charge
  windows: ['movement/enemy-move-started', 'movement/after-enemy-move', 'charge/after-enemy-charge-declared'],
  targets: (g, w, p) => {
    // only in the opponent's Movement or Charge phase (a move some rule grants in another phase does not open it)
    if (g.state.phase !== 'movement' && g.state.phase !== 'charge') return [];
    const e = enemy(g, w, p);
    // a rule on the enemy unit may forbid shooting at it this way (Flitting Shadows)
    if (!e || !onBattlefield(e) || forbids(g.state, e, 'fire-overwatch-at')) return [];
    // "would be eligible to shoot if it were your Shooting phase": canShoot applies the Engagement Range rules
    // (Big Guns Never Tire, Pistols); and it shoots only "if that enemy unit is visible to your unit", whatever
    // its INDIRECT FIRE weapons could otherwise target. A unit that shot earlier in this turn (a rule made it
    // shoot in the opponent's Shooting phase: DEATH ANSWERS DEATH, Drone Escort) was selected to shoot in that
    // phase, not in the Shooting phase the rule imagines: it may (`again`)
    return unitsOnBattlefield(g.state, p).filter((u) => !hasKeyword(u, 'TITANIC') && unitDistance(g.state, u, e) <= 24 + 1e-6 && unitSees(g.state, u, e) && canShoot(g, u, e.id, true));
  },
  use: (g, w, p, u) => {
    g.addEffect(FIRE_OVERWATCH_EFFECT, p, u.id, g.untilEndOfPhase());
    shootWithUnit(g, u, { onlyTarget: w.unit! });
    // the unit's abilities that add to its Overwatch (Skyfire)
    const fresh = g.state.units[u.id];
    const moment = w.name === 'movement/enemy-move-started' ? 'move-started' : w.name === 'movement/after-enemy-move' ? 'move-ended' : 'charge-declared';
    if (onBattlefield(fresh)) for (const r of abilityRulesWith(fresh, 'overwatchFired')) r.overwatchFired!(g, g.state.units[u.id], g.state.units[w.unit!], moment);
  },
});

registerStratagem({
  name: 'TANK SHOCK', cp: 1, category: 'Strategic Ploy', source: CORE, turn: 'own',
  windows: ['charge/after-own-charge-move'],
  targets: (g, w, p) => {
    const u = own(g, w, p);
    return u && hasKeyword(u, 'VEHICLE') && unitsOnBattlefield(g.state, opponent(p)).some((e) => unitsInEngagement(g.state, u, e)) ? [u] : [];
  },
  use: (g, w, p, u) => {
    const s = g.state;
    const engaged = unitsOnBattlefield(s, opponent(p)).filter((e) => unitsInEngagement(s, u, e));
    const targets = w.targets.filter((t) => engaged.some((e) => e.id === t));
    const pool = targets.length ? targets : engaged.map((e) => e.id);
    const { option } = g.decide({ kind: 'tank-shock-target', player: p, prompt: 'Tank Shock: which enemy unit?', options: pool, context: { unit: u.id } });
    const victim = s.units[option];
    // the VEHICLE model within Engagement Range with the best Toughness
    let toughness = 0;
    for (const m of u.models) {
      if (!m.alive || !m.pos) continue;
      const near = victim.models.some((v) => v.alive && v.pos && horizontalDistance(modelBody(s, m), modelBody(s, v)) <= 1 + 1e-6);
      if (near) toughness = Math.max(toughness, s.datasheets[m.datasheet].models[m.profile].toughness);
    }
    if (toughness === 0) return;
    const rolls = g.dice.d6(toughness, 'mortal-wounds', p, u.id, 'Tank Shock');
    const mortal = Math.min(6, rolls.filter((v) => v >= 5).length);
    if (mortal > 0) inflictMortalWounds(g, victim, mortal, u.id);
  },
});

registerStratagem({
  name: 'HEROIC INTERVENTION', cp: 1, category: 'Strategic Ploy', source: CORE, turn: 'opponent',
  windows: ['charge/after-enemy-charge-move'],
  targets: (g, w, p) => {
    const e = enemy(g, w, p);
    if (!e || !onBattlefield(e)) return [];
    return unitsOnBattlefield(g.state, p).filter((u) =>
      (!hasKeyword(u, 'VEHICLE') || hasKeyword(u, 'WALKER')) && canCharge(g, u) && unitDistance(g.state, u, e) <= 6 + 1e-6);
  },
  use: (g, w, _p, u) => { declareCharge(g, u, { targets: [w.unit!], chargeBonus: false }); },
});

registerStratagem({
  name: 'COUNTER-OFFENSIVE', cp: 2, category: 'Strategic Ploy', source: CORE, turn: 'either',
  windows: ['fight/after-enemy-fought'],
  targets: (g, w, p) => (enemy(g, w, p) ? unitsOnBattlefield(g.state, p).filter((u) => !u.flags.fought && isEngaged(g.state, u)) : []),
  use: (g, _w, p, u) => { g.addEffect(FIGHTS_NEXT, p, u.id, g.untilEndOfPhase()); },
});

registerStratagem({
  name: 'EPIC CHALLENGE', cp: 1, category: 'Epic Deed', source: CORE, turn: 'either',
  windows: ['fight/unit-selected'],
  targets: (g, w, p) => {
    const u = own(g, w, p);
    if (!u || !hasKeyword(u, 'CHARACTER')) return [];
    // the CHARACTER unit must be within Engagement Range of an Attached unit
    const s = g.state;
    const nearAttached = unitsOnBattlefield(s, opponent(p)).some((e) => e.components.length > 1 && unitsInEngagement(s, u, e));
    return nearAttached ? [u] : [];
  },
  // TARGET "one CHARACTER model in your unit": the player's choice when the unit has two (BODYGUARD's two Leaders)
  use: (g, _w, p, u) => {
    const s = g.state;
    const characters = u.models.filter((m) => m.alive && modelHasKeyword(s, m, 'CHARACTER'));
    if (characters.length === 0) return;
    const options = characters.map((m) => ({ model: m.id, name: s.datasheets[m.datasheet].name }));
    const model = options.length === 1 ? options[0].model : g.decide({
      kind: 'epic-challenge-model', player: p, prompt: `${u.name}: EPIC CHALLENGE - which CHARACTER model's melee attacks have PRECISION?`, options, context: { unit: u.id },
    }).option.model;
    g.addEffect('Epic Challenge', p, u.id, g.untilEndOfPhase(), { model });
  },
});

/**
 * COMMAND RE-ROLL: just after a roll for one of your units (Hit, Wound, Damage, saving throw, number
 * of attacks, Advance, Charge, Desperate Escape, Hazardous), re-roll it. With fast dice rolling, one
 * die of the roll is re-rolled; a roll made by adding dice (2D6 Charge) is re-rolled whole; of the Damage
 * or Attacks rolls of several attacks or models made at once, one roll (all of its dice) is re-rolled.
 */
const commandReroll = registerStratagem({
  name: 'COMMAND RE-ROLL', cp: 1, category: 'Battle Tactic', source: CORE, turn: 'either',
  windows: [],
  targets: () => [],
  use: () => {},
});

/** The rolls COMMAND RE-ROLL can re-roll (Core and Boarding Actions name the same ones; not the Battle-shock test). */
export const REROLLABLE: ReadonlySet<string> = new Set(['hit', 'wound', 'damage', 'save', 'attacks', 'advance', 'charge', 'desperate-escape', 'hazardous']);
const SUMMED = new Set(['advance', 'charge']);

export function commandRerollReaction(name: string, source: string, purposes: ReadonlySet<string>) {
  return (g: Game, roll: RollInfo): { values: number[]; rerolled: number[] } | null => {
    if (!purposes.has(roll.purpose) || roll.unit === null || roll.noReroll) return null;
    const p = roll.player;
    const st = g.state;
    // without CP only a free use is left (Gift of Foresight): the usual case asks nothing more
    if (st.players[p].cp < 1 && !anyUnitHas(st, 'freeCommandReroll')) return null;
    const strat = stratagemsOf(g, p).find((s) => s.name === name && s.source === source);
    if (!strat || stratagemUsed(g, p, strat)) return null;
    const unit = st.units[roll.unit];
    if (!unit || unit.battleShocked || unit.player !== p) return null;
    const free = freeRerollRule(g, unit);
    // an enemy ability may raise the price (Lord of Deceit)
    const cost = (free ? 0 : strat.cp) + stratagemSurcharge(g, unit, strat);
    if (st.players[p].cp < cost) return null;
    const summed = SUMMED.has(roll.purpose) || roll.test === null;
    // Damage and Attacks dice of several attacks or models rolled at once are several rolls: one of them
    // is re-rolled (all of its dice), as when each is rolled on its own
    const per = summed ? roll.dicePerRoll ?? roll.values.length : 1;
    const several = summed && per < roll.values.length;
    const candidates: number[] = [];
    // a die re-rolled already, or a Fate die standing for one (never re-rolled), is not offered
    const done = (i: number) => roll.rerolled.includes(i) || g.dice.isFixed(roll.values, i);
    if (several) {
      for (let start = 0; start < roll.values.length; start += per) {
        let fresh = true;
        for (let k = start; k < start + per; k++) if (done(k)) fresh = false;
        if (fresh) candidates.push(start);
      }
    } else if (summed) {
      if (roll.rerolled.length === 0 && !g.dice.hasFixed(roll.values)) candidates.push(-1);
    } else {
      // failed dice; and, where a Critical does more than a success, successful dice that are not Criticals
      // (the stratagem re-rolls any Hit or Wound roll, not only failed ones)
      const t = roll.test!;
      const most = roll.criticalMatters ? 1 : 0;
      roll.values.forEach((v, i) => {
        if (!done(i) && rollOutcome(v, t.needed, t.modifier, t.criticalOn) <= most) candidates.push(i);
      });
    }
    if (candidates.length === 0) return null;
    // offer the first die (or roll) of each distinct value (fast dice rolling: any one is the same)
    const totalOf = (start: number) => {
      let v = 0;
      for (let k = start; k < start + per; k++) v += roll.values[k];
      return v;
    };
    const seen = new Set<number>();
    const options: ({ pass: true } | { stratagem: string; reroll: number; value: number | null; cp?: number; discount?: string })[] = [{ pass: true }];
    for (const i of candidates) {
      const v = i < 0 ? null : several ? totalOf(i) : roll.values[i];
      if (v !== null && seen.has(v)) continue;
      if (v !== null) seen.add(v);
      options.push({ stratagem: name, reroll: i, value: v, ...(free ? { cp: cost, discount: free.name } : {}) });
    }
    const { option } = g.decide({ kind: 'stratagem', player: p, prompt: `${name}: re-roll this ${roll.purpose} roll (${roll.values.join(',')})?`, options, context: { roll: { purpose: roll.purpose, values: [...roll.values], target: roll.target ?? null, test: roll.test } } });
    if ('pass' in option) return null;
    stratagemSurchargePaid(g, unit, strat);
    free?.freeCommandRerollUsed?.(g, unit);
    g.emit({ type: 'cp', player: p, delta: -cost, reason: name });
    g.emit({ type: 'stratagem-used', player: p, name, cp: cost, unit: unit.id, round: st.round, turn: st.turn, phase: st.phase });
    stratagemTargeted(g, unit, name);
    const idx = option.reroll < 0 ? roll.values.map((_, i) => i) : several ? Array.from({ length: per }, (_, k) => option.reroll + k) : [option.reroll];
    const values = g.dice.reroll(roll.values, idx, roll.sides, roll.purpose, p, roll.unit, name);
    return { values, rerolled: [...roll.rerolled, ...idx] };
  };
}

/** The ability of the unit that lets COMMAND RE-ROLL be used on it for 0CP now (Rule.freeCommandReroll), or null. */
function freeRerollRule(g: Game, unit: UnitState): Rule | null {
  if (!anyUnitHas(g.state, 'freeCommandReroll')) return null;
  for (const r of abilityRulesWith(unit, 'freeCommandReroll')) if (r.freeCommandReroll!({ state: g.state, unit })) return r;
  return null;
}

registerRollReaction({ name: `${CORE}::COMMAND RE-ROLL`, react: commandRerollReaction(commandReroll.name, CORE, REROLLABLE) });
