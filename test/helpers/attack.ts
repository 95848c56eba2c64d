import '../../src/rules/index.ts';
import type { Weapon, WeaponProfile } from '../../src/data/datasheet.ts';
import { parseDiceExpr } from '../../src/core/dice-expr.ts';
import type { Game } from '../../src/core/game.ts';
import type { Stream } from '../../src/core/rng.ts';
import type { GameState } from '../../src/core/state.ts';
import { resolveAttacks, type AttackGroup, type AttackTally } from '../../src/rules/attack-sequence.ts';
import { sandboxDatasheet, sandboxGame, sandboxState, type SandboxUnitSpec } from '../../src/rules/sandbox.ts';
import { createUnitState } from '../../src/rules/muster.ts';
import { parseWeaponAbilities as parseAbilityText } from '../../src/data/abilities-parse.ts';

export interface ProfileSpec {
  name?: string;
  range?: number | 'Melee';
  attacks?: string;
  skill?: number;
  strength?: number;
  ap?: number;
  damage?: string;
  abilities?: string[];
}

export function profile(p: ProfileSpec): WeaponProfile {
  return {
    name: p.name ?? 'Test gun', range: p.range ?? 24, attacks: parseDiceExpr(p.attacks ?? '1')!, skill: p.skill ?? 4,
    strength: p.strength ?? 4, ap: p.ap ?? 0, damage: parseDiceExpr(p.damage ?? '1')!, abilities: parseAbilityText((p.abilities ?? []).join(', ')).abilities,
  };
}

export function weapon(p: ProfileSpec): Weapon {
  const prof = profile(p);
  return { name: prof.name, profiles: [prof] };
}

export interface Duel {
  game: Game;
  /** the state before the first event of game.log */
  initial: GameState;
  weapon: Weapon;
  run(opts?: Partial<AttackGroup>): AttackTally;
}

/** One attacking unit with one weapon against one defending unit, on a given dice stream. */
export function duel(attacker: { models: number; weapon: ProfileSpec } & Partial<SandboxUnitSpec>, defender: SandboxUnitSpec, stream: Stream, opts: { log?: boolean } = {}): Duel {
  const w = weapon(attacker.weapon);
  const state = sandboxState({ name: 'Attackers', ...attacker, weapons: [w] }, defender);
  const game = sandboxGame(state, stream, { log: opts.log ?? true });
  return {
    game, weapon: w, initial: structuredClone(state),
    run: (o = {}) => {
      const A = game.state.units.A;
      const melee = w.profiles[0].range === 'Melee';
      return resolveAttacks(game, A, [{
        weapon: w, profile: w.profiles[0], models: A.models, target: 'D', halfRange: false, targetVisible: true,
        targetInCover: false, targetModels: game.state.units.D.models.filter((m) => m.alive).length, ...o,
      }], melee);
    },
  };
}

/**
 * Attach a Leader (a one-model CHARACTER sandbox unit "L") to one of the duel's units: the defender D
 * (default) or the attacker A.
 */
export function attachLeader(d: Duel, spec: Partial<SandboxUnitSpec> = {}, bodyguard: 'A' | 'D' = 'D'): void {
  const ds = sandboxDatasheet('leader', { name: 'Leader', models: 1, keywords: ['CHARACTER'], ...spec });
  d.game.state.datasheets.leader = ds;
  const player = d.game.state.units[bodyguard].player;
  d.game.emit({ type: 'unit-created', unit: createUnitState({ id: 'L', player, datasheet: ds, models: [{ profile: 0, count: 1 }] }) });
  d.game.emit({ type: 'unit-location', unit: 'L', location: 'battlefield', embarkedIn: null });
  d.game.emit({ type: 'unit-attached', leader: 'L', bodyguard });
}

/** The dice events of a game's log with a given purpose, in order. */
export function rolls(game: Game, purpose: string): number[][] {
  return (game.log ?? []).filter((e) => e.type === 'dice' && e.purpose === purpose).map((e) => (e as { values: number[] }).values);
}
