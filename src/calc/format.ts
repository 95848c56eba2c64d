/** Human-readable output of the calculator: expected values per stage and a histogram. */
import { diceExprToString } from '../core/dice-expr.ts';
import type { WeaponAbility } from '../data/datasheet.ts';
import type { ExactResult } from './exact.ts';
import type { CalcInput } from './input.ts';
import type { SimulatedResult } from './simulate.ts';

const f = (x: number) => x.toFixed(3).padStart(9);

/** An ability as a datasheet writes it ("ANTI-INFANTRY 4+", "SUSTAINED HITS D3"), which the input reads back. */
export function abilityText(a: WeaponAbility): string {
  if (a.name === 'ANTI') return `ANTI-${a.keyword} ${a.threshold}+`;
  if (a.dice) return `${a.name} ${diceExprToString(a.dice)}`;
  return a.x !== undefined ? `${a.name} ${a.x}` : a.name;
}

export function formatCalc(input: CalcInput, exact: ExactResult, sim: SimulatedResult): string {
  const w = input.attacker.weapon;
  const d = input.defender;
  const lines: string[] = [];
  // characteristics named as on a datasheet ("AD6" and "DD6" read as one word)
  const abil = w.abilities.map(abilityText);
  lines.push(`${input.attacker.models} x ${w.name}: ${w.range === 'Melee' ? 'Melee' : `${w.range}"`} A:${diceExprToString(w.attacks)} ${w.range === 'Melee' ? 'WS' : 'BS'}:${w.skill ? `${w.skill}+` : 'N/A'} S:${w.strength} AP:${w.ap} D:${diceExprToString(w.damage)}${abil.length ? ` [${abil.join(', ')}]` : ''}`);
  lines.push(`  vs ${d.models} models: T${d.toughness} Sv${d.save}+${d.invulnerable ? ` ${d.invulnerable}++` : ''} W${d.wounds}${d.feelNoPain ? ` FNP ${d.feelNoPain}+` : ''}${d.cover ? ', in cover' : ''}${d.stealth ? ', Stealth' : ''}${d.keywords.length ? ` [${d.keywords.join(', ')}]` : ''}`);
  lines.push('');
  lines.push(`  stage               exact  simulated (${sim.trials} trials)`);
  const rows: [string, number, number][] = [
    ['attacks', exact.mean.attacks, sim.meanAttacks],
    ['hits', exact.mean.hits, sim.meanHits],
    ['wounds', exact.mean.wounds, sim.meanWounds],
    ['unsaved wounds', exact.mean.unsaved, sim.meanUnsaved],
    ['wounds lost', exact.mean.woundsLost, sim.meanDamage],
    ['models destroyed', exact.mean.modelsDestroyed, sim.meanModelsDestroyed],
  ];
  for (const [name, e, s] of rows) lines.push(`  ${name.padEnd(17)}${f(e)}  ${sim.trials ? f(s) : '        -'}`);
  lines.push('');
  lines.push('  models destroyed   exact   simulated');
  const width = 40;
  for (let k = 0; k < exact.modelsDestroyed.length; k++) {
    const p = exact.modelsDestroyed[k];
    const q = sim.modelsDestroyed[k] ?? 0;
    if (p < 0.0005 && q === 0) continue;
    lines.push(`  ${String(k).padStart(16)}  ${(p * 100).toFixed(1).padStart(5)}%  ${sim.trials ? (q * 100).toFixed(1).padStart(5) + '%' : '     -'}  ${'#'.repeat(Math.round(p * width))}`);
  }
  return lines.join('\n') + '\n';
}
