/**
 * Aeldari detachments: Battle Host (Unparalleled Foresight; from the seed index, the export no longer
 * has it) and Armoured Warhost (Skilled Crews), with their stratagems.
 */
import '../core-first.ts';
import type { Game } from '../../core/game.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { grantRerollOne } from '../../rules/attack-plan.ts';
import { targetedInOpponentsShootingOrFight, targetedOwnUnits, windowOwnUnit, windowOwnUnitWith } from '../../rules/stratagems/targets.ts';
import { FEEL_NO_PAIN_MORTAL } from '../../rules/damage.ts';
import { allModelsHave, hasKeyword, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged } from '../../rules/battle/world.ts';
import { moveOptions, ruleMove, type MoveChoice } from '../../rules/battle/movement.ts';
import { unitMove } from '../../rules/battle/units.ts';
import { arriveCloser } from '../helpers.ts';
import { GUARDIAN_BATTLEHOST, GUARDIAN_BATTLEHOST_RULES } from './guardian-battlehost.ts';
import { WINDRIDER_HOST, WINDRIDER_HOST_RULES } from './windrider-host.ts';
import { ASPECT_HOST, ASPECT_HOST_RULES } from './aspect-host.ts';
import { GHOSTS_OF_THE_WEBWAY, GHOSTS_OF_THE_WEBWAY_RULES } from './ghosts-of-the-webway.ts';
import { SERPENTS_BROOD, SERPENTS_BROOD_RULES } from './serpents-brood.ts';
import { CORSAIR_COTERIE, CORSAIR_COTERIE_RULES } from './corsair-coterie.ts';
import { ELDRITCH_RAIDERS, ELDRITCH_RAIDERS_RULES } from './eldritch-raiders.ts';
import { SEER_COUNCIL, SEER_COUNCIL_RULES } from './seer-council.ts';
import { SPIRIT_CONCLAVE, SPIRIT_CONCLAVE_RULES } from './spirit-conclave.ts';
import { WARHOST, WARHOST_RULES } from './warhost.ts';
import { DEVOTED_OF_YNNEAD, DEVOTED_OF_YNNEAD_RULES } from './devoted-of-ynnead.ts';
import { PROTECTOR_HOST, PROTECTOR_HOST_RULES } from './boarding-protector-host.ts';
import { STAR_DANCER_MASQUE, STAR_DANCER_MASQUE_RULES } from './boarding-star-dancer-masque.ts';
import { WRAITHS_OF_THE_VOID, WRAITHS_OF_THE_VOID_RULES } from './boarding-wraiths-of-the-void.ts';
import { KHAINES_ARROW, KHAINES_ARROW_RULES } from './boarding-khaines-arrow.ts';

const BATTLE_HOST = 'Battle Host';
const ARMOURED_WARHOST = 'Armoured Warhost';


function isVehicleFly(g: Game, u: UnitState): boolean {
  return hasKeyword(u, 'VEHICLE') && allModelsHave(g.state, u, 'FLY');
}

// --- Battle Host -----------------------------------------------------------------------------

/** Unparalleled Foresight: each time a unit shoots or fights, re-roll one Hit roll and one Wound roll. */
registerRule({
  name: 'Unparalleled Foresight', kind: 'detachment-rule',
  attack(plan, _ctx, src) {
    if (src.role !== 'attacker') return;
    grantRerollOne(plan, { hit: 1, wound: 1 });
  },
});

/** Lightning-Fast Reactions: -1 to Hit rolls of attacks targeting the unit. */
registerRule({
  name: 'Lightning-Fast Reactions', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'defender') plan.hitModifier -= 1; },
});

registerStratagem({
  name: 'LIGHTNING-FAST REACTIONS', cp: 1, category: 'Battle Tactic', source: BATTLE_HOST, turn: 'either',
  windows: ['shooting/after-enemy-targets', 'fight/after-enemy-targets'],
  // the opponent's Shooting phase or either Fight phase: not against Fire Overwatch in the player's own turn
  targets: (g, w, p) => targetedInOpponentsShootingOrFight(g, w, p).filter((u) => !hasKeyword(u, 'WRAITH CONSTRUCT')),
  use(g, _w, p, u) { g.addEffect('Lightning-Fast Reactions', p, u.id, g.untilEndOfPhase()); },
});

/** Feigned Retreat: the unit may shoot and declare a charge this turn although it Fell Back. */
registerRule({
  name: 'Feigned Retreat', kind: 'effect',
  allows: (perm) => perm === 'shoot-after-fall-back' || perm === 'charge-after-fall-back',
});

registerStratagem({
  name: 'FEIGNED RETREAT', cp: 1, category: 'Strategic Ploy', source: BATTLE_HOST, turn: 'own', windows: ['movement/after-own-move'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && u.flags.fellBack ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Feigned Retreat', p, u.id, g.untilEndOfTurn()); },
});

/** Matchless Agility: an Advance is not rolled: +6" instead. */
registerRule({ name: 'Matchless Agility', kind: 'effect', fixedAdvance: () => 6 });

registerStratagem({
  name: 'MATCHLESS AGILITY', cp: 1, category: 'Battle Tactic', source: BATTLE_HOST, turn: 'own', windows: ['movement/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Matchless Agility', p, u.id, g.untilEndOfPhase()); },
});

/** Bladestorm: a Critical Wound improves the attack's AP by 2. */
registerRule({
  name: 'Bladestorm (stratagem)', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.criticalWoundAp = Math.max(plan.criticalWoundAp, 2); },
});

registerStratagem({
  name: 'BLADESTORM', cp: 1, category: 'Strategic Ploy', source: BATTLE_HOST, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Bladestorm (stratagem)', p, u.id, g.untilEndOfPhase()); },
});

/** Fire and Fade: after it, the unit cannot declare a charge this turn. */
/** FIRE AND FADE's effect: the unit cannot declare a charge this turn (not 'Fire and Fade', the Kroot Lone-Spear's ability). */
const FIRE_AND_FADE_MOVED = 'Fire and Fade (moved)';
registerRule({ name: FIRE_AND_FADE_MOVED, kind: 'effect', forbids: (perm) => perm === 'charge' });

registerStratagem({
  name: 'FIRE AND FADE', cp: 2, category: 'Strategic Ploy', source: BATTLE_HOST, turn: 'own', windows: ['phase/end'],
  targets(g, w, p) {
    if (w.data?.phase !== 'shooting') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => !hasKeyword(u, 'AIRCRAFT') && !isEngaged(g.state, u) && unitMove(g.state, u) > 0);
  },
  use(g, _w, p, u) {
    // a Normal move toward a point the player picks; it cannot embark at the end of it
    const options = moveOptions(g.state, u).filter((o) => o.mode === 'normal') as Extract<MoveChoice, { to: unknown }>[];
    if (options.length > 0) {
      const { option } = g.decide({ kind: 'fire-and-fade', player: p, prompt: `Fire and Fade: where does ${u.name} move?`, options, context: { unit: u.id } });
      ruleMove(g, u, 'normal', option.to, unitMove(g.state, u), false);
    }
    g.addEffect(FIRE_AND_FADE_MOVED, p, u.id, g.untilEndOfTurn());
  },
});

// --- Armoured Warhost ------------------------------------------------------------------------

/** Skilled Crews: VEHICLE ranged weapons have ASSAULT; VEHICLE FLY units may re-roll Advance rolls. */
registerRule({
  name: 'Skilled Crews', kind: 'detachment-rule',
  weaponAbility: (ability, ctx) => ability === 'ASSAULT' && ctx.profile.range !== 'Melee' && ctx.unit.keywords.includes('VEHICLE'),
  rerollAdvance: (ctx) => ctx.unit.keywords.includes('VEHICLE') && ctx.unit.keywords.includes('FLY'),
});

registerStratagem({
  name: 'LAYERED WARDS', cp: 1, category: 'Strategic Ploy', source: ARMOURED_WARHOST, turn: 'either', windows: ['damage/mortal-wound-allocated'],
  targets: windowOwnUnitWith('VEHICLE'),
  use(g, _w, p, u) { g.addEffect(FEEL_NO_PAIN_MORTAL, p, u.id, g.untilEndOfPhase(), { x: 5 }); },
});

/**
 * Cloudstrike: the unit has Deep Strike this phase and may be set up more than 6" from enemy units; if it
 * is set up within 9" of them, it may not charge this turn. Units disembarking from it this turn are set
 * up more than 6" from enemy units and may not charge.
 */
registerRule({ name: 'Cloudstrike', kind: 'effect', ...arriveCloser(6), disembarkDistance: () => 6 });

registerStratagem({
  name: 'CLOUDSTRIKE', cp: 1, category: 'Strategic Ploy', source: ARMOURED_WARHOST, turn: 'own', windows: ['movement/reinforcements-start'],
  targets: (g, _w, p) => g.state.unitOrder.map((id) => g.state.units[id]).filter((u) =>
    u.player === p && u.location === 'strategic-reserves' && hasKeyword(u, 'VEHICLE') && hasKeyword(u, 'FLY')),
  use(g, _w, p, u) { g.addEffect('Cloudstrike', p, u.id, g.untilEndOfTurn()); },
});

/** Swift Deployment: units may disembark from this transport after it Advanced (counting as a Normal move). */
registerRule({ name: 'Swift Deployment', kind: 'effect', allows: (perm) => perm === 'disembark-after-advance' });

registerStratagem({
  name: 'SWIFT DEPLOYMENT', cp: 1, category: 'Strategic Ploy', source: ARMOURED_WARHOST, turn: 'own', windows: ['movement/unit-selected'],
  targets(g, w, p) {
    const u = w.unit ? g.state.units[w.unit] : null;
    if (!u || u.player !== p) return [];
    // the selected unit is a transport, or is embarked within one whose passengers want out
    const t = u.location === 'embarked' && u.embarkedIn ? g.state.units[u.embarkedIn] : u;
    return t && t.location === 'battlefield' && hasKeyword(t, 'TRANSPORT') ? [t] : [];
  },
  use(g, _w, p, u) { g.addEffect('Swift Deployment', p, u.id, g.untilEndOfPhase()); },
});

/** Vectored Engines: a FLY VEHICLE that Fell Back may shoot this turn. */
registerRule({ name: 'Vectored Engines', kind: 'effect', allows: (perm) => perm === 'shoot-after-fall-back' });

registerStratagem({
  name: 'VECTORED ENGINES', cp: 1, category: 'Strategic Ploy', source: ARMOURED_WARHOST, turn: 'own', windows: ['movement/after-own-move'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && u.flags.fellBack && isVehicleFly(g, u) ? [u] : []; },
  // the seed says "until the end of the phase", which would end before the Shooting phase: the
  // intent is that it may shoot this turn, so the effect lasts the turn
  use(g, _w, p, u) { g.addEffect('Vectored Engines', p, u.id, g.untilEndOfTurn()); },
});

/** Soulsight: each time the unit shoots, re-roll one Hit roll, one Wound roll and one Damage roll. */
registerRule({
  name: 'Soulsight', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee) grantRerollOne(plan, { hit: 1, wound: 1, damage: 1 });
  },
});

registerStratagem({
  name: 'SOULSIGHT', cp: 1, category: 'Strategic Ploy', source: ARMOURED_WARHOST, turn: 'own', windows: ['shooting/unit-selected'],
  targets: windowOwnUnitWith('VEHICLE'),
  use(g, _w, p, u) { g.addEffect('Soulsight', p, u.id, g.untilEndOfPhase()); },
});

/** Anti-grav Repulsion: -2 to the charging unit's Charge rolls this phase. */
registerRule({ name: 'Anti-grav Repulsion', kind: 'effect', rollModifier: (purpose) => (purpose === 'charge' ? -2 : 0) });

registerStratagem({
  name: 'ANTI-GRAV REPULSION', cp: 1, category: 'Strategic Ploy', source: ARMOURED_WARHOST, turn: 'opponent', windows: ['charge/after-enemy-charge-declared'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter((u) => isVehicleFly(g, u)),
  use(g, w, p) { g.addEffect('Anti-grav Repulsion', p, w.unit!, g.untilEndOfPhase()); },
});

/**
 * The Guardian Battlehost is in ./guardian-battlehost.ts, the Windrider Host in ./windrider-host.ts, the Aspect Host in ./aspect-host.ts,
 * the Harlequins' Ghosts of the Webway in ./ghosts-of-the-webway.ts, Serpent's Brood in ./serpents-brood.ts, the
 * Corsair Coterie in ./corsair-coterie.ts, the Eldritch Raiders in ./eldritch-raiders.ts, the Seer Council in
 * ./seer-council.ts, the Spirit Conclave in ./spirit-conclave.ts, the Warhost in ./warhost.ts, Devoted of Ynnead in
 * ./devoted-of-ynnead.ts, and the Boarding Actions detachments in
 * ./boarding-<name>.ts.
 */
export const AELDARI_DETACHMENTS = {
  [BATTLE_HOST]: ['Unparalleled Foresight'], [ARMOURED_WARHOST]: ['Skilled Crews'], [GUARDIAN_BATTLEHOST]: GUARDIAN_BATTLEHOST_RULES,
  [WINDRIDER_HOST]: WINDRIDER_HOST_RULES, [ASPECT_HOST]: ASPECT_HOST_RULES, [GHOSTS_OF_THE_WEBWAY]: GHOSTS_OF_THE_WEBWAY_RULES,
  [SERPENTS_BROOD]: SERPENTS_BROOD_RULES, [CORSAIR_COTERIE]: CORSAIR_COTERIE_RULES, [SEER_COUNCIL]: SEER_COUNCIL_RULES,
  [ELDRITCH_RAIDERS]: ELDRITCH_RAIDERS_RULES, [SPIRIT_CONCLAVE]: SPIRIT_CONCLAVE_RULES, [WARHOST]: WARHOST_RULES, [DEVOTED_OF_YNNEAD]: DEVOTED_OF_YNNEAD_RULES,
  // Boarding Actions detachments (the export types them so: the scenario loader allows them only there)
  [PROTECTOR_HOST]: PROTECTOR_HOST_RULES, [STAR_DANCER_MASQUE]: STAR_DANCER_MASQUE_RULES, [WRAITHS_OF_THE_VOID]: WRAITHS_OF_THE_VOID_RULES,
  [KHAINES_ARROW]: KHAINES_ARROW_RULES,
};
