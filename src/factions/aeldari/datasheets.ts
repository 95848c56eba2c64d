/**
 * Aeldari datasheet abilities, one registry entry each (by the ability's name on the datasheet).
 */
import { registerRule } from '../../core/rules-registry.ts';
import { isWhollyWithinOfBody } from '../../geometry/distance.ts';
import { embark, passengers, fitsIn } from '../../rules/battle/transports.ts';
import { onBattlefield, unitsOnBattlefield } from '../../rules/battle/units.ts';
import { isEngaged, modelBody } from '../../rules/battle/world.ts';

/**
 * Starweaver's Rapid Embarkation: at the end of the Fight phase, if nothing is embarked within it, a
 * friendly HARLEQUINS INFANTRY unit of 6 or fewer models wholly within 6" of it, not within Engagement
 * Range, can embark.
 */
registerRule({
  name: 'Rapid Embarkation', kind: 'datasheet-ability',
  phaseEnd(g, unit, phase) {
    const s = g.state;
    if (phase !== 'fight' || !onBattlefield(unit) || passengers(g, unit).length > 0) return;
    const hull = unit.models.find((m) => m.alive && m.pos);
    if (!hull) return;
    const hb = modelBody(s, hull);
    const candidates = unitsOnBattlefield(s, unit.player).filter((u) =>
      u.id !== unit.id && u.keywords.includes('HARLEQUINS') && u.keywords.includes('INFANTRY') &&
      u.models.filter((m) => m.alive).length <= 6 && !isEngaged(s, u) && fitsIn(g, u, unit) &&
      u.models.every((m) => !m.alive || (m.pos !== null && isWhollyWithinOfBody(modelBody(s, m), hb, 6))));
    if (candidates.length === 0) return;
    const { option } = g.decide<{ none: true } | { unit: string }>({
      kind: 'rapid-embarkation', player: unit.player, prompt: `${unit.name}: Rapid Embarkation?`,
      options: [{ none: true }, ...candidates.map((u) => ({ unit: u.id }))], context: { transport: unit.id },
    });
    if ('unit' in option) embark(g, s.units[option.unit], unit);
  },
});

