/**
 * T'au Empire datasheet abilities of battlesuits and vehicles, one registry entry each (by the
 * ability's name on the datasheet).
 */
import '../core-first.ts';
import { registerRule, type Rule } from '../../core/rules-registry.ts';
import { grantRerollOne, widerReroll } from '../../rules/attack-plan.ts';
import { battleShockTest } from '../../rules/battle/command.ts';
import { unitsOnBattlefield } from '../../rules/battle/units.ts';
import { unitDistance } from '../../rules/battle/world.ts';
import { opponent, type GameState, type UnitState } from '../../core/state.ts';
import { diceExprMean } from '../../core/dice-expr.ts';
import { WALKER, attackersCarry, carries, datasheetHas, isMonsterOrVehicle, modelWith, untilStartOfNextTurn, wargearBearers } from '../helpers.ts';

/** Devilfish's Rapid Deployment: units may disembark after it Advanced (then as after any move: Normal move, no charge). */
registerRule({
  name: 'Rapid Deployment', kind: 'datasheet-ability',
  allows: (perm) => perm === 'disembark-after-advance',
});

/** Crisis Starscythe: ranged attacks against units that are neither MONSTER nor VEHICLE improve AP by 1. */
registerRule({
  name: 'Starscythe', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee && !isMonsterOrVehicle(ctx.target)) plan.ap -= 1;
  },
});

/** Crisis Sunforge: ranged attacks against a MONSTER or VEHICLE may re-roll the Wound roll and the Damage roll. */
registerRule({
  name: 'Sunforge', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !isMonsterOrVehicle(ctx.target)) return;
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed');
    plan.rerollDamage = true;
  },
});

const BATTLESUIT_SUPPORT = 'Battlesuit Support System';
const WEAPON_SUPPORT = 'Weapon Support System';

/**
 * Battlesuit Support System. As a datasheet ability (Starscythes, Riptides) the unit may shoot in a turn in
 * which it Fell Back; as wargear (Commanders, Crisis Battlesuits) so may the bearer's unit, but then only the
 * models carrying it make ranged attacks. (A unit that may shoot after Falling Back by another rule as well
 * still shoots with its bearers only: no army has both.) The Ghostkeel's loses the SMOKE keyword for it (the
 * other bearers have none to lose).
 */
registerRule({
  name: BATTLESUIT_SUPPORT, kind: 'datasheet-ability', removesKeywords: ['SMOKE'],
  allows: (perm, ctx) => perm === 'shoot-after-fall-back' && (datasheetHas(ctx.state, ctx.unit, BATTLESUIT_SUPPORT) || wargearBearers(ctx.unit, BATTLESUIT_SUPPORT).length > 0),
  modelMayShoot: (ctx) => datasheetHas(ctx.state, ctx.unit, BATTLESUIT_SUPPORT) || carries(ctx.model, BATTLESUIT_SUPPORT),
});

/** Ranged attacks that may ignore any or all Hit roll modifiers (the harmful ones are ignored). */
const ignoreRangedHitModifiers: Rule['attack'] = (plan, ctx, src) => {
  if (src.role === 'attacker' && !ctx.melee) plan.ignoreHitModifiers = true;
};

/**
 * Weapon Support System: ranged attacks may ignore any or all Hit roll modifiers: every model's of a unit
 * with it on its datasheet (Riptide, Fireknives), the bearer's where it is wargear (Commanders, Crisis
 * Battlesuits, Broadsides; a bearer's attacks form their own attack group, see attackGroupKey).
 */
registerRule({
  name: WEAPON_SUPPORT, kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    if (datasheetHas(ctx.state, ctx.attacker, WEAPON_SUPPORT) || attackersCarry(ctx.attackers, WEAPON_SUPPORT)) plan.ignoreHitModifiers = true;
  },
});

/**
 * Stormsurge's Heavy Walker: its Normal, Advance and Fall Back moves pass over models other than TITANIC
 * ones and terrain up to 4" high (Rule.movesOver, read by planUnit).
 */
registerRule({ name: 'Heavy Walker', kind: 'datasheet-ability', movesOver: WALKER });

const NOVA_SHIELDING_USED = 'Nova Shielding used';

/**
 * R'varna's Nova Shielding: once per battle, when it is selected as the target of ranged attacks, until
 * the end of the phase attacks at it whose Strength is greater than its Toughness subtract 1 from the Wound
 * roll (its player chooses when). The entry is also the effect.
 */
registerRule({
  name: 'Nova Shielding', kind: 'datasheet-ability',
  enemyTargeted(g, unit, attacker, targets, melee) {
    if (melee || !targets.includes(unit.id)) return;
    if (g.state.effects.some((e) => e.kind === NOVA_SHIELDING_USED && e.unit === unit.id)) return;
    const { option } = g.decide({ kind: 'nova-shielding', player: unit.player, prompt: `${unit.name}: Nova Shielding (once per battle) against ${attacker.name}?`, options: ['keep', 'use'], context: { unit: unit.id, attacker: attacker.id } });
    if (option !== 'use') return;
    g.addEffect(NOVA_SHIELDING_USED, unit.player, unit.id, { at: 'end-of-battle' });
    g.addEffect('Nova Shielding', unit.player, unit.id, g.untilEndOfPhase());
  },
  attack(plan, _ctx, src) {
    if (src.effect && src.role === 'defender' && plan.strength > plan.toughness) plan.woundModifier -= 1;
  },
});

/** Hammerhead's Armour Hunter: attacks against a MONSTER or VEHICLE get +1 to hit. */
registerRule({
  name: 'Armour Hunter', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && isMonsterOrVehicle(ctx.target)) plan.hitModifier += 1;
  },
});

/**
 * Targeting Array: each time the unit is selected to shoot, its player picks: re-roll one Hit roll, or
 * re-roll one Wound roll, while resolving those attacks. The entry is also the effect (params.roll).
 */
registerRule({
  name: 'Targeting Array', kind: 'datasheet-ability',
  selectedToShoot(g, unit) {
    const { option } = g.decide({
      kind: 'targeting-array', player: unit.player, prompt: `${unit.name}: Targeting Array: re-roll one Hit roll or one Wound roll?`,
      options: ['hit', 'wound'] as const, context: { unit: unit.id },
    });
    g.addEffect('Targeting Array', unit.player, unit.id, g.untilEndOfPhase(), { roll: option });
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.melee) return;
    grantRerollOne(plan, src.effect.params.roll === 'hit' ? { hit: 1 } : { wound: 1 });
  },
});

/** Broadside's Advanced Armour: Feel No Pain 4+ against mortal wounds. */
registerRule({
  name: 'Advanced Armour', kind: 'datasheet-ability',
  feelNoPain: (ctx) => (ctx.mortal ? 4 : null),
});

const NOVA_CHARGE_USED = 'Nova Charge used';

/**
 * Riptide's Nova Charge: once per battle, when selected to shoot in its Shooting phase, one of its
 * ranged weapons gets DEVASTATING WOUNDS until the end of the phase (the player picks the weapon, or
 * keeps the charge). The entry is also the effect (params.weapon).
 */
registerRule({
  name: 'Nova Charge', kind: 'datasheet-ability',
  selectedToShoot(g, unit) {
    const s = g.state;
    if (s.phase !== 'shooting' || s.turn !== unit.player) return;
    if (s.effects.some((e) => e.kind === NOVA_CHARGE_USED && e.unit === unit.id)) return;
    const weapons: string[] = [];
    for (const m of unit.models) {
      if (!m.alive || !s.datasheets[m.datasheet].abilities.includes('Nova Charge')) continue;
      for (const w of s.datasheets[m.datasheet].weapons) {
        if (m.weapons.includes(w.name) && w.profiles.some((p) => p.range !== 'Melee') && !weapons.includes(w.name)) weapons.push(w.name);
      }
    }
    if (weapons.length === 0) return;
    const { option } = g.decide<{ none: true } | { weapon: string }>({
      kind: 'nova-charge', player: unit.player, prompt: `${unit.name}: use the Nova Charge (once per battle)?`,
      options: [{ none: true }, ...weapons.map((w) => ({ weapon: w }))], context: { unit: unit.id },
    });
    if ('none' in option) return;
    g.addEffect(NOVA_CHARGE_USED, unit.player, unit.id, { at: 'end-of-battle' });
    g.addEffect('Nova Charge', unit.player, unit.id, g.untilEndOfPhase(), { weapon: option.weapon });
  },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'attacker' && ctx.weapon.name === src.effect.params.weapon) plan.devastatingWounds = true;
  },
});

/** Piranhas' Drone Harassment Tactics: at the end of its Movement phase, an enemy unit within 12" it picks takes a Battle-shock test. */
registerRule({
  name: 'Drone Harassment Tactics', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    if (phase !== 'movement' || s.turn !== unit.player) return;
    const options = unitsOnBattlefield(s, opponent(unit.player)).filter((e) => unitDistance(s, unit, e) <= 12 + 1e-6).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'drone-harassment', player: unit.player, prompt: `${unit.name}: which enemy unit takes a Battle-shock test?`, options, context: { unit: unit.id } });
    const target = s.units[option];
    battleShockTest(g, target.player, target.id);
  },
});

const STEALTH_DRONES = 'Stealth Drones';

/** Stealth Drones uses of a Ghostkeel unit so far (its player's rule state, keyed by unit). */
export function stealthDronesUsed(state: GameState, unit: UnitState): number {
  return (state.players[unit.player].ruleState[`${STEALTH_DRONES}:${unit.id}`] as number | undefined) ?? 0;
}

/**
 * Ghostkeel's Stealth Drones: twice per battle, just after an attack is allocated to the Ghostkeel, its
 * player may make that attack's Damage 0. Attacks allocated together (one weapon profile, the same
 * save) are asked about at once: how many of them (up to the uses left) do nothing.
 */
registerRule({
  name: STEALTH_DRONES, kind: 'datasheet-ability',
  attacksAllocated(g, unit, model, plan, count) {
    if (!g.state.datasheets[model.datasheet].keywords.includes('GHOSTKEEL')) return 0;
    const used = stealthDronesUsed(g.state, unit);
    const most = Math.min(2 - used, count);
    if (most <= 0) return 0;
    const meanDamage = diceExprMean(plan.damage) + plan.damageBonus;
    const { option } = g.decide({
      kind: 'stealth-drones', player: unit.player,
      prompt: `${unit.name}: Stealth Drones (${2 - used} left): how many of these ${count} ${plan.weapon} attacks do no damage?`,
      options: Array.from({ length: most + 1 }, (_, i) => i), context: { unit: unit.id, weapon: plan.weapon, attacks: count, meanDamage },
    });
    if (option > 0) g.emit({ type: 'rule-state', player: unit.player, key: `${STEALTH_DRONES}:${unit.id}`, value: used + option });
    return option;
  },
});

/** Crisis Battlesuits' Turbo-jets: an Advance is not rolled; the models move 6" more instead. */
registerRule({
  name: 'Turbo-jets', kind: 'datasheet-ability',
  fixedAdvance: () => 6,
});

/** Sky Ray's Velocity Tracker: its ranged attacks against a unit that can FLY may re-roll the Hit roll. */
registerRule({
  name: 'Velocity Tracker', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !ctx.target.keywords.includes('FLY')) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});

const XV02 = 'XV02 Pilot Battlesuit';

/**
 * Longstrike's XV02 Pilot Battlesuit: at the start of its player's Command phase, one friendly
 * HAMMERHEAD GUNSHIP unit within 12" of him gets LETHAL HITS on its ranged weapons until the start of
 * that player's next Command phase. Choosing never hurts, so one is always chosen; the player is asked
 * which only when there are several (the one with the most wounds left first). The entry is also the
 * effect on that unit.
 */
registerRule({
  name: XV02, kind: 'datasheet-ability',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player || !modelWith(s, unit, 'LONGSTRIKE')) return;
    const near = unitsOnBattlefield(s, unit.player)
      .filter((u) => u.id !== unit.id && u.keywords.includes('HAMMERHEAD GUNSHIP') && unitDistance(s, unit, u) <= 12 + 1e-6)
      .map((u, i) => ({ u, i, left: woundsLeft(u) }))
      .sort((a, b) => b.left - a.left || a.i - b.i)
      .map((x) => x.u.id);
    if (near.length === 0) return;
    let chosen = near[0];
    if (near.length > 1) {
      chosen = g.decide({
        kind: 'xv02-pilot-battlesuit', player: unit.player, prompt: `${unit.name}: XV02 Pilot Battlesuit: which Hammerhead Gunship unit gets LETHAL HITS?`,
        options: near, context: { unit: unit.id },
      }).option;
    }
    g.addEffect(XV02, unit.player, chosen, untilStartOfNextTurn(g, unit.player), { by: unit.id });
  },
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'attacker' && !ctx.melee) plan.lethalHits = true;
  },
});

function woundsLeft(u: UnitState): number {
  let n = 0;
  for (const m of u.models) if (m.alive) n += m.wounds;
  return n;
}

/** Stormsurge's Support System: its ranged attacks may ignore any or all Hit roll modifiers, as Weapon Support System. */
registerRule({ name: 'Support System', kind: 'datasheet-ability', attack: ignoreRangedHitModifiers });

/** Stormsurge's Titan-killer: its ranged attacks against a TITANIC or TOWERING unit may re-roll the Hit roll. */
registerRule({
  name: 'Titan-killer', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !(ctx.target.keywords.includes('TITANIC') || ctx.target.keywords.includes('TOWERING'))) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'failed');
  },
});
