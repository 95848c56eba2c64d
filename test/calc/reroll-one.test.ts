/**
 * "Re-roll one Hit roll" / "re-roll one Wound roll" / "re-roll one Damage roll" (Soulsight, Unparalleled
 * Foresight) in the exact calculator: small cases worked out by hand, and the calculator's own input path sampled through the
 * dice pipeline, which plays the rule die by die.
 */
import { describe, expect, it } from 'vitest';
import { basePlan, type AttackPlan } from '../../src/rules/attack-plan.ts';
import { parseDiceExpr } from '../../src/core/dice-expr.ts';
import { exactAttack, type DefenderProfile } from '../../src/calc/exact.ts';
import { parseCalcInput } from '../../src/calc/input.ts';
import { buildScene, exactForInput, simulate } from '../../src/calc/simulate.ts';

const dx = (s: string | number) => parseDiceExpr(s)!;

function plan(o: Partial<AttackPlan> & { A?: string | number } = {}): AttackPlan {
  const { A = 1, ...rest } = o;
  const p = basePlan({ weapon: 'w', profile: 'p', melee: false, attacks: dx(A), skill: 4, strength: 4, ap: 0, damage: dx(1), toughness: 4 });
  return { ...p, ...rest };
}

const def = (o: Partial<DefenderProfile> = {}): DefenderProfile => ({ models: 10, save: 7, invulnerable: null, wounds: 1, feelNoPain: null, ...o });
const ONE_HIT = { hit: 1, wound: 0, damage: 0 };
const ONE_WOUND = { hit: 0, wound: 1, damage: 0 };

function expectPmf(actual: number[], expected: number[], digits = 12) {
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) expect(actual[i] ?? 0, `index ${i}`).toBeCloseTo(expected[i] ?? 0, digits);
}

describe('exact calculator: re-roll one Hit / Wound roll', () => {
  it('two attacks hitting on 4+: only one of two misses is rolled again', () => {
    // both miss (1/4), and the one re-roll misses too (1/2): P(0) = 1/8
    // P(2) = 1/4 (both hit) + 2 * 1/4 * 1/2 (one missed, its re-roll hits) = 1/2; P(1) = 1 - 1/8 - 1/2
    const r = exactAttack(plan({ A: 2, rerollOne: ONE_HIT }), 1, def());
    expectPmf(r.hits, [1 / 8, 3 / 8, 1 / 2]);
    // no re-roll would give [1/4, 1/2, 1/4]: mean 1 vs 1.375 with it
    expect(r.mean.hits).toBeCloseTo(1.375, 12);
  });

  it('a die the plan already re-rolled (re-roll 1s) is not rolled a third time', () => {
    // one attack hitting on 4+ with re-roll 1s: a 1 is re-rolled once (then stays), a 2 or 3 may take the
    // one re-roll. P(hit) = 3/6 + 1/6 * 1/2 + 2/6 * 1/2 = 3/4
    const r = exactAttack(plan({ A: 1, rerollHits: 'ones', rerollOne: ONE_HIT }), 1, def());
    expect(r.mean.hits).toBeCloseTo(3 / 4, 12);
    // with "re-roll failed Hit rolls" there is nothing left to re-roll: the same as without
    const all = exactAttack(plan({ A: 3, rerollHits: 'failed', rerollOne: ONE_HIT }), 1, def());
    const plain = exactAttack(plan({ A: 3, rerollHits: 'failed' }), 1, def());
    expectPmf(all.hits, plain.hits, 14);
  });

  it('the Wound roll re-roll takes the first failed Wound roll of the whole volley', () => {
    // auto-hits (TORRENT), 2 attacks wounding on 4+, no save: P(0 wounds) = 1/4 * 1/2 = 1/8, P(2) = 1/2
    const r = exactAttack(plan({ A: 2, autoHit: true, rerollOne: ONE_WOUND }), 1, def());
    expectPmf(r.wounds, [1 / 8, 3 / 8, 1 / 2]);
    expectPmf(r.unsaved, [1 / 8, 3 / 8, 1 / 2]);
  });

  it('both re-rolls together: one Hit and one Wound roll, in that order', () => {
    // one attack, hit 4+, wound 4+, no save: P(hit) = 3/4 (the Hit re-roll), then P(wound | hit) = 3/4
    const r = exactAttack(plan({ A: 1, rerollOne: { hit: 1, wound: 1, damage: 0 } }), 1, def());
    expect(r.mean.wounds).toBeCloseTo(9 / 16, 12);
    // two models of one attack each share the re-rolls: worked by enumerating the 4 dice
    const two = exactAttack(plan({ A: 1, rerollOne: { hit: 1, wound: 1, damage: 0 } }), 2, def());
    expect(two.mean.wounds).toBeCloseTo(enumerate(2, 1, 1), 12);
  });

  it('sustained hits and lethal hits keep their meaning with the re-rolls', () => {
    // a Critical Hit from the re-rolled die still makes 2 hits (SUSTAINED HITS 1); a lethal hit has no Wound roll
    const r = exactAttack(plan({ A: 1, sustainedHits: 1, rerollOne: ONE_HIT }), 1, def());
    // P(crit) = 1/6 + 3/6 * 1/6 = 1/4; P(normal hit) = 2/6 + 3/6 * 2/6 = 1/2
    expectPmf(r.hits, [1 / 4, 1 / 2, 1 / 4]);
    const lethal = exactAttack(plan({ A: 1, lethalHits: true, rerollOne: ONE_WOUND }), 1, def());
    // wounds: crit 1/6 auto; normal hit 2/6 wounds 1/2 + 1/2 * 1/2 = 3/4
    expect(lethal.mean.wounds).toBeCloseTo(1 / 6 + (2 / 6) * (3 / 4), 12);
  });

  it('the pmfs stay pmfs over a random number of attacks and several models', () => {
    const r = exactAttack(plan({ A: 'D6', sustainedHits: 2, rerollHits: 'ones', rerollOne: { hit: 1, wound: 1, damage: 0 } }), 5, def({ save: 4 }));
    for (const k of ['hits', 'wounds', 'unsaved', 'woundsLost', 'modelsDestroyed'] as const) {
      expect(Math.abs(r[k].reduce((a, b) => a + b, 0) - 1), k).toBeLessThan(1e-9);
      expect(r[k].every((x) => x >= 0), k).toBe(true);
    }
  });
});

/**
 * Mean wounds of n attacks hitting and wounding on 4+ (no crits that matter: BS/WS 4+, S = T, 1 damage),
 * with kh Hit and kw Wound dice re-rollable, by brute force over every die as a fair coin.
 */
function enumerate(n: number, kh: number, kw: number): number {
  const bits = n + kh + n + kw;
  let total = 0;
  for (let x = 0; x < 1 << bits; x++) {
    let at = 0;
    const coin = () => ((x >> at++) & 1) === 1;
    const hit = Array.from({ length: n }, coin);
    for (let r = 0, i = 0; r < kh; r++) {
      while (i < n && hit[i]) i++;
      const c = coin(); // consume the coin even when nothing is left to re-roll, so every bit is used once
      if (i < n) { hit[i] = c; i++; }
    }
    const wound = hit.map((h) => { const c = coin(); return h && c; });
    for (let r = 0, i = 0; r < kw; r++) {
      while (i < n && (!hit[i] || wound[i])) i++;
      const c = coin();
      if (i < n) { wound[i] = c; i++; }
    }
    total += wound.filter(Boolean).length;
  }
  return total / 2 ** bits;
}
// note: a fair coin per die is exact for "4+" with no Critical effects: P(success) = 1/2 either way

describe('several "re-roll one" rules stack: each re-rolls a different die (Crystal Matrix + SOULSIGHT)', () => {
  for (const [n, kh, kw] of [[1, 1, 1], [2, 1, 1], [3, 2, 0], [3, 0, 2], [3, 2, 2], [2, 2, 1], [4, 3, 2]] as const) {
    it(`${n} attacks, ${kh} Hit and ${kw} Wound re-rolls: the exact mean wounds match brute force`, () => {
      const r = exactAttack(plan({ A: n, rerollOne: { hit: kh, wound: kw, damage: 0 } }), 1, def());
      expect(r.mean.wounds).toBeCloseTo(enumerate(n, kh, kw), 12);
      expect(Math.abs(r.wounds.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
    });
  }

  it('two Hit re-rolls on three attacks: the whole pmf', () => {
    // m misses ~ Binomial(3, 1/2); min(m, 2) are re-rolled, each hits half the time
    const r = exactAttack(plan({ A: 3, rerollOne: { hit: 2, wound: 0, damage: 0 } }), 1, def());
    const pmf = [0, 0, 0, 0];
    const bin3 = [1 / 8, 3 / 8, 3 / 8, 1 / 8];
    for (let m = 0; m <= 3; m++) {
      const k = Math.min(m, 2);
      for (let h = 0; h <= k; h++) pmf[3 - m + h] += bin3[m] * [[1], [1 / 2, 1 / 2], [1 / 4, 1 / 2, 1 / 4]][k][h];
    }
    expectPmf(r.hits, pmf);
  });

  it('with budgets of 1 the several-re-rolls path and the one-re-roll formula agree', () => {
    // (2, 1) goes through the general path; its Wound part alone must equal the formula's (1, 1) when
    // there is nothing to re-roll on the Hit side (TORRENT: no Hit roll)
    const general = exactAttack(plan({ A: 'D6', autoHit: true, sustainedHits: 1, rerollOne: { hit: 2, wound: 1, damage: 0 } }), 3, def({ save: 5 }));
    const formula = exactAttack(plan({ A: 'D6', autoHit: true, sustainedHits: 1, rerollOne: { hit: 1, wound: 1, damage: 0 } }), 3, def({ save: 5 }));
    expectPmf(general.unsaved, formula.unsaved, 12);
    expectPmf(general.woundsLost, formula.woundsLost, 12);
  });
});

describe('exact calculator: re-roll one Damage roll', () => {
  /**
   * Wounds-lost pmf by enumeration: n attacks that each get through with probability q (so the number
   * of unsaved attacks is Binomial(n, q)); every sequence of Damage dice is listed, the lowest die (the
   * first of equal lowest) rolled again when below average if `reroll`, then each attack's damage
   * (face + plus, Feel No Pain per point) is applied in order, the excess over the current model lost.
   */
  function enumerate(n: number, q: number, sides: number, plus: number, models: number, wounds: number, fnp: number | null, reroll: boolean): number[] {
    const S = models * wounds;
    const out = new Array<number>(S + 1).fill(0);
    const keep = fnp === null ? 1 : (fnp - 1) / 6;
    // pmf of the wounds one attack of damage d makes the model lose: Binomial(d, keep)
    const kept = (d: number): number[] => {
      const pmf = new Array<number>(d + 1).fill(0);
      for (let k = 0, c = 1; k <= d; k++, c = (c * (d - k + 1)) / k) pmf[k] = c * keep ** k * (1 - keep) ** (d - k);
      return pmf;
    };
    // distribution of L after applying the damages in order, from L = 0
    const play = (faces: number[], weight: number) => {
      let dist = new Map<number, number>([[0, 1]]);
      for (const f of faces) {
        const next = new Map<number, number>();
        for (const [L, p] of dist) {
          kept(f + plus).forEach((pk, k) => {
            const boundary = L >= S ? S : (Math.floor(L / wounds) + 1) * wounds;
            const to = L >= S ? S : Math.min(L + k, boundary);
            next.set(to, (next.get(to) ?? 0) + p * pk);
          });
        }
        dist = next;
      }
      for (const [L, p] of dist) out[L] += weight * p;
    };
    const choose = (a: number, b: number) => { let c = 1; for (let i = 0; i < b; i++) c = (c * (a - i)) / (i + 1); return c; };
    for (let u = 0; u <= n; u++) {
      const pu = choose(n, u) * q ** u * (1 - q) ** (n - u);
      const faces = new Array<number>(u).fill(1);
      for (;;) {
        let low = -1;
        for (let i = 0; i < u; i++) if (low < 0 || faces[i] < faces[low]) low = i;
        const w = pu / sides ** u;
        if (reroll && low >= 0 && 2 * faces[low] < sides + 1) {
          for (let f = 1; f <= sides; f++) play(faces.map((x, i) => (i === low ? f : x)), w / sides);
        } else play(faces, w);
        let i = 0;
        while (i < u && faces[i] === sides) faces[i++] = 1;
        if (i === u) break;
        faces[i]++;
      }
    }
    return out;
  }

  // hits on 4+, wounds on 4+ (S4 vs T4), no save: each attack gets through with probability 1/4
  const cases = [
    { name: 'D6 Damage, four attacks, against three models of 3 wounds (excess lost)', A: 4, damage: 'D6', sides: 6, plus: 0, models: 3, wounds: 3, fnp: null },
    { name: 'D3+1 Damage, three attacks, against two models of 2 wounds with Feel No Pain 5+', A: 3, damage: 'D3+1', sides: 3, plus: 1, models: 2, wounds: 2, fnp: 5 },
    { name: 'D6 Damage, two attacks, against one model of 12 wounds', A: 2, damage: 'D6', sides: 6, plus: 0, models: 1, wounds: 12, fnp: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = def({ models: c.models, wounds: c.wounds, feelNoPain: c.fnp });
      const withReroll = exactAttack(plan({ A: c.A, damage: dx(c.damage), rerollOne: { hit: 0, wound: 0, damage: 1 } }), 1, d);
      expectPmf(withReroll.woundsLost, enumerate(c.A, 0.25, c.sides, c.plus, c.models, c.wounds, c.fnp, true), 12);
      // control: the enumeration without the re-roll is the plain calculator, and the re-roll changes it
      const plain = exactAttack(plan({ A: c.A, damage: dx(c.damage) }), 1, d);
      expectPmf(plain.woundsLost, enumerate(c.A, 0.25, c.sides, c.plus, c.models, c.wounds, c.fnp, false), 12);
      expect(withReroll.mean.woundsLost - plain.mean.woundsLost).toBeGreaterThan(0.01);
    });
  }

  it('a re-roll of every Damage roll below average leaves nothing for the one re-roll (as the pipeline plays it)', () => {
    const d = def({ models: 2, wounds: 6 });
    const all = exactAttack(plan({ A: 3, damage: dx('D6'), rerollDamage: true }), 1, d);
    const both = exactAttack(plan({ A: 3, damage: dx('D6'), rerollDamage: true, rerollOne: { hit: 0, wound: 0, damage: 1 } }), 1, d);
    expectPmf(both.woundsLost, all.woundsLost, 14);
  });
});

describe('re-roll one, sampled through the dice pipeline (calculator input)', () => {
  const TRIALS = 6000;
  const inputs = [
    {
      name: 'one Damage re-roll: two D6-Damage shots BS3+ at a vehicle of 12 wounds',
      json: {
        attacker: { models: 2, weapon: { range: 48, attacks: 2, skill: 3, strength: 9, ap: -3, damage: 'D6', abilities: [] }, modifiers: { rerollOneDamage: 1 } },
        defender: { models: 1, toughness: 9, save: 3, wounds: 12 },
      },
    },
    {
      name: 'one Damage re-roll: D3-Damage shots at models of 2 wounds with Feel No Pain 6+',
      json: {
        attacker: { models: 3, weapon: { range: 24, attacks: 3, skill: 3, strength: 6, ap: -1, damage: 'D3', abilities: [] }, modifiers: { rerollOneDamage: 1 } },
        defender: { models: 5, toughness: 4, save: 4, wounds: 2, feelNoPain: 6 },
      },
    },
    {
      name: 'BS3+ D6 shots, re-roll 1s to hit, one Hit and one Wound re-roll, vs W2 Sv4+',
      json: {
        attacker: { models: 3, weapon: { range: 24, attacks: 'D6', skill: 3, strength: 5, ap: -1, damage: 'D3', abilities: ['SUSTAINED HITS 1'] }, modifiers: { rerollHits: 'ones', rerollOneHit: 1, rerollOneWound: 1 } },
        defender: { models: 6, toughness: 4, save: 4, wounds: 2 },
      },
    },
    {
      name: 'one big gun: one shot BS4+, lethal hits, one Hit and one Wound re-roll vs a vehicle',
      json: {
        attacker: { models: 1, weapon: { range: 48, attacks: 2, skill: 4, strength: 9, ap: -3, damage: 'D6', abilities: ['LETHAL HITS'] }, modifiers: { rerollOneHit: 1, rerollOneWound: 1 } },
        defender: { models: 1, toughness: 10, save: 3, wounds: 12 },
      },
    },
    {
      name: 'two Hit and two Wound re-rolls (a Fire Prism with SOULSIGHT): D6 shots BS3+, sustained hits and lethal hits',
      json: {
        attacker: { models: 2, weapon: { range: 24, attacks: 'D6', skill: 3, strength: 6, ap: -2, damage: 2, abilities: ['SUSTAINED HITS 1', 'LETHAL HITS'] }, modifiers: { rerollOneHit: 2, rerollOneWound: 2 } },
        defender: { models: 5, toughness: 7, save: 3, wounds: 3 },
      },
    },
  ];
  for (const c of inputs) {
    it(c.name, () => {
      const input = parseCalcInput(c.json);
      const scene = buildScene(input, `reroll-one ${c.name}`);
      const m = c.json.attacker.modifiers as { rerollOneHit?: number; rerollOneWound?: number; rerollOneDamage?: number };
      expect([scene.plan.rerollOne.hit, scene.plan.rerollOne.wound, scene.plan.rerollOne.damage]).toEqual([m.rerollOneHit ?? 0, m.rerollOneWound ?? 0, m.rerollOneDamage ?? 0]);
      const exact = exactForInput(input, scene);
      const sim = simulate(input, TRIALS, `reroll-one ${c.name}`, scene);
      const check = (k: 'hits' | 'wounds' | 'unsaved' | 'woundsLost', sample: number) => {
        const pmf = exact[k];
        const m = exact.mean[k];
        const se = Math.sqrt(pmf.reduce((s, q, i) => s + q * (i - m) ** 2, 0) / TRIALS);
        expect(Math.abs(sample - m), `${k}: sample ${sample} vs exact ${m} (se ${se})`).toBeLessThanOrEqual(4 * se);
      };
      check('hits', sim.meanHits);
      check('wounds', sim.meanWounds);
      check('unsaved', sim.meanUnsaved);
      check('woundsLost', sim.meanDamage);
    });
  }
});
