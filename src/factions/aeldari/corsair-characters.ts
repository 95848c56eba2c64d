/**
 * The Corsair characters' datasheet abilities (Kharseth, Prince Yriel) and the Corsair Reaver Band's
 * CORSAIRS, one registry entry each, written from the data export's datasheets in the engine's words.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, UnitState } from '../../core/state.ts';
import { CORSAIRS } from '../../data/leader-stand-ins.ts';
import { arrivalExclusionAround, hitByWeapons, hitEnemies, modelWith, whileLeading } from '../helpers.ts';

// --- Kharseth --------------------------------------------------------------------------------------

/** Aethersense: enemy units set up from Reserves may not be set up within 12" of Kharseth. */
registerRule({
  name: 'Aethersense (Psychic)', kind: 'datasheet-ability',
  enemyArrivalExclusion(state, unit) {
    const m = modelWith(state, unit, 'KHARSETH');
    return m ? arrivalExclusionAround(state, m, 12) : [];
  },
});

const FURY_OF_THE_VOID = 'Fury of the Void (Psychic)';
/** The effect on the enemy unit Fury of the Void made riven (its player: Kharseth's). */
export const RIVEN = 'Riven (Fury of the Void)';
const DREAD_OF_THE_DEEP_VOID = new Set(['dread of the deep void']);

/**
 * Fury of the Void: once Kharseth's unit has shot in its player's Shooting phase, one enemy unit his Dread
 * of the Deep Void hit is picked; it is riven until the end of the turn (the effect below).
 */
registerRule({
  name: FURY_OF_THE_VOID, kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    const options = hitEnemies(g, unit, hitByWeapons(hitWith, DREAD_OF_THE_DEEP_VOID)).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'fury-of-the-void', player: unit.player, prompt: `${unit.name}: Fury of the Void: which enemy unit is riven (+1 Strength for AELDARI attacks on it this turn)?`, options, context: { unit: unit.id } });
    g.addEffect(RIVEN, unit.player, option, g.untilEndOfTurn());
  },
});

/** Riven: attacks of AELDARI models of the effect's player that target the unit add 1 to their Strength. */
registerRule({
  name: RIVEN, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.effect && src.role === 'defender' && ctx.attacker.player === src.effect.player && ctx.attacker.keywords.includes('AELDARI')) plan.strength += 1;
  },
});

// --- Prince Yriel ----------------------------------------------------------------------------------

/** Piratical Hero: while Yriel leads a unit, its models' attacks (his own too) have SUSTAINED HITS 1 and +1 to hit. */
registerRule({
  name: 'Piratical Hero', kind: 'datasheet-ability', leaderAbility: true,
  attack: whileLeading('PRINCE YRIEL', (plan) => {
    plan.sustainedHits = Math.max(plan.sustainedHits, 1);
    plan.hitModifier += 1;
  }),
});

/** On the battlefield, or embarked within a Transport that is ("if this unit is on the battlefield (or ...)"). */
function onBattlefieldOrInTransport(state: GameState, unit: UnitState): boolean {
  if (unit.location === 'battlefield') return true;
  return unit.location === 'embarked' && unit.embarkedIn !== null && state.units[unit.embarkedIn]?.location === 'battlefield';
}

/** The Legendary Prince Yriel's datasheet, whose Prince of Corsairs asks only that the army includes him. */
const LEGENDARY_YRIEL = '000000569';

/**
 * Prince of Corsairs: after both armies are deployed, if Yriel's unit is on the battlefield (or in a Transport
 * that is), up to three AELDARI units of his army are set up again, or placed in Strategic Reserves whatever is
 * there already (the Redeploy Units step, src/rules/battle/redeploy.ts). Both Yriels have it; the Legendary one
 * wherever he is (his text says only "if your army includes this model").
 */
registerRule({
  name: 'Prince of Corsairs', kind: 'datasheet-ability',
  redeploy: {
    max: 3, eligible: (_bearer, u) => u.keywords.includes('AELDARI'),
    bearerQualifies: (s, b) => b.components.some((c) => c.datasheet === LEGENDARY_YRIEL) || onBattlefieldOrInTransport(s, b),
  },
});

// --- Corsair Reaver Band ---------------------------------------------------------------------------

/**
 * CORSAIRS: a Leader that may be attached to a Corsair Voidreavers unit may be attached to this unit instead.
 * A fact of Declare Battle Formations, read from the datasheet when an army or scenario is checked and when
 * the agent declares its formations (src/data/leader-stand-ins.ts); no hook here.
 */
registerRule({ name: CORSAIRS, kind: 'datasheet-ability' });
