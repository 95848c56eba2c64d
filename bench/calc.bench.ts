/**
 * Exact attack calculator throughput: exact calculations per second for a few typical profiles.
 * Run directly: npx tsx bench/calc.bench.ts
 */
import { pathToFileURL } from 'node:url';
import { basePlan, type AttackPlan } from '../src/rules/attack-plan.ts';
import { parseDiceExpr } from '../src/core/dice-expr.ts';
import { exactAttack, expectedDamage, type DefenderProfile } from '../src/calc/exact.ts';

function dx(s: string | number) {
  const d = parseDiceExpr(s);
  if (!d) throw new Error(`bad dice expression ${s}`);
  return d;
}

function plan(p: { A: string | number; skill: number; S: number; T: number; ap: number; D: string | number }, extra: Partial<AttackPlan> = {}): AttackPlan {
  return { ...basePlan({ weapon: 'bench', profile: 'bench', melee: false, attacks: dx(p.A), skill: p.skill, strength: p.S, ap: p.ap, damage: dx(p.D), toughness: p.T }), ...extra };
}

const def = (models: number, save: number, wounds: number, invulnerable: number | null = null, feelNoPain: number | null = null): DefenderProfile =>
  ({ models, save, wounds, invulnerable, feelNoPain });

interface Case { name: string; fn: () => unknown }

const cases: Case[] = [
  {
    name: 'exact: 10 models x 2 A, BS3+ S4 AP-1 D1 vs 10 W2 Sv3+',
    fn: () => exactAttack(plan({ A: 2, skill: 3, S: 4, T: 4, ap: -1, D: 1 }), 10, def(10, 3, 2)),
  },
  {
    name: 'exact: 10 models x 2 A, D3 damage vs 10 W2 Sv3+',
    fn: () => exactAttack(plan({ A: 2, skill: 3, S: 5, T: 4, ap: -1, D: 'D3' }), 10, def(10, 3, 2)),
  },
  {
    name: 'exact: 2 melta D6+2 vs T10 W12 Sv3+ 4++',
    fn: () => exactAttack(plan({ A: 1, skill: 3, S: 9, T: 10, ap: -4, D: 'D6' }, { damageBonus: 2 }), 2, def(1, 3, 12, 4)),
  },
  {
    name: 'exact: 5 models x D6 torrent, twin-linked, D1 vs 10 W1 Sv5+',
    fn: () => exactAttack(plan({ A: 'D6', skill: 4, S: 4, T: 3, ap: 0, D: 1 }, { autoHit: true, rerollWounds: 'failed' }), 5, def(10, 5, 1)),
  },
  {
    name: 'exact: 20 models x 2D6 A, sustained 2, D6+1 vs 20 W3 FNP 5+',
    fn: () => exactAttack(plan({ A: '2D6', skill: 3, S: 5, T: 4, ap: -1, D: 'D6+1' }, { sustainedHits: 2 }), 20, def(20, 4, 3, null, 5)),
  },
  {
    name: 'expectedDamage: 10 models x 2 A, D3 damage vs 10 W2 Sv3+',
    fn: () => expectedDamage(plan({ A: 2, skill: 3, S: 5, T: 4, ap: -1, D: 'D3' }), 10, def(10, 3, 2)),
  },
];

function measure(fn: () => unknown, ms: number): number {
  for (let i = 0; i < 50; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
    now = performance.now();
  }
  return n / ((now - start) / 1000);
}

export function run(): { name: string; value: number; unit: string }[] {
  return cases.map((c) => ({ name: c.name, value: Math.round(measure(c.fn, 300)), unit: 'calc/s' }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of run()) console.log(`${r.name.padEnd(66)} ${String(r.value).padStart(10)} ${r.unit}  (${(1e6 / r.value).toFixed(1)} us each)`);
}
