/**
 * EXPLOSIVE CLEARANCE (Boarding Actions): one model's [BLAST] weapon is freed of close quarters for the
 * phase (src/rules/battle/boarding.ts): Blast counts every model of the target, and its attacks may be
 * allocated to models the firing model does not see. The agent's damage estimates do not see close
 * quarters, so the price is the difference counted here, for each model and Blast weapon, at the enemy
 * unit the weapon would likely be fired at (of those the firing unit sees, the one the whole weapon's
 * estimate is highest against; the agent picks targets weapon by weapon, attacks.ts): that model's
 * estimate as it is (every model counted) against the same with Blast counting only the models it sees
 * and the damage no more than those models are worth (none when it sees none: its attacks would be lost).
 */
import './registries.ts';
import type { UnitState } from '../../src/core/state.ts';
import { enemyUnits, pointsPerWound, weaponEstimate, weaponUses, type WeaponUse } from '../../src/ai/evaluate.ts';
import { profileHas } from '../../src/data/datasheet.ts';
import { perVersion } from '../../src/ai/memo.ts';
import { modelBody, modelsSee, unitSees } from '../../src/rules/battle/world.ts';
import { blastWeapons } from '../../src/rules/stratagems/boarding-actions.ts';
import type { Ctx } from './context.ts';

export interface ClearanceChoice { gain: number; index: number }

/** The model and Blast weapon (an index into `blastWeapons`) the stratagem gains most with, and that gain. */
export function explosiveClearanceChoice(c: Ctx, u: UnitState): ClearanceChoice {
  return perVersion(c.state, `xc|${c.me}|${u.id}`, () => {
    const s = c.state;
    const pairs = blastWeapons(s, u);
    const uses = weaponUses(s, u, false);
    const targets = enemyUnits(s, c.me).filter((e) => unitSees(s, u, e));
    // each Blast weapon's likely target, once for all the models that carry it
    const targetOf = new Map<WeaponUse, UnitState | null>();
    const likelyTarget = (use: WeaponUse): UnitState | null => {
      let e = targetOf.get(use);
      if (e !== undefined) return e;
      e = null;
      let most = 0;
      for (const t of targets) {
        const v = weaponEstimate(s, u, use, t, { inRangeOnly: true }).value;
        if (v > most) { most = v; e = t; }
      }
      targetOf.set(use, e);
      return e;
    };
    let best: ClearanceChoice = { gain: 0, index: 0 };
    pairs.forEach((pair, index) => {
      const m = u.models.find((x) => x.id === pair.model);
      if (!m?.pos) return;
      const body = modelBody(s, m);
      for (const use of uses) {
        if (use.weapon.name !== pair.weapon || !use.models.includes(m) || !profileHas(use.profile, 'BLAST')) continue;
        const e = likelyTarget(use);
        if (!e) continue;
        const one = { ...use, models: [m] };
        const free = weaponEstimate(s, u, one, e, { inRangeOnly: true }).value;
        let all = 0, seen = 0, seenWounds = 0;
        for (const t of e.models) {
          if (!t.alive || !t.pos) continue;
          all++;
          if (modelsSee(s, body, m.id, modelBody(s, t), t.id)) { seen++; seenWounds += t.wounds; }
        }
        const fewer = Math.floor(all / 5) - Math.floor(seen / 5);
        const blastCut = fewer > 0 ? weaponEstimate(s, u, one, e, { inRangeOnly: true, tweak: (p) => { p.attacksBonus -= fewer; } }).value : free;
        const close = seen === 0 ? 0 : Math.min(seenWounds * pointsPerWound(s, e), blastCut);
        if (free - close > best.gain) best = { gain: free - close, index };
      }
    });
    return best;
  });
}
