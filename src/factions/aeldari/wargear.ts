/**
 * Aeldari wargear abilities. Muster gives a model the wargear abilities of what it carries
 * (ModelState.wargear) and its unit those abilities; each entry here finds its bearers. Where the
 * catalog's datasheet is the Ynnari one (Reavers, Kabalite Warriors, Archon), its text is the one played.
 * Flip Belt is in datasheets.ts, the Aspect Shrine Token in aspect-shrine.ts.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { profileHas } from '../../data/datasheet.ts';
import { getWeaponAbility } from '../../rules/weapon-abilities.ts';
import { attackersCarry, bearerInvulnerable, carries, wargearBearers } from '../helpers.ts';

const SERPENT_SHIELD = 'Serpent Shield';
const SCATTERSHIELD = 'Scattershield';
const FAOLCHU = 'Faolchú';
const GRAV_TALON = 'Grav-talon';
const CHANNELLER_STONES = 'Channeller Stones';
const SHADOW_FIELD = 'Shadow Field';

/** Serpent Shield (Storm Guardians' Serpent's Scale Platform): while its bearer lives, every model of its unit has a 5+ invulnerable save. */
registerRule({
  name: SERPENT_SHIELD, kind: 'wargear-ability',
  invulnerableSave: (ctx) => (wargearBearers(ctx.unit, SERPENT_SHIELD).length > 0 ? 5 : null),
});

/** Shimmershield, Forceshield, Mistshield: the bearer has a 4+ invulnerable save. */
for (const name of ['Shimmershield', 'Forceshield', 'Mistshield']) {
  registerRule({ name, kind: 'wargear-ability', invulnerableSave: bearerInvulnerable(name, 4) });
}

/**
 * Scattershield: the bearer has a 4+ invulnerable save, and an attack allocated to it loses 1 Damage
 * (never below 1). The Skathach Wraithknight's Scattershield gives only the save.
 */
registerRule({
  name: SCATTERSHIELD, kind: 'wargear-ability',
  invulnerableSave: bearerInvulnerable(SCATTERSHIELD, 4),
  allocatedDamageReduction: (ctx) =>
    carries(ctx.model, SCATTERSHIELD) && !ctx.state.datasheets[ctx.model.datasheet].keywords.includes('SKATHACH WRAITHKNIGHT') ? 1 : 0,
});

/** Faolchú: while its bearer lives, the ranged weapons of its unit's models have IGNORES COVER. */
registerRule({
  name: FAOLCHU, kind: 'wargear-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || plan.ignoresCover) return;
    if (wargearBearers(ctx.attacker, FAOLCHU).length > 0) plan.ignoresCover = true;
  },
});

/**
 * Grav-talon (Ynnari Reavers): the bearer's melee weapons have LANCE (+1 to wound after its unit charged),
 * played as the weapon ability is (a bearer's attacks form their own attack group: attackGroupKey).
 */
registerRule({
  name: GRAV_TALON, kind: 'wargear-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || profileHas(ctx.profile, 'LANCE') || !attackersCarry(ctx.attackers, GRAV_TALON)) return;
    getWeaponAbility('LANCE')!.compile(plan, { name: 'LANCE' }, ctx);
  },
});

/** Phantasm Grenade Launcher (Ynnari Kabalite Warriors): the bearer's unit has the GRENADES keyword. */
registerRule({ name: 'Phantasm Grenade Launcher', kind: 'wargear-ability', grantsKeywords: ['GRENADES'] });

/**
 * Channeller Stones: once per turn, while its bearer lives, the first attack whose saving throw fails for
 * its unit has its Damage changed to 0. The turn it was used is kept in the player's rule state.
 */
registerRule({
  name: CHANNELLER_STONES, kind: 'wargear-ability',
  savesFailed(g, unit) {
    const s = g.state;
    const key = `${CHANNELLER_STONES}:${unit.id}`;
    const turn = `${s.round}:${s.turn}`;
    if (s.players[unit.player].ruleState[key] === turn || wargearBearers(unit, CHANNELLER_STONES).length === 0) return 0;
    g.emit({ type: 'rule-state', player: unit.player, key, value: turn });
    return 1;
  },
});

/**
 * Shadow Field (Ynnari Archon): its bearer's invulnerable saving throws cannot be re-rolled, and once one
 * fails the bearer has no invulnerable save for the rest of the battle (kept in the player's rule state).
 */
registerRule({
  name: SHADOW_FIELD, kind: 'wargear-ability',
  invulnerableRestriction(ctx) {
    if (!carries(ctx.model, SHADOW_FIELD)) return null;
    return ctx.state.players[ctx.unit.player].ruleState[`${SHADOW_FIELD}:${ctx.model.id}`] ? 'lost' : 'no-reroll';
  },
  savesFailed(g, unit, model, _plan, _count, invulnerable) {
    if (invulnerable && carries(model, SHADOW_FIELD)) g.emit({ type: 'rule-state', player: unit.player, key: `${SHADOW_FIELD}:${model.id}`, value: true });
    return 0;
  },
});

/** Cluster Caltrops: each bearer lets one of its unit's Eviscerating Fly-by dice be re-rolled (played there, ./ynnari-and-titans.ts). */
registerRule({ name: 'Cluster Caltrops', kind: 'wargear-ability' });
