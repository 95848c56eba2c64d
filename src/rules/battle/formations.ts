/**
 * Declare Battle Formations made by the player's agent (a scenario player with `"formations": "agent"`):
 * which Leader joins which Bodyguard unit, which units start embarked within which TRANSPORTs, and which
 * units start in Reserves. A scenario that names transports keeps them (applied to whichever unit the
 * named unit ends up part of); with none named (an army given with --armies) the agent fills each
 * TRANSPORT, one unit at a time, among the units that fit (capacity and keywords, Attached units whole).
 *
 * Limits (10th-edition core rules and the Strike Force mission rules): a Bodyguard unit takes one Leader
 * (two for a BODYGUARD unit of 20 models);
 * only a unit whose every model has Deep Strike can be set up in Deep Strike Reserves; FORTIFICATIONs
 * cannot go into Strategic Reserves; Strategic Reserves hold at most 25% of the points limit and all
 * Reserves together at most half of it (units embarked within a transport counting with it).
 */
import type { Game } from '../../core/game.ts';
import type { PlayerIndex, UnitState } from '../../core/state.ts';
import type { ResolvedPlayer } from '../../data/scenario-types.ts';
import { fitsIn, passengers } from './transports.ts';
import { mayJoinAsLeader } from '../../data/bodyguard.ts';
import { mayLead } from '../../data/leader-stand-ins.ts';
import { abilityRulesWith, allows, everyModelHas } from '../../core/rules-registry.ts';

export interface LeaderOption { leader: string; bodyguard: string | null }
export type ReserveChoice = 'none' | 'deep-strike' | 'strategic';
export interface ReserveOption { unit: string; reserves: ReserveChoice }
/** a unit to start embarked within the TRANSPORT, or null: no more */
export interface StartEmbarkedOption { transport: string; unit: string | null }

function ownUnits(g: Game, player: PlayerIndex): UnitState[] {
  const s = g.state;
  return s.unitOrder.map((id) => s.units[id]).filter((u) => u.player === player);
}

/**
 * Units this Leader can join now: of its datasheet's list (or standing in for one of them: CORSAIRS,
 * ../../data/leader-stand-ins.ts), not Leaders themselves, not led yet (or led by
 * one Leader of another datasheet when their BODYGUARD rule or the Leaders' texts allow two: ../../data/bodyguard.ts).
 */
export function bodyguardCandidates(g: Game, leader: UnitState): UnitState[] {
  const s = g.state;
  const lds = s.datasheets[leader.datasheet];
  return ownUnits(g, leader.player).filter((b) => b.id !== leader.id && b.location === 'unplaced' && mayLead(lds, s.datasheets[b.datasheet]) &&
    !b.components[0].abilities.includes('Leader') &&
    mayJoinAsLeader(s.datasheets[b.datasheet], b.components[0].startingStrength, b.components.slice(1).map((c) => s.datasheets[c.datasheet]), lds));
}

/** Points of a unit as it would go into Reserves: its Leader(s) and the units embarked within it. */
export function reservePoints(g: Game, u: UnitState): number {
  const s = g.state;
  let pts = 0;
  for (const c of u.components) pts += s.units[c.unit]?.points ?? 0;
  for (const p of passengers(g, u)) for (const c of p.components) pts += s.units[c.unit]?.points ?? 0;
  return pts;
}

/**
 * The player's abilities that act in the Declare Battle Formations step once Leaders and transports are
 * declared (Rule.declareBattleFormations: Student of Kauyon gives units Deep Strike). `deepStrike`: the units a
 * scenario puts in Deep Strike Reserves, when the scenario declares the formations.
 */
export function battleFormationsAbilities(g: Game, player: PlayerIndex, deepStrike?: readonly string[]): void {
  for (const u of ownUnits(g, player)) {
    if (u.location === 'attached' || u.location === 'destroyed') continue;
    for (const r of abilityRulesWith(u, 'declareBattleFormations')) r.declareBattleFormations!(g, g.state.units[u.id], deepStrike);
  }
}

export function declareFormationsByAgent(g: Game, player: PlayerIndex, p: ResolvedPlayer, pointsLimit: number, unitId: (armyUnit: string) => string): void {
  // Leaders, in the army's order
  for (const leader of ownUnits(g, player)) {
    if (!leader.abilities.includes('Leader') || leader.location !== 'unplaced') continue;
    const candidates = bodyguardCandidates(g, leader);
    if (candidates.length === 0) continue;
    const options: LeaderOption[] = [{ leader: leader.id, bodyguard: null }, ...candidates.map((b) => ({ leader: leader.id, bodyguard: b.id }))];
    const { option } = g.decide({ kind: 'attach-leader', player, prompt: `Declare Battle Formations: attach ${leader.name} to a Bodyguard unit?`, options, context: { unit: leader.id } });
    if (option.bodyguard) g.emit({ type: 'unit-attached', leader: leader.id, bodyguard: option.bodyguard });
  }
  if (Object.keys(p.transports).length === 0) declareTransportsByAgent(g, player);
  // the scenario's transports, for the unit each named unit is now part of
  for (const [unit, transport] of Object.entries(p.transports)) {
    let u = g.state.units[unitId(unit)];
    if (u.location === 'attached' && u.attachedTo) u = g.state.units[u.attachedTo];
    const t = g.state.units[unitId(transport)];
    if (u.location !== 'unplaced') continue;
    if (!fitsIn(g, u, t)) {
      g.emit({ type: 'note', text: `${u.name} does not fit within ${t.name} as attached; it starts on the battlefield` });
      continue;
    }
    g.emit({ type: 'unit-location', unit: u.id, location: 'embarked', embarkedIn: t.id });
  }
  battleFormationsAbilities(g, player);
  // Reserves, within the points caps
  let strategic = 0, total = 0;
  for (const u of ownUnits(g, player)) {
    if (u.location !== 'unplaced') continue;
    const pts = reservePoints(g, u);
    const options: ReserveOption[] = [{ unit: u.id, reserves: 'none' }];
    if (total + pts <= pointsLimit * 0.5) {
      // every part of an Attached unit (each component keeps its datasheet's abilities) must have it, or a
      // rule gives it to the whole unit (Student of Kauyon)
      const everyDeepStrike = everyModelHas(u, 'Deep Strike') || allows(g.state, u, 'deep-strike');
      if (everyDeepStrike) options.push({ unit: u.id, reserves: 'deep-strike' });
      // a rule may let the unit wait in Reserves as if in Strategic Reserves outside their quarter (Ride the Wind)
      const uncapped = allows(g.state, u, 'uncapped-strategic-reserves');
      if ((uncapped || strategic + pts <= pointsLimit * 0.25) && !u.keywords.includes('FORTIFICATION')) options.push({ unit: u.id, reserves: 'strategic' });
    }
    if (options.length === 1) continue;
    const { option } = g.decide({ kind: 'reserves', player, prompt: `Declare Battle Formations: set ${u.name} up in Reserves?`, options, context: { unit: u.id } });
    if (option.reserves === 'none') continue;
    total += pts;
    if (option.reserves === 'strategic' && !allows(g.state, u, 'uncapped-strategic-reserves')) strategic += pts;
    g.emit({ type: 'unit-location', unit: u.id, location: option.reserves === 'deep-strike' ? 'reserves' : 'strategic-reserves', embarkedIn: null });
  }
}

/** Each TRANSPORT, in the army's order, offered the units that fit in it until the agent says no more. */
function declareTransportsByAgent(g: Game, player: PlayerIndex): void {
  for (const t of ownUnits(g, player)) {
    if (t.location !== 'unplaced' || !g.state.datasheets[t.datasheet].transport) continue;
    for (;;) {
      const fit = ownUnits(g, player).filter((u) => u.location === 'unplaced' && !g.state.datasheets[u.datasheet].transport && fitsIn(g, u, t));
      if (fit.length === 0) break;
      const options: StartEmbarkedOption[] = [{ transport: t.id, unit: null }, ...fit.map((u) => ({ transport: t.id, unit: u.id }))];
      const { option } = g.decide({ kind: 'start-embarked', player, prompt: `Declare Battle Formations: a unit to start embarked within ${t.name}?`, options, context: { unit: t.id } });
      if (!option.unit) break;
      g.emit({ type: 'unit-location', unit: option.unit, location: 'embarked', embarkedIn: t.id });
    }
  }
}
