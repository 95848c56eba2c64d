/**
 * Serpent's Brood, a Harlequin detachment of the data export, in the engine's words: its rule Boons of the
 * Brood, its six stratagems and three of its four Enhancements (Fanged Leer is played with the Death Jester's
 * Cruel Amusement). Each is one registry entry; the stratagems' effects are entries of kind 'effect'. What it
 * shares with Ghosts of the Webway is in ./harlequin-detachments.ts.
 *
 * The export gives these stratagems no category: FANGS OF THE BROOD is entered as a Battle Tactic (it changes
 * the unit's attacks), the others, which move units, as Strategic Ploys.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { hasKeyword, unitMove, unitsOnBattlefield, wasEligibleToFight } from '../../rules/battle/units.ts';
import { isEngaged } from '../../rules/battle/world.ts';
import { attackersAre, attackersAreBearer, bearerPartStands, moveOrFallBack, moveOrFallBackChoices, normalMoveChoices } from '../helpers.ts';
import { takeMoreDances } from './datasheets.ts';
import { harlequins, registerExit, registerStride, troupe, troupeObjectiveControl, VENOMOUS_WRATH_MOVE, WEAVERS_COILS_FALL_BACK } from './harlequin-detachments.ts';
import { disembarkedThisTurn } from '../../rules/battle/transports.ts';

export const SERPENTS_BROOD = "Serpent's Brood";
const BOONS_OF_THE_BROOD = 'Boons of the Brood';

/**
 * Boons of the Brood: the weapons of HARLEQUINS MOUNTED and VEHICLE models have SUSTAINED HITS 1, and so do a
 * HARLEQUINS unit's weapons in a turn it disembarked from a Transport. Travelling Players: TROUPE models of
 * Troupe units have OC 2.
 */
registerRule({
  name: BOONS_OF_THE_BROOD, kind: 'detachment-rule',
  attack(plan, ctx, src) {
    const u = ctx.attacker;
    if (src.role !== 'attacker' || !harlequins(u)) return;
    const disembarked = disembarkedThisTurn(u);
    if (disembarked || attackersAre(ctx.state, ctx.attackers, 'MOUNTED') || attackersAre(ctx.state, ctx.attackers, 'VEHICLE')) {
      plan.sustainedHits = Math.max(plan.sustainedHits, 1);
    }
  },
  characteristic: troupeObjectiveControl,
});

export const SERPENTS_BROOD_RULES = [BOONS_OF_THE_BROOD];

// --- Stratagems ----------------------------------------------------------------------------------

registerStride('WEAVING STRIDE', SERPENTS_BROOD, 'weaving-stride', (u) => harlequins(u) && hasKeyword(u, 'INFANTRY'));

/**
 * FANGS OF THE BROOD, at the start of a Fight phase: a Troupe unit takes three of its Dance of Death abilities
 * this phase instead of one (the engine asks for the one at the start of the phase, before this window; the
 * stratagem adds the other two).
 */
registerStratagem({
  name: 'FANGS OF THE BROOD', cp: 1, category: 'Battle Tactic', source: SERPENTS_BROOD, turn: 'either', windows: ['phase/start'],
  targets(g, w, p) {
    if (w.data?.phase !== 'fight') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => troupe(u) && u.abilities.includes('Dance of Death'));
  },
  use(g, _w, _p, u) { takeMoreDances(g, u, 3); },
});

const VENOMOUS_WRATH = 'Venomous Wrath';
const VENOMOUS_WRATH_NO_CHARGE = 'Venomous Wrath (no charge)';

/**
 * VENOMOUS WRATH's effect this phase: once the unit has shot, if it is not within Engagement Range it may make
 * a Normal move of up to 6" (decision `venomous-wrath`: none first, then the destinations).
 */
registerRule({
  name: VENOMOUS_WRATH, kind: 'effect',
  afterAttacks(g, unit, _hit, melee, effect) {
    if (melee || !effect) return;
    g.removeEffect(effect.id);
    const options = isEngaged(g.state, unit) ? [] : normalMoveChoices(g.state, unit);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'venomous-wrath', player: unit.player, prompt: `${unit.name}: Venomous Wrath: a Normal move of up to ${VENOMOUS_WRATH_MOVE}"?`, options, context: { unit: unit.id } });
    moveOrFallBack(g, unit, option, false, () => VENOMOUS_WRATH_MOVE);
  },
});

/** The unit VENOMOUS WRATH was used on cannot declare a charge this turn. */
registerRule({ name: VENOMOUS_WRATH_NO_CHARGE, kind: 'effect', forbids: (perm) => perm === 'charge' });

registerStratagem({
  name: 'VENOMOUS WRATH', cp: 1, category: 'Strategic Ploy', source: SERPENTS_BROOD, turn: 'own', windows: ['shooting/unit-selected'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && harlequins(u) && hasKeyword(u, 'VEHICLE') ? [u] : []; },
  use(g, _w, p, u) {
    g.addEffect(VENOMOUS_WRATH, p, u.id, g.untilEndOfPhase());
    g.addEffect(VENOMOUS_WRATH_NO_CHARGE, p, u.id, g.untilEndOfTurn());
  },
});

/** STRIKING STRIDE's effect this phase: the unit may declare a charge although it Advanced. */
registerRule({ name: 'Striking Stride', kind: 'effect', allows: (perm) => perm === 'charge-after-advance' });

registerStratagem({
  name: 'STRIKING STRIDE', cp: 1, category: 'Strategic Ploy', source: SERPENTS_BROOD, turn: 'own', windows: ['phase/start'],
  // at the start of the player's Charge phase, before a unit is selected (a unit that Advanced is not offered
  // for a charge until then); only the units that Advanced gain anything
  targets(g, w, p) {
    if (w.data?.phase !== 'charge') return [];
    return unitsOnBattlefield(g.state, p).filter((u) => harlequins(u) && u.flags.advanced && !isEngaged(g.state, u));
  },
  use(g, _w, p, u) { g.addEffect('Striking Stride', p, u.id, g.untilEndOfPhase()); },
});

/**
 * WEAVERS' COILS, at the end of the player's own Fight phase: a HARLEQUINS MOUNTED unit that was eligible to
 * fight (wasEligibleToFight) makes a Normal move when no enemy
 * unit is within Engagement Range of it, else a Fall Back move of up to 6" (with its Desperate Escape tests).
 * Decision `weavers-coils`: none first, then the destinations.
 */
registerStratagem({
  name: "WEAVERS' COILS", cp: 1, category: 'Strategic Ploy', source: SERPENTS_BROOD, turn: 'own', windows: ['phase/end'],
  targets(g, w, p) {
    if (w.data?.phase !== 'fight') return [];
    return unitsOnBattlefield(g.state, p).filter((u) =>
      harlequins(u) && hasKeyword(u, 'MOUNTED') && wasEligibleToFight(u) && moveOrFallBackChoices(g.state, u).options.length > 0);
  },
  use(g, _w, p, u) {
    const { fallBack, options } = moveOrFallBackChoices(g.state, u);
    if (options.length === 0) return;
    const { option } = g.decide({
      kind: 'weavers-coils', player: p, prompt: `Weavers' Coils: ${fallBack ? `a Fall Back of up to ${WEAVERS_COILS_FALL_BACK}"` : 'a Normal move'} for ${u.name}?`, options, context: { unit: u.id },
    });
    moveOrFallBack(g, u, option, fallBack, () => (fallBack ? WEAVERS_COILS_FALL_BACK : unitMove(g.state, u)));
  },
});

registerExit('SKYWARD LUNGE', SERPENTS_BROOD, (u) => harlequins(u) && (hasKeyword(u, 'VEHICLE') || hasKeyword(u, 'MOUNTED')));

// --- Enhancements ----------------------------------------------------------------------------------

/** Key of Ghosts: models in the bearer's unit have Scouts 6". */
registerRule({
  name: 'Key of Ghosts', kind: 'enhancement',
  scouts: (ctx) => (bearerPartStands(ctx.unit, 'Key of Ghosts') ? 6 : 0),
});

/** Weavers' Wail: +3 Strength and +1 Attacks for the bearer's melee weapons. */
registerRule({
  name: "Weavers' Wail", kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !ctx.melee || !attackersAreBearer(ctx.attacker, ctx.attackers, "Weavers' Wail")) return;
    plan.strength += 3;
    plan.attacksBonus += 1;
  },
});

/**
 * Shedskin Raiment: after both armies are deployed, up to three HARLEQUINS units of the army are set up again,
 * or placed in Strategic Reserves whatever is there already (the Redeploy Units step, src/rules/battle/redeploy.ts).
 */
registerRule({
  name: 'Shedskin Raiment', kind: 'enhancement',
  redeploy: { max: 3, eligible: (_bearer, u) => harlequins(u) },
});
