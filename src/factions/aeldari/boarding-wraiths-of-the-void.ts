/**
 * Wraiths of the Void, an Aeldari Boarding Actions detachment (from the data export), in the engine's words:
 * its rule Wraith-Marked, its four stratagems (UNFLINCHING FIRE registered as not played: no Overwatch) and its
 * two Enhancements. Allowed only in Boarding Actions games.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import type { GameState, ModelState, PlayerIndex, UnitState } from '../../core/state.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedInFight, windowOwnUnitWith } from '../../rules/stratagems/targets.ts';
import { registerArmyRuleHooks } from '../../rules/battle/phase.ts';
import { bestLeadership, hasKeyword, onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { attackAcrossHatchway, enemiesBeyondHatchway, HATCHWAY_HELD_OPEN, hatchwayById, hatchways, isHatchwayOpen, modelSeesHatchway, setHatchway } from '../../rules/battle/hatchways.ts';
import { modelWeapons } from '../../rules/battle/shooting.ts';
import { weaponRange } from '../../core/rules-registry.ts';
import { modelBody } from '../../rules/battle/world.ts';
import { modelSeesUnit, bearerModel, modelWithinRangeOf, registerMarkerHold, unheldMarkers, returnDestroyedModel, untilEndOfOpponentsNextTurn, withinRangeOfMarker } from '../helpers.ts';
import { NO_OVERWATCH } from './boarding-shared.ts';
import { leadershipTestModifier } from '../../rules/battle/command.ts';

export const WRAITHS_OF_THE_VOID = 'Wraiths of the Void';
const WRAITH_MARKED = 'Wraith-Marked';
export const WRAITHS_OF_THE_VOID_RULES = [WRAITH_MARKED];
/** The hold a passed Wraith-Marked test leaves on a marker (params.objective): Secured by the army. */
export const WRAITH_MARKED_HOLD = 'Wraith-Marked (Secured)';
const WRAITH_CONSTRUCT = 'WRAITH CONSTRUCT';

/** A Wraith-Marked choice: the unit that takes the test and the marker it would secure. */
export type WraithMarkedChoice = { none: true } | { unit: string; objective: string };

/**
 * The (unit, marker) pairs Wraith-Marked may select now: an AELDARI unit within range of a marker the player
 * controls that is not already Secured by them. Asked at the start of the Command phase, so "controls" is the
 * control last determined (a unit recovering from Battle-shock there does not take a marker it did not hold).
 */
export function wraithMarkedOptions(state: GameState, player: PlayerIndex): { unit: string; objective: string }[] {
  const out: { unit: string; objective: string }[] = [];
  for (const o of unheldMarkers(state, player, WRAITH_MARKED_HOLD, 'recorded')) {
    for (const u of unitsOnBattlefield(state, player)) {
      if (hasKeyword(u, 'AELDARI') && withinRangeOfMarker(state, u, o)) out.push({ unit: u.id, objective: o.id });
    }
  }
  return out;
}

/**
 * Wraith-Marked: at the start of the player's Command phase they may select an AELDARI unit of theirs within
 * range of a marker they control (decision `wraith-marked`); it takes a Leadership test (2D6 at least its
 * Leadership; -2 to the result for a WRAITH CONSTRUCT unit): passed, the marker is Secured by the army (it
 * stays theirs until the opponent controls it at the end of a phase: registerMarkerHold).
 */
registerRule({ name: WRAITH_MARKED, kind: 'detachment-rule' });
registerMarkerHold(WRAITH_MARKED_HOLD);

registerArmyRuleHooks({
  name: WRAITH_MARKED,
  start(g, phase, player, owner) {
    if (phase !== 'command' || player !== owner) return;
    const pairs = wraithMarkedOptions(g.state, owner);
    if (pairs.length === 0) return;
    const options: WraithMarkedChoice[] = [{ none: true }, ...pairs];
    const { option } = g.decide({ kind: 'wraith-marked', player: owner, prompt: 'Wraith-Marked: which unit takes a Leadership test to secure which marker?', options, context: {} });
    if ('none' in option) return;
    const u = g.state.units[option.unit];
    const dice = g.dice.d6(2, 'other', owner, u.id, 'Wraith-Marked (Leadership test)');
    // the rules' modifiers to Leadership tests (Shadow of Death, Mindshock Pod name Battle-shock and Leadership tests)
    const total = dice[0] + dice[1] - (hasKeyword(u, WRAITH_CONSTRUCT) ? 2 : 0) + leadershipTestModifier(g.state, u);
    if (total >= bestLeadership(g.state, u)) g.addEffect(WRAITH_MARKED_HOLD, owner, null, { at: 'end-of-battle' }, { objective: option.objective });
  },
});

// --- Stratagems ------------------------------------------------------------------------------

/** WRAITHSIGHT's effect: IGNORES COVER, and the Hit roll and BS modifiers that hurt are ignored, this phase. */
registerRule({
  name: 'Wraithsight', kind: 'effect',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    plan.ignoresCover = true;
    plan.ignoreHitModifiers = true;
    plan.ignoreSkillModifiers = true;
  },
});

registerStratagem({
  name: 'WRAITHSIGHT', cp: 1, category: 'Battle Tactic', source: WRAITHS_OF_THE_VOID, turn: 'own', windows: ['shooting/unit-selected'],
  targets: windowOwnUnitWith('AELDARI'),
  use(g, _w, p, u) { g.addEffect('Wraithsight', p, u.id, g.untilEndOfPhase()); },
});

/**
 * GUARDIAN CONSTRUCTS' effect: -1 to the Wound roll of attacks on the unit by models wholly on the other side
 * of a hatchway from it (every model of the unit on the other). The text judges each attacking model, so a
 * group's attackers are split into those across and the others before the roll.
 */
registerRule({
  name: 'Guardian Constructs', kind: 'effect',
  splitAttackersAgainst(state, target, models) {
    const hs = hatchways(state);
    const across = models.filter((m) => hs.some((h) => attackAcrossHatchway(state, h, [m], target)));
    if (across.length === 0 || across.length === models.length) return [models];
    return [across, models.filter((m) => !across.includes(m))];
  },
  attack(plan, ctx, src) {
    if (src.role !== 'defender') return;
    if (hatchways(ctx.state).some((h) => attackAcrossHatchway(ctx.state, h, ctx.attackers, ctx.target))) plan.woundModifier -= 1;
  },
});

registerStratagem({
  name: 'GUARDIAN CONSTRUCTS', cp: 1, category: 'Battle Tactic', source: WRAITHS_OF_THE_VOID, turn: 'either', windows: ['fight/after-enemy-targets', 'shooting/after-enemy-targets'],
  targets: (g, w, p) => targetedInFight(g, w, p).filter((u) => hasKeyword(u, WRAITH_CONSTRUCT)),
  use(g, _w, p, u) { g.addEffect('Guardian Constructs', p, u.id, g.untilEndOfPhase()); },
});

/** The closed hatchways the unit's ranged weapons reach and its models see (D-STRIKE's choices), by id. */
export function dStrikeHatchways(state: GameState, u: UnitState): string[] {
  const out: string[] = [];
  for (const h of hatchways(state)) {
    if (isHatchwayOpen(state, h.id)) continue;
    const reached = u.models.some((m) => {
      if (!m.alive || !m.pos) return false;
      const ds = state.datasheets[m.datasheet];
      return modelWeapons(state, u, m).some((name) => ds.weapons.find((w) => w.name === name)?.profiles.some((p) =>
        p.range !== 'Melee' && modelSeesHatchway(state, m, h, weaponRange(state, u, p, m))));
    });
    if (reached) out.push(h.id);
  }
  return out;
}

/** D-STRIKE's stun, until the end of the opponent's next turn (before the player's next Shooting phase): -1 to the unit's Hit rolls. */
registerRule({
  name: 'Stunned (D-Strike)', kind: 'effect',
  attack(plan, _ctx, src) { if (src.role === 'attacker') plan.hitModifier -= 1; },
});
/** The unit that fired D-STRIKE may not shoot this phase. */
registerRule({ name: 'D-Strike (fired)', kind: 'effect', forbids: (perm) => perm === 'shoot' });
registerRule({ name: HATCHWAY_HELD_OPEN, kind: 'effect' });

/**
 * D-STRIKE: in the player's Shooting phase (offered at its start, as the unit must not have been selected to
 * shoot), a WRAITH CONSTRUCT unit blasts open a closed hatchway its ranged weapons reach and its models see
 * (decision `d-strike`): the hatchway opens and cannot be closed again this battle; each enemy unit within 3"
 * of it and wholly on the other side of it from the unit is stunned (-1 to its Hit rolls) until the end of
 * the opponent's next turn (the rule says until the start of the player's next Shooting phase: no attack is
 * made in between but in those turns). The unit is not eligible to shoot this phase.
 */
registerStratagem({
  name: 'D-STRIKE', cp: 1, category: 'Strategic Ploy', source: WRAITHS_OF_THE_VOID, turn: 'own', windows: ['phase/start'],
  targets: (g, w, p) => (w.data?.phase !== 'shooting' ? [] : unitsOnBattlefield(g.state, p).filter((u) =>
    hasKeyword(u, WRAITH_CONSTRUCT) && !u.flags.shot && dStrikeHatchways(g.state, u).length > 0)),
  use(g, _w, p, u) {
    const options = dStrikeHatchways(g.state, u);
    const { option } = g.decide({ kind: 'd-strike', player: p, prompt: `D-Strike: which hatchway does ${u.name} blast open?`, options, context: { unit: u.id } });
    const h = hatchwayById(g.state, option)!;
    setHatchway(g, option, true, u.id);
    g.addEffect(HATCHWAY_HELD_OPEN, p, null, { at: 'end-of-battle' }, { hatchway: option });
    for (const e of enemiesBeyondHatchway(g.state, g.state.units[u.id], h, 3)) g.addEffect('Stunned (D-Strike)', p, e.id, untilEndOfOpponentsNextTurn(g, p));
    g.addEffect('D-Strike (fired)', p, u.id, g.untilEndOfPhase());
  },
});

registerStratagem({
  name: 'UNFLINCHING FIRE', cp: 1, category: 'Strategic Ploy', source: WRAITHS_OF_THE_VOID, turn: 'opponent', windows: [],
  missing: NO_OVERWATCH,
  targets: () => [],
  use: () => {},
});

// --- Enhancements ----------------------------------------------------------------------------

const DIRECT_GUIDANCE = 'Direct Guidance';
const SONG_OF_RENEWAL = 'Song of Renewal';
/** A use of Song of Renewal (two a battle): an effect on the bearer's unit until the end of the battle. */
const SONG_OF_RENEWAL_USED = 'Song of Renewal (used)';

/** The friendly WRAITH CONSTRUCT units within 6" of the bearer that it sees (its own unit left out). */
function wraithsGuided(state: GameState, unit: UnitState, bearer: ModelState): UnitState[] {
  if (!bearer.pos) return [];
  const body = modelBody(state, bearer);
  return unitsOnBattlefield(state, unit.player).filter((w) => w.id !== unit.id && hasKeyword(w, WRAITH_CONSTRUCT)
    && modelWithinRangeOf(state, bearer, w, 6)
    && modelSeesUnit(state, bearer, w, body));
}

/** Direct Guidance's effect until the end of the turn: the unit may shoot and declare a charge although it Fell Back. */
registerRule({
  name: 'Direct Guidance (guided)', kind: 'effect',
  allows: (perm) => perm === 'shoot-after-fall-back' || perm === 'charge-after-fall-back',
});

/**
 * Direct Guidance: at the end of the player's Movement phase the bearer selects a friendly WRAITH CONSTRUCT
 * unit within 6" that it sees (decision `direct-guidance`): until the end of the turn it may shoot and
 * declare a charge although it Fell Back.
 */
registerRule({
  name: DIRECT_GUIDANCE, kind: 'enhancement',
  phaseEnd(g, unit, phase) {
    if (phase !== 'movement' || g.state.turn !== unit.player) return;
    const bearer = bearerModel(unit, DIRECT_GUIDANCE);
    if (!bearer) return;
    const options = wraithsGuided(g.state, unit, bearer).map((w) => w.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'direct-guidance', player: unit.player, prompt: `${unit.name}: Direct Guidance: which Wraith unit may shoot and charge after Falling Back?`, options, context: { unit: unit.id } });
    g.addEffect('Direct Guidance (guided)', unit.player, option, g.untilEndOfTurn());
  },
});

registerRule({ name: SONG_OF_RENEWAL_USED, kind: 'effect' });

/** The destroyed models of a unit on the battlefield that still has models there. */
function destroyedModels(u: UnitState): ModelState[] {
  return onBattlefield(u) && u.models.some((m) => m.alive) ? u.models.filter((m) => !m.alive) : [];
}

/**
 * Song of Renewal: in the player's Command phase (at its start), at most twice a battle, the bearer may select
 * a friendly WRAITH CONSTRUCT unit within 6" that it sees and that has lost models (decision `song-of-renewal`):
 * one destroyed model is returned to it with its full wounds (returnDestroyedModel; nothing when there is no room).
 */
registerRule({
  name: SONG_OF_RENEWAL, kind: 'enhancement',
  phaseStart(g, unit, phase) {
    const s = g.state;
    if (phase !== 'command' || s.turn !== unit.player) return;
    const bearer = bearerModel(unit, SONG_OF_RENEWAL);
    if (!bearer) return;
    if (s.effects.filter((e) => e.kind === SONG_OF_RENEWAL_USED && e.unit === unit.id).length >= 2) return;
    const wraiths = wraithsGuided(s, unit, bearer).filter((w) => destroyedModels(w).length > 0).map((w) => w.id);
    if (wraiths.length === 0) return;
    const options: ({ none: true } | string)[] = [{ none: true }, ...wraiths];
    const { option } = g.decide({ kind: 'song-of-renewal', player: unit.player, prompt: `${unit.name}: Song of Renewal: return a destroyed model to which Wraith unit?`, options, context: { unit: unit.id } });
    if (typeof option !== 'string') return;
    g.addEffect(SONG_OF_RENEWAL_USED, unit.player, unit.id, { at: 'end-of-battle' });
    const w = g.state.units[option];
    const m = destroyedModels(w)[0];
    returnDestroyedModel(g, w, m.id, 'Song of Renewal');
  },
});
