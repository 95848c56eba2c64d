/**
 * Aeldari datasheet abilities of the Wraith constructs, the Warlocks and a few vehicles outside the
 * bundled armies (Crimson Hunter, Windriders, Wraithguard, Wraithblades, Wraithlord, Warlocks, Warlock
 * Conclave and Skyrunners, Wraithseer, Warp Hunter, Vypers, Wasp Assault Walker, Vampire Hunter, Warp Spiders), one registry
 * entry each, written from the data export's datasheets in the engine's words.
 */
import '../core-first.ts';
import { allows, registerRule } from '../../core/rules-registry.ts';
import type { GameState, UnitState } from '../../core/state.ts';
import { widerReroll } from '../../rules/attack-plan.ts';
import { isClosestEligibleTarget } from '../../rules/battle/shooting.ts';
import { isMonsterOrVehicle, unitsOnBattlefield, modelHasKeyword } from '../../rules/battle/units.ts';
import { boardOf, modelBase, modelBody } from '../../rules/battle/world.ts';
import { isWithin } from '../../geometry/distance.ts';
import { pathOverlapsTerrain, type BlockingPiece } from '../../geometry/pathing.ts';
import { polygonAabb } from '../../geometry/polygon.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { WALKER, hitEnemies, intoReservesAtTurnEnd, leadingModel, modelWithinRangeOf, shockOneHitEnemy, untilStartOfNextTurn } from '../helpers.ts';
import { SUPPRESSED } from '../suppressed.ts';

/** Is a model of `unit` within `range` of an alive friendly AELDARI PSYKER model on the battlefield (one of its own models included)? */
function nearFriendlyPsyker(state: GameState, unit: UnitState, range: number): boolean {
  for (const f of unitsOnBattlefield(state, unit.player)) {
    if (!f.keywords.includes('AELDARI')) continue;
    for (const m of f.models) {
      if (m.alive && m.pos && modelHasKeyword(state, m, 'PSYKER') && modelWithinRangeOf(state, m, unit, range)) return true;
    }
  }
  return false;
}

/**
 * SOUL BRIDGE's effect on a unit (Spirit Conclave, ./spirit-conclave.ts; params.psyker: an ASURYANI PSYKER
 * model's id): the unit counts as within 12" of that model for Psychic Guidance while the model stands.
 */
export const SOUL_BRIDGE = 'Soul Bridge';

/** Is the unit bridged (SOUL BRIDGE) to a PSYKER model that still stands on the battlefield? */
export function soulBridged(state: GameState, unit: UnitState): boolean {
  for (const e of state.effects) {
    if (e.kind !== SOUL_BRIDGE || e.unit !== unit.id) continue;
    for (const f of unitsOnBattlefield(state, unit.player)) if (f.models.some((m) => m.id === e.params.psyker && m.alive && m.pos)) return true;
  }
  return false;
}

/** Does Psychic Guidance apply to the unit now: within 12" of a friendly AELDARI PSYKER model, or bridged to one (SOUL BRIDGE)? */
export function psychicallyGuided(state: GameState, unit: UnitState): boolean {
  return nearFriendlyPsyker(state, unit, 12) || soulBridged(state, unit);
}

// --- Crimson Hunter ----------------------------------------------------------------------------

/** Skyhunter: the Crimson Hunter's ranged attacks at a unit that can FLY get +1 to hit and +1 to wound. */
registerRule({
  name: 'Skyhunter', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee || !ctx.target.keywords.includes('FLY')) return;
    plan.hitModifier += 1;
    plan.woundModifier += 1;
  },
});

// --- Windriders --------------------------------------------------------------------------------

/**
 * Swift Demise: the unit's ranged attacks re-roll Hit rolls of 1, or every failed Hit roll when the target
 * is the closest eligible target, judged for each model: the unit's groups are split by whether the target is
 * their models' closest (Rule.splitByClosestTarget), and a part gets the wider re-roll when it is.
 */
registerRule({
  name: 'Swift Demise', kind: 'datasheet-ability', splitByClosestTarget: true,
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    const closest = isClosestEligibleTarget(ctx.state, ctx.attacker, ctx.attackers, ctx.profile, ctx.target);
    plan.rerollHits = widerReroll(plan.rerollHits, closest ? 'failed' : 'ones');
  },
});

// --- Wraithguard, Wraithblades, Wraithlord -----------------------------------------------------

/**
 * Malevolent Souls: a Wraithblades model destroyed by a melee attack in the Fight phase before it has fought
 * fights on a D6 of 3+ once the attacking unit has made its attacks, then is removed
 * (src/rules/battle/fight-on-death.ts: 4+ with +1).
 */
registerRule({ name: 'Malevolent Souls', kind: 'datasheet-ability', fightOnDeath: (ctx) => (ctx.melee ? 1 : null) });

/** War Construct: the Wraithguard may shoot in a turn in which they Fell Back. */
registerRule({ name: 'War Construct', kind: 'datasheet-ability', allows: (perm) => perm === 'shoot-after-fall-back' });

/**
 * Psychic Guidance: while the unit is within 12" of a friendly AELDARI PSYKER model (a Spiritseer leading
 * it included; or bridged to one by SOUL BRIDGE), its models have Leadership 6+ and its attacks get +1 to hit. The Wraithlord's datasheet
 * words it otherwise: its weapons' Ballistic and Weapon Skill are improved by 1 (not a Hit roll modifier,
 * so it is not capped with them), with the same Leadership.
 */
registerRule({
  name: 'Psychic Guidance', kind: 'datasheet-ability',
  characteristic(which, value, ctx) {
    return which === 'Ld' && psychicallyGuided(ctx.state, ctx.unit) ? 6 : value;
  },
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !psychicallyGuided(ctx.state, ctx.attacker)) return;
    if (ctx.attackers.some((m) => ctx.state.datasheets[m.datasheet].keywords.includes('WRAITHLORD'))) {
      // a TORRENT flamer has no Ballistic Skill to improve
      if (!plan.autoHit) plan.skill -= 1;
    } else plan.hitModifier += 1;
  },
});

export const FATED_HERO = 'Fated Hero';
export const FATED_HERO_KEYWORDS = ['INFANTRY', 'MONSTER', 'MOUNTED', 'VEHICLE'] as const;

/**
 * Fated Hero: at the start of the battle the Wraithlord's player picks INFANTRY, MONSTER, MOUNTED or
 * VEHICLE; its attacks against a unit with that keyword re-roll Hit rolls of 1 and Wound rolls of 1. The
 * entry is also the effect on the Wraithlord's unit (params.keyword).
 */
registerRule({
  name: FATED_HERO, kind: 'datasheet-ability',
  battleStart(g, unit) {
    const { option } = g.decide({
      kind: 'fated-hero', player: unit.player, prompt: `${unit.name}: Fated Hero: which keyword?`,
      options: [...FATED_HERO_KEYWORDS], context: { unit: unit.id },
    });
    g.addEffect(FATED_HERO, unit.player, unit.id, { at: 'end-of-battle' }, { keyword: option });
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || !ctx.target.keywords.includes(String(src.effect.params.keyword))) return;
    plan.rerollHits = widerReroll(plan.rerollHits, 'ones');
    plan.rerollWounds = widerReroll(plan.rerollWounds, 'ones');
  },
});

// --- Warlocks ----------------------------------------------------------------------------------

/** Runes of Battle: the Warlock Skyrunners' weapons have IGNORES COVER (their attacks' targets lose the Benefit of Cover). */
registerRule({
  name: 'Runes of Battle (Psychic)', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && !ctx.melee) plan.ignoresCover = true;
  },
});

/** Protect: while a Farseer (or Farseer Skyrunner, Eldrad) leads the Warlock Conclave, attacks at it get -1 to wound. */
registerRule({
  name: 'Protect (Psychic)', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'defender' && leadingModel(ctx.state, ctx.target, 'FARSEER')) plan.woundModifier -= 1;
  },
});

/**
 * Runes of Fortune: an enemy charge that targets the Warlock's unit has -2 to its Charge roll, once however
 * many such targets; unlike the Grav-inhibitor Drone's, it adds to the charging unit's own penalties (its
 * text has no "not cumulative" clause; see chargeRollModifier).
 */
registerRule({ name: 'Runes of Fortune (Psychic)', kind: 'datasheet-ability', chargeRollAgainstAdds: () => -2 });

const COMMUNION = 'Psychic Communion (Psychic)';

/**
 * Psychic Communion: when the unit is selected to shoot, each of its Warlock models (the models of a
 * datasheet with this ability) gets, until the end of the phase, +1 Attacks and +1 Strength to its
 * Destructor for each other friendly AELDARI PSYKER model within 6" of it, at most +2. The bonuses are
 * counted then and kept in the effect on the unit (params.bonus, by model id); Destructor attack groups
 * are split by bonus (Rule.splitAttackers), so each Warlock fires with its own.
 */
registerRule({
  name: COMMUNION, kind: 'datasheet-ability',
  selectedToShoot(g, unit) {
    const s = g.state;
    const psykers = unitsOnBattlefield(s, unit.player).filter((f) => f.keywords.includes('AELDARI'))
      .flatMap((f) => f.models.filter((m) => m.alive && m.pos && modelHasKeyword(s, m, 'PSYKER')));
    const bonus: Record<string, number> = {};
    let any = false;
    for (const m of unit.models) {
      if (!m.alive || !m.pos || !m.weapons.includes('Destructor') || !s.datasheets[m.datasheet].abilities.includes(COMMUNION)) continue;
      const body = modelBody(s, m);
      const near = psykers.filter((p) => p.id !== m.id && isWithin(body, modelBody(s, p), 6)).length;
      bonus[m.id] = Math.min(2, near);
      if (near > 0) any = true;
    }
    // selected again in the phase (a rule that lets it shoot twice): counted anew, never above +2
    for (const e of s.effects.filter((x) => x.kind === COMMUNION && x.unit === unit.id)) g.removeEffect(e.id);
    if (any) g.addEffect(COMMUNION, unit.player, unit.id, g.untilEndOfPhase(), { bonus });
  },
  splitAttackers(_s, _u, weapon, models, src) {
    if (weapon.name !== 'Destructor' || !src.effect || models.length < 2) return [models];
    const bonus = src.effect.params.bonus as Record<string, number>;
    const first = bonus[models[0].id] ?? 0;
    if (models.every((m) => (bonus[m.id] ?? 0) === first)) return [models];
    // parts in the order of their first model, bonuses 0, 1, 2
    return [0, 1, 2].map((b) => models.filter((m) => (bonus[m.id] ?? 0) === b)).filter((p) => p.length > 0);
  },
  attack(plan, ctx, src) {
    if (!src.effect || src.role !== 'attacker' || ctx.weapon.name !== 'Destructor') return;
    const bonus = src.effect.params.bonus as Record<string, number>;
    const n = Math.min(...ctx.attackers.map((m) => bonus[m.id] ?? 0));
    if (n <= 0) return;
    plan.attacks = { ...plan.attacks, plus: plan.attacks.plus + n };
    plan.strength += n;
  },
});

// --- Wraithseer, Warp Hunter ---------------------------------------------------------------------

/** Horrify: after the Wraithseer shot in its Shooting phase, one enemy unit it hit takes a Battle-shock test. */
registerRule({
  name: 'Horrify (Psychic)', kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    shockOneHitEnemy(g, unit, hitWith, 'WRAITHSEER', (options) => g.decide({
      kind: 'horrify', player: unit.player, prompt: `${unit.name}: Horrify: which enemy unit takes a Battle-shock test?`, options, context: { unit: unit.id },
    }).option);
  },
});

/**
 * Devastating Assault (the Warp Hunter's): after it shot in its Shooting phase, one enemy unit it hit
 * takes a Battle-shock test. (The Daemon Prince of Khorne's ability of that name, a World Eaters unit,
 * is another rule; that faction is not in the engine.)
 */
registerRule({
  name: 'Devastating Assault', kind: 'datasheet-ability',
  afterShooting(g, unit, _hit, hitWith) {
    shockOneHitEnemy(g, unit, hitWith, 'WARP HUNTER', (options) => g.decide({
      kind: 'devastating-assault', player: unit.player, prompt: `${unit.name}: Devastating Assault: which enemy unit takes a Battle-shock test?`, options, context: { unit: unit.id },
    }).option);
  },
});

// --- Vypers ----------------------------------------------------------------------------------------

/**
 * Harassment Fire: after the Vypers shot in their Shooting phase, one enemy unit they hit is suppressed
 * (-1 to its Hit rolls) until the start of their player's next turn, whatever becomes of the Vypers.
 */
registerRule({
  name: 'Harassment Fire', kind: 'datasheet-ability',
  afterShooting(g, unit, hit) {
    const options = hitEnemies(g, unit, hit).map((e) => e.id);
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'harassment-fire', player: unit.player, prompt: `${unit.name}: Harassment Fire: which enemy unit is suppressed?`, options, context: { unit: unit.id } });
    g.addEffect(SUPPRESSED, unit.player, option, untilStartOfNextTurn(g, unit.player), { by: unit.id });
  },
});

// --- Wasp Assault Walker -------------------------------------------------------------------------

/** Cloudbreakers: the Wasp's Advance is not rolled: 6" are added to its Move for that move. */
registerRule({ name: 'Cloudbreakers', kind: 'datasheet-ability', fixedAdvance: () => 6 });

// --- Titan Hunter (Tiger Shark AX-1-0 and Vampire Hunter) ------------------------------------------

const TITAN_HUNTER_WEAPONS = new Set(['Twin heavy rail cannon', 'Seeker missile']);

/**
 * Titan Hunter names two rules in the data, told apart by the attacking model: the AX-1-0 Tiger Shark's
 * (T'au) gives its twin heavy rail cannon and seeker missiles ANTI-TITANIC 3+ against a target within half
 * range; the Vampire Hunter's ranged attacks re-roll a Damage roll of 1 against a MONSTER or VEHICLE (the
 * target unit's keywords: every model of such a unit is one).
 */
registerRule({
  name: 'Titan Hunter', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || ctx.melee) return;
    const all = (keyword: string) => ctx.attackers.every((m) => modelHasKeyword(ctx.state, m, keyword));
    if (all('VAMPIRE HUNTER')) {
      if (isMonsterOrVehicle(ctx.target)) plan.rerollDamageOnes = true;
    } else if (all('AX-1-0 TIGER SHARK') && ctx.halfRange && TITAN_HUNTER_WEAPONS.has(ctx.weapon.name) && ctx.target.keywords.includes('TITANIC')) {
      plan.criticalWoundOn = Math.min(plan.criticalWoundOn, 3);
    }
  },
});

// --- Warp Spiders --------------------------------------------------------------------------------

const FLICKERJUMP = 'Flickerjump';
/** The effect of a Flickerjump on the Warp Spiders' unit until the end of the turn: Move 24", no charge. */
export const FLICKERJUMPED = 'Flickerjump (jumped)';

/**
 * Flickerjump: in its Movement phase, when the unit is selected to make a Normal move, its player may use
 * it (decision): until the end of the turn its models have Move 24" and it cannot declare a charge; at
 * the end of the phase one D6 is rolled for each of its models, each 1 inflicting 1 mortal wound on it.
 */
registerRule({
  name: FLICKERJUMP, kind: 'datasheet-ability',
  beforeMove(g, unit, mode, to) {
    const s = g.state;
    if (mode !== 'normal' || s.phase !== 'movement' || s.turn !== unit.player || s.effects.some((e) => e.kind === FLICKERJUMPED && e.unit === unit.id)) return;
    const { option } = g.decide({ kind: 'flickerjump', player: unit.player, prompt: `${unit.name}: Flickerjump (Move 24", no charge, a D6 per model: each 1 a mortal wound)?`, options: ['keep', 'use'], context: { unit: unit.id, to: { ...to } } });
    if (option === 'use') g.addEffect(FLICKERJUMPED, unit.player, unit.id, g.untilEndOfTurn());
  },
  phaseEnd(g, unit, phase) {
    const s = g.state;
    // the one Movement phase of the turn in which it jumped
    if (phase !== 'movement' || s.turn !== unit.player || !s.effects.some((e) => e.kind === FLICKERJUMPED && e.unit === unit.id)) return;
    const models = unit.models.filter((m) => m.alive).length;
    if (models === 0) return;
    const ones = g.dice.d6(models, 'mortal-wounds', unit.player, unit.id, 'Flickerjump (each 1: 1 mortal wound)').filter((v) => v === 1).length;
    if (ones > 0) inflictMortalWounds(g, unit, ones, null);
  },
});

registerRule({
  name: FLICKERJUMPED, kind: 'effect',
  characteristic: (which, value) => (which === 'M' ? 24 : value),
  characteristicStage: { M: 'set' },
  // no charge this turn, unless a rule lets it (Lhykhis' Empyric Ambush)
  forbids: (perm, ctx) => perm === 'charge' && !allows(ctx.state, ctx.unit, 'charge-after-flickerjump'),
});

// --- Wraithknights -----------------------------------------------------------------------------------

const POINT_BLANK_WEAPONS: ReadonlySet<string> = new Set(['heavy wraithcannon', 'suncannon']);

/** Point-blank Devastation: the Wraithknight's heavy wraithcannon or suncannon re-rolls its number of attacks against a target within half range. */
registerRule({
  name: 'Point-blank Devastation', kind: 'datasheet-ability',
  attack(plan, ctx, src) {
    if (src.role === 'attacker' && ctx.halfRange && POINT_BLANK_WEAPONS.has(ctx.weapon.name.toLowerCase())) plan.rerollAttacks = true;
  },
});

/**
 * Titanic Strides: the Wraithknight's Normal, Advance and Fall Back moves pass through models other than
 * TITANIC ones and through terrain of any height (Rule.movesOver); after a move that went through a ruin or
 * an impassable piece over 4" high, a D6: on a 1 it is Battle-shocked. Area terrain does not count: any
 * model may cross it, so the rule is not what lets it through.
 */
registerRule({
  name: 'Titanic Strides', kind: 'datasheet-ability', movesOver: { titanicModels: false, terrainHeight: Infinity },
  movedAlong(g, unit, moves) {
    const s = g.state;
    const high = highTerrain(s);
    if (!moves.some((mv) => pathOverlapsTerrain(modelBase(s, unit.models.find((m) => m.id === mv.model)!), mv.path, high))) return;
    const [roll] = g.dice.d6(1, 'other', unit.player, unit.id, 'Titanic Strides');
    if (roll === 1 && !g.state.units[unit.id].battleShocked) g.emit({ type: 'battle-shock', unit: unit.id, value: true });
  },
});
/** The ruins and impassable pieces over 4" high: crossing one costs Titanic Strides its D6. */
function highTerrain(s: GameState): BlockingPiece[] {
  return boardOf(s).terrain.filter((t) => (t.kind === 'ruin' || t.kind === 'impassable') && t.height > WALKER.terrainHeight)
    .map((t) => ({ polygon: t.polygon, aabb: polygonAabb(t.polygon), kind: t.kind, height: t.height }));
}

/** Titanic Agility: through every model and terrain feature. */
registerRule({ name: 'Titanic Agility', kind: 'datasheet-ability', movesOver: { titanicModels: true, terrainHeight: Infinity } });
/** Agile: over models other than TITANIC ones and terrain up to 4" high (as Heavy Walker). */
registerRule({ name: 'Agile', kind: 'datasheet-ability', movesOver: WALKER });

const SHUNT_USED = 'Webway Shunt Generator (used)';
registerRule({ name: SHUNT_USED, kind: 'effect' });

/** Webway Shunt Generator: once per battle, at the end of the opponent's turn, not within Engagement Range, into Strategic Reserves. */
registerRule({
  name: 'Webway Shunt Generator', kind: 'datasheet-ability',
  turnEnd: intoReservesAtTurnEnd(
    'Webway Shunt Generator (once per battle)', 'webway-shunt-generator',
    (g, unit) => !g.state.effects.some((e) => e.kind === SHUNT_USED && e.unit === unit.id),
    (g, unit) => { g.addEffect(SHUNT_USED, unit.player, unit.id, { at: 'end-of-battle' }); },
  ),
});
