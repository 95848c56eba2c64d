/**
 * Stone of Eldritch Fury: "Add 12" to the Range characteristic of ranged Psychic weapons equipped by the BEARER."
 * A Farseer with the Stone and a singing spear leads a Warlock Conclave whose Warlocks carry singing spears too:
 * only the Farseer's spear should reach 24"; the Warlocks' stay at 12".
 */
import { describe, expect, it } from 'vitest';
import { battleSandbox, scriptedAgent } from '../helpers/battle.ts';
import { scriptedStream } from '../helpers/scripted.ts';
import { weaponRange } from '../../src/core/rules-registry.ts';
import { shootWithUnit } from '../../src/rules/battle/shooting.ts';

function game() {
  const g = battleSandbox([
    { id: 'FS', player: 0, faction: 'aeldari', name: 'Farseer', at: { x: 10, y: 10 }, enhancement: 'Stone of Eldritch Fury' },
    { id: 'WC', player: 0, faction: 'aeldari', name: 'Warlock Conclave', at: { x: 10, y: 12 }, spacing: 1.2 },
    { id: 'ST', player: 1, faction: 'tau', name: 'Strike Team', at: { x: 30, y: 10 }, spacing: 0.9 },
  ], { factions: ['AE', 'TAU'], phase: 'shooting', turn: 0, detachments: ['Seer Council', null], agents: [scriptedAgent('ae'), scriptedAgent('tau')], stream: scriptedStream(new Array(400).fill(4)) });
  g.state.units.FS.models[0].weapons = ['Singing spear'];
  for (const m of g.state.units.WC.models) m.weapons = ['Singing spear'];
  g.emit({ type: 'unit-attached', leader: 'FS', bodyguard: 'WC' });
  return g;
}

describe('Stone of Eldritch Fury (bearer only)', () => {
  it('the Warlocks\' own singing spears keep their 12" Range', () => {
    const g = game();
    const s = g.state;
    const warlock = s.units.WC.models.find((m) => s.datasheets[m.datasheet].name === 'Warlock Conclave')!;
    const spear = s.datasheets[warlock.datasheet].weapons.find((w) => w.name === 'Singing spear')!.profiles[0];
    const farseer = s.units.WC.models.find((m) => m.origin === 'FS')!;
    expect(weaponRange(s, s.units.WC, spear, warlock)).toBe(12);
    expect(weaponRange(s, s.units.WC, spear, farseer)).toBe(24);
    // the unit's reach (no model named): its longest, the bearer's
    expect(weaponRange(s, s.units.WC, spear)).toBe(24);
  });

  it('shooting at a unit ~19" away: only the Farseer (1 attack) may fire its spear', () => {
    const g = game();
    shootWithUnit(g, g.state.units.WC);
    const hitDice = (g.log ?? []).filter((e) => e.type === 'dice' && (e as { purpose?: string }).purpose === 'hit')
      .reduce((n, e) => n + ((e as { values?: number[] }).values?.length ?? 0), 0);
    expect(hitDice).toBe(1);
  });
});
