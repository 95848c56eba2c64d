import { describe, expect, it } from 'vitest';
import { forEachActiveRule, registerRule, type RuleSource } from '../../src/core/rules-registry.ts';
import { emptyGameState, type UnitState } from '../../src/core/state.ts';

// Rules of this test only (the registry is global: names no real rule has)
registerRule({ name: 'test: outer ability', kind: 'datasheet-ability' });
registerRule({ name: 'test: inner ability', kind: 'datasheet-ability' });
registerRule({ name: 'test: army rule', kind: 'army-rule' });
registerRule({ name: 'test: effect', kind: 'effect' });

const unit = (id: string, player: 0 | 1, abilities: string[]) => ({ id, player, abilities }) as unknown as UnitState;

describe('forEachActiveRule', () => {
  it('walks the unit\'s abilities, its army\'s rules and the effects on it, each with its source', () => {
    const s = emptyGameState();
    const a = unit('a', 0, ['test: outer ability', 'not a registered rule']);
    s.players[0].rules = ['test: army rule'];
    s.effects = [
      { id: 1, kind: 'test: effect', player: 1, unit: 'a', params: {} },
      { id: 2, kind: 'test: effect', player: 0, unit: 'b', params: {} },
      { id: 3, kind: 'test: effect', player: 0, unit: null, params: {} },
    ] as never;
    const seen: string[] = [];
    forEachActiveRule(s, a, 'attacker', (r, src) => seen.push(`${r.name}|${src.role}|${src.player}|${src.unit?.id ?? '-'}|${src.effect?.id ?? '-'}`));
    expect(seen).toEqual([
      'test: outer ability|attacker|0|a|-',
      'test: army rule|attacker|0|-|-',
      'test: effect|attacker|0|a|1',
      'test: effect|attacker|0|a|3',
    ]);
  });

  it('a walk inside a hook (another unit\'s rules) leaves the outer walk\'s source as it was', () => {
    // the source objects are reused between walks: a nested walk must get its own
    const s = emptyGameState();
    const a = unit('a', 0, ['test: outer ability', 'test: outer ability']);
    const b = unit('b', 1, ['test: inner ability']);
    const outer: string[] = [];
    const inner: string[] = [];
    forEachActiveRule(s, a, 'attacker', (_r, src: RuleSource) => {
      forEachActiveRule(s, b, 'defender', (r2, src2) => inner.push(`${r2.name}|${src2.role}|${src2.player}|${src2.unit?.id}`));
      outer.push(`${src.role}|${src.player}|${src.unit?.id}`);
    });
    expect(outer).toEqual(['attacker|0|a', 'attacker|0|a']);
    expect(inner).toEqual(['test: inner ability|defender|1|b', 'test: inner ability|defender|1|b']);
  });
});
