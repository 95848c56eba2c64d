/**
 * Ghosts of the Webway, a Harlequin detachment of the data export, in the engine's words: its rule Acrobatic
 * Onslaught, its six stratagems (HEROES' FALL through fighting on death) and its four Enhancements. Each is
 * one registry entry; the stratagems' effects are entries of kind 'effect'. What it shares with Serpent's
 * Brood is in ./harlequin-detachments.ts.
 */
import '../core-first.ts';
import { registerRule } from '../../core/rules-registry.ts';
import { registerStratagem } from '../../rules/stratagems/registry.ts';
import { targetedOwnUnits, windowOwnUnit } from '../../rules/stratagems/targets.ts';
import { belowHalfStrength, hasKeyword, isMonsterOrVehicle, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { engagedEnemies, modelBody, unitDistance } from '../../rules/battle/world.ts';
import { canCharge, chargeTargets, declareCharge, targetSets } from '../../rules/battle/charge.ts';
import { inEngagementRange } from '../../geometry/ranges.ts';
import { inflictMortalWounds } from '../../rules/damage.ts';
import { attackersAreBearer, bearerLeads, bearerModel, setModelBackUp } from '../helpers.ts';
import { harlequins, registerExit, registerStride, troupe, troupeObjectiveControl } from './harlequin-detachments.ts';

export const GHOSTS_OF_THE_WEBWAY = 'Ghosts of the Webway';
const ACROBATIC_ONSLAUGHT = 'Acrobatic Onslaught';

/**
 * Acrobatic Onslaught: HARLEQUINS models' Charge moves may pass through enemy models (planned as a FLY
 * unit's charge is: through them, and through the Engagement Range of units it does not charge, ending as
 * any charge must). Travelling Players: TROUPE models of Troupe units have OC 2.
 */
registerRule({
  name: ACROBATIC_ONSLAUGHT, kind: 'detachment-rule',
  chargeThroughModels: (ctx) => harlequins(ctx.unit),
  characteristic: troupeObjectiveControl,
});

export const GHOSTS_OF_THE_WEBWAY_RULES = [ACROBATIC_ONSLAUGHT];

// --- Stratagems ----------------------------------------------------------------------------------

/** How close an enemy unit must be for BLOODY DANCE. */
const BLOODY_DANCE_RANGE = 6;

/** The enemy units a unit could charge that are within 6" of it (BLOODY DANCE's targets). */
function bloodyDanceTargets(g: Parameters<typeof canCharge>[0], u: Parameters<typeof canCharge>[1]) {
  return chargeTargets(g, u).filter((e) => unitDistance(g.state, u, e) <= BLOODY_DANCE_RANGE + 1e-6);
}

/**
 * BLOODY DANCE, at the end of the opponent's Charge phase: a HARLEQUINS INFANTRY or MOUNTED unit that could
 * declare a charge (were it its own Charge phase) against enemy units within 6" of it declares one against
 * some of those (decision `charge-targets`) and resolves it, without the Charge bonus (it does not Fight First).
 */
registerStratagem({
  name: 'BLOODY DANCE', cp: 1, category: 'Strategic Ploy', source: GHOSTS_OF_THE_WEBWAY, turn: 'opponent', windows: ['phase/end'],
  targets(g, w, p) {
    if (w.data?.phase !== 'charge') return [];
    return unitsOnBattlefield(g.state, p).filter((u) =>
      harlequins(u) && (hasKeyword(u, 'INFANTRY') || hasKeyword(u, 'MOUNTED')) && canCharge(g, u) && bloodyDanceTargets(g, u).length > 0);
  },
  use(g, _w, p, u) {
    const options = targetSets(bloodyDanceTargets(g, u).map((e) => e.id));
    if (options.length === 0) return;
    const { option } = g.decide({ kind: 'charge-targets', player: p, prompt: `${u.name}: Bloody Dance: charge which units?`, options, context: { unit: u.id } });
    declareCharge(g, u, { targets: option.targets, chargeBonus: false });
  },
});

/** MOCKING FLIGHT's effect until the end of the turn: the unit may shoot and declare a charge although it Fell Back. */
registerRule({
  name: 'Mocking Flight', kind: 'effect',
  allows: (perm) => perm === 'shoot-after-fall-back' || perm === 'charge-after-fall-back',
});

registerStratagem({
  name: 'MOCKING FLIGHT', cp: 1, category: 'Strategic Ploy', source: GHOSTS_OF_THE_WEBWAY, turn: 'own', windows: ['movement/after-own-move'],
  targets: (g, w, p) => { const u = windowOwnUnit(g, w, p); return u && u.flags.fellBack && harlequins(u) ? [u] : []; },
  use(g, _w, p, u) { g.addEffect('Mocking Flight', p, u.id, g.untilEndOfTurn()); },
});

registerStride("TRICKSTERS' RETORT", GHOSTS_OF_THE_WEBWAY, 'tricksters-retort', troupe);

registerExit('EXIT THE STAGE', GHOSTS_OF_THE_WEBWAY, harlequins);

/**
 * HEROES' FALL's effect: this phase, the unit's models destroyed before they have fought may fight before
 * they are removed, on a D6 of 4+ (src/rules/battle/fight-on-death.ts, as TO THEIR FINAL BREATH).
 */
registerRule({ name: "Heroes' Fall", kind: 'effect', fightOnDeath: () => 0 });

registerStratagem({
  name: "HEROES' FALL", cp: 1, category: 'Strategic Ploy', source: GHOSTS_OF_THE_WEBWAY, turn: 'either', windows: ['fight/after-enemy-targets'],
  targets: (g, w, p) => targetedOwnUnits(g, w, p).filter(harlequins),
  use(g, _w, p, u) { g.addEffect("Heroes' Fall", p, u.id, g.untilEndOfPhase()); },
});

/**
 * Army-wide effect (params: model, leader, bodyguard, x, y) of STAGED DEATH on a fallen model: at the end of
 * the phase it is set back up as near as the planner can to where it fell (x, y), not within Engagement Range
 * of an enemy unit, with half its starting wounds (rounded up); a Leader rejoins the Bodyguard unit it led if
 * that unit is still on the battlefield (as Unquenchable Resolve does).
 */
const STAGED_DEATH_PENDING = 'Staged Death (fallen)';

registerRule({
  name: STAGED_DEATH_PENDING, kind: 'effect',
  effectPhaseEnd(g, effect) {
    g.removeEffect(effect.id);
    setModelBackUp(g, effect, (m) => Math.ceil(g.state.datasheets[m.datasheet].models[m.profile].wounds / 2));
  },
});

/** The player's rule-state key that marks a model STAGED DEATH was used on (once per model per battle). */
const stagedDeathKey = (model: string) => `STAGED DEATH:${model}`;

registerStratagem({
  name: 'STAGED DEATH', cp: 1, category: 'Strategic Ploy', source: GHOSTS_OF_THE_WEBWAY, turn: 'either', windows: ['model/destroyed'],
  // just after a HARLEQUINS CHARACTER model of the player's army was destroyed on the battlefield: its unit
  targets(g, w, p) {
    const u = w.unit ? g.state.units[w.unit] : null;
    const m = u?.models.find((x) => x.id === w.data?.model);
    if (!u || !m || u.player !== p || !m.pos || g.state.players[p].ruleState[stagedDeathKey(m.id)] !== undefined) return [];
    const ds = g.state.datasheets[m.datasheet];
    return ds.keywords.includes('CHARACTER') && ds.factionKeywords.includes('HARLEQUINS') ? [u] : [];
  },
  use(g, w, p, u) {
    const m = u.models.find((x) => x.id === w.data?.model)!;
    g.emit({ type: 'rule-state', player: p, key: stagedDeathKey(m.id), value: g.state.round });
    // an Attached unit bears its Bodyguard unit's id
    const bodyguard = u.id !== m.origin ? u.id : null;
    g.addEffect(STAGED_DEATH_PENDING, p, null, { at: 'end-of-battle' }, { model: m.id, leader: m.origin, bodyguard, x: m.pos!.x, y: m.pos!.y });
  },
});

// --- Enhancements ----------------------------------------------------------------------------------

const CEGORACHS_COIL = "Cegorach's Coil";
/** At most this many mortal wounds from Cegorach's Coil. */
const COIL_MAX = 6;

/**
 * Cegorach's Coil: when the bearer's unit ends a Charge move, one enemy unit within Engagement Range of it
 * (decision `cegorachs-coil` when there are several) takes a D6 per model of the bearer's unit within
 * Engagement Range of that enemy unit: each 4+ is a mortal wound, 6 at most.
 */
registerRule({
  name: CEGORACHS_COIL, kind: 'enhancement',
  afterChargeMove(g, unit) {
    const s = g.state;
    if (!bearerModel(unit, CEGORACHS_COIL)) return;
    const enemies = engagedEnemies(s, unit);
    if (enemies.length === 0) return;
    const target = enemies.length === 1 ? enemies[0] : s.units[g.decide({
      kind: 'cegorachs-coil', player: unit.player, prompt: `${unit.name}: Cegorach's Coil: which enemy unit?`, options: enemies.map((e) => e.id), context: { unit: unit.id },
    }).option];
    const theirs = target.models.filter((m) => m.alive && m.pos).map((m) => modelBody(s, m));
    const near = unit.models.filter((m) => m.alive && m.pos && theirs.some((b) => inEngagementRange(modelBody(s, m), b))).length;
    if (near === 0) return;
    const rolls = g.dice.d6(near, 'other', unit.player, unit.id, `${CEGORACHS_COIL} -> ${target.name}`);
    const wounds = Math.min(COIL_MAX, rolls.filter((r) => r >= 4).length);
    if (wounds > 0) inflictMortalWounds(g, target, wounds, unit.id);
  },
});

const MASK_OF_SECRETS = 'Mask of Secrets';

/**
 * Mask of Secrets: an enemy unit (not a MONSTER or VEHICLE) within Engagement Range of the bearer's unit that
 * Falls Back takes a Desperate Escape test for every model, each 1 worse while it is Battle-shocked
 * (Rule.enemyDesperateEscape, read by movement.ts).
 */
registerRule({
  name: MASK_OF_SECRETS, kind: 'enhancement',
  enemyDesperateEscape(ctx) {
    if (isMonsterOrVehicle(ctx.fleeing) || !bearerModel(ctx.unit, MASK_OF_SECRETS)) return null;
    return { allModels: true, modifier: ctx.fleeing.battleShocked ? -1 : 0 };
  },
});

const MURDERS_JEST = "Murder's Jest";

/**
 * Murder's Jest: the bearer's attacks against a unit Below Half-strength score a Critical Hit with every
 * Hit roll that hits (AttackPlan.everyHitCritical, as Cry of the Wind).
 */
registerRule({
  name: MURDERS_JEST, kind: 'enhancement',
  attack(plan, ctx, src) {
    if (src.role !== 'attacker' || !belowHalfStrength(ctx.state, ctx.target) || !attackersAreBearer(ctx.attacker, ctx.attackers, MURDERS_JEST)) return;
    plan.everyHitCritical = true;
  },
});

/** Mistweave: while the bearer leads a unit, its models have Infiltrators (the Permission 'infiltrate'). */
registerRule({
  name: 'Mistweave', kind: 'enhancement',
  allows: (perm, ctx) => perm === 'infiltrate' && bearerLeads(ctx.unit, 'Mistweave'),
});
