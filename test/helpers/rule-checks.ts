/**
 * Rule checks run after every event of a game (random and heuristic agents are the fuzzers): each
 * looks at what the engine let happen, measured afresh from the state, and reports a broken rule.
 * They use the engine's geometry (distances, Engagement Range, coherency) and its rules registry only
 * to ask whether a unit holds a permission (Acrobatic, Feigned Retreat...), a weapon an ability
 * (Mont'ka's ASSAULT), a Charge roll a bonus (The Bloody-Handed) or a marker a hold (Fieldcraft): the
 * rule checked is the core rule around that permission.
 */
import type { GameEvent } from '../../src/core/events.ts';
import type { GameState, ModelState, PlayerIndex, UnitState } from '../../src/core/state.ts';
import { keptControl } from '../../src/rules/battle/objectives.ts';
import { allows, isLoneOperative, pileInMove, weaponHas, weaponRange } from '../../src/core/rules-registry.ts';
import { arrivalRound, deepStrikeDistance, firstRoundDeepStrike } from '../../src/rules/battle/reserves.ts';
import { desperateEscapeRules } from '../../src/rules/battle/movement.ts';
import { battleShockStepTests, leadershipTestModifier } from '../../src/rules/battle/command.ts';
import { allStratagems } from '../../src/rules/stratagems/registry.ts';
import { modelBody, unitDistance } from '../../src/rules/battle/world.ts';
import { buildAttackPlan } from '../../src/rules/attack-context.ts';
import { basesOverlap, BOARD_EDGES, horizontalDistance, isOnBoard, isWhollyWithinOfEdge, isWithinOfPolygon, modelsOverlap } from '../../src/geometry/distance.ts';
import { inEngagementRange, inObjectiveRange, markerBody, unitCoherency } from '../../src/geometry/ranges.ts';
import { bestLeadership, characteristic, rollModifier } from '../../src/rules/battle/units.ts';
import { isLeaderModel, mustTake } from '../../src/rules/allocation.ts';
import type { WeaponProfile } from '../../src/data/datasheet.ts';
import type { Body } from '../../src/geometry/types.ts';
import { SERPENT_STRIKE_ROLL, serpentStrikeReach } from '../../src/factions/aeldari/boarding-rolls.ts';
import { FALLEN_WARRIOR } from '../../src/rules/battle/fight-on-death.ts';
import { linkedFireBodies } from '../../src/rules/battle/linked-fire.ts';
import { scoutsDistance } from '../../src/rules/battle/pre-battle.ts';
import { FIGHTS_NEXT } from '../../src/rules/battle/fight.ts';
import { D6_PLUS_1_MOVES } from '../../src/factions/aeldari/battle-focus-names.ts';
// what Martial Grace adds to those D6 (a module that registers no rule)
import { manoeuvreRollBonus } from '../../src/factions/aeldari/battle-focus-bonuses.ts';

const EPS = 1e-6;
/**
 * Moves of a rolled length other than Battle Focus's (reactive moves, moves after shooting or fighting): the
 * label of their dice and the reach a roll gives; the move that follows may go that far, whatever the Move.
 */
const ROLLED_MOVES: Record<string, (roll: number) => number> = {
  'Trail Finding': (v) => v, 'Path of the Outcast': (v) => v, 'Reaver Band': (v) => v, 'Shade of Twilight': (v) => v, 'Rapid Ambush move': (v) => v,
  'Fire and Fade (D6+1")': (v) => v + 1, 'Into the Breach (D6+1")': (v) => v + 1, 'Raid and Run (D3+3")': (v) => v + 3,
};
/**
 * Normal moves of up to a fixed distance, by the decision that chooses them (the rules' own numbers, not read
 * from their modules: the checks load no faction rule before a test does)
 */
const FIXED_MOVES: Record<string, number> = { 'tactical-acumen': 6, 'interlocking-manoeuvres': 6 };
/** "ends closer" (pile-in, consolidation): the planner's own margin (src/geometry/planner.ts) */
const CLOSER_EPS = 1e-9;

/**
 * A Pile-in's or Consolidation's "ends closer": the model ends closer to the closest enemy model than it
 * started, by any measurable amount, or (a rule allowing it, Choreographer of War) in base contact with the
 * closest enemy unit. Distances horizontal, as the engine measures these moves.
 */
function endsCloser(enemyModels: readonly { unit: string; body: Body }[], before: Body, after: Body, contactEnough: boolean): boolean {
  let was = { unit: '', d: Infinity };
  let now = Infinity;
  for (const o of enemyModels) {
    const d = horizontalDistance(before, o.body);
    if (d < was.d) was = { unit: o.unit, d };
    now = Math.min(now, horizontalDistance(after, o.body));
  }
  if (now < was.d - CLOSER_EPS) return true;
  return contactEnough && enemyModels.some((o) => o.unit === was.unit && horizontalDistance(after, o.body) <= 0.01);
}
/** moves that may not end within Engagement Range of an enemy unit */
/** moves (not set-ups): they may not end on top of an objective marker */
const MOVES = new Set(['normal', 'advance', 'fall-back', 'charge', 'pile-in', 'consolidate', 'consolidate-any-direction', 'scout', 'surge', 'lethal-surge']);
const NOT_INTO_ENGAGEMENT = new Set(['normal', 'advance', 'fall-back', 'deploy', 'deep-strike', 'strategic-reserves', 'infiltrate', 'scout', 'disembark', 'emergency-disembark', 'set-up-again', 'consolidate-any-direction']);
/** a unit is selected at most once a phase for each of these */
const SELECT_ONCE = new Set(['select-unit-to-move', 'select-unit-to-shoot', 'select-unit-to-charge', 'select-unit-to-fight']);
/** set-ups that must be more than 9" horizontally from every enemy model ('set-up-again': UNSHROUDED TRUTH) */
const NINE_INCHES_AWAY = new Set(['deep-strike', 'strategic-reserves', 'infiltrate', 'set-up-again']);

export interface RuleChecker {
  onEvent: (e: GameEvent, s: GameState) => void;
  /** broken rules seen so far, each naming the event number */
  violations: string[];
  /** how many placements and decisions were checked, by kind (to show the checks ran) */
  checked: Map<string, number>;
}

const alive = (u: UnitState): ModelState[] => u.models.filter((m) => m.alive && m.pos);
const monsterOrVehicle = (u: UnitState): boolean => u.keywords.includes('MONSTER') || u.keywords.includes('VEHICLE');

function unitsEngaged(s: GameState, a: UnitState, b: UnitState): boolean {
  const bm = alive(b);
  return alive(a).some((m) => bm.some((om) => inEngagementRange(modelBody(s, m), modelBody(s, om))));
}

function engagedWithAny(s: GameState, u: UnitState, player: number): boolean {
  return s.unitOrder.some((id) => {
    const o = s.units[id];
    return o.player === player && o.id !== u.id && o.location === 'battlefield' && unitsEngaged(s, u, o);
  });
}

/** A weapon's profile by weapon name and index, or (byProfileName) by the profile's own name. */
function findProfile(s: GameState, u: UnitState, weapon: string, profile: number, byProfileName = false): WeaponProfile | undefined {
  const find = (ds: string) => {
    const weapons = s.datasheets[ds].weapons;
    if (byProfileName) return weapons.flatMap((w) => w.profiles).find((p) => p.name === weapon);
    return weapons.find((x) => x.name === weapon)?.profiles[profile];
  };
  for (const m of u.models) {
    const p = find(m.datasheet);
    if (p) return p;
  }
  // Firing Deck: a weapon of a model embarked in the transport
  for (const id of Object.keys(s.datasheets).sort()) {
    const p = find(id);
    if (p) return p;
  }
  return undefined;
}

/**
 * Does a rule give this attack PRECISION through the attack plan rather than the weapon (Bounty Hunters,
 * Root-carved Weapons)? The plan is built afresh for the attacker's models with the weapon (by its profile's
 * name, as the log names it) against the target.
 */
function planHasPrecision(s: GameState, attacker: UnitState, target: UnitState, profileName: string): boolean {
  for (const m of attacker.models) {
    const weapon = s.datasheets[m.datasheet].weapons.find((w) => w.profiles.some((p) => p.name === profileName));
    if (!weapon || !m.weapons.includes(weapon.name)) continue;
    const profile = weapon.profiles.find((p) => p.name === profileName)!;
    const plan = buildAttackPlan({
      state: s, attacker, attackers: [m], target, weapon, profile, melee: profile.range === 'Melee', halfRange: false,
      targetModels: alive(target).length, targetVisible: true, targetInCover: false, distance: unitDistance(s, attacker, target),
    });
    if (plan.precision) return true;
  }
  return false;
}

/**
 * Who controls each objective marker, counted afresh: the player whose models within range (3"
 * horizontally, 5" vertically) have the greater total OC (a Battle-shocked model's: 0 before what adds to it, as
 * the Rules Commentary orders them; a negative OC counts 0); a tie is nobody's.
 * Then the rules that keep a marker under a player's control (Fieldcraft, Stormblades) have their say.
 */
export function objectiveControllers(s: GameState): (number | null)[] {
  return keptControl(s, levelControllers(s));
}

function levelControllers(s: GameState): (PlayerIndex | null)[] {
  return s.objectives.map((o) => {
    const level = [0, 0];
    for (const id of s.unitOrder) {
      const u = s.units[id];
      if (u.location !== 'battlefield') continue;
      for (const m of alive(u)) if (inObjectiveRange(modelBody(s, m), o)) level[u.player] += Math.max(0, characteristic(s, u, m, 'OC'));
    }
    return level[0] > level[1] ? 0 : level[1] > level[0] ? 1 : null;
  });
}

/**
 * Below Half-strength, counted afresh: fewer than half its models alive (every model it started with is
 * still listed, dead or alive); a unit of one model when it has fewer than half its Wounds left.
 */
function belowHalf(s: GameState, u: UnitState): boolean {
  const living = u.models.filter((m) => m.alive);
  if (u.models.length === 1 && living.length === 1) return living[0].wounds * 2 < s.datasheets[living[0].datasheet].models[living[0].profile].wounds;
  return living.length * 2 < u.models.length;
}

/** Take and Hold's VP for a player now: 5 a marker held (by the scenario's numbers), capped a turn and in all. */
function takeAndHoldVp(s: GameState, player: number, vpBefore: number): number {
  const p = s.mission.params as { vpPerObjective?: number; maxPerTurn?: number; maxTotal?: number };
  const held = objectiveControllers(s).filter((c) => c === player).length;
  return Math.max(0, Math.min(held * (p.vpPerObjective ?? 5), p.maxPerTurn ?? 15, (p.maxTotal ?? 50) - vpBefore));
}

export function ruleChecker(): RuleChecker {
  const violations: string[] = [];
  const checked = new Map<string, number>();
  const count = (k: string) => checked.set(k, (checked.get(k) ?? 0) + 1);
  const allowBattleShocked = new Set(allStratagems().filter((x) => x.allowBattleShocked).map((x) => x.name));
  /** stratagems that make an enemy unit take a Battle-shock test (PRESENTIMENT OF DREAD), with the test's modifier */
  const shockStratagems = new Map(allStratagems().filter((x) => x.battleShockTest !== undefined).map((x) => [x.name, x.battleShockTest!]));
  let n = 0;
  let phase = '';
  let shooter: string | null = null;
  let fighter: string | null = null;
  /** the models that fall and fight back (fight on death) in the fight being resolved, where they stood */
  let fallen: { player: number; unit: string; model: string; pos: { x: number; y: number; z: number } }[] = [];
  let charger: string | null = null;
  let chargeTargets: string[] = [];
  const chargeRoll = new Map<string, number[]>();
  // the reach of a unit's last Consolidation move lengthened by a roll (SERPENT STRIKE's D3, read with
  // src/factions/aeldari/boarding-rolls.ts, which registers nothing, so the checks load no rule before the tests do)
  const consolidationReach = new Map<string, number>();
  // the reach of a Normal move of up to D6+1" (Battle Focus: Fade Back, Opportunity Seized), from its roll
  /** the models allocated an attack this phase (the state's `allocated`, known before each event) */
  const allocatedThisPhase = new Set<string>();
  const manoeuvreReach = new Map<string, number>();
  /** the distance of the Normal move a decision just chose, when a rule fixes it (FIXED_MOVES) */
  let fixedReach: number | null = null;
  /** what the rules add to a unit's Charge roll, when it is rolled (The Bloody-Handed: +1) */
  const chargeBonus = new Map<string, number>();
  const lastPos = new Map<string, { x: number; y: number; z: number }>();
  const usedThisPhase = new Set<string>();
  const selected = new Set<string>();
  let scoredThisPhase = false;
  let lastAttack: { unit: string; weapon: string } | null = null;
  /** the unit whose Hazardous tests were just rolled: the model that suffers their mortal wounds is its player's pick */
  let hazardousUnit: string | null = null;
  let mover: string | null = null;
  /** an embarked unit's selection to move, counted once it is asked how it moves */
  let embarkedSelection: string | null = null;
  let escape: { unit: string; name: string; alive: number; shocked: boolean; fly: boolean; dice: number[]; destroyed: number; placed: boolean; forced: boolean; modifier: number } | null = null;

  /**
   * Desperate Escape, once the Fall Back is over: a Battle-shocked unit tests every model, a unit whose
   * models all have FLY (and is not Battle-shocked) none; each roll of 1-2 (after re-rolls) destroys a model.
   */
  function settleEscape(): void {
    if (!escape) return;
    const x = escape;
    escape = null;
    // a Fall Back with no legal path is not made (the unit Remains Stationary): nothing was escaped
    if (!x.placed && x.dice.length === 0) return;
    count('desperate escape');
    // (a rule may make every model test, with a modifier: KHAINE'S VENGEANCE)
    const every = x.shocked || x.forced;
    if (every && x.dice.length !== x.alive) bad(`${x.shocked ? 'Battle-shocked ' : ''}${x.name} Fell Back with ${x.dice.length} Desperate Escape tests for ${x.alive} models`);
    if (!every && x.fly && x.dice.length) bad(`${x.name} (FLY) took Desperate Escape tests`);
    if (!every && x.dice.length > x.alive) bad(`${x.name} took ${x.dice.length} Desperate Escape tests for ${x.alive} models`);
    const failed = Math.min(x.alive, x.dice.filter((v) => v + x.modifier <= 2).length);
    if (x.destroyed !== failed) bad(`${x.name} failed ${failed} Desperate Escape tests and lost ${x.destroyed} models`);
  }
  const shockRoll = new Map<string, number[]>();
  const braved = new Set<string>();
  let mustTest: string[] = [];
  let forcedTests = new Map<string, number>();
  /** the modifier of the test a stratagem just used makes a unit take (its next Battle-shock roll), or null */
  let stratagemShock: number | null = null;
  /** Command-phase tests stratagems made units take: the roll and the modifier */
  const stratagemTests = new Map<string, { roll: number[]; modifier: number }>();
  /** the latest Battle-shock roll of each unit this phase (re-rolls and Fate dice change it) */
  const latestShock = new Map<string, number[]>();

  /**
   * Battle-shock step: every unit Below Half-strength, and every unit an effect makes test, tested (unless
   * Insane Bravery passed it); 2D6 (plus the effect's modifier) below its best Ld fails.
   */
  /**
   * What the rules add to a unit's Battle-shock test: its own (Supreme Loyalty) and its enemies' (a Hemlock
   * Wraithfighter's Mindshock Pod). Read at the end of the step: nothing moves during it.
   */
  function testModifier(s: GameState, u: UnitState): number {
    return leadershipTestModifier(s, u);
  }

  function checkBattleShockStep(s: GameState): void {
    count('battle-shock step');
    for (const id of mustTest) {
      const u = s.units[id];
      if (u.location !== 'battlefield' || !u.models.some((m) => m.alive)) continue;
      const roll = shockRoll.get(id);
      if (braved.has(id)) {
        if (u.battleShocked) bad(`${u.name} Battle-shocked after Insane Bravery`);
        continue;
      }
      if (!roll) {
        bad(`${u.name} is Below Half-strength but took no Battle-shock test`);
        continue;
      }
      count('battle-shock test');
      const ld = bestLeadership(s, u);
      const failed = roll[0] + roll[1] + (forcedTests.get(id) ?? 0) + testModifier(s, u) < ld;
      // a unit a stratagem then made test again had passed this one (it was not Battle-shocked then): checked below
      if (stratagemTests.has(id)) { if (failed) bad(`${u.name} failed its Battle-shock test and was then made to take another`); continue; }
      if (u.battleShocked !== failed) bad(`${u.name} rolled ${roll[0] + roll[1]} against Ld ${ld}+ and is ${u.battleShocked ? '' : 'not '}Battle-shocked`);
    }
    for (const id of shockRoll.keys()) if (!mustTest.includes(id)) bad(`${s.units[id].name} took a Battle-shock test in the Command phase but is not Below Half-strength (nor made to)`);
    // the tests stratagems made units take (units not Battle-shocked when it was used)
    for (const [id, t] of stratagemTests) {
      const u = s.units[id];
      if (u.location !== 'battlefield' || !u.models.some((m) => m.alive)) continue;
      count('stratagem battle-shock test');
      const failed = !braved.has(id) && t.roll[0] + t.roll[1] + t.modifier + testModifier(s, u) < bestLeadership(s, u);
      if (u.battleShocked !== failed) bad(`${u.name} rolled ${t.roll[0] + t.roll[1]} (${t.modifier}) against Ld ${bestLeadership(s, u)}+ in a stratagem's test and is ${u.battleShocked ? '' : 'not '}Battle-shocked`);
    }
  }
  let pendingAdvance: { unit: string; model: string; moved: number; move: number }[] = [];
  const bad = (what: string): void => {
    violations.push(`event ${n}: ${what}`);
  };

  function onDecision(e: Extract<GameEvent, { type: 'decision' }>, s: GameState): void {
    const c = e.choice as Record<string, unknown> | null;
    const unitId = c && typeof c === 'object' && typeof c.unit === 'string' ? c.unit : null;
    // each unit is selected at most once a phase to move, to shoot, to charge and to fight
    if (e.request === 'select-unit-to-move') embarkedSelection = null;
    if (unitId && SELECT_ONCE.has(e.request)) {
      const key = `${e.request}|${unitId}`;
      if (selected.has(key)) bad(`${s.units[unitId].name} selected twice in one phase (${e.request})`);
      // an embarked unit selected to move counts once it is asked how it moves: with no room to get out it has
      // not moved, and is offered again later in the phase (also once set up around its destroyed transport)
      if (e.request === 'select-unit-to-move' && s.units[unitId].location === 'embarked') embarkedSelection = key;
      else selected.add(key);
    }
    if (e.request === 'move' && embarkedSelection !== null) {
      selected.add(embarkedSelection);
      embarkedSelection = null;
    }
    if (e.request === 'select-unit-to-move') {
      settleEscape();
      mover = unitId;
    }
    if (e.request === 'move' && c && c.mode === 'fall-back' && mover) {
      const u = s.units[mover];
      const living = u.models.filter((m) => m.alive);
      escape = { unit: u.id, name: u.name, alive: living.length, shocked: u.battleShocked, fly: living.every((m) => s.datasheets[m.datasheet].keywords.includes('FLY')), dice: [], destroyed: 0, placed: false, forced: false, modifier: 0 };
    }
    if (e.request === 'select-unit-to-shoot') shooter = unitId;
    // a Normal move "of up to" a fixed distance, whatever the unit's Move characteristic (Tactical Acumen's 6":
    // a Move lowered by Photon Casters does not shorten it): the next Normal move placed
    const fixed = FIXED_MOVES[e.request];
    if (fixed !== undefined && c && typeof c === 'object' && c.mode === 'normal') fixedReach = fixed;
    if (e.request === 'select-unit-to-fight') { fighter = unitId; fallen = []; }
    if (e.request === 'select-unit-to-charge' && unitId) {
      count('charge declared');
      const u = s.units[unitId];
      charger = unitId;
      if (u.flags.advanced && !allows(s, u, 'charge-after-advance')) bad(`${u.name} declared a charge after Advancing`);
      if (u.flags.fellBack && !allows(s, u, 'charge-after-fall-back')) bad(`${u.name} declared a charge after Falling Back`);
    }
    if (e.request === 'charge-targets' && c && Array.isArray(c.targets)) chargeTargets = c.targets as string[];
    // fallen models fighting back answer the other player's fight-target (or, when the fallen's attacks made
    // fallen of the fighter's own side in turn, its player's: the fighter picked all its targets before any
    // attack): their target must be within Engagement Range of where one of them stood
    const fallenFight = fighter !== null && (s.units[fighter].player !== e.player || fallen.some((f) => f.player === e.player));
    if (e.request === 'fight-target' && fighter && fallenFight && c && typeof c.target === 'string') {
      count('fallen fight target');
      const t = s.units[c.target];
      // (a fallen Leader is found in its own unit again once the Attached unit it fell in has split)
      const modelOf = (f: (typeof fallen)[number]) => s.units[f.unit].models.find((m) => m.id === f.model)
        ?? s.unitOrder.flatMap((id) => s.units[id].models).find((m) => m.id === f.model)!;
      const mine = fallen.filter((f) => f.player === e.player).map((f) => ({ ...modelOf(f), pos: f.pos }));
      if (!mine.some((m) => alive(t).some((om) => inEngagementRange(modelBody(s, m), modelBody(s, om))))) bad(`fallen models of player ${e.player + 1} fought ${t.name} out of Engagement Range`);
    } else if (e.request === 'fight-target' && fighter && c && typeof c.target === 'string') {
      count('fight target');
      const u = s.units[fighter];
      const t = s.units[c.target];
      if (!unitsEngaged(s, u, t)) bad(`${u.name} fought ${t.name} out of Engagement Range`);
    }
    // (a unit shooting back out of sequence, Kroot Packmates or Drone Escort, is the other player's, and no
    // selection to shoot names it: its targets are not checked here)
    if (e.request === 'shoot-target' && phase === 'shooting' && shooter && s.units[shooter].player === e.player && c && typeof c.weapon === 'string' && typeof c.target === 'string') {
      count('shooting attack');
      const u = s.units[shooter];
      const t = s.units[c.target];
      const prof = findProfile(s, u, c.weapon, typeof c.profile === 'number' ? c.profile : 0);
      if (!prof) {
        bad(`${u.name} shot ${c.weapon}, a weapon no datasheet has`);
        return;
      }
      // every profile of that name the unit's datasheets give (a Leader's weapon may share a Bodyguard's name,
      // with another Range or abilities): a rule is broken only when none of them allows the shot
      const profiles = [...new Set(u.models.map((m) => s.datasheets[m.datasheet].weapons.find((w) => w.name === c.weapon)?.profiles[typeof c.profile === 'number' ? c.profile : 0]).filter((q): q is WeaponProfile => q !== undefined))];
      const anyHas = (ability: string) => (profiles.length ? profiles : [prof]).some((q) => weaponHas(s, u, q, ability));
      if (u.flags.advanced && !anyHas('ASSAULT')) bad(`${u.name} shot ${c.weapon} (not ASSAULT) after Advancing`);
      if (u.flags.fellBack && !allows(s, u, 'shoot-after-fall-back')) bad(`${u.name} shot after Falling Back`);
      const engaged = engagedWithAny(s, u, 1 - u.player);
      // Big Guns Never Tire: MONSTER and VEHICLE units shoot while engaged, at any target
      if (engaged && !monsterOrVehicle(u)) {
        if (!anyHas('PISTOL')) bad(`${u.name} shot ${c.weapon} (not PISTOL) within Engagement Range`);
        else if (!unitsEngaged(s, u, t)) bad(`${u.name} shot its Pistol at ${t.name}, not a unit it is engaged with`);
      }
      // enemy units locked in combat with friendly units cannot be targeted, MONSTER and VEHICLE units excepted
      if (!engaged && !monsterOrVehicle(t) && engagedWithAny(s, t, u.player)) bad(`${u.name} shot ${t.name}, within Engagement Range of a friendly unit`);
      // BLAST: never at a unit within Engagement Range of the attacking army (the firing unit included)
      if ((profiles.length ? profiles : [prof]).every((q) => weaponHas(s, u, q, 'BLAST')) && engagedWithAny(s, t, u.player)) bad(`${u.name} shot BLAST ${c.weapon} at ${t.name}, within Engagement Range of its army`);
      if (typeof prof.range === 'number') {
        // with the rules that lengthen it (the Experimental Prototype Cadre's Superior Craftsmanship: +6")
        const r = weaponRange(s, u, prof);
        const tm = alive(t);
        // where the shot is measured from: the unit's models, and with LINKED FIRE (c.linked: models aiming so)
        // the other friendly FIRE PRISM models they see; each model with its own datasheet's profile of the
        // weapon (an Attached unit's Leader may carry a weapon of the same name and another Range: a Commander
        // in Crisis Battlesuit's Plasma rifle reaches 24", a Crisis Fireknife's 18")
        const profileIndex = typeof c.profile === 'number' ? c.profile : 0;
        const reach = (m: ModelState) => {
          const own = s.datasheets[m.datasheet].weapons.find((w) => w.name === c.weapon)?.profiles[profileIndex];
          return own && typeof own.range === 'number' ? weaponRange(s, u, own) : r;
        };
        const from = alive(u).map((m) => ({ b: modelBody(s, m), r: reach(m) }));
        if (typeof c.linked === 'number' && c.linked > 0) for (const m of alive(u)) from.push(...linkedFireBodies(s, u, m, modelBody(s, m)).map((b) => ({ b, r: reach(m) })));
        if (!from.some(({ b, r: mr }) => tm.some((om) => horizontalDistance(b, modelBody(s, om)) <= mr + EPS))) bad(`${u.name} shot ${c.weapon} (${r}") at ${t.name}, out of range`);
        // Lone Operative: a target only within 12"
        if (isLoneOperative(s, t) && !from.some(({ b }) => tm.some((om) => horizontalDistance(b, modelBody(s, om)) <= 12 + EPS))) bad(`${u.name} shot Lone Operative ${t.name} from beyond 12"`);
      }
    }
  }

  function onPlacement(e: Extract<GameEvent, { type: 'models-placed' }>, s: GameState): void {
    const u = s.units[e.unit];
    if (fixedReach !== null && e.mode === 'normal') {
      manoeuvreReach.set(u.id, fixedReach);
      fixedReach = null;
    }
    if (escape && e.mode === 'fall-back') escape.placed = true;
    if (u.location !== 'battlefield') return;
    count(e.mode);
    const mine = alive(u);
    const enemies = s.unitOrder.map((id) => s.units[id]).filter((o) => o.player !== u.player && o.location === 'battlefield');
    const movedFrom: { m: ModelState; b: Body; before: Body }[] = [];
    // SERPENT STRIKE's Consolidation in any direction: only when no enemy model was within its reach plus 1"
    // (it could not end within Engagement Range), the reach rolled for it
    if (e.mode === 'consolidate-any-direction') {
      count('consolidate any direction');
      const reach = consolidationReach.get(u.id);
      if (reach === undefined) bad(`${e.mode}: ${u.name} made it with no reach rolled`);
      const near = mine.some((m) => {
        const from = lastPos.get(m.id);
        if (!from) return false;
        const was = modelBody(s, { ...m, pos: from });
        return enemies.some((o) => alive(o).some((om) => horizontalDistance(was, modelBody(s, om)) <= (reach ?? 0) + 1 + EPS));
      });
      if (near) bad(`${e.mode}: ${u.name} could have ended its Consolidation within Engagement Range`);
    }
    for (const m of mine) {
      const b = modelBody(s, m);
      if (!isOnBoard(b, s.board)) bad(`${e.mode}: ${m.id} of ${u.name} is not wholly on the battlefield`);
      for (const id of s.unitOrder) {
        const o = s.units[id];
        if (o.location !== 'battlefield') continue;
        for (const om of o.models) if (om !== m && om.alive && om.pos && modelsOverlap(b, modelBody(s, om))) bad(`${e.mode}: ${m.id} overlaps ${om.id}`);
      }
      if (NOT_INTO_ENGAGEMENT.has(e.mode)) {
        for (const o of enemies) for (const om of alive(o)) if (inEngagementRange(b, modelBody(s, om))) bad(`${e.mode}: ${m.id} of ${u.name} ends within Engagement Range of ${o.name}`);
      }
      // a destroyed model returned to its unit (Tears of Isha): it, not the models already there, is set up out of Engagement Range
      if (e.mode === 'returned' && e.positions.some((p) => p.model === m.id)) {
        for (const o of enemies) for (const om of alive(o)) if (inEngagementRange(b, modelBody(s, om))) bad(`${e.mode}: ${m.id} of ${u.name} is set up within Engagement Range of ${o.name}`);
      }
      if (NINE_INCHES_AWAY.has(e.mode)) {
        const least = e.mode === 'deep-strike' ? deepStrikeDistance(s, u) : 9;
        for (const o of enemies) for (const om of alive(o)) {
          const d = horizontalDistance(b, modelBody(s, om));
          if (d <= least - EPS) bad(`${e.mode}: ${m.id} of ${u.name} set up ${d.toFixed(2)}" from ${om.id}`);
        }
      }
      // Reserves arrive from the second battle round; Strategic Reserves wholly within 6" of a battlefield
      // edge, and in the second battle round not within the enemy's deployment zone
      // (a rule may count the round higher, Ride the Wind, or let a unit Deep Strike in the first, Transponder Lock Module)
      const round = arrivalRound(s, u);
      if ((e.mode === 'deep-strike' || e.mode === 'strategic-reserves') && round < 2 && !(e.mode === 'deep-strike' && firstRoundDeepStrike(s, u))) bad(`${e.mode}: ${u.name} arrived in battle round ${s.round}`);
      if (e.mode === 'strategic-reserves') {
        if (!BOARD_EDGES.some((edge) => isWhollyWithinOfEdge(b, edge, 6, s.board))) bad(`strategic-reserves: ${m.id} of ${u.name} not wholly within 6" of a battlefield edge`);
        const zone = s.board.deploymentZones.find((z) => z.player !== u.player);
        if (round === 2 && zone && isWithinOfPolygon(b, zone.polygon, 0) && !allows(s, u, 'arrive-in-enemy-zone')) bad(`strategic-reserves: ${m.id} of ${u.name} set up in the enemy deployment zone in battle round 2`);
        count('strategic reserves model');
      }
      const from = lastPos.get(m.id);
      if (from) {
        const moved = Math.hypot(m.pos!.x - from.x, m.pos!.y - from.y);
        // the Move characteristic as the rules in force make it (Nomadic Hunter's +3", a Coldstar's 12")
        const move = characteristic(s, u, m, 'M');
        // Scouts as the engine reads it: the datasheets' own, or what a rule gives (Key of Ghosts, Strike Swiftly)
        const scouts = scoutsDistance(s, u);
        const roll = chargeRoll.get(u.id) ?? [];
        // Pile-in and Consolidation: 3", or what the unit's abilities allow (Choreographer of War: 6")
        const pile = pileInMove(s, u).distance;
        const limit: Record<string, number> = {
          normal: Math.max(move, manoeuvreReach.get(u.id) ?? 0), 'lethal-surge': manoeuvreReach.get(u.id) ?? 0, 'fall-back': Math.max(move, manoeuvreReach.get(u.id) ?? 0), 'pile-in': pile, consolidate: Math.max(pile, consolidationReach.get(u.id) ?? 0),
          // (its reach as the Consolidation's: a longer Pile-in the unit's rules give it, Choreographer of War's 6", counts too)
          'consolidate-any-direction': Math.max(pile, consolidationReach.get(u.id) ?? 0),
          scout: scouts, charge: roll.reduce((a, x) => a + x, 0) + (chargeBonus.get(u.id) ?? 0),
        };
        // the straight line from where the model was is never longer than the path it moved
        // the Advance roll is told by the unit-moved event that follows the placement
        if (e.mode === 'advance') pendingAdvance.push({ unit: u.id, model: m.id, moved, move });
        if ((e.mode === 'pile-in' || e.mode === 'consolidate') && moved > EPS) movedFrom.push({ m, b, before: { ...b, pos: from } });
        if (e.mode in limit && moved > limit[e.mode] + EPS) bad(`${e.mode}: ${m.id} of ${u.name} moved ${moved.toFixed(2)}" (at most ${limit[e.mode]}")`);
        // a move never ends on top of an objective marker (set-ups may; a model on a ruin's upper floor is not on it)
        if (MOVES.has(e.mode) && moved > EPS && m.pos!.z <= EPS) {
          for (const o of s.objectives) if (basesOverlap(b, markerBody(o))) bad(`${e.mode}: ${m.id} of ${u.name} ends on top of objective marker ${o.id}`);
        }
      }
    }
    // Pile-in: each model that moves ends closer to the closest enemy model. Consolidate: that, or (when the
    // unit cannot end within Engagement Range) each moves toward one objective marker and the unit ends
    // within range of it
    if (movedFrom.length) {
      const enemyModels = enemies.flatMap((o) => alive(o).map((om) => ({ unit: o.id, body: modelBody(s, om) })));
      const contactEnough = pileInMove(s, u).closestUnitContact;
      const nearerEnemy = (x: { b: Body; before: Body }) => endsCloser(enemyModels, x.before, x.b, contactEnough);
      const towardEnemy = movedFrom.every(nearerEnemy);
      const towardObjective = e.mode === 'consolidate' && s.objectives.some((o) => {
        const marker = markerBody(o);
        return movedFrom.every((x) => nearerEnemy(x) || horizontalDistance(x.b, marker) < horizontalDistance(x.before, marker) - CLOSER_EPS) && mine.some((m) => inObjectiveRange(modelBody(s, m), o));
      });
      if (!towardEnemy && !towardObjective) {
        const away = movedFrom.filter((x) => !nearerEnemy(x)).map(({ m }) => m.id);
        bad(`${e.mode}: ${u.name}'s models ${away.join(', ')} moved but end no closer to the closest enemy model${e.mode === 'consolidate' ? ', nor does the unit move onto an objective marker' : ''}`);
      }
    }
    for (const m of u.models) if (m.pos) lastPos.set(m.id, { x: m.pos.x, y: m.pos.y, z: m.pos.z });
    if (e.mode === 'normal' || e.mode === 'lethal-surge' || e.mode === 'fall-back') manoeuvreReach.delete(u.id);
    // Lethal Surge (Devoted of Ynnead), Fade Back's D6+1" instead: it may end within Engagement Range of the enemy unit that shot, no other
    if (e.mode === 'lethal-surge') {
      const engaged = s.unitOrder.map((id) => s.units[id]).filter((o) => o.player !== u.player && o.location === 'battlefield' && unitsEngaged(s, u, o));
      if (engaged.length > 1) bad(`lethal-surge: ${u.name} ends within Engagement Range of ${engaged.length} enemy units`);
      count('lethal surge');
    }
    // a Pile-in is made only when it ends within Engagement Range of an enemy unit
    if (e.mode === 'pile-in' && movedFrom.length && !enemies.some((o) => unitsEngaged(s, u, o))) bad(`pile-in: ${u.name} ends out of Engagement Range of every enemy unit`);
    const coherency = unitCoherency(mine.map((m) => modelBody(s, m)));
    if (!coherency.ok) bad(`${e.mode}: ${u.name} ends out of Unit Coherency (${coherency.breaking.length} of ${mine.length} models)`);
    if (e.mode === 'charge' && charger === u.id) {
      for (const tid of chargeTargets) {
        const t = s.units[tid];
        if (t.location === 'battlefield' && alive(t).length && !unitsEngaged(s, u, t)) bad(`${u.name}'s charge ends out of Engagement Range of its target ${t.name}`);
      }
      // nor within Engagement Range of an enemy unit it did not declare as a target
      for (const o of enemies) if (!chargeTargets.includes(o.id) && unitsEngaged(s, u, o)) bad(`${u.name}'s charge ends within Engagement Range of ${o.name}, not a target`);
    }
  }

  function onEvent(e: GameEvent, s: GameState): void {
    n++;
    switch (e.type) {
      case 'turn-started':
        // the end-of-turn coherency check removed every model out of Unit Coherency
        for (const id of s.unitOrder) {
          const u = s.units[id];
          if (u.location !== 'battlefield') continue;
          const c = unitCoherency(alive(u).map((m) => modelBody(s, m)));
          if (!c.ok) bad(`${u.name} starts a turn out of Unit Coherency`);
        }
        break;
      case 'phase-started':
        phase = e.phase;
        selected.clear();
        embarkedSelection = null;
        allocatedThisPhase.clear();
        shockRoll.clear();
        stratagemTests.clear();
        latestShock.clear();
        stratagemShock = null;
        braved.clear();
        if (e.phase === 'command') {
          // who must test: the active player's units Below Half-strength as the phase starts (no model is
          // lost in the Command phase before the Battle-shock step; one returned then is seen below)
          // and the units an effect makes test (THE GRISLY FEAST), with its modifier
          forcedTests = battleShockStepTests(s, e.player).tests;
          mustTest = s.unitOrder.filter((id) => {
            const u = s.units[id];
            return u.player === e.player && u.location === 'battlefield' && (belowHalf(s, u) || forcedTests.has(id));
          });
        }
        scoredThisPhase = false;
        shooter = fighter = charger = null;
        chargeTargets = [];
        break;
      case 'attack-allocated':
      case 'model-damaged': {
        const wasAllocated = allocatedThisPhase.has(e.model);
        if (e.type === 'attack-allocated') allocatedThisPhase.add(e.model);
        // Attached units: while a Bodyguard model is left, attacks go to Bodyguard models unless they
        // have PRECISION (mortal wounds, which may come from the unit's own Hazardous weapons, are left out,
        // and so are CHARACTER attackers, whose abilities grant PRECISION in ways the log does not show)
        const au = s.units[e.unit];
        const target = au.models.find((m) => m.id === e.model)!;
        if (au.components.length > 1 && (e.type === 'attack-allocated' || !e.mortal) && isLeaderModel(au, target)
          && au.models.some((m) => m.alive && m.wounds > 0 && !isLeaderModel(au, m)) && s.mission.mode !== 'boarding-actions') {
          count('leader allocation');
          const attacker = lastAttack ? s.units[lastAttack.unit] : undefined;
          if (attacker?.keywords.includes('CHARACTER')) break;
          const prof = attacker && lastAttack ? findProfile(s, attacker, lastAttack.weapon, 0, true) : undefined;
          if (!prof || !(weaponHas(s, attacker!, prof, 'PRECISION') || planHasPrecision(s, attacker!, au, lastAttack!.weapon))) bad(`${e.type === 'attack-allocated' ? 'an attack allocated' : 'damage'} to Leader model ${e.model} of ${au.name} while Bodyguard models are left (${lastAttack?.weapon ?? 'no weapon'})`);
        }
        // an attack goes to a model that has lost wounds or had attacks allocated this phase, when there is one
        // (Attached units and Precision choose among other models, and in Boarding Actions only visible
        // models take attacks: left out). A model at 0 wounds is destroyed, not yet removed (Deadly Demise).
        const u = s.units[e.unit];
        if (u.components.length > 1 || s.mission.mode === 'boarding-actions') break;
        // Hazardous: "one of those models" (a model carrying the weapon) suffers the 3 mortal wounds, whichever
        // its player picks: not an allocation
        if (e.type === 'model-damaged' && e.mortal && e.by === null && hazardousUnit === e.unit) break;
        count('allocation');
        // the model had itself lost wounds or been allocated an attack before this event: then another such model
        // (a second one can come from the unit's own Hazardous mortal wounds) does not bind the choice
        const max = s.datasheets[target.datasheet].models[target.profile].wounds;
        const taking = wasAllocated || (e.type === 'model-damaged' ? target.wounds + e.wounds : target.wounds) < max;
        const others = taking ? [] : u.models.filter((m) => m.id !== e.model && m.alive && m.wounds > 0 && mustTake(s, m));
        if (others.length) bad(`${e.type === 'attack-allocated' ? 'an attack allocated' : 'damage'} to ${e.model} of ${u.name} while ${others.map((m) => m.id).join(', ')} had lost wounds or taken an allocated attack`);
        break;
      }
      case 'model-destroyed':
        if (escape && e.reason === 'Desperate Escape') escape.destroyed++;
        break;
      case 'model-returned':
      case 'model-healed':
        if (e.type === 'model-returned') allocatedThisPhase.delete(e.model);
        // a model returned, or wounds regained, as the Command phase starts (Tears of Isha), before the
        // Battle-shock step, may bring its unit back to half strength or more: it then takes no test there
        // (wounds regained after its test, later in the phase, change nothing of it)
        if (s.phase === 'command' && !shockRoll.has(e.unit) && !forcedTests.has(e.unit) && !belowHalf(s, s.units[e.unit])) mustTest = mustTest.filter((id) => id !== e.unit);
        break;
      case 'dice':
        if (e.purpose === 'hazardous') hazardousUnit = e.unit;
        else if (e.purpose === 'hit' || e.purpose === 'wound' || e.purpose === 'save') hazardousUnit = null;
        // the weapon of the attacks being resolved: "profile -> target" on the Hit or Wound roll
        if ((e.purpose === 'hit' || e.purpose === 'wound') && e.unit && e.label) lastAttack = { unit: e.unit, weapon: e.label.split(' -> ')[0] };
        if (e.purpose === 'desperate-escape' && escape && e.unit === escape.unit) {
          escape.dice = [...e.values];
          // the models alive as the tests are rolled: FIRE OVERWATCH as the move starts may have destroyed some
          escape.alive = s.units[escape.unit].models.filter((m) => m.alive).length;
          // the rules in force as the tests are rolled (a stratagem used as the Fall Back was selected)
          const r = desperateEscapeRules(s, s.units[escape.unit]);
          escape.forced = r.allModels;
          escape.modifier = r.modifier;
        }
        if (e.purpose === 'other' && e.unit && e.label === SERPENT_STRIKE_ROLL) consolidationReach.set(e.unit, serpentStrikeReach(e.values[0]));
        // the Battle Focus manoeuvres' D6+1" Normal moves (with what Martial Grace adds), and Lethal Intent's (Devoted of Ynnead)
        if (e.purpose === 'other' && e.unit && (D6_PLUS_1_MOVES.includes(e.label ?? '') || e.label === 'Lethal Intent')) manoeuvreReach.set(e.unit, e.values[0] + 1 + manoeuvreRollBonus(s, s.units[e.unit], e.label!));
        if (e.purpose === 'other' && e.unit && e.label && ROLLED_MOVES[e.label]) manoeuvreReach.set(e.unit, ROLLED_MOVES[e.label](e.values[0]));
        if (e.purpose === 'charge' && e.unit) {
          chargeRoll.set(e.unit, [...e.values]);
          chargeBonus.set(e.unit, Math.max(0, rollModifier(s, s.units[e.unit], 'charge')));
        }
        if (e.purpose === 'battle-shock' && e.unit && phase === 'command') {
          const roll = [...e.values];
          latestShock.set(e.unit, roll);
          if (stratagemShock !== null) stratagemTests.set(e.unit, { roll, modifier: stratagemShock });
          else shockRoll.set(e.unit, roll);
          stratagemShock = null;
        }
        break;
      case 'reroll': {
        const r = e.unit ? (e.purpose === 'charge' ? chargeRoll : e.purpose === 'battle-shock' ? latestShock : null)?.get(e.unit) : undefined;
        if (e.purpose === 'desperate-escape' && escape && e.unit === escape.unit) e.indices.forEach((i, k) => { escape!.dice[i] = e.values[k]; });
        if (r) e.indices.forEach((i, k) => { r[i] = e.values[k]; });
        if (e.purpose === 'other' && e.unit && D6_PLUS_1_MOVES.includes(e.source)) manoeuvreReach.set(e.unit, e.values[0] + 1 + manoeuvreRollBonus(s, s.units[e.unit], e.source));
        if (e.purpose === 'other' && e.unit && ROLLED_MOVES[e.source]) manoeuvreReach.set(e.unit, ROLLED_MOVES[e.source](e.values[0]));
        break;
      }
      case 'dice-substituted': {
        const r = e.unit ? (e.purpose === 'charge' ? chargeRoll : e.purpose === 'battle-shock' ? latestShock : null)?.get(e.unit) : undefined;
        if (e.purpose === 'desperate-escape' && escape && e.unit === escape.unit) escape.dice[e.index] = e.value;
        if (r) r[e.index] = e.value;
        break;
      }
      case 'stratagem-used': {
        const key = `${e.player}|${e.name}|${e.round}|${e.turn}|${e.phase}`;
        if (usedThisPhase.has(key)) bad(`player ${e.player + 1} used ${e.name} twice in one phase`);
        usedThisPhase.add(key);
        if (e.unit && e.name === 'INSANE BRAVERY') braved.add(e.unit);
        if (phase === 'command' && shockStratagems.has(e.name)) stratagemShock = shockStratagems.get(e.name)!;
        if (e.unit && s.units[e.unit].battleShocked && !allowBattleShocked.has(e.name)) bad(`${e.name} used on Battle-shocked ${s.units[e.unit].name}`);
        break;
      }
      case 'unit-moved':
        for (const a of pendingAdvance) {
          if (e.mode !== 'advance' || a.unit !== e.unit) bad(`an Advance of ${a.unit} not followed by its unit-moved event`);
          else if (a.moved > a.move + (e.advanceRoll ?? 0) + EPS) bad(`advance: ${a.model} moved ${a.moved.toFixed(2)}" (at most ${a.move} + ${e.advanceRoll}")`);
        }
        pendingAdvance = [];
        // a unit that Fell Back has left Engagement Range (one that cannot Remains Stationary instead)
        if (e.mode === 'fall-back') {
          count('fell back');
          const u = s.units[e.unit];
          for (const o of s.unitOrder.map((id) => s.units[id])) {
            if (o.player === u.player || o.location !== 'battlefield') continue;
            if (alive(u).some((m) => alive(o).some((om) => inEngagementRange(modelBody(s, m), modelBody(s, om))))) bad(`${u.name} Fell Back but is still within Engagement Range of ${o.name}`);
          }
        }
        break;
      case 'vp':
        if (s.mission.primary === 'take-and-hold') {
          count('vp scored');
          const expected = takeAndHoldVp(s, e.player, s.players[e.player].vp - e.amount);
          if (e.amount !== expected) bad(`player ${e.player + 1} scored ${e.amount} VP, Take and Hold gives ${expected}`);
          scoredThisPhase = true;
        }
        break;
      case 'phase-ended': {
        settleEscape();
        if (e.phase === 'command' && !s.result) checkBattleShockStep(s);
        // objective control is recorded as each phase ends
        const now = objectiveControllers(s);
        s.objectives.forEach((o, i) => {
          if (o.controller !== now[i]) bad(`objective ${o.id} recorded as ${o.controller === null ? "nobody's" : `player ${o.controller + 1}'s`} at the end of the ${e.phase} phase, held by ${now[i] === null ? 'nobody' : `player ${now[i]! + 1}`}`);
        });
        count('objective control');
        // Take and Hold scores at the end of the Command phase from its first scoring round (in the last
        // round the player going second scores at the end of the turn instead)
        const p = s.mission.params as { fromRound?: number };
        const scores = s.mission.primary === 'take-and-hold' && e.phase === 'command' && e.round >= (p.fromRound ?? 2)
          && !(e.round === s.mission.rounds && e.player !== s.firstPlayer);
        if (scores && !scoredThisPhase && !s.result && takeAndHoldVp(s, e.player, s.players[e.player].vp) > 0) bad(`player ${e.player + 1} held objectives but scored no VP in round ${e.round}`);
        break;
      }
      case 'cp':
        if (s.players[e.player].cp < 0) bad(`player ${e.player + 1} has negative CP`);
        break;
      case 'effect-added':
        // a unit picked to fight next (COUNTER-OFFENSIVE) is the next to fight; other stratagems of the phase
        // on a unit (HEROES' FALL: its models fight on death) do not make it the fighter
        if (e.effect.kind === FIGHTS_NEXT && e.effect.unit) { fighter = e.effect.unit; fallen = []; }
        if (e.effect.kind === FALLEN_WARRIOR && e.effect.unit) {
          const p = e.effect.params as { model: string; x: number; y: number; z: number };
          fallen.push({ player: e.effect.player, unit: e.effect.unit, model: p.model, pos: { x: p.x, y: p.y, z: p.z } });
        }
        break;
      case 'decision':
        onDecision(e, s);
        break;
      case 'models-placed':
        onPlacement(e, s);
        break;
      case 'fallen-piled-in': {
        // the fallen's Pile-in (the Rules Commentary): each no farther than the unit's Pile-in reaches, ending
        // closer to the closest enemy model (or in base contact with the closest unit, where a rule allows it)
        count('fallen pile-in');
        const u = s.units[e.unit];
        const { distance: reach, closestUnitContact: contactEnough } = pileInMove(s, u);
        const enemyBodies = s.unitOrder.map((id) => s.units[id]).filter((o) => o.player !== u.player && o.location === 'battlefield')
          .flatMap((o) => alive(o).map((om) => ({ unit: o.id, body: modelBody(s, om) })));
        for (const { model, pos } of e.positions) {
          // (by model: a fallen Leader piles in with its own unit once the Attached unit it fell in has split)
          const f = fallen.find((x) => x.model === model && x.player === u.player);
          if (!f) { bad(`fallen-piled-in: ${model} of ${u.name} is not a fallen model waiting to fight`); continue; }
          const m = u.models.find((x) => x.id === model)!;
          const before = modelBody(s, { ...m, pos: f.pos });
          const after = modelBody(s, { ...m, pos });
          const moved = Math.hypot(pos.x - f.pos.x, pos.y - f.pos.y);
          if (moved > reach + EPS) bad(`fallen-piled-in: ${model} of ${u.name} moved ${moved.toFixed(2)}" (at most ${reach}")`);
          if (moved > EPS && !endsCloser(enemyBodies, before, after, contactEnough)) bad(`fallen-piled-in: ${model} of ${u.name} moved but ends no closer to the closest enemy model`);
          f.pos = pos;
        }
        break;
      }
    }
  }

  return { onEvent, violations, checked };
}
