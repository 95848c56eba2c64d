/**
 * Command phase: both players gain 1 CP; Battle-shocked units of the active player recover; the
 * Battle-shock step tests every unit Below Half-strength (2D6 against its best Leadership); then the
 * mission scores.
 */
import type { Game } from '../../core/game.ts';
import { expireEffects } from '../../core/effects.ts';
import { opponent, type GameState, type PlayerIndex, type UnitState } from '../../core/state.ts';
import { abilityRulesWith, anyUnitHas, getRule } from '../../core/rules-registry.ts';
import { afterRoll, rollDice } from '../roll-window.ts';
import { openWindow } from '../windows.ts';
import { primaryMission } from './missions.ts';
import { endPhase, startPhase } from './phase.ts';
import { belowHalfStrength, bestLeadership, onBattlefield, rollModifier, unitsOnBattlefield } from './units.ts';

/** Effect kind: the unit passes its next Battle-shock test this phase (INSANE BRAVERY; spent by that test). */
export const PASSES_BATTLE_SHOCK = 'Passes Battle-shock test';

export function commandPhase(g: Game, player: PlayerIndex): void {
  const s = g.state;
  // "until the start of your next Command phase": Battle-shock and such effects end now
  recoverFromBattleShock(g, player);
  expireEffects(g, { at: 'start-of-command', round: s.round, player });
  // core rules: both players gain 1CP at the start of the phase, ahead of everything else in it, so the CP is
  // there for the start-of-phase hooks and stratagems (SOUL BRIDGE, RAIDERS' SPOILS from 0CP)
  startPhase(g, player, 'command', () => {
    g.emit({ type: 'cp', player, delta: 1, reason: 'Command phase' });
    g.emit({ type: 'cp', player: opponent(player), delta: 1, reason: 'Command phase' });
  });
  battleShockStep(g, player);
  if (!s.result) openWindow(g, { name: 'command/after-battle-shock-step', unit: null, targets: [] });
  primaryMission(s.mission.primary).endOfCommandPhase?.(g, player);
  endPhase(g, player, 'command');
}

/**
 * Battle-shock lasts until the start of the player's next Command phase wherever the unit is then: on the
 * battlefield, embarked within a transport or in Strategic Reserves, all recover.
 */
function recoverFromBattleShock(g: Game, player: PlayerIndex): void {
  for (const id of g.state.unitOrder) {
    const u = g.state.units[id];
    if (u.player === player && u.battleShocked) g.emit({ type: 'battle-shock', unit: u.id, value: false });
  }
}

export function battleShockStep(g: Game, player: PlayerIndex): void {
  // tests an effect forces (THE GRISLY FEAST) come first; a unit tested that way takes no other test this step
  const tested = forcedBattleShockTests(g, player);
  for (const u of unitsOnBattlefield(g.state, player)) {
    if (g.state.result) return;
    if (tested.has(u.id) || !belowHalfStrength(g.state, u)) continue;
    battleShockTest(g, player, u.id, 0, true);
  }
}

/**
 * The tests effects make `player`'s units take in the Battle-shock step (Rule.battleShockStepTests), each unit
 * once (the first effect's modifier), all worked out as the step starts; an effect that answered is spent.
 */
export function battleShockStepTests(s: GameState, player: PlayerIndex): { tests: Map<string, number>; spent: number[] } {
  const tests = new Map<string, number>();
  const spent: number[] = [];
  for (const e of s.effects) {
    const found = getRule(e.kind)?.battleShockStepTests?.(s, player, e);
    if (!found) continue;
    spent.push(e.id);
    for (const t of found) if (!tests.has(t.unit)) tests.set(t.unit, t.modifier);
  }
  return { tests, spent };
}

/** Take the tests effects force on `player`'s units (battleShockStepTests); the units tested. */
function forcedBattleShockTests(g: Game, player: PlayerIndex): Set<string> {
  const { tests, spent } = battleShockStepTests(g.state, player);
  for (const id of spent) g.removeEffect(id);
  const tested = new Set<string>();
  for (const [unit, modifier] of tests) {
    if (g.state.result || !onBattlefield(g.state.units[unit])) continue;
    tested.add(unit);
    battleShockTest(g, player, unit, modifier, true);
  }
  return tested;
}

/**
 * What the abilities of the enemy units on the battlefield add to the unit's Battle-shock and Leadership tests
 * (Rule.enemyBattleShockModifier: Shadow of Death, Mindshock Pod). Each ability counts once, at its most severe,
 * however many enemy units have it (they are Auras, as a friendly Aura counts once: two Hemlocks give -1).
 * Tests are few: every enemy unit is asked.
 */
export function enemyBattleShockModifier(state: GameState, tested: UnitState): number {
  if (!anyUnitHas(state, 'enemyBattleShockModifier')) return 0;
  const byRule = new Map<string, number>();
  for (const id of state.unitOrder) {
    const u = state.units[id];
    if (u.player === tested.player || u.location !== 'battlefield') continue;
    for (const r of abilityRulesWith(u, 'enemyBattleShockModifier')) {
      const x = r.enemyBattleShockModifier!({ state, unit: u, tested }, { role: 'self', player: u.player, effect: null, unit: u });
      byRule.set(r.name, Math.min(byRule.get(r.name) ?? 0, x));
    }
  }
  let total = 0;
  for (const x of byRule.values()) total += x;
  return total;
}

/**
 * The modifiers the rules give a unit's Battle-shock and Leadership tests alike: its own rules' (Supreme
 * Loyalty) and its enemies' (Shadow of Death, Mindshock Pod). Every such rule in the data names both tests.
 */
export function leadershipTestModifier(state: GameState, u: UnitState): number {
  return rollModifier(state, u, 'battle-shock') + enemyBattleShockModifier(state, u);
}

/**
 * INSANE BRAVERY passes "that" test only: the effect decides one test and goes, so that a second test forced
 * on the unit later in the phase (PRESENTIMENT OF DREAD) is rolled.
 */
function spendPass(g: Game, unitId: string): boolean {
  const pass = g.state.effects.find((e) => e.kind === PASSES_BATTLE_SHOCK && e.unit === unitId);
  if (!pass) return false;
  g.removeEffect(pass.id);
  return true;
}

/**
 * Take a Battle-shock test: 2D6, passed on a total at least the unit's best Leadership; the unit's rules'
 * Battle-shock modifiers and `modifier` are added to the total (a rule that makes the test "subtracting 1
 * from the result": Face of Death). `inStep`: a test of the Battle-shock step itself (its windows say so in
 * `data.battleShockStep`: INSANE BRAVERY is used only there, not for a test another rule forces later in the
 * Command phase, PRESENTIMENT OF DREAD's, or in another phase).
 */
export function battleShockTest(g: Game, player: PlayerIndex, unitId: string, modifier = 0, inStep = false): boolean {
  const data = { battleShockStep: inStep };
  openWindow(g, { name: 'command/before-battle-shock-test', unit: unitId, targets: [], data });
  const u = g.state.units[unitId];
  if (spendPass(g, unitId)) return true;
  const ld = bestLeadership(g.state, u);
  let dice = rollDice(g, 2, 6, 'battle-shock', player, unitId, u.name);
  // modifiers to the test: the unit's rules' (Supreme Loyalty), its enemies' (Shadow of Death) and the
  // caller's (Face of Death); none of the bundled armies' rules has one
  const mod = leadershipTestModifier(g.state, u) + modifier;
  dice = afterRoll(g, { purpose: 'battle-shock', player, unit: unitId, sides: 6, values: dice, test: null, rerolled: [], target: ld - mod }) as number[];
  let passed = dice[0] + dice[1] + mod >= ld;
  if (!passed) {
    openWindow(g, { name: 'command/after-battle-shock-failed', unit: unitId, targets: [], data });
    passed = spendPass(g, unitId);
  }
  if (!passed) g.emit({ type: 'battle-shock', unit: unitId, value: true });
  return passed;
}
