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
 *  - "Re-roll one Hit roll" / "one Wound roll" (rerollOne): the first failed die no other rule re-rolled,
 *    once for the whole activation (see rerollOneTotals). "Re-roll one Damage roll": the lowest Damage
 *    die of the unsaved attacks, when below average (damageDpRerollOne). Two limits, both where the
 *    pipeline's order matters: a second Damage re-roll (two rules granting one) is left out, and with
 *    DEVASTATING WOUNDS the calculator picks the lowest die among all unsaved attacks while the
 *    pipeline re-rolls within the failed saves first, then within the mortal wounds. The calc command
 *    refuses both inputs (src/calc/input.ts); the agents' estimates live with them.
 *
 * Exactness: no truncation beyond dropping negligible probabilities: tails below 1e-18 of the
 * intermediate n-fold convolutions and of the attack / unsaved counts, and the damage DP stops once
 * the mass not yet in the "all models destroyed" state is below 1e-15. The pmfs sum to 1 within ~1e-13.
 */
import type { AttackPlan, RerollPolicy } from '../rules/attack-plan.ts';
import { adjustDamage, capModifier, criticalHitThreshold, rollOutcome, saveNeeded, saveRerollPolicy, shouldReroll, woundTarget } from '../rules/attack-plan.ts';
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
  plan: Pick<AttackPlan, 'damage' | 'damageBonus' | 'damageReduction' | 'halveDamage'> & { rerollDamage?: boolean; rerollDamageOnes?: boolean }, feelNoPain: number | null,
): number[] {
  let rolled = diceExprPmf(plan.damage);
  if (plan.rerollDamage && plan.damage.n > 0) {
    // the Damage dice are re-rolled when they came out below their average (as the pipeline does)
    const base = rolled;
    const mean = diceExprMean(plan.damage);
    let pLow = 0;
    for (let v = 0; v < base.length; v++) if (v < mean) pLow += base[v];
    rolled = base.map((p, v) => (v < mean ? 0 : p) + pLow * p);
  } else if (plan.rerollDamageOnes && plan.damage.n === 1) {
    // a die that came out 1 (the value 1 + plus) is rolled again (as the pipeline does)
    const base = rolled;
    const one = 1 + plan.damage.plus;
    const pOne = base[one] ?? 0;
    rolled = base.map((p, v) => (v === one ? 0 : p) + pOne * p);
  }
  return effectiveOfRolled(rolled, plan, feelNoPain);
}

/** pmf of the wounds lost to one unsaved attack from the pmf of its rolled Damage (index: value): adjustDamage, then FNP per point. */
function effectiveOfRolled(
  rolled: number[], plan: Pick<AttackPlan, 'damageBonus' | 'damageReduction' | 'halveDamage'>, feelNoPain: number | null,
): number[] {
  // pmf of the Damage after adjustDamage (halving, reduction, bonus)
  let maxD = 0;
  for (let v = 0; v < rolled.length; v++) if (rolled[v] !== 0) maxD = Math.max(maxD, adjustDamage(v, plan));
  const adj = zeros(maxD + 1);
  for (let v = 0; v < rolled.length; v++) if (rolled[v] !== 0) adj[adjustDamage(v, plan)] += rolled[v];
  let ignore = 0;
  if (feelNoPain !== null) for (let f = 1; f <= 6; f++) if (f >= feelNoPain) ignore += SIXTH;
  if (ignore === 0) return trimTrailingZeros(adj);
  const keep = 1 - ignore;
  const out = zeros(maxD + 1);
  for (let d = 0; d <= maxD; d++) {
    const p = adj[d];
    if (p === 0) continue;
    // Binomial(d, keep): each wound point is kept unless its Feel No Pain roll succeeds
    let c = 1; // C(d, k)
    for (let k = 0; k <= d; k++) {
      out[k] += p * c * keep ** k * ignore ** (d - k);
      c = (c * (d - k)) / (k + 1);
    }
  }
  return trimTrailingZeros(out);
}

/** Per-attack marginal pmfs of hits, wounds and unsaved attacks (each of length 2 + the most extra hits of SUSTAINED HITS). */
export function perAttackPmfs(plan: AttackPlan, defender: Pick<DefenderProfile, 'save' | 'invulnerable'>): PerAttack {
  const r = rollsOf(plan, defender);
  return perAttackFrom(plan, r.hit, [1 - r.pw, r.pw], [1 - r.pu, r.pu], r.pf);
}

type PerAttack = { hits: number[]; wounds: number[]; unsaved: number[] };

/** The probabilities one attack's dice need, for the re-roll policies of the plan or for fresh dice. */
function rollsOf(plan: AttackPlan, defender: Pick<DefenderProfile, 'save' | 'invulnerable'>, fresh = false) {
  const hitPolicy = fresh ? 'none' : plan.rerollHits;
  const woundPolicy = fresh ? 'none' : plan.rerollWounds;
  const hit: [number, number, number] = plan.autoHit ? [0, 1, 0] : rollProbabilities(plan.skill, capModifier(plan.hitModifier), criticalHitThreshold(plan), hitPolicy);
  const wnd = rollProbabilities(woundTarget(plan.strength, plan.toughness), capModifier(plan.woundModifier), plan.criticalWoundOn, woundPolicy);
  const pf = 1 - savePassProbability(saveNeeded(plan, defender.save, defender.invulnerable), plan.rerollSaves);
  // a Critical Wound may get a better AP (criticalWoundAp) or skip the save (DEVASTATING WOUNDS)
  const pfCrit = plan.criticalWoundAp > 0
    ? 1 - savePassProbability(saveNeeded({ ...plan, ap: plan.ap - plan.criticalWoundAp }, defender.save, defender.invulnerable), plan.rerollSaves)
    : pf;
  return { hit, pw: wnd[1] + wnd[2], pu: wnd[1] * pf + wnd[2] * (plan.devastatingWounds ? 1 : pfCrit), pf };
}

/**
 * One attack's marginal (sub-)pmfs from its Hit roll outcome probabilities `hit` [fail, hit, critical]
 * and the (sub-)pmfs of one Wound roll die: `wd` over [not wounded, wounded] and `ud` over
 * [not through, unsaved]. Sub-pmfs (mass below 1) restrict to the dice outcomes the caller counts.
 */
function perAttackFrom(plan: AttackPlan, hit: readonly number[], wd: number[], ud: number[], pf: number): PerAttack {
  const S = plan.sustainedHits > 0 ? plan.sustainedHits : 0;
  // SUSTAINED HITS D3: the extra hits of a Critical Hit have a distribution, not a value
  const sp = plan.sustainedHitsDice ? sustainedPmf(plan) : null;
  const K = 1 + (sp ? sp.length - 1 : S);
  const hits = new Array<number>(K + 1).fill(0);
  hits[0] += hit[0];
  hits[1] += hit[1];
  if (sp) for (let s = 0; s < sp.length; s++) hits[1 + s] += hit[2] * sp[s];
  else hits[1 + S] += hit[2];
  // the Critical Hit itself: auto-wound (normal save, no Wound roll) with LETHAL HITS, else a Wound roll;
  // each SUSTAINED HITS extra hit makes its own Wound roll
  const critW = convolve(plan.lethalHits ? [0, 1] : wd, sp ? compound(sp, wd) : power(wd, S));
  const critU = convolve(plan.lethalHits ? [1 - pf, pf] : ud, sp ? compound(sp, ud) : power(ud, S));
  const wounds = new Array<number>(K + 1).fill(0);
  const unsaved = new Array<number>(K + 1).fill(0);
  wounds[0] += hit[0] + hit[1] * wd[0];
  wounds[1] += hit[1] * wd[1];
  unsaved[0] += hit[0] + hit[1] * ud[0];
  unsaved[1] += hit[1] * ud[1];
  for (let k = 0; k <= K && k < critW.length; k++) {
    wounds[k] += hit[2] * critW[k];
    unsaved[k] += hit[2] * critU[k];
  }
  return { hits, wounds, unsaved };
}

/**
 * pmf of the extra hits one Critical Hit scores with SUSTAINED HITS D3 (or other dice): the roll's, each value
 * raised to a fixed SUSTAINED HITS X the plan also has (the better of the two counts).
 */
function sustainedPmf(plan: AttackPlan): number[] {
  const S = plan.sustainedHits > 0 ? plan.sustainedHits : 0;
  const rolled = diceExprPmf(plan.sustainedHitsDice!);
  const out = zeros(Math.max(rolled.length, S + 1));
  for (let v = 0; v < rolled.length; v++) out[Math.max(v, S)] += rolled[v];
  return out;
}

/** What the re-roll-one paths read: the dice of the plan's policies, fresh dice, and the re-rollable failures. */
interface RerollInputs {
  r: ReturnType<typeof rollsOf>;
  fr: ReturnType<typeof rollsOf>;
  /** chance that a Hit / Wound roll die fails and no other rule re-rolled it (0 when no rule re-rolls one) */
  qh: number;
  qw: number;
}

function rerollInputs(plan: AttackPlan, defender: Pick<DefenderProfile, 'save' | 'invulnerable'>): RerollInputs {
  return {
    r: rollsOf(plan, defender),
    fr: rollsOf(plan, defender, true),
    qh: plan.rerollOne.hit > 0 && !plan.autoHit ? eligibleFail(plan.skill, capModifier(plan.hitModifier), criticalHitThreshold(plan), plan.rerollHits) : 0,
    qw: plan.rerollOne.wound > 0 ? eligibleFail(woundTarget(plan.strength, plan.toughness), capModifier(plan.woundModifier), plan.criticalWoundOn, plan.rerollWounds) : 0,
  };
}

/** Probability that one die of a roll fails and was not re-rolled by the policy: a die "re-roll one" may take. */
function eligibleFail(needed: number, modifier: number, criticalOn: number, policy: RerollPolicy): number {
  let q = 0;
  for (let f = 1; f <= 6; f++) {
    const o = rollOutcome(f, needed, modifier, criticalOn);
    if (o === 0 && !shouldReroll(policy, f, o)) q += SIXTH;
  }
  return q;
}

/**
 * Totals of hits, wounds and unsaved attacks of the whole activation when the unit may "re-roll one Hit
 * roll" and/or "re-roll one Wound roll" (AttackPlan.rerollOne): the first failed die that no other rule
 * re-rolled is rolled again, once for all the attacks (as the dice pipeline does).
 *
 * Why it is exact. Let f be one attack's pmf, split as f = q·δ0 + f_B where q is the chance its die is a
 * failure that may be re-rolled (it then counts 0). Over n attacks, the sum without any such failure has
 * the sub-pmf S = f_B^{*n}; with at least one, F - S (F = f^{*n}); and in that case one of them (all
 * count 0, so which does not matter) is replaced by an attack with a fresh die, of pmf g. So the total
 * is S + g * (F - S). The Wound roll works the same way one level down: each Wound roll die is a
 * Bernoulli with a re-rollable failure mass, and the totals are split by "no re-rollable failed Wound
 * die anywhere" (X_R) or not; the Hit roll re-roll comes first, as on the table.
 */
function rerollOneTotals(plan: AttackPlan, { r, fr, qh, qw }: RerollInputs, perModel: number[], models: number, keys: readonly Key[]): PerAttack {
  const total = (per: number[]) => nfold(compound(perModel, per), models);
  // after the Hit roll re-roll: S + g * (F - S), F the total of f, S of f without the re-rollable misses
  const withHit = (f: number[], fB: number[], g: number[]) => {
    if (qh === 0) return total(f);
    const S = total(fB);
    return add(S, convolve(g, sub(total(f), S)));
  };
  const hitB: number[] = [r.hit[0] - qh, r.hit[1], r.hit[2]];
  const wdR = [1 - r.pw - qw, r.pw];
  const udR = [1 - r.pu - qw, r.pu];
  const full = perAttackFrom(plan, r.hit, [1 - r.pw, r.pw], [1 - r.pu, r.pu], r.pf);
  const notA = perAttackFrom(plan, hitB, [1 - r.pw, r.pw], [1 - r.pu, r.pu], r.pf);
  const notAR = perAttackFrom(plan, hitB, wdR, udR, r.pf);
  const fresh = perAttackFrom(plan, fr.hit, [1 - r.pw, r.pw], [1 - r.pu, r.pu], r.pf);
  const freshR = perAttackFrom(plan, fr.hit, wdR, udR, r.pf);
  const out = {} as PerAttack;
  for (const key of keys) {
    // X over everything, X_R restricted to "no re-rollable failed Wound die"
    const X = withHit(full[key], notA[key], fresh[key]);
    if (qw === 0 || key === 'hits') { out[key] = X; continue; }
    const aR = notAR[key].slice();
    aR[0] += qh; // a re-rollable failed Hit roll has no Wound roll die
    const XR = withHit(aR, notAR[key], freshR[key]);
    const p = key === 'wounds' ? fr.pw : fr.pu;
    out[key] = add(XR, convolve([1 - p, p], sub(X, XR)));
  }
  return out;
}

/**
 * The same totals when rules grant several such re-rolls (Crystal Matrix and SOULSIGHT: two Hit and two
 * Wound dice). A (sub-)pmf is kept split by how many re-rollable failed Hit dice (i, capped at the Hit
 * budget) and failed Wound dice (j, capped at the Wound budget) it holds: a "Split", part[i][j]. Sums of
 * attacks multiply Splits (indices add, capped); then min(i, budget) failed Hit dice are replaced by
 * attacks with a fresh Hit die, and min(j, budget) failed Wound dice by fresh Wound dice. With budgets of
 * 0 and 1 this gives exactly what the plain path and rerollOneTotals give (tested); it is slower, so it
 * is used only for budgets above 1.
 */
function rerollSeveralTotals(plan: AttackPlan, { r, fr, qh, qw }: RerollInputs, perModel: number[], models: number, keys: readonly Key[]): PerAttack {
  const kh = plan.autoHit ? 0 : Math.max(0, plan.rerollOne.hit);
  const kw = Math.max(0, plan.rerollOne.wound);
  const S = plan.sustainedHits > 0 ? plan.sustainedHits : 0;
  const alg = new SplitAlgebra(kh, kw);
  const out = {} as PerAttack;
  for (const key of keys) {
    // one Wound roll die, and what a Critical Hit's own "wound" is
    const p = key === 'wounds' ? r.pw : r.pu;
    const die = key === 'hits' ? alg.constant([1]) : alg.of([[0, [1 - p - qw, p]], [1, [qw]]]);
    const critOwn = key === 'hits' ? die : plan.lethalHits ? alg.constant(key === 'wounds' ? [0, 1] : [1 - r.pf, r.pf]) : die;
    const attack = (hit: readonly number[], eligible: number): Split => {
      const normal = key === 'hits' ? alg.constant([0, 1]) : die;
      const sp = plan.sustainedHitsDice ? sustainedPmf(plan) : null;
      const crit = key === 'hits' ? alg.constant(sp ? convolve([0, 1], sp) : delta(1 + S)) : alg.mul(critOwn, sp ? alg.compound(sp, die) : alg.pow(die, S));
      let a = alg.add(alg.constant([hit[0] - eligible]), alg.scale(normal, hit[1]));
      a = alg.add(a, alg.scale(crit, hit[2]));
      if (eligible > 0) a = alg.add(a, alg.shiftHit(alg.constant([eligible])));
      return a;
    };
    const total = alg.pow(alg.compound(perModel, attack(r.hit, qh)), models);
    // the Hit roll re-rolls: i failed Hit dice become min(i, kh) attacks with a fresh Hit die
    const fresh = attack(fr.hit, 0);
    let afterHit = alg.zero();
    for (let i = 0; i <= kh; i++) afterHit = alg.add(afterHit, alg.mul(alg.row(total, i), alg.pow(fresh, i)));
    // the Wound roll re-rolls: j failed Wound dice become min(j, kw) fresh Wound dice
    const pFresh = key === 'wounds' ? fr.pw : fr.pu;
    let res: number[] = [0];
    for (let j = 0; j <= kw; j++) {
      let part = afterHit[0][j];
      if (key !== 'hits') for (let t = 0; t < j; t++) part = convolve(part, [1 - pFresh, pFresh]);
      res = add(res, part);
    }
    out[key] = res;
  }
  return out;
}

function delta(k: number): number[] {
  const a = zeros(k + 1);
  a[k] = 1;
  return a;
}

/** part[i][j]: the sub-pmf of the outcomes holding i re-rollable failed Hit dice and j failed Wound dice (capped) */
type Split = number[][][];

/** Sums and products of Splits, the counts capped at the budgets (kh, kw). Plain arrays: a slow path for rare cases. */
class SplitAlgebra {
  constructor(private readonly kh: number, private readonly kw: number) {}
  zero(): Split {
    return Array.from({ length: this.kh + 1 }, () => Array.from({ length: this.kw + 1 }, () => [0]));
  }
  constant(pmf: number[]): Split {
    const z = this.zero();
    z[0][0] = pmf.slice();
    return z;
  }
  /** parts at (0, j): j = 1 means one failed Wound die (capped) */
  of(parts: [number, number[]][]): Split {
    const z = this.zero();
    for (const [j, pmf] of parts) { const jj = Math.min(j, this.kw); z[0][jj] = add(z[0][jj], pmf); }
    return z;
  }
  /** the same outcomes with one more failed Hit die */
  shiftHit(a: Split): Split {
    const z = this.zero();
    for (let i = 0; i <= this.kh; i++) for (let j = 0; j <= this.kw; j++) { const ii = Math.min(i + 1, this.kh); z[ii][j] = add(z[ii][j], a[i][j]); }
    return z;
  }
  /** row i of a, moved to row 0 (its failed Hit dice are about to be re-rolled) */
  row(a: Split, i: number): Split {
    const z = this.zero();
    for (let j = 0; j <= this.kw; j++) z[0][j] = a[i][j].slice();
    return z;
  }
  add(a: Split, b: Split): Split {
    const z = this.zero();
    for (let i = 0; i <= this.kh; i++) for (let j = 0; j <= this.kw; j++) z[i][j] = add(a[i][j], b[i][j]);
    return z;
  }
  scale(a: Split, p: number): Split {
    return a.map((row) => row.map((pmf) => pmf.map((x) => x * p)));
  }
  mul(a: Split, b: Split): Split {
    const z = this.zero();
    for (let i1 = 0; i1 <= this.kh; i1++) for (let j1 = 0; j1 <= this.kw; j1++) {
      if (isZero(a[i1][j1])) continue;
      for (let i2 = 0; i2 <= this.kh; i2++) for (let j2 = 0; j2 <= this.kw; j2++) {
        if (isZero(b[i2][j2])) continue;
        const i = Math.min(i1 + i2, this.kh);
        const j = Math.min(j1 + j2, this.kw);
        z[i][j] = add(z[i][j], convolveTrimmed(a[i1][j1], b[i2][j2]));
      }
    }
    return z;
  }
  pow(a: Split, n: number): Split {
    let out = this.constant([1]);
    for (let k = 0; k < n; k++) out = this.mul(out, a);
    return out;
  }
  /** sum over n of count[n] times a^n */
  compound(count: number[], a: Split): Split {
    let out = this.zero();
    let power = this.constant([1]);
    let last = count.length - 1;
    while (last > 0 && count[last] < TINY) last--;
    for (let n = 0; ; n++) {
      if (count[n] !== 0) out = this.add(out, this.scale(power, count[n]));
      if (n >= last) break;
      power = this.mul(power, a);
    }
    return out;
  }
}

function isZero(p: number[]): boolean {
  for (const x of p) if (x !== 0) return false;
  return true;
}

/** a + b, padded to the longer length */
function add(a: number[], b: number[]): number[] {
  const out = zeros(Math.max(a.length, b.length));
  for (let i = 0; i < a.length; i++) out[i] += a[i];
  for (let i = 0; i < b.length; i++) out[i] += b[i];
  return out;
}

/** a - b, padded to the longer length; rounding below zero is cut to 0 */
function sub(a: number[], b: number[]): number[] {
  const out = zeros(Math.max(a.length, b.length));
  for (let i = 0; i < out.length; i++) {
    const v = (a[i] ?? 0) - (b[i] ?? 0);
    out[i] = v > 0 ? v : 0;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Main entry points
// ------------------------------------------------------------------------------------------------

export function exactAttack(plan: AttackPlan, attackingModels: number, defender: DefenderProfile): ExactResult {
  const perModel = attacksPerModelPmf(plan);
  const attacks = nfold(perModel, attackingModels);
  const { hits, wounds, unsaved } = activationTotals(plan, defender, perModel, attackingModels);
  const woundsLost = woundsLostPmf(plan, unsaved, defender);

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

type MeanDamage = { meanWoundsLost: number; meanModelsDestroyed: number };
const MEAN_CACHE_SIZE = 5000;
/**
 * Cached answers: their inputs in one pool (MEAN_INPUTS numbers each, no array per entry: 50,000 entries
 * with an array each cost a worker ~50 MB), chained by hash of the inputs.
 */
const meanHead = new Map<number, number>();
const meanNext = new Int32Array(MEAN_CACHE_SIZE);
const meanOut: MeanDamage[] = [];
let meanCount = 0;
const POLICY: Record<RerollPolicy, number> = { none: 0, ones: 1, failed: 2, 'non-critical': 3 };
const nul = (x: number | null): number => (x === null ? -1 : x);

/**
 * Every number of the plan the calculation can read, the models and the defender, written into `out`:
 * all plan fields but the weapon's and profile's names and the reporting tags (a test changes each
 * field in turn and expects other inputs).
 */
export function meanInputs(p: AttackPlan, attackingModels: number, def: DefenderProfile, out = new Float64Array(MEAN_INPUTS)): Float64Array {
  const a = p.attacks, d = p.damage, r = p.rerollOne;
  let i = 0;
  out[i++] = attackingModels; out[i++] = def.models; out[i++] = def.save; out[i++] = nul(def.invulnerable); out[i++] = def.wounds; out[i++] = nul(def.feelNoPain);
  out[i++] = +p.melee; out[i++] = a.n; out[i++] = a.sides; out[i++] = a.plus; out[i++] = p.attacksBonus; out[i++] = +p.rerollAttacks;
  out[i++] = +p.autoHit; out[i++] = p.skill; out[i++] = p.hitModifier; out[i++] = +p.ignoreHitModifiers; out[i++] = +p.ignoreCharacteristicModifiers; out[i++] = +p.ignoreApDamageModifiers; out[i++] = POLICY[p.rerollHits]; out[i++] = p.criticalHitOn; out[i++] = +p.everyHitCritical; out[i++] = p.sustainedHits; out[i++] = +p.lethalHits;
  const sd = p.sustainedHitsDice;
  out[i++] = sd ? sd.n : -1; out[i++] = sd ? sd.sides : -1; out[i++] = sd ? sd.plus : -1;
  out[i++] = p.strength; out[i++] = p.toughness; out[i++] = p.woundModifier; out[i++] = POLICY[p.rerollWounds]; out[i++] = p.criticalWoundOn; out[i++] = +p.devastatingWounds; out[i++] = p.criticalWoundAp;
  out[i++] = p.ap; out[i++] = +p.cover; out[i++] = +p.ignoresCover; out[i++] = p.saveModifier; out[i++] = p.invulnerableModifier; out[i++] = nul(p.invulnerable); out[i++] = POLICY[p.rerollSaves];
  out[i++] = r.hit; out[i++] = r.wound; out[i++] = r.damage;
  out[i++] = d.n; out[i++] = d.sides; out[i++] = d.plus; out[i++] = +p.rerollDamage; out[i++] = +p.rerollDamageOnes; out[i++] = p.damageBonus; out[i++] = p.damageReduction; out[i++] = +p.halveDamage; out[i++] = nul(p.feelNoPain);
  out[i++] = +p.precision; out[i++] = +p.criticalWoundPrecision; out[i++] = +p.hazardous;
  return out;
}
const MEAN_INPUTS = 55;
const scratch = new Float64Array(MEAN_INPUTS);
const meanInputsPool = new Float64Array(MEAN_CACHE_SIZE * MEAN_INPUTS);

function hashInputs(v: Float64Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < v.length; i++) h = Math.imul(h ^ ((v[i] * 64) | 0), 0x01000193);
  return h;
}

function sameInputs(entry: number, v: Float64Array): boolean {
  const at = entry * MEAN_INPUTS;
  for (let i = 0; i < MEAN_INPUTS; i++) if (meanInputsPool[at + i] !== v[i]) return false;
  return true;
}

/**
 * Mean wounds lost and mean models destroyed only (skips the hits and wounds distributions). The agents
 * ask for the same numbers again and again (a new round, an effect that changes nothing of the attack):
 * answers are kept, keyed by every input they are computed from, so a cached answer is the
 * bit-identical one whatever asked first. Callers must not change the returned object.
 */
export function expectedDamage(plan: AttackPlan, attackingModels: number, defender: DefenderProfile): MeanDamage {
  const inputs = meanInputs(plan, attackingModels, defender, scratch);
  const h = hashInputs(inputs);
  const head = meanHead.get(h);
  for (let e = head ?? -1; e >= 0; e = meanNext[e]) if (sameInputs(e, inputs)) return meanOut[e];
  const out = computeExpectedDamage(plan, attackingModels, defender);
  if (meanCount >= MEAN_CACHE_SIZE) { meanHead.clear(); meanCount = 0; }
  const e = meanCount++;
  meanInputsPool.set(inputs, e * MEAN_INPUTS);
  meanOut[e] = out;
  meanNext[e] = meanHead.get(h) ?? -1;
  meanHead.set(h, e);
  return out;
}

function computeExpectedDamage(plan: AttackPlan, attackingModels: number, defender: DefenderProfile): MeanDamage {
  const perModel = attacksPerModelPmf(plan);
  const unsaved = activationTotals(plan, defender, perModel, attackingModels, UNSAVED_ONLY).unsaved;
  const wl = woundsLostPmf(plan, unsaved, defender);
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

type Key = keyof PerAttack;
const REROLL_CACHE_SIZE = 20000;
const rerollCache = new Map<string, PerAttack>();

/**
 * Everything the re-roll-one totals read, as a string. The re-roll counts and TORRENT are in it as given
 * (they pick the code path), so a cached answer is the bit-identical one whatever filled the cache.
 */
function rerollKey(plan: AttackPlan, { r, fr, qh, qw }: RerollInputs, perModel: number[], models: number): string {
  return [
    plan.rerollOne.hit, plan.rerollOne.wound, plan.autoHit ? 1 : 0, plan.sustainedHits, plan.sustainedHitsDice ? `${plan.sustainedHitsDice.n}D${plan.sustainedHitsDice.sides}+${plan.sustainedHitsDice.plus}` : '', plan.lethalHits ? 1 : 0, models, qh, qw,
    ...r.hit, r.pw, r.pu, r.pf, ...fr.hit, fr.pw, fr.pu, '|', ...perModel,
  ].join(',');
}
const ALL_KEYS: readonly Key[] = ['hits', 'wounds', 'unsaved'];
const UNSAVED_ONLY: readonly Key[] = ['unsaved'];

/** pmfs of the activation's total hits, wounds and unsaved attacks (with re-roll-one rules: only those in `keys`). */
function activationTotals(plan: AttackPlan, defender: Pick<DefenderProfile, 'save' | 'invulnerable'>, perModel: number[], models: number, keys = ALL_KEYS): PerAttack {
  const { hit, wound } = plan.rerollOne;
  if (hit > 0 || wound > 0) {
    // the agents price the same volleys over and over: the re-roll-one paths cost several totals each,
    // so their unsaved pmf is kept, keyed by every number it is computed from (a pure function: no
    // effect on results; the arrays are shared, never changed by their readers)
    const inputs = rerollInputs(plan, defender);
    const key = keys === UNSAVED_ONLY ? rerollKey(plan, inputs, perModel, models) : null;
    const hitCache = key === null ? undefined : rerollCache.get(key);
    if (hitCache) return hitCache;
    const out = hit > 1 || wound > 1 ? rerollSeveralTotals(plan, inputs, perModel, models, keys) : rerollOneTotals(plan, inputs, perModel, models, keys);
    if (key !== null) {
      if (rerollCache.size >= REROLL_CACHE_SIZE) rerollCache.clear();
      rerollCache.set(key, out);
    }
    return out;
  }
  const per = perAttackPmfs(plan, defender);
  return {
    hits: nfold(compound(perModel, per.hits), models),
    wounds: nfold(compound(perModel, per.wounds), models),
    unsaved: nfold(compound(perModel, per.unsaved), models),
  };
}

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

/**
 * a * b over their supports without the negligible edges (entries below TINY, dropped as the Accumulator drops
 * them): the products of many attacks' Splits spread over a fraction of their full length (an extreme volley
 * with "re-roll one" budgets of 3 ran for minutes convolving zeros)
 */
function convolveTrimmed(a: number[], b: number[]): number[] {
  const [alo, ahi] = support(a, TINY);
  const [blo, bhi] = support(b, TINY);
  if (!(a[alo] > TINY) || !(b[blo] > TINY)) return [0];
  const out = zeros(ahi + bhi + 1);
  for (let i = alo; i <= ahi; i++) {
    const x = a[i];
    for (let j = blo; j <= bhi; j++) out[i + j] += x * b[j];
  }
  return out;
}

/** the n-fold convolution of a small (sub-)pmf, by repeated convolution (n is a SUSTAINED HITS value) */
function power(p: number[], n: number): number[] {
  let out = [1];
  for (let i = 0; i < n; i++) out = convolve(out, p);
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

/** first and last index of the entries of a pmf above `floor` (0: the non-zero ones); lo = hi at the end when there are none */
function support(p: ArrayLike<number>, floor = 0): [number, number] {
  const K = p.length - 1;
  let lo = 0;
  while (lo < K && p[lo] <= floor) lo++;
  let hi = K;
  while (hi > lo && p[hi] <= floor) hi--;
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

/** pmf of the wounds lost by the defender, from the pmf of the number of unsaved attacks. */
function woundsLostPmf(plan: AttackPlan, unsaved: number[], defender: DefenderProfile): number[] {
  const fnp = bestFeelNoPain(defender.feelNoPain, plan.feelNoPain);
  // with a re-roll of Damage 1s too, the "re-roll one Damage roll" is left out here (the pipeline plays it only when no 1 came up)
  if (plan.rerollOne.damage > 0 && plan.damage.n === 1 && !plan.rerollDamage && !plan.rerollDamageOnes) {
    return damageDpRerollOne(unsaved, plan, fnp, defender.models, defender.wounds);
  }
  return damageDp(unsaved, effectiveDamagePmf(plan, fnp), defender.models, defender.wounds);
}

/**
 * The damage DP with "re-roll one Damage roll" (one Damage die, as the pipeline requires): of the u
 * Damage dice of the unsaved attacks, the lowest (the first of equal lowest) is rolled again when it
 * is below the die's average. The dice are then no longer independent, so the outcomes are split by
 * the lowest die's face v and its place: the attacks before it rolled more than v, the ones after it
 * at least v, and the lowest one is v, or a fresh roll when v is below average. For each v, a DP over
 * the attacks in order with two layers (lowest die not reached yet / passed) gives every u at once;
 * summed over v, the passed layer is the exact wounds-lost distribution. Excess damage is lost as in
 * damageDp (each attack moves L to at most the next model boundary).
 */
function damageDpRerollOne(unsaved: number[], plan: AttackPlan, fnp: number | null, models: number, wounds: number): number[] {
  const M = models > 0 ? models : 0;
  const W = wounds;
  const S = M * W;
  const out = zeros(S + 1);
  if (S === 0) {
    out[0] = 1;
    return out;
  }
  const sides = plan.damage.sides;
  const plus = plan.damage.plus;
  const fresh = effectiveDamagePmf(plan, fnp);
  const faces: number[][] = [];
  for (let v = 1; v <= sides; v++) {
    const rolled = zeros(v + plus + 1);
    rolled[v + plus] = 1;
    faces[v] = effectiveOfRolled(rolled, plan, fnp);
  }
  /** the sum of faces[w] / sides over w in [from, sides] (a sub-stochastic kernel) */
  const facesFrom = (from: number): number[] => {
    const k: number[] = [];
    for (let w = from; w <= sides; w++) faces[w].forEach((p, d) => { k[d] = (k[d] ?? 0) + p / sides; });
    return Array.from(k, (x) => x ?? 0);
  };
  let lastU = unsaved.length - 1;
  while (lastU > 0 && unsaved[lastU] < TINY) lastU--;
  out[0] += unsaved[0];
  const A: number[][] = [];
  const B: number[][] = [];
  const above: number[][] = [];
  const atLeast: number[][] = [];
  const lowest: number[][] = [];
  for (let v = 1; v <= sides; v++) {
    A[v] = zeros(S + 1);
    A[v][0] = 1;
    B[v] = zeros(S + 1);
    above[v] = facesFrom(v + 1);
    atLeast[v] = facesFrom(v);
    // re-rolled when below average: the pipeline's "2 x roll < sides + 1"
    lowest[v] = (2 * v < sides + 1 ? fresh : faces[v]).map((p) => p / sides);
  }
  for (let u = 1; u <= lastU; u++) {
    let free = 0;
    for (let v = 1; v <= sides; v++) {
      const nb = zeros(S + 1);
      dpStep(A[v], lowest[v], nb, S, W);
      dpStep(B[v], atLeast[v], nb, S, W);
      const na = zeros(S + 1);
      dpStep(A[v], above[v], na, S, W);
      A[v] = na;
      B[v] = nb;
      for (let L = 0; L < S; L++) free += na[L] + nb[L];
    }
    const pu = unsaved[u];
    let rest = pu;
    // once (almost) every outcome has destroyed the whole unit, later counts change nothing
    if (free < ABSORB_EPS) for (let x = u + 1; x <= lastU; x++) rest += unsaved[x];
    if (rest !== 0) for (let v = 1; v <= sides; v++) for (let L = 0; L <= S; L++) out[L] += rest * B[v][L];
    if (free < ABSORB_EPS) break;
  }
  return out;
}

/** One attack of the damage DP with a kernel that may sum to less than 1: adds to `nxt`. */
function dpStep(cur: number[], kernel: number[], nxt: number[], S: number, W: number): void {
  const D = kernel.length - 1;
  let mass = 0;
  for (let d = 0; d <= D; d++) mass += kernel[d];
  nxt[S] += cur[S] * mass;
  for (let L = 0, B = W, gap = W; L < S; L++, gap--) {
    if (gap === 0) { B += W; gap = W; }
    const p = cur[L];
    if (p === 0) continue;
    for (let d = 0; d <= D; d++) nxt[d < gap ? L + d : B] += p * kernel[d];
  }
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
