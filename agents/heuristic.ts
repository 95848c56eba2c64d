/**
 * The heuristic agent: plays the mission (takes and holds objectives, keeps out of reach when that
 * pays, uses cover), shoots and fights the target with the best expected value from the exact
 * calculator with every rule of the moment, charges when the odds and the prize are good, and spends
 * CP when the expected gain beats the CP's worth. Its weights are named parameters (WEIGHTS), so they
 * can be tuned; `params` on the command line or scenario override them.
 *
 * It spends no time budget and draws randomness only from its own stream (to break exact ties), so
 * games stay reproducible.
 */
import type { Agent, AgentFactory, DecisionRequest, GameView } from '../src/core/agent.ts';
import type { GameState, PlayerIndex, UnitState } from '../src/core/state.ts';
import {
  enemyUnits, maxRange, ownUnits, p2d6AtLeast, pointsPerWound, threatTo, unitAttackValue, unitValue,
  unitWounds, weaponEstimate, weaponUses,
} from '../src/ai/evaluate.ts';
import { unitCentre, unitDistance } from '../src/rules/battle/world.ts';
import { onBattlefield, unitMove, characteristic, hasKeyword } from '../src/rules/battle/units.ts';
import { OBJECTIVE_MARKER_RADIUS } from '../src/geometry/types.ts';

/** Every tunable number of the agent, in points-equivalent (the army points a thing is worth). */
export const WEIGHTS = {
  /** worth of holding an objective marker for a scoring turn, in points */
  objective: 60,
  /** worth of one Objective Control point on a contested marker */
  ocOnObjective: 8,
  /** fraction of the expected damage the enemy can deal to a unit that a move weighs against (0 = ignore) */
  dangerAversion: 0.35,
  /** bonus for ending in or behind terrain (cover), per point of unit value */
  cover: 0.04,
  /** a charge is declared when P(success) x value exceeds this share of the unit's value */
  chargeThreshold: 0.15,
  /** worth of 1 CP in points */
  cp: 25,
  /** how far forward an Advance is worth over a Normal move (points per inch nearer the goal) */
  advancePerInch: 1.2,
  /** keep this many CP for reactions when using proactive stratagems */
  cpReserve: 1,
};

type Weights = typeof WEIGHTS;

function dist(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Scores of the last argmax (read right after it, to explain the decision). */
let lastScores: number[] = [];

function argmax<T>(items: T[], score: (t: T) => number): number {
  let best = -Infinity;
  let idx = 0;
  lastScores = new Array(items.length);
  items.forEach((t, i) => {
    const s = score(t);
    lastScores[i] = s;
    if (s > best + 1e-9) { best = s; idx = i; }
  });
  return idx;
}

/** The top candidates and their scores, for the log ("what each agent decided and why"). */
function why(req: DecisionRequest): { candidates: { option: unknown; score: number }[] } | undefined {
  if (lastScores.length !== req.options.length || lastScores.length < 2) return undefined;
  const order = lastScores.map((s, i) => [s, i] as const).filter(([s]) => Number.isFinite(s)).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 3);
  return { candidates: order.map(([s, i]) => ({ option: req.options[i], score: Math.round(s * 10) / 10 })) };
}

interface Ctx {
  state: GameState;
  me: PlayerIndex;
  w: Weights;
  /** expected wounds the current activation already aimed at each target (to avoid overkill) */
  assigned: Map<string, number>;
}

/** Value of a unit standing at a point: objectives it would hold, minus the danger there, plus cover. */
function positionValue(c: Ctx, u: UnitState, at: { x: number; y: number }): number {
  const s = c.state;
  let v = 0;
  let oc = 0;
  for (const m of u.models) if (m.alive) oc += characteristic(s, u, m, 'OC');
  for (const o of s.objectives) {
    const d = dist(o.pos, at);
    if (d > 3 + OBJECTIVE_MARKER_RADIUS + 1.5) continue;
    // how much OC is already there, each side
    let mine = 0, theirs = 0;
    for (const id of s.unitOrder) {
      const x = s.units[id];
      if (!onBattlefield(x) || x.id === u.id) continue;
      const cx = unitCentre(x);
      if (dist(cx, o.pos) > 4) continue;
      let xo = 0;
      for (const m of x.models) if (m.alive) xo += characteristic(s, x, m, 'OC');
      if (x.player === c.me) mine += xo; else theirs += xo;
    }
    if (mine > theirs) v += c.w.objective * 0.15; // already ours: little to add
    else if (mine + oc > theirs) v += c.w.objective;
    else v += c.w.ocOnObjective * oc * 0.5;
  }
  v -= c.w.dangerAversion * threatTo(s, u, at) * (unitValue(s, u) > 0 ? 1 : 0);
  return v;
}

/** The point a move toward `to` with `reach` inches would end at (straight line). */
function endPoint(from: { x: number; y: number }, to: { x: number; y: number }, reach: number): { x: number; y: number } {
  const d = dist(from, to);
  if (d <= reach) return { ...to };
  return { x: from.x + ((to.x - from.x) * reach) / d, y: from.y + ((to.y - from.y) * reach) / d };
}

/** Best expected value of the unit's ranged attacks from where it stands (or at a point, approximately). */
function bestShot(c: Ctx, u: UnitState): { value: number; target: UnitState | null } {
  let best = 0;
  let target: UnitState | null = null;
  for (const e of enemyUnits(c.state, c.me)) {
    const v = unitAttackValue(c.state, u, e, false);
    if (v > best) { best = v; target = e; }
  }
  return { value: best, target };
}

function decideMove(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const from = unitCentre(u);
  const mv = unitMove(s, u);
  const range = maxRange(s, u);
  const options = req.options as { mode: string; to?: { x: number; y: number }; toward?: string }[];
  const here = positionValue(c, u, from);
  return argmax(options, (o) => {
    if (o.mode === 'stay-embarked') return 0;
    if (o.mode === 'disembark') {
      // out of the transport when there is something to take or shoot
      return bestShot(c, u).value > 0 || s.round >= 2 ? 10 : -5;
    }
    if (o.mode === 'stationary') return here + (range > 0 ? 0.1 * unitAttackValue(s, u, nearestEnemy(c, u) ?? u, false) : 0);
    const reach = o.mode === 'advance' ? mv + 3.5 : mv;
    const end = endPoint(from, o.to!, reach);
    let v = positionValue(c, u, end);
    // keep enemies within range to shoot them next (not after an Advance unless the weapons allow)
    const enemy = o.toward?.startsWith('enemy ') ? s.units[o.toward.slice(6)] : null;
    if (enemy) {
      const d = Math.max(0, dist(end, unitCentre(enemy)) - 1.5);
      const melee = unitAttackValue(s, u, enemy, true);
      const ranged = unitAttackValue(s, u, enemy, false);
      if (d <= 12 && melee > ranged) v += 0.5 * melee * p2d6AtLeast(Math.ceil(d));
      if (d <= range && o.mode !== 'advance') v += 0.3 * ranged;
    }
    if (o.mode === 'advance') v -= 5; // the unit gives up shooting (and charging) this turn
    if (o.mode === 'fall-back') v -= 0.2 * unitValue(s, u) * (unitAttackValue(s, u, nearestEnemy(c, u) ?? u, true) > 0 ? 1 : 0.2);
    // prefer progress toward the chosen goal
    v += c.w.advancePerInch * (dist(from, o.to!) - dist(end, o.to!)) * 0.1;
    return v;
  });
}

function nearestEnemy(c: Ctx, u: UnitState): UnitState | null {
  let best: UnitState | null = null;
  let bd = Infinity;
  for (const e of enemyUnits(c.state, c.me)) {
    const d = dist(unitCentre(u), unitCentre(e));
    if (d < bd) { bd = d; best = e; }
  }
  return best;
}

function decideShootTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { weapon: string; profile: number; target: string }[];
  const uses = new Map(uses0(c, u).map((w) => [w.weapon.name, w]));
  return argmax(options, (o) => {
    const t = s.units[o.target];
    const base = uses.get(o.weapon);
    if (!base) return 0;
    const use = { ...base, profile: base.weapon.profiles[o.profile] };
    const e = weaponEstimate(s, u, use, t, { inRangeOnly: true });
    // damage beyond what the target has left (after other weapons of this unit) is worth nothing
    const left = unitWounds(s, t).now - (c.assigned.get(t.id) ?? 0);
    const useful = Math.max(0, Math.min(e.woundsLost, left));
    return useful * pointsPerWound(s, t) + (left > 0 && e.woundsLost >= left ? 0.25 * unitValue(s, t) : 0);
  });
}

function uses0(c: Ctx, u: UnitState) {
  return weaponUses(c.state, u, false);
}

function decideGuidance(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { none?: true; observer?: string; spotted?: string }[];
  const best = bestShot(c, u);
  return argmax(options, (o) => {
    if (o.none) return best.value * 0.85; // guided attacks at other targets lose 1 BS: compare fairly
    const t = s.units[o.spotted!];
    // BS +1 on the Spotted unit is roughly a third more damage for a 4+ shooter
    return unitAttackValue(s, u, t, false) * 1.33 + (s.units[o.observer!].keywords.includes('MARKERLIGHT') ? 2 : 0);
  });
}

function decideChargeUnit(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  let bestIdx = 0;
  let bestScore = 0;
  options.forEach((o, i) => {
    if ('done' in o) return;
    const u = s.units[o.unit];
    for (const e of enemyUnits(s, c.me)) {
      const d = unitDistance(s, u, e);
      if (d > 12) continue;
      const p = p2d6AtLeast(Math.ceil(Math.max(0, d - 1)));
      const gain = p * unitAttackValue(s, u, e, true) - (1 - p) * 0.1 * unitValue(s, u);
      const score = gain - c.w.chargeThreshold * unitValue(s, u) * (1 - p);
      if (score > bestScore) { bestScore = score; bestIdx = i; }
    }
  });
  return bestIdx;
}

function decideChargeTargets(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { targets: string[] }[];
  return argmax(options, (o) => {
    const e = s.units[o.targets[0]];
    const p = p2d6AtLeast(Math.ceil(Math.max(0, unitDistance(s, u, e) - 1)));
    return p * unitAttackValue(s, u, e, true);
  });
}

function decideFightTarget(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const u = s.units[String(req.context?.unit)];
  const options = req.options as { profile: number; target: string }[];
  const melee = weaponUses(s, u, true);
  return argmax(options, (o) => {
    const t = s.units[o.target];
    let v = 0;
    for (const use of melee) v += weaponEstimate(s, u, use, t).value;
    return v;
  });
}

/** Which unit acts next: the one with the most to gain now. */
function decideSelect(c: Ctx, req: DecisionRequest, kind: 'move' | 'shoot' | 'fight'): number {
  const s = c.state;
  const options = req.options as ({ done: true } | { unit: string })[];
  if (options.length === 1) return 0;
  return argmax(options, (o) => {
    if ('done' in o) return kind === 'fight' ? -1 : -0.5;
    const u = s.units[o.unit];
    if (kind === 'shoot') return bestShot(c, u).value + 0.01;
    if (kind === 'fight') return Math.max(0, ...enemyUnits(s, c.me).map((e) => unitAttackValue(s, u, e, true))) + 0.01;
    // move the units furthest from any objective first, transports before their passengers
    const far = Math.min(...s.objectives.map((ob) => dist(ob.pos, unitCentre(u))));
    return far + (hasKeyword(u, 'TRANSPORT') ? 5 : 0) + (u.location === 'embarked' ? -3 : 0);
  });
}

/** Stratagems: a rough expected gain for each, used when it beats the CP's worth. */
function decideStratagem(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const cp = s.players[c.me].cp;
  const options = req.options as ({ pass: true } | { stratagem: string; unit?: string; cp?: number; reroll?: number; value?: number | null })[];
  const win = req.context?.window as { name: string; unit: string | null; targets: string[] } | undefined;
  const roll = req.context?.roll as { purpose: string; values: number[]; target: number | null } | undefined;
  const attacker = win?.unit ? s.units[win.unit] : null;
  return argmax(options, (o) => {
    if ('pass' in o) return 0;
    const cost = (o.cp ?? 1) * c.w.cp;
    const u = o.unit ? s.units[o.unit] : null;
    const value = u ? unitValue(s, u) : 0;
    let gain = 0;
    switch (o.stratagem) {
      case 'COMMAND RE-ROLL': {
        if (!roll) return -1;
        if (roll.purpose === 'charge' && roll.target !== null) {
          const p = p2d6AtLeast(roll.target);
          gain = p > 0.25 ? p * 60 : 0;
        } else if (roll.purpose === 'save' && roll.values.length <= 2) gain = 20;
        else if ((roll.purpose === 'hit' || roll.purpose === 'wound') && roll.values.length <= 2) gain = 15;
        else gain = 0;
        if (cp <= c.w.cpReserve) gain *= 0.5;
        break;
      }
      case 'GO TO GROUND': case 'SMOKESCREEN': case 'LIGHTNING-FAST REACTIONS': case 'COUNTERFIRE DEFENCE SYSTEMS': {
        if (!u || !attacker) return -1;
        const incoming = unitAttackValue(s, attacker, u, s.phase === 'fight');
        // roughly a sixth to a third of the damage saved
        gain = incoming * (o.stratagem === 'COUNTERFIRE DEFENCE SYSTEMS' ? 0.35 : 0.3);
        break;
      }
      case 'INSANE BRAVERY': gain = value * 0.3; break;
      case 'FIRE OVERWATCH': gain = attacker && u ? unitAttackValue(s, u, attacker, false) / 6 : 0; break;
      case 'HEROIC INTERVENTION': case 'COUNTER-OFFENSIVE': gain = attacker && u ? 0.5 * unitAttackValue(s, u, attacker, true) : 0; break;
      case 'RAPID INGRESS': gain = 30; break;
      case 'EPIC CHALLENGE': gain = 20; break;
      case 'TANK SHOCK': gain = 30; break;
      case 'COORDINATE TO ENGAGE': case 'COMBAT DEBARKATION': case 'SOULSIGHT': case 'BLADESTORM': case 'A TEMPTING TRAP': case 'POINT-BLANK AMBUSH':
        gain = u ? 0.25 * bestShot(c, u).value : 0; break;
      case 'FOCUSED FIRE': gain = 35; break;
      case 'PINPOINT COUNTER-OFFENSIVE': gain = 30; break;
      case 'PULSE ONSLAUGHT': gain = 25; break;
      case 'AGGRESSIVE MOBILITY': case 'MATCHLESS AGILITY': gain = 10; break;
      case 'ANTI-GRAV REPULSION': case 'COMBAT EMBARKATION': gain = value * 0.3; break;
      case 'LAYERED WARDS': gain = value * 0.15; break;
      case 'CLOUDSTRIKE': case 'SWIFT DEPLOYMENT': case 'VECTORED ENGINES': case 'FEIGNED RETREAT': gain = 20; break;
      default: gain = 0;
    }
    return gain - cost;
  });
}

function decideFateDie(c: Ctx, req: DecisionRequest): number {
  const options = req.options as ({ none: true } | { fate: number })[];
  const ctx = req.context as { purpose: string; count: number; pool: number[] };
  const best = Math.max(...options.map((o) => ('fate' in o ? o.fate : 0)));
  const idx = options.findIndex((o) => 'fate' in o && o.fate === best);
  const useful = (ctx.purpose === 'charge' && best >= 5) || (ctx.count <= 2 && best >= 5 && ctx.purpose !== 'battle-shock') || (ctx.purpose === 'battle-shock' && best >= 5);
  return useful ? idx : 0;
}

function decideReinforcement(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as ({ wait: true } | { unit: string; how: string; x: number; y: number })[];
  return argmax(options, (o) => {
    if ('wait' in o) return s.round >= 3 ? -50 : 0;
    const u = s.units[o.unit];
    return positionValue(c, u, { x: o.x, y: o.y }) + 5;
  });
}

function decideDeploy(c: Ctx, req: DecisionRequest): number {
  const s = c.state;
  const options = req.options as { unit: string; x: number; y: number }[];
  // the first unit offered; the anchor nearest the objectives, spread out from units already placed
  const unit = options[0].unit;
  const mine = ownUnits(s, c.me);
  return argmax(options, (o) => {
    if (o.unit !== unit) return -Infinity;
    const near = Math.min(...s.objectives.map((ob) => dist(ob.pos, o)));
    const crowd = mine.filter((x) => dist(unitCentre(x), o) < 5).length;
    return -near - 6 * crowd;
  });
}

export function createHeuristic(params: Partial<Weights> = {}, name = 'heuristic'): Agent {
  const w: Weights = { ...WEIGHTS, ...params };
  let lastUnit = '';
  const assigned = new Map<string, number>();
  return {
    name,
    decide(view: GameView, req: DecisionRequest) {
      const c: Ctx = { state: view.state as GameState, me: view.player, w, assigned };
      lastScores = [];
      const d = decideKind(c, req);
      const explanation = why(req);
      return explanation ? { option: d.option, why: explanation } : d;
    },
  };

  function decideKind(c: Ctx, req: DecisionRequest): { option: number } {
      const unit = String(req.context?.unit ?? '');
      if (unit !== lastUnit) { assigned.clear(); lastUnit = unit; }
      switch (req.kind) {
        case 'first-turn': return { option: 0 };
        case 'deploy': return { option: decideDeploy(c, req) };
        case 'select-unit-to-move': return { option: decideSelect(c, req, 'move') };
        case 'move': return { option: decideMove(c, req) };
        case 'select-unit-to-shoot': return { option: decideSelect(c, req, 'shoot') };
        case 'shoot-target': {
          const i = decideShootTarget(c, req);
          const o = req.options[i] as { weapon: string; target: string };
          const s = c.state;
          const use = weaponUses(s, s.units[unit], false).find((x) => x.weapon.name === o.weapon);
          if (use) assigned.set(o.target, (assigned.get(o.target) ?? 0) + weaponEstimate(s, s.units[unit], use, s.units[o.target], { inRangeOnly: true }).woundsLost);
          return { option: i };
        }
        case 'for-the-greater-good': return { option: decideGuidance(c, req) };
        case 'select-unit-to-charge': return { option: decideChargeUnit(c, req) };
        case 'charge-targets': return { option: decideChargeTargets(c, req) };
        case 'select-unit-to-fight': return { option: decideSelect(c, req, 'fight') };
        case 'fight-target': return { option: decideFightTarget(c, req) };
        case 'stratagem': return { option: decideStratagem(c, req) };
        case 'fate-die': return { option: decideFateDie(c, req) };
        case 'fate-pool': {
          const pool = (req.context?.pool as number[]) ?? [];
          const good = pool.filter((v) => v >= 5).length;
          return { option: good * 2 >= pool.length || pool.length <= 3 ? 0 : 1 };
        }
        case 'reinforcement': case 'rapid-ingress': return { option: decideReinforcement(c, req) };
        case 'embark': return { option: 0 };
        case 'reroll-advance': return { option: Number(req.context?.roll ?? 6) <= 2 ? 1 : 0 };
        case 'martial-warrior': return { option: 2 };
        default: return { option: 0 };
      }
  }
}

const factory: AgentFactory = (ctx) => createHeuristic((ctx.params ?? {}) as Partial<Weights>);
export default factory;
