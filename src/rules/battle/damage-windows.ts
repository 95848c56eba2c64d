/**
 * The windows damage opens: "just after a model was destroyed" (before it is removed), "just after a unit
 * was destroyed" and "just after a mortal wound is allocated". They are opened from the damage step
 * through its listeners, so the damage code does not depend on stratagems.
 */
import type { Game } from '../../core/game.ts';
import type { PlayerIndex } from '../../core/state.ts';
import { onModelDestroyed, onMortalWoundAllocated, onUnitDestroyed } from '../damage.ts';
import { stratagemsOf } from '../stratagems/registry.ts';
import { openWindow } from '../windows.ts';

/** Does either player have a stratagem for a model's destruction (FAIL-SAFE DETONATOR)? Most games have none, and models die often. */
function modelWindowUsed(g: Game): boolean {
  for (const p of [0, 1] as PlayerIndex[]) if (stratagemsOf(g, p).some((s) => s.windows.includes('model/destroyed'))) return true;
  return false;
}

onModelDestroyed((g, unit, model) => {
  if (modelWindowUsed(g)) openWindow(g, { name: 'model/destroyed', unit: unit.id, targets: [], data: { model: model.id } });
}, true);

onUnitDestroyed((g, _unit, component, by) => {
  openWindow(g, { name: 'unit/destroyed', unit: component, targets: [], data: { by } });
});

onMortalWoundAllocated((g, unit) => {
  openWindow(g, { name: 'damage/mortal-wound-allocated', unit: unit.id, targets: [] });
});
