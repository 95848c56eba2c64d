import type { DiceExpr } from '../data/datasheet.ts';

/** Parse a datasheet dice expression: "3", "D3", "D6+1", "2D6", "D6 + 2". Returns null when malformed. */
export function parseDiceExpr(text: string | number): DiceExpr | null {
  if (typeof text === 'number') return Number.isInteger(text) && text >= 0 ? { n: 0, sides: 0, plus: text } : null;
  const s = text.replace(/\s+/g, '').toUpperCase();
  const fixed = /^(\d+)$/.exec(s);
  if (fixed) return { n: 0, sides: 0, plus: Number(fixed[1]) };
  const m = /^(\d*)D(3|6)(?:\+(\d+))?$/.exec(s);
  if (!m) return null;
  return { n: m[1] === '' ? 1 : Number(m[1]), sides: Number(m[2]), plus: m[3] ? Number(m[3]) : 0 };
}

export function diceExprToString(d: DiceExpr): string {
  if (d.n === 0) return String(d.plus);
  return `${d.n === 1 ? '' : d.n}D${d.sides}${d.plus ? `+${d.plus}` : ''}`;
}

/** Exact probability mass function of a dice expression: pmf[v] = P(value = v). */
export function diceExprPmf(d: DiceExpr): number[] {
  let pmf = [1];
  for (let i = 0; i < d.n; i++) {
    const next = new Array(pmf.length + d.sides).fill(0);
    for (let v = 0; v < pmf.length; v++) {
      if (pmf[v] === 0) continue;
      for (let f = 1; f <= d.sides; f++) next[v + f] += pmf[v] / d.sides;
    }
    pmf = next;
  }
  const out = new Array(pmf.length + d.plus).fill(0);
  for (let v = 0; v < pmf.length; v++) out[v + d.plus] = pmf[v];
  return out;
}

export function diceExprMean(d: DiceExpr): number {
  return d.n * (d.sides + 1) / 2 + d.plus;
}
