/**
 * Star-dancer Masque, an Aeldari Boarding Actions detachment (from the data export), in the engine's words:
 * its rule Faolchú's Last Flight, its four stratagems and its two Enhancements. Allowed only in Boarding
 * Actions games.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { windowOwnUnitWith } from '../../rules/stratagems/targets.ts';
import { hasKeyword, onBattlefield } from '../../rules/battle/units.ts';
import { attackersAreBearer, bearerComponent } from '../helpers.ts';
import { NO_OVERWATCH, registerVoidGhosts } from './boarding-shared.ts';
import { SERPENT_STRIKE_ROLL, serpentStrikeReach } from './boarding-rolls.ts';

export const STAR_DANCER_MASQUE = 'Star-dancer Masque';
const FAOLCHUS_LAST_FLIGHT = "Faolchú's Last Flight";
export const STAR_DANCER_MASQUE_RULES = [FAOLCHUS_LAST_FLIGHT];

/**
 * Faolchú's Last Flight: an AELDARI model of the army destroyed by a melee attack before it has fought this
 * phase fights on a D6 of 3+ once the attacking unit has made its attacks, then is removed (the engine's
 * fighting on death, src/rules/battle/fight-on-death.ts, which fights on 4+: +1 to the D6).
 */
registerRule({
  name: FAOLCHUS_LAST_FLIGHT, kind: 'detachment-rule',
  fightOnDeath: (ctx) => (ctx.melee && hasKeyword(ctx.unit, 'AELDARI') ? 1 : null),
});

// --- Stratagems ------------------------------------------------------------------------------

registerVoidGhosts(STAR_DANCER_MASQUE);

/** DARTING STRIKES' effect: the unit's attacks may re-roll the Wound roll this phase. */
registerRule({
  name: 'Darting Strikes', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.rerollWounds = widerReroll(plan.rerollWounds, 'failed'); },
});

registerStratagem({
  name: 'DARTING STRIKES', cp: 1, category: 'Battle Tactic', source: STAR_DANCER_MASQUE, turn: 'either', windows: ['fight/unit-selected'],
  // offered as the unit is selected to fight, before it makes any attack
  targets: windowOwnUnitWith('AELDARI'),
  use(g, _w, p, u) { g.addEffect('Darting Strikes', p, u.id, g.untilEndOfPhase()); },
});

/**
 * SERPENT STRIKE's effect: the unit's Consolidation moves this phase reach D3+3" (rolled as it consolidates)
 * instead of 3", and one that cannot end within Engagement Range of an enemy unit may go in any direction
 * (src/rules/battle/fight.ts: the player picks where, or the core rules' move toward an objective marker).
 */
registerRule({
  name: 'Serpent Strike', kind: 'effect',
  consolidationDistance: (g, u) => serpentStrikeReach(g.dice.roll(1, 3, 'other', u.player, u.id, SERPENT_STRIKE_ROLL)[0]),
  allows: (perm) => perm === 'consolidate-any-direction',
});

registerStratagem({
  name: 'SERPENT STRIKE', cp: 1, category: 'Strategic Ploy', source: STAR_DANCER_MASQUE, turn: 'either', windows: ['unit/destroyed'],
  // just after an AELDARI unit of the player destroyed an enemy unit in the Fight phase: that unit
  targets(g, w, p) {
    const s = g.state;
    const dead = w.unit ? s.units[w.unit] : null;
    const by = w.data?.by as string | null | undefined;
    const u = by ? s.units[by] : null;
    if (s.phase !== 'fight' || !dead || dead.player === p || !u || u.player !== p || !onBattlefield(u) || !hasKeyword(u, 'AELDARI')) return [];
    return [u];
  },
  use(g, _w, p, u) { g.addEffect('Serpent Strike', p, u.id, g.untilEndOfPhase()); },
});

/**
 * ACROBATIC LEAPS' effect this phase: the unit's Desperate Escape tests pass (+5 to each: none can fail), and its
 * Normal, Advance and Fall Back moves pass through every other model (not terrain).
 */
registerRule({
  name: 'Acrobatic Leaps', kind: 'effect',
  movesOver: { titanicModels: true, terrainHeight: 0 },
  desperateEscape: () => ({ allModels: false, modifier: 5 }),
});

registerStratagem({
  // the export's turn column says the opponent's turn; its text says "your Movement phase", played here
  name: 'ACROBATIC LEAPS', cp: 1, category: 'Strategic Ploy', source: STAR_DANCER_MASQUE, turn: 'own', windows: ['movement/unit-selected'],
  targets: windowOwnUnitWith('AELDARI'),
  use(g, _w, p, u) { g.addEffect('Acrobatic Leaps', p, u.id, g.untilEndOfPhase()); },
});

// --- Enhancements ----------------------------------------------------------------------------

registerRule({ name: 'Prismatic Garb', kind: 'enhancement', missing: NO_OVERWATCH });

const PATH_OF_ELDANESH = 'Path of Eldanesh';
/** Path of Eldanesh's effect after its bearer opened a hatchway: +1 AP for the bearer's melee weapons until the end of the turn. */
const ELDANESH_OPENED = 'Path of Eldanesh (hatchway opened)';

/**
 * Path of Eldanesh: the bearer has Fights First (its unit fights first only when every model has it: the bearer
 * on its own, not while it leads a unit), and each time its unit opens a hatchway its melee weapons get +1 AP
 * until the end of the turn.
 */
registerRule({
  name: PATH_OF_ELDANESH, kind: 'enhancement',
  fightsFirst: (ctx) => ctx.unit.components.length === 1 && bearerComponent(ctx.unit, PATH_OF_ELDANESH) !== null,
  hatchwayOpened(g, unit) { g.addEffect(ELDANESH_OPENED, unit.player, unit.id, g.untilEndOfTurn()); },
});

registerRule({
  name: ELDANESH_OPENED, kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && ctx.melee && attackersAreBearer(ctx.attacker, ctx.attackers, PATH_OF_ELDANESH)) plan.ap -= 1;
  },
});
