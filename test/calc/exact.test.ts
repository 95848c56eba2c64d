import { describe, expect, it } from 'vitest';
import { basePlan, type AttackPlan } from '../../src/rules/attack-plan.ts';
import { parseDiceExpr } from '../../src/core/dice-expr.ts';
import {
  attacksPerModelPmf, effectiveDamagePmf, exactAttack, expectedDamage, meanInputs, perAttackPmfs, rollProbabilities, savePassProbability,
  type DefenderProfile, type ExactResult,
} from '../../src/calc/exact.ts';

// ------------------------------------------------------------------------------------------------
// helpers
// ------------------------------------------------------------------------------------------------

const dx = (s: string | number) => {
  const d = parseDiceExpr(s);
  if (!d) throw new Error(`bad dice expression ${s}`);
  return d;
};

function plan(o: Partial<AttackPlan> & { A?: string | number; D?: string | number } = {}): AttackPlan {
  const { A = 1, D = 1, ...rest } = o;
  const p = basePlan({ weapon: 'w', profile: 'p', melee: false, attacks: dx(A), skill: 4, strength: 4, ap: 0, damage: dx(D), toughness: 4 });
  return { ...p, ...rest };
}

function def(o: Partial<DefenderProfile> = {}): DefenderProfile {
  return { models: 10, save: 3, invulnerable: null, wounds: 1, feelNoPain: null, ...o };
}

const sum = (p: number[]) => p.reduce((a, b) => a + b, 0);
const mean = (p: number[]) => p.reduce((a, b, i) => a + i * b, 0);
const binom = (n: number, k: number) => { let r = 1; for (let i = 1; i <= k; i++) r = r * (n - k + i) / i; return r; };
const binPmf = (n: number, p: number) => Array.from({ length: n + 1 }, (_, k) => binom(n, k) * p ** k * (1 - p) ** (n - k));

function expectPmf(actual: number[], expected: number[], digits = 12) {
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) expect(actual[i] ?? 0, `index ${i}`).toBeCloseTo(expected[i] ?? 0, digits);
}

function expectConsistent(r: ExactResult, d: DefenderProfile) {
  for (const k of ['attacks', 'hits', 'wounds', 'unsaved', 'woundsLost', 'modelsDestroyed'] as const) {
    expect(Math.abs(sum(r[k]) - 1), k).toBeLessThan(1e-9);
    expect(r[k].every((x) => x >= -1e-15), k).toBe(true);
    expect(r.mean[k], k).toBeCloseTo(mean(r[k]), 9);
  }
  expect(r.modelsDestroyed.length).toBe(d.models + 1);
  expect(r.woundsLost.length).toBe(d.models * d.wounds + 1);
}

/** one unsaved attack for sure is impossible (a 1 always fails); tests often use p = P(unsaved) of an auto-hit, no-save attack */
const noSave = { save: 6 } as const; // with AP -1: 7+, no save possible

// ------------------------------------------------------------------------------------------------

describe('exactAttack: the basic sequence', () => {
  it('10 attacks BS4+ S4 vs T4 Sv3+ D1 W1', () => {
    // per attack: hit 3/6 (4,5,6), wound 3/6 (4+), save fails on 1,2 = 2/6 -> P(unsaved) = 1/2 * 1/2 * 1/3 = 1/12
    const d = def();
    const r = exactAttack(plan({ A: 10 }), 1, d);
    expectConsistent(r, d);
    expectPmf(r.attacks, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expectPmf(r.hits, binPmf(10, 1 / 2));
    expect(r.hits[5]).toBeCloseTo(252 / 1024, 14); // C(10,5) / 2^10
    expectPmf(r.wounds, binPmf(10, 1 / 4));
    expectPmf(r.unsaved, binPmf(10, 1 / 12));
    expect(r.unsaved[0]).toBeCloseTo((11 / 12) ** 10, 14);
    expect(r.mean.unsaved).toBeCloseTo(10 * (1 / 2) * (1 / 2) * (1 / 3), 12); // 5/6
    // D1 vs W1: every unsaved attack destroys one model (10 attacks, 10 models: never capped)
    expectPmf(r.woundsLost, binPmf(10, 1 / 12));
    expectPmf(r.modelsDestroyed, binPmf(10, 1 / 12));
    expect(r.mean.hits).toBeCloseTo(5, 12);
    expect(r.mean.wounds).toBeCloseTo(2.5, 12);
  });

  it('multiple attacking models multiply the attacks; expectedDamage agrees with exactAttack', () => {
    // 5 models x 2 attacks = the 10 attacks above
    const d = def();
    const r = exactAttack(plan({ A: 2 }), 5, d);
    expectPmf(r.unsaved, binPmf(10, 1 / 12));
    const e = expectedDamage(plan({ A: 2 }), 5, d);
    expect(e.meanWoundsLost).toBeCloseTo(10 / 12, 12);
    expect(e.meanModelsDestroyed).toBeCloseTo(10 / 12, 12);
  });

  it('models destroyed are capped by the unit size', () => {
    // 3 attacks BS4+ S4 T4 Sv3+ vs 2 models W1: U ~ Bin(3, 1/12); models destroyed = min(U, 2)
    const d = def({ models: 2 });
    const r = exactAttack(plan({ A: 3 }), 1, d);
    expectConsistent(r, d);
    const u = binPmf(3, 1 / 12);
    expectPmf(r.modelsDestroyed, [u[0], u[1], u[2] + u[3]]);
  });
});

describe('hit roll abilities', () => {
  it('SUSTAINED HITS 1: a 6 scores 2 hits', () => {
    // one attack at 4+: 0 hits on 1-3 (1/2), 1 hit on 4-5 (1/3), 2 hits on a 6 (1/6): mean 3/6 + 1/6 = 2/3
    const d = def();
    const r1 = exactAttack(plan({ A: 1, sustainedHits: 1 }), 1, d);
    expectPmf(r1.hits, [1 / 2, 1 / 3, 1 / 6]);
    expect(r1.mean.hits).toBeCloseTo(2 / 3, 14);
    // two attacks: [1/2,1/3,1/6] convolved with itself =
    // [1/4, 2*1/6, 2*1/12 + 1/9, 2*1/18, 1/36] = [9, 12, 10, 4, 1] / 36
    const r2 = exactAttack(plan({ A: 2, sustainedHits: 1 }), 1, d);
    expectConsistent(r2, d);
    expectPmf(r2.hits, [9 / 36, 12 / 36, 10 / 36, 4 / 36, 1 / 36]);
  });

  it('SUSTAINED HITS 2 with Critical Hits on 5+', () => {
    // 4+ to hit, crit on 5,6: 0 hits 1/2, 1 hit (a 4) 1/6, 3 hits 1/3
    const r = exactAttack(plan({ sustainedHits: 2, criticalHitOn: 5 }), 1, def());
    expectPmf(r.hits, [1 / 2, 1 / 6, 0, 1 / 3]);
  });

  it('SUSTAINED HITS D3: each Critical Hit scores 1 + D3 hits, each extra hit with its own Wound roll', () => {
    // one attack at 4+: 0 hits 1/2, 1 hit 1/3 (a 4 or 5), and on a 6 (1/6) 2, 3 or 4 hits, 1/18 each
    const d = def();
    const r = exactAttack(plan({ sustainedHitsDice: dx('D3') }), 1, d);
    expectConsistent(r, d);
    expectPmf(r.hits, [1 / 2, 1 / 3, 1 / 18, 1 / 18, 1 / 18]);
    expect(r.mean.hits).toBeCloseTo(1 / 3 + (1 / 6) * 3, 14);
    // S4 vs T4 wounds on 4+ (1/2): a 6 to hit brings 1 + k Wound rolls, k = 1..3 with 1/3 each, so
    // P(0 wounds | 6) = (1/4 + 1/8 + 1/16) / 3 = 7/48, and P(0 wounds) = 1/2 + 1/3 * 1/2 + 1/6 * 7/48
    expect(r.wounds[0]).toBeCloseTo(1 / 2 + 1 / 6 + 7 / 288, 14);
    expect(r.mean.wounds).toBeCloseTo(r.mean.hits / 2, 14);
  });

  it('SUSTAINED HITS D3 with a fixed SUSTAINED HITS 2 too: each Critical Hit scores the better, 2 or the roll', () => {
    // the D3 rolls 1, 2, 3 become 2, 2, 3: on a 6, 3 hits with 2/3 and 4 hits with 1/3
    const r = exactAttack(plan({ sustainedHitsDice: dx('D3'), sustainedHits: 2 }), 1, def());
    expectPmf(r.hits, [1 / 2, 1 / 3, 0, 1 / 9, 1 / 18]);
  });

  it('SUSTAINED HITS D3 through the several re-rolls path (two Hit and two Wound re-rolls) agrees in its mean hits', () => {
    // re-rolling failed Hit rolls changes the miss mass only: the hits' pmf of a fresh die is the one above
    const r = exactAttack(plan({ A: 2, sustainedHitsDice: dx('D3'), rerollOne: { hit: 2, wound: 2, damage: 0 } }), 1, def());
    // one die's mean hits: 1/3 + 1/6 * 3 = 5/6; a miss (1/2) is rolled again, the budget of 2 covering both
    // attacks, so an attack's mean is 5/6 + 1/2 * 5/6 = 5/4, and the two attacks' 5/2
    expect(r.mean.hits).toBeCloseTo(5 / 2, 12);
  });

  it('every Hit roll that hits a Critical Hit, read with the modifiers (Cry of the Wind): BS 4+ and -1, SUSTAINED HITS 1', () => {
    // a 5 or 6 hits and is critical (2 hits each, 1/3); a 4 misses with the -1 (nothing scores 1 hit)
    const r = exactAttack(plan({ sustainedHits: 1, hitModifier: -1, everyHitCritical: true }), 1, def());
    expectPmf(r.hits, [2 / 3, 0, 1 / 3]);
    // with +1, a 3 hits: critical from 3 (4/6), and never from a 1
    expectPmf(exactAttack(plan({ sustainedHits: 1, hitModifier: 1, everyHitCritical: true }), 1, def()).hits, [1 / 3, 0, 2 / 3]);
    expectPmf(exactAttack(plan({ skill: 2, sustainedHits: 1, hitModifier: 1, everyHitCritical: true }), 1, def()).hits, [1 / 6, 0, 5 / 6]);
  });

  it('LETHAL HITS + SUSTAINED HITS 1: only the Critical Hit itself auto-wounds', () => {
    // BS4+, S4 vs T4 (4+ = 1/2). Per attack:
    //   miss 1/2                           -> 0 wounds
    //   normal hit (4,5) 1/3               -> Bernoulli(1/2)
    //   Critical Hit (6) 1/6 -> 1 auto-wound + the extra hit rolls to wound: 1 + Bernoulli(1/2)
    // P(0) = 1/2 + 1/3*1/2 = 2/3; P(1) = 1/3*1/2 + 1/6*1/2 = 1/4; P(2) = 1/6*1/2 = 1/12; mean 5/12
    // (if the extra hit auto-wounded too the mean would be 1/6 + 2/6 = 1/2)
    const r = exactAttack(plan({ sustainedHits: 1, lethalHits: true }), 1, def());
    expectPmf(r.hits, [1 / 2, 1 / 3, 1 / 6]);
    expectPmf(r.wounds, [2 / 3, 1 / 4, 1 / 12]);
    expect(r.mean.wounds).toBeCloseTo(5 / 12, 14);
  });

  it('LETHAL HITS auto-wound is not a Critical Wound (no DEVASTATING WOUNDS from it)', () => {
    // BS4+, S4 T4, Sv2+ AP0 (fails 1/6), LETHAL + DEVASTATING.
    //   normal hit 1/3: Critical Wound 1/6 -> unsaved; normal wound 2/6 -> fails save 1/6: 1/6 + 1/3*1/6 = 2/9
    //   Critical Hit 1/6: auto-wound, normal save -> 1/6
    // P(unsaved) = 1/3 * 2/9 + 1/6 * 1/6 = 2/27 + 1/36 = 11/108
    const r = exactAttack(plan({ lethalHits: true, devastatingWounds: true }), 1, def({ save: 2 }));
    expectPmf(r.unsaved, [97 / 108, 11 / 108]);
    // wounds: 1/3 * 1/2 + 1/6 = 1/3
    expectPmf(r.wounds, [2 / 3, 1 / 3]);
  });

  it('TORRENT: every attack hits, no Critical Hits (sustained and lethal do nothing)', () => {
    // D6 attacks, all hit: hits pmf = D6 pmf; wounds: mean 3.5 * 1/2
    const d = def();
    const r = exactAttack(plan({ A: 'D6', autoHit: true, sustainedHits: 2, lethalHits: true }), 1, d);
    expectConsistent(r, d);
    expectPmf(r.hits, [0, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]);
    expect(r.mean.wounds).toBeCloseTo(3.5 / 2, 12);
    // P(0 wounds) = sum_n P(n) (1/2)^n = (1/6)(1/2 + 1/4 + ... + 1/64) = (1/6)(63/64)
    expect(r.wounds[0]).toBeCloseTo(63 / 384, 14);
  });

  it('re-roll hits: ones and failed; non-critical fishes for 6s', () => {
    // BS3+: 2/3. 'ones': 2/3 + 1/6 * 2/3 = 7/9. 'failed': 2/3 + 1/3 * 2/3 = 8/9
    expect(exactAttack(plan({ skill: 3, rerollHits: 'ones' }), 1, def()).mean.hits).toBeCloseTo(7 / 9, 14);
    expect(exactAttack(plan({ skill: 3, rerollHits: 'failed' }), 1, def()).mean.hits).toBeCloseTo(8 / 9, 14);
    // BS4+ SUSTAINED 1 re-rolling every non-6: crit 1/6 + 5/6*1/6 = 11/36, normal hit 5/6 * 2/6 = 10/36
    const r = exactAttack(plan({ sustainedHits: 1, rerollHits: 'non-critical' }), 1, def());
    expectPmf(r.hits, [15 / 36, 10 / 36, 11 / 36]);
  });

  it('hit modifiers are capped at +1/-1, an unmodified 1 fails and a 6 hits', () => {
    // BS4+ with +2 behaves as +1: 3+ = 2/3
    expect(exactAttack(plan({ hitModifier: 2 }), 1, def()).mean.hits).toBeCloseTo(2 / 3, 14);
    // BS2+ with +1: the 1 still fails: 5/6
    expect(exactAttack(plan({ skill: 2, hitModifier: 1 }), 1, def()).mean.hits).toBeCloseTo(5 / 6, 14);
    // BS5+ with -2 behaves as -1: only the 6 (a Critical Hit) = 1/6
    expect(exactAttack(plan({ skill: 5, hitModifier: -2 }), 1, def()).mean.hits).toBeCloseTo(1 / 6, 14);
    // BS6+ with -1: the unmodified 6 still hits: 1/6
    expect(exactAttack(plan({ skill: 6, hitModifier: -1 }), 1, def()).mean.hits).toBeCloseTo(1 / 6, 14);
  });

  it('rerollAttacks re-rolls results below the mean', () => {
    // D6: 1-3 re-rolled. P(v <= 3) = 1/2 * 1/6 = 1/12, P(v >= 4) = 1/6 + 1/2 * 1/6 = 1/4. mean = 6/12 + 15/4 = 4.25
    expectPmf(attacksPerModelPmf(plan({ A: 'D6', rerollAttacks: true })), [0, 1 / 12, 1 / 12, 1 / 12, 1 / 4, 1 / 4, 1 / 4]);
    // D3: a 1 is re-rolled: P(1) = 1/9, P(2) = P(3) = 1/3 + 1/9 = 4/9; + 1 bonus attack
    expectPmf(attacksPerModelPmf(plan({ A: 'D3', rerollAttacks: true, attacksBonus: 1 })), [0, 0, 1 / 9, 4 / 9, 4 / 9]);
    // fixed: never re-rolled
    expectPmf(attacksPerModelPmf(plan({ A: 3, rerollAttacks: true })), [0, 0, 0, 1]);
    // 2 models with D6 (re-rolled): mean 8.5
    expect(exactAttack(plan({ A: 'D6', rerollAttacks: true }), 2, def()).mean.attacks).toBeCloseTo(8.5, 12);
  });
});

describe('wound roll abilities', () => {
  it('DEVASTATING WOUNDS: Critical Wounds bypass every save, invulnerable included', () => {
    // BS3+ (2/3), S4 T4; Sv2+ AP-3 -> armour 5+, invulnerable 4+ is better -> save fails 1/2
    // P(unsaved) = 2/3 * (1/6 [crit, no save] + 2/6 * 1/2) = 2/3 * 1/3 = 2/9 (without DW: 2/3 * 1/2 * 1/2 = 1/6)
    const d = def({ save: 2, invulnerable: 4 });
    const r = exactAttack(plan({ A: 6, skill: 3, ap: -3, devastatingWounds: true }), 1, d);
    expectConsistent(r, d);
    expectPmf(r.unsaved, binPmf(6, 2 / 9));
    expect(r.unsaved[0]).toBeCloseTo((7 / 9) ** 6, 14);
    expect(r.mean.unsaved).toBeCloseTo(4 / 3, 12);
    expect(exactAttack(plan({ A: 6, skill: 3, ap: -3 }), 1, d).mean.unsaved).toBeCloseTo(1, 12);
  });

  it('ANTI-INFANTRY 4+ (criticalWoundOn 4) with DEVASTATING WOUNDS', () => {
    // BS4+ (1/2); S5 vs T4 -> 3+; 4,5,6 are Critical Wounds (1/2, no save), a 3 is a normal wound (1/6) vs Sv3+ AP0 (fails 1/3)
    // P(unsaved | hit) = 1/2 + 1/6 * 1/3 = 5/9; per attack 5/18
    const r = exactAttack(plan({ strength: 5, criticalWoundOn: 4, devastatingWounds: true }), 1, def());
    expectPmf(r.wounds, [1 / 2 + 1 / 2 * 1 / 3, 1 / 2 * 2 / 3]);
    expectPmf(r.unsaved, [13 / 18, 5 / 18]);
  });

  it('TWIN-LINKED as re-roll failed wounds; re-roll ones', () => {
    // 4+: 'failed' -> 1/2 + 1/2 * 1/2 = 3/4, of which Critical Wounds 1/6 + 1/2 * 1/6 = 1/4
    const [f, s, c] = rollProbabilities(4, 0, 6, 'failed');
    expect(f).toBeCloseTo(1 / 4, 14);
    expect(s).toBeCloseTo(1 / 2, 14);
    expect(c).toBeCloseTo(1 / 4, 14);
    // TORRENT so that hits = attacks: mean wounds per attack 3/4
    expect(exactAttack(plan({ autoHit: true, rerollWounds: 'failed' }), 1, def()).mean.wounds).toBeCloseTo(3 / 4, 14);
    // 'ones': 1/2 + 1/6 * 1/2 = 7/12
    expect(exactAttack(plan({ autoHit: true, rerollWounds: 'ones' }), 1, def()).mean.wounds).toBeCloseTo(7 / 12, 14);
  });

  it('wound modifiers are capped', () => {
    // 4+ with -2 -> 5+: 1/3; with +3 -> 3+: 2/3; S8 vs T4 (2+) with +1: the 1 fails: 5/6
    expect(exactAttack(plan({ autoHit: true, woundModifier: -2 }), 1, def()).mean.wounds).toBeCloseTo(1 / 3, 14);
    expect(exactAttack(plan({ autoHit: true, woundModifier: 3 }), 1, def()).mean.wounds).toBeCloseTo(2 / 3, 14);
    expect(exactAttack(plan({ autoHit: true, strength: 8, woundModifier: 1 }), 1, def()).mean.wounds).toBeCloseTo(5 / 6, 14);
  });
});

describe('saving throws', () => {
  // P(save fails) through the whole calculator: TORRENT, S8 vs T4 (2+: 5/6 wound), so P(unsaved) = 5/6 * fail
  const failOf = (o: Partial<AttackPlan>, d: Partial<DefenderProfile>) =>
    exactAttack(plan({ autoHit: true, strength: 8, ...o }), 1, def(d)).mean.unsaved / (5 / 6);

  it('cover: no help for a 3+ save against AP 0, +1 otherwise, never more than +1', () => {
    expect(failOf({ cover: true }, { save: 3 })).toBeCloseTo(2 / 6, 12); // 3+ stays 3+
    expect(failOf({ cover: true }, { save: 4 })).toBeCloseTo(2 / 6, 12); // 4+ -> 3+
    expect(failOf({ cover: true, ap: -1 }, { save: 3 })).toBeCloseTo(2 / 6, 12); // 4+ -> 3+
    expect(failOf({ ap: -1 }, { save: 3 })).toBeCloseTo(3 / 6, 12); // 4+ without cover
    // the cap is on the net modifier: cover +1, +1, AP -1 = +1 -> 4+ becomes 3+
    expect(failOf({ cover: true, saveModifier: 1, ap: -1 }, { save: 4 })).toBeCloseTo(2 / 6, 12);
    // cover +1 and +1 (net +2) improve a 5+ only to 4+
    expect(failOf({ cover: true, saveModifier: 1 }, { save: 5 })).toBeCloseTo(3 / 6, 12);
    expect(failOf({ cover: true, saveModifier: 1 }, { save: 2 })).toBeCloseTo(1 / 6, 12); // never better than 2+
  });

  it('the invulnerable save is used when better, and is not modified by AP or cover', () => {
    expect(failOf({ ap: -3 }, { save: 3, invulnerable: 5 })).toBeCloseTo(4 / 6, 12); // armour 6+, invuln 5+
    expect(failOf({}, { save: 2, invulnerable: 4 })).toBeCloseTo(1 / 6, 12); // armour 2+ is better
    expect(failOf({ ap: -2, cover: true }, { save: 6, invulnerable: 5 })).toBeCloseTo(4 / 6, 12); // armour 7+, invuln 5+ (no cover)
    expect(failOf({ ap: -1 }, noSave)).toBeCloseTo(1, 12); // 7+: no save
  });

  it('re-rolled saves ("non-critical" counts as "failed")', () => {
    // 4+ re-rolling failures: pass 1/2 + 1/2 * 1/2 = 3/4; ones: 1/2 + 1/6 * 1/2 = 7/12
    expect(savePassProbability(4, 'failed')).toBeCloseTo(3 / 4, 14);
    expect(savePassProbability(4, 'non-critical')).toBeCloseTo(3 / 4, 14);
    expect(savePassProbability(4, 'ones')).toBeCloseTo(7 / 12, 14);
    expect(failOf({ rerollSaves: 'failed' }, { save: 4 })).toBeCloseTo(1 / 4, 12);
  });
});

describe('damage, Feel No Pain, models destroyed', () => {
  it('MELTA 2 on D6 damage', () => {
    // 1 attack, TORRENT, S16 vs T8 (2+: 5/6), no save -> P(unsaved) = 5/6; damage D6+2 = 3..8 vs one W12 model
    const d = def({ models: 1, wounds: 12, ...noSave });
    const r = exactAttack(plan({ autoHit: true, strength: 16, toughness: 8, ap: -1, D: 'D6', damageBonus: 2 }), 1, d);
    expectConsistent(r, d);
    expectPmf(r.woundsLost, [1 / 6, 0, 0, 5 / 36, 5 / 36, 5 / 36, 5 / 36, 5 / 36, 5 / 36]);
    expect(r.mean.woundsLost).toBeCloseTo(5 / 6 * 5.5, 12); // 55/12
    expectPmf(r.modelsDestroyed, [1, 0]);
  });

  it('D6 damage vs W3 models: excess damage is lost (exact distribution)', () => {
    // 2 attacks, TORRENT, S8 vs T4 (5/6), no save: U ~ Bin(2, 5/6) = [1, 10, 25] / 36. Two models W3.
    // one D6 on a fresh W3 model: loses 1 (1/6), 2 (1/6), 3 and dies (4/6)
    // after 2 unsaved attacks (L = total wounds lost):
    //   first L=1 (1/6): second d=1 -> L=2 (1/6), d>=2 -> L=3 (5/6)
    //   first L=2 (1/6): any -> L=3
    //   first L=3 (4/6): second on the fresh model -> L=4 (1/6), 5 (1/6), 6 (4/6)
    //   => L: 2: 1/36, 3: 5/36 + 6/36 = 11/36, 4: 4/36, 5: 4/36, 6: 16/36
    // mixing over U (denominator 1296 = 36 * 36):
    //   L0 = 36; L1 = 10*6 = 60; L2 = 10*6 + 25*1 = 85; L3 = 10*24 + 25*11 = 515; L4 = 25*4 = 100; L5 = 100; L6 = 25*16 = 400
    //   models destroyed: 0 -> 36 + 60 + 85 = 181; 1 -> 515 + 100 + 100 = 715; 2 -> 400
    const d = def({ models: 2, wounds: 3, ...noSave });
    const r = exactAttack(plan({ A: 2, autoHit: true, strength: 8, ap: -1, D: 'D6' }), 1, d);
    expectConsistent(r, d);
    expectPmf(r.unsaved, [1 / 36, 10 / 36, 25 / 36]);
    expectPmf(r.woundsLost, [36, 60, 85, 515, 100, 100, 400].map((x) => x / 1296));
    expectPmf(r.modelsDestroyed, [181, 715, 400].map((x) => x / 1296));
    // a single W3 model: the second attack's damage is lost once it is destroyed
    // L: 1 -> 10*6 = 60, 2 -> 10*6 + 25*1 = 85, 3 -> 10*24 + 25*(11+4+4+16) = 240 + 875 = 1115
    const one = exactAttack(plan({ A: 2, autoHit: true, strength: 8, ap: -1, D: 'D6' }), 1, def({ models: 1, wounds: 3, ...noSave }));
    expectPmf(one.woundsLost, [36, 60, 85, 1115].map((x) => x / 1296));
  });

  it('Feel No Pain 5+ on D2 damage; the best FNP is used', () => {
    // 1 attack, TORRENT S8 vs T4 (5/6), no save; D2 vs W2: each point kept with 2/3:
    // kept 0: 1/9, 1: 4/9, 2: 4/9 -> L0 = 1/6 + 5/6 * 1/9 = 7/27, L1 = 5/6 * 4/9 = 10/27, L2 = 10/27
    const a = plan({ autoHit: true, strength: 8, ap: -1, D: 2 });
    const d = def({ models: 5, wounds: 2, feelNoPain: 5, ...noSave });
    const r = exactAttack(a, 1, d);
    expectConsistent(r, d);
    expectPmf(r.woundsLost, [7 / 27, 10 / 27, 10 / 27]);
    expectPmf(r.modelsDestroyed, [17 / 27, 10 / 27, 0, 0, 0, 0]);
    // the plan's FNP 6+ is worse than the model's 5+: same result
    expectPmf(exactAttack({ ...a, feelNoPain: 6 }, 1, d).woundsLost, [7 / 27, 10 / 27, 10 / 27]);
    // the plan's FNP 4+ is better: kept 1/2 per point -> 0: 1/4, 1: 1/2, 2: 1/4
    expectPmf(exactAttack({ ...a, feelNoPain: 4 }, 1, d).woundsLost, [1 / 6 + 5 / 24, 5 / 12, 5 / 24]);
    expectPmf(effectiveDamagePmf(a, 5), [1 / 9, 4 / 9, 4 / 9]);
  });

  it('damageReduction never takes damage below 1; halveDamage rounds up', () => {
    // D3 - 1: 1 -> 1 (floor 1), 2 -> 1, 3 -> 2
    expectPmf(effectiveDamagePmf(plan({ D: 'D3', damageReduction: 1 }), null), [0, 2 / 3, 1 / 3]);
    // 1 - 2 -> 1
    expectPmf(effectiveDamagePmf(plan({ D: 1, damageReduction: 2 }), null), [0, 1]);
    // D6 halved (up): 1,2 -> 1; 3,4 -> 2; 5,6 -> 3
    expectPmf(effectiveDamagePmf(plan({ D: 'D6', halveDamage: true }), null), [0, 1 / 3, 1 / 3, 1 / 3]);
    // halved then -1: 1 -> 1, 2 -> 1, 3 -> 2
    expectPmf(effectiveDamagePmf(plan({ D: 'D6', halveDamage: true, damageReduction: 1 }), null), [0, 2 / 3, 1 / 3]);
    // through the whole calculator: one TORRENT S8 attack, no save, D6 halved vs a W6 model: L = (1/6, 5/18, 5/18, 5/18)
    const r = exactAttack(plan({ autoHit: true, strength: 8, ap: -1, D: 'D6', halveDamage: true }), 1, def({ models: 1, wounds: 6, ...noSave }));
    expectPmf(r.woundsLost, [1 / 6, 5 / 18, 5 / 18, 5 / 18, 0, 0, 0]);
  });

  it('DEVASTATING WOUNDS mortal wounds: damage with excess lost, FNP applies', () => {
    // TORRENT, S4 T4, criticalWoundOn 6 + DW; Sv2+ AP0 with invulnerable 2+ (save fails 1/6).
    // P(unsaved) = 1/6 (crit) + 2/6 * 1/6 = 2/9; D3 vs W2 models: each unsaved loses min(D3, 2): 1 (1/3), 2 (2/3)
    const d = def({ models: 3, wounds: 2, save: 2, invulnerable: 2 });
    const r = exactAttack(plan({ autoHit: true, devastatingWounds: true, D: 'D3' }), 1, d);
    expectPmf(r.woundsLost, [7 / 9, 2 / 9 * 1 / 3, 2 / 9 * 2 / 3, 0, 0, 0, 0]);
  });
});

// ------------------------------------------------------------------------------------------------
// Independent brute force: enumerate every die of the whole sequence (odometer over the dice asked for)
// ------------------------------------------------------------------------------------------------

type Roller = (sides: number) => number;

/** The attack sequence written directly from the rules, one die at a time; returns [hits, wounds, unsaved, woundsLost, destroyed]. */
function playOut(p: AttackPlan, models: number, d: DefenderProfile, roll: Roller): number[] {
  const rollExpr = (e: { n: number; sides: number; plus: number }) => { let s = e.plus; for (let i = 0; i < e.n; i++) s += roll(e.sides); return s; };
  const mod = (m: number) => Math.max(-1, Math.min(1, m));
  const wt = p.strength >= 2 * p.toughness ? 2 : p.strength > p.toughness ? 3 : p.strength === p.toughness ? 4 : 2 * p.strength <= p.toughness ? 6 : 5;
  const test = (needed: number, m: number, crit: number, policy: string) => {
    const once = () => { const u = roll(6); return { u, o: u >= crit ? 2 : u === 1 ? 0 : u + m >= needed ? 1 : 0 }; };
    let r = once();
    const again = policy === 'ones' ? r.u === 1 : policy === 'failed' ? r.o === 0 : policy === 'non-critical' ? r.o !== 2 : false;
    if (again) r = once();
    return r.o;
  };
  let attacks = 0;
  const attacksMean = p.attacks.n * (p.attacks.sides + 1) / 2 + p.attacks.plus;
  for (let m = 0; m < models; m++) {
    let a = rollExpr(p.attacks);
    if (p.rerollAttacks && a < attacksMean) a = rollExpr(p.attacks); // policy: re-roll a result below the mean
    attacks += a + p.attacksBonus;
  }
  let hits = 0;
  const toWound: boolean[] = []; // true = auto-wound
  for (let i = 0; i < attacks; i++) {
    if (p.autoHit) { hits++; toWound.push(false); continue; }
    const o = test(p.skill, mod(p.hitModifier), p.criticalHitOn, p.rerollHits);
    if (o === 0) continue;
    if (o === 2) { hits += 1 + p.sustainedHits; toWound.push(p.lethalHits); for (let s = 0; s < p.sustainedHits; s++) toWound.push(false); }
    else { hits++; toWound.push(false); }
  }
  // save: armour (improvement at most +1, cover not for 3+ vs AP 0) or invulnerable, whichever is better
  const cover = p.cover && !(d.save <= 3 && p.ap === 0);
  const armour = d.save - Math.min(1, (cover ? 1 : 0) + Math.max(0, p.saveModifier)) - Math.min(0, p.saveModifier) - p.ap;
  const need = Math.max(2, Math.min(armour, d.invulnerable ?? 7));
  let wounds = 0;
  let normal = 0;
  let mortal = 0;
  for (const auto of toWound) {
    let crit = false;
    if (!auto) {
      const o = test(wt, mod(p.woundModifier), p.criticalWoundOn, p.rerollWounds);
      if (o === 0) continue;
      crit = o === 2;
    }
    wounds++;
    if (crit && p.devastatingWounds) { mortal++; continue; }
    if (need > 6) { normal++; continue; } // no save possible (no die rolled, to keep the enumeration small)
    let s = roll(6);
    const pass = (x: number) => x !== 1 && x >= need;
    if (!pass(s) && p.rerollSaves !== 'none' && (p.rerollSaves !== 'ones' || s === 1)) s = roll(6);
    if (!pass(s)) normal++;
  }
  const fnp = [d.feelNoPain, p.feelNoPain].filter((x): x is number => x !== null).reduce((a, b) => Math.min(a, b), 7);
  let destroyed = 0;
  let left = d.wounds;
  let lost = 0;
  for (let i = 0; i < normal + mortal; i++) { // normal attacks first, then the mortal wounds: same damage
    // halve first, then add, then subtract (rules commentary order)
    let dmg = rollExpr(p.damage);
    if (p.halveDamage) dmg = Math.ceil(dmg / 2);
    dmg = Math.max(1, dmg + p.damageBonus - p.damageReduction);
    let kept = 0;
    for (let k = 0; k < dmg; k++) if (fnp > 6 || roll(6) < fnp) kept++;
    if (destroyed === d.models) continue;
    const l = Math.min(left, kept);
    lost += l;
    left -= l;
    if (left === 0) { destroyed++; left = d.wounds; }
  }
  return [hits, wounds, normal + mortal, lost, destroyed];
}

function bruteForce(p: AttackPlan, models: number, d: DefenderProfile): number[][] {
  const out: number[][] = [[], [], [], [], []];
  const prefix: number[] = [];
  const sidesAt: number[] = [];
  for (;;) {
    let pos = 0;
    let prob = 1;
    const r = playOut(p, models, d, (sides) => {
      if (pos >= prefix.length) { prefix.push(1); sidesAt.push(sides); }
      prob /= sides;
      return prefix[pos++];
    });
    prefix.length = pos;
    sidesAt.length = pos;
    r.forEach((v, i) => { out[i][v] = (out[i][v] ?? 0) + prob; });
    // next sequence: increment the last die that can be incremented
    let j = prefix.length - 1;
    while (j >= 0 && prefix[j] === sidesAt[j]) j--;
    if (j < 0) break;
    prefix[j]++;
    prefix.length = j + 1;
    sidesAt.length = j + 1;
  }
  return out.map((a) => Array.from(a, (x) => x ?? 0));
}

describe('agreement with a brute-force enumeration of every die', () => {
  // (small cases: the enumeration grows exponentially with the number of dice)
  const cases: [string, AttackPlan, number, DefenderProfile][] = [
    ['sustained 2 + lethal + DW, D3 damage vs 2 W2, invulnerable', plan({ A: 1, skill: 3, sustainedHits: 2, lethalHits: true, devastatingWounds: true, D: 'D3', ap: -1 }), 1, def({ models: 2, wounds: 2, save: 4, invulnerable: 5 })],
    ['D3 attacks re-rolled, re-roll hits ones, twin-linked', plan({ A: 'D3', rerollAttacks: true, rerollHits: 'ones', rerollWounds: 'failed', strength: 8, ap: -1 }), 1, def({ models: 2, wounds: 1, ...noSave })],
    ['FNP 5+ on D2 vs 2 W3', plan({ A: 2, autoHit: true, strength: 8, ap: -1, D: 2 }), 1, def({ models: 2, wounds: 3, feelNoPain: 5, ...noSave })],
    ['two models, anti 4+ DW, re-roll saves ones, melta, damage reduction, +1 hit', plan({ A: 1, strength: 5, criticalWoundOn: 4, devastatingWounds: true, rerollSaves: 'ones', D: 'D3', damageBonus: 1, damageReduction: 1, hitModifier: 1 }), 2, def({ models: 2, wounds: 3, save: 3 })],
    ['torrent, non-critical wound re-rolls, crit wound 5+, halve damage, D6', plan({ A: 2, autoHit: true, rerollWounds: 'non-critical', D: 'D6', halveDamage: true, strength: 3, criticalWoundOn: 5 }), 1, def({ models: 3, wounds: 2, save: 6 })],
  ];
  for (const [name, p, m, d] of cases) {
    it(name, () => {
      const bf = bruteForce(p, m, d);
      const r = exactAttack(p, m, d);
      expectConsistent(r, d);
      // (the enumeration sums up to ~1e5 leaves: its own rounding is around 1e-12)
      expectPmf(r.hits, bf[0], 10);
      expectPmf(r.wounds, bf[1], 10);
      expectPmf(r.unsaved, bf[2], 10);
      expectPmf(r.woundsLost, bf[3], 10);
      expectPmf(r.modelsDestroyed, bf[4], 10);
    });
  }
});

describe('consistency on larger profiles', () => {
  const profiles: [string, AttackPlan, number, DefenderProfile][] = [
    ['20 models 2D6 attacks sustained 2, D6+1 vs 20 W3 FNP 5+', plan({ A: '2D6', skill: 3, sustainedHits: 2, D: 'D6+1', strength: 5 }), 20, def({ models: 20, wounds: 3, save: 4, feelNoPain: 5 })],
    ['10 models 2 attacks D3 vs 10 W2', plan({ A: 2, skill: 3, strength: 5, ap: -1, D: 'D3' }), 10, def({ models: 10, wounds: 2 })],
    ['melta vs a vehicle', plan({ A: 1, skill: 3, strength: 9, toughness: 10, ap: -4, D: 'D6', damageBonus: 2, devastatingWounds: true }), 2, def({ models: 1, wounds: 12, save: 3 })],
  ];
  for (const [name, p, m, d] of profiles) {
    it(name, () => {
      const r = exactAttack(p, m, d);
      expectConsistent(r, d);
      const e = expectedDamage(p, m, d);
      expect(e.meanWoundsLost).toBeCloseTo(r.mean.woundsLost, 9);
      expect(e.meanModelsDestroyed).toBeCloseTo(r.mean.modelsDestroyed, 9);
      // hits / wounds / unsaved means: product of the per-attack means
      const per = perAttackPmfs(p, d);
      expect(r.mean.hits).toBeCloseTo(r.mean.attacks * mean(per.hits), 9);
      expect(r.mean.unsaved).toBeCloseTo(r.mean.attacks * mean(per.unsaved), 9);
    });
  }

  it('zero attacking models', () => {
    const d = def();
    const r = exactAttack(plan({ A: 'D6' }), 0, d);
    expectConsistent(r, d);
    expect(r.modelsDestroyed[0]).toBe(1);
  });
});

describe('expectedDamage keeps its answers', () => {
  // a field the cache key left out would serve one plan's answer for another
  const same = (a: Float64Array, b: Float64Array) => a.every((x, i) => x === b[i]);
  const changed = (v: unknown): unknown[] => {
    if (v === null) return [5];
    if (typeof v === 'number') return [v + 1];
    if (typeof v === 'boolean') return [!v];
    if (typeof v === 'string') return [v === 'none' ? 'failed' : 'none'];
    const o = v as Record<string, number>;
    return Object.keys(o).map((k) => ({ ...o, [k]: o[k] + 1 }));
  };

  it('every field of the plan that is not a name, a tag or the Leaders PRECISION may pick, the models and each defender field change the inputs it keys on', () => {
    const p = plan({ A: 'D6', D: 2 });
    const d = def();
    const base = meanInputs(p, 5, d);
    let fields = 0;
    for (const k of Object.keys(p) as (keyof AttackPlan)[]) {
      // precisionOnly: which CHARACTER models the attacks may be sent to, for allocation; the calculator does not read it.
      // unmodifiedHitOn: the plan builder folds it into skill and hitModifier, which the calculator reads
      // deadlyDemiseOn: when a destroyed model's Deadly Demise goes off (other units' wounds), not the damage to the target
      // ignoreSkillModifiers: the plan builder folds it into skill too
      if (k === 'weapon' || k === 'profile' || k === 'tags' || k === 'precisionOnly' || k === 'unmodifiedHitOn' || k === 'deadlyDemiseOn' || k === 'ignoreSkillModifiers') continue;
      for (const v of changed(p[k])) {
        fields++;
        expect(same(meanInputs({ ...p, [k]: v } as AttackPlan, 5, d), base), `plan.${k} = ${JSON.stringify(v)}`).toBe(false);
      }
    }
    expect(fields).toBeGreaterThan(40);
    expect(same(meanInputs(p, 6, d), base)).toBe(false);
    for (const k of Object.keys(d) as (keyof DefenderProfile)[]) {
      for (const v of changed(d[k])) expect(same(meanInputs(p, 5, { ...d, [k]: v } as DefenderProfile), base), `defender.${k}`).toBe(false);
    }
    expect(same(meanInputs({ ...p, weapon: 'other', tags: ['x'], precisionOnly: ['m1'] }, 5, d), base)).toBe(true);
  });

  it('a cached answer is the computed one: the same plan asked again, and a plan that differs in one field', () => {
    const fresh = (p: AttackPlan, m: number, d: DefenderProfile) => ({ meanWoundsLost: mean(exactAttack(p, m, d).woundsLost), meanModelsDestroyed: mean(exactAttack(p, m, d).modelsDestroyed) });
    const a = plan({ A: 3, D: 'D3', ap: -1 });
    const b = { ...a, ap: -2 };
    for (const [p, m, d] of [[a, 4, def()], [a, 4, def()], [b, 4, def()], [a, 4, def({ save: 4 })], [b, 4, def()]] as const) {
      const got = expectedDamage(p, m, d);
      const want = fresh(p, m, d);
      expect(got.meanWoundsLost).toBeCloseTo(want.meanWoundsLost, 12);
      expect(got.meanModelsDestroyed).toBeCloseTo(want.meanModelsDestroyed, 12);
    }
    expect(expectedDamage(b, 4, def()).meanWoundsLost).toBeGreaterThan(expectedDamage(a, 4, def()).meanWoundsLost);
  });

  it('answers stay right past the cache\'s capacity (it starts again) and for plans asked before and after', () => {
    const plans: AttackPlan[] = [];
    for (let A = 1; A <= 20; A++) for (let skill = 2; skill <= 6; skill++) for (let strength = 1; strength <= 12; strength++) for (const ap of [0, -1, -2, -3, -4]) plans.push(plan({ A, skill, strength, ap }));
    expect(plans.length).toBeGreaterThan(5000);
    const first = plans.map((p) => expectedDamage(p, 2, def()).meanWoundsLost);
    for (let i = 0; i < plans.length; i += 97) {
      const want = mean(exactAttack(plans[i], 2, def()).woundsLost);
      expect(first[i], `plan ${i}`).toBeCloseTo(want, 12);
      expect(expectedDamage(plans[i], 2, def()).meanWoundsLost, `plan ${i} again`).toBeCloseTo(want, 12);
    }
  });
});
