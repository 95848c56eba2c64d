/**
 * Attack pipeline throughput in batch mode: attacks resolved per second (number of attacks, Hit roll,
 * Wound roll, allocation, saving throw, damage), every die still recorded as an event.
 */
import '../src/rules/index.ts';
import { Game } from '../src/core/game.ts';
import { cloneState } from '../src/core/clone.ts';
import { parseDiceExpr } from '../src/core/dice-expr.ts';
import { createStream } from '../src/core/rng.ts';
import type { Weapon } from '../src/data/datasheet.ts';
import { newTally, resolveAttacks } from '../src/rules/attack-sequence.ts';
import { sandboxState } from '../src/rules/sandbox.ts';
import { parseWeaponAbilities as parseAbilityText } from '../src/data/abilities-parse.ts';

export interface BenchRow { name: string; value: number; unit: string }

function weapon(name: string, a: string, skill: number, s: number, ap: number, d: string, abilities: string[]): Weapon {
  return { name, profiles: [{ name, range: 24, attacks: parseDiceExpr(a)!, skill, strength: s, ap, damage: parseDiceExpr(d)!, abilities: parseAbilityText(abilities.join(', ')).abilities }] };
}

function measure(label: string, w: Weapon, attackers: number, defender: { models: number; toughness: number; save: number; wounds: number }, seconds = 1): BenchRow {
  const template = sandboxState({ name: 'Shooters', models: attackers, weapons: [w] }, { name: 'Targets', models: defender.models, profile: defender });
  const stream = createStream('bench');
  let attacks = 0;
  let events = 0;
  let g: Game | null = null;
  const start = performance.now();
  let now = start;
  while (now - start < seconds * 1000) {
    for (let k = 0; k < 200; k++) {
      // keep firing at the same unit; a fresh copy of it once it is destroyed
      if (g === null || g.state.units.D.location === 'destroyed') g = new Game(cloneState(template), {}, stream);
      const A = g.state.units.A;
      const before = g.state.eventCount;
      const t = resolveAttacks(g, A, [{ weapon: w, profile: w.profiles[0], models: A.models, target: 'D', halfRange: true, targetVisible: true, targetInCover: false, targetModels: defender.models }], false, newTally());
      attacks += t.attacks;
      events += g.state.eventCount - before;
    }
    now = performance.now();
  }
  const secs = (now - start) / 1000;
  return { name: `attack pipeline: ${label} (${(events / attacks).toFixed(2)} events/attack)`, value: attacks / secs, unit: 'attacks/s' };
}

export function run(): BenchRow[] {
  return [
    measure('20 bolt rifles vs 20 T4 Sv3 W1', weapon('Bolt rifle', '2', 3, 4, -1, '1', []), 20, { models: 20, toughness: 4, save: 3, wounds: 1 }),
    measure('10 pulse rifles RF1 vs 10 T3 Sv4', weapon('Pulse rifle', '1', 4, 5, 0, '1', ['RAPID FIRE 1']), 10, { models: 10, toughness: 3, save: 4, wounds: 1 }),
    measure('5 D6-dmg melta vs 3 T10 W12', weapon('Melta', '1', 3, 9, -4, 'D6', ['MELTA 2']), 5, { models: 3, toughness: 10, save: 3, wounds: 12 }),
    measure('30 shootas (3 A, sustained) vs 30 T3 W1', weapon('Shoota', '3', 5, 4, 0, '1', ['SUSTAINED HITS 1']), 30, { models: 30, toughness: 3, save: 5, wounds: 1 }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of run()) console.log(`${r.name.padEnd(70)} ${Math.round(r.value).toLocaleString('en-US').padStart(14)} ${r.unit}`);
}
