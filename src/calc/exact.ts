/**
 * Exact calculator of the attack sequence: turns an AttackPlan (one weapon profile's attacks against
 * one target unit, every rule folded in) into exact probability distributions of attacks, hits,
 * wounds, unsaved attacks, wounds lost and models destroyed.
 *
 * It is the exact counterpart of the dice pipeline (src/rules/attack-sequence.ts): the per-die logic
 * uses the same helpers of src/rules/attack-plan.ts (rollOutcome, shouldReroll, saveNeeded,
 * adjustDamage...), so both agree on every rule.
 *
 * Method
 *  1. Attacks: pmf of one model's attacks (dice expression, optional re-roll, + attacksBonus).
 *  2. One attack, independently of the others, yields a number of hits, wounds and unsaved attacks
 *     (the marginal pmf of each is small: 0..1+SUSTAINED HITS). One model's totals are compound
 *     distributions: sum over n of P(model's attacks = n) times the n-fold convolution of the
 *     per-attack pmf, built incrementally. The models are iid, so the unit's totals are the
 *     attackingModels-fold convolution of one model's.
 *  3. Every unsaved attack (failed save, or DEVASTATING WOUNDS Critical Wound: mortal wounds equal to
 *     the Damage, excess lost) deals an iid amount of damage after Feel No Pain. With one defender
 *     profile of W wounds per model, the state after any number of unsaved attacks is fully described
 *     by the total wounds lost L (models destroyed = floor(L / W), the current model has
 *     W - L mod W wounds left). An attack of effective damage d moves L to min(L + d, next multiple
 *     of W): excess damage is lost. L = models * W is absorbing. The wounds-lost pmf is the mixture of
 *     the DP over the pmf of the number of unsaved attacks. Since the damages are iid, the order
 *     (mortal wounds resolved after the normal attacks) does not change the distribution.
 *
 * Policies shared with the pipeline
 *  - rerollAttacks: a model re-rolls its Attacks dice (all of them) when the rolled value of the
 *    expression (fixed part included) is below the expression's mean (D3: a 1; D6: 1-3; 2D6: 2-6;
 *    D6+1: 2-4). A fixed expression is never re-rolled. attacksBonus is added after.
 *  - Saving throw re-roll policy 'non-critical' behaves as 'failed' (a save has no Critical).
 *  - Feel No Pain: the best (lowest) of the defender's and the plan's; one D6 per wound point,
 *    the point is ignored on a roll >= FNP.
 *
 * Exactness: no truncation beyond dropping negligible probabilities: tails below 1e-18 of the
 * intermediate n-fold convolutions and of the attack / unsaved counts, and the damage DP stops once
 * the mass not yet in the "all models destroyed" state is below 1e-15. The pmfs sum to 1 within ~1e-13.
 */
import type { AttackPlan, RerollPolicy } from '../rules/attack-plan.ts';
import { adjustDamage, capModifier, rollOutcome, saveNeeded, saveRerollPolicy, shouldReroll, woundTarget } from '../rules/attack-plan.ts';
import { diceExprMean, diceExprPmf } from '../core/dice-expr.ts';

export interface DefenderProfile {
  models: number;
  save: number;
  invulnerable: number | null;
  wounds: number;
  feelNoPain: number | null;
}

export interface ExactResult {
  /** pmf of the total number of attacks */
  attacks: number[];
  /** pmf of total hits (sustained extra hits included; auto-hits for TORRENT) */
  hits: number[];
  /** pmf of successful wounds (lethal-hit auto-wounds and Critical Wounds included) */
  wounds: number[];
  /** pmf of attacks that get through: failed saves plus DEVASTATING WOUNDS Critical Wounds */
  unsaved: number[];
  /** pmf of wounds lost by the target unit (after Feel No Pain, excess damage lost), 0..models*wounds */
  woundsLost: number[];
  /** pmf of models destroyed, 0..defender.models */
  modelsDestroyed: number[];
  mean: { attacks: number; hits: number; wounds: number; unsaved: number; woundsLost: number; modelsDestroyed: number };
}

const SIXTH = 1 / 6;
/** below this, the mass not yet absorbed by the damage DP is dropped */
const ABSORB_EPS = 1e-15;
/** probabilities below this at the edges of intermediate distributions are dropped (the total dropped stays far below 1e-12) */
const TINY = 1e-18;

// ------------------------------------------------------------------------------------------------
// Per-die building blocks (exported for tests and other calculators)
// ------------------------------------------------------------------------------------------------

/** pmf of the number of attacks of one model: dice expression, optional re-roll below the mean, + bonus. */
export function attacksPerModelPmf(plan: Pick<AttackPlan, 'attacks' | 'attacksBonus' | 'rerollAttacks'>): number[] {
  const base = diceExprPmf(plan.attacks);
  let pmf = base;
  if (plan.rerollAttacks && plan.attacks.n > 0) {
    const mean = diceExprMean(plan.attacks);
    let pLow = 0;
    for (let v = 0; v < base.length; v++) if (v < mean) pLow += base[v];
    pmf = base.map((p, v) => (v < mean ? 0 : p) + pLow * p);
  }
  const bonus = plan.attacksBonus;
  if (bonus === 0) return pmf.slice();
  const out = new Array<number>(Math.max(0, pmf.length + bonus)).fill(0);
  for (let v = 0; v < pmf.length; v++) {
    const t = v + bonus < 0 ? 0 : v + bonus; // a negative bonus never takes the count below 0
    out[t] += pmf[v];
  }
  return trimTrailingZeros(out);
}

/** pmf of the total number of attacks of `attackingModels` models. */
export function attacksPmf(plan: Pick<AttackPlan, 'attacks' | 'attacksBonus' | 'rerollAttacks'>, attackingModels: number): number[] {
  return nfold(attacksPerModelPmf(plan), attackingModels);
}

/**
 * Probabilities [fail, success, critical] of one Hit or Wound roll die, re-roll included
 * (a re-rolled die's outcome is final).
 */
export function rollProbabilities(needed: number, modifier: number, criticalOn: number, policy: RerollPolicy): [number, number, number] {
  const base: [number, number, number] = [0, 0, 0];
  for (let f = 1; f <= 6; f++) base[rollOutcome(f, needed, modifier, criticalOn)] += SIXTH;
  const out: [number, number, number] = [0, 0, 0];
  for (let f = 1; f <= 6; f++) {
    const o = rollOutcome(f, needed, modifier, criticalOn);
    if (shouldReroll(policy, f, o)) {
      out[0] += SIXTH * base[0];
      out[1] += SIXTH * base[1];
      out[2] += SIXTH * base[2];
    } else out[o] += SIXTH;
  }
  return out;
}

/** Probability that a saving throw passes: unmodified 1 fails, else die >= need; re-roll included. */
export function savePassProbability(need: number, policy: RerollPolicy): number {
  const pol: RerollPolicy = saveRerollPolicy(policy);
  let base = 0;
  for (let f = 1; f <= 6; f++) if (f !== 1 && f >= need) base += SIXTH;
  let p = 0;
  for (let f = 1; f <= 6; f++) {
    const pass = f !== 1 && f >= need;
    if (shouldReroll(pol, f, pass ? 1 : 0)) p += SIXTH * base;
    else if (pass) p += SIXTH;
  }
  return p;
}

/** The Feel No Pain value used: the best (lowest) of the two, null when none. */
export function bestFeelNoPain(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/** pmf of the wounds one unsaved attack makes the current model lose, before the excess is cut: Damage roll, adjustDamage, then FNP per point. */
export function effectiveDamagePmf(
  plan: Pick<AttackPlan, 'damage' | 'damageBonus' | 'damageReduction' | 'halveDamage'> & { rerollDamage?: boolean }, feelNoPain: number | null,
): number[] {
  let rolled = diceExprPmf(plan.damage);
  if (plan.rerollDamage && plan.damage.n > 0) {
    // the Damage dice are re-rolled when they came out below their average (as the pipeline does)
    const base = rolled;
    const mean = diceExprMean(plan.damage);
    let pLow = 0;
    for (let v = 0; v < base.length; v++) if (v < mean) pLow += base[v];
    rolled = base.map((p, v) => (v < mean ? 0 : p) + pLow * p);
  }
  let maxD = 0;
  const adj = new Map<number, number>();
  for (let v = 0; v < rolled.length; v++) {
    if (rolled[v] === 0) continue;
    const d = adjustDamage(v, plan);
    adj.set(d, (adj.get(d) ?? 0) + rolled[v]);
    if (d > maxD) maxD = d;
  }
  let ignore = 0;
  if (feelNoPain !== null) for (let f = 1; f <= 6; f++) if (f >= feelNoPain) ignore += SIXTH;
  const keep = 1 - ignore;
  const out = new Array<number>(maxD + 1).fill(0);
  for (const [d, p] of adj) {
    // Binomial(d, keep), built by repeated Bernoulli convolution
    let bin = [1];
    for (let i = 0; i < d; i++) bin = convolve(bin, [ignore, keep]);
    for (let k = 0; k < bin.length; k++) out[k] += p * bin[k];
  }
  return trimTrailingZeros(out);
}

/** Per-attack marginal pmfs of hits, wounds and unsaved attacks (each of length 2 + sustainedHits). */
export function perAttackPmfs(plan: AttackPlan, defender: Pick<DefenderProfile, 'save' | 'invulnerable'>): { hits: number[]; wounds: number[]; unsaved: number[] } {
  const S = plan.sustainedHits > 0 ? plan.sustainedHits : 0;
  const K = 1 + S;
  const hit = plan.autoHit ? [0, 1, 0] : rollProbabilities(plan.skill, capModifier(plan.hitModifier), plan.criticalHitOn, plan.rerollHits);
  const wnd = rollProbabilities(woundTarget(plan.strength, plan.toughness), capModifier(plan.woundModifier), plan.criticalWoundOn, plan.rerollWounds);
  const pf = 1 - savePassProbability(saveNeeded(plan, defender.save, defender.invulnerable), plan.rerollSaves);
  // a Critical Wound may get a better AP (criticalWoundAp) or skip the save (DEVASTATING WOUNDS)
  const pfCrit = plan.criticalWoundAp > 0
    ? 1 - savePassProbability(saveNeeded({ ...plan, ap: plan.ap - plan.criticalWoundAp }, defender.save, defender.invulnerable), plan.rerollSaves)
    : pf;
  const pw = wnd[1] + wnd[2];
  const pu = wnd[1] * pf + wnd[2] * (plan.devastatingWounds ? 1 : pfCrit);

  const hits = new Array<number>(K + 1).fill(0);
  hits[0] += hit[0];
  hits[1] += hit[1];
  hits[1 + S] += hit[2];

  const binW = binomial(S, pw);
  const binU = binomial(S, pu);
  // the Critical Hit itself: auto-wound (normal save) with LETHAL HITS, else a Wound roll
  const critW = convolve(plan.lethalHits ? [0, 1] : [1 - pw, pw], binW);
  const critU = convolve(plan.lethalHits ? [1 - pf, pf] : [1 - pu, pu], binU);
  const wounds = new Array<number>(K + 1).fill(0);
  const unsaved = new Array<number>(K + 1).fill(0);
  wounds[0] += hit[0] + hit[1] * (1 - pw);
  wounds[1] += hit[1] * pw;
  unsaved[0] += hit[0] + hit[1] * (1 - pu);
  unsaved[1] += hit[1] * pu;
  for (let k = 0; k <= K; k++) {
    wounds[k] += hit[2] * critW[k];
    unsaved[k] += hit[2] * critU[k];
  }
  return { hits, wounds, unsaved };
}

// ------------------------------------------------------------------------------------------------
// Main entry points
// ------------------------------------------------------------------------------------------------

export function exactAttack(plan: AttackPlan, attackingModels: number, defender: DefenderProfile): ExactResult {
  const perModel = attacksPerModelPmf(plan);
  const attacks = nfold(perModel, attackingModels);
  const per = perAttackPmfs(plan, defender);
  const hits = nfold(compound(perModel, per.hits), attackingModels);
  const wounds = nfold(compound(perModel, per.wounds), attackingModels);
  const unsaved = nfold(compound(perModel, per.unsaved), attackingModels);
  const dmg = effectiveDamagePmf(plan, bestFeelNoPain(defender.feelNoPain, plan.feelNoPain));
  const woundsLost = damageDp(unsaved, dmg, defender.models, defender.wounds);

  const M = defender.models > 0 ? defender.models : 0;
  const W = defender.wounds;
  const md = new Array<number>(M + 1).fill(0);
  if (M === 0) md[0] = 1;
  else for (let k = 0, L = 0; k <= M; k++) for (let r = 0; r < W && L < woundsLost.length; r++, L++) md[k] += woundsLost[L];
  return {
    attacks, hits, wounds, unsaved, woundsLost, modelsDestroyed: md,
    mean: {
      attacks: pmfMean(attacks), hits: pmfMean(hits), wounds: pmfMean(wounds), unsaved: pmfMean(unsaved),
      woundsLost: pmfMean(woundsLost), modelsDestroyed: pmfMean(md),
    },
  };
}

/** Mean wounds lost and mean models destroyed only (skips the hits and wounds distributions). */
export function expectedDamage(plan: AttackPlan, attackingModels: number, defender: DefenderProfile): { meanWoundsLost: number; meanModelsDestroyed: number } {
  const perModel = attacksPerModelPmf(plan);
  const per = perAttackPmfs(plan, defender);
  const unsaved = nfold(compound(perModel, per.unsaved), attackingModels);
  const dmg = effectiveDamagePmf(plan, bestFeelNoPain(defender.feelNoPain, plan.feelNoPain));
  const wl = damageDp(unsaved, dmg, defender.models, defender.wounds);
  const W = defender.wounds;
  let mwl = 0;
  let mmd = 0;
  for (let L = 1; L < wl.length; L++) {
    mwl += L * wl[L];
    mmd += Math.floor(L / W) * wl[L];
  }
  return { meanWoundsLost: mwl, meanModelsDestroyed: mmd };
}

// ------------------------------------------------------------------------------------------------
// Internals
// ------------------------------------------------------------------------------------------------

function pmfMean(p: ArrayLike<number>): number {
  let m = 0;
  for (let i = 1; i < p.length; i++) m += i * p[i];
  return m;
}

function convolve(a: number[], b: number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j] += x * b[j];
  }
  return out;
}

function binomial(n: number, p: number): number[] {
  let out = [1];
  for (let i = 0; i < n; i++) out = convolve(out, [1 - p, p]);
  return out;
}

function trimTrailingZeros(a: number[]): number[] {
  let n = a.length;
  while (n > 1 && a[n - 1] === 0) n--;
  return n === a.length ? a : a.slice(0, n);
}

// Scratch buffers for the intermediate distributions (the calculator is synchronous and not
// re-entrant, so two module-level buffers, grown on demand, avoid allocating in every call).
let scratchA = new Float64Array(256);
let scratchB = new Float64Array(256);
function ensureScratch(size: number): void {
  if (scratchA.length < size) {
    let n = scratchA.length;
    while (n < size) n *= 2;
    scratchA = new Float64Array(n);
    scratchB = new Float64Array(n);
  }
}

function zeros(n: number): number[] {
  const a = new Array<number>(n);
  for (let i = 0; i < n; i++) a[i] = 0;
  return a;
}

/** first and last index of the non-zero entries of a pmf */
function support(p: ArrayLike<number>): [number, number] {
  const K = p.length - 1;
  let lo = 0;
  while (lo < K && p[lo] === 0) lo++;
  let hi = K;
  while (hi > lo && p[hi] === 0) hi--;
  return [lo, hi];
}

/**
 * n-fold convolution of a pmf (the sum of n iid copies), length n * (pmf.length - 1) + 1.
 * Negligible tails (< TINY) of the partial sums are dropped.
 */
function nfold(pmf: number[], n: number): number[] {
  const K = pmf.length - 1;
  const size = n * K + 1;
  const out = zeros(size);
  if (n === 0) { out[0] = 1; return out; }
  if (n === 1) { for (let i = 0; i <= K; i++) out[i] = pmf[i]; return out; }
  ensureScratch(size);
  const acc = new Accumulator(pmf);
  for (let m = 0; m < n; m++) acc.addOne();
  for (let i = acc.lo; i <= acc.hi; i++) out[i] = acc.cur[i];
  return out;
}

/**
 * A partial sum of iid copies of a pmf, kept in the two scratch buffers: `addOne()` convolves one more
 * copy in; negligible tails (< TINY) are dropped, which keeps the work proportional to the real spread.
 * Callers ensure the scratch buffers are large enough first.
 */
class Accumulator {
  cur = scratchA;
  private nxt = scratchB;
  lo = 0;
  hi = 0;
  private readonly pLo: number;
  private readonly pHi: number;
  constructor(private readonly per: number[]) {
    [this.pLo, this.pHi] = support(per);
    this.cur[0] = 1;
  }
  addOne(): void {
    const { per, pLo, pHi, cur, nxt } = this;
    const nLo = this.lo + pLo;
    const nHi = this.hi + pHi;
    for (let i = nLo; i <= nHi; i++) nxt[i] = 0;
    for (let i = this.lo; i <= this.hi; i++) {
      const c = cur[i];
      if (c === 0) continue;
      for (let k = pLo; k <= pHi; k++) nxt[i + k] += c * per[k];
    }
    this.cur = nxt;
    this.nxt = cur;
    this.lo = nLo;
    this.hi = nHi;
    while (this.hi > this.lo && nxt[this.hi] < TINY) this.hi--;
    while (this.lo < this.hi && nxt[this.lo] < TINY) this.lo++;
  }
}

/**
 * Compound distribution: sum over n of count[n] times the n-fold convolution of `per`.
 * The result has length (count.length - 1) * (per.length - 1) + 1 (the natural support bound).
 */
function compound(count: number[], per: number[]): number[] {
  const maxN = count.length - 1;
  const K = per.length - 1;
  const size = maxN * K + 1;
  const out = zeros(size);
  let lastN = maxN;
  while (lastN > 0 && count[lastN] < TINY) lastN--;
  ensureScratch(size);
  const acc = new Accumulator(per);
  for (let n = 0; ; n++) {
    const pn = count[n];
    if (pn !== 0) for (let i = acc.lo; i <= acc.hi; i++) out[i] += pn * acc.cur[i];
    if (n >= lastN) break;
    acc.addOne();
  }
  return out;
}

/**
 * Distribution of total wounds lost L (0..models*wounds) given the pmf of the number of unsaved
 * attacks and the pmf of each one's damage after FNP (excess lost at each model).
 */
function damageDp(unsaved: number[], dmg: number[], models: number, wounds: number): number[] {
  const M = models > 0 ? models : 0;
  const W = wounds;
  const S = M * W; // absorbing state: all models destroyed
  const out = zeros(S + 1);
  if (S === 0) {
    out[0] = 1;
    return out;
  }
  const D = dmg.length - 1;
  // tail[j] = P(damage >= j), j = 0..W
  const tail = zeros(W + 1);
  for (let j = W; j >= 0; j--) {
    let s = 0;
    for (let d = j; d <= D; d++) s += dmg[d];
    tail[j] = s;
  }
  let lastU = unsaved.length - 1;
  while (lastU > 0 && unsaved[lastU] < TINY) lastU--;
  ensureScratch(S + 1);
  let cur = scratchA;
  let nxt = scratchB;
  for (let L = 0; L <= S; L++) cur[L] = 0;
  cur[0] = 1;
  let hiL = 0; // highest L below the absorbing state with mass
  for (let u = 0; ; u++) {
    const pu = unsaved[u];
    if (pu !== 0) {
      for (let L = 0; L <= hiL; L++) out[L] += pu * cur[L];
      out[S] += pu * cur[S];
    }
    if (u >= lastU) break;
    // mass not absorbed yet
    let free = 0;
    for (let L = 0; L <= hiL; L++) free += cur[L];
    if (free < ABSORB_EPS) {
      // the distribution no longer changes: give it the rest of the unsaved pmf
      let rest = 0;
      for (let v = u + 1; v <= lastU; v++) rest += unsaved[v];
      for (let L = 0; L <= hiL; L++) out[L] += rest * cur[L];
      out[S] += rest * cur[S];
      break;
    }
    const top = hiL + D < S ? hiL + D : S;
    for (let L = 0; L <= top; L++) nxt[L] = 0;
    nxt[S] = cur[S];
    let newHi = 0;
    // walk L model by model: B = next model boundary, gap = wounds left on the current model
    let B = W;
    let gap = W;
    for (let L = 0; L <= hiL; L++, gap--) {
      if (gap === 0) { B += W; gap = W; }
      const p = cur[L];
      if (p === 0) continue;
      const lim = gap - 1 < D ? gap - 1 : D;
      for (let d = 0; d <= lim; d++) nxt[L + d] += p * dmg[d];
      nxt[B] += p * tail[gap];
      if (gap <= D && B < S) { if (B > newHi) newHi = B; } else if (L + lim > newHi) newHi = L + lim;
    }
    hiL = newHi;
    const t = cur; cur = nxt; nxt = t;
  }
  return out;
}
