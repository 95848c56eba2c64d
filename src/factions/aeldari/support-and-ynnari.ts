/**
 * Aeldari datasheet abilities of the Support Weapon platforms (D-cannon, Shadow Weaver and Vibro Cannon
 * Platforms: Support Weapon, SUPPORT ARTILLERY) and of some Ynnari and Legends units (the Yncarne's Inevitable
 * Death, the Ynnari Venom's Lithe Embarkation, the Firestorm's Skyfire).
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { opponent, type GameState, type UnitState } from '../../core/state.ts';
import { hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { canShoot, shootWithUnit } from '../../rules/battle/shooting.ts';
import { unitDistance } from '../../rules/battle/world.ts';
import { applyPlan, planUnit } from '../../rules/battle/placement.ts';
import { onUnitDestroyed } from '../../rules/damage.ts';
import { embarkAtEndOfFight, selectUpTo } from '../helpers.ts';

// --- Support Weapon platforms ------------------------------------------------------------------------

export const SUPPORT_WEAPON = 'Support Weapon';
export const SUPPORT_ARTILLERY = 'SUPPORT ARTILLERY';

/**
 * Support Weapon: while an attack targets the platform's unit and that unit has another model, the platform's
 * Toughness is 3 (the unit is then wounded as its crew is: targetToughness takes the highest Toughness of a
 * unit whose models differ). Read per group of attacks as its Attack plan is built, not per attack.
 */
registerRule({
  name: SUPPORT_WEAPON, kind: 'datasheet-ability',
  characteristic(which, v, ctx) {
    if (which !== 'T' || !ctx.state.datasheets[ctx.model.datasheet].abilities.includes(SUPPORT_WEAPON)) return v;
    return ctx.unit.models.some((m) => m.alive && m.id !== ctx.model.id) ? 3 : v;
  },
});

/**
 * SUPPORT ARTILLERY: at the start of Declare Battle Formations the platform may join one Guardian Defenders unit
 * of its army that has no Support Weapon yet (decision `support-artillery`, first option: stay alone). It is
 * then one of that unit's models for the rest of the battle (event `unit-joined`: the unit's Starting Strength,
 * keywords, abilities and points grow). Neither the platform nor a unit it joined may embark within a
 * TRANSPORT (the ability, which the joined unit now has, forbids 'embark').
 */
registerRule({
  name: SUPPORT_ARTILLERY, kind: 'datasheet-ability',
  forbids: (perm) => perm === 'embark',
  battleFormationsStart(g, unit) {
    const s = g.state;
    if (unit.location !== 'unplaced' || unit.components.length !== 1 || unit.models.length !== 1) return;
    const candidates = s.unitOrder.map((id) => s.units[id]).filter((u) => u.player === unit.player && u.id !== unit.id &&
      u.location === 'unplaced' && hasKeyword(u, 'GUARDIAN DEFENDERS') && !u.abilities.includes(SUPPORT_WEAPON));
    if (candidates.length === 0) return;
    const { option } = g.decide<{ unit: string; into: string | null }>({
      kind: 'support-artillery', player: unit.player, prompt: `Declare Battle Formations: ${unit.name}: SUPPORT ARTILLERY: join a Guardian Defenders unit?`,
      options: [{ unit: unit.id, into: null }, ...candidates.map((u) => ({ unit: unit.id, into: u.id }))], context: { unit: unit.id },
    });
    if (option.into) g.emit({ type: 'unit-joined', unit: unit.id, into: option.into });
  },
});

// --- Ynnari Venom ------------------------------------------------------------------------------------

/** Is every model of the unit from a datasheet its transport's Transport section names? */
function onlyListedModels(s: GameState, u: UnitState, transport: UnitState): boolean {
  const listed = (s.datasheets[transport.datasheet].transport?.units ?? []).map((n) => n.toLowerCase());
  return u.models.every((m) => !m.alive || listed.includes(s.datasheets[m.datasheet].name.toLowerCase()));
}

/**
 * Lithe Embarkation: the Starweaver's Rapid Embarkation for the Ynnari Venom: at the end of the Fight phase, with
 * nothing embarked within it, a friendly YNNARI INFANTRY unit made only of models of the units its Transport
 * section lists, of 6 or fewer models, wholly within 6" of it and not within Engagement Range, may embark
 * (decision `lithe-embarkation`).
 */
registerRule({
  name: 'Lithe Embarkation', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    if (phase !== 'fight') return;
    embarkAtEndOfFight(g, unit, 'lithe-embarkation', 'Lithe Embarkation', (u) =>
      hasKeyword(u, 'YNNARI') && hasKeyword(u, 'INFANTRY') && onlyListedModels(g.state, u, unit));
  },
});

// --- The Yncarne -------------------------------------------------------------------------------------

export const INEVITABLE_DEATH = 'Inevitable Death';

/** The rule state key of the turn a Yncarne last used Inevitable Death. */
const turnKey = (s: GameState) => `${s.round}:${s.turn}`;

/**
 * Inevitable Death: once in each opponent's turn, just after another friendly AELDARI unit (or the part of an
 * Attached unit) is destroyed, its last model on the battlefield, the Yncarne (on the battlefield) may be removed
 * and set up again as near as the planner can to where that model fell, not within Engagement Range of an enemy
 * unit (decision `inevitable-death`: stay or go; where there is no room it stays). The turn is kept in the
 * player's rule state.
 */
registerRule({ name: INEVITABLE_DEATH, kind: 'datasheet-ability' });

onUnitDestroyed((g, unit, component, _by, at) => {
  if (!at) return;
  const s = g.state;
  if (s.turn === unit.player) return;
  const part = s.units[unit.id].components.find((c) => c.unit === component);
  if (!part || !part.keywords.includes('AELDARI')) return;
  for (const id of s.unitOrder) {
    const y = g.state.units[id];
    if (y.player !== unit.player || y.id === unit.id || y.id === component || !y.abilities.includes(INEVITABLE_DEATH) || !onBattlefield(y)) continue;
    const key = `${INEVITABLE_DEATH}:${y.id}`;
    if (g.state.players[y.player].ruleState[key] === turnKey(g.state)) continue;
    const to = { x: at.x, y: at.y };
    const { option } = g.decide<{ stay: true } | { to: { x: number; y: number } }>({
      kind: 'inevitable-death', player: y.player, prompt: `${y.name}: Inevitable Death: set it up where ${part.name} fell?`,
      options: [{ stay: true }, { to }], context: { unit: y.id, destroyed: component },
    });
    if ('stay' in option) continue;
    const board = [{ x: 0, y: 0 }, { x: s.board.width, y: 0 }, { x: s.board.width, y: s.board.height }, { x: 0, y: s.board.height }];
    const plan = planUnit(g.state, y, 'setUp', { destination: to, zone: board });
    if (!plan.ok) {
      g.emit({ type: 'note', text: `${y.name}: Inevitable Death: no room near where ${part.name} fell` });
      continue;
    }
    g.emit({ type: 'rule-state', player: y.player, key, value: turnKey(g.state) });
    applyPlan(g, g.state.units[y.id], plan, 'set-up');
  }
});

// --- Firestorm ---------------------------------------------------------------------------------------

const SKYFIRE = 'Skyfire';
const SKYFIRE_WEAPON = 'Firestorm scatter laser';

/**
 * Skyfire: when the Firestorm fires Overwatch at an enemy FLY unit that starts or ends a Normal, Advance or Fall
 * Back move (not one set up from Reserves, nor one declaring a charge), up to 3 other enemy FLY units within 24" of it are selected (decision `skyfire`, one at a time, stop first) and
 * its Firestorm scatter laser also shoots at each in turn, hitting only on an unmodified 6 (the Overwatch effect
 * still on it this phase). A unit is offered when the Firestorm could shoot it now with any weapon; when the
 * scatter laser cannot reach or see it, that shot is lost.
 */
registerRule({
  name: SKYFIRE, kind: 'datasheet-ability',
  overwatchFired(g, unit, target, moment) {
    const s = g.state;
    const moved = target.flags.moved;
    const moving = moment === 'move-started' || (moment === 'move-ended' && (moved === 'normal' || moved === 'advance' || moved === 'fall-back'));
    if (s.phase !== 'movement' || !hasKeyword(target, 'FLY') || !moving) return;
    if (!unit.models.some((m) => m.alive && m.weapons.includes(SKYFIRE_WEAPON))) return;
    const picked: string[] = [];
    selectUpTo(
      3,
      (chosen) => unitsOnBattlefield(g.state, opponent(unit.player)).filter((e) => e.id !== target.id && !chosen.includes(e.id) && hasKeyword(e, 'FLY') &&
        unitDistance(g.state, g.state.units[unit.id], e) <= 24 + 1e-6 && canShoot(g, g.state.units[unit.id], e.id, true)),
      (options) => g.decide({ kind: 'skyfire', player: unit.player, prompt: `${unit.name}: Skyfire: another enemy FLY unit to shoot with the scatter laser? (or stop)`, options, context: { unit: unit.id } }).option,
      (id) => picked.push(id),
    );
    for (const id of picked) {
      const u = g.state.units[unit.id];
      if (!onBattlefield(u) || !onBattlefield(g.state.units[id])) continue;
      shootWithUnit(g, u, { onlyTarget: id, onlyWeapons: [SKYFIRE_WEAPON] });
    }
  },
});
