/**
 * The windows damage opens: "just after a model was destroyed" (before it is removed), "just after a unit
 * was destroyed" and "just after a mortal wound is allocated". They are opened from the damage step
 * through its listeners, so the damage code does not depend on stratagems.
 */
import { onModelDestroyed, onMortalWoundAllocated, onUnitDestroyed } from '../damage.ts';
import { hasStratagemFor } from '../stratagems/registry.ts';
import { openWindow } from '../windows.ts';

// only when a player has a stratagem for a model's destruction (FAIL-SAFE DETONATOR): most games have none,
// and models die often
onModelDestroyed((g, unit, model) => {
  if (hasStratagemFor(g, 0, 'model/destroyed') || hasStratagemFor(g, 1, 'model/destroyed')) openWindow(g, { name: 'model/destroyed', unit: unit.id, targets: [], data: { model: model.id } });
}, 'window');

onUnitDestroyed((g, _unit, component, by) => {
  openWindow(g, { name: 'unit/destroyed', unit: component, targets: [], data: { by } });
});

onMortalWoundAllocated((g, unit) => {
  openWindow(g, { name: 'damage/mortal-wound-allocated', unit: unit.id, targets: [] });
});
