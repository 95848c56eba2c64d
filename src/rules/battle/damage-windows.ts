/**
 * The windows damage opens: "just after a unit was destroyed" and "just after a mortal wound is
 * allocated". They are opened from the damage step through its listeners, so the damage code does not
 * depend on stratagems.
 */
import { onMortalWoundAllocated, onUnitDestroyed } from '../damage.ts';
import { openWindow } from '../windows.ts';

onUnitDestroyed((g, _unit, component, by) => {
  openWindow(g, { name: 'unit/destroyed', unit: component, targets: [], data: { by } });
});

onMortalWoundAllocated((g, unit) => {
  openWindow(g, { name: 'damage/mortal-wound-allocated', unit: unit.id, targets: [] });
});
