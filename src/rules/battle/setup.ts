/**
 * Before the first battle round: muster the armies, Declare Battle Formations (Leaders attached to
 * Bodyguard units, units embarked within Transports, units in Reserves), deploy alternately starting
 * with the Defender, and determine who takes the first turn.
 */
import type { Agent } from '../../core/agent.ts';
import { Game, type GameOptions } from '../../core/game.ts';
import { createStream, subSeed } from '../../core/rng.ts';
import { emptyGameState, opponent, type PlayerIndex } from '../../core/state.ts';
import type { Datasheet } from '../../data/datasheet.ts';
import type { ResolvedScenario } from '../../data/scenario-types.ts';
import { projectRelative } from '../../data/project-path.ts';
import { createUnitState, musterGrants } from '../muster.ts';
import { DataError } from '../../data/errors.ts';
import { auraRules, playerRules } from '../factions.ts';
import { withEnhancedWeapons } from '../enhanced-weapons.ts';
import { DeploymentRoomError, deploymentAnchors, placeForDeployment } from './placement.ts';
import { unitsToSetUp } from './units.ts';
import { redeployUnits } from './redeploy.ts';
import { beforeScoutMoves, canInfiltrate, deployArmiesStart, infiltrationAnchors, placeInfiltrator, scoutMoves } from './pre-battle.ts';
import { unplayedAbilities } from '../../factions/coverage.ts';
import { battleFormationsAbilities, declareFormationsByAgent } from './formations.ts';
import { abilityRulesWith, forbids } from '../../core/rules-registry.ts';

export interface SetupOptions extends GameOptions {
  seed: string;
  agents: [Agent, Agent];
}

/** Game unit id of an army unit: "p1-u3" for unit u3 of player 1. */
export function gameUnitId(player: PlayerIndex, armyUnitId: string): string {
  return `p${player + 1}-${armyUnitId}`;
}

/** Create the game and play everything before the first battle round. */
export function createGame(scenario: ResolvedScenario, opts: SetupOptions): Game {
  const stream = createStream(subSeed(opts.seed, 'dice'));
  const g = new Game(emptyGameState(), opts, stream);
  // the game plays the Enhancements' weapons; the log keeps the scenario as given (a fork re-creates them)
  const sc: ResolvedScenario = { ...scenario, players: scenario.players.map(withEnhancedWeapons) as ResolvedScenario['players'] };
  const datasheets: Record<string, Datasheet> = {};
  for (const p of sc.players) for (const [id, ds] of Object.entries(p.datasheets)) datasheets[id] = ds;
  g.emit({
    type: 'game-started', seed: opts.seed, rng: stream.state(),
    players: sc.players.map((p) => ({
      name: p.name, faction: p.faction, detachment: p.detachment, agent: p.agent, rules: [...playerRules(p.faction, p.detachment), ...auraRules(p.army.units.map((u) => p.datasheets[u.datasheetId]))],
      ...(p.withoutStratagems?.length ? { withoutStratagems: p.withoutStratagems.slice() } : {}),
    })),
    board: sc.board, objectives: sc.objectives.map((o) => ({ id: o.id, pos: o.pos, controller: null })), mission: sc.mission, datasheets,
    // the file relative to the project root: an absolute path would differ between checkouts
    scenario: { ...scenario, file: projectRelative(scenario.file), players: scenario.players.map((p) => ({ ...p, datasheets: {} })) },
  });
  muster(g, sc);
  noteUnplayedAbilities(g);
  declareBattleFormations(g, sc);
  deployArmies(g, sc);
  redeployUnits(g, sc.players[0].role === 'defender' ? 0 : 1, [sc.players[0].zone, sc.players[1].zone]);
  determineFirstTurn(g);
  redeployUnits(g, g.state.firstPlayer, [sc.players[0].zone, sc.players[1].zone], true);
  beforeScoutMoves(g);
  scoutMoves(g);
  return g;
}

function muster(g: Game, sc: ResolvedScenario): void {
  sc.players.forEach((p, i) => {
    const player = i as PlayerIndex;
    const rules = playerRules(p.faction, p.detachment);
    for (const au of p.army.units) {
      const ds = p.datasheets[au.datasheetId];
      if (!ds) throw new Error(`${sc.file}: player ${i + 1} unit ${au.id}: datasheet ${au.datasheetId} was not resolved`);
      const grants = musterGrants(rules, ds);
      const unit = createUnitState({
        id: gameUnitId(player, au.id), player, datasheet: ds,
        models: au.models.map((m) => ({ profile: m.profile, count: m.count, weapons: m.weapons, wargear: m.wargear })),
        points: au.points, warlord: au.warlord ?? false, enhancement: au.enhancement ?? null,
        extraAbilities: au.enhancement ? [au.enhancement, ...grants.abilities] : grants.abilities,
        extraKeywords: grants.keywords,
      });
      g.emit({ type: 'unit-created', unit });
    }
  });
}

function declareBattleFormations(g: Game, sc: ResolvedScenario): void {
  // abilities played at the start of the step, before any Leader joins a unit (SUPPORT ARTILLERY)
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    if (u.location !== 'unplaced') continue;
    for (const r of abilityRulesWith(u, 'battleFormationsStart')) r.battleFormationsStart!(g, g.state.units[id]);
  }
  sc.players.forEach((p, i) => {
    const player = i as PlayerIndex;
    if (p.formations === 'agent') {
      declareFormationsByAgent(g, player, p, sc.pointsLimit ?? 2000, (id) => gameUnitId(player, id));
      return;
    }
    for (const [leader, bodyguard] of Object.entries(p.leaders)) {
      g.emit({ type: 'unit-attached', leader: gameUnitId(player, leader), bodyguard: gameUnitId(player, bodyguard) });
    }
    for (const [unit, transport] of Object.entries(p.transports)) {
      let u = g.state.units[gameUnitId(player, unit)];
      if (u.location === 'attached' && u.attachedTo) u = g.state.units[u.attachedTo];
      // the scenario was checked when loaded; a rule of the battle may still forbid it (a joined Support Weapon)
      if (forbids(g.state, u, 'embark')) {
        g.emit({ type: 'note', text: `${u.name} cannot embark within a transport; it starts on the battlefield` });
        continue;
      }
      g.emit({ type: 'unit-location', unit: gameUnitId(player, unit), location: 'embarked', embarkedIn: gameUnitId(player, transport) });
    }
    // the player's abilities that act in this step, with the scenario's choices (Student of Kauyon: the units
    // it names in Deep Strike Reserves)
    battleFormationsAbilities(g, player, Object.entries(p.reserves).filter(([, kind]) => kind === 'deep-strike').map(([unit]) => gameUnitId(player, unit)));
    for (const [unit, kind] of Object.entries(p.reserves)) {
      g.emit({ type: 'unit-location', unit: gameUnitId(player, unit), location: kind === 'deep-strike' ? 'reserves' : 'strategic-reserves', embarkedIn: null });
    }
  });
}

/**
 * One note per datasheet ability the engine does not play (or plays only in part) among the units in
 * the game, so that a reader of the log knows (the CLI prints them once).
 */
function noteUnplayedAbilities(g: Game): void {
  for (const x of unplayedAbilities(g.state)) {
    g.emit({ type: 'note', text: `not played: ${x.unit}: ${x.ability}${x.missing ? ` (${x.missing})` : ''}` });
  }
}

/**
 * Players alternate setting up units one at a time, starting with the Defender (the second player of the
 * scenario unless it says otherwise); when one has finished, the other sets up the rest.
 */
function deployArmies(g: Game, sc: ResolvedScenario): void {
  deployArmiesStart(g);
  let player: PlayerIndex = sc.players[0].role === 'defender' ? 0 : 1;
  const anchors: { x: number; y: number }[][] = [0, 1].map((i) => deploymentAnchors(g.state, sc.players[i].zone));
  // a scenario whose zones cannot take its armies is bad input, reported as such (not a failed game)
  anchors.forEach((a, i) => {
    if (!a.length) throw new DataError(`${sc.file}: mission.deployment: player ${i + 1}'s deployment zone has no room to set up any unit`, sc.file);
  });
  for (;;) {
    let units = unitsToSetUp(g.state, player);
    if (units.length === 0) {
      player = opponent(player);
      units = unitsToSetUp(g.state, player);
      if (units.length === 0) break;
    }
    const options: { unit: string; x: number; y: number; infiltrate?: true }[] = [];
    for (const u of units) {
      for (const a of anchors[player]) options.push({ unit: u.id, x: a.x, y: a.y });
      // Infiltrators may be set up outside the zone, more than 9" from the enemy zone and models
      if (canInfiltrate(g.state, u)) for (const a of infiltrationAnchors(g.state, player)) options.push({ unit: u.id, x: a.x, y: a.y, infiltrate: true });
    }
    const { option } = g.decide({ kind: 'deploy', player, prompt: 'set up a unit in your deployment zone', options });
    const unit = g.state.units[option.unit];
    if (!option.infiltrate || !placeInfiltrator(g, unit, { x: option.x, y: option.y })) {
      try {
        const zone = sc.players[player].zone;
        placeForDeployment(g, unit, { x: option.x, y: option.y }, zone);
        // its abilities that act as it is set up (Rallying Cry sets up more units now)
        for (const r of abilityRulesWith(unit, 'unitDeployed')) r.unitDeployed!(g, g.state.units[unit.id], zone);
      } catch (err) {
        // name the fields that may be at fault: a unit too large for any room in its zone is the zone's or its
        // terrain's fault as much as the army's
        const fields = err instanceof DeploymentRoomError
          ? err.atFault.map((f) => (f === 'army' ? `players[${player}].army` : f === 'deployment' ? 'mission.deployment' : 'terrain'))
          : [`players[${player}].army`];
        throw new DataError(`${sc.file}: ${fields.join(', ')}: ${(err as Error).message}`, sc.file);
      }
    }
    player = opponent(player);
  }
}

/** Roll off (re-rolling ties); the winner chooses to take the first or the second turn. */
function determineFirstTurn(g: Game): void {
  let a = 0, b = 0;
  while (a === b) {
    [a, b] = g.dice.d6(2, 'first-turn', 0, null, 'roll-off');
  }
  const winner: PlayerIndex = a > b ? 0 : 1;
  const { option } = g.decide({ kind: 'first-turn', player: winner, prompt: 'you won the roll-off: take the first turn?', options: ['first', 'second'] });
  g.emit({ type: 'first-turn', player: option === 'first' ? winner : opponent(winner) });
}
