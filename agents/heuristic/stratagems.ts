/**
 * Stratagems: the expected gain of each option in points (stratagemGain), against the CP's worth (cpPrice).
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { UnitState } from '../../src/core/state.ts';
import { rollOutcome, widerReroll } from '../../src/rules/attack-plan.ts';
import { everyModelHas, weaponRange } from '../../src/core/rules-registry.ts';
import { enemyUnits, ownUnits, p2d6AtLeast, pointsPerWound, unitAttackPotential, unitValue, unitWounds, weaponEstimate, weaponUses, type PlanTweak } from '../../src/ai/evaluate.ts';
import { dist, objectiveSnapshot, unitGeo, type Point } from '../../src/ai/tactics.ts';
import { belowStartingStrength, bestLeadership, characteristic, hasKeyword, onBattlefield, rollModifier, unitMove } from '../../src/rules/battle/units.ts';
import { chargeRollModifier } from '../../src/rules/battle/charge.ts';
import { isEngaged, modelBody, unitDistance, engagedEnemies, unitSees } from '../../src/rules/battle/world.ts';
import { horizontalDistance } from '../../src/geometry/distance.ts';
import { arrivalPoints as reservesArrivalPoints } from '../../src/rules/battle/reserves.ts';
import { modelsAcrossHatchway } from '../../src/rules/battle/hatchways.ts';
import { auxiliary, guidedFireBonus } from '../../src/factions/tau/auxiliary-cadre.ts';
import { tanglebombTargets } from '../../src/factions/tau/kroot-raiding-party.ts';
import { OVERFLIGHT_MOVE } from '../../src/factions/aeldari/windrider-host.ts';
import { STRIDE_MOVE, VENOMOUS_WRATH_MOVE, WEAVERS_COILS_FALL_BACK } from '../../src/factions/aeldari/harlequin-detachments.ts';
import { destroyedGuardians } from '../../src/factions/aeldari/guardian-battlehost.ts';
import { normalMoveChoices, withinObjectiveRange } from '../../src/factions/helpers.ts';
import { impedingFireTargets, withdrawnModelsBack } from '../../src/factions/aeldari/eldritch-raiders.ts';
import { SEER_STRANDS_OF_FATE, truthPoints } from '../../src/factions/aeldari/seer-council.ts';
import { crushingStridesDice } from '../../src/factions/aeldari/spirit-conclave.ts';
import { psychicallyGuided } from '../../src/factions/aeldari/wraiths-and-warlocks.ts';
import { pointInPolygon } from '../../src/geometry/polygon.ts';
import { perVersion } from '../../src/ai/memo.ts';
import { type Ctx, argmax } from './context.ts';
import { type ObjectiveView, objectiveView } from './objectives.ts';
import { type MoveFlags, type UnitCtx, chargeAt, positionScore, unitCtx } from './unit-context.ts';
import { type MoveOption, bestMoveScore, moveEnd, swiftDeploymentGain, towardEnemy } from './moves.ts';
import { moveOptionsFor } from './selection.ts';
import { attackOn, bestVolley, oneRerollGain } from './attacks.ts';
import { bestPotential, chargeNeed, chargePrize } from './charges.ts';
import { ARROKON, BLITZING_FIREPOWER, D6_PLUS_1_REACH, DAMPENERS, DOOM_DAMAGE, EXPERIMENTAL_AMMUNITION_TWEAKS, FIRING_LINE, FNP_5, GO_TO_GROUND, IGNORE_HIT_PENALTIES, INVULNERABLE_4, MINUS_ONE_DAMAGE, MINUS_ONE_TO_HIT, MINUS_ONE_TO_WOUND, OVERWATCH, PRETERNATURAL_TWEAKS, SEERS_EYE, SHURIKEN_STORM_WEAPONS, SMOKESCREEN, STIMMS, type StratOption, THREAT_ASSESSMENT_TWEAKS, WARHOST, WORSE_SKILL, type WindowCtx, battleShockCost, bestChoice, bloodyDanceGain, bruteForceGain, chargeFoiled, costOfVictoryGain, dStrikeStun, endsBeyondReach, failSafeGain, fangsGain, fightOnDeathGain, grislyFeastGain, impedingFireGain, incomingSaved, interlockingGain, joinTheHuntGain, lethalRuseWounds, noPreyTooBig, phaseAttackGain, serpentStrikeGain, stagedDeathGain, strikingStrideGain, sweepingAmbushGain, tanglebombGain, trapWellLaidGain, vengefulSorrowGain, volleyGain } from './stratagem-prices.ts';
import { bestArrival } from './deployment.ts';
import { embarkSafety } from './abilities.ts';
import { battlefieldCommandGain } from './battlefield-command.ts';
import { explosiveClearanceChoice } from './explosive-clearance.ts';

/** What COMMAND RE-ROLL's request tells of the roll (`test`: what a die of a Hit, Wound or saving roll needs). */
interface RerollContext { purpose: string; values: number[]; target: number | null; unit?: string; test?: { needed: number; modifier: number; criticalOn: number } | null }

/** Expected gain of a stratagem option in points (before its CP cost). */
function stratagemGain(c: Ctx, o: StratOption, win: WindowCtx | undefined, roll: RerollContext | undefined): number {
  const s = c.state;
  const u = o.unit ? s.units[o.unit] : null;
  switch (o.stratagem) {
    case 'COMMAND RE-ROLL': return rerollGain(c, o, roll);
    case 'GO TO GROUND': return u && win ? incomingSaved(c, win, u, GO_TO_GROUND) : 0;
    case 'SMOKESCREEN': return u && win ? incomingSaved(c, win, u, SMOKESCREEN) : 0;
    case 'LIGHTNING-FAST REACTIONS': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_HIT) : 0;
    case 'COUNTERFIRE DEFENCE SYSTEMS': return u && win ? incomingSaved(c, win, u, MINUS_ONE_DAMAGE) : 0;
    case 'FIRE OVERWATCH': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      // as a move starts, fire only at a unit whose move ends beyond the unit's guns (moving away); else wait
      // for the end, where the target is nearest in nearly every move (Overwatch is once a turn)
      if (win?.name === 'movement/enemy-move-started' && !endsBeyondReach(c, u, e, win.data as { mode?: string; to?: Point } | undefined)) return 0;
      return attackOn(c, u, e, false, OVERWATCH);
    }
    case 'HEROIC INTERVENTION': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      const p = p2d6AtLeast(chargeNeed(c, u, e));
      return p * (unitAttackPotential(s, u, e, true) - 0.5 * unitAttackPotential(s, e, u, true));
    }
    case 'BATTLEFIELD COMMAND': return u ? battlefieldCommandGain(c, u, win) : 0;
    case 'EXPLOSIVE CLEARANCE': return u ? explosiveClearanceChoice(c, u).gain : 0;
    case 'COUNTER-OFFENSIVE': {
      if (!u) return 0;
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, unitAttackPotential(s, u, e, true));
      return 0.5 * best;
    }
    case 'EPIC CHALLENGE': {
      if (!u) return 0;
      let best = 0;
      for (const e of engagedEnemies(s, u)) {
        if (e.components.length < 2) continue;
        for (const comp of e.components) if (comp.isLeader && !comp.destroyed) best = Math.max(best, 0.3 * (s.units[comp.unit]?.points ?? 0));
      }
      return best;
    }
    case 'INSANE BRAVERY': return u ? battleShockCost(c, u, 0) : 0;
    case 'RAPID INGRESS': return u ? 0.5 * bestArrival(c, u).gain + 5 : 0;
    case 'TANK SHOCK': {
      if (!u) return 0;
      let tough = 0;
      for (const m of u.models) if (m.alive) tough = Math.max(tough, s.datasheets[m.datasheet].models[m.profile].toughness);
      const mortal = Math.min(6, tough / 3);
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, Math.min(mortal, unitWounds(s, e).now) * pointsPerWound(s, e));
      return best;
    }
    case 'A TEMPTING TRAP': {
      if (!u) return 0;
      const trap = s.players[c.me].ruleState.trapObjective as string | undefined;
      const marker: { id: string; pos: Point } | undefined = trap ? s.objectives.find((x) => x.id === trap) : bestTrapObjective(c);
      if (!marker) return 0;
      const near = (t: UnitState) => unitNearMarker(c, t, marker.pos);
      return Math.max(0, bestVolley(c, u, (p, info) => { if (near(info.target)) p.woundModifier += 1; }) - bestVolley(c, u));
    }
    case 'POINT-BLANK AMBUSH': return u ? volleyGain(c, u, (p, info) => { if (info.distance <= 9) p.ap -= 1; }) : 0;
    case 'COORDINATE TO ENGAGE': {
      const t = win?.targets[0] ? s.units[win.targets[0]] : null;
      if (!u || !t) return 0;
      const ml = u.keywords.includes('MARKERLIGHT');
      return Math.max(0, attackOn(c, u, t, false, (p) => { p.skill -= 1; if (ml) { p.ignoresCover = true; p.cover = false; } }) - attackOn(c, u, t, false));
    }
    case 'COMBAT DEBARKATION': return u ? 0.6 * volleyGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    case 'BLADESTORM': return u ? volleyGain(c, u, (p) => { p.criticalWoundAp = Math.max(p.criticalWoundAp, 2); }) : 0;
    // two SOULSIGHTs: the Armoured Warhost's (a re-roll of one Hit, Wound and Damage roll) and Devoted of Ynnead's
    case 'SOULSIGHT':
      if (!u) return 0;
      return o.source === 'Devoted of Ynnead' ? volleyGain(c, u, (p) => { p.lethalHits = true; p.ignoresCover = true; p.cover = false; }) : oneRerollGain(c, u);
    case 'FOCUSED FIRE': return u ? focusedFire(c, u).gain : 0;
    case 'PULSE ONSLAUGHT': {
      if (!u) return 0;
      const hit = (win?.data?.hitTargets as string[] | undefined) ?? [];
      let best = 0;
      for (const id of hit) {
        const e = s.units[id];
        if (!e || !onBattlefield(e)) continue;
        for (const m of ownUnits(s, c.me)) best = Math.max(best, 0.25 * unitAttackPotential(s, e, m, true));
      }
      return best;
    }
    case 'PINPOINT COUNTER-OFFENSIVE': {
      const by = win?.data?.by as string | undefined;
      const e = by ? s.units[by] : null;
      return e && onBattlefield(e) ? pinpointGain(c, e) : 0;
    }
    case 'FEIGNED RETREAT': case 'VECTORED ENGINES': case 'GUERRILLA WARRIORS': return u ? 0.8 * bestPotential(c, u) * (s.round >= 5 ? 0.8 : 1) : 0;
    case 'MATCHLESS AGILITY': case 'AGGRESSIVE MOBILITY': return u ? agilityGain(c, u) : 0;
    case 'ANTI-GRAV REPULSION': {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e ? chargeFoiled(c, e, u) : 0;
    }
    case 'PHOTON GRENADES': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      const charge = chargeFoiled(c, e, u);
      // its Battle-shock test: failed, its Objective Control is 0 until its next Command phase
      const pFail = e.battleShocked ? 0 : 1 - p2d6AtLeast(bestLeadership(s, e) - rollModifier(s, e, 'battle-shock'));
      const row = objectiveSnapshot(s).contrib.get(e.id);
      return charge + pFail * (row && row.some((x) => x > 0) ? c.w.objective * 0.8 : 0);
    }
    case 'WALL OF MIRRORS': return u ? strategicReservesGain(c, u) : 0;
    // the volley it could not make after Falling Back
    case 'RETREATING FIRE': return u ? bestVolley(c, u) : 0;
    case 'FIRING LINE': {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e ? attackOn(c, u, e, false, FIRING_LINE) : 0;
    }
    case 'RESPONSIVE VOLLEY': {
      const h = (s.board.hatchways ?? []).find((x) => x.id === win?.data?.hatchway);
      if (!u || !h) return 0;
      return volleyGain(c, u, (p, info) => {
        if (modelsAcrossHatchway(s, h.polygon, u.models, info.target.models)) p.criticalHitOn = Math.min(p.criticalHitOn, 5);
      });
    }
    case 'COMBAT EMBARKATION': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e) return 0;
      return p2d6AtLeast(chargeNeed(c, e, u)) * unitAttackPotential(s, e, u, true) - 0.3 * c.w.objective * (objectiveSnapshot(s).contrib.get(u.id)?.some((x) => x > 0) ? 1 : 0);
    }
    case 'LAYERED WARDS': return u ? 2 * pointsPerWound(s, u) * 0.33 : 0;
    case 'CLOUDSTRIKE': case 'DARING RIDERS': return u ? 10 : 0;
    // Windrider Host
    case 'SPIRALLING EVASION': return u && win ? incomingSaved(c, win, u, INVULNERABLE_4) : 0;
    case 'FOCUSED FIREPOWER': return u ? volleyGain(c, u, (p) => { p.ap -= 1; }) : 0;
    case 'DEATH FROM ON HIGH': return u ? phaseAttackGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    // the end of a phase: a 7" Normal move, weighed as INTERLOCKING MANOUEVRES' 6"
    case 'OVERFLIGHT': return u ? interlockingGain(c, u, OVERFLIGHT_MOVE) : 0;
    // selected to move: out of combat it may Fall Back and still shoot (as FEIGNED RETREAT), else Advance and
    // still shoot and charge (a share of MATCHLESS AGILITY's sure 6", as ALIEN EXPERTISE's)
    case 'WIND OF BLADES': return u ? (isEngaged(s, u) ? 0.8 * bestPotential(c, u) : 0.6 * agilityGain(c, u)) : 0;
    // the Warhost's: after the unit shot, a D6+1" move (the Battle Host's: a full Normal move at the end of the phase)
    case 'FIRE AND FADE': return u ? fireAndFadeGain(c, u, o.source === WARHOST ? D6_PLUS_1_REACH : undefined) : 0;
    // Warhost. BLITZING FIREPOWER: SUSTAINED HITS 1 within 12" (Critical Hits on 5+ for a weapon that has it);
    // WEBWAY TUNNEL: into Strategic Reserves as WALL OF MIRRORS
    case 'BLITZING FIREPOWER': return u ? volleyGain(c, u, BLITZING_FIREPOWER) : 0;
    case 'WEBWAY TUNNEL': return u ? strategicReservesGain(c, u) : 0;
    case 'SWIFT DEPLOYMENT': return u ? swiftDeploymentGain(c, u) : 0;
    case 'EXPERIMENTAL WEAPONRY': return u ? volleyGain(c, u, (p) => { p.rerollAttacks = true; }) : 0;
    case "THE ARRO'KON PROTOCOL": return u ? volleyGain(c, u, ARROKON) : 0;
    case 'SHIELD NODES': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_WOUND) : 0;
    case 'WARDING SALVOES': return u ? volleyGain(c, u, (p, info) => { if (withinObjectiveRange(s, info.target)) p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    // an Advance of 6" for sure, after which it still shoots and charges: as 6" more of move
    case 'TIME TO STRIKE': return u ? agilityGain(c, u) : 0;
    case 'COST OF VICTORY': return u ? costOfVictoryGain(c, u, destroyedGuardians(s, u)) : 0;
    // its guns fire in combat, at the enemy units it is fighting: most of what they would do there
    case 'BLADES OF ASURYAN': {
      if (!u) return 0;
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, attackOn(c, u, e, false));
      return 0.8 * best;
    }
    case "VAUL'S VENGEANCE": {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e ? attackOn(c, u, e, false) : 0;
    }
    // Aspect Host
    case 'WARRIOR FOCUS': return u ? phaseAttackGain(c, u, IGNORE_HIT_PENALTIES) : 0;
    // the Damage 8 on the targets within its 12": the 6" of Range it adds are not priced (the volley reads
    // the ranges as they are), so it is used when a target is already in range
    case 'DOOM INESCAPABLE': return u ? volleyGain(c, u, DOOM_DAMAGE) : 0;
    case 'PRETERNATURAL PRECISION': return u ? bestChoice(c, u, PRETERNATURAL_TWEAKS).gain : 0;
    // every model of the enemy unit falling back tests: a 2 in 6 chance of losing each (a 1 in 6 more
    // for a Battle-shocked unit, which tests them all anyway); the models crossing mine would test anyway
    // and are not told apart (the move is not planned yet)
    case "KHAINE'S VENGEANCE": {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!e || !onBattlefield(e)) return 0;
      return (e.battleShocked ? 1 / 6 : 2 / 6) * unitValue(s, e);
    }
    // embarked before the opponent's turn, out of reach of their shooting and charges; at the end of the
    // opponent's Fight phase nothing is gained (it would get out again in its own Movement phase)
    case 'SKYBORNE SANCTUARY': return u && s.turn === c.me ? Math.max(0, embarkSafety(c, u)) : 0;
    case 'TO THEIR FINAL BREATH':
    case "HEROES' FALL": return u && win ? fightOnDeathGain(c, win, u) : 0;
    case 'STIMM INJECTORS': return u && win ? incomingSaved(c, win, u, STIMMS) : 0;
    case 'JOIN THE HUNT': return u ? joinTheHuntGain(c, u) : 0;
    case 'A TRAP WELL LAID': return u ? trapWellLaidGain(c, u) : 0;
    case 'THE GRISLY FEAST': return u ? grislyFeastGain(c, u) : 0;
    case 'EMP GRENADES': {
      // the VEHICLE's attacks on each of the player's units it targets, at a worse Ballistic or Weapon Skill
      let v = 0;
      if (win) for (const id of win.targets) if (s.units[id]?.player === c.me) v += incomingSaved(c, win, s.units[id], WORSE_SKILL);
      return v;
    }
    case 'THE TORCHSTAR GAMBIT': return u ? fireAndFadeGain(c, u) : 0;
    case 'FAIL-SAFE DETONATOR': return u && win ? failSafeGain(c, u, String(win.data?.model)) : 0;
    // Ghosts of the Webway
    // a charge at the end of the opponent's Charge phase, without Fighting First: as HEROIC INTERVENTION's
    case 'BLOODY DANCE': return u ? bloodyDanceGain(c, u) : 0;
    case 'MOCKING FLIGHT': return u ? 0.8 * bestPotential(c, u) * (s.round >= 5 ? 0.8 : 1) : 0;
    // a 6" Normal move in the opponent's Movement phase, weighed as INTERLOCKING MANOUEVRES' 6"
    case "TRICKSTERS' RETORT": case 'WEAVING STRIDE': return u ? interlockingGain(c, u, STRIDE_MOVE) : 0;
    case 'EXIT THE STAGE': case 'SKYWARD LUNGE': return u ? strategicReservesGain(c, u) : 0;
    case 'STAGED DEATH': return u && win ? stagedDeathGain(c, u, String(win.data?.model)) : 0;
    // Serpent's Brood
    case 'FANGS OF THE BROOD': return u ? fangsGain(c, u) : 0;
    // a 6" move after shooting (the VEHICLE gives up a charge it would seldom make)
    case 'VENOMOUS WRATH': return u ? 0.5 * interlockingGain(c, u, VENOMOUS_WRATH_MOVE) : 0;
    case 'STRIKING STRIDE': return u ? strikingStrideGain(c, u) : 0;
    // Corsair Coterie
    case "PIRATES' DUE": return u ? phaseAttackGain(c, u, (p, info) => { p.rerollWounds = widerReroll(p.rerollWounds, u.keywords.includes('ANHRATHE') && withinObjectiveRange(s, info.target) ? 'failed' : 'ones'); }) : 0;
    // a D6+1" Normal move after shooting (4.5" on average), no charge given up
    case 'INTO THE BREACH': return u ? interlockingGain(c, u, D6_PLUS_1_REACH) : 0;
    // as FEIGNED RETREAT (a charge after Falling Back), and for an ANHRATHE unit six D6 at 4+: three mortal wounds on average
    case 'LETHAL RUSE': return u ? 0.8 * bestPotential(c, u) * (s.round >= 5 ? 0.8 : 1) + lethalRuseWounds(c, u) : 0;
    // IGNORES COVER, +1 AP and RAPID FIRE 1 (its half range read as 18", the long rifles' and scatter lasers')
    case 'OUTCAST AMBUSH': return u ? volleyGain(c, u, (p, info) => { p.ignoresCover = true; p.cover = false; p.ap -= 1; if (info.distance <= 18) p.attacksBonus += 1; }) : 0;
    // Stealth (unless the unit has it) and HIDDEN HUNTERS' 18" limit
    case 'CLOAK AND SHADOW': return u && win ? (everyModelHas(u, 'Stealth') ? 0 : incomingSaved(c, win, u, MINUS_ONE_TO_HIT)) + stratagemGain(c, { ...o, stratagem: 'HIDDEN HUNTERS' }, win, roll) : 0;
    // a Surge of D6+1" toward the closest enemy: into combat with it when it is close (weighed as a charge of that reach)
    case 'VENGEFUL SORROW': return u ? vengefulSorrowGain(c, u) : 0;
    // Eldritch Raiders
    case 'NO PREY TOO BIG': return u ? volleyGain(c, u, noPreyTooBig(s)) : 0;
    case "YRIEL'S EXAMPLE": return u && win ? incomingSaved(c, win, u, FNP_5) : 0;
    case 'WITHDRAW AND REINFORCE': return u ? costOfVictoryGain(c, u, withdrawnModelsBack(s, u)) : 0;
    case 'RUTHLESS KILLERS': return u ? phaseAttackGain(c, u, (p) => { p.damageBonus += 1; }) : 0;
    // +1 OC while the unit holds a marker in a combat: half the worth of an objective
    case "RAIDERS' SPOILS": return u && objectiveSnapshot(s).contrib.get(u.id)?.some((x) => x > 0) ? 0.5 * c.w.objective : 0;
    case 'IMPEDING FIRE': {
      if (!u) return 0;
      let best = 0;
      for (const e of impedingFireTargets(s, u)) best = Math.max(best, impedingFireGain(c, e));
      return best;
    }
    // Spirit Conclave. CRUSHING STRIDES: two in three of its dice are mortal wounds, on the enemy unit whose wounds are worth most
    case 'CRUSHING STRIDES': {
      if (!u) return 0;
      const mortal = (2 / 3) * crushingStridesDice(s, u);
      let best = 0;
      for (const e of engagedEnemies(s, u)) best = Math.max(best, Math.min(mortal, unitWounds(s, e).now) * pointsPerWound(s, e));
      return best;
    }
    case 'WRAITHBONE ARMOUR': return u && win ? incomingSaved(c, win, u, MINUS_ONE_DAMAGE) : 0;
    case 'BLADES FROM BEYOND': return u ? phaseAttackGain(c, u, (p) => { if (p.melee) p.devastatingWounds = true; }) : 0;
    // the Damage reductions the target's rules give its models (the AP the estimate reads is already the better one but for those)
    case "SEER'S EYE": return u ? phaseAttackGain(c, u, SEERS_EYE) : 0;
    // a marker the unit holds stays held when it moves on (or dies): a share of what a marker is worth
    case 'SPIRIT TOKEN': return u ? 0.25 * c.w.objective : 0;
    // Psychic Guidance's +1 to hit for a turn (a third more hits at 4+), for a Wraith unit no PSYKER is near
    case 'SOUL BRIDGE': return u && !psychicallyGuided(s, u) ? 0.3 * bestPotential(c, u) : 0;
    // Devoted of Ynnead. EMISSARIES OF YNNEAD: its re-rolls on the enemy it fights; MACABRE RESILIENCE: -1 to wound
    // it; PARTING THE VEIL: a fight on death with no roll (twice TO THEIR FINAL BREATH's 4+); DEATH ANSWERS DEATH:
    // a whole volley; PALL OF DREAD: a marker kept, as CRITICAL CAPTURE's
    case 'EMISSARIES OF YNNEAD': return u ? phaseAttackGain(c, u, (p) => { p.rerollHits = widerReroll(p.rerollHits, belowStartingStrength(u) ? 'failed' : 'ones'); }) : 0;
    case 'MACABRE RESILIENCE': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_WOUND) : 0;
    case 'PARTING THE VEIL': return u && win ? 2 * fightOnDeathGain(c, win, u) : 0;
    case 'DEATH ANSWERS DEATH': return u ? bestVolley(c, u) : 0;
    case 'PALL OF DREAD': return u ? 0.4 * c.w.objective : 0;
    // Aeldari Boarding Actions detachments (Protector Host, Star-dancer Masque, Khaine's Arrow, Wraiths of the Void)
    case 'VOID GHOSTS': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_HIT) : 0;
    case 'SHURIKEN STORM': return u ? volleyGain(c, u, (p, info) => { if (SHURIKEN_STORM_WEAPONS.includes(info.weapon)) p.strength += 1; }) : 0;
    case 'DARTING STRIKES': return u ? phaseAttackGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, 'failed'); }) : 0;
    case 'SERPENT STRIKE': return u ? serpentStrikeGain(c, u) : 0;
    // a Battle-shocked unit Falling Back tests every model (a 1-2 loses one): what those tests would cost
    case 'ACROBATIC LEAPS': return u && u.battleShocked && isEngaged(s, u) ? (u.models.filter((m) => m.alive).length / 3) * pointsPerWound(s, u) * (unitWounds(s, u).now / Math.max(1, u.models.filter((m) => m.alive).length)) : 0;
    // IGNORES COVER, and the Hit roll's penalties ignored (a worsened BS too, which the calculator's plan would show as skill)
    case 'WRAITHSIGHT': return u ? volleyGain(c, u, (p) => { p.ignoresCover = true; p.cover = false; IGNORE_HIT_PENALTIES(p, { distance: 0, target: u, weapon: '' }); }) : 0;
    case 'GUARDIAN CONSTRUCTS': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !win || !e) return 0;
      return (s.board.hatchways ?? []).some((h) => modelsAcrossHatchway(s, h.polygon, e.models, u.models)) ? incomingSaved(c, win, u, MINUS_ONE_TO_WOUND) : 0;
    }
    case 'FOCUSED FUSILLADE': return u ? volleyGain(c, u, (p) => { p.woundModifier += 1; }) : 0;
    case 'BLADEFOCUS': return u ? phaseAttackGain(c, u, (p) => { p.rerollHits = widerReroll(p.rerollHits, 'failed'); }) : 0;
    // +1 OC, and at the end of the turn a marker the unit holds is Secured (kept until the opponent controls it):
    // worth a share of a marker when the unit stands on one now
    case 'CRITICAL CAPTURE': return u && objectiveSnapshot(s).contrib.get(u.id)?.some((x) => x > 0) ? 0.4 * c.w.objective : 0;
    // the stun on the enemy units beyond the best closed hatchway, less the volley the unit gives up
    case 'D-STRIKE': {
      if (!u) return 0;
      let best = 0;
      for (const h of s.board.hatchways ?? []) if (!s.openHatchways.includes(h.id)) best = Math.max(best, dStrikeStun(c, u, h.id));
      return best - bestVolley(c, u);
    }
    // a D6: one mortal wound on 2-5, two on a 6 (one on average) on the enemy unit that opened the hatchway,
    // and then a Normal move of up to D6" (a little more)
    case 'RAPID AMBUSH': {
      const e = win?.unit ? s.units[win.unit] : null;
      return u && e && onBattlefield(e) ? Math.min(1, unitWounds(s, e).now) * pointsPerWound(s, e) + 1 : 0;
    }
    // Kroot Raiding Party (Boarding Actions): +1 AP in melee and one more on a Critical Wound; 6" Pile-in and
    // Consolidation; an enemy unit's Move, Advance and Charge rolls halved; mortal wounds beyond a hatchway
    case 'BOARDING BLADES': return u ? phaseAttackGain(c, u, (p) => { if (p.melee) { p.ap -= 1; p.criticalWoundAp += 1; } }) : 0;
    case 'SWEEPING AMBUSH': return u ? sweepingAmbushGain(c, u) : 0;
    case 'TANGLEBOMB BOLAS': return u ? Math.max(0, ...tanglebombTargets(s, u).map((e) => tanglebombGain(c, e))) : 0;
    case 'BRUTE FORCE': return u ? bruteForceGain(c, u, win?.data?.hatchway) : 0;
    case "WEAVERS' COILS": return u ? interlockingGain(c, u, isEngaged(s, u) ? WEAVERS_COILS_FALL_BACK : unitMove(s, u)) : 0;
    // set up 3" closer than Deep Strike allows: a fifth more of its shooting (Bonded Heroes' bands); only
    // units that arrive this phase are offered it, and the heuristic brings them in when it can
    case 'THE SHORTENED BLADE': return u ? 0.2 * bestPotential(c, u) : 0;
    case 'GRAV-INHIBITOR FIELD': {
      const e = win?.unit ? s.units[win.unit] : null;
      if (!e || !onBattlefield(e)) return 0;
      const models = e.models.filter((m) => m.alive).length;
      const pFail = e.battleShocked ? 0 : 1 - p2d6AtLeast(bestLeadership(s, e) - rollModifier(s, e, 'battle-shock'));
      return (models / 6) * pointsPerWound(s, e) + pFail * 0.1 * unitValue(s, e);
    }
    // Auxiliary Cadre: re-rolled Wound rolls of 1 (an auxiliary unit: every failed one), this phase
    case 'MULTISENSORY SCANNING': return u ? phaseAttackGain(c, u, (p) => { p.rerollWounds = widerReroll(p.rerollWounds, auxiliary(u) ? 'failed' : 'ones'); }) : 0;
    // an Advance (3.5" on average) that keeps the unit's shooting, and an auxiliary unit's charge: a share of
    // MATCHLESS AGILITY's sure 6" (the move is then chosen knowing its guns count as ASSAULT)
    case 'ALIEN EXPERTISE': return u ? (auxiliary(u) ? 0.8 : 0.6) * agilityGain(c, u) : 0;
    case 'GUIDED FIRE': { if (!u) return 0; const plus = guidedFireBonus(s, u); return volleyGain(c, u, (p) => { p.strength += plus; }); }
    case 'INTERLOCKING MANOUEVRES': return u ? interlockingGain(c, u) : 0;
    case 'PHEROMONE WAYPOINTS': return u ? agilityGain(c, u) : 0;
    case 'EXPERIMENTAL MODIFICATIONS': return u ? phaseAttackGain(c, u, (p) => { p.ap -= 1; }) : 0;
    case 'THREAT ASSESSMENT ANALYSER': return u ? bestChoice(c, u, THREAT_ASSESSMENT_TWEAKS).gain : 0;
    case 'EXPERIMENTAL AMMUNITION': return u ? bestChoice(c, u, EXPERIMENTAL_AMMUNITION_TWEAKS).gain : 0;
    case 'REACTIVE IMPACT DAMPENERS': return u && win ? incomingSaved(c, win, u, DAMPENERS) : 0;
    // Seer Council
    case 'FATE INESCAPABLE': return u ? volleyGain(c, u, FATE_INESCAPABLE_TWEAK) : 0;
    case 'ISHA\u2019S FURY': {
      // six D6, a mortal wound for each 3+ (four on average), never more than the unit is worth
      const e = win?.unit ? s.units[win.unit] : null;
      return e && onBattlefield(e) ? Math.min(unitValue(s, e), 4 * pointsPerWound(s, e)) : 0;
    }
    case 'FOREWARNED': return u && win ? incomingSaved(c, win, u, MINUS_ONE_TO_HIT_AND_WOUND) : 0;
    case 'PRESENTIMENT OF DREAD': return u ? presentimentGain(c, u) : 0;
    case 'UNSHROUDED TRUTH': return u ? unshroudedTruthGain(c, u) : 0;
    // PSYCHIC SHIELD: only models within 18" may shoot at the unit, as NEUROWEB SYSTEM JAMMER
    case 'PSYCHIC SHIELD':
    case 'NEUROWEB SYSTEM JAMMER': case 'HIDDEN HUNTERS': {
      // the attacks of the attacking unit's models more than 18" away are lost: that share of its shooting
      const e = win?.unit ? s.units[win.unit] : null;
      if (!u || !e || !onBattlefield(u)) return 0;
      let far = 0, all = 0;
      for (const m of e.models) {
        if (!m.alive || !m.pos) continue;
        all++;
        let near = false;
        for (const x of u.models) if (x.alive && x.pos && horizontalDistance(modelBody(s, m), modelBody(s, x)) <= 18) { near = true; break; }
        if (!near) far++;
      }
      const share = win && win.targets.length > 1 ? Math.min(1, 1.5 / win.targets.length) : 1;
      return all ? (far / all) * share * attackOn(c, e, u, false) : 0;
    }
    case 'AUTOMATED REPAIR DRONES': {
      // D3+1 wounds back on the most wounded BATTLESUIT model (the engine offers it first), no more than it lost
      if (!u) return 0;
      let lost = 0;
      for (const m of u.models) if (m.alive && s.datasheets[m.datasheet].keywords.includes('BATTLESUIT')) lost = Math.max(lost, characteristic(s, u, m, 'W') - m.wounds);
      const expected = lost >= 4 ? 3 : lost === 3 ? 8 / 3 : lost;
      return expected * pointsPerWound(s, u);
    }
    default: return 0;
  }
}

const FATE_INESCAPABLE_TWEAK: PlanTweak = (p) => {
  if (!p.melee) { p.ignoresCover = true; p.cover = false; }
  p.criticalWoundAp = Math.max(p.criticalWoundAp, 1);
};

const MINUS_ONE_TO_HIT_AND_WOUND: PlanTweak = (p) => { p.hitModifier -= 1; p.woundModifier -= 1; };

/** What a Fate die kept for a later roll is worth, in points: spent on a discount only when a CP is worth more. */
const FATE_DIE_PRICE = 3;

/** PRESENTIMENT OF DREAD: the enemy unit within 18" of the Psyker's unit whose Battle-shock test (-1) costs its side most. */
function presentimentGain(c: Ctx, u: UnitState): number {
  let best = 0;
  for (const e of enemyUnits(c.state, c.me)) {
    if (e.battleShocked || unitDistance(c.state, u, e) > 18) continue;
    best = Math.max(best, battleShockCost(c, e, -1));
  }
  return best;
}

/** UNSHROUDED TRUTH: the best place more than 9" from the enemy, over the unit's best Normal move (which it gives up). */
function unshroudedTruthGain(c: Ctx, u: UnitState): number {
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true });
  const stay = bestMoveScore(c, ov, uc, moveOptionsFor(c, u).filter((o) => o.mode === 'normal'), here);
  const arrive = bestArrival(c, u, truthPoints(c.state).map((p) => ({ ...p, unit: u.id })));
  return arrive.index < 0 ? 0 : Math.max(0, arrive.gain - stay);
}

/**
 * PINPOINT COUNTER-OFFENSIVE: re-rolled Hit rolls against one enemy unit for the rest of the battle. What
 * the re-rolls add to the army's shooting at it, for the guns that can reach it next turn, counting on a
 * share of that fire going to it over the turns left (and never more than the unit itself is worth).
 */
function pinpointGain(c: Ctx, e: UnitState): number {
  const s = c.state;
  const reroll: PlanTweak = (p) => { p.rerollHits = widerReroll(p.rerollHits, 'failed'); };
  const eg = unitGeo(s, e);
  let gain = 0;
  for (const u of ownUnits(s, c.me)) {
    if (hasKeyword(u, 'KROOT')) continue;
    const ug = unitGeo(s, u);
    const gap = dist(ug, eg) - ug.r - eg.r;
    for (const use of weaponUses(s, u, false)) {
      if (gap > unitMove(s, u) + weaponRange(s, u, use.profile)) continue;
      gain += weaponEstimate(s, u, use, e, { anywhere: true, tweak: reroll }).value - weaponEstimate(s, u, use, e, { anywhere: true }).value;
    }
  }
  const turnsLeft = Math.max(0, s.mission.rounds - s.round + (s.turn === c.me ? 0 : 1));
  return Math.min(unitValue(s, e), gain * c.w.pinpointShare * Math.min(2, turnsLeft));
}

function unitNearMarker(c: Ctx, t: UnitState, pos: Point): boolean {
  const g = unitGeo(c.state, t);
  return dist(g, pos) <= 3.8 + g.r;
}

/** The marker (not in the enemy zone) with the most enemy value in range: the Trap objective. */
export function bestTrapObjective(c: Ctx): { id: string; pos: Point } | undefined {
  const s = c.state;
  const zone = s.board.deploymentZones.find((z) => z.player === c.opp)?.polygon ?? [];
  let best: { id: string; pos: Point } | undefined;
  let bv = -1;
  for (const o of s.objectives) {
    if (pointInPolygon(o.pos, zone)) continue;
    let v = 0;
    for (const e of enemyUnits(s, c.me)) {
      const d = dist(unitGeo(s, e), o.pos);
      v += unitValue(s, e) / (1 + Math.max(0, d - 4));
    }
    if (v > bv) { bv = v; best = o; }
  }
  return best;
}

function focusedFire(c: Ctx, u: UnitState): { gain: number; unit: string | null; enemy: string | null } {
  return perVersion(c.state, `ff|${c.me}|${u.id}`, () => computeFocusedFire(c, u));
}

function computeFocusedFire(c: Ctx, u: UnitState): { gain: number; unit: string | null; enemy: string | null } {
  const s = c.state;
  const vs = perVersion(s, `ffvs|${c.me}`, () => focusedFireTable(c));
  const base = vs.base;
  let best = { gain: 0, unit: null as string | null, enemy: null as string | null };
  for (const e of enemyUnits(s, c.me)) {
    const a = vs.with.get(`${u.id}|${e.id}`) ?? 0;
    // both units fire at the one target: together they can take no more than the whole unit (and the
    // bonus for destroying it); what they would have done elsewhere is lost
    const whole = 1.25 * unitValue(s, e);
    for (const x of vs.mine) {
      if (x.id === u.id) continue;
      const g = Math.min(whole, a + (vs.with.get(`${x.id}|${e.id}`) ?? 0)) - (base.get(u.id) ?? 0) - (base.get(x.id) ?? 0);
      if (g > best.gain) best = { gain: g, unit: x.id, enemy: e.id };
    }
  }
  return best;
}

function focusedFireTable(c: Ctx): { mine: UnitState[]; base: Map<string, number>; with: Map<string, number> } {
  const s = c.state;
  const mine = ownUnits(s, c.me).filter((x) => !x.flags.shot);
  const enemies = enemyUnits(s, c.me);
  const apPlus: PlanTweak = (p) => { p.ap -= 1; };
  const base = new Map<string, number>();
  const vs = new Map<string, number>();
  for (const x of mine) {
    base.set(x.id, bestVolley(c, x));
    // the two units may shoot nothing else: a target they cannot see is worth nothing to them
    for (const e of enemies) vs.set(`${x.id}|${e.id}`, unitSees(s, x, e) ? attackOn(c, x, e, false, apPlus) : 0);
  }
  return { mine, base, with: vs };
}

/** A fixed 6" Advance instead of a D6: what the best move gains with it. */
function agilityGain(c: Ctx, u: UnitState): number {
  if (u.location !== 'battlefield' || isEngaged(c.state, u)) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const opts = moveOptionsFor(c, u);
  const a = bestMoveScore(c, ov, uc, opts);
  const b = bestMoveScore(c, ov, uc, opts, -Infinity, 6);
  return Math.max(0, b - a);
}

function fireAndFadeGain(c: Ctx, u: UnitState, reach?: number): number {
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true });
  const best = reach === undefined ? bestMoveScore(c, ov, uc, moveOptionsFor(c, u).filter((o) => o.mode === 'normal'), here) : shortMoveScore(c, ov, uc, u, reach, here);
  // it gives up its charge this turn
  const charge = uc.meleeOriented ? c.w.charge * chargeAt(uc, uc.from, { advanced: u.flags.advanced, fellBack: u.flags.fellBack }) : 0;
  return Math.max(0, best - here - charge);
}

/** The best place a Normal move of about `reach` inches takes the unit to (as Shade of Twilight's), at least `floor`; it may not charge after. */
function shortMoveScore(c: Ctx, ov: ObjectiveView, uc: UnitCtx, u: UnitState, reach: number, floor: number): number {
  const short: UnitCtx = { ...uc, move: reach };
  let best = floor;
  for (const o of normalMoveChoices(c.state, u)) if (!('none' in o)) best = Math.max(best, shortMoveEndScore(c, ov, short, o, { advanced: false, fellBack: false, noCharge: true }));
  return best;
}

/** The score where a short move (`short`: the unit's context with the move's reach) toward a destination ends. */
export function shortMoveEndScore(c: Ctx, ov: ObjectiveView, short: UnitCtx, o: MoveOption, flags: MoveFlags): number {
  if (!o.to) return -Infinity;
  return positionScore(c, ov, short, moveEnd(short, o, o.to, 0, towardEnemy(short, o)), flags);
}

/**
 * Leaving the battlefield for Strategic Reserves at the end of the opponent's turn (WALL OF MIRRORS, Airborne
 * Agility): where the unit could arrive in my next turn against the best Normal move it has from here,
 * less the markers it holds now (the opponent's to take at the end of this turn). Never when it could not
 * arrive: in battle round 1 (a turn lost) or after the last round (it would count as destroyed).
 */
export function strategicReservesGain(c: Ctx, u: UnitState): number {
  const s = c.state;
  const next = s.firstPlayer === c.me ? s.round + 1 : s.round;
  if (next < 2 || next > s.mission.rounds) return 0;
  const ov = objectiveView(c);
  const uc = unitCtx(c, u);
  const here = positionScore(c, ov, uc, uc.from, { advanced: false, fellBack: false, noCharge: true });
  const stay = bestMoveScore(c, ov, uc, moveOptionsFor(c, u).filter((o) => o.mode === 'normal'), here);
  const arrive = bestArrival(c, u, reservesArrivalPoints(s, u, true));
  if (arrive.index < 0) return 0;
  const held = objectiveSnapshot(s).contrib.get(u.id)?.filter((x) => x > 0).length ?? 0;
  return arrive.gain - stay - c.w.objective * held;
}

/** The unit whose charge is being rolled: the one this agent just declared, else the last that declared one. */
function chargingUnit(c: Ctx, hint?: string): UnitState | null {
  const s = c.state;
  if (hint && s.units[hint]) return s.units[hint];
  if (c.mem.charge && s.units[c.mem.charge.unit]?.flags.declaredCharge && !s.units[c.mem.charge.unit].flags.charged) return s.units[c.mem.charge.unit];
  let found: UnitState | null = null;
  for (const id of s.unitOrder) {
    const u = s.units[id];
    if (u.player === c.me && onBattlefield(u) && u.flags.declaredCharge && !u.flags.charged) found = u;
  }
  return found;
}

/** COMMAND RE-ROLL after a roll: what the re-roll is expected to gain. */
function rerollGain(c: Ctx, o: StratOption, roll: RerollContext | undefined): number {
  if (!roll) return 0;
  const sum = roll.values.reduce((a, b) => a + b, 0);
  switch (roll.purpose) {
    case 'charge': {
      if (roll.target === null) return 0;
      const u = chargingUnit(c, roll.unit);
      // the charge this agent declared names its target, whose abilities may reduce the roll (Grav-inhibitor Drone)
      const target = u && c.mem.charge?.unit === u.id ? c.state.units[c.mem.charge.target] : undefined;
      const mod = u ? chargeRollModifier(c.state, u, target ? [target] : []) : 0;
      const need = roll.target - mod;
      if (sum >= need) return 0;
      const p = p2d6AtLeast(need);
      let value = 30;
      if (c.mem.charge && u && c.mem.charge.unit === u.id) value = c.mem.charge.value;
      else if (u) for (const e of enemyUnits(c.state, c.me)) if (unitDistance(c.state, u, e) <= 12) value = Math.max(value, chargePrize(c, u, e));
      return p * value;
    }
    case 'advance': return 0;
    case 'hit': case 'wound':
      // a die that succeeded is offered too when a Critical would do more: not worth a CP to this agent
      if (roll.test && typeof o.value === 'number' && rollOutcome(o.value, roll.test.needed, roll.test.modifier, roll.test.criticalOn) > 0) return 0;
      return roll.values.length === 1 ? 14 : roll.values.length === 2 ? 8 : 0;
    case 'save': return roll.values.length === 1 ? 14 : roll.values.length === 2 ? 8 : 0;
    case 'damage': return o.reroll === -1 && roll.values.length === 1 && roll.values[0] <= 2 ? 14 : 0;
    default: return 0;
  }
}

/** What a CP is worth now: dearer when few are left, cheaper when they pile up or the battle ends soon. */
function cpPrice(c: Ctx, cost: number): number {
  const s = c.state;
  const cp = s.players[c.me].cp;
  if (cost <= 0) return 2;
  let f = cp <= 2 ? 1 : cp <= 4 ? 0.8 : 0.6;
  if (s.round >= s.mission.rounds) f *= 0.6;
  else if (s.round === s.mission.rounds - 1) f *= 0.85;
  // below the reserve, a CP is worth more (it may be needed for a reaction)
  if (cp - cost < c.w.cpReserve) f *= 1.4;
  return cost * c.w.cp * f;
}

export function decideStratagem(c: Ctx, req: DecisionRequest): number {
  const options = req.options as StratOption[];
  const win = req.context?.window as WindowCtx | undefined;
  const roll = req.context?.roll as RerollContext | undefined;
  return argmax(options, (o) => {
    if (o.pass) return 0;
    return stratagemGain(c, o, win, roll) - cpPrice(c, o.cp ?? 1) - (o.discount === SEER_STRANDS_OF_FATE ? FATE_DIE_PRICE : 0);
  });
}
