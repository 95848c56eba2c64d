/**
 * A minimal game with one attacking and one defending unit on the battlefield, built through the same
 * events as a real game. The damage calculator's simulation and the rules tests run the engine's own
 * attack pipeline in it.
 */
import type { CoreAbility, Datasheet, ModelProfile, Weapon } from '../data/datasheet.ts';
import { Game, type GameOptions } from '../core/game.ts';
import { createStream, subSeed, type Stream } from '../core/rng.ts';
import { cloneState } from '../core/clone.ts';
import { emptyGameState, type GameState, type PlayerIndex } from '../core/state.ts';
import { createUnitState } from './muster.ts';

export interface SandboxUnitSpec {
  name: string;
  models: number;
  profile?: Partial<ModelProfile>;
  weapons?: Weapon[];
  keywords?: string[];
  coreAbilities?: CoreAbility[];
  abilities?: string[];
}

export function sandboxDatasheet(id: string, spec: SandboxUnitSpec): Datasheet {
  const profile: ModelProfile = {
    name: spec.name, move: 6, toughness: 4, save: 4, invulnerable: null, wounds: 1, leadership: 7, oc: 1,
    base: { shape: 'round', diameterMm: 32 }, ...spec.profile,
  };
  const weapons = spec.weapons ?? [];
  return {
    id, name: spec.name, faction: 'SANDBOX', role: 'Other', models: [profile],
    composition: [{ profile: profile.name, min: 1, max: spec.models }], sizes: [{ models: spec.models, points: 0 }],
    weapons, defaultLoadout: { [profile.name]: weapons.map((w) => w.name) }, wargearOptions: [],
    keywords: (spec.keywords ?? []).map((k) => k.toUpperCase()), factionKeywords: [], coreAbilities: spec.coreAbilities ?? [],
    abilities: spec.abilities ?? [], leads: [], transport: null, damaged: null,
  };
}

/** Build the initial state: attacker unit "A" (player 1) and defender unit "D" (player 2), both on the battlefield. */
export function sandboxState(attacker: SandboxUnitSpec, defender: SandboxUnitSpec, seed = 'sandbox'): GameState {
  const dsA = sandboxDatasheet('sandbox-attacker', attacker);
  const dsD = sandboxDatasheet('sandbox-defender', defender);
  const stream = createStream(subSeed(seed, 'dice'));
  const g = new Game(emptyGameState(), {}, stream);
  g.emit({
    type: 'game-started', seed, rng: stream.state(),
    players: [0, 1].map((i) => ({ name: `Player ${i + 1}`, faction: 'SANDBOX', detachment: null, agent: 'none', rules: [] })),
    board: { width: 60, height: 44, terrain: [], deploymentZones: [] }, objectives: [],
    mission: { name: 'sandbox', mode: 'strike-force', rounds: 5, primary: 'none', params: {} },
    datasheets: { [dsA.id]: dsA, [dsD.id]: dsD },
  });
  const units: [string, Datasheet, SandboxUnitSpec, PlayerIndex][] = [['A', dsA, attacker, 0], ['D', dsD, defender, 1]];
  for (const [id, ds, spec, player] of units) {
    const unit = createUnitState({ id, player, datasheet: ds, models: [{ profile: 0, count: spec.models }] });
    g.emit({ type: 'unit-created', unit });
    g.emit({ type: 'unit-location', unit: id, location: 'battlefield', embarkedIn: null });
  }
  g.emit({ type: 'round-started', round: 1 });
  g.emit({ type: 'turn-started', round: 1, player: 0 });
  g.emit({ type: 'phase-started', round: 1, player: 0, phase: 'shooting' });
  return g.state;
}

/** A Game over a copy of a sandbox state, drawing dice from `stream` (shared across trials). */
export function sandboxGame(template: GameState, stream: Stream, opts: GameOptions = {}): Game {
  return new Game(cloneState(template), opts, stream);
}
