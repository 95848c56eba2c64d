/**
 * The rule registry: every rule the engine plays (core abilities, datasheet abilities, army rules,
 * detachment rules, enhancements, effects) is one entry, found by name. An entry answers the hooks
 * the engine calls at the moments the rules name ("each time a model makes an attack...", "while this
 * unit is Battle-shocked..."). Adding a rule adds an entry; it does not edit the core.
 *
 * Which entries are active is data: a unit's `abilities`, a player's `rules`, the state's `effects`.
 */
import type { Redeployment } from '../rules/battle/redeploy.ts';
import type { AttackPlan } from '../rules/attack-plan.ts';
import type { AttackContext } from '../rules/attack-context.ts';
import type { Effect, GameState, ModelState, PhaseName, PlayerIndex, Position, UnitComponent, UnitState } from './state.ts';
import { profileHas, type Weapon, type WeaponProfile } from '../data/datasheet.ts';
import type { Game } from './game.ts';
import type { WalksOver } from '../geometry/planner.ts';
import type { Vec2 } from '../geometry/types.ts';

export type RuleKind =
  | 'core-ability' | 'datasheet-ability' | 'wargear-ability' | 'army-rule' | 'detachment-rule' | 'enhancement' | 'effect' | 'mission'
  /** the core rules a keyword brings (AIRCRAFT), named by the keyword: for the coverage report */
  | 'keyword-rules';

/** Why a rule is active for a hook call: which side of the attack, and from what. */
export interface RuleSource {
  /** the side the rule belongs to, relative to the attack or question being asked */
  role: 'attacker' | 'defender' | 'self';
  player: PlayerIndex;
  /** the effect, when the rule is active through an effect in the state */
  effect: Effect | null;
  /** the unit whose ability it is, when it is a unit ability */
  unit: UnitState | null;
}

export type Characteristic = 'M' | 'T' | 'Sv' | 'W' | 'Ld' | 'OC';
/** The Rules Commentary's order of characteristic changes; rules without a stage add or subtract. */
export type CharacteristicStage = 'set' | 'divide';

export interface CharacteristicContext {
  state: GameState;
  unit: UnitState;
  model: ModelState;
}

/** Things a rule can allow a unit to do that the core rules forbid, or forbid when they allow it. */
export type Permission =
  | 'shoot-after-fall-back'
  | 'charge-after-fall-back'
  | 'charge-after-advance'
  /** arriving from Strategic Reserves, be set up within the enemy's deployment zone in battle round 2 too (Outflank) */
  | 'arrive-in-enemy-zone'
  /** declare a charge in a turn the unit used its Flickerjump (Empyric Ambush) */
  | 'charge-after-flickerjump'
  /** disembark from this transport after it Advanced */
  | 'disembark-after-advance'
  | 'charge'
  | 'shoot'
  /** embark within a TRANSPORT (forbidden to a Support Weapon and the unit it joined: SUPPORT ARTILLERY) */
  | 'embark'
  | 'deep-strike'
  /** set up as Infiltrators do (Ethereal Pathway) */
  | 'infiltrate'
  /** go into Reserves in Declare Battle Formations, arriving as from Strategic Reserves, outside their points cap (Ride the Wind) */
  | 'uncapped-strategic-reserves'
  /** be shot at by enemy units using the Fire Overwatch Stratagem (Flitting Shadows forbids it) */
  | 'fire-overwatch-at'
  /** make a Consolidation move that cannot end within Engagement Range in any direction (SERPENT STRIKE) */
  | 'consolidate-any-direction';

export interface UnitContext {
  state: GameState;
  unit: UnitState;
}

export interface Rule {
  name: string;
  kind: RuleKind;
  /** what of the rule is not played yet (for the coverage report); absent when fully played */
  missing?: string;
  /**
   * A Leader ability: it applies while its model leads a unit ("while this model is leading a unit"),
   * so BATTLEFIELD COMMAND (Boarding Actions) can lend it to a Bodyguard unit.
   */
  leaderAbility?: boolean;
  /**
   * A Leader ability that hooks do not play but the engine reads by its name (Branching Fates' roll reaction,
   * Indomitable Strength of Will's token): lent by BATTLEFIELD COMMAND too, read through lentLeaderModel.
   */
  lentByName?: boolean;
  /**
   * An effect on an Attached unit that its Leader keeps when the Bodyguard part is destroyed and the Leader
   * becomes a unit of its own (the turn flags are copied then, and this effect qualifies one: No Charge Bonus).
   * Other effects stay with the Bodyguard unit's id.
   */
  followsLeaderOnSplit?: boolean;
  /**
   * An Aura ability ("while a friendly unit is within 6" of this model..."): besides its own unit, the
   * rule is walked for every unit of its player, as one of the player's rules (auraRules puts its name
   * there when a unit of the army has it, with `src.unit` null); the hooks find the models it spreads from.
   */
  aura?: boolean;
  /**
   * what the unit's Normal, Advance and Fall Back moves pass over as if it were not there (Heavy Walker,
   * Titanic Strides, ACROBATIC LEAPS); read from its abilities and the effects on it (movesOverOf, placement.ts)
   */
  movesOver?: WalksOver;
  /** keywords a unit gains at muster while a model of it carries this wargear (Markerlight, Phantasm Grenade Launcher) */
  grantsKeywords?: readonly string[];
  /** keywords a unit loses at muster while a model of it carries this wargear (the Ghostkeel's Battlesuit Support System: SMOKE) */
  removesKeywords?: readonly string[];
  /** abilities (core abilities such as Infiltrators) a unit gains at muster while a model of it carries this wargear (Recon Drone), or whose model has this Enhancement (Fanatical Convert) */
  grantsAbilities?: readonly string[];
  /**
   * a Leader with this ability has these core abilities while its Bodyguard has them (Aspect Training: Fights First
   * leading Howling Banshees; Infiltrators, Scouts and Stealth leading Striking Scorpions), for the rules that ask
   * every part of an Attached unit (partHas)
   */
  bodyguardAbilities?: readonly string[];
  /**
   * What a detachment or army rule gives some units of its army at muster, by the datasheet's keywords and
   * abilities (Spirit Conclave: Spirit Guides to Wraith units): the abilities (and keywords) the unit gains,
   * or null. Asked once per unit as it is mustered, in the player's rules' order.
   */
  musterGrants?(keywords: readonly string[], abilities: readonly string[]): { abilities?: readonly string[]; keywords?: readonly string[] } | null;
  /**
   * Inches added to the Range characteristic of a ranged weapon of a unit of this rule's player
   * (Superior Craftsmanship); asked of the player's army and detachment rules and of the unit's own
   * abilities (Fuegan's Burning Lance), see weaponRange. `model`: the model firing it, when known (Stone of
   * Eldritch Fury: its bearer's weapons only); without it the unit's longest reach.
   */
  weaponRangeBonus?(ctx: UnitContext & { profile: WeaponProfile; model?: ModelState }, src: RuleSource): number;
  /**
   * An Enhancement that changes one weapon of its bearer ("select one plasma rifle equipped by the
   * bearer..."): at muster one copy of `weapon` the bearer carries becomes `${weapon} (${enhancement})`, a
   * weapon of its datasheet with the profiles `change` returns (src/rules/enhanced-weapons.ts).
   */
  enhancedWeapon?: { weapon: string; change(profile: WeaponProfile): WeaponProfile };
  /**
   * May a model `distance` inches away make ranged attacks at the unit (NEUROWEB SYSTEM JAMMER: only from
   * within 18")? Asked of the effects on the target unit (`effect` set), of its own abilities (`effect`
   * null: Illic Nightspear's Hunter Unseen) and of its player's army and detachment rules (`effect` null:
   * the Auxiliary Cadre's Localised Stealth Projectors), see targetableFrom; false forbids it. Asked for
   * every shooter and target: a rule should answer true at once when `distance` is short enough.
   */
  targetableFrom?(ctx: UnitContext & { distance: number }, effect: Effect | null): boolean;
  /**
   * The unit has the Lone Operative ability now though it does not list it (the Spiritseer's, while near a
   * friendly WRAITH CONSTRUCT unit; Spirit Stone of Raelyth's bearer near a friendly VEHICLE). Asked of the
   * unit's own abilities (its Enhancement among them) only, see isLoneOperative.
   */
  loneOperative?(ctx: UnitContext, src: RuleSource): boolean;
  /**
   * The friendly units near which that Lone Operative holds (the Spiritseer's WRAITH CONSTRUCT units): a
   * move toward each is offered to the unit (movement's destinations) and agents weigh ending near one.
   * Asked of the unit's own abilities, see escortUnits.
   */
  escortedBy?(friend: UnitState, unit: UnitState): boolean;
  /** change the Attack plan of an attack this rule's side is involved in */
  attack?(plan: AttackPlan, ctx: AttackContext, src: RuleSource): void;
  /** change a model's characteristic (OC, Move...) while this rule applies to its unit */
  characteristic?(which: Characteristic, value: number, ctx: CharacteristicContext, src: RuleSource): number;
  /**
   * How `characteristic` changes each characteristic when not by adding or subtracting: 'set' (Hover Drone's
   * 10") or 'divide' (TANGLEBOMB BOLAS' halved Move, no rounding of its own). The Rules Commentary applies
   * changes in that order (set, divide, then add and subtract) and rounds fractions up once, at the end.
   */
  characteristicStage?: Partial<Record<Characteristic, CharacteristicStage>>;
  /** the unit this ability belongs to has been selected to fight (Martial Warrior's choice) */
  selectedToFight?(g: Game, unit: UnitState): void;
  /** the unit this ability belongs to has been selected to shoot */
  selectedToShoot?(g: Game, unit: UnitState): void;
  /**
   * A unit of this ability's player (`shooter`, this unit among them) has been selected to shoot, before it
   * selects targets (not when it shoots at one unit only, as for Fire Overwatch): asked of the abilities of
   * that player's units on the battlefield, after the shooter's own selectedToShoot (Target Optimisation
   * Microdrones, for a unit near its bearer).
   */
  friendSelectedToShoot?(g: Game, unit: UnitState, shooter: UnitState): void;
  /**
   * The unit this ability belongs to is about to make a Normal, Advance or Fall Back move of its Movement
   * phase toward `to` (chosen, not yet made: its Move is read after this), see executeMove (Nova Burst,
   * Flickerjump).
   */
  beforeMove?(g: Game, unit: UnitState, mode: 'normal' | 'advance' | 'fall-back', to: { x: number; y: number }): void;
  /**
   * A rule of the moving unit's army (an army or detachment rule): the unit's Normal, Advance or Fall Back move
   * toward `to` has begun (after the opponent's reactions to its start), `distance` inches long. The rule may
   * make part of the move now (Unerring Strike: up to a closed hatchway, which the unit opens on its way) and
   * returns how many inches that takes off the rest of the move (0: it did nothing); the rest is planned from
   * where the models then stand. See executeMove.
   */
  moveUnderway?(g: Game, unit: UnitState, mode: 'normal' | 'advance' | 'fall-back', to: { x: number; y: number }, distance: number): number;
  /**
   * The unit's Desperate Escape tests as it Falls Back (KHAINE'S VENGEANCE, an effect on the falling-back
   * unit): `allModels` makes every model take one (not only those moving over enemy models), `modifier` is
   * added to each test's roll; null when the rule leaves them as they are. Read by desperateEscape (movement.ts).
   */
  desperateEscape?(ctx: UnitContext, src: RuleSource): { allModels: boolean; modifier: number } | null;
  /**
   * The same, asked of the abilities of each enemy unit within Engagement Range of the unit that Falls Back
   * (`ctx.unit` is the enemy unit whose ability it is, `fleeing` the unit Falling Back: Mask of Secrets).
   */
  enemyDesperateEscape?(ctx: UnitContext & { fleeing: UnitState }, src: RuleSource): { allModels: boolean; modifier: number } | null;
  /** the unit's Charge moves may pass through enemy models (Acrobatic Onslaught): planned as a FLY model's charge is, read by planUnit */
  chargeThroughModels?(ctx: UnitContext, src: RuleSource): boolean;
  /**
   * A model of the unit destroyed in the Fight phase before it has fought may fight before it is removed
   * (TO THEIR FINAL BREATH, HEROES' FALL): the number added to its D6 (it fights on 4+); null when the rule
   * does not let it. `melee`: a melee attack destroyed it (Faolchú's Last Flight asks for one). Read by
   * src/rules/battle/fight-on-death.ts.
   */
  fightOnDeath?(ctx: UnitContext & { melee: boolean }, src: RuleSource): number | null;
  /**
   * The unit has Fights First now though it does not list it (Path of Eldanesh's bearer, alone): asked of the
   * unit's own abilities by fightsFirst (src/rules/battle/charge.ts).
   */
  fightsFirst?(ctx: UnitContext, src: RuleSource): boolean;
  /** the unit this ability belongs to has just opened a hatchway (Path of Eldanesh), see hatchwayStep */
  hatchwayOpened?(g: Game, unit: UnitState, hatchway: string): void;
  /**
   * The unit's Consolidation move reaches this far, when more than its Pile-in (SERPENT STRIKE: D3+3", rolled
   * as it consolidates); asked of the unit's active rules (its effects too); null when the rule does not change it.
   */
  consolidationDistance?(g: Game, unit: UnitState, src: RuleSource): number | null;
  /** a modifier to a roll made for the unit (Advance, Charge, Battle-shock...) while this rule applies to it */
  rollModifier?(purpose: 'advance' | 'charge' | 'battle-shock', ctx: UnitContext, src: RuleSource): number;
  /**
   * The unit's Advance or Charge roll is halved (rounded up, before any modifier) while this rule applies to it
   * (TANGLEBOMB BOLAS on an enemy unit); see rollHalved in src/rules/battle/units.ts.
   */
  halvesRoll?(purpose: 'advance' | 'charge', ctx: UnitContext, src: RuleSource): boolean;
  /** allow the unit something the core rules forbid (shoot after Falling Back...) */
  allows?(permission: Permission, ctx: UnitContext, src: RuleSource): boolean;
  /** forbid the unit something the core rules allow (no charge after Fire and Fade...) */
  forbids?(permission: Permission, ctx: UnitContext, src: RuleSource): boolean;
  /** the unit's weapons (this profile) have a weapon ability they do not list (Killing Blow's ASSAULT) */
  weaponAbility?(ability: string, ctx: UnitContext & { profile: WeaponProfile }, src: RuleSource): boolean;
  /** an Advance that is not rolled: the number of inches to add instead (Aggressive Mobility: 6) */
  fixedAdvance?(ctx: UnitContext, src: RuleSource): number | null;
  /** the unit may re-roll its Advance roll (Skilled Crews) */
  rerollAdvance?(ctx: UnitContext, src: RuleSource): boolean;
  /** false when the unit may not select this enemy unit as a target (Focused Fire) */
  mayTarget?(ctx: UnitContext & { target: UnitState }, src: RuleSource): boolean;
  /**
   * The unit may be set up from Reserves by Deep Strike in battle round 1 as well (Transponder Lock Module),
   * then only within `range` of a friendly unit on the battlefield that `near` accepts (and as far from
   * enemy models as any Deep Strike); null when not. Asked of the unit's active rules (src/rules/battle/reserves.ts).
   */
  firstRoundDeepStrike?(ctx: UnitContext, src: RuleSource): { range: number; near: (friend: UnitState) => boolean } | null;
  /**
   * For setting the unit up from Reserves, the battle round counts this much higher (Ride the Wind: 1, so it
   * may arrive in the first battle round, and into the enemy deployment zone in the second). Asked of the
   * unit's active rules; the largest answer counts.
   */
  reservesRoundBonus?(ctx: UnitContext, src: RuleSource): number;
  /** Deep Strike set-up distance from enemy models when not 9" (Cloudstrike: 6") */
  deepStrikeDistance?(ctx: UnitContext, src: RuleSource): number | null;
  /**
   * For a transport: units disembarking from it are set up more than this far from enemy units and may
   * not charge this turn (Cloudstrike: 6")
   */
  disembarkDistance?(ctx: UnitContext, src: RuleSource): number | null;
  /** For a transport: a unit has just disembarked from it (Into the Foe); `before` whether the transport had not moved yet this turn. */
  passengerDisembarked?(g: Game, transport: UnitState, passenger: UnitState, before: boolean): void;
  /**
   * The unit's Pile-in and Consolidation moves when not the core rules' (Choreographer of War): how far
   * they reach, and whether a model may end in base contact with a model of the closest enemy unit rather
   * than closer to the closest enemy model; asked of the unit's own abilities and of the effects on it
   * (SWEEPING AMBUSH), see pileInMove.
   */
  pileInMove?(ctx: UnitContext, src: RuleSource): PileInMove | null;
  /**
   * The unit this ability belongs to has just shot with FIRE OVERWATCH at `target` (an enemy unit that started
   * or ended a move in the Movement phase, was set up, or declared a charge: `moment`) and may shoot more as
   * part of it (Skyfire).
   */
  overwatchFired?(g: Game, unit: UnitState, target: UnitState, moment: 'move-started' | 'move-ended' | 'charge-declared'): void;
  /** end of a phase, for the unit this ability belongs to (Rapid Embarkation) */
  phaseEnd?(g: Game, unit: UnitState, phase: PhaseName): void;
  /**
   * phaseStart and phaseEnd are asked also while the unit is embarked within a Transport (Sadistic Raiders,
   * Harmonisation Matrix: "or a Transport it is embarked within")
   */
  phaseHooksWhileEmbarked?: boolean;
  /** the Redeploy Units step: how many of its player's deployed units the bearer's rule lets them set up again (src/rules/battle/redeploy.ts) */
  redeploy?: Redeployment;
  /**
   * The start of the Declare Battle Formations step, before any Leader is attached, however the formations
   * are declared: for the abilities of each unit of both armies, in the armies' order (SUPPORT ARTILLERY).
   */
  battleFormationsStart?(g: Game, unit: UnitState): void;
  /**
   * The Declare Battle Formations step, once Leaders are attached and transports filled, before any unit is
   * put in Reserves: for the abilities of each unit of that player (Student of Kauyon). Made by the player's
   * agent (src/rules/battle/formations.ts), or by the scenario (src/rules/battle/setup.ts): then `deepStrike`
   * names the units the scenario puts in Deep Strike Reserves, and the rule takes its choices from them.
   */
  declareBattleFormations?(g: Game, unit: UnitState, deepStrike?: readonly string[]): void;
  /** after the first turn is decided and before any Scouts move, for the abilities of every unit (Strike Swiftly) */
  beforeScoutMoves?(g: Game, unit: UnitState): void;
  /** at the start of the Deploy Armies step, before any unit is set up (Ethereal Pathway), for the units of both armies */
  deployArmiesStart?(g: Game, unit: UnitState): void;
  /**
   * just after the unit was set up in its player's deployment zone (`zone`) in the Deploy Armies step, before
   * the other player sets up a unit (Rallying Cry); not when it is set up as Infiltrators, nor redeployed
   */
  unitDeployed?(g: Game, unit: UnitState, zone: number): void;
  /** Scouts x" this rule gives the unit's models (Strike Swiftly), null for none */
  scouts?(ctx: UnitContext, src: RuleSource): number | null;
  /** start of the first battle round, before the first turn, for the abilities of every unit (Strategic Conqueror) */
  battleStart?(g: Game, unit: UnitState): void;
  /** start of a phase, for the unit this ability belongs to, on the battlefield (Dance of Death) */
  phaseStart?(g: Game, unit: UnitState, phase: PhaseName): void;
  /**
   * The unit this ability belongs to has shot in its Shooting phase; `hitTargets`: enemy units hit
   * (Suppression Volley); `hitWith`: which weapon (datasheet name) hit which of them (Monofilament Web),
   * always given by the Shooting phase.
   */
  afterShooting?(g: Game, unit: UnitState, hitTargets: readonly string[], hitWith?: readonly { weapon: string; target: string; models?: readonly string[] }[]): void;
  /**
   * The unit has just resolved its attacks, ranged (in any phase: Fire Overwatch, a unit shooting back) or
   * melee; `hitTargets`: the enemy units they hit. Asked of the unit's abilities (`effect` null: Advanced
   * Scouting) and of the effects on it (A TRAP WELL LAID).
   */
  afterAttacks?(g: Game, unit: UnitState, hitTargets: readonly string[], melee: boolean, effect: Effect | null): void;
  /**
   * An effect asked in `player`'s Battle-shock step, before the tests for being Below Half-strength: the units
   * of `player` it makes take a test, and the modifier to each (THE GRISLY FEAST); null when it does not act in
   * this step. Once it has answered with a list (even an empty one) the step removes the effect. A unit tested
   * this way takes no other test in the step. Asked with the state as the step starts, and nothing else.
   */
  battleShockStepTests?(state: GameState, player: PlayerIndex, effect: Effect): { unit: string; modifier: number }[] | null;
  /**
   * Areas (polygons) where no part of a base of an enemy unit set up from Reserves may be (Jammer Array:
   * within 12" of the model); asked of the abilities of the arriving unit's opponent's units on the
   * battlefield (src/rules/battle/reserves.ts). Not asked for Deep Strike before the battle (infiltrators).
   */
  enemyArrivalExclusion?(state: GameState, unit: UnitState): { x: number; y: number }[][];
  /**
   * The unit this ability belongs to has just declared a charge against `targets` (unit ids), before the
   * opponent's answers to it (Fire Overwatch) and the Charge roll (Battle Focus: Flitting Shadows).
   */
  chargeDeclared?(g: Game, unit: UnitState, targets: readonly string[]): void;
  /** the unit this ability belongs to has just ended a Charge move, before the stratagem windows that follow it (Kroot Linebreakers) */
  afterChargeMove?(g: Game, unit: UnitState): void;
  /** the unit this ability belongs to was set up on the battlefield or ended a Normal, Advance or Fall Back move (Grenade Pack Flyover) */
  afterMove?(g: Game, unit: UnitState): void;
  /**
   * the unit this ability belongs to has just made a Normal, Advance or Fall Back move (`mode`; its Movement
   * phase's, or one a rule gives: src/rules/battle/movement.ts ruleMove), each model along its path (start to
   * end), before anything reacts to it (Titanic Strides: high terrain crossed; Internal Grenade Racks)
   */
  movedAlong?(g: Game, unit: UnitState, moves: readonly { model: string; path: readonly Vec2[] }[], mode: 'normal' | 'advance' | 'fall-back'): void;
  /**
   * `count` attacks of `plan` have just been allocated to `model` of this ability's unit, before their
   * saving throws: how many of them the rule makes do nothing (their Damage 0), 0 for none (Stealth Drones).
   * Asked of the target unit's own abilities.
   */
  attacksAllocated?(g: Game, unit: UnitState, model: ModelState, plan: AttackPlan, count: number): number;
  /** end of any turn (`player`'s), for the army and detachment rules of `owner`, after the units' turnEnd (Ride the Wind) */
  playerTurnEnd?(g: Game, owner: PlayerIndex, player: PlayerIndex): void;
  /** end of any turn (`player`'s), for the abilities of units on the battlefield, after objective control is updated (Airborne Agility) */
  turnEnd?(g: Game, unit: UnitState, player: PlayerIndex): void;
  /** end of any phase, for effects in the state, after the units' phaseEnd and before objective control is updated (Stormblades' hold, STAGED DEATH's return) */
  effectPhaseEnd?(g: Game, effect: Effect, phase: PhaseName): void;
  /** end of any turn (`player`'s), for effects in the state, after objective control is updated (Fieldcraft's hold) */
  effectTurnEnd?(g: Game, effect: Effect, player: PlayerIndex): void;
  /**
   * Who controls the objective marker, given who would by the Levels of Control (`controller`): asked of
   * the effects in the state, so a rule can keep a marker under its player's control (Fieldcraft), at the
   * moment control is determined (the end of a phase or of a turn).
   */
  objectiveControl?(state: GameState, objective: string, controller: PlayerIndex | null, effect: Effect, moment: 'phase-end' | 'turn-end'): PlayerIndex | null;
  /**
   * A model of the unit this ability belongs to was destroyed (and removed) (Crewed Platform); `at`: where
   * it stood, null when it was not on the battlefield (Unquenchable Resolve sets it back up near there).
   */
  modelDestroyed?(g: Game, unit: UnitState, model: ModelState, at: Position | null): void;
  /** weapons (datasheet weapon names) a model has on top of its own while this rule applies (DS8 Support Turret) */
  extraWeapons?(ctx: UnitContext & { model: ModelState }, src: RuleSource): readonly string[];
  /**
   * A modifier to the Charge roll of an enemy unit that declared a charge against this ability's unit
   * (Grav-inhibitor Drone: -2); asked of each target's abilities, the largest reduction counts and it does
   * not add to the charging unit's own reductions (see chargeRollModifier).
   */
  chargeRollAgainst?(ctx: UnitContext & { charger: UnitState }, src: RuleSource): number;
  /**
   * The same kind of modifier without that clause (Runes of Fortune: -2): it adds to the charging unit's own,
   * once for the ability however many of the targets have it ("if one or more units with this ability").
   */
  chargeRollAgainstAdds?(ctx: UnitContext & { charger: UnitState }, src: RuleSource): number;
  /**
   * A penalty to the Charge rolls of the unit this effect is on that is "not cumulative with any other
   * negative modifiers" (IMPEDING FIRE: -2): counted as chargeRollAgainst's are (see chargeRollModifier).
   */
  chargeRollPenalty?: number;
  /**
   * An enemy unit (`attacker`) has just selected its targets (`targets`, unit ids) for ranged attacks, or
   * melee ones when `melee`: asked of the abilities of the targets' player's units on the battlefield, the
   * targets' own among them (Nova Shielding, Duality Shield; Kroot Packmates for a friend nearby).
   */
  enemyTargeted?(g: Game, unit: UnitState, attacker: UnitState, targets: readonly string[], melee: boolean): void;
  /**
   * The unit this ability belongs to has just selected its targets (`targets`, unit ids) for ranged
   * attacks, after the enemy's answers to them and before its attacks are resolved (Harvester of Souls).
   */
  targetsSelected?(g: Game, unit: UnitState, targets: readonly string[], assigned?: readonly { weapon: string; target: string }[]): void;
  /**
   * The unit this effect is on has just ended a Normal, Advance or Fall Back move (Monofilament Snare's
   * snared unit); asked of the effects on the unit (src/rules/battle/movement.ts).
   */
  markedUnitMoved?(g: Game, unit: UnitState, effect: Effect): void;
  /**
   * A modifier to a Battle-shock test of an enemy unit (`tested`) of this ability's unit (Shadow of Death:
   * -1 within 6"); asked of the abilities of the tested unit's opponent's units on the battlefield.
   */
  enemyBattleShockModifier?(ctx: UnitContext & { tested: UnitState }, src: RuleSource): number;
  /** An enemy unit (`attacker`) has finished making its ranged attacks: asked as enemyTargeted is (Kroot Packmates' reply). */
  enemyShot?(g: Game, unit: UnitState, attacker: UnitState): void;
  /**
   * The unit this ability belongs to has just ended a Normal move in its Movement phase having passed over
   * the enemy units `enemies` (ids; Lightning Assault). Only units with such an ability have their moves'
   * crossings measured.
   */
  movedOver?(g: Game, unit: UnitState, enemies: readonly string[]): void;
  /** movedOver is heard after an Advance too, not only a Normal move (Eviscerating Fly-by) */
  movedOverOnAdvance?: boolean;
  /**
   * An enemy unit (`mover`) has just ended a Normal, Advance or Fall Back move, in its Movement phase or given
   * by a rule (FIRE AND FADE), not a reactive move: asked of the abilities of the other player's units on the
   * battlefield (Trail Finding's reactive move).
   */
  enemyMoveEnded?(g: Game, unit: UnitState, mover: UnitState): void;
  /**
   * A unit of `owner`'s opponent (`mover`) has just ended a Normal, Advance, Fall Back or Charge move
   * (`mode`): the Movement and Charge phases' own moves and the Normal and Fall Back moves rules make
   * (src/factions/helpers.ts: reactive moves, moves after shooting...). Asked of `owner`'s army and detachment
   * rules (Relentless Raiders).
   */
  armyEnemyMoveEnded?(g: Game, owner: PlayerIndex, mover: UnitState, mode: 'normal' | 'advance' | 'fall-back' | 'charge'): void;
  /**
   * The unit was selected as the target of a Stratagem its player used (Command-link Drone); asked of the
   * rules active on it (its abilities, its player's rules, auras among them) once the CP are paid.
   */
  stratagemTargeted?(g: Game, unit: UnitState, stratagem: string, src: RuleSource): void;
  /**
   * Distances at which this unit's ranged attack groups are split, so that a rule reading
   * AttackContext.distance sees each model's (Way of the Short Blade: 9"); asked of the unit's abilities, its
   * player's army rules (Bonded Heroes) and the effects on the unit (POINT-BLANK AMBUSH).
   */
  attackRangeBands?(ctx: UnitContext, src: RuleSource): readonly number[];
  /**
   * Distances at which ranged attack groups that target this unit are split, each part measured from its own
   * closest model (Rune of Mists: cover against attacking models beyond 18"); asked of the effects on the target.
   */
  targetRangeBands?(ctx: UnitContext, src: RuleSource): readonly number[];
  /**
   * Split the models of one of this unit's ranged attack groups into parts that resolve apart, because
   * the rule gives them different bonuses (Psychic Communion: each Warlock's own +1/+2); asked of the
   * effects on the shooting unit. Return the models unsplit (the same array) when nothing differs.
   */
  splitAttackers?(state: GameState, unit: UnitState, weapon: Weapon, models: ModelState[], src: RuleSource): ModelState[][];
  /**
   * Split the attacking models of a group that targets this unit into parts resolved apart, because the rule
   * judges each attacking model (GUARDIAN CONSTRUCTS: those wholly across a hatchway); asked of the effects on
   * the target as the group's attacks are resolved. Return the models unsplit (one part) when nothing differs.
   */
  splitAttackersAgainst?(state: GameState, target: UnitState, models: ModelState[], src: RuleSource): ModelState[][];
  /**
   * The unit's ranged attack groups are split by whether the target is each model's closest eligible target (a
   * datasheet ability with a bonus "each time a model makes a ranged attack that targets the closest eligible
   * target": Exemplars of Mont'ka, Swift Demise), so each model's attacks get the bonus its own position earns.
   */
  splitByClosestTarget?: true;
  /**
   * False when this model of the unit may not make ranged attacks now, though its unit may shoot (after a
   * Fall Back, only the bearers of a Battlesuit Support System); asked only of units that Fell Back.
   */
  modelMayShoot?(ctx: UnitContext & { model: ModelState }, src: RuleSource): boolean;
  /**
   * An invulnerable save a model of the unit has from this ability, null when none (Shield Generator: its
   * bearer; Serpent Shield: every model of the bearer's unit); asked of unit abilities, the best one counts.
   */
  invulnerableSave?(ctx: UnitContext & { model: ModelState }, src: RuleSource): number | null;
  /**
   * What this ability takes from a model's invulnerable save (Shadow Field): 'lost', it has none (whatever
   * its profile or other abilities give); 'no-reroll', its invulnerable saving throws cannot be re-rolled;
   * null, nothing. Asked of unit abilities (invulnerableOf, and the saving throws of the attack sequence).
   */
  invulnerableRestriction?(ctx: UnitContext & { model: ModelState }, src: RuleSource): 'lost' | 'no-reroll' | null;
  /**
   * Subtracted from the Damage characteristic of an attack allocated to `model` of this ability's unit
   * (Scattershield: 1 for its bearer), 0 for none; like AttackPlan.damageReduction, never below 1. Asked of
   * the target unit's own abilities for each attack that got through.
   */
  allocatedDamageReduction?(ctx: UnitContext & { model: ModelState }, src: RuleSource): number;
  /**
   * The saving throws of `count` attacks allocated to `model` of this ability's unit have just failed
   * (`invulnerable`: they were invulnerable saving throws): how many of those attacks the rule changes to
   * Damage 0 (Channeller Stones), 0 for none; the rule may also remember the failure (Shadow Field). Asked
   * of the target unit's own abilities; a unit with such a rule rolls its saving throws one at a time, so
   * that each failure is seen before the next save is made.
   */
  savesFailed?(g: Game, unit: UnitState, model: ModelState, plan: AttackPlan, count: number, invulnerable: boolean): number;
  /** a Feel No Pain the unit's models have from this ability (`mortal`: against mortal wounds), null when none (Advanced Armour); asked of unit abilities */
  feelNoPain?(ctx: UnitContext & { model: ModelState; mortal: boolean }, src: RuleSource): number | null;
  /**
   * The result a destroyed model's Deadly Demise roll counts as, instead of rolling it (FAIL-SAFE DETONATOR's
   * effect on its unit); null to roll. Asked of the unit's active rules when one of its models is destroyed.
   */
  deadlyDemiseRoll?(ctx: UnitContext & { model: ModelState }, src: RuleSource): number | null;
  /**
   * CP by which this ability can reduce the cost of a stratagem that targets its unit (Path of Command),
   * 0 when it cannot now. Asked of the target unit's abilities (src/rules/windows.ts); taking the
   * reduction is the player's choice, and `stratagemDiscountUsed` then records it. Also asked of the target's
   * player's army and detachment rules (Strands of Fate of the Seer Council).
   */
  stratagemDiscount?(ctx: UnitContext & { stratagem: string }, src: RuleSource): number;
  stratagemDiscountUsed?(g: Game, unit: UnitState, src: RuleSource, stratagem?: string): void;
  /**
   * The unit's player may use COMMAND RE-ROLL on this ability's unit for 0CP now (Gift of Foresight, once per
   * battle round); `freeCommandRerollUsed` records a use. Asked of the unit's abilities by the COMMAND RE-ROLL
   * reaction (src/rules/stratagems/core.ts) only: the discounts above are not asked there.
   */
  freeCommandReroll?(ctx: UnitContext): boolean;
  freeCommandRerollUsed?(g: Game, unit: UnitState): void;
  /**
   * CP by which the cost of a stratagem the opponent of this ability's unit uses on their own unit `target`
   * goes up (Lord of Deceit), 0 for none. Asked of the abilities of the other player's units on the
   * battlefield (src/rules/windows.ts).
   */
  enemyStratagemSurcharge?(ctx: UnitContext & { target: UnitState; stratagem: string }, src: RuleSource): number;
  /**
   * CP by which a stratagem its own player uses on this ability's unit costs more (Towering Wraith Construct:
   * twice the stated cost, so `cp` more); asked of the target unit's abilities (src/rules/windows.ts).
   */
  targetedStratagemSurcharge?(ctx: UnitContext & { stratagem: string; cp: number }, src: RuleSource): number;
  /** A use priced with this ability's surcharge was paid (Torc of Morai-Heg records its once per turn). */
  enemyStratagemSurchargeUsed?(g: Game, unit: UnitState): void;
  /**
   * Its player may target this ability's unit with the stratagem even though they used it on a different
   * unit this phase (Reckless Abandon: HEROIC INTERVENTION); asked of the target unit's abilities, only for
   * a stratagem limited to once per phase (src/rules/windows.ts).
   */
  stratagemAgainInPhase?(ctx: UnitContext & { stratagem: string }, src: RuleSource): boolean;
}

const registry = new Map<string, Rule>();

export function registerRule(rule: Rule): Rule {
  if (registry.has(rule.name)) throw new Error(`rule "${rule.name}" is registered twice`);
  registry.set(rule.name, rule);
  registryGeneration++;
  return rule;
}

/**
 * The registered rules among a list of names (a unit's abilities, a player's army and detachment rules),
 * in the list's order, kept per list: rules are walked tens of thousands of times a game and most names
 * are not rules. The state replaces these lists rather than changing them; the length and the registry's
 * generation are checked all the same (a test may push an ability in place).
 */
function registeredAmong(names: readonly string[]): readonly Rule[] {
  return resolvedList(names).rules;
}

interface ResolvedList { generation: number; length: number; rules: readonly Rule[]; byHook: { [K in keyof Rule]?: readonly Rule[] } }

function resolvedList(names: readonly string[]): ResolvedList {
  const hit = resolvedLists.get(names);
  if (hit && hit.generation === registryGeneration && hit.length === names.length) return hit;
  const rules: Rule[] = [];
  for (const name of names) {
    const r = registry.get(name);
    if (r) rules.push(r);
  }
  const entry: ResolvedList = { generation: registryGeneration, length: names.length, rules, byHook: {} };
  resolvedLists.set(names, entry);
  return entry;
}

const resolvedLists = new WeakMap<readonly string[], ResolvedList>();
let registryGeneration = 0;

/** The registered rules among a unit's own abilities (not its player's rules nor effects), cached per list. */
export function abilityRules(unit: UnitState): readonly Rule[] {
  return registeredAmong(unit.abilities);
}

/**
 * The unit's own ability rules that have `hook`, kept per list as registeredAmong's are: the damage step
 * and the move and attack reactions ask for a hook few units have, thousands of times a game.
 */
export function abilityRulesWith<K extends keyof Rule>(unit: UnitState, hook: K): readonly Rule[] {
  const entry = resolvedList(unit.abilities);
  return (entry.byHook[hook] ??= entry.rules.filter((r) => r[hook] !== undefined));
}

/**
 * Does any unit of the game have an ability with `hook`? Abilities come at muster (attaching a Leader only
 * merges names its units had), so the answer is kept per list of units: the reactions to every move and
 * every target choice skip their walk over the units in the (usual) games where no unit has one.
 */
export function anyUnitHas(state: GameState, hook: keyof Rule): boolean {
  let entry = unitsWithHooks.get(state.unitOrder);
  if (!entry || entry.length !== state.unitOrder.length || entry.generation !== registryGeneration) {
    unitsWithHooks.set(state.unitOrder, (entry = { length: state.unitOrder.length, generation: registryGeneration, hooks: {} }));
  }
  return (entry.hooks[hook] ??= state.unitOrder.some((id) => abilityRulesWith(state.units[id], hook).length > 0));
}

const unitsWithHooks = new WeakMap<readonly string[], { length: number; generation: number; hooks: { [K in keyof Rule]?: boolean } }>();

const NO_EFFECTS: readonly Effect[] = [];

/**
 * The effects on the unit whose rule has this hook (IMPEDING FIRE's charge penalty, ACROBATIC LEAPS, Psychic
 * Communion's split, Monofilament Snare), in the state's order; a shared empty list when there is none.
 */
export function effectsWith<K extends keyof Rule>(state: GameState, unitId: string, hook: K): readonly Effect[] {
  let out: Effect[] | null = null;
  for (const e of state.effects) if (e.unit === unitId && registry.get(e.kind)?.[hook] !== undefined) (out ??= []).push(e);
  return out ?? NO_EFFECTS;
}

export function getRule(name: string): Rule | undefined {
  return registry.get(name);
}

export function allRules(): Rule[] {
  return [...registry.values()];
}

/**
 * Call `fn` for every rule active on a unit: its own abilities, its player's army and detachment
 * rules, and the effects on it (any player's) or army-wide effects of its player. The RuleSource
 * object is reused across the calls of a walk and by later walks: hooks must not keep it (copy it).
 */
export function forEachActiveRule(state: GameState, unit: UnitState, role: RuleSource['role'], fn: (rule: Rule, src: RuleSource) => void): void {
  // one RuleSource per depth of nested walks (a hook may walk another unit's rules), reused: the walk runs
  // tens of thousands of times a game
  const src = (SOURCES[walkDepth] ??= { role, player: unit.player, effect: null, unit: null });
  src.role = role;
  src.player = unit.player;
  src.effect = null;
  src.unit = unit;
  walkDepth++;
  try {
    walkRules(state, unit, src, fn);
  } finally {
    walkDepth--;
    src.effect = null;
    src.unit = null;
  }
}

const SOURCES: RuleSource[] = [];
let walkDepth = 0;

function walkRules(state: GameState, unit: UnitState, src: RuleSource, fn: (rule: Rule, src: RuleSource) => void): void {
  for (const r of registeredAmong(unit.abilities)) fn(r, src);
  src.unit = null;
  for (const r of registeredAmong(state.players[unit.player].rules)) fn(r, src);
  src.unit = unit;
  for (const effect of state.effects) {
    // an effect on a unit applies whoever created it (Shaken on an enemy); an army-wide one to its player's side
    if (effect.unit !== null ? effect.unit !== unit.id : effect.player !== unit.player) continue;
    const r = registry.get(effect.kind);
    if (!r) continue;
    src.effect = effect;
    fn(r, src);
  }
}

/** Does any active rule allow this unit the permission? */
export function allows(state: GameState, unit: UnitState, permission: Permission): boolean {
  let yes = false;
  forEachActiveRule(state, unit, 'self', (r, src) => { if (!yes && r.allows?.(permission, { state, unit }, src)) yes = true; });
  return yes;
}

/** Does any active rule forbid this unit the permission? */
export function forbids(state: GameState, unit: UnitState, permission: Permission): boolean {
  let yes = false;
  forEachActiveRule(state, unit, 'self', (r, src) => { if (!yes && r.forbids?.(permission, { state, unit }, src)) yes = true; });
  return yes;
}

/**
 * The Range of a ranged weapon profile as the unit fires it: the profile's, plus what its player's army
 * and detachment rules and the unit's own abilities add (Rule.weaponRangeBonus). Only those rules are
 * asked (not effects): the range is read in the agents' inner loops; a stratagem that changes a Range does it
 * through its detachment's rule, which looks for its effect (DOOM INESCAPABLE, in Path of the Warrior's entry).
 */
export function weaponRange(state: GameState, unit: UnitState, profile: WeaponProfile, model?: ModelState): number {
  let r = profile.range as number;
  // the context is made only for a rule that asks it: this runs for every shooter, target and profile
  for (const rule of registeredAmong(state.players[unit.player].rules)) {
    if (rule.weaponRangeBonus) r += rule.weaponRangeBonus({ state, unit, profile, model }, { role: 'self', player: unit.player, effect: null, unit: null });
  }
  for (const rule of registeredAmong(unit.abilities)) {
    if (rule.weaponRangeBonus) r += rule.weaponRangeBonus({ state, unit, profile, model }, { role: 'self', player: unit.player, effect: null, unit });
  }
  return r;
}

/**
 * May a model `distance` inches from the unit make ranged attacks at it: no effect on the unit, ability of
 * its own nor rule of its player (army and detachment rules: Localised Stealth Projectors) forbids it
 * (Rule.targetableFrom). Only those are asked (the check runs for every shooter and target); the lists of
 * rules are resolved once (registeredAmong), so a player without such a rule pays a short walk.
 */
export function targetableFrom(state: GameState, unit: UnitState, distance: number): boolean {
  for (const r of registeredAmong(unit.abilities)) if (r.targetableFrom && !r.targetableFrom({ state, unit, distance }, null)) return false;
  for (const r of registeredAmong(state.players[unit.player].rules)) if (r.targetableFrom && !r.targetableFrom({ state, unit, distance }, null)) return false;
  for (const e of state.effects) {
    if (e.unit !== unit.id) continue;
    const r = registry.get(e.kind);
    if (r?.targetableFrom && !r.targetableFrom({ state, unit, distance }, e)) return false;
  }
  return true;
}

/**
 * Core abilities that act only "if every model in a unit has this ability" (Stealth, Fights First): an
 * Attached unit has them only when each of its parts has them, though its ability list joins its parts'.
 */
export function everyModelHas(unit: UnitState, ability: string): boolean {
  if (!unit.abilities.includes(ability)) return false;
  for (const c of unit.components) if (!c.destroyed && !partHas(unit, c, ability)) return false;
  return true;
}

/**
 * One part of a unit has the ability: its own; one an Enhancement or wargear of any part gives the whole unit
 * (Webway Pathstone: "models in this unit have Deep Strike", Rule.grantsAbilities); or, for a Leader, its
 * Bodyguard's that one of its rules shares (Rule.bodyguardAbilities).
 */
export function partHas(unit: UnitState, part: UnitComponent, ability: string): boolean {
  if (part.abilities.includes(ability)) return true;
  for (const c of unit.components) if (!c.destroyed && grantsToUnit(c, ability)) return true;
  if (!part.isLeader || !sharesBodyguardAbility(part, ability)) return false;
  for (const b of unit.components) if (!b.isLeader && !b.destroyed && b.abilities.includes(ability)) return true;
  return false;
}

function grantsToUnit(part: UnitComponent, ability: string): boolean {
  for (const a of part.abilities) if (getRule(a)?.grantsAbilities?.includes(ability)) return true;
  return false;
}

function sharesBodyguardAbility(part: UnitComponent, ability: string): boolean {
  for (const a of part.abilities) if (getRule(a)?.bodyguardAbilities?.includes(ability)) return true;
  return false;
}

/**
 * Does the unit have Lone Operative now (a ranged attack may target it only from within 12"): listed among
 * its abilities, or given by one of them while a condition holds (Rule.loneOperative). The engine's target
 * selection and the checks read this one answer; the hook's rules are kept per list of abilities, so a unit
 * without such an ability pays one cached lookup.
 */
export function isLoneOperative(state: GameState, unit: UnitState): boolean {
  // the core ability acts "unless part of an Attached unit"
  if (unit.abilities.includes('Lone Operative') && unit.components.length < 2) return true;
  for (const r of abilityRulesWith(unit, 'loneOperative')) {
    if (r.loneOperative!({ state, unit }, { role: 'self', player: unit.player, effect: null, unit })) return true;
  }
  return false;
}

/** The friendly units on the battlefield the unit's own abilities want it near (Rule.escortedBy), in unit order; none for most units. */
export function escortUnits(state: GameState, unit: UnitState): UnitState[] {
  const rules = abilityRulesWith(unit, 'escortedBy');
  if (rules.length === 0) return [];
  const out: UnitState[] = [];
  for (const id of state.unitOrder) {
    const f = state.units[id];
    if (f.id === unit.id || f.player !== unit.player || f.location !== 'battlefield') continue;
    if (rules.some((r) => r.escortedBy!(f, unit))) out.push(f);
  }
  return out;
}

/** How far a unit's Pile-in and Consolidation moves reach, and whether base contact with the closest enemy unit is enough. */
export interface PileInMove { distance: number; closestUnitContact: boolean }

/**
 * The unit's Pile-in and Consolidation moves: 3" toward the closest enemy model, or what its own abilities
 * and the effects on it make them (Rule.pileInMove).
 */
export function pileInMove(state: GameState, unit: UnitState): PileInMove {
  const out: PileInMove = { distance: 3, closestUnitContact: false };
  const add = (m: PileInMove | null) => {
    if (!m) return;
    out.distance = Math.max(out.distance, m.distance);
    out.closestUnitContact ||= m.closestUnitContact;
  };
  for (const r of abilityRulesWith(unit, 'pileInMove')) add(r.pileInMove!({ state, unit }, { role: 'self', player: unit.player, effect: null, unit }));
  for (const e of effectsWith(state, unit.id, 'pileInMove')) add(registry.get(e.kind)!.pileInMove!({ state, unit }, { role: 'self', player: unit.player, effect: e, unit }));
  return out;
}

/**
 * The unit's Consolidation move: its Pile-in's (pileInMove), reaching further where a rule in force on it
 * says so (Rule.consolidationDistance: asked of its effects too, and it may roll, so only as it consolidates).
 */
export function consolidationMove(g: Game, unit: UnitState): PileInMove {
  const move = pileInMove(g.state, unit);
  forEachActiveRule(g.state, unit, 'self', (r, src) => {
    const d = r.consolidationDistance?.(g, unit, src) ?? null;
    if (d !== null && d > move.distance) move.distance = d;
  });
  return move;
}

/** The army and detachment rules of `player` that have this hook. */
export function playerRulesWith<K extends keyof Rule>(state: GameState, player: PlayerIndex, hook: K): readonly Rule[] {
  // kept per list of rule names, as abilityRulesWith's: asked at every move (Rule.moveUnderway)
  const entry = resolvedList(state.players[player].rules);
  return (entry.byHook[hook] ??= entry.rules.filter((r) => r[hook] !== undefined));
}

/** The unit's abilities and the effects on it that act once it has resolved its attacks (Rule.afterAttacks). */
export function afterAttacks(g: Game, unit: UnitState, hitTargets: readonly string[], melee: boolean): void {
  for (const r of abilityRulesWith(unit, 'afterAttacks')) r.afterAttacks!(g, unit, hitTargets, melee, null);
  // collected first (an effect may add or remove effects); no array is made in the usual case of none
  let mine: Effect[] | null = null;
  for (const e of g.state.effects) if (e.unit === unit.id && registry.get(e.kind)?.afterAttacks) (mine ??= []).push(e);
  if (mine) for (const e of mine) registry.get(e.kind)!.afterAttacks!(g, unit, hitTargets, melee, e);
}

/** The profile has the weapon ability, on its own or granted by an active rule. */
export function weaponHas(state: GameState, unit: UnitState, profile: WeaponProfile, ability: string): boolean {
  if (profileHas(profile, ability)) return true;
  let yes = false;
  forEachActiveRule(state, unit, 'self', (r, src) => { if (!yes && r.weaponAbility?.(ability, { state, unit, profile }, src)) yes = true; });
  return yes;
}
