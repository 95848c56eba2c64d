/**
 * Fate dice and other dice the rules let a player place or spend.
 */
import './registries.ts';
import type { DecisionRequest } from '../../src/core/agent.ts';
import type { UnitState } from '../../src/core/state.ts';
import { p2d6AtLeast, pointsPerWound, unitValue, weaponUses } from '../../src/ai/evaluate.ts';
import { objectiveSnapshot } from '../../src/ai/tactics.ts';
import { bestLeadership, rollModifier } from '../../src/rules/battle/units.ts';
import { PRETERNATURAL_PRECISION_CHOICES } from '../../src/factions/aeldari/aspect-host.ts';
import { type Ctx, argmax } from './context.ts';
import { chargeNeed } from './charges.ts';
import { PRETERNATURAL_TWEAKS, bestChoice, volleyGain } from './stratagem-prices.ts';

export function decideFateDie(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ none: true } | { fate: number })[];
  const ctx = req.context as { purpose: string; unit: string; count: number; sides?: number; pool: number[] };
  const u = s.units[ctx.unit];
  const pool = ctx.pool;
  // later phases need dice too: the fewer left, the dearer each
  const scarcity = pool.length >= 4 ? 1 : pool.length >= 2 ? 1.3 : 1.6;
  return argmax(options, (o) => {
    if ('none' in o) return 0;
    const v = o.fate;
    const cost = c.w.fateDie * scarcity * (v / 6);
    let gain = 0;
    switch (ctx.purpose) {
      case 'charge': {
        const ch = c.mem.charge;
        if (!ch || ch.unit !== u?.id) break;
        const t = s.units[ch.target];
        if (!t) break;
        const need = chargeNeed(c, u, t);
        const pWith = 1 - Math.max(0, Math.min(6, need - v - 1)) / 6;
        gain = (Math.max(0, need - v <= 1 ? 1 : pWith) - p2d6AtLeast(need)) * ch.value;
        break;
      }
      case 'battle-shock': {
        if (!u) break;
        const need = bestLeadership(s, u) - rollModifier(s, u, 'battle-shock');
        const pWith = need - v <= 1 ? 1 : 1 - Math.min(6, need - v - 1) / 6;
        const row = objectiveSnapshot(s).contrib.get(u.id);
        const worth = (row && row.some((x) => x > 0) ? c.w.objective * 0.8 : 0) + 0.1 * unitValue(s, u);
        gain = (pWith - p2d6AtLeast(need)) * worth;
        break;
      }
      case 'hit': case 'wound': {
        // one die of the roll is this value (a 6 is a Critical): worth most on few, big attacks
        if (ctx.count > 3 || v < 5 || !u) break;
        gain = (v === 6 ? 1 : 0.6) * perAttackWorth(c, u) * (ctx.count === 1 ? 1 : 0.7);
        break;
      }
      case 'save': {
        if (ctx.count > 2 || v < 4 || !u) break;
        gain = (v === 6 ? 1 : 0.7) * Math.min(unitValue(s, u), 3 * pointsPerWound(s, u)) * (ctx.count === 1 ? 1 : 0.6);
        break;
      }
      case 'damage': {
        if (ctx.count > 2 || v < 4) break;
        // a D3 Damage roll: the die halved, against the D3's average of 2
        gain = ctx.sides === 3 ? (Math.ceil(v / 2) - 2) * 4 : (v - 3.5) * 4;
        break;
      }
      case 'advance': break;
      default: break;
    }
    return gain - cost;
  });
}

/** Rough worth of one more successful attack of the unit's heaviest weapon. */
function perAttackWorth(c: Ctx, u: UnitState): number {
  let best = 0;
  for (const use of [...weaponUses(c.state, u, false), ...weaponUses(c.state, u, true)]) {
    const d = use.profile.damage;
    const avg = typeof d === 'number' ? d : (d as { n?: number; sides?: number; plus?: number }).sides ? ((d as { n?: number }).n ?? 1) * (((d as { sides: number }).sides + 1) / 2) + ((d as { plus?: number }).plus ?? 0) : 1;
    best = Math.max(best, avg);
  }
  return best * 6;
}

export function decideFatePool(req: DecisionRequest): number {
  const pool = (req.context?.pool as number[]) ?? [];
  const score = (v: number) => (v === 6 ? 3 : v === 5 ? 2 : v === 4 ? 0.5 : 0.1);
  const now = pool.reduce((a, v) => a + score(v), 0);
  const expected = (pool.length - 1) * ((3 + 2 + 0.5 + 0.3) / 6);
  return now >= expected ? 0 : 1;
}

export function decideBranchingFates(req: DecisionRequest): number {
  const options = req.options as ({ none: true } | { die: number })[];
  const purpose = String(req.context?.purpose ?? '');
  let best = 0;
  let lowest = 7;
  options.forEach((o, i) => { if ('die' in o && o.die < lowest) { lowest = o.die; best = i; } });
  if (best === 0) return 0;
  if (purpose === 'damage') return lowest <= 3 ? best : 0;
  return lowest <= 2 ? best : 0;
}

/** PRETERNATURAL PRECISION's ability (or, a token removed, its second one among those left): the one worth most alone. */
export function decidePreternatural(c: Ctx, req: DecisionRequest): number {
  const u = c.state.units[String(req.context?.unit)];
  if (!u) return 0;
  const options = req.options as string[];
  const choices = options.map((o) => PRETERNATURAL_TWEAKS[PRETERNATURAL_PRECISION_CHOICES.indexOf(o as (typeof PRETERNATURAL_PRECISION_CHOICES)[number])]);
  return bestChoice(c, u, choices).index;
}

/** An Aspect Shrine token turns a failed Hit or Wound roll into a 6: the lowest failed die (tokens unspent at the end are lost). */
export function decideShrineTokenDie(req: DecisionRequest): number {
  const needed = Number(req.context?.needed ?? 7);
  let best = 0;
  let lowest = 7;
  (req.options as ({ none: true } | { die: number })[]).forEach((o, i) => { if ('die' in o && o.die < needed && o.die < lowest) { lowest = o.die; best = i; } });
  return best;
}

/**
 * A token removed for a stratagem's extra (a second PRETERNATURAL PRECISION ability, +1 to TO THEIR FINAL
 * BREATH's D6s) rather than kept for a die: a rule of thumb, when the unit has another token left or the
 * battle is near its end (a token unspent then is lost), and for PRETERNATURAL PRECISION only when the second
 * ability adds something.
 */
export function decideRemoveShrineToken(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  if (!u || !(Number(req.context?.left ?? 0) >= 2 || s.round >= s.mission.rounds - 1)) return 0;
  if (req.context?.stratagem === 'PRETERNATURAL PRECISION') {
    const gains = PRETERNATURAL_TWEAKS.map((x) => volleyGain(c, u, x.tweak)).sort((a, b) => b - a);
    return gains[1] > 0 ? 1 : 0;
  }
  return 1;
}
