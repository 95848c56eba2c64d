/**
 * The heuristic agent: plays the mission (takes and holds objective markers with Objective Control
 * where the scoring counts, denies the opponent's), keeps out of reach when that pays, shoots and
 * fights the target with the best expected value from the exact calculator with every rule of the
 * moment, charges when the odds times the prize beat the risk, and spends CP when a stratagem's
 * expected gain (priced with the same calculator, the stratagem's effect folded into the Attack plan)
 * beats the CP's worth. Every other decision the engine asks (Fate dice, Scout moves, Reserves, Dance
 * of Death, Martial Warrior, Targeting Array...) is priced the same way.
 *
 * Its weights are named parameters (WEIGHTS), so they can be tuned; `params` on the command line or
 * scenario override them. It spends no time budget and draws randomness only from its own stream, and
 * only to vary its deployment (WEIGHTS.deployVariety; other ties go to the first option), so games stay
 * reproducible.
 *
 * This file is the agent itself: createHeuristic, and decideKind, which hands each decision kind to the module
 * of agents/heuristic/ that prices it (moves, attacks, charges, stratagems, deployment, dice, abilities...).
 */
// The engine's registries first, in the order every game loads them (./heuristic/registries.ts says why).
import './heuristic/registries.ts';
import type { Agent, AgentFactory, DecisionRequest, GameView } from '../src/core/agent.ts';
import type { Stream } from '../src/core/rng.ts';
import { checkAgentParams } from '../src/core/agent-params.ts';
import { everyModelHas } from '../src/core/rules-registry.ts';
import { diceExprMean } from '../src/core/dice-expr.ts';
import { opponent, type GameState } from '../src/core/state.ts';
import { enemyUnits, ownUnits, p2d6AtLeast, pointsPerWound, unitAttackPotential, unitValue, type PlanTweak } from '../src/ai/evaluate.ts';
import { ADVANCE_REROLL_AT_MOST, dist, unitGeo, type Point } from '../src/ai/tactics.ts';
import { bestLeadership, characteristic, unitMove } from '../src/rules/battle/units.ts';
import { boardOf, isEngaged, engagedEnemies } from '../src/rules/battle/world.ts';
import { enemiesBeyondHatchway } from '../src/rules/battle/hatchways.ts';
import { INTERLOCKING_MOVE } from '../src/factions/tau/auxiliary-cadre.ts';
import { OVERFLIGHT_MOVE } from '../src/factions/aeldari/windrider-host.ts';
import { STRIDE_MOVE, VENOMOUS_WRATH_MOVE, WEAVERS_COILS_FALL_BACK } from '../src/factions/aeldari/harlequin-detachments.ts';
import { withinObjectiveRange } from '../src/factions/helpers.ts';
import { type Ctx, type Memory, WEIGHTS, type Weights, argmax, setLastScores, why } from './heuristic/context.ts';
import { sightMemory } from './heuristic/unit-context.ts';
import { decideMove } from './heuristic/moves.ts';
import { decideSelectFight, decideSelectMove, decideSelectShoot } from './heuristic/selection.ts';
import { attackOn, bestVolley, decideFightTarget, decideFiringDeck, decideGuidance, decidePistols, decideShootTarget } from './heuristic/attacks.ts';
import { bestPotential, decideChargeTargets, decideChargeUnit, decidePrecisionTarget } from './heuristic/charges.ts';
import { D6_PLUS_1_REACH, EXPERIMENTAL_AMMUNITION_TWEAKS, PATH_OF_THE_WARRIOR_TWEAKS, PROTOTYPE_WEAPON_TWEAKS, THREAT_ASSESSMENT_TWEAKS, armyCanHurt, battleShockCost, bestChoice, blastValue, dStrikeStun, deadlyDemiseMean, impedingFireGain, phaseAttackGain, tanglebombGain } from './heuristic/stratagem-prices.ts';
import { bestTrapObjective, decideStratagem, strategicReservesGain } from './heuristic/stratagems.ts';
import { bestArrival, decideDeploy, decideRedeploy, decideRedeployWhere, decideReinforcement, decideScoutMove } from './heuristic/deployment.ts';
import { decideBranchingFates, decideFateDie, decideFatePool, decidePreternatural, decideRemoveShrineToken, decideShrineTokenDie } from './heuristic/dice.ts';
import { decideAdmiredLeader, decideBlacklight, decideBlitz, decideCruelAmusement, decideDanceOfDeath, decideDroneHarassment, decideEmbark, decideFightWeapon, decideFlyover, decideFocusedFireChoice, decideInevitableDeath, decideMartialWarrior, decideMicrodrones, decideNovaBurst, decideNovaCharge, decideOversightDrone, decidePackmates, decideRapidEmbarkation, decideShield, decideSpiritMark, decideTargetingArray, decideTearsOfIsha, offense, pickEnemy } from './heuristic/abilities.ts';
import { decideAttachLeader, decideReserves, decideStartEmbarked } from './heuristic/formations.ts';
import { decideUnerringStrike } from './heuristic/unerring-strike.ts';
import { SHADE_REACH, battleFocusReach, decideBattleFocus, decideDutysEcho, decideFireAndFade, decideShadeOfTwilight } from './heuristic/aeldari-moves.ts';
import { decideCommandAbility, decideCommandBodyguard } from './heuristic/battlefield-command.ts';
import { explosiveClearanceChoice } from './heuristic/explosive-clearance.ts';

// what other agents (lookahead) and the tests read
export { WEIGHTS, lastOptionScores } from './heuristic/context.ts';
export { nearBest } from './heuristic/deployment.ts';
export { SHURIKEN_STORM_WEAPONS } from './heuristic/stratagem-prices.ts';

/** `random`: the agent's own seeded stream, for deployment variety (WEIGHTS.deployVariety); without it the agent draws nothing. */
export function createHeuristic(params: Partial<Weights> = {}, name = 'heuristic', random: Pick<Stream, 'int'> | null = null): Agent {
  const w: Weights = { ...WEIGHTS, ...params };
  const mem: Memory = { assigned: new Map(), assignedFor: '', heading: new Map(), headingGen: 0, headingKey: '', charge: null, moved: null, moveRank: { key: '', gains: new Map() }, sight: sightMemory('', null) };
  return {
    name,
    // argmax takes the first best option, and only deployment draws from the stream (Agent.declinesWithoutTrace)
    declinesWithoutTrace: true,
    decide(view: GameView, req: DecisionRequest) {
      const state = view.state as GameState;
      const c: Ctx = { state, me: view.player, opp: opponent(view.player), w, mem, board: boardOf(state), random };
      const phaseKey = `${state.round}:${state.turn}:${state.phase}`;
      if (mem.headingKey !== phaseKey) { mem.heading.clear(); mem.headingKey = phaseKey; mem.headingGen++; }
      if (mem.sight.key !== phaseKey || mem.sight.board !== c.board) mem.sight = sightMemory(phaseKey, c.board);
      const unit = String(req.context?.unit ?? '');
      if (req.kind === 'move' && unit) mem.moved = unit;
      if (req.kind === 'shoot-target' || req.kind === 'fight-target') {
        const key = `${phaseKey}:${req.kind}:${unit}`;
        if (mem.assignedFor !== key) { mem.assigned.clear(); mem.assignedFor = key; }
      }
      setLastScores([]);
      const option = decideKind(c, req);
      const o = Math.max(0, Math.min(req.options.length - 1, option));
      const explanation = why(req);
      return explanation ? { option: o, why: explanation } : { option: o };
    },
    rerollPolicy(_view, roll) {
      // Hit and Wound rolls: fish for Critical results only when the rules grant it; otherwise re-roll failures
      return roll.granted;
    },
  };
}

function decideKind(c: Ctx, req: DecisionRequest): number {
  switch (req.kind) {
    case 'first-turn': return 0;
    // the engine offers first the model a player would remove (the most valuable coherent group kept)
    case 'coherency-removal': return 0;
    // likewise for a model lost to Desperate Escape or a destroyed transport: a Bodyguard model before its Leader, from the unit's edge
    case 'select-casualty': return 0;
    case 'deploy': return decideDeploy(c, req);
    // Rallying Cry: a GUARDIANS unit set up now, where deploy would set it up (never declined)
    case 'rallying-cry': return 1 + decideDeploy(c, { ...req, options: req.options.slice(1) });
    case 'redeploy': return decideRedeploy(c, req);
    case 'redeploy-where': return decideRedeployWhere(c, req);
    case 'scout-move': return decideScoutMove(c, req);
    case 'select-unit-to-move': return decideSelectMove(c, req);
    case 'move': return decideMove(c, req);
    case 'fire-and-fade': case 'torchstar-gambit': return decideFireAndFade(c, req);
    // the first transport offered (any of them keeps the unit safe)
    case 'skyborne-sanctuary': return 0;
    case 'preternatural-precision': return decidePreternatural(c, req);
    case 'aspect-shrine-token': return decideShrineTokenDie(req);
    case 'remove-aspect-shrine-token': return decideRemoveShrineToken(c, req);
    // the re-roll its attacks this phase gain more from (Hit rolls of 1 on a tie)
    case 'path-of-the-warrior': {
      const u = c.state.units[String(req.context?.unit)];
      if (!u) return 0;
      const gains = PATH_OF_THE_WARRIOR_TWEAKS.map((t) => phaseAttackGain(c, u, t));
      return gains[1] > gains[0] ? 1 : 0;
    }
    case 'prototype-weapon-system': { const u = c.state.units[String(req.context?.unit)]; return u ? bestChoice(c, u, PROTOTYPE_WEAPON_TWEAKS).index : 0; }
    // the blast when it hurts the enemy more than my own units, else none
    case 'fail-safe-detonator': {
      const u = c.state.units[String(req.context?.unit)];
      const m = u?.models.find((x) => x.id === req.context?.model);
      const dd = m ? deadlyDemiseMean(c.state, m) : null;
      return Math.max(0, (req.options as number[]).indexOf(m && dd !== null && blastValue(c, m, dd, 6) > 0 ? 6 : 1));
    }
    case 'select-unit-to-shoot': return decideSelectShoot(c, req);
    case 'shoot-target': return decideShootTarget(c, req);
    case 'for-the-greater-good': return decideGuidance(c, req);
    case 'select-unit-to-charge': return decideChargeUnit(c, req);
    case 'charge-targets': return decideChargeTargets(c, req);
    case 'precision-target': return decidePrecisionTarget(c, req);
    // EPIC CHALLENGE's CHARACTER: the one with the most melee attacks (mean Attacks x mean Damage of its melee weapons)
    case 'epic-challenge-model': return argmax(req.options as { model: string }[], (o) => meleeWeight(c.state, o.model));
    case 'firing-deck': return decideFiringDeck(c, req);
    case 'pistols': return decidePistols(c, req);
    case 'select-unit-to-fight': return decideSelectFight(c, req);
    case 'fight-target': return decideFightTarget(c, req);
    case 'fight-weapon': return decideFightWeapon(c, req);
    case 'stratagem': return decideStratagem(c, req);
    case 'explosive-clearance': { const u = c.state.units[String(req.context?.unit)]; return u ? explosiveClearanceChoice(c, u).index : 0; }
    case 'battlefield-command-bodyguard': return decideCommandBodyguard(c, req.options as string[], c.state.units[String(req.context?.unit)]);
    case 'battlefield-command-ability': return decideCommandAbility(c, req.options as string[], c.state.units[String(req.context?.unit)], String(req.context?.bodyguard));
    case 'fate-die': return decideFateDie(c, req);
    case 'battle-focus': return decideBattleFocus(c, req);
    // Fade Back, Opportunity Seized: weighed as Shade of Twilight's move, D6+1" long
    case 'battle-focus-move': return decideShadeOfTwilight(c, req, battleFocusReach(c, req), false);
    // the Warhost's FIRE AND FADE: a D6+1" move after shooting, no charge after it
    case 'fire-and-fade-move': return decideShadeOfTwilight(c, req, D6_PLUS_1_REACH, true);
    // SERPENT STRIKE's Consolidation in any direction, its reach rolled already (first option: toward an objective, weighed as staying)
    case 'consolidate-any-direction': return decideShadeOfTwilight(c, req, Number(req.context?.reach ?? 3), false);
    // Superlative Strategist: a D6+1" move's die of 1 or 2 is re-rolled
    case 'battle-focus-reroll': return Number(req.context?.roll ?? 6) <= 2 ? 1 : 0;
    case 'fate-pool': return decideFatePool(req);
    case 'branching-fates': return decideBranchingFates(req);
    case 'reinforcement': case 'rapid-ingress': return decideReinforcement(c, req);
    case 'embark': return decideEmbark(c, req);
    // the same threshold expectedAdvance counts on
    case 'reroll-advance': return Number(req.context?.roll ?? 6) <= ADVANCE_REROLL_AT_MOST ? 1 : 0;
    case 'martial-warrior': return decideMartialWarrior(c, req);
    case 'threat-assessment': { const u = c.state.units[String(req.context?.unit)]; return u ? bestChoice(c, u, THREAT_ASSESSMENT_TWEAKS).index : 0; }
    case 'experimental-ammunition': { const u = c.state.units[String(req.context?.unit)]; return u ? bestChoice(c, u, EXPERIMENTAL_AMMUNITION_TWEAKS).index : 0; }
    case 'dance-of-death': return decideDanceOfDeath(c, req);
    case 'targeting-array': return decideTargetingArray(c, req);
    case 'nova-charge': return decideNovaCharge(c, req);
    case 'oversight-drone': return decideOversightDrone(c, req);
    case 'nova-shielding': return decideShield(c, req, (p) => { if (p.strength > p.toughness) p.woundModifier -= 1; });
    case 'd-strike': { const u = c.state.units[String(req.context?.unit)]; return argmax(req.options as string[], (id) => dStrikeStun(c, u, id)); }
    // Shieldmaster: close the door behind the unit when enemy units within 12" stand beyond it
    case 'shieldmaster': {
      const u = c.state.units[String(req.context?.unit)];
      return argmax(req.options as ({ keep: true } | string)[], (o) => {
        const h = typeof o === 'string' ? (c.state.board.hatchways ?? []).find((x) => x.id === o) : undefined;
        return h ? enemiesBeyondHatchway(c.state, u, h, 12).length : 0;
      });
    }
    case 'unerring-strike': return decideUnerringStrike(c, req);
    case 'runes-of-sanctuary': return decideShield(c, req, (p) => { p.ap = Math.min(0, p.ap + 1); });
    case 'duality-shield': return decideShield(c, req, (p) => { p.invulnerable = p.invulnerable === null ? 2 : Math.min(p.invulnerable, 2); });
    case 'kroot-packmates': case 'drone-escort': return decidePackmates(c, req);
    case 'nova-burst': return decideNovaBurst(c, req);
    case 'target-optimisation-microdrones': return decideMicrodrones(c, req);
    // free mortal wounds: at the unit that loses most for each wound
    case 'lightning-assault': case 'pulse-bombs': case 'internal-grenade-racks': case 'eviscerating-fly-by': return argmax(req.options as ({ none: true } | { unit: string })[], (o) => ('none' in o ? 0 : pointsPerWound(c.state, c.state.units[o.unit])));
    case 'blacklight-marker-drones': return decideBlacklight(c, req);
    case 'grenade-pack-flyover': return decideFlyover(c, req);
    case 'drone-harassment': return decideDroneHarassment(c, req);
    case 'rapid-embarkation': case 'lithe-embarkation': return decideRapidEmbarkation(c, req);
    case 'focused-fire': return decideFocusedFireChoice(c, req);
    // my AELDARI attacks hit (Guide), wound (Doom) or score Critical Hits (Whispering Web) more easily: the enemy my army can hurt most
    case 'guide':
    case 'doom':
    case 'whispering-web': return pickEnemy(c, req, (e) => armyCanHurt(c, e));
    case 'crystalline-targeting': {
      const s = c.state;
      const apPlus: PlanTweak = (p) => { p.ap -= 1; };
      return pickEnemy(c, req, (e) => {
        let v = 0;
        for (const m of ownUnits(s, c.me)) if (!m.flags.shot) v += attackOn(c, m, e, false, apPlus) - attackOn(c, m, e, false);
        return v;
      });
    }
    // riven (+1 Strength for my AELDARI attacks this turn): against the unit my units yet to shoot gain the most on
    case 'fury-of-the-void': {
      const s = c.state;
      const stronger: PlanTweak = (p) => { p.strength += 1; };
      return pickEnemy(c, req, (e) => {
        let v = 0;
        for (const m of ownUnits(s, c.me)) if (!m.flags.shot && m.keywords.includes('AELDARI')) v += attackOn(c, m, e, false, stronger) - attackOn(c, m, e, false);
        return v + 0.001 * unitValue(s, e);
      });
    }
    // no Benefit of Cover this phase: against the unit my units yet to shoot gain the most on
    case 'target-acquisition': {
      const s = c.state;
      const open: PlanTweak = (p) => { p.ignoresCover = true; p.cover = false; };
      return pickEnemy(c, req, (e) => {
        let v = 0;
        for (const m of ownUnits(s, c.me)) if (!m.flags.shot) v += attackOn(c, m, e, false, open) - attackOn(c, m, e, false);
        return v + 0.001 * unitValue(s, e);
      });
    }
    case 'shade-of-twilight': return decideShadeOfTwilight(c, req);
    // Asurmen's unit: a Normal move of up to 6", weighed as Shade of Twilight's D6"
    case 'tactical-acumen':
    case 'lone-spear-fire-and-fade': return decideShadeOfTwilight(c, req, 6);
    // Duty's Echo: the first unit whose 3" Normal move Shade of Twilight's weighing would make, then that move
    case 'dutys-echo': return decideDutysEcho(c, req);
    case 'dutys-echo-move': return decideShadeOfTwilight(c, req, 3, false);
    case 'trail-finding': case 'path-of-the-outcast': case 'reaver-band': return decideShadeOfTwilight(c, req, SHADE_REACH, false);
    // end of the Fight phase: a D3+3" Normal move or Fall Back (5" on average), its turn over, so no charge lost
    case 'raid-and-run': return decideShadeOfTwilight(c, req, 5, false);
    // INTERLOCKING MANOUEVRES: a 6" Normal move or a Fall Back, at the end of a Fight phase
    case 'interlocking-manoeuvres': return decideShadeOfTwilight(c, req, INTERLOCKING_MOVE, false);
    // the Twin Lance's Retro-thrusters: a 6" Normal move or a Fall Back at the end of a Fight phase, as above
    case 'retro-thrusters': return decideShadeOfTwilight(c, req, 6, false);
    // Neocapacitor Shields: the enemy unit whose failed Battle-shock test costs its side most, and whose charges
    // at my units the -1 is likeliest to foil
    case 'neocapacitor-shields': return pickEnemy(c, req, (e) => battleShockCost(c, e, 0) + 0.5 * impedingFireGain(c, e));
    // TRICKSTERS' RETORT, WEAVING STRIDE (the opponent's Movement phase) and WEAVERS' COILS (the end of the
    // player's Fight phase): no charge of this turn is lost; VENOMOUS WRATH forbids the charge anyway
    case 'tricksters-retort': case 'weaving-stride': return decideShadeOfTwilight(c, req, STRIDE_MOVE, false);
    case 'venomous-wrath': return decideShadeOfTwilight(c, req, VENOMOUS_WRATH_MOVE, false);
    case 'weavers-coils': { const u = c.state.units[String(req.context?.unit)]; return decideShadeOfTwilight(c, req, u && isEngaged(c.state, u) ? WEAVERS_COILS_FALL_BACK : u ? unitMove(c.state, u) : 6, false); }
    // Cegorach's Coil: the enemy unit whose wounds are worth most (how many of the unit's models reach each is not weighed)
    case 'cegorachs-coil': return argmax(req.options as string[], (id) => { const e = c.state.units[id]; return e ? pointsPerWound(c.state, e) : 0; });
    case 'admired-leader': return decideAdmiredLeader(c, req);
    case 'aerial-disengagement': return decideShadeOfTwilight(c, req, 6, false);
    // a Battle-shock test (at -1 for Face of Death): the unit whose failed test costs the enemy most
    case 'face-of-death':
    case 'horrify':
    case 'devastating-assault': return decideDroneHarassment(c, req);
    // Move 24" for a mortal wound per six models and no charge: taken when the chosen destination is out of reach of the unit's own Move
    case 'flickerjump': {
      const u = c.state.units[String(req.context?.unit)];
      const to = req.context?.to as Point | undefined;
      const options = req.options as string[];
      const far = u !== undefined && to !== undefined && dist(unitGeo(c.state, u), to) > unitMove(c.state, u) + 1;
      return Math.max(0, options.indexOf(far ? 'use' : 'keep'));
    }
    case 'cruel-amusement': return decideCruelAmusement(c, req);
    case 'blitz': return decideBlitz(c, req);
    // a Battle-shock test (at -1 when the Death Jester destroyed a model of it): as for Drone Harassment
    case 'death-is-not-enough': return decideDroneHarassment(c, req);
    // re-rolls of 1 all battle against one keyword: the one the enemy army has most value in (unit order breaks ties)
    case 'fated-hero': {
      const s = c.state;
      const enemies = s.unitOrder.map((id) => s.units[id]).filter((e) => e.player === c.opp && e.location !== 'attached' && e.location !== 'destroyed');
      return argmax(req.options as string[], (k) => enemies.reduce((v, e) => v + (e.keywords.includes(k) ? unitValue(s, e) : 0), 0));
    }
    // -1 to wound for its attacks: the enemy unit that can hurt my army most
    case 'misfortune': return pickEnemy(c, req, (e) => offense(c, e));
    // its Charge rolls halved (TANGLEBOMB BOLAS): the unit whose charges that foils most, else the most dangerous
    case 'tanglebomb-bolas': return pickEnemy(c, req, (e) => tanglebombGain(c, e) + 0.01 * offense(c, e));
    // LETHAL HITS and PRECISION against it all battle: the most valuable enemy unit
    case 'piratical-raiders':
    case 'experienced-leader':
    case 'bounty-hunters': return pickEnemy(c, req, (e) => unitValue(c.state, e));
    // Stealth this phase: the most valuable friendly unit that lacks it (options: units, then none)
    case 'hallucinogen-grenades': {
      const s = c.state;
      return argmax(req.options as ({ none: true } | { unit: string })[], (o) => {
        if ('none' in o) return 0;
        const u = s.units[o.unit];
        return u && !everyModelHas(u, 'Stealth') ? 1 + unitValue(s, u) : -1;
      });
    }
    // Infiltrators only add places to set the unit up: every unit offered, until none is left
    case 'ethereal-pathway': return req.options.length > 1 ? 1 : 0;
    // Deep Strike only adds ways to hold the unit back (the Reserves choice comes next): every unit offered
    case 'student-of-kauyon': return req.options.length > 1 ? 1 : 0;
    // the platform is wounded as its crew is and scores with it: join the first Guardian Defenders unit offered
    case 'support-artillery': return req.options.length > 1 ? 1 : 0;
    case 'inevitable-death': return decideInevitableDeath(c, req);
    // Skyfire: free shots at more FLY units: each one offered, until none is left
    case 'skyfire': return req.options.length > 1 ? 1 : 0;
    // a rider into Strategic Reserves at the end of the opponent's turn: when arriving again gains more than staying
    // Seer Council. Lucid Eye: a die raised to the highest value it can reach (a 6 serves most rolls a Fate die
    // replaces); PRESENTIMENT OF DREAD: the enemy unit whose Battle-shock test (-1) costs its side most;
    // UNSHROUDED TRUTH: where the unit scores best
    case 'lucid-eye': return argmax(req.options as ({ none: true } | { die: number; to: number })[], (o) => ('none' in o || o.to < o.die ? 0 : o.to));
    case 'presentiment-of-dread': return argmax(req.options as string[], (id) => battleShockCost(c, c.state.units[id], -1));
    case 'unshrouded-truth': {
      const u = c.state.units[String(req.context?.unit)];
      return Math.max(0, bestArrival(c, u, (req.options as { x: number; y: number }[]).map((o) => ({ ...o, unit: u.id }))).index);
    }
    case 'ride-the-wind': return argmax(req.options as ({ done: true } | { unit: string })[], (o) => ('done' in o ? 0 : strategicReservesGain(c, c.state.units[o.unit]) - 5));
    case 'overflight': return decideShadeOfTwilight(c, req, OVERFLIGHT_MOVE, false);
    case 'into-the-breach': return decideShadeOfTwilight(c, req, D6_PLUS_1_REACH, false);
    // RAPID AMBUSH's Normal move of up to D6" (3.5" on average), after which the unit may still charge
    case 'rapid-ambush': return decideShadeOfTwilight(c, req, SHADE_REACH, false);
    // LETHAL RUSE's mortal wounds: on the enemy unit whose wounds are worth most
    case 'lethal-ruse': return pickEnemy(c, req, (e) => pointsPerWound(c.state, e));
    // Monofilament Snare: a sixth of its models' worth of wounds each time it moves: the unit with most models, by their worth
    case 'monofilament-snare': return pickEnemy(c, req, (e) => e.models.filter((m) => m.alive).length * pointsPerWound(c.state, e));
    // Herald of Ynnead: the enemy unit my units in combat with it can hurt most in melee
    case 'herald-of-ynnead': return pickEnemy(c, req, (e) => { let v = 0; for (const m of engagedEnemies(c.state, e)) v += unitAttackPotential(c.state, m, e, true); return v; });
    // Psytronome Shaper: the engine offers the model that lost the most wounds first
    case 'psytronome-shaper': return 0;
    // IMPEDING FIRE: the enemy unit whose charge it is likeliest to foil
    case 'impeding-fire': return pickEnemy(c, req, (e) => impedingFireGain(c, e));
    // Spirit Conclave. CRUSHING STRIDES: the enemy unit whose wounds are worth most; SEER'S EYE: the enemy unit the
    // Wraith unit's attacks do most against; Light of Clarity: the unit on a marker with the most OC to gain; Stave
    // of Kurnous: the unit with the most damage to deal; Rune of Mists: the most valuable unit
    case 'crushing-strides': return pickEnemy(c, req, (e) => pointsPerWound(c.state, e));
    case 'seers-eye': {
      const u = c.state.units[String(req.context?.unit)];
      return u ? pickEnemy(c, req, (e) => attackOn(c, u, e, c.state.phase === 'fight')) : 0;
    }
    case 'light-of-clarity': {
      const s = c.state;
      return argmax(req.options as string[], (id) => {
        const u = s.units[id];
        let oc = 0;
        for (const m of u.models) if (m.alive) oc += s.datasheets[m.datasheet].keywords.includes('MONSTER') ? 3 : 1;
        return oc * (withinObjectiveRange(s, u) ? 1 : 0.3);
      });
    }
    case 'stave-of-kurnous': return argmax(req.options as string[], (id) => bestPotential(c, c.state.units[id]));
    case 'rune-of-mists': return argmax(req.options as string[], (id) => unitValue(c.state, c.state.units[id]));
    // a Normal move of up to 6" in the opponent's Movement phase: no charge of this turn is lost
    case 'higher-duty': return decideShadeOfTwilight(c, req, 6, false);
    // Devoted of Ynnead. Lethal Intent: the first unit offered, whose move is then weighed as Battle Focus's (none
    // when it gains nothing); Lethal Surge: into the shooter when the unit does more to it in melee than it takes
    // back and than its own guns do; Lethal Reprisal: a unit in combat, the one worth most; Storm of Whispers: as
    // `face-of-death`
    case 'lethal-intent': return req.options.length > 1 ? 1 : 0;
    case 'lethal-intent-move': return decideShadeOfTwilight(c, req, D6_PLUS_1_REACH, false);
    case 'lethal-surge': {
      const s = c.state;
      const u = s.units[String(req.context?.unit)];
      const e = s.units[String(req.context?.enemy)];
      if (!u || !e) return 0;
      const strike = attackOn(c, u, e, true);
      return strike > attackOn(c, e, u, true) && strike > bestVolley(c, u) ? 1 : 0;
    }
    case 'lethal-reprisal': return argmax(req.options as string[], (id) => {
      const u = c.state.units[id];
      return (isEngaged(c.state, u) ? 1000 : 0) + unitValue(c.state, u);
    });
    case 'storm-of-whispers': return decideDroneHarassment(c, req);
    case 'suppression-volley': case 'harassment-fire': return pickEnemy(c, req, (e) => offense(c, e));
    // a Battle-shock test: the unit worth most (its OC is what it loses, its stratagems too)
    case 'strafing-run': return pickEnemy(c, req, (e) => unitValue(c.state, e));
    case 'fire-support': case 'a-trap-well-laid': return pickEnemy(c, req, (e) => unitValue(c.state, e));
    case 'pulse-onslaught': return pickEnemy(c, req, (e) => { let b = 0; for (const m of ownUnits(c.state, c.me)) b = Math.max(b, unitAttackPotential(c.state, e, m, true)); return b + 0.01 * unitValue(c.state, e); });
    case 'tank-shock-target': return pickEnemy(c, req, (e) => pointsPerWound(c.state, e));
    case 'trap-objective': {
      const best = bestTrapObjective(c);
      const options = req.options as string[];
      return Math.max(0, best ? options.indexOf(best.id) : 0);
    }
    case 'combat-embarkation': return 0;
    // free, but a unit off the board misses the end of this turn: only for a clear gain
    case 'airborne-agility':
    case 'webway-pathstone':
    case 'webway-shunt-generator':
    case 'starflare-ignition':
    case 'cloudstrider':
    case 'skyleap': {
      const u = c.state.units[String(req.context?.unit)];
      const options = req.options as string[];
      const go = u !== undefined && strategicReservesGain(c, u) > c.w.airborneAgilityMargin;
      return Math.max(0, options.indexOf(go ? 'strategic-reserves' : 'stay'));
    }
    // the marker nearest the bearer's unit: where it will stand to add its Objective Control
    case 'strategic-conqueror': {
      const s = c.state;
      const u = s.units[String(req.context?.unit)];
      if (!u) return 0;
      const at = unitGeo(s, u);
      return argmax(req.options as string[], (id) => { const o = s.objectives.find((x) => x.id === id)!; return -dist(at, o.pos); });
    }
    // +1 to hit for the VEHICLE whose guns can hurt the enemy most
    case 'guiding-presence': {
      const s = c.state;
      return argmax(req.options as string[], (id) => {
        const u = ownUnits(s, c.me).find((x) => x.models.some((m) => m.id === id));
        let best = 0;
        if (u) for (const e of enemyUnits(s, c.me)) best = Math.max(best, unitAttackPotential(s, u, e, false));
        return best;
      });
    }
    // the engine offers the model that lost the most wounds first
    case 'spirit-stone': return 0;
    case 'spirit-mark': return decideSpiritMark(c, req);
    case 'tears-of-isha': return decideTearsOfIsha(c, req);
    // Wraith-Marked: the test most likely passed (a WRAITH CONSTRUCT unit tests at -2); a pass secures the marker
    case 'wraith-marked': return argmax(req.options as ({ none: true } | { unit: string; objective: string })[], (o) => {
      if ('none' in o) return 0;
      const u = c.state.units[o.unit];
      return p2d6AtLeast(bestLeadership(c.state, u) + (u.keywords.includes('WRAITH CONSTRUCT') ? 2 : 0)) * 0.5 * c.w.objective;
    });
    // Direct Guidance helps only a unit that Fell Back
    case 'direct-guidance': return argmax(req.options as string[], (id) => (c.state.units[id].flags.fellBack ? unitValue(c.state, c.state.units[id]) : 0));
    // Song of Renewal: the unit whose returned model is worth most
    case 'song-of-renewal': return argmax(req.options as ({ none: true } | string)[], (o) => {
      if (typeof o !== 'string') return 0;
      const w = c.state.units[o];
      const dead = w.models.find((m) => !m.alive);
      return dead ? characteristic(c.state, w, dead, 'W') * pointsPerWound(c.state, w) : 0;
    });
    // XV02 Pilot Battlesuit: the Hammerhead with the most wounds left comes first
    case 'xv02-pilot-battlesuit': return 0;
    // Scouts 6" costs nothing: the most valuable units first
    case 'strike-swiftly': return argmax(req.options as ({ done: true } | { unit: string })[], (o) => ('done' in o ? -1 : unitValue(c.state, c.state.units[o.unit])));
    // two uses a battle: kept for heavy hits (a mean Damage of 3 or more an attack), then as many as allowed
    case 'stealth-drones': return (req.context as { meanDamage: number }).meanDamage >= WEIGHTS.stealthDronesDamage ? req.options.length - 1 : 0;
    case 'attach-leader': return decideAttachLeader(c, req);
    case 'reserves': return decideReserves(c, req);
    case 'start-embarked': return decideStartEmbarked(c, req);
    default: return 0;
  }
}

const factory: AgentFactory = (ctx) => createHeuristic(checkAgentParams('heuristic', ctx.params, WEIGHTS), 'heuristic', ctx.random);
export default factory;

/** A model's melee weight: the sum over its melee weapons of mean Attacks x mean Damage (EPIC CHALLENGE's choice). */
function meleeWeight(s: GameState, modelId: string): number {
  for (const id of s.unitOrder) {
    const m = s.units[id].models.find((x) => x.id === modelId);
    if (!m) continue;
    const ds = s.datasheets[m.datasheet];
    let w = 0;
    for (const name of m.weapons) {
      const p = ds.weapons.find((x) => x.name === name)?.profiles[0];
      if (p && p.range === 'Melee') w += diceExprMean(p.attacks) * diceExprMean(p.damage);
    }
    return w;
  }
  return 0;
}
